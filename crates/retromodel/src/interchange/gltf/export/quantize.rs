//! Quantised vertex data ([`GltfOptions::quantize`](super::GltfOptions::quantize),
//! `KHR_mesh_quantization`): the arithmetic, kept apart from the document building.
//!
//! - **Positions** are rounded to a grid `origin + step * q`, the node's transform (a
//!   translation and a scale). Its step on each axis is the source's own there
//!   ([`Frame::position_step`](crate::model::Frame), the smallest over the poses), so the
//!   error stays within half of it and is none where the source's grid is that one (Quake
//!   MDL, MD3, GameStudio MDL2..MDL5: every pose on one grid). On an axis where the poses
//!   are not all on one grid (MD2 stores each frame on its own) the step is halved, so that
//!   a writer putting each pose back on a grid of its own stays within one step. An axis
//!   whose extent would span more than 65535 steps (a 16-bit source) gets a coarser step,
//!   up to twice the source's, the error staying within one source step; past that the
//!   mesh keeps float positions.
//!   Positions stored as floats get one step for the three axes, 32767 of them over the
//!   mesh's largest extent (65535 without morph targets). A target's delta
//!   `q_pose - q_base` is written as `BYTE`s when it fits, else `SHORT`s, else (a vertex
//!   moving more than 32767 steps of a 16-bit source) as `FLOAT`s holding the integers.
//! - **Normals** are normalised integers too. Under a scale that differs per axis a
//!   renderer turns a normal by the inverse scale (the normal matrix) and normalises it, so
//!   the normal stored is the model's scaled by the step, normalised: it comes back
//!   pointing where the model's does. A morph target's normal delta lies in `[-2, 2]` per
//!   component, normalised types hold `[-1, 1]`: since renderers normalise the morphed
//!   normal, the delta stored is `λ n - n0` with the largest `λ <= 1` that fits, which
//!   points the pose's normal exactly where `n` does. The base normals are normalised
//!   `SHORT`s within 1.5e-5 of unit length (Blender 3.4 does not normalise the normals
//!   it imports: the half-percent length error of a `BYTE` normal shows there as shading
//!   off by degrees); each target takes the first of normalised `BYTE`, normalised `SHORT`
//!   and `FLOAT` that keeps every morphed normal within [`NORMAL_TOLERANCE`] of the model's
//!   (a base normal along an axis that flips to the other side has no such `λ`: `FLOAT`,
//!   rounded to multiples of 2^-10 so that they compress).
//!   A normal that the base already points within the tolerance of gets a zero delta.
//! - **Texture coordinates** all within `[0, 1]` are normalised `UNSIGNED_SHORT`s, rounded
//!   up (a coordinate on a texel's corner, as MD2 stores them, stays in its texel); others
//!   stay floats.

use super::space::Local;
use crate::math::det;

/// The largest angle (radians, about 0.57°) between a quantised normal and the model's:
/// under half the 1.4° step of MD3's latitude/longitude normals, the finest normals of the
/// sources (Quake's 162 directions are much further apart).
pub(super) const NORMAL_TOLERANCE: f64 = 0.01;

/// The spacing float normal deltas are rounded to (a few bits of mantissa: they compress,
/// and stay about 0.001 radian from exact).
const FLOAT_DELTA_GRID: f64 = 1.0 / 1024.0;

/// Most grid steps a mesh spans per axis (an `UNSIGNED_SHORT`).
const SPAN: f64 = 65535.0;
/// Most grid steps a mesh of a float source with morph targets spans per axis, so that its
/// deltas fit a `SHORT`.
const SPAN_FLOAT_TARGETS: f64 = 32767.0;

/// The grid positions are rounded to: a position is `origin + step * q` (per axis), `q` a
/// vector of integers from 0 to `top`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Grid {
    /// The grid's corner (the node's translation).
    pub origin: [f32; 3],
    /// The spacing on each axis (the node's scale).
    pub step: [f32; 3],
    /// The largest grid coordinate used: base positions fit an `UNSIGNED_BYTE` up to 255.
    pub top: u32,
}

impl Grid {
    /// The grid for positions within `lo..=hi` (per axis). `source` is the source's step
    /// per axis (0 on an axis the source keeps flat), `None` for float sources; `targets`
    /// whether the mesh has morph targets. `None` when the positions are better kept as
    /// floats: not finite, or an extent that would need a step over twice the source's.
    pub fn new(
        lo: [f64; 3],
        hi: [f64; 3],
        source: Option<[f64; 3]>,
        targets: bool,
    ) -> Option<Grid> {
        if !lo.iter().chain(&hi).all(|c| c.is_finite()) || (0..3).any(|a| lo[a] > hi[a]) {
            return None;
        }
        let span: [f64; 3] = std::array::from_fn(|a| hi[a] - lo[a]);
        let largest = span.iter().copied().fold(0.0, f64::max);
        let source = source.filter(|s| s.iter().any(|&c| c > 0.0));
        let wanted: [f64; 3] = match source {
            None => {
                let most = if targets { SPAN_FLOAT_TARGETS } else { SPAN };
                [largest / most; 3]
            }
            Some(s) => {
                let mut g: [f64; 3] = std::array::from_fn(|a| {
                    if s[a] > 0.0 {
                        s[a].max(span[a] / SPAN)
                    } else {
                        span[a] / SPAN
                    }
                });
                if (0..3).any(|a| s[a] > 0.0 && g[a] > 2.0 * s[a]) {
                    return None;
                }
                // An axis the source keeps flat takes the finest other step.
                let finest = (0..3)
                    .filter(|&a| s[a] > 0.0)
                    .map(|a| g[a])
                    .fold(f64::INFINITY, f64::min);
                for a in 0..3 {
                    if s[a] <= 0.0 {
                        g[a] = g[a].max(finest);
                    }
                }
                g
            }
        };
        let origin = lo.map(|c| c as f32);
        let mut top = 0u32;
        let mut step = [0f32; 3];
        for a in 0..3 {
            let most = if source.is_none() && targets {
                SPAN_FLOAT_TARGETS
            } else {
                SPAN
            };
            let mut g = wanted[a] as f32;
            if !(g.is_normal() && g > 0.0) {
                if span[a] != 0.0 {
                    return None;
                }
                g = 1.0;
            }
            // The f32 origin and step may put the far corner one step past the limit.
            let mut fits = false;
            for _ in 0..64 {
                let t = ((hi[a] - f64::from(origin[a])) / f64::from(g)).round();
                if t <= most {
                    top = top.max(t as u32);
                    fits = true;
                    break;
                }
                g = f32::from_bits(g.to_bits() + 1);
            }
            if !fits || source.is_some_and(|s| s[a] > 0.0 && f64::from(g) > 2.0 * s[a]) {
                return None;
            }
            step[a] = g;
        }
        Some(Grid { origin, step, top })
    }

    /// The grid point nearest `p` (which lies within the grid's bounds).
    pub fn quantize(&self, p: [f32; 3]) -> [i32; 3] {
        std::array::from_fn(|a| {
            let q =
                ((f64::from(p[a]) - f64::from(self.origin[a])) / f64::from(self.step[a])).round();
            q.clamp(0.0, f64::from(self.top)) as i32
        })
    }

    /// Where grid point `q` is.
    pub fn position(&self, q: [i32; 3]) -> [f64; 3] {
        std::array::from_fn(|a| {
            f64::from(self.origin[a]) + f64::from(self.step[a]) * f64::from(q[a])
        })
    }

    /// The component type of base positions: `UNSIGNED_BYTE` up to 255 steps.
    pub fn base_component(&self) -> Component {
        if self.top <= 255 {
            Component::U8
        } else {
            Component::U16
        }
    }

    /// The node scale normals are stored under ([`Normals`]).
    pub fn normal_scale(&self) -> [f64; 3] {
        self.step.map(f64::from)
    }
}

/// The smallest step of each axis of `steps` (per pose, model axes), in glTF's axes and the
/// units of a node whose world transform scales by up to `scale`: 0 on an axis no pose
/// has a step on, `None` when a pose has no step at all (a float source).
pub(super) fn smallest_steps<'a>(
    steps: impl IntoIterator<Item = &'a Option<[f32; 3]>>,
    scale: f64,
) -> Option<[f64; 3]> {
    let mut out = [f64::INFINITY; 3];
    for s in steps {
        let s = (*s)?;
        for a in 0..3 {
            let c = f64::from(s[a]).abs();
            if c.is_finite() && c > 0.0 {
                out[a] = out[a].min(c);
            }
        }
    }
    if !(scale.is_finite() && scale > 0.0) {
        return None;
    }
    let out = out.map(|c| if c.is_finite() { c / scale } else { 0.0 });
    // Model (x, y, z) is glTF (x, z, -y).
    Some([out[0], out[2], out[1]])
}

/// The component types the quantised export writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Component {
    /// `BYTE`.
    I8,
    /// `UNSIGNED_BYTE`.
    U8,
    /// `SHORT`.
    I16,
    /// `UNSIGNED_SHORT`.
    U16,
    /// `FLOAT`.
    F32,
}

impl Component {
    /// Bytes of one component.
    pub fn size(self) -> usize {
        match self {
            Component::I8 | Component::U8 => 1,
            Component::I16 | Component::U16 => 2,
            Component::F32 => 4,
        }
    }

    /// The value a normalised component `c` stands for (glTF's decoding).
    pub fn unit(self, c: i32) -> f64 {
        match self {
            Component::I8 => (f64::from(c) / 127.0).max(-1.0),
            Component::U8 => f64::from(c) / 255.0,
            Component::I16 => (f64::from(c) / 32767.0).max(-1.0),
            Component::U16 => f64::from(c) / 65535.0,
            Component::F32 => f64::from(c),
        }
    }

    /// The largest normalised magnitude (`127` for `BYTE`...).
    fn scale(self) -> f64 {
        match self {
            Component::I8 => 127.0,
            Component::U8 => 255.0,
            Component::I16 => 32767.0,
            Component::U16 => 65535.0,
            Component::F32 => 1.0,
        }
    }
}

/// A column of three-component values, one row per vertex: integers of one component
/// type, or floats.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Rows {
    /// Integer components.
    Int(Vec<[i32; 3]>),
    /// Float components.
    Float(Vec<[f32; 3]>),
}

/// One attribute's values (a base attribute or a target's deltas) before they are written.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Column {
    /// The component type (`F32` exactly when the rows are floats).
    pub component: Component,
    /// Whether the integers are normalised.
    pub normalized: bool,
    /// The values.
    pub rows: Rows,
}

impl Column {
    /// Integer rows in the smallest of `BYTE`, `SHORT` and `FLOAT` that holds them (not
    /// normalised).
    pub fn deltas(rows: Vec<[i32; 3]>) -> Column {
        let fits = |m: i32| rows.iter().flatten().all(|c| (-m..=m).contains(c));
        let component = if fits(127) {
            Component::I8
        } else if fits(32767) {
            Component::I16
        } else {
            let rows = rows.iter().map(|r| r.map(|c| c as f32)).collect();
            return Column {
                component: Component::F32,
                normalized: false,
                rows: Rows::Float(rows),
            };
        };
        Column {
            component,
            normalized: false,
            rows: Rows::Int(rows),
        }
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        match &self.rows {
            Rows::Int(r) => r.len(),
            Rows::Float(r) => r.len(),
        }
    }

    /// Whether row `v` is all zeros.
    pub fn is_zero(&self, v: usize) -> bool {
        match &self.rows {
            Rows::Int(r) => r[v] == [0; 3],
            Rows::Float(r) => r[v] == [0.0; 3],
        }
    }

    /// Bytes of one element packed (sparse values).
    pub fn packed_size(&self) -> usize {
        3 * self.component.size()
    }

    /// Bytes of one element in a vertex buffer: aligned to 4.
    pub fn stride(&self) -> usize {
        self.packed_size().next_multiple_of(4)
    }

    /// Appends row `v`'s bytes, padded to `size` bytes.
    pub fn put(&self, v: usize, size: usize, out: &mut Vec<u8>) {
        let start = out.len();
        match &self.rows {
            Rows::Int(r) => {
                for &c in &r[v] {
                    match self.component {
                        Component::I8 => out.push(c as i8 as u8),
                        Component::U8 => out.push(c as u8),
                        Component::I16 => out.extend_from_slice(&(c as i16).to_le_bytes()),
                        _ => out.extend_from_slice(&(c as u16).to_le_bytes()),
                    }
                }
            }
            Rows::Float(r) => {
                for c in r[v] {
                    out.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        out.resize(start + size, 0);
    }

    /// Per-component minimum and maximum of the rows `rows` (all when `None`), with a zero
    /// row too when `with_zero` (a sparse accessor's elements left out are zeros).
    pub fn bounds(&self, rows: Option<&[u32]>, with_zero: bool) -> ([f64; 3], [f64; 3]) {
        let value = |v: usize| -> [f64; 3] {
            match &self.rows {
                Rows::Int(r) => r[v].map(f64::from),
                Rows::Float(r) => r[v].map(f64::from),
            }
        };
        let all: Vec<usize> = match rows {
            Some(list) => list.iter().map(|&v| v as usize).collect(),
            None => (0..self.len()).collect(),
        };
        let zero = (with_zero || all.is_empty()).then_some([0.0; 3]);
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for v in all.into_iter().map(value).chain(zero) {
            for a in 0..3 {
                lo[a] = lo[a].min(v[a]);
                hi[a] = hi[a].max(v[a]);
            }
        }
        (lo, hi)
    }

    /// A key telling columns with the same bytes apart from others (for sharing accessors).
    pub fn key(&self, out: &mut Vec<u8>) {
        out.push(self.component as u8);
        out.push(u8::from(self.normalized));
        out.extend_from_slice(&(self.len() as u64).to_le_bytes());
        for v in 0..self.len() {
            self.put(v, self.packed_size(), out);
        }
    }
}

/// A unit vector as normalised `SHORT`s: of the vectors within two steps of it on every
/// axis, the one whose length is nearest 1 (within 1.5e-5; rounding is up to 2.6e-5 off).
pub(super) fn unit_shorts(n: [f64; 3]) -> [i32; 3] {
    let floor = n.map(|c| (c * 32767.0).floor());
    let mut best = (f64::INFINITY, [0; 3]);
    for k in 0..64 {
        let b: [i32; 3] = std::array::from_fn(|a| {
            let d = f64::from((k >> (2 * a)) & 3) - 1.0;
            (floor[a] + d).clamp(-32767.0, 32767.0) as i32
        });
        let len = b.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt() / 32767.0;
        if (len - 1.0).abs() < best.0 {
            best = ((len - 1.0).abs(), b);
        }
    }
    best.1
}

/// The angle between `a` and the unit vector `u`, in radians (π when `a` has no length).
pub(super) fn angle(a: [f64; 3], u: [f64; 3]) -> f64 {
    let len = a.iter().map(|c| c * c).sum::<f64>().sqrt();
    if len.is_nan() || len <= 1e-12 {
        return std::f64::consts::PI;
    }
    let dot: f64 = (0..3).map(|k| a[k] * u[k]).sum();
    det::acos((dot / len).clamp(-1.0, 1.0))
}

/// The largest `λ <= 1` for which `λ n - b` lies within `[-1, 1]` on every axis (`b` within
/// `[-1, 1]`): 0 when none is positive.
fn largest_lambda(b: [f64; 3], n: [f64; 3]) -> f64 {
    (0..3).fold(1.0, |l: f64, k| {
        if n[k] > 0.0 {
            l.min((1.0 + b[k]) / n[k])
        } else if n[k] < 0.0 {
            l.min((1.0 - b[k]) / -n[k])
        } else {
            l
        }
    })
}

/// Normals stored under a node scale `scale` (per axis): a normal `n` is stored as
/// `scale * n` normalised, and a stored vector `s` means the direction of `s / scale`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Normals {
    /// The node's scale.
    pub scale: [f64; 3],
}

impl Normals {
    /// The unit vector stored for the normal `n`.
    fn stored(&self, n: [f32; 3]) -> [f64; 3] {
        let v: [f64; 3] = std::array::from_fn(|k| f64::from(n[k]) * self.scale[k]);
        let len = v.iter().map(|c| c * c).sum::<f64>().sqrt();
        if len > 0.0 && len.is_finite() {
            v.map(|c| c / len)
        } else {
            [0.0, 1.0, 0.0]
        }
    }

    /// The angle between the direction a stored vector `s` means and the unit normal `n`.
    fn error(&self, s: [f64; 3], n: [f32; 3]) -> f64 {
        let t: [f64; 3] = std::array::from_fn(|k| s[k] / self.scale[k]);
        angle(t, n.map(f64::from))
    }

    /// The base normals: normalised `SHORT`s of unit length to 1.5e-5 (Blender 3.4 uses
    /// the normals it imports without normalising them, and the half-percent length error
    /// of a `BYTE` normal turns into degrees there: bytes are for morph deltas), or `FLOAT`s
    /// when the shorts stray past [`NORMAL_TOLERANCE`] (a very uneven scale); the column,
    /// the decoded stored vectors (what morph deltas add to), and the largest angle left.
    pub fn base(&self, normals: &[[f32; 3]]) -> (Column, Vec<[f64; 3]>, f64) {
        let stored: Vec<[f64; 3]> = normals.iter().map(|&n| self.stored(n)).collect();
        let worst = |decoded: &[[f64; 3]]| {
            decoded
                .iter()
                .zip(normals)
                .map(|(&d, &n)| self.error(d, n))
                .fold(0.0, f64::max)
        };
        let rows: Vec<[i32; 3]> = stored.iter().map(|&s| unit_shorts(s)).collect();
        let decoded: Vec<[f64; 3]> = rows
            .iter()
            .map(|r| r.map(|c| Component::I16.unit(c)))
            .collect();
        let off = worst(&decoded);
        if off <= NORMAL_TOLERANCE {
            let column = Column {
                component: Component::I16,
                normalized: true,
                rows: Rows::Int(rows),
            };
            return (column, decoded, off);
        }
        let rows: Vec<[f32; 3]> = stored.iter().map(|s| s.map(|c| c as f32)).collect();
        let decoded: Vec<[f64; 3]> = rows.iter().map(|r| r.map(f64::from)).collect();
        let off = worst(&decoded);
        let column = Column {
            component: Component::F32,
            normalized: false,
            rows: Rows::Float(rows),
        };
        (column, decoded, off)
    }

    /// The base normals of [`Normals::base`] for meshopt compression: when they are
    /// `SHORT`s, the OCTAHEDRAL filter's 16-bit input for the same directions with the
    /// fewest bits of precision (8 to 16) that keep them within [`NORMAL_TOLERANCE`] (the
    /// last value: those bytes) and the column of what the filter decodes it to, with its
    /// decoded vectors and largest angle; else, or when even 16 bits stray past the
    /// tolerance, `base` as it is.
    #[allow(clippy::type_complexity)]
    pub fn octahedral(
        &self,
        normals: &[[f32; 3]],
        base: (Column, Vec<[f64; 3]>, f64),
    ) -> (Column, Vec<[f64; 3]>, f64, Option<Vec<u8>>) {
        use crate::interchange::gltf::meshopt;
        let keep = |base: (Column, Vec<[f64; 3]>, f64)| (base.0, base.1, base.2, None);
        if base.0.component != Component::I16 {
            return keep(base);
        }
        let vectors: Vec<[f32; 4]> = normals
            .iter()
            .map(|&n| {
                let s = self.stored(n);
                [s[0] as f32, s[1] as f32, s[2] as f32, 0.0]
            })
            .collect();
        // The fewest bits of octahedral coordinates (8 to 16: fewer bits compress better)
        // that keep every normal within the tolerance.
        for bits in 8..=16 {
            let Ok(filtered) = meshopt::encode_filter_octahedral(&vectors, 8, bits) else {
                return keep(base);
            };
            let mut bytes = filtered.clone();
            if meshopt::filter_octahedral(&mut bytes, 8).is_err() {
                return keep(base);
            }
            let rows: Vec<[i32; 3]> = bytes
                .chunks_exact(8)
                .map(|e| [0, 1, 2].map(|k| i32::from(i16::from_le_bytes([e[2 * k], e[2 * k + 1]]))))
                .collect();
            let decoded: Vec<[f64; 3]> = rows
                .iter()
                .map(|r| r.map(|c| Component::I16.unit(c)))
                .collect();
            let off = decoded
                .iter()
                .zip(normals)
                .map(|(&d, &n)| self.error(d, n))
                .fold(0.0, f64::max);
            if off > NORMAL_TOLERANCE {
                continue;
            }
            let column = Column {
                component: Component::I16,
                normalized: true,
                rows: Rows::Int(rows),
            };
            return (column, decoded, off, Some(filtered));
        }
        keep(base)
    }

    /// The normal deltas of one pose against the decoded base normals `base`: the first of
    /// normalised `BYTE`, normalised `SHORT` and `FLOAT` whose every morphed normal points
    /// within [`NORMAL_TOLERANCE`] of `wanted` (the pose's unit normals), and the largest
    /// angle left.
    pub fn deltas(&self, base: &[[f64; 3]], wanted: &[[f32; 3]]) -> (Column, f64) {
        'kinds: for component in [Component::I8, Component::I16] {
            let scale = component.scale();
            let mut rows = Vec::with_capacity(base.len());
            let mut worst = 0.0f64;
            for (&b, &n) in base.iter().zip(wanted) {
                let already = self.error(b, n);
                if already <= NORMAL_TOLERANCE {
                    rows.push([0; 3]);
                    worst = worst.max(already);
                    continue;
                }
                let s = self.stored(n);
                let l = largest_lambda(b, s);
                if l.is_nan() || l <= 0.0 {
                    continue 'kinds;
                }
                let c: [i32; 3] = std::array::from_fn(|k| {
                    ((l * s[k] - b[k]) * scale).round().clamp(-scale, scale) as i32
                });
                let got: [f64; 3] = std::array::from_fn(|k| b[k] + component.unit(c[k]));
                let off = self.error(got, n);
                if off > NORMAL_TOLERANCE {
                    continue 'kinds;
                }
                worst = worst.max(off);
                rows.push(c);
            }
            let column = Column {
                component,
                normalized: true,
                rows: Rows::Int(rows),
            };
            return (column, worst);
        }
        // Floats on a grid of 2^-10 (short mantissas, which compress), unless that strays
        // past the tolerance; then exact.
        let floats = |grid: f64| {
            let mut worst = 0.0f64;
            let rows: Vec<[f32; 3]> = base
                .iter()
                .zip(wanted)
                .map(|(&b, &n)| {
                    let already = self.error(b, n);
                    if already <= NORMAL_TOLERANCE {
                        worst = worst.max(already);
                        return [0.0; 3];
                    }
                    let s = self.stored(n);
                    let d: [f32; 3] = std::array::from_fn(|k| {
                        let d = s[k] - b[k];
                        (if grid > 0.0 {
                            (d / grid).round() * grid
                        } else {
                            d
                        }) as f32
                    });
                    let got: [f64; 3] = std::array::from_fn(|k| b[k] + f64::from(d[k]));
                    worst = worst.max(self.error(got, n));
                    d
                })
                .collect();
            (rows, worst)
        };
        let (rows, worst) = match floats(FLOAT_DELTA_GRID) {
            r if r.1 <= NORMAL_TOLERANCE => r,
            _ => floats(0.0),
        };
        let column = Column {
            component: Component::F32,
            normalized: false,
            rows: Rows::Float(rows),
        };
        (column, worst)
    }
}

/// Texture coordinates as normalised `UNSIGNED_SHORT`s rounded up, when all lie within
/// `[0, 1]`; else `None`.
pub(super) fn texcoords(uvs: &[[f32; 2]]) -> Option<Vec<[u16; 2]>> {
    uvs.iter()
        .all(|uv| uv.iter().all(|c| (0.0..=1.0).contains(c)))
        .then(|| {
            uvs.iter()
                .map(|uv| uv.map(|c| (f64::from(c) * 65535.0).ceil().min(65535.0) as u16))
                .collect()
        })
}

/// How one morph target's two columns are written.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Layout {
    /// Both all zeros: accessors without data.
    Zero,
    /// Every element of both in vertex buffers.
    Dense,
    /// Only the rows in the list, for both columns (one index list).
    Shared(Vec<u32>),
    /// Each column by itself: dense (`None`) or sparse with its own rows.
    Apart(Option<Vec<u32>>, Option<Vec<u32>>),
}

/// Bytes of one sparse index for `count` elements.
pub(super) fn index_size(count: usize) -> usize {
    if count <= 256 {
        1
    } else if count <= 65536 {
        2
    } else {
        4
    }
}

/// The smallest way to write `a` and `b` (same length): dense, sparse with one index list,
/// or each its own way.
pub(super) fn layout(a: &Column, b: &Column) -> Layout {
    let n = a.len();
    let index = index_size(n);
    let nonzero =
        |c: &Column| -> Vec<u32> { (0..n as u32).filter(|&v| !c.is_zero(v as usize)).collect() };
    let (ra, rb) = (nonzero(a), nonzero(b));
    if ra.is_empty() && rb.is_empty() {
        return Layout::Zero;
    }
    let either: Vec<u32> = (0..n as u32)
        .filter(|&v| !a.is_zero(v as usize) || !b.is_zero(v as usize))
        .collect();
    let dense = n * (a.stride() + b.stride());
    let shared = either.len() * (index + a.packed_size() + b.packed_size());
    let alone = |c: &Column, rows: &[u32]| -> (usize, bool) {
        let sparse = rows.len() * (index + c.packed_size());
        let dense = n * c.stride();
        if rows.is_empty() || sparse < dense {
            (sparse, true)
        } else {
            (dense, false)
        }
    };
    let ((ca, sa), (cb, sb)) = (alone(a, &ra), alone(b, &rb));
    if dense <= shared && dense <= ca + cb {
        Layout::Dense
    } else if shared <= ca + cb {
        Layout::Shared(either)
    } else {
        Layout::Apart(sa.then_some(ra), sb.then_some(rb))
    }
}

/// The largest error, per model axis, of grid point `q` against the point `p` it stands for
/// (both in the node's space, Y-up), in model units through `local` (model space when
/// `None`).
pub(super) fn position_error(grid: &Grid, q: [i32; 3], p: [f32; 3], local: Option<&Local>) -> f64 {
    let g = grid.position(q);
    let e: [f64; 3] = std::array::from_fn(|a| g[a] - f64::from(p[a]));
    let e = match local {
        Some(l) => l.to_model(e),
        None => e,
    };
    e.iter().fold(0.0, |m, c| m.max(c.abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_keep_the_source_steps_and_fit_shorts() {
        // A Quake-like mesh: 255 steps of 0.1 on x, of 0.2 on y, flat on z.
        let g = Grid::new(
            [-5.0, 0.0, 0.0],
            [20.5, 51.0, 0.0],
            Some([0.1, 0.2, 0.0]),
            true,
        )
        .unwrap();
        assert_eq!(g.step, [0.1, 0.2, 0.1]);
        assert_eq!(g.top, 255);
        assert_eq!(g.base_component(), Component::U8);
        // The source's grid points come back exactly.
        let p = [-5.0 + 0.1 * 17.0, 0.2 * 100.0, 0.0];
        let q = g.quantize(p);
        assert_eq!(q, [17, 100, 0]);
        assert!(position_error(&g, q, p, None) < 1e-5);
        // An extent of more than 65535 source steps coarsens that axis's step, up to twice.
        let s = Some([0.1; 3]);
        let g = Grid::new([0.0; 3], [6553.0, 1.0, 1.0], s, true).unwrap();
        assert_eq!((g.step, g.top), ([0.1; 3], 65530));
        let g = Grid::new([0.0; 3], [10000.0, 1.0, 1.0], s, true).unwrap();
        assert!(g.step[0] > 0.1 && g.step[0] <= 0.2, "{:?}", g.step);
        assert_eq!(&g.step[1..], &[0.1, 0.1]);
        assert!(g.top <= 65535);
        assert!(Grid::new([0.0; 3], [14000.0, 1.0, 1.0], s, true).is_none());
        // Float sources: one step, 32767 of them over the largest extent with targets,
        // else 65535.
        let g = Grid::new([1.0, 2.0, 3.0], [2.0, 2.5, 3.0], None, true).unwrap();
        assert_eq!(g.top, 32767);
        assert!(g
            .step
            .iter()
            .all(|&c| (f64::from(c) - 1.0 / 32767.0).abs() < 1e-9));
        let g = Grid::new([1.0, 2.0, 3.0], [2.0, 2.5, 3.0], None, false).unwrap();
        assert_eq!(g.top, 65535);
        // A single point.
        let g = Grid::new([1.0; 3], [1.0; 3], None, true).unwrap();
        assert_eq!((g.top, g.quantize([1.0; 3])), (0, [0; 3]));
        assert!(Grid::new([f64::NAN; 3], [1.0; 3], None, true).is_none());
    }

    #[test]
    fn smallest_steps_per_axis_in_gltf_order() {
        let steps = [Some([0.1, 0.0, 0.3]), Some([0.2, 0.05, 0.4])];
        let f = |x: f32| f64::from(x);
        assert_eq!(smallest_steps(&steps, 1.0), Some([f(0.1), f(0.3), f(0.05)]));
        assert_eq!(
            smallest_steps(&steps, 2.0),
            Some([f(0.1) / 2.0, f(0.3) / 2.0, f(0.05) / 2.0])
        );
        assert_eq!(smallest_steps(&[Some([0.1; 3]), None], 1.0), None);
        assert_eq!(smallest_steps(&[Some([0.0; 3])], 1.0), Some([0.0; 3]));
    }

    fn unit(v: [f64; 3]) -> [f32; 3] {
        let l = v.iter().map(|c| c * c).sum::<f64>().sqrt();
        v.map(|c| (c / l) as f32)
    }

    #[test]
    fn normal_deltas_point_the_right_way() {
        let same = Normals { scale: [1.0; 3] };
        let (column, base, worst) = same.base(&[[0.6, 0.0, 0.8], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
        assert_eq!(column.component, Component::I16);
        assert!(worst <= NORMAL_TOLERANCE);
        // Small turns: bytes.
        let wanted = [
            unit([0.8, 0.0, 0.6]),
            unit([0.1, 1.0, 0.0]),
            [0.0, 0.0, 1.0],
        ];
        let (c, worst) = same.deltas(&base, &wanted);
        assert_eq!(c.component, Component::I8);
        assert!(c.normalized && worst <= NORMAL_TOLERANCE);
        assert!(c.is_zero(2) && !c.is_zero(0));
        // A half turn of a normal near an axis: λ = 0.05 fits, too short for bytes.
        let near = unit([0.3, 0.1, 0.95]);
        let (_, base_near, _) = same.base(&[near]);
        let (c, worst) = same.deltas(&base_near, &[near.map(|c| -c)]);
        assert_eq!(c.component, Component::I16);
        assert!(c.normalized && worst <= NORMAL_TOLERANCE);
        // A normal along an axis that flips has no fitting λ: floats.
        let wanted = [unit([0.6, 0.0, 0.8]), [0.0, -1.0, 0.0], [0.0, 0.0, 1.0]];
        let (c, worst) = same.deltas(&base, &wanted);
        assert_eq!(c.component, Component::F32);
        assert!(worst <= NORMAL_TOLERANCE, "{worst}");
        assert!(c.is_zero(0) && c.is_zero(2) && !c.is_zero(1));
        let Rows::Float(rows) = &c.rows else {
            panic!("{c:?}")
        };
        assert_eq!(rows[1], [0.0, -2.0, 0.0]);
        // Decoding: base + delta points at the wanted normal, under a uniform scale and
        // under one that differs per axis (the stored vectors are then turned).
        let wanted = [
            unit([0.6, 0.1, -0.79]),
            unit([1.0, 0.02, 0.0]),
            unit([0.3, 0.3, 0.9]),
        ];
        for scale in [[1.0; 3], [0.1, 0.25, 0.15]] {
            let normals = Normals { scale };
            let (_, base, _) = normals.base(&[[0.6, 0.0, 0.8], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]);
            let (c, _) = normals.deltas(&base, &wanted);
            let Rows::Int(rows) = &c.rows else {
                panic!("{c:?}")
            };
            for v in 0..3 {
                let got: [f64; 3] =
                    std::array::from_fn(|k| (base[v][k] + c.component.unit(rows[v][k])) / scale[k]);
                assert!(angle(got, wanted[v].map(f64::from)) <= NORMAL_TOLERANCE);
            }
        }
        // A wildly uneven scale needs float base normals.
        let uneven = Normals {
            scale: [1.0, 1e-6, 1.0],
        };
        let (column, base, worst) = uneven.base(&[unit([0.3, 0.9, 0.1])]);
        assert_eq!(column.component, Component::F32);
        assert!(worst <= NORMAL_TOLERANCE);
        assert!(uneven.error(base[0], unit([0.3, 0.9, 0.1])) <= NORMAL_TOLERANCE);
    }

    #[test]
    fn short_normals_are_nearly_unit() {
        let mut worst = (0.0f64, 0.0f64);
        for i in 0..20000 {
            // Directions spread over the sphere (a Fibonacci lattice).
            let z = 1.0 - 2.0 * (f64::from(i) + 0.5) / 20000.0;
            let r = (1.0 - z * z).sqrt();
            let phi = f64::from(i) * 2.399963229728653;
            let n = [r * det::cos(phi), r * det::sin(phi), z];
            let b = unit_shorts(n);
            let len = b.iter().map(|&c| f64::from(c).powi(2)).sum::<f64>().sqrt() / 32767.0;
            // Plain rounding is off by up to 2.6e-5.
            worst.0 = worst.0.max((len - 1.0).abs());
            worst.1 = worst.1.max(angle(b.map(f64::from), n));
        }
        assert!(worst.0 < 1.5e-5, "{worst:?}");
        assert!(worst.1 < 2e-4, "{worst:?}");
    }

    #[test]
    fn texcoords_round_up_within_the_unit_square() {
        let q = texcoords(&[[0.0, 1.0], [0.5, 0.25]]).unwrap();
        assert_eq!(q[0], [0, 65535]);
        assert!(f64::from(q[1][0]) / 65535.0 >= 0.5);
        assert!(f64::from(q[1][0]) / 65535.0 - 0.5 < 1.0 / 65535.0);
        assert_eq!(texcoords(&[[0.0, 1.5]]), None);
    }

    #[test]
    fn layouts_pick_the_smallest() {
        let col = |rows: Vec<[i32; 3]>| Column::deltas(rows);
        // Up to 256 vertices a one-byte index makes even every row cheaper sparse.
        let all = col(vec![[1; 3]; 10]);
        assert_eq!(layout(&all, &all), Layout::Shared((0..10).collect()));
        let n = 1000;
        let zero = col(vec![[0; 3]; n]);
        assert_eq!(layout(&zero, &zero), Layout::Zero);
        let mut few = vec![[0; 3]; n];
        few[3] = [1, 2, 3];
        let l = layout(&col(few.clone()), &zero);
        assert_eq!(l, Layout::Apart(Some(vec![3]), Some(vec![])));
        let all = col(vec![[1; 3]; n]);
        assert_eq!(layout(&all, &all), Layout::Dense);
        let mut most = vec![[1; 3]; n];
        most[..400].fill([0; 3]);
        assert_eq!(
            layout(&col(most.clone()), &col(most)),
            Layout::Shared((400..n as u32).collect())
        );
        assert_eq!(col(vec![[200, 0, 0]]).component, Component::I16);
        let far = col(vec![[40000, 0, -3]]);
        assert_eq!(far.component, Component::F32);
        assert_eq!(far.rows, Rows::Float(vec![[40000.0, 0.0, -3.0]]));
        let (lo, hi) = col(few).bounds(Some(&[3]), true);
        assert_eq!((lo, hi), ([0.0; 3], [1.0, 2.0, 3.0]));
    }
}
