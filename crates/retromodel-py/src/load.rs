//! `load` and `loads`: the library's front door ([`retromodel::front`]) with Python's keyword
//! arguments, so that a model loads here as `retromodel convert` and the web page load it.

use std::path::PathBuf;

use pyo3::prelude::*;
use retromodel::front::{self, OpenOptions, Opened, Opener};
use retromodel::vfs::Archives;
use retromodel::Limits;

use crate::errors::Result;
use crate::model::Model;

/// The package's `Model` for a model opened through the front door, and its warnings.
pub fn model_of(opened: Opened) -> (Model, Vec<String>) {
    let info = opened.info_json();
    let warnings = opened.warnings.clone();
    (Model::from_opened(opened, info), warnings)
}

/// Opens the model at `path` with `options`, as the command line does.
pub fn load_path(path: &std::path::Path, options: OpenOptions) -> Result<(Model, Vec<String>)> {
    let archives = Archives::new(&Limits::default(), options.ignore_case);
    let opener = Opener::new(&archives, options)?;
    let mut warnings = opener.warnings().to_vec();
    let (model, more) = model_of(opener.open(path)?);
    warnings.extend(more);
    Ok((model, warnings))
}

/// Reads any model file the library reads (detected by content, never by name), with its
/// side files (skins, palettes, animations, shader scripts) found as `retromodel convert`
/// finds them. Returns the model and the warnings met while reading.
#[pyfunction]
#[pyo3(signature = (path, *, game_dirs=Vec::new(), skin_name=None, anims=Vec::new(), palette=None, ignore_case=false, replacements=false, fps=None, model_config=true, weapon=None, prefer_md5=false, body=0, skin_family=0))]
#[allow(clippy::too_many_arguments)]
pub fn load(
    py: Python<'_>,
    path: PathBuf,
    game_dirs: Vec<PathBuf>,
    skin_name: Option<String>,
    anims: Vec<PathBuf>,
    palette: Option<PathBuf>,
    ignore_case: bool,
    replacements: bool,
    fps: Option<f32>,
    model_config: bool,
    weapon: Option<PathBuf>,
    prefer_md5: bool,
    body: u32,
    skin_family: usize,
) -> PyResult<(Model, Vec<String>)> {
    let options = OpenOptions {
        game_dirs,
        skin_name,
        anims,
        palette,
        ignore_case,
        replacements,
        fps,
        model_config,
        weapon,
        prefer_md5,
        body,
        skin_family,
        ..OpenOptions::default()
    };
    Ok(py.detach(|| load_path(&path, options))?)
}

/// Reads a model from bytes (any format, detected by content); `name` is how messages and
/// `info()` name it. Side files cannot be found: a `.glb`, an MDL or an MD3 stand alone.
#[pyfunction]
#[pyo3(signature = (data, name=None, *, skin_name=None, fps=None, body=0, skin_family=0))]
pub fn loads(
    py: Python<'_>,
    data: Vec<u8>,
    name: Option<String>,
    skin_name: Option<String>,
    fps: Option<f32>,
    body: u32,
    skin_family: usize,
) -> PyResult<(Model, Vec<String>)> {
    let options = OpenOptions {
        skin_name,
        fps,
        body,
        skin_family,
        ..OpenOptions::default()
    };
    let shown = name.unwrap_or_else(|| "<bytes>".to_string());
    Ok(py.detach(|| -> Result<_> {
        let opened = front::open_bytes(
            data,
            &shown,
            &options.convert_options(),
            &retromodel::NoFiles,
        )?;
        Ok(model_of(opened))
    })?)
}
