//! One module per format: `raw` structs 1:1 with the disk, a parser, a writer, and a
//! converter to the format-neutral [`crate::model::Model`] and (for writable formats) back.

pub mod goldsrc;
pub mod gs_mdl;
pub mod gs_mdl7;
pub mod hmp;
pub mod iqm;
pub mod md2;
pub mod md3;
pub mod md5;
pub mod quake_mdl;
pub mod shared;
pub mod smd;
pub mod wmp;

pub use shared::normals;
