//! q2pro's MD5 skinning with `.md5scale` weight scales, written out for the tests
//! (`src/refresh/models.c` `MD5_BuildFrameSkeleton`, `src/refresh/mesh.c` `calc_skel_vert`),
//! and a grid look-up to compare point sets.

#![allow(dead_code)]

use std::collections::HashMap;

use retromodel::Model;

/// A point.
pub type V3 = [f32; 3];
/// A quaternion `[x, y, z, w]`.
pub type Q = [f32; 4];

/// `a · b`.
pub fn qmul(a: Q, b: Q) -> Q {
    [
        a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
        a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
        a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
        a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
    ]
}

/// `v` turned by the unit quaternion `q`.
pub fn rotate(q: Q, v: V3) -> V3 {
    let p = qmul(
        qmul(q, [v[0], v[1], v[2], 0.0]),
        [-q[0], -q[1], -q[2], q[3]],
    );
    [p[0], p[1], p[2]]
}

/// A turn of `degrees` about the unit `axis`.
pub fn axis_angle(axis: V3, degrees: f32) -> Q {
    let h = degrees.to_radians() / 2.0;
    [
        axis[0] * h.sin(),
        axis[1] * h.sin(),
        axis[2] * h.sin(),
        h.cos(),
    ]
}

/// `a + b`.
pub fn add(a: V3, b: V3) -> V3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

/// `a - b`.
pub fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// `|a - b|`.
pub fn dist(a: V3, b: V3) -> f32 {
    let d = sub(a, b);
    (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
}

fn normalized(q: Q) -> Q {
    let l = (q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]).sqrt();
    q.map(|c| c / l)
}

/// Every vertex of every mesh (in order) skinned as q2pro skins it, for frame `f` of
/// animation `a`: each joint's animated position multiplied by its scale where
/// `scale_positions` says so, composed with its parent; each weight's offset (the vertex in its
/// joint's bind space) turned by the joint and multiplied by the joint's scale in that frame.
pub fn formula(m: &Model, a: usize, f: usize) -> Vec<V3> {
    let anim = &m.animations[a];
    let ws = anim.weight_scales.as_ref();
    let scale = |j: usize| ws.map_or(1.0, |w| w.frames[f][j]);
    let mut global: Vec<(V3, Q)> = Vec::new();
    for (j, joint) in m.joints.iter().enumerate() {
        let t = anim.frames[f][j];
        let r = normalized(t.rotation);
        let pos = if ws.is_some_and(|w| w.scale_positions[j]) {
            t.translation.map(|c| c * scale(j))
        } else {
            t.translation
        };
        global.push(match joint.parent {
            None => (pos, r),
            Some(p) => {
                let (pp, pq) = global[p];
                (add(pp, rotate(pq, pos)), normalized(qmul(pq, r)))
            }
        });
    }
    let mut out = Vec::new();
    for mesh in &m.meshes {
        for (p, w) in mesh.positions.iter().zip(&mesh.joint_weights) {
            let mut v = [0.0; 3];
            for &(j, bias) in w {
                let joint = &m.joints[j as usize];
                let r = normalized(joint.rotation);
                let offset = rotate([-r[0], -r[1], -r[2], r[3]], sub(*p, joint.translation));
                let (gp, gq) = global[j as usize];
                let moved = add(gp, rotate(gq, offset).map(|c| c * scale(j as usize)));
                v = add(v, moved.map(|c| c * bias));
            }
            out.push(v);
        }
    }
    out
}

/// The largest distance from a point of either set to the nearest of the other, up to
/// `within` (a larger distance is reported as the first one found over it).
pub fn farthest(got: &[V3], want: &[V3], within: f32) -> f32 {
    let one = |a: &[V3], b: &[V3]| {
        let cell = within.max(1e-6);
        let key = |p: V3| p.map(|c| (c / cell).floor() as i64);
        let mut grid: HashMap<[i64; 3], Vec<V3>> = HashMap::new();
        for q in b {
            grid.entry(key(*q)).or_default().push(*q);
        }
        let mut worst = 0.0f32;
        for p in a {
            let k = key(*p);
            let mut best = f32::MAX;
            for dx in -1..=1 {
                for dy in -1..=1 {
                    for dz in -1..=1 {
                        if let Some(list) = grid.get(&[k[0] + dx, k[1] + dy, k[2] + dz]) {
                            for q in list {
                                best = best.min(dist(*p, *q));
                            }
                        }
                    }
                }
            }
            if best > within {
                // Not within a cell: measure against everything once.
                best = b.iter().map(|q| dist(*p, *q)).fold(f32::MAX, f32::min);
                return best;
            }
            worst = worst.max(best);
        }
        worst
    };
    one(got, want).max(one(want, got))
}
