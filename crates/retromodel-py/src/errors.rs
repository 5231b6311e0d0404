//! Errors as Python exceptions: a format error is `retromodel.FormatError` (a `ValueError`)
//! whose text is the command line's message and whose attributes say where; a file that
//! cannot be read is `FileNotFoundError` or `OSError`; a bad argument `ValueError`.

use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyValueError};
use pyo3::prelude::*;

pyo3::create_exception!(
    retromodel,
    FormatError,
    PyValueError,
    "A model, picture or archive that cannot be read or written. `str(e)` is the command \
     line's message (`md2: frame 3: ... at offset 0x1f4`); the attributes `format`, `message`, \
     `offset`, `line` and `column` say what and where (None when not known)."
);

/// Why a call failed, before it becomes a Python exception.
#[derive(Debug)]
pub enum Fail {
    /// A format error from the library.
    Format(retromodel::Error),
    /// A format error the library gave as text only (a Quake 3 player folder's part).
    FormatText(String),
    /// A file that could not be read or written (the message names it).
    File(String),
    /// A path that does not exist.
    Missing(String),
    /// A bad argument or a conversion the library refuses, in words.
    Value(String),
}

impl From<retromodel::Error> for Fail {
    fn from(e: retromodel::Error) -> Self {
        Fail::Format(e)
    }
}

impl From<retromodel::front::Fail> for Fail {
    fn from(e: retromodel::front::Fail) -> Self {
        use retromodel::front::Fail as F;
        match e {
            F::Format(e) => Fail::Format(e),
            F::FormatText(m) => Fail::FormatText(m),
            // The command line's words for its flag, in Python's.
            F::File(m) => Fail::File(m.replace("pass --force to", "pass force=True to")),
            F::Missing(m) => Fail::Missing(m),
            F::Value(m) => Fail::Value(m),
        }
    }
}

impl From<retromodel::vfs::FileError> for Fail {
    fn from(e: retromodel::vfs::FileError) -> Self {
        Fail::File(e.0)
    }
}

impl From<Fail> for PyErr {
    fn from(f: Fail) -> PyErr {
        match f {
            Fail::Format(e) => format_error(&e),
            Fail::FormatText(m) => Python::attach(|py| {
                let err = FormatError::new_err(m.clone());
                let value = err.value(py);
                for name in ["format", "offset", "line", "column"] {
                    let _ = value.setattr(name, py.None());
                }
                let _ = value.setattr("message", m);
                err
            }),
            Fail::File(m) => PyOSError::new_err(m),
            Fail::Missing(m) => PyFileNotFoundError::new_err(m),
            Fail::Value(m) => PyValueError::new_err(m),
        }
    }
}

/// A `FormatError` for `e`, with its attributes set.
fn format_error(e: &retromodel::Error) -> PyErr {
    Python::attach(|py| {
        let err = FormatError::new_err(e.to_string());
        let value = err.value(py);
        let (offset, line, column) = match e.location {
            retromodel::Location::Offset(o) => (Some(o), None, None),
            retromodel::Location::LineCol { line, column } => (None, Some(line), Some(column)),
            retromodel::Location::None => (None, None, None),
        };
        let mut message = e.context.join(": ");
        if !message.is_empty() {
            message.push_str(": ");
        }
        message.push_str(&e.message);
        // Setting attributes on a fresh exception object cannot fail in practice; if it did,
        // the exception would still carry its text.
        let _ = value.setattr("format", e.format);
        let _ = value.setattr("message", message);
        let _ = value.setattr("offset", offset);
        let _ = value.setattr("line", line);
        let _ = value.setattr("column", column);
        err
    })
}

/// The result type of the bindings' Rust halves.
pub type Result<T> = std::result::Result<T, Fail>;
