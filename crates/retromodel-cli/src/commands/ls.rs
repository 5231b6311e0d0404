//! `retromodel ls`: what an archive or a game folder holds.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use serde_json::json;

use crate::files;

/// List the files of an archive (.pak, .pk3, .pk4, .zip) or a game folder, with the format
/// of each model file (detected from its first bytes, as `info` does).
///
/// A folder is listed as the game sees it: its archives (pakN.pak in numeric order, then
/// .pk3/.pk4/.zip by name, a later one winning) under its loose files, each path once with the
/// archive or folder it comes from. Paths inside an archive are what the other commands take
/// after a colon: `retromodel info pak0.pak:progs/player.mdl`.
///
/// Examples: `retromodel ls mp-pak0.pk3 --models`, `retromodel ls baseoa/ --json`
#[derive(clap::Args)]
pub struct Args {
    /// An archive, `ARCHIVE:FOLDER` for a folder inside it, or a game folder.
    path: PathBuf,
    /// Only model files (by extension), with their detected formats.
    #[arg(long)]
    models: bool,
    /// One JSON object per file (JSON Lines): path, size, source, and format for models.
    #[arg(long)]
    json: bool,
    /// Look up paths ignoring case (listing is unchanged).
    #[arg(long)]
    ignore_case: bool,
}

/// Model extensions: every registered codec's (the formats detected but not read share
/// theirs: `.mdl`, `.wmp`).
fn model_extensions() -> Vec<&'static str> {
    retromodel::registry::extensions()
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    files::set_ignore_case(args.ignore_case);
    let names_tree = args.path.is_dir()
        || retromodel::inputs::is_archive(&args.path)
        || retromodel::vfs::split_archive_path(&args.path).is_some();
    if !names_tree {
        if args.path.exists() {
            bail!(
                "{}: not an archive (.pak, .pk3, .pk4, .zip) or a folder",
                args.path.display()
            );
        }
        bail!("{}: no such file or folder", args.path.display());
    }
    let tree = retromodel::inputs::tree_of(files::archives(), &args.path)?;
    let fs = tree.fs;
    let prefix = tree.prefix;
    for w in fs.warnings() {
        eprintln!("warning: {w}");
    }
    let exts = model_extensions();
    let mut listed = 0usize;
    let mut unreadable = 0usize;
    for f in fs.files_under(&prefix) {
        // `ARCHIVE:FILE`: that file alone.
        if tree.file.as_ref().is_some_and(|file| *file != f.path) {
            continue;
        }
        let ext = f
            .path
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase())
            .unwrap_or_default();
        let is_model = exts.contains(&ext.as_str());
        if args.models && !is_model {
            continue;
        }
        let format = if is_model {
            match fs.read(&f.path) {
                Some(Ok(bytes)) => Some(match retromodel::detect(&bytes) {
                    Some(fmt) if fmt.is_supported() => fmt.name().to_string(),
                    Some(fmt) => format!("{} (not supported)", fmt.name()),
                    None => "unknown".to_string(),
                }),
                Some(Err(e)) => {
                    unreadable += 1;
                    eprintln!("{}:{}: {e}", args.path.display(), f.path);
                    Some("unreadable".to_string())
                }
                None => None,
            }
        } else {
            None
        };
        listed += 1;
        if args.json {
            let mut v = json!({"path": f.path, "size": f.size, "source": f.source});
            if let Some(fmt) = &format {
                v["format"] = json!(fmt);
            }
            outln!("{v}");
        } else {
            match &format {
                Some(fmt) => outln!("{:>10}  {}  [{fmt}]", f.size, f.path),
                None => outln!("{:>10}  {}", f.size, f.path),
            }
        }
    }
    let layers = fs.layer_names().len();
    eprintln!(
        "{listed} {} from {layers} {}",
        if args.models { "model files" } else { "files" },
        if layers == 1 { "source" } else { "sources" }
    );
    Ok(if unreadable > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
