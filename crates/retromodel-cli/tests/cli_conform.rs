//! Conversions that land right in the target game (issue 26), on corpus models from every
//! source family converted to every writable target with the `convert` command:
//!
//! - criterion 1: each clip plays as long in the target as in the source (within one
//!   frame of the target's rate), and the clips keep their count and (fitted, unique,
//!   grouped) names;
//! - criterion 3: a Red Eclipse model with `mdlscale` converts to its engine size, and
//!   `--scale`, `--rotate` and `--fit-height` work on every writable target;
//! - criterion 4: every result passes `validate` for its target's default engine without a
//!   limit exceeded.
//!
//! Skipped without RETROMODEL_CORPUS.

use std::path::{Path, PathBuf};

mod common;

use common::{corpus, run, run_ok, s, text};
use retromodel::model::retime::clip_duration;
use retromodel::vfs::{Archives, PathResolver};
use retromodel::{ConvertOptions, Document, Limits};

/// The writable targets: output extension and `--mdl` variant.
const TARGETS: &[(&str, Option<&str>)] = &[
    ("mdl", None),
    ("mdl", Some("gs5")),
    ("md2", None),
    ("md3", None),
    ("glb", None),
    ("obj", None),
];

/// A source's clips: name and duration in seconds, as the converter reads it (Cube 2
/// configurations applied, as `convert` does): a keyframe clip `count / fps` (its last frame
/// shown for a step), a skeletal animation the span of its keys, `(frames - 1) / fps`, as
/// Doom 3 and glTF measure it (Cube 2's N frames at SPEED last N / SPEED: the reader repeats
/// the last frame).
fn source_clips(path: &Path) -> Vec<(String, f32)> {
    let archives = Archives::new(&Limits::default(), false);
    let options = ConvertOptions {
        model_config: true,
        ..ConvertOptions::default()
    };
    let model = if path.is_dir() {
        // A Quake 3 player folder, assembled.
        let folder = retromodel::inputs::PlayerDir::new(&archives, path, None, None);
        retromodel::formats::md3::player::load_folder(&folder, None, &options, &Limits::default())
            .unwrap()
            .model
    } else {
        let bytes = std::fs::read(path).unwrap();
        let doc = Document::parse(&bytes, &Limits::default()).unwrap();
        let resolver = PathResolver::new(&archives, path, None, None);
        doc.try_to_model(&options, &resolver).unwrap().model
    };
    if !model.animations.is_empty() {
        return model
            .animations
            .iter()
            .map(|a| (a.name.clone(), (a.frames.len() - 1) as f32 / a.fps))
            .collect();
    }
    let mut clips = model.clips.clone();
    clips.sort_by_key(|c| c.first);
    clips
        .iter()
        .map(|c| (c.name.clone(), clip_duration(c)))
        .collect()
}

/// `info --json`'s clips of a file: name and `count / fps`.
fn info_clips(path: &Path) -> Vec<(String, f32)> {
    let out = run_ok(&["info", "--json", s(path)]);
    let json: serde_json::Value = serde_json::from_str(text(&out.stdout).lines().next().unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    json["clips"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let count = c["count"].as_f64().unwrap() as f32;
            let fps = c["fps"].as_f64().unwrap() as f32;
            (c["name"].as_str().unwrap().to_string(), count / fps)
        })
        .collect()
}

/// A clip name as frame names keep it: ASCII letters, digits, `_` and `-`, the rest `_`.
fn clean(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// The prefix all `names` share, up to and including its last `_` or `-`, when every name
/// keeps something after it; else empty.
fn shared_prefix(names: &[String]) -> usize {
    let Some(first) = names.first() else {
        return 0;
    };
    if names.len() < 2 {
        return 0;
    }
    let len = names
        .iter()
        .map(|n| {
            first
                .bytes()
                .zip(n.bytes())
                .take_while(|(a, b)| a == b)
                .count()
        })
        .min()
        .unwrap_or(0);
    match first[..len].rfind(['_', '-']) {
        Some(i) if names.iter().all(|n| n.len() > i + 1) => i + 1,
        _ => 0,
    }
}

/// Whether `target` is the clip `source` as a frame-name format gives it back, by the rule
/// `model::frame_names::fit_frame_names` applies (issue 45: the old check took any
/// subsequence, so `""` or `"w"` passed for `"walk"`). Either the name is kept as it is, or
/// the target is the stem of its frames: `source` cleaned (characters other than ASCII
/// letters, digits, `_` and `-` become `_`), less the prefix all of `all` (the source's clip
/// names) share up to a `_` or `-` (taken only when some stem is too long, so both are
/// allowed), with a `_` added when it ends in a digit (read back with it: the reader strips
/// digits only). A stem longer than its room (the 15-byte name field less the frame
/// number's digits: 11 to 14 bytes for clips under 10000 frames) keeps its first
/// `room - room / 2` and last `room / 2` bytes; a stem another clip took is cut to
/// `room - 2` bytes and ends in `_b`, `_c`, ... Nothing else passes.
fn derived(target: &str, source: &str, all: &[&str]) -> bool {
    if target == source {
        return true;
    }
    let names: Vec<String> = all.iter().map(|n| clean(n)).collect();
    let full = clean(source);
    let prefix = shared_prefix(&names);
    let stems = [full.clone(), full[prefix..].to_string()];
    stems.iter().any(|stem| {
        let mut stem = stem.clone();
        if stem.ends_with(|c: char| c.is_ascii_digit()) {
            stem.push('_');
        }
        (11..=14usize).any(|room| {
            let fitted = if stem.len() > room {
                let tail = room / 2;
                format!("{}{}", &stem[..room - tail], &stem[stem.len() - tail..])
            } else {
                stem.clone()
            };
            let clash = |t: &str| {
                t.len() >= 2
                    && t.as_bytes()[t.len() - 2] == b'_'
                    && (b'b'..=b'z').contains(&t.as_bytes()[t.len() - 1])
                    && t[..t.len() - 2] == fitted[..fitted.len().min(room - 2)]
            };
            target == fitted || clash(target)
        })
    })
}

/// The target file of a conversion of `name` in `dir`.
fn output(dir: &Path, name: &str, ext: &str, variant: Option<&str>) -> PathBuf {
    dir.join(format!("{name}_{}.{ext}", variant.unwrap_or(ext)))
}

/// Converts `source` to every target and checks clips, names and validation.
fn check(dir: &Path, source: &Path, name: &str) {
    let want = source_clips(source);
    assert!(
        want.len() >= 2,
        "{}: pick a source with clips",
        source.display()
    );
    for &(ext, variant) in TARGETS {
        let out = output(dir, name, ext, variant);
        let mut args = vec!["convert", s(source), s(&out), "--force"];
        if let Some(v) = variant {
            args.extend(["--mdl", v]);
        }
        let result = run(&args);
        let what = format!("{} -> {}", source.display(), out.display());
        assert!(result.status.success(), "{what}: {}", text(&result.stderr));
        // Criterion 4: the default engine takes the file. A same-format conversion is the
        // input byte for byte (UFO:AI's MD2 files have no GL commands): nothing to judge.
        // (glTF is rebuilt from its Model, like any interchange format.)
        let same =
            variant.is_none() && ext != "glb" && source.extension().is_some_and(|e| e == ext);
        if same {
            let same_bytes = std::fs::read(&out).unwrap() == std::fs::read(source).unwrap();
            assert!(same_bytes, "{what}: not the input byte for byte");
            continue;
        }
        let v = run(&["validate", s(&out)]);
        assert!(
            v.status.success(),
            "{what}: validate: {}{}",
            text(&v.stdout),
            text(&v.stderr)
        );
        assert!(
            !text(&v.stdout).contains("limit"),
            "{what}: validate: {}",
            text(&v.stdout)
        );
        if ext == "obj" {
            continue; // one pose, no clips
        }
        let got = info_clips(&out);
        assert_eq!(
            got.len(),
            want.len(),
            "{what}: clip count: {:?} vs {:?}",
            got.iter().map(|c| &c.0).collect::<Vec<_>>(),
            want.iter().map(|c| &c.0).collect::<Vec<_>>()
        );
        let mut names: Vec<&str> = got.iter().map(|c| c.0.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), got.len(), "{what}: clip names are not unique");
        // The target's frame rate: 10 where the format stores none, else the clip's own
        // (glTF clips are read back at 10 fps too).
        let frame = 0.1 + 1e-3;
        let all: Vec<&str> = want.iter().map(|(n, _)| n.as_str()).collect();
        for ((gn, gd), (wn, wd)) in got.iter().zip(&want) {
            assert!(
                derived(gn, wn, &all),
                "{what}: clip \"{wn}\" came back as \"{gn}\""
            );
            assert!(
                (gd - wd).abs() <= frame,
                "{what}: clip \"{wn}\" lasts {gd} s, the source's {wd} s"
            );
        }
    }
}

#[test]
fn clips_keep_their_duration_and_names_across_families() {
    let Some(root) = corpus("") else {
        eprintln!("skipped: RETROMODEL_CORPUS not set");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let sources = [
        (
            "mdl",
            "quake_mdl/github-Ademan-LibreQuake/lq1/progs/flame2.mdl",
        ),
        (
            "md2",
            "md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/head.md2",
        ),
        (
            "md3",
            "md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge",
        ),
        (
            "md5",
            "md5/debian-redeclipse-data/redeclipse/data/actors/player/hud_hands.md5mesh",
        ),
    ];
    for (name, rel) in sources {
        check(dir.path(), &root.join(rel), name);
    }
    // A glTF source: the Quake 3 player as the converter writes it (clips at the rates of
    // its animation.cfg, 15 to 20 frames a second).
    let glb = dir.path().join("player.glb");
    run_ok(&["convert", s(&root.join(sources[2].1)), s(&glb)]);
    check(dir.path(), &glb, "gltf");
}

/// The size along each axis of a converted model (`info --json`'s bounds).
fn extent(path: &Path) -> [f32; 3] {
    let out = run_ok(&["info", "--json", s(path)]);
    let json: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    let b = &json["bounds"];
    std::array::from_fn(|k| (b["max"][k].as_f64().unwrap() - b["min"][k].as_f64().unwrap()) as f32)
}

/// The height of a converted model (Z extent).
fn height(path: &Path) -> f32 {
    extent(path)[2]
}

#[test]
fn cube2_models_convert_to_their_engine_size() {
    let Some(root) = corpus("") else {
        eprintln!("skipped: RETROMODEL_CORPUS not set");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for rel in ["unnamed/door02", "unnamed/door04"] {
        let folder = root
            .join("md5/debian-redeclipse-data/redeclipse/data")
            .join(rel);
        let cfg = std::fs::read_to_string(folder.join("md5.cfg")).unwrap();
        let percent: f32 = cfg
            .lines()
            .find_map(|l| l.trim().strip_prefix("mdlscale "))
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let mesh = folder.join("mesh.md5mesh");
        for ext in ["glb", "md2", "mdl", "md3"] {
            let kept = dir.path().join(format!("kept.{ext}"));
            run_ok(&[
                "convert",
                s(&mesh),
                s(&kept),
                "--no-model-config",
                "--force",
            ]);
            let out = dir.path().join(format!("door.{ext}"));
            let r = run_ok(&["convert", s(&mesh), s(&out), "--force"]);
            assert!(text(&r.stderr).contains("mdlscale"), "{}", text(&r.stderr));
            let h = height(&out);
            let want = height(&kept) * percent / 100.0;
            assert!(
                (h - want).abs() <= 0.02 * want,
                "{rel} -> {ext}: {h} units tall, the engine shows {want}"
            );
        }
    }
}

/// Two steps of MD3's 1/64-unit grid: the model is small (0.4 units), so sizes are compared
/// within 2 % plus the coarsest grid a target rounds positions to.
const GRID: f32 = 2.0 / 64.0;

#[test]
fn scale_rotate_and_fit_height_on_every_target() {
    let Some(root) = corpus("") else {
        eprintln!("skipped: RETROMODEL_CORPUS not set");
        return;
    };
    let source = root
        .join("md2/debian-ufoai-data/ufoai/base/0models.pk3/models/aliens/bloodspider/head.md2");
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().join("base.glb");
    run_ok(&["convert", s(&source), s(&base)]);
    let [_, depth, h0] = extent(&base);
    for &(ext, variant) in TARGETS {
        let mut variant_args = Vec::new();
        if let Some(v) = variant {
            variant_args.extend(["--mdl", v]);
        }
        let convert = |out: &Path, extra: &[&str]| {
            let mut args = vec!["convert", s(&source), s(out), "--force"];
            args.extend(&variant_args);
            args.extend(extra);
            run_ok(&args);
            // OBJ has no bounds in info: read it back through glTF.
            if ext == "obj" {
                let glb = out.with_extension("back.glb");
                run_ok(&["convert", s(out), s(&glb), "--force"]);
                return height(&glb);
            }
            height(out)
        };
        let what = format!("{ext} {variant:?}");
        let scaled = convert(
            &output(dir.path(), "scaled", ext, variant),
            &["--scale", "2.5"],
        );
        assert!(
            (scaled - 2.5 * h0).abs() <= 0.02 * 2.5 * h0 + GRID,
            "{what}: --scale: {scaled} vs {h0}"
        );
        let fitted = convert(
            &output(dir.path(), "fitted", ext, variant),
            &["--fit-height", "56"],
        );
        assert!(
            (fitted - 56.0).abs() <= 0.02 * 56.0 + GRID,
            "{what}: --fit-height: {fitted}"
        );
        // Rolled by 90 degrees about X, the model's height is its former depth (Y extent).
        let rolled = convert(
            &output(dir.path(), "rolled", ext, variant),
            &["--rotate", "0,0,90"],
        );
        let unrolled = convert(
            &output(dir.path(), "unrolled", ext, variant),
            &["--rotate", "0,0,0"],
        );
        assert!(
            (unrolled - h0).abs() <= 0.02 * h0 + GRID,
            "{what}: --rotate 0: {unrolled}"
        );
        assert!(
            (rolled - depth).abs() <= 0.02 * depth + GRID,
            "{what}: --rotate 0,0,90: height {rolled}, the depth was {depth}"
        );
    }
}

#[test]
fn qc_lists_each_clips_frames() {
    let dir = tempfile::tempdir().unwrap();
    let md2 = common::sample(dir.path(), "tris.md2");
    let mdl = dir.path().join("demo.mdl");
    run_ok(&["convert", s(&md2), s(&mdl), "--qc"]);
    let qc = std::fs::read_to_string(dir.path().join("demo.qc")).unwrap();
    assert!(qc.contains("$modelname demo.mdl"), "{qc}");
    let lines: Vec<Vec<&str>> = qc
        .lines()
        .filter_map(|l| l.strip_prefix("$frame "))
        .map(|l| l.split(' ').collect())
        .collect();
    let out = run_ok(&["info", "--json", s(&mdl)]);
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let clips = info["clips"].as_array().unwrap();
    assert_eq!(lines.len(), clips.len(), "{qc}");
    for (line, clip) in lines.iter().zip(clips) {
        assert_eq!(line.len() as u64, clip["count"].as_u64().unwrap(), "{qc}");
        let stem = clip["name"].as_str().unwrap();
        assert!(line.iter().all(|f| f.starts_with(stem)), "{stem}: {line:?}");
    }
}

#[test]
fn gltf_in_metres_lands_in_quake_units() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = common::sample(dir.path(), "demo.mdl");
    let quake_units = extent(&mdl)[2];
    // The same model 1/32 the size: a glTF in metres.
    let glb = dir.path().join("metres.glb");
    run_ok(&["convert", s(&mdl), s(&glb), "--scale", "0.03125"]);
    let metres = extent(&glb)[2];
    assert!((metres * 32.0 - quake_units).abs() < 0.01 * quake_units);
    let back = dir.path().join("back.mdl");
    let out = run_ok(&["convert", s(&glb), s(&back)]);
    assert!(
        text(&out.stderr).contains("in metres: scaled by 32"),
        "{}",
        text(&out.stderr)
    );
    let h = extent(&back)[2];
    assert!(
        (h - quake_units).abs() <= 0.02 * quake_units,
        "{h} vs {quake_units}"
    );
    // --scale 1 keeps metres.
    let kept = dir.path().join("kept.mdl");
    run_ok(&["convert", s(&glb), s(&kept), "--scale", "1"]);
    assert!((extent(&kept)[2] - metres).abs() <= 0.02 * metres);
    // A result far smaller than the engines show well is warned about.
    let speck = dir.path().join("speck.mdl");
    let out = run_ok(&["convert", s(&glb), s(&speck), "--scale", "0.1"]);
    assert!(
        text(&out.stderr).contains("units tall, outside"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn placement_errors_are_clear() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = common::sample(dir.path(), "demo.mdl");
    let out = dir.path().join("o.md2");
    for (args, want) in [
        (
            vec!["--rotate", "90,x"],
            "'90,x' for '--rotate <YAW[,PITCH[,ROLL]]>': 90,x: \"x\" is not a number of degrees",
        ),
        (
            vec!["--rotate", "1,2,3,4"],
            "give YAW, YAW,PITCH or YAW,PITCH,ROLL",
        ),
        // Checked by the front door, in the same words for every front end.
        (vec!["--scale", "-2"], "scale -2: give a positive number"),
        (
            vec!["--fit-height", "0"],
            "fit-height 0: give a positive number",
        ),
    ] {
        let mut a = vec!["convert", s(&mdl), s(&out)];
        a.extend(args);
        let r = run(&a);
        assert!(!r.status.success());
        assert!(text(&r.stderr).contains(want), "{}", text(&r.stderr));
        assert!(!out.exists());
    }
}

/// The clip-name rule itself: what `fit_frame_names` makes passes, the near misses the old
/// subsequence check let through do not.
#[test]
fn clip_name_rule() {
    let all = ["hud_pistol-shoot2", "hud_pistol-idle", "walk"];
    assert!(derived("walk", "walk", &all));
    assert!(!derived("", "walk", &all));
    assert!(!derived("w", "walk", &all));
    assert!(!derived("wlk", "walk", &all));
    assert!(!derived("walk_", "walk", &all));
    // A trailing digit gets a `_`, and the reader keeps it.
    assert!(derived("attack1_", "attack1", &["attack1", "attack2"]));
    assert!(!derived("attack", "attack1", &["attack1", "attack2"]));
    // A shared prefix may go; only up to a separator, and all of it.
    let shared = ["hud_pistol-shoot2", "hud_pistol-idle"];
    assert!(derived("shoot2_", "hud_pistol-shoot2", &shared));
    assert!(!derived("shoot2", "hud_pistol-shoot2", &shared));
    assert!(!derived("pistol-shoot2_", "hud_pistol-shoot2", &shared));
    let hud = ["hud_pistol-shoot2", "hud_sword-idle"];
    assert!(derived("pistol-shoot2_", "hud_pistol-shoot2", &hud));
    assert!(!derived("pistol-shoot2_", "hud_pistol-shoot2", &all));
    // The corpus case: "shotgun-shoot1_" (15 bytes) squeezed into 14, its middle `-` lost.
    let weapons = ["hud_shotgun-shoot1", "hud_pistol-idle"];
    assert!(derived("shotgunshoot1_", "hud_shotgun-shoot1", &weapons));
    assert!(!derived("shotgunshoot1", "hud_shotgun-shoot1", &weapons));
    assert!(!derived("shotgun-shoot1", "hud_shotgun-shoot1", &weapons));
    // Characters outside the frame-name set become `_`.
    assert!(derived("run_fast", "run fast", &["run fast", "idle"]));
    assert!(!derived("runfast", "run fast", &["run fast", "idle"]));
    // A clash letter after the stem, never after another clip's.
    assert!(derived("run_b", "run", &["run", "run"]));
    assert!(!derived("jump_b", "run", &["run", "jump"]));
    assert!(!derived("_b", "run", &["run", "jump"]));
}
