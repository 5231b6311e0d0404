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
