//! `retromodel convert` from glTF and OBJ into the model formats (issue 8), and MD5 baked
//! into MDL/MD2: outputs that read back, and bad inputs that fail with a clear message and
//! write nothing.

use std::path::Path;

use retromodel::formats::md2;
use retromodel::{Document, Limits, NoFiles};
use serde_json::json;

mod common;

use common::{assert_contains, run, run_ok, s, sample, text, write_file};

/// The model of the file at `path`, converted with the default options.
fn model_of(path: &Path) -> retromodel::model::Model {
    let bytes = std::fs::read(path).unwrap();
    let doc = Document::parse(&bytes, &Limits::default()).unwrap();
    doc.to_model(&Default::default(), &NoFiles).model
}

fn b64(data: &[u8]) -> String {
    const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in data.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= c.len() {
                out.push(A[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A flat `n` x `n` grid of quads as an embedded .gltf, with joints named `joint_name`
/// when given (one joint, every vertex on it).
fn grid_gltf(n: usize, joint_name: Option<&str>) -> String {
    let mut pos = Vec::new();
    let mut uv = Vec::new();
    for y in 0..=n {
        for x in 0..=n {
            pos.extend([x as f32, 0.0, y as f32]);
            uv.extend([x as f32 / n as f32, y as f32 / n as f32]);
        }
    }
    let mut idx: Vec<u32> = Vec::new();
    let w = (n + 1) as u32;
    for y in 0..n as u32 {
        for x in 0..n as u32 {
            let a = y * w + x;
            idx.extend([a, a + w, a + 1, a + 1, a + w, a + w + 1]);
        }
    }
    let verts = pos.len() / 3;
    let mut bin: Vec<u8> = pos.iter().flat_map(|f| f.to_le_bytes()).collect();
    let uv_at = bin.len();
    bin.extend(uv.iter().flat_map(|f| f.to_le_bytes()));
    let idx_at = bin.len();
    bin.extend(idx.iter().flat_map(|i| i.to_le_bytes()));
    let j_at = bin.len();
    bin.extend((0..verts).flat_map(|_| [0u8, 0, 0, 0]));
    let w_at = bin.len();
    bin.extend(
        (0..verts)
            .flat_map(|_| [1.0f32, 0.0, 0.0, 0.0])
            .flat_map(|f| f.to_le_bytes()),
    );
    let mut attributes = json!({"POSITION": 0, "TEXCOORD_0": 1});
    let mut doc = json!({
        "asset": {"version": "2.0"},
        "scene": 0,
        "scenes": [{"nodes": [0]}],
        "nodes": [{"name": "grid", "mesh": 0}],
        "buffers": [{"byteLength": bin.len(), "uri": format!("data:application/octet-stream;base64,{}", b64(&bin))}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": uv_at},
            {"buffer": 0, "byteOffset": uv_at, "byteLength": idx_at - uv_at},
            {"buffer": 0, "byteOffset": idx_at, "byteLength": j_at - idx_at},
            {"buffer": 0, "byteOffset": j_at, "byteLength": w_at - j_at},
            {"buffer": 0, "byteOffset": w_at, "byteLength": bin.len() - w_at}
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": verts, "type": "VEC3", "min": [0.0, 0.0, 0.0], "max": [n as f32, 0.0, n as f32]},
            {"bufferView": 1, "componentType": 5126, "count": verts, "type": "VEC2"},
            {"bufferView": 2, "componentType": 5125, "count": idx.len(), "type": "SCALAR"},
            {"bufferView": 3, "componentType": 5121, "count": verts, "type": "VEC4"},
            {"bufferView": 4, "componentType": 5126, "count": verts, "type": "VEC4"}
        ],
    });
    if let Some(name) = joint_name {
        attributes["JOINTS_0"] = json!(3);
        attributes["WEIGHTS_0"] = json!(4);
        doc["nodes"][0]["skin"] = json!(0);
        doc["nodes"]
            .as_array_mut()
            .unwrap()
            .push(json!({"name": name}));
        doc["scenes"][0]["nodes"] = json!([0, 1]);
        doc["skins"] = json!([{"joints": [1]}]);
    }
    doc["meshes"] = json!([{"primitives": [{"attributes": attributes, "indices": 2}]}]);
    serde_json::to_string_pretty(&doc).unwrap()
}

#[test]
fn gltf_grid_to_md2_mdl_and_md5() {
    let dir = tempfile::tempdir().unwrap();
    let gltf = write_file(dir.path(), "grid.gltf", grid_gltf(4, Some("root")));
    for ext in ["md2", "mdl", "md5mesh"] {
        let out_path = dir.path().join(format!("grid.{ext}"));
        let out = run(&["convert", s(&gltf), s(&out_path)]);
        assert!(out.status.success(), "{ext}: {}", text(&out.stderr));
        let bytes = std::fs::read(&out_path).unwrap();
        let doc = Document::parse(&bytes, &Limits::default()).unwrap();
        let model = doc.to_model(&Default::default(), &NoFiles).model;
        assert_eq!(model.triangle_count(), 32, "{ext}");
        if let Some(f) =
            (ext == "md2").then(|| md2::File::parse(&bytes, &Limits::default()).unwrap())
        {
            assert_eq!(
                f.glcmds_mismatch(true),
                None,
                "GL commands draw the triangle list"
            );
        }
    }
}

#[test]
fn bad_inputs_fail_clearly_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let fail = |input: &Path, output: &str, extra: &[&str], expect: &str| {
        let output = &dir.path().join(output);
        let mut args = vec!["convert", s(input), s(output)];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let err = text(&out.stderr);
        assert!(err.contains(expect), "expected {expect:?} in {err}");
        assert!(!output.exists(), "{} was written", output.display());
        let leftovers: Vec<_> = std::fs::read_dir(output.parent().unwrap())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    };
    // No mesh.
    let empty = write_file(dir.path(), "empty.gltf", r#"{"asset": {"version": "2.0"}}"#);
    fail(
        &empty,
        "empty.md2",
        &[],
        "gltf: the file has no mesh drawn as triangles",
    );
    // A texture that is not decodable.
    let jpeg = dir.path().join("jpeg.gltf");
    let mut doc: serde_json::Value = serde_json::from_str(&grid_gltf(2, None)).unwrap();
    doc["meshes"][0]["primitives"][0]["material"] = json!(0);
    doc["materials"] = json!([{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}}}]);
    doc["textures"] = json!([{"source": 0}]);
    doc["images"] = json!([{"uri": "skin.jpg"}]);
    std::fs::write(dir.path().join("skin.jpg"), [0xFF, 0xD8, 0xFF, 0xE0, 0, 0]).unwrap();
    std::fs::write(&jpeg, doc.to_string()).unwrap();
    fail(
        &jpeg,
        "jpeg.mdl",
        &[],
        "image 0: jpeg: corrupt data: Found a marker with invalid length:0 (convert it",
    );
    // ... which --skin replaces.
    let png = write_file(
        dir.path(),
        "skin.png",
        retromodel::image::png::encode_rgba8(8, 8, &[200u8; 256]).unwrap(),
    );
    let ok = dir.path().join("jpeg.mdl");
    run_ok(&["convert", s(&jpeg), s(&ok), "--skin", s(&png)]);
    let bytes = std::fs::read(&ok).unwrap();
    let f = retromodel::formats::quake_mdl::File::parse(&bytes, &Limits::default()).unwrap();
    assert_eq!((f.header.skinwidth, f.header.skinheight), (8, 8));
    // A joint name MD5 cannot write.
    let quoted = write_file(dir.path(), "quoted.gltf", grid_gltf(2, Some("bad\"name")));
    fail(
        &quoted,
        "quoted.md5mesh",
        &[],
        "md5mesh: joint 0: the name \"bad\\\"name\" cannot be written",
    );
    // Over Quake 2's limits with --strict: 49 x 49 = 2401 vertices (the limit is 2048).
    let big = write_file(dir.path(), "big.gltf", grid_gltf(48, None));
    fail(
        &big,
        "big.md2",
        &["--strict"],
        "md2: 2401 vertices exceed Quake 2's limit of 2048",
    );
    let out = run_ok(&["convert", s(&big), s(&dir.path().join("big.md2"))]);
    assert_contains(&out.stderr, "warning");
}

#[test]
fn quake_model_through_glb_and_back_keeps_frames() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = sample(dir.path(), "demo.mdl");
    let glb = dir.path().join("demo.glb");
    assert!(run(&["convert", s(&mdl), s(&glb)]).status.success());
    for ext in ["mdl", "md2"] {
        let back = dir.path().join(format!("back.{ext}"));
        run_ok(&["convert", s(&glb), s(&back)]);
        let a = model_of(&mdl);
        let b = model_of(&back);
        let names =
            |m: &retromodel::Model| m.frames.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
        if ext == "mdl" {
            // Quake MDL keeps the frame group with its times.
            assert_eq!(names(&a), names(&b), "{ext}");
        } else {
            // MD2 plays frames at 10 Hz: the group becomes frames at 10 fps, as long.
            let info = run_ok(&["info", "--json", s(&mdl)]);
            let info: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
            assert_eq!(b.frames.len() as u64, common::poses_at_10_fps(&info));
            assert_eq!(names(&a)[..5], names(&b)[..5], "{ext}");
        }
        assert_eq!(a.triangle_count(), b.triangle_count());
    }
    // --fps resamples: the sample's clips at 20 frames per second have about twice the frames.
    let fast = dir.path().join("fast.mdl");
    run_ok(&["convert", s(&glb), s(&fast), "--fps", "20"]);
    let a = model_of(&mdl);
    let c = model_of(&fast);
    assert!(
        c.frames.len() > a.frames.len(),
        "{} vs {}",
        c.frames.len(),
        a.frames.len()
    );
}

#[test]
fn md5_bakes_into_md2_and_goes_through_glb_to_md5() {
    let Some(corpus) = std::env::var_os("RETROMODEL_CORPUS") else {
        eprintln!("RETROMODEL_CORPUS is not set: skipped");
        return;
    };
    let mesh = Path::new(&corpus)
        .join("md5/debian-redeclipse-data/redeclipse/data/weapons/plasma/plasma.md5mesh");
    if !mesh.exists() {
        eprintln!("{} missing: skipped", mesh.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let md2_path = dir.path().join("plasma.md2");
    let out = run_ok(&["convert", s(&mesh), s(&md2_path)]);
    let err = text(&out.stderr);
    assert!(err.contains("skeletal animations baked into"), "{err}");
    let bytes = std::fs::read(&md2_path).unwrap();
    let f = md2::File::parse(&bytes, &Limits::default()).unwrap();
    assert!(f.frames.len() > 1, "{} frames", f.frames.len());
    let glb = dir.path().join("plasma.glb");
    assert!(run(&["convert", s(&mesh), s(&glb)]).status.success());
    let sub = dir.path().join("out");
    std::fs::create_dir(&sub).unwrap();
    let back = sub.join("plasma.md5mesh");
    run_ok(&["convert", s(&glb), s(&back)]);
    let anims: Vec<_> = std::fs::read_dir(&sub)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "md5anim"))
        .collect();
    assert!(!anims.is_empty(), "md5anims written beside the mesh");
    for a in anims {
        retromodel::formats::md5::parse_anim(&std::fs::read(a.path()).unwrap(), &Limits::default())
            .unwrap();
    }
}

#[test]
fn obj_converts_to_mdl() {
    let (dir, obj) = common::temp_file(
        "tri.obj",
        "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvt 1 1\nf 1/1 2/2 4/4 3/3\n",
    );
    let mdl = dir.path().join("tri.mdl");
    run_ok(&["convert", s(&obj), s(&mdl)]);
    let m = model_of(&mdl);
    assert_eq!(m.triangle_count(), 2);
}

#[test]
fn a_folder_of_gltf_and_obj_converts_to_mdl() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("sub")).unwrap();
    std::fs::write(src.join("grid.gltf"), grid_gltf(3, None)).unwrap();
    std::fs::write(
        src.join("sub/quad.obj"),
        "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n",
    )
    .unwrap();
    let out_dir = dir.path().join("out");
    run_ok(&["convert", s(&src), s(&out_dir), "--to", "mdl"]);
    for (path, triangles) in [("grid.mdl", 18), ("sub/quad.mdl", 2)] {
        let bytes = std::fs::read(out_dir.join(path)).unwrap();
        let m = Document::parse(&bytes, &Limits::default())
            .unwrap()
            .to_model(&Default::default(), &NoFiles)
            .model;
        assert_eq!(m.triangle_count(), triangles, "{path}");
    }
}
