//! The command line on archives: `ls`, `ARCHIVE:PATH` for `info`, `validate` and `convert`,
//! batch conversion mirroring the paths inside an archive, and `--game-dir` with archives.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_contains, run, run_ok, s, text};
use retromodel::image::{pcx, Palette};
use retromodel::vfs::{self, pak};

/// A PAK holding the binary's sample Quake MDL and MD2 at game paths, the MD2's skin, and a
/// text file, plus a PK3 holding the same MD2 alone; written into `dir`.
fn archives(dir: &Path) -> (PathBuf, PathBuf) {
    let mdl = std::fs::read(common::sample(dir, "s.mdl")).unwrap();
    let md2 = std::fs::read(common::sample(dir, "s.md2")).unwrap();
    let palette = Palette::QUAKE;
    let indices: Vec<u8> = (0..32 * 16).map(|i| (i % 200) as u8 + 16).collect();
    let skin = pcx::encode_indexed(32, 16, &indices, &palette);
    let pak_path = dir.join("pak0.pak");
    let bytes = pak::write(&[
        ("progs/player.mdl", &mdl),
        ("models/fixture/tris.md2", &md2),
        ("models/fixture/skin.pcx", &skin),
        ("readme.txt", b"hello"),
    ])
    .unwrap();
    std::fs::write(&pak_path, bytes).unwrap();
    let pk3_path = dir.join("models.pk3");
    let bytes = vfs::zip::write(&[("models/other/tris.md2", &md2, true)]).unwrap();
    std::fs::write(&pk3_path, bytes).unwrap();
    (pak_path, pk3_path)
}

/// The archives of [`archives`], moved into a new game folder `dir/name` as `pak0.pak` and
/// `models.pk3`; returns the folder.
fn game_folder(dir: &Path, name: &str) -> PathBuf {
    let (pak, pk3) = archives(dir);
    let game = dir.join(name);
    std::fs::create_dir_all(&game).unwrap();
    std::fs::rename(&pak, game.join("pak0.pak")).unwrap();
    std::fs::rename(&pk3, game.join("models.pk3")).unwrap();
    game
}

#[test]
fn ls_lists_files_and_model_formats() {
    let dir = tempfile::tempdir().unwrap();
    let (pak, _) = archives(dir.path());
    let out = run_ok(&["ls", s(&pak)]);
    let t = text(&out.stdout);
    let lines: Vec<&str> = t.lines().map(str::trim_start).collect();
    assert_eq!(lines.len(), 4, "{t}");
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("progs/player.mdl  [quake-mdl]")),
        "{t}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("models/fixture/tris.md2  [md2]")),
        "{t}"
    );
    assert!(lines.iter().any(|l| l == &"5  readme.txt"), "{t}");
    assert_contains(&out.stderr, "4 files from 1 source");
    // --models --json: only the models, one object each.
    let out = run_ok(&["ls", s(&pak), "--models", "--json"]);
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let formats: Vec<(&str, &str)> = rows
        .iter()
        .map(|r| (r["path"].as_str().unwrap(), r["format"].as_str().unwrap()))
        .collect();
    assert_eq!(
        formats,
        [
            ("models/fixture/tris.md2", "md2"),
            ("progs/player.mdl", "quake-mdl")
        ]
    );
    // A folder inside the archive.
    let out = run_ok(&["ls", &format!("{}:models", s(&pak))]);
    assert_eq!(text(&out.stdout).lines().count(), 2);
}

#[test]
fn ls_of_a_game_folder_shows_the_winning_copies() {
    let dir = tempfile::tempdir().unwrap();
    let game = game_folder(dir.path(), "game");
    std::fs::write(game.join("readme.txt"), b"loose copy").unwrap();
    let out = run_ok(&["ls", s(&game), "--json"]);
    let rows: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let row = |p: &str| rows.iter().find(|r| r["path"] == p).unwrap().clone();
    assert_eq!(row("readme.txt")["size"], 10);
    assert!(row("models/other/tris.md2")["source"]
        .as_str()
        .unwrap()
        .ends_with("models.pk3"));
    assert!(row("progs/player.mdl")["source"]
        .as_str()
        .unwrap()
        .ends_with("pak0.pak"));
    assert_contains(&out.stderr, "from 3 sources");
}

#[test]
fn info_validate_and_convert_take_paths_inside_archives() {
    let dir = tempfile::tempdir().unwrap();
    let (pak, _) = archives(dir.path());
    let inner = format!("{}:models/fixture/tris.md2", s(&pak));
    // The skin path stored in the MD2 is found inside the same archive.
    let out = run_ok(&["info", &inner, "--json"]);
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["path"], inner);
    assert_eq!(v["format"], "md2");
    assert_eq!(v["skin_pictures"], 1, "{v}");
    // The whole archive: both models.
    let out = run_ok(&["info", s(&pak)]);
    assert_contains(&out.stdout, "pak0.pak:progs/player.mdl: quake-mdl");
    assert_contains(&out.stdout, "pak0.pak:models/fixture/tris.md2: md2");
    assert_contains(&out.stderr, "2 files, 2 ok, 0 failed");
    let out = run(&["validate", s(&pak)]);
    assert_contains(&out.stdout, "pak0.pak:progs/player.mdl: ");
    // One model out of the archive.
    let glb = dir.path().join("tris.glb");
    run_ok(&["convert", &inner, s(&glb)]);
    let doc = common::glb_json(&std::fs::read(&glb).unwrap());
    assert_eq!(
        doc["images"].as_array().map(Vec::len),
        Some(1),
        "the skin from the archive is embedded"
    );
    // A missing path names the archive.
    let out = run(&["info", &format!("{}:progs/missing.mdl", s(&pak))]);
    assert!(!out.status.success());
    assert_contains(
        &out.stderr,
        "pak0.pak: no \"progs/missing.mdl\" in the archive",
    );
}

#[test]
fn batch_conversion_mirrors_the_paths_inside_an_archive() {
    let dir = tempfile::tempdir().unwrap();
    let (pak, _) = archives(dir.path());
    let out_dir = dir.path().join("out");
    let out = run_ok(&["convert", s(&pak), s(&out_dir), "--to", "glb"]);
    assert_contains(&out.stderr, "2 files: 2 converted");
    let written: Vec<String> = common::files_under(&out_dir)
        .iter()
        .map(|p| {
            p.strip_prefix(&out_dir)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(written, ["models/fixture/tris.glb", "progs/player.glb"]);
    // A folder inside the archive mirrors below that folder.
    let out_dir = dir.path().join("out2");
    run_ok(&[
        "convert",
        &format!("{}:models", s(&pak)),
        s(&out_dir),
        "--to",
        "obj",
    ]);
    assert!(out_dir.join("fixture/tris.obj").is_file());
}

#[test]
fn game_dir_archives_supply_skins() {
    let dir = tempfile::tempdir().unwrap();
    let game = game_folder(dir.path(), "baseq2");
    // The loose model names models/fixture/skin.pcx, which only the game folder's PAK holds.
    let model = common::sample(dir.path(), "loose.md2");
    let info = |extra: &[&str]| {
        let mut args = vec!["info", s(&model), "--json"];
        args.extend_from_slice(extra);
        let out = run_ok(&args);
        serde_json::from_str::<serde_json::Value>(text(&out.stdout).trim()).unwrap()
    };
    assert_eq!(info(&[])["skin_pictures"], 0);
    assert_eq!(info(&["--game-dir", s(&game)])["skin_pictures"], 1);
}
