//! Side files (palettes, external skins, animations next to a mesh) reach the converters
//! through a [`Resolver`] the caller passes in: parsers take bytes, never paths.

use std::collections::HashMap;

/// Supplies the bytes of side files by game path (`gfx/palette.lmp`).
pub trait Resolver {
    /// The file's bytes, or `None` when it is not available.
    fn load(&self, name: &str) -> Option<Vec<u8>>;
}

/// A resolver that finds nothing: converters fall back to built-in data.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoFiles;

impl Resolver for NoFiles {
    fn load(&self, _name: &str) -> Option<Vec<u8>> {
        None
    }
}

/// A resolver backed by an in-memory map, handy for tests and embedding.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles(pub HashMap<String, Vec<u8>>);

impl Resolver for MemoryFiles {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.0.get(name).cloned()
    }
}
