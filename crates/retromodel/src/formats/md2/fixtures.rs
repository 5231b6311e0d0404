//! Generated MD2 files for tests, examples and `retromodel sample`: no copied assets.
//!
//! The shape is a square band with a cap at each end, 10 vertices and 16 triangles: the band is one GL strip, each cap one GL fan, and the band's seam vertices
//! carry two texture coordinates (`s = 0` and `s = skinwidth`). The triangle list is decoded
//! from the GL commands, so both encodings agree by construction.

use super::glcmds;
use super::raw::*;
use crate::formats::normals::nearest_index;

/// Which branches a generated file exercises.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Skin names, stored as given (a 64-byte name has no NUL).
    pub skins: Vec<Vec<u8>>,
    /// Number of frames (`stand1`, `stand2`, ..., then `run1`, ... past 4).
    pub frames: usize,
    /// Write the GL commands (else an empty list with `ofs_glcmds == ofs_end == file size`).
    pub glcmds: bool,
    /// GL vertex layout.
    pub layout: GlLayout,
    /// Bytes of padding at the end of every frame (`framesize` grows by as much).
    pub frame_padding: usize,
    /// Put 4 unclaimed bytes between the header and the skins.
    pub gap: bool,
    /// Bytes after `ofs_end`.
    pub trailing: Vec<u8>,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            skins: vec![b"models/fixture/skin.pcx".to_vec()],
            frames: 2,
            glcmds: true,
            layout: GlLayout::Standard,
            frame_padding: 0,
            gap: false,
            trailing: Vec::new(),
        }
    }
}

impl Spec {
    /// Every branch at once: three skins (one name of 64 bytes without NUL), 6 frames,
    /// frame padding, a gap and trailing bytes.
    pub fn everything() -> Self {
        Spec {
            skins: vec![
                b"models/fixture/skin.pcx".to_vec(),
                b"models/fixture/skin2.pcx".to_vec(),
                [b'x'; SKIN_NAME_SIZE].to_vec(),
            ],
            frames: 6,
            frame_padding: 4,
            gap: true,
            trailing: b"TAIL".to_vec(),
            ..Spec::default()
        }
    }
}

/// Skin size of the fixtures.
pub const SKIN: [i32; 2] = [32, 16];

/// Vertex directions: top ring 0..4, bottom ring 4..8, top apex 8, bottom apex 9.
fn shape(v: usize) -> [f32; 3] {
    let corner = |i: usize| [[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]][i % 4];
    match v {
        0..=3 => [corner(v)[0], corner(v)[1], 1.0],
        4..=7 => [corner(v)[0], corner(v)[1], -1.0],
        8 => [0.0, 0.0, 2.0],
        _ => [0.0, 0.0, -2.0],
    }
}

/// Texture coordinates: top row 0..=4, bottom row 5..=9, apexes 10 and 11.
fn texcoords() -> Vec<TexCoord> {
    let mut st: Vec<TexCoord> = (0..5).map(|i| TexCoord { s: 8 * i, t: 4 }).collect();
    st.extend((0..5).map(|i| TexCoord { s: 8 * i, t: 10 }));
    st.push(TexCoord { s: 16, t: 0 });
    st.push(TexCoord { s: 16, t: 15 });
    st
}

/// The GL commands as (kind, [(vertex, texcoord)]).
fn commands() -> Vec<GlCommand> {
    let st = texcoords();
    let cmd = |kind, corners: &[(i32, usize)]| GlCommand {
        kind,
        vertices: corners
            .iter()
            .map(|&(index, t)| GlVertex {
                s: (st[t].s as f32 + 0.5) / SKIN[0] as f32,
                t: (st[t].t as f32 + 0.5) / SKIN[1] as f32,
                index,
            })
            .collect(),
    };
    vec![
        cmd(
            GlKind::Strip,
            &[
                (0, 0),
                (4, 5),
                (1, 1),
                (5, 6),
                (2, 2),
                (6, 7),
                (3, 3),
                (7, 8),
                (0, 4),
                (4, 9),
            ],
        ),
        cmd(
            GlKind::Fan,
            &[(8, 10), (0, 0), (1, 1), (2, 2), (3, 3), (0, 4)],
        ),
        cmd(
            GlKind::Fan,
            &[(9, 11), (4, 9), (7, 8), (6, 7), (5, 6), (4, 5)],
        ),
    ]
}

/// The triangle list the commands draw (texture coordinates looked up by texel).
fn triangles(cmds: &[GlCommand], st: &[TexCoord]) -> Vec<Triangle> {
    let find = |v: &GlVertex| {
        let s = (v.s * SKIN[0] as f32).floor() as i16;
        let t = (v.t * SKIN[1] as f32).floor() as i16;
        st.iter().position(|c| c.s == s && c.t == t).unwrap_or(0) as i16
    };
    glcmds::triangles(cmds)
        .map(|t| Triangle {
            index_xyz: t.map(|v| v.index as i16),
            index_st: t.map(|v| find(&v)),
        })
        .collect()
}

/// Builds the file a spec describes.
pub fn build(spec: &Spec) -> File<'static> {
    let st = texcoords();
    let cmds = commands();
    let tris = triangles(&cmds, &st);
    let frames = (0..spec.frames)
        .map(|f| {
            let size = 8.0 + 2.0 * f as f32;
            let name = if f < 4 {
                format!("stand{}", f + 1)
            } else {
                format!("run{}", f - 3)
            };
            let (field, _) = name_field::<16>(&name);
            let scale = [size / 127.5, size / 127.5, 2.0 * size / 127.5];
            let translate = [-size, -size, -2.0 * size];
            let verts = (0..10)
                .map(|v| {
                    let d = shape(v);
                    Vertex {
                        v: std::array::from_fn(|k| {
                            let axis = if k == 2 { 2.0 * size } else { size };
                            ((d[k] * axis - translate[k]) / scale[k])
                                .round()
                                .clamp(0.0, 255.0) as u8
                        }),
                        normal_index: nearest_index(d),
                    }
                })
                .collect();
            Frame {
                scale,
                translate,
                name: field,
                verts,
                padding: vec![0xAB; spec.frame_padding].into(),
            }
        })
        .collect();
    let mut file = File {
        header: Header {
            version: VERSION,
            skinwidth: SKIN[0],
            skinheight: SKIN[1],
            ..Header::default()
        },
        skins: spec
            .skins
            .iter()
            .map(|s| {
                let mut field = [0u8; SKIN_NAME_SIZE];
                let n = s.len().min(SKIN_NAME_SIZE);
                field[..n].copy_from_slice(&s[..n]);
                field
            })
            .collect(),
        texcoords: st,
        triangles: tris,
        frames,
        glcmds: if spec.glcmds {
            GlCommands {
                layout: spec.layout,
                commands: cmds,
                terminated: true,
                extra: Vec::new(),
            }
        } else {
            GlCommands::default()
        },
        gaps: Vec::new(),
    };
    file.relayout();
    let h = &mut file.header;
    if spec.gap {
        for ofs in [
            &mut h.ofs_skins,
            &mut h.ofs_st,
            &mut h.ofs_tris,
            &mut h.ofs_frames,
            &mut h.ofs_glcmds,
            &mut h.ofs_end,
        ] {
            *ofs += 4;
        }
        file.gaps.push(Gap {
            offset: HEADER_SIZE,
            bytes: b"GAP!".to_vec().into(),
        });
    }
    if !spec.trailing.is_empty() {
        file.gaps.push(Gap {
            offset: h.ofs_end as usize,
            bytes: spec.trailing.clone().into(),
        });
    }
    file
}

/// A small valid file: one skin, two frames, GL commands.
pub fn minimal() -> Vec<u8> {
    build(&Spec::default()).write()
}

/// Every named fixture: `(name, bytes)`.
pub fn all() -> Vec<(&'static str, Vec<u8>)> {
    let s = Spec::default;
    vec![
        ("minimal", minimal()),
        ("everything", build(&Spec::everything()).write()),
        ("single-frame", build(&Spec { frames: 1, ..s() }).write()),
        ("many-frames", build(&Spec { frames: 40, ..s() }).write()),
        (
            "no-glcmds",
            build(&Spec {
                glcmds: false,
                ..s()
            })
            .write(),
        ),
        (
            "index-first",
            build(&Spec {
                layout: GlLayout::IndexFirst,
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
    ]
}
