//! Checked binary I/O: a little-endian [`Reader`] that reports byte offsets in its errors, and a
//! matching [`Writer`]; and, for the text formats, [`text`]: one configurable tokenizer and the
//! parser helpers they share; [`names`] (NUL-padded name fields) and [`magic`] (showing and
//! naming a file's first bytes in errors).
//!
//! Parsers never index file bytes directly: every read goes through [`Reader`], which fails with
//! [`crate::error::ErrorKind::Truncated`] instead of panicking (a table of fixed-size records
//! is checked once, [`Reader::records`], and its fields read with [`Fields`]), and every count
//! goes through [`Reader::count`] before anything is allocated for it.

pub mod layout;
pub mod magic;
pub mod names;
mod reader;
mod shared;
pub mod text;
mod writer;

pub use layout::Gap;
pub use reader::{Fields, Reader};
pub use shared::SharedBytes;
pub use writer::Writer;

/// Rows of numbers as their little-endian bytes, row after row: input for the readers' tests
/// (`le` is the type's `to_le_bytes`).
#[cfg(test)]
pub(crate) fn le_rows<T: Copy, const K: usize, const B: usize>(
    rows: &[[T; K]],
    le: fn(T) -> [u8; B],
) -> Vec<u8> {
    rows.iter().flatten().flat_map(|&v| le(v)).collect()
}
