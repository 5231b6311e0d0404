//! Any [`Model`] to a GameStudio MDL3, MDL4 or MDL5 [`File`].
//!
//! - One scale and offset for the whole model, spanning every frame. MDL3 frames are
//!   byte-packed (error at most `(max - min) / 510` per axis), MDL4 and MDL5 frames
//!   word-packed (`(max - min) / 131070`), with bone index 0.
//! - One frame vertex per point of the source (same source vertex, same position in every
//!   frame), numbered in source order; one skin vertex per distinct texel pair, in first-use
//!   order. Texels are taken on the first skin's size (or the mesh's `skin_size`, or
//!   256x256), and `floor(u * width)` reads both edge and centre conventions back.
//! - Skins, one per picture (the pictures of an animated group become separate skins):
//!   indexed pictures are written 8-bit (type 0), their indices matched to
//!   [`WriteOptions::palette`] (the Quake palette by default) over all 256 entries, kept as
//!   they are when the palette is the same. RGBA pictures take the smallest type that
//!   holds them exactly: 5-6-5 (type 2) when opaque, 4-4-4-4 (type 3) otherwise; where
//!   neither does, MDL3 writes 5-6-5 (the A4 engine reads only 8-bit and 5-6-5;
//!   transparency dropped), MDL4 5-6-5 or 4-4-4-4 (Assimp reads no other MDL4 type), and
//!   MDL5 8-8-8 (type 4) or 8-8-8-8 (type 5), which are exact.
//!   MDL3 and MDL4 store one skin size: other pictures are resampled to the first's. No
//!   mipmaps are written. A model without pictures gets no skin.
//! - Per-frame timing of clips (Quake frame groups) has no place in the format: the frames
//!   are written as simple frames, with a warning.
//! - MDL2 (Quake's layout under a GameStudio header) is read but not written.

use std::borrow::Cow;
use std::collections::HashMap;

use super::format_name;
use super::raw::*;
use crate::error::Result;
use crate::error::{Error, ErrorKind, Location};
use crate::formats::normals;
use crate::formats::shared::from_model::{self, Quantizer};
use crate::image::{Image, Palette, Pixels};
use crate::model::Model;
use crate::options::{WriteOptions, Written};

/// Largest vertex or skin vertex count a triangle's 16-bit index reaches.
const MAX_INDEXED: usize = 65536;

/// Builds a GameStudio MDL file of `version` 3, 4 or 5 from a model.
///
/// Fails on another version, an invalid model (see [`Model::validate`]), a model with more
/// than 65536 frame vertices or skin vertices (triangles index them with 16 bits), or a skin
/// larger than [`crate::limits::Limits::default`] allows.
pub fn from_model(
    model: &Model,
    options: &WriteOptions,
    version: u8,
) -> Result<Written<File<'static>>> {
    if !(3..=5).contains(&version) {
        return Err(Error::new(
            super::FORMAT,
            ErrorKind::InvalidValue,
            format!("cannot write MDL{version}: the writer makes MDL3, MDL4 and MDL5"),
            Location::None,
        ));
    }
    let fmt = format_name(version);
    let mut warnings = Vec::new();
    let flat = from_model::flatten(model, fmt, &mut warnings)?;
    let (skins, [w, h]) = build_skins(model, &flat, options, version, &mut warnings)?;
    from_model::zero_skin_warning([w, h], &mut warnings);

    // Frame vertices: the first flat vertex of each group, groups in source order.
    let rep = flat.representatives();
    let too_many = |what: &str, n: usize| {
        Error::new(
            fmt,
            ErrorKind::LimitExceeded,
            format!("{n} {what} exceed the {MAX_INDEXED} that 16-bit triangle indices reach"),
            Location::None,
        )
    };
    if rep.len() > MAX_INDEXED {
        return Err(too_many("vertices", rep.len()));
    }
    let mut clamped = 0usize;
    let mut texel = |v: usize| -> (i16, i16) {
        let uv = flat.uvs[v];
        let t = [from_model::texel(uv[0], w), from_model::texel(uv[1], h)];
        let c = t.map(|x| x.clamp(i16::MIN as i32, i16::MAX as i32));
        if c != t {
            clamped += 1;
        }
        (c[0] as i16, c[1] as i16)
    };
    let mut uv_index: HashMap<(i16, i16), u16> = HashMap::new();
    let mut skin_verts = Vec::new();
    let mut triangles = Vec::with_capacity(flat.triangles.len());
    for t in &flat.triangles {
        let mut tri = Triangle::default();
        // Back to GameStudio's counter-clockwise fronts (see `convert`).
        for (k, &v) in [t[0], t[2], t[1]].iter().enumerate() {
            let v = v as usize;
            tri.vertex[k] = flat.groups[v] as u16;
            let key = texel(v);
            let next = skin_verts.len();
            let i = *uv_index.entry(key).or_insert_with(|| {
                skin_verts.push(SkinVert { u: key.0, v: key.1 });
                next as u16
            });
            tri.uv[k] = i;
        }
        triangles.push(tri);
    }
    if skin_verts.len() > MAX_INDEXED {
        return Err(too_many("skin vertices", skin_verts.len()));
    }
    if clamped > 0 {
        warnings.push(format!(
            "{clamped} texture coordinates clamped to the 16-bit range of skin vertices"
        ));
    }

    let [lo, hi] = from_model::bounds(flat.positions.iter().flatten());
    let packing = if version == 3 {
        Packing::Byte
    } else {
        Packing::Word
    };
    let q = match packing {
        Packing::Byte => {
            let q = Quantizer::new(lo, hi);
            Pack {
                scale: q.scale,
                offset: q.translate,
                steps: 255.0,
            }
        }
        Packing::Word => Pack {
            scale: std::array::from_fn(|k| (hi[k] - lo[k]) / 65535.0),
            offset: lo,
            steps: 65535.0,
        },
    };
    let radius = flat.radius();

    let mut frame_errors = Vec::with_capacity(flat.positions.len());
    let mut frames = Vec::with_capacity(flat.positions.len());
    for (fi, (pos, nrm)) in flat.positions.iter().zip(&flat.normals).enumerate() {
        let mut err = 0f32;
        let verts: Vec<Vertex> = rep
            .iter()
            .map(|&v| {
                let p = pos[v as usize];
                let packed = q.pack(p);
                err = err.max(q.error(p, packed));
                Vertex {
                    v: packed,
                    normal_index: normals::nearest_index(nrm[v as usize]),
                    bone: 0,
                }
            })
            .collect();
        frame_errors.push(err);
        let bbox = |pick: fn(u16, u16) -> u16| Vertex {
            v: std::array::from_fn(|k| verts.iter().map(|x| x.v[k]).reduce(pick).unwrap_or(0)),
            normal_index: 0,
            bone: 0,
        };
        frames.push(Frame {
            packing,
            bboxmin: bbox(u16::min),
            bboxmax: bbox(u16::max),
            name: from_model::frame_name(fi, &flat.frame_names[fi], &mut warnings),
            verts,
        });
    }
    warnings.extend(from_model::error_warning(&frame_errors, &flat.frame_names));
    for c in model.clips.iter().filter(|c| c.frame_times.is_some()) {
        warnings.push(format!(
            "clip {:?}: per-frame times dropped (GameStudio MDL has no frame groups)",
            c.name
        ));
    }

    // MDL5 files store each skin's size; their header says 0x0 unless there is no skin.
    let (skin_width, skin_height) = if version == 5 && !skins.is_empty() {
        (0, 0)
    } else {
        (w as i32, h as i32)
    };
    let file = File {
        header: Header {
            version,
            version_field: 0,
            scale: q.scale,
            offset: q.offset,
            radius,
            eye: [0.0; 3],
            num_skins: skins.len() as i32,
            skin_width,
            skin_height,
            num_verts: rep.len() as i32,
            num_tris: triangles.len() as i32,
            num_frames: frames.len() as i32,
            num_skin_verts: skin_verts.len() as i32,
            flags: 0,
            num_bones: 0,
        },
        skins,
        geometry: Geometry::Separate {
            skin_verts,
            triangles,
        },
        frames,
        trailing: Cow::Borrowed(&[]),
    };
    Ok(Written {
        file,
        warnings,
        frame_errors,
    })
}

/// Quantisation of positions to `0..=steps` per axis: `v = round((p - offset) / scale)`.
struct Pack {
    scale: [f32; 3],
    offset: [f32; 3],
    steps: f32,
}

impl Pack {
    fn pack(&self, p: [f32; 3]) -> [u16; 3] {
        std::array::from_fn(|k| {
            if self.scale[k] > 0.0 {
                ((p[k] - self.offset[k]) / self.scale[k])
                    .round()
                    .clamp(0.0, self.steps) as u16
            } else {
                0
            }
        })
    }

    /// Largest per-axis distance between `p` and the position `v` decodes to.
    fn error(&self, p: [f32; 3], v: [u16; 3]) -> f32 {
        (0..3)
            .map(|k| (self.scale[k] * v[k] as f32 + self.offset[k] - p[k]).abs())
            .fold(0.0, f32::max)
    }
}

/// Skins of the model, one per picture, and the texel size of the skin vertices.
fn build_skins(
    model: &Model,
    flat: &from_model::Flat,
    options: &WriteOptions,
    version: u8,
    warnings: &mut Vec<String>,
) -> Result<(Vec<Skin<'static>>, [u32; 2])> {
    let first = model.skins.iter().flat_map(|s| &s.pictures).next();
    let size = from_model::skin_size(first, flat, warnings);
    let max_side = crate::limits::Limits::default().max_image_dimension;
    let too_big = model
        .skins
        .iter()
        .flat_map(|s| &s.pictures)
        .map(|p| [p.width, p.height])
        .chain([size])
        .find(|s| s[0] > max_side || s[1] > max_side);
    if let Some([a, b]) = too_big {
        return Err(Error::new(
            format_name(version),
            ErrorKind::LimitExceeded,
            format!("skin size {a}x{b} exceeds the limit of {max_side} pixels a side"),
            Location::None,
        ));
    }
    let palette = options.palette.unwrap_or(Palette::QUAKE);
    let mut skins = Vec::new();
    for (i, s) in model.skins.iter().enumerate() {
        if s.pictures.len() > 1 {
            warnings.push(format!(
                "skin {i} ({:?}): group of {} pictures written as {} skins",
                s.name,
                s.pictures.len(),
                s.pictures.len()
            ));
        }
        if s.pictures.is_empty() {
            warnings.push(format!("skin {i} ({:?}) has no picture; left out", s.name));
        }
        for p in &s.pictures {
            let resized;
            let p = if version != 5 && [p.width, p.height] != size {
                warnings.push(format!(
                    "skin {i}: {}x{} picture resampled to {}x{}",
                    p.width, p.height, size[0], size[1]
                ));
                resized = p.resized(size[0], size[1]);
                &resized
            } else {
                p
            };
            skins.push(encode_picture(i, p, &palette, version, warnings));
        }
    }
    Ok((skins, size))
}

/// One picture as a skin of the best type `version` offers (see the module notes).
fn encode_picture(
    index: usize,
    p: &Image,
    palette: &Palette,
    version: u8,
    warnings: &mut Vec<String>,
) -> Skin<'static> {
    let skin = |format: SkinFormat, data: Vec<u8>| Skin {
        skin_type: format.type_word(),
        width: p.width as i32,
        height: p.height as i32,
        data: Cow::Owned(data),
        mipmaps: Cow::Borrowed(&[]),
    };
    let rgba = match &p.pixels {
        Pixels::Indexed { .. } => return skin(SkinFormat::Indexed8, p.to_indexed(palette, 255)),
        Pixels::Rgba8(rgba) => rgba,
    };
    let opaque = rgba.chunks_exact(4).all(|c| c[3] == 255);
    // The 16-bit encodings, and whether they give the picture back exactly.
    let rgb565 = || -> (Vec<u8>, bool) {
        let data: Vec<u8> = rgba
            .chunks_exact(4)
            .flat_map(|c| {
                let n = |x: u8, max: u32| (x as u32 * max + 127) / 255;
                let v = n(c[0], 31) << 11 | n(c[1], 63) << 5 | n(c[2], 31);
                (v as u16).to_le_bytes()
            })
            .collect();
        let back = crate::image::rgb565_to_rgba8(&data);
        let exact = opaque && back == *rgba;
        (data, exact)
    };
    let argb4444 = || -> (Vec<u8>, bool) {
        let data: Vec<u8> = rgba
            .chunks_exact(4)
            .flat_map(|c| {
                let n = |x: u8| (x as u16 + 8) / 17;
                let v = n(c[3]) << 12 | n(c[0]) << 8 | n(c[1]) << 4 | n(c[2]);
                v.to_le_bytes()
            })
            .collect();
        let exact = crate::image::argb4444_to_rgba8(&data) == *rgba;
        (data, exact)
    };
    let lossy = |format: SkinFormat, warnings: &mut Vec<String>| {
        warnings.push(format!(
            "skin {index}: RGBA picture stored as {} (colour precision reduced)",
            format.describe()
        ));
    };
    if opaque {
        let (data, exact) = rgb565();
        if exact || version < 5 {
            if !exact {
                lossy(SkinFormat::Rgb565, warnings);
            }
            return skin(SkinFormat::Rgb565, data);
        }
        return skin(
            SkinFormat::Bgr888,
            rgba.chunks_exact(4)
                .flat_map(|c| [c[2], c[1], c[0]])
                .collect(),
        );
    }
    if version == 3 {
        warnings.push(format!(
            "skin {index}: transparency dropped (MDL3 skins are 8-bit or 5-6-5)"
        ));
        let (data, exact) = rgb565();
        let rgb_exact = exact
            || crate::image::rgb565_to_rgba8(&data)
                .chunks_exact(4)
                .zip(rgba.chunks_exact(4))
                .all(|(a, b)| a[..3] == b[..3]);
        if !rgb_exact {
            lossy(SkinFormat::Rgb565, warnings);
        }
        return skin(SkinFormat::Rgb565, data);
    }
    let (data, exact) = argb4444();
    if exact || version == 4 {
        if !exact {
            lossy(SkinFormat::Argb4444, warnings);
        }
        return skin(SkinFormat::Argb4444, data);
    }
    skin(
        SkinFormat::Bgra8888,
        rgba.chunks_exact(4)
            .flat_map(|c| [c[2], c[1], c[0], c[3]])
            .collect(),
    )
}
