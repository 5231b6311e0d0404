//! A [`Model`] with a skeleton to MD5: md5mesh, md5anim (compressed), md5camera.
//!
//! - md5mesh: every influence of a vertex becomes a weight whose position is the vertex's
//!   bind position in that joint's space (what Doom 3's exporter writes), bias = the
//!   influence's weight. Joint orientations are stored with w <= 0 (the one convention).
//! - md5anim: the animation's local poses through [`anim::compress`]: a component is
//!   written per frame only where it changes beyond the tolerance. Bounds come from the
//!   Model when it has them, else from the skinned meshes.
//! - md5camera: the camera path as keys.

use super::anim::{self, JointPose};
use super::quat::Quat;
use super::raw::*;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::model::{JointTransform, Model};

/// Tolerance of [`anim_from_model`]: a component is written per frame only where it differs
/// from the base frame at all. Any larger tolerance would move rotations near a half turn
/// visibly: there `w` is derived from `x, y, z` with a gain of `|x / w|` (18 for a corpus
/// joint at w = -0.0255), so a 1e-6 step in `x` moves `w` by 2e-5.
pub const COMPRESS_TOLERANCE: f32 = 0.0;

fn invalid(format: &'static str, msg: String) -> Error {
    Error::new(format, ErrorKind::InvalidModel, msg, Location::None)
}

fn pose(t: &JointTransform) -> JointPose {
    // Not renormalised: `to_md5_xyz` does that only when needed, keeping the stored
    // components of a rotation that came from a file.
    JointPose::from_transform(t)
}

/// The md5mesh of a model with joints; meshes without joint weights are refused.
pub fn mesh_from_model(model: &Model) -> Result<MeshFile> {
    let f = super::MESH_FORMAT;
    model
        .validate()
        .map_err(|e| Error::new(f, e.kind, e.message, Location::None))?;
    if model.joints.is_empty() {
        return Err(invalid(
            f,
            "the model has no skeleton (md5mesh needs joints)".into(),
        ));
    }
    if let Some((j, joint)) = model
        .joints
        .iter()
        .enumerate()
        .find(|(_, j)| j.name.chars().any(|c| c == '"' || c.is_control()))
    {
        return Err(invalid(
            f,
            format!(
                "joint {j}: the name {:?} cannot be written in an md5mesh (joint names are \
                 quoted strings without quotes or line breaks)",
                joint.name
            ),
        ));
    }
    let joints: Vec<Joint> = model
        .joints
        .iter()
        .map(|j| Joint {
            name: j.name.clone(),
            parent: j.parent.map_or(-1, |p| p as i32),
            pos: j.translation,
            orient: Quat::from_array(j.rotation).to_md5_xyz(),
        })
        .collect();
    let binds: Vec<JointPose> = model
        .joints
        .iter()
        .map(|j| pose(&j.bind_transform()))
        .collect();
    let mut meshes = Vec::with_capacity(model.meshes.len());
    for (mi, m) in model.meshes.iter().enumerate() {
        if m.joint_weights.len() != m.positions.len() {
            return Err(invalid(
                f,
                format!("mesh {mi} has no joint weights (md5mesh vertices hang from joints)"),
            ));
        }
        let mut mesh = Mesh {
            shader: m.name.clone(),
            ..Mesh::default()
        };
        for (v, influences) in m.joint_weights.iter().enumerate() {
            if influences.is_empty() {
                return Err(invalid(
                    f,
                    format!("mesh {mi}: vertex {v} has no joint weight"),
                ));
            }
            mesh.verts.push(Vert {
                uv: m.uvs[v],
                start_weight: mesh.weights.len() as u32,
                count_weight: influences.len() as u32,
            });
            for &(j, w) in influences {
                let local = binds[j as usize].inverse().transform_point(m.positions[v]);
                mesh.weights.push(Weight {
                    joint: j,
                    bias: w,
                    pos: local,
                });
            }
        }
        mesh.tris = m.triangles.clone();
        meshes.push(mesh);
    }
    Ok(MeshFile {
        version: Some(VERSION),
        commandline: String::new(),
        stated_meshes: None,
        joints,
        meshes,
    })
}

/// The md5anim of animation `index` of a model with joints.
pub fn anim_from_model(model: &Model, index: usize) -> Result<AnimFile> {
    let f = super::ANIM_FORMAT;
    let a = model
        .animations
        .get(index)
        .ok_or_else(|| invalid(f, format!("the model has no animation {index}")))?;
    let joints: Vec<(String, i32)> = model
        .joints
        .iter()
        .map(|j| (j.name.clone(), j.parent.map_or(-1, |p| p as i32)))
        .collect();
    let frames: Vec<Vec<JointPose>> = a
        .frames
        .iter()
        .map(|fr| fr.iter().map(pose).collect())
        .collect();
    let bounds = (a.bounds.len() == frames.len()).then(|| {
        a.bounds
            .iter()
            .map(|b| Bounds {
                min: b[0],
                max: b[1],
            })
            .collect()
    });
    let computed = bounds.is_none();
    let mut file = anim::compress(&joints, &frames, a.fps, bounds, COMPRESS_TOLERANCE)
        .map_err(|e| invalid(f, format!("animation {:?}: {e}", a.name)))?;
    if computed {
        // Skin the model's meshes with each frame (as md5mesh weights) for the bounds.
        if let Ok(mesh) = mesh_from_model(model) {
            if let Ok(decoded) = anim::Animation::new(&file) {
                let mapping: Vec<usize> = (0..joints.len()).collect();
                file.bounds = anim::frame_bounds(&mesh.meshes, &decoded, &mapping);
            }
        }
        if file.bounds.len() != file.frames.len() {
            file.bounds = vec![
                Bounds {
                    min: [0.0; 3],
                    max: [0.0; 3]
                };
                file.frames.len()
            ];
        }
    }
    Ok(file)
}

/// The md5camera of a model's camera path.
pub fn camera_from_model(model: &Model) -> Result<CameraFile> {
    let c = model
        .camera
        .as_ref()
        .ok_or_else(|| invalid(super::CAMERA_FORMAT, "the model has no camera path".into()))?;
    Ok(CameraFile {
        version: Some(VERSION),
        commandline: String::new(),
        frame_rate: c.fps,
        cuts: c.cuts.clone(),
        frames: c
            .keys
            .iter()
            .map(|k| CameraFrame {
                pos: k.position,
                orient: Quat::from_array(k.rotation).to_md5_xyz(),
                fov: k.fov_degrees,
            })
            .collect(),
    })
}
