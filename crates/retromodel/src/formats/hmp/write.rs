//! Serialising: [`File`] to bytes, the exact mirror of the parser.

use super::raw::*;
use crate::formats::gs_mdl7::{skin_data_len, write_skin_data, StructSizes};
use crate::io::Writer;

fn write_packed(w: &mut Writer, v: &PackedVertex) {
    v.v.iter().for_each(|&c| w.u16(c));
    w.u8(v.normal_index);
    w.u8(v.pad);
}

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte.
    ///
    /// The writer trusts the vectors for `num_skins` and `num_frames` and the header for the
    /// rest (`num_verts` and the grid are written as stored), so callers that edit a `File`
    /// keep them in step with the frames' vertices.
    pub fn write(&self) -> Vec<u8> {
        let h = &self.header;
        let mut size = HEADER_SIZE + self.trailing.len();
        for s in &self.skins {
            size += SKIN_HEAD_SIZE + skin_data_len(s, StructSizes::MED);
        }
        for f in &self.frames {
            size += FRAME_HEAD_SIZE + f.vertices.len() * h.ident.vertex_size();
        }
        let mut w = Writer::with_capacity(size);
        w.bytes(&h.ident.ident());
        w.i32(h.version);
        w.vec3(h.scale);
        w.vec3(h.origin);
        w.f32(h.bounding_radius);
        w.f32(h.trisize_x);
        w.f32(h.trisize_y);
        w.f32(h.fnumverts_x);
        w.i32(self.skins.len() as i32);
        w.i32(h.skin_w);
        w.i32(h.skin_h);
        w.i32(h.num_verts);
        w.i32(h.num_tris);
        w.i32(self.frames.len() as i32);
        w.i32(h.num_stverts);
        w.i32(h.flags);
        w.f32(h.size);
        for s in &self.skins {
            w.u32(s.skin_type);
            w.u32(s.width);
            w.u32(s.height);
            write_skin_data(&mut w, s, StructSizes::MED);
        }
        for f in &self.frames {
            w.i32(f.frame_type);
            write_packed(&mut w, &f.bboxmin);
            write_packed(&mut w, &f.bboxmax);
            w.bytes(&f.name);
            match &f.vertices {
                Vertices::Packed(v) => v.iter().for_each(|v| write_packed(&mut w, v)),
                Vertices::Heights(v) => {
                    for v in v {
                        w.u16(v.z);
                        w.bytes(&v.normal);
                    }
                }
            }
        }
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}
