//! `raw::File` to the format-neutral [`Model`](crate::model::Model).
//!
//! Every frame becomes a morph target decoded with its own scale and translate; normals come
//! from the shared 162-entry table; UVs are `(s / skinwidth, t / skinheight)` (no half-texel
//! offset, as in Quake 2's software renderer). MD2 triangles index vertices and texture
//! coordinates separately, so the mesh gets one vertex per distinct (vertex, texture
//! coordinate) pair in first-use order, then one for each vertex no triangle uses;
//! [`Mesh::source_vertices`] maps them back to the file's vertices.
//!
//! Skins are game paths resolved through the [`Resolver`] (`name`, then `name.pcx` for a
//! name without extension) and decoded as PCX.

use std::collections::HashMap;

use super::raw::{self, File, GlLayout};
use crate::formats::normals;
use crate::image::{pcx, Image};
use crate::limits::{Budget, Limits};
use crate::model::{
    clips_from_frame_names, Converted, Frame as ModelFrame, Mesh, MorphTarget, Skin,
};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;

/// Converts a parsed file into a [`Model`](crate::model::Model): every frame decoded, skins resolved and decoded.
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    let mesh = build_mesh(file);
    let frames: Vec<ModelFrame> = file
        .frames
        .iter()
        .zip(&mesh.morph_targets)
        .map(|(f, m)| {
            let [lo, hi] = bounds(&m.positions);
            ModelFrame {
                name: raw::name_str(&f.name),
                bounds_min: lo,
                bounds_max: hi,
            }
        })
        .collect();
    let bad_normals = file.bad_normal_count();
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
    let mut loader = SkinLoader {
        resolver,
        decoded: HashMap::new(),
        budget: Budget::new(&Limits::default()),
    };
    let skins: Vec<Skin> = file
        .skin_names()
        .enumerate()
        .map(|(i, name)| loader.load(i, name, &mut warnings))
        .collect();
    Converted::keyframed(mesh, frames, clips, skins, warnings)
}

/// The names tried for a skin path, in order: as stored, then with `.pcx` when it has no
/// extension.
pub fn skin_candidates(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    let file = name.rsplit(['/', '\\']).next().unwrap_or(name);
    if !file.trim_start_matches('.').contains('.') {
        out.push(format!("{name}.pcx"));
    }
    out
}

/// Resolves and decodes skins, each path once, all pictures charged to one budget (a file
/// naming one big picture a thousand times must not decode or copy it a thousand times).
struct SkinLoader<'r> {
    resolver: &'r dyn Resolver,
    decoded: HashMap<String, Result<(String, Image), String>>,
    budget: Budget,
}

impl SkinLoader<'_> {
    fn load(&mut self, index: usize, name: String, warnings: &mut Vec<String>) -> Skin {
        let mut pictures = Vec::new();
        if name.is_empty() {
            warnings.push(format!("skin {index}: empty name"));
        } else {
            let resolver = self.resolver;
            let found =
                self.decoded.entry(name.clone()).or_insert_with(|| {
                    match skin_candidates(&name)
                        .iter()
                        .find_map(|n| resolver.load(n).map(|b| (n.clone(), b)))
                    {
                        None => Err(format!("{name:?} not found")),
                        Some((found, bytes)) => decode_skin(&bytes)
                            .map(|img| (found.clone(), img))
                            .map_err(|e| format!("{found}: {e}")),
                    }
                });
            match found {
                Err(e) => warnings.push(format!("skin {index}: {e}")),
                Ok((found, img)) => {
                    let bytes = 64 + 4 * img.width as u64 * img.height as u64;
                    match self.budget.charge(bytes) {
                        Ok(()) => pictures.push(img.clone()),
                        Err(limit) => warnings.push(format!(
                            "skin {index}: {found}: left out, skin pictures would exceed the \
                             allocation limit of {limit} bytes"
                        )),
                    }
                }
            }
        }
        Skin {
            source: None,
            name,
            pictures,
            picture_times: None,
        }
    }
}

/// Decodes a skin picture by its magic (PCX).
fn decode_skin(bytes: &[u8]) -> crate::Result<Image> {
    pcx::decode(bytes, &Limits::default())
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
    let mut index: HashMap<(i16, i16), u32> = HashMap::with_capacity(guess);
    let mut source_vertices: Vec<u32> = Vec::with_capacity(guess);
    let mut uvs: Vec<[f32; 2]> = Vec::with_capacity(guess);
    let mut used = vec![false; num_xyz];
    let triangles = file
        .triangles
        .iter()
        .map(|t| {
            std::array::from_fn(|k| {
                let (xyz, st) = (t.index_xyz[k], t.index_st[k]);
                *index.entry((xyz, st)).or_insert_with(|| {
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
    const UP: [f32; 3] = [0.0, 0.0, 1.0];
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
                .map(|&sv| normals::normal(f.verts[sv as usize].normal_index).unwrap_or(UP))
                .collect(),
        })
        .collect();
    let skin_size = Some([h.skinwidth.max(0) as u32, h.skinheight.max(0) as u32]);
    Mesh::keyframed(uvs, triangles, morph_targets, source_vertices, skin_size)
}
