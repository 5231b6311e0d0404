//! Import from modern interchange formats into the format-neutral [`Model`](crate::model::Model):
//! glTF 2.0 ([`gltf`], feature "gltf") and Wavefront OBJ ([`obj`]). The baking of skeletal
//! animation into keyframe poses that keyframe formats need is [`crate::model::bake`].
//!
//! The importers undo the exporters' one axis change (Y-up back to the model's Z-up,
//! [`crate::math::from_y_up`]) and winding (counter-clockwise fronts back to clockwise).

#[cfg(feature = "gltf")]
pub mod gltf;
#[cfg(feature = "png")]
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

/// Area-weighted vertex normals of counter-clockwise triangles (the unit normal of the
/// summed face normals; straight up in Y for a vertex no triangle uses).
#[cfg(any(feature = "png", feature = "gltf"))]
pub(crate) fn smooth_normals(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> Vec<[f32; 3]> {
    let mut acc = vec![[0.0f32; 3]; positions.len()];
    for t in triangles {
        let [a, b, c] = t.map(|i| positions[i as usize]);
        let u: [f32; 3] = std::array::from_fn(|k| b[k] - a[k]);
        let v: [f32; 3] = std::array::from_fn(|k| c[k] - a[k]);
        let n = [
            u[1] * v[2] - u[2] * v[1],
            u[2] * v[0] - u[0] * v[2],
            u[0] * v[1] - u[1] * v[0],
        ];
        for &i in t {
            for k in 0..3 {
                acc[i as usize][k] += n[k];
            }
        }
    }
    acc.into_iter()
        .map(|n| crate::math::normalize3(n, [0.0, 1.0, 0.0]))
        .collect()
}
