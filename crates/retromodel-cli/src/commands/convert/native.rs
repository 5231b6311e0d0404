//! Model formats the library writes: the same format as the input (written back), MD2 and
//! MDL from any Model, MD5 from a skeletal Model.

use std::path::Path;

use anyhow::{bail, Result};
use retromodel::formats::{gs_mdl, md2, md5, quake_mdl};
use retromodel::image::{pcx, IndexOptions, Palette, Pixels};
use retromodel::{Format, Model, WriteOptions};

use super::{output_dir, output_stem, Args, Input, Plan};
use crate::files;

/// Plans writing `input` as `target`.
pub(super) fn plan(args: &Args, input: &Input<'_>, output: &Path, target: Format) -> Result<Plan> {
    let mut plan = Plan::default();
    if let Some(doc) = input.doc.as_ref().filter(|d| d.format() == target) {
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
    let mut converted = input.model(args, &mut plan.notes)?;
    let keyframes = matches!(
        target,
        Format::Md2 | Format::QuakeMdl | Format::GameStudioMdl(_)
    );
    if keyframes && converted.model.frames.is_empty() && !converted.model.joints.is_empty() {
        // An MD5 model: its animations sampled into poses.
        let baked = retromodel::import::bake::bake_skeletal(&converted.model, args.fps)?;
        plan.notes.extend(
            baked
                .warnings
                .iter()
                .map(|w| format!("{}: warning: {w}", input.path.display())),
        );
        plan.notes.push(format!(
            "{}: {} skeletal animations baked into {} frames",
            input.path.display(),
            converted.model.animations.len(),
            baked.model.frames.len()
        ));
        converted = baked;
    }
    if keyframes && converted.model.meshes.len() > 1 {
        plan.notes.push(format!(
            "{}: warning: {} meshes merged into one",
            output.display(),
            converted.model.meshes.len()
        ));
    }
    let model = &converted.model;
    let palette = match files::load_palette(args.target_palette.as_deref())? {
        Some(p) => Some(Palette::from_lmp(&p)?),
        None => None,
    };
    let mut options = WriteOptions {
        strict: args.strict,
        skin_paths: args.skin_path.clone(),
        palette,
        fullbrights: args.fullbrights,
        dither: args.dither,
    };
    let (out, warnings, errors) = match target {
        Format::Md2 => {
            if options.skin_paths.is_empty() {
                let skins = skin_files(output, model, &options, &mut plan.notes);
                options.skin_paths = skins.iter().map(|(name, _)| name.clone()).collect();
                let dir = output_dir(output);
                plan.files.extend(
                    skins
                        .into_iter()
                        .filter_map(|(name, bytes)| Some((dir.join(name), bytes?))),
                );
            }
            let w = md2::from_model(model, &options)?;
            (w.file.write(), w.warnings, w.frame_errors)
        }
        Format::QuakeMdl => {
            let w = quake_mdl::from_model(model, &options)?;
            (w.file.write(), w.warnings, w.frame_errors)
        }
        Format::GameStudioMdl(version) => {
            let w = gs_mdl::from_model(model, &options, version)?;
            (w.file.write(), w.warnings, w.frame_errors)
        }
        Format::Md5Mesh => {
            // Animations that did not come from md5anim files beside the input go out as
            // md5anims beside the output, one per animation.
            if input.format() != Some(Format::Md5Mesh) {
                let dir = output_dir(output);
                for (i, a) in model.animations.iter().enumerate() {
                    let name = format!("{}.md5anim", file_name(&a.name, i));
                    let anim = md5::write_anim(&md5::anim_from_model(model, i)?).into_bytes();
                    plan.files.push((dir.join(name), anim));
                }
            }
            (
                md5::write_mesh(&md5::mesh_from_model(model)?).into_bytes(),
                Vec::new(),
                Vec::new(),
            )
        }
        Format::Md5Anim => (
            md5::write_anim(&md5::anim_from_model(model, 0)?).into_bytes(),
            Vec::new(),
            Vec::new(),
        ),
        Format::Md5Camera => (
            md5::write_camera(&md5::camera_from_model(model)?).into_bytes(),
            Vec::new(),
            Vec::new(),
        ),
        other => bail!(
            "converting {} to {} is not supported yet",
            input.format_name(),
            other.name()
        ),
    };
    plan.notes.extend(
        warnings
            .iter()
            .map(|w| format!("{}: warning: {w}", output.display())),
    );
    if args.verbose {
        for (i, (e, f)) in errors.iter().zip(&model.frames).enumerate() {
            plan.notes.push(format!(
                "  frame {i} {:?}: largest position error {e:.5}",
                f.name
            ));
        }
    }
    let skins: Vec<String> = plan
        .files
        .iter()
        .map(|(p, _)| {
            let what = if p.extension().is_some_and(|e| e == "md5anim") {
                "animation"
            } else {
                "skin"
            };
            format!("{}: {what} written as {}\n", output.display(), p.display())
        })
        .collect();
    plan.summary = format!(
        "{}{} -> {} ({} bytes, converted)",
        skins.concat(),
        input.path.display(),
        output.display(),
        out.len()
    );
    plan.files.push((output.to_path_buf(), out));
    Ok(plan)
}

/// The skin paths to store in an MD2 and the PCX file of each (none for a skin without
/// picture, which keeps the model's name): each skin's first picture as
/// `OUTPUT_STEM_skinN.pcx`. Quake 2 draws 8-bit skins with its own palette
/// (`pics/colormap.pcx`), not the one in the PCX: with `--target-palette` the pictures are
/// matched to that palette, otherwise they keep theirs and a note says so.
fn skin_files(
    output: &Path,
    model: &Model,
    options: &WriteOptions,
    notes: &mut Vec<String>,
) -> Vec<(String, Option<Vec<u8>>)> {
    let stem = output_stem(output);
    let mut out = Vec::new();
    let mut kept_palette = false;
    for (i, skin) in model.skins.iter().enumerate() {
        let Some(picture) = skin.pictures.first() else {
            out.push((skin.name.clone(), None));
            continue;
        };
        if skin.pictures.len() > 1 {
            notes.push(format!(
                "{}: warning: skin {i} is a group of {} pictures; MD2 keeps the first",
                output.display(),
                skin.pictures.len()
            ));
        }
        let bytes = match (&picture.pixels, options.palette) {
            (Pixels::Indexed { .. }, None) => {
                kept_palette = true;
                pcx::encode(picture)
            }
            _ => None,
        }
        .unwrap_or_else(|| {
            let palette = options.palette.unwrap_or(Palette::QUAKE);
            let indexed = picture.to_indexed_with(
                &palette,
                &IndexOptions {
                    last: 255,
                    dither: options.dither,
                    transparent: None,
                },
            );
            pcx::encode_indexed(picture.width, picture.height, &indexed.indices, &palette)
        });
        out.push((format!("{stem}_skin{i}.pcx"), Some(bytes)));
    }
    if kept_palette {
        notes.push(format!(
            "{}: warning: skins keep the model's palette; Quake 2 draws 8-bit skins with its \
             own (pics/colormap.pcx): pass --target-palette with it to match the pictures to it",
            output.display()
        ));
    }
    out
}

/// A file name made from an animation name: characters other than letters, digits, `-`
/// and `_` become `_`; an empty name becomes `animationN`.
fn file_name(name: &str, index: usize) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() {
        format!("animation{index}")
    } else {
        clean
    }
}
