//! `retromodel info`: what a file holds.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use retromodel::summary::AnimationBeside;
use retromodel::{Document, Limits, Summary};
use serde_json::json;

use super::resolver;
use crate::files::{self, Listed, Tally};
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
    let side = args.side.load()?;
    let inputs = files::collect_inputs(&args.paths);
    let mut tally = Tally::new(inputs.len());
    for input in &inputs {
        let path = &input.path;
        let result = (|| -> Result<Loaded> {
            let bytes = input.read()?;
            let doc = Document::parse(&bytes, &Limits::default())?;
            let listed = Listed::new(resolver(path, &side));
            let c = doc.to_model(&side.convert_options(), &listed);
            // Formats that take side files (an md5mesh) list the animations they took.
            let anims = retromodel::summary::animations_beside(&c.model, &listed);
            let sources = c.model.skins.iter().map(|k| k.source.clone()).collect();
            // A classic model's re-release replacement, checked as its engine would.
            let pair = retromodel::rerelease::Game::of_format(doc.format().name()).and_then(|g| {
                let classic = if side.convert_options().prefer_md5 {
                    doc.to_model(&Default::default(), &listed)
                } else {
                    c.clone()
                };
                retromodel::rerelease::find(g, &classic.model, &listed)
            });
            Ok((doc.summary(&c), anims, sources, pair))
        })();
        let result = match (result, args.json) {
            (Ok((s, anims, sources, pair)), true) => {
                let mut v = retromodel::summary::info_json(
                    &path.display().to_string(),
                    &s,
                    &sources,
                    anims.as_deref(),
                );
                if let (Some(p), Some(o)) = (&pair, v.as_object_mut()) {
                    o.insert("rerelease".into(), pair_json(p));
                }
                outln!("{v}");
                Ok(())
            }
            (Ok((s, anims, sources, pair)), false) => {
                print_text(path, &s);
                if let Some(p) = &pair {
                    print_pair(p);
                }
                for (i, src) in sources.iter().enumerate() {
                    if let Some(src) = src {
                        outln!("  skin {i} picture: {src}");
                    }
                }
                for a in anims.iter().flatten() {
                    outln!(
                        "  animation beside it: {} ({} frames at {} fps)",
                        a.file,
                        a.frames,
                        float(a.fps)
                    );
                }
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

/// What `info` shows of one file: its summary, the animations it took from files beside it
/// (formats that take side files), and where each looked-up skin came from.
type Loaded = (
    Summary,
    Option<Vec<AnimationBeside>>,
    Vec<Option<String>>,
    Option<retromodel::rerelease::Replacement>,
);

/// The engines that would use a replacement of `p`'s game.
fn pair_engines(p: &retromodel::rerelease::Replacement) -> Vec<&'static str> {
    retromodel::rerelease::ENGINES
        .iter()
        .filter(|e| e.1 == p.game)
        .map(|e| e.0)
        .collect()
}

/// The re-release replacement, as text lines.
fn print_pair(p: &retromodel::rerelease::Replacement) {
    let verdict = if p.usable() {
        format!("valid for {}", pair_engines(p).join(", "))
    } else {
        format!("refused by {}", pair_engines(p).join(", "))
    };
    outln!(
        "  {} re-release replacement: {} + {}{} ({} joints, {} frames): {verdict}",
        p.game.describe(),
        p.names.mesh,
        p.names.anim,
        if p.has_scale {
            format!(" + {}", p.names.scale)
        } else {
            String::new()
        },
        p.model.joints.len(),
        p.anim_frames
    );
    for c in &p.checks {
        let kind = if c.error { "error" } else { "warning" };
        outln!("    {kind}: {}", c.message);
    }
}

/// The re-release replacement as a JSON value.
fn pair_json(p: &retromodel::rerelease::Replacement) -> serde_json::Value {
    json!({
        "game": p.game.describe(),
        "mesh": p.names.mesh,
        "anim": p.names.anim,
        "scale": p.has_scale.then(|| p.names.scale.clone()),
        "joints": p.model.joints.len(),
        "frames": p.anim_frames,
        "valid": p.usable(),
        "engines": pair_engines(p),
        "checks": p.checks.iter().map(|c| json!({"error": c.error, "message": c.message})).collect::<Vec<_>>(),
    })
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
