//! JPEG pictures (JFIF, Exif), read (feature `textures`): baseline and progressive.
//!
//! Decoding uses the `zune-jpeg` crate, the decoder the `image` crate itself wraps; calling
//! it directly lets it write RGBA8 at once (no second buffer) and lets the header be checked
//! before anything is allocated. Greyscale, YCbCr, RGB, CMYK and YCCK pictures are read,
//! with any chroma subsampling and restart intervals, baseline and progressive (8-bit
//! samples); arithmetic coding and lossless JPEG are [`ErrorKind::Unsupported`]. The result is always [`Pixels::Rgba8`] with alpha 255 (CMYK is
//! converted to RGB); Exif orientation and ICC profiles are not applied.
//!
//! The decoder runs in its lenient mode, as browsers and game engines do: data that ends
//! early, or a scan that breaks off, leaves the rest of the picture grey instead of failing,
//! and a progressive picture reads at most 100 scans. Errors carry no byte offset, the
//! decoder does not report one.
//!
//! The header's sizes are checked before anything is allocated for the pixels: each side
//! against [`Limits::max_image_dimension`], then the RGBA8 result and the decoder's own
//! buffers (a picture's coefficients, 16-bit, up to 4 components, padded to whole blocks:
//! charged as 12 bytes a pixel) against [`Limits::max_alloc_bytes`].

use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;
use zune_jpeg::errors::DecodeErrors;
use zune_jpeg::JpegDecoder;

use super::{expand_to_rgba, Encoded, Image, Pixels, Size};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};

/// Short format name used in errors (`jpeg: ...`).
pub const FORMAT: &str = "jpeg";

/// The three bytes every JPEG file starts with: the SOI marker and the next marker's `0xFF`.
pub const MAGIC: [u8; 3] = [0xFF, 0xD8, 0xFF];
/// Bytes charged per (padded) pixel for the decoder's own buffers.
const DECODER_BYTES_PER_PIXEL: u64 = 12;

/// Decodes a JPEG file to an RGBA8 picture.
///
/// See the [module documentation](self) for what is read.
///
/// Fails on data that does not start with a JPEG marker ([`ErrorKind::BadMagic`]), a side
/// above [`Limits::max_image_dimension`] or a picture above [`Limits::max_alloc_bytes`]
/// ([`ErrorKind::LimitExceeded`]), data that ends inside the headers
/// ([`ErrorKind::Truncated`]), a coding the decoder does not read
/// ([`ErrorKind::Unsupported`]) and anything else it refuses ([`ErrorKind::InvalidValue`],
/// "corrupt data: ...").
pub fn decode(data: &[u8], limits: &Limits) -> Result<Image> {
    if !data.starts_with(&MAGIC) {
        if !data.is_empty() && MAGIC.starts_with(data) {
            return Err(Error::new(
                FORMAT,
                ErrorKind::Truncated,
                format!(
                    "data ends early: {} bytes are not a complete JPEG file",
                    data.len()
                ),
                Location::Offset(data.len() as u64),
            ));
        }
        return Err(Error::new(
            FORMAT,
            ErrorKind::BadMagic,
            "not a JPEG file (expected the SOI marker ff d8 ff)",
            Location::Offset(0),
        ));
    }
    // JPEG sides are 16-bit; the limits are checked below with this crate's message.
    // zune-jpeg picks its colour conversion when it reads the headers, so the output colour
    // space is set before: RGBA, which it converts YCbCr, grey, CMYK and YCCK to; pictures
    // stored as RGB (or with alpha) it only copies, so they are read again as stored and
    // widened to RGBA here.
    // zune-jpeg is built without its x86/neon features (Cargo.toml): its AVX2 inverse DCT
    // panicked on a fuzzed file (tests/regressions/jpeg_zune_avx2_idct_panic.jpg). Platform
    // intrinsics are not used either.
    let options = DecoderOptions::default()
        .set_use_unsafe(false)
        .set_strict_mode(false)
        .set_max_width(usize::from(u16::MAX))
        .set_max_height(usize::from(u16::MAX))
        .jpeg_set_out_colorspace(ColorSpace::RGBA);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(data), options);
    decoder.decode_headers().map_err(decoding_error)?;
    let input = decoder
        .input_colorspace()
        .ok_or_else(|| corrupt("no frame header"))?;
    let out_space = match input {
        ColorSpace::YCbCr | ColorSpace::Luma | ColorSpace::YCCK | ColorSpace::CMYK => {
            ColorSpace::RGBA
        }
        ColorSpace::RGB | ColorSpace::RGBA | ColorSpace::LumaA => {
            decoder = JpegDecoder::new_with_options(
                ZCursor::new(data),
                options.jpeg_set_out_colorspace(input),
            );
            decoder.decode_headers().map_err(decoding_error)?;
            input
        }
        other => {
            return Err(Error::new(
                FORMAT,
                ErrorKind::Unsupported,
                format!("unsupported colour space {other:?}"),
                Location::None,
            ))
        }
    };
    let (width, height) = decoder
        .dimensions()
        .ok_or_else(|| corrupt("no frame header"))?;
    let (width, height) = (width as u32, height as u32);
    let size = Size::new(FORMAT, width, height, None).within(limits)?;
    let pixels = size.pixels();
    let padded = u64::from(width.div_ceil(32) * 32) * u64::from(height.div_ceil(32) * 32);
    let mut budget = Budget::new(limits);
    size.charge_picture(&mut budget, pixels * 4)?;
    size.charge_picture(&mut budget, padded * DECODER_BYTES_PER_PIXEL)?;

    let channels = out_space.num_components();
    let len = size.len(pixels * 4)?;
    let mut out = vec![0u8; len];
    let n = width as usize * height as usize;
    // zune-jpeg 0.5.15 panics on some hostile files (a slice index in its scalar 1x1
    // inverse DCT on a file with two frame headers of different sampling,
    // tests/regressions/jpeg_zune_scalar_idct_panic.jpg): such a file is an error here, not
    // the end of a batch. (Where panics abort, as in the browser module, this cannot help:
    // there the page makes a fresh instance of the module and reports the file, web/app.js.)
    let decoded = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        decoder.decode_into(&mut out[..n * channels])
    }));
    match decoded {
        Ok(result) => result.map_err(decoding_error)?,
        Err(_) => {
            return Err(corrupt(
                "the decoder failed on this file (zune-jpeg panicked)",
            ))
        }
    }
    expand_to_rgba(&mut out, n, channels);
    let mut image = Image::new(width, height, Pixels::Rgba8(out));
    // Kept for glTF, which embeds JPEG files: only the colour spaces every reader shows
    // (not CMYK or YCCK, which browsers and engines handle unevenly), with the component
    // count readers infer them from once Adobe's segment is left out (3 YCbCr, 1 grey),
    // and only whole files (an end-of-image marker after the data: the decoder fills a
    // truncated scan with grey, which other readers may refuse or show otherwise).
    let components = decoder.info().map_or(0, |i| i.components);
    let whole = data.len() > 4 && data[2..].windows(2).any(|w| w == [0xFF, 0xD9]);
    if whole
        && matches!(
            (input, components),
            (ColorSpace::YCbCr, 3) | (ColorSpace::Luma, 1)
        )
    {
        image.encoded = Some(std::sync::Arc::new(Encoded::new(
            "image/jpeg",
            data,
            &image,
        )));
    }
    Ok(image)
}

/// The JPEG file `data` without its application segments but JFIF's (Exif with its
/// orientation, ICC profiles, Adobe's), and with JFIF's pixel aspect set to 1:1: what glTF
/// readers handle unevenly (Khronos' validator warns about colour-space information and
/// non-square pixels) and [`decode`] does not apply, so the pixels stay the decoded ones.
/// Only for files [`decode`] read as YCbCr or grey ([`Image::encoded`]): without Adobe's
/// segment, three components are YCbCr. `None` if the segment layout is broken.
pub fn without_metadata(data: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(data.len());
    out.extend_from_slice(data.get(..2)?);
    let mut at = 2;
    loop {
        let marker = *data.get(at + 1)?;
        if *data.get(at)? != 0xFF {
            return None;
        }
        if marker == 0xFF {
            // Fill bytes before a marker.
            at += 1;
            continue;
        }
        let len = usize::from(u16::from_be_bytes(
            data.get(at + 2..at + 4)?.try_into().ok()?,
        ));
        let segment = data.get(at..at + 2 + len)?;
        match marker {
            // Start of scan: the rest is entropy-coded data and later segments, kept whole.
            0xDA => {
                out.extend_from_slice(&data[at..]);
                return Some(out);
            }
            0xE0 if segment.get(4..9) == Some(b"JFIF\0") && segment.len() >= 16 => {
                let mut jfif = segment.to_vec();
                // Units 0 (aspect ratio only), 1:1.
                jfif[11..16].copy_from_slice(&[0, 0, 1, 0, 1]);
                out.extend_from_slice(&jfif);
            }
            0xE0..=0xEF => {}
            _ => out.extend_from_slice(segment),
        }
        at += segment.len();
    }
}

/// An error for data the decoder refuses.
fn corrupt(what: impl std::fmt::Display) -> Error {
    super::corrupt(FORMAT, what)
}

/// Maps an error of `zune-jpeg` to the crate's error.
fn decoding_error(e: DecodeErrors) -> Error {
    match e {
        DecodeErrors::ExhaustedData => Error::new(
            FORMAT,
            ErrorKind::Truncated,
            "data ends early, inside the headers",
            Location::None,
        ),
        DecodeErrors::IoErrors(io) => Error::new(
            FORMAT,
            ErrorKind::Truncated,
            format!("data ends early: {}", format!("{io:?}").trim_end()),
            Location::None,
        ),
        DecodeErrors::Unsupported(scheme) => Error::new(
            FORMAT,
            ErrorKind::Unsupported,
            format!("unsupported coding: {scheme:?}"),
            Location::None,
        ),
        DecodeErrors::LargeDimensions(_) => Error::new(
            FORMAT,
            ErrorKind::LimitExceeded,
            format!("{e}"),
            Location::None,
        ),
        DecodeErrors::Format(message) => corrupt(message.trim_end()),
        other => corrupt(other.to_string().trim_end()),
    }
}
