//! The `info` summary of an MD3 file.

use super::raw::File;
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file and its converted model.
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let i = |v: i32| Value::Int(v as i64);
    let mut header = vec![
        ("ident", Value::Text("IDP3".into())),
        ("version", i(h.version)),
        ("name", Value::Text(file.name())),
        ("flags", i(h.flags)),
        ("num_frames", i(h.num_frames)),
        ("num_tags", i(h.num_tags)),
        ("num_surfaces", i(h.num_surfaces)),
        ("num_skins", i(h.num_skins)),
        ("ofs_frames", i(h.ofs_frames)),
        ("ofs_tags", i(h.ofs_tags)),
        ("ofs_surfaces", i(h.ofs_surfaces)),
        ("ofs_end", i(h.ofs_end)),
    ];
    header.push(("tags", Value::Text(file.tag_names().join(" "))));
    let surfaces: Vec<String> = file
        .surfaces
        .iter()
        .map(|s| {
            let sh = &s.header;
            let shaders: Vec<String> = s.shader_names().collect();
            format!(
                "{} ({} vertices, {} triangles, {} frames, shaders: {})",
                s.name(),
                sh.num_verts,
                sh.num_triangles,
                sh.num_frames,
                if shaders.is_empty() {
                    "none".to_string()
                } else {
                    shaders.join(", ")
                }
            )
        })
        .collect();
    header.push(("surfaces", Value::Text(surfaces.join("; "))));
    Summary {
        header,
        vertices: file
            .surfaces
            .iter()
            .map(|s| s.header.num_verts as usize)
            .sum(),
        triangles: file.surfaces.iter().map(|s| s.triangles.len()).sum(),
        poses: file.frames.len(),
        skins: converted.model.skins.len(),
        skin_names: converted.model.skin_names(),
        bounds: (!file.frames.is_empty())
            .then(|| converted.model.bounds())
            .flatten(),
        trailing_bytes: file.gap_bytes(),
        ..Summary::of_converted(super::FORMAT, h.version as i64, converted)
    }
}
