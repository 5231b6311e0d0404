//! Every IDPO file of the corpus: parses, writes back byte for byte, converts to a valid
//! Model, and its counts agree with the independent parser's `HEADERS.jsonl`.

mod common;

use retromodel::formats::quake_mdl::File;
use retromodel::Limits;

#[test]
fn corpus_idpo_files() {
    let Some((dir, headers, files)) = common::corpus_with_magic(b"IDPO") else {
        return;
    };
    assert!(files.len() >= 160, "only {} IDPO files found", files.len());
    let mut compared = 0;
    for path in &files {
        let (what, bytes) = common::read_named(path);
        let file =
            File::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(file.write() == bytes, "{what}: round trip differs");
        let (doc, converted) = common::convert_valid(&bytes, &what);
        let model = &converted.model;
        assert_eq!(model.frames.len(), file.pose_count(), "{what}");
        assert_eq!(
            model.meshes[0].triangles.len(),
            file.triangles.len(),
            "{what}"
        );
        let pictures: usize = model.skins.iter().map(|s| s.pictures.len()).sum();
        assert_eq!(pictures, file.picture_count(), "{what}");
        for s in &model.skins {
            for p in &s.pictures {
                assert_eq!(
                    p.to_rgba8().len(),
                    (p.width * p.height * 4) as usize,
                    "{what}"
                );
            }
        }
        // Every position lies inside the frame's stored bounding box.
        let mesh = &model.meshes[0];
        for (f, t) in model.frames.iter().zip(&mesh.morph_targets) {
            for p in &t.positions {
                for (a, &c) in p.iter().enumerate() {
                    assert!(
                        c >= f.bounds_min[a] - 1e-3 && c <= f.bounds_max[a] + 1e-3
                            || file.header.scale[a] == 0.0,
                        "{what}: frame {} vertex outside its bounds",
                        f.name
                    );
                }
            }
        }

        let rel = common::relative(&dir, path);
        let Some(h) = headers.get(&rel) else {
            continue; // the Assimp test models are not in HEADERS.jsonl
        };
        let s = doc.summary(&converted);
        let n = |k: &str| h[k].as_u64().unwrap() as usize;
        let group_poses: usize = h["group_frame_sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap() as usize)
            .sum();
        assert_eq!(s.vertices, n("num_verts"), "{what}");
        assert_eq!(s.triangles, n("num_tris"), "{what}");
        assert_eq!(s.poses, n("simple_frames") + group_poses, "{what}");
        assert_eq!(s.frame_groups, n("group_frames"), "{what}");
        assert_eq!(s.skins, n("num_skins"), "{what}");
        assert_eq!(s.trailing_bytes, n("trailing_bytes"), "{what}");
        assert_eq!(file.header.skinwidth as usize, n("skin_w"), "{what}");
        assert_eq!(file.header.flags as usize, n("flags"), "{what}");
        compared += 1;
    }
    assert_eq!(compared, 160, "HEADERS.jsonl rows compared");
    eprintln!(
        "{} IDPO files checked, {compared} against HEADERS.jsonl",
        files.len()
    );
}
