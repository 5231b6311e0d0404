//! The three variants of Quake MDL the codec reads: QTest (`IDPO` version 3), QuakeForge
//! `MD16` and Hexen II `RAPO`. Generated fixtures round-trip byte for byte; their byte layout
//! is checked against the documented structure sizes; Model positions and UVs are checked by
//! value against the formulas computed here from the raw fields; damaged files fail with the
//! exact error; detection, `info` and `validate` name the variant.

use retromodel::formats::normals::ANORMS;
use retromodel::formats::quake_mdl::{
    self, fixtures, Frame, Hexen2, Hexen2File, Layout, Md16, Md16File, MdlFile, QTest, QTestFile,
    Variant, Vertex, ALIAS_ONSEAM, MF_HOLEY,
};
use retromodel::summary::Value;
use retromodel::{detect, registry, ConvertOptions, Document, Limits, NoFiles, Severity};

fn limits() -> Limits {
    Limits::default()
}

/// The generated fixtures whose name starts with `prefix`.
fn named(prefix: &str) -> Vec<(&'static str, Vec<u8>)> {
    let out: Vec<_> = fixtures::all()
        .into_iter()
        .filter(|(n, _)| n.starts_with(prefix))
        .collect();
    assert!(out.len() >= 3, "{prefix}: {} fixtures", out.len());
    out
}

/// The generated fixtures of layout `L` (named `prefix*`), each checked to start with the
/// layout's `magic` and `version`, and parsed (the bytes kept for the test's lifetime).
fn parsed<L: Layout>(
    prefix: &str,
    magic: &[u8; 4],
    version: i32,
) -> Vec<(&'static str, &'static [u8], MdlFile<'static, L>)> {
    let out = named(prefix).into_iter().map(|(name, bytes)| {
        assert_eq!(&bytes[..4], magic, "{name}");
        assert_eq!(i32_at(&bytes, 4), version, "{name}");
        let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
        (name, bytes, MdlFile::<L>::parse(bytes, &limits()).unwrap())
    });
    out.collect()
}

/// The fixture called `name` (kept for the test's lifetime: parsed files borrow it).
fn fixture(name: &str) -> &'static [u8] {
    let bytes = fixtures::all()
        .into_iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"))
        .1;
    Box::leak(bytes.into_boxed_slice())
}

fn i32_at(b: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(b[at..at + 4].try_into().unwrap())
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap())
}

/// Bytes of the skins of a parsed file.
fn skins_size(skins: &[quake_mdl::Skin<'_>]) -> usize {
    skins
        .iter()
        .map(|s| match s {
            quake_mdl::Skin::Single { pixels, .. } => 4 + pixels.len(),
            quake_mdl::Skin::Group { pictures, .. } => {
                8 + pictures.iter().map(|p| 4 + p.len()).sum::<usize>()
            }
        })
        .sum()
}

/// Bytes of a frame list whose poses are `pose` bytes each.
fn frames_size<P>(frames: &[Frame<P>], pose: usize) -> usize {
    frames
        .iter()
        .map(|f| match f {
            Frame::Simple(_) => 4 + pose,
            Frame::Group { frames, .. } => 4 + 4 + 8 + frames.len() * (4 + pose),
        })
        .sum()
}

// ---------------------------------------------------------------------------------------------
// Round trips, detection, coverage of the branches.

#[test]
fn every_variant_fixture_round_trips_byte_for_byte() {
    for (name, bytes) in named("qtest_") {
        let f = QTestFile::parse(&bytes, &limits()).unwrap();
        assert_eq!(f.write(), bytes, "{name}");
        assert_eq!(f.clone().into_owned().write(), bytes, "{name} (owned)");
    }
    for (name, bytes) in named("md16_") {
        let f = Md16File::parse(&bytes, &limits()).unwrap();
        assert_eq!(f.write(), bytes, "{name}");
        assert_eq!(f.clone().into_owned().write(), bytes, "{name} (owned)");
    }
    for (name, bytes) in named("hexen2_") {
        let f = Hexen2File::parse(&bytes, &limits()).unwrap();
        assert_eq!(f.write(), bytes, "{name}");
        assert_eq!(f.clone().into_owned().write(), bytes, "{name} (owned)");
    }
    // Through the registry, detected by magic.
    for (name, bytes) in fixtures::all() {
        let doc = Document::parse(&bytes, &limits()).unwrap();
        assert_eq!(doc.write(), bytes, "{name}");
    }
}

#[test]
fn detection_by_magic_and_version() {
    let cases = [
        ("qtest_", Variant::QTest, quake_mdl::QTEST_MDL),
        ("md16_", Variant::Md16, quake_mdl::QUAKEFORGE_MD16),
        ("hexen2_", Variant::Hexen2, quake_mdl::HEXEN2_MDL),
    ];
    for (prefix, variant, format) in cases {
        for (name, bytes) in named(prefix) {
            assert_eq!(Variant::detect(&bytes), Some(variant), "{name}");
            assert_eq!(detect(&bytes), Some(format), "{name}");
            let doc = Document::parse(&bytes, &limits()).unwrap();
            assert_eq!(doc.format(), format, "{name}");
            assert_eq!(doc.codec().name(), "quake-mdl");
            assert_eq!(variant.format(), format);
            assert_eq!(registry::format_named(variant.name()), Some(format));
        }
    }
    assert_eq!(
        detect(b"IDPO\x03\0\0\0"),
        Some(quake_mdl::QTEST_MDL),
        "IDPO version 3"
    );
    assert_eq!(detect(b"IDPO\x06\0\0\0"), Some(quake_mdl::QUAKE_MDL));
    // Any other IDPO version is Quake's, whose parser names the version.
    assert_eq!(detect(b"IDPO\x07\0\0\0"), Some(quake_mdl::QUAKE_MDL));
    assert_eq!(detect(b"IDPO"), Some(quake_mdl::QUAKE_MDL));
    assert_eq!(detect(b"RAPO\x06\0\0\0"), Some(quake_mdl::HEXEN2_MDL));
    assert_eq!(detect(b"MD16"), Some(quake_mdl::QUAKEFORGE_MD16));
    for f in [
        quake_mdl::QTEST_MDL,
        quake_mdl::QUAKEFORGE_MD16,
        quake_mdl::HEXEN2_MDL,
    ] {
        assert!(f.is_supported());
        assert_eq!(f.extensions(), ["mdl"]);
    }
    assert_eq!(
        quake_mdl::HEXEN2_MDL.description(),
        "Hexen II mission-pack MDL (RAPO)"
    );
    assert_eq!(quake_mdl::QUAKEFORGE_MD16.description(), "QuakeForge MD16");
    assert_eq!(quake_mdl::QTEST_MDL.description(), "QTest MDL (version 3)");
    // Only Quake's layout is written from a Model.
    let writers: Vec<_> = registry::writers()
        .filter(|w| w.format.name().contains("md16") || w.format.name().contains("hexen2"))
        .collect();
    assert!(writers.is_empty());
}

#[test]
fn half_life_mdl_is_read_by_its_own_codec_not_as_quake() {
    // `IDST`/`IDSQ` files go to the Half-Life codec (issue 41), whose errors name it.
    for (magic, need) in [(b"IDST", 244), (b"IDSQ", 76)] {
        let mut bytes = magic.to_vec();
        bytes.extend_from_slice(&[10, 0, 0, 0, 0, 0, 0, 0]);
        let e = Document::parse(&bytes, &limits()).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("half-life-mdl: header: unexpected end of data (needed {need} bytes, 12 left) at offset 0x0")
        );
    }
}

#[test]
fn fixtures_cover_every_branch_of_each_variant() {
    let q = QTestFile::parse(fixture("qtest_everything"), &limits()).unwrap();
    assert!(q.frames.iter().any(|f| matches!(f, Frame::Group { .. })));
    assert!(q
        .skins
        .iter()
        .any(|s| matches!(s, quake_mdl::Skin::Group { .. })));
    assert!(q.texcoords.iter().any(|t| t.onseam == ALIAS_ONSEAM));
    assert!(!q.trailing.is_empty());

    let m = Md16File::parse(fixture("md16_frames_and_group"), &limits()).unwrap();
    assert_eq!(m.frames.len(), 6);
    assert_eq!(m.pose_count(), 8);
    let m = Md16File::parse(fixture("md16_everything"), &limits()).unwrap();
    assert!(m.frames.iter().any(|f| matches!(f, Frame::Group { .. })));
    assert!(m.poses().all(|p| p.low.iter().any(|v| v.v != [0; 3])));
    assert_eq!(m.header.flags & MF_HOLEY, MF_HOLEY);

    let h = Hexen2File::parse(fixture("hexen2_separate_st"), &limits()).unwrap();
    // A vertex used with two texture coordinates; a texture coordinate and a vertex unused.
    let mut st_of_vertex0: Vec<u16> = h
        .triangles
        .iter()
        .flat_map(|t| t.vertex.iter().zip(&t.st))
        .filter(|(v, _)| **v == 0)
        .map(|(_, st)| *st)
        .collect();
    st_of_vertex0.sort();
    st_of_vertex0.dedup();
    assert_eq!(st_of_vertex0.len(), 2);
    let used_st = |i: u16| h.triangles.iter().any(|t| t.st.contains(&i));
    assert!((0..h.texcoords.len() as u16).any(|i| !used_st(i)));
    let used_v = |i: u16| h.triangles.iter().any(|t| t.vertex.contains(&i));
    assert!((0..h.header.mdl.num_verts as u16).any(|i| !used_v(i)));
    assert!(h.triangles.iter().any(|t| t.vertex != t.st));
    let h = Hexen2File::parse(fixture("hexen2_seam"), &limits()).unwrap();
    assert!(h
        .triangles
        .iter()
        .any(|t| t.facesfront == 0 && t.st.iter().any(|&s| h.texcoords[s as usize].onseam != 0)));
}

// ---------------------------------------------------------------------------------------------
// Byte layouts.

#[test]
fn qtest_layout_has_a_76_byte_header_and_nameless_poses() {
    for (name, bytes, f) in parsed::<QTest>("qtest_", b"IDPO", 3) {
        let h = &f.header;
        // synctype is the header's last word: the first skin's type word follows at 76.
        assert_eq!(i32_at(bytes, 72), h.synctype, "{name}");
        assert_eq!(i32_at(bytes, 76), 0, "{name}: first skin type");
        let nv = h.num_verts as usize;
        let expected = 76
            + skins_size(&f.skins)
            + 12 * nv
            + 16 * h.num_tris as usize
            + frames_size(&f.frames, 8 + 4 * nv)
            + f.trailing.len();
        assert_eq!(bytes.len(), expected, "{name}");
    }
}

#[test]
fn md16_layout_puts_the_low_block_after_each_pose() {
    for (name, bytes, f) in parsed::<Md16>("md16_", b"MD16", 6) {
        let h = &f.header;
        let nv = h.num_verts as usize;
        let frames_at = 84 + skins_size(&f.skins) + 12 * nv + 16 * h.num_tris as usize;
        let expected = frames_at + frames_size(&f.frames, 24 + 8 * nv) + f.trailing.len();
        assert_eq!(bytes.len(), expected, "{name}");
        // The first frame is simple: type word, bbox, name, high block, low block.
        assert_eq!(i32_at(bytes, frames_at), 0);
        let high = frames_at + 4 + 24;
        let low = high + 4 * nv;
        for i in 0..nv {
            for a in 0..3 {
                assert_eq!(bytes[low + 4 * i + a], fixtures::md16_low_byte(0, i, a));
            }
            // The fixtures repeat the high block's normal index in the low block.
            assert_eq!(bytes[low + 4 * i + 3], bytes[high + 4 * i + 3]);
        }
        // And every parsed pose holds the fixture's low bytes.
        for (k, p) in f.poses().enumerate() {
            for (i, v) in p.low.iter().enumerate() {
                assert_eq!(
                    v.v,
                    std::array::from_fn(|a| fixtures::md16_low_byte(k, i, a))
                );
            }
        }
    }
}

#[test]
fn hexen2_layout_has_num_st_verts_and_16_byte_triangles() {
    for (name, bytes, f) in parsed::<Hexen2>("hexen2_", b"RAPO", 50) {
        let h = &f.header;
        assert_eq!(i32_at(bytes, 84), h.num_st_verts, "{name}");
        assert_eq!(h.num_st_verts as usize, f.texcoords.len());
        let tris_at = 88 + skins_size(&f.skins) + 12 * f.texcoords.len();
        for (i, t) in f.triangles.iter().enumerate() {
            let at = tris_at + 16 * i;
            assert_eq!(i32_at(bytes, at), t.facesfront);
            for k in 0..3 {
                assert_eq!(u16_at(bytes, at + 4 + 2 * k), t.vertex[k], "{name}");
                assert_eq!(u16_at(bytes, at + 10 + 2 * k), t.st[k], "{name}");
            }
        }
        let nv = h.mdl.num_verts as usize;
        let expected = tris_at
            + 16 * f.triangles.len()
            + frames_size(&f.frames, 24 + 4 * nv)
            + f.trailing.len();
        assert_eq!(bytes.len(), expected, "{name}");
    }
}

// ---------------------------------------------------------------------------------------------
// Model values.

/// The UV of a texture coordinate at its texel centre, shifted by half the skin for an
/// on-seam one on a back-facing triangle.
fn uv(h: &quake_mdl::Header, tc: quake_mdl::TexCoord, facesfront: i32) -> [f32; 2] {
    let (w, h) = (h.skinwidth, h.skinheight);
    let mut s = tc.s as f32;
    let t = tc.t;
    if facesfront == 0 && tc.onseam != 0 {
        s += (w / 2) as f32;
    }
    [(s + 0.5) / w as f32, (t as f32 + 0.5) / h as f32]
}

/// Asserts that model vertex `mv` of `mesh` holds, in every pose, the decoded position
/// (`scale * v + translate`) and the table normal of the file vertex `verts` gives per pose.
fn check_poses(
    mesh: &retromodel::model::Mesh,
    mv: usize,
    verts: impl Iterator<Item = Vertex>,
    scale: [f32; 3],
    translate: [f32; 3],
    name: &str,
) {
    for (pi, pv) in verts.enumerate() {
        let want: [f32; 3] = std::array::from_fn(|a| scale[a] * pv.v[a] as f32 + translate[a]);
        assert_eq!(mesh.morph_targets[pi].positions[mv], want, "{name}");
        assert_eq!(
            mesh.morph_targets[pi].normals[mv],
            ANORMS[pv.normal_index as usize]
        );
    }
}

#[test]
fn qtest_model_follows_quake_formulas_with_unnamed_frames() {
    for (name, bytes) in named("qtest_") {
        let f = QTestFile::parse(&bytes, &limits()).unwrap();
        let c = quake_mdl::to_model(&f, &ConvertOptions::default(), &NoFiles);
        let model = c.model;
        model.validate().unwrap();
        let h = &f.header;
        let mesh = &model.meshes[0];
        let poses: Vec<_> = f.poses().collect();
        assert_eq!(mesh.morph_targets.len(), poses.len(), "{name}");
        assert!(model.frames.iter().all(|fr| fr.name.is_empty()), "{name}");
        for (ti, tri) in f.triangles.iter().enumerate() {
            for (k, &vi) in tri.vertex.iter().enumerate() {
                let mv = mesh.triangles[ti][k] as usize;
                assert_eq!(mesh.source_vertices[mv], vi as u32);
                let tc = f.texcoords[vi as usize];
                let want_uv = uv(h, tc, tri.facesfront);
                assert_eq!(mesh.uvs[mv], want_uv, "{name}");
                let verts = poses.iter().map(|pose| pose.verts[vi as usize]);
                check_poses(mesh, mv, verts, h.scale, h.translate, name);
            }
        }
        // QTest files have no flags: no holes, whatever the pictures hold.
        for skin in &model.skins {
            for p in &skin.pictures {
                if let retromodel::image::Pixels::Indexed {
                    transparent_index, ..
                } = &p.pixels
                {
                    assert_eq!(*transparent_index, None, "{name}");
                }
            }
        }
    }
}

#[test]
fn md16_positions_combine_high_and_low_bytes() {
    for (name, bytes) in named("md16_") {
        let f = Md16File::parse(&bytes, &limits()).unwrap();
        let model = quake_mdl::to_model(&f, &ConvertOptions::default(), &NoFiles).model;
        model.validate().unwrap();
        let h = &f.header;
        let mesh = &model.meshes[0];
        let poses: Vec<_> = f.poses().collect();
        assert_eq!(mesh.morph_targets.len(), poses.len());
        assert_eq!(model.frames.len(), poses.len());
        let mut finer = 0;
        for (ti, tri) in f.triangles.iter().enumerate() {
            for (k, &vi) in tri.vertex.iter().enumerate() {
                let mv = mesh.triangles[ti][k] as usize;
                let vi = vi as usize;
                assert_eq!(mesh.source_vertices[mv], vi as u32);
                for (pi, pose) in poses.iter().enumerate() {
                    let (hi, lo) = (pose.verts[vi], pose.low[vi]);
                    // The 16-bit value over 256 (exact in f32), scaled and translated.
                    let want: [f32; 3] = std::array::from_fn(|a| {
                        let v16 = u32::from(hi.v[a]) * 256 + u32::from(lo.v[a]);
                        h.scale[a] * (v16 as f32 / 256.0) + h.translate[a]
                    });
                    let got = mesh.morph_targets[pi].positions[mv];
                    assert_eq!(got, want, "{name}: pose {pi} vertex {vi}");
                    let coarse: [f32; 3] =
                        std::array::from_fn(|a| h.scale[a] * hi.v[a] as f32 + h.translate[a]);
                    for a in 0..3 {
                        // Within one step of the 8-bit position, above it by low/256 steps.
                        let frac = (got[a] - coarse[a]) / h.scale[a];
                        assert!((frac - lo.v[a] as f32 / 256.0).abs() < 1e-3, "{name}");
                        if lo.v[a] != 0 {
                            finer += 1;
                        }
                    }
                    assert_eq!(
                        mesh.morph_targets[pi].normals[mv],
                        ANORMS[hi.normal_index as usize]
                    );
                }
            }
        }
        assert!(finer > 0, "{name}: low bytes make a difference");
        // Names and bounds as Quake's.
        for (fr, p) in model.frames.iter().zip(&poses) {
            assert_eq!(fr.name, quake_mdl::name_str(&p.name));
            assert_eq!(fr.bounds_min, quake_mdl::decode_position(h, p.bboxmin.v));
        }
    }
}

#[test]
fn hexen2_mesh_uses_the_separate_st_indices() {
    for (name, bytes) in named("hexen2_") {
        let f = Hexen2File::parse(&bytes, &limits()).unwrap();
        let model = quake_mdl::to_model(&f, &ConvertOptions::default(), &NoFiles).model;
        model.validate().unwrap();
        let h = &f.header.mdl;
        let mesh = &model.meshes[0];
        let poses: Vec<_> = f.poses().collect();
        assert_eq!(mesh.morph_targets.len(), poses.len());
        // One mesh vertex per distinct (vertex, st, back side) corner.
        let mut keys = Vec::new();
        for (ti, tri) in f.triangles.iter().enumerate() {
            for k in 0..3 {
                let (vi, st) = (tri.vertex[k] as usize, tri.st[k] as usize);
                let tc = f.texcoords[st];
                let back = tri.facesfront == 0 && tc.onseam != 0;
                if !keys.contains(&(vi, st, back)) {
                    keys.push((vi, st, back));
                }
                let mv = mesh.triangles[ti][k] as usize;
                assert_eq!(mv, keys.iter().position(|x| *x == (vi, st, back)).unwrap());
                assert_eq!(mesh.source_vertices[mv], vi as u32, "{name}");
                let want_uv = uv(h, tc, tri.facesfront);
                assert_eq!(mesh.uvs[mv], want_uv, "{name}: triangle {ti} corner {k}");
                let verts = poses.iter().map(|pose| pose.verts[vi]);
                check_poses(mesh, mv, verts, h.scale, h.translate, name);
            }
        }
        assert_eq!(mesh.positions.len(), keys.len(), "{name}");
        assert_eq!(mesh.source_vertices.len(), keys.len(), "{name}");
    }
    // The separate back-side texture coordinates split the equator vertices.
    let f = Hexen2File::parse(fixture("hexen2_separate_st"), &limits()).unwrap();
    let mesh = &quake_mdl::to_model(&f, &Default::default(), &NoFiles)
        .model
        .meshes[0];
    let copies = mesh.source_vertices.iter().filter(|&&v| v == 0).count();
    assert_eq!(copies, 2);
}

#[test]
fn hexen2_seam_rule_decides_like_quake() {
    let bytes = fixture("hexen2_seam");
    let mut f = Hexen2File::parse(bytes, &limits()).unwrap();
    for tc in &mut f.texcoords {
        if tc.onseam != 0 {
            tc.onseam = 1; // not bit 0x20
        }
    }
    let gl = quake_mdl::to_model(&f, &ConvertOptions::default(), &NoFiles).model;
    let soft = ConvertOptions {
        seam_rule: retromodel::SeamRule::Bit0x20,
        ..ConvertOptions::default()
    };
    let sw = quake_mdl::to_model(&f, &soft, &NoFiles).model;
    assert!(gl.meshes[0].positions.len() > sw.meshes[0].positions.len());
}

// ---------------------------------------------------------------------------------------------
// Damaged files.

fn parse_error(format: retromodel::registry::Format, bytes: &[u8]) -> String {
    Document::parse_as(format, bytes, &limits())
        .unwrap_err()
        .to_string()
}

#[test]
fn hexen2_indices_out_of_range_fail_with_their_offset() {
    let base = fixtures::hexen2(&fixtures::Hexen2Spec::default());
    let tris_at = 88 + skins_size(&base.skins) + 12 * base.texcoords.len();
    let n_st = base.header.num_st_verts;

    let mut f = base.clone();
    f.triangles[2].st[1] = n_st as u16;
    let bytes = f.write();
    let at = tris_at + 16 * 2 + 10 + 2;
    assert_eq!(
        parse_error(quake_mdl::HEXEN2_MDL, &bytes),
        format!("hexen2-mdl: triangle 2: st index {n_st} out of range (num_st_verts = {n_st}) at offset {at:#x}")
    );
    assert_eq!(
        Hexen2File::parse(&bytes, &limits()).unwrap_err().kind,
        retromodel::ErrorKind::IndexOutOfRange
    );

    let mut f = base.clone();
    f.triangles[0].vertex[0] = 0xFFFF;
    let at = tris_at + 4;
    assert_eq!(
        parse_error(quake_mdl::HEXEN2_MDL, &f.write()),
        format!("hexen2-mdl: triangle 0: vertex index 65535 out of range (num_verts = 6) at offset {at:#x}")
    );

    let mut f = base.clone();
    f.header.num_st_verts = -1;
    assert_eq!(
        parse_error(quake_mdl::HEXEN2_MDL, &f.write()),
        "hexen2-mdl: negative count num_st_verts = -1 at offset 0x54"
    );

    let mut f = base;
    f.header.num_st_verts = 1000;
    let left = f.write().len() - 88 - skins_size(&f.skins);
    assert_eq!(
        parse_error(quake_mdl::HEXEN2_MDL, &f.write()),
        format!("hexen2-mdl: num_st_verts = 1000 needs at least 12000 bytes but only {left} are left at offset 0x54")
    );
}

#[test]
fn md16_truncated_low_block_fails_at_its_offset() {
    // A simple frame, then a group of three: the counts' minimum sizes still fit when the
    // last pose's low block is cut, so the pose read itself reports it.
    let spec = fixtures::Spec {
        simple_frames: 1,
        frame_group: true,
        ..fixtures::Spec::default()
    };
    let full = fixtures::md16(&spec).write();
    let cut = &full[..full.len() - 4];
    let low_at = full.len() - 6 * 4;
    assert_eq!(
        parse_error(quake_mdl::QUAKEFORGE_MD16, cut),
        format!("quakeforge-md16: frame 1: group frame 2: low bytes: unexpected end of data (needed 24 bytes, 20 left) at offset {low_at:#x}")
    );
    assert!(Md16File::parse(&full, &limits()).is_ok());
}

#[test]
fn wrong_versions_and_magics_name_the_variant() {
    let mut rapo = fixture("hexen2_minimal").to_vec();
    rapo[4] = 6;
    assert_eq!(
        parse_error(quake_mdl::HEXEN2_MDL, &rapo),
        "hexen2-mdl: header: unsupported version 6 (expected 50) at offset 0x4"
    );
    let mut md16 = fixture("md16_minimal").to_vec();
    md16[4] = 3;
    assert_eq!(
        parse_error(quake_mdl::QUAKEFORGE_MD16, &md16),
        "quakeforge-md16: header: unsupported version 3 (expected 6) at offset 0x4"
    );
    // Detection goes by the magic alone.
    assert_eq!(
        Document::parse(&md16, &limits()).unwrap_err().to_string(),
        "quakeforge-md16: header: unsupported version 3 (expected 6) at offset 0x4"
    );
    let quake = fixture("minimal");
    assert_eq!(
        parse_error(quake_mdl::QTEST_MDL, quake),
        "qtest-mdl: header: unsupported version 6 (expected 3) at offset 0x4"
    );
    assert_eq!(
        parse_error(quake_mdl::HEXEN2_MDL, quake),
        "hexen2-mdl: header: bad magic \"IDPO\": this is Quake MDL at offset 0x0"
    );
    let mut idpo7 = quake.to_vec();
    idpo7[4] = 7;
    assert_eq!(
        Document::parse(&idpo7, &limits()).unwrap_err().to_string(),
        "quake-mdl: header: unsupported version 7 (expected 6) at offset 0x4"
    );
    // A QTest file cut inside its header.
    let qtest = fixture("qtest_minimal");
    assert_eq!(
        parse_error(quake_mdl::QTEST_MDL, &qtest[..74]),
        "qtest-mdl: header: unexpected end of data (needed 4 bytes, 2 left) at offset 0x48"
    );
}

// ---------------------------------------------------------------------------------------------
// info and validate.

fn header_value<'s>(s: &'s retromodel::Summary, key: &str) -> Option<&'s Value> {
    s.header.iter().find(|(k, _)| *k == key).map(|(_, v)| v)
}

#[test]
fn info_summary_names_the_variant() {
    for (prefix, format, ident, version) in [
        ("qtest_", "qtest-mdl", "IDPO", 3),
        ("md16_", "quakeforge-md16", "MD16", 6),
        ("hexen2_", "hexen2-mdl", "RAPO", 50),
    ] {
        for (name, bytes) in named(prefix) {
            let doc = Document::parse(&bytes, &limits()).unwrap();
            let c = doc.to_model(&ConvertOptions::default(), &NoFiles);
            let s = doc.summary(&c);
            assert_eq!(s.format, format, "{name}");
            assert_eq!(s.version, version, "{name}");
            assert_eq!(header_value(&s, "ident"), Some(&Value::Text(ident.into())));
            assert_eq!(s.poses, c.model.frames.len(), "{name}");
            assert_eq!(s.triangles, c.model.triangle_count(), "{name}");
            let qtest = prefix == "qtest_";
            assert_eq!(header_value(&s, "flags").is_none(), qtest, "{name}");
            assert_eq!(header_value(&s, "size").is_none(), qtest, "{name}");
            assert_eq!(
                header_value(&s, "num_st_verts").is_some(),
                prefix == "hexen2_",
                "{name}"
            );
        }
    }
    let f = Hexen2File::parse(fixture("hexen2_separate_st"), &limits()).unwrap();
    let doc = Document::parse(fixture("hexen2_separate_st"), &limits()).unwrap();
    let s = doc.summary(&doc.to_model(&Default::default(), &NoFiles));
    assert_eq!(
        header_value(&s, "num_st_verts"),
        Some(&Value::Int(f.texcoords.len() as i64))
    );
    assert_eq!(s.vertices, f.header.mdl.num_verts as usize);
}

#[test]
fn validate_defaults_to_an_engine_that_loads_the_variant() {
    for (prefix, engine) in [
        ("minimal", "quakespasm"),
        ("qtest_", "fteqw"),
        ("md16_", "fteqw"),
        ("hexen2_", "hexen2"),
    ] {
        for (name, bytes) in fixtures::all()
            .into_iter()
            .filter(|(n, _)| n.starts_with(prefix))
        {
            let doc = Document::parse(&bytes, &limits()).unwrap();
            assert_eq!(doc.default_engine(), engine, "{name}");
            let errors: Vec<_> = doc
                .validate(None)
                .unwrap()
                .into_iter()
                .filter(|d| d.severity == Severity::Error)
                .collect();
            assert!(errors.is_empty(), "{name}: {errors:?}");
        }
    }
    // An engine that does not load the variant says so first.
    let doc = Document::parse(fixture("hexen2_minimal"), &limits()).unwrap();
    let d = doc.validate(Some("quakespasm")).unwrap();
    assert_eq!(d[0].severity, Severity::Error);
    assert_eq!(
        d[0].message,
        "quakespasm does not load Hexen II mission-pack MDL (RAPO) files"
    );
    let doc = Document::parse(fixture("qtest_minimal"), &limits()).unwrap();
    assert_eq!(
        doc.validate(Some("hexen2")).unwrap()[0].message,
        "hexen2 does not load QTest MDL (version 3) files"
    );
    // Hexen II loads Quake's files too.
    let doc = Document::parse(fixture("minimal"), &limits()).unwrap();
    assert!(doc.validate(Some("hexen2")).unwrap().is_empty());
}

#[test]
fn hexen2_limits() {
    // More texture coordinates than Hexen II's static array holds.
    let mut f = fixtures::hexen2(&fixtures::Hexen2Spec::default());
    let extra = f.texcoords[0];
    f.texcoords.resize(2001, extra);
    f.header.num_st_verts = 2001;
    let bytes = f.write();
    let file = Hexen2File::parse(&bytes, &limits()).unwrap();
    let d = quake_mdl::validate(&file, quake_mdl::Engine::Hexen2);
    assert_eq!(
        d.iter().map(|d| d.message.as_str()).collect::<Vec<_>>(),
        ["2001 texture coordinates overflow hexen2's array of 2000"]
    );
    assert!(quake_mdl::validate(&file, quake_mdl::Engine::Fteqw).is_empty());
    // A skin width that is not a multiple of 4: the software loader refuses it.
    let mut f = fixtures::hexen2(&fixtures::Hexen2Spec::default());
    f.header.mdl.skinwidth = 18;
    let d = quake_mdl::validate(&f, quake_mdl::Engine::Hexen2);
    assert!(d
        .iter()
        .any(|d| d.severity == Severity::Error && d.message.contains("not a multiple of 4")));
}

#[test]
fn md16_low_normal_bytes_that_differ_are_reported() {
    let mut f = fixtures::md16(&fixtures::Spec::default());
    let Frame::Simple(p) = &mut f.frames[0] else {
        panic!("simple frame")
    };
    p.low[0].normal_index = p.verts[0].normal_index.wrapping_add(1);
    let d = quake_mdl::validate(&f, quake_mdl::Engine::Fteqw);
    assert_eq!(d.len(), 1);
    assert!(d[0].message.starts_with("1 low-block normal bytes differ"));
}

#[test]
fn variants_convert_to_quake_mdl() {
    for (name, bytes) in named("hexen2_")
        .into_iter()
        .chain(named("md16_"))
        .chain(named("qtest_"))
    {
        let model = retromodel::read(&bytes, &limits(), &NoFiles).unwrap();
        let w = quake_mdl::from_model(&model, &Default::default()).unwrap();
        let written = w.file.write();
        let again = quake_mdl::File::parse(&written, &limits()).unwrap();
        assert_eq!(again.pose_count(), model.frames.len(), "{name}");
        assert_eq!(again.triangles.len(), model.triangle_count(), "{name}");
    }
}

/// The warning for normal indices past the table counts each file vertex once per pose in
/// every layout: QTest and MD16 (counted while decoding) and Hexen II, whose meshes leave
/// out unused vertices and order the rest by first use (counted over the file's vertices).
#[test]
fn normals_past_the_table_are_counted_per_file_vertex_in_every_layout() {
    fn mark<P>(frames: &mut [Frame<P>], verts: impl Fn(&mut P) -> &mut Vec<Vertex>) -> usize {
        let mut marked = 0;
        for frame in frames {
            if let Frame::Simple(p) = frame {
                for v in verts(p).iter_mut().step_by(2) {
                    v.normal_index = 170;
                    marked += 1;
                }
            }
        }
        marked
    }
    let warning =
        |n: usize| format!("{n} vertex normals index past the 162-entry table; (0, 0, 1) used");
    let options = ConvertOptions::default();
    let spec = fixtures::Spec {
        seam: true,
        ..Default::default()
    };

    let mut q = fixtures::qtest(&spec);
    let n = mark(&mut q.frames, |p| &mut p.verts);
    let w = quake_mdl::to_model(&q, &options, &NoFiles).warnings;
    assert!(n > 0 && w.contains(&warning(n)), "qtest: {w:?}");

    let mut m = fixtures::md16(&spec);
    let n = mark(&mut m.frames, |p| &mut p.verts);
    let w = quake_mdl::to_model(&m, &options, &NoFiles).warnings;
    assert!(n > 0 && w.contains(&warning(n)), "md16: {w:?}");

    let mut h = fixtures::hexen2(&fixtures::Hexen2Spec {
        base: spec.clone(),
        separate_back_st: true,
        unused: true,
    });
    let n = mark(&mut h.frames, |p| &mut p.verts);
    let w = quake_mdl::to_model(&h, &options, &NoFiles).warnings;
    assert!(n > 0 && w.contains(&warning(n)), "hexen2: {w:?}");
}

/// Every pose type has `name` and `low` fields; a layout that stores no name (QTest) or no
/// low block (Quake, Hexen II, QTest) leaves them out of the file whatever they hold.
#[test]
fn fields_a_layout_does_not_store_are_not_written() {
    let junk_low = |n: usize| {
        vec![
            Vertex {
                v: [7, 8, 9],
                normal_index: 3
            };
            n
        ]
    };
    let quake = fixtures::build(&fixtures::Spec::everything());
    let mut q = quake.clone();
    for f in &mut q.frames {
        if let Frame::Simple(p) = f {
            p.low = junk_low(p.verts.len());
        }
    }
    assert_eq!(q.write(), quake.write());
    let qtest = fixtures::qtest(&fixtures::Spec::everything());
    let mut t = qtest.clone();
    for f in &mut t.frames {
        if let Frame::Simple(p) = f {
            p.name = *b"not stored\0\0\0\0\0\0";
            p.low = junk_low(p.verts.len());
        }
    }
    assert_eq!(t.write(), qtest.write());
    // QTest's header keeps Quake's fields; flags and size are not stored either.
    t.header.flags = 8;
    assert_eq!(t.write(), qtest.write());
}
