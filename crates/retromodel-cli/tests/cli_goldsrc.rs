//! Half-Life models on the command line (issue 41): `--body` and `--skin-family` pick what
//! the game shows, as `pev->body` and `pev->skin` do, in every command that opens a model.

mod common;

use common::{run, run_ok, s, text, write_file};
use retromodel::formats::goldsrc::fixtures;

/// The fixture converted to OBJ with `extra` flags: its face lines and the materials used.
fn obj(dir: &std::path::Path, name: &str, extra: &[&str]) -> (Vec<String>, Vec<String>, String) {
    let mdl = write_file(dir, "fixture.mdl", fixtures::model(true));
    let out = dir.join(format!("{name}.obj"));
    let mut args = vec!["convert", s(&mdl), s(&out)];
    args.extend(extra);
    let done = run(&args);
    assert!(done.status.success(), "{}", text(&done.stderr));
    let body = std::fs::read_to_string(&out).unwrap();
    let lines = |p: &str| {
        body.lines()
            .filter(|l| l.starts_with(p))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    (lines("f "), lines("usemtl "), text(&done.stderr))
}

#[test]
fn body_and_skin_family_pick_the_sub_model_and_the_textures() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The fixture's one body part has two sub-models (a strip and a fan over the same
    // vertices) and two skin families (texture 0, then texture 1 for skin reference 0).
    let (faces0, mtl0, _) = obj(d, "b0", &[]);
    let (faces1, mtl1, _) = obj(d, "b1", &["--body", "1"]);
    let (faces2, _, _) = obj(d, "b2", &["--body", "2"]);
    assert_eq!(faces0.len(), 2);
    assert_ne!(faces0, faces1, "--body 1 shows the second sub-model");
    assert_eq!(
        faces0, faces2,
        "body 2 of a part of 2 sub-models (base 1) is sub-model 0"
    );
    assert_eq!(mtl0, mtl1);
    assert_eq!(mtl0, ["usemtl skin0"]);
    let (faces, mtl, _) = obj(d, "s1", &["--skin-family", "1"]);
    assert_eq!(faces, faces0);
    assert_eq!(mtl, ["usemtl skin1"]);
    // A family the model lacks: said, and the first shown.
    let (_, mtl, stderr) = obj(d, "s5", &["--skin-family", "5"]);
    assert_eq!(mtl, ["usemtl skin0"]);
    assert!(
        stderr.contains("warning: skin family 5 asked for, the model has 2: showing family 0"),
        "{stderr}"
    );
    // `info` takes them too, as every command that opens a model does.
    let mdl = d.join("fixture.mdl");
    let out = run_ok(&["info", "--skin-family", "5", "--body", "1", s(&mdl)]);
    assert!(text(&out.stdout).contains("warning: skin family 5 asked for, the model has 2"));
    let help = text(&run_ok(&["convert", "--help"]).stdout);
    assert!(help.contains("--body <N>") && help.contains("--skin-family <N>"));
}
