//! glTF skins: joint matrices for posing, and the model's skeleton from the first skin.
//!
//! **Weight scale helpers.** This crate's exporter writes a joint's weight scales
//! ([`WeightScales`], the Quake II re-release's `.md5scale`) as a helper node: a leaf child
//! of the joint's node, a skin joint of its own with the joint's inverse bind matrix and
//! the identity rest transform, carrying the joint's vertex weights and a (`STEP`) scale
//! channel, so that the scale reaches those vertices but not the joint's children (a glTF
//! scale is inherited). A skin joint is taken for such a helper when it is a leaf child of
//! another joint of the skin, with the identity rest transform and that joint's inverse bind
//! matrix, and either has `extras.md5scaleOf` or is named `<joint>.md5scale`. Helpers do
//! not become model joints: their influences go to their joint (merged with one already
//! there), their scale (first component) at each frame becomes the joint's weight scale,
//! and the translations of the joints an animation lists in `extras.md5scalePositions`
//! (skin joint slots) are divided by that scale again where it is not 0, with
//! `scale_positions` set. An animation whose scales are all 1 and that scales no position
//! gets no weight scales. The meshes' baked frames are posed with the helpers, so they show
//! the scales.

use std::collections::HashMap;

use gltf::accessor::Dimensions;

use super::accessor::floats;
use super::animate::{Animation, Animations};
use super::scene::Scene;
use super::{fail, Buffers, Spent};
use crate::error::{ErrorKind, Result};
use crate::interchange::ImportOptions;
use crate::limits::Budget;
use crate::math::{self, Mat4};
use crate::model::{
    AnimationEvent, Influences, Joint, JointTransform, Model, SkeletalAnimation, WeightScales,
};

/// Frames per second of a skeletal animation sampled at no rate of its own (Doom 3's).
const SKELETAL_FPS: f32 = 24.0;

/// One skin: its joint nodes and inverse bind matrices.
#[derive(Debug, Clone)]
struct SkinData {
    joints: Vec<usize>,
    inverse_bind: Vec<Mat4>,
}

/// Every skin a drawn mesh uses; the first one is the model's skeleton.
#[derive(Debug, Clone)]
pub(super) struct Skeleton {
    skins: HashMap<usize, SkinData>,
    /// The skin that becomes [`Model::joints`].
    primary: usize,
    /// Joint slots of the primary skin in model order (parents first).
    order: Vec<usize>,
    /// Parent of each model joint.
    parents: Vec<Option<usize>>,
    /// Per joint slot of the primary skin, the slot of the joint it is a weight scale helper
    /// of (see the module documentation); `None` for a joint of the model.
    helper_of: Vec<Option<usize>>,
}

/// Whether two matrices are equal within `1e-5` relative to their elements.
fn near(a: &Mat4, b: &Mat4) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (x - y).abs() <= 1e-5 * (1.0 + x.abs().max(y.abs())))
}

/// Per joint slot of `data`, the slot of the joint it is a weight scale helper of: a leaf
/// child of another joint of the skin, drawing nothing, with the identity rest transform
/// and that joint's inverse bind matrix, marked by `extras.md5scaleOf` or named
/// `<joint>.md5scale`.
fn scale_helpers(doc: &gltf::Document, scene: &Scene, data: &SkinData) -> Vec<Option<usize>> {
    let gnodes: Vec<gltf::Node> = doc.nodes().collect();
    let slot_of: HashMap<usize, usize> = data
        .joints
        .iter()
        .enumerate()
        .map(|(k, &n)| (n, k))
        .collect();
    data.joints
        .iter()
        .enumerate()
        .map(|(k, &n)| {
            let (g, node) = (gnodes.get(n)?, scene.nodes.get(n)?);
            let parent = node.parent?;
            let target = *slot_of.get(&parent)?;
            if target == k || g.children().next().is_some() || g.mesh().is_some() {
                return None;
            }
            let marked = g
                .extras()
                .as_ref()
                .and_then(|r| serde_json::from_str::<serde_json::Value>(r.get()).ok())
                .is_some_and(|v| v.get("md5scaleOf").is_some_and(|j| j.is_u64()));
            let named = scene
                .nodes
                .get(parent)
                .is_some_and(|p| node.name == format!("{}.md5scale", p.name));
            let rest = node.matrix.unwrap_or_else(|| {
                let (t, r, s) = node.trs;
                math::from_trs(t, r, s)
            });
            let fits = near(&rest, &math::IDENTITY)
                && near(&data.inverse_bind[k], &data.inverse_bind[target]);
            ((marked || named) && fits).then_some(target)
        })
        .collect()
}

impl Skeleton {
    /// Reads the skins the scene's meshes use, or `None` when no mesh is skinned.
    pub fn new(
        doc: &gltf::Document,
        scene: &Scene,
        buffers: &Buffers,
        budget: &mut Budget,
        warnings: &mut Vec<String>,
    ) -> Result<Option<Skeleton>> {
        let mut used: Vec<usize> = scene.instances.iter().filter_map(|i| i.skin).collect();
        used.sort_unstable();
        used.dedup();
        let Some(&primary) = used.first() else {
            return Ok(None);
        };
        let mut skins = HashMap::new();
        for s in doc.skins().filter(|s| used.contains(&s.index())) {
            let joints: Vec<usize> = s.joints().map(|j| j.index()).collect();
            let inverse_bind = match s.inverse_bind_matrices() {
                Some(a) => {
                    let (f, _) = floats(
                        buffers,
                        &a,
                        &[Dimensions::Mat4],
                        budget,
                        &format!("skin {} inverseBindMatrices", s.index()),
                    )?;
                    let m: Vec<Mat4> = f
                        .chunks_exact(16)
                        .map(|c| std::array::from_fn(|i| c[i]))
                        .collect();
                    if m.len() != joints.len() {
                        return Err(fail(
                            ErrorKind::BadCount,
                            format!(
                                "skin {}: {} inverse bind matrices for {} joints",
                                s.index(),
                                m.len(),
                                joints.len()
                            ),
                        ));
                    }
                    m
                }
                None => vec![math::IDENTITY; joints.len()],
            };
            skins.insert(
                s.index(),
                SkinData {
                    joints,
                    inverse_bind,
                },
            );
        }
        for inst in &scene.instances {
            let Some(s) = inst.skin.and_then(|s| skins.get(&s)) else {
                continue;
            };
            if let Some(&(j, _)) = inst
                .influences
                .iter()
                .flatten()
                .find(|(j, _)| *j as usize >= s.joints.len())
            {
                return Err(fail(
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "mesh \"{}\": joint {j} out of range ({} joints in its skin)",
                        inst.name,
                        s.joints.len()
                    ),
                ));
            }
        }
        if used.len() > 1 {
            warnings.push(format!(
                "{} skins; the skeleton is skin {primary}'s (meshes of the others are posed in \
                 the frames but carry no joint weights)",
                used.len()
            ));
        }
        // Model order: parents first, by walking the scene order; weight scale helpers are
        // no model joints.
        let data = &skins[&primary];
        let helper_of = scale_helpers(doc, scene, data);
        let slot_of: HashMap<usize, usize> = data
            .joints
            .iter()
            .enumerate()
            .filter(|&(k, _)| helper_of[k].is_none())
            .map(|(k, &n)| (n, k))
            .collect();
        let mut order: Vec<usize> = scene
            .order
            .iter()
            .filter_map(|n| slot_of.get(n).copied())
            .collect();
        // Joints outside the scene's tree go last, in skin order.
        for (k, helper) in helper_of.iter().enumerate() {
            if helper.is_none() && !order.contains(&k) {
                order.push(k);
            }
        }
        let index_of: HashMap<usize, usize> = order
            .iter()
            .enumerate()
            .map(|(m, &k)| (data.joints[k], m))
            .collect();
        let parents = order
            .iter()
            .map(|&k| {
                let mut p = scene.nodes[data.joints[k]].parent;
                let mut guard = 0;
                while let Some(n) = p {
                    if let Some(&m) = index_of.get(&n) {
                        return Some(m);
                    }
                    p = scene.nodes[n].parent;
                    guard += 1;
                    if guard > scene.nodes.len() {
                        break;
                    }
                }
                None
            })
            .collect::<Vec<_>>();
        // A parent found later in the order (a joint outside the tree) is dropped.
        let parents = parents
            .iter()
            .enumerate()
            .map(|(m, p)| p.filter(|&p| p < m))
            .collect();
        Ok(Some(Skeleton {
            skins,
            primary,
            order,
            parents,
            helper_of,
        }))
    }

    /// Each skin's joint matrices (`world · inverse bind`, by joint slot) for `world`.
    pub fn slot_matrices(&self, world: &[Mat4]) -> HashMap<usize, Vec<Mat4>> {
        self.skins
            .iter()
            .map(|(&s, d)| {
                let m = d
                    .joints
                    .iter()
                    .zip(&d.inverse_bind)
                    .map(|(&n, ib)| math::mul(&world[n], ib))
                    .collect();
                (s, m)
            })
            .collect()
    }

    /// The model's joints, joint weights and skeletal animations. Each animation's frames
    /// are charged to the budget of `spent` before they are made; sampled ones count against
    /// [`Limits::max_sampled_frames`](crate::limits::Limits::max_sampled_frames) with the frames
    /// `spent` has sampled.
    pub fn apply(
        &self,
        scene: &Scene,
        animations: &Animations,
        options: &ImportOptions,
        model: &mut Model,
        spent: &mut Spent,
        warnings: &mut Vec<String>,
    ) -> Result<()> {
        let data = &self.skins[&self.primary];
        let slot_to_model = self.slot_to_model(data);
        // Each helper's node and the model joint it scales.
        let helpers: Vec<(usize, usize)> = self
            .helper_of
            .iter()
            .enumerate()
            .filter_map(|(k, t)| Some((data.joints[k], slot_to_model[(*t)?] as usize)))
            .collect();
        model.joints = self.model_joints(scene, data, warnings);
        self.apply_weights(scene, &slot_to_model, model, warnings);
        let skin = PrimarySkin {
            data,
            slot_to_model: &slot_to_model,
            helpers: &helpers,
        };
        for a in &animations.0 {
            // Only animations that move nodes (joints or what is above them).
            if a.channels
                .iter()
                .all(|c| c.property == gltf::animation::Property::MorphTargetWeights)
            {
                continue;
            }
            let animation = self.skeletal_animation(a, scene, &skin, options, spent, warnings)?;
            if !a.events.is_empty() {
                // An event's time picks its frame at the rate imported (which an import fps
                // or uneven keys change); its stored frame when no time is given.
                let fps = f64::from(animation.fps);
                let events = a.events.iter().map(|(e, time)| AnimationEvent {
                    frame: match time {
                        Some(t) if fps.is_finite() && fps > 0.0 => {
                            (t * fps).round().clamp(0.0, f64::from(i32::MAX)) as i32
                        }
                        _ => e.frame,
                    },
                    ..e.clone()
                });
                let i = model.animations.len();
                model.animation_events.resize(i, Vec::new());
                model.animation_events.push(events.collect());
            }
            model.animations.push(animation);
        }
        Ok(())
    }

    /// The model joint of each slot of the primary skin `data` (a helper's: its joint's).
    fn slot_to_model(&self, data: &SkinData) -> Vec<u32> {
        let mut slot_to_model = vec![0u32; data.joints.len()];
        for (m, &k) in self.order.iter().enumerate() {
            slot_to_model[k] = m as u32;
        }
        // A helper's influences go to its joint.
        for (k, target) in self.helper_of.iter().enumerate() {
            if let Some(&t) = target.as_ref() {
                slot_to_model[k] = slot_to_model[t];
            }
        }
        slot_to_model
    }

    /// The model's joints, from the inverse bind matrices of the primary skin `data` (their
    /// scale warned about and left out).
    fn model_joints(
        &self,
        scene: &Scene,
        data: &SkinData,
        warnings: &mut Vec<String>,
    ) -> Vec<Joint> {
        let mut scaled = false;
        let joints = self
            .order
            .iter()
            .enumerate()
            .map(|(m, &k)| {
                let bind = math::inverse_affine(&data.inverse_bind[k]).unwrap_or(math::IDENTITY);
                let (t, r, s) = math::decompose(&bind);
                scaled |= s.iter().any(|c| (c - 1.0).abs() > 1e-3);
                Joint {
                    name: scene.nodes[data.joints[k]].name.clone(),
                    parent: self.parents[m],
                    translation: math::from_y_up(t),
                    rotation: math::quat_from_y_up(r),
                }
            })
            .collect();
        if scaled {
            warnings.push(
                "inverse bind matrices carry scale; joints keep rotation and translation only"
                    .into(),
            );
        }
        joints
    }

    /// The joint weights of the meshes skinned with the primary skin: influences on one
    /// model joint merged, weights divided by their sum (a vertex without weight hung from
    /// joint 0, warned about).
    fn apply_weights(
        &self,
        scene: &Scene,
        slot_to_model: &[u32],
        model: &mut Model,
        warnings: &mut Vec<String>,
    ) {
        for (k, inst) in scene.instances.iter().enumerate() {
            if inst.skin != Some(self.primary) {
                continue;
            }
            let mut dropped = 0usize;
            model.meshes[k].joint_weights = inst
                .influences
                .iter()
                .map(|list| {
                    let mut merged = Influences::new();
                    for &(j, w) in list {
                        let j = slot_to_model[j as usize];
                        match merged.iter_mut().find(|(m, _)| *m == j) {
                            Some(e) => e.1 += w,
                            None => merged.push((j, w)),
                        }
                    }
                    let sum: f32 = merged.iter().map(|e| e.1).sum();
                    if merged.is_empty() || sum <= 0.0 {
                        dropped += 1;
                        return Influences::from_slice(&[(0, 1.0)]);
                    }
                    merged.iter_mut().for_each(|e| e.1 /= sum);
                    merged
                })
                .collect();
            if dropped > 0 {
                warnings.push(format!(
                    "mesh \"{}\": {dropped} vertices have no joint weight; hung from joint 0",
                    inst.name
                ));
            }
        }
    }

    /// The skeletal animation of `a` (which moves nodes): its frames at the times
    /// [`frame_times`] gives, each joint's local transform, and the weight scales of the
    /// helpers.
    fn skeletal_animation(
        &self,
        a: &Animation,
        scene: &Scene,
        skin: &PrimarySkin<'_>,
        options: &ImportOptions,
        spent: &mut Spent,
        warnings: &mut Vec<String>,
    ) -> Result<SkeletalAnimation> {
        let (data, slot_to_model, helpers) = (skin.data, skin.slot_to_model, skin.helpers);
        let budget = &mut spent.budget;
        let (times, fps) = frame_times(a, options, budget, &mut spent.sampled)?;
        // What the frames keep: per frame a list of one transform per joint.
        let frame_bytes = std::mem::size_of::<Vec<JointTransform>>()
            + self.order.len() * std::mem::size_of::<JointTransform>();
        budget
            .charge((frame_bytes as u64).saturating_mul(times.len() as u64))
            .map_err(|limit| too_big(&a.name, times.len(), limit))?;
        let direct = self.direct_joints(a, scene, data);
        // Weight scales: the helpers' scales, and the joints whose translations the
        // exporter multiplied by theirs (skin slots of joints, not of helpers).
        let joint_count = self.order.len();
        let mut flags = vec![false; joint_count];
        for &k in &a.scaled_positions {
            match self.helper_of.get(k) {
                Some(None) => flags[slot_to_model[k] as usize] = true,
                _ => warnings.push(format!(
                    "animation \"{}\": md5scalePositions names skin joint {k}, which is \
                     no joint of the skeleton; left out",
                    a.name
                )),
            }
        }
        let weighed = !helpers.is_empty() || flags.contains(&true);
        if weighed {
            let row_bytes = std::mem::size_of::<Vec<f32>>() + joint_count * 4;
            budget
                .charge((row_bytes as u64).saturating_mul(times.len() as u64))
                .map_err(|limit| too_big(&a.name, times.len(), limit))?;
        }
        let mut rows: Vec<Vec<f32>> = Vec::new();
        let mut unusable = false;
        let mut frames = Vec::with_capacity(times.len());
        for &t in &times {
            let (locals, _, trs, _) = a.evaluate_trs(scene, t);
            let world = scene.world(&locals);
            let global: Vec<Mat4> = self.order.iter().map(|&k| world[data.joints[k]]).collect();
            let mut frame: Vec<JointTransform> = (0..self.order.len())
                .map(|m| {
                    if direct[m] {
                        let (t, r, _) = trs[data.joints[self.order[m]]];
                        return JointTransform {
                            translation: math::from_y_up(t),
                            rotation: math::quat_from_y_up(r),
                        };
                    }
                    let local = match self.parents[m] {
                        Some(p) => math::mul(
                            &math::inverse_affine(&global[p]).unwrap_or(math::IDENTITY),
                            &global[m],
                        ),
                        None => global[m],
                    };
                    let (t, r, _) = math::decompose(&local);
                    JointTransform {
                        translation: math::from_y_up(t),
                        rotation: math::quat_from_y_up(r),
                    }
                })
                .collect();
            if weighed {
                let mut row = vec![1.0f32; joint_count];
                for &(node, m) in helpers {
                    let s = trs[node].2[0];
                    if s.is_finite() {
                        row[m] = s;
                    } else {
                        unusable = true;
                    }
                }
                for (m, jt) in frame.iter_mut().enumerate() {
                    let s = row[m];
                    let unscaled = jt.translation.map(|c| c / s);
                    if flags[m] && s != 0.0 && unscaled.iter().all(|c| c.is_finite()) {
                        jt.translation = unscaled;
                    }
                }
                rows.push(row);
            }
            frames.push(frame);
        }
        if unusable {
            warnings.push(format!(
                "animation \"{}\": a weight scale is not finite; 1 used",
                a.name
            ));
        }
        let weight_scales = WeightScales {
            frames: rows,
            scale_positions: flags,
        };
        Ok(SkeletalAnimation {
            name: a.name.clone(),
            fps,
            frames: frames.into(),
            bounds: Vec::new(),
            loops: false,
            weight_scales: (weighed && !weight_scales.is_unit()).then_some(weight_scales),
        })
    }

    /// For each model joint, whether its node hangs directly from its parent joint's node
    /// (or, for a root, from nothing or from nodes that never move in `a`): such a joint
    /// takes its node's TRS as it is, no matrix round trip, so key values come through bit
    /// for bit.
    fn direct_joints(&self, a: &Animation, scene: &Scene, data: &SkinData) -> Vec<bool> {
        (0..self.order.len())
            .map(|m| {
                let node = data.joints[self.order[m]];
                let mut p = scene.nodes[node].parent;
                let stop = self.parents[m].map(|pm| data.joints[self.order[pm]]);
                let mut guard = 0;
                while p != stop {
                    let Some(n) = p else { return false };
                    let still = a.channels.iter().all(|c| c.node != n)
                        && scene.nodes[n].matrix.unwrap_or_else(|| {
                            let (t, r, s) = scene.nodes[n].trs;
                            math::from_trs(t, r, s)
                        }) == math::IDENTITY;
                    if !still || guard > scene.nodes.len() {
                        return false;
                    }
                    p = scene.nodes[n].parent;
                    guard += 1;
                }
                scene.nodes[node].matrix.is_none()
            })
            .collect()
    }
}

/// The primary skin as [`Skeleton::apply`] maps it for the animations.
struct PrimarySkin<'s> {
    /// Its joint nodes and inverse bind matrices.
    data: &'s SkinData,
    /// The model joint of each of its slots.
    slot_to_model: &'s [u32],
    /// Each scale helper's node and the model joint it scales.
    helpers: &'s [(usize, usize)],
}

/// The frame times of `a` and its frame rate, charged to `budget`: its own keys where they
/// are evenly spaced from 0 and no rate is asked for, one frame for this crate's one-frame
/// animation, else sampled at the rate asked for (or [`SKELETAL_FPS`]), counted in
/// `sampled`.
fn frame_times(
    a: &Animation,
    options: &ImportOptions,
    budget: &mut Budget,
    sampled: &mut u64,
) -> Result<(Vec<f32>, f32)> {
    let first = &a.channels[0].times;
    let shared = a.channels.iter().all(|c| &c.times == first);
    let step = if first.len() >= 2 {
        first[1] - first[0]
    } else {
        0.0
    };
    let even = shared
        && step > 0.0
        && first
            .iter()
            .enumerate()
            .all(|(k, &t)| (t - first[0] - step * k as f32).abs() <= 1e-4 * (k + 1) as f32);
    Ok(if even && options.fps.is_none() && first[0] == 0.0 {
        let fps = 1.0 / step;
        let fps = if (fps - fps.round()).abs() < 1e-3 {
            fps.round()
        } else {
            fps
        };
        // The exporter gives a one-frame animation two equal keys (a sampler
        // wants an interval).
        let held = first.len() == 2 && a.frame_count == Some(1);
        budget
            .charge(first.len() as u64 * 4)
            .map_err(|limit| too_big(&a.name, first.len(), limit))?;
        (if held { vec![0.0] } else { first.clone() }, fps)
    } else if a.frame_count == Some(1) {
        // This crate's one-frame animation (two equal keys): one frame, whatever
        // the rate asked for.
        budget
            .charge(4)
            .map_err(|limit| too_big(&a.name, 1, limit))?;
        (vec![a.start()], options.fps.unwrap_or(SKELETAL_FPS))
    } else {
        let fps = options.fps.unwrap_or(SKELETAL_FPS);
        let (t0, d) = (a.start(), a.duration());
        let n = a.sampled_count(fps, &options.limits, sampled)?;
        budget
            .charge(n as u64 * 4)
            .map_err(|limit| too_big(&a.name, n, limit))?;
        ((0..n).map(|k| (t0 + k as f32 / fps).min(d)).collect(), fps)
    })
}

/// The allocation limit error of a skeletal animation's `count` frames.
fn too_big(name: &str, count: usize, limit: u64) -> crate::error::Error {
    fail(
        ErrorKind::LimitExceeded,
        format!(
            "skeletal animation \"{name}\": {count} frames would exceed the allocation limit \
             of {limit} bytes"
        ),
    )
}
