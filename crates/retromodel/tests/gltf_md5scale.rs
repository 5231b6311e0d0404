//! glTF export and import of weight scales (the Quake II re-release's `.md5scale`,
//! [`WeightScales`]): a hand-made three-joint model whose limb shrinks to nothing and
//! doubles, and whose tip doubles with its position.
//!
//! 1. The skinned positions the engine draws (q2pro's `calc_skel_vert`), computed here from
//!    the formula, equal standard glTF skinning of the export (`Σ w · global · IBM · p`, the
//!    samplers read back with their interpolation) at every frame, in Y-up, to 1e-4.
//! 2. The import gives back the weight scales, three joints (no helpers), the animation's
//!    translations (1e-5) and the joint weights.
//! 3. A model without weight scales (or with unit ones) exports exactly as before: no helper
//!    node.
//!
//! With `RETROMODEL_GLTF_OUT=<dir>` the scaled export is written there as `md5scale.glb` for
//! Khronos' validator.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]
#![cfg(feature = "gltf")]

mod common;

use gltf::animation::util::ReadOutputs;
use gltf::animation::Interpolation;
use retromodel::interchange::gltf::{to_glb, GltfOptions};
use retromodel::interchange::ImportOptions;
use retromodel::math::Quat;
use retromodel::model::pose::JointPose;
use retromodel::model::{
    to_y_up, Joint, JointTransform, Mesh, Model, SkeletalAnimation, WeightScales,
};
use retromodel::NoFiles;

use common::mat::{mat_mul, mat_point, node_tree, skin_matrices, trs, Mat};

const FPS: f32 = 8.0;
const FRAMES: usize = 4;

/// A unit quaternion turning `degrees` about `axis` (a unit vector).
fn about(axis: [f32; 3], degrees: f32) -> [f32; 4] {
    let h = (degrees.to_radians() * 0.5) as f64;
    let (s, c) = (h.sin() as f32, h.cos() as f32);
    [axis[0] * s, axis[1] * s, axis[2] * s, c]
}

fn qmul(a: [f32; 4], b: [f32; 4]) -> [f32; 4] {
    (Quat::from_array(a) * Quat::from_array(b))
        .normalize()
        .to_array()
}

fn dist(a: [f32; 3], b: [f32; 3]) -> f32 {
    (0..3).map(|k| (a[k] - b[k]).abs()).fold(0.0, f32::max)
}

/// Root at the origin, a limb above it (turned about X) and a tip above the limb (turned
/// about Y); two vertices on each joint, one split half and half between limb and root.
fn model(weight_scales: Option<WeightScales>) -> Model {
    let joint = |name: &str, parent, translation, rotation| Joint {
        name: name.into(),
        parent,
        translation,
        rotation,
    };
    let joints = vec![
        joint("root", None, [0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0]),
        joint(
            "limb",
            Some(0),
            [0.0, 0.0, 10.0],
            about([1.0, 0.0, 0.0], 30.0),
        ),
        joint(
            "tip",
            Some(1),
            [0.0, 2.0, 16.0],
            about([0.0, 1.0, 0.0], 20.0),
        ),
    ];
    let bind: Vec<JointPose> = joints
        .iter()
        .map(|j| JointPose::new(j.translation, Quat::from_array(j.rotation)))
        .collect();
    // Rest locals, then each frame moves and turns every joint a little more.
    let rest: Vec<JointPose> = joints
        .iter()
        .enumerate()
        .map(|(j, joint)| match joint.parent {
            Some(p) => bind[p].inverse().compose(&bind[j]),
            None => bind[j],
        })
        .collect();
    let frames: Vec<Vec<JointTransform>> = (0..FRAMES)
        .map(|f| {
            let f = f as f32;
            let turns = [
                about([0.0, 0.0, 1.0], 10.0 * f),
                about([1.0, 0.0, 0.0], 15.0 * f),
                about([0.0, 1.0, 0.0], -20.0 * f),
            ];
            let moves = [[f, 0.0, 0.5 * f], [0.0, 0.2 * f, 0.0], [0.1 * f, 0.0, 0.3]];
            (0..3)
                .map(|j| JointTransform {
                    translation: [0, 1, 2].map(|k| rest[j].pos[k] + moves[j][k]),
                    rotation: qmul(rest[j].orient.to_array(), turns[j]),
                })
                .collect()
        })
        .collect();
    let positions = vec![
        [1.0, 0.0, 0.0],
        [-1.0, 0.5, 1.0],
        [1.0, 0.0, 11.0],
        [0.0, 1.0, 12.0],
        [1.0, 2.0, 17.0],
        [0.0, 3.0, 16.0],
        [0.5, 0.5, 8.0],
    ];
    let n = positions.len();
    Model {
        meshes: vec![Mesh {
            name: "body".into(),
            normals: vec![[0.0, 0.0, 1.0]; n],
            uvs: vec![[0.0, 0.0]; n],
            source_vertices: (0..n as u32).collect(),
            triangles: vec![[0, 1, 2], [2, 3, 4], [3, 4, 5], [0, 6, 2], [1, 6, 3]],
            joint_weights: vec![
                vec![(0, 1.0)],
                vec![(0, 1.0)],
                vec![(1, 1.0)],
                vec![(1, 1.0)],
                vec![(2, 1.0)],
                vec![(2, 1.0)],
                vec![(1, 0.5), (0, 0.5)],
            ]
            .into_iter()
            .map(Into::into)
            .collect(),
            positions,
            ..Mesh::default()
        }],
        joints,
        animations: vec![SkeletalAnimation {
            name: "wave".into(),
            fps: FPS,
            frames: frames.into(),
            bounds: Vec::new(),
            loops: false,
            weight_scales,
        }],
        ..Model::default()
    }
}

/// Limb scale 0 in frame 1 and 2 in frame 2 (weights only); tip scale 2 in frame 3, with
/// its position.
fn scales() -> WeightScales {
    let mut ws = WeightScales::unit(FRAMES, 3);
    ws.frames[1][1] = 0.0;
    ws.frames[2][1] = 2.0;
    ws.frames[3][2] = 2.0;
    ws.scale_positions[2] = true;
    ws
}

/// The engine's skinned positions in frame `f` (model space, Z-up), as q2pro's
/// `MD5_BuildFrameSkeleton` and `calc_skel_vert` compute them: a joint whose positions
/// scale has its local translation multiplied by its scale before it is composed with its
/// parent; each weight on joint `j` adds `w · G_j(s_j · B_j⁻¹ p)`, the offset from the joint
/// scaled by `s_j` (its children untouched).
fn engine_positions(model: &Model, f: usize) -> Vec<[f32; 3]> {
    let a = &model.animations[0];
    let ws = a.weight_scales.clone().unwrap_or_default();
    let s = |j: usize| ws.frames.get(f).map_or(1.0, |row| row[j]);
    let mut global: Vec<JointPose> = Vec::new();
    for (j, joint) in model.joints.iter().enumerate() {
        let t = a.frames[f][j];
        let k = if ws.scale_positions.get(j) == Some(&true) {
            s(j)
        } else {
            1.0
        };
        let local = JointPose::new(t.translation.map(|c| c * k), Quat::from_array(t.rotation));
        let g = match joint.parent {
            Some(p) => global[p].compose(&local),
            None => local,
        };
        global.push(g);
    }
    let mesh = &model.meshes[0];
    mesh.positions
        .iter()
        .zip(&mesh.joint_weights)
        .map(|(&p, list)| {
            let mut sum = [0.0f32; 3];
            for &(j, w) in list {
                let j = j as usize;
                let joint = &model.joints[j];
                let bind = JointPose::new(joint.translation, Quat::from_array(joint.rotation));
                let offset = bind.inverse().transform_point(p).map(|c| c * s(j));
                let q = global[j].transform_point(offset);
                for c in 0..3 {
                    sum[c] += w * q[c];
                }
            }
            sum
        })
        .collect()
}

// ---------------------------------------------------------------------------------------
// The export read back with the `gltf` crate.

struct Glb {
    doc: gltf::Document,
    blob: Vec<u8>,
    /// The JSON chunk.
    json: serde_json::Value,
}

impl Glb {
    fn new(bytes: &[u8]) -> Glb {
        let g = gltf::Gltf::from_slice(bytes).expect("the gltf crate reads the output");
        let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        let json = serde_json::from_slice(&bytes[20..20 + len]).unwrap();
        Glb {
            doc: g.document,
            blob: g.blob.unwrap_or_default(),
            json,
        }
    }

    fn node_names(&self) -> Vec<String> {
        self.doc
            .nodes()
            .map(|n| n.name().unwrap_or_default().to_string())
            .collect()
    }

    /// Every node's global matrix at time `t` of animation `a`, each sampler interpolated
    /// as it says (`STEP`: the last key at or before `t`; `LINEAR`: lerp, or slerp for
    /// rotations).
    fn global_at(&self, a: &gltf::Animation, t: f32) -> Vec<Mat> {
        let (parent, mut local) = node_tree(&self.doc);
        let blob = self.blob.as_slice();
        for ch in a.channels() {
            let r = ch.reader(|b| (b.index() == 0).then_some(blob));
            let times: Vec<f32> = r.read_inputs().unwrap().collect();
            let k = times.partition_point(|&x| x <= t).clamp(1, times.len() - 1);
            let u = ((t - times[k - 1]) / (times[k] - times[k - 1])).clamp(0.0, 1.0);
            let step = ch.sampler().interpolation() == Interpolation::Step;
            // STEP: key `k - 1` until key `k`'s time.
            let u = if step { u.floor() } else { u };
            let node = ch.target().node().index();
            let lerp3 = |v: &[[f32; 3]]| -> [f32; 3] {
                std::array::from_fn(|c| v[k - 1][c] * (1.0 - u) + v[k][c] * u)
            };
            match r.read_outputs().unwrap() {
                ReadOutputs::Translations(it) => local[node].0 = lerp3(&it.collect::<Vec<_>>()),
                ReadOutputs::Scales(it) => local[node].2 = lerp3(&it.collect::<Vec<_>>()),
                ReadOutputs::Rotations(it) => {
                    let v: Vec<[f32; 4]> = it.into_f32().collect();
                    let q = Quat::from_array(v[k - 1]).slerp(Quat::from_array(v[k]), u);
                    local[node].1 = q.to_array();
                }
                _ => panic!("unexpected channel"),
            }
        }
        let mut global: Vec<Option<Mat>> = vec![None; local.len()];
        fn get(
            i: usize,
            parent: &[Option<usize>],
            local: &[([f32; 3], [f32; 4], [f32; 3])],
            g: &mut [Option<Mat>],
        ) -> Mat {
            if let Some(m) = g[i] {
                return m;
            }
            let (t, r, s) = local[i];
            let m = trs(t, r, s);
            let m = match parent[i] {
                Some(p) => mat_mul(&get(p, parent, local, g), &m),
                None => m,
            };
            g[i] = Some(m);
            m
        }
        (0..local.len())
            .map(|i| get(i, &parent, &local, &mut global))
            .collect()
    }

    /// Standard glTF linear blend skinning of the (one) skinned mesh at time `t`.
    fn skinned(&self, a: &gltf::Animation, t: f32) -> Vec<[f32; 3]> {
        let blob = self.blob.as_slice();
        let global = self.global_at(a, t);
        let node = self.doc.nodes().find(|n| n.skin().is_some()).unwrap();
        let joints = skin_matrices(&node.skin().unwrap(), blob, &global);
        let p = node.mesh().unwrap().primitives().next().unwrap();
        let r = p.reader(|b| (b.index() == 0).then_some(blob));
        let pos: Vec<[f32; 3]> = r.read_positions().unwrap().collect();
        let js: Vec<[u16; 4]> = r.read_joints(0).unwrap().into_u16().collect();
        let ws: Vec<[f32; 4]> = r.read_weights(0).unwrap().into_f32().collect();
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
            .collect()
    }
}

/// The time of frame `k`, as the exporter computes it.
fn frame_time(k: usize) -> f32 {
    (k as f64 / f64::from(FPS)) as f32
}

fn export(model: &Model) -> Vec<u8> {
    to_glb(model, &GltfOptions::default()).unwrap().0
}

fn import(glb: &[u8]) -> Model {
    retromodel::interchange::gltf::read(glb, &NoFiles, &ImportOptions::default())
        .unwrap()
        .model
}

/// Writes `bytes` under `$RETROMODEL_GLTF_OUT/name` when the variable is set.
fn dump(name: &str, bytes: &[u8]) {
    if let Some(dir) = std::env::var_os("RETROMODEL_GLTF_OUT") {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(std::path::Path::new(&dir).join(name), bytes).unwrap();
    }
}

#[test]
fn helpers_scale_the_weights_as_the_engine_does() {
    let model = model(Some(scales()));
    let glb = export(&model);
    dump("md5scale.glb", &glb);
    let g = Glb::new(&glb);

    // Two helpers, leaf children of the limb and the tip, after the joints in the skin.
    let names = g.node_names();
    let helpers: Vec<&str> = names
        .iter()
        .filter(|n| n.ends_with(".md5scale"))
        .map(String::as_str)
        .collect();
    assert_eq!(helpers, ["limb.md5scale", "tip.md5scale"]);
    let skin = g.doc.skins().next().unwrap();
    let skin_names: Vec<&str> = skin.joints().map(|n| n.name().unwrap()).collect();
    assert_eq!(
        skin_names,
        ["root", "limb", "tip", "limb.md5scale", "tip.md5scale"]
    );
    for (h, of) in [("limb.md5scale", 1), ("tip.md5scale", 2)] {
        let node = g.doc.nodes().find(|n| n.name() == Some(h)).unwrap();
        assert_eq!(node.children().count(), 0);
        assert_eq!(
            node.transform().decomposed(),
            ([0.0; 3], [0.0, 0.0, 0.0, 1.0], [1.0; 3])
        );
        let parent = g
            .doc
            .nodes()
            .find(|p| p.children().any(|c| c.index() == node.index()))
            .unwrap();
        assert_eq!(parent.name(), Some(skin_names[of]));
        assert_eq!(g.json["nodes"][node.index()]["extras"]["md5scaleOf"], of);
    }
    let anim_json = &g.json["animations"][0]["extras"];
    assert_eq!(anim_json["frameCount"], FRAMES);
    assert_eq!(anim_json["md5scalePositions"], serde_json::json!([2]));

    // The helpers' scale channels are STEP, the joints' LINEAR.
    let a = g.doc.animations().next().unwrap();
    for ch in a.channels() {
        let helper = ch
            .target()
            .node()
            .name()
            .is_some_and(|n| n.ends_with(".md5scale"));
        let want = if helper {
            Interpolation::Step
        } else {
            Interpolation::Linear
        };
        assert_eq!(ch.sampler().interpolation(), want);
    }

    // At every frame: glTF skinning = the engine's skinning (Y-up).
    let mut worst = 0.0f32;
    for f in 0..FRAMES {
        let want: Vec<[f32; 3]> = engine_positions(&model, f)
            .into_iter()
            .map(to_y_up)
            .collect();
        let got = g.skinned(&a, frame_time(f));
        assert_eq!(got.len(), want.len());
        for (v, (w, h)) in want.iter().zip(&got).enumerate() {
            let d = dist(*w, *h);
            worst = worst.max(d);
            assert!(d < 1e-4, "frame {f} vertex {v}: engine {w:?}, glTF {h:?}");
        }
    }
    println!("largest difference at frames: {worst:e}");

    // The scales do something: the limb's vertices collapse onto the limb in frame 1 and
    // the split vertex sits halfway between the root's vertex and the joint.
    let limb_node = g.doc.nodes().find(|n| n.name() == Some("limb")).unwrap();
    let at1 = g.skinned(&a, frame_time(1));
    let m = g.global_at(&a, frame_time(1))[limb_node.index()];
    let limb_at = [m[12], m[13], m[14]];
    assert!(dist(at1[2], limb_at) < 1e-4 && dist(at1[3], limb_at) < 1e-4);
    // Without the scales, the limb's vertices would be elsewhere.
    let unscaled = engine_positions(&self::model(None), 1);
    assert!(dist(to_y_up(unscaled[2]), limb_at) > 0.5);

    // Between frames 1 and 2, STEP holds frame 1's scale (0) in glTF (q2pro would take
    // frame 2's): the limb's vertices stay on the limb.
    let t = (1.5 / f64::from(FPS)) as f32;
    let mid = g.skinned(&a, t);
    let m = g.global_at(&a, t)[limb_node.index()];
    assert!(dist(mid[2], [m[12], m[13], m[14]]) < 1e-4);
}

#[test]
fn import_gives_the_weight_scales_back() {
    let original = model(Some(scales()));
    let imported = import(&export(&original));
    assert_eq!(imported.joints.len(), 3, "the helpers are no joints");
    let names: Vec<&str> = imported.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(names, ["root", "limb", "tip"]);
    assert_eq!(imported.animations.len(), 1);
    let (a, b) = (&original.animations[0], &imported.animations[0]);
    assert_eq!(b.fps, FPS);
    assert_eq!(b.weight_scales, a.weight_scales);
    assert_eq!(b.frames.len(), a.frames.len());
    for (f, (fa, fb)) in a.frames.iter().zip(&b.frames).enumerate() {
        for (j, (ja, jb)) in fa.iter().zip(fb).enumerate() {
            let d = dist(ja.translation, jb.translation);
            assert!(
                d < 1e-5,
                "frame {f} joint {j}: translation {:?} came back as {:?}",
                ja.translation,
                jb.translation
            );
            let dot: f32 = (0..4).map(|k| ja.rotation[k] * jb.rotation[k]).sum();
            assert!(dot.abs() > 1.0 - 1e-5, "frame {f} joint {j}: rotation");
        }
    }
    // Influences on the helpers went back to their joints, merged with the others.
    let mut weights = imported.meshes[0].joint_weights.clone();
    for list in &mut weights {
        list.sort_by_key(|e| e.0);
    }
    assert_eq!(weights[2].as_slice(), [(1, 1.0)]);
    assert_eq!(weights[4].as_slice(), [(2, 1.0)]);
    assert_eq!(weights[6].as_slice(), [(0, 0.5), (1, 0.5)]);
    // And the imported model exports the same helpers again.
    let again = Glb::new(&export(&imported));
    assert_eq!(
        again
            .node_names()
            .iter()
            .filter(|n| n.ends_with(".md5scale"))
            .count(),
        2
    );
}

#[test]
fn helpers_are_found_by_name_without_extras() {
    // Another tool may drop node extras: the name and the shape still say helper.
    let glb = export(&model(Some(scales())));
    let g = Glb::new(&glb);
    let mut json = g.json.clone();
    for node in json["nodes"].as_array_mut().unwrap() {
        node.as_object_mut().unwrap().remove("extras");
    }
    let stripped = common::glb(&json, &g.blob);
    let imported = import(&stripped);
    assert_eq!(imported.joints.len(), 3);
    assert_eq!(
        imported.animations[0].weight_scales,
        model(Some(scales())).animations[0].weight_scales
    );
}

#[test]
fn without_weight_scales_nothing_changes() {
    let plain = model(None);
    let glb = export(&plain);
    let g = Glb::new(&glb);
    assert!(!g.node_names().iter().any(|n| n.contains(".md5scale")));
    assert_eq!(g.doc.skins().next().unwrap().joints().count(), 3);
    assert!(g.json["animations"][0]["extras"]
        .get("md5scalePositions")
        .is_none());
    // Unit weight scales are no weight scales: the same bytes.
    let unit = model(Some(WeightScales::unit(FRAMES, 3)));
    assert_eq!(export(&unit), glb);
    let imported = import(&glb);
    assert_eq!(imported.joints.len(), 3);
    assert_eq!(imported.animations[0].weight_scales, None);
    // glTF skinning still matches the unscaled engine skinning.
    let a = g.doc.animations().next().unwrap();
    for f in 0..FRAMES {
        let got = g.skinned(&a, frame_time(f));
        for (w, h) in engine_positions(&plain, f).into_iter().zip(&got) {
            assert!(dist(to_y_up(w), *h) < 1e-4);
        }
    }
}

#[test]
fn scaled_positions_alone_need_no_helper() {
    // The tip's position flag with scales of 1 throughout: nothing to scale, but the flag
    // is kept through the animation's extras.
    let mut ws = WeightScales::unit(FRAMES, 3);
    ws.scale_positions[2] = true;
    let m = model(Some(ws.clone()));
    let glb = export(&m);
    let g = Glb::new(&glb);
    assert!(!g.node_names().iter().any(|n| n.contains(".md5scale")));
    assert_eq!(
        g.json["animations"][0]["extras"]["md5scalePositions"],
        serde_json::json!([2])
    );
    let imported = import(&glb);
    assert_eq!(imported.animations[0].weight_scales, Some(ws));
}
