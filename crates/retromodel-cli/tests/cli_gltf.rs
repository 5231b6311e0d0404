//! The `retromodel` binary writing glTF and converting folders: .glb/.gltf from MDL, MD2 and
//! MD5 (animations beside the mesh or given with --anim), side-car files, and a batch that
//! keeps the tree, keeps going past bad files, keeps existing outputs and leaves no
//! temporary files.

use std::path::Path;

use retromodel::formats::{md2, md5, quake_mdl};

mod common;

use common::{assert_contains, glb_json, md5_with_anim, run, run_ok, s, text, write_file};

#[test]
fn glb_and_gltf_from_keyframe_and_skeletal_models() {
    let (dir, mdl) = common::temp_file(
        "demo.mdl",
        quake_mdl::fixtures::build(&quake_mdl::fixtures::Spec::everything()).write(),
    );
    let glb = dir.path().join("demo.glb");
    run_ok(&["convert", s(&mdl), s(&glb)]);
    let json = glb_json(&std::fs::read(&glb).unwrap());
    let poses = quake_mdl::File::parse(&std::fs::read(&mdl).unwrap(), &Default::default())
        .unwrap()
        .pose_count();
    let targets = json["meshes"][0]["primitives"][0]["targets"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(targets, poses - 1);
    assert!(!json["animations"].as_array().unwrap().is_empty());
    // --frames first: no morph targets.
    let first = dir.path().join("first.glb");
    assert!(run(&["convert", s(&mdl), s(&first), "--frames", "first"])
        .status
        .success());
    let json = glb_json(&std::fs::read(&first).unwrap());
    assert!(json["meshes"][0]["primitives"][0].get("targets").is_none());

    // .gltf with side-car files; --embed without.
    let md2_path = write_file(
        dir.path(),
        "tank.md2",
        md2::fixtures::build(&md2::fixtures::Spec {
            frames: 5,
            ..Default::default()
        })
        .write(),
    );
    let gltf = dir.path().join("out/tank.gltf");
    std::fs::create_dir_all(gltf.parent().unwrap()).unwrap();
    assert!(run(&["convert", s(&md2_path), s(&gltf)]).status.success());
    assert!(dir.path().join("out/tank.bin").is_file());
    let embedded = dir.path().join("out/tank_embedded.gltf");
    assert!(run(&["convert", s(&md2_path), s(&embedded), "--embed"])
        .status
        .success());
    let j: serde_json::Value = serde_json::from_slice(&std::fs::read(&embedded).unwrap()).unwrap();
    assert!(j["buffers"][0]["uri"]
        .as_str()
        .unwrap()
        .starts_with("data:"));

    // MD5: the animation beside the mesh, or the one given.
    let mesh = md5_with_anim(dir.path(), "m.md5mesh");
    let out_glb = dir.path().join("m.glb");
    run_ok(&["convert", s(&mesh), s(&out_glb)]);
    let json = glb_json(&std::fs::read(&out_glb).unwrap());
    assert_eq!(json["skins"].as_array().unwrap().len(), 1);
    assert_eq!(json["animations"][0]["name"], "wave");
    let wrong = dir.path().join("wrong.md5anim");
    let mut other = md5::fixtures::anim_file();
    other.hierarchy[0].name = "stranger".into();
    std::fs::write(&wrong, md5::write_anim(&other)).unwrap();
    let out = run(&[
        "convert",
        s(&mesh),
        s(&dir.path().join("w.glb")),
        "--anim",
        s(&wrong),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&out.stderr, "is not in the animation");
}

#[test]
fn batch_keeps_the_tree_and_goes_past_bad_files() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("a/b")).unwrap();
    std::fs::write(src.join("a/one.mdl"), quake_mdl::fixtures::minimal()).unwrap();
    std::fs::write(src.join("a/b/two.md2"), md2::fixtures::minimal()).unwrap();
    std::fs::write(src.join("a/b/bob.md5mesh"), md5::fixtures::skeleton()).unwrap();
    std::fs::write(src.join("a/b/bob.md5anim"), md5::fixtures::anim()).unwrap();
    let mut bad = md2::fixtures::minimal();
    bad[24..28].copy_from_slice(&i32::MAX.to_le_bytes());
    std::fs::write(src.join("a/bad.md2"), bad).unwrap();
    std::fs::write(src.join("level.wmp"), b"WMPB\x01\x04\x05\x00").unwrap();
    let out_dir = dir.path().join("out");
    let out = run(&["convert", s(&src), s(&out_dir), "--to", "glb"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert!(err.contains("6 files: 4 converted, 0 kept"), "{err}");
    assert!(err.contains("1 in formats not read yet, 1 failed"), "{err}");
    assert!(
        err.contains("FAILED ") && err.contains("bad.md2: md2: num_xyz"),
        "{err}"
    );
    for p in [
        "a/one.glb",
        "a/b/two.glb",
        "a/b/bob.md5mesh.glb",
        "a/b/bob.md5anim.glb",
    ] {
        assert!(out_dir.join(p).is_file(), "{p} missing: {err}");
    }
    assert!(!out_dir.join("a/bad.glb").exists());
    let leftovers: Vec<_> = walk(&out_dir)
        .into_iter()
        .filter(|p| p.contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    // A second run keeps what is there; --force replaces it.
    let again = run(&["convert", s(&src), s(&out_dir), "--to", "glb"]);
    assert_contains(&again.stderr, "0 converted, 4 kept");
    let forced = run(&["convert", s(&src), s(&out_dir), "--to", "glb", "--force"]);
    assert_contains(&forced.stderr, "4 converted, 0 kept");
    // A folder needs --to.
    let no_to = run(&["convert", s(&src), s(&out_dir)]);
    assert!(text(&no_to.stderr).contains("give the output format with --to"));
}

fn walk(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p.file_name().unwrap().to_string_lossy().into_owned());
        }
    }
    out
}

/// Issue 16: `--quantize` writes KHR_mesh_quantization data, `-v` reports the largest
/// error, `--no-quantize` (the default) floats, and the quantised file converts back to
/// MDL with the poses the float one gives.
#[test]
fn quantized_glb_converts_back_like_the_float_one() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = common::sample(dir.path(), "demo.mdl");
    let (fl, q) = (dir.path().join("f.glb"), dir.path().join("q.glb"));
    run_ok(&["convert", s(&mdl), s(&fl)]);
    let out = run_ok(&["convert", s(&mdl), s(&q), "--quantize", "-v"]);
    let log = text(&out.stdout) + &text(&out.stderr);
    let error: f64 = log
        .lines()
        .find_map(|l| l.split("quantised, largest position error ").nth(1))
        .unwrap_or_else(|| panic!("no error report in {log}"))
        .trim()
        .parse()
        .unwrap();
    let (jf, jq) = (
        glb_json(&std::fs::read(&fl).unwrap()),
        glb_json(&std::fs::read(&q).unwrap()),
    );
    assert!(jf.get("extensionsRequired").is_none());
    assert_eq!(jq["extensionsRequired"][0], "KHR_mesh_quantization");
    assert!(std::fs::metadata(&q).unwrap().len() < std::fs::metadata(&fl).unwrap().len());
    // The last flag wins.
    let back_to_float = dir.path().join("f2.glb");
    run_ok(&[
        "convert",
        s(&mdl),
        s(&back_to_float),
        "--quantize",
        "--no-quantize",
    ]);
    assert_eq!(
        std::fs::read(&back_to_float).unwrap(),
        std::fs::read(&fl).unwrap()
    );
    // Both back to Quake MDL: the same frames, positions as far apart as the error says
    // (plus the MDL writer's requantisation, within a step of the written file).
    let (mf, mq) = (dir.path().join("f.mdl"), dir.path().join("q.mdl"));
    run_ok(&["convert", s(&fl), s(&mf)]);
    run_ok(&["convert", s(&q), s(&mq)]);
    let limits = retromodel::Limits::default();
    let read = |p: &Path| {
        let bytes = std::fs::read(p).unwrap();
        let f = quake_mdl::File::parse(&bytes, &limits).unwrap();
        let step = f.header.scale;
        let model = retromodel::read(&bytes, &limits, &retromodel::NoFiles).unwrap();
        (model, step)
    };
    let ((a, sa), (b, sb)) = (read(&mf), read(&mq));
    assert_eq!(a.frames.len(), b.frames.len());
    for (ta, tb) in a.meshes[0]
        .morph_targets
        .iter()
        .zip(&b.meshes[0].morph_targets)
    {
        for (p, r) in ta.positions.iter().zip(&tb.positions) {
            for k in 0..3 {
                let allowed = f64::from(sa[k].max(sb[k])) + error;
                assert!(
                    f64::from((p[k] - r[k]).abs()) <= allowed * 1.0001,
                    "{p:?} {r:?} ({allowed})"
                );
            }
        }
    }
}

/// The strings of a JSON array (none when it is not one).
fn names(v: &serde_json::Value) -> Vec<&str> {
    v.as_array()
        .map(|a| a.iter().filter_map(|s| s.as_str()).collect())
        .unwrap_or_default()
}

/// The `v` lines of an OBJ file as points.
fn obj_points(path: &Path) -> Vec<[f64; 3]> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter_map(|l| l.strip_prefix("v "))
        .map(|l| {
            let v: Vec<f64> = l.split_whitespace().map(|x| x.parse().unwrap()).collect();
            [v[0], v[1], v[2]]
        })
        .collect()
}

/// Issue 43: `--compress` writes the quantised file's data meshopt-compressed
/// (EXT_meshopt_compression required, a fallback buffer without data, triangles and
/// vertex data compressed, vertices welded and reordered); `info` reads it with the
/// quantised file's counts (at most its vertices) and its frames hold the quantised file's
/// points exactly (the vertex codec is lossless), within the reported error of the source's. `--compress=khr` names the Khronos extension.
#[test]
fn compressed_glb_reads_back_like_the_quantised_one() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["demo.mdl", "demo.md2", "demo.iqm"] {
        let model = common::sample(dir.path(), name);
        let (q, c, k) = (
            dir.path().join(format!("{name}.q.glb")),
            dir.path().join(format!("{name}.c.glb")),
            dir.path().join(format!("{name}.k.glb")),
        );
        run_ok(&["convert", s(&model), s(&q), "--quantize"]);
        let out = run_ok(&["convert", s(&model), s(&c), "--compress", "-v"]);
        run_ok(&["convert", s(&model), s(&k), "--compress=khr"]);
        let log = text(&out.stdout) + &text(&out.stderr);
        let json = glb_json(&std::fs::read(&c).unwrap());
        let required = names(&json["extensionsRequired"]);
        assert!(
            required.contains(&"EXT_meshopt_compression"),
            "{name}: {required:?}"
        );
        assert!(names(&json["extensionsUsed"]).contains(&"EXT_meshopt_compression"));
        let fallback = &json["buffers"][1];
        assert!(fallback.get("uri").is_none(), "{name}");
        assert_eq!(
            fallback["extensions"]["EXT_meshopt_compression"]["fallback"], true,
            "{name}"
        );
        let modes: Vec<&str> = json["bufferViews"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|v| v["extensions"]["EXT_meshopt_compression"]["mode"].as_str())
            .collect();
        // The IQM sample's few triangles would not shrink: kept uncompressed.
        assert!(
            modes.contains(&"TRIANGLES") || name.ends_with(".iqm"),
            "{name}: {modes:?}"
        );
        assert!(modes.contains(&"ATTRIBUTES"), "{name}: {modes:?}");
        let khr = glb_json(&std::fs::read(&k).unwrap());
        assert!(names(&khr["extensionsRequired"]).contains(&"KHR_meshopt_compression"));
        let info = |p: &Path| {
            let out = run_ok(&["info", "--json", s(p)]);
            let v: serde_json::Value =
                serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
            let mut counts = ["vertices", "triangles", "poses", "joints"].map(|k| v[k].clone());
            // The animations by count (each names its file).
            counts[3] =
                serde_json::json!([counts[3].clone(), v["animations"].as_array().map(Vec::len)]);
            counts
        };
        // Welded (vertices equal in every attribute and pose are one): at most as many
        // vertices, the other counts the same.
        let (ic, ik, iq) = (info(&c), info(&k), info(&q));
        assert!(ic[0].as_u64() <= iq[0].as_u64(), "{name}: {ic:?} {iq:?}");
        assert_eq!(ic[1..], iq[1..], "{name}");
        assert_eq!(ik, ic, "{name}");
        if name.ends_with(".iqm") {
            continue;
        }
        let error: f64 = log
            .lines()
            .find_map(|l| l.split("quantised, largest position error ").nth(1))
            .unwrap_or_else(|| panic!("{name}: no error report in {log}"))
            .trim()
            .parse()
            .unwrap();
        let poses = info(&q)[2].as_u64().unwrap().max(1);
        for frame in [0, poses / 2, poses - 1] {
            let obj = |p: &Path, tag: &str| {
                let o = dir.path().join(format!("{name}.{tag}.{frame}.obj"));
                let f = frame.to_string();
                run_ok(&["convert", s(p), s(&o), "--frame", &f, "--force"]);
                obj_points(&o)
            };
            let (pc, pq, ps) = (obj(&c, "c"), obj(&q, "q"), obj(&model, "s"));
            // The quantised file's points (in another order, duplicates welded).
            let points = |p: &[[f64; 3]]| {
                let mut v: Vec<[u64; 3]> = p.iter().map(|a| a.map(f64::to_bits)).collect();
                v.sort_unstable();
                v.dedup();
                v
            };
            assert_eq!(
                points(&pc),
                points(&pq),
                "{name} frame {frame}: the quantised file's positions"
            );
            assert_eq!(pq.len(), ps.len(), "{name} frame {frame}");
            let worst = pq
                .iter()
                .zip(&ps)
                .flat_map(|(a, b)| (0..3).map(move |k| (a[k] - b[k]).abs()))
                .fold(0.0, f64::max);
            assert!(
                worst <= error + 1e-4,
                "{name} frame {frame}: {worst} past the reported {error}"
            );
        }
    }
}
