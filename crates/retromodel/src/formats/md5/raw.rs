//! The three Doom 3 MD5 text files as parsed, value for value.
//!
//! Numbers keep the `f32` value their text parses to, so writing them with Rust's shortest
//! round-trip formatting and parsing again gives the same values. Comments and whitespace
//! are not kept (the files are text; values, not bytes, round-trip).

/// The version Doom 3 writes and reads.
pub const VERSION: i32 = 10;

/// A bind-pose joint of an md5mesh (object space).
#[derive(Debug, Clone, PartialEq)]
pub struct Joint {
    /// Joint name.
    pub name: String,
    /// Parent index, lower than this joint's; `-1` for a root.
    pub parent: i32,
    /// Position in object space.
    pub pos: [f32; 3],
    /// Orientation quaternion's x, y, z; w is derived (see `quat::w_from_xyz`).
    pub orient: [f32; 3],
}

/// A vertex of an md5mesh mesh.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Vert {
    /// Texture coordinates, `t` downwards.
    pub uv: [f32; 2],
    /// Index of the first weight.
    pub start_weight: u32,
    /// Number of weights.
    pub count_weight: u32,
}

/// A weight: a position in a joint's space and how much it counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weight {
    /// Joint index.
    pub joint: u32,
    /// Share of the vertex position, in `(0, 1]`.
    pub bias: f32,
    /// Position in the joint's space.
    pub pos: [f32; 3],
}

/// One mesh of an md5mesh.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Doom 3 material name (not an image path).
    pub shader: String,
    /// Vertices in index order.
    pub verts: Vec<Vert>,
    /// Triangles as vertex indices, in index order.
    pub tris: Vec<[u32; 3]>,
    /// Weights in index order.
    pub weights: Vec<Weight>,
}

/// An `.md5mesh` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MeshFile {
    /// `MD5Version`, `None` when the line is missing.
    pub version: Option<i32>,
    /// `commandline` string.
    pub commandline: String,
    /// `numMeshes` as stated, when it differs from the meshes present (kept for writing).
    pub stated_meshes: Option<u32>,
    /// The bind-pose skeleton.
    pub joints: Vec<Joint>,
    /// The meshes.
    pub meshes: Vec<Mesh>,
}

/// A joint of an md5anim hierarchy.
#[derive(Debug, Clone, PartialEq)]
pub struct HierarchyJoint {
    /// Joint name (matched to a mesh's joints by name).
    pub name: String,
    /// Parent index, lower than this joint's; `-1` for a root.
    pub parent: i32,
    /// Bits 1, 2, 4, 8, 16, 32: Tx, Ty, Tz, Qx, Qy, Qz are animated.
    pub flags: u32,
    /// Index of this joint's first animated component in each frame.
    pub start_index: u32,
}

/// Per-frame bounds of an md5anim.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// Minimum corner.
    pub min: [f32; 3],
    /// Maximum corner.
    pub max: [f32; 3],
}

/// A joint's base-frame value, relative to its parent.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BaseJoint {
    /// Position relative to the parent.
    pub pos: [f32; 3],
    /// Orientation x, y, z relative to the parent.
    pub orient: [f32; 3],
}

/// An `.md5anim` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnimFile {
    /// `MD5Version`, `None` when the line is missing.
    pub version: Option<i32>,
    /// `commandline` string.
    pub commandline: String,
    /// Frames per second (an integer in Doom 3's files; 24 when absent).
    pub frame_rate: f32,
    /// `numAnimatedComponents`: floats per frame.
    pub num_animated_components: u32,
    /// One entry per joint.
    pub hierarchy: Vec<HierarchyJoint>,
    /// One entry per frame.
    pub bounds: Vec<Bounds>,
    /// One entry per joint.
    pub baseframe: Vec<BaseJoint>,
    /// `numAnimatedComponents` floats per frame.
    pub frames: Vec<Vec<f32>>,
}

/// One camera frame of an md5camera.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CameraFrame {
    /// Position.
    pub pos: [f32; 3],
    /// Orientation x, y, z (w derived as for joints).
    pub orient: [f32; 3],
    /// Horizontal field of view in degrees.
    pub fov: f32,
}

/// An `.md5camera` file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CameraFile {
    /// `MD5Version`, `None` when the line is missing.
    pub version: Option<i32>,
    /// `commandline` string.
    pub commandline: String,
    /// Frames per second.
    pub frame_rate: f32,
    /// Frames where the camera cuts (no interpolation across), each in `1..numFrames`.
    pub cuts: Vec<u32>,
    /// One entry per frame.
    pub frames: Vec<CameraFrame>,
}
