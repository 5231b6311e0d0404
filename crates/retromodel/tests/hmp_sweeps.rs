//! HMP truncation and bit-flip sweeps: never a panic, only errors or valid models (whose
//! files also write back byte for byte), and little memory. One test function, so the
//! process's peak memory is this sweep's alone.

mod common;

use retromodel::formats::hmp::{self, fixtures, File};
use retromodel::{Limits, NoFiles};

/// Parses `bytes`; if that succeeds, the file must write back to the same bytes and convert
/// to a valid model whose summary can be made.
fn check(bytes: &[u8], what: &str) -> bool {
    match File::parse(bytes, &Limits::default()) {
        Err(e) => {
            assert!(e.to_string().starts_with("hmp: "), "{what}: {e}");
            false
        }
        Ok(file) => {
            assert!(
                file.write() == bytes,
                "{what}: parsed file must write back unchanged"
            );
            let c = hmp::to_model(&file, &Default::default(), &NoFiles);
            c.model
                .validate()
                .unwrap_or_else(|e| panic!("{what}: invalid model: {e}"));
            let s = hmp::summary(&file, &c);
            assert_eq!(s.triangles, c.model.triangle_count(), "{what}");
            true
        }
    }
}

#[test]
fn truncation_and_bit_flip_sweeps() {
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let mut cases = 0usize;
    for (name, bytes) in fixtures::all() {
        let end = bytes.len()
            - File::parse(&bytes, &Limits::default())
                .unwrap()
                .trailing
                .len();
        for cut in 0..bytes.len() {
            let ok = check(&bytes[..cut], &format!("{name} cut at {cut}"));
            assert_eq!(ok, cut >= end, "{name} cut at {cut}");
            cases += 1;
        }
        for at in 0..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 1 << rng.below(8);
            check(&b, &format!("{name} flip at {at}"));
            cases += 1;
        }
        for word in (4..84).step_by(4) {
            let ints = [0i32, 1, -1, i32::MIN, i32::MAX, 0x4000_0000, 3, 7];
            let floats = [0.0f32, -1.0, 0.5, 1e30, f32::NAN, f32::INFINITY, 16777216.0];
            let values = ints
                .iter()
                .map(|v| v.to_le_bytes())
                .chain(floats.iter().map(|v| v.to_le_bytes()));
            for v in values {
                let mut b = bytes.clone();
                b[word..word + 4].copy_from_slice(&v);
                check(&b, &format!("{name} header word {word} = {v:?}"));
                cases += 1;
            }
        }
    }

    if let Some(dir) = common::corpus_dir() {
        let mut files = Vec::new();
        for magic in [b"HMP4", b"HMP5", b"HMP7"] {
            files.extend(common::files_with_magic(&dir, magic));
        }
        for path in files {
            let bytes = std::fs::read(&path).unwrap();
            let what = path.display().to_string();
            cases += common::mutate_file(
                &bytes,
                &what,
                &mut rng,
                (64, 64, 512),
                &mut |b: &[u8], w: &str| {
                    check(b, w);
                },
            );
        }
    }

    common::assert_bounded_memory(cases);
}
