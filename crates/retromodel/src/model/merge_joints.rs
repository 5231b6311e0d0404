//! Fewer joints for a skeletal model: joints merged into their parents until at most N are
//! left, for targets that take few bones (GoldSrc's `MAXSTUDIOBONES`, 128) or when the user
//! asks for N (`--bones N`).
//!
//! **Method.** Each joint's importance is the weight of the vertices it carries (the sum of
//! its influences' weights over every mesh). While more than N joints are left, the least
//! important joint that has a parent (a leaf first on a tie, then the later joint) is merged
//! into its parent: its vertices' weights go to the parent (which then carries them, and
//! counts them), and its children hang from the parent. The animation of each surviving
//! joint is recomputed relative to its surviving parent (local transforms compose: a merged
//! joint's own motion is folded into its children's), so every surviving joint keeps its
//! object-space pose in every frame, and only the vertices of merged joints move
//! differently: they now follow the ancestor that took them.
//!
//! The cost is measured, not guessed: the model is posed before and after at every frame of
//! every animation (whole keys, [`super::bake::bake_skeletal`]) and each vertex compared with
//! itself; the largest distance and the RMS of each frame are returned for the writer to
//! report as it reports quantisation error. Roots never merge: more roots than N is an error.
//! Per-frame joint scales (MDL7's, the Quake II re-release's) follow their joints; a merged
//! joint's scales are dropped.

use super::bake::bake_skeletal;
use super::influences::influences;
use super::pose::{model_parents, to_global_in_place, JointPose};
use super::{Influences, Joint, Model};
use crate::error::{Error, ErrorKind, Location, Result};

/// A skeletal model with joints merged, and what the merge cost.
#[derive(Debug, Clone)]
pub struct MergedJoints {
    /// The model with at most the asked joints.
    pub model: Model,
    /// How many joints were merged into their parents.
    pub merged: usize,
    /// Per posed frame (every animation's frames in order; the bind pose alone without
    /// animations): the largest distance between a vertex as the merged joints place it and
    /// as the source's do.
    pub frame_max: Vec<f32>,
    /// Per posed frame: the root mean square of those distances.
    pub frame_rms: Vec<f32>,
    /// The posed frames' names (`animation_N`), one per `frame_max`.
    pub frame_names: Vec<String>,
    /// The largest height (Z extent) of the source over those frames, for errors in % of it.
    pub height: f32,
}

/// Which joints survive a merge down to `max_joints`: for each joint, the surviving joint it
/// merges into (itself when it survives). Errors when the roots alone are more.
fn survivors(model: &Model, max_joints: usize) -> Result<Vec<usize>> {
    let n = model.joints.len();
    let mut weight = vec![0f64; n];
    for mesh in &model.meshes {
        for inf in &mesh.joint_weights {
            for &(j, w) in inf.iter() {
                if let Some(slot) = weight.get_mut(j as usize) {
                    if w.is_finite() && w > 0.0 {
                        *slot += f64::from(w);
                    }
                }
            }
        }
    }
    let mut parent: Vec<Option<usize>> = model.joints.iter().map(|j| j.parent).collect();
    let mut children = vec![0usize; n];
    for p in parent.iter().flatten() {
        children[*p] += 1;
    }
    let mut alive = vec![true; n];
    let mut left = n;
    while left > max_joints {
        // The least important joint with a parent; a leaf first on a tie, then the later.
        let pick = (0..n)
            .filter(|&j| alive[j] && parent[j].is_some())
            .min_by(|&a, &b| {
                weight[a]
                    .total_cmp(&weight[b])
                    .then((children[a] > 0).cmp(&(children[b] > 0)))
                    .then(b.cmp(&a))
            });
        let Some(j) = pick else {
            return Err(Error::new(
                "merge-joints",
                ErrorKind::LimitExceeded,
                format!(
                    "{left} root joints, more than the {max_joints} asked: roots have no parent \
                     to merge into"
                ),
                Location::None,
            ));
        };
        let p = parent[j].expect("picked joints have a parent");
        weight[p] += weight[j];
        children[p] = children[p] + children[j] - 1;
        for k in 0..n {
            if alive[k] && parent[k] == Some(j) {
                parent[k] = Some(p);
            }
        }
        alive[j] = false;
        left -= 1;
    }
    // Each joint's nearest surviving ancestor (parents come first).
    let mut into: Vec<usize> = (0..n).collect();
    for j in 0..n {
        if !alive[j] {
            into[j] = into[model.joints[j].parent.expect("merged joints have a parent")];
        }
    }
    Ok(into)
}

/// `model` with its joints merged down to `max_joints` ([module docs](self)); the model as
/// it is (nothing merged, no errors) when it has that many or fewer.
pub fn merge_joints(model: &Model, max_joints: usize) -> Result<MergedJoints> {
    let n = model.joints.len();
    if n <= max_joints {
        return Ok(MergedJoints {
            model: model.clone(),
            merged: 0,
            frame_max: Vec::new(),
            frame_rms: Vec::new(),
            frame_names: Vec::new(),
            height: 0.0,
        });
    }
    let into = survivors(model, max_joints)?;
    let kept: Vec<usize> = (0..n).filter(|&j| into[j] == j).collect();
    let mut index = vec![0usize; n];
    for (i, &j) in kept.iter().enumerate() {
        index[j] = i;
    }
    // A surviving joint's new parent: the survivor its old parent merged into.
    let new_parent = |j: usize| model.joints[j].parent.map(|p| into[p]);
    let mut out = model.clone();
    out.joints = kept
        .iter()
        .map(|&j| Joint {
            parent: new_parent(j).map(|p| index[p]),
            ..model.joints[j].clone()
        })
        .collect();
    let parents = model_parents(model);
    for (a, anim) in out.animations.iter_mut().enumerate() {
        for frame in anim.frames.iter_mut() {
            let mut global: Vec<JointPose> = frame.iter().map(JointPose::from_transform).collect();
            to_global_in_place(&parents, &mut global);
            *frame = kept
                .iter()
                .map(|&j| {
                    let local = match new_parent(j) {
                        Some(p) => global[p].inverse().compose(&global[j]),
                        None => global[j],
                    };
                    local.to_transform()
                })
                .collect();
        }
        if let Some(ws) = &mut anim.weight_scales {
            for row in &mut ws.frames {
                *row = kept
                    .iter()
                    .map(|&j| row.get(j).copied().unwrap_or(1.0))
                    .collect();
            }
            ws.scale_positions = kept
                .iter()
                .map(|&j| ws.scale_positions.get(j).copied().unwrap_or(false))
                .collect();
        }
        if let Some(scales) = out.animation_scales.get_mut(a) {
            for row in scales.iter_mut() {
                *row = kept
                    .iter()
                    .map(|&j| row.get(j).copied().unwrap_or([1.0; 3]))
                    .collect();
            }
        }
    }
    for mesh in &mut out.meshes {
        for inf in &mut mesh.joint_weights {
            let moved: Vec<(u32, f32)> = inf
                .iter()
                .map(|&(j, w)| (index[into[(j as usize).min(n - 1)]] as u32, w))
                .collect();
            let (list, _, _) = influences(&moved, moved.len().max(1));
            *inf = Influences::from_slice(&list);
        }
    }
    let (frame_max, frame_rms, frame_names, height) = compare(model, &out)?;
    Ok(MergedJoints {
        model: out,
        merged: n - kept.len(),
        frame_max,
        frame_rms,
        frame_names,
        height,
    })
}

/// Every posed frame of `a` against `b` (the same vertices): largest distance, RMS, the
/// frames' names, and `a`'s largest height.
type Compared = (Vec<f32>, Vec<f32>, Vec<String>, f32);

fn compare(a: &Model, b: &Model) -> Result<Compared> {
    let before = bake_skeletal(a, None)?.model;
    let after = bake_skeletal(b, None)?.model;
    let mut max = Vec::with_capacity(before.frames.len());
    let mut rms = Vec::with_capacity(before.frames.len());
    let mut height = 0f32;
    for f in 0..before.frames.len() {
        let (mut sum, mut worst, mut count) = (0f64, 0f64, 0usize);
        let (mut lo, mut hi) = (f32::MAX, f32::MIN);
        for (ma, mb) in before.meshes.iter().zip(&after.meshes) {
            let (Some(ta), Some(tb)) = (ma.morph_targets.get(f), mb.morph_targets.get(f)) else {
                continue;
            };
            for (p, q) in ta.positions.iter().zip(&tb.positions) {
                let d: f64 = (0..3).map(|k| f64::from(p[k] - q[k]).powi(2)).sum();
                sum += d;
                worst = worst.max(d);
                count += 1;
                lo = lo.min(p[2]);
                hi = hi.max(p[2]);
            }
        }
        if hi >= lo {
            height = height.max(hi - lo);
        }
        max.push(worst.sqrt() as f32);
        rms.push((sum / count.max(1) as f64).sqrt() as f32);
    }
    let names = before.frames.iter().map(|f| f.name.clone()).collect();
    Ok((max, rms, names, height))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{JointTransform, Mesh, SkeletalAnimation};

    /// A chain of `n` joints one unit apart up Z, each turning a little about X in frame 1;
    /// one vertex on each joint, weight 1, the later joints carrying less (two vertices on
    /// the first half).
    fn chain(n: usize) -> Model {
        let id = [0.0, 0.0, 0.0, 1.0];
        let joints: Vec<Joint> = (0..n)
            .map(|i| Joint {
                name: format!("j{i}"),
                parent: i.checked_sub(1),
                translation: [0.0, 0.0, i as f32],
                rotation: id,
            })
            .collect();
        let mut mesh = Mesh::default();
        for i in 0..n {
            let copies = if i < n / 2 { 2 } else { 1 };
            for _ in 0..copies {
                mesh.positions.push([0.5, 0.0, i as f32]);
                mesh.joint_weights
                    .push(Influences::from_slice(&[(i as u32, 1.0)]));
            }
        }
        mesh.normals = vec![[0.0, 0.0, 1.0]; mesh.positions.len()];
        mesh.uvs = vec![[0.0, 0.0]; mesh.positions.len()];
        mesh.source_vertices = (0..mesh.positions.len() as u32).collect();
        let local = |turn: f32| -> Vec<JointTransform> {
            let (s, c) = crate::math::det::sin_cos(turn / 2.0);
            (0..n)
                .map(|i| JointTransform {
                    translation: if i == 0 { [0.0; 3] } else { [0.0, 0.0, 1.0] },
                    rotation: [s, 0.0, 0.0, c],
                })
                .collect()
        };
        Model {
            meshes: vec![mesh],
            joints,
            animations: vec![SkeletalAnimation {
                name: "bend".into(),
                fps: 10.0,
                frames: vec![local(0.0), local(0.02)].into(),
                bounds: Vec::new(),
                loops: false,
                weight_scales: None,
            }],
            ..Model::default()
        }
    }

    #[test]
    fn merges_the_lightest_and_keeps_the_survivors_poses() {
        let model = chain(10);
        let m = merge_joints(&model, 6).unwrap();
        assert_eq!(m.model.joints.len(), 6);
        assert_eq!(m.merged, 4);
        m.model.validate().unwrap();
        // The light half goes first: the first five joints (two vertices each) survive.
        let names: Vec<&str> = m.model.joints.iter().map(|j| j.name.as_str()).collect();
        assert_eq!(&names[..5], ["j0", "j1", "j2", "j3", "j4"]);
        // The bind pose is exact, the bent frame is not (merged vertices lose their turn).
        assert_eq!(m.frame_max.len(), 2);
        assert!(m.frame_max[0] < 1e-4, "{:?}", m.frame_max);
        assert!(m.frame_max[1] > 1e-4 && m.frame_max[1].is_finite());
        // Every survivor keeps its object-space pose.
        let before = bake_skeletal(&model, None).unwrap().model;
        let after = bake_skeletal(&m.model, None).unwrap().model;
        let p = |m: &Model, v: usize| m.meshes[0].morph_targets[1].positions[v];
        for v in 0..10 {
            let (a, b) = (p(&before, v), p(&after, v));
            assert!(
                (0..3).all(|k| (a[k] - b[k]).abs() < 1e-4),
                "{v}: {a:?} {b:?}"
            );
        }
    }

    #[test]
    fn roots_do_not_merge() {
        let mut model = chain(3);
        for j in &mut model.joints {
            j.parent = None;
        }
        model.animations.clear();
        let e = merge_joints(&model, 2).unwrap_err().to_string();
        assert!(e.contains("3 root joints"), "{e}");
    }
}
