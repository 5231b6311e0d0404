//! Applying a pair: the replacement shown in the classic model's place ([`apply`]), and
//! `--prefer md5` as reading a file applies it ([`replace_if_preferred`]).

use super::game::Game;
use super::layout::names;
use super::pair::{find, Replacement};
use crate::codec::Format;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::model::{self, Clip, Converted, SkeletalAnimation, WeightScales};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;

/// The model to show in the classic model's place: the replacement's meshes, joints and skins
/// (the classic skins where none was found), its animation cut into the classic model's clips
/// (`run1`..`run8` of an MD2 become the animation `run`), and its poses baked into frames that
/// carry the classic model's frame names and bounds (the engine culls with the classic
/// bounds), so that keyframe writers down-convert it. Frames the MD5 lacks are left out; MD5
/// frames past the classic ones keep baked names.
pub fn apply(classic: &Converted, rep: &Replacement) -> Result<Converted> {
    apply_with(classic, rep, &Limits::default())
}

/// [`apply`], the baking within `limits`.
pub fn apply_with(classic: &Converted, rep: &Replacement, limits: &Limits) -> Result<Converted> {
    let fail = |m: String| Error::new("rerelease", ErrorKind::InvalidModel, m, Location::None);
    let Some(full) = rep.model.animations.first() else {
        return Err(fail(format!("{} has no animation", rep.names.anim)));
    };
    let mut warnings = rep.warnings.clone();
    let mut source = rep.model.clone();
    if source.skins.is_empty() && !classic.model.skins.is_empty() {
        source.skins = classic.model.skins.clone();
        let first = Some(0);
        for m in &mut source.meshes {
            m.skin = first;
        }
        warnings.push("the replacement's skins were not found; the classic skins are shown".into());
    }
    // Frames at the classic rate: frame N of the MD5 plays when the classic model shows N.
    let fps = classic.model.clips.first().map_or(10.0, |c| c.fps);
    source.animations = vec![SkeletalAnimation {
        fps,
        ..full.clone()
    }];
    let baked = model::bake::bake_skeletal_with(&source, None, limits)?;
    warnings.extend(baked.warnings);
    let mut out = baked.model;
    let n = out.frames.len();
    if n == 0 {
        return Err(fail(format!("{} has no frames", rep.names.anim)));
    }
    // Every classic frame shows MD5 frame `frame % numFrames` (q2pro's lerp_alias_skeleton):
    // a shorter MD5 repeats from its start.
    let classic_frames = classic.model.frames.len();
    if classic_frames > n {
        warnings.push(format!(
            "{} has {n} frames, the classic model {classic_frames}: frames past {n} show the \
             MD5's frame number modulo {n}, as q2pro does",
            rep.names.anim
        ));
        for f in n..classic_frames {
            let copy = out.frames[f % n].clone();
            out.frames.push(copy);
            for m in &mut out.meshes {
                let t = m.morph_targets[f % n].clone();
                m.morph_targets.push(t);
            }
        }
    }
    for (f, c) in out.frames.iter_mut().zip(&classic.model.frames) {
        f.name.clone_from(&c.name);
        f.bounds_min = c.bounds_min;
        f.bounds_max = c.bounds_max;
    }
    let shown = out.frames.len();
    // The classic clips, cut to the frames there are; each becomes an animation too.
    out.clips = classic
        .model
        .clips
        .iter()
        .filter(|c| c.first < shown && c.count > 0)
        .map(|c| Clip {
            count: c.count.min(shown - c.first),
            ..c.clone()
        })
        .collect();
    if out.clips.is_empty() {
        out.clips = model::clips_from_frame_names(
            out.frames
                .iter()
                .enumerate()
                .map(|(i, f)| (i, f.name.as_str())),
            fps,
        );
    }
    out.animations = out.clips.iter().map(|c| slice_animation(full, c)).collect();
    out.animation_scales.clear();
    // The MDL's flags, synctype and eye position stay.
    out.mdl_extras = classic.model.mdl_extras;
    warnings.push(format!(
        "the {} re-release replacement {} is shown in the classic model's place",
        rep.game.describe(),
        rep.files("with", "and"),
    ));
    Ok(Converted {
        model: out,
        warnings,
    })
}

/// Frames `clip.first..clip.first + clip.count` of `a` (weight scales included; a frame past
/// the animation's end is its frame number modulo the frame count, as q2pro plays it), at the
/// clip's rate, named after the clip.
fn slice_animation(a: &SkeletalAnimation, clip: &Clip) -> SkeletalAnimation {
    let n = a.frames.len().max(1);
    let pick = |f: usize| f % n;
    let range = clip.first..clip.first + clip.count;
    SkeletalAnimation {
        name: clip.name.clone(),
        fps: clip.fps,
        frames: range
            .clone()
            .filter_map(|f| a.frames.get(pick(f)).cloned())
            .collect(),
        bounds: if a.bounds.len() == a.frames.len() {
            range
                .clone()
                .filter_map(|f| a.bounds.get(pick(f)).copied())
                .collect()
        } else {
            Vec::new()
        },
        loops: false,
        weight_scales: a.weight_scales.as_ref().map(|ws| WeightScales {
            frames: range
                .filter_map(|f| ws.frames.get(pick(f)).cloned())
                .collect(),
            scale_positions: ws.scale_positions.clone(),
        }),
    }
}

/// `converted` (a model read from a file of `format`) with its re-release replacement in its
/// place when [`ConvertOptions::prefer_md5`] asks for it and `format` has a re-release (a
/// Quake II MD2, a Quake MDL): [`apply`] of the pair the engine would use; a pair it would
/// refuse, or none, is named in a warning and the classic model kept
/// ([`crate::document::Document::to_model`]).
pub fn replace_if_preferred(
    converted: Converted,
    format: Format,
    options: &ConvertOptions,
    resolver: &dyn Resolver,
) -> Converted {
    if !options.prefer_md5 {
        return converted;
    }
    match Game::of_format(format.name()) {
        Some(game) => prefer_replacement(converted, game, resolver),
        None => converted,
    }
}

/// The classic model's re-release replacement in its place, when usable.
fn prefer_replacement(mut converted: Converted, game: Game, resolver: &dyn Resolver) -> Converted {
    let Some(rep) = find(game, &converted.model, resolver) else {
        converted.warnings.push(format!(
            "--prefer md5: no {} re-release replacement ({}) found; the classic model is shown",
            game.describe(),
            resolver
                .model_name()
                .map(|n| names(game, &n).mesh)
                .unwrap_or_default()
        ));
        return converted;
    };
    if !rep.usable() {
        for c in rep.checks.iter().filter(|c| c.error) {
            converted
                .warnings
                .push(format!("re-release replacement not used: {}", c.message));
        }
        return converted;
    }
    match apply(&converted, &rep) {
        Ok(mut out) => {
            out.warnings.extend(
                rep.checks
                    .iter()
                    .map(|c| format!("re-release replacement: {}", c.message)),
            );
            out
        }
        Err(e) => {
            converted
                .warnings
                .push(format!("re-release replacement not used: {e}"));
            converted
        }
    }
}
