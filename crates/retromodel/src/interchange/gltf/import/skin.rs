//! glTF skins: joint matrices for posing, and the model's skeleton from the first skin.

use std::collections::HashMap;

use gltf::accessor::Dimensions;

use super::accessor::floats;
use super::animate::Animations;
use super::scene::Scene;
use super::{fail, Buffers, Spent};
use crate::error::{ErrorKind, Result};
use crate::interchange::ImportOptions;
use crate::limits::Budget;
use crate::math::{self, Mat4};
use crate::model::{Joint, JointTransform, Model, SkeletalAnimation};

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
        // Model order: parents first, by walking the scene order.
        let data = &skins[&primary];
        let slot_of: HashMap<usize, usize> = data
            .joints
            .iter()
            .enumerate()
            .map(|(k, &n)| (n, k))
            .collect();
        let mut order: Vec<usize> = scene
            .order
            .iter()
            .filter_map(|n| slot_of.get(n).copied())
            .collect();
        // Joints outside the scene's tree go last, in skin order.
        for k in 0..data.joints.len() {
            if !order.contains(&k) {
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
        let (budget, sampled) = (&mut spent.budget, &mut spent.sampled);
        let data = &self.skins[&self.primary];
        let mut slot_to_model = vec![0u32; data.joints.len()];
        for (m, &k) in self.order.iter().enumerate() {
            slot_to_model[k] = m as u32;
        }
        let mut scaled = false;
        model.joints = self
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
        for (k, inst) in scene.instances.iter().enumerate() {
            if inst.skin != Some(self.primary) {
                continue;
            }
            let mut dropped = 0usize;
            model.meshes[k].joint_weights = inst
                .influences
                .iter()
                .map(|list| {
                    let mut merged: Vec<(u32, f32)> = Vec::with_capacity(list.len());
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
                        return vec![(0, 1.0)];
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
        for a in &animations.0 {
            // Only animations that move nodes (joints or what is above them).
            if a.channels
                .iter()
                .all(|c| c.property == gltf::animation::Property::MorphTargetWeights)
            {
                continue;
            }
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
            let (times, fps): (Vec<f32>, f32) = if even && options.fps.is_none() && first[0] == 0.0
            {
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
            };
            // What the frames keep: per frame a list of one transform per joint.
            let frame_bytes = std::mem::size_of::<Vec<JointTransform>>()
                + self.order.len() * std::mem::size_of::<JointTransform>();
            budget
                .charge((frame_bytes as u64).saturating_mul(times.len() as u64))
                .map_err(|limit| too_big(&a.name, times.len(), limit))?;
            // A joint whose node hangs directly from its parent joint's node (or, for a
            // root, from nothing or from nodes that never move) takes its node's TRS as it
            // is: no matrix round trip, so key values come through bit for bit.
            let direct: Vec<bool> = (0..self.order.len())
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
                .collect();
            let mut frames = Vec::with_capacity(times.len());
            for &t in &times {
                let (locals, _, trs, _) = a.evaluate_trs(scene, t);
                let world = scene.world(&locals);
                let global: Vec<Mat4> = self.order.iter().map(|&k| world[data.joints[k]]).collect();
                let frame = (0..self.order.len())
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
                frames.push(frame);
            }
            model.animations.push(SkeletalAnimation {
                name: a.name.clone(),
                fps,
                frames,
                bounds: Vec::new(),
                loops: false,
                weight_scales: None,
            });
        }
        Ok(())
    }
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
