//! The command line's side of the front door's way out ([`retromodel::front::plan`]): the
//! flags as [`SaveOptions`], and the plan's report as the lines `convert` prints.

use std::path::Path;

use anyhow::{Context, Result};
use retromodel::front::{self, Opened, SaveOptions};

use super::{Args, Plan};

/// The front door's save options these flags ask for.
pub(super) fn save_options(args: &Args) -> SaveOptions {
    SaveOptions {
        force: args.force,
        variant: args.mdl.clone(),
        fps: args.fps,
        target_palette: args.target_palette.clone(),
        dither: args.dither,
        fullbrights: args.fullbrights,
        strict: args.strict,
        quantize: args.quantize && !args.no_quantize,
        compress: args.compress,
        embed: args.embed,
        skin: args.skin.clone(),
        skin_paths: args.skin_path.clone(),
        scale: args.scale,
        rotate: args.rotate.map(|r| r.0),
        fit_height: args.fit_height,
        keep_skin_size: args.keep_skin_size,
        qc: args.qc,
        frame: args.frame,
        clip_split: args.clip_split,
        frames: args.frames,
        filter: args.filter,
        rerelease: args.rerelease,
        bones: args.bones.map(|n| n as usize),
        external_textures: args.external_textures,
        sequence_group_size: args.sequence_group_size.map(|kb| kb as usize),
    }
}

/// Plans writing `input` to `output`, the report as lines.
pub(super) fn plan(args: &Args, input: &Opened, output: &Path) -> Result<Plan> {
    let shown_in = &input.shown;
    let planned = front::plan(&input.source(), output, &save_options(args))
        .with_context(|| shown_in.clone())?;
    let r = &planned.report;
    let out = output.display();
    let mut plan = Plan {
        files: planned.files.clone(),
        ..Plan::default()
    };
    if r.written_back {
        plan.summary = format!(
            "{shown_in} -> {out} ({} bytes, {})",
            r.bytes,
            if r.identical {
                "byte-identical"
            } else {
                "rewritten"
            }
        );
        return Ok(plan);
    }
    if let Some(skin) = &r.skin_replaced {
        plan.notes
            .extend(r.warnings.iter().map(|w| format!("{out}: warning: {w}")));
        plan.notes
            .extend(r.notes.iter().map(|n| format!("{out}: {n}")));
        for (path, kind) in &r.side_files {
            plan.notes
                .push(format!("{out}: {kind} written as {}", path.display()));
        }
        plan.summary = format!(
            "{shown_in} -> {out} (skin 0 replaced by {})",
            skin.display()
        );
        return Ok(plan);
    }
    plan.notes.extend(
        input
            .warnings
            .iter()
            .map(|w| format!("{shown_in}: warning: {w}")),
    );
    plan.notes
        .extend(r.notes.iter().map(|n| format!("{shown_in}: {n}")));
    plan.notes
        .extend(r.warnings.iter().map(|w| format!("{out}: warning: {w}")));
    if args.verbose {
        for (i, (e, name)) in r.frame_errors.iter().zip(&r.frame_names).enumerate() {
            plan.notes.push(format!(
                "  frame {i} \"{name}\": largest position error {e:.5}"
            ));
        }
        // Lines that start with a space continue the report; the others are said of the
        // written file.
        plan.notes.extend(r.details.iter().map(|d| {
            if d.starts_with(' ') {
                d.clone()
            } else {
                format!("{out}: {d}")
            }
        }));
    }
    let mut lines = String::new();
    if r.summary.is_none() {
        // A writer's own closing words count its side files.
        for (path, kind) in &r.side_files {
            lines.push_str(&format!("{out}: {kind} written as {}\n", path.display()));
        }
    }
    let main = planned.files.last().map_or(0, |(_, b)| b.len());
    let what = r
        .summary
        .clone()
        .unwrap_or_else(|| format!("{main} bytes, converted"));
    plan.summary = format!("{lines}{shown_in} -> {out} ({what})");
    Ok(plan)
}
