//! One error type for every format: which format, what went wrong, and where.
//!
//! Messages read like `quake-mdl: frame 3: vertex index 900 out of range (num_verts = 512) at
//! offset 0x1f4`: the format name, an optional context path (`frame 3`), the problem, and the
//! location (a byte offset for binary formats, `line:column` for text formats).

use std::fmt;

/// What kind of problem an [`Error`] reports. Lets callers branch without parsing text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The data ended before a structure was complete.
    Truncated,
    /// The magic bytes are not those of the expected format.
    BadMagic,
    /// The magic is right but the version is not one this crate reads.
    UnsupportedVersion,
    /// The data is a format this crate recognises but does not read (yet).
    Unsupported,
    /// A count is negative or larger than the data could hold.
    BadCount,
    /// An index points outside the array it refers to.
    IndexOutOfRange,
    /// A value is not allowed (zero dimensions, bad type word, ...).
    InvalidValue,
    /// A configured [`crate::limits::Limits`] bound was exceeded.
    LimitExceeded,
    /// The model handed to a writer breaks an invariant of the target format.
    InvalidModel,
}

/// Where in the input an [`Error`] was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Location {
    /// No meaningful position (for example a whole-model check).
    None,
    /// A byte offset into a binary file.
    Offset(u64),
    /// A 1-based line and column in a text file.
    LineCol {
        /// 1-based line number.
        line: u32,
        /// 1-based column number.
        column: u32,
    },
}

/// The crate's error: format, kind, context, message and location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Short format name as used by `retromodel info` (`quake-mdl`, `md2`, ...).
    pub format: &'static str,
    /// The kind of problem.
    pub kind: ErrorKind,
    /// Where inside the model the problem was met (`frame 3`, `skin 0`), outermost first.
    pub context: Vec<String>,
    /// The problem, in words.
    pub message: String,
    /// Where in the input.
    pub location: Location,
}

impl Error {
    /// A new error with no context.
    pub fn new(
        format: &'static str,
        kind: ErrorKind,
        message: impl Into<String>,
        location: Location,
    ) -> Self {
        Error {
            format,
            kind,
            context: Vec::new(),
            message: message.into(),
            location,
        }
    }

    /// Adds an outer context element (`frame 3`) in front of the existing ones.
    pub fn in_context(mut self, context: impl Into<String>) -> Self {
        self.context.insert(0, context.into());
        self
    }

    /// The byte offset, if the location is one.
    pub fn offset(&self) -> Option<u64> {
        match self.location {
            Location::Offset(o) => Some(o),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.format)?;
        for c in &self.context {
            write!(f, "{c}: ")?;
        }
        f.write_str(&self.message)?;
        match self.location {
            Location::None => Ok(()),
            Location::Offset(o) => write!(f, " at offset {o:#x}"),
            Location::LineCol { line, column } => write!(f, " at line {line}:{column}"),
        }
    }
}

impl std::error::Error for Error {}

/// Result with the crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Adds context to the error of a result, lazily.
pub trait ResultExt<T> {
    /// Wraps the error, if any, in the context produced by `f`.
    fn context_with<C: Into<String>>(self, f: impl FnOnce() -> C) -> Result<T>;
}

impl<T> ResultExt<T> for Result<T> {
    #[inline]
    fn context_with<C: Into<String>>(self, f: impl FnOnce() -> C) -> Result<T> {
        self.map_err(|e| e.in_context(f()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_format_context_message_and_offset() {
        let e = Error::new(
            "quake-mdl",
            ErrorKind::IndexOutOfRange,
            "vertex index 900 out of range (num_verts = 512)",
            Location::Offset(0x1f4),
        )
        .in_context("frame 3");
        assert_eq!(
            e.to_string(),
            "quake-mdl: frame 3: vertex index 900 out of range (num_verts = 512) at offset 0x1f4"
        );
        let t = Error::new(
            "md5mesh",
            ErrorKind::InvalidValue,
            "expected '{'",
            Location::LineCol { line: 4, column: 9 },
        );
        assert_eq!(t.to_string(), "md5mesh: expected '{' at line 4:9");
    }
}
