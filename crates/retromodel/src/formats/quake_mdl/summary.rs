//! The `info` summary of a Quake MDL file and of its variants: the format name says which
//! (`quake-mdl`, `qtest-mdl`, `quakeforge-md16`, `hexen2-mdl`) and the header rows are the
//! variant's own fields under their source names.

use super::raw::{Frame, HeaderLayout, Layout, MdlFile};
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed file of any layout and its converted model.
pub fn summary<L: Layout>(file: &MdlFile<'_, L>, converted: &Converted) -> Summary {
    let h = file.header.quake();
    let v3 = |v: [f32; 3]| Value::Floats(v.to_vec());
    let i = |v: i32| Value::Int(v as i64);
    let mut header = vec![
        (
            "ident",
            Value::Text(String::from_utf8_lossy(&L::VARIANT.ident()).into_owned()),
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
    // QTest's header has no flags and size; they are not shown.
    if L::Header::FLAGS {
        header.push(("flags", i(h.flags)));
        header.push(("size", Value::Float(h.size)));
    }
    let num_st_verts = file.header.num_st_verts();
    header.extend(num_st_verts.map(|n| ("num_st_verts", i(n))));
    // Hexen II's vertices are counted by the header; the others' are the texture coordinates.
    let vertices = match num_st_verts {
        Some(_) => h.num_verts.max(0) as usize,
        None => file.texcoords.len(),
    };
    let poses = file.pose_count();
    Summary {
        header,
        vertices,
        triangles: file.triangles.len(),
        poses,
        frame_groups: file
            .frames
            .iter()
            .filter(|f| matches!(f, Frame::Group { .. }))
            .count(),
        skins: file.skins.len(),
        skin_pictures: file.picture_count(),
        // A file without poses has no geometry to bound (the mesh holds placeholders).
        bounds: (poses > 0).then(|| converted.model.bounds()).flatten(),
        trailing_bytes: file.trailing.len(),
        ..Summary::of_converted(L::VARIANT.name(), h.version as i64, converted)
    }
}
