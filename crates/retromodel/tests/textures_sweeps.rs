//! Texture truncation and bit-flip sweeps (TGA, BMP, DDS, JPEG, WAL through
//! `image::decode_with_palette`): never a panic, only errors naming the format or pictures
//! with as many pixels as their size says, and little memory. One test function, so the
//! process's peak memory is this sweep's alone.

mod common;
mod texture_fixtures;

use retromodel::image::{self, Pixels};
use retromodel::Limits;

use texture_fixtures as fx;

/// Decodes `bytes` named `name`; an error must name a format, a picture must be whole.
fn check(bytes: &[u8], name: &str, what: &str) -> bool {
    let palette = fx::wal_palette();
    match image::decode_with_palette(bytes, name, Some(&palette), &Limits::default()) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                ["tga: ", "bmp: ", "dds: ", "jpeg: ", "wal: ", "png: ", "pcx: ", "image: "]
                    .iter()
                    .any(|p| text.starts_with(p)),
                "{what}: {text}"
            );
            false
        }
        Ok(img) => {
            let texels = img.width as usize * img.height as usize;
            assert!(texels > 0, "{what}: empty picture");
            match &img.pixels {
                Pixels::Indexed { indices, .. } => assert_eq!(indices.len(), texels, "{what}"),
                Pixels::Rgba8(px) => assert_eq!(px.len(), texels * 4, "{what}"),
            }
            true
        }
    }
}

/// [`fx::sweep`] with 200 multi-bit flips; the whole file must decode.
fn sweep(bytes: &[u8], name: &str, rng: &mut common::Rng) -> usize {
    assert!(check(bytes, name, name), "{name} must decode");
    fx::sweep(bytes, 200, &mut |n| rng.below(n), &mut |b, how| {
        check(b, name, &format!("{name} {how}"));
    })
}

#[test]
fn truncation_and_bit_flip_sweeps() {
    let mut rng = common::Rng::for_name("textures");
    let mut cases = 0usize;
    let mut formats = std::collections::BTreeMap::new();
    for f in fx::all() {
        cases += sweep(&f.bytes, &f.name, &mut rng);
        *formats
            .entry(f.name.rsplit('.').next().unwrap().to_string())
            .or_insert(0) += 1;
    }
    // Every bit of every header byte of one file per format.
    for f in fx::all()
        .into_iter()
        .filter(|f| f.name.starts_with("Rgba32_rle_top") || f.name.starts_with("Rgba32_top"))
        .chain([fx::dds_bc(3, 10, 7, 0, 5), fx::dds_masked(5, 5, 3, 5)])
    {
        let header = if f.name.ends_with(".dds") { 128 } else { 40 };
        for at in 0..header.min(f.bytes.len()) {
            for bit in 0..8 {
                let mut b = f.bytes.clone();
                b[at] ^= 1 << bit;
                check(
                    &b,
                    &f.name,
                    &format!("{} header bit {bit} of byte {at}", f.name),
                );
                cases += 1;
            }
        }
    }
    let (wal, _) = fx::wal(16, 8, 7);
    cases += sweep(&wal, "floor1.wal", &mut rng);
    // Header words set to extreme values.
    for at in (32..56).step_by(4) {
        for v in [
            0u32,
            1,
            99,
            100,
            0x7FFF_FFFF,
            0x8000_0000,
            u32::MAX,
            16384,
            16385,
        ] {
            let mut b = wal.clone();
            b[at..at + 4].copy_from_slice(&v.to_le_bytes());
            check(&b, "floor1.wal", &format!("wal word {at} = {v}"));
            cases += 1;
        }
    }
    for progressive in [false, true] {
        let jpg = fx::jpeg(&fx::gradient(24, 16), 24, 16, progressive, false);
        cases += sweep(&jpg, "skin.jpg", &mut rng);
    }
    let grey = fx::jpeg(&fx::gradient(9, 9), 9, 9, true, true);
    cases += sweep(&grey, "grey.jpeg", &mut rng);
    assert_eq!(formats.get("tga"), Some(&96));
    assert_eq!(formats.get("bmp"), Some(&8));
    assert_eq!(formats.get("dds"), Some(&11));
    common::assert_bounded_memory(cases);
}
