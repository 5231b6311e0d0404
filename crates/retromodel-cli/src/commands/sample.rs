//! `retromodel sample`: write a generated demo model.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use retromodel::registry;

use crate::files;

/// Write a small generated model that uses every part of its format, for trying the other
/// commands without a game install. `.mdl`: a Quake MDL with a skin group, a frame group,
/// on-seam vertices on back-facing triangles, MF_HOLEY and trailing data. `.md2`: an MD2
/// with GL strips and fans, three skin paths (one of 64 bytes without NUL), frame padding,
/// a gap between sections and trailing data.
///
/// Example: `retromodel sample demo.mdl && retromodel info demo.mdl`
#[derive(clap::Args)]
pub struct Args {
    /// Where to write the model (.mdl or .md2).
    output: PathBuf,
    /// Replace OUTPUT if it exists.
    #[arg(long)]
    force: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let ext = args
        .output
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    let sample = registry::codecs()
        .iter()
        .filter(|c| {
            c.formats()
                .iter()
                .any(|f| f.extensions().contains(&ext.as_str()))
        })
        .find_map(|c| c.sample());
    let Some(bytes) = sample else {
        let mut exts: Vec<&str> = Vec::new();
        for e in registry::codecs()
            .iter()
            .filter(|c| c.sample().is_some())
            .flat_map(|c| c.formats().iter().flat_map(|f| f.extensions().first()))
        {
            if !exts.contains(e) {
                exts.push(e);
            }
        }
        bail!(
            "{}: no sample for the extension \"{ext}\" (use .{})",
            args.output.display(),
            exts.join(" or .")
        );
    };
    files::write_atomic(&args.output, &bytes, args.force)?;
    eprintln!("wrote {} ({} bytes)", args.output.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}
