//! PNG pictures (feature `png`): decoded to RGBA8, and RGBA8 encoded (as it is, or in the
//! smallest colour type that keeps it).
//!
//! Decoding uses the `png` crate: greyscale, greyscale with alpha, RGB, RGBA and indexed
//! pictures of any bit depth are read (palettes and `tRNS` transparency expanded, 16-bit
//! samples reduced to their high byte, interlaced pictures de-interlaced); the result is always
//! [`Pixels::Rgba8`]. Only the first frame of an animated PNG is read.
//!
//! The header's sizes are checked before anything is allocated for the pixels: each side
//! against [`Limits::max_image_dimension`] and the decoded picture (the RGBA8 result plus the
//! decoder's own frame buffer) against [`Limits::max_alloc_bytes`], so a tiny file claiming a
//! huge picture fails at once. The `png` crate's own memory limit for metadata chunks is set to
//! the allocation limit too.

use super::{corrupt, Encoded, Image, Pixels, Size};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::hash::FastMap;
use crate::limits::{Budget, Limits};

/// Short format name used in errors (`png: ...`).
pub const FORMAT: &str = "png";

/// The eight bytes every PNG file starts with.
const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
/// Offset of the width in the `IHDR` chunk (signature, chunk length, chunk type).
const WIDTH_OFFSET: usize = 16;

/// Encodes RGBA8 pixels of `width` x `height` as the smallest of the PNG colour types that
/// keep every pixel as it is: indexed (a palette, with `tRNS` alphas) when there are at most
/// 256 colours, RGB when every pixel is opaque, else RGBA. Decoded, the file gives back
/// `rgba` exactly.
pub fn encode_compact(
    width: u32,
    height: u32,
    rgba: &[u8],
) -> Result<Vec<u8>, ::png::EncodingError> {
    // Colours as little-endian words, in a fast-hashed table (this runs on every pixel).
    let pixels = rgba.as_chunks::<4>().0;
    let mut colours: FastMap<u32, u8> = FastMap::default();
    let mut indexed = true;
    let mut last = None;
    for &p in pixels {
        let c = u32::from_le_bytes(p);
        if last == Some(c) {
            continue;
        }
        last = Some(c);
        if !colours.contains_key(&c) {
            if colours.len() == 256 {
                indexed = false;
                break;
            }
            colours.insert(c, colours.len() as u8);
        }
    }
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, width, height);
        enc.set_depth(::png::BitDepth::Eight);
        enc.set_compression(::png::Compression::Fast);
        if indexed {
            // Translucent entries first, so that tRNS stops at the last of them.
            let mut palette: Vec<[u8; 4]> = colours.keys().map(|c| c.to_le_bytes()).collect();
            palette.sort_by_key(|c| (c[3] == 255, *c));
            let index: FastMap<u32, u8> = palette
                .iter()
                .enumerate()
                .map(|(i, &c)| (u32::from_le_bytes(c), i as u8))
                .collect();
            enc.set_color(::png::ColorType::Indexed);
            enc.set_palette(
                palette
                    .iter()
                    .flat_map(|c| [c[0], c[1], c[2]])
                    .collect::<Vec<u8>>(),
            );
            let translucent = palette.iter().take_while(|c| c[3] != 255).count();
            if translucent > 0 {
                enc.set_trns(
                    palette[..translucent]
                        .iter()
                        .map(|c| c[3])
                        .collect::<Vec<u8>>(),
                );
            }
            let data: Vec<u8> = pixels
                .iter()
                .map(|&p| index[&u32::from_le_bytes(p)])
                .collect();
            enc.write_header()?.write_image_data(&data)?;
        } else if rgba.chunks_exact(4).all(|p| p[3] == 255) {
            enc.set_color(::png::ColorType::Rgb);
            enc.set_adaptive_filter(::png::AdaptiveFilterType::Adaptive);
            let data: Vec<u8> = rgba
                .chunks_exact(4)
                .flat_map(|p| [p[0], p[1], p[2]])
                .collect();
            enc.write_header()?.write_image_data(&data)?;
        } else {
            enc.set_color(::png::ColorType::Rgba);
            enc.set_adaptive_filter(::png::AdaptiveFilterType::Adaptive);
            enc.write_header()?.write_image_data(rgba)?;
        }
    }
    Ok(out)
}

/// Encodes RGBA8 pixels of `width` x `height` as a PNG file.
pub fn encode_rgba8(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, ::png::EncodingError> {
    let mut out = Vec::new();
    {
        let mut enc = ::png::Encoder::new(&mut out, width, height);
        enc.set_color(::png::ColorType::Rgba);
        enc.set_depth(::png::BitDepth::Eight);
        let mut w = enc.write_header()?;
        w.write_image_data(rgba)?;
    }
    Ok(out)
}

/// Decodes a PNG file to an RGBA8 picture.
///
/// Every colour type and bit depth of the PNG specification is read: greyscale (1 to 16
/// bits), greyscale with alpha, RGB, RGBA (8 or 16 bits) and indexed (1 to 8 bits, palette and
/// `tRNS` applied). 16-bit samples keep their high byte; pictures without alpha get 255, or 0
/// where a `tRNS` colour key matches. The result is [`Pixels::Rgba8`].
///
/// Fails on data that does not start with the PNG signature ([`ErrorKind::BadMagic`], "not a
/// PNG file"), a side above [`Limits::max_image_dimension`] or a picture above
/// [`Limits::max_alloc_bytes`] ([`ErrorKind::LimitExceeded`]), data that ends early
/// ([`ErrorKind::Truncated`]), and anything else the decoder refuses (bad chunk CRC, broken
/// compressed data, a zero width, ...: [`ErrorKind::InvalidValue`], "corrupt data: ...").
pub fn decode(data: &[u8], limits: &Limits) -> Result<Image> {
    if !data.starts_with(&SIGNATURE) {
        if !data.is_empty() && SIGNATURE.starts_with(data) {
            return Err(truncated(data));
        }
        return Err(Error::new(
            FORMAT,
            ErrorKind::BadMagic,
            "not a PNG file",
            Location::None,
        ));
    }

    let mut decoder = ::png::Decoder::new_with_limits(
        data,
        ::png::Limits {
            bytes: usize::try_from(limits.max_alloc_bytes).unwrap_or(usize::MAX),
        },
    );
    decoder.set_transformations(::png::Transformations::EXPAND | ::png::Transformations::STRIP_16);
    let (width, height) = {
        let info = decoder
            .read_header_info()
            .map_err(|e| decoding_error(e, data))?;
        (info.width, info.height)
    };
    let size = Size::new(FORMAT, width, height, Some(WIDTH_OFFSET)).within(limits)?;
    // Charged before anything is allocated for the pixels: the RGBA8 result and, unless the
    // decoder writes RGBA8 itself, its frame buffer (at most 4 bytes a pixel after the
    // transformations).
    let out_len = size.pixels() * 4;
    let mut budget = Budget::new(limits);
    size.charge_picture(&mut budget, out_len)?;
    size.charge_picture(&mut budget, out_len)?;
    let out_len = size.len(out_len)?;

    let mut reader = decoder.read_info().map_err(|e| decoding_error(e, data))?;
    let (color, depth) = reader.output_color_type();
    if depth != ::png::BitDepth::Eight {
        // EXPAND and STRIP_16 always give 8-bit samples; anything else is a decoder surprise.
        return Err(Error::new(
            FORMAT,
            ErrorKind::Unsupported,
            format!("unsupported output bit depth {depth:?} for colour type {color:?}"),
            Location::None,
        ));
    }
    let channels = match color {
        ::png::ColorType::Grayscale => 1,
        ::png::ColorType::GrayscaleAlpha => 2,
        ::png::ColorType::Rgb => 3,
        ::png::ColorType::Rgba => 4,
        ::png::ColorType::Indexed => {
            return Err(Error::new(
                FORMAT,
                ErrorKind::Unsupported,
                "indexed picture was not expanded",
                Location::None,
            ))
        }
    };
    let buf_len = reader.output_buffer_size();
    let row_len = width as usize * channels;
    if buf_len < row_len * height as usize || buf_len > out_len {
        return Err(size.too_big());
    }

    let mut buf = vec![0u8; buf_len];
    reader
        .next_frame(&mut buf)
        .map_err(|e| decoding_error(e, data))?;
    let rgba = if channels == 4 {
        buf.truncate(out_len);
        buf
    } else {
        let mut out = Vec::with_capacity(out_len);
        for p in buf[..row_len * height as usize].chunks_exact(channels) {
            let px = match *p {
                [g] => [g, g, g, 255],
                [g, a] => [g, g, g, a],
                [r, g, b] => [r, g, b, 255],
                _ => [0, 0, 0, 255],
            };
            out.extend_from_slice(&px);
        }
        out
    };
    let mut image = Image::new(width, height, Pixels::Rgba8(rgba));
    image.encoded = Some(std::sync::Arc::new(Encoded::new("image/png", data, &image)));
    Ok(image)
}

/// The PNG file `data` with only the chunks that make its picture (`IHDR`, `PLTE`, `tRNS`,
/// `IDAT`, `IEND`): no colour-space, gamma, pixel-aspect, text or animation chunks, which
/// glTF readers handle unevenly (Khronos' validator warns about them) and [`decode`] does
/// not apply, so the pixels stay the decoded ones. `None` if the chunk layout is broken or
/// the file is an animated PNG (its first frame may be sized by a chunk this leaves out).
pub fn without_metadata(data: &[u8]) -> Option<Vec<u8>> {
    const SIGNATURE: &[u8; 8] = b"\x89PNG\r\n\x1a\n";
    let mut rest = data.strip_prefix(SIGNATURE)?;
    let mut out = Vec::with_capacity(data.len());
    out.extend_from_slice(SIGNATURE);
    loop {
        let len = u32::from_be_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let kind: [u8; 4] = rest.get(4..8)?.try_into().ok()?;
        let chunk = rest.get(..len.checked_add(12)?)?;
        if &kind == b"acTL" {
            // Animated PNG: a first frame's own size and offset (fcTL) would be lost.
            return None;
        }
        if matches!(&kind, b"IHDR" | b"PLTE" | b"tRNS" | b"IDAT" | b"IEND") {
            out.extend_from_slice(chunk);
        }
        rest = &rest[chunk.len()..];
        if &kind == b"IEND" {
            return Some(out);
        }
    }
}

/// The error for data that ends early.
fn truncated(data: &[u8]) -> Error {
    Error::new(
        FORMAT,
        ErrorKind::Truncated,
        format!(
            "data ends early: {} bytes are not a complete PNG file",
            data.len()
        ),
        Location::Offset(data.len() as u64),
    )
}

/// Maps an error of the `png` crate to the crate's error.
fn decoding_error(e: ::png::DecodingError, data: &[u8]) -> Error {
    match e {
        ::png::DecodingError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => {
            truncated(data)
        }
        ::png::DecodingError::LimitsExceeded => Error::new(
            FORMAT,
            ErrorKind::LimitExceeded,
            "decoder memory limit exceeded (metadata chunks larger than the allocation limit)",
            Location::None,
        ),
        other => corrupt(FORMAT, other),
    }
}

impl Image {
    /// The picture as a PNG file, palette applied: indexed, RGB or RGBA, whichever keeps
    /// every pixel's colour ([`encode_compact`]).
    pub fn to_png(&self) -> Result<Vec<u8>, ::png::EncodingError> {
        encode_compact(self.width, self.height, &self.to_rgba8())
    }
}
