//! Valve SMD (studiomdl data, `version 1`): the text files Half-Life's `studiomdl` compiles
//! into a GoldSrc MDL, one reference SMD per body part and sub-model (with triangles) and one
//! SMD per sequence (skeleton frames only).
//!
//! # Sources
//!
//! - Valve Developer Community wiki, "SMD" (Studiomdl Data): `version 1`, then the blocks
//!   `nodes` (`ID "name" PARENT`), `skeleton` (`time N` then `BONE PX PY PZ RX RY RZ`) and
//!   `triangles` (a material line then three `BONE PX PY PZ NX NY NZ U V` lines; Source adds
//!   `LINKS (BONE WEIGHT)*` after `V`), each closed by `end`.
//! - Half-Life SDK `utils/studiomdl/studiomdl.c`: `Grab_Nodes`, `Grab_Skeleton`,
//!   `Grab_Triangles` (what studiomdl accepts).
//! - Blender Source Tools, `io_scene_valvesource/import_smd.py` (what exporters write).

/// A parsed SMD file (`version 1`): nodes, skeleton frames and triangles.
#[derive(Debug, Clone, PartialEq)]
pub struct File {
    /// The nodes (bones), in id order.
    pub nodes: Vec<Node>,
    /// The `skeleton` block's frames, in file order.
    pub frames: Vec<Frame>,
    /// The `triangles` block (empty for an animation SMD).
    pub triangles: Vec<Triangle>,
}

/// A node (bone): its id is its index in `File::nodes`; `parent` is -1 for a root.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The bone's name.
    pub name: String,
    /// The parent's id, -1 for a root.
    pub parent: i32,
}

/// One `time N` block of `skeleton`.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The frame number.
    pub time: i32,
    /// The bones posed in this frame.
    pub bones: Vec<BonePose>,
}

/// A bone's pose in a frame: position relative to the parent and Euler angles in radians (X,
/// Y, Z, the order GoldSrc's AngleQuaternion takes).
#[derive(Debug, Clone, PartialEq)]
pub struct BonePose {
    /// The node id.
    pub bone: usize,
    /// Position relative to the parent.
    pub position: [f32; 3],
    /// Euler angles in radians (X, Y, Z).
    pub rotation: [f32; 3],
}

/// A triangle: its material (the texture file name, `skin.bmp`) and three corners.
#[derive(Debug, Clone, PartialEq)]
pub struct Triangle {
    /// The material (texture file name).
    pub material: String,
    /// The three corners.
    pub corners: [Vertex; 3],
}

/// A corner in model space; GoldSrc SMD has one `bone` per vertex; Source's optional links
/// are kept in `links` (bone, weight).
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    /// The bone the vertex follows (GoldSrc), the parent bone in Source.
    pub bone: i32,
    /// Position in model space.
    pub position: [f32; 3],
    /// Normal in model space.
    pub normal: [f32; 3],
    /// Texture coordinates (V up, as studiomdl reads them).
    pub uv: [f32; 2],
    /// Source's weighted links (bone, weight); empty in GoldSrc files.
    pub links: Vec<(i32, f32)>,
}

impl File {
    /// Parses SMD text; errors name `smd`, the problem and line:column.
    pub fn parse(data: &[u8], limits: &crate::limits::Limits) -> crate::error::Result<File> {
        let _ = (data, limits);
        todo!("SMD parser")
    }

    /// The text of the file (parses back to an equal File).
    pub fn write(&self) -> Vec<u8> {
        todo!("SMD writer")
    }
}
