//! Keyframe animation in skeletal form, for the formats that store only skeletal animation
//! (Doom 3 MD5): one joint per vertex under a root `origin`, each vertex hanging from its own
//! joint with weight 1, and each clip an animation whose frames move the joints to the
//! pose's vertex positions. Every pose is kept exactly (MD5 stores floats); the price is
//! one joint per vertex, which the writer's warning states.
//!
//! What other tools do: Blender's MD5 exporters refuse meshes without an armature; the
//! vertex-joint form is the lossless one.

use super::{Clip, Influences, Joint, JointTransform, Model, SkeletalAnimation};

/// Joints above which the rig's warning says engines may refuse the file.
pub const MANY_JOINTS: usize = 256;

/// The skeletal form of keyframe `model` (which has no joints): one root joint, one joint
/// per vertex of every mesh, one animation per clip (one named `frames` at 10 frames a second
/// holding every pose when the model has no clips). The returned model has no keyframes.
pub fn vertex_rig(model: &Model) -> Model {
    let identity = [0.0, 0.0, 0.0, 1.0];
    let mut joints = vec![Joint {
        name: "origin".into(),
        parent: None,
        translation: [0.0; 3],
        rotation: identity,
    }];
    let mut out = model.clone();
    for (mi, mesh) in out.meshes.iter_mut().enumerate() {
        mesh.joint_weights = Vec::with_capacity(mesh.positions.len());
        for (v, p) in mesh.positions.iter().enumerate() {
            mesh.joint_weights
                .push(Influences::from_slice(&[(joints.len() as u32, 1.0)]));
            joints.push(Joint {
                name: format!("mesh{mi}_vertex{v}"),
                parent: Some(0),
                translation: *p,
                rotation: identity,
            });
        }
    }
    out.animations = rig_clips(model)
        .iter()
        .map(|c| SkeletalAnimation {
            name: c.name.clone(),
            fps: if c.fps.is_finite() && c.fps > 0.0 {
                c.fps
            } else {
                10.0
            },
            frames: (c.first..c.first + c.count)
                .map(|f| {
                    let mut frame = Vec::with_capacity(joints.len());
                    frame.push(JointTransform {
                        translation: [0.0; 3],
                        rotation: identity,
                    });
                    for mesh in &model.meshes {
                        let pose = mesh
                            .morph_targets
                            .get(f)
                            .map_or(&mesh.positions, |t| &t.positions);
                        frame.extend(pose.iter().map(|&translation| JointTransform {
                            translation,
                            rotation: identity,
                        }));
                    }
                    frame
                })
                .collect(),
            bounds: (c.first..c.first + c.count)
                .map(|f| [model.frames[f].bounds_min, model.frames[f].bounds_max])
                .collect(),
            loops: false,
            weight_scales: None,
        })
        .collect();
    for mesh in &mut out.meshes {
        mesh.morph_targets.clear();
    }
    out.frames.clear();
    out.clips.clear();
    out.joints = joints;
    out
}

/// The clips a keyframe model's skeletal form animates: its clips that lie within its
/// frames, or one named `frames` at 10 frames a second holding every pose when it has none.
pub(crate) fn rig_clips(model: &Model) -> Vec<Clip> {
    let clips = if model.clips.is_empty() && !model.frames.is_empty() {
        vec![Clip {
            name: "frames".into(),
            first: 0,
            count: model.frames.len(),
            fps: 10.0,
            frame_times: None,
        }]
    } else {
        model.clips.clone()
    };
    clips
        .into_iter()
        .filter(|c| c.count > 0 && c.first + c.count <= model.frames.len())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Frame, Mesh, MorphTarget};

    #[test]
    fn every_pose_becomes_joint_positions() {
        let poses = [
            [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
            [[0.0, 0.0, 2.0], [1.0, 0.0, 3.0]],
        ];
        let mesh = Mesh::keyframed(
            vec![[0.0; 2]; 2],
            vec![],
            poses
                .iter()
                .map(|p| MorphTarget {
                    positions: p.to_vec(),
                    normals: vec![[0.0, 0.0, 1.0]; 2],
                })
                .collect(),
            vec![0, 1],
            None,
        );
        let model = Model {
            meshes: vec![mesh],
            frames: vec![Frame::default(), Frame::default()],
            ..Model::default()
        };
        let rig = vertex_rig(&model);
        assert_eq!(rig.joints.len(), 3);
        assert_eq!(
            rig.meshes[0].joint_weights,
            vec![
                Influences::from_slice(&[(1, 1.0)]),
                Influences::from_slice(&[(2, 1.0)])
            ]
        );
        assert_eq!(rig.animations.len(), 1);
        let a = &rig.animations[0];
        assert_eq!(a.frames.len(), 2);
        assert_eq!(a.frames[1][2].translation, [1.0, 0.0, 3.0]);
        assert!(rig.frames.is_empty() && rig.meshes[0].morph_targets.is_empty());
        rig.validate().unwrap();
    }
}
