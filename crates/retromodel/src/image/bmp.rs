//! BMP pictures (Windows and OS/2 bitmaps), read (feature `textures`).
//!
//! Decoding uses the `image` crate's BMP decoder (feature `bmp` only): 1, 4 and 8-bit
//! paletted pictures (uncompressed or RLE4/RLE8), 16, 24 and 32-bit pictures (with
//! `BI_BITFIELDS` masks too), bottom-up (positive height, the usual) and top-down (negative
//! height), behind a `BITMAPCOREHEADER`, `BITMAPINFOHEADER` or V2 to V5 header. The result is
//! always [`Pixels::Rgba8`], top row first.
//!
//! Quirks, as read here (they are the `image` crate's, and Windows'):
//!
//! - 32-bit pictures without masks (`BI_RGB`) are B G R and an unused byte: alpha is 255.
//!   Alpha comes only from an alpha mask (`BI_BITFIELDS` with a V3 or later header).
//! - Paletted pictures are expanded through their palette (alpha 255); indices past the
//!   palette's end read as black.
//! - An RLE picture whose end-of-bitmap code comes before the last row leaves the rest
//!   black; RLE data that simply runs out is [`ErrorKind::Truncated`].
//!
//! The header is read here first (the `BM` magic; the pixel data offset at 10; the info
//! header's size at 14; width and height at 18, `u16`s in a 12-byte core header and `i32`s
//! otherwise): each side is checked against [`Limits::max_image_dimension`] and the RGBA8
//! result charged against [`Limits::max_alloc_bytes`] before the `image` crate sees the file,
//! and the crate decodes into that one buffer (RGB widened to RGBA in place).

use std::io::Cursor;

use ::image::codecs::bmp::BmpDecoder;
use ::image::error::{ImageError, LimitErrorKind};
use ::image::{ColorType, ImageDecoder};

use super::{corrupt, expand_to_rgba, Image, Pixels, Size};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::io::Reader;
use crate::limits::Limits;

/// Short format name used in errors (`bmp: ... at offset 0x..`).
pub const FORMAT: &str = "bmp";

/// The two bytes every BMP file starts with.
pub const MAGIC: [u8; 2] = *b"BM";
/// Size of a `BITMAPCOREHEADER` (OS/2 1.x, 16-bit sides).
const CORE_HEADER_LEN: u32 = 12;

/// Decodes a BMP file to an RGBA8 picture.
///
/// See the [module documentation](self) for what is read.
///
/// Fails on data that does not start with `BM` ([`ErrorKind::BadMagic`]), a header that
/// ends early or pixel data past the end ([`ErrorKind::Truncated`]), a zero side
/// ([`ErrorKind::InvalidValue`]), a side above [`Limits::max_image_dimension`] or a picture
/// above [`Limits::max_alloc_bytes`] ([`ErrorKind::LimitExceeded`]), a layout the decoder
/// does not read ([`ErrorKind::Unsupported`]) and anything else it refuses
/// ([`ErrorKind::InvalidValue`], "corrupt data: ...").
pub fn decode(data: &[u8], limits: &Limits) -> Result<Image> {
    let mut r = Reader::new(data, FORMAT);
    if !data.starts_with(&MAGIC) {
        if data == &MAGIC[..1] {
            return Err(truncated(data.len(), "the file header"));
        }
        return Err(r.error_at(0, ErrorKind::BadMagic, "not a BMP file (expected \"BM\")"));
    }
    if data.len() < 18 {
        return Err(truncated(data.len(), "the file header"));
    }
    r.seek(14)?;
    let header_len = r.u32()?;
    let (width, height, top_down) = if header_len == CORE_HEADER_LEN {
        if data.len() < 22 {
            return Err(truncated(data.len(), "the info header"));
        }
        (u32::from(r.u16()?), u32::from(r.u16()?), false)
    } else {
        if data.len() < 26 {
            return Err(truncated(data.len(), "the info header"));
        }
        let w = r.i32()?;
        let h = r.i32()?;
        if w < 0 {
            return Err(r.error_at(18, ErrorKind::InvalidValue, format!("negative width {w}")));
        }
        (w.unsigned_abs(), h.unsigned_abs(), h < 0)
    };
    let (budget, len) = Size::new(FORMAT, width, height, Some(18))
        .non_empty()?
        .within(limits)?
        .rgba8_budget(limits)?;

    let mut decoder = BmpDecoder::new(Cursor::new(data)).map_err(|e| decoding_error(e, data))?;
    let mut image_limits = ::image::Limits::default();
    image_limits.max_image_width = Some(width);
    image_limits.max_image_height = Some(height);
    image_limits.max_alloc = Some(limits.max_alloc_bytes.saturating_sub(budget.used()));
    decoder
        .set_limits(image_limits)
        .map_err(|e| decoding_error(e, data))?;
    if decoder.dimensions() != (width, height) {
        return Err(r.error_at(
            18,
            ErrorKind::InvalidValue,
            format!(
                "the decoder read the size {:?}, the header says {width}x{height}{}",
                decoder.dimensions(),
                if top_down { " (top-down)" } else { "" }
            ),
        ));
    }
    let channels = match decoder.color_type() {
        ColorType::L8 => 1,
        ColorType::La8 => 2,
        ColorType::Rgb8 => 3,
        ColorType::Rgba8 => 4,
        other => {
            return Err(Error::new(
                FORMAT,
                ErrorKind::Unsupported,
                format!("unsupported decoded colour type {other:?}"),
                Location::None,
            ))
        }
    };
    let mut out = vec![0u8; len];
    let n = width as usize * height as usize;
    decoder
        .read_image(&mut out[..n * channels])
        .map_err(|e| decoding_error(e, data))?;
    expand_to_rgba(&mut out, n, channels);
    Ok(Image {
        width,
        height,
        pixels: Pixels::Rgba8(out),
        encoded: None,
    })
}

/// The error for data that ends inside `what` (or the pixel data).
fn truncated(len: usize, what: &str) -> Error {
    Error::new(
        FORMAT,
        ErrorKind::Truncated,
        format!("data ends early, inside {what} ({len} bytes)"),
        Location::Offset(len as u64),
    )
}

/// Maps an error of the `image` crate to the crate's error.
fn decoding_error(e: ImageError, data: &[u8]) -> Error {
    match e {
        ImageError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            truncated(data.len(), "the headers, palette or pixel data")
        }
        ImageError::Limits(l) => Error::new(
            FORMAT,
            ErrorKind::LimitExceeded,
            match l.kind() {
                LimitErrorKind::InsufficientMemory => {
                    "the decoder would exceed the allocation limit".to_string()
                }
                _ => format!("decoder limit: {l}"),
            },
            Location::None,
        ),
        ImageError::Unsupported(u) => Error::new(
            FORMAT,
            ErrorKind::Unsupported,
            format!("unsupported: {u}"),
            Location::None,
        ),
        other => corrupt(FORMAT, other),
    }
}
