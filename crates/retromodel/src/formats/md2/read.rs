//! Parsing: bytes to [`File`], every count, offset, size and index checked once, here.

use std::borrow::Cow;

use super::glcmds;
use super::raw::*;
use super::FORMAT;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::io::Reader;
use crate::limits::{Budget, Limits};

/// What one frame costs once decoded: the raw vertices, and a position and normal (24 bytes)
/// for up to three mesh vertices per file vertex (one per distinct texture coordinate).
fn frame_cost(num_xyz: usize) -> u64 {
    256 + (4 + 3 * 24) * num_xyz as u64
}

/// One section of the file as the header places it.
struct Section {
    name: &'static str,
    /// Header offset of the `ofs_*` field, for errors.
    field_at: usize,
    offset: i32,
    len: u64,
}

impl<'a> File<'a> {
    /// Parses an MD2 file. Gaps and frame padding borrow from `data`.
    ///
    /// Fails on a wrong magic or version, a negative count, a section that runs past the end
    /// of the file, `ofs_end` past the end, a frame size too small for its vertices, an index
    /// out of range, or a malformed GL command list (a command running past the list, a
    /// missing terminator, an index out of range).
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let mut r = Reader::new(data, FORMAT);
        let header = read_header(&mut r).context_with(|| "header")?;
        let h = &header;
        let err = |at: usize, kind, msg: String| r.error_at(at, kind, msg);

        r.skin_size(h.skinwidth, h.skinheight, 8, limits)?;
        let counts = [
            ("num_skins", h.num_skins, 20),
            ("num_xyz", h.num_xyz, 24),
            ("num_st", h.num_st, 28),
            ("num_tris", h.num_tris, 32),
            ("num_glcmds", h.num_glcmds, 36),
            ("num_frames", h.num_frames, 40),
        ];
        for (name, value, at) in counts {
            r.count_in_limit(value, name, at, limits)?;
        }
        let num_xyz = h.num_xyz as usize;
        let min_framesize = FRAME_HEAD_SIZE as u64 + 4 * num_xyz as u64;
        if (h.framesize as i64) < min_framesize as i64 {
            return Err(err(
                16,
                ErrorKind::InvalidValue,
                format!(
                    "frame size {} too small for {num_xyz} vertices (needs at least {min_framesize})",
                    h.framesize
                ),
            ));
        }
        if h.ofs_end < 0 || h.ofs_end as usize > data.len() {
            return Err(err(
                64,
                ErrorKind::Truncated,
                format!(
                    "ofs_end = {} is past the end of the file ({} bytes)",
                    h.ofs_end,
                    data.len()
                ),
            ));
        }
        let sections = [
            Section {
                name: "skins",
                field_at: 44,
                offset: h.ofs_skins,
                len: SKIN_NAME_SIZE as u64 * h.num_skins as u64,
            },
            Section {
                name: "texture coordinates",
                field_at: 48,
                offset: h.ofs_st,
                len: 4 * h.num_st as u64,
            },
            Section {
                name: "triangles",
                field_at: 52,
                offset: h.ofs_tris,
                len: 12 * h.num_tris as u64,
            },
            Section {
                name: "frames",
                field_at: 56,
                offset: h.ofs_frames,
                len: h.framesize as u64 * h.num_frames as u64,
            },
            Section {
                name: "GL commands",
                field_at: 60,
                offset: h.ofs_glcmds,
                len: 4 * h.num_glcmds as u64,
            },
        ];
        for s in &sections {
            if s.len == 0 {
                continue;
            }
            if s.offset < 0 || s.offset as u64 + s.len > data.len() as u64 {
                return Err(err(
                    s.field_at,
                    ErrorKind::Truncated,
                    format!(
                        "{} at offset {} with {} bytes run past the end of the file ({} bytes)",
                        s.name,
                        s.offset,
                        s.len,
                        data.len()
                    ),
                ));
            }
        }

        // An empty section's offset means nothing (UFO:AI files store 0 for no GL commands).
        let start = |s: &Section| if s.len == 0 { 0 } else { s.offset as usize };
        let mut budget = Budget::new(limits);
        let (num_skins, num_st, num_tris, num_frames) = (
            h.num_skins as usize,
            h.num_st as usize,
            h.num_tris as usize,
            h.num_frames as usize,
        );
        // Decoded sizes are bounded by the section checks above (every element occupies
        // bytes of the file), and the frames by the budget. A file without frames still
        // gets one pose of `num_xyz` vertices in its Model, so it pays for one.
        r.charge(
            &mut budget,
            num_frames.max(1) as u64 * frame_cost(num_xyz),
            40,
        )?;
        r.charge(&mut budget, 16 * num_st as u64 + 64 * num_tris as u64, 28)?;

        r.seek(start(&sections[0]))?;
        let skins = (0..num_skins)
            .map(|_| r.array::<SKIN_NAME_SIZE>())
            .collect::<Result<Vec<_>>>()?;

        r.seek(start(&sections[1]))?;
        let bytes = r.bytes(4 * num_st)?;
        let texcoords = bytes
            .as_chunks::<4>()
            .0
            .iter()
            .map(|&[s0, s1, t0, t1]| TexCoord {
                s: i16::from_le_bytes([s0, s1]),
                t: i16::from_le_bytes([t0, t1]),
            })
            .collect();

        r.seek(start(&sections[2]))?;
        let triangles = match triangles_in_range(r.rest(), num_tris, h) {
            Some(triangles) => {
                r.seek(r.pos() + 12 * num_tris)?;
                triangles
            }
            // A bad index (or, in defence only, a section shorter than the bounds check
            // allowed): read one by one for the error and its offset.
            None => {
                let mut triangles = Vec::with_capacity(num_tris);
                for i in 0..num_tris {
                    triangles
                        .push(read_triangle(&mut r, h).context_with(|| format!("triangle {i}"))?);
                }
                triangles
            }
        };

        r.seek(start(&sections[3]))?;
        let mut frames = Vec::with_capacity(num_frames);
        for i in 0..num_frames {
            frames.push(
                read_frame(&mut r, num_xyz, h.framesize as usize)
                    .context_with(|| format!("frame {i}"))?,
            );
        }

        r.seek(start(&sections[4]))?;
        let words = r.bytes(4 * h.num_glcmds as usize)?;
        let glcmds = glcmds::decode(words, start(&sections[4]), h.num_xyz, &mut budget)
            .context_with(|| "GL commands")?;

        let gaps = crate::io::layout::find_gaps(
            data,
            std::iter::once((0, HEADER_SIZE)).chain(
                sections
                    .iter()
                    .filter(|s| s.len > 0)
                    .map(|s| (s.offset as usize, s.offset as usize + s.len as usize)),
            ),
        );
        Ok(File {
            header,
            skins,
            texcoords,
            triangles,
            frames,
            glcmds,
            gaps,
        })
    }
}

fn read_header(r: &mut Reader<'_>) -> Result<Header> {
    let version = r.magic_and_version(IDENT, VERSION)?;
    let mut f = [0i32; 15];
    for v in &mut f {
        *v = r.i32()?;
    }
    Ok(Header {
        version,
        skinwidth: f[0],
        skinheight: f[1],
        framesize: f[2],
        num_skins: f[3],
        num_xyz: f[4],
        num_st: f[5],
        num_tris: f[6],
        num_glcmds: f[7],
        num_frames: f[8],
        ofs_skins: f[9],
        ofs_st: f[10],
        ofs_tris: f[11],
        ofs_frames: f[12],
        ofs_glcmds: f[13],
        ofs_end: f[14],
    })
}

/// The `count` triangles at the start of `bytes` when they are all there and every index is
/// in range (the common case, decoded in one pass with no per-triangle error path); `None`
/// otherwise, for [`read_triangle`] to find the first problem.
fn triangles_in_range(bytes: &[u8], count: usize, h: &Header) -> Option<Vec<Triangle>> {
    let chunks = bytes.get(..count.checked_mul(12)?)?.as_chunks::<12>().0;
    let word = |c: &[u8; 12], k: usize| i16::from_le_bytes([c[2 * k], c[2 * k + 1]]);
    let triangles: Vec<Triangle> = chunks
        .iter()
        .map(|c| Triangle {
            index_xyz: [word(c, 0), word(c, 1), word(c, 2)],
            index_st: [word(c, 3), word(c, 4), word(c, 5)],
        })
        .collect();
    let (xyz, st) = (0..h.num_xyz, 0..h.num_st);
    let bad = triangles.iter().any(|t| {
        t.index_xyz.iter().any(|&v| !xyz.contains(&i32::from(v)))
            | t.index_st.iter().any(|&v| !st.contains(&i32::from(v)))
    });
    (!bad).then_some(triangles)
}

fn read_triangle(r: &mut Reader<'_>, h: &Header) -> Result<Triangle> {
    let mut read = |what: &str, limit: i32, field: &str| -> Result<[i16; 3]> {
        let mut idx = [0i16; 3];
        for v in &mut idx {
            let at = r.pos();
            *v = i16::from_le_bytes(r.array()?);
            if *v < 0 || *v as i32 >= limit {
                return Err(r.error_at(
                    at,
                    ErrorKind::IndexOutOfRange,
                    format!("{what} index {v} out of range ({field} = {limit})"),
                ));
            }
        }
        Ok(idx)
    };
    Ok(Triangle {
        index_xyz: read("vertex", h.num_xyz, "num_xyz")?,
        index_st: read("texture coordinate", h.num_st, "num_st")?,
    })
}

fn read_frame<'a>(r: &mut Reader<'a>, num_xyz: usize, framesize: usize) -> Result<Frame<'a>> {
    let scale = r.vec3()?;
    let translate = r.vec3()?;
    let name = r.array::<16>()?;
    let bytes = r.bytes(4 * num_xyz)?;
    // Fixed-size chunks: the copy compiles to plain 4-byte moves.
    let verts = bytes
        .as_chunks::<4>()
        .0
        .iter()
        .map(|&[x, y, z, normal_index]| Vertex {
            v: [x, y, z],
            normal_index,
        })
        .collect();
    let padding = Cow::Borrowed(r.bytes(framesize - FRAME_HEAD_SIZE - 4 * num_xyz)?);
    Ok(Frame {
        scale,
        translate,
        name,
        verts,
        padding,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(indices: &[[i16; 6]]) -> Vec<u8> {
        crate::io::le_rows(indices, i16::to_le_bytes)
    }

    #[test]
    fn the_one_pass_triangle_read_refuses_what_the_checked_one_refuses() {
        // More vertices than an i16 holds: a negative index must still be out of range.
        let h = Header {
            num_xyz: 40_000,
            num_st: 7,
            ..Header::default()
        };
        let ok = [[0, 1, i16::MAX, 0, 6, 3]];
        let got = triangles_in_range(&words(&ok), 1, &h).unwrap();
        assert_eq!(got[0].index_xyz, [0, 1, i16::MAX]);
        assert_eq!(got[0].index_st, [0, 6, 3]);
        for bad in [
            [0, -1, 2, 0, 1, 2],
            [0, 1, 39_999u16 as i16, 0, 1, 2],
            [0, 1, 2, 0, 7, 2],
            [0, 1, 2, -3, 1, 2],
            [i16::MIN, 1, 2, 0, 1, 2],
        ] {
            assert!(
                triangles_in_range(&words(&[bad]), 1, &h).is_none(),
                "{bad:?}"
            );
        }
        // A section shorter than its count goes to the checked read for the error.
        assert!(triangles_in_range(&words(&ok)[..11], 1, &h).is_none());
        assert!(triangles_in_range(&words(&ok), usize::MAX, &h).is_none());
        // Negative counts in the header accept no index.
        let negative = Header {
            num_xyz: -5,
            num_st: 7,
            ..Header::default()
        };
        assert!(triangles_in_range(&words(&ok), 1, &negative).is_none());
    }
}
