//! One meaning for a path across commands: a game folder holding archives names the same
//! models to `info`, `info --json`, `validate`, batch `convert` and `ls` (the copy the game
//! uses of each path: loose files over archives, a later archive over an earlier one); an
//! unreadable archive is reported while the other models go on.

mod common;

use std::path::Path;

use common::{assert_contains, ls_models, run, run_ok, s, text, tree_path};

/// The tree paths of the models `info --json PATH` shows, sorted, with the shown paths.
fn info_json_models(game: &Path, path: &Path) -> (Vec<String>, Vec<String>) {
    let out = run_ok(&["info", "--json", s(path)]);
    let shown: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            assert!(v.get("error").is_none(), "{v}");
            v["path"].as_str().unwrap().to_string()
        })
        .collect();
    let mut paths: Vec<String> = shown.iter().map(|p| tree_path(game, p)).collect();
    paths.sort();
    (paths, shown)
}

/// The tree paths of the files under `out`, extension dropped, sorted.
fn written(out: &Path) -> Vec<String> {
    let mut v: Vec<String> = common::files_under(out)
        .iter()
        .map(|p| {
            let rel = p.strip_prefix(out).unwrap().with_extension("");
            rel.to_string_lossy().into_owned()
        })
        .collect();
    v.sort();
    v
}

fn without_extension(paths: &[String]) -> Vec<String> {
    let mut v: Vec<String> = paths
        .iter()
        .map(|p| {
            p.rsplit_once('.')
                .map_or(p.as_str(), |(s, _)| s)
                .to_string()
        })
        .collect();
    v.sort();
    v
}

#[test]
fn a_game_folder_names_the_same_models_to_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let game = common::game_folder_with_archives(dir.path(), "game");
    let listed = ls_models(&game);
    assert_eq!(
        listed,
        [
            "models/shadow/tris.md2",
            "models/walker/tris.md2",
            "progs/loose.mdl",
            "progs/zipped.mdl"
        ]
    );
    // info --json: the same models, those inside the archive as ARCHIVE:PATH, the loose copy
    // of a path the PAK also holds.
    let (paths, shown) = info_json_models(&game, &game);
    assert_eq!(paths, listed);
    let pk3 = game.join("pak0.pk3");
    assert!(
        shown.contains(&format!("{}:progs/zipped.mdl", s(&pk3))),
        "{shown:?}"
    );
    assert!(
        shown.contains(&s(&game.join("models/shadow/tris.md2")).to_string()),
        "{shown:?}"
    );
    // Plain info: one summary line per model, and the tally.
    let out = run_ok(&["info", s(&game)]);
    let mut heads: Vec<String> = text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with(' '))
        .map(|l| tree_path(&game, l.rsplit_once(": ").unwrap().0))
        .collect();
    heads.sort();
    assert_eq!(heads, listed);
    assert_contains(&out.stderr, "4 files, 4 ok, 0 failed");
    // validate reports each of them.
    let out = run(&["validate", s(&game)]);
    for p in [
        format!("{}:models/walker/tris.md2: ", s(&pk3)),
        format!("{}: ", s(&game.join("progs/loose.mdl"))),
    ] {
        assert_contains(&out.stdout, &p);
    }
    // Batch conversion mirrors the game's tree.
    let out_dir = dir.path().join("out");
    let out = run_ok(&["convert", s(&game), s(&out_dir), "--to", "glb"]);
    assert_contains(&out.stderr, "4 files: 4 converted");
    assert_eq!(written(&out_dir), without_extension(&listed));
    // An archive's own path and ARCHIVE:FOLDER name its part of the same set.
    let (paths, _) = info_json_models(&game, &pk3);
    assert_eq!(paths, ["models/walker/tris.md2", "progs/zipped.mdl"]);
    let (paths, _) = info_json_models(&game, Path::new(&format!("{}:models", s(&pk3))));
    assert_eq!(paths, ["models/walker/tris.md2"]);
}

#[test]
fn an_unreadable_archive_in_a_folder_is_reported_and_the_rest_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let game = common::game_folder_with_archives(dir.path(), "game");
    let broken = common::write_file(&game, "zz-broken.pk3", b"PK\x03\x04 cut short");
    let out = run(&["info", s(&game)]);
    assert_eq!(out.status.code(), Some(1));
    // The archive's own error, naming it.
    assert_contains(&out.stderr, &format!("{}: ", s(&broken)));
    assert_contains(&out.stderr, "zip");
    assert_contains(&out.stderr, "5 files, 4 ok, 1 failed");
    assert_contains(&out.stdout, "progs/zipped.mdl: quake-mdl");
    // ls leaves it out with a warning and lists the others.
    let out = run_ok(&["ls", s(&game), "--models"]);
    assert_contains(&out.stderr, &format!("warning: {}: ", s(&broken)));
    assert_eq!(text(&out.stdout).lines().count(), 4);
}

#[test]
fn corpus_game_folder_names_the_same_models_to_ls_info_and_convert() {
    let Some(corpus) = common::corpus("the corpus game folder") else {
        return;
    };
    // A folder holding OpenArena's mp-pak0.pk3 and nothing else.
    let game = corpus.join("archives/debian-openarena-data/missionpack");
    let listed = ls_models(&game);
    assert!(listed.len() >= 40, "{listed:?}");
    let (paths, _) = info_json_models(&game, &game);
    assert_eq!(paths, listed);
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    let out = run_ok(&["convert", s(&game), s(&out_dir), "--to", "glb"]);
    assert_contains(
        &out.stderr,
        &format!("{} files: {} converted", listed.len(), listed.len()),
    );
    // One .glb per model (textures embedded), at the model's path in the archive.
    assert_eq!(written(&out_dir), without_extension(&listed));
}
