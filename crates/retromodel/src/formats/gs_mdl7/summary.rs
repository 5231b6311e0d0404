//! The `info` summary of an MDL7 file.

use super::raw::File;
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file and its converted model: counts as the file stores them
/// (vertices, triangles and skins of all groups, the most frames of any group), joints =
/// bones, meshes = groups.
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let s = h.sizes;
    let i = |v: i32| Value::Int(v as i64);
    let u = |v: u16| Value::Int(v as i64);
    Summary {
        header: vec![
            ("ident", Value::Text("MDL7".into())),
            ("version", i(h.version)),
            ("bones_num", i(h.bones_num)),
            ("groups_num", i(h.groups_num)),
            ("data_size", i(h.data_size)),
            ("entlump_size", i(h.entlump_size)),
            ("medlump_size", i(h.medlump_size)),
            ("bone_stc_size", u(s.bone)),
            ("skin_stc_size", u(s.skin)),
            ("colorvalue_stc_size", u(s.colorvalue)),
            ("material_stc_size", u(s.material)),
            ("skinpoint_stc_size", u(s.skinpoint)),
            ("triangle_stc_size", u(s.triangle)),
            ("mainvertex_stc_size", u(s.mainvertex)),
            ("framevertex_stc_size", u(s.framevertex)),
            ("bonetrans_stc_size", u(s.bonetrans)),
            ("frame_stc_size", u(s.frame)),
        ],
        vertices: file.vertex_count(),
        triangles: file.triangle_count(),
        poses: file.frame_count(),
        skins: file.skin_count(),
        skin_names: file.skins().map(|s| s.display_name()).collect(),
        joints: file.bones.len(),
        meshes: file.groups.len(),
        trailing_bytes: file.trailing.len(),
        ..Summary::of_converted(super::FORMAT, h.version as i64, converted)
    }
}
