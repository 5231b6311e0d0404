//! One module per subcommand.

pub mod bench;
pub mod convert;
pub mod info;
pub mod ls;
#[cfg(feature = "render")]
pub mod render;
pub mod sample;
pub mod skins;
pub mod validate;
#[cfg(feature = "viewer")]
pub mod view;

use std::path::{Path, PathBuf};

use anyhow::Result;
use retromodel::{ConvertOptions, Converted, Document, Limits};

use crate::files::{self, FsResolver};
use crate::SideFiles;

/// The resolver for side files of the model at `path`.
pub fn resolver(path: &Path, side: &SideFiles) -> FsResolver {
    FsResolver::new(path, side.palette.as_deref(), side.game.clone())
}

/// Reads, parses and converts one file (side files resolved next to it; the side files a
/// format lists, such as an md5mesh's animations, are `listed` when not empty, each of which
/// must then be taken), and hands the parsed document and the converted model to `f`.
pub fn load<T>(
    path: &Path,
    side: &SideFiles,
    listed: &[PathBuf],
    f: impl FnOnce(&Document<'_>, Converted) -> T,
) -> Result<T> {
    let bytes = files::read(path)?;
    let doc = Document::parse(&bytes, &Limits::default())?;
    let resolver = resolver(path, side).with_listed(listed);
    let converted = doc.to_model(&ConvertOptions::default(), &resolver);
    convert::check_listed(listed, &converted)?;
    Ok(f(&doc, converted))
}
