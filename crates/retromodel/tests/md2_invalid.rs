//! Invalid MD2 inputs: each gives its exact error text (format, context, problem, offset).
//!
//! The minimal fixture's layout: header 0..68, one skin name 68..132, 12 texture
//! coordinates 132..180, 16 triangles 180..372, 2 frames of 80 bytes 372..532, 70 GL command
//! words 532..812 (a strip of 10 vertices, two fans of 6, the terminator).

use retromodel::formats::md2::{fixtures, File};
use retromodel::{ErrorKind, Limits};

mod common;

use common::set_i32;

fn err(bytes: &[u8]) -> retromodel::Error {
    File::parse(bytes, &Limits::default()).expect_err("must fail")
}

fn minimal() -> Vec<u8> {
    let b = fixtures::minimal();
    assert_eq!(b.len(), 812, "the layout the offsets below assume");
    b
}

fn check(bytes: &[u8], kind: ErrorKind, text: &str) {
    common::assert_error(&err(bytes), kind, text);
}

#[test]
fn bad_magic_and_version() {
    let mut b = minimal();
    b[..4].copy_from_slice(b"IDPO");
    check(
        &b,
        ErrorKind::BadMagic,
        "md2: header: bad magic \"IDPO\": this is Quake MDL at offset 0x0",
    );
    let mut b = minimal();
    set_i32(&mut b, 4, 7);
    check(
        &b,
        ErrorKind::UnsupportedVersion,
        "md2: header: unsupported version 7 (expected 8) at offset 0x4",
    );
    check(
        &minimal()[..30],
        ErrorKind::Truncated,
        "md2: header: unexpected end of data (needed 4 bytes, 2 left) at offset 0x1c",
    );
}

#[test]
fn section_offset_past_the_end() {
    let mut b = minimal();
    set_i32(&mut b, 56, 10_000);
    check(
        &b,
        ErrorKind::Truncated,
        "md2: frames at offset 10000 with 160 bytes run past the end of the file (812 bytes) at offset 0x38",
    );
    let mut b = minimal();
    set_i32(&mut b, 48, -4);
    check(
        &b,
        ErrorKind::Truncated,
        "md2: texture coordinates at offset -4 with 48 bytes run past the end of the file (812 bytes) at offset 0x30",
    );
    let mut b = minimal();
    set_i32(&mut b, 64, 813);
    check(
        &b,
        ErrorKind::Truncated,
        "md2: ofs_end = 813 is past the end of the file (812 bytes) at offset 0x40",
    );
    // A count that claims more than the file holds is the same error.
    let mut b = minimal();
    set_i32(&mut b, 40, 1_000_000);
    check(
        &b,
        ErrorKind::Truncated,
        "md2: frames at offset 372 with 80000000 bytes run past the end of the file (812 bytes) at offset 0x38",
    );
}

#[test]
fn frame_size_too_small() {
    let mut b = minimal();
    set_i32(&mut b, 16, 79);
    check(
        &b,
        ErrorKind::InvalidValue,
        "md2: frame size 79 too small for 10 vertices (needs at least 80) at offset 0x10",
    );
}

#[test]
fn negative_count() {
    let mut b = minimal();
    set_i32(&mut b, 32, -1);
    check(
        &b,
        ErrorKind::BadCount,
        "md2: negative count num_tris = -1 at offset 0x20",
    );
}

#[test]
fn index_out_of_range() {
    // Triangle 2 starts at 180 + 24 = 204; its texture coordinate indices at 210.
    let mut b = minimal();
    b[204..206].copy_from_slice(&99i16.to_le_bytes());
    check(
        &b,
        ErrorKind::IndexOutOfRange,
        "md2: triangle 2: vertex index 99 out of range (num_xyz = 10) at offset 0xcc",
    );
    let mut b = minimal();
    b[212..214].copy_from_slice(&(-1i16).to_le_bytes());
    check(
        &b,
        ErrorKind::IndexOutOfRange,
        "md2: triangle 2: texture coordinate index -1 out of range (num_st = 12) at offset 0xd4",
    );
    // The first GL vertex's index word: 532 + 4 (count) + 8 (s, t).
    let mut b = minimal();
    set_i32(&mut b, 544, 10);
    check(
        &b,
        ErrorKind::IndexOutOfRange,
        "md2: GL commands: command 0: vertex index 10 out of range (num_xyz = 10) at offset 0x220",
    );
}

#[test]
fn gl_command_runs_past_the_list() {
    let mut b = minimal();
    set_i32(&mut b, 532, -30);
    check(
        &b,
        ErrorKind::BadCount,
        "md2: GL commands: command 0 with 30 vertices runs past the end of the list (69 words left) at offset 0x214",
    );
    let mut b = minimal();
    set_i32(&mut b, 532, 2);
    check(
        &b,
        ErrorKind::BadCount,
        "md2: GL commands: command 0 has 2 vertices (a strip or fan needs at least 3) at offset 0x214",
    );
}

#[test]
fn gl_command_list_without_terminator() {
    // Count one word less: the list ends right after the last fan.
    let mut b = minimal();
    set_i32(&mut b, 36, 69);
    check(
        &b,
        ErrorKind::Truncated,
        "md2: GL commands: the list of 69 words ends without its zero terminator at offset 0x328",
    );
}

#[test]
fn the_corrupted_corpus_style_header_fails_fast() {
    // Counts in the hundreds of millions (as in the corpus's edge_cases files): refused
    // before anything is allocated.
    let mut b = minimal();
    set_i32(&mut b, 24, 23_461_888);
    check(
        &b,
        ErrorKind::LimitExceeded,
        "md2: num_xyz = 23461888 exceeds the limit of 16777216 at offset 0x18",
    );
}
