//! A model uploaded to the GPU: every pose once, skins as textures, skeletal data.

use std::collections::HashSet;

use glam::Vec3;
use retromodel::image::Image;
use retromodel::math::{self as rmath, Quat};
use retromodel::model::influences::influences;
use retromodel::model::pose::{
    self as skeletal, inverse_bind_matrix, JointPose, Playback, PoseTrack, RootMotion,
};
use retromodel::model::{to_y_up, Mesh, Model};
use wgpu::util::DeviceExt;

use crate::camera::Framing;
use crate::timing::KeyPose;
use crate::{Gpu, RenderError, Renderer};

/// One vertex of one pose: what the keyframe path's pose buffers hold.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct PoseVertex {
    pub pos: [f32; 3],
    pub normal: [f32; 3],
}

/// A vertex's `(joint, weight)` influences.
type Influences = Vec<(u32, f32)>;

/// Positions and normals of one pose.
type PoseSlices<'a> = (&'a [[f32; 3]], &'a [[f32; 3]]);

/// A bind-pose vertex with its four heaviest joint influences.
#[repr(C)]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
pub(crate) struct SkinVertex {
    pub pos: [f32; 3],
    pub normal: [f32; 3],
    pub joints: [u32; 4],
    pub weights: [f32; 4],
}

/// What to draw: two keyframes and a blend, or a skeletal animation at a time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Pose {
    /// Keyframe path: model frames `a` and `b` blended by `blend` (clamped to the frames
    /// there are; a skeletal model shows its bind pose).
    Keyframe(KeyPose),
    /// Skeletal path: animation `animation` of [`Model::animations`] at `time` seconds,
    /// sampled by the core library (Doom 3's rules: a looping cycle lasts `frames - 1`
    /// frames; root translation removed as the engine does when it moves the entity).
    Skeletal {
        /// Index into the model's animations.
        animation: usize,
        /// Seconds from the animation's start.
        time: f32,
        /// Loop (Doom 3 cycles) or clamp to the last frame.
        looping: bool,
    },
}

impl Pose {
    /// Model frame `f` exactly.
    pub fn frame(f: usize) -> Pose {
        Pose::Keyframe(KeyPose {
            a: f,
            b: f,
            blend: 0.0,
        })
    }
}

/// Joints a row of the joint-matrix texture holds (four RGBA32F texels, the matrix's
/// columns, each).
const JOINTS_PER_ROW: u32 = 256;

/// Width (texels) and height of the joint-matrix texture for `joints` joints.
fn joint_texture_size(joints: usize) -> (u32, u32) {
    let n = joints.max(1) as u32;
    let per_row = n.min(JOINTS_PER_ROW);
    (per_row * 4, n.div_ceil(per_row))
}

/// Width and height of a texture holding `texels` texels in rows of at most `side`.
fn texture_rows(texels: usize, side: u32) -> (u32, u32) {
    let n = texels.max(1) as u64;
    let width = n.min(u64::from(side.max(1)));
    (
        width as u32,
        n.div_ceil(width).min(u64::from(u32::MAX)) as u32,
    )
}

/// The joint matrices of the current pose as an RGBA32F texture, and its bind group.
pub(crate) struct JointTexture {
    texture: wgpu::Texture,
    pub group: wgpu::BindGroup,
    width: u32,
    height: u32,
}

pub(crate) struct GpuMesh {
    pub uvs: wgpu::Buffer,
    pub poses: wgpu::Buffer,
    pub pose_count: usize,
    pub vertex_count: usize,
    pub skinned: Option<wgpu::Buffer>,
    /// Every influence of every vertex ([`pack_influences`]) as an RG32UI texture, when a
    /// vertex has more than [`FAST_INFLUENCES`].
    pub influences: Option<wgpu::TextureView>,
    /// The joint matrices and [`GpuMesh::influences`] bound for `vs_skin_all`.
    pub influence_group: Option<wgpu::BindGroup>,
    pub indices: wgpu::Buffer,
    pub index_count: u32,
    pub lines: wgpu::Buffer,
    pub line_count: u32,
    pub skin: Option<usize>,
}

/// A model on the GPU, ready for [`Renderer`] draws.
pub struct GpuModel {
    pub(crate) meshes: Vec<GpuMesh>,
    /// Per skin, one material bind group per picture.
    pub(crate) skins: Vec<Vec<wgpu::BindGroup>>,
    pub(crate) default_material: wgpu::BindGroup,
    /// How each skin is drawn beyond its picture (chrome, additive), by skin index.
    pub(crate) skin_effects: Vec<retromodel::model::SkinEffects>,
    pub(crate) joints: Option<JointTexture>,
    framing: Framing,
    animation_boxes: Vec<Option<[Vec3; 2]>>,
    frame_bounds: Vec<Option<[Vec3; 2]>>,
    frame_count: usize,
    animations: Vec<Option<PoseTrack>>,
    animation_names: Vec<String>,
    inverse_bind: Vec<rmath::Mat4>,
    /// Bind-pose positions and drawn influences, for framing one skeletal pose.
    cpu_skin: Vec<([f32; 3], Influences)>,
    scratch: Vec<JointPose>,
    /// The joint matrices, padded to fill the joint texture's rows.
    matrices: Vec<[f32; 16]>,
    joint_count: usize,
    warnings: Vec<String>,
    max_influences: usize,
    /// Whether the last [`GpuModel::prepare`] selected the skeletal path.
    pub(crate) skeletal_now: bool,
}

/// An RGBA8 picture as a texture.
fn texture(gpu: &Gpu, width: u32, height: u32, rgba: &[u8], label: &str) -> wgpu::TextureView {
    texture_of(
        gpu,
        (width, height),
        wgpu::TextureFormat::Rgba8Unorm,
        rgba,
        label,
    )
}

/// A sampled texture of `format` holding `data` (rows from the top).
fn texture_of(
    gpu: &Gpu,
    (width, height): (u32, u32),
    format: wgpu::TextureFormat,
    data: &[u8],
    label: &str,
) -> wgpu::TextureView {
    let tex = gpu.device.create_texture_with_data(
        &gpu.queue,
        &texture_2d(
            label,
            width,
            height,
            format,
            wgpu::TextureUsages::TEXTURE_BINDING,
        ),
        wgpu::util::TextureDataOrder::LayerMajor,
        data,
    );
    tex.create_view(&Default::default())
}

/// Most joint influences per vertex that the fast skinning path (`vs_skin`, joints and
/// weights as vertex attributes) takes exactly; meshes with more are skinned from a texture
/// of every influence (`vs_skin_all`).
pub(crate) const FAST_INFLUENCES: usize = 4;

/// A vertex's influences as the glTF exporter writes them
/// ([`retromodel::model::influences::influences`]: positive finite weights merged per joint,
/// heaviest first, renormalised; none usable: joint 0), every one of them.
pub(crate) fn merged_influences(list: &[(u32, f32)]) -> Vec<(u32, f32)> {
    influences(list, usize::MAX).0
}

/// The heaviest four influences of a vertex by the same rule, renormalised to sum to 1.
pub(crate) fn four_influences(list: &[(u32, f32)]) -> ([u32; 4], [f32; 4]) {
    let (merged, _, _) = influences(list, FAST_INFLUENCES);
    let mut joints = [0u32; 4];
    let mut weights = [0f32; 4];
    for (i, &(j, w)) in merged.iter().enumerate() {
        joints[i] = j;
        weights[i] = w;
    }
    (joints, weights)
}

/// Every influence of every vertex of a mesh, packed for `vs_skin_all` as `vec2<u32>`
/// entries: first one `(start, count)` per vertex, then the `(joint, weight bits)` pairs
/// that the starts point at (indices into the same array).
fn pack_influences(all: &[Influences]) -> Vec<[u32; 2]> {
    let mut out: Vec<[u32; 2]> =
        Vec::with_capacity(all.len() + all.iter().map(Vec::len).sum::<usize>());
    let mut start = all.len() as u32;
    for list in all {
        out.push([start, list.len() as u32]);
        start += list.len() as u32;
    }
    for list in all {
        out.extend(list.iter().map(|&(j, w)| [j, w.to_bits()]));
    }
    out
}

fn extend(b: &mut Option<[Vec3; 2]>, p: Vec3) {
    if !p.is_finite() {
        return;
    }
    *b = Some(match *b {
        None => [p, p],
        Some([lo, hi]) => [lo.min(p), hi.max(p)],
    });
}

fn framing_of_box(b: Option<[Vec3; 2]>, scale: f32) -> Framing {
    let [lo, hi] = b.unwrap_or([Vec3::ZERO, Vec3::ZERO]);
    Framing {
        center: ((lo + hi) * 0.5).into(),
        radius: ((hi - lo).length() * 0.5 * scale).max(1e-3),
    }
}

fn y_up(p: [f32; 3]) -> Vec3 {
    Vec3::from(to_y_up(p))
}

/// What uploading the meshes gathers beside them: the bounds of every pose and of each
/// frame, and for a skeletal model the skinned vertices kept on the CPU.
struct Gathered {
    bounds: Option<[Vec3; 2]>,
    frame_bounds: Vec<Option<[Vec3; 2]>>,
    /// Skinned vertices that triangles use, with the influences drawn, kept on the CPU for
    /// framing animations.
    cpu_skin: Vec<([f32; 3], Influences)>,
    /// Most influences of one vertex in any skinned mesh.
    max_influences: usize,
}

/// Whether each vertex of `mesh` is one that triangles use (bounds count only those).
fn used_vertices(mesh: &Mesh) -> Vec<bool> {
    let mut used = vec![false; mesh.positions.len()];
    for t in &mesh.triangles {
        for &i in t {
            if let Some(u) = used.get_mut(i as usize) {
                *u = true;
            }
        }
    }
    used
}

/// A vertex buffer of `contents`, or an index buffer when `usage` says so.
fn buffer<T: bytemuck::Pod>(
    device: &wgpu::Device,
    label: &str,
    contents: &[T],
    usage: wgpu::BufferUsages,
) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some(label),
        contents: bytemuck::cast_slice(contents),
        usage,
    })
}

/// Mesh `mi`'s poses as one vertex buffer (the morph targets, or the base pose when there
/// are none), the used vertices' positions added to the bounds; and the pose count.
fn pose_buffer(
    device: &wgpu::Device,
    mi: usize,
    mesh: &Mesh,
    used: &[bool],
    gathered: &mut Gathered,
) -> Result<(wgpu::Buffer, usize), RenderError> {
    let n = mesh.positions.len();
    let mut poses: Vec<PoseVertex> = Vec::new();
    let targets: Vec<PoseSlices<'_>> = if mesh.morph_targets.is_empty() {
        vec![(&mesh.positions[..], &mesh.normals[..])]
    } else {
        mesh.morph_targets
            .iter()
            .map(|t| (&t.positions[..], &t.normals[..]))
            .collect()
    };
    for (f, (ps, ns)) in targets.iter().enumerate() {
        for (v, &is_used) in used.iter().enumerate() {
            let pos = ps.get(v).copied().unwrap_or([0.0; 3]);
            if is_used {
                extend(&mut gathered.bounds, y_up(pos));
                if let Some(b) = gathered.frame_bounds.get_mut(f) {
                    extend(b, y_up(pos));
                }
            }
            poses.push(PoseVertex {
                pos,
                normal: ns.get(v).copied().unwrap_or([0.0, 0.0, 1.0]),
            });
        }
    }
    let bytes = (poses.len() * std::mem::size_of::<PoseVertex>()) as u64;
    if bytes > device.limits().max_buffer_size {
        return Err(RenderError::Model(format!(
            "mesh {mi}: {} poses of {n} vertices need {bytes} bytes, more than the adapter's largest buffer",
            targets.len()
        )));
    }
    let label = format!("mesh {mi}");
    let buf = buffer(device, &label, &poses, wgpu::BufferUsages::VERTEX);
    Ok((buf, targets.len()))
}

/// A mesh's triangles (those whose indices are in range) and its wireframe's edges, each
/// edge once, as index buffers with their index counts.
fn index_buffers(
    device: &wgpu::Device,
    label: &str,
    mesh: &Mesh,
) -> (wgpu::Buffer, u32, wgpu::Buffer, u32) {
    let n = mesh.positions.len();
    let tris: Vec<u32> = mesh
        .triangles
        .iter()
        .filter(|t| t.iter().all(|&i| (i as usize) < n))
        .flatten()
        .copied()
        .collect();
    let mut edges = HashSet::new();
    let mut lines: Vec<u32> = Vec::new();
    for t in tris.chunks_exact(3) {
        for (a, b) in [(t[0], t[1]), (t[1], t[2]), (t[2], t[0])] {
            if edges.insert((a.min(b), a.max(b))) {
                lines.extend([a, b]);
            }
        }
    }
    let index_count = tris.len() as u32;
    let indices = buffer(device, label, &tris, wgpu::BufferUsages::INDEX);
    let line_count = lines.len() as u32;
    let lines = buffer(device, label, &lines, wgpu::BufferUsages::INDEX);
    (indices, index_count, lines, line_count)
}

/// A skinned mesh's bind-pose vertices with their four heaviest influences, and, when a
/// vertex has more than [`FAST_INFLUENCES`], every influence as a texture (a warning when
/// it does not fit the adapter); the used vertices kept on the CPU with the influences
/// drawn.
fn skin_buffers(
    gpu: &Gpu,
    mi: usize,
    mesh: &Mesh,
    used: &[bool],
    last_joint: u32,
    gathered: &mut Gathered,
    warnings: &mut Vec<String>,
) -> (wgpu::Buffer, Option<wgpu::TextureView>) {
    let device = &gpu.device;
    let n = mesh.positions.len();
    let mut influences = None;
    let all: Vec<Influences> = (0..n)
        .map(|v| {
            let mut list = merged_influences(mesh.joint_weights.get(v).map_or(&[][..], |w| w));
            for e in &mut list {
                e.0 = e.0.min(last_joint);
            }
            list
        })
        .collect();
    let most = all.iter().map(Vec::len).max().unwrap_or(0);
    gathered.max_influences = gathered.max_influences.max(most);
    if most > FAST_INFLUENCES {
        // One `vec2<u32>` texel per vertex and per influence, rows of the adapter's widest
        // texture.
        let packed = pack_influences(&all);
        let side = device.limits().max_texture_dimension_2d;
        let (width, height) = texture_rows(packed.len(), side);
        if height > side {
            warnings.push(format!(
                "mesh {mi}: {} joint influences exceed the adapter's largest texture; skinned with the heaviest {FAST_INFLUENCES}",
                packed.len()
            ));
        } else {
            let mut texels = packed;
            texels.resize((width * height) as usize, [0, 0]);
            influences = Some(texture_of(
                gpu,
                (width, height),
                wgpu::TextureFormat::Rg32Uint,
                bytemuck::cast_slice(&texels),
                &format!("mesh {mi} influences"),
            ));
        }
    }
    let verts: Vec<SkinVertex> = (0..n)
        .map(|v| {
            let (joints, weights) =
                four_influences(mesh.joint_weights.get(v).map_or(&[][..], |w| w));
            SkinVertex {
                pos: mesh.positions[v],
                normal: mesh.normals.get(v).copied().unwrap_or([0.0, 0.0, 1.0]),
                joints: joints.map(|j| j.min(last_joint)),
                weights,
            }
        })
        .collect();
    for ((v, list), _) in verts.iter().zip(all).zip(used).filter(|(_, &u)| u) {
        let drawn = if influences.is_some() {
            list
        } else {
            v.joints.into_iter().zip(v.weights).collect()
        };
        gathered.cpu_skin.push((v.pos, drawn));
    }
    let label = format!("mesh {mi}");
    let skinned = buffer(device, &label, &verts, wgpu::BufferUsages::VERTEX);
    (skinned, influences)
}

/// Uploads mesh `mi` (`None` for one without vertices or triangles): its poses, UVs,
/// triangles, wireframe edges, and when `skeletal` its skinned vertices.
fn upload_mesh(
    gpu: &Gpu,
    mi: usize,
    mesh: &Mesh,
    skeletal: bool,
    last_joint: u32,
    gathered: &mut Gathered,
    warnings: &mut Vec<String>,
) -> Result<Option<GpuMesh>, RenderError> {
    let device = &gpu.device;
    let n = mesh.positions.len();
    if n == 0 || mesh.triangles.is_empty() {
        return Ok(None);
    }
    let used = used_vertices(mesh);
    let (poses, pose_count) = pose_buffer(device, mi, mesh, &used, gathered)?;
    let label = format!("mesh {mi}");
    let uvs: Vec<[f32; 2]> = (0..n)
        .map(|v| mesh.uvs.get(v).copied().unwrap_or([0.0; 2]))
        .collect();
    let uvs = buffer(device, &label, &uvs, wgpu::BufferUsages::VERTEX);
    let (indices, index_count, lines, line_count) = index_buffers(device, &label, mesh);
    let (skinned, influences) = if skeletal && !mesh.joint_weights.is_empty() {
        let (skinned, influences) =
            skin_buffers(gpu, mi, mesh, &used, last_joint, gathered, warnings);
        (Some(skinned), influences)
    } else {
        (None, None)
    };
    Ok(Some(GpuMesh {
        uvs,
        poses,
        pose_count,
        vertex_count: n,
        skinned,
        influences,
        influence_group: None,
        indices,
        index_count,
        lines,
        line_count,
        skin: mesh.skin,
    }))
}

/// The model's skeletal animations, sampled by the core library's skeletal module
/// (`retromodel::model::pose`, Doom 3's loop and clamp rules), and their names; `None`, with
/// a warning, for one that cannot be played.
fn animation_tracks(
    model: &Model,
    warnings: &mut Vec<String>,
) -> (Vec<Option<PoseTrack>>, Vec<String>) {
    let mut animations = Vec::new();
    let mut animation_names = Vec::new();
    for (i, a) in model.animations.iter().enumerate() {
        animation_names.push(a.name.clone());

        match PoseTrack::from_model(model, i) {
            Ok(anim) => animations.push(Some(anim)),
            Err(e) => {
                warnings.push(format!("animation {:?}: {e}; not playable", a.name));
                animations.push(None);
            }
        }
    }
    (animations, animation_names)
}

/// Each animation's box: the used vertices skinned on the CPU at up to 32 frames.
fn animation_boxes(
    joint_count: usize,
    animations: &[Option<PoseTrack>],
    inverse_bind: &[rmath::Mat4],
    cpu_skin: &[([f32; 3], Influences)],
) -> Vec<Option<[Vec3; 2]>> {
    let mut animation_boxes = Vec::new();
    let mut pose = vec![JointPose::IDENTITY; joint_count];
    let mut m = vec![rmath::IDENTITY; joint_count];
    for anim in animations {
        let mut b = None;
        if let Some(anim) = anim {
            let n = anim.frame_count();
            let step = n.div_ceil(32).max(1);
            for f in (0..n).step_by(step) {
                let t = f as f32 / anim.frame_rate();
                pose_box(anim, t, inverse_bind, cpu_skin, (&mut pose, &mut m), &mut b);
            }
        }
        animation_boxes.push(b);
    }
    animation_boxes
}

/// Extends `b` by the vertices skinned on the CPU at `t` seconds of `anim` (clamped, root
/// motion removed, as drawn); `scratch` holds the joint poses and matrices.
fn pose_box(
    anim: &PoseTrack,
    t: f32,
    inverse_bind: &[rmath::Mat4],
    cpu_skin: &[([f32; 3], Influences)],
    scratch: (&mut [JointPose], &mut [rmath::Mat4]),
    b: &mut Option<[Vec3; 2]>,
) {
    let (pose, m) = scratch;
    anim.sample_global(t, Playback::Clamp, RootMotion::InPlace, pose);
    let scales = anim.weight_scales_at(t, Playback::Clamp);
    skeletal::joint_matrices_scaled(pose, inverse_bind, scales, m);
    for (pos, list) in cpu_skin {
        extend(b, y_up(skeletal::blend_point(m, list, *pos)));
    }
}

/// The joint-matrix texture of a skeletal model and its bind group, and each mesh's bind
/// group of the joint matrices with its every-influence texture, when it has one.
fn joint_texture(
    gpu: &Gpu,
    renderer: &Renderer,
    joint_count: usize,
    meshes: &mut [GpuMesh],
) -> Result<JointTexture, RenderError> {
    let device = &gpu.device;
    let (width, height) = joint_texture_size(joint_count);
    if height > device.limits().max_texture_dimension_2d {
        return Err(RenderError::Model(format!(
            "{joint_count} joints exceed the adapter's largest texture"
        )));
    }
    let texture = device.create_texture(&texture_2d(
        "joint matrices",
        width,
        height,
        wgpu::TextureFormat::Rgba32Float,
        wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST,
    ));
    let view = texture.create_view(&Default::default());
    let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
        label: Some("joints"),
        layout: &renderer.joints_layout,
        entries: &[wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::TextureView(&view),
        }],
    });
    for mesh in meshes {
        mesh.influence_group = mesh.influences.as_ref().map(|inf| {
            device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("joints and influences"),
                layout: &renderer.influences_layout,
                entries: &[
                    wgpu::BindGroupEntry {
                        binding: 0,
                        resource: wgpu::BindingResource::TextureView(&view),
                    },
                    wgpu::BindGroupEntry {
                        binding: 1,
                        resource: wgpu::BindingResource::TextureView(inf),
                    },
                ],
            })
        });
    }
    Ok(JointTexture {
        texture,
        group,
        width,
        height,
    })
}

/// Per skin, a material for each picture (shrunk to the adapter's largest texture when
/// larger) with its fullbright mask; empty pictures are skipped.
fn upload_skins(gpu: &Gpu, renderer: &Renderer, model: &Model) -> Vec<Vec<wgpu::BindGroup>> {
    let max_side = gpu.device.limits().max_texture_dimension_2d;
    let mut skins = Vec::new();
    for (si, skin) in model.skins.iter().enumerate() {
        let mut groups = Vec::new();
        for (pi, pic) in skin.pictures.iter().enumerate() {
            if pic.width == 0 || pic.height == 0 {
                continue;
            }
            let resized;
            let pic: &Image = if pic.width > max_side || pic.height > max_side {
                resized = pic.resized(pic.width.min(max_side), pic.height.min(max_side));
                &resized
            } else {
                pic
            };
            let label = format!("skin {si} picture {pi}");
            let base = texture(gpu, pic.width, pic.height, &pic.to_rgba8(), &label);
            let fb = match pic.fullbright_mask() {
                Some(mask) => texture(gpu, pic.width, pic.height, &mask, &label),
                None => texture(gpu, 1, 1, &[0, 0, 0, 255], &label),
            };
            groups.push(renderer.material(gpu, &base, &fb));
        }
        skins.push(groups);
    }
    skins
}

impl GpuModel {
    /// Uploads `model`: every pose of every mesh, UVs, triangles, edges for the wireframe,
    /// skins (first picture of each group member, fullbright masks), and for a skeletal model
    /// the bind-pose vertices with their four heaviest joint weights, every influence of the
    /// meshes that have vertices with more than four (one texture each), and the
    /// animations.
    pub fn new(gpu: &Gpu, renderer: &Renderer, model: &Model) -> Result<GpuModel, RenderError> {
        let mut warnings = Vec::new();
        if model.meshes.iter().all(|m| m.triangles.is_empty()) {
            return Err(RenderError::Model("the model has no triangles".into()));
        }
        // Skeletal when there are animations and no keyframes beside them (a format that
        // bakes bone motion into morph targets plays those, so nothing moves twice).
        let skeletal = !model.joints.is_empty()
            && !model.animations.is_empty()
            && model.meshes.iter().all(|m| m.morph_targets.len() <= 1);
        let mut gathered = Gathered {
            bounds: None,
            frame_bounds: vec![None; model.frames.len().max(1)],
            cpu_skin: Vec::new(),
            max_influences: 0,
        };
        let mut meshes = Vec::new();
        let last_joint = model.joints.len().saturating_sub(1) as u32;
        for (mi, mesh) in model.meshes.iter().enumerate() {
            let uploaded = upload_mesh(
                gpu,
                mi,
                mesh,
                skeletal,
                last_joint,
                &mut gathered,
                &mut warnings,
            )?;
            meshes.extend(uploaded);
        }
        let (animations, animation_names) = if skeletal {
            animation_tracks(model, &mut warnings)
        } else {
            (Vec::new(), Vec::new())
        };
        let inverse_bind: Vec<rmath::Mat4> = model
            .joints
            .iter()
            .map(|j| {
                let pose = JointPose::new(j.translation, Quat::from_array(j.rotation));
                inverse_bind_matrix(&pose)
            })
            .collect();
        let animation_boxes = animation_boxes(
            model.joints.len(),
            &animations,
            &inverse_bind,
            &gathered.cpu_skin,
        );
        let joints = if skeletal {
            Some(joint_texture(
                gpu,
                renderer,
                model.joints.len(),
                &mut meshes,
            )?)
        } else {
            None
        };
        let skins = upload_skins(gpu, renderer, model);
        let grey = texture(gpu, 1, 1, &retromodel::image::UNTEXTURED, "untextured");
        let black = texture(gpu, 1, 1, &[0, 0, 0, 255], "no fullbrights");
        let default_material = renderer.material(gpu, &grey, &black);
        let framing = framing_of_box(gathered.bounds, if skeletal { 1.15 } else { 1.0 });
        Ok(GpuModel {
            meshes,
            skins,
            default_material,
            skin_effects: model.skin_effects.clone(),
            joints,
            framing,
            animation_boxes,
            frame_bounds: gathered.frame_bounds,
            frame_count: model.frames.len().max(1),
            animations,
            animation_names,
            scratch: vec![JointPose::IDENTITY; model.joints.len()],
            matrices: {
                let (w, h) = joint_texture_size(model.joints.len());
                vec![[0.0; 16]; (w / 4 * h) as usize]
            },
            joint_count: model.joints.len(),
            inverse_bind,
            cpu_skin: gathered.cpu_skin,
            warnings,
            max_influences: gathered.max_influences,
            skeletal_now: false,
        })
    }

    /// The sphere around every pose (keyframe models) or around the bind pose, 15% larger
    /// (skeletal models), in the Y-up world.
    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// The sphere around the given keyframes only (a clip, or the two poses of a still), so
    /// a pose far away in another clip (a death fall) does not shrink the model in view.
    /// Skeletal models and an empty list give [`GpuModel::framing`].
    pub fn framing_of(&self, frames: &[usize]) -> Framing {
        if self.joints.is_some() {
            return self.framing;
        }
        let mut b = None;
        for &f in frames {
            if let Some(Some([lo, hi])) = self.frame_bounds.get(f) {
                extend(&mut b, *lo);
                extend(&mut b, *hi);
            }
        }
        match b {
            Some(_) => framing_of_box(b, 1.0),
            None => self.framing,
        }
    }

    /// The sphere around skeletal animation `i` as drawn: the vertices skinned on the CPU at
    /// up to 32 of its frames (root motion removed, as drawn). [`GpuModel::framing`] when
    /// the animation cannot be played.
    pub fn framing_of_animation(&self, i: usize) -> Framing {
        match self.animation_boxes.get(i).copied().flatten() {
            Some(b) => framing_of_box(Some(b), 1.0),
            None => self.framing,
        }
    }

    /// The sphere around one pose of skeletal animation `i`, `time` seconds in (clamped,
    /// root motion removed), as drawn: a still of one frame is framed on that frame, as a
    /// keyframe still is ([`GpuModel::framing_of`]). [`GpuModel::framing`] when the
    /// animation cannot be played.
    pub fn framing_of_pose(&self, i: usize, time: f32) -> Framing {
        let Some(Some(anim)) = self.animations.get(i) else {
            return self.framing;
        };
        let mut pose = vec![JointPose::IDENTITY; self.joint_count];
        let mut m = vec![rmath::IDENTITY; self.joint_count];
        let mut b = None;
        pose_box(
            anim,
            time,
            &self.inverse_bind,
            &self.cpu_skin,
            (&mut pose, &mut m),
            &mut b,
        );
        match b {
            Some(_) => framing_of_box(b, 1.0),
            None => self.framing,
        }
    }

    /// Number of keyframes (1 for a model without frames).
    pub fn frame_count(&self) -> usize {
        self.frame_count
    }

    /// The skeletal animations' names, in model order.
    pub fn animation_names(&self) -> &[String] {
        &self.animation_names
    }

    /// Frames and rate of skeletal animation `i`, if it is playable.
    pub fn animation_info(&self, i: usize) -> Option<(usize, f32)> {
        let a = self.animations.get(i)?.as_ref()?;
        Some((a.frame_count(), a.frame_rate()))
    }

    /// Problems noticed while uploading (animations that could not be rebuilt).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The most joint influences of any skinned vertex (merged per joint; 0 for a model that
    /// is not drawn skeletal). Above 4, the meshes that have such vertices are skinned with
    /// every influence, read from a texture by the vertex shader; otherwise the
    /// influences are vertex attributes.
    pub fn max_influences(&self) -> usize {
        self.max_influences
    }

    /// Number of skins uploaded.
    pub fn skin_count(&self) -> usize {
        self.skins.len()
    }

    /// The joint matrices of the last skeletal [`GpuModel::prepare`] (object space, bind
    /// pose to animated pose, column-major).
    pub fn joint_matrices(&self) -> &[[f32; 16]] {
        &self.matrices[..self.joint_count]
    }

    /// Gets the pose ready: for a skeletal pose, samples the animation on the CPU (the
    /// core library's sampler) and writes the joint matrices to the GPU; for a keyframe pose,
    /// clamps the frames. Returns the keyframe pose to bind.
    pub fn prepare(&mut self, gpu: &Gpu, pose: &Pose) -> KeyPose {
        match *pose {
            Pose::Keyframe(k) => {
                self.skeletal_now = false;
                let last = self.frame_count - 1;
                KeyPose {
                    a: k.a.min(last),
                    b: k.b.min(last),
                    blend: if k.blend.is_finite() {
                        k.blend.clamp(0.0, 1.0)
                    } else {
                        0.0
                    },
                }
            }
            Pose::Skeletal {
                animation,
                time,
                looping,
            } => {
                let (Some(Some(anim)), Some(joints)) =
                    (self.animations.get(animation), self.joints.as_ref())
                else {
                    self.skeletal_now = false;
                    return KeyPose {
                        a: 0,
                        b: 0,
                        blend: 0.0,
                    };
                };
                let playback = if looping {
                    Playback::Loop
                } else {
                    Playback::Clamp
                };
                anim.sample_global(time, playback, RootMotion::InPlace, &mut self.scratch);
                // The Quake II re-release's joint scales (.md5scale) scale each joint's
                // matrix; CPU and GPU skinning both take them from here.
                skeletal::joint_matrices_scaled(
                    &self.scratch,
                    &self.inverse_bind,
                    anim.weight_scales_at(time, playback),
                    &mut self.matrices[..self.joint_count],
                );
                gpu.queue.write_texture(
                    wgpu::TexelCopyTextureInfo {
                        texture: &joints.texture,
                        mip_level: 0,
                        origin: wgpu::Origin3d::ZERO,
                        aspect: wgpu::TextureAspect::All,
                    },
                    bytemuck::cast_slice(&self.matrices),
                    wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(joints.width * 16),
                        rows_per_image: Some(joints.height),
                    },
                    wgpu::Extent3d {
                        width: joints.width,
                        height: joints.height,
                        depth_or_array_layers: 1,
                    },
                );
                self.skeletal_now = true;
                KeyPose {
                    a: 0,
                    b: 0,
                    blend: 0.0,
                }
            }
        }
    }
}

/// A 2D texture of one mip level and one sample.
fn texture_2d(
    label: &str,
    width: u32,
    height: u32,
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::TextureDescriptor<'_> {
    wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    }
}
