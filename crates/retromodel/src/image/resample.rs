//! Picture resampling for skins that must change size: [`resize`] (area-averaging downscale,
//! bilinear upscale, on RGBA with premultiplied alpha) and [`fit_within`] (the size a skin
//! gets under a target's limits, aspect ratio kept, sides a multiple of an alignment).
//!
//! Each axis is filtered on its own (separably): an axis that shrinks averages the source
//! texels each output texel covers, weighted by the covered fraction (a box filter, so a 2:1
//! reduction of a checkerboard is its exact mean); an axis that grows interpolates between
//! the two nearest texel centres (bilinear, edges clamped); an axis that keeps its size is
//! copied. Colours are averaged premultiplied by alpha, so a transparent texel (whatever
//! colour it stores, often black) does not darken the opaque texels beside it; an output
//! texel that comes out fully transparent keeps the plain average of the colours it covers.
//! Indexed pictures are converted to RGBA first ([`Image::to_rgba8`]: the transparent index
//! gets alpha 0); the result is always [`Pixels::Rgba8`].
//!
//! # Skin sizes the engines accept
//!
//! What the target engines do with a skin's size, read from their loaders (the rules
//! [`fit_within`]'s `max` and `align` arguments stand for):
//!
//! | engine | rule | source |
//! |---|---|---|
//! | software Quake (WinQuake) | width a multiple of 4 (`Sys_Error "skinwidth not multiple of 4"`), height at most `MAX_LBM_HEIGHT` 480 (`Sys_Error`) | `WinQuake/model.c` `Mod_LoadAliasModel` |
//! | GLQuake | the same two checks; the picture is then resampled to power-of-two sides (rounded up), each at most `gl_max_size` (1024 by default), and more than 1024 x 512 texels after rounding is `Sys_Error "GL_LoadTexture: too big"` | `WinQuake/gl_model.c`, `WinQuake/gl_draw.c` `GL_Upload32` |
//! | QuakeSpasm | no width check; a height above 480 is only a developer warning (`Con_DWarning`); skins are padded, not resampled, to power-of-two sides where the driver needs it (`TEXPREF_PAD`) | `Quake/gl_model.c` `Mod_LoadAliasModel`, `Mod_LoadAllSkins` |
//! | Quake 2 (MD2) | header skin height at most `MAX_LBM_HEIGHT` 480 (`ERR_DROP "has a skin taller than 480"`), in the GL and software renderers alike; no width rule | `ref_gl/gl_model.c`, `ref_soft/r_model.c` `Mod_LoadAliasModel` |
//! | Quake 2 GL renderer | the skin picture is resampled to power-of-two sides (rounded down with `gl_round_down`'s default 1) and each side capped at 256 ("don't ever bother with >256 textures") | `ref_gl/gl_image.c` `GL_Upload32` |
//!
//! The crate's validators hold the same numbers (`formats::quake_mdl` engine limits,
//! `formats::md2` `MAX_SKIN_HEIGHT`). Quake 1 and Quake 2 GL renderers also flood-fill an
//! 8-bit skin from its top-left texel (`Mod_FloodFillSkin`, `R_FloodFillSkin`): the region of
//! that texel's colour connected to the corner is repainted with neighbouring colours, so a
//! picture whose corner colour runs into painted areas changes there.

use std::borrow::Cow;
use std::collections::VecDeque;

use super::{Image, Pixels};

/// The picture scaled to `width` x `height`: area-averaged where an axis shrinks, bilinear
/// where it grows, alpha-correct (see the module documentation). The result is RGBA8 with
/// no file kept ([`Image::encoded`] `None`). A zero target side gives an empty picture; an
/// empty source gives transparent black.
pub fn resize(image: &Image, width: u32, height: u32) -> Image {
    let (sw, sh) = (image.width as usize, image.height as usize);
    let (dw, dh) = (width as usize, height as usize);
    let src = rgba_of(image);
    if (sw, sh) == (dw, dh) {
        return Image::new(width, height, Pixels::Rgba8(src.into_owned()));
    }
    let mut out = vec![0u8; dw * dh * 4];
    if dw == 0 || dh == 0 || sw == 0 || sh == 0 {
        return Image::new(width, height, Pixels::Rgba8(out));
    }
    let xs = Contributions::new(sw, dw);
    let ys = Contributions::new(sh, dh);
    // Horizontally filtered source rows, those of the current output row's window only: the
    // windows move down monotonically, so the cache holds consecutive rows.
    let mut cache: VecDeque<(usize, Vec<f32>)> = VecDeque::new();
    let mut spare: Vec<Vec<f32>> = Vec::new();
    let mut acc = vec![0f32; dw * CHANNELS];
    for (y, out_row) in out.chunks_exact_mut(dw * 4).enumerate() {
        let (first, weights) = ys.of(y);
        while cache.front().is_some_and(|(r, _)| *r < first) {
            if let Some((_, row)) = cache.pop_front() {
                spare.push(row);
            }
        }
        for r in first..first + weights.len() {
            if cache.back().is_some_and(|(last, _)| *last >= r) {
                continue;
            }
            let mut row = spare.pop().unwrap_or_default();
            filter_row(&src, sw, r, &xs, &mut row);
            cache.push_back((r, row));
        }
        acc.fill(0.0);
        let base = cache.front().map_or(first, |(r, _)| *r);
        for (k, &w) in weights.iter().enumerate() {
            if let Some((_, row)) = cache.get(first + k - base) {
                for (a, &v) in acc.iter_mut().zip(row) {
                    *a += w * v;
                }
            }
        }
        for (px, a) in out_row.chunks_exact_mut(4).zip(acc.chunks_exact(CHANNELS)) {
            px.copy_from_slice(&unpremultiply(a));
        }
    }
    Image::new(width, height, Pixels::Rgba8(out))
}

/// The size `(width, height)` a `w` x `h` picture gets to fit within `max_w` x `max_h`: scaled
/// down by one factor for both sides (never up) so the aspect ratio is kept up to rounding,
/// then each side rounded to the nearest multiple of `align` (0 counts as 1), at least
/// `align` and at most the largest multiple of `align` within the maximum (a maximum below
/// `align` gives `align`). A picture with a zero side gives `(0, 0)`.
///
/// For the engines' rules (see the module documentation): Quake MDL for software Quake
/// wants `align` 4 and a height of at most 480; MD2 a height of at most 480; GL engines of
/// the time drew power-of-two sides at most 256 (Quake 2) or 1024 (GLQuake), which a caller
/// asks for with those maxima.
pub fn fit_within(w: u32, h: u32, max_w: u32, max_h: u32, align: u32) -> (u32, u32) {
    if w == 0 || h == 0 {
        return (0, 0);
    }
    let align = u64::from(align.max(1));
    let cap = |m: u32| (u64::from(m) / align * align).max(align);
    let (cap_w, cap_h) = (cap(max_w), cap(max_h));
    let scale = (cap_w as f64 / w as f64)
        .min(cap_h as f64 / h as f64)
        .min(1.0);
    let side = |n: u32, cap: u64| -> u32 {
        let scaled = ((n as f64 * scale).round() as u64).max(1);
        let aligned = (scaled + align / 2) / align * align;
        aligned.clamp(align, cap) as u32
    };
    (side(w, cap_w), side(h, cap_h))
}

/// The picture's pixels as RGBA8: borrowed when they already are, converted otherwise.
pub(crate) fn rgba_of(image: &Image) -> Cow<'_, [u8]> {
    match &image.pixels {
        Pixels::Rgba8(p) => Cow::Borrowed(p),
        Pixels::Indexed { .. } => Cow::Owned(image.to_rgba8()),
    }
}

/// Floats per filtered texel: premultiplied red, green, blue; alpha (0..=1); and the plain
/// red, green, blue, for texels that come out fully transparent.
const CHANNELS: usize = 7;

/// Which source texels make each output texel of one axis, with their weights (summing to 1).
struct Contributions {
    /// Per output texel: its first source texel and where its weights start in `weights`.
    spans: Vec<(usize, usize)>,
    /// The weights of every output texel, one after another.
    weights: Vec<f32>,
}

impl Contributions {
    /// The contributions for an axis of `src` texels resampled to `dst` (both non-zero).
    fn new(src: usize, dst: usize) -> Self {
        let mut spans = Vec::with_capacity(dst + 1);
        let mut weights = Vec::with_capacity(dst * 2);
        let ratio = src as f64 / dst as f64;
        for i in 0..dst {
            let start = weights.len();
            let first = if src == dst {
                weights.push(1.0);
                i
            } else if dst < src {
                // The output texel covers [lo, hi) of the source; each texel weighs the part
                // of it that lies inside.
                let (lo, hi) = (i as f64 * ratio, (i + 1) as f64 * ratio);
                let first = lo.floor() as usize;
                let end = (hi.ceil() as usize).min(src);
                for s in first..end {
                    let w = hi.min(s as f64 + 1.0) - lo.max(s as f64);
                    weights.push((w.max(0.0) / ratio) as f32);
                }
                first
            } else {
                // Texel centres line up: output centre i + 0.5 sits at source (i + 0.5) * ratio.
                let x = ((i as f64 + 0.5) * ratio - 0.5).clamp(0.0, (src - 1) as f64);
                let x0 = x.floor() as usize;
                let f = x - x0 as f64;
                if f > 0.0 && x0 + 1 < src {
                    weights.extend([(1.0 - f) as f32, f as f32]);
                } else {
                    weights.push(1.0);
                }
                x0
            };
            spans.push((first, start));
        }
        spans.push((0, weights.len()));
        Contributions { spans, weights }
    }

    /// Output texel `i`'s first source texel and weights.
    fn of(&self, i: usize) -> (usize, &[f32]) {
        let (first, start) = self.spans[i];
        let end = self.spans[i + 1].1;
        (first, &self.weights[start..end])
    }
}

/// Source row `r` of the `width`-texel RGBA picture `src`, filtered along x into `out`
/// ([`CHANNELS`] floats per output texel). Missing pixels (a short buffer) count as
/// transparent black.
fn filter_row(src: &[u8], width: usize, r: usize, xs: &Contributions, out: &mut Vec<f32>) {
    let dst = xs.spans.len() - 1;
    out.clear();
    out.resize(dst * CHANNELS, 0.0);
    let row = src.get(r * width * 4..(r + 1) * width * 4).unwrap_or(&[]);
    for (x, o) in out.chunks_exact_mut(CHANNELS).enumerate() {
        let (first, weights) = xs.of(x);
        for (k, &w) in weights.iter().enumerate() {
            let s = (first + k) * 4;
            let Some(p) = row.get(s..s + 4) else {
                continue;
            };
            let a = f32::from(p[3]) / 255.0;
            let [r, g, b] = [p[0], p[1], p[2]].map(f32::from);
            o[0] += w * r * a;
            o[1] += w * g * a;
            o[2] += w * b * a;
            o[3] += w * a;
            o[4] += w * r;
            o[5] += w * g;
            o[6] += w * b;
        }
    }
}

/// One filtered texel back to RGBA8: colour divided by alpha, or the plain colour average
/// where nothing opaque contributed.
fn unpremultiply(a: &[f32]) -> [u8; 4] {
    let byte = |v: f32| v.round().clamp(0.0, 255.0) as u8;
    let alpha = a[3];
    let rgb = if alpha > 1e-6 {
        [a[0] / alpha, a[1] / alpha, a[2] / alpha]
    } else {
        [a[4], a[5], a[6]]
    };
    [
        byte(rgb[0]),
        byte(rgb[1]),
        byte(rgb[2]),
        byte(alpha * 255.0),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::Palette;
    use std::sync::Arc;

    fn rgba(width: u32, height: u32, px: impl Fn(u32, u32) -> [u8; 4]) -> Image {
        let mut data = Vec::with_capacity((width * height * 4) as usize);
        for y in 0..height {
            for x in 0..width {
                data.extend_from_slice(&px(x, y));
            }
        }
        Image::new(width, height, Pixels::Rgba8(data))
    }

    fn pixel(image: &Image, x: u32, y: u32) -> [u8; 4] {
        let Pixels::Rgba8(p) = &image.pixels else {
            panic!("not RGBA");
        };
        let i = ((y * image.width + x) * 4) as usize;
        p[i..i + 4].try_into().unwrap()
    }

    #[test]
    fn checkerboard_halved_is_its_exact_mean() {
        let board = rgba(8, 6, |x, y| {
            if (x + y) % 2 == 0 {
                [10, 200, 40, 255]
            } else {
                [30, 100, 60, 255]
            }
        });
        let half = resize(&board, 4, 3);
        assert_eq!((half.width, half.height), (4, 3));
        for y in 0..3 {
            for x in 0..4 {
                assert_eq!(pixel(&half, x, y), [20, 150, 50, 255], "({x}, {y})");
            }
        }
        // A 3:1 reduction of a 1-in-3 stripe pattern: a third of each.
        let stripes = rgba(
            9,
            1,
            |x, _| if x % 3 == 0 { [90, 0, 0, 255] } else { [0; 4] },
        );
        let third = resize(&stripes, 3, 1);
        // Alpha a third, colour kept (premultiplied): the transparent texels add no black.
        assert_eq!(pixel(&third, 1, 0), [90, 0, 0, 85]);
    }

    #[test]
    fn fractional_reduction_weighs_covered_parts() {
        // 3 texels to 2: the middle texel is split half and half.
        let row = rgba(3, 1, |x, _| {
            [[0, 0, 0, 255], [100, 100, 100, 255], [200, 200, 200, 255]][x as usize]
        });
        let two = resize(&row, 2, 1);
        // Output 0 covers [0, 1.5): 2/3 of texel 0 and 1/3 of texel 1 -> 33.3.
        assert_eq!(pixel(&two, 0, 0), [33, 33, 33, 255]);
        assert_eq!(pixel(&two, 1, 0), [167, 167, 167, 255]);
    }

    #[test]
    fn half_transparent_edge_keeps_its_colour() {
        // An opaque red texel beside a transparent black one, and a half-transparent green
        // beside transparent white: averaging keeps the colours, only alpha drops.
        let edge = rgba(4, 1, |x, _| {
            [
                [255, 0, 0, 255],
                [0, 0, 0, 0],
                [0, 200, 0, 128],
                [255, 255, 255, 0],
            ][x as usize]
        });
        let half = resize(&edge, 2, 1);
        assert_eq!(pixel(&half, 0, 0), [255, 0, 0, 128]);
        assert_eq!(pixel(&half, 1, 0), [0, 200, 0, 64]);
        // A naive average would have darkened red to 128.
        // Fully transparent areas keep their plain colour.
        let clear = rgba(2, 2, |_, _| [40, 80, 120, 0]);
        assert_eq!(pixel(&resize(&clear, 1, 1), 0, 0), [40, 80, 120, 0]);
    }

    #[test]
    fn upscale_interpolates_and_keeps_edges() {
        let row = rgba(2, 1, |x, _| {
            if x == 0 {
                [0, 0, 0, 255]
            } else {
                [200, 200, 200, 255]
            }
        });
        let four = resize(&row, 4, 1);
        // Centres at source 0, 0.25, 0.75, 1 (clamped at the ends).
        let got: Vec<u8> = (0..4).map(|x| pixel(&four, x, 0)[0]).collect();
        assert_eq!(got, [0, 50, 150, 200]);
        // Upscaling one axis while halving the other.
        let mixed = resize(&rgba(2, 4, |x, _| [x as u8 * 100, 0, 0, 255]), 4, 2);
        assert_eq!(pixel(&mixed, 0, 0), [0, 0, 0, 255]);
        assert_eq!(pixel(&mixed, 3, 1), [100, 0, 0, 255]);
    }

    #[test]
    fn indexed_pictures_resample_through_rgba() {
        let palette = Palette::QUAKE;
        let image = Image::new(
            2,
            1,
            Pixels::Indexed {
                indices: vec![251, 255],
                palette: Arc::new(palette),
                fullbright_start: None,
                transparent_index: Some(255),
            },
        );
        let one = resize(&image, 1, 1);
        let [r, g, b] = palette.rgb(251);
        // The transparent index adds alpha 0 and no colour.
        assert_eq!(pixel(&one, 0, 0), [r, g, b, 128]);
        // Same size: a plain conversion.
        assert_eq!(resize(&image, 2, 1).pixels, Pixels::Rgba8(image.to_rgba8()));
        // Degenerate sizes.
        assert_eq!(resize(&image, 0, 3).width, 0);
        let empty = Image::new(0, 0, Pixels::Rgba8(Vec::new()));
        assert_eq!(resize(&empty, 2, 2).pixels, Pixels::Rgba8(vec![0; 16]));
    }

    #[test]
    fn fit_within_keeps_aspect_and_alignment() {
        // Already fits: unchanged with align 1, rounded to the nearest multiple otherwise.
        assert_eq!(fit_within(300, 200, 512, 512, 1), (300, 200));
        assert_eq!(fit_within(301, 199, 512, 512, 4), (300, 200));
        assert_eq!(fit_within(302, 198, 512, 512, 4), (304, 200));
        // A 1024x1024 Red Eclipse skin for Quake 2's 480 height: 480x480.
        assert_eq!(fit_within(1024, 1024, 4096, 480, 1), (480, 480));
        // Wide picture under a square limit, MDL widths a multiple of 4.
        assert_eq!(fit_within(1000, 250, 480, 480, 4), (480, 120));
        assert_eq!(fit_within(1001, 333, 480, 480, 4), (480, 160));
        // Tall picture: the height is the binding side; the result stays within the limits.
        let (w, h) = fit_within(333, 2000, 4096, 480, 4);
        assert_eq!((w, h), (80, 480));
        // Aspect kept to within rounding.
        let (w, h) = fit_within(640, 480, 256, 256, 1);
        assert_eq!((w, h), (256, 192));
        // Never up, never below one alignment step, never above the aligned maximum.
        assert_eq!(fit_within(1, 1, 480, 480, 4), (4, 4));
        assert_eq!(fit_within(2000, 10, 481, 481, 4), (480, 4));
        assert_eq!(fit_within(5, 5, 2, 2, 4), (4, 4));
        assert_eq!(fit_within(0, 10, 480, 480, 4), (0, 0));
        assert_eq!(fit_within(10, 10, 480, 480, 0), (10, 10));
    }
}
