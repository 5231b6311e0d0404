//! Parsing: bytes to [`File`], every count and the grid checked once, here.

use std::borrow::Cow;

use super::raw::*;
use super::FORMAT;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::formats::gs_mdl7::{read_skin_data, SkinHead, StructSizes};
use crate::io::Reader;
use crate::limits::{Budget, Limits};

/// What one frame costs once converted: the raw vertices, and a position and a normal per
/// vertex.
fn frame_cost(num_verts: usize) -> u64 {
    256 + (8 + 24) * num_verts as u64
}

impl<'a> File<'a> {
    /// Parses an HMP4, HMP5 or HMP7 file. Pictures and trailing bytes borrow from `data`.
    ///
    /// Fails on a wrong magic, a negative or impossible count, a grid width
    /// (`fnumverts_x`) that is not a whole number of at least 1 or does not divide
    /// `num_verts`, an unknown skin type, or truncated data. The version word is not
    /// judged.
    pub fn parse(data: &'a [u8], limits: &Limits) -> Result<File<'a>> {
        let (mut r, header) = Reader::with_header(data, FORMAT, read_header)?;
        let h = &header;
        let mut budget = Budget::new(limits);

        let wx = h.fnumverts_x;
        if !(wx >= 1.0 && wx.fract() == 0.0 && wx <= limits.max_count as f32) {
            return Err(r.error_at(
                44,
                ErrorKind::InvalidValue,
                format!("fnumverts_x = {wx} is not a whole number of vertices per row"),
            ));
        }
        let width = wx as usize;
        r.count_in_limit(h.num_verts, "num_verts", 60, limits)?;
        if !(h.num_verts as usize).is_multiple_of(width) {
            return Err(r.error_at(
                60,
                ErrorKind::InvalidValue,
                format!(
                    "num_verts = {} is not a whole number of rows of {width} vertices",
                    h.num_verts
                ),
            ));
        }

        let num_skins = r.count(h.num_skins, "num_skins", SKIN_HEAD_SIZE, 48, limits)?;
        r.charge(&mut budget, num_skins as u64 * 256, 48)?;
        let mut skins = Vec::with_capacity(num_skins);
        for i in 0..num_skins {
            skins
                .push(read_skin(&mut r, limits, &mut budget).context_with(|| format!("skin {i}"))?);
        }

        let vsize = h.ident.vertex_size();
        let num_verts = h.num_verts as usize;
        let frame_size = FRAME_HEAD_SIZE + vsize * num_verts;
        let num_frames = r.count(h.num_frames, "num_frames", frame_size, 68, limits)?;
        // A terrain without frames still gets a flat grid; every vertex also gets a UV, an
        // index, and up to two triangles.
        r.charge(
            &mut budget,
            num_frames.max(1) as u64 * frame_cost(num_verts) + 64 * num_verts as u64,
            68,
        )?;
        let mut frames = Vec::with_capacity(num_frames);
        for f in 0..num_frames {
            frames.push(
                read_frame(&mut r, h.ident, num_verts).context_with(|| format!("frame {f}"))?,
            );
        }
        let trailing = Cow::Borrowed(r.rest());
        Ok(File {
            header,
            skins,
            frames,
            trailing,
        })
    }
}

fn read_header(r: &mut Reader<'_>) -> Result<Header> {
    let magic = r.array::<4>()?;
    let Some(ident) = Version::from_ident(magic) else {
        return Err(r.bad_magic(&magic));
    };
    Ok(Header {
        ident,
        version: r.i32()?,
        scale: r.vec3()?,
        origin: r.vec3()?,
        bounding_radius: r.f32()?,
        trisize_x: r.f32()?,
        trisize_y: r.f32()?,
        fnumverts_x: r.f32()?,
        num_skins: r.i32()?,
        skin_w: r.i32()?,
        skin_h: r.i32()?,
        num_verts: r.i32()?,
        num_tris: r.i32()?,
        num_frames: r.i32()?,
        num_stverts: r.i32()?,
        flags: r.i32()?,
        size: r.f32()?,
    })
}

fn read_skin<'a>(r: &mut Reader<'a>, limits: &Limits, budget: &mut Budget) -> Result<Skin<'a>> {
    let head = SkinHead {
        at: r.pos(),
        skin_type: r.u32()?,
        width: r.u32()?,
        height: r.u32()?,
    };
    read_skin_data(r, head, Vec::new(), StructSizes::MED, limits, budget)
}

fn packed(b: &[u8]) -> PackedVertex {
    PackedVertex {
        v: [
            u16::from_le_bytes([b[0], b[1]]),
            u16::from_le_bytes([b[2], b[3]]),
            u16::from_le_bytes([b[4], b[5]]),
        ],
        normal_index: b[6],
        pad: b[7],
    }
}

fn read_frame(r: &mut Reader<'_>, version: Version, num_verts: usize) -> Result<Frame> {
    let frame_type = r.i32()?;
    let bboxmin = packed(r.bytes(8)?);
    let bboxmax = packed(r.bytes(8)?);
    let name = r.array::<16>()?;
    let bytes = r.bytes(num_verts * version.vertex_size())?;
    let vertices = match version {
        Version::Hmp4 => Vertices::Packed(bytes.chunks_exact(8).map(packed).collect()),
        Version::Hmp5 | Version::Hmp7 => Vertices::Heights(
            bytes
                .chunks_exact(4)
                .map(|b| HeightVertex {
                    z: u16::from_le_bytes([b[0], b[1]]),
                    normal: [b[2], b[3]],
                })
                .collect(),
        ),
    };
    Ok(Frame {
        frame_type,
        bboxmin,
        bboxmax,
        name,
        vertices,
    })
}
