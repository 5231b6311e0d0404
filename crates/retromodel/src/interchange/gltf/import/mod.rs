//! glTF 2.0 import (`.glb`, `.gltf` with embedded or side-car buffers).
//!
//! Source: the Khronos glTF 2.0 specification; the `gltf` crate parses and validates the
//! JSON and the GLB container, every accessor is read here with its ranges checked
//! (the `accessor` module). Files that require `KHR_mesh_quantization` are read: their
//! integer and normalised attributes are decoded like any other, and positions go through
//! the node transforms that dequantise them.
//!
//! - **Scene.** The default scene (else the first, else every root node) is walked; each
//!   primitive drawn as triangles, a strip or a fan becomes a [`Mesh`](crate::model::Mesh)
//!   (points and lines are left out with a warning). Unskinned meshes are placed by their
//!   node's world transform; skinned meshes stay in their bind space, as the specification
//!   says. Y-up becomes the model's Z-up ([`from_y_up`](crate::math::from_y_up)) and the
//!   counter-clockwise fronts become the model's clockwise ones (mirroring nodes keep
//!   theirs). Missing normals are computed (area-weighted); missing texture coordinates are
//!   zero.
//! - **Poses.** One clip per glTF animation. When an animation only drives morph weights
//!   and every key shows one whole pose (one weight 1, the others 0, as the exporter of this
//!   crate writes them), its frames are exactly those poses with the key times as timing,
//!   named by the scene's `extras.frameNames` or the meshes' `extras.targetNames`. Every
//!   other animation (skinning, node motion, blended weights) is sampled at `fps` (default
//!   10) from its first key to its last inclusive, frames named `<clip><n>` from 1. Without
//!   animations the model has one frame, the rest pose.
//! - **Skeleton.** The first skin becomes [`Model::joints`](crate::model::Model) (bind poses from
//!   the inverse bind matrices, parents from the node tree, parents first) with each
//!   vertex's `JOINTS_n`/`WEIGHTS_n` as joint weights, and each animation that moves it a
//!   [`SkeletalAnimation`](crate::model::SkeletalAnimation) of local joint transforms: at
//!   its keys when every channel shares evenly spaced key times, else sampled at `fps`
//!   (default 24). The weight scale helpers this crate's exporter writes (leaf joints named
//!   `<joint>.md5scale`, see the `skin` module) are no joints of the model: their scales
//!   become the animation's [`WeightScales`](crate::model::WeightScales) and their
//!   influences go to their joint.
//! - **Skins.** Each base-colour texture is a skin (PNG, JPEG and the other formats
//!   [`crate::image::decode`] reads; anything else is an error unless textures are skipped),
//!   named as its material (else its picture).
//! - **Compressed buffer views.** `EXT_meshopt_compression` and `KHR_meshopt_compression`
//!   (gltfpack, glTF-Transform, three.js tools) are decoded before anything reads them
//!   ([`super::meshopt`]: the vertex, triangle and index sequence codecs and the filters);
//!   fallback buffers without data are not loaded.

mod accessor;
mod animate;
mod scene;
mod skin;

use super::meshopt;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::image::{Image, Pixels};
use crate::interchange::ImportOptions;
use crate::limits::Budget;
use crate::math;
use crate::model::{Converted, Model, Skin};
use crate::resolve::Resolver;

/// The format name in errors.
const FORMAT: &str = "gltf";

/// Each buffer's bytes, by buffer index.
pub(super) type Buffers = Vec<Vec<u8>>;

/// What an import has spent so far: the allocation budget, and the frames sampled from
/// animations (against [`Limits::max_sampled_frames`](crate::limits::Limits::max_sampled_frames)).
pub(super) struct Spent {
    pub budget: Budget,
    pub sampled: u64,
}

/// An error about the file's content.
pub(super) fn fail(kind: ErrorKind, message: String) -> Error {
    Error::new(FORMAT, kind, message, Location::None)
}

/// Reads a `.glb` or `.gltf` file. Side-car buffers and images (relative URIs) come from
/// `resolver`.
pub fn read(bytes: &[u8], resolver: &dyn Resolver, options: &ImportOptions) -> Result<Converted> {
    read_parsed(&parse(bytes)?, resolver, options)
}

/// A parsed file: the document, and its meshopt-compressed buffer views.
#[derive(Debug)]
pub(crate) struct Parsed {
    /// The document and the GLB binary chunk. Each compressed buffer view reads from a
    /// buffer of its own, added after the file's (see [`Compressed`]).
    pub gltf: gltf::Gltf,
    /// The file's buffer count (before the added ones).
    buffers: usize,
    /// The added buffers' sources, in order.
    compressed: Vec<Compressed>,
    /// Per file buffer: a meshopt fallback buffer, not loaded.
    fallback: Vec<bool>,
}

/// A buffer view stored meshopt-compressed: where its compressed bytes are and how they
/// decode. The view itself is pointed at a buffer of its own, which the decoded bytes fill.
#[derive(Debug, Clone)]
struct Compressed {
    view: usize,
    buffer: usize,
    offset: usize,
    length: usize,
    stride: usize,
    count: usize,
    mode: meshopt::Mode,
    filter: meshopt::Filter,
}

/// The meshopt extensions: Khronos' name and the original vendor one.
const MESHOPT: [&str; 2] = ["KHR_meshopt_compression", "EXT_meshopt_compression"];

/// [`read`] of a file [`parse`] has read.
pub(crate) fn read_parsed(
    p: &Parsed,
    resolver: &dyn Resolver,
    options: &ImportOptions,
) -> Result<Converted> {
    let g = &p.gltf;
    let mut warnings = Vec::new();
    let mut budget = Budget::new(&options.limits);
    let buffers = load_buffers(p, resolver, &mut budget)?;
    let doc = &g.document;
    let scene = scene::Scene::new(doc, &buffers, &mut budget, &mut warnings)?;
    if scene.instances.is_empty() {
        return Err(fail(
            ErrorKind::InvalidModel,
            "the file has no mesh drawn as triangles".into(),
        ));
    }
    let skins = if options.skip_textures {
        Vec::new()
    } else {
        load_skins(doc, &buffers, resolver, options, &mut budget)?
    };
    let skeleton = skin::Skeleton::new(doc, &scene, &buffers, &mut budget, &mut warnings)?;
    let clips = animate::Animations::new(doc, &buffers, &scene, &mut budget, &mut warnings)?;
    let mut model = Model::default();
    let mut spent = Spent { budget, sampled: 0 };
    let slot_matrices = skeleton
        .as_ref()
        .map(|s| move |world: &[math::Mat4]| s.slot_matrices(world));
    clips.frames(
        &scene,
        slot_matrices
            .as_ref()
            .map(|f| f as &animate::SlotMatrices<'_>),
        options,
        &mut model,
        &mut spent,
    )?;
    scene.meshes(&mut model, &skins);
    model.skins = skins.into_iter().map(|(_, s)| s).collect();
    if let Some(s) = &skeleton {
        s.apply(
            &scene,
            &clips,
            options,
            &mut model,
            &mut spent,
            &mut warnings,
        )?;
    }
    if scene.instances.len() > 1 {
        warnings.push(format!(
            "{} meshes read; formats with one mesh (MDL, MD2) merge them",
            model.meshes.len()
        ));
    }
    // glTF splits a vertex wherever its attributes differ (texture seams) and exporters
    // split more (Blender: a vertex shared by two fans). A file this crate wrote says which
    // file vertex each came from (`_SOURCE_VERTEX`, which Blender carries through); in
    // others, copies that are one point become one source vertex, which the keyframe
    // writers write once (MD2 always; MDL per texel).
    for (mesh, inst) in model.meshes.iter_mut().zip(&scene.instances) {
        if inst.source.is_none() {
            crate::model::weld::weld_source_vertices(mesh);
        }
    }
    model
        .validate()
        .map_err(|e| fail(ErrorKind::InvalidModel, e.message))?;
    Ok(Converted { model, warnings })
}

/// Checks that a GLB (version 2) of `length` bytes (its header's) is all there and that
/// its JSON and BIN chunks hold within the file, as the gltf crate reads them (from the
/// whole file, and nothing after the BIN chunk), so a cut file names where it ends (the gltf
/// crate says only "could not completely read the object").
fn glb_chunks(bytes: &[u8], length: u32) -> Result<()> {
    let cut = |text: String, at: usize| {
        Error::new(
            FORMAT,
            ErrorKind::Truncated,
            text,
            Location::Offset(at as u64),
        )
    };
    if length as usize > bytes.len() {
        return Err(cut(
            format!(
                "GLB header: total length {length} is past the end of the file ({} bytes)",
                bytes.len()
            ),
            8,
        ));
    }
    // The JSON chunk and the BIN chunk: what follows them is not read.
    let mut at = 12usize;
    for _ in 0..2 {
        let Some(h) = bytes.get(at..at + 8) else {
            break;
        };
        let len = u32::from_le_bytes([h[0], h[1], h[2], h[3]]) as usize;
        let left = bytes.len() - at - 8;
        if len > left {
            let kind = String::from_utf8_lossy(&h[4..8])
                .trim_end_matches('\0')
                .to_string();
            return Err(cut(
                format!("GLB chunk {kind:?}: {len} bytes declared, {left} left in the file"),
                at,
            ));
        }
        at += 8 + len;
    }
    Ok(())
}

/// Parses and validates the JSON (and the GLB container). `KHR_mesh_quantization` is
/// supported: its integer attributes are read as their accessors say and dequantised by
/// the node transforms like any other.
///
/// gltf-json 1.4's validation indexes the accessor list with a primitive's `POSITION`
/// attribute before checking it (a panic on a bad index), so that index is checked here
/// first. gltf 1.4 subtracts the 12-byte header from a GLB's total length before checking
/// it (an overflow panic under overflow checks), so that length is checked here first too.
pub(crate) fn parse(bytes: &[u8]) -> Result<Parsed> {
    if let Some(h) = bytes.get(..12).filter(|h| h.starts_with(b"glTF")) {
        let length = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
        if length < 12 {
            return Err(Error::new(
                FORMAT,
                ErrorKind::InvalidValue,
                format!("GLB header: total length {length} is smaller than the 12-byte header"),
                Location::Offset(8),
            ));
        }
        // Version 2 only: a version 1 GLB (KHR_binary_glTF) has another layout, and the
        // gltf crate names it.
        if h[4..8] == 2u32.to_le_bytes() {
            glb_chunks(bytes, length)?;
        }
    }
    let error = |e: gltf::Error| {
        let kind = match e {
            gltf::Error::Validation(_) => ErrorKind::InvalidValue,
            _ => ErrorKind::BadMagic,
        };
        fail(kind, e.to_string())
    };
    let unchecked = gltf::Gltf::from_slice_without_validation(bytes).map_err(error)?;
    let mut root = unchecked.document.into_json();
    // KHR_mesh_quantization only widens the accessor types vertex attributes may have, which
    // the accessor reader takes whatever they are; the gltf crate does not know it.
    root.extensions_required
        .retain(|e| e != crate::interchange::gltf::QUANTIZATION && !MESHOPT.contains(&e.as_str()));
    let buffers = root.buffers.len();
    let (compressed, fallback) = if root
        .extensions_used
        .iter()
        .any(|e| MESHOPT.contains(&e.as_str()))
    {
        meshopt_views(bytes, &mut root)?
    } else {
        (Vec::new(), vec![false; buffers])
    };
    for (mi, m) in root.meshes.iter().enumerate() {
        for (pi, p) in m.primitives.iter().enumerate() {
            let position = gltf::json::validation::Checked::Valid(gltf::Semantic::Positions);
            if let Some(a) = p.attributes.get(&position) {
                if a.value() >= root.accessors.len() {
                    return Err(fail(
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "meshes[{mi}].primitives[{pi}].attributes.POSITION: accessor {} \
                             does not exist ({} accessors)",
                            a.value(),
                            root.accessors.len()
                        ),
                    ));
                }
            }
        }
    }
    check_enums(&root)?;
    let document = gltf::Document::from_json(root).map_err(error)?;
    Ok(Parsed {
        gltf: gltf::Gltf {
            document,
            blob: unchecked.blob,
        },
        buffers,
        compressed,
        fallback,
    })
}

/// The JSON text of a `.glb` (its first chunk) or `.gltf`.
fn json_text(bytes: &[u8]) -> &[u8] {
    if bytes.starts_with(b"glTF") && bytes.len() >= 20 {
        let n = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
        return bytes.get(20..20usize.saturating_add(n)).unwrap_or(&[]);
    }
    bytes
}

/// The meshopt-compressed buffer views of the file, each pointed at a buffer of its own
/// added to `root` (the decoded bytes fill it when the buffers load), and the fallback
/// buffers. The `gltf` crate keeps no unknown extension, so they are read from the JSON.
fn meshopt_views(
    bytes: &[u8],
    root: &mut gltf::json::Root,
) -> Result<(Vec<Compressed>, Vec<bool>)> {
    let json: serde_json::Value = serde_json::from_slice(json_text(bytes))
        .map_err(|e| fail(ErrorKind::InvalidValue, format!("JSON: {e}")))?;
    let ext = |v: &serde_json::Value| -> Option<serde_json::Value> {
        let e = v.get("extensions")?;
        MESHOPT.iter().find_map(|n| e.get(*n)).cloned()
    };
    let fallback = (0..root.buffers.len())
        .map(|i| {
            json["buffers"]
                .get(i)
                .and_then(ext)
                .and_then(|e| e.get("fallback").and_then(serde_json::Value::as_bool))
                .unwrap_or(false)
        })
        .collect();
    let mut out = Vec::new();
    let views = json["bufferViews"].as_array().cloned().unwrap_or_default();
    for (i, v) in views.iter().enumerate() {
        let Some(e) = ext(v) else { continue };
        let what = format!("bufferViews[{i}].extensions meshopt");
        let num = |k: &str, default: Option<u64>| -> Result<usize> {
            e.get(k)
                .map(|x| x.as_u64())
                .unwrap_or(default)
                .and_then(|x| usize::try_from(x).ok())
                .ok_or_else(|| {
                    fail(
                        ErrorKind::InvalidValue,
                        format!("{what}.{k}: missing or not a count"),
                    )
                })
        };
        let text = |k: &str, default: &str| -> String {
            e.get(k)
                .and_then(serde_json::Value::as_str)
                .unwrap_or(default)
                .to_string()
        };
        let mode = match text("mode", "").as_str() {
            "ATTRIBUTES" => meshopt::Mode::Attributes,
            "TRIANGLES" => meshopt::Mode::Triangles,
            "INDICES" => meshopt::Mode::Indices,
            m => {
                return Err(fail(
                    ErrorKind::InvalidValue,
                    format!("{what}.mode: unknown mode \"{m}\""),
                ))
            }
        };
        let filter = match text("filter", "NONE").as_str() {
            "NONE" => meshopt::Filter::None,
            "OCTAHEDRAL" => meshopt::Filter::Octahedral,
            "QUATERNION" => meshopt::Filter::Quaternion,
            "EXPONENTIAL" => meshopt::Filter::Exponential,
            f => {
                return Err(fail(
                    ErrorKind::InvalidValue,
                    format!("{what}.filter: unknown filter \"{f}\""),
                ))
            }
        };
        let c = Compressed {
            view: i,
            buffer: num("buffer", None)?,
            offset: num("byteOffset", Some(0))?,
            length: num("byteLength", None)?,
            stride: num("byteStride", None)?,
            count: num("count", None)?,
            mode,
            filter,
        };
        let Some(view) = root.buffer_views.get_mut(i) else {
            continue;
        };
        if c.stride.checked_mul(c.count) != Some(view.byte_length.0 as usize) {
            return Err(fail(
                ErrorKind::InvalidValue,
                format!(
                    "{what}: {} elements of {} bytes, but the view's byteLength is {}",
                    c.count, c.stride, view.byte_length.0
                ),
            ));
        }
        if c.buffer >= root.buffers.len() {
            return Err(fail(
                ErrorKind::IndexOutOfRange,
                format!("{what}.buffer: buffer {} does not exist", c.buffer),
            ));
        }
        view.buffer = gltf::json::Index::new(root.buffers.len() as u32);
        view.byte_offset = Some(gltf::json::validation::USize64(0));
        root.buffers.push(gltf::json::Buffer {
            byte_length: view.byte_length,
            name: None,
            uri: None,
            extensions: None,
            extras: Default::default(),
        });
        out.push(c);
    }
    Ok((out, fallback))
}

/// The `gltf` crate's accessors unwrap enumerated values (component types, animation paths,
/// interpolation, primitive modes) and an image's MIME type or URI, which its validation
/// does not always reject: an unknown or missing one is an error here instead of a panic.
fn check_enums(root: &gltf::json::Root) -> Result<()> {
    use gltf::json::validation::Checked::Invalid;
    let bad = |what: String| {
        Err(fail(
            ErrorKind::InvalidValue,
            format!("{what}: unknown or missing value"),
        ))
    };
    for (i, a) in root.accessors.iter().enumerate() {
        if matches!(a.component_type, Invalid) {
            return bad(format!("accessors[{i}].componentType"));
        }
        if matches!(a.type_, Invalid) {
            return bad(format!("accessors[{i}].type"));
        }
        if let Some(s) = &a.sparse {
            if matches!(s.indices.component_type, Invalid) {
                return bad(format!("accessors[{i}].sparse.indices.componentType"));
            }
        }
    }
    for (i, a) in root.animations.iter().enumerate() {
        for (k, c) in a.channels.iter().enumerate() {
            if matches!(c.target.path, Invalid) {
                return bad(format!("animations[{i}].channels[{k}].target.path"));
            }
            if c.target.node.value() >= root.nodes.len() {
                return Err(fail(
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "animations[{i}].channels[{k}].target.node: node {} does not exist",
                        c.target.node.value()
                    ),
                ));
            }
        }
        for (k, s) in a.samplers.iter().enumerate() {
            if matches!(s.interpolation, Invalid) {
                return bad(format!("animations[{i}].samplers[{k}].interpolation"));
            }
        }
    }
    for (i, m) in root.meshes.iter().enumerate() {
        for (k, p) in m.primitives.iter().enumerate() {
            if matches!(p.mode, Invalid) {
                return bad(format!("meshes[{i}].primitives[{k}].mode"));
            }
        }
    }
    for (i, im) in root.images.iter().enumerate() {
        let ok = matches!(
            (&im.buffer_view, &im.mime_type, &im.uri),
            (Some(_), Some(_), _) | (None, _, Some(_))
        );
        if !ok {
            return bad(format!(
                "images[{i}] (a bufferView with a mimeType, or a uri)"
            ));
        }
    }
    Ok(())
}

/// The bytes of every buffer: the GLB's binary chunk, data URIs, or side-car files.
fn load_buffers(p: &Parsed, resolver: &dyn Resolver, budget: &mut Budget) -> Result<Buffers> {
    let g = &p.gltf;
    let mut out = Vec::new();
    for b in g.document.buffers().take(p.buffers) {
        let what = format!("buffer {}", b.index());
        if p.fallback.get(b.index()).copied().unwrap_or(false) {
            out.push(Vec::new());
            continue;
        }
        let data = match b.source() {
            gltf::buffer::Source::Bin => g.blob.clone().ok_or_else(|| {
                fail(
                    ErrorKind::Truncated,
                    format!("{what} refers to the binary chunk, which the file lacks"),
                )
            })?,
            gltf::buffer::Source::Uri(uri) => load_uri(uri, resolver, &what)?,
        };
        if data.len() < b.length() {
            return Err(fail(
                ErrorKind::Truncated,
                format!(
                    "{what}: {} bytes, but byteLength is {}",
                    data.len(),
                    b.length()
                ),
            ));
        }
        budget.charge(data.len() as u64).map_err(|_| {
            fail(
                ErrorKind::LimitExceeded,
                format!("{what}: {} bytes exceed the allocation limit", data.len()),
            )
        })?;
        out.push(data);
    }
    for c in &p.compressed {
        let what = format!("buffer view {} (meshopt-compressed)", c.view);
        let source = out[c.buffer]
            .get(c.offset..c.offset.saturating_add(c.length))
            .ok_or_else(|| {
                fail(
                    ErrorKind::Truncated,
                    format!(
                        "{what}: {} bytes at offset {} run past buffer {} ({} bytes)",
                        c.length,
                        c.offset,
                        c.buffer,
                        out[c.buffer].len()
                    ),
                )
            })?;
        budget
            .charge((c.count as u64).saturating_mul(c.stride as u64))
            .map_err(|_| {
                fail(
                    ErrorKind::LimitExceeded,
                    format!(
                        "{what}: {} elements of {} bytes exceed the allocation limit",
                        c.count, c.stride
                    ),
                )
            })?;
        let decoded = meshopt::decode_view(c.mode, c.filter, c.count, c.stride, source)
            .map_err(|e| fail(e.kind, format!("{what}: {}", e.message)))?;
        out.push(decoded);
    }
    Ok(out)
}

/// The bytes a URI names: a `data:` URI decoded, or a relative path through the resolver.
fn load_uri(uri: &str, resolver: &dyn Resolver, what: &str) -> Result<Vec<u8>> {
    if let Some(rest) = uri.strip_prefix("data:") {
        let Some((head, data)) = rest.split_once(',') else {
            return Err(fail(
                ErrorKind::InvalidValue,
                format!("{what}: data URI without a comma"),
            ));
        };
        if !head.ends_with(";base64") {
            return Err(fail(
                ErrorKind::Unsupported,
                format!("{what}: data URI is not base64"),
            ));
        }
        return base64_decode(data)
            .ok_or_else(|| fail(ErrorKind::InvalidValue, format!("{what}: bad base64 data")));
    }
    let path = percent_decode(uri);
    resolver.load(&path).ok_or_else(|| {
        fail(
            ErrorKind::Truncated,
            format!("{what}: cannot read \"{path}\" beside the file"),
        )
    })
}

/// `%xx` escapes of a URI decoded (a bad escape is kept as it is).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Standard base64 (padding optional, whitespace ignored), or `None` on a bad character.
fn base64_decode(s: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            b'=' | b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// The skins: one per image used as a base-colour texture, keyed by material index; a
/// named material without a texture is a skin of that name without a picture (as a skin
/// that is not found), so that a material name comes back through glTF (an IQM's).
fn load_skins(
    doc: &gltf::Document,
    buffers: &Buffers,
    resolver: &dyn Resolver,
    options: &ImportOptions,
    budget: &mut Budget,
) -> Result<Vec<(Vec<usize>, Skin)>> {
    let mut skins: Vec<(usize, Vec<usize>, Skin)> = Vec::new();
    for m in doc.materials() {
        let Some(mi) = m.index() else { continue };
        let Some(info) = m.pbr_metallic_roughness().base_color_texture() else {
            if let Some(name) = m.name().filter(|n| !n.is_empty()) {
                skins.push((
                    usize::MAX - mi,
                    vec![mi],
                    Skin {
                        source: None,
                        name: name.to_string(),
                        pictures: Vec::new(),
                        picture_times: None,
                    },
                ));
            }
            continue;
        };
        let image = info.texture().source();
        if let Some(s) = skins.iter_mut().find(|s| s.0 == image.index()) {
            s.1.push(mi);
            continue;
        }
        let what = format!(
            "image {}{}",
            image.index(),
            image
                .name()
                .map(|n| format!(" \"{n}\""))
                .unwrap_or_default()
        );
        // The material's name when it has one (this crate's exporter names materials by
        // skin, which for MD3 and MD2 is the path the engine loads), else the picture's.
        let name = match (m.name().filter(|n| !n.is_empty()), image.source()) {
            (Some(n), _) => n.to_string(),
            (None, gltf::image::Source::Uri { uri, .. }) if !uri.starts_with("data:") => {
                percent_decode(uri)
            }
            _ => image.name().unwrap_or_default().to_string(),
        };
        let bytes = texture_bytes(&image, buffers, resolver, &what)?;
        let picture = decode_picture(&bytes, options, &what)?;
        // The fullbright mask this crate's exporter writes as the emissive texture.
        let emissive = m
            .emissive_texture()
            .and_then(|e| texture_bytes(&e.texture().source(), buffers, resolver, &what).ok())
            .and_then(|b| decode_picture(&b, options, &what).ok());
        let picture = quake_indexed(&picture, emissive.as_ref()).unwrap_or(picture);
        budget
            .charge(picture.width as u64 * picture.height as u64 * 4)
            .map_err(|_| {
                fail(
                    ErrorKind::LimitExceeded,
                    format!("{what}: exceeds the allocation limit"),
                )
            })?;
        skins.push((
            image.index(),
            vec![mi],
            Skin {
                source: None,
                name,
                pictures: vec![picture],
                picture_times: None,
            },
        ));
    }
    Ok(skins.into_iter().map(|(_, m, s)| (m, s)).collect())
}

/// The bytes of an image: a buffer view, a data URI or a side file.
fn texture_bytes(
    image: &gltf::Image<'_>,
    buffers: &Buffers,
    resolver: &dyn Resolver,
    what: &str,
) -> Result<Vec<u8>> {
    match image.source() {
        gltf::image::Source::View { view, .. } => {
            let end = view.offset().checked_add(view.length());
            buffers
                .get(view.buffer().index())
                .zip(end)
                .and_then(|(d, e)| d.get(view.offset()..e))
                .map(<[u8]>::to_vec)
                .ok_or_else(|| {
                    fail(
                        ErrorKind::Truncated,
                        format!("{what}: buffer view {} runs past its buffer", view.index()),
                    )
                })
        }
        gltf::image::Source::Uri { uri, .. } => load_uri(uri, resolver, what),
    }
}

/// A picture whose every opaque pixel is a colour of the Quake palette, as Quake palette
/// indices: what this crate's exporter wrote from a Quake skin, so the skin comes back with
/// its indices. `emissive` (the exported fullbright mask: fullbright pixels coloured, the
/// rest black) says which pixels take the fullbright indices 224..=255; without it no pixel
/// does. Pixels with alpha below one half take index 255 (Quake's `MF_HOLEY` hole).
/// `None` when any pixel does not fit, so the picture stays true-colour.
fn quake_indexed(picture: &Image, emissive: Option<&Image>) -> Option<Image> {
    use crate::image::{Palette, QUAKE_FULLBRIGHT_START};
    let Pixels::Rgba8(rgba) = &picture.pixels else {
        return None;
    };
    let mask = match emissive.map(|e| (e.width, e.height, &e.pixels)) {
        Some((w, h, Pixels::Rgba8(m))) if [w, h] == [picture.width, picture.height] => Some(m),
        Some(_) => return None,
        None => None,
    };
    let palette = Palette::QUAKE;
    let (mut normal, mut bright) = (
        std::collections::HashMap::new(),
        std::collections::HashMap::new(),
    );
    for i in (0..=255u8).rev() {
        let table = if i >= QUAKE_FULLBRIGHT_START {
            &mut bright
        } else {
            &mut normal
        };
        table.insert(palette.rgb(i), i);
    }
    let mut holes = false;
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    for (k, p) in rgba.chunks_exact(4).enumerate() {
        if p[3] < 128 {
            holes = true;
            indices.push(255);
            continue;
        }
        let lit = mask.is_some_and(|m| m[4 * k..4 * k + 3] != [0, 0, 0]);
        let table = if lit { &bright } else { &normal };
        indices.push(*table.get(&[p[0], p[1], p[2]])?);
    }
    Some(Image {
        width: picture.width,
        height: picture.height,
        pixels: Pixels::Indexed {
            indices,
            palette: std::sync::Arc::new(palette),
            fullbright_start: Some(QUAKE_FULLBRIGHT_START),
            transparent_index: holes.then_some(255),
        },
        encoded: None,
    })
}

/// Decodes a texture of any format [`crate::image::decode`] reads (PNG, JPEG, and the
/// others by their magic), as RGBA8.
fn decode_picture(bytes: &[u8], options: &ImportOptions, what: &str) -> Result<Image> {
    let image = crate::image::decode(bytes, "", &options.limits).map_err(|e| {
        fail(
            e.kind,
            format!("{what}: {e} (convert it, or give the skin with --skin)"),
        )
    })?;
    Ok(match image.pixels {
        Pixels::Rgba8(_) => image,
        Pixels::Indexed { .. } => Image {
            width: image.width,
            height: image.height,
            pixels: Pixels::Rgba8(image.to_rgba8()),
            encoded: None,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_percent_decoding() {
        assert_eq!(base64_decode("aGVsbG8=").unwrap(), b"hello");
        assert_eq!(base64_decode("aGVsbG8").unwrap(), b"hello");
        assert_eq!(base64_decode("").unwrap(), b"");
        assert!(base64_decode("a*b").is_none());
        assert_eq!(percent_decode("my%20skin.png"), "my skin.png");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("a%2"), "a%2");
    }
}
