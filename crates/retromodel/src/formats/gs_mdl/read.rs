//! Parsing: bytes to [`File`], every count, size and index checked once, here.

use std::borrow::Cow;

use super::raw::*;
use super::{format_name, FORMAT};
use crate::error::{ErrorKind, Result, ResultExt};
use crate::formats::quake_mdl;
use crate::io::Reader;
use crate::limits::{Budget, Limits};

/// Bytes of a frame before its vertices, type word excluded: name and the two bbox vertices
/// of a byte-packed frame (a word-packed one has 8 more).
const FRAME_HEAD: usize = 16 + 2 * 4;

/// What one skin picture costs once decoded: its bookkeeping and 4 bytes a texel.
fn picture_cost(texels: u64) -> u64 {
    128 + 4 * texels
}

impl<'a> File<'a> {
    /// Parses an MDL2..MDL5 file. Skin data and trailing bytes borrow from `data`.
    ///
    /// Fails on a magic other than `MDL2`..`MDL5`, a negative or impossible count, a skin
    /// size past [`Limits::max_image_dimension`], an unknown skin or frame type word, a DDS
    /// or external skin outside MDL5 (only MDL5 stores the size they need), a vertex or skin
    /// vertex index out of range, or truncated data. Errors name the version (`gs-mdl3: ...`)
    /// once the magic is known.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let version = read_magic(data)?;
        let mut r = Reader::new(data, format_name(version));
        r.seek(4)?;
        let header = read_header(&mut r, version).context_with(|| "header")?;
        let h = &header;
        let mut budget = Budget::new(limits);

        let per_skin = version == 5;
        if !per_skin {
            r.skin_size(h.skin_width, h.skin_height, 52, limits)?;
        }
        let header_texels = h.skin_width.max(0) as usize * h.skin_height.max(0) as usize;
        // Smallest skin: the type word, MDL5's size words, one byte a texel elsewhere.
        let min_skin = if per_skin { 12 } else { 4 + header_texels };
        let num_skins = r.count(h.num_skins, "num_skins", min_skin, 48, limits)?;
        r.charge(&mut budget, 64 * num_skins as u64, 48)?;
        let mut skins = Vec::with_capacity(num_skins);
        for i in 0..num_skins {
            skins.push(
                read_skin(&mut r, h, limits, &mut budget).context_with(|| format!("skin {i}"))?,
            );
        }

        r.count_in_limit(h.num_verts, "num_verts", 60, limits)?;
        let geometry = if version == 2 {
            read_quake_geometry(&mut r, h, limits, &mut budget)?
        } else {
            read_separate_geometry(&mut r, h, limits, &mut budget)?
        };

        let num_verts = h.num_verts as usize;
        // Mesh vertices after conversion: at most one per triangle corner, plus the
        // vertices no triangle uses.
        let mesh_verts = 3 * geometry.triangle_count() as u64 + num_verts as u64;
        let min_frame = 4 + FRAME_HEAD + 4 * num_verts;
        let num_frames = r.count(h.num_frames, "num_frames", min_frame, 68, limits)?;
        let frame_cost = 256 + 8 * num_verts as u64 + 24 * mesh_verts;
        let mut frames = Vec::with_capacity(num_frames);
        for i in 0..num_frames {
            r.charge(&mut budget, frame_cost, r.pos())?;
            frames.push(read_frame(&mut r, num_verts).context_with(|| format!("frame {i}"))?);
        }

        let trailing = Cow::Borrowed(r.rest());
        Ok(File {
            header,
            skins,
            geometry,
            frames,
            trailing,
        })
    }
}

/// The version digit of an `MDL2`..`MDL5` magic.
fn read_magic(data: &[u8]) -> Result<u8> {
    let mut r = Reader::new(data, FORMAT);
    let magic = r.array::<4>().context_with(|| "header")?;
    match magic {
        [b'M', b'D', b'L', d @ b'2'..=b'5'] => Ok(d - b'0'),
        [b'M', b'D', b'L', d @ (b'6' | b'7')] => Err(r.error_at(
            0,
            ErrorKind::UnsupportedVersion,
            format!(
                "unsupported version MDL{} (this reader takes MDL2..MDL5)",
                d as char
            ),
        )),
        _ => Err(r.bad_magic(&magic)),
    }
}

fn read_header(r: &mut Reader<'_>, version: u8) -> Result<Header> {
    Ok(Header {
        version,
        version_field: r.i32()?,
        scale: r.vec3()?,
        offset: r.vec3()?,
        radius: r.f32()?,
        eye: r.vec3()?,
        num_skins: r.i32()?,
        skin_width: r.i32()?,
        skin_height: r.i32()?,
        num_verts: r.i32()?,
        num_tris: r.i32()?,
        num_frames: r.i32()?,
        num_skin_verts: r.i32()?,
        flags: r.i32()?,
        num_bones: r.i32()?,
    })
}

fn read_skin<'a>(
    r: &mut Reader<'a>,
    h: &Header,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Skin<'a>> {
    let type_at = r.pos();
    let skin_type = r.i32()?;
    let Some(format) = SkinFormat::from_type(skin_type) else {
        return Err(r.error_at(
            type_at,
            ErrorKind::InvalidValue,
            format!(
                "unknown skin type {skin_type} (expected 0, 2..=5 or those plus 8 for \
                 mipmaps, or 6 or 7 in MDL5)"
            ),
        ));
    };
    let per_skin = h.version == 5;
    let size_at = r.pos();
    let (width, height) = if per_skin {
        (r.i32()?, r.i32()?)
    } else {
        (h.skin_width, h.skin_height)
    };
    let Some(bpp) = format.bytes_per_pixel() else {
        if !per_skin {
            return Err(r.error_at(
                type_at,
                ErrorKind::InvalidValue,
                format!(
                    "skin type {skin_type} ({}) needs the per-skin size words of MDL5",
                    format.describe()
                ),
            ));
        }
        // DDS and external skins: the width word is the byte count.
        let what = match format {
            SkinFormat::Dds => "DDS size",
            _ => "name length",
        };
        let n = r.count(width, what, 1, size_at, limits)?;
        r.charge(budget, n as u64, size_at)?;
        return Ok(Skin {
            skin_type,
            width,
            height,
            data: Cow::Borrowed(r.bytes(n)?),
            mipmaps: Cow::Borrowed(&[]),
        });
    };
    if per_skin {
        r.skin_size(width, height, size_at, limits)?;
    }
    let texels = width as u64 * height as u64;
    let mip_texels = if skin_type & MIPMAP_FLAG != 0 {
        mipmap_texels(width as u32, height as u32)
    } else {
        0
    };
    let need = (texels + mip_texels) * bpp as u64;
    if need > r.remaining() as u64 {
        return Err(r.error(
            ErrorKind::Truncated,
            format!(
                "unexpected end of data ({width}x{height} {} skin{} needs {need} bytes, {} left)",
                format.describe(),
                if mip_texels > 0 { " with mipmaps" } else { "" },
                r.remaining()
            ),
        ));
    }
    r.charge(budget, picture_cost(texels), r.pos())?;
    let data = Cow::Borrowed(r.bytes(texels as usize * bpp)?);
    let mipmaps = Cow::Borrowed(r.bytes(mip_texels as usize * bpp)?);
    Ok(Skin {
        skin_type,
        width,
        height,
        data,
        mipmaps,
    })
}

/// An index-out-of-range error at `at`, in the context of triangle `i`.
fn index_error(
    r: &Reader<'_>,
    at: usize,
    i: usize,
    what: &str,
    value: i64,
    count_name: &str,
    count: i32,
) -> crate::error::Error {
    r.error_at(
        at,
        ErrorKind::IndexOutOfRange,
        format!("{what} index {value} out of range ({count_name} = {count})"),
    )
    .in_context(format!("triangle {i}"))
}

/// MDL2: Quake's per-vertex texture coordinates and triangles.
fn read_quake_geometry(
    r: &mut Reader<'_>,
    h: &Header,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Geometry> {
    let (texcoords, triangles) =
        quake_mdl::read::read_geometry(r, h.num_verts, h.num_tris, limits, budget)?;
    Ok(Geometry::Quake {
        texcoords,
        triangles,
    })
}

/// MDL3..MDL5: skin vertices, then triangles with separate vertex and skin vertex indices.
fn read_separate_geometry(
    r: &mut Reader<'_>,
    h: &Header,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Geometry> {
    let n = r.count(h.num_skin_verts, "num_skin_verts", 4, 72, limits)?;
    r.charge(budget, 4 * n as u64, 72)?;
    let mut skin_verts = Vec::with_capacity(n);
    for _ in 0..n {
        let [u0, u1, v0, v1] = r.array::<4>()?;
        skin_verts.push(SkinVert {
            u: i16::from_le_bytes([u0, u1]),
            v: i16::from_le_bytes([v0, v1]),
        });
    }
    let num_tris = r.count(h.num_tris, "num_tris", 12, 64, limits)?;
    // The raw triangle, and per corner a mesh index and up to one mesh vertex's UV.
    r.charge(budget, (12 + 12 + 3 * 12) * num_tris as u64, 64)?;
    let mut triangles = Vec::with_capacity(num_tris);
    for i in 0..num_tris {
        let mut t = Triangle::default();
        for k in 0..6 {
            let at = r.pos();
            let v = r.u16()?;
            let (slot, what, name, count) = if k < 3 {
                (&mut t.vertex[k], "vertex", "num_verts", h.num_verts)
            } else {
                (
                    &mut t.uv[k - 3],
                    "skin vertex",
                    "num_skin_verts",
                    h.num_skin_verts,
                )
            };
            if v as i32 >= count {
                return Err(index_error(r, at, i, what, v as i64, name, count));
            }
            *slot = v;
        }
        triangles.push(t);
    }
    Ok(Geometry::Separate {
        skin_verts,
        triangles,
    })
}

#[inline]
fn read_vertex(b: &[u8], packing: Packing) -> Vertex {
    match packing {
        Packing::Byte => Vertex {
            v: [u16::from(b[0]), u16::from(b[1]), u16::from(b[2])],
            normal_index: b[3],
            bone: 0,
        },
        Packing::Word => Vertex {
            v: [
                u16::from_le_bytes([b[0], b[1]]),
                u16::from_le_bytes([b[2], b[3]]),
                u16::from_le_bytes([b[4], b[5]]),
            ],
            normal_index: b[6],
            bone: b[7],
        },
    }
}

fn read_frame(r: &mut Reader<'_>, num_verts: usize) -> Result<Frame> {
    let type_at = r.pos();
    let packing = match r.i32()? {
        FRAME_BYTE_PACKED => Packing::Byte,
        FRAME_WORD_PACKED => Packing::Word,
        t => {
            return Err(r.error_at(
                type_at,
                ErrorKind::InvalidValue,
                format!("unknown frame type {t} (expected 0 = byte-packed or 2 = word-packed)"),
            ))
        }
    };
    let size = packing.vertex_size();
    let bboxmin = read_vertex(r.bytes(size)?, packing);
    let bboxmax = read_vertex(r.bytes(size)?, packing);
    let name = r.array::<16>()?;
    let bytes = r.bytes(num_verts * size)?;
    // One loop per packing over fixed-size chunks: plain moves, no branch per vertex.
    let verts = match packing {
        Packing::Byte => bytes
            .as_chunks::<4>()
            .0
            .iter()
            .map(|c| read_vertex(c, Packing::Byte))
            .collect(),
        Packing::Word => bytes
            .as_chunks::<8>()
            .0
            .iter()
            .map(|c| read_vertex(c, Packing::Word))
            .collect(),
    };
    Ok(Frame {
        packing,
        bboxmin,
        bboxmax,
        name,
        verts,
    })
}
