//! `.glb`, `.gltf` (+ `.bin` and PNG files) and `.obj` (+ `.mtl` and PNG files) inputs go
//! through the registry like any model: `info`, `info --json`, `validate --engine
//! quakespasm` (checked as converted to Quake MDL), `render`, and `convert` back. Made from
//! the binary's sample MD2 and, with RETROMODEL_CORPUS, from a corpus MD2.

use std::path::{Path, PathBuf};

mod common;

use common::{corpus, run, run_ok, s, sample, text, write_file};

/// The interchange files converted from `source` into `dir`: `NAME_glb.glb`, `NAME_gltf.gltf`
/// with its side files, `NAME_obj.obj` with its side files (each stem its own: the skins
/// beside a .gltf and an .obj would meet).
fn interchange_files(dir: &Path, source: &Path, name: &str) -> Vec<PathBuf> {
    ["glb", "gltf", "obj"]
        .iter()
        .map(|ext| {
            let out = dir.join(format!("{name}_{ext}.{ext}"));
            run_ok(&["convert", s(source), s(&out)]);
            out
        })
        .collect()
}

/// `info --json` of one file.
fn info_json(path: &Path) -> serde_json::Value {
    let out = run_ok(&["info", "--json", s(path)]);
    serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap()
}

fn check_source(dir: &Path, source: &Path, name: &str) {
    let original = info_json(source);
    let files = interchange_files(dir, source, name);
    assert!(dir.join(format!("{name}_gltf.bin")).is_file());
    assert!(dir.join(format!("{name}_obj.mtl")).is_file());
    for (path, format) in files.iter().zip(["glb", "gltf", "obj"]) {
        let info = info_json(path);
        assert_eq!(info["format"], format, "{}", path.display());
        assert_eq!(
            info["triangles"],
            original["triangles"],
            "{}",
            path.display()
        );
        let plain = run_ok(&["info", s(path)]);
        assert!(
            text(&plain.stdout).contains(&format!("{}", original["triangles"])),
            "{}",
            text(&plain.stdout)
        );
        let v = run(&["validate", s(path), "--engine", "quakespasm"]);
        let out = text(&v.stdout);
        assert!(!out.is_empty());
        for line in out.lines() {
            assert!(
                line.ends_with("ok (quakespasm, as converted to Quake MDL)")
                    || line.contains(": as Quake MDL: "),
                "{line}"
            );
        }
        let own = run_ok(&["validate", s(path)]);
        assert!(
            text(&own.stdout).contains(&format!(
                "ok ({})",
                if format == "obj" { "obj" } else { "gltf" }
            )),
            "{}",
            text(&own.stdout)
        );
        let back = dir.join(format!("{name}_{format}_back.md2"));
        run_ok(&["convert", s(path), s(&back)]);
        assert_eq!(info_json(&back)["format"], "md2");
    }
    // A directory walk takes them too.
    let walk = run_ok(&["info", "--json", s(dir)]);
    let formats: Vec<String> = text(&walk.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|v| v["format"].as_str().map(str::to_string))
        .collect();
    for f in ["glb", "gltf", "obj"] {
        assert!(formats.iter().any(|g| g == f), "{formats:?}");
    }
}

#[test]
fn info_and_validate_take_gltf_and_obj() {
    let dir = tempfile::tempdir().unwrap();
    let md2 = sample(dir.path(), "sample.md2");
    let sub = dir.path().join("sample");
    std::fs::create_dir(&sub).unwrap();
    check_source(&sub, &md2, "sample");
}

#[test]
fn info_and_validate_take_gltf_and_obj_from_the_corpus() {
    let Some(corpus) = corpus("interchange inputs") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let horse = corpus.join("assimp/test/models-nonbsd/MD2/horse.md2");
    check_source(dir.path(), &horse, "horse");
}

#[test]
fn render_takes_gltf_and_obj() {
    let dir = tempfile::tempdir().unwrap();
    let md2 = sample(dir.path(), "sample.md2");
    for path in interchange_files(dir.path(), &md2, "sample") {
        let png = path.with_extension(format!(
            "{}.png",
            path.extension().unwrap().to_string_lossy()
        ));
        let out = run(&["render", s(&path), s(&png), "--size", "48x48"]);
        let err = text(&out.stderr);
        if !out.status.success() && err.contains("no GPU adapter") {
            assert!(
                std::env::var_os("RETROMODEL_REQUIRE_GPU").is_none(),
                "{err}"
            );
            eprintln!("no GPU adapter: skipped");
            return;
        }
        assert!(out.status.success(), "{}: {err}", path.display());
        let (w, h, rgba) = common::png_rgba(&png);
        assert_eq!((w, h), (48, 48));
        assert!(
            rgba.chunks_exact(4).any(|p| p[3] > 0),
            "{}: nothing drawn",
            path.display()
        );
    }
}

#[test]
fn broken_interchange_files_fail_with_exact_errors() {
    let dir = tempfile::tempdir().unwrap();
    let glb = write_file(dir.path(), "short.glb", b"glTF\x02\0\0\0\x05\0\0\0");
    let out = run(&["info", s(&glb)]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains(
            "gltf: GLB header: total length 5 is smaller than the 12-byte header at offset 0x8"
        ),
        "{}",
        text(&out.stderr)
    );
    // A .gltf whose buffer is missing: convert fails naming it.
    let md2 = sample(dir.path(), "sample.md2");
    let gltf = dir.path().join("lost.gltf");
    run_ok(&["convert", s(&md2), s(&gltf)]);
    std::fs::remove_file(dir.path().join("lost.bin")).unwrap();
    let out = run(&["convert", s(&gltf), s(&dir.path().join("lost.md2"))]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!("{}: gltf: ", gltf.display())),
        "{err}"
    );
    assert!(err.contains("lost.bin"), "{err}");
}
