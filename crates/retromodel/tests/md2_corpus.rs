//! Every IDP2 file of the corpus: parses, writes back byte for byte, converts to a valid
//! Model, its GL commands agree with its triangle list, and its counts agree with the
//! independent parser's `HEADERS.jsonl`. The deliberately broken files fail with a clear
//! error.

mod common;

use retromodel::formats::md2::{self, File};
use retromodel::{ErrorKind, Limits};

fn is_broken(rel: &str) -> bool {
    rel.starts_with("edge_cases/") || rel.contains("malformed")
}

#[test]
fn corpus_idp2_files() {
    let Some((dir, headers, files)) = common::corpus_with_magic(b"IDP2") else {
        return;
    };
    let (mut good, mut broken, mut compared, mut with_gl) = (0, 0, 0, 0);
    for path in &files {
        let what = path.display().to_string();
        let rel = common::relative(&dir, path);
        let bytes = std::fs::read(path).unwrap();
        if is_broken(&rel) {
            let e = File::parse(&bytes, &Limits::default()).expect_err(&what);
            let text = e.to_string();
            assert!(
                text.starts_with("md2: ") && text.contains(" at offset 0x"),
                "{what}: {text}"
            );
            assert!(
                matches!(
                    e.kind,
                    ErrorKind::LimitExceeded
                        | ErrorKind::BadCount
                        | ErrorKind::Truncated
                        | ErrorKind::IndexOutOfRange
                ),
                "{what}: {text}"
            );
            eprintln!("{rel}: {text}");
            broken += 1;
            continue;
        }
        let file =
            File::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(file.write() == bytes, "{what}: round trip differs");
        let (doc, converted) = common::convert_valid(&bytes, &what);
        let model = &converted.model;
        assert_eq!(model.frames.len(), file.frames.len(), "{what}");
        assert_eq!(
            model.meshes[0].triangles.len(),
            file.triangles.len(),
            "{what}"
        );
        assert!(
            !converted.warnings.iter().any(|w| w.contains("differ")),
            "{what}: {:?}",
            converted.warnings
        );
        if !file.glcmds.commands.is_empty() {
            with_gl += 1;
            assert_eq!(file.glcmds.triangle_count(), file.triangles.len(), "{what}");
        }
        // Every decoded position lies inside its frame's box (scale * 255 + translate), and
        // the model frame's bounds are the positions' extremes.
        for (i, (f, t)) in file
            .frames
            .iter()
            .zip(&model.meshes[0].morph_targets)
            .enumerate()
        {
            let mut extremes = [t.positions[0]; 2];
            for p in &t.positions {
                for k in 0..3 {
                    extremes[0][k] = extremes[0][k].min(p[k]);
                    extremes[1][k] = extremes[1][k].max(p[k]);
                }
            }
            let frame = &model.frames[i];
            assert_eq!(
                [frame.bounds_min, frame.bounds_max],
                extremes,
                "{what}: frame {i}"
            );
            for p in &t.positions {
                for (k, &c) in p.iter().enumerate() {
                    let (lo, hi) = (f.translate[k], f.translate[k] + 255.0 * f.scale[k]);
                    assert!(c >= lo.min(hi) - 1e-3 && c <= lo.max(hi) + 1e-3, "{what}");
                }
            }
        }
        good += 1;
        let Some(h) = headers.get(&rel) else {
            continue; // the Assimp test models are not in HEADERS.jsonl
        };
        let s = doc.summary(&converted);
        let n = |k: &str| h[k].as_u64().unwrap() as usize;
        assert_eq!(s.vertices, n("num_verts"), "{what}");
        assert_eq!(s.triangles, n("num_tris"), "{what}");
        assert_eq!(s.poses, n("num_frames"), "{what}");
        assert_eq!(s.skins, n("num_skins"), "{what}");
        assert_eq!(file.header.num_glcmds as usize, n("num_glcmds"), "{what}");
        let names = common::str_array(&h["skin_names"]);
        assert_eq!(s.skin_names, names, "{what}");
        compared += 1;
    }
    assert_eq!(
        broken, 3,
        "broken files (2 in edge_cases, 1 Assimp 'malformed')"
    );
    assert!(good >= 85, "only {good} good IDP2 files");
    assert_eq!(compared, 80, "HEADERS.jsonl rows compared");
    eprintln!(
        "{good} IDP2 files read ({with_gl} with GL commands), {compared} checked against HEADERS.jsonl, {broken} broken ones refused"
    );
    let _ = md2::FORMAT;
}
