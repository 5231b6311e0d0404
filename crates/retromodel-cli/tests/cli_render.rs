//! `retromodel render` on generated models: PNG and GIF output, the adapter line, errors.
//! Every test passes with "no GPU adapter: skipped" when the machine has no GPU adapter (no
//! GPU and no software Vulkan driver).

use std::process::Output;

mod common;

use common::{assert_contains, md5_with_anim, png_rgba, run, s, sample, text};

/// Runs `render ARGS`; `None` (after printing the skip) when there is no adapter.
fn render(args: &[&str]) -> Option<Output> {
    let mut all = vec!["render"];
    all.extend_from_slice(args);
    let out = run(&all);
    let err = text(&out.stderr);
    if !out.status.success() && err.contains("no GPU adapter") {
        assert!(err.contains("mesa-vulkan-drivers"), "{err}");
        assert!(
            std::env::var_os("RETROMODEL_REQUIRE_GPU").is_none(),
            "RETROMODEL_REQUIRE_GPU is set but: {err}"
        );
        eprintln!("no GPU adapter: skipped");
        return None;
    }
    Some(out)
}

fn coverage(rgba: &[u8]) -> f64 {
    rgba.chunks_exact(4).filter(|p| p[3] > 0).count() as f64 / (rgba.len() / 4) as f64
}

#[test]
fn renders_a_png_and_names_the_adapter() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = sample(dir.path(), "demo.mdl");
    let png = dir.path().join("demo.png");
    let Some(out) = render(&[s(&mdl), s(&png), "--size", "160x120", "--time", "0.15"]) else {
        return;
    };
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("adapter: "), "{stdout}");
    let (w, h, rgba) = png_rgba(&png);
    assert_eq!((w, h), (160, 120));
    let cov = coverage(&rgba);
    assert!(cov > 0.02, "coverage {cov}");
    // No temporary file left behind, and no overwrite without --force.
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    let again = render(&[s(&mdl), s(&png)]).unwrap();
    assert!(!again.status.success());
    assert!(text(&again.stderr).contains("--force"));
    // Wireframe draws more pixels in a different colour, a camera from behind differs.
    let wire = dir.path().join("wire.png");
    let out = render(&[
        s(&mdl),
        s(&wire),
        "--size",
        "160x120",
        "--time",
        "0.15",
        "--wireframe",
    ])
    .unwrap();
    assert!(out.status.success());
    assert_ne!(png_rgba(&wire).2, rgba);
}

#[test]
fn writes_gifs_of_clips_and_turntables() {
    let dir = tempfile::tempdir().unwrap();
    let md2 = sample(dir.path(), "demo.md2");
    let png = dir.path().join("still.png");
    let gif = dir.path().join("clip.gif");
    let Some(out) = render(&[
        s(&md2),
        s(&png),
        "--size",
        "64x64",
        "--out-gif",
        s(&gif),
        "--gif-fps",
        "10",
    ]) else {
        return;
    };
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(std::fs::read(&gif).unwrap().starts_with(b"GIF89a"));
    let spin = dir.path().join("spin.gif");
    let out = render(&[s(&md2), s(&spin), "--size", "48x48", "--turntable"]).unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_contains(&out.stdout, "60 frames");
    // A turntable needs an animated output.
    let out = render(&[s(&md2), s(&dir.path().join("x.png")), "--turntable"]).unwrap();
    assert!(!out.status.success());
}

#[test]
fn md5_with_the_anim_beside_it_and_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mesh = md5_with_anim(dir.path(), "bob.md5mesh");
    let png = dir.path().join("bob.png");
    let Some(out) = render(&[
        s(&mesh),
        s(&png),
        "--size",
        "64x64",
        "--clip",
        "wave",
        "--time",
        "0.05",
        "--camera",
        "90,20",
    ]) else {
        return;
    };
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(coverage(&png_rgba(&png).2) > 0.0);
    let bad = render(&[s(&mesh), s(&png), "--force", "--clip", "walk"]).unwrap();
    assert!(!bad.status.success());
    assert_contains(&bad.stderr, "no animation \"walk\"");
    let bad = render(&[s(&mesh), s(&png), "--force", "--frame", "3"]).unwrap();
    assert_contains(&bad.stderr, "the animation has 3 frames");
    let bad = render(&[s(&mesh), s(&png), "--force", "--camera", "1,2,3,4"]).unwrap();
    assert!(!bad.status.success());
}
