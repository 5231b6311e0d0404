//! One module per subcommand.

pub mod bench;
pub mod convert;
pub mod info;
pub mod sample;
pub mod skins;
pub mod validate;

use std::path::Path;

use anyhow::Result;
use retromodel::{ConvertOptions, Converted, Document, Limits};

use crate::files::{self, FsResolver};

/// Reads, parses and converts one file (side files resolved next to it), and hands the
/// parsed document and the converted model to `f`.
pub fn load<T>(
    path: &Path,
    palette: Option<&[u8]>,
    f: impl FnOnce(&Document<'_>, Converted) -> T,
) -> Result<T> {
    let bytes = files::read(path)?;
    let doc = Document::parse(&bytes, &Limits::default())?;
    let converted = doc.to_model(&ConvertOptions::default(), &FsResolver::new(path, palette));
    Ok(f(&doc, converted))
}
