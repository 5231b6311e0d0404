//! The `info` summary of a Quake MDL file and of its variants: the format name says which
//! (`quake-mdl`, `qtest-mdl`, `quakeforge-md16`, `hexen2-mdl`) and the header rows are the
//! variant's own fields under their source names.

use super::raw::{Frame, Header, Skin, Variant};
use super::{File, Hexen2File, Md16File, MdlFile, QTestFile};
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file of any layout and its converted model.
pub fn summary<F: MdlFile + ?Sized>(file: &F, converted: &Converted) -> Summary {
    file.summarise(converted)
}

pub(super) fn summary_quake(file: &File<'_>, converted: &Converted) -> Summary {
    Parts {
        variant: Variant::Quake,
        header: &file.header,
        extra: Vec::new(),
        vertices: file.texcoords.len(),
        triangles: file.triangles.len(),
        frames: &file.frames,
        skins: &file.skins,
        trailing: file.trailing.len(),
    }
    .summary(converted)
}

pub(super) fn summary_qtest(file: &QTestFile<'_>, converted: &Converted) -> Summary {
    Parts {
        variant: Variant::QTest,
        header: &file.header.to_quake(),
        extra: Vec::new(),
        vertices: file.texcoords.len(),
        triangles: file.triangles.len(),
        frames: &file.frames,
        skins: &file.skins,
        trailing: file.trailing.len(),
    }
    .summary(converted)
}

pub(super) fn summary_md16(file: &Md16File<'_>, converted: &Converted) -> Summary {
    Parts {
        variant: Variant::Md16,
        header: &file.header,
        extra: Vec::new(),
        vertices: file.texcoords.len(),
        triangles: file.triangles.len(),
        frames: &file.frames,
        skins: &file.skins,
        trailing: file.trailing.len(),
    }
    .summary(converted)
}

pub(super) fn summary_hexen2(file: &Hexen2File<'_>, converted: &Converted) -> Summary {
    Parts {
        variant: Variant::Hexen2,
        header: &file.header.mdl,
        extra: vec![("num_st_verts", Value::Int(file.header.num_st_verts as i64))],
        vertices: file.header.mdl.num_verts.max(0) as usize,
        triangles: file.triangles.len(),
        frames: &file.frames,
        skins: &file.skins,
        trailing: file.trailing.len(),
    }
    .summary(converted)
}

/// What a summary takes from a file of any layout.
struct Parts<'f, P> {
    variant: Variant,
    /// The Quake header fields (QTest's without flags and size, which are not shown).
    header: &'f Header,
    /// Header rows after Quake's (Hexen II's `num_st_verts`).
    extra: Vec<(&'static str, Value)>,
    vertices: usize,
    triangles: usize,
    frames: &'f [Frame<P>],
    skins: &'f [Skin<'f>],
    trailing: usize,
}

impl<P> Parts<'_, P> {
    fn summary(self, converted: &Converted) -> Summary {
        let h = self.header;
        let v3 = |v: [f32; 3]| Value::Floats(v.to_vec());
        let i = |v: i32| Value::Int(v as i64);
        let mut header = vec![
            (
                "ident",
                Value::Text(String::from_utf8_lossy(&self.variant.ident()).into_owned()),
            ),
            ("version", i(h.version)),
            ("scale", v3(h.scale)),
            ("translate", v3(h.translate)),
            ("boundingradius", Value::Float(h.boundingradius)),
            ("eyeposition", v3(h.eyeposition)),
            ("num_skins", i(h.num_skins)),
            ("skinwidth", i(h.skinwidth)),
            ("skinheight", i(h.skinheight)),
            ("num_verts", i(h.num_verts)),
            ("num_tris", i(h.num_tris)),
            ("num_frames", i(h.num_frames)),
            ("synctype", i(h.synctype)),
        ];
        if self.variant != Variant::QTest {
            header.push(("flags", i(h.flags)));
            header.push(("size", Value::Float(h.size)));
        }
        header.extend(self.extra);
        let poses: usize = self.frames.iter().map(Frame::pose_count).sum();
        Summary {
            header,
            vertices: self.vertices,
            triangles: self.triangles,
            poses,
            frame_groups: self
                .frames
                .iter()
                .filter(|f| matches!(f, Frame::Group { .. }))
                .count(),
            skins: self.skins.len(),
            skin_pictures: self.skins.iter().map(Skin::picture_count).sum(),
            // A file without poses has no geometry to bound (the mesh holds placeholders).
            bounds: (poses > 0).then(|| converted.model.bounds()).flatten(),
            trailing_bytes: self.trailing,
            ..Summary::of_converted(self.variant.name(), h.version as i64, converted)
        }
    }
}
