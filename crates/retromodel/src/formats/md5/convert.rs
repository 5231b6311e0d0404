//! MD5 files to the format-neutral [`Model`].
//!
//! - md5mesh: the skeleton as [`Model::joints`] (object-space bind pose), one mesh per MD5
//!   mesh with bind-pose positions from the weights, normals derived from the triangles,
//!   UVs as stored, and every vertex's joint influences (merged per joint, normalised). No
//!   frames: the mesh animates through [`Model::animations`].
//! - md5anim: the hierarchy as joints (bind pose = frame 0), one [`SkeletalAnimation`].
//!   [`attach_animation`] adds an md5anim to an md5mesh's model, matching joints by name.
//! - md5camera: a [`CameraPath`].

use super::anim::{self, Animation, JointPose};
use super::quat::w_from_xyz;
use super::raw::{AnimFile, CameraFile, MeshFile};
use crate::model::{
    CameraKey, CameraPath, Converted, Joint, JointTransform, Mesh, Model, SkeletalAnimation,
};

fn transform(p: &JointPose) -> JointTransform {
    p.to_transform()
}

/// Converts an md5mesh.
pub fn mesh_to_model(file: &MeshFile, warnings: &[String]) -> Converted {
    let mut warnings = warnings.to_vec();
    let joints: Vec<Joint> = file
        .joints
        .iter()
        .map(|j| Joint {
            name: j.name.clone(),
            parent: usize::try_from(j.parent).ok(),
            translation: j.pos,
            rotation: w_from_xyz(j.orient).to_array(),
        })
        .collect();
    let mut meshes = Vec::with_capacity(file.meshes.len());
    for (mi, m) in file.meshes.iter().enumerate() {
        if let Err(e) = anim::check_mesh(m, file.joints.len()) {
            warnings.push(format!("mesh {mi}: {e}; left out"));
            continue;
        }
        let n = m.verts.len();
        let mut positions = vec![[0.0; 3]; n];
        anim::bind_positions(m, &file.joints, &mut positions);
        let mut normals = vec![[0.0; 3]; n];
        anim::bind_normals(m, &positions, &mut normals);
        let drift = weight_drift(m, &file.joints, &positions);
        if drift > 1e-3 {
            warnings.push(format!(
                "mesh {mi}: weights land up to {drift:.4} units away from their vertex: \
                 joint-weight (linear blend) skinning, as in glTF, differs from MD5 skinning \
                 by up to that much when the joints move"
            ));
        }
        meshes.push(Mesh {
            name: m.shader.clone(),
            positions,
            normals,
            uvs: m.verts.iter().map(|v| v.uv).collect(),
            triangles: m.tris.clone(),
            morph_targets: Vec::new(),
            source_vertices: (0..n as u32).collect(),
            skin: None,
            joint_weights: anim::vertex_influences(m, usize::MAX),
            skin_size: None,
        });
    }
    Converted {
        model: Model {
            meshes,
            joints,
            ..Model::default()
        },
        warnings,
    }
}

/// The largest distance between a vertex's bind position and where one of its weights puts
/// it on its own (Doom 3's exporter writes weights that all land on the vertex; only then is
/// skinning by joint weights the same as skinning by weight positions).
fn weight_drift(mesh: &super::raw::Mesh, joints: &[super::raw::Joint], bind: &[[f32; 3]]) -> f32 {
    let poses: Vec<JointPose> = joints.iter().map(JointPose::from_joint).collect();
    let mut worst = 0f32;
    for (v, p) in mesh.verts.iter().zip(bind) {
        let (a, n) = (v.start_weight as usize, v.count_weight as usize);
        for w in mesh.weights.get(a..a + n).unwrap_or(&[]) {
            let Some(j) = poses.get(w.joint as usize) else {
                continue;
            };
            let q = j.transform_point(w.pos);
            let d = (0..3).map(|k| (q[k] - p[k]).powi(2)).sum::<f32>().sqrt();
            worst = worst.max(d);
        }
    }
    worst
}

/// The animation of an md5anim, its joints in the animation's order.
fn animation(
    file: &AnimFile,
    name: &str,
    mapping: Option<&[usize]>,
) -> Result<SkeletalAnimation, String> {
    let a = Animation::new(file)?;
    let frames = (0..a.frame_count())
        .map(|f| {
            let local = a.frame(f);
            match mapping {
                Some(m) => m.iter().map(|&i| transform(&local[i])).collect(),
                None => local.iter().map(transform).collect(),
            }
        })
        .collect();
    Ok(SkeletalAnimation {
        name: name.to_string(),
        fps: file.frame_rate,
        frames,
        bounds: file.bounds.iter().map(|b| [b.min, b.max]).collect(),
        loops: true,
        weight_scales: None,
    })
}

/// Converts an md5anim on its own: joints in the bind pose of frame 0, one animation.
pub fn anim_to_model(file: &AnimFile, name: &str, warnings: &[String]) -> Converted {
    let mut warnings = warnings.to_vec();
    let mut model = Model::default();
    match (Animation::new(file), animation(file, name, None)) {
        (Ok(a), Ok(clip)) => {
            let mut global = vec![JointPose::IDENTITY; a.joint_count()];
            a.frame_global(0, &mut global);
            model.joints = file
                .hierarchy
                .iter()
                .zip(&global)
                .map(|(h, g)| Joint {
                    name: h.name.clone(),
                    parent: usize::try_from(h.parent).ok(),
                    translation: g.pos,
                    rotation: g.orient.to_array(),
                })
                .collect();
            model.animations.push(clip);
        }
        (Err(e), _) | (_, Err(e)) => warnings.push(format!("animation not decoded: {e}")),
    }
    Converted { model, warnings }
}

/// Converts an md5camera.
pub fn camera_to_model(file: &CameraFile, warnings: &[String]) -> Converted {
    let keys = file
        .frames
        .iter()
        .map(|f| CameraKey {
            position: f.pos,
            rotation: w_from_xyz(f.orient).to_array(),
            fov_degrees: f.fov,
        })
        .collect();
    Converted {
        model: Model {
            camera: Some(CameraPath {
                fps: file.frame_rate,
                cuts: file.cuts.clone(),
                keys,
            }),
            ..Model::default()
        },
        warnings: warnings.to_vec(),
    }
}

/// Adds an md5anim to a model converted from an md5mesh: its joints are matched to the
/// model's by name (order may differ, extra animation joints are ignored). Fails naming a
/// missing joint.
pub fn attach_animation(model: &mut Model, file: &AnimFile, name: &str) -> Result<(), String> {
    let names: Vec<&str> = model.joints.iter().map(|j| j.name.as_str()).collect();
    let mapping = anim::match_names(names, file.hierarchy.iter().map(|h| h.name.as_str()))?;
    model
        .animations
        .push(animation(file, name, Some(&mapping))?);
    Ok(())
}
