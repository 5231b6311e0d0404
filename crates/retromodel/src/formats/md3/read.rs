//! Parsing: bytes to [`File`], every count, offset, size and index checked once, here.

use super::raw::*;
use super::FORMAT;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::io::{layout, Reader};
use crate::limits::{Budget, Limits};

/// What one surface costs once decoded and converted: its structures (the raw surface, the
/// Model's mesh and its summary line: about a kilobyte), a morph target per model frame even
/// when empty (64 bytes), its shaders (68 bytes each, and their names again in the summary), its raw vertices (8 bytes) and, in the Model, a position and normal
/// per vertex per model frame (24 bytes) plus texture coordinates and triangles. A chain of
/// surfaces may repeat one surface's bytes many times, so every one is charged.
fn surface_cost(
    model_frames: usize,
    stored_vertices: usize,
    num_verts: usize,
    tris: usize,
    shaders: usize,
) -> u64 {
    1024 + 64 * model_frames.max(1) as u64
        + 160 * shaders as u64
        + 8 * stored_vertices as u64
        + 24 * model_frames.max(1) as u64 * num_verts as u64
        + 16 * num_verts as u64
        + 24 * tris as u64
}

impl<'a> File<'a> {
    /// Parses an MD3 file. Gaps borrow from `data`.
    ///
    /// Fails on a wrong magic or version, a negative or over-limit count, a section or
    /// surface that runs past the end of the file, `ofs_end` past the end, a surface with
    /// vertices that stores fewer frames than the model, or a triangle index out of range.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let mut r = Reader::new(data, FORMAT);
        let header = read_header(&mut r).context_with(|| "header")?;
        let h = &header;
        let counts = [
            ("num_frames", h.num_frames, 76),
            ("num_tags", h.num_tags, 80),
            ("num_surfaces", h.num_surfaces, 84),
        ];
        for (name, value, at) in counts {
            r.count_in_limit(value, name, at, limits)?;
        }
        if h.ofs_end < 0 || h.ofs_end as usize > data.len() {
            return Err(r.error_at(
                104,
                ErrorKind::Truncated,
                format!(
                    "ofs_end = {} is past the end of the file ({} bytes)",
                    h.ofs_end,
                    data.len()
                ),
            ));
        }
        let num_frames = h.num_frames as usize;
        let num_tags = h.num_tags as usize;
        let mut covered = vec![(0, HEADER_SIZE)];
        let frames_len = FRAME_SIZE as u64 * num_frames as u64;
        let tags_len = TAG_SIZE as u64 * num_frames as u64 * num_tags as u64;
        let frames_at = section(&r, "frames", 92, h.ofs_frames, frames_len, 0, data.len())?;
        let tags_at = section(&r, "tags", 96, h.ofs_tags, tags_len, 0, data.len())?;
        covered.push((frames_at, frames_at + frames_len as usize));
        covered.push((tags_at, tags_at + tags_len as usize));

        let mut budget = Budget::new(limits);
        r.charge(&mut budget, frames_len + tags_len, 76)?;

        r.seek(frames_at)?;
        let mut frames = Vec::with_capacity(num_frames);
        for i in 0..num_frames {
            frames.push(read_frame(&mut r).context_with(|| format!("frame {i}"))?);
        }
        r.seek(tags_at)?;
        let mut tags = Vec::with_capacity(num_frames * num_tags);
        for i in 0..num_frames * num_tags {
            tags.push(
                read_tag(&mut r)
                    .context_with(|| format!("frame {} tag {}", i / num_tags, i % num_tags))?,
            );
        }

        let mut surfaces =
            Vec::with_capacity((h.num_surfaces as usize).min(data.len() / SURFACE_HEADER_SIZE));
        let mut at = i64::from(h.ofs_surfaces);
        for i in 0..h.num_surfaces as usize {
            let s = read_surface(&mut r, at, num_frames, limits, &mut budget, &mut covered)
                .context_with(|| format!("surface {i}"))?;
            at += i64::from(s.header.ofs_end);
            surfaces.push(s);
        }
        let gaps = layout::find_gaps(data, covered);
        Ok(File {
            header,
            frames,
            tags,
            surfaces,
            gaps,
        })
    }
}

/// Checks that `len` bytes at `base + offset` (the offset stored in the field at `field_at`)
/// lie in the file, and returns where they start (0 for an empty section, whose offset means
/// nothing).
fn section(
    r: &Reader<'_>,
    name: &str,
    field_at: usize,
    offset: i32,
    len: u64,
    base: usize,
    file_len: usize,
) -> Result<usize> {
    if len == 0 {
        return Ok(0);
    }
    let start = base as i64 + i64::from(offset);
    if start < 0 || start as u64 + len > file_len as u64 {
        return Err(r.error_at(
            field_at,
            ErrorKind::Truncated,
            format!(
                "{name} at offset {start} with {len} bytes run past the end of the file ({file_len} bytes)"
            ),
        ));
    }
    Ok(start as usize)
}

fn read_header(r: &mut Reader<'_>) -> Result<Header> {
    let version = r.magic_and_version(IDENT, VERSION)?;
    let name = r.array()?;
    let mut f = [0i32; 9];
    for v in &mut f {
        *v = r.i32()?;
    }
    Ok(Header {
        version,
        name,
        flags: f[0],
        num_frames: f[1],
        num_tags: f[2],
        num_surfaces: f[3],
        num_skins: f[4],
        ofs_frames: f[5],
        ofs_tags: f[6],
        ofs_surfaces: f[7],
        ofs_end: f[8],
    })
}

fn read_frame(r: &mut Reader<'_>) -> Result<Frame> {
    Ok(Frame {
        bounds: [r.vec3()?, r.vec3()?],
        local_origin: r.vec3()?,
        radius: r.f32()?,
        name: r.array()?,
    })
}

fn read_tag(r: &mut Reader<'_>) -> Result<Tag> {
    Ok(Tag {
        name: r.array()?,
        origin: r.vec3()?,
        axis: [r.vec3()?, r.vec3()?, r.vec3()?],
    })
}

fn read_surface(
    r: &mut Reader<'_>,
    start: i64,
    model_frames: usize,
    limits: &Limits,
    budget: &mut Budget,
    covered: &mut Vec<(usize, usize)>,
) -> Result<Surface> {
    let data_len = r.pos() + r.remaining();
    if start < 0 || start as u64 + SURFACE_HEADER_SIZE as u64 > data_len as u64 {
        return Err(r.error_at(
            start.clamp(0, data_len as i64) as usize,
            ErrorKind::Truncated,
            format!(
                "surface header at offset {start} runs past the end of the file ({data_len} bytes)"
            ),
        ));
    }
    let base = start as usize;
    r.seek(base)?;
    let ident = r.array()?;
    let name = r.array()?;
    let mut f = [0i32; 10];
    for v in &mut f {
        *v = r.i32()?;
    }
    let h = SurfaceHeader {
        ident,
        name,
        flags: f[0],
        num_frames: f[1],
        num_shaders: f[2],
        num_verts: f[3],
        num_triangles: f[4],
        ofs_triangles: f[5],
        ofs_shaders: f[6],
        ofs_st: f[7],
        ofs_xyz_normals: f[8],
        ofs_end: f[9],
    };
    covered.push((base, base + SURFACE_HEADER_SIZE));
    let field = |i: usize| base + 4 + MAX_QPATH + 4 * i;
    for (i, name, value) in [
        (1, "num_frames", h.num_frames),
        (2, "num_shaders", h.num_shaders),
        (3, "num_verts", h.num_verts),
        (4, "num_triangles", h.num_triangles),
    ] {
        r.count_in_limit(value, name, field(i), limits)?;
    }
    let (num_frames, num_shaders, num_verts, num_tris) = (
        h.num_frames as usize,
        h.num_shaders as usize,
        h.num_verts as usize,
        h.num_triangles as usize,
    );
    if num_verts > 0 && num_frames < model_frames {
        return Err(r.error_at(
            field(1),
            ErrorKind::InvalidValue,
            format!(
                "surface stores {num_frames} frames of the model's {model_frames} (the engine would read past its vertices)"
            ),
        ));
    }
    let stored = num_frames as u64 * num_verts as u64;
    let parts = [
        (
            "shaders",
            6,
            h.ofs_shaders,
            SHADER_SIZE as u64 * num_shaders as u64,
        ),
        ("triangles", 5, h.ofs_triangles, 12 * num_tris as u64),
        ("texture coordinates", 7, h.ofs_st, 8 * num_verts as u64),
        ("vertices", 8, h.ofs_xyz_normals, 8 * stored),
    ];
    let mut starts = [0usize; 4];
    for (k, (what, i, ofs, len)) in parts.into_iter().enumerate() {
        starts[k] = section(r, what, field(i), ofs, len, base, data_len)?;
        covered.push((starts[k], starts[k] + len as usize));
    }
    let cost = surface_cost(
        model_frames,
        stored as usize,
        num_verts,
        num_tris,
        num_shaders,
    );
    r.charge(budget, cost, field(1))?;

    r.seek(starts[0])?;
    let mut shaders = Vec::with_capacity(num_shaders);
    for _ in 0..num_shaders {
        shaders.push(Shader {
            name: r.array()?,
            shader_index: r.i32()?,
        });
    }
    r.seek(starts[1])?;
    let mut triangles = Vec::with_capacity(num_tris);
    for _ in 0..num_tris {
        let mut t = [0i32; 3];
        for v in &mut t {
            let at = r.pos();
            *v = r.i32()?;
            if *v < 0 || *v >= h.num_verts {
                return Err(r.error_at(
                    at,
                    ErrorKind::IndexOutOfRange,
                    format!("vertex index {v} out of range (num_verts = {num_verts})"),
                ));
            }
        }
        triangles.push(t);
    }
    r.seek(starts[2])?;
    let st = r
        .bytes(8 * num_verts)?
        .chunks_exact(8)
        .map(|c| {
            [
                f32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                f32::from_le_bytes([c[4], c[5], c[6], c[7]]),
            ]
        })
        .collect();
    r.seek(starts[3])?;
    let xyz_normals = r
        .bytes(8 * stored as usize)?
        .chunks_exact(8)
        .map(|c| XyzNormal {
            xyz: [0, 2, 4].map(|k| i16::from_le_bytes([c[k], c[k + 1]])),
            normal: u16::from_le_bytes([c[6], c[7]]),
        })
        .collect();
    Ok(Surface {
        header: h,
        shaders,
        triangles,
        st,
        xyz_normals,
    })
}
