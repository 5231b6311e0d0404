//! Quake MDL (`IDPO`, version 6): id Software's alias models.
//!
//! **Sources.** David Henry's "MDL file format" (`specs/quake1-mdl.txt`), id Software's
//! `modelgen.h` and `model.c`, and the engine behaviour collected in `specs/ENGINE-NOTES.md`.
//!
//! **Quirks handled here.**
//! - Frame groups carry a count `nb` the seed document omits, and their members have no type
//!   word. Any non-zero frame type word means a group; the word is kept for writing.
//! - Group intervals are cumulative end times. Software Quake refuses an interval `<= 0`;
//!   GL engines use only the first. Such files still read (with a warning) and fail
//!   [`validate()`].
//! - `onseam` is `0x20` in files from id's tools; GL engines treat any non-zero value as on
//!   the seam, software Quake tests bit `0x20` ([`crate::SeamRule`] picks).
//! - Some 3D GameStudio tools wrote IDPO files whose skin type is 2 (16-bit 5-6-5 pixels);
//!   types 2..=5 are read as GameStudio true-colour pictures.
//! - Data after the last frame (qME's `QMEX` chunk) is kept and written back.
//! - Unknown flag bits (`MF_HOLEY` = `1 << 14` and others) are kept.
//!
//! ```
//! use retromodel::formats::quake_mdl;
//! # let bytes = retromodel::formats::quake_mdl::fixtures::minimal();
//! let file = quake_mdl::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = quake_mdl::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! assert_eq!(model.frames.len(), file.pose_count());
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
pub mod fixtures;
mod from_model;
mod raw;
pub(crate) mod read;
mod summary;
mod validate;
pub(crate) mod write;

pub use codec::{QuakeMdlCodec, CODEC, QUAKE_MDL};
pub use convert::{decode_position, to_model, PALETTE_PATH};
pub use from_model::from_model;
pub use raw::*;
pub use summary::summary;
pub use validate::{interval_problem, validate, Engine, EngineLimits};

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "quake-mdl";
