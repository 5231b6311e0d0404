//! On-disk structures of a 3D GameStudio MDL2..MDL5 file, field for field, named after the
//! A4 manual's `mdl_header`, `mdl_skin_t`, `mdl_uvvert_t`, `mdl_triangle_t` and
//! `mdl_frame_t`.
//!
//! Nothing here is interpreted: values are kept exactly as stored (the unused header words,
//! unknown flag bits, the mipmap levels, embedded DDS bytes, bone indices, trailing bytes) so
//! that [`File::write`](File::write) reproduces an unmodified file byte for byte.

use std::borrow::Cow;

use crate::formats::quake_mdl;

/// Size of the header in bytes (`0x54`).
pub const HEADER_SIZE: usize = 84;
/// Skin type bit: three smaller mipmap levels follow the picture.
pub const MIPMAP_FLAG: i32 = 8;
/// Frame type word of a byte-packed frame.
pub const FRAME_BYTE_PACKED: i32 = 0;
/// Frame type word of a word-packed frame (MDL4 and later).
pub const FRAME_WORD_PACKED: i32 = 2;
/// The versions this module reads (the digit of the magic).
pub const VERSIONS: std::ops::RangeInclusive<u8> = 2..=5;

/// The magic of a version: `MDL2`..`MDL5`.
pub fn magic(version: u8) -> [u8; 4] {
    [b'M', b'D', b'L', b'0'.wrapping_add(version)]
}

/// The 84-byte header (`mdl_header` in the A4 manual).
///
/// The layout is Quake's `mdl_t` with GameStudio's names; in MDL2 files the word at 72 is
/// Quake's `synctype` slot (0 in every known file), kept here as `num_skin_verts`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    /// The digit of the magic `MDLn` (2..=5).
    pub version: u8,
    /// The word after the magic (`final`, "not used yet"; 0 in every known file).
    pub version_field: i32,
    /// Per-axis scale of the packed vertex coordinates.
    pub scale: [f32; 3],
    /// Origin added after scaling.
    pub offset: [f32; 3],
    /// `pad` ("not used yet"); the tools store the bounding radius here, as Quake does.
    pub radius: f32,
    /// `eye` ("not used yet").
    pub eye: [f32; 3],
    /// Number of skins.
    pub num_skins: i32,
    /// Skin width of MDL2..MDL4 (every skin); 0 in MDL5 files, whose skins store their own.
    pub skin_width: i32,
    /// Skin height of MDL2..MDL4 (every skin); 0 in MDL5 files.
    pub skin_height: i32,
    /// Vertices per frame.
    pub num_verts: i32,
    /// Number of triangles.
    pub num_tris: i32,
    /// Number of frames.
    pub num_frames: i32,
    /// Number of skin vertices (MDL3 and later; MDL2 has per-vertex texture coordinates).
    pub num_skin_verts: i32,
    /// 0 = normal, 1 = terrain model; unknown bits kept.
    pub flags: i32,
    /// Number of bone vertices (MDL4: "future expansion"; 0 in every known file).
    pub num_bones: i32,
}

/// Pixel layout of a skin, from the low three bits of its type word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SkinFormat {
    /// Type 0: 8-bit palette indices.
    Indexed8,
    /// Type 2: 16-bit 5-6-5 RGB, red in the high bits.
    Rgb565,
    /// Type 3: 16-bit 4-4-4-4 ARGB, alpha in the high bits.
    Argb4444,
    /// Type 4: 24-bit 8-8-8, stored B, G, R.
    Bgr888,
    /// Type 5: 32-bit 8-8-8-8, stored B, G, R, A.
    Bgra8888,
    /// Type 6 (MDL5): an embedded DDS file; the width word holds its size in bytes.
    Dds,
    /// Type 7 (MDL5): the name of an external picture file; the width word holds its
    /// length in bytes.
    External,
}

impl SkinFormat {
    /// The format of a type word, mipmap bit included; `None` for an unknown word (1, a
    /// negative one, one above 15, or the mipmap bit on a DDS or external skin).
    pub fn from_type(skin_type: i32) -> Option<SkinFormat> {
        let base = match skin_type & !MIPMAP_FLAG {
            0 => SkinFormat::Indexed8,
            2 => SkinFormat::Rgb565,
            3 => SkinFormat::Argb4444,
            4 => SkinFormat::Bgr888,
            5 => SkinFormat::Bgra8888,
            6 => SkinFormat::Dds,
            7 => SkinFormat::External,
            _ => return None,
        };
        if skin_type & MIPMAP_FLAG != 0 && base.bytes_per_pixel().is_none() {
            return None;
        }
        Some(base)
    }

    /// The type word without the mipmap bit.
    pub fn type_word(self) -> i32 {
        match self {
            SkinFormat::Indexed8 => 0,
            SkinFormat::Rgb565 => 2,
            SkinFormat::Argb4444 => 3,
            SkinFormat::Bgr888 => 4,
            SkinFormat::Bgra8888 => 5,
            SkinFormat::Dds => 6,
            SkinFormat::External => 7,
        }
    }

    /// Bytes per pixel; `None` for DDS and external skins.
    pub fn bytes_per_pixel(self) -> Option<usize> {
        match self {
            SkinFormat::Indexed8 => Some(1),
            SkinFormat::Rgb565 | SkinFormat::Argb4444 => Some(2),
            SkinFormat::Bgr888 => Some(3),
            SkinFormat::Bgra8888 => Some(4),
            SkinFormat::Dds | SkinFormat::External => None,
        }
    }

    /// What the format is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            SkinFormat::Indexed8 => "8-bit palettised",
            SkinFormat::Rgb565 => "16-bit 5-6-5",
            SkinFormat::Argb4444 => "16-bit 4-4-4-4",
            SkinFormat::Bgr888 => "24-bit 8-8-8",
            SkinFormat::Bgra8888 => "32-bit 8-8-8-8",
            SkinFormat::Dds => "embedded DDS",
            SkinFormat::External => "external file name",
        }
    }
}

/// Sizes `(width, height)` of the three mipmap levels after a `width` x `height` picture:
/// each level halves both sides (`w >> k`, `h >> k`, k = 1..=3).
///
/// For power-of-two sides of 8 or more this equals Assimp's `(n >> 2) + (n >> 4) + (n >> 6)`
/// texels; no known file has a mipmapped skin of another size.
pub fn mipmap_sizes(width: u32, height: u32) -> [(u32, u32); 3] {
    [1, 2, 3].map(|k| (width >> k, height >> k))
}

/// Texels of the three mipmap levels together.
pub fn mipmap_texels(width: u32, height: u32) -> u64 {
    mipmap_sizes(width, height)
        .iter()
        .map(|&(w, h)| w as u64 * h as u64)
        .sum()
}

/// One skin (`mdl_skin_t`).
#[derive(Debug, Clone, PartialEq)]
pub struct Skin<'a> {
    /// The type word as stored (see [`SkinFormat::from_type`] and [`MIPMAP_FLAG`]).
    pub skin_type: i32,
    /// Width: stored before the data in MDL5 (for DDS and external skins: the data's byte
    /// count); the header's `skin_width` in MDL2..MDL4, where it is not stored per skin.
    pub width: i32,
    /// Height: stored in MDL5 (kept as is for DDS and external skins); the header's
    /// `skin_height` in MDL2..MDL4.
    pub height: i32,
    /// The picture (`width * height * bytes_per_pixel` bytes), the DDS file, or the
    /// external file name with its padding.
    pub data: Cow<'a, [u8]>,
    /// The three mipmap levels after the picture (see [`mipmap_sizes`]), empty unless the
    /// type word has [`MIPMAP_FLAG`].
    pub mipmaps: Cow<'a, [u8]>,
}

impl Skin<'_> {
    /// The pixel format (the parser refuses unknown type words; an edited skin with an
    /// unknown word reads as 8-bit).
    pub fn format(&self) -> SkinFormat {
        SkinFormat::from_type(self.skin_type).unwrap_or(SkinFormat::Indexed8)
    }

    /// Whether mipmap levels follow the picture.
    pub fn has_mipmaps(&self) -> bool {
        self.skin_type & MIPMAP_FLAG != 0
    }

    /// The file name of an external skin, up to its first NUL.
    pub fn external_name(&self) -> Option<String> {
        (self.format() == SkinFormat::External).then(|| name_str(&self.data))
    }

    /// Converts borrowed bytes into owned ones.
    pub fn into_owned(self) -> Skin<'static> {
        Skin {
            skin_type: self.skin_type,
            width: self.width,
            height: self.height,
            data: Cow::Owned(self.data.into_owned()),
            mipmaps: Cow::Owned(self.mipmaps.into_owned()),
        }
    }
}

/// A skin vertex (`mdl_uvvert_t`): a pixel position on the skin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SkinVert {
    /// Horizontal pixel position (0..skinwidth; real files also hold negative values and
    /// values past the width, which wrap).
    pub u: i16,
    /// Vertical pixel position.
    pub v: i16,
}

/// A triangle of MDL3 and later (`mdl_triangle_t`): separate vertex and skin vertex
/// indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Triangle {
    /// Indices into the frame vertices, checked against `num_verts` at parse time.
    pub vertex: [u16; 3],
    /// Indices into the skin vertices, checked against `num_skin_verts` at parse time.
    pub uv: [u16; 3],
}

/// Texture mapping and triangles: MDL2 has Quake's layout, MDL3 and later their own.
#[derive(Debug, Clone, PartialEq)]
pub enum Geometry {
    /// MDL2: one texture coordinate per vertex (`onseam`, `s`, `t`; GameStudio's tools
    /// write `onseam = 1`) and Quake's triangles (`facesfront`, three vertex indices).
    Quake {
        /// `num_verts` texture coordinates.
        texcoords: Vec<quake_mdl::TexCoord>,
        /// `num_tris` triangles.
        triangles: Vec<quake_mdl::Triangle>,
    },
    /// MDL3..MDL5: a skin vertex list and triangles indexing it separately.
    Separate {
        /// `num_skin_verts` skin vertices.
        skin_verts: Vec<SkinVert>,
        /// `num_tris` triangles.
        triangles: Vec<Triangle>,
    },
}

impl Geometry {
    /// Number of triangles.
    pub fn triangle_count(&self) -> usize {
        match self {
            Geometry::Quake { triangles, .. } => triangles.len(),
            Geometry::Separate { triangles, .. } => triangles.len(),
        }
    }
}

/// How a frame packs its vertices.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packing {
    /// Type 0: `mdl_trivertxb_t`, 3 coordinate bytes and a normal index (4 bytes).
    Byte,
    /// Type 2: `mdl_trivertxs_t`, 3 little-endian `u16` coordinates, a normal index and a
    /// bone index (8 bytes).
    Word,
}

impl Packing {
    /// The frame type word.
    pub fn type_word(self) -> i32 {
        match self {
            Packing::Byte => FRAME_BYTE_PACKED,
            Packing::Word => FRAME_WORD_PACKED,
        }
    }

    /// Bytes of one packed vertex.
    pub fn vertex_size(self) -> usize {
        match self {
            Packing::Byte => 4,
            Packing::Word => 8,
        }
    }
}

/// A packed vertex of either kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Vertex {
    /// Packed coordinates; real = `scale * v + offset`. Byte-packed frames hold values up
    /// to 255 and write `v as u8`.
    pub v: [u16; 3],
    /// Index into the 162-entry normal table.
    pub normal_index: u8,
    /// Bone index (word-packed frames only; 0 in byte-packed ones, where it is not stored).
    pub bone: u8,
}

/// One frame (`mdl_frame_t`).
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// The packing, from the type word (0 or 2).
    pub packing: Packing,
    /// Packed bounding box minimum.
    pub bboxmin: Vertex,
    /// Packed bounding box maximum.
    pub bboxmax: Vertex,
    /// Frame name, 16 bytes with their original padding.
    pub name: [u8; 16],
    /// `num_verts` vertices.
    pub verts: Vec<Vertex>,
}

/// A whole MDL2..MDL5 file. Skin data and trailing bytes borrow from the input when parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header (its `version` is the magic's digit).
    pub header: Header,
    /// `num_skins` skins.
    pub skins: Vec<Skin<'a>>,
    /// Texture mapping and triangles.
    pub geometry: Geometry,
    /// `num_frames` frames.
    pub frames: Vec<Frame>,
    /// Bytes after the last frame, kept verbatim. Bone data, which the manual announces
    /// after the frames without describing it, would be here (no known file has any).
    pub trailing: Cow<'a, [u8]>,
}

impl File<'_> {
    /// The format name of this file's version (`gs-mdl2`..`gs-mdl5`).
    pub fn format_name(&self) -> &'static str {
        super::format_name(self.header.version)
    }

    /// Number of frame vertices whose normal index lies past the 162-entry table.
    pub fn bad_normal_count(&self) -> usize {
        self.frames
            .iter()
            .flat_map(|f| &f.verts)
            .filter(|v| crate::formats::normals::past_table(v.normal_index))
            .count()
    }

    /// Number of word-packed frames.
    pub fn word_packed_frames(&self) -> usize {
        self.frames
            .iter()
            .filter(|f| f.packing == Packing::Word)
            .count()
    }

    /// Converts borrowed bytes into owned ones, detaching the file from its input.
    pub fn into_owned(self) -> File<'static> {
        File {
            header: self.header,
            skins: self.skins.into_iter().map(Skin::into_owned).collect(),
            geometry: self.geometry,
            frames: self.frames,
            trailing: Cow::Owned(self.trailing.into_owned()),
        }
    }
}

pub use crate::io::names::name_str;
