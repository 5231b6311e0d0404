//! Valve SMD: the text round trip, the Model both ways (fixtures, an MD5 corpus model and a
//! keyframe model), and invalid files with their exact error texts.

mod common;

use retromodel::formats::smd::{fixtures, File, SMD};
use retromodel::{registry, Document, ErrorKind, Limits, MemoryFiles, Model, WriteOptions};

fn parse(bytes: &[u8]) -> File {
    File::parse(bytes, &Limits::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn files(list: &[(&str, Vec<u8>)]) -> MemoryFiles {
    MemoryFiles(
        list.iter()
            .map(|(n, b)| (n.to_string(), b.clone()))
            .collect(),
    )
}

fn to_model(bytes: &[u8], resolver: &MemoryFiles) -> retromodel::Converted {
    Document::parse(bytes, &Limits::default())
        .unwrap()
        .to_model(&Default::default(), resolver)
}

fn close(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= tol * a[k].abs().max(1.0))
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

#[test]
fn fixtures_write_back_to_the_same_text() {
    for (name, bytes) in fixtures::all() {
        assert_eq!(registry::detect(&bytes), Some(SMD), "{name}");
        let file = parse(&bytes);
        let text = file.write();
        assert_eq!(
            String::from_utf8_lossy(&text),
            String::from_utf8_lossy(&bytes),
            "{name}"
        );
        assert_eq!(parse(&text), file, "{name}");
    }
    // Numbers of more decimals come back to 6, then stay.
    let f = parse(b"version 1\nnodes\n0 \"a\" -1\nend\nskeleton\ntime 0\n0 0.1234567 1e-3 -2 0 0 3.14159265\nend\n");
    let once = f.write();
    assert!(String::from_utf8_lossy(&once)
        .contains("0 0.123457 0.001000 -2.000000 0.000000 0.000000 3.141593\n"));
    assert_eq!(parse(&once).write(), once);
}

#[test]
fn comments_spacing_and_material_lines_with_spaces() {
    let text = b"// exported\r\nversion 1\r\nnodes\r\n  0   \"root bone\"  -1\r\nend\r\n\
skeleton\r\ntime 0\r\n0 0 0 0 0 0 0\r\nend\r\ntriangles\r\nmy skin.bmp  \r\n\
0 0 0 0 0 0 1 0 0\r\n0 1 0 0 0 0 1 1 0\r\n0 0 1 0 0 0 1 0 1 1 0 1.0\r\nend\r\n";
    let f = parse(text);
    assert_eq!(f.nodes[0].name, "root bone");
    assert_eq!(f.triangles[0].material, "my skin.bmp");
    assert_eq!(f.triangles[0].corners[2].links, vec![(0, 1.0)]);
    assert!(f.triangles[0].corners[1].links.is_empty());
    assert_eq!(parse(&f.write()), f);
}

#[test]
fn reference_and_animation_become_a_model() {
    let all = fixtures::all();
    let reference = &all[0].1;
    let converted = to_model(reference, &files(&all));
    let m = &converted.model;
    m.validate().unwrap();
    assert_eq!(m.joints.len(), 2);
    assert_eq!(m.joints[1].parent, Some(0));
    assert!(close(m.joints[1].translation, [0.0, 0.0, 8.0], 1e-6));
    // One mesh per material, in order; no pictures beside it: untextured, said.
    let names: Vec<&str> = m.meshes.iter().map(|x| x.name.as_str()).collect();
    assert_eq!(names, ["body.bmp", "arm.bmp"]);
    assert!(m.meshes.iter().all(|x| x.skin.is_none()));
    assert_eq!(
        converted.warnings,
        [
            "mesh 0: texture \"body.bmp\" not found; untextured",
            "mesh 1: texture \"arm.bmp\" not found; untextured"
        ]
    );
    assert_eq!(m.triangle_count(), 16);
    // SMD runs counter-clockwise, the Model clockwise: the face normal is against the
    // vertex normals.
    for mesh in &m.meshes {
        for t in &mesh.triangles {
            let p = t.map(|i| mesh.positions[i as usize]);
            let e1 = [0, 1, 2].map(|k| p[1][k] - p[0][k]);
            let e2 = [0, 1, 2].map(|k| p[2][k] - p[0][k]);
            let n = cross(e1, e2);
            let vn = mesh.normals[t[0] as usize];
            assert!(n[0] * vn[0] + n[1] * vn[1] + n[2] * vn[2] < 0.0);
        }
    }
    // V up in SMD, down in the Model.
    let body = &m.meshes[0];
    for (p, uv) in body.positions.iter().zip(&body.uvs) {
        let expect = if p[2] == 0.0 { 1.0 } else { 0.0 };
        assert_eq!(uv[1], expect, "{p:?}");
    }
    // Bones and Source links as weights.
    assert!(body
        .joint_weights
        .iter()
        .all(|w| w.as_slice() == [(0, 1.0)]));
    let arm = &m.meshes[1];
    let last = arm.triangles.last().unwrap();
    assert_eq!(
        arm.joint_weights[last[0] as usize].as_slice(),
        [(1, 0.75), (0, 0.25)]
    );
    // The animation beside it, named after its file, at studiomdl's 30 fps.
    assert_eq!(m.animations.len(), 1);
    let a = &m.animations[0];
    assert_eq!(
        (a.name.as_str(), a.fps, a.frames.len()),
        ("reference_bend", 30.0, 5)
    );
    let end = &a.frames[4];
    // The root a quarter turn about Z at the end, and studiomdl's quarter turn of an
    // animation SMD's roots: +X goes to -X.
    let q = end[0].rotation;
    let x = retromodel::math::Quat::from_array(q).rotate([1.0, 0.0, 0.0]);
    assert!(close(x, [-1.0, 0.0, 0.0], 1e-6), "{x:?}");
}

#[test]
fn an_animation_smd_alone_is_a_skeleton_and_its_animation() {
    let bytes = fixtures::animation().write();
    let converted = to_model(&bytes, &MemoryFiles::default());
    let m = &converted.model;
    m.validate().unwrap();
    assert!(m.meshes.is_empty());
    assert_eq!(m.joints.len(), 2);
    assert_eq!(m.animations.len(), 1);
    assert_eq!(m.animations[0].frames.len(), 5);
    assert!(converted.warnings.is_empty(), "{:?}", converted.warnings);
}

#[test]
fn animation_smds_of_other_nodes_are_left_out() {
    let mut other = fixtures::animation();
    other.nodes[1].name = "leg".to_string();
    let all = fixtures::all();
    let resolver = files(&[
        ("reference.smd", all[0].1.clone()),
        ("walk.smd", other.write()),
    ]);
    let converted = to_model(&all[0].1, &resolver);
    assert!(converted.model.animations.is_empty());
    assert!(converted
        .warnings
        .contains(&"walk.smd: node \"leg\" is not in the reference; left out".to_string()));
}

/// `model` written as SMD (stem `x`) and read back with its side files.
fn through_smd(model: &Model) -> (retromodel::Converted, Vec<String>) {
    let writer = &registry::codec_named("smd").unwrap().writers()[0];
    let options = WriteOptions {
        stem: "x".to_string(),
        ..Default::default()
    };
    let out = registry::write_model(model, writer, &options).unwrap();
    let mut list = vec![("x.smd".to_string(), out.bytes.clone())];
    list.extend(
        out.side_files
            .iter()
            .map(|f| (f.name.clone(), f.bytes.clone())),
    );
    let names = list.iter().map(|(n, _)| n.clone()).collect();
    let resolver = MemoryFiles(list.into_iter().collect());
    let back = to_model(&out.bytes, &resolver);
    back.model.validate().unwrap();
    (back, names)
}

#[test]
fn an_md5_corpus_model_goes_through_smd_and_back() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let folder = dir.join("md5/debian-redeclipse-data/redeclipse/data/weapons/zapper");
    let mesh = std::fs::read(folder.join("mesh.md5mesh")).unwrap();
    let mut side = vec![(
        "skin.png".to_string(),
        std::fs::read(folder.join("skin.png")).unwrap(),
    )];
    for anim in ["idle", "reload", "shoot"] {
        let name = format!("{anim}.md5anim");
        side.push((name.clone(), std::fs::read(folder.join(&name)).unwrap()));
    }
    let resolver = MemoryFiles(side.into_iter().collect());
    let mut model = to_model(&mesh, &resolver).model;
    assert_eq!(model.animations.len(), 3);
    // The shader is "default": the front door finds the folder's only picture; here it is
    // given.
    let png = std::fs::read(folder.join("skin.png")).unwrap();
    let picture = retromodel::image::decode(&png, "skin.png", &Limits::default()).unwrap();
    model.skins = vec![retromodel::model::Skin {
        name: "skin.png".to_string(),
        pictures: vec![picture],
        picture_times: None,
        source: None,
    }];
    for m in &mut model.meshes {
        m.skin = Some(0);
    }
    let (back, names) = through_smd(&model);
    assert_eq!(
        names,
        [
            "x.smd",
            "skin.bmp",
            "x_idle.smd",
            "x_reload.smd",
            "x_shoot.smd"
        ]
    );
    let again = &back.model;
    assert!(back.warnings.is_empty(), "{:?}", back.warnings);
    // Same triangles, corner for corner.
    let corners = |m: &Model| -> Vec<[f32; 3]> {
        m.meshes
            .iter()
            .flat_map(|x| {
                x.triangles
                    .iter()
                    .flat_map(move |t| t.map(|i| x.positions[i as usize]))
            })
            .collect()
    };
    let (a, b) = (corners(&model), corners(again));
    assert_eq!(a.len(), b.len());
    assert!(a.len() > 1000);
    for (p, q) in a.iter().zip(&b) {
        assert!(close(*p, *q, 1e-4), "{p:?} became {q:?}");
    }
    // Same skeleton, bind pose within 1e-4.
    assert_eq!(again.joints.len(), model.joints.len());
    for (j, k) in model.joints.iter().zip(&again.joints) {
        assert_eq!((&j.name, j.parent), (&k.name, k.parent));
        assert!(close(j.translation, k.translation, 1e-4), "{}", j.name);
    }
    // The skin came back as a BMP texture.
    assert_eq!(again.skins.len(), 1);
    assert_eq!(again.meshes[0].skin, Some(0));
    // The animations, frame for frame.
    let frames = |m: &Model| -> Vec<(String, usize)> {
        m.animations
            .iter()
            .map(|a| (a.name.clone(), a.frames.len()))
            .collect()
    };
    let expect: Vec<(String, usize)> = frames(&model)
        .into_iter()
        .map(|(n, f)| (format!("x_{n}"), f))
        .collect();
    assert_eq!(frames(again), expect);
    for (a, b) in model.animations.iter().zip(&again.animations) {
        for (fa, fb) in a.frames.iter().zip(b.frames.iter()) {
            for (x, y) in fa.iter().zip(fb) {
                assert!(close(x.translation, y.translation, 1e-4));
                let d: f32 = (0..4).map(|k| x.rotation[k] * y.rotation[k]).sum();
                assert!(d.abs() > 1.0 - 1e-5, "{:?} vs {:?}", x.rotation, y.rotation);
            }
        }
    }
}

#[test]
fn a_keyframe_model_gets_fitted_bones() {
    let bytes = retromodel::formats::md2::fixtures::minimal();
    let model = to_model(&bytes, &MemoryFiles::default()).model;
    assert!(model.joints.is_empty() && model.frames.len() > 1);
    let (back, _) = through_smd(&model);
    let m = &back.model;
    assert!(!m.joints.is_empty() && m.joints.len() <= 128);
    assert_eq!(m.triangle_count(), model.triangle_count());
    assert!(!m.animations.is_empty());
}

fn check(text: &str, kind: ErrorKind, message: &str) {
    let e = File::parse(text.as_bytes(), &Limits::default()).expect_err(text);
    common::assert_error(&e, kind, message);
}

const HEAD: &str = "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 0\nend\n";

#[test]
fn invalid_files_give_their_exact_errors() {
    check(
        "",
        ErrorKind::Truncated,
        "smd: expected version, found end of file at line 1:1",
    );
    check(
        "version 2\n",
        ErrorKind::UnsupportedVersion,
        "smd: version 2 is not supported (expected 1) at line 1:9",
    );
    check(
        "version 1\nnodes\n0 \"root\" -1\n",
        ErrorKind::Truncated,
        "smd: expected an integer (node id, or end), found end of file at line 4:1",
    );
    check(
        "version 1\nnodes\n0 \"root\" -1\n2 \"arm\" 0\nend\n",
        ErrorKind::InvalidValue,
        "smd: node id 2 out of order (expected 1) at line 4:1",
    );
    check(
        "version 1\nnodes\n0 \"root\" -1\n1 \"arm\" 1\nend\n",
        ErrorKind::IndexOutOfRange,
        "smd: node 1: parent 1 out of range (-1 or an earlier node's id) at line 4:9",
    );
    check(
        &format!("{HEAD}bones\nend\n"),
        ErrorKind::InvalidValue,
        "smd: unknown section bones (expected nodes, skeleton or triangles) at line 6:1",
    );
    check(
        &format!("{HEAD}skeleton\ntime 0\n0 0 0 0 0 0 0\n1 0 0 8 0 0.5x 0\nend\n"),
        ErrorKind::InvalidValue,
        "smd: expected a number (bone rotation), found 0.5x at line 9:11",
    );
    check(
        &format!("{HEAD}skeleton\ntime 0\n2 0 0 0 0 0 0\nend\n"),
        ErrorKind::IndexOutOfRange,
        "smd: bone 2 out of range (nodes = 2) at line 8:1",
    );
    check(
        &format!("{HEAD}skeleton\ntime 0\n0 0 0 0 0 0 0\n"),
        ErrorKind::Truncated,
        "smd: expected an integer (bone), found end of file at line 9:1",
    );
    check(
        &format!("{HEAD}triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n5 1 0 0 0 0 1 1 0\n"),
        ErrorKind::IndexOutOfRange,
        "smd: vertex bone 5 out of range (nodes = 2) at line 9:1",
    );
    check(
        &format!("{HEAD}triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\nend\n"),
        ErrorKind::InvalidValue,
        "smd: expected an integer (vertex bone), found end at line 10:1",
    );
    check(
        &format!(
            "{HEAD}triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0"
        ),
        ErrorKind::Truncated,
        "smd: expected a number (texture coordinate), found end of file at line 10:16",
    );
    check(
        &format!("{HEAD}triangles\nskin.bmp\n0 0 0 0 0 0 1 0 0\n0 1 0 0 0 0 1 1 0\n0 0 1 0 0 0 1 0 1 2 0 0.5\n"),
        ErrorKind::Truncated,
        "smd: expected an integer (link bone), found end of file at line 11:1",
    );
    check(
        &format!("{HEAD}skeleton\ntime 0\n0 0 0 1e39 0 0 0\nend\n"),
        ErrorKind::InvalidValue,
        "smd: number 1e39 is out of range for a 32-bit float at line 8:7",
    );
    check(
        "version 1\nskeleton\nend\n",
        ErrorKind::InvalidValue,
        "smd: skeleton section before the nodes section at line 2:1",
    );
    check(
        &format!("{HEAD}nodes\nend\n"),
        ErrorKind::InvalidValue,
        "smd: second nodes section at line 6:1",
    );
    check(
        &format!("{HEAD}skeleton\n0 0 0 0 0 0 0\nend\n"),
        ErrorKind::InvalidValue,
        "smd: expected time or end, found 0 at line 7:1",
    );
}

/// Every triangle corner of `model` at each frame of its baked animations, and each
/// animation's middle frame.
fn posed_corners(model: &Model) -> (Vec<Vec<[f32; 3]>>, Vec<usize>) {
    let baked = retromodel::model::bake::bake_skeletal(model, None)
        .unwrap()
        .model;
    let frames = (0..baked.frames.len())
        .map(|f| {
            baked
                .meshes
                .iter()
                .flat_map(|m| {
                    let p = &m.morph_targets[f].positions;
                    m.triangles
                        .iter()
                        .flat_map(move |t| t.map(|i| p[i as usize]))
                })
                .collect()
        })
        .collect();
    let middles = baked.clips.iter().map(|c| c.first + c.count / 2).collect();
    (frames, middles)
}

/// studiomdl turns the roots of an animation SMD by 90° about Z (`Grab_Animation`) and not
/// a reference SMD's: a GoldSrc model written as standalone SMDs has its animation SMDs'
/// roots turned back exactly as the QC decompiler writes them, and read back through the
/// SMD reader poses as the model does.
#[test]
fn animation_smds_are_turned_as_studiomdl_turns_them() {
    use retromodel::formats::goldsrc::convert::angle_quaternion;
    use retromodel::formats::goldsrc::{qc::decompile, AnyFile};
    // The fixture, its root moved off the axis (a turn about Z moves it), as GoldSrc.
    let all = fixtures::all();
    let mut source = to_model(&all[0].1, &files(&all)).model;
    let mut anim = source.animations[0].frames.to_vec();
    for (f, frame) in anim.iter_mut().enumerate() {
        frame[0].translation = [6.0 + f as f32, 2.0, 1.0];
    }
    source.animations[0].frames = anim.into();
    let goldsrc = registry::writers()
        .find(|w| w.variant == "goldsrc")
        .unwrap();
    let mdl = registry::write_model(&source, goldsrc, &WriteOptions::default()).unwrap();
    let AnyFile::Studio(file) = AnyFile::parse(&mdl.bytes, &Limits::default()).unwrap() else {
        panic!("not a studio model")
    };
    let model = file.to_model_alone().model;
    let label = model.animations[0].name.clone();
    // The QC decompiler's animation SMD of the sequence.
    let d = decompile(&file, "x");
    let qc_smd = &d.smds.iter().find(|(n, _)| *n == label).unwrap().1;
    // The standalone SMD writer's.
    let writer = &registry::codec_named("smd").unwrap().writers()[0];
    let options = WriteOptions {
        stem: "x".to_string(),
        ..Default::default()
    };
    let out = registry::write_model(&model, writer, &options).unwrap();
    let side = out
        .side_files
        .iter()
        .find(|s| s.name == format!("x_{label}.smd"))
        .unwrap();
    let smd = parse(&side.bytes);
    assert_eq!(smd.frames.len(), qc_smd.frames.len());
    assert!(smd.frames.len() > 1);
    let root = |f: &retromodel::formats::smd::Frame| f.bones.iter().find(|b| b.bone == 0).cloned();
    for (a, b) in smd.frames.iter().zip(&qc_smd.frames) {
        let (a, b) = (root(a).unwrap(), root(b).unwrap());
        assert!(close(a.position, b.position, 1e-4), "{a:?} vs {b:?}");
        let (qa, qb) = (angle_quaternion(a.rotation), angle_quaternion(b.rotation));
        let d: f32 = (0..4).map(|k| qa[k] * qb[k]).sum();
        assert!(d.abs() > 1.0 - 1e-5, "{a:?} vs {b:?}");
    }
    // Not the stored pose: the turn moved the root.
    let stored = model.animations[0].frames[0][0].translation;
    assert!(!close(root(&smd.frames[0]).unwrap().position, stored, 1e-2));
    // Back through the SMD reader: the model's own poses at every animation's middle frame.
    let (back, _) = through_smd(&model);
    let back = &back.model;
    assert_eq!(back.animations.len(), model.animations.len());
    let ((want, middles), (got, _)) = (posed_corners(&model), posed_corners(back));
    let z = want[0].iter().map(|p| p[2]);
    let height = z.clone().fold(f32::MIN, f32::max) - z.fold(f32::MAX, f32::min);
    assert!(height > 0.0 && !middles.is_empty());
    for &f in &middles {
        assert_eq!(want[f].len(), got[f].len());
        for (p, q) in want[f].iter().zip(&got[f]) {
            let d = (0..3).map(|k| (p[k] - q[k]).powi(2)).sum::<f32>().sqrt();
            assert!(d <= 1e-3 * height, "frame {f}: {p:?} became {q:?}");
        }
    }
}

/// A skeleton without triangles is written as a reference SMD with no triangles, which reads
/// as an animation SMD does (its roots turned, as studiomdl turns them): its bind pose is
/// written turned back, so the joints come back where they were.
#[test]
fn a_skeleton_without_triangles_comes_back_unturned() {
    let all = fixtures::all();
    let mut source = to_model(&all[0].1, &files(&all)).model;
    source.meshes.clear();
    source.animations.clear();
    // The root off the axis, where a turn about Z would move it.
    source.joints[0].translation = [6.0, 2.0, 1.0];
    let (back, _) = through_smd(&source);
    assert_eq!(back.model.joints.len(), source.joints.len());
    for (a, b) in source.joints.iter().zip(&back.model.joints) {
        assert!(
            close(a.translation, b.translation, 1e-4),
            "{}: {:?} came back as {:?}",
            a.name,
            a.translation,
            b.translation
        );
    }
}
