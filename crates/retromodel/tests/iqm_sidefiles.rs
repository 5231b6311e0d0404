//! IQM's side files by value (issue 45): DarkPlaces' `.framegroups` (all groups written and
//! read back, applied with DarkPlaces' clamping, an empty file keeping the animations, a
//! broken one left out) and Cube 2's `iqm.cfg` (`exec`, `iqmdir`, `iqmanim` with its speed,
//! `iqmskin`, `mdlscale`), through the front of the library as a model folder gives them.

use std::collections::HashMap;

use retromodel::formats::iqm::{self, fixtures, framegroups, File};
use retromodel::{ConvertOptions, Converted, Document, Limits, NoFiles, Resolver};

/// A model folder in memory: `model` and the files beside it (paths relative to it).
struct Folder {
    model: String,
    files: HashMap<String, Vec<u8>>,
}

impl Folder {
    fn new(model: &str, files: &[(&str, Vec<u8>)]) -> Folder {
        Folder {
            model: model.into(),
            files: files
                .iter()
                .map(|(n, b)| (n.to_string(), b.clone()))
                .collect(),
        }
    }
}

impl Resolver for Folder {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.files.get(name).cloned()
    }
    fn model_name(&self) -> Option<String> {
        Some(self.model.clone())
    }
    fn list(&self, extension: &str) -> Vec<String> {
        let mut out: Vec<String> = self
            .files
            .keys()
            .filter(|n| {
                !n.contains('/')
                    && n.rsplit_once('.')
                        .is_some_and(|(_, e)| e.eq_ignore_ascii_case(extension))
            })
            .cloned()
            .collect();
        out.sort();
        out
    }
}

fn load(resolver: &dyn Resolver) -> Converted {
    let bytes = fixtures::skinned();
    let doc = Document::parse(&bytes, &Limits::default()).unwrap();
    // The model's configuration applied, as the front door and the CLI do by default.
    let options = ConvertOptions {
        model_config: true,
        ..ConvertOptions::default()
    };
    doc.to_model(&options, resolver)
}

fn summary(c: &Converted) -> Vec<(String, usize, f32, bool)> {
    c.model
        .animations
        .iter()
        .map(|a| (a.name.clone(), a.frames.len(), a.fps, a.loops))
        .collect()
}

#[test]
fn framegroups_write_and_read_back_every_group() {
    let text = "0 10 15 1 // idle\n\n10 5 20 0 run\n/* a\nb */ 15 1 10 0\n16 2\n";
    let groups = framegroups::parse(text).unwrap();
    assert_eq!(groups.len(), 4);
    let back = framegroups::parse(&framegroups::write(&groups)).unwrap();
    assert_eq!(back, groups, "all four groups, names, rates and loop flags");
}

#[test]
fn framegroups_replace_the_animations_clamped_as_darkplaces() {
    let plain = load(&NoFiles);
    assert_eq!(
        summary(&plain),
        [
            ("bend".to_string(), 3, 10.0, true),
            ("grow".to_string(), 2, iqm::DEFAULT_FPS, false)
        ]
    );
    // The fixture has 5 frames: "b" runs past the end (count cut to 2), "c" starts past it
    // (first frame 4) with no frames (1 kept).
    let groups = b"0 3 12 1 a\n3 9 5 0 b\n7 0 20 1 c\n".to_vec();
    let c = load(&Folder::new(
        "model.iqm",
        &[("model.iqm.framegroups", groups)],
    ));
    assert_eq!(
        summary(&c),
        [
            ("a".to_string(), 3, 12.0, true),
            ("b".to_string(), 2, 5.0, false),
            ("c".to_string(), 1, 20.0, true)
        ]
    );
    assert!(
        c.warnings.contains(
            &"model.iqm.framegroups: 3 frame groups used in place of the file's animations, as DarkPlaces does"
                .to_string()
        ),
        "{:?}",
        c.warnings
    );
    // By value: "a" is "bend", "c" the last frame of "grow".
    let (bend, grow) = (&plain.model.animations[0], &plain.model.animations[1]);
    let (a, cc) = (&c.model.animations[0], &c.model.animations[2]);
    for f in 0..3 {
        assert_eq!(
            format!("{:?}", a.frames[f]),
            format!("{:?}", bend.frames[f])
        );
    }
    assert_eq!(
        format!("{:?}", cc.frames[0]),
        format!("{:?}", grow.frames[1])
    );
}

#[test]
fn empty_or_broken_framegroups_keep_the_animations() {
    let plain = summary(&load(&NoFiles));
    for (text, warning) in [
        (
            &b"// nothing here\n\n"[..],
            "model.iqm.framegroups: no frame group in it; the file's own animations are kept, as DarkPlaces keeps them",
        ),
        (
            b"7\n",
            "model.iqm.framegroups: line 1: expected FIRST COUNT [FPS [LOOP [NAME]]] in \"7\"; left out",
        ),
    ] {
        let c = load(&Folder::new(
            "model.iqm",
            &[("model.iqm.framegroups", text.to_vec())],
        ));
        assert_eq!(summary(&c), plain, "{warning}");
        assert!(
            c.warnings.contains(&warning.to_string()),
            "{:?}",
            c.warnings
        );
    }
}

/// A 2x1 uncompressed true-colour TGA: red, green.
fn tga() -> Vec<u8> {
    let mut b = vec![0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 0, 24, 0x20];
    b.extend([0, 0, 255, 0, 255, 0]);
    b
}

#[test]
fn cube2_iqm_cfg_exec_iqmdir_iqmanim_and_iqmskin() {
    let anim = fixtures::anim_only();
    assert!(
        File::parse(&anim, &Limits::default())
            .unwrap()
            .meshes
            .is_empty(),
        "an animation-only file"
    );
    let folder = Folder::new(
        "model.iqm",
        &[
            (
                "iqm.cfg",
                b"exec \"common.cfg\"\niqmload model.iqm\niqmdir anims\niqmanim idle idle.iqm 25\niqmskin body skins/body.tga\n"
                    .to_vec(),
            ),
            ("common.cfg", b"mdlscale 200 // twice the size\n".to_vec()),
            ("anims/idle.iqm", anim),
            ("skins/body.tga", tga()),
        ],
    );
    let plain = load(&NoFiles);
    let c = load(&folder);
    // iqmdir + iqmanim: the animation file's two animations, named after it, at the
    // configuration's 25 frames a second.
    let names: Vec<(String, f32)> = c
        .model
        .animations
        .iter()
        .map(|a| (a.name.clone(), a.fps))
        .collect();
    assert_eq!(
        names,
        [
            ("bend".to_string(), 10.0),
            ("grow".to_string(), iqm::DEFAULT_FPS),
            ("idle:bend".to_string(), 25.0),
            ("idle:grow".to_string(), 25.0)
        ],
        "{:?}",
        c.warnings
    );
    // exec: common.cfg's mdlscale 200 doubles the model.
    let (p, q) = (
        plain.model.meshes[1].positions[2],
        c.model.meshes[1].positions[2],
    );
    assert_eq!(p, [1.0, 0.0, 4.0]);
    for k in 0..3 {
        assert!((q[k] - 2.0 * p[k]).abs() < 1e-5, "{q:?} from {p:?}");
    }
    assert!(
        c.warnings.iter().any(
            |w| w.starts_with("iqm.cfg: ") && w.ends_with("applied, as Cube 2 shows the model")
        ),
        "{:?}",
        c.warnings
    );
    // iqmskin: the body's picture from skins/body.tga.
    let skin = c.model.meshes[0].skin.expect("the body has a skin");
    let s = &c.model.skins[skin];
    assert!(
        s.source
            .as_deref()
            .is_some_and(|x| x.contains("skins/body.tga")),
        "{:?}",
        s.source
    );
    assert_eq!((s.pictures[0].width, s.pictures[0].height), (2, 1));
}
