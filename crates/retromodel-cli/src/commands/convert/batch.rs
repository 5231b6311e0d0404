//! Batch conversion: every model under a folder into another folder, the tree kept, files
//! converted in parallel (rayon), a progress bar on a terminal (indicatif) and plain lines
//! otherwise, bad files reported while the others go on.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use retromodel::inputs::Input;

use super::Args;
use crate::files;

/// What happened to one input.
enum Outcome {
    Converted,
    Kept,
    /// A format the library detects but does not read yet.
    Unsupported,
    Failed,
}

/// Prints a line without tearing the progress bar.
fn say(bar: &ProgressBar, line: String) {
    if bar.is_hidden() {
        eprintln!("{line}");
    } else {
        bar.println(line);
    }
}

/// What `--to` accepts ([`retromodel::inputs::batch_formats`]).
pub(super) fn formats() -> Vec<&'static str> {
    retromodel::inputs::batch_formats()
}

/// Runs a folder conversion.
pub(super) fn run(args: &Args, opener: &retromodel::front::Opener<'_>) -> Result<ExitCode> {
    let formats = formats();
    let Some(to) = args.to.as_deref().map(str::to_ascii_lowercase) else {
        bail!(
            "{} holds many models: give the output format with --to ({})",
            args.input.display(),
            formats.join(", ")
        );
    };
    if !formats.contains(&to.as_str()) {
        bail!("--to {to}: expected {}", formats.join(", "));
    }
    if args.output.is_file() {
        bail!(
            "{} is a file; a batch writes into a folder",
            args.output.display()
        );
    }
    let inputs = retromodel::inputs::batch_inputs(files::archives(), &args.input, &to);
    if inputs.is_empty() {
        bail!("no model files under {}", args.input.display());
    }
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::with_draw_target(Some(inputs.len() as u64), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} files, {elapsed} ({per_sec}) {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let bytes_in = AtomicU64::new(0);
    let bytes_out = AtomicU64::new(0);
    let kept = AtomicUsize::new(0);
    let start = Instant::now();
    let outputs = retromodel::inputs::output_paths(&args.output, &inputs, &to);
    let outcomes: Vec<Outcome> = inputs
        .par_iter()
        .zip(&outputs)
        .map(|(input, out)| {
            let outcome = convert_one(args, opener, input, out, &bar, &bytes_in, &bytes_out);
            if matches!(outcome, Outcome::Kept) {
                kept.fetch_add(1, Ordering::Relaxed);
            }
            bar.inc(1);
            outcome
        })
        .collect();
    bar.finish_and_clear();
    let failed = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Failed))
        .count();
    let converted = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Converted))
        .count();
    let unsupported = outcomes
        .iter()
        .filter(|o| matches!(o, Outcome::Unsupported))
        .count();
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    let (bin, bout) = (bytes_in.into_inner(), bytes_out.into_inner());
    eprintln!(
        "{} files: {converted} converted, {} kept (already there; --force replaces them), \
         {unsupported} in formats not read yet, {failed} failed; {:.1} s, {:.0} files/s, {:.1} MB/s in, {:.1} MB in -> {:.1} MB out ({:.2}x)",
        inputs.len(),
        kept.into_inner(),
        secs,
        inputs.len() as f64 / secs,
        bin as f64 / 1e6 / secs,
        bin as f64 / 1e6,
        bout as f64 / 1e6,
        if bin > 0 { bout as f64 / bin as f64 } else { 0.0 }
    );
    Ok(if failed > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// Converts one file, reporting as it goes.
fn convert_one(
    args: &Args,
    opener: &retromodel::front::Opener<'_>,
    input: &Input,
    output: &Path,
    bar: &ProgressBar,
    bytes_in: &AtomicU64,
    bytes_out: &AtomicU64,
) -> Outcome {
    if !args.force && output.exists() {
        say(bar, format!("{}: kept (exists)", output.display()));
        return Outcome::Kept;
    }
    let result = (|| -> Result<super::Plan> {
        if let Some(dir) = output.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let bytes = input.read()?;
        let opened = opener
            .open_read(&input.path, bytes)
            .with_context(|| input.path.display().to_string())?;
        let p = super::native::plan(args, &opened, output)?;
        p.commit(args.force)?;
        Ok(p)
    })();
    match result {
        Ok(p) => {
            bytes_in.fetch_add(input.size(), Ordering::Relaxed);
            bytes_out.fetch_add(p.bytes() as u64, Ordering::Relaxed);
            if args.verbose {
                for n in &p.notes {
                    say(bar, n.clone());
                }
            }
            if bar.is_hidden() {
                say(bar, p.summary.clone());
            } else {
                bar.set_message(input.path.display().to_string());
            }
            Outcome::Converted
        }
        Err(e)
            if e.downcast_ref::<retromodel::front::Fail>()
                .is_some_and(|f| f.is_unsupported()) =>
        {
            say(bar, format!("skipped {e:#}"));
            Outcome::Unsupported
        }
        Err(e) => {
            let msg = format!("{e:#}");
            let shown = input.path.display().to_string();
            if msg.starts_with(&shown) {
                say(bar, format!("FAILED {msg}"));
            } else {
                say(bar, format!("FAILED {shown}: {msg}"));
            }
            Outcome::Failed
        }
    }
}
