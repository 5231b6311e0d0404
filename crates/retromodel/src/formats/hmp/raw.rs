//! On-disk structures of a 3D GameStudio HMP terrain, field for field.
//!
//! Nothing here is interpreted: values are kept as stored (the version word, the unused
//! header fields, frame names and bounding boxes, pad bytes, trailing bytes) so that
//! [`File::write`](File::write) reproduces an unmodified file byte for byte.

use std::borrow::Cow;

pub use crate::formats::gs_mdl7::{Skin, SkinData};

/// Size of the header in bytes.
pub const HEADER_SIZE: usize = 84;
/// Size of a skin record (type, width, height) before its data.
pub const SKIN_HEAD_SIZE: usize = 12;
/// Size of a frame before its vertices: type, bounding box, name.
pub const FRAME_HEAD_SIZE: usize = 36;

/// Which HMP version the magic names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    /// `HMP4` (A4): vertices with three packed coordinates.
    Hmp4,
    /// `HMP5` (A5): heights with a normal table index.
    Hmp5,
    /// `HMP7` (A6/A7): heights with two normal components.
    Hmp7,
}

impl Version {
    /// The magic of this version.
    pub fn ident(self) -> [u8; 4] {
        match self {
            Version::Hmp4 => *b"HMP4",
            Version::Hmp5 => *b"HMP5",
            Version::Hmp7 => *b"HMP7",
        }
    }

    /// The version a magic names, if any.
    pub fn from_ident(magic: [u8; 4]) -> Option<Version> {
        match &magic {
            b"HMP4" => Some(Version::Hmp4),
            b"HMP5" => Some(Version::Hmp5),
            b"HMP7" => Some(Version::Hmp7),
            _ => None,
        }
    }

    /// Bytes of one terrain vertex.
    pub fn vertex_size(self) -> usize {
        match self {
            Version::Hmp4 => 8,
            Version::Hmp5 | Version::Hmp7 => 4,
        }
    }
}

/// The 84-byte header.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    /// The version the magic names.
    pub ident: Version,
    /// The word after the magic (0 in every known file; any value is read).
    pub version: i32,
    /// Scale of the packed coordinates (only `scale[2]`, the height scale, is used for
    /// HMP5 and HMP7).
    pub scale: [f32; 3],
    /// Position of packed coordinate 0: the terrain's minimum corner.
    pub origin: [f32; 3],
    /// Bounding radius (0 in every known file).
    pub bounding_radius: f32,
    /// Distance between two vertices in x.
    pub trisize_x: f32,
    /// Distance between two vertices in y.
    pub trisize_y: f32,
    /// Vertices per row, as a float.
    pub fnumverts_x: f32,
    /// Number of skins.
    pub num_skins: i32,
    /// Skin width (0 in HMP7 files; each skin has its own size).
    pub skin_w: i32,
    /// Skin height.
    pub skin_h: i32,
    /// Vertices of the grid: rows times `fnumverts_x`.
    pub num_verts: i32,
    /// Triangles (0: the grid makes them).
    pub num_tris: i32,
    /// Number of frames (1 in every known file).
    pub num_frames: i32,
    /// Texture coordinates (0: the grid makes them).
    pub num_stverts: i32,
    /// Flags.
    pub flags: i32,
    /// Average triangle size (unused).
    pub size: f32,
}

/// A packed vertex of three 16-bit coordinates, a normal table index and a pad byte: the
/// bounding box of every frame, and the vertices of HMP4 terrains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PackedVertex {
    /// Packed coordinates; real = `scale * v + origin`.
    pub v: [u16; 3],
    /// Index into the 162-entry normal table.
    pub normal_index: u8,
    /// The byte after it.
    pub pad: u8,
}

/// A terrain vertex of HMP5 and HMP7: a packed height and two normal bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HeightVertex {
    /// Packed height; real = `scale[2] * z + origin[2]`.
    pub z: u16,
    /// HMP7: the normal's x and y components as signed bytes (see [`super::to_model`]);
    /// HMP5: a normal table index and a pad byte.
    pub normal: [u8; 2],
}

/// A frame's vertices, by version.
#[derive(Debug, Clone, PartialEq)]
pub enum Vertices {
    /// HMP4: packed positions.
    Packed(Vec<PackedVertex>),
    /// HMP5 and HMP7: heights.
    Heights(Vec<HeightVertex>),
}

impl Vertices {
    /// Number of vertices.
    pub fn len(&self) -> usize {
        match self {
            Vertices::Packed(v) => v.len(),
            Vertices::Heights(v) => v.len(),
        }
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One frame: a full grid of vertices.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Type word (2, word-packed, in every known file).
    pub frame_type: i32,
    /// Packed bounding box minimum.
    pub bboxmin: PackedVertex,
    /// Packed bounding box maximum.
    pub bboxmax: PackedVertex,
    /// Frame name, 16 bytes with their padding.
    pub name: [u8; 16],
    /// `num_verts` vertices, row by row.
    pub vertices: Vertices,
}

/// A whole HMP file. Pictures and trailing bytes borrow from the input.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header.
    pub header: Header,
    /// `num_skins` skins (the same lumps as MDL7 skins, without a name).
    pub skins: Vec<Skin<'a>>,
    /// `num_frames` frames.
    pub frames: Vec<Frame>,
    /// Bytes after the last frame.
    pub trailing: Cow<'a, [u8]>,
}

impl File<'_> {
    /// The grid's width and height in vertices: `fnumverts_x` and `num_verts` divided by
    /// it (both checked by the parser).
    pub fn grid(&self) -> (usize, usize) {
        let h = &self.header;
        let w = h.fnumverts_x as usize;
        (w, h.num_verts.max(0) as usize / w.max(1))
    }
}
