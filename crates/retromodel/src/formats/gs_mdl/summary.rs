//! The `info` summary of a GameStudio MDL2..MDL5 file.

use super::raw::File;
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file and its converted model. `vertices`, `triangles`, `poses` and
/// `skins` are the header's counts (which the parser checked against the data).
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let v3 = |v: [f32; 3]| Value::Floats(v.to_vec());
    let i = |v: i32| Value::Int(v as i64);
    let n = |v: i32| v.max(0) as usize;
    Summary {
        header: vec![
            ("ident", Value::Text(format!("MDL{}", h.version))),
            ("version_field", i(h.version_field)),
            ("scale", v3(h.scale)),
            ("offset", v3(h.offset)),
            ("radius", Value::Float(h.radius)),
            ("eye", v3(h.eye)),
            ("num_skins", i(h.num_skins)),
            ("skin_width", i(h.skin_width)),
            ("skin_height", i(h.skin_height)),
            ("num_verts", i(h.num_verts)),
            ("num_tris", i(h.num_tris)),
            ("num_frames", i(h.num_frames)),
            ("num_skin_verts", i(h.num_skin_verts)),
            ("flags", i(h.flags)),
            ("num_bones", i(h.num_bones)),
        ],
        vertices: n(h.num_verts),
        triangles: n(h.num_tris),
        poses: n(h.num_frames),
        skins: n(h.num_skins),
        skin_names: file
            .skins
            .iter()
            .filter_map(|s| s.external_name())
            .collect(),
        // A file without frames has no geometry to bound (the mesh holds placeholders).
        bounds: (!file.frames.is_empty())
            .then(|| converted.model.bounds())
            .flatten(),
        trailing_bytes: file.trailing.len(),
        ..Summary::of_converted(file.format_name(), h.version as i64, converted)
    }
}
