//! The browser side: a `Viewer` on a canvas, driven by `web/app.js`.

use retromodel_render::playback::{clips_of, position_text, ClipEntry, Controls, Screen};
use retromodel_render::{Gpu, GpuModel};
use serde_json::json;
use wasm_bindgen::prelude::*;

use crate::{export, export_formats, read_formats, rows_json, stem_of, Opened, Workspace};

/// An open model on the GPU.
struct Doc {
    opened: Opened,
    scene: GpuModel,
    clips: Vec<ClipEntry>,
}

/// The viewer: a canvas surface, the renderer, the workspace of files and the playback state.
#[wasm_bindgen]
pub struct Viewer {
    screen: Screen,
    workspace: Workspace,
    doc: Option<Doc>,
    controls: Controls,
    frames: u64,
}

fn err(e: impl std::fmt::Display) -> JsValue {
    JsValue::from_str(&e.to_string())
}

/// The global where [`panic_hook`] leaves the last panic's text for the page.
const PANIC_GLOBAL: &str = "retromodelPanic";

/// The panic hook: the panic to the console (`console_error_panic_hook`), and its text to
/// `globalThis.retromodelPanic`. Panics abort in the browser (stable Rust cannot unwind on
/// wasm32-unknown-unknown): the call traps with `RuntimeError: unreachable` and this module
/// instance is unusable from then on; the page (`web/app.js`) makes a fresh instance and
/// reports the file with this text.
fn panic_hook(info: &std::panic::PanicHookInfo<'_>) {
    console_error_panic_hook::hook(info);
    // Nothing more can be done if the global cannot be set: the console has the panic.
    let _ = js_sys::Reflect::set(
        &js_sys::global(),
        &JsValue::from_str(PANIC_GLOBAL),
        &JsValue::from_str(&info.to_string()),
    );
}

#[wasm_bindgen]
impl Viewer {
    /// A viewer drawing into `canvas`: WebGPU when the browser has it and `webgl` is false,
    /// WebGL2 otherwise.
    pub async fn create(
        canvas: web_sys::HtmlCanvasElement,
        webgl: bool,
    ) -> Result<Viewer, JsValue> {
        static HOOK: std::sync::Once = std::sync::Once::new();
        HOOK.call_once(|| std::panic::set_hook(Box::new(panic_hook)));
        let (width, height) = (canvas.width().max(1), canvas.height().max(1));
        let descriptor = wgpu::InstanceDescriptor {
            backends: if webgl {
                wgpu::Backends::GL
            } else {
                wgpu::Backends::BROWSER_WEBGPU | wgpu::Backends::GL
            },
            ..Default::default()
        };
        let instance = wgpu::util::new_instance_with_webgpu_detection(&descriptor).await;
        let surface = instance
            .create_surface(wgpu::SurfaceTarget::Canvas(canvas))
            .map_err(|e| err(format!("cannot draw on the canvas: {e}")))?;
        let gpu = Gpu::request(instance, Some(&surface)).await.map_err(err)?;
        Ok(Viewer {
            screen: Screen::new(gpu, surface, width, height).map_err(err)?,
            workspace: Workspace::new(),
            doc: None,
            controls: Controls::new(true),
            frames: 0,
        })
    }

    /// The adapter and backend (`WebGL2` or `WebGPU`) in words.
    pub fn adapter(&self) -> String {
        let info = &self.screen.gpu.info;
        let backend = match info.backend {
            wgpu::Backend::Gl => "WebGL2",
            wgpu::Backend::BrowserWebGpu => "WebGPU",
            _ => "other",
        };
        format!("{backend}: {}", info.name)
    }

    /// Adds a file (`path` inside what was dropped; archives are mounted). Returns what was
    /// added in words; the error text when an archive cannot be opened.
    pub fn add_file(&mut self, path: &str, bytes: Vec<u8>) -> Result<String, JsValue> {
        self.workspace.add(path, bytes).map_err(err)
    }

    /// Forgets every file (the open model stays on screen).
    pub fn clear_files(&mut self) {
        self.workspace.clear();
    }

    /// The model files, JSON: `[{"path": ..., "size": ..., "source": ...}]` (`source`: the
    /// file given that holds the model, an archive or the model itself).
    pub fn models(&mut self) -> String {
        let list: Vec<_> = self
            .workspace
            .models()
            .into_iter()
            .map(|m| json!({"path": m.path, "size": m.size, "source": m.source}))
            .collect();
        serde_json::Value::Array(list).to_string()
    }

    /// Open Quake II MD2 and Quake MDL models through their re-release MD5 replacements when
    /// the engine would use them (`retromodel web --prefer md5`, or `?prefer=md5`).
    pub fn set_prefer_md5(&mut self, on: bool) {
        self.workspace.set_prefer_md5(on);
    }

    /// Opens the model at `path`; JSON with its info rows, clips, skins and warnings. On
    /// error the previous model stays and the error text is returned.
    pub fn open(&mut self, path: &str) -> Result<String, JsValue> {
        let opened = self.workspace.open(path).map_err(err)?;
        let scene = GpuModel::new(&self.screen.gpu, &self.screen.renderer, opened.model())
            .map_err(|e| err(format!("{path}: {e}")))?;
        let clips = clips_of(opened.model(), &scene);
        self.controls.opened(retromodel::model::opening_clip(
            clips.iter().map(|e| e.name.as_str()),
        ));
        let mut warnings = opened.warnings().to_vec();
        warnings.extend(scene.warnings().iter().cloned());
        let info = json!({
            "path": opened.path,
            "rows": rows_json(&opened.info),
            "clips": clips.iter().map(|c| json!({"name": c.name, "duration": c.duration()})).collect::<Vec<_>>(),
            "skins": scene.skin_count(),
            "warnings": warnings,
        });
        self.doc = Some(Doc {
            opened,
            scene,
            clips,
        });
        Ok(info.to_string())
    }

    /// Selects clip `i` of the list `open` returned, from its start.
    pub fn set_clip(&mut self, i: usize) {
        self.controls.clip = i;
        self.controls.time = 0.0;
    }

    /// Plays or pauses.
    pub fn set_playing(&mut self, yes: bool) {
        self.controls.playing = yes;
    }

    /// Playback speed (1 = the engine's).
    pub fn set_speed(&mut self, speed: f32) {
        self.controls.speed = speed.clamp(0.0, 16.0);
    }

    /// Jumps to `t` seconds into the clip.
    pub fn set_time(&mut self, t: f32) {
        self.controls.time = t.max(0.0);
    }

    /// Blends between keyframes (off: poses snap, as software Quake).
    pub fn set_interpolate(&mut self, yes: bool) {
        self.controls.interpolate = yes;
    }

    /// Draws every mesh with skin `i` (negative: each mesh's own).
    pub fn set_skin(&mut self, i: i32) {
        self.controls.skin = usize::try_from(i).ok();
    }

    /// Draws triangle edges over the surfaces.
    pub fn set_wireframe(&mut self, yes: bool) {
        self.controls.wireframe = yes;
    }

    /// Turns the camera by a drag of `dx`, `dy` pixels.
    pub fn orbit(&mut self, dx: f32, dy: f32) {
        self.controls.orbit(dx, dy);
    }

    /// Zooms by `steps` wheel steps (positive: closer).
    pub fn zoom_by(&mut self, steps: f32) {
        self.controls.zoom_by(steps);
    }

    /// Back to the default camera.
    pub fn reset_camera(&mut self) {
        self.controls.reset_camera();
    }

    /// The canvas' new size in pixels.
    pub fn resize(&mut self, width: u32, height: u32) {
        self.screen.resize(width, height);
    }

    /// Advances playback by `dt` seconds (when playing) and draws a frame.
    pub fn frame(&mut self, dt: f32) -> Result<(), JsValue> {
        self.controls.advance(dt);
        let Some((frame, target)) = self.screen.next_frame().map_err(err)? else {
            return Ok(());
        };
        let gpu = &self.screen.gpu;
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("web") });
        let doc = self.doc.as_mut().map(|d| (&mut d.scene, &d.clips[..]));
        (self.screen).record(&mut encoder, &target, &self.controls, doc, None);
        gpu.queue.submit([encoder.finish()]);
        frame.present();
        self.frames += 1;
        Ok(())
    }

    /// Playback state, JSON: time in the clip, its duration, the frame in words, whether it
    /// plays, frames drawn.
    pub fn status(&self) -> String {
        let (duration, position) = match &self.doc {
            Some(doc) => match doc.clips.get(self.controls.clip) {
                Some(c) => (
                    c.duration(),
                    position_text(&doc.scene, c, self.controls.time, self.controls.interpolate),
                ),
                None => (0.0, String::new()),
            },
            None => (0.0, String::new()),
        };
        let t = if duration > 0.0 {
            self.controls.time.rem_euclid(duration)
        } else {
            0.0
        };
        json!({
            "time": t,
            "duration": duration,
            "position": position,
            "playing": self.controls.playing,
            "frames": self.frames,
        })
        .to_string()
    }

    /// The formats the page opens, JSON: `[[description, [extensions]]]` (the registry's,
    /// then the archives).
    pub fn read_formats() -> String {
        let list: Vec<_> = read_formats()
            .into_iter()
            .map(|(d, e)| json!([d, e]))
            .collect();
        serde_json::Value::Array(list).to_string()
    }

    /// The export choices, JSON: `[[id, label]]`.
    pub fn export_formats() -> String {
        let list: Vec<_> = export_formats()
            .into_iter()
            .map(|(id, label)| json!([id, label]))
            .collect();
        serde_json::Value::Array(list).to_string()
    }

    /// The open model written as `format` (an id of `export_formats`): `[file name, bytes,
    /// notes JSON]`.
    pub fn export(&self, format: &str) -> Result<js_sys::Array, JsValue> {
        let doc = self.doc.as_ref().ok_or_else(|| err("no model is open"))?;
        let d = export(&doc.opened.opened, stem_of(&doc.opened.path), format).map_err(err)?;
        let out = js_sys::Array::new();
        out.push(&JsValue::from_str(&d.name));
        out.push(&js_sys::Uint8Array::from(&d.bytes[..]));
        out.push(&JsValue::from_str(
            &serde_json::Value::from(d.notes).to_string(),
        ));
        Ok(out)
    }
}
