//! The engines whose limits `validate` applies, and which variants they
//! load.

use super::raw::Variant;
use crate::diagnostic::Severity;

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
    /// Hexen II with its mission pack (Raven's engines, uHexen2): Quake files and `RAPO`;
    /// the default for `RAPO` files.
    Hexen2,
    /// FTEQW: every layout (Quake, QTest, `MD16`, `RAPO`), without fixed limits in its loader;
    /// the default for QTest and `MD16` files.
    Fteqw,
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
            // uHexen2 gl_model.h / r_local.h: MAXALIASVERTS 2000, MAXALIASTRIS 2048 and
            // MAXALIASFRAMES 256 (static arrays, unchecked), MAX_SKINS 32 and
            // MAX_SKIN_HEIGHT 480 (Sys_Error); the software loader (H2MP MODEL.C) refuses a
            // skin width that is not a multiple of 4.
            Engine::Hexen2 => EngineLimits {
                max_verts: 2000,
                max_tris: Some(2048),
                max_poses: Some(256),
                max_skins: Some(32),
                skinwidth_multiple_of_4: true,
                max_skin_height: (480, Severity::Error),
                max_group_pictures: Some(4),
            },
            // FTEQW's Mod_LoadQ1Model checks quantities only (see `validate`).
            Engine::Fteqw => EngineLimits {
                max_verts: i32::MAX,
                max_tris: None,
                max_poses: None,
                max_skins: None,
                skinwidth_multiple_of_4: false,
                max_skin_height: (i32::MAX, Severity::Warning),
                max_group_pictures: None,
            },
        }
    }

    /// Name as used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Engine::Quake => "quake",
            Engine::GlQuake => "glquake",
            Engine::QuakeSpasm => "quakespasm",
            Engine::Hexen2 => "hexen2",
            Engine::Fteqw => "fteqw",
        }
    }

    /// The engine called `name` on the command line.
    pub fn named(name: &str) -> Option<Engine> {
        [
            Engine::Quake,
            Engine::GlQuake,
            Engine::QuakeSpasm,
            Engine::Hexen2,
            Engine::Fteqw,
        ]
        .into_iter()
        .find(|e| e.name() == name)
    }

    /// Whether the engine loads files of `variant` at all: every engine reads Quake's,
    /// Hexen II's reads `RAPO` too, FTEQW every variant.
    pub fn loads(self, variant: Variant) -> bool {
        match self {
            Engine::Quake | Engine::GlQuake | Engine::QuakeSpasm => variant == Variant::Quake,
            Engine::Hexen2 => matches!(variant, Variant::Quake | Variant::Hexen2),
            Engine::Fteqw => true,
        }
    }

    /// The engine a file of `variant` is checked against by default: QuakeSpasm for Quake,
    /// Hexen II for `RAPO`, FTEQW (the one engine that loads them) for QTest and `MD16`.
    pub fn default_for(variant: Variant) -> Engine {
        match variant {
            Variant::Quake => Engine::QuakeSpasm,
            Variant::Hexen2 => Engine::Hexen2,
            Variant::QTest | Variant::Md16 => Engine::Fteqw,
        }
    }
}
