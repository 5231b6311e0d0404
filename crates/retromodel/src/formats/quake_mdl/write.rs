//! Serialising: [`File`] and its variants to bytes, the exact mirror of the parser.

use super::raw::*;
use crate::io::Writer;

impl File<'_> {
    /// The file's bytes. An unmodified parsed file comes back byte for byte.
    ///
    /// The writer trusts the counts of the vectors, not the header: callers that edit a
    /// `File` keep `header.num_*` in step (the Model writer of a later release does).
    pub fn write(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(self.size_hint());
        write_header(&mut w, Variant::Quake, &self.header);
        write_skins(&mut w, &self.skins);
        write_geometry(&mut w, &self.texcoords, &self.triangles);
        write_frames(&mut w, &self.frames, write_pose);
        w.bytes(&self.trailing);
        w.into_bytes()
    }

    fn size_hint(&self) -> usize {
        HEADER_SIZE
            + skins_size(&self.skins)
            + 12 * self.texcoords.len()
            + 16 * self.triangles.len()
            + self.pose_count() * (28 + 4 * self.texcoords.len())
            + 16 * self.frames.len()
            + self.trailing.len()
    }
}

impl QTestFile<'_> {
    /// The file's bytes: the 76-byte header, then Quake's layout with nameless poses. An
    /// unmodified parsed file comes back byte for byte; the writer trusts the vectors'
    /// counts, as [`File::write`] does.
    pub fn write(&self) -> Vec<u8> {
        let h = &self.header;
        let mut w = Writer::with_capacity(
            QTEST_HEADER_SIZE
                + skins_size(&self.skins)
                + 28 * self.texcoords.len()
                + self.pose_count() * (12 + 4 * self.texcoords.len())
                + 16 * self.frames.len()
                + self.trailing.len(),
        );
        write_common_header(&mut w, Variant::QTest, &h.to_quake());
        write_skins(&mut w, &self.skins);
        write_geometry(&mut w, &self.texcoords, &self.triangles);
        write_frames(&mut w, &self.frames, |w, p: &QTestPose| {
            write_vertex(w, &p.bboxmin);
            write_vertex(w, &p.bboxmax);
            write_vertices(w, &p.verts);
        });
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}

impl Md16File<'_> {
    /// The file's bytes: Quake's layout with each pose's low-byte block after its vertices.
    /// An unmodified parsed file comes back byte for byte; the writer trusts the vectors'
    /// counts, as [`File::write`] does.
    pub fn write(&self) -> Vec<u8> {
        let mut w = Writer::with_capacity(
            HEADER_SIZE
                + skins_size(&self.skins)
                + 28 * self.texcoords.len()
                + self.pose_count() * (28 + 8 * self.texcoords.len())
                + 16 * self.frames.len()
                + self.trailing.len(),
        );
        write_header(&mut w, Variant::Md16, &self.header);
        write_skins(&mut w, &self.skins);
        write_geometry(&mut w, &self.texcoords, &self.triangles);
        write_frames(&mut w, &self.frames, |w, p: &Md16Pose| {
            write_vertex(w, &p.bboxmin);
            write_vertex(w, &p.bboxmax);
            w.bytes(&p.name);
            write_vertices(w, &p.verts);
            write_vertices(w, &p.low);
        });
        w.bytes(&self.trailing);
        w.into_bytes()
    }
}

impl Hexen2File<'_> {
    /// The file's bytes: the 88-byte header, Quake's skins, the texture coordinates, the
    /// triangles with their 16-bit indices, Quake's frames. An unmodified parsed file comes
    /// back byte for byte; the writer trusts the vectors' counts, as [`File::write`] does.
    pub fn write(&self) -> Vec<u8> {
        let h = &self.header;
        let mut w = Writer::with_capacity(
            HEXEN2_HEADER_SIZE
                + skins_size(&self.skins)
                + 12 * self.texcoords.len()
                + 16 * self.triangles.len()
                + self.pose_count() * (28 + 4 * h.mdl.num_verts.max(0) as usize)
                + 16 * self.frames.len()
                + self.trailing.len(),
        );
        write_header(&mut w, Variant::Hexen2, &h.mdl);
        w.i32(h.num_st_verts);
        write_skins(&mut w, &self.skins);
        write_texcoords(&mut w, &self.texcoords);
        for t in &self.triangles {
            w.i32(t.facesfront);
            t.vertex.iter().for_each(|&v| w.u16(v));
            t.st.iter().for_each(|&v| w.u16(v));
        }
        write_frames(&mut w, &self.frames, write_pose);
        w.bytes(&self.trailing);
        w.into_bytes()
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

/// Quake's 84-byte header under `variant`'s magic.
fn write_header(w: &mut Writer, variant: Variant, h: &Header) {
    write_common_header(w, variant, h);
    w.i32(h.flags);
    w.f32(h.size);
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

fn write_texcoords(w: &mut Writer, texcoords: &[TexCoord]) {
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

fn write_pose(w: &mut Writer, p: &SimpleFrame) {
    write_vertex(w, &p.bboxmin);
    write_vertex(w, &p.bboxmax);
    w.bytes(&p.name);
    write_vertices(w, &p.verts);
}

/// Frame entries: a type word, then one pose or a group (count, bounding box, intervals,
/// poses), each pose written by `pose`.
fn write_frames<P>(w: &mut Writer, frames: &[Frame<P>], pose: impl Fn(&mut Writer, &P)) {
    for f in frames {
        match f {
            Frame::Simple(p) => {
                w.i32(0);
                pose(w, p);
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
                frames.iter().for_each(|p| pose(w, p));
            }
        }
    }
}
