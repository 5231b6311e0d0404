//! What a path names, the same for every command: the models in a file, a folder, a game
//! folder holding archives, an archive, or `ARCHIVE:PATH` (a file or folder inside an
//! archive).
//!
//! - A file on disk is one input, whatever its name (formats are detected by magic); so is a
//!   path that does not exist, whose reading then fails with its error.
//! - An archive (`.pak`, `.pk3`, `.pk4`, `.zip`, or a file starting like one and not like a
//!   model) is the model files inside it, as `ARCHIVE:PATH`; `ARCHIVE:FOLDER` the model files
//!   under that folder of it; `ARCHIVE:FILE` that file.
//! - A folder is read as a game folder, as [`GameFs::mount_game_dir`] stacks it: the model
//!   files under it (recursively, sorted) and those of the archives directly in it, each
//!   path of the game's tree once, the copy that wins (loose files over archives, a later
//!   archive over an earlier one), shown as a file on disk or as `ARCHIVE:PATH`.
//!
//! Model files are found by extension: every registered format's, plus the extra ones a
//! caller asks for (the glTF and OBJ files a batch imports). An archive that cannot be read is
//! one input whose reading fails with the archive's error, so it is reported with the others
//! while they go on.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::formats::md3::player::PlayerFolder;
use crate::registry;
use crate::resolve::Resolver;
use crate::vfs::{self, archive_path, split_archive_path, Archives, FileError, GameFs};

/// One model file a path names.
pub struct Input {
    /// How it is shown and named again on a command line: a path on disk, or `ARCHIVE:PATH`.
    pub path: PathBuf,
    /// Its path below the path it was found under (for mirroring a tree): `models/a.md3` for
    /// `pak.pk3:models/a.md3` under `pak.pk3`, `fixture/tris.md2` under `pak.pk3:models`; a
    /// file named on its own is its path as given.
    pub relative: PathBuf,
    source: Source,
}

enum Source {
    File(PathBuf),
    Entry {
        tree: Arc<GameFs>,
        archive: PathBuf,
        inner: String,
    },
    Unreadable(FileError),
}

impl Input {
    /// A file on disk, or `ARCHIVE:PATH`, named on its own.
    fn named(archives: &Archives, path: &Path) -> Input {
        let source = match split_archive_path(path) {
            Some((archive, inner)) => match archives.open(&archive) {
                Ok(tree) => Source::Entry {
                    tree,
                    archive,
                    inner,
                },
                Err(e) => Source::Unreadable(e),
            },
            None => Source::File(path.to_path_buf()),
        };
        Input {
            path: path.to_path_buf(),
            relative: path.to_path_buf(),
            source,
        }
    }

    /// The file's bytes; the error names the file.
    pub fn read(&self) -> Result<Vec<u8>, FileError> {
        match &self.source {
            Source::File(p) => {
                fs::read(p).map_err(|e| FileError(format!("cannot read {}: {e}", p.display())))
            }
            Source::Entry {
                tree,
                archive,
                inner,
            } => vfs::archives::read_entry(tree, archive, inner),
            Source::Unreadable(e) => Err(e.clone()),
        }
    }

    /// The file's size in bytes (0 when unknown).
    pub fn size(&self) -> u64 {
        match &self.source {
            Source::File(p) => fs::metadata(p).map(|m| m.len()).unwrap_or(0),
            Source::Entry { tree, inner, .. } => tree.size_of(inner).unwrap_or(0),
            Source::Unreadable(_) => 0,
        }
    }

    /// Its path inside the archive it is in, if it is in one.
    pub fn inner_path(&self) -> Option<&str> {
        match &self.source {
            Source::Entry { inner, .. } => Some(inner),
            _ => None,
        }
    }
}

/// Whether `path` is an archive file on disk: by its extension, or by its first bytes when
/// they are an archive's and not a model's.
pub fn is_archive(path: &Path) -> bool {
    if !path.is_file() {
        return false;
    }
    if vfs::is_archive_name(path) {
        return true;
    }
    let mut magic = [0u8; 4];
    fs::File::open(path)
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut magic))
        .is_ok()
        && vfs::detect(&magic).is_some()
        && registry::detect(&magic).is_none()
}

/// Whether `path` names many models: a folder, an archive, or a folder inside an archive.
pub fn is_tree(archives: &Archives, path: &Path) -> bool {
    if path.is_dir() || is_archive(path) {
        return true;
    }
    match split_archive_path(path) {
        Some((archive, inner)) => archives.open(&archive).is_ok_and(|fs| !fs.contains(&inner)),
        None => false,
    }
}

/// Whether a file name has one of `known` or `extra` extensions (any case).
fn has_extension(name: &str, known: &[&str], extra: &[&str]) -> bool {
    name.rsplit_once('.').is_some_and(|(_, e)| {
        let e = e.to_ascii_lowercase();
        known.contains(&e.as_str()) || extra.contains(&e.as_str())
    })
}

/// The model files `paths` name (see the [module](self) documentation), in order: each
/// path's in turn. `extra`: more extensions (lower case) a folder or archive walk takes.
pub fn collect(archives: &Archives, paths: &[PathBuf], extra: &[&str]) -> Vec<Input> {
    let known = registry::extensions();
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            folder(archives, p, &known, extra, &mut out);
        } else if is_archive(p) {
            in_archive(archives, p, "", &known, extra, &mut out);
        } else if let Some((archive, inner)) = split_archive_path(p) {
            match archives.open(&archive) {
                Ok(fs) if !fs.contains(&inner) => {
                    let before = out.len();
                    in_archive(archives, &archive, &inner, &known, extra, &mut out);
                    if out.len() == before {
                        out.push(Input::named(archives, p));
                    }
                }
                _ => out.push(Input::named(archives, p)),
            }
        } else {
            out.push(Input::named(archives, p));
        }
    }
    out
}

/// The model files of the archive at `archive` under its folder `prefix` (`""` for all); an
/// archive that cannot be opened is one unreadable input.
fn in_archive(
    archives: &Archives,
    archive: &Path,
    prefix: &str,
    known: &[&str],
    extra: &[&str],
    out: &mut Vec<Input>,
) {
    let tree = match archives.open(archive) {
        Ok(t) => t,
        Err(e) => {
            out.push(Input {
                path: archive.to_path_buf(),
                relative: archive.to_path_buf(),
                source: Source::Unreadable(e),
            });
            return;
        }
    };
    let prefix = prefix.trim_matches('/');
    for f in tree.files_under(prefix) {
        if !has_extension(&f.path, known, extra) {
            continue;
        }
        let relative = f.path[prefix.len()..].trim_start_matches('/').to_string();
        out.push(Input {
            path: archive_path(archive, &f.path),
            relative: PathBuf::from(relative),
            source: Source::Entry {
                tree: tree.clone(),
                archive: archive.to_path_buf(),
                inner: f.path,
            },
        });
    }
}

/// The model files of a game folder: its loose files (recursively, sorted, as on disk), then
/// those of its archives (in mount order, each sorted), a tree path shadowed by a higher
/// layer left out.
fn folder(archives: &Archives, root: &Path, known: &[&str], extra: &[&str], out: &mut Vec<Input>) {
    let key = |p: &str| {
        if archives.is_case_insensitive() {
            p.to_ascii_lowercase()
        } else {
            p.to_string()
        }
    };
    // Every layer's inputs by tree path, lowest layer first; a higher layer's copy wins.
    let mut layers: Vec<Vec<(String, Input)>> = Vec::new();
    let mut loose = Vec::new();
    walk(root, root, known, extra, &mut loose);
    let order = vfs::game_dir_order(root).unwrap_or_default();
    for layer in &order {
        let mut found = Vec::new();
        if layer.is_dir() {
            let mut files = Vec::new();
            walk(layer, layer, known, extra, &mut files);
            found.extend(files);
        } else {
            let mut entries = Vec::new();
            in_archive(archives, layer, "", known, extra, &mut entries);
            for input in entries {
                let tree_path = input.inner_path().unwrap_or_default().to_string();
                found.push((tree_path, input));
            }
        }
        layers.push(found);
    }
    let loose_layer = layers.len();
    let mut winner: HashMap<String, (usize, usize)> = HashMap::new();
    for (l, found) in layers.iter().chain([&loose]).enumerate() {
        for (i, (tree_path, _)) in found.iter().enumerate() {
            winner.insert(key(tree_path), (l, i));
        }
    }
    // Loose files first, in disk order, then each archive's; a file on disk once, whichever
    // layer found it (an unpacked archive's files are also the folder's).
    let mut seen = std::collections::HashSet::new();
    let ordered = std::iter::once((loose_layer, loose)).chain(layers.into_iter().enumerate());
    for (l, found) in ordered {
        for (i, (tree_path, input)) in found.into_iter().enumerate() {
            let unreadable = matches!(input.source, Source::Unreadable(_));
            if !unreadable && winner.get(&key(&tree_path)) != Some(&(l, i)) {
                continue;
            }
            if let Source::File(p) = &input.source {
                if !seen.insert(p.clone()) {
                    continue;
                }
            }
            out.push(input);
        }
    }
}

/// The model files under `dir` (recursively, each folder's entries sorted) as inputs keyed by
/// their path below `root` (`/`-separated); a folder that cannot be listed is one input, so
/// its error is reported.
fn walk(root: &Path, dir: &Path, known: &[&str], extra: &[&str], out: &mut Vec<(String, Input)>) {
    let Ok(rd) = fs::read_dir(dir) else {
        out.push((String::new(), file_input(root, dir)));
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(root, &p, known, extra, out);
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| has_extension(n, known, extra))
        {
            let input = file_input(root, &p);
            let tree_path = input
                .relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy())
                .collect::<Vec<_>>()
                .join("/");
            out.push((tree_path, input));
        }
    }
}

/// The file `path` on disk, found under `root`.
fn file_input(root: &Path, path: &Path) -> Input {
    Input {
        path: path.to_path_buf(),
        relative: path.strip_prefix(root).unwrap_or(path).to_path_buf(),
        source: Source::File(path.to_path_buf()),
    }
}

/// What a path shows as one tree of files (`ls`, the web viewer): a game folder mounted, an
/// archive, a folder of an archive, or the folder of a model file.
pub struct PathTree {
    /// The tree.
    pub fs: Arc<GameFs>,
    /// The folder of the tree the path names (`""` for all of it).
    pub prefix: String,
    /// The file of the tree the path names, when it names one (a model file on disk, shown
    /// with the game folder it is in; `ARCHIVE:FILE`).
    pub file: Option<String>,
}

/// The tree `path` shows ([`PathTree`]); fails when it is neither a folder, an archive, a
/// path inside an archive nor a file.
pub fn tree_of(archives: &Archives, path: &Path) -> Result<PathTree, FileError> {
    let plain = |fs| PathTree {
        fs,
        prefix: String::new(),
        file: None,
    };
    if path.is_dir() {
        let fs = archives
            .mount_game_dir(path)
            .map_err(|e| FileError(e.to_string()))?;
        return Ok(plain(Arc::new(fs)));
    }
    if is_archive(path) {
        return archives.open(path).map(plain);
    }
    if let Some((archive, inner)) = split_archive_path(path) {
        let fs = archives.open(&archive)?;
        let inner = inner.trim_matches('/').to_string();
        return Ok(if fs.contains(&inner) {
            let prefix = inner.rsplit_once('/').map(|(d, _)| d.to_string());
            PathTree {
                fs,
                prefix: prefix.unwrap_or_default(),
                file: Some(inner),
            }
        } else {
            PathTree {
                fs,
                prefix: inner,
                file: None,
            }
        });
    }
    if path.is_file() {
        let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
        let fs = archives
            .mount_game_dir(dir.unwrap_or(Path::new(".")))
            .map_err(|e| FileError(e.to_string()))?;
        return Ok(PathTree {
            fs: Arc::new(fs),
            prefix: String::new(),
            file: path.file_name().map(|n| n.to_string_lossy().into_owned()),
        });
    }
    Err(FileError(format!(
        "{}: no such file or folder",
        path.display()
    )))
}

/// A Quake 3 player folder named by a path: a folder on disk or `ARCHIVE:FOLDER`, each part's
/// side files found by a [`vfs::PathResolver`] with the forced palette and game tree given.
pub struct PlayerDir<'a> {
    archives: &'a Archives,
    dir: PathBuf,
    palette: Option<&'a [u8]>,
    game: Option<Arc<GameFs>>,
}

impl<'a> PlayerDir<'a> {
    /// The player folder at `dir`.
    pub fn new(
        archives: &'a Archives,
        dir: &Path,
        palette: Option<&'a [u8]>,
        game: Option<Arc<GameFs>>,
    ) -> Self {
        PlayerDir {
            archives,
            dir: dir.to_path_buf(),
            palette,
            game,
        }
    }
}

impl PlayerFolder for PlayerDir<'_> {
    fn has(&self, name: &str) -> bool {
        let path = self.dir.join(name);
        if path.is_file() {
            return true;
        }
        split_archive_path(&path).is_some_and(|(archive, inner)| {
            self.archives
                .open(&archive)
                .is_ok_and(|fs| fs.contains(&inner))
        })
    }

    fn read(&self, name: &str) -> Result<Vec<u8>, String> {
        self.archives.read(&self.dir.join(name)).map_err(|e| e.0)
    }

    fn resolver(&self, name: &str) -> Box<dyn Resolver + '_> {
        Box::new(vfs::PathResolver::new(
            self.archives,
            &self.dir.join(name),
            self.palette,
            self.game.clone(),
        ))
    }

    fn show(&self, name: &str) -> String {
        if name.is_empty() {
            self.dir.display().to_string()
        } else {
            self.dir.join(name).display().to_string()
        }
    }
}

/// The first extension of each registered writer that `pick` accepts, each once.
fn writer_extensions(pick: impl Fn(&crate::codec::Writer) -> bool) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for w in registry::writers().filter(|w| pick(w)) {
        if let Some(e) = w.format.extensions().first() {
            if !out.contains(e) {
                out.push(e);
            }
        }
    }
    out
}

/// The output formats of a tree conversion (`convert DIR OUT --to EXT`, the Python
/// package's `convert_tree`): the interchange formats (glTF, OBJ), then the keyframe formats
/// written from any Model.
pub fn batch_formats() -> Vec<&'static str> {
    let mut out = writer_extensions(|w| registry::is_interchange(w.format));
    out.extend(writer_extensions(|w| w.keyframes));
    out
}

/// The inputs of a tree conversion of `path` to `to`: its model files ([`collect`]);
/// keyframe outputs also take the tree's glTF and OBJ files (imported), the others leave
/// them.
pub fn batch_inputs(archives: &Archives, path: &Path, to: &str) -> Vec<Input> {
    let mut inputs = collect(archives, std::slice::from_ref(&path.to_path_buf()), &[]);
    if !writer_extensions(|w| w.keyframes).contains(&to) {
        let interchange = writer_extensions(|w| registry::is_interchange(w.format));
        inputs.retain(|p| {
            let ext = p
                .path
                .extension()
                .and_then(|e| e.to_str())
                .unwrap_or_default()
                .to_ascii_lowercase();
            !interchange.contains(&ext.as_str())
        });
    }
    inputs
}

/// Where each input of a tree conversion goes under `out_root`: its path below the folder or
/// archive it was found under with the extension `to`, or, where two inputs would meet
/// (`bob.md5mesh` and `bob.md5anim`), the whole file name plus `.to` (`bob.md5anim.glb`).
pub fn output_paths(out_root: &Path, inputs: &[Input], to: &str) -> Vec<PathBuf> {
    let plain: Vec<PathBuf> = inputs
        .iter()
        .map(|input| out_root.join(&input.relative).with_extension(to))
        .collect();
    let mut count = HashMap::new();
    for p in &plain {
        *count.entry(p.clone()).or_insert(0) += 1;
    }
    plain
        .into_iter()
        .zip(inputs)
        .map(|(p, input)| {
            if count[&p] > 1 {
                let name = input.path.file_name().unwrap_or_default().to_string_lossy();
                p.with_file_name(format!("{name}.{to}"))
            } else {
                p
            }
        })
        .collect()
}

/// Checks that a skeletal model took every animation file asked for (`convert --anim`,
/// `load(anims=...)`): the error names the first that it did not take (it does not parse, is
/// not an animation, or its joints do not fit the mesh), with the reader's own warning when
/// there is one. Keyframe models take no animations, so for them nothing is checked.
pub fn check_listed(
    anims: &[PathBuf],
    model: &crate::model::Model,
    warnings: &[String],
) -> Result<(), String> {
    if model.joints.is_empty() {
        return Ok(());
    }
    for path in anims {
        let stem = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        // An md5anim's animation is named after its file; an IQM animation file's after its
        // file, or `FILE:ANIMATION` for each of several.
        let prefix = format!("{stem}:");
        if model
            .animations
            .iter()
            .any(|a| a.name == stem || a.name.starts_with(&prefix))
        {
            continue;
        }
        let shown = path.to_string_lossy();
        if let Some(w) = warnings.iter().find(|w| w.starts_with(&*shown)) {
            return Err(w.clone());
        }
        return Err(format!(
            "{shown}: not an animation whose joints fit the model; left out"
        ));
    }
    Ok(())
}
