//! 3D GameStudio HMP terrains (`HMP4`, `HMP5`, `HMP7`): height fields on a regular grid.
//!
//! **Sources.** No specification of HMP was available. The header is the 84-byte MDL header
//! of the A4 manual (`specs/gamestudio-a4-manual-wmp-mdl.txt`) with the eye position replaced
//! by the grid (`trisize_x`, `trisize_y`, `fnumverts_x`), as Assimp's `HMPFileData.h` names
//! it; skins are the MDL7 skin lumps (`specs/gamestudio-mdl7.spec.txt`, see
//! [`crate::formats::gs_mdl7`]) without a name; frames are MDL word-packed frames. Every
//! field was checked against the ten `HMP7` files of the corpus, all of which end exactly
//! where this layout says.
//!
//! **Layout.** Header: magic, version, `scale[3]`, `origin[3]`, `bounding_radius`,
//! `trisize_x`, `trisize_y`, `fnumverts_x` (floats), then `num_skins`, `skin_w`, `skin_h`,
//! `num_verts`, `num_tris`, `num_frames`, `num_stverts`, `flags` (ints) and `size`. Then
//! `num_skins` skins (type, width, height, data), then `num_frames` frames: a type word (2),
//! a packed bounding box (two 8-byte vertices), a 16-byte name and `num_verts` vertices, row
//! by row, `fnumverts_x` to a row. HMP7 vertices are a 16-bit height and two signed normal
//! bytes, HMP5 vertices a height, a normal table index and a pad byte, HMP4 vertices three
//! 16-bit coordinates, a normal index and a pad byte.
//!
//! **Quirks handled here.**
//! - `fnumverts_x` is a float; it must be a whole number that divides `num_verts`.
//! - `num_tris`, `num_stverts`, `skin_w` and `skin_h` are 0 in every known file: the grid
//!   makes the triangles and texture coordinates, and each skin has its own size.
//! - The stored normals only agree with the terrain's shape when row 0 is its `+y` edge
//!   and both normal bytes are negated; see [`to_model`] for the evidence.
//! - Terrain skins are often external files (a colour map and a detail map), sometimes
//!   embedded 5-6-5 or 8-8-8 pictures with mip levels, or DDS files.
//! - HMP4 and HMP5 are read as described, but no such file was available to check them.
//!
//! ```
//! use retromodel::formats::hmp;
//! # let bytes = retromodel::formats::hmp::fixtures::minimal();
//! let file = hmp::File::parse(&bytes, &retromodel::Limits::default())?;
//! assert_eq!(file.write(), bytes); // byte-exact
//! let model = hmp::to_model(&file, &Default::default(), &retromodel::NoFiles).model;
//! let (w, h) = file.grid();
//! assert_eq!(model.meshes[0].triangles.len(), 2 * (w - 1) * (h - 1));
//! # Ok::<(), retromodel::Error>(())
//! ```

mod codec;
mod convert;
pub mod fixtures;
mod raw;
mod read;
mod summary;
mod write;

pub use codec::{HmpCodec, CODEC, HMP};
pub use convert::{hmp7_normal, to_model};
pub use raw::*;
pub use summary::summary;

/// Format name used in errors and `info` output.
pub const FORMAT: &str = "hmp";
