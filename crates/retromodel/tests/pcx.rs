//! PCX pictures: encode/decode round trips, a hand-built 24-bit file, invalid files with their
//! exact error texts, and every PCX of the corpus against `HEADERS.jsonl`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use retromodel::image::pcx;
use retromodel::image::{Image, Palette, Pixels};
use retromodel::{ErrorKind, Limits};

use common::assert_error;

/// A palette whose colours all differ from the Quake palette and from each other's neighbours.
fn test_palette() -> Palette {
    let mut p = [[0u8; 3]; 256];
    for (i, c) in p.iter_mut().enumerate() {
        *c = [i as u8, (255 - i) as u8, (i * 7 % 256) as u8];
    }
    Palette(p)
}

/// The indices and palette of an indexed picture.
fn indexed(image: &Image) -> (&[u8], &Palette) {
    match &image.pixels {
        Pixels::Indexed {
            indices,
            palette,
            fullbright_start,
            transparent_index,
        } => {
            assert_eq!(*fullbright_start, None);
            assert_eq!(*transparent_index, None);
            (indices, palette)
        }
        Pixels::Rgba8(_) => panic!("expected an indexed picture"),
    }
}

fn err(bytes: &[u8]) -> retromodel::Error {
    pcx::decode(bytes, &Limits::default()).expect_err("must fail")
}

/// A 128-byte header.
fn header(xmax: u16, ymax: u16, bits: u8, planes: u8, bytes_per_line: u16) -> Vec<u8> {
    let mut h = vec![0u8; 128];
    h[0] = 0x0A;
    h[1] = 5;
    h[2] = 1;
    h[3] = bits;
    h[8..10].copy_from_slice(&xmax.to_le_bytes());
    h[10..12].copy_from_slice(&ymax.to_le_bytes());
    h[65] = planes;
    h[66..68].copy_from_slice(&bytes_per_line.to_le_bytes());
    h
}

/// `header` with the rectangle's top-left corner at (`xmin`, `ymin`) instead of (0, 0).
fn with_origin(mut header: Vec<u8>, xmin: u16, ymin: u16) -> Vec<u8> {
    header[4..6].copy_from_slice(&xmin.to_le_bytes());
    header[6..8].copy_from_slice(&ymin.to_le_bytes());
    header
}

/// A file: `header`, then `data` (the pixel stream, and the palette if any).
fn with_data(mut header: Vec<u8>, data: &[u8]) -> Vec<u8> {
    header.extend_from_slice(data);
    header
}

#[test]
fn round_trips() {
    let palette = test_palette();
    let pictures: Vec<(u32, u32, Vec<u8>)> = vec![
        (1, 1, vec![0xC7]),
        // Odd width: each scanline carries a padding byte.
        (3, 2, vec![1, 0xC0, 0xFF, 0xFF, 0xFF, 0x3F]),
        // Long runs (more than 63), runs of bytes >= 0xC0, and noise.
        (64, 48, {
            let mut v = Vec::new();
            for y in 0..48u32 {
                for x in 0..64u32 {
                    v.push(match y % 4 {
                        0 => 0x11,
                        1 => 0xE0,
                        2 if x < 40 => 0xC0 + (x / 20) as u8,
                        _ => (x * 31 + y * 17) as u8,
                    });
                }
            }
            v
        }),
        // A single run over the whole picture, crossing no scanline in the file.
        (200, 3, vec![0xFE; 600]),
    ];
    for (w, h, indices) in pictures {
        let bytes = pcx::encode_indexed(w, h, &indices, &palette);
        assert_eq!(bytes[0], 0x0A);
        assert_eq!(bytes[1], 5);
        let bpl = u16::from_le_bytes([bytes[66], bytes[67]]);
        assert_eq!(u32::from(bpl), w + (w & 1), "{w}x{h}: bytes_per_line");
        assert_eq!(bytes[bytes.len() - 769], 0x0C, "{w}x{h}: palette marker");
        let img = pcx::decode(&bytes, &Limits::default()).unwrap();
        assert_eq!((img.width, img.height), (w, h));
        let (got, pal) = indexed(&img);
        assert_eq!(got, indices.as_slice(), "{w}x{h}: indices");
        assert_eq!(*pal, palette, "{w}x{h}: palette");
        // `encode` of the decoded picture writes the same file.
        assert_eq!(pcx::encode(&img).unwrap(), bytes, "{w}x{h}: encode");
    }
    // The long-run picture really is compressed: runs of 64 split into 63 + 1.
    let flat = pcx::encode_indexed(64, 1, &[0x11; 64], &palette);
    assert_eq!(&flat[128..flat.len() - 769], &[0xFF, 0x11, 0x11]);
    let high = pcx::encode_indexed(64, 1, &[0xE0; 64], &palette);
    assert_eq!(&high[128..high.len() - 769], &[0xFF, 0xE0, 0xC1, 0xE0]);
}

#[test]
fn rgba_pictures_are_not_encoded() {
    let img = Image {
        width: 1,
        height: 1,
        pixels: Pixels::Rgba8(vec![1, 2, 3, 255]),
        encoded: None,
    };
    assert_eq!(pcx::encode(&img), None);
    let img = Image {
        width: 1,
        height: 1,
        pixels: Pixels::Indexed {
            indices: vec![7],
            palette: Arc::new(Palette::QUAKE),
            fullbright_start: Some(224),
            transparent_index: Some(255),
        },
        encoded: None,
    };
    let back = pcx::decode(&pcx::encode(&img).unwrap(), &Limits::default()).unwrap();
    assert_eq!(indexed(&back), (&[7u8][..], &Palette::QUAKE));
}

#[test]
fn decodes_24_bit_three_planes() {
    // 3x2, bytes_per_line 4 (one padding byte per plane line), planes R, G, B per scanline.
    // The green run of the first line goes on into the blue line.
    let mut f = header(2, 1, 8, 3, 4);
    // Line 0: R = 10 20 30 (pad 0); a run of five 0xC8 fills G (pad included) and the first
    // byte of B; B goes on with 1 2 (pad 9).
    f.extend_from_slice(&[10, 20, 30, 0, 0xC5, 0xC8, 1, 2, 9]);
    // Line 1: R = four 0xFF, G = 40 50 60 (pad 0), B = four 70.
    f.extend_from_slice(&[0xC4, 0xFF, 40, 50, 60, 0, 0xC4, 70]);
    let img = pcx::decode(&f, &Limits::default()).unwrap();
    assert_eq!((img.width, img.height), (3, 2));
    assert_eq!(
        img.pixels,
        Pixels::Rgba8(vec![
            10, 0xC8, 0xC8, 255, 20, 0xC8, 1, 255, 30, 0xC8, 2, 255, //
            0xFF, 40, 70, 255, 0xFF, 50, 70, 255, 0xFF, 60, 70, 255,
        ])
    );
    // Four planes: the fourth is alpha.
    let f = with_data(header(0, 0, 8, 4, 1), &[1, 2, 3, 4]);
    let img = pcx::decode(&f, &Limits::default()).unwrap();
    assert_eq!(img.pixels, Pixels::Rgba8(vec![1, 2, 3, 4]));
}

#[test]
fn bad_manufacturer() {
    let mut bytes = pcx::encode_indexed(2, 2, &[1, 2, 3, 4], &Palette::QUAKE);
    bytes[0] = 0x0B;
    assert_error(
        &err(&bytes),
        ErrorKind::BadMagic,
        "pcx: not a PCX file (manufacturer byte 0x0b, expected 0x0a) at offset 0x0",
    );
    assert_eq!(
        err(&[]).to_string(),
        "pcx: unexpected end of data (needed 1 bytes, 0 left) at offset 0x0"
    );
}

#[test]
fn unsupported_kinds() {
    assert_error(
        &err(&with_data(header(7, 7, 4, 1, 4), &[0; 64])),
        ErrorKind::Unsupported,
        "pcx: unsupported PCX kind: 4 bits per pixel, 1 plane (only 8-bit paletted and \
         24/32-bit RGB(A) are read) at offset 0x3",
    );
    let e = err(&header(7, 7, 1, 4, 1));
    assert_eq!(
        e.to_string(),
        "pcx: unsupported PCX kind: 1 bit per pixel, 4 planes (only 8-bit paletted and \
         24/32-bit RGB(A) are read) at offset 0x3"
    );
    let e = err(&header(7, 7, 8, 2, 8));
    assert_eq!(e.kind, ErrorKind::Unsupported);
    let mut bytes = header(7, 7, 8, 1, 8);
    bytes[2] = 2;
    assert_eq!(
        err(&bytes).to_string(),
        "pcx: unsupported encoding 2 (only 1 = RLE and 0 = uncompressed are read) at offset 0x2"
    );
    bytes[1] = 6;
    assert_error(
        &err(&bytes),
        ErrorKind::UnsupportedVersion,
        "pcx: unsupported version 6 (expected 0, 2, 3, 4 or 5) at offset 0x1",
    );
}

#[test]
fn truncated_data() {
    // 4x2 of distinct literals: 8 bytes of RLE data; 3 of them cut, the palette kept.
    let bytes = pcx::encode_indexed(4, 2, &[1, 2, 3, 4, 5, 6, 7, 8], &Palette::QUAKE);
    assert_eq!(bytes.len(), 128 + 8 + 769);
    let mut cut = bytes[..128 + 5].to_vec();
    cut.extend_from_slice(&bytes[128 + 8..]);
    assert_error(
        &err(&cut),
        ErrorKind::Truncated,
        "pcx: RLE data runs out after 5 of 8 bytes at offset 0x85",
    );
    // A header cut short.
    assert_eq!(
        err(&bytes[..40]).to_string(),
        "pcx: unexpected end of data (needed 53 bytes, 28 left) at offset 0xc"
    );
    // No room for the palette.
    assert_eq!(
        err(&bytes[..500]).to_string(),
        "pcx: file of 500 bytes is too short for the header and the 768-byte palette at \
         offset 0x1f4"
    );
    // 24-bit data that ends early: no palette to stop at, the end of the file is the limit.
    let f = with_data(header(1, 0, 8, 3, 2), &[0xC4, 5, 6]);
    assert_eq!(
        err(&f).to_string(),
        "pcx: RLE data runs out after 5 of 6 bytes at offset 0x83"
    );
}

#[test]
fn huge_claims_fail_before_allocating() {
    // A 1-byte stream claiming 16384 x 16384 (the largest the default limits allow).
    let f = with_data(header(16383, 16383, 8, 3, 16384), &[0xFF]);
    assert_error(
        &err(&f),
        ErrorKind::Truncated,
        "pcx: 1 bytes of RLE data cannot hold 16384 lines of 3 x 16384 bytes at offset 0x80",
    );
    // Also without any limit: 65535 x 65536 from a few bytes.
    let mut f = with_data(header(65534, 65535, 8, 1, 65535), &[0xFF; 8]);
    f.extend_from_slice(&[0; 769]);
    let e = pcx::decode(&f, &Limits::none()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Truncated);
    // Uncompressed data must hold every byte.
    let mut f = header(3, 3, 8, 4, 4);
    f[2] = 0;
    f.extend_from_slice(&[0; 63]);
    assert_eq!(
        err(&f).to_string(),
        "pcx: 63 bytes of uncompressed data cannot hold 4 lines of 4 x 4 bytes at offset 0x80"
    );
    // The allocation budget.
    let bytes = pcx::encode_indexed(64, 64, &[0; 4096], &Palette::QUAKE);
    let limits = Limits {
        max_alloc_bytes: 4096,
        ..Limits::default()
    };
    assert_error(
        &pcx::decode(&bytes, &limits).unwrap_err(),
        ErrorKind::LimitExceeded,
        "pcx: decoded data would exceed the allocation limit of 4096 bytes at offset 0x8",
    );
}

#[test]
fn width_over_the_limit() {
    assert_error(
        &err(&with_data(header(20000, 0, 8, 1, 20002), &[0xFF; 1000])),
        ErrorKind::LimitExceeded,
        "pcx: picture size 20001x1 exceeds the limit of 16384 pixels a side at offset 0x8",
    );
    let small = Limits {
        max_image_dimension: 32,
        ..Limits::default()
    };
    let bytes = pcx::encode_indexed(16, 33, &[0; 16 * 33], &Palette::QUAKE);
    assert_eq!(
        pcx::decode(&bytes, &small).unwrap_err().to_string(),
        "pcx: picture size 16x33 exceeds the limit of 32 pixels a side at offset 0x8"
    );
}

#[test]
fn bad_rectangle_and_line_length() {
    assert_error(
        &err(&with_origin(header(3, 0, 8, 1, 4), 5, 0)),
        ErrorKind::InvalidValue,
        "pcx: xmax 3 is less than xmin 5 at offset 0x8",
    );
    assert_eq!(
        err(&with_origin(header(3, 1, 8, 1, 4), 0, 2)).to_string(),
        "pcx: ymax 1 is less than ymin 2 at offset 0xa"
    );
    assert_error(
        &err(&header(2, 0, 8, 1, 2)),
        ErrorKind::InvalidValue,
        "pcx: bytes_per_line 2 is less than the width 3 at offset 0x42",
    );
    // xmin/ymin shift the rectangle: width = xmax - xmin + 1.
    let mut f = with_data(with_origin(header(11, 21, 8, 1, 2), 10, 20), &[0xC4, 3]);
    f.extend_from_slice(&[0x0C; 769]);
    let img = pcx::decode(&f, &Limits::default()).unwrap();
    assert_eq!((img.width, img.height), (2, 2));
    assert_eq!(indexed(&img).0, &[3, 3, 3, 3]);
}

/// The `pcx` rows of `HEADERS.jsonl`, by path.
fn header_rows(dir: &Path) -> BTreeMap<String, serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("HEADERS.jsonl")).unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["format"] == "pcx")
        .map(|v| (v["path"].as_str().unwrap().to_string(), v))
        .collect()
}

#[test]
fn corpus() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let rows = header_rows(&dir);
    let files = common::files_with_extension(&dir, &["pcx"]);
    let (mut paletted, mut rgb) = (0usize, 0usize);
    let mut seen = Vec::new();
    for path in &files {
        let rel = common::relative(&dir, path);
        let bytes = std::fs::read(path).unwrap();
        let img = pcx::decode(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let row = rows
            .get(&rel)
            .unwrap_or_else(|| panic!("{rel}: no row in HEADERS.jsonl"));
        seen.push(rel.clone());
        assert_eq!(u64::from(img.width), row["width"], "{rel}: width");
        assert_eq!(u64::from(img.height), row["height"], "{rel}: height");
        assert_eq!(u64::from(bytes[3]), row["bits_per_pixel"], "{rel}: bits");
        let planes = row["planes"].as_u64().unwrap();
        assert_eq!(u64::from(bytes[65]), planes, "{rel}: planes");
        let texels = img.width as usize * img.height as usize;
        match &img.pixels {
            Pixels::Indexed {
                indices, palette, ..
            } => {
                assert_eq!(planes, 1, "{rel}");
                paletted += 1;
                assert_eq!(indices.len(), texels, "{rel}");
                // The palette is the last 768 bytes; the marker is there when the
                // independent parser says so.
                let tail = &bytes[bytes.len() - 768..];
                assert_eq!(palette.0.concat(), tail, "{rel}: palette");
                let marker = bytes[bytes.len() - 769] == 0x0C;
                assert_eq!(marker, row["vga_palette"] == true, "{rel}: vga_palette");
                // Re-encoded and decoded again: the same picture.
                let again = pcx::encode_indexed(img.width, img.height, indices, palette);
                let back = pcx::decode(&again, &Limits::default())
                    .unwrap_or_else(|e| panic!("{rel} re-encoded: {e}"));
                assert_eq!(back, img, "{rel}: re-encoded");
            }
            Pixels::Rgba8(px) => {
                assert_eq!(planes, 3, "{rel}");
                rgb += 1;
                assert_eq!(px.len(), texels * 4, "{rel}");
                assert!(px.chunks_exact(4).all(|p| p[3] == 255), "{rel}: alpha");
                assert_eq!(pcx::encode(&img), None, "{rel}");
            }
        }
    }
    let listed: Vec<&String> = rows.keys().filter(|p| !seen.contains(p)).collect();
    assert!(
        listed.is_empty(),
        "in HEADERS.jsonl but not found: {listed:?}"
    );
    eprintln!(
        "{} corpus PCX files decoded: {paletted} 8-bit paletted, {rgb} 24-bit RGB",
        files.len()
    );
    assert_eq!(paletted + rgb, files.len());
}
