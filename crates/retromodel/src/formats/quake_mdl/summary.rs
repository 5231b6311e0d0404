//! The `info` summary of a Quake MDL file.

use super::raw::{File, Frame};
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file and its converted model.
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let v3 = |v: [f32; 3]| Value::Floats(v.to_vec());
    let i = |v: i32| Value::Int(v as i64);
    Summary {
        header: vec![
            ("ident", Value::Text("IDPO".into())),
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
            ("flags", i(h.flags)),
            ("size", Value::Float(h.size)),
        ],
        vertices: file.texcoords.len(),
        triangles: file.triangles.len(),
        poses: file.pose_count(),
        frame_groups: file
            .frames
            .iter()
            .filter(|f| matches!(f, Frame::Group { .. }))
            .count(),
        skins: file.skins.len(),
        skin_pictures: file.picture_count(),
        // A file without poses has no geometry to bound (the mesh holds placeholders).
        bounds: (file.pose_count() > 0)
            .then(|| converted.model.bounds())
            .flatten(),
        trailing_bytes: file.trailing.len(),
        ..Summary::of_converted(super::FORMAT, h.version as i64, converted)
    }
}
