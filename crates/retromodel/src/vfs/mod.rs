//! Game data as one tree of files: plain folders, Quake / Quake 2 PAK archives and ZIP
//! archives (`.pk3`, `.pk4`, `.zip`), searched in the engines' override order.
//!
//! Parsers still take bytes: this module finds the bytes. A [`GameFs`] is a stack of layers,
//! the last added searched first; [`GameFs::mount_game_dir`] stacks a game folder the way the
//! engines do:
//!
//! 1. the folder's PAK files: `pak0.pak`, `pak1.pak`, ... in numeric order (a higher number
//!    overrides a lower one, as in Quake and Quake 2), then any other `.pak` in name order;
//! 2. its `.pk3`, `.pk4` and `.zip` files in name order, a later one overriding an earlier one
//!    (Quake 3, Doom 3: `pak0.pk3` < `pak6-patch088.pk3` < `zz-mod.pk3`);
//! 3. the loose files of the folder itself, over every archive.
//!
//! Quake 1 searched its PAK files before the loose files of the same folder; Quake 2, Quake 3
//! and Doom 3 prefer loose files, as here. Mount several game folders (`baseq3`, then a mod)
//! in order for a mod's override.
//!
//! Paths inside the tree use `/`; a `\` in a name is read as `/` and a leading `./` or `/` is
//! dropped. [`GameFs::case_insensitive`] makes look-ups ignore ASCII case, for mods made on
//! Windows (`Models/Skin.PCX` for `models/skin.pcx`).

use std::collections::HashMap;
use std::fs;
use std::io::{BufReader, Read, Seek};
use std::path::{Path, PathBuf};

use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::resolve::Resolver;

pub mod archives;
pub mod pak;
pub mod resolver;
pub mod save;
#[cfg(feature = "archives")]
pub mod zip;

pub use archives::{archive_path, split_archive_path, Archives, FileError};
pub use resolver::{side_name, PathResolver};
pub use save::write_atomic;

/// A file inside an archive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its path inside the archive, `/`-separated, as cleaned by the reader.
    pub path: String,
    /// Its size in bytes (uncompressed).
    pub size: u64,
    /// Where the reader finds it: the byte offset of a PAK entry, the index of a ZIP entry.
    pub offset: u64,
}

/// An archive's listing as its reader builds it: names cleaned, the first of two same
/// names kept, the others and the names leaving the tree left out with a warning.
#[derive(Debug, Clone)]
pub struct Directory {
    format: &'static str,
    entries: Vec<Entry>,
    warnings: Vec<String>,
    seen: std::collections::HashSet<String>,
}

impl Directory {
    /// An empty listing of a `format` archive (`pak`, `zip`) with room for `capacity`
    /// entries.
    pub fn new(format: &'static str, capacity: usize) -> Self {
        Directory {
            format,
            entries: Vec::with_capacity(capacity),
            warnings: Vec::new(),
            seen: Default::default(),
        }
    }

    /// Adds entry `index`, stored as `name`: kept under its cleaned path ([`clean_path`])
    /// unless that leaves the tree or was seen before.
    pub fn push(&mut self, index: usize, name: &str, size: u64, offset: u64) {
        let format = self.format;
        let Some(path) = clean_path(name) else {
            self.warnings.push(format!(
                "{format}: entry {index}: {name:?} is not a path inside the archive; left out"
            ));
            return;
        };
        if !self.seen.insert(path.clone()) {
            self.warnings.push(format!(
                "{format}: entry {index}: a second {path:?}; the first one is used"
            ));
            return;
        }
        self.entries.push(Entry { path, size, offset });
    }
}

/// An open archive: its listing and its entries' bytes.
pub trait Archive: Send + Sync {
    /// The listing built when the archive was opened.
    fn directory(&self) -> &Directory;
    /// The bytes of `entry` (one of [`Archive::entries`]), whose size the caller checked.
    fn read_entry(&self, entry: &Entry) -> Result<Vec<u8>>;
    /// Short format name used in errors (`pak`, `zip`).
    fn format(&self) -> &'static str {
        self.directory().format
    }
    /// The bytes of entry `index` of [`Archive::entries`]; fails when its declared size is
    /// more than `limits` allow one allocation, before anything is read or inflated.
    fn read(&self, index: usize, limits: &Limits) -> Result<Vec<u8>> {
        let entry = &self.entries()[index];
        check_entry_size(self.format(), entry, limits)?;
        self.read_entry(entry)
    }
    /// The files, in the archive's order.
    fn entries(&self) -> &[Entry] {
        &self.directory().entries
    }
    /// Problems met while reading the directory that did not stop it (entries left out).
    fn warnings(&self) -> &[String] {
        &self.directory().warnings
    }
}

/// An archive shared between trees (the web viewer mounts each dropped archive again when
/// files are added, without reopening it).
impl<A: Archive + ?Sized> Archive for std::sync::Arc<A> {
    fn directory(&self) -> &Directory {
        (**self).directory()
    }

    fn read_entry(&self, entry: &Entry) -> Result<Vec<u8>> {
        (**self).read_entry(entry)
    }
}

/// Files held in memory, mounted like an archive (the files dropped on the web viewer).
pub struct MemoryArchive {
    directory: Directory,
    data: Vec<std::sync::Arc<[u8]>>,
}

impl MemoryArchive {
    /// An archive of `files`, each a path inside the tree and its bytes; paths are cleaned
    /// as an archive reader cleans them (a repeated path keeps its first file).
    pub fn new(files: impl IntoIterator<Item = (String, std::sync::Arc<[u8]>)>) -> Self {
        let mut directory = Directory::new("memory", 0);
        let mut data = Vec::new();
        for (i, (name, bytes)) in files.into_iter().enumerate() {
            directory.push(i, &name, bytes.len() as u64, data.len() as u64);
            data.push(bytes);
        }
        MemoryArchive { directory, data }
    }
}

impl Archive for MemoryArchive {
    fn directory(&self) -> &Directory {
        &self.directory
    }

    fn read_entry(&self, entry: &Entry) -> Result<Vec<u8>> {
        self.data
            .get(entry.offset as usize)
            .map(|d| d.to_vec())
            .ok_or_else(|| {
                Error::new(
                    "memory",
                    ErrorKind::InvalidValue,
                    format!("no file {:?}", entry.path),
                    Location::None,
                )
            })
    }
}

/// What an archive reader keeps open to read entries from: the seekable file of a PAK, the
/// `zip` crate's archive of a ZIP.
pub trait EntrySource: Send {
    /// The bytes of `entry`, whose size the caller checked.
    fn read_entry(&mut self, entry: &Entry) -> Result<Vec<u8>>;
}

/// An archive opened by one of this module's readers: its listing, and its entry source
/// behind a lock (so one open archive serves several threads).
pub struct Opened<S> {
    source: std::sync::Mutex<S>,
    directory: Directory,
}

impl<S> Opened<S> {
    /// An archive over `source` with the listing its reader built.
    pub fn new(source: S, directory: Directory) -> Self {
        Opened {
            source: std::sync::Mutex::new(source),
            directory,
        }
    }
}

impl<S: EntrySource> Archive for Opened<S> {
    fn directory(&self) -> &Directory {
        &self.directory
    }

    fn read_entry(&self, entry: &Entry) -> Result<Vec<u8>> {
        let mut source = self.source.lock().unwrap_or_else(|e| e.into_inner());
        source.read_entry(entry)
    }
}

/// The archive kinds this module reads, by their first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArchiveKind {
    /// Quake / Quake 2 `PACK`.
    Pak,
    /// ZIP (`PK\x03\x04`, or `PK\x05\x06` for an empty one).
    Zip,
}

/// The file extensions of archives, lower case, no dot.
pub const ARCHIVE_EXTENSIONS: &[&str] = &["pak", "pk3", "pk4", "zip"];

/// Which archive kind `data` (at least its first four bytes) starts like, if any.
pub fn detect(data: &[u8]) -> Option<ArchiveKind> {
    match data.get(..4)? {
        m if m == pak::MAGIC => Some(ArchiveKind::Pak),
        b"PK\x03\x04" | b"PK\x05\x06" => Some(ArchiveKind::Zip),
        _ => None,
    }
}

/// Opens an archive of either kind over `reader`, detected by its first bytes.
pub fn open<R: Read + Seek + Send + 'static>(
    mut reader: R,
    limits: &Limits,
) -> Result<Box<dyn Archive>> {
    let mut magic = [0u8; 4];
    let got = reader
        .read(&mut magic)
        .and_then(|n| reader.rewind().map(|()| n))
        .map_err(|e| {
            Error::new(
                "archive",
                ErrorKind::Truncated,
                format!("cannot read: {e}"),
                Location::Offset(0),
            )
        })?;
    match detect(&magic[..got]) {
        Some(ArchiveKind::Pak) => Ok(Box::new(pak::Pak::open(reader, limits)?)),
        #[cfg(feature = "archives")]
        Some(ArchiveKind::Zip) => Ok(Box::new(zip::Zip::open(reader, limits)?)),
        #[cfg(not(feature = "archives"))]
        Some(ArchiveKind::Zip) => Err(Error::new(
            "zip",
            ErrorKind::Unsupported,
            "ZIP archives need the `archives` feature",
            Location::None,
        )),
        None => Err(Error::new(
            "archive",
            ErrorKind::BadMagic,
            format!(
                "bad magic {} (expected \"PACK\" or \"PK\\x03\\x04\")",
                crate::io::magic::show_magic(&magic[..got])
            ),
            Location::Offset(0),
        )),
    }
}

/// Opens an archive held in memory.
pub fn open_bytes(bytes: Vec<u8>, limits: &Limits) -> Result<Box<dyn Archive>> {
    open(std::io::Cursor::new(bytes), limits)
}

/// Opens an archive file; its entries are read from the file on demand.
pub fn open_file(path: &Path, limits: &Limits) -> Result<Box<dyn Archive>> {
    let file = fs::File::open(path).map_err(|e| {
        Error::new(
            "archive",
            ErrorKind::InvalidValue,
            format!("cannot open {}: {e}", path.display()),
            Location::None,
        )
    })?;
    open(BufReader::new(file), limits)
}

/// Whether `path`'s extension is an archive's ([`ARCHIVE_EXTENSIONS`], any case).
pub fn is_archive_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ARCHIVE_EXTENSIONS.iter().any(|a| e.eq_ignore_ascii_case(a)))
}

/// A path as stored in an archive or named by a model, cleaned: `\` read as `/`, empty and
/// `.` components and a leading `/` dropped. `None` for a path that would leave the tree (a
/// `..` component, a drive letter) or is empty.
pub fn clean_path(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    for part in name.split(['/', '\\']) {
        match part {
            "" | "." => continue,
            ".." => return None,
            p if p.contains(':') => return None,
            p => {
                if !out.is_empty() {
                    out.push('/');
                }
                out.push_str(p);
            }
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Fails when an entry's declared size is more than `limits` allow one allocation.
fn check_entry_size(format: &'static str, entry: &Entry, limits: &Limits) -> Result<()> {
    if entry.size > limits.max_alloc_bytes {
        return Err(Error::new(
            format,
            ErrorKind::LimitExceeded,
            format!(
                "{} bytes uncompressed exceed the allocation limit of {} bytes",
                entry.size, limits.max_alloc_bytes
            ),
            Location::None,
        )
        .in_context(format!("{:?}", entry.path)));
    }
    Ok(())
}

/// The layers a game folder stacks under its own loose files, lowest priority first (see the
/// [module](self) documentation): its PAK files (`pakN.pak` in numeric order, then the other
/// `.pak` files by name), then its `.pk3`, `.pk4` and `.zip` files and unpacked archives
/// (folders named `NAME.pk3dir`, `NAME.pk3` or `NAME.pk4`) in name order. Fails only when
/// `root` cannot be listed.
pub fn game_dir_order(root: &Path) -> Result<Vec<PathBuf>> {
    let rd = fs::read_dir(root).map_err(|e| {
        Error::new(
            "game-dir",
            ErrorKind::InvalidValue,
            format!("cannot list {}: {e}", root.display()),
            Location::None,
        )
    })?;
    let mut paks: Vec<(u32, String, PathBuf)> = Vec::new();
    let mut zips: Vec<(String, PathBuf)> = Vec::new();
    for entry in rd.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        let lower = name.to_ascii_lowercase();
        // An unpacked archive (ioquake3's `NAME.pk3dir`, or a folder keeping the archive's
        // name) takes the archive's place in the order.
        let unpacked = path.is_dir()
            && [".pk3dir", ".pk3", ".pk4"]
                .iter()
                .any(|e| lower.ends_with(e));
        if unpacked {
            zips.push((name, path));
            continue;
        }
        if !path.is_file() || !is_archive_name(&path) {
            continue;
        }
        if let Some(stem) = lower.strip_suffix(".pak") {
            // pakN.pak in numeric order first, then the other PAK files by name.
            let number = stem
                .strip_prefix("pak")
                .and_then(|n| n.parse::<u32>().ok())
                .unwrap_or(u32::MAX);
            paks.push((number, name, path));
        } else {
            zips.push((name, path));
        }
    }
    paks.sort();
    zips.sort();
    Ok(paks
        .into_iter()
        .map(|(_, _, p)| p)
        .chain(zips.into_iter().map(|(_, p)| p))
        .collect())
}

/// One layer of a [`GameFs`].
enum Layer {
    /// A folder on disk.
    Dir(PathBuf),
    /// An archive, with its entries by (possibly lower-cased) path.
    Archive {
        name: String,
        archive: Box<dyn Archive>,
        index: HashMap<String, usize>,
    },
}

/// A file of a [`GameFs`] listing: the winning copy of each path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileInfo {
    /// Path inside the tree, `/`-separated, as the winning layer spells it.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// The layer it comes from: a folder's or an archive's name as mounted.
    pub source: String,
}

/// Game data as one tree over folders and archives; see the [module](self) documentation.
pub struct GameFs {
    layers: Vec<Layer>,
    case_insensitive: bool,
    limits: Limits,
    warnings: Vec<String>,
}

impl GameFs {
    /// An empty tree; archives' entries are read within `limits`.
    pub fn new(limits: &Limits) -> Self {
        GameFs {
            layers: Vec::new(),
            case_insensitive: false,
            limits: *limits,
            warnings: Vec::new(),
        }
    }

    /// Look-ups ignore ASCII case (call before mounting).
    pub fn case_insensitive(mut self, yes: bool) -> Self {
        self.case_insensitive = yes;
        self
    }

    fn key(&self, path: &str) -> String {
        if self.case_insensitive {
            path.to_ascii_lowercase()
        } else {
            path.to_string()
        }
    }

    /// Adds a folder on top of the layers mounted so far.
    pub fn add_dir(&mut self, dir: &Path) {
        self.layers.push(Layer::Dir(dir.to_path_buf()));
    }

    /// Adds an archive on top of the layers mounted so far; `name` names it in listings.
    pub fn add_archive(&mut self, name: &str, archive: Box<dyn Archive>) {
        let mut index = HashMap::with_capacity(archive.entries().len());
        for (i, e) in archive.entries().iter().enumerate() {
            index.entry(self.key(&e.path)).or_insert(i);
        }
        self.warnings
            .extend(archive.warnings().iter().map(|w| format!("{name}: {w}")));
        self.layers.push(Layer::Archive {
            name: name.to_string(),
            archive,
            index,
        });
    }

    /// Mounts a game folder: its archives in the engines' order, then the folder itself (see
    /// the [module](self) documentation). Unpacked archives, folders named `NAME.pk3dir` (as
    /// ioquake3 reads them), `NAME.pk3` or `NAME.pk4`, take an archive's place in the name
    /// order. An archive that cannot be opened is left out; its error is kept in
    /// [`GameFs::warnings`]. Fails only when `root` is not a folder.
    pub fn mount_game_dir(&mut self, root: &Path) -> Result<()> {
        let limits = self.limits;
        self.mount_game_dir_with(root, |p| {
            open_file(p, &limits).map_err(|e| format!("{}: {e}", p.display()))
        })
    }

    /// [`GameFs::mount_game_dir`], each archive opened by `open` (an error names the
    /// archive; it is kept in [`GameFs::warnings`] and the archive left out).
    pub fn mount_game_dir_with(
        &mut self,
        root: &Path,
        mut open: impl FnMut(&Path) -> std::result::Result<Box<dyn Archive>, String>,
    ) -> Result<()> {
        for path in game_dir_order(root)? {
            if path.is_dir() {
                self.add_dir(&path);
                continue;
            }
            match open(&path) {
                Ok(a) => self.add_archive(&path.display().to_string(), a),
                Err(e) => self.warnings.push(format!("{e}; left out")),
            }
        }
        self.add_dir(root);
        Ok(())
    }

    /// The files under folder `prefix` of the tree (`""` or `/` for all), as
    /// [`GameFs::files`] lists them.
    pub fn files_under(&self, prefix: &str) -> Vec<FileInfo> {
        let prefix = prefix.trim_matches('/');
        let mut files = self.files();
        if !prefix.is_empty() {
            let prefix = self.key(prefix);
            files.retain(|f| {
                self.key(&f.path)
                    .strip_prefix(&prefix)
                    .is_some_and(|r| r.starts_with('/'))
            });
        }
        files
    }

    /// Problems met while mounting (archives left out, entries left out).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The names of the layers, lowest priority first.
    pub fn layer_names(&self) -> Vec<String> {
        self.layers
            .iter()
            .map(|l| match l {
                Layer::Dir(d) => d.display().to_string(),
                Layer::Archive { name, .. } => name.clone(),
            })
            .collect()
    }

    /// A folder layer's file for `path`, found case-insensitively when asked.
    fn dir_file(&self, dir: &Path, path: &str) -> Option<PathBuf> {
        self.dir_path(dir, path).filter(|p| p.is_file())
    }

    /// A folder layer's path for `path` (a file or a folder), found case-insensitively when
    /// asked; `path` empty is the layer's folder itself.
    fn dir_path(&self, dir: &Path, path: &str) -> Option<PathBuf> {
        let exact = dir.join(path);
        if exact.exists() {
            return Some(exact);
        }
        if !self.case_insensitive {
            return None;
        }
        let mut at = dir.to_path_buf();
        for part in path.split('/') {
            let found = fs::read_dir(&at)
                .ok()?
                .flatten()
                .find(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(part))?;
            at = found.path();
        }
        Some(at)
    }

    /// The layer the file at `path` comes from (an index into [`GameFs::layer_names`]: higher
    /// wins), or `None` when no layer has it.
    pub fn layer_of(&self, path: &str) -> Option<usize> {
        let path = clean_path(path)?;
        let key = self.key(&path);
        self.layers.iter().enumerate().rev().find_map(|(i, layer)| {
            let has = match layer {
                Layer::Dir(d) => self.dir_file(d, &path).is_some(),
                Layer::Archive { index, .. } => index.contains_key(&key),
            };
            has.then_some(i)
        })
    }

    /// Whether the tree has a file at `path`.
    pub fn contains(&self, path: &str) -> bool {
        self.find(path).is_some()
    }

    fn find(&self, path: &str) -> Option<Found<'_>> {
        let path = clean_path(path)?;
        let key = self.key(&path);
        self.layers.iter().rev().find_map(|layer| match layer {
            Layer::Dir(d) => self.dir_file(d, &path).map(Found::File),
            Layer::Archive { archive, index, .. } => {
                index.get(&key).map(|&i| Found::Entry(archive.as_ref(), i))
            }
        })
    }

    /// The bytes of the file at `path` from the highest layer that has it; `None` when no
    /// layer has it (or the path leaves the tree), an error when the layer cannot give it.
    pub fn read(&self, path: &str) -> Option<Result<Vec<u8>>> {
        Some(match self.find(path)? {
            Found::File(p) => fs::read(&p).map_err(|e| {
                Error::new(
                    "game-dir",
                    ErrorKind::InvalidValue,
                    format!("cannot read {}: {e}", p.display()),
                    Location::None,
                )
            }),
            Found::Entry(archive, i) => archive.read(i, &self.limits),
        })
    }

    /// Every file of the tree once (the copy that wins), sorted by path.
    pub fn files(&self) -> Vec<FileInfo> {
        let mut out: HashMap<String, FileInfo> = HashMap::new();
        for layer in &self.layers {
            match layer {
                Layer::Dir(d) => {
                    let mut found = Vec::new();
                    walk_dir(d, "", &mut found);
                    for (path, size) in found {
                        let info = FileInfo {
                            path: path.clone(),
                            size,
                            source: d.display().to_string(),
                        };
                        out.insert(self.key(&path), info);
                    }
                }
                Layer::Archive { name, archive, .. } => {
                    for e in archive.entries() {
                        let info = FileInfo {
                            path: e.path.clone(),
                            size: e.size,
                            source: name.clone(),
                        };
                        out.insert(self.key(&e.path), info);
                    }
                }
            }
        }
        let mut files: Vec<FileInfo> = out.into_values().collect();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }

    /// The files directly in folder `dir` of the tree (`""` for the root) whose extension is
    /// `extension` (any case), as full paths, sorted.
    pub fn list_dir(&self, dir: &str, extension: &str) -> Vec<String> {
        let dir = clean_path(dir).unwrap_or_default();
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{}/", self.key(&dir))
        };
        let wanted = |name: &str| {
            name.rsplit_once('.')
                .is_some_and(|(_, e)| e.eq_ignore_ascii_case(extension))
        };
        // Only that folder of each layer is read; a later layer's copy wins, spelled its way.
        let mut found: HashMap<String, String> = HashMap::new();
        for layer in &self.layers {
            match layer {
                Layer::Dir(d) => {
                    let Some(folder) = self.dir_path(d, &dir) else {
                        continue;
                    };
                    for e in fs::read_dir(folder).into_iter().flatten().flatten() {
                        let name = e.file_name().to_string_lossy().into_owned();
                        if wanted(&name) && e.file_type().is_ok_and(|t| t.is_file()) {
                            let path = if dir.is_empty() {
                                name
                            } else {
                                format!("{dir}/{name}")
                            };
                            found.insert(self.key(&path), path);
                        }
                    }
                }
                Layer::Archive { archive, .. } => {
                    for e in archive.entries() {
                        let key = self.key(&e.path);
                        if key
                            .strip_prefix(&prefix)
                            .is_some_and(|rest| !rest.contains('/'))
                            && wanted(&e.path)
                        {
                            found.insert(key, e.path.clone());
                        }
                    }
                }
            }
        }
        let mut out: Vec<String> = found.into_values().collect();
        out.sort();
        out
    }

    /// The size of the file at `path` in the highest layer that has it.
    pub fn size_of(&self, path: &str) -> Option<u64> {
        match self.find(path)? {
            Found::File(p) => fs::metadata(p).ok().map(|m| m.len()),
            Found::Entry(archive, i) => Some(archive.entries()[i].size),
        }
    }
}

enum Found<'a> {
    File(PathBuf),
    Entry(&'a dyn Archive, usize),
}

fn walk_dir(dir: &Path, prefix: &str, out: &mut Vec<(String, u64)>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = if prefix.is_empty() {
            name
        } else {
            format!("{prefix}/{name}")
        };
        match e.file_type() {
            Ok(t) if t.is_dir() => walk_dir(&e.path(), &path, out),
            Ok(t) if t.is_file() => out.push((path, e.metadata().map(|m| m.len()).unwrap_or(0))),
            _ => {}
        }
    }
}

/// Side files for a model inside a [`GameFs`], found as the engines find them: a game path
/// (`models/monsters/tank/skin.pcx`) from the root of the tree, then from the model's folder
/// and up to four of its parents, then by its file name in the model's folder (a leading `.`
/// dropped, for UFO:AI's `.body`). A bare file name (no folder) is looked for in the model's
/// folder first, then its parents, then the root: a loose `body.jpg` at the top of the tree does not stand in for the
/// `models/x/body.jpg` beside the model. [`Resolver::list`] lists the model's folder.
pub struct GameFsResolver<'a> {
    fs: &'a GameFs,
    dir: String,
    model: String,
}

impl<'a> GameFsResolver<'a> {
    /// A resolver for the model at `model_path` inside `fs`.
    pub fn new(fs: &'a GameFs, model_path: &str) -> Self {
        let clean = clean_path(model_path).unwrap_or_default();
        let dir = clean
            .rsplit_once('/')
            .map(|(d, _)| d.to_string())
            .unwrap_or_default();
        let model = clean.rsplit('/').next().unwrap_or_default().to_string();
        GameFsResolver { fs, dir, model }
    }

    /// The tree path of `name` under the model's folder (`models/x/md5/tris.md5mesh` for
    /// `md5/tris.md5mesh` beside `models/x/tris.md2`): [`Resolver::load_path`]'s one place.
    pub fn exact(&self, name: &str) -> Option<String> {
        let rel = side_name(name).0?;
        Some(if self.dir.is_empty() {
            rel
        } else {
            format!("{}/{rel}", self.dir)
        })
    }

    /// The paths a side-file name is looked for at, in order (the name read by
    /// [`side_name`]): the game path from the root, then under the model's folder and up to
    /// four parents, then the file name in the model's folder.
    pub fn candidates(&self, name: &str) -> Vec<String> {
        let (rel, file) = side_name(name);
        let mut out = Vec::new();
        if let Some(rel) = rel {
            out.push(rel.clone());
            let mut dir = self.dir.as_str();
            for _ in 0..5 {
                if dir.is_empty() {
                    break;
                }
                out.push(format!("{dir}/{rel}"));
                dir = dir.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
            }
        }
        if let Some(file) = file {
            let beside = if self.dir.is_empty() {
                file
            } else {
                format!("{}/{file}", self.dir)
            };
            // a bare name: beside the model, then its parents, then the root of the tree
            // (a model at the root: all three are the same path)
            let bare = out.first().is_some_and(|r| !r.contains('/'));
            if bare {
                let root = out.remove(0);
                out.retain(|p| *p != beside);
                out.insert(0, beside);
                out.push(root);
            } else {
                out.push(beside);
            }
        }
        out.dedup();
        out
    }
}

impl Resolver for GameFsResolver<'_> {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.candidates(name)
            .iter()
            .find_map(|p| self.fs.read(p)?.ok())
    }

    /// The file at `name` under the model's folder only (`DIR/md5/tris.md5mesh`).
    fn load_path(&self, name: &str) -> Option<Vec<u8>> {
        self.fs.read(&self.exact(name)?)?.ok()
    }

    fn search_layer(&self, name: &str) -> Option<usize> {
        self.fs.layer_of(&self.exact(name)?)
    }

    fn list(&self, extension: &str) -> Vec<String> {
        self.fs.list_dir(&self.dir, extension)
    }

    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        self.fs.list_dir(dir, extension)
    }

    fn model_name(&self) -> Option<String> {
        (!self.model.is_empty()).then(|| self.model.clone())
    }
}

/// Generated archives for tests, fuzzing seeds and sweeps: a PAK, a stored and a deflated
/// ZIP with the same files (nested folders, an empty file, a name with a `\`), and an empty
/// ZIP, each with a name.
pub fn fixtures() -> Vec<(&'static str, Vec<u8>)> {
    let big: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 251) as u8).collect();
    let files: [(&str, &[u8]); 4] = [
        ("progs/player.mdl", b"IDPO not really a model"),
        ("models/monsters/tank/skin.pcx", &big),
        ("empty.txt", b""),
        ("maps\\e1m1.bsp", b"BSP"),
    ];
    #[cfg_attr(not(feature = "archives"), allow(unused_mut))]
    let mut out = vec![("files.pak", pak::write(&files).expect("small archive"))];
    #[cfg(feature = "archives")]
    {
        let list = |deflate| {
            files
                .iter()
                .map(|(p, b)| (*p, *b, deflate))
                .collect::<Vec<_>>()
        };
        out.push(("stored.zip", zip::write(&list(false)).expect("in memory")));
        out.push(("deflated.pk3", zip::write(&list(true)).expect("in memory")));
        out.push(("empty.zip", zip::write(&[]).expect("in memory")));
    }
    out
}
