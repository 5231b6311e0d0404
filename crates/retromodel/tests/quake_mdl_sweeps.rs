//! Truncation and bit-flip sweeps: never a panic, only errors or valid models, and little
//! memory. One test function, so the process's peak memory is this sweep's alone.

mod common;

use retromodel::formats::quake_mdl::{self, fixtures, File};
use retromodel::{Limits, NoFiles};

/// Parses `bytes`; if that succeeds, the file must write back to the same bytes and convert
/// to a model that passes its own validation.
fn check(bytes: &[u8], what: &str) -> bool {
    match File::parse(bytes, &Limits::default()) {
        Err(e) => {
            assert!(e.to_string().starts_with("quake-mdl: "), "{what}: {e}");
            false
        }
        Ok(file) => {
            assert_eq!(
                file.write(),
                bytes,
                "{what}: parsed file must write back unchanged"
            );
            let c = quake_mdl::to_model(&file, &Default::default(), &NoFiles);
            c.model
                .validate()
                .unwrap_or_else(|e| panic!("{what}: invalid model: {e}"));
            let _ = quake_mdl::validate(&file, quake_mdl::Engine::Quake);
            true
        }
    }
}

#[test]
fn truncation_and_bit_flip_sweeps() {
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = 0usize;
    for (name, bytes) in fixtures::all() {
        // Every truncation point. Only cuts inside the trailing data may still parse.
        let body_end = bytes.len()
            - File::parse(&bytes, &Limits::default())
                .unwrap()
                .trailing
                .len();
        for cut in 0..bytes.len() {
            let ok = check(&bytes[..cut], &format!("{name} cut at {cut}"));
            assert_eq!(ok, cut >= body_end, "{name} cut at {cut}");
            cases += 1;
        }
        // One flipped bit at every byte offset, the bit chosen by the generator.
        for at in 0..bytes.len() {
            let mut b = bytes.clone();
            b[at] ^= 1 << rng.below(8);
            check(&b, &format!("{name} flip at {at}"));
            cases += 1;
        }
        // Whole header words set to extreme values.
        for word in (0..84).step_by(4) {
            for v in [0i32, -1, i32::MIN, i32::MAX, 0x4000_0000] {
                let mut b = bytes.clone();
                b[word..word + 4].copy_from_slice(&v.to_le_bytes());
                check(&b, &format!("{name} header word {word} = {v}"));
                cases += 1;
            }
        }
    }

    if let Some(dir) = common::corpus_dir() {
        for path in common::files_with_magic(&dir, b"IDPO") {
            let bytes = std::fs::read(&path).unwrap();
            let what = path.display().to_string();
            cases += common::mutate_file(
                &bytes,
                &what,
                &mut rng,
                (64, 32, 4096),
                &mut |b: &[u8], w: &str| {
                    check(b, w);
                },
            );
        }
    }

    common::assert_bounded_memory(cases);
}
