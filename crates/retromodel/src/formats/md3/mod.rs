//! Quake 3 MD3 (`IDP3`, version 15): id Software's third alias model format.
//!
//! **Sources.** ioquake3's `code/qcommon/qfiles.h` (the structures and `MD3_*` limits) and
//! `code/renderergl1/tr_model.c` (`R_LoadMD3`: what the engine checks and how it decodes
//! normals), `tr_skin.c` (`.skin` files), the game code's `cg_players.c` (`animation.cfg`,
//! tags), read but not copied; the files of OpenArena and Nexuiz in the shared corpus.
//!
//! **Quirks handled here.**
//! - Sections are placed by offsets, and a surface's own sections by offsets from its start;
//!   surfaces are chained (each next one at the previous one's start plus its `ofs_end`).
//!   Sections may come in any order with holes between them and data after `ofs_end`: all
//!   of it is kept and written back at its offset.
//! - Each surface stores its own frame count. One with more frames than the model reads (the
//!   extra frames are kept, not drawn); one with vertices and fewer frames is refused: the
//!   engine would read past its vertices, and repeating frames would let a small file claim
//!   a huge model.
//! - Normals are latitude (high byte) and longitude (low byte) in 256ths of a turn, decoded as
//!   the engine does; id's encoder used 255ths, so a round trip through the encoder moves
//!   them slightly (positions are exact: 1/64 unit steps).
//! - Surfaces may have no shader (a `.skin` file then names it) or several (the first is
//!   drawn). `.skin` surface names match without case and without a trailing `_1`/`_2`.
//! - The in-game `shaderIndex` and the header's `num_skins` and flags are kept as stored.
//!
//! ```
//! use retromodel::formats::md3;
//! # let bytes = retromodel::formats::md3::fixtures::minimal();
//! let file = md3::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = md3::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! assert_eq!(model.frames.len(), file.frames.len());
//! assert_eq!(model.meshes.len(), file.surfaces.len());
//! let back = md3::from_model(&model, &Default::default())?;
//! assert_eq!(back.file.surfaces.len(), file.surfaces.len());
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
pub mod fixtures;
mod from_model;
pub mod player;
mod raw;
mod read;
pub mod skin;
mod summary;
mod validate;
mod write;

pub use codec::{Md3Codec, CODEC, MD3};
pub use convert::{tag_transform, to_model};
pub use from_model::from_model;
pub use raw::*;
pub use summary::summary;
pub use validate::{
    validate, MAX_FRAMES, MAX_SHADERS, MAX_SURFACES, MAX_TAGS, MAX_TRIANGLES, MAX_VERTS,
    TOOL_MAX_VERTS,
};

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "md3";
