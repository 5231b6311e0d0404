//! Parsing the three MD5 text files (being written).

use super::raw::{AnimFile, CameraFile, MeshFile};
use crate::Result;

/// A parsed file and the warnings about what was read leniently.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The file.
    pub file: T,
    /// What was read leniently (missing version line, `numMeshes` mismatch, ...).
    pub warnings: Vec<String>,
}

/// Parses an `.md5mesh` file.
pub fn parse_mesh(_text: &[u8], _limits: &crate::Limits) -> Result<Parsed<MeshFile>> {
    todo!()
}

/// Parses an `.md5anim` file.
pub fn parse_anim(_text: &[u8], _limits: &crate::Limits) -> Result<Parsed<AnimFile>> {
    todo!()
}

/// Parses an `.md5camera` file.
pub fn parse_camera(_text: &[u8], _limits: &crate::Limits) -> Result<Parsed<CameraFile>> {
    todo!()
}
