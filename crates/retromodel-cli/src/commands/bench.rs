//! `retromodel bench`: load throughput.

use std::hint::black_box;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{bail, Result};
use retromodel::formats::md2;
use retromodel::{ConvertOptions, Document, Limits, NoFiles, WriteOptions};

use crate::files;

/// Load every file into a complete Model (every pose and every skin picture decoded)
/// ROUNDS times in one process and print one line:
/// `files=F bytes=B rounds=N seconds=S MBps=M files_per_s=R`.
///
/// Files are read into memory first; only parsing and conversion are timed. Files that do
/// not load are reported and left out.
///
/// With --gl-commands, time MD2 GL command generation instead (strips and fans for each
/// model's triangle list; MDL files are converted to MD2 first, untimed) and print
/// `files=F triangles=T rounds=N seconds=S triangles_per_s=X`.
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
    /// Time GL command generation for MD2 instead of loading.
    #[arg(long, conflicts_with = "parse_only")]
    gl_commands: bool,
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
    if args.gl_commands {
        return bench_gl_commands(&data, args.rounds, skipped);
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

/// Times [`md2::glcmds::generate`] over the triangle lists of `data`.
fn bench_gl_commands(data: &[Vec<u8>], rounds: u32, skipped: usize) -> Result<ExitCode> {
    let limits = Limits::default();
    let mut inputs = Vec::new();
    for b in data {
        let doc = Document::parse(b, &limits)?;
        let file = match doc {
            Document::Md2(f) => f.into_owned(),
            other => {
                let model = other.to_model(&ConvertOptions::default(), &NoFiles).model;
                md2::from_model(&model, &WriteOptions::default())?.file
            }
        };
        inputs.push(file);
    }
    let triangles: usize = inputs.iter().map(|f| f.triangles.len()).sum();
    let start = Instant::now();
    for _ in 0..rounds {
        for f in &inputs {
            let h = &f.header;
            black_box(md2::glcmds::generate(
                &f.triangles,
                &f.texcoords,
                h.skinwidth,
                h.skinheight,
            ));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    outln!(
        "files={} triangles={} rounds={} seconds={:.3} triangles_per_s={:.0}",
        inputs.len(),
        triangles,
        rounds,
        secs,
        triangles as f64 * rounds as f64 / secs
    );
    if skipped > 0 {
        eprintln!("{skipped} files left out");
    }
    Ok(ExitCode::SUCCESS)
}
