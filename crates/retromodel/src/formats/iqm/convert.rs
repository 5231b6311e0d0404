//! IQM files to the format-neutral [`Model`].
//!
//! - Each IQM mesh becomes a Model mesh with its own vertex range (positions, normals,
//!   texture coordinates; tangents and colours are not kept), its triangles as stored
//!   (clockwise seen from the front, as the Model keeps them), and each vertex's joint influences (up to the blend arrays'
//!   size, weights divided by their sum as the engines' 255ths are meant to add up to 1).
//! - Joints: the bind pose composed into object space ([`Model::joints`]); a bind scale
//!   other than 1 is warned about (the Model's joints do not scale).
//! - Each animation becomes a [`SkeletalAnimation`] (its frame rate, 10 where the file
//!   stores 0, said in a warning; its loop flag; its frames' bounds) whose frames stay the
//!   file's 16-bit channels until first read ([`Frames::from_source`]; decoded as
//!   `offset + value × scale` for the channels in the pose's mask, local `T · R · S` as the
//!   reference animator composes them); scales other than 1 go to
//!   [`Model::animation_scales`], stored the same way. Loading checks the frames for the
//!   warnings decoding would give ([`FrameDecoder`]'s check).
//! - An animation-only file (poses and frames, no joints) gets joints `pose0`, `pose1`, ...
//!   from its poses' parents, in the pose of its first frame.

use super::raw::*;
use crate::io::SharedBytes;
use crate::math::{self, Quat};
use crate::model::pose::JointPose;
use crate::model::{
    Converted, FrameSource, Frames, Influences, JointTransform, Mesh, Model, ScaleFrames,
    SkeletalAnimation, Stored,
};
use std::sync::Arc;

/// The frame rate given to an animation whose file stores 0 (Cube 2's default speed).
pub const DEFAULT_FPS: f32 = 10.0;

/// A vertex array's components as `f32` for the vertices `range`, `N` a vertex (missing
/// components 0); weights and colours (`normalised`) divided by their integer format's
/// largest value.
fn components<const N: usize>(
    a: &VertexArray<'_>,
    range: std::ops::Range<usize>,
    normalised: bool,
) -> Vec<[f32; N]> {
    let f = a.component_format();
    let n = range.len();
    if f == ComponentFormat::Float && a.size as usize == N {
        // The usual cases, read in one pass.
        return a
            .data
            .get(4 * N * range.start..)
            .unwrap_or(&[])
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
            .get(N * range.start..)
            .unwrap_or(&[])
            .chunks_exact(N)
            .take(n)
            .map(|c| std::array::from_fn(|i| f32::from(c[i]) * k))
            .collect();
    }
    let unit = if normalised { f.unit() } else { 1.0 };
    let size = a.size as usize;
    range
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
/// scales, planned once; a frame is then one pass over its stored values. It keeps its own
/// copy of the stored frames, so a Model's animations can keep it and decode on first read.
#[derive(Debug)]
pub struct FrameDecoder {
    /// The stored values, little-endian: `at` in `frames` (the file's bytes where they are
    /// shared, else a copy).
    frames: SharedBytes,
    at: std::ops::Range<usize>,
    per_frame: usize,
    version: u32,
    poses: Vec<PosePlan>,
}

impl FrameDecoder {
    /// The decoder of `file`'s frames, with its own copy of them.
    pub fn new(file: &File<'_>) -> FrameDecoder {
        FrameDecoder::from_source(file, None)
    }

    /// The decoder of `file`'s frames, keeping them in `source` (the bytes `file` was
    /// parsed from) where they lie there, else copying them.
    pub fn from_source(file: &File<'_>, source: Option<&SharedBytes>) -> FrameDecoder {
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
        let shared = source.and_then(|s| Some((s.clone(), s.range_of(&file.frames)?)));
        let (frames, at) = shared.unwrap_or_else(|| {
            let copy = file.frames.to_vec();
            let len = copy.len();
            (SharedBytes::from(copy), 0..len)
        });
        FrameDecoder {
            frames,
            at,
            per_frame: file.header.num_framechannels as usize,
            version: file.header.version,
            poses,
        }
    }

    /// Frame `f`'s channels, one entry of `out` per pose (translation xyz, rotation xyzw,
    /// scale xyz; version 1's rotation w made from xyz): `offset + value × scale` for the
    /// channels in the pose's mask, the offset for the others.
    pub fn frame(&self, f: usize, out: &mut [[f32; 10]]) {
        let mut values = self.values(f).iter();
        for (o, (base, animated)) in out.iter_mut().zip(&self.poses) {
            *o = *base;
            for &(c, scale) in animated {
                o[c] += f32::from(values.next().map_or(0, |b| u16::from_le_bytes(*b))) * scale;
            }
            if self.version == 1 {
                *o = upgrade_channels(1, *o);
            }
        }
    }

    /// The joint transforms of frames `range`, as [`SkeletalAnimation::frames`] keeps them:
    /// a pose with a value not finite or beyond [`SANE`] is the identity, rotations
    /// normalised.
    pub fn transforms(&self, range: std::ops::Range<usize>) -> Vec<Vec<JointTransform>> {
        let mut buffer = vec![[0f32; 10]; self.poses.len()];
        range
            .map(|f| {
                self.frame(f, &mut buffer);
                buffer.iter().map(joint_transform).collect()
            })
            .collect()
    }

    /// The joint scales of frames `range` (1 for a pose made the identity, see
    /// [`FrameDecoder::transforms`]).
    pub fn scales(&self, range: std::ops::Range<usize>) -> Vec<Vec<[f32; 3]>> {
        let mut buffer = vec![[0f32; 10]; self.poses.len()];
        range
            .map(|f| {
                self.frame(f, &mut buffer);
                buffer
                    .iter()
                    .map(|v| {
                        let v = finite_or_identity(v);
                        [v[7], v[8], v[9]]
                    })
                    .collect()
            })
            .collect()
    }

    /// Checks frames `range` without decoding them: how many poses (frame by pose) have a
    /// value not finite or beyond [`SANE`] (those become the identity), and whether a scale
    /// other than 1 occurs. Only channels whose stored values can reach such a value are read.
    fn check(&self, ranges: &[std::ops::Range<usize>]) -> Vec<(usize, bool)> {
        // Planned once for all ranges. Per pose: whether a constant channel is already out
        // of range, and the animated channels to read (`ChannelRead`, all poses' in one
        // list: each pose's part with whether its constant channels scale). A pose made the
        // identity does not scale.
        let mut constant_bad = 0usize;
        let mut constant_scaled_any = false;
        let mut reads: Vec<ChannelRead> = Vec::new();
        let mut pose_reads: Vec<(bool, std::ops::Range<usize>)> = Vec::new();
        let mut at = 0usize;
        // Version 1 keeps its 9 channels here (upgraded after decoding): scales at 6..9,
        // and a rotation `w` made from finite x, y, z is finite.
        let scale_from = if self.version == 1 { 6 } else { 7 };
        for (base, animated) in &self.poses {
            let first = reads.len();
            let mut bad = false;
            let mut constant_scaled = false;
            let mut is_animated = [false; 10];
            for &(c, scale) in animated {
                is_animated[c] = true;
                let reach = f64::from(base[c]).abs() + 65535.0 * f64::from(scale).abs();
                let is_scale = c >= scale_from;
                // Reaching 1e12 (with a margin for f32 rounding), or a scale channel whose
                // step is not 0 (it can leave 1): read.
                if reach.is_nan() || reach > 0.5 * f64::from(SANE) || (is_scale && scale != 0.0) {
                    reads.push((at, base[c], scale, is_scale));
                } else if is_scale && !is_unit_scale([base[c]; 3]) {
                    constant_scaled = true;
                }
                at += 1;
            }
            for c in 0..self.channels() {
                if !is_animated[c] {
                    bad |= !sane(base[c]);
                    constant_scaled |= c >= scale_from && !is_unit_scale([base[c]; 3]);
                }
            }
            if bad {
                constant_bad += 1;
                reads.truncate(first);
            } else if reads.len() == first {
                constant_scaled_any |= constant_scaled;
            } else {
                pose_reads.push((constant_scaled, first..reads.len()));
            }
        }
        ranges
            .iter()
            .map(|range| {
                let frames = range.len();
                let mut bad_poses = constant_bad * frames;
                let mut scaled = constant_scaled_any && frames > 0;
                for f in range.clone() {
                    // As `frame` reads them: values past the stored ones are 0.
                    let values = self.values(f);
                    for (constant_scaled, part) in &pose_reads {
                        let mut bad = false;
                        let mut pose_scaled = *constant_scaled;
                        for &(at, base, scale, is_scale) in &reads[part.clone()] {
                            let q = values.get(at).map_or(0, |b| u16::from_le_bytes(*b));
                            let v = base + f32::from(q) * scale;
                            bad |= !sane(v);
                            pose_scaled |= is_scale && !is_unit_scale([v; 3]);
                        }
                        bad_poses += usize::from(bad);
                        scaled |= !bad && pose_scaled;
                    }
                }
                (bad_poses, scaled)
            })
            .collect()
    }

    /// Frame `f`'s stored values (fewer, or none, past the stored ones).
    fn values(&self, f: usize) -> &[[u8; 2]] {
        let frames = &self.frames[self.at.clone()];
        let len = frames.len() / 2;
        let start = f.saturating_mul(self.per_frame).min(len);
        let end = start.saturating_add(self.per_frame).min(len);
        let (pairs, _) = frames[2 * start..2 * end].as_chunks::<2>();
        pairs
    }

    /// The number of channels a pose has (10, version 1's 9).
    fn channels(&self) -> usize {
        if self.version == 1 {
            9
        } else {
            10
        }
    }
}

/// A stored channel [`FrameDecoder::check`] reads: its place in the frame, base, step, and
/// whether it is a scale.
type ChannelRead = (usize, f32, f32, bool);

/// One animation's frames kept stored, decoded on first read ([`Stored::from_source`]): its
/// joint transforms, or (`scales`) its joint scales.
#[derive(Debug)]
struct IqmFrames {
    decoder: Arc<FrameDecoder>,
    range: std::ops::Range<usize>,
}

impl FrameSource<Vec<JointTransform>> for IqmFrames {
    fn frame_count(&self) -> usize {
        self.range.len()
    }

    fn decode(&self) -> Vec<Vec<JointTransform>> {
        self.decoder.transforms(self.range.clone())
    }
}

/// An animation's joint scales kept stored (see [`IqmFrames`]).
#[derive(Debug)]
struct IqmScales(IqmFrames);

impl FrameSource<Vec<[f32; 3]>> for IqmScales {
    fn frame_count(&self) -> usize {
        self.0.range.len()
    }

    fn decode(&self) -> Vec<Vec<[f32; 3]>> {
        self.0.decoder.scales(self.0.range.clone())
    }
}

/// A pose's decoded channels as a joint transform: the identity where a value is not finite
/// or beyond [`SANE`], the rotation normalised.
#[inline]
fn joint_transform(v: &[f32; 10]) -> JointTransform {
    let v = finite_or_identity(v);
    JointTransform {
        translation: [v[0], v[1], v[2]],
        rotation: normalized(v[3], v[4], v[5], v[6]),
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
    file_to_model_from(file, None)
}

/// [`file_to_model`] of a file parsed from `source`: its animations keep their stored
/// frames in those bytes rather than in a copy ([`FrameDecoder::from_source`]).
pub fn file_to_model_from(file: &File<'_>, source: Option<&SharedBytes>) -> Converted {
    let mut warnings = Vec::new();
    let nv = file.header.num_vertexes;
    if nv > 0 && !file.meshes.is_empty() && file.array(ArrayType::Position).is_none() {
        warnings.push("no position array: the meshes are left out".to_string());
    }
    let joints = bind_joints(file, &mut warnings);
    let meshes = convert_meshes(file, &mut warnings);
    let mut model = Model {
        meshes,
        joints,
        ..Model::default()
    };
    add_animations_from(file, source, &mut model, &mut warnings);
    Converted { model, warnings }
}

/// The joints: local bind transforms composed into object space. A joint whose bind pose
/// is not a finite turn goes to its parent, unturned; both that and a bind scale other than
/// 1 are warned about.
fn bind_joints(file: &File<'_>, warnings: &mut Vec<String>) -> Vec<crate::model::Joint> {
    let version = file.header.version;
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
    joints
}

/// Blend arrays of up to four components, decoded once: indexes, then weights.
type Blend4 = (Vec<[f32; 4]>, Vec<[f32; 4]>);

/// The blend index and weight arrays, and how the meshes read them.
struct BlendArrays<'f> {
    /// The index and weight arrays, where both are present and the file has joints.
    arrays: Option<(&'f VertexArray<'f>, &'f VertexArray<'f>)>,
    /// Whether both are four bytes a vertex (the usual case, read in place).
    bytes: bool,
    /// Otherwise, for up to four components each, both decoded once.
    decoded: Option<Blend4>,
}

impl<'f> BlendArrays<'f> {
    /// Finds the blend arrays of `file`, of `nv` vertices.
    fn of(file: &'f File<'_>, nv: usize) -> Self {
        let arrays = match (
            file.array(ArrayType::BlendIndexes),
            file.array(ArrayType::BlendWeights),
        ) {
            (Some(i), Some(w)) if !file.joints.is_empty() => Some((i, w)),
            _ => None,
        };
        let bytes = arrays.is_some_and(|(i, w)| {
            [i, w]
                .iter()
                .all(|a| a.size == 4 && a.component_format() == ComponentFormat::UByte)
        });
        let decoded = arrays
            .filter(|(i, w)| i.size <= 4 && w.size <= 4 && !bytes)
            .map(|(i, w)| {
                (
                    components::<4>(i, 0..nv, false),
                    components::<4>(w, 0..nv, true),
                )
            });
        BlendArrays {
            arrays,
            bytes,
            decoded,
        }
    }
}

/// What the meshes left out or patched, for the warnings.
#[derive(Default)]
struct MeshTally {
    /// Triangles with a vertex outside their mesh's range.
    dropped: usize,
    /// Vertices without weight.
    unweighted: usize,
    /// Blend indexes past the joints.
    bad_joint: usize,
}

/// The meshes, each reading its own vertices from the arrays (no copy of the whole arrays
/// first); none without a position array (the caller warns of that). What was left out is
/// warned about.
fn convert_meshes(file: &File<'_>, warnings: &mut Vec<String>) -> Vec<Mesh> {
    let nv = file.header.num_vertexes as usize;
    let positions = file.array(ArrayType::Position);
    let normals = file.array(ArrayType::Normal);
    let uvs = file.array(ArrayType::Texcoord);
    let blend = BlendArrays::of(file, nv);

    let mut meshes = Vec::with_capacity(file.meshes.len());
    let mut tally = MeshTally::default();
    for m in &file.meshes {
        let Some(positions) = &positions else { break };
        let first = m.first_vertex as usize;
        let range = first..first + m.num_vertexes as usize;
        let p: Vec<[f32; 3]> = components::<3>(positions, range.clone(), false);
        let tris = &file.triangles
            [m.first_triangle as usize..(m.first_triangle + m.num_triangles) as usize];
        let triangles = mesh_triangles(tris, m.first_vertex, m.num_vertexes, &mut tally);
        let n = match normals {
            Some(n) => {
                let mut n = components::<3>(n, range.clone(), false);
                n.iter_mut()
                    .for_each(|v| *v = math::unit_or(*v, [0.0, 0.0, 1.0]));
                n
            }
            None => math::smooth_normals(&p, &triangles),
        };
        let uv = match uvs {
            Some(u) => components::<2>(u, range.clone(), false),
            None => vec![[0.0; 2]; p.len()],
        };
        let joint_weights = match blend.arrays {
            Some((ia, wa)) if blend.bytes => {
                byte_weights(file.joints.len(), ia, wa, range.clone(), &mut tally)
            }
            Some((ia, wa)) => weights(file, ia, wa, &blend.decoded, range.clone(), &mut tally),
            None => Vec::new(),
        };
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
    let MeshTally {
        dropped,
        unweighted,
        bad_joint,
    } = tally;
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
    meshes
}

/// A mesh's triangles `tris`, made relative to its vertices `lo..lo + count`; those with a
/// vertex outside that range are left out (and counted).
fn mesh_triangles(tris: &[[u32; 3]], lo: u32, count: u32, tally: &mut MeshTally) -> Vec<[u32; 3]> {
    // Clockwise seen from the front, as the Model keeps them; in one pass where every
    // triangle lies in the mesh's range (the usual case).
    // In the mesh's range (exactly, even for a range a parsed file would not have).
    let within = |v: u32| (v >= lo) & (v.wrapping_sub(lo) < count);
    let inside = |t: &&[u32; 3]| t.iter().all(|&v| within(v));
    // Both passes over the flat indices, without an early exit: they vectorise.
    let all_inside = tris
        .as_flattened()
        .iter()
        .fold(true, |ok, &v| ok & within(v));
    if all_inside {
        let mut out = vec![[0u32; 3]; tris.len()];
        out.as_flattened_mut()
            .iter_mut()
            .zip(tris.as_flattened())
            .for_each(|(o, &v)| *o = v - lo);
        out
    } else {
        let kept: Vec<[u32; 3]> = tris
            .iter()
            .filter(inside)
            .map(|t| t.map(|v| v - lo))
            .collect();
        tally.dropped += tris.len() - kept.len();
        kept
    }
}

/// The influences of the vertices `range` from four byte indexes and four byte weights a
/// vertex: what [`weights`] computes from the decoded arrays, the same operations in the
/// same order, without its copies.
fn byte_weights(
    joints: usize,
    ia: &VertexArray<'_>,
    wa: &VertexArray<'_>,
    range: std::ops::Range<usize>,
    tally: &mut MeshTally,
) -> Vec<Influences> {
    let (ib, wb) = (
        ia.data.get(4 * range.start..).unwrap_or(&[]),
        wa.data.get(4 * range.start..).unwrap_or(&[]),
    );
    ib.as_chunks::<4>()
        .0
        .iter()
        .zip(wb.as_chunks::<4>().0)
        .take(range.len())
        .map(|(i, w)| {
            // The usual vertex: its weights not 0 up to some lane and 0 after
            // it, those lanes naming distinct joints. Computed in registers
            // (no array written lane by lane and read back whole, which stalls).
            let used = w.iter().take_while(|&&b| b != 0).count();
            let fast = w[used..].iter().all(|&b| b == 0)
                && (0..used).all(|c| usize::from(i[c]) < joints && !i[..c].contains(&i[c]));
            if fast && used > 0 {
                let f = w.map(|b| f32::from(b) * (1.0 / 255.0));
                // Lanes past `used` are 0: they add nothing.
                let sum = ((f[0] + f[1]) + f[2]) + f[3];
                let inf = std::array::from_fn(|c| (u32::from(i[c]), f[c] / sum));
                return Influences::from_buf_and_len(inf, used);
            }
            // Kept influences first, in the stored order (a joint named twice
            // adds up in its first place), unused lanes 0.
            let mut js = [0u32; 4];
            let mut ws = [0f32; 4];
            let mut k = 0;
            for c in 0..4 {
                if w[c] == 0 {
                    continue;
                }
                let w = f32::from(w[c]) * (1.0 / 255.0);
                let j = u32::from(i[c]);
                if j as usize >= joints {
                    tally.bad_joint += 1;
                    continue;
                }
                match js[..k].iter().position(|&q| q == j) {
                    Some(at) => ws[at] += w,
                    None => {
                        js[k] = j;
                        ws[k] = w;
                        k += 1;
                    }
                }
            }
            let sum: f32 = ws[..k].iter().sum();
            if sum > 0.0 {
                let inf = std::array::from_fn(|c| (js[c], ws[c] / sum));
                Influences::from_buf_and_len(inf, k)
            } else {
                tally.unweighted += 1;
                Influences::from_slice(&[(0, 1.0)])
            }
        })
        .collect()
}

/// The influences of the vertices `range` from the blend arrays `ia` and `wa` of any
/// format (read from `blend4` where they were decoded): weights not above 0 and indexes
/// past the joints left out, a joint named twice added up, weights divided by their sum.
fn weights(
    file: &File<'_>,
    ia: &VertexArray<'_>,
    wa: &VertexArray<'_>,
    blend4: &Option<Blend4>,
    range: std::ops::Range<usize>,
    tally: &mut MeshTally,
) -> Vec<Influences> {
    let size = ia.size.min(wa.size) as usize;
    let wunit = wa.component_format().unit();
    range
        .map(|v| {
            let mut inf = Influences::new();
            for c in 0..size {
                let (j, w) = match blend4 {
                    Some((i4, w4)) => (f64::from(i4[v][c]), w4[v][c]),
                    None => (ia.get(v, c), (wa.get(v, c) / wunit) as f32),
                };
                if w.is_nan() || w <= 0.0 {
                    continue;
                }
                if !(j >= 0.0 && (j as usize) < file.joints.len()) {
                    tally.bad_joint += 1;
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
                tally.unweighted += 1;
                inf = Influences::from_slice(&[(0, 1.0)]);
            }
            inf
        })
        .collect()
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
    add_animations_from(file, None, model, warnings);
}

/// [`add_animations`] of a file parsed from `source` (see [`file_to_model_from`]).
pub fn add_animations_from(
    file: &File<'_>,
    source: Option<&SharedBytes>,
    model: &mut Model,
    warnings: &mut Vec<String>,
) {
    add_ranges_from(file, source, &anim_ranges(file), model, warnings);
}

/// `ranges` of the file's frames added to `model` as animations (see [`add_animations`]);
/// ranges past the file's frames are left out with a warning.
pub fn add_ranges(
    file: &File<'_>,
    ranges: &[FrameRange],
    model: &mut Model,
    warnings: &mut Vec<String>,
) {
    add_ranges_from(file, None, ranges, model, warnings);
}

/// [`add_ranges`] of a file parsed from `source` (see [`file_to_model_from`]).
pub fn add_ranges_from(
    file: &File<'_>,
    source: Option<&SharedBytes>,
    ranges: &[FrameRange],
    model: &mut Model,
    warnings: &mut Vec<String>,
) {
    let total = file.header.num_frames;
    // Ranges may overlap (an "all" animation beside its parts): together they decode (when
    // read) at most twice the file's frames, the memory the parser charged for; the rest are
    // left out.
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
    let decoder = Arc::new(FrameDecoder::from_source(file, source));
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
    // The frames (and the scales, where one is not 1) stay stored, decoded on first read.
    // Checking reads only the channels that can leave the sane range or 1.
    let spans: Vec<std::ops::Range<usize>> = ranges
        .iter()
        .map(|a| a.first as usize..(a.first + a.count) as usize)
        .collect();
    let checks = decoder.check(&spans);
    let scaled = checks.iter().any(|c| c.1);
    let not_finite: usize = checks.iter().map(|c| c.0).sum();
    let mut all_scales = Vec::with_capacity(ranges.len());
    let mut zero_rate = Vec::new();
    for a in ranges {
        let name = a.name.clone();
        let range = a.first as usize..(a.first + a.count) as usize;
        let stored = || IqmFrames {
            decoder: Arc::clone(&decoder),
            range: range.clone(),
        };
        let frames = Frames::from_source(Arc::new(stored()));
        let scales: Option<ScaleFrames> =
            scaled.then(|| Stored::from_source(Arc::new(IqmScales(stored()))));
        let fps = if a.fps.is_finite() && a.fps > 0.0 {
            a.fps
        } else {
            zero_rate.push(name.clone());
            DEFAULT_FPS
        };
        let bounds = if file.bounds.len() == file.header.num_frames as usize {
            // Element by element: a copy of the two arrays as a whole goes through the stack
            // and stalls.
            file.bounds[range]
                .iter()
                .map(|b| {
                    let ([a, b2, c], [d, e, f]) = (b.bbmin, b.bbmax);
                    [[a, b2, c], [d, e, f]]
                })
                .collect()
        } else {
            Vec::new()
        };
        if frames.count() == 0 {
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
        // (Every frame has one transform per joint.)
        let joints = model.joints.len();
        let unit = |a: &SkeletalAnimation| vec![vec![[1.0f32; 3]; joints]; a.frames.count()];
        while model.animation_scales.len() < before {
            let a = &model.animations[model.animation_scales.len()];
            model.animation_scales.push(unit(a).into());
        }
        for (i, sc) in all_scales.into_iter().enumerate() {
            let a = &model.animations[before + i];
            let sc = sc.unwrap_or_else(|| unit(a).into());
            model.animation_scales.push(sc);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    /// Parsed from shared bytes, the decoder keeps the frames where they lie in them (no
    /// copy), and the Model is the one the copying path gives.
    #[test]
    fn shared_input_keeps_frames_in_place() {
        let bytes = SharedBytes::from(super::super::fixtures::skinned());
        let file = File::parse(&bytes, &Limits::default()).unwrap();
        let start = file.header.ofs_frames as usize;
        let shared = FrameDecoder::from_source(&file, Some(&bytes));
        assert_eq!(shared.frames.len(), bytes.len());
        assert_eq!(shared.at, start..start + file.frames.len());
        assert!(!file.frames.is_empty());
        // Bytes the file was not parsed from (an equal copy) are not used.
        let other = SharedBytes::from(bytes.to_vec());
        let copied = FrameDecoder::from_source(&file, Some(&other));
        assert_eq!(copied.at, 0..file.frames.len());
        let frames = file.header.num_frames as usize;
        assert_eq!(shared.transforms(0..frames), copied.transforms(0..frames));
        let a = file_to_model_from(&file, Some(&bytes));
        assert!(a.model.animations.iter().all(|x| x.frames.is_stored()));
        let b = file_to_model(&file);
        assert_eq!(a.model, b.model);
        assert_eq!(a.warnings, b.warnings);
        // Every corpus IQM (with RETROMODEL_CORPUS): the same Model either way (compared
        // printed, so that a NaN the file stores compares equal).
        for data in crate::corpus_files(&["iqm", "vvm", "exm"]) {
            let bytes = SharedBytes::from(data);
            let Ok(file) = File::parse(&bytes, &Limits::default()) else {
                continue;
            };
            let (a, b) = (
                file_to_model_from(&file, Some(&bytes)),
                file_to_model(&file),
            );
            assert_eq!(
                format!("{:?}", a.model.animations),
                format!("{:?}", b.model.animations)
            );
            for (x, y) in a.model.animations.iter().zip(&b.model.animations) {
                assert_eq!(format!("{:?}", *x.frames), format!("{:?}", *y.frames));
            }
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
        }
    }

    /// What decoding every frame finds: poses with a value not finite or beyond [`SANE`],
    /// and whether a pose kept as decoded scales.
    fn by_decoding(d: &FrameDecoder, frames: usize) -> (usize, bool) {
        let mut buffer = vec![[0f32; 10]; d.poses.len()];
        let (mut bad, mut scaled) = (0, false);
        for f in 0..frames {
            d.frame(f, &mut buffer);
            for v in &buffer {
                if v.iter().all(|c| sane(*c)) {
                    scaled |= !is_unit_scale([v[7], v[8], v[9]]);
                } else {
                    bad += 1;
                }
            }
        }
        (bad, scaled)
    }

    /// `FrameDecoder::check`, which reads only some channels, finds what decoding every
    /// frame finds: on the fixtures, on variants of them with a scale, a huge step and a NaN
    /// offset, and (with `RETROMODEL_CORPUS`) on every corpus IQM file.
    #[test]
    fn check_agrees_with_decoding() {
        let mut inputs: Vec<Vec<u8>> = super::super::fixtures::all()
            .into_iter()
            .map(|(_, b)| b)
            .collect();
        inputs.extend(crate::corpus_files(&["iqm", "vvm", "exm"]));
        let (mut checked, mut found_bad, mut found_scaled) = (0, 0, 0);
        for bytes in &inputs {
            let Ok(file) = File::parse(bytes, &Limits::default()) else {
                continue;
            };
            if file.poses.is_empty() || file.header.num_frames == 0 {
                continue;
            }
            let mut variants = vec![file.clone()];
            for change in 0..4 {
                let mut v = file.clone();
                let p = &mut v.poses[0];
                match change {
                    0 => p.channel_offset[7] = 2.0,
                    1 => {
                        if let Some(c) = (0..10).find(|c| p.mask & (1 << c) != 0) {
                            p.channel_scale[c] = 1e9;
                        }
                    }
                    2 => p.channel_offset[1] = f32::NAN,
                    // An infinite step on a scale channel (0 × inf is NaN), else an
                    // infinite constant scale.
                    _ => match (7..10).find(|c| p.mask & (1 << c) != 0) {
                        Some(c) => p.channel_scale[c] = f32::INFINITY,
                        None => p.channel_offset[8] = f32::INFINITY,
                    },
                }
                variants.push(v);
            }
            for v in &variants {
                let d = FrameDecoder::new(v);
                let frames = v.header.num_frames as usize;
                let expected = by_decoding(&d, frames);
                assert_eq!(d.check(&[0..frames, 0..0]), [expected, (0, false)]);
                checked += 1;
                found_bad += usize::from(expected.0 > 0);
                found_scaled += usize::from(expected.1);
            }
        }
        assert!(checked >= 8 && found_bad >= 2 && found_scaled >= 2);
    }
}
