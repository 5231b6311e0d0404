//! Skins replaced (issue 26, criterion 5): `skins import` and a same-format `convert --skin`
//! write the new picture, matched to the palette, pixel for pixel, and keep the rest of the
//! file as stored. The pictures use exact Quake palette colours, so every pixel must come
//! back as its colour (an index whose palette colour is the picture's).

use std::path::Path;

mod common;

use common::{run, run_ok, s, sample, text, write_file};
use retromodel::formats::{md2, quake_mdl};
use retromodel::image::Palette;
use retromodel::Limits;

/// A `w` x `h` PNG of Quake palette colours (indices 0..224 in a pattern, no fullbrights),
/// and the colour of each pixel; with `hole`, pixel 0 is transparent.
fn picture(
    dir: &Path,
    name: &str,
    w: u32,
    h: u32,
    hole: bool,
) -> (std::path::PathBuf, Vec<[u8; 3]>) {
    let mut rgba = Vec::new();
    let mut colours = Vec::new();
    for i in 0..w * h {
        let index = ((i * 37 + i / w * 11) % 224) as u8;
        let c = Palette::QUAKE.rgb(index);
        colours.push(c);
        let alpha = if hole && i == 0 { 0 } else { 255 };
        rgba.extend_from_slice(&[c[0], c[1], c[2], alpha]);
    }
    let png = retromodel::image::png::encode_rgba8(w, h, &rgba).unwrap();
    (write_file(dir, name, png), colours)
}

/// The colours of a decoded picture file.
fn colours_of(path: &Path) -> Vec<[u8; 3]> {
    let bytes = std::fs::read(path).unwrap();
    let image =
        retromodel::image::decode(&bytes, &path.to_string_lossy(), &Limits::default()).unwrap();
    let rgba = image.to_rgba8();
    rgba.chunks_exact(4).map(|p| [p[0], p[1], p[2]]).collect()
}

#[test]
fn quake_mdl_skin_replaced_in_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = sample(dir.path(), "demo.mdl");
    let before = std::fs::read(&mdl).unwrap();
    let a = quake_mdl::File::parse(&before, &Limits::default()).unwrap();
    let (w, h) = (a.header.skinwidth as u32, a.header.skinheight as u32);
    let (png, want) = picture(dir.path(), "new.png", w, h, true);
    let out = dir.path().join("out.mdl");
    run_ok(&["skins", "import", s(&mdl), s(&png), "-o", s(&out)]);
    let after = std::fs::read(&out).unwrap();
    let b = quake_mdl::File::parse(&after, &Limits::default()).unwrap();
    let quake_mdl::Skin::Single { pixels, skin_type } = &b.skins[0] else {
        panic!("skin 0 is a single picture");
    };
    assert_eq!(*skin_type, 0);
    assert_eq!(
        pixels[0], 255,
        "the transparent pixel is Quake's hole index"
    );
    for (i, (&index, c)) in pixels.iter().zip(&want).enumerate().skip(1) {
        assert_eq!(Palette::QUAKE.rgb(index), *c, "pixel {i}: index {index}");
    }
    // Everything else as stored.
    assert_eq!(b.header.flags, a.header.flags | quake_mdl::MF_HOLEY);
    assert_eq!(b.skins[1..], a.skins[1..]);
    assert_eq!(
        (&b.texcoords, &b.triangles, &b.frames),
        (&a.texcoords, &a.triangles, &a.frames)
    );
    assert_eq!(after.len(), before.len());
    // MODEL itself only with --force; a wrong index is refused with the count.
    let again = run(&["skins", "import", s(&mdl), s(&png)]);
    assert!(
        text(&again.stderr).contains("pass --force"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(std::fs::read(&mdl).unwrap(), before);
    let bad = run(&[
        "skins",
        "import",
        s(&mdl),
        s(&png),
        "--index",
        "5",
        "-o",
        s(&out),
        "--force",
    ]);
    assert!(
        text(&bad.stderr).contains("skin 5: the file has 2 skins"),
        "{}",
        text(&bad.stderr)
    );
    // A picture of another size is resampled to the file's skin size.
    let (big, _) = picture(dir.path(), "big.png", w * 2, h * 2, false);
    let r = run_ok(&[
        "skins",
        "import",
        s(&mdl),
        s(&big),
        "-o",
        s(&out),
        "--force",
    ]);
    assert!(
        text(&r.stderr).contains("resampled to the file's skin size"),
        "{}",
        text(&r.stderr)
    );
}

#[test]
fn same_format_convert_with_skin_replaces_it() {
    let dir = tempfile::tempdir().unwrap();
    let mdl = sample(dir.path(), "demo.mdl");
    let before = std::fs::read(&mdl).unwrap();
    let a = quake_mdl::File::parse(&before, &Limits::default()).unwrap();
    let (png, want) = picture(
        dir.path(),
        "new.png",
        a.header.skinwidth as u32,
        a.header.skinheight as u32,
        false,
    );
    let out = dir.path().join("same.mdl");
    run_ok(&["convert", s(&mdl), s(&out), "--skin", s(&png)]);
    let after = std::fs::read(&out).unwrap();
    let b = quake_mdl::File::parse(&after, &Limits::default()).unwrap();
    let quake_mdl::Skin::Single { pixels, .. } = &b.skins[0] else {
        panic!("skin 0 is a single picture");
    };
    let got: Vec<[u8; 3]> = pixels.iter().map(|&i| Palette::QUAKE.rgb(i)).collect();
    assert_eq!(got, want);
    assert_eq!(b.header, a.header);
    assert_eq!(b.frames, a.frames);

    // MD2: the model stays as it is, the PCX its skin path names goes beside the output.
    let md2_in = sample(dir.path(), "tris.md2");
    let md2_bytes = std::fs::read(&md2_in).unwrap();
    let m = md2::File::parse(&md2_bytes, &Limits::default()).unwrap();
    let (w, h) = (m.header.skinwidth as u32, m.header.skinheight as u32);
    let (png2, want2) = picture(dir.path(), "new2.png", w, h, false);
    let out_dir = dir.path().join("q2");
    std::fs::create_dir_all(&out_dir).unwrap();
    let md2_out = out_dir.join("tris.md2");
    run_ok(&["convert", s(&md2_in), s(&md2_out), "--skin", s(&png2)]);
    assert_eq!(
        std::fs::read(&md2_out).unwrap(),
        std::fs::read(&md2_in).unwrap()
    );
    assert_eq!(colours_of(&out_dir.join("skin.pcx")), want2);
}

#[test]
fn md2_and_md3_skins_imported_beside_the_model() {
    let dir = tempfile::tempdir().unwrap();
    let md2_in = sample(dir.path(), "tris.md2");
    let md2_bytes = std::fs::read(&md2_in).unwrap();
    let m = md2::File::parse(&md2_bytes, &Limits::default()).unwrap();
    let (png, want) = picture(
        dir.path(),
        "p.png",
        m.header.skinwidth as u32,
        m.header.skinheight as u32,
        false,
    );
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    run_ok(&[
        "skins",
        "import",
        s(&md2_in),
        s(&png),
        "--index",
        "1",
        "-o",
        s(&out.join("tris.md2")),
    ]);
    assert_eq!(colours_of(&out.join("skin2.pcx")), want);
    assert_eq!(
        std::fs::read(out.join("tris.md2")).unwrap(),
        std::fs::read(&md2_in).unwrap()
    );

    let md3 = sample(dir.path(), "player.md3");
    let (png3, want3) = picture(dir.path(), "p3.png", 16, 8, false);
    run_ok(&[
        "skins",
        "import",
        s(&md3),
        s(&png3),
        "--index",
        "1",
        "-o",
        s(&out.join("player.md3")),
    ]);
    assert_eq!(colours_of(&out.join("belt.png")), want3);
    // The model reads its new picture back (shader path's picture, found beside it).
    let info = run_ok(&["info", s(&out.join("player.md3"))]);
    assert!(
        text(&info.stdout).contains("belt.png"),
        "{}",
        text(&info.stdout)
    );
}

#[test]
fn formats_without_skin_replacement_say_so() {
    let dir = tempfile::tempdir().unwrap();
    let glb = dir.path().join("x.glb");
    let mdl = sample(dir.path(), "demo.mdl");
    run_ok(&["convert", s(&mdl), s(&glb)]);
    let (png, _) = picture(dir.path(), "p.png", 4, 4, false);
    let r = run(&[
        "skins",
        "import",
        s(&glb),
        s(&png),
        "-o",
        s(&dir.path().join("y.glb")),
    ]);
    assert!(!r.status.success());
    assert!(
        text(&r.stderr).contains("replacing a skin of a glTF file is not supported"),
        "{}",
        text(&r.stderr)
    );
}
