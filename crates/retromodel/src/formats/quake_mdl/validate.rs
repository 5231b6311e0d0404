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

use super::raw::{
    bad_normal_count, poses, File, Frame, Header, Hexen2File, Md16File, PixelFormat, QTestFile,
    Skin, TexCoord, Variant, ALIAS_ONSEAM, SKIN_GROUP,
};
use super::MdlFile;
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

/// Checks a file of any layout ([`File`], [`super::QTestFile`], [`super::Md16File`],
/// [`super::Hexen2File`]) against one engine's limits.
pub fn validate<F: MdlFile + ?Sized>(file: &F, engine: Engine) -> Vec<Diagnostic> {
    file.check(engine)
}

/// What the checks read from a file of any layout.
pub(super) struct Layout<'f> {
    variant: Variant,
    /// Quake's header fields (QTest's with flags and size 0).
    header: Header,
    /// Hexen II's `num_st_verts`.
    num_st_verts: Option<i32>,
    skins: &'f [Skin<'f>],
    texcoords: &'f [TexCoord],
    poses: usize,
    /// The intervals of each frame group, by frame index.
    groups: Vec<(usize, &'f [f32])>,
    bad_normals: usize,
    /// `MD16` poses' low-block normal bytes that differ from the high block's.
    low_normals_differ: usize,
}

fn groups<P>(frames: &[Frame<P>]) -> Vec<(usize, &[f32])> {
    frames
        .iter()
        .enumerate()
        .filter_map(|(i, f)| match f {
            Frame::Group { intervals, .. } => Some((i, intervals.as_slice())),
            Frame::Simple(_) => None,
        })
        .collect()
}

impl<'f> Layout<'f> {
    /// The parts of a file that the checks read.
    pub(super) fn of<F: Into<Layout<'f>>>(file: F) -> Layout<'f> {
        file.into()
    }
}

impl<'f> From<&'f File<'f>> for Layout<'f> {
    fn from(file: &'f File<'f>) -> Self {
        Layout {
            variant: Variant::Quake,
            header: file.header,
            num_st_verts: None,
            skins: &file.skins,
            texcoords: &file.texcoords,
            poses: file.pose_count(),
            groups: groups(&file.frames),
            bad_normals: bad_normal_count(&file.frames),
            low_normals_differ: 0,
        }
    }
}

impl<'f> From<&'f QTestFile<'f>> for Layout<'f> {
    fn from(file: &'f QTestFile<'f>) -> Self {
        Layout {
            variant: Variant::QTest,
            header: file.header.to_quake(),
            num_st_verts: None,
            skins: &file.skins,
            texcoords: &file.texcoords,
            poses: file.pose_count(),
            groups: groups(&file.frames),
            bad_normals: bad_normal_count(&file.frames),
            low_normals_differ: 0,
        }
    }
}

impl<'f> From<&'f Md16File<'f>> for Layout<'f> {
    fn from(file: &'f Md16File<'f>) -> Self {
        Layout {
            variant: Variant::Md16,
            header: file.header,
            num_st_verts: None,
            skins: &file.skins,
            texcoords: &file.texcoords,
            poses: file.pose_count(),
            groups: groups(&file.frames),
            bad_normals: bad_normal_count(&file.frames),
            low_normals_differ: poses(&file.frames)
                .flat_map(|p| p.verts.iter().zip(&p.low))
                .filter(|(hi, lo)| hi.normal_index != lo.normal_index)
                .count(),
        }
    }
}

impl<'f> From<&'f Hexen2File<'f>> for Layout<'f> {
    fn from(file: &'f Hexen2File<'f>) -> Self {
        Layout {
            variant: Variant::Hexen2,
            header: file.header.mdl,
            num_st_verts: Some(file.header.num_st_verts),
            skins: &file.skins,
            texcoords: &file.texcoords,
            poses: file.pose_count(),
            groups: groups(&file.frames),
            bad_normals: bad_normal_count(&file.frames),
            low_normals_differ: 0,
        }
    }
}

/// Checks the parts of a file against one engine's limits.
pub(super) fn check(file: &Layout<'_>, engine: Engine) -> Vec<Diagnostic> {
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

    if !engine.loads(file.variant) {
        sev(
            Severity::Error,
            format!(
                "{e} does not load {} files",
                super::codec::format_of(file.variant).description()
            ),
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
    if let Some(n) = file.num_st_verts {
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
    let poses = file.poses;
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
    for &(i, intervals) in &file.groups {
        if let Some(p) = interval_problem(intervals) {
            sev(Severity::Error, format!("frame {i}: group {p}"));
        }
    }
    let bad_normals = file.bad_normals;
    if bad_normals > 0 {
        sev(
            Severity::Warning,
            format!("{bad_normals} vertex normal indices past the 162-entry table"),
        );
    }
    if file.low_normals_differ > 0 {
        sev(
            Severity::Warning,
            format!(
                "{} low-block normal bytes differ from the high block's (QuakeForge's software renderer reads the low block's, FTEQW and QuakeForge's GL renderer the high block's)",
                file.low_normals_differ
            ),
        );
    }
    out
}
