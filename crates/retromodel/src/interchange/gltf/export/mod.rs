//! glTF 2.0 export (feature `gltf`): `.glb`, or `.gltf` with embedded or side-car buffers
//! and PNG images, from any [`Model`].
//!
//! **What goes where.**
//! - *Keyframe models* (MDL, MD2): the first pose is the mesh, every other pose a morph target
//!   (`POSITION` and `NORMAL` deltas from the first pose). Each clip becomes one animation of
//!   the morph weights (one-hot vectors, `LINEAR`): frame-name clips at their rate (10 frames a
//!   second unless [`GltfOptions::fps`] says otherwise), frame groups at their stored times. A
//!   clip's last pose is held for one step, so a clip lasts its full duration
//!   ([`ClipSplit`] picks the clips).
//! - *Skeletal models* (MD5, MDL7 with bones): a Model with [`crate::model::Model::animations`]
//!   and joint-weighted meshes is exported as a skin *instead of* morph targets (its frames'
//!   baked copies of the motion would move the vertices twice): the skinned meshes in their
//!   bind pose ([`crate::model::Mesh::positions`]), no morph targets on any mesh, no morph
//!   weight animation; with [`Frames::First`] it is the first pose as a still mesh. One node
//!   per joint (local bind transform), one skin with inverse
//!   bind matrices, `JOINTS_n`/`WEIGHTS_n` with at most [`GltfOptions::max_influences`] joints
//!   a vertex (the heaviest, renormalised, with a warning), one animation per
//!   [`crate::model::SkeletalAnimation`] with a translation and a rotation channel per joint
//!   (and a scale channel for a joint that [`crate::model::Model::animation_scales`] scales).
//!   A model with several root joints gets a plain `skeleton` node above them (glTF wants a
//!   common root). *Weight scales* ([`crate::model::WeightScales`], the Quake II
//!   re-release's `.md5scale`) scale what a joint carries but not its children, whereas glTF
//!   scales are inherited: each scaled joint gets a helper node `<joint>.md5scale` (a leaf
//!   child of the joint, identity transform, `extras.md5scaleOf`), a skin joint with the
//!   joint's inverse bind matrix that the joint's vertex weights point at, driven by a
//!   `STEP` scale channel in every animation. Exact at frames; between frames glTF holds the
//!   earlier frame's scale where the engine takes the later one's. Scaled joint positions
//!   are written into the translation keys and listed in the animation's
//!   `extras.md5scalePositions`; the import undoes both.
//! - *Camera paths* (md5camera): a perspective camera on a node animated by translation and
//!   rotation; a cut holds the previous key until the cut's time. glTF cannot animate the
//!   field of view (that needs `KHR_animation_pointer`), so the first key's is used, with a
//!   warning when it changes. Doom 3 stores the horizontal field of view; `yfov` is computed
//!   for Doom 3's 4:3 screen and `aspectRatio` is set to 4/3.
//! - *Levels* (a Model with [`crate::model::Model::nodes`], WMP): one node per scene node with its
//!   name and local transform (Y-up), parents before children; a node holding triangles gets
//!   one mesh with one primitive per [`crate::model::MeshPart`] (per texture for WMP
//!   blocks), its vertices expressed in the node's space by the inverse of the node's world
//!   transform (the Model keeps them in model space), so that the scene puts them back where
//!   the Model has them. Meshes no node holds are written as below, one node each. Skins
//!   are then plain materials shared by name, never variants.
//! - *Skins*: every picture as a PNG image (palette applied; palette-indexed when it has at
//!   most 256 colours). Each skin is a material: its
//!   first picture the base colour texture (nearest-neighbour sampling unless
//!   [`Filter::Linear`]), metallic 0, roughness 1; its fullbright mask the emissive texture;
//!   an indexed picture with a transparent index (`MF_HOLEY`) makes it `alphaMode: MASK`. A
//!   mesh's own skin (the first, for Quake) is its primitive's material; with several skins,
//!   each is also a `KHR_materials_variants` variant, so viewers can switch skins. The other
//!   pictures of an animated skin group are stored as images (core glTF has no texture
//!   animation; a warning says so).
//!
//! **Axes and winding.** Positions, normals, joint transforms and camera keys go through
//! [`crate::model::to_y_up`], the crate's one axis conversion; quaternions through the matching
//! conjugation ([`crate::model::quat_to_y_up`], vector part converted like a point). Quake, Quake 2 and Doom 3 triangles are
//! clockwise when seen from the front, glTF's counter-clockwise, so every triangle is written
//! as `(a, c, b)`.
//!
//! **Quantisation** ([`GltfOptions::quantize`], off by default: readers without
//! `KHR_mesh_quantization` refuse the file or, like Assimp 5.2, misread it).
//! - Positions lie on a grid `origin + step * q` that is the mesh node's transform (a scene
//!   node with a transform, motion or children of its own gets a `NAME_mesh` child for it).
//!   The step on each axis is the source's ([`crate::model::Frame::position_step`], the
//!   smallest over the poses), halved where the poses are not all on one grid (MD2), so the
//!   error stays within half a source step (none for Quake MDL, MD3 and GameStudio
//!   MDL2..MDL5); an extent of more than 65535 steps coarsens the step up to twice (within
//!   one step), past that the mesh keeps floats. Float sources get 32767 steps over the
//!   largest extent. Base positions are unsigned bytes or shorts; morph deltas bytes where
//!   they fit, else shorts, else floats holding the integers. Skinned meshes keep float
//!   positions (glTF ignores their node's transform).
//! - Normals are stored as the model's scaled by the grid step and normalised (the normal
//!   matrix turns them back), base normals as unit-length normalised shorts (Blender 3.4
//!   uses imported normals without normalising them), morph deltas as `λ n - n0` with the
//!   largest `λ <= 1` that fits normalised integers (renderers normalise the morphed normal,
//!   which then points exactly along `n`): bytes, shorts or floats, whichever first keeps
//!   every normal within 0.01 radian.
//! - Texture coordinates within `[0, 1]` are normalised unsigned shorts, rounded up (a
//!   coordinate on a texel's corner stays in its texel).
//! - Each target is dense, sparse with one index list for position and normal, or each its
//!   own way, whichever is smallest; a target equal to an earlier one shares its accessors;
//!   one-hot animation weights are sparse normalised bytes.
//! - [`export`] returns the largest errors per mesh ([`QuantizedMesh`]).
//!
//! **meshopt compression** ([`GltfOptions::compress`], implies the quantisation): once the
//! document is built, every buffer view an accessor reads is stored compressed
//! (`EXT_meshopt_compression` or `KHR_meshopt_compression`): triangle lists in mode
//! TRIANGLES, the rest in mode ATTRIBUTES with the view's stride (or its accessors'
//! element size, else 4 bytes), base normals (their own view, 8-byte elements) through the
//! OCTAHEDRAL filter at 16 bits, the report's normal error counting it. The compressed bytes
//! are buffer 0; the views point at buffer 1, a fallback of the uncompressed size without
//! data (marked `fallback`), so the extension is required. Images, and views the codecs
//! would not make smaller, stay uncompressed in buffer 0.
//!
//! **Validity.** The output is meant to pass Khronos' glTF validator with no error and no
//! warning: `POSITION` accessors (morph deltas included) carry exact `min`/`max` (in the
//! stored integers when quantised, sparse zeros included), normals and rotations are unit
//! length, buffer views start on 4-byte boundaries and have no stride (quantised vertex data
//! shares views whose stride keeps every element on a 4-byte boundary), animation times
//! strictly increase, joint weights sum to 1 with unused slots at joint 0, and objects
//! nothing uses are not written.
//!
//! ```
//! # let bytes = retromodel::formats::quake_mdl::fixtures::minimal();
//! let model = retromodel::read(&bytes, &retromodel::Limits::default(), &retromodel::NoFiles)?;
//! let (glb, warnings) = retromodel::interchange::gltf::to_glb(&model, &Default::default())?;
//! assert_eq!(&glb[..4], b"glTF");
//! # let _ = warnings;
//! # Ok::<(), retromodel::Error>(())
//! ```

mod animation;
mod buffers;
mod camera;
mod compress;
mod material;
mod mesh;
mod optimize;
mod quantize;
mod skeleton;
mod space;

use gltf_json as json;

use super::QUANTIZATION;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::model::Model;
pub use crate::options::{ClipSplit, Compress, Filter, Frames};

/// Format name used in errors.
pub const FORMAT: &str = "gltf";

/// Frames per second of frame-name clips and of the clips this exporter makes up, unless
/// [`GltfOptions::fps`] says otherwise.
pub const DEFAULT_FPS: f32 = 10.0;

/// Options of the glTF exporter.
#[derive(Debug, Clone, PartialEq)]
pub struct GltfOptions {
    /// Frames per second of frame-name clips (and of the made-up clip `all`), overriding the
    /// model's clip rate; frame groups keep their stored times. `None`: the clip's own rate
    /// ([`DEFAULT_FPS`] for made-up clips).
    pub fps: Option<f32>,
    /// Which animations a keyframe model gets.
    pub clip_split: ClipSplit,
    /// Every pose, or the base mesh only.
    pub frames: Frames,
    /// Texture filtering.
    pub filter: Filter,
    /// Most joint influences kept per vertex: the heaviest are kept and renormalised (with a
    /// warning when some are dropped). Written as `ceil(n / 4)` `JOINTS_n`/`WEIGHTS_n` sets;
    /// 4 (one set) is what every viewer supports. 0 is read as 1.
    pub max_influences: usize,
    /// Quantised vertex data under `KHR_mesh_quantization` (see the module documentation):
    /// positions on a grid as fine as the source's (the node's transform dequantises),
    /// normals and texture coordinates as 16-bit integers, morph targets as bytes or
    /// shorts and sparse where few vertices move, equal targets sharing their data, and
    /// one-hot animation weights as sparse bytes. The file then requires the extension.
    /// Off by default: Blender, three.js and Khronos' validator read such files, Assimp 5.2
    /// and Godot 4 do not.
    pub quantize: bool,
    /// meshopt-compressed buffer views (see the module documentation), under
    /// `EXT_meshopt_compression` or `KHR_meshopt_compression`; implies
    /// [`GltfOptions::quantize`]. The file then requires the extension.
    pub compress: Compress,
}

impl Default for GltfOptions {
    fn default() -> Self {
        GltfOptions {
            fps: None,
            clip_split: ClipSplit::Names,
            frames: Frames::All,
            filter: Filter::Nearest,
            max_influences: 4,
            quantize: false,
            compress: Compress::None,
        }
    }
}

/// A `.gltf` with side-car files ([`to_gltf_separate`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// The `.gltf` JSON text.
    pub json: String,
    /// The buffer, to be written under the `bin_name` given (empty, and not referenced, when
    /// the model has no data).
    pub bin: Vec<u8>,
    /// The PNG images: a file name (the one the JSON refers to, relative to the `.gltf`) and
    /// the file's bytes.
    pub images: Vec<(String, Vec<u8>)>,
    /// What was lost or changed on the way (dropped joint influences, skin animation, ...).
    pub warnings: Vec<String>,
}

/// How an export is laid out in files ([`export`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Container {
    /// A binary glTF (`.glb`), images inside the buffer.
    Glb,
    /// One `.gltf` JSON text with the buffer and the images inside as `data:` URIs.
    Embedded,
    /// A `.gltf` JSON text that refers to side files: the buffer as `bin_name` and each image
    /// as `{image_prefix}_{name}.png` (`{name}.png` with an empty prefix), where `name` is
    /// `skin0`, `skin0_1` (the second picture of a skin group), `skin0_fullbright`... Names
    /// are relative to the `.gltf` file and percent-encoded in the JSON where needed.
    Separate {
        /// The buffer's file name.
        bin_name: String,
        /// The images' file name prefix.
        image_prefix: String,
    },
}

/// What the quantisation ([`GltfOptions::quantize`]) did to one glTF mesh.
#[derive(Debug, Clone, PartialEq)]
pub struct QuantizedMesh {
    /// The glTF mesh's name.
    pub name: String,
    /// The grid step of its positions on each glTF axis (its node's scale); `None` when
    /// they stayed floats (a skinned mesh, whose node transform glTF ignores, or a source
    /// step too fine for the extent, see the module documentation).
    pub step: Option<[f32; 3]>,
    /// The largest difference, on any model axis and in model units, between a quantised
    /// position and the model's, over every pose written.
    pub position_error: f64,
    /// The largest angle, in radians, between a quantised normal (morphed and normalised)
    /// and the model's, over every pose written.
    pub normal_error: f64,
}

impl QuantizedMesh {
    fn new(name: &str, grid: Option<&quantize::Grid>) -> QuantizedMesh {
        QuantizedMesh {
            name: name.to_string(),
            step: grid.map(|g| g.step),
            position_error: 0.0,
            normal_error: 0.0,
        }
    }
}

/// An export's files and what it noticed ([`export`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Output {
    /// The `.glb` file, or the `.gltf` JSON text.
    pub file: Vec<u8>,
    /// With [`Container::Separate`]: the images, then the buffer (empty, and not referred
    /// to, when the model has no data), each a file name relative to the `.gltf` and its
    /// bytes.
    pub side_files: Vec<(String, Vec<u8>)>,
    /// What was lost or changed on the way (dropped joint influences, skin animation, ...).
    pub warnings: Vec<String>,
    /// With [`GltfOptions::quantize`]: one entry per glTF mesh, with its largest errors.
    pub quantized: Vec<QuantizedMesh>,
    /// How many glTF animations the file holds (one per clip or skeletal animation, and
    /// the camera's).
    pub animations: usize,
}

/// The model as glTF in the files `container` asks for, the warnings and what the
/// quantisation did ([`to_glb`], [`to_gltf_embedded`] and [`to_gltf_separate`] in one).
pub fn export(model: &Model, options: &GltfOptions, container: &Container) -> Result<Output> {
    let (placement, uri): (Placement, Option<&str>) = match container {
        Container::Glb => (Placement::Glb, None),
        Container::Embedded => (Placement::Embedded, None),
        Container::Separate {
            bin_name,
            image_prefix,
        } => (
            Placement::Files {
                prefix: image_prefix.clone(),
            },
            Some(bin_name),
        ),
    };
    let implied;
    let options = if options.compress != Compress::None && !options.quantize {
        implied = GltfOptions {
            quantize: true,
            ..options.clone()
        };
        &implied
    } else {
        options
    };
    let mut built = build(model, options, placement)?;
    let animations = built.root.animations.len();
    let (file, side_files) = match container {
        Container::Glb => {
            built.place_buffer(|_| None);
            let json = built.json(false)?;
            (buffers::glb(json, &built.bin)?, Vec::new())
        }
        Container::Embedded => {
            built.place_buffer(|bin| {
                Some(format!(
                    "data:application/octet-stream;base64,{}",
                    buffers::base64(bin)
                ))
            });
            (built.json(false)?, Vec::new())
        }
        Container::Separate { bin_name, .. } => {
            built.place_buffer(|_| uri.map(buffers::uri_encode));
            let json = built.json(true)?;
            let mut side = std::mem::take(&mut built.files);
            side.push((bin_name.clone(), std::mem::take(&mut built.bin)));
            (json, side)
        }
    };
    Ok(Output {
        file,
        side_files,
        warnings: built.warnings,
        quantized: built.quantized,
        animations,
    })
}

/// The model as a binary glTF (`.glb`), images inside the buffer, and the warnings.
pub fn to_glb(model: &Model, options: &GltfOptions) -> Result<(Vec<u8>, Vec<String>)> {
    let out = export(model, options, &Container::Glb)?;
    Ok((out.file, out.warnings))
}

/// The model as one `.gltf` JSON text with the buffer and the images inside as `data:` URIs,
/// and the warnings.
pub fn to_gltf_embedded(model: &Model, options: &GltfOptions) -> Result<(String, Vec<String>)> {
    let out = export(model, options, &Container::Embedded)?;
    Ok((json_text(out.file)?, out.warnings))
}

/// The model as a `.gltf` JSON text that refers to side-car files: the buffer as `bin_name`
/// and each image as `{image_prefix}_{name}.png` ([`Container::Separate`]).
pub fn to_gltf_separate(
    model: &Model,
    options: &GltfOptions,
    bin_name: &str,
    image_prefix: &str,
) -> Result<Exported> {
    let container = Container::Separate {
        bin_name: bin_name.to_string(),
        image_prefix: image_prefix.to_string(),
    };
    let mut out = export(model, options, &container)?;
    let bin = out.side_files.pop().map(|(_, b)| b).unwrap_or_default();
    Ok(Exported {
        json: json_text(out.file)?,
        bin,
        images: out.side_files,
        warnings: out.warnings,
    })
}

/// JSON bytes as text (serde_json writes UTF-8).
fn json_text(bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes).map_err(|e| {
        Error::new(
            FORMAT,
            ErrorKind::InvalidValue,
            format!("JSON serialisation gave invalid UTF-8: {e}"),
            Location::None,
        )
    })
}

/// Where images go.
enum Placement {
    /// In buffer views of the GLB's buffer.
    Glb,
    /// As `data:image/png;base64,` URIs.
    Embedded,
    /// As side-car files named with this prefix.
    Files { prefix: String },
}

/// The built document before its buffer is placed.
struct Built {
    root: json::Root,
    bin: Vec<u8>,
    files: Vec<(String, Vec<u8>)>,
    warnings: Vec<String>,
    quantized: Vec<QuantizedMesh>,
    /// What the meshopt compression did, for the JSON.
    compressed: Option<compress::Compressed>,
}

impl Built {
    /// The document as JSON text, with the compression's extension objects (only then
    /// through `serde_json::Value`, so that other files keep gltf-json's key order).
    fn json(&self, pretty: bool) -> Result<Vec<u8>> {
        let text = match &self.compressed {
            None if pretty => serde_json::to_vec_pretty(&self.root),
            None => serde_json::to_vec(&self.root),
            Some(c) => {
                let doc = compress::finish(&self.root, Some(c))?;
                if pretty {
                    serde_json::to_vec_pretty(&doc)
                } else {
                    serde_json::to_vec(&doc)
                }
            }
        };
        text.map_err(json_error)
    }

    /// Declares the buffer in the document, when there is data, at the URI that `uri` gives
    /// for it (`None`: the GLB's own binary chunk).
    fn place_buffer(&mut self, uri: impl FnOnce(&[u8]) -> Option<String>) {
        if !self.bin.is_empty() {
            let uri = uri(&self.bin);
            self.root.push(buffers::buffer(self.bin.len(), uri));
        }
    }
}

/// The exporter's state: the document being built, the buffer, and what earlier steps made
/// for later ones.
struct Builder<'m> {
    model: &'m Model,
    options: &'m GltfOptions,
    placement: Placement,
    root: json::Root,
    bin: Vec<u8>,
    files: Vec<(String, Vec<u8>)>,
    warnings: Vec<String>,
    /// Nodes of the scene's roots, in order.
    roots: Vec<json::Index<json::Node>>,
    /// One node per model joint.
    joint_nodes: Vec<json::Index<json::Node>>,
    /// The weight scale helpers ([`crate::model::WeightScales`]): the model joint each
    /// scales and its node, a child of the joint's node (see the module documentation).
    scale_helpers: Vec<(usize, json::Index<json::Node>)>,
    /// Per model joint, the skin joint its vertex weights point at: its own, or its weight
    /// scale helper's. Empty when no joint has a helper.
    weight_slots: Vec<u16>,
    /// The skin, when some mesh is skinned.
    skin: Option<json::Index<json::Skin>>,
    /// The nodes of the exported meshes that carry morph targets.
    morph_nodes: Vec<json::Index<json::Node>>,
    /// Scene nodes that move per frame ([`crate::model::SceneNode::frames`]): the model's
    /// node index and its glTF node.
    moving_nodes: Vec<(usize, json::Index<json::Node>)>,
    /// The camera's node.
    camera_node: Option<json::Index<json::Node>>,
    /// The texture sampler, made on first use.
    sampler: Option<json::Index<json::texture::Sampler>>,
    /// The shared views of quantised data.
    packed: buffers::Packed,
    /// What the quantisation did to each mesh.
    quantized: Vec<QuantizedMesh>,
}

fn build(model: &Model, options: &GltfOptions, placement: Placement) -> Result<Built> {
    model
        .validate()
        .map_err(|e| Error::new(FORMAT, e.kind, e.message, Location::None))?;
    // meshopt compression: welded and reordered meshes compress smaller.
    let optimized;
    let model = if options.compress == crate::options::Compress::None {
        model
    } else {
        optimized = optimize::model(model);
        &optimized
    };
    let mut b = Builder {
        model,
        options,
        placement,
        root: json::Root {
            asset: json::Asset {
                generator: Some(format!("retromodel {}", env!("CARGO_PKG_VERSION"))),
                ..json::Asset::default()
            },
            ..json::Root::default()
        },
        bin: Vec::new(),
        files: Vec::new(),
        warnings: Vec::new(),
        roots: Vec::new(),
        joint_nodes: Vec::new(),
        scale_helpers: Vec::new(),
        weight_slots: Vec::new(),
        skin: None,
        morph_nodes: Vec::new(),
        moving_nodes: Vec::new(),
        camera_node: None,
        sampler: None,
        packed: buffers::Packed::default(),
        quantized: Vec::new(),
    };
    let exported = b.exported_meshes();
    let materials = b.materials(&exported)?;
    b.skeleton(&exported)?;
    b.meshes(&exported, &materials)?;
    b.camera()?;
    if options.frames == Frames::All {
        b.morph_animations()?;
        b.skeletal_animations()?;
        b.camera_animation()?;
    }
    if !b.roots.is_empty() {
        // Every frame's name, so that an import gets them back (morph targets name only
        // the poses after the first).
        let names: Vec<&str> = model.frames.iter().map(|f| f.name.as_str()).collect();
        let extras = (!names.is_empty())
            .then(|| {
                serde_json::value::to_raw_value(&serde_json::json!({ "frameNames": names })).ok()
            })
            .flatten();
        let scene = b.root.push(json::Scene {
            extensions: None,
            extras,
            name: None,
            nodes: b.roots.clone(),
        });
        b.root.scene = Some(scene);
    }
    let integers = b.packed.integers;
    b.place_packed();
    if integers {
        let name = QUANTIZATION.to_string();
        b.root.extensions_used.push(name.clone());
        b.root.extensions_required.push(name);
    }
    buffers::pad(&mut b.bin, 0);
    let mut compressed = None;
    if let Some(name) = options.compress.extension() {
        if !b.bin.is_empty() {
            let (bin, c) = compress::compress(&mut b.root, &b.bin, name, &b.packed.filtered)?;
            b.bin = bin;
            if !c.views.is_empty() {
                b.root.extensions_used.push(name.to_string());
                b.root.extensions_required.push(name.to_string());
            }
            compressed = Some(c);
        }
    }
    Ok(Built {
        root: b.root,
        bin: b.bin,
        files: b.files,
        warnings: b.warnings,
        quantized: b.quantized,
        compressed,
    })
}

impl Builder<'_> {
    /// Whether morph targets and animations are written.
    fn animated(&self) -> bool {
        self.options.frames == Frames::All
    }
}

/// An error about the model's content.
fn invalid(message: String) -> Error {
    Error::new(FORMAT, ErrorKind::InvalidModel, message, Location::None)
}

fn json_error(e: serde_json::Error) -> Error {
    Error::new(
        FORMAT,
        ErrorKind::InvalidValue,
        format!("JSON serialisation failed: {e}"),
        Location::None,
    )
}

/// `v` scaled to length 1 (in `f64`), or `fallback` when it has no direction.
fn unit(v: [f32; 3], fallback: [f32; 3]) -> [f32; 3] {
    let [x, y, z] = v.map(f64::from);
    let len = (x * x + y * y + z * z).sqrt();
    if len > 1e-30 && len.is_finite() {
        [(x / len) as f32, (y / len) as f32, (z / len) as f32]
    } else {
        fallback
    }
}

/// The smallest `f32` greater than `t` (for `t >= 0`, finite).
fn next_after(t: f32) -> f32 {
    if t == 0.0 {
        f32::from_bits(1)
    } else {
        f32::from_bits(t.to_bits() + 1)
    }
}

/// Makes `times` strictly increasing by moving each time that is not past its predecessor
/// just past it; returns whether anything moved.
fn strictly_increasing(times: &mut [f32]) -> bool {
    let mut moved = false;
    for k in 1..times.len() {
        if times[k] <= times[k - 1] || times[k].is_nan() {
            times[k] = next_after(times[k - 1]);
            moved = true;
        }
    }
    moved
}

#[cfg(test)]
mod tests {
    use super::strictly_increasing;
    use crate::model::{quat_to_y_up, to_y_up};

    #[test]
    fn quaternions_turn_like_points() {
        // Rotating then converting equals converting then rotating by the converted
        // quaternion.
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let q = crate::math::Quat::from_array([0.0, 0.0, h, h]);
        let p = [1.0, 2.0, 3.0];
        let a = to_y_up(q.rotate(p));
        let b = crate::math::Quat::from_array(quat_to_y_up(q.to_array())).rotate(to_y_up(p));
        for k in 0..3 {
            assert!((a[k] - b[k]).abs() < 1e-6, "{a:?} {b:?}");
        }
    }

    #[test]
    fn times_are_made_strictly_increasing() {
        let mut t = [0.0, 0.0, 0.5, 0.25];
        assert!(strictly_increasing(&mut t));
        assert!(t.windows(2).all(|w| w[0] < w[1]));
        let mut ok = [0.0, 0.1, 0.2];
        assert!(!strictly_increasing(&mut ok));
    }
}
