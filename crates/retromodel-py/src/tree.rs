//! `convert_tree`: every model under a folder or archive into another folder, the tree kept
//! (`retromodel convert DIR OUT --to EXT`): inputs and output names from
//! `retromodel::inputs`, each file loaded and saved as `load` and `Model.save` do, bad files
//! reported while the others go on, a progress callback after each file.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use retromodel::front::{OpenOptions, Opener};
use retromodel::inputs;
use retromodel::vfs::Archives;
use retromodel::Limits;

use crate::errors::Fail;
use crate::save::{self, SaveOptions};

/// What happened to one file of a tree conversion: `(input, output, outcome, message)`,
/// outcome `"converted"`, `"kept"` (the output exists), `"unsupported"` or `"failed"`.
type Entry = (String, String, &'static str, String);

/// Converts every model under `src` (a folder, a game folder, an archive, `ARCHIVE:FOLDER`)
/// to format `to` under `dst`. `progress(done, total, entry)` is called after each file.
/// Returns one entry per file.
#[pyfunction]
#[pyo3(signature = (src, dst, to, options, load_options, progress=None))]
pub fn convert_tree(
    py: Python<'_>,
    src: PathBuf,
    dst: PathBuf,
    to: String,
    options: SaveOptions,
    load_options: (Vec<PathBuf>, Option<String>, bool, Option<f32>),
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Vec<Entry>> {
    let to = to.trim_start_matches('.').to_ascii_lowercase();
    let formats = inputs::batch_formats();
    if !formats.contains(&to.as_str()) {
        return Err(PyValueError::new_err(format!(
            "to={to:?}: expected one of {}",
            formats.join(", ")
        )));
    }
    if dst.is_file() {
        return Err(PyValueError::new_err(format!(
            "{} is a file; a tree conversion writes into a folder",
            dst.display()
        )));
    }
    let (game_dirs, skin_name, ignore_case, fps) = load_options;
    let lo = OpenOptions {
        game_dirs,
        skin_name,
        ignore_case,
        fps,
        ..Default::default()
    };
    let archives = Archives::new(&Limits::default(), ignore_case);
    let opener = Opener::new(&archives, lo).map_err(Fail::from)?;
    let found = py.detach(|| inputs::batch_inputs(&archives, &src, &to));
    if found.is_empty() {
        return Err(Fail::Missing(format!("no model files under {}", src.display())).into());
    }
    let outputs = inputs::output_paths(&dst, &found, &to);
    let total = found.len();
    let mut entries = Vec::with_capacity(total);
    for (done, (input, output)) in found.iter().zip(&outputs).enumerate() {
        let entry = py.detach(|| -> Entry {
            let shown_in = input.path.display().to_string();
            let shown_out = output.display().to_string();
            if !options.force_set() && output.exists() {
                return (shown_in, shown_out, "kept", "exists".into());
            }
            let result = (|| -> crate::errors::Result<()> {
                if let Some(dir) = output.parent() {
                    std::fs::create_dir_all(dir)
                        .map_err(|e| Fail::File(format!("cannot create {}: {e}", dir.display())))?;
                }
                let bytes = input.read()?;
                let opened = opener.open_read(&input.path, bytes)?;
                save::save(&opened.source(), output, &options)?;
                Ok(())
            })();
            match result {
                Ok(()) => (shown_in, shown_out, "converted", String::new()),
                Err(Fail::Format(e)) if e.kind == retromodel::ErrorKind::Unsupported => {
                    (shown_in, shown_out, "unsupported", e.to_string())
                }
                Err(e) => {
                    let message = match e {
                        Fail::Format(e) => e.to_string(),
                        Fail::FormatText(m) | Fail::File(m) | Fail::Missing(m) | Fail::Value(m) => {
                            m
                        }
                    };
                    (shown_in, shown_out, "failed", message)
                }
            }
        });
        if let Some(cb) = &progress {
            cb.call1((done + 1, total, entry.clone()))?;
        }
        entries.push(entry);
    }
    Ok(entries)
}
