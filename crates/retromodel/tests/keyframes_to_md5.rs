//! A keyframe model written as MD5 (which stores only skeletal animation) keeps every pose:
//! one joint per vertex, one md5anim per clip (`model::rig`), read back and baked to the
//! same positions.

use std::collections::HashMap;

use retromodel::model::{Clip, Frame, Mesh, MorphTarget};
use retromodel::{registry, Document, Limits, MemoryFiles, Model, WriteOptions};

fn keyframe_model() -> Model {
    let base = [[0.0f32, 0.0, 0.0], [16.0, 0.0, 0.0], [0.0, 16.0, 8.0]];
    let targets: Vec<MorphTarget> = (0..4)
        .map(|f| MorphTarget {
            positions: base
                .iter()
                .map(|p| [p[0], p[1], p[2] + 3.0 * f as f32 * p[0] / 16.0])
                .collect(),
            normals: vec![[0.0, 0.0, 1.0]; 3],
        })
        .collect();
    let mesh = Mesh::keyframed(
        vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]],
        vec![[0, 2, 1]],
        targets,
        vec![0, 1, 2],
        Some([16, 16]),
    );
    Model {
        meshes: vec![mesh],
        frames: (0..4)
            .map(|f| Frame {
                name: format!("wave{}", f + 1),
                ..Frame::default()
            })
            .collect(),
        clips: vec![
            Clip {
                name: "up".into(),
                first: 0,
                count: 2,
                fps: 10.0,
                frame_times: None,
            },
            Clip {
                name: "down".into(),
                first: 2,
                count: 2,
                fps: 5.0,
                frame_times: None,
            },
        ],
        ..Model::default()
    }
}

#[test]
fn every_pose_survives_md5() {
    let model = keyframe_model();
    let writer = registry::writers()
        .find(|w| w.format.name() == "md5mesh")
        .unwrap();
    let out = registry::write_model(&model, writer, &WriteOptions::default()).unwrap();
    assert!(
        out.notes.iter().any(|n| n.contains("one joint per vertex")),
        "{:?}",
        out.notes
    );
    let files: HashMap<String, Vec<u8>> = out
        .side_files
        .iter()
        .map(|s| (s.name.clone(), s.bytes.clone()))
        .collect();
    assert_eq!(files.len(), 2, "one md5anim per clip: {:?}", files.keys());
    let doc = Document::parse(&out.bytes, &Limits::default()).unwrap();
    let back = doc
        .try_to_model(&Default::default(), &MemoryFiles(files))
        .unwrap()
        .model;
    assert_eq!(back.joints.len(), 4);
    assert_eq!(back.animations.len(), 2);
    let baked = retromodel::model::bake::bake_skeletal(&back, None)
        .unwrap()
        .model;
    assert_eq!(baked.frames.len(), 4);
    // The baked frames, in animation order (down, up: by file name), hold the poses.
    for (a, anim) in back.animations.iter().enumerate() {
        let clip = model.clips.iter().find(|c| c.name == anim.name).unwrap();
        assert_eq!(anim.frames.len(), clip.count);
        assert_eq!(anim.fps, clip.fps);
        let first = back.animations[..a]
            .iter()
            .map(|x| x.frames.len())
            .sum::<usize>();
        for k in 0..clip.count {
            let want = &model.meshes[0].morph_targets[clip.first + k].positions;
            let got = &baked.meshes[0].morph_targets[first + k].positions;
            for (g, w) in got.iter().zip(want) {
                for c in 0..3 {
                    assert!(
                        (g[c] - w[c]).abs() < 1e-4,
                        "{} frame {k}: {g:?} vs {w:?}",
                        anim.name
                    );
                }
            }
        }
    }
}
