//! The binary on the real corpus (`RETROMODEL_CORPUS`): `info --json` agrees with the
//! independent `HEADERS.jsonl`, and `convert` writes every IDPO file back byte for byte.

use std::collections::HashMap;
use std::path::Path;

mod common;

use common::{bin, corpus, files_under, header_rows, info_by_path};

#[test]
fn info_json_agrees_with_headers_jsonl() {
    let Some(dir) = corpus("corpus test") else {
        return;
    };
    let expected: HashMap<String, serde_json::Value> = header_rows(&dir)
        .into_iter()
        .filter(|v| v["format"] == "quake_mdl")
        .map(|v| (v["path"].as_str().unwrap().to_string(), v))
        .collect();
    let mut seen = 0;
    for (rel, got) in info_dir(&dir, "quake_mdl") {
        let h = &expected[&rel];
        let groups: u64 = h["group_frame_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(got["format"], "quake-mdl");
        assert_eq!(got["version"], h["version"], "{rel}");
        assert_eq!(got["vertices"], h["num_verts"], "{rel}");
        assert_eq!(got["triangles"], h["num_tris"], "{rel}");
        assert_eq!(
            got["poses"].as_u64(),
            Some(h["simple_frames"].as_u64().unwrap() + groups),
            "{rel}"
        );
        assert_eq!(got["frame_groups"], h["group_frames"], "{rel}");
        assert_eq!(got["skins"], h["num_skins"], "{rel}");
        assert_eq!(got["trailing_bytes"], h["trailing_bytes"], "{rel}");
        assert_eq!(got["header"]["num_frames"], h["num_frames"], "{rel}");
        assert_eq!(got["header"]["skinheight"], h["skin_h"], "{rel}");
        assert_eq!(got["header"]["synctype"], h["synctype"], "{rel}");
        seen += 1;
    }
    assert_eq!(seen, expected.len());
}

#[test]
fn convert_writes_every_idpo_file_back_byte_for_byte() {
    let Some(dir) = corpus("corpus test") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let mut n = 0;
    for p in files_under(&dir) {
        let bytes = std::fs::read(&p).unwrap();
        if !bytes.starts_with(b"IDPO") {
            continue;
        }
        let out = tmp.path().join(format!("{n}.mdl"));
        let status = bin().arg("convert").arg(&p).arg(&out).output().unwrap();
        assert!(
            status.status.success(),
            "{}: {}",
            p.display(),
            String::from_utf8_lossy(&status.stderr)
        );
        assert!(
            std::fs::read(&out).unwrap() == bytes,
            "{}: differs",
            p.display()
        );
        n += 1;
    }
    assert!(n >= 160, "{n} IDPO files");
    eprintln!("{n} IDPO files converted byte for byte");
}

/// `info --json` on the corpus's folder `sub`, as JSON values by path relative to `dir`.
fn info_dir(dir: &Path, sub: &str) -> HashMap<String, serde_json::Value> {
    let out = bin()
        .args(["info", "--json"])
        .arg(dir.join(sub))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    info_by_path(&out.stdout, dir)
}

#[test]
fn md2_info_json_agrees_with_headers_jsonl() {
    let Some(dir) = corpus("corpus test") else {
        return;
    };
    let got = info_dir(&dir, "md2");
    let mut seen = 0;
    for h in header_rows(&dir) {
        let rel = h["path"].as_str().unwrap();
        if h["format"] != "md2" || !rel.starts_with("md2/") {
            continue;
        }
        let g = &got[rel];
        assert_eq!(g["format"], "md2", "{rel}");
        assert_eq!(g["vertices"], h["num_verts"], "{rel}");
        assert_eq!(g["triangles"], h["num_tris"], "{rel}");
        assert_eq!(g["poses"], h["num_frames"], "{rel}");
        assert_eq!(g["skins"], h["num_skins"], "{rel}");
        assert_eq!(g["skin_names"], h["skin_names"], "{rel}");
        assert_eq!(g["header"]["num_glcmds"], h["num_glcmds"], "{rel}");
        assert_eq!(g["header"]["ofs_end"], h["ofs_end"], "{rel}");
        seen += 1;
    }
    assert_eq!(seen, 80);
    assert_eq!(got.len(), 80);
}

#[test]
fn convert_between_mdl_and_md2_and_back_keeps_counts() {
    let Some(dir) = corpus("corpus test") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let info = |p: &std::path::Path| -> serde_json::Value {
        let out = bin().args(["info", "--json"]).arg(p).output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let mut n = 0;
    for (sub, ext, other) in [("quake_mdl", "mdl", "md2"), ("md2", "md2", "mdl")] {
        for p in files_under(&dir.join(sub)) {
            if p.extension().and_then(|e| e.to_str()) != Some(ext) {
                continue;
            }
            let there = tmp.path().join(format!("{n}.{other}"));
            let back = tmp.path().join(format!("{n}.back.{ext}"));
            for (from, to) in [(&p, &there), (&there, &back)] {
                let out = bin().arg("convert").arg(from).arg(to).output().unwrap();
                assert!(
                    out.status.success(),
                    "{} -> {}: {}",
                    from.display(),
                    to.display(),
                    String::from_utf8_lossy(&out.stderr)
                );
            }
            let (a, b, c) = (info(&p), info(&there), info(&back));
            assert_eq!(a["triangles"], b["triangles"], "{}", p.display());
            assert_eq!(a["triangles"], c["triangles"], "{}", p.display());
            // Frame groups become frames at 10 fps, each group as long as in the source.
            let poses = common::poses_at_10_fps(&a);
            assert_eq!(b["poses"], poses, "{}: poses", p.display());
            assert_eq!(c["poses"], poses, "{}: poses", p.display());
            if other == "md2" {
                assert_eq!(
                    b["header"]["gl_triangles"],
                    a["triangles"],
                    "{}",
                    p.display()
                );
                // Each skin's first picture went out as PCX beside the MD2 and came back
                // into the MDL.
                assert_eq!(b["skin_pictures"], a["skins"], "{}", p.display());
                assert_eq!(c["skin_pictures"], a["skins"], "{}", p.display());
            }
            n += 1;
        }
    }
    assert!(n >= 200, "{n} files converted");
    eprintln!("{n} files converted to the other format and back");
}
