//! IQM: every corpus file parses, writes back byte for byte and agrees with the independent
//! parser's `HEADERS.jsonl`; the triangles' winding agrees with the stored normals; the
//! fixtures cover every branch, decode by value and go through the Model and back; invalid
//! files fail with their exact messages.

mod common;

use retromodel::formats::iqm::{self, fixtures, ArrayType, ComponentFormat, File};
use retromodel::{math, ErrorKind, Limits};

fn parse(bytes: &[u8]) -> File<'_> {
    File::parse(bytes, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn corpus_iqm_files() {
    let Some(dir) = common::corpus("IQM corpus test") else {
        return;
    };
    let headers = common::headers(&dir);
    let mut seen = 0;
    let (mut agree, mut total) = (0usize, 0usize);
    for (rel, h) in headers.iter().filter(|(_, h)| h["format"] == "iqm") {
        let path = dir.join(rel);
        let what = rel.clone();
        let bytes = std::fs::read(&path).unwrap();
        seen += 1;
        if let Some(errors) = h.get("errors").and_then(|e| e.as_array()).filter(|e| {
            e.iter()
                .any(|m| m.as_str().is_some_and(|m| m.contains("outside the file")))
        }) {
            let e = File::parse(&bytes, &Limits::default()).unwrap_err();
            assert_eq!(e.kind, ErrorKind::Truncated, "{what}: {e} ({errors:?})");
            continue;
        }
        let file = parse(&bytes);
        assert!(file.write() == bytes, "{what}: round trip differs");
        assert!(
            file.clone().into_owned().write() == bytes,
            "{what}: owned round trip differs"
        );
        let n = |k: &str| h[k].as_u64().unwrap_or_else(|| panic!("{what}: {k}"));
        for (name, value) in file.header.fields() {
            assert_eq!(u64::from(value), n(name), "{what}: {name}");
        }
        let meshes = h["meshes"].as_array().unwrap();
        assert_eq!(meshes.len(), file.meshes.len(), "{what}");
        for (m, hm) in file.meshes.iter().zip(meshes) {
            assert_eq!(file.text_at(m.name), hm["name"].as_str().unwrap(), "{what}");
            assert_eq!(
                file.text_at(m.material),
                hm["material"].as_str().unwrap(),
                "{what}"
            );
            assert_eq!(
                u64::from(m.first_vertex),
                hm["first_vertex"].as_u64().unwrap()
            );
            assert_eq!(
                u64::from(m.num_triangles),
                hm["num_triangles"].as_u64().unwrap()
            );
        }
        let arrays = h["vertexarrays"].as_array().unwrap();
        assert_eq!(arrays.len(), file.vertex_arrays.len(), "{what}");
        for (a, ha) in file.vertex_arrays.iter().zip(arrays) {
            assert_eq!(
                a.array_type().name(),
                ha["type_name"].as_str().unwrap(),
                "{what}"
            );
            assert_eq!(
                a.component_format().name(),
                ha["format_name"].as_str().unwrap()
            );
            assert_eq!(u64::from(a.size), ha["size"].as_u64().unwrap());
            assert_eq!(u64::from(a.offset), ha["offset"].as_u64().unwrap());
        }
        let names: Vec<String> = file.joints.iter().map(|j| file.text_at(j.name)).collect();
        assert_eq!(names, common::str_array(&h["joint_names"]), "{what}");
        let parents: Vec<i64> = file.joints.iter().map(|j| i64::from(j.parent)).collect();
        let hp: Vec<i64> = h["joint_parents"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap())
            .collect();
        assert_eq!(parents, hp, "{what}");
        let channels: u64 = file
            .poses
            .iter()
            .map(|p| p.animated(file.channels()) as u64)
            .sum();
        assert_eq!(channels, n("pose_channels"), "{what}");
        let anims = h["anims"].as_array().unwrap();
        assert_eq!(anims.len(), file.anims.len(), "{what}");
        for (a, ha) in file.anims.iter().zip(anims) {
            assert_eq!(file.text_at(a.name), ha["name"].as_str().unwrap(), "{what}");
            assert_eq!(u64::from(a.num_frames), ha["num_frames"].as_u64().unwrap());
            assert_eq!(
                u64::from(a.first_frame),
                ha["first_frame"].as_u64().unwrap()
            );
            assert_eq!(f64::from(a.framerate), ha["framerate"].as_f64().unwrap());
            assert_eq!(u64::from(a.flags), ha["flags"].as_u64().unwrap());
        }
        assert_eq!(
            !file.bounds.is_empty(),
            h["has_bounds"].as_bool().unwrap(),
            "{what}"
        );
        if let Some(b) = h.get("bounds_first_frame") {
            let mn: Vec<f64> = b["bbmin"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_f64().unwrap())
                .collect();
            for (k, v) in file.bounds[0].bbmin.iter().enumerate() {
                assert!((f64::from(*v) - mn[k]).abs() < 1e-4, "{what}: bbmin");
            }
        }
        let ext: Vec<String> = file
            .extensions
            .iter()
            .map(|e| file.text_at(e.name))
            .collect();
        let he: Vec<String> = h["extensions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                e.as_str()
                    .map(String::from)
                    .unwrap_or_else(|| e["name"].as_str().unwrap().to_string())
            })
            .collect();
        assert_eq!(ext, he, "{what}");
        let comment_end = file
            .comment
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(file.comment.len());
        let comment = String::from_utf8_lossy(&file.comment[..comment_end]);
        assert!(
            h["comment"].as_str().unwrap().starts_with(comment.as_ref()),
            "{what}: comment"
        );
        let (_doc, converted) = common::convert_valid(&bytes, &what);
        let model = &converted.model;
        assert_eq!(model.meshes.len(), file.meshes.len(), "{what}");
        if !file.meshes.is_empty() {
            assert_eq!(model.joints.len(), file.joints.len(), "{what}");
        }
        // Winding: the Model keeps triangles clockwise seen from the front, so the face
        // normal (c - a) x (b - a) points along the stored vertex normals.
        if file.array(ArrayType::Normal).is_some() {
            for m in &model.meshes {
                for tri in &m.triangles {
                    let [a, b, c] = tri.map(|i| m.positions[i as usize]);
                    let fnrm = math::cross(math::sub(c, a), math::sub(b, a));
                    let vn = tri
                        .iter()
                        .map(|&i| m.normals[i as usize])
                        .fold([0.0; 3], math::add);
                    if math::dot(fnrm, fnrm) > 1e-10 {
                        total += 1;
                        agree += usize::from(math::dot(fnrm, vn) > 0.0);
                    }
                }
            }
        }
    }
    assert!(seen >= 16, "{seen} IQM files in HEADERS.jsonl");
    assert!(
        agree * 100 >= total * 95,
        "winding agrees with the normals in {agree} of {total} triangles"
    );
    eprintln!("{seen} IQM files; winding agrees in {agree} of {total} triangles");
}

#[test]
fn fixtures_parse_write_back_and_convert() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        assert!(file.write() == bytes, "{name}: round trip differs");
        let (_doc, converted) = common::convert_valid(&bytes, name);
        let model = &converted.model;
        assert_eq!(model.meshes.len(), file.meshes.len(), "{name}");
        assert_eq!(model.animations.len(), file.anims.len(), "{name}");
    }
}

/// The fixture's quads by value, in every stored format.
#[test]
fn fixture_vertices_by_value_in_every_format() {
    for (name, bytes) in fixtures::all() {
        if name == "anim_only.iqm" {
            continue;
        }
        let model = iqm::file_to_model(&parse(&bytes)).model;
        let m = &model.meshes[1];
        assert_eq!(m.positions[2], [1.0, 0.0, 4.0], "{name}");
        assert_eq!(m.uvs[3], [0.0, 0.0], "{name}");
        assert_eq!(m.uvs[1], [1.0, 1.0], "{name}");
        assert_eq!(m.normals[0], [0.0, -1.0, 0.0], "{name}");
        if !m.joint_weights.is_empty() {
            // Vertex 2 of the head: joints 2 (0.75) and 2 again (0.25 after clamping to the
            // last joint) merged: weight 1 on joint 2; vertex 0: joint 1 alone.
            assert_eq!(m.joint_weights[0].as_slice(), [(1, 1.0)], "{name}");
            assert_eq!(m.joint_weights[2].as_slice(), [(2, 1.0)], "{name}");
            let body = &model.meshes[0];
            let w = &body.joint_weights[2];
            assert_eq!(w.len(), 2, "{name}");
            assert!(
                (w[0].1 - 0.75).abs() < 2e-3 && (w[1].1 - 0.25).abs() < 2e-3,
                "{name}: {w:?}"
            );
        }
    }
    let every = parse(&fixtures::every_format()).into_owned();
    let customs: Vec<_> = every
        .vertex_arrays
        .iter()
        .filter(|a| matches!(a.array_type(), ArrayType::Custom(_)))
        .collect();
    assert_eq!(customs.len(), 9);
    for (k, a) in customs.iter().enumerate() {
        assert_eq!(a.component_format(), ComponentFormat::ALL[k]);
        for v in 0..8 {
            assert_eq!(a.get(v, 0), v as f64, "format {k} vertex {v}");
        }
    }
}

/// Frames decode to the fixture's motion: the spine turns a quarter about -X over "bend",
/// the neck rises by 1 and doubles in scale over "grow" (rate 0: 10 fps, a warning).
#[test]
fn fixture_animation_by_value_in_both_versions() {
    for bytes in [fixtures::skinned(), fixtures::version1()] {
        let file = parse(&bytes);
        let c = iqm::file_to_model(&file);
        let model = &c.model;
        assert_eq!(model.animations.len(), 2);
        let bend = &model.animations[0];
        assert_eq!((bend.fps, bend.loops, bend.frames.len()), (10.0, true, 3));
        let q = bend.frames[2][1].rotation;
        let s = std::f32::consts::FRAC_1_SQRT_2;
        let dot: f32 = q.iter().zip([-s, 0.0, 0.0, s]).map(|(a, b)| a * b).sum();
        assert!(dot.abs() > 1.0 - 1e-6, "v{}: {q:?}", file.header.version);
        let grow = &model.animations[1];
        assert_eq!((grow.fps, grow.loops), (iqm::DEFAULT_FPS, false));
        assert!((grow.frames[1][2].translation[2] - 3.0).abs() < 1e-4);
        let scales = &model.animation_scales[1];
        assert!((scales[1][2][0] - 2.0).abs() < 1e-4, "{scales:?}");
        assert!(
            c.warnings.iter().any(|w| w.contains("frame rate 0")),
            "{:?}",
            c.warnings
        );
        assert_eq!(model.animations[0].bounds.len(), 3);
    }
}

/// Model -> IQM -> Model keeps meshes, weights, joints and animations within the channel
/// quantisation; an animation-only file becomes a pose skeleton.
#[test]
fn model_round_trip() {
    let file = parse(&fixtures::skinned()).into_owned();
    let model = iqm::file_to_model(&file).model;
    let (written, notes) = iqm::from_model(&model, &Default::default()).unwrap();
    assert!(
        notes[0].starts_with("animation channels stored in 16 bits"),
        "{notes:?}"
    );
    let bytes = written.file.write();
    let back = iqm::file_to_model(&parse(&bytes)).model;
    assert_eq!(back.meshes.len(), model.meshes.len());
    for (a, b) in model.meshes.iter().zip(&back.meshes) {
        assert_eq!(a.positions, b.positions);
        assert_eq!(a.triangles, b.triangles);
        assert_eq!(a.uvs, b.uvs);
        // Every vertex keeps its influences: a lost vertex or weight fails here, before
        // the zips below could stop at the shorter list.
        assert_eq!(
            a.joint_weights.len(),
            b.joint_weights.len(),
            "weighted vertices"
        );
        assert!(!a.joint_weights.is_empty(), "the fixture is skinned");
        for (v, (wa, wb)) in a.joint_weights.iter().zip(&b.joint_weights).enumerate() {
            assert_eq!(wa.len(), wb.len(), "vertex {v}: {wa:?} -> {wb:?}");
            for ((ja, xa), (jb, xb)) in wa.iter().zip(wb) {
                assert_eq!(ja, jb);
                assert!((xa - xb).abs() <= 1.0 / 255.0);
            }
        }
    }
    assert_eq!(back.joints.len(), model.joints.len());
    for (a, b) in model.joints.iter().zip(&back.joints) {
        assert_eq!(a.name, b.name);
        assert_eq!(a.parent, b.parent);
        for k in 0..3 {
            assert!((a.translation[k] - b.translation[k]).abs() < 1e-5);
        }
    }
    assert_eq!(back.animations.len(), model.animations.len());
    for (a, b) in model.animations.iter().zip(&back.animations) {
        assert_eq!(
            (a.name.as_str(), a.frames.len(), a.loops),
            (b.name.as_str(), b.frames.len(), b.loops)
        );
        for (fa, fb) in a.frames.iter().zip(&b.frames) {
            for (ta, tb) in fa.iter().zip(fb) {
                for k in 0..3 {
                    assert!((ta.translation[k] - tb.translation[k]).abs() < 1e-4);
                }
                let dot: f32 = ta
                    .rotation
                    .iter()
                    .zip(&tb.rotation)
                    .map(|(x, y)| x * y)
                    .sum();
                assert!(dot.abs() > 1.0 - 1e-6, "{ta:?} {tb:?}");
            }
        }
    }
    assert_eq!(back.animation_scales.len(), 2);

    let anim = iqm::file_to_model(&parse(&fixtures::anim_only())).model;
    assert_eq!(anim.joints.len(), 3);
    assert_eq!(anim.joints[2].name, "pose2");
    assert_eq!(anim.animations.len(), 2);
}

fn err(bytes: &[u8]) -> retromodel::Error {
    File::parse(bytes, &Limits::default()).unwrap_err()
}

#[test]
fn invalid_files_fail_with_exact_messages() {
    let good = fixtures::skinned();
    let file = parse(&good);
    let h = file.header;
    let set = |at: usize, v: u32| {
        let mut b = good.clone();
        b[at..at + 4].copy_from_slice(&v.to_le_bytes());
        b
    };
    let field = |i: usize| 16 + 4 * i;
    let cases: Vec<(Vec<u8>, ErrorKind, String)> = vec![
        (
            good[..100].to_vec(),
            ErrorKind::Truncated,
            "iqm: header: unexpected end of data (needed 4 bytes, 0 left) at offset 0x64".into(),
        ),
        (
            { let mut b = good.clone(); b[4] = b'X'; b },
            ErrorKind::BadMagic,
            "iqm: header: bad magic \"INTEXQUAKEMODEL\" (expected \"INTERQUAKEMODEL\" and a NUL) at offset 0x0".into(),
        ),
        (
            set(field(0), 3),
            ErrorKind::UnsupportedVersion,
            "iqm: header: unsupported version 3 (1 and 2 are read) at offset 0x10".into(),
        ),
        (
            set(field(1), good.len() as u32 + 1),
            ErrorKind::Truncated,
            format!("iqm: filesize = {} is past the end of the file ({} bytes) at offset 0x14", good.len() + 1, good.len()),
        ),
        (
            set(field(6), good.len() as u32 - 8),
            ErrorKind::Truncated,
            format!(
                "iqm: meshes: bytes {}..{} are past the end of the file ({} bytes) at offset 0x28",
                good.len() - 8,
                good.len() + 40,
                good.len()
            ),
        ),
        (
            set(h.ofs_vertexarrays as usize + 8, 9),
            ErrorKind::InvalidValue,
            format!(
                "iqm: vertex array 0: unknown component format 9 (0..8 are defined) at offset {:#x}",
                h.ofs_vertexarrays + 8
            ),
        ),
        (
            set(h.ofs_triangles as usize, 8),
            ErrorKind::IndexOutOfRange,
            format!("iqm: triangle 0: vertex 8 past num_vertexes = 8 at offset {:#x}", h.ofs_triangles),
        ),
        (
            set(h.ofs_joints as usize + 4, 0),
            ErrorKind::InvalidValue,
            format!("iqm: joint 0: parent 0 is not a lower joint or -1 at offset {:#x}", h.ofs_joints + 4),
        ),
        (
            set(h.ofs_meshes as usize, 100_000),
            ErrorKind::IndexOutOfRange,
            format!(
                "iqm: mesh 0 name: name offset 100000 is outside the text ({} bytes) at offset {:#x}",
                h.num_text, h.ofs_meshes
            ),
        ),
        (
            set(field(20), h.num_framechannels + 1),
            ErrorKind::InvalidValue,
            format!(
                "iqm: num_framechannels = {} but the poses' masks animate {} channels at offset 0x60",
                h.num_framechannels + 1,
                h.num_framechannels
            ),
        ),
        (
            set(h.ofs_anims as usize + 8, 9),
            ErrorKind::IndexOutOfRange,
            format!("iqm: anim 0: frames 0..9 past num_frames = 5 at offset {:#x}", h.ofs_anims + 4),
        ),
        (
            set(field(5), u32::MAX),
            ErrorKind::LimitExceeded,
            format!("iqm: num_meshes = 4294967295 exceeds the limit of {} at offset 0x24", Limits::default().max_count),
        ),
    ];
    for (bytes, kind, text) in cases {
        let e = err(&bytes);
        common::assert_error(&e, kind, &text);
    }
    // Assimp's own invalid file: a mesh record past the end.
    let mut b = good[..124].to_vec();
    b[field(1)..field(1) + 4].copy_from_slice(&124u32.to_le_bytes());
    for i in 2..27 {
        b[field(i)..field(i) + 4].copy_from_slice(&0u32.to_le_bytes());
    }
    b[field(5)..field(5) + 4].copy_from_slice(&1u32.to_le_bytes());
    b[field(6)..field(6) + 4].copy_from_slice(&124u32.to_le_bytes());
    common::assert_error(
        &err(&b),
        ErrorKind::Truncated,
        "iqm: meshes: bytes 124..148 are past the end of the file (124 bytes) at offset 0x28",
    );
}

/// Skinned positions of every animation frame (the bind pose when there is none), in
/// animation order: what the engines show.
fn baked(model: &retromodel::Model) -> Vec<Vec<[f32; 3]>> {
    let c = retromodel::model::bake::bake_skeletal(model, None).unwrap();
    let n = c.model.frames.len();
    (0..n)
        .map(|f| {
            c.model
                .meshes
                .iter()
                .flat_map(|m| m.morph_targets[f].positions.iter().copied())
                .collect()
        })
        .collect()
}

fn size(model: &retromodel::Model) -> f32 {
    model.bounds().map_or(1.0, |[lo, hi]| {
        (0..3).map(|k| hi[k] - lo[k]).fold(0.0, f32::max).max(1e-3)
    })
}

fn writer(name: &str) -> &'static retromodel::codec::Writer {
    retromodel::registry::writers()
        .find(|w| w.format.name() == name)
        .unwrap()
}

/// Every corpus IQM with meshes through glTF and back to IQM, and through MD5 and back:
/// joints, meshes and animations kept, skinned positions of every frame within the
/// channels' quantisation (1e-3 of the model's size).
#[test]
fn corpus_through_gltf_and_md5() {
    use retromodel::{registry, Document, NoFiles};
    let Some(dir) = common::corpus("IQM round trips") else {
        return;
    };
    let files = common::files_where(&dir, &|p| {
        std::fs::read(p).is_ok_and(|b| b.starts_with(b"INTERQUAKEMODEL\0"))
    });
    let limits = Limits::default();
    let options = retromodel::ConvertOptions::default();
    let (mut checked, mut skipped) = (0, 0);
    for path in files {
        let what = path.display().to_string();
        let bytes = std::fs::read(&path).unwrap();
        let file = match File::parse(&bytes, &limits) {
            Ok(file) => file,
            Err(e) => {
                // The corpus's truncated files (`corpus_iqm_files` checks their errors).
                eprintln!("{what}: skipped, does not parse: {e}");
                skipped += 1;
                continue;
            }
        };
        if file.meshes.is_empty() {
            eprintln!("{what}: skipped, no meshes (animation-only)");
            skipped += 1;
            continue;
        }
        let model = iqm::file_to_model(&file).model;
        let reference = baked(&model);
        let tol = 1e-3 * size(&model);
        let compare = |back: &retromodel::Model, via: &str| {
            // MD5 lists its md5anims by file name: put them back in the model's order.
            let mut back = back.clone();
            let order: Vec<usize> = model
                .animations
                .iter()
                .map(|a| {
                    back.animations
                        .iter()
                        .position(|b| b.name == a.name)
                        .unwrap_or_else(|| panic!("{what} via {via}: no {}", a.name))
                })
                .collect();
            back.animations = order.iter().map(|&i| back.animations[i].clone()).collect();
            if !back.animation_scales.is_empty() {
                back.animation_scales = order
                    .iter()
                    .map(|&i| back.animation_scales[i].clone())
                    .collect();
            }
            let back = &back;
            assert_eq!(
                back.joints.len(),
                model.joints.len(),
                "{what} via {via}: joints"
            );
            assert_eq!(
                back.meshes.len(),
                model.meshes.len(),
                "{what} via {via}: meshes"
            );
            assert_eq!(
                back.animations.len(),
                model.animations.len(),
                "{what} via {via}: animations"
            );
            for (a, b) in model.animations.iter().zip(&back.animations) {
                assert_eq!(
                    a.frames.len(),
                    b.frames.len(),
                    "{what} via {via}: frames of {}",
                    a.name
                );
            }
            let got = baked(back);
            assert_eq!(got.len(), reference.len(), "{what} via {via}");
            let mut worst = 0f32;
            for (fa, fb) in reference.iter().zip(&got) {
                for (p, q) in fa.iter().zip(fb) {
                    worst = worst.max((0..3).map(|k| (p[k] - q[k]).abs()).fold(0.0, f32::max));
                }
            }
            assert!(
                worst <= tol,
                "{what} via {via}: positions differ by {worst} (tolerance {tol})"
            );
        };
        // IQM -> glTF -> IQM.
        let glb = registry::write_model(&model, writer("glb"), &Default::default()).unwrap();
        let g = Document::parse(&glb.bytes, &limits)
            .unwrap()
            .try_to_model(&options, &NoFiles)
            .unwrap()
            .model;
        let (iqm_back, _) = iqm::from_model(&g, &Default::default()).unwrap();
        let back_bytes = iqm_back.file.write();
        compare(&iqm::file_to_model(&parse(&back_bytes)).model, "glTF");
        checked += 1;
        // IQM -> MD5 -> IQM (the md5anims beside the md5mesh); MD5 needs a skeleton.
        if model.joints.is_empty() {
            continue;
        }
        let md5 = registry::write_model(&model, writer("md5mesh"), &Default::default()).unwrap();
        let files = retromodel::MemoryFiles(
            md5.side_files
                .iter()
                .map(|s| (s.name.clone(), s.bytes.clone()))
                .collect(),
        );
        let m = Document::parse(&md5.bytes, &limits)
            .unwrap()
            .to_model(&options, &files)
            .model;
        let (iqm_back, _) = iqm::from_model(&m, &Default::default()).unwrap();
        let back_bytes = iqm_back.file.write();
        compare(&iqm::file_to_model(&parse(&back_bytes)).model, "MD5");
    }
    eprintln!("{checked} IQM files through glTF and MD5, {skipped} skipped");
    assert!(checked >= 12, "{checked} IQM files with meshes");
}

/// The writers that refuse the fuzzed IQM model below (measured; a writer that starts or
/// stops refusing it must be looked at).
const REFUSING: &[&str] = &["md5camera"];

/// Found by fuzzing: joints whose bind pose or frames are not finite made a glTF with
/// `null` numbers. They are placed at their parent (frames: the identity), with a warning,
/// and every writer's output parses.
#[test]
fn non_finite_joints_become_finite() {
    use retromodel::{registry, Document, NoFiles};
    let bytes = include_bytes!("regressions/iqm_nonfinite_joint_to_gltf.iqm");
    let doc = Document::parse(bytes, &Limits::default()).unwrap();
    let c = doc.to_model(&Default::default(), &NoFiles);
    for j in &c.model.joints {
        assert!(
            j.translation
                .iter()
                .chain(&j.rotation)
                .all(|v| v.is_finite()),
            "{j:?}"
        );
    }
    for a in &c.model.animations {
        for t in a.frames.iter().flatten() {
            assert!(t
                .translation
                .iter()
                .chain(&t.rotation)
                .all(|v| v.is_finite()));
        }
    }
    assert!(
        c.warnings.iter().any(|w| w.contains("not finite")),
        "{:?}",
        c.warnings
    );
    // The writers that refuse a skeletal model refuse it by name, and no other does.
    let mut refused = Vec::new();
    for w in registry::writers() {
        match registry::write_model(&c.model, w, &Default::default()) {
            Ok(out) => {
                if w.format.name() != "obj" {
                    Document::parse(&out.bytes, &Limits::default())
                        .unwrap_or_else(|e| panic!("{}: {e}", w.format.name()));
                }
            }
            Err(e) => {
                eprintln!("{}: refused: {e}", w.format.name());
                refused.push(w.format.name());
            }
        }
    }
    assert_eq!(refused, REFUSING, "writers that refuse the model");
}

/// Found in review: animations that cover the same frames again and again (here 100 over
/// 100 000 frames that store no values) once decoded 100 times the frames the parser charged
/// for. Together they now decode at most twice the file's frames; the rest are left out.
#[test]
fn overlapping_animations_stay_within_twice_the_frames() {
    use std::borrow::Cow;
    let mut text = vec![0u8];
    text.extend_from_slice(b"all\0");
    let mut file = File {
        text: Cow::Owned(text),
        poses: vec![iqm::Pose {
            parent: -1,
            ..Default::default()
        }],
        anims: (0..100)
            .map(|_| iqm::Anim {
                name: 1,
                first_frame: 0,
                num_frames: 100_000,
                framerate: 10.0,
                flags: 0,
            })
            .collect(),
        ..File::empty(iqm::Header {
            version: 2,
            num_frames: 100_000,
            ..Default::default()
        })
    };
    file.relayout();
    let bytes = file.write();
    assert!(bytes.len() < 4096, "{} bytes", bytes.len());
    let c = iqm::file_to_model(&parse(&bytes));
    let frames: usize = c.model.animations.iter().map(|a| a.frames.len()).sum();
    assert_eq!(frames, 200_000);
    assert!(
        c.warnings.iter().any(|w| w.contains("more than twice")),
        "{:?}",
        c.warnings
    );
}
