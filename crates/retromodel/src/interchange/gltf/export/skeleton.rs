//! Joints as nodes with their local (parent-relative) bind transforms, the skin with inverse
//! bind matrices, and one animation per skeletal animation.
//!
//! The model's joints are object-space bind poses `G`; a joint node carries
//! `inverse(G[parent]) ∘ G` and its inverse bind matrix is `inverse(G)`, both in Y-up. The
//! animation frames are local transforms already and become translation and rotation
//! channels directly.
//!
//! **Weight scales** ([`crate::model::WeightScales`], the Quake II re-release's `.md5scale`)
//! scale the vertices a joint carries about the joint, *not* its children, while a glTF
//! node's scale is inherited by every node below it. So a joint `j` that some animation
//! scales (a frame scale other than 1) gets a helper node: a leaf child of `j`'s node with
//! the identity transform, named `<joint>.md5scale`, with `extras.md5scaleOf = j`. The
//! helpers are skin joints after the model's joints, each with `j`'s inverse bind matrix,
//! and the vertex weights on `j` point at its helper instead; the helper's skin matrix is
//! then `G_j · Scale(s) · inverse(B_j)`, exactly the weight scale, and `j`'s children never
//! see the scale. Every animation gives every helper a `scale` channel `[s, s, s]` per frame
//! (1 where the animation has no weight scales, so that no earlier animation's scale stays
//! on in players that keep the last value), `STEP`-interpolated as the engine does not
//! interpolate scales: the poses agree at frames, while between frames `a` and `b` glTF
//! shows `a`'s scale and q2pro `b`'s. Scale 0 (the limb hidden, collapsed onto the joint) is
//! written as it is. A joint whose `scale_positions` flag is set has its translation keys
//! multiplied by the frame's scale (which moves its children, as in the engine), and the
//! animation's `extras.md5scalePositions` lists those joints so that an import divides it
//! out again. A model without weight scales exports exactly as before.

use gltf_json as json;
use json::animation::{Interpolation, Property};
use json::scene::UnitQuaternion;

use super::animation::{Channels, Track};
use super::{invalid, strictly_increasing, Builder};
use crate::error::Result;
use crate::math::Quat;
use crate::model::pose::JointPose;
use crate::model::quat_to_y_up;
use crate::model::to_y_up;
use crate::model::AnimationEvent;

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

/// An animation's events as `extras.events`: `{"frame", "time", "event", "type", "options"}`
/// each, `time` in seconds at `fps` (an import at another rate maps it to its frames).
fn events_json(events: &[AnimationEvent], fps: f32) -> serde_json::Value {
    events
        .iter()
        .map(|e| {
            serde_json::json!({
                "frame": e.frame,
                "time": f64::from(e.frame) / f64::from(fps),
                "event": e.event,
                "type": e.kind,
                "options": e.options,
            })
        })
        .collect()
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
            self.scale_helpers()?;
            let mut ibm: Vec<[f32; 16]> = global
                .iter()
                .map(|g| pose_y_up(g).inverse().to_mat4())
                .collect();
            let mut skin_joints = self.joint_nodes.clone();
            for &(j, node) in &self.scale_helpers {
                ibm.push(ibm[j]);
                skin_joints.push(node);
            }
            let ibm = self.floats(&ibm, None, false);
            self.skin = Some(self.root.push(json::Skin {
                extensions: None,
                extras: Default::default(),
                inverse_bind_matrices: Some(ibm),
                joints: skin_joints,
                name: Some("skeleton".to_string()),
                skeleton: Some(top),
            }));
        }
        Ok(())
    }

    /// The weight scale helper nodes (see the module documentation): one leaf child of each
    /// joint that an exported animation's weight scales scale in some frame, and
    /// [`Builder::weight_slots`] pointing that joint's weights at it. Nothing when the
    /// animations are not written.
    fn scale_helpers(&mut self) -> Result<()> {
        let model = self.model;
        if !self.animated() {
            return Ok(());
        }
        let joints = &model.joints;
        let scaled: Vec<usize> = (0..joints.len())
            .filter(|&j| {
                model
                    .animations
                    .iter()
                    .filter_map(|a| a.weight_scales.as_ref())
                    .any(|ws| {
                        ws.frames
                            .iter()
                            .any(|f| f.get(j).is_some_and(|s| *s != 1.0))
                    })
            })
            .collect();
        if scaled.is_empty() {
            return Ok(());
        }
        let total = joints.len() + scaled.len();
        if total > 65536 {
            return Err(invalid(format!(
                "{} joints and {} weight scale helpers; glTF joint indices are 16-bit",
                joints.len(),
                scaled.len()
            )));
        }
        // Within 65536 skin joints, every slot fits 16 bits.
        let mut slots: Vec<u16> = (0..joints.len()).map(|j| j as u16).collect();
        for (k, &j) in scaled.iter().enumerate() {
            let extras =
                serde_json::value::to_raw_value(&serde_json::json!({ "md5scaleOf": j })).ok();
            let node = self.root.push(json::Node {
                name: Some(format!("{}.md5scale", joints[j].name)),
                extras,
                ..json::Node::default()
            });
            self.root.nodes[self.joint_nodes[j].value()]
                .children
                .get_or_insert_with(Vec::new)
                .push(node);
            self.scale_helpers.push((j, node));
            slots[j] = (joints.len() + k) as u16;
        }
        self.weight_slots = slots;
        Ok(())
    }

    /// One animation per skeletal animation: per joint a translation and a rotation channel
    /// (and a scale channel where [`crate::model::Model::animation_scales`] is not 1), frame `k` at
    /// `k / fps` seconds; per weight scale helper a `STEP` scale channel, and the
    /// translations of joints whose weight scales scale their positions multiplied by the
    /// frame's scale (see the module documentation).
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
            let weight_scales = a.weight_scales.as_ref();
            // The scale that multiplies joint `j`'s translation in frame `f`.
            let position_scale = |f: usize, j: usize| -> f32 {
                match weight_scales {
                    Some(ws) if ws.scale_positions.get(j) == Some(&true) => ws.get(f, j),
                    _ => 1.0,
                }
            };
            if self.scale_helpers.is_empty()
                && weight_scales.is_some_and(|ws| ws.frames.iter().flatten().any(|s| *s != 1.0))
            {
                self.warnings.push(format!(
                    "animation \"{name}\": weight scales without a skinned mesh to scale; left out"
                ));
            }
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
                    let k = position_scale(f, j);
                    let translation = t.translation.map(|c| c * k);
                    if !finite(&translation) || !finite(&t.rotation) {
                        return Err(invalid(format!(
                            "animation \"{name}\": frame {f}: joint {j}: non-finite transform"
                        )));
                    }
                    translations.push(to_y_up(translation));
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
            // Every helper gets its scales, 1 throughout when this animation has none.
            for &(j, node) in &self.scale_helpers.clone() {
                let scales: Vec<[f32; 3]> = frames
                    .iter()
                    .map(|&f| [weight_scales.map_or(1.0, |ws| ws.get(f, j)); 3])
                    .collect();
                let output = self.floats(&scales, None, false);
                out.push_with(input, output, &[node], Property::Scale, Interpolation::Step);
            }
            // For an import: the frame count (a one-frame animation has two keys), and the
            // joints whose translations carry their weight scale.
            let mut extras = serde_json::json!({ "frameCount": a.frames.len() });
            let positions: Vec<usize> = weight_scales
                .map(|ws| {
                    let flags = ws.scale_positions.iter().take(model.joints.len());
                    flags.enumerate().filter(|e| *e.1).map(|e| e.0).collect()
                })
                .unwrap_or_default();
            if !positions.is_empty() {
                extras["md5scalePositions"] = serde_json::json!(positions);
            }
            if let Some(events) = model.animation_events.get(ai).filter(|e| !e.is_empty()) {
                extras["events"] = events_json(events, fps);
            }
            let extras = serde_json::value::to_raw_value(&extras).ok();
            self.root.push(out.animation(name, extras));
        }
        Ok(())
    }
}
