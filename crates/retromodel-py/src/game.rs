//! `GameFs`: a game's files as its engine sees them: folders and archives (`.pak`, `.pk3`,
//! `.pk4`, `.zip`) stacked, a later layer over an earlier one (`vfs::GameFs`).

use std::path::PathBuf;
use std::sync::{Arc, RwLock};

use pyo3::exceptions::{PyKeyError, PyRuntimeError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use retromodel::vfs::{self, GameFsResolver};
use retromodel::Limits;

use crate::errors::Fail;
use crate::model::Model;

/// A game's file tree: `GameFs(["id1"])` mounts a game folder as the engine stacks it (its
/// `pak0.pak`, `pak1.pak`, ... and loose files over them); `mount`, `add_dir` and
/// `add_archive` put more layers on top.
#[pyclass(module = "retromodel", name = "GameFs", frozen, subclass)]
pub struct GameFs {
    fs: RwLock<Arc<vfs::GameFs>>,
}

impl GameFs {
    fn read_fs(&self) -> PyResult<Arc<vfs::GameFs>> {
        self.fs
            .read()
            .map(|f| f.clone())
            .map_err(|_| PyRuntimeError::new_err("the GameFs lock is poisoned"))
    }

    /// Changes the tree: a copy when a `load`ed model still holds the old one.
    fn change(&self, f: impl FnOnce(&mut vfs::GameFs) -> Result<(), Fail>) -> PyResult<()> {
        let mut guard = self
            .fs
            .write()
            .map_err(|_| PyRuntimeError::new_err("the GameFs lock is poisoned"))?;
        let fs = Arc::get_mut(&mut guard).ok_or_else(|| {
            PyRuntimeError::new_err("the tree is in use by another thread; try again")
        })?;
        Ok(f(fs)?)
    }
}

#[pymethods]
impl GameFs {
    /// A tree of `dirs` mounted as game folders, in order (the last one wins);
    /// `ignore_case`: look-ups ignore ASCII case (a Windows-made mod on Linux).
    #[new]
    #[pyo3(signature = (dirs=Vec::new(), *, ignore_case=false))]
    fn new(py: Python<'_>, dirs: Vec<PathBuf>, ignore_case: bool) -> PyResult<Self> {
        let fs = py.detach(|| -> Result<vfs::GameFs, Fail> {
            let mut fs = vfs::GameFs::new(&Limits::default()).case_insensitive(ignore_case);
            for d in &dirs {
                if !d.is_dir() {
                    return Err(Fail::Missing(format!("{}: no such folder", d.display())));
                }
                fs.mount_game_dir(d)?;
            }
            Ok(fs)
        })?;
        Ok(GameFs {
            fs: RwLock::new(Arc::new(fs)),
        })
    }

    /// Mounts a game folder on top: its archives in the engine's order, then its loose
    /// files.
    fn mount(&self, py: Python<'_>, dir: PathBuf) -> PyResult<()> {
        py.detach(|| {
            self.change(|fs| {
                if !dir.is_dir() {
                    return Err(Fail::Missing(format!("{}: no such folder", dir.display())));
                }
                Ok(fs.mount_game_dir(&dir)?)
            })
        })
    }

    /// Puts a folder's loose files on top.
    fn add_dir(&self, dir: PathBuf) -> PyResult<()> {
        self.change(|fs| {
            fs.add_dir(&dir);
            Ok(())
        })
    }

    /// Puts an archive (`.pak`, `.pk3`, `.pk4`, `.zip`) on top.
    fn add_archive(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        py.detach(|| {
            let archive = vfs::open_file(&path, &Limits::default())
                .map_err(|e| Fail::Format(e.in_context(path.display().to_string())))?;
            self.change(|fs| {
                fs.add_archive(&path.display().to_string(), archive);
                Ok(())
            })
        })
    }

    /// The game paths in the tree (each once, the copy that wins), sorted; under `prefix`
    /// (a folder such as `progs`) when given.
    #[pyo3(signature = (prefix=""))]
    fn files(&self, prefix: &str) -> PyResult<Vec<String>> {
        Ok(self
            .read_fs()?
            .files_under(prefix)
            .into_iter()
            .map(|f| f.path)
            .collect())
    }

    /// The bytes of the file at game path `path` (KeyError when the tree has none).
    fn read<'py>(&self, py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyBytes>> {
        let fs = self.read_fs()?;
        match py.detach(|| fs.read(path)) {
            Some(Ok(bytes)) => Ok(PyBytes::new(py, &bytes)),
            Some(Err(e)) => Err(Fail::Format(e).into()),
            None => Err(PyKeyError::new_err(format!("{path}: not in the game tree"))),
        }
    }

    fn __contains__(&self, path: &str) -> PyResult<bool> {
        Ok(self.read_fs()?.contains(path))
    }

    /// The layers, bottom first (folders and archives).
    #[getter]
    fn layers(&self) -> PyResult<Vec<String>> {
        Ok(self.read_fs()?.layer_names())
    }

    /// What mounting noticed (archives that could not be read, left out).
    #[getter]
    fn warnings(&self) -> PyResult<Vec<String>> {
        Ok(self.read_fs()?.warnings().to_vec())
    }

    /// Loads the model at game path `path`, its side files (skins, palettes, shader
    /// scripts, animations) found in the tree as the engine finds them.
    #[pyo3(signature = (path, *, skin_name=None, fps=None))]
    fn _load(
        &self,
        py: Python<'_>,
        path: String,
        skin_name: Option<String>,
        fps: Option<f32>,
    ) -> PyResult<(Model, Vec<String>)> {
        let fs = self.read_fs()?;
        Ok(py.detach(|| {
            let bytes = match fs.read(&path) {
                Some(r) => r?,
                None => return Err(Fail::Missing(format!("{path}: not in the game tree"))),
            };
            let resolver = GameFsResolver::new(&fs, &path);
            let options = retromodel::front::OpenOptions {
                skin_name,
                fps,
                ..Default::default()
            };
            let opened =
                retromodel::front::open_bytes(bytes, &path, &options.convert_options(), &resolver)?;
            Ok(crate::load::model_of(opened))
        })?)
    }
}
