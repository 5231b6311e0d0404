//! The re-release layout: where a classic model's replacement files are ([`names`],
//! [`md5_skin_path`]), and a model written so ([`write_layout`], [`author`]).

use super::game::{Game, Q2_MAX_FRAMES, Q2_MAX_JOINTS, Q2_MAX_MESHES, Q2_MAX_WEIGHTS};
use crate::codec::{Output, SideFile};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::md5::{self, scale};
use crate::model::{self, Model};

/// Where a classic model's replacement files are, relative to the classic model's folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    /// The `.md5mesh`.
    pub mesh: String,
    /// The `.md5anim`.
    pub anim: String,
    /// The `.md5scale` (optional).
    pub scale: String,
}

/// The stem of a file name (`tris` for `models/x/tris.md2`).
pub(super) fn stem(name: &str) -> &str {
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

/// The replacement's file names for the classic model file `model_name`.
pub fn names(game: Game, model_name: &str) -> Names {
    let s = stem(model_name);
    let dir = match game {
        Game::Quake2 => "md5/",
        Game::Quake => "",
    };
    Names {
        mesh: format!("{dir}{s}.md5mesh"),
        anim: format!("{dir}{s}.md5anim"),
        scale: format!("{dir}{s}.md5scale"),
    }
}

/// A Quake II skin path with `md5/` before the file name (`models/x/md5/skin.pcx`).
pub fn md5_skin_path(path: &str) -> String {
    match path.rfind(['/', '\\']) {
        Some(i) => format!("{}md5/{}", &path[..=i], &path[i + 1..]),
        None => format!("md5/{path}"),
    }
}

/// The re-release layout for `model`, given the classic file `classic` already written from
/// it by the caller (an MD2 or MDL, its bytes in `classic.bytes`): the MD5 replacement's files
/// added as side files (`md5/NAME.md5mesh`, `.md5anim`, `.md5scale` for Quake II; `NAME.*`
/// beside the MDL for Quake), where `stem` is the classic file's stem. The animations of the
/// model are joined in order into the one `.md5anim`, one frame per classic frame (the classic
/// writer bakes the same animations in the same order, see [`model::bake`]).
pub fn author(model: &Model, game: Game, stem: &str, classic: &mut Output) -> Result<()> {
    let fail = |m: String| Error::new("rerelease", ErrorKind::InvalidModel, m, Location::None);
    if model.joints.is_empty() || model.animations.is_empty() {
        return Err(fail(
            "the re-release layout needs a skeletal model with animations (an MD5 replacement)"
                .into(),
        ));
    }
    let joined = model::join_animations(model, stem);
    let dir = match game {
        Game::Quake2 => "md5/",
        Game::Quake => "",
    };
    if game == Game::Quake2 {
        // q2pro shows the MD2's skin paths with md5/ before the file name.
        let skins: Vec<SideFile> = classic
            .side_files
            .iter()
            .filter(|f| f.kind == "skin")
            .map(|f| SideFile {
                name: md5_skin_path(&f.name),
                kind: "re-release MD5 skin",
                bytes: f.bytes.clone(),
            })
            .collect();
        classic.side_files.extend(skins);
    }
    let mesh = md5::write_mesh(&md5::mesh_from_model(&joined)?);
    let anim = md5::write_anim(&md5::anim_from_model(&joined, 0)?);
    classic.side_files.push(SideFile {
        name: format!("{dir}{stem}.md5mesh"),
        kind: "re-release MD5 mesh",
        bytes: mesh.into_bytes(),
    });
    classic.side_files.push(SideFile {
        name: format!("{dir}{stem}.md5anim"),
        kind: "re-release MD5 animation",
        bytes: anim.into_bytes(),
    });
    // What the engine would refuse, said while writing.
    if game == Game::Quake2 {
        let frames = joined.animations[0].frames.len();
        let weights = joined
            .meshes
            .iter()
            .map(|m| m.joint_weights.iter().map(|w| w.len()).sum::<usize>())
            .max()
            .unwrap_or(0);
        for (what, n, max) in [
            ("joints", joined.joints.len(), Q2_MAX_JOINTS),
            ("meshes", joined.meshes.len(), Q2_MAX_MESHES),
            ("frames", frames, Q2_MAX_FRAMES),
            ("weights in a mesh", weights, Q2_MAX_WEIGHTS),
        ] {
            if n > max {
                classic.warnings.push(format!(
                    "the MD5 has {n} {what}; q2pro reads at most {max} and will use the MD2"
                ));
            }
        }
    }
    if let Some(ws) = joined.animations[0]
        .weight_scales
        .as_ref()
        .filter(|w| !w.is_unit())
    {
        if scale::token_count(ws) > scale::MAX_TOKENS {
            classic.warnings.push(format!(
                "the .md5scale has {} JSON tokens; q2pro reads at most {} and ignores the file",
                scale::token_count(ws),
                scale::MAX_TOKENS
            ));
        }
        let names: Vec<&str> = joined.joints.iter().map(|j| j.name.as_str()).collect();
        classic.side_files.push(SideFile {
            name: format!("{dir}{stem}.md5scale"),
            kind: "re-release joint scales",
            bytes: scale::write_scales(ws, &names).into_bytes(),
        });
    }
    Ok(())
}

/// Writes `model` in the re-release layout: the classic file of `writer` (an MD2 for Quake II,
/// a Quake MDL for Quake) as [`crate::registry::write_model`] writes it, with the MD5
/// replacement's files as side files ([`author`]). The skeletal animations are first resampled
/// at the classic writer's rate (`options.fps`, else the target's, else 10), so that each
/// `.md5anim` frame is one classic frame; the MD5 files are written from the model as placed
/// for the classic file (the same size and turn).
pub fn write_layout(
    model: &Model,
    writer: &crate::codec::Writer,
    options: &crate::options::WriteOptions,
) -> Result<Output> {
    let fail = |m: String| Error::new("rerelease", ErrorKind::InvalidModel, m, Location::None);
    let game = Game::of_format(writer.format.name()).ok_or_else(|| {
        fail(format!(
            "the re-release layout is an MD2 (Quake II) or a Quake MDL with its MD5; not {}",
            writer.format.description()
        ))
    })?;
    // A keyframe model (an MD2, MDL, MD3) gets one joint per vertex ([`model::rig`]): every
    // pose kept, at the price of many joints (q2pro reads 256).
    let rigged;
    let model = if model.joints.is_empty() && !model.frames.is_empty() {
        rigged = model::rig::vertex_rig(model);
        &rigged
    } else {
        model
    };
    if model.joints.is_empty() || model.animations.is_empty() {
        return Err(fail(
            "the re-release layout needs a skeletal model with animations, or keyframes".into(),
        ));
    }
    let rate = options
        .fps
        .or(writer.fit.fps.map(|r| r as f32))
        .unwrap_or(10.0);
    let mut resampled = model.clone();
    resampled.frames.clear();
    resampled.clips.clear();
    for m in &mut resampled.meshes {
        m.morph_targets.clear();
    }
    resampled.animation_scales.clear();
    for a in &mut resampled.animations {
        *a = model::bake::resample_animation(a, rate);
    }
    let mut out = crate::registry::write_model(&resampled, writer, options)?;
    let placed = crate::conform::conform(&resampled, writer, options)?;
    author(
        placed.model.as_ref(),
        game,
        options.side_file_stem(),
        &mut out,
    )?;
    let frames = out.frame_names.len();
    let md5_frames: usize = resampled.animations.iter().map(|a| a.frames.len()).sum();
    if frames != md5_frames {
        out.warnings.push(format!(
            "the classic file has {frames} frames and the .md5anim {md5_frames}: the engine pairs them frame by frame"
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_follow_each_game() {
        let n = names(Game::Quake2, "tris.md2");
        assert_eq!(n.mesh, "md5/tris.md5mesh");
        assert_eq!(n.scale, "md5/tris.md5scale");
        assert_eq!(names(Game::Quake, "soldier.mdl").anim, "soldier.md5anim");
        assert_eq!(
            md5_skin_path("models/monsters/infantry/skin.pcx"),
            "models/monsters/infantry/md5/skin.pcx"
        );
        assert_eq!(md5_skin_path("skin.pcx"), "md5/skin.pcx");
    }
}
