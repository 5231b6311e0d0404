//! 8-bit paletted BMP files read index for index (and written through `bmp_write`): what the Half-Life QC
//! decompiler writes for each texture (its 256-colour palette, its indices) and what the
//! compiler reads (no requantising). Uncompressed `BI_RGB`, a `BITMAPINFOHEADER`, bottom-up
//! rows padded to 4 bytes, a palette of B G R 0 quads, as studiomdl's `LoadBMP` reads.
//! Other BMPs are refused here ([`read_indexed`]); the general reader is `image::bmp`.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Limits;

/// Format name used in errors.
pub const FORMAT: &str = "bmp";

/// An 8-bit picture: its size, one palette index per pixel (top row first) and 256 RGB
/// colours.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Indexed {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// Palette indices, top row first.
    pub indices: Vec<u8>,
    /// 256 colours, RGB.
    pub palette: Vec<[u8; 3]>,
}

fn row_len(width: u32) -> usize {
    (width as usize + 3) & !3
}

/// The BMP file of `picture` (bottom-up rows, 256 palette entries), through
/// [`encode_indexed`](super::bmp_write::encode_indexed).
pub fn write_indexed(picture: &Indexed) -> Vec<u8> {
    let mut indices = picture.indices.clone();
    indices.resize(picture.width as usize * picture.height as usize, 0);
    super::bmp_write::encode_indexed(
        picture.width,
        picture.height,
        &indices,
        &picture.palette.concat(),
    )
}

fn error(at: u64, kind: ErrorKind, message: impl Into<String>) -> Error {
    Error::new(FORMAT, kind, message, Location::Offset(at))
}

/// Reads an uncompressed 8-bit BMP (`BITMAPINFOHEADER` or later, bottom-up or top-down) as
/// its indices and palette; anything else is an error naming what it is.
pub fn read_indexed(data: &[u8], limits: &Limits) -> Result<Indexed> {
    let u32_at = |o: usize| {
        data.get(o..o + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| error(o as u64, ErrorKind::Truncated, "the header ends early"))
    };
    let u16_at = |o: usize| {
        data.get(o..o + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .ok_or_else(|| error(o as u64, ErrorKind::Truncated, "the header ends early"))
    };
    if !data.starts_with(b"BM") {
        return Err(error(
            0,
            ErrorKind::BadMagic,
            "not a BMP file (expected \"BM\")",
        ));
    }
    let data_at = u32_at(10)? as usize;
    let header = u32_at(14)? as usize;
    if header < 40 {
        return Err(error(14, ErrorKind::Unsupported, format!("a {header}-byte info header (an OS/2 bitmap): only 8-bit Windows BMPs are read as indices")));
    }
    let width = u32_at(18)? as i32;
    let height = u32_at(22)? as i32;
    let bits = u16_at(28)?;
    let compression = u32_at(30)?;
    if bits != 8 || compression != 0 {
        return Err(error(
            28,
            ErrorKind::Unsupported,
            format!("{bits} bits a pixel, compression {compression}: a texture must be an uncompressed 8-bit BMP"),
        ));
    }
    if width <= 0 || height == 0 {
        return Err(error(
            18,
            ErrorKind::InvalidValue,
            format!("size {width}x{height}"),
        ));
    }
    let (w, h) = (width as u32, height.unsigned_abs());
    if w > limits.max_image_dimension || h > limits.max_image_dimension {
        return Err(error(
            18,
            ErrorKind::LimitExceeded,
            format!(
                "size {w}x{h} above the limit {}",
                limits.max_image_dimension
            ),
        ));
    }
    let used = match u32_at(46)? {
        0 => 256,
        n => n.min(256) as usize,
    };
    let pal_at = 14 + header;
    let mut palette = vec![[0u8; 3]; 256];
    for (i, c) in palette.iter_mut().enumerate().take(used) {
        let q = data
            .get(pal_at + 4 * i..pal_at + 4 * i + 3)
            .ok_or_else(|| {
                error(
                    (pal_at + 4 * i) as u64,
                    ErrorKind::Truncated,
                    "the palette ends early",
                )
            })?;
        *c = [q[2], q[1], q[0]];
    }
    let stride = row_len(w);
    let need = stride * h as usize;
    let pixels = data
        .get(data_at..data_at + need)
        .filter(|p| p.len() == need)
        .ok_or_else(|| {
            error(
                data_at as u64,
                ErrorKind::Truncated,
                format!("{need} bytes of pixels expected"),
            )
        })?;
    let mut indices = Vec::with_capacity(w as usize * h as usize);
    for y in 0..h as usize {
        let src = if height > 0 { h as usize - 1 - y } else { y };
        indices.extend_from_slice(&pixels[src * stride..src * stride + w as usize]);
    }
    Ok(Indexed {
        width: w,
        height: h,
        indices,
        palette,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(w: u32, h: u32) -> Indexed {
        Indexed {
            width: w,
            height: h,
            indices: (0..w * h).map(|i| (i * 7 % 256) as u8).collect(),
            palette: (0..256)
                .map(|i| [i as u8, 255 - i as u8, (i * 3) as u8])
                .collect(),
        }
    }

    #[test]
    fn indices_and_palette_come_back() {
        for (w, h) in [(1, 1), (3, 2), (4, 4), (7, 5)] {
            let p = sample(w, h);
            let bytes = write_indexed(&p);
            assert_eq!(
                read_indexed(&bytes, &Limits::default()).unwrap(),
                p,
                "{w}x{h}"
            );
        }
    }

    #[cfg(feature = "textures")]
    #[test]
    fn the_general_reader_sees_the_same_colours() {
        let p = sample(5, 3);
        let img = super::super::bmp::decode(&write_indexed(&p), &Limits::default()).unwrap();
        let rgba = img.to_rgba8();
        for (i, &ix) in p.indices.iter().enumerate() {
            let c = p.palette[ix as usize];
            assert_eq!(&rgba[i * 4..i * 4 + 3], &c[..], "pixel {i}");
        }
    }

    #[test]
    fn other_bmps_are_refused() {
        let mut bytes = write_indexed(&sample(2, 2));
        bytes[28] = 24;
        let e = read_indexed(&bytes, &Limits::default())
            .unwrap_err()
            .to_string();
        assert_eq!(e, "bmp: 24 bits a pixel, compression 0: a texture must be an uncompressed 8-bit BMP at offset 0x1c");
    }
}
