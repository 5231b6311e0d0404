//! On-disk structures of a Quake 2 MD2 file, field for field, named as in Quake 2's
//! `qfiles.h` (`dmdl_t`, `dstvert_t`, `dtriangle_t`, `daliasframe_t`).
//!
//! Nothing here is interpreted: skin names keep their 64 bytes, frames their names' padding
//! and any bytes past `40 + 4 * num_xyz`, GL commands their float bits and their layout, and
//! every byte no section claims (gaps between sections, data after `ofs_end`) is kept with its
//! offset, so that [`File::write`](File::write) reproduces an unmodified file byte for byte
//! with every section at its original offset.

use std::borrow::Cow;

pub use crate::formats::shared::quake::Vertex;

/// The magic at offset 0: `IDP2`.
pub const IDENT: [u8; 4] = *b"IDP2";
/// The only version Quake 2 reads.
pub const VERSION: i32 = 8;
/// Size of the header in bytes.
pub const HEADER_SIZE: usize = 68;
/// Bytes of a skin name.
pub const SKIN_NAME_SIZE: usize = 64;
/// Bytes of a frame before its vertices: scale, translate, name.
pub const FRAME_HEAD_SIZE: usize = 40;

/// The 68-byte header (`dmdl_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    /// Format version; 8 for Quake 2.
    pub version: i32,
    /// Skin width in pixels (texture coordinates are in these units).
    pub skinwidth: i32,
    /// Skin height in pixels.
    pub skinheight: i32,
    /// Bytes of one frame; `40 + 4 * num_xyz` in every known file, but read from here.
    pub framesize: i32,
    /// Number of skin names.
    pub num_skins: i32,
    /// Vertices per frame.
    pub num_xyz: i32,
    /// Number of texture coordinates.
    pub num_st: i32,
    /// Number of triangles.
    pub num_tris: i32,
    /// Number of 32-bit words in the GL command list, terminator included.
    pub num_glcmds: i32,
    /// Number of frames.
    pub num_frames: i32,
    /// Offset of the skin names.
    pub ofs_skins: i32,
    /// Offset of the texture coordinates.
    pub ofs_st: i32,
    /// Offset of the triangles.
    pub ofs_tris: i32,
    /// Offset of the frames.
    pub ofs_frames: i32,
    /// Offset of the GL command list.
    pub ofs_glcmds: i32,
    /// End of the model data; at most the file size.
    pub ofs_end: i32,
}

/// A texture coordinate (`dstvert_t`) in texels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct TexCoord {
    /// Horizontal texel coordinate.
    pub s: i16,
    /// Vertical texel coordinate.
    pub t: i16,
}

/// A triangle (`dtriangle_t`): separate vertex and texture coordinate indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Triangle {
    /// Indices into each frame's vertices, checked against `num_xyz` at parse time.
    pub index_xyz: [i16; 3],
    /// Indices into the texture coordinates, checked against `num_st` at parse time.
    pub index_st: [i16; 3],
}

/// One frame (`daliasframe_t` and its vertices).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame<'a> {
    /// Per-axis scale of the packed coordinates.
    pub scale: [f32; 3],
    /// Origin added after scaling.
    pub translate: [f32; 3],
    /// Frame name, 16 bytes with their original padding.
    pub name: [u8; 16],
    /// `num_xyz` packed vertices; real = `scale * v + translate`.
    pub verts: Vec<Vertex>,
    /// Bytes past the vertices when `framesize` is larger than needed, kept verbatim.
    pub padding: Cow<'a, [u8]>,
}

/// Whether a GL command draws a strip or a fan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GlKind {
    /// Positive count: `GL_TRIANGLE_STRIP`.
    Strip,
    /// Negative count: `GL_TRIANGLE_FAN`.
    Fan,
}

/// One vertex of a GL command: a texture coordinate in `[0, 1]` and a frame vertex index.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlVertex {
    /// Horizontal texture coordinate; Quake 2's tools store `(s + 0.5) / skinwidth`.
    pub s: f32,
    /// Vertical texture coordinate; Quake 2's tools store `(t + 0.5) / skinheight`.
    pub t: f32,
    /// Index into each frame's vertices.
    pub index: i32,
}

/// One strip or fan.
#[derive(Debug, Clone, PartialEq)]
pub struct GlCommand {
    /// Strip or fan.
    pub kind: GlKind,
    /// At least three vertices.
    pub vertices: Vec<GlVertex>,
}

/// Where a GL vertex keeps its index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GlLayout {
    /// `float s, float t, int index`, as Quake 2 reads it.
    #[default]
    Standard,
    /// `int index, float s, float t`: written by some exporters (found in UFO:AI files).
    /// Quake 2 misreads such a list; it is read here so the file still converts.
    IndexFirst,
}

/// The decoded GL command list.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct GlCommands {
    /// How the vertices are laid out.
    pub layout: GlLayout,
    /// The strips and fans before the terminator.
    pub commands: Vec<GlCommand>,
    /// Whether the list ends with its zero terminator (false only for an empty list,
    /// `num_glcmds == 0`).
    pub terminated: bool,
    /// Words after the terminator that `num_glcmds` still counts, kept verbatim.
    pub extra: Vec<u8>,
}

impl GlCommands {
    /// Number of 32-bit words the list occupies (`num_glcmds`).
    pub fn word_count(&self) -> usize {
        let body: usize = self.commands.iter().map(|c| 1 + 3 * c.vertices.len()).sum();
        body + usize::from(self.terminated) + self.extra.len() / 4
    }

    /// Number of triangles the strips and fans draw.
    pub fn triangle_count(&self) -> usize {
        self.commands
            .iter()
            .map(|c| c.vertices.len().saturating_sub(2))
            .sum()
    }
}

pub use crate::io::Gap;

/// A whole MD2 file. Unclaimed bytes and frame padding borrow from the input when parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header, offsets included: the writer puts each section at its offset.
    pub header: Header,
    /// `num_skins` skin names, 64 bytes each with their padding.
    pub skins: Vec<[u8; SKIN_NAME_SIZE]>,
    /// `num_st` texture coordinates.
    pub texcoords: Vec<TexCoord>,
    /// `num_tris` triangles.
    pub triangles: Vec<Triangle>,
    /// `num_frames` frames.
    pub frames: Vec<Frame<'a>>,
    /// The GL command list.
    pub glcmds: GlCommands,
    /// Bytes outside every section (between sections, after `ofs_end`), in offset order.
    pub gaps: Vec<Gap<'a>>,
}

impl File<'_> {
    /// The skin names, decoded up to the first NUL (lossy for non-UTF-8 bytes).
    pub fn skin_names(&self) -> impl Iterator<Item = String> + '_ {
        self.skins.iter().map(|s| name_str(s))
    }

    /// Number of frame vertices whose normal index lies past the 162-entry table.
    pub fn bad_normal_count(&self) -> usize {
        self.frames
            .iter()
            .flat_map(|f| &f.verts)
            .filter(|v| crate::formats::normals::past_table(v.normal_index))
            .count()
    }

    /// Total bytes outside every section.
    pub fn gap_bytes(&self) -> usize {
        self.gaps.iter().map(|g| g.bytes.len()).sum()
    }

    /// Sets every count and offset from the vectors in id's order (skins, texture
    /// coordinates, triangles, frames, GL commands), with `framesize` covering each frame's
    /// padding, and drops the gaps. Call it after editing a `File`; files made by
    /// [`super::from_model`] are laid out already.
    pub fn relayout(&mut self) {
        let h = &mut self.header;
        let num_xyz = self.frames.first().map_or(0, |f| f.verts.len());
        let padding = self.frames.first().map_or(0, |f| f.padding.len());
        h.num_skins = self.skins.len() as i32;
        h.num_xyz = num_xyz as i32;
        h.num_st = self.texcoords.len() as i32;
        h.num_tris = self.triangles.len() as i32;
        h.num_frames = self.frames.len() as i32;
        h.num_glcmds = self.glcmds.word_count() as i32;
        h.framesize = (FRAME_HEAD_SIZE + 4 * num_xyz + padding) as i32;
        let mut at = HEADER_SIZE;
        let mut place = |bytes: usize| {
            let start = at;
            at += bytes;
            start as i32
        };
        h.ofs_skins = place(SKIN_NAME_SIZE * self.skins.len());
        h.ofs_st = place(4 * self.texcoords.len());
        h.ofs_tris = place(12 * self.triangles.len());
        h.ofs_frames = place(h.framesize as usize * self.frames.len());
        h.ofs_glcmds = place(4 * h.num_glcmds as usize);
        h.ofs_end = place(0);
        self.gaps.clear();
    }

    /// Converts borrowed data into owned data, detaching the file from its input.
    pub fn into_owned(self) -> File<'static> {
        File {
            header: self.header,
            skins: self.skins,
            texcoords: self.texcoords,
            triangles: self.triangles,
            frames: self
                .frames
                .into_iter()
                .map(|f| Frame {
                    scale: f.scale,
                    translate: f.translate,
                    name: f.name,
                    verts: f.verts,
                    padding: Cow::Owned(f.padding.into_owned()),
                })
                .collect(),
            glcmds: self.glcmds,
            gaps: self.gaps.into_iter().map(Gap::into_owned).collect(),
        }
    }
}

pub use crate::io::names::{name_field, name_str};
