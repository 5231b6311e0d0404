//! The `retromodel` binary on MD2: sample, info, validate --engine quake2, skins found
//! through --game-dir and beside the model, and convert MDL <-> MD2.

use std::process::Output;

use retromodel::formats::md2;
use retromodel::image::{pcx, Palette};

mod common;

use common::{run, run_ok, s, sample, strings, text, write_file};

fn json(out: &Output) -> serde_json::Value {
    assert!(out.status.success(), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn sample_md2_info_and_validate() {
    let dir = tempfile::tempdir().unwrap();
    let p = sample(dir.path(), "demo.md2");
    let bytes = std::fs::read(&p).unwrap();
    assert_eq!(
        bytes,
        md2::fixtures::build(&md2::fixtures::Spec::everything()).write()
    );
    let info = json(&run(&["info", "--json", s(&p)]));
    assert_eq!(info["format"], "md2");
    assert_eq!(info["vertices"], 10);
    assert_eq!(info["triangles"], 16);
    assert_eq!(info["poses"], 6);
    assert_eq!(info["skins"], 3);
    assert_eq!(info["skin_names"][2], "x".repeat(64));
    assert_eq!(info["header"]["gl_strips"], 1);
    assert_eq!(info["header"]["gl_fans"], 2);
    assert_eq!(info["trailing_bytes"], 8, "the gap and the trailing bytes");
    let clips = strings(&info["clips"], "name");
    assert_eq!(clips, ["stand", "run"]);

    let v = run(&["validate", s(&p)]);
    assert!(v.status.success(), "{}", text(&v.stdout));
    assert!(text(&v.stdout).contains("ok (quake2)"));
    let wrong = run(&["validate", s(&p), "--engine", "glquake"]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(text(&wrong.stderr).contains("unknown engine \"glquake\" for MD2"));
}

#[test]
fn validate_flags_a_file_without_gl_commands() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("nogl.md2");
    let spec = md2::fixtures::Spec {
        glcmds: false,
        ..Default::default()
    };
    std::fs::write(&p, md2::fixtures::build(&spec).write()).unwrap();
    let v = run(&["validate", s(&p)]);
    assert_eq!(v.status.code(), Some(1));
    assert!(text(&v.stdout).contains("error: no GL commands"));
    assert!(run(&["validate", s(&p), "--engine", "quake2-soft"])
        .status
        .success());
    // Converting MD2 to MD2 keeps the bytes; going through MDL gives GL commands back.
    let mdl = dir.path().join("x.mdl");
    let back = dir.path().join("back.md2");
    assert!(run(&["convert", s(&p), s(&mdl)]).status.success());
    assert!(run(&["convert", s(&mdl), s(&back)]).status.success());
    assert!(run(&["validate", s(&back)]).status.success());
}

#[test]
fn md2_skins_resolve_under_game_dir_and_beside_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let game = dir.path().join("baseq2");
    let skin_dir = game.join("models/fixture");
    std::fs::create_dir_all(&skin_dir).unwrap();
    let indices: Vec<u8> = (0..32 * 16).map(|i| (i * 7 % 256) as u8).collect();
    let pcx_bytes = pcx::encode_indexed(32, 16, &indices, &Palette::QUAKE);
    std::fs::write(skin_dir.join("skin.pcx"), &pcx_bytes).unwrap();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let p = write_file(&elsewhere, "m.md2", md2::fixtures::minimal());

    let without = json(&run(&["info", "--json", s(&p)]));
    assert_eq!(without["skin_pictures"], 0);
    assert_eq!(
        without["warnings"][0],
        "skin 0: \"models/fixture/skin.pcx\" not found (--game-dir GAME_FOLDER or archive finds the game's skins)"
    );
    let with = json(&run(&["info", "--json", s(&p), "--game-dir", s(&game)]));
    assert_eq!(with["skin_pictures"], 1);
    assert_eq!(with["warnings"].as_array().unwrap().len(), 0);

    // skins export writes the PCX picture as PNG.
    let out = dir.path().join("png");
    let e = run(&["skins", "export", s(&p), s(&out), "--game-dir", s(&game)]);
    assert!(e.status.success(), "{}", text(&e.stderr));
    assert!(out.join("m_skin0.png").is_file());

    // Beside the model by file name, without --game-dir.
    std::fs::write(elsewhere.join("skin.pcx"), &pcx_bytes).unwrap();
    let beside = json(&run(&["info", "--json", s(&p)]));
    assert_eq!(beside["skin_pictures"], 1);
}

#[test]
fn convert_mdl_to_md2_writes_skins_and_gl_commands_and_comes_back() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = sample(dir.path(), "demo.mdl");
    let md2_path = dir.path().join("demo.md2");
    let out = run_ok(&["convert", s(&mdl), s(&md2_path), "-v"]);
    let err = text(&out.stderr);
    assert!(err.contains("position quantisation"), "{err}");
    assert!(
        err.contains("frame 0 \"stand1\": largest position error"),
        "{err}"
    );
    assert!(
        err.contains("skin 1 is a group of 3 pictures; MD2 keeps the first"),
        "{err}"
    );
    assert!(dir.path().join("demo_skin0.pcx").is_file());
    assert!(dir.path().join("demo_skin1.pcx").is_file());

    let info = json(&run(&["info", "--json", s(&md2_path)]));
    let src = json(&run(&["info", "--json", s(&mdl)]));
    assert_eq!(info["triangles"], src["triangles"]);
    // The sample's frame group plays as long at 10 frames a second.
    assert_eq!(info["poses"], common::poses_at_10_fps(&src));
    assert_ne!(info["poses"], src["poses"], "the group is resampled");
    assert_eq!(info["header"]["gl_triangles"], src["triangles"]);
    assert_eq!(info["skin_names"][0], "demo_skin0.pcx");
    assert_eq!(info["skin_pictures"], 2);
    assert!(run(&["validate", s(&md2_path)]).status.success());

    // A second run refuses to overwrite the skins; --skin-path writes none.
    let again = run(&[
        "convert",
        s(&mdl),
        s(&dir.path().join("other.md2")),
        "--skin-path",
        "models/demo/skin.pcx",
    ]);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(!dir.path().join("other_skin0.pcx").exists());
    let info = json(&run(&["info", "--json", s(&dir.path().join("other.md2"))]));
    assert_eq!(
        info["skin_names"],
        serde_json::json!(["models/demo/skin.pcx"])
    );
    let clobber = run(&["convert", s(&mdl), s(&md2_path)]);
    assert_eq!(clobber.status.code(), Some(1));

    // And back to MDL: one skin picture per MD2 skin, on-seam vertices restored.
    let back = dir.path().join("back.mdl");
    let b = run(&["convert", s(&md2_path), s(&back)]);
    assert!(b.status.success(), "{}", text(&b.stderr));
    let info = json(&run(&["info", "--json", s(&back)]));
    assert_eq!(info["vertices"], src["vertices"]);
    assert_eq!(info["triangles"], src["triangles"]);
    assert_eq!(info["skin_pictures"], 2);

    let strict = run(&[
        "convert",
        s(&mdl),
        s(&dir.path().join("s.md2")),
        "--strict",
        "--skin-path",
        "a.pcx",
    ]);
    assert!(strict.status.success(), "{}", text(&strict.stderr));
}

#[test]
fn a_refused_convert_leaves_no_skin_files_behind() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = sample(dir.path(), "demo.mdl");
    let out = write_file(dir.path(), "out.md2", b"keep");
    let r = run(&["convert", s(&mdl), s(&out)]);
    assert_eq!(r.status.code(), Some(1));
    assert!(text(&r.stderr).contains("exists; pass --force to replace it"));
    assert!(!dir.path().join("out_skin0.pcx").exists());
    assert_eq!(std::fs::read(&out).unwrap(), b"keep");
    // A skin file in the way: refused before anything is written.
    let out2 = dir.path().join("two.md2");
    std::fs::write(dir.path().join("two_skin1.pcx"), b"mine").unwrap();
    let r = run(&["convert", s(&mdl), s(&out2)]);
    assert_eq!(r.status.code(), Some(1));
    assert!(!out2.exists() && !dir.path().join("two_skin0.pcx").exists());
}

#[test]
fn skin_paths_cannot_climb_out_of_the_game_folders() {
    let (dir, secret) = common::temp_file(
        "secret.pcx",
        pcx::encode_indexed(32, 16, &[1; 512], &Palette::QUAKE),
    );
    let models = dir.path().join("a/b");
    std::fs::create_dir_all(&models).unwrap();
    let p = models.join("m.md2");
    let spec = md2::fixtures::Spec {
        skins: vec![b"../../secret.pcx".to_vec()],
        ..Default::default()
    };
    std::fs::write(&p, md2::fixtures::build(&spec).write()).unwrap();
    let info = json(&run(&["info", "--json", s(&p), "--game-dir", s(&models)]));
    assert_eq!(info["skin_pictures"], 0);
    // The same file name beside the model is fine.
    std::fs::copy(&secret, models.join("secret.pcx")).unwrap();
    let info = json(&run(&["info", "--json", s(&p)]));
    assert_eq!(info["skin_pictures"], 1);
}
