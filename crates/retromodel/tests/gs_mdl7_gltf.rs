//! MDL7 bones as a glTF skin, read back with the `gltf` crate: the joint nodes, animated by
//! each clip's channels at each key, skin the bind-pose mesh (`JOINTS_0`/`WEIGHTS_0`,
//! inverse bind matrices) to the Model's baked morph targets of that frame (Y-up), to 1e-3
//! of the model's size; no morph targets are written beside the skin. Models whose bone
//! motion cannot be a skin (vertex-replacing frames, shearing matrices) keep the morph
//! targets.
//!
//! The bone fixture always; every corpus MDL7 with bones when `RETROMODEL_CORPUS` is set.
//! With `RETROMODEL_GLTF_OUT=<dir>` the `.glb` files are also written under
//! `<dir>/mdl7/` for Khronos' validator.

#![cfg(feature = "gltf")]

mod common;

use std::path::PathBuf;

use gltf::animation::util::ReadOutputs;
use retromodel::formats::gs_mdl7::{self, fixtures, File};
use retromodel::interchange::gltf::{to_glb, GltfOptions};
use retromodel::model::{to_y_up, Model};
use retromodel::{ConvertOptions, Limits, NoFiles};

use common::mat::{mat_mul, mat_point, node_tree, skin_matrices, trs, Mat};

/// How a model was exported.
#[derive(Debug, PartialEq)]
enum Kind {
    /// A skin with skeletal animations; the worst distance found, relative to the size.
    Skinned(f32),
    /// Morph targets (no skeletal animation in the Model).
    Morphs,
}

/// Exports `model` and checks it; `name` for messages and the dump.
fn check(model: &Model, name: &str) -> Kind {
    model.validate().unwrap();
    // The default export (at most 4 influences) for the validator; the check keeps every
    // influence (MED writes up to 6), so that the skin must equal the baked frames.
    let (glb, _) = to_glb(model, &GltfOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    if let Some(dir) = std::env::var_os("RETROMODEL_GLTF_OUT") {
        let path = PathBuf::from(dir).join("mdl7").join(format!("{name}.glb"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &glb).unwrap();
    }
    let most = model
        .meshes
        .iter()
        .flat_map(|m| &m.joint_weights)
        .map(|w| w.len())
        .max()
        .unwrap_or(0)
        .max(4);
    let options = GltfOptions {
        max_influences: most,
        ..GltfOptions::default()
    };
    let (glb, warnings) = to_glb(model, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let g = gltf::Gltf::from_slice(&glb).expect("the gltf crate reads the output");
    let blob = g.blob.clone().unwrap_or_default();
    let doc = &g.document;
    let get = |b: gltf::Buffer<'_>| (b.index() == 0).then_some(blob.as_slice());
    let exported: Vec<usize> = (0..model.meshes.len())
        .filter(|&m| !model.meshes[m].positions.is_empty() && !model.meshes[m].triangles.is_empty())
        .collect();
    let mesh_nodes: Vec<gltf::Node> = doc.nodes().filter(|n| n.mesh().is_some()).collect();
    assert_eq!(mesh_nodes.len(), exported.len(), "{name}");
    if model.animations.is_empty() {
        if model.frames.len() > 1 {
            for n in &mesh_nodes {
                let p = n.mesh().unwrap().primitives().next().unwrap();
                assert_eq!(p.morph_targets().count(), model.frames.len() - 1, "{name}");
            }
        }
        return Kind::Morphs;
    }
    // Skinned: no morph targets, one animation per Model animation.
    for n in &mesh_nodes {
        for p in n.mesh().unwrap().primitives() {
            assert_eq!(
                p.morph_targets().count(),
                0,
                "{name}: morph targets beside a skin"
            );
        }
    }
    assert_eq!(doc.animations().count(), model.animations.len(), "{name}");
    let size = model
        .frames
        .iter()
        .map(|f| {
            (0..3)
                .map(|k| f.bounds_max[k] - f.bounds_min[k])
                .fold(0.0, f32::max)
        })
        .fold(1e-6, f32::max);
    let (parent, rest) = node_tree(doc);
    let n = rest.len();
    let mut first = 0;
    let mut worst = 0.0f32;
    for (a, ga) in model.animations.iter().zip(doc.animations()) {
        assert_eq!(ga.name(), Some(a.name.as_str()), "{name}");
        // The clip's first frame in the Model: the animations follow the clips in order.
        let clip = model
            .clips
            .iter()
            .find(|c| c.first == first && c.name == a.name)
            .map(|c| c.first)
            .unwrap_or(first);
        for k in 0..a.frames.len() {
            let mut local = rest.clone();
            for ch in ga.channels() {
                let r = ch.reader(|b| (b.index() == 0).then_some(blob.as_slice()));
                let node = ch.target().node().index();
                match r.read_outputs().unwrap() {
                    ReadOutputs::Translations(it) => local[node].0 = it.clone().nth(k).unwrap(),
                    ReadOutputs::Rotations(it) => {
                        local[node].1 = it.into_f32().nth(k).unwrap();
                    }
                    ReadOutputs::Scales(it) => local[node].2 = it.clone().nth(k).unwrap(),
                    ReadOutputs::MorphTargetWeights(_) => panic!("{name}: morph weights"),
                }
            }
            // Parents may come after their children (the `skeleton` node above several
            // roots), so globals are found through the chain.
            let global: Vec<Mat> = (0..n)
                .map(|i| {
                    let mut m = {
                        let (t, r, s) = local[i];
                        trs(t, r, s)
                    };
                    let mut at = parent[i];
                    while let Some(p) = at {
                        let (t, r, s) = local[p];
                        m = mat_mul(&trs(t, r, s), &m);
                        at = parent[p];
                    }
                    m
                })
                .collect();
            let frame = clip + k;
            for (node, &mi) in mesh_nodes.iter().zip(&exported) {
                let want = &model.meshes[mi].morph_targets[frame].positions;
                let Some(skin) = node.skin() else {
                    // A group without weights stands still: its mesh is every frame.
                    let p = node.mesh().unwrap().primitives().next().unwrap();
                    let pos: Vec<[f32; 3]> = p.reader(get).read_positions().unwrap().collect();
                    let still: Vec<[f32; 3]> = want.iter().map(|p| to_y_up(*p)).collect();
                    assert_eq!(pos, still, "{name}: a mesh without skin moves");
                    continue;
                };
                let joints = skin_matrices(&skin, &blob, &global);
                let p = node.mesh().unwrap().primitives().next().unwrap();
                let r = p.reader(get);
                let pos: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
                let sets = most.div_ceil(4) as u32;
                let js: Vec<Vec<[u16; 4]>> = (0..sets)
                    .map(|k| r.read_joints(k).unwrap().into_u16().collect())
                    .collect();
                let ws: Vec<Vec<[f32; 4]>> = (0..sets)
                    .map(|k| r.read_weights(k).unwrap().into_f32().collect())
                    .collect();
                assert_eq!(pos.len(), want.len(), "{name}");
                for (v, p) in pos.iter().enumerate() {
                    let mut sum = [0.0f32; 3];
                    for (js, ws) in js.iter().zip(&ws) {
                        for s in 0..4 {
                            let q = mat_point(&joints[js[v][s] as usize], *p);
                            for c in 0..3 {
                                sum[c] += ws[v][s] * q[c];
                            }
                        }
                    }
                    let w = to_y_up(want[v]);
                    let d = (0..3).map(|c| (sum[c] - w[c]).abs()).fold(0.0, f32::max);
                    worst = worst.max(d / size);
                }
            }
        }
        first += a.frames.len();
    }
    assert!(
        worst <= 1e-3,
        "{name}: a skinned vertex is {worst} of the size from the Model's frame ({warnings:?})"
    );
    Kind::Skinned(worst)
}

#[test]
fn fixture_bones_become_a_skin() {
    let file = fixtures::build(&fixtures::Spec {
        bones: true,
        frames: 3,
        ..Default::default()
    });
    // As built, the fixture's frames replace vertices too: no skin can do that, so the
    // motion stays in the morph targets (as before: no warning).
    let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
    assert!(c.model.animations.is_empty());
    assert!(
        !c.warnings.iter().any(|w| w.contains("morph targets")),
        "{:?}",
        c.warnings
    );
    assert_eq!(check(&c.model, "pyramid_bones_morphs"), Kind::Morphs);
    // Without the replaced vertices the bones alone move the pyramid: a skin.
    let mut file = file;
    for fr in &mut file.groups[0].frames {
        fr.vertices.clear();
    }
    let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
    let model = &c.model;
    assert_eq!(model.joints.len(), 2);
    assert!(!model.animations.is_empty(), "{:?}", c.warnings);
    let frames: usize = model.animations.iter().map(|a| a.frames.len()).sum();
    assert_eq!(frames, model.frames.len());
    // The skinned meshes' positions are the bind pose.
    let group = &file.groups[0];
    for m in &model.meshes {
        for (p, &v) in m.positions.iter().zip(&m.source_vertices) {
            assert_eq!(*p, group.vertices[v as usize].position);
        }
    }
    let kind = check(model, "pyramid_bones");
    assert!(matches!(kind, Kind::Skinned(w) if w < 1e-5), "{kind:?}");
}

#[test]
fn corpus_mdl7_bones_skin_to_their_frames() {
    let Some(corpus) = common::corpus_dir() else {
        eprintln!("RETROMODEL_CORPUS not set; skipped");
        return;
    };
    let files = common::files_with_magic(&corpus, b"MDL7");
    let (mut skinned, mut morphs, mut still) = (Vec::new(), Vec::new(), Vec::new());
    let mut worst = (0.0f32, String::new());
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok(file) = File::parse(&bytes, &Limits::default()) else {
            continue;
        };
        if file.bones.is_empty() {
            continue;
        }
        let what = path.strip_prefix(&corpus).unwrap().display().to_string();
        let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
        let kind = check(&c.model, &what.replace(['/', '\\'], "_"));
        match kind {
            Kind::Skinned(w) => {
                if w >= worst.0 {
                    worst = (w, what.clone());
                }
                skinned.push(what);
            }
            Kind::Morphs => {
                let replaced = file.frames_with_vertices();
                let warned = c.warnings.iter().find(|w| w.contains("morph targets only"));
                match (replaced, warned) {
                    (0, Some(why)) => morphs.push(format!("{what}: {why}")),
                    (0, None) => still.push(what),
                    (n, _) => morphs.push(format!("{what}: {n} frames replace vertices")),
                }
            }
        }
    }
    println!(
        "MDL7 with bones: {} skinned (worst {:.2e} of the size, {}), {} fell back to morph targets, {} without bone motion",
        skinned.len(),
        worst.0,
        worst.1,
        morphs.len(),
        still.len()
    );
    for m in &morphs {
        println!("  fallback {m}");
    }
    for s in &still {
        println!("  no bone motion (no frames, or bones that move no vertex) {s}");
    }
    assert_eq!(
        skinned.len() + morphs.len() + still.len(),
        32,
        "the corpus's MDL7 with bones"
    );
    assert!(skinned.len() >= 23, "{} skinned", skinned.len());
}
