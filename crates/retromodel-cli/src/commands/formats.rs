//! `retromodel formats`: the registry's formats, as every front end lists them.

use std::process::ExitCode;

use anyhow::Result;
use serde_json::json;

/// List the formats retromodel reads and writes: name, description, file extensions, and the
/// writer variants (`--mdl quake|gs3|...`). The list comes from the library's registry, as
/// the Python package's `formats()`, the web page and the Blender extension take it.
///
/// Example: `retromodel formats --json`
#[derive(clap::Args)]
pub struct Args {
    /// One JSON object per format (JSON Lines).
    #[arg(long)]
    json: bool,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    for f in retromodel::front::formats() {
        if args.json {
            outln!(
                "{}",
                json!({
                    "name": f.name,
                    "description": f.description,
                    "extensions": f.extensions,
                    "read": f.read,
                    "write": !f.writers.is_empty(),
                    "variants": f.writers.iter().filter(|v| !v.is_empty()).collect::<Vec<_>>(),
                })
            );
            continue;
        }
        let exts: Vec<String> = f.extensions.iter().map(|e| format!(".{e}")).collect();
        let variants: Vec<&str> = f
            .writers
            .iter()
            .copied()
            .filter(|v| !v.is_empty())
            .collect();
        let write = match (f.writers.is_empty(), variants.is_empty()) {
            (true, _) => "read".to_string(),
            (false, true) => "read, write".to_string(),
            (false, false) => format!("read, write (--mdl {})", variants.join("|")),
        };
        outln!(
            "{:<14} {:<34} {:<22} {write}",
            f.name,
            f.description,
            exts.join(" ")
        );
    }
    Ok(ExitCode::SUCCESS)
}
