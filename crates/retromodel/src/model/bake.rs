//! Skeletal animation baked into keyframe poses: what MDL, MD2 and 3D GameStudio files need
//! from an MD5 model (or any model with joints and [`SkeletalAnimation`]s).
//!
//! Each animation becomes a clip at its own rate (or resampled at a given one, joint
//! transforms interpolated: translations linearly, rotations by slerp, over the span of its
//! keys, `(frames - 1) / fps` seconds, as Doom 3 and glTF measure an animation); each frame skins
//! every vertex by its joint weights (linear blend: `Σ w · G_j · B_j⁻¹ · p`, with `G` the
//! frame's object-space joint poses and `B` the bind poses of [`Model::joints`]; an animation's
//! [`crate::model::WeightScales`] scale each joint's share about the joint, as the Quake II
//! re-release does, `Σ w · G_j · s_j · B_j⁻¹ · p`). Frames
//! are named `<animation><n>` from 1, so that clips come back from the frame names.

use super::pose::{self as skeletal, JointPose};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};
use crate::model::{Clip, Converted, Frame, JointTransform, Model, MorphTarget, SkeletalAnimation};

fn pose(t: &JointTransform) -> JointPose {
    let p = JointPose::from_transform(t);
    JointPose::new(p.pos, p.orient.normalize())
}

/// A frame position within float noise of a whole frame, as that frame (`k / rate × fps`
/// lands a hair below `k` for most rates): [`crate::model::pose::frame_at`]'s rule, so that a
/// sampled frame takes its own weight scales, not the next frame's.
fn snap(x: f32) -> f32 {
    let nearest = x.round();
    if (x - nearest).abs() <= 1e-4 * nearest.abs().max(1.0) {
        nearest
    } else {
        x
    }
}

/// The local joint transforms of `a` at time `t` (clamped to its frames), positions scaled
/// where its weight scales say so; returns the frame whose weight scales apply (the later of
/// the two blended, as q2pro takes them).
fn local_at(a: &SkeletalAnimation, t: f32, out: &mut Vec<JointPose>) -> usize {
    out.clear();
    let n = a.frames.len();
    let x = snap((t * a.fps).max(0.0));
    let k = (x.floor() as usize).min(n - 1);
    let u = if k + 1 < n { x - k as f32 } else { 0.0 };
    let k1 = (k + 1).min(n - 1);
    let (f0, f1) = (&a.frames[k], &a.frames[k1]);
    let scaled = |f: usize, j: usize, p: JointPose| match &a.weight_scales {
        Some(ws) if ws.scale_positions.get(j).copied().unwrap_or(false) => {
            let s = ws.get(f, j);
            JointPose::new(p.pos.map(|c| c * s), p.orient)
        }
        _ => p,
    };
    for (j, (p, q)) in f0.iter().zip(f1).enumerate() {
        let a = scaled(k, j, pose(p));
        out.push(if u > 0.0 {
            a.lerp(&scaled(k1, j, pose(q)), u)
        } else {
            a
        });
    }
    if u > 0.0 {
        k1
    } else {
        k
    }
}

/// Every vertex skinned for one set of object-space joint poses, the weights on joint `j`
/// scaled by `scales[j]` about the joint when given (q2pro's `pos + s · rotate(orient,
/// weight)`; normals are turned, never scaled, as q2pro turns them).
fn skin(
    model: &Model,
    global: &[JointPose],
    inverse_bind: &[JointPose],
    scales: Option<&[f32]>,
) -> Vec<MorphTarget> {
    let scales = scales.filter(|s| s.iter().any(|v| *v != 1.0));
    let skinning: Vec<JointPose> = global
        .iter()
        .zip(inverse_bind)
        .map(|(g, ib)| g.compose(ib))
        .collect();
    // With scales, each influence is `G_j(s_j · B_j⁻¹(p))`, its normal `G_j(B_j⁻¹(n))`.
    let scaled_vertex = |scales: &[f32], ws: &[(u32, f32)], p: [f32; 3], n: [f32; 3]| {
        let (mut sp, mut sn) = ([0.0f32; 3], [0.0f32; 3]);
        for &(j, w) in ws {
            let j = j as usize;
            let (Some(g), Some(ib)) = (global.get(j), inverse_bind.get(j)) else {
                continue;
            };
            let s = scales.get(j).copied().unwrap_or(1.0);
            let q = g.transform_point(ib.transform_point(p).map(|c| c * s));
            let r = g.transform_vector(ib.transform_vector(n));
            for a in 0..3 {
                sp[a] += w * q[a];
                sn[a] += w * r[a];
            }
        }
        (sp, crate::math::normalize3(sn, n))
    };
    model
        .meshes
        .iter()
        .map(|m| {
            if m.joint_weights.len() != m.positions.len() {
                return MorphTarget {
                    positions: m.positions.clone(),
                    normals: m.normals.clone(),
                };
            }
            let mut positions = Vec::with_capacity(m.positions.len());
            let mut normals = Vec::with_capacity(m.positions.len());
            for ((p, n), ws) in m.positions.iter().zip(&m.normals).zip(&m.joint_weights) {
                let (sp, sn) = match scales {
                    Some(scales) => scaled_vertex(scales, ws, *p, *n),
                    None => skeletal::blend_vertex(&skinning, ws, *p, *n),
                };
                positions.push(sp);
                normals.push(sn);
            }
            MorphTarget { positions, normals }
        })
        .collect()
}

/// `a` resampled at `fps` over its span (`(frames - 1) / fps` seconds): frame `k` is the pose
/// at `k / fps`, translations lerped and rotations slerped between the two frames around it,
/// its weight scales those of the later one (as [`bake_skeletal`] samples it), positions that
/// `scale_positions` scales interpolated scaled and written so (the flag cleared), bounds
/// dropped.
/// An animation already at `fps` (or with no frames) is returned as it is.
pub fn resample_animation(a: &SkeletalAnimation, fps: f32) -> SkeletalAnimation {
    if a.frames.is_empty() || a.fps == fps || !(fps.is_finite() && fps > 0.0) {
        return a.clone();
    }
    let n = a.frames.len();
    let duration = (n - 1) as f32 / a.fps;
    let count = (duration * fps + 1e-3).floor() as usize + 1;
    let mut frames = Vec::with_capacity(count);
    let mut rows = Vec::with_capacity(count);
    // Positions that scale_positions scales are interpolated scaled (as q2pro interpolates
    // its built skeletons), so the result carries them scaled and the flag cleared.
    let scaled = |f: usize, j: usize, p: JointPose| match &a.weight_scales {
        Some(ws) if ws.scale_positions.get(j).copied().unwrap_or(false) => {
            JointPose::new(p.pos.map(|c| c * ws.get(f, j)), p.orient)
        }
        _ => p,
    };
    for k in 0..count {
        let x = snap(((k as f32 / fps).min(duration) * a.fps).max(0.0));
        let k0 = (x.floor() as usize).min(n - 1);
        let u = if k0 + 1 < n { x - k0 as f32 } else { 0.0 };
        let k1 = (k0 + 1).min(n - 1);
        frames.push(
            a.frames[k0]
                .iter()
                .zip(&a.frames[k1])
                .enumerate()
                .map(|(j, (p, q))| {
                    let p = scaled(k0, j, pose(p));
                    let l = if u > 0.0 {
                        p.lerp(&scaled(k1, j, pose(q)), u)
                    } else {
                        p
                    };
                    JointTransform {
                        translation: l.pos,
                        rotation: l.orient.to_array(),
                    }
                })
                .collect(),
        );
        if let Some(ws) = &a.weight_scales {
            let f = if u > 0.0 { k1 } else { k0 };
            rows.push(
                ws.frames
                    .get(f)
                    .cloned()
                    .unwrap_or_else(|| vec![1.0; ws.scale_positions.len()]),
            );
        }
    }
    SkeletalAnimation {
        name: a.name.clone(),
        fps,
        frames: frames.into(),
        bounds: Vec::new(),
        loops: a.loops,
        weight_scales: a
            .weight_scales
            .as_ref()
            .map(|ws| crate::model::WeightScales {
                frames: rows,
                scale_positions: vec![false; ws.scale_positions.len()],
            }),
    }
}

/// `model` with its skeletal animations baked into frames and clips (its frames replaced);
/// joints and animations are kept. `fps` resamples every animation at that rate. A model
/// without animations gets one frame, the bind pose. Bounded by the default [`Limits`]
/// ([`bake_skeletal_with`]).
pub fn bake_skeletal(model: &Model, fps: Option<f32>) -> Result<Converted> {
    bake_skeletal_with(model, fps, &Limits::default())
}

/// [`bake_skeletal`] within `limits`: the frames of each animation are charged to
/// [`Limits::max_alloc_bytes`] before they are made, and frames resampled at `fps` count
/// against [`Limits::max_sampled_frames`] (an animation's own frames do not).
pub fn bake_skeletal_with(model: &Model, fps: Option<f32>, limits: &Limits) -> Result<Converted> {
    let fail = |m: String| Error::new("bake", ErrorKind::InvalidModel, m, Location::None);
    let limit = |m: String| Error::new("bake", ErrorKind::LimitExceeded, m, Location::None);
    model.validate().map_err(|e| fail(e.message))?;
    if let Some(f) = fps.filter(|f| !(f.is_finite() && *f > 0.0)) {
        return Err(fail(format!("frame rate {f} is not a positive number")));
    }
    let mut out = model.clone();
    out.frames.clear();
    out.clips.clear();
    for m in &mut out.meshes {
        m.morph_targets.clear();
    }
    let mut warnings = Vec::new();
    let nj = model.joints.len();
    let inverse_bind: Vec<JointPose> = model
        .joints
        .iter()
        .map(|j| pose(&j.bind_transform()).inverse())
        .collect();
    let add = |out: &mut Model, name: String, targets: Vec<MorphTarget>| {
        let mut it = targets.iter().flat_map(|t| &t.positions);
        let (lo, hi) = match it.next() {
            Some(&f) => it.fold((f, f), |(lo, hi), p| {
                (
                    std::array::from_fn(|a| lo[a].min(p[a])),
                    std::array::from_fn(|a| hi[a].max(p[a])),
                )
            }),
            None => ([0.0; 3], [0.0; 3]),
        };
        out.frames.push(Frame {
            name,
            bounds_min: lo,
            bounds_max: hi,
            position_step: None,
        });
        for (m, t) in out.meshes.iter_mut().zip(targets) {
            m.morph_targets.push(t);
        }
    };
    let usable: Vec<&SkeletalAnimation> = model
        .animations
        .iter()
        .filter(|a| {
            let ok = !a.frames.is_empty()
                && a.frames.iter().all(|f| f.len() == nj)
                && a.fps.is_finite()
                && a.fps > 0.0;
            if !ok {
                warnings.push(format!(
                    "animation \"{}\": no frames, a bad rate or a joint count other than {nj}; left out",
                    a.name
                ));
            }
            ok
        })
        .collect();
    if usable.is_empty() {
        let bind: Vec<JointPose> = inverse_bind.iter().map(JointPose::inverse).collect();
        add(
            &mut out,
            "frame1".into(),
            skin(model, &bind, &inverse_bind, None),
        );
        return Ok(Converted {
            model: out,
            warnings,
        });
    }
    // What a frame keeps: its name and bounds, and per mesh a morph target with a position
    // and a normal per vertex.
    let frame_bytes = |name_len: usize| {
        (std::mem::size_of::<Frame>() + name_len) as u64
            + model
                .meshes
                .iter()
                .map(|m| std::mem::size_of::<MorphTarget>() as u64 + m.positions.len() as u64 * 24)
                .sum::<u64>()
    };
    let mut budget = Budget::new(limits);
    let mut sampled = 0u64;
    let parents = skeletal::model_parents(model);
    let mut local = Vec::with_capacity(nj);
    let mut global = vec![JointPose::IDENTITY; nj];
    for a in usable {
        let rate = fps.unwrap_or(a.fps);
        let duration = (a.frames.len() - 1) as f32 / a.fps;
        let count = match fps {
            None => a.frames.len(),
            Some(r) => {
                let steps = (duration * r + 1e-3).floor();
                let max = u64::from(limits.max_sampled_frames);
                if f64::from(steps) + 1.0 > max.saturating_sub(sampled) as f64 {
                    let count = f64::from(steps) + 1.0;
                    let before = if sampled > 0 {
                        format!(
                            " ({} with the {sampled} resampled before it)",
                            count + sampled as f64
                        )
                    } else {
                        String::new()
                    };
                    return Err(limit(format!(
                        "animation \"{}\": {duration} s resampled at {r} fps is {count:.0} \
                         frames{before}, more than the limit of {max} sampled frames \
                         (Limits::max_sampled_frames); a lower frame rate (--fps) samples fewer",
                        a.name
                    )));
                }
                steps as usize + 1
            }
        };
        sampled += count as u64;
        let bytes = frame_bytes(a.name.len() + 20).saturating_mul(count as u64);
        budget.charge(bytes).map_err(|max| {
            limit(format!(
                "animation \"{}\": {count} frames ({bytes} bytes) would exceed the allocation \
                 limit of {max} bytes",
                a.name
            ))
        })?;
        out.frames.reserve_exact(count);
        for m in &mut out.meshes {
            m.morph_targets.reserve_exact(count);
        }
        let first = out.frames.len();
        for k in 0..count {
            let f = local_at(a, (k as f32 / rate).min(duration), &mut local);
            skeletal::to_global(&parents, &local, &mut global);
            let scales = a.weight_scales.as_ref().and_then(|ws| ws.frames.get(f));
            add(
                &mut out,
                format!("{}{}", a.name, k + 1),
                skin(model, &global, &inverse_bind, scales.map(Vec::as_slice)),
            );
        }
        out.clips.push(Clip {
            name: a.name.clone(),
            first,
            count,
            fps: rate,
            frame_times: None,
        });
    }
    Ok(Converted {
        model: out,
        warnings,
    })
}
