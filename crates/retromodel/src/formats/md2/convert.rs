//! `raw::File` to the format-neutral [`Model`](crate::model::Model).
//!
//! Every frame becomes a morph target decoded with its own scale and translate; normals come
//! from the shared 162-entry table; UVs are `(s / skinwidth, t / skinheight)` (no half-texel
//! offset, as in Quake 2's software renderer). MD2 triangles index vertices and texture
//! coordinates separately, so the mesh gets one vertex per distinct (vertex, texture
//! coordinate) pair in first-use order, then one for each vertex no triangle uses;
//! [`Mesh::source_vertices`] maps them back to the file's vertices.
//!
//! Skins are game paths resolved through the [`Resolver`] by the rules of
//! [`crate::skin_lookup`] (stored path, UFO:AI `.name`, replacements) and decoded by
//! [`crate::image::decode`].

use super::raw::{self, File, GlLayout};
use crate::formats::normals;
use crate::hash::FastMap;
use crate::limits::Limits;
use crate::model::{
    clips_from_frame_names, Converted, Frame as ModelFrame, Mesh, MorphTarget, Skin,
};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;
use crate::skin_lookup::SkinLookup;

/// Converts a parsed file into a [`Model`](crate::model::Model): every frame decoded, skins resolved and decoded.
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    let mesh = build_mesh(file);
    let mut bad_normals = 0;
    let frames: Vec<ModelFrame> = file
        .frames
        .iter()
        .zip(&mesh.morph_targets)
        .map(|(f, m)| {
            // One pass over the packed vertices gives the frame's bounds (the decode is
            // monotonic on each axis, so the packed extremes decode to the positions'
            // extremes) and its normals past the table. Every file vertex is a mesh vertex.
            let extent = PackedExtent::of(&f.verts);
            bad_normals += extent.bad_normals;
            let finite = f.scale.iter().chain(&f.translate).all(|c| c.is_finite());
            let [lo, hi] = match (finite, extent.range) {
                (true, Some([min, max])) => {
                    let decode = |a: usize, v: u8| f.scale[a] * v as f32 + f.translate[a];
                    let ends: [[f32; 2]; 3] =
                        std::array::from_fn(|a| [decode(a, min[a]), decode(a, max[a])]);
                    [ends.map(|[x, y]| x.min(y)), ends.map(|[x, y]| x.max(y))]
                }
                _ => bounds(&m.positions),
            };
            ModelFrame {
                name: raw::name_str(&f.name),
                bounds_min: lo,
                bounds_max: hi,
                position_step: Some(f.scale),
            }
        })
        .collect();
    if bad_normals > 0 {
        warnings.push(format!(
            "{bad_normals} vertex normals index past the 162-entry table; (0, 0, 1) used"
        ));
    }
    if file.glcmds.layout == GlLayout::IndexFirst {
        warnings.push(
            "GL command vertices store the index before s and t (a non-id exporter); \
             Quake 2 misreads them"
                .into(),
        );
    }
    let exact = file.glcmds.layout == GlLayout::Standard;
    if !file.glcmds.commands.is_empty() {
        if let Some(problem) = file.glcmds_mismatch(exact) {
            warnings.push(problem);
        }
    }
    let clips = clips_from_frame_names(
        frames.iter().enumerate().map(|(i, f)| (i, f.name.as_str())),
        options.fps,
    );
    let skins = load_skins(file, resolver, options.prefer_replacements, &mut warnings);
    Converted::keyframed(mesh, frames, clips, skins, warnings)
}

/// The skins' pictures ([`crate::skin_lookup`]): each stored path as stored (and `.pcx` for a
/// name without extension; with `prefer_replacements` its `.tga`/`.png`/`.jpg` replacement
/// first), then UFO:AI's `.name` in the model's folder, then the stored name with another
/// picture extension (a replacement of a missing PCX). A model with no skin entry takes a picture named like the model beside it, or the
/// only picture in its folder, with a warning.
fn load_skins(
    file: &File<'_>,
    resolver: &dyn Resolver,
    prefer_replacements: bool,
    warnings: &mut Vec<String>,
) -> Vec<Skin> {
    let mut lookup = SkinLookup::new(resolver, &Limits::default());
    let mut skins: Vec<Skin> = file
        .skin_names()
        .enumerate()
        .map(|(index, name)| {
            let found = if name.is_empty() {
                warnings.push(format!("skin {index}: empty name"));
                None
            } else {
                let found = if prefer_replacements {
                    lookup.replacement_first(&name)
                } else {
                    lookup.stored(&name, false)
                }
                .or_else(|| lookup.ufoai(&name))
                .or_else(|| lookup.stored(&name, true));
                if found.is_none() {
                    warnings.push(format!(
                        "skin {index}: \"{name}\" not found (--game-dir GAME_FOLDER or \
                         archive finds the game's skins)"
                    ));
                }
                found
            };
            Skin {
                name,
                source: found.as_ref().map(|f| f.source()),
                pictures: found
                    .map(|f| quake2_transparency(f.image))
                    .into_iter()
                    .collect(),
                picture_times: None,
            }
        })
        .collect();
    if skins.is_empty() {
        if let Some(found) = lookup.beside_model() {
            warnings.push(format!(
                "no skin entry: {} taken ({})",
                found.path,
                found.rule.describe()
            ));
            skins.push(Skin {
                name: found.path.clone(),
                pictures: vec![found.image.clone()],
                picture_times: None,
                source: Some(found.source()),
            });
        }
    }
    warnings.append(&mut lookup.warnings);
    skins
}

/// The smallest and largest packed coordinate on each axis of a frame's vertices (`None`
/// for no vertices), and how many of their normal indices are past the table.
struct PackedExtent {
    range: Option<[[u8; 3]; 2]>,
    bad_normals: usize,
}

impl PackedExtent {
    fn of(verts: &[raw::Vertex]) -> PackedExtent {
        let mut min = [u8::MAX; 3];
        let mut max = [0u8; 3];
        let mut bad_normals = 0usize;
        for v in verts {
            for a in 0..3 {
                min[a] = min[a].min(v.v[a]);
                max[a] = max[a].max(v.v[a]);
            }
            bad_normals += usize::from(normals::past_table(v.normal_index));
        }
        PackedExtent {
            range: (!verts.is_empty()).then_some([min, max]),
            bad_normals,
        }
    }
}

fn bounds(positions: &[[f32; 3]]) -> [[f32; 3]; 2] {
    let Some(first) = positions.first() else {
        return [[0.0; 3]; 2];
    };
    positions.iter().fold([*first, *first], |[lo, hi], p| {
        [
            std::array::from_fn(|a| lo[a].min(p[a])),
            std::array::from_fn(|a| hi[a].max(p[a])),
        ]
    })
}

fn build_mesh(file: &File<'_>) -> Mesh {
    let h = &file.header;
    let num_xyz = h.num_xyz.max(0) as usize;
    let (w, ht) = (h.skinwidth.max(1) as f32, h.skinheight.max(1) as f32);
    let guess = num_xyz.max(file.triangles.len().min(3 * num_xyz));
    // Keyed by the (vertex, texture coordinate) pair packed into one word.
    let mut index: FastMap<u32, u32> = FastMap::with_capacity_and_hasher(guess, Default::default());
    let mut source_vertices: Vec<u32> = Vec::with_capacity(guess);
    let mut uvs: Vec<[f32; 2]> = Vec::with_capacity(guess);
    let mut used = vec![false; num_xyz];
    let triangles = file
        .triangles
        .iter()
        .map(|t| {
            std::array::from_fn(|k| {
                let (xyz, st) = (t.index_xyz[k], t.index_st[k]);
                let key = u32::from(xyz as u16) << 16 | u32::from(st as u16);
                *index.entry(key).or_insert_with(|| {
                    used[xyz as usize] = true;
                    let tc = file.texcoords[st as usize];
                    source_vertices.push(xyz as u32);
                    uvs.push([tc.s as f32 / w, tc.t as f32 / ht]);
                    (source_vertices.len() - 1) as u32
                })
            })
        })
        .collect();
    for (v, _) in used.iter().enumerate().filter(|(_, u)| !**u) {
        source_vertices.push(v as u32);
        uvs.push([0.0, 0.0]);
    }
    let morph_targets: Vec<MorphTarget> = file
        .frames
        .iter()
        .map(|f| MorphTarget {
            positions: source_vertices
                .iter()
                .map(|&sv| {
                    let v = f.verts[sv as usize].v;
                    [0, 1, 2].map(|k| f.scale[k] * v[k] as f32 + f.translate[k])
                })
                .collect(),
            normals: source_vertices
                .iter()
                .map(|&sv| normals::normal_or_up(f.verts[sv as usize].normal_index))
                .collect(),
        })
        .collect();
    let skin_size = Some([h.skinwidth.max(0) as u32, h.skinheight.max(0) as u32]);
    Mesh::keyframed(uvs, triangles, morph_targets, source_vertices, skin_size)
}

/// An 8-bit skin as Quake 2's GL renderer draws it: palette index 255 is transparent
/// (`GL_Upload8`, with the alpha test on), so a picture that uses it gets it as its
/// transparent index.
fn quake2_transparency(mut image: crate::image::Image) -> crate::image::Image {
    if let crate::image::Pixels::Indexed {
        indices,
        transparent_index,
        ..
    } = &mut image.pixels
    {
        if transparent_index.is_none() && indices.contains(&255) {
            *transparent_index = Some(255);
        }
    }
    image
}
