//! The `info` summary of an HMP terrain.

use super::raw::File;
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed terrain and its converted model: vertices, poses and skins as the
/// header counts them, the triangles of the grid, and the grid size (`grid`, `WxH`) after the
/// header fields.
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let i = |v: i32| Value::Int(v as i64);
    let v3 = |v: [f32; 3]| Value::Floats(v.to_vec());
    let (w, ht) = file.grid();
    Summary {
        header: vec![
            (
                "ident",
                Value::Text(String::from_utf8_lossy(&h.ident.ident()).into_owned()),
            ),
            ("version", i(h.version)),
            ("scale", v3(h.scale)),
            ("origin", v3(h.origin)),
            ("bounding_radius", Value::Float(h.bounding_radius)),
            ("trisize_x", Value::Float(h.trisize_x)),
            ("trisize_y", Value::Float(h.trisize_y)),
            ("fnumverts_x", Value::Float(h.fnumverts_x)),
            ("num_skins", i(h.num_skins)),
            ("skin_w", i(h.skin_w)),
            ("skin_h", i(h.skin_h)),
            ("num_verts", i(h.num_verts)),
            ("num_tris", i(h.num_tris)),
            ("num_frames", i(h.num_frames)),
            ("num_stverts", i(h.num_stverts)),
            ("flags", i(h.flags)),
            ("size", Value::Float(h.size)),
            ("grid", Value::Text(format!("{w}x{ht}"))),
        ],
        vertices: h.num_verts.max(0) as usize,
        triangles: converted.model.triangle_count(),
        poses: file.frames.len(),
        skins: file.skins.len(),
        skin_names: file.skins.iter().map(|s| s.display_name()).collect(),
        trailing_bytes: file.trailing.len(),
        ..Summary::of_converted(super::FORMAT, h.version as i64, converted)
    }
}
