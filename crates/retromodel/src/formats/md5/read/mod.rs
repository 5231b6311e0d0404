//! Parsing the three MD5 text files: tokens to [`MeshFile`], [`AnimFile`] and [`CameraFile`],
//! every count, index and order checked once, here.
//!
//! The layouts are fixed as Doom 3 reads them (`MD5Version`, `commandline`, the counts, then
//! the blocks in order); tokens may be spread over lines at will. What is read leniently,
//! with a warning in [`Parsed::warnings`]:
//!
//! - no `MD5Version` line (`version` is `None`), no `commandline` line (empty), no
//!   `frameRate` line in an md5anim (24, Doom 3's default);
//! - a `numMeshes` that differs from the `mesh` blocks present (`stated_meshes` keeps it);
//! - more md5anim `bounds` lines than frames (all kept; fewer is an error);
//! - a mesh without a `shader` line (empty shader);
//! - a string that is not UTF-8 (read as Latin-1, as the exporters that wrote it meant).
//!
//! Everything else that is off is an error with line and column: an unknown or misplaced
//! keyword, a token of the wrong type, a version other than 10, a parent index not lower than
//! its joint's, an index out of range, `vert`/`tri`/`weight`/`frame` numbers out of order, a
//! count that disagrees with the entries of its block, md5anim flags outside `0..=63`,
//! animated components past `numAnimatedComponents`, camera cuts outside `1..numFrames`.
//! Every count is checked against the bytes left in the input and `Limits::max_count`, and
//! charged to a [`Budget`](crate::limits::Budget), before anything is allocated for it.
//!
//! [`syntax`] holds the tokenizer settings and the MD5 [`Parser`](syntax::Parser) (keywords,
//! numbers, strings, counts, indices), [`in_place`] its readers of the bulk lines (vertices,
//! triangles, weights, frames) in one pass; [`md5mesh`], [`md5anim`] and [`md5camera`] read
//! one file each.
//!
//! [`MeshFile`]: crate::formats::md5::MeshFile
//! [`AnimFile`]: crate::formats::md5::AnimFile
//! [`CameraFile`]: crate::formats::md5::CameraFile

mod in_place;
mod md5anim;
mod md5camera;
mod md5mesh;
mod syntax;

pub use md5anim::parse_anim;
pub use md5camera::parse_camera;
pub use md5mesh::parse_mesh;

/// A parsed file and the warnings about what was read leniently.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The file.
    pub file: T,
    /// What was read leniently (missing version line, `numMeshes` mismatch, ...).
    pub warnings: Vec<String>,
    /// md5mesh only: each mesh's name from the `// meshes: NAME` comment exporters write in
    /// its block (Cube 2 engines name meshes by it), in mesh order; empty for the other
    /// files and when no mesh has one.
    pub mesh_names: Vec<Option<String>>,
}
