//! The re-release pieces on the corpus (`RETROMODEL_CORPUS`):
//! - every corpus md5mesh with `.md5anim` files beside it gets generated `.md5scale` files
//!   (random scales, some 0, some joints with `scale_positions`) that write and read back
//!   exactly, and its first animation with those scales baked into an MD2 reads back within
//!   the MD2's grid of q2pro's formula, frame by frame;
//! - corpus MD2 models converted to the re-release layout (MD2 + `md5/` MD5 + scale) pair as
//!   q2pro pairs them, with no error, and give back their frames within the grid.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]

mod common;
#[path = "rerelease_formula/mod.rs"]
mod rerelease_formula;

use std::collections::HashMap;
use std::path::Path;

use rerelease_formula::{farthest, formula, V3};
use retromodel::codec::Writer;
use retromodel::formats::md5::{self, scale};
use retromodel::model::WeightScales;
use retromodel::rerelease::{self, Game};
use retromodel::{registry, ConvertOptions, Document, Limits, Model, Resolver, WriteOptions};

/// A small deterministic generator (64-bit LCG), seeded by the file's name.
struct Rng(u64);

impl Rng {
    fn new(seed: &str) -> Rng {
        Rng(seed.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        }))
    }
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 40) as f32 / (1u64 << 24) as f32
    }
}

/// Random scales: 10% zero, 20% a value in [0.25, 3), the rest 1; 10% of joints scale their
/// positions.
fn random_scales(rng: &mut Rng, frames: usize, joints: usize) -> WeightScales {
    let mut ws = WeightScales::unit(frames, joints);
    for row in &mut ws.frames {
        for s in row.iter_mut() {
            let r = rng.next();
            if r < 0.1 {
                *s = 0.0;
            } else if r < 0.3 {
                *s = 0.25 + rng.next() * 2.75;
            }
        }
    }
    for b in &mut ws.scale_positions {
        *b = rng.next() < 0.1;
    }
    ws
}

fn writer(name: &str) -> &'static Writer {
    registry::writers()
        .find(|w| w.format.name() == name && w.variant.is_empty())
        .unwrap()
}

/// Half the diagonal of a grid cell, and a little for float text and interpolation.
fn tolerance(step: Option<[f32; 3]>) -> f32 {
    let s = step.unwrap_or([0.0; 3]);
    (s[0] * s[0] + s[1] * s[1] + s[2] * s[2]).sqrt() / 2.0 + 2e-3
}

/// Every vertex of every mesh of frame `f`.
fn frame_points(m: &Model, f: usize) -> Vec<V3> {
    m.meshes
        .iter()
        .flat_map(|me| me.morph_targets[f].positions.iter().copied())
        .collect()
}

/// Models, .md5scale files and MD2 frames `corpus_md5_scales_round_trip_and_bake_into_md2`
/// checks on the shared corpus, and the meshes and animations it leaves out.
const CORPUS_COUNTS: (usize, usize, usize, usize) = (14, 61, 95, 2);

#[test]
fn corpus_md5_scales_round_trip_and_bake_into_md2() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let (mut models, mut scale_files, mut frames_checked) = (0, 0, 0);
    // What is left out, each said on stderr (issue 45: skips were silent) and counted.
    let mut skipped: Vec<String> = Vec::new();
    for mesh_path in common::files_with_extension(&dir, &["md5mesh"]) {
        let anims = common::md5_anims_beside(&mesh_path);
        if anims.is_empty() {
            continue;
        }
        let name = mesh_path.display().to_string();
        let mesh = match md5::parse_mesh(&std::fs::read(&mesh_path).unwrap(), &Limits::default()) {
            Ok(mesh) => mesh,
            Err(e) => {
                skipped.push(format!("{name}: does not parse: {e}"));
                continue;
            }
        };
        let mut model = md5::mesh_to_model(&mesh.file, &mesh.warnings).model;
        for a in &anims {
            let stem = a.file_stem().unwrap().to_string_lossy().into_owned();
            let attached = md5::parse_anim(&std::fs::read(a).unwrap(), &Limits::default())
                .map_err(|e| e.to_string())
                .and_then(|parsed| md5::attach_animation(&mut model, &parsed.file, &stem));
            if let Err(e) = attached {
                skipped.push(format!("{}: not attached: {e}", a.display()));
            }
        }
        if model.animations.is_empty() {
            skipped.push(format!("{name}: no animation attached"));
            continue;
        }
        models += 1;
        let mut rng = Rng::new(&name);
        let joints: Vec<String> = model.joints.iter().map(|j| j.name.clone()).collect();
        let joints: Vec<&str> = joints.iter().map(String::as_str).collect();
        for a in &mut model.animations {
            let ws = random_scales(&mut rng, a.frames.len(), joints.len());
            let text = scale::write_scales(&ws, &joints);
            let back = scale::parse_scales(text.as_bytes(), &joints, a.frames.len())
                .unwrap_or_else(|e| panic!("{name} {}: {e}", a.name));
            assert_eq!(back.scales, ws, "{name} {}: scales read back", a.name);
            assert!(back.warnings.is_empty(), "{name}: {:?}", back.warnings);
            a.weight_scales = Some(ws);
            scale_files += 1;
        }
        // The first animation (up to 40 frames), baked into an MD2 at its own rate.
        let mut one = model.clone();
        let mut a = one.animations[0].clone();
        let n = a.frames.len().min(40);
        a.frames.truncate(n);
        a.bounds.truncate(n);
        if let Some(ws) = &mut a.weight_scales {
            ws.frames.truncate(n);
        }
        one.animations = vec![a.clone()];
        let options = WriteOptions {
            fps: Some(a.fps),
            stem: "baked".into(),
            ..WriteOptions::default()
        };
        let out = registry::write_model(&one, writer("md2"), &options)
            .unwrap_or_else(|e| panic!("{name}: baking into MD2: {e}"));
        let doc = Document::parse(&out.bytes, &Limits::default()).unwrap();
        let back = doc
            .to_model(&ConvertOptions::default(), &retromodel::NoFiles)
            .model;
        assert_eq!(back.frames.len(), n, "{name}: frames kept");
        for f in 0..n {
            let tol = tolerance(back.frames[f].position_step);
            let d = farthest(&frame_points(&back, f), &formula(&one, 0, f), tol);
            assert!(
                d <= tol,
                "{name} frame {f}: {d} from q2pro's formula (grid {tol})"
            );
            frames_checked += 1;
        }
    }
    for s in &skipped {
        eprintln!("skipped {s}");
    }
    eprintln!(
        "{models} md5meshes: {scale_files} .md5scale files round-tripped, {frames_checked} MD2 frames within the grid, {} skipped",
        skipped.len()
    );
    // The corpus's counts (measured): a mesh or animation that stops loading fails here.
    assert_eq!(
        (models, scale_files, frames_checked, skipped.len()),
        CORPUS_COUNTS,
        "md5meshes, .md5scale files, MD2 frames, skipped"
    );
}

/// Files of one folder on disk, read as q2pro's search finds them, plus written ones.
struct Folder {
    files: HashMap<String, Vec<u8>>,
    model: String,
}

impl Resolver for Folder {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.files.get(name).cloned()
    }
    fn model_name(&self) -> Option<String> {
        Some(self.model.clone())
    }
}

#[test]
fn corpus_md2_to_rerelease_layout_and_back() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let base = dir.join("md2/debian-ufoai-data/ufoai/base/0models.pk3/models");
    let mut checked = 0;
    for rel in [
        "objects/vegi/palm_a/palm1.md2",
        "civilians/female/head05a.md2",
        "objects/barrel/barrel3.md2",
    ] {
        let path = base.join(rel);
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc = Document::parse(&bytes, &Limits::default()).unwrap();
        let original = doc
            .to_model(&ConvertOptions::default(), &retromodel::NoFiles)
            .model;
        let stem = Path::new(rel)
            .file_stem()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let options = WriteOptions {
            stem: stem.clone(),
            ..WriteOptions::default()
        };
        let out = rerelease::write_layout(&original, writer("md2"), &options)
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let mut files: HashMap<String, Vec<u8>> = out
            .side_files
            .iter()
            .map(|s| (s.name.clone(), s.bytes.clone()))
            .collect();
        let file = format!("{stem}.md2");
        files.insert(file.clone(), out.bytes.clone());
        // A scale file naming a few joints at 1 in the first frames (and a joint the rig does
        // not have), within q2pro's 4096 tokens: read, and the frames stay as they were.
        let mesh = md5::parse_mesh(&files[&format!("md5/{stem}.md5mesh")], &Limits::default())
            .unwrap()
            .file;
        let frames = original.frames.len().min(40);
        let mut text = String::from("{ \"no_such_joint\": { \"0\": 0 }");
        for j in mesh.joints.iter().take(8) {
            let keys: Vec<String> = (0..frames).map(|f| format!("\"{f}\": 1")).collect();
            text.push_str(&format!(", {:?}: {{ {} }}", j.name, keys.join(", ")));
        }
        text.push_str(" }");
        files.insert(format!("md5/{stem}.md5scale"), text.into_bytes());
        let folder = Folder { files, model: file };
        let classic_doc =
            Document::parse(&folder.files[&folder.model], &Limits::default()).unwrap();
        let classic = classic_doc.to_model(&ConvertOptions::default(), &folder);
        let rep = rerelease::find(Game::Quake2, &classic.model, &folder).expect("paired");
        assert!(rep.has_scale, "{rel}: the .md5scale is found");
        assert!(
            !rep.warnings.iter().any(|w| w.contains("left out")),
            "{rel}: {:?}",
            rep.warnings
        );
        assert!(
            rep.warnings
                .iter()
                .any(|w| w.contains("no joint \"no_such_joint\"")),
            "{rel}: {:?}",
            rep.warnings
        );
        assert!(
            rep.checks.iter().all(|c| !c.error),
            "{rel}: q2pro refuses the pair: {:?}",
            rep.checks
        );
        let diags = rerelease::validate_pair("q2pro", &classic.model, &folder);
        assert!(
            diags
                .iter()
                .all(|d| d.severity != retromodel::Severity::Error),
            "{rel}: {diags:?}"
        );
        let options = ConvertOptions {
            prefer_md5: true,
            ..ConvertOptions::default()
        };
        let shown = classic_doc.try_to_model(&options, &folder).unwrap().model;
        assert!(!shown.joints.is_empty(), "{rel}: the MD5 is shown");
        assert_eq!(shown.frames.len(), original.frames.len(), "{rel}");
        // And down again to an MD2.
        let down = registry::write_model(&shown, writer("md2"), &WriteOptions::default()).unwrap();
        let down = Document::parse(&down.bytes, &Limits::default())
            .unwrap()
            .to_model(&ConvertOptions::default(), &retromodel::NoFiles)
            .model;
        for f in 0..original.frames.len() {
            // The names the MD2 of the layout stores (its writer fits them to 16 bytes).
            assert_eq!(
                shown.frames[f].name, classic.model.frames[f].name,
                "{rel}: frame names"
            );
            let want = frame_points(&original, f);
            // The MD5 holds the MD2's positions as floats; the MD2 written from the layout and
            // the one written back each round once more to their own grids.
            let tol = tolerance(original.frames[f].position_step) + 1e-3;
            let d = farthest(&frame_points(&shown, f), &want, tol);
            assert!(
                d <= tol,
                "{rel} frame {f}: the MD5 shows {d} off (grid {tol})"
            );
            let tol2 = tol + tolerance(down.frames[f].position_step);
            let d = farthest(&frame_points(&down, f), &want, tol2);
            assert!(
                d <= tol2,
                "{rel} frame {f}: the MD2 written back is {d} off (grid {tol2})"
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 3);
}
