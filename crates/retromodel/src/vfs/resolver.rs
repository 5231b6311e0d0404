//! Side files for a model named by a path: on disk, or inside an archive (`ARCHIVE:PATH`),
//! with an optional forced palette and game tree. The names a model asks for are read by one
//! rule ([`side_name`]) wherever they are looked for.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::archives::{split_archive_path, Archives};
use super::{clean_path, GameFs, GameFsResolver};
use crate::resolve::Resolver;

/// A side-file name as a model stores it (`models/tank/skin.pcx`, `..\skins\a.pcx`), read by
/// the one rule every resolver applies: the game path (`\` read as `/`, a leading `/`, `.`
/// and empty components dropped; `None` when a component is `..` or holds a `:`, so a model
/// never reaches outside the folders it is given), and the bare file name (its last
/// component, leading `.` dropped for UFO:AI's `.body`; `None` when empty or holding a `:`).
pub fn side_name(name: &str) -> (Option<String>, Option<String>) {
    let file = name.rsplit(['/', '\\']).next().unwrap_or("");
    let file = file.trim_start_matches('.');
    let file = (!file.is_empty() && !file.contains(':')).then(|| file.to_string());
    (clean_path(name), file)
}

/// Finds side files for a model on disk or inside an archive.
///
/// - `gfx/palette.lmp`: the forced palette if given, else looked up like any other name.
/// - Files given with [`PathResolver::with_listed`], by the name they were given.
/// - For a model inside an archive (`pak0.pak:progs/x.mdl`): in the archive, as
///   [`GameFsResolver`] finds them (a game path from its root, then from the model's folder
///   and up to four parents, then by file name in the model's folder; a bare name beside
///   the model first, then in its parents, then at the root).
/// - Then in the game tree (`--game-dir` folders, their archives included), from its root.
/// - For a model on disk: under the model's folder and up to four parents (Quake's
///   `progs/x.mdl` beside `gfx/palette.lmp`), then by its file name beside the model. Names
///   are read by [`side_name`].
///
/// Side files a format asks for by extension ([`Resolver::list`]: the `.md5anim` files beside
/// an `.md5mesh`) are the files with that extension in the model's folder, or exactly the
/// files given with [`PathResolver::with_listed`].
pub struct PathResolver<'a> {
    archives: &'a Archives,
    dir: PathBuf,
    model: Option<String>,
    palette: Option<Vec<u8>>,
    game: Option<Arc<GameFs>>,
    inside: Option<(Arc<GameFs>, String)>,
    listed: Option<Vec<PathBuf>>,
}

impl<'a> PathResolver<'a> {
    /// A resolver for the model at `model_path` (on disk or `ARCHIVE:PATH`, its archive
    /// opened through `archives`), with an optional forced palette file and game tree.
    pub fn new(
        archives: &'a Archives,
        model_path: &Path,
        palette: Option<&[u8]>,
        game: Option<Arc<GameFs>>,
    ) -> Self {
        let inside = split_archive_path(model_path)
            .and_then(|(archive, inner)| Some((archives.open(&archive).ok()?, inner)));
        PathResolver {
            archives,
            dir: model_path.parent().unwrap_or(Path::new(".")).to_path_buf(),
            model: model_path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned()),
            palette: palette.map(<[u8]>::to_vec),
            game,
            inside,
            listed: None,
        }
    }

    /// The resolver lists exactly `files` instead of the folder's files (`--anim`); an empty
    /// list keeps the folder's.
    pub fn with_listed(mut self, files: &[PathBuf]) -> Self {
        if !files.is_empty() {
            self.listed = Some(files.to_vec());
        }
        self
    }

    /// The places on disk a side-file name is looked for, in order: the game path under the
    /// model's folder and up to four parents, then the file name beside the model.
    pub fn candidates(&self, name: &str) -> Vec<PathBuf> {
        let (rel, file) = side_name(name);
        let mut out: Vec<PathBuf> = Vec::new();
        if let Some(rel) = rel {
            out.extend(self.dir.ancestors().take(5).map(|d| d.join(&rel)));
        }
        if let Some(file) = file {
            out.push(self.dir.join(file));
        }
        out
    }

    /// The model's folder on disk (`.` for a bare file name).
    fn base(&self) -> &Path {
        if self.dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &self.dir
        }
    }
}

impl Resolver for PathResolver<'_> {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        if name.ends_with("palette.lmp") {
            if let Some(p) = &self.palette {
                return Some(p.clone());
            }
        }
        if let Some(p) = self
            .listed
            .iter()
            .flatten()
            .find(|p| p.to_string_lossy() == name)
        {
            return self.archives.read(p).ok();
        }
        // The `.md5scale` beside an `--anim` file given by name.
        let wanted = Path::new(name);
        if name.ends_with(".md5scale")
            && self
                .listed
                .iter()
                .flatten()
                .any(|p| p.parent() == wanted.parent() && p.file_stem() == wanted.file_stem())
        {
            if let Ok(b) = self.archives.read(wanted) {
                return Some(b);
            }
        }
        if let Some((fs, inner)) = &self.inside {
            if let Some(b) = GameFsResolver::new(fs, inner).load(name) {
                return Some(b);
            }
        }
        if let Some(game) = &self.game {
            if let Some(b) = clean_path(name).and_then(|p| game.read(&p)?.ok()) {
                return Some(b);
            }
        }
        if self.inside.is_some() {
            return None;
        }
        self.candidates(name)
            .into_iter()
            .find(|p| p.is_file())
            .and_then(|p| fs::read(p).ok())
    }

    /// The file at `name` under the model's folder only (`DIR/md5/tris.md5mesh` for
    /// `md5/tris.md5mesh`), in the model's archive for a model inside one; then, for a model on
    /// disk, at that game path in the `--game-dir` tree.
    fn load_path(&self, name: &str) -> Option<Vec<u8>> {
        if let Some((fs, inner)) = &self.inside {
            return GameFsResolver::new(fs, inner).load_path(name);
        }
        let rel = side_name(name).0?;
        let here = self.base().join(&rel);
        if here.is_file() {
            return fs::read(here).ok();
        }
        let game = self.game.as_ref()?;
        game.read(&rel)?.ok()
    }

    /// The layer of the model's archive tree, for a model inside an archive.
    fn search_layer(&self, name: &str) -> Option<usize> {
        let (fs, inner) = self.inside.as_ref()?;
        GameFsResolver::new(fs, inner).search_layer(name)
    }

    fn list(&self, extension: &str) -> Vec<String> {
        let has_ext = |p: &Path| {
            p.extension()
                .is_some_and(|e| e.eq_ignore_ascii_case(extension))
        };
        // Files given by name are taken whatever their extension.
        if let Some(listed) = &self.listed {
            return listed
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
        }
        if let Some((fs, inner)) = &self.inside {
            return GameFsResolver::new(fs, inner).list(extension);
        }
        let mut out: Vec<String> = fs::read_dir(self.base())
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && has_ext(p))
            .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
            .collect();
        out.sort();
        out
    }

    /// The archive's folder (for a model inside one), the game tree's folder, and the folder
    /// `dir` under the model's folder and up to four parents on disk.
    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((fs, inner)) = &self.inside {
            out.extend(GameFsResolver::new(fs, inner).list_in(dir, extension));
        }
        if let Some(game) = &self.game {
            out.extend(game.list_dir(dir, extension));
        }
        if self.inside.is_none() {
            for folder in self.base().ancestors().take(5).map(|a| a.join(dir)) {
                for e in fs::read_dir(&folder).into_iter().flatten().flatten() {
                    let p = e.path();
                    if p.is_file()
                        && p.extension()
                            .is_some_and(|x| x.eq_ignore_ascii_case(extension))
                    {
                        out.push(format!("{dir}/{}", e.file_name().to_string_lossy()));
                    }
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    fn model_name(&self) -> Option<String> {
        self.model.clone()
    }
}
