//! Device creation: headless, with a clear error when there is no adapter.

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
    /// Whether vertex shaders may read storage buffers (needed by the skeletal path).
    pub vertex_storage: bool,
}

impl Gpu {
    /// A device with no window, on the best adapter of the primary backends (Vulkan, Metal,
    /// DX12; `WGPU_BACKEND` overrides). Without any adapter (no GPU and no software Vulkan
    /// driver) this returns [`RenderError::NoAdapter`]; it never panics for that.
    pub fn headless() -> Result<Gpu, RenderError> {
        let backends = wgpu::Backends::from_env().unwrap_or(wgpu::Backends::PRIMARY);
        let instance = wgpu::Instance::new(&wgpu::InstanceDescriptor {
            backends,
            ..Default::default()
        });
        Gpu::with_instance(instance, None)
    }

    /// A device on `instance`, compatible with `surface` when one is given (the viewer).
    pub fn with_instance(
        instance: wgpu::Instance,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Gpu, RenderError> {
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: surface,
        }))
        .map_err(|e| RenderError::NoAdapter(e.to_string()))?;
        let info = adapter.get_info();
        let supported = adapter.limits();
        let vertex_storage = adapter
            .get_downlevel_capabilities()
            .flags
            .contains(wgpu::DownlevelFlags::VERTEX_STORAGE)
            && supported.max_storage_buffers_per_shader_stage > 0;
        // Downlevel defaults (what llvmpipe and any GL 3.3-class device give), with the
        // adapter's own buffer size limits so large pose buffers fit.
        let limits = wgpu::Limits {
            max_buffer_size: supported.max_buffer_size,
            max_storage_buffer_binding_size: supported.max_storage_buffer_binding_size,
            max_texture_dimension_2d: supported.max_texture_dimension_2d,
            ..wgpu::Limits::downlevel_defaults()
        };
        let (device, queue) = pollster::block_on(adapter.request_device(&wgpu::DeviceDescriptor {
            label: Some("retromodel-render"),
            required_features: wgpu::Features::empty(),
            required_limits: limits,
            memory_hints: wgpu::MemoryHints::Performance,
            trace: wgpu::Trace::Off,
        }))
        .map_err(|e| RenderError::Device(e.to_string()))?;
        Ok(Gpu {
            instance,
            adapter,
            device,
            queue,
            info,
            vertex_storage,
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
