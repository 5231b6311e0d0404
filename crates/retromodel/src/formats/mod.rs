//! One module per format: `raw` structs 1:1 with the disk, a parser, a writer, and a
//! converter to the format-neutral [`crate::Model`].

pub mod normals;
pub mod quake_mdl;
