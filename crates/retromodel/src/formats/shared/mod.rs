//! What several formats share, so that no format imports another: the Model-to-file steps
//! of the writers ([`from_model`]), the 162 Quake normals ([`normals`]), the packed Quake
//! vertex ([`quake`]), a replaced skin fitted to a file's skin size ([`skins`]), Doom 3 material and Quake 3 shader declarations ([`materials`]) and
//! engines checked by several formats ([`engines`]).

pub(crate) mod cube2;
pub mod engines;
pub(crate) mod from_model;
pub mod materials;
pub mod normals;
pub mod quake;
pub(crate) mod skins;
