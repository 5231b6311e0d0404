//! Invalid inputs: each gives its exact error text (format, context, problem, offset).

use retromodel::formats::quake_mdl::{self, fixtures, File, Frame, Skin};
use retromodel::{Document, ErrorKind, Limits, NoFiles, Severity};

mod common;

use common::{assert_error, set_i32};

fn err(bytes: &[u8]) -> retromodel::Error {
    File::parse(bytes, &Limits::default()).expect_err("must fail")
}

#[test]
fn truncated_header() {
    let bytes = fixtures::minimal();
    assert_error(
        &err(&bytes[..40]),
        ErrorKind::Truncated,
        "quake-mdl: header: unexpected end of data (needed 4 bytes, 0 left) at offset 0x28",
    );
}

#[test]
fn bad_version() {
    let mut bytes = fixtures::minimal();
    set_i32(&mut bytes, 4, 7);
    assert_eq!(
        err(&bytes).to_string(),
        "quake-mdl: header: unsupported version 7 (expected 6) at offset 0x4"
    );
}

#[test]
fn vertex_index_out_of_range() {
    let mut bytes = fixtures::minimal();
    // header 84 + skin (4 + 16*8) + 6 texcoords * 12 = 288; triangle 3 at 336, its second
    // index at 336 + 4 + 4 = 344.
    set_i32(&mut bytes, 344, 900);
    assert_error(
        &err(&bytes),
        ErrorKind::IndexOutOfRange,
        "quake-mdl: triangle 3: vertex index 900 out of range (num_verts = 6) at offset 0x158",
    );
    set_i32(&mut bytes, 344, -1);
    assert_eq!(
        err(&bytes).to_string(),
        "quake-mdl: triangle 3: vertex index -1 out of range (num_verts = 6) at offset 0x158"
    );
}

#[test]
fn negative_count() {
    let mut bytes = fixtures::minimal();
    set_i32(&mut bytes, 60, -1);
    assert_error(
        &err(&bytes),
        ErrorKind::BadCount,
        "quake-mdl: negative count num_verts = -1 at offset 0x3c",
    );
}

#[test]
fn absurd_counts_fail_before_allocating() {
    let mut bytes = fixtures::minimal();
    set_i32(&mut bytes, 68, i32::MAX);
    assert_error(
        &err(&bytes),
        ErrorKind::LimitExceeded,
        "quake-mdl: num_frames = 2147483647 exceeds the limit of 16777216 at offset 0x44",
    );
    // Without limits the bytes left still bound it: 2 frames of 52 bytes are present.
    let e = File::parse(&bytes, &Limits::none()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "quake-mdl: num_frames = 2147483647 needs at least 111669149644 bytes but only 104 are left at offset 0x44"
    );

    let mut bytes = fixtures::minimal();
    set_i32(&mut bytes, 52, 65535);
    set_i32(&mut bytes, 56, 65535);
    assert_eq!(
        err(&bytes).to_string(),
        "quake-mdl: skin size 65535x65535 exceeds the limit of 16384 pixels a side at offset 0x34"
    );
    assert_eq!(
        File::parse(&bytes, &Limits::none())
            .unwrap_err()
            .to_string(),
        format!(
            "quake-mdl: num_skins = 1 needs at least {} bytes but only {} are left at offset 0x30",
            4 + 65535u64 * 65535,
            bytes.len() - 84
        )
    );
}

/// A group of `nb` zero-sized skin pictures (skinwidth 0): nothing to copy, yet each picture
/// costs bookkeeping once decoded.
fn empty_picture_group(nb: usize) -> Vec<u8> {
    let mut file = fixtures::build(&fixtures::Spec {
        skin_width: 0,
        skin_height: 0,
        ..Default::default()
    });
    file.skins = vec![Skin::Group {
        skin_type: 1,
        intervals: (1..=nb).map(|i| i as f32).collect(),
        pictures: vec![Default::default(); nb],
    }];
    file.write()
}

#[test]
fn decoded_size_is_bounded_by_limits() {
    let tight = Limits {
        max_alloc_bytes: 10_000,
        ..Limits::default()
    };
    let bytes = empty_picture_group(100);
    assert!(File::parse(&bytes, &Limits::default()).is_ok());
    assert_eq!(
        File::parse(&bytes, &tight).unwrap_err().to_string(),
        "quake-mdl: skin 0: decoded data would exceed the allocation limit of 10000 bytes at offset 0x58"
    );
    // Poses without vertices cost bookkeeping too.
    let mut file = fixtures::build(&fixtures::Spec {
        frame_group: true,
        ..Default::default()
    });
    file.header.num_verts = 0;
    file.texcoords.clear();
    file.triangles.clear();
    file.header.num_tris = 0;
    for f in &mut file.frames {
        match f {
            Frame::Simple(p) => p.verts.clear(),
            Frame::Group {
                frames, intervals, ..
            } => {
                *frames = vec![frames[0].clone(); 100];
                frames.iter_mut().for_each(|p| p.verts.clear());
                *intervals = (1..=100).map(|i| i as f32).collect();
            }
        }
    }
    let bytes = file.write();
    assert_error(
        &File::parse(&bytes, &tight).unwrap_err(),
        ErrorKind::LimitExceeded,
        "quake-mdl: frame 2: decoded data would exceed the allocation limit of 10000 bytes at offset 0x114",
    );
}

#[test]
fn unknown_skin_type_words_are_groups_as_in_quake() {
    let mut file = fixtures::build(&fixtures::Spec {
        skin_group: true,
        ..Default::default()
    });
    if let Skin::Group { skin_type, .. } = &mut file.skins[1] {
        *skin_type = 6;
    }
    let bytes = file.write();
    let parsed = File::parse(&bytes, &Limits::default()).unwrap();
    assert!(matches!(parsed.skins[1], Skin::Group { skin_type: 6, .. }));
    assert_eq!(parsed.write(), bytes);
    let c = quake_mdl::to_model(&parsed, &Default::default(), &NoFiles);
    assert_eq!(
        c.warnings,
        ["skin 1: type word 6 read as a group, as Quake does"]
    );
    assert_eq!(c.model.skins[1].pictures.len(), 3);
}

#[test]
fn unknown_skin_type_and_empty_group() {
    let mut bytes = fixtures::minimal();
    // Type 7 is read as a group, whose count is then the first pixel bytes.
    set_i32(&mut bytes, 84, 7);
    assert_eq!(
        err(&bytes).to_string(),
        "quake-mdl: skin 0: negative count nb = -573124664 at offset 0x58"
    );
    set_i32(&mut bytes, 84, 1);
    set_i32(&mut bytes, 88, 0);
    assert_eq!(
        err(&bytes).to_string(),
        "quake-mdl: skin 0: skin group with 0 pictures at offset 0x58"
    );
}

#[test]
fn other_magics_are_named() {
    let mut bytes = fixtures::minimal();
    bytes[..4].copy_from_slice(b"IDP3");
    assert_eq!(
        err(&bytes).to_string(),
        "quake-mdl: header: bad magic \"IDP3\": this is Quake 3 MD3 at offset 0x0"
    );
    assert_eq!(
        Document::parse(&bytes, &Limits::default())
            .unwrap_err()
            .to_string(),
        "md3: header: unsupported version 6 (expected 15) at offset 0x4"
    );
    bytes[..4].copy_from_slice(b"IDP2");
    assert_eq!(
        err(&bytes).to_string(),
        "quake-mdl: header: bad magic \"IDP2\": this is Quake 2 MD2 at offset 0x0"
    );
    bytes[..4].copy_from_slice(&[0, 1, 2, 3]);
    assert_eq!(
        Document::parse(&bytes, &Limits::default())
            .unwrap_err()
            .to_string(),
        "unknown: not a known model format (magic 00 01 02 03) at offset 0x0"
    );
}

/// Replaces the intervals of every group in the file.
fn with_intervals(intervals: [f32; 3]) -> Vec<u8> {
    let mut file = fixtures::build(&fixtures::Spec {
        skin_group: true,
        frame_group: true,
        ..Default::default()
    });
    for s in &mut file.skins {
        if let Skin::Group { intervals: i, .. } = s {
            *i = intervals.to_vec();
        }
    }
    for f in &mut file.frames {
        if let Frame::Group { intervals: i, .. } = f {
            *i = intervals.to_vec();
        }
    }
    file.write()
}

#[test]
fn bad_group_intervals_read_with_a_warning_and_fail_validate() {
    for (intervals, problem) in [
        ([0.1, 0.0, 0.3], "interval 1 is 0 (must be > 0)"),
        ([-0.1, 0.2, 0.3], "interval 0 is -0.1 (must be > 0)"),
        (
            [0.1, 0.3, 0.2],
            "interval 2 is 0.2, not after the previous end time 0.3",
        ),
    ] {
        let bytes = with_intervals(intervals);
        let file = File::parse(&bytes, &Limits::default()).expect("reads");
        assert_eq!(file.write(), bytes);
        let c = quake_mdl::to_model(&file, &Default::default(), &NoFiles);
        assert_eq!(
            c.warnings,
            [
                format!("frame 2: group {problem}"),
                format!("skin 1: group {problem}")
            ]
        );
        for engine in [
            quake_mdl::Engine::Quake,
            quake_mdl::Engine::GlQuake,
            quake_mdl::Engine::QuakeSpasm,
        ] {
            let d = quake_mdl::validate(&file, engine);
            let errors: Vec<_> = d
                .iter()
                .filter(|d| d.severity == Severity::Error)
                .map(|d| d.message.clone())
                .collect();
            assert_eq!(
                errors,
                [
                    format!("skin 1: group {problem}"),
                    format!("frame 2: group {problem}")
                ]
            );
        }
    }
    let good = with_intervals([0.1, 0.2, 0.3]);
    let file = File::parse(&good, &Limits::default()).unwrap();
    assert!(quake_mdl::validate(&file, quake_mdl::Engine::QuakeSpasm).is_empty());
}

#[test]
fn engine_limits_differ() {
    use quake_mdl::Engine::*;
    let mut file = fixtures::build(&Default::default());
    file.header.skinwidth = 18; // not a multiple of 4
    file.header.skinheight = 500;
    let sev = |file: &File<'_>, e| {
        quake_mdl::validate(file, e)
            .into_iter()
            .map(|d| (d.severity, d.message))
            .collect::<Vec<_>>()
    };
    let quake = sev(&file, Quake);
    assert_eq!(quake.len(), 2);
    assert!(
        quake.iter().all(|(s, _)| *s == Severity::Error),
        "{quake:?}"
    );
    let spasm = sev(&file, QuakeSpasm);
    assert_eq!(
        spasm,
        [
            (
                Severity::Warning,
                "skin width 18 is not a multiple of 4 (software Quake refuses it)".to_string()
            ),
            (
                Severity::Warning,
                "skin height 500 exceeds quakespasm's limit of 480".to_string()
            )
        ]
    );
    assert!(sev(&file, GlQuake).contains(&(
        Severity::Error,
        "skin height 500 exceeds glquake's limit of 480".to_string()
    )));
    file.header.num_verts = 1500;
    assert!(sev(&file, GlQuake).contains(&(
        Severity::Error,
        "1500 vertices exceed glquake's limit of 1024".to_string()
    )));
    assert!(!sev(&file, QuakeSpasm)
        .iter()
        .any(|(_, m)| m.contains("vertices")));
}
