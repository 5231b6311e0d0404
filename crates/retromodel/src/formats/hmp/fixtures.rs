//! Generated HMP terrains for tests and examples: no copied assets.
//!
//! A grid of `width x height` vertices whose packed height at column `ix`, row `iy` of frame
//! `f` is `1000 * ix + 300 * iy + 50 * f`; HMP7 normal bytes are `(3 * ix, -5 * iy)` as
//! signed bytes, HMP5 and HMP4 normal indices `ix + iy`.

use std::borrow::Cow;

use super::raw::*;
use crate::formats::gs_mdl7::fixtures::{skin, SkinKind};
use crate::formats::gs_mdl7::StructSizes;

/// Which branches a generated terrain exercises.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// The version.
    pub version: Version,
    /// Vertices per row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Frames.
    pub frames: usize,
    /// Skins.
    pub skins: Vec<SkinKind>,
    /// Bytes after the last frame.
    pub trailing: Vec<u8>,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            version: Version::Hmp7,
            width: 3,
            height: 2,
            frames: 1,
            skins: vec![SkinKind::External("terrain.pcx")],
            trailing: Vec::new(),
        }
    }
}

/// Scale of the fixtures' packed coordinates.
pub const SCALE: [f32; 3] = [0.5, 0.25, 0.01];
/// Origin of the fixtures.
pub const ORIGIN: [f32; 3] = [-10.0, -5.0, -2.0];
/// Grid spacing of the fixtures.
pub const TRISIZE: [f32; 2] = [8.0, 4.0];

/// The packed height of a fixture vertex.
pub fn height(ix: usize, iy: usize, f: usize) -> u16 {
    (1000 * ix + 300 * iy + 50 * f) as u16
}

/// Builds the terrain a spec describes.
pub fn build(spec: &Spec) -> File<'static> {
    let (w, ht) = (spec.width, spec.height);
    let frames = (0..spec.frames)
        .map(|f| {
            let vertices = match spec.version {
                Version::Hmp4 => Vertices::Packed(
                    (0..w * ht)
                        .map(|i| {
                            let (ix, iy) = (i % w, i / w);
                            PackedVertex {
                                v: [
                                    (16 * ix) as u16,
                                    (16 * (ht - 1 - iy)) as u16,
                                    height(ix, iy, f),
                                ],
                                normal_index: (ix + iy) as u8,
                                pad: 0,
                            }
                        })
                        .collect(),
                ),
                v => Vertices::Heights(
                    (0..w * ht)
                        .map(|i| {
                            let (ix, iy) = (i % w, i / w);
                            HeightVertex {
                                z: height(ix, iy, f),
                                normal: if v == Version::Hmp7 {
                                    [(3 * ix as i8) as u8, (-5 * iy as i8) as u8]
                                } else {
                                    [(ix + iy) as u8, 0]
                                },
                            }
                        })
                        .collect(),
                ),
            };
            let mut name = [0u8; 16];
            let text = format!("frame{f}");
            name[..text.len()].copy_from_slice(text.as_bytes());
            Frame {
                frame_type: 2,
                bboxmin: PackedVertex {
                    v: [0; 3],
                    normal_index: 0xFF,
                    pad: 0,
                },
                bboxmax: PackedVertex {
                    v: [0xFFFF; 3],
                    normal_index: 0xFF,
                    pad: 0,
                },
                name,
                vertices,
            }
        })
        .collect();
    File {
        header: Header {
            ident: spec.version,
            version: 0,
            scale: SCALE,
            origin: ORIGIN,
            bounding_radius: 0.0,
            trisize_x: TRISIZE[0],
            trisize_y: TRISIZE[1],
            fnumverts_x: w as f32,
            num_skins: spec.skins.len() as i32,
            skin_w: 0,
            skin_h: 0,
            num_verts: (w * ht) as i32,
            num_tris: 0,
            num_frames: spec.frames as i32,
            num_stverts: 0,
            flags: 0,
            size: 0.0,
        },
        skins: spec
            .skins
            .iter()
            .enumerate()
            .map(|(i, k)| Skin {
                name: Vec::new(),
                ..skin(k, StructSizes::MED, i)
            })
            .collect(),
        frames,
        trailing: Cow::Owned(spec.trailing.clone()),
    }
}

/// A small valid terrain: HMP7, 3 x 2 vertices, one frame, one external skin.
pub fn minimal() -> Vec<u8> {
    build(&Spec::default()).write()
}

/// Every named fixture: `(name, bytes)`.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    let s = Spec::default;
    vec![
        ("minimal", minimal()),
        (
            "hmp7-everything",
            build(&Spec {
                width: 4,
                height: 3,
                frames: 2,
                skins: vec![
                    SkinKind::Rgb565,
                    SkinKind::Bgr888MipsMaterial,
                    SkinKind::External("detail.tga"),
                    SkinKind::DdsDefinition,
                ],
                trailing: b"TAIL".to_vec(),
                ..s()
            })
            .write(),
        ),
        (
            "hmp5",
            build(&Spec {
                version: Version::Hmp5,
                skins: vec![SkinKind::Indexed8],
                ..s()
            })
            .write(),
        ),
        (
            "hmp4",
            build(&Spec {
                version: Version::Hmp4,
                frames: 2,
                ..s()
            })
            .write(),
        ),
        (
            "no-skins",
            build(&Spec {
                skins: vec![],
                ..s()
            })
            .write(),
        ),
        ("no-frames", build(&Spec { frames: 0, ..s() }).write()),
        (
            "one-row",
            build(&Spec {
                width: 5,
                height: 1,
                ..s()
            })
            .write(),
        ),
    ]
}
