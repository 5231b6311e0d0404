//! No Rust debug formatting in what a user reads (issue 26, criterion 6): `info`,
//! `validate`, `ls` and `convert` to every writable target, over a few corpus files of each
//! family (and the binary's samples without a corpus); no line of their output may hold
//! `Some(`, `None`, `Ok(`, `Err(`, `["`, `Int(`, `Float(` or an escaped quote `\"`.

use std::path::{Path, PathBuf};

mod common;

use common::{bin, corpus, files_under, s, sample, text};

/// Patterns that only Rust's `{:?}` writes.
const DEBUG: &[&str] = &[
    "Some(", "None", "Ok(", "Err(", "[\"", "Int(", "Float(", "\\\"",
];

/// The lines of `args`' output that hold debug formatting.
fn debug_lines(args: &[&str]) -> Vec<String> {
    let out = bin().args(args).output().expect("binary runs");
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    all.lines()
        .filter(|l| DEBUG.iter().any(|d| l.contains(d)))
        .map(|l| format!("{}: {l}", args.join(" ")))
        .collect()
}

/// Every command on `model`, outputs into `dir`.
fn check(model: &Path, dir: &Path, bad: &mut Vec<String>) {
    let m = s(model);
    bad.extend(debug_lines(&["info", m]));
    bad.extend(debug_lines(&["validate", m]));
    for (ext, variant) in [
        ("mdl", None),
        ("mdl", Some("gs5")),
        ("md2", None),
        ("md3", None),
        ("glb", None),
        ("obj", None),
    ] {
        let stem = model.file_stem().unwrap().to_string_lossy();
        let out = dir.join(format!("{stem}_{}.{ext}", variant.unwrap_or(ext)));
        let mut args = vec!["convert", m, s(&out), "--force", "-v"];
        if let Some(v) = variant {
            args.extend(["--mdl", v]);
        }
        bad.extend(debug_lines(&args));
    }
}

#[test]
fn no_debug_formatting_in_messages() {
    let dir = tempfile::tempdir().unwrap();
    let mut models: Vec<PathBuf> = ["demo.mdl", "tris.md2", "player.md3"]
        .iter()
        .map(|n| sample(dir.path(), n))
        .collect();
    if let Some(root) = corpus("") {
        // A few files of each family, chosen for what they hold: skins that are not found,
        // several textures, frame groups, long animation names, Cube 2 configurations.
        for rel in [
            "quake_mdl/github-Ademan-LibreQuake/lq1/progs/flame2.mdl",
            "quake_mdl/github-Ademan-LibreQuake/lq1/progs/zombie.mdl",
            "md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/head.md2",
            "md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/weapons2/machinegun/machinegun.md3",
            "md3/debian-nexuiz-data/nexuiz/data/data.pk3/models/turrets/hk.md3",
            "md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge",
            "md5/debian-redeclipse-data/redeclipse/data/actors/player/hud_hands.md5mesh",
            "md5/debian-redeclipse-data/redeclipse/data/props/flag/mesh.md5mesh",
            "assimp/test/models-nonbsd/MD5/Bob.md5mesh",
            "3dgs_mdl/github-ikskuh-libgamestudio/data/mdl/mdl4-golem.mdl",
            // A Quake IDPO file with 3D GameStudio skin types (validate's skin-type error).
            "quake_mdl/github-Acknex-Morbius/source/testcode/dance/griechin.mdl",
        ] {
            models.push(root.join(rel));
        }
        let md3 = root.join("md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/weapons2");
        let listed = debug_lines(&["ls", s(&md3)]);
        assert!(listed.is_empty(), "{}", listed.join("\n"));
        assert!(!files_under(&md3).is_empty());
    } else {
        eprintln!("RETROMODEL_CORPUS not set: the binary's samples only");
    }
    let out = tempfile::tempdir().unwrap();
    let mut bad = Vec::new();
    for m in &models {
        check(m, out.path(), &mut bad);
    }
    assert!(
        bad.is_empty(),
        "debug formatting in messages:\n{}",
        bad.join("\n")
    );
}

#[test]
fn view_without_a_display_says_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = sample(dir.path(), "demo.mdl");
    let out = bin()
        .args(["view", s(&mdl)])
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("WAYLAND_SOCKET")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("no display"), "{err}");
    assert!(err.contains("retromodel render"), "{err}");
    assert!(!err.contains(".rs:"), "a source path: {err}");
}

#[test]
fn top_level_help_lines_end_sentences_or_wrap() {
    // The command list of `--help` shows each command's one-line summary; a summary that
    // carries hard line breaks shows as lines cut in mid-sentence (a short line followed by
    // a continuation starting in lower case).
    let out = bin().arg("--help").env("COLUMNS", "80").output().unwrap();
    let help = text(&out.stdout);
    let lines: Vec<&str> = help.lines().collect();
    for w in lines.windows(2) {
        let (a, b) = (w[0].trim_end(), w[1].trim_start());
        let continuation = w[1].starts_with("            ") && !b.is_empty();
        assert!(
            !(continuation && a.len() < 60 && b.starts_with(|c: char| c.is_ascii_lowercase())),
            "cut in mid-sentence:\n{a}\n{b}"
        );
    }
}
