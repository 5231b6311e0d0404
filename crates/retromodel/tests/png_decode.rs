//! PNG decoding: round trip with `encode_rgba8`, every colour type and bit depth (files built
//! here byte by byte: signature, chunks with CRC, zlib stored blocks), truncation and corruption
//! sweeps that must never panic, and size limits checked before allocating.
//!
//! The test pictures are built by hand rather than with the `png` crate's encoder because
//! `png` is not a dev-dependency of this crate; a hand-built file also pins the exact bytes
//! (bit packing of 1/2/4-bit samples, 16-bit big-endian samples, `tRNS` keys).

#![cfg(feature = "png")]

use retromodel::image::png::{decode, encode_compact, encode_rgba8};
use retromodel::image::Pixels;
use retromodel::{ErrorKind, Limits};

const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

fn adler32(data: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for &x in data {
        a = (a + u32::from(x)) % 65521;
        b = (b + a) % 65521;
    }
    (b << 16) | a
}

/// zlib stream of stored (uncompressed) deflate blocks.
fn zlib_stored(data: &[u8]) -> Vec<u8> {
    let mut out = vec![0x78, 0x01];
    let mut blocks = data.chunks(65535).peekable();
    if blocks.peek().is_none() {
        out.extend_from_slice(&[1, 0, 0, 0xff, 0xff]);
    }
    while let Some(block) = blocks.next() {
        out.push(u8::from(blocks.peek().is_none()));
        let len = block.len() as u16;
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(block);
    }
    out.extend_from_slice(&adler32(data).to_be_bytes());
    out
}

fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// A PNG file: `rows` are the unfiltered scanlines (already packed for the bit depth).
fn build_png(
    width: u32,
    height: u32,
    bit_depth: u8,
    color_type: u8,
    plte: Option<&[u8]>,
    trns: Option<&[u8]>,
    rows: &[Vec<u8>],
) -> Vec<u8> {
    let mut out = SIGNATURE.to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend_from_slice(&width.to_be_bytes());
    ihdr.extend_from_slice(&height.to_be_bytes());
    ihdr.extend_from_slice(&[bit_depth, color_type, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    if let Some(p) = plte {
        chunk(&mut out, b"PLTE", p);
    }
    if let Some(t) = trns {
        chunk(&mut out, b"tRNS", t);
    }
    let mut raw = Vec::new();
    for row in rows {
        raw.push(0); // filter type None
        raw.extend_from_slice(row);
    }
    chunk(&mut out, b"IDAT", &zlib_stored(&raw));
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Packs samples of `bits` bits (1, 2, 4) into bytes, most significant first.
fn pack(samples: &[u8], bits: u8) -> Vec<u8> {
    let per = 8 / bits as usize;
    samples
        .chunks(per)
        .map(|c| {
            c.iter().enumerate().fold(0u8, |acc, (i, &s)| {
                acc | (s << (8 - bits as usize * (i + 1)))
            })
        })
        .collect()
}

fn rgba_of(data: &[u8]) -> (u32, u32, Vec<u8>) {
    let img = decode(data, &Limits::default()).unwrap();
    match img.pixels {
        Pixels::Rgba8(p) => (img.width, img.height, p),
        other => panic!("expected RGBA8, got {other:?}"),
    }
}

fn test_rgba(width: u32, height: u32) -> Vec<u8> {
    (0..width * height)
        .flat_map(|i| {
            let (x, y) = (i % width, i / width);
            [
                (x * 37 % 256) as u8,
                (y * 53 % 256) as u8,
                ((x ^ y) * 11 % 256) as u8,
                ((x + y) * 29 % 256) as u8,
            ]
        })
        .collect()
}

#[test]
fn round_trip_with_encode_rgba8() {
    for (w, h) in [(1, 1), (3, 5), (17, 9), (64, 64)] {
        let rgba = test_rgba(w, h);
        let png = encode_rgba8(w, h, &rgba).unwrap();
        assert_eq!(rgba_of(&png), (w, h, rgba), "{w}x{h}");
    }
}

/// The colour type byte of a PNG's `IHDR`.
fn colour_type(png: &[u8]) -> u8 {
    png[25]
}

#[test]
fn compact_encoding_keeps_every_pixel_in_the_smallest_colour_type() {
    // Many colours with alpha: RGBA.
    let rgba = test_rgba(64, 64);
    let png = encode_compact(64, 64, &rgba).unwrap();
    assert_eq!(colour_type(&png), 6);
    assert_eq!(rgba_of(&png), (64, 64, rgba.clone()));
    // Many colours, all opaque: RGB.
    let opaque: Vec<u8> = rgba
        .chunks(4)
        .flat_map(|p| [p[0], p[1], p[2], 255])
        .collect();
    let png = encode_compact(64, 64, &opaque).unwrap();
    assert_eq!(colour_type(&png), 2);
    assert_eq!(rgba_of(&png), (64, 64, opaque.clone()));
    // At most 256 colours, some translucent (a Quake skin with holes): indexed, far smaller
    // than RGBA.
    let few: Vec<u8> = (0..64 * 64u32)
        .flat_map(|i| {
            let c = (i * 7 % 256) as u8;
            [
                c,
                c / 2,
                255 - c,
                if c.is_multiple_of(50) { 0 } else { 255 },
            ]
        })
        .collect();
    let png = encode_compact(64, 64, &few).unwrap();
    assert_eq!(colour_type(&png), 3);
    assert_eq!(rgba_of(&png), (64, 64, few.clone()));
    assert!(png.len() * 2 < encode_rgba8(64, 64, &few).unwrap().len());
    // 257 colours no longer fit a palette.
    let mut more = few.clone();
    more[..4].copy_from_slice(&[1, 2, 3, 4]);
    let png = encode_compact(64, 64, &more).unwrap();
    assert_eq!(colour_type(&png), 6);
    assert_eq!(rgba_of(&png), (64, 64, more));
}

#[test]
fn grey_at_every_bit_depth() {
    // 8-bit grey.
    let g8 = build_png(3, 1, 8, 0, None, None, &[vec![0, 128, 255]]);
    assert_eq!(
        rgba_of(&g8).2,
        [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255]
    );
    // 1, 2, 4 bits scale to the full range (1 -> 255, 2 bits: 85 a step, 4 bits: 17 a step).
    let g1 = build_png(5, 1, 1, 0, None, None, &[pack(&[1, 0, 1, 1, 0], 1)]);
    let grey = |p: &[u8]| p.chunks(4).map(|c| c[0]).collect::<Vec<_>>();
    assert_eq!(grey(&rgba_of(&g1).2), [255, 0, 255, 255, 0]);
    let g2 = build_png(4, 1, 2, 0, None, None, &[pack(&[0, 1, 2, 3], 2)]);
    assert_eq!(grey(&rgba_of(&g2).2), [0, 85, 170, 255]);
    let g4 = build_png(3, 1, 4, 0, None, None, &[pack(&[0, 7, 15], 4)]);
    assert_eq!(grey(&rgba_of(&g4).2), [0, 119, 255]);
    // 16-bit grey keeps the high byte.
    let g16 = build_png(2, 1, 16, 0, None, None, &[vec![0x12, 0x34, 0xff, 0x00]]);
    assert_eq!(
        rgba_of(&g16).2,
        [0x12, 0x12, 0x12, 255, 0xff, 0xff, 0xff, 255]
    );
    // A tRNS grey key makes matching pixels transparent.
    let key = build_png(3, 1, 8, 0, None, Some(&[0, 128]), &[vec![0, 128, 255]]);
    let alpha = |p: &[u8]| p.chunks(4).map(|c| c[3]).collect::<Vec<_>>();
    assert_eq!(alpha(&rgba_of(&key).2), [255, 0, 255]);
}

#[test]
fn grey_alpha_rgb_and_rgba() {
    let ga = build_png(2, 1, 8, 4, None, None, &[vec![10, 20, 200, 255]]);
    assert_eq!(rgba_of(&ga).2, [10, 10, 10, 20, 200, 200, 200, 255]);
    let ga16 = build_png(1, 1, 16, 4, None, None, &[vec![0xab, 1, 0x40, 2]]);
    assert_eq!(rgba_of(&ga16).2, [0xab, 0xab, 0xab, 0x40]);

    let rgb = build_png(
        2,
        2,
        8,
        2,
        None,
        None,
        &[vec![1, 2, 3, 4, 5, 6], vec![7, 8, 9, 10, 11, 12]],
    );
    assert_eq!(
        rgba_of(&rgb),
        (
            2,
            2,
            vec![1, 2, 3, 255, 4, 5, 6, 255, 7, 8, 9, 255, 10, 11, 12, 255]
        )
    );
    let rgb16 = build_png(
        1,
        1,
        16,
        2,
        None,
        None,
        &[vec![0x11, 0xff, 0x22, 0xff, 0x33, 0]],
    );
    assert_eq!(rgba_of(&rgb16).2, [0x11, 0x22, 0x33, 255]);
    // tRNS RGB key (16-bit values in the chunk, 8-bit picture).
    let rgb_key = build_png(
        2,
        1,
        8,
        2,
        None,
        Some(&[0, 4, 0, 5, 0, 6]),
        &[vec![1, 2, 3, 4, 5, 6]],
    );
    assert_eq!(rgba_of(&rgb_key).2, [1, 2, 3, 255, 4, 5, 6, 0]);

    let rgba = build_png(
        2,
        1,
        8,
        6,
        None,
        None,
        &[vec![1, 2, 3, 4, 250, 251, 252, 253]],
    );
    assert_eq!(rgba_of(&rgba).2, [1, 2, 3, 4, 250, 251, 252, 253]);
    let rgba16 = build_png(1, 1, 16, 6, None, None, &[vec![9, 0, 8, 0, 7, 0, 6, 0]]);
    assert_eq!(rgba_of(&rgba16).2, [9, 8, 7, 6]);
}

#[test]
fn indexed_expands_palette_and_trns() {
    let plte = [255, 0, 0, 0, 255, 0, 0, 0, 255, 9, 9, 9];
    let i8 = build_png(4, 1, 8, 3, Some(&plte), None, &[vec![3, 2, 1, 0]]);
    assert_eq!(
        rgba_of(&i8).2,
        [9, 9, 9, 255, 0, 0, 255, 255, 0, 255, 0, 255, 255, 0, 0, 255]
    );
    // 2-bit indices; tRNS gives alpha to the first two entries only.
    let i2 = build_png(
        4,
        1,
        2,
        3,
        Some(&plte),
        Some(&[0, 128]),
        &[pack(&[0, 1, 2, 3], 2)],
    );
    assert_eq!(
        rgba_of(&i2).2,
        [255, 0, 0, 0, 0, 255, 0, 128, 0, 0, 255, 255, 9, 9, 9, 255]
    );
    // 1-bit and 4-bit indices.
    let i1 = build_png(3, 1, 1, 3, Some(&plte[..6]), None, &[pack(&[1, 0, 1], 1)]);
    assert_eq!(
        rgba_of(&i1).2,
        [0, 255, 0, 255, 255, 0, 0, 255, 0, 255, 0, 255]
    );
    let i4 = build_png(2, 1, 4, 3, Some(&plte), None, &[pack(&[3, 1], 4)]);
    assert_eq!(rgba_of(&i4).2, [9, 9, 9, 255, 0, 255, 0, 255]);
}

#[test]
fn not_a_png_and_corrupt_data() {
    let e = decode(b"GIF89a and more bytes", &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::BadMagic);
    assert_eq!(e.to_string(), "png: not a PNG file");
    assert_eq!(
        decode(&[], &Limits::default()).unwrap_err().to_string(),
        "png: not a PNG file"
    );
    // A prefix of the signature is a truncated PNG.
    let e = decode(&SIGNATURE[..5], &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    assert_eq!(
        e.to_string(),
        "png: data ends early: 5 bytes are not a complete PNG file at offset 0x5"
    );

    // A flipped byte inside IDAT breaks the chunk CRC.
    let mut png = encode_rgba8(4, 4, &test_rgba(4, 4)).unwrap();
    let at = png.len() - 12 - 6;
    png[at] ^= 0x55;
    let e = decode(&png, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::InvalidValue);
    assert!(e.to_string().starts_with("png: corrupt data: "), "{e}");
}

#[test]
fn truncation_and_corruption_sweeps_never_panic() {
    let png = encode_rgba8(6, 5, &test_rgba(6, 5)).unwrap();
    // Where IDAT ends: its data length is in the 4 bytes in front of its type.
    let idat = png.windows(4).position(|w| w == b"IDAT").unwrap();
    let idat_len = u32::from_be_bytes(png[idat - 4..idat].try_into().unwrap()) as usize;
    let idat_end = idat + 4 + idat_len;
    for len in 0..png.len() {
        let r = decode(&png[..len], &Limits::default());
        if len < idat_end {
            let e = r.expect_err("a prefix without the whole IDAT must fail");
            assert!(
                matches!(
                    e.kind,
                    ErrorKind::Truncated | ErrorKind::BadMagic | ErrorKind::InvalidValue
                ),
                "{len}: {e}"
            );
            assert!(e.to_string().starts_with("png: "), "{e}");
        }
    }
    // Every byte flipped: errors or pictures, never a panic.
    for at in 0..png.len() {
        let mut bad = png.clone();
        bad[at] ^= 0xff;
        let _ = decode(&bad, &Limits::default());
    }
}

#[test]
fn oversize_headers_fail_before_allocating() {
    // A 45-byte file claiming 20000 x 1.
    let huge = build_png(20000, 1, 8, 6, None, None, &[]);
    let e = decode(&huge, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(
        e.to_string(),
        "png: picture size 20000x1 exceeds the limit of 16384 pixels a side at offset 0x10"
    );
    let tall = build_png(1, 16385, 1, 0, None, None, &[]);
    assert_eq!(
        decode(&tall, &Limits::default()).unwrap_err().to_string(),
        "png: picture size 1x16385 exceeds the limit of 16384 pixels a side at offset 0x10"
    );
    // Within the side limit but over the allocation limit (2 x 4 bytes a pixel charged).
    let big = build_png(16384, 16384, 8, 6, None, None, &[]);
    let e = decode(&big, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(
        e.to_string(),
        "png: picture size 16384x16384 would exceed the allocation limit of 1073741824 bytes \
         at offset 0x10"
    );
    let limits = Limits {
        max_alloc_bytes: 799,
        ..Limits::default()
    };
    let ok = encode_rgba8(10, 10, &test_rgba(10, 10)).unwrap();
    assert_eq!(
        decode(&ok, &limits).unwrap_err().kind,
        ErrorKind::LimitExceeded
    );
    let limits = Limits {
        max_alloc_bytes: 800,
        ..Limits::default()
    };
    assert!(decode(&ok, &limits).is_ok());
}
