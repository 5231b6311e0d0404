//! IQM on the command line (issue 45: no CLI test touched IQM): `info` of a corpus model,
//! `validate --engine ioq3` with its exact findings and exit status, every engine's name
//! taken, and `convert` to glTF and back to IQM keeping meshes, joints and triangles.

mod common;

use common::{corpus, run, run_ok, s, text};

const SNOUT: &str = "iqm/debian-cube2-data/cube2/packages/models/snoutx10k/snoutx10k.iqm";

fn info_json(path: &str) -> serde_json::Value {
    let out = run_ok(&["info", "--json", path]);
    serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap()
}

#[test]
fn info_and_validate_a_corpus_iqm() {
    let Some(root) = corpus("IQM CLI test") else {
        return;
    };
    let path = root.join(SNOUT);
    let out = run_ok(&["info", s(&path)]);
    let t = text(&out.stdout);
    assert!(
        t.contains(": iqm version 2\n")
            && t.contains(
                "2 meshes, 2451 vertices, 3520 triangles, 101 poses (0 frame groups), 75 joints"
            ),
        "{t}"
    );
    // ioquake3: both meshes are over its vertex and triangle limits (exit 1).
    let v = run(&["validate", "--engine", "ioq3", s(&path)]);
    assert_eq!(v.status.code(), Some(1), "{}", text(&v.stderr));
    let lines: Vec<String> = text(&v.stdout)
        .lines()
        .map(|l| l.replacen(&format!("{}: ", path.display()), "", 1))
        .collect();
    assert_eq!(
        lines,
        [
            "error: mesh 0 (\"Lower\"): 1419 vertices, 2064 triangles: ioquake3 takes at most 999 and 1999",
            "error: mesh 1 (\"Upper\"): 1032 vertices, 1456 triangles: ioquake3 takes at most 999 and 1999",
        ]
    );
    for engine in ["darkplaces", "fteqw", "tesseract"] {
        let v = run_ok(&["validate", "--engine", engine, s(&path)]);
        assert_eq!(
            text(&v.stdout).trim_end(),
            format!("{}: ok ({engine})", path.display()),
            "{engine}"
        );
    }
}

#[test]
fn convert_iqm_to_gltf_and_back() {
    let Some(root) = corpus("IQM CLI test") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = root.join(SNOUT);
    let glb = dir.path().join("snout.glb");
    let back = dir.path().join("snout.iqm");
    run_ok(&["convert", s(&path), s(&glb)]);
    run_ok(&["convert", s(&glb), s(&back)]);
    let (a, b) = (info_json(s(&path)), info_json(s(&back)));
    for key in ["vertices", "triangles", "joints"] {
        assert_eq!(a[key], b[key], "{key}: {a} -> {b}");
        assert!(a[key].as_u64().is_some_and(|n| n > 0), "{key}: {a}");
    }
    assert_eq!(b["format"], "iqm", "{b}");
}
