//! `raw::File` to the format-neutral [`Model`](crate::model::Model).
//!
//! - One mesh per surface, named as the surface; positions `xyz / 64`, normals decoded from
//!   latitude/longitude as ioquake3 does ([`decode_normal`](super::decode_normal)), texture
//!   coordinates as stored. MD3 triangles are clockwise seen from the front, as the Model's
//!   (the corpus's stored normals agree with that winding on 94.5 % of the triangles).
//! - Every frame of the file is a model frame and a morph target of every mesh.
//! - Tags become [`SceneNode`]s holding no triangles, with one transform per frame
//!   ([`SceneNode::frames`]): the tag's origin and its axes as the rotation.
//! - Skins: each surface's shader (or the one a `.skin` file gives, see [`super::skin`])
//!   found by [`super::skin::find_picture`].

use super::raw::{decode_normal, File};
use crate::math;
use crate::model::{
    clips_from_frame_names, Converted, Frame as ModelFrame, Mesh, Model, MorphTarget,
    NodeTransform, SceneNode,
};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;

/// Converts a parsed file into a [`Model`](crate::model::Model): every frame decoded, tags as
/// animated nodes, skins resolved and decoded.
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    let num_frames = file.frames.len();
    let mut meshes: Vec<Mesh> = file
        .surfaces
        .iter()
        .map(|s| surface_mesh(s, num_frames))
        .collect();
    let frames: Vec<ModelFrame> = (0..num_frames)
        .map(|f| {
            let mut lo = [f32::INFINITY; 3];
            let mut hi = [f32::NEG_INFINITY; 3];
            for p in meshes.iter().flat_map(|m| &m.morph_targets[f].positions) {
                for a in 0..3 {
                    lo[a] = lo[a].min(p[a]);
                    hi[a] = hi[a].max(p[a]);
                }
            }
            if lo[0] > hi[0] {
                (lo, hi) = ([0.0; 3], [0.0; 3]);
            }
            ModelFrame {
                name: super::raw::name_str(&file.frames[f].name),
                bounds_min: lo,
                bounds_max: hi,
                position_step: Some([super::raw::XYZ_SCALE; 3]),
            }
        })
        .collect();
    let nodes = tag_nodes(file, &mut warnings);
    let clips = clips_from_frame_names(
        frames.iter().enumerate().map(|(i, f)| (i, f.name.as_str())),
        options.fps,
    );
    let skins = super::skin::load_skins(file, &mut meshes, options, resolver, &mut warnings);
    Converted {
        model: Model {
            meshes,
            frames,
            clips,
            skins,
            nodes,
            ..Model::default()
        },
        warnings,
    }
}

/// A tag's transform: its origin, and the linear map whose columns are its axes as a
/// rotation and a per-axis scale. The rotation comes from the axes normalised, as
/// `R_LerpTag` normalises them before attaching a model (OpenArena's `tag_weapon` axes are up
/// to 1.41 long: taking the rotation of the unnormalised axes turned the weapon); the lengths
/// are kept as the scale so that the file's tags write back. `None` when a value is not finite, an
/// axis is shorter than 1e-6 or longer than 1e6, or the axes give no rotation.
pub fn tag_transform(tag: &super::raw::Tag) -> Option<NodeTransform> {
    let a = tag.axis.map(|v| v.map(f64::from));
    let m: math::Mat4d = [
        a[0][0], a[0][1], a[0][2], 0.0, a[1][0], a[1][1], a[1][2], 0.0, a[2][0], a[2][1], a[2][2],
        0.0, 0.0, 0.0, 0.0, 1.0,
    ];
    let (scale, r) = math::split_scale(&m);
    let q = math::quat_from_rotation(&r);
    let t = NodeTransform {
        translation: tag.origin,
        rotation: q.map(|c| c as f32),
        scale: scale.map(|c| c as f32),
    };
    let len = t.rotation.iter().map(|c| c * c).sum::<f32>().sqrt();
    // Axes far from unit length (a zero or denormal axis) make no usable transform.
    let scaled = t.scale.iter().all(|&c| (1e-6..=1e6).contains(&c.abs()));
    (t.is_finite() && scaled && (len - 1.0).abs() <= 1e-3).then_some(t)
}

/// One node per tag of the first frame, moved in every frame. A tag whose values are not
/// finite, or whose axes are no rotation, stays at the origin in that frame (one warning per
/// tag).
fn tag_nodes(file: &File<'_>, warnings: &mut Vec<String>) -> Vec<SceneNode> {
    // Tags are stored per frame: a file without frames has none, whatever num_tags says.
    let n = if file.frames.is_empty() {
        0
    } else {
        file.header.num_tags.max(0) as usize
    };
    (0..n)
        .map(|t| {
            let mut bad = 0;
            let frames: Vec<NodeTransform> = (0..file.frames.len())
                .map(|f| {
                    tag_transform(&file.frame_tags(f)[t]).unwrap_or_else(|| {
                        bad += 1;
                        NodeTransform::IDENTITY
                    })
                })
                .collect();
            if bad > 0 {
                warnings.push(format!(
                    "tag {t}: {bad} frames with values that are not finite or axes that are no rotation; placed at the origin"
                ));
            }
            SceneNode {
                name: super::raw::name_str(&file.frame_tags(0)[t].name),
                parent: None,
                transform: frames.first().copied().unwrap_or_default(),
                parts: Vec::new(),
                frames: if frames.len() > 1 { frames } else { Vec::new() },
            }
        })
        .collect()
}

fn surface_mesh(s: &super::raw::Surface, num_frames: usize) -> Mesh {
    let n = s.header.num_verts.max(0) as usize;
    // The parser refused surfaces with vertices that store fewer frames than the model.
    let morph_targets: Vec<MorphTarget> = (0..num_frames)
        .map(|f| {
            let verts = s.frame_vertices(f);
            MorphTarget {
                positions: verts.iter().map(|v| v.position()).collect(),
                normals: verts.iter().map(|v| decode_normal(v.normal)).collect(),
            }
        })
        .collect();
    let triangles = s.triangles.iter().map(|t| t.map(|i| i as u32)).collect();
    let mut mesh = Mesh::keyframed(
        s.st.clone(),
        triangles,
        morph_targets,
        (0..n as u32).collect(),
        None,
    );
    mesh.name = s.name();
    mesh
}
