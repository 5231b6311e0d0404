//! On-disk structures of a Quake 3 MD3 file, field for field, named as in ioquake3's
//! `qfiles.h` (`md3Header_t`, `md3Frame_t`, `md3Tag_t`, `md3Surface_t`, `md3Shader_t`,
//! `md3Triangle_t`, `md3St_t`, `md3XyzNormal_t`).
//!
//! Nothing here is interpreted: names keep their padding, floats their bits, the shader index
//! its in-game value, and every byte no section claims (holes between sections, data after the
//! last surface or after `ofs_end`) is kept with its offset, so that [`File::write`] reproduces
//! an unmodified file byte for byte with every section at its original offset.

use crate::io::Gap;
use crate::math::det;

/// The magic at offset 0: `IDP3`.
pub const IDENT: [u8; 4] = *b"IDP3";
/// The only version Quake 3 reads.
pub const VERSION: i32 = 15;
/// Size of the file header in bytes.
pub const HEADER_SIZE: usize = 108;
/// Size of a frame record in bytes.
pub const FRAME_SIZE: usize = 56;
/// Size of a tag record in bytes.
pub const TAG_SIZE: usize = 112;
/// Size of a surface header in bytes.
pub const SURFACE_HEADER_SIZE: usize = 108;
/// Size of a shader record in bytes.
pub const SHADER_SIZE: usize = 68;
/// Bytes of a path (`MAX_QPATH`).
pub const MAX_QPATH: usize = 64;
/// Model units per stored vertex unit: positions are `i16 / 64` (`MD3_XYZ_SCALE`).
pub const XYZ_SCALE: f32 = 1.0 / 64.0;

/// The 108-byte file header (`md3Header_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Format version; 15.
    pub version: i32,
    /// Model name (often the path it was exported to), 64 bytes with their padding.
    pub name: [u8; MAX_QPATH],
    /// Flags (unused by Quake 3; kept).
    pub flags: i32,
    /// Number of frames.
    pub num_frames: i32,
    /// Number of tags in each frame.
    pub num_tags: i32,
    /// Number of surfaces.
    pub num_surfaces: i32,
    /// Number of skins (unused by Quake 3; kept).
    pub num_skins: i32,
    /// Offset of the frames.
    pub ofs_frames: i32,
    /// Offset of the tags: `num_frames * num_tags` records, frame by frame.
    pub ofs_tags: i32,
    /// Offset of the first surface; each next one follows at its predecessor's `ofs_end`.
    pub ofs_surfaces: i32,
    /// End of the model data (what Quake 3 copies); the file may be longer.
    pub ofs_end: i32,
}

impl Default for Header {
    fn default() -> Self {
        Header {
            version: VERSION,
            name: [0; MAX_QPATH],
            flags: 0,
            num_frames: 0,
            num_tags: 0,
            num_surfaces: 0,
            num_skins: 0,
            ofs_frames: 0,
            ofs_tags: 0,
            ofs_surfaces: 0,
            ofs_end: 0,
        }
    }
}

/// One frame's bounds and name (`md3Frame_t`); the vertices are in the surfaces.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    /// Minimum and maximum corner of every surface's vertices in this frame.
    pub bounds: [[f32; 3]; 2],
    /// Centre used for culling (`localOrigin`).
    pub local_origin: [f32; 3],
    /// Radius of a sphere around `local_origin` holding the frame.
    pub radius: f32,
    /// Frame name, 16 bytes with their padding (exporters write `(from ASE)`, `MilkShape 3D`...).
    pub name: [u8; 16],
}

/// An attachment point in one frame (`md3Tag_t`): `tag_head`, `tag_torso`, `tag_weapon`...
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tag {
    /// Tag name, 64 bytes with their padding.
    pub name: [u8; MAX_QPATH],
    /// Position in model units.
    pub origin: [f32; 3],
    /// The attached model's x, y and z axes in this model's space (rows of `axis[3][3]`).
    pub axis: [[f32; 3]; 3],
}

/// The 108-byte surface header (`md3Surface_t`). Its offsets count from the surface's start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurfaceHeader {
    /// Surface ident (`IDP3` in files from id's tools; Quake 3 does not check it).
    pub ident: [u8; 4],
    /// Surface name, 64 bytes with their padding (what `.skin` files name).
    pub name: [u8; MAX_QPATH],
    /// Flags (unused; kept).
    pub flags: i32,
    /// Frames of vertices this surface stores (the model's `num_frames` in every sane file).
    pub num_frames: i32,
    /// Number of shaders.
    pub num_shaders: i32,
    /// Vertices per frame (also the number of texture coordinates).
    pub num_verts: i32,
    /// Number of triangles.
    pub num_triangles: i32,
    /// Offset of the triangles from the surface start.
    pub ofs_triangles: i32,
    /// Offset of the shaders from the surface start.
    pub ofs_shaders: i32,
    /// Offset of the texture coordinates from the surface start.
    pub ofs_st: i32,
    /// Offset of the vertices (`num_verts * num_frames`) from the surface start.
    pub ofs_xyz_normals: i32,
    /// Offset of the next surface from this one's start.
    pub ofs_end: i32,
}

impl Default for SurfaceHeader {
    fn default() -> Self {
        SurfaceHeader {
            ident: IDENT,
            name: [0; MAX_QPATH],
            flags: 0,
            num_frames: 0,
            num_shaders: 0,
            num_verts: 0,
            num_triangles: 0,
            ofs_triangles: 0,
            ofs_shaders: 0,
            ofs_st: 0,
            ofs_xyz_normals: 0,
            ofs_end: 0,
        }
    }
}

/// A shader reference (`md3Shader_t`): a shader name or picture path, and an index the game
/// fills in at load time (stored values are kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shader {
    /// Shader name, 64 bytes with their padding (`models/players/sarge/band.tga`).
    pub name: [u8; MAX_QPATH],
    /// In-game shader index (meaningless on disk; kept).
    pub shader_index: i32,
}

/// A vertex of one frame (`md3XyzNormal_t`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct XyzNormal {
    /// Position in 1/64 model units ([`XYZ_SCALE`]).
    pub xyz: [i16; 3],
    /// Normal as latitude (high byte) and longitude (low byte), each a fraction of a turn
    /// in 256 steps (see [`decode_normal`]).
    pub normal: u16,
}

impl XyzNormal {
    /// The position in model units.
    pub fn position(&self) -> [f32; 3] {
        self.xyz.map(|v| v as f32 * XYZ_SCALE)
    }
}

/// Decodes a latitude/longitude normal as ioquake3's `R_LoadMD3` does: with `lat` the high
/// byte and `lng` the low byte, each `* 2π / 256`, the normal is
/// `(cos lat · sin lng, sin lat · sin lng, cos lng)`.
pub fn decode_normal(normal: u16) -> [f32; 3] {
    let table = normal_table();
    let (sin_lat, cos_lat) = table[usize::from((normal >> 8) as u8)];
    let (sin_lng, cos_lng) = table[usize::from(normal as u8)];
    [cos_lat * sin_lng, sin_lat * sin_lng, cos_lng]
}

/// `(sin, cos)` of each of the 256 angles `i * 2π / 256` (`f32`, through [`det`]): the same
/// values as computing them per vertex, once.
fn normal_table() -> &'static [(f32, f32); 256] {
    static TABLE: std::sync::OnceLock<[(f32, f32); 256]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let step = std::f32::consts::TAU / 256.0;
        std::array::from_fn(|i| {
            let a = f32::from(i as u8) * step;
            (det::sin(a), det::cos(a))
        })
    })
}

/// Encodes a unit normal to the latitude/longitude the engine decodes closest to it: the
/// poles as q3map and id's tools write them (`0` for +z, `128` for -z), others rounded to the
/// nearest of 256 steps.
pub fn encode_normal(n: [f32; 3]) -> u16 {
    if n[0] == 0.0 && n[1] == 0.0 {
        return if n[2] >= 0.0 { 0 } else { 128 };
    }
    let step = std::f32::consts::TAU / 256.0;
    let lat = (det::atan2(n[1], n[0]) / step).round().rem_euclid(256.0) as u16;
    let lng = (det::acos(n[2].clamp(-1.0, 1.0)) / step)
        .round()
        .rem_euclid(256.0) as u16;
    (lat << 8) | lng
}

/// A surface: one mesh with its own shaders, triangles, texture coordinates and vertices.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    /// The header; its offsets place the sections within the surface.
    pub header: SurfaceHeader,
    /// `num_shaders` shaders (the first is drawn; a `.skin` file may replace it).
    pub shaders: Vec<Shader>,
    /// `num_triangles` triangles as indices into the vertices, checked at parse time.
    pub triangles: Vec<[i32; 3]>,
    /// `num_verts` texture coordinates, `[0, 1]` across the picture, `t` downwards.
    pub st: Vec<[f32; 2]>,
    /// `num_verts * num_frames` vertices, frame by frame.
    pub xyz_normals: Vec<XyzNormal>,
}

impl Surface {
    /// The vertices of frame `frame` (empty when the surface stores fewer frames).
    pub fn frame_vertices(&self, frame: usize) -> &[XyzNormal] {
        let n = self.header.num_verts.max(0) as usize;
        self.xyz_normals
            .get(frame * n..(frame + 1) * n)
            .unwrap_or(&[])
    }

    /// The surface name up to its first NUL.
    pub fn name(&self) -> String {
        name_str(&self.header.name)
    }

    /// The shader names up to their first NUL.
    pub fn shader_names(&self) -> impl Iterator<Item = String> + '_ {
        self.shaders.iter().map(|s| name_str(&s.name))
    }
}

/// A whole MD3 file. Unclaimed bytes borrow from the input when parsed.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header, offsets included: the writer puts each section at its offset.
    pub header: Header,
    /// `num_frames` frames.
    pub frames: Vec<Frame>,
    /// `num_frames * num_tags` tags, frame by frame.
    pub tags: Vec<Tag>,
    /// `num_surfaces` surfaces, in chain order.
    pub surfaces: Vec<Surface>,
    /// Bytes outside every section (holes, trailing data), in offset order.
    pub gaps: Vec<Gap<'a>>,
}

impl File<'static> {
    /// A file of these sections named `name` (cut to `MAX_QPATH` bytes), every count and
    /// offset set ([`File::relayout`]), no gaps.
    pub fn laid_out(
        name: &str,
        frames: Vec<Frame>,
        tags: Vec<Tag>,
        surfaces: Vec<Surface>,
    ) -> Self {
        let mut file = File {
            header: Header {
                name: crate::io::names::name_field::<MAX_QPATH>(name).0,
                ..Header::default()
            },
            frames,
            tags,
            surfaces,
            gaps: Vec::new(),
        };
        file.relayout();
        file
    }
}

impl File<'_> {
    /// The model name up to its first NUL.
    pub fn name(&self) -> String {
        name_str(&self.header.name)
    }

    /// The tags of frame `frame` (empty when there is no such frame).
    pub fn frame_tags(&self, frame: usize) -> &[Tag] {
        let n = self.header.num_tags.max(0) as usize;
        self.tags.get(frame * n..(frame + 1) * n).unwrap_or(&[])
    }

    /// The tag names of the first frame (every frame has the same tags in files from id's
    /// tools).
    pub fn tag_names(&self) -> Vec<String> {
        self.frame_tags(0)
            .iter()
            .map(|t| name_str(&t.name))
            .collect()
    }

    /// Where each surface starts in the file: the first at `ofs_surfaces`, each next one at
    /// its predecessor's start plus `ofs_end`.
    pub fn surface_offsets(&self) -> Vec<i64> {
        let mut at = i64::from(self.header.ofs_surfaces);
        self.surfaces
            .iter()
            .map(|s| {
                let start = at;
                at += i64::from(s.header.ofs_end);
                start
            })
            .collect()
    }

    /// Total bytes outside every section.
    pub fn gap_bytes(&self) -> usize {
        self.gaps.iter().map(|g| g.bytes.len()).sum()
    }

    /// Sets every count and offset from the vectors in id's order (frames, tags, surfaces;
    /// within a surface: shaders, triangles, texture coordinates, vertices) and drops the
    /// gaps. Call it after editing a `File`; files made by [`super::from_model`] are laid
    /// out already.
    pub fn relayout(&mut self) {
        let h = &mut self.header;
        h.num_frames = self.frames.len() as i32;
        h.num_surfaces = self.surfaces.len() as i32;
        h.num_tags = if self.frames.is_empty() {
            0
        } else {
            (self.tags.len() / self.frames.len()) as i32
        };
        h.ofs_frames = HEADER_SIZE as i32;
        h.ofs_tags = h.ofs_frames + (FRAME_SIZE * self.frames.len()) as i32;
        h.ofs_surfaces = h.ofs_tags + (TAG_SIZE * self.tags.len()) as i32;
        let mut end = h.ofs_surfaces;
        for s in &mut self.surfaces {
            let sh = &mut s.header;
            sh.num_shaders = s.shaders.len() as i32;
            sh.num_triangles = s.triangles.len() as i32;
            sh.num_verts = s.st.len() as i32;
            sh.num_frames = if s.st.is_empty() {
                sh.num_frames
            } else {
                (s.xyz_normals.len() / s.st.len()) as i32
            };
            sh.ofs_shaders = SURFACE_HEADER_SIZE as i32;
            sh.ofs_triangles = sh.ofs_shaders + (SHADER_SIZE * s.shaders.len()) as i32;
            sh.ofs_st = sh.ofs_triangles + (12 * s.triangles.len()) as i32;
            sh.ofs_xyz_normals = sh.ofs_st + (8 * s.st.len()) as i32;
            sh.ofs_end = sh.ofs_xyz_normals + (8 * s.xyz_normals.len()) as i32;
            end += sh.ofs_end;
        }
        h.ofs_end = end;
        self.gaps.clear();
    }

    /// Converts borrowed data into owned data, detaching the file from its input.
    pub fn into_owned(self) -> File<'static> {
        File {
            header: self.header,
            frames: self.frames,
            tags: self.tags,
            surfaces: self.surfaces,
            gaps: self.gaps.into_iter().map(Gap::into_owned).collect(),
        }
    }
}

pub use crate::io::names::{name_field, name_str};
