//! Wavefront OBJ: one pose written with its `.mtl` and PNG skins beside it ([`package`],
//! [`to_obj`]), OBJ files read into a Model with their materials ([`read`], feature `png`),
//! and the [`CODEC`] that the format registry lists for `.obj` files.
//!
//! OBJ has no magic: the codec detects a file by its first statement (after comments and
//! blank lines: `v`, `vt`, `vn`, `f`, `o`, `g`, `mtllib` or `usemtl`), and it is
//! registered last, after every codec with a magic or a keyword of its own.

#[cfg(feature = "png")]
mod codec;
mod export;
#[cfg(feature = "png")]
mod import;

#[cfg(feature = "png")]
pub use codec::{package, ObjCodec, CODEC, OBJ};
pub use export::{to_obj, Obj, FORMAT};
#[cfg(feature = "png")]
pub use import::read;
