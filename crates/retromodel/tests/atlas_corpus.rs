//! `model::atlas::pack_skins` on corpus models with several textures (OpenArena's
//! `machinegun.md3`, Red Eclipse's flag): for every triangle, the atlas colour at the
//! remapped centroid against the source texture's colour at the original centroid.

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use retromodel::image::{Image, Pixels};
use retromodel::model::atlas::{pack_skins, AtlasOptions};
use retromodel::model::{Mesh, Model};
use retromodel::vfs::{Archives, GameFs, PathResolver};
use retromodel::Limits;

/// The model at `path`, side files (skins, `md5.cfg`) found beside it or in the game
/// folders `game` (mounted in order, as `--game-dir`).
fn load(path: &Path, game: &[PathBuf]) -> Model {
    let archives = Archives::new(&Limits::default(), false);
    let tree = (!game.is_empty()).then(|| {
        let mut fs = GameFs::new(&Limits::default());
        for dir in game {
            fs.mount_game_dir(dir).unwrap();
        }
        Arc::new(fs)
    });
    let resolver = PathResolver::new(&archives, path, None, tree);
    let bytes = std::fs::read(path).unwrap();
    retromodel::read(&bytes, &Limits::default(), &resolver).unwrap()
}

/// RGBA of texel `(x, y)`, clamped to the picture.
fn texel(image: &Image, x: i64, y: i64) -> [u8; 4] {
    let x = x.clamp(0, image.width as i64 - 1) as usize;
    let y = y.clamp(0, image.height as i64 - 1) as usize;
    let i = (y * image.width as usize + x) * 4;
    match &image.pixels {
        Pixels::Rgba8(p) => p[i..i + 4].try_into().unwrap(),
        Pixels::Indexed { .. } => image.to_rgba8()[i..i + 4].try_into().unwrap(),
    }
}

/// The texel holding `uv` by the writers' rule (a 256th of a texel of tolerance).
fn texel_at(image: &Image, uv: [f32; 2]) -> [i64; 2] {
    let at = |c: f32, n: u32| (c as f64 * n as f64 + 1.0 / 256.0).floor() as i64;
    [at(uv[0], image.width), at(uv[1], image.height)]
}

fn centroid(m: &Mesh, tri: [u32; 3]) -> [f32; 2] {
    let c = tri.map(|v| m.uvs[v as usize]);
    [0, 1].map(|a| (c[0][a] + c[1][a] + c[2][a]) / 3.0)
}

/// How many triangles keep their colour, and of how many textured ones: `exact`, the atlas
/// texel at the remapped centroid equals the source texel at the original centroid; `near`,
/// it equals one of the 3x3 texels around it; `within`, each of its channels lies between
/// the least and the greatest of the source texels within `reach` texels of the centroid
/// (what a shrunk, area-averaged atlas can promise).
fn matches(before: &Model, after: &Model, reach: i64) -> [usize; 4] {
    let atlas = &after.skins[0].pictures[0];
    let [mut exact, mut near, mut within, mut total] = [0; 4];
    for (old, new) in before.meshes.iter().zip(&after.meshes) {
        let Some(source) = old.skin.and_then(|s| before.skins.get(s)?.pictures.first()) else {
            continue;
        };
        for (&a, &b) in old.triangles.iter().zip(&new.triangles) {
            total += 1;
            let [sx, sy] = texel_at(source, centroid(old, a).map(|c| c.rem_euclid(1.0)));
            let want = texel(source, sx, sy);
            let [x, y] = texel_at(atlas, centroid(new, b));
            let got = texel(atlas, x, y);
            exact += usize::from(got == want);
            near += usize::from(
                (-1..=1).any(|dy| (-1..=1).any(|dx| texel(atlas, x + dx, y + dy) == want)),
            );
            let (mut lo, mut hi) = ([255u8; 4], [0u8; 4]);
            for dy in -reach..=reach {
                for dx in -reach..=reach {
                    let t = texel(source, sx + dx, sy + dy);
                    for c in 0..4 {
                        lo[c] = lo[c].min(t[c]);
                        hi[c] = hi[c].max(t[c]);
                    }
                }
            }
            within += usize::from((0..4).all(|c| (lo[c]..=hi[c]).contains(&got[c])));
        }
    }
    [exact, near, within, total]
}

#[test]
fn corpus_models_keep_their_colours_in_the_atlas() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    // The machine gun's shader `models/weapons2/machinegun/skin` is declared in OpenArena
    // 0.8.8's patch archive, above the 0.8.5 data.
    let openarena = [
        "md3/debian-openarena-data/openarena/baseoa",
        "md3/debian-openarena-088-data/openarena/baseoa",
    ]
    .map(|d| dir.join(d));
    let models: [(&str, &[PathBuf]); 2] = [
        (
            "md3/debian-openarena-data/openarena/baseoa/pak0.pk3/models/weapons2/machinegun/\
             machinegun.md3",
            &openarena,
        ),
        (
            "md5/debian-redeclipse-data/redeclipse/data/props/flag/mesh.md5mesh",
            &[],
        ),
    ];
    for (rel, game) in models {
        let path = dir.join(rel);
        let before = load(&path, game);
        let pictures: Vec<_> = before
            .skins
            .iter()
            .map(|s| {
                (
                    s.name.clone(),
                    s.pictures.first().map(|p| (p.width, p.height)),
                )
            })
            .collect();
        eprintln!("{rel}: skins {pictures:?}");
        assert!(
            before
                .skins
                .iter()
                .filter(|s| !s.pictures.is_empty())
                .count()
                >= 2,
            "{rel}: fewer than two skin pictures found: {pictures:?}"
        );
        // As packed (no shrinking), and for a Quake MDL within 480 texels a side, widths a
        // multiple of 4 (shrunk).
        let small = AtlasOptions {
            max_size: [480, 480],
            align: 4,
            ..AtlasOptions::default()
        };
        for (what, options) in [
            ("default", AtlasOptions::default()),
            ("480, align 4", small),
        ] {
            let out = pack_skins(&before, &options);
            out.model.validate().unwrap();
            let atlas = &out.model.skins[0].pictures[0];
            let [exact, near, within, total] = matches(&before, &out.model, 2);
            let pc = |n: usize| 100.0 * n as f64 / total as f64;
            eprintln!(
                "{rel} ({what}): {}x{} atlas; of {total} triangle centroids, {exact} exact \
                 ({:.2} %), {near} within a texel ({:.2} %), {within} within the source's \
                 colour range 2 texels around ({:.2} %); notes {:?}; warnings {:?}",
                atlas.width,
                atlas.height,
                pc(exact),
                pc(near),
                pc(within),
                out.notes,
                out.warnings
            );
            assert!(total > 0);
            assert!(atlas.width <= options.max_size[0] && atlas.height <= options.max_size[1]);
            assert_eq!(
                (atlas.width % options.align, atlas.height % options.align),
                (0, 0)
            );
            assert!(out.warnings.is_empty(), "{:?}", out.warnings);
            let shrunk = out.notes.iter().any(|n| n.contains("shrunk"));
            if shrunk {
                assert!(pc(within) >= 95.0, "{rel} ({what}): {within}/{total}");
            } else {
                // Texel for texel: every centroid shows its source colour.
                assert_eq!(exact, total, "{rel} ({what})");
            }
        }
    }
}
