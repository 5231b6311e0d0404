//! Quake 2 MD2 (`IDP2`, version 8): id Software's second alias model format.
//!
//! **Sources.** `specs/quake2-md2.txt` (header, frames, triangles, GL commands), the MD2 part
//! of `specs/ENGINE-NOTES.md`, `specs/md2-keyframe-gpu-loader.txt`, and Quake 2's `qfiles.h`
//! and `Mod_LoadAliasModel` (ref_gl, ref_soft) as kept by yquake2.
//!
//! **Quirks handled here.**
//! - Two encodings of the same geometry: the triangle list (software renderer) and the GL
//!   command list (GL renderer). Both are read and checked against each other; writers
//!   generate the GL list, since a file without one is invisible in GL engines.
//! - Many real files have no GL commands and `ofs_glcmds == ofs_end == file size`, or
//!   `ofs_glcmds == 0`: an empty section's offset is not checked.
//! - Some exporters write GL vertices as `int index, float s, float t` (UFO:AI files); such a
//!   list is recognised, read with a warning, and written back as it was.
//! - Sections may come in any order, with gaps between them and data after `ofs_end`: each
//!   is written back at its offset, gaps and trailing bytes included.
//! - `framesize` is read from the header; bytes past a frame's vertices are kept.
//! - Skin names are 64 bytes, decoded up to the first NUL (there may be none); their padding
//!   is kept. UFO:AI names like `.body` mean "beside the model, any picture format".
//!
//! ```
//! use retromodel::formats::md2;
//! # let bytes = retromodel::formats::md2::fixtures::minimal();
//! let file = md2::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = md2::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! assert_eq!(model.frames.len(), file.frames.len());
//! let back = md2::from_model(&model, &Default::default())?;
//! assert_eq!(back.file.triangles.len(), file.triangles.len());
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
pub mod fixtures;
mod from_model;
pub mod glcmds;
mod raw;
mod read;
mod summary;
mod validate;
mod write;

pub use codec::{Md2Codec, CODEC, MD2};
pub use convert::to_model;
pub use from_model::from_model;
pub use raw::*;
pub use summary::summary;
pub use validate::{
    validate, Engine, MAX_FRAMES, MAX_SKINS, MAX_SKIN_HEIGHT, MAX_TRIANGLES, MAX_VERTS,
};

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "md2";
