//! 3D GameStudio WMP levels (WED's level source), text variant: read, write, and convert to
//! a [`crate::model::Model`]. The binary `WMPB` variant is refused as not supported yet.
//!
//! **Sources.** The "WMP map format" chapter of the A4 Programmer's Manual
//! (`specs/gamestudio-a4-manual-wmp-mdl.txt`: the example level, the block statement, the
//! face fields, the level properties, the coordinate system) and the 3D GameStudio part of
//! `specs/ENGINE-NOTES.md`, checked against the version-710 files written by WED 6.7 and
//! WMPIO 1.19 in the corpus.
//!
//! **Layout.** A file is a sequence of statements: settings (`version 710`, `blocks 34`,
//! `entities 1`, `objects 38`), `wed { palette { } wad { } bookmark { } view { } }` (editor
//! state only), `block N { }`, `level N { }`, `light N { }`, `sound N { }`, `entity N { }`,
//! `path N { }` and `object N { (position) (angles) (scale) members }`. Level, lights,
//! sounds, entities and paths share one numbering (the A4 example has `level 0` and
//! `light 1` under `entities 2`). Objects place their members: `block 0`, `light 1`,
//! `object 2, 3`.
//!
//! **Quirks handled here.**
//! - Two block layouts. A4: one face per plane, `( p1 ) ( p2 ) ( p3 ) texture xoff yoff
//!   angle xscale yscale : flags ambient albedo` and four "future expansion" words. Version
//!   710: `vertices N faces M`, the vertices, then `n i1 .. in : texture ( u-axis offset )
//!   ( v-axis offset ) xoff yoff angle xscale yscale : flags ambient albedo ndef`. The words
//!   after the albedo run to the next face (A4) or the end of the line (710, whose faces
//!   start with a number). Both end with a `{ flags ndef [n] }` group.
//! - Plane points run clockwise seen from outside: the outward normal is
//!   `(p1 - p2) × (p3 - p2)`. The manual's sentence on its example cube says it extends from
//!   (-32,32,-32); its planes give (-32,-32,-32) to (32,32,32).
//! - The manual's example stores object angles in radians (`1.570796`).
//! - `entities` counts more than entities; `sound`, `entity` and `path` bodies are not
//!   documented and are kept as tokens, as are unknown statements.
//! - WED writes an object's group name as a comment after its brace (`object 1 {  //
//!   BRIDGE06`). Comments before a top-level statement (the `// WMP2` header) and right
//!   after its opening brace are kept and written back; comments anywhere else are dropped
//!   with a warning.
//! - CRLF line endings; file names in `<>` may hold spaces and backslashes.
//!
//! **Round trip.** [`write()`] of an unmodified [`parse`] gives the same token sequence as
//! the input, comments included, and `parse(write(parse(x))) == parse(x)`; only whitespace
//! changes (WED's layout, CRLF). The exceptions each come with a parser warning: comments
//! inside a statement other than right after its opening brace are dropped, indices with
//! leading zeros are written without them, palette bytes not written as two lowercase hex
//! digits are written so, and non-UTF-8 words (read as Latin-1) are written as UTF-8.
//!
//! **Model.** See [`to_model`]: block solids from their planes through the object hierarchy,
//! one mesh per texture, Z up, WED quants, and [`crate::model::Model::nodes`]: one node per object
//! (its position, angles and scale as the node's transform), one per placed block (holding
//! the block's triangles of each texture mesh) and one per light, entity and sound member.
//! Mesh positions stay in model (world) space, so OBJ, bounds, `info` and the native writers
//! see the placed level whatever the nodes say; the glTF exporter writes the node tree and
//! expresses each block's vertices in its node's space (by the inverse of the node's world
//! transform), so a block's vertices come out in the block's own coordinates.

mod codec;
mod convert;
pub mod fixtures;
mod raw;
mod read;
mod summary;
mod write;

pub use codec::{WmpCodec, CODEC, WMP};
pub use convert::{solid, to_model, Solid, SolidFace, MAX_BLOCK_FACES};
pub use raw::*;
pub use read::{parse, Parsed};
pub use summary::summary;
pub use write::write;

/// Format name of WMP files in errors and `info`.
pub const FORMAT: &str = "wmp";
