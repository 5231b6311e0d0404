//! Finding and checking a classic model's pair: the replacement's files where the engine looks
//! ([`find`]), read, and held against the engine's rules ([`Check`], [`validate_pair`]): frame
//! counts, limits, search paths, skins.

use super::game::{Game, Q2_MAX_FRAMES, Q2_MAX_JOINTS, Q2_MAX_MESHES, Q2_MAX_WEIGHTS};
use super::layout::{md5_skin_path, names, stem, Names};
use crate::formats::md5;
use crate::limits::Limits;
use crate::model::Model;
use crate::resolve::Resolver;

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
    /// Its files in words: `mesh` then the `.md5anim` after `with`, the `.md5scale` (when
    /// there is one) after `and` (`tris.md5mesh + tris.md5anim + tris.md5scale`).
    pub fn files(&self, with: &str, and: &str) -> String {
        let mut out = format!("{} {with} {}", self.names.mesh, self.names.anim);
        if self.has_scale {
            out.push_str(&format!(" {and} {}", self.names.scale));
        }
        out
    }

    /// Whether the engine would use it (no check is an error).
    pub fn usable(&self) -> bool {
        !self.checks.iter().any(|c| c.error)
    }
}

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

/// The pair's findings for `validate --engine` (an [`ENGINES`](super::game::ENGINES) name): each check as an error
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
