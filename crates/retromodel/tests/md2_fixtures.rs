//! Generated MD2 fixtures: byte-exact round trips, decoded values, the Model conversion,
//! GL command generation, and writing from a Model.

use retromodel::formats::md2::{self, fixtures, GlKind, GlLayout};
use retromodel::formats::normals;
use retromodel::{Document, Limits, MemoryFiles, NoFiles, WriteOptions};

fn parse(bytes: &[u8]) -> md2::File<'_> {
    md2::File::parse(bytes, &Limits::default()).unwrap()
}

#[test]
fn every_fixture_round_trips_byte_for_byte() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        assert!(file.write() == bytes, "{name}: round trip differs");
        let doc = Document::parse(&bytes, &Limits::default()).unwrap();
        assert_eq!(doc.write(), bytes, "{name}");
        let model = doc.to_model(&Default::default(), &NoFiles).model;
        model.validate().unwrap();
    }
}

#[test]
fn empty_gl_command_list_sits_at_the_end_of_the_file() {
    let bytes = fixtures::build(&fixtures::Spec {
        glcmds: false,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let h = &file.header;
    assert_eq!(h.num_glcmds, 0);
    assert_eq!(h.ofs_glcmds as usize, bytes.len());
    assert_eq!(h.ofs_end as usize, bytes.len());
    assert!(file.glcmds.commands.is_empty() && !file.glcmds.terminated);
}

#[test]
fn everything_fixture_decodes_to_its_values() {
    let spec = fixtures::Spec::everything();
    let bytes = fixtures::build(&spec).write();
    let file = parse(&bytes);
    // Skins: the third name fills all 64 bytes, no NUL.
    let names: Vec<String> = file.skin_names().collect();
    assert_eq!(names[0], "models/fixture/skin.pcx");
    assert_eq!(names[1], "models/fixture/skin2.pcx");
    assert_eq!(names[2], "x".repeat(64));
    // Frames: padding kept, framesize grown by it, names stand1..4 then run1..2.
    assert_eq!(file.header.framesize, 40 + 4 * 10 + 4);
    assert_eq!(file.frames.len(), 6);
    assert_eq!(&*file.frames[0].padding, &[0xAB; 4]);
    let frame_names: Vec<String> = file.frames.iter().map(|f| md2::name_str(&f.name)).collect();
    assert_eq!(
        frame_names,
        ["stand1", "stand2", "stand3", "stand4", "run1", "run2"]
    );
    // GL commands: one strip of 10 vertices and two fans of 6, 16 triangles like the list.
    let kinds: Vec<(GlKind, usize)> = file
        .glcmds
        .commands
        .iter()
        .map(|c| (c.kind, c.vertices.len()))
        .collect();
    assert_eq!(
        kinds,
        [(GlKind::Strip, 10), (GlKind::Fan, 6), (GlKind::Fan, 6)]
    );
    assert_eq!(file.header.num_glcmds, 3 + 3 * 22 + 1);
    assert_eq!(file.triangles.len(), 16);
    assert_eq!(file.glcmds.triangle_count(), 16);
    // The gap after the header and the trailing bytes come back at their offsets.
    assert_eq!(file.gaps.len(), 2);
    assert_eq!(
        (file.gaps[0].offset, &*file.gaps[0].bytes),
        (68, &b"GAP!"[..])
    );
    assert_eq!(&*file.gaps[1].bytes, b"TAIL");
    assert_eq!(file.header.ofs_skins, 72);
    assert_eq!(&bytes[bytes.len() - 4..], b"TAIL");
}

#[test]
fn model_conversion_decodes_each_frame_with_its_own_scale() {
    let bytes = fixtures::build(&fixtures::Spec {
        frames: 3,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    let model = md2::to_model(&file, &Default::default(), &NoFiles).model;
    let mesh = &model.meshes[0];
    assert_eq!(model.frames.len(), 3);
    // The band's seam vertices have two texture coordinates: 10 vertices become 12.
    assert_eq!(mesh.positions.len(), 12);
    assert_eq!(mesh.triangles.len(), 16);
    for (f, target) in mesh.morph_targets.iter().enumerate() {
        let size = 8.0 + 2.0 * f as f32;
        let frame = &file.frames[f];
        for (v, p) in target.positions.iter().enumerate() {
            let sv = mesh.source_vertices[v] as usize;
            let raw = frame.verts[sv].v;
            for k in 0..3 {
                assert_eq!(p[k], frame.scale[k] * raw[k] as f32 + frame.translate[k]);
            }
            // The apex (vertex 8) sits at z = 2 * size, within half a step.
            if sv == 8 {
                assert!((p[2] - 2.0 * size).abs() <= frame.scale[2] / 2.0 + 1e-4);
            }
            let n = normals::normal(frame.verts[sv].normal_index).unwrap();
            assert_eq!(target.normals[v], n);
        }
    }
    // UVs are s / skinwidth: the first corner of the first triangle is st (0, 4) on 32x16.
    let t0 = mesh.triangles[0];
    assert_eq!(mesh.uvs[t0[0] as usize], [0.0, 4.0 / 16.0]);
    assert_eq!(model.clips.len(), 1);
    assert_eq!(
        (model.clips[0].name.as_str(), model.clips[0].fps),
        ("stand", 10.0)
    );
    assert_eq!(model.skins[0].name, "models/fixture/skin.pcx");
    assert!(model.skins[0].pictures.is_empty());
}

#[test]
fn skins_resolve_through_the_resolver_and_decode_as_pcx() {
    let palette = retromodel::image::Palette::QUAKE;
    let indices: Vec<u8> = (0..32 * 16).map(|i| (i % 251) as u8).collect();
    let pcx = retromodel::image::pcx::encode_indexed(32, 16, &indices, &palette);
    let mut files = MemoryFiles::default();
    files.0.insert("models/fixture/skin.pcx".into(), pcx);
    let bytes = fixtures::minimal();
    let c = md2::to_model(&parse(&bytes), &Default::default(), &files);
    let pic = &c.model.skins[0].pictures[0];
    assert_eq!((pic.width, pic.height), (32, 16));
    match &pic.pixels {
        retromodel::image::Pixels::Indexed { indices: got, .. } => assert_eq!(got, &indices),
        other => panic!("expected indexed pixels, got {other:?}"),
    }
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    // Not found: a warning naming the skin, the name kept.
    let c = md2::to_model(&parse(&bytes), &Default::default(), &NoFiles);
    assert_eq!(
        c.warnings,
        ["skin 0: \"models/fixture/skin.pcx\" not found (--game-dir GAME_FOLDER or archive finds the game's skins)"]
    );
}

#[test]
fn index_first_gl_layout_is_read_and_written_back() {
    let bytes = fixtures::build(&fixtures::Spec {
        layout: GlLayout::IndexFirst,
        ..Default::default()
    })
    .write();
    let file = parse(&bytes);
    assert_eq!(file.glcmds.layout, GlLayout::IndexFirst);
    assert_eq!(file.glcmds.triangle_count(), 16);
    assert_eq!(file.write(), bytes);
    let c = md2::to_model(&file, &Default::default(), &NoFiles);
    assert!(c
        .warnings
        .iter()
        .any(|w| w.contains("index before s and t")));
}

#[test]
fn generated_gl_commands_draw_exactly_the_triangle_list() {
    let bytes = fixtures::build(&fixtures::Spec::everything()).write();
    let file = parse(&bytes);
    let cmds = md2::glcmds::generate(&file.triangles, &file.texcoords, 32, 16);
    let tri_count: usize = cmds.iter().map(|c| c.vertices.len() - 2).sum();
    assert_eq!(tri_count, 16);
    assert!(
        cmds.len() < 16,
        "{} commands for 16 triangles: nothing joined",
        cmds.len()
    );
    assert_eq!(
        md2::glcmds::mismatch(&cmds, &file.triangles, &file.texcoords, [32, 16], true),
        None
    );
    // A wrong triangle list is caught.
    let mut other = file.triangles.clone();
    other[3].index_xyz.swap(0, 1);
    assert!(md2::glcmds::mismatch(&cmds, &other, &file.texcoords, [32, 16], true).is_some());
    let mut other = file.triangles.clone();
    other[5].index_st[0] = (other[5].index_st[0] + 1) % 12;
    assert!(md2::glcmds::mismatch(&cmds, &other, &file.texcoords, [32, 16], true).is_some());
}

#[test]
fn written_from_its_model_the_file_keeps_geometry_names_and_gets_gl_commands() {
    let original = parse(
        &fixtures::build(&fixtures::Spec {
            frames: 5,
            glcmds: false,
            ..Default::default()
        })
        .write(),
    )
    .into_owned();
    let model = md2::to_model(&original, &Default::default(), &NoFiles).model;
    let written = md2::from_model(&model, &WriteOptions::default()).unwrap();
    let bytes = written.file.write();
    let back = parse(&bytes);
    assert_eq!(
        back.header.num_xyz, 10,
        "seam copies merge back into one vertex"
    );
    // Vertex numbering is the source's; texture coordinates are renumbered by first use.
    let corners = |f: &md2::File<'_>| -> Vec<[(i16, md2::TexCoord); 3]> {
        f.triangles
            .iter()
            .map(|t| std::array::from_fn(|k| (t.index_xyz[k], f.texcoords[t.index_st[k] as usize])))
            .collect()
    };
    assert_eq!(corners(&back), corners(&original));
    assert_eq!(back.texcoords.len(), original.texcoords.len());
    assert!(!back.glcmds.commands.is_empty());
    assert_eq!(
        md2::glcmds::mismatch(
            &back.glcmds.commands,
            &back.triangles,
            &back.texcoords,
            [32, 16],
            true
        ),
        None
    );
    assert_eq!(
        back.skin_names().collect::<Vec<_>>(),
        ["models/fixture/skin.pcx"]
    );
    for (f, (a, b)) in original.frames.iter().zip(&back.frames).enumerate() {
        assert_eq!(a.name, b.name);
        for (va, vb) in a.verts.iter().zip(&b.verts) {
            for k in 0..3 {
                let pa = a.scale[k] * va.v[k] as f32 + a.translate[k];
                let pb = b.scale[k] * vb.v[k] as f32 + b.translate[k];
                assert!((pa - pb).abs() <= b.scale[k] / 2.0 + 1e-4, "frame {f}");
            }
            assert_eq!(va.normal_index, vb.normal_index);
        }
    }
    assert_eq!(written.frame_errors.len(), 5);
    assert!(written
        .warnings
        .iter()
        .any(|w| w.starts_with("position quantisation")));
    // --skin-path replaces the names.
    let o = WriteOptions {
        skin_paths: vec!["models/new/skin.pcx".into()],
        ..Default::default()
    };
    let file = md2::from_model(&model, &o).unwrap().file;
    assert_eq!(
        file.skin_names().collect::<Vec<_>>(),
        ["models/new/skin.pcx"]
    );
}

#[test]
fn engine_limits_warn_or_fail_when_strict() {
    let file = parse(
        &fixtures::build(&fixtures::Spec {
            frames: md2::MAX_FRAMES + 1,
            ..Default::default()
        })
        .write(),
    )
    .into_owned();
    let model = md2::to_model(&file, &Default::default(), &NoFiles).model;
    let w = md2::from_model(&model, &WriteOptions::default()).unwrap();
    assert!(w
        .warnings
        .contains(&"513 frames exceed Quake 2's limit of 512".to_string()));
    let strict = WriteOptions {
        strict: true,
        ..Default::default()
    };
    let e = md2::from_model(&model, &strict).unwrap_err();
    assert_eq!(
        e.to_string(),
        "md2: 513 frames exceed Quake 2's limit of 512"
    );
}

#[test]
fn validate_knows_quake2_rules() {
    let show = |bytes: &[u8], engine| {
        let doc = Document::parse(bytes, &Limits::default()).unwrap();
        doc.validate(engine)
            .unwrap()
            .iter()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
    };
    assert!(show(&fixtures::minimal(), Some("quake2")).is_empty());
    let no_gl = fixtures::build(&fixtures::Spec {
        glcmds: false,
        ..Default::default()
    })
    .write();
    assert_eq!(
        show(&no_gl, None),
        ["error: no GL commands: the model is invisible in Quake 2's GL renderer (`retromodel convert` to .md2 generates them)"]
    );
    assert!(show(&no_gl, Some("quake2-soft")).is_empty());
    let doc = Document::parse(&no_gl, &Limits::default()).unwrap();
    assert_eq!(
        doc.validate(Some("quake")).unwrap_err(),
        "unknown engine \"quake\" for MD2 (quake2, quake2-soft)"
    );
}

/// A frame's bounds are its decoded positions' extremes (found from the packed extremes),
/// with negative and zero scales too, and the normals past the table are counted once per
/// file vertex and frame.
#[test]
fn frame_bounds_are_the_positions_extremes_and_bad_normals_are_counted() {
    let bytes = fixtures::build(&fixtures::Spec::default()).write();
    let mut file = parse(&bytes).into_owned();
    assert!(file.frames.len() >= 2);
    file.frames[0].scale = [-0.5, 0.0, 0.25];
    file.frames[0].translate = [3.0, -1.0, -0.0];
    let mut want_bad = 0;
    for (fi, f) in file.frames.iter_mut().enumerate() {
        for (vi, v) in f.verts.iter_mut().enumerate() {
            if (vi + fi) % 3 == 0 {
                v.normal_index = 162 + (vi % 90) as u8;
                want_bad += 1;
            }
        }
    }
    let bytes = file.write();
    let converted = md2::to_model(&parse(&bytes), &Default::default(), &NoFiles);
    let text = format!("{want_bad} vertex normals index past the 162-entry table; (0, 0, 1) used");
    assert!(
        converted.warnings.contains(&text),
        "{:?}",
        converted.warnings
    );
    let model = converted.model;
    let mesh = &model.meshes[0];
    for (i, (frame, target)) in model.frames.iter().zip(&mesh.morph_targets).enumerate() {
        let mut lo = target.positions[0];
        let mut hi = lo;
        for p in &target.positions {
            for a in 0..3 {
                lo[a] = lo[a].min(p[a]);
                hi[a] = hi[a].max(p[a]);
            }
        }
        assert_eq!((frame.bounds_min, frame.bounds_max), (lo, hi), "frame {i}");
    }
    assert!(model.frames[0].bounds_min[0] < model.frames[0].bounds_max[0]);
    assert_eq!(model.frames[0].bounds_min[1], -1.0);
    assert_eq!(model.frames[0].bounds_max[1], -1.0);
}
