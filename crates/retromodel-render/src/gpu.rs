//! Device creation: headless or for a window or canvas surface, with a clear error when there
//! is no adapter. The same limits everywhere: WebGL2's (the lowest the renderer runs on), with
//! the adapter's own buffer and texture sizes so large pose buffers and skins fit.

use crate::RenderError;

/// A wgpu device and queue, and what adapter they run on.
pub struct Gpu {
    /// The instance (kept for creating window surfaces in the viewer).
    pub instance: wgpu::Instance,
    /// The adapter.
    pub adapter: wgpu::Adapter,
    /// The device.
    pub device: wgpu::Device,
    /// The queue.
    pub queue: wgpu::Queue,
    /// The adapter's name, driver and backend.
    pub info: wgpu::AdapterInfo,
}

impl Gpu {
    /// A device with no window, on the best adapter of the primary backends (Vulkan, Metal,
    /// DX12; `WGPU_BACKEND` overrides). Without any adapter (no GPU and no software Vulkan
    /// driver) this returns [`RenderError::NoAdapter`]; it never panics for that.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn headless() -> Result<Gpu, RenderError> {
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
        let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor {
            backends,
            ..Default::default()
        });
        Gpu::with_instance(instance, None)
    }

    /// A device on `instance`, compatible with `surface` when one is given (the viewer),
    /// waiting for the adapter (native only; in a browser use [`Gpu::request`]).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Gpu, RenderError> {
        pollster::block_on(Gpu::request(instance, surface))
    }

    /// A device on `instance`, compatible with `surface` when one is given: what
    /// [`Gpu::with_instance`] does, as a future (the browser cannot block).
    pub async fn request(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Gpu, RenderError> {
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: surface,
            })
            .await
            .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        let supported = adapter.limits();
        // WebGL2's limits (the renderer needs no more: joint matrices and influences are
        // textures, not storage buffers), with the adapter's own sizes.
        let limits = wgpu::Limits {
            max_buffer_size: supported.max_buffer_size,
            max_texture_dimension_2d: supported.max_texture_dimension_2d,
            ..wgpu::Limits::downlevel_webgl2_defaults()
        };
        let (device, queue) = adapter
            .request_device(&wgpu::DeviceDescriptor {
                label: Some("retromodel-render"),
                required_features: wgpu::Features::empty(),
                required_limits: limits,
                memory_hints: wgpu::MemoryHints::Performance,
                trace: wgpu::Trace::Off,
            })
            .await
            .map_err(|e| RenderError::Device(e.to_string()))?;
        Ok(Gpu {
            instance,
            adapter,
            device,
            queue,
            info,
        })
    }

    /// `name (backend, driver info)`, e.g. `llvmpipe (LLVM 15.0.6, 256 bits) (Vulkan, ...)`.
    pub fn adapter_name(&self) -> String {
        let i = &self.info;
        let mut s = format!("{} ({:?}", i.name, i.backend);
        if !i.driver.is_empty() {
            s.push_str(&format!(", {}", i.driver));
        }
        if !i.driver_info.is_empty() {
            s.push_str(&format!(" {}", i.driver_info));
        }
        s.push(')');
        s
    }
}

/// The configuration of a window or canvas surface of `width` x `height` on `gpu`'s adapter:
/// a format without sRGB conversion (skin bytes shown as stored, as `render` writes them),
/// vsync, the adapter's first alpha mode. Not applied: call `surface.configure`.
pub fn surface_config(
    gpu: &Gpu,
    surface: &wgpu::Surface<'_>,
    width: u32,
    height: u32,
) -> Result<wgpu::SurfaceConfiguration, RenderError> {
    let caps = surface.get_capabilities(&gpu.adapter);
    let format = caps
        .formats
        .iter()
        .copied()
        .find(|f| !f.is_srgb())
        .or_else(|| caps.formats.first().copied())
        .ok_or_else(|| RenderError::Device("the surface offers no format".into()))?;
    Ok(wgpu::SurfaceConfiguration {
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        format,
        width: width.max(1),
        height: height.max(1),
        present_mode: wgpu::PresentMode::AutoVsync,
        desired_maximum_frame_latency: 2,
        alpha_mode: caps
            .alpha_modes
            .first()
            .copied()
            .unwrap_or(wgpu::CompositeAlphaMode::Auto),
        view_formats: vec![],
    })
}
