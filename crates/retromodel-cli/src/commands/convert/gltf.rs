//! glTF 2.0 output: `.glb`, or `.gltf` with side-car `.bin` and PNG files (or `--embed`).

use std::path::Path;

use anyhow::Result;
use retromodel::export::gltf::{self as export, ClipSplit, Filter, Frames, GltfOptions};

use super::{output_dir, output_stem, Args, Input, Plan};

/// The exporter's options from the command line.
fn options(args: &Args) -> GltfOptions {
    GltfOptions {
        fps: args.fps,
        clip_split: match args.clip_split.as_str() {
            "groups" => ClipSplit::Groups,
            "none" => ClipSplit::None,
            _ => ClipSplit::Names,
        },
        frames: if args.frames == "first" {
            Frames::First
        } else {
            Frames::All
        },
        filter: if args.filter == "linear" {
            Filter::Linear
        } else {
            Filter::Nearest
        },
        ..GltfOptions::default()
    }
}

/// Plans writing `input` as glTF.
pub(super) fn plan(args: &Args, input: &Input<'_>, output: &Path, binary: bool) -> Result<Plan> {
    let mut plan = Plan::default();
    let model = input.model(args, &mut plan.notes)?.model;
    let opts = options(args);
    let what = if binary {
        let (glb, warnings) = export::to_glb(&model, &opts)?;
        plan.notes.extend(
            warnings
                .iter()
                .map(|w| format!("{}: warning: {w}", output.display())),
        );
        let n = glb.len();
        plan.files.push((output.to_path_buf(), glb));
        format!("{n} bytes")
    } else if args.embed {
        let (json, warnings) = export::to_gltf_embedded(&model, &opts)?;
        plan.notes.extend(
            warnings
                .iter()
                .map(|w| format!("{}: warning: {w}", output.display())),
        );
        let n = json.len();
        plan.files.push((output.to_path_buf(), json.into_bytes()));
        format!("{n} bytes, embedded")
    } else {
        let stem = output_stem(output);
        let dir = output_dir(output);
        let bin_name = format!("{stem}.bin");
        let out = export::to_gltf_separate(&model, &opts, &bin_name, &stem)?;
        plan.notes.extend(
            out.warnings
                .iter()
                .map(|w| format!("{}: warning: {w}", output.display())),
        );
        let extra = out.images.len() + 1;
        for (name, png) in out.images {
            plan.files.push((dir.join(name), png));
        }
        plan.files.push((dir.join(&bin_name), out.bin));
        plan.files
            .push((output.to_path_buf(), out.json.into_bytes()));
        format!("{extra} side files")
    };
    plan.summary = format!(
        "{} -> {} ({what}; {} frames, {} clips, {} joints, {} animations)",
        input.path.display(),
        output.display(),
        model.frames.len(),
        model.clips.len(),
        model.joints.len(),
        model.animations.len()
    );
    Ok(plan)
}
