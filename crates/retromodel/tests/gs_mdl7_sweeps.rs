//! MDL7 truncation and bit-flip sweeps: never a panic, only errors or valid models (whose
//! files also write back byte for byte), and little memory. One test function, so the
//! process's peak memory is this sweep's alone.

mod common;

use retromodel::formats::gs_mdl7::{self, fixtures, File};
use retromodel::{Limits, NoFiles};

/// Parses `bytes`; if that succeeds, the file must write back to the same bytes and convert
/// to a valid model whose summary can be made.
fn check(bytes: &[u8], what: &str) -> bool {
    match File::parse(bytes, &Limits::default()) {
        Err(e) => {
            assert!(e.to_string().starts_with("gs-mdl7: "), "{what}: {e}");
            false
        }
        Ok(file) => {
            assert!(
                file.write() == bytes,
                "{what}: parsed file must write back unchanged"
            );
            let c = gs_mdl7::to_model(&file, &Default::default(), &NoFiles);
            c.model
                .validate()
                .unwrap_or_else(|e| panic!("{what}: invalid model: {e}"));
            let s = gs_mdl7::summary(&file, &c);
            assert_eq!(s.poses, c.model.frames.len(), "{what}");
            true
        }
    }
}

#[test]
fn truncation_and_bit_flip_sweeps() {
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
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
        for word in (4..28).step_by(4) {
            for v in [0i32, 1, -1, i32::MIN, i32::MAX, 0x4000_0000, 48, 597] {
                let mut b = bytes.clone();
                b[word..word + 4].copy_from_slice(&v.to_le_bytes());
                check(&b, &format!("{name} header word {word} = {v}"));
                cases += 1;
            }
        }
        for size in (28..48).step_by(2) {
            for v in [0u16, 1, 6, 12, 14, 15, 16, 22, 24, 26, 66, 68, 0xFFFF] {
                let mut b = bytes.clone();
                b[size..size + 2].copy_from_slice(&v.to_le_bytes());
                check(&b, &format!("{name} structure size at {size} = {v}"));
                cases += 1;
            }
        }
    }

    if let Some(dir) = common::corpus_dir() {
        for path in common::files_with_magic(&dir, b"MDL7") {
            let bytes = std::fs::read(&path).unwrap();
            let what = path.display().to_string();
            cases += common::mutate_file(
                &bytes,
                &what,
                &mut rng,
                (32, 32, 4096),
                &mut |b: &[u8], w: &str| {
                    check(b, w);
                },
            );
        }
    }

    common::assert_bounded_memory(cases);
}
