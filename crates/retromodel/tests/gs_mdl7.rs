//! 3D GameStudio MDL7: generated fixtures checked by value against a reference evaluation of
//! the layout, invalid files with their exact error texts, and every `MDL7` file of the
//! corpus against the independent parser's `HEADERS.jsonl`.

mod common;

use common::{assert_cases, assert_error, set_i32, set_u16, Case};

use std::collections::HashMap;

use retromodel::formats::gs_mdl7::{self, fixtures, File, Normal, SkinData, NONE16, NO_MATERIAL};
use retromodel::formats::normals::ANORMS;
use retromodel::image::{pcx, Palette, Pixels};
use retromodel::{ConvertOptions, ErrorKind, Limits, MemoryFiles, NoFiles};

fn parse(bytes: &[u8]) -> File<'_> {
    File::parse(bytes, &Limits::default()).expect("fixture parses")
}

fn err(bytes: &[u8]) -> retromodel::Error {
    File::parse(bytes, &Limits::default()).expect_err("must fail")
}

/// Row-vector matrix product `a * b`.
fn mul(a: &[f32; 16], b: &[f32; 16]) -> [f32; 16] {
    let mut m = [0.0; 16];
    for r in 0..4 {
        for c in 0..4 {
            m[4 * r + c] = (0..4).map(|k| a[4 * r + k] * b[4 * k + c]).sum();
        }
    }
    m
}

/// The pose of group `g` in frame `f` as the layout describes it, computed here from the raw
/// records: base vertices, the frame's replacements, then the bones' motion with the
/// deformer weights (or the vertex's bone).
fn reference_pose(file: &File<'_>, g: usize, f: usize) -> Vec<[f32; 3]> {
    let group = &file.groups[g];
    let mut pos: Vec<[f32; 3]> = group.vertices.iter().map(|v| v.position).collect();
    if let Some(frame) = group.frames.get(f) {
        for v in &frame.vertices {
            pos[v.bone as usize] = v.position;
        }
    }
    let nb = file.bones.len();
    let mut local: Vec<Option<[f32; 16]>> = vec![None; nb];
    for t in file
        .groups
        .iter()
        .filter_map(|gr| gr.frames.get(f))
        .flat_map(|fr| &fr.transforms)
    {
        if (t.bone as usize) < nb && local[t.bone as usize].is_none() {
            local[t.bone as usize] = Some(t.matrix);
        }
    }
    if local.iter().all(|l| l.is_none()) {
        return pos;
    }
    let ident = std::array::from_fn(|i| if i % 5 == 0 { 1.0 } else { 0.0 });
    let mut global: Vec<[f32; 16]> = Vec::new();
    for (b, bone) in file.bones.iter().enumerate() {
        let m = local[b].unwrap_or(ident);
        global.push(if (bone.parent as usize) < b {
            mul(&m, &global[bone.parent as usize])
        } else {
            m
        });
    }
    let mut weights: Vec<Vec<(usize, f32)>> = vec![Vec::new(); pos.len()];
    for d in file.deformers.iter().filter(|d| d.group_index == g as i32) {
        for e in &d.elements {
            for w in &e.weights {
                weights[w.vertex as usize].push((e.index as usize, w.weight));
            }
        }
    }
    for (v, p) in pos.iter_mut().enumerate() {
        let mut list = weights[v].clone();
        let sum: f32 = list.iter().map(|x| x.1).sum();
        if sum > 0.0 {
            list.iter_mut().for_each(|x| x.1 /= sum);
        } else if (group.vertices[v].bone as usize) < nb {
            list = vec![(group.vertices[v].bone as usize, 1.0)];
        }
        if list.is_empty() {
            continue;
        }
        let mut out = [0.0f32; 3];
        for (j, w) in list {
            let m = &global[j];
            for (c, o) in out.iter_mut().enumerate() {
                *o += w * (p[0] * m[c] + p[1] * m[4 + c] + p[2] * m[8 + c] + m[12 + c]);
            }
        }
        *p = out;
    }
    pos
}

fn close(a: [f32; 3], b: [f32; 3]) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= 1e-5 * (1.0 + b[k].abs()))
}

#[test]
fn every_fixture_round_trips_and_converts_to_a_valid_model() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        assert!(file.write() == bytes, "{name}: round trip differs");
        assert_eq!(
            file.header.data_size as usize,
            file.model_data_len(),
            "{name}"
        );
        let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
        c.model.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(c.model.frames.len(), file.frame_count(), "{name}");
    }
}

#[test]
fn every_triangle_record_size_round_trips_byte_for_byte() {
    // Fuzzing found sizes cutting a field (7..=11, 13..=15, 17..=21, 23..=25) wrote that
    // field's "none" value back instead of the bytes read.
    let sizes = fixtures::triangle_sizes();
    assert_eq!(sizes.len(), 25);
    for (size, bytes) in sizes {
        let file = parse(&bytes);
        assert_eq!(file.header.sizes.triangle, size);
        assert!(
            file.write() == bytes,
            "triangle size {size}: round trip differs"
        );
        let whole = gs_mdl7::triangle_fields_len(size as usize);
        let partial = size as usize - whole;
        for t in file.groups.iter().flat_map(|g| &g.triangles) {
            assert_eq!(t.extra.len(), partial, "triangle size {size}");
            if whole < 12 {
                assert_eq!(t.texcoord, [NONE16; 3], "triangle size {size}");
            }
            if whole < 16 {
                assert_eq!(t.material, NO_MATERIAL, "triangle size {size}");
            }
        }
        // Bytes that are neither zero nor a "none" value come back as they were.
        let mut edited = file.clone();
        for t in edited.groups.iter_mut().flat_map(|g| &mut g.triangles) {
            t.extra = (0..partial).map(|k| 0xA5 ^ k as u8).collect();
        }
        let written = edited.write();
        assert_eq!(written.len(), bytes.len(), "triangle size {size}");
        let again = parse(&written);
        assert_eq!(again, edited, "triangle size {size}");
        assert!(again.write() == written, "triangle size {size}");
        let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
        c.model
            .validate()
            .unwrap_or_else(|e| panic!("triangle size {size}: {e}"));
    }
}

#[test]
fn meshes_triangles_uvs_and_every_frame_follow_the_layout() {
    for (name, bytes) in fixtures::all() {
        let file = parse(&bytes);
        let model = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
        let nskins = file.skin_count();
        let tri_size = file.header.sizes.triangle;
        // Each raw triangle in order finds its corners in the next unread triangle of the
        // mesh for its group and material.
        let mut cursor: HashMap<usize, usize> = HashMap::new();
        for (g, group) in file.groups.iter().enumerate() {
            let gname = gs_mdl7::name_str(&group.name);
            for (ti, t) in group.triangles.iter().enumerate() {
                let skin = if tri_size >= 16 {
                    (t.material != NO_MATERIAL && (t.material as usize) < nskins)
                        .then_some(t.material as usize)
                } else {
                    (nskins > 0).then_some(0)
                };
                let mi = model
                    .meshes
                    .iter()
                    .position(|m| m.name == gname && m.skin == skin)
                    .unwrap_or_else(|| panic!("{name}: no mesh for group {g} skin {skin:?}"));
                let mesh = &model.meshes[mi];
                let k = cursor.entry(mi).or_insert(0);
                // The Model turns GameStudio's counter-clockwise triangles around.
                let [a, b, c] = mesh.triangles[*k];
                let corners = [a, c, b];
                *k += 1;
                for (c, &corner) in corners.iter().enumerate() {
                    let mv = corner as usize;
                    assert_eq!(mesh.source_vertices[mv], t.vertex[c] as u32, "{name} {ti}");
                    let want = group
                        .texcoords
                        .get(t.texcoord[c] as usize)
                        .map_or([0.0, 0.0], |tc| [tc.u, tc.v]);
                    assert_eq!(mesh.uvs[mv], want, "{name}: triangle {ti} corner {c}");
                }
            }
            // Every frame of every mesh of the group is the reference pose.
            for f in 0..file.frame_count() {
                let pose = reference_pose(&file, g, f);
                for mesh in model.meshes.iter().filter(|m| m.name == gname) {
                    for (mv, &sv) in mesh.source_vertices.iter().enumerate() {
                        let got = mesh.morph_targets[f].positions[mv];
                        assert!(
                            close(got, pose[sv as usize]),
                            "{name}: group {g} frame {f} vertex {sv}: {got:?} != {:?}",
                            pose[sv as usize]
                        );
                    }
                }
            }
        }
        for (mi, k) in cursor {
            assert_eq!(model.meshes[mi].triangles.len(), k, "{name}: mesh {mi}");
        }
    }
}

#[test]
fn literal_values_of_the_pyramid_with_bones() {
    let file = fixtures::build(&fixtures::Spec {
        bones: true,
        frames: 3,
        ..Default::default()
    });
    let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
    let model = &c.model;
    assert_eq!(model.joints.len(), 2);
    assert_eq!(model.joints[0].name, "root");
    assert_eq!(model.joints[0].parent, None);
    assert_eq!(model.joints[1].name, "apex");
    assert_eq!(model.joints[1].parent, Some(0));
    assert_eq!(model.joints[1].translation, [0.0, 0.0, 2.0]);
    assert_eq!(model.joints[1].rotation, [0.0, 0.0, 0.0, 1.0]);
    assert!(model.animations.is_empty());
    // Sides (material 0) and base (material 1): two meshes; the base splits vertex 0.
    assert_eq!(model.meshes.len(), 2);
    let sides = &model.meshes[0];
    assert_eq!(sides.skin, Some(0));
    assert_eq!(sides.source_vertices, [0, 4, 1, 2, 3]);
    // The file's (0, 1, 2), (2, 1, 3), ... turned to the Model's clockwise fronts.
    assert_eq!(
        sides.triangles,
        [[0, 2, 1], [2, 3, 1], [3, 4, 1], [4, 0, 1]]
    );
    let base = &model.meshes[1];
    assert_eq!(base.skin, Some(1));
    assert_eq!(base.source_vertices, [0, 1, 2, 0, 3]);
    assert_eq!(base.uvs[0], [0.25, 0.25]);
    assert_eq!(base.uvs[3], [0.0, 0.0]);
    assert_eq!(sides.skin_size, Some([4, 4]));
    assert_eq!(base.skin_size, None); // an external skin has no size in the file
                                      // The apex: frame 0 as stored, frame 2 raised by 1 and moved by 0.75 * (0, 0.5, 0).
    assert_eq!(sides.morph_targets[0].positions[1], [0.0, 0.0, 2.0]);
    assert_eq!(sides.morph_targets[2].positions[1], [0.0, 0.375, 3.0]);
    assert_eq!(sides.morph_targets[2].positions[0], [-1.0, -1.0, 0.0]);
    assert_eq!(sides.positions, sides.morph_targets[0].positions);
    // Weights: deformer for the apex (0.25 root, 0.75 apex), bone index for the rest.
    assert_eq!(sides.joint_weights[1].as_slice(), [(0, 0.25), (1, 0.75)]);
    assert_eq!(sides.joint_weights[0].as_slice(), [(0, 1.0)]);
    assert_eq!(model.frames[2].name, "walk 0");
    assert_eq!(model.frames[2].bounds_max, [1.0, 1.0, 3.0]);
    let clips: Vec<(&str, usize, usize)> = model
        .clips
        .iter()
        .map(|c| (c.name.as_str(), c.first, c.count))
        .collect();
    assert_eq!(clips, [("stand", 0, 2), ("walk", 2, 1)]);
    assert_eq!(
        c.warnings,
        ["skin 1: external picture \"skin.pcx\" not found"]
    );
}

#[test]
fn short_records_read_table_normals_and_give_every_triangle_the_first_skin() {
    let bytes = fixtures::build(&fixtures::Spec::short_records()).write();
    let file = parse(&bytes);
    assert!(file.bones.iter().all(|b| b.name.is_empty()));
    let Normal::Index { index, .. } = file.groups[0].vertices[4].normal else {
        panic!("16-byte vertices store a normal index");
    };
    assert_eq!(file.groups[0].triangles[0].material, NO_MATERIAL);
    assert_eq!(file.groups[0].triangles[0].texcoord2, [NONE16; 3]);
    let model = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles).model;
    assert_eq!(model.joints[0].name, "bone0");
    assert_eq!(model.meshes.len(), 1);
    assert_eq!(model.meshes[0].skin, Some(0));
    assert_eq!(model.meshes[0].normals[1], ANORMS[index as usize]);
}

#[test]
fn every_skin_kind_decodes_or_says_why_not() {
    let file = fixtures::build(&fixtures::Spec::everything());
    let palette = Palette::QUAKE;
    let mut files = MemoryFiles::default();
    files.0.insert(
        "pyramid.pcx".to_string(),
        pcx::encode_indexed(2, 1, &[5, 250], &palette),
    );
    let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &files);
    let skins = &c.model.skins;
    assert_eq!(skins.len(), 6);
    // 8x8 8-8-8 with mip levels and a material: B, G, R bytes.
    let SkinData::Pixels { pixels, .. } = &file.groups[0].skins[0].data else {
        panic!()
    };
    let p = &skins[0].pictures[0];
    assert_eq!((p.width, p.height), (8, 8));
    let rgba = p.to_rgba8();
    assert_eq!(&rgba[..4], &[pixels[2], pixels[1], pixels[0], 255]);
    assert_eq!(skins[0].name, "SKIN#00");
    // External PCX through the resolver.
    assert_eq!(skins[1].name, "pyramid.pcx");
    assert_eq!(skins[1].pictures[0].width, 2);
    // 8-bit indices with the Quake palette.
    let Pixels::Indexed { indices, .. } = &skins[2].pictures[0].pixels else {
        panic!()
    };
    assert_eq!(indices.len(), 4);
    // A reference copies the pictures of skin 0; material-only and DDS skins have none.
    assert_eq!(skins[3].pictures, skins[0].pictures);
    assert!(skins[4].pictures.is_empty());
    assert!(skins[5].pictures.is_empty());
    assert_eq!(
        c.warnings,
        [
            "8-bit skins decoded with the built-in Quake palette (the level's palette is not \
             in the file)",
            "skin 5: embedded DDS picture not decoded: dds: file of 12 bytes is too short for the header (ends at offset 0x80) at offset 0xc",
            "group 0: the second UV set of 2 triangles is not kept (a mesh has one)",
        ]
    );
    let m = file.groups[0].skins[0].material.as_ref().unwrap();
    assert_eq!(m.diffuse, [1.0, 0.5, 0.25, 1.0]);
    assert_eq!(m.power, 10.0);
    assert_eq!(
        file.groups[0].skins[5].definition.as_deref(),
        Some(&b"material { effect = \"x\"; }"[..])
    );
    // The quad group has no skins and no material: one untextured mesh.
    let quad = c.model.meshes.iter().find(|m| m.name == "quad").unwrap();
    assert_eq!(quad.skin, None);
    assert!(quad.joint_weights.is_empty());
}

#[test]
fn summary_counts_as_the_file_stores_them() {
    let bytes = fixtures::build(&fixtures::Spec::everything()).write();
    let file = parse(&bytes);
    let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
    let s = gs_mdl7::summary(&file, &c);
    assert_eq!(s.format, "gs-mdl7");
    assert_eq!(s.vertices, 9);
    assert_eq!(s.triangles, 8);
    assert_eq!(s.poses, 4);
    assert_eq!(s.skins, 6);
    assert_eq!(s.joints, 2);
    assert_eq!(s.meshes, 2);
    assert_eq!(s.trailing_bytes, 4);
    assert_eq!(s.skin_names[1], "pyramid.pcx");
    assert_eq!(s.skin_pictures, 3);
    assert!(s
        .header
        .iter()
        .any(|(k, v)| *k == "triangle_stc_size" && *v == retromodel::summary::Value::Int(26)));
}

#[test]
fn invalid_files_fail_with_exact_messages() {
    // The minimal fixture: header 48, group header 48..92 (counts at 72..92), skin 0 at 92
    // (record 28 + 4x4x2 pixels), skin 1 at 152 (record 28 + "skin.pcx\0"), texture
    // coordinates at 189, triangles at 237 (26 bytes each), vertices at 393, frame 0 at 523,
    // frame 1 at 547 with its vertex at 571; 597 bytes.
    let bytes = fixtures::minimal();
    assert_eq!(bytes.len(), 597);
    let cases: Vec<Case> = vec![
        (
            "magic",
            Box::new(|b| b[..4].copy_from_slice(b"IDPO")),
            ErrorKind::BadMagic,
            "gs-mdl7: header: bad magic \"IDPO\": this is Quake MDL at offset 0x0",
        ),
        (
            "header",
            Box::new(|b| b.truncate(40)),
            ErrorKind::Truncated,
            "gs-mdl7: header: unexpected end of data (needed 2 bytes, 0 left) at offset 0x28",
        ),
        (
            "negative",
            Box::new(|b| set_i32(b, 84, -1)),
            ErrorKind::BadCount,
            "gs-mdl7: group 0: negative count numverts = -1 at offset 0x54",
        ),
        (
            "huge",
            Box::new(|b| set_i32(b, 88, i32::MAX)),
            ErrorKind::LimitExceeded,
            "gs-mdl7: group 0: numframes = 2147483647 exceeds the limit of 16777216 at offset \
             0x58",
        ),
        (
            "overlong",
            Box::new(|b| set_i32(b, 80, 1000)),
            ErrorKind::BadCount,
            "gs-mdl7: group 0: numtris = 1000 needs at least 26000 bytes but only 360 are left \
             at offset 0x50",
        ),
        (
            "triangle index",
            Box::new(|b| set_u16(b, 237 + 3 * 26 + 2, 9)),
            ErrorKind::IndexOutOfRange,
            "gs-mdl7: group 0: triangle 3: vertex index 9 out of range (numverts = 5) at \
             offset 0x13d",
        ),
        (
            "frame vertex index",
            Box::new(|b| set_u16(b, 571 + 12, 7)),
            ErrorKind::IndexOutOfRange,
            "gs-mdl7: group 0: frame 1: vertex 0: vertex index 7 out of range (numverts = 5) \
             at offset 0x247",
        ),
        (
            "skin type",
            Box::new(|b| set_i32(b, 152, 0x47)),
            ErrorKind::InvalidValue,
            "gs-mdl7: group 0: skin 1: unknown skin type 0x47 at offset 0x98",
        ),
        (
            "structure size",
            Box::new(|b| set_u16(b, 38, 4)),
            ErrorKind::InvalidValue,
            "gs-mdl7: group 0: triangle structure size 4 is smaller than 6 at offset 0x26",
        ),
        (
            "picture",
            Box::new(|b| set_i32(b, 96, 400)),
            ErrorKind::Truncated,
            "gs-mdl7: group 0: skin 0: unexpected end of data (needed 3200 bytes, 477 left) at \
             offset 0x78",
        ),
        (
            "data_size",
            Box::new(|b| set_i32(b, 16, 598)),
            ErrorKind::Truncated,
            "gs-mdl7: data_size = 598 is past the end of the data (597 bytes) at offset 0x10",
        ),
        (
            "entlump",
            Box::new(|b| set_i32(b, 20, 10)),
            ErrorKind::Truncated,
            "gs-mdl7: entlump_size = 10 runs past the end of the data (0 bytes left at offset \
             0x255) at offset 0x14",
        ),
        (
            "truncated",
            Box::new(|b| b.truncate(400)),
            ErrorKind::BadCount,
            "gs-mdl7: group 0: numverts = 5 needs at least 130 bytes but only 7 are left at \
             offset 0x54",
        ),
    ];
    assert_cases(&bytes, cases, err);
    // Materials of another layout are refused where one is read.
    let mut b = fixtures::build(&fixtures::Spec::everything()).write();
    set_u16(&mut b, 34, 60);
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "gs-mdl7: group 0: skin 0: material structure size 60 with colour size 16 is not \
         supported (needs at least 68 with 16) at offset 0x1bf",
    );
    // Without limits the data still bounds every count.
    let mut b = bytes.clone();
    set_i32(&mut b, 88, i32::MAX);
    assert_eq!(
        File::parse(&b, &Limits::none()).unwrap_err().to_string(),
        "gs-mdl7: group 0: numframes = 2147483647 needs at least 51539607528 bytes but only 74 \
         are left at offset 0x58"
    );
}

#[test]
fn unused_bytes_and_odd_references_are_kept_and_reported() {
    let mut file = fixtures::build(&fixtures::Spec {
        bones: true,
        ..Default::default()
    });
    file.unclaimed = b"GAP!".to_vec().into();
    file.header.data_size += 4;
    file.bones[1].parent = 5;
    file.groups[0].vertices[2].bone = 9;
    file.groups[0].triangles[0].material = 7;
    file.groups[0].triangles[1].texcoord[0] = 40;
    let bytes = file.write();
    let parsed = parse(&bytes);
    assert!(parsed.write() == bytes);
    assert_eq!(&parsed.unclaimed[..], b"GAP!");
    let c = gs_mdl7::to_model(&parsed, &ConvertOptions::default(), &NoFiles);
    c.model.validate().unwrap();
    assert_eq!(
        c.warnings,
        [
            "4 bytes between the end of the model data (offset 0x40d) and data_size = 1041 are \
             not model data; kept",
            "skin 1: external picture \"skin.pcx\" not found",
            "bone 1: parent 5 does not come before it; made a root",
            "group 0: 1 triangles name a material past the 2 skins; left untextured",
            "group 0: 1 triangle corners name a texture coordinate past num_stpts = 6; (0, 0) \
             used",
            "group 0: 1 vertices name a bone past bones_num = 2; they do not move with the bones",
        ]
    );
    assert_eq!(c.model.joints[1].parent, None);
}

/// Whether any group's frames differ from each other (vertices or bone transforms).
fn animates(file: &File<'_>) -> bool {
    file.groups.iter().any(|g| {
        g.frames.iter().any(|f| !f.vertices.is_empty())
            || g.frames.windows(2).any(|w| {
                w[0].transforms.len() != w[1].transforms.len()
                    || w[0]
                        .transforms
                        .iter()
                        .zip(&w[1].transforms)
                        .any(|(a, b)| a.matrix != b.matrix)
            })
    })
}

#[test]
fn corpus_mdl7_files() {
    let Some((dir, headers, files)) = common::corpus_with_magic(b"MDL7") else {
        return;
    };
    assert!(files.len() >= 58, "only {} MDL7 files found", files.len());
    let (mut compared, mut animated) = (0, 0);
    for path in &files {
        let (what, bytes) = common::read_named(path);
        let file =
            File::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(file.write() == bytes, "{what}: round trip differs");
        let h = &file.header;
        assert_eq!(h.data_size as usize, file.model_data_len(), "{what}");
        assert!(
            file.unclaimed.is_empty() && file.trailing.is_empty(),
            "{what}"
        );
        let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
        let model = &c.model;
        model.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(model.frames.len(), file.frame_count(), "{what}");
        assert_eq!(model.triangle_count(), file.triangle_count(), "{what}");
        assert_eq!(model.joints.len(), file.bones.len(), "{what}");
        for m in &model.meshes {
            for t in &m.morph_targets {
                assert!(
                    t.positions.iter().flatten().all(|c| c.is_finite()),
                    "{what}: non-finite position"
                );
                for n in &t.normals {
                    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                    assert!((len - 1.0).abs() < 1e-3, "{what}: normal {n:?}");
                }
            }
        }
        if file.frame_count() > 1 && animates(&file) {
            let differs = model.meshes.iter().any(|m| {
                m.morph_targets
                    .windows(2)
                    .any(|w| w[0].positions != w[1].positions)
            });
            assert!(
                differs,
                "{what}: the file animates but every frame is the same"
            );
            animated += 1;
        }

        let rel = common::relative(&dir, path);
        let Some(row) = headers.get(&rel) else {
            continue; // the Assimp test models are not in HEADERS.jsonl
        };
        let n = |k: &str| row[k].as_i64().unwrap_or_else(|| panic!("{what}: {k}"));
        let s = gs_mdl7::summary(&file, &c);
        assert_eq!(s.format, "gs-mdl7");
        assert_eq!(s.version, n("version"), "{what}");
        assert_eq!(s.joints as i64, n("bones_num"), "{what}");
        assert_eq!(s.meshes as i64, n("groups_num"), "{what}");
        assert_eq!(s.vertices as i64, n("total_verts"), "{what}");
        assert_eq!(s.triangles as i64, n("total_tris"), "{what}");
        assert_eq!(s.poses as i64, n("max_frames"), "{what}");
        // The independent parser lists the first 8 groups.
        let groups = row["groups"].as_array().unwrap();
        assert_eq!(groups.len(), file.groups.len().min(8), "{what}");
        let header_skins: i64 = groups.iter().map(|g| g["skins"].as_i64().unwrap()).sum();
        let first_skins: usize = file.groups.iter().take(8).map(|g| g.skins.len()).sum();
        assert_eq!(first_skins as i64, header_skins, "{what}");
        for (k, v) in &s.header {
            let key = if *k == "ident" { continue } else { *k };
            let want = row[key].as_i64().unwrap_or_else(|| panic!("{what}: {key}"));
            assert_eq!(*v, retromodel::summary::Value::Int(want), "{what}: {key}");
        }
        for (g, (want, got)) in groups.iter().zip(&file.groups).enumerate() {
            let gi = |k: &str| want[k].as_i64().unwrap();
            let ctx = format!("{what}: group {g}");
            assert_eq!(got.typ as i64, gi("typ"), "{ctx}");
            assert_eq!(got.deformers as i64, gi("deformers"), "{ctx}");
            assert_eq!(got.max_weights as i64, gi("max_weights"), "{ctx}");
            assert_eq!(got.groupdata_size as i64, gi("size"), "{ctx}");
            assert_eq!(gs_mdl7::name_str(&got.name), want["name"], "{ctx}");
            assert_eq!(got.skins.len() as i64, gi("skins"), "{ctx}");
            assert_eq!(got.texcoords.len() as i64, gi("stpts"), "{ctx}");
            assert_eq!(got.triangles.len() as i64, gi("tris"), "{ctx}");
            assert_eq!(got.vertices.len() as i64, gi("verts"), "{ctx}");
            assert_eq!(got.frames.len() as i64, gi("frames"), "{ctx}");
        }
        // The independent parser stops early on some files (8-bit skins, deformers); where
        // it reached data_size, everything after it is the two lumps.
        if n("parsed_end") == n("data_size") {
            let lumps = (file.entlump.len() + file.medlump.len() + s.trailing_bytes) as i64;
            assert_eq!(lumps, n("trailing_bytes"), "{what}");
        }
        compared += 1;
    }
    assert_eq!(compared, 55, "HEADERS.jsonl rows compared");
    assert!(animated >= 20, "only {animated} animated files");
    eprintln!(
        "{} MDL7 files checked, {compared} against HEADERS.jsonl, {animated} animated",
        files.len()
    );
}

#[test]
fn frames_times_vertices_past_the_allocation_limit_fail_before_allocating() {
    // 3000 vertices and 20000 frames of no vertices: a 560 kB file whose model would hold
    // 60 million positions and normals.
    let mut file = fixtures::build(&fixtures::Spec {
        frames: 1,
        ..Default::default()
    });
    let g = &mut file.groups[0];
    let v = g.vertices[0].clone();
    g.vertices = vec![v; 3000];
    let f = g.frames[0].clone();
    g.frames = vec![f; 20000];
    file.header.data_size = file.model_data_len() as i32;
    let bytes = file.write();
    let t = std::time::Instant::now();
    assert_error(
        &err(&bytes),
        ErrorKind::LimitExceeded,
        "gs-mdl7: decoded data would exceed the allocation limit of 1073741824 bytes at offset \
         0xc",
    );
    assert!(t.elapsed().as_secs() < 5);
}
