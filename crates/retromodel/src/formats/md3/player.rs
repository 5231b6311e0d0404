//! Quake 3 player models: `animation.cfg`, and the three parts (`lower.md3`, `upper.md3`,
//! `head.md3`, and a weapon) assembled on their tags into one animated Model.
//!
//! **`animation.cfg`** (the game's `CG_ParseAnimationFile`): optional `sex m|f|n`,
//! `headoffset X Y Z` and `footsteps NAME` lines, then four numbers per animation (first
//! frame, frame count, looping frames, frames per second) in the game's fixed order
//! ([`ANIMATION_NAMES`]: 25 animations, 31 with Team Arena's). A negative count plays the
//! frames backwards; an fps of 0 is read as 1. The legs animations are numbered as if the
//! torso's frames came first: Quake 3 subtracts `LEGS_WALKCR.first - TORSO_GESTURE.first` to
//! get `lower.md3`'s frame ([`AnimationCfg::part_frames`]).
//!
//! **Assembly** (the game's `CG_PlayerAnimation` and `CG_PositionRotatedEntityOnTag`):
//! `upper` sits on `lower`'s `tag_torso`, `head` on `upper`'s `tag_head`, a weapon on
//! `upper`'s `tag_weapon`; a child's world transform is its parent's times the tag's (origin,
//! and the tag's axes as the rotation). The game plays a legs animation and a torso animation
//! at once; here each `animation.cfg` entry is one clip, and the part it does not drive holds
//! a standing pose:
//!
//! | entry | `lower` plays | `upper` plays |
//! |---|---|---|
//! | `BOTH_*` | the entry's frames | the entry's frames |
//! | `TORSO_*` | `LEGS_IDLE`'s first frame | the entry's frames |
//! | `LEGS_*` | the entry's frames | `TORSO_STAND`'s first frame |
//!
//! The head and the weapon keep their first frame. Parts are attached with the tags' axes
//! normalised, as `R_LerpTag` does (the tag nodes of a single MD3 keep the stored lengths as
//! their scale). The Model's frames are the clips' frames
//! one after another; every part's vertices are in model space at each frame (as every Model
//! keeps them), and the scene nodes `lower` > `tag_torso` > `upper` > `tag_head` > `head`
//! (and `tag_weapon` > `weapon`) carry the hierarchy, the tags moving per frame, so that
//! glTF gets an animated node tree. Without `animation.cfg` the parts play their frames
//! side by side in one clip (each part held at its last frame once it ends).

use super::convert::to_model;
use super::raw::File;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;
use crate::math;
use crate::model::{
    Clip, Converted, Frame, MeshPart, Model, MorphTarget, NodeTransform, SceneNode,
};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;

/// The animations of `animation.cfg`, in the game's order (the first 25 are Quake 3's, the
/// last 6 Team Arena's).
pub const ANIMATION_NAMES: [&str; 31] = [
    "BOTH_DEATH1",
    "BOTH_DEAD1",
    "BOTH_DEATH2",
    "BOTH_DEAD2",
    "BOTH_DEATH3",
    "BOTH_DEAD3",
    "TORSO_GESTURE",
    "TORSO_ATTACK",
    "TORSO_ATTACK2",
    "TORSO_DROP",
    "TORSO_RAISE",
    "TORSO_STAND",
    "TORSO_STAND2",
    "LEGS_WALKCR",
    "LEGS_WALK",
    "LEGS_RUN",
    "LEGS_BACK",
    "LEGS_SWIM",
    "LEGS_JUMP",
    "LEGS_LAND",
    "LEGS_JUMPB",
    "LEGS_LANDB",
    "LEGS_IDLE",
    "LEGS_IDLECR",
    "LEGS_TURN",
    "TORSO_GETFLAG",
    "TORSO_GUARDBASE",
    "TORSO_PATROL",
    "TORSO_FOLLOWME",
    "TORSO_AFFIRMATIVE",
    "TORSO_NEGATIVE",
];

/// One animation line.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationEntry {
    /// Its name by position ([`ANIMATION_NAMES`]).
    pub name: &'static str,
    /// First frame as written.
    pub first: i32,
    /// Number of frames (negative: played backwards).
    pub count: i32,
    /// Frames looped at the end.
    pub looping: i32,
    /// Frames per second.
    pub fps: f32,
}

/// A parsed `animation.cfg`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AnimationCfg {
    /// `sex` (`m`, `f`, `n`), if given.
    pub sex: Option<String>,
    /// `headoffset`, if given.
    pub head_offset: Option<[f32; 3]>,
    /// `footsteps` (`normal`, `boot`, `flesh`, `mech`, `energy`), if given.
    pub footsteps: Option<String>,
    /// Other keyword lines, kept as written.
    pub other: Vec<String>,
    /// The animations, in file order.
    pub animations: Vec<AnimationEntry>,
}

/// The largest number `animation.cfg` may give (frames and rates are far smaller in every
/// game; MD3 files hold at most 1024 frames).
const MAX_VALUE: f32 = 100_000.0;

fn cfg_error(line: usize, message: String) -> Error {
    Error::new(
        "animation.cfg",
        ErrorKind::InvalidValue,
        message,
        Location::LineCol {
            line: line as u32,
            column: 1,
        },
    )
}

impl AnimationCfg {
    /// Parses the file. Fails (with the line) on a number that does not read or on fewer
    /// than the 25 animations of Quake 3.
    pub fn parse(bytes: &[u8]) -> Result<AnimationCfg> {
        let text = String::from_utf8_lossy(bytes);
        let mut cfg = AnimationCfg::default();
        let mut numbers: Vec<(usize, f32)> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split("//").next().unwrap_or("").trim();
            let mut words = line.split_whitespace();
            let Some(first) = words.next() else { continue };
            if first.parse::<f32>().is_ok() {
                for w in std::iter::once(first).chain(words) {
                    let v = w
                        .parse::<f32>()
                        .map_err(|_| cfg_error(i + 1, format!("{w:?} is not a number")))?;
                    if v.is_nan() || v.abs() > MAX_VALUE {
                        return Err(cfg_error(
                            i + 1,
                            format!("{w} is out of range (at most {MAX_VALUE} either way)"),
                        ));
                    }
                    numbers.push((i + 1, v));
                }
                continue;
            }
            let rest: Vec<&str> = words.collect();
            match first.to_ascii_lowercase().as_str() {
                "sex" => cfg.sex = rest.first().map(|s| s.to_string()),
                "footsteps" => cfg.footsteps = rest.first().map(|s| s.to_string()),
                "headoffset" => {
                    let v: Vec<f32> = rest.iter().filter_map(|s| s.parse().ok()).collect();
                    if v.len() != 3 {
                        return Err(cfg_error(i + 1, "headoffset needs 3 numbers".into()));
                    }
                    cfg.head_offset = Some([v[0], v[1], v[2]]);
                }
                _ => cfg.other.push(line.to_string()),
            }
        }
        for (k, chunk) in numbers.chunks(4).enumerate() {
            let Some(&name) = ANIMATION_NAMES.get(k) else {
                break;
            };
            if chunk.len() < 4 {
                return Err(cfg_error(
                    chunk[0].0,
                    format!("{name}: 4 numbers needed, {} given", chunk.len()),
                ));
            }
            let fps = if chunk[3].1 == 0.0 { 1.0 } else { chunk[3].1 };
            cfg.animations.push(AnimationEntry {
                name,
                first: chunk[0].1 as i32,
                count: chunk[1].1 as i32,
                looping: chunk[2].1 as i32,
                fps,
            });
        }
        if cfg.animations.len() < 25 {
            return Err(cfg_error(
                numbers.last().map_or(1, |n| n.0),
                format!(
                    "{} animations; Quake 3 needs 25 (up to LEGS_TURN)",
                    cfg.animations.len()
                ),
            ));
        }
        Ok(cfg)
    }

    /// The entry called `name`.
    pub fn get(&self, name: &str) -> Option<&AnimationEntry> {
        self.animations.iter().find(|a| a.name == name)
    }

    /// The frames of `lower.md3` and `upper.md3` an entry shows, in play order: legs entries
    /// shifted by `LEGS_WALKCR.first - TORSO_GESTURE.first` as Quake 3 does, backwards for a
    /// negative count. `(lower, upper)`, `None` for the part the entry does not drive.
    pub fn part_frames(&self, entry: &AnimationEntry) -> (Option<Vec<usize>>, Option<Vec<usize>>) {
        // i64: the values are parsed within ±100 000, so no sum overflows.
        let skip = match (self.get("LEGS_WALKCR"), self.get("TORSO_GESTURE")) {
            (Some(l), Some(t)) => i64::from(l.first) - i64::from(t.first),
            _ => 0,
        };
        let frames = |first: i64| -> Vec<usize> {
            let n = i64::from(entry.count.unsigned_abs());
            let mut v: Vec<usize> = (0..n).map(|k| (first + k).max(0) as usize).collect();
            if entry.count < 0 {
                v.reverse();
            }
            v
        };
        let first = i64::from(entry.first);
        if entry.name.starts_with("BOTH_") {
            (Some(frames(first)), Some(frames(first)))
        } else if entry.name.starts_with("LEGS_") {
            (Some(frames(first - skip)), None)
        } else {
            (None, Some(frames(first)))
        }
    }
}

/// The parts of a player, each converted on its own (see [`super::to_model`]).
#[derive(Debug, Clone, Copy)]
pub struct Parts<'a> {
    /// `lower.md3`: legs, with `tag_torso`.
    pub lower: &'a Model,
    /// `upper.md3`: torso, with `tag_head` and `tag_weapon`.
    pub upper: &'a Model,
    /// `head.md3`.
    pub head: &'a Model,
    /// A weapon model for `tag_weapon`, if any.
    pub weapon: Option<&'a Model>,
}

/// The transform of the tag called `name` of `part` at `frame` (relative to the part), as the
/// engine attaches with it: `R_LerpTag` normalises the tag's axes, so a tag's scale (axes
/// longer than 1, as OpenArena's `tag_weapon`) does not scale the attached part.
fn tag_matrix(part: &Model, name: &str, frame: usize) -> Option<math::Mat4d> {
    let n = part
        .nodes
        .iter()
        .find(|n| n.name.eq_ignore_ascii_case(name))?;
    let t = NodeTransform {
        scale: [1.0; 3],
        ..*n.transform_at(frame)
    };
    Some(t.matrix())
}

/// Assembles a player ([module docs](self)): one Model, one clip per `animation.cfg` entry.
/// Fails when `lower` has no `tag_torso` or `upper` no `tag_head` (or no `tag_weapon` when a
/// weapon is given).
pub fn assemble(parts: Parts<'_>, cfg: Option<&AnimationCfg>) -> Result<Converted> {
    let mut warnings = Vec::new();
    check_tags(parts)?;
    let (steps, clips) = match cfg {
        Some(cfg) => cfg_steps(parts, cfg, &mut warnings),
        None => side_by_side_steps(parts, &mut warnings),
    };
    check_size(parts, &steps)?;
    let mut model = Model::default();
    let nodes = add_nodes(&mut model, parts);
    let worlds = animate_tags(&mut model, parts, &steps, &nodes);
    let mut list: Vec<(&Model, usize, usize)> = vec![
        (parts.lower, 0, nodes.lower),
        (parts.upper, 1, nodes.upper),
        (parts.head, 2, nodes.head),
    ];
    if let (Some(w), Some((_, n))) = (parts.weapon, nodes.weapon) {
        list.push((w, 3, n));
    }
    for (part, slot, node) in list {
        add_part(&mut model, part, slot, node, &steps, &worlds);
    }
    model.frames = step_frames(&model, &steps);
    model.clips = clips;
    model
        .validate()
        .map_err(|e| fail(format!("assembled player: {}", e.message)))?;
    Ok(Converted { model, warnings })
}

/// An error of the assembly.
fn fail(m: String) -> Error {
    Error::new("md3", ErrorKind::InvalidModel, m, Location::None)
}

/// Checks that the parts have the tags that join them.
fn check_tags(parts: Parts<'_>) -> Result<()> {
    for (part, tag, what) in [
        (parts.lower, "tag_torso", "lower"),
        (parts.upper, "tag_head", "upper"),
    ] {
        if tag_matrix(part, tag, 0).is_none() {
            return Err(fail(format!("{what}.md3 has no {tag}")));
        }
    }
    if parts.weapon.is_some() && tag_matrix(parts.upper, "tag_weapon", 0).is_none() {
        return Err(fail("upper.md3 has no tag_weapon for the weapon".into()));
    }
    Ok(())
}

/// One model frame: the frame of `lower.md3` and of `upper.md3` it shows, and its name.
type Step = (usize, usize, String);

/// The frame counts of the lower and upper parts (at least 1 each).
fn part_frame_counts(parts: Parts<'_>) -> (usize, usize) {
    (
        parts.lower.frames.len().max(1),
        parts.upper.frames.len().max(1),
    )
}

/// The model frames and clips of `animation.cfg`: each entry's frames, the part it leaves
/// out holding its idle frame (`LEGS_IDLE`, `TORSO_STAND`).
fn cfg_steps(
    parts: Parts<'_>,
    cfg: &AnimationCfg,
    warnings: &mut Vec<String>,
) -> (Vec<Step>, Vec<Clip>) {
    let (nl, nu) = part_frame_counts(parts);
    let mut steps: Vec<Step> = Vec::new();
    let mut clips = Vec::new();
    let hold = |name: &str, lower: bool| -> usize {
        cfg.get(name)
            .map(|e| {
                let (l, u) = cfg.part_frames(e);
                let v = if lower { l } else { u };
                v.and_then(|v| v.first().copied()).unwrap_or(0)
            })
            .unwrap_or(0)
    };
    let legs_idle = hold("LEGS_IDLE", true);
    let torso_stand = hold("TORSO_STAND", false);
    // An entry longer than the parts' frames shows frames the engine does not have
    // (it clamps them): cut to the longest part, so that a small animation.cfg
    // cannot ask for millions of poses.
    let longest = nl.max(nu);
    for e in &cfg.animations {
        let (mut l, mut u) = cfg.part_frames(e);
        let mut n = l.as_ref().or(u.as_ref()).map_or(0, Vec::len);
        if n == 0 {
            continue;
        }
        if n > longest {
            warnings.push(format!(
                "{}: {n} frames, more than the parts have ({longest}); cut to {longest}",
                e.name
            ));
            n = longest;
            for v in [&mut l, &mut u].into_iter().flatten() {
                v.truncate(n);
            }
        }
        let first = steps.len();
        for k in 0..n {
            let lf = l.as_ref().map_or(legs_idle, |v| v[k]);
            let uf = u.as_ref().map_or(torso_stand, |v| v[k]);
            if lf >= nl || uf >= nu {
                warnings.push(format!(
                    "{}: frame {} of lower.md3 or {} of upper.md3 is past the model's frames; the last one used",
                    e.name, lf, uf
                ));
            }
            steps.push((
                lf.min(nl - 1),
                uf.min(nu - 1),
                format!("{}{}", e.name.to_ascii_lowercase(), k + 1),
            ));
        }
        clips.push(Clip {
            name: e.name.to_string(),
            first,
            count: n,
            fps: e.fps,
            frame_times: None,
        });
    }
    (steps, clips)
}

/// Without `animation.cfg`: the parts' frames side by side, in one clip.
fn side_by_side_steps(parts: Parts<'_>, warnings: &mut Vec<String>) -> (Vec<Step>, Vec<Clip>) {
    let (nl, nu) = part_frame_counts(parts);
    let n = nl.max(nu);
    let steps = (0..n)
        .map(|k| (k.min(nl - 1), k.min(nu - 1), format!("frame{}", k + 1)))
        .collect();
    let clips = vec![Clip {
        name: "all".into(),
        first: 0,
        count: n,
        fps: 15.0,
        frame_times: None,
    }];
    warnings.push("no animation.cfg: the parts play their frames side by side".into());
    (steps, clips)
}

/// Checks that every step, a pose of every part's vertices (position and normal, 24 bytes
/// each), fits the default allocation limit.
fn check_size(parts: Parts<'_>, steps: &[Step]) -> Result<()> {
    let verts: u64 = [
        Some(parts.lower),
        Some(parts.upper),
        Some(parts.head),
        parts.weapon,
    ]
    .into_iter()
    .flatten()
    .flat_map(|p| &p.meshes)
    .map(|m| m.positions.len() as u64)
    .sum();
    let need = (steps.len() as u64).saturating_mul(verts * 24 + 256);
    let limit = crate::limits::Limits::default().max_alloc_bytes;
    if need > limit {
        return Err(fail(format!(
            "assembled player: {} frames of {verts} vertices ({need} bytes) would exceed the allocation limit of {limit} bytes",
            steps.len()
        )));
    }
    Ok(())
}

/// The nodes of the assembled player.
struct Nodes {
    lower: usize,
    tag_torso: usize,
    upper: usize,
    tag_head: usize,
    head: usize,
    /// `tag_weapon` and `weapon`, with a weapon.
    weapon: Option<(usize, usize)>,
}

/// Adds the node tree: lower > tag_torso > upper > tag_head > head, upper > tag_weapon >
/// weapon.
fn add_nodes(model: &mut Model, parts: Parts<'_>) -> Nodes {
    let add_node = |model: &mut Model, name: &str, parent: Option<usize>| {
        model.nodes.push(SceneNode {
            name: name.to_string(),
            parent,
            ..SceneNode::default()
        });
        model.nodes.len() - 1
    };
    let lower = add_node(model, "lower", None);
    let tag_torso = add_node(model, "tag_torso", Some(lower));
    let upper = add_node(model, "upper", Some(tag_torso));
    let tag_head = add_node(model, "tag_head", Some(upper));
    let head = add_node(model, "head", Some(tag_head));
    let weapon = parts.weapon.map(|_| {
        let t = add_node(model, "tag_weapon", Some(upper));
        (t, add_node(model, "weapon", Some(t)))
    });
    Nodes {
        lower,
        tag_torso,
        upper,
        tag_head,
        head,
        weapon,
    }
}

/// Gives the tag nodes their transform at every step, and returns the world matrix of each
/// part (lower, upper, head, weapon) per step.
fn animate_tags(
    model: &mut Model,
    parts: Parts<'_>,
    steps: &[Step],
    nodes: &Nodes,
) -> Vec<[math::Mat4d; 4]> {
    let to_transform = |m: &math::Mat4d| {
        let (t, q, scale) = math::decompose(m);
        NodeTransform {
            translation: t.map(|c| c as f32),
            rotation: math::normalize4(q).map(|c| c as f32),
            scale: scale.map(|c| c as f32),
        }
    };
    let mut torso_frames = Vec::with_capacity(steps.len());
    let mut head_frames = Vec::with_capacity(steps.len());
    let mut weapon_frames = Vec::with_capacity(steps.len());
    // World matrices of each part per model frame.
    let mut worlds: Vec<[math::Mat4d; 4]> = Vec::with_capacity(steps.len());
    let id: math::Mat4d = math::IDENTITY.map(f64::from);
    for &(lf, uf, _) in steps {
        let torso = tag_matrix(parts.lower, "tag_torso", lf).unwrap_or(id);
        let head = tag_matrix(parts.upper, "tag_head", uf).unwrap_or(id);
        let weapon = tag_matrix(parts.upper, "tag_weapon", uf).unwrap_or(id);
        torso_frames.push(to_transform(&torso));
        head_frames.push(to_transform(&head));
        weapon_frames.push(to_transform(&weapon));
        let upper_world = torso;
        worlds.push([
            id,
            upper_world,
            math::mul(&upper_world, &head),
            math::mul(&upper_world, &weapon),
        ]);
    }
    let moving = |frames: Vec<NodeTransform>, node: &mut SceneNode| {
        node.transform = frames.first().copied().unwrap_or_default();
        node.frames = frames;
    };
    moving(torso_frames, &mut model.nodes[nodes.tag_torso]);
    moving(head_frames, &mut model.nodes[nodes.tag_head]);
    if let Some((t, _)) = nodes.weapon {
        moving(weapon_frames, &mut model.nodes[t]);
    }
    worlds
}

/// Adds the meshes of `part` (in `slot` of `worlds`: lower, upper, head, weapon) under
/// `node`, posed at every step; parts showing the same picture (one skin for the whole
/// player) share one skin.
fn add_part(
    model: &mut Model,
    part: &Model,
    slot: usize,
    node: usize,
    steps: &[Step],
    worlds: &[[math::Mat4d; 4]],
) {
    let skin_map: Vec<usize> = part
        .skins
        .iter()
        .map(|sk| match model.skins.iter().position(|x| x == sk) {
            Some(k) => k,
            None => {
                model.skins.push(sk.clone());
                model.skins.len() - 1
            }
        })
        .collect();
    for mesh in &part.meshes {
        let mut m = mesh.clone();
        m.skin = mesh.skin.map(|k| skin_map[k]);
        let last = mesh.morph_targets.len().saturating_sub(1);
        m.morph_targets = steps
            .iter()
            .zip(worlds)
            .map(|(&(lf, uf, _), w)| {
                let f = match slot {
                    0 => lf,
                    1 => uf,
                    _ => 0,
                };
                let src = mesh.morph_targets.get(f.min(last));
                let (p, n) = match src {
                    Some(t) => (&t.positions, &t.normals),
                    None => (&mesh.positions, &mesh.normals),
                };
                let world = &w[slot];
                let m4: math::Mat4 = world.map(|c| c as f32);
                MorphTarget {
                    positions: p.iter().map(|v| math::transform_point(&m4, *v)).collect(),
                    normals: n.iter().map(|v| math::transform_vector(&m4, *v)).collect(),
                }
            })
            .collect();
        if let Some(t) = m.morph_targets.first() {
            m.positions = t.positions.clone();
            m.normals = t.normals.clone();
        }
        let mi = model.meshes.len();
        model.nodes[node].parts.push(MeshPart {
            mesh: mi,
            triangles: 0..m.triangles.len(),
        });
        model.meshes.push(m);
    }
}

/// The model frames of `steps`, each with the bounds of every mesh's pose at it.
fn step_frames(model: &Model, steps: &[Step]) -> Vec<Frame> {
    steps
        .iter()
        .enumerate()
        .map(|(f, (_, _, name))| {
            let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
            for p in model
                .meshes
                .iter()
                .flat_map(|m| &m.morph_targets[f].positions)
            {
                for a in 0..3 {
                    lo[a] = lo[a].min(p[a]);
                    hi[a] = hi[a].max(p[a]);
                }
            }
            if lo[0] > hi[0] {
                (lo, hi) = ([0.0; 3], [0.0; 3]);
            }
            Frame {
                name: name.clone(),
                bounds_min: lo,
                bounds_max: hi,
                // Each part's 1/64 grid, turned by the tags: rounding to 1/64 on the model's
                // axes errs no more than the parts' own grid did.
                position_step: Some([super::raw::XYZ_SCALE; 3]),
            }
        })
        .collect()
}

/// The parts' file names in a player folder, in assembly order.
pub const PART_FILES: [&str; 3] = ["lower.md3", "upper.md3", "head.md3"];

/// A player folder's files, wherever they are (a folder on disk, a folder inside an archive):
/// what [`load_folder`] reads.
pub trait PlayerFolder {
    /// Whether the folder has the file `name` (`lower.md3`, `animation.cfg`).
    fn has(&self, name: &str) -> bool;
    /// The bytes of the folder's file `name`, or why it cannot be read.
    fn read(&self, name: &str) -> std::result::Result<Vec<u8>, String>;
    /// The resolver for the side files of the folder's model `name` (its skins).
    fn resolver(&self, name: &str) -> Box<dyn Resolver + '_>;
    /// How messages name the folder's file `name` (its path); `""` names the folder.
    fn show(&self, name: &str) -> String;
}

/// Whether `folder` holds a Quake 3 player: `lower.md3`, `upper.md3` and `head.md3`.
pub fn is_player(folder: &dyn PlayerFolder) -> bool {
    PART_FILES.iter().all(|f| folder.has(f))
}

/// Why a player folder could not be loaded: the file (or folder) it is about and the
/// problem, shown as `FILE: PROBLEM`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FolderError {
    /// The file or folder, as [`PlayerFolder::show`] names it.
    pub file: String,
    /// The problem.
    pub message: String,
}

impl std::fmt::Display for FolderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for FolderError {}

/// Reads a player folder's three parts (each converted with `options`, side files found by
/// the folder's resolver for it), its `animation.cfg` when present, and assembles them with
/// `weapon` (a model converted by the caller) on `tag_weapon` ([`assemble`]). The warnings of
/// each part are prefixed with its file, and come before the assembly's.
pub fn load_folder(
    folder: &dyn PlayerFolder,
    weapon: Option<&Converted>,
    options: &ConvertOptions,
    limits: &Limits,
) -> std::result::Result<Converted, FolderError> {
    let error = |name: &str, message: String| FolderError {
        file: folder.show(name),
        message,
    };
    let part = |name: &str| -> std::result::Result<Converted, FolderError> {
        let bytes = folder.read(name).map_err(|m| error(name, m))?;
        let file = File::parse(&bytes, limits).map_err(|e| error(name, e.to_string()))?;
        let mut c = to_model(&file, options, &*folder.resolver(name));
        let shown = folder.show(name);
        for w in &mut c.warnings {
            *w = format!("{shown}: {w}");
        }
        Ok(c)
    };
    let [lower, upper, head] = [
        part(PART_FILES[0])?,
        part(PART_FILES[1])?,
        part(PART_FILES[2])?,
    ];
    let cfg = if folder.has("animation.cfg") {
        let bytes = folder
            .read("animation.cfg")
            .map_err(|m| error("animation.cfg", m))?;
        Some(AnimationCfg::parse(&bytes).map_err(|e| error("animation.cfg", e.to_string()))?)
    } else {
        None
    };
    let mut out = assemble(
        Parts {
            lower: &lower.model,
            upper: &upper.model,
            head: &head.model,
            weapon: weapon.map(|w| &w.model),
        },
        cfg.as_ref(),
    )
    .map_err(|e| error("", e.to_string()))?;
    let mut warnings = Vec::new();
    for c in [Some(&lower), Some(&upper), Some(&head), weapon]
        .into_iter()
        .flatten()
    {
        warnings.extend(c.warnings.iter().cloned());
    }
    warnings.append(&mut out.warnings);
    out.warnings = warnings;
    Ok(out)
}
