//! Skinning with more than four joint influences per vertex (Doom 3 MD5 meshes, GameStudio
//! MDL7): the GPU must blend every influence, not the heaviest four. A generated skeletal
//! cube whose vertices mostly have six influences on joints that move differently is drawn
//! GPU-skinned and compared with the same cube skinned on the CPU over all weights (linear
//! blend skinning) and drawn as a static mesh by the same shading; the cube with its weights
//! cut to the heaviest four is drawn too, to show that the comparison would catch a renderer
//! that truncates. Skipped with "no GPU adapter: skipped" without an adapter.

mod common;

use common::*;
use glam::{Mat4, Quat as GQuat, Vec3};
use retromodel::math::Quat;
use retromodel::model::pose::{inverse_bind_matrix, JointPose, Playback, PoseTrack, RootMotion};
use retromodel::model::{Joint, JointTransform, Mesh, Model, MorphTarget, SkeletalAnimation, Skin};
use retromodel_render::{Camera, Framing, Gpu, GpuModel, Pose, Renderer, Target, View};

const SIZE: u32 = 128;
/// Per-channel tolerance and the number of pixels that may exceed it, as the MD5 skinning
/// test of `gpu.rs`.
const TOL: u8 = 8;
const MAX_BAD: usize = 8;

/// Object-space bind poses of the joints: a root at the origin and six joints around and
/// above the cube, with parents among each other and turned bind orientations.
fn joints() -> Vec<Joint> {
    let spec: [(Option<usize>, [f32; 3], f32); 7] = [
        (None, [0.0, 0.0, 0.0], 0.0),
        (Some(0), [20.0, 0.0, 24.0], 0.3),
        (Some(0), [-20.0, 0.0, 24.0], -0.5),
        (Some(0), [0.0, 20.0, 30.0], 0.9),
        (Some(1), [12.0, -18.0, 36.0], 1.4),
        (Some(2), [-10.0, -16.0, 10.0], -1.1),
        (Some(3), [0.0, 6.0, 44.0], 2.0),
    ];
    spec.iter()
        .enumerate()
        .map(|(i, &(parent, t, turn))| Joint {
            name: format!("joint{i}"),
            parent,
            translation: t,
            rotation: GQuat::from_rotation_z(turn).to_array(),
        })
        .collect()
}

/// Local transforms of frame `f`: each non-root joint moves and turns about its own axis by
/// its own amount; the root stays at the origin (in-place playback zeroes its translation).
fn frame(joints: &[Joint], f: usize) -> Vec<JointTransform> {
    let axes = [
        Vec3::X,
        Vec3::new(1.0, 1.0, 0.0),
        Vec3::Y,
        Vec3::new(0.0, 1.0, 1.0),
        Vec3::Z,
        Vec3::new(1.0, 0.0, 1.0),
    ];
    let ft = f as f32;
    joints
        .iter()
        .enumerate()
        .map(|(j, joint)| {
            let global_t = Vec3::from(joint.translation);
            let global_r = GQuat::from_array(joint.rotation);
            let (pt, pr) = match joint.parent {
                Some(p) => (
                    Vec3::from(joints[p].translation),
                    GQuat::from_array(joints[p].rotation),
                ),
                None => (Vec3::ZERO, GQuat::IDENTITY),
            };
            let local_t = pr.inverse() * (global_t - pt);
            let local_r = pr.inverse() * global_r;
            if j == 0 {
                return JointTransform {
                    translation: local_t.into(),
                    rotation: local_r.to_array(),
                };
            }
            let jf = j as f32;
            let phase = ft * 0.9 + jf * 1.7;
            let moved =
                local_t + Vec3::new(phase.sin(), (phase * 1.3).cos(), (phase * 0.7).sin()) * 9.0;
            let turn = GQuat::from_axis_angle(axes[j - 1].normalize(), 0.6 * (ft * 0.8 + jf).sin());
            JointTransform {
                translation: moved.into(),
                rotation: (local_r * turn).normalize().to_array(),
            }
        })
        .collect()
}

/// A cube of half size 16 around (0, 0, 24), each face split into `k` x `k` quads (flat
/// normals, clockwise from outside like the engines), UVs over the checker per face.
fn grid_cube(k: u32) -> (PoseData, Vec<[f32; 2]>, Vec<[u32; 3]>) {
    let (mut pos, mut nrm, mut uvs, mut tris) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (n, u, v) in CUBE_FACES {
        let base = pos.len() as u32;
        for j in 0..=k {
            for i in 0..=k {
                let a = -1.0 + 2.0 * i as f32 / k as f32;
                let b = -1.0 + 2.0 * j as f32 / k as f32;
                let p: [f32; 3] = std::array::from_fn(|c| (n[c] + a * u[c] + b * v[c]) * 16.0);
                pos.push([p[0], p[1], p[2] + 24.0]);
                nrm.push(n);
                uvs.push([(a + 1.0) * 0.5, 1.0 - (b + 1.0) * 0.5]);
            }
        }
        let at = |i: u32, j: u32| base + j * (k + 1) + i;
        for j in 0..k {
            for i in 0..k {
                let (c0, c1, c2, c3) = (at(i, j), at(i + 1, j), at(i + 1, j + 1), at(i, j + 1));
                tris.push([c0, c2, c1]);
                tris.push([c0, c3, c2]);
            }
        }
    }
    ((pos, nrm), uvs, tris)
}

/// The generated skeletal model. Most vertices have six influences (the six non-root joints,
/// weighted by closeness, a flat profile so the lightest two matter); every fourth has two
/// only, and every seventh lists its heaviest joint twice (merged by the renderer). Weights
/// sum to 1.
fn six_weight_model() -> Model {
    let joints = joints();
    let ((positions, normals), uvs, triangles) = grid_cube(6);
    let joint_weights: Vec<Vec<(u32, f32)>> = positions
        .iter()
        .enumerate()
        .map(|(v, p)| {
            let mut list: Vec<(u32, f32)> = (1..joints.len())
                .map(|j| {
                    let d = Vec3::from(*p).distance(Vec3::from(joints[j].translation));
                    (j as u32, 1.0 / (1.0 + d * d / 900.0))
                })
                .collect();
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
            if v % 4 == 1 {
                list.truncate(2);
            }
            let sum: f32 = list.iter().map(|e| e.1).sum();
            for e in &mut list {
                e.1 /= sum;
            }
            if v % 7 == 3 {
                let (j, w) = list[0];
                list[0].1 = w * 0.5;
                list.push((j, w * 0.5));
            }
            list
        })
        .collect();
    let frames: Vec<Vec<JointTransform>> = (0..5).map(|f| frame(&joints, f)).collect();
    let n = positions.len();
    let mesh = Mesh {
        name: "cube".into(),
        positions,
        normals,
        uvs,
        triangles,
        morph_targets: Vec::new(),
        source_vertices: (0..n as u32).collect(),
        skin: Some(0),
        joint_weights: joint_weights.into_iter().map(Into::into).collect(),
        skin_size: Some([16, 16]),
    };
    Model {
        meshes: vec![mesh],
        skins: vec![Skin {
            source: None,
            name: String::new(),
            pictures: vec![checker_skin()],
            picture_times: None,
        }],
        joints,
        animations: vec![SkeletalAnimation {
            name: "bend".into(),
            fps: 4.0,
            frames: frames.into(),
            bounds: Vec::new(),
            loops: false,
            weight_scales: None,
        }],
        ..Model::default()
    }
}

/// The same model with every vertex cut to its heaviest four joints (merged per joint),
/// renormalised: what a four-weight renderer draws.
fn truncated(model: &Model) -> Model {
    let mut out = model.clone();
    for list in &mut out.meshes[0].joint_weights {
        let mut merged: Vec<(u32, f32)> = Vec::new();
        for &(j, w) in list.iter() {
            match merged.iter_mut().find(|e| e.0 == j) {
                Some(e) => e.1 += w,
                None => merged.push((j, w)),
            }
        }
        merged.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        merged.truncate(4);
        let sum: f32 = merged.iter().map(|e| e.1).sum();
        for e in &mut merged {
            e.1 /= sum;
        }
        *list = merged.into();
    }
    out
}

/// Joint matrices (bind pose to animated pose) at `time`, sampled by the core library as the
/// renderer documents (the Model's animation through the core library's skeletal module,
/// clamped, root in place).
fn joint_matrices(model: &Model, time: f32) -> Vec<Mat4> {
    let anim = PoseTrack::from_model(model, 0).unwrap();
    let mut global = vec![JointPose::IDENTITY; model.joints.len()];
    anim.sample_global(time, Playback::Clamp, RootMotion::InPlace, &mut global);
    global
        .iter()
        .zip(&model.joints)
        .map(|(g, j)| {
            let inverse_bind =
                inverse_bind_matrix(&JointPose::new(j.translation, Quat::from_array(j.rotation)));
            Mat4::from_cols_array(&g.to_mat4()) * Mat4::from_cols_array(&inverse_bind)
        })
        .collect()
}

/// `model` skinned on the CPU with linear blend skinning over every weight of every vertex,
/// as a static one-pose model (no joints, no animations).
fn cpu_skinned(model: &Model, matrices: &[Mat4]) -> Model {
    let mut out = model.clone();
    out.joints.clear();
    out.animations.clear();
    for mesh in &mut out.meshes {
        let mut pos = Vec::new();
        let mut nrm = Vec::new();
        for ((p, n), list) in mesh
            .positions
            .iter()
            .zip(&mesh.normals)
            .zip(&mesh.joint_weights)
        {
            let (mut sp, mut sn) = (Vec3::ZERO, Vec3::ZERO);
            for &(j, w) in list {
                let m = matrices[j as usize];
                sp += w * m.transform_point3(Vec3::from(*p));
                sn += w * m.transform_vector3(Vec3::from(*n));
            }
            pos.push(sp.to_array());
            nrm.push(sn.to_array());
        }
        mesh.positions = pos.clone();
        mesh.normals = nrm.clone();
        mesh.joint_weights.clear();
        mesh.morph_targets = vec![MorphTarget {
            positions: pos,
            normals: nrm,
        }];
    }
    out
}

fn draw(gpu: &Gpu, renderer: &Renderer, scene: &mut GpuModel, pose: Pose, view: &View) -> Vec<u8> {
    let mut target = Target::new(gpu, SIZE, SIZE);
    renderer
        .render_image(gpu, scene, &mut target, &pose, view)
        .expect("render")
}

/// GPU skinning over all six weights matches CPU linear blend skinning over all weights at
/// three animation times and three views (lit, so normals are compared too, and once with the
/// wireframe); the four-weight cut of the same model differs by far more in every view.
#[test]
fn six_weights_match_cpu_skinning_over_all_weights() {
    let Some(gpu) = gpu_or_skip() else { return };
    let model = six_weight_model();
    let four = truncated(&model);
    let six_vertices = model.meshes[0]
        .joint_weights
        .iter()
        .filter(|l| {
            let mut js: Vec<u32> = l.iter().map(|e| e.0).collect();
            js.sort();
            js.dedup();
            js.len() == 6
        })
        .count();
    eprintln!(
        "{} vertices, {six_vertices} with six influences",
        model.meshes[0].positions.len()
    );
    assert!(six_vertices >= 100);
    let renderer = Renderer::new(&gpu, Target::FORMAT);
    let mut scene = GpuModel::new(&gpu, &renderer, &model).expect("upload");
    let mut scene_four = GpuModel::new(&gpu, &renderer, &four).expect("upload");
    assert!(scene.warnings().is_empty(), "{:?}", scene.warnings());
    assert_eq!(scene.max_influences(), 6);
    assert_eq!(
        scene_four.max_influences(),
        4,
        "four weights: the fast path"
    );
    let framing: Framing = scene.framing_of_animation(0);
    let (mut worst_all, mut least_four) = (0usize, usize::MAX);
    for time in [0.3f32, 0.55, 0.9] {
        let matrices = joint_matrices(&model, time);
        let cpu_model = cpu_skinned(&model, &matrices);
        let mut cpu_scene = GpuModel::new(&gpu, &renderer, &cpu_model).expect("upload");
        // The CPU positions use the joint matrices the renderer uploads.
        let pose = Pose::Skeletal {
            animation: 0,
            time,
            looping: false,
        };
        scene.prepare(&gpu, &pose);
        for (a, b) in scene.joint_matrices().iter().zip(&matrices) {
            let b = b.to_cols_array();
            assert!(a.iter().zip(&b).all(|(x, y)| (x - y).abs() < 1e-4));
        }
        // How far the four-weight cut moves vertices, in model units.
        let cut = cpu_skinned(&four, &matrices);
        let moved = cut.meshes[0]
            .positions
            .iter()
            .zip(&cpu_model.meshes[0].positions)
            .map(|(a, b)| Vec3::from(*a).distance(Vec3::from(*b)))
            .fold(0.0f32, f32::max);
        for (yaw, wireframe) in [(30.0, false), (150.0, false), (260.0, true)] {
            let view = View {
                camera: Camera {
                    yaw,
                    pitch: 20.0,
                    ..Camera::default()
                },
                wireframe,
                framing: Some(framing),
                ..View::default()
            };
            let gpu_img = draw(&gpu, &renderer, &mut scene, pose, &view);
            let cpu_img = draw(&gpu, &renderer, &mut cpu_scene, Pose::frame(0), &view);
            let four_img = draw(&gpu, &renderer, &mut scene_four, pose, &view);
            let cov = coverage(&gpu_img);
            let (bad, worst) = diff(&gpu_img, &cpu_img, TOL);
            let (bad4, worst4) = diff(&four_img, &cpu_img, TOL);
            eprintln!(
                "t {time} yaw {yaw} wire {wireframe}: coverage {cov:.3}; all weights: {bad} pixels \
                 differ by more than {TOL} (worst {worst}); four weights: {bad4} (worst {worst4}); \
                 the cut moves vertices by up to {moved:.2}"
            );
            assert!(cov > 0.05, "the model covers only {cov:.3} of the image");
            assert!(
                bad <= MAX_BAD,
                "all weights: {bad} pixels differ from CPU skinning (worst {worst})"
            );
            assert!(
                bad4 > 10 * MAX_BAD,
                "the four-weight cut differs in only {bad4} pixels: the test would not catch it"
            );
            worst_all = worst_all.max(bad);
            least_four = least_four.min(bad4);
        }
    }
    eprintln!("most differing pixels with all weights {worst_all}, fewest with four {least_four}");
}

/// A skeletal model whose vertices all have at most four influences keeps the vertex-attribute
/// path, and a vertex with more than four switches the mesh to every influence.
#[test]
fn four_weight_models_keep_the_fast_path() {
    let Some(gpu) = gpu_or_skip() else { return };
    let renderer = Renderer::new(&gpu, Target::FORMAT);
    let model = six_weight_model();
    let mut four = truncated(&model);
    let scene = GpuModel::new(&gpu, &renderer, &four).expect("upload");
    assert_eq!(scene.max_influences(), 4);
    // Five entries on four joints merge to four: still the fast path.
    four.meshes[0].joint_weights[0] = vec![(1, 0.3), (2, 0.3), (3, 0.2), (4, 0.1), (1, 0.1)].into();
    let scene = GpuModel::new(&gpu, &renderer, &four).expect("upload");
    assert_eq!(scene.max_influences(), 4);
    four.meshes[0].joint_weights[0].push((5, 0.0001));
    let scene = GpuModel::new(&gpu, &renderer, &four).expect("upload");
    assert_eq!(scene.max_influences(), 5);
}
