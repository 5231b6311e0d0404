//! The `retromodel` binary on MD5: info --json agrees with HEADERS.jsonl, an md5mesh lists
//! the animations beside it, convert writes the same format back (values exact), validate
//! and bench --skinning run, and errors carry line:column.

use std::path::Path;

use retromodel::formats::md5::{self, fixtures};
use retromodel::Limits;

mod common;

use common::{
    corpus, header_rows, info_by_path, md5_with_anim, run, run_ok, s, strings, text, write_file,
};

#[test]
fn info_json_agrees_with_headers_jsonl_for_md5() {
    let Some(dir) = corpus("corpus test") else {
        return;
    };
    let out = run_ok(&["info", "--json", s(&dir.join("md5"))]);
    let got = info_by_path(&out.stdout, &dir);
    let mut seen = 0;
    for h in header_rows(&dir) {
        let rel = h["path"].as_str().unwrap();
        let Some(g) = got.get(rel) else { continue };
        match h["format"].as_str().unwrap() {
            "md5mesh" => {
                assert_eq!(g["format"], "md5mesh", "{rel}");
                assert_eq!(g["joints"], h["numJoints"], "{rel}");
                assert_eq!(
                    g["meshes"].as_u64(),
                    Some(h["meshes_found"].as_u64().unwrap()),
                    "{rel}"
                );
                let sum = |k: &str| -> u64 {
                    h[k].as_array()
                        .unwrap()
                        .iter()
                        .map(|v| v.as_u64().unwrap())
                        .sum()
                };
                assert_eq!(g["vertices"].as_u64(), Some(sum("mesh_verts")), "{rel}");
                assert_eq!(g["triangles"].as_u64(), Some(sum("mesh_tris")), "{rel}");
                // HEADERS lists no shader for a mesh without a shader line; we read "".
                if h["shaders"].as_array().unwrap().len()
                    == h["meshes_found"].as_u64().unwrap() as usize
                {
                    assert_eq!(g["skin_names"], h["shaders"], "{rel}");
                } else {
                    assert!(
                        g["skin_names"].as_array().unwrap().iter().any(|n| n == ""),
                        "{rel}"
                    );
                }
            }
            "md5anim" => {
                assert_eq!(g["format"], "md5anim", "{rel}");
                assert_eq!(g["joints"], h["numJoints"], "{rel}");
                assert_eq!(g["poses"], h["numFrames"], "{rel}");
                assert_eq!(
                    g["clips"][0]["fps"].as_f64(),
                    h["frameRate"].as_f64(),
                    "{rel}"
                );
                assert_eq!(g["clips"][0]["count"], h["numFrames"], "{rel}");
            }
            _ => continue,
        }
        seen += 1;
    }
    assert_eq!(seen, 75);
}

#[test]
fn md5mesh_info_lists_the_animations_that_fit() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = md5_with_anim(dir.path(), "m.md5mesh");
    let mut other = fixtures::anim_file();
    other.hierarchy[0].name = "stranger".into();
    std::fs::write(dir.path().join("other.md5anim"), md5::write_anim(&other)).unwrap();
    let out = run_ok(&["info", "--json", s(&mesh)]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let anims = strings(&v["animations"], "file");
    assert_eq!(anims, ["wave.md5anim"]);
    let t = text(&run(&["info", s(&mesh)]).stdout);
    assert!(
        t.contains("animation \"wave\": 3 frames at 24 fps") && t.contains("from wave.md5anim"),
        "{t}"
    );
}

#[test]
fn convert_same_format_writes_values_back_exactly() {
    let dir = tempfile::tempdir().unwrap();
    for (name, bytes) in fixtures::all() {
        let input = write_file(dir.path(), name, &bytes);
        let ext = Path::new(name).extension().unwrap().to_str().unwrap();
        let output = dir.path().join(format!("out.{ext}"));
        let out = run(&["convert", s(&input), s(&output), "--force"]);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let written = std::fs::read(&output).unwrap();
        let l = Limits::default();
        match ext {
            "md5mesh" => assert_eq!(
                md5::parse_mesh(&written, &l).unwrap().file,
                md5::parse_mesh(&bytes, &l).unwrap().file
            ),
            "md5anim" => assert_eq!(
                md5::parse_anim(&written, &l).unwrap().file,
                md5::parse_anim(&bytes, &l).unwrap().file
            ),
            _ => assert_eq!(
                md5::parse_camera(&written, &l).unwrap().file,
                md5::parse_camera(&bytes, &l).unwrap().file
            ),
        }
    }
}

#[test]
fn validate_and_errors_with_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = write_file(dir.path(), "m.md5mesh", fixtures::skeleton());
    let v = run(&["validate", s(&mesh)]);
    assert!(v.status.success(), "{}", text(&v.stdout));
    assert!(text(&v.stdout).contains("ok (doom3)"));
    let bad = dir.path().join("bad.md5mesh");
    let broken = text(&fixtures::skeleton()).replacen("numJoints", "numjoints", 1);
    std::fs::write(&bad, broken).unwrap();
    let r = run(&["info", s(&bad)]);
    assert_eq!(r.status.code(), Some(1));
    assert!(
        text(&r.stderr)
            .contains("md5mesh: unknown keyword numjoints (expected numJoints) at line "),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn bench_skinning_prints_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = md5_with_anim(dir.path(), "m.md5mesh");
    let out = run_ok(&["bench", s(&mesh), "--skinning", "--rounds", "1"]);
    let line = text(&out.stdout);
    assert!(
        line.starts_with("files=1 vertices=4000 rounds=1 "),
        "{line}"
    );
    let vps: f64 = line.trim().rsplit('=').next().unwrap().parse().unwrap();
    assert!(vps > 0.0);
}
