//! Engine limits of MD3, as ioquake3's `R_LoadMD3` enforces them, with the limits of
//! `qfiles.h` that id's tools (q3data) kept to.
//!
//! What makes ioquake3 refuse the model (`R_LoadMD3` returns false and the model is drawn as
//! nothing) is a [`Severity::Error`]; the tool limits and oddities are warnings.

use super::raw::File;
use crate::diagnostic::{Diagnostic, Severity};

/// ioquake3's `SHADER_MAX_VERTEXES - 1`: the most vertices a surface may have.
pub const MAX_VERTS: usize = 999;
/// ioquake3's `SHADER_MAX_INDEXES / 3 - 1`: the most triangles a surface may have.
pub const MAX_TRIANGLES: usize = 1999;
/// `MD3_MAX_FRAMES`.
pub const MAX_FRAMES: usize = 1024;
/// `MD3_MAX_SURFACES`.
pub const MAX_SURFACES: usize = 32;
/// `MD3_MAX_TAGS` (per frame).
pub const MAX_TAGS: usize = 16;
/// `MD3_MAX_SHADERS` (per surface).
pub const MAX_SHADERS: usize = 256;
/// `MD3_MAX_VERTS`: q3data's limit per surface (ioquake3's renderer allows fewer).
pub const TOOL_MAX_VERTS: usize = 4096;

/// Checks a parsed file against ioquake3's rules.
pub fn validate(file: &File<'_>) -> Vec<Diagnostic> {
    let h = &file.header;
    let mut out = Vec::new();
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    if h.num_frames < 1 {
        add(
            Severity::Error,
            "no frames: ioquake3 refuses the model (\"has no frames\")".into(),
        );
    }
    for (what, n, max) in [
        ("frames", h.num_frames as usize, MAX_FRAMES),
        ("surfaces", h.num_surfaces as usize, MAX_SURFACES),
        ("tags", h.num_tags as usize, MAX_TAGS),
    ] {
        if n > max {
            add(
                Severity::Warning,
                format!("{n} {what}: more than Quake 3's MD3 limit of {max}"),
            );
        }
    }
    let end = h.ofs_end.max(0) as i64;
    for ((i, s), start) in file.surfaces.iter().enumerate().zip(file.surface_offsets()) {
        let sh = &s.header;
        let name = s.name();
        if sh.num_verts as usize > MAX_VERTS {
            add(
                Severity::Error,
                format!(
                    "surface {i} ({name:?}): {} vertices; ioquake3 refuses more than {MAX_VERTS} (\"has more than {MAX_VERTS} verts\")",
                    sh.num_verts
                ),
            );
        }
        if sh.num_triangles as usize > MAX_TRIANGLES {
            add(
                Severity::Error,
                format!(
                    "surface {i} ({name:?}): {} triangles; ioquake3 refuses more than {MAX_TRIANGLES}",
                    sh.num_triangles
                ),
            );
        }
        if sh.num_shaders as usize > MAX_SHADERS {
            add(
                Severity::Warning,
                format!(
                    "surface {i} ({name:?}): {} shaders; more than the MD3 limit of {MAX_SHADERS}",
                    sh.num_shaders
                ),
            );
        }
        if sh.num_frames > h.num_frames {
            add(
                Severity::Warning,
                format!(
                    "surface {i} ({name:?}) stores {} frames, the model {}: the extra ones are never drawn",
                    sh.num_frames, h.num_frames
                ),
            );
        }
        if start + i64::from(sh.ofs_end) > end {
            add(
                Severity::Error,
                format!(
                    "surface {i} ({name:?}) ends past ofs_end = {}: the engine copies only ofs_end bytes",
                    h.ofs_end
                ),
            );
        }
        if sh.num_shaders == 0 && sh.num_triangles > 0 {
            add(
                Severity::Warning,
                format!(
                    "surface {i} ({name:?}) has no shader: drawn with the default shader unless a .skin names one"
                ),
            );
        }
    }
    out
}
