//! Generated MDL7 files for tests and examples: no copied assets.
//!
//! Group 0 is a square pyramid: base corners 0..4 at `z = 0`, apex 4 at `z = 2`; four side
//! triangles with material 0 and two base triangles with material 1 (one of whose corners uses
//! its own texture coordinate, so the vertex splits). Frame `f` raises the apex by `f / 2`
//! through a frame vertex. With bones, bone 0 (`root`, at the origin) holds the base and bone
//! 1 (`apex`, 2 above it) the apex; frame `f` moves bone 1 by `(0, f / 4, 0)`, and the
//! deformer weighs the apex 0.75 on bone 1 and 0.25 on bone 0. Group 1 is an untextured quad
//! beside it with frames of no vertices.

use std::borrow::Cow;

use super::raw::*;
use crate::formats::normals::nearest_index;

/// A skin of the generated file.
#[derive(Debug, Clone, PartialEq)]
pub enum SkinKind {
    /// 4x4 5-6-5 pixels.
    Rgb565,
    /// 8x8 8-8-8 pixels with mip levels and a material.
    Bgr888MipsMaterial,
    /// 2x2 8-bit palette indices.
    Indexed8,
    /// An external file name.
    External(&'static str),
    /// A material only (type 0x10, no picture).
    MaterialOnly,
    /// A reference to the skin with this index.
    Reference(u32),
    /// An embedded (fake) DDS file and a definition text.
    DdsDefinition,
}

/// Which branches a generated file exercises.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Record sizes.
    pub sizes: StructSizes,
    /// 1 or 2 groups.
    pub groups: usize,
    /// Frames of every group.
    pub frames: usize,
    /// Two bones, bone transforms in group 0's frames, a deformer for group 0.
    pub bones: bool,
    /// Skins of group 0.
    pub skins: Vec<SkinKind>,
    /// The base triangles carry a second UV set.
    pub second_uv: bool,
    /// Entity lump bytes.
    pub entlump: Vec<u8>,
    /// MED lump bytes.
    pub medlump: Vec<u8>,
    /// Bytes after the lumps.
    pub trailing: Vec<u8>,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            sizes: StructSizes::MED,
            groups: 1,
            frames: 2,
            bones: false,
            skins: vec![SkinKind::Rgb565, SkinKind::External("skin.pcx")],
            second_uv: false,
            entlump: Vec::new(),
            medlump: Vec::new(),
            trailing: Vec::new(),
        }
    }
}

impl Spec {
    /// Every branch at once: bones and a deformer, two groups, four frames, every skin kind,
    /// a second UV set, both lumps and trailing bytes.
    pub fn everything() -> Self {
        Spec {
            groups: 2,
            frames: 4,
            bones: true,
            skins: vec![
                SkinKind::Bgr888MipsMaterial,
                SkinKind::External("pyramid.pcx"),
                SkinKind::Indexed8,
                SkinKind::Reference(0),
                SkinKind::MaterialOnly,
                SkinKind::DdsDefinition,
            ],
            second_uv: true,
            entlump: b"ENTS".to_vec(),
            medlump: b"MED lump".to_vec(),
            trailing: b"TAIL".to_vec(),
            ..Spec::default()
        }
    }

    /// The old, short records: nameless bones, 12-byte triangles, 16-byte vertices with
    /// normal indices.
    pub fn short_records() -> Self {
        Spec {
            sizes: StructSizes {
                bone: 16,
                triangle: 12,
                mainvertex: 16,
                framevertex: 16,
                ..StructSizes::MED
            },
            bones: true,
            ..Spec::default()
        }
    }
}

/// The pyramid's base vertices (apex last).
pub const PYRAMID: [[f32; 3]; 5] = [
    [-1.0, -1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [0.0, 0.0, 2.0],
];

/// The quad of group 1.
pub const QUAD: [[f32; 3]; 4] = [
    [2.0, 0.0, 0.0],
    [3.0, 0.0, 0.0],
    [3.0, 1.0, 0.0],
    [2.0, 1.0, 0.0],
];

fn fixed<const N: usize>(s: &str) -> [u8; N] {
    let mut a = [0u8; N];
    let n = s.len().min(N);
    a[..n].copy_from_slice(&s.as_bytes()[..n]);
    a
}

fn normal_for(n: [f32; 3], size: u16) -> Normal {
    let len = crate::math::length(n);
    let n = n.map(|c| c / len);
    if size >= 26 {
        Normal::Full(n)
    } else if size >= 16 {
        Normal::Index {
            index: nearest_index(n),
            pad: 0,
        }
    } else {
        Normal::None
    }
}

fn vertex(p: [f32; 3], bone: u16, size: u16) -> Vertex {
    let dir = [p[0], p[1], p[2] - 0.5];
    Vertex {
        position: p,
        bone,
        normal: normal_for(dir, size),
        extra: vec![0xEE; (size as usize).saturating_sub(26)],
    }
}

fn pixels(n: usize) -> Cow<'static, [u8]> {
    Cow::Owned((0..n).map(|i| (i * 37 + 11) as u8).collect())
}

/// The skin of `kind` as skin number `i` of a file with record sizes `sizes` (its name is
/// `SKIN#<i>`).
pub fn skin(kind: &SkinKind, sizes: StructSizes, i: usize) -> Skin<'static> {
    let name = |s: &str| {
        let mut v = fixed::<16>(s).to_vec();
        v.resize((sizes.skin as usize).saturating_sub(12), 0);
        v
    };
    let material = || Material {
        diffuse: [1.0, 0.5, 0.25, 1.0],
        ambient: [0.1, 0.1, 0.1, 1.0],
        specular: [0.0, 0.0, 1.0, 0.0],
        emissive: [0.0; 4],
        power: 10.0,
        extra: Cow::Owned(vec![0; sizes.material as usize - MATERIAL_SIZE]),
    };
    let plain = |skin_type: u32, width: u32, height: u32, data: SkinData<'static>| Skin {
        skin_type,
        width,
        height,
        name: name(&format!("SKIN#{i:02}")),
        data,
        material: None,
        definition: None,
    };
    match kind {
        SkinKind::Rgb565 => plain(
            2,
            4,
            4,
            SkinData::Pixels {
                format: PixelFormat::Rgb565,
                pixels: pixels(4 * 4 * 2),
                mipmaps: Cow::Owned(Vec::new()),
            },
        ),
        SkinKind::Bgr888MipsMaterial => Skin {
            material: Some(material()),
            ..plain(
                4 | SKIN_MIPMAPS | SKIN_MATERIAL,
                8,
                8,
                SkinData::Pixels {
                    format: PixelFormat::Bgr888,
                    pixels: pixels(8 * 8 * 3),
                    mipmaps: pixels((16 + 4 + 1) * 3),
                },
            )
        },
        SkinKind::Indexed8 => plain(
            0,
            2,
            2,
            SkinData::Pixels {
                format: PixelFormat::Indexed8,
                pixels: pixels(4),
                mipmaps: Cow::Owned(Vec::new()),
            },
        ),
        SkinKind::External(file) => {
            let mut bytes = file.as_bytes().to_vec();
            bytes.push(0);
            plain(
                SKIN_EXTERNAL,
                bytes.len() as u32,
                1,
                SkinData::External(Cow::Owned(bytes)),
            )
        }
        SkinKind::MaterialOnly => Skin {
            material: Some(material()),
            ..plain(
                SKIN_MATERIAL,
                0,
                0,
                SkinData::Pixels {
                    format: PixelFormat::Indexed8,
                    pixels: Cow::Owned(Vec::new()),
                    mipmaps: Cow::Owned(Vec::new()),
                },
            )
        },
        SkinKind::Reference(to) => plain(SKIN_REFERENCE, *to, 0, SkinData::Reference),
        SkinKind::DdsDefinition => Skin {
            definition: Some(Cow::Owned(b"material { effect = \"x\"; }".to_vec())),
            ..plain(
                SKIN_DDS | SKIN_DEFINITION,
                12,
                1,
                SkinData::Dds(Cow::Owned(b"DDS |fake dds".to_vec()[..12].to_vec())),
            )
        },
    }
}

fn triangle(vertex: [u16; 3], texcoord: [u16; 3], material: u32, second: bool) -> Triangle {
    Triangle {
        vertex,
        texcoord,
        material,
        texcoord2: if second { texcoord } else { [NONE16; 3] },
        material2: if second { material } else { NO_MATERIAL },
        extra: Vec::new(),
    }
}

/// The bytes of the field a triangle record of `size` bytes holds only in part (empty for
/// sizes 6, 12, 16, 22 and from 26 on): the first bytes of that field's value, as a file
/// written with whole records and cut to `size` would have them.
fn partial_field(t: &Triangle, size: usize) -> Vec<u8> {
    let mut full = Vec::with_capacity(26);
    t.vertex
        .iter()
        .chain(&t.texcoord)
        .for_each(|v| full.extend(v.to_le_bytes()));
    full.extend(t.material.to_le_bytes());
    t.texcoord2
        .iter()
        .for_each(|v| full.extend(v.to_le_bytes()));
    full.extend(t.material2.to_le_bytes());
    full[triangle_fields_len(size)..size.min(26)].to_vec()
}

/// Builds the file a spec describes.
pub fn build(spec: &Spec) -> File<'static> {
    let s = spec.sizes;
    let bones = if spec.bones {
        let name = |n: &str| {
            let mut v = fixed::<20>(n).to_vec();
            v.resize(s.bone as usize - 16, 0);
            v
        };
        vec![
            Bone {
                parent: NONE16,
                unused: 0,
                position: [0.0; 3],
                name: name("root"),
            },
            Bone {
                parent: 0,
                unused: 0,
                position: [0.0, 0.0, 2.0],
                name: name("apex"),
            },
        ]
    } else {
        Vec::new()
    };
    let bone_of = |v: usize| match (spec.bones, v) {
        (false, _) => NONE16,
        (true, 4) => 1,
        (true, _) => 0,
    };
    let many = spec.skins.len() >= 2;
    let side = if spec.skins.is_empty() {
        NO_MATERIAL
    } else {
        0
    };
    let base = if many { 1 } else { side };
    let mut pyramid = Group {
        typ: 1,
        deformers: u8::from(spec.bones),
        max_weights: if spec.bones { 2 } else { 0 },
        unused: 0,
        groupdata_size: 0,
        name: fixed("pyramid"),
        skins: spec
            .skins
            .iter()
            .enumerate()
            .map(|(i, k)| skin(k, s, i))
            .collect(),
        texcoords: [
            [0.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.0, 1.0],
            [0.5, 0.5],
            [0.25, 0.25],
        ]
        .iter()
        .map(|&[u, v]| TexCoord {
            u,
            v,
            extra: vec![0; s.skinpoint as usize - 8],
        })
        .collect(),
        triangles: vec![
            triangle([0, 4, 1], [0, 4, 1], side, false),
            triangle([1, 4, 2], [1, 4, 2], side, false),
            triangle([2, 4, 3], [2, 4, 3], side, false),
            triangle([3, 4, 0], [3, 4, 0], side, false),
            triangle([0, 1, 2], [5, 1, 2], base, spec.second_uv),
            triangle([0, 2, 3], [0, 2, 3], base, spec.second_uv),
        ],
        vertices: PYRAMID
            .iter()
            .enumerate()
            .map(|(i, &p)| vertex(p, bone_of(i), s.mainvertex))
            .collect(),
        frames: Vec::new(),
    };
    for f in 0..spec.frames {
        let name = if f < 2 {
            format!("stand {f}")
        } else {
            format!("walk {}", f - 2)
        };
        let vertices = if f == 0 {
            Vec::new()
        } else {
            let mut v = vertex([0.0, 0.0, 2.0 + 0.5 * f as f32], 4, s.framevertex);
            v.normal = normal_for([0.0, 0.0, 1.0], s.framevertex);
            vec![v]
        };
        let transforms = if spec.bones {
            (0..2u16)
                .map(|b| {
                    let mut matrix = [0.0f32; 16];
                    for k in 0..4 {
                        matrix[5 * k] = 1.0;
                    }
                    if b == 1 {
                        matrix[13] = 0.25 * f as f32;
                    }
                    BoneTransform {
                        matrix,
                        bone: b,
                        unused: 0,
                        extra: Vec::new(),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        pyramid.frames.push(Frame {
            name: fixed(&name),
            vertices,
            transforms,
            extra: vec![0; s.frame as usize - 24],
        });
    }
    let mut groups = vec![pyramid];
    if spec.groups > 1 {
        groups.push(Group {
            typ: 1,
            deformers: 0,
            max_weights: 0,
            unused: 0,
            groupdata_size: 0,
            name: fixed("quad"),
            skins: Vec::new(),
            texcoords: [[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]
                .iter()
                .map(|&[u, v]| TexCoord {
                    u,
                    v,
                    extra: vec![0; s.skinpoint as usize - 8],
                })
                .collect(),
            triangles: vec![
                triangle([0, 1, 2], [0, 1, 2], NO_MATERIAL, false),
                triangle([0, 2, 3], [0, 2, 3], NO_MATERIAL, false),
            ],
            vertices: QUAD
                .iter()
                .map(|&p| vertex(p, NONE16, s.mainvertex))
                .collect(),
            frames: (0..spec.frames)
                .map(|f| Frame {
                    name: fixed(&format!("quad {f}")),
                    vertices: Vec::new(),
                    transforms: Vec::new(),
                    extra: vec![0; s.frame as usize - 24],
                })
                .collect(),
        });
    }
    for t in groups.iter_mut().flat_map(|g| g.triangles.iter_mut()) {
        t.extra = partial_field(t, s.triangle as usize);
    }
    let deformers = if spec.bones {
        let element = |index: i32, name: &str, weights: &[(i32, f32)]| DeformerElement {
            index,
            name: fixed(name),
            weights: weights
                .iter()
                .map(|&(vertex, weight)| Weight { vertex, weight })
                .collect(),
        };
        let elements = vec![
            element(0, "root", &[(0, 1.0), (4, 0.25)]),
            element(1, "apex", &[(4, 0.75)]),
        ];
        let data_size = DEFORMER_HEAD_SIZE
            + elements
                .iter()
                .map(|e| DEFORMER_ELEMENT_HEAD_SIZE + WEIGHT_SIZE * e.weights.len())
                .sum::<usize>();
        vec![Deformer {
            version: 0,
            typ: 0,
            unused: [0; 2],
            group_index: 0,
            data_size: data_size as i32,
            elements,
        }]
    } else {
        Vec::new()
    };
    let mut file = File {
        header: Header {
            version: 0,
            bones_num: bones.len() as i32,
            groups_num: groups.len() as i32,
            data_size: 0,
            entlump_size: spec.entlump.len() as i32,
            medlump_size: spec.medlump.len() as i32,
            sizes: s,
        },
        bones,
        groups,
        deformers,
        unclaimed: Cow::Owned(Vec::new()),
        entlump: Cow::Owned(spec.entlump.clone()),
        medlump: Cow::Owned(spec.medlump.clone()),
        trailing: Cow::Owned(spec.trailing.clone()),
    };
    file.header.data_size = file.model_data_len() as i32;
    for g in 0..file.groups.len() {
        // MED's count: the group's bytes after the header it starts with, pictures included.
        let total = {
            let one = File {
                bones: Vec::new(),
                groups: vec![file.groups[g].clone()],
                deformers: Vec::new(),
                ..file.clone()
            };
            one.model_data_len() - HEADER_SIZE
        };
        file.groups[g].groupdata_size = total as i32;
    }
    file
}

/// A small valid file: one group, two skins, two frames.
pub fn minimal() -> Vec<u8> {
    build(&Spec::default()).write()
}

/// One file for every triangle record size from 6 to 30 bytes, `(size, bytes)`: a second UV
/// set, so that a record cut inside a field holds the first bytes of a real value. Sizes
/// 7..=11, 13..=15, 17..=21 and 23..=25 cut a field.
pub fn triangle_sizes() -> Vec<(u16, Vec<u8>)> {
    (6..=30)
        .map(|triangle| {
            let spec = Spec {
                sizes: StructSizes {
                    triangle,
                    ..StructSizes::MED
                },
                second_uv: true,
                ..Spec::default()
            };
            (triangle, build(&spec).write())
        })
        .collect()
}

/// Every named fixture: `(name, bytes)`.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    let s = Spec::default;
    vec![
        ("minimal", minimal()),
        ("everything", build(&Spec::everything()).write()),
        ("short-records", build(&Spec::short_records()).write()),
        (
            "material-index",
            build(&Spec {
                sizes: StructSizes {
                    triangle: 16,
                    ..StructSizes::MED
                },
                ..s()
            })
            .write(),
        ),
        ("no-frames", build(&Spec { frames: 0, ..s() }).write()),
        (
            "bones",
            build(&Spec {
                bones: true,
                frames: 3,
                ..s()
            })
            .write(),
        ),
        (
            "wide-records",
            build(&Spec {
                sizes: StructSizes {
                    bone: 40,
                    skin: 32,
                    material: 72,
                    skinpoint: 12,
                    triangle: 30,
                    mainvertex: 30,
                    framevertex: 28,
                    bonetrans: 72,
                    frame: 28,
                    ..StructSizes::MED
                },
                bones: true,
                skins: vec![SkinKind::Bgr888MipsMaterial, SkinKind::Rgb565],
                groups: 2,
                ..s()
            })
            .write(),
        ),
    ]
}
