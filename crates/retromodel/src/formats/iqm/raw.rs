//! On-disk structures of an IQM file, field for field, named as in lsalzman/iqm's `iqm.h`
//! (`iqmheader`, `iqmmesh`, `iqmvertexarray`, `iqmjoint`, `iqmpose`, `iqmanim`, `iqmbounds`,
//! `iqmextension`; version 1's `iqmjointv1` and `iqmposev1` in the same structs, with the
//! version deciding their size).
//!
//! Nothing here is interpreted: floats keep their bits, vertex arrays and frames their raw
//! values, the text table and comment their bytes, and every byte no section claims (holes,
//! alignment padding, data past `filesize`, a comment longer than `num_comment`) is kept with
//! its offset, so that [`File::write`] gives an unmodified file back byte for byte.

use std::borrow::Cow;

use crate::io::Gap;

/// The magic at offset 0: `INTERQUAKEMODEL` and a NUL.
pub const MAGIC: [u8; 16] = *b"INTERQUAKEMODEL\0";
/// The current version.
pub const VERSION: u32 = 2;
/// Size of the header in bytes: the magic and 27 `u32` fields.
pub const HEADER_SIZE: usize = 124;
/// Size of a mesh record.
pub const MESH_SIZE: usize = 24;
/// Size of a vertex array record.
pub const VERTEX_ARRAY_SIZE: usize = 20;
/// Size of a triangle (three `u32` indices), and of its adjacency record.
pub const TRIANGLE_SIZE: usize = 12;
/// Size of an animation record.
pub const ANIM_SIZE: usize = 20;
/// Size of a frame's bounds record.
pub const BOUNDS_SIZE: usize = 32;
/// Size of an extension record.
pub const EXTENSION_SIZE: usize = 16;
/// The `flags` bit of an animation that loops (`IQM_LOOP`).
pub const LOOP: u32 = 1;

/// Size of a joint record in `version`: 48 bytes (44 in version 1, whose rotation has three
/// components).
pub const fn joint_size(version: u32) -> usize {
    if version == 1 {
        44
    } else {
        48
    }
}

/// Channels of a pose in `version`: translation, rotation and scale, 10 (9 in version 1).
pub const fn pose_channels(version: u32) -> usize {
    if version == 1 {
        9
    } else {
        10
    }
}

/// Size of a pose record in `version`: parent, mask, then an offset and a scale per channel.
pub const fn pose_size(version: u32) -> usize {
    8 + 8 * pose_channels(version)
}

/// The 124-byte header (`iqmheader`): the magic, then these 27 fields in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[allow(missing_docs)]
pub struct Header {
    /// 2 (or 1, read only).
    pub version: u32,
    /// The file size the exporter wrote (bytes past it are kept as trailing data).
    pub filesize: u32,
    /// Unused by the engines; kept.
    pub flags: u32,
    pub num_text: u32,
    pub ofs_text: u32,
    pub num_meshes: u32,
    pub ofs_meshes: u32,
    pub num_vertexarrays: u32,
    pub num_vertexes: u32,
    pub ofs_vertexarrays: u32,
    pub num_triangles: u32,
    pub ofs_triangles: u32,
    pub ofs_adjacency: u32,
    pub num_joints: u32,
    pub ofs_joints: u32,
    pub num_poses: u32,
    pub ofs_poses: u32,
    pub num_anims: u32,
    pub ofs_anims: u32,
    pub num_frames: u32,
    pub num_framechannels: u32,
    pub ofs_frames: u32,
    pub ofs_bounds: u32,
    pub num_comment: u32,
    pub ofs_comment: u32,
    pub num_extensions: u32,
    pub ofs_extensions: u32,
}

impl Header {
    /// The 27 fields in file order, with their names.
    pub fn fields(&self) -> [(&'static str, u32); 27] {
        [
            ("version", self.version),
            ("filesize", self.filesize),
            ("flags", self.flags),
            ("num_text", self.num_text),
            ("ofs_text", self.ofs_text),
            ("num_meshes", self.num_meshes),
            ("ofs_meshes", self.ofs_meshes),
            ("num_vertexarrays", self.num_vertexarrays),
            ("num_vertexes", self.num_vertexes),
            ("ofs_vertexarrays", self.ofs_vertexarrays),
            ("num_triangles", self.num_triangles),
            ("ofs_triangles", self.ofs_triangles),
            ("ofs_adjacency", self.ofs_adjacency),
            ("num_joints", self.num_joints),
            ("ofs_joints", self.ofs_joints),
            ("num_poses", self.num_poses),
            ("ofs_poses", self.ofs_poses),
            ("num_anims", self.num_anims),
            ("ofs_anims", self.ofs_anims),
            ("num_frames", self.num_frames),
            ("num_framechannels", self.num_framechannels),
            ("ofs_frames", self.ofs_frames),
            ("ofs_bounds", self.ofs_bounds),
            ("num_comment", self.num_comment),
            ("ofs_comment", self.ofs_comment),
            ("num_extensions", self.num_extensions),
            ("ofs_extensions", self.ofs_extensions),
        ]
    }

    /// The header from its 27 fields in file order.
    pub fn from_fields(v: [u32; 27]) -> Header {
        Header {
            version: v[0],
            filesize: v[1],
            flags: v[2],
            num_text: v[3],
            ofs_text: v[4],
            num_meshes: v[5],
            ofs_meshes: v[6],
            num_vertexarrays: v[7],
            num_vertexes: v[8],
            ofs_vertexarrays: v[9],
            num_triangles: v[10],
            ofs_triangles: v[11],
            ofs_adjacency: v[12],
            num_joints: v[13],
            ofs_joints: v[14],
            num_poses: v[15],
            ofs_poses: v[16],
            num_anims: v[17],
            ofs_anims: v[18],
            num_frames: v[19],
            num_framechannels: v[20],
            ofs_frames: v[21],
            ofs_bounds: v[22],
            num_comment: v[23],
            ofs_comment: v[24],
            num_extensions: v[25],
            ofs_extensions: v[26],
        }
    }
}

/// A mesh (`iqmmesh`): a name and material in the text table, a vertex and a triangle range.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Mesh {
    /// Offset of the name in the text table.
    pub name: u32,
    /// Offset of the material name in the text table.
    pub material: u32,
    /// First vertex of the mesh.
    pub first_vertex: u32,
    /// Number of vertices.
    pub num_vertexes: u32,
    /// First triangle of the mesh.
    pub first_triangle: u32,
    /// Number of triangles.
    pub num_triangles: u32,
}

/// What a vertex array holds (`IQM_POSITION` ..., `IQM_CUSTOM` and above).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArrayType {
    /// 0: positions.
    Position,
    /// 1: texture coordinates.
    Texcoord,
    /// 2: normals.
    Normal,
    /// 3: tangents (4 components, the fourth the bitangent's sign).
    Tangent,
    /// 4: joint indices of the blend.
    BlendIndexes,
    /// 5: joint weights of the blend.
    BlendWeights,
    /// 6: vertex colours.
    Color,
    /// 0x10 and above: custom data, named by the text at `type - 0x10`... as the exporter
    /// chose (the specification leaves the name to the `flags` or the application).
    Custom(u32),
    /// 7..0x0f: reserved.
    Reserved(u32),
}

impl ArrayType {
    /// The type of a stored `type` value.
    pub fn of(value: u32) -> ArrayType {
        match value {
            0 => ArrayType::Position,
            1 => ArrayType::Texcoord,
            2 => ArrayType::Normal,
            3 => ArrayType::Tangent,
            4 => ArrayType::BlendIndexes,
            5 => ArrayType::BlendWeights,
            6 => ArrayType::Color,
            v if v >= 0x10 => ArrayType::Custom(v),
            v => ArrayType::Reserved(v),
        }
    }

    /// The name `HEADERS.jsonl` and `info` use (`position`, `blendindexes`, `custom`).
    pub fn name(self) -> &'static str {
        match self {
            ArrayType::Position => "position",
            ArrayType::Texcoord => "texcoord",
            ArrayType::Normal => "normal",
            ArrayType::Tangent => "tangent",
            ArrayType::BlendIndexes => "blendindexes",
            ArrayType::BlendWeights => "blendweights",
            ArrayType::Color => "color",
            ArrayType::Custom(_) => "custom",
            ArrayType::Reserved(_) => "reserved",
        }
    }
}

/// The component type of a vertex array (`IQM_BYTE` 0 ... `IQM_DOUBLE` 8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ComponentFormat {
    /// 0: `i8`.
    Byte,
    /// 1: `u8`.
    UByte,
    /// 2: `i16`.
    Short,
    /// 3: `u16`.
    UShort,
    /// 4: `i32`.
    Int,
    /// 5: `u32`.
    UInt,
    /// 6: IEEE half float.
    Half,
    /// 7: `f32`.
    Float,
    /// 8: `f64`.
    Double,
}

impl ComponentFormat {
    /// Every format in the order of their values.
    pub const ALL: [ComponentFormat; 9] = [
        ComponentFormat::Byte,
        ComponentFormat::UByte,
        ComponentFormat::Short,
        ComponentFormat::UShort,
        ComponentFormat::Int,
        ComponentFormat::UInt,
        ComponentFormat::Half,
        ComponentFormat::Float,
        ComponentFormat::Double,
    ];

    /// The format of a stored value; `None` past 8.
    pub fn of(value: u32) -> Option<ComponentFormat> {
        Self::ALL.get(value as usize).copied()
    }

    /// The stored value.
    pub fn value(self) -> u32 {
        Self::ALL.iter().position(|f| *f == self).unwrap_or(0) as u32
    }

    /// Bytes of one component.
    pub fn bytes(self) -> usize {
        match self {
            ComponentFormat::Byte | ComponentFormat::UByte => 1,
            ComponentFormat::Short | ComponentFormat::UShort | ComponentFormat::Half => 2,
            ComponentFormat::Int | ComponentFormat::UInt | ComponentFormat::Float => 4,
            ComponentFormat::Double => 8,
        }
    }

    /// The name `HEADERS.jsonl` and `info` use (`ubyte`, `float`).
    pub fn name(self) -> &'static str {
        match self {
            ComponentFormat::Byte => "byte",
            ComponentFormat::UByte => "ubyte",
            ComponentFormat::Short => "short",
            ComponentFormat::UShort => "ushort",
            ComponentFormat::Int => "int",
            ComponentFormat::UInt => "uint",
            ComponentFormat::Half => "half",
            ComponentFormat::Float => "float",
            ComponentFormat::Double => "double",
        }
    }

    /// Component `i` of `data` (little-endian) as a number; integer formats give their value,
    /// not normalised.
    pub fn get(self, data: &[u8], i: usize) -> f64 {
        let n = self.bytes();
        let b = &data[i * n..i * n + n];
        match self {
            ComponentFormat::Byte => f64::from(b[0] as i8),
            ComponentFormat::UByte => f64::from(b[0]),
            ComponentFormat::Short => f64::from(i16::from_le_bytes([b[0], b[1]])),
            ComponentFormat::UShort => f64::from(u16::from_le_bytes([b[0], b[1]])),
            ComponentFormat::Int => f64::from(i32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            ComponentFormat::UInt => f64::from(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            ComponentFormat::Half => f64::from(half_to_f32(u16::from_le_bytes([b[0], b[1]]))),
            ComponentFormat::Float => f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            ComponentFormat::Double => f64::from_le_bytes(b.try_into().unwrap_or([0; 8])),
        }
    }

    /// The largest value of an unsigned integer format, the one normalised data (weights,
    /// colours) divides by; 1 for the others.
    pub fn unit(self) -> f64 {
        match self {
            ComponentFormat::UByte => 255.0,
            ComponentFormat::UShort => 65535.0,
            ComponentFormat::UInt => 4294967295.0,
            ComponentFormat::Byte => 127.0,
            ComponentFormat::Short => 32767.0,
            ComponentFormat::Int => 2147483647.0,
            _ => 1.0,
        }
    }
}

/// An IEEE 754 half float's value.
pub fn half_to_f32(h: u16) -> f32 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1f);
    let frac = f32::from(h & 0x3ff);
    match exp {
        0 => sign * frac * (2f32).powi(-24),
        31 if frac == 0.0 => sign * f32::INFINITY,
        31 => f32::NAN,
        e => sign * (1.0 + frac / 1024.0) * (2f32).powi(e - 15),
    }
}

/// A vertex array (`iqmvertexarray`) and its data: `num_vertexes × size` components.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexArray<'a> {
    /// What it holds ([`ArrayType::of`]).
    pub kind: u32,
    /// Flags (unused by the engines; kept).
    pub flags: u32,
    /// The component type ([`ComponentFormat::of`]).
    pub format: u32,
    /// Components per vertex.
    pub size: u32,
    /// Offset of the data.
    pub offset: u32,
    /// The data as stored, little-endian.
    pub data: Cow<'a, [u8]>,
}

impl VertexArray<'_> {
    /// What the array holds.
    pub fn array_type(&self) -> ArrayType {
        ArrayType::of(self.kind)
    }

    /// Its component type (checked when parsed).
    pub fn component_format(&self) -> ComponentFormat {
        ComponentFormat::of(self.format).unwrap_or(ComponentFormat::Float)
    }

    /// Component `c` of vertex `v` as stored (not normalised).
    pub fn get(&self, v: usize, c: usize) -> f64 {
        self.component_format()
            .get(&self.data, v * self.size as usize + c)
    }
}

/// A joint of the bind pose (`iqmjoint`), relative to its parent.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Joint {
    /// Offset of the name in the text table.
    pub name: u32,
    /// Parent joint, lower than this one, or -1.
    pub parent: i32,
    /// Translation.
    pub translate: [f32; 3],
    /// Rotation `[x, y, z, w]`; version 1 stores `x, y, z` only (`w` here is 0 and not
    /// written).
    pub rotate: [f32; 4],
    /// Scale.
    pub scale: [f32; 3],
}

/// A pose channel set (`iqmpose`): per channel (translation xyz, rotation xyzw, scale xyz; 9
/// channels in version 1, rotation xyz) a base value and the scale of the stored frame value.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pose {
    /// Parent joint, or -1.
    pub parent: i32,
    /// Which channels have a value in every frame (bit `c` for channel `c`).
    pub mask: u32,
    /// Base value of each channel (unused trailing entries 0 in version 1).
    pub channel_offset: [f32; 10],
    /// Scale of each channel's frame value.
    pub channel_scale: [f32; 10],
}

impl Pose {
    /// The channels with frame values among the first `channels`.
    pub fn animated(&self, channels: usize) -> usize {
        (0..channels).filter(|c| self.mask & (1 << c) != 0).count()
    }
}

/// An animation (`iqmanim`): a range of frames.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Anim {
    /// Offset of the name in the text table.
    pub name: u32,
    /// First frame.
    pub first_frame: u32,
    /// Number of frames.
    pub num_frames: u32,
    /// Frames a second (0 in files whose engine configuration gives the speed).
    pub framerate: f32,
    /// [`LOOP`] and other bits, kept.
    pub flags: u32,
}

/// The bounds of one frame (`iqmbounds`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Bounds {
    /// Minimum corner.
    pub bbmin: [f32; 3],
    /// Maximum corner.
    pub bbmax: [f32; 3],
    /// Radius in the XY plane.
    pub xyradius: f32,
    /// Radius.
    pub radius: f32,
}

/// An extension (`iqmextension`), its data kept as bytes; extensions are chained by
/// `ofs_extensions`.
#[derive(Debug, Clone, PartialEq)]
pub struct Extension<'a> {
    /// Where the record is.
    pub at: u32,
    /// Offset of the name in the text table.
    pub name: u32,
    /// Bytes of data.
    pub num_data: u32,
    /// Offset of the data.
    pub ofs_data: u32,
    /// Offset of the next extension record (0 for none).
    pub ofs_extensions: u32,
    /// The data.
    pub data: Cow<'a, [u8]>,
}

/// A parsed IQM file. Gaps borrow from the input.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header.
    pub header: Header,
    /// The text table (`num_text` bytes of NUL-terminated names).
    pub text: Cow<'a, [u8]>,
    /// The meshes.
    pub meshes: Vec<Mesh>,
    /// The vertex arrays with their data.
    pub vertex_arrays: Vec<VertexArray<'a>>,
    /// The triangles, indices into the vertices.
    pub triangles: Vec<[u32; 3]>,
    /// Per triangle, the triangles across its edges (`u32::MAX`: none); empty when the file
    /// stores none.
    pub adjacency: Vec<[u32; 3]>,
    /// The joints.
    pub joints: Vec<Joint>,
    /// The poses (one per joint of the skeleton the frames animate).
    pub poses: Vec<Pose>,
    /// The animations.
    pub anims: Vec<Anim>,
    /// The frames' channel values, `num_frames × num_framechannels` little-endian `u16`s,
    /// frame by frame, as stored (see [`File::frame_values`]).
    pub frames: Cow<'a, [u8]>,
    /// Per frame bounds; empty when the file stores none.
    pub bounds: Vec<Bounds>,
    /// The comment's `num_comment` bytes.
    pub comment: Cow<'a, [u8]>,
    /// The extensions in chain order.
    pub extensions: Vec<Extension<'a>>,
    /// Bytes no section claims, with their offsets.
    pub gaps: Vec<Gap<'a>>,
}

impl File<'static> {
    /// A file of `header` with every section empty, for writers and fixtures to fill (then
    /// [`File::relayout`]).
    pub fn empty(header: Header) -> File<'static> {
        File {
            header,
            text: Cow::Owned(Vec::new()),
            meshes: Vec::new(),
            vertex_arrays: Vec::new(),
            triangles: Vec::new(),
            adjacency: Vec::new(),
            joints: Vec::new(),
            poses: Vec::new(),
            anims: Vec::new(),
            frames: Cow::Owned(Vec::new()),
            bounds: Vec::new(),
            comment: Cow::Owned(Vec::new()),
            extensions: Vec::new(),
            gaps: Vec::new(),
        }
    }
}

impl File<'_> {
    /// The name at `offset` in the text table (up to its NUL), `""` past the end; UTF-8,
    /// or else Latin-1 (Cube 2's exporter wrote Windows material names byte for byte).
    pub fn text_at(&self, offset: u32) -> String {
        let t = self.text.get(offset as usize..).unwrap_or(&[]);
        let end = t.iter().position(|&b| b == 0).unwrap_or(t.len());
        match std::str::from_utf8(&t[..end]) {
            Ok(s) => s.to_string(),
            Err(_) => t[..end].iter().map(|&b| char::from(b)).collect(),
        }
    }

    /// The frames' channel values, decoded.
    pub fn frame_values(&self) -> impl Iterator<Item = u16> + '_ {
        self.frames
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
    }

    /// Sets the frames' channel values (stored little-endian).
    pub fn set_frame_values(&mut self, values: &[u16]) {
        self.frames = Cow::Owned(values.iter().flat_map(|v| v.to_le_bytes()).collect());
    }

    /// The first vertex array of `kind`.
    pub fn array(&self, kind: ArrayType) -> Option<&VertexArray<'_>> {
        self.vertex_arrays.iter().find(|a| a.array_type() == kind)
    }

    /// Channels a pose has in this file's version (10, or 9 in version 1).
    pub fn channels(&self) -> usize {
        pose_channels(self.header.version)
    }

    /// Bytes kept outside the sections (gaps, padding, trailing data).
    pub fn gap_bytes(&self) -> usize {
        self.gaps.iter().map(|g| g.bytes.len()).sum()
    }

    /// The same file, detached from its input.
    pub fn into_owned(self) -> File<'static> {
        File {
            header: self.header,
            text: Cow::Owned(self.text.into_owned()),
            meshes: self.meshes,
            vertex_arrays: self
                .vertex_arrays
                .into_iter()
                .map(|a| VertexArray {
                    data: Cow::Owned(a.data.into_owned()),
                    ..a
                })
                .collect(),
            triangles: self.triangles,
            adjacency: self.adjacency,
            joints: self.joints,
            poses: self.poses,
            anims: self.anims,
            frames: Cow::Owned(self.frames.into_owned()),
            bounds: self.bounds,
            comment: Cow::Owned(self.comment.into_owned()),
            extensions: self
                .extensions
                .into_iter()
                .map(|e| Extension {
                    data: Cow::Owned(e.data.into_owned()),
                    ..e
                })
                .collect(),
            gaps: self.gaps.into_iter().map(|g| g.into_owned()).collect(),
        }
    }
}
