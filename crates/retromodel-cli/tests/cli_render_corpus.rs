//! Golden statistics of corpus renders: one model of each family (Quake MDL, MD2, MD5,
//! 3D GameStudio, an assembled Quake 3 player) rendered by `retromodel render` at fixed settings; the share of covered
//! pixels and the mean colour of the covered pixels must match
//! `crates/retromodel-render/tests/golden/corpus_stats.txt` within a small tolerance (corpus
//! pixels are not committed). `RETROMODEL_BLESS=1` rewrites the file. Skipped with a notice
//! when RETROMODEL_CORPUS is unset or there is no GPU adapter.
//!
//! The models of [`TEXTURED`] find their pictures by the game's conventions (an MD5 shader
//! that is a picture path, UFO:AI's `.name`, Red Eclipse's `md5skin`): their renders must not
//! be the flat grey of an untextured model (the three channel means apart).

use std::path::{Path, PathBuf};

mod common;

use common::{bin, corpus, png_rgba};

const MODELS: &[(&str, &[&str])] = &[
    (
        "quake_mdl/github-pnahratow-LibreQuake/lq1/progs/boss.mdl",
        &["--frame", "0"],
    ),
    ("assimp/test/models-nonbsd/MD2/horse.md2", &["--frame", "3"]),
    (
        "md5/debian-redeclipse-data/redeclipse/data/weapons/zapper/mesh.md5mesh",
        &["--time", "0.3"],
    ),
    (
        "3dgs_mdl/github-ikskuh-libgamestudio/data/mdl/mdl4-golem.mdl",
        &["--frame", "10"],
    ),
    ("assimp/test/models-nonbsd/MD5/Bob.md5mesh", &["--time", "0"]),
    (
        "md2/debian-ufoai-data/ufoai/base/0models.pk3/models/objects/city/garbagecan/garbagecan.md2",
        &["--frame", "0"],
    ),
    // Half-Life: the textures of manT.mdl, found beside man.mdl (issue 41).
    ("assimp/test/models/MDL/MDL (HL1)/man.mdl", &["--time", "0"]),
    // A Quake 3 player folder, assembled (head on torso on legs), skins from .skin files.
    (
        "md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge",
        &["--clip", "LEGS_IDLE", "--time", "0"],
    ),
];

/// Models whose skins are found by name (not stored in the file): textured, not grey.
const TEXTURED: &[&str] = &[
    "assimp/test/models-nonbsd/MD5/Bob.md5mesh",
    "md2/debian-ufoai-data/ufoai/base/0models.pk3/models/objects/city/garbagecan/garbagecan.md2",
    "md5/debian-redeclipse-data/redeclipse/data/weapons/zapper/mesh.md5mesh",
    "md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge",
    "assimp/test/models/MDL/MDL (HL1)/man.mdl",
];

const COVERAGE_TOL: f64 = 0.01;
const MEAN_TOL: f64 = 6.0;

/// Coverage and mean R, G, B of covered pixels.
fn stats(path: &Path) -> [f64; 4] {
    let (_, _, buf) = png_rgba(path);
    let covered: Vec<&[u8]> = buf.chunks_exact(4).filter(|p| p[3] > 0).collect();
    let n = covered.len().max(1) as f64;
    let mean = |c: usize| covered.iter().map(|p| f64::from(p[c])).sum::<f64>() / n;
    [
        covered.len() as f64 / (buf.len() / 4) as f64,
        mean(0),
        mean(1),
        mean(2),
    ]
}

#[test]
fn corpus_renders_match_golden_statistics() {
    let Some(corpus) = corpus("corpus render goldens") else {
        return;
    };
    let golden = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../retromodel-render/tests/golden/corpus_stats.txt");
    let dir = tempfile::tempdir().unwrap();
    let mut lines = vec![
        "# retromodel render --size 128x128 --camera auto: model, coverage, mean R G B of covered pixels".to_string(),
    ];
    let mut got = Vec::new();
    for (i, (rel, extra)) in MODELS.iter().enumerate() {
        let out = dir.path().join(format!("{i}.png"));
        let mut args = vec![
            "render".to_string(),
            corpus.join(rel).to_string_lossy().into_owned(),
            out.to_string_lossy().into_owned(),
            "--size".into(),
            "128x128".into(),
        ];
        args.extend(extra.iter().map(|s| s.to_string()));
        let o = bin().args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        if !o.status.success() && err.contains("no GPU adapter") {
            assert!(
                std::env::var_os("RETROMODEL_REQUIRE_GPU").is_none(),
                "RETROMODEL_REQUIRE_GPU is set but: {err}"
            );
            eprintln!("no GPU adapter: skipped");
            return;
        }
        assert!(o.status.success(), "{rel}: {err}");
        let s = stats(&out);
        if TEXTURED.contains(rel) {
            let spread = (s[1] - s[2])
                .abs()
                .max((s[2] - s[3]).abs())
                .max((s[1] - s[3]).abs());
            assert!(
                spread > 2.0,
                "{rel}: mean colour {:?} is grey: the texture does not show",
                &s[1..]
            );
        }
        lines.push(format!(
            "{rel} {:.4} {:.2} {:.2} {:.2}",
            s[0], s[1], s[2], s[3]
        ));
        got.push((rel.to_string(), s));
    }
    if std::env::var_os("RETROMODEL_BLESS").is_some() {
        std::fs::write(&golden, lines.join("\n") + "\n").unwrap();
        eprintln!("{}: written", golden.display());
        return;
    }
    let text = std::fs::read_to_string(&golden).expect("golden statistics file");
    for (rel, s) in got {
        let line = text
            .lines()
            // The path may hold spaces: the line is the path, then the four figures.
            .find_map(|l| l.strip_prefix(rel.as_str())?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("{rel}: not in {}", golden.display()));
        let want: Vec<f64> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        eprintln!("{rel}: got {s:?}, golden {want:?}");
        assert!(
            (s[0] - want[0]).abs() <= COVERAGE_TOL,
            "{rel}: coverage {} vs golden {}",
            s[0],
            want[0]
        );
        for c in 1..4 {
            assert!(
                (s[c] - want[c]).abs() <= MEAN_TOL,
                "{rel}: mean channel {c} {} vs golden {}",
                s[c],
                want[c]
            );
        }
    }
}

/// The covered pixels on the image's border (alpha > 0 in the outermost rows and columns).
fn border_pixels(path: &Path) -> usize {
    let (w, h, buf) = png_rgba(path);
    let (w, h) = (w as usize, h as usize);
    (0..w * h)
        .filter(|i| {
            let (x, y) = (i % w, i / w);
            (x == 0 || y == 0 || x == w - 1 || y == h - 1) && buf[i * 4 + 3] > 0
        })
        .count()
}

/// `render`'s automatic camera frames the whole model over the whole clip: at 384x384, no
/// covered pixel touches the border at any of 12 times across the clip of a tall Quake
/// model (LibreQuake's ogre, whose clip runs through its death fall) and of an MD5
/// animation; and a still of the clip is framed for the clip, not for its own pose (smaller
/// than `--frame 0`, which frames that pose alone).
#[test]
fn auto_camera_frames_the_whole_clip() {
    let Some(corpus) = corpus("auto camera framing") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let ogre = "quake_mdl/github-pnahratow-LibreQuake/lq1/progs/ogre.mdl";
    let zapper = "md5/debian-redeclipse-data/redeclipse/data/weapons/zapper/mesh.md5mesh";
    let render = |model: &str, args: &[&str], name: &str| -> Option<PathBuf> {
        let out = dir.path().join(name);
        let o = bin()
            .arg("render")
            .arg(corpus.join(model))
            .arg(&out)
            .args(["--size", "384x384"])
            .args(args)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        if err.contains("no GPU adapter") && std::env::var_os("RETROMODEL_REQUIRE_GPU").is_none() {
            eprintln!("no GPU adapter: skipped");
            return None;
        }
        assert!(o.status.success(), "{model} {args:?}: {err}");
        Some(out)
    };
    for (model, clip) in [(ogre, &[][..]), (zapper, &["--clip", "shoot"][..])] {
        for i in 0..12 {
            let t = format!("{}", f64::from(i) * 1.3);
            let mut args = clip.to_vec();
            args.extend(["--time", t.as_str()]);
            let name = format!("{}_t{i}.png", model.len());
            let Some(png) = render(model, &args, &name) else {
                return;
            };
            assert_eq!(
                border_pixels(&png),
                0,
                "{model} at {t} s: the model touches the border"
            );
            assert!(stats(&png)[0] > 0.01, "{model} at {t} s: nothing drawn");
        }
    }
    let clip = render(ogre, &["--time", "0"], "clip.png").unwrap();
    let pose = render(ogre, &["--frame", "0"], "pose.png").unwrap();
    let (c, p) = (stats(&clip)[0], stats(&pose)[0]);
    assert!(
        c < p * 0.8,
        "the still at 0 s is framed for the clip ({c:.4} covered) as --frame 0 for its pose ({p:.4})"
    );
}
