//! `retromodel convert`: write a model in another (or the same) format.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{bail, Context, Result};
use retromodel::formats::{md2, quake_mdl};
use retromodel::image::{pcx, Palette, Pixels};
use retromodel::{ConvertOptions, Document, Format, Limits, Model, WriteOptions};

use super::resolver;
use crate::files;
use crate::SideFileArgs;

/// Convert a model file: Quake MDL <-> Quake 2 MD2, any model to OBJ (the output's
/// extension picks the format).
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
/// OBJ output (.obj) writes one pose (--frame N) turned to Y-up, a .mtl beside it and each
/// skin's first picture as OUTPUT_STEM_skinN.png.
///
/// Examples:
///   retromodel convert progs/player.mdl player.md2
///   retromodel convert progs/player.mdl player.obj --frame 12
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
    /// Let skins converted to the Quake palette (MDL output) use the fullbright indices
    /// 224..255.
    #[arg(long)]
    fullbrights: bool,
    /// A 768-byte palette (palette.lmp layout) that written 8-bit skins use: the MDL's skins,
    /// or the PCX skins written beside an MD2 (Quake 2's palette, for Quake 2). Default: the
    /// built-in Quake palette for MDL; the model's own palette for PCX.
    #[arg(long, value_name = "FILE")]
    target_palette: Option<PathBuf>,
    /// OBJ output: the frame to write (default 0; the bind pose for skeletal models).
    #[arg(long, default_value_t = 0)]
    frame: usize,
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
        "md5mesh" => Some(Format::Md5Mesh),
        "md5anim" => Some(Format::Md5Anim),
        "md5camera" => Some(Format::Md5Camera),
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
    if ext.eq_ignore_ascii_case("obj") {
        return write_obj(&args, &doc);
    }
    let Some(target) = target_format(ext, doc.format()) else {
        bail!(
            "{}: cannot tell the output format from the extension {ext:?} (use .mdl, .md2 or .obj)",
            args.output.display()
        );
    };
    if !args.force && args.output.exists() {
        bail!(
            "{} exists; pass --force to replace it",
            args.output.display()
        );
    }
    let mut skin_files = Vec::new();
    let out = if target == doc.format() {
        doc.write()
    } else {
        let side = args.side.load()?;
        let converted = doc.to_model(&ConvertOptions::default(), &resolver(&args.input, &side));
        for w in &converted.warnings {
            eprintln!("{}: warning: {w}", args.input.display());
        }
        let palette = match files::load_palette(args.target_palette.as_deref())? {
            Some(p) => Some(Palette::from_lmp(&p)?),
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
                    skin_files = skin_files_for(&args, &converted.model, &options);
                    options.skin_paths = skin_files.iter().map(|s| s.name.clone()).collect();
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
    // Skin files only once the model is built, and none if one of them is in the way.
    for f in &skin_files {
        if let (Some(path), false) = (&f.path, args.force) {
            if path.exists() {
                bail!("{} exists; pass --force to replace it", path.display());
            }
        }
    }
    for (i, f) in skin_files.iter().enumerate() {
        if let (Some(path), Some(bytes)) = (&f.path, &f.bytes) {
            files::write_atomic(path, bytes, args.force)
                .with_context(|| format!("cannot write skin {i}"))?;
            eprintln!(
                "{}: skin {i} written as {}",
                args.output.display(),
                path.display()
            );
        }
    }
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

/// A skin path to store in an MD2, and the PCX file to write for it (none for a skin
/// without picture, which keeps the model's name).
struct SkinFile {
    name: String,
    path: Option<PathBuf>,
    bytes: Option<Vec<u8>>,
}

/// The first picture of each skin as an 8-bit PCX beside `args.output`, named
/// `OUTPUT_STEM_skinN.pcx`. Quake 2 draws 8-bit skins with its own palette
/// (`pics/colormap.pcx`), not the one in the PCX: with `--target-palette` the pictures are matched to
/// that palette, otherwise they keep theirs and a warning says so.
fn skin_files_for(args: &Args, model: &Model, options: &WriteOptions) -> Vec<SkinFile> {
    let dir = args.output.parent().unwrap_or(Path::new(""));
    let stem = output_stem(&args.output);
    let mut out = Vec::new();
    let mut kept_palette = false;
    for (i, skin) in model.skins.iter().enumerate() {
        let Some(picture) = skin.pictures.first() else {
            out.push(SkinFile {
                name: skin.name.clone(),
                path: None,
                bytes: None,
            });
            continue;
        };
        if skin.pictures.len() > 1 {
            eprintln!(
                "{}: warning: skin {i} is a group of {} pictures; MD2 keeps the first",
                args.output.display(),
                skin.pictures.len()
            );
        }
        let bytes = match (&picture.pixels, options.palette) {
            (Pixels::Indexed { .. }, None) => {
                kept_palette = true;
                pcx::encode(picture)
            }
            _ => None,
        }
        .unwrap_or_else(|| {
            let palette = options.palette.unwrap_or(Palette::QUAKE);
            let indices = picture.to_indexed(&palette, 255);
            pcx::encode_indexed(picture.width, picture.height, &indices, &palette)
        });
        let name = format!("{stem}_skin{i}.pcx");
        out.push(SkinFile {
            path: Some(dir.join(&name)),
            name,
            bytes: Some(bytes),
        });
    }
    if kept_palette {
        eprintln!(
            "{}: warning: skins keep the model's palette; Quake 2 draws 8-bit skins with its \
             own (pics/colormap.pcx): pass --target-palette with it to match the pictures to it",
            args.output.display()
        );
    }
    out
}

/// Writes one pose as OBJ with its MTL and PNG skins beside it.
fn write_obj(args: &Args, doc: &Document<'_>) -> Result<ExitCode> {
    if !args.force && args.output.exists() {
        bail!(
            "{} exists; pass --force to replace it",
            args.output.display()
        );
    }
    let side = args.side.load()?;
    let converted = doc.to_model(&ConvertOptions::default(), &resolver(&args.input, &side));
    for w in &converted.warnings {
        eprintln!("{}: warning: {w}", args.input.display());
    }
    let model = &converted.model;
    let dir = args.output.parent().unwrap_or(Path::new(""));
    let stem = output_stem(&args.output);
    let mut pictures = Vec::new();
    for (i, skin) in model.skins.iter().enumerate() {
        if let Some(p) = skin.pictures.first() {
            let name = format!("{stem}_skin{i}.png");
            pictures.push((name, p.to_png().context("PNG encoding failed")?));
        }
    }
    let names: Vec<String> = pictures.iter().map(|(n, _)| n.clone()).collect();
    let mtl_name = format!("{stem}.mtl");
    let obj = retromodel::formats::obj::to_obj(model, args.frame, &mtl_name, &names)?;
    for (name, png) in &pictures {
        files::write_atomic(&dir.join(name), png, args.force)?;
    }
    files::write_atomic(&dir.join(&mtl_name), obj.mtl.as_bytes(), args.force)?;
    files::write_atomic(&args.output, obj.obj.as_bytes(), args.force)?;
    eprintln!(
        "{} -> {} (frame {}, {} skins)",
        args.input.display(),
        args.output.display(),
        args.frame,
        pictures.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// The output's file name without extension, the stem of the side files written with it.
fn output_stem(output: &Path) -> String {
    output
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "model".into())
}
