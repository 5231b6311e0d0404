//! `raw::File` to the format-neutral [`Model`](crate::model::Model).
//!
//! - Positions are `scale * v + offset` for byte- and word-packed frames alike; normals come
//!   from the 162-entry table.
//! - MDL3..MDL5 UVs are `(u / width, v / height)`: skin vertices are pixel positions on
//!   texel edges (real files reach `v = height`). The size is the header's in MDL3/MDL4 and
//!   the first skin's in MDL5 (a DDS skin's from its header); mesh vertices are the distinct
//!   (vertex, skin vertex) pairs of the triangles in first-use order, followed by the
//!   vertices no triangle uses, and [`Mesh::source_vertices`] maps them to the file's.
//! - MDL2 UVs follow Quake: texel centres, and the on-seam fix-up (`s += width / 2` on
//!   back-facing triangles) for any non-zero `onseam` (GameStudio's tools write 1, so
//!   [`crate::options::SeamRule`] does not apply).
//! - 8-bit skins stay indexed with the palette from [`ConvertOptions::palette`], else the
//!   resolver's [`PALETTE_PATH`] (768 bytes of RGB, the `.raw` palette of the A4 manual),
//!   else the built-in Quake palette; GameStudio draws them with the level's palette, which
//!   the model does not name. No fullbright range and no transparent index (index 0 and
//!   colour 0x0000 are transparent only in the engine's overlay mode, an entity flag).
//! - True-colour skins decode to RGBA; mipmap levels are not converted. An embedded DDS
//!   skin becomes a skin without pictures (a warning says so); an external skin is named
//!   by its file name and loaded through the resolver when it is a PCX file.
//! - Bone indices of word-packed vertices and bone data are not part of the model.

use std::collections::HashMap;
use std::sync::Arc;

use super::raw::{self, File, Frame, Geometry, Header, SkinFormat};
use crate::formats::normals;
use crate::image::{self, Image, Palette, Pixels};
use crate::limits::Limits;
use crate::model::{clips_from_frame_names, Converted, Frame as ModelFrame, Mesh};
use crate::model::{MorphTarget, Skin};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;
use crate::skin_lookup::SkinLookup;

/// Path of the palette asked from the resolver for 8-bit skins (768 bytes, 256 RGB
/// triples).
pub const PALETTE_PATH: &str = "palette.raw";

/// Converts a parsed file into a [`Model`](crate::model::Model): every frame and every skin picture decoded.
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    let h = &file.header;
    let has_indexed = file
        .skins
        .iter()
        .any(|s| s.format() == SkinFormat::Indexed8);
    let palette = match options.palette {
        Some(p) => p,
        None if !has_indexed => Palette::QUAKE,
        None => Palette::load_or_quake(resolver, PALETTE_PATH, &mut warnings),
    };
    let palette = Arc::new(palette);
    let skin_size = skin_size(file);
    let mesh = match &file.geometry {
        Geometry::Quake {
            texcoords,
            triangles,
        } => quake_mesh(file, texcoords, triangles, skin_size),
        Geometry::Separate {
            skin_verts,
            triangles,
        } => separate_mesh(file, skin_verts, triangles, skin_size),
    };
    let bad_normals = file.bad_normal_count();
    if bad_normals > 0 {
        warnings.push(format!(
            "{bad_normals} vertex normals index past the 162-entry table; (0, 0, 1) used"
        ));
    }
    if file
        .frames
        .iter()
        .flat_map(|f| &f.verts)
        .any(|v| v.bone != 0)
    {
        warnings.push("per-vertex bone indices are kept in the file, not in the model".into());
    }
    if h.num_bones != 0 {
        warnings.push(format!(
            "num_bones = {}: the bone layout is undocumented; bone data stays in the {} \
             trailing bytes",
            h.num_bones,
            file.trailing.len()
        ));
    }
    let frames = file
        .frames
        .iter()
        .map(|f| ModelFrame {
            name: raw::name_str(&f.name),
            bounds_min: decode_position(h, f.bboxmin.v),
            bounds_max: decode_position(h, f.bboxmax.v),
            position_step: Some(h.scale),
        })
        .collect::<Vec<_>>();
    let clips = clips_from_frame_names(
        frames.iter().enumerate().map(|(i, f)| (i, f.name.as_str())),
        options.fps,
    );
    let skins: Vec<Skin> = file
        .skins
        .iter()
        .enumerate()
        .map(|(i, s)| build_skin(i, s, &palette, resolver, &mut warnings))
        .collect();
    Converted::keyframed(mesh, frames, clips, skins, warnings)
}

/// `scale * v + offset` for one packed position (byte- or word-packed).
pub fn decode_position(h: &Header, v: [u16; 3]) -> [f32; 3] {
    [0, 1, 2].map(|k| h.scale[k] * v[k] as f32 + h.offset[k])
}

/// The texel size the skin vertices refer to: the header's in MDL2..MDL4; in MDL5 the first
/// skin's that has one (a DDS skin's from its header), else the header's. `None` when
/// nothing gives a non-zero size.
pub fn skin_size(file: &File<'_>) -> Option<[u32; 2]> {
    let h = &file.header;
    let header = (h.skin_width > 0 && h.skin_height > 0)
        .then_some([h.skin_width as u32, h.skin_height as u32]);
    if h.version != 5 {
        return header;
    }
    file.skins
        .iter()
        .find_map(|s| match s.format() {
            SkinFormat::External => None,
            SkinFormat::Dds => dds_size(&s.data),
            _ => (s.width > 0 && s.height > 0).then_some([s.width as u32, s.height as u32]),
        })
        .or(header)
}

/// Width and height from a DDS header (`DDS `, size, flags, height, width).
fn dds_size(data: &[u8]) -> Option<[u32; 2]> {
    if data.len() < 20 || &data[..4] != b"DDS " {
        return None;
    }
    let word = |at: usize| u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
    let (h, w) = (word(12), word(16));
    (w > 0 && h > 0).then_some([w, h])
}

/// Morph targets for mesh vertices taken from file vertices `source`.
fn morph_targets(file: &File<'_>, source: &[u32]) -> Vec<MorphTarget> {
    let h = &file.header;
    file.frames
        .iter()
        .map(|f: &Frame| MorphTarget {
            positions: source
                .iter()
                .map(|&sv| decode_position(h, f.verts[sv as usize].v))
                .collect(),
            normals: source
                .iter()
                .map(|&sv| normals::normal_or_up(f.verts[sv as usize].normal_index))
                .collect(),
        })
        .collect()
}

fn finish_mesh(
    file: &File<'_>,
    source_vertices: Vec<u32>,
    uvs: Vec<[f32; 2]>,
    triangles: Vec<[u32; 3]>,
    skin_size: Option<[u32; 2]>,
) -> Mesh {
    let targets = morph_targets(file, &source_vertices);
    // GameStudio's front faces are counter-clockwise (its stored normals point along
    // (b - a) x (c - a) in 98% of the corpus's triangles); the Model keeps Quake's
    // clockwise fronts, so every triangle turns around here and back in the writer.
    let triangles = triangles.into_iter().map(|[a, b, c]| [a, c, b]).collect();
    Mesh::keyframed(uvs, triangles, targets, source_vertices, skin_size)
}

/// MDL3..MDL5: one mesh vertex per distinct (vertex, skin vertex) pair.
fn separate_mesh(
    file: &File<'_>,
    skin_verts: &[raw::SkinVert],
    tris: &[raw::Triangle],
    skin_size: Option<[u32; 2]>,
) -> Mesh {
    let [w, h] = skin_size.unwrap_or([1, 1]).map(|s| s.max(1) as f32);
    let mut index: HashMap<(u16, u16), u32> = HashMap::new();
    let mut source_vertices = Vec::new();
    let mut uvs = Vec::new();
    let mut triangles = Vec::with_capacity(tris.len());
    for t in tris {
        triangles.push(std::array::from_fn(|k| {
            let (v, uv) = (t.vertex[k], t.uv[k]);
            *index.entry((v, uv)).or_insert_with(|| {
                let sv = skin_verts[uv as usize];
                source_vertices.push(v as u32);
                uvs.push([sv.u as f32 / w, sv.v as f32 / h]);
                source_vertices.len() as u32 - 1
            })
        }));
    }
    // Vertices no triangle uses, so that the file's vertex count survives a round trip
    // (only when frames give them a position).
    if !file.frames.is_empty() {
        let mut used = vec![false; file.header.num_verts.max(0) as usize];
        for &v in &source_vertices {
            used[v as usize] = true;
        }
        for (v, _) in used.iter().enumerate().filter(|(_, &u)| !u) {
            source_vertices.push(v as u32);
            uvs.push([0.0, 0.0]);
        }
    }
    finish_mesh(file, source_vertices, uvs, triangles, skin_size)
}

/// MDL2: Quake's texture coordinates, texel centres and on-seam fix-up.
fn quake_mesh(
    file: &File<'_>,
    texcoords: &[crate::formats::quake_mdl::TexCoord],
    tris: &[crate::formats::quake_mdl::Triangle],
    skin_size: Option<[u32; 2]>,
) -> Mesh {
    let hd = &file.header;
    let n = texcoords.len();
    let (w, ht) = (hd.skin_width.max(1) as f32, hd.skin_height.max(1) as f32);
    let half = (hd.skin_width / 2) as f32;
    let uv = |s: f32, t: i32| [(s + 0.5) / w, (t as f32 + 0.5) / ht];
    let mut source_vertices: Vec<u32> = (0..n as u32).collect();
    let mut uvs: Vec<[f32; 2]> = texcoords.iter().map(|tc| uv(tc.s as f32, tc.t)).collect();
    let mut back_copy: Vec<Option<u32>> = vec![None; n];
    let mut triangles = Vec::with_capacity(tris.len());
    for t in tris {
        triangles.push(t.vertex.map(|v| {
            let v = v as usize;
            let tc = texcoords[v];
            if t.facesfront != 0 || tc.onseam == 0 {
                return v as u32;
            }
            *back_copy[v].get_or_insert_with(|| {
                source_vertices.push(v as u32);
                uvs.push(uv(tc.s as f32 + half, tc.t));
                (source_vertices.len() - 1) as u32
            })
        }));
    }
    finish_mesh(file, source_vertices, uvs, triangles, skin_size)
}

/// Decodes the main picture of a pixel skin: indexed with `palette`, or RGBA.
pub fn decode_picture(skin: &raw::Skin<'_>, palette: &Arc<Palette>) -> Option<Image> {
    let (width, height) = (skin.width.max(0) as u32, skin.height.max(0) as u32);
    let px = &skin.data;
    let pixels = match skin.format() {
        SkinFormat::Indexed8 => Pixels::Indexed {
            indices: px.to_vec(),
            palette: palette.clone(),
            fullbright_start: None,
            transparent_index: None,
        },
        SkinFormat::Rgb565 => Pixels::Rgba8(image::rgb565_to_rgba8(px)),
        SkinFormat::Argb4444 => Pixels::Rgba8(image::argb4444_to_rgba8(px)),
        SkinFormat::Bgr888 => Pixels::Rgba8(image::bgr_to_rgba8(px, 3)),
        SkinFormat::Bgra8888 => Pixels::Rgba8(image::bgr_to_rgba8(px, 4)),
        SkinFormat::Dds | SkinFormat::External => return None,
    };
    Some(Image {
        width,
        height,
        pixels,
        encoded: None,
    })
}

fn build_skin(
    index: usize,
    skin: &raw::Skin<'_>,
    palette: &Arc<Palette>,
    resolver: &dyn Resolver,
    warnings: &mut Vec<String>,
) -> Skin {
    let mut out = Skin {
        source: None,
        name: String::new(),
        pictures: Vec::new(),
        picture_times: None,
    };
    match skin.format() {
        SkinFormat::Dds => match crate::image::decode(&skin.data, "skin.dds", &Limits::default()) {
            Ok(img) => out.pictures.push(img),
            Err(e) => warnings.push(format!(
                "skin {index}: embedded DDS ({} bytes) kept in the file but not decoded: {e}",
                skin.data.len()
            )),
        },
        SkinFormat::External => {
            let name = raw::name_str(&skin.data);
            let mut lookup = SkinLookup::new(resolver, &Limits::default());
            match lookup.stored(&name, true) {
                None if lookup.warnings.is_empty() => {
                    warnings.push(format!("skin {index}: external file {name:?} not found"))
                }
                None => warnings.extend(
                    lookup
                        .warnings
                        .iter()
                        .map(|w| format!("skin {index}: external file {w}")),
                ),
                Some(found) => {
                    out.source = Some(found.source());
                    out.pictures.push(found.image);
                }
            }
            out.name = name;
        }
        _ => out.pictures.extend(decode_picture(skin, palette)),
    }
    out
}
