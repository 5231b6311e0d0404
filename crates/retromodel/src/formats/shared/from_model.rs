//! What the writers of vertex-animated formats share when they build a file from any
//! [`Model`]: one flat mesh, texel coordinates, byte quantisation and engine-limit checks.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::model::Model;

/// Every mesh of a model merged into one, with per-frame vertex data.
pub(crate) struct Flat {
    /// Positions of every vertex, per frame (one frame at least).
    pub positions: Vec<Vec<[f32; 3]>>,
    /// Unit normals of every vertex, per frame.
    pub normals: Vec<Vec<[f32; 3]>>,
    /// Texture coordinates.
    pub uvs: Vec<[f32; 2]>,
    /// Triangles.
    pub triangles: Vec<[u32; 3]>,
    /// Per vertex, the group of vertices that are one point of the source (same source vertex
    /// of the same mesh, same position in every frame): the file writes one vertex per group
    /// where the format allows it.
    pub groups: Vec<u32>,
    /// Number of groups.
    pub group_count: usize,
    /// Frame names (one at least).
    pub frame_names: Vec<String>,
    /// Skin of the first textured mesh.
    pub skin: Option<usize>,
    /// Texel size of the first mesh that knows it.
    pub skin_size: Option<[u32; 2]>,
}

impl Flat {
    /// The first vertex of each group, groups in order: the vertex that stands for its
    /// group where a file writes one vertex per group.
    pub fn representatives(&self) -> Vec<u32> {
        let mut rep = vec![u32::MAX; self.group_count];
        for (v, &g) in self.groups.iter().enumerate() {
            if rep[g as usize] == u32::MAX {
                rep[g as usize] = v as u32;
            }
        }
        rep
    }

    /// The distance from the origin of the farthest vertex of any frame.
    pub fn radius(&self) -> f32 {
        self.positions
            .iter()
            .flatten()
            .map(|p| (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt())
            .fold(0.0f32, f32::max)
    }
}

/// Merges the meshes of a valid model. A model without frames gets one frame, `base`, from
/// the meshes' positions.
pub(crate) fn flatten(
    model: &Model,
    format: &'static str,
    warnings: &mut Vec<String>,
) -> Result<Flat> {
    model
        .validate()
        .map_err(|e| Error::new(format, e.kind, e.message, Location::None))?;
    let frames = model.frames.len().max(1);
    let mut flat = Flat {
        positions: vec![Vec::new(); frames],
        normals: vec![Vec::new(); frames],
        uvs: Vec::new(),
        triangles: Vec::new(),
        groups: Vec::new(),
        group_count: 0,
        frame_names: if model.frames.is_empty() {
            vec!["base".to_string()]
        } else {
            model.frames.iter().map(|f| f.name.clone()).collect()
        },
        skin: model.meshes.iter().find_map(|m| m.skin),
        skin_size: model.meshes.iter().find_map(|m| m.skin_size),
    };
    let skins: Vec<_> = model.meshes.iter().map(|m| m.skin).collect();
    if skins.windows(2).any(|w| w[0] != w[1]) {
        let shown = match flat.skin {
            Some(i) => match model.skins.get(i).map(|s| s.name.as_str()) {
                Some(name) if !name.is_empty() => format!("skin {i} (\"{name}\")"),
                _ => format!("skin {i}"),
            },
            None => "no skin".to_string(),
        };
        warnings.push(format!(
            "{} meshes with different skins merged into one mesh showing {shown}",
            model.meshes.len()
        ));
    }
    let mut keys: Vec<(u32, u32)> = Vec::new();
    for (mi, m) in model.meshes.iter().enumerate() {
        let base = flat.uvs.len() as u32;
        for f in 0..frames {
            let (p, n) = match m.morph_targets.get(f) {
                Some(t) => (&t.positions, &t.normals),
                None => (&m.positions, &m.normals),
            };
            flat.positions[f].extend_from_slice(p);
            flat.normals[f].extend_from_slice(n);
        }
        flat.uvs.extend_from_slice(&m.uvs);
        flat.triangles
            .extend(m.triangles.iter().map(|t| t.map(|i| i + base)));
        // Group by source vertex; a member that moves apart from its group's first vertex in
        // any frame gets a group of its own.
        let mut first_of: std::collections::HashMap<u32, (u32, u32)> = Default::default();
        for (i, &sv) in m.source_vertices.iter().enumerate() {
            let v = base + i as u32;
            let g = match first_of.get(&sv) {
                Some(&(rep, g))
                    if flat
                        .positions
                        .iter()
                        .all(|p| p[rep as usize] == p[v as usize]) =>
                {
                    g
                }
                Some(_) => {
                    flat.group_count += 1;
                    flat.group_count as u32 - 1
                }
                None => {
                    flat.group_count += 1;
                    let g = flat.group_count as u32 - 1;
                    first_of.insert(sv, (v, g));
                    g
                }
            };
            flat.groups.push(g);
        }
        keys.extend(m.source_vertices.iter().map(|&sv| (mi as u32, sv)));
    }
    // Number the groups in source order (mesh, source vertex), so a file converted and
    // converted back keeps its vertex numbering.
    let mut key_of = vec![(u32::MAX, u32::MAX); flat.group_count];
    for (v, &g) in flat.groups.iter().enumerate() {
        let k = &mut key_of[g as usize];
        *k = (*k).min(keys[v]);
    }
    let mut order: Vec<u32> = (0..flat.group_count as u32).collect();
    order.sort_by_key(|&g| (key_of[g as usize], g));
    let mut rank = vec![0u32; flat.group_count];
    for (r, &g) in order.iter().enumerate() {
        rank[g as usize] = r as u32;
    }
    flat.groups.iter_mut().for_each(|g| *g = rank[*g as usize]);
    check_finite(&flat, format)?;
    if flat.triangles.is_empty() {
        warnings.push("the model has no triangles: the engines refuse such a file".into());
    }
    Ok(flat)
}

/// The skin size a writer lays texture coordinates out on: that of `picture` (the skin it
/// writes), else the size the meshes were made for, else 256x256 with a warning.
pub(crate) fn skin_size(
    picture: Option<&crate::image::Image>,
    flat: &Flat,
    warnings: &mut Vec<String>,
) -> [u32; 2] {
    picture
        .map(|p| [p.width, p.height])
        .or(flat.skin_size)
        .unwrap_or_else(|| {
            warnings.push("no skin size known; texture coordinates laid out on 256x256".into());
            [256, 256]
        })
}

/// A warning when a skin size has a zero side (every texture coordinate collapses to 0).
pub(crate) fn zero_skin_warning(size: [u32; 2], warnings: &mut Vec<String>) {
    if size[0] == 0 || size[1] == 0 {
        warnings.push(format!(
            "skin size {}x{} has a zero side: texture coordinates collapse to 0",
            size[0], size[1]
        ));
    }
}

/// Largest coordinate magnitude the writers accept: byte quantisation of anything larger
/// overflows `f32` when decoded.
pub(crate) const MAX_COORDINATE: f32 = 1e30;

/// Refuses NaN, infinite or absurdly large positions and UVs: quantising them would lose
/// them silently.
fn check_finite(flat: &Flat, format: &'static str) -> Result<()> {
    let bad = |what: String| {
        Err(Error::new(
            format,
            ErrorKind::InvalidModel,
            format!("{what} is not a finite value within ±{MAX_COORDINATE:e}"),
            Location::None,
        ))
    };
    let ok = |c: f32| c.is_finite() && c.abs() <= MAX_COORDINATE;
    for (f, frame) in flat.positions.iter().enumerate() {
        if let Some(v) = frame.iter().position(|p| !p.iter().all(|&c| ok(c))) {
            return bad(format!("frame {f}: vertex {v}: position {:?}", frame[v]));
        }
    }
    if let Some(v) = flat.uvs.iter().position(|uv| !uv.iter().all(|&c| ok(c))) {
        return bad(format!("vertex {v}: texture coordinate {:?}", flat.uvs[v]));
    }
    Ok(())
}

/// The texel holding texture coordinate `u` on a `size`-texel axis. A coordinate on a texel
/// edge (MD2's `s / w`) and one at a texel centre (MDL's `(s + 0.5) / w`) both give `s`.
pub(crate) fn texel(u: f32, size: u32) -> i32 {
    let x = (u as f64 * size as f64 + 1.0 / 256.0).floor();
    x.clamp(i32::MIN as f64, i32::MAX as f64) as i32
}

/// Byte quantisation of positions inside a box: `v = round((p - translate) / scale)`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Quantizer {
    pub scale: [f32; 3],
    pub translate: [f32; 3],
}

impl Quantizer {
    /// The quantiser spanning `[lo, hi]` with 256 steps per axis.
    pub fn new(lo: [f32; 3], hi: [f32; 3]) -> Self {
        Quantizer {
            scale: std::array::from_fn(|k| (hi[k] - lo[k]) / 255.0),
            translate: lo,
        }
    }

    /// The packed position.
    pub fn pack(&self, p: [f32; 3]) -> [u8; 3] {
        std::array::from_fn(|k| {
            if self.scale[k] > 0.0 {
                ((p[k] - self.translate[k]) / self.scale[k])
                    .round()
                    .clamp(0.0, 255.0) as u8
            } else {
                0
            }
        })
    }

    /// The position a packed one decodes to.
    pub fn unpack(&self, v: [u8; 3]) -> [f32; 3] {
        std::array::from_fn(|k| self.scale[k] * v[k] as f32 + self.translate[k])
    }

    /// Largest per-axis distance between `p` and its decoded packed value.
    pub fn error(&self, p: [f32; 3]) -> f32 {
        let q = self.unpack(self.pack(p));
        (0..3).map(|k| (q[k] - p[k]).abs()).fold(0.0, f32::max)
    }
}

/// One pose packed with `q`: per written vertex (`rep`: the flat vertex it takes its data
/// from) the packed position and nearest table normal, and the largest position error.
pub(crate) fn pack_pose(
    q: &Quantizer,
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    rep: &[u32],
) -> (Vec<crate::formats::shared::quake::Vertex>, f32) {
    let mut err = 0f32;
    let verts = rep
        .iter()
        .map(|&v| {
            let p = positions[v as usize];
            err = err.max(q.error(p));
            crate::formats::shared::quake::Vertex {
                v: q.pack(p),
                normal_index: crate::formats::normals::nearest_index(normals[v as usize]),
            }
        })
        .collect();
    (verts, err)
}

/// Bounds `[min, max]` of points (zero box when empty).
pub(crate) fn bounds<'a>(points: impl IntoIterator<Item = &'a [f32; 3]>) -> [[f32; 3]; 2] {
    let mut it = points.into_iter();
    let Some(first) = it.next() else {
        return [[0.0; 3]; 2];
    };
    it.fold([*first, *first], |[lo, hi], p| {
        [
            std::array::from_fn(|a| lo[a].min(p[a])),
            std::array::from_fn(|a| hi[a].max(p[a])),
        ]
    })
}

/// Checks engine limits `(what, count, limit)`: each one exceeded is a warning, or with
/// `strict` an error (the first one).
pub(crate) fn check_limits(
    format: &'static str,
    strict: bool,
    engine: &str,
    limits: &[(&str, usize, usize)],
    warnings: &mut Vec<String>,
) -> Result<()> {
    for &(what, n, max) in limits {
        if n <= max {
            continue;
        }
        let msg = format!("{n} {what} exceed {engine}'s limit of {max}");
        if strict {
            return Err(Error::new(
                format,
                ErrorKind::LimitExceeded,
                msg,
                Location::None,
            ));
        }
        warnings.push(msg);
    }
    Ok(())
}

/// The quantisation warning: the largest error over all frames and where.
pub(crate) fn error_warning(errors: &[f32], names: &[String]) -> Option<String> {
    let (worst, e) = errors
        .iter()
        .copied()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    let least = errors.iter().copied().fold(f32::INFINITY, f32::min);
    Some(format!(
        "position quantisation: largest error per frame {least:.4}..{e:.4} units \
         (worst: frame {worst} {:?})",
        names.get(worst).map(String::as_str).unwrap_or("")
    ))
}

/// The fixed-size name field of a frame, with a warning when the name is cut.
pub(crate) fn frame_name(index: usize, name: &str, warnings: &mut Vec<String>) -> [u8; 16] {
    let (field, cut) = crate::io::names::name_field::<16>(name);
    if cut {
        warnings.push(format!("frame {index}: name {name:?} cut to 15 bytes"));
    }
    field
}

/// Refuses a skin larger than readers accept ([`crate::limits::Limits::max_image_dimension`] a
/// side by default): a file written with it could not be read back.
pub(crate) fn check_skin_size(format: &'static str, size: [u32; 2]) -> Result<()> {
    let max_side = crate::limits::Limits::default().max_image_dimension;
    if size[0] > max_side || size[1] > max_side {
        return Err(crate::error::Error::new(
            format,
            crate::error::ErrorKind::LimitExceeded,
            format!(
                "skin size {}x{} exceeds the limit of {max_side} pixels a side",
                size[0], size[1]
            ),
            crate::error::Location::None,
        ));
    }
    Ok(())
}
