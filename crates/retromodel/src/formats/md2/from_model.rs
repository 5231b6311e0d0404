//! Any [`Model`] to an MD2 [`File`].
//!
//! - One vertex per group of mesh vertices that are one point (see `from_model::Flat`), so a
//!   Quake MDL's seam copies merge back into one vertex.
//! - Per frame, scale and translate span that frame's bounds: the quantisation error is at
//!   most half a step, `(max - min) / 510` per axis.
//! - Texture coordinates are the texels holding each UV, deduplicated.
//! - Normals are the nearest of the 162 table normals.
//! - GL commands are generated ([`super::glcmds::generate`]) so GL renderers draw the model.
//! - Skin paths are [`WriteOptions::skin_paths`] when given, else the model's skin names.

use std::collections::HashMap;

use super::glcmds;
use super::raw::*;
use super::validate::{MAX_FRAMES, MAX_SKINS, MAX_SKIN_HEIGHT, MAX_TRIANGLES, MAX_VERTS};
use super::FORMAT;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::formats::shared::from_model::{self, Quantizer};
use crate::model::Model;
use crate::options::{WriteOptions, Written};

/// Builds an MD2 file from a model. Fails on an invalid model, or on more vertices or
/// texture coordinates than 16-bit indices reach; engine limits are warnings unless
/// `options.strict`.
pub fn from_model(model: &Model, options: &WriteOptions) -> Result<Written<File<'static>>> {
    let mut warnings = Vec::new();
    let flat = from_model::flatten(model, FORMAT, &mut warnings)?;
    let [w, h] = skin_size(model, &flat, &mut warnings);
    from_model::check_skin_size(FORMAT, [w, h])?;
    from_model::zero_skin_warning([w, h], &mut warnings);

    // Vertices: one per group, represented by its first mesh vertex.
    let rep = flat.representatives();
    let too_many = |what: &str, n: usize| {
        Error::new(
            FORMAT,
            ErrorKind::LimitExceeded,
            format!("{n} {what} do not fit MD2's 16-bit indices (at most 32767)"),
            Location::None,
        )
    };
    if rep.len() > i16::MAX as usize {
        return Err(too_many("vertices", rep.len()));
    }
    let mut st_index: HashMap<TexCoord, i16> = HashMap::new();
    let mut texcoords = Vec::new();
    let mut clamped = 0usize;
    let mut st_of = |uv: [f32; 2]| -> Option<i16> {
        let (s, t) = (from_model::texel(uv[0], w), from_model::texel(uv[1], h));
        let mut fit = |x: i32| {
            let c = x.clamp(i16::MIN as i32, i16::MAX as i32);
            if c != x {
                clamped += 1;
            }
            c as i16
        };
        let tc = TexCoord {
            s: fit(s),
            t: fit(t),
        };
        if let Some(&i) = st_index.get(&tc) {
            return Some(i);
        }
        let i = i16::try_from(texcoords.len()).ok()?;
        texcoords.push(tc);
        st_index.insert(tc, i);
        Some(i)
    };
    let mut triangles = Vec::with_capacity(flat.triangles.len());
    for t in &flat.triangles {
        let mut tri = Triangle::default();
        for (k, &v) in t.iter().enumerate() {
            let v = v as usize;
            tri.index_xyz[k] = flat.groups[v] as i16;
            tri.index_st[k] =
                st_of(flat.uvs[v]).ok_or_else(|| too_many("texture coordinates", 32768))?;
        }
        triangles.push(tri);
    }
    if clamped > 0 {
        warnings.push(format!("{clamped} texture coordinates clamped to 16 bits"));
    }

    let mut frame_errors = Vec::with_capacity(flat.positions.len());
    let mut frames = Vec::with_capacity(flat.positions.len());
    for (fi, (pos, nrm)) in flat.positions.iter().zip(&flat.normals).enumerate() {
        let [lo, hi] = from_model::bounds(rep.iter().map(|&v| &pos[v as usize]));
        let q = Quantizer::new(lo, hi);
        let (verts, err) = from_model::pack_pose(&q, pos, nrm, &rep);
        frame_errors.push(err);
        frames.push(Frame {
            scale: q.scale,
            translate: q.translate,
            name: from_model::frame_name(fi, &flat.frame_names[fi], &mut warnings),
            verts,
            padding: Default::default(),
        });
    }
    warnings.extend(from_model::error_warning(&frame_errors, &flat.frame_names));

    for c in model.clips.iter().filter(|c| c.frame_times.is_some()) {
        warnings.push(format!(
            "clip {:?}: its per-frame timing (a frame group) is not kept: MD2 frames play at 10 Hz",
            c.name
        ));
    }
    let skins = skin_names(model, options, &mut warnings);
    from_model::check_limits(
        FORMAT,
        options.strict,
        "Quake 2",
        &[
            ("vertices", rep.len(), MAX_VERTS),
            ("triangles", triangles.len(), MAX_TRIANGLES),
            ("frames", frames.len(), MAX_FRAMES),
            ("skins", skins.len(), MAX_SKINS),
            (
                "texels of skin height",
                h as usize,
                MAX_SKIN_HEIGHT as usize,
            ),
        ],
        &mut warnings,
    )?;

    let commands = glcmds::generate(&triangles, &texcoords, w as i32, h as i32);
    let mut file = File {
        header: Header {
            version: VERSION,
            skinwidth: w as i32,
            skinheight: h as i32,
            ..Header::default()
        },
        skins,
        texcoords,
        triangles,
        frames,
        glcmds: GlCommands {
            layout: GlLayout::Standard,
            commands,
            terminated: true,
            extra: Vec::new(),
        },
        gaps: Vec::new(),
    };
    file.relayout();
    Ok(Written {
        file,
        warnings,
        frame_errors,
    })
}

/// The skin size: the skin's first picture, else the size the UVs were made for, else 256.
fn skin_size(model: &Model, flat: &from_model::Flat, warnings: &mut Vec<String>) -> [u32; 2] {
    let picture = flat
        .skin
        .and_then(|s| model.skins.get(s))
        .and_then(|s| s.pictures.first());
    from_model::skin_size(picture, flat, warnings)
}

fn skin_names(
    model: &Model,
    options: &WriteOptions,
    warnings: &mut Vec<String>,
) -> Vec<[u8; SKIN_NAME_SIZE]> {
    let names: Vec<String> = if options.skin_paths.is_empty() {
        model.skins.iter().map(|s| s.name.clone()).collect()
    } else {
        options.skin_paths.clone()
    };
    names
        .into_iter()
        .enumerate()
        .map(|(i, name)| {
            if name.is_empty() {
                warnings.push(format!("skin {i} has no path (give one with --skin-path)"));
            }
            let (field, cut) = name_field::<SKIN_NAME_SIZE>(&name);
            if cut {
                warnings.push(format!("skin {i}: path {name:?} cut to 63 bytes"));
            }
            field
        })
        .collect()
}
