//! The node tree and the primitives it draws.

use gltf::accessor::Dimensions;
use gltf::mesh::{Mode, Semantic};

use super::accessor::{floats, integers};
use super::{fail, Buffers};
use crate::error::{ErrorKind, Result};
use crate::limits::Budget;
use crate::math::{self, Mat4};
use crate::model::{Mesh, Model, Skin};

/// One node of the file.
#[derive(Debug, Clone)]
pub(super) struct Node {
    /// The parent node, if any.
    pub parent: Option<usize>,
    /// Rest translation, rotation `[x, y, z, w]` and scale.
    pub trs: ([f32; 3], [f32; 4], [f32; 3]),
    /// A matrix given instead of TRS (not animatable).
    pub matrix: Option<Mat4>,
    /// Default morph weights (the node's, else its mesh's).
    pub weights: Vec<f32>,
    /// The node's name, or `node<i>`.
    pub name: String,
}

/// One morph target of a primitive: position and normal deltas.
#[derive(Debug, Clone, Default)]
pub(super) struct Target {
    pub positions: Vec<[f32; 3]>,
    pub normals: Option<Vec<[f32; 3]>>,
}

/// A primitive as drawn by one node.
#[derive(Debug, Clone)]
pub(super) struct Instance {
    /// The node that draws it.
    pub node: usize,
    /// The node's skin, if any.
    pub skin: Option<usize>,
    /// Mesh name.
    pub name: String,
    /// Positions in the mesh's space (glTF, Y-up).
    pub positions: Vec<[f32; 3]>,
    /// Normals in the mesh's space.
    pub normals: Vec<[f32; 3]>,
    /// Texture coordinates.
    pub uvs: Vec<[f32; 2]>,
    /// Triangles, counter-clockwise fronts (glTF's).
    pub triangles: Vec<[u32; 3]>,
    /// Morph targets.
    pub targets: Vec<Target>,
    /// Per vertex, `(skin joint slot, weight)` from every `JOINTS_n`/`WEIGHTS_n` set.
    pub influences: Vec<Vec<(u32, f32)>>,
    /// Material index.
    pub material: Option<usize>,
    /// Per vertex, the model file's vertex it came from (`_SOURCE_VERTEX`), if stored.
    pub source: Option<Vec<u32>>,
}

/// Nodes, the order to evaluate them in, and the primitives drawn.
#[derive(Debug, Clone)]
pub(super) struct Scene {
    pub nodes: Vec<Node>,
    /// Node indices, parents before children: the scene's nodes only.
    pub order: Vec<usize>,
    pub instances: Vec<Instance>,
    /// Names of every frame (`extras.frameNames` of the scene), if stored.
    pub frame_names: Option<Vec<String>>,
    /// Names of the morph targets (`extras.targetNames` of the first mesh that has them).
    pub target_names: Option<Vec<String>>,
}

/// Strings of `key` in a JSON `extras` object.
fn names_in(extras: &gltf::json::Extras, key: &str) -> Option<Vec<String>> {
    let raw = extras.as_ref()?;
    let v: serde_json::Value = serde_json::from_str(raw.get()).ok()?;
    v.get(key)?
        .as_array()?
        .iter()
        .map(|n| n.as_str().map(str::to_string))
        .collect()
}

impl Scene {
    /// Per node, whether it draws nothing (no primitive of the scene).
    pub fn markers(&self) -> Vec<bool> {
        let mut out = vec![true; self.nodes.len()];
        for inst in &self.instances {
            out[inst.node] = false;
        }
        out
    }

    /// Reads the node tree and every primitive of the scene.
    pub fn new(
        doc: &gltf::Document,
        buffers: &Buffers,
        budget: &mut Budget,
        warnings: &mut Vec<String>,
    ) -> Result<Scene> {
        let mut nodes: Vec<Node> = doc
            .nodes()
            .map(|n| {
                let (matrix, trs) = match n.transform() {
                    gltf::scene::Transform::Matrix { matrix } => {
                        let m: Mat4 = std::array::from_fn(|i| matrix[i / 4][i % 4]);
                        (Some(m), math::decompose(&m))
                    }
                    gltf::scene::Transform::Decomposed {
                        translation,
                        rotation,
                        scale,
                    } => (None, (translation, rotation, scale)),
                };
                Node {
                    parent: None,
                    trs,
                    matrix,
                    weights: n
                        .weights()
                        .or_else(|| n.mesh().and_then(|m| m.weights()))
                        .map(<[f32]>::to_vec)
                        .unwrap_or_default(),
                    name: n
                        .name()
                        .map(str::to_string)
                        .unwrap_or_else(|| format!("node{}", n.index())),
                }
            })
            .collect();
        for n in doc.nodes() {
            for c in n.children() {
                let child = &mut nodes[c.index()];
                if child.parent.is_some() || c.index() == n.index() {
                    return Err(fail(
                        ErrorKind::InvalidValue,
                        format!("node {} has more than one parent", c.index()),
                    ));
                }
                child.parent = Some(n.index());
            }
        }
        let roots: Vec<usize> = match doc.default_scene().or_else(|| doc.scenes().next()) {
            Some(s) => s.nodes().map(|n| n.index()).collect(),
            None => (0..nodes.len())
                .filter(|&i| nodes[i].parent.is_none())
                .collect(),
        };
        // Parents before children; a cycle never reaches a root, so it is never visited.
        let mut order = Vec::new();
        let mut seen = vec![false; nodes.len()];
        let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
        while let Some(i) = stack.pop() {
            if std::mem::replace(&mut seen[i], true) {
                continue;
            }
            order.push(i);
            if let Some(n) = doc.nodes().nth(i) {
                let kids: Vec<usize> = n.children().map(|c| c.index()).collect();
                stack.extend(kids.into_iter().rev());
            }
        }
        let frame_names = doc
            .default_scene()
            .or_else(|| doc.scenes().next())
            .and_then(|s| names_in(s.extras(), "frameNames"));
        let mut target_names = None;
        let mut instances = Vec::new();
        let gnodes: Vec<gltf::Node> = doc.nodes().collect();
        for &i in &order {
            let n = &gnodes[i];
            let Some(mesh) = n.mesh() else { continue };
            if target_names.is_none() {
                target_names = names_in(mesh.extras(), "targetNames");
            }
            let base = mesh
                .name()
                .or(n.name())
                .map(str::to_string)
                .unwrap_or_else(|| format!("mesh{}", mesh.index()));
            for (k, p) in mesh.primitives().enumerate() {
                let name = if k == 0 {
                    base.clone()
                } else {
                    format!("{base}.{k}")
                };
                let what = format!("mesh {} primitive {k}", mesh.index());
                if let Some(inst) =
                    primitive(&p, buffers, budget, &what, warnings)?.map(|mut inst| {
                        inst.node = i;
                        inst.skin = n.skin().map(|s| s.index());
                        inst.name = name;
                        inst
                    })
                {
                    instances.push(inst);
                }
            }
        }
        Ok(Scene {
            nodes,
            order,
            instances,
            frame_names,
            target_names,
        })
    }

    /// Local matrices of every node at rest.
    pub fn rest_locals(&self) -> Vec<Mat4> {
        self.nodes
            .iter()
            .map(|n| {
                n.matrix
                    .unwrap_or_else(|| math::from_trs(n.trs.0, n.trs.1, n.trs.2))
            })
            .collect()
    }

    /// World matrices from local ones (nodes outside the scene keep their local matrix).
    pub fn world(&self, locals: &[Mat4]) -> Vec<Mat4> {
        let mut world = locals.to_vec();
        for &i in &self.order {
            if let Some(p) = self.nodes[i].parent {
                world[i] = math::mul(&world[p], &locals[i]);
            }
        }
        world
    }

    /// Positions and normals of instance `k` (Z-up, model space) for world matrices `world`,
    /// morph `weights` of its node, and skin joint matrices `joints` (`world · inverse bind`
    /// per joint slot) when skinned.
    pub fn pose(
        &self,
        k: usize,
        world: &[Mat4],
        weights: &[f32],
        joints: Option<&[Mat4]>,
        positions: &mut Vec<[f32; 3]>,
        normals: &mut Vec<[f32; 3]>,
    ) {
        let inst = &self.instances[k];
        positions.clear();
        normals.clear();
        let m = world[inst.node];
        let nm = math::normal_matrix(&m);
        // Only the targets in use: a pose of a 1000-frame model has one weight set.
        let active: Vec<(&Target, f32)> = inst
            .targets
            .iter()
            .zip(weights)
            .filter(|(_, &w)| w != 0.0)
            .map(|(t, &w)| (t, w))
            .collect();
        let joint_normals: Option<Vec<Mat4>> =
            joints.map(|js| js.iter().map(math::normal_matrix).collect());
        positions.reserve(inst.positions.len());
        normals.reserve(inst.positions.len());
        for v in 0..inst.positions.len() {
            let mut p = inst.positions[v];
            let mut n = inst.normals[v];
            for &(t, w) in &active {
                let d = t.positions[v];
                p = std::array::from_fn(|a| p[a] + w * d[a]);
                if let Some(dn) = &t.normals {
                    n = std::array::from_fn(|a| n[a] + w * dn[v][a]);
                }
            }
            let (p, n) = match joints {
                Some(js) if !inst.influences[v].is_empty() => {
                    let (mut sp, mut sn) = ([0.0f32; 3], [0.0f32; 3]);
                    let jn = joint_normals.as_deref().unwrap_or(js);
                    for &(j, w) in &inst.influences[v] {
                        let jm = &js[j as usize];
                        let q = math::transform_point(jm, p);
                        let r = math::transform_vector(&jn[j as usize], n);
                        for a in 0..3 {
                            sp[a] += w * q[a];
                            sn[a] += w * r[a];
                        }
                    }
                    (sp, sn)
                }
                Some(_) => (p, n),
                None => (math::transform_point(&m, p), math::transform_vector(&nm, n)),
            };
            positions.push(math::from_y_up(p));
            normals.push(math::from_y_up(math::normalize3(n, [0.0, 1.0, 0.0])));
        }
    }

    /// Adds one [`Mesh`] per instance to `model` (its frames must already be in place as
    /// `model.meshes[k].morph_targets`, made by the animation pass): names, texture
    /// coordinates, triangles turned to clockwise fronts, skins, rest positions.
    pub fn meshes(&self, model: &mut Model, skins: &[(Vec<usize>, Skin)]) {
        let locals = self.rest_locals();
        let world = self.world(&locals);
        for (k, inst) in self.instances.iter().enumerate() {
            let weights = &self.nodes[inst.node].weights;
            let (mut positions, mut normals) = (Vec::new(), Vec::new());
            // A skinned mesh keeps its bind-space positions (what the skeleton's inverse bind
            // matrices map into joint space); others are placed by their node.
            if inst.skin.is_some() {
                let id = vec![math::IDENTITY; world.len()];
                self.pose(k, &id, weights, None, &mut positions, &mut normals);
            } else {
                self.pose(k, &world, weights, None, &mut positions, &mut normals);
            }
            let flip = inst.skin.is_some() || math::det3(&world[inst.node]) >= 0.0;
            let triangles = inst
                .triangles
                .iter()
                .map(|&[a, b, c]| if flip { [a, c, b] } else { [a, b, c] })
                .collect();
            let skin = inst
                .material
                .and_then(|m| skins.iter().position(|(ms, _)| ms.contains(&m)));
            let n = positions.len();
            let mesh = &mut model.meshes[k];
            mesh.name = inst.name.clone();
            mesh.positions = positions;
            mesh.normals = normals;
            mesh.uvs = inst.uvs.clone();
            mesh.triangles = triangles;
            mesh.source_vertices = match &inst.source {
                Some(s) => s.clone(),
                None => (0..n as u32).collect(),
            };
            mesh.skin = skin;
            mesh.skin_size =
                skin.and_then(|s| skins[s].1.pictures.first().map(|p| [p.width, p.height]));
        }
    }

    /// A placeholder mesh per instance (filled by [`Scene::meshes`]).
    pub fn empty_meshes(&self) -> Vec<Mesh> {
        vec![Mesh::default(); self.instances.len()]
    }
}

/// Reads one primitive, or `None` (with a warning) when it draws no triangles.
fn primitive(
    p: &gltf::Primitive<'_>,
    buffers: &Buffers,
    budget: &mut Budget,
    what: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<Instance>> {
    let mode = p.mode();
    if !matches!(
        mode,
        Mode::Triangles | Mode::TriangleStrip | Mode::TriangleFan
    ) {
        warnings.push(format!("{what}: drawn as {mode:?}; left out"));
        return Ok(None);
    }
    let Some(pos) = p.get(&Semantic::Positions) else {
        warnings.push(format!("{what}: no POSITION; left out"));
        return Ok(None);
    };
    let v3 =
        |f: Vec<f32>| -> Vec<[f32; 3]> { f.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect() };
    let positions = v3(floats(
        buffers,
        &pos,
        &[Dimensions::Vec3],
        budget,
        &format!("{what}: POSITION"),
    )?
    .0);
    let n = positions.len();
    if n == 0 {
        warnings.push(format!("{what}: no vertices; left out"));
        return Ok(None);
    }
    let indices: Vec<u32> = match p.indices() {
        Some(a) => integers(
            buffers,
            &a,
            Dimensions::Scalar,
            budget,
            &format!("{what}: indices"),
        )?,
        None => (0..n as u32).collect(),
    };
    if let Some(i) = indices.iter().find(|&&i| i as usize >= n) {
        return Err(fail(
            ErrorKind::IndexOutOfRange,
            format!("{what}: index {i} out of range ({n} vertices)"),
        ));
    }
    let triangles: Vec<[u32; 3]> = match mode {
        Mode::Triangles => indices
            .chunks_exact(3)
            .map(|t| [t[0], t[1], t[2]])
            .collect(),
        Mode::TriangleStrip => (2..indices.len())
            .map(|k| {
                let (a, b, c) = (indices[k - 2], indices[k - 1], indices[k]);
                if k % 2 == 0 {
                    [a, b, c]
                } else {
                    [b, a, c]
                }
            })
            .collect(),
        _ => (2..indices.len())
            .map(|k| [indices[0], indices[k - 1], indices[k]])
            .collect(),
    };
    // A per-vertex attribute: read, checked to have one value per vertex.
    let mut attribute =
        |acc: gltf::Accessor<'_>, dims: Dimensions, name: &str| -> Result<Vec<f32>> {
            let width = dims.multiplicity();
            let (f, _) = floats(buffers, &acc, &[dims], budget, &format!("{what}: {name}"))?;
            if f.len() != n * width {
                return Err(count_error(what, name, f.len() / width, n));
            }
            Ok(f)
        };
    let normals = match p.get(&Semantic::Normals) {
        Some(a) => v3(attribute(a, Dimensions::Vec3, "NORMAL")?),
        None => crate::math::smooth_normals(&positions, &triangles),
    };
    let uvs: Vec<[f32; 2]> = match p.get(&Semantic::TexCoords(0)) {
        Some(a) => attribute(a, Dimensions::Vec2, "TEXCOORD_0")?
            .chunks_exact(2)
            .map(|c| [c[0], c[1]])
            .collect(),
        None => vec![[0.0, 0.0]; n],
    };
    let source = match p.get(&Semantic::Extras(
        crate::interchange::gltf::SOURCE_VERTEX.into(),
    )) {
        Some(a) => {
            let what = format!("_{}", crate::interchange::gltf::SOURCE_VERTEX);
            let v = attribute(a, Dimensions::Scalar, &what)?;
            // Only whole, non-negative indices are taken; anything else is ignored.
            v.iter()
                .all(|x| x.is_finite() && *x >= 0.0 && x.fract() == 0.0 && *x < 16_777_216.0)
                .then(|| v.iter().map(|&x| x as u32).collect())
        }
        None => None,
    };
    let mut targets = Vec::new();
    for (t, mt) in p.morph_targets().enumerate() {
        let positions = match mt.positions() {
            Some(a) => v3(attribute(
                a,
                Dimensions::Vec3,
                &format!("target {t} POSITION"),
            )?),
            None => vec![[0.0; 3]; n],
        };
        let normals = match mt.normals() {
            Some(a) => Some(v3(attribute(
                a,
                Dimensions::Vec3,
                &format!("target {t} NORMAL"),
            )?)),
            None => None,
        };
        targets.push(Target { positions, normals });
    }
    let mut influences = vec![Vec::new(); n];
    for set in 0.. {
        let (Some(j), Some(w)) = (
            p.get(&Semantic::Joints(set)),
            p.get(&Semantic::Weights(set)),
        ) else {
            break;
        };
        let js = integers(
            buffers,
            &j,
            Dimensions::Vec4,
            budget,
            &format!("{what}: JOINTS_{set}"),
        )?;
        let (ws, _) = floats(
            buffers,
            &w,
            &[Dimensions::Vec4],
            budget,
            &format!("{what}: WEIGHTS_{set}"),
        )?;
        if js.len() != 4 * n || ws.len() != 4 * n {
            return Err(count_error(
                what,
                &format!("JOINTS_{set}/WEIGHTS_{set}"),
                js.len().min(ws.len()) / 4,
                n,
            ));
        }
        for v in 0..n {
            for c in 0..4 {
                let w = ws[4 * v + c];
                if w > 0.0 && w.is_finite() {
                    influences[v].push((js[4 * v + c], w));
                }
            }
        }
    }
    Ok(Some(Instance {
        node: 0,
        skin: None,
        name: String::new(),
        positions,
        normals,
        uvs,
        triangles,
        targets,
        influences,
        material: p.material().index(),
        source,
    }))
}

fn count_error(what: &str, attr: &str, got: usize, want: usize) -> crate::error::Error {
    fail(
        ErrorKind::BadCount,
        format!("{what}: {attr} has {got} elements for {want} vertices"),
    )
}
