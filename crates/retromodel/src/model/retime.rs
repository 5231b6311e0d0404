//! Clips resampled to another playback rate, so that each plays as long in a target that
//! steps frames at a fixed rate (Quake MDL and MD2 at the game code's 10 Hz) as in the
//! source (an MD5 or glTF animation at 24 or 30 frames a second, Cube 2's `md5anim` speeds).
//!
//! A clip of `n` frames at `f` frames a second lasts `n / f` seconds (the last frame shows
//! for one step, as a looping clip plays it); with stored frame times (Quake frame groups)
//! it lasts until its last time. It becomes `max(1, round(duration · rate))` frames sampled
//! at `k / rate`: between two frames of a uniform clip the poses are interpolated (positions
//! linearly, normals linearly and renormalised; the engines interpolate frames the same
//! way), while a clip with frame times is stepped, as Quake shows a frame group. A clip
//! already at the rate is kept frame for frame. Frames outside every clip stay as they are.

use super::{Clip, Frame, Model, MorphTarget, NodeTransform};
use crate::math::{normalize3, Quat};

/// A model with its clips at one rate, and what changed.
#[derive(Debug, Clone, PartialEq)]
pub struct Retimed {
    /// The model.
    pub model: Model,
    /// Per resampled clip: `"run": 24 frames at 24 fps (1.00 s) -> 10 frames at 10 fps`.
    pub clips: Vec<String>,
}

/// How long `clip` plays, in seconds.
pub fn clip_duration(clip: &Clip) -> f32 {
    match clip.frame_times.as_deref() {
        Some([.., last]) if last.is_finite() => *last,
        _ if clip.fps > 0.0 => clip.count as f32 / clip.fps,
        _ => 0.0,
    }
}

/// Whether `clip` stays as it is: it plays at `fps`, one frame per step, or it has frame
/// times that the target keeps (`keep_times`).
fn at_rate(clip: &Clip, fps: f32, keep_times: bool) -> bool {
    match clip.frame_times {
        Some(_) => keep_times,
        None => (clip.fps - fps).abs() <= 1e-3 * fps,
    }
}

/// `model` with every clip at `fps` frames a second ([module docs](self)), except clips with
/// frame times when `keep_times` (the target stores them: Quake MDL frame groups); `None`
/// when every clip stays as it is (or `fps` is not a positive number).
pub fn resample_clips(model: &Model, fps: f32, keep_times: bool) -> Option<Retimed> {
    let at_rate = |c: &Clip, fps: f32| at_rate(c, fps, keep_times);
    if !(fps.is_finite() && fps > 0.0) || model.clips.iter().all(|c| at_rate(c, fps)) {
        return None;
    }
    let mut order: Vec<&Clip> = model.clips.iter().collect();
    order.sort_by_key(|c| c.first);
    let mut out = Model {
        frames: Vec::new(),
        clips: Vec::new(),
        meshes: model.meshes.clone(),
        ..model.clone()
    };
    for m in &mut out.meshes {
        m.morph_targets.clear();
    }
    for n in &mut out.nodes {
        n.frames.clear();
    }
    let mut report = Vec::new();
    let mut next = 0;
    let max_sampled = u64::from(crate::limits::Limits::default().max_sampled_frames);
    let mut sampled = 0u64;
    let keep = |out: &mut Model, f: usize| {
        out.frames.push(model.frames[f].clone());
        for (o, m) in out.meshes.iter_mut().zip(&model.meshes) {
            o.morph_targets.push(m.morph_targets[f].clone());
        }
        for (o, n) in out.nodes.iter_mut().zip(&model.nodes) {
            if !n.frames.is_empty() {
                o.frames.push(*n.transform_at(f));
            }
        }
    };
    for clip in order {
        let end = (clip.first + clip.count).min(model.frames.len());
        // Frames before the clip that no clip holds.
        for f in next..clip.first.min(model.frames.len()) {
            keep(&mut out, f);
        }
        next = next.max(end);
        let first = out.frames.len();
        if at_rate(clip, fps) || clip.first >= end {
            (clip.first..end).for_each(|f| keep(&mut out, f));
            out.clips.push(Clip {
                first,
                count: end - clip.first.min(end),
                ..clip.clone()
            });
            continue;
        }
        let duration = clip_duration(clip);
        let steps = duration * fps;
        // Stored times are the file's: an absurd or broken last time must not ask for
        // millions of poses. Past the limit the clip stays as stored.
        let left = max_sampled.saturating_sub(sampled) as f64;
        if !(steps.is_finite() && f64::from(steps) <= left) {
            (clip.first..end).for_each(|f| keep(&mut out, f));
            report.push(format!(
                "\"{}\": {duration} s at {fps} fps is more than the limit of {max_sampled} \
                 sampled frames; left as stored",
                clip.name
            ));
            out.clips.push(Clip {
                first,
                count: end - clip.first,
                ..clip.clone()
            });
            continue;
        }
        let count = (steps.round() as usize).max(1);
        sampled += count as u64;
        for k in 0..count {
            let t = k as f32 / fps;
            let (a, b, u) = sample_at(clip, end, t);
            add_pose(&mut out, model, a, b, u, format!("{}{}", clip.name, k + 1));
        }
        report.push(format!(
            "\"{}\": {} frames at {} fps ({duration:.2} s) -> {count} frames at {fps} fps",
            clip.name,
            clip.count,
            if clip.frame_times.is_some() {
                "stored times".to_string()
            } else {
                format!("{}", clip.fps)
            }
        ));
        out.clips.push(Clip {
            name: clip.name.clone(),
            first,
            count,
            fps,
            frame_times: None,
        });
    }
    for f in next..model.frames.len() {
        keep(&mut out, f);
    }
    // The first pose of a keyframe model is its first frame.
    if model.animations.is_empty() {
        for m in &mut out.meshes {
            if let Some(t) = m.morph_targets.first() {
                m.positions.clone_from(&t.positions);
                m.normals.clone_from(&t.normals);
            }
        }
    }
    Some(Retimed {
        model: out,
        clips: report,
    })
}

/// The two model frames to blend at time `t` of `clip` (frames `clip.first..end`) and the
/// weight of the second.
fn sample_at(clip: &Clip, end: usize, t: f32) -> (usize, usize, f32) {
    let last = end - 1;
    if let Some(times) = clip.frame_times.as_ref().filter(|t| !t.is_empty()) {
        // Stepped: the frame whose interval holds t.
        let k = times.iter().position(|&e| t < e).unwrap_or(times.len() - 1);
        let f = (clip.first + k).min(last);
        return (f, f, 0.0);
    }
    let x = (t * clip.fps).max(0.0);
    let k = x.floor();
    let a = (clip.first + k as usize).min(last);
    let b = (a + 1).min(last);
    (a, b, if a == b { 0.0 } else { x - k })
}

/// Appends the pose `(1 - u) · a + u · b` as a frame named `name`.
fn add_pose(out: &mut Model, model: &Model, a: usize, b: usize, u: f32, name: String) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for (o, m) in out.meshes.iter_mut().zip(&model.meshes) {
        let (ta, tb) = (&m.morph_targets[a], &m.morph_targets[b]);
        let target = if u == 0.0 {
            ta.clone()
        } else {
            MorphTarget {
                positions: ta
                    .positions
                    .iter()
                    .zip(&tb.positions)
                    .map(|(p, q)| std::array::from_fn(|k| p[k] + (q[k] - p[k]) * u))
                    .collect(),
                normals: ta
                    .normals
                    .iter()
                    .zip(&tb.normals)
                    .map(|(n, o)| normalize3(std::array::from_fn(|k| n[k] + (o[k] - n[k]) * u), *n))
                    .collect(),
            }
        };
        for p in &target.positions {
            for k in 0..3 {
                lo[k] = lo[k].min(p[k]);
                hi[k] = hi[k].max(p[k]);
            }
        }
        o.morph_targets.push(target);
    }
    // Nodes that move (MD3 tags, a Quake 3 player's parts) move with the poses.
    for (o, n) in out.nodes.iter_mut().zip(&model.nodes) {
        if !n.frames.is_empty() {
            o.frames
                .push(blend_node(n.transform_at(a), n.transform_at(b), u));
        }
    }
    let source = &model.frames[a];
    if lo[0] > hi[0] {
        (lo, hi) = (source.bounds_min, source.bounds_max);
    }
    out.frames.push(Frame {
        name,
        bounds_min: lo,
        bounds_max: hi,
        position_step: if u == 0.0 { source.position_step } else { None },
    });
}

/// `(1 - u) · a + u · b` for node transforms: translation and scale linearly, rotation by
/// normalised linear interpolation along the shorter arc.
fn blend_node(a: &NodeTransform, b: &NodeTransform, u: f32) -> NodeTransform {
    if u == 0.0 {
        return *a;
    }
    let lerp = |x: [f32; 3], y: [f32; 3]| std::array::from_fn(|k| x[k] + (y[k] - x[k]) * u);
    let q = |r: [f32; 4]| Quat::new(r[0], r[1], r[2], r[3]);
    let r = q(a.rotation).nlerp(q(b.rotation), u);
    NodeTransform {
        translation: lerp(a.translation, b.translation),
        rotation: [r.x, r.y, r.z, r.w],
        scale: lerp(a.scale, b.scale),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Mesh;

    /// A one-vertex model whose vertex sits at x = frame index, one clip over all frames.
    fn line(frames: usize, fps: f32) -> Model {
        let targets = (0..frames)
            .map(|f| MorphTarget {
                positions: vec![[f as f32, 0.0, 0.0]],
                normals: vec![[0.0, 0.0, 1.0]],
            })
            .collect();
        Model {
            meshes: vec![Mesh {
                positions: vec![[0.0; 3]],
                normals: vec![[0.0, 0.0, 1.0]],
                morph_targets: targets,
                source_vertices: vec![0],
                ..Mesh::default()
            }],
            frames: (0..frames)
                .map(|f| Frame {
                    name: format!("walk{}", f + 1),
                    ..Frame::default()
                })
                .collect(),
            clips: vec![Clip {
                name: "walk".into(),
                first: 0,
                count: frames,
                fps,
                frame_times: None,
            }],
            ..Model::default()
        }
    }

    #[test]
    fn a_24_fps_clip_keeps_its_duration_at_10_fps() {
        let model = line(24, 24.0);
        let r = resample_clips(&model, 10.0, false).expect("resampled");
        let c = &r.model.clips[0];
        assert_eq!((c.count, c.fps), (10, 10.0));
        assert!((clip_duration(c) - clip_duration(&model.clips[0])).abs() <= 0.1);
        // Frame k is the source at k / 10 s: x = 2.4 k.
        let x = |f: usize| r.model.meshes[0].morph_targets[f].positions[0][0];
        assert!((x(3) - 7.2).abs() < 1e-5, "{}", x(3));
        assert_eq!(r.model.frames[3].bounds_min[0], x(3));
        assert_eq!(r.clips.len(), 1);
    }

    #[test]
    fn clips_at_the_rate_are_left_alone_and_frame_groups_step() {
        assert!(resample_clips(&line(5, 10.0), 10.0, false).is_none());
        let mut model = line(3, 10.0);
        model.clips[0].frame_times = Some(vec![0.1, 0.3, 0.6]);
        assert!(
            resample_clips(&model, 10.0, true).is_none(),
            "frame groups kept"
        );
        let r = resample_clips(&model, 10.0, false).expect("resampled");
        let xs: Vec<f32> = r.model.meshes[0]
            .morph_targets
            .iter()
            .map(|t| t.positions[0][0])
            .collect();
        assert_eq!(xs, [0.0, 1.0, 1.0, 2.0, 2.0, 2.0]);
    }

    #[test]
    fn absurd_frame_times_do_not_ask_for_millions_of_poses() {
        let mut model = line(3, 10.0);
        model.clips[0].frame_times = Some(vec![0.1, 0.2, 3e38]);
        let r = resample_clips(&model, 10.0, false).expect("reported");
        assert_eq!(r.model.frames.len(), 3, "left as stored");
        assert!(r.clips[0].contains("left as stored"), "{:?}", r.clips);
        model.clips[0].frame_times = Some(vec![]);
        assert!(resample_clips(&model, 10.0, false).is_some());
    }

    #[test]
    fn frames_outside_clips_are_kept_in_place() {
        let mut model = line(6, 20.0);
        model.clips[0].first = 2;
        model.clips[0].count = 4;
        let r = resample_clips(&model, 10.0, false).expect("resampled");
        assert_eq!(r.model.frames.len(), 2 + 2);
        assert_eq!(r.model.clips[0].first, 2);
        assert_eq!(r.model.frames[1].name, "walk2");
    }
}
