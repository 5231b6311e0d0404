//! Serialising: [`File`] to bytes, the exact mirror of the parser.

use super::raw::*;
use crate::io::Writer;

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte.
    ///
    /// The writer trusts the counts of the vectors, not the header: callers that edit a
    /// `File` keep `header.num_*` in step (the Model writer of a later release does).
    pub fn write(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.size_hint());
        let h = &self.header;
        w.bytes(&IDENT);
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
            h.flags,
        ] {
            w.i32(v);
        }
        w.f32(h.size);
        for skin in &self.skins {
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
        write_geometry(&mut w, &self.texcoords, &self.triangles);
        for f in &self.frames {
            match f {
                Frame::Simple(p) => {
                    w.i32(0);
                    write_pose(&mut w, p);
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
                    write_vertex(&mut w, bboxmin);
                    write_vertex(&mut w, bboxmax);
                    intervals.iter().for_each(|&t| w.f32(t));
                    frames.iter().for_each(|p| write_pose(&mut w, p));
                }
            }
        }
        w.bytes(&self.trailing);
        w.into_bytes()
    }

    fn size_hint(&self) -> usize {
        let skins: usize = self
            .skins
            .iter()
            .map(|s| match s {
                Skin::Single { pixels, .. } => 4 + pixels.len(),
                Skin::Group { pictures, .. } => {
                    8 + pictures.iter().map(|p| 4 + p.len()).sum::<usize>()
                }
            })
            .sum();
        let poses = self.pose_count() * (28 + 4 * self.texcoords.len());
        HEADER_SIZE
            + skins
            + 12 * self.texcoords.len()
            + 16 * self.triangles.len()
            + poses
            + 16 * self.frames.len()
            + self.trailing.len()
    }
}

/// The texture coordinates and triangles of a Quake MDL; shared with the MDL2 layout of
/// [`crate::formats::gs_mdl`].
pub(crate) fn write_geometry(w: &mut Writer, texcoords: &[TexCoord], triangles: &[Triangle]) {
    for tc in texcoords {
        w.i32(tc.onseam);
        w.i32(tc.s);
        w.i32(tc.t);
    }
    for t in triangles {
        w.i32(t.facesfront);
        t.vertex.iter().for_each(|&v| w.i32(v));
    }
}

fn write_vertex(w: &mut Writer, v: &Vertex) {
    w.bytes(&v.v);
    w.u8(v.normal_index);
}

fn write_pose(w: &mut Writer, p: &SimpleFrame) {
    write_vertex(w, &p.bboxmin);
    write_vertex(w, &p.bboxmax);
    w.bytes(&p.name);
    p.verts.iter().for_each(|v| write_vertex(w, v));
}
