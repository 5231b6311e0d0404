//! DDS textures (DirectDraw Surface), read (feature `textures`): the top mip level of DXT1,
//! DXT3 and DXT5 (BC1 to BC3) and of uncompressed RGB(A) surfaces.
//!
//! Spec: Microsoft's "Programming Guide for DDS" (`DDS_HEADER`, `DDS_PIXELFORMAT`,
//! `DDS_HEADER_DXT10`) and the Direct3D block compression pages. Blocks are decoded by the
//! `bcdec_rs` crate (a safe port of bcdec). The header is read here: it is 31 fixed
//! little-endian words, and reading it directly gives errors with byte offsets; the
//! `ddsfile` crate copies the whole payload and reports no offsets, and the `image` crate's
//! DDS decoder (deprecated in 0.25) reads no uncompressed surfaces.
//!
//! Layout: the magic `DDS `, a 124-byte header (`size` 124 at offset 4, `flags` at 8,
//! `height` at 12, `width` at 16, `pitch_or_linear_size` at 20, `depth` at 24,
//! `mip_map_count` at 28; the 32-byte pixel format at 76: `size` 32, `flags` at 80,
//! `four_cc` at 84, `rgb_bit_count` at 88, the red, green, blue and alpha masks at 92, 96,
//! 100 and 104; `caps` at 108, `caps2` at 112), with four-CC `DX10` a 20-byte extension at
//! 128 (`dxgi_format`, `resource_dimension`, `misc_flag`, `array_size`, `misc_flags2`), then
//! the surfaces: the top level first, then the smaller mip levels.
//!
//! Read here:
//!
//! - Four-CCs `DXT1` (BC1, with 1-bit alpha: a block whose first colour is not above its
//!   second has a transparent black fourth colour), `DXT3` (BC2, 4-bit explicit alpha) and
//!   `DXT5` (BC3, interpolated alpha); the same as DXGI formats 70 to 78 behind a `DX10`
//!   header. Partial blocks at the right and bottom edges are cut. `DXT2` and `DXT4`
//!   (premultiplied alpha) and every other four-CC are [`ErrorKind::Unsupported`].
//! - Uncompressed surfaces (pixel format flag `DDPF_RGB`, or `DDPF_LUMINANCE` for grey) of 8,
//!   16, 24 or 32 bits a pixel, whatever their masks: each channel is `(pixel & mask)`
//!   shifted down and scaled to 8 bits, so A8R8G8B8 (BGRA in memory), A8B8G8R8 (RGBA),
//!   X8R8G8B8, R8G8B8, R5G6B5, A1R5G5B5, A4R4G4B4 and L8 all read. Alpha comes from the alpha
//!   mask when `DDPF_ALPHAPIXELS` is set, else it is 255. Rows are `(width * bits + 7) / 8`
//!   bytes, as the DDS guide says; the header's pitch is not used (writers filled it in
//!   inconsistently). DXGI formats 27 to 29 (R8G8B8A8) and 87, 88 and 90 to 93 (B8G8R8A8,
//!   B8G8R8X8) read the same way.
//! - Only the top mip level is read; smaller levels after it are ignored. Cube maps give
//!   their first face (+X) and volume textures their first depth slice, and texture arrays
//!   their first element: each is the first surface stored, so this is the picture a
//!   viewer would show first. Texture types other than 2D in a `DX10` header are
//!   [`ErrorKind::Unsupported`].
//! - sRGB formats are read like their linear twins (the bytes are returned unchanged).
//!
//! The header's sizes are checked before anything is allocated: each side against
//! [`Limits::max_image_dimension`], the top level's bytes against the data, and the RGBA8
//! result against [`Limits::max_alloc_bytes`].

use super::{Image, Pixels, Size};
use crate::error::{ErrorKind, Result};
use crate::io::Reader;
use crate::limits::Limits;

/// Short format name used in errors (`dds: ... at offset 0x..`).
pub const FORMAT: &str = "dds";

/// The four bytes every DDS file starts with.
pub const MAGIC: [u8; 4] = *b"DDS ";
/// Size of the magic and the header; the data (or the `DX10` extension) starts here.
const HEADER_END: usize = 128;
/// Size of the `DX10` extension.
const DX10_LEN: usize = 20;

/// `DDS_PIXELFORMAT.flags`: the alpha mask is valid.
const DDPF_ALPHAPIXELS: u32 = 0x1;
/// `DDS_PIXELFORMAT.flags`: alpha only.
const DDPF_ALPHA: u32 = 0x2;
/// `DDS_PIXELFORMAT.flags`: `four_cc` is valid.
const DDPF_FOURCC: u32 = 0x4;
/// `DDS_PIXELFORMAT.flags`: uncompressed RGB.
const DDPF_RGB: u32 = 0x40;
/// `DDS_PIXELFORMAT.flags`: uncompressed luminance (grey).
const DDPF_LUMINANCE: u32 = 0x2_0000;

/// How the top level is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// 4x4 blocks.
    Block(Bc),
    /// Uncompressed pixels with channel masks.
    Masked(Masks),
}

/// The block-compressed formats read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bc {
    /// DXT1: 8 bytes a block.
    Bc1,
    /// DXT3: 16 bytes a block.
    Bc2,
    /// DXT5: 16 bytes a block.
    Bc3,
}

impl Bc {
    /// Bytes per 4x4 block.
    fn block_len(self) -> usize {
        match self {
            Bc::Bc1 => 8,
            Bc::Bc2 | Bc::Bc3 => 16,
        }
    }
}

/// An uncompressed pixel layout: bits per pixel and the channel masks (alpha 0 for none,
/// grey when `luminance`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Masks {
    bits: u32,
    r: u32,
    g: u32,
    b: u32,
    a: u32,
    luminance: bool,
}

/// Decodes the top mip level of a DDS file to an RGBA8 picture.
///
/// Reads DXT1, DXT3 and DXT5 and uncompressed RGB(A) or luminance surfaces; cube maps,
/// volume textures and arrays give their first surface. See the [module
/// documentation](self). The result is [`Pixels::Rgba8`].
///
/// Fails on data that does not start with `DDS ` ([`ErrorKind::BadMagic`]), a header or
/// pixel format of the wrong size, a zero side or an impossible mask layout
/// ([`ErrorKind::InvalidValue`]), a format not read here ([`ErrorKind::Unsupported`]), a side
/// above [`Limits::max_image_dimension`] or a picture above [`Limits::max_alloc_bytes`]
/// ([`ErrorKind::LimitExceeded`]), and data that ends before the top level is complete
/// ([`ErrorKind::Truncated`]). Every error names the byte offset.
pub fn decode(data: &[u8], limits: &Limits) -> Result<Image> {
    let mut r = Reader::new(data, FORMAT);
    if !data.starts_with(&MAGIC) {
        if data.len() < MAGIC.len() && MAGIC.starts_with(data) {
            return Err(too_short(&r, data.len(), HEADER_END, "header"));
        }
        return Err(r.error_at(
            0,
            ErrorKind::BadMagic,
            format!(
                "not a DDS file (magic {:02x?}, expected \"DDS \")",
                &data[..data.len().min(4)]
            ),
        ));
    }
    if data.len() < HEADER_END {
        return Err(too_short(&r, data.len(), HEADER_END, "header"));
    }
    r.seek(4)?;
    let size = r.u32()?;
    let _flags = r.u32()?;
    let height = r.u32()?;
    let width = r.u32()?;
    let _pitch = r.u32()?;
    let _depth = r.u32()?;
    let _mip_count = r.u32()?;
    r.seek(76)?;
    let pf_size = r.u32()?;
    let pf_flags = r.u32()?;
    let four_cc = r.array::<4>()?;
    let bits = r.u32()?;
    let masks = [r.u32()?, r.u32()?, r.u32()?, r.u32()?];

    if size != 124 {
        return Err(r.error_at(
            4,
            ErrorKind::InvalidValue,
            format!("header size {size} (expected 124)"),
        ));
    }
    if pf_size != 32 {
        return Err(r.error_at(
            76,
            ErrorKind::InvalidValue,
            format!("pixel format size {pf_size} (expected 32)"),
        ));
    }

    let mut data_start = HEADER_END;
    let layout = if pf_flags & DDPF_FOURCC != 0 {
        match &four_cc {
            b"DXT1" => Layout::Block(Bc::Bc1),
            b"DXT3" => Layout::Block(Bc::Bc2),
            b"DXT5" => Layout::Block(Bc::Bc3),
            b"DX10" => {
                data_start += DX10_LEN;
                dx10_layout(&mut r, data.len())?
            }
            b"DXT2" | b"DXT4" => {
                return Err(r.error_at(
                    84,
                    ErrorKind::Unsupported,
                    format!(
                        "four-CC {} (premultiplied alpha) is not read",
                        String::from_utf8_lossy(&four_cc)
                    ),
                ))
            }
            _ => {
                return Err(r.error_at(
                    84,
                    ErrorKind::Unsupported,
                    format!(
                        "unsupported four-CC {} ({:02x?}; DXT1, DXT3, DXT5 and DX10 are read)",
                        four_cc.escape_ascii(),
                        four_cc
                    ),
                ))
            }
        }
    } else if pf_flags & (DDPF_RGB | DDPF_LUMINANCE) != 0 {
        let alpha = pf_flags & DDPF_ALPHAPIXELS != 0;
        let m = Masks {
            bits,
            r: masks[0],
            g: masks[1],
            b: masks[2],
            a: if alpha { masks[3] } else { 0 },
            luminance: pf_flags & DDPF_RGB == 0,
        };
        check_masks(&r, m)?;
        Layout::Masked(m)
    } else {
        let what = if pf_flags & DDPF_ALPHA != 0 {
            "alpha-only"
        } else {
            "no RGB, luminance or four-CC"
        };
        return Err(r.error_at(
            80,
            ErrorKind::Unsupported,
            format!("unsupported pixel format flags {pf_flags:#x} ({what})"),
        ));
    };

    // The picture is charged, then the top level must be in the data, before anything is
    // allocated.
    let size = Size::new(FORMAT, width, height, Some(12))
        .non_empty()?
        .within(limits)?;
    let (_budget, out_len) = size.rgba8_budget(limits)?;
    let (w, h) = (u64::from(width), u64::from(height));
    let level_len = match layout {
        Layout::Block(bc) => w.div_ceil(4) * h.div_ceil(4) * bc.block_len() as u64,
        Layout::Masked(m) => (w * u64::from(m.bits)).div_ceil(8) * h,
    };
    let available = data.len().saturating_sub(data_start) as u64;
    if level_len > available {
        return Err(r.error_at(
            data.len(),
            ErrorKind::Truncated,
            format!(
                "top level of {width}x{height} needs {level_len} bytes at offset {data_start:#x}, \
                 {available} are left"
            ),
        ));
    }
    let level = &data[data_start..data_start + level_len as usize];
    let (w, h) = (width as usize, height as usize);
    let mut out = vec![0u8; out_len];
    match layout {
        Layout::Block(bc) => decode_blocks(bc, level, w, h, &mut out),
        Layout::Masked(m) => decode_masked(m, level, w, &mut out),
    }
    Ok(Image {
        width,
        height,
        pixels: Pixels::Rgba8(out),
        encoded: None,
    })
}

/// The error for data shorter than a structure that ends at `end`.
fn too_short(r: &Reader<'_>, len: usize, end: usize, what: &str) -> crate::error::Error {
    r.error_at(
        len,
        ErrorKind::Truncated,
        format!("file of {len} bytes is too short for the {what} (ends at offset {end:#x})"),
    )
}

/// Reads the `DX10` extension at offset 128 and maps its DXGI format.
fn dx10_layout(r: &mut Reader<'_>, len: usize) -> Result<Layout> {
    if len < HEADER_END + DX10_LEN {
        return Err(too_short(r, len, HEADER_END + DX10_LEN, "DX10 header"));
    }
    r.seek(HEADER_END)?;
    let dxgi = r.u32()?;
    let dimension = r.u32()?;
    let _misc = r.u32()?;
    let array_size = r.u32()?;
    if dimension != 3 {
        return Err(r.error_at(
            132,
            ErrorKind::Unsupported,
            format!("resource dimension {dimension} (only 3, a 2D texture, is read)"),
        ));
    }
    if array_size == 0 {
        return Err(r.error_at(
            140,
            ErrorKind::InvalidValue,
            "array size 0 (a texture array holds at least one element)",
        ));
    }
    let bgra = |a: u32| Masks {
        bits: 32,
        r: 0x00ff_0000,
        g: 0x0000_ff00,
        b: 0x0000_00ff,
        a,
        luminance: false,
    };
    Ok(match dxgi {
        70..=72 => Layout::Block(Bc::Bc1),
        73..=75 => Layout::Block(Bc::Bc2),
        76..=78 => Layout::Block(Bc::Bc3),
        27..=29 => Layout::Masked(Masks {
            bits: 32,
            r: 0x0000_00ff,
            g: 0x0000_ff00,
            b: 0x00ff_0000,
            a: 0xff00_0000,
            luminance: false,
        }),
        87 | 90 | 91 => Layout::Masked(bgra(0xff00_0000)),
        88 | 92 | 93 => Layout::Masked(bgra(0)),
        _ => {
            return Err(r.error_at(
                128,
                ErrorKind::Unsupported,
                format!(
                    "unsupported DXGI format {dxgi} (BC1 to BC3 and 8-bit RGBA, BGRA and BGRX \
                     are read)"
                ),
            ))
        }
    })
}

/// Checks an uncompressed layout: 8, 16, 24 or 32 bits, masks inside the pixel, a colour
/// or luminance mask.
fn check_masks(r: &Reader<'_>, m: Masks) -> Result<()> {
    if !matches!(m.bits, 8 | 16 | 24 | 32) {
        return Err(r.error_at(
            88,
            ErrorKind::Unsupported,
            format!(
                "unsupported uncompressed pixel size of {} bits (expected 8, 16, 24 or 32)",
                m.bits
            ),
        ));
    }
    let all = m.r | m.g | m.b | m.a;
    if m.bits < 32 && all >> m.bits != 0 {
        return Err(r.error_at(
            92,
            ErrorKind::InvalidValue,
            format!(
                "channel masks {:#x}, {:#x}, {:#x}, {:#x} reach past the {}-bit pixel",
                m.r, m.g, m.b, m.a, m.bits
            ),
        ));
    }
    if m.r == 0 && (m.luminance || (m.g == 0 && m.b == 0)) {
        return Err(r.error_at(
            92,
            ErrorKind::InvalidValue,
            "no colour channel: the red, green and blue (or luminance) masks are all 0",
        ));
    }
    Ok(())
}

/// Decodes the 4x4 blocks of the top level into `out` (RGBA8, `w` x `h`).
fn decode_blocks(bc: Bc, level: &[u8], w: usize, h: usize, out: &mut [u8]) {
    let blocks_wide = w.div_ceil(4);
    let mut texels = [0u8; 64];
    for (i, block) in level.chunks_exact(bc.block_len()).enumerate() {
        let (bx, by) = (i % blocks_wide * 4, i / blocks_wide * 4);
        match bc {
            Bc::Bc1 => bcdec_rs::bc1(block, &mut texels, 16),
            Bc::Bc2 => bcdec_rs::bc2(block, &mut texels, 16),
            Bc::Bc3 => bcdec_rs::bc3(block, &mut texels, 16),
        }
        for y in 0..4.min(h - by) {
            let cols = 4.min(w - bx);
            let at = ((by + y) * w + bx) * 4;
            out[at..at + cols * 4].copy_from_slice(&texels[y * 16..y * 16 + cols * 4]);
        }
    }
}

/// Decodes uncompressed pixels of the top level (rows of `(w * bits + 7) / 8` bytes) into
/// `out`.
fn decode_masked(m: Masks, level: &[u8], w: usize, out: &mut [u8]) {
    let bytes = (m.bits / 8) as usize;
    let row_len = (w * bytes).max(1);
    let channel = |v: u32, mask: u32| -> u8 {
        if mask == 0 {
            return 0;
        }
        let shift = mask.trailing_zeros();
        let max = u64::from(mask >> shift);
        ((u64::from((v & mask) >> shift) * 255 + max / 2) / max) as u8
    };
    for (row, dst) in level.chunks_exact(row_len).zip(out.chunks_exact_mut(w * 4)) {
        for (p, px) in row.chunks_exact(bytes).zip(dst.chunks_exact_mut(4)) {
            let mut word = [0u8; 4];
            word[..bytes].copy_from_slice(p);
            let v = u32::from_le_bytes(word);
            let red = channel(v, m.r);
            let (g, b) = if m.luminance {
                (red, red)
            } else {
                (channel(v, m.g), channel(v, m.b))
            };
            let a = if m.a == 0 { 255 } else { channel(v, m.a) };
            px.copy_from_slice(&[red, g, b, a]);
        }
    }
}
