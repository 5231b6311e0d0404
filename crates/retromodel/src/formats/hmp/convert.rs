//! `raw::File` to the format-neutral [`Model`](crate::model::Model): one triangulated height-field mesh.
//!
//! - **Grid.** Vertex `(ix, iy)` is number `iy * width + ix`. Rows run from north to south:
//!   `x = origin[0] + ix * trisize_x`, `y = origin[1] + (height - 1 - iy) * trisize_y`, so
//!   that row 0 is the terrain's `+y` edge and column 0 its `-x` edge (the stored normals and
//!   the skins agree with this orientation, see below). HMP5 and HMP7 heights are
//!   `z = origin[2] + scale[2] * z`; HMP4 vertices are `origin + scale * v` on every axis.
//! - **Normals.** HMP7 stores two signed bytes `(nx, ny)`; the unit normal is
//!   `(-nx, -ny, sqrt(127^2 - nx^2 - ny^2)) / 127`, renormalised. In every corpus terrain
//!   this agrees with the normals of the height field in the orientation above (mean cosine
//!   above 0.97). HMP5 and HMP4 store a normal table index (no such file was available to
//!   check the sign convention; the table entry is used as it is).
//! - **UVs.** `(ix / (width - 1), iy / (height - 1))`: the skin covers the terrain once, its
//!   top row on row 0 (a terrain with its height-coloured skin correlates at 0.997 with
//!   this mapping).
//! - **Triangles.** Two per grid cell, `(a, b, c)` and `(a, c, d)` for the cell's corners `a`
//!   (row `iy`, column `ix`), `b` (`ix + 1`), `c` (row `iy + 1`, `ix + 1`), `d` (row `iy + 1`,
//!   `ix`): clockwise seen from above, the front-face convention of the other formats.
//! - **Skins** decode as MDL7 skins do ([`crate::formats::gs_mdl7::to_model`]); the mesh uses
//!   the first (the second is usually a detail map).
//! - Every frame becomes a morph target; a terrain without frames is flat at `origin[2]`.

use super::raw::*;
use crate::formats::gs_mdl7::{clips_from_names, convert_skins, name_str, SkinData};
use crate::formats::normals;
use crate::model::{Converted, Frame as ModelFrame, Mesh, MorphTarget};
use crate::options::ConvertOptions;
use crate::resolve::Resolver;

const UP: [f32; 3] = [0.0, 0.0, 1.0];

/// The unit normal of an HMP7 vertex's two normal bytes.
pub fn hmp7_normal(normal: [u8; 2]) -> [f32; 3] {
    let (x, y) = (normal[0] as i8 as f32, normal[1] as i8 as f32);
    let z = (127.0f32 * 127.0 - x * x - y * y).max(0.0).sqrt();
    let n = [-x, -y, z];
    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
    if len > 0.0 {
        n.map(|c| c / len)
    } else {
        UP
    }
}

/// Converts a parsed terrain into a [`Model`](crate::model::Model) with one mesh.
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    let mut warnings = Vec::new();
    let h = &file.header;
    let (w, ht) = file.grid();
    let n = w * ht;
    let skin_refs: Vec<_> = file.skins.iter().collect();
    let skins = convert_skins(&skin_refs, options, resolver, &mut warnings);
    if h.ident != Version::Hmp4 && !(h.trisize_x.is_finite() && h.trisize_y.is_finite()) {
        warnings.push(format!(
            "grid spacing {} x {} is not finite",
            h.trisize_x, h.trisize_y
        ));
    }
    let step = |k: usize| if k > 1 { 1.0 / (k - 1) as f32 } else { 0.0 };
    let (du, dv) = (step(w), step(ht));
    let mut uvs = Vec::with_capacity(n);
    for iy in 0..ht {
        for ix in 0..w {
            uvs.push([ix as f32 * du, iy as f32 * dv]);
        }
    }
    let mut triangles = Vec::with_capacity(2 * w.saturating_sub(1) * ht.saturating_sub(1));
    for iy in 0..ht.saturating_sub(1) {
        for ix in 0..w.saturating_sub(1) {
            let a = (iy * w + ix) as u32;
            let (b, c, d) = (a + 1, a + w as u32 + 1, a + w as u32);
            triangles.push([a, b, c]);
            triangles.push([a, c, d]);
        }
    }

    let grid_xy = |i: usize| {
        let (ix, iy) = (i % w.max(1), i / w.max(1));
        [
            h.origin[0] + ix as f32 * h.trisize_x,
            h.origin[1] + (ht - 1 - iy) as f32 * h.trisize_y,
        ]
    };
    let mut bad_normals = 0usize;
    let mut table = |index: u8| {
        normals::normal(index).unwrap_or_else(|| {
            bad_normals += 1;
            UP
        })
    };
    let mut morph_targets = Vec::with_capacity(file.frames.len());
    let mut frames = Vec::with_capacity(file.frames.len());
    for f in &file.frames {
        // Heights lie on the grid of the triangle size and the height scale; packed
        // vertices on the scale.
        let position_step = match &f.vertices {
            Vertices::Heights(_) => [h.trisize_x.abs(), h.trisize_y.abs(), h.scale[2].abs()],
            Vertices::Packed(_) => h.scale.map(f32::abs),
        };
        let position_step = position_step
            .iter()
            .all(|s| s.is_finite() && *s > 0.0)
            .then_some(position_step);
        let (positions, normals): (Vec<[f32; 3]>, Vec<[f32; 3]>) = match &f.vertices {
            Vertices::Heights(v) => v
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    let [x, y] = grid_xy(i);
                    let z = h.origin[2] + h.scale[2] * v.z as f32;
                    let normal = match h.ident {
                        Version::Hmp7 => hmp7_normal(v.normal),
                        _ => table(v.normal[0]),
                    };
                    ([x, y, z], normal)
                })
                .unzip(),
            Vertices::Packed(v) => v
                .iter()
                .map(|v| {
                    let p = std::array::from_fn(|k| h.origin[k] + h.scale[k] * v.v[k] as f32);
                    (p, table(v.normal_index))
                })
                .unzip(),
        };
        let mut it = positions.iter();
        let [lo, hi] = match it.next() {
            Some(first) => it.fold([*first, *first], |[lo, hi], p| {
                [
                    std::array::from_fn(|a| lo[a].min(p[a])),
                    std::array::from_fn(|a| hi[a].max(p[a])),
                ]
            }),
            None => [[0.0; 3]; 2],
        };
        frames.push(ModelFrame {
            name: name_str(&f.name),
            bounds_min: lo,
            bounds_max: hi,
            position_step,
        });
        morph_targets.push(MorphTarget { positions, normals });
    }
    if bad_normals > 0 {
        warnings.push(format!(
            "{bad_normals} vertex normals index past the 162-entry table; (0, 0, 1) used"
        ));
    }
    let (positions, normals) = match morph_targets.first() {
        Some(t) => (t.positions.clone(), t.normals.clone()),
        None => {
            warnings.push("no frames: the terrain is flat".to_string());
            let flat = (0..n)
                .map(|i| {
                    let [x, y] = grid_xy(i);
                    [x, y, h.origin[2]]
                })
                .collect();
            (flat, vec![UP; n])
        }
    };
    let skin_size = file.skins.first().and_then(|s| match s.data {
        SkinData::Pixels { .. } => Some([s.width, s.height]),
        _ => None,
    });
    let mesh = Mesh {
        name: "terrain".to_string(),
        positions,
        normals,
        uvs,
        triangles,
        morph_targets,
        source_vertices: (0..n as u32).collect(),
        skin: None,
        joint_weights: Vec::new(),
        skin_size,
    };
    let clips = clips_from_names(&frames, options.fps);
    Converted::keyframed(mesh, frames, clips, skins, warnings)
}
