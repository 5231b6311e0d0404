//! Options shared by the converters (file to [`crate::Model`]).

use crate::image::Palette;

/// How a texture coordinate's `onseam` word is read; the engines disagree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SeamRule {
    /// Any non-zero value is on the seam (GLQuake, QuakeSpasm, FTEQW). The default.
    #[default]
    NonZero,
    /// Only bit `0x20` counts (software Quake).
    Bit0x20,
}

/// Options for converting a file to a [`crate::Model`].
#[derive(Debug, Clone, PartialEq)]
pub struct ConvertOptions {
    /// Palette for 8-bit skins; `None` asks the resolver for the format's palette file
    /// (`gfx/palette.lmp` for Quake), then falls back to the built-in Quake palette.
    pub palette: Option<Palette>,
    /// Playback rate of clips made from frame names (Quake's game code steps at 10 Hz).
    pub fps: f32,
    /// How `onseam` is read.
    pub seam_rule: SeamRule,
}

impl Default for ConvertOptions {
    fn default() -> Self {
        ConvertOptions {
            palette: None,
            fps: 10.0,
            seam_rule: SeamRule::NonZero,
        }
    }
}
