//! `retromodel validate`: engine limits.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{anyhow, Result};
use retromodel::{registry, Document, Limits, Severity};

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
    /// Engine whose limits apply; by default each file's format's default engine (its
    /// family's first, unless an engine below is named the default for that format). Per
    /// format family (the family's default first):
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(engine_names()),
          long_help = engine_help())]
    engine: Option<String>,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let inputs = files::collect_inputs(&args.paths);
    let mut tally = Tally::new(inputs.len());
    for input in &inputs {
        let path = &input.path;
        let result = (|| -> Result<()> {
            let bytes = input.read()?;
            let doc = Document::parse(&bytes, &Limits::default())?;
            let engine = args.engine.as_deref().unwrap_or(doc.default_engine());
            // Side files (a .gltf's buffers) beside the file; an interchange file checked
            // against a classic format's engine is checked as converted.
            let resolver = retromodel::vfs::PathResolver::new(files::archives(), path, None, None);
            let diags = if retromodel::rerelease::Game::of_engine(engine).is_some() {
                // A re-release engine checks the classic model's MD5 replacement.
                if retromodel::rerelease::Game::of_format(doc.format().name()).is_none() {
                    return Err(anyhow!(
                        "{engine} checks the MD5 replacement of a Quake II .md2 or a Quake .mdl; this is {}",
                        doc.format().description()
                    ));
                }
                let classic = doc.to_model(&Default::default(), &resolver);
                retromodel::rerelease::validate_pair(engine, &classic.model, &resolver)
            } else {
                doc.validate_with(Some(engine), &Default::default(), &resolver)
                    .map_err(|e| anyhow!(e))?
            };
            let errors = diags
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .count();
            if diags.is_empty() {
                match doc.checked_as(engine) {
                    Some(f) => outln!(
                        "{}: ok ({engine}, as converted to {})",
                        path.display(),
                        f.description()
                    ),
                    None => outln!("{}: ok ({engine})", path.display()),
                }
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

/// Every engine `--engine` takes: the codecs' and the re-release pairs'.
fn engine_names() -> Vec<&'static str> {
    let mut names = registry::engine_names();
    names.extend(retromodel::rerelease::ENGINES.iter().map(|e| e.0));
    names
}

/// `--engine`'s long help: each format family's engines from the registry, the default first.
fn engine_help() -> String {
    let mut out = String::from(
        "Engine whose limits apply; by default each file's format's default engine (its \
         family's first, unless an engine below is named the default for that format). Per \
         format family (the family's default first):",
    );
    let mut seen: Vec<&str> = Vec::new();
    for codec in registry::codecs() {
        if seen.contains(&codec.family()) {
            continue;
        }
        seen.push(codec.family());
        let engines: Vec<String> = codec
            .engines()
            .iter()
            .map(|e| format!("{} ({})", e.name, e.description))
            .collect();
        out.push_str(&format!("\n  {}: {}", codec.family(), engines.join(", ")));
    }
    let pairs: Vec<String> = retromodel::rerelease::ENGINES
        .iter()
        .map(|e| format!("{} ({})", e.0, e.2))
        .collect();
    out.push_str(&format!(
        "\n  re-release MD5 replacements of an MD2 or MDL (the pair checked): {}",
        pairs.join(", ")
    ));
    out
}
