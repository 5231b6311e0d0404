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
pub mod web;

use std::path::{Path, PathBuf};

use anyhow::Result;
use retromodel::formats::md3::player;
use retromodel::inputs::PlayerDir;
use retromodel::{Converted, Document, Limits};

use crate::files::{self, FsResolver};
use crate::SideFiles;

/// The resolver for side files of the model at `path`.
pub fn resolver(path: &Path, side: &SideFiles) -> FsResolver {
    FsResolver::new(
        files::archives(),
        path,
        side.palette.as_deref(),
        side.game.clone(),
    )
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
    // Shared: the Model may keep parts of the file (IQM's frames) instead of copies.
    let bytes = retromodel::io::SharedBytes::from(files::read(path)?);
    let doc = Document::parse_shared(&bytes, &Limits::default())?;
    let resolver = resolver(path, side).with_listed(listed);
    let converted = doc.to_model(&side.convert_options(), &resolver);
    convert::check_listed(listed, &converted)?;
    Ok(f(&doc, converted))
}

/// The player folder at `path` (on disk or `ARCHIVE:FOLDER`), side files found as for any
/// model.
fn player_dir<'a>(path: &Path, side: &'a SideFiles) -> PlayerDir<'a> {
    PlayerDir::new(
        files::archives(),
        path,
        side.palette.as_deref(),
        side.game.clone(),
    )
}

/// Whether `path` is a Quake 3 player folder (on disk or inside an archive): it holds
/// `lower.md3`, `upper.md3` and `head.md3`.
pub fn is_player_dir(path: &Path) -> bool {
    let archived = || retromodel::vfs::split_archive_path(path).is_some();
    (path.is_dir() || archived())
        && player::is_player(&PlayerDir::new(files::archives(), path, None, None))
}

/// Loads a Quake 3 player folder ([`player::load_folder`]) with the skin `side` names and a
/// `weapon` model.
pub fn load_player(dir: &Path, side: &SideFiles, weapon: Option<&Path>) -> Result<Converted> {
    let weapon = weapon
        .map(|path| -> Result<Converted> {
            let bytes = files::read(path)?;
            let doc = Document::parse(&bytes, &Limits::default())
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let mut c = doc.to_model(&side.convert_options(), &resolver(path, side));
            for w in &mut c.warnings {
                *w = format!("{}: {w}", path.display());
            }
            Ok(c)
        })
        .transpose()?;
    Ok(player::load_folder(
        &player_dir(dir, side),
        weapon.as_ref(),
        &side.convert_options(),
        &Limits::default(),
    )?)
}
