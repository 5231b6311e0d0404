//! Serialising: [`File`] to bytes, every section at the offset its header gives.

use super::raw::*;
use crate::io::{layout, Writer};

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte: each section at
    /// its header offset (each surface where the chain of `ofs_end` puts it), the gaps
    /// between them restored.
    ///
    /// Sections are written at their offsets, so after editing the vectors call
    /// [`File::relayout`] to keep the headers in step.
    pub fn write(&self) -> Vec<u8> {
        let h = &self.header;
        let mut header = Writer::with_capacity(HEADER_SIZE);
        header.bytes(&IDENT);
        header.i32(h.version);
        header.bytes(&h.name);
        for v in [
            h.flags,
            h.num_frames,
            h.num_tags,
            h.num_surfaces,
            h.num_skins,
            h.ofs_frames,
            h.ofs_tags,
            h.ofs_surfaces,
            h.ofs_end,
        ] {
            header.i32(v);
        }
        let mut frames = Writer::with_capacity(FRAME_SIZE * self.frames.len());
        for f in &self.frames {
            frames.vec3(f.bounds[0]);
            frames.vec3(f.bounds[1]);
            frames.vec3(f.local_origin);
            frames.f32(f.radius);
            frames.bytes(&f.name);
        }
        let mut tags = Writer::with_capacity(TAG_SIZE * self.tags.len());
        for t in &self.tags {
            tags.bytes(&t.name);
            tags.vec3(t.origin);
            t.axis.iter().for_each(|a| tags.vec3(*a));
        }
        let mut parts: Vec<(i64, Vec<u8>)> = vec![
            (0, header.into_bytes()),
            (i64::from(h.ofs_frames), frames.into_bytes()),
            (i64::from(h.ofs_tags), tags.into_bytes()),
        ];
        for (s, base) in self.surfaces.iter().zip(self.surface_offsets()) {
            write_surface(s, base, &mut parts);
        }
        let sections: Vec<(usize, &[u8])> = parts
            .iter()
            .map(|(at, b)| (if b.is_empty() { 0 } else { *at as usize }, b.as_slice()))
            .collect();
        layout::assemble(&sections, &self.gaps, h.ofs_end.max(0) as usize)
    }
}

fn write_surface(s: &Surface, base: i64, parts: &mut Vec<(i64, Vec<u8>)>) {
    let h = &s.header;
    let mut head = Writer::with_capacity(SURFACE_HEADER_SIZE);
    head.bytes(&h.ident);
    head.bytes(&h.name);
    for v in [
        h.flags,
        h.num_frames,
        h.num_shaders,
        h.num_verts,
        h.num_triangles,
        h.ofs_triangles,
        h.ofs_shaders,
        h.ofs_st,
        h.ofs_xyz_normals,
        h.ofs_end,
    ] {
        head.i32(v);
    }
    let mut shaders = Writer::with_capacity(SHADER_SIZE * s.shaders.len());
    for sh in &s.shaders {
        shaders.bytes(&sh.name);
        shaders.i32(sh.shader_index);
    }
    let mut tris = Writer::with_capacity(12 * s.triangles.len());
    s.triangles.iter().flatten().for_each(|&i| tris.i32(i));
    let mut st = Writer::with_capacity(8 * s.st.len());
    s.st.iter().flatten().for_each(|&v| st.f32(v));
    let mut xyz = Writer::with_capacity(8 * s.xyz_normals.len());
    for v in &s.xyz_normals {
        v.xyz.iter().for_each(|c| xyz.bytes(&c.to_le_bytes()));
        xyz.u16(v.normal);
    }
    parts.push((base, head.into_bytes()));
    parts.push((base + i64::from(h.ofs_shaders), shaders.into_bytes()));
    parts.push((base + i64::from(h.ofs_triangles), tris.into_bytes()));
    parts.push((base + i64::from(h.ofs_st), st.into_bytes()));
    parts.push((base + i64::from(h.ofs_xyz_normals), xyz.into_bytes()));
}
