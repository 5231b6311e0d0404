//! File-system helpers: the run's archives, reading a named file, safe writes, the run tally.
//! What a path names is the library's ([`retromodel::inputs`]).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use anyhow::{Context, Result};
use retromodel::image::Palette;
use retromodel::inputs::{self, Input};
use retromodel::vfs::{Archives, GameFs};
use retromodel::Limits;

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

/// Writes `bytes` to `path` through a temporary file moved into place
/// ([`retromodel::vfs::write_atomic`]); refuses to replace an existing file unless `force`.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<()> {
    Ok(retromodel::vfs::write_atomic(path, bytes, force)?)
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
