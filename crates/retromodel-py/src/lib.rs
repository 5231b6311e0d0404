//! `retromodel._native`: the compiled half of the `retromodel` Python package.
//!
//! The package (`python/retromodel/__init__.py`) wraps these functions and classes: it turns
//! array-likes into the exact numpy arrays they take, emits warnings through Python's
//! `warnings`, and carries the docstrings users read. Everything here binds to the library's
//! contract (`retromodel::registry`, `Document`, `Model`, `vfs`), never to a format's
//! internals: reading is `Document::parse` + `try_to_model` with the side files found as the
//! command line finds them (`vfs::PathResolver`, Quake 3 player folders through
//! `formats::md3::player`), writing is `registry::write_model` (so a Blender export is fitted
//! to its target exactly as `retromodel convert` fits it), and files are written through
//! `vfs::write_atomic`.
//!
//! Long work (parsing, converting, writing, tree conversions) runs with the GIL released.

use pyo3::prelude::*;

mod arrays;
mod build;
mod errors;
mod game;
mod load;
mod model;
mod save;
mod tree;

/// The extension module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("FormatError", py.get_type::<errors::FormatError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<model::Model>()?;
    m.add_class::<model::Mesh>()?;
    m.add_class::<model::Clip>()?;
    m.add_class::<model::Skeleton>()?;
    m.add_class::<model::Animation>()?;
    m.add_class::<model::Skin>()?;
    m.add_class::<save::SaveReport>()?;
    m.add_class::<game::GameFs>()?;
    m.add_function(wrap_pyfunction!(load::load, m)?)?;
    m.add_function(wrap_pyfunction!(load::loads, m)?)?;
    m.add_function(wrap_pyfunction!(build::from_keyframes, m)?)?;
    m.add_function(wrap_pyfunction!(build::from_skinned, m)?)?;
    m.add_function(wrap_pyfunction!(tree::convert_tree, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    m.add_function(wrap_pyfunction!(engines, m)?)?;
    Ok(())
}

/// The file extensions retromodel reads (detected by content) and writes, and the writers
/// that build a file from a model (`ext` or `ext:variant`): `(read, write, writers)`.
#[pyfunction]
fn formats() -> (Vec<&'static str>, Vec<&'static str>, Vec<String>) {
    let writers = retromodel::front::formats()
        .into_iter()
        .flat_map(|f| {
            let ext = f.extensions[0];
            f.writers.into_iter().map(move |v| {
                if v.is_empty() {
                    ext.to_string()
                } else {
                    format!("{ext}:{v}")
                }
            })
        })
        .collect();
    (
        retromodel::registry::extensions(),
        retromodel::registry::target_extensions(),
        writers,
    )
}

/// The engine names `Model.validate` checks against.
#[pyfunction]
fn engines() -> Vec<&'static str> {
    retromodel::registry::engine_names()
}
