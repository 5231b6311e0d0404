//! The binary buffer: buffer views on 4-byte boundaries (no stride: one accessor a view),
//! typed accessors with exact bounds, images, and the containers (GLB, `data:` URIs).

use gltf_json as json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::buffer::Target;
use json::validation::{Checked::Valid, USize64};
use serde_json::Value;

use super::{Builder, Placement, FORMAT};
use crate::error::{Error, ErrorKind, Location, Result};

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

    /// A PNG image, placed as the export asks (buffer view, `data:` URI or side file).
    pub(super) fn image(&mut self, name: String, png: Vec<u8>) -> json::Index<json::Image> {
        let mime = Some(json::image::MimeType("image/png".to_string()));
        let (buffer_view, uri) = match &self.placement {
            Placement::Glb => (Some(self.view(&png, None)), None),
            Placement::Embedded => (
                None,
                Some(format!("data:image/png;base64,{}", base64(&png))),
            ),
            Placement::Files { prefix } => {
                let file = if prefix.is_empty() {
                    format!("{name}.png")
                } else {
                    format!("{prefix}_{name}.png")
                };
                let uri = uri_encode(&file);
                self.files.push((file, png));
                (None, Some(uri))
            }
        };
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
