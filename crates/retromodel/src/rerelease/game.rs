//! The two re-releases and the engines whose pairing rules are checked, with q2pro's limits.

/// Which re-release's rules pair a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// Quake II (2023): `.md2` with `md5/NAME.md5mesh`.
    Quake2,
    /// Quake (2021): `.mdl` with `NAME.md5mesh` beside it.
    Quake,
}

/// The engines whose pairing rules `validate --engine` checks.
pub const ENGINES: &[(&str, Game, &str)] = &[
    ("q2pro", Game::Quake2, "q2pro (Quake II MD5 replacements)"),
    (
        "kex-quake2",
        Game::Quake2,
        "the Quake II re-release's engine (as q2pro reads its files)",
    ),
    (
        "kex-quake",
        Game::Quake,
        "the Quake re-release's engine (as vkQuake and ironwail read its files)",
    ),
];

impl Game {
    /// The game whose classic format is `format` (`md2`, `quake-mdl`), if it has a re-release.
    pub fn of_format(format: &str) -> Option<Game> {
        match format {
            crate::formats::md2::FORMAT => Some(Game::Quake2),
            crate::formats::quake_mdl::FORMAT => Some(Game::Quake),
            _ => None,
        }
    }

    /// The game an engine of [`ENGINES`] runs.
    pub fn of_engine(engine: &str) -> Option<Game> {
        ENGINES.iter().find(|e| e.0 == engine).map(|e| e.1)
    }

    /// `Quake II` or `Quake`.
    pub fn describe(self) -> &'static str {
        match self {
            Game::Quake2 => "Quake II",
            Game::Quake => "Quake",
        }
    }
}

// q2pro's limits on an MD5 replacement (`MOD_LoadMD5`).
/// Joints q2pro reads.
pub(super) const Q2_MAX_JOINTS: usize = 256;
/// Meshes q2pro reads.
pub(super) const Q2_MAX_MESHES: usize = 32;
/// Weights a mesh q2pro reads.
pub(super) const Q2_MAX_WEIGHTS: usize = 8192;
/// Frames q2pro reads.
pub(super) const Q2_MAX_FRAMES: usize = 1024;
