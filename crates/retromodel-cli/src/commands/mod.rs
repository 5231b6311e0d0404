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
use retromodel::{Converted, Document, Limits};

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
    let converted = doc.to_model(&side.convert_options(), &resolver);
    convert::check_listed(listed, &converted)?;
    Ok(f(&doc, converted))
}

/// Whether `path` is a Quake 3 player folder: it holds `lower.md3`, `upper.md3` and
/// `head.md3`.
pub fn is_player_dir(path: &Path) -> bool {
    path.is_dir()
        && ["lower.md3", "upper.md3", "head.md3"]
            .iter()
            .all(|f| path.join(f).is_file())
}

/// Reads a Quake 3 player folder's three parts (with the skin `side` names, side files found
/// as for any model), its `animation.cfg` when present and a `weapon` model, and assembles
/// them ([`retromodel::formats::md3::player`]); warnings of each part are prefixed with its
/// file.
pub fn load_player(dir: &Path, side: &SideFiles, weapon: Option<&Path>) -> Result<Converted> {
    use retromodel::formats::md3::player::{assemble, AnimationCfg, Parts};
    let part = |path: &Path| -> Result<Converted> {
        let bytes = files::read(path)?;
        let doc = Document::parse(&bytes, &Limits::default())
            .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let mut c = doc.to_model(&side.convert_options(), &resolver(path, side));
        for w in &mut c.warnings {
            *w = format!("{}: {w}", path.display());
        }
        Ok(c)
    };
    let lower = part(&dir.join("lower.md3"))?;
    let upper = part(&dir.join("upper.md3"))?;
    let head = part(&dir.join("head.md3"))?;
    let weapon = weapon.map(part).transpose()?;
    let cfg_path = dir.join("animation.cfg");
    let cfg = if cfg_path.is_file() {
        Some(
            AnimationCfg::parse(&files::read(&cfg_path)?)
                .map_err(|e| anyhow::anyhow!("{}: {e}", cfg_path.display()))?,
        )
    } else {
        None
    };
    let mut out = assemble(
        Parts {
            lower: &lower.model,
            upper: &upper.model,
            head: &head.model,
            weapon: weapon.as_ref().map(|w| &w.model),
        },
        cfg.as_ref(),
    )
    .map_err(|e| anyhow::anyhow!("{}: {e}", dir.display()))?;
    let mut warnings = Vec::new();
    for c in [Some(&lower), Some(&upper), Some(&head), weapon.as_ref()]
        .into_iter()
        .flatten()
    {
        warnings.extend(c.warnings.iter().cloned());
    }
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}
