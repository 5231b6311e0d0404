//! Skeletal animation and camera paths in the format-neutral model.

/// A joint's transform relative to its parent (or to the object for a root).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct JointTransform {
    /// Translation.
    pub translation: [f32; 3],
    /// Rotation as a unit quaternion `[x, y, z, w]` (column-vector convention, as glTF).
    pub rotation: [f32; 4],
}

/// A skeletal animation: local joint transforms per frame, sampled at a fixed rate.
#[derive(Debug, Clone, PartialEq)]
pub struct SkeletalAnimation {
    /// Name (the md5anim's file stem).
    pub name: String,
    /// Frames per second.
    pub fps: f32,
    /// Per frame, one local transform per joint of [`crate::model::Model::joints`], in joint order.
    pub frames: Vec<Vec<JointTransform>>,
    /// Per frame, the bounds `[min, max]` of the animated mesh, when the file stores them.
    pub bounds: Vec<[[f32; 3]; 2]>,
    /// Whether the last frame repeats the first (Doom 3's looping cycles).
    pub loops: bool,
    /// Per-frame weight scales of joints (the Quake II re-release's `.md5scale`), or `None`
    /// when nothing scales.
    pub weight_scales: Option<WeightScales>,
}

/// Joint scales as the Quake II re-release applies them (its `.md5scale` files, read by
/// q2pro's `MD5_LoadScales`): the scale `s` of joint `j` in frame `f` multiplies the offsets
/// of the weights on `j` (`pos_j + s · rotate(orient_j, weight)`), so it scales the vertices
/// the joint carries about the joint without touching its children, and is not interpolated
/// between frames (a pose between frames `a` and `b` uses `b`'s). A joint whose
/// `scale_positions` flag is set also has its animated (parent-relative) position multiplied by
/// its scale before it is composed with its parent; that moves its children too. Scale 0 hides
/// what the joint carries.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WeightScales {
    /// Per frame of the animation, one scale per joint of [`crate::model::Model::joints`]
    /// (1 where the file says nothing).
    pub frames: Vec<Vec<f32>>,
    /// Per joint, whether its animated position is scaled too.
    pub scale_positions: Vec<bool>,
}

impl WeightScales {
    /// Scales of 1 for `frames` frames of `joints` joints, no position scaled.
    pub fn unit(frames: usize, joints: usize) -> WeightScales {
        WeightScales {
            frames: vec![vec![1.0; joints]; frames],
            scale_positions: vec![false; joints],
        }
    }

    /// Whether joint `j` scales in some frame or scales its position.
    pub fn scales_joint(&self, j: usize) -> bool {
        self.scale_positions.get(j).copied().unwrap_or(false)
            || self
                .frames
                .iter()
                .any(|f| f.get(j).is_some_and(|s| *s != 1.0))
    }

    /// Whether nothing scales (every scale 1, no position scaled).
    pub fn is_unit(&self) -> bool {
        !self.scale_positions.iter().any(|b| *b) && self.frames.iter().flatten().all(|s| *s == 1.0)
    }

    /// The scale of joint `j` in frame `f` (1 outside the table).
    pub fn get(&self, f: usize, j: usize) -> f32 {
        self.frames
            .get(f)
            .and_then(|row| row.get(j))
            .copied()
            .unwrap_or(1.0)
    }
}

/// One camera key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraKey {
    /// Position.
    pub position: [f32; 3],
    /// Orientation as a unit quaternion `[x, y, z, w]`.
    pub rotation: [f32; 4],
    /// Horizontal field of view in degrees.
    pub fov_degrees: f32,
}

/// A camera path (Doom 3 md5camera).
#[derive(Debug, Clone, PartialEq)]
pub struct CameraPath {
    /// Frames per second.
    pub fps: f32,
    /// Frames at which the camera cuts instead of moving.
    pub cuts: Vec<u32>,
    /// One key per frame.
    pub keys: Vec<CameraKey>,
}
