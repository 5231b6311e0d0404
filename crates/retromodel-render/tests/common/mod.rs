//! Shared helpers of the GPU tests: adapter or skip, generated models, image comparison.
#![allow(dead_code)]

use std::sync::Arc;

use retromodel::image::{Image, Palette, Pixels, QUAKE_FULLBRIGHT_START};
use retromodel::model::{Clip, Frame, Mesh, Model, MorphTarget, Skin};
use retromodel_render::{Gpu, GpuModel, Pose, Renderer, Target, View};

/// Positions and normals of one pose.
pub type PoseData = (Vec<[f32; 3]>, Vec<[f32; 3]>);

/// A headless device, or `None` after printing that the test is skipped (a failure when
/// `RETROMODEL_REQUIRE_GPU` is set).
pub fn gpu_or_skip() -> Option<Gpu> {
    match Gpu::headless() {
        Ok(g) => {
            eprintln!("adapter: {}", g.adapter_name());
            Some(g)
        }
        Err(e) => {
            // CI installs a software driver and sets this, so a skip there is a failure.
            assert!(
                std::env::var_os("RETROMODEL_REQUIRE_GPU").is_none(),
                "RETROMODEL_REQUIRE_GPU is set but {e}"
            );
            eprintln!("no GPU adapter: skipped ({e})");
            None
        }
    }
}

/// Renders `pose` of `model` at `w` x `h`.
pub fn render(gpu: &Gpu, model: &Model, pose: Pose, view: &View, w: u32, h: u32) -> Vec<u8> {
    let renderer = Renderer::new(gpu, Target::FORMAT);
    let mut scene = GpuModel::new(gpu, &renderer, model).expect("upload");
    let mut target = Target::new(gpu, w, h);
    renderer
        .render_image(gpu, &mut scene, &mut target, &pose, view)
        .expect("render")
}

/// Share of pixels with alpha > 0.
pub fn coverage(rgba: &[u8]) -> f64 {
    let n = rgba.len() / 4;
    rgba.chunks_exact(4).filter(|p| p[3] > 0).count() as f64 / n as f64
}

/// Pixels whose largest channel difference exceeds `tol`, and the largest difference.
pub fn diff(a: &[u8], b: &[u8], tol: u8) -> (usize, u8) {
    assert_eq!(a.len(), b.len());
    let mut count = 0;
    let mut worst = 0;
    for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        let d = p.iter().zip(q).map(|(x, y)| x.abs_diff(*y)).max().unwrap();
        worst = worst.max(d);
        if d > tol {
            count += 1;
        }
    }
    (count, worst)
}

/// A 16x16 Quake-palette checker with a 4x4 block of fullbright texels (index 250).
pub fn checker_skin() -> Image {
    let mut indices = Vec::new();
    for y in 0..16u32 {
        for x in 0..16u32 {
            let i = if (4..8).contains(&x) && (4..8).contains(&y) {
                250
            } else if (x / 4 + y / 4) % 2 == 0 {
                111 // a light brown
            } else {
                47 // a blue-grey
            };
            indices.push(i);
        }
    }
    Image {
        width: 16,
        height: 16,
        pixels: Pixels::Indexed {
            indices,
            palette: Arc::new(Palette::QUAKE),
            fullbright_start: Some(QUAKE_FULLBRIGHT_START),
            transparent_index: None,
        },
        encoded: None,
    }
}

/// The six faces of a cube as `(outward normal, u, v)`, `u` and `v` spanning the face with
/// `u × v = normal`: triangles `(0, 2, 1), (0, 3, 2)` over the corners `-u-v, +u-v, +u+v,
/// -u+v` are clockwise seen from outside.
pub const CUBE_FACES: [([f32; 3], [f32; 3], [f32; 3]); 6] = [
    ([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]),
    ([-1.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 1.0, 0.0]),
    ([0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]),
    ([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]),
    ([0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]),
    ([0.0, 0.0, -1.0], [0.0, 1.0, 0.0], [1.0, 0.0, 0.0]),
];

/// One cube pose: 6 faces of 4 vertices (flat normals), triangles clockwise from outside.
fn cube(center: [f32; 3], half: [f32; 3], turn_deg: f32) -> PoseData {
    let (s, c) = turn_deg.to_radians().sin_cos();
    let rot = |v: [f32; 3]| [c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]];
    let mut pos = Vec::new();
    let mut nrm = Vec::new();
    for (n, u, v) in CUBE_FACES {
        for (a, b) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p: [f32; 3] = std::array::from_fn(|k| (n[k] + a * u[k] + b * v[k]) * half[k]);
            let p = rot(p);
            pos.push(std::array::from_fn(|k| p[k] + center[k]));
            nrm.push(rot(n));
        }
    }
    (pos, nrm)
}

/// Cube triangles: per face `(0, 2, 1), (0, 3, 2)`, clockwise seen from outside.
fn cube_triangles() -> Vec<[u32; 3]> {
    (0..6u32)
        .flat_map(|f| {
            let b = f * 4;
            [[b, b + 2, b + 1], [b, b + 3, b + 2]]
        })
        .collect()
}

/// A keyframe model from poses (positions, normals) with the checker skin, one clip at 10 fps.
pub fn keyframe_model(poses: Vec<PoseData>) -> Model {
    let n = poses[0].0.len();
    let uvs = (0..n)
        .map(|i| match i % 4 {
            0 => [0.0, 1.0],
            1 => [1.0, 1.0],
            2 => [1.0, 0.0],
            _ => [0.0, 0.0],
        })
        .collect();
    let frames = (0..poses.len())
        .map(|i| Frame {
            name: format!("move{}", i + 1),
            bounds_min: [0.0; 3],
            bounds_max: [0.0; 3],
            position_step: None,
        })
        .collect();
    let clips = vec![Clip {
        name: "move".into(),
        first: 0,
        count: poses.len(),
        fps: 10.0,
        frame_times: None,
    }];
    let mesh = Mesh {
        name: "cube".into(),
        positions: poses[0].0.clone(),
        normals: poses[0].1.clone(),
        uvs,
        triangles: cube_triangles(),
        morph_targets: poses
            .into_iter()
            .map(|(positions, normals)| MorphTarget { positions, normals })
            .collect(),
        source_vertices: (0..n as u32).collect(),
        skin: Some(0),
        joint_weights: Vec::new(),
        skin_size: Some([16, 16]),
    };
    Model {
        meshes: vec![mesh],
        frames,
        clips,
        skins: vec![Skin {
            source: None,
            name: String::new(),
            pictures: vec![checker_skin()],
            picture_times: None,
        }],
        ..Model::default()
    }
}

/// The two poses of the generated model: a cube, then a wider one turned by 40 degrees and
/// moved up and sideways.
pub fn two_poses() -> [PoseData; 2] {
    [
        cube([0.0, 0.0, 24.0], [16.0, 16.0, 16.0], 0.0),
        cube([0.0, 10.0, 32.0], [24.0, 12.0, 16.0], 40.0),
    ]
}

/// The generated two-pose model.
pub fn two_pose_model() -> Model {
    keyframe_model(two_poses().into())
}

/// Reads a PNG as RGBA8.
pub fn read_png(bytes: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(bytes);
    dec.set_transformations(png::Transformations::EXPAND);
    let mut reader = dec.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("png data");
    buf.truncate(info.buffer_size());
    assert_eq!(
        info.color_type,
        png::ColorType::Rgba,
        "golden PNGs are RGBA"
    );
    (info.width, info.height, buf)
}

/// Writes RGBA8 as a PNG.
pub fn write_png(path: &std::path::Path, w: u32, h: u32, rgba: &[u8]) {
    let bytes = retromodel::image::png::encode_rgba8(w, h, rgba).expect("encode");
    std::fs::write(path, bytes).expect("write golden");
}
