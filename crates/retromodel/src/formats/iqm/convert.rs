//! IQM files to the format-neutral [`Model`].
//!
//! - Each IQM mesh becomes a Model mesh with its own vertex range (positions, normals,
//!   texture coordinates; tangents and colours are not kept), its triangles as stored
//!   (clockwise seen from the front, as the Model keeps them), and each vertex's joint influences (up to the blend arrays'
//!   size, weights divided by their sum as the engines' 255ths are meant to add up to 1).
//! - Joints: the bind pose composed into object space ([`Model::joints`]); a bind scale
//!   other than 1 is warned about (the Model's joints do not scale).
//! - Each animation becomes a [`SkeletalAnimation`] (its frame rate, 10 where the file
//!   stores 0, said in a warning; its loop flag; its frames' bounds) with the frames'
//!   channels decoded (`offset + value × scale` for the channels in the pose's mask),
//!   local `T · R · S` as the reference animator composes them; scales other than 1 go to
//!   [`Model::animation_scales`].
//! - An animation-only file (poses and frames, no joints) gets joints `pose0`, `pose1`, ...
//!   from its poses' parents, in the pose of its first frame.

use super::raw::*;
use crate::math::{self, Quat};
use crate::model::pose::JointPose;
use crate::model::{Converted, JointTransform, Mesh, Model, SkeletalAnimation};

/// The frame rate given to an animation whose file stores 0 (Cube 2's default speed).
pub const DEFAULT_FPS: f32 = 10.0;

/// A vertex array's components as `f32`, `N` a vertex (missing components 0); weights and
/// colours (`normalised`) divided by their integer format's largest value.
fn components<const N: usize>(a: &VertexArray<'_>, n: usize, normalised: bool) -> Vec<[f32; N]> {
    let f = a.component_format();
    if f == ComponentFormat::Float && a.size as usize == N {
        // The usual cases, read in one pass.
        return a
            .data
            .chunks_exact(4 * N)
            .take(n)
            .map(|c| {
                std::array::from_fn(|k| {
                    f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
                })
            })
            .collect();
    }
    if f == ComponentFormat::UByte && a.size as usize == N {
        let k = if normalised { 1.0 / 255.0 } else { 1.0 };
        return a
            .data
            .chunks_exact(N)
            .take(n)
            .map(|c| std::array::from_fn(|i| f32::from(c[i]) * k))
            .collect();
    }
    let unit = if normalised { f.unit() } else { 1.0 };
    let size = a.size as usize;
    (0..n)
        .map(|v| {
            std::array::from_fn(|c| {
                if c < size {
                    (a.get(v, c) / unit) as f32
                } else {
                    0.0
                }
            })
        })
        .collect()
}

/// A pose's channels' base values and its animated channels with their scales.
type PosePlan = ([f32; 10], Vec<(usize, f32)>);

/// Decodes frames: per pose its channels' base values and the animated channels with their
/// scales, planned once; a frame is then one pass over its stored values.
pub struct FrameDecoder<'f> {
    frames: &'f [u16],
    per_frame: usize,
    version: u32,
    poses: Vec<PosePlan>,
}

impl<'f> FrameDecoder<'f> {
    /// The decoder of `file`'s frames.
    pub fn new(file: &'f File<'_>) -> FrameDecoder<'f> {
        let channels = file.channels();
        let poses = file
            .poses
            .iter()
            .map(|p| {
                let mut base = [0f32; 10];
                base[..channels].copy_from_slice(&p.channel_offset[..channels]);
                let animated = (0..channels)
                    .filter(|c| p.mask & (1 << c) != 0)
                    .map(|c| (c, p.channel_scale[c]))
                    .collect();
                (base, animated)
            })
            .collect();
        FrameDecoder {
            frames: &file.frames,
            per_frame: file.header.num_framechannels as usize,
            version: file.header.version,
            poses,
        }
    }

    /// Frame `f`'s channels, one entry of `out` per pose (translation xyz, rotation xyzw,
    /// scale xyz; version 1's rotation w made from xyz): `offset + value × scale` for the
    /// channels in the pose's mask, the offset for the others.
    pub fn frame(&self, f: usize, out: &mut [[f32; 10]]) {
        let start = (f * self.per_frame).min(self.frames.len());
        let end = (start + self.per_frame).min(self.frames.len());
        let mut values = self.frames[start..end].iter();
        for (o, (base, animated)) in out.iter_mut().zip(&self.poses) {
            *o = *base;
            for &(c, scale) in animated {
                o[c] += f32::from(values.next().copied().unwrap_or(0)) * scale;
            }
            if self.version == 1 {
                *o = upgrade_channels(1, *o);
            }
        }
    }
}

/// The decoded channels of every frame: frame-major, per pose the 10 channel values
/// (see [`FrameDecoder::frame`]).
pub fn decode_frames(file: &File<'_>) -> Vec<[f32; 10]> {
    let np = file.poses.len();
    let decoder = FrameDecoder::new(file);
    let mut out = vec![[0f32; 10]; file.header.num_frames as usize * np];
    if np > 0 {
        for (f, chunk) in out.chunks_exact_mut(np).enumerate() {
            decoder.frame(f, chunk);
        }
    }
    out
}

/// Version 1's 9 channels as version 2's 10: the rotation's `w` made from `x, y, z` (the
/// negative root, as `upgrade.cpp` and the MD5 convention have it), scale moved up.
fn upgrade_channels(version: u32, v: [f32; 10]) -> [f32; 10] {
    if version != 1 {
        return v;
    }
    let w = -(1.0 - v[3] * v[3] - v[4] * v[4] - v[5] * v[5])
        .max(0.0)
        .sqrt();
    [v[0], v[1], v[2], v[3], v[4], v[5], w, v[6], v[7], v[8]]
}

/// A joint's rotation `[x, y, z, w]` as stored, version 1's `w` made from `x, y, z`.
pub fn joint_rotation(version: u32, j: &Joint) -> [f32; 4] {
    if version == 1 {
        upgrade_channels(
            1,
            [
                0.0,
                0.0,
                0.0,
                j.rotate[0],
                j.rotate[1],
                j.rotate[2],
                0.0,
                0.0,
                0.0,
                0.0,
            ],
        )[3..7]
            .try_into()
            .unwrap_or([0.0, 0.0, 0.0, 1.0])
    } else {
        j.rotate
    }
}

fn unit_quat(q: [f32; 4]) -> [f32; 4] {
    let n = Quat::from_array(q);
    if n.length() > 0.0 && q.iter().all(|v| v.is_finite()) {
        n.normalize().to_array()
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Largest magnitude of a joint value taken as it is: beyond it (1e12 units) a chain of
/// joints overflows `f32` when composed.
const SANE: f32 = 1e12;

/// A joint value that is finite and within [`SANE`].
fn sane(v: f32) -> bool {
    v.is_finite() && v.abs() <= SANE
}

/// A quaternion of finite components normalised (the identity for a zero one).
#[inline]
fn normalized(x: f32, y: f32, z: f32, w: f32) -> [f32; 4] {
    let len2 = x * x + y * y + z * z + w * w;
    if len2 > 0.0 && len2.is_finite() {
        let k = 1.0 / len2.sqrt();
        [x * k, y * k, z * k, w * k]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    }
}

/// Decoded channels, or the identity where one is not finite or beyond [`SANE`].
fn finite_or_identity(v: &[f32; 10]) -> [f32; 10] {
    if v.iter().all(|c| sane(*c)) {
        *v
    } else {
        [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0]
    }
}

fn is_unit_scale(s: [f32; 3]) -> bool {
    s.iter().all(|v| (v - 1.0).abs() <= 1e-5)
}

/// Converts a parsed file; side files (skins, animations) are the codec's business.
pub fn file_to_model(file: &File<'_>) -> Converted {
    let mut warnings = Vec::new();
    let version = file.header.version;
    let nv = file.header.num_vertexes as usize;
    let positions = file
        .array(ArrayType::Position)
        .map(|a| components::<3>(a, nv, false));
    let normals = file
        .array(ArrayType::Normal)
        .map(|a| components::<3>(a, nv, false));
    let uvs = file
        .array(ArrayType::Texcoord)
        .map(|a| components::<2>(a, nv, false));
    let blend = match (
        file.array(ArrayType::BlendIndexes),
        file.array(ArrayType::BlendWeights),
    ) {
        (Some(i), Some(w)) if !file.joints.is_empty() => Some((i, w)),
        _ => None,
    };
    // Blend arrays of up to four components, decoded once.
    type Blend4 = (Vec<[f32; 4]>, Vec<[f32; 4]>);
    let blend4: Option<Blend4> = blend
        .filter(|(i, w)| i.size <= 4 && w.size <= 4)
        .map(|(i, w)| (components::<4>(i, nv, false), components::<4>(w, nv, true)));
    if nv > 0 && !file.meshes.is_empty() && positions.is_none() {
        warnings.push("no position array: the meshes are left out".to_string());
    }

    // Joints: local bind transforms composed into object space.
    let mut global: Vec<[f32; 16]> = Vec::with_capacity(file.joints.len());
    let mut joints = Vec::with_capacity(file.joints.len());
    let (mut scaled_bind, mut bad_bind) = (0, 0);
    for j in &file.joints {
        let local = math::from_trs(j.translate, unit_quat(joint_rotation(version, j)), j.scale);
        let g = match usize::try_from(j.parent).ok().and_then(|p| global.get(p)) {
            Some(pg) => math::mul(pg, &local),
            None => local,
        };
        let (mut t, mut q, s) = math::decompose(&g);
        let mut g = g;
        let turn = Quat::from_array(q).length();
        if !(t.iter().chain(&q).chain(&s).all(|v| sane(*v))) || (turn - 1.0).abs() > 1e-3 {
            // A joint the file places nowhere: at its parent, unturned.
            bad_bind += 1;
            let parent = usize::try_from(j.parent)
                .ok()
                .and_then(|p| global.get(p))
                .copied();
            g = parent.unwrap_or(math::from_trs([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3]));
            let (pt, pq, _) = math::decompose(&g);
            (t, q) = (pt, pq);
        } else if !is_unit_scale(s) {
            scaled_bind += 1;
        }
        global.push(g);
        joints.push(crate::model::Joint {
            name: file.text_at(j.name),
            parent: usize::try_from(j.parent).ok(),
            translation: t,
            rotation: q,
        });
    }
    if bad_bind > 0 {
        warnings.push(format!(
            "{bad_bind} joints have a bind pose that is not finite, beyond 1e12 units or not a \
             turn (a zero scale): placed at their parent"
        ));
    }
    if scaled_bind > 0 {
        warnings.push(format!(
            "{scaled_bind} joints are scaled in the bind pose: the Model's joints keep their \
             position and turn, not their scale"
        ));
    }

    let mut meshes = Vec::with_capacity(file.meshes.len());
    let (mut dropped, mut unweighted, mut bad_joint) = (0usize, 0usize, 0usize);
    for (mi, m) in file.meshes.iter().enumerate() {
        let Some(positions) = &positions else { break };
        let first = m.first_vertex as usize;
        let range = first..first + m.num_vertexes as usize;
        let p: Vec<[f32; 3]> = positions[range.clone()].to_vec();
        let mut triangles = Vec::with_capacity(m.num_triangles as usize);
        let tris = &file.triangles
            [m.first_triangle as usize..(m.first_triangle + m.num_triangles) as usize];
        for t in tris {
            if t.iter().all(|&v| range.contains(&(v as usize))) {
                // Clockwise seen from the front, as the Model keeps them.
                triangles.push(t.map(|v| v - m.first_vertex));
            } else {
                dropped += 1;
            }
        }
        let n = match &normals {
            Some(n) => n[range.clone()]
                .iter()
                .map(|v| math::normalize_or(*v, [0.0, 0.0, 1.0]))
                .collect(),
            None => math::smooth_normals(&p, &triangles),
        };
        let uv = match &uvs {
            Some(u) => u[range.clone()].to_vec(),
            None => vec![[0.0; 2]; p.len()],
        };
        let joint_weights = match (blend, &blend4) {
            (Some((ia, wa)), blend4) => {
                let size = ia.size.min(wa.size) as usize;
                let wunit = wa.component_format().unit();
                range
                    .clone()
                    .map(|v| {
                        let mut inf: Vec<(u32, f32)> = Vec::with_capacity(size);
                        for c in 0..size {
                            let (j, w) = match blend4 {
                                Some((i4, w4)) => (f64::from(i4[v][c]), w4[v][c]),
                                None => (ia.get(v, c), (wa.get(v, c) / wunit) as f32),
                            };
                            if w.is_nan() || w <= 0.0 {
                                continue;
                            }
                            if !(j >= 0.0 && (j as usize) < file.joints.len()) {
                                bad_joint += 1;
                                continue;
                            }
                            match inf.iter_mut().find(|(k, _)| *k == j as u32) {
                                Some((_, acc)) => *acc += w,
                                None => inf.push((j as u32, w)),
                            }
                        }
                        let sum: f32 = inf.iter().map(|(_, w)| w).sum();
                        if sum > 0.0 {
                            inf.iter_mut().for_each(|(_, w)| *w /= sum);
                        } else {
                            unweighted += 1;
                            inf = vec![(0, 1.0)];
                        }
                        inf
                    })
                    .collect()
            }
            (None, _) => Vec::new(),
        };
        let _ = mi;
        meshes.push(Mesh {
            name: file.text_at(m.name),
            source_vertices: range.map(|v| v as u32).collect(),
            positions: p,
            normals: n,
            uvs: uv,
            triangles,
            morph_targets: Vec::new(),
            skin: None,
            joint_weights,
            skin_size: None,
        });
    }
    if dropped > 0 {
        warnings.push(format!(
            "{dropped} triangles use vertices outside their mesh's range: left out"
        ));
    }
    if unweighted > 0 {
        warnings.push(format!(
            "{unweighted} vertices have no weight: bound to joint 0"
        ));
    }
    if bad_joint > 0 {
        warnings.push(format!(
            "{bad_joint} blend indexes name no joint: those influences are left out"
        ));
    }

    let mut model = Model {
        meshes,
        joints,
        ..Model::default()
    };
    add_animations(file, &mut model, &mut warnings);
    Converted { model, warnings }
}

/// A range of a file's frames played as one animation: an `iqmanim` record or a
/// `.framegroups` line.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameRange {
    /// Name.
    pub name: String,
    /// First frame.
    pub first: u32,
    /// Number of frames.
    pub count: u32,
    /// Frames a second (0: not given).
    pub fps: f32,
    /// Whether it loops.
    pub loops: bool,
}

/// The file's animations as frame ranges.
pub fn anim_ranges(file: &File<'_>) -> Vec<FrameRange> {
    file.anims
        .iter()
        .map(|a| FrameRange {
            name: file.text_at(a.name),
            first: a.first_frame,
            count: a.num_frames,
            fps: a.framerate,
            loops: a.flags & LOOP != 0,
        })
        .collect()
}

/// The file's animations added to `model`, whose joints they animate (for an
/// animation-only file, joints made from its poses first).
pub fn add_animations(file: &File<'_>, model: &mut Model, warnings: &mut Vec<String>) {
    add_ranges(file, &anim_ranges(file), model, warnings);
}

/// `ranges` of the file's frames added to `model` as animations (see [`add_animations`]);
/// ranges past the file's frames are left out with a warning.
pub fn add_ranges(
    file: &File<'_>,
    ranges: &[FrameRange],
    model: &mut Model,
    warnings: &mut Vec<String>,
) {
    let total = file.header.num_frames;
    // Ranges may overlap (an "all" animation beside its parts): together they decode at most
    // twice the file's frames, the memory the parser charged for; the rest are left out.
    let allowed = 2 * u64::from(total.max(1));
    let mut decoded = 0u64;
    let mut over = Vec::new();
    let ranges: Vec<&FrameRange> = ranges
        .iter()
        .filter(|r| {
            let ok = u64::from(r.first) + u64::from(r.count) <= u64::from(total);
            if !ok {
                warnings.push(format!(
                    "animation {:?}: frames {}..{} past the file's {total}; left out",
                    r.name,
                    r.first,
                    u64::from(r.first) + u64::from(r.count)
                ));
                return false;
            }
            if decoded + u64::from(r.count) > allowed {
                over.push(r.name.clone());
                return false;
            }
            decoded += u64::from(r.count);
            true
        })
        .collect();
    if !over.is_empty() {
        warnings.push(format!(
            "animations {} left out: the animations would cover the file's {total} frames \
             more than twice",
            over.join(", ")
        ));
    }
    if ranges.is_empty() || file.poses.is_empty() {
        return;
    }
    let decoder = FrameDecoder::new(file);
    let np = file.poses.len();
    let before = model.animations.len();
    let mut buffer = vec![[0f32; 10]; np];
    if model.joints.is_empty() {
        decoder.frame(ranges[0].first as usize, &mut buffer);
        // Joints from the poses, in the first frame's pose.
        let mut global: Vec<JointPose> = Vec::with_capacity(np);
        for (i, (p, v)) in file.poses.iter().zip(&buffer).enumerate() {
            let v = finite_or_identity(v);
            let local = JointPose::new(
                [v[0], v[1], v[2]],
                Quat::from_array(unit_quat([v[3], v[4], v[5], v[6]])),
            );
            let g = match usize::try_from(p.parent).ok().and_then(|k| global.get(k)) {
                Some(pg) => pg.compose(&local),
                None => local,
            };
            global.push(g);
            model.joints.push(crate::model::Joint {
                name: format!("pose{i}"),
                parent: usize::try_from(p.parent).ok(),
                translation: g.pos,
                rotation: g.orient.to_array(),
            });
        }
    }
    let parents_match = model.joints.len() == np
        && model
            .joints
            .iter()
            .zip(&file.poses)
            .all(|(j, p)| j.parent == usize::try_from(p.parent).ok());
    if !parents_match {
        warnings.push(format!(
            "the {np} poses of the animations do not match the {} joints (count or parents): \
             animations left out",
            model.joints.len()
        ));
        return;
    }
    let mut all_scales = Vec::with_capacity(ranges.len());
    let mut scaled = false;
    let mut zero_rate = Vec::new();
    let mut not_finite = 0usize;
    for a in ranges {
        let name = a.name.clone();
        let range = a.first as usize..(a.first + a.count) as usize;
        let mut frames = Vec::with_capacity(range.len());
        // Scales, flat (frame-major), kept only when one is not 1.
        let mut flat_scales: Vec<[f32; 3]> = Vec::with_capacity(range.len() * np);
        for f in range.clone() {
            decoder.frame(f, &mut buffer);
            let mut fr = Vec::with_capacity(np);
            for v in &buffer {
                let ok = v.iter().all(|c| c.abs() <= SANE);
                not_finite += usize::from(!ok);
                let v = if ok { *v } else { finite_or_identity(v) };
                fr.push(JointTransform {
                    translation: [v[0], v[1], v[2]],
                    rotation: normalized(v[3], v[4], v[5], v[6]),
                });
                let s = [v[7], v[8], v[9]];
                scaled |= !is_unit_scale(s);
                flat_scales.push(s);
            }
            frames.push(fr);
        }
        let scales: Vec<Vec<[f32; 3]>> = if scaled {
            flat_scales.chunks(np.max(1)).map(<[_]>::to_vec).collect()
        } else {
            Vec::new()
        };
        let fps = if a.fps.is_finite() && a.fps > 0.0 {
            a.fps
        } else {
            zero_rate.push(name.clone());
            DEFAULT_FPS
        };
        let bounds = if file.bounds.len() == file.header.num_frames as usize {
            file.bounds[range]
                .iter()
                .map(|b| [b.bbmin, b.bbmax])
                .collect()
        } else {
            Vec::new()
        };
        if frames.is_empty() {
            warnings.push(format!("animation {name:?} has no frames: left out"));
            continue;
        }
        all_scales.push(scales);
        model.animations.push(SkeletalAnimation {
            name,
            fps,
            frames,
            bounds,
            loops: a.loops,
            weight_scales: None,
        });
    }
    if not_finite > 0 {
        warnings.push(format!(
            "{not_finite} joint poses of the frames are not finite or beyond 1e12 units: the \
             identity is used"
        ));
    }
    if !zero_rate.is_empty() {
        warnings.push(format!(
            "animations {} store frame rate 0 (their engine configuration gives the speed): \
             played at {DEFAULT_FPS} frames a second",
            zero_rate.join(", ")
        ));
    }
    if scaled || !model.animation_scales.is_empty() {
        // Scales for every animation or none: those before these scale by 1.
        let unit = |a: &SkeletalAnimation| {
            vec![vec![[1.0f32; 3]; a.frames.first().map_or(0, Vec::len)]; a.frames.len()]
        };
        while model.animation_scales.len() < before {
            let a = &model.animations[model.animation_scales.len()];
            model.animation_scales.push(unit(a));
        }
        // An animation decoded before the first scale other than 1 kept none: all 1.
        for (i, sc) in all_scales.into_iter().enumerate() {
            let a = &model.animations[before + i];
            model
                .animation_scales
                .push(if sc.is_empty() { unit(a) } else { sc });
        }
    }
}
