//! `retromodel info`: what a file holds.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use retromodel::front::{pair_engines, AnimationEntry};
use retromodel::Summary;
use serde_json::json;

use crate::files::{self, Tally};
use crate::SideFileArgs;

/// Print a summary of each model: format, header fields, counts, clips, warnings.
///
/// Example: `retromodel info progs/ --json > models.jsonl`
#[derive(clap::Args)]
pub struct Args {
    /// Model files or directories.
    #[arg(required = true)]
    paths: Vec<PathBuf>,
    /// One JSON object per file (JSON Lines) instead of text. A file that fails gives
    /// {"path": ..., "error": ...}.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    side: SideFileArgs,
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    let opener = args.side.opener(args.side.open_options())?;
    let inputs = files::collect_inputs(&args.paths);
    let mut tally = Tally::new(inputs.len());
    for input in &inputs {
        let path = &input.path;
        let result = input
            .read()
            .map_err(anyhow::Error::from)
            .and_then(|bytes| Ok(opener.open_read(path, bytes)?));
        let result = match (result, args.json) {
            (Ok(opened), true) => {
                outln!("{}", opened.info_json());
                Ok(())
            }
            (Ok(opened), false) => {
                print_text(path, &opened.summary);
                if let Some(p) = &opened.rerelease {
                    print_pair(p);
                }
                for (i, src) in opened.skin_sources.iter().enumerate() {
                    if let Some(src) = src {
                        outln!("  skin {i} picture: {src}");
                    }
                }
                print_animations(&opened.animations);
                Ok(())
            }
            (Err(e), true) => {
                outln!(
                    "{}",
                    json!({"path": path.display().to_string(), "error": format!("{e:#}")})
                );
                Err(e)
            }
            (Err(e), false) => Err(e),
        };
        tally.record(path, result);
    }
    Ok(tally.finish())
}

/// Every animation, a line each: name, kind, frames, rate, length, loop flag and file.
fn print_animations(animations: &[AnimationEntry]) {
    for a in animations {
        let looping = match a.looping {
            Some(true) => ", loops",
            Some(false) => ", plays once",
            None => "",
        };
        outln!(
            "  animation {:?}: {} frames at {} fps, {} s ({}{looping}) from {}",
            a.name,
            a.frames,
            a.fps,
            a.seconds,
            a.kind,
            a.file
        );
    }
}

/// The re-release replacement, as text lines.
fn print_pair(p: &retromodel::rerelease::Replacement) {
    let verdict = if p.usable() {
        format!("valid for {}", pair_engines(p).join(", "))
    } else {
        format!("refused by {}", pair_engines(p).join(", "))
    };
    outln!(
        "  {} re-release replacement: {} ({} joints, {} frames): {verdict}",
        p.game.describe(),
        p.files("+", "+"),
        p.model.joints.len(),
        p.anim_frames
    );
    for c in &p.checks {
        let kind = if c.error { "error" } else { "warning" };
        outln!("    {kind}: {}", c.message);
    }
}

fn float(v: f32) -> serde_json::Value {
    retromodel::summary::json_float(v)
}

fn print_text(path: &Path, s: &Summary) {
    outln!("{}: {} version {}", path.display(), s.format, s.version);
    outln!(
        "  {} meshes, {} vertices, {} triangles, {} poses ({} frame groups), {} joints",
        s.meshes,
        s.vertices,
        s.triangles,
        s.poses,
        s.frame_groups,
        s.joints
    );
    let found = s.skin_names.len().max(usize::from(s.skin_pictures > 0));
    if s.skins == 0 && found > 0 {
        // The file stores no skins, its meshes name pictures that were looked up.
        outln!(
            "  no skins stored; {found} looked up by name ({} pictures)",
            s.skin_pictures
        );
    } else {
        outln!("  {} skins ({} pictures)", s.skins, s.skin_pictures);
    }
    for (i, name) in s.skin_names.iter().enumerate() {
        if name.is_empty() {
            outln!("  skin {i}: (no name)");
        } else {
            outln!("  skin {i}: \"{}\"", name.escape_debug());
        }
    }
    let header: Vec<String> = s
        .header
        .iter()
        .map(|(k, v)| format!("{k}={}", v.to_json()))
        .collect();
    outln!("  header: {}", header.join(" "));
    if !s.clips.is_empty() {
        let clips: Vec<String> = s
            .clips
            .iter()
            .map(|c| {
                format!(
                    "{} [{}+{} @ {} fps]",
                    c.name,
                    c.first,
                    c.count,
                    float(c.fps)
                )
            })
            .collect();
        outln!("  clips: {}", clips.join(", "));
    }
    if s.trailing_bytes > 0 {
        outln!("  bytes outside the model data: {}", s.trailing_bytes);
    }
    for w in &s.warnings {
        outln!("  warning: {w}");
    }
}
