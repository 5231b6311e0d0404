//! Any [`Model`] to an IQM [`File`] (version 2), laid out as lsalzman's `iqm` tool does.
//!
//! - One IQM mesh per Model mesh (its name; its material the skin's name, else
//!   [`WriteOptions::skin_paths`], else the mesh name), vertices in one set of arrays:
//!   positions, texture coordinates and normals as floats, and for a model with joints
//!   blend indexes and weights as bytes (weights in 255ths that add up to 255, the largest
//!   remainders rounded up, at most four influences a vertex: the smallest are dropped and
//!   the rest scaled), and tangents from the texture coordinates. Triangles as the Model keeps them (clockwise from the front, as
//!   IQM files store them).
//! - Joints: the bind pose relative to each parent, scale 1, quaternions with `w <= 0` as
//!   `iqm.cpp` writes them.
//! - Animations: one pose per joint; each of its ten channels (translation, rotation,
//!   scale) that changes over the frames of all animations (by 1e-10 or more) is stored as a
//!   16-bit value between its smallest and largest value, rounded as `iqm.cpp` rounds;
//!   quaternions with `w <= 0`; the largest error of the channels is reported. Frame bounds from the
//!   animation when it has them, else from the baked poses.
//! - A model with keyframes but no skeleton (MDL, MD2, MD3) is written in its first pose:
//!   IQM animates joints only, and the other frames are said to be lost in a warning.
//! - No adjacency is written (no engine reads it).

use std::borrow::Cow;

use super::raw::*;
use super::FORMAT;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::math::{self, Quat};
use crate::model::pose::JointPose;
use crate::model::Model;
use crate::options::{WriteOptions, Written};

fn fail(kind: ErrorKind, message: String) -> Error {
    Error::new(FORMAT, kind, message, Location::None)
}

/// Most joints a byte blend index can name.
pub const MAX_BYTE_JOINTS: usize = 256;
/// Influences a vertex keeps (the blend arrays' size).
pub const INFLUENCES: usize = 4;

/// The text table: names interned, offset 0 the empty string.
struct Text(Vec<u8>);

impl Text {
    fn add(&mut self, s: &str) -> u32 {
        if s.is_empty() {
            return 0;
        }
        let at = self.0.len() as u32;
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(0);
        at
    }
}

/// Weights (summing to about 1) as bytes summing to 255: each rounded down, the remainders'
/// largest rounded up.
pub fn weight_bytes(w: &[(u32, f32)]) -> Vec<(u8, u8)> {
    let mut inf: Vec<(u32, f32)> = w.iter().copied().filter(|(_, w)| *w > 0.0).collect();
    inf.sort_by(|a, b| b.1.total_cmp(&a.1));
    inf.truncate(INFLUENCES);
    let sum: f32 = inf.iter().map(|(_, w)| w).sum();
    if inf.is_empty() || sum <= 0.0 {
        return vec![(0, 255)];
    }
    let scaled: Vec<f32> = inf.iter().map(|(_, w)| w / sum * 255.0).collect();
    let mut bytes: Vec<u32> = scaled.iter().map(|v| v.floor() as u32).collect();
    let left = 255 - bytes.iter().sum::<u32>().min(255);
    let mut order: Vec<usize> = (0..bytes.len()).collect();
    order.sort_by(|&a, &b| {
        (scaled[b] - scaled[b].floor()).total_cmp(&(scaled[a] - scaled[a].floor()))
    });
    for &i in order.iter().cycle().take(left as usize) {
        bytes[i] += 1;
    }
    inf.iter()
        .zip(bytes)
        .filter(|(_, b)| *b > 0)
        .map(|((j, _), b)| (*j as u8, b.min(255) as u8))
        .collect()
}

fn array(kind: u32, format: ComponentFormat, size: u32, data: Vec<u8>) -> VertexArray<'static> {
    VertexArray {
        kind,
        flags: 0,
        format: format.value(),
        size,
        offset: 0,
        data: Cow::Owned(data),
    }
}

fn floats<const N: usize>(v: impl Iterator<Item = [f32; N]>) -> Vec<u8> {
    v.flat_map(|a| a.into_iter().flat_map(f32::to_le_bytes))
        .collect()
}

/// Per-vertex tangents `[x, y, z, handedness]` from the texture coordinates, as
/// `upgrade.cpp` rebuilds them: each triangle's directions of increasing `u` and `v` summed
/// at its vertices, made orthogonal to the normal (Gram-Schmidt), the sign of `w` saying
/// whether the `v` direction agrees with `normal × tangent`. ioquake3's second renderer
/// refuses an IQM without them.
fn tangents(
    pos: &[[f32; 3]],
    nrm: &[[f32; 3]],
    uv: &[[f32; 2]],
    tris: &[[u32; 3]],
) -> Vec<[f32; 4]> {
    let mut tan = vec![[0f32; 3]; pos.len()];
    let mut bit = vec![[0f32; 3]; pos.len()];
    for t in tris {
        let [a, b, c] = t.map(|v| v as usize);
        let (e1, e2) = (math::sub(pos[b], pos[a]), math::sub(pos[c], pos[a]));
        let (s1, t1) = (uv[b][0] - uv[a][0], uv[b][1] - uv[a][1]);
        let (s2, t2) = (uv[c][0] - uv[a][0], uv[c][1] - uv[a][1]);
        let det = s1 * t2 - s2 * t1;
        if det.abs() < 1e-12 {
            continue;
        }
        let r = 1.0 / det;
        let sdir = math::scale(math::sub(math::scale(e1, t2), math::scale(e2, t1)), r);
        let tdir = math::scale(math::sub(math::scale(e2, s1), math::scale(e1, s2)), r);
        for v in [a, b, c] {
            tan[v] = math::add(tan[v], sdir);
            bit[v] = math::add(bit[v], tdir);
        }
    }
    (0..pos.len())
        .map(|v| {
            let n = nrm[v];
            let t = math::sub(tan[v], math::scale(n, math::dot(n, tan[v])));
            let t = math::normalize_or(
                t,
                if n[0].abs() < 0.9 {
                    [1.0, 0.0, 0.0]
                } else {
                    [0.0, 1.0, 0.0]
                },
            );
            let t = math::normalize_or(math::sub(t, math::scale(n, math::dot(n, t))), t);
            let w = if math::dot(math::cross(n, t), bit[v]) < 0.0 {
                -1.0
            } else {
                1.0
            };
            [t[0], t[1], t[2], w]
        })
        .collect()
}

/// Builds an IQM file from a model, with notes on what was not a loss worth a warning (the
/// animation channels' quantisation error). Fails on an invalid model or more joints than
/// byte blend indexes can name ([`MAX_BYTE_JOINTS`]).
pub fn from_model(
    model: &Model,
    options: &WriteOptions,
) -> Result<(Written<File<'static>>, Vec<String>)> {
    model
        .validate()
        .map_err(|e| fail(ErrorKind::InvalidValue, format!("invalid model: {e}")))?;
    let mut warnings = Vec::new();
    let skinned = !model.joints.is_empty();
    if skinned && model.joints.len() > MAX_BYTE_JOINTS {
        return Err(fail(
            ErrorKind::LimitExceeded,
            format!(
                "{} joints: IQM byte blend indexes name at most {MAX_BYTE_JOINTS}",
                model.joints.len()
            ),
        ));
    }
    if !skinned && model.frames.len() > 1 {
        warnings.push(format!(
            "IQM animates joints only: the model's {} keyframes are not written, its first \
             pose is",
            model.frames.len()
        ));
    }
    let mut text = Text(vec![0]);
    let mut meshes = Vec::with_capacity(model.meshes.len());
    let (mut pos, mut uv, mut nrm, mut idx, mut wgt) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut triangles = Vec::new();
    let (mut unweighted, mut trimmed) = (0usize, 0usize);
    for (mi, m) in model.meshes.iter().enumerate() {
        let first_vertex = pos.len() as u32;
        let first_triangle = triangles.len() as u32;
        let material = options
            .skin_paths
            .get(mi)
            .cloned()
            .or_else(|| {
                m.skin
                    .and_then(|s| model.skins.get(s))
                    .map(|s| s.name.clone())
            })
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| m.name.clone());
        meshes.push(Mesh {
            name: text.add(&m.name),
            material: text.add(&material),
            first_vertex,
            num_vertexes: m.positions.len() as u32,
            first_triangle,
            num_triangles: m.triangles.len() as u32,
        });
        pos.extend_from_slice(&m.positions);
        nrm.extend_from_slice(&m.normals);
        uv.extend((0..m.positions.len()).map(|v| m.uvs.get(v).copied().unwrap_or([0.0; 2])));
        if skinned {
            for v in 0..m.positions.len() {
                let w = m.joint_weights.get(v).map_or(&[][..], |w| w.as_slice());
                if w.is_empty() {
                    unweighted += 1;
                }
                if w.len() > INFLUENCES {
                    trimmed += 1;
                }
                let b = weight_bytes(w);
                let (mut i4, mut w4) = ([0u8; 4], [0u8; 4]);
                for (k, (j, x)) in b.into_iter().enumerate().take(INFLUENCES) {
                    i4[k] = j;
                    w4[k] = x;
                }
                idx.extend_from_slice(&i4);
                wgt.extend_from_slice(&w4);
            }
        }
        triangles.extend(m.triangles.iter().map(|t| t.map(|v| v + first_vertex)));
    }
    if unweighted > 0 {
        warnings.push(format!(
            "{unweighted} vertices have no joint weights: bound to joint 0"
        ));
    }
    if trimmed > 0 {
        warnings.push(format!(
            "{trimmed} vertices have more than {INFLUENCES} joint influences: the smallest \
             are dropped and the rest scaled to add up to 1"
        ));
    }
    let mut vertex_arrays = Vec::new();
    if !pos.is_empty() {
        vertex_arrays.push(array(
            0,
            ComponentFormat::Float,
            3,
            floats(pos.iter().copied()),
        ));
        vertex_arrays.push(array(
            1,
            ComponentFormat::Float,
            2,
            floats(uv.iter().copied()),
        ));
        vertex_arrays.push(array(
            2,
            ComponentFormat::Float,
            3,
            floats(nrm.iter().copied()),
        ));
        let tangents = tangents(&pos, &nrm, &uv, &triangles);
        vertex_arrays.push(array(
            3,
            ComponentFormat::Float,
            4,
            floats(tangents.into_iter()),
        ));
        if skinned {
            vertex_arrays.push(array(4, ComponentFormat::UByte, 4, idx));
            vertex_arrays.push(array(5, ComponentFormat::UByte, 4, wgt));
        }
    }

    // Joints relative to their parents.
    let global: Vec<JointPose> = model
        .joints
        .iter()
        .map(|j| JointPose::new(j.translation, Quat::from_array(j.rotation).normalize()))
        .collect();
    let joints: Vec<Joint> = model
        .joints
        .iter()
        .zip(&global)
        .map(|(j, g)| {
            let local = match j.parent.and_then(|p| global.get(p)) {
                Some(pg) => pg.inverse().compose(g),
                None => *g,
            };
            // w <= 0, as iqm.cpp writes them.
            let mut rotate = local.orient.normalize().to_array();
            if rotate[3] > 0.0 {
                rotate = rotate.map(|c| -c);
            }
            Joint {
                name: text.add(&j.name),
                parent: j.parent.map_or(-1, |p| p as i32),
                translate: local.pos,
                rotate,
                scale: [1.0; 3],
            }
        })
        .collect();

    let mut file = File {
        meshes,
        vertex_arrays,
        triangles,
        joints,
        ..File::empty(Header {
            version: VERSION,
            num_vertexes: pos.len() as u32,
            ..Header::default()
        })
    };
    let mut notes = Vec::new();
    if skinned && !model.animations.is_empty() {
        notes.push(write_animations(model, &mut file, &mut text));
    }
    file.text = Cow::Owned(text.0);
    file.relayout();
    Ok((
        Written {
            file,
            warnings,
            frame_errors: Vec::new(),
        },
        notes,
    ))
}

#[allow(clippy::needless_range_loop)] // channel c of parallel arrays
/// Poses, anims, frames and bounds from the model's skeletal animations; the quantisation
/// error in words.
fn write_animations(model: &Model, file: &mut File<'static>, text: &mut Text) -> String {
    let nj = model.joints.len();
    // Every frame's ten channels per joint, animations one after the other.
    let mut values: Vec<[f32; 10]> = Vec::new();
    for (ai, a) in model.animations.iter().enumerate() {
        let scales = model.animation_scales.get(ai);
        for (f, frame) in a.frames.iter().enumerate() {
            for (j, t) in frame.iter().enumerate() {
                // w <= 0, as iqm.cpp writes them and DarkPlaces expects.
                let mut q = Quat::from_array(t.rotation).normalize().to_array();
                if q[3] > 0.0 {
                    q = q.map(|c| -c);
                }
                let s = scales
                    .and_then(|s| s.get(f))
                    .and_then(|s| s.get(j))
                    .copied()
                    .unwrap_or([1.0; 3]);
                let [x, y, z] = t.translation;
                values.push([x, y, z, q[0], q[1], q[2], q[3], s[0], s[1], s[2]]);
            }
        }
    }
    let frames_total = values.len() / nj.max(1);
    let mut poses = Vec::with_capacity(nj);
    let mut worst = [0f32; 3];
    for j in 0..nj {
        let mut p = Pose {
            parent: model.joints[j].parent.map_or(-1, |k| k as i32),
            ..Pose::default()
        };
        for c in 0..10 {
            let (lo, hi) = (0..frames_total)
                .map(|f| values[f * nj + j][c])
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), v| {
                    (lo.min(v), hi.max(v))
                });
            p.channel_offset[c] = lo;
            if hi - lo >= 1e-10 {
                p.mask |= 1 << c;
                p.channel_scale[c] = (hi - lo) / 65535.0;
            }
        }
        poses.push(p);
    }
    let mut frames = Vec::with_capacity(frames_total * 10);
    for f in 0..frames_total {
        for (j, p) in poses.iter().enumerate() {
            let v = &values[f * nj + j];
            for c in 0..10 {
                if p.mask & (1 << c) == 0 {
                    continue;
                }
                let q = ((v[c] - p.channel_offset[c]) / p.channel_scale[c])
                    .round()
                    .clamp(0.0, 65535.0);
                frames.push(q as u16);
                let back = p.channel_offset[c] + q * p.channel_scale[c];
                let kind = match c {
                    0..=2 => 0,
                    3..=6 => 1,
                    _ => 2,
                };
                worst[kind] = worst[kind].max((back - v[c]).abs());
            }
        }
    }
    let channels: u32 = poses.iter().map(|p| p.animated(10) as u32).sum();
    // Bounds: the animation's own, else those of the baked poses.
    let mut bounds = Vec::with_capacity(frames_total);
    let baked = crate::model::bake::bake_skeletal(model, None).ok();
    let mut baked_frame = 0usize;
    for a in &model.animations {
        for f in 0..a.frames.len() {
            let b = a
                .bounds
                .get(f)
                .copied()
                .filter(|_| a.bounds.len() == a.frames.len())
                .or_else(|| {
                    let c = baked.as_ref()?;
                    let fr = c.model.frames.get(baked_frame + f)?;
                    Some([fr.bounds_min, fr.bounds_max])
                });
            let [lo, hi] = b.unwrap_or([[0.0; 3]; 2]);
            let corners = [lo, hi];
            let (mut xy, mut r) = (0f32, 0f32);
            for x in corners.iter().map(|c| c[0]) {
                for y in corners.iter().map(|c| c[1]) {
                    xy = xy.max((x * x + y * y).sqrt());
                    for z in corners.iter().map(|c| c[2]) {
                        r = r.max((x * x + y * y + z * z).sqrt());
                    }
                }
            }
            bounds.push(Bounds {
                bbmin: lo,
                bbmax: hi,
                xyradius: xy,
                radius: r,
            });
        }
        baked_frame += a.frames.len();
    }
    let mut first = 0u32;
    for a in &model.animations {
        file.anims.push(Anim {
            name: text.add(&a.name),
            first_frame: first,
            num_frames: a.frames.len() as u32,
            framerate: a.fps,
            flags: if a.loops { LOOP } else { 0 },
        });
        first += a.frames.len() as u32;
    }
    file.header.num_frames = frames_total as u32;
    file.header.num_framechannels = channels;
    file.poses = poses;
    file.set_frame_values(&frames);
    file.bounds = bounds;
    format!(
        "animation channels stored in 16 bits: largest error {:.3e} units in translation, \
         {:.3e} in rotation (quaternion component), {:.3e} in scale",
        worst[0], worst[1], worst[2]
    )
}
