//! Engine limits of MD2, as Quake 2's `Mod_LoadAliasModel` (ref_gl and ref_soft) enforces
//! them, with the limits of `qfiles.h` that id's tools kept to.
//!
//! A check the engine makes with `Sys_Error`, or a static array it overflows, is an
//! [`Severity::Error`]; everything else is a warning.

use super::raw::{File, GlLayout};
use crate::diagnostic::{Diagnostic, Severity};

/// Quake 2's `MAX_VERTS`.
pub const MAX_VERTS: usize = 2048;
/// Quake 2's `MAX_TRIANGLES`.
pub const MAX_TRIANGLES: usize = 4096;
/// Quake 2's `MAX_FRAMES`.
pub const MAX_FRAMES: usize = 512;
/// Quake 2's `MAX_MD2SKINS`.
pub const MAX_SKINS: usize = 32;
/// Quake 2's `MAX_LBM_HEIGHT`.
pub const MAX_SKIN_HEIGHT: i32 = 480;

/// The renderer whose rules [`validate`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// Quake 2 with its OpenGL renderer, which draws only the GL command list (the default).
    #[default]
    Quake2,
    /// Quake 2 with its software renderer, which draws only the triangle list.
    Quake2Software,
}

impl Engine {
    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Quake2 => "quake2",
            Engine::Quake2Software => "quake2-soft",
        }
    }
}

/// Checks a parsed file against the engine's limits and rules.
pub fn validate(file: &File<'_>, engine: Engine) -> Vec<Diagnostic> {
    let h = &file.header;
    let mut out = Vec::new();
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    for (what, n) in [
        ("vertices", h.num_xyz),
        ("texture coordinates", h.num_st),
        ("triangles", h.num_tris),
        ("frames", h.num_frames),
    ] {
        if n <= 0 {
            add(
                Severity::Error,
                format!("no {what}: Quake 2 refuses the model"),
            );
        }
    }
    let count_limits = [
        ("vertices", h.num_xyz as usize, MAX_VERTS, Severity::Error),
        ("skins", file.skins.len(), MAX_SKINS, Severity::Error),
        (
            "triangles",
            file.triangles.len(),
            MAX_TRIANGLES,
            Severity::Warning,
        ),
        ("frames", file.frames.len(), MAX_FRAMES, Severity::Warning),
    ];
    for (what, n, max, severity) in count_limits {
        if n > max {
            add(
                severity,
                format!("{n} {what} exceed Quake 2's limit of {max}"),
            );
        }
    }
    if h.skinheight > MAX_SKIN_HEIGHT {
        add(
            Severity::Error,
            format!(
                "skin height {} exceeds Quake 2's limit of {MAX_SKIN_HEIGHT}",
                h.skinheight
            ),
        );
    }
    for (i, name) in file.skin_names().enumerate() {
        if name.is_empty() {
            add(Severity::Warning, format!("skin {i} has an empty name"));
        }
    }
    if engine == Engine::Quake2 {
        if file.glcmds.commands.is_empty() {
            add(
                Severity::Error,
                "no GL commands: the model is invisible in Quake 2's GL renderer \
                 (`retromodel convert` to .md2 generates them)"
                    .into(),
            );
        } else if file.glcmds.layout == GlLayout::IndexFirst {
            add(
                Severity::Error,
                "GL command vertices store the index before s and t; Quake 2 misreads them".into(),
            );
        }
        if let Some(problem) = file
            .glcmds_mismatch(file.glcmds.layout == GlLayout::Standard)
            .filter(|_| !file.glcmds.commands.is_empty())
        {
            add(Severity::Error, problem);
        }
    }
    out
}
