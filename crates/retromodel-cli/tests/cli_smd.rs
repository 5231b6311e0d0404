//! Valve SMD on the command line (issue 42): MD5 to SMD with its animation and texture
//! beside it, SMD to MD2, and animation SMDs given with `--anim`.

mod common;

use common::{assert_contains, corpus, glb_json, md5_with_anim, run, run_ok, s, text, write_file};
use retromodel::formats::smd::fixtures;

#[test]
fn md5_to_smd_and_on_to_md2() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = md5_with_anim(dir.path(), "m.md5mesh");
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let smd = out.join("x.smd");
    let done = run_ok(&["convert", s(&mesh), s(&smd)]);
    let err = text(&done.stderr);
    assert!(err.contains("animation written as"), "{err}");
    assert!(out.join("x_wave.smd").is_file(), "{err}");
    let body = std::fs::read_to_string(&smd).unwrap();
    assert!(body.starts_with("version 1\nnodes\n0 \""), "{body}");
    // Back in: the animation beside it is found, named after its file.
    let info = text(&run_ok(&["info", s(&smd)]).stdout);
    assert!(info.contains("animation \"x_wave\""), "{info}");
    let md2 = out.join("y.md2");
    run_ok(&["convert", s(&smd), s(&md2)]);
    assert!(std::fs::metadata(&md2).unwrap().len() > 68);
}

#[test]
fn anim_names_the_animation_smds() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let b = dir.path().join("b");
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let reference = write_file(&a, "ref.smd", fixtures::reference().write());
    let bend = write_file(&b, "bend.smd", fixtures::animation().write());
    let glb = dir.path().join("r.glb");
    run_ok(&["convert", s(&reference), s(&glb), "--anim", s(&bend)]);
    let json = glb_json(&std::fs::read(&glb).unwrap());
    assert_eq!(json["animations"][0]["name"], "bend");
    // One whose nodes are not the reference's is refused by name.
    let mut other = fixtures::animation();
    other.nodes[1].name = "leg".into();
    let wrong = write_file(&b, "wrong.smd", other.write());
    let out = run(&[
        "convert",
        s(&reference),
        s(&dir.path().join("w.glb")),
        "--anim",
        s(&wrong),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&out.stderr, "node \"leg\" is not in the reference");
}

/// A GoldSrc model decompiled to QC + SMD + BMP on the command line, compiled back, and read
/// with the same counts; a QC with a command the compiler does not take fails at its line.
#[test]
fn goldsrc_decompiles_to_qc_and_compiles_back() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = write_file(
        dir.path(),
        "gs.mdl",
        retromodel::formats::goldsrc::fixtures::model(true),
    );
    let qc = dir.path().join("qc").join("gs.qc");
    std::fs::create_dir_all(qc.parent().unwrap()).unwrap();
    run_ok(&["convert", s(&mdl), s(&qc)]);
    let written: Vec<String> = std::fs::read_dir(qc.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(written.iter().any(|n| n.ends_with(".smd")), "{written:?}");
    assert!(written.iter().any(|n| n.ends_with(".bmp")), "{written:?}");
    let body = std::fs::read_to_string(&qc).unwrap();
    assert!(body.contains("$sequence"), "{body}");
    let back = dir.path().join("back.mdl");
    run_ok(&["convert", s(&qc), s(&back)]);
    let info = |p: &std::path::Path| -> serde_json::Value {
        let out = run_ok(&["info", "--json", s(p)]);
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap()
    };
    let (a, b) = (info(&mdl), info(&back));
    assert_eq!(b["format"], "half-life-mdl");
    for field in ["triangles", "joints", "meshes"] {
        assert_eq!(a[field], b[field], "{field}");
    }
    assert_eq!(
        a["animations"].as_array().map(Vec::len),
        b["animations"].as_array().map(Vec::len)
    );
    // a command studiomdl has and the compiler does not take: an error at its line
    std::fs::write(&qc, format!("{body}$renamebone \"a\" \"b\"\n")).unwrap();
    let out = run(&["convert", s(&qc), s(&dir.path().join("bad.mdl"))]);
    assert_eq!(out.status.code(), Some(1));
    let line = body.lines().count() + 1;
    assert_contains(&out.stderr, "qc: ");
    assert_contains(&out.stderr, &format!("at line {line}:1"));
}

/// Files beside a model, found by name in its folder.
struct Beside(std::path::PathBuf, String);

impl retromodel::resolve::Resolver for Beside {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        std::fs::read(self.0.join(name)).ok()
    }
    fn model_name(&self) -> Option<String> {
        Some(self.1.clone())
    }
}

/// A corpus GoldSrc model decompiled, then its QC compiled with `$externaltextures` and a
/// 1 KB `$sequencegroupsize`: `convert x.qc y.mdl` writes `yT.mdl` and `y01.mdl` ... beside
/// `y.mdl` (named after the output, as `--external-textures` names them), the model file
/// holds no textures and only the first group's animations, and read with its side files it
/// is the model compiled without the two commands: the same textures, skins, bones,
/// sequences and animation values.
#[test]
fn qc_external_textures_and_sequence_groups_write_side_files() {
    use retromodel::formats::goldsrc::{convert::with_side_files, File};
    let Some(corpus) = corpus("corpus test") else {
        return;
    };
    let mdl = corpus.join("assimp/test/models/MDL/MDL (HL1)/man.mdl");
    let dir = tempfile::tempdir().unwrap();
    let qc = dir.path().join("man.qc");
    run_ok(&["convert", s(&mdl), s(&qc)]);
    // man.mdl came with manT.mdl: its QC asks for a texture file again. Without the
    // command it compiles to one file.
    let body = std::fs::read_to_string(&qc).unwrap();
    assert!(body.contains("$externaltextures\n"), "{body}");
    let body = body.replace("$externaltextures\n", "");
    std::fs::write(&qc, &body).unwrap();
    let plain = dir.path().join("plain.mdl");
    run_ok(&["convert", s(&qc), s(&plain)]);
    std::fs::write(
        &qc,
        format!("{body}$externaltextures\n$sequencegroupsize 1\n"),
    )
    .unwrap();
    let split = dir.path().join("y.mdl");
    let out = run_ok(&["convert", s(&qc), s(&split)]);
    assert!(!text(&out.stderr).contains("$externaltextures"));
    let limits = retromodel::Limits::default();
    let read = |p: &std::path::Path| {
        File::parse(&std::fs::read(p).unwrap(), &limits)
            .unwrap()
            .into_owned()
    };
    let (plain, main) = (read(&plain), read(&split));
    assert!(plain.seq_groups.len() == 1 && !plain.textures.is_empty());
    // The model file: no textures, the later sequences in groups of their own.
    assert!(main.textures.is_empty() && main.has_external_textures());
    let groups = main.seq_groups.len();
    assert!(groups > 1, "{groups} sequence groups");
    assert!(main.sequences.iter().any(|q| q.seq_group > 0));
    let texture_file = read(&dir.path().join("yT.mdl"));
    assert_eq!(texture_file.textures.len(), plain.textures.len());
    for g in 1..groups {
        let name = format!("y{g:02}.mdl");
        let bytes = std::fs::read(dir.path().join(&name)).unwrap();
        assert_eq!(&bytes[..4], b"IDSQ", "{name}");
        let record = retromodel::io::names::name_str(&main.seq_groups[g].name);
        assert_eq!(record, format!("models/{name}"));
    }
    assert!(!dir.path().join(format!("y{:02}.mdl", groups)).exists());
    // Read with its side files: the model compiled without the two commands.
    let mut warnings = Vec::new();
    let resolver = Beside(dir.path().to_path_buf(), "y.mdl".into());
    let whole = with_side_files(&main, &resolver, &limits, &mut warnings);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(whole.textures.len(), plain.textures.len());
    for (a, b) in whole.textures.iter().zip(&plain.textures) {
        assert_eq!(
            (&a.name, a.flags, a.width, a.height, &a.pixels, &a.palette),
            (&b.name, b.flags, b.width, b.height, &b.pixels, &b.palette)
        );
    }
    assert_eq!(whole.skins, plain.skins);
    assert_eq!(whole.bones, plain.bones);
    assert_eq!(whole.body_parts.len(), plain.body_parts.len());
    assert_eq!(whole.sequences.len(), plain.sequences.len());
    for (a, b) in whole.sequences.iter().zip(&plain.sequences) {
        assert_eq!(a.label(), b.label());
        assert_eq!((a.num_frames, a.num_blends), (b.num_frames, b.num_blends));
        assert_eq!(a.anims, b.anims, "{}", a.label());
    }
}

/// A QC with `$externaltextures` and `$sequencegroupsize` converted to another QC: its
/// compiled texture file and sequence groups are found among the compiled side files (not
/// on disk, where they were never written), so the new QC asks for them again and its
/// SMDs animate every sequence.
#[test]
fn a_qc_with_side_files_converts_to_a_qc() {
    let Some(corpus) = corpus("corpus test") else {
        return;
    };
    let mdl = corpus.join("assimp/test/models/MDL/MDL (HL1)/man.mdl");
    let dir = tempfile::tempdir().unwrap();
    let qc = dir.path().join("man.qc");
    run_ok(&["convert", s(&mdl), s(&qc)]);
    let body = std::fs::read_to_string(&qc).unwrap();
    std::fs::write(
        &qc,
        format!("{body}$externaltextures\n$sequencegroupsize 1\n"),
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("again")).unwrap();
    let again = dir.path().join("again/z.qc");
    let out = run_ok(&["convert", s(&qc), s(&again)]);
    let err = text(&out.stderr);
    assert!(!err.contains("not found"), "{err}");
    assert!(!err.contains("left still"), "{err}");
    let written = std::fs::read_to_string(&again).unwrap();
    assert!(written.contains("$externaltextures"), "{written}");
    assert!(written.contains("$sequencegroupsize"), "{written}");
    // The textures came along as BMPs.
    let bmps = std::fs::read_dir(dir.path().join("again"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x.eq_ignore_ascii_case("bmp"))
        })
        .count();
    assert!(bmps > 0, "no BMP written");
}
