//! Parsing: bytes to [`File`], every count, size and index checked once, here.

use std::borrow::Cow;

use super::raw::*;
use super::FORMAT;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::io::Reader;
use crate::limits::{Budget, Limits};

/// Bytes of a packed vertex.
const VERTEX_SIZE: usize = 4;
/// Bytes of a simple frame before its vertices: bboxmin, bboxmax, name.
const FRAME_HEAD: usize = 4 + 4 + 16;

/// What one skin picture costs once decoded: its bookkeeping and up to 4 bytes a texel.
fn picture_cost(texels: usize) -> u64 {
    128 + 4 * texels as u64
}

/// What one pose costs once decoded: its bookkeeping, the raw vertices, and a position and
/// normal (24 bytes) for up to twice as many mesh vertices (the seam split).
fn pose_cost(num_verts: usize) -> u64 {
    256 + (4 + 2 * 24) * num_verts as u64
}

impl<'a> File<'a> {
    /// Parses an MDL file. Pixel data and trailing bytes borrow from `data`.
    ///
    /// Fails on a wrong magic or version, a negative or impossible count, a vertex index out
    /// of range, an unknown skin type or truncated data. Group intervals are not judged here
    /// (see [`super::validate`]): the file is read as stored.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let mut r = Reader::new(data, FORMAT);
        let header = read_header(&mut r).context_with(|| "header")?;
        let h = &header;

        let (w, hgt) = (h.skinwidth, h.skinheight);
        r.skin_size(w, hgt, 52, limits)?;
        let texels = w as usize * hgt as usize;
        let num_skins = r.count(h.num_skins, "num_skins", 4 + texels, 48, limits)?;
        let mut budget = Budget::new(limits);
        r.charge(&mut budget, 64 * num_skins as u64, 48)?;
        let mut skins = Vec::with_capacity(num_skins);
        for i in 0..num_skins {
            skins.push(
                read_skin(&mut r, texels, limits, &mut budget)
                    .context_with(|| format!("skin {i}"))?,
            );
        }

        let (texcoords, triangles) =
            read_geometry(&mut r, h.num_verts, h.num_tris, limits, &mut budget)?;
        let num_verts = texcoords.len();

        let pose_size = FRAME_HEAD + VERTEX_SIZE * num_verts;
        let num_frames = r.count(h.num_frames, "num_frames", 4 + pose_size, 68, limits)?;
        r.charge(&mut budget, num_frames as u64 * pose_cost(num_verts), 68)?;
        let mut frames = Vec::with_capacity(num_frames);
        for i in 0..num_frames {
            frames.push(
                read_frame(&mut r, num_verts, limits, &mut budget)
                    .context_with(|| format!("frame {i}"))?,
            );
        }

        let trailing = Cow::Borrowed(r.rest());
        Ok(File {
            header,
            skins,
            texcoords,
            triangles,
            frames,
            trailing,
        })
    }
}

/// The texture coordinates (one per vertex, `num_verts` at offset 60) and the triangles
/// (`num_tris` at offset 64) of a Quake MDL; shared with the MDL2 layout of
/// [`crate::formats::gs_mdl`].
pub(crate) fn read_geometry(
    r: &mut Reader<'_>,
    num_verts: i32,
    num_tris: i32,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<(Vec<TexCoord>, Vec<Triangle>)> {
    let n = r.count(num_verts, "num_verts", 12, 60, limits)?;
    // Raw texcoord plus, per mesh vertex (twice for the seam split), a UV and an index.
    r.charge(budget, (12 + 2 * 12) * n as u64, 60)?;
    let mut texcoords = Vec::with_capacity(n);
    for _ in 0..n {
        texcoords.push(TexCoord {
            onseam: r.i32()?,
            s: r.i32()?,
            t: r.i32()?,
        });
    }

    let num_tris = r.count(num_tris, "num_tris", 16, 64, limits)?;
    r.charge(budget, (16 + 12) * num_tris as u64, 64)?;
    let mut triangles = Vec::with_capacity(num_tris);
    for i in 0..num_tris {
        let facesfront = r.i32()?;
        let mut vertex = [0i32; 3];
        for v in &mut vertex {
            let at = r.pos();
            *v = r.i32()?;
            if *v < 0 || *v >= num_verts {
                return Err(r
                    .error_at(
                        at,
                        ErrorKind::IndexOutOfRange,
                        format!("vertex index {} out of range (num_verts = {num_verts})", *v),
                    )
                    .in_context(format!("triangle {i}")));
            }
        }
        triangles.push(Triangle { facesfront, vertex });
    }
    Ok((texcoords, triangles))
}

fn read_header(r: &mut Reader<'_>) -> Result<Header> {
    let version = r.magic_and_version(IDENT, VERSION)?;
    Ok(Header {
        version,
        scale: r.vec3()?,
        translate: r.vec3()?,
        boundingradius: r.f32()?,
        eyeposition: r.vec3()?,
        num_skins: r.i32()?,
        skinwidth: r.i32()?,
        skinheight: r.i32()?,
        num_verts: r.i32()?,
        num_tris: r.i32()?,
        num_frames: r.i32()?,
        synctype: r.i32()?,
        flags: r.i32()?,
        size: r.f32()?,
    })
}

fn read_skin<'a>(
    r: &mut Reader<'a>,
    texels: usize,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Skin<'a>> {
    let skin_type = r.i32()?;
    if let Some(fmt) = PixelFormat::from_skin_type(skin_type) {
        r.charge(budget, picture_cost(texels), r.pos())?;
        let size = texels.saturating_mul(fmt.bytes_per_pixel());
        return Ok(Skin::Single {
            skin_type,
            pixels: Cow::Borrowed(r.bytes(size)?),
        });
    }
    // Quake reads every other type word as a group (`ALIAS_SKIN_GROUP` is 1).
    let nb_at = r.pos();
    let nb = r.i32()?;
    if nb == 0 {
        return Err(r.error_at(nb_at, ErrorKind::BadCount, "skin group with 0 pictures"));
    }
    let nb = r.count(nb, "nb", 4 + texels, nb_at, limits)?;
    r.charge(budget, nb as u64 * picture_cost(texels), nb_at)?;
    let intervals = (0..nb).map(|_| r.f32()).collect::<Result<Vec<_>>>()?;
    let pictures = (0..nb)
        .map(|_| r.bytes(texels).map(Cow::Borrowed))
        .collect::<Result<Vec<_>>>()?;
    Ok(Skin::Group {
        skin_type,
        intervals,
        pictures,
    })
}

/// A packed vertex from its 4 bytes.
fn vertex(b: &[u8]) -> Vertex {
    Vertex {
        v: [b[0], b[1], b[2]],
        normal_index: b[3],
    }
}

fn read_vertex(r: &mut Reader<'_>) -> Result<Vertex> {
    Ok(vertex(&r.array::<VERTEX_SIZE>()?))
}

fn read_pose(r: &mut Reader<'_>, num_verts: usize) -> Result<SimpleFrame> {
    let bboxmin = read_vertex(r)?;
    let bboxmax = read_vertex(r)?;
    let name = r.array::<16>()?;
    // The frame's size was checked against the data left, so this reads no further than
    // the input; a truncated pose still fails in `read_vertex` with its offset.
    let bytes = r.bytes(num_verts * VERTEX_SIZE)?;
    let verts = bytes.chunks_exact(VERTEX_SIZE).map(vertex).collect();
    Ok(SimpleFrame {
        bboxmin,
        bboxmax,
        name,
        verts,
    })
}

fn read_frame(
    r: &mut Reader<'_>,
    num_verts: usize,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Frame> {
    let frame_type = r.i32()?;
    let pose_size = FRAME_HEAD + VERTEX_SIZE * num_verts;
    if frame_type == 0 {
        return Ok(Frame::Simple(read_pose(r, num_verts)?));
    }
    let nb_at = r.pos();
    let nb = r.i32()?;
    if nb == 0 {
        return Err(r.error_at(nb_at, ErrorKind::BadCount, "frame group with 0 frames"));
    }
    // 8 bytes of group bbox, then per pose an interval and the pose itself.
    let nb = r.count(nb, "nb", 4 + pose_size, nb_at, limits)?;
    r.charge(budget, nb as u64 * pose_cost(num_verts), nb_at)?;
    let bboxmin = read_vertex(r)?;
    let bboxmax = read_vertex(r)?;
    let intervals = (0..nb).map(|_| r.f32()).collect::<Result<Vec<_>>>()?;
    let mut frames = Vec::with_capacity(nb);
    for i in 0..nb {
        frames.push(read_pose(r, num_verts).context_with(|| format!("group frame {i}"))?);
    }
    Ok(Frame::Group {
        frame_type,
        bboxmin,
        bboxmax,
        intervals,
        frames,
    })
}
