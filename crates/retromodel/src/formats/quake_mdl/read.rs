//! Parsing: bytes to [`File`] and its variants, every count, size and index checked once,
//! here.

use std::borrow::Cow;

use super::raw::*;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::io::Reader;
use crate::limits::{Budget, Limits};

/// Bytes of a packed vertex.
const VERTEX_SIZE: usize = 4;
/// Bytes of a simple frame before its vertices: bboxmin, bboxmax, name.
const FRAME_HEAD: usize = 4 + 4 + 16;
/// Bytes of a QTest pose before its vertices: bboxmin, bboxmax (no name).
const QTEST_FRAME_HEAD: usize = 4 + 4;
/// Bytes of a Hexen II triangle: `facesfront`, three `u16` vertex and three `u16` st indices.
const HEXEN2_TRIANGLE_SIZE: usize = 4 + 6 + 6;

/// Offset of the header's word `i` after its first 48 bytes (magic, version, scale,
/// translate, radius, eye position), the same in every variant: `num_skins` is word 0,
/// `skinwidth` 1, `num_verts` 3, `num_tris` 4, `num_frames` 5, Hexen II's `num_st_verts` 9
/// (after `synctype`, `flags` and `size`).
const fn count_at(i: usize) -> usize {
    48 + 4 * i
}
const NUM_SKINS_AT: usize = count_at(0);
const SKINWIDTH_AT: usize = count_at(1);
const NUM_VERTS_AT: usize = count_at(3);
const NUM_TRIS_AT: usize = count_at(4);
const NUM_FRAMES_AT: usize = count_at(5);
const NUM_ST_VERTS_AT: usize = count_at(9);

/// What one skin picture costs once decoded: its bookkeeping and up to 4 bytes a texel.
fn picture_cost(texels: usize) -> u64 {
    128 + 4 * texels as u64
}

/// What one pose costs once decoded: its bookkeeping, the raw vertices (`raw` bytes each),
/// and a position and normal (24 bytes) for up to `mesh_verts` mesh vertices.
fn pose_cost(num_verts: usize, raw: u64, mesh_verts: u64) -> u64 {
    256 + raw * num_verts as u64 + 24 * mesh_verts
}

impl<'a, L: Layout> MdlFile<'a, L> {
    /// Parses a file of layout `L` ([`File::parse`] for Quake's `IDPO` version 6,
    /// `QTestFile::parse`, `Md16File::parse`, `Hexen2File::parse`). Pixel data and trailing
    /// bytes borrow from `data`.
    ///
    /// Fails on a wrong magic or version, a negative or impossible count, a vertex (or
    /// Hexen II texture-coordinate) index out of range, an unknown skin type or truncated data
    /// (an `MD16` pose whose low block is cut short included). Group intervals are not judged
    /// here (see [`super::validate`]): the file is read as stored.
    ///
    /// - QTest: the 76-byte header, Quake's skins, texture coordinates and triangles, and poses
    ///   without names.
    /// - `MD16` (version 6): Quake's layout with a block of low bytes after each pose's
    ///   vertices.
    /// - Hexen II `RAPO` (version 50): the 88-byte header, Quake's skins, `num_st_verts`
    ///   texture coordinates, triangles with separate vertex and texture-coordinate indices,
    ///   Quake's frames.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<MdlFile<'a, L>> {
        let mut r = Reader::new(data, L::VARIANT.name());
        let header = read_header::<L::Header>(&mut r, L::VARIANT)?;
        let h = header.quake();
        let mut budget = Budget::new(limits);
        let skins = read_skins(
            &mut r,
            h.num_skins,
            h.skinwidth,
            h.skinheight,
            limits,
            &mut budget,
        )?;
        let geometry =
            L::Triangle::read_geometry(&mut r, &h, header.num_st_verts(), limits, &mut budget)?;
        let poses = PoseSize::of::<L::Pose>(geometry.num_verts, geometry.mesh_verts);
        let frames = read_frames(&mut r, h.num_frames, poses, limits, &mut budget)?;
        Ok(MdlFile {
            header,
            skins,
            texcoords: geometry.texcoords,
            triangles: geometry.triangles,
            frames,
            trailing: Cow::Borrowed(r.rest()),
        })
    }
}

/// The texture coordinates (one per vertex, `num_verts` at offset 60) and the triangles
/// (`num_tris` at offset 64) of a Quake MDL; shared with QTest and `MD16`, and with the MDL2
/// layout of [`crate::formats::gs_mdl`].
pub(crate) fn read_geometry(
    r: &mut Reader<'_>,
    num_verts: i32,
    num_tris: i32,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<(Vec<TexCoord>, Vec<Triangle>)> {
    let n = r.count(num_verts, "num_verts", 12, NUM_VERTS_AT, limits)?;
    // Raw texcoord plus, per mesh vertex (twice for the seam split), a UV and an index.
    r.charge(budget, (12 + 2 * 12) * n as u64, NUM_VERTS_AT)?;
    let texcoords = read_texcoords(r, n)?;

    let num_tris = r.count(num_tris, "num_tris", 16, NUM_TRIS_AT, limits)?;
    r.charge(budget, (16 + 12) * num_tris as u64, NUM_TRIS_AT)?;
    // One pass over the section with the indices checked together; a bad index (or, in
    // defence only, a section shorter than the checked count) goes to the read below, which
    // names the triangle and the offset.
    if let Some(triangles) = triangles_in_range(r.rest(), num_tris, num_verts) {
        r.seek(r.pos() + 16 * num_tris)?;
        return Ok((texcoords, triangles));
    }
    let mut triangles = Vec::with_capacity(num_tris);
    for i in 0..num_tris {
        let facesfront = r.i32()?;
        let mut vertex = [0i32; 3];
        for v in &mut vertex {
            let at = r.pos();
            *v = r.i32()?;
            if *v < 0 || *v >= num_verts {
                return Err(
                    out_of_range(r, at, "vertex", *v as i64, "num_verts", num_verts)
                        .in_context(format!("triangle {i}")),
                );
            }
        }
        triangles.push(Triangle { facesfront, vertex });
    }
    Ok((texcoords, triangles))
}

/// Quake's texture coordinates and triangles ([`read_geometry`]) with the frames' sizes: a
/// pose has one vertex per texture coordinate, and each may be split on the seam.
pub(super) fn read_quake_geometry(
    r: &mut Reader<'_>,
    h: &Header,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Geometry<Triangle>> {
    let (texcoords, triangles) = read_geometry(r, h.num_verts, h.num_tris, limits, budget)?;
    let num_verts = texcoords.len();
    Ok(Geometry {
        texcoords,
        triangles,
        num_verts,
        mesh_verts: 2 * num_verts as u64,
    })
}

/// Hexen II's `num_st_verts` texture coordinates and its triangles, after the check of
/// `num_verts` (no array of it precedes the frames: its size is checked with theirs).
pub(super) fn read_hexen2_geometry(
    r: &mut Reader<'_>,
    mdl: &Header,
    num_st_verts: i32,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Geometry<Hexen2Triangle>> {
    let num_verts = r.count_in_limit(mdl.num_verts, "num_verts", NUM_VERTS_AT, limits)?;
    let n = r.count(num_st_verts, "num_st_verts", 12, NUM_ST_VERTS_AT, limits)?;
    r.charge(budget, 12 * n as u64, NUM_ST_VERTS_AT)?;
    let texcoords = read_texcoords(r, n)?;

    let num_tris = r.count(
        mdl.num_tris,
        "num_tris",
        HEXEN2_TRIANGLE_SIZE,
        NUM_TRIS_AT,
        limits,
    )?;
    // Raw triangle, its mesh triangle, and per corner a mesh vertex's UV, index and key.
    r.charge(budget, (16 + 12 + 3 * 32) * num_tris as u64, NUM_TRIS_AT)?;
    let mut triangles = Vec::with_capacity(num_tris);
    for i in 0..num_tris {
        let facesfront = r.i32()?;
        let mut read_indices = |what: &str, count: &str, bound: i32| -> Result<[u16; 3]> {
            let mut out = [0u16; 3];
            for v in &mut out {
                let at = r.pos();
                *v = r.u16()?;
                if i32::from(*v) >= bound {
                    return Err(out_of_range(r, at, what, i64::from(*v), count, bound)
                        .in_context(format!("triangle {i}")));
                }
            }
            Ok(out)
        };
        let vertex = read_indices("vertex", "num_verts", mdl.num_verts)?;
        let st = read_indices("st", "num_st_verts", num_st_verts)?;
        triangles.push(Hexen2Triangle {
            facesfront,
            vertex,
            st,
        });
    }
    // Every corner may be a mesh vertex of its own.
    let mesh_verts = 3 * triangles.len() as u64;
    Ok(Geometry {
        texcoords,
        triangles,
        num_verts,
        mesh_verts,
    })
}

/// The error for an index past its array.
fn out_of_range(
    r: &Reader<'_>,
    at: usize,
    what: &str,
    index: i64,
    count: &str,
    bound: i32,
) -> crate::error::Error {
    r.error_at(
        at,
        ErrorKind::IndexOutOfRange,
        format!("{what} index {index} out of range ({count} = {bound})"),
    )
}

/// The `count` triangles at the start of `bytes` when they are all there and every vertex
/// index is below `num_verts`; `None` otherwise.
fn triangles_in_range(bytes: &[u8], count: usize, num_verts: i32) -> Option<Vec<Triangle>> {
    let chunks = bytes.get(..count.checked_mul(16)?)?.as_chunks::<16>().0;
    let word = |c: &[u8; 16], k: usize| {
        i32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
    };
    let triangles: Vec<Triangle> = chunks
        .iter()
        .map(|c| Triangle {
            facesfront: word(c, 0),
            vertex: [word(c, 1), word(c, 2), word(c, 3)],
        })
        .collect();
    let range = 0..num_verts;
    let bad = triangles
        .iter()
        .any(|t| t.vertex.iter().any(|v| !range.contains(v)));
    (!bad).then_some(triangles)
}

/// `n` texture coordinates (`stvert_t`), whose count was checked.
fn read_texcoords(r: &mut Reader<'_>, n: usize) -> Result<Vec<TexCoord>> {
    if let Some(bytes) = r.rest().get(..n.saturating_mul(12)) {
        let texcoords = bytes
            .as_chunks::<12>()
            .0
            .iter()
            .map(|c| {
                let word = |k: usize| {
                    i32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
                };
                TexCoord {
                    onseam: word(0),
                    s: word(1),
                    t: word(2),
                }
            })
            .collect();
        r.seek(r.pos() + 12 * n)?;
        return Ok(texcoords);
    }
    // Short (defensive: the count was checked against the data left): read one by one for
    // the truncation error at its offset.
    let mut texcoords = Vec::with_capacity(n);
    for _ in 0..n {
        texcoords.push(TexCoord {
            onseam: r.i32()?,
            s: r.i32()?,
            t: r.i32()?,
        });
    }
    Ok(texcoords)
}

/// The fields every variant's header has: magic, version, and Quake's header up to
/// `synctype` (all of QTest's), with `flags` and `size` 0.
fn read_common_header(r: &mut Reader<'_>, variant: Variant) -> Result<Header> {
    let version = r.magic_and_version(variant.ident(), variant.version())?;
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
        flags: 0,
        size: 0.0,
    })
}

/// The header of one layout: the fields every variant has, then Quake's `flags` and `size`
/// and Hexen II's `num_st_verts` where the layout has them.
fn read_header<H: HeaderLayout>(r: &mut Reader<'_>, variant: Variant) -> Result<H> {
    (|| {
        let common = read_common_header(r, variant)?;
        let (flags, size) = if H::FLAGS {
            (r.i32()?, r.f32()?)
        } else {
            (0, 0.0)
        };
        let num_st_verts = if H::ST_VERTS { r.i32()? } else { 0 };
        Ok(H::from_parts(common, flags, size, num_st_verts))
    })()
    .context_with(|| "header")
}

/// The `num_skins` skin entries (count at offset 48) of `skinwidth x skinheight` pictures.
fn read_skins<'a>(
    r: &mut Reader<'a>,
    num_skins: i32,
    w: i32,
    hgt: i32,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Vec<Skin<'a>>> {
    r.skin_size(w, hgt, SKINWIDTH_AT, limits)?;
    let texels = w as usize * hgt as usize;
    let num_skins = r.count(num_skins, "num_skins", 4 + texels, NUM_SKINS_AT, limits)?;
    r.charge(budget, 64 * num_skins as u64, NUM_SKINS_AT)?;
    let mut skins = Vec::with_capacity(num_skins);
    for i in 0..num_skins {
        skins.push(read_skin(r, texels, limits, budget).context_with(|| format!("skin {i}"))?);
    }
    Ok(skins)
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

/// `num_verts` packed vertices. The frame's size was checked against the data left, so this
/// reads no further than the input; a truncated pose still fails with its offset.
fn read_vertices(r: &mut Reader<'_>, num_verts: usize) -> Result<Vec<Vertex>> {
    let bytes = r.bytes(num_verts * VERTEX_SIZE)?;
    // Whole 4-byte chunks, no bounds check per byte: the loop vectorises.
    let (chunks, _) = bytes.as_chunks::<VERTEX_SIZE>();
    Ok(chunks
        .iter()
        .map(|&[x, y, z, normal_index]| Vertex {
            v: [x, y, z],
            normal_index,
        })
        .collect())
}

/// How big the poses of one layout are and what they cost.
#[derive(Clone, Copy)]
struct PoseSize {
    /// Vertices per pose.
    num_verts: usize,
    /// Bytes of one pose: bounding box, name (if any), the vertices and the low block (if
    /// any).
    size: usize,
    /// What one pose costs once decoded: its raw vertices and up to `mesh_verts` decoded mesh
    /// vertices.
    cost: u64,
}

impl PoseSize {
    fn of<P: Pose>(num_verts: usize, mesh_verts: u64) -> PoseSize {
        let head = if P::NAMED {
            FRAME_HEAD
        } else {
            QTEST_FRAME_HEAD
        };
        let blocks = if P::LOW { 2 } else { 1 };
        PoseSize {
            num_verts,
            size: head + blocks * VERTEX_SIZE * num_verts,
            cost: pose_cost(num_verts, (blocks * VERTEX_SIZE) as u64, mesh_verts),
        }
    }
}

fn read_pose<P: Pose>(r: &mut Reader<'_>, num_verts: usize) -> Result<P> {
    let bounds = [read_vertex(r)?, read_vertex(r)?];
    let name = if P::NAMED { r.array::<16>()? } else { [0; 16] };
    let verts = read_vertices(r, num_verts)?;
    let low = if P::LOW {
        read_vertices(r, num_verts).context_with(|| "low bytes")?
    } else {
        Vec::new()
    };
    Ok(P::from_parts(bounds, name, verts, low))
}

/// The `num_frames` frame entries (count at offset 68) of one pose layout.
fn read_frames<P: Pose>(
    r: &mut Reader<'_>,
    num_frames: i32,
    poses: PoseSize,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Vec<Frame<P>>> {
    let num_frames = r.count(
        num_frames,
        "num_frames",
        4 + poses.size,
        NUM_FRAMES_AT,
        limits,
    )?;
    r.charge(budget, num_frames as u64 * poses.cost, NUM_FRAMES_AT)?;
    let mut frames = Vec::with_capacity(num_frames);
    for i in 0..num_frames {
        frames.push(read_frame(r, poses, limits, budget).context_with(|| format!("frame {i}"))?);
    }
    Ok(frames)
}

fn read_frame<P: Pose>(
    r: &mut Reader<'_>,
    poses: PoseSize,
    limits: &Limits,
    budget: &mut Budget,
) -> Result<Frame<P>> {
    let num_verts = poses.num_verts;
    let frame_type = r.i32()?;
    if frame_type == 0 {
        return Ok(Frame::Simple(read_pose(r, num_verts)?));
    }
    let nb_at = r.pos();
    let nb = r.i32()?;
    if nb == 0 {
        return Err(r.error_at(nb_at, ErrorKind::BadCount, "frame group with 0 frames"));
    }
    // 8 bytes of group bbox, then per pose an interval and the pose itself.
    let nb = r.count(nb, "nb", 4 + poses.size, nb_at, limits)?;
    r.charge(budget, nb as u64 * poses.cost, nb_at)?;
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

#[cfg(test)]
mod one_pass_tests {
    use super::*;

    fn words(triangles: &[[i32; 4]]) -> Vec<u8> {
        crate::io::le_rows(triangles, i32::to_le_bytes)
    }

    #[test]
    fn the_one_pass_triangle_read_refuses_what_the_checked_one_refuses() {
        let ok = [[1, 0, 4, 2], [0, 3, 3, 1]];
        let got = triangles_in_range(&words(&ok), 2, 5).unwrap();
        assert_eq!(got[1].facesfront, 0);
        assert_eq!(got[1].vertex, [3, 3, 1]);
        for bad in [[1, 0, 5, 2], [0, -1, 0, 0], [0, 0, 0, i32::MIN]] {
            assert!(
                triangles_in_range(&words(&[bad]), 1, 5).is_none(),
                "{bad:?}"
            );
        }
        assert!(triangles_in_range(&words(&ok)[..31], 2, 5).is_none());
        assert!(triangles_in_range(&words(&ok), usize::MAX, 5).is_none());
        assert!(triangles_in_range(&words(&ok), 2, -1).is_none());
    }
}
