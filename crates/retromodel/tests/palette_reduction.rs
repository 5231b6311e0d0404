//! Palette reduction (`Image::to_indexed_with`) on a generated 256 x 64 gradient (hue sweep
//! across, brightness down) against the Quake palette: index ranges, what dithering buys
//! (block-averaged colours closer to the source), alpha to the transparent index, indexed
//! pictures, and speed on 1024 x 1024.

use std::sync::Arc;

use retromodel::image::{Image, IndexOptions, Indexed, Palette, Pixels};

const W: u32 = 256;
const H: u32 = 64;

/// HSV (h in 0..360, s and v in 0..=1) to RGB.
fn hsv(h: f64, s: f64, v: f64) -> [u8; 3] {
    let c = v * s;
    let hp = h / 60.0;
    let x = c * (1.0 - (hp % 2.0 - 1.0).abs());
    let (r, g, b) = match hp as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let m = v - c;
    let q = |t: f64| ((t + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    [q(r), q(g), q(b)]
}

/// The gradient: hue 0..360 across, brightness 1.0 at the top down to 0.1, saturation 0.8;
/// alpha from `alpha(x, y)`.
fn gradient(alpha: impl Fn(u32, u32) -> u8) -> Image {
    let mut rgba = Vec::with_capacity((W * H * 4) as usize);
    for y in 0..H {
        for x in 0..W {
            let v = 1.0 - 0.9 * f64::from(y) / f64::from(H - 1);
            let [r, g, b] = hsv(f64::from(x) * 360.0 / f64::from(W), 0.8, v);
            rgba.extend_from_slice(&[r, g, b, alpha(x, y)]);
        }
    }
    Image {
        width: W,
        height: H,
        pixels: Pixels::Rgba8(rgba),
        encoded: None,
    }
}

fn rgba(image: &Image) -> &[u8] {
    match &image.pixels {
        Pixels::Rgba8(p) => p,
        _ => unreachable!(),
    }
}

/// Mean Euclidean distance between the 8 x 8 block averages of the source and of the palette
/// colours the indices stand for: what the eye sees from a distance.
fn block_error(image: &Image, indices: &[u8], palette: &Palette) -> f64 {
    let src = rgba(image);
    let (mut total, mut blocks) = (0.0, 0);
    for by in (0..H).step_by(8) {
        for bx in (0..W).step_by(8) {
            let mut a = [0f64; 3];
            let mut b = [0f64; 3];
            for y in by..by + 8 {
                for x in bx..bx + 8 {
                    let at = (y * W + x) as usize;
                    let pal = palette.rgb(indices[at]);
                    for k in 0..3 {
                        a[k] += f64::from(src[at * 4 + k]);
                        b[k] += f64::from(pal[k]);
                    }
                }
            }
            let d: f64 = (0..3).map(|k| ((a[k] - b[k]) / 64.0).powi(2)).sum();
            total += d.sqrt();
            blocks += 1;
        }
    }
    total / f64::from(blocks)
}

fn reduce(image: &Image, last: u8, dither: bool, transparent: Option<u8>) -> Indexed {
    image.to_indexed_with(
        &Palette::QUAKE,
        &IndexOptions {
            last,
            dither,
            transparent,
        },
    )
}

#[test]
fn indices_stay_in_range_and_fullbrights_only_when_asked() {
    let img = gradient(|_, _| 255);
    for dither in [false, true] {
        let r = reduce(&img, 223, dither, None);
        assert_eq!(r.indices.len(), (W * H) as usize);
        assert!(r.indices.iter().all(|&i| i <= 223), "dither {dither}");
        assert!(!r.has_transparent);
        let all = reduce(&img, 255, dither, None);
        assert!(
            all.indices.iter().any(|&i| i >= 224),
            "the bright gradient uses fullbright colours when they are allowed (dither {dither})"
        );
        assert!(
            all.mean_error <= r.mean_error + 1e-9 || dither,
            "more colours cannot be worse without dithering"
        );
    }
    // Other highest indices are honoured too.
    let r = reduce(&img, 15, true, None);
    assert!(r.indices.iter().all(|&i| i <= 15));
}

#[test]
fn dithering_brings_block_averages_closer() {
    let img = gradient(|_, _| 255);
    let pal = Palette::QUAKE;
    for last in [223u8, 255] {
        let plain = reduce(&img, last, false, None);
        let dithered = reduce(&img, last, true, None);
        let plain_blocks = block_error(&img, &plain.indices, &pal);
        let dithered_blocks = block_error(&img, &dithered.indices, &pal);
        eprintln!(
            "Quake palette, 256x64 gradient, last = {last}: mean colour error {:.2} without \
             dithering, {:.2} with; 8x8 block averages {plain_blocks:.2} without, \
             {dithered_blocks:.2} with",
            plain.mean_error, dithered.mean_error
        );
        assert!(
            dithered_blocks < plain_blocks,
            "dithering must bring the 8x8 block averages closer ({dithered_blocks} vs \
             {plain_blocks})"
        );
        assert_ne!(plain.indices, dithered.indices);
        // Per pixel, the nearest colour is the smallest error there is.
        assert!(plain.mean_error <= dithered.mean_error);
        assert!(plain.mean_error > 0.0);
    }
}

#[test]
fn plain_matching_equals_to_indexed() {
    let img = gradient(|_, _| 255);
    for last in [223u8, 255] {
        assert_eq!(
            reduce(&img, last, false, None).indices,
            img.to_indexed(&Palette::QUAKE, last)
        );
    }
    let default = img.to_indexed_with(&Palette::QUAKE, &IndexOptions::default());
    assert_eq!(default.indices, img.to_indexed(&Palette::QUAKE, 255));
}

#[test]
fn alpha_below_half_maps_to_the_transparent_index_and_only_it() {
    // Alpha varies across and down: 0..=255 in steps, so both sides of 128 appear.
    let alpha = |x: u32, y: u32| ((x * 7 + y * 13) % 256) as u8;
    let img = gradient(alpha);
    for (last, dither) in [(223u8, false), (223, true), (255, false), (255, true)] {
        let r = reduce(&img, last, dither, Some(255));
        assert!(r.has_transparent);
        for y in 0..H {
            for x in 0..W {
                let i = r.indices[(y * W + x) as usize];
                if alpha(x, y) < 128 {
                    assert_eq!(i, 255, "({x}, {y}) alpha {}", alpha(x, y));
                } else {
                    assert_ne!(
                        i, 255,
                        "({x}, {y}) is opaque (last {last}, dither {dither})"
                    );
                    assert!(i <= last);
                }
            }
        }
    }
    // Without a transparent index alpha is ignored.
    let r = reduce(&img, 223, false, None);
    assert!(!r.has_transparent);
    assert_eq!(r.indices, img.to_indexed(&Palette::QUAKE, 223));
    // All opaque: nothing transparent.
    let opaque = gradient(|_, _| 255);
    assert!(!reduce(&opaque, 255, true, Some(255)).has_transparent);
    // Alpha exactly 128 is opaque, 127 transparent.
    let edge = Image {
        width: 2,
        height: 1,
        pixels: Pixels::Rgba8(vec![10, 10, 10, 127, 10, 10, 10, 128]),
        encoded: None,
    };
    let r = reduce(&edge, 223, false, Some(255));
    assert_eq!(r.indices[0], 255);
    assert_ne!(r.indices[1], 255);
}

#[test]
fn indexed_pictures() {
    let quake = Arc::new(Palette::QUAKE);
    let indices: Vec<u8> = (0..=255u8).collect();
    let same = Image {
        width: 16,
        height: 16,
        pixels: Pixels::Indexed {
            indices: indices.clone(),
            palette: quake.clone(),
            fullbright_start: Some(224),
            transparent_index: Some(255),
        },
        encoded: None,
    };
    // Same palette: indices kept (fullbrights too), the transparent index reported.
    let r = reduce(&same, 223, true, Some(255));
    assert_eq!(r.indices, indices);
    assert!(r.has_transparent);
    assert_eq!(r.mean_error, 0.0);
    assert!(!reduce(&same, 223, false, None).has_transparent);

    // Another palette: matched colour by colour, as to_indexed does.
    let mut other = Palette::QUAKE;
    for c in other.0.iter_mut() {
        *c = [c[2], c[0], c[1]];
    }
    let img = Image {
        width: 16,
        height: 16,
        pixels: Pixels::Indexed {
            indices,
            palette: Arc::new(other),
            fullbright_start: None,
            transparent_index: None,
        },
        encoded: None,
    };
    let r = reduce(&img, 223, false, None);
    assert_eq!(r.indices, img.to_indexed(&Palette::QUAKE, 223));
    assert!(r.indices.iter().all(|&i| i <= 223));
    assert!(r.mean_error > 0.0);
}

#[test]
fn a_megapixel_of_distinct_colours_reduces() {
    // 1024 x 1024 of many distinct colours (speed: `retromodel bench --palette`, BENCHMARKS.md).
    let n = 1024u32;
    let mut rgba = Vec::with_capacity((n * n * 4) as usize);
    let mut s = 0x1234_5678u32;
    for y in 0..n {
        for x in 0..n {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            rgba.extend_from_slice(&[
                (x / 4) as u8 ^ (s & 15) as u8,
                (y / 4) as u8,
                ((x + y) / 8) as u8 ^ (s >> 8 & 15) as u8,
                255,
            ]);
        }
    }
    let img = Image {
        width: n,
        height: n,
        pixels: Pixels::Rgba8(rgba),
        encoded: None,
    };
    for dither in [false, true] {
        let r = reduce(&img, 223, dither, Some(255));
        assert_eq!(r.indices.len(), (n * n) as usize);
        assert!(r.indices.iter().all(|&i| i <= 223));
        assert!(!r.has_transparent);
        assert!(
            r.mean_error > 0.0 && r.mean_error < 64.0,
            "{}",
            r.mean_error
        );
    }
}
