//! One module per subcommand. Every command opens models through the library's front door
//! ([`retromodel::front`]), so each sees the model `convert` writes from.

pub mod bench;
pub mod convert;
pub mod formats;
pub mod info;
pub mod ls;
#[cfg(feature = "render")]
pub mod render;
pub mod sample;
pub mod skins;
pub mod validate;
#[cfg(feature = "viewer")]
pub mod view;
pub mod web;

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use retromodel::front::Opened;

use crate::SideFileArgs;

/// Opens the model at `path` (a model file, `ARCHIVE:PATH` or a Quake 3 player folder) with
/// the side-file flags `side` and the animations `anims` (`--anim`; none: those beside it);
/// the error names the path.
pub fn open(side: &SideFileArgs, path: &Path, anims: &[PathBuf]) -> Result<Opened> {
    let opener = side.opener(retromodel::front::OpenOptions {
        anims: anims.to_vec(),
        ..side.open_options()
    })?;
    opener
        .open(path)
        .with_context(|| path.display().to_string())
}
