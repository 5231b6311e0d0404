//! meshopt compression of the finished document's buffer views
//! ([`GltfOptions::compress`](super::GltfOptions::compress)): every view that accessors
//! read is stored compressed in the buffer (buffer 0, the GLB's binary chunk) and points at
//! a fallback buffer of the uncompressed size that holds no data (buffer 1, marked
//! `fallback`), so the file requires the extension. Triangle-list indices use mode
//! TRIANGLES (the triangle codec), everything else mode ATTRIBUTES (the vertex codec) with
//! the view's stride, or its accessors' element size, or 4 bytes (the view padded to a whole
//! number of elements); views of base normals hold octahedral-filtered data already
//! ([`super::buffers::Packed::filtered`]) and are marked OCTAHEDRAL. Images, and views that
//! the codecs would not make smaller, stay uncompressed in buffer 0.

use gltf_json as json;
use json::validation::Checked::Valid;
use json::validation::USize64;
use serde_json::{json as value, Value};

use super::buffers::pad;
use crate::error::Result;
use crate::interchange::gltf::meshopt::{self, Filter};

/// What the compression did to the document, for the JSON that `gltf_json` cannot hold
/// (it keeps no unknown extension): the extension objects of the compressed views and the
/// fallback buffer.
#[derive(Debug)]
pub(super) struct Compressed {
    /// The extension's name.
    pub name: &'static str,
    /// Per compressed view: its index and its extension object.
    pub views: Vec<(usize, Value)>,
    /// The fallback buffer's length (every compressed view's uncompressed bytes).
    pub fallback: usize,
}

/// How a view is read.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Use {
    /// Elements of this many bytes (0: sparse data, of mixed sizes).
    Element(usize),
    /// By an image: kept as it is.
    Image,
}

/// Compresses the views of `root` over `bin` (buffer 0); returns the new buffer 0 and what
/// the JSON needs. `filtered` lists views whose bytes are already filtered.
pub(super) fn compress(
    root: &mut json::Root,
    bin: &[u8],
    name: &'static str,
    filtered: &[(usize, Filter)],
) -> Result<(Vec<u8>, Compressed)> {
    let n = root.buffer_views.len();
    let mut uses: Vec<Vec<Use>> = vec![Vec::new(); n];
    for a in &root.accessors {
        if let (Some(v), Valid(ct), Valid(ty)) = (a.buffer_view, &a.component_type, &a.type_) {
            uses[v.value()].push(Use::Element(ct.0.size() * ty.multiplicity()));
        }
        if let Some(s) = &a.sparse {
            uses[s.indices.buffer_view.value()].push(Use::Element(0));
            uses[s.values.buffer_view.value()].push(Use::Element(0));
        }
    }
    for i in &root.images {
        if let Some(v) = i.buffer_view {
            uses[v.value()].push(Use::Image);
        }
    }
    // Views of triangle-list indices: the index size, when one accessor reads the whole view.
    let mut triangles: Vec<Option<usize>> = vec![None; n];
    for p in root.meshes.iter().flat_map(|m| &m.primitives) {
        let Some(a) = p.indices.map(|i| &root.accessors[i.value()]) else {
            continue;
        };
        let (Some(v), Valid(ct)) = (a.buffer_view, &a.component_type) else {
            continue;
        };
        let size = ct.0.size();
        let view = &root.buffer_views[v.value()];
        let whole = a.byte_offset.is_none_or(|o| o.0 == 0)
            && view.byte_length.0 as usize == a.count.0 as usize * size
            && uses[v.value()].len() == 1;
        if p.mode == Valid(json::mesh::Mode::Triangles)
            && whole
            && (size == 2 || size == 4)
            && (a.count.0 as usize).is_multiple_of(3)
        {
            triangles[v.value()] = Some(size);
        }
    }
    let mut out = Vec::new();
    let mut views = Vec::new();
    let mut fallback = 0usize;
    for (i, view) in root.buffer_views.iter_mut().enumerate() {
        let start = view.byte_offset.map_or(0, |o| o.0 as usize);
        let data = &bin[start..start + view.byte_length.0 as usize];
        pad(&mut out, 0);
        if uses[i].is_empty() || uses[i].contains(&Use::Image) || data.is_empty() {
            view.byte_offset = Some(USize64::from(out.len()));
            out.extend_from_slice(data);
            continue;
        }
        let filter = filtered
            .iter()
            .find(|f| f.0 == i)
            .map_or(Filter::None, |f| f.1);
        let (mode, stride, encoded) = if let Some(size) = triangles[i] {
            let indices = meshopt::index_words(data, size);
            ("TRIANGLES", size, meshopt::encode_index_buffer(&indices)?)
        } else {
            let sizes = &uses[i];
            let stride = match view.byte_stride {
                Some(s) => s.0,
                None => match sizes[0] {
                    Use::Element(s)
                        if s > 0
                            && s <= 256
                            && s.is_multiple_of(4)
                            && sizes.iter().all(|&u| u == sizes[0]) =>
                    {
                        s
                    }
                    _ => 4,
                },
            };
            let mut padded = data.to_vec();
            padded.resize(data.len().next_multiple_of(stride), 0);
            let enc = meshopt::encode_vertex_buffer(&padded, stride)?;
            ("ATTRIBUTES", stride, enc)
        };
        // Tiny views (a few vertices) can come out larger: kept as they are, in buffer 0.
        // A filtered view never is (its bytes are the filter's input).
        if filter == Filter::None && encoded.len() >= data.len() {
            view.byte_offset = Some(USize64::from(out.len()));
            out.extend_from_slice(data);
            continue;
        }
        let length = data.len().next_multiple_of(stride);
        let mut ext = value!({
            "buffer": 0,
            "byteOffset": out.len(),
            "byteLength": encoded.len(),
            "byteStride": stride,
            "count": length / stride,
            "mode": mode,
        });
        if filter == Filter::Octahedral {
            ext["filter"] = value!("OCTAHEDRAL");
        }
        out.extend_from_slice(&encoded);
        fallback = fallback.next_multiple_of(4);
        view.buffer = json::Index::new(1);
        view.byte_offset = Some(USize64::from(fallback));
        view.byte_length = USize64::from(length);
        fallback += length;
        views.push((i, ext));
    }
    pad(&mut out, 0);
    Ok((
        out,
        Compressed {
            name,
            views,
            fallback: fallback.next_multiple_of(4),
        },
    ))
}

/// The document as JSON with what [`compress`] did: the views' extension objects and the
/// fallback buffer (after buffer 0).
pub(super) fn finish(root: &json::Root, c: Option<&Compressed>) -> Result<Value> {
    let mut doc = serde_json::to_value(root).map_err(super::json_error)?;
    let Some(c) = c else { return Ok(doc) };
    for (i, ext) in &c.views {
        doc["bufferViews"][*i]["extensions"] = value!({ c.name: ext });
    }
    if let (false, Some(buffers)) = (c.views.is_empty(), doc["buffers"].as_array_mut()) {
        buffers.push(value!({
            "byteLength": c.fallback,
            "extensions": { c.name: { "fallback": true } },
        }));
    }
    Ok(doc)
}

#[cfg(test)]
mod tests {
    use crate::formats::quake_mdl::fixtures;
    use crate::interchange::gltf::{to_glb, Compress, GltfOptions};
    use crate::{Limits, NoFiles};

    /// The JSON chunk of a GLB.
    fn json(glb: &[u8]) -> serde_json::Value {
        let n = u32::from_le_bytes(glb[12..16].try_into().unwrap()) as usize;
        serde_json::from_slice(&glb[20..20 + n]).unwrap()
    }

    /// Each triangle of mesh `m` as its corners' position in every pose and texture
    /// coordinates (bits, exact) and normals, turned to start at its least corner (the
    /// winding kept), the triangles sorted: the drawn mesh whatever the vertex order.
    #[allow(clippy::type_complexity)]
    fn drawn(m: &crate::model::Mesh) -> Vec<(Vec<Vec<u32>>, Vec<[f32; 3]>)> {
        let corner = |v: u32| -> Vec<u32> {
            let v = v as usize;
            let mut k: Vec<u32> = m.positions[v].iter().map(|c| c.to_bits()).collect();
            for t in &m.morph_targets {
                k.extend(t.positions[v].iter().map(|c| c.to_bits()));
            }
            k.extend(m.uvs.get(v).into_iter().flatten().map(|c| c.to_bits()));
            k
        };
        let mut out: Vec<(Vec<Vec<u32>>, Vec<[f32; 3]>)> = m
            .triangles
            .iter()
            .map(|t| {
                let keys = t.map(corner);
                let first = (0..3).min_by_key(|&i| &keys[i]).unwrap();
                let order = [first, (first + 1) % 3, (first + 2) % 3];
                let normals = order.map(|i| m.normals[t[i] as usize]).to_vec();
                (order.map(|i| keys[i].clone()).to_vec(), normals)
            })
            .collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// A compressed export reads back as the quantised one: the same triangles with the same
    /// poses (the vertex codec is lossless; normals within the quantised file's tolerance), its
    /// vertices welded and reordered, under either extension name.
    #[test]
    fn compressed_reads_back_as_quantised() {
        let bytes = fixtures::build(&fixtures::Spec::everything()).write();
        let model = crate::read(&bytes, &Limits::default(), &NoFiles).unwrap();
        let export = |quantize, compress| {
            let options = GltfOptions {
                quantize,
                compress,
                ..GltfOptions::default()
            };
            to_glb(&model, &options).unwrap().0
        };
        let q = export(true, Compress::None);
        let read = |glb: &[u8]| crate::read(glb, &Limits::default(), &NoFiles).unwrap();
        let mq = read(&q);
        for (compress, name) in [
            (Compress::Ext, "EXT_meshopt_compression"),
            (Compress::Khr, "KHR_meshopt_compression"),
        ] {
            // Without `quantize`: implied.
            let c = export(false, compress);
            let doc = json(&c);
            assert!(doc["extensionsRequired"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e == name));
            assert_eq!(doc["buffers"][1]["extensions"][name]["fallback"], true);
            assert!(doc["buffers"][1].get("uri").is_none());
            let mc = read(&c);
            assert_eq!(mc.frames.len(), mq.frames.len());
            assert_eq!(mc.meshes.len(), mq.meshes.len());
            for (a, b) in mc.meshes.iter().zip(&mq.meshes) {
                assert!(a.positions.len() <= b.positions.len());
                assert_eq!(a.morph_targets.len(), b.morph_targets.len());
                let (da, db) = (drawn(a), drawn(b));
                assert_eq!(da.len(), db.len());
                for ((ka, na), (kb, nb)) in da.iter().zip(&db) {
                    assert_eq!(ka, kb);
                    for (na, nb) in na.iter().zip(nb) {
                        // Each within 0.01 radian of the model's normal.
                        let d: f32 = (0..3).map(|k| (na[k] - nb[k]).abs()).sum();
                        assert!(d < 0.035, "{na:?} {nb:?}");
                    }
                }
            }
        }
    }
}
