//! On-disk structures of a Quake MDL file and of its three variants (QTest's version 3,
//! QuakeForge's `MD16`, Hexen II's `RAPO`), field for field, named as in the engines'
//! `modelgen.h` / `genmodel.h`.
//!
//! Nothing here is interpreted: values are kept exactly as stored (unknown flag bits, the
//! on-seam word, non-zero group type words, trailing bytes) so that [`MdlFile::write`]
//! reproduces an unmodified file byte for byte.
//!
//! One [`MdlFile`] type holds every variant; a [`Layout`] (`Quake`, `QTest`, `Md16`, `Hexen2`)
//! names the variant's header, pose and triangle types, so that one body reads, writes,
//! converts and checks all four, compiled once per layout. [`File`], [`QTestFile`],
//! [`Md16File`] and [`Hexen2File`] name the four.

use std::borrow::Cow;
use std::fmt;

use crate::codec::Format;
use crate::error::Result;
use crate::io::{Reader, Writer};
use crate::limits::{Budget, Limits};
use crate::model::Mesh;
use crate::options::SeamRule;

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

    /// The variant's registered format ([`QUAKE_MDL`], [`QTEST_MDL`], [`QUAKEFORGE_MD16`],
    /// [`HEXEN2_MDL`]).
    pub fn format(self) -> Format {
        match self {
            Variant::Quake => QUAKE_MDL,
            Variant::QTest => QTEST_MDL,
            Variant::Md16 => QUAKEFORGE_MD16,
            Variant::Hexen2 => HEXEN2_MDL,
        }
    }

    /// The variant whose registered format is `format`; Quake for any other.
    pub fn of_format(format: Format) -> Variant {
        [
            Variant::Quake,
            Variant::QTest,
            Variant::Md16,
            Variant::Hexen2,
        ]
        .into_iter()
        .find(|v| v.format() == format)
        .unwrap_or(Variant::Quake)
    }
}

/// Quake MDL (`IDPO`, version 6).
pub const QUAKE_MDL: Format = Format::new(super::FORMAT, "Quake MDL", &["mdl"]);
/// Hexen II's mission-pack MDL (`RAPO`, version 50): read and written back, not written from
/// a Model.
pub const HEXEN2_MDL: Format = Format::new(
    super::HEXEN2_FORMAT,
    "Hexen II mission-pack MDL (RAPO)",
    &["mdl"],
);
/// QuakeForge's 16-bit MDL (`MD16`, version 6): read and written back, not written from a
/// Model.
pub const QUAKEFORGE_MD16: Format = Format::new(super::MD16_FORMAT, "QuakeForge MD16", &["mdl"]);
/// QTest's MDL (`IDPO`, version 3): read and written back, not written from a Model.
pub const QTEST_MDL: Format = Format::new(super::QTEST_FORMAT, "QTest MDL (version 3)", &["mdl"]);

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
    /// The layout in words, for messages (`16-bit 5-6-5 RGB`).
    pub fn describe(self) -> &'static str {
        match self {
            PixelFormat::Indexed8 => "8-bit palette indices",
            PixelFormat::Rgb565 => "16-bit 5-6-5 RGB",
            PixelFormat::Argb4444 => "16-bit 4-4-4-4 ARGB",
            PixelFormat::Bgr888 => "24-bit BGR",
            PixelFormat::Bgra8888 => "32-bit BGRA",
        }
    }

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

/// What every pose layout has: the parts shared code reads, and how a pose is made from
/// them. A pose is stored as its bounding box, its name (if [`Pose::NAMED`]), its vertices
/// and (if [`Pose::LOW`]) a second block of vertices.
pub trait Pose: Sized {
    /// Whether the pose has a 16-byte name after its bounding box (all but QTest's).
    const NAMED: bool;
    /// Whether a block of low bytes follows the vertices (`MD16`).
    const LOW: bool;
    /// Packed bounding box minimum and maximum (normal bytes unused).
    fn bounds(&self) -> [Vertex; 2];
    /// Frame name bytes with their padding; empty for QTest poses, which have none.
    fn name(&self) -> &[u8];
    /// The `num_verts` packed vertices (for `MD16`, the high bytes).
    fn verts(&self) -> &[Vertex];
    /// The low-byte vertices (`MD16`); empty for the other layouts.
    fn low(&self) -> &[Vertex] {
        &[]
    }
    /// The pose from its parts as read; `name` and `low` are dropped where the layout has
    /// none.
    fn from_parts(
        bounds: [Vertex; 2],
        name: [u8; 16],
        verts: Vec<Vertex>,
        low: Vec<Vertex>,
    ) -> Self;
}

/// One pose of any layout: `daliasframe_t` and its vertices (Quake, Hexen II), without the
/// name (QTest's `qtestaliasframe_t`: `NAMED` false), followed by a block of low bytes
/// (QuakeForge's `MD16`: `LOW` true). See [`SimpleFrame`], [`QTestPose`] and [`Md16Pose`].
#[derive(Debug, Clone, PartialEq)]
pub struct PoseOf<const NAMED: bool, const LOW: bool> {
    /// Packed bounding box minimum (`MD16`: high bytes only).
    pub bboxmin: Vertex,
    /// Packed bounding box maximum (`MD16`: high bytes only).
    pub bboxmax: Vertex,
    /// Frame name, 16 bytes with their original padding; zeros, and not stored, where the
    /// layout has no names (QTest).
    pub name: [u8; 16],
    /// `num_verts` vertices (`MD16`: the high bytes and the normal index the renderers use).
    pub verts: Vec<Vertex>,
    /// `MD16`: `num_verts` vertices holding the low byte of each coordinate, 8.8 fixed point
    /// (position = `scale * (v + low / 256) + translate`), and a normal byte (QuakeForge's
    /// exporter repeats the high block's; its software renderer reads this one). Empty in the
    /// other layouts.
    pub low: Vec<Vertex>,
}

/// One pose of Quake and Hexen II files (`daliasframe_t` and its vertices).
pub type SimpleFrame = PoseOf<true, false>;
/// A QTest pose: bounding box and vertices, no name (FTEQW's `qtestaliasframe_t`).
pub type QTestPose = PoseOf<false, false>;
/// An `MD16` pose: Quake's pose followed by a second block of `num_verts` packed vertices,
/// the low bytes ([`PoseOf::low`]).
pub type Md16Pose = PoseOf<true, true>;

impl<const NAMED: bool, const LOW: bool> Pose for PoseOf<NAMED, LOW> {
    const NAMED: bool = NAMED;
    const LOW: bool = LOW;
    fn bounds(&self) -> [Vertex; 2] {
        [self.bboxmin, self.bboxmax]
    }
    fn name(&self) -> &[u8] {
        if NAMED {
            &self.name
        } else {
            &[]
        }
    }
    fn verts(&self) -> &[Vertex] {
        &self.verts
    }
    fn low(&self) -> &[Vertex] {
        if LOW {
            &self.low
        } else {
            &[]
        }
    }
    fn from_parts(
        [bboxmin, bboxmax]: [Vertex; 2],
        name: [u8; 16],
        verts: Vec<Vertex>,
        low: Vec<Vertex>,
    ) -> Self {
        PoseOf {
            bboxmin,
            bboxmax,
            name: if NAMED { name } else { [0; 16] },
            verts,
            low: if LOW { low } else { Vec::new() },
        }
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

mod sealed {
    pub trait Sealed {}
}

/// One of the four layouts of the format: the types its header, poses and triangles have.
/// Implemented by [`Quake`], [`QTest`], [`Md16`] and [`Hexen2`] only (sealed); every function
/// taking an [`MdlFile`] is compiled once per layout, so the differences cost nothing at run
/// time.
pub trait Layout:
    sealed::Sealed + fmt::Debug + Clone + Copy + PartialEq + Send + Sync + 'static
{
    /// The header as stored ([`Header`], [`QTestHeader`], [`Hexen2Header`]).
    type Header: HeaderLayout;
    /// One pose ([`SimpleFrame`], [`QTestPose`], [`Md16Pose`]).
    type Pose: Pose + fmt::Debug + Clone + PartialEq + Send + Sync;
    /// One triangle ([`Triangle`], [`Hexen2Triangle`]).
    type Triangle: TriangleLayout;
    /// The layout's variant.
    const VARIANT: Variant;
}

/// The layout of Quake's `IDPO` version 6 files ([`File`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quake;
/// The layout of QTest's `IDPO` version 3 files ([`QTestFile`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct QTest;
/// The layout of QuakeForge's `MD16` files ([`Md16File`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Md16;
/// The layout of Hexen II's `RAPO` files ([`Hexen2File`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hexen2;

/// Seals and implements [`Layout`] for each layout: its header, pose and triangle types;
/// its variant is the [`Variant`] of the same name.
macro_rules! layouts {
    ($($layout:ident: $header:ty, $pose:ty, $triangle:ty;)*) => {$(
        impl sealed::Sealed for $layout {}
        impl Layout for $layout {
            type Header = $header;
            type Pose = $pose;
            type Triangle = $triangle;
            const VARIANT: Variant = Variant::$layout;
        }
    )*};
}

layouts! {
    Quake: Header, SimpleFrame, Triangle;
    QTest: QTestHeader, QTestPose, Triangle;
    Md16: Header, Md16Pose, Triangle;
    Hexen2: Hexen2Header, SimpleFrame, Hexen2Triangle;
}

/// What every header layout has: Quake's fields, and how the reader builds one.
pub trait HeaderLayout: fmt::Debug + Clone + Copy + PartialEq + Send + Sync {
    /// Whether Quake's `flags` and `size` follow `synctype` (all but QTest's header).
    const FLAGS: bool;
    /// Whether `num_st_verts` ends the header (Hexen II's).
    const ST_VERTS: bool;
    /// Quake's header fields (QTest's with `flags` and `size` 0, Hexen II's first 84 bytes).
    fn quake(&self) -> Header;
    /// Hexen II's `num_st_verts`; `None` for the headers without one.
    fn num_st_verts(&self) -> Option<i32>;
    /// The header from the fields every layout has (`common`, its `flags` and `size` 0) and
    /// the ones it may add (each read only where [`HeaderLayout::FLAGS`] and
    /// [`HeaderLayout::ST_VERTS`] say, else 0).
    fn from_parts(common: Header, flags: i32, size: f32, num_st_verts: i32) -> Self;
}

impl HeaderLayout for Header {
    const FLAGS: bool = true;
    const ST_VERTS: bool = false;
    fn quake(&self) -> Header {
        *self
    }
    fn num_st_verts(&self) -> Option<i32> {
        None
    }
    fn from_parts(common: Header, flags: i32, size: f32, _: i32) -> Header {
        Header {
            flags,
            size,
            ..common
        }
    }
}

impl HeaderLayout for QTestHeader {
    const FLAGS: bool = false;
    const ST_VERTS: bool = false;
    fn quake(&self) -> Header {
        self.to_quake()
    }
    fn num_st_verts(&self) -> Option<i32> {
        None
    }
    fn from_parts(common: Header, _: i32, _: f32, _: i32) -> QTestHeader {
        QTestHeader::new(common)
    }
}

impl HeaderLayout for Hexen2Header {
    const FLAGS: bool = true;
    const ST_VERTS: bool = true;
    fn quake(&self) -> Header {
        self.mdl
    }
    fn num_st_verts(&self) -> Option<i32> {
        Some(self.num_st_verts)
    }
    fn from_parts(common: Header, flags: i32, size: f32, num_st_verts: i32) -> Self {
        Hexen2Header {
            mdl: Header::from_parts(common, flags, size, 0),
            num_st_verts,
        }
    }
}

/// The texture coordinates and triangles of a file as read, with what the frames after them
/// are sized by.
#[derive(Debug, Clone, PartialEq)]
pub struct Geometry<T> {
    /// The texture coordinates.
    pub texcoords: Vec<TexCoord>,
    /// The triangles.
    pub triangles: Vec<T>,
    /// Vertices per pose (checked).
    pub num_verts: usize,
    /// The most mesh vertices the conversion can make (what a pose costs once decoded).
    pub mesh_verts: u64,
}

/// How a triangle layout's texture coordinates and triangles are read, written and made
/// into a mesh: Quake's one texture coordinate per vertex ([`Triangle`]) or Hexen II's
/// separately indexed ones ([`Hexen2Triangle`]). The bodies are in `geometry.rs`.
pub trait TriangleLayout: fmt::Debug + Clone + Copy + PartialEq + Send + Sync + Sized {
    /// Reads the texture coordinates and triangles that follow the skins, every index
    /// checked (`num_st_verts`: Hexen II's count of texture coordinates).
    fn read_geometry(
        r: &mut Reader<'_>,
        h: &Header,
        num_st_verts: Option<i32>,
        limits: &Limits,
        budget: &mut Budget,
    ) -> Result<Geometry<Self>>;
    /// Writes the texture coordinates and triangles.
    fn write_geometry(w: &mut Writer, texcoords: &[TexCoord], triangles: &[Self]);
    /// The mesh of every pose of `file` (its header's Quake fields `h`), and the number of
    /// normals past the table when the mesh counted them (see `convert.rs`).
    fn mesh<L: Layout<Triangle = Self>>(
        file: &MdlFile<'_, L>,
        h: &Header,
        seam_rule: SeamRule,
    ) -> (Mesh, Option<usize>);
}

/// A whole file of one layout `L`. Pixel data and trailing bytes borrow from the input when
/// parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct MdlFile<'a, L: Layout> {
    /// The header.
    pub header: L::Header,
    /// `num_skins` skin entries.
    pub skins: Vec<Skin<'a>>,
    /// The texture coordinates: `num_verts` (Hexen II: `num_st_verts`).
    pub texcoords: Vec<TexCoord>,
    /// `num_tris` triangles.
    pub triangles: Vec<L::Triangle>,
    /// `num_frames` frame entries.
    pub frames: Vec<Frame<L::Pose>>,
    /// Bytes after the last frame (qME's `QMEX` chunk and the like), kept verbatim.
    pub trailing: Cow<'a, [u8]>,
}

/// A whole Quake (`IDPO` version 6) file.
pub type File<'a> = MdlFile<'a, Quake>;
/// A whole QTest (`IDPO` version 3) file: Quake's layout with the shorter header
/// ([`QTestHeader`]) and nameless poses ([`QTestPose`]).
pub type QTestFile<'a> = MdlFile<'a, QTest>;
/// A whole QuakeForge `MD16` file: Quake's layout (the same 84-byte header, version 6;
/// `scale` applies to the high bytes) with a low-byte block after each pose's vertices
/// ([`Md16Pose`]).
pub type Md16File<'a> = MdlFile<'a, Md16>;
/// A whole Hexen II `RAPO` file: the 88-byte header ([`Hexen2Header`]), `num_st_verts`
/// texture coordinates, triangles with separate vertex and texture-coordinate indices
/// ([`Hexen2Triangle`]), Quake's frames.
pub type Hexen2File<'a> = MdlFile<'a, Hexen2>;

impl<L: Layout> MdlFile<'_, L> {
    /// The file's layout.
    pub fn variant(&self) -> Variant {
        L::VARIANT
    }

    /// Quake's header fields (QTest's with `flags` and `size` 0, Hexen II's first 84 bytes).
    pub fn quake_header(&self) -> Header {
        self.header.quake()
    }

    /// Every pose in file order, group members included.
    pub fn poses(&self) -> impl Iterator<Item = &L::Pose> {
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

    /// Converts borrowed pixel data into owned data, detaching the file from its input.
    pub fn into_owned(self) -> MdlFile<'static, L> {
        MdlFile {
            header: self.header,
            skins: own_skins(self.skins),
            texcoords: self.texcoords,
            triangles: self.triangles,
            frames: self.frames,
            trailing: own(self.trailing),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// QTest (`IDPO` version 3)

/// The 76-byte header of a QTest file: Quake's `mdl_t` up to `synctype`, without `flags` and
/// `size` (FTEQW reads `offsetof(dmdl_t, flags)` bytes; QuakeForge's `mdl.py` reads `flags`
/// and `size` only for version 6). Held as a Quake [`Header`] whose `flags` and `size` are 0
/// (engines give QTest models no flags), read through `Deref`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QTestHeader(Header);

impl QTestHeader {
    /// The QTest header with Quake's fields; `flags` and `size`, which the file has no room
    /// for, become 0.
    pub fn new(h: Header) -> Self {
        QTestHeader(Header {
            flags: 0,
            size: 0.0,
            ..h
        })
    }

    /// The same fields as a Quake [`Header`], with `flags` and `size` 0: what conversion,
    /// validation and summaries share with Quake.
    pub fn to_quake(&self) -> Header {
        self.0
    }
}

impl std::ops::Deref for QTestHeader {
    type Target = Header;
    fn deref(&self) -> &Header {
        &self.0
    }
}

/// Editing the counts in place (`header.num_frames = ...`), as with Quake's header. `flags`
/// and `size` set this way are not stored: the file has no room for them.
impl std::ops::DerefMut for QTestHeader {
    fn deref_mut(&mut self) -> &mut Header {
        &mut self.0
    }
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

pub use crate::io::names::name_str;
