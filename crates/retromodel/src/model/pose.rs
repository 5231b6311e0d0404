//! Skeletal animation on [`crate::math`]'s conventions: joint poses, local-to-global composition,
//! sampling a [`SkeletalAnimation`] at a time (Doom 3's loop and clamp rules), linear blend
//! skinning with joint weights, MD5-style weight skinning (per-joint offsets) and weight
//! normals, inverse bind matrices. Used by every format, the exporters, the importers' baking
//! and the renderer.
//!
//! **Spaces.** A *local* pose is relative to its joint's parent; a *global* (object-space)
//! pose is the composition down the hierarchy (a parent's index is lower than its child's,
//! so one pass in index order suffices): `global.orient = parent.orient · local.orient`,
//! `global.pos = parent.pos + rotate(parent.orient, local.pos)`. Parent indices are `i32`
//! with `-1` for a root, as MD5 stores them.
//!
//! **Buffers.** Everything that runs per frame (sampling, composing, skinning) writes into
//! slices the caller owns and allocates nothing. Each such function writes the first `n`
//! entries (joints or vertices) and **panics** when the slice is shorter, like slice
//! indexing.
//!
//! **Timing.** Frame `f` is at `f / fps` seconds. Looping follows Doom 3: the last frame
//! repeats the first, so a cycle lasts `frames - 1` frames ([`Playback::Loop`]). Between two
//! frames, translations are interpolated linearly and rotations by slerp along the shorter
//! arc, in local (parent-relative) space as Doom 3 does.
//!
//! **Root motion.** Joint 0 is the root. Doom 3 moves the entity by the root's translation
//! and zeroes it in the pose ([`RootMotion::InPlace`]); the sampling functions return the
//! translation either way, and [`PoseTrack::root_motion`] gives the displacement between two
//! times across loop cycles.

use super::{JointTransform, Model, SkeletalAnimation};
use crate::math::{add, neg, normalize_or, transform_point, Mat4, Quat};

/// A joint's position and orientation, in whatever space the context says (local to the
/// parent, or object space).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct JointPose {
    /// Translation.
    pub pos: [f32; 3],
    /// Orientation (unit quaternion).
    pub orient: Quat,
}

impl JointPose {
    /// No translation, no rotation.
    pub const IDENTITY: JointPose = JointPose {
        pos: [0.0; 3],
        orient: Quat::IDENTITY,
    };

    /// A pose from its parts.
    pub const fn new(pos: [f32; 3], orient: Quat) -> JointPose {
        JointPose { pos, orient }
    }

    /// A model joint transform as a pose (the rotation taken as it is).
    pub const fn from_transform(t: &JointTransform) -> JointPose {
        JointPose::new(t.translation, Quat::from_array(t.rotation))
    }

    /// This pose as a model joint transform.
    pub const fn to_transform(&self) -> JointTransform {
        JointTransform {
            translation: self.pos,
            rotation: self.orient.to_array(),
        }
    }

    /// Maps a point from this joint's space: `pos + rotate(orient, p)`.
    pub fn transform_point(&self, p: [f32; 3]) -> [f32; 3] {
        add(self.pos, self.orient.rotate(p))
    }

    /// Maps a direction from this joint's space (rotation only).
    pub fn transform_vector(&self, v: [f32; 3]) -> [f32; 3] {
        self.orient.rotate(v)
    }

    /// `self ∘ child`: the pose of `child` (given relative to `self`) in `self`'s space.
    /// With `self` a parent's global pose and `child` a local pose, the child's global pose.
    pub fn compose(&self, child: &JointPose) -> JointPose {
        JointPose::new(
            self.transform_point(child.pos),
            (self.orient * child.orient).normalize(),
        )
    }

    /// The inverse transform: `p.inverse().compose(&p)` is the identity.
    pub fn inverse(&self) -> JointPose {
        let inv = self.orient.conjugate();
        JointPose::new(neg(inv.rotate(self.pos)), inv)
    }

    /// Interpolates towards `other`: translation linearly, rotation by [`Quat::slerp`]
    /// (shorter arc). `t = 0` gives `self` and `t = 1` gives `other`'s translation exactly.
    pub fn lerp(&self, other: &JointPose, t: f32) -> JointPose {
        let s = 1.0 - t;
        JointPose::new(
            [0, 1, 2].map(|k| self.pos[k] * s + other.pos[k] * t),
            self.orient.slerp(other.orient, t),
        )
    }

    /// The 4×4 transform `T(pos) · R(orient)`, column-major (`m[4 * column + row]`, the
    /// translation in elements 12, 13, 14), as glTF stores matrices.
    pub fn to_mat4(&self) -> Mat4 {
        let mut m = self.orient.to_mat4();
        m[12] = self.pos[0];
        m[13] = self.pos[1];
        m[14] = self.pos[2];
        m
    }
}

/// Checks that every parent index is `-1` or lower than its joint's own (`names` name the
/// joints in the error).
pub fn check_parents(names: &[String], parents: &[i32]) -> Result<(), String> {
    for (i, (name, &p)) in names.iter().zip(parents).enumerate() {
        if p < -1 || (p >= 0 && p as usize >= i) {
            return Err(format!(
                "joint {i} \"{name}\" has parent {p}; a parent must come before its child (or be -1)"
            ));
        }
    }
    Ok(())
}

/// The parent indices of a Model's joints (`-1` for a root).
pub fn model_parents(model: &Model) -> Vec<i32> {
    model
        .joints
        .iter()
        .map(|j| j.parent.map_or(-1, |p| p as i32))
        .collect()
}

/// Composes local (parent-relative) poses into global (object-space) poses, in index order.
///
/// # Panics
/// When `parents` or `out` is shorter than `local`, or a parent index is not lower than its
/// joint's ([`check_parents`]).
pub fn to_global(parents: &[i32], local: &[JointPose], out: &mut [JointPose]) {
    let out = &mut out[..local.len()];
    out.copy_from_slice(local);
    to_global_in_place(parents, out);
}

/// [`to_global`] in place: `poses` holds local poses on entry and global poses on return.
///
/// # Panics
/// As [`to_global`].
pub fn to_global_in_place(parents: &[i32], poses: &mut [JointPose]) {
    for (i, &p) in parents[..poses.len()].iter().enumerate() {
        if p >= 0 {
            let p = p as usize;
            assert!(p < i, "joint {i}: parent {p} does not come before it");
            poses[i] = poses[p].compose(&poses[i]);
        }
    }
}

/// The inverse of [`to_global`]: local poses from global ones
/// (`local = inverse(global[parent]) ∘ global`).
///
/// # Panics
/// When `parents` or `out` is shorter than `global`, or a parent index is out of range.
pub fn to_local(parents: &[i32], global: &[JointPose], out: &mut [JointPose]) {
    for (i, (&p, g)) in parents[..global.len()].iter().zip(global).enumerate() {
        out[i] = if p >= 0 {
            global[p as usize].inverse().compose(g)
        } else {
            *g
        };
    }
}

/// Reorders poses: `out[i] = pose[mapping[i]]` (one skeleton's poses in another's joint
/// order, matched by name).
///
/// # Panics
/// When `out` is shorter than `mapping` or a mapped index is out of range.
pub fn gather(pose: &[JointPose], mapping: &[usize], out: &mut [JointPose]) {
    for (o, &m) in out[..mapping.len()].iter_mut().zip(mapping) {
        *o = pose[m];
    }
}

/// How a time past the end of an animation is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Playback {
    /// Repeat: a cycle lasts `frames - 1` frames (the last frame equals the first, as
    /// Doom 3 expects), and negative times wrap too.
    #[default]
    Loop,
    /// Hold frame 0 before the start and the last frame after the end.
    Clamp,
}

/// What happens to the root joint's translation when sampling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RootMotion {
    /// Leave it in the pose (the skeleton walks away from the origin).
    #[default]
    Keep,
    /// Zero joint 0's local translation, as Doom 3 does when it moves the entity instead;
    /// the sampling functions return the removed translation.
    InPlace,
}

/// Where a time falls between two frames.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FramePosition {
    /// The earlier frame.
    pub a: usize,
    /// The later frame (`a + 1`, or `a` at the clamped end or for a one-frame animation).
    pub b: usize,
    /// How far from `a` to `b`, in `[0, 1)`; exactly 0 on a frame.
    pub blend: f32,
    /// Whole loop cycles before this one (negative before time 0); 0 when clamping.
    pub cycle: i64,
}

/// Where time `t` (seconds) falls in `frame_count` frames (at least 1) at `frame_rate`
/// frames per second. Times within rounding of a frame's time (a relative 10⁻⁶ of the frame
/// number, covering `f32` seconds) land on that frame exactly. NaN is read as 0; infinite
/// times give frame 0 when looping and the first or last frame when clamping.
pub fn frame_at(frame_count: usize, frame_rate: f32, t: f32, playback: Playback) -> FramePosition {
    let n = frame_count;
    let last = (n - 1) as f64;
    let mut ft = if t.is_nan() {
        0.0
    } else {
        f64::from(t) * f64::from(frame_rate)
    };
    if n == 1 || (playback == Playback::Loop && !ft.is_finite()) {
        return FramePosition {
            a: 0,
            b: 0,
            blend: 0.0,
            cycle: 0,
        };
    }
    let nearest = ft.round();
    if (ft - nearest).abs() <= 1e-6 * nearest.abs().max(1.0) {
        ft = nearest;
    }
    match playback {
        Playback::Loop => {
            let mut cycle = (ft / last).floor();
            let mut local = ft - cycle * last;
            if local >= last {
                local -= last;
                cycle += 1.0;
            }
            let local = local.max(0.0);
            let a = (local.floor() as usize).min(n - 2);
            FramePosition {
                a,
                b: a + 1,
                blend: ((local - a as f64) as f32).clamp(0.0, 1.0),
                cycle: cycle as i64,
            }
        }
        Playback::Clamp => {
            let local = ft.clamp(0.0, last);
            let a = (local.floor() as usize).min(n - 1);
            let b = (a + 1).min(n - 1);
            FramePosition {
                a,
                b,
                blend: if a == b {
                    0.0
                } else {
                    ((local - a as f64) as f32).clamp(0.0, 1.0)
                },
                cycle: 0,
            }
        }
    }
}

/// A skeletal animation decoded for playing: every frame's local (parent-relative) joint
/// poses, the parents, and the rate. Sampling is two table look-ups and a blend per joint.
///
/// Built from a Model's [`SkeletalAnimation`] ([`PoseTrack::from_model`]) or from any
/// decoded frames ([`PoseTrack::new`]; the md5anim reader decodes its files into one).
#[derive(Debug, Clone, PartialEq)]
pub struct PoseTrack {
    parents: Vec<i32>,
    frame_rate: f32,
    frame_count: usize,
    /// Frame-major: frame `f`, joint `j` at `f * joints + j`.
    poses: Vec<JointPose>,
    /// Frame-major weight scales ([`crate::model::WeightScales`]), when the animation has any.
    weight_scales: Option<Vec<f32>>,
}

impl PoseTrack {
    /// A track from frame-major local poses (`poses.len() == frames × parents.len()`).
    /// Errors when there are no frames, the poses do not fill whole frames, the frame rate
    /// is not a positive number or a parent does not come before its child.
    pub fn new(
        parents: Vec<i32>,
        frame_rate: f32,
        frame_count: usize,
        poses: Vec<JointPose>,
    ) -> Result<PoseTrack, String> {
        if !frame_rate.is_finite() || frame_rate <= 0.0 {
            return Err(format!("frame rate {frame_rate} is not a positive number"));
        }
        if frame_count == 0 {
            return Err("the animation has no frames".to_string());
        }
        if poses.len() as u64 != frame_count as u64 * parents.len() as u64 {
            return Err(format!(
                "{} poses for {frame_count} frames of {} joints",
                poses.len(),
                parents.len()
            ));
        }
        let names: Vec<String> = (0..parents.len()).map(|i| format!("joint{i}")).collect();
        check_parents(&names, &parents)?;
        Ok(PoseTrack {
            parents,
            frame_rate,
            frame_count,
            poses,
            weight_scales: None,
        })
    }

    /// Animation `index` of `model` ([`Model::animations`], one local transform per joint of
    /// [`Model::joints`] per frame), rotations normalised. Errors (naming the animation's
    /// problem) when the index is out of range, a frame has the wrong number of transforms,
    /// a value is not finite or a rotation is zero, or as [`PoseTrack::new`].
    pub fn from_model(model: &Model, index: usize) -> Result<PoseTrack, String> {
        let a: &SkeletalAnimation = model
            .animations
            .get(index)
            .ok_or_else(|| format!("no animation {index}"))?;
        let nj = model.joints.len();
        let mut poses = Vec::with_capacity(a.frames.len() * nj);
        for (f, frame) in a.frames.iter().enumerate() {
            if frame.len() != nj {
                return Err(format!(
                    "frame {f} has {} transforms for {nj} joints",
                    frame.len()
                ));
            }
            for (j, t) in frame.iter().enumerate() {
                let q = Quat::from_array(t.rotation);
                let finite = t
                    .translation
                    .iter()
                    .chain(&t.rotation)
                    .all(|v| v.is_finite());
                if !finite || q.length() == 0.0 {
                    return Err(format!(
                        "frame {f}, joint {j}: transform {t:?} is not finite or has a zero rotation"
                    ));
                }
                poses.push(JointPose::new(t.translation, q.normalize()));
            }
        }
        let names: Vec<String> = model.joints.iter().map(|j| j.name.clone()).collect();
        let parents = model_parents(model);
        check_parents(&names, &parents)?;
        let weight_scales = match &a.weight_scales {
            Some(ws) if !ws.is_unit() => {
                let mut flat = Vec::with_capacity(a.frames.len() * nj);
                for f in 0..a.frames.len() {
                    for j in 0..nj {
                        let s = ws.get(f, j);
                        if !s.is_finite() {
                            return Err(format!(
                                "frame {f}, joint {j}: weight scale {s} is not finite"
                            ));
                        }
                        // q2pro scales the animated position before composing with the parent.
                        if ws.scale_positions.get(j).copied().unwrap_or(false) {
                            let p = &mut poses[f * nj + j].pos;
                            *p = p.map(|c| c * s);
                        }
                        flat.push(s);
                    }
                }
                Some(flat)
            }
            _ => None,
        };
        let mut track = PoseTrack::new(parents, a.fps, a.frames.len(), poses)?;
        track.weight_scales = weight_scales;
        Ok(track)
    }

    /// Whether the track has weight scales ([`crate::model::WeightScales`]).
    pub fn has_weight_scales(&self) -> bool {
        self.weight_scales.is_some()
    }

    /// The joints' weight scales at time `t` ([`crate::model::WeightScales`]: not interpolated;
    /// between frames `a` and `b` those of `b`, as q2pro's `lerp_alias_skeleton` takes the new
    /// frame's), or `None` when the animation scales nothing. Positions scaled by
    /// `scale_positions` are already in the track's poses.
    pub fn weight_scales_at(&self, t: f32, playback: Playback) -> Option<&[f32]> {
        let scales = self.weight_scales.as_deref()?;
        let at = self.frame_at(t, playback);
        let f = if at.blend > 0.0 { at.b } else { at.a };
        let n = self.joint_count();
        scales.get(f * n..(f + 1) * n)
    }

    /// The weight scales of frame `f`, or `None` when the animation scales nothing.
    pub fn frame_weight_scales(&self, f: usize) -> Option<&[f32]> {
        let n = self.joint_count();
        self.weight_scales.as_deref()?.get(f * n..(f + 1) * n)
    }

    /// Parent indices (`-1` for a root).
    pub fn parents(&self) -> &[i32] {
        &self.parents
    }

    /// Number of joints.
    pub fn joint_count(&self) -> usize {
        self.parents.len()
    }

    /// Number of frames (at least 1).
    pub fn frame_count(&self) -> usize {
        self.frame_count
    }

    /// Frames per second.
    pub fn frame_rate(&self) -> f32 {
        self.frame_rate
    }

    /// Seconds from the first frame to the last: `(frames - 1) / fps`, which is also the
    /// length of one loop cycle.
    pub fn duration(&self) -> f32 {
        ((self.frame_count - 1) as f64 / f64::from(self.frame_rate)) as f32
    }

    /// The local poses of frame `f`.
    ///
    /// # Panics
    /// When `f >= frame_count()`.
    pub fn frame(&self, f: usize) -> &[JointPose] {
        let n = self.joint_count();
        &self.poses[f * n..(f + 1) * n]
    }

    /// The global (object-space) poses of frame `f`, root motion kept.
    ///
    /// # Panics
    /// When `f >= frame_count()` or `out` is shorter than the joint count.
    pub fn frame_global(&self, f: usize, out: &mut [JointPose]) {
        to_global(&self.parents, self.frame(f), out);
    }

    /// Where time `t` (seconds) falls ([`frame_at`]).
    pub fn frame_at(&self, t: f32, playback: Playback) -> FramePosition {
        frame_at(self.frame_count, self.frame_rate, t, playback)
    }

    /// Samples the local poses at time `t` seconds into `out` (one per joint); see
    /// [`frame_at`] for how `t` maps to frames. On a frame the poses are that frame's
    /// exactly. Returns the root joint's (joint 0's) local translation at `t`, which
    /// [`RootMotion::InPlace`] removes from `out` (`[0; 3]` without joints).
    ///
    /// # Panics
    /// When `out` is shorter than the joint count.
    pub fn sample_local(
        &self,
        t: f32,
        playback: Playback,
        root: RootMotion,
        out: &mut [JointPose],
    ) -> [f32; 3] {
        let at = self.frame_at(t, playback);
        let out = &mut out[..self.joint_count()];
        let fa = self.frame(at.a);
        if at.blend == 0.0 {
            out.copy_from_slice(fa);
        } else {
            let fb = self.frame(at.b);
            for ((o, a), b) in out.iter_mut().zip(fa).zip(fb) {
                *o = a.lerp(b, at.blend);
            }
        }
        match out.first_mut() {
            Some(first) => {
                let translation = first.pos;
                if root == RootMotion::InPlace {
                    first.pos = [0.0; 3];
                }
                translation
            }
            None => [0.0; 3],
        }
    }

    /// [`PoseTrack::sample_local`] followed by [`to_global_in_place`]: object-space poses at
    /// time `t`, ready for skinning. Returns the root translation as `sample_local` does.
    ///
    /// # Panics
    /// When `out` is shorter than the joint count.
    pub fn sample_global(
        &self,
        t: f32,
        playback: Playback,
        root: RootMotion,
        out: &mut [JointPose],
    ) -> [f32; 3] {
        let translation = self.sample_local(t, playback, root, out);
        to_global_in_place(&self.parents, &mut out[..self.joint_count()]);
        translation
    }

    /// How far the root joint's translation moves from time `t0` to `t1`: its position at
    /// `t1` minus its position at `t0`, where each completed loop cycle adds the root's travel
    /// over one cycle (last frame minus first). This is what an engine adds to the entity's
    /// position when playing [`RootMotion::InPlace`]. Computed in `f64`.
    pub fn root_motion(&self, t0: f32, t1: f32, playback: Playback) -> [f32; 3] {
        let p0 = self.root_position(t0, playback);
        let p1 = self.root_position(t1, playback);
        [0, 1, 2].map(|k| (p1[k] - p0[k]) as f32)
    }

    fn root_position(&self, t: f32, playback: Playback) -> [f64; 3] {
        if self.joint_count() == 0 {
            return [0.0; 3];
        }
        let at = self.frame_at(t, playback);
        let root = |f: usize| self.frame(f)[0].pos.map(f64::from);
        let (a, b) = (root(at.a), root(at.b));
        let (first, last) = (root(0), root(self.frame_count - 1));
        let s = f64::from(at.blend);
        let cycles = at.cycle as f64;
        [0, 1, 2].map(|k| a[k] * (1.0 - s) + b[k] * s + cycles * (last[k] - first[k]))
    }
}

/// The inverse bind matrix of a joint whose object-space bind pose is `bind`, 4×4
/// column-major (glTF's `inverseBindMatrices`): object space into the joint's bind space.
pub fn inverse_bind_matrix(bind: &JointPose) -> Mat4 {
    bind.inverse().to_mat4()
}

/// The skinning matrices `global · inverse bind` of every joint (bind pose to animated
/// pose, object space), as uploaded for linear blend skinning.
///
/// # Panics
/// When `inverse_bind` or `out` is shorter than `global`.
pub fn joint_matrices(global: &[JointPose], inverse_bind: &[Mat4], out: &mut [Mat4]) {
    for ((o, g), ib) in out[..global.len()].iter_mut().zip(global).zip(inverse_bind) {
        *o = crate::math::mul(&g.to_mat4(), ib);
    }
}

/// [`joint_matrices`] with weight scales ([`PoseTrack::weight_scales_at`]): joint `j`'s matrix
/// is `global · scale(s_j) · inverse bind`, so the weights on `j` scale about the joint by
/// `s_j` (q2pro's `pos + s · rotate(orient, weight)`); `None` is [`joint_matrices`].
///
/// # Panics
/// When `inverse_bind` or `out` is shorter than `global`.
pub fn joint_matrices_scaled(
    global: &[JointPose],
    inverse_bind: &[Mat4],
    scales: Option<&[f32]>,
    out: &mut [Mat4],
) {
    joint_matrices(global, inverse_bind, out);
    let Some(scales) = scales else {
        return;
    };
    for (((o, g), ib), &s) in out[..global.len()]
        .iter_mut()
        .zip(global)
        .zip(inverse_bind)
        .zip(scales)
    {
        if s != 1.0 {
            let mut m = g.to_mat4();
            for c in &mut m[..12] {
                *c *= s;
            }
            *o = crate::math::mul(&m, ib);
        }
    }
}

/// Linear blend skinning of one point with joint matrices ([`joint_matrices`]):
/// `Σ w · M_j · p` over the `(joint, weight)` influences (a [`crate::model::Mesh`]'s
/// `joint_weights` entry); zero weights and joints without a matrix are skipped.
pub fn blend_point(matrices: &[Mat4], influences: &[(u32, f32)], p: [f32; 3]) -> [f32; 3] {
    let mut sum = [0.0f32; 3];
    for &(j, w) in influences {
        if w != 0.0 {
            if let Some(m) = matrices.get(j as usize) {
                let q = transform_point(m, p);
                sum = [0, 1, 2].map(|k| sum[k] + w * q[k]);
            }
        }
    }
    sum
}

/// Linear blend skinning of one vertex with skinning poses (`global ∘ inverse bind` per
/// joint): `Σ w · S_j · p` and `Σ w · rotate(S_j, n)`, the normal normalised in `f32` (`n`
/// when the sum vanishes).
///
/// # Panics
/// When an influence names a joint past `skinning`.
pub fn blend_vertex(
    skinning: &[JointPose],
    influences: &[(u32, f32)],
    p: [f32; 3],
    n: [f32; 3],
) -> ([f32; 3], [f32; 3]) {
    let (mut sp, mut sn) = ([0.0f32; 3], [0.0f32; 3]);
    for &(j, w) in influences {
        let s = &skinning[j as usize];
        let q = s.transform_point(p);
        let r = s.transform_vector(n);
        for a in 0..3 {
            sp[a] += w * q[a];
            sn[a] += w * r[a];
        }
    }
    (sp, crate::math::normalize3(sn, n))
}

/// MD5-style weight skinning of one vertex: `Σ bias × pose[joint](offset)` over its
/// `(joint, bias, offset)` weights, each offset given in its joint's space (object-space
/// poses).
///
/// # Panics
/// When a weight names a joint past `pose`.
#[inline]
pub fn weighted_point(
    weights: impl IntoIterator<Item = (u32, f32, [f32; 3])>,
    pose: &[JointPose],
) -> [f32; 3] {
    bias_sum(weights, pose, JointPose::transform_point)
}

/// `Σ bias × f(pose[joint], v)` over `(joint, bias, v)` weights.
#[inline]
fn bias_sum(
    weights: impl IntoIterator<Item = (u32, f32, [f32; 3])>,
    pose: &[JointPose],
    f: impl Fn(&JointPose, [f32; 3]) -> [f32; 3],
) -> [f32; 3] {
    let mut sum = [0.0f32; 3];
    for (joint, bias, v) in weights {
        let p = f(&pose[joint as usize], v);
        sum = [0, 1, 2].map(|k| sum[k] + p[k] * bias);
    }
    sum
}

/// A weight's normal ("weight normal"): an object-space bind-pose normal `n` turned into
/// the space of the weight's joint (bound at `bind_orient`), so that it follows the joint
/// like the weight's offset does ([`weighted_normal`]).
pub fn weight_normal(bind_orient: Quat, n: [f32; 3]) -> [f32; 3] {
    bind_orient.conjugate().rotate(n)
}

/// The animated normal of one vertex from its weights' normals: `Σ bias ×
/// rotate(pose[joint].orient, normal)` over its `(joint, bias, weight normal)` weights,
/// normalised (`[0, 0, 1]` when the sum vanishes).
///
/// # Panics
/// When a weight names a joint past `pose`.
#[inline]
pub fn weighted_normal(
    weights: impl IntoIterator<Item = (u32, f32, [f32; 3])>,
    pose: &[JointPose],
) -> [f32; 3] {
    let sum = bias_sum(weights, pose, JointPose::transform_vector);
    normalize_or(sum, [0.0, 0.0, 1.0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Joint;

    fn model() -> Model {
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let joint = |name: &str, parent| Joint {
            name: name.into(),
            parent,
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
        };
        let t = |x: f32, r: [f32; 4]| JointTransform {
            translation: [x, 0.0, 0.0],
            rotation: r,
        };
        Model {
            joints: vec![joint("root", None), joint("arm", Some(0))],
            animations: vec![SkeletalAnimation {
                name: "a".into(),
                fps: 2.0,
                frames: vec![
                    vec![t(0.0, [0.0, 0.0, 0.0, 1.0]), t(1.0, [0.0, 0.0, 0.0, 1.0])],
                    vec![t(2.0, [0.0, 0.0, h, h]), t(1.0, [0.0, 0.0, 0.0, 2.0])],
                ]
                .into(),
                bounds: Vec::new(),
                loops: false,
                weight_scales: None,
            }],
            ..Model::default()
        }
    }

    #[test]
    fn samples_a_model_animation() {
        let track = PoseTrack::from_model(&model(), 0).unwrap();
        assert_eq!((track.frame_count(), track.joint_count()), (2, 2));
        assert_eq!(track.duration(), 0.5);
        let mut out = [JointPose::IDENTITY; 2];
        // The end of frame 1: the root turned +90° about z carries the arm to +y.
        let root = track.sample_global(0.5, Playback::Clamp, RootMotion::Keep, &mut out);
        assert_eq!(root, [2.0, 0.0, 0.0]);
        let p = out[1].pos;
        assert!(
            (p[0] - 2.0).abs() < 1e-6 && (p[1] - 1.0).abs() < 1e-6,
            "{p:?}"
        );
        // Halfway, root in place.
        track.sample_global(0.25, Playback::Clamp, RootMotion::InPlace, &mut out);
        assert_eq!(out[0].pos, [0.0; 3]);
        // Looping: a cycle is one frame long here, so 0.5 s is frame 0 of cycle 1.
        let at = track.frame_at(0.5, Playback::Loop);
        assert_eq!((at.a, at.blend, at.cycle), (0, 0.0, 1));
        assert_eq!(track.root_motion(0.0, 1.0, Playback::Loop), [4.0, 0.0, 0.0]);
        let mut bad = model();
        bad.animations[0].frames[1].pop();
        assert_eq!(
            PoseTrack::from_model(&bad, 0).unwrap_err(),
            "frame 1 has 1 transforms for 2 joints"
        );
    }

    #[test]
    fn skinning_by_matrices_and_by_weights_agree() {
        let track = PoseTrack::from_model(&model(), 0).unwrap();
        let mut global = [JointPose::IDENTITY; 2];
        track.sample_global(0.4, Playback::Clamp, RootMotion::Keep, &mut global);
        // Bind pose: both joints at the origin; a vertex at (1, 1, 0) on both, half each.
        let bind = [JointPose::IDENTITY; 2];
        let inverse_bind = bind.map(|b| inverse_bind_matrix(&b));
        let mut m = [crate::math::IDENTITY; 2];
        joint_matrices(&global, &inverse_bind, &mut m);
        let p = [1.0, 1.0, 0.0];
        let by_matrix = blend_point(&m, &[(0, 0.5), (1, 0.5)], p);
        let by_weight = weighted_point([(0, 0.5, p), (1, 0.5, p)], &global);
        let skinning: Vec<JointPose> = global
            .iter()
            .zip(&bind)
            .map(|(g, b)| g.compose(&b.inverse()))
            .collect();
        let (by_pose, _) = blend_vertex(&skinning, &[(0, 0.5), (1, 0.5)], p, [0.0, 0.0, 1.0]);
        for k in 0..3 {
            assert!((by_matrix[k] - by_weight[k]).abs() < 1e-5);
            assert!((by_pose[k] - by_weight[k]).abs() < 1e-5);
        }
        let n = weight_normal(global[1].orient, [1.0, 0.0, 0.0]);
        let back = weighted_normal([(1, 1.0, n)], &global);
        assert!((back[0] - 1.0).abs() < 1e-6, "{back:?}");
    }
}
