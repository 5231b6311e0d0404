//! glTF 2.0 output: `.glb`, or `.gltf` with side-car `.bin` and PNG files (or `--embed`).

use std::path::Path;

use anyhow::Result;
use retromodel::export::gltf::{
    self as export, ClipSplit, Container, Filter, Frames, GltfOptions, QuantizedMesh,
};

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
        quantize: args.quantize && !args.no_quantize,
        ..GltfOptions::default()
    }
}

/// Plans writing `input` as glTF.
pub(super) fn plan(args: &Args, input: &Input<'_>, output: &Path, binary: bool) -> Result<Plan> {
    let mut plan = Plan::default();
    let model = input.model(args, &mut plan.notes)?.model;
    let opts = options(args);
    let stem = output_stem(output);
    let container = if binary {
        Container::Glb
    } else if args.embed {
        Container::Embedded
    } else {
        Container::Separate {
            bin_name: format!("{stem}.bin"),
            image_prefix: stem,
        }
    };
    let out = export::export(&model, &opts, &container)?;
    plan.notes.extend(
        out.warnings
            .iter()
            .map(|w| format!("{}: warning: {w}", output.display())),
    );
    if args.verbose && opts.quantize {
        plan.notes
            .extend(quantization_notes(output, &out.quantized));
    }
    let n = out.file.len();
    let what = match container {
        Container::Glb => format!("{n} bytes"),
        Container::Embedded => format!("{n} bytes, embedded"),
        Container::Separate { .. } => format!("{} side files", out.side_files.len()),
    };
    let dir = output_dir(output);
    for (name, bytes) in out.side_files {
        plan.files.push((dir.join(name), bytes));
    }
    plan.files.push((output.to_path_buf(), out.file));
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

/// `-v` lines of a quantised export: each mesh's grid and largest errors, then the file's
/// largest position error.
fn quantization_notes(output: &Path, meshes: &[QuantizedMesh]) -> Vec<String> {
    let mut notes: Vec<String> = meshes
        .iter()
        .map(|m| {
            let grid = match m.step {
                Some([x, y, z]) if x == y && y == z => format!("grid step {x}"),
                Some(s) => format!("grid steps {s:?} (x, y, z of glTF)"),
                None => "float positions".to_string(),
            };
            format!(
                "  mesh {:?}: {grid}, largest position error {:.6}, normal error {:.3} degrees",
                m.name,
                m.position_error,
                m.normal_error.to_degrees()
            )
        })
        .collect();
    let largest = meshes.iter().map(|m| m.position_error).fold(0.0, f64::max);
    notes.push(format!(
        "{}: quantised, largest position error {largest:.6}",
        output.display()
    ));
    notes
}
