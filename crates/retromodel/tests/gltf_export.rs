//! glTF export, checked by reading the output back with the `gltf` crate:
//!
//! 1. keyframe models (MDL, MD2): base + morph deltas at each key of each clip give the
//!    model's poses (in Y-up) to 1e-4, at the expected times;
//! 2. MD5: joint nodes animated by the channels, inverse bind matrices and `JOINTS_0` /
//!    `WEIGHTS_0` skin the mesh to the library's own MD5 skinning (Y-up) to 1e-4 at 10 times
//!    per animation;
//! 3. structure: bounds on `POSITION`, aligned views without stride, nearest samplers by
//!    default, variants for several skins, emissive fullbrights, alpha mask for holes, the
//!    md5camera path.
//!
//! Fixtures always; every corpus MDL/MD2/MD5 file the library reads when `RETROMODEL_CORPUS`
//! is set. With `RETROMODEL_GLTF_OUT=<dir>` the outputs are also written there (`.glb`,
//! embedded `.gltf`, and `.gltf` with side files under `separate/`) for Khronos' validator.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]
#![cfg(feature = "gltf")]

mod common;

use std::path::{Path, PathBuf};

use gltf::animation::util::ReadOutputs;
use gltf::animation::Property;
use retromodel::formats::md5::{self, anim, MeshFile};
use retromodel::formats::{md2, quake_mdl};
use retromodel::image::Pixels;
use retromodel::interchange::gltf::{
    to_glb, to_gltf_embedded, to_gltf_separate, ClipSplit, Filter, Frames, GltfOptions,
};
use retromodel::model::{to_y_up, Joint, JointTransform, Mesh, Model, SkeletalAnimation, Skin};
use retromodel::{Limits, NoFiles};

// ---------------------------------------------------------------------------------------
// Small maths for the reference skinning.

use common::mat::{mat_mul, mat_point, node_tree, skin_matrices, trs, Mat};

fn slerp(a: [f32; 4], b: [f32; 4], t: f32) -> [f32; 4] {
    let (a, mut b) = (a.map(f64::from), b.map(f64::from));
    let mut d: f64 = (0..4).map(|i| a[i] * b[i]).sum();
    if d < 0.0 {
        b = b.map(|c| -c);
        d = -d;
    }
    let t = f64::from(t);
    let (ka, kb) = if d > 0.9999 {
        (1.0 - t, t)
    } else {
        let th = d.min(1.0).acos();
        (((1.0 - t) * th).sin() / th.sin(), (t * th).sin() / th.sin())
    };
    let q: [f64; 4] = std::array::from_fn(|i| a[i] * ka + b[i] * kb);
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    q.map(|c| (c / len) as f32)
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f32::max)
}

fn unit(v: [f32; 3]) -> [f32; 3] {
    let l = (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt();
    if l > 1e-20 {
        v.map(|c| c / l)
    } else {
        [0.0, 1.0, 0.0]
    }
}

// ---------------------------------------------------------------------------------------
// Reading back.

struct Glb {
    doc: gltf::Document,
    blob: Vec<u8>,
}

impl Glb {
    fn new(bytes: &[u8]) -> Glb {
        let g = gltf::Gltf::from_slice(bytes).expect("the gltf crate reads the output");
        Glb {
            doc: g.document,
            blob: g.blob.unwrap_or_default(),
        }
    }
}

/// Writes `bytes` under `$RETROMODEL_GLTF_OUT/rel` when the variable is set.
fn dump(rel: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("RETROMODEL_GLTF_OUT") {
        let path = PathBuf::from(dir).join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
}

/// Every flavour of output for the validator, and the GLB.
fn export_all(model: &Model, options: &GltfOptions, name: &str) -> Vec<u8> {
    let (glb, _) = to_glb(model, options).unwrap_or_else(|e| panic!("{name}: {e}"));
    dump(&format!("{name}.glb"), &glb);
    if std::env::var_os("RETROMODEL_GLTF_OUT").is_some() {
        let (json, _) = to_gltf_embedded(model, options).unwrap();
        dump(&format!("embedded/{name}.gltf"), json.as_bytes());
        let stem = Path::new(name).file_name().unwrap().to_str().unwrap();
        let sep = to_gltf_separate(model, options, &format!("{stem}.bin"), stem).unwrap();
        let dir = Path::new(name).parent().unwrap();
        let rel = |f: &str| format!("separate/{}", dir.join(f).display());
        dump(&rel(&format!("{stem}.gltf")), sep.json.as_bytes());
        if !sep.bin.is_empty() {
            dump(&rel(&format!("{stem}.bin")), &sep.bin);
        }
        for (file, png) in &sep.images {
            dump(&rel(file), png);
        }
    }
    glb
}

fn exported_meshes(model: &Model) -> Vec<&Mesh> {
    model
        .meshes
        .iter()
        .filter(|m| !m.positions.is_empty() && !m.triangles.is_empty())
        .collect()
}

/// The clips the exporter should write: name, frame at each key, key times.
fn expected_clips(model: &Model, o: &GltfOptions) -> Vec<(String, Vec<usize>, Vec<f32>)> {
    let n = model.frames.len();
    let uniform = |name: &str, mut frames: Vec<usize>, fps: f32| {
        frames.push(*frames.last().unwrap());
        let times = (0..frames.len())
            .map(|k| (k as f64 / f64::from(fps)) as f32)
            .collect();
        (name.to_string(), frames, times)
    };
    fn valid(c: &retromodel::model::Clip) -> Option<&Vec<f32>> {
        c.frame_times.as_ref().filter(|e| {
            e[0] > 0.0 && e.windows(2).all(|w| w[0] < w[1]) && e.iter().all(|t| t.is_finite())
        })
    }
    let grouped = |c: &retromodel::model::Clip, e: &Vec<f32>| {
        let mut frames: Vec<usize> = (c.first..c.first + c.count).collect();
        frames.push(c.first + c.count - 1);
        let times = std::iter::once(0.0).chain(e.iter().copied()).collect();
        (c.name.clone(), frames, times)
    };
    let fps = o.fps.unwrap_or(10.0);
    match o.clip_split {
        ClipSplit::Names if !model.clips.is_empty() => model
            .clips
            .iter()
            .map(|c| match valid(c) {
                Some(e) => grouped(c, e),
                None => uniform(
                    &c.name,
                    (c.first..c.first + c.count).collect(),
                    o.fps.unwrap_or(c.fps),
                ),
            })
            .collect(),
        ClipSplit::Groups => {
            let mut out = Vec::new();
            let mut covered = vec![false; n];
            for c in &model.clips {
                if let Some(e) = valid(c) {
                    covered[c.first..c.first + c.count].fill(true);
                    out.push(grouped(c, e));
                }
            }
            let rest: Vec<usize> = (0..n).filter(|&f| !covered[f]).collect();
            if !rest.is_empty() {
                out.push(uniform("all", rest, fps));
            }
            out
        }
        _ => vec![uniform("all", (0..n).collect(), fps)],
    }
}

/// How many triangles (counter-clockwise fronts) face the way their vertex normals point, and
/// how many the other way.
fn facing_of(pos: &[[f32; 3]], nrm: &[[f32; 3]], indices: &[u32]) -> [usize; 2] {
    let mut facing = [0; 2];
    for t in indices.chunks_exact(3) {
        let [a, b, c] = [0, 1, 2].map(|k| pos[t[k] as usize]);
        let e1 = [0, 1, 2].map(|k| b[k] - a[k]);
        let e2 = [0, 1, 2].map(|k| c[k] - a[k]);
        let face = [
            e1[1] * e2[2] - e1[2] * e2[1],
            e1[2] * e2[0] - e1[0] * e2[2],
            e1[0] * e2[1] - e1[1] * e2[0],
        ];
        let along: f32 = t
            .iter()
            .map(|&i| (0..3).map(|k| face[k] * nrm[i as usize][k]).sum::<f32>())
            .sum();
        if along > 0.0 {
            facing[0] += 1;
        } else if along < 0.0 {
            facing[1] += 1;
        }
    }
    facing
}

/// Morph targets as read back: position and normal deltas.
type Targets = Vec<(Vec<[f32; 3]>, Vec<[f32; 3]>)>;

/// Test 1: base + deltas at every key of every clip give the model's poses (positions to
/// 1e-4, normals to 1e-4 after normalising), at the expected times; triangles come back
/// reversed; UVs as they are.
/// Also returns how many triangles face the way their vertex normals point, and how many the
/// other way (glTF fronts are counter-clockwise).
fn check_keyframes(model: &Model, options: &GltfOptions, name: &str) -> (Glb, [usize; 2]) {
    let glb = export_all(model, options, name);
    let g = Glb::new(&glb);
    let blob = g.blob.as_slice();
    let get = |b: gltf::Buffer<'_>| (b.index() == 0).then_some(blob);
    let meshes = exported_meshes(model);
    let nodes: Vec<gltf::Node> = g.doc.nodes().filter(|n| n.mesh().is_some()).collect();
    assert_eq!(nodes.len(), meshes.len(), "{name}");
    let animate = options.frames == Frames::All && model.frames.len() > 1;
    let targets = if animate { model.frames.len() - 1 } else { 0 };
    type Geometry = (Vec<[f32; 3]>, Vec<[f32; 3]>, Targets);
    let mut geometry: Vec<Geometry> = Vec::new();
    let mut facing = [0usize; 2];
    for (node, m) in nodes.iter().zip(&meshes) {
        let mesh = node.mesh().unwrap();
        assert_eq!(mesh.weights().map(|w| w.len()).unwrap_or(0), targets);
        let prim = mesh.primitives().next().unwrap();
        let r = prim.reader(get);
        let base: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
        let nbase: Vec<[f32; 3]> = r.read_normals().unwrap().collect();
        let morphs: Targets = r
            .read_morph_targets()
            .map(|(p, n, _)| (p.unwrap().collect(), n.unwrap().collect()))
            .collect();
        assert_eq!(morphs.len(), targets, "{name}");
        let indices: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
        let want: Vec<u32> = m
            .triangles
            .iter()
            .flat_map(|t| [t[0], t[2], t[1]])
            .collect();
        assert_eq!(indices, want, "{name}: winding");
        let uvs: Vec<[f32; 2]> = r.read_tex_coords(0).unwrap().into_f32().collect();
        assert_eq!(uvs, m.uvs, "{name}");
        let first = m
            .morph_targets
            .first()
            .map_or(&m.positions, |t| &t.positions);
        for (b, p) in base.iter().zip(first) {
            assert!(dist(*b, to_y_up(*p)) <= 1e-4, "{name}: base pose");
        }
        let f = facing_of(&base, &nbase, &indices);
        facing[0] += f[0];
        facing[1] += f[1];
        geometry.push((base, nbase, morphs));
    }
    let anims: Vec<gltf::Animation> = g.doc.animations().collect();
    if !animate {
        assert!(anims.is_empty(), "{name}: animations without frames");
        return (g, facing);
    }
    let clips = expected_clips(model, options);
    assert_eq!(anims.len(), clips.len(), "{name}");
    for (a, (clip, frames, times)) in anims.iter().zip(&clips) {
        assert_eq!(a.name(), Some(clip.as_str()));
        assert_eq!(a.channels().count(), nodes.len());
        for (ch, ((base, nbase, morphs), m)) in a.channels().zip(geometry.iter().zip(&meshes)) {
            assert_eq!(ch.target().property(), Property::MorphTargetWeights);
            assert_eq!(
                ch.sampler().interpolation(),
                gltf::animation::Interpolation::Linear
            );
            let r = ch.reader(get);
            let t: Vec<f32> = r.read_inputs().unwrap().collect();
            assert_eq!(t.len(), times.len(), "{name}: {clip}");
            for (x, y) in t.iter().zip(times) {
                assert!((x - y).abs() <= 1e-6 * y.max(1.0), "{name}: {clip}: {t:?}");
            }
            assert!(t.windows(2).all(|w| w[0] < w[1]));
            let Some(ReadOutputs::MorphTargetWeights(w)) = r.read_outputs() else {
                panic!("{name}: {clip}: not weights");
            };
            let w: Vec<f32> = w.into_f32().collect();
            assert_eq!(w.len(), times.len() * targets);
            for (k, &f) in frames.iter().enumerate() {
                let wk = &w[k * targets..(k + 1) * targets];
                let mut pos = base.clone();
                let mut nrm = nbase.clone();
                for (i, &wi) in wk.iter().enumerate() {
                    if wi == 0.0 {
                        continue;
                    }
                    for (v, (p, n)) in pos.iter_mut().zip(nrm.iter_mut()).enumerate() {
                        for c in 0..3 {
                            p[c] += wi * morphs[i].0[v][c];
                            n[c] += wi * morphs[i].1[v][c];
                        }
                    }
                }
                let want = &m.morph_targets[f];
                for v in 0..pos.len() {
                    let d = dist(pos[v], to_y_up(want.positions[v]));
                    assert!(
                        d <= 1e-4,
                        "{name}: {clip}: key {k} (frame {f}): vertex {v}: {d}"
                    );
                    let d = dist(unit(nrm[v]), unit(to_y_up(want.normals[v])));
                    assert!(d <= 1e-4, "{name}: {clip}: key {k}: normal {v}: {d}");
                }
            }
        }
    }
    (g, facing)
}

/// Test 3: what every output must have.
fn check_structure(g: &Glb, model: &Model, options: &GltfOptions, name: &str) {
    for v in g.doc.views() {
        assert_eq!(v.offset() % 4, 0, "{name}: view {} unaligned", v.index());
        assert_eq!(v.stride(), None, "{name}: view {} has a stride", v.index());
    }
    for mesh in g.doc.meshes() {
        for p in mesh.primitives() {
            let pos = p.get(&gltf::Semantic::Positions).unwrap();
            assert!(pos.min().is_some() && pos.max().is_some(), "{name}");
            for t in p.morph_targets() {
                let pos = t.positions().unwrap();
                assert!(pos.min().is_some() && pos.max().is_some(), "{name}");
            }
        }
    }
    for a in g.doc.animations() {
        for s in a.samplers() {
            let input = s.input();
            assert!(input.min().is_some() && input.max().is_some(), "{name}");
        }
    }
    let filter = match options.filter {
        Filter::Nearest => gltf::texture::MagFilter::Nearest,
        Filter::Linear => gltf::texture::MagFilter::Linear,
    };
    for t in g.doc.textures() {
        assert_eq!(t.sampler().mag_filter(), Some(filter), "{name}");
        if options.filter == Filter::Nearest {
            assert_eq!(
                t.sampler().min_filter(),
                Some(gltf::texture::MinFilter::Nearest)
            );
        }
    }
    let textured: Vec<usize> = exported_meshes(model)
        .iter()
        .filter_map(|m| m.skin)
        .collect();
    let variants = model.skins.len() > 1 && !textured.is_empty();
    assert_eq!(
        g.doc
            .extensions_used()
            .any(|e| e == "KHR_materials_variants"),
        variants,
        "{name}"
    );
    if variants {
        assert_eq!(g.doc.variants().unwrap().count(), model.skins.len());
        for mesh in g.doc.meshes() {
            let p = mesh.primitives().next().unwrap();
            assert_eq!(p.mappings().count(), model.skins.len(), "{name}");
        }
    }
    // The material of skin s: its base colour, emissive and alpha mode.
    for (mesh, m) in g.doc.meshes().zip(exported_meshes(model)) {
        let p = mesh.primitives().next().unwrap();
        let Some(s) = m.skin else {
            assert!(p.material().index().is_none());
            continue;
        };
        let materials: Vec<(usize, gltf::Material)> = if variants {
            p.mappings()
                .map(|mp| (mp.variants()[0] as usize, mp.material()))
                .collect()
        } else {
            vec![(s, p.material())]
        };
        for (s, mat) in materials {
            let skin: &Skin = &model.skins[s];
            let Some(pic) = skin.pictures.first() else {
                continue;
            };
            let base = mat.pbr_metallic_roughness().base_color_texture();
            assert!(base.is_some(), "{name}: skin {s}");
            assert_eq!(
                mat.emissive_texture().is_some(),
                pic.fullbright_mask().is_some()
            );
            let holey = matches!(
                pic.pixels,
                Pixels::Indexed {
                    transparent_index: Some(_),
                    ..
                }
            );
            if holey {
                assert_eq!(mat.alpha_mode(), gltf::material::AlphaMode::Mask, "{name}");
            }
            if matches!(pic.pixels, Pixels::Indexed { .. }) && !holey {
                assert_eq!(mat.alpha_mode(), gltf::material::AlphaMode::Opaque);
            }
        }
    }
    let pictures: usize = model.skins.iter().map(|s| s.pictures.len()).sum();
    let fullbright = model
        .skins
        .iter()
        .filter(|s| {
            s.pictures
                .first()
                .is_some_and(|p| p.fullbright_mask().is_some())
        })
        .count();
    if !textured.is_empty() {
        assert_eq!(g.doc.images().count(), pictures + fullbright, "{name}");
    }
}

fn keyframe_options() -> Vec<(&'static str, GltfOptions)> {
    let d = GltfOptions::default;
    vec![
        ("", d()),
        (
            "-fps25-linear",
            GltfOptions {
                fps: Some(25.0),
                filter: Filter::Linear,
                ..d()
            },
        ),
        (
            "-groups",
            GltfOptions {
                clip_split: ClipSplit::Groups,
                ..d()
            },
        ),
        (
            "-none",
            GltfOptions {
                clip_split: ClipSplit::None,
                ..d()
            },
        ),
        (
            "-first",
            GltfOptions {
                frames: Frames::First,
                ..d()
            },
        ),
    ]
}

fn read_model(bytes: &[u8]) -> Model {
    retromodel::read(bytes, &Limits::default(), &NoFiles).unwrap()
}

#[test]
fn keyframe_fixtures_reproduce_every_pose() {
    let fixtures = quake_mdl::fixtures::all()
        .into_iter()
        .map(|(n, b)| (format!("mdl/{n}"), b))
        .chain(
            md2::fixtures::all()
                .into_iter()
                .map(|(n, b)| (format!("md2/{n}"), b)),
        );
    for (name, bytes) in fixtures {
        let model = read_model(&bytes);
        for (suffix, options) in keyframe_options() {
            let name = format!("{name}{suffix}");
            let (g, _) = check_keyframes(&model, &options, &name);
            check_structure(&g, &model, &options, &name);
        }
    }
}

#[test]
fn mdl_everything_has_variants_fullbrights_holes_and_group_timing() {
    let bytes = quake_mdl::fixtures::build(&quake_mdl::fixtures::Spec::everything()).write();
    let model = read_model(&bytes);
    assert!(model.skins.len() >= 2);
    let (glb, warnings) = to_glb(&model, &GltfOptions::default()).unwrap();
    assert!(
        warnings.iter().any(|w| w.contains("animated group")),
        "{warnings:?}"
    );
    let g = Glb::new(&glb);
    assert!(g
        .doc
        .extensions_used()
        .any(|e| e == "KHR_materials_variants"));
    let mat = g.doc.materials().next().unwrap();
    assert_eq!(mat.alpha_mode(), gltf::material::AlphaMode::Mask);
    assert!(mat.emissive_texture().is_some());
    assert_eq!(mat.emissive_factor(), [1.0; 3]);
    // The frame group keeps its stored times.
    let group = model
        .clips
        .iter()
        .find(|c| c.frame_times.is_some())
        .unwrap();
    let a = g
        .doc
        .animations()
        .find(|a| a.name() == Some(group.name.as_str()))
        .unwrap();
    let blob = g.blob.as_slice();
    let ch = a.channels().next().unwrap();
    let t: Vec<f32> = ch
        .reader(|b| (b.index() == 0).then_some(blob))
        .read_inputs()
        .unwrap()
        .collect();
    let mut want = vec![0.0];
    want.extend(group.frame_times.clone().unwrap());
    assert_eq!(t, want);
}

#[test]
fn separate_and_embedded_outputs_refer_to_their_parts() {
    let bytes = quake_mdl::fixtures::build(&quake_mdl::fixtures::Spec::everything()).write();
    let model = read_model(&bytes);
    let o = GltfOptions::default();
    let sep = to_gltf_separate(&model, &o, "my model.bin", "my model").unwrap();
    let doc = gltf::Gltf::from_slice(sep.json.as_bytes())
        .unwrap()
        .document;
    let buffer = doc.buffers().next().unwrap();
    assert!(matches!(
        buffer.source(),
        gltf::buffer::Source::Uri("my%20model.bin")
    ));
    assert_eq!(buffer.length(), sep.bin.len());
    let uris: Vec<String> = doc
        .images()
        .map(|i| match i.source() {
            gltf::image::Source::Uri { uri, mime_type } => {
                assert_eq!(mime_type, Some("image/png"));
                uri.to_string()
            }
            _ => panic!("image not in a file"),
        })
        .collect();
    let files: Vec<String> = sep
        .images
        .iter()
        .map(|(f, _)| f.replace(' ', "%20"))
        .collect();
    assert_eq!(uris, files);
    assert!(sep.images.iter().all(|(f, png)| {
        f.starts_with("my model_skin") && f.ends_with(".png") && png.starts_with(b"\x89PNG")
    }));
    let (json, _) = to_gltf_embedded(&model, &o).unwrap();
    let doc = gltf::Gltf::from_slice(json.as_bytes()).unwrap().document;
    assert!(matches!(
        doc.buffers().next().unwrap().source(),
        gltf::buffer::Source::Uri(u) if u.starts_with("data:application/octet-stream;base64,")
    ));
    assert!(doc.images().all(|i| matches!(
        i.source(),
        gltf::image::Source::Uri { uri, .. } if uri.starts_with("data:image/png;base64,")
    )));
}

// ---------------------------------------------------------------------------------------
// MD5.

/// The mesh with every weight moved to where its joint puts the vertex's bind position, as
/// Doom 3's exporter writes weights: then linear blend skinning equals MD5 skinning.
fn landed(file: &MeshFile) -> MeshFile {
    let mut out = file.clone();
    for m in &mut out.meshes {
        let mut bind = vec![[0.0; 3]; m.verts.len()];
        anim::bind_positions(m, &file.joints, &mut bind);
        for (v, b) in m.verts.iter().zip(&bind) {
            let s = v.start_weight as usize;
            for w in &mut m.weights[s..s + v.count_weight as usize] {
                let j = anim::JointPose::from_joint(&file.joints[w.joint as usize]);
                w.pos = j.inverse().transform_point(*b);
            }
        }
    }
    out
}

/// For each vertex, how far MD5 skinning can stray from linear blend skinning: the weighted
/// distance of each weight's landing point from the bind position (rotations keep lengths);
/// infinite for vertices with more than four joints (the export keeps four).
fn straying(file: &MeshFile) -> Vec<Vec<f32>> {
    file.meshes
        .iter()
        .map(|m| {
            let mut bind = vec![[0.0; 3]; m.verts.len()];
            anim::bind_positions(m, &file.joints, &mut bind);
            m.verts
                .iter()
                .zip(&bind)
                .map(|(v, b)| {
                    let s = v.start_weight as usize;
                    let ws = &m.weights[s..s + v.count_weight as usize];
                    let mut joints: Vec<u32> = ws.iter().map(|w| w.joint).collect();
                    joints.sort_unstable();
                    joints.dedup();
                    if joints.len() > 4 {
                        return f32::INFINITY;
                    }
                    ws.iter()
                        .map(|w| {
                            let j = anim::JointPose::from_joint(&file.joints[w.joint as usize]);
                            let p = j.transform_point(w.pos);
                            w.bias * (0..3).map(|k| (p[k] - b[k]).powi(2)).sum::<f32>().sqrt()
                        })
                        .sum()
                })
                .collect()
        })
        .collect()
}

/// The glTF skeleton: each node's parent and rest transform.
struct Nodes {
    parent: Vec<Option<usize>>,
    rest: Vec<([f32; 3], [f32; 4], [f32; 3])>,
}

impl Nodes {
    fn new(doc: &gltf::Document) -> Nodes {
        let (parent, rest) = node_tree(doc);
        Nodes { parent, rest }
    }

    /// Global matrices of every node with `a` applied at time `t` (clamped).
    fn global_at(&self, a: Option<&gltf::Animation>, blob: &[u8], t: f32) -> Vec<Mat> {
        let mut local = self.rest.clone();
        if let Some(a) = a {
            for ch in a.channels() {
                let r = ch.reader(|b| (b.index() == 0).then_some(blob));
                let times: Vec<f32> = r.read_inputs().unwrap().collect();
                let k = times.partition_point(|&x| x <= t).clamp(1, times.len() - 1);
                let s = ((t - times[k - 1]) / (times[k] - times[k - 1])).clamp(0.0, 1.0);
                let node = ch.target().node().index();
                match r.read_outputs().unwrap() {
                    ReadOutputs::Translations(it) => {
                        let v: Vec<[f32; 3]> = it.collect();
                        local[node].0 =
                            std::array::from_fn(|c| v[k - 1][c] * (1.0 - s) + v[k][c] * s);
                    }
                    ReadOutputs::Rotations(it) => {
                        let v: Vec<[f32; 4]> = it.into_f32().collect();
                        local[node].1 = slerp(v[k - 1], v[k], s);
                    }
                    ReadOutputs::Scales(it) => {
                        let v: Vec<[f32; 3]> = it.collect();
                        local[node].2 =
                            std::array::from_fn(|c| v[k - 1][c] * (1.0 - s) + v[k][c] * s);
                    }
                    _ => panic!("unexpected channel"),
                }
            }
        }
        let mut global: Vec<Option<Mat>> = vec![None; local.len()];
        fn get(
            i: usize,
            n: &Nodes,
            local: &[([f32; 3], [f32; 4], [f32; 3])],
            g: &mut [Option<Mat>],
        ) -> Mat {
            if let Some(m) = g[i] {
                return m;
            }
            let (t, r, s) = local[i];
            let m = trs(t, r, s);
            let m = match n.parent[i] {
                Some(p) => mat_mul(&get(p, n, local, g), &m),
                None => m,
            };
            g[i] = Some(m);
            m
        }
        (0..local.len())
            .map(|i| get(i, self, &local, &mut global))
            .collect()
    }
}

/// glTF linear blend skinning of every skinned mesh at time `t` of animation `a`.
fn gltf_skinned(g: &Glb, a: Option<&gltf::Animation>, t: f32) -> Vec<Vec<[f32; 3]>> {
    let blob = g.blob.as_slice();
    let get = |b: gltf::Buffer<'_>| (b.index() == 0).then_some(blob);
    let nodes = Nodes::new(&g.doc);
    let global = nodes.global_at(a, blob, t);
    let mut out = Vec::new();
    for node in g.doc.nodes() {
        let (Some(mesh), Some(skin)) = (node.mesh(), node.skin()) else {
            continue;
        };
        let joints = skin_matrices(&skin, blob, &global);
        let p = mesh.primitives().next().unwrap();
        let r = p.reader(get);
        let pos: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
        let js: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
        let ws: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
        out.push(
            pos.iter()
                .zip(js.iter().zip(&ws))
                .map(|(p, (j, w))| {
                    let mut sum = [0.0f32; 3];
                    for k in 0..4 {
                        let q = mat_point(&joints[j[k] as usize], *p);
                        for c in 0..3 {
                            sum[c] += w[k] * q[c];
                        }
                    }
                    sum
                })
                .collect(),
        );
    }
    out
}

/// Test 2: the export of `file` with `anims` attached skins like the library's MD5
/// skinning of `file`, within `1e-4 + stray[mesh][vertex]`, at 10 times per animation.
/// Returns the worst difference beyond the allowed straying.
fn check_md5(file: &MeshFile, anims: &[(String, md5::AnimFile)], name: &str) -> f32 {
    let mut model = md5::mesh_to_model(file, &[]).model;
    for (n, a) in anims {
        md5::attach_animation(&mut model, a, n).unwrap();
    }
    let options = GltfOptions::default();
    let glb = export_all(&model, &options, name);
    let g = Glb::new(&glb);
    check_structure(&g, &model, &options, name);
    assert_eq!(g.doc.animations().count(), anims.len());
    // Doom 3 fronts are clockwise and its normals follow them: reversed, every triangle with
    // an area faces along its normals in glTF.
    for mesh in g.doc.meshes() {
        let blob = g.blob.as_slice();
        let p = mesh.primitives().next().unwrap();
        let r = p.reader(|b| (b.index() == 0).then_some(blob));
        let pos: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
        let nrm: Vec<[f32; 3]> = r.read_normals().unwrap().collect();
        let idx: Vec<u32> = r.read_indices().unwrap().into_u32().collect();
        let [along, against] = facing_of(&pos, &nrm, &idx);
        assert!(
            along > 10 * against,
            "{name}: {along} along, {against} against"
        );
    }
    let stray = straying(file);
    let mut worst = 0f32;
    // At rest the skinned mesh is the bind pose.
    for (skinned, m) in gltf_skinned(&g, None, 0.0).iter().zip(&model.meshes) {
        for (s, p) in skinned.iter().zip(&m.positions) {
            worst = worst.max(dist(*s, to_y_up(*p)));
        }
    }
    for ((n, af), ga) in anims.iter().zip(g.doc.animations()) {
        assert_eq!(ga.name(), Some(n.as_str()));
        let a = anim::Animation::new(af).unwrap();
        let mapping = anim::match_joints(&file.joints, af).unwrap();
        let mut local = vec![anim::JointPose::IDENTITY; a.joint_count()];
        let mut global = local.clone();
        let mut pose = vec![anim::JointPose::IDENTITY; file.joints.len()];
        for k in 0..10 {
            let t = a.duration() * k as f32 / 9.0;
            a.sample_local(t, anim::Playback::Clamp, anim::RootMotion::Keep, &mut local);
            anim::to_global(&a.skeleton().parents, &local, &mut global);
            anim::gather(&global, &mapping, &mut pose);
            let ours = gltf_skinned(&g, Some(&ga), t);
            assert_eq!(ours.len(), file.meshes.len());
            for (mi, (m, skinned)) in file.meshes.iter().zip(&ours).enumerate() {
                let mut want = vec![[0.0; 3]; m.verts.len()];
                anim::skin_positions(m, &pose, &mut want);
                for (v, (s, w)) in skinned.iter().zip(&want).enumerate() {
                    let d = dist(*s, to_y_up(*w));
                    let allowed = 1e-4 + stray[mi][v];
                    assert!(
                        d <= allowed,
                        "{name}: {n}: t = {t}: mesh {mi} vertex {v}: {s:?} vs {:?} ({d} > {allowed})",
                        to_y_up(*w)
                    );
                    if stray[mi][v].is_finite() {
                        worst = worst.max(d - stray[mi][v]);
                    }
                }
            }
        }
    }
    worst
}

#[test]
fn md5_fixture_skins_like_the_library() {
    let file = landed(&md5::fixtures::skeleton_file());
    let anims = vec![("wave".to_string(), md5::fixtures::anim_file())];
    let worst = check_md5(&file, &anims, "md5/skeleton_landed");
    assert!(worst <= 1e-4, "{worst}");
    let file = landed(&md5::fixtures::two_meshes_file());
    check_md5(&file, &[], "md5/two_meshes_landed");
}

/// The fixture as written has weights that do not land on their vertex (a hand-made file):
/// the Model keeps only joint weights, so the export reproduces the Model's linear blend
/// skinning (the library's inverse bind matrices and influences), which is what any glTF
/// viewer will show.
#[test]
fn md5_fixture_as_written_skins_like_the_model() {
    let file = md5::fixtures::skeleton_file();
    let af = md5::fixtures::anim_file();
    let mut model = md5::mesh_to_model(&file, &[]).model;
    md5::attach_animation(&mut model, &af, "wave").unwrap();
    let glb = export_all(&model, &GltfOptions::default(), "md5/skeleton");
    let g = Glb::new(&glb);
    let a = anim::Animation::new(&af).unwrap();
    let mapping = anim::match_joints(&file.joints, &af).unwrap();
    let ibm: Vec<Mat> = file.joints.iter().map(anim::inverse_bind_matrix).collect();
    let mut global = vec![anim::JointPose::IDENTITY; 3];
    let mut pose = global.clone();
    let ga = g.doc.animations().next().unwrap();
    for k in 0..10 {
        let t = a.duration() * k as f32 / 9.0;
        a.sample_global(
            t,
            anim::Playback::Clamp,
            anim::RootMotion::Keep,
            &mut global,
        );
        anim::gather(&global, &mapping, &mut pose);
        let ours = gltf_skinned(&g, Some(&ga), t);
        let m = &model.meshes[0];
        for (v, s) in ours[0].iter().enumerate() {
            let mut want = [0.0f32; 3];
            for &(j, w) in &m.joint_weights[v] {
                let q = mat_point(
                    &mat_mul(&pose[j as usize].to_mat4(), &ibm[j as usize]),
                    m.positions[v],
                );
                for c in 0..3 {
                    want[c] += w * q[c];
                }
            }
            let d = dist(*s, to_y_up(want));
            assert!(d <= 1e-4, "t = {t}: vertex {v}: {d}");
        }
    }
}

#[test]
fn md5_anim_alone_and_camera_export() {
    // An md5anim on its own: joints and the animation, no mesh, no skin.
    let file = md5::fixtures::anim_file();
    let model = md5::anim_to_model(&file, "wave", &[]).model;
    let glb = export_all(&model, &GltfOptions::default(), "md5/wave_anim");
    let g = Glb::new(&glb);
    assert_eq!(g.doc.skins().count(), 0);
    assert_eq!(g.doc.animations().count(), 1);
    assert_eq!(g.doc.nodes().count(), 3);

    // The camera: node at each key, looking along Doom 3's +X, the cut held.
    let cam = md5::fixtures::camera_file();
    let model = md5::camera_to_model(&cam, &[]).model;
    let (glb, warnings) = to_glb(&model, &GltfOptions::default()).unwrap();
    dump("md5/pan.glb", &glb);
    export_all(&model, &GltfOptions::default(), "md5/pan");
    assert!(
        warnings.iter().any(|w| w.contains("field of view")),
        "{warnings:?}"
    );
    let g = Glb::new(&glb);
    let node = g.doc.nodes().find(|n| n.camera().is_some()).unwrap();
    let camera = node.camera().unwrap();
    let gltf::camera::Projection::Perspective(p) = camera.projection() else {
        panic!("not perspective");
    };
    let want_yfov = 2.0 * ((45f32.to_radians()).tan() * 0.75).atan();
    assert!((p.yfov() - want_yfov).abs() < 1e-6);
    let nodes = Nodes::new(&g.doc);
    let a = g.doc.animations().next().unwrap();
    let path = model.camera.as_ref().unwrap();
    for (k, key) in path.keys.iter().enumerate() {
        let t = k as f32 / path.fps;
        let m = nodes.global_at(Some(&a), &g.blob, t)[node.index()];
        assert!(
            dist([m[12], m[13], m[14]], to_y_up(key.position)) < 1e-4,
            "key {k}"
        );
        // The glTF camera looks along its -Z, Doom 3's along +X.
        let forward = [-m[8], -m[9], -m[10]];
        let q = retromodel::math::Quat::from_array(key.rotation);
        assert!(
            dist(forward, to_y_up(q.rotate([1.0, 0.0, 0.0]))) < 1e-4,
            "key {k}"
        );
        let up = [m[4], m[5], m[6]];
        assert!(
            dist(up, to_y_up(q.rotate([0.0, 0.0, 1.0]))) < 1e-4,
            "key {k}"
        );
    }
    // Between key 1 and the cut at frame 2 the camera holds key 1.
    let t = 1.5 / path.fps;
    let m = nodes.global_at(Some(&a), &g.blob, t)[node.index()];
    assert!(dist([m[12], m[13], m[14]], to_y_up(path.keys[1].position)) < 1e-4);
}

/// A hand-made skeletal model: two root joints, a vertex with five influences, a vertex
/// with none.
fn two_roots() -> Model {
    let joint = |name: &str, parent, translation| Joint {
        name: name.into(),
        parent,
        translation,
        rotation: [0.0, 0.0, 0.0, 1.0],
    };
    let joints = vec![
        joint("a", None, [0.0, 0.0, 0.0]),
        joint("b", None, [10.0, 0.0, 0.0]),
        joint("c", Some(0), [0.0, 0.0, 10.0]),
        joint("d", Some(1), [10.0, 0.0, 10.0]),
        joint("e", Some(3), [10.0, 0.0, 20.0]),
    ];
    let positions = vec![[0.0, 0.0, 0.0], [10.0, 0.0, 10.0], [5.0, 0.0, 20.0]];
    let rest: Vec<JointTransform> = joints
        .iter()
        .map(|j| {
            let p = j.parent.map_or([0.0; 3], |p| joints[p].translation);
            JointTransform {
                translation: [0, 1, 2].map(|k| j.translation[k] - p[k]),
                rotation: [0.0, 0.0, 0.0, 1.0],
            }
        })
        .collect();
    let mut moved = rest.clone();
    moved[1].translation[2] = 5.0;
    moved[4].rotation = [
        0.0,
        0.0,
        std::f32::consts::FRAC_1_SQRT_2,
        -std::f32::consts::FRAC_1_SQRT_2,
    ];
    Model {
        meshes: vec![Mesh {
            name: "m".into(),
            normals: vec![[0.0, -1.0, 0.0]; 3],
            uvs: vec![[0.0, 0.0], [1.0, 0.0], [0.5, 1.0]],
            triangles: vec![[0, 1, 2]],
            source_vertices: vec![0, 1, 2],
            joint_weights: vec![
                vec![(0, 1.0)],
                vec![(0, 0.1), (1, 0.3), (2, 0.2), (3, 0.25), (4, 0.15)],
                vec![],
            ]
            .into_iter()
            .map(Into::into)
            .collect(),
            positions,
            ..Mesh::default()
        }],
        joints,
        animations: vec![SkeletalAnimation {
            name: "move".into(),
            fps: 5.0,
            frames: vec![rest, moved].into(),
            bounds: Vec::new(),
            loops: false,
            weight_scales: None,
        }],
        ..Model::default()
    }
}

#[test]
fn several_roots_get_a_common_parent_and_influences_are_cut() {
    let model = two_roots();
    let (glb, warnings) = to_glb(&model, &GltfOptions::default()).unwrap();
    dump("hand/two_roots.glb", &glb);
    export_all(&model, &GltfOptions::default(), "hand/two_roots");
    assert!(
        warnings.iter().any(|w| w.contains("more than 4")),
        "{warnings:?}"
    );
    assert!(warnings
        .iter()
        .any(|w| w.contains("no usable joint weight")));
    let g = Glb::new(&glb);
    let skin = g.doc.skins().next().unwrap();
    let top = skin.skeleton().unwrap();
    assert_eq!(top.name(), Some("skeleton"));
    assert_eq!(top.children().count(), 2);
    let roots: Vec<usize> = g
        .doc
        .default_scene()
        .unwrap()
        .nodes()
        .map(|n| n.index())
        .collect();
    assert!(roots.contains(&top.index()));
    let blob = g.blob.as_slice();
    let p = g.doc.meshes().next().unwrap().primitives().next().unwrap();
    let r = p.reader(|b| (b.index() == 0).then_some(blob));
    let ws: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
    let js: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
    assert_eq!(js[1], [1, 3, 2, 4]);
    for w in &ws {
        assert!((w.iter().sum::<f32>() - 1.0).abs() < 1e-6);
    }
    // Eight influences in two sets when asked.
    let o = GltfOptions {
        max_influences: 8,
        ..GltfOptions::default()
    };
    let (glb, warnings) = to_glb(&model, &o).unwrap();
    dump("hand/two_roots_8.glb", &glb);
    assert!(!warnings.iter().any(|w| w.contains("more than")));
    let g = Glb::new(&glb);
    let p = g.doc.meshes().next().unwrap().primitives().next().unwrap();
    assert!(p.get(&gltf::Semantic::Joints(1)).is_some());
}

// ---------------------------------------------------------------------------------------
// Corpus.

#[test]
fn corpus_exports_reproduce_poses_and_skinning() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let (mut keyframe, mut skipped, mut skinned_mdl7) = (0, 0, 0);
    let mut facing = [0usize; 2];
    for path in common::files_with_extension(&dir, &["mdl", "md2"]) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(model) = retromodel::read(&bytes, &Limits::default(), &NoFiles) else {
            skipped += 1;
            continue;
        };
        if !model.animations.is_empty() && model.meshes.iter().any(|m| !m.joint_weights.is_empty())
        {
            // MDL7 with bones exports a skin instead of morph targets: tests/gs_mdl7_gltf.rs.
            skinned_mdl7 += 1;
            continue;
        }
        let rel = path.strip_prefix(&dir).unwrap().display().to_string();
        let (g, f) = check_keyframes(&model, &GltfOptions::default(), &format!("corpus/{rel}"));
        facing[0] += f[0];
        facing[1] += f[1];
        check_structure(&g, &model, &GltfOptions::default(), &rel);
        keyframe += 1;
    }
    let (mut skeletal, mut pairs, mut worst) = (0, 0, 0f32);
    for path in common::files_with_extension(&dir, &["md5mesh"]) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(file) = md5::parse_mesh(&bytes, &Limits::default()) else {
            skipped += 1;
            continue;
        };
        let file = file.file;
        let mut anims = Vec::new();
        for p in common::md5_anims_beside(&path) {
            let Ok(a) = md5::parse_anim(&std::fs::read(&p).unwrap(), &Limits::default()) else {
                continue;
            };
            if anim::match_joints(&file.joints, &a.file).is_ok()
                && anim::Animation::new(&a.file).is_ok()
            {
                let stem = p.file_stem().unwrap().to_string_lossy().to_string();
                anims.push((stem, a.file));
            }
        }
        if file
            .meshes
            .iter()
            .any(|m| anim::check_mesh(m, file.joints.len()).is_err())
        {
            skipped += 1;
            continue;
        }
        let rel = path.strip_prefix(&dir).unwrap().display().to_string();
        pairs += anims.len();
        worst = worst.max(check_md5(&file, &anims, &format!("corpus/{rel}")));
        skeletal += 1;
    }
    for path in common::files_with_extension(&dir, &["md5anim", "md5camera"]) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(model) = retromodel::read(&bytes, &Limits::default(), &NoFiles) else {
            skipped += 1;
            continue;
        };
        let rel = path.strip_prefix(&dir).unwrap().display().to_string();
        let glb = export_all(&model, &GltfOptions::default(), &format!("corpus/{rel}"));
        Glb::new(&glb);
    }
    eprintln!(
        "{keyframe} keyframe models ({skinned_mdl7} skinned MDL7 left to gs_mdl7_gltf), {skeletal} md5meshes with {pairs} animations (worst {worst} beyond weight straying), {skipped} unreadable files skipped"
    );
    assert!(keyframe > 0);
    // Quake and Quake 2 fronts are clockwise: reversed, they face along the normals in glTF.
    eprintln!(
        "{} triangles face along their normals, {} against",
        facing[0], facing[1]
    );
    assert!(facing[0] > 4 * facing[1], "{facing:?}");
}

#[test]
fn edge_cases_export() {
    // Nothing at all: a document with only its asset.
    let (glb, _) = to_glb(&Model::default(), &GltfOptions::default()).unwrap();
    dump("edge/empty.glb", &glb);
    let g = Glb::new(&glb);
    assert_eq!(g.doc.nodes().count(), 0);
    assert_eq!(g.doc.buffers().count(), 0);

    // The base mesh of a skeletal model: skin and joints, no animation.
    let mut model = md5::mesh_to_model(&md5::fixtures::skeleton_file(), &[]).model;
    md5::attach_animation(&mut model, &md5::fixtures::anim_file(), "wave").unwrap();
    let first = GltfOptions {
        frames: Frames::First,
        ..GltfOptions::default()
    };
    let g = Glb::new(&export_all(&model, &first, "edge/skeleton_first"));
    assert_eq!(g.doc.animations().count(), 0);
    assert_eq!(g.doc.skins().count(), 1);

    // A camera with one key: a still camera.
    let mut cam = md5::fixtures::camera_file();
    cam.frames.truncate(1);
    cam.cuts.clear();
    let model = md5::camera_to_model(&cam, &[]).model;
    let g = Glb::new(&export_all(
        &model,
        &GltfOptions::default(),
        "edge/still_camera",
    ));
    assert_eq!(g.doc.cameras().count(), 1);
    assert_eq!(g.doc.animations().count(), 0);

    // Skins that no mesh uses are left out, with a warning.
    let mut model = read_model(&quake_mdl::fixtures::minimal());
    model.meshes[0].skin = None;
    let (glb, warnings) = to_glb(&model, &GltfOptions::default()).unwrap();
    dump("edge/no_skin.glb", &glb);
    assert!(warnings.iter().any(|w| w.contains("skins left out")));
    let g = Glb::new(&glb);
    assert_eq!(g.doc.images().count(), 0);
    assert_eq!(g.doc.materials().count(), 0);

    // One frame: no morph targets, no animation.
    let mut model = read_model(&quake_mdl::fixtures::minimal());
    model.frames.truncate(1);
    model.clips.clear();
    for m in &mut model.meshes {
        m.morph_targets.truncate(1);
    }
    let (g, _) = check_keyframes(&model, &GltfOptions::default(), "edge/one_frame");
    assert_eq!(g.doc.animations().count(), 0);

    // A non-finite position is an error, not a broken file.
    let mut model = read_model(&quake_mdl::fixtures::minimal());
    model.meshes[0].morph_targets[1].positions[0][0] = f32::NAN;
    let e = to_glb(&model, &GltfOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "gltf: mesh 0: frame 1: vertex 0 has a non-finite position [NaN, 0.0, 0.0]"
    );
}
