//! 3D GameStudio MDL7 (`MDL7`): the A6/A7 engines' models, written by MED.
//!
//! **Sources.** The reverse-engineered layout in `specs/gamestudio-mdl7.spec.txt` (header,
//! bones, groups, skins, texture coordinates, triangles, vertices, frames, deformers), the
//! 3D GameStudio part of `specs/ENGINE-NOTES.md` (skin types), the A4 manual's MDL chapter
//! for the 162-entry normal table, and all 58 `MDL7` files of the corpus, which were read to
//! settle what the spec leaves open.
//!
//! **Layout.** A 48-byte header (`bones_num`, `groups_num`, `data_size`, `entlump_size`,
//! `medlump_size` and ten record sizes), `bones_num` bones, `groups_num` groups (a 44-byte
//! header, skins, texture coordinates, triangles, vertices, frames), then the deformers of all
//! groups, which end at `data_size`; the entity lump and the MED lump follow. Every record is
//! read with the header's size for its kind.
//!
//! **Quirks handled here** (each checked against the corpus).
//! - Records come in several sizes: triangles of 12 (one UV set), 16 (and a material index)
//!   or 26 bytes (two UV sets with a material each); vertices of 16 (normal index into the
//!   162-entry table) or 26 bytes (full normal); bones of 16 + name bytes. Bytes past the
//!   fields known here are kept.
//! - Deformers are not inside their group, as the spec has them: all groups come first, then
//!   as many deformers as the groups' `deformers` bytes add up to, each naming its group.
//!   A deformer's `deformerdata_size` counts its own 16-byte header.
//! - `groupdata_size` leaves out picture data and deformers in some files; it is kept but
//!   never used. `data_size` is where the deformers end in every known file; bytes between
//!   the last deformer and a larger `data_size` are kept, a smaller one is only a warning.
//! - Skins: low three type bits 0 (8-bit indexed, no palette in the file), 1 (a reference to
//!   the skin whose index is `width`), 2..=5 (5-6-5, 4-4-4-4, 8-8-8, 8-8-8-8 pixels), 6 (a
//!   DDS file of `width` bytes), 7 (an external file name of `width` bytes); bit 3: three mip
//!   levels of `(width >> k) * (height >> k)` pixels follow; bit 4: a material record (four
//!   RGBA colours and a power) follows; bit 5: an `i32`-prefixed material definition text
//!   follows. A zero-sized picture is no picture (material-only skins). MED stores all skins
//!   in the first group; material indices count the skins of all groups, `0xFFFFFFFF` is no
//!   material.
//! - Texture coordinates are floats with `v` downwards; `0xFFFF` (with no texture
//!   coordinates at all) is "none" and reads as (0, 0).
//! - A frame's vertices are not a full pose but the vertices that differ from the group's
//!   base vertices (each names the vertex it replaces in the field that holds a group
//!   vertex's bone); in files with bones they are bind positions, which the bones then move.
//! - Bone positions are relative to the parent. Bone transforms (MED writes them in the first
//!   group's frames only) are row-vector matrices relative to the parent's motion; see
//!   [`to_model`] for how they pose the vertices.
//! - Vertex bone indices of `0xFFFF` mean none; some files name bones in a model without
//!   bones, and normal indices past the table occur: both are warnings.
//!
//! ```
//! use retromodel::formats::gs_mdl7;
//! # let bytes = retromodel::formats::gs_mdl7::fixtures::minimal();
//! let file = gs_mdl7::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = gs_mdl7::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! assert_eq!(model.frames.len(), file.frame_count());
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
pub mod fixtures;
mod raw;
mod read;
mod summary;
mod write;

pub use codec::{GsMdl7Codec, CODEC, GS_MDL7};
pub use convert::to_model;
pub use raw::*;
pub use summary::summary;

pub(crate) use convert::{clips_from_names, convert_skins};
pub(crate) use read::{read_skin_data, SkinHead};
pub(crate) use write::{skin_data_len, write_skin_data};

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "gs-mdl7";
