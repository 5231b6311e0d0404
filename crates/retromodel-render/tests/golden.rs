//! Golden images of generated models (no corpus pixels are committed): rendered headless at
//! fixed settings and compared with the PNGs in `tests/golden/` within a tolerance (llvmpipe
//! and hardware GPUs may differ by a little at edges). `RETROMODEL_BLESS=1` rewrites them.
//! Skipped with "no GPU adapter: skipped" when there is no adapter.

mod common;

use std::path::PathBuf;

use common::*;
use retromodel::formats::md5::{self, fixtures};
use retromodel_render::timing::KeyPose;
use retromodel_render::{Camera, Pose, View};

const SIZE: u32 = 96;

fn check(gpu: &retromodel_render::Gpu, name: &str, rgba: &[u8]) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(format!("{name}.png"));
    if std::env::var_os("RETROMODEL_BLESS").is_some() || !path.exists() {
        write_png(&path, SIZE, SIZE, rgba);
        eprintln!("{}: written", path.display());
        if std::env::var_os("RETROMODEL_BLESS").is_none() {
            panic!(
                "{}: golden image was missing; written, check it in",
                path.display()
            );
        }
        return;
    }
    let (w, h, want) = read_png(&std::fs::read(&path).unwrap());
    assert_eq!((w, h), (SIZE, SIZE), "{name}: golden size");
    let (bad, worst) = diff(rgba, &want, 24);
    eprintln!(
        "{name} on {}: {bad} of {} pixels differ by more than 24 (worst {worst})",
        gpu.adapter_name(),
        SIZE * SIZE
    );
    // 1% of the pixels may differ (edge rasterisation on other adapters).
    assert!(
        bad <= (SIZE * SIZE / 100) as usize,
        "{name}: {bad} pixels differ from {} (worst {worst}); RETROMODEL_BLESS=1 rewrites",
        path.display()
    );
}

#[test]
fn golden_keyframe_cube_frame0() {
    let Some(gpu) = gpu_or_skip() else { return };
    let img = render(
        &gpu,
        &two_pose_model(),
        Pose::frame(0),
        &View::default(),
        SIZE,
        SIZE,
    );
    assert!(coverage(&img) > 0.1);
    check(&gpu, "cube_frame0", &img);
}

#[test]
fn golden_keyframe_cube_blend_wireframe() {
    let Some(gpu) = gpu_or_skip() else { return };
    let view = View {
        wireframe: true,
        camera: Camera {
            yaw: -60.0,
            pitch: 30.0,
            ..Camera::default()
        },
        ..View::default()
    };
    let pose = Pose::Keyframe(KeyPose {
        a: 0,
        b: 1,
        blend: 0.5,
    });
    let img = render(&gpu, &two_pose_model(), pose, &view, SIZE, SIZE);
    check(&gpu, "cube_blend_wire", &img);
}

#[test]
fn golden_md5_skinned() {
    let Some(gpu) = gpu_or_skip() else { return };
    let mut model = md5::mesh_to_model(&fixtures::skeleton_file(), &[]).model;
    md5::attach_animation(&mut model, &fixtures::anim_file(), "wave").unwrap();
    let view = View {
        camera: Camera {
            yaw: 120.0,
            pitch: 10.0,
            ..Camera::default()
        },
        ..View::default()
    };
    let pose = Pose::Skeletal {
        animation: 0,
        time: 0.05,
        looping: true,
    };
    let img = render(&gpu, &model, pose, &view, SIZE, SIZE);
    assert!(coverage(&img) > 0.01);
    check(&gpu, "md5_skinned", &img);
}
