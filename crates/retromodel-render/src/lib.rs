//! GPU rendering of [`retromodel`] models with wgpu: keyframe interpolation and skeletal
//! skinning in the vertex shader, headless images read back as RGBA8, animated GIFs, and (with
//! the `viewer` feature) an interactive winit + egui viewer.
//!
//! The core library stays free of GPU code; this crate only reads its [`retromodel::Model`].
//!
//! - **Keyframe path** (MDL, MD2, GameStudio, as the MD2 keyframe loader in
//!   `specs/md2-keyframe-gpu-loader.txt`): every pose of a mesh is uploaded once into one vertex
//!   buffer (positions and normals, pose after pose); a draw binds the slice of pose A and the
//!   slice of pose B as two vertex buffers and a blend factor in a uniform, and the vertex
//!   shader blends positions and normals. Per frame the CPU writes one uniform.
//! - **Skeletal path** (MD5, MDL7 bones): bind-pose vertices with up to four joint influences
//!   as vertex attributes; the joint matrices of the current time are written to a texture
//!   per frame and the vertex shader skins. A mesh with a vertex of more than four
//!   influences also gets every influence uploaded once into a second texture, and
//!   its vertices are skinned over all of them (exact linear blend skinning, no per-frame CPU
//!   skinning); [`GpuModel::max_influences`] tells which.
//! - **Shading**: the skin with nearest sampling (linear on request), Quake fullbright texels
//!   unaffected by light, one directional light plus ambient, an optional wireframe overlay
//!   (a line list drawn over the surfaces), a depth buffer, and back-face culling with the
//!   engines' clockwise front faces (the axis change is a rotation, so winding is kept).
//!   Skins with [`retromodel::model::SkinEffects`] (Half-Life textures) draw as GoldSrc
//!   draws them: chrome samples the skin where the normal points on screen, at
//!   `(n · right + 1) / 2` against the view's right and up (a fake reflection that follows
//!   the camera); additive meshes come last and add their colour to what is behind, without
//!   depth writes.
//! - **Timing** ([`timing`]): which poses and blend factor a clip shows at a time follows the
//!   clip's `fps` or group end times exactly as the glTF exporter's timelines do; skeletal
//!   animations (MD5, MDL7 bones) are sampled and turned into joint matrices by the core
//!   library's own skeletal module (`retromodel::model::pose::PoseTrack`).
//!
//! ```no_run
//! use retromodel_render::{Gpu, GpuModel, Renderer, View, Pose, Target};
//! # fn demo(model: &retromodel::Model) -> Result<(), retromodel_render::RenderError> {
//! let gpu = Gpu::headless()?; // Err(RenderError::NoAdapter) without a GPU or Vulkan driver
//! println!("adapter: {}", gpu.adapter_name());
//! let renderer = Renderer::new(&gpu, Target::FORMAT);
//! let mut scene = GpuModel::new(&gpu, &renderer, model)?;
//! let mut target = Target::new(&gpu, 256, 256);
//! let view = View::default();
//! let rgba = renderer.render_image(&gpu, &mut scene, &mut target, &Pose::frame(0), &view)?;
//! assert_eq!(rgba.len(), 256 * 256 * 4);
//! # Ok(()) }
//! ```

mod camera;
mod gif_out;
mod gpu;
pub mod playback;
mod renderer;
mod scene;
pub mod timing;
#[cfg(feature = "viewer")]
pub mod viewer;

pub use camera::{Camera, Framing};
pub use gif_out::encode_gif;
pub use gpu::{surface_config, Gpu};
pub use renderer::{depth_texture, Renderer, Target, View, DEPTH_FORMAT};
pub use scene::{GpuModel, Pose};

/// What can go wrong when rendering.
#[derive(Debug)]
pub enum RenderError {
    /// No GPU adapter (no GPU and no software Vulkan driver such as Mesa's llvmpipe).
    NoAdapter(String),
    /// The adapter refused to create a device.
    Device(String),
    /// The model cannot be drawn (no vertices, a buffer too large for the adapter, ...).
    Model(String),
    /// Reading the image back from the GPU failed.
    Readback(String),
}

impl std::fmt::Display for RenderError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RenderError::NoAdapter(why) => write!(
                f,
                "no GPU adapter: {why} (install a Vulkan driver; without a GPU, \
                 `apt-get install mesa-vulkan-drivers` gives the llvmpipe software device)"
            ),
            RenderError::Device(why) => write!(f, "cannot create a GPU device: {why}"),
            RenderError::Model(why) => write!(f, "cannot draw the model: {why}"),
            RenderError::Readback(why) => write!(f, "cannot read the image back: {why}"),
        }
    }
}

impl std::error::Error for RenderError {}
