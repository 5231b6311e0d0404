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

/// Reads and parses one file, then converts it with side files resolved next to it.
pub fn load(path: &Path, palette: Option<&[u8]>) -> Result<(Vec<u8>, Converted)> {
    let bytes = files::read(path)?;
    let doc = Document::parse(&bytes, &Limits::default())?;
    let converted = doc.to_model(&ConvertOptions::default(), &FsResolver::new(path, palette));
    Ok((bytes, converted))
}
