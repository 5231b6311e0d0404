//! `retromodel convert`: write a model in another (or the same) format.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Result};
use retromodel::{Document, Format, Limits};

use crate::files;

/// Convert a model file. With the same format and no edits the output is the input byte for
/// byte. The output is written to a temporary file and renamed into place; an existing file
/// (the input included) is only replaced with --force.
///
/// Example: `retromodel convert progs/player.mdl out/player.mdl`
#[derive(clap::Args)]
pub struct Args {
    /// The model to read.
    input: PathBuf,
    /// The file to write; its extension picks the format.
    output: PathBuf,
    /// Replace OUTPUT if it exists, even when it is the input.
    #[arg(long)]
    force: bool,
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
            "{}: cannot tell the output format from the extension {ext:?} (use .mdl)",
            args.output.display()
        );
    };
    if target != doc.format() {
        bail!(
            "converting {} to {} is not supported yet",
            doc.format().name(),
            target.name()
        );
    }
    let out = doc.write();
    files::write_atomic(&args.output, &out, args.force)?;
    eprintln!(
        "{} -> {} ({} bytes, {})",
        args.input.display(),
        args.output.display(),
        out.len(),
        if out == bytes {
            "byte-identical"
        } else {
            "rewritten"
        }
    );
    Ok(ExitCode::SUCCESS)
}
