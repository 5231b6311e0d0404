//! Skin pictures: indexed (with palette, fullbright range and transparent index) or RGBA.

use std::sync::Arc;

mod palette;
pub mod pcx;
#[cfg(feature = "png")]
pub mod png;
mod reduce;

pub use palette::Palette;
pub use reduce::{IndexOptions, Indexed};

/// First palette index that Quake draws at full brightness.
pub const QUAKE_FULLBRIGHT_START: u8 = 224;

/// A picture.
#[derive(Debug, Clone, PartialEq)]
pub struct Image {
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The pixels, row by row from the top.
    pub pixels: Pixels,
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
    let mut out = Vec::with_capacity(data.len() * 2);
    for w in data.chunks_exact(2) {
        let v = u16::from_le_bytes([w[0], w[1]]);
        let (r, g, b) = ((v >> 11) & 31, (v >> 5) & 63, v & 31);
        out.extend_from_slice(&[
            ((r * 255 + 15) / 31) as u8,
            ((g * 255 + 31) / 63) as u8,
            ((b * 255 + 15) / 31) as u8,
            255,
        ]);
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
}
