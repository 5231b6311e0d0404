//! What the viewers play: a model's clips (keyframe clips with the engines' timing, or MD5 /
//! MDL7 skeletal animations) and the pose and framing of a clip at a time. The desktop viewer
//! and the web viewer share it, so both play a model as `render` does.

use retromodel::Model;

use crate::renderer::depth_texture;
use crate::timing::Timeline;
use crate::{surface_config, Camera, Framing, Gpu, GpuModel, Pose, RenderError, Renderer, View};

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

/// What a viewer's user sets: the clip, playback, blending, skin, wireframe and camera. The
/// desktop viewer and the web viewer keep one each and change it by the same rules.
#[derive(Debug, Clone)]
pub struct Controls {
    /// Index into the viewer's clip list.
    pub clip: usize,
    /// Whether time advances.
    pub playing: bool,
    /// Playback speed (1 = the engine's).
    pub speed: f32,
    /// Seconds into the clip (wrapped when drawn).
    pub time: f32,
    /// Blend between keyframes (off: poses snap, as software Quake).
    pub interpolate: bool,
    /// Skin for every mesh (`None`: each mesh's own).
    pub skin: Option<usize>,
    /// Draw the triangle edges over the surfaces.
    pub wireframe: bool,
    /// The orbit camera.
    pub camera: Camera,
    /// Factor on the camera distance (the wheel's zoom).
    pub zoom: f32,
}

impl Controls {
    /// The controls before any model is open: first clip, blending on, `playing` as given.
    pub fn new(playing: bool) -> Controls {
        Controls {
            clip: 0,
            playing,
            speed: 1.0,
            time: 0.0,
            interpolate: true,
            skin: None,
            wireframe: false,
            camera: Camera::default(),
            zoom: 1.0,
        }
    }

    /// A model was opened: clip `clip` from its start, each mesh's own skin, the zoom reset
    /// (the camera's angles stay).
    pub fn opened(&mut self, clip: usize) {
        self.clip = clip;
        self.time = 0.0;
        self.skin = None;
        self.zoom = 1.0;
    }

    /// Advances playback by `dt` seconds of wall time (clamped to 0..=0.25, so a stalled
    /// frame does not jump) times the speed, when playing.
    pub fn advance(&mut self, dt: f32) {
        if self.playing && dt.is_finite() {
            self.time += dt.clamp(0.0, 0.25) * self.speed;
        }
    }

    /// Turns the camera by a drag of `dx`, `dy` pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.camera.yaw -= dx * 0.4;
        self.camera.pitch = (self.camera.pitch + dy * 0.4).clamp(-89.0, 89.0);
    }

    /// Zooms by `steps` wheel steps (positive: closer).
    pub fn zoom_by(&mut self, steps: f32) {
        self.zoom = (self.zoom * 0.9f32.powf(steps)).clamp(0.05, 20.0);
    }

    /// Back to the default camera and zoom.
    pub fn reset_camera(&mut self) {
        self.camera = Camera::default();
        self.zoom = 1.0;
    }

    /// The view these controls draw: their camera, wireframe and skin on the viewers'
    /// grey background.
    pub fn view(&self) -> View {
        View {
            camera: self.camera,
            wireframe: self.wireframe,
            skin: self.skin,
            background: [0.16, 0.17, 0.19, 1.0],
            ..View::default()
        }
    }

    /// What [`record_frame`] draws of `scene`, whose clip list is `clips`.
    pub fn playing<'a>(&self, scene: &'a mut GpuModel, clips: &'a [ClipEntry]) -> Playing<'a> {
        Playing {
            scene,
            clip: clips.get(self.clip),
            time: self.time,
            interpolate: self.interpolate,
            zoom: self.zoom,
        }
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

/// A window's or canvas' surface with the renderer for its format and a depth buffer of its
/// size: what the desktop and web viewers draw on.
pub struct Screen {
    /// The device.
    pub gpu: Gpu,
    /// The renderer, made for the surface's format.
    pub renderer: Renderer,
    surface: wgpu::Surface<'static>,
    config: wgpu::SurfaceConfiguration,
    depth: wgpu::TextureView,
}

impl Screen {
    /// Configures `surface` at `width` x `height` pixels for `gpu` and makes the renderer.
    pub fn new(
        gpu: Gpu,
        surface: wgpu::Surface<'static>,
        width: u32,
        height: u32,
    ) -> Result<Screen, RenderError> {
        let config = surface_config(&gpu, &surface, width, height)?;
        surface.configure(&gpu.device, &config);
        let renderer = Renderer::new(&gpu, config.format);
        let depth =
            depth_texture(&gpu, config.width, config.height).create_view(&Default::default());
        Ok(Screen {
            gpu,
            renderer,
            surface,
            config,
            depth,
        })
    }

    /// The surface's texture format.
    pub fn format(&self) -> wgpu::TextureFormat {
        self.config.format
    }

    /// The size in pixels.
    pub fn size(&self) -> (u32, u32) {
        (self.config.width, self.config.height)
    }

    /// Resizes the surface and the depth buffer (to 1 x 1 at the least).
    pub fn resize(&mut self, width: u32, height: u32) {
        self.config.width = width.max(1);
        self.config.height = height.max(1);
        self.surface.configure(&self.gpu.device, &self.config);
        self.depth = depth_texture(&self.gpu, self.config.width, self.config.height)
            .create_view(&Default::default());
    }

    /// The next picture to draw and a view of it; `Ok(None)` when the surface was outdated
    /// or lost (it is configured again: skip this frame).
    pub fn next_frame(
        &mut self,
    ) -> Result<Option<(wgpu::SurfaceTexture, wgpu::TextureView)>, wgpu::SurfaceError> {
        match self.surface.get_current_texture() {
            Ok(frame) => {
                let view = frame.texture.create_view(&Default::default());
                Ok(Some((frame, view)))
            }
            Err(wgpu::SurfaceError::Outdated | wgpu::SurfaceError::Lost) => {
                self.resize(self.config.width, self.config.height);
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }

    /// Records the open model (`doc`: its scene and clip list; `None`: the background alone)
    /// as `controls` set it into `target`, over `viewport` (`[x, y, width, height]` pixels;
    /// `None`: the whole target); see [`record_frame`].
    pub fn record(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        target: &wgpu::TextureView,
        controls: &Controls,
        doc: Option<(&mut GpuModel, &[ClipEntry])>,
        viewport: Option<[f32; 4]>,
    ) {
        let mut view = controls.view();
        view.viewport = viewport;
        let playing = doc.map(|(scene, clips)| controls.playing(scene, clips));
        let (gpu, size) = (&self.gpu, self.size());
        record_frame(
            gpu,
            &self.renderer,
            encoder,
            target,
            &self.depth,
            size,
            playing,
            view,
        );
    }
}
