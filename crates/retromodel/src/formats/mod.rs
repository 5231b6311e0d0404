//! One module per format: `raw` structs 1:1 with the disk, a parser, a writer, and a
//! converter to the format-neutral [`crate::Model`] and (for writable formats) back.

pub(crate) mod from_model;
pub mod gs_mdl;
pub mod gs_mdl7;
pub mod hmp;
pub mod md2;
pub mod md3;
pub mod md5;
pub mod normals;
pub mod quake_mdl;
pub mod wmp;
