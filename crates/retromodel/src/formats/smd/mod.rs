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
//!
//! # Layout and quirks
//!
//! `version 1`, then the sections `nodes`, `skeleton` and `triangles`, each closed by a line
//! `end`; a reference SMD has all three (its skeleton one frame, the bind pose), an
//! animation SMD no triangles. Read here on the shared [`text`](crate::io::text) lexer
//! (tokens may spread over lines; `//` comments are skipped), stricter than studiomdl,
//! which reads line by line with `sscanf` and passes over what it does not know:
//!
//! - node ids must be 0, 1, 2... in order. studiomdl stores each node at its stated id and
//!   counts the nodes from the last one, so a gap would leave a nameless bone: refused
//!   here. A parent must be -1 or an earlier node (`Grab_Nodes` reads the parent's
//!   `mirrored` flag, which only an earlier node has);
//! - each section at most once, `nodes` first; an unknown section is an error (studiomdl
//!   prints "unknown studio command" and goes on);
//! - skeleton lines are `BONE PX PY PZ RX RY RZ` after a `time N`: the position relative to
//!   the parent, the rotation as GoldSrc Euler angles in radians (`AngleQuaternion`'s X
//!   roll, Y pitch, Z yaw). A frame may leave bones out (they keep their pose of the frame
//!   before); frames are taken in file order (studiomdl indexes them by time);
//! - a triangle is its material line (the rest of the line, blanks cut at its end, as
//!   studiomdl reads it: a texture file name such as `skin.bmp`, spaces allowed) and three
//!   vertex lines `BONE PX PY PZ NX NY NZ U V`, in model space at the reference pose. Source's
//!   `LINKS (BONE WEIGHT)*`, when the line goes on after `V`, are kept in
//!   [`Vertex::links`]; GoldSrc has one bone per vertex;
//! - corners run counter-clockwise seen from the front (studiomdl reverses them for the
//!   MDL, `flip_triangles`), and `V` runs up: studiomdl samples the bottom-up BMP at
//!   `v · (height − 1)`;
//! - numbers are decimal (`1e-05` too); integers must fit 32 bits, floats must be finite.
//!
//! **The 90° turn.** studiomdl turns the root bones (nodes without a parent) of every SMD a
//! `$sequence` names by `$origin`'s angle + 90° about Z, 90° when none is given
//! (`Grab_Animation`: the position rotated, the angle added to the yaw), and leaves the
//! skeleton of a `$body`'s reference SMD as it is (`Grab_Skeleton`). Here likewise: an
//! animation SMD (no triangles) is read with its roots turned by 90° (alone too, its
//! skeleton at its first frame so turned), a reference SMD's skeleton as stored; the writer
//! turns each animation SMD's roots back by 90° and writes the reference's bind pose as
//! stored, so that studiomdl, or this reader, gets the model's own poses. The QC
//! decompiler and compiler turn the same way ([`crate::formats::goldsrc::convert::turn`]).
//!
//! Written ([`File::write`]) as the exporters do: one statement a line, numbers with 6
//! decimals (`%f`, as Blender Source Tools' `getSmdFloat`), `triangles` and `skeleton` left
//! out when empty. Text it wrote parses back to an equal [`File`] and writes again to the
//! same text; a File with numbers of more than 6 decimals comes back rounded to them.

mod codec;
pub mod convert;
pub mod fixtures;
pub mod from_model;
mod read;
mod write;

pub use codec::{SmdCodec, CODEC, SMD};

/// The format name in errors and the registry.
pub const FORMAT: &str = "smd";

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
        read::parse(data, limits)
    }

    /// The text of the file (parses back to an equal File, numbers rounded to 6 decimals).
    pub fn write(&self) -> Vec<u8> {
        write::write(self).into_bytes()
    }
}
