//! WMP truncation and token replacement sweeps: never a panic, only errors with a line and
//! column or files that read back exactly after writing and convert to a valid model, and
//! little memory. One test function, so the process's peak memory is this sweep's alone.

mod common;

use retromodel::formats::wmp::{self, fixtures};
use retromodel::{ErrorKind, Limits};

/// Parses `bytes`; on success the file must write and read back to the same values and
/// convert to a model that passes `Model::validate`, on failure the error must name the
/// format and a line and column.
fn check(bytes: &[u8], what: &str) -> Option<ErrorKind> {
    match wmp::parse(bytes, &Limits::default()) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.starts_with("wmp: ") && text.contains(" at line "),
                "{what}: {text}"
            );
            Some(e.kind)
        }
        Ok(p) => {
            let written = wmp::write(&p.file);
            let back = wmp::parse(written.as_bytes(), &Limits::default())
                .unwrap_or_else(|e| panic!("{what}: written file does not parse: {e}"));
            assert!(back.file == p.file, "{what}: values differ after writing");
            let c = wmp::to_model(&p.file, &p.warnings);
            c.model
                .validate()
                .unwrap_or_else(|e| panic!("{what}: invalid model: {e}"));
            for m in &c.model.meshes {
                assert!(
                    m.positions.iter().flatten().all(|c| c.is_finite()),
                    "{what}: a position is not finite"
                );
            }
            let s = wmp::summary(&p.file, &c);
            assert_eq!(s.vertices, c.model.vertex_count(), "{what}");
            None
        }
    }
}

fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace() || b == 0x0b
}

fn is_symbol(b: u8) -> bool {
    b"{}(),:;".contains(&b)
}

/// The spans of the text's tokens, roughly: runs of non-space bytes, each symbol alone,
/// comments and `<...>` file names whole.
fn token_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_space(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            i += rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
        } else if rest[0] == b'<' {
            i += rest
                .iter()
                .position(|&b| b == b'>')
                .map_or(rest.len(), |n| n + 1);
        } else {
            i += 1;
            if !is_symbol(bytes[start]) {
                while i < bytes.len() && !is_space(bytes[i]) && !is_symbol(bytes[i]) {
                    i += 1;
                }
            }
        }
        spans.push((start, i));
    }
    spans
}

/// What a replaced token becomes.
const REPLACEMENTS: &[&[u8]] = &[
    b"",
    b"0",
    b"1",
    b"2",
    b"3",
    b"-1",
    b"-0",
    b"007",
    b"4294967295",
    b"4294967296",
    b"16777217",
    b"99999999999999999999",
    b"1e39",
    b"1e308",
    b"1e999",
    b"-1e-45",
    b".5",
    b"0f",
    b"ZZ",
    b"nan",
    b"{",
    b"}",
    b"(",
    b")",
    b",",
    b":",
    b";",
    b"<x.wad>",
    b"<",
    b"\"x y\"",
    b"\"",
    b"//",
    b"ndef",
    b"block",
    b"object",
    b"level",
    b"light",
    b"entity",
    b"vertices",
    b"faces",
    b"wed",
    b"palette",
    b"view",
    b"\xe9",
    b"\0",
    b"\n",
];

/// `bytes` with one random token replaced by a random replacement.
fn replace_token(bytes: &[u8], spans: &[(usize, usize)], rng: &mut common::Rng) -> Vec<u8> {
    let (start, end) = spans[rng.below(spans.len())];
    let with = REPLACEMENTS[rng.below(REPLACEMENTS.len())];
    [&bytes[..start], with, &bytes[end..]].concat()
}

#[test]
fn truncation_and_token_sweeps() {
    let mut rng = common::Rng(0x2545_f491_4f6c_dd1d);
    let mut cases = 0usize;
    for (name, bytes) in fixtures::all() {
        assert_eq!(check(&bytes, name), None, "{name} must parse");
        let spans = token_spans(&bytes);
        // Every byte: an error with a place, or a file that round-trips.
        for cut in 0..bytes.len() {
            check(&bytes[..cut], &format!("{name} cut at {cut}"));
            cases += 1;
        }
        // At a token boundary the text is short, not wrong.
        for &(start, stop) in &spans {
            for cut in [start, stop] {
                let what = format!("{name} cut at token boundary {cut}");
                if let Some(kind) = check(&bytes[..cut], &what) {
                    assert!(
                        matches!(kind, ErrorKind::Truncated | ErrorKind::BadCount),
                        "{what}: {kind:?}"
                    );
                }
                cases += 1;
            }
        }
        for i in 0..1000 {
            let b = replace_token(&bytes, &spans, &mut rng);
            check(&b, &format!("{name} replacement {i}"));
            // Two replacements at once reach further.
            let b = replace_token(&b, &token_spans(&b), &mut rng);
            check(&b, &format!("{name} double replacement {i}"));
            cases += 2;
        }
    }

    // Huge counts in tiny files fail before allocating.
    for text in [
        "// WMP2\nblock 0 { vertices 16000000 faces 1",
        "// WMP2\nblock 0 { vertices 0 faces 16000000",
        "// WMP2\nblock 0 { vertices 3 faces 1 0 0 0 1 0 0 0 1 0 16000000 0 1 2",
    ] {
        let kind = check(text.as_bytes(), text);
        assert_eq!(kind, Some(ErrorKind::BadCount), "{text}");
        cases += 1;
    }
    // Deep or wide object hierarchies stay bounded.
    let mut text = String::from("// WMP2\nblock 0 { ( 0 0 1 ) ( 0 1 1 ) ( 1 0 1 ) t 0 0 0 1 1 : 0 0 0 ( 1 0 0 ) ( 1 0 1 ) ( 1 1 0 ) t 0 0 0 1 1 : 0 0 0 ( 0 -1 0 ) ( 0 -1 1 ) ( 1 -1 0 ) t 0 0 0 1 1 : 0 0 0 ( -1 0 0 ) ( -1 1 0 ) ( -1 0 1 ) t 0 0 0 1 1 : 0 0 0 ( 0 1 0 ) ( 1 1 0 ) ( 0 1 1 ) t 0 0 0 1 1 : 0 0 0 ( 0 0 -1 ) ( 1 0 -1 ) ( 0 1 -1 ) t 0 0 0 1 1 : 0 0 0 }\n");
    for o in 0..40 {
        text += &format!(
            "object {o} {{ (1 0 0) (0 0 0) (1 1 1) object {n}, {n}, {n}, {n} block 0 }}\n",
            n = o + 1
        );
    }
    text += "object 40 { (0 0 0) (0 0 0) (1 1 1) object 1 }\n";
    let p = wmp::parse(text.as_bytes(), &Limits::default()).unwrap();
    let c = wmp::to_model(&p.file, &p.warnings);
    assert!(c.model.vertex_count() <= 1 << 20);
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("the rest is left out")),
        "{:?}",
        c.warnings
    );
    assert!(c.warnings.len() < 10, "{:?}", c.warnings);
    cases += 1;

    if let Some(dir) = common::corpus_dir() {
        for path in common::files_with_magic(&dir, b"// W") {
            let bytes = std::fs::read(&path).unwrap();
            let what = path.display().to_string();
            assert_eq!(check(&bytes, &what), None, "{what}");
            let spans = token_spans(&bytes);
            for &(start, stop) in spans.iter().step_by(7) {
                for cut in [start, stop] {
                    let what = format!("{what} cut at token boundary {cut}");
                    if let Some(kind) = check(&bytes[..cut], &what) {
                        assert!(
                            matches!(kind, ErrorKind::Truncated | ErrorKind::BadCount),
                            "{what}: {kind:?}"
                        );
                    }
                    cases += 1;
                }
            }
            for i in 0..200 {
                let b = replace_token(&bytes, &spans, &mut rng);
                check(&b, &format!("{what} replacement {i}"));
                cases += 1;
            }
        }
    }

    common::assert_bounded_memory(cases);
}
