//! Side files (palettes, external skins, animations next to a mesh) reach the converters
//! through a [`Resolver`] the caller passes in: parsers take bytes, never paths.

use std::collections::HashMap;

/// Supplies the bytes of side files by game path (`gfx/palette.lmp`).
pub trait Resolver {
    /// The file's bytes, or `None` when it is not available.
    fn load(&self, name: &str) -> Option<Vec<u8>>;

    /// The side files beside the model whose extension is `extension` (any case, no dot),
    /// as names [`Resolver::load`] accepts, sorted: how a format finds the files that go with
    /// a model (the `.md5anim` files beside an `.md5mesh`). None by default.
    fn list(&self, extension: &str) -> Vec<String> {
        let _ = extension;
        Vec::new()
    }

    /// The files of folder `dir` of the game data (`materials`: Doom 3's material files)
    /// whose extension is `extension` (any case, no dot), as names [`Resolver::load`]
    /// accepts (`materials/monsters.mtr`), sorted. None by default.
    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        let _ = (dir, extension);
        Vec::new()
    }

    /// The model's own file name, when known: skin rules that look for a picture named like
    /// the model (`faerie.md2` beside `faerie.bmp`) use its stem. `None` by default.
    fn model_name(&self) -> Option<String> {
        None
    }
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

    /// Every name without a `/` whose extension matches.
    fn list(&self, extension: &str) -> Vec<String> {
        self.list_in("", extension)
    }

    /// Every name `dir/NAME` (`NAME` without a `/`) whose extension matches.
    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{}/", dir.trim_end_matches('/'))
        };
        let mut out: Vec<String> = self
            .0
            .keys()
            .filter(|k| {
                k.strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.contains('/'))
            })
            .filter(|k| {
                k.rsplit_once('.')
                    .is_some_and(|(_, e)| e.eq_ignore_ascii_case(extension))
            })
            .cloned()
            .collect();
        out.sort();
        out
    }
}
