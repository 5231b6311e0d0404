//! A GoldSrc model as a [`Model`]: its skeleton, the shown sub-model of each body part, its
//! textures as skins and one skeletal animation per sequence, posed as the engine poses it.
//!
//! - **Bind pose**: each bone at its default values (`mstudiobone_t::value`, the reference
//!   pose studiomdl stored the vertices in); vertices and normals are stored in their bone's
//!   space and are carried to object space by it.
//! - **Sane values**: a bone whose channels (default values, or a frame's) are not finite or
//!   beyond 1e12 units is at its parent, unturned, with a warning, so that no chain of bones
//!   overflows `f32` (a glTF node is relative to its parent).
//! - **Animations**: frame `f` of a sequence sets each bone's six channels to
//!   `value[j] + stored(f) × scale[j]` (`StudioCalcBonePosition` / `StudioCalcBoneQuaternion`
//!   at whole frames), plus each bone controller at its rest value (`StudioCalcBoneAdj`), the
//!   angles turned into a rotation by `AngleQuaternion` (Z, then Y, then X), and the motion
//!   bone's X, Y or Z cleared as the sequence's motion type says (`StudioCalcRotations`).
//!   **Blends**: only a sequence's first blend is converted; `info` lists the blend count.
//!   A looping sequence (`STUDIO_LOOPING`) is an animation that loops. Its events (frame,
//!   number, type, options) are the animation's [`Model::animation_events`].
//! - **Body parts**: the sub-model the body value picks (`--body`; 0 shows the first of
//!   each part) and the skin family (`--skin-family`; 0 by default).
//! - **Textures**: each its own 256-colour palette; `MASKED` makes index 255 transparent
//!   (alpha test), `FULLBRIGHT` makes every pixel emissive. Textures of `NAMET.mdl` and the
//!   animations of `NAME0N.mdl` are read through the resolver; a missing one is a warning.
//! - **Triangles**: strips and fans unrolled as OpenGL draws them (the engine culls the
//!   other side, so the stored order is Quake's clockwise front, the Model's winding).

use std::sync::Arc;

use super::raw::*;
use super::read_group_anims;
use crate::image::{Image, Palette, Pixels};
use crate::limits::Limits;
use crate::math::{det, Quat};
use crate::model::{
    AnimationEvent, Converted, Influences, JointTransform, Mesh, Model, SkeletalAnimation, Skin,
    SkinEffects,
};
use crate::resolve::Resolver;

/// Controller motion types (`STUDIO_X` .. `STUDIO_ZR`) and `STUDIO_RLOOP`.
const STUDIO_X: i32 = 0x1;
const STUDIO_Y: i32 = 0x2;
const STUDIO_Z: i32 = 0x4;
const STUDIO_XR: i32 = 0x8;
const STUDIO_YR: i32 = 0x10;
const STUDIO_ZR: i32 = 0x20;
const STUDIO_TYPES: i32 = 0x7fff;
const STUDIO_RLOOP: i32 = 0x8000;

/// What to show of a model: the body value and the skin family.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Choice {
    /// The engine's body value: part `p` shows sub-model `(body / base) % nummodels`.
    pub body: u32,
    /// The skin family.
    pub skin_family: usize,
}

/// The value of a run-length-encoded channel at whole frame `frame`, walked as the engine
/// walks it (a run whose `total` is below its `valid` restarts at its first value); `None`
/// when the walk leaves the stored words.
pub fn channel_value(words: &[u16], frame: usize) -> Option<i16> {
    let mut at = 0usize;
    let mut k = frame;
    let head = |at: usize| {
        words
            .get(at)
            .map(|w| ((w & 0xff) as usize, (w >> 8) as usize))
    };
    let (mut valid, mut total) = head(at)?;
    if total < valid {
        k = 0;
    }
    while total <= k {
        k -= total;
        at += valid + 1;
        (valid, total) = head(at)?;
        if total < valid {
            k = 0;
        }
    }
    let i = if valid > k { at + k + 1 } else { at + valid };
    words.get(i).map(|&w| w as i16)
}

/// studiomdl's turn of an animation SMD's root bones about Z when nothing else is asked
/// (`$origin`'s angle + 90°, `Cmd_Origin`), in radians.
pub const DEFAULT_TURN: f32 = std::f32::consts::FRAC_PI_2;

/// Root bone channels (position, then `AngleQuaternion`'s angles) turned by `angle` about Z,
/// as studiomdl's `Grab_Animation` turns each root of an animation SMD's frames: the
/// position rotated, the angle added to the yaw (`Rz(angle)` before the bone's rotation).
pub fn turn(ch: &mut [f32; 6], angle: f32) {
    let (s, c) = det::sin_cos(angle);
    let (x, y) = (ch[0], ch[1]);
    ch[0] = c * x - s * y;
    ch[1] = s * x + c * y;
    ch[5] += angle;
}

/// `AngleQuaternion`: Euler angles (radians: X roll, Y pitch, Z yaw) as a rotation
/// `[x, y, z, w]`, rotating about Z, then Y, then X.
pub fn angle_quaternion(angles: [f32; 3]) -> [f32; 4] {
    let (sy, cy) = det::sin_cos(angles[2] * 0.5);
    let (sp, cp) = det::sin_cos(angles[1] * 0.5);
    let (sr, cr) = det::sin_cos(angles[0] * 0.5);
    [
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    ]
}

/// Each bone controller's adjustment at rest (`StudioCalcBoneAdj`): radians for rotations,
/// units for positions, by controller.
///
/// "At rest" is what the game and Valve's model viewer set before drawing: every controller
/// to 0 (`CBaseAnimating::InitBoneControllers` and `mdlviewer_init` call
/// `SetController(i, 0.0)`, `dlls/animation.cpp`), which stores the byte
/// `255 · (0 − start) / (end − start)`, truncated and cut to 0..=255, and the mouth shut
/// (`SetMouth(0)`: the controller of index 4 at `start`). The record's `rest` field is not
/// read by the engine (0 in the corpus files, which would turn `man.mdl`'s head by its
/// controller's `start`, -60 degrees).
pub fn controller_rest_adjustments(file: &File) -> Vec<f32> {
    file.controllers
        .iter()
        .map(|c| {
            let value = if c.index > 3 {
                c.start
            } else {
                let span = c.end - c.start;
                let byte = if span == 0.0 {
                    0.0
                } else {
                    (255.0 * (0.0 - c.start) / span).trunc().clamp(0.0, 255.0)
                };
                if c.kind & STUDIO_RLOOP != 0 {
                    byte * (360.0 / 256.0) + c.start
                } else {
                    let t = (byte / 255.0).clamp(0.0, 1.0);
                    (1.0 - t) * c.start + t * c.end
                }
            };
            match c.kind & STUDIO_TYPES {
                STUDIO_XR | STUDIO_YR | STUDIO_ZR => value.to_radians(),
                STUDIO_X | STUDIO_Y | STUDIO_Z => value,
                _ => 0.0,
            }
        })
        .collect()
}

/// A bone's six channels (position, then angles) at whole frame `frame` of `anim` (one
/// bone's channels in one blend), with the controllers' adjustments `adj`.
pub fn bone_channels(bone: &Bone, anim: Option<&BoneAnim>, frame: usize, adj: &[f32]) -> [f32; 6] {
    std::array::from_fn(|j| {
        let stored = anim
            .filter(|a| a.offsets[j] != 0)
            .and_then(|a| channel_value(&a.channels[j], frame))
            .unwrap_or(0);
        let mut v = bone.value[j] + stored as f32 * bone.scale[j];
        let c = bone.bone_controller[j];
        if c >= 0 {
            v += adj.get(c as usize).copied().unwrap_or(0.0);
        }
        v
    })
}

/// Largest magnitude of a channel taken as it is: beyond it (1e12 units) a chain of bones
/// overflows `f32` when composed (and a glTF joint, relative to its parent, is not finite).
const SANE: f32 = 1e12;

/// Whether all six channels are finite and within [`SANE`].
fn sane(ch: &[f32; 6]) -> bool {
    ch.iter().all(|v| v.is_finite() && v.abs() <= SANE)
}

/// A bone's local transform from its six channels; channels that are not [`sane`] give the
/// identity (the bone at its parent, unturned).
fn local(ch: [f32; 6]) -> JointTransform {
    if !sane(&ch) {
        return JointTransform::IDENTITY;
    }
    JointTransform {
        translation: [ch[0], ch[1], ch[2]],
        rotation: angle_quaternion([ch[3], ch[4], ch[5]]),
    }
}

/// Object-space transforms from local ones (parents first, as `studio.h` orders bones;
/// a parent that is not earlier is read as none).
pub fn to_object(bones: &[Bone], locals: &[JointTransform]) -> Vec<JointTransform> {
    let mut out: Vec<JointTransform> = Vec::with_capacity(locals.len());
    for (i, l) in locals.iter().enumerate() {
        let p = bones[i].parent;
        let t = if p >= 0 && (p as usize) < i {
            let parent = out[p as usize];
            let q = Quat::from_array(parent.rotation);
            let r = q.rotate(l.translation);
            JointTransform {
                translation: std::array::from_fn(|a| parent.translation[a] + r[a]),
                rotation: (q * Quat::from_array(l.rotation)).to_array(),
            }
        } else {
            *l
        };
        out.push(t);
    }
    out
}

/// The bones in their bind pose, local to their parents.
pub fn bind_locals(file: &File) -> Vec<JointTransform> {
    file.bones
        .iter()
        .map(|b| local(bone_channels(b, None, 0, &[])))
        .collect()
}

/// One sequence's frames (its first blend): per frame, each bone's local transform; `bad`
/// counts the bone poses whose channels are not [`sane`] (the identity instead).
pub fn sequence_frames(file: &File, s: &Sequence, bad: &mut usize) -> Vec<Vec<JointTransform>> {
    let adj = controller_rest_adjustments(file);
    let n = file.bones.len();
    let motion_bone = s.motion_bone.max(0) as usize;
    (0..s.num_frames.max(0) as usize)
        .map(|f| {
            (0..n)
                .map(|b| {
                    let mut ch = bone_channels(&file.bones[b], s.anims.get(b), f, &adj);
                    if b == motion_bone {
                        for (axis, bit) in [STUDIO_X, STUDIO_Y, STUDIO_Z].into_iter().enumerate() {
                            if s.motion_type & bit != 0 {
                                ch[axis] = 0.0;
                            }
                        }
                    }
                    if !sane(&ch) {
                        *bad += 1;
                    }
                    local(ch)
                })
                .collect()
        })
        .collect()
}

/// The file's name stem for side files (`NAMET.mdl`, `NAME01.mdl`): the resolver's model
/// name, else the header's.
fn stem(file: &File, resolver: &dyn Resolver) -> String {
    let name = resolver.model_name().unwrap_or_else(|| file.header.name());
    let base = name.rsplit(['/', '\\']).next().unwrap_or(&name).to_string();
    match base.rfind('.') {
        Some(dot) => base[..dot].to_string(),
        None => base,
    }
}

/// Reads the sequence groups' animations and the external textures through `resolver`,
/// into a copy of `file`; what is missing is said in `warnings`.
pub fn with_side_files(
    file: &File,
    resolver: &dyn Resolver,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> File<'static> {
    let mut out = file.clone().into_owned();
    let stem = stem(file, resolver);
    for g in 1..file.seq_groups.len() {
        let name = format!("{stem}{g:02}.mdl");
        match resolver.load(&name) {
            Some(data) => {
                if let Err(e) = read_group_anims(&mut out, g, &data, limits) {
                    warnings.push(format!("{name}: {e}; its sequences are left still"));
                }
            }
            None => warnings.push(format!(
                "sequence group file {name} not found; its sequences are left still"
            )),
        }
    }
    if file.has_external_textures() {
        let name = format!("{stem}T.mdl");
        let found = resolver
            .load(&name)
            .or_else(|| resolver.load(&format!("{stem}t.mdl")));
        match found.map(|d| File::parse(&d, limits).map(File::into_owned)) {
            Some(Ok(t)) => {
                out.textures = t.textures;
                out.skins = t.skins;
                out.header.fields[13] = t.header.num_skin_ref();
                out.header.fields[14] = t.header.num_skin_families();
            }
            Some(Err(e)) => warnings.push(format!("{name}: {e}; the model is untextured")),
            None => warnings.push(format!(
                "texture file {name} not found; the model is untextured"
            )),
        }
    }
    out
}

/// A texture as a picture with its own palette.
fn picture(t: &Texture) -> Image {
    let mut palette = [[0u8; 3]; 256];
    for (c, rgb) in palette.iter_mut().zip(t.palette.chunks_exact(3)) {
        *c = [rgb[0], rgb[1], rgb[2]];
    }
    Image::new(
        t.width as u32,
        t.height as u32,
        Pixels::Indexed {
            indices: t.pixels.to_vec(),
            palette: Arc::new(Palette(palette)),
            fullbright_start: (t.flags & NF_FULLBRIGHT != 0).then_some(0),
            transparent_index: (t.flags & NF_MASKED != 0).then_some(255),
        },
    )
}

/// One studio mesh as a Model mesh: its triangle commands unrolled, vertices made unique
/// by (vertex, normal, s, t), carried to object space by their bones' bind transforms.
fn mesh(
    m: &SubModel,
    mesh: &super::raw::Mesh,
    world: &[JointTransform],
    size: [u32; 2],
    stray: &std::cell::Cell<usize>,
) -> Mesh {
    let mut keys: Vec<[i16; 4]> = Vec::new();
    let mut index = std::collections::HashMap::new();
    let mut triangles = Vec::new();
    for (fan, run) in mesh.runs() {
        let ids: Vec<u32> = run
            .chunks_exact(4)
            .map(|c| {
                let key = [c[0], c[1], c[2], c[3]];
                *index.entry(key).or_insert_with(|| {
                    keys.push(key);
                    keys.len() as u32 - 1
                })
            })
            .collect();
        for k in 0..ids.len().saturating_sub(2) {
            let t = if fan {
                [ids[0], ids[k + 1], ids[k + 2]]
            } else if k % 2 == 0 {
                [ids[k], ids[k + 1], ids[k + 2]]
            } else {
                [ids[k + 1], ids[k], ids[k + 2]]
            };
            if t[0] != t[1] && t[1] != t[2] && t[0] != t[2] {
                triangles.push(t);
            }
        }
    }
    // A bone index past the skeleton (a damaged file) is read as bone 0, as the engine's
    // bone array would be read past its end: counted in `stray` for a warning.
    let bone_of = |bones: &[u8], i: usize| {
        let b = bones.get(i).copied().unwrap_or(0) as usize;
        if b < world.len() {
            b
        } else {
            stray.set(stray.get() + 1);
            0
        }
    };
    let xform = |b: usize| {
        world.get(b).copied().unwrap_or(JointTransform {
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
        })
    };
    let (w, h) = (size[0].max(1) as f32, size[1].max(1) as f32);
    let mut out = Mesh {
        name: m.name(),
        skin_size: Some(size),
        ..Mesh::default()
    };
    for k in &keys {
        let (vi, ni) = (k[0].max(0) as usize, k[1].max(0) as usize);
        let vb = bone_of(&m.vertex_bones, vi);
        let t = xform(vb);
        let q = Quat::from_array(t.rotation);
        let p = q.rotate(m.vertices.get(vi).copied().unwrap_or_default());
        out.positions
            .push(std::array::from_fn(|a| p[a] + t.translation[a]));
        let nq = Quat::from_array(xform(bone_of(&m.normal_bones, ni)).rotation);
        out.normals
            .push(nq.rotate(m.normals.get(ni).copied().unwrap_or([0.0, 0.0, 1.0])));
        out.uvs.push([k[2] as f32 / w, k[3] as f32 / h]);
        if !world.is_empty() {
            let mut inf = Influences::new();
            inf.push((vb as u32, 1.0));
            out.joint_weights.push(inf);
        }
        out.source_vertices.push(vi as u32);
    }
    out.triangles = triangles;
    out
}

/// The model as a [`Model`]: `file` with its side files already read
/// ([`with_side_files`]), showing `choice`.
pub fn to_model(file: &File, choice: Choice, mut warnings: Vec<String>) -> Converted {
    let bad = file
        .bones
        .iter()
        .filter(|b| !sane(&bone_channels(b, None, 0, &[])))
        .count();
    if bad > 0 {
        warnings.push(format!(
            "{bad} bones have default values that are not finite or beyond 1e12 units: placed \
             at their parent, unturned"
        ));
    }
    let locals = bind_locals(file);
    let world = to_object(&file.bones, &locals);
    let joints = file
        .bones
        .iter()
        .zip(&world)
        .enumerate()
        .map(|(i, (b, t))| crate::model::Joint {
            name: b.name(),
            parent: (b.parent >= 0 && (b.parent as usize) < i).then_some(b.parent as usize),
            translation: t.translation,
            rotation: t.rotation,
        })
        .collect();
    let skins: Vec<Skin> = file
        .textures
        .iter()
        .map(|t| Skin {
            name: t.name(),
            pictures: vec![picture(t)],
            picture_times: None,
            source: None,
        })
        .collect();
    let families = file.header.num_skin_families().max(1) as usize;
    let family = if choice.skin_family < families {
        choice.skin_family
    } else {
        warnings.push(format!(
            "skin family {} asked for, the model has {families}: showing family 0",
            choice.skin_family
        ));
        0
    };
    let mut meshes = Vec::new();
    let stray = std::cell::Cell::new(0);
    for part in &file.body_parts {
        let n = part.models.len();
        if n == 0 {
            continue;
        }
        let pick = (choice.body / part.base.max(1) as u32) as usize % n;
        let m = &part.models[pick];
        for sm in &m.meshes {
            let tex = file
                .skin_family(family)
                .get(sm.skin_ref.max(0) as usize)
                .map(|&t| t as usize)
                .filter(|&t| t < file.textures.len());
            let size = tex
                .map(|t| {
                    [
                        file.textures[t].width as u32,
                        file.textures[t].height as u32,
                    ]
                })
                .unwrap_or([1, 1]);
            let mut out = mesh(m, sm, &world, size, &stray);
            out.skin = tex;
            if tex.is_none() {
                out.skin_size = None;
            }
            if !out.triangles.is_empty() {
                meshes.push(out);
            }
        }
    }
    if stray.get() > 0 {
        warnings.push(format!(
            "{} vertex or normal bone indices past the {} bones read as bone 0",
            stray.get(),
            world.len()
        ));
    }
    let mut bad_poses = 0;
    let animations = file
        .sequences
        .iter()
        .map(|s| SkeletalAnimation {
            name: s.label(),
            fps: if s.fps > 0.0 { s.fps } else { 30.0 },
            frames: sequence_frames(file, s, &mut bad_poses).into(),
            bounds: Vec::new(),
            loops: s.looping(),
            weight_scales: None,
        })
        .collect();
    if bad_poses > 0 {
        warnings.push(format!(
            "{bad_poses} bone poses of the sequences are not finite or beyond 1e12 units: the \
             bone is at its parent, unturned, in those frames"
        ));
    }
    let skin_effects = file
        .textures
        .iter()
        .map(|t| SkinEffects {
            additive: t.flags & NF_ADDITIVE != 0,
            chrome: t.flags & NF_CHROME != 0,
        })
        .collect();
    let mut animation_events: Vec<Vec<AnimationEvent>> = file
        .sequences
        .iter()
        .map(|s| {
            s.events
                .iter()
                .map(|e| AnimationEvent {
                    frame: e.frame,
                    event: e.event,
                    kind: e.kind,
                    options: e.options(),
                })
                .collect()
        })
        .collect();
    while animation_events.last().is_some_and(Vec::is_empty) {
        animation_events.pop();
    }
    Converted {
        model: Model {
            meshes,
            skins,
            joints,
            animations,
            skin_effects,
            animation_events,
            ..Model::default()
        },
        warnings,
    }
}
