//! `retromodel sample`: write a generated demo model.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use retromodel::formats::{md2, quake_mdl};

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
    let md2 = args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("md2"));
    let bytes = if md2 {
        md2::fixtures::build(&md2::fixtures::Spec::everything()).write()
    } else {
        let spec = quake_mdl::fixtures::Spec {
            skin_width: 64,
            skin_height: 32,
            ..quake_mdl::fixtures::Spec::everything()
        };
        quake_mdl::fixtures::build(&spec).write()
    };
    files::write_atomic(&args.output, &bytes, args.force)?;
    eprintln!("wrote {} ({} bytes)", args.output.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}
