//! The `info` summary of an MD2 file.

use super::raw::File;
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file and its converted model.
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let i = |v: i32| Value::Int(v as i64);
    let mut header = vec![
        ("ident", Value::Text("IDP2".into())),
        ("version", i(h.version)),
        ("skinwidth", i(h.skinwidth)),
        ("skinheight", i(h.skinheight)),
        ("framesize", i(h.framesize)),
        ("num_skins", i(h.num_skins)),
        ("num_xyz", i(h.num_xyz)),
        ("num_st", i(h.num_st)),
        ("num_tris", i(h.num_tris)),
        ("num_glcmds", i(h.num_glcmds)),
        ("num_frames", i(h.num_frames)),
        ("ofs_skins", i(h.ofs_skins)),
        ("ofs_st", i(h.ofs_st)),
        ("ofs_tris", i(h.ofs_tris)),
        ("ofs_frames", i(h.ofs_frames)),
        ("ofs_glcmds", i(h.ofs_glcmds)),
        ("ofs_end", i(h.ofs_end)),
    ];
    let gl = &file.glcmds;
    let strips = gl
        .commands
        .iter()
        .filter(|c| c.kind == super::GlKind::Strip)
        .count();
    header.push(("gl_strips", Value::Int(strips as i64)));
    header.push(("gl_fans", Value::Int((gl.commands.len() - strips) as i64)));
    header.push(("gl_triangles", Value::Int(gl.triangle_count() as i64)));
    Summary {
        header,
        vertices: h.num_xyz as usize,
        triangles: file.triangles.len(),
        poses: file.frames.len(),
        skins: file.skins.len(),
        skin_names: file.skin_names().collect(),
        bounds: (!file.frames.is_empty())
            .then(|| converted.model.bounds())
            .flatten(),
        trailing_bytes: file.gap_bytes(),
        ..Summary::of_converted(super::FORMAT, h.version as i64, converted)
    }
}
