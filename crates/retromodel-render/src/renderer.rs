//! Pipelines, draws, and headless render targets with read-back.

use glam::{Mat4, Vec3};
use retromodel::model::{to_y_up, SkinEffects};

use crate::camera::Camera;
use crate::scene::{GpuModel, PoseVertex, SkinVertex};
use crate::{Gpu, Pose, RenderError};

/// The uniform block of `shader.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Globals {
    view_proj: [f32; 16],
    model: [f32; 16],
    light: [f32; 4],
    params: [f32; 4],
    wire_color: [f32; 4],
    chrome_right: [f32; 4],
    chrome_up: [f32; 4],
}

/// How to draw: camera, skin choice, wireframe, background.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct View {
    /// The camera.
    pub camera: Camera,
    /// Draw the triangle edges over the surfaces.
    pub wireframe: bool,
    /// Skin to use for every mesh instead of the mesh's own.
    pub skin: Option<usize>,
    /// Picture of an animated skin group (wraps).
    pub picture: usize,
    /// Clear colour, RGBA in 0..1 (the default is transparent black, so the model's
    /// coverage is the share of pixels with alpha > 0).
    pub background: [f64; 4],
    /// Ambient light, 0..1.
    pub ambient: f32,
    /// Strength of the directional light, 0..1.
    pub diffuse: f32,
    /// The sphere the camera frames instead of the model's own ([`GpuModel::framing`]).
    pub framing: Option<crate::Framing>,
    /// Draw into this part of the target only, `[x, y, width, height]` in pixels (the
    /// viewer's area beside its panels); the whole target is still cleared.
    pub viewport: Option<[f32; 4]>,
}

impl Default for View {
    fn default() -> View {
        View {
            camera: Camera::default(),
            wireframe: false,
            skin: None,
            picture: 0,
            background: [0.0; 4],
            ambient: 0.4,
            diffuse: 0.7,
            framing: None,
            viewport: None,
        }
    }
}

/// The draw pipelines and shared GPU state.
pub struct Renderer {
    globals: wgpu::Buffer,
    globals_group: wgpu::BindGroup,
    material_layout: wgpu::BindGroupLayout,
    /// The joint-matrix texture (`vs_skin`).
    pub(crate) joints_layout: wgpu::BindGroupLayout,
    /// The joint-matrix texture and a mesh's packed influences (`vs_skin_all`).
    pub(crate) influences_layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    pipelines: Pipelines,
}

/// The depth format of every pass.
pub const DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The Z-up -> Y-up rotation of [`to_y_up`] as a matrix (its columns are the images of the
/// axes), so the GPU applies the one axis conversion of the core library.
fn axis_matrix() -> Mat4 {
    let c = |v| Vec3::from(to_y_up(v)).extend(0.0);
    Mat4::from_cols(
        c([1.0, 0.0, 0.0]),
        c([0.0, 1.0, 0.0]),
        c([0.0, 0.0, 1.0]),
        glam::Vec4::W,
    )
}

/// The bind group layouts of the shader's groups.
struct Layouts {
    /// Group 0: the uniform block.
    globals: wgpu::BindGroupLayout,
    /// Group 1: a skin texture, its fullbright mask and the sampler.
    material: wgpu::BindGroupLayout,
    /// Group 2 of `vs_skin`: the joint-matrix texture.
    joints: wgpu::BindGroupLayout,
    /// Group 2 of `vs_skin_all`: the joint-matrix texture and a mesh's packed influences.
    influences: wgpu::BindGroupLayout,
}

impl Layouts {
    /// Creates the four layouts.
    fn new(device: &wgpu::Device) -> Layouts {
        let globals = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("globals"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let tex = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::FRAGMENT,
            ty: wgpu::BindingType::Texture {
                sample_type: wgpu::TextureSampleType::Float { filterable: true },
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let material = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("material"),
            entries: &[
                tex(0),
                tex(1),
                wgpu::BindGroupLayoutEntry {
                    binding: 2,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        // Joint matrices (RGBA32F, four texels a joint) and packed influences (RG32UI) are
        // textures the vertex shader reads with `textureLoad`: WebGL2 has no storage buffers,
        // and one skinning path serves desktop and browser.
        let vertex_texture = |binding, sample_type| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: wgpu::ShaderStages::VERTEX,
            ty: wgpu::BindingType::Texture {
                sample_type,
                view_dimension: wgpu::TextureViewDimension::D2,
                multisampled: false,
            },
            count: None,
        };
        let joint_texels = wgpu::TextureSampleType::Float { filterable: false };
        let joints = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("joints"),
            entries: &[vertex_texture(0, joint_texels)],
        });
        let influences = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("joints and influences"),
            entries: &[
                vertex_texture(0, joint_texels),
                vertex_texture(1, wgpu::TextureSampleType::Uint),
            ],
        });
        Layouts {
            globals,
            material,
            joints,
            influences,
        }
    }
}

/// What every pipeline shares: the device, the shader module and the colour target's
/// format.
struct PipelineBuilder<'a> {
    device: &'a wgpu::Device,
    shader: &'a wgpu::ShaderModule,
    format: wgpu::TextureFormat,
}

/// How a pipeline draws: the shaded fill, the wireframe's lines over it, or a skin's
/// effects (Half-Life's chrome and additive textures, [`retromodel::model::SkinEffects`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// Filled, shaded triangles.
    Fill,
    /// The triangle edges, drawn over the fill.
    Wire,
    /// Filled, the skin sampled from the normal as seen from the camera (`fs_chrome`).
    Chrome,
    /// Filled, added to what is behind (no depth writes): `STUDIO_NF_ADDITIVE`.
    Additive,
    /// Chrome and additive.
    ChromeAdditive,
}

impl PipelineBuilder<'_> {
    /// A pipeline with vertex entry point `vs` (`{vs}_wire` for the wireframe) that draws
    /// as `look` says.
    fn pipeline(
        &self,
        label: &str,
        layout: &wgpu::PipelineLayout,
        vs: &str,
        buffers: &[wgpu::VertexBufferLayout<'_>],
        look: Look,
    ) -> wgpu::RenderPipeline {
        let wire = look == Look::Wire;
        let additive = matches!(look, Look::Additive | Look::ChromeAdditive);
        let vs = if wire {
            format!("{vs}_wire")
        } else {
            vs.to_string()
        };
        let add = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        };
        self.device
            .create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some(&format!("{label} {look:?}")),
                layout: Some(layout),
                vertex: wgpu::VertexState {
                    module: self.shader,
                    entry_point: Some(&vs),
                    compilation_options: Default::default(),
                    buffers,
                },
                primitive: wgpu::PrimitiveState {
                    topology: if wire {
                        wgpu::PrimitiveTopology::LineList
                    } else {
                        wgpu::PrimitiveTopology::TriangleList
                    },
                    // The engines' front faces are clockwise; the axis change is a rotation,
                    // so they stay clockwise on screen.
                    front_face: wgpu::FrontFace::Cw,
                    cull_mode: if wire { None } else { Some(wgpu::Face::Back) },
                    ..Default::default()
                },
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: DEPTH_FORMAT,
                    depth_write_enabled: !wire && !additive,
                    depth_compare: if wire {
                        wgpu::CompareFunction::LessEqual
                    } else {
                        wgpu::CompareFunction::Less
                    },
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: Default::default(),
                fragment: Some(wgpu::FragmentState {
                    module: self.shader,
                    entry_point: Some(match look {
                        Look::Wire => "fs_wire",
                        Look::Chrome | Look::ChromeAdditive => "fs_chrome",
                        Look::Fill | Look::Additive => "fs_shaded",
                    }),
                    compilation_options: Default::default(),
                    targets: &[Some(wgpu::ColorTargetState {
                        format: self.format,
                        blend: additive.then_some(wgpu::BlendState {
                            color: add,
                            alpha: add,
                        }),
                        write_mask: wgpu::ColorWrites::ALL,
                    })],
                }),
                multiview: None,
                cache: None,
            })
    }

    /// One drawing path's pipelines, every look.
    fn path(
        &self,
        label: &str,
        layout: &wgpu::PipelineLayout,
        vs: &str,
        buffers: &[wgpu::VertexBufferLayout<'_>],
    ) -> PathPipelines {
        let p = |look| self.pipeline(label, layout, vs, buffers, look);
        PathPipelines {
            fill: p(Look::Fill),
            wire: p(Look::Wire),
            chrome: p(Look::Chrome),
            additive: p(Look::Additive),
            chrome_additive: p(Look::ChromeAdditive),
        }
    }
}

/// One drawing path's pipeline for each [`Look`].
struct PathPipelines {
    fill: wgpu::RenderPipeline,
    wire: wgpu::RenderPipeline,
    chrome: wgpu::RenderPipeline,
    additive: wgpu::RenderPipeline,
    chrome_additive: wgpu::RenderPipeline,
}

impl PathPipelines {
    /// The wireframe's pipeline, or the fill's for a skin with `effects`.
    fn get(&self, wire: bool, effects: SkinEffects) -> &wgpu::RenderPipeline {
        match (wire, effects.chrome, effects.additive) {
            (true, ..) => &self.wire,
            (false, false, false) => &self.fill,
            (false, true, false) => &self.chrome,
            (false, false, true) => &self.additive,
            (false, true, true) => &self.chrome_additive,
        }
    }
}

/// Each drawing path's pipelines.
struct Pipelines {
    morph: PathPipelines,
    skin: PathPipelines,
    skin_all: PathPipelines,
}

impl Pipelines {
    /// The keyframe path (`vs_morph`: UVs and two poses), the skinned path (`vs_skin`: UVs
    /// and bind-pose vertices with four influences) and the every-influence path
    /// (`vs_skin_all`: UVs and bind-pose vertices, influences from a texture).
    fn new(builder: &PipelineBuilder, layouts: &Layouts) -> Pipelines {
        let device = builder.device;
        let morph_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("keyframe"),
            bind_group_layouts: &[&layouts.globals, &layouts.material],
            push_constant_ranges: &[],
        });
        let uv_layout = wgpu::VertexBufferLayout {
            array_stride: 8,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x2],
        };
        let pose_a = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<PoseVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![1 => Float32x3, 2 => Float32x3],
        };
        let pose_b = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<PoseVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![3 => Float32x3, 4 => Float32x3],
        };
        let skin_vertex = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<SkinVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![1 => Float32x3, 2 => Float32x3, 5 => Uint32x4, 6 => Float32x4],
        };
        // The same vertex buffer for `vs_skin_all`: bind position and normal only, the
        // influences come from a texture.
        let bind_vertex = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<SkinVertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![1 => Float32x3, 2 => Float32x3],
        };
        // A skinning path: the joint data in bind group 2.
        let skinned = |label: &str,
                       joints: &wgpu::BindGroupLayout,
                       vs: &str,
                       buffers: &[wgpu::VertexBufferLayout<'_>]| {
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some(label),
                bind_group_layouts: &[&layouts.globals, &layouts.material, joints],
                push_constant_ranges: &[],
            });
            builder.path(label, &layout, vs, buffers)
        };
        let morph_buffers = [uv_layout.clone(), pose_a, pose_b];
        Pipelines {
            morph: builder.path("keyframe", &morph_layout, "vs_morph", &morph_buffers),
            skin: skinned(
                "skinned",
                &layouts.joints,
                "vs_skin",
                &[uv_layout.clone(), skin_vertex],
            ),
            skin_all: skinned(
                "skinned, every influence",
                &layouts.influences,
                "vs_skin_all",
                &[uv_layout, bind_vertex],
            ),
        }
    }
}

impl Renderer {
    /// Builds the pipelines for colour targets of `format`.
    pub fn new(gpu: &Gpu, format: wgpu::TextureFormat) -> Renderer {
        let device = &gpu.device;
        let shader = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("retromodel shader"),
            source: wgpu::ShaderSource::Wgsl(include_str!("shader.wgsl").into()),
        });
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("globals"),
            size: std::mem::size_of::<Globals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let layouts = Layouts::new(device);
        let globals_group = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("globals"),
            layout: &layouts.globals,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: globals.as_entire_binding(),
            }],
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("nearest"),
            address_mode_u: wgpu::AddressMode::Repeat,
            address_mode_v: wgpu::AddressMode::Repeat,
            mag_filter: wgpu::FilterMode::Nearest,
            min_filter: wgpu::FilterMode::Nearest,
            ..Default::default()
        });
        let builder = PipelineBuilder {
            device,
            shader: &shader,
            format,
        };
        let pipelines = Pipelines::new(&builder, &layouts);
        Renderer {
            globals,
            globals_group,
            material_layout: layouts.material,
            joints_layout: layouts.joints,
            influences_layout: layouts.influences,
            sampler,
            pipelines,
        }
    }

    /// A material bind group from a skin texture and its fullbright mask.
    pub(crate) fn material(
        &self,
        gpu: &Gpu,
        base: &wgpu::TextureView,
        fullbright: &wgpu::TextureView,
    ) -> wgpu::BindGroup {
        gpu.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("material"),
            layout: &self.material_layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(base),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(fullbright),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: wgpu::BindingResource::Sampler(&self.sampler),
                },
            ],
        })
    }

    /// Records one frame of `scene` into `color` / `depth` (both `size` pixels): writes the
    /// uniforms (camera, light, the pose's blend factor), clears, and draws every mesh, the
    /// keyframe path binding pose A and pose B as two slices of the mesh's pose buffer. Call
    /// [`GpuModel::prepare`] first; pass its result as `pose`.
    #[allow(clippy::too_many_arguments)]
    pub fn draw(
        &self,
        gpu: &Gpu,
        encoder: &mut wgpu::CommandEncoder,
        color: &wgpu::TextureView,
        depth: &wgpu::TextureView,
        size: (u32, u32),
        scene: &GpuModel,
        pose: crate::timing::KeyPose,
        view: &View,
    ) {
        let framing = view.framing.unwrap_or_else(|| scene.framing());
        let vp = view
            .viewport
            .filter(|v| v[2] >= 1.0 && v[3] >= 1.0)
            .unwrap_or([0.0, 0.0, size.0 as f32, size.1 as f32]);
        let aspect = vp[2] / vp[3].max(1.0);
        let view_proj = view.camera.view_proj(&framing, aspect);
        let eye = view.camera.eye(&framing, aspect);
        let to_eye = (eye - Vec3::from(framing.center)).normalize_or(Vec3::X);
        let right = to_eye.cross(Vec3::Y).normalize_or(Vec3::Z);
        let light = (to_eye + Vec3::Y * 0.8 - right * 0.4).normalize_or(Vec3::Y);
        // The view's right and up, for chrome texture coordinates.
        let chrome_right = -right;
        let chrome_up = chrome_right.cross(-to_eye).normalize_or(Vec3::Y);
        let globals = Globals {
            view_proj: view_proj.to_cols_array(),
            model: axis_matrix().to_cols_array(),
            light: [light.x, light.y, light.z, view.ambient],
            params: [pose.blend, view.diffuse, 2e-4, 0.0],
            wire_color: [1.0, 1.0, 1.0, 1.0],
            chrome_right: [chrome_right.x, chrome_right.y, chrome_right.z, 0.0],
            chrome_up: [chrome_up.x, chrome_up.y, chrome_up.z, 0.0],
        };
        gpu.queue
            .write_buffer(&self.globals, 0, bytemuck::bytes_of(&globals));
        let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("model"),
            color_attachments: &[Some(cleared(color, view.background))],
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Discard,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
        });
        pass.set_viewport(vp[0], vp[1], vp[2], vp[3], 0.0, 1.0);
        pass.set_bind_group(0, &self.globals_group, &[]);
        // Additive meshes go last, over everything else, and write no depth.
        let order: &[(bool, bool)] = if view.wireframe {
            &[(false, false), (false, true), (true, false), (true, true)]
        } else {
            &[(false, false), (false, true)]
        };
        for &(wire, additive) in order {
            for mesh in &scene.meshes {
                let skin = view.skin.or(mesh.skin);
                let effects = skin
                    .and_then(|s| scene.skin_effects.get(s))
                    .copied()
                    .unwrap_or_default();
                if effects.additive != additive {
                    continue;
                }
                let material = skin
                    .and_then(|s| scene.skins.get(s))
                    .filter(|g| !g.is_empty())
                    .map_or(&scene.default_material, |g| &g[view.picture % g.len()]);
                pass.set_bind_group(1, material, &[]);
                pass.set_vertex_buffer(0, mesh.uvs.slice(..));
                let skinned = match (scene.skeletal_now, &mesh.skinned, &scene.joints) {
                    (true, Some(verts), Some(joints)) => {
                        // Every influence from the mesh's influence texture when a vertex has
                        // more than four; the four of the vertex attributes otherwise.
                        match &mesh.influence_group {
                            Some(group) => {
                                pass.set_pipeline(self.pipelines.skin_all.get(wire, effects));
                                pass.set_bind_group(2, group, &[]);
                            }
                            None => {
                                pass.set_pipeline(self.pipelines.skin.get(wire, effects));
                                pass.set_bind_group(2, &joints.group, &[]);
                            }
                        }
                        pass.set_vertex_buffer(1, verts.slice(..));
                        true
                    }
                    _ => false,
                };
                if !skinned {
                    pass.set_pipeline(self.pipelines.morph.get(wire, effects));
                    let stride = (mesh.vertex_count * std::mem::size_of::<PoseVertex>()) as u64;
                    let a = pose.a.min(mesh.pose_count - 1) as u64;
                    let b = pose.b.min(mesh.pose_count - 1) as u64;
                    pass.set_vertex_buffer(1, mesh.poses.slice(a * stride..(a + 1) * stride));
                    pass.set_vertex_buffer(2, mesh.poses.slice(b * stride..(b + 1) * stride));
                }
                if wire {
                    pass.set_index_buffer(mesh.lines.slice(..), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed(0..mesh.line_count, 0, 0..1);
                } else {
                    pass.set_index_buffer(mesh.indices.slice(..), wgpu::IndexFormat::Uint32);
                    pass.draw_indexed(0..mesh.index_count, 0, 0..1);
                }
            }
        }
    }

    /// Records a pass that only clears `color` to `background` (RGBA in 0..1).
    pub fn clear(
        encoder: &mut wgpu::CommandEncoder,
        color: &wgpu::TextureView,
        background: [f64; 4],
    ) {
        encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
            label: Some("clear"),
            color_attachments: &[Some(cleared(color, background))],
            ..Default::default()
        });
    }

    /// Renders `pose` of `scene` into `target` without reading it back (see
    /// [`Target::read`]); returns the CPU time spent (pose preparation, recording, submit).
    pub fn render_to_target(
        &self,
        gpu: &Gpu,
        scene: &mut GpuModel,
        target: &Target,
        pose: &Pose,
        view: &View,
    ) -> std::time::Duration {
        let start = std::time::Instant::now();
        let key = scene.prepare(gpu, pose);
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("frame"),
            });
        self.draw(
            gpu,
            &mut encoder,
            &target.color_view,
            &target.depth_view,
            (target.width, target.height),
            scene,
            key,
            view,
        );
        gpu.queue.submit([encoder.finish()]);
        start.elapsed()
    }

    /// Renders `pose` of `scene` into `target` and reads it back: RGBA8, rows from the top,
    /// `width * height * 4` bytes.
    pub fn render_image(
        &self,
        gpu: &Gpu,
        scene: &mut GpuModel,
        target: &mut Target,
        pose: &Pose,
        view: &View,
    ) -> Result<Vec<u8>, RenderError> {
        self.render_to_target(gpu, scene, target, pose, view);
        target.read(gpu)
    }
}

/// An off-screen colour and depth target with a read-back buffer.
pub struct Target {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    color: wgpu::Texture,
    color_view: wgpu::TextureView,
    depth_view: wgpu::TextureView,
    readback: wgpu::Buffer,
    padded_row: u32,
}

impl Target {
    /// The colour format of headless targets (skin bytes are written as they are, no sRGB
    /// conversion).
    pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

    /// A target of `width` x `height` pixels (each at least 1).
    pub fn new(gpu: &Gpu, width: u32, height: u32) -> Target {
        let (width, height) = (width.max(1), height.max(1));
        let size = wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        };
        let color = gpu.device.create_texture(&wgpu::TextureDescriptor {
            label: Some("colour"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: Target::FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let depth = depth_texture(gpu, width, height);
        let padded_row = (width * 4).div_ceil(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
            * wgpu::COPY_BYTES_PER_ROW_ALIGNMENT;
        let readback = gpu.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("read-back"),
            size: u64::from(padded_row) * u64::from(height),
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        Target {
            width,
            height,
            color_view: color.create_view(&Default::default()),
            depth_view: depth.create_view(&Default::default()),
            color,
            readback,
            padded_row,
        }
    }

    /// Waits for the GPU and copies the colour target out: RGBA8, rows from the top.
    pub fn read(&self, gpu: &Gpu) -> Result<Vec<u8>, RenderError> {
        let mut encoder = gpu
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("read"),
            });
        encoder.copy_texture_to_buffer(
            wgpu::TexelCopyTextureInfo {
                texture: &self.color,
                mip_level: 0,
                origin: wgpu::Origin3d::ZERO,
                aspect: wgpu::TextureAspect::All,
            },
            wgpu::TexelCopyBufferInfo {
                buffer: &self.readback,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(self.padded_row),
                    rows_per_image: Some(self.height),
                },
            },
            wgpu::Extent3d {
                width: self.width,
                height: self.height,
                depth_or_array_layers: 1,
            },
        );
        gpu.queue.submit([encoder.finish()]);
        let slice = self.readback.slice(..);
        let (tx, rx) = std::sync::mpsc::channel();
        slice.map_async(wgpu::MapMode::Read, move |r| {
            let _ = tx.send(r);
        });
        gpu.device
            .poll(wgpu::PollType::Wait)
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        rx.recv()
            .map_err(|e| RenderError::Readback(e.to_string()))?
            .map_err(|e| RenderError::Readback(e.to_string()))?;
        let mut out = Vec::with_capacity((self.width * self.height * 4) as usize);
        {
            let data = slice.get_mapped_range();
            for row in data.chunks(self.padded_row as usize) {
                out.extend_from_slice(&row[..(self.width * 4) as usize]);
            }
        }
        self.readback.unmap();
        Ok(out)
    }

    /// Waits until the GPU has finished all submitted work.
    pub fn wait(gpu: &Gpu) -> Result<(), RenderError> {
        gpu.device
            .poll(wgpu::PollType::Wait)
            .map(|_| ())
            .map_err(|e| RenderError::Readback(e.to_string()))
    }
}

/// A depth texture for a pass of `width` x `height`.
pub fn depth_texture(gpu: &Gpu, width: u32, height: u32) -> wgpu::Texture {
    gpu.device.create_texture(&wgpu::TextureDescriptor {
        label: Some("depth"),
        size: wgpu::Extent3d {
            width: width.max(1),
            height: height.max(1),
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: DEPTH_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
        view_formats: &[],
    })
}

/// A colour attachment cleared to `background` (RGBA in 0..1) and stored.
fn cleared(color: &wgpu::TextureView, background: [f64; 4]) -> wgpu::RenderPassColorAttachment<'_> {
    let [r, g, b, a] = background;
    wgpu::RenderPassColorAttachment {
        view: color,
        resolve_target: None,
        ops: wgpu::Operations {
            load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
            store: wgpu::StoreOp::Store,
        },
    }
}
