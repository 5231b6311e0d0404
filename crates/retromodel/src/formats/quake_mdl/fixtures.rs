//! Generated MDL files for tests, examples and `retromodel sample`: no copied assets.
//!
//! [`Spec`] switches on each branch of the format (skin group, frame group, on-seam vertices
//! on back-facing triangles, trailing data, `MF_HOLEY`, a 16-bit skin) on a small diamond
//! shape: 6 vertices, 8 triangles, the lower half back-facing.
//!
//! The variants are built from the same spec: [`qtest`] drops the header's flags and size
//! and the poses' names, [`md16`] adds a low byte to every coordinate, and [`hexen2`] gives
//! the triangles texture-coordinate indices of their own ([`Hexen2Spec`]).

use std::borrow::Cow;

use super::raw::*;
use crate::formats::normals::nearest_index;
use crate::formats::shared::quake::{diamond_position, DIAMOND};

/// Which branches a generated file exercises.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Skin width in pixels.
    pub skin_width: i32,
    /// Skin height in pixels.
    pub skin_height: i32,
    /// Add a second skin entry that is a group of 3 pictures.
    pub skin_group: bool,
    /// Make the first skin a 16-bit 5-6-5 picture (type 2) instead of 8-bit.
    pub skin_16bit: bool,
    /// Add a frame group of 3 poses after the simple frames.
    pub frame_group: bool,
    /// Number of simple frames (named `stand1`, `stand2`, then `run1`...).
    pub simple_frames: usize,
    /// Mark the equator vertices as on the seam (`0x20`); the back-facing lower half then
    /// needs the seam fix-up.
    pub seam: bool,
    /// Model flags word.
    pub flags: i32,
    /// Bytes appended after the last frame.
    pub trailing: Vec<u8>,
    /// Group intervals (cumulative end times) for both skin and frame groups.
    pub intervals: [f32; 3],
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            skin_width: 16,
            skin_height: 8,
            skin_group: false,
            skin_16bit: false,
            frame_group: false,
            simple_frames: 2,
            seam: false,
            flags: 0,
            trailing: Vec::new(),
            intervals: [0.1, 0.2, 0.35],
        }
    }
}

impl Spec {
    /// Every branch at once: skin group, frame group after 5 simple frames, seam vertices,
    /// `MF_HOLEY`, and a `QMEX` trailer.
    pub fn everything() -> Self {
        Spec {
            skin_group: true,
            frame_group: true,
            seam: true,
            simple_frames: 5,
            flags: MF_HOLEY,
            trailing: b"QMEX".to_vec(),
            ..Spec::default()
        }
    }
}

/// Texel coordinates of each vertex on the front half of the skin.
const ST: [[i32; 2]; 6] = [[0, 4], [2, 4], [4, 4], [6, 4], [4, 0], [4, 7]];

/// Triangles: the upper four face front, the lower four face back.
const TRIS: [(i32, [i32; 3]); 8] = [
    (1, [0, 1, 4]),
    (1, [1, 2, 4]),
    (1, [2, 3, 4]),
    (1, [3, 0, 4]),
    (0, [1, 0, 5]),
    (0, [2, 1, 5]),
    (0, [3, 2, 5]),
    (0, [0, 3, 5]),
];

fn name16(s: &str) -> [u8; 16] {
    let mut n = [0u8; 16];
    n[..s.len()].copy_from_slice(s.as_bytes());
    n
}

/// A pose: the diamond stretched by `k`, packed so that `scale * v + translate` gives
/// `dir * 8 * (1 + k/4)`.
fn pose(name: &str, k: usize) -> SimpleFrame {
    let verts: Vec<Vertex> = (0..DIAMOND.len())
        .map(|i| Vertex {
            // translate is -16 and scale 0.25 on every axis: v = (p + 16) * 4.
            v: diamond_position(i, k).map(|c| ((c + 16.0) * 4.0).round() as u8),
            normal_index: nearest_index(DIAMOND[i]),
        })
        .collect();
    let min = |a: usize| verts.iter().map(|v| v.v[a]).min().unwrap_or(0);
    let max = |a: usize| verts.iter().map(|v| v.v[a]).max().unwrap_or(0);
    SimpleFrame {
        bboxmin: Vertex {
            v: [min(0), min(1), min(2)],
            normal_index: 0,
        },
        bboxmax: Vertex {
            v: [max(0), max(1), max(2)],
            normal_index: 0,
        },
        name: name16(name),
        verts,
        low: Vec::new(),
    }
}

fn picture(w: i32, h: i32, seed: u8, bytes_per_pixel: usize) -> Vec<u8> {
    (0..(w * h) as usize * bytes_per_pixel)
        .map(|i| (i as u8).wrapping_mul(7).wrapping_add(seed))
        .collect()
}

/// Builds the raw file for a spec.
pub fn build(spec: &Spec) -> File<'static> {
    let (w, h) = (spec.skin_width, spec.skin_height);
    let mut skins = vec![if spec.skin_16bit {
        Skin::Single {
            skin_type: 2,
            pixels: Cow::Owned(picture(w, h, 3, 2)),
        }
    } else {
        Skin::Single {
            skin_type: 0,
            pixels: Cow::Owned(picture(w, h, 200, 1)),
        }
    }];
    if spec.skin_group {
        skins.push(Skin::Group {
            skin_type: SKIN_GROUP,
            intervals: spec.intervals.to_vec(),
            pictures: (0..3)
                .map(|k| Cow::Owned(picture(w, h, 40 * k, 1)))
                .collect(),
        });
    }
    let texcoords = ST
        .iter()
        .enumerate()
        .map(|(i, st)| TexCoord {
            onseam: if spec.seam && i < 4 { ALIAS_ONSEAM } else { 0 },
            s: st[0],
            t: st[1],
        })
        .collect();
    let triangles = TRIS
        .iter()
        .map(|&(facesfront, vertex)| Triangle { facesfront, vertex })
        .collect();
    let names = ["stand1", "stand2", "run1", "run2", "run3", "run4"];
    let mut frames: Vec<Frame> = (0..spec.simple_frames)
        .map(|k| Frame::Simple(pose(names.get(k).copied().unwrap_or("extra"), k)))
        .collect();
    if spec.frame_group {
        let poses: Vec<SimpleFrame> = (0..3)
            .map(|k| pose(&format!("flame{}", k + 1), k + 2))
            .collect();
        frames.push(Frame::Group {
            frame_type: 1,
            bboxmin: poses[0].bboxmin,
            bboxmax: poses[2].bboxmax,
            intervals: spec.intervals.to_vec(),
            frames: poses,
        });
    }
    File {
        header: Header {
            version: VERSION,
            scale: [0.25; 3],
            translate: [-16.0; 3],
            boundingradius: 16.0,
            eyeposition: [0.0, 0.0, 4.0],
            num_skins: skins.len() as i32,
            skinwidth: w,
            skinheight: h,
            num_verts: 6,
            num_tris: 8,
            num_frames: frames.len() as i32,
            synctype: 0,
            flags: spec.flags,
            size: 5.5,
        },
        skins,
        texcoords,
        triangles,
        frames,
        trailing: Cow::Owned(spec.trailing.clone()),
    }
}

/// A QTest (`IDPO` version 3) file from a spec: the same skins, geometry and poses, without
/// the header's flags and size (the spec's flags are dropped) and the poses' names.
pub fn qtest(spec: &Spec) -> QTestFile<'static> {
    let f = build(spec);
    let h = f.header;
    let pose = |p: SimpleFrame| QTestPose {
        bboxmin: p.bboxmin,
        bboxmax: p.bboxmax,
        name: [0; 16],
        verts: p.verts,
        low: Vec::new(),
    };
    QTestFile {
        header: QTestHeader::new(Header {
            version: QTEST_VERSION,
            ..h
        }),
        skins: f.skins,
        texcoords: f.texcoords,
        triangles: f.triangles,
        frames: f.frames.into_iter().map(|fr| map_frame(fr, pose)).collect(),
        trailing: f.trailing,
    }
}

/// The low byte of coordinate `axis` of vertex `vertex` in pose `pose` of an [`md16`]
/// fixture: spread over 0..=255 so that every pose has fractions of its own.
pub fn md16_low_byte(pose: usize, vertex: usize, axis: usize) -> u8 {
    ((vertex * 53 + pose * 29 + axis * 97 + 11) % 256) as u8
}

/// A QuakeForge `MD16` file from a spec: the same file with, after each pose's vertices, a
/// block of low bytes from [`md16_low_byte`] (pose index counted over the whole file, group
/// members included); the low block repeats the high block's normal indices, as QuakeForge's
/// exporter does.
pub fn md16(spec: &Spec) -> Md16File<'static> {
    let f = build(spec);
    let mut index = 0usize;
    let frames = f
        .frames
        .into_iter()
        .map(|fr| {
            map_frame(fr, |p: SimpleFrame| {
                let k = index;
                index += 1;
                let low = p
                    .verts
                    .iter()
                    .enumerate()
                    .map(|(i, v)| Vertex {
                        v: std::array::from_fn(|a| md16_low_byte(k, i, a)),
                        normal_index: v.normal_index,
                    })
                    .collect();
                Md16Pose {
                    bboxmin: p.bboxmin,
                    bboxmax: p.bboxmax,
                    name: p.name,
                    verts: p.verts,
                    low,
                }
            })
        })
        .collect();
    Md16File {
        header: f.header,
        skins: f.skins,
        texcoords: f.texcoords,
        triangles: f.triangles,
        frames,
        trailing: f.trailing,
    }
}

/// Which branches a generated Hexen II `RAPO` file exercises beyond [`Spec`]'s.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Hexen2Spec {
    /// Skins, seam flags, frames, flags and trailing bytes as for Quake.
    pub base: Spec,
    /// The back-facing lower half uses texture coordinates of its own (a row lower, not on
    /// the seam) for the equator vertices, which then split into two mesh vertices each.
    pub separate_back_st: bool,
    /// Add a vertex (in every pose) and a texture coordinate that no triangle uses.
    pub unused: bool,
}

/// A Hexen II `RAPO` file from a spec. The texture coordinates are stored in reverse order of
/// the vertices (texture coordinate `5 - v` belongs to vertex `v`), so that no triangle's
/// texture-coordinate index equals its vertex index by accident.
pub fn hexen2(spec: &Hexen2Spec) -> Hexen2File<'static> {
    let f = build(&spec.base);
    let n = f.texcoords.len();
    let mut texcoords: Vec<TexCoord> = f.texcoords.iter().rev().copied().collect();
    let st_of = |v: i32| (n - 1 - v as usize) as u16;
    // Texture coordinates of the back side's equator, one row lower.
    let back_st = n;
    if spec.separate_back_st {
        texcoords.extend(ST[..4].iter().map(|st| TexCoord {
            onseam: 0,
            s: st[0],
            t: st[1] + 2,
        }));
    }
    if spec.unused {
        texcoords.push(TexCoord {
            onseam: 0,
            s: 1,
            t: 1,
        });
    }
    let triangles = f
        .triangles
        .iter()
        .map(|t| Hexen2Triangle {
            facesfront: t.facesfront,
            vertex: t.vertex.map(|v| v as u16),
            st: t.vertex.map(|v| {
                if spec.separate_back_st && t.facesfront == 0 && v < 4 {
                    (back_st + v as usize) as u16
                } else {
                    st_of(v)
                }
            }),
        })
        .collect();
    let extra = |mut p: SimpleFrame| {
        if spec.unused {
            p.verts.push(Vertex {
                v: [64, 64, 64],
                normal_index: 0,
            });
        }
        p
    };
    let frames: Vec<Frame> = f
        .frames
        .into_iter()
        .map(|fr| map_frame(fr, extra))
        .collect();
    let num_verts = n as i32 + i32::from(spec.unused);
    Hexen2File {
        header: Hexen2Header {
            mdl: Header {
                version: HEXEN2_VERSION,
                num_verts,
                ..f.header
            },
            num_st_verts: texcoords.len() as i32,
        },
        skins: f.skins,
        texcoords,
        triangles,
        frames,
        trailing: f.trailing,
    }
}

/// A frame entry with each pose mapped.
fn map_frame<P, Q>(frame: Frame<P>, mut pose: impl FnMut(P) -> Q) -> Frame<Q> {
    match frame {
        Frame::Simple(p) => Frame::Simple(pose(p)),
        Frame::Group {
            frame_type,
            bboxmin,
            bboxmax,
            intervals,
            frames,
        } => Frame::Group {
            frame_type,
            bboxmin,
            bboxmax,
            intervals,
            frames: frames.into_iter().map(pose).collect(),
        },
    }
}

/// The smallest useful file: one 8-bit skin, two simple frames.
pub fn minimal() -> Vec<u8> {
    build(&Spec::default()).write()
}

/// One generated file per branch of the format and of each variant, by name: Quake's first,
/// then `qtest_*`, `md16_*` and `hexen2_*`.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    let s = Spec::default;
    let specs = [
        ("minimal", s()),
        (
            "skin_group",
            Spec {
                skin_group: true,
                ..s()
            },
        ),
        (
            "frame_group",
            Spec {
                frame_group: true,
                ..s()
            },
        ),
        ("seam_backface", Spec { seam: true, ..s() }),
        (
            "trailing_qmex",
            Spec {
                trailing: b"QMEX\x01\x00\x00\x00qME extension data".to_vec(),
                ..s()
            },
        ),
        (
            "mf_holey",
            Spec {
                flags: MF_HOLEY | 0x1_0000 | 8,
                ..s()
            },
        ),
        (
            "skin_16bit",
            Spec {
                skin_16bit: true,
                ..s()
            },
        ),
        ("everything", Spec::everything()),
    ];
    let mut out: Vec<(&'static str, Vec<u8>)> = specs
        .into_iter()
        .map(|(n, spec)| (n, build(&spec).write()))
        .collect();
    let groups = || Spec {
        simple_frames: 5,
        frame_group: true,
        ..s()
    };
    out.push(("qtest_minimal", qtest(&s()).write()));
    out.push(("qtest_frame_group", qtest(&groups()).write()));
    out.push(("qtest_everything", qtest(&Spec::everything()).write()));
    out.push(("md16_minimal", md16(&s()).write()));
    out.push(("md16_frames_and_group", md16(&groups()).write()));
    out.push(("md16_everything", md16(&Spec::everything()).write()));
    let h2 = |base: Spec, separate_back_st: bool, unused: bool| {
        hexen2(&Hexen2Spec {
            base,
            separate_back_st,
            unused,
        })
        .write()
    };
    out.push(("hexen2_minimal", h2(s(), false, false)));
    out.push(("hexen2_seam", h2(Spec { seam: true, ..s() }, false, false)));
    out.push((
        "hexen2_separate_st",
        h2(Spec { seam: true, ..s() }, true, true),
    ));
    out.push(("hexen2_everything", h2(Spec::everything(), true, true)));
    out
}
