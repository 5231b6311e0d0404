//! Inputs found by fuzzing (`tests/regressions/`, tiny synthetic files), each run as it was
//! found: a correct result or a clear error, within the default [`Limits`] and within
//! 64 MiB + 16 x the input's size of allocation. Generated variants check the bounds around
//! them.

use retromodel::formats::gs_mdl7;
use retromodel::interchange::{self as import, ImportOptions};
use retromodel::{ConvertOptions, ErrorKind, Limits, NoFiles};
use serde_json::json;

mod common;

use common::glb;

const MDL7_SIZE24: &[u8] = include_bytes!("regressions/mdl7_triangle_size24_roundtrip.mdl");
const MDL7_FUZZ: &[u8] = include_bytes!("regressions/mdl7_roundtrip_fuzz_original.mdl");
const GLB_LENGTH: &[u8] = include_bytes!("regressions/gltf_glb_length_below_12.glb");
const GLB_3V: &[u8] = include_bytes!("regressions/gltf_long_animation_3v.glb");
const GLB_63V: &[u8] = include_bytes!("regressions/gltf_long_animation_63v.glb");
const GLB_SKINNED: &[u8] =
    include_bytes!("regressions/gltf_long_animation_fuzz_timeout_skinned.glb");

fn import(bytes: &[u8], options: &ImportOptions) -> retromodel::Result<retromodel::Converted> {
    import::gltf::read(bytes, &NoFiles, options)
}

fn import_error(bytes: &[u8], options: &ImportOptions) -> retromodel::Error {
    import(bytes, options).expect_err("must fail")
}

/// The allocation bound of the fuzzing campaign for an input of `len` bytes.
fn campaign_limits(len: usize) -> Limits {
    Limits {
        max_alloc_bytes: (64 << 20) + 16 * len as u64,
        ..Limits::default()
    }
}

#[test]
fn mdl7_triangle_records_cutting_a_field_write_back_byte_for_byte() {
    // Both store 24-byte triangles: the second UV set's last index cut after 6 bytes.
    for (name, bytes) in [("size24", MDL7_SIZE24), ("fuzz original", MDL7_FUZZ)] {
        for limits in [Limits::default(), campaign_limits(bytes.len())] {
            let file = gs_mdl7::File::parse(bytes, &limits).expect(name);
            assert_eq!(file.header.sizes.triangle, 24, "{name}");
            let t = &file.groups[0].triangles[0];
            assert_eq!(t.extra.len(), 2, "{name}");
            assert_eq!(t.material2, gs_mdl7::NO_MATERIAL, "{name}");
            assert!(file.write() == bytes, "{name}: round trip differs");
            let c = gs_mdl7::to_model(&file, &ConvertOptions::default(), &NoFiles);
            c.model.validate().unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
}

#[test]
fn glb_length_below_its_header_is_an_error_not_a_panic() {
    let expected = "gltf: GLB header: total length 0 is smaller than the 12-byte header at \
                    offset 0x8";
    let e = import_error(GLB_LENGTH, &ImportOptions::default());
    assert_eq!(
        (e.kind, e.to_string().as_str()),
        (ErrorKind::InvalidValue, expected)
    );
    // Every length below 12, with and without bytes after the header.
    for length in 0..12u32 {
        for tail in [0, 8, 64] {
            let mut b = GLB_LENGTH.to_vec();
            b[8..12].copy_from_slice(&length.to_le_bytes());
            b.resize(12 + tail, 0);
            assert_eq!(
                import_error(&b, &ImportOptions::default()).to_string(),
                format!(
                    "gltf: GLB header: total length {length} is smaller than the 12-byte \
                     header at offset 0x8"
                )
            );
        }
    }
    // A length of 12 and more goes on to the gltf crate's own checks.
    let mut b = GLB_LENGTH.to_vec();
    b[8..12].copy_from_slice(&12u32.to_le_bytes());
    assert_eq!(
        import_error(&b, &ImportOptions::default()).kind,
        ErrorKind::BadMagic
    );
}

#[test]
fn fuzzed_long_animations_stop_at_the_sampled_frame_limit() {
    let tail = "more than the limit of 10000 sampled frames (Limits::max_sampled_frames); a \
                lower frame rate (--fps) samples fewer";
    for (name, bytes, animation, span) in [
        ("3v", GLB_3V, "animation0", "1.000e30"),
        ("63v", GLB_63V, "animation0", "1.000e30"),
        ("skinned", GLB_SKINNED, "open", "4.743e30"),
    ] {
        for limits in [Limits::default(), campaign_limits(bytes.len())] {
            let options = ImportOptions {
                limits,
                ..ImportOptions::default()
            };
            let e = import_error(bytes, &options);
            assert_eq!(e.kind, ErrorKind::LimitExceeded, "{name}");
            let frames = if name == "skinned" {
                "4.743e31"
            } else {
                "1.000e31"
            };
            assert_eq!(
                e.to_string(),
                format!(
                    "gltf: animation \"{animation}\": its keys span {span} s (from 0 s to \
                     {span} s); sampled at 10 fps that is {frames} frames, {tail}"
                ),
                "{name}"
            );
        }
    }
}

/// A GLB of one triangle whose node an animation moves along x, keys at 0 and `span`
/// seconds (linear).
fn moving_triangle(span: f32) -> Vec<u8> {
    let mut bin = Vec::new();
    for v in [0.0f32, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0] {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    for v in [0.0f32, span, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0] {
        bin.extend_from_slice(&v.to_le_bytes());
    }
    let doc = json!({
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": bin.len()}],
        "bufferViews": [
            {"buffer": 0, "byteOffset": 0, "byteLength": 36},
            {"buffer": 0, "byteOffset": 36, "byteLength": 8},
            {"buffer": 0, "byteOffset": 44, "byteLength": 24},
        ],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
             "min": [0.0, 0.0, 0.0], "max": [1.0, 1.0, 0.0]},
            {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR",
             "min": [0.0], "max": [span]},
            {"bufferView": 2, "componentType": 5126, "count": 2, "type": "VEC3"},
        ],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "animations": [{"name": "slide",
            "samplers": [{"input": 1, "output": 2, "interpolation": "LINEAR"}],
            "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}],
    });
    glb(&doc, &bin)
}

#[test]
fn sampled_frames_follow_the_limit_and_the_frame_rate() {
    let long = moving_triangle(2000.0);
    let with = |fps: Option<f32>, limits: Limits| ImportOptions {
        fps,
        limits,
        ..ImportOptions::default()
    };
    // 2000 s at 10 fps: 20001 frames, past the default limit.
    let e = import_error(&long, &ImportOptions::default());
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(
        e.to_string(),
        "gltf: animation \"slide\": its keys span 2000 s (from 0 s to 2000 s); sampled at 10 \
         fps that is 20001 frames, more than the limit of 10000 sampled frames \
         (Limits::max_sampled_frames); a lower frame rate (--fps) samples fewer"
    );
    // A lower rate, or a higher limit.
    let c = import(&long, &with(Some(1.0), Limits::default())).unwrap();
    assert_eq!(c.model.frames.len(), 2001);
    assert_eq!(c.model.clips[0].fps, 1.0);
    let raised = Limits {
        max_sampled_frames: 20001,
        ..Limits::default()
    };
    let c = import(&long, &with(None, raised)).unwrap();
    assert_eq!(c.model.frames.len(), 20001);
    assert_eq!(c.model.frames[20000].bounds_max[0], 2.0);
    // At the limit exactly, and one frame short of it.
    let exact = Limits {
        max_sampled_frames: 2001,
        ..Limits::default()
    };
    assert!(import(&long, &with(Some(1.0), exact)).is_ok());
    let short = Limits {
        max_sampled_frames: 2000,
        ..Limits::default()
    };
    assert_eq!(
        import_error(&long, &with(Some(1.0), short)).kind,
        ErrorKind::LimitExceeded
    );
    // The frames are charged before they are made: a small allocation limit stops them.
    let small = Limits {
        max_alloc_bytes: 100_000,
        max_sampled_frames: 20001,
        ..Limits::default()
    };
    let e = import_error(&long, &with(None, small));
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(
        e.to_string(),
        "gltf: animation \"slide\": 20001 frames of 3 vertices (4180209 bytes) would exceed \
         the allocation limit of 100000 bytes"
    );
}

#[test]
fn every_input_gives_the_same_result_within_the_campaign_memory_bound() {
    for (name, bytes) in [
        ("glb length", GLB_LENGTH),
        ("3v", GLB_3V),
        ("63v", GLB_63V),
        ("skinned", GLB_SKINNED),
    ] {
        let options = ImportOptions {
            limits: campaign_limits(bytes.len()),
            ..ImportOptions::default()
        };
        assert_eq!(
            import(bytes, &options).map(|c| c.model.frames.len()),
            import(bytes, &ImportOptions::default()).map(|c| c.model.frames.len()),
            "{name}"
        );
    }
}

/// A fuzzed JPEG on which zune-jpeg's AVX2 inverse DCT panicked (an `unwrap` on `None`): the
/// decoder now runs its safe scalar paths, and the file decodes or fails cleanly under every
/// name, within the campaign's memory bound.
#[test]
fn fuzzed_jpeg_does_not_panic_the_decoder() {
    let bytes = include_bytes!("regressions/jpeg_zune_avx2_idct_panic.jpg");
    for name in ["x.jpg", "x.tga", "x"] {
        match retromodel::image::decode(bytes, name, &campaign_limits(bytes.len())) {
            Ok(img) => assert!(img.width > 0 && img.height > 0),
            Err(e) => assert_eq!(e.format, "jpeg", "{e}"),
        }
    }
}

/// A fuzzed JPEG (two frame headers, the second with other sampling factors) on which
/// zune-jpeg 0.5.15's scalar 1x1 inverse DCT indexes past its output row and panics: the
/// decoder's panic is caught and reported as a JPEG error, so a batch goes on.
#[test]
fn fuzzed_jpeg_panicking_in_the_scalar_idct_is_an_error() {
    let bytes = include_bytes!("regressions/jpeg_zune_scalar_idct_panic.jpg");
    for name in ["x.jpg", "x"] {
        match retromodel::image::decode(bytes, name, &campaign_limits(bytes.len())) {
            Ok(img) => assert!(img.width > 0 && img.height > 0),
            Err(e) => assert_eq!(e.format, "jpeg", "{e}"),
        }
    }
}
