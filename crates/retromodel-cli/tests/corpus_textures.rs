//! Corpus models whose textures lie beside them, found by the games' conventions, come out
//! of `convert` as glTF with a base-colour texture: the UFO:AI MD2 files (`.name` skins),
//! the Red Eclipse MD5 meshes (Cube 2 `md5skin` configurations), Bob.md5mesh (shaders that
//! are picture paths) and the Irrlicht MD2 files without a skin entry (`faerie2.bmp`,
//! `sydney.bmp` beside them), and the two 3D GameStudio files with an embedded DDS skin. The
//! other 3D GameStudio corpus models that name external skins do not have those pictures in
//! the corpus: they have no texture to find.

mod common;

use std::path::Path;

use common::{glb_json, run_ok, s};

/// The `.glb` files under `dir` that hold a mesh, each with whether its first material has a
/// base-colour texture backed by an image.
fn textured(dir: &Path) -> Vec<(String, bool)> {
    common::files_under(dir)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "glb"))
        .filter_map(|p| {
            let doc = glb_json(&std::fs::read(&p).unwrap());
            doc.get("meshes")?;
            let has = doc["materials"][0]["pbrMetallicRoughness"]["baseColorTexture"]["index"]
                .as_u64()
                .is_some()
                && doc["images"].as_array().is_some_and(|a| !a.is_empty());
            Some((p.display().to_string(), has))
        })
        .collect()
}

fn assert_all_textured(corpus: &Path, rel: &str, expect: usize) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    run_ok(&["convert", s(&corpus.join(rel)), s(&out), "--to", "glb"]);
    let got = textured(&out);
    let missing: Vec<&String> = got.iter().filter(|(_, t)| !t).map(|(p, _)| p).collect();
    assert!(missing.is_empty(), "{rel}: without a texture: {missing:#?}");
    assert_eq!(got.len(), expect, "{rel}: model outputs");
}

#[test]
fn ufoai_md2_and_red_eclipse_md5_are_textured() {
    let Some(corpus) = common::corpus("corpus textures") else {
        return;
    };
    assert_all_textured(&corpus, "md2", 80);
    assert_all_textured(&corpus, "md5", 20);
}

#[test]
fn bob_faerie_and_sydney_are_textured() {
    let Some(corpus) = common::corpus("corpus textures") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for rel in [
        "assimp/test/models-nonbsd/MD5/Bob.md5mesh",
        "assimp/test/models/MD2/faerie.md2",
        "assimp/test/models/MD2/sydney.md2",
        // The two corpus files with an embedded DDS skin.
        "3dgs_mdl/github-Acknex-LotterVersusTheWorld/game/models/sphere_of_death.mdl",
        "3dgs_hmp/github-ikskuh-libgamestudio/data/hmp/terrain.hmp",
    ] {
        let name = Path::new(rel).file_stem().unwrap().to_string_lossy();
        let glb = dir.path().join(format!("{name}.glb"));
        let out = run_ok(&["convert", s(&corpus.join(rel)), s(&glb)]);
        let doc = glb_json(&std::fs::read(&glb).unwrap());
        let images = doc["images"].as_array().map_or(0, Vec::len);
        let want = match name.as_ref() {
            "Bob" => 5,
            "terrain" => 2,
            _ => 1,
        };
        assert_eq!(images, want, "{rel}: {}", common::text(&out.stderr));
    }
}
