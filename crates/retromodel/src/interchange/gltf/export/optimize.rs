//! Vertex welding and reordering for the compressed export
//! ([`GltfOptions::compress`](super::GltfOptions::compress)), on a copy of the Model before
//! the document is built: meshopt's codecs code each vertex against the one before and each
//! triangle against the recent edges, so they gain most from vertices in the order the
//! triangles first use them and triangles that reuse recent vertices.
//!
//! - **Welding**: vertices equal in every attribute (source vertex, texture coordinates,
//!   joint influences, and the position and normal of every pose, bit for bit) become one.
//!   MD2 stores a texture coordinate per triangle corner, so its meshes come in with up to
//!   three vertices a triangle where a third of that holds the same data.
//! - **Triangle order**: Tom Forsyth's "Linear-speed vertex cache optimisation" (2006, his
//!   public write-up): each vertex scores by its place in a simulated 32-entry LRU cache and
//!   by the triangles still to draw from it; the next triangle is the best-scoring one
//!   around the cache, or the first left when none is.
//! - **Vertex order**: the order the triangles first use them (fetch order), vertices no
//!   triangle uses last.
//!
//! Every attribute, pose and joint weight is permuted alike, and each triangle keeps its
//! corners in order (its winding), so the drawn model is unchanged. Meshes a scene node holds
//! a part of ([`crate::model::MeshPart`]: triangle ranges) are left as they are.

use std::collections::HashMap;

use crate::model::{Mesh, Model};

/// Entries of the simulated vertex cache.
const CACHE: usize = 32;

/// A copy of `model` with every mesh no scene node holds welded and reordered.
pub(super) fn model(model: &Model) -> Model {
    let mut out = model.clone();
    let mut held = vec![false; out.meshes.len()];
    for part in out.nodes.iter().flat_map(|n| &n.parts) {
        if let Some(h) = held.get_mut(part.mesh) {
            *h = true;
        }
    }
    for (m, held) in out.meshes.iter_mut().zip(held) {
        if !held {
            mesh(m);
        }
    }
    out
}

/// Welds and reorders one mesh in place.
pub(super) fn mesh(m: &mut Mesh) {
    let n = m.positions.len();
    if n == 0 || m.triangles.iter().flatten().any(|&i| i as usize >= n) {
        return;
    }
    let (unique, first) = weld(m);
    let triangles: Vec<[u32; 3]> = m
        .triangles
        .iter()
        .map(|t| t.map(|i| unique[i as usize]))
        .collect();
    let triangles = cache_order(&triangles, first.len());
    // Fetch order: new index of each welded vertex, by first use.
    let mut order = vec![u32::MAX; first.len()];
    let mut next = 0u32;
    for &v in triangles.iter().flatten() {
        if order[v as usize] == u32::MAX {
            order[v as usize] = next;
            next += 1;
        }
    }
    for o in &mut order {
        if *o == u32::MAX {
            *o = next;
            next += 1;
        }
    }
    // The original vertex each final vertex is taken from.
    let mut source = vec![0usize; first.len()];
    for (w, &o) in order.iter().enumerate() {
        source[o as usize] = first[w];
    }
    m.triangles = triangles
        .iter()
        .map(|t| t.map(|v| order[v as usize]))
        .collect();
    permute(m, &source);
}

/// Takes the vertices `source` lists, in that order, in every per-vertex array of `m`.
fn permute(m: &mut Mesh, source: &[usize]) {
    fn pick<T: Clone>(v: &mut Vec<T>, source: &[usize], n: usize) {
        if v.len() == n {
            *v = source.iter().map(|&s| v[s].clone()).collect();
        }
    }
    let n = m.positions.len();
    pick(&mut m.positions, source, n);
    pick(&mut m.normals, source, n);
    pick(&mut m.uvs, source, n);
    pick(&mut m.source_vertices, source, n);
    pick(&mut m.joint_weights, source, n);
    for t in &mut m.morph_targets {
        pick(&mut t.positions, source, n);
        pick(&mut t.normals, source, n);
    }
}

/// Per vertex, its welded index; and per welded vertex, the first vertex it stands for.
fn weld(m: &Mesh) -> (Vec<u32>, Vec<usize>) {
    let n = m.positions.len();
    let mut seen: HashMap<Vec<u8>, u32> = HashMap::with_capacity(n);
    let mut unique = Vec::with_capacity(n);
    let mut first = Vec::new();
    let mut key = Vec::new();
    for (v, p) in m.positions.iter().enumerate() {
        key.clear();
        let mut floats = |fs: &[f32]| {
            for f in fs {
                key.extend_from_slice(&f.to_bits().to_le_bytes());
            }
        };
        floats(p);
        if let Some(x) = m.normals.get(v) {
            floats(x);
        }
        if let Some(x) = m.uvs.get(v) {
            floats(x);
        }
        for t in &m.morph_targets {
            if let Some(x) = t.positions.get(v) {
                floats(x);
            }
            if let Some(x) = t.normals.get(v) {
                floats(x);
            }
        }
        if let Some(s) = m.source_vertices.get(v) {
            key.extend_from_slice(&s.to_le_bytes());
        }
        if let Some(list) = m.joint_weights.get(v) {
            for (j, w) in list {
                key.extend_from_slice(&j.to_le_bytes());
                key.extend_from_slice(&w.to_bits().to_le_bytes());
            }
        }
        let id = *seen.entry(key.clone()).or_insert_with(|| {
            first.push(v);
            (first.len() - 1) as u32
        });
        unique.push(id);
    }
    (unique, first)
}

/// A vertex's score (Forsyth): by its cache position (`None`: not in the cache) and the
/// triangles still to draw that use it.
fn score(position: Option<usize>, remaining: u32) -> f32 {
    if remaining == 0 {
        return -1.0;
    }
    // Powers through `sqrt` (exact everywhere, unlike `powf`): the same order on every
    // platform.
    let cache = match position {
        None => 0.0,
        Some(p) if p < 3 => 0.75,
        Some(p) => {
            let b = 1.0 - (p - 3) as f32 / (CACHE - 3) as f32;
            b * b.sqrt()
        }
    };
    cache + 2.0 / (remaining as f32).sqrt()
}

/// `triangles` (over `n` vertices) in Forsyth's vertex-cache order, each unchanged.
fn cache_order(triangles: &[[u32; 3]], n: usize) -> Vec<[u32; 3]> {
    // Triangles using each vertex (compressed adjacency).
    let mut start = vec![0usize; n + 1];
    for &v in triangles.iter().flatten() {
        start[v as usize + 1] += 1;
    }
    let mut sum = 0;
    for s in &mut start {
        sum += *s;
        *s = sum;
    }
    let mut fill = start.clone();
    let mut adjacent = vec![0u32; start[n]];
    for (t, tri) in triangles.iter().enumerate() {
        for &v in tri {
            adjacent[fill[v as usize]] = t as u32;
            fill[v as usize] += 1;
        }
    }
    let mut remaining: Vec<u32> = (0..n).map(|v| (start[v + 1] - start[v]) as u32).collect();
    let mut position: Vec<Option<usize>> = vec![None; n];
    let mut vscore: Vec<f32> = (0..n).map(|v| score(None, remaining[v])).collect();
    let tscore = |t: &[u32; 3], vscore: &[f32]| t.iter().map(|&v| vscore[v as usize]).sum::<f32>();
    let mut tri_score: Vec<f32> = triangles.iter().map(|t| tscore(t, &vscore)).collect();
    let mut done = vec![false; triangles.len()];
    let mut cache: Vec<u32> = Vec::with_capacity(CACHE + 3);
    let mut out = Vec::with_capacity(triangles.len());
    let mut cursor = 0usize;
    let mut best: Option<usize> = None;
    while out.len() < triangles.len() {
        let t = match best {
            Some(t) => t,
            None => {
                // No candidate around the cache: the first untaken triangle (finding the best
                // of all would make the whole quadratic; its neighbours soon fill the cache).
                while done[cursor] {
                    cursor += 1;
                }
                cursor
            }
        };
        done[t] = true;
        out.push(triangles[t]);
        // The triangle's vertices to the front of the cache, one triangle fewer each.
        for &v in &triangles[t] {
            if let Some(p) = cache.iter().position(|&c| c == v) {
                cache.remove(p);
            }
            cache.insert(0, v);
            remaining[v as usize] -= 1;
        }
        let evicted: Vec<u32> = cache.drain(CACHE.min(cache.len())..).collect();
        for v in evicted {
            position[v as usize] = None;
            vscore[v as usize] = score(None, remaining[v as usize]);
        }
        for (p, &v) in cache.iter().enumerate() {
            position[v as usize] = Some(p);
            vscore[v as usize] = score(Some(p), remaining[v as usize]);
        }
        // The next triangle: the best untaken one around the cache.
        best = None;
        let mut top = f32::NEG_INFINITY;
        for &v in &cache {
            for &a in &adjacent[start[v as usize]..start[v as usize + 1]] {
                let a = a as usize;
                if done[a] {
                    continue;
                }
                tri_score[a] = tscore(&triangles[a], &vscore);
                if tri_score[a] > top {
                    top = tri_score[a];
                    best = Some(a);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::MorphTarget;

    /// The simulated misses of a FIFO cache of `size` over `triangles` (the measure the
    /// order is for).
    fn misses(triangles: &[[u32; 3]], size: usize) -> usize {
        let mut cache = std::collections::VecDeque::new();
        let mut misses = 0;
        for &v in triangles.iter().flatten() {
            if !cache.contains(&v) {
                misses += 1;
                cache.push_back(v);
                if cache.len() > size {
                    cache.pop_front();
                }
            }
        }
        misses
    }

    /// A grid of `w` by `h` quads, its triangles in a scattered order, every corner a
    /// vertex of its own (as MD2 stores them), with two poses.
    fn scattered_grid(w: u32, h: u32) -> Mesh {
        let mut tris = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let i = y * (w + 1) + x;
                tris.push([i, i + 1, i + w + 1]);
                tris.push([i + 1, i + w + 2, i + w + 1]);
            }
        }
        // A fixed shuffle.
        let len = tris.len();
        let tris: Vec<[u32; 3]> = (0..len).map(|k| tris[(k * 7919) % len]).collect();
        let point = |i: u32| [(i % (w + 1)) as f32, (i / (w + 1)) as f32, 0.0];
        let mut m = Mesh::default();
        let mut triangles = Vec::new();
        let mut pose = MorphTarget::default();
        for t in &tris {
            let mut corners = [0; 3];
            for (k, &i) in t.iter().enumerate() {
                corners[k] = m.positions.len() as u32;
                m.positions.push(point(i));
                m.normals.push([0.0, 0.0, 1.0]);
                m.uvs.push([point(i)[0] / w as f32, point(i)[1] / h as f32]);
                m.source_vertices.push(i);
                pose.positions
                    .push([point(i)[0], point(i)[1], point(i)[0] * 0.5]);
                pose.normals.push([0.0, 1.0, 0.0]);
            }
            triangles.push(corners);
        }
        m.triangles = triangles;
        m.morph_targets = vec![
            MorphTarget {
                positions: m.positions.clone(),
                normals: m.normals.clone(),
            },
            pose,
        ];
        m
    }

    /// Each triangle's corners as (source vertex, pose 1 position), in order.
    fn drawn(m: &Mesh) -> Vec<[(u32, [f32; 3]); 3]> {
        m.triangles
            .iter()
            .map(|t| {
                t.map(|v| {
                    (
                        m.source_vertices[v as usize],
                        m.morph_targets[1].positions[v as usize],
                    )
                })
            })
            .collect()
    }

    #[test]
    fn welding_and_reordering_keep_the_drawn_triangles() {
        let before = scattered_grid(12, 9);
        let mut after = before.clone();
        mesh(&mut after);
        // Every corner was its own vertex: welded to the grid's points.
        assert_eq!(before.positions.len(), 3 * before.triangles.len());
        assert_eq!(after.positions.len(), 13 * 10);
        for t in &after.morph_targets {
            assert_eq!(t.positions.len(), after.positions.len());
            assert_eq!(t.normals.len(), after.positions.len());
        }
        assert_eq!(after.uvs.len(), after.positions.len());
        // The same triangles with the same corners in the same turn, in another order.
        let mut a = drawn(&before);
        let mut b = drawn(&after);
        let key = |t: &[(u32, [f32; 3]); 3]| t.map(|c| c.0);
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a, b);
        // Vertices in the order of first use.
        let mut next = 0;
        for &v in after.triangles.iter().flatten() {
            assert!(v <= next);
            if v == next {
                next += 1;
            }
        }
        // Fewer cache misses than the scattered order, welded.
        let (unique, _) = weld(&before);
        let welded: Vec<[u32; 3]> = before
            .triangles
            .iter()
            .map(|t| t.map(|i| unique[i as usize]))
            .collect();
        let (x, y) = (misses(&welded, 16), misses(&after.triangles, 16));
        assert!(y * 3 < x * 2, "{y} misses after, {x} before");
    }

    #[test]
    fn vertices_differing_in_any_pose_stay_apart() {
        let mut m = scattered_grid(2, 1);
        // Two corners of the same grid point, told apart by pose 1 only.
        let (a, b) = (0..m.positions.len())
            .flat_map(|a| (a + 1..m.positions.len()).map(move |b| (a, b)))
            .find(|&(a, b)| m.source_vertices[a] == m.source_vertices[b])
            .unwrap();
        m.morph_targets[1].positions[b][2] += 1.0;
        let p = (
            m.morph_targets[1].positions[a],
            m.morph_targets[1].positions[b],
        );
        let mut after = m.clone();
        mesh(&mut after);
        let s = m.source_vertices[a];
        let kept: Vec<[f32; 3]> = (0..after.positions.len())
            .filter(|&v| after.source_vertices[v] == s)
            .map(|v| after.morph_targets[1].positions[v])
            .collect();
        assert_eq!(kept.len(), 2);
        assert!(kept.contains(&p.0) && kept.contains(&p.1));
    }
}
