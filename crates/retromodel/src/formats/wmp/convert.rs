//! WMP levels to the format-neutral [`Model`]: block solids from their planes ([`solid`]),
//! placed through the object hierarchy and grouped by texture, with a node tree of objects,
//! blocks and markers ([`to_model`]).

use std::collections::HashMap;

use super::raw::{Block, Item, Object, Shape, WmpFile};
use crate::math::{add, cross, det, dot, length, scale, sub};
use crate::model::{
    mul_matrix, Converted, Matrix4, Mesh, MeshPart, Model, NodeTransform, SceneNode, Skin,
};

/// Faces per block beyond which a block is left out (clipping is quadratic in them).
pub const MAX_BLOCK_FACES: usize = 1024;
/// Largest coordinate (or plane distance) of a block that is built.
const MAX_COORDINATE: f64 = 1e12;
/// Corners the model may hold; the rest of the level is left out with a warning.
const MAX_CORNERS: usize = 1 << 20;
/// Object visits during placement; the rest is left out with a warning.
const MAX_VISITS: usize = 1 << 20;

type V3 = [f64; 3];

/// Newell's normal of a polygon: twice its area along its normal, counter-clockwise seen
/// from the side it points to.
fn newell(points: &[V3]) -> V3 {
    let mut n = [0.0; 3];
    for (i, p) in points.iter().enumerate() {
        let q = points[(i + 1) % points.len()];
        n = add(n, cross(*p, q));
    }
    n
}

/// A solid built from a block's planes.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Solid {
    /// The welded corners, in the block's own space.
    pub vertices: Vec<[f64; 3]>,
    /// The faces that bound the solid.
    pub faces: Vec<SolidFace>,
    /// What was left out or changed, without the block's name (`face 6: same plane as face
    /// 2; left out`).
    pub warnings: Vec<String>,
}

/// One face of a [`Solid`]: a convex planar polygon.
#[derive(Debug, Clone, PartialEq)]
pub struct SolidFace {
    /// The block face it comes from (its texture and surface).
    pub face: usize,
    /// Indices into [`Solid::vertices`], clockwise seen from outside.
    pub corners: Vec<u32>,
    /// The outward unit normal.
    pub normal: [f64; 3],
}

/// A plane `n · x = d` with unit `n` pointing out of the solid.
#[derive(Debug, Clone, Copy)]
struct Plane {
    n: V3,
    d: f64,
}

/// Two unit vectors spanning the plane with normal `n`, `u × v = n`.
fn basis(n: V3) -> (V3, V3) {
    let a = if n[0].abs() < 0.6 {
        [1.0, 0.0, 0.0]
    } else if n[1].abs() < 0.6 {
        [0.0, 1.0, 0.0]
    } else {
        [0.0, 0.0, 1.0]
    };
    let u = cross(a, n);
    let u = scale(u, 1.0 / length(u));
    (u, cross(n, u))
}

/// The part of the convex polygon `poly` behind `plane` (within `eps` of it counts as
/// behind).
fn clip(poly: &[V3], plane: &Plane, eps: f64) -> Vec<V3> {
    let mut out = Vec::with_capacity(poly.len() + 1);
    for (i, &p) in poly.iter().enumerate() {
        let q = poly[(i + 1) % poly.len()];
        let dp = dot(plane.n, p) - plane.d;
        let dq = dot(plane.n, q) - plane.d;
        if dp <= eps {
            out.push(p);
        }
        if (dp < -eps && dq > eps) || (dp > eps && dq < -eps) {
            let t = dp / (dp - dq);
            out.push(add(p, scale(sub(q, p), t)));
        }
    }
    out
}

/// Welds points closer than `tolerance` (a grid of cells of that size, neighbours checked).
struct Welder {
    points: Vec<V3>,
    cells: HashMap<[i64; 3], Vec<u32>>,
    tolerance: f64,
}

impl Welder {
    fn new(tolerance: f64) -> Self {
        Welder {
            points: Vec::new(),
            cells: HashMap::new(),
            tolerance,
        }
    }

    fn cell(&self, p: V3) -> [i64; 3] {
        p.map(|c| (c / self.tolerance).floor() as i64)
    }

    fn add(&mut self, p: V3) -> u32 {
        let c = self.cell(p);
        for dx in -1..=1 {
            for dy in -1..=1 {
                for dz in -1..=1 {
                    let key = [c[0] + dx, c[1] + dy, c[2] + dz];
                    if let Some(list) = self.cells.get(&key) {
                        for &i in list {
                            if length(sub(self.points[i as usize], p)) <= self.tolerance {
                                return i;
                            }
                        }
                    }
                }
            }
        }
        let i = self.points.len() as u32;
        self.points.push(p);
        self.cells.entry(c).or_default().push(i);
        i
    }
}

fn point(v: &super::raw::Vec3) -> V3 {
    [v[0].value(), v[1].value(), v[2].value()]
}

/// The planes of a block (`None` for a face that gives none, with a warning), and the
/// block's size (the largest coordinate or plane distance, at least 1).
fn planes(block: &Block, warnings: &mut Vec<String>) -> (Vec<Option<Plane>>, f64) {
    let mut size: f64 = 1.0;
    let mut out = Vec::new();
    match &block.shape {
        Shape::Planes(faces) => {
            for (f, face) in faces.iter().enumerate() {
                let [p1, p2, p3] = [0, 1, 2].map(|i| point(&face.points[i]));
                for p in [p1, p2, p3] {
                    size = p.iter().fold(size, |s, c| s.max(c.abs()));
                }
                let (a, b) = (sub(p1, p2), sub(p3, p2));
                let n = cross(a, b);
                let len = length(n);
                if !(len.is_finite() && len > 1e-12 * length(a) * length(b)) {
                    warnings.push(format!("face {f}: its three points are colinear; left out"));
                    out.push(None);
                    continue;
                }
                let n = scale(n, 1.0 / len);
                out.push(Some(Plane { n, d: dot(n, p2) }));
            }
        }
        Shape::Polyhedron { vertices, faces } => {
            let points: Vec<V3> = vertices.iter().map(point).collect();
            for p in &points {
                size = p.iter().fold(size, |s, c| s.max(c.abs()));
            }
            let used: Vec<V3> = {
                let mut seen = vec![false; points.len()];
                for f in faces {
                    for &i in &f.vertices {
                        if let Some(s) = seen.get_mut(i as usize) {
                            *s = true;
                        }
                    }
                }
                points
                    .iter()
                    .zip(&seen)
                    .filter(|(_, &s)| s)
                    .map(|(p, _)| *p)
                    .collect()
            };
            let centroid = scale(
                used.iter().fold([0.0; 3], |a, p| add(a, *p)),
                1.0 / used.len().max(1) as f64,
            );
            for (f, face) in faces.iter().enumerate() {
                let poly: Vec<V3> = face
                    .vertices
                    .iter()
                    .filter_map(|&i| points.get(i as usize).copied())
                    .collect();
                let n = newell(&poly);
                let len = length(n);
                let extent = poly
                    .iter()
                    .map(|p| length(sub(*p, poly[0])))
                    .fold(0.0, f64::max);
                if !(len.is_finite() && len > 1e-12 * extent * extent) {
                    warnings.push(format!("face {f}: its vertices are colinear; left out"));
                    out.push(None);
                    continue;
                }
                let mut n = scale(n, 1.0 / len);
                let mid = scale(
                    poly.iter().fold([0.0; 3], |a, p| add(a, *p)),
                    1.0 / poly.len() as f64,
                );
                let mut d = dot(n, mid);
                if dot(n, centroid) > d {
                    n = scale(n, -1.0);
                    d = -d;
                }
                out.push(Some(Plane { n, d }));
            }
        }
    }
    for p in out.iter().flatten() {
        size = size.max(p.d.abs());
    }
    (out, size)
}

/// The faces of the solid behind `planes`, as polygons (counter-clockwise seen from
/// outside), one per plane (empty for a plane that contributes none); `None` when the
/// solid is unbounded.
fn clip_all(planes: &[Option<Plane>], size: f64) -> Option<Vec<Vec<V3>>> {
    let eps = size * 1e-9;
    let big = size * 1e3;
    let mut polys = Vec::with_capacity(planes.len());
    for (i, plane) in planes.iter().enumerate() {
        let Some(plane) = plane else {
            polys.push(Vec::new());
            continue;
        };
        let (u, v) = basis(plane.n);
        let c = scale(plane.n, plane.d);
        let mut poly: Vec<V3> = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
            .iter()
            .map(|&(a, b)| add(c, add(scale(u, a * big), scale(v, b * big))))
            .collect();
        for (j, other) in planes.iter().enumerate() {
            if i == j || poly.is_empty() {
                continue;
            }
            if let Some(other) = other {
                poly = clip(&poly, other, eps);
            }
        }
        if poly.iter().flatten().any(|c| c.abs() > big * 0.5) {
            return None;
        }
        polys.push(poly);
    }
    Some(polys)
}

/// Builds the convex solid of a block from its planes.
///
/// Every block face gives a plane: an A4 face its three points (outward normal `(p1 - p2) × (p3 - p2)`, the manual's rule), a version-710 face the
/// best-fit plane of its polygon (Newell's normal), turned so that the block's vertex
/// centroid lies behind it. The block is the intersection of the half-spaces behind its
/// planes: each plane's face starts as a large square on the plane and is clipped by every
/// other plane (Sutherland–Hodgman, in `f64`). Corners closer than a millionth of the
/// block's size are welded, so neighbouring faces share corners exactly. A plane that ends
/// up with no face (outside the solid, or touching it in an edge or a corner), a plane given
/// twice and a plane through colinear points are left out with a warning; a block whose
/// planes enclose nothing (or nothing finite) is left out with a warning; an A4 block whose
/// planes all face inwards (points anticlockwise) is read reversed with a warning. Faces come
/// out planar and convex, corners clockwise seen from outside.
///
/// A block of more than [`MAX_BLOCK_FACES`] faces, or with a coordinate beyond 10^12
/// quants, gives an empty solid with a warning. Warnings about the whole block come first,
/// then those about faces in face order.
pub fn solid(block: &Block) -> Solid {
    let mut warnings = Vec::new();
    let (vertices, faces) = build(block, &mut warnings).unwrap_or_default();
    let face_of = |w: &String| {
        w.strip_prefix("face ")
            .and_then(|r| r.split(':').next())
            .and_then(|n| n.parse::<usize>().ok())
    };
    warnings.sort_by_key(|w| face_of(w).map_or((0, 0), |f| (1, f)));
    Solid {
        vertices,
        faces,
        warnings,
    }
}

/// The welded corners and faces of a block's solid, `None` when it has none.
fn build(block: &Block, warnings: &mut Vec<String>) -> Option<(Vec<V3>, Vec<SolidFace>)> {
    let count = block.shape.face_count();
    if count > MAX_BLOCK_FACES {
        warnings.push(format!(
            "{count} faces, more than {MAX_BLOCK_FACES}; left out"
        ));
        return None;
    }
    let (mut planes, size) = planes(block, warnings);
    if size > MAX_COORDINATE {
        warnings.push(format!(
            "coordinates beyond {MAX_COORDINATE:e} quants; left out"
        ));
        return None;
    }
    let weld = size * 1e-6;
    for j in 0..planes.len() {
        let Some(pj) = planes[j] else { continue };
        if let Some(i) = (0..j).find(|&i| {
            planes[i].is_some_and(|pi| dot(pi.n, pj.n) > 1.0 - 1e-9 && (pi.d - pj.d).abs() <= weld)
        }) {
            warnings.push(format!("face {j}: same plane as face {i}; left out"));
            planes[j] = None;
        }
    }
    let faces_of = |polys: &[Vec<V3>]| polys.iter().filter(|p| p.len() >= 3).count();
    let mut polys = clip_all(&planes, size);
    if matches!(block.shape, Shape::Planes(_)) && polys.as_ref().is_none_or(|p| faces_of(p) < 4) {
        let flipped: Vec<Option<Plane>> = planes
            .iter()
            .map(|p| {
                p.map(|p| Plane {
                    n: scale(p.n, -1.0),
                    d: -p.d,
                })
            })
            .collect();
        if let Some(f) = clip_all(&flipped, size).filter(|p| faces_of(p) >= 4) {
            warnings.push(
                "its plane normals point inwards (the points run anticlockwise); read reversed"
                    .to_string(),
            );
            planes = flipped;
            polys = Some(f);
        }
    }
    let Some(polys) = polys else {
        warnings.push("its planes do not enclose a finite solid; left out".to_string());
        return None;
    };
    let mut welder = Welder::new(weld);
    let mut faces = Vec::new();
    let mut lost = Vec::new();
    for (f, poly) in polys.iter().enumerate() {
        let Some(plane) = planes[f] else { continue };
        let mut corners: Vec<u32> = Vec::with_capacity(poly.len());
        for p in poly.iter().rev() {
            let i = welder.add(*p);
            if corners.last() != Some(&i) {
                corners.push(i);
            }
        }
        while corners.len() > 1 && corners.first() == corners.last() {
            corners.pop();
        }
        let pts: Vec<V3> = corners.iter().map(|&i| welder.points[i as usize]).collect();
        let area = length(newell(&pts)) / 2.0;
        let perimeter: f64 = (0..pts.len())
            .map(|k| length(sub(pts[(k + 1) % pts.len()], pts[k])))
            .sum();
        if corners.len() < 3 || 4.0 * area < weld * perimeter {
            lost.push(f);
            continue;
        }
        faces.push(SolidFace {
            face: f,
            corners,
            normal: plane.n,
        });
    }
    if faces.len() < 4 {
        warnings.push("its planes enclose no solid; left out".to_string());
        return None;
    }
    for f in lost {
        warnings.push(format!(
            "face {f}: its plane contributes no face to the solid; left out"
        ));
    }
    // Keep only the corners that faces use, in order of first use.
    let mut map = vec![u32::MAX; welder.points.len()];
    let mut vertices = Vec::new();
    for face in &mut faces {
        for c in &mut face.corners {
            let slot = &mut map[*c as usize];
            if *slot == u32::MAX {
                *slot = vertices.len() as u32;
                vertices.push(welder.points[*c as usize]);
            }
            *c = *slot;
        }
    }
    Some((vertices, faces))
}

/// An affine transform `x -> m · x + t`.
#[derive(Debug, Clone, Copy)]
struct Affine {
    m: [[f64; 3]; 3],
    t: V3,
}

impl Affine {
    const IDENTITY: Affine = Affine {
        m: [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
        t: [0.0; 3],
    };

    fn apply(&self, p: V3) -> V3 {
        let m = &self.m;
        add(self.t, [dot(m[0], p), dot(m[1], p), dot(m[2], p)])
    }

    fn then(&self, child: &Affine) -> Affine {
        let mut m = [[0.0; 3]; 3];
        for (r, row) in m.iter_mut().enumerate() {
            for (c, v) in row.iter_mut().enumerate() {
                *v = (0..3).map(|k| self.m[r][k] * child.m[k][c]).sum();
            }
        }
        Affine {
            m,
            t: self.apply(child.t),
        }
    }

    fn det(&self) -> f64 {
        dot(self.m[0], cross(self.m[1], self.m[2]))
    }

    /// `T(position) · Rz(pan) · Ry(-tilt) · Rx(roll) · S(scale)`.
    fn of_object(o: &Object) -> Affine {
        let [pan, tilt, roll] = [0, 1, 2].map(|i| o.angles[i].value());
        let (sp, cp) = det::sin_cos(pan);
        let (st, ct) = det::sin_cos(-tilt);
        let (sr, cr) = det::sin_cos(roll);
        let rz = [[cp, -sp, 0.0], [sp, cp, 0.0], [0.0, 0.0, 1.0]];
        let ry = [[ct, 0.0, st], [0.0, 1.0, 0.0], [-st, 0.0, ct]];
        let rx = [[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]];
        let s = [0, 1, 2].map(|i| o.scale[i].value());
        let sm = [[s[0], 0.0, 0.0], [0.0, s[1], 0.0], [0.0, 0.0, s[2]]];
        let lin = |m| Affine { m, t: [0.0; 3] };
        let r = lin(rz).then(&lin(ry)).then(&lin(rx)).then(&lin(sm));
        Affine {
            m: r.m,
            t: point(&o.position),
        }
    }
}

/// The node transform of an object: its position, the rotation
/// `Rz(pan) · Ry(-tilt) · Rx(roll)` as a quaternion and its scale, as [`Affine::of_object`]
/// places. `None` when that does not fit a valid `f32` transform (a coordinate beyond
/// `f32`, a scale that rounds to zero or differs from the others by more than 10^6): the
/// node then has the identity transform, which is as correct (the Model's positions are in
/// model space; the transform is only the frame the hierarchy is written in).
fn node_transform(o: &Object) -> Option<NodeTransform> {
    let [pan, tilt, roll] = [0, 1, 2].map(|i| o.angles[i].value());
    let half = |a: f64| det::sin_cos(a / 2.0);
    let (sz, cz) = half(pan);
    let (sy, cy) = half(-tilt);
    let (sx, cx) = half(roll);
    // qz(pan) * qy(-tilt) * qx(roll), [x, y, z, w].
    let zy = [-sz * sy, cz * sy, sz * cy, cz * cy];
    let q = [
        zy[3] * sx + zy[0] * cx,
        zy[1] * cx + zy[2] * sx,
        zy[2] * cx - zy[1] * sx,
        zy[3] * cx - zy[0] * sx,
    ];
    let len = q.iter().map(|c| c * c).sum::<f64>().sqrt();
    let scale = [0, 1, 2].map(|i| o.scale[i].value() as f32);
    let (lo, hi) = scale.iter().fold((f32::INFINITY, 0.0f32), |(lo, hi), s| {
        (lo.min(s.abs()), hi.max(s.abs()))
    });
    let t = NodeTransform {
        translation: [0, 1, 2].map(|i| o.position[i].value() as f32),
        rotation: q.map(|c| (c / len) as f32),
        scale,
    };
    (t.is_finite() && lo > 0.0 && hi <= lo * 1e6).then_some(t)
}

/// The model being built: one mesh per texture.
struct Builder<'a> {
    file_blocks: Vec<&'a Block>,
    solids: Vec<Solid>,
    meshes: Vec<Mesh>,
    by_texture: HashMap<String, usize>,
    next_source: u32,
    corners: usize,
    full: bool,
    warnings: Vec<String>,
    /// The scene hierarchy: objects, placed blocks, lights, entities and sounds.
    nodes: Vec<SceneNode>,
    /// The world matrix of each node, as the `f32` transforms give it.
    worlds: Vec<Matrix4>,
}

/// Whether the linear part of `m` is safely invertible: its determinant is not small
/// against its largest entry cubed.
fn well_conditioned(m: &Matrix4) -> bool {
    let r = |i: usize| [m[i], m[4 + i], m[8 + i]];
    let det = dot(r(0), cross(r(1), r(2)));
    let size = (0..3)
        .flat_map(|i| r(i).into_iter())
        .fold(0.0, |a: f64, c| a.max(c.abs()));
    det.is_finite() && det.abs() > 1e-9 * size * size * size
}

impl Builder<'_> {
    /// Adds a node, returns its index. A transform that would make the node's world matrix
    /// nearly singular is replaced by the identity (the exporter inverts world matrices).
    fn node(&mut self, name: String, parent: Option<usize>, transform: NodeTransform) -> usize {
        let above = parent.map(|p| self.worlds[p]);
        let world = |t: &NodeTransform| match &above {
            Some(a) => mul_matrix(a, &t.matrix()),
            None => t.matrix(),
        };
        let mut transform = transform;
        let mut w = world(&transform);
        if !well_conditioned(&w) {
            transform = NodeTransform::IDENTITY;
            w = world(&transform);
        }
        self.worlds.push(w);
        self.nodes.push(SceneNode {
            name,
            parent,
            transform,
            parts: Vec::new(),
            frames: Vec::new(),
        });
        self.nodes.len() - 1
    }

    /// Adds block `b` (position in `file_blocks`) placed by `at` as a node (`block N`) under
    /// `parent`, holding the block's triangles of each mesh.
    fn place(&mut self, b: usize, at: &Affine, parent: Option<usize>) {
        if self.full {
            return;
        }
        let name = format!("block {}", self.file_blocks[b].index);
        let node = self.node(name, parent, NodeTransform::IDENTITY);
        let before: Vec<usize> = self.meshes.iter().map(|m| m.triangles.len()).collect();
        self.add_faces(b, at);
        let parts = self
            .meshes
            .iter()
            .enumerate()
            .filter_map(|(m, mesh)| {
                let start = before.get(m).copied().unwrap_or(0);
                (mesh.triangles.len() > start).then_some(MeshPart {
                    mesh: m,
                    triangles: start..mesh.triangles.len(),
                })
            })
            .collect();
        self.nodes[node].parts = parts;
    }

    /// Adds the faces of block `b` placed by `at` to the meshes of their textures.
    fn add_faces(&mut self, b: usize, at: &Affine) {
        let solid = &self.solids[b];
        if solid.faces.is_empty() {
            return;
        }
        let need: usize = solid.faces.iter().map(|f| f.corners.len()).sum();
        if self.corners + need > MAX_CORNERS {
            self.full = true;
            self.warnings.push(format!(
                "the level has more than {MAX_CORNERS} face corners; the rest is left out"
            ));
            return;
        }
        self.corners += need;
        let det = at.det();
        let block = self.file_blocks[b];
        let placed: Vec<V3> = solid.vertices.iter().map(|p| at.apply(*p)).collect();
        let base = self.next_source;
        self.next_source = self.next_source.saturating_add(solid.vertices.len() as u32);
        for face in &solid.faces {
            let mut corners = face.corners.clone();
            if det < 0.0 {
                corners.reverse();
            }
            let pts: Vec<V3> = corners.iter().map(|&i| placed[i as usize]).collect();
            // Clockwise seen from outside: Newell's normal points inwards.
            let n = scale(newell(&pts), -1.0);
            let len = length(n);
            if !(len.is_finite() && len > 0.0) {
                continue;
            }
            let normal = scale(n, 1.0 / len).map(|c| c as f32);
            let texture = block
                .shape
                .surface(face.face)
                .map(|s| s.texture.as_str())
                .unwrap_or_default();
            let m = match self.by_texture.get(texture) {
                Some(&m) => m,
                None => {
                    let m = self.meshes.len();
                    self.by_texture.insert(texture.to_string(), m);
                    self.meshes.push(Mesh {
                        name: texture.to_string(),
                        skin: Some(m),
                        ..Mesh::default()
                    });
                    m
                }
            };
            let mesh = &mut self.meshes[m];
            let first = mesh.positions.len() as u32;
            for (k, p) in pts.iter().enumerate() {
                mesh.positions.push(p.map(|c| c as f32));
                mesh.normals.push(normal);
                mesh.uvs.push([0.0, 0.0]);
                mesh.source_vertices.push(base.saturating_add(corners[k]));
            }
            for k in 1..pts.len() as u32 - 1 {
                mesh.triangles.push([first, first + k, first + k + 1]);
            }
        }
    }
}

/// Converts a WMP level: every block's [`solid`], placed through the object hierarchy.
///
/// **Placement.** Objects not contained in another object are roots; each object places its
/// members with `world = parent · T(position) · R(angles) · S(scale)`, where the rotation is
/// `Rz(pan) · Ry(-tilt) · Rx(roll)` (pan about the upright Z axis, counter-clockwise seen
/// from above; positive tilt raises +X towards +Z; roll about X), angles in radians as in
/// the A4 manual's example. A block contained in several objects is placed once per
/// containment. When the file has objects, a block in none of them is placed as it is, with
/// a warning; when it has none, every block is placed as it is. A mirroring transform
/// (negative scale product) reverses the corner order so faces keep facing out. Object
/// cycles, references to statements that do not exist and angles larger than 2π (which may
/// be degrees) are warned about.
///
/// **Model.** One [`Mesh`] per texture name (the mesh's name), in order of first use, each
/// with a [`Skin`] of that name and no pictures (the pictures live in the level's WADs).
/// Every face is a triangle fan with its own corners (flat normals); triangles are
/// clockwise seen from the front, the crate's convention. `source_vertices` numbers the
/// welded corners of each placed block across the whole model, so corners shared by faces
/// of one placed block share their number. Texture coordinates are all zero: mapping them
/// needs the texture sizes from the WADs. Positions are in WED quants (about an inch by
/// Conitec's convention), Z up, right-handed, unscaled.
///
/// **Nodes.** [`Model::nodes`] mirror the placement: each object visit is a node named
/// after the object (WED's group name, the comment after its opening brace, else
/// `object N`) with the object's position, rotation and scale as its transform, under the
/// node of the object that contains it; each placed block is a node `block N` with the
/// identity transform under its object's node (a root for a block in no object), holding
/// one [`crate::model::MeshPart`] per texture mesh with the block's triangles; each
/// `light`, `entity` and `sound` member is an empty node (`light 1`) at its object's origin.
/// Meshes keep model-space positions; a transform that does not fit a valid `f32`
/// transform, or would make the node's world matrix nearly singular, is replaced by the
/// identity (the nodes only give the frame the hierarchy is written in).
///
/// **Bounds.** The model holds at most 2^20 face corners, and placement visits at most 2^20 objects (a hierarchy that shares objects can expand
/// exponentially); beyond that the rest of the level is left out with a warning.
///
/// `warnings` (the parser's) come first in the result's warnings, then those of the
/// solids (`block 3: face 6: ...`), then those of the placement.
pub fn to_model(file: &WmpFile, warnings: &[String]) -> Converted {
    let mut warnings = warnings.to_vec();
    let file_blocks: Vec<&Block> = file.blocks().collect();
    let solids: Vec<Solid> = file_blocks
        .iter()
        .map(|b| {
            let s = solid(b);
            warnings.extend(s.warnings.iter().map(|w| format!("block {}: {w}", b.index)));
            s
        })
        .collect();
    let index = Index::new(file, &file_blocks, &mut warnings);
    let contained = index.check_members(&mut warnings);
    let mut builder = Builder {
        file_blocks,
        solids,
        meshes: Vec::new(),
        by_texture: HashMap::new(),
        next_source: 0,
        corners: 0,
        full: false,
        warnings: Vec::new(),
        nodes: Vec::new(),
        worlds: Vec::new(),
    };
    if !index.objects.is_empty() && contained.iter().all(|&c| c) {
        warnings.push("every object is inside another: no root object to place from".into());
    }
    let placed_blocks = place_objects(&mut builder, &index, &contained, &mut warnings);
    for (b, placed) in placed_blocks.iter().enumerate() {
        if !placed {
            if !index.objects.is_empty() {
                warnings.push(format!(
                    "block {} is in no object; placed as it is",
                    builder.file_blocks[b].index
                ));
            }
            builder.place(b, &Affine::IDENTITY, None);
        }
    }
    warnings.append(&mut builder.warnings);
    let skins = builder
        .meshes
        .iter()
        .map(|m| Skin {
            source: None,
            name: m.name.clone(),
            pictures: Vec::new(),
            picture_times: None,
        })
        .collect();
    Converted {
        model: Model {
            meshes: builder.meshes,
            skins,
            nodes: builder.nodes,
            ..Model::default()
        },
        warnings,
    }
}

/// What object members name, found by index: the level's blocks, its objects with their node
/// names, and the other statements a member may be.
struct Index<'a> {
    /// Each block index's position in the blocks (the last of a block defined twice).
    blocks_by_index: HashMap<u32, usize>,
    /// The objects, in file order.
    objects: Vec<&'a Object>,
    /// Each object's node name: WED's group name (the comment after the opening brace), else
    /// `object N`.
    object_names: Vec<String>,
    /// Each object index's position in `objects` (the last of an object defined twice).
    objects_by_index: HashMap<u32, usize>,
    /// The levels, lights, entities, sounds and paths, by kind and index.
    others: HashMap<(&'static str, u32), ()>,
}

impl<'a> Index<'a> {
    /// The look-ups of `file`, whose blocks are `file_blocks`; warns about blocks and objects
    /// defined more than once.
    fn new(file: &'a WmpFile, file_blocks: &[&Block], warnings: &mut Vec<String>) -> Self {
        let mut blocks_by_index: HashMap<u32, usize> = HashMap::new();
        for (i, b) in file_blocks.iter().enumerate() {
            if blocks_by_index.insert(b.index, i).is_some() {
                warnings.push(format!(
                    "block {} is defined more than once; objects place the last",
                    b.index
                ));
            }
        }
        let objects: Vec<&Object> = file.objects().collect();
        // WED's group name (the comment after the opening brace), else `object N`.
        let object_names: Vec<String> = file
            .statements
            .iter()
            .filter_map(|s| match &s.item {
                Item::Object(o) => Some(
                    s.inner_comments
                        .iter()
                        .map(|c| c.trim())
                        .find(|c| !c.is_empty())
                        .map_or_else(|| format!("object {}", o.index), str::to_string),
                ),
                _ => None,
            })
            .collect();
        let mut objects_by_index: HashMap<u32, usize> = HashMap::new();
        for (i, o) in objects.iter().enumerate() {
            if objects_by_index.insert(o.index, i).is_some() {
                warnings.push(format!(
                    "object {} is defined more than once; the last is used",
                    o.index
                ));
            }
        }
        let mut others: HashMap<(&str, u32), ()> = HashMap::new();
        for item in file.items() {
            let key = match item {
                Item::Level(l) => ("level", l.index),
                Item::Light(l) => ("light", l.index),
                Item::Entity(e) => ("entity", e.index),
                Item::Sound(s) => ("sound", s.index),
                Item::Path(p) => ("path", p.index),
                _ => continue,
            };
            others.insert(key, ());
        }
        Index {
            blocks_by_index,
            objects,
            object_names,
            objects_by_index,
            others,
        }
    }

    /// Checks the objects' angles and members once (warning about angles larger than 2π,
    /// unknown member kinds and members that are not defined); whether each object is a
    /// member of another (those that are not are the roots).
    fn check_members(&self, warnings: &mut Vec<String>) -> Vec<bool> {
        let mut contained = vec![false; self.objects.len()];
        for o in &self.objects {
            let two_pi = std::f64::consts::TAU + 1e-3;
            if let Some(a) = o.angles.iter().find(|a| a.value().abs() > two_pi) {
                warnings.push(format!(
                    "object {}: angle {} is larger than 2π; angles are read as radians, as in \
                     the A4 manual (degrees?)",
                    o.index,
                    a.text()
                ));
            }
            for m in &o.members {
                for &i in &m.indices {
                    let found = match m.kind.as_str() {
                        "object" => self.objects_by_index.get(&i).map(|&k| contained[k] = true),
                        "block" => self.blocks_by_index.get(&i).map(|_| ()),
                        kind @ ("level" | "light" | "entity" | "sound" | "path") => {
                            self.others.get(&(kind, i)).copied()
                        }
                        _ => {
                            warnings.push(format!(
                                "object {}: unknown member kind '{}'",
                                o.index, m.kind
                            ));
                            break;
                        }
                    };
                    if found.is_none() {
                        warnings.push(format!("object {}: {} {i} is not defined", o.index, m.kind));
                    }
                }
            }
        }
        contained
    }
}

/// Places the objects depth-first from each root (an object no other contains), with the
/// chain of objects above for cycle checks: a node per object visit, its blocks placed under
/// it, its lights, entities and sounds as empty nodes. Which of `builder`'s blocks were
/// placed.
fn place_objects(
    builder: &mut Builder<'_>,
    index: &Index<'_>,
    contained: &[bool],
    warnings: &mut Vec<String>,
) -> Vec<bool> {
    let objects = &index.objects;
    let mut placed_blocks = vec![false; builder.file_blocks.len()];
    let mut visits = 0usize;
    // Placement warnings, each once (a shared object is visited once per containment).
    let mut once = std::collections::HashSet::new();
    let mut warn_once = |warnings: &mut Vec<String>, w: String| {
        if once.insert(w.clone()) {
            warnings.push(w);
        }
    };
    // Depth-first from each root, with the chain of objects above for cycle checks.
    for (r, root) in objects.iter().enumerate() {
        if contained[r] || index.objects_by_index.get(&root.index) != Some(&r) {
            continue;
        }
        let mut stack: Vec<(usize, Affine, usize, Option<usize>)> =
            vec![(r, Affine::IDENTITY, 0, None)];
        let mut chain: Vec<usize> = Vec::new();
        while let Some((k, parent, depth, parent_node)) = stack.pop() {
            if builder.full {
                break;
            }
            chain.truncate(depth);
            visits += 1;
            if visits > MAX_VISITS {
                warnings.push(format!(
                    "the object hierarchy expands to more than {MAX_VISITS} placements; the \
                     rest is left out"
                ));
                break;
            }
            let o = objects[k];
            let at = parent.then(&Affine::of_object(o));
            if at.det().abs() < 1e-12 {
                warn_once(
                    warnings,
                    format!(
                        "object {}: its scale is zero; its members are left out",
                        o.index
                    ),
                );
                continue;
            }
            chain.push(k);
            let node = builder.node(
                index.object_names[k].clone(),
                parent_node,
                node_transform(o).unwrap_or(NodeTransform::IDENTITY),
            );
            let mut children = Vec::new();
            for m in &o.members {
                for &i in &m.indices {
                    match m.kind.as_str() {
                        "block" => {
                            if let Some(&b) = index.blocks_by_index.get(&i) {
                                placed_blocks[b] = true;
                                builder.place(b, &at, Some(node));
                            }
                        }
                        kind @ ("light" | "entity" | "sound")
                            if index.others.contains_key(&(kind, i)) =>
                        {
                            builder.node(
                                format!("{kind} {i}"),
                                Some(node),
                                NodeTransform::IDENTITY,
                            );
                        }
                        "object" => {
                            let Some(&c) = index.objects_by_index.get(&i) else {
                                continue;
                            };
                            if chain.contains(&c) {
                                warn_once(
                                    warnings,
                                    format!(
                                        "object {} contains object {i}, which contains it; \
                                         that member is left out",
                                        o.index
                                    ),
                                );
                                continue;
                            }
                            children.push((c, at, depth + 1, Some(node)));
                        }
                        _ => {}
                    }
                }
            }
            stack.extend(children.into_iter().rev());
        }
    }
    placed_blocks
}
