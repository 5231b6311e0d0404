//! Serialising: [`File`] to bytes, every section at the offset its header gives.

use super::glcmds;
use super::raw::*;
use crate::io::Writer;

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte: each section at
    /// its header offset, the gaps between them restored.
    ///
    /// Sections are written at `header.ofs_*`, so after editing the vectors call
    /// [`File::relayout`] to keep the header in step.
    pub fn write(&self) -> Vec<u8> {
        let h = &self.header;
        let mut header = Writer::with_capacity(HEADER_SIZE);
        header.bytes(&IDENT);
        for v in [
            h.version,
            h.skinwidth,
            h.skinheight,
            h.framesize,
            h.num_skins,
            h.num_xyz,
            h.num_st,
            h.num_tris,
            h.num_glcmds,
            h.num_frames,
            h.ofs_skins,
            h.ofs_st,
            h.ofs_tris,
            h.ofs_frames,
            h.ofs_glcmds,
            h.ofs_end,
        ] {
            header.i32(v);
        }

        let mut skins = Writer::with_capacity(SKIN_NAME_SIZE * self.skins.len());
        self.skins.iter().for_each(|s| skins.bytes(s));

        let mut st = Writer::with_capacity(4 * self.texcoords.len());
        for tc in &self.texcoords {
            st.bytes(&tc.s.to_le_bytes());
            st.bytes(&tc.t.to_le_bytes());
        }

        let mut tris = Writer::with_capacity(12 * self.triangles.len());
        for t in &self.triangles {
            for i in t.index_xyz.iter().chain(&t.index_st) {
                tris.bytes(&i.to_le_bytes());
            }
        }

        let mut frames = Writer::with_capacity(h.framesize.max(0) as usize * self.frames.len());
        for f in &self.frames {
            frames.vec3(f.scale);
            frames.vec3(f.translate);
            frames.bytes(&f.name);
            for v in &f.verts {
                frames.bytes(&v.v);
                frames.u8(v.normal_index);
            }
            frames.bytes(&f.padding);
        }

        let mut gl = Writer::with_capacity(4 * self.glcmds.word_count());
        glcmds::encode(&self.glcmds, &mut gl);

        let placed = [
            (0, header.into_bytes()),
            (h.ofs_skins, skins.into_bytes()),
            (h.ofs_st, st.into_bytes()),
            (h.ofs_tris, tris.into_bytes()),
            (h.ofs_frames, frames.into_bytes()),
            (h.ofs_glcmds, gl.into_bytes()),
        ];
        let at = |ofs: i32, len: usize| if len == 0 { 0 } else { ofs.max(0) as usize };
        let sections: Vec<(usize, &[u8])> = placed
            .iter()
            .map(|(ofs, b)| (at(*ofs, b.len()), b.as_slice()))
            .collect();
        crate::io::layout::assemble(&sections, &self.gaps, h.ofs_end.max(0) as usize)
    }
}
