//! File-system helpers: input discovery, side-file resolution, safe writes, the run tally.

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retromodel::image::Palette;
use retromodel::Resolver;

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
        } else {
            out.push(p.clone());
        }
    }
    out
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

/// Reads a file, naming it in the error.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
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

/// Finds side files for a model on disk.
///
/// - `gfx/palette.lmp`: the `--palette` file if given, else looked up in the model's folder and
///   up to four parents (Quake's `progs/x.mdl` beside `gfx/palette.lmp`).
/// - Any other game path (an MD2 skin `models/tank/skin.pcx`): under `--game-dir`, then under
///   the model's folder and up to four parents, then by its file name beside the model (a
///   leading `.` dropped, for UFO:AI's `.body`). Names are always taken as relative.
///
/// Side files a format asks for by extension ([`Resolver::list`]: the `.md5anim` files beside
/// an `.md5mesh`) are the files with that extension in the model's folder, or exactly the
/// files given with [`FsResolver::with_listed`].
pub struct FsResolver {
    dir: PathBuf,
    palette: Option<Vec<u8>>,
    game_dir: Option<PathBuf>,
    listed: Option<Vec<PathBuf>>,
}

impl FsResolver {
    /// A resolver for the model at `model_path`, with an optional forced palette file and
    /// game folder.
    pub fn new(model_path: &Path, palette: Option<&[u8]>, game_dir: Option<&Path>) -> Self {
        FsResolver {
            dir: model_path.parent().unwrap_or(Path::new(".")).to_path_buf(),
            palette: palette.map(<[u8]>::to_vec),
            game_dir: game_dir.map(Path::to_path_buf),
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
            out.extend(self.game_dir.iter().map(|d| d.join(rel)));
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
            return fs::read(p).ok();
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
