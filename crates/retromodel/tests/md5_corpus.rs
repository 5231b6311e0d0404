//! Every MD5 file of the corpus outside the `invalid/` folders: parses, reads back exactly
//! (bit for bit) after writing, and agrees with the independent parser's `HEADERS.jsonl`.
//! The files in `invalid/` folders fail (their exact texts are pinned in `md5_text.rs`).

mod common;

use std::fmt::Debug;

use retromodel::formats::md5::{
    parse_anim, parse_camera, parse_mesh, write_anim, write_camera, write_mesh, AnimFile, MeshFile,
};
use retromodel::{ErrorKind, Limits};

/// Bit for bit: `Debug` prints `-0.0` and `0.0` apart.
fn same<T: Debug + PartialEq>(a: &T, b: &T, what: &str) {
    assert!(a == b, "{what}: values differ after writing");
    assert_eq!(format!("{a:?}"), format!("{b:?}"), "{what}");
}

fn u64s(v: &serde_json::Value) -> Vec<u64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .collect()
}

fn check_mesh(file: &MeshFile, warnings: &[String], h: &serde_json::Value, what: &str) {
    let n = |k: &str| h[k].as_u64().unwrap();
    assert_eq!(file.joints.len() as u64, n("numJoints"), "{what}");
    let stated = file
        .stated_meshes
        .map_or(file.meshes.len() as u64, u64::from);
    assert_eq!(stated, n("numMeshes"), "{what}");
    assert_eq!(file.meshes.len() as u64, n("meshes_found"), "{what}");
    let per_mesh = |f: fn(&retromodel::formats::md5::Mesh) -> usize| -> Vec<u64> {
        file.meshes.iter().map(|m| f(m) as u64).collect()
    };
    assert_eq!(
        per_mesh(|m| m.verts.len()),
        u64s(&h["mesh_verts"]),
        "{what}"
    );
    assert_eq!(per_mesh(|m| m.tris.len()), u64s(&h["mesh_tris"]), "{what}");
    assert_eq!(
        per_mesh(|m| m.weights.len()),
        u64s(&h["mesh_weights"]),
        "{what}"
    );
    // HEADERS lists the shader lines present; a mesh without one warns and reads as "".
    let shaders = common::str_array(&h["shaders"]);
    let with_line: Vec<&str> = file
        .meshes
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            !warnings
                .iter()
                .any(|w| *w == format!("mesh {i}: no shader line (read as \"\")"))
        })
        .map(|(_, m)| m.shader.as_str())
        .collect();
    assert_eq!(with_line, shaders, "{what}");
}

fn check_anim(file: &AnimFile, h: &serde_json::Value, what: &str) {
    let n = |k: &str| h[k].as_u64().unwrap();
    assert_eq!(file.hierarchy.len() as u64, n("numJoints"), "{what}");
    assert_eq!(file.baseframe.len() as u64, n("numJoints"), "{what}");
    assert_eq!(file.frames.len() as u64, n("numFrames"), "{what}");
    assert_eq!(file.frames.len() as u64, n("frames_found"), "{what}");
    // One bounds line a frame; banner.md5anim has one more, kept.
    assert!(file.bounds.len() as u64 >= n("numFrames"), "{what}");
    assert_eq!(
        f64::from(file.frame_rate),
        h["frameRate"].as_f64().unwrap(),
        "{what}"
    );
    assert_eq!(
        u64::from(file.num_animated_components),
        n("numAnimatedComponents"),
        "{what}"
    );
}

#[test]
fn corpus_md5_files() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let headers = common::headers(&dir);
    let limits = Limits::default();
    let (mut meshes, mut anims, mut cameras, mut invalid, mut compared) = (0, 0, 0, 0, 0);
    let (mut no_version, mut warned) = (0, 0);
    for path in common::files_with_extension(&dir, &["md5mesh", "md5anim", "md5camera"]) {
        let rel = common::relative(&dir, &path);
        let what = rel.as_str();
        let bytes = std::fs::read(&path).unwrap();
        let ext = path.extension().unwrap().to_str().unwrap();
        if rel.contains("/invalid/") {
            let e = match ext {
                "md5mesh" => parse_mesh(&bytes, &limits).map(|_| ()),
                "md5anim" => parse_anim(&bytes, &limits).map(|_| ()),
                _ => parse_camera(&bytes, &limits).map(|_| ()),
            }
            .expect_err(what);
            let text = e.to_string();
            assert!(
                text.starts_with(&format!("{ext}: ")) && text.contains(" at line "),
                "{what}: {text}"
            );
            if bytes.is_empty() {
                assert_eq!(
                    text, "md5mesh: expected numJoints, found end of file at line 1:1",
                    "{what}"
                );
                assert_eq!(e.kind, ErrorKind::Truncated);
            }
            eprintln!("{rel}: {text}");
            invalid += 1;
            continue;
        }
        let h = headers.get(&rel);
        let (version, warnings) = match ext {
            "md5mesh" => {
                let p = parse_mesh(&bytes, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
                let back = parse_mesh(write_mesh(&p.file).as_bytes(), &limits)
                    .unwrap_or_else(|e| panic!("{what}: written file: {e}"));
                same(&back.file, &p.file, what);
                if let Some(h) = h {
                    assert_eq!(h["format"], "md5mesh", "{what}");
                    check_mesh(&p.file, &p.warnings, h, what);
                }
                meshes += 1;
                (p.file.version, p.warnings)
            }
            "md5anim" => {
                let p = parse_anim(&bytes, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
                let back = parse_anim(write_anim(&p.file).as_bytes(), &limits)
                    .unwrap_or_else(|e| panic!("{what}: written file: {e}"));
                same(&back.file, &p.file, what);
                if let Some(h) = h {
                    assert_eq!(h["format"], "md5anim", "{what}");
                    check_anim(&p.file, h, what);
                }
                anims += 1;
                (p.file.version, p.warnings)
            }
            _ => {
                let p = parse_camera(&bytes, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
                let back = parse_camera(write_camera(&p.file).as_bytes(), &limits)
                    .unwrap_or_else(|e| panic!("{what}: written file: {e}"));
                same(&back.file, &p.file, what);
                cameras += 1;
                (p.file.version, p.warnings)
            }
        };
        let missing = warnings
            .iter()
            .any(|w| w == "no MD5Version line (read as version 10)");
        assert_eq!(missing, version.is_none(), "{what}: {warnings:?}");
        no_version += usize::from(missing);
        if !warnings.is_empty() {
            warned += 1;
            eprintln!("{rel}: {warnings:?}");
        }
        if let Some(h) = h {
            assert_eq!(h["header_missing"].as_bool().unwrap(), missing, "{what}");
            assert_eq!(h["md5version"].as_i64(), version.map(i64::from), "{what}");
            let crlf = bytes.windows(2).any(|w| w == b"\r\n");
            assert_eq!(h["crlf"].as_bool().unwrap(), crlf, "{what}");
            compared += 1;
        }
    }
    eprintln!(
        "{meshes} md5mesh, {anims} md5anim, {cameras} md5camera read and rewritten exactly; \
         {compared} checked against HEADERS.jsonl; {no_version} without a version line; \
         {warned} with warnings; {invalid} invalid ones refused"
    );
    // 28 md5mesh, 56 md5anim and 1 md5camera in all; 6 of them under invalid/ folders.
    assert_eq!((meshes, anims, cameras, invalid), (23, 56, 0, 6));
    assert_eq!(compared, 75, "HEADERS.jsonl rows compared");
    assert_eq!(no_version, 3);
    // 3 without a version line, 1 without a commandline, 2 meshes without a shader line,
    // 1 Latin-1 shader name, 2 anims with more bounds lines than frames.
    assert_eq!(warned, 9);
}
