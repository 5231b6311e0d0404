//! `raw::File` to the format-neutral [`Model`].
//!
//! - **Meshes.** One mesh per group and material (the first UV set's material index, which
//!   counts the skins of all groups; `0xFFFFFFFF` is no material). Records too short for a
//!   material give every triangle the first skin. Triangles index vertices and texture
//!   coordinates separately, so a mesh gets one vertex per distinct (vertex, texture
//!   coordinate value) pair in first-use order (MED often stores one texture coordinate per
//!   triangle corner, many of them equal); vertices no triangle uses go to the group's first
//!   mesh. [`Mesh::source_vertices`] are vertex indices within the group. UVs are stored as
//!   they are (`v` downwards); triangles are turned around to the Model's clockwise fronts
//!   (the files' stored normals face along counter-clockwise triangles, as in MDL2..MDL5).
//! - **Frames.** A frame's pose of a group is its base vertices with the frame's vertices
//!   put in their place, moved by the bones when the model has any. Every frame becomes a
//!   morph target of every mesh; a group with fewer frames than the model uses its base
//!   vertices for the rest.
//! - **Bones.** A bone's position is relative to its parent; [`Model::joints`] hold the
//!   object-space bind pose (no rotation). A frame's transform of bone `b` is a row-vector
//!   matrix `M_b` (translation in the last row) in object space; its motion is `G_b = M_b *
//!   G_parent`, and a vertex moves to `sum_j w_j * (p * G_j)` over its weights (normals by the
//!   matrices' upper 3x3, renormalised). A bone without a transform in a frame keeps its
//!   parent's motion. The weights come from the group's deformers, normalised, or else from
//!   the vertex's bone index (weight 1). The bones' motion is baked into the morph targets
//!   (for keyframe writers: MDL, MD2, GameStudio MDL2..5), and, when it can be a skin, also
//!   given as [`Model::animations`]: one per clip (one `all` clip when there are none), each
//!   frame's bone matrices decomposed into local joint transforms `B_parent⁻¹ · M_j · B_j`
//!   (translation, rotation, and scale in [`Model::animation_scales`] when a matrix scales).
//!   Such a Model is skeletal: its meshes' `positions` and `normals` are the bind pose (the
//!   group's base vertices), and exporters that write skins animate the joints instead of
//!   the morph targets. The motion stays in the morph targets only (frame 0 as the mesh)
//!   when frames also replace vertices (vertex animation, no warning), when a bone matrix
//!   shears, is singular or not affine, or when a group has weights on some vertices only
//!   (a warning each); bones that move no vertex give no animation.
//! - **Skins.** True-colour pictures decode to RGBA8, 8-bit ones use
//!   [`ConvertOptions::palette`] or the built-in Quake palette. External pictures are loaded
//!   through the [`Resolver`] by their stored name and decoded when they are PCX; DDS files
//!   are not decoded. A reference skin gets the pictures of the skin it names.

use std::collections::HashMap;
use std::sync::Arc;

use super::raw::*;
use crate::formats::normals;
use crate::image::{self, Image, Palette, Pixels};
use crate::limits::{Budget, Limits};
use crate::math::{self, IDENTITY};
use crate::model::{
    clips_from_frame_names, Clip, Converted, Frame as ModelFrame, Influences, Joint,
    JointTransform, Mesh, Model, MorphTarget, SkeletalAnimation, Skin as ModelSkin,
};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;
use crate::skin_lookup::SkinLookup;

const UP: [f32; 3] = [0.0, 0.0, 1.0];

/// Converts a parsed file into a [`Model`]: every frame of every group posed, skins decoded.
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    check_layout(file, &mut warnings);
    let skin_list: Vec<&Skin<'_>> = file.skins().collect();
    let skins = convert_skins(&skin_list, options, resolver, &mut warnings);
    let skeleton = Skeleton::new(file, &mut warnings);
    let mut normal_problems = NormalProblems::default();

    let mut groups: Vec<GroupMeshes> = file
        .groups
        .iter()
        .enumerate()
        .map(|(g, group)| {
            GroupMeshes::new(
                file,
                g,
                group,
                &skin_list,
                &skeleton,
                &mut normal_problems,
                &mut warnings,
            )
        })
        .collect();

    let frame_count = file.frame_count();
    for (g, group) in file.groups.iter().enumerate() {
        if group.frames.len() < frame_count {
            warnings.push(format!(
                "group {g}: {} frames for the model's {frame_count}; its base vertices stand in \
                 for the rest",
                group.frames.len()
            ));
        }
    }
    let mut bad_transforms = 0usize;
    let mut frames = Vec::with_capacity(frame_count);
    for f in 0..frame_count {
        let motion = skeleton.motion(file, f, &mut bad_transforms);
        let mut name = None;
        for (group, gm) in file.groups.iter().zip(&mut groups) {
            let frame = group.frames.get(f);
            if name.is_none() {
                name = frame.map(|fr| name_str(&fr.name));
            }
            gm.pose(frame, motion.as_deref(), &mut normal_problems);
            gm.push_target();
        }
        frames.push(ModelFrame {
            name: name.unwrap_or_default(),
            ..ModelFrame::default()
        });
    }
    if bad_transforms > 0 {
        warnings.push(format!(
            "{bad_transforms} bone transforms name bones past bones_num = {}; ignored",
            file.bones.len()
        ));
    }
    if normal_problems.past_table > 0 {
        warnings.push(format!(
            "{} vertex normals index past the 162-entry table; (0, 0, 1) used",
            normal_problems.past_table
        ));
    }
    if normal_problems.degenerate > 0 {
        warnings.push(format!(
            "{} vertex normals are zero or not finite; (0, 0, 1) used",
            normal_problems.degenerate
        ));
    }

    let clips = clips_from_names(&frames, options.fps);
    let skeletal = skeleton.animations(file, &groups, &clips, options.fps, &mut warnings);
    let bind = skeletal.is_some();
    let meshes: Vec<Mesh> = groups.into_iter().flat_map(|g| g.finish(bind)).collect();
    for (f, frame) in frames.iter_mut().enumerate() {
        let mut it = meshes.iter().flat_map(|m| &m.morph_targets[f].positions);
        if let Some(first) = it.next() {
            let [lo, hi] = it.fold([*first, *first], |[lo, hi], p| {
                [
                    std::array::from_fn(|a| lo[a].min(p[a])),
                    std::array::from_fn(|a| hi[a].max(p[a])),
                ]
            });
            frame.bounds_min = lo;
            frame.bounds_max = hi;
        }
    }
    let (animations, animation_scales) = skeletal.unwrap_or_default();
    Converted {
        model: Model {
            meshes,
            frames,
            clips,
            skins,
            joints: skeleton.joints,
            animations,
            animation_scales,
            ..Model::default()
        },
        warnings,
    }
}

/// Clips from frame names (`walk 0`, `walk 1`, ... form `walk`): trailing digits, then
/// trailing blanks and underscores go.
pub(crate) fn clips_from_names(frames: &[ModelFrame], fps: f32) -> Vec<Clip> {
    let mut clips = clips_from_frame_names(
        frames.iter().enumerate().map(|(i, f)| (i, f.name.as_str())),
        fps,
    );
    for c in &mut clips {
        let t = c.name.trim_end_matches([' ', '_', '-', '.']);
        c.name = if t.is_empty() { "frame" } else { t }.to_string();
    }
    clips
}

fn check_layout(file: &File<'_>, warnings: &mut Vec<String>) {
    let h = &file.header;
    let end = file.model_data_len();
    if !file.unclaimed.is_empty() {
        warnings.push(format!(
            "{} bytes between the end of the model data (offset {end:#x}) and data_size = {} \
             are not model data; kept",
            file.unclaimed.len(),
            h.data_size
        ));
    } else if h.data_size as i64 != end as i64 {
        warnings.push(format!(
            "data_size = {} but the model data ends at offset {end}",
            h.data_size
        ));
    }
    for (g, group) in file.groups.iter().enumerate() {
        if group.typ != 1 {
            warnings.push(format!(
                "group {g}: type {} (1 is a triangle mesh); read as triangles",
                group.typ
            ));
        }
    }
}

/// The skeleton: joints in object space and each bone's (checked) parent.
struct Skeleton {
    joints: Vec<Joint>,
}

impl Skeleton {
    fn new(file: &File<'_>, warnings: &mut Vec<String>) -> Skeleton {
        let n = file.bones.len();
        let mut joints: Vec<Joint> = Vec::with_capacity(n);
        for (i, b) in file.bones.iter().enumerate() {
            let parent = match b.parent {
                NONE16 => None,
                p if (p as usize) < i => Some(p as usize),
                p => {
                    warnings.push(format!(
                        "bone {i}: parent {p} does not come before it; made a root"
                    ));
                    None
                }
            };
            let base = parent.map_or([0.0; 3], |p| joints[p].translation);
            let name = name_str(&b.name);
            joints.push(Joint {
                name: if name.is_empty() {
                    format!("bone{i}")
                } else {
                    name
                },
                parent,
                translation: std::array::from_fn(|a| base[a] + b.position[a]),
                rotation: [0.0, 0.0, 0.0, 1.0],
            });
        }
        Skeleton { joints }
    }

    /// The object-space motion `G_b` of every bone in frame `f`, or `None` when no group's
    /// frame `f` has a transform (the bind pose).
    fn motion(&self, file: &File<'_>, f: usize, bad: &mut usize) -> Option<Vec<[f32; 16]>> {
        let n = self.joints.len();
        if n == 0 {
            return None;
        }
        let mut local: Vec<Option<&[f32; 16]>> = vec![None; n];
        let mut any = false;
        for t in file
            .groups
            .iter()
            .filter_map(|g| g.frames.get(f))
            .flat_map(|fr| &fr.transforms)
        {
            match local.get_mut(t.bone as usize) {
                Some(slot @ None) => {
                    *slot = Some(&t.matrix);
                    any = true;
                }
                Some(Some(_)) => {}
                None => *bad += 1,
            }
        }
        if !any {
            return None;
        }
        let mut global: Vec<[f32; 16]> = Vec::with_capacity(n);
        for (b, j) in self.joints.iter().enumerate() {
            let m = local[b].copied().unwrap_or(IDENTITY);
            global.push(match j.parent {
                // Row-vector `m · global[p]` is column-vector `global[p] · m`.
                Some(p) => math::mul(&global[p], &m),
                None => m,
            });
        }
        Some(global)
    }
}

/// Skeletal animations and their joint scales (see [`Model::animation_scales`]).
type Animations = (Vec<SkeletalAnimation>, Vec<crate::model::ScaleFrames>);

impl Skeleton {
    /// The bone matrix of each bone in frame `f` (the first transform naming it, as
    /// [`Skeleton::motion`] takes), `None` for a bone without one.
    fn locals<'f>(&self, file: &'f File<'_>, f: usize) -> Vec<Option<&'f [f32; 16]>> {
        let mut local: Vec<Option<&[f32; 16]>> = vec![None; self.joints.len()];
        for t in file
            .groups
            .iter()
            .filter_map(|g| g.frames.get(f))
            .flat_map(|fr| &fr.transforms)
        {
            if let Some(slot @ None) = local.get_mut(t.bone as usize) {
                *slot = Some(&t.matrix);
            }
        }
        local
    }

    /// The bones as [`Model::animations`], one per clip (one `all` clip when there are
    /// none): per frame, each joint's transform relative to its parent, decomposed from the
    /// bone matrices. `None` when the bone motion cannot be a skin, with a warning for a bone
    /// matrix that shears, is singular or not affine, or a group with weights on some
    /// vertices only, without one when frames also replace vertices (vertex animation: as
    /// before, nothing is lost); the motion then stays baked in the morph targets only. A
    /// group without weights stays still, a mesh without a skin; bones that move no vertex
    /// give no animation.
    ///
    /// With `B` the joints' bind translations and `M_j` bone `j`'s matrix in column-vector
    /// form (the identity when the frame has none), a bone's object-space motion is
    /// `K_j = K_parent · M_j`, so its joint's world transform `K_j · B_j` is the parent's
    /// times the local `B_parent⁻¹ · M_j · B_j`, split into `T · R · S`.
    fn animations(
        &self,
        file: &File<'_>,
        groups: &[GroupMeshes],
        clips: &[Clip],
        fps: f32,
        warnings: &mut Vec<String>,
    ) -> Option<Animations> {
        let frame_count = file.frame_count();
        if self.joints.is_empty() || frame_count == 0 {
            return None;
        }
        let fallback = |warnings: &mut Vec<String>, why: String| {
            warnings.push(format!(
                "{why}; the bone motion is exported as morph targets only (no skeletal animation)"
            ));
            None
        };
        let replaced = file.frames_with_vertices();
        if replaced > 0 {
            // Vertex animation as well as bones: a skin cannot replace vertices, the morph
            // targets hold both (no warning: nothing changes for such a model).
            return None;
        }
        if groups
            .iter()
            .all(|g| g.influences.iter().all(|i| i.is_empty()))
        {
            // The bones move no vertex: nothing to animate.
            return None;
        }
        // A group without any weight stays still (a mesh without a skin); one with some
        // weightless vertices cannot be a skin.
        if let Some(g) = groups.iter().position(|g| {
            g.influences.iter().any(|i| i.is_empty()) && g.influences.iter().any(|i| !i.is_empty())
        }) {
            return fallback(
                warnings,
                format!("group {g} has vertices both with and without bone weights"),
            );
        }
        let mut per_frame = Vec::with_capacity(frame_count);
        let mut scales = Vec::with_capacity(frame_count);
        for f in 0..frame_count {
            let locals = self.locals(file, f);
            let mut transforms = Vec::with_capacity(self.joints.len());
            let mut frame_scales = Vec::with_capacity(self.joints.len());
            for (j, joint) in self.joints.iter().enumerate() {
                let m = locals[j].copied().unwrap_or(IDENTITY);
                let below = joint
                    .parent
                    .map_or([0.0; 3], |p| self.joints[p].translation);
                match decompose(&m, joint.translation, below) {
                    Ok((t, s)) => {
                        transforms.push(t);
                        frame_scales.push(s);
                    }
                    Err(why) => {
                        return fallback(
                            warnings,
                            format!("frame {f}: bone {j}: its matrix {why}"),
                        );
                    }
                }
            }
            per_frame.push(transforms);
            scales.push(frame_scales);
        }
        let all;
        let clips = if clips.is_empty() {
            all = [Clip {
                name: "all".to_string(),
                first: 0,
                count: frame_count,
                fps,
                frame_times: None,
            }];
            &all[..]
        } else {
            clips
        };
        let mut animations = Vec::with_capacity(clips.len());
        let mut animation_scales = Vec::with_capacity(clips.len());
        for c in clips {
            let range = c.first..c.first + c.count;
            animations.push(SkeletalAnimation {
                name: c.name.clone(),
                fps: c.fps,
                frames: per_frame[range.clone()].to_vec().into(),
                bounds: Vec::new(),
                loops: false,
                weight_scales: None,
            });
            animation_scales.push(scales[range].to_vec());
        }
        let unit = animation_scales
            .iter()
            .flatten()
            .flatten()
            .all(|s| *s == [1.0; 3]);
        if unit {
            animation_scales.clear();
        }
        Some((
            animations,
            animation_scales.into_iter().map(Into::into).collect(),
        ))
    }
}

/// Largest cosine between two axes of a bone matrix that still counts as a rotation and
/// scale (the corpus's worst is 6e-6).
const MAX_SHEAR: f64 = 1e-4;

/// The local joint transform `B_parent⁻¹ · M · B_joint` of a row-vector bone matrix `m`
/// (`B` translations by `bind` and `parent_bind`), as translation, unit rotation and scale
/// (scales within 1e-6 of 1 are written as 1); or why it has none.
fn decompose(
    m: &[f32; 16],
    bind: [f32; 3],
    parent_bind: [f32; 3],
) -> Result<(JointTransform, [f32; 3]), String> {
    let m = m.map(f64::from);
    if !m.iter().all(|c| c.is_finite()) {
        return Err("is not finite".to_string());
    }
    if m[3].abs() > 1e-6 || m[7].abs() > 1e-6 || m[11].abs() > 1e-6 || (m[15] - 1.0).abs() > 1e-6 {
        return Err(format!(
            "is not affine (last column {:?})",
            [m[3], m[7], m[11], m[15]]
        ));
    }
    // Column-vector form: the row-vector matrix stored row by row is the column-vector
    // matrix stored column by column (crate::math's layout). Scale: the columns' lengths,
    // x negated for a mirror; the rotation: the columns divided by them.
    let (scale, cols) = math::split_scale(&m);
    if scale.iter().any(|&s| s.is_nan() || s.abs() <= 1e-12) {
        return Err("is singular".to_string());
    }
    let shear = [(0, 1), (0, 2), (1, 2)]
        .iter()
        .map(|&(a, b)| math::dot(cols[a], cols[b]).abs())
        .fold(0.0, f64::max);
    if shear > MAX_SHEAR {
        return Err(format!("shears (axes {:.1e} from perpendicular)", shear));
    }
    let rotation = math::quat_from_rotation(&cols).map(|v| v as f32);
    // Translation: A · bind + t - parent_bind.
    let a = |r: usize, k: usize| m[4 * k + r];
    let translation: [f32; 3] = std::array::from_fn(|r| {
        let b = bind.map(f64::from);
        ((0..3).map(|k| a(r, k) * b[k]).sum::<f64>() + m[12 + r] - f64::from(parent_bind[r])) as f32
    });
    let scale = scale.map(|s| {
        if (s - 1.0).abs() <= 1e-6 {
            1.0
        } else {
            s as f32
        }
    });
    if !translation.iter().chain(&scale).all(|c| c.is_finite()) || scale.contains(&0.0) {
        return Err("moves or scales beyond f32".to_string());
    }
    Ok((
        JointTransform {
            translation,
            rotation,
        },
        scale,
    ))
}

/// Vertex normals that could not be used, by kind.
#[derive(Default)]
struct NormalProblems {
    /// Full normals of zero length or with a NaN or infinite component.
    degenerate: usize,
    /// Table indices past the 162 entries.
    past_table: usize,
}

/// A vertex record's normal: a table entry, the stored vector (renormalised only when it is
/// not of unit length), or up.
fn vertex_normal(v: &Vertex, problems: &mut NormalProblems) -> [f32; 3] {
    match v.normal {
        Normal::Full(n) => {
            let len2 = math::dot(n, n);
            if !len2.is_finite() || len2 < 1e-12 {
                problems.degenerate += 1;
                UP
            } else if (len2 - 1.0).abs() > 1e-3 {
                math::normalize_above(n, 1e-12, UP)
            } else {
                n
            }
        }
        Normal::Index { index, .. } => normals::normal(index).unwrap_or_else(|| {
            problems.past_table += 1;
            UP
        }),
        Normal::None => UP,
    }
}

/// One mesh of a group: the triangles of one material.
struct Part {
    skin: Option<usize>,
    skin_size: Option<[u32; 2]>,
    index: HashMap<(u16, u32, u32), u32>,
    source_vertices: Vec<u32>,
    uvs: Vec<[f32; 2]>,
    triangles: Vec<[u32; 3]>,
    targets: Vec<MorphTarget>,
}

impl Part {
    fn new(skin: Option<usize>, skin_list: &[&Skin<'_>]) -> Part {
        let skin_size = skin.and_then(|s| match &skin_list[s].data {
            SkinData::Pixels { .. } => Some([skin_list[s].width, skin_list[s].height]),
            _ => None,
        });
        Part {
            skin,
            skin_size,
            index: HashMap::new(),
            source_vertices: Vec::new(),
            uvs: Vec::new(),
            triangles: Vec::new(),
            targets: Vec::new(),
        }
    }
}

/// A group's meshes while they are built: layout, influences, and the pose buffers.
struct GroupMeshes {
    name: String,
    parts: Vec<Part>,
    bind_positions: Vec<[f32; 3]>,
    bind_normals: Vec<[f32; 3]>,
    influences: Vec<Vec<(u32, f32)>>,
    positions: Vec<[f32; 3]>,
    normals: Vec<[f32; 3]>,
}

impl GroupMeshes {
    fn new(
        file: &File<'_>,
        g: usize,
        group: &Group<'_>,
        skin_list: &[&Skin<'_>],
        skeleton: &Skeleton,
        normal_problems: &mut NormalProblems,
        warnings: &mut Vec<String>,
    ) -> GroupMeshes {
        let sizes = file.header.sizes;
        let n = group.vertices.len();
        let mut parts: Vec<Part> = Vec::new();
        let mut part_of: HashMap<Option<usize>, usize> = HashMap::new();
        let (mut bad_material, mut bad_uv, mut second_uv) = (0usize, 0usize, 0usize);
        let mut used = vec![false; n];
        for t in &group.triangles {
            let skin = if sizes.triangle >= 16 {
                match t.material {
                    NO_MATERIAL => None,
                    m if (m as usize) < skin_list.len() => Some(m as usize),
                    _ => {
                        bad_material += 1;
                        None
                    }
                }
            } else {
                (!skin_list.is_empty()).then_some(0)
            };
            if sizes.triangle >= 22 && t.texcoord2 != [NONE16; 3] {
                second_uv += 1;
            }
            let pi = *part_of.entry(skin).or_insert_with(|| {
                parts.push(Part::new(skin, skin_list));
                parts.len() - 1
            });
            let part = &mut parts[pi];
            let corners: [u32; 3] = std::array::from_fn(|k| {
                let (v, st) = (t.vertex[k], t.texcoord[k]);
                let uv = match group.texcoords.get(st as usize) {
                    Some(tc) => [tc.u, tc.v],
                    None => {
                        if st != NONE16 {
                            bad_uv += 1;
                        }
                        [0.0, 0.0]
                    }
                };
                // By value: MED often stores one texture coordinate per triangle corner.
                let key = (v, uv[0].to_bits(), uv[1].to_bits());
                *part.index.entry(key).or_insert_with(|| {
                    used[v as usize] = true;
                    part.source_vertices.push(v as u32);
                    part.uvs.push(uv);
                    (part.source_vertices.len() - 1) as u32
                })
            });
            // GameStudio's fronts are counter-clockwise (as in MDL2..5); the Model keeps
            // Quake's clockwise fronts.
            part.triangles.push([corners[0], corners[2], corners[1]]);
        }
        if used.iter().any(|u| !u) {
            if parts.is_empty() {
                parts.push(Part::new(None, skin_list));
            }
            let part = &mut parts[0];
            for (v, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
                part.source_vertices.push(v as u32);
                part.uvs.push([0.0, 0.0]);
            }
        }
        for p in &mut parts {
            p.index = HashMap::new();
        }
        if bad_material > 0 {
            warnings.push(format!(
                "group {g}: {bad_material} triangles name a material past the {} skins; \
                 left untextured",
                skin_list.len()
            ));
        }
        if bad_uv > 0 {
            warnings.push(format!(
                "group {g}: {bad_uv} triangle corners name a texture coordinate past \
                 num_stpts = {}; (0, 0) used",
                group.texcoords.len()
            ));
        }
        if second_uv > 0 {
            warnings.push(format!(
                "group {g}: the second UV set of {second_uv} triangles is not kept (a mesh \
                 has one)"
            ));
        }

        let bind_positions: Vec<[f32; 3]> = group.vertices.iter().map(|v| v.position).collect();
        let bind_normals: Vec<[f32; 3]> = group
            .vertices
            .iter()
            .map(|v| vertex_normal(v, normal_problems))
            .collect();
        let influences = influences(file, g, group, skeleton, warnings);
        let name = name_str(&group.name);
        GroupMeshes {
            name,
            parts,
            positions: bind_positions.clone(),
            normals: bind_normals.clone(),
            bind_positions,
            bind_normals,
            influences,
        }
    }

    /// Poses the group for one frame into its buffers.
    fn pose(
        &mut self,
        frame: Option<&Frame>,
        motion: Option<&[[f32; 16]]>,
        problems: &mut NormalProblems,
    ) {
        self.positions.copy_from_slice(&self.bind_positions);
        self.normals.copy_from_slice(&self.bind_normals);
        if let Some(fr) = frame {
            for v in &fr.vertices {
                // Frame vertex indices were checked by the parser.
                let i = v.bone as usize;
                self.positions[i] = v.position;
                self.normals[i] = vertex_normal(v, problems);
            }
        }
        let Some(motion) = motion else {
            return;
        };
        for (i, inf) in self.influences.iter().enumerate() {
            if inf.is_empty() {
                continue;
            }
            let (p, n) = (self.positions[i], self.normals[i]);
            let (mut ps, mut ns) = ([0.0f32; 3], [0.0f32; 3]);
            for &(j, w) in inf {
                let m = &motion[j as usize];
                let (q, r) = (math::transform_point(m, p), math::transform_vector(m, n));
                for a in 0..3 {
                    ps[a] += w * q[a];
                    ns[a] += w * r[a];
                }
            }
            self.positions[i] = ps;
            self.normals[i] = math::normalize_above(ns, 1e-12, UP);
        }
    }

    /// Adds the current pose as a morph target of every part.
    fn push_target(&mut self) {
        for p in &mut self.parts {
            p.targets.push(MorphTarget {
                positions: p
                    .source_vertices
                    .iter()
                    .map(|&v| self.positions[v as usize])
                    .collect(),
                normals: p
                    .source_vertices
                    .iter()
                    .map(|&v| self.normals[v as usize])
                    .collect(),
            });
        }
    }

    /// The group's meshes: positions and normals of the first pose, or of the bind pose
    /// when `bind` (a skeletal Model).
    fn finish(self, bind: bool) -> Vec<Mesh> {
        let skinned = self.influences.iter().any(|i| !i.is_empty());
        let (bind_p, bind_n, influences, name) = (
            self.bind_positions,
            self.bind_normals,
            self.influences,
            self.name,
        );
        self.parts
            .into_iter()
            .map(|p| {
                let first = if bind { None } else { p.targets.first() };
                let (positions, normals) = match first {
                    Some(t) => (t.positions.clone(), t.normals.clone()),
                    None => (
                        p.source_vertices
                            .iter()
                            .map(|&v| bind_p[v as usize])
                            .collect(),
                        p.source_vertices
                            .iter()
                            .map(|&v| bind_n[v as usize])
                            .collect(),
                    ),
                };
                let joint_weights = if skinned {
                    p.source_vertices
                        .iter()
                        .map(|&v| Influences::from_slice(&influences[v as usize]))
                        .collect()
                } else {
                    Vec::new()
                };
                Mesh {
                    name: name.clone(),
                    positions,
                    normals,
                    uvs: p.uvs,
                    triangles: p.triangles,
                    morph_targets: p.targets,
                    source_vertices: p.source_vertices,
                    skin: p.skin,
                    joint_weights,
                    skin_size: p.skin_size,
                }
            })
            .collect()
    }
}

/// Most joint influences kept on one vertex (the heaviest; MED writes at most 6).
const MAX_INFLUENCES: usize = 16;

/// Each vertex's joint influences: the group's deformer weights (merged per bone, the
/// [`MAX_INFLUENCES`] heaviest kept, normalised), or else the vertex's bone with weight 1;
/// none in a model without bones.
fn influences(
    file: &File<'_>,
    g: usize,
    group: &Group<'_>,
    skeleton: &Skeleton,
    warnings: &mut Vec<String>,
) -> Vec<Vec<(u32, f32)>> {
    let n = group.vertices.len();
    let bones = skeleton.joints.len();
    if bones == 0 {
        return vec![Vec::new(); n];
    }
    let mut all: Vec<(u32, u32, f32)> = Vec::new();
    let mut bad = 0usize;
    for d in file.deformers.iter().filter(|d| d.group_index == g as i32) {
        for e in &d.elements {
            for w in &e.weights {
                let ok_bone = e.index >= 0 && (e.index as usize) < bones;
                let ok_vertex = w.vertex >= 0 && (w.vertex as usize) < n;
                if !ok_bone || !ok_vertex || !w.weight.is_finite() || w.weight < 0.0 {
                    bad += 1;
                    continue;
                }
                all.push((w.vertex as u32, e.index as u32, w.weight));
            }
        }
    }
    if bad > 0 {
        warnings.push(format!(
            "group {g}: {bad} deformer weights name a bone or vertex out of range or are \
             negative; ignored"
        ));
    }
    // In vertex order; a bone's weights on one vertex add up, in the order of first mention.
    all.sort_by_key(|&(v, _, _)| v);
    let mut lists: Vec<Vec<(u32, f32)>> = vec![Vec::new(); n];
    let mut cut = 0usize;
    for run in all.chunk_by(|a, b| a.0 == b.0) {
        let mut list: Vec<(u32, f32)> = Vec::with_capacity(run.len().min(MAX_INFLUENCES));
        // (first mention, bone, weight), sorted stably by bone: each run's head is its first
        // mention.
        let mut by_bone: Vec<(usize, u32, f32)> = run
            .iter()
            .enumerate()
            .map(|(i, &(_, j, w))| (i, j, w))
            .collect();
        by_bone.sort_by_key(|&(_, j, _)| j);
        let mut merged: Vec<(usize, u32, f32)> = by_bone
            .chunk_by(|a, b| a.1 == b.1)
            .map(|c| (c[0].0, c[0].1, c.iter().map(|x| x.2).sum()))
            .collect();
        if merged.len() > MAX_INFLUENCES {
            cut += 1;
            merged.sort_by(|a, b| b.2.total_cmp(&a.2));
            merged.truncate(MAX_INFLUENCES);
        }
        merged.sort_by_key(|&(first, _, _)| first);
        list.extend(merged.into_iter().map(|(_, j, w)| (j, w)));
        lists[run[0].0 as usize] = list;
    }
    if cut > 0 {
        warnings.push(format!(
            "group {g}: {cut} vertices have more than {MAX_INFLUENCES} bone weights; kept the \
             {MAX_INFLUENCES} heaviest"
        ));
    }
    let mut bad_bone = 0usize;
    for (list, v) in lists.iter_mut().zip(&group.vertices) {
        let sum: f32 = list.iter().map(|(_, w)| w).sum();
        if sum > 1e-6 && sum.is_finite() {
            list.iter_mut().for_each(|(_, w)| *w /= sum);
            list.retain(|(_, w)| *w > 0.0);
            continue;
        }
        list.clear();
        match v.bone {
            NONE16 => {}
            b if (b as usize) < bones => list.push((b as u32, 1.0)),
            _ => bad_bone += 1,
        }
    }
    if bad_bone > 0 {
        warnings.push(format!(
            "group {g}: {bad_bone} vertices name a bone past bones_num = {bones}; they do not \
             move with the bones"
        ));
    }
    lists
}

/// Converts skins in file order (MDL7 skins of all groups, or HMP skins); shared with HMP.
pub(crate) fn convert_skins(
    skins: &[&Skin<'_>],
    options: &ConvertOptions,
    resolver: &dyn Resolver,
    warnings: &mut Vec<String>,
) -> Vec<ModelSkin> {
    let palette = Arc::new(options.palette.unwrap_or(Palette::QUAKE));
    let mut budget = Budget::new(&Limits::default());
    let mut warned_palette = false;
    let mut out: Vec<ModelSkin> = Vec::with_capacity(skins.len());
    for (i, sk) in skins.iter().enumerate() {
        let (w, h) = (sk.width, sk.height);
        let mut pictures = Vec::new();
        let mut source = None;
        match &sk.data {
            SkinData::Pixels { format, pixels, .. } if !pixels.is_empty() => {
                let rgba = |data: Vec<u8>| Pixels::Rgba8(data);
                let px = match format {
                    PixelFormat::Indexed8 => {
                        if options.palette.is_none() && !warned_palette {
                            warned_palette = true;
                            warnings.push(
                                "8-bit skins decoded with the built-in Quake palette (the \
                                 level's palette is not in the file)"
                                    .to_string(),
                            );
                        }
                        Pixels::Indexed {
                            indices: pixels.to_vec(),
                            palette: palette.clone(),
                            fullbright_start: None,
                            transparent_index: None,
                        }
                    }
                    PixelFormat::Rgb565 => rgba(image::rgb565_to_rgba8(pixels)),
                    PixelFormat::Argb4444 => rgba(image::argb4444_to_rgba8(pixels)),
                    PixelFormat::Bgr888 => rgba(image::bgr_to_rgba8(pixels, 3)),
                    PixelFormat::Bgra8888 => rgba(image::bgr_to_rgba8(pixels, 4)),
                };
                pictures.push(Image {
                    width: w,
                    height: h,
                    pixels: px,
                    encoded: None,
                });
            }
            SkinData::Pixels { .. } => {}
            SkinData::Dds(data) => match image::decode(data, "skin.dds", &Limits::default()) {
                Ok(img) => pictures.push(img),
                Err(e) => warnings.push(format!("skin {i}: embedded DDS picture not decoded: {e}")),
            },
            SkinData::External(name) => {
                let name = name_str(name);
                if let Some((img, src)) = load_external(i, &name, resolver, &mut budget, warnings) {
                    pictures.push(img);
                    source = Some(src);
                }
            }
            SkinData::Reference => match out.get(w as usize) {
                Some(target) if (w as usize) < i => pictures = target.pictures.clone(),
                _ => warnings.push(format!(
                    "skin {i}: refers to skin {w}, which does not come before it"
                )),
            },
        }
        out.push(ModelSkin {
            source,
            name: sk.display_name(),
            pictures,
            picture_times: None,
        });
    }
    out
}

/// An external picture through the resolver ([`SkinLookup::stored`]: as named, then the
/// same name in another picture format), charged to `budget`.
fn load_external(
    i: usize,
    name: &str,
    resolver: &dyn Resolver,
    budget: &mut Budget,
    warnings: &mut Vec<String>,
) -> Option<(Image, String)> {
    if name.is_empty() {
        warnings.push(format!("skin {i}: empty external file name"));
        return None;
    }
    let mut lookup = SkinLookup::new(resolver, &Limits::default());
    let Some(found) = lookup.stored(name, true) else {
        if lookup.warnings.is_empty() {
            warnings.push(format!("skin {i}: external picture {name:?} not found"));
        }
        warnings.extend(lookup.warnings.iter().map(|w| format!("skin {i}: {w}")));
        return None;
    };
    let img = found.image;
    let cost = 64 + 4 * img.width as u64 * img.height as u64;
    match budget.charge(cost) {
        Ok(()) => Some((img, format!("{} ({})", found.path, found.rule.describe()))),
        Err(limit) => {
            warnings.push(format!(
                "skin {i}: {name}: left out, skin pictures would exceed the allocation \
                 limit of {limit} bytes"
            ));
            None
        }
    }
}
