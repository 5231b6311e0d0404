//! Any [`Model`] to a Quake MDL [`File`].
//!
//! - One scale and translate for the whole model, spanning every frame: the quantisation
//!   error is at most half a step, `(max - min) / 510` per axis.
//! - MDL has one texture coordinate per vertex. A point of the source whose copies differ
//!   only by `s + skinwidth / 2` becomes one on-seam vertex (`onseam = 0x20`) and the
//!   triangles using the shifted copy are written back-facing (`facesfront = 0`), which is
//!   how Quake's seam works; any other point with several texture coordinates is written as
//!   several vertices.
//! - Skins are converted to the palette (`WriteOptions::palette`, the Quake palette by
//!   default) without the fullbright indices 224..=255 unless `WriteOptions::fullbrights`,
//!   Floyd–Steinberg dithered with `WriteOptions::dither`; pictures of another size are
//!   resampled to the first one's; a model without skin pictures gets one blank skin of
//!   the palette's colour nearest [`crate::image::UNTEXTURED`], the renderer's neutral grey
//!   (Quake refuses a model without skins; index 0 would be black).
//! - Pixels with alpha below 128 (or an indexed picture's transparent index) become index 255
//!   and the header gets `MF_HOLEY`; no converted opaque pixel then uses index 255. Other flags,
//!   synctype and eye position come from [`crate::model::Model::mdl_extras`] (a model read
//!   from an MDL, or a re-release MD5 shown in an MDL's place), else 0.
//! - A skin width that is not a multiple of 4 (software Quake refuses it, GL engines assume
//!   it) is padded on the right by repeating the last column; texture coordinates are taken
//!   on the unpadded width, so every vertex keeps its texel.
//! - Clips with per-frame timing (from Quake frame groups) are written as frame groups.

use std::collections::HashMap;

use super::engine::Engine;
use super::raw::*;
use super::FORMAT;
use crate::error::Result;
use crate::formats::shared::from_model::{self, Flat, Quantizer};
use crate::image::{Image, IndexOptions, Palette, Pixels, QUAKE_FULLBRIGHT_START};
use crate::model::Model;
use crate::options::{WriteOptions, Written};

/// The palette index Quake draws as a hole in `MF_HOLEY` models.
const HOLE_INDEX: u8 = 255;

/// Builds a Quake MDL file from a model. Fails only on an invalid model, or with
/// `options.strict` on a model past QuakeSpasm's limits.
pub fn from_model(model: &Model, options: &WriteOptions) -> Result<Written<File<'static>>> {
    let mut warnings = Vec::new();
    let flat = from_model::flatten(model, FORMAT, &mut warnings)?;
    let palette = options.palette.unwrap_or(Palette::QUAKE);
    let BuiltSkins {
        skins,
        size: [w, h],
        uv_width,
        holey,
    } = build_skins(model, &flat, &palette, options, &mut warnings)?;
    from_model::zero_skin_warning([w, h], &mut warnings);
    let layout = seam_layout(&flat, uv_width, w, h);

    let all = flat.positions.iter().flatten();
    let [lo, hi] = from_model::bounds(all);
    let q = Quantizer::new(lo, hi);
    let radius = flat.radius();

    let mut frame_errors = Vec::with_capacity(flat.positions.len());
    let mut poses = Vec::with_capacity(flat.positions.len());
    for (fi, (pos, nrm)) in flat.positions.iter().zip(&flat.normals).enumerate() {
        let (verts, err) = from_model::pack_pose(&q, pos, nrm, &layout.rep);
        frame_errors.push(err);
        let bbox = |pick: fn(u8, u8) -> u8| Vertex {
            v: std::array::from_fn(|k| verts.iter().map(|x| x.v[k]).reduce(pick).unwrap_or(0)),
            normal_index: 0,
        };
        poses.push(SimpleFrame {
            bboxmin: bbox(u8::min),
            bboxmax: bbox(u8::max),
            name: from_model::frame_name(fi, &flat.frame_names[fi], &mut warnings),
            verts,
            low: Vec::new(),
        });
    }
    warnings.extend(from_model::error_warning(&frame_errors, &flat.frame_names));
    let frames = group_frames(model, poses);

    let limits = Engine::QuakeSpasm.limits();
    let unlimited = usize::MAX;
    from_model::check_limits(
        FORMAT,
        options.strict,
        "QuakeSpasm",
        &[
            (
                "vertices",
                layout.texcoords.len(),
                limits.max_verts as usize,
            ),
            (
                "triangles",
                layout.triangles.len(),
                limits.max_tris.map_or(unlimited, |m| m as usize),
            ),
            (
                "poses",
                flat.positions.len(),
                limits.max_poses.unwrap_or(unlimited),
            ),
            (
                "skins",
                skins.len(),
                limits.max_skins.map_or(unlimited, |m| m as usize),
            ),
            (
                "texels of skin height",
                h as usize,
                limits.max_skin_height.0 as usize,
            ),
        ],
        &mut warnings,
    )?;

    let first = &flat.positions[0];
    let size = if layout.triangles.is_empty() {
        0.0
    } else {
        layout
            .triangles
            .iter()
            .map(|t| {
                let [a, b, c] = t.vertex.map(|v| first[layout.rep[v as usize] as usize]);
                let u: [f32; 3] = std::array::from_fn(|k| b[k] - a[k]);
                let v: [f32; 3] = std::array::from_fn(|k| c[k] - a[k]);
                let x = [
                    u[1] * v[2] - u[2] * v[1],
                    u[2] * v[0] - u[0] * v[2],
                    u[0] * v[1] - u[1] * v[0],
                ];
                0.5 * (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]).sqrt()
            })
            .sum::<f32>()
            / layout.triangles.len() as f32
    };
    // Flags, synctype and eye position of an MDL the model came from (else 0).
    let extras = model.mdl_extras.unwrap_or_default();
    let file = File {
        header: Header {
            version: VERSION,
            scale: q.scale,
            translate: q.translate,
            boundingradius: radius,
            eyeposition: extras.eye_position,
            num_skins: skins.len() as i32,
            skinwidth: w as i32,
            skinheight: h as i32,
            num_verts: layout.texcoords.len() as i32,
            num_tris: layout.triangles.len() as i32,
            num_frames: frames.len() as i32,
            synctype: extras.synctype,
            flags: (extras.flags & !MF_HOLEY) | if holey { MF_HOLEY } else { 0 },
            size,
        },
        skins,
        texcoords: layout.texcoords,
        triangles: layout.triangles,
        frames,
        trailing: Default::default(),
    };
    Ok(Written {
        file,
        warnings,
        frame_errors,
    })
}

/// MDL vertices, texture coordinates and triangles of a flat mesh.
struct SeamLayout {
    /// Per MDL vertex, the flat vertex whose position and normal it takes.
    rep: Vec<u32>,
    texcoords: Vec<TexCoord>,
    triangles: Vec<Triangle>,
}

/// Lays out MDL vertices: one per (group, texel), merged into one on-seam vertex where a
/// group has exactly a front texel and its `+ skinwidth / 2` copy and every triangle using
/// the copy can be back-facing.
///
/// Texels are taken on a skin `uv_width` wide (the picture's own width, so a skin padded on
/// the right keeps every texel); the seam shift is half the written width `w`, as the
/// engines shift by `skinwidth / 2`.
fn seam_layout(flat: &Flat, uv_width: u32, w: u32, h: u32) -> SeamLayout {
    let half = (w / 2) as i64;
    let texel = |v: usize| {
        let uv = flat.uvs[v];
        [
            from_model::texel(uv[0], uv_width),
            from_model::texel(uv[1], h),
        ]
    };
    // Distinct texels of each group, in first-use order.
    let mut variants: Vec<Vec<[i32; 2]>> = vec![Vec::new(); flat.group_count];
    let corner_texel: Vec<[i32; 2]> = (0..flat.uvs.len()).map(texel).collect();
    for (v, &g) in flat.groups.iter().enumerate() {
        let t = corner_texel[v];
        let list = &mut variants[g as usize];
        if !list.contains(&t) {
            list.push(t);
        }
    }
    // A seam group: two texels, same t, the second (or first) shifted by half the width.
    // `seam_base[g]` is the front texel.
    let mut seam_base: Vec<Option<[i32; 2]>> = variants
        .iter()
        .map(|l| match l.as_slice() {
            [a, b] if a[1] == b[1] && b[0] as i64 == a[0] as i64 + half && half > 0 => Some(*a),
            [a, b] if a[1] == b[1] && a[0] as i64 == b[0] as i64 + half && half > 0 => Some(*b),
            _ => None,
        })
        .collect();
    // A triangle is back-facing when a corner uses a seam group's shifted texel; then every
    // seam corner of it must be shifted. Demote groups that break this until none do.
    let is_back_corner = |seam: &[Option<[i32; 2]>], v: usize| matches!(seam[flat.groups[v] as usize], Some(b) if b != corner_texel[v]);
    loop {
        let mut demoted = false;
        for t in &flat.triangles {
            let back = t.iter().any(|&v| is_back_corner(&seam_base, v as usize));
            if !back {
                continue;
            }
            for &v in t {
                let g = flat.groups[v as usize] as usize;
                if seam_base[g].is_some() && !is_back_corner(&seam_base, v as usize) {
                    seam_base[g] = None;
                    demoted = true;
                }
            }
        }
        if !demoted {
            break;
        }
    }
    let mut index: HashMap<(u32, [i32; 2]), i32> = HashMap::new();
    let mut rep = Vec::new();
    let mut texcoords = Vec::new();
    let mut vertex_of = |v: usize| -> i32 {
        let g = flat.groups[v];
        let (key_texel, onseam) = match seam_base[g as usize] {
            Some(base) => (base, ALIAS_ONSEAM),
            None => (corner_texel[v], 0),
        };
        *index.entry((g, key_texel)).or_insert_with(|| {
            rep.push(v as u32);
            texcoords.push(TexCoord {
                onseam,
                s: key_texel[0],
                t: key_texel[1],
            });
            texcoords.len() as i32 - 1
        })
    };
    // Vertices in group order first, so the source's vertex numbering is kept.
    let mut by_group: Vec<usize> = (0..flat.uvs.len()).collect();
    by_group.sort_by_key(|&v| (flat.groups[v], v));
    for v in by_group {
        vertex_of(v);
    }
    let triangles = flat
        .triangles
        .iter()
        .map(|t| {
            let back = t.iter().any(|&v| is_back_corner(&seam_base, v as usize));
            Triangle {
                facesfront: i32::from(!back),
                vertex: t.map(|v| vertex_of(v as usize)),
            }
        })
        .collect();
    SeamLayout {
        rep,
        texcoords,
        triangles,
    }
}

/// The skins of an MDL and what the header needs to know about them.
struct BuiltSkins {
    /// The skins, 8-bit, all of `size`.
    skins: Vec<Skin<'static>>,
    /// Skin width and height as written (the width a multiple of 4).
    size: [u32; 2],
    /// The width the model's UVs are measured against: the pictures' width before padding.
    uv_width: u32,
    /// Some skin has transparent pixels (index 255): `MF_HOLEY`.
    holey: bool,
}

/// Whether a picture has pixels that should be holes ([`Image::has_transparency`]).
fn has_holes(p: &Image) -> bool {
    p.has_transparency()
}

/// Rows of `width` indices padded to `padded` by repeating each row's last index.
fn pad_rows(indices: Vec<u8>, width: u32, padded: u32) -> Vec<u8> {
    if padded == width || width == 0 {
        return indices;
    }
    let (w, p) = (width as usize, padded as usize);
    let mut out = Vec::with_capacity(indices.len() / w * p);
    for row in indices.chunks_exact(w) {
        out.extend_from_slice(row);
        let last = row[w - 1];
        out.resize(out.len() + (p - w), last);
    }
    out
}

/// Skins as 8-bit pictures of one size.
///
/// The size is the first picture's (or the mesh's skin size, or 256 x 256); other pictures
/// are resampled to it. Colours are matched to `palette` among indices `0..=223` (`0..=255`
/// with `options.fullbrights`), dithered with `options.dither`. When any picture has holes
/// (alpha below 128, or an indexed picture's transparent index), those pixels get index 255,
/// no opaque pixel does, and the model is `MF_HOLEY`. A width that is not a multiple of 4 is
/// padded on the right (last column repeated), which keeps every texel where it was.
fn build_skins(
    model: &Model,
    flat: &Flat,
    palette: &Palette,
    options: &WriteOptions,
    warnings: &mut Vec<String>,
) -> Result<BuiltSkins> {
    let first = model.skins.iter().flat_map(|s| &s.pictures).next();
    let size = from_model::skin_size(first, flat, warnings);
    from_model::check_skin_size(FORMAT, size)?;
    let padded = size[0].div_ceil(4) * 4;
    if padded != size[0] {
        warnings.push(format!(
            "skin width {} is not a multiple of 4: padded to {padded}",
            size[0]
        ));
    }
    let holey = model.skins.iter().flat_map(|s| &s.pictures).any(has_holes);
    let index_options = IndexOptions {
        last: if options.fullbrights {
            255
        } else {
            QUAKE_FULLBRIGHT_START - 1
        },
        dither: options.dither,
        transparent: holey.then_some(HOLE_INDEX),
    };
    // Pictures already in the palette keep their indices, holes included; only pictures whose
    // holes were mapped are worth a warning.
    let kept =
        |p: &Image| matches!(&p.pixels, Pixels::Indexed { palette: own, .. } if **own == *palette);
    let convert = |i: usize, p: &Image, warnings: &mut Vec<String>| -> (Vec<u8>, bool) {
        let p = if [p.width, p.height] != size {
            warnings.push(format!(
                "skin {i}: {}x{} picture resampled to {}x{}",
                p.width, p.height, size[0], size[1]
            ));
            p.resized(size[0], size[1])
        } else {
            p.clone()
        };
        let r = p.to_indexed_with(palette, &index_options);
        let mapped_holes = r.has_transparent && !kept(&p);
        (pad_rows(r.indices, size[0], padded), mapped_holes)
    };
    let mut skins: Vec<Skin<'static>> = Vec::new();
    for (i, s) in model.skins.iter().enumerate() {
        let mut mapped_holes = false;
        let pictures: Vec<Vec<u8>> = s
            .pictures
            .iter()
            .map(|p| {
                let (indices, mapped) = convert(i, p, warnings);
                mapped_holes |= mapped;
                indices
            })
            .collect();
        if mapped_holes {
            warnings.push(format!(
                "skin {i}: transparent pixels mapped to index {HOLE_INDEX}; MF_HOLEY set"
            ));
        }
        match (pictures.len(), &s.picture_times) {
            (0, _) => warnings.push(format!("skin {i} ({:?}) has no picture; left out", s.name)),
            (1, _) => skins.push(Skin::Single {
                skin_type: 0,
                pixels: pictures.into_iter().next().unwrap_or_default().into(),
            }),
            (n, times) => skins.push(Skin::Group {
                skin_type: SKIN_GROUP,
                intervals: times
                    .clone()
                    .filter(|t| t.len() == n)
                    .unwrap_or_else(|| (1..=n).map(|k| k as f32 * 0.1).collect()),
                pictures: pictures.into_iter().map(Into::into).collect(),
            }),
        }
    }
    if skins.is_empty() {
        // Neutral grey, as the renderer draws a mesh without a picture (index 0 is black).
        let [r, g, b, _] = crate::image::UNTEXTURED;
        let grey = palette.nearest([r, g, b], index_options.last);
        warnings.push(format!(
            "no skin picture; wrote a blank {padded}x{} skin of neutral grey (index {grey}; \
             Quake needs one)",
            size[1]
        ));
        skins.push(Skin::Single {
            skin_type: 0,
            pixels: vec![grey; padded as usize * size[1] as usize].into(),
        });
    }
    Ok(BuiltSkins {
        skins,
        size: [padded, size[1]],
        uv_width: size[0],
        holey,
    })
}

/// Simple frames, with the frames of each clip that has per-frame timing as one group.
fn group_frames(model: &Model, poses: Vec<SimpleFrame>) -> Vec<Frame> {
    let timed: Vec<_> = model
        .clips
        .iter()
        .filter(|c| c.frame_times.as_ref().is_some_and(|t| t.len() == c.count))
        .collect();
    let mut out = Vec::new();
    let mut poses = poses.into_iter().enumerate().peekable();
    while let Some((i, p)) = poses.next() {
        let Some(clip) = timed.iter().find(|c| c.first == i) else {
            out.push(Frame::Simple(p));
            continue;
        };
        let mut frames = vec![p];
        while frames.len() < clip.count {
            match poses.next() {
                Some((_, p)) => frames.push(p),
                None => break,
            }
        }
        let bbox = |pick: fn(u8, u8) -> u8, f: fn(&SimpleFrame) -> Vertex| Vertex {
            v: std::array::from_fn(|k| frames.iter().map(|p| f(p).v[k]).reduce(pick).unwrap_or(0)),
            normal_index: 0,
        };
        out.push(Frame::Group {
            frame_type: 1,
            bboxmin: bbox(u8::min, |p| p.bboxmin),
            bboxmax: bbox(u8::max, |p| p.bboxmax),
            intervals: clip
                .frame_times
                .iter()
                .flatten()
                .copied()
                .take(frames.len())
                .collect(),
            frames,
        });
    }
    out
}
