//! Skeletal animation for MD5 files: the bind pose, md5anim decoding (frame flags), skinning
//! an md5mesh by its weights (positions and "weight normals"), joint matching by name,
//! glTF-style skin data, and the compressing md5anim builder.
//!
//! The skeletal maths itself (joint poses, composition, sampling with Doom 3's loop and clamp
//! rules, root motion, weight skinning) is the crate's [`crate::model::pose`]; its types
//! are re-exported here, and an [`Animation`] is an md5anim decoded into its
//! [`PoseTrack`].
//!
//! **Spaces.** An md5mesh joint is in *object space* (the bind pose, no composition needed).
//! An md5anim joint is *local*: relative to its parent, composed down the hierarchy (a
//! parent's index is lower than its child's, so one pass in index order suffices):
//! `global.orient = parent.orient · local.orient`,
//! `global.pos = parent.pos + rotate(parent.orient, local.pos)`.
//! All rotations follow the column-vector convention of [`super::quat`] (where the MD5 `w`
//! sign is decided, once).
//!
//! **Buffers.** Everything that runs per frame (sampling, composing, skinning) writes into
//! slices the caller owns and allocates nothing. Each such function writes the first `n`
//! entries (joints or vertices) and **panics** when the slice is shorter, like slice
//! indexing; the mesh functions also panic on a weight or joint index that does not exist.
//! Parsed files are validated by the parser; check hand-built meshes with [`check_mesh`].
//!
//! **Timing.** Frame `f` is at `f / frameRate` seconds. Looping follows Doom 3: the last
//! frame repeats the first, so a cycle lasts `numFrames - 1` frames ([`Playback::Loop`]).
//! Between two frames, translations are interpolated linearly and rotations by slerp along
//! the shorter arc, in local (parent-relative) space as Doom 3 does.
//!
//! **Root motion.** Joint 0 is the root (its parent is `-1`). Doom 3 moves the entity by the
//! root's translation and zeroes it in the pose ([`RootMotion::InPlace`]); the sampling
//! functions return the translation either way, and [`PoseTrack::root_motion`] gives the
//! displacement between two times across loop cycles.

use super::quat::w_from_xyz;
use super::raw::{AnimFile, BaseJoint, Bounds, HierarchyJoint, Joint, Mesh, VERSION};
use crate::hash::FastMap;
use crate::math::{add, cross, dot, normalize_or, scale, sub};
use crate::model::pose::{self as skeletal, check_parents, PoseTrack};
use crate::model::Influences;
use std::collections::HashMap;

pub use crate::model::pose::{
    gather, to_global, to_global_in_place, to_local, FramePosition, JointPose, Playback, RootMotion,
};

/// Flag bit: translation x is animated.
pub const TX: u32 = 1;
/// Flag bit: translation y is animated.
pub const TY: u32 = 2;
/// Flag bit: translation z is animated.
pub const TZ: u32 = 4;
/// Flag bit: orientation x is animated.
pub const QX: u32 = 8;
/// Flag bit: orientation y is animated.
pub const QY: u32 = 16;
/// Flag bit: orientation z is animated.
pub const QZ: u32 = 32;
/// All six component flags; any other bit is an error.
pub const ALL_COMPONENTS: u32 = 63;

impl JointPose {
    /// An md5mesh bind-pose joint (object space), `w` derived by [`w_from_xyz`].
    pub fn from_joint(joint: &Joint) -> JointPose {
        JointPose::new(joint.pos, w_from_xyz(joint.orient))
    }

    /// An md5anim base-frame joint (parent-relative), `w` derived by [`w_from_xyz`].
    pub fn from_base(base: &BaseJoint) -> JointPose {
        JointPose::new(base.pos, w_from_xyz(base.orient))
    }
}

/// Joint names and parents (a parent index lower than the joint's own, `-1` for a root).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Skeleton {
    /// Joint names.
    pub names: Vec<String>,
    /// Parent indices.
    pub parents: Vec<i32>,
}

impl Skeleton {
    /// The skeleton of an md5mesh's joints. Errors when a parent index is not lower than
    /// its joint's.
    pub fn from_mesh_joints(joints: &[Joint]) -> Result<Skeleton, String> {
        let skeleton = Skeleton {
            names: joints.iter().map(|j| j.name.clone()).collect(),
            parents: joints.iter().map(|j| j.parent).collect(),
        };
        check_parents(&skeleton.names, &skeleton.parents)?;
        Ok(skeleton)
    }

    /// The skeleton of an md5anim's hierarchy. Errors when a parent index is not lower than
    /// its joint's.
    pub fn from_anim(anim: &AnimFile) -> Result<Skeleton, String> {
        let skeleton = Skeleton {
            names: anim.hierarchy.iter().map(|j| j.name.clone()).collect(),
            parents: anim.hierarchy.iter().map(|j| j.parent).collect(),
        };
        check_parents(&skeleton.names, &skeleton.parents)?;
        Ok(skeleton)
    }

    /// Number of joints.
    pub fn len(&self) -> usize {
        self.parents.len()
    }

    /// Whether there are no joints.
    pub fn is_empty(&self) -> bool {
        self.parents.is_empty()
    }

    /// The index of the first joint called `name`.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        self.names.iter().position(|n| n == name)
    }
}

/// An md5mesh's bind-pose joints as poses (object space).
///
/// # Panics
/// When `out` is shorter than `joints`.
pub fn bind_pose(joints: &[Joint], out: &mut [JointPose]) {
    for (o, j) in out[..joints.len()].iter_mut().zip(joints) {
        *o = JointPose::from_joint(j);
    }
}

/// The animation of an md5anim, every frame decoded into local (parent-relative) joint poses.
///
/// Decoding once costs `numFrames × numJoints` poses (28 bytes each) and makes sampling two
/// table look-ups and a blend per joint.
#[derive(Debug, Clone, PartialEq)]
pub struct Animation {
    skeleton: Skeleton,
    track: PoseTrack,
}

impl Animation {
    /// Decodes every frame: for each joint, the components whose flag bits (1, 2, 4, 8, 16,
    /// 32 = Tx, Ty, Tz, Qx, Qy, Qz) are set are read in that order from the frame's floats
    /// starting at the joint's `startIndex`; the others come from the baseframe; `w` is
    /// derived by [`w_from_xyz`].
    ///
    /// Errors (naming the joint or frame) when the hierarchy and baseframe differ in length, a
    /// parent does not come before its child, a joint has flags beyond the six components or
    /// reads past `numAnimatedComponents`, a frame's float count differs from
    /// `numAnimatedComponents`, there are no frames, or the frame rate is not a positive
    /// number.
    pub fn new(anim: &AnimFile) -> Result<Animation, String> {
        let skeleton = Skeleton::from_anim(anim)?;
        let joints = skeleton.len();
        if anim.baseframe.len() != joints {
            return Err(format!(
                "the hierarchy has {joints} joints but the baseframe has {}",
                anim.baseframe.len()
            ));
        }
        if !anim.frame_rate.is_finite() || anim.frame_rate <= 0.0 {
            return Err(format!(
                "frame rate {} is not a positive number",
                anim.frame_rate
            ));
        }
        if anim.frames.is_empty() {
            return Err("the animation has no frames".to_string());
        }
        let comps = anim.num_animated_components as u64;
        for (i, h) in anim.hierarchy.iter().enumerate() {
            if h.flags & !ALL_COMPONENTS != 0 {
                return Err(format!(
                    "joint {i} \"{}\" has flags {} with bits beyond the six components (63)",
                    h.name, h.flags
                ));
            }
            let end = u64::from(h.start_index) + u64::from(h.flags.count_ones());
            if end > comps {
                return Err(format!(
                    "joint {i} \"{}\" reads components {}..{end} but numAnimatedComponents is {comps}",
                    h.name, h.start_index
                ));
            }
        }
        for (f, floats) in anim.frames.iter().enumerate() {
            if floats.len() as u64 != comps {
                return Err(format!(
                    "frame {f} has {} values but numAnimatedComponents is {comps}",
                    floats.len()
                ));
            }
        }
        let mut poses = vec![JointPose::IDENTITY; anim.frames.len() * joints];
        if joints > 0 {
            for (floats, out) in anim.frames.iter().zip(poses.chunks_exact_mut(joints)) {
                decode_frame(&anim.hierarchy, &anim.baseframe, floats, out);
            }
        }
        let track = PoseTrack::new(
            skeleton.parents.clone(),
            anim.frame_rate,
            anim.frames.len(),
            poses,
        )?;
        Ok(Animation { skeleton, track })
    }

    /// Joint names and parents.
    pub fn skeleton(&self) -> &Skeleton {
        &self.skeleton
    }

    /// The decoded frames, as the crate's skeletal sampler plays them.
    pub fn track(&self) -> &PoseTrack {
        &self.track
    }
}

/// An animation plays as its [`PoseTrack`]: [`PoseTrack::frame_count`],
/// [`PoseTrack::duration`] (`(numFrames - 1) / frameRate`, Doom 3's loop of `numFrames - 1`
/// frames), [`PoseTrack::frame_at`], [`PoseTrack::sample_local`],
/// [`PoseTrack::sample_global`] (ready for [`skin_positions`], after [`gather`] when the
/// mesh orders its joints differently), [`PoseTrack::root_motion`] and the rest.
impl std::ops::Deref for Animation {
    type Target = PoseTrack;

    fn deref(&self) -> &PoseTrack {
        &self.track
    }
}

/// Decodes one frame's floats (already checked against the hierarchy).
fn decode_frame(
    hierarchy: &[HierarchyJoint],
    baseframe: &[BaseJoint],
    floats: &[f32],
    out: &mut [JointPose],
) {
    for ((h, b), o) in hierarchy.iter().zip(baseframe).zip(out) {
        let mut c = [
            b.pos[0],
            b.pos[1],
            b.pos[2],
            b.orient[0],
            b.orient[1],
            b.orient[2],
        ];
        let mut k = h.start_index as usize;
        for (bit, slot) in c.iter_mut().enumerate() {
            if h.flags & (1 << bit) != 0 {
                *slot = floats[k];
                k += 1;
            }
        }
        *o = JointPose::new([c[0], c[1], c[2]], w_from_xyz([c[3], c[4], c[5]]));
    }
}

/// Maps each mesh joint to the animation joint of the same name (`result[mesh joint] =
/// anim joint`); the order may differ and the animation may have extra joints.
///
/// Errors name the first mesh joint that the animation lacks (and how many more are
/// missing), or a needed name the animation has twice.
pub fn match_joints(mesh_joints: &[Joint], anim: &AnimFile) -> Result<Vec<usize>, String> {
    match_names(
        mesh_joints.iter().map(|j| j.name.as_str()),
        anim.hierarchy.iter().map(|j| j.name.as_str()),
    )
}

/// [`match_joints`] on plain names: for each of `wanted`, its index in `available`.
pub fn match_names<'a>(
    wanted: impl IntoIterator<Item = &'a str>,
    available: impl IntoIterator<Item = &'a str>,
) -> Result<Vec<usize>, String> {
    // None marks a name that occurs twice.
    let mut index: HashMap<&str, Option<usize>> = HashMap::new();
    for (i, name) in available.into_iter().enumerate() {
        index
            .entry(name)
            .and_modify(|e| *e = None)
            .or_insert(Some(i));
    }
    let mut mapping = Vec::new();
    let mut missing: Vec<(usize, &str)> = Vec::new();
    for (i, name) in wanted.into_iter().enumerate() {
        match index.get(name) {
            Some(Some(a)) => mapping.push(*a),
            Some(None) => {
                return Err(format!(
                    "joint \"{name}\" occurs more than once in the animation"
                ))
            }
            None => missing.push((i, name)),
        }
    }
    match missing.as_slice() {
        [] => Ok(mapping),
        [(i, name)] => Err(format!("mesh joint {i} \"{name}\" is not in the animation")),
        [(i, name), rest @ ..] => Err(format!(
            "mesh joint {i} \"{name}\" is not in the animation (and {} more joints are missing)",
            rest.len()
        )),
    }
}

/// Checks that a mesh's weight ranges, weight joints and triangle indices exist, for
/// `joint_count` joints (the functions here panic on a mesh that fails this).
pub fn check_mesh(mesh: &Mesh, joint_count: usize) -> Result<(), String> {
    for (i, v) in mesh.verts.iter().enumerate() {
        let end = u64::from(v.start_weight) + u64::from(v.count_weight);
        if end > mesh.weights.len() as u64 {
            return Err(format!(
                "vertex {i} uses weights {}..{end} but the mesh has {}",
                v.start_weight,
                mesh.weights.len()
            ));
        }
    }
    for (i, w) in mesh.weights.iter().enumerate() {
        if w.joint as usize >= joint_count {
            return Err(format!(
                "weight {i} uses joint {} but there are {joint_count}",
                w.joint
            ));
        }
    }
    for (i, t) in mesh.tris.iter().enumerate() {
        if let Some(&v) = t.iter().find(|&&v| v as usize >= mesh.verts.len()) {
            return Err(format!(
                "triangle {i} uses vertex {v} but the mesh has {}",
                mesh.verts.len()
            ));
        }
    }
    Ok(())
}

/// Sums `bias × pose(joint)(weight.pos)` over each vertex's weights.
fn skin_with(mesh: &Mesh, pose: &[JointPose], out: &mut [[f32; 3]]) {
    for (v, o) in mesh.verts.iter().zip(&mut out[..mesh.verts.len()]) {
        let weights = weights_of(mesh, v).iter().map(|w| (w.joint, w.bias, w.pos));
        *o = skeletal::weighted_point(weights, pose);
    }
}

fn weights_of<'m>(mesh: &'m Mesh, v: &super::raw::Vert) -> &'m [super::raw::Weight] {
    let start = v.start_weight as usize;
    &mesh.weights[start..start + v.count_weight as usize]
}

/// The bind-pose vertex positions of a mesh, as the seed computes them: for each vertex,
/// `Σ bias × (joint.pos + rotate(joint.orient, weight.pos))` over its weights, with the
/// md5mesh's object-space joints.
///
/// # Panics
/// When `out` is shorter than the vertex count or the mesh fails [`check_mesh`].
pub fn bind_positions(mesh: &Mesh, joints: &[Joint], out: &mut [[f32; 3]]) {
    let pose: Vec<JointPose> = joints.iter().map(JointPose::from_joint).collect();
    skin_with(mesh, &pose, out);
}

/// Vertex positions with an animated skeleton: exactly [`bind_positions`] with `pose`
/// (object-space poses in the **mesh's** joint order; see [`gather`]) instead of the bind
/// joints.
///
/// # Panics
/// When `out` is shorter than the vertex count or the mesh fails [`check_mesh`] for
/// `pose.len()` joints.
pub fn skin_positions(mesh: &Mesh, pose: &[JointPose], out: &mut [[f32; 3]]) {
    skin_with(mesh, pose, out);
}

/// Smooth vertex normals from triangles: each triangle adds its area-weighted face normal to
/// its three vertices; vertices at exactly the same position share their sum (as Doom 3
/// does, so UV seams do not show); the sums are normalised. A vertex with no triangle of
/// non-zero area gets `[0, 0, 1]`.
///
/// Doom 3's front faces are **clockwise**: the face normal of `(a, b, c)` is
/// `(c - a) × (b - a)` (dhewm3's `R_DeriveTangents`), which points outwards on Doom 3
/// models. Reversing the winding for a counter-clockwise format keeps these normals.
///
/// Allocates a position table (run once per mesh, not per frame).
///
/// # Panics
/// When `positions` or `out` is shorter than the vertex count, or a triangle index is out of
/// range.
pub fn bind_normals(mesh: &Mesh, positions: &[[f32; 3]], out: &mut [[f32; 3]]) {
    let n = mesh.verts.len();
    let positions = &positions[..n];
    let out = &mut out[..n];
    out.fill([0.0; 3]);
    for t in &mesh.tris {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let face = cross(sub(c, a), sub(b, a));
        for &i in t {
            out[i as usize] = add(out[i as usize], face);
        }
    }
    // Share sums between vertices at the same position (+0.0 and -0.0 alike).
    let key = |p: [f32; 3]| p.map(|c| if c == 0.0 { 0 } else { c.to_bits() });
    let mut shared: FastMap<[u32; 3], [f32; 3]> =
        FastMap::with_capacity_and_hasher(n, Default::default());
    for (p, s) in positions.iter().zip(out.iter()) {
        let e = shared.entry(key(*p)).or_insert([0.0; 3]);
        *e = add(*e, *s);
    }
    for (p, o) in positions.iter().zip(out.iter_mut()) {
        *o = normalize_or(shared[&key(*p)], [0.0, 0.0, 1.0]);
    }
}

/// Per-vertex tangents `[x, y, z, w]` from UVs (Lengyel's method): `xyz` is the unit
/// direction of increasing `s` (u), made perpendicular to the normal; `w` is ±1 so that
/// `cross(normal, xyz) × w` points towards increasing `t` (v, which runs *down* the image in
/// MD5, as in glTF). Sums are area-weighted over triangles; a vertex whose triangles have no
/// usable UV area gets some unit vector perpendicular to its normal and `w = 1`.
///
/// Tangents animate like normals: build a [`WeightNormals`] from their `xyz` with
/// [`WeightNormals::from_vertex_vectors`] and keep `w` (rotations do not change handedness).
/// Allocates scratch space (run once per mesh).
///
/// # Panics
/// When a slice is shorter than the vertex count or a triangle index is out of range.
pub fn vertex_tangents(
    mesh: &Mesh,
    positions: &[[f32; 3]],
    normals: &[[f32; 3]],
    out: &mut [[f32; 4]],
) {
    let n = mesh.verts.len();
    let mut tan = vec![[0.0f32; 3]; n];
    let mut bit = vec![[0.0f32; 3]; n];
    for t in &mesh.tris {
        let [i0, i1, i2] = t.map(|i| i as usize);
        let (p0, p1, p2) = (positions[i0], positions[i1], positions[i2]);
        let (u0, u1, u2) = (mesh.verts[i0].uv, mesh.verts[i1].uv, mesh.verts[i2].uv);
        let (e1, e2) = (sub(p1, p0), sub(p2, p0));
        let (du1, dv1) = (u1[0] - u0[0], u1[1] - u0[1]);
        let (du2, dv2) = (u2[0] - u0[0], u2[1] - u0[1]);
        let det = du1 * dv2 - du2 * dv1;
        if det == 0.0 || !det.is_finite() {
            continue;
        }
        // Area-weighted: scale by |det| instead of dividing by det.
        let s = det.signum();
        let sd = [0, 1, 2].map(|k| (e1[k] * dv2 - e2[k] * dv1) * s);
        let td = [0, 1, 2].map(|k| (e2[k] * du1 - e1[k] * du2) * s);
        for i in [i0, i1, i2] {
            tan[i] = add(tan[i], sd);
            bit[i] = add(bit[i], td);
        }
    }
    for (i, o) in out[..n].iter_mut().enumerate() {
        let nrm = normals[i];
        let t = sub(tan[i], scale(nrm, dot(nrm, tan[i])));
        let t = normalize_or(t, [0.0; 3]);
        let t = if t == [0.0; 3] {
            any_perpendicular(nrm)
        } else {
            t
        };
        let w = if dot(cross(nrm, t), bit[i]) < 0.0 {
            -1.0
        } else {
            1.0
        };
        *o = [t[0], t[1], t[2], w];
    }
}

fn any_perpendicular(n: [f32; 3]) -> [f32; 3] {
    let a = n.map(f32::abs);
    let axis = if a[0] <= a[1] && a[0] <= a[2] {
        [1.0, 0.0, 0.0]
    } else if a[1] <= a[2] {
        [0.0, 1.0, 0.0]
    } else {
        [0.0, 0.0, 1.0]
    };
    normalize_or(cross(n, axis), [1.0, 0.0, 0.0])
}

/// The seed's "weight normals": for every weight, its vertex's bind-pose normal rotated into
/// the weight's joint space (by the inverse of the joint's bind orientation), so that normals
/// follow the skeleton like weight positions do ([`skin_normals`]). Built once per mesh.
///
/// When weight ranges overlap (two vertices sharing a weight, which exporters do not write),
/// the later vertex's normal is kept for the shared weight.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WeightNormals {
    /// One joint-space vector per weight of the mesh, in weight order.
    pub normals: Vec<[f32; 3]>,
}

impl WeightNormals {
    /// Bind positions ([`bind_positions`]), then normals ([`bind_normals`]), then each weight's
    /// normal in its joint's space.
    ///
    /// # Panics
    /// When the mesh fails [`check_mesh`] for `joints.len()` joints.
    pub fn new(mesh: &Mesh, joints: &[Joint]) -> WeightNormals {
        let n = mesh.verts.len();
        let mut positions = vec![[0.0; 3]; n];
        bind_positions(mesh, joints, &mut positions);
        let mut normals = vec![[0.0; 3]; n];
        bind_normals(mesh, &positions, &mut normals);
        WeightNormals::from_vertex_vectors(mesh, joints, &normals)
    }

    /// Per-weight joint-space copies of any per-vertex object-space directions given in the
    /// bind pose (normals, or the `xyz` of [`vertex_tangents`]).
    ///
    /// # Panics
    /// When `vectors` is shorter than the vertex count or the mesh fails [`check_mesh`].
    pub fn from_vertex_vectors(
        mesh: &Mesh,
        joints: &[Joint],
        vectors: &[[f32; 3]],
    ) -> WeightNormals {
        let mut normals = vec![[0.0; 3]; mesh.weights.len()];
        for (v, vec) in mesh.verts.iter().zip(&vectors[..mesh.verts.len()]) {
            let start = v.start_weight as usize;
            let end = start + v.count_weight as usize;
            for (w, slot) in mesh.weights[start..end]
                .iter()
                .zip(&mut normals[start..end])
            {
                let orient = w_from_xyz(joints[w.joint as usize].orient);
                *slot = skeletal::weight_normal(orient, *vec);
            }
        }
        WeightNormals { normals }
    }
}

/// Animated vertex normals: for each vertex, `Σ bias × rotate(joint.orient, weight normal)`
/// over its weights, normalised (`[0, 0, 1]` when the sum vanishes). `pose` is in the mesh's
/// joint order, as for [`skin_positions`]; with the bind pose this gives [`bind_normals`].
///
/// # Panics
/// When `out` is shorter than the vertex count, `weight_normals` was built for another mesh,
/// or the mesh fails [`check_mesh`] for `pose.len()` joints.
pub fn skin_normals(
    mesh: &Mesh,
    weight_normals: &WeightNormals,
    pose: &[JointPose],
    out: &mut [[f32; 3]],
) {
    for (v, o) in mesh.verts.iter().zip(&mut out[..mesh.verts.len()]) {
        let start = v.start_weight as usize;
        let end = start + v.count_weight as usize;
        let weights = mesh.weights[start..end]
            .iter()
            .zip(&weight_normals.normals[start..end])
            .map(|(w, n)| (w.joint, w.bias, *n));
        *o = skeletal::weighted_normal(weights, pose);
    }
}

/// The inverse bind matrix of an md5mesh joint, 4×4 column-major (glTF's
/// `inverseBindMatrices`): the transform from object space into the joint's bind space.
pub fn inverse_bind_matrix(joint: &Joint) -> [f32; 16] {
    skeletal::inverse_bind_matrix(&JointPose::from_joint(joint))
}

/// Each vertex's joint influences for matrix skinning (glTF's `JOINTS_n`/`WEIGHTS_n`), with
/// the vertex at its [`bind_positions`] position: weights on the same joint are merged (biases
/// summed), sorted by decreasing weight (ties: lower joint first), cut to the
/// `max_influences` largest (`usize::MAX` keeps all; glTF takes 4 per set) and normalised to
/// sum to 1 (left as they are when the sum is not positive). A vertex without weights gets an
/// empty list.
///
/// Linear blend skinning with these influences and [`inverse_bind_matrix`] reproduces
/// [`skin_positions`] exactly when nothing is cut and every weight of a vertex, taken to
/// object space by its bind joint, lands on the vertex's bind position (as Doom 3's exporter
/// writes weights); otherwise it is the usual approximation of it.
///
/// # Panics
/// When the mesh's weight ranges are out of range ([`check_mesh`]).
pub fn vertex_influences(mesh: &Mesh, max_influences: usize) -> Vec<Influences> {
    mesh.verts
        .iter()
        .map(|v| {
            let mut list = Influences::new();
            for w in weights_of(mesh, v) {
                match list.iter_mut().find(|(j, _)| *j == w.joint) {
                    Some(e) => e.1 += w.bias,
                    None => list.push((w.joint, w.bias)),
                }
            }
            list.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            list.truncate(max_influences);
            let sum: f64 = list.iter().map(|&(_, b)| f64::from(b)).sum();
            if sum > 0.0 && sum.is_finite() {
                for e in &mut list {
                    e.1 = (f64::from(e.1) / sum) as f32;
                }
            }
            list
        })
        .collect()
}

/// The smallest box around `points`, or `None` when there are none.
pub fn bounds_of(points: &[[f32; 3]]) -> Option<Bounds> {
    let (first, rest) = points.split_first()?;
    let mut b = Bounds {
        min: *first,
        max: *first,
    };
    for p in rest {
        b.min = [0, 1, 2].map(|k| b.min[k].min(p[k]));
        b.max = [0, 1, 2].map(|k| b.max[k].max(p[k]));
    }
    Some(b)
}

/// The md5anim `bounds` block: for each frame of `anim`, the box around every vertex of
/// `meshes` skinned with that frame (root motion kept, as Doom 3's files store it; the engine
/// subtracts the root translation itself). `mapping` is [`match_joints`]' result for the
/// meshes' joints. Frames with no vertices get a zero box.
///
/// # Panics
/// When a mesh fails [`check_mesh`] for `mapping.len()` joints or `mapping` names a joint the
/// animation lacks.
pub fn frame_bounds(meshes: &[Mesh], anim: &Animation, mapping: &[usize]) -> Vec<Bounds> {
    let mut global = vec![JointPose::IDENTITY; anim.joint_count()];
    let mut pose = vec![JointPose::IDENTITY; mapping.len()];
    let most = meshes.iter().map(|m| m.verts.len()).max().unwrap_or(0);
    let mut points = vec![[0.0f32; 3]; most];
    (0..anim.frame_count())
        .map(|f| {
            anim.frame_global(f, &mut global);
            gather(&global, mapping, &mut pose);
            let mut total: Option<Bounds> = None;
            for mesh in meshes {
                let pts = &mut points[..mesh.verts.len()];
                skin_positions(mesh, &pose, pts);
                if let Some(b) = bounds_of(pts) {
                    total = Some(match total {
                        None => b,
                        Some(t) => Bounds {
                            min: [0, 1, 2].map(|k| t.min[k].min(b.min[k])),
                            max: [0, 1, 2].map(|k| t.max[k].max(b.max[k])),
                        },
                    });
                }
            }
            total.unwrap_or(Bounds {
                min: [0.0; 3],
                max: [0.0; 3],
            })
        })
        .collect()
}

/// Builds an md5anim from local (parent-relative) poses, storing only what moves.
///
/// - `joints`: name and parent index of each joint (a parent before its child, `-1` for a
///   root). Doom 3 itself wants the mesh's joints, in the mesh's order.
/// - `frames`: one `Vec` of local poses per frame, each `joints.len()` long.
/// - Each pose becomes six components `Tx Ty Tz Qx Qy Qz`; the orientation is normalised and
///   negated when its `w > 0` ([`Quat::to_md5_xyz`]), so a reader's [`w_from_xyz`] gives it
///   back. The baseframe holds frame 0's components. A component is *animated* (its flag
///   bit set, its value written in every frame including frame 0) only when it differs from
///   the baseframe value by more than `tolerance` in some frame; `tolerance` is in file units
///   (distance for translations, quaternion components for rotations; 0 keeps every change).
/// - `startIndex` is the running count of animated components before the joint (also for
///   joints with no flags), and `numAnimatedComponents` the total.
/// - `bounds`: one box per frame, or `None` to leave `bounds` empty. Bounds depend on the
///   mesh, which this function does not see: the caller fills them afterwards, for example
///   with [`frame_bounds`] on [`Animation::new`] of the result (Doom 3 expects one per frame).
/// - `frame_rate` is stored as given; Doom 3 reads it as an integer.
///
/// `version` is `Some(10)` and `commandline` empty. Errors when there are no frames, a frame
/// has the wrong number of poses, a parent does not come before its child, `bounds` does not
/// have one box per frame, a value is not finite, `frame_rate` is not positive or
/// `tolerance` is negative.
pub fn compress(
    joints: &[(String, i32)],
    frames: &[Vec<JointPose>],
    frame_rate: f32,
    bounds: Option<Vec<Bounds>>,
    tolerance: f32,
) -> Result<AnimFile, String> {
    let names: Vec<String> = joints.iter().map(|(n, _)| n.clone()).collect();
    let parents: Vec<i32> = joints.iter().map(|&(_, p)| p).collect();
    check_parents(&names, &parents)?;
    if frames.is_empty() {
        return Err("no frames to write".to_string());
    }
    if !frame_rate.is_finite() || frame_rate <= 0.0 {
        return Err(format!("frame rate {frame_rate} is not a positive number"));
    }
    if !tolerance.is_finite() || tolerance < 0.0 {
        return Err(format!("tolerance {tolerance} is not a number >= 0"));
    }
    if let Some(b) = &bounds {
        if b.len() != frames.len() {
            return Err(format!(
                "{} bounds for {} frames; there must be one per frame",
                b.len(),
                frames.len()
            ));
        }
    }
    let nj = joints.len();
    let mut comps: Vec<[f32; 6]> = Vec::with_capacity(frames.len() * nj);
    for (f, frame) in frames.iter().enumerate() {
        if frame.len() != nj {
            return Err(format!(
                "frame {f} has {} poses for {nj} joints",
                frame.len()
            ));
        }
        for (j, pose) in frame.iter().enumerate() {
            let o = pose.orient;
            let finite = pose.pos.iter().chain(&o.to_array()).all(|v| v.is_finite());
            if !finite || o.length() == 0.0 {
                return Err(format!(
                    "frame {f}, joint {j} \"{}\": pose {pose:?} is not finite or has a zero orientation",
                    names[j]
                ));
            }
            let q = o.to_md5_xyz();
            comps.push([pose.pos[0], pose.pos[1], pose.pos[2], q[0], q[1], q[2]]);
        }
    }
    let base = &comps[..nj];
    let mut flags = vec![0u32; nj];
    for frame in comps.chunks_exact(nj.max(1)).skip(1) {
        for ((c, b), fl) in frame.iter().zip(base).zip(&mut flags) {
            for (k, (x, y)) in c.iter().zip(b).enumerate() {
                if (x - y).abs() > tolerance {
                    *fl |= 1 << k;
                }
            }
        }
    }
    let mut hierarchy = Vec::with_capacity(nj);
    let mut start = 0u32;
    for ((name, &parent), &fl) in names.into_iter().zip(&parents).zip(&flags) {
        hierarchy.push(HierarchyJoint {
            name,
            parent,
            flags: fl,
            start_index: start,
        });
        start += fl.count_ones();
    }
    let out_frames: Vec<Vec<f32>> = if nj == 0 {
        vec![Vec::new(); frames.len()]
    } else {
        comps
            .chunks_exact(nj)
            .map(|frame| {
                let mut v = Vec::with_capacity(start as usize);
                for (c, &fl) in frame.iter().zip(&flags) {
                    for (k, &x) in c.iter().enumerate() {
                        if fl & (1 << k) != 0 {
                            v.push(x);
                        }
                    }
                }
                v
            })
            .collect()
    };
    Ok(AnimFile {
        version: Some(VERSION),
        commandline: String::new(),
        frame_rate,
        num_animated_components: start,
        hierarchy,
        bounds: bounds.unwrap_or_default(),
        baseframe: base
            .iter()
            .map(|c| BaseJoint {
                pos: [c[0], c[1], c[2]],
                orient: [c[3], c[4], c[5]],
            })
            .collect(),
        frames: out_frames,
    })
}
