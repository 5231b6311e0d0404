//! `retromodel skins`: skin pictures out as PNG.

use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result};

use crate::files;
use crate::SideFileArgs;

/// Work with skin pictures: export them as PNG, or import a picture as a skin.
///
/// Example: `retromodel skins export progs/player.mdl skins/`
#[derive(clap::Subcommand)]
pub enum Command {
    Export(ExportArgs),
    Import(ImportArgs),
}

/// Replace a skin of a model with a picture (PNG, PCX, TGA, JPEG, BMP): Quake MDL in the file
/// (resampled to the file's skin size, matched to the Quake palette or --target-palette,
/// transparent pixels as index 255 with MF_HOLEY); MD2 as the PCX its skin path names,
/// written beside the output (at the header's skin size; the MD2 itself is unchanged); MD3 as
/// the PNG its surface's shader names, beside the output. Everything else of the file stays
/// as stored. The model is written to -o OUT, or over MODEL with --force.
///
/// Examples:
///   retromodel skins import progs/player.mdl red.png -o progs/player_red.mdl
///   retromodel skins import tris.md2 skin.png --index 1 -o out/tris.md2
///   retromodel skins import models/gun/gun.md3 gun.png --force
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct ImportArgs {
    /// The model (Quake MDL, MD2 or MD3).
    model: PathBuf,
    /// The picture.
    picture: PathBuf,
    /// Which skin to replace (`info` lists them), from 0.
    #[arg(long, default_value_t = 0)]
    index: usize,
    /// Where to write the model (side files go beside it); default: over MODEL.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Replace files that exist (MODEL itself when there is no -o).
    #[arg(long)]
    force: bool,
    /// A 768-byte palette (palette.lmp layout) to match the picture's colours to (Quake
    /// 2's for an MD2); default: the built-in Quake palette.
    #[arg(long, value_name = "FILE")]
    target_palette: Option<PathBuf>,
    /// Floyd-Steinberg dithering when matching colours to the palette.
    #[arg(long)]
    dither: bool,
    /// Let the picture use the fullbright indices 224..255 (Quake MDL).
    #[arg(long)]
    fullbrights: bool,
}

/// A picture file decoded (any format `retromodel::image::decode` reads).
pub(crate) fn read_picture(path: &std::path::Path) -> Result<retromodel::image::Image> {
    let bytes = files::read(path)?;
    retromodel::image::decode(
        &bytes,
        &path.to_string_lossy(),
        &retromodel::Limits::default(),
    )
    .with_context(|| path.display().to_string())
}

/// Files to write (path, bytes) and the lines that say what was done.
pub(crate) type Replaced = (Vec<(PathBuf, Vec<u8>)>, Vec<String>);

/// `data` with skin `index` replaced by `picture`: the files to write (the model at
/// `output`, side files beside it) and what was said.
pub(crate) fn replaced(
    data: &[u8],
    index: usize,
    picture: &retromodel::image::Image,
    output: &std::path::Path,
    options: &retromodel::WriteOptions,
) -> Result<Replaced> {
    let out = retromodel::registry::replace_skin(data, index, picture, options)?;
    let dir = output.parent().unwrap_or(std::path::Path::new(""));
    let mut files_out = vec![(output.to_path_buf(), out.bytes)];
    let mut said: Vec<String> = out
        .warnings
        .iter()
        .map(|w| format!("{}: warning: {w}", output.display()))
        .collect();
    said.extend(
        out.notes
            .iter()
            .map(|n| format!("{}: {n}", output.display())),
    );
    for f in out.side_files {
        let path = dir.join(&f.name);
        said.push(format!(
            "{}: {} written as {}",
            output.display(),
            f.kind,
            path.display()
        ));
        files_out.push((path, f.bytes));
    }
    Ok((files_out, said))
}

/// Runs `skins import`.
fn import(args: ImportArgs) -> Result<ExitCode> {
    let data = files::read(&args.model)?;
    let picture = read_picture(&args.picture)?;
    let palette = match files::load_palette(args.target_palette.as_deref())? {
        Some(p) => Some(retromodel::image::Palette::from_lmp(&p)?),
        None => None,
    };
    let options = retromodel::WriteOptions {
        palette,
        dither: args.dither,
        fullbrights: args.fullbrights,
        ..retromodel::WriteOptions::default()
    };
    let output = args.output.clone().unwrap_or_else(|| args.model.clone());
    let (mut plan, said) = replaced(&data, args.index, &picture, &output, &options)
        .with_context(|| args.model.display().to_string())?;
    // An unchanged model over itself (MD2, MD3: the skin is a file beside it) is not
    // rewritten.
    if output == args.model && plan[0].1 == data {
        plan.remove(0);
    }
    if !args.force {
        if let Some((p, _)) = plan.iter().find(|(p, _)| p.exists()) {
            anyhow::bail!("{} exists; pass --force to replace it", p.display());
        }
    }
    for (p, bytes) in &plan {
        files::write_atomic(p, bytes, args.force)?;
    }
    for line in &said {
        eprintln!("{line}");
    }
    eprintln!(
        "{}: skin {} replaced by {}",
        output.display(),
        args.index,
        args.picture.display()
    );
    Ok(ExitCode::SUCCESS)
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
    let args = match cmd {
        Command::Export(args) => args,
        Command::Import(args) => return import(args),
    };
    let converted = super::open(&args.side, &args.input, &[])?;
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
