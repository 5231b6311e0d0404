//! Engine limits of IQM, from the loaders (see the module sources): what makes DarkPlaces
//! (`Mod_INTERQUAKEMODEL_Load`), ioquake3 (`R_LoadIQM`, both renderers), FTEQW
//! (`Mod_ParseIQM`) or Tesseract / Cube 2 / Red Eclipse (`iqm.h`) refuse a file is an
//! [`Severity::Error`]; what they read differently (arrays skipped, scale ignored, speed
//! from elsewhere) a warning.

use super::raw::{ArrayType, ComponentFormat, File};
use crate::diagnostic::{Diagnostic, Severity};

/// ioquake3's `IQM_MAX_JOINTS`.
pub const IOQ3_MAX_JOINTS: usize = 128;
/// FTEQW's `MAX_BONES` (and what a byte blend index can name).
pub const MAX_BONES: usize = 256;
/// ioquake3's most vertices in one mesh (`SHADER_MAX_VERTEXES - 1`).
pub const IOQ3_MAX_VERTS: u32 = 999;
/// ioquake3's most triangles in one mesh (`SHADER_MAX_INDEXES / 3 - 1`).
pub const IOQ3_MAX_TRIANGLES: u32 = 1999;
/// The largest file ioquake3 and Cube 2 load (16 MiB).
pub const MAX_FILE: usize = 16 << 20;

/// The portable format and size of an array type (iqm.txt's recommended subset).
fn portable(t: ArrayType) -> Option<(ComponentFormat, u32)> {
    use ComponentFormat::*;
    Some(match t {
        ArrayType::Position | ArrayType::Normal => (Float, 3),
        ArrayType::Texcoord => (Float, 2),
        ArrayType::Tangent => (Float, 4),
        ArrayType::BlendIndexes | ArrayType::BlendWeights | ArrayType::Color => (UByte, 4),
        _ => return None,
    })
}

/// Checks a parsed file against `engine` (one of the codec's engines).
pub fn validate(file: &File<'_>, engine: &str) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    match engine {
        "ioq3" => ioq3(file, &mut out),
        "darkplaces" => darkplaces(file, &mut out),
        "fteqw" => fteqw(file, &mut out),
        "tesseract" => tesseract(file, &mut out),
        other => out.push(Diagnostic {
            severity: Severity::Error,
            message: format!("unknown engine {other:?} for IQM"),
        }),
    }
    if file.meshes.is_empty() && file.anims.is_empty() {
        out.push(Diagnostic {
            severity: Severity::Warning,
            message: "no meshes and no animations: nothing to show".into(),
        });
    }
    out
}

/// Checks `file` against ioquake3's limits (`R_LoadIQM`, both renderers).
fn ioq3(file: &File<'_>, out: &mut Vec<Diagnostic>) {
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    let (e, w) = (Severity::Error, Severity::Warning);
    let h = &file.header;
    let joints = file.joints.len();
    let poses = file.poses.len();
    let has = |t: ArrayType| file.array(t).is_some();
    if h.version != 2 {
        add(
            e,
            format!("version {}: ioquake3 reads version 2 only", h.version),
        );
    }
    if joints > IOQ3_MAX_JOINTS {
        add(
            e,
            format!("{joints} joints: ioquake3 takes at most {IOQ3_MAX_JOINTS}"),
        );
    }
    if poses != 0 && poses != joints {
        add(e, format!("{poses} poses and {joints} joints: ioquake3 needs as many poses as joints, or none"));
    }
    if h.filesize as usize > MAX_FILE {
        add(
            e,
            format!(
                "filesize = {}: ioquake3 loads at most {MAX_FILE} bytes",
                h.filesize
            ),
        );
    }
    if file
        .meshes
        .iter()
        .any(|m| m.name >= h.num_text || m.material >= h.num_text)
    {
        add(
            e,
            "a mesh's name or material lies outside the text table: ioquake3 refuses the file"
                .into(),
        );
    }
    for a in &file.vertex_arrays {
        let f = a.component_format();
        if !matches!(
            f,
            ComponentFormat::Byte
                | ComponentFormat::UByte
                | ComponentFormat::Int
                | ComponentFormat::UInt
                | ComponentFormat::Float
        ) || a.size > 4
        {
            add(e, format!("{} array of {}x{}: ioquake3 refuses the file (byte, ubyte, int, uint or float, 1..4 components)", a.array_type().name(), f.name(), a.size));
        } else if let Some((pf, ps)) = portable(a.array_type()) {
            let weights_float = a.array_type() == ArrayType::BlendWeights
                && f == ComponentFormat::Float
                && a.size == 4;
            let indexes_int = a.array_type() == ArrayType::BlendIndexes
                && f == ComponentFormat::Int
                && a.size == 4;
            if indexes_int {
                add(w, "blendindexes array of intx4: ioquake3 takes it but reads its bytes as indexes (wrong joints)".into());
            } else if (f, a.size) != (pf, ps) && !weights_float {
                add(
                    e,
                    format!(
                        "{} array of {}x{}: ioquake3 needs {}x{ps}",
                        a.array_type().name(),
                        f.name(),
                        a.size,
                        pf.name()
                    ),
                );
            }
        }
    }
    let needed = has(ArrayType::Position) && has(ArrayType::Normal) && has(ArrayType::Texcoord);
    if !file.meshes.is_empty() && !needed {
        add(
            e,
            "ioquake3 needs position, normal and texcoord arrays".into(),
        );
    }
    if !file.meshes.is_empty() && !has(ArrayType::Tangent) {
        add(
            e,
            "no tangent array: ioquake3's second renderer (OpenArena's default) refuses the file"
                .into(),
        );
    }
    if joints > 0
        && !file.meshes.is_empty()
        && !(has(ArrayType::BlendIndexes) && has(ArrayType::BlendWeights))
    {
        add(
            e,
            "joints without blend arrays: ioquake3 refuses the file".into(),
        );
    }
    for (i, m) in file.meshes.iter().enumerate() {
        if m.num_vertexes > IOQ3_MAX_VERTS || m.num_triangles > IOQ3_MAX_TRIANGLES {
            add(e, format!("mesh {i} ({:?}): {} vertices, {} triangles: ioquake3 takes at most {IOQ3_MAX_VERTS} and {IOQ3_MAX_TRIANGLES}", file.text_at(m.name), m.num_vertexes, m.num_triangles));
        }
    }
    if !file.anims.is_empty() {
        add(
            w,
            "ioquake3 ignores the animations: the game picks frames by number".into(),
        );
    }
}

/// Checks `file` against DarkPlaces' limits (`Mod_INTERQUAKEMODEL_Load`).
fn darkplaces(file: &File<'_>, out: &mut Vec<Diagnostic>) {
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    let (e, w) = (Severity::Error, Severity::Warning);
    let joints = file.joints.len();
    let poses = file.poses.len();
    let animated = file.header.num_frames > 0 || !file.anims.is_empty();
    for a in &file.vertex_arrays {
        let f = a.component_format();
        if let Some((pf, ps)) = portable(a.array_type()) {
            let colour_float =
                a.array_type() == ArrayType::Color && f == ComponentFormat::Float && a.size == 4;
            if (f, a.size) != (pf, ps) && !colour_float {
                add(
                    w,
                    format!(
                        "{} array of {}x{}: DarkPlaces skips it ({}x{ps} read)",
                        a.array_type().name(),
                        f.name(),
                        a.size,
                        pf.name()
                    ),
                );
            }
        }
    }
    let ok = |t: ArrayType| {
        file.array(t)
            .is_some_and(|a| portable(t) == Some((a.component_format(), a.size)))
    };
    let drawable = ok(ArrayType::Position) && ok(ArrayType::Texcoord);
    if !file.meshes.is_empty() && !drawable {
        add(e, "DarkPlaces needs float position and texcoord arrays (\"is missing vertex array data\")".into());
    }
    if !file.meshes.is_empty()
        && animated
        && !(ok(ArrayType::BlendIndexes) && ok(ArrayType::BlendWeights))
    {
        add(e, "animated without ubyte blend arrays: DarkPlaces refuses the file (\"is missing vertex array data\")".into());
    }
    if joints.max(poses) > MAX_BONES {
        add(
            w,
            format!(
                "{} joints: DarkPlaces has no limit, but its byte blend indexes name at most {MAX_BONES}",
                joints.max(poses)
            ),
        );
    }
    for a in &file.anims {
        if a.framerate.is_nan() || a.framerate <= 0.0 {
            add(w, format!("animation {:?} has frame rate 0: DarkPlaces never advances it (a .framegroups file can give the rate)", file.text_at(a.name)));
        }
    }
}

/// Checks `file` against FTEQW's limits (`Mod_ParseIQM`).
fn fteqw(file: &File<'_>, out: &mut Vec<Diagnostic>) {
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    let (e, w) = (Severity::Error, Severity::Warning);
    let h = &file.header;
    let joints = file.joints.len();
    let poses = file.poses.len();
    let animated = file.header.num_frames > 0 || !file.anims.is_empty();
    let len = file_len(file);
    if h.filesize as usize != len {
        add(
            e,
            format!(
                "filesize = {} but the file has {len} bytes: FTEQW refuses it",
                h.filesize
            ),
        );
    }
    if joints > MAX_BONES || poses > MAX_BONES {
        add(
            e,
            format!("{joints} joints, {poses} poses: FTEQW takes at most {MAX_BONES}"),
        );
    }
    if joints != 0 && poses != 0 && joints != poses {
        add(
            e,
            format!("{joints} joints and {poses} poses: FTEQW refuses mismatched joints"),
        );
    }
    if !file.meshes.is_empty() && joints == 0 && animated {
        add(
            e,
            "an animated mesh without joints: FTEQW refuses it (\"mesh IQM has no joints\")".into(),
        );
    }
    for a in &file.anims {
        if a.framerate.is_nan() || a.framerate <= 0.0 {
            add(
                w,
                format!(
                    "animation {:?} has frame rate 0: FTEQW plays it at 10 frames a second",
                    file.text_at(a.name)
                ),
            );
        }
    }
}

/// Checks `file` against Tesseract's, Cube 2's and Red Eclipse's limits (`iqm.h`).
fn tesseract(file: &File<'_>, out: &mut Vec<Diagnostic>) {
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    let (e, w) = (Severity::Error, Severity::Warning);
    let h = &file.header;
    let has = |t: ArrayType| file.array(t).is_some();
    if h.version != 2 {
        add(
            e,
            format!(
                "version {}: Tesseract and Cube 2 read version 2 only",
                h.version
            ),
        );
    }
    if h.filesize as usize > MAX_FILE {
        add(
            e,
            format!(
                "filesize = {}: Tesseract and Cube 2 load at most {MAX_FILE}",
                h.filesize
            ),
        );
    }
    for a in &file.vertex_arrays {
        if let Some((pf, ps)) = portable(a.array_type()) {
            if (a.component_format(), a.size) != (pf, ps) {
                // Only Red Eclipse refuses another colour format.
                let colour = a.array_type() == ArrayType::Color;
                add(
                    if colour { w } else { e },
                    format!(
                        "{} array of {}x{}: Tesseract needs {}x{ps} (colours: Red Eclipse)",
                        a.array_type().name(),
                        a.component_format().name(),
                        a.size,
                        pf.name()
                    ),
                );
            }
        }
    }
    if !file.meshes.is_empty() && !has(ArrayType::Position) {
        add(e, "no position array: Tesseract refuses the file".into());
    }
    if !file.anims.is_empty() {
        add(w, "Tesseract ignores the animations' frame rates: the iqmanim speed of the model's iqm.cfg plays them (10 frames a second without one)".into());
    }
}

/// The length of the file a parsed `File` came from: its `filesize` or the end of the data
/// kept past it.
pub fn file_len(file: &File<'_>) -> usize {
    file.gaps
        .iter()
        .map(|g| g.offset + g.bytes.len())
        .chain([file.header.filesize as usize])
        .max()
        .unwrap_or(0)
}
