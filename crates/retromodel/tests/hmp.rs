//! 3D GameStudio HMP terrains: generated fixtures checked by value, invalid files with their
//! exact error texts, and every HMP file of the corpus against `HEADERS.jsonl`, with the grid
//! orientation checked against the stored normals and an embedded skin.

mod common;

use common::{assert_cases, set_f32, set_i32, Case};

use retromodel::formats::hmp::{self, fixtures, hmp7_normal, File, Version};
use retromodel::formats::normals::ANORMS;
use retromodel::{ConvertOptions, ErrorKind, Limits, NoFiles};

fn parse(bytes: &[u8]) -> File<'_> {
    File::parse(bytes, &Limits::default()).expect("fixture parses")
}

fn err(bytes: &[u8]) -> retromodel::Error {
    File::parse(bytes, &Limits::default()).expect_err("must fail")
}

fn sub(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f32; 3], b: [f32; 3]) -> [f32; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn unit(a: [f32; 3]) -> [f32; 3] {
    let l = (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
    a.map(|c| c / l)
}

#[test]
fn every_fixture_round_trips_and_converts_to_a_valid_model() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        assert!(file.write() == bytes, "{name}: round trip differs");
        let c = hmp::to_model(&file, &ConvertOptions::default(), &NoFiles);
        c.model.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        let (w, h) = file.grid();
        assert_eq!(w * h, file.header.num_verts as usize, "{name}");
        let mesh = &c.model.meshes[0];
        assert_eq!(mesh.positions.len(), w * h, "{name}");
        assert_eq!(mesh.triangles.len(), 2 * (w - 1) * (h - 1), "{name}");
        assert_eq!(c.model.frames.len(), file.frames.len(), "{name}");
    }
}

#[test]
fn heights_grid_normals_uvs_and_winding_follow_the_layout() {
    let bytes = fixtures::build(&fixtures::Spec {
        width: 4,
        height: 3,
        frames: 2,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let model = hmp::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    let mesh = &model.meshes[0];
    let [ox, oy, oz] = fixtures::ORIGIN;
    for f in 0..2 {
        let t = &mesh.morph_targets[f];
        for iy in 0..3 {
            for ix in 0..4 {
                let i = iy * 4 + ix;
                // Row 0 is the +y edge.
                let want = [
                    ox + 8.0 * ix as f32,
                    oy + 4.0 * (2 - iy) as f32,
                    oz + fixtures::SCALE[2] * fixtures::height(ix, iy, f) as f32,
                ];
                assert_eq!(t.positions[i], want, "frame {f} vertex {i}");
                let (nx, ny) = (3.0 * ix as f32, -5.0 * iy as f32);
                let nz = (127.0f32 * 127.0 - nx * nx - ny * ny).sqrt();
                let n = unit([-nx, -ny, nz]);
                let got = t.normals[i];
                assert!(
                    (0..3).all(|k| (got[k] - n[k]).abs() < 1e-6),
                    "{got:?} {n:?}"
                );
                assert_eq!(mesh.uvs[i], [ix as f32 / 3.0, iy as f32 / 2.0]);
            }
        }
    }
    assert_eq!(&mesh.triangles[..2], &[[0, 1, 5], [0, 5, 4]]);
    // Clockwise seen from above (+z), as the other formats' front faces.
    for t in &mesh.triangles {
        let p = t.map(|i| mesh.positions[i as usize]);
        let n = cross(sub(p[1], p[0]), sub(p[2], p[0]));
        assert!(n[2] < 0.0, "{t:?}");
    }
    assert_eq!(model.frames[1].name, "frame1");
    assert_eq!(model.frames[0].bounds_min[..2], [ox, oy]);
    assert_eq!(model.frames[0].bounds_max[..2], [ox + 24.0, oy + 8.0]);
    assert_eq!(hmp7_normal([0, 0]), [0.0, 0.0, 1.0]);
}

#[test]
fn hmp4_and_hmp5_vertices() {
    let minimal = fixtures::minimal();
    let hmp7 = parse(&minimal);
    let m7 = hmp::to_model(&hmp7, &ConvertOptions::default(), &NoFiles).model;
    let bytes = fixtures::build(&fixtures::Spec {
        version: Version::Hmp4,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    assert_eq!(&bytes[..4], b"HMP4");
    assert_eq!(bytes.len(), 84 + 12 + 12 + 36 + 6 * 8);
    let m4 = hmp::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    // The packed coordinates of the fixture put every vertex where the HMP7 grid does.
    assert_eq!(m4.meshes[0].positions, m7.meshes[0].positions);
    assert_eq!(m4.meshes[0].normals[5], ANORMS[3]);
    let bytes = fixtures::build(&fixtures::Spec {
        version: Version::Hmp5,
        ..Default::default()
    })
    .write();
    let m5 = hmp::to_model(&parse(&bytes), &ConvertOptions::default(), &NoFiles).model;
    assert_eq!(m5.meshes[0].positions, m7.meshes[0].positions);
    assert_eq!(m5.meshes[0].normals[4], ANORMS[2]);
}

#[test]
fn terrain_without_frames_is_flat_and_one_row_has_no_triangles() {
    let bytes = fixtures::build(&fixtures::Spec {
        frames: 0,
        ..Default::default()
    })
    .write();
    let c = hmp::to_model(&parse(&bytes), &ConvertOptions::default(), &NoFiles);
    assert!(c.model.frames.is_empty());
    assert!(c.model.meshes[0].positions.iter().all(|p| p[2] == -2.0));
    assert_eq!(
        c.warnings,
        [
            "skin 0: external picture \"terrain.pcx\" not found",
            "no frames: the terrain is flat"
        ]
    );
    let bytes = fixtures::build(&fixtures::Spec {
        width: 5,
        height: 1,
        ..Default::default()
    })
    .write();
    let m = hmp::to_model(&parse(&bytes), &ConvertOptions::default(), &NoFiles).model;
    assert!(m.meshes[0].triangles.is_empty());
    assert_eq!(m.meshes[0].uvs[4], [1.0, 0.0]);
}

#[test]
fn skins_and_summary() {
    let (_, bytes) = fixtures::all()
        .into_iter()
        .find(|(n, _)| *n == "hmp7-everything")
        .unwrap();
    let file = parse(&bytes);
    let c = hmp::to_model(&file, &ConvertOptions::default(), &NoFiles);
    let skins = &c.model.skins;
    assert_eq!(skins.len(), 4);
    assert_eq!(skins[0].pictures[0].width, 4);
    assert_eq!(skins[1].pictures[0].width, 8);
    assert_eq!(skins[2].name, "detail.tga");
    assert!(skins[2].pictures.is_empty() && skins[3].pictures.is_empty());
    assert_eq!(c.model.meshes[0].skin, Some(0));
    assert_eq!(c.model.meshes[0].skin_size, Some([4, 4]));
    let s = hmp::summary(&file, &c);
    assert_eq!(s.format, "hmp");
    assert_eq!(s.vertices, 12);
    assert_eq!(s.triangles, 12);
    assert_eq!(s.poses, 2);
    assert_eq!(s.skins, 4);
    assert_eq!(s.skin_pictures, 2);
    assert_eq!(s.trailing_bytes, 4);
    assert_eq!(
        s.header.last(),
        Some(&("grid", retromodel::summary::Value::Text("4x3".into())))
    );
}

#[test]
fn invalid_files_fail_with_exact_messages() {
    // The minimal fixture: header 84, skin at 84 (12 + "terrain.pcx\0"), the frame at 108
    // (36 bytes of header, then 6 vertices of 4 bytes); 168 bytes.
    let bytes = fixtures::minimal();
    assert_eq!(bytes.len(), 168);
    let cases: Vec<Case> = vec![
        (
            "magic",
            Box::new(|b| b[..4].copy_from_slice(b"IDP2")),
            ErrorKind::BadMagic,
            "hmp: header: bad magic \"IDP2\": this is Quake 2 MD2 at offset 0x0",
        ),
        (
            "header",
            Box::new(|b| b.truncate(50)),
            ErrorKind::Truncated,
            "hmp: header: unexpected end of data (needed 4 bytes, 2 left) at offset 0x30",
        ),
        (
            "fractional width",
            Box::new(|b| set_f32(b, 44, 2.5)),
            ErrorKind::InvalidValue,
            "hmp: fnumverts_x = 2.5 is not a whole number of vertices per row at offset 0x2c",
        ),
        (
            "zero width",
            Box::new(|b| set_f32(b, 44, 0.0)),
            ErrorKind::InvalidValue,
            "hmp: fnumverts_x = 0 is not a whole number of vertices per row at offset 0x2c",
        ),
        (
            "rows",
            Box::new(|b| set_i32(b, 60, 7)),
            ErrorKind::InvalidValue,
            "hmp: num_verts = 7 is not a whole number of rows of 3 vertices at offset 0x3c",
        ),
        (
            "negative",
            Box::new(|b| set_i32(b, 60, -3)),
            ErrorKind::BadCount,
            "hmp: negative count num_verts = -3 at offset 0x3c",
        ),
        (
            "huge frames",
            Box::new(|b| set_i32(b, 68, i32::MAX)),
            ErrorKind::LimitExceeded,
            "hmp: num_frames = 2147483647 exceeds the limit of 16777216 at offset 0x44",
        ),
        (
            "missing frame",
            Box::new(|b| set_i32(b, 68, 2)),
            ErrorKind::BadCount,
            "hmp: num_frames = 2 needs at least 120 bytes but only 60 are left at offset 0x44",
        ),
        (
            "skin type",
            Box::new(|b| set_i32(b, 84, 0x47)),
            ErrorKind::InvalidValue,
            "hmp: skin 0: unknown skin type 0x47 at offset 0x54",
        ),
        (
            "skin name",
            Box::new(|b| set_i32(b, 88, 100)),
            ErrorKind::Truncated,
            "hmp: skin 0: unexpected end of data (needed 100 bytes, 72 left) at offset 0x60",
        ),
        (
            "truncated",
            Box::new(|b| b.truncate(160)),
            ErrorKind::BadCount,
            "hmp: num_frames = 1 needs at least 60 bytes but only 52 are left at offset 0x44",
        ),
    ];
    assert_cases(&bytes, cases, err);
}

/// Pearson correlation.
fn correlation(xs: &[f32], ys: &[f32]) -> f32 {
    let n = xs.len() as f32;
    let (mx, my) = (xs.iter().sum::<f32>() / n, ys.iter().sum::<f32>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (x, y) in xs.iter().zip(ys) {
        sxy += (x - mx) * (y - my);
        sxx += (x - mx) * (x - mx);
        syy += (y - my) * (y - my);
    }
    sxy / (sxx * syy).sqrt()
}

#[test]
fn corpus_hmp_files() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let headers = common::headers(&dir);
    let mut files = Vec::new();
    for magic in [b"HMP4", b"HMP5", b"HMP7"] {
        files.extend(common::files_with_magic(&dir, magic));
    }
    assert!(files.len() >= 10, "only {} HMP files found", files.len());
    let (mut parsed, mut compared, mut textured) = (0, 0, 0);
    for path in &files {
        let (what, bytes) = common::read_named(path);
        if path.ends_with("invalid_external_texture_name.hmp") {
            // Assimp's test of a broken skin: its second skin's type word is text.
            assert_eq!(
                err(&bytes).to_string(),
                "hmp: skin 1: unknown skin type 0x636261 at offset 0x60"
            );
            continue;
        }
        let file =
            File::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(file.write() == bytes, "{what}: round trip differs");
        assert!(file.trailing.is_empty(), "{what}");
        parsed += 1;
        let c = hmp::to_model(&file, &ConvertOptions::default(), &NoFiles);
        let model = &c.model;
        model.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
        let (w, h) = file.grid();
        let mesh = &model.meshes[0];
        assert_eq!(mesh.positions.len(), w * h, "{what}");
        assert_eq!(mesh.triangles.len(), 2 * (w - 1) * (h - 1), "{what}");
        assert_eq!(model.frames.len(), file.frames.len(), "{what}");

        // The stored normals agree with the shape of the grid in the orientation used.
        let (mut sum, mut n) = (0.0f32, 0);
        for iy in 1..h - 1 {
            for ix in 1..w - 1 {
                let p = |x: usize, y: usize| mesh.positions[y * w + x];
                let ex = sub(p(ix + 1, iy), p(ix - 1, iy));
                let ey = sub(p(ix, iy - 1), p(ix, iy + 1));
                let face = unit(cross(ex, ey));
                let got = mesh.normals[iy * w + ix];
                sum += (0..3).map(|k| face[k] * got[k]).sum::<f32>();
                n += 1;
            }
        }
        let mean = sum / n as f32;
        assert!(mean > 0.95, "{what}: stored normals disagree ({mean})");

        // A skin coloured by height puts its top row on row 0.
        if let Some(p) = model.skins.first().and_then(|s| s.pictures.first()) {
            let rgba = p.to_rgba8();
            let (mut hs, mut ls) = (Vec::new(), Vec::new());
            for (v, uv) in mesh.uvs.iter().enumerate() {
                let x = ((uv[0] * (p.width - 1) as f32).round() as usize).min(p.width as usize);
                let y = ((uv[1] * (p.height - 1) as f32).round() as usize).min(p.height as usize);
                let px = &rgba[4 * (y * p.width as usize + x)..][..3];
                ls.push(0.3 * px[0] as f32 + 0.59 * px[1] as f32 + 0.11 * px[2] as f32);
                hs.push(mesh.positions[v][2]);
            }
            if path.ends_with("PrinceOfLotteria/models/credits.hmp") {
                let r = correlation(&hs, &ls);
                assert!(r > 0.99, "{what}: skin and heights correlate at {r}");
                textured += 1;
            }
        }

        let rel = common::relative(&dir, path);
        let Some(row) = headers.get(&rel) else {
            continue; // the Assimp test models are not in HEADERS.jsonl
        };
        let s = hmp::summary(&file, &c);
        let int = |k: &str| row[k].as_i64().unwrap_or_else(|| panic!("{what}: {k}"));
        let float = |k: &str| row[k].as_f64().unwrap_or_else(|| panic!("{what}: {k}")) as f32;
        let hd = &file.header;
        assert_eq!(s.version, int("version"), "{what}");
        assert_eq!(s.skins as i64, int("num_skins"), "{what}");
        assert_eq!(s.vertices as i64, int("num_verts"), "{what}");
        assert_eq!(s.poses as i64, int("num_frames"), "{what}");
        for (k, v) in [
            ("skin_w", hd.skin_w),
            ("skin_h", hd.skin_h),
            ("num_tris", hd.num_tris),
            ("num_stverts", hd.num_stverts),
            ("flags", hd.flags),
        ] {
            assert_eq!(v as i64, int(k), "{what}: {k}");
        }
        let grid = s.header.iter().find(|(k, _)| *k == "grid").unwrap();
        assert_eq!(
            grid.1,
            retromodel::summary::Value::Text(row["grid"].as_str().unwrap().to_string()),
            "{what}"
        );
        let approx = |got: f32, k: &str| {
            let want = float(k);
            assert!(
                (got - want).abs() <= 1e-4 * (1.0 + want.abs()) + 5e-5,
                "{what}: {k} = {got}, HEADERS {want}"
            );
        };
        for a in 0..3 {
            approx(hd.scale[a], &format!("scale{a}"));
            approx(hd.origin[a], &format!("origin{a}"));
        }
        approx(hd.trisize_x, "trisize_x");
        approx(hd.trisize_y, "trisize_y");
        approx(hd.fnumverts_x, "fnumverts_x");
        approx(hd.bounding_radius, "bounding_radius");
        approx(hd.size, "size");
        compared += 1;
    }
    assert_eq!(compared, 6, "HEADERS.jsonl rows compared");
    assert_eq!(textured, 1);
    eprintln!(
        "{} HMP files: {parsed} parsed, {compared} against HEADERS.jsonl",
        files.len()
    );
}
