//! 3D GameStudio MDL2, MDL3, MDL4 and MDL5 (`MDL2`..`MDL5`): Conitec's A4/A5 models, the
//! descendants of Quake's MDL.
//!
//! **Sources.** The MDL chapter of Conitec's *A4 Programmer's Manual* (2000,
//! `specs/gamestudio-a4-manual-wmp-mdl.txt`: header, skins, skin vertices, triangles,
//! byte- and word-packed frames), the "3D GameStudio" section of `specs/ENGINE-NOTES.md`
//! (skin type words 0..7, the mipmap bit, MDL5 per-skin sizes), and the layouts the real
//! files of the corpus show (every one of them reads to its last byte).
//!
//! **Layout.** The 84-byte header is Quake's `mdl_t` with GameStudio's names (`final` after
//! the magic, `pad` where Quake keeps the bounding radius, `numskinverts` in Quake's
//! `synctype` slot, `numbones` in Quake's `size` slot). Then the skins, the skin vertices
//! (`i16 u, v`), the triangles (`u16 vertex[3], u16 uv[3]`), the frames (type word,
//! bbox min and max, 16-byte name, vertices), and the bones.
//!
//! **Quirks handled here.**
//! - **MDL2 is Quake's layout** after the GameStudio header, not the A4 manual's: per-vertex
//!   texture coordinates (`onseam`, `s`, `t`; the tools write `onseam = 1`, not Quake's
//!   0x20), Quake triangles (`facesfront` and three `i32` indices), then the frames. Every
//!   MDL2 of the corpus has `numskinverts = 0` and reads this way to its last byte.
//! - Skin type words: 0 = 8-bit palettised, 2 = 5-6-5, 3 = 4-4-4-4 (ARGB), 4 = 8-8-8
//!   (stored B, G, R), 5 = 8-8-8-8 (B, G, R, A), 6 = embedded DDS, 7 = external file name;
//!   plus 8 when three mipmap levels (`w >> k` x `h >> k`, k = 1..=3) follow the picture.
//!   Mipmaps, DDS bytes and names are kept as bytes.
//! - MDL5 stores each skin's width and height after its type word, and the header's skin
//!   size is 0; for DDS and external skins the width word is the byte count of the data
//!   (Assimp reads DDS skins so; external names are read the same way). MDL2..MDL4 skins
//!   of type 6 or 7 have no size and are refused.
//! - Each frame has its own type word: 0 = byte-packed (4-byte vertices), 2 = word-packed
//!   (`u16` x3, normal index, bone index: 8 bytes, bbox vertices too). MDL3 files use 0,
//!   MDL4 and MDL5 files 2, but the word decides, in every version.
//! - MDL3+ skin vertices lie on texel edges (`u / width`); MDL2 keeps Quake's texel centres.
//! - Bones: the manual announces them after the frames, "for future expansion", without a
//!   layout; `numbones` is 0 in every known file. Whatever follows the last frame is kept
//!   as trailing bytes and written back.
//! - 8-bit skins index the level's palette, which the model does not name: conversion uses
//!   [`crate::options::ConvertOptions::palette`], else the resolver's [`PALETTE_PATH`], else the
//!   Quake palette.
//!
//! ```
//! use retromodel::formats::gs_mdl;
//! # let bytes = retromodel::formats::gs_mdl::fixtures::minimal();
//! let file = gs_mdl::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = gs_mdl::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! assert_eq!(model.frames.len(), file.frames.len());
//! let mdl3 = gs_mdl::from_model(&model, &Default::default(), 3)?.file.write();
//! assert_eq!(&mdl3[..4], b"MDL3");
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
pub mod fixtures;
mod from_model;
mod raw;
mod read;
mod summary;
mod write;

pub use codec::{format, GsMdlCodec, ACKNEX, CODEC, GS_MDL};
pub use convert::{decode_picture, decode_position, skin_size, to_model, PALETTE_PATH};
pub use from_model::from_model;
pub use raw::*;
pub use summary::summary;

/// Format name used in errors met before the version is known (a bad magic).
pub const FORMAT: &str = "gs-mdl";

/// Format names of MDL2..MDL5, as [`crate::codec::Format::name`] gives them.
pub const FORMATS: [&str; 4] = ["gs-mdl2", "gs-mdl3", "gs-mdl4", "gs-mdl5"];

/// The format name of a version (`gs-mdl2`..`gs-mdl5`; [`FORMAT`] for any other).
pub fn format_name(version: u8) -> &'static str {
    match version {
        2..=5 => FORMATS[version as usize - 2],
        _ => FORMAT,
    }
}
