//! Generated fixtures: byte-exact round trips and Model values checked against the spec's
//! formulas, computed here from the raw fields independently of the converter.

use retromodel::formats::normals::ANORMS;
use retromodel::formats::quake_mdl::{self, fixtures, File, Frame, Skin, MF_HOLEY};
use retromodel::image::Pixels;
use retromodel::{ConvertOptions, Limits, MemoryFiles, NoFiles, SeamRule};

fn parse(bytes: &[u8]) -> File<'_> {
    File::parse(bytes, &Limits::default()).expect("fixture parses")
}

/// The fixtures of Quake's own layout (the variants' are checked in `quake_mdl_variants.rs`).
fn quake_fixtures() -> Vec<(&'static str, Vec<u8>)> {
    fixtures::all()
        .into_iter()
        .filter(|(_, b)| quake_mdl::Variant::detect(b) == Some(quake_mdl::Variant::Quake))
        .collect()
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    for (name, bytes) in quake_fixtures() {
        let file = parse(&bytes);
        assert_eq!(file.write(), bytes, "{name}");
        // An owned copy writes the same bytes too.
        assert_eq!(file.clone().into_owned().write(), bytes, "{name} (owned)");
    }
}

#[test]
fn model_positions_normals_and_uvs_follow_the_spec_formulas() {
    for (name, bytes) in quake_fixtures() {
        let file = parse(&bytes);
        let model = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
        model.validate().unwrap();
        let h = &file.header;
        let mesh = &model.meshes[0];
        let poses: Vec<_> = file.poses().collect();
        assert_eq!(mesh.morph_targets.len(), poses.len(), "{name}");
        assert_eq!(model.frames.len(), poses.len(), "{name}");
        for (ti, tri) in file.triangles.iter().enumerate() {
            for (k, &vi) in tri.vertex.iter().enumerate() {
                let mv = mesh.triangles[ti][k] as usize;
                assert_eq!(mesh.source_vertices[mv], vi as u32);
                let tc = file.texcoords[vi as usize];
                let mut s = tc.s as f32;
                if tri.facesfront == 0 && tc.onseam != 0 {
                    s += (h.skinwidth / 2) as f32;
                }
                let want_uv = [
                    (s + 0.5) / h.skinwidth as f32,
                    (tc.t as f32 + 0.5) / h.skinheight as f32,
                ];
                assert_eq!(mesh.uvs[mv], want_uv, "{name}: triangle {ti} corner {k}");
                for (pi, pose) in poses.iter().enumerate() {
                    let pv = pose.verts[vi as usize];
                    let want: [f32; 3] =
                        std::array::from_fn(|a| h.scale[a] * pv.v[a] as f32 + h.translate[a]);
                    let target = &mesh.morph_targets[pi];
                    assert_eq!(target.positions[mv], want, "{name}: pose {pi}");
                    assert_eq!(target.normals[mv], ANORMS[pv.normal_index as usize]);
                }
            }
        }
        assert_eq!(mesh.positions, mesh.morph_targets[0].positions);
    }
}

#[test]
fn literal_values_of_the_diamond() {
    let bytes = fixtures::build(&fixtures::Spec {
        seam: true,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let model = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    let mesh = &model.meshes[0];
    // Vertex 0 points along +X with radius 8: packed 96, 0.25 * 96 - 16 = 8.
    assert_eq!(mesh.positions[0], [8.0, 0.0, 0.0]);
    assert_eq!(mesh.positions[4], [0.0, 0.0, 8.0]);
    let n = mesh.normals[0];
    assert!(n[0] > 0.95 && n[1].abs() < 0.3 && n[2].abs() < 0.3, "{n:?}");
    // s = 0, t = 4 on a 16x8 skin, at the texel centre.
    assert_eq!(mesh.uvs[0], [0.5 / 16.0, 4.5 / 8.0]);
    // The 4 equator vertices are on the seam and used by back-facing triangles: 4 copies
    // shifted by half the skin width, appended after the 6 file vertices.
    assert_eq!(mesh.positions.len(), 10);
    assert_eq!(&mesh.source_vertices[6..], &[1, 0, 2, 3]);
    assert_eq!(mesh.uvs[7], [8.5 / 16.0, 4.5 / 8.0]);
    // Second pose is stretched by 1.25.
    assert_eq!(mesh.morph_targets[1].positions[0], [10.0, 0.0, 0.0]);
    assert_eq!(model.frames[1].name, "stand2");
    assert_eq!(model.frames[0].bounds_max, [8.0, 8.0, 8.0]);
}

#[test]
fn seam_rule_software_quake_tests_bit_0x20_only() {
    let mut file = fixtures::build(&fixtures::Spec {
        seam: true,
        ..Default::default()
    });
    for tc in &mut file.texcoords {
        if tc.onseam != 0 {
            tc.onseam = 1;
        }
    }
    let gl = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    assert_eq!(gl.meshes[0].positions.len(), 10);
    let sw = ConvertOptions {
        seam_rule: SeamRule::Bit0x20,
        ..Default::default()
    };
    let soft = quake_mdl::to_model(&file, &sw, &NoFiles).model;
    assert_eq!(soft.meshes[0].positions.len(), 6);
}

#[test]
fn seam_offset_cannot_overflow() {
    let mut file = fixtures::build(&fixtures::Spec {
        seam: true,
        ..Default::default()
    });
    file.texcoords[0].s = i32::MAX;
    let model = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    let uv = model.meshes[0].uvs[7]; // the back-side copy of vertex 0
    assert_eq!(model.meshes[0].source_vertices[7], 0);
    assert_eq!(uv[0], (i32::MAX as f32 + 8.0 + 0.5) / 16.0);
}

#[test]
fn skin_group_keeps_pictures_and_times() {
    let bytes = fixtures::build(&fixtures::Spec {
        skin_group: true,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    assert!(matches!(&file.skins[1], Skin::Group { pictures, .. } if pictures.len() == 3));
    let model = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    assert_eq!(model.skins.len(), 2);
    assert_eq!(model.skins[1].pictures.len(), 3);
    assert_eq!(model.skins[1].picture_times, Some(vec![0.1, 0.2, 0.35]));
    let Pixels::Indexed {
        indices,
        fullbright_start,
        transparent_index,
        palette,
    } = &model.skins[1].pictures[2].pixels
    else {
        panic!("8-bit skin must stay indexed");
    };
    let Skin::Group { pictures, .. } = &file.skins[1] else {
        unreachable!()
    };
    assert_eq!(indices.as_slice(), &pictures[2][..]);
    assert_eq!(*fullbright_start, Some(224));
    assert_eq!(*transparent_index, None);
    assert_eq!(palette.rgb(255), [159, 91, 83]);
}

#[test]
fn frame_group_becomes_a_timed_clip() {
    let bytes = fixtures::build(&fixtures::Spec {
        frame_group: true,
        simple_frames: 5,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    assert!(matches!(&file.frames[5], Frame::Group { frames, .. } if frames.len() == 3));
    let model = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    assert_eq!(model.frames.len(), 8);
    let clips: Vec<_> = model
        .clips
        .iter()
        .map(|c| (c.name.as_str(), c.first, c.count))
        .collect();
    assert_eq!(clips, [("stand", 0, 2), ("run", 2, 3), ("flame", 5, 3)]);
    assert_eq!(model.clips[0].fps, 10.0);
    assert_eq!(model.clips[2].fps, 10.0); // 1 / first interval (0.1)
    assert_eq!(model.clips[2].frame_times, Some(vec![0.1, 0.2, 0.35]));
    assert_eq!(model.frames[7].name, "flame3");
}

#[test]
fn trailing_data_and_unknown_flags_survive() {
    let trailing = b"QMEX\x01\x02\x03".to_vec();
    let flags = MF_HOLEY | 0x4000_0000 | 0x100;
    let bytes = fixtures::build(&fixtures::Spec {
        trailing: trailing.clone(),
        flags,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    assert_eq!(&file.trailing[..], &trailing[..]);
    assert_eq!(file.header.flags, flags);
    assert_eq!(file.write(), bytes);
    let model = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    let Pixels::Indexed {
        transparent_index, ..
    } = &model.skins[0].pictures[0].pixels
    else {
        panic!()
    };
    assert_eq!(
        *transparent_index,
        Some(255),
        "MF_HOLEY makes index 255 transparent"
    );
}

#[test]
fn sixteen_bit_skin_decodes_to_rgba() {
    let bytes = fixtures::build(&fixtures::Spec {
        skin_16bit: true,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let Skin::Single { skin_type, pixels } = &file.skins[0] else {
        panic!()
    };
    assert_eq!(*skin_type, 2);
    assert_eq!(pixels.len(), 16 * 8 * 2);
    let converted = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles);
    assert_eq!(converted.warnings.len(), 1, "{:?}", converted.warnings);
    let Pixels::Rgba8(rgba) = &converted.model.skins[0].pictures[0].pixels else {
        panic!()
    };
    // First texel: bytes [3, 10] -> 0x0a03 -> r=1, g=16, b=3.
    assert_eq!(&pixels[..2], &[3, 10]);
    assert_eq!(
        &rgba[..4],
        &[
            ((255 + 15) / 31) as u8,
            ((16 * 255 + 31) / 63) as u8,
            ((3 * 255 + 15) / 31) as u8,
            255
        ]
    );
}

#[test]
fn palette_comes_from_options_then_resolver_then_builtin() {
    let bytes = fixtures::minimal();
    let file = parse(&bytes);
    let grey: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
    let mut files = MemoryFiles::default();
    files.0.insert("gfx/palette.lmp".into(), grey.clone());
    let rgb_of_255 = |m: &retromodel::Model| match &m.skins[0].pictures[0].pixels {
        Pixels::Indexed { palette, .. } => palette.rgb(255),
        _ => panic!(),
    };
    let builtin = quake_mdl::to_model(&file, &Default::default(), &NoFiles).model;
    assert_eq!(rgb_of_255(&builtin), [159, 91, 83]);
    let resolved = quake_mdl::to_model(&file, &Default::default(), &files).model;
    assert_eq!(rgb_of_255(&resolved), [255, 255, 255]);
    let forced = ConvertOptions {
        palette: Some(retromodel::image::Palette([[1, 2, 3]; 256])),
        ..Default::default()
    };
    let opt = quake_mdl::to_model(&file, &forced, &files).model;
    assert_eq!(rgb_of_255(&opt), [1, 2, 3]);
    // A broken palette file gives a warning and the built-in palette.
    files.0.insert("gfx/palette.lmp".into(), vec![0; 10]);
    let c = quake_mdl::to_model(&file, &Default::default(), &files);
    assert_eq!(rgb_of_255(&c.model), [159, 91, 83]);
    assert!(
        c.warnings[0].contains("expected 768 bytes, found 10"),
        "{:?}",
        c.warnings
    );
}

/// Normal indices past the 162-entry table are counted once per file vertex and pose (the
/// converter counts them while decoding, back-side seam copies not counted twice) and
/// decode to `+Z`.
#[test]
fn normals_past_the_table_are_counted_once_and_decode_to_up() {
    let bytes = fixtures::build(&fixtures::Spec {
        seam: true,
        frame_group: true,
        ..Default::default()
    })
    .write();
    let mut file = parse(&bytes).into_owned();
    // Every third vertex of every pose gets an index past the table, a different one each.
    let mut k = 0u8;
    for frame in &mut file.frames {
        let poses: Vec<&mut quake_mdl::SimpleFrame> = match frame {
            Frame::Simple(p) => vec![p],
            Frame::Group { frames, .. } => frames.iter_mut().collect(),
        };
        for p in poses {
            for v in p.verts.iter_mut().step_by(3) {
                v.normal_index = 162 + k % 94;
                k = k.wrapping_add(1);
            }
        }
    }
    let bytes = file.write();
    let file = parse(&bytes);
    let want: usize = file
        .poses()
        .flat_map(|p| p.verts.iter())
        .filter(|v| v.normal_index >= 162)
        .count();
    assert!(want > 0);
    let converted = quake_mdl::to_model(&file, &ConvertOptions::default(), &NoFiles);
    let text = format!("{want} vertex normals index past the 162-entry table; (0, 0, 1) used");
    assert!(
        converted.warnings.contains(&text),
        "{:?} lacks {text:?}",
        converted.warnings
    );
    let mesh = &converted.model.meshes[0];
    assert!(
        mesh.source_vertices.len() > file.texcoords.len(),
        "seam copies"
    );
    for (pose, target) in file.poses().zip(&mesh.morph_targets) {
        for (mv, &sv) in mesh.source_vertices.iter().enumerate() {
            if pose.verts[sv as usize].normal_index >= 162 {
                assert_eq!(target.normals[mv], [0.0, 0.0, 1.0]);
            }
        }
    }
}
