//! Every MDL2..MDL5 file of the corpus: parses, writes back byte for byte, converts to a
//! valid Model, its summary agrees with the independent parser's `HEADERS.jsonl`, and its
//! 5-6-5 skins decode to plausible pictures. Nothing from the corpus is copied.

mod common;

use retromodel::formats::gs_mdl::{self, File, Packing, SkinFormat};
use retromodel::image::Pixels;
use retromodel::{Limits, NoFiles, WriteOptions};

/// Mean absolute RGB difference between horizontally adjacent pixels.
fn roughness(rgba: &[u8], w: usize) -> f64 {
    let (mut sum, mut n) = (0u64, 0u64);
    for row in rgba.chunks_exact(4 * w) {
        for x in 0..w - 1 {
            let (a, b) = (&row[4 * x..4 * x + 3], &row[4 * x + 4..4 * x + 7]);
            sum += a
                .iter()
                .zip(b)
                .map(|(p, q)| p.abs_diff(*q) as u64)
                .sum::<u64>();
            n += 1;
        }
    }
    sum as f64 / n.max(1) as f64
}

#[test]
fn corpus_gamestudio_mdl2_to_mdl5() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let headers = common::headers(&dir);
    let mut counts = [0usize; 4];
    let mut compared = 0;
    let mut plausible_565 = 0;
    for version in 2u8..=5 {
        let files = common::files_with_magic(&dir, &gs_mdl::magic(version));
        counts[version as usize - 2] = files.len();
        for path in &files {
            let (what, bytes) = common::read_named(path);
            let file =
                File::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(file.header.version, version, "{what}");
            assert!(file.write() == bytes, "{what}: round trip differs");
            let converted = gs_mdl::to_model(&file, &Default::default(), &NoFiles);
            let model = &converted.model;
            model.validate().unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(model.frames.len(), file.frames.len(), "{what}");
            let mesh = &model.meshes[0];
            assert_eq!(
                mesh.triangles.len(),
                file.geometry.triangle_count(),
                "{what}"
            );
            assert!(
                mesh.positions.len() >= file.header.num_verts as usize,
                "{what}: every file vertex is a mesh vertex"
            );
            // Positions are finite (stored bounding boxes are not reliable: Fass1.MDL's is
            // garbage, so they are not checked).
            for t in &mesh.morph_targets {
                assert!(
                    t.positions.iter().flatten().all(|c| c.is_finite()),
                    "{what}"
                );
            }
            for (s, raw) in model.skins.iter().zip(&file.skins) {
                for p in &s.pictures {
                    assert_eq!(
                        p.to_rgba8().len(),
                        (p.width * p.height * 4) as usize,
                        "{what}"
                    );
                }
                if raw.format() != SkinFormat::Rgb565 {
                    continue;
                }
                let p = &s.pictures[0];
                let Pixels::Rgba8(rgba) = &p.pixels else {
                    panic!("{what}: 5-6-5 skin not decoded to RGBA");
                };
                let distinct: std::collections::HashSet<&[u8]> = rgba.chunks_exact(4).collect();
                if distinct.len() > 1 {
                    // Decoded as little-endian words the picture is far smoother than
                    // with its bytes swapped.
                    let swapped: Vec<u8> = raw
                        .data
                        .chunks_exact(2)
                        .flat_map(|c| [c[1], c[0]])
                        .collect();
                    let bad = retromodel::image::rgb565_to_rgba8(&swapped);
                    let w = p.width as usize;
                    assert!(
                        2.0 * roughness(rgba, w) < roughness(&bad, w),
                        "{what}: 5-6-5 skin looks byte-swapped"
                    );
                }
                let mean = rgba
                    .chunks_exact(4)
                    .map(|c| (c[0] as u64 + c[1] as u64 + c[2] as u64) / 3)
                    .sum::<u64>()
                    / (rgba.len() / 4) as u64;
                assert!((5..=250).contains(&mean), "{what}: mean brightness {mean}");
                assert!(rgba.chunks_exact(4).all(|c| c[3] == 255), "{what}: opaque");
                if distinct.len() >= 16 {
                    plausible_565 += 1;
                }
            }

            // The model writes back as every version and reads again.
            for v in 3..=5 {
                let w = gs_mdl::from_model(model, &WriteOptions::default(), v)
                    .unwrap_or_else(|e| panic!("{what}: MDL{v}: {e}"));
                let again = w.file.write();
                let back = File::parse(&again, &Limits::default())
                    .unwrap_or_else(|e| panic!("{what}: rewritten MDL{v} does not parse: {e}"));
                assert_eq!(back.frames.len(), file.frames.len(), "{what}");
                assert_eq!(
                    back.geometry.triangle_count(),
                    file.geometry.triangle_count(),
                    "{what}"
                );
            }

            let rel = common::relative(&dir, path);
            let Some(h) = headers.get(&rel) else {
                continue; // the Assimp test models are not in HEADERS.jsonl
            };
            assert_eq!(h["format"], format!("3dgs_mdl{version}"), "{what}");
            let s = gs_mdl::summary(&file, &converted);
            assert_eq!(s.format, gs_mdl::FORMATS[version as usize - 2], "{what}");
            let n = |k: &str| h[k].as_i64().unwrap_or_else(|| panic!("{what}: {k}"));
            let field = |k: &str| match s.header.iter().find(|(name, _)| *name == k) {
                Some((_, retromodel::summary::Value::Int(v))) => *v,
                other => panic!("{what}: header field {k}: {other:?}"),
            };
            assert_eq!(s.vertices as i64, n("num_verts"), "{what}");
            assert_eq!(s.triangles as i64, n("num_tris"), "{what}");
            assert_eq!(s.poses as i64, n("num_frames"), "{what}");
            assert_eq!(s.skins as i64, n("num_skins"), "{what}");
            assert_eq!(field("num_skin_verts"), n("num_skinverts"), "{what}");
            assert_eq!(field("skin_width"), n("skin_w"), "{what}");
            assert_eq!(field("skin_height"), n("skin_h"), "{what}");
            assert_eq!(field("flags"), n("flags"), "{what}");
            assert_eq!(field("version_field"), n("version_field"), "{what}");
            let types: Vec<i64> = file.skins.iter().map(|s| s.skin_type as i64).collect();
            let expected: Vec<i64> = h["skin_types"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_i64().unwrap())
                .collect();
            assert_eq!(types, expected, "{what}");
            // The independent parser walked MDL2 files with the MDL3 layout and stopped
            // ("walk_stopped"); where it reached the end, the ends agree.
            if h.get("walk_stopped").is_none() {
                assert_eq!(s.trailing_bytes as i64, n("trailing_bytes"), "{what}");
                assert_eq!(
                    (bytes.len() - file.trailing.len()) as i64,
                    n("parsed_end"),
                    "{what}"
                );
            } else {
                assert_eq!(version, 2, "{what}: only MDL2 stopped the other parser");
                assert!(file.trailing.is_empty(), "{what}");
            }
            let word = file
                .frames
                .iter()
                .filter(|f| f.packing == Packing::Word)
                .count() as i64;
            assert_eq!(
                word,
                h.get("word_packed_frames")
                    .and_then(|v| v.as_i64())
                    .unwrap_or(0),
                "{what}"
            );
            compared += 1;
        }
    }
    eprintln!("MDL2..MDL5 files: {counts:?}, {compared} compared with HEADERS.jsonl");
    assert_eq!(counts, [5, 8, 5, 15], "files per version");
    assert_eq!(compared, 30);
    assert!(plausible_565 >= 20, "{plausible_565} varied 5-6-5 skins");
}
