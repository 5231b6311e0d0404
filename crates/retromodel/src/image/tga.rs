//! TGA pictures (Truevision TARGA), read (feature `textures`).
//!
//! Spec: Truevision "TGA File Format Specification, Version 2.0" (1989), checked against
//! the loaders games used: Quake 3's `LoadTGA` (`code/renderer/tr_image.c`, 24/32-bit and
//! greyscale, raw and RLE) and stb_image's `stbi__tga_load` (colour-mapped and 16-bit too).
//! Hand-written: the `image` crate's TGA decoder (0.25) refuses 15/16-bit pixels and
//! colour maps, which this format's 16-bit skins use.
//!
//! Layout: an 18-byte little-endian header (`id_length`, `colormap_type`, `image_type`,
//! `cmap_first: u16`, `cmap_length: u16`, `cmap_entry_size`, `x_origin: u16`,
//! `y_origin: u16`, `width: u16` at offset 12, `height: u16` at 14, `pixel_depth` at 16,
//! `descriptor` at 17), the image ID (`id_length` bytes), the colour map
//! (`cmap_length` entries of `cmap_entry_size` bits), then the pixels. Image types: 1
//! colour-mapped, 2 true-colour, 3 greyscale, and 9, 10, 11 the same run-length encoded.
//! Pixels are stored little-endian, blue first: 15/16-bit `ARRRRRGG GGGBBBBB`, 24-bit B G R,
//! 32-bit B G R A.
//!
//! Quirks, as read here:
//!
//! - Origin: bit 5 of the descriptor set means the first stored row is the top one (else the
//!   bottom one, the default); bit 4 set means each row is stored right to left. The result
//!   is always top row first, left to right.
//! - 16-bit pixels: the top bit is alpha only when the descriptor's attribute bits (low
//!   nibble) say 1 alpha bit; otherwise, and for 15-bit pixels, the pixel is opaque (most
//!   writers leave that bit 0 without meaning transparency). 5-bit channels are scaled to 8
//!   bits as `c * 255 / 31`, rounded.
//! - 32-bit pixels: the fourth byte is alpha whatever the attribute bits say, as Quake 3 and
//!   stb_image read it.
//! - Greyscale: 8 bits (grey, alpha 255) or 16 bits (grey, then alpha).
//! - Colour-mapped: 8- or 16-bit indices; entries of 15, 16, 24 or 32 bits, converted as the
//!   pixels above; index `i` takes entry `i - cmap_first`, and an index outside the map is an
//!   error. A colour map in a picture that is not colour-mapped is skipped.
//! - RLE: a packet byte with the top bit set is a run of `(b & 0x7F) + 1` copies of the
//!   pixel after it, else `b + 1` literal pixels follow. Packets may cross rows (version 2.0
//!   forbids it, but writers did it and Quake 3 reads it); a packet that goes past the last
//!   pixel is cut off.
//! - Data that ends before the picture is complete is [`ErrorKind::Truncated`]; anything
//!   after the pixels (developer and extension areas, the `TRUEVISION-XFILE` footer) is
//!   ignored. Image type 0 (no picture) and the Huffman types 32 and 33 are
//!   [`ErrorKind::Unsupported`].
//!
//! The header's sizes are checked before anything is allocated: each side against
//! [`Limits::max_image_dimension`], the pixels against what the data could hold (an RLE
//! packet of `1 + bytes_per_pixel` bytes makes at most 128 pixels), and the RGBA8 result
//! against [`Limits::max_alloc_bytes`], so a tiny file claiming a huge picture fails at once.

use super::{header_too_short, Image, Pixels, Size};
use crate::error::{ErrorKind, Result};
use crate::io::Reader;
use crate::limits::Limits;

/// Short format name used in errors (`tga: ... at offset 0x..`).
pub const FORMAT: &str = "tga";

/// Size of the header.
const HEADER_LEN: usize = 18;
/// Most pixels one RLE packet makes.
const MAX_PACKET: u64 = 128;

/// How stored pixels become colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PixelKind {
    /// B G R (A) little-endian words or bytes: 15, 16, 24 or 32 bits; `alpha` for 16-bit
    /// pixels whose top bit is alpha.
    Colour { alpha: bool },
    /// Grey, then alpha for 16 bits.
    Grey,
    /// Indices of 8 or 16 bits into the colour map.
    Mapped,
}

/// Decodes a TGA file to an RGBA8 picture.
///
/// Reads image types 1, 2, 3 (uncompressed) and 9, 10, 11 (RLE): colour-mapped with 8- or
/// 16-bit indices, true-colour of 15, 16, 24 or 32 bits, greyscale of 8 or 16 bits (grey and
/// alpha), from either origin; see the [module documentation](self) for the quirks. The
/// result is [`Pixels::Rgba8`], top row first.
///
/// Fails on a header of an unknown image type, colour map type or pixel depth
/// ([`ErrorKind::Unsupported`] or [`ErrorKind::InvalidValue`]), a zero side or a colour index
/// outside the map ([`ErrorKind::InvalidValue`], [`ErrorKind::IndexOutOfRange`]), a side
/// above [`Limits::max_image_dimension`] or a picture above [`Limits::max_alloc_bytes`]
/// ([`ErrorKind::LimitExceeded`]), and data that ends early ([`ErrorKind::Truncated`]).
/// Every error names the byte offset.
pub fn decode(data: &[u8], limits: &Limits) -> Result<Image> {
    let mut r = Reader::new(data, FORMAT);
    if data.len() < HEADER_LEN {
        return Err(header_too_short(FORMAT, data.len(), HEADER_LEN));
    }
    let header = Header::read(&mut r)?;
    let (rle, kind) = header.pixel_kind(&r)?;
    let (width, height) = (u32::from(header.width), u32::from(header.height));
    let size = Size::new(FORMAT, width, height, Some(12))
        .non_empty()?
        .within(limits)?;

    // The image ID, then the colour map, converted to RGBA8 once.
    r.bytes(usize::from(header.id_length))?;
    let colour_map = read_colour_map(&mut r, &header, kind)?;

    // The picture is charged, then checked against what the data could hold, before
    // anything is allocated.
    let (_budget, out_len) = size.rgba8_budget(limits)?;
    check_capacity(&r, &header, rle, size.pixels())?;
    let mut out = vec![0u8; out_len];
    unpack(&r, &header, rle, kind, &colour_map, &mut out)?;
    Ok(Image {
        width,
        height,
        pixels: Pixels::Rgba8(out),
        encoded: None,
    })
}

/// The fields of the 18-byte header this decoder uses (the origin is not: rows are placed
/// by the descriptor's bits).
struct Header {
    id_length: u8,
    colormap_type: u8,
    image_type: u8,
    cmap_first: u16,
    cmap_length: u16,
    cmap_entry_size: u8,
    width: u16,
    height: u16,
    depth: u8,
    descriptor: u8,
}

impl Header {
    /// Reads the header; the caller has checked that the data holds it.
    fn read(r: &mut Reader) -> Result<Header> {
        let id_length = r.u8()?;
        let colormap_type = r.u8()?;
        let image_type = r.u8()?;
        let cmap_first = r.u16()?;
        let cmap_length = r.u16()?;
        let cmap_entry_size = r.u8()?;
        let _x_origin = r.u16()?;
        let _y_origin = r.u16()?;
        let width = r.u16()?;
        let height = r.u16()?;
        let depth = r.u8()?;
        let descriptor = r.u8()?;
        Ok(Header {
            id_length,
            colormap_type,
            image_type,
            cmap_first,
            cmap_length,
            cmap_entry_size,
            width,
            height,
            depth,
            descriptor,
        })
    }

    /// The descriptor's attribute bits (low nibble): 1 means 16-bit pixels carry alpha.
    fn alpha_bits(&self) -> u8 {
        self.descriptor & 0x0F
    }

    /// Whether the pixels are run-length encoded, and how they become colours: checks the
    /// image type, the colour map type and the pixel depth against one another.
    fn pixel_kind(&self, r: &Reader) -> Result<(bool, PixelKind)> {
        let Header {
            image_type,
            colormap_type,
            depth,
            ..
        } = *self;
        let rle = match image_type {
            1..=3 => false,
            9..=11 => true,
            0 => {
                return Err(r.error_at(
                    2,
                    ErrorKind::Unsupported,
                    "image type 0: the file holds no picture",
                ))
            }
            32 | 33 => {
                return Err(r.error_at(
                    2,
                    ErrorKind::Unsupported,
                    format!("unsupported image type {image_type} (Huffman-compressed)"),
                ))
            }
            _ => {
                return Err(r.error_at(
                    2,
                    ErrorKind::Unsupported,
                    format!("unknown image type {image_type} (expected 1, 2, 3, 9, 10 or 11)"),
                ))
            }
        };
        if colormap_type > 1 {
            return Err(r.error_at(
                1,
                ErrorKind::InvalidValue,
                format!("colour map type {colormap_type} (expected 0 or 1)"),
            ));
        }
        let kind = match image_type & 7 {
            1 => {
                if colormap_type != 1 {
                    return Err(r.error_at(
                        1,
                        ErrorKind::InvalidValue,
                        "colour-mapped picture without a colour map (colour map type 0)",
                    ));
                }
                if !matches!(depth, 8 | 16) {
                    return Err(r.error_at(
                        16,
                        ErrorKind::Unsupported,
                        format!("unsupported colour index size of {depth} bits (expected 8 or 16)"),
                    ));
                }
                PixelKind::Mapped
            }
            2 => match depth {
                15 | 24 | 32 => PixelKind::Colour { alpha: false },
                16 => PixelKind::Colour {
                    alpha: self.alpha_bits() == 1,
                },
                _ => {
                    return Err(r.error_at(
                        16,
                        ErrorKind::Unsupported,
                        format!(
                            "unsupported true-colour pixel depth {depth} (expected 15, 16, 24 or \
                             32)"
                        ),
                    ))
                }
            },
            _ => match depth {
                8 | 16 => PixelKind::Grey,
                _ => {
                    return Err(r.error_at(
                        16,
                        ErrorKind::Unsupported,
                        format!("unsupported greyscale pixel depth {depth} (expected 8 or 16)"),
                    ))
                }
            },
        };
        Ok((rle, kind))
    }
}

/// Skips the colour map's entries, or converts them to RGBA8 once when the pixels index
/// them; an empty map for pictures that are not colour-mapped.
fn read_colour_map(r: &mut Reader, header: &Header, kind: PixelKind) -> Result<Vec<[u8; 4]>> {
    if header.colormap_type != 1 {
        return Ok(Vec::new());
    }
    let (cmap_entry_size, cmap_length) = (header.cmap_entry_size, header.cmap_length);
    let entry_kind = match cmap_entry_size {
        15 | 24 | 32 => PixelKind::Colour { alpha: false },
        16 => PixelKind::Colour {
            alpha: header.alpha_bits() == 1,
        },
        _ => {
            return Err(r.error_at(
                7,
                ErrorKind::Unsupported,
                format!(
                    "unsupported colour map entry size of {cmap_entry_size} bits (expected \
                     15, 16, 24 or 32)"
                ),
            ))
        }
    };
    let entry_len = usize::from(cmap_entry_size).div_ceil(8);
    let at = r.pos();
    let len = r.pos() + r.remaining();
    let bytes = r.bytes(usize::from(cmap_length) * entry_len).map_err(|_| {
        r.error_at(
            len,
            ErrorKind::Truncated,
            format!(
                "colour map of {cmap_length} entries of {entry_len} bytes at offset {at:#x} \
                 runs past the end of the data ({len} bytes)"
            ),
        )
    })?;
    if kind != PixelKind::Mapped {
        return Ok(Vec::new());
    }
    Ok(bytes
        .chunks_exact(entry_len)
        .map(|p| colour(entry_kind, p))
        .collect())
}

/// Fails when the `n` bytes left could not hold the picture's pixels, however they were
/// packed: a cheap check before the picture is allocated.
fn check_capacity(r: &Reader, header: &Header, rle: bool, pixels: u64) -> Result<()> {
    let pixel_len = usize::from(header.depth).div_ceil(8);
    let n = r.remaining() as u64;
    let capacity = if rle {
        n.div_ceil(1 + pixel_len as u64) * MAX_PACKET
    } else {
        n / pixel_len as u64
    };
    if pixels > capacity {
        let (width, height) = (header.width, header.height);
        return Err(r.error_at(
            r.pos() + r.remaining(),
            ErrorKind::Truncated,
            format!(
                "{n} bytes of {} pixel data cannot hold {width}x{height} pixels of {pixel_len} \
                 bytes",
                if rle { "RLE" } else { "uncompressed" }
            ),
        ));
    }
    Ok(())
}

/// Decodes the pixel data at the reader's position into `out` (RGBA8, top row first, left
/// to right): raw or RLE packets, each stored pixel converted and placed by the
/// descriptor's origin bits.
fn unpack(
    r: &Reader,
    header: &Header,
    rle: bool,
    kind: PixelKind,
    colour_map: &[[u8; 4]],
    out: &mut [u8],
) -> Result<()> {
    let (cmap_first, cmap_length) = (header.cmap_first, header.cmap_length);
    let pixel_len = usize::from(header.depth).div_ceil(8);
    let start = r.pos();
    let stream = r.rest();
    let (w, h) = (usize::from(header.width), usize::from(header.height));
    let top_first = header.descriptor & 0x20 != 0;
    let right_first = header.descriptor & 0x10 != 0;
    // Where the n-th stored pixel goes, in pixels.
    let target = |i: usize| {
        let (row, col) = (i / w, i % w);
        let y = if top_first { row } else { h - 1 - row };
        let x = if right_first { w - 1 - col } else { col };
        y * w + x
    };
    let convert = |at: usize, p: &[u8]| -> Result<[u8; 4]> {
        match kind {
            PixelKind::Mapped => {
                let index = if pixel_len == 1 {
                    usize::from(p[0])
                } else {
                    usize::from(u16::from_le_bytes([p[0], p[1]]))
                };
                index
                    .checked_sub(usize::from(cmap_first))
                    .and_then(|i| colour_map.get(i))
                    .copied()
                    .ok_or_else(|| {
                        r.error_at(
                            at,
                            ErrorKind::IndexOutOfRange,
                            format!(
                                "colour index {index} outside the colour map (entries \
                                 {cmap_first} to {})",
                                i64::from(cmap_first) + i64::from(cmap_length) - 1
                            ),
                        )
                    })
            }
            _ => Ok(colour(kind, p)),
        }
    };
    let total = w * h;
    let mut pos = 0usize;
    let mut i = 0usize;
    let truncated = |at: usize, done: usize| {
        r.error_at(
            start + at,
            ErrorKind::Truncated,
            format!(
                "{} pixel data runs out after {done} of {total} pixels",
                if rle { "RLE" } else { "uncompressed" }
            ),
        )
    };
    while i < total {
        let (count, repeat) = if rle {
            let Some(&b) = stream.get(pos) else {
                return Err(truncated(pos, i));
            };
            pos += 1;
            (usize::from(b & 0x7F) + 1, b & 0x80 != 0)
        } else {
            (total, false)
        };
        let count = count.min(total - i);
        if repeat {
            let Some(p) = stream.get(pos..pos + pixel_len) else {
                return Err(truncated(stream.len(), i));
            };
            let c = convert(start + pos, p)?;
            pos += pixel_len;
            for k in i..i + count {
                let t = target(k) * 4;
                out[t..t + 4].copy_from_slice(&c);
            }
        } else {
            for k in i..i + count {
                let Some(p) = stream.get(pos..pos + pixel_len) else {
                    return Err(truncated(stream.len(), k));
                };
                let c = convert(start + pos, p)?;
                pos += pixel_len;
                let t = target(k) * 4;
                out[t..t + 4].copy_from_slice(&c);
            }
        }
        i += count;
    }
    Ok(())
}

/// One stored colour or grey pixel as RGBA8.
fn colour(kind: PixelKind, p: &[u8]) -> [u8; 4] {
    let five = |v: u16| ((u32::from(v & 31) * 255 + 15) / 31) as u8;
    match (kind, p) {
        (PixelKind::Colour { alpha, .. }, &[lo, hi]) => {
            let v = u16::from_le_bytes([lo, hi]);
            let a = if alpha && v & 0x8000 == 0 { 0 } else { 255 };
            [five(v >> 10), five(v >> 5), five(v), a]
        }
        (PixelKind::Colour { .. }, &[b, g, r]) => [r, g, b, 255],
        (PixelKind::Colour { .. }, &[b, g, r, a]) => [r, g, b, a],
        (PixelKind::Grey, &[g]) => [g, g, g, 255],
        (PixelKind::Grey, &[g, a]) => [g, g, g, a],
        _ => [0, 0, 0, 255],
    }
}
