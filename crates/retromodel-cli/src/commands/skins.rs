//! `retromodel skins`: skin pictures out as PNG.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use super::load;
use crate::files;
use crate::SideFileArgs;

/// Work with skin pictures.
///
/// Example: `retromodel skins export progs/player.mdl skins/`
#[derive(clap::Subcommand)]
pub enum Command {
    Export(ExportArgs),
}

/// Write every skin picture of a model as PNG: `NAME_skinI.png`, group members as
/// `NAME_skinI_J.png`, and with --fullbright-mask `..._fullbright.png` beside each picture
/// that has fullbright pixels (palette indices 224..255; everything else black).
///
/// Example: `retromodel skins export progs/player.mdl skins/ --palette gfx/palette.lmp`
#[derive(clap::Args)]
pub struct ExportArgs {
    /// The model.
    input: PathBuf,
    /// Folder for the PNG files (created if missing).
    dir: PathBuf,
    #[command(flatten)]
    side: SideFileArgs,
    /// Also write the fullbright mask of each 8-bit picture.
    #[arg(long)]
    fullbright_mask: bool,
    /// Replace existing PNG files.
    #[arg(long)]
    force: bool,
}

/// Runs the command.
pub fn run(cmd: Command) -> Result<ExitCode> {
    let Command::Export(args) = cmd;
    let side = args.side.load()?;
    let converted = load(&args.input, &side, &[], |_, c| c)?;
    fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let stem = args
        .input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into());
    let mut written = 0;
    for (i, skin) in converted.model.skins.iter().enumerate() {
        for (j, pic) in skin.pictures.iter().enumerate() {
            let base = if skin.pictures.len() > 1 {
                format!("{stem}_skin{i}_{j}")
            } else {
                format!("{stem}_skin{i}")
            };
            let png = pic.to_png().context("PNG encoding failed")?;
            files::write_atomic(&args.dir.join(format!("{base}.png")), &png, args.force)?;
            written += 1;
            if args.fullbright_mask {
                if let Some(mask) = pic.fullbright_mask() {
                    let png = retromodel::image::png::encode_rgba8(pic.width, pic.height, &mask)
                        .context("PNG encoding failed")?;
                    let path = args.dir.join(format!("{base}_fullbright.png"));
                    files::write_atomic(&path, &png, args.force)?;
                    written += 1;
                }
            }
        }
    }
    eprintln!("{written} PNG files written to {}", args.dir.display());
    Ok(ExitCode::SUCCESS)
}
