//! On-disk structures of a 3D GameStudio MDL7 file, field for field, named as in the
//! reverse-engineered layout (`specs/gamestudio-mdl7.spec.txt`) and MED's own names where
//! they are known (`bones_num`, `groupdata_size`, `md7_*_stc_size`).
//!
//! Nothing here is interpreted: every record keeps the bytes its structure size gives it
//! beyond the fields known here (`extra`), unused words are kept, and the lumps after the model
//! data (`entlump`, `medlump`) and any bytes after them are kept verbatim, so that
//! [`File::write`](File::write) reproduces an unmodified file byte for byte.

use std::borrow::Cow;

pub use crate::formats::quake_mdl::PixelFormat;
pub use crate::io::names::name_str;

/// The magic at offset 0: `MDL7`.
pub const IDENT: [u8; 4] = *b"MDL7";
/// Size of the header in bytes (magic, six 32-bit words, ten 16-bit structure sizes).
pub const HEADER_SIZE: usize = 48;
/// Size of a group header in bytes.
pub const GROUP_SIZE: usize = 44;
/// Size of a deformer header in bytes.
pub const DEFORMER_HEAD_SIZE: usize = 16;
/// Size of a deformer element before its weights: bone index, 20-byte name, weight count.
pub const DEFORMER_ELEMENT_HEAD_SIZE: usize = 28;
/// Size of one deformer weight: vertex index and weight.
pub const WEIGHT_SIZE: usize = 8;
/// Size of the material record that the structure sizes MED writes describe: four colours of
/// four floats (diffuse, ambient, specular, emissive) and the specular power.
pub const MATERIAL_SIZE: usize = 68;
/// Size of a colour (`r, g, b, a` floats) inside a material.
pub const COLOR_SIZE: usize = 16;
/// The 16-bit "none" value: no parent bone, no bone, no texture coordinate.
pub const NONE16: u16 = 0xFFFF;
/// The material index of a triangle without material.
pub const NO_MATERIAL: u32 = u32::MAX;

/// Skin type bit: three mip levels follow the picture.
pub const SKIN_MIPMAPS: u32 = 0x8;
/// Skin type bit: a material record follows the skin's data.
pub const SKIN_MATERIAL: u32 = 0x10;
/// Skin type bit: a material definition text (`i32` length and bytes) follows.
pub const SKIN_DEFINITION: u32 = 0x20;
/// Skin type (low three bits): a reference to another skin, whose index is `width`.
pub const SKIN_REFERENCE: u32 = 1;
/// Skin type (low three bits): an embedded DDS file of `width` bytes.
pub const SKIN_DDS: u32 = 6;
/// Skin type (low three bits): the name of an external picture file, `width` bytes.
pub const SKIN_EXTERNAL: u32 = 7;

/// The ten structure sizes of the header (`md7_*_stc_size`). Records are read with these
/// strides; a record longer than the fields known here keeps the rest in its `extra`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StructSizes {
    /// A bone: 16 bytes, then the name (20 bytes in MED's files, 0 or 32 in others).
    pub bone: u16,
    /// A skin record: type, width, height (12 bytes), then the name (16 bytes).
    pub skin: u16,
    /// A colour inside a material (16).
    pub colorvalue: u16,
    /// A material record (68).
    pub material: u16,
    /// A texture coordinate: `u, v` floats (8).
    pub skinpoint: u16,
    /// A triangle: 12 (one UV set), 16 (and a material), 26 (two UV sets with materials).
    pub triangle: u16,
    /// A group vertex: 16 (normal index) or 26 (full normal).
    pub mainvertex: u16,
    /// A frame vertex: 16 or 26, as `mainvertex`.
    pub framevertex: u16,
    /// A bone transform: a 4x4 matrix, the bone index and two unused bytes (68).
    pub bonetrans: u16,
    /// A frame header: name, vertex count, transform count (24).
    pub frame: u16,
}

impl StructSizes {
    /// The sizes every known MED-written file with two UV sets and full normals uses.
    pub const MED: StructSizes = StructSizes {
        bone: 36,
        skin: 28,
        colorvalue: 16,
        material: 68,
        skinpoint: 8,
        triangle: 26,
        mainvertex: 26,
        framevertex: 26,
        bonetrans: 68,
        frame: 24,
    };

    /// The sizes in file order.
    pub fn to_array(self) -> [u16; 10] {
        [
            self.bone,
            self.skin,
            self.colorvalue,
            self.material,
            self.skinpoint,
            self.triangle,
            self.mainvertex,
            self.framevertex,
            self.bonetrans,
            self.frame,
        ]
    }

    /// The sizes from their file order.
    pub fn from_array(a: [u16; 10]) -> Self {
        StructSizes {
            bone: a[0],
            skin: a[1],
            colorvalue: a[2],
            material: a[3],
            skinpoint: a[4],
            triangle: a[5],
            mainvertex: a[6],
            framevertex: a[7],
            bonetrans: a[8],
            frame: a[9],
        }
    }
}

/// The 48-byte header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// Version word after the magic (0 in every known file; any value is read).
    pub version: i32,
    /// Number of bones (shared by all groups).
    pub bones_num: i32,
    /// Number of groups.
    pub groups_num: i32,
    /// Offset of the end of the model data: header, bones, groups and deformers. The
    /// entity lump and the MED lump follow it.
    pub data_size: i32,
    /// Bytes of the entity lump after the model data.
    pub entlump_size: i32,
    /// Bytes of the MED lump (editor data) after the entity lump.
    pub medlump_size: i32,
    /// Record sizes.
    pub sizes: StructSizes,
}

/// A bone. Its position is relative to its parent (absolute for a root).
#[derive(Debug, Clone, PartialEq)]
pub struct Bone {
    /// Index of the parent bone, [`NONE16`] for a root.
    pub parent: u16,
    /// Unused word after the parent index.
    pub unused: u16,
    /// Position relative to the parent bone's position.
    pub position: [f32; 3],
    /// The name field: `md7_bone_stc_size - 16` bytes with their padding (no NUL needed).
    pub name: Vec<u8>,
}

/// A group: one mesh with its own skins, texture coordinates, vertices and frames.
#[derive(Debug, Clone, PartialEq)]
pub struct Group<'a> {
    /// Group type; 1 for a triangle mesh (the only kind known).
    pub typ: u8,
    /// Number of deformers that belong to this group (stored after the last group).
    pub deformers: u8,
    /// Most bone weights on one vertex.
    pub max_weights: u8,
    /// Unused byte.
    pub unused: u8,
    /// Bytes of the group as MED counted them; not reliable (picture data and deformers are
    /// sometimes left out), so never used for reading.
    pub groupdata_size: i32,
    /// Group name, 16 bytes with their padding.
    pub name: [u8; 16],
    /// `numskins` skins. Triangles' material indices count the skins of all groups in
    /// order (MED stores them all in the first group).
    pub skins: Vec<Skin<'a>>,
    /// `num_stpts` texture coordinates.
    pub texcoords: Vec<TexCoord>,
    /// `numtris` triangles.
    pub triangles: Vec<Triangle>,
    /// `numverts` vertices: the base pose.
    pub vertices: Vec<Vertex>,
    /// `numframes` frames.
    pub frames: Vec<Frame>,
}

/// A skin: a picture (embedded, external or a reference), an optional material and an
/// optional material definition text. Also the skin lump of HMP terrains, which have no name.
#[derive(Debug, Clone, PartialEq)]
pub struct Skin<'a> {
    /// Type word: low three bits the picture kind (0 8-bit indexed, 1 reference, 2 5-6-5,
    /// 3 4-4-4-4, 4 8-8-8, 5 8-8-8-8, 6 DDS, 7 external file), then [`SKIN_MIPMAPS`],
    /// [`SKIN_MATERIAL`] and [`SKIN_DEFINITION`].
    pub skin_type: u32,
    /// Picture width; the byte length of a DDS file or external name; the referred skin's
    /// index for a reference.
    pub width: u32,
    /// Picture height (1 for DDS files and external names).
    pub height: u32,
    /// The rest of the skin record after type, width and height (`md7_skin_stc_size - 12`
    /// bytes: the 16-byte name and any extra bytes); empty in HMP files.
    pub name: Vec<u8>,
    /// The picture data.
    pub data: SkinData<'a>,
    /// The material record, when the type has [`SKIN_MATERIAL`].
    pub material: Option<Material<'a>>,
    /// The material definition text, when the type has [`SKIN_DEFINITION`].
    pub definition: Option<Cow<'a, [u8]>>,
}

impl Skin<'_> {
    /// The picture kind: the low three bits of the type word.
    pub fn kind(&self) -> u32 {
        self.skin_type & 7
    }

    /// The name up to its first NUL: the external file name for an external skin, else the
    /// record's name.
    pub fn display_name(&self) -> String {
        match &self.data {
            SkinData::External(n) => name_str(n),
            _ => name_str(&self.name[..self.name.len().min(16)]),
        }
    }

    /// Number of embedded pictures (0 or 1; mip levels not counted).
    pub fn picture_count(&self) -> usize {
        match &self.data {
            SkinData::Pixels { pixels, .. } if !pixels.is_empty() => 1,
            _ => 0,
        }
    }
}

/// The data after a skin record.
#[derive(Debug, Clone, PartialEq)]
pub enum SkinData<'a> {
    /// Kind 1: no data; the skin stands for the skin whose index is `width`.
    Reference,
    /// Kind 6: an embedded DDS file of `width` bytes.
    Dds(Cow<'a, [u8]>),
    /// Kind 7: the name of an external picture file, `width` bytes with its NUL.
    External(Cow<'a, [u8]>),
    /// Kinds 0 and 2..=5: `width * height` pixels, then with [`SKIN_MIPMAPS`] three more
    /// levels of `(width >> k) * (height >> k)` pixels for `k = 1, 2, 3`.
    Pixels {
        /// The pixel layout.
        format: PixelFormat,
        /// The picture.
        pixels: Cow<'a, [u8]>,
        /// The three mip levels one after the other (empty without [`SKIN_MIPMAPS`]).
        mipmaps: Cow<'a, [u8]>,
    },
}

/// A material record (`md7_material_stc_size` bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Material<'a> {
    /// Diffuse colour `r, g, b, a`.
    pub diffuse: [f32; 4],
    /// Ambient colour.
    pub ambient: [f32; 4],
    /// Specular colour.
    pub specular: [f32; 4],
    /// Emissive colour.
    pub emissive: [f32; 4],
    /// Specular power.
    pub power: f32,
    /// Bytes of the record after the 68 known ones.
    pub extra: Cow<'a, [u8]>,
}

/// A texture coordinate (`md7_skinpoint_stc_size` bytes): `[0, 1]` across the skin, `v`
/// downwards (Direct3D's convention).
#[derive(Debug, Clone, PartialEq)]
pub struct TexCoord {
    /// Horizontal coordinate.
    pub u: f32,
    /// Vertical coordinate, downwards.
    pub v: f32,
    /// Bytes of the record after `u` and `v`.
    pub extra: Vec<u8>,
}

/// A triangle (`md7_triangle_stc_size` bytes). Fields the record is too short for read as
/// their "none" values ([`NONE16`], [`NO_MATERIAL`]) and are not written back. The bytes of a
/// field the record holds only in part (sizes 7..=11, 13..=15, 17..=21, 23..=25) are kept in
/// `extra`, so every record size writes back byte for byte.
#[derive(Debug, Clone, PartialEq)]
pub struct Triangle {
    /// Vertex indices into the group's vertices, checked at parse time.
    pub vertex: [u16; 3],
    /// Texture coordinate indices of the first UV set (record size >= 12).
    pub texcoord: [u16; 3],
    /// Material (index into the skins of all groups) of the first UV set (size >= 16);
    /// [`NO_MATERIAL`] for none.
    pub material: u32,
    /// Texture coordinate indices of the second UV set (size >= 22); [`NONE16`] when unused.
    pub texcoord2: [u16; 3],
    /// Material of the second UV set (size >= 26).
    pub material2: u32,
    /// Bytes of the record after the known fields it holds whole
    /// ([`triangle_fields_len`]): after the 26 known ones, or for a shorter record the bytes
    /// of the field it covers only in part.
    pub extra: Vec<u8>,
}

/// How many leading bytes of a triangle record of `size` bytes hold whole known fields:
/// 6 (vertices), 12 (texture coordinates), 16 (material), 22 (second texture coordinates) or
/// 26 (second material), the largest not above `size` (which is at least 6). The rest of the
/// record is [`Triangle::extra`].
pub fn triangle_fields_len(size: usize) -> usize {
    [26, 22, 16, 12, 6]
        .into_iter()
        .find(|&k| size >= k)
        .unwrap_or(0)
}

/// How a vertex record stores its normal, by record size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Normal {
    /// Record size >= 26: three floats.
    Full([f32; 3]),
    /// Record size 16..=25: an index into the 162-entry normal table and a pad byte.
    Index {
        /// Index into [`crate::formats::normals::ANORMS`].
        index: u8,
        /// The byte after it.
        pad: u8,
    },
    /// Record size 14 or 15: no normal.
    None,
}

/// A vertex record (`md7_mainvertex_stc_size` or `md7_framevertex_stc_size` bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct Vertex {
    /// Position; for a frame vertex, its bind position in that frame (before bones move it).
    pub position: [f32; 3],
    /// For a group vertex the bone it follows ([`NONE16`] for none); for a frame vertex the
    /// index of the group vertex it replaces, checked at parse time.
    pub bone: u16,
    /// The normal.
    pub normal: Normal,
    /// Bytes of the record after the normal.
    pub extra: Vec<u8>,
}

/// A bone's transform in one frame (`md7_bonetrans_stc_size` bytes).
#[derive(Debug, Clone, PartialEq)]
pub struct BoneTransform {
    /// Row-major 4x4 matrix for row vectors (`p' = p * M`, translation in `m[12..15]`): the
    /// bone's motion from the bind pose, in object space, before its parent's.
    pub matrix: [f32; 16],
    /// Index of the bone.
    pub bone: u16,
    /// The two bytes after the bone index (record size >= 68).
    pub unused: u16,
    /// Bytes of the record after the 68 known ones.
    pub extra: Vec<u8>,
}

/// A frame of a group: replacement vertices and bone transforms.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    /// Frame name, 16 bytes with their padding.
    pub name: [u8; 16],
    /// The vertices that differ from the group's base vertices in this frame.
    pub vertices: Vec<Vertex>,
    /// Bone transforms (MED stores them in the first group's frames only).
    pub transforms: Vec<BoneTransform>,
    /// Bytes of the frame header after the 24 known ones.
    pub extra: Vec<u8>,
}

/// A deformer: bone weights for the vertices of one group.
#[derive(Debug, Clone, PartialEq)]
pub struct Deformer {
    /// Version byte (0 in every known file).
    pub version: u8,
    /// Type byte (0 = bone weights in every known file).
    pub typ: u8,
    /// Two unused bytes.
    pub unused: [u8; 2],
    /// Index of the group whose vertices the weights refer to.
    pub group_index: i32,
    /// Bytes of the deformer, its 16-byte header included, as stored.
    pub data_size: i32,
    /// One element per bone.
    pub elements: Vec<DeformerElement>,
}

/// The weights of one bone in a deformer.
#[derive(Debug, Clone, PartialEq)]
pub struct DeformerElement {
    /// Index of the bone.
    pub index: i32,
    /// Bone name, 20 bytes with their padding.
    pub name: [u8; 20],
    /// The weighted vertices.
    pub weights: Vec<Weight>,
}

/// One vertex weight.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weight {
    /// Index of the vertex in the deformer's group.
    pub vertex: i32,
    /// Weight of the bone on that vertex.
    pub weight: f32,
}

/// A whole MDL7 file. Pictures, names, lumps and trailing bytes borrow from the input.
#[derive(Debug, Clone, PartialEq)]
pub struct File<'a> {
    /// The header.
    pub header: Header,
    /// `bones_num` bones.
    pub bones: Vec<Bone>,
    /// `groups_num` groups.
    pub groups: Vec<Group<'a>>,
    /// The deformers of all groups, stored after the last group (as many as the groups'
    /// `deformers` bytes add up to).
    pub deformers: Vec<Deformer>,
    /// Bytes between the last deformer and `data_size`, when `data_size` is larger.
    pub unclaimed: Cow<'a, [u8]>,
    /// The entity lump (`entlump_size` bytes).
    pub entlump: Cow<'a, [u8]>,
    /// The MED lump (`medlump_size` bytes).
    pub medlump: Cow<'a, [u8]>,
    /// Bytes after the MED lump.
    pub trailing: Cow<'a, [u8]>,
}

impl<'a> File<'a> {
    /// How many frames of all groups store vertices of their own (vertex animation, which a
    /// bone skin cannot replace).
    pub fn frames_with_vertices(&self) -> usize {
        self.groups
            .iter()
            .flat_map(|g| &g.frames)
            .filter(|fr| !fr.vertices.is_empty())
            .count()
    }

    /// Vertices of all groups (the base pose).
    pub fn vertex_count(&self) -> usize {
        self.groups.iter().map(|g| g.vertices.len()).sum()
    }

    /// Triangles of all groups.
    pub fn triangle_count(&self) -> usize {
        self.groups.iter().map(|g| g.triangles.len()).sum()
    }

    /// Frames of the model: the most frames of any group.
    pub fn frame_count(&self) -> usize {
        self.groups
            .iter()
            .map(|g| g.frames.len())
            .max()
            .unwrap_or(0)
    }

    /// Skins of all groups, in the order triangles' material indices count them.
    pub fn skins(&self) -> impl Iterator<Item = &Skin<'a>> {
        self.groups.iter().flat_map(|g| g.skins.iter())
    }

    /// Number of skins of all groups.
    pub fn skin_count(&self) -> usize {
        self.groups.iter().map(|g| g.skins.len()).sum()
    }
}
