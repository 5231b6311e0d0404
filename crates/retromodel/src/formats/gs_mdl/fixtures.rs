//! Generated MDL2..MDL5 files for tests, examples and `retromodel sample`: no copied assets.
//!
//! [`Spec`] picks the version, the skins (every type word, mipmaps, MDL5 per-skin sizes, an
//! embedded DDS, an external file name), byte- or word-packed frames and trailing data, on a
//! small diamond shape: 6 vertices, 8 triangles. In MDL3+ files the diamond has 7 skin
//! vertices (vertex 0 has a second one, `u = 8`, where the texture wraps); in MDL2 files the
//! equator is on the seam (`onseam = 1`) and the lower half faces back.

use std::borrow::Cow;

use super::raw::*;
use crate::formats::normals::nearest_index;
use crate::formats::quake_mdl;
use crate::formats::shared::quake::{diamond_position, DIAMOND};

/// What a generated file contains.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// 2..=5.
    pub version: u8,
    /// The header's skin size: every skin's in MDL2..MDL4 (and of the texture coordinates).
    pub skin_size: [i32; 2],
    /// Skins: type word and size. The size is used by MDL5 only (MDL2..MDL4 skins take
    /// `skin_size`); a DDS skin (type 6) holds a 128-byte DDS header for that size, an
    /// external one (type 7) the 16-byte name `skins/rock.pcx`.
    pub skins: Vec<(i32, [i32; 2])>,
    /// One packing per frame (frames named `stand1`, `stand2`, then `run1`...).
    pub frames: Vec<Packing>,
    /// Bytes appended after the last frame.
    pub trailing: Vec<u8>,
}

impl Default for Spec {
    /// MDL5 with one 16x8 5-6-5 skin and two word-packed frames.
    fn default() -> Self {
        Spec {
            version: 5,
            skin_size: [16, 8],
            skins: vec![(2, [16, 8])],
            frames: vec![Packing::Word, Packing::Word],
            trailing: Vec::new(),
        }
    }
}

/// Skin vertices (pixels) of MDL3+: one per vertex, and vertex 0 again where the texture
/// wraps.
pub const SKIN_VERTS: [[i16; 2]; 7] = [[0, 4], [2, 4], [4, 4], [6, 4], [4, 0], [4, 7], [8, 4]];

/// Triangles of MDL3+: vertex indices and skin vertex indices.
pub const TRIANGLES: [([u16; 3], [u16; 3]); 8] = [
    ([0, 1, 4], [0, 1, 4]),
    ([1, 2, 4], [1, 2, 4]),
    ([2, 3, 4], [2, 3, 4]),
    ([3, 0, 4], [3, 6, 4]),
    ([1, 0, 5], [1, 0, 5]),
    ([2, 1, 5], [2, 1, 5]),
    ([3, 2, 5], [3, 2, 5]),
    ([0, 3, 5], [6, 3, 5]),
];

/// The name stored by an external skin (16 bytes with its NUL padding).
pub const EXTERNAL_NAME: &str = "skins/rock.pcx";

/// Header scale of a file: `1/1024` when every frame is word-packed, else `1/4`; the offset
/// is -16 on every axis.
pub fn scale_of(spec: &Spec) -> f32 {
    if !spec.frames.is_empty() && spec.frames.iter().all(|&p| p == Packing::Word) {
        1.0 / 1024.0
    } else {
        0.25
    }
}

/// The position of vertex `i` in frame `k`: the diamond scaled by `8 * (1 + k / 4)`.
pub fn position(i: usize, k: usize) -> [f32; 3] {
    diamond_position(i, k)
}

fn name16(s: &str) -> [u8; 16] {
    let mut n = [0u8; 16];
    n[..s.len()].copy_from_slice(s.as_bytes());
    n
}

fn frame(name: &str, k: usize, packing: Packing, scale: f32) -> Frame {
    let verts: Vec<Vertex> = (0..DIAMOND.len())
        .map(|i| Vertex {
            v: position(i, k).map(|c| ((c + 16.0) / scale).round() as u16),
            normal_index: nearest_index(DIAMOND[i]),
            bone: if packing == Packing::Word {
                i as u8 % 3
            } else {
                0
            },
        })
        .collect();
    let bbox = |pick: fn(u16, u16) -> u16| Vertex {
        v: std::array::from_fn(|a| verts.iter().map(|v| v.v[a]).reduce(pick).unwrap_or(0)),
        normal_index: 0,
        bone: 0,
    };
    Frame {
        packing,
        bboxmin: bbox(u16::min),
        bboxmax: bbox(u16::max),
        name: name16(name),
        verts,
    }
}

/// Deterministic pixel bytes.
pub fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| {
            (i as u8)
                .wrapping_mul(37)
                .wrapping_add(seed ^ (i >> 8) as u8)
        })
        .collect()
}

fn skin(i: usize, skin_type: i32, [w, h]: [i32; 2]) -> Skin<'static> {
    let seed = 11 * i as u8 + 5;
    let format = SkinFormat::from_type(skin_type).expect("fixture skin type");
    let (data, mipmaps) = match format.bytes_per_pixel() {
        Some(bpp) => {
            let texels = (w * h) as usize;
            let mips = if skin_type & MIPMAP_FLAG != 0 {
                mipmap_texels(w as u32, h as u32) as usize
            } else {
                0
            };
            (
                pattern(texels * bpp, seed),
                pattern(mips * bpp, seed.wrapping_add(99)),
            )
        }
        None if format == SkinFormat::Dds => {
            let mut dds = vec![0u8; 128];
            dds[..4].copy_from_slice(b"DDS ");
            for (at, v) in [(4, 124u32), (8, 0x1007), (12, h as u32), (16, w as u32)] {
                dds[at..at + 4].copy_from_slice(&v.to_le_bytes());
            }
            (dds, Vec::new())
        }
        None => (name16(EXTERNAL_NAME).to_vec(), Vec::new()),
    };
    let width = match format.bytes_per_pixel() {
        Some(_) => w,
        None => data.len() as i32,
    };
    Skin {
        skin_type,
        width,
        height: h,
        data: Cow::Owned(data),
        mipmaps: Cow::Owned(mipmaps),
    }
}

/// Builds the raw file for a spec.
pub fn build(spec: &Spec) -> File<'static> {
    let v = spec.version;
    let skins: Vec<Skin<'static>> = spec
        .skins
        .iter()
        .enumerate()
        .map(|(i, &(t, size))| skin(i, t, if v == 5 { size } else { spec.skin_size }))
        .collect();
    let geometry = if v == 2 {
        Geometry::Quake {
            texcoords: SKIN_VERTS[..6]
                .iter()
                .enumerate()
                .map(|(i, st)| quake_mdl::TexCoord {
                    onseam: i32::from(i < 4),
                    s: st[0] as i32,
                    t: st[1] as i32,
                })
                .collect(),
            triangles: TRIANGLES
                .iter()
                .enumerate()
                .map(|(i, (vertex, _))| quake_mdl::Triangle {
                    facesfront: i32::from(i < 4),
                    vertex: vertex.map(i32::from),
                })
                .collect(),
        }
    } else {
        Geometry::Separate {
            skin_verts: SKIN_VERTS.iter().map(|&[u, v]| SkinVert { u, v }).collect(),
            triangles: TRIANGLES
                .iter()
                .map(|&(vertex, uv)| Triangle { vertex, uv })
                .collect(),
        }
    };
    let scale = scale_of(spec);
    let names = ["stand1", "stand2", "run1", "run2", "run3", "run4"];
    let frames: Vec<Frame> = spec
        .frames
        .iter()
        .enumerate()
        .map(|(k, &p)| frame(names.get(k).copied().unwrap_or("extra"), k, p, scale))
        .collect();
    let num_skin_verts = match &geometry {
        Geometry::Separate { skin_verts, .. } => skin_verts.len() as i32,
        Geometry::Quake { .. } => 0,
    };
    // MDL5 files say 0x0 in the header, unless there is no skin to give the size.
    let (skin_width, skin_height) = if v == 5 && !skins.is_empty() {
        (0, 0)
    } else {
        (spec.skin_size[0], spec.skin_size[1])
    };
    File {
        header: Header {
            version: v,
            version_field: 0,
            scale: [scale; 3],
            offset: [-16.0; 3],
            radius: 16.0,
            eye: [0.0; 3],
            num_skins: skins.len() as i32,
            skin_width,
            skin_height,
            num_verts: DIAMOND.len() as i32,
            num_tris: TRIANGLES.len() as i32,
            num_frames: frames.len() as i32,
            num_skin_verts,
            flags: 0,
            num_bones: 0,
        },
        skins,
        geometry,
        frames,
        trailing: Cow::Owned(spec.trailing.clone()),
    }
}

/// A small MDL5 file: one 16x8 5-6-5 skin, two word-packed frames.
pub fn minimal() -> Vec<u8> {
    build(&Spec::default()).write()
}

/// Every skin type word of MDL5, with sizes that differ per skin: 8-bit, 5-6-5, 4-4-4-4,
/// 8-8-8, 8-8-8-8, each again with mipmaps, an embedded DDS and an external name.
pub fn every_mdl5_skin() -> Vec<(i32, [i32; 2])> {
    vec![
        (0, [16, 8]),
        (2, [8, 8]),
        (3, [4, 4]),
        (4, [16, 8]),
        (5, [8, 16]),
        (8, [16, 8]),
        (10, [16, 16]),
        (11, [8, 8]),
        (12, [32, 8]),
        (13, [16, 8]),
        (6, [64, 32]),
        (7, [0, 0]),
    ]
}

/// One generated file per branch of the format, by name.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    use Packing::{Byte, Word};
    let s = Spec::default;
    let header_sized = |version: u8, types: &[i32], frames: Vec<Packing>| Spec {
        version,
        skins: types.iter().map(|&t| (t, [16, 8])).collect(),
        frames,
        ..s()
    };
    let specs = [
        ("mdl2_8bit", header_sized(2, &[0], vec![Byte, Byte])),
        ("mdl2_565", header_sized(2, &[2], vec![Byte])),
        (
            "mdl3_8bit_565",
            header_sized(3, &[0, 2], vec![Byte, Byte, Byte]),
        ),
        ("mdl3_mipmaps", header_sized(3, &[8, 10], vec![Byte])),
        (
            "mdl4_4444_word",
            header_sized(4, &[3, 11], vec![Word, Word]),
        ),
        (
            "mdl4_mixed_frames",
            header_sized(4, &[2], vec![Byte, Word, Byte]),
        ),
        (
            "mdl4_trailing",
            Spec {
                trailing: b"BONE\x01\x00\x00\x00trailing data".to_vec(),
                ..header_sized(4, &[12, 13], vec![Word])
            },
        ),
        ("mdl5_minimal", s()),
        (
            "mdl5_every_skin",
            Spec {
                skins: every_mdl5_skin(),
                frames: vec![Word, Word, Word],
                ..s()
            },
        ),
        (
            "mdl5_byte_frames",
            Spec {
                frames: vec![Byte],
                ..s()
            },
        ),
        (
            "mdl5_no_skin",
            Spec {
                skins: Vec::new(),
                ..s()
            },
        ),
    ];
    specs
        .into_iter()
        .map(|(n, spec)| (n, build(&spec).write()))
        .collect()
}
