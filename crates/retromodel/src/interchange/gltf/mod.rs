//! glTF 2.0 (feature `gltf`): `.glb`, and `.gltf` with embedded or side-car buffers and
//! images, written from any [`Model`](crate::model::Model) (the exporter, see
//! [`export()`]) and read into one (the importer, [`read`]); and the [`CODEC`] that the
//! format registry lists for both.
//!
//! The codec keeps a parsed file's bytes (written back byte for byte) and imports it in
//! `to_model`, its `.bin` buffers and images through the resolver; its writers take the
//! glTF options of [`crate::options::WriteOptions`] (clip split, frames, filter, quantise,
//! embed, fps).

mod codec;
mod export;
mod import;
pub mod meshopt;

pub use codec::{GltfCodec, CODEC, GLB, GLTF};
pub use export::{
    export, to_glb, to_gltf_embedded, to_gltf_separate, ClipSplit, Compress, Container, Exported,
    Filter, Frames, GltfOptions, Output, QuantizedMesh, DEFAULT_FPS, FORMAT,
};
pub use import::read;

/// The application attribute (`_SOURCE_VERTEX`, without its underscore) that the exporter
/// writes and the importer reads: per glTF vertex, the index of the model file's vertex it
/// came from, so that a round trip (through Blender too, which keeps `_` attributes) writes
/// the file's points as they were. Files without it get their copies of a point welded
/// (`model::weld`).
pub const SOURCE_VERTEX: &str = "SOURCE_VERTEX";

/// The extension that quantised files ([`GltfOptions::quantize`]) require.
pub const QUANTIZATION: &str = "KHR_mesh_quantization";
