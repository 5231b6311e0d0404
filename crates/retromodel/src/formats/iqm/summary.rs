//! The `info` summary of an IQM file.

use super::raw::{ArrayType, ComponentFormat, File};
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file and its converted model.
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let mut header: Vec<(&'static str, Value)> =
        vec![("magic", Value::Text("INTERQUAKEMODEL".into()))];
    header.extend(
        h.fields()
            .iter()
            .map(|(n, v)| (*n, Value::Int(i64::from(*v)))),
    );
    let meshes: Vec<String> = file
        .meshes
        .iter()
        .map(|m| {
            format!(
                "{} (material {:?}, {} vertices, {} triangles)",
                file.text_at(m.name),
                file.text_at(m.material),
                m.num_vertexes,
                m.num_triangles
            )
        })
        .collect();
    header.push(("meshes", Value::Text(meshes.join("; "))));
    let arrays: Vec<String> = file
        .vertex_arrays
        .iter()
        .map(|a| {
            let f = ComponentFormat::of(a.format).map_or("?", ComponentFormat::name);
            match a.array_type() {
                ArrayType::Custom(t) => format!("custom 0x{t:x} {f}x{}", a.size),
                t => format!("{} {f}x{}", t.name(), a.size),
            }
        })
        .collect();
    header.push(("vertexarrays", Value::Text(arrays.join(", "))));
    let anims: Vec<String> = file
        .anims
        .iter()
        .map(|a| {
            format!(
                "{} ({} frames from {} at {} fps{})",
                file.text_at(a.name),
                a.num_frames,
                a.first_frame,
                a.framerate,
                if a.flags & super::raw::LOOP != 0 {
                    ", loops"
                } else {
                    ""
                }
            )
        })
        .collect();
    header.push(("anims", Value::Text(anims.join("; "))));
    let ext: Vec<String> = file
        .extensions
        .iter()
        .map(|e| format!("{} ({} bytes)", file.text_at(e.name), e.num_data))
        .collect();
    header.push(("extensions", Value::Text(ext.join(", "))));
    if !file.comment.is_empty() {
        let end = file
            .comment
            .iter()
            .position(|&b| b == 0)
            .unwrap_or(file.comment.len());
        header.push((
            "comment",
            Value::Text(String::from_utf8_lossy(&file.comment[..end]).into_owned()),
        ));
    }
    Summary {
        header,
        vertices: h.num_vertexes as usize,
        triangles: converted.model.triangle_count(),
        poses: converted.model.pose_count(),
        skins: converted.model.skins.len(),
        joints: converted.model.joints.len(),
        skin_names: converted.model.skin_names(),
        bounds: converted.model.bounds(),
        trailing_bytes: file.gap_bytes(),
        ..Summary::of_converted(super::FORMAT, i64::from(h.version), converted)
    }
}
