//! GameStudio MDL2..MDL5 truncation and bit-flip sweeps: never a panic, only errors or valid
//! models (which also write back byte for byte and convert back to MDL), and little memory.
//! One test function, so the process's peak memory is this sweep's alone.

mod common;

use retromodel::formats::gs_mdl::{self, fixtures, File};
use retromodel::{Limits, NoFiles, WriteOptions};

/// Parses `bytes`; if that succeeds, the file must write back to the same bytes, convert to
/// a valid model, and that model must write as MDL5 again (when it is writable at all).
fn check(bytes: &[u8], what: &str) -> bool {
    match File::parse(bytes, &Limits::default()) {
        Err(e) => {
            assert!(e.to_string().starts_with("gs-mdl"), "{what}: {e}");
            false
        }
        Ok(file) => {
            assert!(
                file.write() == bytes,
                "{what}: parsed file must write back unchanged"
            );
            let c = gs_mdl::to_model(&file, &Default::default(), &NoFiles);
            c.model
                .validate()
                .unwrap_or_else(|e| panic!("{what}: invalid model: {e}"));
            let _ = gs_mdl::summary(&file, &c);
            if let Ok(w) = gs_mdl::from_model(&c.model, &WriteOptions::default(), 5) {
                let again = w.file.write();
                File::parse(&again, &Limits::default())
                    .unwrap_or_else(|e| panic!("{what}: rewritten file does not parse: {e}"));
            }
            true
        }
    }
}

#[test]
fn truncation_and_bit_flip_sweeps() {
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = 0usize;
    for (name, bytes) in fixtures::all() {
        let file = File::parse(&bytes, &Limits::default()).unwrap();
        let end = bytes.len() - file.trailing.len();
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
        // Hostile values in every header word and in the first skin's words.
        for word in (4..96).step_by(4) {
            for v in [0i32, 1, -1, i32::MIN, i32::MAX, 0x4000_0000, 65535, 8, 14] {
                let mut b = bytes.clone();
                if word + 4 <= b.len() {
                    b[word..word + 4].copy_from_slice(&v.to_le_bytes());
                }
                check(&b, &format!("{name} word {word} = {v}"));
                cases += 1;
            }
        }
    }

    if let Some(dir) = common::corpus_dir() {
        for version in 2u8..=5 {
            for path in common::files_with_magic(&dir, &gs_mdl::magic(version)) {
                let bytes = std::fs::read(&path).unwrap();
                let what = path.display().to_string();
                cases += common::mutate_file(
                    &bytes,
                    &what,
                    &mut rng,
                    (24, 24, 4096),
                    &mut |b: &[u8], w: &str| {
                        check(b, w);
                    },
                );
            }
        }
    }

    common::assert_bounded_memory(cases);
}
