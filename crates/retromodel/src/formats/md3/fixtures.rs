//! Generated MD3 files for tests, examples and `retromodel sample`: no copied assets.
//!
//! Each surface is an octahedron (6 vertices, 8 triangles, clockwise seen from outside) whose
//! radius grows with the frame; surface `k` is moved `16 * k` units along x. Tags turn about z
//! by 10° a frame and rise one unit a frame.

use super::raw::*;
use crate::math::det;

/// Which branches a generated file exercises.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Number of frames.
    pub frames: usize,
    /// Tag names (every frame has all of them).
    pub tags: Vec<&'static str>,
    /// Surfaces: name and shader names.
    pub surfaces: Vec<(&'static str, Vec<&'static str>)>,
    /// The last surface stores one frame more than the model (per-surface frame counts; the
    /// extra frame is kept but not drawn).
    pub long_surface: bool,
    /// Put 4 unclaimed bytes between the frames and the tags.
    pub gap: bool,
    /// Sections in another order than id's: surfaces first, then tags, then frames.
    pub reordered: bool,
    /// Bytes after `ofs_end`.
    pub trailing: Vec<u8>,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            frames: 2,
            tags: vec!["tag_weapon"],
            surfaces: vec![("body", vec!["models/fixture/body.tga"])],
            long_surface: false,
            gap: false,
            reordered: false,
            trailing: Vec::new(),
        }
    }
}

impl Spec {
    /// Every branch at once: 5 frames, three tags, three surfaces (one without shader, one
    /// with two, one `_1` name), a long surface, a gap, reordered sections and trailing
    /// bytes.
    pub fn everything() -> Self {
        Spec {
            frames: 5,
            tags: vec!["tag_head", "tag_weapon", "tag_torso"],
            surfaces: vec![
                ("body", vec!["models/fixture/body.tga"]),
                ("h_head_1", vec![]),
                (
                    "belt",
                    vec!["models/fixture/belt", "models/fixture/belt_red"],
                ),
            ],
            long_surface: true,
            gap: true,
            reordered: true,
            trailing: b"TAIL".to_vec(),
        }
    }
}

/// The octahedron's vertex `v` (±x, ±y, ±z in that order) at radius `r`, moved by `dx`.
fn corner(v: usize, r: f32, dx: f32) -> [f32; 3] {
    let mut p = [0.0f32; 3];
    p[v / 2] = if v.is_multiple_of(2) { r } else { -r };
    p[0] += dx;
    p
}

/// The 8 faces, clockwise seen from outside.
fn faces() -> Vec<[i32; 3]> {
    let mut out = Vec::new();
    for sx in [0, 1] {
        for sy in [0, 1] {
            for sz in [0, 1] {
                let (a, b, c) = (sx, 2 + sy, 4 + sz);
                // (a, b, c) is counter-clockwise from outside when an even number of the
                // signs is negative.
                out.push(if (sx + sy + sz) % 2 == 0 {
                    [a, c, b]
                } else {
                    [a, b, c]
                });
            }
        }
    }
    out
}

/// Builds the file a spec describes, laid out in id's order (or reordered), then the extras.
pub fn build(spec: &Spec) -> File<'static> {
    let frames: Vec<Frame> = (0..spec.frames)
        .map(|f| {
            let r = 8.0 + 2.0 * f as f32;
            let far = 16.0 * spec.surfaces.len().saturating_sub(1) as f32;
            Frame {
                bounds: [[-r, -r, -r], [r + far, r, r]],
                local_origin: [0.0; 3],
                radius: r + far,
                name: name_field::<16>(&format!("frame{f}")).0,
            }
        })
        .collect();
    let mut tags = Vec::new();
    for f in 0..spec.frames {
        let a = (10.0 * f as f32).to_radians();
        for (k, t) in spec.tags.iter().enumerate() {
            tags.push(Tag {
                name: name_field::<MAX_QPATH>(t).0,
                origin: [k as f32, 0.0, 1.0 + f as f32],
                axis: [
                    [det::cos(a), det::sin(a), 0.0],
                    [-det::sin(a), det::cos(a), 0.0],
                    [0.0, 0.0, 1.0],
                ],
            });
        }
    }
    let count = spec.surfaces.len();
    let surfaces = spec
        .surfaces
        .iter()
        .enumerate()
        .map(|(k, (name, shaders))| {
            let stored = if spec.long_surface && k + 1 == count {
                spec.frames + 1
            } else {
                spec.frames
            };
            let mut xyz_normals = Vec::new();
            for f in 0..stored {
                let r = 8.0 + 2.0 * f as f32;
                for v in 0..6 {
                    let p = corner(v, r, 16.0 * k as f32);
                    xyz_normals.push(XyzNormal {
                        xyz: p.map(|c| (c / XYZ_SCALE).round() as i16),
                        normal: encode_normal(corner(v, 1.0, 0.0)),
                    });
                }
            }
            Surface {
                header: SurfaceHeader {
                    name: name_field::<MAX_QPATH>(name).0,
                    num_frames: stored as i32,
                    ..SurfaceHeader::default()
                },
                shaders: shaders
                    .iter()
                    .enumerate()
                    .map(|(i, s)| Shader {
                        name: name_field::<MAX_QPATH>(s).0,
                        shader_index: i as i32,
                    })
                    .collect(),
                triangles: faces(),
                st: (0..6).map(|v| [v as f32 / 5.0, (v % 2) as f32]).collect(),
                xyz_normals,
            }
        })
        .collect();
    let mut file = File::laid_out("models/fixture/fixture.md3", frames, tags, surfaces);
    let h = &mut file.header;
    let frames_len = (FRAME_SIZE * file.frames.len()) as i32;
    let tags_len = (TAG_SIZE * file.tags.len()) as i32;
    let surfaces_len = h.ofs_end - h.ofs_surfaces;
    let gap = if spec.gap { 4 } else { 0 };
    if spec.reordered {
        h.ofs_surfaces = HEADER_SIZE as i32;
        h.ofs_tags = h.ofs_surfaces + surfaces_len;
        h.ofs_frames = h.ofs_tags + tags_len + gap;
        h.ofs_end = h.ofs_frames + frames_len;
    } else {
        h.ofs_tags += gap;
        h.ofs_surfaces += gap;
        h.ofs_end += gap;
    }
    let gap_at = if spec.reordered {
        h.ofs_frames - gap
    } else {
        h.ofs_tags - gap
    } as usize;
    let end = h.ofs_end as usize;
    if spec.gap {
        file.gaps.push(crate::io::Gap {
            offset: gap_at,
            bytes: b"GAP!".to_vec().into(),
        });
    }
    if !spec.trailing.is_empty() {
        file.gaps.push(crate::io::Gap {
            offset: end,
            bytes: spec.trailing.clone().into(),
        });
    }
    file
}

/// The smallest useful file: one surface, two frames, one tag.
pub fn minimal() -> Vec<u8> {
    build(&Spec::default()).write()
}

/// Every fixture with a name, each one parsing and writing back.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    let base = Spec::default();
    vec![
        ("md3-minimal", minimal()),
        ("md3-everything", build(&Spec::everything()).write()),
        (
            "md3-one-frame-no-tags",
            build(&Spec {
                frames: 1,
                tags: vec![],
                ..base.clone()
            })
            .write(),
        ),
        (
            "md3-no-surfaces",
            build(&Spec {
                surfaces: vec![],
                tags: vec!["tag_flag"],
                ..base.clone()
            })
            .write(),
        ),
        (
            "md3-long-surface",
            build(&Spec {
                long_surface: true,
                frames: 3,
                ..base.clone()
            })
            .write(),
        ),
        (
            "md3-reordered-gap-trailing",
            build(&Spec {
                reordered: true,
                gap: true,
                trailing: b"extra data".to_vec(),
                ..base
            })
            .write(),
        ),
    ]
}
