//! Moving a whole model: a uniform scale, a rotation and a translation (a similarity
//! transform), applied to everything that has a place in space: mesh vertices and normals,
//! every morph target, frame bounds, joints and the root joints of every skeletal animation,
//! camera keys and root scene nodes. What `convert --scale`, `--rotate`, `--fit-height` and a
//! Cube 2 `md5.cfg`'s `mdlscale`, `mdlyaw`, `mdlpitch` and `mdltrans` do.
//!
//! A point `p` goes to `s · R · p + t`. Joint transforms that are relative to a parent keep
//! their rotation and have their translation scaled; root joints (and root nodes) take the
//! whole transform, so the skinned result is the bind mesh's transform. Positions on a
//! source grid ([`Frame::position_step`]) keep a scaled step when there is no rotation, and
//! lose it otherwise (the grid is no longer along the axes).

use crate::math::Quat;
use crate::model::{Frame, Model, NodeTransform};

/// `p -> scale · rotation · p + translation`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Similarity {
    /// Uniform scale (positive).
    pub scale: f32,
    /// Rotation as a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Translation, applied after scaling and rotating.
    pub translation: [f32; 3],
}

impl Default for Similarity {
    fn default() -> Self {
        Similarity::IDENTITY
    }
}

impl Similarity {
    /// No change.
    pub const IDENTITY: Similarity = Similarity {
        scale: 1.0,
        rotation: [0.0, 0.0, 0.0, 1.0],
        translation: [0.0; 3],
    };

    /// A uniform scale.
    pub fn scaling(scale: f32) -> Similarity {
        Similarity {
            scale,
            ..Similarity::IDENTITY
        }
    }

    /// The rotation of Quake's angles, in degrees, in the model's Z-up space: `yaw` about
    /// +Z (counter-clockwise seen from above: +X turns towards +Y), then `pitch` about +Y
    /// (positive lifts +X towards +Z... as `mdlpitch` does, nose up), then `roll` about +X.
    /// Applied to a point as `yaw · pitch · roll · p`.
    pub fn rotation_degrees(yaw: f32, pitch: f32, roll: f32) -> Similarity {
        let r = |axis: [f32; 3], deg: f32| Quat::from_axis_angle(axis, deg.to_radians());
        let q = r([0.0, 0.0, 1.0], yaw) * r([0.0, -1.0, 0.0], pitch) * r([1.0, 0.0, 0.0], roll);
        Similarity {
            rotation: [q.x, q.y, q.z, q.w],
            ..Similarity::IDENTITY
        }
    }

    /// `other` after `self`: the point goes through `self` first.
    pub fn then(&self, other: &Similarity) -> Similarity {
        let q2 = quat(other.rotation);
        Similarity {
            scale: self.scale * other.scale,
            rotation: to_array(q2 * quat(self.rotation)),
            translation: other.point(self.translation),
        }
    }

    /// Whether the transform changes nothing.
    pub fn is_identity(&self) -> bool {
        *self == Similarity::IDENTITY
    }

    /// Whether the rotation is the identity.
    fn no_rotation(&self) -> bool {
        let [x, y, z, _] = self.rotation;
        x == 0.0 && y == 0.0 && z == 0.0
    }

    /// A point's image.
    pub fn point(&self, p: [f32; 3]) -> [f32; 3] {
        let r = self.direction(p);
        std::array::from_fn(|k| r[k] * self.scale + self.translation[k])
    }

    /// A direction's image (rotated only: normals stay unit length).
    pub fn direction(&self, v: [f32; 3]) -> [f32; 3] {
        if self.no_rotation() {
            v
        } else {
            quat(self.rotation).rotate(v)
        }
    }

    /// An orientation's image.
    fn orientation(&self, q: [f32; 4]) -> [f32; 4] {
        if self.no_rotation() {
            q
        } else {
            to_array((quat(self.rotation) * quat(q)).normalize())
        }
    }
}

fn quat(q: [f32; 4]) -> Quat {
    Quat::new(q[0], q[1], q[2], q[3])
}

fn to_array(q: Quat) -> [f32; 4] {
    [q.x, q.y, q.z, q.w]
}

/// Moves every part of `model` by `s` (see the [module docs](self)).
pub fn transform(model: &mut Model, s: &Similarity) {
    if s.is_identity() {
        return;
    }
    let points = |v: &mut Vec<[f32; 3]>| v.iter_mut().for_each(|p| *p = s.point(*p));
    let dirs = |v: &mut Vec<[f32; 3]>| v.iter_mut().for_each(|n| *n = s.direction(*n));
    for m in &mut model.meshes {
        points(&mut m.positions);
        dirs(&mut m.normals);
        for t in &mut m.morph_targets {
            points(&mut t.positions);
            dirs(&mut t.normals);
        }
    }
    for (f, frame) in model.frames.iter_mut().enumerate() {
        frame_bounds(frame, f, &model.meshes, s);
        frame.position_step = match frame.position_step {
            Some(step) if s.no_rotation() => Some(step.map(|c| c * s.scale)),
            _ => None,
        };
    }
    for j in &mut model.joints {
        j.translation = s.point(j.translation);
        j.rotation = s.orientation(j.rotation);
    }
    let roots: Vec<bool> = model.joints.iter().map(|j| j.parent.is_none()).collect();
    for a in &mut model.animations {
        for frame in &mut a.frames {
            for (k, t) in frame.iter_mut().enumerate() {
                if roots.get(k).copied().unwrap_or(true) {
                    t.translation = s.point(t.translation);
                    t.rotation = s.orientation(t.rotation);
                } else {
                    t.translation = t.translation.map(|c| c * s.scale);
                }
            }
        }
        for b in &mut a.bounds {
            *b = corners_bounds(*b, s);
        }
    }
    if let Some(cam) = &mut model.camera {
        for k in &mut cam.keys {
            k.position = s.point(k.position);
            k.rotation = s.orientation(k.rotation);
        }
    }
    for n in &mut model.nodes {
        let root = n.parent.is_none();
        let apply = |t: &mut NodeTransform| {
            if root {
                t.translation = s.point(t.translation);
                t.rotation = s.orientation(t.rotation);
            } else {
                t.translation = t.translation.map(|c| c * s.scale);
            }
        };
        apply(&mut n.transform);
        n.frames.iter_mut().for_each(apply);
    }
}

/// A frame's bounds after the transform: from its morph targets when every mesh has one,
/// else the transformed box's corners.
fn frame_bounds(frame: &mut Frame, f: usize, meshes: &[crate::model::Mesh], s: &Similarity) {
    let mut it = meshes
        .iter()
        .filter_map(|m| m.morph_targets.get(f))
        .flat_map(|t| t.positions.iter());
    if meshes.iter().all(|m| m.morph_targets.len() > f) {
        if let Some(&first) = it.next() {
            let (lo, hi) = it.fold((first, first), |(lo, hi), p| {
                (
                    std::array::from_fn(|k| lo[k].min(p[k])),
                    std::array::from_fn(|k| hi[k].max(p[k])),
                )
            });
            frame.bounds_min = lo;
            frame.bounds_max = hi;
            return;
        }
    }
    [frame.bounds_min, frame.bounds_max] = corners_bounds([frame.bounds_min, frame.bounds_max], s);
}

/// The bounds of a box's eight corners after the transform.
fn corners_bounds(b: [[f32; 3]; 2], s: &Similarity) -> [[f32; 3]; 2] {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for c in 0..8 {
        let p = s.point(std::array::from_fn(|k| b[(c >> k) & 1][k]));
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    [lo, hi]
}

/// Size (largest side) under which a model imported from glTF or OBJ is taken to be in
/// metres (a Quake player is 56 units tall, a person in metres 1.8; a flat Quake item, 40 x 40
/// x 3 units, is not in metres).
pub const METRES_BELOW: f32 = 4.0;

/// Whether a model read from an interchange file (glTF, OBJ) looks made in metres: its
/// largest side over every frame is under [`METRES_BELOW`] (and not empty). The writers then
/// scale it to the target's units ([`crate::options::Placement::metres`]).
pub fn looks_like_metres(model: &Model) -> bool {
    let [lo, hi] = extent(model);
    let size = (0..3).map(|k| hi[k] - lo[k]).fold(0.0f32, f32::max);
    size > 0.0 && size < METRES_BELOW
}

/// The model's extent `[min, max]` over every frame (the bind pose's, or the meshes'
/// positions, when it has no frames).
pub fn extent(model: &Model) -> [[f32; 3]; 2] {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    let mut add = |p: &[f32; 3]| {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    };
    for m in &model.meshes {
        if m.morph_targets.is_empty() {
            m.positions.iter().for_each(&mut add);
        }
        m.morph_targets
            .iter()
            .flat_map(|t| t.positions.iter())
            .for_each(&mut add);
    }
    if lo[0] > hi[0] {
        return [[0.0; 3]; 2];
    }
    [lo, hi]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Joint, JointTransform, Mesh, MorphTarget, SkeletalAnimation};

    fn close(a: [f32; 3], b: [f32; 3]) -> bool {
        (0..3).all(|k| (a[k] - b[k]).abs() < 1e-4)
    }

    #[test]
    fn yaw_turns_x_towards_y_and_scale_multiplies() {
        let s = Similarity::rotation_degrees(90.0, 0.0, 0.0).then(&Similarity::scaling(2.0));
        assert!(close(s.point([1.0, 0.0, 0.0]), [0.0, 2.0, 0.0]));
        let p = Similarity::rotation_degrees(0.0, 90.0, 0.0);
        assert!(
            close(p.point([1.0, 0.0, 0.0]), [0.0, 0.0, 1.0]),
            "pitch lifts the nose"
        );
    }

    #[test]
    fn morph_targets_bounds_and_steps_follow() {
        let mut model = Model {
            meshes: vec![Mesh {
                positions: vec![[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]],
                normals: vec![[1.0, 0.0, 0.0]; 2],
                morph_targets: vec![MorphTarget {
                    positions: vec![[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]],
                    normals: vec![[1.0, 0.0, 0.0]; 2],
                }],
                ..Mesh::default()
            }],
            frames: vec![Frame {
                name: "a".into(),
                bounds_min: [0.0; 3],
                bounds_max: [1.0, 0.0, 2.0],
                position_step: Some([0.5; 3]),
            }],
            ..Model::default()
        };
        transform(&mut model, &Similarity::scaling(3.0));
        assert_eq!(model.frames[0].bounds_max, [3.0, 0.0, 6.0]);
        assert_eq!(model.frames[0].position_step, Some([1.5; 3]));
        assert_eq!(extent(&model)[1], [3.0, 0.0, 6.0]);
        transform(&mut model, &Similarity::rotation_degrees(90.0, 0.0, 0.0));
        assert_eq!(model.frames[0].position_step, None);
        assert!(close(model.meshes[0].normals[0], [0.0, 1.0, 0.0]));
    }

    #[test]
    fn root_joints_take_the_rotation_children_the_scale() {
        let t = |x: f32| JointTransform {
            translation: [x, 0.0, 0.0],
            rotation: [0.0, 0.0, 0.0, 1.0],
        };
        let mut model = Model {
            joints: vec![
                Joint {
                    name: "root".into(),
                    parent: None,
                    translation: [1.0, 0.0, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                },
                Joint {
                    name: "child".into(),
                    parent: Some(0),
                    translation: [2.0, 0.0, 0.0],
                    rotation: [0.0, 0.0, 0.0, 1.0],
                },
            ],
            animations: vec![SkeletalAnimation {
                name: "a".into(),
                fps: 24.0,
                frames: vec![vec![t(1.0), t(1.0)]].into(),
                bounds: vec![],
                loops: false,
                weight_scales: None,
            }],
            ..Model::default()
        };
        let s = Similarity::rotation_degrees(90.0, 0.0, 0.0).then(&Similarity::scaling(2.0));
        transform(&mut model, &s);
        assert!(close(model.joints[1].translation, [0.0, 4.0, 0.0]));
        let f = &model.animations[0].frames[0];
        assert!(close(f[0].translation, [0.0, 2.0, 0.0]));
        assert!(
            close(f[1].translation, [2.0, 0.0, 0.0]),
            "local: scaled only"
        );
    }
}
