//! Engine limits of IQM: what DarkPlaces, ioquake3, FTEQW and Tesseract (Cube 2, Red
//! Eclipse) refuse or handle differently, from their loaders (see the module sources).
//!
//! What makes an engine refuse the model is a [`Severity::Error`]; what it reads
//! differently (ignored arrays, clamped values) a warning.

use super::raw::{ArrayType, ComponentFormat, File};
use crate::diagnostic::{Diagnostic, Severity};

/// Limits of one engine.
struct EngineLimits {
    name: &'static str,
    /// Most joints (or poses).
    max_joints: usize,
    /// Reads version 1 files.
    version1: bool,
    /// Formats accepted for positions, texture coordinates and normals.
    float_only: bool,
}

const ENGINES: &[EngineLimits] = &[
    EngineLimits {
        name: "darkplaces",
        max_joints: 256,
        version1: true,
        float_only: true,
    },
    EngineLimits {
        name: "ioq3",
        max_joints: 128,
        version1: false,
        float_only: true,
    },
    EngineLimits {
        name: "fteqw",
        max_joints: 256,
        version1: true,
        float_only: false,
    },
    EngineLimits {
        name: "tesseract",
        max_joints: 256,
        version1: false,
        float_only: true,
    },
];

/// Checks a parsed file against `engine` (one of the codec's engines).
pub fn validate(file: &File<'_>, engine: &str) -> Vec<Diagnostic> {
    let Some(e) = ENGINES.iter().find(|e| e.name == engine) else {
        return vec![Diagnostic::error(format!(
            "unknown engine {engine:?} for IQM"
        ))];
    };
    let h = &file.header;
    let mut out = Vec::new();
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    if h.version == 1 && !e.version1 {
        add(
            Severity::Error,
            format!("version 1: {} reads version 2 only", e.name),
        );
    }
    let joints = file.joints.len().max(file.poses.len());
    if joints > e.max_joints {
        add(
            Severity::Error,
            format!("{joints} joints: {} takes at most {}", e.name, e.max_joints),
        );
    }
    if !file.meshes.is_empty() && file.array(ArrayType::Position).is_none() {
        add(Severity::Error, "meshes without a position array".into());
    }
    for a in &file.vertex_arrays {
        let t = a.array_type();
        let f = ComponentFormat::of(a.format).unwrap_or(ComponentFormat::Float);
        let needs_float = matches!(
            t,
            ArrayType::Position | ArrayType::Texcoord | ArrayType::Normal | ArrayType::Tangent
        );
        if needs_float && e.float_only && f != ComponentFormat::Float {
            add(
                Severity::Error,
                format!(
                    "{} array in {}: {} reads floats only",
                    t.name(),
                    f.name(),
                    e.name
                ),
            );
        }
        if matches!(t, ArrayType::BlendIndexes | ArrayType::BlendWeights)
            && !matches!(f, ComponentFormat::UByte | ComponentFormat::Float)
        {
            add(
                Severity::Error,
                format!(
                    "{} array in {}: {} reads bytes (or float weights)",
                    t.name(),
                    f.name(),
                    e.name
                ),
            );
        }
    }
    if file.meshes.is_empty() && file.anims.is_empty() {
        add(
            Severity::Warning,
            "no meshes and no animations: nothing to show".into(),
        );
    }
    for a in &file.anims {
        if !(a.framerate > 0.0) {
            add(
                Severity::Warning,
                format!(
                    "animation {:?} has frame rate 0: the engine's configuration must give its speed",
                    file.text_at(a.name)
                ),
            );
        }
    }
    out
}
