//! Keyframe animation: one glTF animation per clip, driving the morph weights.
//!
//! Pose `f` is the base mesh plus morph target `f - 1` at weight 1 (pose 0 is the base with
//! every weight 0), so a clip is a list of keys, each a time and a one-hot weight vector,
//! interpolated `LINEAR`ly. Key `k` of a clip at `fps` is at `k / fps`; a frame group with
//! cumulative end times `[e0, e1, ...]` has its keys at `[0, e0, e1, ...]` (each pose shows from
//! the end of the one before). A last key repeats the clip's last pose at the clip's end, so
//! the clip lasts its full duration. Quantised exports write the weights as normalised
//! unsigned bytes, the ones sparse over zeros: five bytes or so a key whatever the number
//! of targets (a 1007-frame model's floats took 4 MB).

use gltf_json as json;
use json::animation::{Interpolation, Property};
use json::validation::Checked::Valid;

use super::{strictly_increasing, Builder, ClipSplit, DEFAULT_FPS};
use crate::error::Result;
use crate::model::{self, Clip};

/// Poses of one animation and when each is reached.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Timeline {
    /// The animation's name.
    pub name: String,
    /// Model frame shown at each key.
    pub frames: Vec<usize>,
    /// Key times in seconds, strictly increasing, one per entry of `frames`.
    pub times: Vec<f32>,
    /// Whether the times are a frame group's stored ones.
    pub group: bool,
}

/// `frames` at `fps`, the last held for one step ([`model::Timeline::uniform`]).
fn uniform(name: &str, frames: Vec<usize>, fps: f32) -> Timeline {
    let t = model::Timeline::uniform(frames, fps);
    Timeline {
        name: name.to_string(),
        frames: t.frames,
        times: t.times,
        group: false,
    }
}

/// A frame group at its stored end times ([`model::Timeline::grouped`]), or `None` when they
/// are not positive and strictly increasing.
fn grouped(clip: &Clip) -> Option<Timeline> {
    model::Timeline::grouped(clip).map(|t| Timeline {
        name: clip.name.clone(),
        frames: t.frames,
        times: t.times,
        group: true,
    })
}

/// One glTF animation's samplers and channels as they are added.
#[derive(Debug, Default)]
pub(super) struct Channels {
    samplers: Vec<json::animation::Sampler>,
    channels: Vec<json::animation::Channel>,
}

impl Channels {
    /// Adds a `LINEAR` sampler from `input` to `output` and a channel driving `path` of each
    /// of `targets`.
    pub fn push(
        &mut self,
        input: json::Index<json::Accessor>,
        output: json::Index<json::Accessor>,
        targets: &[json::Index<json::Node>],
        path: Property,
    ) {
        self.push_with(input, output, targets, path, Interpolation::Linear);
    }

    /// [`Channels::push`] with the sampler's `interpolation` (`STEP` for the weight scale
    /// helpers, which hold each frame's scale until the next key).
    pub fn push_with(
        &mut self,
        input: json::Index<json::Accessor>,
        output: json::Index<json::Accessor>,
        targets: &[json::Index<json::Node>],
        path: Property,
        interpolation: Interpolation,
    ) {
        let sampler = json::Index::push(
            &mut self.samplers,
            json::animation::Sampler {
                extensions: None,
                extras: Default::default(),
                input,
                interpolation: Valid(interpolation),
                output,
            },
        );
        for &node in targets {
            self.channels.push(json::animation::Channel {
                sampler,
                target: json::animation::Target {
                    extensions: None,
                    extras: Default::default(),
                    node,
                    path: Valid(path),
                },
                extensions: None,
                extras: Default::default(),
            });
        }
    }

    /// The glTF animation `name` of these channels, with `extras`.
    pub fn animation(self, name: String, extras: json::Extras) -> json::Animation {
        json::Animation {
            extensions: None,
            extras,
            channels: self.channels,
            name: Some(name),
            samplers: self.samplers,
        }
    }
}

/// One node's joint or camera animation: a translation, a rotation and (when it scales) a
/// scale channel over the shared time `input`.
pub(super) struct Track<'a> {
    /// The key times accessor.
    input: json::Index<json::Accessor>,
    /// The animated node.
    node: json::Index<json::Node>,
    /// Translation per key (Y-up).
    translations: &'a [[f32; 3]],
    /// Rotation per key (Y-up); made continuous when added.
    rotations: &'a mut [[f32; 4]],
    /// Scale per key (Y-up axes), when the track scales.
    scales: Option<&'a [[f32; 3]]>,
}

impl<'a> Track<'a> {
    /// The track of `node`'s keys at `input`.
    pub fn new(
        input: json::Index<json::Accessor>,
        node: json::Index<json::Node>,
        translations: &'a [[f32; 3]],
        rotations: &'a mut [[f32; 4]],
        scales: Option<&'a [[f32; 3]]>,
    ) -> Self {
        Track {
            input,
            node,
            translations,
            rotations,
            scales,
        }
    }
}

impl Builder<'_> {
    /// `fps` when it is a positive number; else `fallback`, with a warning naming `what`.
    pub(super) fn fps_or(&mut self, what: &str, fps: f32, fallback: f32) -> f32 {
        if fps.is_finite() && fps > 0.0 {
            return fps;
        }
        self.warnings.push(format!(
            "{what}: frame rate {fps} is not a positive number; {fallback} used"
        ));
        fallback
    }

    /// Adds `track`'s channels to `out`: its rotations made [`continuous`], a scale channel
    /// only when it has scales.
    pub(super) fn trs_channels(&mut self, track: Track<'_>, out: &mut Channels) {
        continuous(track.rotations);
        let translation = self.floats(track.translations, None, false);
        let rotation = self.floats(track.rotations, None, false);
        let scale = track.scales.map(|scales| self.floats(scales, None, false));
        let outputs = [
            (Some(translation), Property::Translation),
            (Some(rotation), Property::Rotation),
            (scale, Property::Scale),
        ];
        for (output, property) in outputs {
            if let Some(output) = output {
                out.push(track.input, output, &[track.node], property);
            }
        }
    }
}

impl Builder<'_> {
    /// `fps` when it is a positive number, else [`DEFAULT_FPS`] with a warning.
    fn rate(&mut self, fps: f32, what: &str) -> f32 {
        if fps.is_finite() && fps > 0.0 {
            fps
        } else {
            self.warnings.push(format!(
                "{what}: frame rate {fps} is not a positive number; {DEFAULT_FPS} used"
            ));
            DEFAULT_FPS
        }
    }

    /// The clips as [`GltfOptions::clip_split`](super::GltfOptions::clip_split) picks them.
    pub(super) fn timelines(&mut self) -> Vec<Timeline> {
        let model = self.model;
        let n = model.frames.len();
        let fps = self.options.fps;
        let mut out = Vec::new();
        match self.options.clip_split {
            ClipSplit::Names if !model.clips.is_empty() => {
                for c in &model.clips {
                    let what = format!("clip \"{}\"", c.name);
                    let t = match &c.frame_times {
                        Some(ends) => match grouped(c) {
                            Some(t) => t,
                            None => {
                                let r = self.rate(fps.unwrap_or(c.fps), &what);
                                self.warnings.push(format!(
                                    "{what}: frame times {ends:?} are not positive and increasing; played at {r} frames per second"
                                ));
                                uniform(&c.name, (c.first..c.first + c.count).collect(), r)
                            }
                        },
                        None => {
                            let r = self.rate(fps.unwrap_or(c.fps), &what);
                            uniform(&c.name, (c.first..c.first + c.count).collect(), r)
                        }
                    };
                    out.push(t);
                }
            }
            ClipSplit::Groups => {
                let mut covered = vec![false; n];
                for c in &model.clips {
                    let Some(ends) = &c.frame_times else {
                        continue;
                    };
                    match grouped(c) {
                        Some(t) => {
                            covered[c.first..c.first + c.count].fill(true);
                            out.push(t);
                        }
                        None => self.warnings.push(format!(
                            "clip \"{}\": frame times {ends:?} are not positive and increasing; its frames go to clip \"all\"",
                            c.name
                        )),
                    }
                }
                let rest: Vec<usize> = (0..n).filter(|&f| !covered[f]).collect();
                if !rest.is_empty() {
                    let r = self.rate(fps.unwrap_or(DEFAULT_FPS), "clip \"all\"");
                    out.push(uniform("all", rest, r));
                }
            }
            _ => {
                let r = self.rate(fps.unwrap_or(DEFAULT_FPS), "clip \"all\"");
                out.push(uniform("all", (0..n).collect(), r));
            }
        }
        for t in &mut out {
            if strictly_increasing(&mut t.times) {
                self.warnings.push(format!(
                    "clip \"{}\": key times moved apart to increase strictly",
                    t.name
                ));
            }
        }
        out
    }

    /// One animation per clip of the morph weights, and of the moving scene nodes' transforms
    /// (MD3 tags, an assembled player's parts) at the same keys.
    pub(super) fn morph_animations(&mut self) -> Result<()> {
        if self.morph_nodes.is_empty() && self.moving_nodes.is_empty() {
            return Ok(());
        }
        let targets = self.model.frames.len().saturating_sub(1);
        let nodes = self.morph_nodes.clone();
        let moving = self.moving_nodes.clone();
        for t in self.timelines() {
            let input = self.times(&t.times);
            let mut out = Channels::default();
            if !nodes.is_empty() {
                // Key `k` showing pose `f > 0` has weight 1 on target `f - 1`, 0 elsewhere.
                let ones: Vec<usize> = t
                    .frames
                    .iter()
                    .enumerate()
                    .filter(|&(_, &f)| f > 0)
                    .map(|(k, &f)| k * targets + f - 1)
                    .collect();
                let count = t.frames.len() * targets;
                let output = match self.options.quantize && u32::try_from(count).is_ok() {
                    true => {
                        let ones: Vec<u32> = ones.iter().map(|&i| i as u32).collect();
                        self.one_hot(count, &ones)
                    }
                    false => {
                        let mut weights = vec![[0.0f32]; count];
                        for i in ones {
                            weights[i] = [1.0];
                        }
                        self.floats(&weights, None, false)
                    }
                };
                out.push(input, output, &nodes, Property::MorphTargetWeights);
            }
            for &(ni, node) in &moving {
                let n = &self.model.nodes[ni];
                let translations: Vec<[f32; 3]> = t
                    .frames
                    .iter()
                    .map(|&f| model::to_y_up(n.transform_at(f).translation))
                    .collect();
                let mut rotations: Vec<[f32; 4]> = t
                    .frames
                    .iter()
                    .map(|&f| {
                        model::quat_to_y_up(crate::math::normalize4(n.transform_at(f).rotation))
                    })
                    .collect();
                let scales: Vec<[f32; 3]> = t
                    .frames
                    .iter()
                    .map(|&f| {
                        let s = n.transform_at(f).scale;
                        [s[0], s[2], s[1]]
                    })
                    .collect();
                let scaled = scales.iter().any(|s| *s != [1.0; 3]);
                let scales = scaled.then_some(scales.as_slice());
                let track = Track::new(input, node, &translations, &mut rotations, scales);
                self.trs_channels(track, &mut out);
            }
            // How many frames the keys show and whether their times are a frame group's:
            // what an import needs to rebuild the clip exactly.
            let extras = serde_json::value::to_raw_value(&serde_json::json!({
                "frameCount": t.frames.len() - 1,
                "frameGroup": t.group,
            }))
            .ok();
            self.root.push(out.animation(t.name, extras));
        }
        Ok(())
    }
}

/// Rotations made continuous: each quaternion is negated when that brings it nearer to the
/// one before, so that every viewer's slerp takes the shorter arc.
pub(super) fn continuous(rotations: &mut [[f32; 4]]) {
    for k in 1..rotations.len() {
        let (a, b) = (rotations[k - 1], rotations[k]);
        let dot: f32 = (0..4).map(|i| a[i] * b[i]).sum();
        if dot < 0.0 {
            rotations[k] = b.map(|c| -c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clips_hold_their_last_pose() {
        let t = uniform("run", vec![3, 4, 5], 10.0);
        assert_eq!(t.frames, vec![3, 4, 5, 5]);
        assert_eq!(t.times, vec![0.0, 0.1, 0.2, 0.3]);
        let clip = Clip {
            name: "g".into(),
            first: 2,
            count: 3,
            fps: 10.0,
            frame_times: Some(vec![0.1, 0.2, 0.35]),
        };
        let t = grouped(&clip).unwrap();
        assert_eq!(t.frames, vec![2, 3, 4, 4]);
        assert_eq!(t.times, vec![0.0, 0.1, 0.2, 0.35]);
        let bad = |times: Vec<f32>| Clip {
            frame_times: Some(times),
            ..clip.clone()
        };
        assert!(grouped(&bad(vec![0.1, 0.1, 0.2])).is_none());
        assert!(grouped(&bad(vec![0.0, 0.1, 0.2])).is_none());
    }
}
