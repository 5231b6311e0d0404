//! One skin from many textures (issue 26, criterion 2): corpus models with several textures
//! converted to Quake MDL and MD2 (one skin each: the textures packed into an atlas) look
//! like their source. `render` draws the source and the result from the same camera; the
//! normalised RMSE between the two pictures must be at most 2.5 times that of a
//! single-texture model's conversion (the loss every conversion has: the palette, 8-bit
//! positions), and the same for the Red Eclipse flag with its transparent cut-outs. The
//! figures are printed (`--nocapture`).
//!
//! Skipped without RETROMODEL_CORPUS or without a GPU adapter.

use std::path::Path;

mod common;

use common::{corpus, png_rgba, run, run_ok, s, text};

/// Renders `model` at `camera` into `png`; `None` without a GPU adapter.
fn render(model: &Path, png: &Path, camera: &str, extra: &[&str]) -> Option<Vec<u8>> {
    let mut args = vec![
        "render",
        s(model),
        s(png),
        "--force",
        "--size",
        "256x256",
        "--camera",
        camera,
    ];
    args.extend(extra);
    let out = run(&args);
    let err = text(&out.stderr);
    if !out.status.success() && err.contains("no GPU adapter") {
        assert!(
            std::env::var_os("RETROMODEL_REQUIRE_GPU").is_none(),
            "{err}"
        );
        eprintln!("no GPU adapter: skipped");
        return None;
    }
    assert!(out.status.success(), "render {}: {err}", model.display());
    Some(png_rgba(png).2)
}

/// Root of the mean squared difference of the RGB channels, over 255.
fn nrmse(a: &[u8], b: &[u8]) -> f64 {
    assert_eq!(a.len(), b.len());
    let mut sum = 0f64;
    let mut n = 0f64;
    for (p, q) in a.chunks_exact(4).zip(b.chunks_exact(4)) {
        for k in 0..3 {
            let d = f64::from(p[k]) - f64::from(q[k]);
            sum += d * d;
            n += 1.0;
        }
    }
    (sum / n).sqrt() / 255.0
}

/// The camera for a model: a three-quarter view at a distance from its size, the same for
/// the source and the result.
fn camera(model: &Path) -> String {
    let out = run_ok(&["info", "--json", s(model)]);
    let json: serde_json::Value =
        serde_json::from_str(text(&out.stdout).lines().next().unwrap()).unwrap();
    let b = &json["bounds"];
    let size = (0..3)
        .map(|k| b["max"][k].as_f64().unwrap() - b["min"][k].as_f64().unwrap())
        .fold(0.0, f64::max);
    format!("30,20,{}", size * 1.6)
}

/// NRMSE of `source` against its conversion to `ext`.
fn difference(dir: &Path, source: &Path, ext: &str, extra: &[&str]) -> Option<f64> {
    let stem = source.file_stem().unwrap().to_string_lossy().into_owned();
    let out = dir.join(format!("{stem}_conv.{ext}"));
    let mut args = vec!["convert", s(source), s(&out), "--force"];
    args.extend(extra);
    run_ok(&args);
    let cam = camera(source);
    let a = render(
        source,
        &dir.join(format!("{stem}_src.png")),
        &cam,
        &["--frame", "0"],
    )?;
    let b = render(
        &out,
        &dir.join(format!("{stem}_{ext}.png")),
        &cam,
        &["--frame", "0"],
    )?;
    let e = nrmse(&a, &b);
    println!("{} -> {ext}: NRMSE {e:.4}", source.display());
    Some(e)
}

#[test]
fn several_textures_packed_into_one_skin_look_like_the_source() {
    let Some(root) = corpus("") else {
        eprintln!("skipped: RETROMODEL_CORPUS not set");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let md3 = root.join("md3");
    let single =
        md3.join("debian-openarena-data/openarena/baseoa/pak0.pk3/models/players/sarge/head.md3");
    let several = [
        md3.join("debian-nexuiz-data/nexuiz/data/data.pk3/models/turrets/hk.md3"),
        md3.join(
            "debian-openarena-088-data/openarena/baseoa/pak6-patch088.pk3/models/players/neko/lower.md3",
        ),
    ];
    let flag = root.join("md5/debian-redeclipse-data/redeclipse/data/props/flag/mesh.md5mesh");
    for ext in ["mdl", "md2"] {
        let Some(base) = difference(dir.path(), &single, ext, &[]) else {
            return;
        };
        for model in &several {
            let e = difference(dir.path(), model, ext, &[]).unwrap();
            assert!(
                e <= 2.5 * base,
                "{} -> {ext}: NRMSE {e:.4}, more than 2.5 x {base:.4}",
                model.display()
            );
        }
        // The flag as stored (no md5.cfg scale), so that one camera frames both.
        let e = difference(dir.path(), &flag, ext, &["--no-model-config"]).unwrap();
        assert!(
            e <= 2.5 * base,
            "flag -> {ext}: NRMSE {e:.4}, more than 2.5 x {base:.4}"
        );
    }
}
