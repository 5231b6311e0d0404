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
    /// The shape error of each frame where fitting changed the motion (bones fitted to
    /// keyframes, joints merged): the largest vertex distance, model units, reported as
    /// quantisation error is (`Output::frame_errors`).
    pub frame_errors: Vec<f32>,
    /// The names of those frames, one per `frame_errors`.
    pub frame_names: Vec<String>,
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
        frame_errors: Vec::new(),
        frame_names: Vec::new(),
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
    merge_joints(&mut out, writer, options)?;
    skeletal_form(&mut out, writer, options);
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

/// The most joints the written model may have: `--bones N` (within the target's own limit),
/// else the target's limit; `None`: no limit.
fn joint_limit(fit: &Fit, options: &WriteOptions) -> Option<usize> {
    match (options.bones, fit.max_joints) {
        (Some(n), 0) => Some(n),
        (Some(n), max) => Some(n.min(max)),
        (None, 0) => None,
        (None, max) => Some(max),
    }
}

/// A skeletal model with more joints than `--bones N` asks has joints merged into their
/// parents ([`crate::model::merge_joints`]), the shape error reported per frame. Without
/// `--bones` a model over the target's limit is left for the writer to refuse.
fn merge_joints(out: &mut Conformed<'_>, writer: &Writer, options: &WriteOptions) -> Result<()> {
    let joints = out.model.joints.len();
    let Some(limit) = joint_limit(&writer.fit, options).filter(|_| options.bones.is_some()) else {
        return Ok(());
    };
    if writer.keyframes || joints <= limit {
        return Ok(());
    }
    let m = crate::model::merge_joints::merge_joints(&out.model, limit).map_err(|e| {
        crate::error::Error::new(writer.format.name(), e.kind, e.message, e.location)
    })?;
    let (worst, at) = largest(&m.frame_max);
    let rms = m.frame_rms.iter().fold(0f32, |a, &e| a.max(e));
    let h = m.height.max(1e-6);
    out.warnings.push(format!(
        "{joints} joints merged into {} (--bones {limit}): the {} least important joints' \
         vertices follow their surviving ancestors; largest vertex error {worst:.4} units \
         (frame {at}), RMS at most {rms:.4} units ({:.3} % of the height {h:.1}) a frame (-v \
         lists each frame)",
        m.model.joints.len(),
        m.merged,
        100.0 * rms / h
    ));
    report_frames(
        out,
        "merged joints",
        &m.frame_max,
        &m.frame_rms,
        &m.frame_names,
    );
    out.model = Cow::Owned(m.model);
    Ok(())
}

/// The largest error and its frame.
fn largest(errors: &[f32]) -> (f32, usize) {
    errors
        .iter()
        .enumerate()
        .fold((0f32, 0), |b, (f, &e)| if e > b.0 { (e, f) } else { b })
}

/// Each frame's error in the details and as the output's frame errors.
fn report_frames(out: &mut Conformed<'_>, what: &str, max: &[f32], rms: &[f32], names: &[String]) {
    out.details
        .push(format!("{what}, error per frame (largest, RMS):"));
    out.details.extend(
        max.iter()
            .zip(rms)
            .enumerate()
            .map(|(f, (m, r))| format!("  frame {f}: {m:.4} {r:.4}")),
    );
    out.frame_errors = max.to_vec();
    out.frame_names = names.to_vec();
}

/// A keyframe model written to a format that animates joints: rigid bones fitted to its
/// vertex motion ([`crate::model::fit_bones`]) when `--bones N` asks or the target takes
/// fewer joints than the model has vertices (GoldSrc), else one joint per vertex
/// ([`crate::model::rig::vertex_rig`], skeleton-only formats: MD5).
fn skeletal_form(out: &mut Conformed<'_>, writer: &Writer, options: &WriteOptions) {
    let fit = writer.fit;
    let keyframe = out.model.joints.is_empty()
        && !out.model.frames.is_empty()
        && out.model.meshes.iter().any(|m| !m.positions.is_empty());
    if writer.keyframes || !keyframe || !(fit.skeleton || options.bones.is_some()) {
        return;
    }
    let vertices: usize = out.model.meshes.iter().map(|m| m.positions.len()).sum();
    let limit = joint_limit(&fit, options);
    let fitted_bones = match limit {
        Some(n) if options.bones.is_some() || vertices + 1 > n => n,
        _ => {
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
                     that many (--bones N fits N rigid bones instead)"
                ));
            }
            out.model = Cow::Owned(rig);
            return;
        }
    };
    let fitted = crate::model::fit_bones::fit_bones(&out.model, fitted_bones);
    let (worst, at) = largest(&fitted.frame_max);
    let rms = fitted.frame_rms.iter().fold(0f32, |a, &e| a.max(e));
    let h = out
        .model
        .frames
        .iter()
        .map(|f| f.bounds_max[2] - f.bounds_min[2])
        .fold(0f32, f32::max)
        .max(1e-6);
    out.warnings.push(format!(
        "{} keyframes written as {} skeletal animations with {} rigid bones fitted to the \
         vertex motion (at most {fitted_bones}): largest vertex error {worst:.4} units (frame \
         {at}), RMS at most {rms:.4} units ({:.3} % of the height {h:.1}) a frame (-v lists \
         each frame)",
        out.model.frames.len(),
        fitted.model.animations.len(),
        fitted.model.joints.len(),
        100.0 * rms / h
    ));
    let names: Vec<String> = out.model.frames.iter().map(|f| f.name.clone()).collect();
    report_frames(
        out,
        "fitted bones",
        &fitted.frame_max,
        &fitted.frame_rms,
        &names,
    );
    out.model = Cow::Owned(fitted.model);
}
