//! Issue 8, criterion 2 (and 4): a skinned, animated glTF made outside the project's
//! exporter (built here by hand: JSON with `serde_json`, binary chunk with `f32`s) converts
//! to MD2 and MDL whose frames match the animation sampled at the same times, computed here
//! in closed form, to within one quantisation step; the MD2's GL commands draw exactly its
//! triangle list. Also the importer's error texts for bad files.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]

use retromodel::formats::{md2, quake_mdl};
use retromodel::interchange::{gltf, ImportOptions};
use retromodel::model::bake::bake_skeletal_with;
use retromodel::{Document, ErrorKind, Limits, NoFiles, WriteOptions};
use serde_json::json;

mod common;
mod texture_fixtures;

use common::glb;

/// Column of a box from y = 0 to 2 (Y-up), four vertices per ring at y = 0, 1, 2.
fn rings() -> Vec<[f32; 3]> {
    let mut v = Vec::new();
    for y in [0.0, 1.0, 2.0] {
        for (x, z) in [(-0.25, -0.25), (0.25, -0.25), (0.25, 0.25), (-0.25, 0.25)] {
            v.push([x, y, z]);
        }
    }
    v
}

/// Weight of the child joint: 0 at the bottom ring, 0.5 in the middle, 1 at the top.
fn child_weight(v: usize) -> f32 {
    [0.0, 0.5, 1.0][v / 4]
}

/// The sides of the column, counter-clockwise seen from outside.
fn triangles() -> Vec<[u16; 3]> {
    let mut t = Vec::new();
    for ring in 0..2u16 {
        for k in 0..4u16 {
            let (a, b) = (ring * 4 + k, ring * 4 + (k + 1) % 4);
            let (c, d) = (a + 4, b + 4);
            t.push([a, b, d]);
            t.push([a, d, c]);
        }
    }
    t
}

/// The rig: root joint moves along x by `t` units; the child joint (at y = 1 above it)
/// turns about z by 90° per second. Keys at 0, 0.5 and 1 s, linear.
fn skinned_glb() -> Vec<u8> {
    let mut bin: Vec<u8> = Vec::new();
    let mut views = Vec::new();
    let mut accessors = Vec::new();
    let mut push = |bytes: Vec<u8>, acc: serde_json::Value| -> usize {
        while !bin.len().is_multiple_of(4) {
            bin.push(0);
        }
        views.push(json!({"buffer": 0, "byteOffset": bin.len(), "byteLength": bytes.len()}));
        bin.extend_from_slice(&bytes);
        let mut acc = acc;
        acc["bufferView"] = json!(views.len() - 1);
        accessors.push(acc);
        accessors.len() - 1
    };
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let pos = rings();
    let flat: Vec<f32> = pos.iter().flatten().copied().collect();
    let p = push(
        f32s(&flat),
        json!({"componentType": 5126, "count": pos.len(), "type": "VEC3",
        "min": [-0.25, 0.0, -0.25], "max": [0.25, 2.0, 0.25]}),
    );
    let uv: Vec<f32> = (0..pos.len())
        .flat_map(|v| [(v % 4) as f32 / 4.0, (v / 4) as f32 / 2.0])
        .collect();
    let u = push(
        f32s(&uv),
        json!({"componentType": 5126, "count": pos.len(), "type": "VEC2"}),
    );
    let joints: Vec<u8> = (0..pos.len()).flat_map(|_| [0u8, 1, 0, 0]).collect();
    let j = push(
        joints,
        json!({"componentType": 5121, "count": pos.len(), "type": "VEC4"}),
    );
    let w: Vec<f32> = (0..pos.len())
        .flat_map(|v| [1.0 - child_weight(v), child_weight(v), 0.0, 0.0])
        .collect();
    let wt = push(
        f32s(&w),
        json!({"componentType": 5126, "count": pos.len(), "type": "VEC4"}),
    );
    let idx: Vec<u8> = triangles()
        .iter()
        .flatten()
        .flat_map(|i| i.to_le_bytes())
        .collect();
    let i = push(
        idx,
        json!({"componentType": 5123, "count": triangles().len() * 3, "type": "SCALAR"}),
    );
    // Inverse bind matrices: root at the origin, child at y = 1.
    #[rustfmt::skip]
    let ibm = [
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
        1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, -1.0, 0.0, 1.0f32,
    ];
    let m = push(
        f32s(&ibm),
        json!({"componentType": 5126, "count": 2, "type": "MAT4"}),
    );
    let times = push(
        f32s(&[0.0, 0.5, 1.0]),
        json!({"componentType": 5126, "count": 3, "type": "SCALAR", "min": [0.0], "max": [1.0]}),
    );
    let tr = push(
        f32s(&[0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 1.0, 0.0, 0.0]),
        json!({"componentType": 5126, "count": 3, "type": "VEC3"}),
    );
    let (s45, c45) = (22.5f32.to_radians().sin(), 22.5f32.to_radians().cos());
    let (s90, c90) = (45f32.to_radians().sin(), 45f32.to_radians().cos());
    let rot = push(
        f32s(&[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, s45, c45, 0.0, 0.0, s90, c90]),
        json!({"componentType": 5126, "count": 3, "type": "VEC4"}),
    );
    let doc = json!({
        "asset": {"version": "2.0", "generator": "hand-made test rig"},
        "scene": 0,
        "scenes": [{"nodes": [0, 1]}],
        "nodes": [
            {"name": "column", "mesh": 0, "skin": 0},
            {"name": "root", "children": [2]},
            {"name": "child", "translation": [0.0, 1.0, 0.0]}
        ],
        "meshes": [{"name": "column", "primitives": [{"attributes": {
            "POSITION": p, "TEXCOORD_0": u, "JOINTS_0": j, "WEIGHTS_0": wt}, "indices": i}]}],
        "skins": [{"joints": [1, 2], "inverseBindMatrices": m}],
        "animations": [{"name": "bend", "samplers": [
            {"input": times, "output": tr, "interpolation": "LINEAR"},
            {"input": times, "output": rot, "interpolation": "LINEAR"}],
            "channels": [
                {"sampler": 0, "target": {"node": 1, "path": "translation"}},
                {"sampler": 1, "target": {"node": 2, "path": "rotation"}}]}],
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": views,
        "accessors": accessors,
    });
    glb(&doc, &bin)
}

/// Where vertex `v` is at time `t`, Z-up: linear blend of the root's and the child's motion.
fn expected(v: usize, t: f32) -> [f32; 3] {
    let p = rings()[v];
    let w = child_weight(v);
    let a = (90.0 * t).to_radians();
    // Child: rotate about z around the pivot (0, 1, 0), then the root's translation.
    let (x, y) = (p[0], p[1] - 1.0);
    let turned = [
        x * a.cos() - y * a.sin(),
        x * a.sin() + y * a.cos() + 1.0,
        p[2],
    ];
    let blended: [f32; 3] = std::array::from_fn(|k| (1.0 - w) * p[k] + w * turned[k]);
    let y_up = [blended[0] + t, blended[1], blended[2]];
    [y_up[0], -y_up[2], y_up[1]]
}

#[test]
fn hand_made_skinned_gltf_becomes_md2_and_mdl_frames() {
    let bytes = skinned_glb();
    let imported = gltf::read(&bytes, &NoFiles, &ImportOptions::default()).unwrap();
    let model = &imported.model;
    // One clip at 10 frames per second from 0 to 1 s inclusive.
    assert_eq!(model.frames.len(), 11);
    assert_eq!(model.clips.len(), 1);
    assert_eq!(
        (model.clips[0].name.as_str(), model.clips[0].count),
        ("bend", 11)
    );
    assert_eq!(model.frames[3].name, "bend4");
    assert_eq!(model.joints.len(), 2);
    assert_eq!(model.animations.len(), 1);
    let limits = Limits::default();
    let o = WriteOptions::default();
    let md2_bytes = md2::from_model(model, &o).unwrap().file.write();
    let mdl_bytes = quake_mdl::from_model(model, &o).unwrap().file.write();
    for bytes in [md2_bytes, mdl_bytes] {
        let doc = Document::parse(&bytes, &limits).unwrap();
        let steps: Vec<[f32; 3]> = match md2::File::parse(&bytes, &limits) {
            Ok(f) => {
                assert_eq!(f.glcmds_mismatch(true), None, "GL commands");
                assert_eq!(f.glcmds.triangle_count(), 16);
                f.frames.iter().map(|fr| fr.scale).collect()
            }
            Err(_) => {
                let f = quake_mdl::File::parse(&bytes, &limits).unwrap();
                vec![f.header.scale; f.pose_count()]
            }
        };
        let back = doc.to_model(&Default::default(), &NoFiles).model;
        assert_eq!(back.frames.len(), 11);
        assert_eq!(back.triangle_count(), 16);
        let mesh = &back.meshes[0];
        let mut worst = 0f32;
        for (f, step) in steps.iter().enumerate() {
            let t = f as f32 / 10.0;
            for (k, &sv) in mesh.source_vertices.iter().enumerate() {
                let want = expected(sv as usize, t);
                let got = mesh.morph_targets[f].positions[k];
                for ax in 0..3 {
                    let d = (want[ax] - got[ax]).abs();
                    worst = worst.max(d / step[ax]);
                    assert!(
                        d <= step[ax] + 1e-5,
                        "{}: frame {f} vertex {sv} axis {ax}: want {want:?} got {got:?} (step {})",
                        doc.format().name(),
                        step[ax]
                    );
                }
            }
        }
        eprintln!("{}: worst error {worst:.3} steps", doc.format().name());
    }
}

#[test]
fn model_vertex_order_follows_the_file() {
    // The importer keeps vertex i of the primitive as mesh vertex i.
    let model = gltf::read(&skinned_glb(), &NoFiles, &ImportOptions::default())
        .unwrap()
        .model;
    for (v, p) in model.meshes[0].positions.iter().enumerate() {
        let want = expected(v, 0.0);
        assert!(
            (0..3).all(|k| (p[k] - want[k]).abs() < 1e-6),
            "{v}: {p:?} vs {want:?}"
        );
    }
}

#[test]
fn keyframes_and_skeletal_samples_share_the_sampled_frame_limit() {
    let bytes = skinned_glb();
    let at = |fps: f32, max_sampled_frames: u32| ImportOptions {
        fps: Some(fps),
        limits: Limits {
            max_sampled_frames,
            ..Limits::default()
        },
        ..ImportOptions::default()
    };
    // At 10 fps: 11 keyframe poses, then 11 skeletal samples.
    let c = gltf::read(&bytes, &NoFiles, &at(10.0, 22)).unwrap();
    assert_eq!(
        (c.model.frames.len(), c.model.animations[0].frames.len()),
        (11, 11)
    );
    assert_eq!(
        gltf::read(&bytes, &NoFiles, &at(10.0, 21))
            .unwrap_err()
            .to_string(),
        "gltf: animation \"bend\": its keys span 1 s (from 0 s to 1 s); sampled at 10 fps \
         that is 11 frames (22 with the 11 sampled before it), more than the limit of 21 \
         sampled frames (Limits::max_sampled_frames); a lower frame rate (--fps) samples fewer"
    );
    assert_eq!(
        gltf::read(&bytes, &NoFiles, &at(10.0, 10))
            .unwrap_err()
            .to_string(),
        "gltf: animation \"bend\": its keys span 1 s (from 0 s to 1 s); sampled at 10 fps \
         that is 11 frames, more than the limit of 10 sampled frames \
         (Limits::max_sampled_frames); a lower frame rate (--fps) samples fewer"
    );
    // Baking resamples under the same limit, and charges its frames first.
    let model = gltf::read(&bytes, &NoFiles, &ImportOptions::default())
        .unwrap()
        .model;
    let limits = |max_sampled_frames: u32, max_alloc_bytes: u64| Limits {
        max_sampled_frames,
        max_alloc_bytes,
        ..Limits::default()
    };
    let baked = bake_skeletal_with(&model, Some(100.0), &limits(101, 1 << 30)).unwrap();
    assert_eq!(baked.model.frames.len(), 101);
    assert_eq!(
        bake_skeletal_with(&model, Some(100.0), &limits(100, 1 << 30))
            .unwrap_err()
            .to_string(),
        "bake: animation \"bend\": 1 s resampled at 100 fps is 101 frames, more than the \
         limit of 100 sampled frames (Limits::max_sampled_frames); a lower frame rate (--fps) \
         samples fewer"
    );
    let e = bake_skeletal_with(&model, Some(100.0), &limits(101, 1000)).unwrap_err();
    assert_eq!(
        (e.kind, e.to_string().split(" (").next().unwrap()),
        (
            ErrorKind::LimitExceeded,
            "bake: animation \"bend\": 101 frames"
        )
    );
}

fn error_of(bytes: &[u8]) -> String {
    gltf::read(bytes, &NoFiles, &ImportOptions::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn bad_files_give_clear_errors() {
    let empty = json!({"asset": {"version": "2.0"}});
    assert_eq!(
        error_of(&glb(&empty, &[])),
        "gltf: the file has no mesh drawn as triangles"
    );
    assert_eq!(
        error_of(&serde_json::to_vec(&empty).unwrap()),
        "gltf: the file has no mesh drawn as triangles"
    );
    assert!(error_of(b"{ nope").starts_with("gltf: "));
    // A JPEG texture that is cut off.
    let (doc, data) = one_textured_triangle(&[0xFF, 0xD8, 0xFF, 0xE0]);
    assert_eq!(
        error_of(&glb(&doc, &data)),
        "gltf: image 0: jpeg: data ends early: Not enough bytes, expected 2 but found 0 (convert it, or give the skin with --skin)"
    );
    // The same file with textures skipped reads.
    let skip = ImportOptions {
        skip_textures: true,
        ..Default::default()
    };
    assert!(gltf::read(&glb(&doc, &data), &NoFiles, &skip).is_ok());
    // An accessor running past its buffer view.
    let mut short = doc.clone();
    short["accessors"][0]["count"] = json!(4);
    short["accessors"][0]["min"] = json!([0.0, 0.0, 0.0]);
    assert_eq!(
        gltf::read(&glb(&short, &data), &NoFiles, &skip).unwrap_err().to_string(),
        "gltf: mesh 0 primitive 0: POSITION (accessor 0): 4 elements from byte 0 run past buffer view 0 (36 bytes)"
    );
}

/// A glTF document with one triangle whose base-colour texture is the JPEG `picture`, and its
/// binary buffer (positions, then the picture).
fn one_textured_triangle(picture: &[u8]) -> (serde_json::Value, Vec<u8>) {
    let mut data: Vec<u8> = [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .collect();
    data.extend_from_slice(picture);
    let doc = json!({
        "asset": {"version": "2.0"},
        "scenes": [{"nodes": [0]}], "nodes": [{"mesh": 0}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "material": 0}]}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}],
        "textures": [{"source": 0}],
        "images": [{"bufferView": 1, "mimeType": "image/jpeg"}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
            "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]}],
        "bufferViews": [{"buffer": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": picture.len()}],
        "buffers": [{"byteLength": data.len()}],
    });
    (doc, data)
}

/// A glTF whose base-colour texture is a JPEG: accepted and decoded (to RGBA8).
#[test]
fn jpeg_textures_are_decoded() {
    let (w, h) = (24u32, 16u32);
    let jpeg = texture_fixtures::jpeg(&texture_fixtures::gradient(w, h), w, h, false, false);
    let (doc, data) = one_textured_triangle(&jpeg);
    let c = gltf::read(&glb(&doc, &data), &NoFiles, &ImportOptions::default()).unwrap();
    let skin = &c.model.skins[0];
    let picture = &skin.pictures[0];
    assert_eq!((picture.width, picture.height), (w, h));
    let retromodel::image::Pixels::Rgba8(rgba) = &picture.pixels else {
        panic!("RGBA8 expected");
    };
    // The gradient survives JPEG within its loss: compare with the source pixels.
    let src = texture_fixtures::gradient(w, h);
    let worst = rgba
        .chunks_exact(4)
        .zip(src.chunks_exact(3))
        .flat_map(|(a, b)| (0..3).map(move |c| (i32::from(a[c]) - i32::from(b[c])).abs()))
        .max()
        .unwrap();
    assert!(worst <= 40, "largest channel difference {worst}");
    assert_eq!(c.model.meshes[0].skin, Some(0));
}

#[test]
fn truncated_and_flipped_glb_never_panic() {
    let bytes = skinned_glb();
    let limits = ImportOptions::default();
    for cut in 0..bytes.len() {
        let _ = gltf::read(&bytes[..cut], &NoFiles, &limits);
    }
    let mut rng = 0x2545F4914F6CDD1Du64;
    for i in (0..bytes.len()).cycle().take(bytes.len() * 64) {
        let mut m = bytes.clone();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        m[i] ^= 1 << (rng % 8);
        if let Ok(c) = gltf::read(&m, &NoFiles, &limits) {
            assert!(c.model.validate().is_ok());
        }
    }
}

/// A cut GLB names where it ends: past the header's total length, or inside a chunk whose
/// declared length runs past the file (issue 43: a truncated compressed file).
#[test]
fn a_cut_glb_says_where() {
    let bytes = skinned_glb();
    let limits = ImportOptions::default();
    let err = |b: &[u8]| {
        gltf::read(b, &NoFiles, &limits)
            .expect_err("an error")
            .to_string()
    };
    let cut = bytes.len() - 10;
    assert_eq!(
        err(&bytes[..cut]),
        format!(
            "gltf: GLB header: total length {} is past the end of the file ({cut} bytes) at offset 0x8",
            bytes.len()
        )
    );
    // The same cut with the header's length mended: the BIN chunk is the one cut short.
    let mut short = bytes[..cut].to_vec();
    short[8..12].copy_from_slice(&(cut as u32).to_le_bytes());
    let json_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let bin_at = 20 + json_len;
    let bin_len = u32::from_le_bytes(bytes[bin_at..bin_at + 4].try_into().unwrap());
    assert_eq!(
        err(&short),
        format!(
            "gltf: GLB chunk \"BIN\": {bin_len} bytes declared, {} left in the file at offset {bin_at:#x}",
            bin_len - 10
        )
    );
}
