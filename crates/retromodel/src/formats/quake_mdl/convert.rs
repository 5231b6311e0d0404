//! `raw::File` to the format-neutral [`Model`](crate::model::Model).
//!
//! Positions are `scale * v + translate`; normals come from the 162-entry table; UVs are
//! sampled at texel centres, `((s + 0.5) / skinwidth, (t + 0.5) / skinheight)`, after the
//! on-seam fix-up (`s += skinwidth / 2` for an on-seam vertex of a back-facing triangle).
//! That fix-up splits such vertices: the mesh gets one extra vertex per on-seam vertex used
//! by a back-facing triangle, appended after the file's vertices, and
//! [`Mesh::source_vertices`] maps every mesh vertex back to the file's.

use std::sync::Arc;

use super::raw::{self, File, Frame, PixelFormat, Skin as RawSkin, MF_HOLEY};
use super::validate::interval_problem;
use crate::formats::normals;
use crate::image::{self, Image, Palette, Pixels, QUAKE_FULLBRIGHT_START};
use crate::model::{
    clips_from_frame_names, Clip, Converted, Frame as ModelFrame, Mesh, MorphTarget, Skin,
};
use crate::options::{ConvertOptions, SeamRule};
use crate::resolve::Resolver;

/// Game path of the palette the engine loads.
pub const PALETTE_PATH: &str = "gfx/palette.lmp";

/// Converts a parsed file into a [`Model`](crate::model::Model): every pose and every skin picture decoded.
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    let palette = options
        .palette
        .unwrap_or_else(|| Palette::load_or_quake(resolver, PALETTE_PATH, &mut warnings));
    let palette = Arc::new(palette);
    let h = &file.header;
    let mesh = build_mesh(file, options.seam_rule, &mut warnings);
    let frames = file
        .poses()
        .map(|p| ModelFrame {
            name: raw::name_str(&p.name),
            bounds_min: decode_position(h, p.bboxmin.v),
            bounds_max: decode_position(h, p.bboxmax.v),
        })
        .collect();
    let clips = build_clips(file, options.fps, &mut warnings);
    let transparent = (h.flags & MF_HOLEY != 0).then_some(255u8);
    let skins = file
        .skins
        .iter()
        .enumerate()
        .map(|(i, s)| build_skin(i, s, h, &palette, transparent, &mut warnings))
        .collect::<Vec<_>>();
    Converted::keyframed(mesh, frames, clips, skins, warnings)
}

/// `scale * v + translate` for one packed position.
pub fn decode_position(h: &raw::Header, v: [u8; 3]) -> [f32; 3] {
    [0, 1, 2].map(|k| h.scale[k] * v[k] as f32 + h.translate[k])
}

fn build_mesh(file: &File<'_>, seam_rule: SeamRule, warnings: &mut Vec<String>) -> Mesh {
    let h = &file.header;
    let n = file.texcoords.len();
    let (w, ht) = (h.skinwidth.max(1) as f32, h.skinheight.max(1) as f32);
    // Integer half width as the engines compute it; added in f32 so no `s` can overflow.
    let half = (h.skinwidth / 2) as f32;
    let on_seam = |onseam: i32| match seam_rule {
        SeamRule::NonZero => onseam != 0,
        SeamRule::Bit0x20 => onseam & raw::ALIAS_ONSEAM != 0,
    };
    let uv = |s: f32, t: i32| [(s + 0.5) / w, (t as f32 + 0.5) / ht];

    let mut source_vertices: Vec<u32> = (0..n as u32).collect();
    let mut uvs: Vec<[f32; 2]> = file
        .texcoords
        .iter()
        .map(|tc| uv(tc.s as f32, tc.t))
        .collect();
    // Mesh index of the back-side copy of each file vertex, created on first use.
    let mut back_copy: Vec<Option<u32>> = vec![None; n];
    let mut triangles = Vec::with_capacity(file.triangles.len());
    for t in &file.triangles {
        let corners = t.vertex.map(|v| {
            let v = v as usize;
            let tc = file.texcoords[v];
            if t.facesfront != 0 || !on_seam(tc.onseam) {
                return v as u32;
            }
            *back_copy[v].get_or_insert_with(|| {
                source_vertices.push(v as u32);
                uvs.push(uv(tc.s as f32 + half, tc.t));
                (source_vertices.len() - 1) as u32
            })
        });
        triangles.push(corners);
    }

    // Collected from exact-size iterators (no per-push capacity checks): this loop is most
    // of the conversion time.
    const UP: [f32; 3] = [0.0, 0.0, 1.0];
    let morph_targets: Vec<MorphTarget> = file
        .poses()
        .map(|p| MorphTarget {
            positions: source_vertices
                .iter()
                .map(|&sv| decode_position(h, p.verts[sv as usize].v))
                .collect(),
            normals: source_vertices
                .iter()
                .map(|&sv| normals::normal(p.verts[sv as usize].normal_index).unwrap_or(UP))
                .collect(),
        })
        .collect();
    let bad_normals = file.bad_normal_count();
    if bad_normals > 0 {
        warnings.push(format!(
            "{bad_normals} vertex normals index past the 162-entry table; (0, 0, 1) used"
        ));
    }
    let skin_size = Some([h.skinwidth.max(0) as u32, h.skinheight.max(0) as u32]);
    Mesh::keyframed(uvs, triangles, morph_targets, source_vertices, skin_size)
}

fn build_clips(file: &File<'_>, fps: f32, warnings: &mut Vec<String>) -> Vec<Clip> {
    let mut simple = Vec::new();
    let mut clips = Vec::new();
    let mut index = 0usize;
    for (fi, f) in file.frames.iter().enumerate() {
        match f {
            Frame::Simple(p) => {
                simple.push((index, raw::name_str(&p.name)));
                index += 1;
            }
            Frame::Group {
                intervals, frames, ..
            } => {
                let name = frames
                    .first()
                    .map(|p| raw::name_str(&p.name))
                    .unwrap_or_default();
                let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
                let group_fps = match interval_problem(intervals) {
                    None => 1.0 / intervals[0],
                    Some(problem) => {
                        warnings.push(format!("frame {fi}: group {problem}"));
                        fps
                    }
                };
                clips.push(Clip {
                    name: if stem.is_empty() {
                        format!("group{fi}")
                    } else {
                        stem.to_string()
                    },
                    first: index,
                    count: frames.len(),
                    fps: group_fps,
                    frame_times: Some(intervals.clone()),
                });
                index += frames.len();
            }
        }
    }
    clips.extend(clips_from_frame_names(
        simple.iter().map(|(i, n)| (*i, n.as_str())),
        fps,
    ));
    clips.sort_by_key(|c| c.first);
    clips
}

fn build_skin(
    index: usize,
    skin: &RawSkin<'_>,
    h: &raw::Header,
    palette: &Arc<Palette>,
    transparent: Option<u8>,
    warnings: &mut Vec<String>,
) -> Skin {
    let (width, height) = (h.skinwidth as u32, h.skinheight as u32);
    let indexed = |pixels: &[u8]| Image {
        width,
        height,
        pixels: Pixels::Indexed {
            indices: pixels.to_vec(),
            palette: palette.clone(),
            fullbright_start: Some(QUAKE_FULLBRIGHT_START),
            transparent_index: transparent,
        },
    };
    match skin {
        RawSkin::Single { skin_type, pixels } => {
            let fmt = PixelFormat::from_skin_type(*skin_type).unwrap_or(PixelFormat::Indexed8);
            let rgba = |data: Vec<u8>| Image {
                width,
                height,
                pixels: Pixels::Rgba8(data),
            };
            let picture = match fmt {
                PixelFormat::Indexed8 => indexed(pixels),
                PixelFormat::Rgb565 => rgba(image::rgb565_to_rgba8(pixels)),
                PixelFormat::Argb4444 => rgba(image::argb4444_to_rgba8(pixels)),
                PixelFormat::Bgr888 => rgba(image::bgr_to_rgba8(pixels, 3)),
                PixelFormat::Bgra8888 => rgba(image::bgr_to_rgba8(pixels, 4)),
            };
            if fmt != PixelFormat::Indexed8 {
                warnings.push(format!(
                    "skin {index}: non-Quake skin type {skin_type} ({fmt:?}, written by 3D GameStudio tools)"
                ));
            }
            Skin {
                source: None,
                name: String::new(),
                pictures: vec![picture],
                picture_times: None,
            }
        }
        RawSkin::Group {
            skin_type,
            intervals,
            pictures,
        } => {
            if *skin_type != raw::SKIN_GROUP {
                warnings.push(format!(
                    "skin {index}: type word {skin_type} read as a group, as Quake does"
                ));
            }
            if let Some(problem) = interval_problem(intervals) {
                warnings.push(format!("skin {index}: group {problem}"));
            }
            Skin {
                source: None,
                name: String::new(),
                pictures: pictures.iter().map(|p| indexed(p)).collect(),
                picture_times: Some(intervals.clone()),
            }
        }
    }
}
