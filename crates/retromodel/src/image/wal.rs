//! Quake 2 WAL textures (`textures/*.wal`), read (feature `textures`).
//!
//! Source: Quake 2's `qfiles.h` (`miptex_t`) and yquake2's `LoadWal`
//! (`src/client/refresh/gl1/gl1_image.c`), which reads only the first mip level, as
//! [`decode`] does.
//!
//! Layout: a 100-byte little-endian header, `name[32]`, `width: u32` at offset 32, `height:
//! u32` at 36, `offsets[4]: u32` at 40 (the pixels of mip levels 0 to 3, each level half the
//! size of the one before), `animname[32]` at 56 (the next frame of an animated texture),
//! `flags`, `contents` and `value` (`i32`, surface and content flags for the map compiler) at
//! 88, 92 and 96; then the mip levels, one byte per pixel, row by row from the top.
//!
//! The bytes are indices into the Quake 2 palette, which is not stored in the file: it is
//! the palette of `pics/colormap.pcx` in the game's data, which the caller reads (for
//! example with [`pcx::decode`](super::pcx::decode)) and passes in. This crate does not embed
//! the Quake 2 palette.
//!
//! Quirks, as read here:
//!
//! - Only mip level 0 is read and checked (`offsets[0]`, `width * height` bytes, which must
//!   lie after the header and inside the data); levels 1 to 3 are not read, as GL renderers
//!   do not.
//! - The result is [`Pixels::Indexed`] with the caller's palette, no fullbright range and no
//!   transparent index. Quake 2's renderers make index 255 transparent when they upload any
//!   8-bit picture, but only draw it so for surfaces flagged `SURF_TRANS33`/`SURF_TRANS66` or
//!   alpha-tested; callers that want that set `transparent_index` to 255 themselves.
//! - The name, animation name and flags are in [`Header`] ([`read_header`]).

use std::sync::Arc;

use super::{header_too_short, Image, Palette, Pixels, Size};
use crate::error::{ErrorKind, Result};
use crate::io::Reader;
use crate::limits::{Budget, Limits};

/// Short format name used in errors (`wal: ... at offset 0x..`).
pub const FORMAT: &str = "wal";

/// Size of the header.
pub const HEADER_LEN: usize = 100;

/// The header of a WAL file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    /// The texture's name (`e1u1/floor1_1`), up to the first NUL.
    pub name: String,
    /// Width of mip level 0 in pixels.
    pub width: u32,
    /// Height of mip level 0 in pixels.
    pub height: u32,
    /// Byte offsets of mip levels 0 to 3.
    pub offsets: [u32; 4],
    /// The next frame of an animated texture (empty if none), up to the first NUL.
    pub animname: String,
    /// Surface flags (`SURF_LIGHT`, `SURF_SKY`, `SURF_TRANS33`, ...).
    pub flags: i32,
    /// Content flags (`CONTENTS_WATER`, ...).
    pub contents: i32,
    /// Light value for `SURF_LIGHT` surfaces.
    pub value: i32,
}

/// Reads the 100-byte header of a WAL file; checks nothing but its length.
pub fn read_header(data: &[u8]) -> Result<Header> {
    let mut r = Reader::new(data, FORMAT);
    if data.len() < HEADER_LEN {
        return Err(header_too_short(FORMAT, data.len(), HEADER_LEN));
    }
    let text = |b: &[u8]| {
        let end = b.iter().position(|&c| c == 0).unwrap_or(b.len());
        String::from_utf8_lossy(&b[..end]).into_owned()
    };
    let name = text(r.bytes(32)?);
    let width = r.u32()?;
    let height = r.u32()?;
    let offsets = [r.u32()?, r.u32()?, r.u32()?, r.u32()?];
    let animname = text(r.bytes(32)?);
    Ok(Header {
        name,
        width,
        height,
        offsets,
        animname,
        flags: r.i32()?,
        contents: r.i32()?,
        value: r.i32()?,
    })
}

/// Decodes mip level 0 of a WAL file with `palette`, the Quake 2 palette from the game's
/// `pics/colormap.pcx`.
///
/// The result is [`Pixels::Indexed`] (no fullbright range, no transparent index; see the
/// [module documentation](self)).
///
/// Fails on a header shorter than 100 bytes or pixels past the end of the data
/// ([`ErrorKind::Truncated`]), a zero side or a mip 0 offset inside the header
/// ([`ErrorKind::InvalidValue`]), and a side above [`Limits::max_image_dimension`] or a
/// picture above [`Limits::max_alloc_bytes`] ([`ErrorKind::LimitExceeded`]). Every error
/// names the byte offset.
pub fn decode(data: &[u8], palette: &Palette, limits: &Limits) -> Result<Image> {
    let header = read_header(data)?;
    let r = Reader::new(data, FORMAT);
    let (width, height) = (header.width, header.height);
    let size = Size::new(FORMAT, width, height, Some(32))
        .non_empty()?
        .within(limits)?;
    let offset = header.offsets[0];
    if (offset as usize) < HEADER_LEN {
        return Err(r.error_at(
            40,
            ErrorKind::InvalidValue,
            format!("mip level 0 offset {offset} lies inside the {HEADER_LEN}-byte header"),
        ));
    }
    // The picture is charged, then checked against the data, before anything is allocated.
    let len = size.pixels();
    size.charge(&mut Budget::new(limits), len + 768)?;
    let end = u64::from(offset) + len;
    if end > data.len() as u64 {
        return Err(r.error_at(
            offset as usize,
            ErrorKind::Truncated,
            format!(
                "mip level 0 ({width}x{height} = {len} bytes at offset {offset:#x}) runs past \
                 the end of the data ({} bytes)",
                data.len()
            ),
        ));
    }
    let indices = data[offset as usize..end as usize].to_vec();
    Ok(Image {
        width,
        height,
        pixels: Pixels::Indexed {
            indices,
            palette: Arc::new(*palette),
            fullbright_start: None,
            transparent_index: None,
        },
        encoded: None,
    })
}
