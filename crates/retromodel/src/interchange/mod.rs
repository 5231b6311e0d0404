//! The interchange formats of modern tools, read into the format-neutral
//! [`Model`](crate::model::Model) and written from it: glTF 2.0 ([`gltf`], feature `gltf`:
//! `.glb` and `.gltf`, exporter and importer) and Wavefront OBJ ([`obj`]: `.obj` with its
//! `.mtl` and PNG skins). Each is a [`Codec`](crate::codec::Codec) like the classic formats,
//! registered after them: `Document` opens their files, `registry::write_model` writes them.
//!
//! They differ from the classic formats in two ways the contract states
//! ([`Codec::interchange`](crate::codec::Codec::interchange)): a parsed file keeps its bytes
//! (written back byte for byte) and is imported only in `to_model`, with its side files
//! (buffers, images, material libraries) through the resolver; and converting one to its own
//! format builds it anew from its Model (the writers take options; a `.gltf`'s side files
//! are not part of its bytes). OBJ has no magic: it is detected by content, last.
//!
//! The importers undo the exporters' one axis change (Y-up back to the model's Z-up,
//! [`crate::math::from_y_up`]) and winding (counter-clockwise fronts back to clockwise). The
//! baking of skeletal animation into keyframe poses that keyframe formats need is
//! [`crate::model::bake`].

#[cfg(feature = "gltf")]
pub mod gltf;
pub mod obj;

use crate::limits::Limits;

/// How an import samples and what it loads.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// Sampling rate of animations in frames per second; `None` keeps whole-pose keys as
    /// they are and samples the rest at 10 (keyframe clips) or 24 (skeletal animations).
    pub fps: Option<f32>,
    /// Skip decoding textures (the caller brings its own skin).
    pub skip_textures: bool,
    /// Bounds on counts and allocation.
    pub limits: Limits,
}

impl ImportOptions {
    /// The import a conversion asks for (its sampling rate and whether it skips textures),
    /// within `limits`.
    pub fn of(options: &crate::options::ConvertOptions, limits: Limits) -> ImportOptions {
        ImportOptions {
            fps: options.sample_fps,
            skip_textures: options.skip_textures,
            limits,
        }
    }
}

/// The summary of an imported interchange file: the counts of its model (vertices as the
/// model has them, poses as keyframes, else camera keys, else skeletal animation frames).
#[cfg(any(feature = "png", feature = "gltf"))]
pub(crate) fn summary_of(
    format: &'static str,
    version: i64,
    header: Vec<(&'static str, crate::summary::Value)>,
    converted: &crate::model::Converted,
) -> crate::summary::Summary {
    let m = &converted.model;
    crate::summary::Summary {
        header,
        vertices: m.vertex_count(),
        triangles: m.triangle_count(),
        poses: m.pose_count(),
        skins: m.skins.len(),
        joints: m.joints.len(),
        ..crate::summary::Summary::of_converted(format, version, converted)
    }
}

/// A small animated model for the interchange codecs' fixtures: a tetrahedron with two
/// poses in one clip and a 2 x 2 RGBA skin.
#[cfg(any(feature = "png", feature = "gltf"))]
pub(crate) fn fixture_model() -> crate::model::Model {
    use crate::image::{Image, Pixels};
    use crate::model::{Clip, Frame, Mesh, Model, MorphTarget, Skin};
    let base: Vec<[f32; 3]> = vec![
        [0.0, 0.0, 0.0],
        [16.0, 0.0, 0.0],
        [0.0, 16.0, 0.0],
        [0.0, 0.0, 16.0],
    ];
    let raised: Vec<[f32; 3]> = base.iter().map(|p| [p[0], p[1], p[2] + 4.0]).collect();
    let triangles = vec![[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]];
    let normals = crate::math::smooth_normals(&base, &triangles);
    let frame = |name: &str, pos: &[[f32; 3]]| Frame {
        name: name.to_string(),
        bounds_min: [0.0, 0.0, pos[0][2]],
        bounds_max: [16.0, 16.0, pos[3][2]],
        ..Frame::default()
    };
    let mesh = Mesh {
        name: "tetra".to_string(),
        positions: base.clone(),
        normals: normals.clone(),
        uvs: vec![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]],
        triangles,
        morph_targets: vec![
            MorphTarget {
                positions: base.clone(),
                normals: normals.clone(),
            },
            MorphTarget {
                positions: raised.clone(),
                normals,
            },
        ],
        source_vertices: vec![0, 1, 2, 3],
        skin: Some(0),
        skin_size: Some([2, 2]),
        ..Mesh::default()
    };
    let pixels = vec![
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
    ];
    Model {
        meshes: vec![mesh],
        frames: vec![frame("stand1", &base), frame("stand2", &raised)],
        clips: vec![Clip {
            name: "stand".to_string(),
            first: 0,
            count: 2,
            fps: 10.0,
            frame_times: None,
        }],
        skins: vec![Skin {
            name: "skin0".to_string(),
            pictures: vec![Image::new(2, 2, Pixels::Rgba8(pixels))],
            picture_times: None,
            source: None,
        }],
        ..Model::default()
    }
}
