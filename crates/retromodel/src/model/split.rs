//! Meshes split into parts an engine takes: ioquake3 refuses an MD3 surface of more than 999
//! vertices or 1999 triangles, so a larger mesh becomes several meshes of whole triangles,
//! each within the limits, drawn the same way (same skin, same vertex data per frame).
//!
//! Triangles are taken in order into the current part until the next one would bring a
//! vertex or triangle count past the limit; every per-vertex array (positions, normals,
//! texture coordinates, source vertices, joint weights, each morph target) is copied for
//! the vertices a part uses, in first-use order. The first part keeps the mesh's name and
//! place; the others are appended as `NAME_2`, `NAME_3`, ... Models whose scene nodes hold
//! parts of meshes (WMP levels) are not split.

use super::{Mesh, Model, MorphTarget};

/// Splits every mesh of `model` with more than `max_vertices` vertices or `max_triangles`
/// triangles ([module docs](self)); returns per split mesh its name and the number of parts.
/// Nothing changes when no mesh is too large or scene nodes hold mesh parts.
pub fn split_meshes(
    model: &mut Model,
    max_vertices: usize,
    max_triangles: usize,
) -> Vec<(String, usize)> {
    let too_big = |m: &Mesh| m.positions.len() > max_vertices || m.triangles.len() > max_triangles;
    let mut report = Vec::new();
    if max_vertices < 3 || max_triangles == 0 || model.nodes.iter().any(|n| !n.parts.is_empty()) {
        return report;
    }
    let count = model.meshes.len();
    for mi in 0..count {
        if !too_big(&model.meshes[mi]) {
            continue;
        }
        let mesh = std::mem::take(&mut model.meshes[mi]);
        let mut parts = split(&mesh, max_vertices, max_triangles);
        report.push((mesh.name.clone(), parts.len()));
        let rest = parts.split_off(1);
        model.meshes[mi] = parts.pop().expect("one part at least");
        for (k, mut p) in rest.into_iter().enumerate() {
            p.name = format!("{}_{}", mesh.name, k + 2);
            model.meshes.push(p);
        }
    }
    report
}

/// The parts of one mesh.
fn split(mesh: &Mesh, max_vertices: usize, max_triangles: usize) -> Vec<Mesh> {
    let mut parts = Vec::new();
    let mut map = vec![u32::MAX; mesh.positions.len()];
    let mut used: Vec<u32> = Vec::new();
    let mut triangles: Vec<[u32; 3]> = Vec::new();
    let flush = |used: &mut Vec<u32>,
                 triangles: &mut Vec<[u32; 3]>,
                 map: &mut Vec<u32>,
                 parts: &mut Vec<Mesh>| {
        if triangles.is_empty() {
            return;
        }
        parts.push(part(mesh, used, std::mem::take(triangles)));
        for &v in used.iter() {
            map[v as usize] = u32::MAX;
        }
        used.clear();
    };
    for t in &mesh.triangles {
        // Vertices the part does not have yet, each counted once.
        let new = (0..3)
            .filter(|&k| map[t[k] as usize] == u32::MAX && !t[..k].contains(&t[k]))
            .count();
        if used.len() + new > max_vertices || triangles.len() + 1 > max_triangles {
            flush(&mut used, &mut triangles, &mut map, &mut parts);
        }
        let mapped = t.map(|v| {
            let slot = &mut map[v as usize];
            if *slot == u32::MAX {
                *slot = used.len() as u32;
                used.push(v);
            }
            *slot
        });
        triangles.push(mapped);
    }
    flush(&mut used, &mut triangles, &mut map, &mut parts);
    if parts.is_empty() {
        parts.push(mesh.clone());
    }
    parts
}

/// The part of `mesh` with vertices `used` (old indices, in new order) and `triangles`.
fn part(mesh: &Mesh, used: &[u32], triangles: Vec<[u32; 3]>) -> Mesh {
    fn pick<T: Clone>(v: &[T], used: &[u32]) -> Vec<T> {
        if v.is_empty() {
            return Vec::new();
        }
        used.iter().map(|&i| v[i as usize].clone()).collect()
    }
    Mesh {
        name: mesh.name.clone(),
        positions: pick(&mesh.positions, used),
        normals: pick(&mesh.normals, used),
        uvs: pick(&mesh.uvs, used),
        triangles,
        morph_targets: mesh
            .morph_targets
            .iter()
            .map(|t| MorphTarget {
                positions: pick(&t.positions, used),
                normals: pick(&t.normals, used),
            })
            .collect(),
        source_vertices: pick(&mesh.source_vertices, used),
        skin: mesh.skin,
        joint_weights: pick(&mesh.joint_weights, used),
        skin_size: mesh.skin_size,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A strip of `n` triangles over `n + 2` vertices.
    fn strip(n: usize) -> Model {
        let positions: Vec<[f32; 3]> = (0..n + 2)
            .map(|i| [i as f32, (i % 2) as f32, 0.0])
            .collect();
        Model {
            meshes: vec![Mesh {
                name: "s".into(),
                normals: vec![[0.0, 0.0, 1.0]; n + 2],
                uvs: vec![[0.0; 2]; n + 2],
                source_vertices: (0..n as u32 + 2).collect(),
                triangles: (0..n as u32).map(|i| [i, i + 1, i + 2]).collect(),
                morph_targets: vec![MorphTarget {
                    positions: positions.clone(),
                    normals: vec![[0.0, 0.0, 1.0]; n + 2],
                }],
                positions,
                ..Mesh::default()
            }],
            ..Model::default()
        }
    }

    #[test]
    fn parts_fit_and_draw_the_same_triangles() {
        let mut m = strip(100);
        let before = m.clone();
        let r = split_meshes(&mut m, 30, 1000);
        assert_eq!(r, [("s".to_string(), m.meshes.len())]);
        assert!(m.meshes.len() >= 4);
        assert!(m.meshes.iter().all(|p| p.positions.len() <= 30));
        assert_eq!(m.meshes[1].name, "s_2");
        // Every triangle, as positions, is still drawn, in order.
        let corners = |model: &Model| -> Vec<[[f32; 3]; 3]> {
            model
                .meshes
                .iter()
                .flat_map(|p| {
                    p.triangles
                        .iter()
                        .map(move |t| t.map(|v| p.morph_targets[0].positions[v as usize]))
                })
                .collect()
        };
        assert_eq!(corners(&m), corners(&before));
        let mut small = strip(10);
        assert!(split_meshes(&mut small, 999, 1999).is_empty());
        assert_eq!(small, strip(10));
    }
}
