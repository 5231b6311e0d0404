//! The binary buffer: buffer views on 4-byte boundaries (no stride: one accessor a view),
//! typed accessors with exact bounds, images, and the containers (GLB, `data:` URIs).
//!
//! The quantised export ([`Packed`]) puts its vertex data in a few shared views instead, one
//! per element stride (4, 8 and 12 bytes, every element starting on a 4-byte boundary as
//! glTF wants of vertex attributes) and one without stride for sparse indices and values
//! (tightly packed), each accessor at its offset: thousands of morph targets then cost
//! thousands of accessors but no more views.

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked::Valid, USize64};
use serde_json::Value;
use std::collections::HashMap;

use super::quantize::{index_size, Column, Component, Rows};
use super::{Builder, Placement, FORMAT};
use crate::error::{Error, ErrorKind, Location, Result};

/// The views of the quantised export and the accessors written so far, for sharing.
#[derive(Debug, Default)]
pub(super) struct Packed {
    /// Per slot ([`SLOT_STRIDES`], then the sparse slot): the view, pushed on first use,
    /// and its bytes, placed in the buffer when the document is finished.
    slots: [Option<(json::Index<json::buffer::View>, Vec<u8>)>; 4],
    /// Accessors written, by a key of their content: a morph target equal to an earlier
    /// one (a held pose, a repeated frame) refers to the same accessors.
    pub shared: HashMap<Vec<u8>, Vec<json::Index<json::Accessor>>>,
    /// Whether a position or normal was written with integers: the file then requires
    /// `KHR_mesh_quantization` (normalised texture coordinates and weights are core glTF).
    pub integers: bool,
    /// Views whose bytes are filtered for meshopt compression ([`Builder::filtered_column`]),
    /// with their filter.
    pub filtered: Vec<(usize, crate::interchange::gltf::meshopt::Filter)>,
}

/// The element strides of the vertex-data slots.
const SLOT_STRIDES: [usize; 3] = [4, 8, 12];
/// The slot of sparse indices and values.
const SPARSE: usize = 3;

/// A component type as glTF's.
fn component_type(c: Component) -> ComponentType {
    match c {
        Component::I8 => ComponentType::I8,
        Component::U8 => ComponentType::U8,
        Component::I16 => ComponentType::I16,
        Component::U16 => ComponentType::U16,
        Component::F32 => ComponentType::F32,
    }
}

/// `min`/`max` as JSON: integers for integer columns, the `f32` values for float ones.
fn json_bounds(col: &Column, (lo, hi): ([f64; 3], [f64; 3])) -> (Value, Value) {
    let json = |a: [f64; 3]| match col.rows {
        Rows::Int(_) => Value::from(a.iter().map(|&x| x as i64).collect::<Vec<_>>()),
        Rows::Float(_) => Value::from(a.to_vec()),
    };
    (json(lo), json(hi))
}

/// Pads `bin` with `byte` to a multiple of 4.
pub(super) fn pad(bin: &mut Vec<u8>, byte: u8) {
    while !bin.len().is_multiple_of(4) {
        bin.push(byte);
    }
}

/// The document's one buffer.
pub(super) fn buffer(len: usize, uri: Option<String>) -> json::Buffer {
    json::Buffer {
        byte_length: USize64::from(len),
        name: None,
        uri,
        extensions: None,
        extras: Default::default(),
    }
}

/// A GLB container: the JSON chunk (padded with spaces) and, when there is one, the BIN chunk
/// (padded with zeros). Fails past GLB's 4 GiB.
pub(super) fn glb(mut json: Vec<u8>, bin: &[u8]) -> Result<Vec<u8>> {
    pad(&mut json, b' ');
    let mut bin = bin.to_vec();
    pad(&mut bin, 0);
    let total = 12
        + 8
        + json.len() as u64
        + if bin.is_empty() {
            0
        } else {
            8 + bin.len() as u64
        };
    let total = u32::try_from(total).map_err(|_| {
        Error::new(
            FORMAT,
            ErrorKind::LimitExceeded,
            format!("the GLB would take {total} bytes, more than the format's 4 GiB"),
            Location::None,
        )
    })?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&total.to_le_bytes());
    out.extend_from_slice(&(json.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(&json);
    if !bin.is_empty() {
        out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
        out.extend_from_slice(b"BIN\0");
        out.extend_from_slice(&bin);
    }
    Ok(out)
}

/// Standard base64 with padding.
pub(super) fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> shift & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A relative file name as a URI reference: everything but unreserved characters and `/`
/// percent-encoded (UTF-8).
pub(super) fn uri_encode(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for &b in name.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Elements an accessor can hold: `N` components of one type.
pub(super) trait Element: Copy {
    /// The accessor type.
    const TYPE: Type;
    /// The component type.
    const COMPONENT: ComponentType;
    /// Appends the little-endian bytes.
    fn put(&self, out: &mut Vec<u8>);
}

macro_rules! element {
    ($t:ty, $n:literal, $ty:expr, $ct:expr) => {
        impl Element for [$t; $n] {
            const TYPE: Type = $ty;
            const COMPONENT: ComponentType = $ct;
            fn put(&self, out: &mut Vec<u8>) {
                for c in self {
                    out.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
    };
}

element!(f32, 1, Type::Scalar, ComponentType::F32);
element!(f32, 2, Type::Vec2, ComponentType::F32);
element!(f32, 3, Type::Vec3, ComponentType::F32);
element!(f32, 4, Type::Vec4, ComponentType::F32);
element!(f32, 16, Type::Mat4, ComponentType::F32);
element!(u8, 4, Type::Vec4, ComponentType::U8);
element!(u16, 4, Type::Vec4, ComponentType::U16);
element!(u16, 1, Type::Scalar, ComponentType::U16);
element!(u32, 1, Type::Scalar, ComponentType::U32);

/// Per-component minimum and maximum of float elements, as JSON numbers that are exactly the
/// `f32` values (written through `f64`, so a reader comparing in either precision agrees).
fn bounds<const N: usize>(data: &[[f32; N]]) -> (Value, Value) {
    let mut lo = [f32::INFINITY; N];
    let mut hi = [f32::NEG_INFINITY; N];
    for v in data {
        for k in 0..N {
            lo[k] = lo[k].min(v[k]);
            hi[k] = hi[k].max(v[k]);
        }
    }
    let json = |a: [f32; N]| Value::from(a.iter().map(|&x| f64::from(x)).collect::<Vec<_>>());
    (json(lo), json(hi))
}

impl Builder<'_> {
    /// A buffer view over `bytes`, starting on a 4-byte boundary.
    pub(super) fn view(
        &mut self,
        bytes: &[u8],
        target: Option<Target>,
    ) -> json::Index<json::buffer::View> {
        pad(&mut self.bin, 0);
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor over `data` (not empty) in a view of its own.
    fn accessor<E: Element>(
        &mut self,
        data: &[E],
        target: Option<Target>,
        bounds: Option<(Value, Value)>,
    ) -> json::Index<json::Accessor> {
        let mut bytes = Vec::with_capacity(data.len() * 4);
        for e in data {
            e.put(&mut bytes);
        }
        let view = self.view(&bytes, target);
        let (min, max) = match bounds {
            Some((lo, hi)) => (Some(lo), Some(hi)),
            None => (None, None),
        };
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(data.len()),
            component_type: Valid(GenericComponentType(E::COMPONENT)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(E::TYPE),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// Float elements, with `min`/`max` when `with_bounds`.
    pub(super) fn floats<const N: usize>(
        &mut self,
        data: &[[f32; N]],
        target: Option<Target>,
        with_bounds: bool,
    ) -> json::Index<json::Accessor>
    where
        [f32; N]: Element,
    {
        let b = with_bounds.then(|| bounds(data));
        self.accessor(data, target, b)
    }

    /// Animation times: scalars with bounds (which glTF requires of sampler inputs).
    pub(super) fn times(&mut self, times: &[f32]) -> json::Index<json::Accessor> {
        let data: Vec<[f32; 1]> = times.iter().map(|&t| [t]).collect();
        self.floats(&data, None, true)
    }

    /// Integer elements (indices, joints), no bounds.
    pub(super) fn integers<E: Element>(
        &mut self,
        data: &[E],
        target: Option<Target>,
    ) -> json::Index<json::Accessor> {
        self.accessor(data, target, None)
    }

    /// Appends `bytes` to packed slot `slot` (on a 4-byte boundary), pushing its view on
    /// first use; returns the view and the offset in it.
    fn slot_put(&mut self, slot: usize, bytes: &[u8]) -> (json::Index<json::buffer::View>, usize) {
        if self.packed.slots[slot].is_none() {
            let stride = SLOT_STRIDES.get(slot).copied();
            let view = self.root.push(json::buffer::View {
                buffer: json::Index::new(0),
                byte_length: USize64(0),
                byte_offset: None,
                byte_stride: stride.map(json::buffer::Stride),
                name: None,
                target: stride.map(|_| Valid(Target::ArrayBuffer)),
                extensions: None,
                extras: Default::default(),
            });
            self.packed.slots[slot] = Some((view, Vec::new()));
        }
        let (view, data) = self.packed.slots[slot].as_mut().expect("slot made above");
        pad(data, 0);
        let offset = data.len();
        data.extend_from_slice(bytes);
        (*view, offset)
    }

    /// Places the packed slots' bytes in the buffer and gives their views offsets and
    /// lengths (when the document is finished).
    pub(super) fn place_packed(&mut self) {
        for slot in std::mem::take(&mut self.packed.slots).into_iter().flatten() {
            let (view, data) = slot;
            pad(&mut self.bin, 0);
            let v = &mut self.root.buffer_views[view.value()];
            v.byte_offset = Some(USize64::from(self.bin.len()));
            v.byte_length = USize64::from(data.len());
            self.bin.extend_from_slice(&data);
        }
    }

    /// A quantised-export accessor of `count` elements of `ty` read from `view` at
    /// `offset` (none: zeros, or what `sparse` gives).
    #[allow(clippy::too_many_arguments)]
    fn packed_accessor(
        &mut self,
        view: Option<(json::Index<json::buffer::View>, usize)>,
        count: usize,
        component: Component,
        normalized: bool,
        ty: Type,
        bounds: Option<(Value, Value)>,
        sparse: Option<json::accessor::sparse::Sparse>,
    ) -> json::Index<json::Accessor> {
        let (min, max) = match bounds {
            Some((lo, hi)) => (Some(lo), Some(hi)),
            None => (None, None),
        };
        self.root.push(json::Accessor {
            buffer_view: view.map(|v| v.0),
            byte_offset: view.map(|v| USize64::from(v.1)),
            count: USize64::from(count),
            component_type: Valid(GenericComponentType(component_type(component))),
            extensions: None,
            extras: Default::default(),
            type_: Valid(ty),
            min,
            max,
            name: None,
            normalized,
            sparse,
        })
    }

    /// `col` as a vertex attribute: every element in the slot of its stride, with
    /// `min`/`max` when `with_bounds`.
    pub(super) fn dense_column(
        &mut self,
        col: &Column,
        with_bounds: bool,
    ) -> json::Index<json::Accessor> {
        self.packed.integers |= col.component != Component::F32;
        let stride = col.stride();
        let mut bytes = Vec::with_capacity(col.len() * stride);
        for v in 0..col.len() {
            col.put(v, stride, &mut bytes);
        }
        let slot = SLOT_STRIDES
            .iter()
            .position(|&s| s == stride)
            .expect("strides 4, 8, 12");
        let at = self.slot_put(slot, &bytes);
        let bounds = with_bounds.then(|| json_bounds(col, col.bounds(None, false)));
        self.packed_accessor(
            Some(at),
            col.len(),
            col.component,
            col.normalized,
            Type::Vec3,
            bounds,
            None,
        )
    }

    /// `col` (base normals, normalised shorts) as a vertex attribute in a view of its own
    /// holding `filtered`, the octahedral filter's input whose decoding `col` is (meshopt
    /// compression: the view is stored with the OCTAHEDRAL filter).
    pub(super) fn filtered_column(
        &mut self,
        col: &Column,
        filtered: &[u8],
    ) -> json::Index<json::Accessor> {
        self.packed.integers = true;
        let view = self.view(filtered, Some(Target::ArrayBuffer));
        self.root.buffer_views[view.value()].byte_stride = Some(json::buffer::Stride(8));
        self.packed.filtered.push((
            view.value(),
            crate::interchange::gltf::meshopt::Filter::Octahedral,
        ));
        self.packed_accessor(
            Some((view, 0)),
            col.len(),
            col.component,
            col.normalized,
            Type::Vec3,
            None,
            None,
        )
    }

    /// `cols` (of one length, at least 1) as sparse accessors over zeros holding the rows
    /// `rows` (one index list for all), each with `min`/`max` when its flag says. With no
    /// rows, row 0 is written: glTF allows an accessor with neither data nor sparse values
    /// (all zeros), but the `gltf` crate and Assimp refuse one.
    pub(super) fn sparse_columns(
        &mut self,
        cols: &[(&Column, bool)],
        rows: &[u32],
    ) -> Vec<json::Index<json::Accessor>> {
        let count = cols.first().map_or(0, |c| c.0.len());
        self.packed.integers |= cols.iter().any(|c| c.0.component != Component::F32);
        let rows = if rows.is_empty() { &[0][..] } else { rows };
        let indices = self.sparse_indices(count, rows);
        cols.iter()
            .map(|&(col, with_bounds)| {
                let mut bytes = Vec::with_capacity(rows.len() * col.packed_size());
                for &v in rows {
                    col.put(v as usize, col.packed_size(), &mut bytes);
                }
                let sparse = self.sparse(indices.clone(), rows.len(), &bytes);
                let with_zero = rows.len() < count;
                let bounds =
                    with_bounds.then(|| json_bounds(col, col.bounds(Some(rows), with_zero)));
                self.packed_accessor(
                    None,
                    count,
                    col.component,
                    col.normalized,
                    Type::Vec3,
                    bounds,
                    Some(sparse),
                )
            })
            .collect()
    }

    /// Sparse substitution of `count` elements at `indices` by the packed `values`.
    fn sparse(
        &mut self,
        indices: json::accessor::sparse::Indices,
        count: usize,
        values: &[u8],
    ) -> json::accessor::sparse::Sparse {
        let (view, offset) = self.slot_put(SPARSE, values);
        json::accessor::sparse::Sparse {
            count: USize64::from(count),
            indices,
            values: json::accessor::sparse::Values {
                buffer_view: view,
                byte_offset: USize64::from(offset),
                extensions: None,
                extras: Default::default(),
            },
            extensions: None,
            extras: Default::default(),
        }
    }

    /// The sparse indices `rows` of an accessor of `count` elements, in the smallest
    /// unsigned type that holds them.
    fn sparse_indices(&mut self, count: usize, rows: &[u32]) -> json::accessor::sparse::Indices {
        let size = index_size(count);
        let mut bytes = Vec::with_capacity(rows.len() * size);
        for &r in rows {
            bytes.extend_from_slice(&r.to_le_bytes()[..size]);
        }
        let (view, offset) = self.slot_put(SPARSE, &bytes);
        let ct = match size {
            1 => ComponentType::U8,
            2 => ComponentType::U16,
            _ => ComponentType::U32,
        };
        json::accessor::sparse::Indices {
            buffer_view: view,
            byte_offset: USize64::from(offset),
            component_type: Valid(json::accessor::IndexComponentType(ct)),
            extensions: None,
            extras: Default::default(),
        }
    }

    /// Texture coordinates as normalised `UNSIGNED_SHORT`s.
    pub(super) fn packed_texcoords(&mut self, uvs: &[[u16; 2]]) -> json::Index<json::Accessor> {
        let mut bytes = Vec::with_capacity(uvs.len() * 4);
        for uv in uvs {
            bytes.extend_from_slice(&uv[0].to_le_bytes());
            bytes.extend_from_slice(&uv[1].to_le_bytes());
        }
        let at = self.slot_put(0, &bytes);
        self.packed_accessor(
            Some(at),
            uvs.len(),
            Component::U16,
            true,
            Type::Vec2,
            None,
            None,
        )
    }

    /// `count` (at least 1) scalars that are 0 but at `ones` (increasing), where they are 1:
    /// normalised `UNSIGNED_BYTE`s, the ones as sparse values over zeros (one-hot morph
    /// weights; with no ones, a zero at index 0, see [`Builder::sparse_columns`]).
    pub(super) fn one_hot(&mut self, count: usize, ones: &[u32]) -> json::Index<json::Accessor> {
        let values: Vec<u8> = if ones.is_empty() {
            vec![0]
        } else {
            vec![255; ones.len()]
        };
        let ones = if ones.is_empty() { &[0][..] } else { ones };
        let indices = self.sparse_indices(count, ones);
        let sparse = Some(self.sparse(indices, ones.len(), &values));
        self.packed_accessor(None, count, Component::U8, true, Type::Scalar, None, sparse)
    }

    /// An image file (`image/png` or `image/jpeg`), placed as the export asks (buffer view,
    /// `data:` URI or side file).
    pub(super) fn image(&mut self, name: String, file: ImageFile) -> json::Index<json::Image> {
        let (bytes, mime) = (file.bytes, file.mime);
        let extension = if mime == "image/jpeg" { "jpg" } else { "png" };
        let (buffer_view, uri) = match &self.placement {
            Placement::Glb => (Some(self.view(&bytes, None)), None),
            Placement::Embedded => (None, Some(format!("data:{mime};base64,{}", base64(&bytes)))),
            Placement::Files { prefix } => {
                let file = if prefix.is_empty() {
                    format!("{name}.{extension}")
                } else {
                    format!("{prefix}_{name}.{extension}")
                };
                let uri = uri_encode(&file);
                self.files.push((file, bytes.into_owned()));
                (None, Some(uri))
            }
        };
        let mime = Some(json::image::MimeType(mime.to_string()));
        self.root.push(json::Image {
            buffer_view,
            mime_type: mime,
            name: Some(name),
            uri,
            extensions: None,
            extras: Default::default(),
        })
    }
}

/// The bytes of an image file for [`Builder::image`] and their media type.
pub(super) struct ImageFile<'a> {
    /// The file.
    pub bytes: std::borrow::Cow<'a, [u8]>,
    /// `image/png` or `image/jpeg`.
    pub mime: &'static str,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn uris_keep_safe_characters() {
        assert_eq!(uri_encode("dir/a-b_c.1~.png"), "dir/a-b_c.1~.png");
        assert_eq!(uri_encode("my model é.bin"), "my%20model%20%C3%A9.bin");
    }

    #[test]
    fn glb_chunks_are_aligned() {
        let g = glb(b"{}".to_vec(), &[1, 2, 3, 4, 5]).unwrap();
        assert_eq!(&g[..4], b"glTF");
        assert_eq!(g.len() % 4, 0);
        assert_eq!(
            u32::from_le_bytes(g[8..12].try_into().unwrap()) as usize,
            g.len()
        );
        assert_eq!(&g[12..20], &[4, 0, 0, 0, b'J', b'S', b'O', b'N']);
        assert_eq!(&g[20..24], b"{}  ");
        assert_eq!(&g[24..32], &[8, 0, 0, 0, b'B', b'I', b'N', 0]);
    }
}
