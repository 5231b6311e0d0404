//! Serialising: [`File`] to bytes, the exact mirror of the parser.

use super::raw::*;
use crate::io::Writer;

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte.
    ///
    /// The writer trusts the vectors, not the header counts: callers that edit a `File`
    /// keep `header.num_*` in step (as [`super::from_model`] does). MDL5 skins write their
    /// own `width` and `height`; MDL2..MDL4 skins write only their type word and data.
    pub fn write(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.size_hint());
        let h = &self.header;
        w.bytes(&magic(h.version));
        w.i32(h.version_field);
        w.vec3(h.scale);
        w.vec3(h.offset);
        w.f32(h.radius);
        w.vec3(h.eye);
        for v in [
            h.num_skins,
            h.skin_width,
            h.skin_height,
            h.num_verts,
            h.num_tris,
            h.num_frames,
            h.num_skin_verts,
            h.flags,
            h.num_bones,
        ] {
            w.i32(v);
        }
        for s in &self.skins {
            w.i32(s.skin_type);
            if h.version == 5 {
                w.i32(s.width);
                w.i32(s.height);
            }
            w.bytes(&s.data);
            w.bytes(&s.mipmaps);
        }
        match &self.geometry {
            Geometry::Quake {
                texcoords,
                triangles,
            } => crate::formats::quake_mdl::write::write_geometry(&mut w, texcoords, triangles),
            Geometry::Separate {
                skin_verts,
                triangles,
            } => {
                for sv in skin_verts {
                    w.bytes(&sv.u.to_le_bytes());
                    w.bytes(&sv.v.to_le_bytes());
                }
                for t in triangles {
                    t.vertex.iter().chain(&t.uv).for_each(|&i| w.u16(i));
                }
            }
        }
        for f in &self.frames {
            w.i32(f.packing.type_word());
            write_vertex(&mut w, &f.bboxmin, f.packing);
            write_vertex(&mut w, &f.bboxmax, f.packing);
            w.bytes(&f.name);
            f.verts
                .iter()
                .for_each(|v| write_vertex(&mut w, v, f.packing));
        }
        w.bytes(&self.trailing);
        w.into_bytes()
    }

    fn size_hint(&self) -> usize {
        let skins: usize = self
            .skins
            .iter()
            .map(|s| 12 + s.data.len() + s.mipmaps.len())
            .sum();
        let geometry = match &self.geometry {
            Geometry::Quake {
                texcoords,
                triangles,
            } => 12 * texcoords.len() + 16 * triangles.len(),
            Geometry::Separate {
                skin_verts,
                triangles,
            } => 4 * skin_verts.len() + 12 * triangles.len(),
        };
        let frames: usize = self
            .frames
            .iter()
            .map(|f| 20 + (f.verts.len() + 2) * f.packing.vertex_size())
            .sum();
        HEADER_SIZE + skins + geometry + frames + self.trailing.len()
    }
}

fn write_vertex(w: &mut Writer, v: &Vertex, packing: Packing) {
    match packing {
        Packing::Byte => {
            v.v.iter().for_each(|&c| w.u8(c as u8));
            w.u8(v.normal_index);
        }
        Packing::Word => {
            v.v.iter().for_each(|&c| w.u16(c));
            w.u8(v.normal_index);
            w.u8(v.bone);
        }
    }
}
