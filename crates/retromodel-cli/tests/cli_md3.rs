//! MD3 through the command line: `info` and `validate` on generated files, writing MD3 from
//! other formats, and on the corpus: the OpenArena players assembled from their folders
//! (node tree, one animation per `animation.cfg` entry, skins by `--skin-name`), every MD3
//! textured where its pictures are in the corpus, and the archive batch.

mod common;

use std::path::Path;

use common::{glb_json, run, run_ok, s, text};

#[test]
fn info_validate_and_convert_generated_md3() {
    let dir = tempfile::tempdir().unwrap();
    let md3 = dir.path().join("fixture.md3");
    run_ok(&["sample", s(&md3)]);
    let out = run_ok(&["info", s(&md3)]);
    let t = text(&out.stdout);
    assert!(t.contains("md3 version 15"), "{t}");
    assert!(t.contains("tags=\"tag_head tag_weapon tag_torso\""), "{t}");
    let out = run(&["validate", s(&md3), "--engine", "ioq3"]);
    assert!(
        text(&out.stdout).contains("stores 6 frames, the model 5: the extra ones are never drawn"),
        "{}",
        text(&out.stdout)
    );
    // To glTF: the tags are nodes animated with the frames.
    let glb = dir.path().join("fixture.glb");
    run_ok(&["convert", s(&md3), s(&glb)]);
    let doc = glb_json(&std::fs::read(&glb).unwrap());
    let names: Vec<&str> = doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n["name"].as_str())
        .collect();
    for tag in ["tag_head", "tag_weapon", "tag_torso"] {
        assert!(names.contains(&tag), "{names:?}");
    }
    let channels = doc["animations"][0]["channels"].as_array().unwrap();
    assert!(channels.iter().any(|c| c["target"]["path"] == "rotation"));
    // From MD2 and MDL: a valid MD3 with every frame.
    for name in ["tris.md2", "player.mdl"] {
        let input = common::sample(dir.path(), name);
        let out_md3 = dir.path().join(format!("{name}.md3"));
        let out = run_ok(&["convert", s(&input), s(&out_md3)]);
        let info = run_ok(&["info", "--json", s(&input)]);
        let want: serde_json::Value = serde_json::from_slice(&info.stdout).unwrap();
        let got: serde_json::Value =
            serde_json::from_slice(&run_ok(&["info", "--json", s(&out_md3)]).stdout).unwrap();
        assert_eq!(got["format"], "md3", "{}", text(&out.stderr));
        assert_eq!(got["poses"], common::poses_at_10_fps(&want), "{name}");
        assert_eq!(got["triangles"], want["triangles"], "{name}");
    }
}

fn players(corpus: &Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = common::files_under(&corpus.join("md3"))
        .into_iter()
        .filter(|p| p.file_name().is_some_and(|n| n == "animation.cfg"))
        .map(|p| p.parent().unwrap().to_path_buf())
        .collect();
    out.sort();
    out
}

#[test]
fn corpus_players_assemble() {
    let Some(corpus) = common::corpus("md3 players") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let players = players(&corpus);
    assert_eq!(players.len(), 3, "sarge, neko, gargoyle");
    for p in &players {
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        let glb = dir.path().join(format!("{name}.glb"));
        let out = run_ok(&["convert", s(p), s(&glb)]);
        let doc = glb_json(&std::fs::read(&glb).unwrap());
        let anims = doc["animations"].as_array().unwrap();
        assert_eq!(anims.len(), 25, "{name}: {}", text(&out.stderr));
        assert_eq!(anims[15]["name"], "LEGS_RUN");
        // The node chain head > tag_head > upper > tag_torso > lower.
        let nodes = doc["nodes"].as_array().unwrap();
        let index = |n: &str| nodes.iter().position(|x| x["name"] == n).unwrap();
        let parent_of = |i: usize| {
            nodes.iter().position(|x| {
                x["children"]
                    .as_array()
                    .is_some_and(|c| c.iter().any(|c| c.as_u64() == Some(i as u64)))
            })
        };
        let mut chain = vec![index("head")];
        while let Some(p) = parent_of(*chain.last().unwrap()) {
            chain.push(p);
        }
        let names: Vec<&str> = chain
            .iter()
            .map(|&i| nodes[i]["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["head", "tag_head", "upper", "tag_torso", "lower"],
            "{name}"
        );
        if name == "sarge" {
            // Three parts, each with its picture from the .skin files.
            assert_eq!(doc["images"].as_array().map_or(0, Vec::len), 1, "{name}");
            let red = dir.path().join("sarge-red.glb");
            run_ok(&["convert", s(p), s(&red), "--skin-name", "red"]);
            let doc = glb_json(&std::fs::read(&red).unwrap());
            assert_eq!(
                doc["materials"][0]["name"],
                "models/players/grism/redskin.tga"
            );
        }
    }
}

#[test]
fn corpus_md3_models_are_textured_where_their_pictures_are() {
    let Some(corpus) = common::corpus("md3 textures") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    // The OpenArena data as the game mounts it: both packages' pk3 folders in one game.
    let oa = corpus.join("md3/debian-openarena-data/openarena/baseoa");
    let oa88 = corpus.join("md3/debian-openarena-088-data/openarena/baseoa");
    run_ok(&[
        "convert",
        s(&corpus.join("md3")),
        s(&out),
        "--to",
        "glb",
        "--game-dir",
        s(&oa),
        "--game-dir",
        s(&oa88),
    ]);
    let mut textured = 0;
    let mut untextured = Vec::new();
    for p in common::files_under(&out) {
        let doc = glb_json(&std::fs::read(&p).unwrap());
        if doc.get("meshes").is_none() {
            continue;
        }
        if doc["images"].as_array().is_some_and(|a| !a.is_empty()) {
            textured += 1;
        } else {
            untextured.push(p.strip_prefix(&out).unwrap().display().to_string());
        }
    }
    untextured.sort();
    eprintln!("{textured} textured; untextured: {untextured:#?}");
    // What is left has its pictures outside the corpus (MANIFEST.tsv: "not in the
    // packages"), no shader at all, or the gargoyle player, which has no skins in the game.
    assert!(
        textured >= 34,
        "{textured} textured; untextured: {untextured:#?}"
    );
}

#[test]
fn archive_md3_models_convert() {
    let Some(corpus) = common::corpus("mp-pak0.pk3") else {
        return;
    };
    let pk3 = corpus.join("archives/debian-openarena-data/missionpack/mp-pak0.pk3");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = run(&["convert", s(&pk3), s(&out), "--to", "glb"]);
    let t = text(&o.stderr);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("46 files: 46 converted"), "{t}");
    let glbs: Vec<_> = common::files_under(&out)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "glb"))
        .collect();
    assert_eq!(glbs.len(), 46);
    // Textures found inside the archive by their shader names or scripts.
    let textured = glbs
        .iter()
        .filter(|p| {
            glb_json(&std::fs::read(p).unwrap())["images"]
                .as_array()
                .is_some_and(|a| !a.is_empty())
        })
        .count();
    eprintln!("mp-pak0.pk3: 46 MD3 converted, {textured} textured");
    // 15 of them: the others' shader scripts name pictures of the base game's pak0.pk3
    // (textures/effects/envmapred.tga ...), which a Team Arena archive alone does not hold.
    assert!(textured >= 15, "{textured}");
}
