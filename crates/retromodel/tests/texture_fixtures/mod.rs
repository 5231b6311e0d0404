//! Tiny encoders for generated texture fixtures: each returns the file and the RGBA8 picture
//! (top row first) a correct decoder must give, computed here from the stored values, apart
//! from the library's code; and the truncation and bit-flip [`sweep`]. Shared by
//! tests/textures.rs, tests/textures_sweeps.rs, tests/pcx_sweeps.rs and the `fuzz_seeds`
//! example.

#![allow(dead_code)]

/// A small xorshift generator (the fixtures must not depend on the test order).
pub struct Gen(pub u64);

impl Gen {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn byte(&mut self) -> u8 {
        (self.next() >> 24) as u8
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A 5-bit channel scaled to 8 bits, rounded (`c * 255 / 31`).
pub fn five(c: u32) -> u8 {
    (f64::from(c & 31) * 255.0 / 31.0).round() as u8
}

/// A 6-bit channel scaled to 8 bits, rounded.
pub fn six(c: u32) -> u8 {
    (f64::from(c & 63) * 255.0 / 63.0).round() as u8
}

/// A generated file and the picture it holds.
pub struct Fixture {
    pub name: String,
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// RGBA8, top row first.
    pub rgba: Vec<u8>,
}

// ---------------------------------------------------------------------------------------
// TGA

/// The TGA pixel layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tga {
    /// 8-bit grey (type 3).
    Grey8,
    /// 16-bit grey and alpha (type 3).
    GreyAlpha16,
    /// 15-bit colour (type 2).
    Rgb15,
    /// 16-bit colour, top bit alpha when `alpha` (descriptor attribute bits 1).
    Rgb16 { alpha: bool },
    /// 24-bit B G R.
    Rgb24,
    /// 32-bit B G R A.
    Rgba32,
    /// 8-bit indices into a colour map of `entry_bits` (15, 16, 24, 32).
    Mapped8 { entry_bits: u8 },
    /// 16-bit indices into a 24-bit colour map.
    Mapped16,
}

/// One stored TGA colour of `bits` (15, 16 with `alpha`, 24, 32) as RGBA8.
fn tga_colour(p: &[u8], alpha: bool) -> [u8; 4] {
    match *p {
        [lo, hi] => {
            let v = u32::from(u16::from_le_bytes([lo, hi]));
            let a = if alpha && v & 0x8000 == 0 { 0 } else { 255 };
            [five(v >> 10), five(v >> 5), five(v), a]
        }
        [b, g, r] => [r, g, b, 255],
        [b, g, r, a] => [r, g, b, a],
        _ => unreachable!(),
    }
}

/// A random stored value of `len` bytes; with `runs`, often a copy of `prev`, so RLE has runs.
fn value(g: &mut Gen, len: usize, prev: &[u8]) -> Vec<u8> {
    if !prev.is_empty() && g.below(3) == 0 {
        return prev.to_vec();
    }
    (0..len).map(|_| g.byte()).collect()
}

/// A TGA file of `kind`, `w` x `h`, raw or RLE, with the first stored row at the top when
/// `top` and each row stored right to left when `right`.
pub fn tga(kind: Tga, rle: bool, top: bool, right: bool, w: u32, h: u32, seed: u64) -> Fixture {
    let mut g = Gen(seed | 1);
    let (image_type, depth, attr) = match kind {
        Tga::Grey8 => (3, 8, 0),
        Tga::GreyAlpha16 => (3, 16, 8),
        Tga::Rgb15 => (2, 15, 0),
        Tga::Rgb16 { alpha } => (2, 16, u8::from(alpha)),
        Tga::Rgb24 => (2, 24, 0),
        Tga::Rgba32 => (2, 32, 8),
        Tga::Mapped8 { entry_bits } => (1, 8, u8::from(entry_bits == 16)),
        Tga::Mapped16 => (1, 16, 0),
    };
    let pixel_len = (depth as usize).div_ceil(8);
    // The colour map: 40 entries from index 5 (8-bit indices) or 300 from 1000 (16-bit).
    let (map_first, map_len, entry_bits) = match kind {
        Tga::Mapped8 { entry_bits } => (5u16, 40u16, entry_bits),
        Tga::Mapped16 => (1000, 300, 24),
        _ => (0, 0, 0),
    };
    let entry_len = (entry_bits as usize).div_ceil(8);
    let map: Vec<Vec<u8>> = (0..map_len)
        .map(|_| (0..entry_len).map(|_| g.byte()).collect())
        .collect();

    // The stored values in picture order (top row first, left to right), and their colours.
    let (wu, hu) = (w as usize, h as usize);
    let mut values: Vec<Vec<u8>> = Vec::with_capacity(wu * hu);
    let mut rgba = Vec::with_capacity(wu * hu * 4);
    let mut prev: Vec<u8> = Vec::new();
    for _ in 0..wu * hu {
        let v = match kind {
            Tga::Mapped8 { .. } => {
                let i = map_first as u64 + g.below(map_len as u64);
                if !prev.is_empty() && g.below(3) == 0 {
                    prev.clone()
                } else {
                    vec![i as u8]
                }
            }
            Tga::Mapped16 => {
                let i = map_first as u64 + g.below(map_len as u64);
                if !prev.is_empty() && g.below(3) == 0 {
                    prev.clone()
                } else {
                    (i as u16).to_le_bytes().to_vec()
                }
            }
            _ => value(&mut g, pixel_len, &prev),
        };
        let c = match kind {
            Tga::Grey8 => [v[0], v[0], v[0], 255],
            Tga::GreyAlpha16 => [v[0], v[0], v[0], v[1]],
            Tga::Rgb15 => tga_colour(&v, false),
            Tga::Rgb16 { alpha } => tga_colour(&v, alpha),
            Tga::Rgb24 | Tga::Rgba32 => tga_colour(&v, false),
            Tga::Mapped8 { entry_bits } => {
                let e = &map[(v[0] as u16 - map_first) as usize];
                tga_colour(e, entry_bits == 16)
            }
            Tga::Mapped16 => {
                let i = u16::from_le_bytes([v[0], v[1]]);
                tga_colour(&map[(i - map_first) as usize], false)
            }
        };
        rgba.extend_from_slice(&c);
        prev = v.clone();
        values.push(v);
    }
    // Stored order.
    let mut stored: Vec<&[u8]> = Vec::with_capacity(wu * hu);
    for row in 0..hu {
        let y = if top { row } else { hu - 1 - row };
        for col in 0..wu {
            let x = if right { wu - 1 - col } else { col };
            stored.push(&values[y * wu + x]);
        }
    }

    let mut f = vec![0u8; 18];
    let id = b"generated";
    f[0] = id.len() as u8;
    f[1] = u8::from(map_len > 0);
    f[2] = image_type + if rle { 8 } else { 0 };
    f[3..5].copy_from_slice(&map_first.to_le_bytes());
    f[5..7].copy_from_slice(&map_len.to_le_bytes());
    f[7] = entry_bits;
    f[12..14].copy_from_slice(&(w as u16).to_le_bytes());
    f[14..16].copy_from_slice(&(h as u16).to_le_bytes());
    f[16] = depth;
    f[17] = attr | if top { 0x20 } else { 0 } | if right { 0x10 } else { 0 };
    f.extend_from_slice(id);
    for e in &map {
        f.extend_from_slice(e);
    }
    if rle {
        f.extend_from_slice(&tga_rle(&stored));
    } else {
        for p in &stored {
            f.extend_from_slice(p);
        }
    }
    // A TGA 2.0 footer, which readers ignore.
    f.extend_from_slice(&[0; 8]);
    f.extend_from_slice(b"TRUEVISION-XFILE.\0");
    Fixture {
        name: format!(
            "{kind:?}_{}_{}{}.tga",
            if rle { "rle" } else { "raw" },
            if top { "top" } else { "bottom" },
            if right { "_right" } else { "" }
        )
        .replace([' ', '{', '}', ':'], ""),
        bytes: f,
        width: w,
        height: h,
        rgba,
    }
}

/// TGA run-length packets for `pixels`: runs of 2 to 128 equal pixels, literal packets of
/// up to 128 others; packets cross rows.
pub fn tga_rle(pixels: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < pixels.len() {
        let mut run = 1;
        while i + run < pixels.len() && run < 128 && pixels[i + run] == pixels[i] {
            run += 1;
        }
        if run >= 2 {
            out.push(0x80 | (run - 1) as u8);
            out.extend_from_slice(pixels[i]);
            i += run;
            continue;
        }
        let mut lit = 1;
        while i + lit < pixels.len()
            && lit < 128
            && !(i + lit + 1 < pixels.len() && pixels[i + lit] == pixels[i + lit + 1])
        {
            lit += 1;
        }
        out.push((lit - 1) as u8);
        for p in &pixels[i..i + lit] {
            out.extend_from_slice(p);
        }
        i += lit;
    }
    out
}

// ---------------------------------------------------------------------------------------
// BMP

/// BMP pixel layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bmp {
    /// 8-bit paletted, `BITMAPINFOHEADER`.
    Paletted8,
    /// 24-bit B G R.
    Rgb24,
    /// 32-bit B G R and an unused byte (`BI_RGB`): alpha 255.
    Rgbx32,
    /// 32-bit with `BI_BITFIELDS` masks and an alpha mask in a V4 header.
    Rgba32,
}

/// A BMP file of `kind`, bottom-up or top-down (negative height).
pub fn bmp(kind: Bmp, top_down: bool, w: u32, h: u32, seed: u64) -> Fixture {
    let mut g = Gen(seed | 1);
    let (bits, header_len, compression): (u16, u32, u32) = match kind {
        Bmp::Paletted8 => (8, 40, 0),
        Bmp::Rgb24 => (24, 40, 0),
        Bmp::Rgbx32 => (32, 40, 0),
        Bmp::Rgba32 => (32, 108, 3),
    };
    let palette: Vec<[u8; 4]> = if kind == Bmp::Paletted8 {
        (0..256)
            .map(|_| [g.byte(), g.byte(), g.byte(), 0])
            .collect()
    } else {
        Vec::new()
    };
    let bpp = usize::from(bits / 8);
    let stride = (w as usize * bpp).div_ceil(4) * 4;
    let (wu, hu) = (w as usize, h as usize);
    let mut rows = vec![vec![0u8; stride]; hu]; // picture order, top first
    let mut rgba = Vec::with_capacity(wu * hu * 4);
    for row in rows.iter_mut() {
        for x in 0..wu {
            let p = &mut row[x * bpp..x * bpp + bpp];
            for b in p.iter_mut() {
                *b = g.byte();
            }
            rgba.extend_from_slice(&match kind {
                Bmp::Paletted8 => {
                    let [b, g, r, _] = palette[p[0] as usize];
                    [r, g, b, 255]
                }
                Bmp::Rgb24 | Bmp::Rgbx32 => [p[2], p[1], p[0], 255],
                Bmp::Rgba32 => [p[2], p[1], p[0], p[3]],
            });
        }
    }
    let data_offset = 14 + header_len as usize + palette.len() * 4;
    let mut f = Vec::new();
    f.extend_from_slice(b"BM");
    f.extend_from_slice(&((data_offset + stride * hu) as u32).to_le_bytes());
    f.extend_from_slice(&[0; 4]);
    f.extend_from_slice(&(data_offset as u32).to_le_bytes());
    f.extend_from_slice(&header_len.to_le_bytes());
    f.extend_from_slice(&(w as i32).to_le_bytes());
    let height = if top_down { -(h as i32) } else { h as i32 };
    f.extend_from_slice(&height.to_le_bytes());
    f.extend_from_slice(&1u16.to_le_bytes());
    f.extend_from_slice(&bits.to_le_bytes());
    f.extend_from_slice(&compression.to_le_bytes());
    f.extend_from_slice(&((stride * hu) as u32).to_le_bytes());
    f.extend_from_slice(&2835i32.to_le_bytes());
    f.extend_from_slice(&2835i32.to_le_bytes());
    f.extend_from_slice(&(palette.len() as u32).to_le_bytes());
    f.extend_from_slice(&0u32.to_le_bytes());
    if header_len == 108 {
        for mask in [0x00ff_0000u32, 0x0000_ff00, 0x0000_00ff, 0xff00_0000] {
            f.extend_from_slice(&mask.to_le_bytes());
        }
        f.extend_from_slice(b"BGRs"); // LCS_sRGB, little-endian
        f.extend_from_slice(&[0; 36 + 12]);
    }
    for c in &palette {
        f.extend_from_slice(c);
    }
    assert_eq!(f.len(), data_offset);
    if top_down {
        for r in &rows {
            f.extend_from_slice(r);
        }
    } else {
        for r in rows.iter().rev() {
            f.extend_from_slice(r);
        }
    }
    Fixture {
        name: format!(
            "{kind:?}_{}.bmp",
            if top_down { "top_down" } else { "bottom_up" }
        ),
        bytes: f,
        width: w,
        height: h,
        rgba,
    }
}

// ---------------------------------------------------------------------------------------
// DDS

/// `DDS_PIXELFORMAT.flags` bits.
pub const DDPF_ALPHAPIXELS: u32 = 0x1;
pub const DDPF_FOURCC: u32 = 0x4;
pub const DDPF_RGB: u32 = 0x40;
pub const DDPF_LUMINANCE: u32 = 0x2_0000;

/// A DDS header (magic included, 128 bytes) for a `w` x `h` texture.
pub fn dds_header(
    w: u32,
    h: u32,
    pf_flags: u32,
    four_cc: &[u8; 4],
    bits: u32,
    masks: [u32; 4],
    caps2: u32,
) -> Vec<u8> {
    let mut f = vec![0u8; 128];
    f[..4].copy_from_slice(b"DDS ");
    let put = |f: &mut Vec<u8>, at: usize, v: u32| f[at..at + 4].copy_from_slice(&v.to_le_bytes());
    put(&mut f, 4, 124);
    put(&mut f, 8, 0x1 | 0x2 | 0x4 | 0x1000); // CAPS, HEIGHT, WIDTH, PIXELFORMAT
    put(&mut f, 12, h);
    put(&mut f, 16, w);
    put(&mut f, 28, 1);
    put(&mut f, 76, 32);
    put(&mut f, 80, pf_flags);
    f[84..88].copy_from_slice(four_cc);
    put(&mut f, 88, bits);
    for (k, m) in masks.iter().enumerate() {
        put(&mut f, 92 + 4 * k, *m);
    }
    put(&mut f, 108, 0x1000);
    put(&mut f, 112, caps2);
    f
}

/// A 565 colour as RGBA8 (rounded scaling).
pub fn rgb565(c: u16) -> [u8; 4] {
    let c = u32::from(c);
    [five(c >> 11), six(c >> 5), five(c), 255]
}

/// The colours of a BC1 colour block, reference formula of the Direct3D docs (interpolated
/// in 8 bits; decoders may differ by 1); `opaque` forces the four-colour mode (BC2, BC3).
pub fn bc1_palette(block: &[u8], opaque: bool) -> [[u8; 4]; 4] {
    let c0 = u16::from_le_bytes([block[0], block[1]]);
    let c1 = u16::from_le_bytes([block[2], block[3]]);
    let (a, b) = (rgb565(c0), rgb565(c1));
    let mix = |p: u32, q: u32, d: u32| -> [u8; 4] {
        let m = |k: usize| {
            ((p * u32::from(a[k]) + q * u32::from(b[k])) as f64 / d as f64).round() as u8
        };
        [m(0), m(1), m(2), 255]
    };
    if c0 > c1 || opaque {
        [a, b, mix(2, 1, 3), mix(1, 2, 3)]
    } else {
        [a, b, mix(1, 1, 2), [0, 0, 0, 0]]
    }
}

/// The 16 alphas of a BC3 alpha block (reference formula; decoders may differ by 1).
pub fn bc3_alphas(block: &[u8]) -> [u8; 16] {
    let (a0, a1) = (u32::from(block[0]), u32::from(block[1]));
    let mut table = [0u8; 8];
    table[0] = a0 as u8;
    table[1] = a1 as u8;
    for k in 1..7u32 {
        if a0 > a1 {
            table[1 + k as usize] = ((f64::from((7 - k) * a0 + k * a1)) / 7.0).round() as u8;
        } else if k < 5 {
            table[1 + k as usize] = ((f64::from((5 - k) * a0 + k * a1)) / 5.0).round() as u8;
        }
    }
    if a0 <= a1 {
        table[6] = 0;
        table[7] = 255;
    }
    let mut bits = 0u64;
    for (k, &b) in block[2..8].iter().enumerate() {
        bits |= u64::from(b) << (8 * k);
    }
    std::array::from_fn(|i| table[((bits >> (3 * i)) & 7) as usize])
}

/// The 16 RGBA8 texels (row by row) of one block of `format` (1, 2 or 3).
pub fn bc_block(format: u8, block: &[u8]) -> [[u8; 4]; 16] {
    let colour = if format == 1 { block } else { &block[8..] };
    let pal = bc1_palette(colour, format != 1);
    let idx = u32::from_le_bytes([colour[4], colour[5], colour[6], colour[7]]);
    let mut out: [[u8; 4]; 16] = std::array::from_fn(|i| pal[((idx >> (2 * i)) & 3) as usize]);
    match format {
        2 => {
            for (i, t) in out.iter_mut().enumerate() {
                let nibble = (block[i / 2] >> (4 * (i % 2))) & 15;
                t[3] = nibble * 17;
            }
        }
        3 => {
            let alphas = bc3_alphas(block);
            for (t, a) in out.iter_mut().zip(alphas) {
                t[3] = a;
            }
        }
        _ => {}
    }
    out
}

/// A block-compressed DDS (`DXT1`, `DXT3`, `DXT5`) of random blocks, `w` x `h`, with one
/// smaller mip level after the top one; `caps2` 0x200 | 0xFC00 makes it a cube map (the other
/// faces are random bytes).
pub fn dds_bc(format: u8, w: u32, h: u32, caps2: u32, seed: u64) -> Fixture {
    let mut g = Gen(seed | 1);
    let four_cc = match format {
        1 => b"DXT1",
        2 => b"DXT3",
        _ => b"DXT5",
    };
    let block_len = if format == 1 { 8 } else { 16 };
    let (bw, bh) = (w.div_ceil(4) as usize, h.div_ceil(4) as usize);
    let mut f = dds_header(w, h, DDPF_FOURCC, four_cc, 0, [0; 4], caps2);
    let blocks: Vec<Vec<u8>> = (0..bw * bh)
        .map(|i| {
            let mut b: Vec<u8> = (0..block_len).map(|_| g.byte()).collect();
            // Both BC1 modes: c0 > c1 in even blocks, c0 <= c1 in odd ones.
            let c = block_len - 8;
            let (c0, c1) = (
                u16::from_le_bytes([b[c], b[c + 1]]),
                u16::from_le_bytes([b[c + 2], b[c + 3]]),
            );
            if (c0 > c1) != (i % 2 == 0) {
                b.swap(c, c + 2);
                b.swap(c + 1, c + 3);
            }
            b
        })
        .collect();
    let mut rgba = vec![0u8; (w * h * 4) as usize];
    for (i, b) in blocks.iter().enumerate() {
        f.extend_from_slice(b);
        let texels = bc_block(format, b);
        let (bx, by) = (i % bw * 4, i / bw * 4);
        for (k, t) in texels.iter().enumerate() {
            let (x, y) = (bx + k % 4, by + k / 4);
            if x < w as usize && y < h as usize {
                let at = (y * w as usize + x) * 4;
                rgba[at..at + 4].copy_from_slice(t);
            }
        }
    }
    // A second mip level and, for a cube map, five more faces: random bytes.
    let extra = block_len * (bw.div_ceil(2) * bh.div_ceil(2)).max(1)
        + if caps2 & 0x200 != 0 { 5 * f.len() } else { 0 };
    f.extend((0..extra).map(|_| g.byte()));
    Fixture {
        name: format!(
            "dxt{}{}.dds",
            [0, 1, 3, 5][format as usize],
            if caps2 != 0 { "_cube" } else { "" }
        ),
        bytes: f,
        width: w,
        height: h,
        rgba,
    }
}

/// Uncompressed DDS layouts: `bits`, masks `[r, g, b, a]`, pixel format flags.
pub const DDS_MASKED: &[(&str, u32, [u32; 4], u32)] = &[
    (
        "a8r8g8b8",
        32,
        [0x00ff_0000, 0x0000_ff00, 0x0000_00ff, 0xff00_0000],
        DDPF_RGB | DDPF_ALPHAPIXELS,
    ),
    (
        "a8b8g8r8",
        32,
        [0x0000_00ff, 0x0000_ff00, 0x00ff_0000, 0xff00_0000],
        DDPF_RGB | DDPF_ALPHAPIXELS,
    ),
    (
        "x8r8g8b8",
        32,
        [0x00ff_0000, 0x0000_ff00, 0x0000_00ff, 0],
        DDPF_RGB,
    ),
    (
        "r8g8b8",
        24,
        [0x00ff_0000, 0x0000_ff00, 0x0000_00ff, 0],
        DDPF_RGB,
    ),
    ("r5g6b5", 16, [0xf800, 0x07e0, 0x001f, 0], DDPF_RGB),
    (
        "a1r5g5b5",
        16,
        [0x7c00, 0x03e0, 0x001f, 0x8000],
        DDPF_RGB | DDPF_ALPHAPIXELS,
    ),
    (
        "a4r4g4b4",
        16,
        [0x0f00, 0x00f0, 0x000f, 0xf000],
        DDPF_RGB | DDPF_ALPHAPIXELS,
    ),
    ("l8", 8, [0xff, 0, 0, 0], DDPF_LUMINANCE),
];

/// One channel by mask, scaled to 8 bits with rounding (0 for no mask).
pub fn masked(v: u32, mask: u32) -> u8 {
    if mask == 0 {
        return 0;
    }
    let shift = mask.trailing_zeros();
    let max = f64::from(mask >> shift);
    (f64::from((v & mask) >> shift) * 255.0 / max).round() as u8
}

/// An uncompressed DDS of layout `DDS_MASKED[layout]`, `w` x `h`, random pixels.
pub fn dds_masked(layout: usize, w: u32, h: u32, seed: u64) -> Fixture {
    let mut g = Gen(seed | 1);
    let (name, bits, m, flags) = DDS_MASKED[layout];
    let mut f = dds_header(w, h, flags, &[0; 4], bits, m, 0);
    let bytes = (bits / 8) as usize;
    let mut rgba = Vec::new();
    for _ in 0..w * h {
        let mut word = [0u8; 4];
        for b in word.iter_mut().take(bytes) {
            *b = g.byte();
        }
        f.extend_from_slice(&word[..bytes]);
        let v = u32::from_le_bytes(word);
        let r = masked(v, m[0]);
        let (gg, b) = if flags & DDPF_LUMINANCE != 0 {
            (r, r)
        } else {
            (masked(v, m[1]), masked(v, m[2]))
        };
        let a = if flags & DDPF_ALPHAPIXELS != 0 {
            masked(v, m[3])
        } else {
            255
        };
        rgba.extend_from_slice(&[r, gg, b, a]);
    }
    Fixture {
        name: format!("{name}.dds"),
        bytes: f,
        width: w,
        height: h,
        rgba,
    }
}

/// A DDS with a `DX10` header of `dxgi` format holding `payload` (the top level).
pub fn dds_dx10(w: u32, h: u32, dxgi: u32, misc: u32, payload: &[u8]) -> Vec<u8> {
    let mut f = dds_header(w, h, DDPF_FOURCC, b"DX10", 0, [0; 4], 0);
    for v in [dxgi, 3, misc, 1, 0] {
        f.extend_from_slice(&v.to_le_bytes());
    }
    f.extend_from_slice(payload);
    f
}

// ---------------------------------------------------------------------------------------
// WAL

/// A palette unlike the Quake ones: every entry differs.
pub fn wal_palette() -> retromodel::image::Palette {
    let mut p = [[0u8; 3]; 256];
    for (i, c) in p.iter_mut().enumerate() {
        *c = [(i * 3) as u8, (255 - i) as u8, (i * 11 + 7) as u8];
    }
    retromodel::image::Palette(p)
}

/// A Quake 2 WAL texture `w` x `h` with four mip levels (each a quarter of the one before),
/// and its mip 0 indices.
pub fn wal(w: u32, h: u32, seed: u64) -> (Vec<u8>, Vec<u8>) {
    let mut g = Gen(seed | 1);
    let mut f = vec![0u8; 100];
    f[..12].copy_from_slice(b"e1u1/floor1\0");
    f[32..36].copy_from_slice(&w.to_le_bytes());
    f[36..40].copy_from_slice(&h.to_le_bytes());
    f[56..68].copy_from_slice(b"e1u1/floor1b");
    f[88..92].copy_from_slice(&8i32.to_le_bytes()); // SURF_SKY
    f[92..96].copy_from_slice(&1i32.to_le_bytes()); // CONTENTS_SOLID
    f[96..100].copy_from_slice(&300i32.to_le_bytes());
    let mut mip0 = Vec::new();
    for level in 0..4u32 {
        let at = f.len() as u32;
        f[40 + 4 * level as usize..44 + 4 * level as usize].copy_from_slice(&at.to_le_bytes());
        let n = ((w >> level).max(1) * (h >> level).max(1)) as usize;
        let px: Vec<u8> = (0..n).map(|_| g.byte()).collect();
        if level == 0 {
            mip0 = px.clone();
        }
        f.extend_from_slice(&px);
    }
    (f, mip0)
}

// ---------------------------------------------------------------------------------------
// JPEG

/// A smooth RGB gradient `w` x `h` (JPEG keeps smooth pictures within a few levels).
pub fn gradient(w: u32, h: u32) -> Vec<u8> {
    let mut out = Vec::new();
    for y in 0..h {
        for x in 0..w {
            out.extend_from_slice(&[
                (x * 255 / (w - 1).max(1)) as u8,
                (y * 255 / (h - 1).max(1)) as u8,
                ((x + y) * 255 / (w + h - 2).max(1)) as u8,
            ]);
        }
    }
    out
}

/// A JPEG of `rgb` (or grey when `grey`), baseline or progressive, quality 95.
pub fn jpeg(rgb: &[u8], w: u32, h: u32, progressive: bool, grey: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = jpeg_encoder::Encoder::new(&mut out, 95);
    enc.set_progressive(progressive);
    if grey {
        let luma: Vec<u8> = rgb.chunks_exact(3).map(|p| p[0]).collect();
        enc.encode(&luma, w as u16, h as u16, jpeg_encoder::ColorType::Luma)
            .unwrap();
    } else {
        enc.encode(rgb, w as u16, h as u16, jpeg_encoder::ColorType::Rgb)
            .unwrap();
    }
    out
}

/// Every generated fixture with a name hint, for sweeps and fuzz seeds (WAL excluded: it
/// needs a palette).
pub fn all() -> Vec<Fixture> {
    let mut out = Vec::new();
    let kinds = [
        Tga::Grey8,
        Tga::GreyAlpha16,
        Tga::Rgb15,
        Tga::Rgb16 { alpha: true },
        Tga::Rgb16 { alpha: false },
        Tga::Rgb24,
        Tga::Rgba32,
        Tga::Mapped8 { entry_bits: 24 },
        Tga::Mapped8 { entry_bits: 32 },
        Tga::Mapped8 { entry_bits: 16 },
        Tga::Mapped8 { entry_bits: 15 },
        Tga::Mapped16,
    ];
    let mut seed = 1;
    for kind in kinds {
        for rle in [false, true] {
            for (top, right) in [(false, false), (true, false), (false, true), (true, true)] {
                seed += 1;
                out.push(tga(kind, rle, top, right, 7, 5, seed));
            }
        }
    }
    for kind in [Bmp::Paletted8, Bmp::Rgb24, Bmp::Rgbx32, Bmp::Rgba32] {
        for top_down in [false, true] {
            seed += 1;
            out.push(bmp(kind, top_down, 5, 3, seed));
        }
    }
    for format in 1..=3 {
        seed += 1;
        out.push(dds_bc(format, 10, 7, 0, seed));
    }
    for layout in 0..DDS_MASKED.len() {
        seed += 1;
        out.push(dds_masked(layout, 5, 3, seed));
    }
    out
}

// ---------------------------------------------------------------------------------------
// Sweeps

/// How [`sweep`] broke one copy of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Break {
    /// Cut to this many bytes.
    Cut(usize),
    /// One bit flipped in the byte at this offset.
    Flip(usize),
    /// The n-th copy with 2 to 5 bits flipped anywhere.
    MultiFlip(usize),
}

impl std::fmt::Display for Break {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Break::Cut(n) => write!(f, "cut at {n}"),
            Break::Flip(at) => write!(f, "flip at {at}"),
            Break::MultiFlip(i) => write!(f, "multi-flip {i}"),
        }
    }
}

/// Truncations of `bytes` at every length, one flipped bit at every byte, then
/// `multi_flips` copies with 2 to 5 bits flipped anywhere: each broken copy goes to `check`
/// with how it was broken. `below(n)` draws a number below `n` (the caller's generator, so
/// that each sweep keeps its own sequence). Gives the number of cases.
pub fn sweep(
    bytes: &[u8],
    multi_flips: usize,
    below: &mut dyn FnMut(usize) -> usize,
    check: &mut dyn FnMut(&[u8], Break),
) -> usize {
    for cut in 0..bytes.len() {
        check(&bytes[..cut], Break::Cut(cut));
    }
    for n in 0..bytes.len() + multi_flips {
        let mut b = bytes.to_vec();
        let how = if n < bytes.len() {
            b[n] ^= 1 << below(8);
            Break::Flip(n)
        } else {
            for _ in 0..2 + below(4) {
                let at = below(b.len());
                b[at] ^= 1 << below(8);
            }
            Break::MultiFlip(n - bytes.len())
        };
        check(&b, how);
    }
    2 * bytes.len() + multi_flips
}
