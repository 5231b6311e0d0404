//! MD5 truncation and token replacement sweeps: never a panic, only errors with a line and
//! column or files that read back exactly after writing, and little memory. One test
//! function, so the process's peak memory is this sweep's alone.

mod common;

use std::fmt::Debug;

use retromodel::formats::md5::{
    fixtures, parse_anim, parse_camera, parse_mesh, write_anim, write_camera, write_mesh, Parsed,
};
use retromodel::{ErrorKind, Limits, Result};

/// Parses `bytes` with `parse`; on success the file must write and read back to the same
/// values (bit for bit), on failure the error must name the format and a line and column.
fn round_trip<T: Debug + PartialEq>(
    bytes: &[u8],
    parse: fn(&[u8], &Limits) -> Result<Parsed<T>>,
    write: fn(&T) -> String,
    format: &str,
    what: &str,
) -> Option<ErrorKind> {
    match parse(bytes, &Limits::default()) {
        Err(e) => {
            let text = e.to_string();
            assert!(
                text.starts_with(&format!("{format}: ")) && text.contains(" at line "),
                "{what}: {text}"
            );
            Some(e.kind)
        }
        Ok(p) => {
            let written = write(&p.file);
            let back = parse(written.as_bytes(), &Limits::default())
                .unwrap_or_else(|e| panic!("{what}: written file does not parse: {e}"));
            assert!(back.file == p.file, "{what}: values differ after writing");
            assert_eq!(
                format!("{:?}", back.file),
                format!("{:?}", p.file),
                "{what}"
            );
            None
        }
    }
}

/// `Some(kind)` for an error, `None` for a file that parses (and round-trips).
fn check(name: &str, bytes: &[u8], what: &str) -> Option<ErrorKind> {
    if name.ends_with(".md5mesh") {
        round_trip(bytes, parse_mesh, write_mesh, "md5mesh", what)
    } else if name.ends_with(".md5anim") {
        round_trip(bytes, parse_anim, write_anim, "md5anim", what)
    } else {
        round_trip(bytes, parse_camera, write_camera, "md5camera", what)
    }
}

fn is_space(b: u8) -> bool {
    b.is_ascii_whitespace()
}

fn is_symbol(b: u8) -> bool {
    matches!(b, b'(' | b')' | b'{' | b'}')
}

/// The spans of the text's tokens, roughly: runs of non-space bytes, each symbol alone.
fn token_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if is_space(bytes[i]) {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if !is_symbol(bytes[start]) {
            while i < bytes.len() && !is_space(bytes[i]) && !is_symbol(bytes[i]) {
                i += 1;
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
    b"-1",
    b"-2",
    b"-0",
    b"63",
    b"64",
    b"4294967295",
    b"4294967296",
    b"16777217",
    b"99999999999999999999",
    b"1e39",
    b"-1e-45",
    b".5",
    b"1.#IND00",
    b"nan",
    b"{",
    b"}",
    b"(",
    b")",
    b"\"x\"",
    b"\"a\rb\\\"",
    b"\"",
    b"//",
    b"/*",
    b"numJoints",
    b"mesh",
    b"frame",
    b"vert",
    b"MD5Version",
    b"\xe9",
    b"\0",
];

/// `bytes` with one random token replaced by a random replacement.
fn replace_token(bytes: &[u8], spans: &[(usize, usize)], rng: &mut common::Rng) -> Vec<u8> {
    let (start, end) = spans[rng.below(spans.len())];
    let with = REPLACEMENTS[rng.below(REPLACEMENTS.len())];
    [&bytes[..start], with, &bytes[end..]].concat()
}

#[test]
fn truncation_and_token_sweeps() {
    let mut rng = common::Rng(0x9e37_79b9_7f4a_7c15);
    let mut cases = 0usize;
    for (name, bytes) in fixtures::all() {
        assert_eq!(check(name, &bytes, name), None, "{name} must parse");
        let spans = token_spans(&bytes);
        let end = spans.last().unwrap().1;
        // Every byte: an error with a place, or a file that round-trips.
        for cut in 0..bytes.len() {
            let kind = check(name, &bytes[..cut], &format!("{name} cut at {cut}"));
            if !name.ends_with(".md5mesh") {
                // Only the whole file (up to trailing space) is a whole anim or camera.
                assert_eq!(kind.is_none(), cut >= end, "{name} cut at {cut}");
            }
            cases += 1;
        }
        // At a token boundary the text is short, not wrong.
        for &(start, stop) in &spans {
            for cut in [start, stop] {
                let what = format!("{name} cut at token boundary {cut}");
                if let Some(kind) = check(name, &bytes[..cut], &what) {
                    assert!(
                        matches!(kind, ErrorKind::Truncated | ErrorKind::BadCount),
                        "{what}: {kind:?}"
                    );
                }
                cases += 1;
            }
        }
        for i in 0..500 {
            let b = replace_token(&bytes, &spans, &mut rng);
            check(name, &b, &format!("{name} replacement {i}"));
            cases += 1;
        }
    }

    // Huge counts in tiny files fail before allocating.
    for (name, text) in [
        ("huge.md5mesh", "numJoints 16000000 numMeshes 1 joints {"),
        ("huge.md5mesh", "numJoints 0 numMeshes 1 joints { } mesh { numverts 16000000"),
        ("huge.md5anim", "numFrames 1 numJoints 1 frameRate 24 numAnimatedComponents 16000000 hierarchy { \"a\" -1 0 0 } bounds { (0 0 0)(0 0 0) } baseframe { (0 0 0)(0 0 0) } frame 0 {"),
        ("huge.md5anim", "numFrames 16000000 numJoints 0 numAnimatedComponents 0 hierarchy { } bounds {"),
        ("huge.md5camera", "numFrames 16000000 frameRate 24 numCuts 16000000 cuts {"),
    ] {
        let kind = check(name, text.as_bytes(), name);
        assert_eq!(kind, Some(ErrorKind::BadCount), "{text}");
        cases += 1;
    }

    if let Some(dir) = common::corpus_dir() {
        let mut files = Vec::new();
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if let Some(ext @ ("md5mesh" | "md5anim" | "md5camera")) =
                    p.extension().and_then(|e| e.to_str())
                {
                    files.push((p.clone(), ext.to_string()));
                }
            }
        }
        files.sort();
        for (path, ext) in files {
            let bytes = std::fs::read(&path).unwrap();
            if bytes.is_empty() {
                continue;
            }
            let what = path.display().to_string();
            let name = format!("x.{ext}");
            for k in 0..64 {
                let cut = bytes.len() * k / 64 + rng.below(bytes.len() / 64 + 1);
                let cut = cut.min(bytes.len());
                check(&name, &bytes[..cut], &format!("{what} cut at {cut}"));
            }
            let spans = token_spans(&bytes);
            for i in 0..16 {
                let b = replace_token(&bytes, &spans, &mut rng);
                check(&name, &b, &format!("{what} replacement {i}"));
            }
            cases += 80;
        }
    }

    common::assert_bounded_memory(cases);
}
