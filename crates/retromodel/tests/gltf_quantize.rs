//! Issue 16, criterion 2: quantised glTF (`GltfOptions::quantize`, `KHR_mesh_quantization`)
//! of every corpus keyframe model, read back with the `gltf` crate (not this crate's
//! importer): every pose of every vertex within half the source's quantisation step on
//! every axis (Quake MDL and GameStudio MDL2..MDL5: the header's scale; MD2: each frame's
//! scale; MD3: 1/64), within one step on an axis whose extent needed a coarser grid (the
//! issue's bound); MDL7 stores floats: within half the grid step, which spans the mesh's
//! largest extent in at most 32767 steps. Every normal within the exporter's tolerance,
//! the exporter's own error report equal to what is measured, the extension required
//! exactly when a position or normal is stored as integers, texture coordinates rounded up
//! by less than 1/65535 and in their texels, and the output smaller than
//! the float export. The size totals per format are printed (`--nocapture`). Skipped
//! without `RETROMODEL_CORPUS`.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]
#![cfg(feature = "gltf")]

mod common;

use std::collections::BTreeMap;

use gltf::accessor::{DataType, Dimensions};
use retromodel::formats::{gs_mdl, md2, quake_mdl};
use retromodel::interchange::gltf::{export, Container, GltfOptions, Output, QUANTIZATION};
use retromodel::model::to_y_up;
use retromodel::{Document, Limits, Model, NoFiles};

use common::mat::{mat_mul, node_tree, trs, Mat};

/// Decoded `VEC3` elements.
type Points = Vec<[f64; 3]>;

/// The angle (radians) a quantised normal may be off: the exporter's tolerance
/// (`NORMAL_TOLERANCE`, 0.01) and a little for `f32` decoding.
const NORMAL_ANGLE: f64 = 0.0101;

/// The document of a GLB that may require `KHR_mesh_quantization` (which the `gltf` crate
/// validates but does not list as supported: the requirement is dropped before its
/// validation), and the binary chunk.
fn read_glb(glb: &[u8]) -> (gltf::Document, Vec<u8>) {
    let g = gltf::Gltf::from_slice_without_validation(glb).expect("a GLB");
    let mut root = g.document.into_json();
    let required = root.extensions_required.iter().any(|e| e == QUANTIZATION);
    assert_eq!(
        required,
        root.extensions_used.iter().any(|e| e == QUANTIZATION)
    );
    // Required exactly when a position or normal is stored as integers.
    let integers = root.meshes.iter().flat_map(|m| &m.primitives).any(|p| {
        let attrs = p.attributes.values();
        let targets = p
            .targets
            .iter()
            .flatten()
            .flat_map(|t| t.positions.iter().chain(&t.normals));
        attrs.chain(targets).any(|a| {
            use gltf::json::accessor::{GenericComponentType, Type};
            use gltf::json::validation::Checked::Valid;
            let acc = &root.accessors[a.value()];
            let float = matches!(
                acc.component_type,
                Valid(GenericComponentType(DataType::F32))
            );
            acc.type_ == Valid(Type::Vec3) && !float
        })
    });
    assert_eq!(required, integers, "KHR_mesh_quantization required");
    root.extensions_required.retain(|e| e != QUANTIZATION);
    let doc = gltf::Document::from_json(root).expect("valid glTF");
    (doc, g.blob.unwrap_or_default())
}

/// An accessor's `VEC3` elements as the glTF specification decodes them: integers
/// normalised when the accessor says so, sparse values applied.
fn vec3s<'a>(acc: &gltf::Accessor<'a>, blob: &'a [u8]) -> Vec<[f64; 3]> {
    assert_eq!(acc.dimensions(), Dimensions::Vec3);
    fn read<'a, T: gltf::accessor::Item + Copy>(
        acc: &gltf::Accessor<'a>,
        blob: &'a [u8],
        f: impl Fn(T) -> f64,
    ) -> Vec<[f64; 3]> {
        gltf::accessor::Iter::<[T; 3]>::new(acc.clone(), |_: gltf::Buffer<'a>| Some(blob))
            .expect("readable accessor")
            .map(|v| v.map(&f))
            .collect()
    }
    let norm = acc.normalized();
    match acc.data_type() {
        DataType::F32 => read::<f32>(acc, blob, f64::from),
        DataType::I8 if norm => read::<i8>(acc, blob, |c| (f64::from(c) / 127.0).max(-1.0)),
        DataType::I8 => read::<i8>(acc, blob, f64::from),
        DataType::U8 if norm => read::<u8>(acc, blob, |c| f64::from(c) / 255.0),
        DataType::U8 => read::<u8>(acc, blob, f64::from),
        DataType::I16 if norm => read::<i16>(acc, blob, |c| (f64::from(c) / 32767.0).max(-1.0)),
        DataType::I16 => read::<i16>(acc, blob, f64::from),
        DataType::U16 if norm => read::<u16>(acc, blob, |c| f64::from(c) / 65535.0),
        DataType::U16 => read::<u16>(acc, blob, f64::from),
        t => panic!("a VEC3 of {t:?}"),
    }
}

/// The quantisation step per model axis of each pose of the keyframe file `bytes`, read
/// from the file itself; `None` for MDL7, which stores floats.
fn source_steps(bytes: &[u8], frames: usize) -> Option<Vec<[f32; 3]>> {
    let limits = Limits::default();
    Some(match &bytes[..4] {
        b"IDPO" => vec![quake_mdl::File::parse(bytes, &limits).unwrap().header.scale; frames],
        b"IDP2" => md2::File::parse(bytes, &limits)
            .unwrap()
            .frames
            .iter()
            .map(|f| f.scale.map(f32::abs))
            .collect(),
        b"IDP3" => vec![[1.0 / 64.0; 3]; frames],
        b"MDL7" => return None,
        _ => vec![gs_mdl::File::parse(bytes, &limits).unwrap().header.scale; frames],
    })
}

/// What one file's check found.
#[derive(Default)]
struct Found {
    /// Poses compared (vertex count times poses, summed over meshes).
    vertex_poses: usize,
    /// The largest position error measured, in model units.
    error: f64,
    /// The largest error as a share of the source's step on its axis and pose (sources
    /// with a step).
    of_step: f64,
    /// The largest normal angle.
    normal: f64,
    /// Texture coordinates compared.
    uvs: usize,
}

/// Checks the quantised export `q` of `model` (from the file `bytes`) against the model.
fn check(what: &str, bytes: &[u8], model: &Model, q: &Output) -> Found {
    let (doc, blob) = read_glb(&q.file);
    let steps = source_steps(bytes, model.frames.len());
    let (parent, rest) = node_tree(&doc);
    let local: Vec<Mat> = rest.iter().map(|&(t, r, s)| trs(t, r, s)).collect();
    let world = |mut i: usize| -> Mat {
        let mut m = local[i];
        while let Some(p) = parent[i] {
            m = mat_mul(&local[p], &m);
            i = p;
        }
        m
    };
    let drawn: Vec<usize> = (0..model.meshes.len())
        .filter(|&m| !model.meshes[m].positions.is_empty() && !model.meshes[m].triangles.is_empty())
        .collect();
    let mesh_nodes: Vec<gltf::Node<'_>> = doc.nodes().filter(|n| n.mesh().is_some()).collect();
    assert_eq!(mesh_nodes.len(), drawn.len(), "{what}: mesh nodes");
    assert_eq!(
        q.quantized.len(),
        drawn.len(),
        "{what}: quantisation report"
    );
    let mut found = Found::default();
    for (node, &mi) in mesh_nodes.iter().zip(&drawn) {
        let m = &model.meshes[mi];
        let report = &q.quantized[node.mesh().unwrap().index()];
        let prim = node.mesh().unwrap().primitives().next().unwrap();
        let position = prim.get(&gltf::Semantic::Positions).unwrap();
        if node.skin().is_some() {
            // glTF ignores a skinned mesh's node transform: its positions stay floats.
            assert_eq!(
                position.data_type(),
                DataType::F32,
                "{what}: skinned positions"
            );
            assert_eq!(report.step, None, "{what}: skinned mesh report");
            continue;
        }
        let w = world(node.index());
        let point = |p: [f64; 3]| -> [f64; 3] {
            std::array::from_fn(|r| {
                (0..3).map(|k| f64::from(w[4 * k + r]) * p[k]).sum::<f64>() + f64::from(w[12 + r])
            })
        };
        // The normal matrix of a translation and a scale per axis.
        let normal =
            |n: [f64; 3]| -> [f64; 3] { std::array::from_fn(|k| n[k] / f64::from(w[5 * k])) };
        let base = vec3s(&position, &blob);
        let base_n = vec3s(&prim.get(&gltf::Semantic::Normals).unwrap(), &blob);
        assert_eq!(base.len(), m.positions.len(), "{what}: vertices");
        // Float grids: 32767 steps (65535 without targets) over the largest extent.
        let targets: Vec<(Points, Points)> = prim
            .morph_targets()
            .map(|t| {
                (
                    vec3s(&t.positions().unwrap(), &blob),
                    vec3s(&t.normals().unwrap(), &blob),
                )
            })
            .collect();
        assert_eq!(
            targets.len() + 1,
            m.morph_targets.len().max(1),
            "{what}: targets"
        );
        let grid = report.step.map(|s| s.map(f64::from));
        let finest: [f64; 3] = std::array::from_fn(|a| {
            steps
                .iter()
                .flatten()
                .map(|s| f64::from(s[a]))
                .fold(f64::INFINITY, f64::min)
        });
        let mut measured = 0.0f64;
        for f in 0..=targets.len() {
            let pose = m
                .morph_targets
                .get(f)
                .map_or(&m.positions, |t| &t.positions);
            let normals = m.morph_targets.get(f).map_or(&m.normals, |t| &t.normals);
            for v in 0..base.len() {
                let (mut p, mut n) = (base[v], base_n[v]);
                if f > 0 {
                    let (dp, dn) = (&targets[f - 1].0[v], &targets[f - 1].1[v]);
                    p = std::array::from_fn(|k| p[k] + dp[k]);
                    n = std::array::from_fn(|k| n[k] + dn[k]);
                }
                let got = point(p);
                let want = to_y_up(pose[v]).map(f64::from);
                // glTF (x, y, z) is the model's (x, z, -y).
                for (a, model_axis) in [0, 2, 1].into_iter().enumerate() {
                    let e = (got[a] - want[a]).abs();
                    measured = measured.max(e);
                    let allowed = match (&steps, grid) {
                        // Half the step on a grid as fine as the source's finest; one
                        // step on an axis whose extent made the grid coarser.
                        (Some(s), Some(g)) if g[a] <= finest[model_axis] * (1.0 + 1e-6) => {
                            f64::from(s[f][model_axis]) / 2.0
                        }
                        (Some(s), _) => f64::from(s[f][model_axis]),
                        // A float source: half the grid step.
                        (None, Some(g)) => g[a] / 2.0,
                        (None, None) => 0.0,
                    };
                    let slack = 1e-5 * want[a].abs().max(1.0);
                    assert!(
                        e <= allowed + slack,
                        "{what}: mesh {mi} pose {f} vertex {v} axis {a}: {got:?} for {want:?} \
                         (error {e}, allowed {allowed})"
                    );
                    if let Some(s) = steps.as_ref().filter(|s| s[f][model_axis] > 0.0) {
                        found.of_step = found.of_step.max(e / f64::from(s[f][model_axis]));
                    }
                }
                let n = normal(n);
                let len = n.iter().map(|c| c * c).sum::<f64>().sqrt();
                let wn = to_y_up(normals[v]).map(f64::from);
                let wlen = wn.iter().map(|c| c * c).sum::<f64>().sqrt();
                let cos = (0..3).map(|k| n[k] * wn[k]).sum::<f64>() / (len * wlen);
                let angle = cos.clamp(-1.0, 1.0).acos();
                assert!(
                    angle <= NORMAL_ANGLE,
                    "{what}: mesh {mi} pose {f} vertex {v}: normal {n:?} for {wn:?} ({angle} rad)"
                );
                found.normal = found.normal.max(angle);
            }
            found.vertex_poses += base.len();
        }
        // Texture coordinates: 16-bit ones rounded up, less than 1/65535 away; a texel's
        // corner (MD2) or centre (MDL) stays in its texel.
        if let Some(acc) = prim.get(&gltf::Semantic::TexCoords(0)) {
            let uvs: Vec<[f64; 2]> = match acc.data_type() {
                DataType::U16 => {
                    assert!(acc.normalized(), "{what}: texture coordinates");
                    gltf::accessor::Iter::<[u16; 2]>::new(acc, |_| Some(blob.as_slice()))
                        .unwrap()
                        .map(|c| c.map(|x| f64::from(x) / 65535.0))
                        .collect()
                }
                DataType::F32 => {
                    gltf::accessor::Iter::<[f32; 2]>::new(acc, |_| Some(blob.as_slice()))
                        .unwrap()
                        .map(|c| c.map(f64::from))
                        .collect()
                }
                t => panic!("{what}: texture coordinates of {t:?}"),
            };
            let size = m.skin_size.map_or([1.0; 2], |s| s.map(f64::from));
            let texels = matches!(&bytes[..4], b"IDPO" | b"IDP2");
            for (got, want) in uvs.iter().zip(&m.uvs) {
                for k in 0..2 {
                    let d = got[k] - f64::from(want[k]);
                    assert!(
                        (0.0..1.0 / 65535.0 + 1e-9).contains(&d) || (d.abs() < 1e-9),
                        "{what}: texture coordinate {} became {}",
                        want[k],
                        got[k]
                    );
                    // Quake MDL and MD2 store texels (the other formats floats).
                    if !texels {
                        continue;
                    }
                    let texel = |u: f64| (u * size[k] + 1.0 / 256.0).floor();
                    assert_eq!(
                        texel(got[k]),
                        texel(f64::from(want[k])),
                        "{what}: texture coordinate {} changed texel",
                        want[k]
                    );
                }
            }
            found.uvs += uvs.len();
        }
        if let (None, Some(g)) = (&steps, grid) {
            // A float source: a grid step of at most the largest extent over 32767.
            let mut extent = 0.0f64;
            for a in 0..3 {
                let all = || {
                    m.morph_targets
                        .iter()
                        .flat_map(|t| &t.positions)
                        .chain(&m.positions)
                        .map(|p| f64::from(p[a]))
                };
                let lo = all().fold(f64::INFINITY, f64::min);
                let hi = all().fold(f64::NEG_INFINITY, f64::max);
                extent = extent.max(hi - lo);
            }
            for s in g {
                assert!(
                    s <= extent / 32767.0 * (1.0 + 1e-5),
                    "{what}: grid step {s} for extent {extent}"
                );
            }
        }
        let slack = 1e-5 * measured.max(1e-3);
        assert!(
            (report.position_error - measured).abs() <= slack.max(1e-6),
            "{what}: mesh {mi}: reported error {} measured {measured}",
            report.position_error
        );
        found.error = found.error.max(measured);
    }
    found
}

/// Bytes per format: the inputs, and the float and quantised GLBs with their image share.
#[derive(Default)]
struct Sizes {
    files: usize,
    input: usize,
    float: usize,
    quantized: usize,
    images: usize,
}

/// The bytes of the images stored in a GLB's buffer.
fn image_bytes(glb: &[u8]) -> usize {
    let (doc, _) = read_glb(glb);
    doc.images()
        .filter_map(|i| match i.source() {
            gltf::image::Source::View { view, .. } => Some(view.length()),
            _ => None,
        })
        .sum()
}

#[test]
fn corpus_keyframe_models_quantised_within_their_step() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let magics: [(&[u8; 4], &str); 9] = [
        (b"IDPO", "Quake MDL"),
        (b"IDP2", "MD2"),
        (b"IDP3", "MD3"),
        (b"MDL2", "GameStudio"),
        (b"MDL3", "GameStudio"),
        (b"MDL4", "GameStudio"),
        (b"MDL5", "GameStudio"),
        (b"MDL7", "GameStudio"),
        (b"HMP7", "HMP"),
    ];
    let mut sizes: BTreeMap<&str, Sizes> = BTreeMap::new();
    let (mut checked, mut poses, mut worst_step, mut worst_normal) = (0, 0, 0.0f64, 0.0f64);
    let mut uvs = 0;
    let limits = Limits::default();
    for (magic, format) in magics {
        for path in common::files_with_magic(&dir, magic) {
            let s = path.to_string_lossy();
            if s.contains("edge_cases") || s.contains("malformed") || s.contains("invalid") {
                continue;
            }
            let (what, bytes) = common::read_named(&path);
            let Ok(doc) = Document::parse(&bytes, &limits) else {
                continue;
            };
            let model = doc.to_model(&Default::default(), &NoFiles).model;
            let float = export(&model, &GltfOptions::default(), &Container::Glb)
                .unwrap_or_else(|e| panic!("{what}: {e}"));
            let options = GltfOptions {
                quantize: true,
                ..GltfOptions::default()
            };
            let q =
                export(&model, &options, &Container::Glb).unwrap_or_else(|e| panic!("{what}: {e}"));
            // Declaring the extension and strided views costs some JSON: a model of a few
            // vertices may grow by that much, never more.
            assert!(
                q.file.len() <= float.file.len() + 256,
                "{what}: quantised {} bytes, float {}",
                q.file.len(),
                float.file.len()
            );
            if format != "HMP" {
                let found = check(&what, &bytes, &model, &q);
                poses += found.vertex_poses;
                worst_step = worst_step.max(found.of_step);
                worst_normal = worst_normal.max(found.normal);
                uvs += found.uvs;
                checked += 1;
            }
            let e = sizes.entry(format).or_default();
            e.files += 1;
            e.input += bytes.len();
            e.float += float.file.len();
            e.quantized += q.file.len();
            e.images += image_bytes(&q.file);
        }
    }
    eprintln!(
        "{checked} keyframe files quantised, {poses} vertex poses within their source's step \
         (largest error {worst_step:.3} of a step), normals within {:.3} degrees, {uvs} \
         texture coordinates in their texels",
        worst_normal.to_degrees()
    );
    eprintln!("format        files   input MB   float MB  quantised MB (x input; images MB)");
    for (format, s) in &sizes {
        eprintln!(
            "{format:12} {:6} {:10.2} {:10.2} {:10.2} ({:.2}x; {:.2})",
            s.files,
            s.input as f64 / 1e6,
            s.float as f64 / 1e6,
            s.quantized as f64 / 1e6,
            s.quantized as f64 / s.input as f64,
            s.images as f64 / 1e6
        );
    }
    assert!(checked >= 300, "{checked} files checked");
    assert!(worst_step <= 1.0 + 1e-6, "{worst_step}");
    for (format, s) in &sizes {
        assert!(
            s.quantized < s.float,
            "{format}: quantised output not smaller"
        );
    }
}
