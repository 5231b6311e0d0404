//! Skin pictures: indexed (with palette, fullbright range and transparent index) or RGBA;
//! and the texture decoders, one module per format, behind one entry point, [`decode`].
//!
//! | format | module | magic | result |
//! |---|---|---|---|
//! | PNG | [`png`] (feature `png`) | `89 50 4E 47` | RGBA8 |
//! | PCX | [`pcx`] | `0A` | indexed (8-bit) or RGBA8 |
//! | TGA | `tga` (feature `textures`) | none: the name's extension | RGBA8 |
//! | JPEG | `jpeg` (feature `textures`) | `FF D8 FF` | RGBA8 |
//! | BMP | `bmp` (feature `textures`) | `BM` | RGBA8 |
//! | DDS | `dds` (feature `textures`) | `DDS ` | RGBA8 |
//! | Quake 2 WAL | `wal` (feature `textures`) | none: the name's extension | indexed, palette from the caller |
//!
//! Every decoder checks the header's sizes against [`Limits`](crate::limits::Limits) before it
//! allocates, and names its format and, where it can, the byte offset in its errors
//! (`tga: ... at offset 0x..`).

use std::sync::Arc;

use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};

#[cfg(feature = "textures")]
pub mod bmp;
pub mod bmp8;
pub mod bmp_write;
#[cfg(feature = "textures")]
pub mod dds;
#[cfg(feature = "textures")]
pub mod jpeg;
mod palette;
pub mod pcx;
#[cfg(feature = "png")]
pub mod png;
mod reduce;
pub mod resample;
#[cfg(feature = "textures")]
pub mod tga;
#[cfg(feature = "textures")]
pub mod wal;

pub use palette::Palette;
pub use reduce::{IndexOptions, Indexed};

/// First palette index that Quake draws at full brightness.
pub const QUAKE_FULLBRIGHT_START: u8 = 224;

/// The colour of a surface without a picture, a neutral grey: the renderer draws untextured
/// meshes in it, a skin atlas gives meshes without a picture a tile of it, and Quake MDL's
/// blank skin is its nearest palette colour (not index 0, which is black).
pub const UNTEXTURED: [u8; 4] = [180, 180, 180, 255];

/// A picture.
///
/// Equality compares the size and the pixels (not [`Image::encoded`]).
#[derive(Debug, Clone)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, row by row from the top.
    pub pixels: Pixels,
    /// The PNG or JPEG file the pixels were decoded from ([`decode`] keeps it), for writers
    /// that can store the file itself: glTF embeds it instead of a re-encoded PNG.
    /// [`Image::original_file`] hands it out only while a 64-bit hash of the size and pixels
    /// still matches the decoded ones, so code that changes `pixels` need not clear it.
    /// `None` for other pictures (and for truncated or CMYK JPEG files).
    pub encoded: Option<Arc<Encoded>>,
}

impl PartialEq for Image {
    fn eq(&self, other: &Self) -> bool {
        self.width == other.width && self.height == other.height && self.pixels == other.pixels
    }
}

/// A picture file kept as it was read ([`Image::encoded`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Encoded {
    /// `image/png` or `image/jpeg`.
    pub mime: &'static str,
    /// The file's bytes.
    pub bytes: Vec<u8>,
    /// [`fingerprint`] of the size and pixels decoded from it.
    fingerprint: u64,
}

impl Encoded {
    /// `bytes` (of media type `mime`), which decoded to `image`.
    pub fn new(mime: &'static str, bytes: &[u8], image: &Image) -> Self {
        Encoded {
            mime,
            bytes: bytes.to_vec(),
            fingerprint: fingerprint(image),
        }
    }
}

impl Encoded {
    /// The file without the metadata glTF readers handle unevenly (colour spaces, pixel
    /// aspect, Exif, animation; [`png::without_metadata`], [`jpeg::without_metadata`]),
    /// which the decoders do not apply either. `None` if its structure is broken.
    pub fn without_metadata(&self) -> Option<Vec<u8>> {
        match self.mime {
            #[cfg(feature = "png")]
            "image/png" => png::without_metadata(&self.bytes),
            #[cfg(feature = "textures")]
            "image/jpeg" => jpeg::without_metadata(&self.bytes),
            _ => None,
        }
    }
}

/// A hash of a picture's size and RGBA pixels (0 for indexed pictures, which are never
/// kept as files): how [`Image::original_file`] tells whether the pixels changed.
fn fingerprint(image: &Image) -> u64 {
    use std::hash::Hasher;
    let mut h = crate::hash::FastHasher::default();
    h.write_u32(image.width);
    h.write_u32(image.height);
    match &image.pixels {
        Pixels::Rgba8(rgba) => h.write(rgba),
        Pixels::Indexed { .. } => return 0,
    }
    h.finish()
}

/// Pixel storage.
#[derive(Debug, Clone, PartialEq)]
pub enum Pixels {
    /// One palette index per pixel.
    Indexed {
        /// `width * height` indices.
        indices: Vec<u8>,
        /// The palette the indices refer to (shared by the pictures of a model).
        palette: Arc<Palette>,
        /// Indices from this one to 255 are fullbright (Quake: 224), if any.
        fullbright_start: Option<u8>,
        /// Index drawn transparent (Quake with `MF_HOLEY`: 255), if any.
        transparent_index: Option<u8>,
    },
    /// Four bytes per pixel: red, green, blue, alpha.
    Rgba8(Vec<u8>),
}

impl Image {
    /// Whether the picture has pixels that are holes: RGBA alpha below 128, or an indexed
    /// picture's transparent index.
    pub fn has_transparency(&self) -> bool {
        match &self.pixels {
            Pixels::Rgba8(px) => px.chunks_exact(4).any(|c| c[3] < 128),
            Pixels::Indexed {
                indices,
                transparent_index: Some(t),
                ..
            } => indices.contains(t),
            Pixels::Indexed { .. } => false,
        }
    }

    /// A picture of `width` x `height` `pixels`, with no file kept.
    pub fn new(width: u32, height: u32, pixels: Pixels) -> Self {
        Image {
            width,
            height,
            pixels,
            encoded: None,
        }
    }

    /// The file the picture was decoded from ([`Image::encoded`]), if its pixels are still
    /// the ones decoded from it.
    pub fn original_file(&self) -> Option<&Encoded> {
        let encoded = self.encoded.as_deref()?;
        (matches!(self.pixels, Pixels::Rgba8(_)) && fingerprint(self) == encoded.fingerprint)
            .then_some(encoded)
    }

    /// The picture as indices into `palette`: kept as they are when the picture already uses
    /// that palette (its fullbright pixels are meant), otherwise matched to the nearest colour
    /// among indices `0..=last` (per palette entry for another palette, per colour for RGBA;
    /// alpha ignored). [`Image::to_indexed_with`] adds dithering, a transparent index and the
    /// mean colour error.
    pub fn to_indexed(&self, palette: &Palette, last: u8) -> Vec<u8> {
        match &self.pixels {
            Pixels::Indexed {
                indices,
                palette: own,
                ..
            } => {
                if **own == *palette {
                    return indices.clone();
                }
                let map: Vec<u8> = (0..=255u8)
                    .map(|i| palette.nearest(own.rgb(i), last))
                    .collect();
                indices.iter().map(|&i| map[i as usize]).collect()
            }
            Pixels::Rgba8(rgba) => {
                let mut cache = std::collections::HashMap::new();
                rgba.chunks_exact(4)
                    .map(|p| {
                        let c = [p[0], p[1], p[2]];
                        *cache.entry(c).or_insert_with(|| palette.nearest(c, last))
                    })
                    .collect()
            }
        }
    }

    /// The picture scaled to `width` x `height` by nearest-neighbour sampling.
    pub fn resized(&self, width: u32, height: u32) -> Image {
        let pick = |data: &[u8], bpp: usize| -> Vec<u8> {
            let mut out = Vec::with_capacity(width as usize * height as usize * bpp);
            for y in 0..height as u64 {
                let sy = (y * self.height as u64 / height.max(1) as u64) as usize;
                for x in 0..width as u64 {
                    let sx = (x * self.width as u64 / width.max(1) as u64) as usize;
                    let at = (sy * self.width as usize + sx) * bpp;
                    out.extend_from_slice(data.get(at..at + bpp).unwrap_or(&[0; 4][..bpp]));
                }
            }
            out
        };
        let pixels = match &self.pixels {
            Pixels::Indexed {
                indices,
                palette,
                fullbright_start,
                transparent_index,
            } => Pixels::Indexed {
                indices: pick(indices, 1),
                palette: palette.clone(),
                fullbright_start: *fullbright_start,
                transparent_index: *transparent_index,
            },
            Pixels::Rgba8(p) => Pixels::Rgba8(pick(p, 4)),
        };
        Image {
            width,
            height,
            pixels,
            encoded: None,
        }
    }

    /// The picture as RGBA8, palette applied; the transparent index gets alpha 0.
    pub fn to_rgba8(&self) -> Vec<u8> {
        match &self.pixels {
            Pixels::Rgba8(p) => p.clone(),
            Pixels::Indexed {
                indices,
                palette,
                transparent_index,
                ..
            } => {
                let mut out = Vec::with_capacity(indices.len() * 4);
                for &i in indices {
                    let [r, g, b] = palette.rgb(i);
                    let a = if Some(i) == *transparent_index {
                        0
                    } else {
                        255
                    };
                    out.extend_from_slice(&[r, g, b, a]);
                }
                out
            }
        }
    }

    /// The fullbright mask (RGBA8) as GL engines build it: fullbright pixels keep their
    /// colour, every other pixel is black, and the transparent index stays transparent.
    /// `None` when the picture has no fullbright range or no fullbright pixel.
    pub fn fullbright_mask(&self) -> Option<Vec<u8>> {
        let Pixels::Indexed {
            indices,
            palette,
            fullbright_start: Some(start),
            transparent_index,
        } = &self.pixels
        else {
            return None;
        };
        let is_fullbright = |i: u8| i >= *start && Some(i) != *transparent_index;
        if !indices.iter().any(|&i| is_fullbright(i)) {
            return None;
        }
        let mut out = Vec::with_capacity(indices.len() * 4);
        for &i in indices {
            let px = if Some(i) == *transparent_index {
                [0, 0, 0, 0]
            } else if is_fullbright(i) {
                let [r, g, b] = palette.rgb(i);
                [r, g, b, 255]
            } else {
                [0, 0, 0, 255]
            };
            out.extend_from_slice(&px);
        }
        Some(out)
    }
}

/// Expands 5-6-5 RGB pixels (little-endian words) to RGBA8.
pub fn rgb565_to_rgba8(data: &[u8]) -> Vec<u8> {
    // Written in place from two small tables: no capacity check or division per pixel.
    /// `i * 255 / (N - 1)`, rounded: an `N`-level channel expanded to 8 bits.
    const fn expand<const N: usize>() -> [u8; N] {
        let mut t = [0u8; N];
        let mut i = 0;
        while i < N {
            t[i] = ((i * 255 + (N - 1) / 2) / (N - 1)) as u8;
            i += 1;
        }
        t
    }
    const FIVE: [u8; 32] = expand::<32>();
    const SIX: [u8; 64] = expand::<64>();
    let pixels = data.len() / 2;
    let mut out = vec![0u8; pixels * 4];
    for (o, w) in out.chunks_exact_mut(4).zip(data.chunks_exact(2)) {
        let v = usize::from(u16::from_le_bytes([w[0], w[1]]));
        o.copy_from_slice(&[FIVE[v >> 11], SIX[(v >> 5) & 63], FIVE[v & 31], 255]);
    }
    out
}

/// Expands 4-4-4-4 ARGB pixels (little-endian words) to RGBA8.
pub fn argb4444_to_rgba8(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() * 2);
    for w in data.chunks_exact(2) {
        let v = u16::from_le_bytes([w[0], w[1]]);
        let n = |s: u16| (((v >> s) & 15) * 17) as u8;
        out.extend_from_slice(&[n(8), n(4), n(0), n(12)]);
    }
    out
}

/// Converts BGR (3 bytes) or BGRA (4 bytes) pixels to RGBA8.
pub fn bgr_to_rgba8(data: &[u8], bytes_per_pixel: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() / bytes_per_pixel * 4);
    for p in data.chunks_exact(bytes_per_pixel) {
        let a = if bytes_per_pixel == 4 { p[3] } else { 255 };
        out.extend_from_slice(&[p[2], p[1], p[0], a]);
    }
    out
}

/// The file extensions (lower case, without the dot) of the pictures [`decode`] reads with
/// the features this crate was built with: `png`, `tga`, `jpg`, `jpeg`, `bmp`, `pcx`, `dds`
/// and `wal` with the default features (`wal` needs a palette: [`decode_with_palette`]).
/// In the order a skin lookup that finds several files of one name should prefer them:
/// true-colour formats with alpha first, 8-bit ones last.
pub const IMAGE_EXTENSIONS: &[&str] = &[
    #[cfg(feature = "png")]
    "png",
    #[cfg(feature = "textures")]
    "tga",
    #[cfg(feature = "textures")]
    "dds",
    #[cfg(feature = "textures")]
    "jpg",
    #[cfg(feature = "textures")]
    "jpeg",
    #[cfg(feature = "textures")]
    "bmp",
    "pcx",
    #[cfg(feature = "textures")]
    "wal",
];

/// Short format name used in errors of [`decode`] itself (`image: ...`), when no decoder
/// takes the data.
pub const FORMAT: &str = "image";

/// The picture formats [`decode`] tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Png,
    Jpeg,
    Dds,
    Bmp,
    Pcx,
    Tga,
    Wal,
}

/// Which decoder reads `bytes` named `name`: the unambiguous magics (PNG, JPEG, DDS) first,
/// then the extension for the formats without a magic (TGA, WAL), then the short magics
/// (`BM`, `0x0A`, which a TGA or WAL header may start with too), then the extension alone.
fn kind_of(bytes: &[u8], name: &str) -> Option<Kind> {
    const PNG: [u8; 4] = [0x89, b'P', b'N', b'G'];
    const JPEG: [u8; 3] = [0xFF, 0xD8, 0xFF];
    if bytes.starts_with(&PNG) {
        return Some(Kind::Png);
    }
    if bytes.starts_with(&JPEG) {
        return Some(Kind::Jpeg);
    }
    if bytes.starts_with(b"DDS ") {
        return Some(Kind::Dds);
    }
    let ext = name
        .rsplit_once('.')
        .map(|(stem, ext)| (stem, ext.to_ascii_lowercase()))
        .filter(|(_, ext)| !ext.contains(['/', '\\']))
        .map(|(_, ext)| ext);
    match ext.as_deref() {
        Some("tga") => return Some(Kind::Tga),
        Some("wal") => return Some(Kind::Wal),
        _ => {}
    }
    if bytes.starts_with(b"BM") {
        return Some(Kind::Bmp);
    }
    if bytes.first() == Some(&0x0A) {
        return Some(Kind::Pcx);
    }
    match ext.as_deref() {
        Some("png") => Some(Kind::Png),
        Some("jpg" | "jpeg") => Some(Kind::Jpeg),
        Some("dds") => Some(Kind::Dds),
        Some("bmp") => Some(Kind::Bmp),
        Some("pcx") => Some(Kind::Pcx),
        _ => None,
    }
}

/// Decodes a picture file of any format in [`IMAGE_EXTENSIONS`] but WAL, which needs a
/// palette ([`decode_with_palette`], [`decode_wal`]).
///
/// The decoder is picked by the data's magic bytes first (PNG, JPEG `FF D8 FF`, DDS `DDS `),
/// so a misnamed file (a `.tga` that is a JPEG, as some game data has) is read for what it is;
/// then by `name`'s extension (any case) for TGA and WAL, which have no magic; then by the
/// short magics of BMP (`BM`) and PCX (`0A`); then by the extension alone, so that a broken
/// `.png` gets the PNG decoder's error. `name` is a file name or path; only its extension is
/// used.
///
/// PCX and WAL pictures come back [`Pixels::Indexed`], the others [`Pixels::Rgba8`]. Every
/// decoder checks the sizes in the header against `limits` before it allocates.
///
/// Fails with the chosen decoder's error (`tga: ...`, `png: ...`); with
/// [`ErrorKind::Unsupported`] ("image: ...") when no format fits, or the format's cargo
/// feature is off; and for a WAL file with [`ErrorKind::Unsupported`] ("wal: ... needs the
/// Quake 2 palette").
pub fn decode(bytes: &[u8], name: &str, limits: &Limits) -> Result<Image> {
    decode_with_palette(bytes, name, None, limits)
}

/// [`decode`], with the Quake 2 palette (from the game's `pics/colormap.pcx`) for WAL
/// textures; other formats ignore it.
pub fn decode_with_palette(
    bytes: &[u8],
    name: &str,
    wal_palette: Option<&Palette>,
    limits: &Limits,
) -> Result<Image> {
    let Some(kind) = kind_of(bytes, name) else {
        return Err(Error::new(
            FORMAT,
            ErrorKind::Unsupported,
            format!(
                "{name}: not a picture format this crate reads (no known magic bytes or extension)"
            ),
            Location::None,
        ));
    };
    let _ = (limits, wal_palette);
    match kind {
        Kind::Pcx => pcx::decode(bytes, limits),
        #[cfg(feature = "png")]
        Kind::Png => png::decode(bytes, limits),
        #[cfg(feature = "textures")]
        Kind::Jpeg => jpeg::decode(bytes, limits),
        #[cfg(feature = "textures")]
        Kind::Dds => dds::decode(bytes, limits),
        #[cfg(feature = "textures")]
        Kind::Bmp => bmp::decode(bytes, limits),
        #[cfg(feature = "textures")]
        Kind::Tga => tga::decode(bytes, limits),
        #[cfg(feature = "textures")]
        Kind::Wal => match wal_palette {
            Some(palette) => wal::decode(bytes, palette, limits),
            None => Err(Error::new(
                wal::FORMAT,
                ErrorKind::Unsupported,
                format!(
                    "{name}: a WAL texture needs the Quake 2 palette (pics/colormap.pcx): use \
                     image::decode_with_palette or image::decode_wal"
                ),
                Location::None,
            )),
        },
        #[allow(unreachable_patterns)]
        other => Err(Error::new(
            FORMAT,
            ErrorKind::Unsupported,
            format!(
                "{name}: {other:?} pictures are not read by this build (cargo feature `textures` \
                 or `png` is off)"
            ),
            Location::None,
        )),
    }
}

/// Decodes mip level 0 of a Quake 2 WAL texture with `palette`, the Quake 2 palette the
/// caller read from the game's `pics/colormap.pcx` (this crate does not embed it). The
/// result is [`Pixels::Indexed`]. See `wal::decode` (feature `textures`).
pub fn decode_wal(bytes: &[u8], palette: &Palette, limits: &Limits) -> Result<Image> {
    #[cfg(feature = "textures")]
    {
        wal::decode(bytes, palette, limits)
    }
    #[cfg(not(feature = "textures"))]
    {
        let _ = (bytes, palette, limits);
        Err(Error::new(
            "wal",
            ErrorKind::Unsupported,
            "WAL textures are not read by this build (cargo feature `textures` is off)",
            Location::None,
        ))
    }
}

/// A picture's size as a decoder read it, with where errors about it point (its format, and
/// the header field's byte offset where the decoder knows one): the checks every decoder
/// makes before it allocates, with the same error texts in every format.
#[derive(Debug, Clone, Copy)]
struct Size {
    format: &'static str,
    width: u32,
    height: u32,
    at: Location,
}

impl Size {
    /// `width` x `height` of `format`, errors at `at` (a byte offset, or `None`).
    fn new(format: &'static str, width: u32, height: u32, at: Option<usize>) -> Self {
        Size {
            format,
            width,
            height,
            at: at.map_or(Location::None, |o| Location::Offset(o as u64)),
        }
    }

    /// An error about this size.
    fn error(&self, kind: ErrorKind, message: String) -> Error {
        Error::new(self.format, kind, message, self.at)
    }

    #[cfg(feature = "textures")]
    /// Fails when a side is 0 ([`ErrorKind::InvalidValue`], "empty picture (WxH)").
    fn non_empty(self) -> Result<Self> {
        let (width, height) = (self.width, self.height);
        if width == 0 || height == 0 {
            return Err(self.error(
                ErrorKind::InvalidValue,
                format!("empty picture ({width}x{height})"),
            ));
        }
        Ok(self)
    }

    /// Fails when a side is above [`Limits::max_image_dimension`]
    /// ([`ErrorKind::LimitExceeded`]).
    fn within(self, limits: &Limits) -> Result<Self> {
        let (width, height) = (self.width, self.height);
        if width > limits.max_image_dimension || height > limits.max_image_dimension {
            return Err(self.error(
                ErrorKind::LimitExceeded,
                format!(
                    "picture size {width}x{height} exceeds the limit of {} pixels a side",
                    limits.max_image_dimension
                ),
            ));
        }
        Ok(self)
    }

    /// The pixel count, `width * height`.
    fn pixels(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }

    /// Charges `bytes` of decoded data to `budget` ([`ErrorKind::LimitExceeded`], "decoded
    /// data would exceed the allocation limit of N bytes").
    fn charge(&self, budget: &mut Budget, bytes: u64) -> Result<()> {
        budget.charge(bytes).map_err(|limit| {
            self.error(
                ErrorKind::LimitExceeded,
                format!("decoded data would exceed the allocation limit of {limit} bytes"),
            )
        })
    }

    #[cfg(any(feature = "textures", feature = "png"))]
    /// Charges `bytes` for this picture to `budget`, worded by the picture's size
    /// ([`ErrorKind::LimitExceeded`], "picture size WxH would exceed the allocation limit of N
    /// bytes").
    fn charge_picture(&self, budget: &mut Budget, bytes: u64) -> Result<()> {
        let (width, height) = (self.width, self.height);
        budget.charge(bytes).map_err(|limit| {
            self.error(
                ErrorKind::LimitExceeded,
                format!(
                    "picture size {width}x{height} would exceed the allocation limit of {limit} \
                     bytes"
                ),
            )
        })
    }

    /// The error for a buffer of this picture too large for memory
    /// ([`ErrorKind::LimitExceeded`], "picture size WxH does not fit in memory").
    fn too_big(&self) -> Error {
        let (width, height) = (self.width, self.height);
        self.error(
            ErrorKind::LimitExceeded,
            format!("picture size {width}x{height} does not fit in memory"),
        )
    }

    /// `bytes` (a buffer for this picture, already charged) as a length in memory; fails
    /// with [`Size::too_big`].
    fn len(&self, bytes: u64) -> Result<usize> {
        usize::try_from(bytes).map_err(|_| self.too_big())
    }

    #[cfg(feature = "textures")]
    /// Charges the RGBA8 picture to a new budget ([`Size::charge`]); gives the budget and
    /// the picture's length in bytes ([`Size::len`]).
    fn rgba8_budget(&self, limits: &Limits) -> Result<(Budget, usize)> {
        let mut budget = Budget::new(limits);
        let bytes = self.pixels() * 4;
        self.charge(&mut budget, bytes)?;
        Ok((budget, self.len(bytes)?))
    }
}

/// The error for data shorter than a fixed-size header of `header_len` bytes
/// ([`ErrorKind::Truncated`], at the end of the data).
#[cfg(feature = "textures")]
fn header_too_short(format: &'static str, len: usize, header_len: usize) -> Error {
    Error::new(
        format,
        ErrorKind::Truncated,
        format!("file of {len} bytes is too short for the {header_len}-byte header"),
        Location::Offset(len as u64),
    )
}

/// The error for data a wrapped decoder refuses ([`ErrorKind::InvalidValue`], "corrupt data:
/// ...", no offset).
#[cfg(any(feature = "textures", feature = "png"))]
fn corrupt(format: &'static str, what: impl std::fmt::Display) -> Error {
    Error::new(
        format,
        ErrorKind::InvalidValue,
        format!("corrupt data: {what}"),
        Location::None,
    )
}

/// Widens `n` pixels of `channels` bytes (grey, grey + alpha, RGB or RGBA) at the start of
/// `buf` to RGBA8 in place; `buf` holds `n * 4` bytes.
#[cfg(feature = "textures")]
fn expand_to_rgba(buf: &mut [u8], n: usize, channels: usize) {
    // From the last pixel down, so no source byte is overwritten before it is read.
    for i in (0..n).rev() {
        let s = i * channels;
        let px = match channels {
            1 => [buf[s], buf[s], buf[s], 255],
            2 => [buf[s], buf[s], buf[s], buf[s + 1]],
            3 => [buf[s], buf[s + 1], buf[s + 2], 255],
            _ => return,
        };
        buf[i * 4..i * 4 + 4].copy_from_slice(&px);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quake_palette_and_fullbright_mask() {
        assert_eq!(Palette::QUAKE.rgb(255), [159, 91, 83]);
        assert_eq!(Palette::QUAKE.rgb(0), [0, 0, 0]);
        let img = Image {
            width: 2,
            height: 1,
            pixels: Pixels::Indexed {
                indices: vec![10, 250],
                palette: Arc::new(Palette::QUAKE),
                fullbright_start: Some(QUAKE_FULLBRIGHT_START),
                transparent_index: Some(255),
            },
            encoded: None,
        };
        let mask = img.fullbright_mask().unwrap();
        assert_eq!(&mask[..4], &[0, 0, 0, 255]);
        let c = Palette::QUAKE.rgb(250);
        assert_eq!(&mask[4..], &[c[0], c[1], c[2], 255]);
        // Holes (index 255 with MF_HOLEY) are not fullbright: they stay transparent.
        let holes = |indices: Vec<u8>| Image {
            width: 2,
            height: 1,
            pixels: Pixels::Indexed {
                indices,
                palette: Arc::new(Palette::QUAKE),
                fullbright_start: Some(QUAKE_FULLBRIGHT_START),
                transparent_index: Some(255),
            },
            encoded: None,
        };
        assert_eq!(holes(vec![255, 10]).fullbright_mask(), None);
        let mask = holes(vec![255, 230]).fullbright_mask().unwrap();
        assert_eq!(&mask[..4], &[0, 0, 0, 0]);
        assert_eq!(mask[7], 255);
    }

    #[test]
    fn rgb565_expands_to_full_range() {
        assert_eq!(
            rgb565_to_rgba8(&0xffffu16.to_le_bytes()),
            [255, 255, 255, 255]
        );
        assert_eq!(rgb565_to_rgba8(&0xf800u16.to_le_bytes()), [255, 0, 0, 255]);
        assert_eq!(rgb565_to_rgba8(&0x07e0u16.to_le_bytes()), [0, 255, 0, 255]);
    }

    #[test]
    fn rgb565_tables_match_the_rounding_formula_for_every_word() {
        let words: Vec<u8> = (0..=u16::MAX).flat_map(u16::to_le_bytes).collect();
        let rgba = rgb565_to_rgba8(&words);
        assert_eq!(rgba.len(), 65536 * 4);
        for (v, px) in (0..=u16::MAX).zip(rgba.chunks_exact(4)) {
            let (r, g, b) = ((v >> 11) & 31, (v >> 5) & 63, v & 31);
            let want = [
                ((r * 255 + 15) / 31) as u8,
                ((g * 255 + 31) / 63) as u8,
                ((b * 255 + 15) / 31) as u8,
                255,
            ];
            assert_eq!(px, want, "{v:#06x}");
        }
        // An odd trailing byte is not a pixel.
        assert_eq!(rgb565_to_rgba8(&[0xff, 0xff, 0x12]).len(), 4);
    }
}
