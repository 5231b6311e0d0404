//! Engine limits of Quake MDL and its variants, as the engines' `Mod_LoadAliasModel`
//! enforce them.
//!
//! Sources: id Software's WinQuake `model.c` / `r_local.h` / `d_iface.h` (software Quake),
//! GLQuake `gl_model.c` / `gl_model.h`, QuakeSpasm `gl_model.c` / `gl_model.h`, and
//! `ENGINE-NOTES.md`; for Hexen II, uHexen2 `engine/h2shared/gl_model.c`, `gl_model.h`,
//! `d_iface.h`, `r_local.h` and Raven's `H2MP/code/MODEL.C`; for FTEQW, `com_mesh.c`
//! (`Mod_LoadQ1Model`). A check the engine makes with `Sys_Error` (or a refusal to load), or a
//! limit it overflows a static array on, is an [`Severity::Error`]; everything else is a
//! warning. An engine that does not load a file's variant at all says so with an error first.

use super::engine::Engine;
use super::raw::{
    bad_normal_count, poses as poses_of, Frame, HeaderLayout, Layout, MdlFile, PixelFormat, Pose,
    Skin, ALIAS_ONSEAM, SKIN_GROUP,
};
use crate::diagnostic::{Diagnostic, Severity};

/// `MAXALIASVERTS`, the size of the array Hexen II's loaders copy `num_st_verts` texture
/// coordinates into.
const HEXEN2_MAX_ST_VERTS: i32 = 2000;

/// What is wrong with a list of cumulative group intervals, if anything: an interval must be
/// finite and > 0 (software Quake's `Mod_LoadAliasGroup: interval<=0`), and end times must
/// increase.
pub fn interval_problem(intervals: &[f32]) -> Option<String> {
    let mut prev = 0.0f32;
    for (i, &t) in intervals.iter().enumerate() {
        if !t.is_finite() || t <= 0.0 {
            return Some(format!("interval {i} is {t} (must be > 0)"));
        }
        if i > 0 && t <= prev {
            return Some(format!(
                "interval {i} is {t}, not after the previous end time {prev}"
            ));
        }
        prev = t;
    }
    None
}

/// Checks a file of any layout ([`File`](super::File), [`QTestFile`](super::QTestFile),
/// [`Md16File`](super::Md16File), [`Hexen2File`](super::Hexen2File)) against one engine's
/// limits.
pub fn validate<L: Layout>(file: &MdlFile<'_, L>, engine: Engine) -> Vec<Diagnostic> {
    let l = engine.limits();
    let h = &file.header.quake();
    let variant = L::VARIANT;
    let mut out = Vec::new();
    let mut sev = |s: Severity, m: String| {
        out.push(Diagnostic {
            severity: s,
            message: m,
        })
    };
    let e = engine.name();

    if !engine.loads(variant) {
        sev(
            Severity::Error,
            format!("{e} does not load {} files", variant.format().description()),
        );
    }
    if engine == Engine::Fteqw && (1..3).contains(&h.num_verts) {
        sev(
            Severity::Error,
            format!("{} vertices: {e} refuses fewer than 3", h.num_verts),
        );
    }
    if engine == Engine::Fteqw && (h.skinwidth < 1 || h.skinheight < 1) {
        sev(
            Severity::Error,
            format!(
                "skin size {}x{}: {e} refuses an empty skin",
                h.skinwidth, h.skinheight
            ),
        );
    }
    if let Some(n) = file.header.num_st_verts() {
        if n <= 0 {
            sev(
                Severity::Error,
                "model has no texture coordinates (num_st_verts)".into(),
            );
        } else if engine == Engine::Hexen2 && n > HEXEN2_MAX_ST_VERTS {
            sev(
                Severity::Error,
                format!("{n} texture coordinates overflow {e}'s array of {HEXEN2_MAX_ST_VERTS}"),
            );
        }
    }

    if h.num_verts <= 0 {
        sev(Severity::Error, "model has no vertices".into());
    } else if h.num_verts > l.max_verts {
        sev(
            Severity::Error,
            format!(
                "{} vertices exceed {e}'s limit of {}",
                h.num_verts, l.max_verts
            ),
        );
    }
    if h.num_tris <= 0 {
        sev(Severity::Error, "model has no triangles".into());
    } else if let Some(m) = l.max_tris.filter(|&m| h.num_tris > m) {
        sev(
            Severity::Error,
            format!("{} triangles exceed {e}'s limit of {m}", h.num_tris),
        );
    }
    let poses = file.pose_count();
    if h.num_frames < 1 {
        sev(
            Severity::Error,
            format!("invalid number of frames: {}", h.num_frames),
        );
    } else if let Some(m) = l.max_poses.filter(|&m| poses > m) {
        sev(
            Severity::Error,
            format!("{poses} poses exceed {e}'s limit of {m}"),
        );
    }
    if h.num_skins < 1 {
        sev(
            Severity::Error,
            format!("invalid number of skins: {}", h.num_skins),
        );
    } else if let Some(m) = l.max_skins.filter(|&m| h.num_skins > m) {
        sev(
            Severity::Error,
            format!("{} skins exceed {e}'s limit of {m}", h.num_skins),
        );
    }
    if h.skinwidth % 4 != 0 {
        let s = if l.skinwidth_multiple_of_4 {
            Severity::Error
        } else {
            Severity::Warning
        };
        sev(
            s,
            format!(
                "skin width {} is not a multiple of 4 (software Quake refuses it)",
                h.skinwidth
            ),
        );
    }
    let (max_h, hs) = l.max_skin_height;
    if h.skinheight > max_h {
        sev(
            hs,
            format!(
                "skin height {} exceeds {e}'s limit of {max_h}",
                h.skinheight
            ),
        );
    }
    for (i, s) in file.skins.iter().enumerate() {
        match s {
            Skin::Single { skin_type, .. } if *skin_type != 0 => {
                let fmt = PixelFormat::from_skin_type(*skin_type)
                    .map_or("an unknown layout", PixelFormat::describe);
                sev(Severity::Error, format!("skin {i}: type {skin_type} ({fmt}) is not a Quake skin type; {e} reads it as a group"));
            }
            Skin::Group {
                skin_type,
                intervals,
                pictures,
            } => {
                if *skin_type != SKIN_GROUP {
                    sev(Severity::Warning, format!("skin {i}: type word {skin_type} is read as a group (Quake's tools write 1)"));
                }
                if let Some(p) = interval_problem(intervals) {
                    sev(Severity::Error, format!("skin {i}: group {p}"));
                }
                if let Some(m) = l.max_group_pictures.filter(|&m| pictures.len() > m) {
                    sev(
                        Severity::Warning,
                        format!(
                            "skin {i}: group of {} pictures; {e} shows only the first {m}",
                            pictures.len()
                        ),
                    );
                }
            }
            _ => {}
        }
    }
    if let Some((i, tc)) = file
        .texcoords
        .iter()
        .enumerate()
        .find(|(_, t)| t.onseam != 0 && t.onseam != ALIAS_ONSEAM)
    {
        let s = if engine == Engine::Quake {
            Severity::Error
        } else {
            Severity::Warning
        };
        sev(s, format!("texcoord {i}: onseam value {:#x} (should be 0 or 0x20; other bits clash with software Quake's clip flags)", tc.onseam));
    }
    for (i, f) in file.frames.iter().enumerate() {
        if let Frame::Group { intervals, .. } = f {
            if let Some(p) = interval_problem(intervals) {
                sev(Severity::Error, format!("frame {i}: group {p}"));
            }
        }
    }
    let bad_normals = bad_normal_count(&file.frames);
    if bad_normals > 0 {
        sev(
            Severity::Warning,
            format!("{bad_normals} vertex normal indices past the 162-entry table"),
        );
    }
    // `MD16` poses' low-block normal bytes that differ from the high block's (no other
    // layout has a low block).
    let low_normals_differ = poses_of(&file.frames)
        .flat_map(|p| p.verts().iter().zip(p.low()))
        .filter(|(hi, lo)| hi.normal_index != lo.normal_index)
        .count();
    if low_normals_differ > 0 {
        sev(
            Severity::Warning,
            format!(
                "{low_normals_differ} low-block normal bytes differ from the high block's (QuakeForge's software renderer reads the low block's, FTEQW and QuakeForge's GL renderer the high block's)"
            ),
        );
    }
    out
}
