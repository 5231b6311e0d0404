//! Serialising: an [`MdlFile`] of any layout to bytes, the exact mirror of the parser.

use super::raw::*;
use crate::io::Writer;

impl<L: Layout> MdlFile<'_, L> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte.
    ///
    /// The writer trusts the counts of the vectors, not the header: callers that edit a
    /// file keep `header.num_*` in step (the Model writer does).
    pub fn write(&self) -> Vec<u8> {
        let h = self.header.quake();
        let mut w = Writer::with_capacity(self.size_hint(&h));
        write_common_header(&mut w, L::VARIANT, &h);
        if L::Header::FLAGS {
            w.i32(h.flags);
            w.f32(h.size);
        }
        if let Some(n) = self.header.num_st_verts() {
            w.i32(n);
        }
        write_skins(&mut w, &self.skins);
        L::Triangle::write_geometry(&mut w, &self.texcoords, &self.triangles);
        write_frames(&mut w, &self.frames);
        w.bytes(&self.trailing);
        w.into_bytes()
    }

    fn size_hint(&self, h: &Header) -> usize {
        let head = if L::Pose::NAMED { 28 } else { 12 };
        let blocks = if L::Pose::LOW { 2 } else { 1 };
        L::VARIANT.header_size()
            + skins_size(&self.skins)
            + 12 * self.texcoords.len()
            + 16 * self.triangles.len()
            + self.pose_count() * (head + 4 * blocks * h.num_verts.max(0) as usize)
            + 16 * self.frames.len()
            + self.trailing.len()
    }
}

/// Magic, version and Quake's header up to `synctype` (all of QTest's header).
fn write_common_header(w: &mut Writer, variant: Variant, h: &Header) {
    w.bytes(&variant.ident());
    w.i32(h.version);
    w.vec3(h.scale);
    w.vec3(h.translate);
    w.f32(h.boundingradius);
    w.vec3(h.eyeposition);
    for v in [
        h.num_skins,
        h.skinwidth,
        h.skinheight,
        h.num_verts,
        h.num_tris,
        h.num_frames,
        h.synctype,
    ] {
        w.i32(v);
    }
}

fn skins_size(skins: &[Skin<'_>]) -> usize {
    skins
        .iter()
        .map(|s| match s {
            Skin::Single { pixels, .. } => 4 + pixels.len(),
            Skin::Group { pictures, .. } => 8 + pictures.iter().map(|p| 4 + p.len()).sum::<usize>(),
        })
        .sum()
}

fn write_skins(w: &mut Writer, skins: &[Skin<'_>]) {
    for skin in skins {
        match skin {
            Skin::Single { skin_type, pixels } => {
                w.i32(*skin_type);
                w.bytes(pixels);
            }
            Skin::Group {
                skin_type,
                intervals,
                pictures,
            } => {
                w.i32(*skin_type);
                w.i32(pictures.len() as i32);
                intervals.iter().for_each(|&t| w.f32(t));
                pictures.iter().for_each(|p| w.bytes(p));
            }
        }
    }
}

pub(super) fn write_texcoords(w: &mut Writer, texcoords: &[TexCoord]) {
    for tc in texcoords {
        w.i32(tc.onseam);
        w.i32(tc.s);
        w.i32(tc.t);
    }
}

/// The texture coordinates and triangles of a Quake MDL; shared with QTest and `MD16`, and
/// with the MDL2 layout of [`crate::formats::gs_mdl`].
pub(crate) fn write_geometry(w: &mut Writer, texcoords: &[TexCoord], triangles: &[Triangle]) {
    write_texcoords(w, texcoords);
    for t in triangles {
        w.i32(t.facesfront);
        t.vertex.iter().for_each(|&v| w.i32(v));
    }
}

fn write_vertex(w: &mut Writer, v: &Vertex) {
    w.bytes(&v.v);
    w.u8(v.normal_index);
}

fn write_vertices(w: &mut Writer, verts: &[Vertex]) {
    verts.iter().for_each(|v| write_vertex(w, v));
}

/// Hexen II's texture coordinates and triangles with their 16-bit indices.
pub(super) fn write_hexen2_geometry(
    w: &mut Writer,
    texcoords: &[TexCoord],
    triangles: &[Hexen2Triangle],
) {
    write_texcoords(w, texcoords);
    for t in triangles {
        w.i32(t.facesfront);
        t.vertex.iter().for_each(|&v| w.u16(v));
        t.st.iter().for_each(|&v| w.u16(v));
    }
}

/// One pose: bounding box, name (none in QTest's), vertices, low block (`MD16`'s).
fn write_pose<P: Pose>(w: &mut Writer, p: &P) {
    p.bounds().iter().for_each(|v| write_vertex(w, v));
    w.bytes(p.name());
    write_vertices(w, p.verts());
    write_vertices(w, p.low());
}

/// Frame entries: a type word, then one pose or a group (count, bounding box, intervals,
/// poses).
fn write_frames<P: Pose>(w: &mut Writer, frames: &[Frame<P>]) {
    for f in frames {
        match f {
            Frame::Simple(p) => {
                w.i32(0);
                write_pose(w, p);
            }
            Frame::Group {
                frame_type,
                bboxmin,
                bboxmax,
                intervals,
                frames,
            } => {
                w.i32(*frame_type);
                w.i32(frames.len() as i32);
                write_vertex(w, bboxmin);
                write_vertex(w, bboxmax);
                intervals.iter().for_each(|&t| w.f32(t));
                frames.iter().for_each(|p| write_pose(w, p));
            }
        }
    }
}
