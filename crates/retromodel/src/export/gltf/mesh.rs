//! Meshes: the base pose, morph targets (deltas from the base), joint influences, indices in
//! glTF's winding, and one node per mesh.

use std::collections::BTreeMap;

use gltf_json as json;
use json::buffer::Target;
use json::mesh::Semantic;
use json::validation::Checked::Valid;

use super::material::Materials;
use super::{invalid, unit, Builder};
use crate::error::Result;
use crate::model::{to_y_up, Mesh};

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

/// A vertex's influences as glTF wants them: weights on the same joint merged, weights that
/// are not positive finite numbers left out, sorted by decreasing weight (ties: lower joint
/// first), cut to the `max` heaviest and scaled to sum to 1 (the heaviest takes the rounding
/// remainder, so the `f32` sum is 1 to the last bit or so). Returns the list, whether some
/// were cut, and whether nothing usable was left (the vertex then follows joint 0).
pub(super) fn influences(list: &[(u32, f32)], max: usize) -> (Vec<(u32, f32)>, bool, bool) {
    let mut merged: Vec<(u32, f64)> = Vec::with_capacity(list.len());
    for &(j, w) in list {
        if !(w.is_finite() && w > 0.0) {
            continue;
        }
        match merged.iter_mut().find(|(k, _)| *k == j) {
            Some(e) => e.1 += f64::from(w),
            None => merged.push((j, f64::from(w))),
        }
    }
    if merged.is_empty() {
        return (vec![(0, 1.0)], false, true);
    }
    merged.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let cut = merged.len() > max;
    merged.truncate(max.max(1));
    let sum: f64 = merged.iter().map(|e| e.1).sum();
    let mut out: Vec<(u32, f32)> = merged.iter().map(|&(j, w)| (j, (w / sum) as f32)).collect();
    let rest: f64 = out[1..].iter().map(|e| f64::from(e.1)).sum();
    out[0].1 = (1.0 - rest) as f32;
    (out, cut, false)
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

    /// One glTF mesh and node per exported mesh.
    pub(super) fn meshes(&mut self, exported: &[usize], materials: &Materials) -> Result<()> {
        let model = self.model;
        let targets = if self.animated() && model.frames.len() > 1 {
            model.frames.len() - 1
        } else {
            0
        };
        for &mi in exported {
            let m = &model.meshes[mi];
            let (p0, n0) = match m.morph_targets.first() {
                Some(t) => (&t.positions, &t.normals),
                None => (&m.positions, &m.normals),
            };
            let base = points(p0, &|| format!("mesh {mi}"))?;
            let base_n = normals(n0);
            let mut attributes = BTreeMap::new();
            let a = self.floats(&base, Some(Target::ArrayBuffer), true);
            attributes.insert(Valid(Semantic::Positions), a);
            let a = self.floats(&base_n, Some(Target::ArrayBuffer), false);
            attributes.insert(Valid(Semantic::Normals), a);
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
                let a = self.floats(&m.uvs, Some(Target::ArrayBuffer), false);
                attributes.insert(Valid(Semantic::TexCoords(0)), a);
            }
            if self.skinned(m) {
                self.skin_attributes(mi, m, &mut attributes);
            }
            let indices = self.indices(m);
            let mut morphs = Vec::with_capacity(targets);
            for f in 1..=targets {
                let t = &m.morph_targets[f];
                let p = points(&t.positions, &|| format!("mesh {mi}: frame {f}"))?;
                let dp: Vec<[f32; 3]> = p
                    .iter()
                    .zip(&base)
                    .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
                    .collect();
                let dn: Vec<[f32; 3]> = normals(&t.normals)
                    .iter()
                    .zip(&base_n)
                    .map(|(a, b)| [a[0] - b[0], a[1] - b[1], a[2] - b[2]])
                    .collect();
                morphs.push(json::mesh::MorphTarget {
                    positions: Some(self.floats(&dp, Some(Target::ArrayBuffer), true)),
                    normals: Some(self.floats(&dn, Some(Target::ArrayBuffer), false)),
                    tangents: None,
                });
            }
            let material = m.skin.and_then(|s| materials.per_skin[s]);
            let extensions = match (material, materials.variants.is_empty()) {
                (Some(_), false) => Some(materials.primitive_extension()),
                _ => None,
            };
            let primitive = json::mesh::Primitive {
                attributes,
                extensions,
                extras: Default::default(),
                indices: Some(indices),
                material,
                mode: Valid(json::mesh::Mode::Triangles),
                targets: (targets > 0).then_some(morphs),
            };
            let name = if m.name.is_empty() {
                format!("mesh{mi}")
            } else {
                m.name.clone()
            };
            let mesh = self.root.push(json::Mesh {
                extensions: None,
                extras: Default::default(),
                name: Some(name.clone()),
                primitives: vec![primitive],
                weights: (targets > 0).then(|| vec![0.0; targets]),
            });
            let node = self.root.push(json::Node {
                mesh: Some(mesh),
                name: Some(name),
                skin: if self.skinned(m) { self.skin } else { None },
                ..json::Node::default()
            });
            self.roots.push(node);
            if targets > 0 {
                self.morph_nodes.push(node);
            }
        }
        Ok(())
    }

    /// The triangles, each as `(a, c, b)`: the source formats' front faces are clockwise,
    /// glTF's counter-clockwise. 16-bit indices when they fit (65535 is primitive restart).
    fn indices(&mut self, m: &Mesh) -> json::Index<json::Accessor> {
        let flipped = m.triangles.iter().flat_map(|&[a, b, c]| [a, c, b]);
        if m.positions.len() <= 65535 {
            let data: Vec<[u16; 1]> = flipped.map(|i| [i as u16]).collect();
            self.integers(&data, Some(Target::ElementArrayBuffer))
        } else {
            let data: Vec<[u32; 1]> = flipped.map(|i| [i]).collect();
            self.integers(&data, Some(Target::ElementArrayBuffer))
        }
    }

    /// `JOINTS_n` and `WEIGHTS_n`: four influences a set, unused slots joint 0 with weight 0.
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
                joints[slot / 4][v][slot % 4] = j as u16;
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
        let small = self.model.joints.len() <= 256;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn influences_merge_cut_and_sum_to_one() {
        let (inf, cut, empty) = influences(&[(2, 0.25), (1, 0.5), (2, 0.25)], 4);
        assert_eq!(inf, vec![(1, 0.5), (2, 0.5)]);
        assert!(!cut && !empty);
        let list = [(0, 0.1), (1, 0.2), (2, 0.3), (3, 0.15), (4, 0.25)];
        let (inf, cut, _) = influences(&list, 4);
        assert!(cut);
        assert_eq!(
            inf.iter().map(|e| e.0).collect::<Vec<_>>(),
            vec![2, 4, 1, 3]
        );
        let sum: f32 = inf.iter().map(|e| e.1).sum();
        assert!((sum - 1.0).abs() < 1e-6);
        let (inf, _, empty) = influences(&[(3, 0.0), (1, f32::NAN)], 4);
        assert!(empty);
        assert_eq!(inf, vec![(0, 1.0)]);
    }
}
