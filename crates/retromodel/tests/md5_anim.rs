//! MD5 animation maths on hand-built files: the quaternion `w` convention, md5anim decoding
//! (flags, startIndex), sampling (loop, clamp, root motion), the compressing builder, joint
//! matching by name and skinning.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]

use retromodel::formats::md5::anim::{
    bind_normals, bind_pose, bind_positions, check_mesh, compress, frame_bounds, gather,
    inverse_bind_matrix, match_joints, skin_normals, skin_positions, to_global, to_local,
    vertex_influences, vertex_tangents, Animation, JointPose, Playback, RootMotion, WeightNormals,
    QX, QY, QZ, TX, TY, TZ,
};
use retromodel::formats::md5::quat::{w_from_xyz, Quat};
use retromodel::formats::md5::{
    AnimFile, BaseJoint, Bounds, HierarchyJoint, Joint, Mesh, Vert, Weight,
};
use std::f32::consts::{FRAC_1_SQRT_2, PI};

fn close3(a: [f32; 3], b: [f32; 3], eps: f32) -> bool {
    a.iter().zip(b).all(|(p, q)| (p - q).abs() <= eps)
}

#[track_caller]
fn assert_close3(a: [f32; 3], b: [f32; 3], eps: f32) {
    assert!(close3(a, b, eps), "{a:?} != {b:?} (eps {eps})");
}

/// Same rotation: components equal up to the sign of the whole quaternion.
#[track_caller]
fn assert_same_rotation(a: Quat, b: Quat, eps: f32) {
    let (a, b) = (a.to_array(), b.to_array());
    let plus = a.iter().zip(b).all(|(p, q)| (p - q).abs() <= eps);
    let minus = a.iter().zip(b).all(|(p, q)| (p + q).abs() <= eps);
    assert!(plus || minus, "{a:?} and {b:?} are not the same rotation");
}

#[track_caller]
fn assert_pose_close(a: &JointPose, b: &JointPose, eps: f32) {
    assert_close3(a.pos, b.pos, eps);
    assert_same_rotation(a.orient, b.orient, eps);
}

fn joint(name: &str, parent: i32, pos: [f32; 3], orient: Quat) -> Joint {
    Joint {
        name: name.to_string(),
        parent,
        pos,
        orient: orient.to_md5_xyz(),
    }
}

/// The seed's quaternion product, written out as in `specs/doom3-md5.txt` (`[w, x, y, z]`).
fn seed_mult(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    let [aw, ax, ay, az] = a;
    let [bw, bx, by, bz] = b;
    [
        aw * bw - ax * bx - ay * by - az * bz,
        ax * bw + aw * bx + ay * bz - az * by,
        ay * bw + aw * by + az * bx - ax * bz,
        az * bw + aw * bz + ax * by - ay * bx,
    ]
}

/// The seed's `R = Q.P.Q*`.
fn seed_rotate(q: [f32; 4], p: [f32; 3]) -> [f32; 3] {
    let conj = [q[0], -q[1], -q[2], -q[3]];
    let r = seed_mult(seed_mult(q, [0.0, p[0], p[1], p[2]]), conj);
    [r[1], r[2], r[3]]
}

fn one_weight_mesh(weights: Vec<Weight>, verts: Vec<(usize, usize)>) -> Mesh {
    Mesh {
        shader: "test".to_string(),
        verts: verts
            .into_iter()
            .map(|(start, count)| Vert {
                uv: [0.0, 0.0],
                start_weight: start as u32,
                count_weight: count as u32,
            })
            .collect(),
        tris: Vec::new(),
        weights,
    }
}

// 1. ------------------------------------------------------------------------------------------

#[test]
fn w_convention_turns_x_into_y() {
    // In column-vector maths (glam, glTF) +90 degrees about +Z is q = (x, y, z, w) =
    // (0, 0, sin 45°, cos 45°): it turns +X into +Y. The file can only express w <= 0
    // (w = -sqrt(max(0, 1 - x² - y² - z²))), so it stores the equivalent -q =
    // (0, 0, -0.7071068, -0.7071068): the stored z is -0.7071068. (Doom 3 reads the same
    // numbers with w = +0.7071068 and row vectors, which is the same turn.)
    let j = Joint {
        name: "origin".to_string(),
        parent: -1,
        pos: [2.0, 3.0, 4.0],
        orient: [0.0, 0.0, -FRAC_1_SQRT_2], // -0.7071068
    };
    let q = w_from_xyz(j.orient);
    assert!((q.w + FRAC_1_SQRT_2).abs() < 1e-6, "w = {}", q.w);

    let mesh = one_weight_mesh(
        vec![
            Weight {
                joint: 0,
                bias: 1.0,
                pos: [1.0, 0.0, 0.0],
            },
            Weight {
                joint: 0,
                bias: 0.25,
                pos: [0.0, 0.0, 1.0],
            },
            Weight {
                joint: 0,
                bias: 0.75,
                pos: [0.0, 2.0, 0.0],
            },
        ],
        vec![(0, 1), (1, 2)],
    );
    check_mesh(&mesh, 1).unwrap();
    let mut out = [[0.0; 3]; 2];
    bind_positions(&mesh, std::slice::from_ref(&j), &mut out);

    // The seed: finalPos = Σ (joint.pos + Q.P.Q*) × bias, with the seed's product.
    let seed_q = [q.w, q.x, q.y, q.z];
    let seed0 = {
        let r = seed_rotate(seed_q, [1.0, 0.0, 0.0]);
        [0, 1, 2].map(|k| j.pos[k] + r[k])
    };
    assert_close3(out[0], seed0, 1e-6);
    // +X went to +Y.
    assert_close3(out[0], [2.0, 4.0, 4.0], 1e-6);

    let r1 = seed_rotate(seed_q, [0.0, 0.0, 1.0]);
    let r2 = seed_rotate(seed_q, [0.0, 2.0, 0.0]);
    let seed1 = [0, 1, 2].map(|k| (j.pos[k] + r1[k]) * 0.25 + (j.pos[k] + r2[k]) * 0.75);
    assert_close3(out[1], seed1, 1e-6);
    // (0, 2, 0) turned to (-2, 0, 0); (0, 0, 1) stays.
    assert_close3(out[1], [2.0 - 1.5, 3.0, 4.0 + 0.25], 1e-6);

    // The library's own product and rotation agree with the seed's.
    let lib = q.rotate([0.3, -0.2, 0.9]);
    assert_close3(lib, seed_rotate(seed_q, [0.3, -0.2, 0.9]), 1e-6);
    let b = Quat::from_axis_angle([1.0, 2.0, 3.0], 0.8);
    let p = q * b;
    let s = seed_mult(seed_q, [b.w, b.x, b.y, b.z]);
    assert_same_rotation(p, Quat::new(s[1], s[2], s[3], s[0]), 1e-6);
    // And the right-hand rule agrees with the stored sign.
    assert_same_rotation(q, Quat::from_axis_angle([0.0, 0.0, 1.0], PI / 2.0), 1e-6);
}

// 2. ------------------------------------------------------------------------------------------

fn hand_built_anim() -> AnimFile {
    AnimFile {
        version: Some(10),
        commandline: String::new(),
        frame_rate: 24.0,
        num_animated_components: 4,
        hierarchy: vec![
            HierarchyJoint {
                name: "root".to_string(),
                parent: -1,
                flags: TX | TZ,
                start_index: 0,
            },
            HierarchyJoint {
                name: "arm".to_string(),
                parent: 0,
                flags: QX | QZ,
                start_index: 2,
            },
            HierarchyJoint {
                name: "hand".to_string(),
                parent: 1,
                flags: 0,
                start_index: 4,
            },
        ],
        bounds: vec![
            Bounds {
                min: [0.0; 3],
                max: [1.0; 3],
            };
            2
        ],
        baseframe: vec![
            BaseJoint {
                pos: [10.0, 20.0, 30.0],
                orient: [0.0, 0.0, -FRAC_1_SQRT_2],
            },
            BaseJoint {
                pos: [1.0, 0.0, 0.0],
                orient: [0.5, 0.1, 0.2],
            },
            BaseJoint {
                pos: [0.0, 2.0, 0.0],
                orient: [0.0, 0.0, 0.0],
            },
        ],
        frames: vec![vec![1.0, 3.0, 0.0, 0.0], vec![2.0, 4.0, -0.6, 0.3]],
    }
}

#[test]
fn decoding_uses_flags_start_index_and_baseframe() {
    let file = hand_built_anim();
    let anim = Animation::new(&file).unwrap();
    assert_eq!(anim.frame_count(), 2);
    assert_eq!(anim.joint_count(), 3);
    assert_eq!(anim.skeleton().parents, vec![-1, 0, 1]);

    // Frame 0: root Tx, Tz from the frame, Ty and the orientation from the baseframe;
    // arm Qx, Qz from the frame, Qy and the position from the baseframe; hand all baseframe.
    let f0 = anim.frame(0);
    assert_eq!(f0[0].pos, [1.0, 20.0, 3.0]);
    assert_eq!(f0[0].orient, w_from_xyz([0.0, 0.0, -FRAC_1_SQRT_2]));
    assert_eq!(f0[1].pos, [1.0, 0.0, 0.0]);
    assert_eq!(f0[1].orient, w_from_xyz([0.0, 0.1, 0.0]));
    assert_eq!(f0[2].pos, [0.0, 2.0, 0.0]);
    assert_eq!(f0[2].orient, Quat::new(0.0, 0.0, 0.0, -1.0));

    let f1 = anim.frame(1);
    assert_eq!(f1[0].pos, [2.0, 20.0, 4.0]);
    assert_eq!(f1[1].orient, w_from_xyz([-0.6, 0.1, 0.3]));
    let w = -(1.0f64 - 0.36 - 0.01 - 0.09).sqrt() as f32;
    assert!((f1[1].orient.w - w).abs() < 1e-7);
    assert_eq!(f1[2], f0[2]);

    // Global composition by value. Root: at (1, 20, 3) turned +90° about Z. The arm is
    // 1 along the root's X, which now points along +Y: (1, 21, 3). The arm turns about Y
    // (leaving its Y axis alone), so the hand's (0, 2, 0) becomes the root's (0, 2, 0),
    // i.e. (-2, 0, 0) in object space: (-1, 21, 3).
    let mut global = [JointPose::IDENTITY; 3];
    anim.frame_global(0, &mut global);
    assert_close3(global[0].pos, [1.0, 20.0, 3.0], 1e-6);
    assert_close3(global[1].pos, [1.0, 21.0, 3.0], 1e-6);
    assert_close3(global[2].pos, [-1.0, 21.0, 3.0], 1e-6);
    let expected_arm = (f0[0].orient * f0[1].orient).normalize();
    assert_same_rotation(global[1].orient, expected_arm, 1e-6);
    assert_same_rotation(global[2].orient, expected_arm, 1e-6);
    // The arm's +Z (turned about Y by -2 asin 0.1) in object space.
    let a = -2.0 * 0.1f32.asin();
    let arm_z = [a.sin(), 0.0, a.cos()];
    let arm_z_object = [-arm_z[1], arm_z[0], arm_z[2]];
    assert_close3(global[1].orient.rotate([0.0, 0.0, 1.0]), arm_z_object, 1e-6);

    // to_global and to_local are inverses (to f32 rounding of positions around 21).
    let mut local = [JointPose::IDENTITY; 3];
    to_local(&anim.skeleton().parents, &global, &mut local);
    for (l, f) in local.iter().zip(f0) {
        assert_pose_close(l, f, 1e-5);
    }
}

#[test]
fn decoding_rejects_broken_files() {
    let mut file = hand_built_anim();
    file.hierarchy[1].flags |= 64;
    let e = Animation::new(&file).unwrap_err();
    assert!(e.contains("\"arm\"") && e.contains("flags"), "{e}");

    let mut file = hand_built_anim();
    file.hierarchy[1].start_index = 3;
    let e = Animation::new(&file).unwrap_err();
    assert!(
        e.contains("\"arm\"") && e.contains("numAnimatedComponents"),
        "{e}"
    );

    let mut file = hand_built_anim();
    file.frames[1].pop();
    let e = Animation::new(&file).unwrap_err();
    assert!(e.contains("frame 1"), "{e}");

    let mut file = hand_built_anim();
    file.hierarchy[1].parent = 2;
    let e = Animation::new(&file).unwrap_err();
    assert!(e.contains("\"arm\"") && e.contains("parent"), "{e}");

    let mut file = hand_built_anim();
    file.frames.clear();
    assert!(Animation::new(&file).is_err());

    let mut file = hand_built_anim();
    file.baseframe.pop();
    assert!(Animation::new(&file).is_err());

    let mut file = hand_built_anim();
    file.frame_rate = 0.0;
    assert!(Animation::new(&file).is_err());
}

// 3. ------------------------------------------------------------------------------------------

/// Five frames at 10 fps: the root moves 1 along X per frame and turns about Z by
/// 0, 20, 40, 20, 0 degrees (so the last frame's rotation equals the first); a child sits
/// 1 along the root's X.
fn sampling_anim() -> AnimFile {
    let angles = [0.0f32, 20.0, 40.0, 20.0, 0.0];
    AnimFile {
        version: Some(10),
        commandline: String::new(),
        frame_rate: 10.0,
        num_animated_components: 2,
        hierarchy: vec![
            HierarchyJoint {
                name: "root".to_string(),
                parent: -1,
                flags: TX | QZ,
                start_index: 0,
            },
            HierarchyJoint {
                name: "child".to_string(),
                parent: 0,
                flags: 0,
                start_index: 2,
            },
        ],
        bounds: Vec::new(),
        baseframe: vec![
            BaseJoint {
                pos: [0.0, 0.0, 5.0],
                orient: [0.0; 3],
            },
            BaseJoint {
                pos: [1.0, 0.0, 0.0],
                orient: [0.0; 3],
            },
        ],
        frames: angles
            .iter()
            .enumerate()
            .map(|(f, a)| {
                let q = Quat::from_axis_angle([0.0, 0.0, 1.0], a.to_radians());
                vec![f as f32, q.to_md5_xyz()[2]]
            })
            .collect(),
    }
}

#[test]
fn sampling_frames_blends_loop_clamp_and_root_motion() {
    let anim = Animation::new(&sampling_anim()).unwrap();
    let mut out = [JointPose::IDENTITY; 2];
    let (loop_, clamp) = (Playback::Loop, Playback::Clamp);
    let keep = RootMotion::Keep;
    assert!((anim.duration() - 0.4).abs() < 1e-7);

    // On a frame's time: that frame exactly (0.2 s is frame 2; 0.1 s and 0.3 s are not
    // exact in binary but land on frames 1 and 3).
    for (t, f) in [(0.0, 0), (0.1, 1), (0.2, 2), (0.3, 3)] {
        let root = anim.sample_local(t, loop_, keep, &mut out);
        assert_eq!(&out[..], anim.frame(f), "t = {t}");
        assert_eq!(root, [f as f32, 0.0, 5.0]);
    }

    // Halfway between frames 2 and 3: translation lerped, rotation slerped (30 degrees).
    anim.sample_local(0.25, loop_, keep, &mut out);
    assert_close3(out[0].pos, [2.5, 0.0, 5.0], 1e-6);
    let c30 = Quat::from_axis_angle([0.0, 0.0, 1.0], 30f32.to_radians());
    assert_same_rotation(out[0].orient, c30, 1e-6);
    assert_pose_close(
        &out[0],
        &anim.frame(2)[0].lerp(&anim.frame(3)[0], 0.5),
        1e-6,
    );
    // A quarter of the way from frame 0 to 1: 5 degrees (slerp runs at constant speed).
    anim.sample_local(0.025, clamp, keep, &mut out);
    let c5 = Quat::from_axis_angle([0.0, 0.0, 1.0], 5f32.to_radians());
    assert_same_rotation(out[0].orient, c5, 1e-6);
    assert_close3(out[0].pos, [0.25, 0.0, 5.0], 1e-6);

    // Loop: a cycle is numFrames - 1 = 4 frames (0.4 s); frame 4 is never sampled, the
    // cycle restarts at frame 0.
    let p = anim.frame_at(0.4, loop_);
    assert_eq!((p.a, p.b, p.blend, p.cycle), (0, 1, 0.0, 1));
    anim.sample_local(0.5, loop_, keep, &mut out);
    assert_eq!(&out[..], anim.frame(1));
    anim.sample_local(0.4 * 3.0 + 0.3, loop_, keep, &mut out);
    assert_eq!(&out[..], anim.frame(3));
    anim.sample_local(-0.1, loop_, keep, &mut out);
    assert_eq!(&out[..], anim.frame(3));
    // Between frames 3 and 4 of the second cycle, the blend runs towards frame 4.
    anim.sample_local(0.75, loop_, keep, &mut out);
    assert_close3(out[0].pos, [3.5, 0.0, 5.0], 1e-5);
    let c10 = Quat::from_axis_angle([0.0, 0.0, 1.0], 10f32.to_radians());
    assert_same_rotation(out[0].orient, c10, 1e-6);

    // Clamp: the last frame holds after the end, the first before the start.
    for t in [0.4, 0.5, 10.0, f32::INFINITY] {
        anim.sample_local(t, clamp, keep, &mut out);
        assert_eq!(&out[..], anim.frame(4), "t = {t}");
    }
    for t in [-1.0, f32::NEG_INFINITY, f32::NAN] {
        anim.sample_local(t, clamp, keep, &mut out);
        assert_eq!(&out[..], anim.frame(0), "t = {t}");
    }

    // InPlace: the root translation is removed from the pose and returned.
    let root = anim.sample_local(0.25, loop_, RootMotion::InPlace, &mut out);
    assert_eq!(out[0].pos, [0.0; 3]);
    assert_close3(root, [2.5, 0.0, 5.0], 1e-6);
    assert_same_rotation(out[0].orient, c30, 1e-6);
    let mut global = [JointPose::IDENTITY; 2];
    anim.sample_global(0.25, loop_, RootMotion::InPlace, &mut global);
    assert_eq!(global[0].pos, [0.0; 3]);
    let (s, c) = 30f32.to_radians().sin_cos();
    assert_close3(global[1].pos, [c, s, 0.0], 1e-6);
    anim.sample_global(0.25, loop_, keep, &mut global);
    assert_close3(global[1].pos, [2.5 + c, s, 5.0], 1e-6);

    // Root motion across cycles: each cycle travels 4 (frame 4 minus frame 0).
    assert_close3(anim.root_motion(0.0, 0.9, loop_), [9.0, 0.0, 0.0], 1e-5);
    assert_close3(anim.root_motion(0.1, 0.2, loop_), [1.0, 0.0, 0.0], 1e-6);
    assert_close3(anim.root_motion(0.0, 9.0, clamp), [4.0, 0.0, 0.0], 1e-6);
}

#[test]
fn one_frame_animation_is_a_still_pose() {
    let mut file = sampling_anim();
    file.frames.truncate(1);
    let anim = Animation::new(&file).unwrap();
    let mut out = [JointPose::IDENTITY; 2];
    for t in [0.0, 1.0, -3.0] {
        for pb in [Playback::Loop, Playback::Clamp] {
            anim.sample_local(t, pb, RootMotion::Keep, &mut out);
            assert_eq!(&out[..], anim.frame(0));
        }
    }
    assert_eq!(anim.duration(), 0.0);
}

// 4. ------------------------------------------------------------------------------------------

fn chain_joints() -> Vec<(String, i32)> {
    ["root", "spine", "arm", "hand"]
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), i as i32 - 1))
        .collect()
}

/// 30 frames of a 4-joint chain. Moving: root Tx; spine's rotation about Z (so Qz only);
/// arm Ty and its rotation about an axis in the XY plane (Qx, Qy). Everything else is
/// constant, including the hand entirely.
fn chain_frames() -> Vec<Vec<JointPose>> {
    let root_q = Quat::from_axis_angle([0.0, 0.0, 1.0], 0.3);
    let hand_q = Quat::from_axis_angle([1.0, 2.0, 3.0], 0.7);
    (0..30)
        .map(|f| {
            let s = f as f32 / 29.0;
            vec![
                JointPose::new([0.1 * f as f32, 2.0, 3.0], root_q),
                JointPose::new(
                    [0.0, 0.0, 5.0],
                    Quat::from_axis_angle([0.0, 0.0, 1.0], 0.5 * (2.0 * PI * s).sin()),
                ),
                JointPose::new(
                    [0.0, 1.0 + 0.5 * (PI * s).sin(), 0.0],
                    Quat::from_axis_angle([0.6, 0.8, 0.0], 0.2 + 0.8 * s),
                ),
                JointPose::new([1.0, 0.0, 0.0], hand_q),
            ]
        })
        .collect()
}

#[test]
fn compress_round_trips_and_flags_only_what_moves() {
    let joints = chain_joints();
    let frames = chain_frames();
    let file = compress(&joints, &frames, 24.0, None, 1e-6).unwrap();

    let flags: Vec<u32> = file.hierarchy.iter().map(|h| h.flags).collect();
    assert_eq!(flags, vec![TX, QZ, TY | QX | QY, 0]);
    let starts: Vec<u32> = file.hierarchy.iter().map(|h| h.start_index).collect();
    assert_eq!(starts, vec![0, 1, 2, 5]);
    assert_eq!(file.num_animated_components, 5);
    assert_eq!(file.frames.len(), 30);
    assert!(file.frames.iter().all(|f| f.len() == 5));
    assert!(file.bounds.is_empty());
    assert_eq!(file.version, Some(10));
    let parents: Vec<i32> = file.hierarchy.iter().map(|h| h.parent).collect();
    assert_eq!(parents, vec![-1, 0, 1, 2]);
    // The baseframe is frame 0, stored with w <= 0.
    assert_eq!(file.baseframe[0].pos, [0.0, 2.0, 3.0]);
    assert_eq!(file.baseframe[3].orient, frames[0][3].orient.to_md5_xyz());
    assert!(frames[0][3].orient.w > 0.0);
    assert!(file.baseframe[3].orient[0] < 0.0);

    let anim = Animation::new(&file).unwrap();
    let parents: Vec<i32> = joints.iter().map(|j| j.1).collect();
    let mut g_in = [JointPose::IDENTITY; 4];
    let mut g_out = [JointPose::IDENTITY; 4];
    for (f, frame) in frames.iter().enumerate() {
        for (a, b) in anim.frame(f).iter().zip(frame) {
            assert_pose_close(a, b, 1e-5);
        }
        to_global(&parents, frame, &mut g_in);
        anim.frame_global(f, &mut g_out);
        for (a, b) in g_out.iter().zip(&g_in) {
            assert_pose_close(a, b, 1e-5);
        }
    }

    // A tolerance above every change stores nothing per frame.
    let flat = compress(&joints, &frames, 24.0, None, 10.0).unwrap();
    assert!(flat.hierarchy.iter().all(|h| h.flags == 0));
    assert_eq!(flat.num_animated_components, 0);
    assert!(flat.frames.iter().all(Vec::is_empty));
    let flat_anim = Animation::new(&flat).unwrap();
    assert_eq!(flat_anim.frame(29), flat_anim.frame(0));

    // Given bounds are kept; wrong input is refused.
    let b = vec![
        Bounds {
            min: [-1.0; 3],
            max: [1.0; 3],
        };
        30
    ];
    let with = compress(&joints, &frames, 24.0, Some(b.clone()), 0.0).unwrap();
    assert_eq!(with.bounds, b);
    assert!(compress(&joints, &frames, 24.0, Some(b[..29].to_vec()), 0.0).is_err());
    let mut short = frames.clone();
    short[3].pop();
    assert!(compress(&joints, &short, 24.0, None, 0.0)
        .unwrap_err()
        .contains("frame 3"));
    assert!(compress(&joints, &[], 24.0, None, 0.0).is_err());
    let mut nan = frames.clone();
    nan[2][1].pos[0] = f32::NAN;
    assert!(compress(&joints, &nan, 24.0, None, 0.0).is_err());
}

// 5. ------------------------------------------------------------------------------------------

#[test]
fn joints_match_by_name() {
    let mesh_joints: Vec<Joint> = ["origin", "hips", "head"]
        .iter()
        .map(|n| joint(n, -1, [0.0; 3], Quat::IDENTITY))
        .collect();
    let mut anim = hand_built_anim();
    let names = ["head", "extra", "origin", "hips"];
    anim.hierarchy = names
        .iter()
        .map(|n| HierarchyJoint {
            name: n.to_string(),
            parent: -1,
            flags: 0,
            start_index: 0,
        })
        .collect();
    assert_eq!(match_joints(&mesh_joints, &anim).unwrap(), vec![2, 3, 0]);

    anim.hierarchy.remove(3);
    let e = match_joints(&mesh_joints, &anim).unwrap_err();
    assert_eq!(e, "mesh joint 1 \"hips\" is not in the animation");
    anim.hierarchy.remove(0);
    let e = match_joints(&mesh_joints, &anim).unwrap_err();
    assert_eq!(
        e,
        "mesh joint 1 \"hips\" is not in the animation (and 1 more joints are missing)"
    );
}

// 6. ------------------------------------------------------------------------------------------

fn bind_joints() -> Vec<Joint> {
    vec![
        joint(
            "root",
            -1,
            [0.5, -1.0, 0.0],
            Quat::from_axis_angle([0.0, 0.0, 1.0], 0.4),
        ),
        joint(
            "upper",
            0,
            [0.0, 0.0, 4.0],
            Quat::from_axis_angle([1.0, 0.0, 0.0], 0.6),
        ),
        joint(
            "lower",
            1,
            [0.0, 1.0, 6.0],
            Quat::from_axis_angle([0.0, 1.0, 1.0], -0.9),
        ),
    ]
}

/// A closed tetrahedron (Doom 3's clockwise winding) whose vertices hang off several joints.
fn skinned_mesh() -> Mesh {
    let w = |joint: u32, bias: f32, pos: [f32; 3]| Weight { joint, bias, pos };
    Mesh {
        shader: "models/test".to_string(),
        verts: [(0, 1), (1, 2), (3, 3), (6, 2)]
            .iter()
            .enumerate()
            .map(|(i, &(start, count))| Vert {
                uv: [i as f32 * 0.25, (i % 2) as f32],
                start_weight: start,
                count_weight: count,
            })
            .collect(),
        tris: vec![[0, 1, 2], [0, 2, 3], [0, 3, 1], [1, 3, 2]],
        weights: vec![
            w(0, 1.0, [0.0, 0.0, -1.0]),
            w(0, 0.5, [2.0, 0.0, 1.0]),
            w(1, 0.5, [1.0, 0.5, -2.0]),
            w(0, 0.2, [-1.0, 2.0, 2.0]),
            w(1, 0.3, [-0.5, 1.0, 0.0]),
            w(2, 0.5, [0.0, 0.5, -3.0]),
            w(2, 0.7, [0.2, -2.0, 1.0]),
            w(1, 0.3, [0.0, -1.5, 2.5]),
        ],
    }
}

#[test]
fn skinning_at_the_bind_pose_and_a_turned_pose() {
    let joints = bind_joints();
    let mesh = skinned_mesh();
    check_mesh(&mesh, joints.len()).unwrap();
    let n = mesh.verts.len();
    let mut bind = vec![[0.0; 3]; n];
    bind_positions(&mesh, &joints, &mut bind);

    // An animation whose global poses are the bind joints, with an extra joint so that the
    // animation's joint order differs from the mesh's.
    let mut global_bind = vec![JointPose::IDENTITY; 3];
    bind_pose(&joints, &mut global_bind);
    let extra = JointPose::new([7.0, 7.0, 7.0], Quat::from_axis_angle([1.0, 1.0, 0.0], 1.0));
    let anim_global = |root_turn: Quat| {
        let turn = JointPose::new([0.0; 3], root_turn);
        [global_bind[0], extra, global_bind[1], global_bind[2]]
            .iter()
            .map(|p| turn.compose(p))
            .collect::<Vec<JointPose>>()
    };
    let anim_joints: Vec<(String, i32)> = [("root", -1), ("extra", 0), ("upper", 0), ("lower", 2)]
        .iter()
        .map(|&(n, p)| (n.to_string(), p))
        .collect();
    let anim_parents: Vec<i32> = anim_joints.iter().map(|j| j.1).collect();
    let turn = Quat::from_axis_angle([0.0, 0.0, 1.0], PI / 2.0);
    let frames: Vec<Vec<JointPose>> = [Quat::IDENTITY, turn]
        .iter()
        .map(|&q| {
            let g = anim_global(q);
            let mut local = vec![JointPose::IDENTITY; 4];
            to_local(&anim_parents, &g, &mut local);
            local
        })
        .collect();
    let file = compress(&anim_joints, &frames, 24.0, None, 0.0).unwrap();
    let anim = Animation::new(&file).unwrap();
    let mapping = match_joints(&joints, &file).unwrap();
    assert_eq!(mapping, vec![0, 2, 3]);

    let mut global = vec![JointPose::IDENTITY; 4];
    let mut pose = vec![JointPose::IDENTITY; 3];
    let mut skinned = vec![[0.0; 3]; n];
    anim.sample_global(0.0, Playback::Clamp, RootMotion::Keep, &mut global);
    gather(&global, &mapping, &mut pose);
    skin_positions(&mesh, &pose, &mut skinned);
    for (s, b) in skinned.iter().zip(&bind) {
        assert_close3(*s, *b, 1e-5);
    }

    // Weight normals reproduce the bind normals at the bind pose...
    let mut normals = vec![[0.0; 3]; n];
    bind_normals(&mesh, &bind, &mut normals);
    let wn = WeightNormals::new(&mesh, &joints);
    assert_eq!(wn.normals.len(), mesh.weights.len());
    let mut skinned_n = vec![[0.0; 3]; n];
    skin_normals(&mesh, &wn, &pose, &mut skinned_n);
    for (s, b) in skinned_n.iter().zip(&normals) {
        assert_close3(*s, *b, 1e-5);
    }

    // Frame 1 turns everything 90 degrees about Z around the origin: positions and normals
    // turn with it.
    anim.sample_global(1.0 / 24.0, Playback::Clamp, RootMotion::Keep, &mut global);
    gather(&global, &mapping, &mut pose);
    skin_positions(&mesh, &pose, &mut skinned);
    skin_normals(&mesh, &wn, &pose, &mut skinned_n);
    for ((s, b), (sn, bn)) in skinned
        .iter()
        .zip(&bind)
        .zip(skinned_n.iter().zip(&normals))
    {
        assert_close3(*s, turn.rotate(*b), 1e-5);
        assert_close3(*sn, turn.rotate(*bn), 1e-5);
    }

    // glTF-style linear blend skinning with inverse bind matrices and merged influences
    // gives the same positions.
    let ibm: Vec<[f32; 16]> = joints.iter().map(inverse_bind_matrix).collect();
    let influences = vertex_influences(&mesh, 4);
    for ((inf, b), s) in influences.iter().zip(&bind).zip(&skinned) {
        let mut sum = [0.0f32; 3];
        for &(j, w) in inf {
            let m = mat_mul(&pose[j as usize].to_mat4(), &ibm[j as usize]);
            let p = mat_point(&m, *b);
            sum = [0, 1, 2].map(|k| sum[k] + p[k] * w);
        }
        assert_close3(sum, *s, 1e-4);
    }
    // The inverse bind matrix undoes the bind transform.
    for (j, m) in joints.iter().zip(&ibm) {
        let id = mat_mul(&JointPose::from_joint(j).to_mat4(), m);
        for (k, v) in id.iter().enumerate() {
            let want = if k % 5 == 0 { 1.0 } else { 0.0 };
            assert!((v - want).abs() < 1e-5, "{id:?}");
        }
    }

    // Bounds per frame enclose the skinned mesh.
    let bounds = frame_bounds(std::slice::from_ref(&mesh), &anim, &mapping);
    assert_eq!(bounds.len(), 2);
    for p in &skinned {
        let b = bounds[1];
        assert!((0..3).all(|k| b.min[k] <= p[k] && p[k] <= b.max[k]));
    }
}

#[test]
fn influences_merge_sort_cut_and_normalise() {
    let mesh = skinned_mesh();
    let inf = vertex_influences(&mesh, usize::MAX);
    assert_eq!(inf[0].as_slice(), [(0, 1.0)]);
    assert_eq!(inf[1].as_slice(), [(0, 0.5), (1, 0.5)]);
    assert_eq!(inf[2].as_slice(), [(2, 0.5), (1, 0.3), (0, 0.2)]);
    let cut = vertex_influences(&mesh, 2);
    assert_eq!(cut[2].len(), 2);
    assert_eq!(cut[2][0].0, 2);
    assert!((cut[2][0].1 - 0.625).abs() < 1e-6 && (cut[2][1].1 - 0.375).abs() < 1e-6);

    // Two weights on one joint merge.
    let mut mesh = one_weight_mesh(
        vec![
            Weight {
                joint: 3,
                bias: 0.25,
                pos: [0.0; 3],
            },
            Weight {
                joint: 1,
                bias: 0.5,
                pos: [0.0; 3],
            },
            Weight {
                joint: 3,
                bias: 0.25,
                pos: [0.0; 3],
            },
        ],
        vec![(0, 3)],
    );
    assert_eq!(
        vertex_influences(&mesh, 4)[0].as_slice(),
        [(1, 0.5), (3, 0.5)]
    );
    mesh.verts[0].count_weight = 4;
    assert!(check_mesh(&mesh, 4).is_err());
}

#[test]
fn flat_quad_normals_and_tangents() {
    // Doom 3 winding: (a, b, c) clockwise seen from +Z has its normal along +Z.
    // UVs: s along +X, t down the image, which is -Y here.
    let pos = [
        [0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    let mesh = Mesh {
        shader: String::new(),
        verts: pos
            .iter()
            .map(|p| Vert {
                uv: [p[0], 1.0 - p[1]],
                start_weight: 0,
                count_weight: 0,
            })
            .collect(),
        tris: vec![[0, 1, 2], [2, 1, 3]],
        weights: Vec::new(),
    };
    let mut normals = [[0.0; 3]; 4];
    bind_normals(&mesh, &pos, &mut normals);
    for n in normals {
        assert_close3(n, [0.0, 0.0, 1.0], 1e-6);
    }
    let mut tangents = [[0.0; 4]; 4];
    vertex_tangents(&mesh, &pos, &normals, &mut tangents);
    for t in tangents {
        // cross(n, t) = +Y, and t grows towards -Y: w = -1.
        assert_eq!(t, [1.0, 0.0, 0.0, -1.0]);
    }
}

fn mat_mul(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
    let mut m = [0.0; 16];
    for c in 0..4 {
        for r in 0..4 {
            m[4 * c + r] = (0..4).map(|k| a[4 * k + r] * b[4 * c + k]).sum();
        }
    }
    m
}

fn mat_point(m: &[f32; 16], p: [f32; 3]) -> [f32; 3] {
    [0, 1, 2].map(|r| m[r] * p[0] + m[4 + r] * p[1] + m[8 + r] * p[2] + m[12 + r])
}
