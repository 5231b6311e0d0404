//! GPU tests: each one first asks for an adapter and, without one, prints
//! "no GPU adapter: skipped" and passes (so `cargo test --workspace` passes on a machine with
//! no GPU and no Vulkan driver). With Mesa's llvmpipe (`apt-get install mesa-vulkan-drivers`)
//! they run for real.

mod common;
#[path = "../../retromodel/tests/rerelease_formula/mod.rs"]
mod rerelease_formula;

use common::*;
use retromodel::formats::md5::{
    self,
    anim::{bind_positions, match_joints, skin_positions, Animation},
    fixtures,
};
use retromodel::math::{self as rmath, Quat};
use retromodel::model::pose::{
    blend_point, gather, inverse_bind_matrix, joint_matrices_scaled, JointPose, Playback,
    PoseTrack, RootMotion,
};
use retromodel::model::{Model, MorphTarget, SkinEffects, WeightScales};
use retromodel_render::timing::KeyPose;
use retromodel_render::{Camera, GpuModel, Pose, Renderer, Target, View};

const SIZE: u32 = 128;

/// Acceptance 2: the GPU's blend of pose A and pose B at 0.5 matches the CPU-interpolated
/// pose drawn by the same pipeline at blend 0.
#[test]
fn keyframe_blend_matches_cpu_interpolation() {
    let Some(gpu) = gpu_or_skip() else { return };
    let [p0, p1] = two_poses();
    let model = keyframe_model(vec![p0.clone(), p1.clone()]);
    // The CPU pose: positions and normals mixed as the shader does (the fragment shader
    // normalises). Framing must be the same, so the CPU model carries both originals too.
    let lerp = |a: &[[f32; 3]], b: &[[f32; 3]]| -> Vec<[f32; 3]> {
        a.iter()
            .zip(b)
            .map(|(x, y)| std::array::from_fn(|k| x[k] + (y[k] - x[k]) * 0.5))
            .collect()
    };
    let mid = (lerp(&p0.0, &p1.0), lerp(&p0.1, &p1.1));
    let cpu_model = keyframe_model(vec![mid, p0, p1]);
    for yaw in [30.0, 200.0] {
        let view = View {
            camera: Camera {
                yaw,
                ..Camera::default()
            },
            ..View::default()
        };
        let gpu_img = render(
            &gpu,
            &model,
            Pose::Keyframe(KeyPose {
                a: 0,
                b: 1,
                blend: 0.5,
            }),
            &view,
            SIZE,
            SIZE,
        );
        let cpu_img = render(&gpu, &cpu_model, Pose::frame(0), &view, SIZE, SIZE);
        let cov = coverage(&gpu_img);
        let (bad, worst) = diff(&gpu_img, &cpu_img, 8);
        eprintln!(
            "yaw {yaw}: coverage {cov:.3}, {bad} pixels differ by more than 8 (worst {worst})"
        );
        assert!(cov > 0.10, "the model covers only {cov:.3} of the image");
        assert!(
            bad <= (SIZE * SIZE / 200) as usize,
            "{bad} pixels differ (worst {worst})"
        );
        // And the blend really moves the model: pose 0 alone differs.
        let p0_img = render(&gpu, &model, Pose::frame(0), &view, SIZE, SIZE);
        assert!(diff(&gpu_img, &p0_img, 8).0 > 200);
    }
}

/// Front faces are the engines' clockwise ones after the axis change: a triangle clockwise
/// when seen from +X (Z up) shows from +X and is culled from -X.
#[test]
fn clockwise_front_faces_after_axis_change() {
    let Some(gpu) = gpu_or_skip() else { return };
    let mut model = two_pose_model();
    let tri_pos = vec![[0.0, 0.0, 10.0], [0.0, 10.0, -10.0], [0.0, -10.0, -10.0]];
    let tri_nrm = vec![[1.0, 0.0, 0.0]; 3];
    let m = &mut model.meshes[0];
    m.positions = tri_pos.clone();
    m.normals = tri_nrm.clone();
    m.uvs = vec![[0.0, 0.0]; 3];
    m.triangles = vec![[0, 1, 2]];
    m.morph_targets = vec![MorphTarget {
        positions: tri_pos,
        normals: tri_nrm,
    }];
    model.frames.truncate(1);
    model.clips.clear();
    let at = |yaw: f32| {
        let view = View {
            camera: Camera {
                yaw,
                pitch: 0.0,
                ..Camera::default()
            },
            ..View::default()
        };
        coverage(&render(&gpu, &model, Pose::frame(0), &view, 64, 64))
    };
    let front = at(0.0);
    let back = at(180.0);
    eprintln!("front {front:.3} back {back:.3}");
    assert!(front > 0.1, "front face not drawn ({front})");
    assert_eq!(back, 0.0, "back face drawn");
}

/// The fixture md5mesh with every weight moved so that, taken to object space by its bind
/// joint, it lands on its vertex's bind position (as Doom 3's exporter writes weights). Only
/// then is matrix skinning (what GPUs and glTF do) the same as MD5's weight skinning.
fn landing_mesh() -> md5::MeshFile {
    let mut file = fixtures::skeleton_file();
    let joints = file.joints.clone();
    for mesh in &mut file.meshes {
        let mut bind = vec![[0.0; 3]; mesh.verts.len()];
        bind_positions(mesh, &joints, &mut bind);
        for (v, p) in mesh.verts.clone().iter().zip(bind) {
            let range = v.start_weight as usize..(v.start_weight + v.count_weight) as usize;
            for w in &mut mesh.weights[range] {
                let j = JointPose::from_joint(&joints[w.joint as usize]);
                w.pos = j.inverse().transform_point(p);
            }
        }
    }
    file
}

/// The generated md5mesh ([`landing_mesh`]) with the fixture md5anim attached.
fn md5_model() -> Model {
    let mut model = md5::mesh_to_model(&landing_mesh(), &[]).model;
    md5::attach_animation(&mut model, &fixtures::anim_file(), "wave").unwrap();
    model
}

/// Acceptance 2, skeletal: the GPU's skinning at a time between frames matches the positions
/// the core library skins on the CPU (`md5::anim::skin_positions` with `sample_global`),
/// drawn as a static mesh by the same pipeline.
#[test]
fn skinning_matches_cpu_skinned_positions() {
    let Some(gpu) = gpu_or_skip() else { return };
    let model = md5_model();
    let mesh_file = landing_mesh();
    let anim_file = fixtures::anim_file();
    let anim = Animation::new(&anim_file).unwrap();
    let mapping = match_joints(&mesh_file.joints, &anim_file).unwrap();
    let mut checked = 0;
    let framing = {
        let gpu_ref = &gpu;
        let renderer = retromodel_render::Renderer::new(gpu_ref, retromodel_render::Target::FORMAT);
        retromodel_render::GpuModel::new(gpu_ref, &renderer, &model)
            .unwrap()
            .framing()
    };
    for time in [0.0f32, 1.5 / 24.0, 0.07] {
        let mut global = vec![JointPose::IDENTITY; anim.joint_count()];
        anim.sample_global(time, Playback::Clamp, RootMotion::InPlace, &mut global);
        let mut pose = vec![JointPose::IDENTITY; mesh_file.joints.len()];
        gather(&global, &mapping, &mut pose);
        let mut cpu_model = model.clone();
        for (mesh, raw) in cpu_model.meshes.iter_mut().zip(&mesh_file.meshes) {
            let mut out = vec![[0.0; 3]; raw.verts.len()];
            skin_positions(raw, &pose, &mut out);
            mesh.positions = out.clone();
            mesh.morph_targets = vec![MorphTarget {
                positions: out,
                normals: mesh.normals.clone(),
            }];
        }
        // Flat light: positions are compared, not the normals (weight normals and matrix-
        // skinned normals are different approximations).
        for yaw in [0.0, 90.0, 180.0, 270.0] {
            let view = View {
                camera: Camera {
                    yaw,
                    pitch: 20.0,
                    ..Camera::default()
                },
                ambient: 1.0,
                diffuse: 0.0,
                framing: Some(framing),
                ..View::default()
            };
            let gpu_img = render(
                &gpu,
                &model,
                Pose::Skeletal {
                    animation: 0,
                    time,
                    looping: false,
                },
                &view,
                SIZE,
                SIZE,
            );
            let cpu_img = render(&gpu, &cpu_model, Pose::frame(0), &view, SIZE, SIZE);
            let (bad, worst) = diff(&gpu_img, &cpu_img, 8);
            let cov = coverage(&gpu_img);
            eprintln!(
                "t {time}: yaw {yaw}: coverage {cov:.3}, {bad} pixels differ (worst {worst})"
            );
            assert!(bad <= 8, "{bad} pixels differ (worst {worst})");
            if cov > 0.02 {
                checked += 1;
            }
        }
    }
    assert!(
        checked >= 3,
        "the skinned quad was visible in only {checked} views"
    );
}

/// Influences are merged per joint before anything else: a vertex with five entries on three
/// joints renders like the same vertex with the three merged weights (and stays on the
/// four-influence path; `skinning_all_weights.rs` checks vertices with more joints).
#[test]
fn five_entries_merge_per_joint() {
    let Some(gpu) = gpu_or_skip() else { return };
    let mut model = md5_model();
    let w = &mut model.meshes[0].joint_weights[0];
    *w = vec![(0, 0.3), (1, 0.3), (2, 0.2), (0, 0.1), (1, 0.1)].into();
    // Merged per joint: 0.4, 0.4, 0.2: renders like the same vertex with those weights.
    let mut same = model.clone();
    same.meshes[0].joint_weights[0] = vec![(0, 0.4), (1, 0.4), (2, 0.2)].into();
    let view = View::default();
    let pose = Pose::Skeletal {
        animation: 0,
        time: 0.05,
        looping: true,
    };
    let a = render(&gpu, &model, pose, &view, 64, 64);
    let b = render(&gpu, &same, pose, &view, 64, 64);
    assert_eq!(diff(&a, &b, 2).0, 0);
}

/// The fixture's `body` and `arm` joints ([`md5_model`]).
const BODY: usize = 1;
const ARM: usize = 2;

/// [`md5_model`] with weight scales (the Quake II re-release's `.md5scale`) on its three
/// frames: `body` at 0 in frame 0 (its share of every vertex collapses onto the joint),
/// `body` at 2 in frame 1 (weights only), `arm` at 1.5 in frame 2 with its animated position
/// scaled too (`scale_positions`).
fn scaled_md5_model() -> Model {
    let mut model = md5_model();
    assert_eq!(model.joints[BODY].name, "body");
    assert_eq!(model.joints[ARM].name, "arm");
    let anim = &mut model.animations[0];
    assert_eq!(anim.frames.len(), 3);
    let mut ws = WeightScales::unit(anim.frames.len(), model.joints.len());
    ws.frames[0][BODY] = 0.0;
    ws.frames[1][BODY] = 2.0;
    ws.frames[2][ARM] = 1.5;
    ws.scale_positions[ARM] = true;
    anim.weight_scales = Some(ws);
    model
}

/// The positions of `model`'s meshes in frame `f` of animation 0 by q2pro's weight skinning
/// with joint scales, from the animation's local frames by the independent formula of
/// `retromodel/tests/rerelease_formula` (issue 45: the expected poses came from the
/// library's own `PoseTrack`): a vertex at bind position `p` goes to
/// `Σ w · (G_j.pos + s_j · rotate(G_j.orient, B_j⁻¹ p))`, with `G` the joints' object-space
/// poses of the frame composed down the parents (an animated position times its scale where
/// `scale_positions` says so), `B` their bind poses and `s` the frame's scales.
fn q2pro_positions(model: &Model, f: usize) -> Vec<Vec<[f32; 3]>> {
    // The renderer plays root motion in place; the fixture's root does not move, so the
    // frame's poses are the ones drawn.
    assert_eq!(model.animations[0].frames[f][0].translation, [0.0; 3]);
    let mut flat = rerelease_formula::formula(model, 0, f).into_iter();
    model
        .meshes
        .iter()
        .map(|mesh| flat.by_ref().take(mesh.positions.len()).collect())
        .collect()
}

/// `model` with its meshes' positions replaced by `positions`, as a one-pose keyframe model
/// (drawn with `Pose::frame(0)`), normals kept.
fn static_model(model: &Model, positions: Vec<Vec<[f32; 3]>>) -> Model {
    let mut out = model.clone();
    for (mesh, pos) in out.meshes.iter_mut().zip(positions) {
        mesh.positions = pos.clone();
        mesh.morph_targets = vec![MorphTarget {
            positions: pos,
            normals: mesh.normals.clone(),
        }];
    }
    out
}

/// The inverse bind matrices of `model`'s joints.
fn inverse_binds(model: &Model) -> Vec<rmath::Mat4> {
    model
        .joints
        .iter()
        .map(|j| inverse_bind_matrix(&JointPose::new(j.translation, Quat::from_array(j.rotation))))
        .collect()
}

/// No GPU needed: matrix skinning with `joint_matrices_scaled` (what the renderer uploads)
/// gives q2pro's weight-scaled positions in every frame, and the scales move vertices.
#[test]
fn weight_scaled_matrices_match_q2pro_formula() {
    let model = scaled_md5_model();
    let track = PoseTrack::from_model(&model, 0).unwrap();
    let inverse_bind = inverse_binds(&model);
    let mut global = vec![JointPose::IDENTITY; track.joint_count()];
    let mut matrices = vec![rmath::IDENTITY; track.joint_count()];
    for f in 0..track.frame_count() {
        let time = f as f32 / track.frame_rate();
        track.sample_global(time, Playback::Clamp, RootMotion::InPlace, &mut global);
        let scales = track.weight_scales_at(time, Playback::Clamp);
        assert_eq!(scales, track.frame_weight_scales(f));
        joint_matrices_scaled(&global, &inverse_bind, scales, &mut matrices);
        let expected = q2pro_positions(&model, f);
        let unscaled = q2pro_positions(&md5_model(), f);
        let mesh = &model.meshes[0];
        let mut moved = 0.0f32;
        for (v, (p, list)) in mesh.positions.iter().zip(&mesh.joint_weights).enumerate() {
            let got = blend_point(&matrices, list, *p);
            let want = expected[0][v];
            let d = (0..3).map(|k| (got[k] - want[k]).abs()).fold(0.0, f32::max);
            assert!(d < 1e-3, "frame {f} vertex {v}: {got:?} vs q2pro {want:?}");
            let m = (0..3)
                .map(|k| (want[k] - unscaled[0][v][k]).abs())
                .fold(0.0, f32::max);
            moved = moved.max(m);
        }
        eprintln!("frame {f}: the scales move vertices by up to {moved:.2}");
        assert!(moved > 1.0, "frame {f}: the scales move nothing");
    }
}

/// The Quake II re-release's weight scales on the GPU: at each of the three frames (body at
/// scale 0, body at 2, arm at 1.5 with its position scaled), the renderer's joint matrices
/// are `joint_matrices_scaled`'s, and the GPU-skinned picture matches the positions skinned
/// on the CPU by q2pro's formula ([`q2pro_positions`]) drawn as a static mesh, with the
/// tolerance of [`skinning_matches_cpu_skinned_positions`]; the same frames without scales
/// draw visibly different pictures (so a renderer that ignores the scales fails).
#[test]
fn weight_scales_match_q2pro_skinning_per_frame() {
    let Some(gpu) = gpu_or_skip() else { return };
    let model = scaled_md5_model();
    let plain = md5_model();
    // The scaled joints carry a visible share of the quad.
    let carried = |j: usize| -> f32 {
        model.meshes[0]
            .joint_weights
            .iter()
            .flatten()
            .filter(|e| e.0 as usize == j)
            .map(|e| e.1)
            .sum()
    };
    let vertices = model.meshes[0].positions.len() as f32;
    eprintln!(
        "body carries {:.2}, arm {:.2} of {vertices} vertices' weight",
        carried(BODY),
        carried(ARM)
    );
    assert!(carried(BODY) >= 1.0 && carried(ARM) >= 0.5);
    let renderer = Renderer::new(&gpu, Target::FORMAT);
    let mut scene = GpuModel::new(&gpu, &renderer, &model).expect("upload");
    assert!(scene.warnings().is_empty(), "{:?}", scene.warnings());
    // Around every frame as drawn with the scales (body at 2 makes the quad larger).
    let framing = scene.framing_of_animation(0);
    let track = PoseTrack::from_model(&model, 0).unwrap();
    assert!(track.has_weight_scales());
    let inverse_bind = inverse_binds(&model);
    let mut global = vec![JointPose::IDENTITY; track.joint_count()];
    let mut expected = vec![rmath::IDENTITY; track.joint_count()];
    let mut checked = 0;
    for f in 0..track.frame_count() {
        let time = f as f32 / model.animations[0].fps;
        let pose = Pose::Skeletal {
            animation: 0,
            time,
            looping: false,
        };
        // The matrices the renderer uploads are the scaled ones.
        scene.prepare(&gpu, &pose);
        track.sample_global(time, Playback::Clamp, RootMotion::InPlace, &mut global);
        let scales = track.weight_scales_at(time, Playback::Clamp);
        assert_eq!(scales, track.frame_weight_scales(f));
        joint_matrices_scaled(&global, &inverse_bind, scales, &mut expected);
        assert_eq!(scene.joint_matrices().len(), expected.len());
        for (a, b) in scene.joint_matrices().iter().zip(&expected) {
            assert!(
                a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-4),
                "frame {f}: renderer matrix {a:?}, joint_matrices_scaled {b:?}"
            );
        }
        let cpu_model = static_model(&model, q2pro_positions(&model, f));
        let mut unscaled_differ = 0;
        // Flat light: positions are compared, not the normals, as in the unscaled test.
        for yaw in [0.0, 90.0, 180.0, 270.0] {
            let view = View {
                camera: Camera {
                    yaw,
                    pitch: 20.0,
                    ..Camera::default()
                },
                ambient: 1.0,
                diffuse: 0.0,
                framing: Some(framing),
                ..View::default()
            };
            let gpu_img = render(&gpu, &model, pose, &view, SIZE, SIZE);
            let cpu_img = render(&gpu, &cpu_model, Pose::frame(0), &view, SIZE, SIZE);
            let plain_img = render(&gpu, &plain, pose, &view, SIZE, SIZE);
            let (bad, worst) = diff(&gpu_img, &cpu_img, 8);
            let (changed, _) = diff(&gpu_img, &plain_img, 8);
            let cov = coverage(&gpu_img);
            eprintln!(
                "frame {f} (t {time:.4}) yaw {yaw}: coverage {cov:.3} (unscaled {:.3}); \
                 {bad} pixels differ from q2pro's positions (worst {worst}); {changed} from \
                 the unscaled frame",
                coverage(&plain_img)
            );
            assert!(
                bad <= 8,
                "frame {f} yaw {yaw}: {bad} pixels differ from q2pro's positions (worst {worst})"
            );
            unscaled_differ += changed;
            if cov > 0.02 {
                checked += 1;
            }
        }
        // Every frame's scales show; body at 0 (frame 0) changes the picture most.
        let least = if f == 0 { 200 } else { 50 };
        assert!(
            unscaled_differ > least,
            "frame {f}: the scaled picture differs from the unscaled one in only \
             {unscaled_differ} pixels"
        );
    }
    assert!(
        checked >= 6,
        "the skinned quad was visible in only {checked} views"
    );
}

/// A 16x16 RGBA skin: red on the left half, blue on the right.
fn red_blue_skin() -> retromodel::image::Image {
    let mut px = Vec::new();
    for _y in 0..16 {
        for x in 0..16 {
            px.extend(if x < 8 {
                [200, 30, 30, 255]
            } else {
                [30, 30, 200, 255]
            });
        }
    }
    retromodel::image::Image {
        width: 16,
        height: 16,
        pixels: retromodel::image::Pixels::Rgba8(px),
        encoded: None,
    }
}

/// Issue 41: Half-Life's chrome and additive textures as the renderer shows them. The
/// cube's vertices all sit on the skin's red half (u = 0.25) and its normals point away
/// from its centre: drawn plainly it is red only; chrome takes the coordinates from the
/// normals as seen from the camera, so the blue half shows too. Additive adds the cube's
/// colour to the background: no covered pixel is darker than the background in any
/// channel, where the plain cube's red pixels have less green and blue than it.
#[test]
fn chrome_and_additive_skins_draw_as_goldsrc_does() {
    let Some(gpu) = gpu_or_skip() else { return };
    let mut model = keyframe_model(vec![two_poses()[0].clone()]);
    let centre = [0.0, 0.0, 24.0];
    let mesh = &mut model.meshes[0];
    mesh.uvs = vec![[0.25, 0.5]; mesh.positions.len()];
    mesh.normals = mesh
        .positions
        .iter()
        .map(|p| {
            let d: [f32; 3] = std::array::from_fn(|k| p[k] - centre[k]);
            let len = d.iter().map(|x| x * x).sum::<f32>().sqrt();
            d.map(|x| x / len)
        })
        .collect();
    mesh.morph_targets[0].normals = mesh.normals.clone();
    model.skins[0].pictures = vec![red_blue_skin()];
    let view = View {
        background: [0.5, 0.5, 0.5, 1.0],
        camera: Camera {
            yaw: 30.0,
            pitch: 20.0,
            ..Camera::default()
        },
        ..View::default()
    };
    let draw = |effects: SkinEffects| {
        let mut m = model.clone();
        m.skin_effects = vec![effects];
        render(&gpu, &m, Pose::frame(0), &view, SIZE, SIZE)
    };
    let background = |img: &[u8]| -> [u8; 4] { img[..4].try_into().unwrap() };
    let covered = |img: &[u8]| -> Vec<[u8; 4]> {
        let bg = background(img);
        img.chunks_exact(4)
            .map(|p| -> [u8; 4] { p.try_into().unwrap() })
            .filter(|p| *p != bg)
            .collect()
    };
    let blue = |px: &[[u8; 4]]| px.iter().filter(|p| p[2] > p[0].saturating_add(20)).count();
    let plain = draw(SkinEffects::default());
    let chrome = draw(SkinEffects {
        chrome: true,
        additive: false,
    });
    let (plain_px, chrome_px) = (covered(&plain), covered(&chrome));
    eprintln!(
        "plain: {} pixels, {} blue; chrome: {} pixels, {} blue",
        plain_px.len(),
        blue(&plain_px),
        chrome_px.len(),
        blue(&chrome_px)
    );
    assert!(plain_px.len() > 1000, "the cube shows");
    assert_eq!(
        blue(&plain_px),
        0,
        "without chrome only the red half is sampled"
    );
    assert!(
        blue(&chrome_px) > chrome_px.len() / 10,
        "chrome samples where the normals point: the blue half shows"
    );
    let bg = background(&plain);
    let darker = |px: &[[u8; 4]]| {
        px.iter()
            .filter(|p| (0..3).any(|k| p[k].saturating_add(2) < bg[k]))
            .count()
    };
    let additive = draw(SkinEffects {
        chrome: false,
        additive: true,
    });
    let add_px = covered(&additive);
    eprintln!(
        "background {bg:?}: plain {} darker pixels, additive {} pixels, {} darker",
        darker(&plain_px),
        add_px.len(),
        darker(&add_px)
    );
    assert!(darker(&plain_px) > 1000);
    assert!(add_px.len() > 1000, "the additive cube shows");
    assert_eq!(darker(&add_px), 0, "additive only adds to the background");
    // Both together: chrome coordinates, added.
    let both = covered(&draw(SkinEffects {
        chrome: true,
        additive: true,
    }));
    assert!(blue(&both) > both.len() / 10 && darker(&both) == 0);
}
