//! Quake MDL skins from any picture: alpha to index 255 with `MF_HOLEY`, widths padded to a
//! multiple of 4 with every texel kept, dithering within the non-fullbright range.

use std::sync::Arc;

use retromodel::formats::quake_mdl::{self, fixtures, File, Skin, MF_HOLEY};
use retromodel::image::{Image, Palette, Pixels};
use retromodel::model::{Frame, Mesh, MorphTarget, Skin as ModelSkin};
use retromodel::{Limits, Model, NoFiles, WriteOptions};

fn model_of(bytes: &[u8]) -> Model {
    let file = File::parse(bytes, &Limits::default()).unwrap();
    quake_mdl::to_model(&file, &Default::default(), &NoFiles).model
}

fn skin_pixels(file: &File, i: usize) -> Vec<u8> {
    match &file.skins[i] {
        Skin::Single { pixels, .. } => pixels.to_vec(),
        other => panic!("expected a single skin, got {other:?}"),
    }
}

/// A picture whose colour and alpha come from `f(x, y)`.
fn rgba_picture(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Image {
    let pixels = (0..h)
        .flat_map(|y| (0..w).map(move |x| (x, y)))
        .flat_map(|(x, y)| f(x, y))
        .collect();
    Image {
        width: w,
        height: h,
        pixels: Pixels::Rgba8(pixels),
        encoded: None,
    }
}

/// A strip of quads along the skin: vertex `k` at texel `(s[k], t)`, one frame.
fn strip_model(picture: Image, s: &[u32]) -> Model {
    let (w, h) = (picture.width, picture.height);
    let mut positions = Vec::new();
    let mut uvs = Vec::new();
    for (k, &sk) in s.iter().enumerate() {
        for (row, t) in [(0.0, 1), (1.0, h - 2)] {
            positions.push([k as f32 * 4.0, row * 4.0, (k % 3) as f32]);
            uvs.push([(sk as f32 + 0.5) / w as f32, (t as f32 + 0.5) / h as f32]);
        }
    }
    let mut triangles = Vec::new();
    for k in 0..s.len() as u32 - 1 {
        let (a, b, c, d) = (2 * k, 2 * k + 1, 2 * k + 2, 2 * k + 3);
        triangles.push([a, c, b]);
        triangles.push([b, c, d]);
    }
    let n = positions.len();
    let normals = vec![[0.0, 0.0, 1.0]; n];
    Model {
        meshes: vec![Mesh {
            positions: positions.clone(),
            normals: normals.clone(),
            uvs,
            triangles,
            morph_targets: vec![MorphTarget { positions, normals }],
            source_vertices: (0..n as u32).collect(),
            skin: Some(0),
            ..Default::default()
        }],
        frames: vec![Frame {
            name: "base".into(),
            bounds_min: [0.0; 3],
            bounds_max: [4.0 * s.len() as f32, 4.0, 2.0],
            position_step: None,
        }],
        skins: vec![ModelSkin {
            name: "skin".into(),
            pictures: vec![picture],
            picture_times: None,
            source: None,
        }],
        ..Default::default()
    }
}

#[test]
fn transparent_pixels_become_index_255_and_set_mf_holey() {
    let mut model = model_of(&fixtures::minimal());
    let (w, h) = (
        model.skins[0].pictures[0].width,
        model.skins[0].pictures[0].height,
    );
    let alpha = |x: u32, y: u32| ((x * 40 + y * 23) % 256) as u8;
    // Colours include exact fullbright and index-255 colours, which opaque pixels must not get.
    let pal = Palette::QUAKE;
    model.skins[0].pictures[0] = rgba_picture(w, h, |x, y| {
        let [r, g, b] = pal.rgb([10, 250, 255, 100][((x + y) % 4) as usize]);
        [r, g, b, alpha(x, y)]
    });
    for fullbrights in [false, true] {
        for dither in [false, true] {
            let options = WriteOptions {
                fullbrights,
                dither,
                ..Default::default()
            };
            let written = quake_mdl::from_model(&model, &options).unwrap();
            let f = &written.file;
            assert_eq!(f.header.flags & MF_HOLEY, MF_HOLEY);
            assert!(written
                .warnings
                .contains(&"skin 0: transparent pixels mapped to index 255; MF_HOLEY set".into()));
            let px = skin_pixels(f, 0);
            for y in 0..h {
                for x in 0..w {
                    let i = px[(y * w + x) as usize];
                    assert_eq!(
                        i == 255,
                        alpha(x, y) < 128,
                        "({x}, {y}): index {i}, alpha {} (fullbrights {fullbrights}, dither \
                         {dither})",
                        alpha(x, y)
                    );
                    if !fullbrights {
                        assert!(i <= 223 || i == 255);
                    }
                }
            }
            // Read back, index 255 is the transparent index again.
            let back = model_of(&f.write());
            match &back.skins[0].pictures[0].pixels {
                Pixels::Indexed {
                    transparent_index, ..
                } => assert_eq!(*transparent_index, Some(255)),
                other => panic!("{other:?}"),
            }
        }
    }
    // Opaque pictures: no flag, no warning, and 255 is an ordinary (fullbright) colour.
    model.skins[0].pictures[0] = rgba_picture(w, h, |_, _| {
        let [r, g, b] = pal.rgb(255);
        [r, g, b, 200]
    });
    let options = WriteOptions {
        fullbrights: true,
        ..Default::default()
    };
    let written = quake_mdl::from_model(&model, &options).unwrap();
    assert_eq!(written.file.header.flags, 0);
    assert!(!written.warnings.iter().any(|w| w.contains("MF_HOLEY")));
    assert!(skin_pixels(&written.file, 0).iter().all(|&i| i == 255));
}

#[test]
fn mf_holey_survives_mdl_to_model_to_mdl() {
    let bytes = fixtures::build(&fixtures::Spec::everything()).write();
    let original = File::parse(&bytes, &Limits::default()).unwrap();
    assert_eq!(original.header.flags & MF_HOLEY, MF_HOLEY);
    let model = model_of(&bytes);
    let written = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap();
    let has_255 = original.skins.iter().any(|s| match s {
        Skin::Single { pixels, .. } => pixels.contains(&255),
        Skin::Group { pictures, .. } => pictures.iter().any(|p| p.contains(&255)),
    });
    assert!(has_255, "the fixture's skin has holes");
    assert_eq!(written.file.header.flags, MF_HOLEY);
    // Same palette: indices kept as they were, so no warning about mapping.
    assert!(!written.warnings.iter().any(|w| w.contains("MF_HOLEY")));
    assert_eq!(written.file.skins[0], original.skins[0]);
    // Without holes in the skins, no flag.
    let plain = model_of(&fixtures::minimal());
    let written = quake_mdl::from_model(&plain, &WriteOptions::default()).unwrap();
    assert_eq!(written.file.header.flags, 0);
}

#[test]
fn a_30_wide_skin_is_padded_to_32_and_keeps_every_texel() {
    let (w, h) = (30u32, 12u32);
    let picture = rgba_picture(w, h, |x, y| [(x * 8) as u8, (y * 20) as u8, 90, 255]);
    // Texels up to the last column; then two points each seen at two texels: 15 apart (half
    // of 30, but the engines shift by half the written width, 16: two vertices) and 16 apart
    // (one on-seam vertex once the skin is 32 wide).
    let s = [0u32, 3, 14, 29, 0, 15, 2, 27, 18];
    let mut model = strip_model(picture.clone(), &s);
    let mesh = &mut model.meshes[0];
    for (copy, of) in [(5usize, 4usize), (8, 6)] {
        for row in 0..2 {
            let (c, o) = (2 * copy + row, 2 * of + row);
            mesh.positions[c] = mesh.positions[o];
            mesh.morph_targets[0].positions[c] = mesh.positions[o];
            mesh.source_vertices[c] = o as u32;
        }
    }
    let written = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap();
    let f = &written.file;
    assert_eq!((f.header.skinwidth, f.header.skinheight), (32, 12));
    assert!(
        written
            .warnings
            .contains(&"skin width 30 is not a multiple of 4: padded to 32".to_string()),
        "{:?}",
        written.warnings
    );
    // Each triangle corner samples the texel its UV was made for.
    let mesh = &model.meshes[0];
    assert_eq!(f.triangles.len(), mesh.triangles.len());
    for (tri, src) in f.triangles.iter().zip(&mesh.triangles) {
        for (&v, &sv) in tri.vertex.iter().zip(src) {
            let tc = f.texcoords[v as usize];
            let shift = if tc.onseam != 0 && tri.facesfront == 0 {
                f.header.skinwidth / 2
            } else {
                0
            };
            let uv = mesh.uvs[sv as usize];
            let want = [
                (uv[0] * w as f32).floor() as i32,
                (uv[1] * h as f32).floor() as i32,
            ];
            assert_eq!([tc.s + shift, tc.t], want, "vertex {v}");
        }
    }
    // The pair 16 apart became on-seam vertices (s = 2, both rows); the pair 15 apart did not.
    let seam: Vec<i32> = f
        .texcoords
        .iter()
        .filter(|t| t.onseam != 0)
        .map(|t| t.s)
        .collect();
    assert_eq!(seam, [2, 2]);
    assert!(f.texcoords.iter().any(|t| t.s == 15 && t.onseam == 0));
    // The pixels: the picture's columns, then the last column again.
    let reference = Image {
        width: w,
        height: h,
        pixels: picture.pixels.clone(),
        encoded: None,
    }
    .to_indexed(&Palette::QUAKE, 223);
    let px = skin_pixels(f, 0);
    assert_eq!(px.len(), 32 * 12);
    for y in 0..h as usize {
        let row = &px[y * 32..y * 32 + 32];
        assert_eq!(&row[..30], &reference[y * 30..y * 30 + 30]);
        assert_eq!(row[30], row[29]);
        assert_eq!(row[31], row[29]);
    }
    // A width that is already a multiple of 4 is left alone, without a warning.
    let model = strip_model(rgba_picture(32, 12, |_, _| [1, 2, 3, 255]), &s);
    let written = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap();
    assert_eq!(written.file.header.skinwidth, 32);
    assert!(!written.warnings.iter().any(|w| w.contains("multiple of 4")));
    // An indexed 30-wide picture in the Quake palette: kept indices, padded.
    let indexed = Image {
        width: 30,
        height: 12,
        pixels: Pixels::Indexed {
            indices: (0..360).map(|i| (i % 200) as u8).collect(),
            palette: Arc::new(Palette::QUAKE),
            fullbright_start: Some(224),
            transparent_index: None,
        },
        encoded: None,
    };
    let model = strip_model(indexed, &s);
    let f = quake_mdl::from_model(&model, &WriteOptions::default())
        .unwrap()
        .file;
    let px = skin_pixels(&f, 0);
    for y in 0..12usize {
        let src: Vec<u8> = (0..30).map(|x| ((y * 30 + x) % 200) as u8).collect();
        assert_eq!(&px[y * 32..y * 32 + 30], &src[..]);
        assert_eq!(&px[y * 32 + 30..y * 32 + 32], &[src[29], src[29]]);
    }
}

#[test]
fn dithering_changes_indices_but_keeps_them_below_fullbrights() {
    let mut model = model_of(&fixtures::minimal());
    let (w, h) = (64u32, 32u32);
    model.skins[0].pictures[0] = rgba_picture(w, h, |x, y| {
        [
            (x * 4) as u8,
            (y * 8) as u8,
            (255 - x * 2 - y * 3) as u8,
            255,
        ]
    });
    let plain = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap();
    let dithered = quake_mdl::from_model(
        &model,
        &WriteOptions {
            dither: true,
            ..Default::default()
        },
    )
    .unwrap();
    let (a, b) = (skin_pixels(&plain.file, 0), skin_pixels(&dithered.file, 0));
    assert_eq!(a.len(), (w * h) as usize);
    assert_eq!(b.len(), a.len());
    assert_ne!(a, b);
    assert!(a.iter().chain(&b).all(|&i| i <= 223));
    assert_eq!(dithered.file.header.flags, 0);
    // The plain indices are the nearest colours, as before.
    assert_eq!(
        a,
        model.skins[0].pictures[0].to_indexed(&Palette::QUAKE, 223)
    );
}
