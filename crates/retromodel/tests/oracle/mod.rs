//! The checks every input of a registered format must pass, whatever its bytes: shared by the
//! fuzz targets (`fuzz/`, which include this file by path) and the regression tests.
//!
//! An input either fails to parse with an error naming the codec's format, or it parses and
//! then: writes back byte for byte (binary formats) or to text that parses and writes back
//! to itself (text formats); converts to a Model that keeps the Model's invariants; gives a
//! summary and validates against each of its engines; and, when small, the Model written
//! by every registered writer parses again.

#![allow(dead_code)]

use retromodel::interchange::obj;
use retromodel::registry::{self, Codec};
use retromodel::{ConvertOptions, Document, Limits, Model, NoFiles, WriteOptions};

/// Models larger than this (vertices x poses, or skin pixels) are not written by every
/// writer: that costs time (palette matching, GL strips) without reaching new code, and a
/// writer's output may rightly be much larger than a tiny input (a blank skin of the size
/// an MD2 header declares).
const WRITE_BUDGET: usize = 1 << 12;

/// Runs every check on `data` as a file of `codec`; panics on a violation. Returns whether
/// the input parsed.
pub fn check_codec(codec: &dyn Codec, data: &[u8], limits: &Limits) -> bool {
    match check_parse(codec, data, limits) {
        Some(model) => {
            check_writers(codec, &model);
            true
        }
        None => false,
    }
}

/// The checks up to the Model: parse, write back, convert, summary, validate. Returns the
/// Model when the input parsed.
pub fn check_parse(codec: &dyn Codec, data: &[u8], limits: &Limits) -> Option<Model> {
    let file = match codec.parse(data, limits) {
        Ok(f) => f,
        Err(e) => {
            let names: Vec<&str> = codec.formats().iter().map(|f| f.name()).collect();
            assert!(
                names.contains(&e.format) || e.format == codec.name(),
                "{}: error names {:?}: {e}",
                codec.name(),
                e.format
            );
            return None;
        }
    };
    let written = file.write();
    if codec.byte_exact() {
        assert!(
            written == data,
            "{}: parsed file must write back unchanged",
            codec.name()
        );
    } else {
        let again = codec
            .parse(&written, limits)
            .unwrap_or_else(|e| panic!("{}: written text does not parse: {e}", codec.name()));
        assert!(
            again.write() == written,
            "{}: written text must write back unchanged",
            codec.name()
        );
    }
    let converted = file.to_model(&ConvertOptions::default(), &NoFiles);
    // Before anything reads the frames: compared, they stay stored (see `check_shared`).
    check_shared(codec, data, &written, limits, &converted);
    converted
        .model
        .validate()
        .unwrap_or_else(|e| panic!("{}: invalid model: {e}", codec.name()));
    let _ = file.summary(&converted);
    for e in codec.engines() {
        let _ = file.validate(e.name);
    }
    Some(converted.model)
}

/// The codecs that override `Codec::parse_shared` (their Models keep parts of the input).
const SHARING: &[&str] = &["iqm"];

/// Parsed from shared bytes (`Codec::parse_shared`), the same file must write what the
/// borrowed parse wrote (`written`); for the
/// codecs that share ([`SHARING`]) it must also give the same Model and warnings. Stored
/// frames are compared an animation at a time (each decoded copy dropped before the next)
/// while the Models keep them stored, so that the comparison stays within the memory one
/// Model may use; the rest by `{:?}` (NaN equals NaN there, as a file's NaN stays NaN).
fn check_shared(
    codec: &dyn Codec,
    data: &[u8],
    written: &[u8],
    limits: &Limits,
    converted: &retromodel::Converted,
) {
    let bytes = retromodel::io::SharedBytes::from(data.to_vec());
    let file = codec
        .parse_shared(&bytes, limits)
        .unwrap_or_else(|e| panic!("{}: shared bytes do not parse: {e}", codec.name()));
    assert!(
        file.write() == written,
        "{}: a shared parse must write back as the borrowed one",
        codec.name()
    );
    if !SHARING.contains(&codec.name()) {
        return;
    }
    let mut shared = file.to_model(&ConvertOptions::default(), &NoFiles);
    assert_eq!(
        shared.warnings,
        converted.warnings,
        "{}: a shared parse must warn alike",
        codec.name()
    );
    let (a, b) = (&converted.model, &mut shared.model);
    assert_eq!(a.animations.len(), b.animations.len(), "{}", codec.name());
    assert_eq!(
        a.animation_scales.len(),
        b.animation_scales.len(),
        "{}",
        codec.name()
    );
    for (x, y) in a.animations.iter().zip(&mut b.animations) {
        let (dx, dy) = (x.frames.clone(), y.frames.clone());
        assert!(
            format!("{:?}", *dx) == format!("{:?}", *dy),
            "{}: shared frames differ",
            codec.name()
        );
        // The same source from here on: the rest of the Model prints without decoding.
        y.frames = x.frames.clone();
    }
    for (x, y) in a.animation_scales.iter().zip(&mut b.animation_scales) {
        let (dx, dy) = (x.clone(), y.clone());
        assert!(
            format!("{:?}", *dx) == format!("{:?}", *dy),
            "{}: shared scales differ",
            codec.name()
        );
        *y = x.clone();
    }
    assert!(
        format!("{a:?}") == format!("{b:?}"),
        "{}: a shared parse must give the same Model",
        codec.name()
    );
}

/// Every registered writer on a small `model`: what it writes must parse again.
pub fn check_writers(codec: &dyn Codec, model: &Model) {
    // The keyframe writers sample skeletal animation at 10 frames a second: a 2-frame clip
    // at 1/512 fps lasts 512 s, 5 121 written frames (a fuzz input that took 2.9 s). A clip
    // without a usable rate is left out of the baking, so it costs nothing.
    let seconds: f64 = model
        .animations
        .iter()
        .filter(|a| a.fps.is_finite() && a.fps > 0.0)
        .map(|a| a.frames.count().saturating_sub(1) as f64 / f64::from(a.fps))
        .sum();
    let sampled = (seconds * 10.0).min(1e9) as usize;
    let size = model
        .vertex_count()
        .saturating_mul(model.frames.len().max(sampled).max(1));
    let pixels: usize = model
        .skins
        .iter()
        .flat_map(|s| &s.pictures)
        .map(|p| p.width as usize * p.height as usize)
        .sum::<usize>()
        .max(
            model
                .meshes
                .iter()
                .filter_map(|m| m.skin_size)
                .map(|[w, h]| w as usize * h as usize)
                .max()
                .unwrap_or(0),
        );
    if size > WRITE_BUDGET || pixels > WRITE_BUDGET * 16 {
        return;
    }
    for w in registry::writers() {
        // An OBJ of a model without triangles holds vertices only, which no OBJ reader takes
        // for a model (the writer warns; `tests/import_obj.rs` pins the reader's error).
        if w.format == obj::OBJ && model.triangle_count() == 0 {
            continue;
        }
        if let Ok(out) = registry::write_model(model, w, &WriteOptions::default()) {
            Document::parse(&out.bytes, &Limits::default()).unwrap_or_else(|e| {
                panic!(
                    "{} -> {}: the written file does not parse: {e}",
                    codec.name(),
                    w.format.name()
                )
            });
        }
    }
}

/// [`check_codec`] through detection: the codec that detects `data`, if any.
pub fn check_any(data: &[u8], limits: &Limits) -> bool {
    match registry::detect_codec(data) {
        Some((_, codec)) => check_codec(codec, data, limits),
        None => Document::parse(data, limits).is_ok(),
    }
}
