//! The interactive viewer (feature `viewer`): a winit window, the model drawn by the same
//! [`Renderer`] as the headless images, and egui panels (egui-wgpu) for the clip list,
//! play/pause, speed, a time scrubber, interpolation on/off, skin, wireframe, an orbit camera
//! (drag to turn, wheel to zoom), drag-and-drop of another file, and the `info` summary.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use retromodel::Model;
use winit::application::ApplicationHandler;
use winit::event::{ElementState, MouseButton, MouseScrollDelta, WindowEvent};
use winit::event_loop::{ActiveEventLoop, EventLoop};
use winit::window::{Window, WindowId};

use crate::playback::{clips_of, position_text, ClipEntry, Controls, Screen};
use crate::{Gpu, GpuModel};

/// A model the viewer shows, and the text of its info panel.
pub struct Loaded {
    /// The model (MD5 animations attached).
    pub model: Model,
    /// What the info panel shows (the CLI's `info` summary).
    pub info: String,
}

/// Loads a file for the viewer (the CLI passes its own loader: side files, md5anims).
pub type Loader = dyn Fn(&Path) -> Result<Loaded, String>;

/// How the viewer starts.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The file to open first.
    pub path: PathBuf,
    /// Clip or animation to select first (by name).
    pub clip: Option<String>,
    /// Start playing at once.
    pub play: bool,
    /// Close the window after this many seconds (for scripted checks).
    pub quit_after: Option<f32>,
    /// Window size in logical pixels.
    pub size: (u32, u32),
}

struct Doc {
    path: PathBuf,
    scene: GpuModel,
    info: String,
    clips: Vec<ClipEntry>,
}

struct Ui {
    controls: Controls,
    status: String,
}

struct State {
    window: Arc<Window>,
    screen: Screen,
    egui_ctx: egui::Context,
    egui_state: egui_winit::State,
    egui_renderer: egui_wgpu::Renderer,
    doc: Option<Doc>,
    ui: Ui,
    last: Instant,
    started: Instant,
    cursor: Option<(f64, f64)>,
    dragging: bool,
}

struct App {
    options: Options,
    loader: Box<Loader>,
    state: Option<State>,
    error: Option<String>,
}

impl State {
    fn new(event_loop: &ActiveEventLoop, options: &Options) -> Result<State, String> {
        let attrs = Window::default_attributes()
            .with_title("retromodel")
            .with_inner_size(winit::dpi::LogicalSize::new(
                options.size.0.max(320),
                options.size.1.max(240),
            ));
        let window = Arc::new(event_loop.create_window(attrs).map_err(|e| e.to_string())?);
        let backends =
            wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY | wgpu::Backends::GL);
        let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor {
            backends,
            ..Default::default()
        });
        let surface = instance
            .create_surface(window.clone())
            .map_err(|e| format!("cannot create a window surface: {e}"))?;
        let gpu = Gpu::with_instance(instance, Some(&surface)).map_err(|e| e.to_string())?;
        let size = window.inner_size();
        let screen =
            Screen::new(gpu, surface, size.width, size.height).map_err(|e| e.to_string())?;
        let (gpu, format) = (&screen.gpu, screen.format());
        let egui_ctx = egui::Context::default();
        let egui_state = egui_winit::State::new(
            egui_ctx.clone(),
            egui::ViewportId::ROOT,
            &window,
            Some(window.scale_factor() as f32),
            None,
            Some(gpu.device.limits().max_texture_dimension_2d as usize),
        );
        let egui_renderer = egui_wgpu::Renderer::new(&gpu.device, format, None, 1, false);
        eprintln!("viewer: adapter {}", gpu.adapter_name());
        Ok(State {
            window,
            screen,
            egui_ctx,
            egui_state,
            egui_renderer,
            doc: None,
            ui: Ui {
                controls: Controls::new(options.play),
                status: String::new(),
            },
            last: Instant::now(),
            started: Instant::now(),
            cursor: None,
            dragging: false,
        })
    }

    fn open(&mut self, path: &Path, loader: &Loader, clip: Option<&str>) {
        let loaded = match loader(path) {
            Ok(l) => l,
            Err(e) => {
                self.ui.status = format!("{}: {e}", path.display());
                eprintln!("viewer: {}", self.ui.status);
                return;
            }
        };
        match GpuModel::new(&self.screen.gpu, &self.screen.renderer, &loaded.model) {
            Ok(scene) => {
                let clips = clips_of(&loaded.model, &scene);
                self.ui.controls.opened(
                    clip.and_then(|c| clips.iter().position(|e| e.is_named(c)))
                        .unwrap_or_else(|| {
                            retromodel::model::opening_clip(clips.iter().map(|e| e.name.as_str()))
                        }),
                );
                self.ui.status = format!("opened {}", path.display());
                for w in scene.warnings() {
                    self.ui.status.push_str(&format!("\nwarning: {w}"));
                }
                self.window
                    .set_title(&format!("retromodel - {}", path.display()));
                self.doc = Some(Doc {
                    path: path.to_path_buf(),
                    scene,
                    info: loaded.info,
                    clips,
                });
            }
            Err(e) => {
                self.ui.status = format!("{}: {e}", path.display());
                eprintln!("viewer: {}", self.ui.status);
            }
        }
    }

    fn redraw(&mut self) {
        let now = Instant::now();
        self.ui.controls.advance((now - self.last).as_secs_f32());
        self.last = now;
        let (frame, target) = match self.screen.next_frame() {
            Ok(Some(f)) => f,
            Ok(None) => return,
            Err(e) => {
                eprintln!("viewer: {e}");
                return;
            }
        };
        let gpu = &self.screen.gpu;
        let input = self.egui_state.take_egui_input(&self.window);
        let ctx = self.egui_ctx.clone();
        let mut free = None;
        let full = ctx.run(input, |ctx| {
            panels(ctx, &mut self.ui, self.doc.as_ref());
            // The area the panels left free (right of the side panel), in points.
            free = Some(ctx.available_rect());
        });
        self.egui_state
            .handle_platform_output(&self.window, full.platform_output);
        let jobs = ctx.tessellate(full.shapes, full.pixels_per_point);
        for (id, delta) in &full.textures_delta.set {
            self.egui_renderer
                .update_texture(&gpu.device, &gpu.queue, *id, delta);
        }
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("viewer"),
            });
        let size = self.screen.size();
        let mut viewport = None;
        // The area the panels left free, in physical pixels.
        if let Some(free) = free {
            let ppp = full.pixels_per_point;
            let vp = [
                free.min.x * ppp,
                free.min.y * ppp,
                (free.width() * ppp).min(size.0 as f32 - free.min.x * ppp),
                (free.height() * ppp).min(size.1 as f32 - free.min.y * ppp),
            ];
            if vp[2] >= 1.0 && vp[3] >= 1.0 {
                viewport = Some(vp);
            }
        }
        let doc = self.doc.as_mut().map(|d| (&mut d.scene, &d.clips[..]));
        (self.screen).record(&mut encoder, &target, &self.ui.controls, doc, viewport);
        let screen = egui_wgpu::ScreenDescriptor {
            size_in_pixels: [size.0, size.1],
            pixels_per_point: full.pixels_per_point,
        };
        let extra = self.egui_renderer.update_buffers(
            &gpu.device,
            &gpu.queue,
            &mut encoder,
            &jobs,
            &screen,
        );
        {
            let mut pass = encoder
                .begin_render_pass(&wgpu::RenderPassDescriptor {
                    label: Some("egui"),
                    color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                        view: &target,
                        resolve_target: None,
                        ops: wgpu::Operations {
                            load: wgpu::LoadOp::Load,
                            store: wgpu::StoreOp::Store,
                        },
                    })],
                    ..Default::default()
                })
                .forget_lifetime();
            self.egui_renderer.render(&mut pass, &jobs, &screen);
        }
        gpu.queue
            .submit(extra.into_iter().chain([encoder.finish()]));
        frame.present();
        for id in &full.textures_delta.free {
            self.egui_renderer.free_texture(id);
        }
    }
}

/// The egui panels.
fn panels(ctx: &egui::Context, ui: &mut Ui, doc: Option<&Doc>) {
    let Ui {
        controls: ui_state,
        status,
    } = ui;
    egui::SidePanel::left("controls")
        .default_width(260.0)
        .show(ctx, |ui| {
            let Some(doc) = doc else {
                ui.heading("retromodel");
                ui.label("Drop a model file on the window.");
                ui.label(status.as_str());
                return;
            };
            ui.heading(
                doc.path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
            );
            let current = doc
                .clips
                .get(ui_state.clip)
                .map_or("-".to_string(), |c| c.name.clone());
            egui::ComboBox::from_label("clip")
                .selected_text(current)
                .show_ui(ui, |ui| {
                    for (i, c) in doc.clips.iter().enumerate() {
                        if ui
                            .selectable_value(&mut ui_state.clip, i, &c.name)
                            .clicked()
                        {
                            ui_state.time = 0.0;
                        }
                    }
                });
            ui.horizontal(|ui| {
                if ui
                    .button(if ui_state.playing { "pause" } else { "play" })
                    .clicked()
                {
                    ui_state.playing = !ui_state.playing;
                }
                ui.checkbox(&mut ui_state.interpolate, "interpolate");
            });
            ui.add(egui::Slider::new(&mut ui_state.speed, 0.0..=4.0).text("speed"));
            if let Some(c) = doc.clips.get(ui_state.clip) {
                let duration = c.duration();
                let mut t = if duration > 0.0 {
                    ui_state.time.rem_euclid(duration)
                } else {
                    0.0
                };
                if ui
                    .add(egui::Slider::new(&mut t, 0.0..=duration.max(1e-3)).text("time (s)"))
                    .changed()
                {
                    ui_state.time = t;
                    ui_state.playing = false;
                }
                ui.label(position_text(&doc.scene, c, t, ui_state.interpolate));
            }
            let skins = doc.scene.skin_count();
            if skins > 0 {
                let label =
                    |s: Option<usize>| s.map_or("mesh default".into(), |i| format!("skin {i}"));
                egui::ComboBox::from_label("skin")
                    .selected_text(label(ui_state.skin))
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut ui_state.skin, None, label(None));
                        for i in 0..skins {
                            ui.selectable_value(&mut ui_state.skin, Some(i), label(Some(i)));
                        }
                    });
            }
            ui.checkbox(&mut ui_state.wireframe, "wireframe");
            ui.horizontal(|ui| {
                ui.label(format!(
                    "yaw {:.0} pitch {:.0} zoom {:.2}",
                    ui_state.camera.yaw, ui_state.camera.pitch, ui_state.zoom
                ));
                if ui.button("reset").clicked() {
                    ui_state.reset_camera();
                }
            });
            ui.small("drag: orbit, wheel: zoom, drop a file to open it");
            if !status.is_empty() {
                ui.small(status.as_str());
            }
            ui.separator();
            egui::CollapsingHeader::new("info")
                .default_open(true)
                .show(ui, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        ui.label(egui::RichText::new(&doc.info).small());
                    });
                });
        });
}

impl ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &ActiveEventLoop) {
        if self.state.is_some() {
            return;
        }
        match State::new(event_loop, &self.options) {
            Ok(mut s) => {
                let path = self.options.path.clone();
                s.open(&path, &self.loader, self.options.clip.as_deref());
                self.state = Some(s);
            }
            Err(e) => {
                self.error = Some(e);
                event_loop.exit();
            }
        }
    }

    fn window_event(&mut self, event_loop: &ActiveEventLoop, _id: WindowId, event: WindowEvent) {
        let Some(state) = self.state.as_mut() else {
            return;
        };
        let response = state.egui_state.on_window_event(&state.window, &event);
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(size) => state.screen.resize(size.width, size.height),
            WindowEvent::RedrawRequested => {
                state.redraw();
                if let Some(q) = self.options.quit_after {
                    if state.started.elapsed().as_secs_f32() >= q {
                        event_loop.exit();
                    }
                }
            }
            WindowEvent::DroppedFile(path) => state.open(&path, &self.loader, None),
            WindowEvent::MouseInput {
                state: s,
                button: MouseButton::Left,
                ..
            } => {
                state.dragging = s == ElementState::Pressed
                    && !response.consumed
                    && !state.egui_ctx.wants_pointer_input();
            }
            WindowEvent::CursorMoved { position, .. } => {
                if let (true, Some((x, y))) = (state.dragging, state.cursor) {
                    state
                        .ui
                        .controls
                        .orbit((position.x - x) as f32, (position.y - y) as f32);
                }
                state.cursor = Some((position.x, position.y));
            }
            WindowEvent::MouseWheel { delta, .. } if !response.consumed => {
                let lines = match delta {
                    MouseScrollDelta::LineDelta(_, y) => y,
                    MouseScrollDelta::PixelDelta(p) => (p.y / 40.0) as f32,
                };
                state.ui.controls.zoom_by(lines);
            }
            _ => {}
        }
    }

    fn about_to_wait(&mut self, _event_loop: &ActiveEventLoop) {
        if let Some(s) = &self.state {
            s.window.request_redraw();
        }
    }
}

/// Opens the window and runs until it is closed (or `options.quit_after` passes).
pub fn run(options: Options, loader: Box<Loader>) -> Result<(), String> {
    let event_loop = EventLoop::new().map_err(|e| window_error(&e.to_string()))?;
    let mut app = App {
        options,
        loader,
        state: None,
        error: None,
    };
    event_loop
        .run_app(&mut app)
        .map_err(|e| format!("event loop: {e}"))?;
    match app.error {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// What to tell the user when no window can be opened: without a display, that and what to
/// do instead; otherwise the system's reason, without the source location winit adds
/// (`os error at /root/.cargo/registry/.../mod.rs:765: ...`).
pub fn window_error(reason: &str) -> String {
    let no_display = std::env::var_os("DISPLAY").is_none()
        && std::env::var_os("WAYLAND_DISPLAY").is_none()
        && std::env::var_os("WAYLAND_SOCKET").is_none();
    if cfg!(target_os = "linux") && no_display {
        return "cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are not set); \
                run it in a desktop session, under `xvfb-run`, or use `retromodel render` for \
                pictures and `retromodel web` for the browser"
            .to_string();
    }
    // winit writes "os error at FILE:LINE: REASON".
    let plain = match reason.split_once(".rs:") {
        Some((_, rest)) => rest.split_once(": ").map_or(rest, |(_, r)| r).to_string(),
        None => reason.to_string(),
    };
    format!("cannot open a window: {plain}")
}
