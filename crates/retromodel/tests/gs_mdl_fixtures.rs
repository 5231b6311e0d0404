//! 3D GameStudio MDL2..MDL5 on generated files: byte-exact round trips, every skin type
//! decoded pixel by pixel, byte- and word-packed frames, the two texture mappings, writing
//! from a Model (and from Quake MDL), and the exact text of each error.

use retromodel::formats::gs_mdl::{self, fixtures, File, Geometry, Packing, SkinFormat};
use retromodel::formats::quake_mdl;
use retromodel::image::{Image, Palette, Pixels};
use retromodel::model::{Mesh, Model, MorphTarget, Skin};
use retromodel::{ConvertOptions, ErrorKind, Limits, MemoryFiles, NoFiles, WriteOptions};
use std::collections::HashMap;

mod common;

use common::set_i32;

fn parse(bytes: &[u8]) -> File<'_> {
    File::parse(bytes, &Limits::default()).unwrap()
}

fn fixture(name: &str) -> Vec<u8> {
    fixtures::all()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))
        .1
}

fn err(bytes: &[u8]) -> retromodel::Error {
    File::parse(bytes, &Limits::default()).expect_err("must fail")
}

fn model_of(bytes: &[u8]) -> retromodel::Converted {
    gs_mdl::to_model(&parse(bytes), &Default::default(), &NoFiles)
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    let all = fixtures::all();
    assert_eq!(all.len(), 11);
    for (name, bytes) in &all {
        let file = parse(bytes);
        assert_eq!(&file.write(), bytes, "{name}");
        assert_eq!(&file.clone().into_owned().write(), bytes, "{name}");
        let c = gs_mdl::to_model(&file, &Default::default(), &NoFiles);
        c.model.validate().unwrap();
        let s = gs_mdl::summary(&file, &c);
        assert_eq!(s.format, format!("gs-mdl{}", file.header.version), "{name}");
        assert_eq!(s.vertices, 6, "{name}");
        assert_eq!(s.triangles, 8, "{name}");
        assert_eq!(s.poses, file.frames.len(), "{name}");
        assert_eq!(s.skins, file.skins.len(), "{name}");
        // Detection by magic names the same version.
        assert_eq!(
            retromodel::detect(bytes),
            gs_mdl::format(file.header.version)
        );
    }
}

#[test]
fn layout_of_the_minimal_file() {
    let bytes = fixtures::minimal();
    // Header, one MDL5 skin (type, width, height, 16x8 words), 7 skin vertices, 8 triangles,
    // 2 word-packed frames (type, 2 bbox vertices, name, 6 vertices of 8 bytes).
    let frame = 4 + 8 + 8 + 16 + 6 * 8;
    assert_eq!(
        bytes.len(),
        84 + (12 + 16 * 8 * 2) + 7 * 4 + 8 * 12 + 2 * frame
    );
    let f = parse(&bytes);
    let h = &f.header;
    assert_eq!((h.version, h.version_field), (5, 0));
    assert_eq!((h.skin_width, h.skin_height), (0, 0));
    assert_eq!((h.num_verts, h.num_tris, h.num_frames), (6, 8, 2));
    assert_eq!(h.num_skin_verts, 7);
    assert_eq!((f.skins[0].width, f.skins[0].height), (16, 8));
    match &f.geometry {
        Geometry::Separate {
            skin_verts,
            triangles,
        } => {
            assert_eq!(skin_verts[6], gs_mdl::SkinVert { u: 8, v: 4 });
            assert_eq!(triangles[3].vertex, [3, 0, 4]);
            assert_eq!(triangles[3].uv, [3, 6, 4]);
        }
        g => panic!("{g:?}"),
    }
    assert!(f.frames.iter().all(|fr| fr.packing == Packing::Word));
    assert_eq!(gs_mdl::name_str(&f.frames[1].name), "stand2");
    // Bone indices of word-packed vertices are kept.
    assert_eq!(
        f.frames[0].verts.iter().map(|v| v.bone).collect::<Vec<_>>(),
        [0, 1, 2, 0, 1, 2]
    );
}

/// The RGBA a raw skin pixel must decode to, computed here from the bytes.
fn expected_rgba(format: SkinFormat, px: &[u8]) -> [u8; 4] {
    let word = || u16::from_le_bytes([px[0], px[1]]) as u32;
    let scale = |v: u32, max: u32| (v as f64 * 255.0 / max as f64).round() as u8;
    match format {
        SkinFormat::Rgb565 => {
            let v = word();
            [
                scale(v >> 11, 31),
                scale((v >> 5) & 63, 63),
                scale(v & 31, 31),
                255,
            ]
        }
        SkinFormat::Argb4444 => {
            let v = word();
            let n = |s: u32| scale((v >> s) & 15, 15);
            [n(8), n(4), n(0), n(12)]
        }
        SkinFormat::Bgr888 => [px[2], px[1], px[0], 255],
        SkinFormat::Bgra8888 => [px[2], px[1], px[0], px[3]],
        SkinFormat::Indexed8 => {
            let [r, g, b] = Palette::QUAKE.rgb(px[0]);
            [r, g, b, 255]
        }
        f => panic!("{f:?} has no pixels"),
    }
}

#[test]
fn every_skin_type_decodes_pixel_by_pixel() {
    let bytes = fixture("mdl5_every_skin");
    let file = parse(&bytes);
    let c = gs_mdl::to_model(&file, &Default::default(), &NoFiles);
    let types: Vec<i32> = file.skins.iter().map(|s| s.skin_type).collect();
    assert_eq!(types, [0, 2, 3, 4, 5, 8, 10, 11, 12, 13, 6, 7]);
    assert_eq!(c.model.skins.len(), 12);
    let mut checked = 0;
    for (i, (raw, skin)) in file.skins.iter().zip(&c.model.skins).enumerate() {
        let format = raw.format();
        let Some(bpp) = format.bytes_per_pixel() else {
            continue;
        };
        let (w, h) = (raw.width as u32, raw.height as u32);
        assert_eq!(
            [raw.width, raw.height],
            fixtures::every_mdl5_skin()[i].1,
            "skin {i}: own size"
        );
        let p = &skin.pictures[0];
        assert_eq!((p.width, p.height), (w, h), "skin {i}");
        let rgba = p.to_rgba8();
        assert_eq!(rgba.len(), (4 * w * h) as usize);
        for (k, (px, got)) in raw
            .data
            .chunks_exact(bpp)
            .zip(rgba.chunks_exact(4))
            .enumerate()
        {
            assert_eq!(got, expected_rgba(format, px), "skin {i} pixel {k}");
            checked += 1;
        }
        match (&p.pixels, format) {
            (
                Pixels::Indexed {
                    indices,
                    palette,
                    fullbright_start,
                    transparent_index,
                },
                SkinFormat::Indexed8,
            ) => {
                assert_eq!(indices.as_slice(), &raw.data[..], "indices kept");
                assert_eq!(**palette, Palette::QUAKE);
                assert_eq!((*fullbright_start, *transparent_index), (None, None));
            }
            (Pixels::Rgba8(_), f) => assert_ne!(f, SkinFormat::Indexed8),
            other => panic!("skin {i}: {other:?}"),
        }
        // Mipmaps: three levels, each half the size of the one before.
        let mip_texels = if raw.has_mipmaps() {
            (w / 2) * (h / 2) + (w / 4) * (h / 4) + (w / 8) * (h / 8)
        } else {
            0
        };
        assert_eq!(raw.mipmaps.len(), mip_texels as usize * bpp, "skin {i}");
    }
    let texels: i32 = fixtures::every_mdl5_skin()
        .iter()
        .filter(|(t, _)| t & 7 < 6)
        .map(|(_, [w, h])| w * h)
        .sum();
    assert_eq!(checked, texels as usize);
    assert_eq!(checked, 1296);
    // 16x16 5-6-5 with mipmaps: 8x8 + 4x4 + 2x2 levels.
    assert_eq!(file.skins[6].mipmaps.len(), (64 + 16 + 4) * 2);

    // The embedded DDS (a header without pixels) is kept and fails to decode with the DDS
    // decoder's reason; the external skin is named.
    let dds = &file.skins[10];
    assert_eq!(dds.format(), SkinFormat::Dds);
    assert_eq!((dds.width, dds.height), (128, 32));
    assert_eq!(&dds.data[..4], b"DDS ");
    assert!(c.model.skins[10].pictures.is_empty());
    let ext = &file.skins[11];
    assert_eq!(
        ext.external_name().as_deref(),
        Some(fixtures::EXTERNAL_NAME)
    );
    assert_eq!(ext.width, 16);
    assert_eq!(c.model.skins[11].name, fixtures::EXTERNAL_NAME);
    assert!(c.model.skins[11].pictures.is_empty());
    let dds_warning = c
        .warnings
        .iter()
        .find(|w| w.starts_with("skin 10: "))
        .expect("a warning for the DDS skin");
    assert!(
        dds_warning.starts_with(
            "skin 10: embedded DDS (128 bytes) kept in the file but not decoded: dds: "
        ),
        "{dds_warning}"
    );
    assert!(c
        .warnings
        .contains(&"skin 11: external file \"skins/rock.pcx\" not found".into()));
    let s = gs_mdl::summary(&file, &c);
    assert_eq!(s.skin_names, [fixtures::EXTERNAL_NAME]);
    assert_eq!(s.skin_pictures, 10);
    // UVs refer to the first skin's size (16x8) although the header says 0x0.
    assert_eq!(gs_mdl::skin_size(&file), Some([16, 8]));
}

#[test]
fn known_pixel_values() {
    let mut spec = fixtures::Spec {
        skins: vec![(2, [2, 1]), (3, [2, 1]), (4, [2, 1]), (5, [2, 1])],
        ..Default::default()
    };
    spec.frames.truncate(1);
    let mut file = fixtures::build(&spec);
    let data: [&[u8]; 4] = [
        &[0x00, 0xf8, 0xe0, 0x07],
        &[0x0f, 0xf0, 0x00, 0x1f],
        &[1, 2, 3, 250, 251, 252],
        &[1, 2, 3, 4, 9, 8, 7, 0],
    ];
    for (s, d) in file.skins.iter_mut().zip(data) {
        s.data = d.to_vec().into();
    }
    let bytes = file.write();
    let c = model_of(&bytes);
    let rgba: Vec<Vec<u8>> = c
        .model
        .skins
        .iter()
        .map(|s| s.pictures[0].to_rgba8())
        .collect();
    assert_eq!(rgba[0], [255, 0, 0, 255, 0, 255, 0, 255]);
    assert_eq!(rgba[1], [0, 0, 255, 255, 255, 0, 0, 17]);
    assert_eq!(rgba[2], [3, 2, 1, 255, 252, 251, 250, 255]);
    assert_eq!(rgba[3], [3, 2, 1, 4, 7, 8, 9, 0]);
}

#[test]
fn palette_from_options_or_resolver() {
    let bytes = fixture("mdl2_8bit");
    let file = parse(&bytes);
    let mut grey = [[0u8; 3]; 256];
    for (i, c) in grey.iter_mut().enumerate() {
        *c = [i as u8; 3];
    }
    let grey = Palette(grey);
    let options = ConvertOptions {
        palette: Some(grey),
        ..Default::default()
    };
    let c = gs_mdl::to_model(&file, &options, &NoFiles);
    let rgba = c.model.skins[0].pictures[0].to_rgba8();
    assert_eq!(rgba[0], file.skins[0].data[0]);
    // The resolver's palette.raw, then a wrong one.
    let raw: Vec<u8> = grey.0.iter().flatten().copied().collect();
    let files = MemoryFiles(HashMap::from([(gs_mdl::PALETTE_PATH.to_string(), raw)]));
    let c = gs_mdl::to_model(&file, &Default::default(), &files);
    let rgba = c.model.skins[0].pictures[0].to_rgba8();
    assert_eq!(rgba[4], file.skins[0].data[1]);
    let files = MemoryFiles(HashMap::from([(
        gs_mdl::PALETTE_PATH.to_string(),
        vec![0; 10],
    )]));
    let c = gs_mdl::to_model(&file, &Default::default(), &files);
    assert_eq!(
        c.warnings,
        ["palette.raw: palette-lmp: expected 768 bytes, found 10; using the built-in Quake palette"]
    );
}

#[test]
fn external_skin_loads_through_the_resolver() {
    let bytes = fixture("mdl5_every_skin");
    let pcx = retromodel::image::pcx::encode_indexed(2, 2, &[1, 2, 3, 4], &Palette::QUAKE);
    let files = MemoryFiles(HashMap::from([(fixtures::EXTERNAL_NAME.to_string(), pcx)]));
    let c = gs_mdl::to_model(&parse(&bytes), &Default::default(), &files);
    let p = &c.model.skins[11].pictures[0];
    assert_eq!((p.width, p.height), (2, 2));
    let [r, g, b] = Palette::QUAKE.rgb(4);
    assert_eq!(p.to_rgba8()[12..], [r, g, b, 255]);
}

#[test]
fn byte_and_word_packed_frames_decode_to_the_same_shape() {
    for name in [
        "mdl3_8bit_565",
        "mdl4_4444_word",
        "mdl4_mixed_frames",
        "mdl5_minimal",
        "mdl5_byte_frames",
        "mdl2_8bit",
    ] {
        let bytes = fixture(name);
        let file = parse(&bytes);
        let c = model_of(&bytes);
        let mesh = &c.model.meshes[0];
        let step = file.header.scale[0];
        for (k, t) in mesh.morph_targets.iter().enumerate() {
            for (m, p) in t.positions.iter().enumerate() {
                let want = fixtures::position(mesh.source_vertices[m] as usize, k);
                for a in 0..3 {
                    assert!(
                        (p[a] - want[a]).abs() <= step / 2.0 + 1e-5,
                        "{name} frame {k} vertex {m}: {p:?} vs {want:?}"
                    );
                }
            }
            let n = t.normals[mesh.source_vertices.iter().position(|&s| s == 4).unwrap()];
            assert_eq!(n, [0.0, 0.0, 1.0], "{name}: top vertex normal");
        }
    }
    let mixed = parse(&fixture("mdl4_mixed_frames")).frames;
    let packing: Vec<Packing> = mixed.iter().map(|f| f.packing).collect();
    assert_eq!(packing, [Packing::Byte, Packing::Word, Packing::Byte]);
    // Word-packed vertices carry bone indices; the model does not.
    let c = model_of(&fixture("mdl5_minimal"));
    assert!(c
        .warnings
        .contains(&"per-vertex bone indices are kept in the file, not in the model".into()));
    // Clips from frame names.
    let c = model_of(&fixture("mdl3_8bit_565"));
    let clips: Vec<(&str, usize, usize, f32)> = c
        .model
        .clips
        .iter()
        .map(|c| (c.name.as_str(), c.first, c.count, c.fps))
        .collect();
    assert_eq!(clips, [("stand", 0, 2, 10.0), ("run", 2, 1, 10.0)]);
    let fast = ConvertOptions {
        fps: 25.0,
        ..Default::default()
    };
    let c = gs_mdl::to_model(&parse(&fixture("mdl3_8bit_565")), &fast, &NoFiles);
    assert_eq!(c.model.clips[0].fps, 25.0);
}

#[test]
fn texture_mappings_of_mdl3_and_mdl2() {
    // MDL3+: one mesh vertex per (vertex, skin vertex) pair; u / width on texel edges.
    let c = model_of(&fixtures::minimal());
    let m = &c.model.meshes[0];
    assert_eq!(m.positions.len(), 7);
    assert_eq!(m.source_vertices, [0, 1, 4, 2, 3, 0, 5]);
    assert_eq!(m.uvs[0], [0.0, 0.5]);
    assert_eq!(m.uvs[5], [0.5, 0.5]);
    // Turned to the Model's clockwise fronts: the file stores (4, 5, 2).
    assert_eq!(m.triangles[3], [4, 2, 5]);
    assert_eq!(m.skin_size, Some([16, 8]));
    assert_eq!(m.skin, Some(0));
    // MDL2: Quake's texel centres, and the back-facing copies of the on-seam vertices
    // (onseam = 1, as GameStudio's tools write it) shifted by half the width.
    let c = model_of(&fixture("mdl2_8bit"));
    let m = &c.model.meshes[0];
    assert_eq!(m.positions.len(), 10);
    assert_eq!(m.source_vertices, [0, 1, 2, 3, 4, 5, 1, 0, 2, 3]);
    assert_eq!(m.uvs[0], [0.5 / 16.0, 4.5 / 8.0]);
    assert_eq!(m.uvs[7], [8.5 / 16.0, 4.5 / 8.0]);
    assert_eq!(m.triangles[4], [6, 5, 7]); // the file's (6, 7, 5), turned
                                           // Vertices no triangle uses stay in the mesh (at UV 0, 0).
    let mut file = fixtures::build(&fixtures::Spec::default());
    if let Geometry::Separate { triangles, .. } = &mut file.geometry {
        triangles.truncate(1);
    }
    file.header.num_tris = 1;
    let bytes = file.write();
    let m = &model_of(&bytes).model.meshes[0];
    assert_eq!(m.source_vertices, [0, 1, 4, 2, 3, 5]);
    assert_eq!(m.uvs[5], [0.0, 0.0]);
}

/// Positions of every frame, per source vertex (first mesh vertex of each).
fn shape(model: &Model) -> Vec<Vec<[f32; 3]>> {
    let m = &model.meshes[0];
    let n = m
        .source_vertices
        .iter()
        .max()
        .map_or(0, |&v| v as usize + 1);
    m.morph_targets
        .iter()
        .map(|t| {
            (0..n as u32)
                .map(|v| t.positions[m.source_vertices.iter().position(|&s| s == v).unwrap()])
                .collect()
        })
        .collect()
}

fn assert_close(a: &[Vec<[f32; 3]>], b: &[Vec<[f32; 3]>], tol: f32, what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: frames");
    for (fa, fb) in a.iter().zip(b) {
        assert_eq!(fa.len(), fb.len(), "{what}: vertices");
        for (p, q) in fa.iter().zip(fb) {
            for k in 0..3 {
                assert!((p[k] - q[k]).abs() <= tol, "{what}: {p:?} vs {q:?}");
            }
        }
    }
}

#[test]
fn from_model_round_trips_in_every_version() {
    for (name, bytes) in fixtures::all() {
        let original = parse(&bytes);
        let model = model_of(&bytes).model;
        for version in 3..=5u8 {
            let what = format!("{name} as MDL{version}");
            let w = gs_mdl::from_model(&model, &WriteOptions::default(), version).unwrap();
            let out = w.file.write();
            assert_eq!(&out[..4], &gs_mdl::magic(version), "{what}");
            let back = parse(&out);
            assert_eq!(back.write(), out, "{what}");
            assert_eq!(back.header.num_verts, 6, "{what}");
            assert_eq!(back.frames.len(), original.frames.len(), "{what}");
            let packing = if version == 3 {
                Packing::Byte
            } else {
                Packing::Word
            };
            assert!(back.frames.iter().all(|f| f.packing == packing), "{what}");
            let again = gs_mdl::to_model(&back, &Default::default(), &NoFiles).model;
            again.validate().unwrap();
            let tol = w.frame_errors.iter().copied().fold(0.0, f32::max) + 1e-4;
            assert!(tol < 0.1, "{what}: quantisation error {tol}");
            assert_close(&shape(&again), &shape(&model), tol, &what);
            let names = |m: &Model| m.frames.iter().map(|f| f.name.clone()).collect::<Vec<_>>();
            assert_eq!(names(&again), names(&model), "{what}");
            assert_eq!(
                again.meshes[0].triangles.len(),
                model.meshes[0].triangles.len(),
                "{what}"
            );
            // Same texels: MDL2's centre UVs come back as the edge of the same texel.
            let texels = |m: &Model| -> Vec<[i32; 2]> {
                let mesh = &m.meshes[0];
                let [w, h] = mesh.skin_size.unwrap_or([1, 1]);
                mesh.triangles
                    .iter()
                    .flatten()
                    .map(|&v| {
                        let uv = mesh.uvs[v as usize];
                        [
                            (uv[0] * w as f32).floor() as i32,
                            (uv[1] * h as f32).floor() as i32,
                        ]
                    })
                    .collect()
            };
            assert_eq!(texels(&again), texels(&model), "{what}");
            // Skins: indexed ones keep their indices; true colour is exact in MDL5.
            let pictures = |m: &Model| -> Vec<Image> {
                m.skins.iter().flat_map(|s| s.pictures.clone()).collect()
            };
            let (pa, pb) = (pictures(&again), pictures(&model));
            assert_eq!(pa.len(), pb.len(), "{what}");
            for (a, b) in pa.iter().zip(&pb) {
                match (&a.pixels, &b.pixels) {
                    (Pixels::Indexed { indices: x, .. }, Pixels::Indexed { indices: y, .. }) => {
                        assert_eq!(x, y, "{what}")
                    }
                    (Pixels::Rgba8(_), Pixels::Rgba8(_)) if version == 5 => {
                        assert_eq!(a, b, "{what}")
                    }
                    (Pixels::Rgba8(_), Pixels::Rgba8(_)) => {}
                    _ => panic!("{what}: picture kinds differ"),
                }
            }
        }
    }
}

#[test]
fn from_model_keeps_the_numbering_of_a_gamestudio_file() {
    let bytes = fixtures::minimal();
    let original = parse(&bytes);
    let model = model_of(&bytes).model;
    let w = gs_mdl::from_model(&model, &WriteOptions::default(), 5).unwrap();
    // Same frame vertices in the same order, same texel at every corner (the skin vertex
    // list is rebuilt in first-use order).
    let corners = |g: &Geometry| -> Vec<([u16; 3], [gs_mdl::SkinVert; 3])> {
        let Geometry::Separate {
            skin_verts,
            triangles,
        } = g
        else {
            panic!("MDL3+ geometry expected")
        };
        triangles
            .iter()
            .map(|t| (t.vertex, t.uv.map(|i| skin_verts[i as usize])))
            .collect()
    };
    assert_eq!(corners(&w.file.geometry), corners(&original.geometry));
    // Same names and normal indices (positions are requantised on the model's bounds).
    let normals = |f: &File| -> Vec<([u8; 16], Vec<u8>)> {
        f.frames
            .iter()
            .map(|fr| (fr.name, fr.verts.iter().map(|v| v.normal_index).collect()))
            .collect()
    };
    assert_eq!(normals(&w.file), normals(&original));
    assert_eq!(w.file.skins, original.skins);
    assert_eq!(w.file.header.num_skin_verts, 7);
    assert_eq!(
        (w.file.header.skin_width, w.file.header.skin_height),
        (0, 0)
    );
    assert_eq!(w.warnings.len(), 1, "{:?}", w.warnings);
    assert!(w.warnings[0].starts_with("position quantisation: largest error per frame"));
    // 5-6-5 comes back exactly as 5-6-5 in MDL4, with no warning about precision.
    let w4 = gs_mdl::from_model(&model, &WriteOptions::default(), 4).unwrap();
    assert_eq!(w4.file.skins[0].skin_type, 2);
    assert_eq!(w4.file.skins[0].data, original.skins[0].data);
    assert_eq!(
        (w4.file.header.skin_width, w4.file.header.skin_height),
        (16, 8)
    );
    assert!(!w4.warnings.iter().any(|w| w.contains("precision")));
}

fn rgba_model(alpha: u8) -> Model {
    let mut model = model_of(&fixtures::minimal()).model;
    let rgba: Vec<u8> = (0..16 * 8)
        .flat_map(|i| [i as u8 * 2, 255 - i as u8, 7, alpha])
        .collect();
    model.skins = vec![Skin {
        source: None,
        name: String::new(),
        pictures: vec![Image {
            width: 16,
            height: 8,
            pixels: Pixels::Rgba8(rgba),
            encoded: None,
        }],
        picture_times: None,
    }];
    model
}

#[test]
fn skin_types_chosen_per_version() {
    let opaque = rgba_model(255);
    let clear = rgba_model(128);
    let types = |m: &Model, v: u8| {
        let w = gs_mdl::from_model(m, &WriteOptions::default(), v).unwrap();
        (w.file.skins[0].skin_type, w.warnings)
    };
    let (t, warnings) = types(&opaque, 3);
    assert_eq!(t, 2);
    assert!(warnings.contains(
        &"skin 0: RGBA picture stored as 16-bit 5-6-5 (colour precision reduced)".into()
    ));
    let (t, warnings) = types(&clear, 3);
    assert_eq!(t, 2);
    assert!(
        warnings.contains(&"skin 0: transparency dropped (MDL3 skins are 8-bit or 5-6-5)".into())
    );
    assert_eq!(types(&opaque, 4).0, 2);
    assert_eq!(types(&clear, 4).0, 3);
    assert_eq!(types(&opaque, 5).0, 4);
    assert_eq!(types(&clear, 5).0, 5);
    // MDL5 true colour is exact.
    let w = gs_mdl::from_model(&clear, &WriteOptions::default(), 5).unwrap();
    let out = w.file.write();
    let back = model_of(&out).model;
    assert_eq!(back.skins[0].pictures[0], clear.skins[0].pictures[0]);
}

#[test]
fn quake_mdl_and_gamestudio_convert_both_ways() {
    let q = quake_mdl::fixtures::build(&quake_mdl::fixtures::Spec::everything()).write();
    let qfile = quake_mdl::File::parse(&q, &Limits::default()).unwrap();
    let qmodel = quake_mdl::to_model(&qfile, &Default::default(), &NoFiles).model;
    let w = gs_mdl::from_model(&qmodel, &WriteOptions::default(), 5).unwrap();
    assert!(w
        .warnings
        .iter()
        .any(|m| m.starts_with("skin 1 (\"\"): group of 3 pictures written as 3 skins")));
    assert!(w
        .warnings
        .iter()
        .any(|m| m.contains("per-frame times dropped (GameStudio MDL has no frame groups)")));
    let gs = w.file.write();
    let gfile = parse(&gs);
    assert_eq!(gfile.skins.len(), 4);
    assert!(gfile.skins.iter().all(|s| s.skin_type == 0));
    let gmodel = gs_mdl::to_model(&gfile, &Default::default(), &NoFiles).model;
    let tol = w.frame_errors.iter().copied().fold(0.0, f32::max) + 1e-4;
    assert_close(&shape(&gmodel), &shape(&qmodel), tol, "quake -> mdl5");
    // 8-bit skins keep their Quake indices.
    let indices = |img: &Image| match &img.pixels {
        Pixels::Indexed { indices, .. } => indices.clone(),
        _ => panic!("not indexed"),
    };
    assert_eq!(
        indices(&gmodel.skins[0].pictures[0]),
        indices(&qmodel.skins[0].pictures[0])
    );
    assert_eq!(
        indices(&gmodel.skins[3].pictures[0]),
        indices(&qmodel.skins[1].pictures[2])
    );
    // And back to Quake: the shape survives both quantisations.
    let back = quake_mdl::from_model(&gmodel, &WriteOptions::default()).unwrap();
    let qq = back.file.write();
    let again = quake_mdl::File::parse(&qq, &Limits::default()).unwrap();
    let amodel = quake_mdl::to_model(&again, &Default::default(), &NoFiles).model;
    let tol2 = tol + back.frame_errors.iter().copied().fold(0.0, f32::max) + 1e-4;
    assert_close(
        &shape(&amodel),
        &shape(&qmodel),
        tol2,
        "quake -> mdl5 -> quake",
    );
    // A GameStudio MDL2 file converts to Quake MDL too.
    let m2 = model_of(&fixture("mdl2_565")).model;
    let q2 = quake_mdl::from_model(&m2, &WriteOptions::default()).unwrap();
    assert_eq!(q2.file.texcoords.len(), 6);
}

#[test]
fn from_model_errors() {
    let model = model_of(&fixtures::minimal()).model;
    for (v, text) in [
        (
            2u8,
            "gs-mdl: cannot write MDL2: the writer makes MDL3, MDL4 and MDL5",
        ),
        (
            6,
            "gs-mdl: cannot write MDL6: the writer makes MDL3, MDL4 and MDL5",
        ),
    ] {
        let e = gs_mdl::from_model(&model, &WriteOptions::default(), v).unwrap_err();
        assert_eq!(e.kind, ErrorKind::InvalidValue);
        assert_eq!(e.to_string(), text);
    }
    // 70000 separate points: more than 16-bit indices reach.
    let n = 70_000u32;
    let positions: Vec<[f32; 3]> = (0..n).map(|i| [i as f32, 0.0, 0.0]).collect();
    let big = Model {
        meshes: vec![Mesh {
            positions: positions.clone(),
            normals: vec![[0.0, 0.0, 1.0]; n as usize],
            uvs: vec![[0.0, 0.0]; n as usize],
            triangles: vec![[0, 1, n - 1]],
            morph_targets: vec![MorphTarget {
                positions,
                normals: vec![[0.0, 0.0, 1.0]; n as usize],
            }],
            source_vertices: (0..n).collect(),
            ..Mesh::default()
        }],
        frames: vec![Default::default()],
        ..Model::default()
    };
    let e = gs_mdl::from_model(&big, &WriteOptions::default(), 5).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(
        e.to_string(),
        "gs-mdl5: 70000 vertices exceed the 65536 that 16-bit triangle indices reach"
    );
    // An invalid model names the version it was to be written as.
    let mut broken = model.clone();
    broken.meshes[0].triangles.push([0, 1, 99]);
    let e = gs_mdl::from_model(&broken, &WriteOptions::default(), 4).unwrap_err();
    assert_eq!(
        e.to_string(),
        "gs-mdl4: mesh 0: triangle 8: vertex index out of range (vertices = 7)"
    );
}

#[test]
fn invalid_files_give_exact_errors() {
    let min = fixtures::minimal();
    let cases: Vec<(Vec<u8>, ErrorKind, &str)> = vec![
        (
            b"IDPO\x06\0\0\0".to_vec(),
            ErrorKind::BadMagic,
            "gs-mdl: bad magic \"IDPO\": this is Quake MDL at offset 0x0",
        ),
        (
            b"XYZW".to_vec(),
            ErrorKind::BadMagic,
            "gs-mdl: bad magic \"XYZW\": not a known model format at offset 0x0",
        ),
        (
            {
                let mut b = min.clone();
                b[3] = b'7';
                b
            },
            ErrorKind::UnsupportedVersion,
            "gs-mdl: unsupported version MDL7 (this reader takes MDL2..MDL5) at offset 0x0",
        ),
        (
            b"MD".to_vec(),
            ErrorKind::Truncated,
            "gs-mdl: header: unexpected end of data (needed 4 bytes, 2 left) at offset 0x0",
        ),
        (
            min[..40].to_vec(),
            ErrorKind::Truncated,
            "gs-mdl5: header: unexpected end of data (needed 4 bytes, 0 left) at offset 0x28",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 48, -1);
                b
            },
            ErrorKind::BadCount,
            "gs-mdl5: negative count num_skins = -1 at offset 0x30",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 84, 1);
                b
            },
            ErrorKind::InvalidValue,
            "gs-mdl5: skin 0: unknown skin type 1 (expected 0, 2..=5 or those plus 8 for \
             mipmaps, or 6 or 7 in MDL5) at offset 0x54",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 84, 14);
                b
            },
            ErrorKind::InvalidValue,
            "gs-mdl5: skin 0: unknown skin type 14 (expected 0, 2..=5 or those plus 8 for \
             mipmaps, or 6 or 7 in MDL5) at offset 0x54",
        ),
        (
            {
                let mut b = fixture("mdl3_8bit_565");
                set_i32(&mut b, 84, 6);
                b
            },
            ErrorKind::InvalidValue,
            "gs-mdl3: skin 0: skin type 6 (embedded DDS) needs the per-skin size words of \
             MDL5 at offset 0x54",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 88, -1);
                b
            },
            ErrorKind::InvalidValue,
            "gs-mdl5: skin 0: negative skin size -1x8 at offset 0x58",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 88, 1000);
                b
            },
            ErrorKind::Truncated,
            "gs-mdl5: skin 0: unexpected end of data (1000x8 16-bit 5-6-5 skin needs 16000 \
             bytes, 548 left) at offset 0x60",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 84, 6);
                set_i32(&mut b, 88, 1_000_000);
                b
            },
            ErrorKind::BadCount,
            "gs-mdl5: skin 0: DDS size = 1000000 needs at least 1000000 bytes but only 548 \
             are left at offset 0x58",
        ),
        (
            {
                let mut b = fixture("mdl3_8bit_565");
                set_i32(&mut b, 52, 20000);
                b
            },
            ErrorKind::LimitExceeded,
            "gs-mdl3: skin size 20000x8 exceeds the limit of 16384 pixels a side at offset 0x34",
        ),
        (
            {
                // Triangles start at 84 + 12 + 256 + 7 * 4 = 380; triangle 3's second
                // vertex index is at 380 + 36 + 2.
                let mut b = min.clone();
                b[418..420].copy_from_slice(&900u16.to_le_bytes());
                b
            },
            ErrorKind::IndexOutOfRange,
            "gs-mdl5: triangle 3: vertex index 900 out of range (num_verts = 6) at offset 0x1a2",
        ),
        (
            {
                let mut b = min.clone();
                b[422..424].copy_from_slice(&7u16.to_le_bytes());
                b
            },
            ErrorKind::IndexOutOfRange,
            "gs-mdl5: triangle 3: skin vertex index 7 out of range (num_skin_verts = 7) at \
             offset 0x1a6",
        ),
        (
            {
                // MDL2: header 84, skin 4 + 128, texcoords 72: triangle 3 at 288 + 48, its
                // second index at 336 + 8.
                let mut b = fixture("mdl2_8bit");
                set_i32(&mut b, 344, -1);
                b
            },
            ErrorKind::IndexOutOfRange,
            "gs-mdl2: triangle 3: vertex index -1 out of range (num_verts = 6) at offset 0x158",
        ),
        (
            {
                // Frames start at 380 + 96 = 476; a word-packed frame is 84 bytes.
                let mut b = min.clone();
                set_i32(&mut b, 560, 1);
                b
            },
            ErrorKind::InvalidValue,
            "gs-mdl5: frame 1: unknown frame type 1 (expected 0 = byte-packed or 2 = \
             word-packed) at offset 0x230",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 68, 5);
                b
            },
            ErrorKind::BadCount,
            "gs-mdl5: num_frames = 5 needs at least 260 bytes but only 168 are left at offset \
             0x44",
        ),
        (
            {
                let mut b = min.clone();
                set_i32(&mut b, 60, -3);
                b
            },
            ErrorKind::BadCount,
            "gs-mdl5: negative count num_verts = -3 at offset 0x3c",
        ),
        (
            min[..min.len() - 1].to_vec(),
            ErrorKind::Truncated,
            "gs-mdl5: frame 1: unexpected end of data (needed 48 bytes, 47 left) at offset 0x254",
        ),
    ];
    for (bytes, kind, text) in cases {
        let e = err(&bytes);
        assert_eq!(e.to_string(), text);
        assert_eq!(e.kind, kind, "{text}");
    }
    // The allocation budget.
    let tight = Limits {
        max_alloc_bytes: 600,
        ..Limits::default()
    };
    let e = File::parse(&min, &tight).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(
        e.to_string(),
        "gs-mdl5: skin 0: decoded data would exceed the allocation limit of 600 bytes at \
         offset 0x60"
    );
}
