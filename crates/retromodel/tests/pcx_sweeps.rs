//! PCX truncation and bit-flip sweeps: never a panic, only errors or consistent pictures, and
//! little memory. One test function, so the process's peak memory is this sweep's alone.

mod common;
mod texture_fixtures;

use std::path::PathBuf;

use retromodel::image::pcx;
use retromodel::image::{Palette, Pixels};
use retromodel::Limits;

use texture_fixtures as fx;

/// Decodes `bytes`; a picture must have as many pixels as its size says, and an indexed one
/// must survive re-encoding unchanged.
fn check(bytes: &[u8], what: &str) -> bool {
    match pcx::decode(bytes, &Limits::default()) {
        Err(e) => {
            assert!(e.to_string().starts_with("pcx: "), "{what}: {e}");
            assert!(e.offset().is_some(), "{what}: no offset in {e}");
            false
        }
        Ok(img) => {
            let texels = img.width as usize * img.height as usize;
            match &img.pixels {
                Pixels::Indexed { indices, .. } => {
                    assert_eq!(indices.len(), texels, "{what}");
                    let again = pcx::encode(&img).unwrap_or_else(|| panic!("{what}: encode"));
                    let back = pcx::decode(&again, &Limits::default())
                        .unwrap_or_else(|e| panic!("{what}: re-encoded: {e}"));
                    assert_eq!(back, img, "{what}: re-encoded");
                }
                Pixels::Rgba8(px) => assert_eq!(px.len(), texels * 4, "{what}"),
            }
            true
        }
    }
}

/// Truncations at every length and one flipped bit at every byte ([`fx::sweep`]).
fn sweep(bytes: &[u8], name: &str, rng: &mut common::Rng) -> usize {
    fx::sweep(bytes, 0, &mut |n| rng.below(n), &mut |b, how| {
        check(b, &format!("{name} {how}"));
    })
}

#[test]
fn truncation_and_bit_flip_sweeps() {
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let mut cases = 0usize;

    // A generated picture: odd width (padding bytes), long runs, bytes >= 0xC0, noise.
    let (w, h) = (37u32, 23u32);
    let indices: Vec<u8> = (0..w * h)
        .map(|i| match (i / w) % 3 {
            0 => 0xC3,
            1 => (i % w / 9) as u8,
            _ => (rng.next() >> 56) as u8,
        })
        .collect();
    let mut palette = [[0u8; 3]; 256];
    for (i, c) in palette.iter_mut().enumerate() {
        *c = [i as u8, (i * 3) as u8, (255 - i) as u8];
    }
    let bytes = pcx::encode_indexed(w, h, &indices, &Palette(palette));
    assert!(check(&bytes, "generated"));
    // Cutting any byte leaves the pixel stream short (the palette keeps its 768 bytes at the
    // end, so it moves into the stream); only cutting the last byte leaves the stream whole,
    // unless its last byte then looks like the palette marker.
    // Then one flipped bit at every byte, and several bits flipped at once, anywhere.
    let last_stream_byte = bytes[bytes.len() - 770];
    cases += fx::sweep(&bytes, 4000, &mut |n| rng.below(n), &mut |b, how| {
        let ok = check(b, &format!("generated {how}"));
        if let fx::Break::Cut(cut) = how {
            let expect = cut == bytes.len() - 1 && last_stream_byte != 0x0C;
            assert_eq!(ok, expect, "generated {how}");
        }
    });
    // Every bit of the header.
    for at in 0..128 {
        for bit in 0..8 {
            let mut b = bytes.clone();
            b[at] ^= 1 << bit;
            check(&b, &format!("generated header bit {bit} of byte {at}"));
            cases += 1;
        }
    }
    // Header words set to extreme values: sizes, rectangle, bytes per line.
    for word in (4..12).chain([66]) {
        for v in [0u16, 1, 0x7FFF, 0x8000, 0xFFFF, 16383, 16384] {
            let mut b = bytes.clone();
            b[word..word + 2].copy_from_slice(&v.to_le_bytes());
            check(&b, &format!("generated header word {word} = {v}"));
            cases += 1;
        }
    }
    // The same picture as 24-bit RGB (3 planes), built by hand: truncations and flips.
    let mut rgb = bytes[..128].to_vec();
    rgb[65] = 3;
    let bpl = usize::from(u16::from_le_bytes([rgb[66], rgb[67]]));
    for row in indices.chunks(w as usize) {
        for c in [0, 1, 2] {
            let mut line: Vec<u8> = row.iter().map(|&i| palette[i as usize][c]).collect();
            line.resize(bpl, 0);
            for &v in &line {
                if v >= 0xC0 {
                    rgb.push(0xC1);
                }
                rgb.push(v);
            }
        }
    }
    assert!(check(&rgb, "generated rgb"));
    cases += sweep(&rgb, "generated rgb", &mut rng);

    // The smallest corpus PCX of each kind (8-bit paletted, 24-bit RGB), if there is a corpus.
    if let Some(dir) = common::corpus_dir() {
        let mut smallest: [Option<(u64, PathBuf)>; 2] = [None, None];
        for path in common::files_with_extension(&dir, &["pcx"]) {
            let bytes = std::fs::read(&path).unwrap();
            let kind = match bytes.get(65) {
                Some(1) => 0,
                Some(3) => 1,
                _ => continue,
            };
            let len = bytes.len() as u64;
            if smallest[kind].as_ref().is_none_or(|(l, _)| len < *l) {
                smallest[kind] = Some((len, path));
            }
        }
        for (_, path) in smallest.into_iter().flatten() {
            let bytes = std::fs::read(&path).unwrap();
            let what = path.display().to_string();
            assert!(check(&bytes, &what));
            cases += sweep(&bytes, &what, &mut rng);
        }
    }

    common::assert_bounded_memory(cases);
}
