//! Doom 3 MD5 (version 10): `.md5mesh` (skeleton and weighted meshes), `.md5anim`
//! (skeletal animation) and `.md5camera` (camera paths). Text files.
//!
//! **Sources.** David Henry's "MD5Mesh and MD5Anim files formats" (`specs/doom3-md5.txt`:
//! mesh layout, quaternion maths, skinning, weight normals) and the MD5 part of
//! `specs/ENGINE-NOTES.md` (md5anim and md5camera layouts, the quaternion sign, looping,
//! root motion, joint matching), checked against dhewm3's `Model_md5.cpp` and `Anim.cpp`.
//!
//! **Quirks handled here.**
//! - Only x, y, z of each orientation are stored; w follows the seed's column-vector
//!   convention, `w = -sqrt(max(0, 1 - x² - y² - z²))` ([`quat::w_from_xyz`], the one place).
//! - CRLF line endings, `//` comments, backslashes in quoted strings, a missing `MD5Version`
//!   line and a `numMeshes` that disagrees with the meshes present are read with warnings;
//!   anything whose meaning is unclear is an error with line and column.
//! - A cycle lasts `numFrames - 1` frames when looping (the last frame repeats the first).

pub mod anim;
mod codec;
mod convert;
pub mod fixtures;
mod from_model;
pub use crate::formats::shared::materials as mtr;
pub mod quat;
mod raw;
mod read;
pub mod scale;
mod summary;
mod validate;
mod write;

pub use codec::{
    attach_scale_bytes, attach_scales, scale_name, Md5Codec, CODEC, MD5ANIM, MD5CAMERA, MD5MESH,
};
pub use convert::{anim_to_model, attach_animation, camera_to_model, mesh_to_model};
pub use from_model::{anim_from_model, camera_from_model, mesh_from_model, COMPRESS_TOLERANCE};
pub use raw::*;
pub use read::{parse_anim, parse_camera, parse_mesh, Parsed};
pub use summary::{anim_summary, camera_summary, duration, mesh_summary};
pub use validate::{validate_anim, validate_camera, validate_mesh, GPU_WEIGHTS};
pub use write::{write_anim, write_camera, write_mesh};

/// Format name of `.md5mesh` files in errors and `info`.
pub const MESH_FORMAT: &str = "md5mesh";
/// Format name of `.md5anim` files.
pub const ANIM_FORMAT: &str = "md5anim";
/// Format name of `.md5camera` files.
pub const CAMERA_FORMAT: &str = "md5camera";
