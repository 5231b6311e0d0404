//! The 2021 Quake and 2023 Quake II re-releases: MD5 replacements shipped beside the classic
//! MDL and MD2 models, paired as the engines pair them.
//!
//! **Sources** (read, not copied).
//! - Quake II: q2pro `src/refresh/models.c` (`MOD_LoadMD5`, `MD5_ParseAnim`,
//!   `MD5_LoadScales`, `MD5_LoadSkins`) and `src/refresh/mesh.c` (the skinning). For
//!   `DIR/NAME.md2` the replacement is `DIR/md5/NAME.md5mesh` with `DIR/md5/NAME.md5anim`
//!   (both, or neither is used) and `DIR/md5/NAME.md5scale`; MD5 frame N plays when the MD2
//!   shows frame N (`frame % numFrames`; fewer MD5 frames is a warning); joints pair by index
//!   (names unread); the MD5 bounds are
//!   ignored for the MD2's; the skins are the MD2's skin paths with `md5/` put before the file
//!   name. Limits: 256 joints, 32 meshes, 8192 weights a mesh, 1024 frames.
//! - Quake: the re-release's loader as vkQuake (`Quake/gl_model.c`) and the issue tracker
//!   describe it: `progs/NAME.mdl` pairs with `progs/NAME.md5mesh` and `progs/NAME.md5anim`;
//!   the MD5's frame count must equal the MDL's (2 against 1 is accepted), one mesh only; the
//!   MDL's flags and synctype stay; the skin of skin `S` and frame group `G` is the shader name
//!   with `_SS_GG` after it (`progs/soldier_00_00`, as a picture, then under `progs/` and
//!   `textures/`); the MD5 is used only when it comes from the same or a higher search path
//!   than the MDL (checked where the resolver reads a tree of layers,
//!   [`Resolver::search_layer`]: `web`'s served tree, a game tree; a model on disk has none).
//!   The MDL's flags, synctype and eye position stay (`Model::mdl_extras`).
//!
//! A classic model's [`Replacement`] is found and checked by [`find`]; [`apply`] gives the
//! model to use in its place (`--prefer md5`): the MD5's meshes and joints, its animation cut
//! into the classic model's clips, and its poses baked into frames named as the classic
//! model's, so that keyframe writers (MD2, MDL, MD3) down-convert it. [`author`] goes the
//! other way and writes the re-release layout for a model.

use crate::codec::{Output, SideFile};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::md5::{self, scale};
use crate::limits::Limits;
use crate::model::{self, Clip, Converted, Frames, Model, SkeletalAnimation, WeightScales};
use crate::resolve::Resolver;

/// Which re-release's rules pair a model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// Quake II (2023): `.md2` with `md5/NAME.md5mesh`.
    Quake2,
    /// Quake (2021): `.mdl` with `NAME.md5mesh` beside it.
    Quake,
}

/// The engines whose pairing rules `validate --engine` checks.
pub const ENGINES: &[(&str, Game, &str)] = &[
    ("q2pro", Game::Quake2, "q2pro (Quake II MD5 replacements)"),
    (
        "kex-quake2",
        Game::Quake2,
        "the Quake II re-release's engine (as q2pro reads its files)",
    ),
    (
        "kex-quake",
        Game::Quake,
        "the Quake re-release's engine (as vkQuake and ironwail read its files)",
    ),
];

impl Game {
    /// The game whose classic format is `format` (`md2`, `quake-mdl`), if it has a re-release.
    pub fn of_format(format: &str) -> Option<Game> {
        match format {
            crate::formats::md2::FORMAT => Some(Game::Quake2),
            crate::formats::quake_mdl::FORMAT => Some(Game::Quake),
            _ => None,
        }
    }

    /// The game an engine of [`ENGINES`] runs.
    pub fn of_engine(engine: &str) -> Option<Game> {
        ENGINES.iter().find(|e| e.0 == engine).map(|e| e.1)
    }

    /// `Quake II` or `Quake`.
    pub fn describe(self) -> &'static str {
        match self {
            Game::Quake2 => "Quake II",
            Game::Quake => "Quake",
        }
    }
}

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
fn stem(name: &str) -> &str {
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

/// One finding of the engine's checks.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Whether the engine refuses the replacement over it (else it plays it, maybe badly).
    pub error: bool,
    /// What is wrong.
    pub message: String,
}

/// A classic model's re-release replacement, read and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Replacement {
    /// The rules it was paired by.
    pub game: Game,
    /// Its files.
    pub names: Names,
    /// Whether a `.md5scale` was found.
    pub has_scale: bool,
    /// The MD5's model: its meshes and joints, its animation (named after the classic model,
    /// joint scales included) and the skins found by the game's rule. Empty when the files do
    /// not read.
    pub model: Model,
    /// Frames of the `.md5anim` (0 when it is missing or does not read).
    pub anim_frames: usize,
    /// What the engine would say, errors first.
    pub checks: Vec<Check>,
    /// What reading the files noticed.
    pub warnings: Vec<String>,
}

impl Replacement {
    /// Whether the engine would use it (no check is an error).
    pub fn usable(&self) -> bool {
        !self.checks.iter().any(|c| c.error)
    }
}

const Q2_MAX_JOINTS: usize = 256;
const Q2_MAX_MESHES: usize = 32;
const Q2_MAX_WEIGHTS: usize = 8192;
const Q2_MAX_FRAMES: usize = 1024;

/// The replacement of the classic model `classic` (converted from the file the resolver is
/// for, [`Resolver::model_name`]), by `game`'s rules; `None` when there is no `.md5mesh` where
/// the engine looks.
pub fn find(game: Game, classic: &Model, resolver: &dyn Resolver) -> Option<Replacement> {
    find_with(game, classic, resolver, &Limits::default())
}

/// [`find`], the MD5 files parsed within `limits`.
pub fn find_with(
    game: Game,
    classic: &Model,
    resolver: &dyn Resolver,
    limits: &Limits,
) -> Option<Replacement> {
    let model_name = resolver.model_name()?;
    let names = names(game, &model_name);
    let mesh_bytes = resolver.load_path(&names.mesh)?;
    let n = names.clone();
    let mut rep = Replacement {
        game,
        names,
        has_scale: false,
        model: Model::default(),
        anim_frames: 0,
        checks: Vec::new(),
        warnings: Vec::new(),
    };
    let error = |rep: &mut Replacement, message: String| {
        rep.checks.push(Check {
            error: true,
            message,
        })
    };
    let mesh = match md5::parse_mesh(&mesh_bytes, limits) {
        Ok(m) => m,
        Err(e) => {
            error(&mut rep, format!("{}: {e}", n.mesh));
            return Some(rep);
        }
    };
    let mut converted = md5::mesh_to_model(&mesh.file, &mesh.warnings);
    let Some(anim_bytes) = resolver.load_path(&n.anim) else {
        let why = match game {
            Game::Quake2 => "q2pro uses the MD5 only when both files are there",
            Game::Quake => "the MD5 has no animation to match the MDL's frames",
        };
        error(&mut rep, format!("{} is missing: {why}", n.anim));
        rep.model = converted.model;
        return Some(rep);
    };
    match md5::parse_anim(&anim_bytes, limits) {
        Err(e) => error(&mut rep, format!("{}: {e}", n.anim)),
        Ok(anim) => {
            rep.anim_frames = anim.file.frames.len();
            let name = stem(&model_name).to_string();
            if anim.file.hierarchy.len() != mesh.file.joints.len() {
                error(
                    &mut rep,
                    format!(
                        "{} has {} joints, {} has {}: the engine refuses the animation \
                         (\"Bad numJoints\")",
                        n.anim,
                        anim.file.hierarchy.len(),
                        n.mesh,
                        mesh.file.joints.len()
                    ),
                );
            } else {
                // q2pro pairs the anim's joints with the mesh's by index, names unread.
                let mut anim_file = anim.file.clone();
                for (i, (h, j)) in anim_file
                    .hierarchy
                    .iter_mut()
                    .zip(&mesh.file.joints)
                    .enumerate()
                {
                    if h.name != j.name {
                        rep.checks.push(Check {
                            error: false,
                            message: format!(
                                "joint {i} is {:?} in {} and {:?} in {}: the engine pairs joints by index, as shown here",
                                j.name, n.mesh, h.name, n.anim
                            ),
                        });
                        h.name.clone_from(&j.name);
                    }
                }
                match md5::attach_animation(&mut converted.model, &anim_file, &name) {
                    Err(e) => error(&mut rep, format!("{}: {e}", n.anim)),
                    Ok(()) => {
                        // The scale file at its exact place only.
                        if let Some(bytes) = resolver.load_path(&n.scale) {
                            rep.has_scale = true;
                            md5::attach_scale_bytes(&mut converted, &n.scale, &bytes);
                        }
                    }
                }
            }
        }
    }
    rep.warnings.append(&mut converted.warnings);
    rep.model = converted.model;
    check_counts(&mut rep, classic, mesh.file.meshes.len());
    if game == Game::Quake {
        // The MD5 counts only from the MDL's search path or a higher one.
        if let (Some(mdl), Some(md5)) = (
            resolver.search_layer(&model_name),
            resolver.search_layer(&n.mesh),
        ) {
            if md5 < mdl {
                rep.checks.push(Check {
                    error: true,
                    message: format!(
                        "{} comes from a lower search path than the MDL (layer {md5} < {mdl}): \
                         the re-release uses the MDL",
                        n.mesh
                    ),
                });
            }
        }
    }
    find_skins(&mut rep, classic, resolver);
    rep.checks.sort_by_key(|c| !c.error);
    Some(rep)
}

/// The pair's findings for `validate --engine` (an [`ENGINES`] name): each check as an error
/// or a warning, and an error when there is no replacement to check.
pub fn validate_pair(
    engine: &str,
    classic: &Model,
    resolver: &dyn Resolver,
) -> Vec<crate::diagnostic::Diagnostic> {
    use crate::diagnostic::Diagnostic;
    let Some(game) = Game::of_engine(engine) else {
        return vec![Diagnostic::error(format!(
            "{engine} is not a re-release engine"
        ))];
    };
    match find(game, classic, resolver) {
        None => vec![Diagnostic::error(format!(
            "no {} re-release replacement: {} not found",
            game.describe(),
            resolver
                .model_name()
                .map(|n| names(game, &n).mesh)
                .unwrap_or_else(|| "the model's name is not known".to_string())
        ))],
        Some(rep) => rep
            .checks
            .iter()
            .map(|c| {
                if c.error {
                    Diagnostic::error(c.message.clone())
                } else {
                    Diagnostic::warning(c.message.clone())
                }
            })
            .collect(),
    }
}

/// Frame counts and the engine's limits.
fn check_counts(rep: &mut Replacement, classic: &Model, meshes: usize) {
    let classic_frames = classic.frames.len();
    let frames = rep.anim_frames;
    let mut push = |error: bool, message: String| rep.checks.push(Check { error, message });
    match rep.game {
        Game::Quake2 => {
            if frames > 0 && frames < classic_frames {
                push(
                    false,
                    format!(
                        "{} has fewer frames than the MD2 ({frames} < {classic_frames}): q2pro \
                         warns and wraps the frame number",
                        rep.names.anim
                    ),
                );
            }
            let joints = rep.model.joints.len();
            for (what, n, max) in [
                ("joints", joints, Q2_MAX_JOINTS),
                ("meshes", meshes, Q2_MAX_MESHES),
                ("frames", frames, Q2_MAX_FRAMES),
            ] {
                if n > max {
                    push(true, format!("{n} {what}: q2pro reads at most {max}"));
                }
            }
            for (i, m) in rep.model.meshes.iter().enumerate() {
                let weights: usize = m.joint_weights.iter().map(|w| w.len()).sum();
                if weights > Q2_MAX_WEIGHTS {
                    push(
                        true,
                        format!(
                            "mesh {i}: {weights} weights: q2pro reads at most {Q2_MAX_WEIGHTS}"
                        ),
                    );
                }
            }
        }
        Game::Quake => {
            if frames > 0 && frames != classic_frames && !(frames == 2 && classic_frames == 1) {
                push(
                    true,
                    format!(
                        "{} has {frames} frames, the MDL {classic_frames}: the re-release needs \
                         as many (2 against 1 is accepted)",
                        rep.names.anim
                    ),
                );
            }
            if meshes != 1 {
                push(
                    true,
                    format!(
                        "{} has {meshes} meshes: the Quake re-release reads one",
                        rep.names.mesh
                    ),
                );
            }
        }
    }
}

/// The skins by the game's rule; a missing one is a warning check.
fn find_skins(rep: &mut Replacement, classic: &Model, resolver: &dyn Resolver) {
    let mut lookup = crate::skin_lookup::SkinLookup::new(resolver, &Limits::default());
    let mut skins = Vec::new();
    let mut by_path = std::collections::HashMap::new();
    match rep.game {
        Game::Quake2 => {
            // Every mesh shows the skin the entity picks from the MD2's list.
            for s in &classic.skins {
                let path = md5_skin_path(&s.name);
                // Only at that path (q2pro's IMG_Find, with its picture-format overrides).
                let there = exists_with_any_extension(resolver, &path);
                match lookup.image_path(&path).filter(|_| there) {
                    Some(found) => {
                        found.shared_skin(&mut skins, &mut by_path);
                    }
                    None => rep.checks.push(Check {
                        error: false,
                        message: format!("skin {path:?} not found: q2pro shows no texture"),
                    }),
                }
            }
            if !skins.is_empty() {
                for m in &mut rep.model.meshes {
                    m.skin = Some(0);
                }
            }
        }
        Game::Quake => {
            for (i, m) in rep.model.meshes.iter_mut().enumerate() {
                let base = format!("{}_00_00", m.name);
                let file = base.rsplit('/').next().unwrap_or(&base).to_string();
                let found = [
                    base.clone(),
                    format!("progs/{file}"),
                    format!("textures/{file}"),
                ]
                .iter()
                .find_map(|p| lookup.image_path(p));
                match found {
                    Some(found) => m.skin = Some(found.shared_skin(&mut skins, &mut by_path)),
                    None => rep.checks.push(Check {
                        error: false,
                        message: format!(
                            "mesh {i}: skin {base:?} not found (also under progs/ and textures/)"
                        ),
                    }),
                }
            }
        }
    }
    rep.model.skins = skins;
}

/// Whether `path`, or `path` with another picture extension, is at that game path.
fn exists_with_any_extension(resolver: &dyn Resolver, path: &str) -> bool {
    let base = path.rsplit_once('.').map_or(path, |(b, _)| b);
    resolver.load_path(path).is_some()
        || crate::image::IMAGE_EXTENSIONS
            .iter()
            .any(|e| resolver.load_path(&format!("{base}.{e}")).is_some())
}

/// A Quake II skin path with `md5/` before the file name (`models/x/md5/skin.pcx`).
pub fn md5_skin_path(path: &str) -> String {
    match path.rfind(['/', '\\']) {
        Some(i) => format!("{}md5/{}", &path[..=i], &path[i + 1..]),
        None => format!("md5/{path}"),
    }
}

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
        "the {} re-release replacement {} with {}{} is shown in the classic model's place",
        rep.game.describe(),
        rep.names.mesh,
        rep.names.anim,
        if rep.has_scale {
            format!(" and {}", rep.names.scale)
        } else {
            String::new()
        }
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
    let joined = join_animations(model, stem);
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

/// `model` with its animations joined into one named `name` (weight scales of 1 for those
/// without), at the first one's rate. A joint keeps `scale_positions` unless one animation
/// scales it with the flag and another without; then the flagged animation's positions are
/// written scaled, so that neither changes what it shows. A model without animations is
/// returned as it is.
pub fn join_animations(model: &Model, name: &str) -> Model {
    let nj = model.joints.len();
    let mut out = model.clone();
    let Some(first) = model.animations.first() else {
        return out;
    };
    let any_scales = model.animations.iter().any(|a| a.weight_scales.is_some());
    let mut joined = SkeletalAnimation {
        name: name.to_string(),
        fps: first.fps,
        frames: Frames::default(),
        bounds: Vec::new(),
        loops: false,
        weight_scales: any_scales.then(|| WeightScales::unit(0, nj)),
    };
    let all_bounds = model
        .animations
        .iter()
        .all(|a| a.bounds.len() == a.frames.len());
    // A joint keeps its flag when no animation scales it without the flag (an animation
    // without scales is all ones: the flag changes nothing there); elsewhere the flagged
    // animations' positions are written scaled.
    let flagged = |a: &SkeletalAnimation, j: usize| {
        a.weight_scales
            .as_ref()
            .is_some_and(|ws| ws.scale_positions.get(j).copied().unwrap_or(false))
    };
    let keep: Vec<bool> = (0..nj)
        .map(|j| {
            model.animations.iter().any(|a| flagged(a, j))
                && !model.animations.iter().any(|a| {
                    a.weight_scales.as_ref().is_some_and(|ws| {
                        !flagged(a, j)
                            && ws
                                .frames
                                .iter()
                                .any(|f| f.get(j).is_some_and(|s| *s != 1.0))
                    })
                })
        })
        .collect();
    if let Some(ws) = &mut joined.weight_scales {
        ws.scale_positions.clone_from(&keep);
    }
    for a in &model.animations {
        for (f, frame) in a.frames.iter().enumerate() {
            let mut frame = frame.clone();
            if let Some(ws) = &a.weight_scales {
                for (j, t) in frame.iter_mut().enumerate() {
                    if flagged(a, j) && !keep.get(j).copied().unwrap_or(false) {
                        let s = ws.get(f, j);
                        t.translation = t.translation.map(|c| c * s);
                    }
                }
            }
            joined.frames.push(frame);
        }
        if all_bounds {
            joined.bounds.extend(a.bounds.iter().copied());
        }
        if let Some(ws) = &mut joined.weight_scales {
            match &a.weight_scales {
                Some(s) => ws.frames.extend(
                    (0..a.frames.len()).map(|f| (0..nj).map(|j| s.get(f, j)).collect::<Vec<f32>>()),
                ),
                None => ws.frames.extend((0..a.frames.len()).map(|_| vec![1.0; nj])),
            }
        }
    }
    out.animations = vec![joined];
    out.animation_scales.clear();
    out
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
