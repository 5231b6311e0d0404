//! File-system helpers: input discovery, side-file resolution, safe writes, the run tally.

use std::collections::HashMap;
use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use anyhow::{anyhow, Context, Result};
use retromodel::image::Palette;
use retromodel::vfs::{self, GameFs, GameFsResolver};
use retromodel::{Limits, Resolver};

/// Whether look-ups inside archives and game folders ignore ASCII case (`--ignore-case`).
static IGNORE_CASE: AtomicBool = AtomicBool::new(false);

/// Makes look-ups inside archives and game folders ignore case (before any is opened).
pub fn set_ignore_case(yes: bool) {
    IGNORE_CASE.store(yes, Ordering::Relaxed);
}

/// A new, empty tree with the run's case rule.
pub fn new_game_fs() -> GameFs {
    GameFs::new(&Limits::default()).case_insensitive(IGNORE_CASE.load(Ordering::Relaxed))
}

/// Archives opened so far in this run, by path: each is read once whatever the number of
/// models taken from it.
fn archive_cache() -> &'static Mutex<HashMap<PathBuf, Arc<GameFs>>> {
    static CACHE: OnceLock<Mutex<HashMap<PathBuf, Arc<GameFs>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

/// The archive at `path` as a tree of its own (opened once per run).
pub fn open_archive(path: &Path) -> Result<Arc<GameFs>> {
    let mut cache = archive_cache().lock().unwrap_or_else(|e| e.into_inner());
    if let Some(fs) = cache.get(path) {
        return Ok(fs.clone());
    }
    let archive =
        vfs::open_file(path, &Limits::default()).with_context(|| path.display().to_string())?;
    let mut fs = new_game_fs();
    // Entries left out (names outside the archive's tree) are shown by `ls`, not here.
    fs.add_archive(&path.display().to_string(), archive);
    let fs = Arc::new(fs);
    cache.insert(path.to_path_buf(), fs.clone());
    Ok(fs)
}

/// `ARCHIVE:PATH` (a path inside an archive, such as `pak0.pak:progs/player.mdl`) split into
/// the archive file and the path inside it (empty for `ARCHIVE:`). `None` when `path` is a
/// file or folder on disk, or no prefix of it ending before a `:` is a file.
pub fn split_archive_path(path: &Path) -> Option<(PathBuf, String)> {
    if path.exists() {
        return None;
    }
    let s = path.to_str()?;
    s.match_indices(':').find_map(|(i, _)| {
        let archive = Path::new(&s[..i]);
        archive
            .is_file()
            .then(|| (archive.to_path_buf(), s[i + 1..].to_string()))
    })
}

/// Whether `path` is an archive file on disk (by its extension or its first bytes).
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
        && retromodel::detect(&magic).is_none()
}

/// Whether `path` names many models: a folder, an archive, or a folder inside an archive.
pub fn is_tree(path: &Path) -> bool {
    if path.is_dir() || is_archive(path) {
        return true;
    }
    match split_archive_path(path) {
        Some((archive, inner)) => open_archive(&archive).is_ok_and(|fs| !fs.contains(&inner)),
        None => false,
    }
}

/// `input`'s path below `root` (a folder, an archive or `ARCHIVE:FOLDER`), for mirroring a
/// tree: `models/a.md3` for `pak.pk3:models/a.md3` under `pak.pk3`.
pub fn relative(root: &Path, input: &Path) -> PathBuf {
    if let Some((_, inner)) = split_archive_path(input) {
        let prefix = split_archive_path(root)
            .map(|(_, p)| p.trim_matches('/').to_string())
            .unwrap_or_default();
        let rel = if prefix.is_empty() {
            inner.as_str()
        } else {
            inner
                .strip_prefix(&prefix)
                .map(|r| r.trim_start_matches('/'))
                .unwrap_or(&inner)
        };
        return PathBuf::from(rel);
    }
    input.strip_prefix(root).unwrap_or(input).to_path_buf()
}

/// The files named by `paths`: files as given, directories walked recursively in sorted order
/// for the extensions of every registered format (case-insensitive). Explicit file arguments
/// are always taken, whatever their name: formats are detected by magic.
/// A path that does not exist is returned as is, so its error is reported with the others.
pub fn collect_inputs(paths: &[PathBuf]) -> Vec<PathBuf> {
    collect_inputs_with(paths, &[])
}

/// [`collect_inputs`], directory walks also taking the files with one of `extra` extensions
/// (lower case), such as the glTF and OBJ files a batch imports.
pub fn collect_inputs_with(paths: &[PathBuf], extra: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            walk(p, extra, &mut out);
        } else if is_archive(p) {
            walk_archive(p, "", extra, &mut out);
        } else if let Some((archive, inner)) = split_archive_path(p) {
            match open_archive(&archive) {
                Ok(fs) if !fs.contains(&inner) => {
                    let before = out.len();
                    walk_archive(&archive, &inner, extra, &mut out);
                    if out.len() == before {
                        out.push(p.clone());
                    }
                }
                _ => out.push(p.clone()),
            }
        } else {
            out.push(p.clone());
        }
    }
    out
}

/// The model files of an archive under folder `prefix` (`""` for all), as `ARCHIVE:PATH`.
/// An archive that cannot be opened is returned as is, so its error is reported.
fn walk_archive(archive: &Path, prefix: &str, extra: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(fs) = open_archive(archive) else {
        out.push(archive.to_path_buf());
        return;
    };
    let known = retromodel::registry::extensions();
    let prefix = prefix.trim_matches('/');
    for f in fs.files() {
        let under = prefix.is_empty()
            || f.path
                .strip_prefix(prefix)
                .is_some_and(|r| r.starts_with('/'));
        let ext = f
            .path
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        if under && (known.contains(&ext.as_str()) || extra.contains(&ext.as_str())) {
            out.push(PathBuf::from(format!("{}:{}", archive.display(), f.path)));
        }
    }
}

fn walk(dir: &Path, extra: &[&str], out: &mut Vec<PathBuf>) {
    let known = retromodel::registry::extensions();
    walk_with(dir, &known, extra, out);
}

fn walk_with(dir: &Path, known: &[&str], extra: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else {
        out.push(dir.to_path_buf());
        return;
    };
    let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk_with(&p, known, extra, out);
        } else if p.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            let e = e.to_ascii_lowercase();
            known.contains(&e.as_str()) || extra.contains(&e.as_str())
        }) {
            out.push(p);
        }
    }
}

/// Reads a file, naming it in the error: a file on disk, or `ARCHIVE:PATH`.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    if !path.exists() {
        if let Some((archive, inner)) = split_archive_path(path) {
            let fs = open_archive(&archive)?;
            return match fs.read(&inner) {
                Some(r) => r.with_context(|| path.display().to_string()),
                None => Err(anyhow!(
                    "{}: no {inner:?} in the archive",
                    archive.display()
                )),
            };
        }
    }
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// The size of a file on disk or in an archive (0 when unknown).
pub fn size(path: &Path) -> u64 {
    if let Ok(m) = fs::metadata(path) {
        return m.len();
    }
    split_archive_path(path)
        .and_then(|(archive, inner)| open_archive(&archive).ok()?.size_of(&inner))
        .unwrap_or(0)
}

/// Writes `bytes` to `path` through a temporary file in the same folder moved into place,
/// so a crash never leaves a half-written file. Refuses to replace an existing file (an
/// input included) unless `force`: without it the file is published with a hard link, which
/// fails if the name was taken meanwhile. A replaced file keeps its permissions.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    let exists = || anyhow::anyhow!("{} exists; pass --force to replace it", path.display());
    if path.exists() && !force {
        return Err(exists());
    }
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file path", path.display()))?;
    let (tmp, mut file) = create_temp(dir, &name.to_string_lossy())
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    let published = (|| -> std::io::Result<bool> {
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        if force {
            if let Ok(meta) = fs::metadata(path) {
                fs::set_permissions(&tmp, meta.permissions())?;
            }
            fs::rename(&tmp, path)?;
            return Ok(true);
        }
        match fs::hard_link(&tmp, path) {
            Ok(()) => {
                fs::remove_file(&tmp)?;
                Ok(true)
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
            // A file system without hard links: check, then rename.
            Err(_) if !path.exists() => fs::rename(&tmp, path).map(|()| true),
            Err(_) => Ok(false),
        }
    })();
    let _ = fs::remove_file(&tmp);
    match published {
        Ok(true) => Ok(()),
        Ok(false) => Err(exists()),
        Err(e) => Err(e).with_context(|| format!("cannot write {}", path.display())),
    }
}

/// Creates a new temporary file beside the target, never reusing or following an existing
/// name.
fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, fs::File)> {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let mut last = None;
    for attempt in 0..16u32 {
        let tmp = dir.join(format!(
            ".{name}.{}-{nanos:x}-{attempt}.tmp",
            std::process::id()
        ));
        match fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
        {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free temporary name")))
}

/// Finds side files for a model on disk or inside an archive.
///
/// - `gfx/palette.lmp`: the `--palette` file if given, else looked up like any other name.
/// - For a model inside an archive (`pak0.pak:progs/x.mdl`): in the archive first, from its
///   root, then from the model's folder and up to four parents, then by file name in the
///   model's folder ([`GameFsResolver`]).
/// - Then under the `--game-dir` folders (their archives included), from their root.
/// - For a model on disk: under the model's folder and up to four parents (Quake's
///   `progs/x.mdl` beside `gfx/palette.lmp`), then by its file name beside the model (a
///   leading `.` dropped, for UFO:AI's `.body`). Names are always taken as relative.
///
/// Side files a format asks for by extension ([`Resolver::list`]: the `.md5anim` files beside
/// an `.md5mesh`) are the files with that extension in the model's folder, or exactly the
/// files given with [`FsResolver::with_listed`].
pub struct FsResolver {
    dir: PathBuf,
    model: Option<String>,
    palette: Option<Vec<u8>>,
    game: Option<Arc<GameFs>>,
    inside: Option<(Arc<GameFs>, String)>,
    listed: Option<Vec<PathBuf>>,
}

impl FsResolver {
    /// A resolver for the model at `model_path` (on disk or `ARCHIVE:PATH`), with an
    /// optional forced palette file and game tree.
    pub fn new(model_path: &Path, palette: Option<&[u8]>, game: Option<Arc<GameFs>>) -> Self {
        let inside = split_archive_path(model_path)
            .and_then(|(archive, inner)| Some((open_archive(&archive).ok()?, inner)));
        FsResolver {
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

    /// The places a game path is looked for, in order. A path with a `..` component or a
    /// drive prefix is only looked for by its file name beside the model: a model must not
    /// reach files outside the folders it is given.
    fn candidates(&self, name: &str) -> Vec<PathBuf> {
        let rel = name.replace('\\', "/");
        let rel = rel.trim_start_matches('/');
        let confined = !rel.split('/').any(|c| c == ".." || c.contains(':'));
        let mut out: Vec<PathBuf> = Vec::new();
        if confined {
            out.extend(self.dir.ancestors().take(5).map(|d| d.join(rel)));
        }
        if let Some(file) = rel.rsplit('/').next() {
            let file = file.trim_start_matches('.');
            if !file.is_empty() {
                out.push(self.dir.join(file));
            }
        }
        out
    }
}

impl Resolver for FsResolver {
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
            return read(p).ok();
        }
        if let Some((fs, inner)) = &self.inside {
            if let Some(b) = GameFsResolver::new(fs, inner).load(name) {
                return Some(b);
            }
        }
        if let Some(game) = &self.game {
            if let Some(b) = vfs::clean_path(name).and_then(|p| game.read(&p)?.ok()) {
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
        let dir = if self.dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            &self.dir
        };
        let mut out: Vec<String> = fs::read_dir(dir)
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && has_ext(p))
            .filter_map(|p| Some(p.file_name()?.to_string_lossy().into_owned()))
            .collect();
        out.sort();
        out
    }

    /// The archive's folder (for a model inside one), the `--game-dir` trees' folder, and
    /// the folder `dir` under the model's folder and up to four parents on disk.
    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((fs, inner)) = &self.inside {
            out.extend(GameFsResolver::new(fs, inner).list_in(dir, extension));
        }
        if let Some(game) = &self.game {
            out.extend(game.list_dir(dir, extension));
        }
        if self.inside.is_none() {
            let base = if self.dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                &self.dir
            };
            for folder in base.ancestors().take(5).map(|a| a.join(dir)) {
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
            let file = Path::new(name).file_name()?.to_string_lossy().into_owned();
            (Path::new(&file).file_stem()? == stem).then_some(file)
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

/// Loads and checks a `--palette` file.
pub fn load_palette(path: Option<&Path>) -> Result<Option<Vec<u8>>> {
    let Some(path) = path else { return Ok(None) };
    let bytes = read(path)?;
    Palette::from_lmp(&bytes).with_context(|| format!("{}", path.display()))?;
    Ok(Some(bytes))
}

/// Counts successes and failures over a run and shows progress on a terminal.
pub struct Tally {
    total: usize,
    done: usize,
    /// Files that failed.
    pub failed: usize,
    progress: bool,
}

impl Tally {
    /// A tally for `total` files; progress is drawn on stderr when it is a terminal and there
    /// is more than one file.
    pub fn new(total: usize) -> Self {
        Tally {
            total,
            done: 0,
            failed: 0,
            progress: total > 1 && std::io::stderr().is_terminal(),
        }
    }

    /// Records one file's outcome, printing its error.
    pub fn record(&mut self, path: &Path, result: Result<()>) {
        self.done += 1;
        if let Err(e) = result {
            self.failed += 1;
            self.clear_progress();
            eprintln!("{}: {e:#}", path.display());
        }
        if self.progress {
            eprint!("\r[{}/{}] {}\x1b[K", self.done, self.total, path.display());
        }
    }

    fn clear_progress(&self) {
        if self.progress {
            eprint!("\r\x1b[K");
        }
    }

    /// Prints the summary line (when more than one file) and gives the exit code.
    pub fn finish(self) -> std::process::ExitCode {
        self.clear_progress();
        if self.total == 0 {
            eprintln!("no model files found");
            return std::process::ExitCode::FAILURE;
        }
        if self.total != 1 {
            eprintln!(
                "{} files, {} ok, {} failed",
                self.total,
                self.total - self.failed,
                self.failed
            );
        }
        if self.failed > 0 {
            std::process::ExitCode::FAILURE
        } else {
            std::process::ExitCode::SUCCESS
        }
    }
}
