//! Every output: the same format as the input (written back), or any registered writer
//! from the input's Model ([`registry::write_model`]: MDL, MD2, MD3, MD5, glTF, OBJ), its
//! side files beside it.

use std::path::Path;

use anyhow::{bail, Context, Result};
use retromodel::image::Palette;
use retromodel::options::{ClipSplit, Filter, Frames};
use retromodel::registry::{self, Target};
use retromodel::WriteOptions;

use super::{output_dir, output_stem, Args, Input, Plan};
use crate::files;

/// Plans writing `input` as `target`.
pub(super) fn plan(args: &Args, input: &Input<'_>, output: &Path, target: Target) -> Result<Plan> {
    let mut plan = Plan::default();
    let writer = match moved(args, target)? {
        Target::WriteBack(f) => {
            let Some(doc) = input.doc.as_ref().filter(|d| d.format() == f) else {
                bail!("{}: not a {} file", input.path.display(), f.description());
            };
            if let Some(skin) = &args.skin {
                // The same format with a new skin: the file as stored, its skin replaced.
                let picture = crate::commands::skins::read_picture(skin)?;
                let options = WriteOptions {
                    palette: match files::load_palette(args.target_palette.as_deref())? {
                        Some(p) => Some(Palette::from_lmp(&p)?),
                        None => None,
                    },
                    dither: args.dither,
                    fullbrights: args.fullbrights,
                    ..WriteOptions::default()
                };
                let (files_out, said) =
                    crate::commands::skins::replaced(input.bytes, 0, &picture, output, &options)
                        .with_context(|| format!("--skin {}", skin.display()))?;
                plan.notes.extend(said);
                plan.summary = format!(
                    "{} -> {} (skin 0 replaced by {})",
                    input.path.display(),
                    output.display(),
                    skin.display()
                );
                // The main output last.
                let mut files_out = files_out;
                let main = files_out.remove(0);
                plan.files.extend(files_out);
                plan.files.push(main);
                return Ok(plan);
            }
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
        placement: placement(args, input, model)?,
        keep_skin_size: args.keep_skin_size,
        qc: args.qc,
    };
    let written = if args.rerelease {
        retromodel::rerelease::write_layout(model, writer, &options)?
    } else {
        registry::write_model(model, writer, &options)?
    };
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
        for (i, (e, name)) in written
            .frame_errors
            .iter()
            .zip(&written.frame_names)
            .enumerate()
        {
            plan.notes.push(format!(
                "  frame {i} \"{name}\": largest position error {e:.5}"
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

/// `--scale`, `--rotate` and `--fit-height`, and whether the input is in metres: a glTF or
/// OBJ input that [`retromodel::model::transform::looks_like_metres`], when neither a scale nor a height is given.
fn placement(
    args: &Args,
    input: &Input<'_>,
    model: &retromodel::Model,
) -> Result<retromodel::Placement> {
    let mut rotate = [0.0f32; 3];
    if let Some(r) = &args.rotate {
        let parts: Vec<&str> = r.split(',').map(str::trim).collect();
        if parts.len() > 3 {
            bail!("--rotate {r}: give YAW, YAW,PITCH or YAW,PITCH,ROLL in degrees");
        }
        for (k, p) in parts.iter().enumerate() {
            rotate[k] = p
                .parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    anyhow::anyhow!("--rotate {r}: \"{p}\" is not a number of degrees")
                })?;
        }
    }
    for (name, v) in [("--scale", args.scale), ("--fit-height", args.fit_height)] {
        if let Some(v) = v.filter(|v| !(v.is_finite() && *v > 0.0)) {
            bail!("{name} {v}: give a positive number");
        }
    }
    let interchange = input
        .doc
        .as_ref()
        .is_some_and(|d| registry::is_interchange(d.format()));
    let metres = interchange
        && args.scale.is_none()
        && args.fit_height.is_none()
        && retromodel::model::transform::looks_like_metres(model);
    Ok(retromodel::Placement {
        scale: args.scale,
        rotate,
        fit_height: args.fit_height,
        metres,
    })
}

/// A same-format target that `--scale`, `--rotate` or `--fit-height` asks to change: its
/// writer builds the file from the Model instead of writing the input back.
fn moved(args: &Args, target: Target) -> Result<Target> {
    let Target::WriteBack(f) = target else {
        return Ok(target);
    };
    // A classic model shown through its re-release replacement (--prefer md5) is rebuilt
    // from the replacement: the MD5 baked into the classic format.
    let replaced = (args.side.prefers_md5() || args.rerelease)
        && retromodel::rerelease::Game::of_format(f.name()).is_some();
    if args.scale.is_none() && args.rotate.is_none() && args.fit_height.is_none() && !replaced {
        return Ok(target);
    }
    match registry::writers().find(|w| w.format == f) {
        Some(w) => Ok(Target::Convert(w)),
        None => bail!(
            "--scale, --rotate and --fit-height rebuild the file, and {} is not written from a \
             model; convert to another format",
            f.description()
        ),
    }
}
