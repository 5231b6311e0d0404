//! Meshes: the base pose, morph targets (deltas from the base), joint influences, indices in
//! glTF's winding, and one node per mesh. Influences on a joint with weight scales point at
//! its helper joint (the `skeleton` module documentation says why).

use std::collections::BTreeMap;

use gltf_json as json;
use json::buffer::Target;
use json::mesh::Semantic;
use json::validation::Checked::Valid;

use json::scene::UnitQuaternion;

use super::material::Materials;
use super::quantize::{self, Column, Component, Grid, Layout, Rows};
use super::space::Local;
use super::{invalid, unit, Builder, QuantizedMesh};
use crate::error::Result;
use crate::interchange::gltf::SOURCE_VERTEX;
use crate::model::influences::influences;
use crate::model::{quat_to_y_up, to_y_up, Matrix4, Mesh};

/// The direction a normal without one gets: up.
fn up() -> [f32; 3] {
    to_y_up([0.0, 0.0, 1.0])
}

/// Points in Y-up; errors on a non-finite coordinate.
fn points(p: &[[f32; 3]], what: &dyn Fn() -> String) -> Result<Vec<[f32; 3]>> {
    match p.iter().position(|v| v.iter().any(|c| !c.is_finite())) {
        Some(i) => Err(invalid(format!(
            "{}: vertex {i} has a non-finite position {:?}",
            what(),
            p[i]
        ))),
        None => Ok(p.iter().map(|v| to_y_up(*v)).collect()),
    }
}

/// Unit normals in Y-up (a normal without direction points up).
fn normals(n: &[[f32; 3]]) -> Vec<[f32; 3]> {
    n.iter().map(|v| unit(to_y_up(*v), up())).collect()
}

impl Builder<'_> {
    /// The meshes that can be drawn (at least one vertex and one triangle); the others are
    /// left out with a warning.
    pub(super) fn exported_meshes(&mut self) -> Vec<usize> {
        let mut out = Vec::new();
        for (mi, m) in self.model.meshes.iter().enumerate() {
            if m.positions.is_empty() || m.triangles.is_empty() {
                self.warnings.push(format!(
                    "mesh {mi}: {} vertices and {} triangles, nothing to draw; left out",
                    m.positions.len(),
                    m.triangles.len()
                ));
            } else {
                out.push(mi);
            }
        }
        out
    }

    /// Whether mesh `m` is written with joints and weights.
    pub(super) fn skinned(&self, m: &Mesh) -> bool {
        !m.joint_weights.is_empty() && !self.model.joints.is_empty()
    }

    /// One glTF mesh and node per exported mesh that no scene node holds a part of, then the
    /// scene nodes ([`Builder::scene_nodes`]).
    pub(super) fn meshes(&mut self, exported: &[usize], materials: &Materials) -> Result<()> {
        let model = self.model;
        let targets = self.target_count();
        let mut in_nodes = vec![false; model.meshes.len()];
        for part in model.nodes.iter().flat_map(|n| &n.parts) {
            in_nodes[part.mesh] = true;
        }
        for &mi in exported {
            if in_nodes[mi] {
                continue;
            }
            let m = &model.meshes[mi];
            let name = if m.name.is_empty() {
                format!("mesh{mi}")
            } else {
                m.name.clone()
            };
            let tris = 0..m.triangles.len();
            let grid = if self.options.quantize {
                self.grid(&[(mi, tris.clone())], &[], targets)
            } else {
                None
            };
            let mut report = QuantizedMesh::new(&name, grid.as_ref());
            let primitive = self.primitive(
                mi,
                tris,
                &[],
                targets,
                materials,
                grid.as_ref(),
                &mut report,
            )?;
            if self.options.quantize {
                self.quantized.push(report);
            }
            let mesh = self.root.push(json::Mesh {
                extensions: None,
                extras: Default::default(),
                name: Some(name.clone()),
                primitives: vec![primitive],
                weights: (targets > 0).then(|| vec![0.0; targets]),
            });
            // The dequantisation is the node's transform (a skinned mesh keeps floats).
            let node = self.root.push(json::Node {
                mesh: Some(mesh),
                name: Some(name),
                skin: if self.skinned(m) { self.skin } else { None },
                translation: grid.map(|g| g.origin),
                scale: grid.map(|g| g.step),
                ..json::Node::default()
            });
            self.roots.push(node);
            if targets > 0 {
                self.morph_nodes.push(node);
            }
        }
        self.scene_nodes(exported, materials, &in_nodes)
    }

    /// Whether the model is exported as a skeleton in motion: animated, with skeletal
    /// animations and a mesh with joint weights. Its skinned meshes are then written in
    /// their bind pose ([`crate::model::Mesh::positions`]) and no mesh gets morph targets:
    /// the joints move the vertices, and the frames' baked copies of that motion would move
    /// them twice.
    pub(super) fn skeletal_export(&self) -> bool {
        self.animated()
            && !self.model.animations.is_empty()
            && self.model.meshes.iter().any(|m| self.skinned(m))
    }

    /// Morph targets each mesh gets: one per pose after the first, when animated and not
    /// skeletal.
    fn target_count(&self) -> usize {
        if self.skeletal_export() {
            0
        } else if self.animated() && self.model.frames.len() > 1 {
            self.model.frames.len() - 1
        } else {
            0
        }
    }

    /// The model's scene nodes ([`crate::model::Model::nodes`]): one glTF node each with its
    /// name and local transform (Y-up), and, when it holds triangles, one mesh with one
    /// primitive per part, the vertices expressed in the node's space (by the inverse of its
    /// world transform: the Model keeps them in model space). Triangles of a held mesh that no
    /// part holds are left out with a warning.
    fn scene_nodes(
        &mut self,
        exported: &[usize],
        materials: &Materials,
        in_nodes: &[bool],
    ) -> Result<()> {
        let model = self.model;
        if model.nodes.is_empty() {
            return Ok(());
        }
        let targets = self.target_count();
        let mut drawable = vec![false; model.meshes.len()];
        for &mi in exported {
            drawable[mi] = true;
        }
        let mut covered = vec![0usize; model.meshes.len()];
        // Per frame when nodes move (the parts' vertices then come back to the node's space
        // by each frame's inverse), else once.
        let worlds: Vec<Vec<Matrix4>> = if model.has_moving_nodes() && targets > 0 {
            (0..=targets)
                .map(|f| model.node_world_matrices_at(f))
                .collect()
        } else {
            vec![model.node_world_matrices()]
        };
        let mut nodes: Vec<json::Index<json::Node>> = Vec::with_capacity(model.nodes.len());
        for (ni, n) in model.nodes.iter().enumerate() {
            let name = if n.name.is_empty() {
                format!("node{ni}")
            } else {
                n.name.clone()
            };
            let mut primitives = Vec::new();
            let mut grid = None;
            if n.parts
                .iter()
                .any(|p| drawable[p.mesh] && !p.triangles.is_empty())
            {
                let locals = worlds
                    .iter()
                    .map(|w| {
                        Local::of_world(&w[ni]).ok_or_else(|| {
                            invalid(format!(
                                "node {ni} \"{name}\": its world transform cannot be inverted"
                            ))
                        })
                    })
                    .collect::<Result<Vec<Local>>>()?;
                let drawn: Vec<(usize, std::ops::Range<usize>)> = n
                    .parts
                    .iter()
                    .filter(|p| drawable[p.mesh] && !p.triangles.is_empty())
                    .map(|p| (p.mesh, p.triangles.clone()))
                    .collect();
                if self.options.quantize {
                    grid = self.grid(&drawn, &locals, targets);
                }
                let mut report = QuantizedMesh::new(&name, grid.as_ref());
                for part in &n.parts {
                    covered[part.mesh] += part.triangles.len();
                }
                for (mi, tris) in drawn {
                    primitives.push(self.primitive(
                        mi,
                        tris,
                        &locals,
                        targets,
                        materials,
                        grid.as_ref(),
                        &mut report,
                    )?);
                }
                if self.options.quantize {
                    self.quantized.push(report);
                }
            }
            let mesh = (!primitives.is_empty()).then(|| {
                self.root.push(json::Mesh {
                    extensions: None,
                    extras: Default::default(),
                    name: Some(name.clone()),
                    primitives,
                    weights: (targets > 0).then(|| vec![0.0; targets]),
                })
            });
            let t = &n.transform;
            let translation = to_y_up(t.translation);
            let rotation = {
                let q = t.rotation.map(f64::from);
                let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
                quat_to_y_up(q.map(|c| (c / len) as f32))
            };
            let scale = [t.scale[0], t.scale[2], t.scale[1]];
            // A quantised mesh hangs from a node of its own whose transform is only the
            // dequantisation: the scene node keeps its transform, motion and children.
            let (own_mesh, leaf) = match (mesh, grid) {
                (Some(mesh), Some(g)) => {
                    let leaf = self.root.push(json::Node {
                        mesh: Some(mesh),
                        name: Some(format!("{name}_mesh")),
                        translation: Some(g.origin),
                        scale: Some(g.step),
                        ..json::Node::default()
                    });
                    (None, Some(leaf))
                }
                (mesh, _) => (mesh, None),
            };
            let node = self.root.push(json::Node {
                mesh: own_mesh,
                name: Some(name),
                translation: (translation != [0.0; 3]).then_some(translation),
                rotation: (rotation != [0.0, 0.0, 0.0, 1.0]).then_some(UnitQuaternion(rotation)),
                scale: (scale != [1.0; 3]).then_some(scale),
                children: leaf.map(|l| vec![l]),
                ..json::Node::default()
            });
            match n.parent {
                Some(p) => self.root.nodes[nodes[p].value()]
                    .children
                    .get_or_insert_with(Vec::new)
                    .push(node),
                None => self.roots.push(node),
            }
            if mesh.is_some() && targets > 0 {
                self.morph_nodes.push(leaf.unwrap_or(node));
            }
            if !n.frames.is_empty() && self.animated() {
                self.moving_nodes.push((ni, node));
            }
            nodes.push(node);
        }
        for (mi, m) in model.meshes.iter().enumerate() {
            if in_nodes[mi] && drawable[mi] && covered[mi] < m.triangles.len() {
                self.warnings.push(format!(
                    "mesh {mi}: {} triangles in no node; left out",
                    m.triangles.len() - covered[mi]
                ));
            }
        }
        Ok(())
    }

    /// The vertices a primitive of mesh `mi` with triangles `tris` writes: in a node's space
    /// (`locals` not empty) those from the lowest to the highest the triangles use, in
    /// model space all of them.
    fn part(&self, mi: usize, tris: &std::ops::Range<usize>, locals: &[Local]) -> (usize, usize) {
        let m = &self.model.meshes[mi];
        if locals.is_empty() {
            return (0, m.positions.len());
        }
        let triangles = &m.triangles[tris.clone()];
        let lo = triangles.iter().flatten().min().copied().unwrap_or(0) as usize;
        let hi = triangles.iter().flatten().max().copied().unwrap_or(0) as usize;
        (lo, hi + 1)
    }

    /// The first pose's positions and normals of mesh `m`: its bind pose when it is skinned
    /// in a skeletal export.
    fn first_pose<'m>(&self, m: &'m Mesh) -> (&'m [[f32; 3]], &'m [[f32; 3]]) {
        let first = if self.skeletal_export() && self.skinned(m) {
            None
        } else {
            m.morph_targets.first()
        };
        match first {
            Some(t) => (&t.positions, &t.normals),
            None => (&m.positions, &m.normals),
        }
    }

    /// Calls `visit` with every position (Y-up, in the node's space) of every pose written of
    /// the parts `(mesh, triangles)` drawn by one node in the spaces `locals`.
    fn each_position(
        &self,
        parts: &[(usize, std::ops::Range<usize>)],
        locals: &[Local],
        targets: usize,
        visit: &mut dyn FnMut([f32; 3]),
    ) {
        for (mi, tris) in parts {
            let m = &self.model.meshes[*mi];
            let (a, b) = self.part(*mi, tris, locals);
            for f in 0..=targets {
                let p = if f == 0 {
                    self.first_pose(m).0
                } else {
                    &m.morph_targets[f].positions
                };
                match locals.get(f).or(locals.first()) {
                    Some(l) => l
                        .points(&p[a..b])
                        .into_iter()
                        .for_each(|v| visit(to_y_up(v))),
                    None => p[a..b].iter().for_each(|&v| visit(to_y_up(v))),
                }
            }
        }
    }

    /// The quantisation grid of the parts `(mesh, triangles)` drawn by one node in the
    /// spaces `locals` (model space when empty), `None` when their positions stay floats:
    /// a skinned mesh (glTF ignores its node's transform), or a grid that cannot keep the
    /// source's precision ([`Grid::new`]). On an axis where the poses do not all lie on the
    /// source's grid (MD2 stores each frame on a grid of its own) the step is half the
    /// source's, so that writing the poses back on grids of their own stays within one
    /// step.
    pub(super) fn grid(
        &self,
        parts: &[(usize, std::ops::Range<usize>)],
        locals: &[Local],
        targets: usize,
    ) -> Option<Grid> {
        let model = self.model;
        if parts.iter().any(|(mi, _)| self.skinned(&model.meshes[*mi])) {
            return None;
        }
        let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
        self.each_position(parts, locals, targets, &mut |v| {
            for k in 0..3 {
                lo[k] = lo[k].min(f64::from(v[k]));
                hi[k] = hi[k].max(f64::from(v[k]));
            }
        });
        if lo[0] > hi[0] {
            return None;
        }
        let scale = if locals.is_empty() {
            1.0
        } else {
            locals.iter().map(Local::scale).fold(0.0, f64::max)
        };
        let steps = model
            .frames
            .iter()
            .take(targets + 1)
            .map(|f| &f.position_step);
        let step = if model.frames.is_empty() {
            None
        } else {
            quantize::smallest_steps(steps, scale)
        };
        let grid = Grid::new(lo, hi, step, targets > 0)?;
        let Some(mut step) = step else {
            return Some(grid);
        };
        let mut off = [0.0f64; 3];
        self.each_position(parts, locals, targets, &mut |v| {
            let q = grid.quantize(v);
            let g = grid.position(q);
            for k in 0..3 {
                off[k] = off[k].max((g[k] - f64::from(v[k])).abs() / f64::from(grid.step[k]));
            }
        });
        let mut halved = false;
        for k in 0..3 {
            if off[k] > 0.01 && step[k] > 0.0 {
                step[k] /= 2.0;
                halved = true;
            }
        }
        if halved {
            Grid::new(lo, hi, Some(step), targets > 0)
        } else {
            Some(grid)
        }
    }

    /// One primitive of mesh `mi`: triangles `tris` and the vertices from the lowest to the
    /// highest they use, in the node space `locals` gives (model space when empty; one per
    /// frame when the node moves, else one), with their morph targets and the mesh's
    /// material. With quantisation its positions are on `grid` (floats when `None`) and
    /// `report` takes its errors.
    #[allow(clippy::too_many_arguments)]
    fn primitive(
        &mut self,
        mi: usize,
        tris: std::ops::Range<usize>,
        locals: &[Local],
        targets: usize,
        materials: &Materials,
        grid: Option<&Grid>,
        report: &mut QuantizedMesh,
    ) -> Result<json::mesh::Primitive> {
        let m = &self.model.meshes[mi];
        let triangles = &m.triangles[tris.clone()];
        let local_at = |f: usize| locals.get(f).or(locals.first());
        let (lo, hi) = self.part(mi, &tris, locals);
        let place = |f: usize, p: &[[f32; 3]], what: &dyn Fn() -> String| match local_at(f) {
            Some(l) => points(&l.points(&p[lo..hi]), what),
            None => points(&p[lo..hi], what),
        };
        let turn = |f: usize, n: &[[f32; 3]]| -> Vec<[f32; 3]> {
            match local_at(f) {
                Some(l) => normals(&l.normals(&n[lo..hi])),
                None => normals(&n[lo..hi]),
            }
        };
        let (p0, n0) = self.first_pose(m);
        let base = place(0, p0, &|| format!("mesh {mi}"))?;
        let base_n = turn(0, n0);
        if !m.uvs.is_empty() {
            if let Some(i) = m
                .uvs
                .iter()
                .position(|uv| !uv.iter().all(|c| c.is_finite()))
            {
                return Err(invalid(format!(
                    "mesh {mi}: vertex {i} has non-finite texture coordinates {:?}",
                    m.uvs[i]
                )));
            }
        }
        let quantized = self.options.quantize;
        let mut attributes = BTreeMap::new();
        // Quantised: the grid points of the base pose; the normals stored under the grid's
        // scale (unscaled for float positions), the base ones decoded for the deltas.
        let base_q: Option<Vec<[i32; 3]>> =
            grid.map(|g| base.iter().map(|&p| g.quantize(p)).collect());
        let stored = quantize::Normals {
            scale: grid.map_or([1.0; 3], Grid::normal_scale),
        };
        let compress = self.options.compress != crate::options::Compress::None;
        let base_normals = quantized.then(|| {
            let base = stored.base(&base_n);
            if compress {
                stored.octahedral(&base_n, base)
            } else {
                (base.0, base.1, base.2, None)
            }
        });
        let base_decoded = base_normals.as_ref().map_or(&[][..], |b| &b.1[..]);
        if let Some((_, _, worst, _)) = &base_normals {
            report.normal_error = report.normal_error.max(*worst);
        }
        let a = match (grid, &base_q) {
            (Some(g), Some(q)) => {
                for (&qv, &p) in q.iter().zip(&base) {
                    let e = quantize::position_error(g, qv, p, local_at(0));
                    report.position_error = report.position_error.max(e);
                }
                self.dense_column(
                    &Column {
                        component: g.base_component(),
                        normalized: false,
                        rows: Rows::Int(q.clone()),
                    },
                    true,
                )
            }
            _ => self.floats(&base, Some(Target::ArrayBuffer), true),
        };
        attributes.insert(Valid(Semantic::Positions), a);
        let a = match &base_normals {
            Some((column, _, _, Some(filtered))) => self.filtered_column(column, filtered),
            Some((column, _, _, None)) => self.dense_column(column, false),
            None => self.floats(&base_n, Some(Target::ArrayBuffer), false),
        };
        attributes.insert(Valid(Semantic::Normals), a);
        if !m.uvs.is_empty() {
            let uvs = &m.uvs[lo..hi];
            let a = match quantized.then(|| quantize::texcoords(uvs)).flatten() {
                Some(q) => self.packed_texcoords(&q),
                None => self.floats(uvs, Some(Target::ArrayBuffer), false),
            };
            attributes.insert(Valid(Semantic::TexCoords(0)), a);
        }
        if self.skinned(m) {
            self.skin_attributes(mi, m, &mut attributes);
        }
        if m.source_vertices.len() == m.positions.len() {
            // `_SOURCE_VERTEX` (an application attribute, float so that Blender keeps it
            // as a point attribute and writes it back with `export_attributes`): the file
            // vertex each glTF vertex came from, so a round trip writes the file's points
            // as they were, copies at texture seams and stored duplicates alike.
            let source: Vec<[f32; 1]> = m.source_vertices[lo..hi]
                .iter()
                .map(|&v| [v as f32])
                .collect();
            let a = self.floats(&source, Some(Target::ArrayBuffer), false);
            attributes.insert(Valid(Semantic::Extras(SOURCE_VERTEX.into())), a);
        }
        let indices = self.indices(triangles, lo as u32, hi - lo);
        let mut morphs = Vec::with_capacity(targets);
        for f in 1..=targets {
            let t = &m.morph_targets[f];
            let p = place(f, &t.positions, &|| format!("mesh {mi}: frame {f}"))?;
            let target = if quantized {
                let position = match (grid, &base_q) {
                    (Some(g), Some(q0)) => {
                        let mut rows = Vec::with_capacity(p.len());
                        for (&pv, b) in p.iter().zip(q0) {
                            let q = g.quantize(pv);
                            let e = quantize::position_error(g, q, pv, local_at(f));
                            report.position_error = report.position_error.max(e);
                            rows.push([q[0] - b[0], q[1] - b[1], q[2] - b[2]]);
                        }
                        Column::deltas(rows)
                    }
                    _ => Column {
                        component: Component::F32,
                        normalized: false,
                        rows: Rows::Float(
                            p.iter()
                                .zip(&base)
                                .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
                                .collect(),
                        ),
                    },
                };
                let (normal, worst) = stored.deltas(base_decoded, &turn(f, &t.normals));
                report.normal_error = report.normal_error.max(worst);
                self.quantized_target(&position, &normal)
            } else {
                let dp: Vec<[f32; 3]> = p
                    .iter()
                    .zip(&base)
                    .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
                    .collect();
                let dn: Vec<[f32; 3]> = turn(f, &t.normals)
                    .iter()
                    .zip(&base_n)
                    .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
                    .collect();
                [
                    self.floats(&dp, Some(Target::ArrayBuffer), true),
                    self.floats(&dn, Some(Target::ArrayBuffer), false),
                ]
            };
            morphs.push(json::mesh::MorphTarget {
                positions: Some(target[0]),
                normals: Some(target[1]),
                tangents: None,
            });
        }
        let material = m.skin.and_then(|s| materials.per_skin[s]);
        let extensions = match (material, materials.variants.is_empty()) {
            (Some(_), false) => Some(materials.primitive_extension()),
            _ => None,
        };
        Ok(json::mesh::Primitive {
            attributes,
            extensions,
            extras: Default::default(),
            indices: Some(indices),
            material,
            mode: Valid(json::mesh::Mode::Triangles),
            targets: (targets > 0).then_some(morphs),
        })
    }

    /// A quantised morph target's position and normal accessors: the same accessors as an
    /// equal earlier target's, else written the smallest way ([`quantize::layout`]).
    fn quantized_target(
        &mut self,
        position: &Column,
        normal: &Column,
    ) -> [json::Index<json::Accessor>; 2] {
        let mut key = Vec::new();
        position.key(&mut key);
        normal.key(&mut key);
        if let Some(a) = self.packed.shared.get(&key) {
            return [a[0], a[1]];
        }
        // Compressed, zeros cost next to nothing in a vertex buffer and sparse values (of
        // mixed sizes, in one view) compress badly: every target with data is dense.
        let layout = match quantize::layout(position, normal) {
            l @ Layout::Zero => l,
            _ if self.options.compress != crate::options::Compress::None => Layout::Dense,
            l => l,
        };
        let out = match layout {
            Layout::Zero => {
                let a = self.sparse_columns(&[(position, true), (normal, false)], &[]);
                [a[0], a[1]]
            }
            Layout::Dense => [
                self.dense_column(position, true),
                self.dense_column(normal, false),
            ],
            Layout::Shared(rows) => {
                let a = self.sparse_columns(&[(position, true), (normal, false)], &rows);
                [a[0], a[1]]
            }
            Layout::Apart(rp, rn) => [
                match rp {
                    Some(rows) => self.sparse_columns(&[(position, true)], &rows)[0],
                    None => self.dense_column(position, true),
                },
                match rn {
                    Some(rows) => self.sparse_columns(&[(normal, false)], &rows)[0],
                    None => self.dense_column(normal, false),
                },
            ],
        };
        self.packed.shared.insert(key, out.to_vec());
        out
    }

    /// The triangles, each as `(a, c, b)` less `first`: the source formats' front faces are
    /// clockwise, glTF's counter-clockwise. 16-bit indices when the `count` vertices allow
    /// (65535 is primitive restart).
    fn indices(
        &mut self,
        triangles: &[[u32; 3]],
        first: u32,
        count: usize,
    ) -> json::Index<json::Accessor> {
        let flipped = triangles
            .iter()
            .flat_map(|&[a, b, c]| [a, c, b])
            .map(|i| i - first);
        if count <= 65535 {
            let data: Vec<[u16; 1]> = flipped.map(|i| [i as u16]).collect();
            self.integers(&data, Some(Target::ElementArrayBuffer))
        } else {
            let data: Vec<[u32; 1]> = flipped.map(|i| [i]).collect();
            self.integers(&data, Some(Target::ElementArrayBuffer))
        }
    }

    /// `JOINTS_n` and `WEIGHTS_n`: four influences a set, unused slots joint 0 with weight 0.
    /// An influence on a joint with a weight scale helper points at the helper's skin joint
    /// ([`Builder::weight_slots`]); a vertex without usable weights follows joint 0 itself.
    fn skin_attributes(
        &mut self,
        mi: usize,
        m: &Mesh,
        attributes: &mut BTreeMap<json::validation::Checked<Semantic>, json::Index<json::Accessor>>,
    ) {
        let max = self.options.max_influences.max(1);
        let sets = max.div_ceil(4);
        let n = m.joint_weights.len();
        let mut joints = vec![vec![[0u16; 4]; n]; sets];
        let mut weights = vec![vec![[0f32; 4]; n]; sets];
        let (mut cut, mut empty) = (0usize, 0usize);
        for (v, list) in m.joint_weights.iter().enumerate() {
            let (inf, c, e) = influences(list, max);
            cut += usize::from(c);
            empty += usize::from(e);
            for (slot, (j, w)) in inf.into_iter().enumerate() {
                let j = match self.weight_slots.get(j as usize) {
                    Some(&helper) if !e => helper,
                    _ => j as u16,
                };
                joints[slot / 4][v][slot % 4] = j;
                weights[slot / 4][v][slot % 4] = w;
            }
        }
        if cut > 0 {
            self.warnings.push(format!(
                "mesh {mi}: {cut} vertices have more than {max} joint influences; kept the {max} heaviest and renormalised"
            ));
        }
        if empty > 0 {
            self.warnings.push(format!(
                "mesh {mi}: {empty} vertices have no usable joint weight; they follow joint 0"
            ));
        }
        let small = self.model.joints.len() + self.scale_helpers.len() <= 256;
        for (s, (j, w)) in joints.iter().zip(&weights).enumerate() {
            let a = if small {
                let bytes: Vec<[u8; 4]> = j.iter().map(|q| q.map(|x| x as u8)).collect();
                self.integers(&bytes, Some(Target::ArrayBuffer))
            } else {
                self.integers(j, Some(Target::ArrayBuffer))
            };
            attributes.insert(Valid(Semantic::Joints(s as u32)), a);
            let a = self.floats(w, Some(Target::ArrayBuffer), false);
            attributes.insert(Valid(Semantic::Weights(s as u32)), a);
        }
    }
}
