//! `retromodel info`: what a file holds.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use retromodel::summary::Value;
use retromodel::{Document, Limits, Summary};
use serde_json::{json, Map};

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
            let anims = listed.was_listed().then(|| {
                c.model
                    .animations
                    .iter()
                    .filter_map(|a| {
                        Some(AnimBeside {
                            file: listed.file_of(&a.name)?,
                            frames: a.frames.len(),
                            fps: a.fps,
                        })
                    })
                    .collect()
            });
            let sources = c.model.skins.iter().map(|k| k.source.clone()).collect();
            Ok((doc.summary(&c), anims, sources))
        })();
        let result = match (result, args.json) {
            (Ok((s, anims, sources)), true) => {
                let mut v = to_json(path, &s);
                if sources.iter().any(Option::is_some) {
                    v["skin_sources"] = json!(sources);
                }
                if let Some(anims) = anims {
                    v["animations"] = anims
                        .iter()
                        .map(|a| json!({"file": a.file, "frames": a.frames, "fps": float(a.fps)}))
                        .collect();
                }
                outln!("{v}");
                Ok(())
            }
            (Ok((s, anims, sources)), false) => {
                print_text(path, &s);
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
type Loaded = (Summary, Option<Vec<AnimBeside>>, Vec<Option<String>>);

/// An animation a skeletal model took from a file beside it.
struct AnimBeside {
    file: String,
    frames: usize,
    fps: f32,
}

/// An f32 as the shortest JSON number that reads back to it (0.1, not 0.10000000149).
fn float(v: f32) -> serde_json::Value {
    if v.is_finite() {
        let n: f64 = v.to_string().parse().unwrap_or(v as f64);
        json!(n)
    } else {
        json!(v.to_string())
    }
}

fn value(v: &Value) -> serde_json::Value {
    match v {
        Value::Int(i) => json!(i),
        Value::Float(f) => float(*f),
        Value::Floats(fs) => fs.iter().map(|&f| float(f)).collect(),
        Value::Text(t) => json!(t),
    }
}

fn to_json(path: &Path, s: &Summary) -> serde_json::Value {
    let header: Map<String, serde_json::Value> = s
        .header
        .iter()
        .map(|(k, v)| (k.to_string(), value(v)))
        .collect();
    let clips: Vec<serde_json::Value> = s
        .clips
        .iter()
        .map(|c| {
            json!({
                "name": c.name,
                "first": c.first,
                "count": c.count,
                "fps": float(c.fps),
                "seconds": float(retromodel::model::retime::clip_duration(c)),
            })
        })
        .collect();
    json!({
        "path": path.display().to_string(),
        "format": s.format,
        "version": s.version,
        "header": header,
        "vertices": s.vertices,
        "triangles": s.triangles,
        "poses": s.poses,
        "frame_groups": s.frame_groups,
        "skins": s.skins,
        "skin_names": s.skin_names,
        "skin_pictures": s.skin_pictures,
        "clips": clips,
        "joints": s.joints,
        "meshes": s.meshes,
        "bounds": s.bounds.map(|[lo, hi]| json!({
            "min": lo.iter().map(|&f| float(f)).collect::<Vec<_>>(),
            "max": hi.iter().map(|&f| float(f)).collect::<Vec<_>>(),
        })),
        "trailing_bytes": s.trailing_bytes,
        "warnings": s.warnings,
    })
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
        .map(|(k, v)| format!("{k}={}", value(v)))
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
