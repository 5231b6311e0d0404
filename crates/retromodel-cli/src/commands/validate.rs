//! `retromodel validate`: engine limits.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use retromodel::{Document, Format, Limits, Severity};

use crate::files::{self, Tally};

/// Check models against the limits of the engine that will load them (vertex, triangle,
/// frame and skin counts, skin size, seam flags, group intervals).
///
/// Prints each finding as a warning or an error; exits 1 if any file has an error or cannot
/// be read.
///
/// Example: `retromodel validate progs/ --engine glquake`
#[derive(clap::Args)]
pub struct Args {
    /// Model files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// Engine whose limits apply. MDL: quake (software WinQuake), glquake, quakespasm (the
    /// default). MD2: quake2 (GL renderer, the default), quake2-soft (software renderer).
    /// MD5: doom3. 3D GameStudio: acknex (structure checks only; no engine limits yet).
    #[arg(long, value_parser = ["quake", "glquake", "quakespasm", "quake2", "quake2-soft", "doom3", "acknex"])]
    engine: Option<String>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = files::collect_inputs(&args.paths);
    let mut tally = Tally::new(inputs.len());
    for path in &inputs {
        let result = (|| -> Result<()> {
            let bytes = files::read(path)?;
            let doc = Document::parse(&bytes, &Limits::default())?;
            let engine = args.engine.as_deref().unwrap_or(match doc.format() {
                Format::Md2 => "quake2",
                Format::Md5Mesh | Format::Md5Anim | Format::Md5Camera => "doom3",
                Format::GameStudioMdl(_) | Format::Hmp(_) | Format::WmpText => "acknex",
                _ => "quakespasm",
            });
            let diags = doc.validate(Some(engine)).map_err(|e| anyhow!(e))?;
            let errors = diags
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            if diags.is_empty() {
                outln!("{}: ok ({engine})", path.display());
            }
            for d in &diags {
                outln!("{}: {d}", path.display());
            }
            if errors > 0 {
                Err(anyhow!("{errors} errors for {engine}"))
            } else {
                Ok(())
            }
        })();
        tally.record(path, result);
    }
    Ok(tally.finish())
}
