//! A model fitted to a target format before its writer sees it ([`crate::codec::Fit`]),
//! so that a conversion lands right in the target game, in this order:
//!
//! 1. **Placement** ([`Placement`]): rotation, then `--scale` or the scale that gives
//!    `--fit-height`; a model in metres (glTF or OBJ from outside the Quake family) is
//!    scaled by the target's units per metre unless one of those was given.
//! 2. **Skeletal animation baked** for keyframe formats, at the target's rate (`--fps`,
//!    else the target's: 10 for Quake MDL and MD2).
//! 3. **Clips resampled** to that rate, so that each plays as long as in the source
//!    ([`crate::model::retime`]).
//! 4. **Frame names** that fit the target's field and keep the clips apart
//!    ([`crate::model::frame_names`]).
//! 5. **Meshes split** where larger than the engines take (ioquake3: 999 vertices an MD3
//!    surface), [`crate::model::split`].
//! 6. **One skin** from many textures for targets that show one (Quake MDL, MD2): the
//!    pictures packed into an atlas, texture coordinates remapped ([`crate::model::atlas`]).
//! 7. **Skins resampled** to the engines' size limit (Quake's 480 texels high) unless
//!    `keep_skin_size`.
//!
//! Every step says what it did: notes for the summary, details for `convert -v`.

use std::borrow::Cow;

use crate::codec::{Fit, Writer};
use crate::error::Result;
use crate::model::transform::{self, Similarity};
use crate::model::Model;
use crate::options::{Placement, WriteOptions};

/// The fitted model and what fitting it did.
#[derive(Debug, Clone)]
pub struct Conformed<'a> {
    /// The model to write (borrowed when nothing changed).
    pub model: Cow<'a, Model>,
    /// Lossy steps.
    pub warnings: Vec<String>,
    /// What was done, one line each.
    pub notes: Vec<String>,
    /// Details for a verbose report (lines that start with a space continue the one before).
    pub details: Vec<String>,
}

/// Height of a model in units above which no engine of the Quake family shows it whole
/// (Quake's maps are 8192 units across at most) and below which it is a speck.
const SANE_HEIGHT: (f32, f32) = (1.0, 4096.0);

/// Fits `model` to `writer`'s format ([module docs](self)).
pub fn conform<'a>(
    model: &'a Model,
    writer: &Writer,
    options: &WriteOptions,
) -> Result<Conformed<'a>> {
    // The steps index morph targets by frame: a model that breaks the invariants is refused
    // here, with the writer's format, as the writers refuse it.
    model.validate().map_err(|e| {
        crate::error::Error::new(
            writer.format.name(),
            e.kind,
            e.message,
            crate::error::Location::None,
        )
    })?;
    let fit = writer.fit;
    let mut out = Conformed {
        model: Cow::Borrowed(model),
        warnings: Vec::new(),
        notes: Vec::new(),
        details: Vec::new(),
    };
    place(&mut out, &fit, &options.placement);
    let rate = options
        .fps
        .or(fit.fps.map(|r| r as f32))
        .filter(|_| writer.keyframes);
    if writer.keyframes && out.model.frames.is_empty() && !out.model.joints.is_empty() {
        let b = crate::model::bake::bake_skeletal(&out.model, rate)?;
        out.warnings.extend(b.warnings);
        out.notes.push(format!(
            "{} skeletal animations baked into {} frames{}",
            out.model.animations.len(),
            b.model.frames.len(),
            rate.map(|r| format!(" at {r} fps")).unwrap_or_default()
        ));
        out.model = Cow::Owned(b.model);
    }
    if fit.skeleton
        && out.model.joints.is_empty()
        && !out.model.frames.is_empty()
        && out.model.meshes.iter().any(|m| !m.positions.is_empty())
    {
        let vertices: usize = out.model.meshes.iter().map(|m| m.positions.len()).sum();
        if fit.max_joints > 0 && vertices + 1 > fit.max_joints {
            let fitted = crate::model::fit_bones::fit_bones(&out.model, fit.max_joints);
            let (worst, at) = fitted
                .frame_max
                .iter()
                .enumerate()
                .fold((0f32, 0), |b, (f, &e)| if e > b.0 { (e, f) } else { b });
            let rms = fitted.frame_rms.iter().fold(0f32, |a, &e| a.max(e));
            out.warnings.push(format!(
                "{} keyframes written as {} skeletal animations with {} rigid bones fitted to \
                 the vertex motion (at most {}): largest vertex error {worst:.4} units (frame \
                 {at}), RMS at most {rms:.4} units a frame (-v lists each frame)",
                out.model.frames.len(),
                fitted.model.animations.len(),
                fitted.model.joints.len(),
                fit.max_joints
            ));
            out.details
                .push("fitted bones, error per frame (largest, RMS):".into());
            out.details.extend(
                fitted
                    .frame_max
                    .iter()
                    .zip(&fitted.frame_rms)
                    .enumerate()
                    .map(|(f, (m, r))| format!("  frame {f}: {m:.4} {r:.4}")),
            );
            out.model = Cow::Owned(fitted.model);
        } else {
            let rig = crate::model::rig::vertex_rig(&out.model);
            let joints = rig.joints.len();
            out.notes.push(format!(
                "{} keyframes written as {} skeletal animations, one joint per vertex ({joints} \
             joints): every pose kept",
                out.model.frames.len(),
                rig.animations.len()
            ));
            if joints > crate::model::rig::MANY_JOINTS {
                out.warnings.push(format!(
                    "{joints} joints (one per vertex of the keyframe model): engines may refuse \
                 that many"
                ));
            }
            out.model = Cow::Owned(rig);
        }
    }
    if let Some(r) = rate {
        if let Some(re) = crate::model::retime::resample_clips(&out.model, r, fit.frame_times) {
            out.notes.push(format!(
                "{} clips resampled to {r} frames a second, each as long as in the source \
                 (-v lists them)",
                re.clips.len()
            ));
            out.details.push(format!("clips resampled to {r} fps:"));
            out.details
                .extend(re.clips.iter().map(|c| format!("  {c}")));
            out.model = Cow::Owned(re.model);
        }
    }
    if fit.name_bytes > 0 && !out.model.frames.is_empty() {
        // Renamed on a copy of the frames and clips only; the meshes are not copied.
        let mut names = Model {
            frames: out.model.frames.clone(),
            clips: out.model.clips.clone(),
            ..Model::default()
        };
        let renamed = crate::model::frame_names::fit_frame_names(&mut names, fit.name_bytes);
        if !renamed.clips.is_empty() {
            out.notes.push(format!(
                "frames of {} clips renamed to fit {}-byte names and keep the clips apart ({} \
                 shortened; -v maps them)",
                renamed.clips.len(),
                fit.name_bytes + 1,
                renamed.shortened
            ));
            out.details.push("frame names:".into());
            out.details.extend(
                renamed
                    .clips
                    .iter()
                    .map(|(clip, a, b)| format!("  \"{clip}\" -> {a}..{b}")),
            );
        }
        if names.frames != out.model.frames {
            out.model.to_mut().frames = names.frames;
        }
    }
    let [max_vertices, max_triangles] = fit.max_mesh;
    let too_big = |m: &crate::model::Mesh| {
        m.positions.len() > max_vertices || m.triangles.len() > max_triangles
    };
    if out.model.meshes.iter().any(too_big) {
        let split =
            crate::model::split::split_meshes(out.model.to_mut(), max_vertices, max_triangles);
        for (name, parts) in split {
            out.notes.push(format!(
                "mesh \"{name}\" split into {parts} meshes of at most {max_vertices} vertices and \
                 {max_triangles} triangles, the most the target's engines take"
            ));
        }
    }
    if fit.one_skin {
        one_skin(&mut out, &fit, options.keep_skin_size);
    }
    if !options.keep_skin_size {
        fit_skins(&mut out, &fit);
    }
    Ok(out)
}

/// Step 5: the pictures of several skins packed into one atlas skin for targets that show
/// one skin ([`crate::model::atlas`]), within the target's skin limits unless
/// `keep_skin_size`.
fn one_skin(out: &mut Conformed<'_>, fit: &Fit, keep_skin_size: bool) {
    let mut used: Vec<usize> = out.model.meshes.iter().filter_map(|m| m.skin).collect();
    used.sort_unstable();
    used.dedup();
    let untextured = out.model.meshes.iter().any(|m| m.skin.is_none());
    if used.len() + usize::from(untextured && !used.is_empty()) < 2 {
        return;
    }
    let limit = |m: u32| if keep_skin_size { 4096 } else { m.min(4096) };
    let options = crate::model::atlas::AtlasOptions {
        max_size: [limit(fit.max_skin[0]), limit(fit.max_skin[1])],
        align: fit.skin_align.max(1),
        ..crate::model::atlas::AtlasOptions::default()
    };
    let packed = crate::model::atlas::pack_skins(&out.model, &options);
    if packed.model == *out.model {
        return;
    }
    out.warnings.extend(packed.warnings);
    out.notes.extend(packed.notes);
    out.model = Cow::Owned(packed.model);
}

/// Step 6: pictures larger than the target's engines take are resampled to fit, the aspect
/// ratio kept and the width a multiple of the target's alignment (texture coordinates are
/// fractions of the skin, so they stay right).
fn fit_skins(out: &mut Conformed<'_>, fit: &Fit) {
    use crate::image::resample::{fit_within, resize};
    let [max_w, max_h] = fit.max_skin;
    let too_big = |p: &crate::image::Image| p.width > max_w || p.height > max_h;
    if !out
        .model
        .skins
        .iter()
        .any(|s| s.pictures.iter().any(too_big))
    {
        return;
    }
    let model = out.model.to_mut();
    for (si, skin) in model.skins.iter_mut().enumerate() {
        let mut resized = None;
        for p in skin.pictures.iter_mut().filter(|p| too_big(p)) {
            let (w, h) = fit_within(p.width, p.height, max_w, max_h, fit.skin_align);
            out.notes.push(format!(
                "skin {si} resampled from {}x{} to {w}x{h}, the largest the target's engines \
                 take (--keep-skin-size keeps it)",
                p.width, p.height
            ));
            *p = resize(p, w, h);
            resized = Some([w, h]);
        }
        if let Some(size) = resized {
            for m in model.meshes.iter_mut().filter(|m| m.skin == Some(si)) {
                m.skin_size = Some(size);
            }
        }
    }
}

/// Step 1: rotation, scale or height, metres.
fn place(out: &mut Conformed<'_>, fit: &Fit, p: &Placement) {
    let [yaw, pitch, roll] = p.rotate;
    let rotation = Similarity::rotation_degrees(yaw, pitch, roll);
    if !rotation.is_identity() {
        transform::transform(out.model.to_mut(), &rotation);
        out.notes.push(format!(
            "turned by yaw {yaw}, pitch {pitch}, roll {roll} degrees"
        ));
    }
    let height = |m: &Model| {
        let [lo, hi] = transform::extent(m);
        hi[2] - lo[2]
    };
    let scale = if let Some(h) = p.fit_height {
        let now = height(&out.model);
        (now > 0.0).then(|| {
            let s = h / now;
            out.notes.push(format!(
                "scaled by {s} to a height of {h} units (was {now})"
            ));
            s
        })
    } else if let Some(s) = p.scale {
        out.notes.push(format!("scaled by {s}"));
        Some(s)
    } else if p.metres && fit.units_per_metre > 0 {
        let s = fit.units_per_metre as f32;
        out.notes.push(format!(
            "the model is in metres: scaled by {s} to the target's units (--scale 1 keeps \
             metres)"
        ));
        Some(s)
    } else {
        None
    };
    if let Some(s) = scale.filter(|&s| s != 1.0 && s.is_finite() && s > 0.0) {
        transform::transform(out.model.to_mut(), &Similarity::scaling(s));
    }
    if fit.units_per_metre > 0 && !out.model.meshes.is_empty() {
        let h = height(&out.model);
        if h > 0.0 && !(SANE_HEIGHT.0..=SANE_HEIGHT.1).contains(&h) {
            out.warnings.push(format!(
                "the model is {h} units tall, outside the {}..{} units the target's engines \
                 show well (--scale or --fit-height sets its size)",
                SANE_HEIGHT.0, SANE_HEIGHT.1
            ));
        }
    }
}
