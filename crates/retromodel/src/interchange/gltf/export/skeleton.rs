//! Joints as nodes with their local (parent-relative) bind transforms, the skin with inverse
//! bind matrices, and one animation per skeletal animation.
//!
//! The model's joints are object-space bind poses `G`; a joint node carries
//! `inverse(G[parent]) ∘ G` and its inverse bind matrix is `inverse(G)`, both in Y-up. The
//! animation frames are local transforms already and become translation and rotation
//! channels directly.

use gltf_json as json;
use json::scene::UnitQuaternion;

use super::animation::{Channels, Track};
use super::{invalid, strictly_increasing, Builder};
use crate::error::Result;
use crate::math::Quat;
use crate::model::pose::JointPose;
use crate::model::quat_to_y_up;
use crate::model::to_y_up;

/// Frames per second assumed for a skeletal animation whose rate is not a positive number
/// (Doom 3's default).
const SKELETAL_FPS: f32 = 24.0;

/// A pose in Y-up.
fn pose_y_up(p: &JointPose) -> JointPose {
    JointPose::new(
        to_y_up(p.pos),
        Quat::from_array(quat_to_y_up(p.orient.to_array())),
    )
}

fn finite(v: &[f32]) -> bool {
    v.iter().all(|c| c.is_finite())
}

impl Builder<'_> {
    /// Joint nodes (and a `skeleton` node above several roots), and the skin when an exported
    /// mesh has joint weights.
    pub(super) fn skeleton(&mut self, exported: &[usize]) -> Result<()> {
        let model = self.model;
        let joints = &model.joints;
        if joints.is_empty() {
            return Ok(());
        }
        if joints.len() > 65536 {
            return Err(invalid(format!(
                "{} joints; glTF joint indices are 16-bit",
                joints.len()
            )));
        }
        let mut global = Vec::with_capacity(joints.len());
        for (j, joint) in joints.iter().enumerate() {
            if !finite(&joint.translation) || !finite(&joint.rotation) {
                return Err(invalid(format!(
                    "joint {j} \"{}\": non-finite bind pose",
                    joint.name
                )));
            }
            if joint.parent.is_some_and(|p| p >= j) {
                return Err(invalid(format!(
                    "joint {j} \"{}\": parent {} does not come before it",
                    joint.name,
                    joint.parent.unwrap_or_default()
                )));
            }
            global.push(JointPose::new(
                joint.translation,
                Quat::from_array(joint.rotation).normalize(),
            ));
        }
        let mut nodes = Vec::with_capacity(joints.len());
        for (j, joint) in joints.iter().enumerate() {
            let local = match joint.parent {
                Some(p) => global[p].inverse().compose(&global[j]),
                None => global[j],
            };
            let local = pose_y_up(&local);
            nodes.push(self.root.push(json::Node {
                name: Some(joint.name.clone()),
                translation: Some(local.pos),
                rotation: Some(UnitQuaternion(local.orient.normalize().to_array())),
                ..json::Node::default()
            }));
        }
        let mut roots = Vec::new();
        for (j, joint) in joints.iter().enumerate() {
            match joint.parent {
                Some(p) => self.root.nodes[nodes[p].value()]
                    .children
                    .get_or_insert_with(Vec::new)
                    .push(nodes[j]),
                None => roots.push(nodes[j]),
            }
        }
        let top = if roots.len() == 1 {
            roots[0]
        } else {
            self.root.push(json::Node {
                name: Some("skeleton".to_string()),
                children: Some(roots),
                ..json::Node::default()
            })
        };
        self.roots.push(top);
        self.joint_nodes = nodes;
        if exported.iter().any(|&mi| self.skinned(&model.meshes[mi])) {
            let ibm: Vec<[f32; 16]> = global
                .iter()
                .map(|g| pose_y_up(g).inverse().to_mat4())
                .collect();
            let ibm = self.floats(&ibm, None, false);
            self.skin = Some(self.root.push(json::Skin {
                extensions: None,
                extras: Default::default(),
                inverse_bind_matrices: Some(ibm),
                joints: self.joint_nodes.clone(),
                name: Some("skeleton".to_string()),
                skeleton: Some(top),
            }));
        }
        Ok(())
    }

    /// One animation per skeletal animation: per joint a translation and a rotation channel
    /// (and a scale channel where [`crate::model::Model::animation_scales`] is not 1), frame `k` at
    /// `k / fps` seconds.
    pub(super) fn skeletal_animations(&mut self) -> Result<()> {
        let model = self.model;
        if self.joint_nodes.is_empty() {
            return Ok(());
        }
        for (ai, a) in model.animations.iter().enumerate() {
            let name = if a.name.is_empty() {
                format!("animation{ai}")
            } else {
                a.name.clone()
            };
            if a.frames.is_empty() {
                self.warnings
                    .push(format!("animation \"{name}\" has no frames; left out"));
                continue;
            }
            let fps = self.fps_or(&format!("animation \"{name}\""), a.fps, SKELETAL_FPS);
            // A one-frame animation still gets two keys (a sampler wants an interval).
            let frames: Vec<usize> = if a.frames.len() == 1 {
                vec![0, 0]
            } else {
                (0..a.frames.len()).collect()
            };
            let mut times: Vec<f32> = (0..frames.len())
                .map(|k| (k as f64 / f64::from(fps)) as f32)
                .collect();
            strictly_increasing(&mut times);
            let input = self.times(&times);
            let mut out = Channels::default();
            let scales_of = model.animation_scales.get(ai);
            for (j, &node) in self.joint_nodes.clone().iter().enumerate() {
                let mut translations = Vec::with_capacity(frames.len());
                let mut rotations = Vec::with_capacity(frames.len());
                // A joint whose scale is 1 throughout gets no scale channel.
                let scales: Option<Vec<[f32; 3]>> = scales_of
                    .filter(|s| s.iter().any(|f| f[j] != [1.0; 3]))
                    .map(|s| {
                        frames
                            .iter()
                            .map(|&f| {
                                let v = s[f][j];
                                [v[0], v[2], v[1]]
                            })
                            .collect()
                    });
                if let Some(bad) = scales
                    .iter()
                    .flatten()
                    .find(|v| !finite(&v[..]) || v.contains(&0.0))
                {
                    return Err(invalid(format!(
                        "animation \"{name}\": joint {j}: scale {bad:?} is not finite and non-zero"
                    )));
                }
                for &f in &frames {
                    let t = a.frames[f][j];
                    if !finite(&t.translation) || !finite(&t.rotation) {
                        return Err(invalid(format!(
                            "animation \"{name}\": frame {f}: joint {j}: non-finite transform"
                        )));
                    }
                    translations.push(to_y_up(t.translation));
                    let q = Quat::from_array(t.rotation).normalize().to_array();
                    rotations.push(quat_to_y_up(q));
                }
                let track = Track::new(
                    input,
                    node,
                    &translations,
                    &mut rotations,
                    scales.as_deref(),
                );
                self.trs_channels(track, &mut out);
            }
            // A one-frame animation has two keys: the frame count says so to an import.
            let extras = serde_json::value::to_raw_value(
                &serde_json::json!({ "frameCount": a.frames.len() }),
            )
            .ok();
            self.root.push(out.animation(name, extras));
        }
        Ok(())
    }
}
