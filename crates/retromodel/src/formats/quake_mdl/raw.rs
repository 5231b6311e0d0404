//! On-disk structures of a Quake MDL file and of its three variants (QTest's version 3,
//! QuakeForge's `MD16`, Hexen II's `RAPO`), field for field, named as in the engines'
//! `modelgen.h` / `genmodel.h`.
//!
//! Nothing here is interpreted: values are kept exactly as stored (unknown flag bits, the
//! on-seam word, non-zero group type words, trailing bytes) so that
//! [`File::write`](File::write) and the variants' `write` reproduce an unmodified file byte
//! for byte.

use std::borrow::Cow;

/// The magic at offset 0: `IDPO`.
pub const IDENT: [u8; 4] = *b"IDPO";
/// The only version Quake reads.
pub const VERSION: i32 = 6;
/// Size of the header in bytes.
pub const HEADER_SIZE: usize = 84;
/// The on-seam value Quake's tools write (`ALIAS_ONSEAM`).
pub const ALIAS_ONSEAM: i32 = 0x20;
/// Model flag: palette index 255 is transparent (QuakeSpasm, Ironwail, TrenchBroom).
pub const MF_HOLEY: i32 = 1 << 14;
/// The version of QTest's `IDPO` files (`QTESTALIAS_VERSION` in FTEQW).
pub const QTEST_VERSION: i32 = 3;
/// Size of a QTest header in bytes: Quake's without `flags` and `size`.
pub const QTEST_HEADER_SIZE: usize = 76;
/// The magic of QuakeForge's 16-bit models: `MD16`.
pub const MD16_IDENT: [u8; 4] = *b"MD16";
/// The magic of Hexen II's mission-pack models (`RAPOLYHEADER`): `RAPO`.
pub const HEXEN2_IDENT: [u8; 4] = *b"RAPO";
/// The version of Hexen II's `RAPO` files (`ALIAS_NEWVERSION`).
pub const HEXEN2_VERSION: i32 = 50;
/// Size of a Hexen II `RAPO` header in bytes: Quake's and `num_st_verts`.
pub const HEXEN2_HEADER_SIZE: usize = 88;

/// Which of the four layouts a file has, told by its magic (and, for `IDPO`, its version).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// `IDPO` version 6: Quake ([`File`]).
    Quake,
    /// `IDPO` version 3: Quake's test release ([`QTestFile`]).
    QTest,
    /// `MD16` version 6: QuakeForge's 16-bit vertices ([`Md16File`]).
    Md16,
    /// `RAPO` version 50: Hexen II's mission pack ([`Hexen2File`]).
    Hexen2,
}

impl Variant {
    /// The variant of a file by its first eight bytes: `RAPO` and `MD16` by magic, `IDPO`
    /// with version 3 as QTest, any other `IDPO` as Quake (whose parser judges the version).
    pub fn detect(data: &[u8]) -> Option<Variant> {
        let magic: [u8; 4] = data.get(..4)?.try_into().ok()?;
        match magic {
            IDENT if data.get(4..8) == Some(&QTEST_VERSION.to_le_bytes()[..]) => {
                Some(Variant::QTest)
            }
            IDENT => Some(Variant::Quake),
            MD16_IDENT => Some(Variant::Md16),
            HEXEN2_IDENT => Some(Variant::Hexen2),
            _ => None,
        }
    }

    /// The magic at offset 0.
    pub fn ident(self) -> [u8; 4] {
        match self {
            Variant::Quake | Variant::QTest => IDENT,
            Variant::Md16 => MD16_IDENT,
            Variant::Hexen2 => HEXEN2_IDENT,
        }
    }

    /// The only version the variant's readers accept.
    pub fn version(self) -> i32 {
        match self {
            Variant::Quake | Variant::Md16 => VERSION,
            Variant::QTest => QTEST_VERSION,
            Variant::Hexen2 => HEXEN2_VERSION,
        }
    }

    /// Size of the variant's header in bytes.
    pub fn header_size(self) -> usize {
        match self {
            Variant::Quake | Variant::Md16 => HEADER_SIZE,
            Variant::QTest => QTEST_HEADER_SIZE,
            Variant::Hexen2 => HEXEN2_HEADER_SIZE,
        }
    }

    /// The format name used in errors and `info` output (`quake-mdl`, `qtest-mdl`,
    /// `quakeforge-md16`, `hexen2-mdl`).
    pub fn name(self) -> &'static str {
        match self {
            Variant::Quake => super::FORMAT,
            Variant::QTest => super::QTEST_FORMAT,
            Variant::Md16 => super::MD16_FORMAT,
            Variant::Hexen2 => super::HEXEN2_FORMAT,
        }
    }
}

/// The 84-byte header (`mdl_t` in `modelgen.h`), also that of QuakeForge's `MD16` files and
/// the first 84 bytes of Hexen II's `RAPO` header ([`Hexen2Header`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    /// Format version: 6 for Quake and `MD16`, 50 for Hexen II's `RAPO`.
    pub version: i32,
    /// Per-axis scale of the byte-packed vertex coordinates.
    pub scale: [f32; 3],
    /// Origin added after scaling (`scale_origin` in the engine).
    pub translate: [f32; 3],
    /// Radius of a sphere around the model origin that holds every pose.
    pub boundingradius: f32,
    /// Eye position (unused by the engine).
    pub eyeposition: [f32; 3],
    /// Number of skin entries (single pictures or groups).
    pub num_skins: i32,
    /// Width of every skin picture in pixels.
    pub skinwidth: i32,
    /// Height of every skin picture in pixels.
    pub skinheight: i32,
    /// Vertices per pose (also the number of texture coordinates).
    pub num_verts: i32,
    /// Number of triangles.
    pub num_tris: i32,
    /// Number of frame entries (simple frames or groups).
    pub num_frames: i32,
    /// 0 = synchronised group animation, 1 = random phase per entity.
    pub synctype: i32,
    /// Effect flags (rocket trail, rotate, ..., `MF_HOLEY`); unknown bits kept.
    pub flags: i32,
    /// Average triangle size (unused by the engine).
    pub size: f32,
}

/// Pixel layout of a skin picture, from its type word.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PixelFormat {
    /// 8-bit palette indices (Quake).
    Indexed8,
    /// 16-bit 5-6-5 RGB (3D GameStudio tools, type 2).
    Rgb565,
    /// 16-bit 4-4-4-4 ARGB (3D GameStudio, type 3).
    Argb4444,
    /// 24-bit 8-8-8 BGR (3D GameStudio, type 4).
    Bgr888,
    /// 32-bit 8-8-8-8 BGRA (3D GameStudio, type 5).
    Bgra8888,
}

impl PixelFormat {
    /// Bytes per pixel.
    pub fn bytes_per_pixel(self) -> usize {
        match self {
            PixelFormat::Indexed8 => 1,
            PixelFormat::Rgb565 | PixelFormat::Argb4444 => 2,
            PixelFormat::Bgr888 => 3,
            PixelFormat::Bgra8888 => 4,
        }
    }

    /// The format of a single-picture skin type word: 0 for Quake, 2..=5 for 3D GameStudio.
    /// Every other word means a group.
    pub fn from_skin_type(t: i32) -> Option<Self> {
        match t {
            0 => Some(PixelFormat::Indexed8),
            2 => Some(PixelFormat::Rgb565),
            3 => Some(PixelFormat::Argb4444),
            4 => Some(PixelFormat::Bgr888),
            5 => Some(PixelFormat::Bgra8888),
            _ => None,
        }
    }
}

/// Skin type word of a group (`ALIAS_SKIN_GROUP`).
pub const SKIN_GROUP: i32 = 1;

/// One skin entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Skin<'a> {
    /// One picture. `skin_type` is 0 for Quake's 8-bit skins, 2..=5 for 3D GameStudio's
    /// true-colour pictures (see [`PixelFormat::from_skin_type`]).
    Single {
        /// The type word as stored.
        skin_type: i32,
        /// `skinwidth * skinheight * bytes_per_pixel` bytes.
        pixels: Cow<'a, [u8]>,
    },
    /// An animated group of 8-bit pictures: type word 1, or any word that is neither 0 nor a
    /// 3D GameStudio picture type (Quake reads every non-zero word as a group).
    Group {
        /// The type word as stored (1 in every known file).
        skin_type: i32,
        /// Cumulative end times in seconds, one per picture.
        intervals: Vec<f32>,
        /// `skinwidth * skinheight` bytes each.
        pictures: Vec<Cow<'a, [u8]>>,
    },
}

impl Skin<'_> {
    /// Number of pictures in this entry.
    pub fn picture_count(&self) -> usize {
        match self {
            Skin::Single { .. } => 1,
            Skin::Group { pictures, .. } => pictures.len(),
        }
    }
}

/// A texture coordinate (`stvert_t`), in texels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TexCoord {
    /// `ALIAS_ONSEAM` (0x20) when the vertex lies on the front/back seam, else 0.
    pub onseam: i32,
    /// Horizontal texel coordinate.
    pub s: i32,
    /// Vertical texel coordinate.
    pub t: i32,
}

/// A triangle (`dtriangle_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Triangle {
    /// Non-zero for front-facing triangles; back-facing ones shift on-seam `s` by half a skin.
    pub facesfront: i32,
    /// Vertex indices, checked against `num_verts` at parse time.
    pub vertex: [i32; 3],
}

pub use crate::formats::shared::quake::Vertex;

/// What every pose layout has: the parts shared code reads.
pub trait Pose {
    /// Packed bounding box minimum and maximum (normal bytes unused).
    fn bounds(&self) -> [Vertex; 2];
    /// Frame name bytes with their padding; empty for QTest poses, which have none.
    fn name(&self) -> &[u8];
    /// The `num_verts` packed vertices (for `MD16`, the high bytes).
    fn verts(&self) -> &[Vertex];
}

/// One pose (`daliasframe_t` and its vertices) of Quake and Hexen II files.
#[derive(Debug, Clone, PartialEq)]
pub struct SimpleFrame {
    /// Packed bounding box minimum.
    pub bboxmin: Vertex,
    /// Packed bounding box maximum.
    pub bboxmax: Vertex,
    /// Frame name, 16 bytes with their original padding.
    pub name: [u8; 16],
    /// `num_verts` vertices.
    pub verts: Vec<Vertex>,
}

impl Pose for SimpleFrame {
    fn bounds(&self) -> [Vertex; 2] {
        [self.bboxmin, self.bboxmax]
    }
    fn name(&self) -> &[u8] {
        &self.name
    }
    fn verts(&self) -> &[Vertex] {
        &self.verts
    }
}

/// One frame entry; `P` is the pose layout ([`SimpleFrame`] for Quake and Hexen II,
/// [`QTestPose`], [`Md16Pose`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Frame<P = SimpleFrame> {
    /// Type word 0 followed by one pose.
    Simple(P),
    /// A non-zero type word followed by a group of poses.
    Group {
        /// The type word as stored (1 in Quake's tools; any non-zero value means a group).
        frame_type: i32,
        /// Packed minimum over all poses of the group.
        bboxmin: Vertex,
        /// Packed maximum over all poses of the group.
        bboxmax: Vertex,
        /// Cumulative end times in seconds, one per pose.
        intervals: Vec<f32>,
        /// The poses.
        frames: Vec<P>,
    },
}

impl<P> Frame<P> {
    /// Number of poses in this entry.
    pub fn pose_count(&self) -> usize {
        match self {
            Frame::Simple(_) => 1,
            Frame::Group { frames, .. } => frames.len(),
        }
    }
}

/// A whole Quake (`IDPO` version 6) file. Pixel data and trailing bytes borrow from the input
/// when parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header.
    pub header: Header,
    /// `num_skins` skin entries.
    pub skins: Vec<Skin<'a>>,
    /// `num_verts` texture coordinates.
    pub texcoords: Vec<TexCoord>,
    /// `num_tris` triangles.
    pub triangles: Vec<Triangle>,
    /// `num_frames` frame entries.
    pub frames: Vec<Frame>,
    /// Bytes after the last frame (qME's `QMEX` chunk and the like), kept verbatim.
    pub trailing: Cow<'a, [u8]>,
}

/// Every pose of a frame list in file order, group members included.
pub fn poses<P>(frames: &[Frame<P>]) -> impl Iterator<Item = &P> {
    frames.iter().flat_map(|f| match f {
        Frame::Simple(s) => std::slice::from_ref(s).iter(),
        Frame::Group { frames, .. } => frames.iter(),
    })
}

/// Number of pose vertices (for `MD16`, high-byte vertices) whose normal index lies past the
/// 162-entry table.
pub fn bad_normal_count<P: Pose>(frames: &[Frame<P>]) -> usize {
    // Counted pose by pose: a flat loop over one slice, which the compiler vectorises.
    poses(frames)
        .map(|p| {
            p.verts()
                .iter()
                .map(|v| usize::from(crate::formats::normals::past_table(v.normal_index)))
                .sum::<usize>()
        })
        .sum()
}

/// Converts borrowed pixel data into owned data.
fn own(c: Cow<'_, [u8]>) -> Cow<'static, [u8]> {
    Cow::Owned(c.into_owned())
}

/// Skins with owned pixel data.
fn own_skins(skins: Vec<Skin<'_>>) -> Vec<Skin<'static>> {
    skins
        .into_iter()
        .map(|s| match s {
            Skin::Single { skin_type, pixels } => Skin::Single {
                skin_type,
                pixels: own(pixels),
            },
            Skin::Group {
                skin_type,
                intervals,
                pictures,
            } => Skin::Group {
                skin_type,
                intervals,
                pictures: pictures.into_iter().map(own).collect(),
            },
        })
        .collect()
}

/// The methods every file layout shares: poses, counts, detaching from the input.
macro_rules! file_methods {
    ($file:ident, $pose:ty) => {
        impl $file<'_> {
            /// Every pose in file order, group members included.
            pub fn poses(&self) -> impl Iterator<Item = &$pose> {
                poses(&self.frames)
            }

            /// Number of poses, group members included.
            pub fn pose_count(&self) -> usize {
                self.frames.iter().map(Frame::pose_count).sum()
            }

            /// Number of pose vertices whose normal index lies past the 162-entry table.
            pub fn bad_normal_count(&self) -> usize {
                bad_normal_count(&self.frames)
            }

            /// Number of skin pictures, group members included.
            pub fn picture_count(&self) -> usize {
                self.skins.iter().map(Skin::picture_count).sum()
            }

            /// Converts borrowed pixel data into owned data, detaching the file from its
            /// input.
            pub fn into_owned(self) -> $file<'static> {
                $file {
                    header: self.header,
                    skins: own_skins(self.skins),
                    texcoords: self.texcoords,
                    triangles: self.triangles,
                    frames: self.frames,
                    trailing: own(self.trailing),
                }
            }
        }
    };
}

file_methods!(File, SimpleFrame);
file_methods!(QTestFile, QTestPose);
file_methods!(Md16File, Md16Pose);
file_methods!(Hexen2File, SimpleFrame);

// ---------------------------------------------------------------------------------------------
// QTest (`IDPO` version 3)

/// The 76-byte header of a QTest file: Quake's `mdl_t` up to `synctype`, without `flags` and
/// `size` (FTEQW reads `offsetof(dmdl_t, flags)` bytes; QuakeForge's `mdl.py` reads `flags`
/// and `size` only for version 6).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QTestHeader {
    /// Format version; 3.
    pub version: i32,
    /// Per-axis scale of the byte-packed vertex coordinates.
    pub scale: [f32; 3],
    /// Origin added after scaling.
    pub translate: [f32; 3],
    /// Radius of a sphere around the model origin that holds every pose.
    pub boundingradius: f32,
    /// Eye position.
    pub eyeposition: [f32; 3],
    /// Number of skin entries (single pictures or groups).
    pub num_skins: i32,
    /// Width of every skin picture in pixels.
    pub skinwidth: i32,
    /// Height of every skin picture in pixels.
    pub skinheight: i32,
    /// Vertices per pose (also the number of texture coordinates).
    pub num_verts: i32,
    /// Number of triangles.
    pub num_tris: i32,
    /// Number of frame entries (simple frames or groups).
    pub num_frames: i32,
    /// 0 = synchronised group animation, 1 = random phase per entity.
    pub synctype: i32,
}

impl QTestHeader {
    /// The same fields as a Quake [`Header`], with `flags` and `size` 0 (engines give QTest
    /// models no flags): what conversion, validation and summaries share with Quake.
    pub fn to_quake(&self) -> Header {
        Header {
            version: self.version,
            scale: self.scale,
            translate: self.translate,
            boundingradius: self.boundingradius,
            eyeposition: self.eyeposition,
            num_skins: self.num_skins,
            skinwidth: self.skinwidth,
            skinheight: self.skinheight,
            num_verts: self.num_verts,
            num_tris: self.num_tris,
            num_frames: self.num_frames,
            synctype: self.synctype,
            flags: 0,
            size: 0.0,
        }
    }
}

/// A QTest pose: bounding box and vertices, no name (FTEQW's `qtestaliasframe_t`).
#[derive(Debug, Clone, PartialEq)]
pub struct QTestPose {
    /// Packed bounding box minimum.
    pub bboxmin: Vertex,
    /// Packed bounding box maximum.
    pub bboxmax: Vertex,
    /// `num_verts` vertices.
    pub verts: Vec<Vertex>,
}

impl Pose for QTestPose {
    fn bounds(&self) -> [Vertex; 2] {
        [self.bboxmin, self.bboxmax]
    }
    fn name(&self) -> &[u8] {
        &[]
    }
    fn verts(&self) -> &[Vertex] {
        &self.verts
    }
}

/// A whole QTest (`IDPO` version 3) file: Quake's layout with the shorter header and nameless
/// poses. Pixel data and trailing bytes borrow from the input when parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct QTestFile<'a> {
    /// The header.
    pub header: QTestHeader,
    /// `num_skins` skin entries, as in Quake.
    pub skins: Vec<Skin<'a>>,
    /// `num_verts` texture coordinates, as in Quake.
    pub texcoords: Vec<TexCoord>,
    /// `num_tris` triangles, as in Quake.
    pub triangles: Vec<Triangle>,
    /// `num_frames` frame entries of nameless poses.
    pub frames: Vec<Frame<QTestPose>>,
    /// Bytes after the last frame, kept verbatim.
    pub trailing: Cow<'a, [u8]>,
}

// ---------------------------------------------------------------------------------------------
// QuakeForge MD16

/// An `MD16` pose: Quake's pose followed by a second block of `num_verts` packed vertices
/// holding the low byte of each coordinate, 8.8 fixed point: position =
/// `scale * (v + low / 256) + translate`.
#[derive(Debug, Clone, PartialEq)]
pub struct Md16Pose {
    /// Packed bounding box minimum (high bytes only).
    pub bboxmin: Vertex,
    /// Packed bounding box maximum (high bytes only).
    pub bboxmax: Vertex,
    /// Frame name, 16 bytes with their original padding.
    pub name: [u8; 16],
    /// `num_verts` vertices: the high bytes and the normal index the renderers use.
    pub verts: Vec<Vertex>,
    /// `num_verts` vertices: the low bytes, and a normal byte (QuakeForge's exporter repeats
    /// the high block's; its software renderer reads this one).
    pub low: Vec<Vertex>,
}

impl Pose for Md16Pose {
    fn bounds(&self) -> [Vertex; 2] {
        [self.bboxmin, self.bboxmax]
    }
    fn name(&self) -> &[u8] {
        &self.name
    }
    fn verts(&self) -> &[Vertex] {
        &self.verts
    }
}

/// A whole QuakeForge `MD16` file: Quake's layout (the same 84-byte header, version 6) with
/// a low-byte block after each pose's vertices. Pixel data and trailing bytes borrow from the
/// input when parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Md16File<'a> {
    /// The header; `scale` applies to the high bytes, as in Quake.
    pub header: Header,
    /// `num_skins` skin entries, as in Quake.
    pub skins: Vec<Skin<'a>>,
    /// `num_verts` texture coordinates, as in Quake.
    pub texcoords: Vec<TexCoord>,
    /// `num_tris` triangles, as in Quake.
    pub triangles: Vec<Triangle>,
    /// `num_frames` frame entries of 16-bit poses.
    pub frames: Vec<Frame<Md16Pose>>,
    /// Bytes after the last frame, kept verbatim.
    pub trailing: Cow<'a, [u8]>,
}

// ---------------------------------------------------------------------------------------------
// Hexen II RAPO

/// The 88-byte header of a Hexen II mission-pack file (`newmdl_t` in `genmodel.h`): Quake's
/// 84 bytes, then `num_st_verts`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hexen2Header {
    /// The fields `newmdl_t` shares with Quake's `mdl_t`, in the same order (version 50).
    pub mdl: Header,
    /// Number of texture coordinates (`stvert_t`), independent of `num_verts`.
    pub num_st_verts: i32,
}

/// A Hexen II triangle (`dnewtriangle_t`): a vertex index and a texture-coordinate index per
/// corner, both unsigned 16-bit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hexen2Triangle {
    /// Non-zero for front-facing triangles; back-facing ones shift on-seam `s` by half a skin.
    pub facesfront: i32,
    /// Vertex indices, checked against `num_verts` at parse time.
    pub vertex: [u16; 3],
    /// Texture-coordinate indices, checked against `num_st_verts` at parse time.
    pub st: [u16; 3],
}

/// A whole Hexen II `RAPO` file. Pixel data and trailing bytes borrow from the input when
/// parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct Hexen2File<'a> {
    /// The header.
    pub header: Hexen2Header,
    /// `num_skins` skin entries, as in Quake.
    pub skins: Vec<Skin<'a>>,
    /// `num_st_verts` texture coordinates (`stvert_t`, as Quake's).
    pub texcoords: Vec<TexCoord>,
    /// `num_tris` triangles with separate vertex and texture-coordinate indices.
    pub triangles: Vec<Hexen2Triangle>,
    /// `num_frames` frame entries, as in Quake.
    pub frames: Vec<Frame>,
    /// Bytes after the last frame, kept verbatim.
    pub trailing: Cow<'a, [u8]>,
}

pub use crate::io::names::name_str;
