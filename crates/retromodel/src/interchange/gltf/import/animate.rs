//! Animations: channels read once, sampled at any time, and turned into the model's frames
//! and clips. An animation's `extras` this crate's exporter writes are kept: `frameCount`,
//! `frameGroup`, `events` and `md5scalePositions` (the joints whose translations carry their weight
//! scale, which the skin module divides out).

use gltf::accessor::Dimensions;
use gltf::animation::{Interpolation, Property};

use super::accessor::floats;
use super::scene::Scene;
use super::{fail, Buffers, Spent};
use crate::error::{ErrorKind, Result};
use crate::interchange::ImportOptions;
use crate::limits::{Budget, Limits};
use crate::math::{self, Mat4};
use crate::model::{AnimationEvent, Clip, Frame, Model, MorphTarget};
use std::collections::HashMap;

/// A skeleton's joint matrices per skin for the nodes' world matrices
/// (`Skeleton::slot_matrices`), handed to [`Animations::frames`].
pub(super) type SlotMatrices<'a> = dyn Fn(&[Mat4]) -> HashMap<usize, Vec<Mat4>> + 'a;

/// Frames per second of sampled keyframe clips unless told otherwise (Quake's rate).
pub const DEFAULT_FPS: f32 = 10.0;

/// One channel: what it drives and its keys.
#[derive(Debug, Clone)]
pub(super) struct Channel {
    pub node: usize,
    pub property: Property,
    pub interpolation: Interpolation,
    pub times: Vec<f32>,
    /// Values, `width` per key (three per key for cubic splines: in-tangent, value,
    /// out-tangent).
    pub values: Vec<f32>,
    pub width: usize,
}

/// One animation.
#[derive(Debug, Clone)]
pub(super) struct Animation {
    pub name: String,
    pub channels: Vec<Channel>,
    /// `extras.frameCount`: how many frames the keys show (this crate's exporter).
    pub frame_count: Option<usize>,
    /// `extras.frameGroup`: the key times are a frame group's.
    pub group: bool,
    /// `extras.md5scalePositions`: the skin joint slots whose translation keys this crate's
    /// exporter multiplied by their weight scale (`Skeleton::apply` divides it out).
    pub scaled_positions: Vec<usize>,
    /// `extras.events`: what the animation fires ([`AnimationEvent`], this crate's exporter),
    /// each with its `time` in seconds when given.
    pub events: Vec<(AnimationEvent, Option<f64>)>,
}

/// `extras.events` as this crate's exporter writes it, with each event's `time` when it is a
/// finite number; entries that are not objects with an integer `frame` and `event` are
/// left out.
fn events_of(extras: Option<&serde_json::Value>) -> Vec<(AnimationEvent, Option<f64>)> {
    let Some(list) = extras.and_then(|e| e.get("events")?.as_array()) else {
        return Vec::new();
    };
    let int = |e: &serde_json::Value, k: &str| -> Option<i32> {
        e.get(k)?.as_i64().and_then(|v| i32::try_from(v).ok())
    };
    list.iter()
        .filter_map(|e| {
            let event = AnimationEvent {
                frame: int(e, "frame")?,
                event: int(e, "event")?,
                kind: int(e, "type").unwrap_or(0),
                options: e
                    .get("options")
                    .and_then(|o| o.as_str())
                    .unwrap_or("")
                    .to_string(),
            };
            let time = e
                .get("time")
                .and_then(|t| t.as_f64())
                .filter(|t| t.is_finite());
            Some((event, time))
        })
        .collect()
}

/// Every animation of the file.
#[derive(Debug, Clone)]
pub(super) struct Animations(pub Vec<Animation>);

impl Channel {
    /// The channel's value at `t` (clamped to its keys), `width` floats into `out`.
    pub fn sample(&self, t: f32, out: &mut [f32]) {
        let w = self.width;
        let n = self.times.len();
        let cubic = self.interpolation == Interpolation::CubicSpline;
        let value = |k: usize| -> &[f32] {
            if cubic {
                &self.values[(3 * k + 1) * w..(3 * k + 2) * w]
            } else {
                &self.values[k * w..(k + 1) * w]
            }
        };
        let k = self.times.partition_point(|&x| x <= t);
        if k == 0 || n == 1 {
            out.copy_from_slice(value(0));
            return;
        }
        if k >= n {
            out.copy_from_slice(value(n - 1));
            return;
        }
        let (t0, t1) = (self.times[k - 1], self.times[k]);
        let dt = t1 - t0;
        let u = if dt > 0.0 {
            ((t - t0) / dt).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let (a, b) = (value(k - 1), value(k));
        if u == 0.0 {
            // On a key: its value exactly.
            out.copy_from_slice(a);
            return;
        }
        match self.interpolation {
            Interpolation::Step => out.copy_from_slice(a),
            Interpolation::Linear if self.property == Property::Rotation => {
                let q = math::slerp([a[0], a[1], a[2], a[3]], [b[0], b[1], b[2], b[3]], u);
                out.copy_from_slice(&q);
            }
            Interpolation::Linear => {
                for i in 0..w {
                    out[i] = a[i] + (b[i] - a[i]) * u;
                }
            }
            Interpolation::CubicSpline => {
                let out_tangent = &self.values[(3 * (k - 1) + 2) * w..(3 * (k - 1) + 3) * w];
                let in_tangent = &self.values[3 * k * w..(3 * k + 1) * w];
                let (u2, u3) = (u * u, u * u * u);
                let h00 = 2.0 * u3 - 3.0 * u2 + 1.0;
                let h10 = u3 - 2.0 * u2 + u;
                let h01 = -2.0 * u3 + 3.0 * u2;
                let h11 = u3 - u2;
                for i in 0..w {
                    out[i] = h00 * a[i]
                        + h10 * dt * out_tangent[i]
                        + h01 * b[i]
                        + h11 * dt * in_tangent[i];
                }
                if self.property == Property::Rotation {
                    let q = math::normalize4([out[0], out[1], out[2], out[3]]);
                    out.copy_from_slice(&q);
                }
            }
        }
    }
}

impl Animation {
    /// The first key time (Blender's exports start at the scene's first frame, `1 / fps`).
    pub fn start(&self) -> f32 {
        self.channels
            .iter()
            .filter_map(|c| c.times.first().copied())
            .fold(f32::INFINITY, f32::min)
            .min(self.duration())
    }

    /// The last key time.
    pub fn duration(&self) -> f32 {
        self.channels
            .iter()
            .filter_map(|c| c.times.last().copied())
            .fold(0.0, f32::max)
    }

    /// How many frames sampling from the first key to the last at `fps` gives, counted
    /// against [`Limits::max_sampled_frames`] together with `sampled`, the frames sampled
    /// before (which it then includes).
    pub fn sampled_count(&self, fps: f32, limits: &Limits, sampled: &mut u64) -> Result<usize> {
        let (t0, d) = (self.start(), self.duration());
        // NaN (a rate of 0 over no span) and negative steps give one frame, as before.
        let steps = ((d - t0) * fps + 1e-3).floor();
        let limit = u64::from(limits.max_sampled_frames);
        let left = limit.saturating_sub(*sampled);
        if f64::from(steps) + 1.0 > left as f64 {
            let count = f64::from(steps) + 1.0;
            let before = if *sampled > 0 {
                format!(
                    " ({} with the {sampled} sampled before it)",
                    number(count + *sampled as f64)
                )
            } else {
                String::new()
            };
            return Err(fail(
                ErrorKind::LimitExceeded,
                format!(
                    "animation \"{}\": its keys span {} s (from {} s to {} s); sampled at {fps} \
                     fps that is {} frames{before}, more than the limit of {limit} sampled \
                     frames (Limits::max_sampled_frames); a lower frame rate (--fps) samples \
                     fewer",
                    self.name,
                    number(f64::from(d - t0)),
                    number(f64::from(t0)),
                    number(f64::from(d)),
                    number(count),
                ),
            ));
        }
        let count = (steps as usize).saturating_add(1);
        *sampled += count as u64;
        Ok(count)
    }

    /// Local matrices and morph weights of every node at time `t`.
    pub fn evaluate(&self, scene: &Scene, t: f32) -> (Vec<Mat4>, Vec<Vec<f32>>) {
        let (locals, weights, _, _) = self.evaluate_trs(scene, t);
        (locals, weights)
    }

    /// [`Animation::evaluate`] plus each node's translation, rotation and scale, and whether
    /// a channel moved it.
    #[allow(clippy::type_complexity)]
    pub fn evaluate_trs(
        &self,
        scene: &Scene,
        t: f32,
    ) -> (
        Vec<Mat4>,
        Vec<Vec<f32>>,
        Vec<([f32; 3], [f32; 4], [f32; 3])>,
        Vec<bool>,
    ) {
        let mut trs: Vec<_> = scene.nodes.iter().map(|n| n.trs).collect();
        let mut moved = vec![false; trs.len()];
        let mut weights: Vec<Vec<f32>> = scene.nodes.iter().map(|n| n.weights.clone()).collect();
        let mut buf = Vec::new();
        for c in &self.channels {
            buf.resize(c.width, 0.0);
            c.sample(t, &mut buf);
            let n = c.node;
            match c.property {
                Property::Translation => trs[n].0 = [buf[0], buf[1], buf[2]],
                Property::Rotation => trs[n].1 = [buf[0], buf[1], buf[2], buf[3]],
                Property::Scale => trs[n].2 = [buf[0], buf[1], buf[2]],
                Property::MorphTargetWeights => {
                    weights[n] = buf.clone();
                    continue;
                }
            }
            moved[n] = true;
        }
        let locals = scene
            .nodes
            .iter()
            .enumerate()
            .map(|(i, node)| match (node.matrix, moved[i]) {
                (Some(m), false) => m,
                _ => math::from_trs(trs[i].0, trs[i].1, trs[i].2),
            })
            .collect();
        (locals, weights, trs, moved)
    }

    /// When the animation drives morph weights and every key shows one whole pose (other
    /// channels only moving nodes that draw nothing, such as MD3 tags, at the same keys):
    /// the pose of each key (0 = rest, `k + 1` = target `k`) and the key times.
    fn whole_poses(&self, markers: &[bool]) -> Option<(Vec<usize>, Vec<f32>)> {
        let first = self
            .channels
            .iter()
            .find(|c| c.property == Property::MorphTargetWeights)?;
        let mut poses: Option<Vec<usize>> = None;
        for c in &self.channels {
            if c.interpolation == Interpolation::CubicSpline || c.times != first.times {
                return None;
            }
            if c.property != Property::MorphTargetWeights {
                if markers.get(c.node) == Some(&true) {
                    continue;
                }
                return None;
            }
            let p: Option<Vec<usize>> = c
                .values
                .chunks_exact(c.width)
                .map(|w| {
                    let ones: Vec<usize> = (0..w.len()).filter(|&i| w[i] == 1.0).collect();
                    let zeros = w.iter().filter(|&&x| x == 0.0).count();
                    match (ones.as_slice(), zeros + ones.len() == w.len()) {
                        ([], true) => Some(0),
                        ([i], true) => Some(i + 1),
                        _ => None,
                    }
                })
                .collect();
            let p = p?;
            match &poses {
                Some(q) if *q != p => return None,
                _ => poses = Some(p),
            }
        }
        Some((poses?, first.times.clone()))
    }
}

impl Animations {
    /// Reads every animation's channels.
    pub fn new(
        doc: &gltf::Document,
        buffers: &Buffers,
        scene: &Scene,
        budget: &mut Budget,
        warnings: &mut Vec<String>,
    ) -> Result<Animations> {
        let mut out = Vec::new();
        for a in doc.animations() {
            let name = a
                .name()
                .map(str::to_string)
                .unwrap_or_else(|| format!("animation{}", a.index()));
            let mut channels = Vec::new();
            for (ci, c) in a.channels().enumerate() {
                let what = format!("animation \"{name}\" channel {ci}");
                let node = c.target().node().index();
                let property = c.target().property();
                let s = c.sampler();
                let (times, _) = floats(
                    buffers,
                    &s.input(),
                    &[Dimensions::Scalar],
                    budget,
                    &format!("{what}: input"),
                )?;
                if times.is_empty()
                    || times.iter().any(|t| !t.is_finite())
                    || times.windows(2).any(|w| w[0] > w[1])
                {
                    return Err(fail(
                        ErrorKind::InvalidValue,
                        format!("{what}: key times are not finite and increasing"),
                    ));
                }
                let dims: &[Dimensions] = match property {
                    Property::Translation | Property::Scale => &[Dimensions::Vec3],
                    Property::Rotation => &[Dimensions::Vec4],
                    Property::MorphTargetWeights => &[Dimensions::Scalar],
                };
                let (values, _) = floats(
                    buffers,
                    &s.output(),
                    dims,
                    budget,
                    &format!("{what}: output"),
                )?;
                let per_key = if s.interpolation() == Interpolation::CubicSpline {
                    3
                } else {
                    1
                };
                let slots = times.len() * per_key;
                let expect = match property {
                    Property::Translation | Property::Scale => Some(3),
                    Property::Rotation => Some(4),
                    Property::MorphTargetWeights => None,
                };
                // Whole values per key slot, as many per slot as the property has components.
                let fits = !values.is_empty()
                    && values.len() % slots == 0
                    && expect.is_none_or(|e| e == values.len() / slots);
                if !fits {
                    return Err(fail(
                        ErrorKind::BadCount,
                        format!(
                            "{what}: {} output values for {} keys",
                            values.len(),
                            times.len()
                        ),
                    ));
                }
                let width = values.len() / slots;
                if property == Property::MorphTargetWeights {
                    let targets = scene
                        .instances
                        .iter()
                        .filter(|i| i.node == node)
                        .map(|i| i.targets.len())
                        .max()
                        .unwrap_or(0);
                    if targets != width {
                        warnings.push(format!(
                            "{what}: {width} weights per key for {targets} morph targets; left out"
                        ));
                        continue;
                    }
                }
                channels.push(Channel {
                    node,
                    property,
                    interpolation: s.interpolation(),
                    times,
                    values,
                    width,
                });
            }
            if channels.is_empty() {
                warnings.push(format!(
                    "animation \"{name}\" has no usable channel; left out"
                ));
                continue;
            }
            let extras: Option<serde_json::Value> = a
                .extras()
                .as_ref()
                .and_then(|r| serde_json::from_str(r.get()).ok());
            let frame_count = extras
                .as_ref()
                .and_then(|e| e.get("frameCount")?.as_u64())
                .map(|n| n as usize);
            let group = extras
                .as_ref()
                .and_then(|e| e.get("frameGroup")?.as_bool())
                .unwrap_or(false);
            let scaled_positions: Vec<usize> = extras
                .as_ref()
                .and_then(|e| e.get("md5scalePositions")?.as_array())
                .map(|list| {
                    list.iter()
                        .filter_map(|j| usize::try_from(j.as_u64()?).ok())
                        .collect()
                })
                .unwrap_or_default();
            out.push(Animation {
                name,
                channels,
                frame_count,
                group,
                scaled_positions,
                events: events_of(extras.as_ref()),
            });
        }
        Ok(Animations(out))
    }

    /// Fills `model.frames`, `model.clips` and one placeholder mesh per instance with its
    /// morph targets (one per frame). Each animation's frames are charged to the budget of
    /// `spent` and reserved before it is sampled; sampled frames count against
    /// [`Limits::max_sampled_frames`] with the frames `spent` has sampled. `skeleton`, when the
    /// scene has skins, gives each skin's joint matrices for the nodes' world matrices
    /// (`Skeleton::slot_matrices`).
    pub fn frames(
        &self,
        scene: &Scene,
        skeleton: Option<&SlotMatrices<'_>>,
        options: &ImportOptions,
        model: &mut Model,
        spent: &mut Spent,
    ) -> Result<()> {
        let (budget, sampled) = (&mut spent.budget, &mut spent.sampled);
        model.meshes = scene.empty_meshes();
        let verts: u64 = scene
            .instances
            .iter()
            .map(|i| i.positions.len() as u64)
            .sum();
        // What a frame keeps: its name and bounds, and per instance a morph target with a
        // position and a normal per vertex.
        // Nodes named `tag_*` that draw nothing (MD3 tags): their world transform in every
        // frame becomes a moving scene node of the model.
        let markers = scene.markers();
        let tags: Vec<usize> = scene
            .order
            .iter()
            .copied()
            .filter(|&i| markers[i] && scene.nodes[i].name.to_ascii_lowercase().starts_with("tag_"))
            .collect();
        let frame_bytes = |name_len: usize| {
            (std::mem::size_of::<Frame>() + name_len) as u64
                + scene.instances.len() as u64 * std::mem::size_of::<MorphTarget>() as u64
                + verts * 24
                // Each tag's world matrix while sampling, then its node transform.
                + tags.len() as u64 * 112
        };
        // Charges `count` frames with names of at most `name_len` bytes, then reserves them.
        let mut reserve =
            |model: &mut Model, what: &str, count: usize, name_len: usize| -> Result<()> {
                let bytes = frame_bytes(name_len).saturating_mul(count as u64);
                budget.charge(bytes).map_err(|limit| {
                    fail(
                        ErrorKind::LimitExceeded,
                        format!(
                            "{what}: {count} frames of {verts} vertices ({bytes} bytes) would \
                             exceed the allocation limit of {limit} bytes"
                        ),
                    )
                })?;
                model.frames.reserve_exact(count);
                for m in &mut model.meshes {
                    m.morph_targets.reserve_exact(count);
                }
                Ok(())
            };
        let push =
            |model: &mut Model, name: String, world: &[Mat4], weights: &[Vec<f32>]| -> Result<()> {
                let joints = skeleton.map(|slot_matrices| slot_matrices(world));
                let (mut lo, mut hi) = ([f32::INFINITY; 3], [f32::NEG_INFINITY; 3]);
                for (k, inst) in scene.instances.iter().enumerate() {
                    let (mut p, mut n) = (Vec::new(), Vec::new());
                    let js = match (inst.skin, &joints) {
                        (Some(s), Some(j)) => j.get(&s).map(|v| v.as_slice()),
                        _ => None,
                    };
                    scene.pose(k, world, &weights[inst.node], js, &mut p, &mut n);
                    for q in &p {
                        for a in 0..3 {
                            lo[a] = lo[a].min(q[a]);
                            hi[a] = hi[a].max(q[a]);
                        }
                    }
                    model.meshes[k].morph_targets.push(MorphTarget {
                        positions: p,
                        normals: n,
                    });
                }
                if lo[0] > hi[0] {
                    (lo, hi) = ([0.0; 3], [0.0; 3]);
                }
                model.frames.push(Frame {
                    name,
                    bounds_min: lo,
                    bounds_max: hi,
                    position_step: None,
                });
                Ok(())
            };
        let mut tag_worlds: Vec<Vec<Mat4>> = Vec::new();
        let mut note_tags =
            |world: &[Mat4]| tag_worlds.push(tags.iter().map(|&i| world[i]).collect());
        if self.0.is_empty() {
            let world = scene.world(&scene.rest_locals());
            let weights: Vec<Vec<f32>> = scene.nodes.iter().map(|n| n.weights.clone()).collect();
            let name = scene
                .frame_names
                .as_ref()
                .and_then(|n| n.first().cloned())
                .unwrap_or_else(|| "frame1".into());
            reserve(model, "the rest pose", 1, name.len())?;
            push(model, name, &world, &weights)?;
            note_tags(&world);
            model.clips = crate::model::clips_from_frame_names(
                model.frames.iter().map(|f| f.name.as_str()).enumerate(),
                DEFAULT_FPS,
            );
            model.nodes = tag_nodes(scene, &tags, &tag_worlds);
            return Ok(());
        }
        for a in &self.0 {
            let first = model.frames.len();
            let whole = if options.fps.is_none() {
                a.whole_poses(&markers)
            } else {
                None
            };
            if let Some((mut poses, times)) = whole {
                // The exporter's last key holds the last pose to the clip's end.
                let mut ends: Vec<f32> = times[1..].to_vec();
                let held = match a.frame_count {
                    Some(n) => n + 1 == poses.len(),
                    None => poses.len() >= 2 && poses[poses.len() - 1] == poses[poses.len() - 2],
                };
                if held {
                    poses.pop();
                } else {
                    let step = if times.len() >= 2 {
                        times[times.len() - 1] - times[times.len() - 2]
                    } else {
                        1.0 / DEFAULT_FPS
                    };
                    ends.push(times[times.len() - 1] + step);
                }
                // The longest name a pose may take: a stored one or `<clip><n>`.
                let stored = scene.frame_names.iter().chain(&scene.target_names);
                let name_len = stored
                    .flatten()
                    .map(String::len)
                    .fold(a.name.len() + 20, usize::max);
                let what = format!("animation \"{}\"", a.name);
                reserve(model, &what, poses.len(), name_len)?;
                for (k, &pose) in poses.iter().enumerate() {
                    // Only nodes that draw nothing move in such an animation.
                    let (locals, _) = a.evaluate(scene, times[k]);
                    let world = scene.world(&locals);
                    let mut weights: Vec<Vec<f32>> = scene
                        .nodes
                        .iter()
                        .map(|n| vec![0.0; n.weights.len()])
                        .collect();
                    for c in a
                        .channels
                        .iter()
                        .filter(|c| c.property == Property::MorphTargetWeights)
                    {
                        let mut w = vec![0.0; c.width];
                        if pose > 0 {
                            w[pose - 1] = 1.0;
                        }
                        weights[c.node] = w;
                    }
                    let name =
                        pose_name(scene, pose).unwrap_or_else(|| format!("{}{}", a.name, k + 1));
                    push(model, name, &world, &weights)?;
                    note_tags(&world);
                }
                let count = poses.len();
                model
                    .clips
                    .push(timed_clip(&a.name, first, count, &ends[..count], a.group));
                continue;
            }
            let fps = options.fps.unwrap_or(DEFAULT_FPS);
            let (t0, d) = (a.start(), a.duration());
            let count = a.sampled_count(fps, &options.limits, sampled)?;
            let what = format!("animation \"{}\"", a.name);
            reserve(model, &what, count, a.name.len() + 20)?;
            for k in 0..count {
                let t = (t0 + k as f32 / fps).min(d);
                let (locals, weights) = a.evaluate(scene, t);
                let world = scene.world(&locals);
                push(model, format!("{}{}", a.name, k + 1), &world, &weights)?;
                note_tags(&world);
            }
            model.clips.push(Clip {
                name: a.name.clone(),
                first,
                count,
                fps,
                frame_times: None,
            });
        }
        model.nodes = tag_nodes(scene, &tags, &tag_worlds);
        Ok(())
    }
}

/// The model's scene nodes for the glTF nodes `tags`, from their world matrix in each frame
/// (glTF's Y-up turned to the model's Z-up): moving nodes when they move.
fn tag_nodes(scene: &Scene, tags: &[usize], worlds: &[Vec<Mat4>]) -> Vec<crate::model::SceneNode> {
    tags.iter()
        .enumerate()
        .map(|(k, &i)| {
            let frames: Vec<crate::model::NodeTransform> = worlds
                .iter()
                .map(|w| {
                    let (t, q, s) = math::decompose(&w[k]);
                    let t = crate::model::NodeTransform {
                        translation: math::from_y_up(t),
                        rotation: math::quat_from_y_up(math::normalize4(q)),
                        scale: [s[0], s[2], s[1]],
                    };
                    // A node scaled to nothing (a way to hide it) or not finite is no
                    // usable tag: it stays at the origin rather than failing the import.
                    let usable =
                        t.is_finite() && t.scale.iter().all(|c| (1e-6..=1e6).contains(&c.abs()));
                    if usable {
                        t
                    } else {
                        crate::model::NodeTransform::IDENTITY
                    }
                })
                .collect();
            let moves = frames.windows(2).any(|w| w[0] != w[1]);
            crate::model::SceneNode {
                name: scene.nodes[i].name.clone(),
                parent: None,
                transform: frames.first().copied().unwrap_or_default(),
                parts: Vec::new(),
                frames: if moves { frames } else { Vec::new() },
            }
        })
        .collect()
}

/// `x` for a message: as it is up to a billion, else in scientific notation (`1.000e30`),
/// so that a key time of 1e30 does not print 31 digits.
fn number(x: f64) -> String {
    if x.abs() < 1e9 {
        // Through f32 when exact, so that key times print as stored (0.1, not 0.100000001).
        let short = x as f32;
        if f64::from(short) == x {
            return short.to_string();
        }
        return x.to_string();
    }
    format!("{x:.3e}")
}

/// The stored name of pose `p`, if the file has names.
fn pose_name(scene: &Scene, p: usize) -> Option<String> {
    if let Some(n) = &scene.frame_names {
        return n.get(p).cloned();
    }
    p.checked_sub(1)
        .and_then(|t| scene.target_names.as_ref()?.get(t).cloned())
}

/// A clip whose frames end at `ends`: a uniform rate when the steps are equal (and the
/// times are not a frame group's), else per-frame times.
fn timed_clip(name: &str, first: usize, count: usize, ends: &[f32], group: bool) -> Clip {
    let step = ends[0];
    let uniform = !group
        && step > 0.0
        && ends
            .iter()
            .enumerate()
            .all(|(k, &e)| (e - step * (k + 1) as f32).abs() <= 1e-4 * (k + 1) as f32);
    if uniform {
        let fps = 1.0 / step;
        let round = fps.round();
        Clip {
            name: name.to_string(),
            first,
            count,
            fps: if (fps - round).abs() < 1e-3 {
                round
            } else {
                fps
            },
            frame_times: None,
        }
    } else {
        Clip {
            name: name.to_string(),
            first,
            count,
            fps: DEFAULT_FPS,
            frame_times: Some(ends.to_vec()),
        }
    }
}
