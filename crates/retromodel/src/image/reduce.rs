//! Palette reduction: any picture to indices into a 256-colour palette, with a highest index
//! (Quake's fullbright range left out), optional Floyd–Steinberg dithering and a transparent
//! index for pixels with alpha below one half.

use crate::hash::FastMap;
use std::collections::HashMap;

use super::{Image, Palette, Pixels};

/// Largest error (per channel) one pixel passes on when dithering. Colours the palette cannot
/// come near (Quake has few saturated greens and blues) would otherwise push ever larger errors
/// along the row and smear wrong colours over their neighbours; the Quake palette's steps are
/// about 16 apart, so ordinary errors are not cut. Chosen on the gradient test: a limit of 48
/// brings its 8x8 block averages closest to the source.
const ERROR_LIMIT: f32 = 48.0;

/// How [`Image::to_indexed_with`] matches colours to a palette.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IndexOptions {
    /// Highest palette index an opaque pixel may get: 223 leaves out Quake's fullbright
    /// colours (224..=255), 255 allows every colour.
    pub last: u8,
    /// Floyd–Steinberg error diffusion in RGB (serpentine: rows alternate direction). The
    /// colour matched at each pixel is the source plus the diffused error, clamped to 0..=255,
    /// and the error each pixel passes on is clamped to 48 a channel, so colours outside the
    /// palette's range do not smear over their neighbours. Without it each colour gets its
    /// nearest palette colour.
    pub dither: bool,
    /// Index given to RGBA pixels whose alpha is below 128 (Quake with `MF_HOLEY`: 255); that
    /// index is then never given to an opaque pixel. `None`: alpha is ignored.
    pub transparent: Option<u8>,
}

impl Default for IndexOptions {
    /// Every index allowed, no dithering, alpha ignored: what [`Image::to_indexed`] does with
    /// `last = 255`.
    fn default() -> Self {
        IndexOptions {
            last: 255,
            dither: false,
            transparent: None,
        }
    }
}

/// The result of [`Image::to_indexed_with`].
#[derive(Debug, Clone, PartialEq)]
pub struct Indexed {
    /// One palette index per pixel, row by row from the top.
    pub indices: Vec<u8>,
    /// Whether any pixel got [`IndexOptions::transparent`].
    pub has_transparent: bool,
    /// Mean Euclidean RGB distance (0..=441.7) between each opaque source pixel and the palette
    /// colour it got; 0 when the indices were kept as they are or no pixel is opaque.
    pub mean_error: f64,
}

impl Indexed {
    /// The result of matching `opaque` pixels whose distances to their colours add up to
    /// `total`: the mean error is 0 when no pixel is opaque.
    fn measured(indices: Vec<u8>, has_transparent: bool, total: f64, opaque: u64) -> Indexed {
        Indexed {
            indices,
            has_transparent,
            mean_error: if opaque == 0 {
                0.0
            } else {
                total / opaque as f64
            },
        }
    }
}

impl Image {
    /// The picture as indices into `palette`, as `options` ask.
    ///
    /// An indexed picture that already uses `palette` keeps its indices as they are (its
    /// fullbright pixels are meant, whatever [`IndexOptions::last`] says); its transparent index,
    /// when it equals [`IndexOptions::transparent`], counts for
    /// [`Indexed::has_transparent`]. Any other picture is matched colour by colour (an indexed
    /// picture through its own palette, its transparent index as alpha 0) to the nearest
    /// palette colour among `0..=last` (squared RGB distance, the lowest index wins a tie),
    /// leaving out the transparent index; with [`IndexOptions::dither`] the error is diffused
    /// Floyd–Steinberg style (transparent pixels neither take nor pass on error).
    ///
    /// Nearest colours are cached per RGB value, so pictures of 1024 x 1024 and more take a
    /// fraction of a second.
    pub fn to_indexed_with(&self, palette: &Palette, options: &IndexOptions) -> Indexed {
        if let Pixels::Indexed {
            indices,
            palette: own,
            transparent_index,
            ..
        } = &self.pixels
        {
            if **own == *palette {
                let has_transparent = match options.transparent {
                    Some(t) if *transparent_index == Some(t) => indices.contains(&t),
                    _ => false,
                };
                return Indexed {
                    indices: indices.clone(),
                    has_transparent,
                    mean_error: 0.0,
                };
            }
        }
        let rgba = match &self.pixels {
            Pixels::Rgba8(p) => std::borrow::Cow::Borrowed(p.as_slice()),
            Pixels::Indexed { .. } => std::borrow::Cow::Owned(self.to_rgba8()),
        };
        let width = self.width as usize;
        let mut nearest = Nearest::new(palette, options.last, options.transparent);
        if options.dither && width > 0 {
            dither(&rgba, width, &mut nearest, options.transparent)
        } else {
            plain(&rgba, &mut nearest, options.transparent)
        }
    }
}

/// Whether a pixel maps to the transparent index.
fn is_hole(p: &[u8], transparent: Option<u8>) -> bool {
    transparent.is_some() && p[3] < 128
}

/// Euclidean distance between two colours.
fn distance(a: [f32; 3], b: [u8; 3]) -> f64 {
    let d = |k: usize| f64::from(a[k]) - f64::from(b[k]);
    (d(0) * d(0) + d(1) * d(1) + d(2) * d(2)).sqrt()
}

/// Nearest colour for each pixel, no diffusion.
fn plain(rgba: &[u8], nearest: &mut Nearest, transparent: Option<u8>) -> Indexed {
    let mut indices = Vec::with_capacity(rgba.len() / 4);
    let mut has_transparent = false;
    let (mut total, mut opaque) = (0f64, 0u64);
    for p in rgba.chunks_exact(4) {
        if let (true, Some(t)) = (is_hole(p, transparent), transparent) {
            indices.push(t);
            has_transparent = true;
            continue;
        }
        let c = [p[0], p[1], p[2]];
        let (i, err) = nearest.find(c);
        indices.push(i);
        total += err;
        opaque += 1;
    }
    Indexed::measured(indices, has_transparent, total, opaque)
}

/// Floyd–Steinberg, serpentine.
fn dither(rgba: &[u8], width: usize, nearest: &mut Nearest, transparent: Option<u8>) -> Indexed {
    let n = rgba.len() / 4;
    let height = n / width;
    let mut indices = vec![0u8; n];
    let mut has_transparent = false;
    let (mut total, mut opaque) = (0f64, 0u64);
    // Error rows with one cell of padding each side: `cur` for this row, `next` for the one
    // below.
    let mut cur = vec![[0f32; 3]; width + 2];
    let mut next = vec![[0f32; 3]; width + 2];
    for y in 0..height {
        let forward = y % 2 == 0;
        for x in 0..width {
            let x = if forward { x } else { width - 1 - x };
            let at = y * width + x;
            let p = &rgba[at * 4..at * 4 + 4];
            if let (true, Some(t)) = (is_hole(p, transparent), transparent) {
                indices[at] = t;
                has_transparent = true;
                continue;
            }
            let e = cur[x + 1];
            let want = [
                (f32::from(p[0]) + e[0]).clamp(0.0, 255.0),
                (f32::from(p[1]) + e[1]).clamp(0.0, 255.0),
                (f32::from(p[2]) + e[2]).clamp(0.0, 255.0),
            ];
            let key = [
                want[0].round() as u8,
                want[1].round() as u8,
                want[2].round() as u8,
            ];
            let (i, _) = nearest.find(key);
            indices[at] = i;
            let got = nearest.palette[i as usize];
            total += distance([p[0].into(), p[1].into(), p[2].into()], got);
            opaque += 1;
            let err = [
                (want[0] - f32::from(got[0])).clamp(-ERROR_LIMIT, ERROR_LIMIT),
                (want[1] - f32::from(got[1])).clamp(-ERROR_LIMIT, ERROR_LIMIT),
                (want[2] - f32::from(got[2])).clamp(-ERROR_LIMIT, ERROR_LIMIT),
            ];
            // Ahead in this row, and behind / below / ahead in the next (mirrored when going
            // right to left). Cells are x + 1 because of the padding.
            let (ahead, behind) = if forward { (x + 2, x) } else { (x, x + 2) };
            for k in 0..3 {
                cur[ahead][k] += err[k] * (7.0 / 16.0);
                next[behind][k] += err[k] * (3.0 / 16.0);
                next[x + 1][k] += err[k] * (5.0 / 16.0);
                next[ahead][k] += err[k] * (1.0 / 16.0);
            }
        }
        std::mem::swap(&mut cur, &mut next);
        next.iter_mut().for_each(|e| *e = [0.0; 3]);
    }
    Indexed::measured(indices, has_transparent, total, opaque)
}

/// Nearest palette colour among the allowed indices, cached per RGB value.
struct Nearest {
    /// The palette's colours.
    palette: [[u8; 3]; 256],
    /// The indices an opaque pixel may get, with their colours, sorted by red.
    candidates: Vec<(u8, [i32; 3])>,
    /// RGB (as `0xRRGGBB`) to (index, Euclidean error).
    cache: FastMap<u32, (u8, f64)>,
}

impl Nearest {
    fn new(palette: &Palette, last: u8, transparent: Option<u8>) -> Self {
        let mut candidates: Vec<(u8, [i32; 3])> = (0..=last)
            .filter(|&i| Some(i) != transparent)
            .map(|i| {
                let [r, g, b] = palette.rgb(i);
                (i, [r.into(), g.into(), b.into()])
            })
            .collect();
        if candidates.is_empty() {
            // Only the transparent index is allowed: nothing better to give.
            let [r, g, b] = palette.rgb(0);
            candidates.push((0, [r.into(), g.into(), b.into()]));
        }
        candidates.sort_by_key(|&(i, p)| (p[0], i));
        Nearest {
            palette: palette.0,
            candidates,
            cache: HashMap::default(),
        }
    }

    /// The nearest allowed index of `rgb` and its Euclidean distance.
    fn find(&mut self, rgb: [u8; 3]) -> (u8, f64) {
        let key = u32::from(rgb[0]) << 16 | u32::from(rgb[1]) << 8 | u32::from(rgb[2]);
        if let Some(&hit) = self.cache.get(&key) {
            return hit;
        }
        let c = [i32::from(rgb[0]), i32::from(rgb[1]), i32::from(rgb[2])];
        // Candidates are sorted by red: walk out from the red of `rgb` both ways and stop a
        // side once its red difference alone is farther than the best so far. Equal distances
        // go to the lower index, as in `Palette::nearest`.
        let mut best = (u8::MAX, i32::MAX);
        let mut consider = |&(i, p): &(u8, [i32; 3])| -> bool {
            let dr = p[0] - c[0];
            if dr * dr > best.1 {
                return false;
            }
            let dg = p[1] - c[1];
            let db = p[2] - c[2];
            let d = dr * dr + dg * dg + db * db;
            if d < best.1 || (d == best.1 && i < best.0) {
                best = (i, d);
            }
            true
        };
        let start = self.candidates.partition_point(|(_, p)| p[0] < c[0]);
        for cand in &self.candidates[start..] {
            if !consider(cand) {
                break;
            }
        }
        for cand in self.candidates[..start].iter().rev() {
            if !consider(cand) {
                break;
            }
        }
        let hit = (best.0, f64::from(best.1).sqrt());
        self.cache.insert(key, hit);
        hit
    }
}
