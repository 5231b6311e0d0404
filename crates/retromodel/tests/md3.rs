//! MD3: generated fixtures written back byte for byte; Model values checked against the
//! formulas (computed here from the raw fields); tags as moving nodes; `.skin` files and
//! shader scripts; the writer from Models and the glTF round trip; exact error texts.
//!
//! The minimal fixture's layout: header 0..108, 2 frames 108..220, 2 x 1 tags 220..444, one
//! surface at 444: its header 444..552, one shader 552..620, 8 triangles 620..716, 6 texture
//! coordinates 716..764, 2 x 6 vertices 764..860 (`ofs_end`).
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::HashMap;

use common::set_i32;
use retromodel::formats::md3::{self, fixtures, File};
use retromodel::registry;
use retromodel::{ConvertOptions, ErrorKind, Limits, MemoryFiles, NoFiles, Resolver, WriteOptions};

fn parse(bytes: &[u8]) -> File<'_> {
    File::parse(bytes, &Limits::default()).expect("fixture parses")
}

fn minimal() -> Vec<u8> {
    let b = fixtures::minimal();
    assert_eq!(b.len(), 860, "the layout the offsets below assume");
    b
}

/// The normal ioquake3 decodes, computed here from the formula of `R_LoadMD3`.
fn engine_normal(n: u16) -> [f32; 3] {
    let lat = f64::from(n >> 8) * std::f64::consts::PI * 2.0 / 256.0;
    let lng = f64::from(n & 0xff) * std::f64::consts::PI * 2.0 / 256.0;
    [
        (lat.cos() * lng.sin()) as f32,
        (lat.sin() * lng.sin()) as f32,
        lng.cos() as f32,
    ]
}

fn close(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() <= tol)
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        assert_eq!(file.write(), bytes, "{name}");
        assert_eq!(file.clone().into_owned().write(), bytes, "{name} (owned)");
        assert_eq!(retromodel::detect(&bytes), Some(md3::MD3), "{name}");
    }
    // Every branch is there: holes, trailing data, reordered sections, a surface storing
    // more frames than the model, surfaces without and with several shaders, no surfaces.
    let all = fixtures::all();
    let every = parse(&all[1].1);
    assert!(every.gap_bytes() >= 8);
    assert!(every.header.ofs_surfaces < every.header.ofs_frames);
    assert!(every.surfaces.iter().any(|s| s.shaders.is_empty()));
    assert!(every.surfaces.iter().any(|s| s.shaders.len() == 2));
    assert!(every
        .surfaces
        .iter()
        .any(|s| s.header.num_frames > every.header.num_frames));
    assert!(parse(&all[3].1).surfaces.is_empty());
}

#[test]
fn model_values_follow_the_formulas() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        let model = md3::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
        model.validate().unwrap();
        assert_eq!(model.frames.len(), file.frames.len(), "{name}");
        assert_eq!(model.meshes.len(), file.surfaces.len(), "{name}");
        for (s, m) in file.surfaces.iter().zip(&model.meshes) {
            assert_eq!(m.name, s.name(), "{name}");
            assert_eq!(m.uvs, s.st, "{name}");
            let tris: Vec<[u32; 3]> = s.triangles.iter().map(|t| t.map(|i| i as u32)).collect();
            assert_eq!(m.triangles, tris, "{name}");
            for (f, target) in m.morph_targets.iter().enumerate() {
                let n = s.header.num_verts as usize;
                let raw = &s.xyz_normals[f * n..(f + 1) * n];
                for (v, xn) in raw.iter().enumerate() {
                    let want = xn.xyz.map(|c| f32::from(c) / 64.0);
                    assert_eq!(target.positions[v], want, "{name}: frame {f} vertex {v}");
                    assert!(
                        close(target.normals[v], engine_normal(xn.normal), 1e-5),
                        "{name}: normal {:?} vs {:?}",
                        target.normals[v],
                        engine_normal(xn.normal)
                    );
                }
            }
        }
        // Tags: origin and axes, frame by frame.
        assert_eq!(model.nodes.len(), file.header.num_tags as usize, "{name}");
        for (t, node) in model.nodes.iter().enumerate() {
            assert!(node.parts.is_empty());
            for f in 0..file.frames.len() {
                let tag = &file.frame_tags(f)[t];
                assert_eq!(node.name, md3::name_str(&tag.name));
                let tr = node.transform_at(f);
                assert_eq!(tr.translation, tag.origin, "{name}");
                let q = retromodel::math::Quat::from_array(tr.rotation);
                for (a, axis) in tag.axis.iter().enumerate() {
                    let mut unit = [0.0; 3];
                    unit[a] = 1.0;
                    assert!(
                        close(q.rotate(unit), *axis, 1e-5),
                        "{name}: tag {t} axis {a}"
                    );
                }
            }
        }
    }
}

#[test]
fn literal_values_of_the_octahedron() {
    let bytes = fixtures::minimal();
    let file = parse(&bytes);
    let model = md3::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    let m = &model.meshes[0];
    // Vertex 0 is +x at radius 8 in frame 0, 10 in frame 1 (512 and 640 sixty-fourths).
    assert_eq!(file.surfaces[0].xyz_normals[0].xyz, [512, 0, 0]);
    assert_eq!(m.morph_targets[0].positions[0], [8.0, 0.0, 0.0]);
    assert_eq!(m.morph_targets[1].positions[0], [10.0, 0.0, 0.0]);
    // +x is latitude 0, longitude 64 (a quarter turn from +z); -z is longitude 128.
    assert_eq!(file.surfaces[0].xyz_normals[0].normal, 64);
    assert_eq!(file.surfaces[0].xyz_normals[5].normal, 128);
    assert!(close(m.normals[0], [1.0, 0.0, 0.0], 1e-6));
    // Frame 1's tag is turned 10 degrees about z and one unit higher.
    let t = model.nodes[0].transform_at(1);
    assert_eq!(t.translation, [0.0, 0.0, 2.0]);
    let half = 5f32.to_radians();
    assert!(close(
        [t.rotation[2], t.rotation[3], t.rotation[0]],
        [half.sin(), half.cos(), 0.0],
        1e-6
    ));
}

#[test]
fn normals_encode_to_the_nearest_step() {
    let mut rng = common::Rng::for_name("md3 normals");
    for _ in 0..2000 {
        let v: [f32; 3] = std::array::from_fn(|_| (rng.below(2001) as f32 - 1000.0) / 1000.0);
        let len = v.iter().map(|c| c * c).sum::<f32>().sqrt();
        if len < 1e-3 {
            continue;
        }
        let n = v.map(|c| c / len);
        let back = md3::decode_normal(md3::encode_normal(n));
        let cos = n.iter().zip(&back).map(|(a, b)| a * b).sum::<f32>();
        // Half a step in each angle: at most about 2 degrees apart.
        assert!(cos > 2.2f32.to_radians().cos(), "{n:?} -> {back:?}");
    }
    assert_eq!(md3::encode_normal([0.0, 0.0, 1.0]), 0);
    assert_eq!(md3::encode_normal([0.0, 0.0, -1.0]), 128);
}

#[test]
fn invalid_files_give_exact_errors() {
    let err = |b: &[u8]| File::parse(b, &Limits::default()).expect_err("must fail");
    let cases: Vec<common::Case> = vec![
        (
            "bad magic",
            Box::new(|b| b[..4].copy_from_slice(b"IDP2")),
            ErrorKind::BadMagic,
            "md3: header: bad magic \"IDP2\": this is Quake 2 MD2 at offset 0x0",
        ),
        (
            "version",
            Box::new(|b| set_i32(b, 4, 16)),
            ErrorKind::UnsupportedVersion,
            "md3: header: unsupported version 16 (expected 15) at offset 0x4",
        ),
        (
            "negative frames",
            Box::new(|b| set_i32(b, 76, -1)),
            ErrorKind::BadCount,
            "md3: negative count num_frames = -1 at offset 0x4c",
        ),
        (
            "too many surfaces",
            Box::new(|b| set_i32(b, 84, 1 << 25)),
            ErrorKind::LimitExceeded,
            "md3: num_surfaces = 33554432 exceeds the limit of 16777216 at offset 0x54",
        ),
        (
            "ofs_end past the end",
            Box::new(|b| set_i32(b, 104, 861)),
            ErrorKind::Truncated,
            "md3: ofs_end = 861 is past the end of the file (860 bytes) at offset 0x68",
        ),
        (
            "frames past the end",
            Box::new(|b| set_i32(b, 92, 800)),
            ErrorKind::Truncated,
            "md3: frames at offset 800 with 112 bytes run past the end of the file (860 bytes) at offset 0x5c",
        ),
        (
            "tags at a negative offset",
            Box::new(|b| set_i32(b, 96, -4)),
            ErrorKind::Truncated,
            "md3: tags at offset -4 with 224 bytes run past the end of the file (860 bytes) at offset 0x60",
        ),
        (
            "surface past the end",
            Box::new(|b| set_i32(b, 100, 800)),
            ErrorKind::Truncated,
            "md3: surface 0: surface header at offset 800 runs past the end of the file (860 bytes) at offset 0x320",
        ),
        (
            "second surface past the end",
            Box::new(|b| set_i32(b, 84, 2)),
            ErrorKind::Truncated,
            "md3: surface 1: surface header at offset 860 runs past the end of the file (860 bytes) at offset 0x35c",
        ),
        (
            "surface vertices past the end",
            Box::new(|b| set_i32(b, 444 + 100, 400)),
            ErrorKind::Truncated,
            "md3: surface 0: vertices at offset 844 with 96 bytes run past the end of the file (860 bytes) at offset 0x220",
        ),
        (
            "negative vertex count",
            Box::new(|b| set_i32(b, 444 + 80, -6)),
            ErrorKind::BadCount,
            "md3: surface 0: negative count num_verts = -6 at offset 0x20c",
        ),
        (
            "triangle index out of range",
            Box::new(|b| set_i32(b, 620 + 4, 6)),
            ErrorKind::IndexOutOfRange,
            "md3: surface 0: vertex index 6 out of range (num_verts = 6) at offset 0x270",
        ),
        (
            "surface with fewer frames",
            Box::new(|b| set_i32(b, 444 + 72, 1)),
            ErrorKind::InvalidValue,
            "md3: surface 0: surface stores 1 frames of the model's 2 (the engine would read past its vertices) at offset 0x204",
        ),
        (
            "truncated header",
            Box::new(|b| b.truncate(60)),
            ErrorKind::Truncated,
            "md3: header: unexpected end of data (needed 64 bytes, 52 left) at offset 0x8",
        ),
    ];
    common::assert_cases(&minimal(), cases, err);
}

#[test]
fn validate_reports_what_ioquake3_refuses() {
    let mut file = parse(&minimal()).into_owned();
    assert!(
        md3::validate(&file).is_empty(),
        "{:?}",
        md3::validate(&file)
    );
    let s = &mut file.surfaces[0];
    s.st = vec![[0.0; 2]; 1000];
    s.xyz_normals = vec![Default::default(); 2000];
    file.relayout();
    let d = md3::validate(&file);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(
        d[0].message,
        "surface 0 (\"body\"): 1000 vertices; ioquake3 refuses more than 999 (\"has more than 999 verts\")"
    );
    file.frames.clear();
    file.surfaces.clear();
    file.tags.clear();
    file.relayout();
    let d = md3::validate(&file);
    assert_eq!(
        d[0].message,
        "no frames: ioquake3 refuses the model (\"has no frames\")"
    );
}

/// Writes `model` as MD3 through the registry and parses what comes out.
fn write_md3(model: &retromodel::Model) -> (Vec<u8>, registry::Output) {
    let writer = registry::writers()
        .find(|w| w.format == md3::MD3)
        .expect("MD3 writer");
    let out = registry::write_model(model, writer, &WriteOptions::default()).unwrap();
    (out.bytes.clone(), out)
}

#[test]
fn writing_a_model_back_keeps_positions_tags_and_names() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        let model = md3::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
        let (written, out) = write_md3(&model);
        let back = parse(&written);
        assert!(
            out.frame_errors.iter().all(|&e| e == 0.0),
            "{name}: {:?}",
            out.frame_errors
        );
        assert_eq!(back.frames.len(), file.frames.len().max(1), "{name}");
        assert_eq!(back.header.num_tags, file.header.num_tags, "{name}");
        for (a, b) in file.surfaces.iter().zip(&back.surfaces) {
            assert_eq!(a.name(), b.name(), "{name}");
            assert_eq!(a.triangles, b.triangles, "{name}");
            assert_eq!(a.st, b.st, "{name}");
            let n = a.header.num_verts as usize * file.frames.len();
            let pos =
                |s: &md3::Surface| s.xyz_normals[..n].iter().map(|v| v.xyz).collect::<Vec<_>>();
            assert_eq!(pos(a), pos(b), "{name}");
            assert_eq!(a.shader_names().next(), b.shader_names().next(), "{name}");
        }
        for (a, b) in file.tags.iter().zip(&back.tags) {
            assert_eq!(a.name, b.name);
            assert!(close(a.origin, b.origin, 1e-5), "{name}");
            for k in 0..3 {
                assert!(close(a.axis[k], b.axis[k], 1e-5), "{name}");
            }
        }
        // The written file is what ioquake3 accepts.
        assert!(
            md3::validate(&back)
                .iter()
                .all(|d| d.severity != retromodel::Severity::Error),
            "{name}"
        );
    }
}

#[test]
fn quantisation_error_is_reported_per_frame() {
    let bytes = fixtures::minimal();
    let file = parse(&bytes);
    let mut model = md3::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    model.meshes[0].morph_targets[1].positions[0][0] += 0.01;
    let (_, out) = write_md3(&model);
    assert_eq!(out.frame_errors[0], 0.0);
    // 10.01 is stored as 641/64 = 10.015625.
    let want = ((10.01f32 * 64.0).round() / 64.0 - 10.01).abs();
    assert!(
        (out.frame_errors[1] - want).abs() < 1e-6,
        "{:?}",
        out.frame_errors
    );
    // Beyond MD3's range: a clear error.
    model.meshes[0].morph_targets[1].positions[0][0] = 600.0;
    let writer = registry::writers().find(|w| w.format == md3::MD3).unwrap();
    let e = registry::write_model(&model, writer, &WriteOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "md3: mesh 0 vertex 0 frame 1: coordinate 600 is beyond MD3's range (±511.98438)"
    );
}

#[test]
fn gltf_round_trip_keeps_frames_and_moving_tags() {
    let bytes = fixtures::build(&fixtures::Spec {
        frames: 4,
        tags: vec!["tag_head", "tag_weapon"],
        surfaces: vec![("body", vec!["a.tga"]), ("legs", vec!["b.tga"])],
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let model = md3::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    // Float and quantised glTF (MD3's 1/64 grid is kept exactly).
    for quantize in [false, true] {
        let options = retromodel::interchange::gltf::GltfOptions {
            quantize,
            ..Default::default()
        };
        let (glb, _) = retromodel::interchange::gltf::to_glb(&model, &options).unwrap();
        let back = retromodel::interchange::gltf::read(&glb, &NoFiles, &Default::default())
            .unwrap()
            .model;
        md3_comes_back(&file, &model, &back);
    }
}

/// `back`, `model` (of `file`) through glTF and back, has the frames, meshes and moving
/// tags of `model` and writes an MD3 within a 1/64 step of `file`.
fn md3_comes_back(file: &File<'_>, model: &retromodel::Model, back: &retromodel::Model) {
    assert_eq!(back.frames.len(), 4);
    assert_eq!(back.meshes.len(), 2);
    assert_eq!(back.nodes.len(), 2);
    for (a, b) in model.nodes.iter().zip(&back.nodes) {
        assert_eq!(a.name, b.name);
        for f in 0..4 {
            let (x, y) = (a.transform_at(f), b.transform_at(f));
            assert!(close(x.translation, y.translation, 1e-4), "{f}");
            let dot: f32 = x.rotation.iter().zip(&y.rotation).map(|(p, q)| p * q).sum();
            assert!(
                dot.abs() > 1.0 - 1e-5,
                "{f}: {:?} {:?}",
                x.rotation,
                y.rotation
            );
        }
    }
    let (written, out) = write_md3(back);
    let again = parse(&written);
    assert!(
        out.frame_errors.iter().all(|&e| e <= 1.0 / 128.0),
        "{:?}",
        out.frame_errors
    );
    assert_eq!(again.header.num_tags, 2);
    assert_eq!(again.surfaces[0].name(), "body");
    for (a, b) in file.surfaces.iter().zip(&again.surfaces) {
        for (p, q) in a.xyz_normals.iter().zip(&b.xyz_normals) {
            assert!(
                p.xyz.iter().zip(&q.xyz).all(|(x, y)| (x - y).abs() <= 1),
                "{p:?} {q:?}"
            );
        }
    }
}

/// A resolver over named files that knows the model's name.
struct Game(MemoryFiles, &'static str);

impl Resolver for Game {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.0.load(name)
    }
    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        self.0.list_in(dir, extension)
    }
    fn model_name(&self) -> Option<String> {
        Some(self.1.to_string())
    }
}

fn tga(rgb: [u8; 3]) -> Vec<u8> {
    let mut b = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 24, 0];
    b.extend([rgb[2], rgb[1], rgb[0]]);
    b
}

#[test]
fn skins_come_from_skin_files_and_shader_scripts() {
    let bytes = fixtures::build(&fixtures::Spec {
        surfaces: vec![
            ("body", vec!["models/fixture/body.tga"]),
            ("h_head_1", vec![]),
            ("belt", vec!["models/fixture/belt"]),
        ],
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let mut files = HashMap::new();
    files.insert("models/fixture/body.tga".to_string(), tga([255, 0, 0]));
    files.insert("models/fixture/belt.jpg".to_string(), vec![0]); // not a picture
    files.insert(
        "models/fixture/belt_stage.tga".to_string(),
        tga([0, 255, 0]),
    );
    files.insert("models/fixture/red.tga".to_string(), tga([0, 0, 255]));
    files.insert(
        "scripts/fixture.shader".to_string(),
        b"models/fixture/belt\n{\n\t{\n\t\tmap $lightmap\n\t}\n\t{\n\t\tmap models/fixture/belt_stage.tga\n\t}\n}\n".to_vec(),
    );
    files.insert(
        "fixture_red.skin".to_string(),
        b"body,models/fixture/red.tga\nh_head,models/fixture/red.tga\ntag_weapon,\n".to_vec(),
    );
    let game = Game(MemoryFiles(files), "fixture.md3");
    // The default skin: no fixture_default.skin, so the surfaces' own shaders.
    let c = md3::to_model(&file, &ConvertOptions::default(), &game);
    let m = &c.model;
    assert_eq!(m.skins.len(), 2, "{:?}", c.warnings);
    assert_eq!(m.meshes[0].skin, Some(0));
    assert_eq!(m.meshes[1].skin, None); // no shader, no skin file
    assert_eq!(m.skins[0].pictures[0].to_rgba8()[..3], [255, 0, 0]);
    assert_eq!(m.skins[1].name, "models/fixture/belt");
    assert_eq!(m.skins[1].pictures[0].to_rgba8()[..3], [0, 255, 0]);
    assert!(m.skins[1]
        .source
        .as_deref()
        .unwrap()
        .contains("belt_stage.tga"));
    // The red skin: the .skin file names the shaders (h_head_1 matches h_head).
    let red = ConvertOptions {
        skin_name: Some("red".into()),
        ..Default::default()
    };
    let c = md3::to_model(&file, &red, &game);
    let m = &c.model;
    assert_eq!(m.meshes[0].skin, m.meshes[1].skin);
    let k = m.meshes[0].skin.unwrap();
    assert_eq!(m.skins[k].name, "models/fixture/red.tga");
    assert_eq!(m.skins[k].pictures[0].to_rgba8()[..3], [0, 0, 255]);
    // A skin that is not there is named.
    let blue = ConvertOptions {
        skin_name: Some("blue".into()),
        ..Default::default()
    };
    let c = md3::to_model(&file, &blue, &game);
    assert!(
        c.warnings.contains(
            &"skin \"blue\": no fixture_blue.skin beside the model; the surfaces' own shaders used"
                .to_string()
        ),
        "{:?}",
        c.warnings
    );
}

#[test]
fn degenerate_tag_axes_stay_at_the_origin() {
    // Found by fuzzing: a tag whose axes are denormal numbers gave a scale of ~1e-43.
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/regressions/md3_tag_denormal_axes.md3"),
    )
    .unwrap();
    let file = parse(&bytes);
    let c = md3::to_model(&file, &ConvertOptions::default(), &NoFiles);
    c.model.validate().unwrap();
    assert!(
        c.warnings.iter().any(|w| w
            == "tag 0: 2 frames with values that are not finite or axes that are no rotation; placed at the origin"),
        "{:?}",
        c.warnings
    );
}

#[test]
fn tags_without_frames_make_no_nodes() {
    // Found by fuzzing: num_tags = 1 with no frames (so no tag stored) panicked.
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/regressions/md3_tags_without_frames.md3"),
    )
    .unwrap();
    let file = parse(&bytes);
    assert!(file.frames.is_empty() && file.header.num_tags > 0);
    let c = md3::to_model(&file, &ConvertOptions::default(), &NoFiles);
    c.model.validate().unwrap();
    assert!(c.model.nodes.is_empty());
}

#[test]
fn a_surface_repeated_by_its_chain_is_charged_every_time() {
    // Found by fuzzing: 908 bytes whose one empty surface ends at its own start, with
    // num_surfaces = 16187137, so the chain repeats it; each repeat costs a mesh and a morph
    // target per frame in the Model. Under the fuzzing budget (half of 64 MiB + 16 x size) the
    // parse stops at the limit instead of building millions of meshes.
    let e = parse_under_fuzzing_budget("md3_repeated_empty_surfaces.md3");
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
    assert!(
        e.to_string()
            .contains("decoded data would exceed the allocation limit"),
        "{e}"
    );
}

#[test]
fn surfaces_repeated_with_many_shaders_are_charged() {
    // Found by fuzzing: 1252 bytes, one surface with 15 shaders repeated 19670 times by its
    // chain (85 MB of heap against the 67 MB fuzzing allowance): shaders are charged too.
    let e = parse_under_fuzzing_budget("md3_repeated_surface_with_shaders.md3");
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
}

/// Parses `tests/fuzz_inputs/NAME` under the fuzzing budget (half of 64 MiB + 8 x its size),
/// which it must exceed.
fn parse_under_fuzzing_budget(name: &str) -> retromodel::Error {
    let bytes = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fuzz_inputs")
            .join(name),
    )
    .unwrap();
    let limits = Limits {
        max_alloc_bytes: (64 << 20) / 2 + 8 * bytes.len() as u64,
        ..Limits::default()
    };
    File::parse(&bytes, &limits).unwrap_err()
}

#[test]
fn animation_cfg_numbers_are_bounded() {
    use md3::player::AnimationCfg;
    let mut cfg = String::from("sex m\n");
    for _ in 0..25 {
        cfg.push_str("0 10 0 15\n");
    }
    assert!(AnimationCfg::parse(cfg.as_bytes()).is_ok());
    // A huge first frame or count is refused with its line, not overflowed or allocated.
    let huge = cfg.replacen("0 10 0 15", "2147483647 2 0 20", 1);
    let e = AnimationCfg::parse(huge.as_bytes()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "animation.cfg: 2147483647 is out of range (at most 100000 either way) at line 2:1"
    );
    let long = cfg.replacen("0 10 0 15", "0 100000 0 15", 1);
    let c = AnimationCfg::parse(long.as_bytes()).unwrap();
    // Assembly cuts such an entry to the parts' frames (here 2), with a warning.
    let bytes = fixtures::build(&fixtures::Spec {
        tags: vec!["tag_torso", "tag_head", "tag_weapon"],
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let part = md3::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    let out = md3::player::assemble(
        md3::player::Parts {
            lower: &part,
            upper: &part,
            head: &part,
            weapon: None,
        },
        Some(&c),
    )
    .unwrap();
    assert!(
        out.warnings.contains(
            &"BOTH_DEATH1: 100000 frames, more than the parts have (2); cut to 2".to_string()
        ),
        "{:?}",
        out.warnings
    );
    assert_eq!(out.model.clips[0].count, 2);
}
