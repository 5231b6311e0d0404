//! `retromodel ls`: what an archive or a game folder holds.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use retromodel::vfs::GameFs;
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
    let (fs, prefix): (std::sync::Arc<GameFs>, String) = if args.path.is_dir() {
        let mut fs = files::new_game_fs();
        fs.mount_game_dir(&args.path)?;
        (std::sync::Arc::new(fs), String::new())
    } else if files::is_archive(&args.path) {
        (files::open_archive(&args.path)?, String::new())
    } else if let Some((archive, inner)) = files::split_archive_path(&args.path) {
        (files::open_archive(&archive)?, inner)
    } else if args.path.exists() {
        bail!(
            "{}: not an archive (.pak, .pk3, .pk4, .zip) or a folder",
            args.path.display()
        );
    } else {
        bail!("{}: no such file or folder", args.path.display());
    };
    for w in fs.warnings() {
        eprintln!("warning: {w}");
    }
    let prefix = prefix.trim_matches('/').to_string();
    let exts = model_extensions();
    let mut listed = 0usize;
    let mut unreadable = 0usize;
    for f in fs.files() {
        if !prefix.is_empty()
            && !f
                .path
                .strip_prefix(&prefix)
                .is_some_and(|r| r.starts_with('/'))
        {
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
