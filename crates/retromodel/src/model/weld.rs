//! Vertices that are one point: mesh vertices with the same position in the first pose and
//! in every morph target, and the same joint influences, get one source vertex
//! ([`Mesh::source_vertices`]). Readers of formats that split vertices at texture seams
//! (glTF) use it so that the keyframe writers write such a point once: MD2 stores positions
//! apart from texture coordinates, and Quake MDL one vertex per point and texel.

use std::collections::HashMap;

use super::Mesh;

/// Numbers the mesh's vertices by point: the first vertex of each point keeps its own index
/// as the source vertex of every vertex of that point. Exact comparison (bit patterns), so
/// only true copies merge.
pub fn weld_source_vertices(mesh: &mut Mesh) {
    let n = mesh.positions.len();
    if mesh.source_vertices.len() != n {
        return;
    }
    let key = |v: usize| -> u64 {
        // FNV-1a over the bits of every pose's position.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut add = |p: &[f32; 3]| {
            for c in p {
                h ^= u64::from(c.to_bits());
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        };
        add(&mesh.positions[v]);
        for t in &mesh.morph_targets {
            add(&t.positions[v]);
        }
        h
    };
    let same = |a: usize, b: usize| -> bool {
        let bits = |p: &[f32; 3]| p.map(f32::to_bits);
        bits(&mesh.positions[a]) == bits(&mesh.positions[b])
            && mesh
                .morph_targets
                .iter()
                .all(|t| bits(&t.positions[a]) == bits(&t.positions[b]))
            && mesh.joint_weights.get(a) == mesh.joint_weights.get(b)
    };
    let mut buckets: HashMap<u64, Vec<usize>> = HashMap::with_capacity(n);
    let mut source = Vec::with_capacity(n);
    for v in 0..n {
        let bucket = buckets.entry(key(v)).or_default();
        match bucket.iter().find(|&&first| same(first, v)) {
            Some(&first) => source.push(first as u32),
            None => {
                bucket.push(v);
                source.push(v as u32);
            }
        }
    }
    mesh.source_vertices = source;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MorphTarget;

    #[test]
    fn copies_in_every_pose_share_a_source_vertex() {
        let base = vec![
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 0.0, 0.0],
            [0.0, 0.0, 0.0],
        ];
        let moved = vec![
            [0.0, 0.0, 1.0],
            [1.0, 0.0, 0.0],
            [0.0, 0.0, 1.0],
            [0.0, 0.0, 2.0],
        ];
        let mut mesh = Mesh {
            positions: base.clone(),
            normals: vec![[0.0, 0.0, 1.0]; 4],
            uvs: vec![[0.0; 2]; 4],
            morph_targets: vec![
                MorphTarget {
                    positions: base,
                    normals: vec![[0.0, 0.0, 1.0]; 4],
                },
                MorphTarget {
                    positions: moved,
                    normals: vec![[0.0, 0.0, 1.0]; 4],
                },
            ],
            source_vertices: vec![0, 1, 2, 3],
            ..Mesh::default()
        };
        weld_source_vertices(&mut mesh);
        // Vertex 2 is vertex 0 in both poses; vertex 3 parts from it in the second.
        assert_eq!(mesh.source_vertices, vec![0, 1, 0, 3]);
    }
}
