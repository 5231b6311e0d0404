//! The binary on the real corpus (`RETROMODEL_CORPUS`): `info --json` agrees with the
//! independent `HEADERS.jsonl`, and `convert` writes every IDPO file back byte for byte.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

fn corpus() -> Option<PathBuf> {
    let Some(dir) = std::env::var_os("RETROMODEL_CORPUS") else {
        eprintln!("RETROMODEL_CORPUS is not set: corpus test skipped");
        return None;
    };
    let dir = PathBuf::from(dir);
    assert!(
        dir.join("HEADERS.jsonl").is_file(),
        "{} has no HEADERS.jsonl",
        dir.display()
    );
    Some(dir)
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_retromodel"))
}

#[test]
fn info_json_agrees_with_headers_jsonl() {
    let Some(dir) = corpus() else { return };
    let expected: HashMap<String, serde_json::Value> =
        std::fs::read_to_string(dir.join("HEADERS.jsonl"))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .filter(|v| v["format"] == "quake_mdl")
            .map(|v| (v["path"].as_str().unwrap().to_string(), v))
            .collect();
    let out = bin()
        .args(["info", "--json"])
        .arg(dir.join("quake_mdl"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut seen = 0;
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let got: serde_json::Value = serde_json::from_str(line).unwrap();
        let path = PathBuf::from(got["path"].as_str().unwrap());
        let rel = path
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .into_owned();
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
    let Some(dir) = corpus() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let mut stack = vec![dir.clone()];
    let mut n = 0;
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
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
    }
    assert!(n >= 160, "{n} IDPO files");
    eprintln!("{n} IDPO files converted byte for byte");
}
