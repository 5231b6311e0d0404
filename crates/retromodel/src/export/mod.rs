//! Exporters to interchange formats that this crate writes but does not read.
//!
//! - `gltf` (feature `gltf`, on by default): glTF 2.0 as `.glb`, or `.gltf` with embedded
//!   or side-car buffers and PNG images, from any [`crate::model::Model`]: keyframe poses as morph
//!   targets with one animation per clip, skeletons as skins with joint animations, the
//!   md5camera path as an animated camera, skins as PNG textures (fullbrights as emissive,
//!   `MF_HOLEY` as an alpha mask, extra skins through `KHR_materials_variants`).
//!
//! Every exporter converts axes with [`crate::model::to_y_up`], the one axis conversion.
//! - [`obj`]: Wavefront OBJ (+ MTL) of one pose.

#[cfg(feature = "gltf")]
pub mod gltf;
pub mod obj;
