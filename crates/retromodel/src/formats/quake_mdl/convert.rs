//! `raw::File` and its variants to the format-neutral [`Model`](crate::model::Model).
//!
//! Positions are `scale * v + translate` (`MD16`: `scale * (v + low / 256) + translate`, the
//! 8.8 fixed point of QuakeForge's loader); normals come from the 162-entry table (`MD16`: the
//! high block's index); UVs are sampled at texel centres, `((s + 0.5) / skinwidth,
//! (t + 0.5) / skinheight)`, after the on-seam fix-up (`s += skinwidth / 2` for an on-seam
//! texture coordinate used by a back-facing triangle).
//!
//! - Quake, QTest and `MD16` have one texture coordinate per vertex. The fix-up splits such
//!   vertices: the mesh gets one extra vertex per on-seam vertex used by a back-facing
//!   triangle, appended after the file's vertices.
//! - Hexen II's triangles index vertices and texture coordinates separately: the mesh has one
//!   vertex per distinct (vertex, texture coordinate, back-side seam) corner, in the order of
//!   first use; vertices no triangle uses are left out.
//!
//! [`Mesh::source_vertices`] maps every mesh vertex back to the file's. QTest poses have no
//! names (frames are named `""`, and the clip of simple frames `frame`).

use std::collections::HashMap;
use std::sync::Arc;

use super::raw::{
    self, bad_normal_count, poses, Frame, HeaderLayout, Hexen2Triangle, Layout, MdlFile,
    PixelFormat, Pose, Skin as RawSkin, TexCoord, Triangle, TriangleLayout, MF_HOLEY,
};
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

/// Converts a parsed file of any layout ([`File`](super::File), [`QTestFile`](super::QTestFile),
/// [`Md16File`](super::Md16File), [`Hexen2File`](super::Hexen2File)) into a
/// [`Model`](crate::model::Model): every pose and every skin picture decoded.
pub fn to_model<L: Layout>(
    file: &MdlFile<'_, L>,
    options: &ConvertOptions,
    resolver: &dyn Resolver,
) -> Converted {
    let h = &file.header.quake();
    // Positions lie on a grid of `scale` (`MD16`: of `scale / 256`, the low bytes' step).
    let step = if L::Pose::LOW {
        h.scale.map(|s| s / 256.0)
    } else {
        h.scale
    };
    let mut warnings = Vec::new();
    let palette = options
        .palette
        .unwrap_or_else(|| Palette::load_or_quake(resolver, PALETTE_PATH, &mut warnings));
    let palette = Arc::new(palette);
    // The mesh builder counts the normals past the table when its identity prefix is every
    // file vertex (Quake, QTest, MD16); otherwise they are counted over the file.
    let (mesh, bad_normals) = L::Triangle::mesh(file, h, options.seam_rule);
    let bad_normals = bad_normals.unwrap_or_else(|| bad_normal_count(&file.frames));
    if bad_normals > 0 {
        warnings.push(format!(
            "{bad_normals} vertex normals index past the 162-entry table; (0, 0, 1) used"
        ));
    }
    let frames = poses(&file.frames)
        .map(|p| {
            let [min, max] = p.bounds();
            ModelFrame {
                name: raw::name_str(p.name()),
                bounds_min: decode_position(h, min.v),
                bounds_max: decode_position(h, max.v),
                position_step: Some(step),
            }
        })
        .collect();
    let clips = build_clips(&file.frames, options.fps, &mut warnings);
    let transparent = (h.flags & MF_HOLEY != 0).then_some(255u8);
    let skins = file
        .skins
        .iter()
        .enumerate()
        .map(|(i, s)| build_skin(i, s, h, &palette, transparent, &mut warnings))
        .collect::<Vec<_>>();
    let mut converted = Converted::keyframed(mesh, frames, clips, skins, warnings);
    converted.model.mdl_extras = Some(crate::model::MdlExtras {
        flags: h.flags,
        synctype: h.synctype,
        eye_position: h.eyeposition,
    });
    converted
}

/// `scale * v + translate` for one packed position.
pub fn decode_position(h: &raw::Header, v: [u8; 3]) -> [f32; 3] {
    [0, 1, 2].map(|k| h.scale[k] * v[k] as f32 + h.translate[k])
}

/// `scale * (v + low / 256) + translate` for one `MD16` position: the high bytes in Quake's
/// scale, the low bytes its 8 fractional bits (`v + low / 256` is exact in `f32`).
pub fn decode_position16(h: &raw::Header, v: [u8; 3], low: [u8; 3]) -> [f32; 3] {
    [0, 1, 2].map(|k| h.scale[k] * (v[k] as f32 + low[k] as f32 / 256.0) + h.translate[k])
}

/// Pose `p`'s position of file vertex `i`: [`decode_position`], or for `MD16` poses
/// [`decode_position16`] with the low block.
#[inline]
fn position<P: Pose>(h: &raw::Header, p: &P, i: usize) -> [f32; 3] {
    if P::LOW {
        decode_position16(h, p.verts()[i].v, p.low()[i].v)
    } else {
        decode_position(h, p.verts()[i].v)
    }
}

/// Whether a texture coordinate's on-seam word puts it on the seam under `rule`.
fn on_seam(rule: SeamRule, onseam: i32) -> bool {
    match rule {
        SeamRule::NonZero => onseam != 0,
        SeamRule::Bit0x20 => onseam & raw::ALIAS_ONSEAM != 0,
    }
}

/// The UV of texel `(s, t)` at its centre.
fn texel_uv(h: &raw::Header, s: f32, t: i32) -> [f32; 2] {
    let (w, ht) = (h.skinwidth.max(1) as f32, h.skinheight.max(1) as f32);
    [(s + 0.5) / w, (t as f32 + 0.5) / ht]
}

/// Quake's layout (also QTest's and `MD16`'s): one texture coordinate per vertex, back-side
/// copies of on-seam vertices appended.
pub(super) fn quake_mesh<P: Pose>(
    h: &raw::Header,
    texcoords: &[TexCoord],
    file_triangles: &[Triangle],
    frames: &[Frame<P>],
    seam_rule: SeamRule,
) -> (Mesh, Option<usize>) {
    let n = texcoords.len();
    // Integer half width as the engines compute it; added in f32 so no `s` can overflow.
    let half = (h.skinwidth / 2) as f32;

    let mut source_vertices: Vec<u32> = (0..n as u32).collect();
    let mut uvs: Vec<[f32; 2]> = texcoords
        .iter()
        .map(|tc| texel_uv(h, tc.s as f32, tc.t))
        .collect();
    // Mesh index of the back-side copy of each file vertex, created on first use.
    let mut back_copy: Vec<Option<u32>> = vec![None; n];
    let mut triangles = Vec::with_capacity(file_triangles.len());
    for t in file_triangles {
        let corners = t.vertex.map(|v| {
            let v = v as usize;
            let tc = texcoords[v];
            if t.facesfront != 0 || !on_seam(seam_rule, tc.onseam) {
                return v as u32;
            }
            *back_copy[v].get_or_insert_with(|| {
                source_vertices.push(v as u32);
                uvs.push(texel_uv(h, tc.s as f32 + half, tc.t));
                (source_vertices.len() - 1) as u32
            })
        });
        triangles.push(corners);
    }
    finish_mesh(h, uvs, triangles, frames, source_vertices)
}

/// Hexen II's layout: one mesh vertex per distinct (vertex, texture coordinate, back-side
/// seam) corner, in the order of first use.
pub(super) fn hexen2_mesh<P: Pose>(
    h: &raw::Header,
    texcoords: &[TexCoord],
    file_triangles: &[Hexen2Triangle],
    frames: &[Frame<P>],
    seam_rule: SeamRule,
) -> (Mesh, Option<usize>) {
    let half = (h.skinwidth / 2) as f32;
    let guess = file_triangles.len();
    let mut index: HashMap<(u16, u16, bool), u32> = HashMap::with_capacity(guess);
    let mut source_vertices: Vec<u32> = Vec::with_capacity(guess);
    let mut uvs: Vec<[f32; 2]> = Vec::with_capacity(guess);
    let triangles = file_triangles
        .iter()
        .map(|t| {
            std::array::from_fn(|k| {
                let (v, st) = (t.vertex[k], t.st[k]);
                let tc = texcoords[st as usize];
                let back = t.facesfront == 0 && on_seam(seam_rule, tc.onseam);
                *index.entry((v, st, back)).or_insert_with(|| {
                    let s = tc.s as f32 + if back { half } else { 0.0 };
                    source_vertices.push(u32::from(v));
                    uvs.push(texel_uv(h, s, tc.t));
                    (source_vertices.len() - 1) as u32
                })
            })
        })
        .collect();
    finish_mesh(h, uvs, triangles, frames, source_vertices)
}

/// The morph targets of every pose over the mesh's vertices, and the mesh; with the number
/// of normals past the table, `Some` when every pose has exactly as many vertices as the
/// identity prefix of `source_vertices` (mesh vertex `i` is file vertex `i`: Quake, QTest,
/// MD16), `None` otherwise.
fn finish_mesh<P: Pose>(
    h: &raw::Header,
    uvs: Vec<[f32; 2]>,
    triangles: Vec<[u32; 3]>,
    frames: &[Frame<P>],
    source_vertices: Vec<u32>,
) -> (Mesh, Option<usize>) {
    // This loop is most of the conversion time. Quake's layout maps mesh vertex `i` to file
    // vertex `i` for all but the appended back-side copies: that prefix is decoded straight
    // from the file's vertices (no index gather), the rest through `source_vertices`.
    let prefix = source_vertices
        .iter()
        .enumerate()
        .take_while(|&(i, &sv)| sv as usize == i)
        .count();
    let tail = &source_vertices[prefix..];
    let mut bad_normals = Some(0usize);
    let morph_targets: Vec<MorphTarget> = poses(frames)
        .map(|p| {
            if p.verts().len() != prefix {
                bad_normals = None;
            }
            let verts = &p.verts()[..prefix];
            let mut positions = Vec::with_capacity(source_vertices.len());
            positions.extend((0..verts.len()).map(|i| position(h, p, i)));
            positions.extend(tail.iter().map(|&sv| position(h, p, sv as usize)));
            let mut normals = Vec::with_capacity(source_vertices.len());
            let mut bad = 0usize;
            normals.extend(verts.iter().map(|v| {
                bad += usize::from(normals::past_table(v.normal_index));
                normals::normal_or_up(v.normal_index)
            }));
            bad_normals = bad_normals.map(|b| b + bad);
            normals.extend(
                tail.iter()
                    .map(|&sv| normals::normal_or_up(p.verts()[sv as usize].normal_index)),
            );
            MorphTarget { positions, normals }
        })
        .collect();
    let skin_size = Some([h.skinwidth.max(0) as u32, h.skinheight.max(0) as u32]);
    let mesh = Mesh::keyframed(uvs, triangles, morph_targets, source_vertices, skin_size);
    (mesh, bad_normals)
}

fn build_clips<P: Pose>(frames: &[Frame<P>], fps: f32, warnings: &mut Vec<String>) -> Vec<Clip> {
    let mut simple = Vec::new();
    let mut clips = Vec::new();
    let mut index = 0usize;
    for (fi, f) in frames.iter().enumerate() {
        match f {
            Frame::Simple(p) => {
                simple.push((index, raw::name_str(p.name())));
                index += 1;
            }
            Frame::Group {
                intervals, frames, ..
            } => {
                let name = frames
                    .first()
                    .map(|p| raw::name_str(p.name()))
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
        encoded: None,
    };
    match skin {
        RawSkin::Single { skin_type, pixels } => {
            let fmt = PixelFormat::from_skin_type(*skin_type).unwrap_or(PixelFormat::Indexed8);
            let rgba = |data: Vec<u8>| Image {
                width,
                height,
                pixels: Pixels::Rgba8(data),
                encoded: None,
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
                    "skin {index}: non-Quake skin type {skin_type} ({}, written by 3D GameStudio tools)",
                    fmt.describe()
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
