//! `retromodel bench`: load throughput.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use retromodel::{ConvertOptions, Document, Limits, NoFiles};

use crate::files;

/// Load every file into a complete Model (every pose and every skin picture decoded)
/// ROUNDS times in one process and print one line:
/// `files=F bytes=B rounds=N seconds=S MBps=M files_per_s=R`.
///
/// Files are read into memory first; only parsing and conversion are timed. Files that do
/// not load are reported and left out.
///
/// Example: `retromodel bench ../shared/corpus/quake_mdl --rounds 20`
#[derive(clap::Args)]
pub struct Args {
    /// Model files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// How many times to load the whole set.
    #[arg(long, default_value_t = 10)]
    rounds: u32,
    /// Time parsing alone (bytes to the raw structures), without building the Model.
    #[arg(long)]
    parse_only: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let limits = Limits::default();
    let options = ConvertOptions::default();
    let mut data = Vec::new();
    let mut skipped = 0;
    for path in files::collect_inputs(&args.paths) {
        let loaded = files::read(&path).and_then(|b| {
            Document::parse(&b, &limits)
                .map(|_| ())
                .map_err(Into::into)
                .map(|_| b)
        });
        match loaded {
            Ok(b) => data.push(b),
            Err(e) => {
                skipped += 1;
                eprintln!("{}: {e:#} (left out)", path.display());
            }
        }
    }
    if data.is_empty() {
        bail!("no loadable model files");
    }
    let bytes: usize = data.iter().map(Vec::len).sum();
    let start = Instant::now();
    for _ in 0..args.rounds {
        for b in &data {
            let doc = Document::parse(b, &limits)?;
            if !args.parse_only {
                black_box(doc.to_model(&options, &NoFiles));
            }
            black_box(doc);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let total = args.rounds as f64;
    outln!(
        "files={} bytes={} rounds={} seconds={:.3} MBps={:.1} files_per_s={:.0}",
        data.len(),
        bytes,
        args.rounds,
        secs,
        bytes as f64 * total / secs / 1e6,
        data.len() as f64 * total / secs
    );
    if skipped > 0 {
        eprintln!("{skipped} files left out");
    }
    Ok(ExitCode::SUCCESS)
}
