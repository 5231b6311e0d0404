//! File-system helpers: the run's archives, reading a named file, safe writes, the run tally.
//! What a path names is the library's ([`retromodel::inputs`]).

use std::fs;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use anyhow::{Context, Result};
use retromodel::image::Palette;
use retromodel::inputs::{self, Input};
use retromodel::vfs::{Archives, GameFs};
use retromodel::{Limits, Resolver};

/// Whether look-ups inside archives and game folders ignore ASCII case (`--ignore-case`).
static IGNORE_CASE: AtomicBool = AtomicBool::new(false);

/// Makes look-ups inside archives and game folders ignore case (before any is opened).
pub fn set_ignore_case(yes: bool) {
    IGNORE_CASE.store(yes, Ordering::Relaxed);
}

/// The archives opened in this run (each read once, whatever the number of models taken from
/// it), with the run's case rule.
pub fn archives() -> &'static Archives {
    static ARCHIVES: OnceLock<Archives> = OnceLock::new();
    ARCHIVES.get_or_init(|| Archives::new(&Limits::default(), IGNORE_CASE.load(Ordering::Relaxed)))
}

/// A new, empty tree with the run's case rule.
pub fn new_game_fs() -> GameFs {
    archives().new_tree()
}

/// The model files `paths` name ([`retromodel::inputs`]), directory and archive walks also
/// taking the files with one of `extra` extensions (lower case), such as the glTF and OBJ
/// files a batch imports.
pub fn collect_inputs_with(paths: &[PathBuf], extra: &[&str]) -> Vec<Input> {
    inputs::collect(archives(), paths, extra)
}

/// The model files `paths` name ([`retromodel::inputs`]).
pub fn collect_inputs(paths: &[PathBuf]) -> Vec<Input> {
    collect_inputs_with(paths, &[])
}

/// Whether `path` names many models: a folder, an archive, or a folder inside an archive.
pub fn is_tree(path: &Path) -> bool {
    inputs::is_tree(archives(), path)
}

/// Reads a file, naming it in the error: a file on disk, or `ARCHIVE:PATH`.
pub fn read(path: &Path) -> Result<Vec<u8>> {
    Ok(archives().read(path)?)
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

/// Side files for a model on disk or inside an archive ([`retromodel::vfs::PathResolver`]).
pub type FsResolver = retromodel::vfs::PathResolver<'static>;

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
