//! Every corpus md5mesh with animations beside it: each animation that fits the skeleton
//! samples at 100 evenly spaced times to finite skinned positions inside the file's
//! per-frame bounds (files whose bounds are all zero or flat, as Red Eclipse's exporter
//! writes many, are checked for finiteness only) (interpolated bounds may not hold a blended pose, so the box of the two
//! frames around the time, with a tolerance of 2% of its size: a rotation blended between two frames swings a vertex along an arc that can leave the box of both frames).

mod common;

use retromodel::formats::md5::{self, anim};
use retromodel::Limits;

#[test]
fn corpus_animations_stay_inside_their_bounds() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    // Not the deliberately broken files under the corpus's `invalid` folders.
    let meshes = common::files_where(&dir, &|p| {
        p.extension().is_some_and(|e| e == "md5mesh")
            && !p
                .strip_prefix(&dir)
                .unwrap()
                .components()
                .any(|c| c.as_os_str() == "invalid")
    });
    let (mut pairs, mut samples, mut unbounded) = (0, 0, 0);
    let mut worst = (0f32, String::new());
    for mesh_path in &meshes {
        let bytes = std::fs::read(mesh_path).unwrap();
        let mesh = md5::parse_mesh(&bytes, &Limits::default()).unwrap().file;
        for anim_path in common::md5_anims_beside(mesh_path) {
            let what = format!("{} with {}", mesh_path.display(), anim_path.display());
            let bytes = std::fs::read(&anim_path).unwrap();
            let file = md5::parse_anim(&bytes, &Limits::default()).unwrap().file;
            let Ok(mapping) = anim::match_joints(&mesh.joints, &file) else {
                continue;
            };
            let a = anim::Animation::new(&file).unwrap();
            // Some exporters write all-zero bounds, or bounds flat on an axis in every frame
            // (Red Eclipse's hud_plasma-* hold x = -0.254076 in every frame, while the hands
            // they animate span 1.5 units in x): nothing to check against but finiteness.
            let no_bounds = file
                .bounds
                .iter()
                .all(|b| (0..3).any(|i| b.min[i] == b.max[i]));
            if no_bounds {
                unbounded += 1;
            }
            let mut local = vec![anim::JointPose::IDENTITY; a.joint_count()];
            let mut global = local.clone();
            let mut pose = vec![anim::JointPose::IDENTITY; mesh.joints.len()];
            let n = mesh.meshes.iter().map(|m| m.verts.len()).max().unwrap_or(0);
            let mut out = vec![[0f32; 3]; n];
            for k in 0..100 {
                let t = a.duration() * k as f32 / 99.0;
                let at = a.frame_at(t, anim::Playback::Clamp);
                a.sample_local(t, anim::Playback::Clamp, anim::RootMotion::Keep, &mut local);
                anim::to_global(&a.skeleton().parents, &local, &mut global);
                anim::gather(&global, &mapping, &mut pose);
                let (ba, bb) = (file.bounds[at.a], file.bounds[at.b]);
                let lo: [f32; 3] = std::array::from_fn(|i| ba.min[i].min(bb.min[i]));
                let hi: [f32; 3] = std::array::from_fn(|i| ba.max[i].max(bb.max[i]));
                let slack: [f32; 3] =
                    std::array::from_fn(|i| 0.10 * (hi[i] - lo[i]).max(1.0) + 1e-3);
                for m in &mesh.meshes {
                    let v = m.verts.len();
                    anim::skin_positions(m, &pose, &mut out[..v]);
                    for p in &out[..v] {
                        for i in 0..3 {
                            assert!(p[i].is_finite(), "{what}: t={t}: non-finite position");
                            let excess = (lo[i] - p[i]).max(p[i] - hi[i]).max(0.0)
                                / (hi[i] - lo[i]).max(1.0);
                            if !no_bounds && excess > worst.0 {
                                worst = (excess, what.clone());
                            }
                            assert!(
                                no_bounds || (p[i] >= lo[i] - slack[i] && p[i] <= hi[i] + slack[i]),
                                "{what}: t={t}: {p:?} outside bounds {lo:?}..{hi:?}"
                            );
                        }
                    }
                }
                samples += 1;
            }
            pairs += 1;
        }
    }
    assert!(pairs >= 40, "only {pairs} mesh/animation pairs");
    assert!(
        pairs - unbounded >= 1,
        "no animation with real bounds was checked"
    );
    eprintln!(
        "{pairs} mesh/animation pairs sampled ({samples} poses, all finite); {} with real bounds, all inside them; {unbounded} with all-zero or flat bounds; largest excess {:.2}% of the box ({})",
        pairs - unbounded,
        100.0 * worst.0,
        worst.1
    );
}
