//! `retromodel sample`: write a generated demo model.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use retromodel::formats::quake_mdl::fixtures;

use crate::files;

/// Write a small generated Quake MDL that uses every part of the format (a skin group, a
/// frame group, on-seam vertices on back-facing triangles, MF_HOLEY, trailing data), for
/// trying the other commands without a game install.
///
/// Example: `retromodel sample demo.mdl && retromodel info demo.mdl`
#[derive(clap::Args)]
pub struct Args {
    /// Where to write the model.
    output: PathBuf,
    /// Replace OUTPUT if it exists.
    #[arg(long)]
    force: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let spec = fixtures::Spec {
        skin_width: 64,
        skin_height: 32,
        ..fixtures::Spec::everything()
    };
    let bytes = fixtures::build(&spec).write();
    files::write_atomic(&args.output, &bytes, args.force)?;
    eprintln!("wrote {} ({} bytes)", args.output.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}
