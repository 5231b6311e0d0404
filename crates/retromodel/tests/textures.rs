//! The texture decoders (TGA, JPEG, BMP, DDS, WAL) and `image::decode`: generated pictures
//! of every variant checked pixel by pixel, invalid files with their exact error texts, and
//! the limits.

mod common;
mod texture_fixtures;

use std::time::{Duration, Instant};

use retromodel::image::{self, bmp, dds, jpeg, pcx, tga, wal, Image, Palette, Pixels};
use retromodel::{ErrorKind, Limits};

use common::assert_error;
use texture_fixtures as fx;

fn rgba(img: &Image) -> &[u8] {
    match &img.pixels {
        Pixels::Rgba8(p) => p,
        Pixels::Indexed { .. } => panic!("expected an RGBA picture"),
    }
}

/// `got` equals `want` pixel by pixel, each channel within `tolerance`.
fn assert_pixels(got: &[u8], want: &[u8], width: u32, tolerance: u8, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.chunks_exact(4).zip(want.chunks_exact(4)).enumerate() {
        let ok = g.iter().zip(w).all(|(a, b)| a.abs_diff(*b) <= tolerance);
        assert!(
            ok,
            "{what}: pixel ({}, {}) is {g:?}, expected {w:?}",
            i as u32 % width,
            i as u32 / width
        );
    }
}

fn check_fixture(f: &fx::Fixture, tolerance: u8) {
    let img = image::decode(&f.bytes, &f.name, &Limits::default())
        .unwrap_or_else(|e| panic!("{}: {e}", f.name));
    assert_eq!((img.width, img.height), (f.width, f.height), "{}", f.name);
    assert_pixels(rgba(&img), &f.rgba, f.width, tolerance, &f.name);
}

// ---------------------------------------------------------------------------------------
// TGA

#[test]
fn tga_every_depth_encoding_and_origin() {
    let mut n = 0;
    for f in fx::all().iter().filter(|f| f.name.ends_with(".tga")) {
        check_fixture(f, 0);
        // The same through the module.
        assert_eq!(tga::decode(&f.bytes, &Limits::default()).unwrap().width, 7);
        n += 1;
    }
    // 12 layouts x raw/RLE x 4 origins.
    assert_eq!(n, 96);
}

#[test]
fn tga_known_pixels() {
    // 2x2, 16-bit with an alpha bit, top-left origin: white opaque, pure red transparent,
    // pure green (5 bits) opaque, pure blue transparent.
    let mut f = vec![0u8; 18];
    f[2] = 2;
    f[12] = 2;
    f[14] = 2;
    f[16] = 16;
    f[17] = 0x21;
    for v in [0xFFFFu16, 0x7C00, 0x83E0, 0x001F] {
        f.extend_from_slice(&v.to_le_bytes());
    }
    let img = tga::decode(&f, &Limits::default()).unwrap();
    assert_eq!(
        rgba(&img),
        [255, 255, 255, 255, 255, 0, 0, 0, 0, 255, 0, 255, 0, 0, 255, 0]
    );
    // The same with attribute bits 0: the top bit means nothing, every pixel is opaque.
    f[17] = 0x20;
    let img = tga::decode(&f, &Limits::default()).unwrap();
    assert!(rgba(&img).chunks(4).all(|p| p[3] == 255));
    // Bottom-left origin: the first stored row is the bottom one.
    f[17] = 0x00;
    let img = tga::decode(&f, &Limits::default()).unwrap();
    assert_eq!(&rgba(&img)[..8], [0, 255, 0, 255, 0, 0, 255, 255]);
    // An RLE run crossing the row boundary: 3 blue pixels then 1 literal red, 2x2 24-bit.
    let mut f = vec![0u8; 18];
    f[2] = 10;
    f[12] = 2;
    f[14] = 2;
    f[16] = 24;
    f[17] = 0x20;
    f.extend_from_slice(&[0x82, 255, 0, 0, 0x00, 0, 0, 255]);
    let img = tga::decode(&f, &Limits::default()).unwrap();
    assert_eq!(
        rgba(&img),
        [0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 255]
    );
}

#[test]
fn tga_invalid_files() {
    let good = fx::tga(fx::Tga::Rgb24, false, true, false, 7, 5, 9).bytes;
    let err = |b: &[u8]| tga::decode(b, &Limits::default()).expect_err("must fail");
    assert_error(
        &err(&good[..10]),
        ErrorKind::Truncated,
        "tga: file of 10 bytes is too short for the 18-byte header at offset 0xa",
    );
    // Header + ID + 20 of 35 pixels.
    let cut = 18 + 9 + 20 * 3 + 1;
    assert_error(
        &err(&good[..cut]),
        ErrorKind::Truncated,
        "tga: 61 bytes of uncompressed pixel data cannot hold 7x5 pixels of 3 bytes at offset \
         0x58",
    );
    let rle = fx::tga(fx::Tga::Rgb24, true, true, false, 7, 5, 9).bytes;
    let e = tga::decode(&rle[..40], &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated, "{e}");
    assert!(
        e.to_string()
            .starts_with("tga: RLE pixel data runs out after "),
        "{e}"
    );
    let mut b = good.clone();
    b[2] = 0;
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "tga: image type 0: the file holds no picture at offset 0x2",
    );
    b[2] = 7;
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "tga: unknown image type 7 (expected 1, 2, 3, 9, 10 or 11) at offset 0x2",
    );
    let mut b = good.clone();
    b[16] = 12;
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "tga: unsupported true-colour pixel depth 12 (expected 15, 16, 24 or 32) at offset 0x10",
    );
    let mut b = good.clone();
    b[12..14].copy_from_slice(&0u16.to_le_bytes());
    assert_error(
        &err(&b),
        ErrorKind::InvalidValue,
        "tga: empty picture (0x5) at offset 0xc",
    );
    // A colour index outside the map.
    let mut mapped = fx::tga(
        fx::Tga::Mapped8 { entry_bits: 24 },
        false,
        true,
        false,
        7,
        5,
        3,
    );
    let first_pixel = 18 + 9 + 40 * 3;
    mapped.bytes[first_pixel] = 4;
    assert_error(
        &err(&mapped.bytes),
        ErrorKind::IndexOutOfRange,
        "tga: colour index 4 outside the colour map (entries 5 to 44) at offset 0x93",
    );
    // A colour map longer than the file.
    let mut b = mapped.bytes.clone();
    b[5..7].copy_from_slice(&60000u16.to_le_bytes());
    assert_error(
        &err(&b),
        ErrorKind::Truncated,
        &format!(
            "tga: colour map of 60000 entries of 3 bytes at offset 0x1b runs past the end of the \
             data ({} bytes) at offset {:#x}",
            b.len(),
            b.len()
        ),
    );
}

// ---------------------------------------------------------------------------------------
// BMP

#[test]
fn bmp_every_depth_and_row_order() {
    let mut n = 0;
    for f in fx::all().iter().filter(|f| f.name.ends_with(".bmp")) {
        check_fixture(f, 0);
        n += 1;
    }
    assert_eq!(n, 8);
    // Odd widths (row padding) and a single row.
    for (w, h) in [(1, 1), (3, 4), (6, 1), (13, 9)] {
        for kind in [fx::Bmp::Paletted8, fx::Bmp::Rgb24, fx::Bmp::Rgba32] {
            for top_down in [false, true] {
                check_fixture(&fx::bmp(kind, top_down, w, h, u64::from(w * 31 + h)), 0);
            }
        }
    }
}

#[test]
fn bmp_invalid_files() {
    let good = fx::bmp(fx::Bmp::Rgb24, false, 5, 3, 4).bytes;
    let err = |b: &[u8]| bmp::decode(b, &Limits::default()).expect_err("must fail");
    assert_error(
        &err(b"PM\0\0"),
        ErrorKind::BadMagic,
        "bmp: not a BMP file (expected \"BM\") at offset 0x0",
    );
    assert_error(
        &err(&good[..16]),
        ErrorKind::Truncated,
        "bmp: data ends early, inside the file header (16 bytes) at offset 0x10",
    );
    assert_error(
        &err(&good[..22]),
        ErrorKind::Truncated,
        "bmp: data ends early, inside the info header (22 bytes) at offset 0x16",
    );
    // Pixel data cut short.
    let cut = good.len() - 10;
    assert_error(
        &err(&good[..cut]),
        ErrorKind::Truncated,
        &format!(
            "bmp: data ends early, inside the headers, palette or pixel data ({cut} bytes) at \
             offset {cut:#x}"
        ),
    );
    let mut b = good.clone();
    b[18..22].copy_from_slice(&(-5i32).to_le_bytes());
    assert_error(
        &err(&b),
        ErrorKind::InvalidValue,
        "bmp: negative width -5 at offset 0x12",
    );
    let mut b = good.clone();
    b[22..26].copy_from_slice(&0i32.to_le_bytes());
    assert_error(
        &err(&b),
        ErrorKind::InvalidValue,
        "bmp: empty picture (5x0) at offset 0x12",
    );
    // An unknown compression is the decoder's error.
    let mut b = good.clone();
    b[30] = 9;
    let e = err(&b);
    assert!(e.to_string().starts_with("bmp: "), "{e}");
    assert!(
        matches!(e.kind, ErrorKind::InvalidValue | ErrorKind::Unsupported),
        "{e}"
    );
}

// ---------------------------------------------------------------------------------------
// DDS

#[test]
fn dds_block_compressed() {
    for format in 1..=3u8 {
        // Sizes with partial blocks at the right and bottom edges, and whole ones.
        for (w, h) in [(10, 7), (4, 4), (1, 1), (17, 3)] {
            let f = fx::dds_bc(format, w, h, 0, u64::from(w * 7 + h + u32::from(format)));
            // Interpolated colours may differ by 1 from the reference (the docs allow it).
            check_fixture(&f, 1);
        }
        // A cube map gives its first face.
        check_fixture(&fx::dds_bc(format, 8, 8, 0x200 | 0xFC00, 77), 1);
    }
}

#[test]
fn dds_known_blocks() {
    let decode = |four_cc: &[u8; 4], block: &[u8]| {
        let mut f = fx::dds_header(4, 4, fx::DDPF_FOURCC, four_cc, 0, [0; 4], 0);
        f.extend_from_slice(block);
        let img = dds::decode(&f, &Limits::default()).unwrap();
        rgba(&img).to_vec()
    };
    // DXT1, white and black endpoints, indices 0 1 2 3 in each row: exact thirds.
    let dxt1 = [0xFF, 0xFF, 0, 0, 0xE4, 0xE4, 0xE4, 0xE4];
    let px = decode(b"DXT1", &dxt1);
    assert_eq!(
        &px[..16],
        [255, 255, 255, 255, 0, 0, 0, 255, 170, 170, 170, 255, 85, 85, 85, 255]
    );
    // c0 <= c1: three colours and transparent black (1-bit alpha).
    let dxt1a = [0, 0, 0xFF, 0xFF, 0xE4, 0xE4, 0xE4, 0xE4];
    let px = decode(b"DXT1", &dxt1a);
    assert_eq!(&px[12..16], [0, 0, 0, 0]);
    assert_eq!(&px[..4], [0, 0, 0, 255]);
    assert_eq!(&px[4..8], [255, 255, 255, 255]);
    assert!(
        px[8].abs_diff(128) <= 1 && px[11] == 255,
        "{:?}",
        &px[8..12]
    );
    // DXT3: explicit alpha nibbles 0..15 in order.
    let mut dxt3 = vec![0x10, 0x32, 0x54, 0x76, 0x98, 0xBA, 0xDC, 0xFE];
    dxt3.extend_from_slice(&dxt1);
    let px = decode(b"DXT3", &dxt3);
    let alphas: Vec<u8> = px.chunks(4).map(|p| p[3]).collect();
    assert_eq!(alphas, (0..16).map(|a| a * 17).collect::<Vec<u8>>());
    // DXT5: a0 = 70, a1 = 0, eight-value mode: 70 0 60 50 40 30 20 10; indices 0..7 twice.
    let mut bits = 0u64;
    for i in 0..16u64 {
        bits |= (i % 8) << (3 * i);
    }
    let mut dxt5 = vec![70, 0];
    dxt5.extend_from_slice(&bits.to_le_bytes()[..6]);
    dxt5.extend_from_slice(&dxt1);
    let px = decode(b"DXT5", &dxt5);
    let alphas: Vec<u8> = px.chunks(4).map(|p| p[3]).collect();
    let table = [70, 0, 60, 50, 40, 30, 20, 10];
    assert_eq!(alphas, (0..16).map(|i| table[i % 8]).collect::<Vec<u8>>());
    // a0 <= a1: six-value mode with 0 and 255: 0 100 20 40 60 80 0 255.
    dxt5[0] = 0;
    dxt5[1] = 100;
    let px = decode(b"DXT5", &dxt5);
    let alphas: Vec<u8> = px.chunks(4).map(|p| p[3]).collect();
    let table = [0, 100, 20, 40, 60, 80, 0, 255];
    assert_eq!(alphas, (0..16).map(|i| table[i % 8]).collect::<Vec<u8>>());
}

#[test]
fn dds_uncompressed_and_dx10() {
    for layout in 0..fx::DDS_MASKED.len() {
        for (w, h) in [(5, 3), (1, 1), (8, 2)] {
            check_fixture(
                &fx::dds_masked(layout, w, h, (layout * 13 + w as usize) as u64),
                0,
            );
        }
    }
    // A8R8G8B8 is B G R A in memory, A8B8G8R8 R G B A.
    let f = fx::dds_masked(0, 1, 1, 5);
    let p = &f.bytes[128..132];
    assert_eq!(f.rgba, [p[2], p[1], p[0], p[3]]);
    let f = fx::dds_masked(1, 1, 1, 5);
    assert_eq!(f.rgba, f.bytes[128..132]);

    // DX10 headers: R8G8B8A8, B8G8R8X8, BC1.
    let px = [10u8, 20, 30, 40, 50, 60, 70, 80];
    let img = dds::decode(&fx::dds_dx10(2, 1, 28, 0, &px), &Limits::default()).unwrap();
    assert_eq!(rgba(&img), px);
    let img = dds::decode(&fx::dds_dx10(2, 1, 88, 0, &px), &Limits::default()).unwrap();
    assert_eq!(rgba(&img), [30, 20, 10, 255, 70, 60, 50, 255]);
    let block = [0xFF, 0xFF, 0, 0, 0xE4, 0xE4, 0xE4, 0xE4];
    let img = dds::decode(&fx::dds_dx10(4, 4, 71, 0, &block), &Limits::default()).unwrap();
    assert_eq!(&rgba(&img)[8..12], [170, 170, 170, 255]);
    // A cube map (misc flag 4) gives its first face too.
    let img = dds::decode(&fx::dds_dx10(2, 1, 28, 4, &px), &Limits::default()).unwrap();
    assert_eq!(rgba(&img), px);
}

#[test]
fn dds_invalid_files() {
    let good = fx::dds_bc(1, 10, 7, 0, 3).bytes;
    let err = |b: &[u8]| dds::decode(b, &Limits::default()).expect_err("must fail");
    assert_error(
        &err(b"DDX \0\0"),
        ErrorKind::BadMagic,
        "dds: not a DDS file (magic [44, 44, 58, 20], expected \"DDS \") at offset 0x0",
    );
    assert_error(
        &err(&good[..100]),
        ErrorKind::Truncated,
        "dds: file of 100 bytes is too short for the header (ends at offset 0x80) at offset 0x64",
    );
    let mut b = good.clone();
    b[84..88].copy_from_slice(b"ATI2");
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "dds: unsupported four-CC ATI2 ([41, 54, 49, 32]; DXT1, DXT3, DXT5 and DX10 are read) at \
         offset 0x54",
    );
    b[84..88].copy_from_slice(b"DXT2");
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "dds: four-CC DXT2 (premultiplied alpha) is not read at offset 0x54",
    );
    let mut b = good.clone();
    b[4] = 100;
    assert_error(
        &err(&b),
        ErrorKind::InvalidValue,
        "dds: header size 100 (expected 124) at offset 0x4",
    );
    // The top level needs 3 x 2 blocks of 8 bytes = 48 bytes after the header.
    assert_error(
        &err(&good[..128 + 47]),
        ErrorKind::Truncated,
        "dds: top level of 10x7 needs 48 bytes at offset 0x80, 47 are left at offset 0xaf",
    );
    let mut b = fx::dds_masked(0, 5, 3, 1).bytes;
    b[88] = 12;
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "dds: unsupported uncompressed pixel size of 12 bits (expected 8, 16, 24 or 32) at \
         offset 0x58",
    );
    let mut b = fx::dds_masked(4, 5, 3, 1).bytes; // 16-bit
    b[94] = 1; // red mask 0x10000 | 0xf800
    assert_error(
        &err(&b),
        ErrorKind::InvalidValue,
        "dds: channel masks 0x1f800, 0x7e0, 0x1f, 0x0 reach past the 16-bit pixel at offset 0x5c",
    );
    let b = fx::dds_dx10(2, 1, 95, 0, &[0; 16]);
    assert_error(
        &err(&b),
        ErrorKind::Unsupported,
        "dds: unsupported DXGI format 95 (BC1 to BC3 and 8-bit RGBA, BGRA and BGRX are read) at \
         offset 0x80",
    );
}

// ---------------------------------------------------------------------------------------
// WAL

#[test]
fn wal_mip0_with_the_callers_palette() {
    let palette = fx::wal_palette();
    for (w, h) in [(16, 16), (64, 32), (8, 24), (1, 1)] {
        let (bytes, mip0) = fx::wal(w, h, u64::from(w + h));
        for img in [
            image::decode_wal(&bytes, &palette, &Limits::default()).unwrap(),
            image::decode_with_palette(
                &bytes,
                "textures/e1u1/floor1.WAL",
                Some(&palette),
                &Limits::default(),
            )
            .unwrap(),
        ] {
            assert_eq!((img.width, img.height), (w, h));
            match &img.pixels {
                Pixels::Indexed {
                    indices,
                    palette: p,
                    fullbright_start,
                    transparent_index,
                } => {
                    assert_eq!(indices, &mip0);
                    assert_eq!(**p, palette);
                    assert_eq!((*fullbright_start, *transparent_index), (None, None));
                }
                Pixels::Rgba8(_) => panic!("WAL gives indices"),
            }
            // And as colours, through the given palette.
            let want: Vec<u8> = mip0
                .iter()
                .flat_map(|&i| {
                    let [r, g, b] = palette.0[i as usize];
                    [r, g, b, 255]
                })
                .collect();
            assert_eq!(img.to_rgba8(), want);
        }
    }
    let (bytes, _) = fx::wal(16, 8, 1);
    let h = wal::read_header(&bytes).unwrap();
    assert_eq!(h.name, "e1u1/floor1");
    assert_eq!(h.animname, "e1u1/floor1b");
    assert_eq!(
        (h.width, h.height, h.flags, h.contents, h.value),
        (16, 8, 8, 1, 300)
    );
    assert_eq!(h.offsets, [100, 228, 260, 268]);
    // Mip levels 1 to 3 are not read: broken offsets there do not matter.
    let mut b = bytes.clone();
    b[44..56].fill(0xFF);
    assert!(wal::decode(&b, &palette, &Limits::default()).is_ok());
}

#[test]
fn wal_invalid_files() {
    let palette = fx::wal_palette();
    let (good, _) = fx::wal(16, 8, 2);
    let err = |b: &[u8]| wal::decode(b, &palette, &Limits::default()).expect_err("must fail");
    assert_error(
        &err(&good[..99]),
        ErrorKind::Truncated,
        "wal: file of 99 bytes is too short for the 100-byte header at offset 0x63",
    );
    // Mip 0 cut short.
    assert_error(
        &err(&good[..150]),
        ErrorKind::Truncated,
        "wal: mip level 0 (16x8 = 128 bytes at offset 0x64) runs past the end of the data (150 \
         bytes) at offset 0x64",
    );
    // Offset past the end.
    let mut b = good.clone();
    b[40..44].copy_from_slice(&100_000u32.to_le_bytes());
    assert_error(
        &err(&b),
        ErrorKind::Truncated,
        &format!(
            "wal: mip level 0 (16x8 = 128 bytes at offset 0x186a0) runs past the end of the data \
             ({} bytes) at offset 0x186a0",
            b.len()
        ),
    );
    // Offsets near u32::MAX do not overflow.
    b[40..44].copy_from_slice(&u32::MAX.to_le_bytes());
    assert_eq!(err(&b).kind, ErrorKind::Truncated);
    b[40..44].copy_from_slice(&20u32.to_le_bytes());
    assert_error(
        &err(&b),
        ErrorKind::InvalidValue,
        "wal: mip level 0 offset 20 lies inside the 100-byte header at offset 0x28",
    );
    let mut b = good.clone();
    b[36..40].copy_from_slice(&0u32.to_le_bytes());
    assert_error(
        &err(&b),
        ErrorKind::InvalidValue,
        "wal: empty picture (16x0) at offset 0x20",
    );
    // `decode` without a palette says what is missing.
    assert_error(
        &image::decode(&good, "floor1.wal", &Limits::default()).unwrap_err(),
        ErrorKind::Unsupported,
        "wal: floor1.wal: a WAL texture needs the Quake 2 palette (pics/colormap.pcx): use \
         image::decode_with_palette or image::decode_wal",
    );
}

// ---------------------------------------------------------------------------------------
// JPEG

#[test]
fn jpeg_baseline_and_progressive() {
    for (w, h) in [(32, 24), (17, 9), (1, 1), (100, 3)] {
        let rgb = fx::gradient(w, h);
        for progressive in [false, true] {
            for grey in [false, true] {
                let bytes = fx::jpeg(&rgb, w, h, progressive, grey);
                let name = format!("{w}x{h} progressive={progressive} grey={grey}");
                let img = image::decode(&bytes, "skin.jpg", &Limits::default())
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!((img.width, img.height), (w, h), "{name}");
                let want: Vec<u8> = rgb
                    .chunks_exact(3)
                    .flat_map(|p| {
                        if grey {
                            [p[0], p[0], p[0], 255]
                        } else {
                            [p[0], p[1], p[2], 255]
                        }
                    })
                    .collect();
                // Lossy: each channel within 12 of the original, on average within 3.
                let got = rgba(&img);
                assert_pixels(got, &want, w, 12, &name);
                let total: u64 = got
                    .iter()
                    .zip(&want)
                    .map(|(a, b)| u64::from(a.abs_diff(*b)))
                    .sum();
                assert!(
                    total as f64 / got.len() as f64 <= 3.0,
                    "{name}: mean error {total}"
                );
            }
        }
    }
}

#[test]
fn jpeg_invalid_files() {
    let good = fx::jpeg(&fx::gradient(16, 16), 16, 16, false, false);
    let err = |b: &[u8]| jpeg::decode(b, &Limits::default()).expect_err("must fail");
    assert_error(
        &err(b"\xFF\xD9\xFF"),
        ErrorKind::BadMagic,
        "jpeg: not a JPEG file (expected the SOI marker ff d8 ff) at offset 0x0",
    );
    assert_error(
        &err(b"\xFF\xD8"),
        ErrorKind::Truncated,
        "jpeg: data ends early: 2 bytes are not a complete JPEG file at offset 0x2",
    );
    // Cut inside the headers.
    let e = err(&good[..40]);
    assert!(e.to_string().starts_with("jpeg: "), "{e}");
    assert!(
        matches!(e.kind, ErrorKind::Truncated | ErrorKind::InvalidValue),
        "{e}"
    );
    // Cut inside the entropy-coded data: the decoder is lenient and gives a picture.
    let img = jpeg::decode(&good[..good.len() - 20], &Limits::default()).unwrap();
    assert_eq!((img.width, img.height), (16, 16));
}

// ---------------------------------------------------------------------------------------
// The entry point

#[test]
fn decode_picks_the_decoder() {
    let limits = Limits::default();
    let tga = fx::tga(fx::Tga::Rgb24, false, true, false, 7, 5, 1);
    let png = retromodel::image::png::encode_rgba8(7, 5, &tga.rgba).unwrap();
    let pcx_bytes = pcx::encode_indexed(3, 2, &[1, 2, 3, 4, 5, 6], &Palette::QUAKE);
    let jpg = fx::jpeg(&fx::gradient(8, 8), 8, 8, false, false);
    let bmp = fx::bmp(fx::Bmp::Rgb24, false, 5, 3, 1);
    let dds = fx::dds_masked(0, 5, 3, 1);

    // Magic bytes win over the name.
    for name in ["a.png", "a.tga", "a.wal", "a.bin", "noext"] {
        assert_eq!(
            rgba(&image::decode(&png, name, &limits).unwrap()),
            tga.rgba,
            "{name}"
        );
        assert_eq!(
            image::decode(&jpg, name, &limits).unwrap().width,
            8,
            "{name}"
        );
        assert_eq!(
            rgba(&image::decode(&dds.bytes, name, &limits).unwrap()),
            dds.rgba,
            "{name}"
        );
    }
    for name in ["a.bmp", "a.pcx", "x", "dir.tga/file"] {
        assert_eq!(
            rgba(&image::decode(&bmp.bytes, name, &limits).unwrap()),
            bmp.rgba,
            "{name}"
        );
        assert_eq!(
            image::decode(&pcx_bytes, name, &limits).unwrap().width,
            3,
            "{name}"
        );
    }
    // TGA by extension only, any case, path or not.
    for name in ["a.tga", "models/x/skin.TGA", "C:\\q\\skin.Tga"] {
        assert_eq!(
            rgba(&image::decode(&tga.bytes, name, &limits).unwrap()),
            tga.rgba,
            "{name}"
        );
    }
    assert_error(
        &image::decode(&tga.bytes, "skin", &limits).unwrap_err(),
        ErrorKind::Unsupported,
        "image: skin: not a picture format this crate reads (no known magic bytes or extension)",
    );
    // A TGA whose ID length is 10 (the PCX magic) or whose first bytes are "BM" is still a TGA
    // when so named.
    let mut t = tga.bytes.clone();
    t[0] = 0x42;
    t[1] = 0x4D;
    assert_eq!(
        tga::decode(&t, &limits).unwrap_err().kind,
        ErrorKind::InvalidValue
    );
    assert!(image::decode(&t, "a.tga", &limits)
        .unwrap_err()
        .to_string()
        .starts_with("tga: "));
    // A broken file named for a magic format gets that decoder's error.
    assert_error(
        &image::decode(b"hello", "a.png", &limits).unwrap_err(),
        ErrorKind::BadMagic,
        "png: not a PNG file",
    );
    assert!(image::decode(b"hello", "a.dds", &limits)
        .unwrap_err()
        .to_string()
        .starts_with("dds: "));

    // Every listed extension has a decoder.
    assert_eq!(
        image::IMAGE_EXTENSIONS,
        ["png", "tga", "dds", "jpg", "jpeg", "bmp", "pcx", "wal"]
    );
    let palette = fx::wal_palette();
    for ext in image::IMAGE_EXTENSIONS {
        let e = image::decode_with_palette(b"", &format!("x.{ext}"), Some(&palette), &limits)
            .unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "{}: ",
                match *ext {
                    "jpg" => "jpeg",
                    other => other,
                }
            )),
            "{ext}: {e}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Limits

/// A tiny file of each format claiming a 60000 x 60000 picture.
fn huge_headers() -> Vec<(&'static str, Vec<u8>)> {
    let mut tga = vec![0u8; 18];
    tga[2] = 2;
    tga[12..14].copy_from_slice(&60000u16.to_le_bytes());
    tga[14..16].copy_from_slice(&60000u16.to_le_bytes());
    tga[16] = 32;
    tga.extend_from_slice(&[0; 64]);
    let mut bmp = fx::bmp(fx::Bmp::Rgb24, false, 1, 1, 1).bytes;
    bmp[18..22].copy_from_slice(&60000i32.to_le_bytes());
    bmp[22..26].copy_from_slice(&(-60000i32).to_le_bytes());
    let mut dds = fx::dds_header(60000, 60000, fx::DDPF_FOURCC, b"DXT5", 0, [0; 4], 0);
    dds.extend_from_slice(&[0; 64]);
    let (mut wal, _) = fx::wal(1, 1, 1);
    wal[32..36].copy_from_slice(&60000u32.to_le_bytes());
    wal[36..40].copy_from_slice(&60000u32.to_le_bytes());
    // A small JPEG whose frame header (SOF0: marker, length, precision, height, width) says
    // 60000 x 60000.
    let mut jpg = fx::jpeg(&fx::gradient(8, 8), 8, 8, false, false);
    let sof = jpg.windows(2).position(|m| m == [0xFF, 0xC0]).unwrap();
    jpg[sof + 5..sof + 7].copy_from_slice(&60000u16.to_be_bytes());
    jpg[sof + 7..sof + 9].copy_from_slice(&60000u16.to_be_bytes());
    let mut pcx = pcx::encode_indexed(1, 1, &[0], &Palette::QUAKE);
    pcx[8..10].copy_from_slice(&59999u16.to_le_bytes());
    pcx[10..12].copy_from_slice(&59999u16.to_le_bytes());
    pcx[66..68].copy_from_slice(&60000u16.to_le_bytes());
    let mut png = retromodel::image::png::encode_rgba8(1, 1, &[0, 0, 0, 0]).unwrap();
    png[16..20].copy_from_slice(&60000u32.to_be_bytes());
    png[20..24].copy_from_slice(&60000u32.to_be_bytes());
    vec![
        ("a.tga", tga),
        ("a.bmp", bmp),
        ("a.dds", dds),
        ("a.wal", wal),
        ("a.jpg", jpg),
        ("a.pcx", pcx),
        ("a.png", png),
    ]
}

#[test]
fn a_tiny_file_claiming_60000x60000_fails_fast() {
    let palette = fx::wal_palette();
    // The default limits (16384 a side), and no side limit but the 1 GiB allocation limit:
    // 60000 x 60000 x 4 bytes is 13.4 GiB.
    let alloc_only = Limits {
        max_image_dimension: u32::MAX,
        ..Limits::default()
    };
    for (name, bytes) in huge_headers() {
        for limits in [Limits::default(), alloc_only] {
            let start = Instant::now();
            let e =
                image::decode_with_palette(&bytes, name, Some(&palette), &limits).expect_err(name);
            // PCX checks what the data could hold before it charges the picture.
            if name == "a.pcx" && limits == alloc_only {
                assert_eq!(e.kind, ErrorKind::Truncated, "{name}: {e}");
            } else {
                assert_eq!(e.kind, ErrorKind::LimitExceeded, "{name}: {e}");
            }
            assert!(
                start.elapsed() < Duration::from_millis(200),
                "{name}: {:?}",
                start.elapsed()
            );
            if limits == Limits::default() {
                assert!(e.to_string().contains("60000x60000"), "{name}: {e}");
            }
        }
    }
    // The exact texts of the new decoders, under the default limits.
    let texts = [
        "tga: picture size 60000x60000 exceeds the limit of 16384 pixels a side at offset 0xc",
        "bmp: picture size 60000x60000 exceeds the limit of 16384 pixels a side at offset 0x12",
        "dds: picture size 60000x60000 exceeds the limit of 16384 pixels a side at offset 0xc",
        "wal: picture size 60000x60000 exceeds the limit of 16384 pixels a side at offset 0x20",
        "jpeg: picture size 60000x60000 exceeds the limit of 16384 pixels a side",
    ];
    for ((name, bytes), text) in huge_headers().into_iter().zip(texts) {
        let e = image::decode_with_palette(&bytes, name, Some(&palette), &Limits::default())
            .unwrap_err();
        assert_error(&e, ErrorKind::LimitExceeded, text);
    }
    // Under the allocation limit alone, the budget refuses.
    let (_, dds) = &huge_headers()[2];
    assert_error(
        &dds::decode(dds, &alloc_only).unwrap_err(),
        ErrorKind::LimitExceeded,
        "dds: decoded data would exceed the allocation limit of 1073741824 bytes at offset 0xc",
    );
    let small = Limits {
        max_alloc_bytes: 1000,
        ..Limits::default()
    };
    let f = fx::dds_masked(0, 16, 16, 1);
    assert_error(
        &dds::decode(&f.bytes, &small).unwrap_err(),
        ErrorKind::LimitExceeded,
        "dds: decoded data would exceed the allocation limit of 1000 bytes at offset 0xc",
    );
}
