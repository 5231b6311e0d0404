//! WMP levels as glTF scenes, read back with the `gltf` crate: one node per object (its
//! name and transform), one per placed block (one primitive per texture, materials shared
//! by texture name), lights and entities as empty nodes; every vertex, taken through the
//! node's world transform, lands where the Model has it (Y-up), and the triangles add up to
//! the Model's.
//!
//! The `nested` fixture always; every text level under `$RETROMODEL_CORPUS/3dgs_wmp` when
//! the variable is set. With `RETROMODEL_GLTF_OUT=<dir>` the `.glb` files are also written
//! under `<dir>/wmp/` for Khronos' validator.

#![cfg(feature = "gltf")]

mod common;

use std::path::PathBuf;

use retromodel::formats::wmp::{self, fixtures};
use retromodel::interchange::gltf::{to_glb, GltfOptions};
use retromodel::model::{to_y_up, Model};
use retromodel::Limits;

/// A column-major 4x4 matrix as the `gltf` crate gives it.
type Mat = [[f32; 4]; 4];

fn mul(a: &Mat, b: &Mat) -> Mat {
    let mut m = [[0.0; 4]; 4];
    for (c, col) in m.iter_mut().enumerate() {
        for (r, v) in col.iter_mut().enumerate() {
            *v = (0..4).map(|k| a[k][r] * b[c][k]).sum();
        }
    }
    m
}

fn apply(m: &Mat, p: [f32; 3]) -> [f32; 3] {
    [0, 1, 2].map(|r| m[0][r] * p[0] + m[1][r] * p[1] + m[2][r] * p[2] + m[3][r])
}

/// What the read-back scene holds.
struct Scene {
    /// Per glTF node: name, parent node, and per primitive the world positions of its
    /// triangles' corners (in glTF's `(a, c, b)` order turned back to `(a, b, c)`), the
    /// local positions, and the material's name.
    nodes: Vec<NodeInfo>,
    /// The scene's root nodes by name.
    roots: Vec<String>,
    /// Material names.
    materials: Vec<String>,
    /// Extensions the document uses.
    extensions: Vec<String>,
}

struct NodeInfo {
    name: String,
    parent: Option<usize>,
    primitives: Vec<Primitive>,
}

struct Primitive {
    corners: Vec<[f32; 3]>,
    local: Vec<[f32; 3]>,
    material: Option<String>,
}

fn read_back(glb: &[u8]) -> Scene {
    let g = gltf::Gltf::from_slice(glb).expect("the gltf crate reads the output");
    let blob = g.blob.clone().unwrap_or_default();
    let doc = &g.document;
    let n = doc.nodes().count();
    let mut parent = vec![None; n];
    for node in doc.nodes() {
        for c in node.children() {
            parent[c.index()] = Some(node.index());
        }
    }
    let nodes: Vec<gltf::Node> = doc.nodes().collect();
    let mut world: Vec<Mat> = vec![[[0.0; 4]; 4]; n];
    // Parents come first in the exporter's order; checked here.
    for (i, node) in nodes.iter().enumerate() {
        let local = node.transform().matrix();
        world[i] = match parent[i] {
            Some(p) => {
                assert!(p < i, "node {i}: parent {p} after it");
                mul(&world[p], &local)
            }
            None => local,
        };
    }
    let get = |b: gltf::Buffer<'_>| (b.index() == 0).then_some(blob.as_slice());
    let mut out = Vec::with_capacity(n);
    for (i, node) in nodes.iter().enumerate() {
        let mut primitives = Vec::new();
        if let Some(mesh) = node.mesh() {
            for prim in mesh.primitives() {
                let r = prim.reader(get);
                let local: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
                let indices: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
                let corners = indices
                    .chunks_exact(3)
                    .flat_map(|t| [t[0], t[2], t[1]])
                    .map(|k| apply(&world[i], local[k as usize]))
                    .collect();
                primitives.push(Primitive {
                    corners,
                    local,
                    material: prim.material().name().map(str::to_string),
                });
            }
        }
        out.push(NodeInfo {
            name: node.name().unwrap_or_default().to_string(),
            parent: parent[i],
            primitives,
        });
    }
    let scene = doc.default_scene().expect("a default scene");
    Scene {
        nodes: out,
        roots: scene
            .nodes()
            .map(|n| n.name().unwrap_or_default().to_string())
            .collect(),
        materials: doc
            .materials()
            .map(|m| m.name().unwrap_or_default().to_string())
            .collect(),
        extensions: doc.extensions_used().map(str::to_string).collect(),
    }
}

/// Checks the scene against the Model: node `i` is Model node `i` (name, parent), part `k`
/// of a node is its primitive `k`, with the part's texture as material and its triangles'
/// corners at the Model's positions (Y-up) to `1e-5` of the level's size. Returns the
/// largest distance found, relative to the size, and the triangle total.
fn check_scene(model: &Model, scene: &Scene, what: &str) -> (f32, usize) {
    assert_eq!(scene.nodes.len(), model.nodes.len(), "{what}: nodes");
    let size = model
        .bounds()
        .map(|[lo, hi]| (0..3).map(|k| hi[k] - lo[k]).fold(1.0, f32::max))
        .unwrap_or(1.0);
    let mut worst = 0.0f32;
    let mut triangles = 0;
    for (i, (g, m)) in scene.nodes.iter().zip(&model.nodes).enumerate() {
        assert_eq!(g.name, m.name, "{what}: node {i}");
        assert_eq!(g.parent, m.parent, "{what}: node {i} {:?}", m.name);
        let parts: Vec<_> = m.parts.iter().filter(|p| !p.triangles.is_empty()).collect();
        assert_eq!(
            g.primitives.len(),
            parts.len(),
            "{what}: node {i} primitives"
        );
        for (prim, part) in g.primitives.iter().zip(parts) {
            let mesh = &model.meshes[part.mesh];
            let skin = &model.skins[mesh.skin.unwrap()].name;
            assert_eq!(prim.material.as_deref(), Some(skin.as_str()), "{what}");
            let want: Vec<[f32; 3]> = mesh.triangles[part.triangles.clone()]
                .iter()
                .flatten()
                .map(|&k| to_y_up(mesh.positions[k as usize]))
                .collect();
            assert_eq!(prim.corners.len(), want.len(), "{what}: node {i}");
            for (a, b) in prim.corners.iter().zip(&want) {
                let d = (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f32::max);
                worst = worst.max(d / size);
            }
            triangles += want.len() / 3;
        }
    }
    assert!(
        worst <= 1e-5,
        "{what}: a vertex is {worst} of the size away"
    );
    (worst, triangles)
}

fn export(model: &Model, name: &str) -> Vec<u8> {
    let (glb, warnings) =
        to_glb(model, &GltfOptions::default()).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(warnings, Vec::<String>::new(), "{name}");
    if let Some(dir) = std::env::var_os("RETROMODEL_GLTF_OUT") {
        let path = PathBuf::from(dir).join("wmp").join(format!("{name}.glb"));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, &glb).unwrap();
    }
    glb
}

#[test]
fn nested_objects_become_a_node_tree() {
    let p = wmp::parse(&fixtures::nested(), &Limits::default()).unwrap();
    assert_eq!(p.warnings, Vec::<String>::new());
    let c = wmp::to_model(&p.file, &p.warnings);
    assert_eq!(
        c.warnings,
        [
            "block 2 is in no object; placed as it is",
            "block 3 is in no object; placed as it is",
        ]
    );
    let model = &c.model;
    model.validate().unwrap();
    let tree: Vec<(&str, Option<usize>)> = model
        .nodes
        .iter()
        .map(|n| (n.name.as_str(), n.parent))
        .collect();
    assert_eq!(
        tree,
        [
            ("Group", None),
            ("Tree", Some(0)),
            ("block 1", Some(1)),
            ("light 5", Some(1)),
            ("Rock", Some(1)),
            ("block 0", Some(4)),
            ("entity 6", Some(4)),
            ("object 12", Some(0)),
            ("block 4", Some(7)),
            ("Rock", Some(7)),
            ("block 0", Some(9)),
            ("entity 6", Some(9)),
            ("block 2", None),
            ("block 3", None),
        ]
    );
    // Still one Model mesh per texture; block nodes hold runs of them.
    let names: Vec<&str> = model.meshes.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, ["leaves", "bark", "grass", "rock", "metal", "floor"]);
    let parts: Vec<usize> = model.nodes.iter().map(|n| n.parts.len()).collect();
    assert_eq!(parts, [0, 0, 2, 0, 0, 2, 0, 0, 1, 0, 2, 0, 1, 2]);

    let glb = export(model, "nested");
    let scene = read_back(&glb);
    assert_eq!(scene.roots, ["Group", "block 2", "block 3"]);
    // One material per texture, no variants: a level's textures are not alternatives.
    assert_eq!(
        scene.materials,
        ["leaves", "bark", "grass", "rock", "metal", "floor"]
    );
    assert!(scene.extensions.is_empty(), "{:?}", scene.extensions);
    let (worst, triangles) = check_scene(model, &scene, "nested");
    assert_eq!(triangles, model.triangle_count());
    assert_eq!(triangles, 6 * 6 * 2);
    println!("nested: worst distance {worst} of the level's size");

    // The object transforms are the real placement: each block's vertices come out in the
    // block's own coordinates (Y-up), whatever objects place it.
    let blocks: Vec<_> = p.file.blocks().collect();
    for (g, m) in scene.nodes.iter().zip(&model.nodes) {
        let Some(index) = m.name.strip_prefix("block ") else {
            continue;
        };
        let block = blocks
            .iter()
            .find(|b| b.index.to_string() == index)
            .unwrap();
        let solid = wmp::solid(block);
        for prim in &g.primitives {
            for p in &prim.local {
                let near = solid
                    .vertices
                    .iter()
                    .map(|v| {
                        let v = to_y_up(v.map(|c| c as f32));
                        (0..3).map(|k| (v[k] - p[k]).abs()).fold(0.0, f32::max)
                    })
                    .fold(f32::INFINITY, f32::min);
                assert!(near < 1e-3, "{}: local vertex {p:?} is no corner", m.name);
            }
        }
    }
}

#[test]
fn every_fixture_level_exports() {
    for (name, bytes) in fixtures::all() {
        let p = wmp::parse(&bytes, &Limits::default()).unwrap();
        let c = wmp::to_model(&p.file, &p.warnings);
        let glb = export(&c.model, name.trim_end_matches(".wmp"));
        let (_, triangles) = check_scene(&c.model, &read_back(&glb), name);
        assert_eq!(triangles, c.model.triangle_count(), "{name}");
    }
}

#[test]
fn corpus_levels_have_a_node_per_placed_block() {
    let Some(corpus) = common::corpus_dir() else {
        eprintln!("RETROMODEL_CORPUS not set; skipped");
        return;
    };
    let dir = corpus.join("3dgs_wmp");
    let files = common::files_with_extension(&dir, &["wmp"]);
    let (mut levels, mut binary, mut blocks, mut triangles) = (0, 0, 0, 0);
    let mut worst = 0.0f32;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        if bytes.starts_with(b"WMPB") {
            binary += 1;
            continue;
        }
        let what = path.strip_prefix(&dir).unwrap().display().to_string();
        let p = wmp::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
        let c = wmp::to_model(&p.file, &p.warnings);
        let placed = c
            .model
            .nodes
            .iter()
            .filter(|n| n.name.starts_with("block "))
            .count();
        let glb = export(&c.model, &what.replace(['/', '\\'], "_"));
        let scene = read_back(&glb);
        let nodes = scene
            .nodes
            .iter()
            .filter(|n| n.name.starts_with("block "))
            .count();
        assert_eq!(nodes, placed, "{what}: block nodes");
        let (w, t) = check_scene(&c.model, &scene, &what);
        assert_eq!(t, c.model.triangle_count(), "{what}: triangles");
        worst = worst.max(w);
        levels += 1;
        blocks += placed;
        triangles += t;
    }
    println!(
        "{levels} text levels ({binary} binary skipped): {blocks} placed blocks, {triangles} triangles, worst distance {worst} of a level's size"
    );
    assert!(levels > 0, "no text WMP level under {}", dir.display());
}
