//! The `info` summary of a WMP level.

use std::collections::HashSet;

use super::raw::{Item, WedSection, WmpFile};
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a WMP level given its converted model.
///
/// `version` is [`WmpFile::version`] (`710`, or `2` from `// WMP2`; 0 when neither).
/// `vertices` and `triangles` are those of the built mesh (face corners, fan triangles);
/// `meshes` and `skins` count texture groups (one mesh per texture name), `skin_names` are
/// the texture names; `bounds` are the placed level's. The header lists, in this order:
/// `version`, the statements present (`blocks`, `objects`, `lights`, `entities`, `paths`,
/// `sounds`, `levels`), `faces` (over all blocks), `textures` (distinct names used by
/// faces), `palette_colors` (of the `wed` palette) and, when there is a level, its
/// `script`.
pub fn summary(file: &WmpFile, converted: &Converted) -> Summary {
    let count = |pred: fn(&Item) -> bool| file.items().filter(|i| pred(i)).count() as i64;
    let faces: usize = file.blocks().map(|b| b.shape.face_count()).sum();
    let mut textures = HashSet::new();
    for b in file.blocks() {
        for f in 0..b.shape.face_count() {
            if let Some(s) = b.shape.surface(f) {
                textures.insert(s.texture.as_str());
            }
        }
    }
    let palette = file.items().find_map(|i| match i {
        Item::Wed(w) => w.sections.iter().find_map(|s| match s {
            WedSection::Palette(p) => Some(p.len() / 3),
            _ => None,
        }),
        _ => None,
    });
    let version = file.version().unwrap_or(0);
    let mut header = vec![
        ("version", Value::Int(version)),
        ("blocks", Value::Int(count(|i| matches!(i, Item::Block(_))))),
        (
            "objects",
            Value::Int(count(|i| matches!(i, Item::Object(_)))),
        ),
        ("lights", Value::Int(count(|i| matches!(i, Item::Light(_))))),
        (
            "entities",
            Value::Int(count(|i| matches!(i, Item::Entity(_)))),
        ),
        ("paths", Value::Int(count(|i| matches!(i, Item::Path(_))))),
        ("sounds", Value::Int(count(|i| matches!(i, Item::Sound(_))))),
        ("levels", Value::Int(count(|i| matches!(i, Item::Level(_))))),
        ("faces", Value::Int(faces as i64)),
        ("textures", Value::Int(textures.len() as i64)),
        ("palette_colors", Value::Int(palette.unwrap_or(0) as i64)),
    ];
    if let Some(level) = file.items().find_map(|i| match i {
        Item::Level(l) => Some(l),
        _ => None,
    }) {
        header.push(("script", Value::Text(level.script.clone())));
    }
    let model = &converted.model;
    Summary {
        format: super::FORMAT,
        description: "",
        version,
        header,
        vertices: model.vertex_count(),
        triangles: model.triangle_count(),
        poses: 0,
        frame_groups: 0,
        skins: model.skins.len(),
        skin_names: model.skins.iter().map(|s| s.name.clone()).collect(),
        skin_pictures: 0,
        clips: Vec::new(),
        joints: 0,
        meshes: model.meshes.len(),
        bounds: model.bounds(),
        trailing_bytes: 0,
        warnings: converted.warnings.clone(),
    }
}
