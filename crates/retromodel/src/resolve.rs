//! Side files (palettes, external skins, animations next to a mesh) reach the converters
//! through a [`Resolver`] the caller passes in: parsers take bytes, never paths.

use std::collections::HashMap;

/// Supplies the bytes of side files by game path (`gfx/palette.lmp`).
pub trait Resolver {
    /// The file's bytes, or `None` when it is not available.
    fn load(&self, name: &str) -> Option<Vec<u8>>;

    /// The file at game path `name` only (`models/x/md5/skin.pcx`, relative to the model's
    /// folder and its parents as [`Resolver::load`] reads it), without the fall-back to the bare
    /// file name beside the model: for rules whose folder matters (the Quake II re-release's
    /// `md5/`). [`Resolver::load`] by default.
    fn load_path(&self, name: &str) -> Option<Vec<u8>> {
        self.load(name)
    }

    /// The search-path layer a file found by [`Resolver::load`] comes from, when the resolver
    /// reads a game tree of layers ([`crate::vfs::GameFs`]: higher wins, as the engines'
    /// search paths), else `None`. The Quake re-release uses an MD5 replacement only when it
    /// comes from the same or a higher layer than the MDL. `None` by default.
    fn search_layer(&self, name: &str) -> Option<usize> {
        let _ = name;
        None
    }

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

/// A borrowed resolver resolves as the one it borrows (so a `&dyn Resolver` can be wrapped,
/// as in [`Listed`]).
impl<R: Resolver + ?Sized> Resolver for &R {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        (**self).load(name)
    }
    fn load_path(&self, name: &str) -> Option<Vec<u8>> {
        (**self).load_path(name)
    }
    fn search_layer(&self, name: &str) -> Option<usize> {
        (**self).search_layer(name)
    }
    fn list(&self, extension: &str) -> Vec<String> {
        (**self).list(extension)
    }
    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        (**self).list_in(dir, extension)
    }
    fn model_name(&self) -> Option<String> {
        (**self).model_name()
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

/// A resolver that remembers which of the side files it listed were loaded: what `info`
/// shows as the files a model took along (an md5mesh's animations).
pub struct Listed<R> {
    inner: R,
    loaded: std::cell::RefCell<Vec<String>>,
    listed: std::cell::Cell<bool>,
}

impl<R: Resolver> Listed<R> {
    /// Wraps `inner`.
    pub fn new(inner: R) -> Self {
        Listed {
            inner,
            loaded: Default::default(),
            listed: Default::default(),
        }
    }

    /// Whether the format asked for a list of side files (an md5mesh for its animations).
    pub fn was_listed(&self) -> bool {
        self.listed.get()
    }

    /// The file name of the loaded side file whose stem is `stem`.
    pub fn file_of(&self, stem: &str) -> Option<String> {
        self.loaded.borrow().iter().find_map(|name| {
            let file = std::path::Path::new(name)
                .file_name()?
                .to_string_lossy()
                .into_owned();
            (std::path::Path::new(&file).file_stem()? == stem).then_some(file)
        })
    }
}

impl<R: Resolver> Resolver for Listed<R> {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        let bytes = self.inner.load(name);
        if bytes.is_some() {
            self.loaded.borrow_mut().push(name.to_string());
        }
        bytes
    }

    fn load_path(&self, name: &str) -> Option<Vec<u8>> {
        let bytes = self.inner.load_path(name);
        if bytes.is_some() {
            self.loaded.borrow_mut().push(name.to_string());
        }
        bytes
    }

    fn search_layer(&self, name: &str) -> Option<usize> {
        self.inner.search_layer(name)
    }

    fn list(&self, extension: &str) -> Vec<String> {
        self.listed.set(true);
        self.inner.list(extension)
    }

    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        self.inner.list_in(dir, extension)
    }

    fn model_name(&self) -> Option<String> {
        self.inner.model_name()
    }
}
