//! What the viewers play: a model's clips (keyframe clips with the engines' timing, or MD5 /
//! MDL7 skeletal animations) and the pose and framing of a clip at a time. The desktop viewer
//! and the web viewer share it, so both play a model as `render` does.

use retromodel::Model;

use crate::timing::Timeline;
use crate::{Framing, Gpu, GpuModel, Pose, Renderer, View};

/// How a clip is timed.
#[derive(Debug, Clone)]
pub enum Track {
    /// Keyframes with the clip's timing rules.
    Keyframes(Timeline),
    /// Skeletal animation `index` of the model, `duration` seconds long.
    Skeletal {
        /// Index into the model's animations.
        index: usize,
        /// Seconds per cycle (Doom 3: `frames - 1` frames at the animation's rate).
        duration: f32,
    },
}

/// One entry of a viewer's clip list.
#[derive(Debug, Clone)]
pub struct ClipEntry {
    /// What the list shows (`run (6 frames)`, or the md5anim's name).
    pub name: String,
    /// Its timing.
    pub track: Track,
}

impl ClipEntry {
    /// Seconds per cycle.
    pub fn duration(&self) -> f32 {
        match &self.track {
            Track::Keyframes(t) => t.duration(),
            Track::Skeletal { duration, .. } => *duration,
        }
    }

    /// Whether the entry has a name `name` (the list's name, or the clip's name before its
    /// frame count).
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.name.starts_with(&format!("{name} ("))
    }
}

/// The clips a viewer lists for `model` uploaded as `scene`: its playable skeletal animations,
/// else its keyframe clips, else one clip of every frame.
pub fn clips_of(model: &Model, scene: &GpuModel) -> Vec<ClipEntry> {
    let mut out = Vec::new();
    for (index, name) in scene.animation_names().iter().enumerate() {
        if let Some((frames, fps)) = scene.animation_info(index) {
            out.push(ClipEntry {
                name: name.clone(),
                track: Track::Skeletal {
                    index,
                    duration: frames.saturating_sub(1).max(1) as f32 / fps,
                },
            });
        }
    }
    if out.is_empty() {
        for c in &model.clips {
            out.push(ClipEntry {
                name: format!("{} ({} frames)", c.name, c.count),
                track: Track::Keyframes(Timeline::of_clip(c)),
            });
        }
        if out.is_empty() {
            out.push(ClipEntry {
                name: "all frames".into(),
                track: Track::Keyframes(Timeline::all_frames(model)),
            });
        }
    }
    out
}

/// The pose of `clip` at `time` seconds (looping; keyframes blended when `interpolate`) and
/// the sphere the camera frames: the whole clip's, so the model stays in view as it moves.
pub fn pose_at(
    scene: &GpuModel,
    clip: Option<&ClipEntry>,
    time: f32,
    interpolate: bool,
) -> (Pose, Framing) {
    match clip.map(|c| &c.track) {
        Some(Track::Keyframes(t)) => (
            Pose::Keyframe(t.sample(time, true, interpolate)),
            scene.framing_of(&t.frames),
        ),
        Some(Track::Skeletal { index, .. }) => (
            Pose::Skeletal {
                animation: *index,
                time,
                looping: true,
            },
            scene.framing_of_animation(*index),
        ),
        None => (Pose::frame(0), scene.framing()),
    }
}

/// Where playback is, in words: `frame 3 -> 4, blend 0.25` or `frame 12.50 of 60 at 24 fps`.
pub fn position_text(scene: &GpuModel, clip: &ClipEntry, time: f32, interpolate: bool) -> String {
    let d = clip.duration();
    let t = if d > 0.0 { time.rem_euclid(d) } else { 0.0 };
    match &clip.track {
        Track::Keyframes(tl) => {
            let k = tl.sample(t, true, interpolate);
            format!("frame {} -> {}, blend {:.2}", k.a, k.b, k.blend)
        }
        Track::Skeletal { index, .. } => match scene.animation_info(*index) {
            Some((frames, fps)) => format!("frame {:.2} of {frames} at {fps} fps", t * fps),
            None => String::new(),
        },
    }
}

/// A model a viewer plays: its scene and where playback is.
pub struct Playing<'a> {
    /// The model on the GPU.
    pub scene: &'a mut GpuModel,
    /// The clip selected, if any.
    pub clip: Option<&'a ClipEntry>,
    /// Seconds into the clip (looping).
    pub time: f32,
    /// Blend between keyframes.
    pub interpolate: bool,
    /// Factor on the camera distance that frames the clip (the wheel's zoom).
    pub zoom: f32,
}

/// Records one viewer frame into `color` / `depth` (`size` pixels): `playing`'s pose, the
/// camera at `view.camera` with its distance fitted to the clip's framing over `view.viewport`
/// (or the whole target) times the zoom; the background alone when no model is open. The
/// desktop and web viewers draw through it.
#[allow(clippy::too_many_arguments)]
pub fn record_frame(
    gpu: &Gpu,
    renderer: &Renderer,
    encoder: &mut wgpu::CommandEncoder,
    color: &wgpu::TextureView,
    depth: &wgpu::TextureView,
    size: (u32, u32),
    playing: Option<Playing<'_>>,
    mut view: View,
) {
    let Some(p) = playing else {
        Renderer::clear(encoder, color, view.background);
        return;
    };
    let (pose, framing) = pose_at(p.scene, p.clip, p.time, p.interpolate);
    let aspect = view
        .viewport
        .map_or(size.0 as f32 / size.1.max(1) as f32, |v| v[2] / v[3]);
    view.camera.distance = Some(view.camera.fit_distance(&framing, aspect) * p.zoom);
    view.framing = Some(framing);
    let key = p.scene.prepare(gpu, &pose);
    renderer.draw(gpu, encoder, color, depth, size, p.scene, key, &view);
}
