//! Writing a GoldSrc studio model (`IDST` version 10) from any [`Model`], as studiomdl lays
//! one out (`utils/studiomdl/write.c`: bones, hit boxes, sequences with their events, the
//! sequence group, animation values, body parts, textures and skin families).
//!
//! - **Bones**: the model's joints (at most `MAXSTUDIOBONES`, 128), each bone's default
//!   values its bind pose relative to its parent, the angles those `AngleQuaternion` turns
//!   back into the joint's rotation ([`quaternion_angles`]). A keyframe model reaches the
//!   writer with rigid bones fitted to its motion (`Fit::max_joints`), a skeletal one with
//!   more than 128 joints merged down when `--bones N` asks (`crate::model::merge_joints`);
//!   more is an error naming the limit.
//! - **Vertices**: GoldSrc binds each vertex to one bone. A vertex of one joint keeps it and
//!   its bind position in that bone's space; a vertex weighted to several joints (a warning
//!   counts them) gets, of its influences, the bone and the point in that bone's space that
//!   best follow its blended position over the bind pose and the animations' frames (least
//!   squares, `Motion::fit`). Vertices and normals are each kept once per sub-model (texture
//!   coordinates are per corner, in texels, in the triangle commands).
//! - **Sequences**: one per skeletal animation, with its rate, loop flag and events; a model
//!   without animations gets one still sequence, `idle`. Each bone channel is stored as
//!   `value + stored × scale` with the scale fitted to the channel's largest offset over
//!   every sequence (16-bit steps) and run-length encoded (`mstudioanimvalue_t`); a channel
//!   that never leaves its default stores nothing (offset 0). A sequence's bounding box is
//!   that of its posed vertices.
//! - **Body parts**: the meshes in order, packed into sub-models of at most 2048 distinct
//!   vertices (`MAXSTUDIOVERTS`), one body part each (a body part shows one sub-model at a
//!   time, so every mesh stays visible); each mesh one studio mesh, its triangles as
//!   three-vertex strips.
//! - **Textures**: one per skin (its first picture), 8-bit with its own palette: the
//!   picture's own palette when it has one, its exact colours when there are few enough,
//!   else a palette quantised from RGBA (NeuQuant, `color_quant`). Pictures with holes are
//!   `MASKED`, palette index 255 transparent. Widths are made a multiple of 4 (the engine
//!   uploads nothing else), resampled with a warning. Meshes without a skin share a neutral
//!   grey texture. **Skin families**: a model whose meshes all show one skin and that has
//!   others (a Quake MDL's or MD2's alternative skins) gets one family per skin, family k
//!   showing skin k in place of the meshes' own; otherwise one family.
//! - **Hit boxes**: one per bone with vertices, its vertices' box in the bone's space.
//! - **Deterministic**: the same model gives the same bytes (no hashing order, no time).

use std::borrow::Cow;
use std::collections::HashMap;

use super::convert::angle_quaternion;
use super::raw::*;
use super::side_files::{self, Layout};
use crate::codec::Output;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::image::IndexOptions;
use crate::image::{Image, Palette, Pixels};
use crate::io::names::name_field;
use crate::math::{det, Quat};
use crate::model::pose::JointPose;
use crate::model::{JointTransform, Model};
use crate::options::WriteOptions;

/// `MAXSTUDIOBONES`.
pub const MAX_BONES: usize = 128;
/// `MAXSTUDIOVERTS`: distinct vertices (and normals) of one sub-model.
pub const MAX_VERTS: usize = 2048;
/// `MAXSTUDIOTRIANGLES`: triangles of the whole model.
pub const MAX_TRIANGLES: usize = 20000;
/// `MAXSTUDIOBODYPARTS`.
pub const MAX_BODY_PARTS: usize = 32;
/// `MAXSTUDIOSKINS`: textures.
pub const MAX_TEXTURES: usize = 100;
/// The widest texture the engine uploads.
pub const MAX_TEXTURE_WIDTH: u32 = 512;

fn error(message: String) -> Error {
    Error::new(
        super::FORMAT,
        ErrorKind::Unsupported,
        message,
        Location::None,
    )
}

/// The inverse of [`angle_quaternion`]: Euler angles (radians: X roll, Y pitch, Z yaw) that
/// `AngleQuaternion` turns into `q` (the rotation `Rz(yaw) · Ry(pitch) · Rx(roll)`). At
/// pitch ±90° (gimbal lock) roll is 0 and yaw takes the whole turn about Z.
pub fn quaternion_angles(q: [f32; 4]) -> [f32; 3] {
    let q = Quat::from_array(q).normalize();
    // Columns of the rotation matrix.
    let ex = q.rotate([1.0, 0.0, 0.0]);
    let ey = q.rotate([0.0, 1.0, 0.0]);
    let ez = q.rotate([0.0, 0.0, 1.0]);
    let horizontal = (ex[0] * ex[0] + ex[1] * ex[1]).sqrt();
    let pitch = det::atan2(-ex[2], horizontal);
    if horizontal > 1e-6 {
        [det::atan2(ey[2], ez[2]), pitch, det::atan2(ex[1], ex[0])]
    } else {
        [0.0, pitch, det::atan2(-ey[0], ey[1])]
    }
}

/// A joint transform as the six channels of a bone: position, then [`quaternion_angles`].
fn channels(t: &JointTransform) -> [f32; 6] {
    let a = quaternion_angles(t.rotation);
    [
        t.translation[0],
        t.translation[1],
        t.translation[2],
        a[0],
        a[1],
        a[2],
    ]
}

/// The local pose the engine builds from six channels.
fn pose_of(ch: &[f32; 6]) -> JointPose {
    JointPose::new(
        [ch[0], ch[1], ch[2]],
        Quat::from_array(angle_quaternion([ch[3], ch[4], ch[5]])),
    )
}

/// Object-space poses from local ones (parents come first).
fn to_world(parents: &[i32], locals: &[JointPose]) -> Vec<JointPose> {
    let mut out: Vec<JointPose> = Vec::with_capacity(locals.len());
    for (i, l) in locals.iter().enumerate() {
        let p = parents[i];
        out.push(if p >= 0 {
            out[p as usize].compose(l)
        } else {
            *l
        });
    }
    out
}

/// Channel words of one channel's stored values: runs of listed values, each run ending
/// where a value repeats, whose repeats it then covers (`valid | total << 8`, both at most
/// 255).
pub fn encode_runs(values: &[i16]) -> Vec<u16> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < values.len() {
        let mut valid = start;
        loop {
            valid += 1;
            if valid - start == 255 || valid == values.len() || values[valid] == values[valid - 1] {
                break;
            }
        }
        let last = values[valid - 1];
        let mut total = valid;
        while total < values.len() && total - start < 255 && values[total] == last {
            total += 1;
        }
        out.push((valid - start) as u16 | ((total - start) as u16) << 8);
        out.extend(values[start..valid].iter().map(|&v| v as u16));
        start = total;
    }
    out
}

/// One sequence's `mstudioanim_t` records for `frames` (each bone's six channels per
/// frame), with their offsets as they are when the channels' words follow the records, bone
/// by bone; `None` when one lies beyond a 16-bit offset.
pub fn encode_sequence(frames: &[Vec<[f32; 6]>], bones: &[Bone]) -> Option<Vec<BoneAnim>> {
    let mut data = bones.len() * ANIM_SIZE;
    let mut out = Vec::with_capacity(bones.len());
    for (b, bone) in bones.iter().enumerate() {
        let rec = b * ANIM_SIZE;
        let mut anim = BoneAnim::default();
        for k in 0..6 {
            let stored: Vec<i16> = frames
                .iter()
                .map(|f| {
                    let v = (f[b][k] - bone.value[k]) / bone.scale[k];
                    if v.is_finite() {
                        v.round().clamp(-32767.0, 32767.0) as i16
                    } else {
                        0
                    }
                })
                .collect();
            if stored.iter().all(|&v| v == 0) {
                continue;
            }
            let words = encode_runs(&stored);
            anim.offsets[k] = u16::try_from(data - rec).ok()?;
            data += words.len() * 2;
            anim.channels[k] = words;
        }
        out.push(anim);
    }
    Some(out)
}

/// One mesh's share of a sub-model: its triangle corners as `[vertex, normal, s, t]`.
struct PartMesh {
    skin_ref: i32,
    corners: Vec<[i16; 4]>,
}

/// A sub-model being gathered (its own body part).
#[derive(Default)]
struct Part {
    name: String,
    vertices: Vec<[f32; 3]>,
    vertex_bones: Vec<u8>,
    normals: Vec<[f32; 3]>,
    normal_bones: Vec<u8>,
    vertex_index: HashMap<(u8, [u32; 3]), i16>,
    normal_index: HashMap<(u8, [u32; 3]), i16>,
    meshes: Vec<PartMesh>,
}

impl Part {
    /// Index of a vertex (bone space) on `bone`, added when new.
    fn vertex(&mut self, bone: u8, p: [f32; 3]) -> i16 {
        let key = (bone, p.map(f32::to_bits));
        let next = self.vertices.len() as i16;
        *self.vertex_index.entry(key).or_insert_with(|| {
            self.vertices.push(p);
            self.vertex_bones.push(bone);
            next
        })
    }
    /// Index of a normal (bone space) on `bone`, added when new.
    fn normal(&mut self, bone: u8, n: [f32; 3]) -> i16 {
        let key = (bone, n.map(f32::to_bits));
        let next = self.normals.len() as i16;
        *self.normal_index.entry(key).or_insert_with(|| {
            self.normals.push(n);
            self.normal_bones.push(bone);
            next
        })
    }
}

/// A texture made from a skin: its size, flags, indices and palette.
pub(crate) struct Tex {
    pub(crate) name: String,
    pub(crate) width: u32,
    pub(crate) height: u32,
    flags: i32,
    pub(crate) pixels: Vec<u8>,
    pub(crate) palette: Vec<u8>,
}

/// The distinct colours of opaque pixels, sorted, when there are at most `max`.
fn exact_colours(rgba: &[u8], max: usize) -> Option<Vec<[u8; 3]>> {
    let mut seen: Vec<[u8; 3]> = Vec::new();
    let mut set = std::collections::HashSet::new();
    for c in rgba.chunks_exact(4).filter(|c| c[3] >= 128) {
        let rgb = [c[0], c[1], c[2]];
        if set.insert(rgb) {
            if set.len() > max {
                return None;
            }
            seen.push(rgb);
        }
    }
    seen.sort_unstable();
    Some(seen)
}

/// A picture as an 8-bit texture with its own palette (see the module's comment).
pub(crate) fn texture(name: &str, picture: &Image, warnings: &mut Vec<String>) -> Tex {
    let mut picture = Cow::Borrowed(picture);
    let (w, h) = (picture.width.max(1), picture.height.max(1));
    let (nw, nh) = crate::image::resample::fit_within(w, h, MAX_TEXTURE_WIDTH, 4096, 4);
    if (nw, nh) != (picture.width, picture.height) {
        warnings.push(format!(
            "texture \"{name}\" resampled from {}x{} to {nw}x{nh}: GoldSrc takes widths that \
             are a multiple of 4, at most {MAX_TEXTURE_WIDTH}",
            picture.width, picture.height
        ));
        picture = Cow::Owned(crate::image::resample::resize(&picture, nw, nh));
    }
    let masked = picture.has_transparency();
    let flags = if masked { NF_MASKED } else { 0 };
    // A picture already in 256 colours keeps its indices and palette (its transparent
    // index must be 255, GoldSrc's).
    if let Pixels::Indexed {
        indices,
        palette,
        transparent_index,
        ..
    } = &picture.pixels
    {
        if !masked || *transparent_index == Some(255) {
            return Tex {
                name: name.to_string(),
                width: nw,
                height: nh,
                flags,
                pixels: indices.clone(),
                palette: palette.0.iter().flatten().copied().collect(),
            };
        }
    }
    let rgba = picture.to_rgba8();
    let opaque_colours = if masked { 255 } else { 256 };
    let colours = exact_colours(&rgba, opaque_colours).unwrap_or_else(|| {
        let opaque: Vec<u8> = rgba
            .chunks_exact(4)
            .filter(|c| c[3] >= 128)
            .flat_map(|c| [c[0], c[1], c[2], 255])
            .collect();
        let nq = color_quant::NeuQuant::new(10, opaque_colours, &opaque);
        nq.color_map_rgb()
            .chunks_exact(3)
            .map(|c| [c[0], c[1], c[2]])
            .collect()
    });
    let mut palette = Palette([[0; 3]; 256]);
    for (slot, c) in palette.0.iter_mut().zip(&colours) {
        *slot = *c;
    }
    if masked {
        // studiomdl's convention for the transparent colour.
        palette.0[255] = [0, 0, 255];
    }
    let options = IndexOptions {
        last: (colours.len().max(1) - 1) as u8,
        dither: false,
        transparent: masked.then_some(255),
    };
    let indexed = picture.to_indexed_with(&palette, &options);
    Tex {
        name: name.to_string(),
        width: nw,
        height: nh,
        flags,
        pixels: indexed.indices,
        palette: palette.0.iter().flatten().copied().collect(),
    }
}

/// A name as an SMD node or material or a QC string can hold it: `"` and control characters
/// (no escapes exist there) become `_`. Texture names, SMD nodes and the QC decompiler's bone
/// names all go through it, so a QC and its SMDs name a bone or texture alike.
pub fn clean_name(name: &str) -> String {
    name.chars()
        .map(|c| if c == '"' || c.is_control() { '_' } else { c })
        .collect()
}

/// A texture's file name in the 64-byte field: the skin's name (its folders left out) as a
/// `.bmp`, or `skinN.bmp`.
pub(crate) fn texture_name(name: &str, i: usize) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    let stem = base.rsplit_once('.').map_or(base, |(s, _)| s);
    if stem.is_empty() {
        format!("skin{i}.bmp")
    } else {
        format!("{}.bmp", clean_name(stem))
    }
}

/// The joint a vertex follows: its strongest influence (the first on a tie), joint 0
/// without any.
pub(crate) fn strongest(inf: Option<&crate::model::Influences>) -> (usize, bool) {
    let Some(inf) = inf else { return (0, false) };
    let mut best = (0usize, f32::MIN);
    for &(j, w) in inf.iter() {
        if w > best.1 {
            best = (j as usize, w);
        }
    }
    let shared = inf.iter().filter(|(_, w)| *w > FIT_WEIGHT).count() > 1;
    (best.0, shared)
}

/// At most this many animation frames, evenly spread over all the animations' (the bind
/// pose besides), weigh in the fit of a blended vertex ([`Motion`]).
const FIT_FRAMES: usize = 256;
/// At most this many influences, the strongest, are tried as a blended vertex's bone.
const FIT_CANDIDATES: usize = 4;
/// An influence lighter than this is no candidate bone (nor makes a vertex blended).
const FIT_WEIGHT: f32 = 1e-3;

/// The poses a blended vertex's one bone is fitted over: the written bind pose and up to
/// [`FIT_FRAMES`] animation frames, as the engine builds them from the channels.
struct Motion {
    joints: usize,
    /// Frame-major object-space bone poses, inverted (object space into the bone's).
    inverse_world: Vec<JointPose>,
    /// The same frames' skinning poses, `world ∘ inverse bind` (bind pose to posed).
    skinning: Vec<JointPose>,
}

impl Motion {
    fn new(sk: &Skeleton, sequences: &[Vec<Vec<[f32; 6]>>]) -> Motion {
        let n = sk.joints.len();
        let frames: Vec<&Vec<[f32; 6]>> = sequences.iter().flatten().collect();
        let step = frames.len().div_ceil(FIT_FRAMES).max(1);
        let mut world = sk.written_bind.clone();
        for f in frames.into_iter().step_by(step).filter(|f| f.len() == n) {
            let locals: Vec<JointPose> = f.iter().map(pose_of).collect();
            world.extend(to_world(&sk.parents, &locals));
        }
        let skinning = world
            .iter()
            .enumerate()
            .map(|(i, w)| w.compose(&sk.inverse_bind[i % n]))
            .collect();
        let inverse_world = world.iter().map(JointPose::inverse).collect();
        Motion {
            joints: n,
            inverse_world,
            skinning,
        }
    }

    /// The bone, and the vertex and normal in its space, that best follow a vertex blended
    /// over `influences` (bind position `p`, normal `n`): for each candidate bone `b` (the
    /// [`FIT_CANDIDATES`] strongest influences over [`FIT_WEIGHT`]) the point closest to the
    /// blended positions `x_f` over the frames `f` is the mean of `W_b(f)⁻¹ x_f` (`W_b` rigid),
    /// its error the sum of squared distances to it; the bone with the least error wins (the
    /// strongest on a tie), the normal is the mean of the blended normals in its space.
    /// `None` when no influence names a bone.
    fn fit(
        &self,
        influences: &[(u32, f32)],
        p: [f32; 3],
        n: [f32; 3],
    ) -> Option<(usize, [f32; 3], [f32; 3])> {
        let nj = self.joints;
        let ws: Vec<(u32, f32)> = influences
            .iter()
            .copied()
            .filter(|&(j, _)| (j as usize) < nj)
            .collect();
        let mut candidates: Vec<(u32, f32)> = ws
            .iter()
            .copied()
            .filter(|&(_, w)| w > FIT_WEIGHT)
            .collect();
        // Strongest first, the lower joint on a tie: the order a tie keeps.
        candidates.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        candidates.truncate(FIT_CANDIDATES);
        let posed: Vec<([f32; 3], [f32; 3])> = self
            .skinning
            .chunks_exact(nj)
            .map(|s| crate::model::pose::blend_vertex(s, &ws, p, n))
            .collect();
        let mut best: Option<(f64, usize, [f32; 3], [f32; 3])> = None;
        for &(b, _) in &candidates {
            let b = b as usize;
            let inverse = self.inverse_world.iter().skip(b).step_by(nj);
            let local: Vec<([f32; 3], [f32; 3])> = inverse
                .zip(&posed)
                .map(|(iw, (x, m))| (iw.transform_point(*x), iw.transform_vector(*m)))
                .collect();
            let count = local.len().max(1) as f64;
            let mut mean = [0f64; 3];
            let mut normal = [0f32; 3];
            for (y, m) in &local {
                for k in 0..3 {
                    mean[k] += f64::from(y[k]) / count;
                    normal[k] += m[k];
                }
            }
            let error: f64 = local
                .iter()
                .map(|(y, _)| {
                    (0..3)
                        .map(|k| (f64::from(y[k]) - mean[k]).powi(2))
                        .sum::<f64>()
                })
                .sum();
            if error.is_finite() && best.as_ref().is_none_or(|(e, ..)| error < *e) {
                let fallback = self.inverse_world[b].transform_vector(n);
                let normal = crate::math::normalize3(normal, fallback);
                best = Some((error, b, mean.map(|c| c as f32), normal));
            }
        }
        best.map(|(_, b, q, m)| (b, q, m))
    }
}

/// The skeleton as written: the joints (one root bone for a static model), their parents,
/// the bind pose's channels relative to the parent, and the bind pose the engine builds
/// from those channels (vertices are stored in its bones' spaces).
struct Skeleton {
    joints: Vec<crate::model::Joint>,
    /// A static model: one root bone, no animation.
    rigid: bool,
    parents: Vec<i32>,
    local_bind: Vec<[f32; 6]>,
    written_bind: Vec<JointPose>,
    inverse_bind: Vec<JointPose>,
}

/// The model's skeleton as GoldSrc bones (see [`Skeleton`]).
fn skeleton(model: &Model) -> Result<Skeleton> {
    // A model without a skeleton, or a keyframe model of one pose (rigged one joint per
    // vertex on its way here), is static: one root bone, as studiomdl gives a static mesh.
    let still_pose = model.animations.iter().all(|a| a.frames.len() <= 1);
    let root = [crate::model::Joint {
        name: "root".into(),
        parent: None,
        translation: [0.0; 3],
        rotation: [0.0, 0.0, 0.0, 1.0],
    }];
    let rigid = model.joints.is_empty() || (model.joints.len() > MAX_BONES && still_pose);
    let joints: Vec<crate::model::Joint> = if rigid {
        root.to_vec()
    } else {
        model.joints.clone()
    };
    if joints.len() > MAX_BONES {
        return Err(error(format!(
            "{} bones, more than the {MAX_BONES} GoldSrc takes (MAXSTUDIOBONES): --bones N \
             merges the least important joints into their parents (the shape error reported)",
            joints.len()
        )));
    }
    let parents: Vec<i32> = joints
        .iter()
        .map(|j| j.parent.map_or(-1, |p| p as i32))
        .collect();

    // Bones: the bind pose relative to the parent, as stored channels.
    let world_bind: Vec<JointPose> = joints
        .iter()
        .map(|j| JointPose::from_transform(&j.bind_transform()))
        .collect();
    let local_bind: Vec<[f32; 6]> = (0..joints.len())
        .map(|i| {
            let l = match joints[i].parent {
                Some(p) => world_bind[p].inverse().compose(&world_bind[i]),
                None => world_bind[i],
            };
            channels(&l.to_transform())
        })
        .collect();
    // The bind pose as the engine will build it from those channels: vertices are stored
    // in these bones' spaces.
    let written_bind = to_world(
        &parents,
        &local_bind.iter().map(pose_of).collect::<Vec<_>>(),
    );
    let inverse_bind: Vec<JointPose> = written_bind.iter().map(JointPose::inverse).collect();

    Ok(Skeleton {
        joints,
        rigid,
        parents,
        local_bind,
        written_bind,
        inverse_bind,
    })
}

/// The bones, each channel's scale fitted to its largest offset from the default over
/// every sequence, in 32767 steps.
fn bone_records(sk: &Skeleton, sequences: &[Vec<Vec<[f32; 6]>>]) -> Vec<Bone> {
    let (joints, local_bind, parents) = (&sk.joints, &sk.local_bind, &sk.parents);
    // Each bone channel's scale: its largest offset from the default over every sequence in
    // 32767 steps.
    let mut scale = vec![[0f32; 6]; joints.len()];
    for frames in sequences {
        for f in frames {
            for (b, ch) in f.iter().enumerate().take(joints.len()) {
                for k in 0..6 {
                    let d = (ch[k] - local_bind[b][k]).abs();
                    if d.is_finite() {
                        scale[b][k] = scale[b][k].max(d / 32767.0);
                    }
                }
            }
        }
    }
    joints
        .iter()
        .enumerate()
        .map(|(i, j)| Bone {
            name: name_field::<32>(&j.name).0,
            parent: parents[i],
            flags: 0,
            bone_controller: [-1; 6],
            value: local_bind[i],
            scale: scale[i].map(|s| if s > 0.0 { s } else { 1.0 / 32767.0 }),
        })
        .collect()
}

/// A texture for each skin with a picture, and each skin's texture.
fn textures_of(model: &Model, warnings: &mut Vec<String>) -> (Vec<Tex>, Vec<Option<usize>>) {
    // Textures.
    let mut textures: Vec<Tex> = Vec::new();
    let mut skin_texture = vec![None; model.skins.len()];
    let mut used_names: Vec<String> = Vec::new();
    for (i, skin) in model.skins.iter().enumerate() {
        let Some(picture) = skin.pictures.first() else {
            continue;
        };
        let mut name = texture_name(&skin.name, i);
        if used_names.contains(&name) {
            name = format!("skin{i}.bmp");
        }
        used_names.push(name.clone());
        let mut t = texture(&name, picture, warnings);
        if let Some(e) = model.skin_effects.get(i) {
            if e.additive {
                t.flags |= NF_ADDITIVE;
            }
            if e.chrome {
                t.flags |= NF_CHROME;
            }
        }
        if skin.pictures.len() > 1 {
            warnings.push(format!(
                "skin {i} has {} pictures: GoldSrc shows one, the first is written",
                skin.pictures.len()
            ));
        }
        skin_texture[i] = Some(textures.len());
        textures.push(t);
    }
    (textures, skin_texture)
}

/// The skin-family table (`skinref` rows, `n` texture slots each): family 0 shows each
/// mesh's own texture. A model whose meshes all show one skin and that has other skins (a
/// Quake MDL's or MD2's alternatives) gets a family for each other skin, in order, that
/// shows it instead (so family k shows skin k when the meshes show skin 0); otherwise one
/// family.
fn skin_families(
    model: &Model,
    skin_texture: &[Option<usize>],
    n: usize,
    notes: &mut Vec<String>,
) -> Vec<i16> {
    let identity: Vec<i16> = (0..n as i16).collect();
    let mut shown: Vec<usize> = model
        .meshes
        .iter()
        .filter(|m| !m.triangles.is_empty())
        .filter_map(|m| m.skin)
        .collect();
    shown.sort_unstable();
    shown.dedup();
    let base = match shown[..] {
        [s] => skin_texture.get(s).copied().flatten(),
        _ => None,
    };
    let Some(base) = base else {
        return identity;
    };
    let others: Vec<usize> = skin_texture
        .iter()
        .flatten()
        .copied()
        .filter(|&t| t != base)
        .collect();
    let mut table = identity.clone();
    for &t in &others {
        let mut row = identity.clone();
        row[base] = t as i16;
        table.extend(row);
    }
    if !others.is_empty() {
        notes.push(format!(
            "{} skins as {} skin families (family k shows skin k)",
            others.len() + 1,
            others.len() + 1
        ));
    }
    table
}

/// The neutral grey texture of untextured meshes (made once).
fn grey_texture(textures: &mut Vec<Tex>) -> usize {
    if let Some(i) = textures.iter().position(|t| t.name == "untextured.bmp") {
        return i;
    }
    let px = crate::image::UNTEXTURED;
    let picture = Image::new(8, 8, Pixels::Rgba8(px.repeat(64)));
    let mut w = Vec::new();
    textures.push(texture("untextured.bmp", &picture, &mut w));
    textures.len() - 1
}

/// The meshes gathered into sub-models, and what the gathering counted.
struct Gathered {
    parts: Vec<Part>,
    triangles: usize,
    dropped: usize,
    shared_vertices: usize,
    bone_has_vertices: Vec<bool>,
    bone_boxes: Vec<[[f32; 3]; 2]>,
}

/// The meshes packed into sub-models within the vertex limit, in bone space, their
/// corners in texels.
fn gather_parts(
    model: &Model,
    sk: &Skeleton,
    sequences: &[Vec<Vec<[f32; 6]>>],
    textures: &mut Vec<Tex>,
    skin_texture: &[Option<usize>],
) -> Result<Gathered> {
    let (joints, rigid, inverse_bind) = (&sk.joints, sk.rigid, &sk.inverse_bind);
    // A blended vertex of an animated model is fitted to its motion, made on first need.
    let animated = !rigid && !model.animations.is_empty();
    let mut motion: Option<Motion> = None;
    // Body parts: meshes packed into sub-models within the vertex limit.
    let mut parts: Vec<Part> = Vec::new();
    let mut triangles = 0usize;
    let mut shared_vertices = 0usize;
    let mut dropped = 0usize;
    let mut bone_has_vertices = vec![false; joints.len()];
    let mut bone_boxes = vec![[[f32::MAX; 3], [f32::MIN; 3]]; joints.len()];
    for (mi, mesh) in model.meshes.iter().enumerate() {
        if mesh.triangles.is_empty() {
            continue;
        }
        let tex = match mesh
            .skin
            .and_then(|s| skin_texture.get(s).copied().flatten())
        {
            Some(t) => t,
            None => grey_texture(textures),
        };
        let (tw, th) = (textures[tex].width as f32, textures[tex].height as f32);
        let name = if mesh.name.is_empty() {
            format!("mesh{mi}")
        } else {
            mesh.name.clone()
        };
        // Bone-space vertex and normal of each mesh vertex.
        let mut bound = Vec::with_capacity(mesh.positions.len());
        for v in 0..mesh.positions.len() {
            let (b, shared) = if rigid {
                (0, false)
            } else {
                strongest(mesh.joint_weights.get(v))
            };
            let b = if b < joints.len() { b } else { 0 };
            shared_vertices += usize::from(shared);
            let normal = mesh.normals.get(v).copied().unwrap_or([0.0, 0.0, 1.0]);
            let fitted = match mesh.joint_weights.get(v) {
                Some(ws) if shared && animated => motion
                    .get_or_insert_with(|| Motion::new(sk, sequences))
                    .fit(ws, mesh.positions[v], normal),
                _ => None,
            };
            let (b, p, n) = fitted.unwrap_or_else(|| {
                (
                    b,
                    inverse_bind[b].transform_point(mesh.positions[v]),
                    inverse_bind[b].transform_vector(normal),
                )
            });
            bone_has_vertices[b] = true;
            for k in 0..3 {
                bone_boxes[b][0][k] = bone_boxes[b][0][k].min(p[k]);
                bone_boxes[b][1][k] = bone_boxes[b][1][k].max(p[k]);
            }
            bound.push((b as u8, p, n));
        }
        let fits = |part: &Part| {
            let mut new = std::collections::HashSet::new();
            for &(b, p, _) in &bound {
                if !part.vertex_index.contains_key(&(b, p.map(f32::to_bits))) {
                    new.insert((b, p.map(f32::to_bits)));
                }
            }
            part.vertices.len() + new.len() <= MAX_VERTS
                && part.normals.len() + bound.len() <= MAX_VERTS
        };
        if parts.last().is_none_or(|p| !fits(p)) {
            parts.push(Part {
                name: name.clone(),
                ..Part::default()
            });
        }
        let part = parts.last_mut().expect("a part was just made");
        let mut corners = Vec::with_capacity(mesh.triangles.len() * 3);
        let texel = |x: f32| x.round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        for t in &mesh.triangles {
            let tri = t.map(|v| {
                let v = v as usize;
                let (b, p, n) = bound[v];
                let uv = mesh.uvs.get(v).copied().unwrap_or([0.0, 0.0]);
                [
                    part.vertex(b, p),
                    part.normal(b, n),
                    texel(uv[0] * tw),
                    texel(uv[1] * th),
                ]
            });
            // Two corners on one vertex: no area, and the engine's (and every reader's)
            // strip walk drops it.
            if tri[0][0] == tri[1][0] || tri[1][0] == tri[2][0] || tri[0][0] == tri[2][0] {
                dropped += 1;
                continue;
            }
            corners.extend(tri);
        }
        if part.vertices.len() > MAX_VERTS || part.normals.len() > MAX_VERTS {
            return Err(error(format!(
                "mesh \"{name}\" has {} distinct vertices, more than the {MAX_VERTS} a GoldSrc \
                 sub-model takes (MAXSTUDIOVERTS)",
                part.vertices.len().max(part.normals.len())
            )));
        }
        triangles += corners.len() / 3;
        part.meshes.push(PartMesh {
            skin_ref: tex as i32,
            corners,
        });
    }
    Ok(Gathered {
        parts,
        triangles,
        dropped,
        shared_vertices,
        bone_has_vertices,
        bone_boxes,
    })
}

/// Widens box `bx` to hold `p`.
fn grow(bx: &mut [[f32; 3]; 2], p: [f32; 3]) {
    for k in 0..3 {
        bx[0][k] = bx[0][k].min(p[k]);
        bx[1][k] = bx[1][k].max(p[k]);
    }
}

/// The box, or zeros when nothing widened it.
fn finite_box(bx: [[f32; 3]; 2]) -> [[f32; 3]; 2] {
    if bx[0][0] <= bx[1][0] {
        bx
    } else {
        [[0.0; 3]; 2]
    }
}

/// A sequence to write: its label, the animation it comes from, its frames there and its
/// channel records.
type Piece = (String, usize, std::ops::Range<usize>, Vec<BoneAnim>);

/// Each animation's channel records; one whose values lie further from its first bone's
/// record than a 16-bit offset reaches is cut into parts, each its own sequence.
fn split_sequences(
    sequences: &[Vec<Vec<[f32; 6]>>],
    animations: &[crate::model::SkeletalAnimation],
    bones: &[Bone],
    warnings: &mut Vec<String>,
) -> Result<Vec<Piece>> {
    let mut parts_of_sequences: Vec<(String, usize, std::ops::Range<usize>, Vec<BoneAnim>)> =
        Vec::new();
    let mut split = Vec::new();
    for (si, frames) in sequences.iter().enumerate() {
        let label = animations
            .get(si)
            .map_or("idle".to_string(), |a| a.name.clone());
        // Frame ranges still to encode, as (start, end).
        let mut pending = vec![(0, frames.len())];
        let mut pieces = Vec::new();
        while let Some((start, end)) = pending.pop() {
            let r = start..end;
            match encode_sequence(&frames[r.clone()], bones) {
                Some(anims) => pieces.push((r, anims)),
                None if r.len() > 1 => {
                    let mid = r.start + r.len() / 2;
                    pending.push((mid, r.end));
                    pending.push((r.start, mid));
                }
                None => {
                    return Err(error(format!(
                        "animation \"{label}\": one frame's values reach past the 65535 bytes \
                         a 16-bit offset reaches ({} bones)",
                        bones.len()
                    )))
                }
            }
        }
        if pieces.len() > 1 {
            split.push(format!("\"{label}\" into {}", pieces.len()));
        }
        for (n, (r, anims)) in pieces.into_iter().enumerate() {
            let name = if n == 0 {
                label.clone()
            } else {
                format!("{label}_{}", n + 1)
            };
            parts_of_sequences.push((name, si, r, anims));
        }
    }
    if !split.is_empty() {
        warnings.push(format!(
            "animations cut into sequences whose values a 16-bit offset reaches: {}",
            split.join(", ")
        ));
    }
    Ok(parts_of_sequences)
}

/// The sequence records of the pieces: rate, loop flag, events and posed bounds.
fn sequence_records(
    model: &Model,
    animations: &[crate::model::SkeletalAnimation],
    sequences: &[Vec<Vec<[f32; 6]>>],
    pieces: Vec<Piece>,
    parents: &[i32],
    parts: &[Part],
) -> Vec<Sequence> {
    let mut seqs = Vec::with_capacity(pieces.len());
    for (label, si, range, anims) in pieces {
        let frames = &sequences[si][range.clone()];
        let anim = animations.get(si);
        let events: Vec<Event> = model
            .animation_events
            .get(si)
            .map(|list| {
                list.iter()
                    .filter(|e| e.frame >= range.start as i32 && e.frame < range.end as i32)
                    .map(|e| Event {
                        frame: e.frame - range.start as i32,
                        event: e.event,
                        kind: e.kind,
                        options: name_field::<64>(&e.options).0,
                    })
                    .collect()
            })
            .unwrap_or_default();
        // Posed bounds over the frames.
        let mut bx = [[f32::MAX; 3], [f32::MIN; 3]];
        for f in frames {
            let locals: Vec<JointPose> = f.iter().map(pose_of).collect();
            let world = to_world(parents, &locals);
            for part in parts {
                for (p, &b) in part.vertices.iter().zip(&part.vertex_bones) {
                    grow(&mut bx, world[b as usize].transform_point(*p));
                }
            }
        }
        let bx = finite_box(bx);
        seqs.push(Sequence {
            label: name_field::<32>(&label).0,
            fps: anim.map_or(30.0, |a| a.fps),
            flags: if anim.is_some_and(|a| a.loops) {
                STUDIO_LOOPING
            } else {
                0
            },
            activity: 0,
            act_weight: 0,
            event_index: [events.len() as i32, 0],
            num_frames: frames.len() as i32,
            pivot_index: [0, 0],
            motion_type: 0,
            motion_bone: 0,
            linear_movement: [0.0; 3],
            automove: [0, 0],
            bbmin: bx[0],
            bbmax: bx[1],
            num_blends: 1,
            anim_index: 0,
            blend_type: [0, 0],
            blend_start: [0.0, 0.0],
            blend_end: [0.0, 0.0],
            blend_parent: 0,
            seq_group: 0,
            entry_node: 0,
            exit_node: 0,
            node_flags: 0,
            next_seq: 0,
            events,
            pivots: Vec::new(),
            anims,
        });
    }
    seqs
}

/// Everything placed at its offset after the header `h`.
#[allow(clippy::too_many_arguments)] // the parts of one file, each made by its own step
fn lay_out(
    mut h: Header,
    mut l: Layout,
    bones: Vec<Bone>,
    hitboxes: Vec<Hitbox>,
    mut seqs: Vec<Sequence>,
    seq_groups: Vec<SeqGroup>,
    parts: Vec<Part>,
    textures: Vec<Tex>,
    skins: Vec<i16>,
    written_bind: &[JointPose],
) -> File<'static> {
    h.fields[6] = seqs.len() as i32;
    h.fields[7] = l.take(seqs.len() * SEQUENCE_SIZE);
    for q in &mut seqs {
        q.event_index[1] = l.take(q.events.len() * EVENT_SIZE);
        q.pivot_index[1] = l.0 as i32;
    }
    h.fields[8] = seq_groups.len() as i32;
    h.fields[9] = l.take(seq_groups.len() * SEQ_GROUP_SIZE);
    // Animation values: each sequence's records, then its channels' words right after
    // them (the offsets [`encode_sequence`] counted); those of other groups go in their
    // files ([`super::side_files`]).
    for q in seqs.iter_mut().filter(|q| q.seq_group == 0) {
        q.anim_index = l.take(bones.len() * ANIM_SIZE);
        let words: usize = q.anims.iter().flat_map(|a| &a.channels).map(Vec::len).sum();
        l.take(words * 2);
    }
    // Body parts, sub-models, meshes, commands and arrays.
    h.fields[16] = parts.len() as i32;
    h.fields[17] = l.take(parts.len() * BODY_PART_SIZE);
    let mut body_parts = Vec::with_capacity(parts.len());
    for part in parts {
        let model_index = l.take(MODEL_SIZE);
        let meshindex = l.take(part.meshes.len() * MESH_SIZE);
        let mut meshes = Vec::with_capacity(part.meshes.len());
        for m in &part.meshes {
            let mut commands = Vec::with_capacity(m.corners.len() / 3 * 13 + 1);
            for tri in m.corners.chunks_exact(3) {
                commands.push(3);
                for c in tri {
                    commands.extend_from_slice(c);
                }
            }
            commands.push(0);
            meshes.push(Mesh {
                num_tris: (m.corners.len() / 3) as i32,
                tri_index: l.take(commands.len() * 2),
                skin_ref: m.skin_ref,
                num_norms: part.normals.len() as i32,
                norm_index: 0,
                commands,
            });
        }
        let vertinfo = l.take(part.vertices.len());
        let norminfo = l.take(part.normals.len());
        let vertindex = l.take(part.vertices.len() * 12);
        let normindex = l.take(part.normals.len() * 12);
        let radius = part
            .vertices
            .iter()
            .zip(&part.vertex_bones)
            .map(|(p, &b)| crate::math::length(written_bind[b as usize].transform_point(*p)))
            .fold(0f32, f32::max);
        let sub = SubModel {
            name: name_field::<64>(&part.name).0,
            kind: 0,
            bounding_radius: radius,
            fields: [
                meshes.len() as i32,
                meshindex,
                part.vertices.len() as i32,
                vertinfo,
                vertindex,
                part.normals.len() as i32,
                norminfo,
                normindex,
                0,
                0,
            ],
            meshes,
            vertices: part.vertices,
            vertex_bones: Cow::Owned(part.vertex_bones),
            normals: part.normals,
            normal_bones: Cow::Owned(part.normal_bones),
        };
        body_parts.push(BodyPart {
            name: name_field::<64>(&part.name).0,
            num_models: 1,
            base: 1,
            model_index,
            models: vec![sub],
        });
    }
    // Textures, the skin family, then the pixels and palettes.
    h.fields[10] = textures.len() as i32;
    h.fields[11] = l.take(textures.len() * TEXTURE_SIZE);
    h.fields[13] = textures.len() as i32;
    h.fields[14] = (skins.len() / textures.len().max(1)) as i32;
    h.fields[15] = l.take(skins.len() * 2);
    h.fields[12] = l.0 as i32;
    let textures: Vec<Texture<'static>> = textures
        .into_iter()
        .map(|t| Texture {
            name: name_field::<64>(&t.name).0,
            flags: t.flags,
            width: t.width as i32,
            height: t.height as i32,
            index: l.take(t.pixels.len() + t.palette.len()),
            pixels: Cow::Owned(t.pixels),
            palette: Cow::Owned(t.palette),
        })
        .collect();
    h.fields[21] = 0;
    h.fields[23] = 0;
    h.fields[25] = 0;
    h.length = l.0 as i32;
    let file = File {
        header: h,
        bones,
        controllers: Vec::new(),
        hitboxes,
        sequences: seqs,
        seq_groups,
        textures,
        skins,
        body_parts,
        attachments: Vec::new(),
        transitions: Cow::Borrowed(&[]),
        gaps: Vec::new(),
    };
    file
}

/// The model as a GoldSrc file (see the module's comment).
pub fn from_model(model: &Model, options: &WriteOptions) -> Result<Output> {
    let mut warnings = Vec::new();
    let sk = skeleton(model)?;
    let animations: &[crate::model::SkeletalAnimation] =
        if sk.rigid { &[] } else { &model.animations };
    // Every sequence's channels per frame and bone.
    let still = animations.is_empty();
    let sequences: Vec<Vec<Vec<[f32; 6]>>> = if still {
        vec![vec![sk.local_bind.clone()]]
    } else {
        animations
            .iter()
            .map(|a| {
                a.frames
                    .iter()
                    .map(|f| f.iter().map(channels).collect())
                    .collect()
            })
            .collect()
    };
    let bones = bone_records(&sk, &sequences);
    let (mut textures, skin_texture) = textures_of(model, &mut warnings);
    let g = gather_parts(model, &sk, &sequences, &mut textures, &skin_texture)?;
    if g.shared_vertices > 0 {
        warnings.push(format!(
            "{} vertices follow several joints: GoldSrc binds each vertex to one \
             bone, the one of them that best follows the blend",
            g.shared_vertices
        ));
    }
    let mut notes = Vec::new();
    if g.dropped > 0 {
        notes.push(format!(
            "{} triangles with two corners on one vertex (no area) left out",
            g.dropped
        ));
    }
    let triangles = g.triangles;
    if triangles > MAX_TRIANGLES {
        return Err(error(format!(
            "{triangles} triangles, more than the {MAX_TRIANGLES} a GoldSrc model takes \
             (MAXSTUDIOTRIANGLES)"
        )));
    }
    if g.parts.len() > MAX_BODY_PARTS {
        return Err(error(format!(
            "{} body parts needed for the meshes (at most {MAX_VERTS} vertices each), more than \
             the {MAX_BODY_PARTS} GoldSrc takes (MAXSTUDIOBODYPARTS)",
            g.parts.len()
        )));
    }
    if textures.len() > MAX_TEXTURES {
        return Err(error(format!(
            "{} textures, more than the {MAX_TEXTURES} GoldSrc takes (MAXSTUDIOSKINS)",
            textures.len()
        )));
    }

    // The bounds of the bind pose.
    let mut bind_box = [[f32::MAX; 3], [f32::MIN; 3]];
    for part in &g.parts {
        for (p, &b) in part.vertices.iter().zip(&part.vertex_bones) {
            grow(
                &mut bind_box,
                sk.written_bind[b as usize].transform_point(*p),
            );
        }
    }
    let bind_box = finite_box(bind_box);
    let mut l = Layout(HEADER_SIZE);
    let mut h = Header {
        eye_position: model.mdl_extras.map_or([0.0; 3], |e| e.eye_position),
        min: bind_box[0],
        max: bind_box[1],
        bbmin: bind_box[0],
        bbmax: bind_box[1],
        flags: model.mdl_extras.map_or(0, |e| e.flags),
        ..Header::new(&format!("{}.mdl", options.side_file_stem()))
    };
    h.fields[0] = bones.len() as i32;
    h.fields[1] = l.take(bones.len() * BONE_SIZE);
    h.fields[3] = l.take(0);
    h.fields[19] = l.take(0);
    let hitboxes: Vec<Hitbox> = (0..sk.joints.len())
        .filter(|&b| g.bone_has_vertices[b])
        .map(|b| Hitbox {
            bone: b as i32,
            group: 0,
            bbmin: g.bone_boxes[b][0],
            bbmax: g.bone_boxes[b][1],
        })
        .collect();
    h.fields[4] = hitboxes.len() as i32;
    h.fields[5] = l.take(hitboxes.len() * HITBOX_SIZE);
    let pieces = split_sequences(&sequences, animations, &bones, &mut warnings)?;
    let seqs = sequence_records(model, animations, &sequences, pieces, &sk.parents, &g.parts);
    let skins = skin_families(model, &skin_texture, textures.len(), &mut notes);
    let stem = options.side_file_stem();
    let mut seqs = seqs;
    let groups = side_files::assign_groups(&mut seqs, options.sequence_group_size, stem);
    let mut file = lay_out(
        h,
        l,
        bones,
        hitboxes,
        seqs,
        groups,
        g.parts,
        textures,
        skins,
        &sk.written_bind,
    );
    let (bytes, side_files) = side_files::split(&mut file, stem, options.external_textures);
    Ok(Output {
        bytes,
        side_files,
        warnings,
        notes,
        ..Output::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn angles_round_trip_through_angle_quaternion() {
        let cases = [
            [0.3f32, -0.7, 2.9],
            [-3.0, 1.2, -0.4],
            [0.0, 0.0, 0.0],
            [1.0, std::f32::consts::FRAC_PI_2, 0.5],
            [0.2, -std::f32::consts::FRAC_PI_2, -1.0],
        ];
        for a in cases {
            let q = angle_quaternion(a);
            let back = angle_quaternion(quaternion_angles(q));
            let d = Quat::from_array(q).dot(Quat::from_array(back)).abs();
            assert!(d > 0.99999, "{a:?}: {q:?} came back as {back:?}");
        }
    }

    #[test]
    fn runs_decode_to_the_values() {
        let values: Vec<i16> = (0..600)
            .map(|i| match i {
                0..=9 => i as i16,
                10..=299 => 7,
                _ => (i % 3) as i16 - 1,
            })
            .collect();
        let words = encode_runs(&values);
        for (f, &v) in values.iter().enumerate() {
            assert_eq!(
                super::super::convert::channel_value(&words, f),
                Some(v),
                "frame {f}"
            );
        }
        assert!(words.len() < values.len() / 2 + 20, "{} words", words.len());
    }
}
