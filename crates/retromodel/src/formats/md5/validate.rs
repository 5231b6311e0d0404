//! Checks of MD5 files against what Doom 3 (dhewm3's `Model_md5.cpp`, `Anim.cpp`) accepts
//! and what renderers expect.

use super::raw::{AnimFile, CameraFile, MeshFile};
use crate::diagnostic::{Diagnostic, Severity};

/// Largest weight count per vertex a GPU skinning path takes without dropping any.
pub const GPU_WEIGHTS: u32 = 4;

/// Checks an md5mesh: vertices without weights (error), weight sums far from 1, vertices
/// with more than [`GPU_WEIGHTS`] weights, a missing version line, a wrong `numMeshes`.
pub fn validate_mesh(file: &MeshFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut add = |severity, message: String| out.push(Diagnostic { severity, message });
    if file.version.is_none() {
        add(Severity::Warning, "no MD5Version line".into());
    }
    for (mi, m) in file.meshes.iter().enumerate() {
        let (mut empty, mut off_sum, mut many) = (0, 0, 0);
        for v in &m.verts {
            let (a, n) = (v.start_weight as usize, v.count_weight as usize);
            let w = m.weights.get(a..a.saturating_add(n)).unwrap_or(&[]);
            if w.is_empty() {
                empty += 1;
            }
            let sum: f32 = w.iter().map(|w| w.bias).sum();
            if !w.is_empty() && (sum - 1.0).abs() > 1e-3 {
                off_sum += 1;
            }
            if v.count_weight > GPU_WEIGHTS {
                many += 1;
            }
        }
        if empty > 0 {
            add(
                Severity::Error,
                format!(
                    "mesh {mi}: {empty} vertices have no weight (Doom 3 draws them at the origin)"
                ),
            );
        }
        if off_sum > 0 {
            add(
                Severity::Warning,
                format!("mesh {mi}: {off_sum} vertices have weights that do not sum to 1"),
            );
        }
        if many > 0 {
            add(
                Severity::Warning,
                format!(
                    "mesh {mi}: {many} vertices have more than {GPU_WEIGHTS} weights (GPU skinning keeps the heaviest {GPU_WEIGHTS})"
                ),
            );
        }
        if m.tris.is_empty() {
            add(Severity::Warning, format!("mesh {mi}: no triangles"));
        }
    }
    if let Some(s) = file.stated_meshes {
        add(
            Severity::Warning,
            format!(
                "numMeshes says {s} but {} meshes are present",
                file.meshes.len()
            ),
        );
    }
    out
}

/// Checks an md5anim: frame rate, bounds per frame, at least two frames to loop.
pub fn validate_anim(file: &AnimFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if file.version.is_none() {
        out.push(Diagnostic::warning("no MD5Version line"));
    }
    if file.frame_rate.is_nan() || file.frame_rate <= 0.0 {
        out.push(Diagnostic::error(format!(
            "frame rate {} is not positive",
            file.frame_rate
        )));
    }
    if file.frames.is_empty() {
        out.push(Diagnostic::error("no frames"));
    } else if file.frames.len() == 1 {
        out.push(Diagnostic::warning(
            "one frame: a Doom 3 cycle (numFrames - 1 frames) lasts no time",
        ));
    }
    out
}

/// Checks an md5camera: frame rate, cuts in order.
pub fn validate_camera(file: &CameraFile) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if file.frame_rate.is_nan() || file.frame_rate <= 0.0 {
        out.push(Diagnostic::error(format!(
            "frame rate {} is not positive",
            file.frame_rate
        )));
    }
    if file.cuts.windows(2).any(|w| w[0] >= w[1]) {
        out.push(Diagnostic::warning("cuts are not in increasing order"));
    }
    out
}
