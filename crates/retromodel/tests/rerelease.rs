//! The Quake II and Quake re-release pairs (`retromodel::rerelease`) on generated fixtures:
//! an MD2 or MDL with its MD5 replacement and `.md5scale`, written by `write_layout` from a
//! hand-built skeletal model, then read back as the engines pair them. Skinned positions are
//! checked against q2pro's formula computed here, frame by frame, for every consumer: the
//! replacement's baked frames, sampling with `PoseTrack`, and the MD2, MDL and MD3 that
//! down-conversion writes.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]

use std::collections::HashMap;

#[path = "rerelease_formula/mod.rs"]
mod rerelease_formula;
use rerelease_formula::{axis_angle, dist, qmul, V3};

use retromodel::codec::Writer;
use retromodel::formats::md5::scale;
use retromodel::model::pose::{self, JointPose, PoseTrack};
use retromodel::model::{Joint, JointTransform, Mesh, SkeletalAnimation, WeightScales};
use retromodel::rerelease::{self, Game};
use retromodel::{registry, ConvertOptions, Document, Limits, Model, Resolver, WriteOptions};

/// Files of one folder, the model among them.
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

const FRAMES: usize = 6;
const ROOT: usize = 0;
const LIMB: usize = 1;
const TIP: usize = 2;

/// Three joints (root, limb, tip), one mesh, an animation of `frames` frames at 10 fps and
/// the weight scales of the issue: the limb hidden (0) in frame 1, doubled in frame 2 without
/// `scale_positions`; the tip doubled with `scale_positions` in frame 3; the root halved in
/// frame 4.
fn skeletal(frames: usize, meshes: usize) -> Model {
    let bind = [
        ([0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], None),
        (
            [0.0, 0.0, 10.0],
            axis_angle([0.0, 0.0, 1.0], 90.0),
            Some(ROOT),
        ),
        (
            [0.0, 0.0, 20.0],
            axis_angle([0.0, 0.0, 1.0], 90.0),
            Some(LIMB),
        ),
    ];
    let joints: Vec<Joint> = bind
        .iter()
        .enumerate()
        .map(|(i, (t, r, p))| Joint {
            name: ["root", "limb", "tip"][i].to_string(),
            parent: *p,
            translation: *t,
            rotation: *r,
        })
        .collect();
    let positions: Vec<V3> = vec![
        [4.0, 0.0, 0.0],
        [3.0, 0.0, 10.0],
        [-3.0, 1.0, 12.0],
        [2.0, 0.0, 20.0],
        [0.0, 3.0, 5.0],
        [-2.0, -2.0, 21.0],
    ];
    let weights = [
        vec![(ROOT as u32, 1.0)],
        vec![(LIMB as u32, 1.0)],
        vec![(LIMB as u32, 1.0)],
        vec![(TIP as u32, 1.0)],
        vec![(ROOT as u32, 0.5), (LIMB as u32, 0.5)],
        vec![(TIP as u32, 1.0)],
    ];
    let mesh = |name: &str| Mesh {
        name: name.to_string(),
        positions: positions.clone(),
        normals: vec![[0.0, 0.0, 1.0]; positions.len()],
        uvs: (0..positions.len())
            .map(|i| [i as f32 / 8.0, 1.0 - i as f32 / 8.0])
            .collect(),
        triangles: vec![[0, 1, 2], [1, 3, 2], [0, 4, 1], [3, 5, 2]],
        source_vertices: (0..positions.len() as u32).collect(),
        joint_weights: weights.iter().map(|w| w.as_slice().into()).collect(),
        ..Mesh::default()
    };
    let frames_t: Vec<Vec<JointTransform>> = (0..frames)
        .map(|f| {
            let f = f as f32;
            vec![
                JointTransform {
                    translation: [f, 0.5 * f, 0.0],
                    rotation: axis_angle([0.0, 0.0, 1.0], 10.0 * f),
                },
                JointTransform {
                    translation: [0.0, 0.0, 10.0],
                    rotation: qmul(
                        axis_angle([0.0, 0.0, 1.0], 90.0),
                        axis_angle([1.0, 0.0, 0.0], 15.0 * f),
                    ),
                },
                JointTransform {
                    translation: [0.0, 1.0, 10.0],
                    rotation: axis_angle([0.0, 1.0, 0.0], 5.0 * f),
                },
            ]
        })
        .collect();
    let mut ws = WeightScales::unit(frames, 3);
    let mut set = |f: usize, j: usize, s: f32| {
        if f < frames {
            ws.frames[f][j] = s;
        }
    };
    set(1, LIMB, 0.0);
    set(2, LIMB, 2.0);
    set(3, TIP, 2.0);
    set(4, ROOT, 0.5);
    ws.scale_positions[TIP] = true;
    Model {
        meshes: (0..meshes).map(|i| mesh(&format!("mesh{i}"))).collect(),
        joints,
        animations: vec![SkeletalAnimation {
            name: "act".into(),
            fps: 10.0,
            frames: frames_t.into(),
            bounds: Vec::new(),
            loops: false,
            weight_scales: Some(ws),
        }],
        ..Model::default()
    }
}

fn formula(m: &Model, f: usize) -> Vec<V3> {
    rerelease_formula::formula(m, 0, f)
}

fn writer(name: &str) -> &'static Writer {
    registry::writers()
        .find(|w| w.format.name() == name && (w.variant.is_empty() || w.variant == "quake"))
        .unwrap_or_else(|| panic!("no {name} writer"))
}

fn options(stem: &str) -> WriteOptions {
    WriteOptions {
        stem: stem.to_string(),
        ..WriteOptions::default()
    }
}

/// The layout of `model` written as `classic` (`md2`, `quake-mdl`), as a folder.
fn layout(model: &Model, classic: &str, file: &str) -> Folder {
    let stem = file.rsplit_once('.').unwrap().0;
    let out = rerelease::write_layout(model, writer(classic), &options(stem)).unwrap();
    let mut files: HashMap<String, Vec<u8>> = out
        .side_files
        .iter()
        .map(|s| (s.name.clone(), s.bytes.clone()))
        .collect();
    files.insert(file.to_string(), out.bytes);
    Folder {
        files,
        model: file.to_string(),
    }
}

fn read(folder: &Folder, prefer: bool) -> retromodel::Converted {
    let bytes = &folder.files[&folder.model];
    let doc = Document::parse(bytes, &Limits::default()).unwrap();
    let options = ConvertOptions {
        prefer_md5: prefer,
        ..ConvertOptions::default()
    };
    doc.try_to_model(&options, folder).unwrap()
}

/// The farthest point of either set from the other, checked within `within`.
fn hausdorff(got: &[V3], want: &[V3], within: f32) -> f32 {
    rerelease_formula::farthest(got, want, within)
}

#[test]
fn quake2_pair_skins_as_q2pro_in_every_consumer() {
    let model = skeletal(FRAMES, 1);
    let folder = layout(&model, "md2", "tris.md2");
    for name in ["md5/tris.md5mesh", "md5/tris.md5anim", "md5/tris.md5scale"] {
        assert!(folder.files.contains_key(name), "{name} not written");
    }
    // The scales written read back exactly.
    let names = ["root", "limb", "tip"];
    let back = scale::parse_scales(&folder.files["md5/tris.md5scale"], &names, FRAMES).unwrap();
    assert_eq!(
        back.scales,
        *model.animations[0].weight_scales.as_ref().unwrap()
    );
    assert!(back.warnings.is_empty());

    let classic = read(&folder, false);
    let rep = rerelease::find(Game::Quake2, &classic.model, &folder).expect("the pair is found");
    assert!(rep.usable(), "{:?}", rep.checks);
    assert!(rep.checks.iter().all(|c| !c.error));
    assert_eq!(rep.anim_frames, FRAMES);
    assert!(rep.has_scale);
    assert!(rerelease::validate_pair("q2pro", &classic.model, &folder)
        .iter()
        .all(|d| d.severity != retromodel::Severity::Error));

    let replaced = read(&folder, true);
    let m = &replaced.model;
    assert_eq!(m.joints.len(), 3);
    assert_eq!(m.frames.len(), FRAMES);
    let classic_names: Vec<&str> = classic
        .model
        .frames
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    let names_now: Vec<&str> = m.frames.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names_now, classic_names, "frames carry the classic names");
    assert_eq!(m.clips.len(), classic.model.clips.len());
    assert_eq!(m.animations[0].name, classic.model.clips[0].name);

    let inverse: Vec<[f32; 16]> = m
        .joints
        .iter()
        .map(|j| pose::inverse_bind_matrix(&JointPose::from_transform(&j.bind_transform())))
        .collect();
    let track = PoseTrack::from_model(m, 0).unwrap();
    assert!(track.has_weight_scales());
    let mut global = vec![JointPose::IDENTITY; 3];
    let mut matrices = vec![[0.0f32; 16]; 3];
    for f in 0..FRAMES {
        let want = formula(&model, f);
        // 1. The replacement's frames (baked).
        let baked = &m.meshes[0].morph_targets[f].positions;
        for (v, (g, w)) in baked.iter().zip(&want).enumerate() {
            assert!(
                dist(*g, *w) < 1e-3,
                "baked frame {f} vertex {v}: {g:?} vs {w:?}"
            );
        }
        // 2. Sampling: the track's poses and scaled joint matrices.
        track.frame_global(f, &mut global);
        pose::joint_matrices_scaled(
            &global,
            &inverse,
            track.frame_weight_scales(f),
            &mut matrices,
        );
        for (v, (p, ws)) in m.meshes[0]
            .positions
            .iter()
            .zip(&m.meshes[0].joint_weights)
            .enumerate()
        {
            let got = pose::blend_point(&matrices, ws, *p);
            assert!(
                dist(got, want[v]) < 1e-3,
                "sampled frame {f} vertex {v}: {got:?} vs {:?}",
                want[v]
            );
        }
        // Between frames the later frame's scales count, as q2pro's lerp takes them.
        if f + 1 < FRAMES {
            let t = (f as f32 + 0.5) / 10.0;
            assert_eq!(
                track.weight_scales_at(t, pose::Playback::Clamp),
                track.frame_weight_scales(f + 1)
            );
        }
    }
    // Scale 0 hides the limb: its vertices fall onto the joint.
    let hidden = formula(&model, 1);
    assert!(dist(hidden[1], hidden[2]) < 1e-4);
    assert!(
        dist(
            m.meshes[0].morph_targets[1].positions[1],
            m.meshes[0].morph_targets[1].positions[2]
        ) < 1e-3
    );
    assert!(
        dist(hidden[1], formula(&model, 0)[1]) > 1.0,
        "the limb moves in frame 1"
    );

    // 3. Down-conversion: MD2, MDL and MD3 within their grids of the formula.
    for target in ["md2", "quake-mdl", "md3"] {
        let out = registry::write_model(m, writer(target), &options("down")).unwrap();
        let doc = Document::parse(&out.bytes, &Limits::default()).unwrap();
        let back = doc
            .to_model(&ConvertOptions::default(), &retromodel::NoFiles)
            .model;
        assert_eq!(back.frames.len(), FRAMES, "{target}");
        for f in 0..FRAMES {
            let step = back.frames[f].position_step.unwrap_or([1.0 / 64.0; 3]);
            let tolerance =
                (step[0].powi(2) + step[1].powi(2) + step[2].powi(2)).sqrt() / 2.0 + 1e-3;
            let got: Vec<V3> = back
                .meshes
                .iter()
                .flat_map(|me| me.morph_targets[f].positions.clone())
                .collect();
            let d = hausdorff(&got, &formula(&model, f), tolerance);
            assert!(d <= tolerance, "{target} frame {f}: {d} > {tolerance}");
        }
    }
}

#[test]
fn md5scale_rules_unknown_joints_late_frames_and_bad_files() {
    let names = ["root", "limb"];
    let text = br#"{ "limb": { "1": 0, "7": 2, "scale_positions": true },
                     "ghost": { "0": 5 }, "root": { "x": 3, "2": true } }"#;
    let r = scale::parse_scales(text, &names, 4).unwrap();
    assert_eq!(r.scales.frames[1][1], 0.0);
    assert!(r.scales.scale_positions[1]);
    assert_eq!(
        r.scales.frames[0][0], 3.0,
        "a key without digits is frame 0, as atoi reads it"
    );
    assert_eq!(
        r.scales.frames[2][0], 0.0,
        "true reads as 0, as atof reads it"
    );
    let said = r.warnings.join("\n");
    for part in [
        "no joint \"ghost\"",
        "no frame 7",
        "\"x\" is not a frame number",
        "true is not a number",
    ] {
        assert!(said.contains(part), "{part} not in {said}");
    }
    let err = scale::parse_scales(br#"{ "limb": { "1": "big" } }"#, &names, 4).unwrap_err();
    assert_eq!(
        err.to_string(),
        "md5scale: joint \"limb\": key \"1\": the value is not a number or true/false at line 1:19"
    );
    let err = scale::parse_scales(b"[1, 2]", &names, 4).unwrap_err();
    assert!(
        err.to_string().contains("the top level is not an object"),
        "{err}"
    );
    // What jsmn leaves unclosed, q2pro refuses.
    let err = scale::parse_scales(b"{ \"limb\": { \"1\": 2 }", &names, 4).unwrap_err();
    assert_eq!(
        err.to_string(),
        "md5scale: an object or array is not closed at line 1:1"
    );
    assert!(scale::parse_scales(b"  \n", &names, 4)
        .unwrap()
        .scales
        .is_unit());
}

#[test]
fn quake2_fewer_md5_frames_warn_and_a_missing_anim_is_refused() {
    let mut folder = layout(&skeletal(FRAMES, 1), "md2", "tris.md2");
    let short = layout(&skeletal(4, 1), "md2", "tris.md2");
    for name in ["md5/tris.md5anim", "md5/tris.md5scale"] {
        folder.files.insert(name.into(), short.files[name].clone());
    }
    // A scale file with a frame past the MD5's last and a joint it does not have: warned,
    // the rest read.
    folder.files.insert(
        "md5/tris.md5scale".into(),
        br#"{ "limb": { "1": 0, "9": 0 }, "wing": { "0": 2 } }"#.to_vec(),
    );
    let classic = read(&folder, false);
    let rep = rerelease::find(Game::Quake2, &classic.model, &folder).unwrap();
    assert!(rep.usable());
    let said = rep.warnings.join("\n");
    assert!(said.contains("no frame 9 (the animation has 4)"), "{said}");
    assert!(said.contains("no joint \"wing\""), "{said}");
    let ws = rep.model.animations[0].weight_scales.as_ref().unwrap();
    assert_eq!(ws.frames[1][LIMB], 0.0);
    assert!(
        rep.checks
            .iter()
            .any(|c| !c.error && c.message.contains("fewer frames than the MD2 (4 < 6)")),
        "{:?}",
        rep.checks
    );
    // The classic frames past the MD5's show its frame number modulo 4, as q2pro plays them.
    let replaced = read(&folder, true);
    let m = &replaced.model;
    assert_eq!(m.frames.len(), FRAMES);
    assert!(
        replaced.warnings.iter().any(|w| w.contains("modulo 4")),
        "{:?}",
        replaced.warnings
    );
    for f in 4..FRAMES {
        assert_eq!(
            m.meshes[0].morph_targets[f].positions,
            m.meshes[0].morph_targets[f % 4].positions
        );
        assert_eq!(m.frames[f].name, classic.model.frames[f].name);
    }
    assert_eq!(m.animations[0].frames.len(), FRAMES);

    folder.files.remove("md5/tris.md5anim");
    let rep = rerelease::find(Game::Quake2, &classic.model, &folder).unwrap();
    assert!(!rep.usable());
    assert!(
        rep.checks[0]
            .message
            .contains("md5/tris.md5anim is missing"),
        "{:?}",
        rep.checks
    );
    // --prefer md5 keeps the classic model and says why.
    let kept = read(&folder, true);
    assert!(kept.model.joints.is_empty());
    assert!(kept
        .warnings
        .iter()
        .any(|w| w.contains("re-release replacement not used")));
}

#[test]
fn quake_pair_frame_counts_two_against_one_and_one_mesh() {
    // Equal frame counts: used, frames named as the MDL's; the MDL's flags, synctype and eye
    // position stay through the replacement and a down-conversion.
    let mut authored = skeletal(FRAMES, 1);
    let extras = retromodel::model::MdlExtras {
        flags: 1 | 8,
        synctype: 1,
        eye_position: [0.0, 0.0, 22.0],
    };
    authored.mdl_extras = Some(extras);
    let folder = layout(&authored, "quake-mdl", "soldier.mdl");
    assert!(folder.files.contains_key("soldier.md5mesh"));
    let classic = read(&folder, false);
    let rep = rerelease::find(Game::Quake, &classic.model, &folder).unwrap();
    assert!(rep.usable(), "{:?}", rep.checks);
    let replaced = read(&folder, true);
    assert_eq!(replaced.model.joints.len(), 3);
    assert_eq!(classic.model.mdl_extras, Some(extras));
    assert_eq!(replaced.model.mdl_extras, Some(extras));
    let down =
        registry::write_model(&replaced.model, writer("quake-mdl"), &options("down")).unwrap();
    let back = Document::parse(&down.bytes, &Limits::default())
        .unwrap()
        .to_model(&ConvertOptions::default(), &retromodel::NoFiles);
    assert_eq!(back.model.mdl_extras, Some(extras));
    for f in 0..FRAMES {
        let d = hausdorff(
            &replaced.model.meshes[0].morph_targets[f].positions,
            &formula(&skeletal(FRAMES, 1), f),
            1e-3,
        );
        assert!(d < 1e-3, "frame {f}: {d}");
    }

    // Another count: refused.
    let mut other = layout(&skeletal(FRAMES, 1), "quake-mdl", "soldier.mdl");
    let short = layout(&skeletal(4, 1), "quake-mdl", "soldier.mdl");
    other.files.insert(
        "soldier.md5anim".into(),
        short.files["soldier.md5anim"].clone(),
    );
    let rep = rerelease::find(Game::Quake, &classic.model, &other).unwrap();
    assert!(!rep.usable());
    assert!(
        rep.checks[0].message.contains("has 4 frames, the MDL 6"),
        "{:?}",
        rep.checks
    );

    // 2 against 1: accepted.
    let one = layout(&skeletal(1, 1), "quake-mdl", "soldier.mdl");
    let mut two = one.files.clone();
    let pair = layout(&skeletal(2, 1), "quake-mdl", "soldier.mdl");
    two.insert(
        "soldier.md5anim".into(),
        pair.files["soldier.md5anim"].clone(),
    );
    let two = Folder {
        files: two,
        model: "soldier.mdl".into(),
    };
    let classic_one = read(&two, false);
    assert_eq!(classic_one.model.frames.len(), 1);
    let rep = rerelease::find(Game::Quake, &classic_one.model, &two).unwrap();
    assert!(rep.usable(), "{:?}", rep.checks);
    let shown = rerelease::apply(&classic_one, &rep).unwrap();
    shown.model.validate().unwrap();
    assert_eq!(shown.model.frames[0].name, classic_one.model.frames[0].name);

    // Two meshes: refused for Quake.
    let meshes = layout(&skeletal(FRAMES, 2), "quake-mdl", "soldier.mdl");
    let classic_two = read(&meshes, false);
    let rep = rerelease::find(Game::Quake, &classic_two.model, &meshes).unwrap();
    assert!(!rep.usable());
    assert!(
        rep.checks
            .iter()
            .any(|c| c.error && c.message.contains("2 meshes")),
        "{:?}",
        rep.checks
    );
}

/// Truncation and bit-flip sweeps of the pair's three MD5 files: pairing never panics, a
/// damaged mesh or anim is refused with a located error naming the file, a damaged
/// md5scale is read or left out with a warning naming it, and whatever is shown is valid.
#[test]
fn truncated_and_flipped_pair_files() {
    let folder = layout(&skeletal(FRAMES, 1), "md2", "tris.md2");
    let classic = read(&folder, false);
    let mut cases = 0;
    for name in ["md5/tris.md5mesh", "md5/tris.md5anim", "md5/tris.md5scale"] {
        let bytes = folder.files[name].clone();
        let mut variants: Vec<Vec<u8>> = (0..bytes.len())
            .step_by(7)
            .map(|n| bytes[..n].to_vec())
            .collect();
        for i in (0..bytes.len()).step_by(5) {
            for bit in [0, 3, 6] {
                let mut b = bytes.clone();
                b[i] ^= 1 << bit;
                variants.push(b);
            }
        }
        for v in variants {
            let mut files = folder.files.clone();
            files.insert(name.to_string(), v);
            let damaged = Folder {
                files,
                model: folder.model.clone(),
            };
            let rep = rerelease::find(Game::Quake2, &classic.model, &damaged)
                .expect("the mesh file is there");
            for c in rep.checks.iter().filter(|c| c.error) {
                assert!(
                    c.message.starts_with("md5/tris.md5")
                        || c.message.contains("frames")
                        || c.message.contains("joints"),
                    "{name}: {}",
                    c.message
                );
            }
            for w in rep.warnings.iter().filter(|w| w.contains("md5scale")) {
                assert!(w.starts_with("md5/tris.md5scale"), "{w}");
            }
            if rep.usable() {
                let shown = rerelease::apply(&classic, &rep).unwrap();
                shown.model.validate().unwrap();
            }
            cases += 1;
        }
    }
    assert!(cases > 1000, "{cases}");
}

/// Quake: an MD5 from a lower search path than the MDL is not used; from the same or a higher
/// one it is (a tree of two PAK layers, the later one winning).
#[test]
fn quake_md5_only_from_the_same_or_a_higher_search_path() {
    use retromodel::vfs::{open_bytes, pak, GameFs, GameFsResolver};
    let folder = layout(&skeletal(FRAMES, 1), "quake-mdl", "soldier.mdl");
    let file = |n: &str| (format!("progs/{n}"), folder.files[n].clone());
    let mdl = [file("soldier.mdl")];
    let md5 = [file("soldier.md5mesh"), file("soldier.md5anim")];
    let archive = |files: &[(String, Vec<u8>)]| {
        let list: Vec<(&str, &[u8])> = files
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        open_bytes(pak::write(&list).unwrap(), &Limits::default()).unwrap()
    };
    for (md5_first, usable) in [(true, true), (false, false)] {
        let mut fs = GameFs::new(&Limits::default());
        if md5_first {
            fs.add_archive("pak0.pak", archive(&mdl));
            fs.add_archive("pak1.pak", archive(&md5));
        } else {
            fs.add_archive("pak0.pak", archive(&md5));
            fs.add_archive("pak1.pak", archive(&mdl));
        }
        let resolver = GameFsResolver::new(&fs, "progs/soldier.mdl");
        let bytes = fs.read("progs/soldier.mdl").unwrap().unwrap();
        let classic = Document::parse(&bytes, &Limits::default())
            .unwrap()
            .to_model(&ConvertOptions::default(), &resolver);
        let rep = rerelease::find(Game::Quake, &classic.model, &resolver).expect("found");
        assert_eq!(rep.usable(), usable, "{:?}", rep.checks);
        if !usable {
            assert!(
                rep.checks[0].message.contains("lower search path"),
                "{:?}",
                rep.checks
            );
        }
    }
}

/// At rates where `k / rate × fps` lands a hair below a whole frame (25 fps), baking and
/// resampling take that frame's own weight scales, not the next one's.
#[test]
fn baking_at_25_fps_takes_each_frames_own_scales() {
    let mut model = skeletal(20, 1);
    let a = &mut model.animations[0];
    a.fps = 25.0;
    let ws = a.weight_scales.as_mut().unwrap();
    *ws = WeightScales::unit(20, 3);
    ws.frames[16][LIMB] = 0.0;
    for fps in [None, Some(25.0)] {
        let baked = retromodel::model::bake::bake_skeletal(&model, fps)
            .unwrap()
            .model;
        for f in [15, 16, 17] {
            let p = &baked.meshes[0].morph_targets[f].positions;
            let hidden = dist(p[1], p[2]) < 1e-3;
            assert_eq!(hidden, f == 16, "{fps:?}: frame {f}");
        }
    }
    // 25 -> 10 fps: frame 6 is source frame 15 (unscaled), frame 4 source frame 10.
    let r = retromodel::model::bake::resample_animation(&model.animations[0], 10.0);
    let rows = &r.weight_scales.as_ref().unwrap().frames;
    assert!(rows.iter().all(|row| row[LIMB] == 1.0), "{rows:?}");
    model.animations[0].weight_scales.as_mut().unwrap().frames[15][LIMB] = 0.0;
    let r = retromodel::model::bake::resample_animation(&model.animations[0], 10.0);
    assert_eq!(r.weight_scales.as_ref().unwrap().frames[6][LIMB], 0.0);
}
