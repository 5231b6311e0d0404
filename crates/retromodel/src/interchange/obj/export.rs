//! Wavefront OBJ (+ MTL) output of one pose, for tools that know only OBJ.
//!
//! Positions are turned from the model's Z-up space to OBJ's customary Y-up with
//! [`crate::model::to_y_up`] (the one axis conversion every exporter uses); `vt` flips `v`
//! (OBJ counts it upwards). Each mesh is an `o` group with its skin's material; skins are
//! referenced as PNG files the caller writes beside the OBJ.

use std::fmt::Write as _;

use crate::error::{Error, ErrorKind, Location, Result};
use crate::model::{to_y_up, Model};

/// Format name used in errors.
pub const FORMAT: &str = "obj";

/// The OBJ and MTL texts of one pose.
#[derive(Debug, Clone, PartialEq)]
pub struct Obj {
    /// The `.obj` text.
    pub obj: String,
    /// The `.mtl` text (one material per skin).
    pub mtl: String,
}

/// Writes pose `frame` of `model` (the mesh positions when the model has no frames).
/// `mtl_file` is the MTL's file name as the OBJ refers to it; `textures[i]` the picture file
/// of skin `i` (materials without one get only a colour).
pub fn to_obj(model: &Model, frame: usize, mtl_file: &str, textures: &[String]) -> Result<Obj> {
    model
        .validate()
        .map_err(|e| Error::new(FORMAT, e.kind, e.message, Location::None))?;
    if !model.frames.is_empty() && frame >= model.frames.len() {
        return Err(Error::new(
            FORMAT,
            ErrorKind::IndexOutOfRange,
            format!(
                "frame {frame} out of range (the model has {} frames)",
                model.frames.len()
            ),
            Location::None,
        ));
    }
    let mut obj = String::new();
    let _ = writeln!(obj, "# written by retromodel");
    if let Some(f) = model.frames.get(frame) {
        let _ = writeln!(obj, "# frame {frame} {:?}", f.name);
    }
    let _ = writeln!(obj, "mtllib {mtl_file}");
    let mut base = 1usize;
    for (mi, m) in model.meshes.iter().enumerate() {
        let (pos, nrm) = match m.morph_targets.get(frame) {
            Some(t) => (&t.positions, &t.normals),
            None => (&m.positions, &m.normals),
        };
        let name = if m.name.is_empty() {
            format!("mesh{mi}")
        } else {
            // One word of text: white space and control bytes (a NUL would make the file
            // binary to every reader, this one's detection included) become `_`.
            m.name
                .replace(|c: char| c.is_whitespace() || c.is_control(), "_")
        };
        let _ = writeln!(obj, "o {name}");
        for p in pos {
            let [x, y, z] = to_y_up(*p);
            let _ = writeln!(obj, "v {x} {y} {z}");
        }
        for uv in &m.uvs {
            let _ = writeln!(obj, "vt {} {}", uv[0], 1.0 - uv[1]);
        }
        for n in nrm {
            let [x, y, z] = to_y_up(*n);
            let _ = writeln!(obj, "vn {x} {y} {z}");
        }
        if let Some(s) = m.skin {
            let _ = writeln!(obj, "usemtl skin{s}");
        }
        for t in &m.triangles {
            let [a, b, c] = t.map(|i| i as usize + base);
            let _ = writeln!(obj, "f {a}/{a}/{a} {b}/{b}/{b} {c}/{c}/{c}");
        }
        base += pos.len();
    }
    let mut mtl = String::from("# written by retromodel\n");
    for (i, _) in model.skins.iter().enumerate() {
        let _ = writeln!(mtl, "newmtl skin{i}\nKd 1 1 1");
        if let Some(t) = textures.get(i) {
            let _ = writeln!(mtl, "map_Kd {t}");
        }
    }
    Ok(Obj { obj, mtl })
}
