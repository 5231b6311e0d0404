//! `retromodel convert`: write a model in another (or the same) format.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use retromodel::formats::{md2, quake_mdl};
use retromodel::image::{pcx, Palette, Pixels, QUAKE_FULLBRIGHT_START};
use retromodel::{ConvertOptions, Document, Format, Limits, Model, WriteOptions};

use super::resolver;
use crate::files;
use crate::SideFileArgs;

/// Convert a model file: Quake MDL <-> Quake 2 MD2 (the output's extension picks the format).
///
/// With the same format the output is the input byte for byte. Otherwise the model goes
/// through the format-neutral Model: every frame is requantised (the largest position error
/// per frame is reported), MD2 output gets generated GL commands, and MDL output gets
/// on-seam vertices and skins converted to the palette. The output is written to a temporary
/// file and renamed into place; an existing file (the input included) is only replaced with
/// --force.
///
/// MD2 stores skin paths, not pictures: when converting to MD2, each skin picture is written
/// as PCX beside the output (OUTPUT_STEM_skinN.pcx) and its file name stored, unless
/// --skin-path gives the paths to store.
///
/// Examples:
///   retromodel convert progs/player.mdl player.md2
///   retromodel convert tank.md2 tank.mdl --game-dir baseq2
///   retromodel convert player.mdl models/player/tris.md2 --skin-path models/player/skin.pcx
#[derive(clap::Args)]
#[command(verbatim_doc_comment)]
pub struct Args {
    /// The model to read.
    input: PathBuf,
    /// The file to write; its extension picks the format (.mdl or .md2).
    output: PathBuf,
    /// Replace OUTPUT (and skin files written beside it) if they exist, even the input.
    #[arg(long)]
    force: bool,
    /// Fail instead of warning when the result exceeds the target engine's limits
    /// (MD2: 2048 vertices, 4096 triangles, 512 frames, 32 skins; MDL: QuakeSpasm's).
    #[arg(long)]
    strict: bool,
    /// Skin path to store in an MD2 (repeat for several skins); no PCX files are written.
    #[arg(long, value_name = "PATH")]
    skin_path: Vec<String>,
    /// Let skins converted to the Quake palette use the fullbright indices 224..255.
    #[arg(long)]
    fullbrights: bool,
    /// Print the position error of every frame.
    #[arg(short, long)]
    verbose: bool,
    #[command(flatten)]
    side: SideFileArgs,
}

/// The format an output extension asks for, given the input's format (`.mdl` is ambiguous
/// and keeps the input's MDL family).
fn target_format(ext: &str, input: Format) -> Option<Format> {
    match ext.to_ascii_lowercase().as_str() {
        "mdl" => match input {
            Format::QuakeMdl | Format::GameStudioMdl(_) => Some(input),
            _ => Some(Format::QuakeMdl),
        },
        "md2" => Some(Format::Md2),
        _ => None,
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let bytes = files::read(&args.input)?;
    let doc = Document::parse(&bytes, &Limits::default())?;
    let ext = args
        .output
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    let Some(target) = target_format(ext, doc.format()) else {
        bail!(
            "{}: cannot tell the output format from the extension {ext:?} (use .mdl or .md2)",
            args.output.display()
        );
    };
    let out = if target == doc.format() {
        doc.write()
    } else {
        let side = args.side.load()?;
        let converted = doc.to_model(&ConvertOptions::default(), &resolver(&args.input, &side));
        for w in &converted.warnings {
            eprintln!("{}: warning: {w}", args.input.display());
        }
        let palette = match &side.palette {
            Some(p) => Some(Palette::from_lmp(p)?),
            None => None,
        };
        let mut options = WriteOptions {
            strict: args.strict,
            skin_paths: args.skin_path.clone(),
            palette,
            fullbrights: args.fullbrights,
        };
        let written = match target {
            Format::Md2 => {
                if options.skin_paths.is_empty() {
                    options.skin_paths = write_skin_files(&args, &converted.model, &options)?;
                }
                let w = md2::from_model(&converted.model, &options)?;
                (w.file.write(), w.warnings, w.frame_errors)
            }
            Format::QuakeMdl => {
                let w = quake_mdl::from_model(&converted.model, &options)?;
                (w.file.write(), w.warnings, w.frame_errors)
            }
            other => bail!(
                "converting {} to {} is not supported yet",
                doc.format().name(),
                other.name()
            ),
        };
        let (out, warnings, errors) = written;
        for w in &warnings {
            eprintln!("{}: warning: {w}", args.output.display());
        }
        if args.verbose {
            for (i, (e, f)) in errors.iter().zip(&converted.model.frames).enumerate() {
                eprintln!("  frame {i} {:?}: largest position error {e:.5}", f.name);
            }
        }
        out
    };
    files::write_atomic(&args.output, &out, args.force)?;
    eprintln!(
        "{} -> {} ({} bytes, {})",
        args.input.display(),
        args.output.display(),
        out.len(),
        if out == bytes {
            "byte-identical"
        } else if target == doc.format() {
            "rewritten"
        } else {
            "converted"
        }
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the first picture of each skin as an 8-bit PCX beside `args.output` and returns
/// the file names to store as skin paths (the model's own name for a skin without picture).
fn write_skin_files(args: &Args, model: &Model, options: &WriteOptions) -> Result<Vec<String>> {
    let dir = args.output.parent().unwrap_or(Path::new(""));
    let stem = args
        .output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into());
    let mut paths = Vec::new();
    for (i, skin) in model.skins.iter().enumerate() {
        let Some(picture) = skin.pictures.first() else {
            paths.push(skin.name.clone());
            continue;
        };
        if skin.pictures.len() > 1 {
            eprintln!(
                "{}: warning: skin {i} is a group of {} pictures; MD2 keeps the first",
                args.output.display(),
                skin.pictures.len()
            );
        }
        let pcx_bytes = match &picture.pixels {
            Pixels::Indexed { .. } => pcx::encode(picture),
            Pixels::Rgba8(_) => None,
        }
        .unwrap_or_else(|| {
            let palette = options.palette.unwrap_or(Palette::QUAKE);
            let last = if options.fullbrights {
                255
            } else {
                QUAKE_FULLBRIGHT_START - 1
            };
            let indices = picture.to_indexed(&palette, last);
            pcx::encode_indexed(picture.width, picture.height, &indices, &palette)
        });
        let name = format!("{stem}_skin{i}.pcx");
        let path = dir.join(&name);
        files::write_atomic(&path, &pcx_bytes, args.force)
            .with_context(|| format!("cannot write skin {i}"))?;
        eprintln!(
            "{}: skin {i} written as {}",
            args.output.display(),
            path.display()
        );
        paths.push(name);
    }
    Ok(paths)
}
