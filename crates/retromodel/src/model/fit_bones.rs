//! Rigid bones fitted to vertex animation: a keyframe model (Quake MDL, MD2, MD3) in
//! skeletal form with at most N bones, for formats that animate bones only (GoldSrc's 128)
//! or when the user asks for few joints rather than one per vertex ([`super::rig`]).
//!
//! **Method** (in the spirit of Le and Deng's smooth skinning decomposition with rigid
//! bones, and of James and Twigg's mesh animation skinning): each vertex follows one bone.
//! 1. The vertices (made one per source vertex: seam copies move together) are seeded into
//!    N clusters by farthest-point sampling of their whole trajectories (every frame's
//!    position), each vertex then joining the nearest seed.
//! 2. For each cluster and frame, the rigid transform that best carries the cluster's rest
//!    positions (the first frame) onto that frame's positions, by least squares (Horn's
//!    closed form: the rotation is the dominant eigenvector of a 4×4 symmetric matrix built
//!    from the cross-covariance, found by Jacobi rotations).
//! 3. Each vertex moves to the bone whose transforms follow its trajectory best; an emptied
//!    bone is re-seeded at the vertex followed worst. Steps 2 and 3 repeat a fixed number of
//!    times (the same model gives the same bones).
//!
//! Each bone is a root joint at its cluster's rest centroid; each clip becomes an animation
//! (one named `frames` holding every pose when there are no clips, as in
//! [`super::rig::vertex_rig`]). The error of each frame (largest and RMS vertex distance
//! between the fitted and the stored pose) is returned for the writer to report.

use super::rig::rig_clips;
use super::{Influences, Joint, JointTransform, Model, SkeletalAnimation};

/// Rounds of fitting and reassigning.
const ROUNDS: usize = 10;

/// A keyframe model in skeletal form with fitted bones, and how well they follow it.
#[derive(Debug, Clone)]
pub struct FittedBones {
    /// The skeletal model (no keyframes left).
    pub model: Model,
    /// Per frame of the source: the largest distance between a vertex as the bones place it
    /// and as the frame stores it.
    pub frame_max: Vec<f32>,
    /// Per frame of the source: the root mean square of those distances.
    pub frame_rms: Vec<f32>,
}

type V3 = [f64; 3];

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dist2(a: V3, b: V3) -> f64 {
    let d = sub(a, b);
    d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
}

/// A rigid transform: unit quaternion `[x, y, z, w]` and translation.
#[derive(Debug, Clone, Copy)]
struct Rigid {
    q: [f64; 4],
    t: V3,
}

impl Rigid {
    const IDENTITY: Rigid = Rigid {
        q: [0.0, 0.0, 0.0, 1.0],
        t: [0.0; 3],
    };

    fn rotate(&self, v: V3) -> V3 {
        let [x, y, z, w] = self.q;
        // v + 2w (u × v) + 2 u × (u × v)
        let u = [x, y, z];
        let c = cross(u, v);
        let cc = cross(u, c);
        [
            v[0] + 2.0 * (w * c[0] + cc[0]),
            v[1] + 2.0 * (w * c[1] + cc[1]),
            v[2] + 2.0 * (w * c[2] + cc[2]),
        ]
    }

    fn apply(&self, v: V3) -> V3 {
        let r = self.rotate(v);
        [r[0] + self.t[0], r[1] + self.t[1], r[2] + self.t[2]]
    }
}

fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The eigenvector of the largest eigenvalue of symmetric `a` (cyclic Jacobi rotations).
fn dominant_eigenvector(mut a: [[f64; 4]; 4]) -> [f64; 4] {
    let mut v = [[0.0; 4]; 4];
    for (i, row) in v.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    for _ in 0..30 {
        let off: f64 = (0..4)
            .flat_map(|i| (0..4).filter(move |&j| j != i).map(move |j| (i, j)))
            .map(|(i, j)| a[i][j] * a[i][j])
            .sum();
        if off < 1e-24 {
            break;
        }
        for p in 0..3 {
            for q in p + 1..4 {
                if a[p][q].abs() < 1e-300 {
                    continue;
                }
                let theta = (a[q][q] - a[p][p]) / (2.0 * a[p][q]);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for row in a.iter_mut() {
                    let (akp, akq) = (row[p], row[q]);
                    row[p] = c * akp - s * akq;
                    row[q] = s * akp + c * akq;
                }
                let (rp, rq) = (a[p], a[q]);
                a[p] = std::array::from_fn(|k| c * rp[k] - s * rq[k]);
                a[q] = std::array::from_fn(|k| s * rp[k] + c * rq[k]);
                for row in &mut v {
                    let (vp, vq) = (row[p], row[q]);
                    row[p] = c * vp - s * vq;
                    row[q] = s * vp + c * vq;
                }
            }
        }
    }
    let best = (0..4)
        .max_by(|&i, &j| a[i][i].total_cmp(&a[j][j]))
        .unwrap_or(0);
    [v[0][best], v[1][best], v[2][best], v[3][best]]
}

/// The rigid transform carrying `from` onto `to` by least squares (Horn 1987).
fn fit_rigid(from: &[V3], to: &[V3]) -> Rigid {
    let n = from.len() as f64;
    if from.is_empty() {
        return Rigid::IDENTITY;
    }
    let mean = |s: &[V3]| {
        let mut m = [0.0; 3];
        for p in s {
            for k in 0..3 {
                m[k] += p[k];
            }
        }
        m.map(|x| x / n)
    };
    let (ca, cb) = (mean(from), mean(to));
    let mut s = [[0.0f64; 3]; 3];
    for (a, b) in from.iter().zip(to) {
        let (a, b) = (sub(*a, ca), sub(*b, cb));
        for i in 0..3 {
            for j in 0..3 {
                s[i][j] += a[i] * b[j];
            }
        }
    }
    let [[sxx, sxy, sxz], [syx, syy, syz], [szx, szy, szz]] = s;
    // Horn's N with the quaternion ordered (w, x, y, z).
    let m = [
        [sxx + syy + szz, syz - szy, szx - sxz, sxy - syx],
        [syz - szy, sxx - syy - szz, sxy + syx, szx + sxz],
        [szx - sxz, sxy + syx, -sxx + syy - szz, syz + szy],
        [sxy - syx, szx + sxz, syz + szy, -sxx - syy + szz],
    ];
    let e = dominant_eigenvector(m);
    let len = (e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]).sqrt();
    let q = if len > 0.0 && len.is_finite() {
        [e[1] / len, e[2] / len, e[3] / len, e[0] / len]
    } else {
        [0.0, 0.0, 0.0, 1.0]
    };
    let mut r = Rigid { q, t: [0.0; 3] };
    let rc = r.rotate(ca);
    r.t = sub(cb, rc);
    r
}

/// Squared error of following `bone`'s transforms along `track` from `rest`.
fn track_error(rest: V3, track: &[V3], bone: &[Rigid]) -> f64 {
    track
        .iter()
        .zip(bone)
        .map(|(p, r)| dist2(r.apply(rest), *p))
        .sum()
}

/// One track (every frame's position) per source vertex of each mesh (seam copies share
/// theirs), and the track of each mesh vertex.
fn gather_tracks(model: &Model, frames: usize) -> (Vec<Vec<usize>>, Vec<Vec<V3>>) {
    // One point per source vertex of each mesh: (mesh, vertex) of its first copy.
    let mut point_of: Vec<Vec<usize>> = Vec::with_capacity(model.meshes.len());
    let mut tracks: Vec<Vec<V3>> = Vec::new();
    for mesh in &model.meshes {
        let mut first = std::collections::HashMap::new();
        let mut map = Vec::with_capacity(mesh.positions.len());
        for v in 0..mesh.positions.len() {
            let key = mesh.source_vertices.get(v).copied().unwrap_or(v as u32);
            let p = *first.entry(key).or_insert_with(|| {
                tracks.push(
                    (0..frames)
                        .map(|f| {
                            let p = mesh
                                .morph_targets
                                .get(f)
                                .and_then(|t| t.positions.get(v))
                                .unwrap_or(&mesh.positions[v]);
                            p.map(f64::from)
                        })
                        .collect(),
                );
                tracks.len() - 1
            });
            map.push(p);
        }
        point_of.push(map);
    }
    (point_of, tracks)
}

/// Squared distance between two whole tracks.
fn track_dist(tracks: &[Vec<V3>], a: usize, b: usize) -> f64 {
    tracks[a]
        .iter()
        .zip(&tracks[b])
        .map(|(p, q)| dist2(*p, *q))
        .sum()
}

/// Step 1: `k` farthest-point seeds and each track's nearest seed.
fn seed_clusters(tracks: &[Vec<V3>], k: usize) -> Vec<usize> {
    let n = tracks.len();
    // 1. Farthest-point seeds and nearest-seed clusters.
    let mut assign = vec![0usize; n];
    if n > 0 {
        let mut seeds = vec![0usize];
        let mut nearest: Vec<f64> = (0..n).map(|i| track_dist(tracks, i, 0)).collect();
        while seeds.len() < k {
            let (far, d) = nearest
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1).then(b.0.cmp(&a.0)))
                .map(|(i, d)| (i, *d))
                .unwrap_or((0, 0.0));
            if d <= 0.0 {
                break;
            }
            let c = seeds.len();
            seeds.push(far);
            for i in 0..n {
                let d = track_dist(tracks, i, far);
                if d < nearest[i] {
                    nearest[i] = d;
                    assign[i] = c;
                }
            }
        }
    }
    assign
}

/// Step 2: each bone's rigid transform per frame, fitted to its vertices.
fn fit_all(
    rest: &[V3],
    tracks: &[Vec<V3>],
    assign: &[usize],
    bones: usize,
    frames: usize,
) -> Vec<Vec<Rigid>> {
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); bones];
    for (i, &b) in assign.iter().enumerate() {
        members[b].push(i);
    }
    members
        .iter()
        .map(|m| {
            let from: Vec<V3> = m.iter().map(|&i| rest[i]).collect();
            (0..frames)
                .map(|f| {
                    let to: Vec<V3> = m.iter().map(|&i| tracks[i][f]).collect();
                    fit_rigid(&from, &to)
                })
                .collect()
        })
        .collect()
}

/// Steps 2 and 3, repeated: the final assignment's transforms.
fn refine(
    rest: &[V3],
    tracks: &[Vec<V3>],
    assign: &mut [usize],
    bones: usize,
    frames: usize,
) -> Vec<Vec<Rigid>> {
    let n = tracks.len();
    let mut transforms = fit_all(rest, tracks, assign, bones, frames);
    for _ in 0..ROUNDS {
        let mut errors = vec![0f64; n];
        let mut changed = false;
        for i in 0..n {
            let mut best = (
                assign[i],
                track_error(rest[i], &tracks[i], &transforms[assign[i]]),
            );
            for (b, t) in transforms.iter().enumerate() {
                if b == assign[i] {
                    continue;
                }
                let e = track_error(rest[i], &tracks[i], t);
                if e < best.1 {
                    best = (b, e);
                }
            }
            changed |= best.0 != assign[i];
            assign[i] = best.0;
            errors[i] = best.1;
        }
        // Re-seed emptied bones at the vertices followed worst.
        let mut count = vec![0usize; bones];
        for &b in assign.iter() {
            count[b] += 1;
        }
        let mut worst: Vec<usize> = (0..n).collect();
        worst.sort_by(|&a, &b| errors[b].total_cmp(&errors[a]).then(a.cmp(&b)));
        let mut next = worst.into_iter();
        for b in 0..bones {
            if count[b] == 0 {
                for i in next.by_ref() {
                    if count[assign[i]] > 1 {
                        count[assign[i]] -= 1;
                        assign[i] = b;
                        count[b] = 1;
                        changed = true;
                        break;
                    }
                }
            }
        }
        if !changed {
            break;
        }
        transforms = fit_all(rest, tracks, assign, bones, frames);
    }

    transforms
}

/// `model` (keyframes, no joints) with at most `max_bones` rigid bones fitted to its
/// vertex motion (see the module's comment).
pub fn fit_bones(model: &Model, max_bones: usize) -> FittedBones {
    let frames = model.frames.len().max(1);
    let (point_of, tracks) = gather_tracks(model, frames);
    let n = tracks.len();
    // One pose: nothing moves, one bone holds it all.
    let k = if frames == 1 {
        1
    } else {
        max_bones.max(1).min(n.max(1))
    };
    let rest: Vec<V3> = tracks.iter().map(|t| t[0]).collect();
    let mut assign = seed_clusters(&tracks, k);
    let bones = assign.iter().copied().max().map_or(1, |m| m + 1);
    let transforms = refine(&rest, &tracks, &mut assign, bones, frames);
    // The skeletal model: each bone a root at its cluster's rest centroid.
    let mut centroid = vec![[0f64; 3]; bones];
    let mut count = vec![0usize; bones];
    for (i, &b) in assign.iter().enumerate() {
        for k in 0..3 {
            centroid[b][k] += rest[i][k];
        }
        count[b] += 1;
    }
    for b in 0..bones {
        centroid[b] = centroid[b].map(|x| x / count[b].max(1) as f64);
    }
    let identity = [0.0, 0.0, 0.0, 1.0];
    let joints: Vec<Joint> = (0..bones)
        .map(|b| Joint {
            name: format!("bone{b:03}"),
            parent: None,
            translation: centroid[b].map(|x| x as f32),
            rotation: identity,
        })
        .collect();
    // Frame f of bone b: bone space (rest − centroid) to object space.
    let pose = |b: usize, f: usize| -> JointTransform {
        let r = transforms[b][f];
        let c = r.apply(centroid[b]);
        JointTransform {
            translation: c.map(|x| x as f32),
            rotation: r.q.map(|x| x as f32),
        }
    };
    let mut frame_max = vec![0f32; frames];
    let mut frame_rms = vec![0f32; frames];
    for f in 0..frames {
        let mut sum = 0f64;
        let mut max = 0f64;
        for i in 0..n {
            let d = dist2(transforms[assign[i]][f].apply(rest[i]), tracks[i][f]);
            sum += d;
            max = max.max(d);
        }
        frame_max[f] = max.sqrt() as f32;
        frame_rms[f] = (sum / n.max(1) as f64).sqrt() as f32;
    }
    let mut out = model.clone();
    for (mesh, map) in out.meshes.iter_mut().zip(&point_of) {
        mesh.joint_weights = map
            .iter()
            .map(|&i| Influences::from_slice(&[(assign[i] as u32, 1.0)]))
            .collect();
        mesh.morph_targets.clear();
    }
    out.animations = rig_clips(model)
        .iter()
        .map(|c| SkeletalAnimation {
            name: c.name.clone(),
            fps: if c.fps.is_finite() && c.fps > 0.0 {
                c.fps
            } else {
                10.0
            },
            frames: (c.first..c.first + c.count)
                .map(|f| (0..bones).map(|b| pose(b, f)).collect())
                .collect(),
            bounds: (c.first..c.first + c.count)
                .map(|f| [model.frames[f].bounds_min, model.frames[f].bounds_max])
                .collect(),
            loops: false,
            weight_scales: None,
        })
        .collect();
    out.frames.clear();
    out.clips.clear();
    out.joints = joints;
    FittedBones {
        model: out,
        frame_max,
        frame_rms,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horn_recovers_a_rotation() {
        let from = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 2.0, 0.0],
            [0.0, 0.0, 3.0],
        ];
        // A quarter turn about Z, then a shift.
        let to: Vec<V3> = from
            .iter()
            .map(|p| [-p[1] + 5.0, p[0], p[2] - 1.0])
            .collect();
        let r = fit_rigid(&from, &to);
        for (a, b) in from.iter().zip(&to) {
            assert!(
                dist2(r.apply(*a), *b) < 1e-12,
                "{:?} -> {:?}",
                r.apply(*a),
                b
            );
        }
    }
}
