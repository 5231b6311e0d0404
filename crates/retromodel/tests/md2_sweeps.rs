//! MD2 truncation and bit-flip sweeps: never a panic, only errors or valid models (which
//! also write back byte for byte and convert back to MD2), and little memory. One test
//! function, so the process's peak memory is this sweep's alone.

mod common;

use retromodel::formats::md2::{self, fixtures, File};
use retromodel::{Limits, NoFiles, WriteOptions};

/// Parses `bytes`; if that succeeds, the file must write back to the same bytes, convert to
/// a valid model, and that model must write as MD2 again.
fn check(bytes: &[u8], what: &str) -> bool {
    match File::parse(bytes, &Limits::default()) {
        Err(e) => {
            assert!(e.to_string().starts_with("md2: "), "{what}: {e}");
            false
        }
        Ok(file) => {
            assert!(
                file.write() == bytes,
                "{what}: parsed file must write back unchanged"
            );
            let c = md2::to_model(&file, &Default::default(), &NoFiles);
            c.model
                .validate()
                .unwrap_or_else(|e| panic!("{what}: invalid model: {e}"));
            let _ = md2::validate(&file, md2::Engine::Quake2);
            if let Ok(w) = md2::from_model(&c.model, &WriteOptions::default()) {
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
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let mut cases = 0usize;
    for (name, bytes) in fixtures::all() {
        let end = File::parse(&bytes, &Limits::default())
            .unwrap()
            .header
            .ofs_end as usize;
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
        for word in (0..68).step_by(4) {
            for v in [0i32, -1, i32::MIN, i32::MAX, 0x4000_0000, 68, 812] {
                let mut b = bytes.clone();
                b[word..word + 4].copy_from_slice(&v.to_le_bytes());
                check(&b, &format!("{name} header word {word} = {v}"));
                cases += 1;
            }
        }
    }

    if let Some(dir) = common::corpus_dir() {
        for path in common::files_with_magic(&dir, b"IDP2") {
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
