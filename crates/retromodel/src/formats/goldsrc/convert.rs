//! GoldSrc studio models to the format-neutral [`Model`], posed as the engine poses them
//! (`cl_dll/StudioModelRenderer.cpp` and `cl_dll/studio_util.cpp` of the Half-Life SDK).
//!
//! - **Bones.** A bone's local pose is `StudioCalcBonePosition` / `StudioCalcBoneQuaterion`
//!   at a whole frame: per channel, the bone's default value plus the stored value times
//!   the bone's scale (offset 0: the default alone), plus the bone controller's adjustment;
//!   the three angles (radians) become a quaternion by `AngleQuaternion` (its `angles[2]`
//!   turns about X, `angles[1]` about Z, `angles[0]` about Y, composed Z·Y·X). Global poses
//!   are the parent's composed with the child's (`ConcatTransforms`).
//! - **Bind pose.** The engine has none: it draws every frame from a sequence. The joints'
//!   bind pose is the bones' default values alone (no channel, no controller): the
//!   skeleton the compiler stored the reference mesh against.
//! - **Vertices** are stored in their bone's space: each is placed by its bone's bind pose
//!   and attached to that bone alone (weight 1); normals are turned likewise, as stored.
//! - **Triangles.** Each mesh's commands are strips (count > 0) and fans (count < 0) of
//!   `[vertex, normal, s, t]`; they are unrolled in OpenGL's order (strip: `i, i+1, i+2`
//!   for even `i`, `i+1, i, i+2` for odd; fan: `0, i+1, i+2`), the order the engine draws,
//!   which is the Model's winding (clockwise seen from the front, as Quake's). A vertex of
//!   the Model is one `(vertex, normal, s, t)` combination; texture coordinates are the
//!   stored texels divided by the texture's size.
//! - **Sequences.** Each becomes a [`SkeletalAnimation`] with the sequence's frame rate and
//!   loop flag (`STUDIO_LOOPING`); its frames are the poses of every whole frame with the
//!   bone controllers at rest. A sequence with blends keeps its **first blend only**
//!   (blend 0: the engine's pose with `blending[0] = 0`), said in a warning. As the engine
//!   does (`StudioCalcRotations`), a sequence's motion type `STUDIO_X`/`Y`/`Z` zeroes that
//!   axis of the motion bone's position; linear movement is not added (the engine adds it
//!   times 0). Events have no place in the Model and are not carried.
//! - **Bone controllers at rest.** The game code sets every controller to 0 at spawn
//!   (`CBaseAnimating::InitBoneControllers`, `SetController(i, 0)`): the byte setting is
//!   `255 · (0 − start) / (end − start)` cut to an integer in 0..=255, which
//!   `StudioCalcBoneAdj` turns back into a value (`setting · 360/256 + start` for a
//!   wrapping `STUDIO_RLOOP` controller, else `start + setting/255 · (end − start)`; the
//!   mouth, index 4, is shut: `start`), in radians for a rotation. See [`controller_rest`].
//! - **Body and skin.** [`ConvertOptions::body`] is the engine's `body` number: body part
//!   `i` shows sub-model `(body / base_i) % count_i`; [`ConvertOptions::skin`] is the skin
//!   family (a family past the last shows family 0, as the engine does).
//! - **Textures** become skins, each with its own palette (indexed pictures): `MASKED`
//!   makes palette index 255 transparent (the glTF exporter's alpha mask), `FULLBRIGHT`
//!   makes every index fullbright (emissive). Textures of a model compiled with
//!   `$externaltextures` come from its `NAMET.mdl` ([`file_to_model_with`]).

use super::raw::*;
use crate::image::{Image, Palette, Pixels};
use crate::math::Quat;
use crate::model::pose::JointPose;
use crate::model::{
    Converted, Frames, Influences, Joint, JointTransform, Mesh, Model, SkeletalAnimation, Skin,
};
use std::collections::HashMap;
use std::sync::Arc;

/// Controller type bits (`STUDIO_X` ... `STUDIO_ZR`) and the wrapping flag.
const STUDIO_TYPES: i32 = 0x7fff;
/// `STUDIO_X`, `STUDIO_Y`, `STUDIO_Z`: position channels (and motion type axes).
const STUDIO_XYZ: [i32; 3] = [0x1, 0x2, 0x4];
/// `STUDIO_XR`, `STUDIO_YR`, `STUDIO_ZR`: rotation channels.
const STUDIO_ROT: i32 = 0x8 | 0x10 | 0x20;
/// `STUDIO_RLOOP`: a rotation controller that wraps.
const STUDIO_RLOOP: i32 = 0x8000;

/// What to show of a model: the engine's `body` number and the skin family.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConvertOptions {
    /// The entity's `body` value: body part `i` shows sub-model `(body / base_i) % count_i`.
    pub body: u32,
    /// The skin family.
    pub skin: usize,
}

/// The value a bone controller gives at rest (the game code's `SetController(i, 0)` read
/// back by `StudioCalcBoneAdj`): radians for a rotation, units for a position.
pub fn controller_rest(c: &BoneController) -> f32 {
    let (start, end) = (c.start, c.end);
    let value = if c.index > 3 {
        // The mouth: shut.
        start
    } else {
        let span = end - start;
        let setting = if span == 0.0 {
            0.0
        } else {
            (255.0 * (0.0 - start) / span).trunc().clamp(0.0, 255.0)
        };
        if c.kind & STUDIO_RLOOP != 0 {
            setting * (360.0 / 256.0) + start
        } else {
            let v = (setting / 255.0).clamp(0.0, 1.0);
            (1.0 - v) * start + v * end
        }
    };
    if c.kind & STUDIO_TYPES & STUDIO_ROT != 0 {
        value * (std::f32::consts::PI / 180.0)
    } else {
        value
    }
}

/// The adjustment of each controller at rest, by controller number.
fn rest_adjustments(file: &File<'_>) -> Vec<f32> {
    file.controllers.iter().map(controller_rest).collect()
}

/// `AngleQuaternion`: three angles in radians to a quaternion `[x, y, z, w]`.
pub fn angle_quaternion(a: [f32; 3]) -> [f32; 4] {
    let (sr, cr) = (a[2] * 0.5).sin_cos();
    let (sy, cy) = (a[1] * 0.5).sin_cos();
    let (sp, cp) = (a[0] * 0.5).sin_cos();
    [
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    ]
}

/// The stored value of a run-length-encoded channel at whole frame `frame`, walked as the
/// engine walks it; `None` where the runs end first.
pub fn channel_value(words: &[u16], frame: usize) -> Option<i16> {
    let mut at = 0;
    let mut k = frame;
    loop {
        let header = *words.get(at)?;
        let (valid, total) = ((header & 0xff) as usize, (header >> 8) as usize);
        if total < valid {
            k = 0;
        }
        if total > k {
            let i = if valid > k { at + k + 1 } else { at + valid };
            return words.get(i).map(|&w| w as i16);
        }
        k -= total;
        at += valid + 1;
    }
}

/// One bone's local pose at whole frame `frame` of `anim` (`None`: the defaults), with
/// the controller adjustments `adj`. Counts channels whose runs end early in `short`.
fn bone_pose(
    bone: &Bone,
    anim: Option<&BoneAnim>,
    frame: usize,
    adj: &[f32],
    short: &mut usize,
) -> ([f32; 3], [f32; 3]) {
    let mut v = [0.0f32; 6];
    for (j, out) in v.iter_mut().enumerate() {
        *out = bone.value[j];
        if let Some(a) = anim.filter(|a| a.offsets[j] != 0) {
            match channel_value(&a.channels[j], frame) {
                Some(x) => *out += f32::from(x) * bone.scale[j],
                None => *short += 1,
            }
        }
        let c = bone.bone_controller[j];
        if let Some(a) = usize::try_from(c).ok().and_then(|c| adj.get(c)) {
            *out += a;
        }
    }
    ([v[0], v[1], v[2]], [v[3], v[4], v[5]])
}

/// The local pose of every bone at whole frame `frame` of blend 0 of `seq` (its
/// animation read), controllers at rest, motion axes zeroed as the engine does.
pub fn sequence_frame(file: &File<'_>, seq: &Sequence, frame: usize) -> Vec<JointTransform> {
    let adj = rest_adjustments(file);
    let mut short = 0;
    sequence_frame_with(file, seq, frame, &adj, &mut short)
}

fn sequence_frame_with(
    file: &File<'_>,
    seq: &Sequence,
    frame: usize,
    adj: &[f32],
    short: &mut usize,
) -> Vec<JointTransform> {
    file.bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let (mut pos, angles) = bone_pose(b, seq.anims.get(i), frame, adj, short);
            if i == seq.motion_bone as usize {
                for (axis, bit) in STUDIO_XYZ.iter().enumerate() {
                    if seq.motion_type & bit != 0 {
                        pos[axis] = 0.0;
                    }
                }
            }
            JointTransform {
                translation: pos,
                rotation: angle_quaternion(angles),
            }
        })
        .collect()
}

/// Each bone's parent, or `None` for a root or a parent that does not come first.
fn parents(file: &File<'_>, warnings: &mut Vec<String>) -> Vec<Option<usize>> {
    let mut bad = 0;
    let p = file
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| match usize::try_from(b.parent) {
            Ok(p) if p < i => Some(p),
            Ok(_) => {
                bad += 1;
                None
            }
            Err(_) => None,
        })
        .collect();
    if bad > 0 {
        warnings.push(format!(
            "{bad} bones name a parent that does not come before them: made roots"
        ));
    }
    p
}

/// The bind pose (the bones' default values), local and global.
fn bind_pose(file: &File<'_>, parents: &[Option<usize>]) -> Vec<JointPose> {
    let mut global: Vec<JointPose> = Vec::with_capacity(file.bones.len());
    for (b, parent) in file.bones.iter().zip(parents) {
        let mut short = 0;
        let (pos, angles) = bone_pose(b, None, 0, &[], &mut short);
        let local = JointPose::new(pos, Quat::from_array(angle_quaternion(angles)));
        global.push(match parent {
            Some(p) => global[*p].compose(&local),
            None => local,
        });
    }
    global
}

/// Converts a studio model with the default options (body 0, skin family 0) and its own
/// textures.
pub fn file_to_model(file: &File<'_>) -> Converted {
    file_to_model_with(file, None, ConvertOptions::default())
}

/// Converts a studio model: `textures` is its `NAMET.mdl` where the model has none of its
/// own; sequences of groups above 0 must have been read ([`super::read_group_anims`]),
/// else they are left at the bind pose with a warning.
pub fn file_to_model_with(
    file: &File<'_>,
    textures: Option<&File<'_>>,
    options: ConvertOptions,
) -> Converted {
    let mut warnings = Vec::new();
    let parents = parents(file, &mut warnings);
    let bind = bind_pose(file, &parents);
    let joints: Vec<Joint> = file
        .bones
        .iter()
        .zip(&parents)
        .zip(&bind)
        .map(|((b, p), g)| Joint {
            name: b.name(),
            parent: *p,
            translation: g.pos,
            rotation: g.orient.to_array(),
        })
        .collect();
    let tex_file = if file.textures.is_empty() {
        textures.unwrap_or(file)
    } else {
        file
    };
    let skins = convert_textures(tex_file, &mut warnings);
    let family = skin_family(tex_file, options.skin, &mut warnings);
    let meshes = convert_meshes(file, tex_file, &family, &bind, options.body, &mut warnings);
    let animations = convert_sequences(file, &mut warnings);
    let model = Model {
        meshes,
        skins,
        joints,
        animations,
        ..Model::default()
    };
    Converted { model, warnings }
}

/// The skin family's texture index for each skin reference.
fn skin_family(tex: &File<'_>, skin: usize, warnings: &mut Vec<String>) -> Vec<i16> {
    let families = tex.header.num_skin_families().max(0) as usize;
    let chosen = if skin < families {
        skin
    } else {
        if skin > 0 {
            warnings.push(format!(
                "skin family {skin} asked, the model has {families}: family 0 shown"
            ));
        }
        0
    };
    tex.skin_family(chosen).to_vec()
}

/// Every texture as a skin with its own palette.
fn convert_textures(tex: &File<'_>, warnings: &mut Vec<String>) -> Vec<Skin> {
    let mut bad = Vec::new();
    let skins = tex
        .textures
        .iter()
        .map(|t| {
            let (w, h) = (t.width.max(0) as u32, t.height.max(0) as u32);
            let n = w as usize * h as usize;
            let mut palette = Palette([[0; 3]; 256]);
            for (c, rgb) in t.palette.chunks_exact(3).zip(palette.0.iter_mut()) {
                *rgb = [c[0], c[1], c[2]];
            }
            let mut indices = t.pixels.get(..n).unwrap_or(&[]).to_vec();
            if indices.len() != n || t.palette.len() < PALETTE_SIZE {
                bad.push(t.name());
                indices.resize(n, 0);
            }
            let pixels = Pixels::Indexed {
                indices,
                palette: Arc::new(palette),
                fullbright_start: (t.flags & NF_FULLBRIGHT != 0).then_some(0),
                transparent_index: (t.flags & NF_MASKED != 0).then_some(255),
            };
            Skin {
                name: t.name(),
                pictures: vec![Image::new(w, h, pixels)],
                picture_times: None,
                source: None,
            }
        })
        .collect();
    if !bad.is_empty() {
        warnings.push(format!(
            "textures with fewer pixels or palette bytes than their size: {} (filled with index 0)",
            bad.join(", ")
        ));
    }
    skins
}

/// The meshes of the chosen sub-model of every body part, in the bind pose.
fn convert_meshes(
    file: &File<'_>,
    tex: &File<'_>,
    family: &[i16],
    bind: &[JointPose],
    body: u32,
    warnings: &mut Vec<String>,
) -> Vec<Mesh> {
    let mut out = Vec::new();
    let mut dropped = 0;
    for part in &file.body_parts {
        if part.models.is_empty() {
            continue;
        }
        let base = part.base.max(1) as u32;
        let index = (body / base) as usize % part.models.len();
        let sub = &part.models[index];
        for (mi, m) in sub.meshes.iter().enumerate() {
            let texture = usize::try_from(m.skin_ref)
                .ok()
                .and_then(|r| family.get(r))
                .and_then(|&t| usize::try_from(t).ok())
                .filter(|&t| t < tex.textures.len());
            let size = texture.map(|t| {
                let t = &tex.textures[t];
                [t.width.max(1) as f32, t.height.max(1) as f32]
            });
            let mut mesh = Mesh {
                name: format!("{}/{}/{mi}", part.name(), sub.name()),
                skin: texture,
                skin_size: texture.map(|t| {
                    let t = &tex.textures[t];
                    [t.width.max(0) as u32, t.height.max(0) as u32]
                }),
                ..Mesh::default()
            };
            let mut seen: HashMap<[i16; 4], u32> = HashMap::new();
            for (fan, run) in m.runs() {
                let mut ids = Vec::with_capacity(run.len() / 4);
                for c in run.chunks_exact(4) {
                    let key = [c[0], c[1], c[2], c[3]];
                    let id = match seen.get(&key) {
                        Some(&id) => id,
                        None => {
                            let Some(id) = add_vertex(&mut mesh, sub, key, size, bind) else {
                                dropped += 1;
                                ids.push(u32::MAX);
                                continue;
                            };
                            seen.insert(key, id);
                            id
                        }
                    };
                    ids.push(id);
                }
                for i in 0..ids.len().saturating_sub(2) {
                    let t = if fan {
                        [ids[0], ids[i + 1], ids[i + 2]]
                    } else if i % 2 == 0 {
                        [ids[i], ids[i + 1], ids[i + 2]]
                    } else {
                        [ids[i + 1], ids[i], ids[i + 2]]
                    };
                    if t.contains(&u32::MAX) {
                        continue;
                    }
                    mesh.triangles.push(t);
                }
            }
            out.push(mesh);
        }
    }
    if dropped > 0 {
        warnings.push(format!(
            "{dropped} triangle command vertices name a vertex or normal past their sub-model's: \
             their triangles are left out"
        ));
    }
    out
}

/// Adds the Model vertex of one `[vertex, normal, s, t]` command; `None` when the indices
/// are out of range.
fn add_vertex(
    mesh: &mut Mesh,
    sub: &SubModel<'_>,
    key: [i16; 4],
    size: Option<[f32; 2]>,
    bind: &[JointPose],
) -> Option<u32> {
    let v = usize::try_from(key[0]).ok()?;
    let n = usize::try_from(key[1]).ok()?;
    let p = *sub.vertices.get(v)?;
    let nrm = *sub.normals.get(n)?;
    let vb = *sub.vertex_bones.get(v)? as usize;
    let nb = *sub.normal_bones.get(n)? as usize;
    let place = |b: usize| bind.get(b).copied().unwrap_or(JointPose::IDENTITY);
    let id = mesh.positions.len() as u32;
    mesh.positions.push(place(vb).transform_point(p));
    mesh.normals.push(place(nb).transform_vector(nrm));
    let [w, h] = size.unwrap_or([1.0, 1.0]);
    mesh.uvs
        .push([f32::from(key[2]) / w, f32::from(key[3]) / h]);
    let joint = if vb < bind.len() { vb as u32 } else { 0 };
    mesh.joint_weights
        .push(Influences::from_slice(&[(joint, 1.0)]));
    mesh.source_vertices.push(v as u32);
    Some(id)
}

/// One animation per sequence: blend 0 of each, every whole frame.
fn convert_sequences(file: &File<'_>, warnings: &mut Vec<String>) -> Vec<SkeletalAnimation> {
    if file.bones.is_empty() {
        return Vec::new();
    }
    let adj = rest_adjustments(file);
    let (mut blended, mut unread, mut short) = (Vec::new(), Vec::new(), 0);
    let anims = file
        .sequences
        .iter()
        .map(|s| {
            if s.num_blends > 1 {
                blended.push(s.label());
            }
            let frames = s.num_frames.max(1) as usize;
            let frames: Vec<Vec<JointTransform>> = if s.anims.is_empty() {
                unread.push(s.label());
                vec![sequence_frame_with(file, &no_anim(s), 0, &adj, &mut short); frames]
            } else {
                (0..frames)
                    .map(|f| sequence_frame_with(file, s, f, &adj, &mut short))
                    .collect()
            };
            SkeletalAnimation {
                name: s.label(),
                fps: if s.fps > 0.0 { s.fps } else { 30.0 },
                frames: Frames::from(frames),
                bounds: Vec::new(),
                loops: s.looping(),
                weight_scales: None,
            }
        })
        .collect();
    if !blended.is_empty() {
        warnings.push(format!(
            "sequences with blends keep their first blend only: {}",
            blended.join(", ")
        ));
    }
    if !unread.is_empty() {
        warnings.push(format!(
            "sequences whose group file was not read are left in the bind pose: {}",
            unread.join(", ")
        ));
    }
    if short > 0 {
        warnings.push(format!(
            "{short} channel frames lie past their runs: the bone's default is kept there"
        ));
    }
    anims
}

/// `seq` without animation (every bone at its default).
fn no_anim(seq: &Sequence) -> Sequence {
    Sequence {
        anims: Vec::new(),
        events: Vec::new(),
        pivots: Vec::new(),
        ..seq.clone()
    }
}
