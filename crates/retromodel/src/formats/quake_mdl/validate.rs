//! Engine limits of Quake MDL, as the engines' `Mod_LoadAliasModel` enforce them.
//!
//! Sources: id Software's WinQuake `model.c` / `r_local.h` / `d_iface.h` (software Quake),
//! GLQuake `gl_model.c` / `gl_model.h`, QuakeSpasm `gl_model.c` / `gl_model.h`, and
//! `ENGINE-NOTES.md`. A check the engine makes with `Sys_Error`, or a limit it overflows a
//! static array on, is an [`Severity::Error`]; everything else is a warning.

use super::raw::{File, Frame, PixelFormat, Skin, ALIAS_ONSEAM, SKIN_GROUP};
use crate::diagnostic::{Diagnostic, Severity};

/// The engine whose limits [`validate`] applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Engine {
    /// id Software's software-rendered Quake (WinQuake).
    Quake,
    /// id Software's GLQuake.
    GlQuake,
    /// QuakeSpasm (the default: the most used engine of the three today).
    #[default]
    QuakeSpasm,
}

/// Numeric limits of one engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EngineLimits {
    /// `MAXALIASVERTS`.
    pub max_verts: i32,
    /// `MAXALIASTRIS`, if the engine has one.
    pub max_tris: Option<i32>,
    /// `MAXALIASFRAMES` (poses, group members included), if any.
    pub max_poses: Option<usize>,
    /// `MAX_SKINS`, if any.
    pub max_skins: Option<i32>,
    /// Skin width must be a multiple of 4.
    pub skinwidth_multiple_of_4: bool,
    /// `MAX_LBM_HEIGHT`, and whether exceeding it is fatal.
    pub max_skin_height: (i32, Severity),
    /// Pictures per skin group that the renderer cycles (GL engines keep 4).
    pub max_group_pictures: Option<usize>,
}

impl Engine {
    /// The engine's limits.
    pub fn limits(self) -> EngineLimits {
        match self {
            Engine::Quake => EngineLimits {
                max_verts: 2000,
                max_tris: None,
                max_poses: None,
                max_skins: None,
                skinwidth_multiple_of_4: true,
                max_skin_height: (480, Severity::Error),
                max_group_pictures: None,
            },
            Engine::GlQuake => EngineLimits {
                max_verts: 1024,
                max_tris: Some(2048),
                max_poses: Some(256),
                max_skins: Some(32),
                skinwidth_multiple_of_4: false,
                max_skin_height: (480, Severity::Error),
                max_group_pictures: Some(4),
            },
            Engine::QuakeSpasm => EngineLimits {
                max_verts: 2000,
                max_tris: Some(4096),
                max_poses: Some(1024),
                max_skins: Some(32),
                skinwidth_multiple_of_4: false,
                max_skin_height: (480, Severity::Warning),
                max_group_pictures: Some(4),
            },
        }
    }

    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Quake => "quake",
            Engine::GlQuake => "glquake",
            Engine::QuakeSpasm => "quakespasm",
        }
    }
}

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

/// Checks a file against one engine's limits.
pub fn validate(file: &File<'_>, engine: Engine) -> Vec<Diagnostic> {
    let l = engine.limits();
    let h = &file.header;
    let mut out = Vec::new();
    let mut sev = |s: Severity, m: String| {
        out.push(Diagnostic {
            severity: s,
            message: m,
        })
    };
    let e = engine.name();

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
                let fmt = PixelFormat::from_skin_type(*skin_type);
                sev(Severity::Error, format!("skin {i}: type {skin_type} ({fmt:?}) is not a Quake skin type; {e} reads it as a group"));
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
    let bad_normals = file.bad_normal_count();
    if bad_normals > 0 {
        sev(
            Severity::Warning,
            format!("{bad_normals} vertex normal indices past the 162-entry table"),
        );
    }
    out
}
