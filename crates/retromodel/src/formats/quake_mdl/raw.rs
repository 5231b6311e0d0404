//! On-disk structures of a Quake MDL file, field for field, named as in Quake's `modelgen.h`.
//!
//! Nothing here is interpreted: values are kept exactly as stored (unknown flag bits, the
//! on-seam word, non-zero group type words, trailing bytes) so that
//! [`File::write`](File::write) reproduces an unmodified file byte for byte.

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

/// The 84-byte header (`mdl_t` in `modelgen.h`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Header {
    /// Format version; 6 for Quake.
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

/// A byte-packed vertex (`trivertx_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Vertex {
    /// Packed coordinates; real = `scale * v + translate`.
    pub v: [u8; 3],
    /// Index into the 162-entry normal table.
    pub normal_index: u8,
}

/// One pose (`daliasframe_t` and its vertices).
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

/// One frame entry.
#[derive(Debug, Clone, PartialEq)]
pub enum Frame {
    /// Type word 0 followed by one pose.
    Simple(SimpleFrame),
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
        frames: Vec<SimpleFrame>,
    },
}

impl Frame {
    /// Number of poses in this entry.
    pub fn pose_count(&self) -> usize {
        match self {
            Frame::Simple(_) => 1,
            Frame::Group { frames, .. } => frames.len(),
        }
    }
}

/// A whole MDL file. Pixel data and trailing bytes borrow from the input when parsed.
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

impl File<'_> {
    /// Every pose in file order, group members included.
    pub fn poses(&self) -> impl Iterator<Item = &SimpleFrame> {
        self.frames.iter().flat_map(|f| match f {
            Frame::Simple(s) => std::slice::from_ref(s).iter(),
            Frame::Group { frames, .. } => frames.iter(),
        })
    }

    /// Number of poses, group members included.
    pub fn pose_count(&self) -> usize {
        self.frames.iter().map(Frame::pose_count).sum()
    }

    /// Number of pose vertices whose normal index lies past the 162-entry table.
    pub fn bad_normal_count(&self) -> usize {
        self.poses()
            .flat_map(|p| &p.verts)
            .filter(|v| v.normal_index as usize >= crate::formats::normals::NORMAL_COUNT)
            .count()
    }

    /// Number of skin pictures, group members included.
    pub fn picture_count(&self) -> usize {
        self.skins.iter().map(Skin::picture_count).sum()
    }

    /// Converts borrowed pixel data into owned data, detaching the file from its input.
    pub fn into_owned(self) -> File<'static> {
        let own = |c: Cow<'_, [u8]>| Cow::Owned(c.into_owned());
        File {
            header: self.header,
            skins: self
                .skins
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
                .collect(),
            texcoords: self.texcoords,
            triangles: self.triangles,
            frames: self.frames,
            trailing: own(self.trailing),
        }
    }
}

/// Decodes a fixed-size name up to its first NUL (lossy for non-UTF-8 bytes).
pub fn name_str(name: &[u8]) -> String {
    let end = name.iter().position(|&b| b == 0).unwrap_or(name.len());
    String::from_utf8_lossy(&name[..end]).into_owned()
}
