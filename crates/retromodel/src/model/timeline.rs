//! Which poses a clip shows at a given time: the one place for the engines' playback timing,
//! used by the glTF exporter (its animation keys) and the renderer and viewer (playback).
//!
//! A clip of `n` frames at `fps` has keys at `k / fps` for
//! its frames plus a last key that holds the last frame, so it lasts `n / fps` seconds (Quake's
//! 10 Hz steps); a frame group with cumulative end times `[e0, e1, ..]` has keys at
//! `[0, e0, e1, ..]` (each pose shows from the end of the one before). Between two keys the
//! poses blend linearly. A frame rate that is not a positive number is read as
//! [`DEFAULT_FPS`], and group times that are not positive and increasing fall back to the
//! clip's rate.

use super::{Clip, Model};

/// The frame rate used when a clip's is not a positive number (Quake's 10 Hz).
pub const DEFAULT_FPS: f32 = 10.0;

/// Two model frames and how far between them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KeyPose {
    /// The first pose (model frame index).
    pub a: usize,
    /// The second pose.
    pub b: usize,
    /// 0 shows `a`, 1 shows `b`.
    pub blend: f32,
}

/// A clip's keys: model frames and the time each is reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Timeline {
    /// Model frame at each key.
    pub frames: Vec<usize>,
    /// Key times in seconds, increasing, one per frame.
    pub times: Vec<f32>,
}

fn rate(fps: f32) -> f32 {
    if fps.is_finite() && fps > 0.0 {
        fps
    } else {
        DEFAULT_FPS
    }
}

impl Timeline {
    /// The timeline of `clip` (see the module docs).
    pub fn of_clip(clip: &Clip) -> Timeline {
        Timeline::grouped(clip).unwrap_or_else(|| {
            Timeline::uniform(
                (clip.first..clip.first + clip.count).collect(),
                rate(clip.fps),
            )
        })
    }

    /// A frame group at its stored end times, or `None` when the clip has none or they are
    /// not positive and strictly increasing (one per frame).
    pub fn grouped(clip: &Clip) -> Option<Timeline> {
        let ends = clip.frame_times.as_ref()?;
        let ok = clip.count > 0
            && ends.len() == clip.count
            && ends.iter().all(|t| t.is_finite())
            && ends.first().is_some_and(|&t| t > 0.0)
            && ends.windows(2).all(|w| w[0] < w[1]);
        if !ok {
            return None;
        }
        let mut frames: Vec<usize> = (clip.first..clip.first + clip.count).collect();
        frames.push(clip.first + clip.count - 1);
        let times = std::iter::once(0.0).chain(ends.iter().copied()).collect();
        Some(Timeline { frames, times })
    }

    /// `frames` at `fps`, the last held for one step.
    pub fn uniform(frames: Vec<usize>, fps: f32) -> Timeline {
        let fps = rate(fps);
        let mut keys = frames;
        if let Some(&last) = keys.last() {
            keys.push(last);
        }
        let times = (0..keys.len())
            .map(|k| (k as f64 / f64::from(fps)) as f32)
            .collect();
        Timeline {
            frames: keys,
            times,
        }
    }

    /// Every frame of `model` at [`DEFAULT_FPS`] (for models without clips).
    pub fn all_frames(model: &Model) -> Timeline {
        Timeline::uniform((0..model.frames.len().max(1)).collect(), DEFAULT_FPS)
    }

    /// Length in seconds.
    pub fn duration(&self) -> f32 {
        self.times.last().copied().unwrap_or(0.0)
    }

    /// The poses at `t` seconds; `looping` wraps `t` into the clip, otherwise it is clamped.
    /// With `interpolate` false the blend is always 0 (the pose snaps, as software Quake).
    pub fn sample(&self, t: f32, looping: bool, interpolate: bool) -> KeyPose {
        let (Some(_), Some(&end)) = (self.frames.first(), self.times.last()) else {
            return KeyPose {
                a: 0,
                b: 0,
                blend: 0.0,
            };
        };
        let t = if !t.is_finite() {
            0.0
        } else if looping && end > 0.0 {
            t.rem_euclid(end)
        } else {
            t.clamp(0.0, end)
        };
        // The last key whose time is <= t.
        let k = self
            .times
            .partition_point(|&k| k <= t)
            .saturating_sub(1)
            .min(self.frames.len() - 1);
        if k + 1 >= self.frames.len() {
            let f = self.frames[k];
            return KeyPose {
                a: f,
                b: f,
                blend: 0.0,
            };
        }
        let (t0, t1) = (self.times[k], self.times[k + 1]);
        let blend = if interpolate && t1 > t0 {
            ((t - t0) / (t1 - t0)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        KeyPose {
            a: self.frames[k],
            b: self.frames[k + 1],
            blend,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clip(count: usize, fps: f32, times: Option<Vec<f32>>) -> Clip {
        Clip {
            name: "c".into(),
            first: 2,
            count,
            fps,
            frame_times: times,
        }
    }

    #[test]
    fn uniform_clip_at_ten_hertz() {
        let t = Timeline::of_clip(&clip(3, 10.0, None));
        assert_eq!(t.frames, [2, 3, 4, 4]);
        assert!((t.duration() - 0.3).abs() < 1e-6);
        let p = t.sample(0.15, true, true);
        assert_eq!((p.a, p.b), (3, 4));
        assert!((p.blend - 0.5).abs() < 1e-4);
        assert_eq!(t.sample(0.15, true, false).blend, 0.0);
        // Wraps: 0.35 -> 0.05.
        let p = t.sample(0.35, true, true);
        assert_eq!((p.a, p.b), (2, 3));
        // Clamps.
        let p = t.sample(9.0, false, true);
        assert_eq!((p.a, p.b, p.blend), (4, 4, 0.0));
    }

    #[test]
    fn group_times_are_key_times() {
        let t = Timeline::of_clip(&clip(3, 10.0, Some(vec![0.1, 0.2, 0.35])));
        assert_eq!(t.times, [0.0, 0.1, 0.2, 0.35]);
        let p = t.sample(0.275, true, true);
        assert_eq!((p.a, p.b), (4, 4));
        let p = t.sample(0.15, true, true);
        assert_eq!((p.a, p.b), (3, 4));
        // Bad times fall back to the rate.
        let t = Timeline::of_clip(&clip(3, 0.0, Some(vec![0.1, 0.1, 0.2])));
        assert_eq!(t.times.len(), 4);
        assert!((t.duration() - 0.3).abs() < 1e-6);
    }
}
