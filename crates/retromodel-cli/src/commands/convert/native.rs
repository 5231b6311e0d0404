//! Every output: the same format as the input (written back), or any registered writer
//! from the input's Model ([`registry::write_model`]: MDL, MD2, MD3, MD5, glTF, OBJ), its
//! side files beside it.

use std::path::Path;

use anyhow::{bail, Result};
use retromodel::image::Palette;
use retromodel::options::{ClipSplit, Filter, Frames};
use retromodel::registry::{self, Target};
use retromodel::WriteOptions;

use super::{output_dir, output_stem, Args, Input, Plan};
use crate::files;

/// Plans writing `input` as `target`.
pub(super) fn plan(args: &Args, input: &Input<'_>, output: &Path, target: Target) -> Result<Plan> {
    let mut plan = Plan::default();
    let writer = match target {
        Target::WriteBack(f) => {
            let Some(doc) = input.doc.as_ref().filter(|d| d.format() == f) else {
                bail!("{}: not a {} file", input.path.display(), f.description());
            };
            let out = doc.write();
            plan.summary = format!(
                "{} -> {} ({} bytes, {})",
                input.path.display(),
                output.display(),
                out.len(),
                if out == input.bytes {
                    "byte-identical"
                } else {
                    "rewritten"
                }
            );
            plan.files.push((output.to_path_buf(), out));
            return Ok(plan);
        }
        Target::ReadOnly(f) => bail!(
            "converting {} to {} is not supported yet",
            input.format_name(),
            f.name()
        ),
        Target::Convert(w) => w,
    };
    let converted = input.model(args, &mut plan.notes)?;
    let model = &converted.model;
    let palette = match files::load_palette(args.target_palette.as_deref())? {
        Some(p) => Some(Palette::from_lmp(&p)?),
        None => None,
    };
    let options = WriteOptions {
        strict: args.strict,
        skin_paths: args.skin_path.clone(),
        palette,
        fullbrights: args.fullbrights,
        dither: args.dither,
        fps: args.fps,
        stem: output_stem(output),
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
        embed: args.embed,
        frame: args.frame,
    };
    let written = registry::write_model(model, writer, &options)?;
    plan.notes.extend(
        written
            .notes
            .iter()
            .map(|n| format!("{}: {n}", input.path.display())),
    );
    plan.notes.extend(
        written
            .warnings
            .iter()
            .map(|w| format!("{}: warning: {w}", output.display())),
    );
    if args.verbose {
        for (i, (e, f)) in written.frame_errors.iter().zip(&model.frames).enumerate() {
            plan.notes.push(format!(
                "  frame {i} {:?}: largest position error {e:.5}",
                f.name
            ));
        }
        // Lines that start with a space continue the report; the others are said of the
        // written file.
        plan.notes.extend(written.details.iter().map(|d| {
            if d.starts_with(' ') {
                d.clone()
            } else {
                format!("{}: {d}", output.display())
            }
        }));
    }
    let dir = output_dir(output);
    let mut lines = String::new();
    for side in &written.side_files {
        let path = dir.join(&side.name);
        // A writer's own closing words count its side files.
        if written.summary.is_none() {
            lines.push_str(&format!(
                "{}: {} written as {}\n",
                output.display(),
                side.kind,
                path.display()
            ));
        }
        plan.files.push((path, side.bytes.clone()));
    }
    let what = written
        .summary
        .clone()
        .unwrap_or_else(|| format!("{} bytes, converted", written.bytes.len()));
    plan.summary = format!(
        "{lines}{} -> {} ({what})",
        input.path.display(),
        output.display(),
    );
    plan.files.push((output.to_path_buf(), written.bytes));
    Ok(plan)
}
