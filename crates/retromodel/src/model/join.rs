//! Several skeletal animations joined into one (the re-release layout's single `.md5anim`).

use super::{AnimationEvent, Frames, Model, SkeletalAnimation, WeightScales};

/// `model` with its animations joined into one named `name` (weight scales of 1 for those
/// without), at the first one's rate. A joint keeps `scale_positions` unless one animation
/// scales it with the flag and another without; then the flagged animation's positions are
/// written scaled, so that neither changes what it shows. Events follow their frames. A
/// model without animations is returned as it is.
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
    // Each animation's events, moved by the frames joined before it.
    let mut events = Vec::new();
    for (ai, a) in model.animations.iter().enumerate() {
        let offset = i32::try_from(joined.frames.len()).unwrap_or(i32::MAX);
        events.extend(
            model
                .animation_events
                .get(ai)
                .into_iter()
                .flatten()
                .map(|e| AnimationEvent {
                    frame: e.frame.saturating_add(offset),
                    ..e.clone()
                }),
        );
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
    out.animation_events = if events.is_empty() {
        Vec::new()
    } else {
        vec![events]
    };
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Joint, JointTransform};

    fn animation(name: &str, frames: usize) -> SkeletalAnimation {
        SkeletalAnimation {
            name: name.into(),
            fps: 10.0,
            frames: vec![vec![JointTransform::IDENTITY]; frames].into(),
            bounds: Vec::new(),
            loops: false,
            weight_scales: None,
        }
    }

    fn event(frame: i32, options: &str) -> AnimationEvent {
        AnimationEvent {
            frame,
            event: 5004,
            kind: 0,
            options: options.into(),
        }
    }

    /// Events follow their frames into the joined animation (review of stop 41: they
    /// stayed on the first animation's index, and the others' pointed past the end).
    #[test]
    fn events_follow_their_frames() {
        let model = Model {
            joints: vec![Joint {
                name: "root".into(),
                parent: None,
                translation: [0.0; 3],
                rotation: [0.0, 0.0, 0.0, 1.0],
            }],
            animations: vec![animation("a", 3), animation("b", 4)],
            animation_events: vec![vec![event(1, "a.wav")], vec![event(2, "b.wav")]],
            ..Model::default()
        };
        let joined = join_animations(&model, "all");
        assert_eq!(joined.animations.len(), 1);
        assert_eq!(joined.animations[0].frames.len(), 7);
        assert_eq!(
            joined.animation_events,
            [vec![event(1, "a.wav"), event(5, "b.wav")]]
        );
        joined.validate().unwrap();
        // More event lists than animations is refused.
        let mut bad = model.clone();
        bad.animation_events.push(Vec::new());
        assert!(bad.validate().is_err());
    }
}
