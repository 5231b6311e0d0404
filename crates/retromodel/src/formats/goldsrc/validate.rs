//! Engine limits of GoldSrc studio models: the Half-Life SDK's `studio.h` (`MAXSTUDIO*`) and
//! the engine's texture upload (at most 512 texels wide, widths a multiple of 4 as studiomdl
//! resamples them), and Xash3D FWGS's raised limits (vertices 16384, skins 256, controllers
//! 32, attachments 64; sequences lowered to 256; texture flag 0x10 read as its own).

use super::raw::{File, NF_ALPHA};
use crate::diagnostic::{Diagnostic, Severity};

/// The limits one engine enforces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The engine's name as `validate --engine` takes it.
    pub engine: &'static str,
    /// `MAXSTUDIOTRIANGLES`: triangles of the whole model.
    pub triangles: usize,
    /// `MAXSTUDIOVERTS`: vertices of one sub-model.
    pub verts: usize,
    /// `MAXSTUDIOSEQUENCES`.
    pub sequences: usize,
    /// `MAXSTUDIOSKINS`: textures.
    pub skins: usize,
    /// `MAXSTUDIOBONES`.
    pub bones: usize,
    /// `MAXSTUDIOMODELS`: sub-models of a body part.
    pub models: usize,
    /// `MAXSTUDIOBODYPARTS`.
    pub body_parts: usize,
    /// `MAXSTUDIOGROUPS`: sequence groups.
    pub groups: usize,
    /// `MAXSTUDIOMESHES`: meshes of a sub-model.
    pub meshes: usize,
    /// `MAXSTUDIOEVENTS`: events of a sequence.
    pub events: usize,
    /// `MAXSTUDIOCONTROLLERS`.
    pub controllers: usize,
    /// Attachments (`None`: no limit of the file format).
    pub attachments: Option<usize>,
    /// The widest texture the engine uploads.
    pub texture_width: usize,
}

/// GoldSrc, from the Half-Life SDK's `studio.h`.
pub const GOLDSRC: Limits = Limits {
    engine: "goldsrc",
    triangles: 20000,
    verts: 2048,
    sequences: 2048,
    skins: 100,
    bones: 128,
    models: 32,
    body_parts: 32,
    groups: 16,
    meshes: 256,
    events: 1024,
    controllers: 8,
    attachments: None,
    texture_width: 512,
};

/// Xash3D FWGS.
pub const XASH3D: Limits = Limits {
    engine: "xash3d",
    verts: 16384,
    skins: 256,
    controllers: 32,
    attachments: Some(64),
    sequences: 256,
    ..GOLDSRC
};

/// Checks a parsed file against `engine` (`goldsrc` or `xash3d`).
pub fn validate(file: &File<'_>, engine: &str) -> Vec<Diagnostic> {
    let limits = match engine {
        "goldsrc" => GOLDSRC,
        "xash3d" => XASH3D,
        other => {
            return vec![Diagnostic::error(format!(
                "unknown engine {other:?} for Half-Life MDL"
            ))]
        }
    };
    let mut out = Vec::new();
    let mut over = |what: &str, n: usize, max: usize| {
        if n > max {
            out.push(Diagnostic::error(format!(
                "{n} {what}, more than {} allows ({max})",
                limits.engine
            )));
        }
    };
    let tris: usize = file
        .body_parts
        .iter()
        .flat_map(|b| &b.models)
        .flat_map(|m| &m.meshes)
        .map(|m| m.num_tris.max(0) as usize)
        .sum();
    over("triangles", tris, limits.triangles);
    over("sequences", file.sequences.len(), limits.sequences);
    over("textures", file.textures.len(), limits.skins);
    over("bones", file.bones.len(), limits.bones);
    over("body parts", file.body_parts.len(), limits.body_parts);
    over("sequence groups", file.seq_groups.len(), limits.groups);
    over(
        "bone controllers",
        file.controllers.len(),
        limits.controllers,
    );
    if let Some(max) = limits.attachments {
        over("attachments", file.attachments.len(), max);
    }
    for b in &file.body_parts {
        over(
            &format!("sub-models in body part {}", b.name()),
            b.models.len(),
            limits.models,
        );
        for m in &b.models {
            over(
                &format!("vertices in sub-model {}", m.name()),
                m.vertices.len(),
                limits.verts,
            );
            over(
                &format!("meshes in sub-model {}", m.name()),
                m.meshes.len(),
                limits.meshes,
            );
        }
    }
    for s in &file.sequences {
        over(
            &format!("events in sequence {}", s.label()),
            s.events.len(),
            limits.events,
        );
    }
    for t in &file.textures {
        if t.width as usize > limits.texture_width {
            out.push(Diagnostic::error(format!(
                "texture {} is {} wide, more than {} uploads ({})",
                t.name(),
                t.width,
                limits.engine,
                limits.texture_width
            )));
        }
        if t.width % 4 != 0 {
            out.push(Diagnostic::warning(format!(
                "texture {} is {} wide, not a multiple of 4 (studiomdl resamples to one)",
                t.name(),
                t.width
            )));
        }
        if engine == "xash3d" && t.flags & NF_ALPHA != 0 {
            out.push(Diagnostic {
                severity: Severity::Warning,
                message: format!(
                    "texture {} has flag 0x10, which Xash3D reads as its own (not GoldSrc's STUDIO_NF_ALPHA)",
                    t.name()
                ),
            });
        }
    }
    out
}
