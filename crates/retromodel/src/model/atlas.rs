//! One skin from many: [`pack_skins`] packs the pictures of a model's skins into one RGBA
//! atlas picture and remaps every mesh's texture coordinates into it, for targets that hold
//! one skin a model (Quake MDL and MD2, whose writers otherwise merge every mesh onto the
//! first skin).
//!
//! - **What is packed.** The first picture of each skin a mesh uses; pictures equal texel for
//!   texel share one tile. An animated skin group gives its first picture (a warning: the
//!   animation is dropped). A mesh without a skin picture gets a small flat tile of neutral grey
//!   ([`crate::image::UNTEXTURED`], as the renderer draws it), with a warning naming the
//!   mesh and the missing picture. A model whose meshes all show one picture, or none
//!   (the writer's blank skin then is that grey), is returned unchanged.
//! - **Texel for texel.** A tile is the picture copied unchanged (unless the atlas must
//!   shrink), and a coordinate `u` of a `w`-texel picture becomes `(x + u * w) / W` for a tile
//!   at texel `x` of a `W`-texel atlas: the texel a nearest-texel sampler finds (the integer
//!   coordinates of MDL and MD2 are such samples) shows the colour it showed in the source.
//! - **Padding.** Each tile is surrounded by `padding` texels repeating its edge texels, so
//!   bilinear filtering and mip-maps at a tile's border, and coordinates that sit exactly on
//!   its edge (`u = 1`), take the tile's own colours rather than a neighbour's.
//! - **Wrapping.** Texture coordinates outside `[0, 1]` repeat the picture in the source.
//!   Each triangle is moved by whole tiles so its smallest coordinate lies in `[0, 1)`; a
//!   vertex shared by triangles moved differently is copied (with all its data: positions,
//!   normals, morph targets, source vertex, joint weights), and the picture is repeated in the
//!   atlas as many times per axis as the moved triangles reach, up to
//!   [`AtlasOptions::max_tiles`]; coordinates beyond are clamped, with a warning naming the
//!   skin and how far they reached.
//! - **Size.** Tiles are packed on shelves, tallest first (deterministic), trying several
//!   atlas widths and keeping the smallest area; the sides are rounded up to a multiple of
//!   [`AtlasOptions::align`]. When the atlas exceeds [`AtlasOptions::max_size`], every
//!   picture is shrunk by one factor ([`resize`]: area averaging, alpha-correct) and packed
//!   again, with a note of the factor.
//! - **Alpha** is kept: transparent cut-outs stay transparent (the Quake MDL writer turns
//!   alpha below 128 into its transparent index with `MF_HOLEY`). Atlas texels no tile
//!   covers are opaque black (index 0 of the Quake palette), so they add no holes.
//!
//! Quake's and Quake 2's GL renderers flood-fill an 8-bit skin from its top-left texel
//! (`Mod_FloodFillSkin`, `R_FloodFillSkin`): with padding, that texel is the padding corner
//! of the first tile, which repeats the tile's corner colour.

use std::borrow::Cow;
use std::cmp::Reverse;
use std::collections::HashMap;

use super::{Mesh, Model, MorphTarget, Skin};
use crate::image::resample::{resize, rgba_of};
use crate::image::{Image, Pixels};

/// How [`pack_skins`] lays out the atlas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AtlasOptions {
    /// Largest atlas width and height in texels; a packing that is larger shrinks every
    /// picture by one factor until it fits. Default 2048 x 2048.
    pub max_size: [u32; 2],
    /// Each atlas side is a multiple of this (4 for software Quake's MDL skin widths); 0
    /// counts as 1. Default 1.
    pub align: u32,
    /// Texels of edge extension around each tile, against colours bleeding between tiles.
    /// Default 2.
    pub padding: u32,
    /// Most repeats of one picture per axis for wrapping texture coordinates; 0 counts as 1.
    /// Default 4.
    pub max_tiles: u32,
}

impl Default for AtlasOptions {
    fn default() -> Self {
        AtlasOptions {
            max_size: [2048, 2048],
            align: 1,
            padding: 2,
            max_tiles: 4,
        }
    }
}

/// What [`pack_skins`] made.
#[derive(Debug, Clone, PartialEq)]
pub struct Atlased {
    /// The model with one skin (or unchanged, when it used at most one picture).
    pub model: Model,
    /// What was lost or changed for the worse: animated skin groups cut to their first
    /// picture, meshes without a skin, clamped texture coordinates, an atlas that does not
    /// fit.
    pub warnings: Vec<String>,
    /// What was done: the textures packed and the atlas size, repeats, copied vertices, the
    /// shrink factor.
    pub notes: Vec<String>,
}

/// Name of the one skin of a packed model.
const ATLAS_NAME: &str = "atlas";
/// Colour of the tile given to meshes without a skin picture.
const GREY: [u8; 4] = crate::image::UNTEXTURED;
/// Side in texels of the grey tile.
const GREY_SIZE: u32 = 4;
/// Colour of atlas texels no tile covers.
const EMPTY: [u8; 4] = [0, 0, 0, 255];
/// Most packing rounds while shrinking to fit.
const MAX_ROUNDS: usize = 48;

/// One picture of the atlas.
struct Tile<'a> {
    /// The picture; `None` for the grey tile.
    picture: Option<&'a Image>,
    /// How notes and warnings name it (`skin 1 ("mgun.tga")`).
    label: String,
    /// The quoted name for the packing note (`"mgun.tga"`).
    name: String,
    /// Repeats per axis.
    repeat: [u32; 2],
    /// Repeats per axis the triangles would need.
    needed: [u64; 2],
    /// Smallest and largest source coordinate of its triangles, per axis.
    reach: [[f64; 2]; 2],
}

impl Tile<'_> {
    /// The picture's size (the grey tile's for none).
    fn size(&self) -> [u32; 2] {
        self.picture.map_or([GREY_SIZE; 2], |p| [p.width, p.height])
    }
}

/// A packing: where each tile's padded rectangle starts, and the atlas size.
struct Layout {
    at: Vec<[u64; 2]>,
    size: [u64; 2],
}

/// Packs the pictures of the skins `model`'s meshes use into one RGBA atlas skin and remaps
/// their texture coordinates into it (see the module documentation); every mesh then uses
/// skin 0 of the size of the atlas. A model whose meshes all show one picture, or none,
/// comes back unchanged, without notes.
pub fn pack_skins(model: &Model, options: &AtlasOptions) -> Atlased {
    let (mut tiles, tile_of_skin) = skin_tiles(model);
    // A mesh without triangles shows nothing: it asks for no grey tile.
    let pictureless = model.meshes.iter().any(|m| {
        !m.triangles.is_empty()
            && m.skin
                .and_then(|s| tile_of_skin.get(s).copied().flatten())
                .is_none()
    });
    if tiles.is_empty() || (tiles.len() == 1 && !pictureless) {
        return Atlased {
            model: model.clone(),
            warnings: Vec::new(),
            notes: Vec::new(),
        };
    }
    let textures = tiles.len();
    let mut warnings = Vec::new();
    let mut notes = Vec::new();
    warn_animated(model, &tile_of_skin, &mut warnings);
    let (mesh_tile, grey) = mesh_tiles(model, &tile_of_skin, &mut tiles, &mut warnings);
    let shifts = wrap(model, &mesh_tile, &mut tiles, options, &mut warnings);
    let packed = pack_to_fit(&tiles, options, &mut warnings);
    let picture = draw(
        &tiles,
        &packed.sizes,
        &packed.layout,
        packed.atlas_size,
        packed.pad,
        &mut warnings,
    );
    packing_notes(textures, &tiles, &packed, &mut notes);
    let meshes = remap_meshes(
        model, &mesh_tile, &shifts, &tiles, grey, &packed, &mut notes,
    );
    Atlased {
        model: with_atlas(model, meshes, picture),
        warnings,
        notes,
    }
}

/// One tile for the first picture of each skin a mesh uses, pictures equal texel for texel
/// sharing one; and each skin's tile.
fn skin_tiles(model: &Model) -> (Vec<Tile<'_>>, Vec<Option<usize>>) {
    let mut tiles: Vec<Tile> = Vec::new();
    let mut tile_of_skin: Vec<Option<usize>> = vec![None; model.skins.len()];
    for m in &model.meshes {
        let Some(s) = m.skin else { continue };
        let Some(first) = model.skins.get(s).and_then(|k| k.pictures.first()) else {
            continue;
        };
        if tile_of_skin[s].is_some() {
            continue;
        }
        let same = tiles.iter().position(|t| {
            t.picture
                .is_some_and(|p| std::ptr::eq(p, first) || p == first)
        });
        tile_of_skin[s] = Some(same.unwrap_or_else(|| {
            let skin = &model.skins[s];
            let name = if skin.name.is_empty() {
                format!("skin {s}")
            } else {
                format!("\"{}\"", skin.name)
            };
            tiles.push(Tile {
                picture: Some(first),
                label: format!("skin {s} (\"{}\")", skin.name),
                name,
                repeat: [1, 1],
                needed: [1, 1],
                reach: [[f64::INFINITY, f64::NEG_INFINITY]; 2],
            });
            tiles.len() - 1
        }));
    }
    (tiles, tile_of_skin)
}

/// A warning for each packed skin that is an animated group (only its first picture is
/// packed).
fn warn_animated(model: &Model, tile_of_skin: &[Option<usize>], warnings: &mut Vec<String>) {
    for (s, skin) in model.skins.iter().enumerate() {
        if tile_of_skin[s].is_some() && skin.pictures.len() > 1 {
            warnings.push(format!(
                "skin {s} (\"{}\"): an animated group of {} pictures; only the first is packed \
                 (the animation is dropped)",
                skin.name,
                skin.pictures.len()
            ));
        }
    }
}

/// Each mesh's tile, `None` for a mesh without a skin picture; and the grey tile added for
/// those meshes when there are any, with a warning for each.
fn mesh_tiles(
    model: &Model,
    tile_of_skin: &[Option<usize>],
    tiles: &mut Vec<Tile>,
    warnings: &mut Vec<String>,
) -> (Vec<Option<usize>>, Option<usize>) {
    let mesh_tile: Vec<Option<usize>> = model
        .meshes
        .iter()
        .map(|m| m.skin.and_then(|s| tile_of_skin.get(s).copied().flatten()))
        .collect();
    let grey = mesh_tile.contains(&None).then(|| {
        tiles.push(Tile {
            picture: None,
            label: "the grey tile".into(),
            name: String::new(),
            repeat: [1, 1],
            needed: [1, 1],
            reach: [[0.0, 1.0]; 2],
        });
        tiles.len() - 1
    });
    for (mi, m) in model.meshes.iter().enumerate() {
        if mesh_tile[mi].is_none() {
            let why = match m.skin {
                None => "has no skin".to_string(),
                Some(s) if s >= model.skins.len() => format!("refers to missing skin {s}"),
                Some(s) => format!(
                    "uses skin {s} (\"{}\"), whose picture is missing",
                    model.skins[s].name
                ),
            };
            warnings.push(format!(
                "mesh {mi} (\"{}\") {why}: it is drawn from a flat neutral grey tile",
                m.name
            ));
        }
    }
    (mesh_tile, grey)
}

/// Each triangle's move by whole tiles, mesh by mesh, and how many repeats each tile needs,
/// up to [`AtlasOptions::max_tiles`] (a warning for a tile that needs more).
fn wrap(
    model: &Model,
    mesh_tile: &[Option<usize>],
    tiles: &mut [Tile],
    options: &AtlasOptions,
    warnings: &mut Vec<String>,
) -> Vec<Vec<[i64; 2]>> {
    let max_tiles = options.max_tiles.max(1);
    let shifts: Vec<Vec<[i64; 2]>> = model
        .meshes
        .iter()
        .zip(mesh_tile)
        .map(|(m, t)| match t {
            Some(t) => triangle_shifts(m, &mut tiles[*t]),
            None => Vec::new(),
        })
        .collect();
    for t in tiles.iter_mut() {
        t.repeat = t.needed.map(|n| n.min(u64::from(max_tiles)) as u32);
        if t.needed.iter().any(|&n| n > u64::from(max_tiles)) {
            let [[u0, u1], [v0, v1]] = t.reach;
            warnings.push(format!(
                "{}: texture coordinates reach u {u0}..{u1}, v {v0}..{v1} ({}x{} repeats \
                 needed); repeated at most {max_tiles} times per axis, the rest clamped",
                t.label, t.needed[0], t.needed[1]
            ));
        }
    }
    shifts
}

/// A packing that fits (or the last one tried): the tiles' picture sizes in the atlas,
/// where they lie, and how the atlas was bounded.
struct Packed {
    /// Each tile's picture size in the atlas (shrunk by `factor`).
    sizes: Vec<[u32; 2]>,
    layout: Layout,
    /// The atlas size in texels.
    atlas_size: [u32; 2],
    /// The shrink factor, 1 when the pictures fit as they are.
    factor: f64,
    /// The largest atlas allowed, aligned.
    cap: [u64; 2],
    /// Texels of padding around each tile.
    pad: u64,
}

/// Packs the tiles, shrinking every picture by one factor until the atlas fits
/// [`AtlasOptions::max_size`] (a warning when it never does).
fn pack_to_fit(tiles: &[Tile], options: &AtlasOptions, warnings: &mut Vec<String>) -> Packed {
    let align = u64::from(options.align.max(1));
    let pad = u64::from(options.padding);
    let cap = options
        .max_size
        .map(|m| (u64::from(m) / align * align).max(align));
    let mut factor = 1.0f64;
    let mut rounds = 0;
    let (sizes, layout) = loop {
        rounds += 1;
        let sizes: Vec<[u32; 2]> = tiles
            .iter()
            .map(|t| match t.picture {
                Some(p) if factor < 1.0 => [p.width, p.height]
                    .map(|n| ((f64::from(n) * factor).floor() as u32).clamp(1, n.max(1))),
                _ => t.size(),
            })
            .collect();
        let items: Vec<[u64; 2]> = sizes
            .iter()
            .zip(tiles)
            .map(|(s, t)| [0, 1].map(|a| u64::from(s[a]) * u64::from(t.repeat[a]) + 2 * pad))
            .collect();
        let layout = pack(&items, cap, align);
        let fits = layout.size[0] <= cap[0] && layout.size[1] <= cap[1];
        let smallest = tiles
            .iter()
            .zip(&sizes)
            .all(|(t, s)| t.picture.is_none() || *s == [1, 1]);
        if fits || smallest || rounds >= MAX_ROUNDS {
            if !fits {
                warnings.push(format!(
                    "the atlas is {}x{}, larger than the {}x{} limit, even with every picture \
                     shrunk to {factor:.3} of its size",
                    layout.size[0], layout.size[1], cap[0], cap[1]
                ));
            }
            break (sizes, layout);
        }
        let need =
            (cap[0] as f64 / layout.size[0] as f64).min(cap[1] as f64 / layout.size[1] as f64);
        factor *= need.min(0.98);
    };
    let atlas_size = layout.size.map(|n| n.min(u64::from(u32::MAX)) as u32);
    Packed {
        sizes,
        layout,
        atlas_size,
        factor,
        cap,
        pad,
    }
}

/// The notes on the packing: the textures packed and the atlas size, the shrink factor,
/// the repeated tiles.
fn packing_notes(textures: usize, tiles: &[Tile], packed: &Packed, notes: &mut Vec<String>) {
    let (atlas_size, factor, cap) = (packed.atlas_size, packed.factor, packed.cap);
    let grey = if tiles.iter().any(|t| t.picture.is_none()) {
        " and a neutral grey tile"
    } else {
        ""
    };
    let plural = if textures == 1 { "" } else { "s" };
    notes.push(format!(
        "{textures} texture{plural}{grey} packed into one {}x{} skin ({})",
        atlas_size[0],
        atlas_size[1],
        tiles
            .iter()
            .filter(|t| t.picture.is_some())
            .map(|t| t.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if factor < 1.0 {
        notes.push(format!(
            "every picture shrunk to {factor:.3} of its size to fit {}x{}",
            cap[0], cap[1]
        ));
    }
    for t in tiles {
        if t.repeat != [1, 1] {
            notes.push(format!(
                "{} repeated {}x{} times for wrapping texture coordinates",
                t.label, t.repeat[0], t.repeat[1]
            ));
        }
    }
}

/// Every mesh with its texture coordinates moved into the atlas and skin 0 of the atlas's
/// size; a note of the vertices copied for wrapping, if any.
fn remap_meshes(
    model: &Model,
    mesh_tile: &[Option<usize>],
    shifts: &[Vec<[i64; 2]>],
    tiles: &[Tile],
    grey: Option<usize>,
    packed: &Packed,
    notes: &mut Vec<String>,
) -> Vec<Mesh> {
    let Packed {
        sizes,
        layout,
        atlas_size,
        pad,
        ..
    } = packed;
    let place = |t: usize| Place {
        origin: [0, 1].map(|a| (layout.at[t][a] + pad) as f64),
        texels: sizes[t].map(f64::from),
        repeat: tiles[t].repeat.map(f64::from),
        atlas: atlas_size.map(f64::from),
    };
    let mut copied = 0;
    let meshes: Vec<Mesh> = model
        .meshes
        .iter()
        .zip(mesh_tile)
        .zip(shifts)
        .map(|((m, t), shifts)| {
            let (mesh, copies) = match (t, grey) {
                (Some(t), _) => remap(m, shifts, &tiles[*t], &place(*t)),
                (None, Some(g)) => (grey_mesh(m, &place(g)), 0),
                (None, None) => (m.clone(), 0),
            };
            copied += copies;
            Mesh {
                skin: Some(0),
                skin_size: Some(*atlas_size),
                ..mesh
            }
        })
        .collect();
    if copied > 0 {
        notes.push(format!(
            "{copied} vertices copied where triangles sharing them wrap by different whole tiles"
        ));
    }
    meshes
}

/// `model` with `meshes` and the one atlas skin holding `picture`; everything else cloned.
fn with_atlas(model: &Model, meshes: Vec<Mesh>, picture: Image) -> Model {
    let Model {
        meshes: _,
        frames,
        clips,
        skins: _,
        joints,
        animations,
        animation_scales,
        camera,
        nodes,
        mdl_extras,
        // One atlas skin: the effects of the skins it joins are not one skin's.
        skin_effects: _,
        animation_events,
    } = model;
    Model {
        meshes,
        frames: frames.clone(),
        clips: clips.clone(),
        skins: vec![Skin {
            name: ATLAS_NAME.into(),
            pictures: vec![picture],
            picture_times: None,
            source: None,
        }],
        joints: joints.clone(),
        animations: animations.clone(),
        animation_scales: animation_scales.clone(),
        camera: camera.clone(),
        nodes: nodes.clone(),
        mdl_extras: *mdl_extras,
        skin_effects: Vec::new(),
        animation_events: animation_events.clone(),
    }
}

/// Where a tile's picture lies in the atlas.
struct Place {
    /// Texel of the picture's first copy (past the padding).
    origin: [f64; 2],
    /// The picture's size in the atlas (shrunk, when the atlas was).
    texels: [f64; 2],
    /// Copies per axis.
    repeat: [f64; 2],
    /// The atlas size.
    atlas: [f64; 2],
}

impl Place {
    /// Atlas coordinates of a tile-local coordinate (`0..repeat` per axis), clamped to the
    /// repeated region.
    fn map(&self, local: [f64; 2]) -> [f32; 2] {
        std::array::from_fn(|a| {
            let l = local[a].clamp(0.0, self.repeat[a]);
            ((self.origin[a] + l * self.texels[a]) / self.atlas[a]) as f32
        })
    }
}

/// A coordinate as a number: non-finite values count as 0.
fn coordinate(c: f32) -> f64 {
    if c.is_finite() {
        f64::from(c)
    } else {
        0.0
    }
}

/// The tolerance on each axis, in texture coordinates, under which a coordinate counts as on
/// a tile boundary: a 256th of a texel, the writers' own (`texel()`).
fn tolerance(tile: &Tile) -> [f64; 2] {
    tile.size().map(|n| 1.0 / (256.0 * f64::from(n.max(1))))
}

/// The whole-tile move of a coordinate range starting at `lo`: `lo` lands in `[0, 1)`.
fn shift_of(lo: f64, eps: f64) -> i64 {
    (lo + eps).floor().clamp(-1e15, 1e15) as i64
}

/// Each triangle's move by whole tiles (so its smallest coordinates lie in `[0, 1)`), with
/// the repeats and reach it adds to `tile`.
fn triangle_shifts(mesh: &Mesh, tile: &mut Tile) -> Vec<[i64; 2]> {
    let eps = tolerance(tile);
    let uv = |v: u32| -> [f64; 2] {
        mesh.uvs
            .get(v as usize)
            .map_or([0.0; 2], |c| c.map(coordinate))
    };
    mesh.triangles
        .iter()
        .map(|tri| {
            let c = tri.map(uv);
            std::array::from_fn(|a| {
                let lo = c.iter().map(|p| p[a]).fold(f64::INFINITY, f64::min);
                let hi = c.iter().map(|p| p[a]).fold(f64::NEG_INFINITY, f64::max);
                let shift = shift_of(lo, eps[a]);
                let need = (hi - shift as f64 - eps[a]).ceil().clamp(1.0, 1e15) as u64;
                tile.needed[a] = tile.needed[a].max(need);
                tile.reach[a] = [tile.reach[a][0].min(lo), tile.reach[a][1].max(hi)];
                shift
            })
        })
        .collect()
}

/// `mesh` with its texture coordinates in `tile` at `place`, and the number of vertices
/// copied because triangles sharing them moved by different whole tiles.
fn remap(mesh: &Mesh, shifts: &[[i64; 2]], tile: &Tile, place: &Place) -> (Mesh, usize) {
    let n = mesh.positions.len();
    let mut shift_of_vertex: Vec<Option<[i64; 2]>> = vec![None; n];
    let mut copies: Vec<(u32, [i64; 2])> = Vec::new();
    let mut copy_index: HashMap<(u32, [i64; 2]), u32> = HashMap::new();
    let triangles: Vec<[u32; 3]> = mesh
        .triangles
        .iter()
        .zip(shifts)
        .map(|(tri, &s)| {
            tri.map(|v| match shift_of_vertex.get(v as usize) {
                None => v,
                Some(None) => {
                    shift_of_vertex[v as usize] = Some(s);
                    v
                }
                Some(Some(own)) if *own == s => v,
                Some(Some(_)) => *copy_index.entry((v, s)).or_insert_with(|| {
                    copies.push((v, s));
                    (n + copies.len() - 1) as u32
                }),
            })
        })
        .collect();
    let eps = tolerance(tile);
    let uv_at = |v: usize, shift: Option<[i64; 2]>| -> [f32; 2] {
        let c = mesh.uvs.get(v).map_or([0.0; 2], |c| c.map(coordinate));
        // A vertex no triangle uses moves like a triangle of its own.
        let s = shift.unwrap_or_else(|| std::array::from_fn(|a| shift_of(c[a], eps[a])));
        place.map(std::array::from_fn(|a| c[a] - s[a] as f64))
    };
    let mut uvs: Vec<[f32; 2]> = (0..mesh.uvs.len())
        .map(|v| uv_at(v, shift_of_vertex.get(v).copied().flatten()))
        .collect();
    uvs.extend(copies.iter().map(|&(v, s)| uv_at(v as usize, Some(s))));
    let Mesh {
        name,
        positions,
        normals,
        uvs: _,
        triangles: _,
        morph_targets,
        source_vertices,
        skin,
        joint_weights,
        skin_size,
    } = mesh;
    let mesh = Mesh {
        name: name.clone(),
        positions: with_copies(positions, &copies),
        normals: with_copies(normals, &copies),
        uvs,
        triangles,
        morph_targets: morph_targets
            .iter()
            .map(|t| MorphTarget {
                positions: with_copies(&t.positions, &copies),
                normals: with_copies(&t.normals, &copies),
            })
            .collect(),
        source_vertices: with_copies(source_vertices, &copies),
        skin: *skin,
        joint_weights: with_copies(joint_weights, &copies),
        skin_size: *skin_size,
    };
    (mesh, copies.len())
}

/// `values` followed by the values of the copied vertices (an empty per-vertex array stays
/// empty).
fn with_copies<T: Clone>(values: &[T], copies: &[(u32, [i64; 2])]) -> Vec<T> {
    let mut out = Vec::with_capacity(values.len() + copies.len());
    out.extend_from_slice(values);
    out.extend(
        copies
            .iter()
            .filter_map(|&(v, _)| values.get(v as usize).cloned()),
    );
    out
}

/// `mesh` with every texture coordinate at the centre of the grey tile.
fn grey_mesh(mesh: &Mesh, place: &Place) -> Mesh {
    let centre = place.map([0.5, 0.5]);
    Mesh {
        uvs: vec![centre; mesh.uvs.len()],
        ..mesh.clone()
    }
}

/// The best shelf packing of `items` (padded rectangle sizes) within `cap`, sides rounded
/// up to multiples of `align`: among several atlas widths, one that fits with the smallest
/// area (then the squarest), or, when none fits, the one needing the least shrinking.
fn pack(items: &[[u64; 2]], cap: [u64; 2], align: u64) -> Layout {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| (Reverse(items[i][1]), Reverse(items[i][0]), i));
    let widest = items.iter().map(|s| s[0]).max().unwrap_or(0);
    let mut widths = vec![widest, cap[0]];
    let mut sum = 0;
    for &i in &order {
        sum += items[i][0];
        widths.push(sum);
    }
    let total: u64 = items.iter().map(|s| s[0] * s[1]).sum();
    widths.push((total as f64).sqrt().ceil() as u64);
    widths.retain(|&w| w >= widest);
    widths.sort_unstable();
    widths.dedup();
    let up = |n: u64| n.div_ceil(align) * align;
    let mut best: Option<(Layout, (bool, f64, u64, u64))> = None;
    for width in widths {
        let (at, [w, h]) = shelves(items, &order, width);
        let size = [up(w), up(h)];
        let fits = size[0] <= cap[0] && size[1] <= cap[1];
        // Smaller is better: area when it fits, otherwise the shrinking needed.
        let measure = if fits {
            (size[0] * size[1]) as f64
        } else {
            (size[0] as f64 / cap[0] as f64).max(size[1] as f64 / cap[1] as f64)
        };
        let key = (!fits, measure, size[0].max(size[1]), size[0]);
        let better = |b: &(bool, f64, u64, u64)| {
            key.0
                .cmp(&b.0)
                .then(key.1.total_cmp(&b.1))
                .then(key.2.cmp(&b.2))
                .then(key.3.cmp(&b.3))
                .is_lt()
        };
        if best.as_ref().is_none_or(|(_, b)| better(b)) {
            best = Some((Layout { at, size }, key));
        }
    }
    best.map_or(
        Layout {
            at: Vec::new(),
            size: [align; 2],
        },
        |(l, _)| l,
    )
}

/// Shelf packing of `items` in `order` into rows at most `width` wide (an item wider than
/// that gets a row of its own): each item's top-left corner and the used size.
fn shelves(items: &[[u64; 2]], order: &[usize], width: u64) -> (Vec<[u64; 2]>, [u64; 2]) {
    let mut at = vec![[0, 0]; items.len()];
    let (mut x, mut y, mut row, mut used) = (0, 0, 0, 0);
    for &i in order {
        let [w, h] = items[i];
        if x > 0 && x + w > width {
            y += row;
            x = 0;
            row = 0;
        }
        at[i] = [x, y];
        x += w;
        row = row.max(h);
        used = used.max(x);
    }
    (at, [used, y + row])
}

/// The atlas picture: each tile's picture (shrunk to `sizes`) repeated and padded at its
/// place, the rest [`EMPTY`].
fn draw(
    tiles: &[Tile],
    sizes: &[[u32; 2]],
    layout: &Layout,
    size: [u32; 2],
    pad: u64,
    warnings: &mut Vec<String>,
) -> Image {
    let aw = size[0] as usize;
    let mut pixels = EMPTY.repeat(aw * size[1] as usize);
    let pad = pad as usize;
    for ((tile, &[pw, ph]), at) in tiles.iter().zip(sizes).zip(&layout.at) {
        let src: Cow<[u8]> = match tile.picture {
            None => Cow::Owned(GREY.repeat((pw * ph) as usize)),
            Some(p) if [p.width, p.height] == [pw, ph] => rgba_of(p),
            Some(p) => Cow::Owned(into_rgba(resize(p, pw, ph))),
        };
        let (pw, ph) = (pw as usize, ph as usize);
        let src = if src.len() == pw * ph * 4 {
            src
        } else {
            warnings.push(format!(
                "{}: {} bytes of pixels for {pw}x{ph}; drawn grey",
                tile.label,
                src.len()
            ));
            Cow::Owned(GREY.repeat(pw * ph))
        };
        let [rx, ry] = tile.repeat.map(|n| n as usize);
        let (x0, y0) = (at[0] as usize + pad, at[1] as usize + pad);
        let (rw, rh) = (pw * rx, ph * ry);
        if rw == 0 || rh == 0 {
            continue;
        }
        for ty in 0..rh {
            let sy = ty % ph;
            let line = &src[sy * pw * 4..(sy + 1) * pw * 4];
            let start = ((y0 + ty) * aw + x0) * 4;
            for k in 0..rx {
                pixels[start + k * pw * 4..start + (k + 1) * pw * 4].copy_from_slice(line);
            }
            let first: [u8; 4] = pixels[start..start + 4].try_into().unwrap_or(EMPTY);
            let end = start + rw * 4;
            let last: [u8; 4] = pixels[end - 4..end].try_into().unwrap_or(EMPTY);
            for p in 1..=pad {
                pixels[start - p * 4..start - (p - 1) * 4].copy_from_slice(&first);
                pixels[end + (p - 1) * 4..end + p * 4].copy_from_slice(&last);
            }
        }
        let span = (rw + 2 * pad) * 4;
        let row_at = |y: usize| (y * aw + x0 - pad) * 4;
        for p in 1..=pad {
            pixels.copy_within(row_at(y0)..row_at(y0) + span, row_at(y0 - p));
            let bottom = y0 + rh - 1;
            pixels.copy_within(row_at(bottom)..row_at(bottom) + span, row_at(bottom + p));
        }
    }
    Image::new(size[0], size[1], Pixels::Rgba8(pixels))
}

/// The RGBA8 pixels of a picture, without a copy when it already is RGBA8.
fn into_rgba(image: Image) -> Vec<u8> {
    match image.pixels {
        Pixels::Rgba8(p) => p,
        Pixels::Indexed { .. } => image.to_rgba8(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::image::Palette;
    use crate::model::{Frame, Influences, Joint};
    use std::sync::Arc;

    /// A `w` x `h` RGBA picture coloured by `px(x, y)`.
    fn picture(w: u32, h: u32, px: impl Fn(u32, u32) -> [u8; 4]) -> Image {
        let mut data = Vec::with_capacity((w * h * 4) as usize);
        for y in 0..h {
            for x in 0..w {
                data.extend_from_slice(&px(x, y));
            }
        }
        Image::new(w, h, Pixels::Rgba8(data))
    }

    /// A picture whose texels all differ (and differ from those of another `seed`).
    fn pattern(w: u32, h: u32, seed: u8) -> Image {
        picture(w, h, |x, y| {
            [
                (x * 16 + 5) as u8,
                (y * 16 + 7) as u8,
                seed.wrapping_mul(60).wrapping_add(20),
                255,
            ]
        })
    }

    fn skin(name: &str, pictures: Vec<Image>) -> Skin {
        Skin {
            name: name.into(),
            pictures,
            picture_times: None,
            source: None,
        }
    }

    /// The texel of `image` holding `uv` by the MDL and MD2 writers' rule (a 256th of a
    /// texel below an edge counts as past it), clamped, as RGBA.
    fn sample(image: &Image, uv: [f32; 2]) -> [u8; 4] {
        let at = |c: f32, n: u32| {
            ((c as f64 * n as f64 + 1.0 / 256.0).floor().max(0.0) as u32).min(n - 1)
        };
        let (x, y) = (at(uv[0], image.width), at(uv[1], image.height));
        let rgba = rgba_of(image);
        let i = ((y * image.width + x) * 4) as usize;
        rgba[i..i + 4].try_into().unwrap()
    }

    /// [`sample`] of a picture that repeats outside `[0, 1]`.
    fn sample_wrapped(image: &Image, uv: [f32; 2]) -> [u8; 4] {
        sample(image, uv.map(|c| c.rem_euclid(1.0)))
    }

    fn pixel(image: &Image, x: u32, y: u32) -> [u8; 4] {
        sample(
            image,
            [
                (x as f32 + 0.5) / image.width as f32,
                (y as f32 + 0.5) / image.height as f32,
            ],
        )
    }

    fn centroid(m: &Mesh, tri: [u32; 3]) -> [f32; 2] {
        let c = tri.map(|v| m.uvs[v as usize]);
        [0, 1].map(|a| (c[0][a] + c[1][a] + c[2][a]) / 3.0)
    }

    /// A mesh of an `n` x `n` grid of quads spanning `lo..hi` in texture space (two triangles
    /// a quad), with two frames of morph targets.
    fn grid(n: u32, lo: [f32; 2], hi: [f32; 2], skin: Option<usize>) -> Mesh {
        let mut uvs = Vec::new();
        let mut positions = Vec::new();
        for j in 0..=n {
            for i in 0..=n {
                let f = [i as f32 / n as f32, j as f32 / n as f32];
                uvs.push([0, 1].map(|a| lo[a] + f[a] * (hi[a] - lo[a])));
                positions.push([i as f32, j as f32, 0.0]);
            }
        }
        let mut triangles = Vec::new();
        for j in 0..n {
            for i in 0..n {
                let v = j * (n + 1) + i;
                triangles.push([v, v + 1, v + n + 2]);
                triangles.push([v, v + n + 2, v + n + 1]);
            }
        }
        let count = positions.len();
        let target = |dz: f32| MorphTarget {
            positions: positions.iter().map(|p| [p[0], p[1], dz]).collect(),
            normals: vec![[0.0, 0.0, 1.0]; count],
        };
        Mesh {
            name: format!("grid{n}"),
            morph_targets: vec![target(0.0), target(1.0)],
            normals: vec![[0.0, 0.0, 1.0]; count],
            source_vertices: (0..count as u32).collect(),
            uvs,
            positions,
            triangles,
            skin,
            skin_size: None,
            joint_weights: Vec::new(),
        }
    }

    fn model(meshes: Vec<Mesh>, skins: Vec<Skin>) -> Model {
        Model {
            meshes,
            frames: ["a", "b"]
                .map(|n| Frame {
                    name: n.into(),
                    ..Frame::default()
                })
                .to_vec(),
            skins,
            ..Model::default()
        }
    }

    /// For every triangle of every mesh: the atlas colour at the remapped centroid against
    /// the source picture's colour at the original centroid (repeating). Returns the
    /// mismatches as messages.
    fn centroid_mismatches(before: &Model, after: &Model) -> Vec<String> {
        let atlas = &after.skins[0].pictures[0];
        let mut bad = Vec::new();
        for (mi, (old, new)) in before.meshes.iter().zip(&after.meshes).enumerate() {
            assert_eq!(old.triangles.len(), new.triangles.len());
            let source = old.skin.and_then(|s| before.skins.get(s)?.pictures.first());
            for (ti, (&a, &b)) in old.triangles.iter().zip(&new.triangles).enumerate() {
                let want = source.map_or(GREY, |p| sample_wrapped(p, centroid(old, a)));
                let got = sample(atlas, centroid(new, b));
                if want != got {
                    bad.push(format!("mesh {mi} triangle {ti}: {got:?}, want {want:?}"));
                }
            }
        }
        bad
    }

    /// The atlas texel of a mesh vertex's texture coordinate, rounded (a tile corner).
    fn texel_of(atlas: &Image, uv: [f32; 2]) -> [u32; 2] {
        [
            (uv[0] * atlas.width as f32).round() as u32,
            (uv[1] * atlas.height as f32).round() as u32,
        ]
    }

    #[test]
    fn two_skins_become_one_atlas_with_every_colour_in_place() {
        // Solid colours (the simple case) and patterns (every texel distinct: the real check
        // that each coordinate lands on its own texel), one of them indexed.
        let indexed = Image::new(
            4,
            4,
            Pixels::Indexed {
                indices: (0..16).map(|i| i * 7 + 3).collect(),
                palette: Arc::new(Palette::QUAKE),
                fullbright_start: None,
                transparent_index: None,
            },
        );
        let cases = [
            (
                picture(4, 4, |_, _| [200, 0, 0, 255]),
                picture(4, 4, |_, _| [0, 0, 200, 255]),
            ),
            (pattern(4, 4, 1), pattern(8, 4, 2)),
            (indexed, pattern(3, 5, 3)),
        ];
        for (a, b) in cases {
            let before = model(
                vec![
                    grid(6, [0.0; 2], [1.0; 2], Some(0)),
                    grid(5, [0.0; 2], [1.0; 2], Some(1)),
                ],
                vec![skin("a.png", vec![a]), skin("b.tga", vec![b])],
            );
            let out = pack_skins(&before, &AtlasOptions::default());
            let m = &out.model;
            assert!(out.warnings.is_empty(), "{:?}", out.warnings);
            m.validate().unwrap();
            assert_eq!(m.skins.len(), 1);
            assert_eq!(m.skins[0].name, "atlas");
            let atlas = &m.skins[0].pictures[0];
            assert!(m
                .meshes
                .iter()
                .all(|x| x.skin == Some(0) && x.skin_size == Some([atlas.width, atlas.height])));
            assert_eq!(
                out.notes,
                [format!(
                    "2 textures packed into one {}x{} skin (\"a.png\", \"b.tga\")",
                    atlas.width, atlas.height
                )]
            );
            assert_eq!(centroid_mismatches(&before, m), Vec::<String>::new());
            // Every texel centre of each source picture lands on the same colour.
            for (mi, mesh) in before.meshes.iter().enumerate() {
                let src = &before.skins[mi].pictures[0];
                let origin = texel_of(atlas, m.meshes[mi].uvs[0]);
                for y in 0..src.height {
                    for x in 0..src.width {
                        assert_eq!(
                            pixel(atlas, origin[0] + x, origin[1] + y),
                            pixel(src, x, y),
                            "mesh {mi} texel ({x}, {y})"
                        );
                    }
                }
                assert_eq!(mesh.positions.len(), m.meshes[mi].positions.len());
            }
        }
    }

    #[test]
    fn padding_repeats_the_edge_texels() {
        let before = model(
            vec![
                grid(1, [0.0; 2], [1.0; 2], Some(0)),
                grid(1, [0.0; 2], [1.0; 2], Some(1)),
            ],
            vec![
                skin("a", vec![pattern(4, 4, 1)]),
                skin("b", vec![pattern(5, 3, 2)]),
            ],
        );
        for padding in [1, 2, 3] {
            let options = AtlasOptions {
                padding,
                ..AtlasOptions::default()
            };
            let out = pack_skins(&before, &options);
            let atlas = &out.model.skins[0].pictures[0];
            for (mi, mesh) in out.model.meshes.iter().enumerate() {
                let src = &before.skins[mi].pictures[0];
                let (w, h) = (src.width, src.height);
                // Vertex 0 has coordinate (0, 0): the tile's corner.
                let [x0, y0] = texel_of(atlas, mesh.uvs[0]);
                assert!(x0 >= padding && y0 >= padding);
                for p in 1..=padding {
                    for y in y0..y0 + h {
                        assert_eq!(pixel(atlas, x0 - p, y), pixel(atlas, x0, y));
                        assert_eq!(pixel(atlas, x0 + w - 1 + p, y), pixel(atlas, x0 + w - 1, y));
                    }
                    for x in x0 - padding..x0 + w + padding {
                        assert_eq!(pixel(atlas, x, y0 - p), pixel(atlas, x, y0));
                        assert_eq!(pixel(atlas, x, y0 + h - 1 + p), pixel(atlas, x, y0 + h - 1));
                    }
                }
                // The corner diagonal repeats the corner texel.
                assert_eq!(pixel(atlas, x0 - padding, y0 - padding), pixel(src, 0, 0));
            }
        }
    }

    #[test]
    fn wrapping_coordinates_repeat_the_picture() {
        // Mesh 0 spans u 0..2 and v -1..1 of a 4x4 picture in 3x3 quads of 2/3 a side: the
        // middle column and row cross a tile edge, so two repeats a side.
        let before = model(
            vec![
                grid(3, [0.0, -1.0], [2.0, 1.0], Some(0)),
                grid(2, [0.0; 2], [1.0; 2], Some(1)),
            ],
            vec![
                skin("wall", vec![pattern(4, 4, 1)]),
                skin("b", vec![pattern(4, 4, 2)]),
            ],
        );
        let out = pack_skins(&before, &AtlasOptions::default());
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert!(
            out.notes.contains(
                &"skin 0 (\"wall\") repeated 2x2 times for wrapping texture coordinates".into()
            ),
            "{:?}",
            out.notes
        );
        let m = &out.model;
        m.validate().unwrap();
        let atlas = &m.skins[0].pictures[0];
        // The region holds the picture twice each way.
        let corner = m.meshes[0]
            .uvs
            .iter()
            .map(|&uv| texel_of(atlas, uv))
            .min()
            .unwrap();
        for y in 0..8 {
            for x in 0..8 {
                assert_eq!(
                    pixel(atlas, corner[0] + x, corner[1] + y),
                    pixel(&before.skins[0].pictures[0], x % 4, y % 4)
                );
            }
        }
        assert_eq!(centroid_mismatches(&before, m), Vec::<String>::new());
        // The last column and row move by a tile and leave their shared vertices behind.
        assert!(
            out.notes.iter().any(|n| n.ends_with(
                "vertices copied where triangles sharing them \
                 wrap by different whole tiles"
            )),
            "{:?}",
            out.notes
        );
        // A grid of unit cells needs no repeat at all: each cell moves onto the tile.
        let cells = model(
            vec![
                grid(3, [0.0; 2], [3.0; 2], Some(0)),
                grid(1, [0.0; 2], [1.0; 2], Some(1)),
            ],
            before.skins.clone(),
        );
        let out = pack_skins(&cells, &AtlasOptions::default());
        assert!(
            out.notes.iter().all(|n| !n.contains("repeated")),
            "{:?}",
            out.notes
        );
        assert_eq!(
            centroid_mismatches(&cells, &out.model),
            Vec::<String>::new()
        );
    }

    #[test]
    fn triangles_moving_differently_split_their_shared_vertices() {
        // A strip around a cylinder: triangles at u 0.5..1 and 1..1.5 share the vertices at
        // u = 1, which are 1 in the first and 0 in the second after the move.
        let mut mesh = grid(1, [0.5, 0.0], [1.0, 1.0], Some(0));
        let mut right = grid(1, [1.0, 0.0], [1.5, 1.0], Some(0));
        // Merge the two quads, sharing vertices 1 and 3 of the left one (u = 1).
        let remap = [1, 4, 3, 5];
        right
            .triangles
            .iter_mut()
            .for_each(|t| *t = t.map(|v| remap[v as usize]));
        mesh.uvs.extend([right.uvs[1], right.uvs[3]]);
        mesh.positions.extend([[2.0, 0.0, 0.0], [2.0, 1.0, 0.0]]);
        mesh.normals.extend([[0.0, 0.0, 1.0]; 2]);
        mesh.source_vertices.extend([4, 5]);
        for (k, t) in mesh.morph_targets.iter_mut().enumerate() {
            t.positions
                .extend([[2.0, 0.0, k as f32], [2.0, 1.0, k as f32]]);
            t.normals.extend([[0.0, 0.0, 1.0]; 2]);
        }
        mesh.triangles.extend(right.triangles);
        mesh.joint_weights = (0..6)
            .map(|v| Influences::from_slice(&[(0, 1.0 - v as f32 * 0.1)]))
            .collect();
        let mut before = model(
            vec![mesh, grid(1, [0.0; 2], [1.0; 2], Some(1))],
            vec![
                skin("a", vec![pattern(8, 2, 1)]),
                skin("b", vec![pattern(2, 2, 2)]),
            ],
        );
        before.joints = vec![Joint {
            name: "root".into(),
            parent: None,
            translation: [0.0; 3],
            rotation: [0.0, 0.0, 0.0, 1.0],
        }];
        before.validate().unwrap();
        let out = pack_skins(&before, &AtlasOptions::default());
        let (old, new) = (&before.meshes[0], &out.model.meshes[0]);
        out.model.validate().unwrap();
        assert_eq!(new.positions.len(), 8, "the two shared vertices are copied");
        assert!(out.notes.contains(
            &"2 vertices copied where triangles sharing them wrap by different whole tiles".into()
        ));
        for (copy, orig) in [(6, 1), (7, 3)] {
            assert_eq!(new.positions[copy], old.positions[orig]);
            assert_eq!(new.normals[copy], old.normals[orig]);
            assert_eq!(new.source_vertices[copy], old.source_vertices[orig]);
            assert_eq!(new.joint_weights[copy], old.joint_weights[orig]);
            for (t_new, t_old) in new.morph_targets.iter().zip(&old.morph_targets) {
                assert_eq!(t_new.positions[copy], t_old.positions[orig]);
                assert_eq!(t_new.normals[copy], t_old.normals[orig]);
            }
            // The original sits on the tile's right edge, the copy on its left edge.
            assert!(new.uvs[orig][0] > new.uvs[copy][0]);
        }
        // One repeat is enough.
        assert!(
            out.notes.iter().all(|n| !n.contains("repeated")),
            "{:?}",
            out.notes
        );
        assert_eq!(
            centroid_mismatches(&before, &out.model),
            Vec::<String>::new()
        );
    }

    #[test]
    fn coordinates_beyond_max_tiles_are_clamped_with_a_warning() {
        let before = model(
            vec![
                grid(1, [0.0; 2], [6.5, 1.0], Some(0)),
                grid(1, [0.0; 2], [1.0; 2], Some(1)),
            ],
            vec![
                skin("floor", vec![pattern(4, 4, 1)]),
                skin("b", vec![pattern(4, 4, 2)]),
            ],
        );
        let out = pack_skins(&before, &AtlasOptions::default());
        assert_eq!(
            out.warnings,
            ["skin 0 (\"floor\"): texture coordinates reach u 0..6.5, v 0..1 (7x1 repeats needed); \
              repeated at most 4 times per axis, the rest clamped"]
        );
        let atlas = &out.model.skins[0].pictures[0];
        let corner = texel_of(atlas, out.model.meshes[0].uvs[0]);
        for uv in &out.model.meshes[0].uvs {
            let [x, y] = texel_of(atlas, *uv);
            assert!(x >= corner[0] && x <= corner[0] + 16, "{x}");
            assert!(y >= corner[1] && y <= corner[1] + 4, "{y}");
        }
        // Both triangles reach past the fourth repeat: clamping moves their centroids.
        let bad = centroid_mismatches(&before, &out.model);
        assert_eq!(bad.len(), 2, "{bad:?}");
        assert!(bad.iter().all(|b| b.starts_with("mesh 0")));
    }

    #[test]
    fn one_picture_is_left_alone() {
        let shared = pattern(4, 4, 1);
        // Two meshes on one skin; and two skins holding the same picture.
        for skins in [
            vec![skin("a", vec![shared.clone()])],
            vec![
                skin("a", vec![shared.clone()]),
                skin("b", vec![shared.clone()]),
            ],
        ] {
            let last = skins.len() - 1;
            let before = model(
                vec![
                    grid(2, [0.0; 2], [3.0; 2], Some(0)),
                    grid(1, [0.0; 2], [1.0; 2], Some(last)),
                ],
                skins,
            );
            let out = pack_skins(&before, &AtlasOptions::default());
            assert_eq!(out.model, before);
            assert!(out.notes.is_empty() && out.warnings.is_empty());
        }
        // No skin at all.
        let bare = model(vec![grid(1, [0.0; 2], [1.0; 2], None)], Vec::new());
        assert_eq!(pack_skins(&bare, &AtlasOptions::default()).model, bare);
    }

    #[test]
    fn an_atlas_too_large_shrinks_every_picture_by_one_factor() {
        // 4x4 blocks of 16x16 texels, each block one colour; small triangles around each
        // block's centre.
        let blocks = |seed: u8| {
            picture(64, 64, move |x, y| {
                let (bx, by) = ((x / 16) as u8, (y / 16) as u8);
                [bx * 60 + 10, by * 60 + 10, seed * 100 + 20, 255]
            })
        };
        let centres = |skin: usize| {
            let mut m = grid(1, [0.0; 2], [1.0; 2], Some(skin));
            m.triangles.clear();
            for by in 0..4 {
                for bx in 0..4 {
                    let c = [
                        (bx as f32 * 16.0 + 8.0) / 64.0,
                        (by as f32 * 16.0 + 8.0) / 64.0,
                    ];
                    let base = m.uvs.len() as u32;
                    for d in [[-0.01, -0.01], [0.02, 0.0], [0.0, 0.02]] {
                        m.uvs.push([c[0] + d[0], c[1] + d[1]]);
                        m.positions.push([0.0; 3]);
                        m.normals.push([0.0, 0.0, 1.0]);
                        m.source_vertices.push(base);
                        for t in &mut m.morph_targets {
                            t.positions.push([0.0; 3]);
                            t.normals.push([0.0, 0.0, 1.0]);
                        }
                    }
                    m.triangles.push([base, base + 1, base + 2]);
                }
            }
            m
        };
        let before = model(
            vec![centres(0), centres(1)],
            vec![skin("a", vec![blocks(0)]), skin("b", vec![blocks(1)])],
        );
        let options = AtlasOptions {
            max_size: [64, 64],
            align: 4,
            ..AtlasOptions::default()
        };
        let out = pack_skins(&before, &options);
        let atlas = &out.model.skins[0].pictures[0];
        assert!(
            atlas.width <= 64 && atlas.height <= 64,
            "{}x{}",
            atlas.width,
            atlas.height
        );
        assert_eq!((atlas.width % 4, atlas.height % 4), (0, 0));
        assert!(out.warnings.is_empty(), "{:?}", out.warnings);
        assert!(
            out.notes
                .iter()
                .any(|n| n.starts_with("every picture shrunk to 0.")
                    && n.ends_with("of its size to fit 64x64")),
            "{:?}",
            out.notes
        );
        assert_eq!(
            centroid_mismatches(&before, &out.model),
            Vec::<String>::new()
        );
        // Without a limit, no shrinking.
        let roomy = pack_skins(&before, &AtlasOptions::default());
        assert!(roomy.notes.iter().all(|n| !n.contains("shrunk")));
        let big = &roomy.model.skins[0].pictures[0];
        assert!(big.width >= 64 + 4 && big.height >= 64 + 4);
    }

    #[test]
    fn alignment_alpha_untextured_meshes_and_skin_groups() {
        let holes = picture(3, 5, |x, y| {
            if (x + y) % 2 == 0 {
                [250, 10, 10, 0]
            } else {
                [10, 250, 10, 255]
            }
        });
        let before = model(
            vec![
                grid(3, [0.0; 2], [1.0; 2], Some(0)),
                grid(2, [0.0; 2], [1.0; 2], Some(1)),
                grid(1, [0.3; 2], [0.6; 2], None),
                grid(1, [0.0; 2], [1.0; 2], Some(2)),
            ],
            vec![
                skin("cutout", vec![holes]),
                skin("anim", vec![pattern(5, 3, 2), pattern(5, 3, 3)]),
                skin("empty", Vec::new()),
            ],
        );
        let options = AtlasOptions {
            align: 4,
            padding: 1,
            ..AtlasOptions::default()
        };
        let out = pack_skins(&before, &options);
        assert_eq!(
            out.warnings,
            [
                "skin 1 (\"anim\"): an animated group of 2 pictures; only the first is packed \
                 (the animation is dropped)",
                "mesh 2 (\"grid1\") has no skin: it is drawn from a flat neutral grey tile",
                "mesh 3 (\"grid1\") uses skin 2 (\"empty\"), whose picture is missing: it is \
                 drawn from a flat neutral grey tile",
            ]
        );
        let m = &out.model;
        m.validate().unwrap();
        let atlas = &m.skins[0].pictures[0];
        assert_eq!((atlas.width % 4, atlas.height % 4), (0, 0));
        // Cut-outs keep alpha 0 (and their colour), opaque texels stay opaque.
        assert_eq!(centroid_mismatches(&before, m), Vec::<String>::new());
        let corner = texel_of(atlas, m.meshes[0].uvs[0]);
        assert_eq!(pixel(atlas, corner[0], corner[1]), [250, 10, 10, 0]);
        assert_eq!(pixel(atlas, corner[0] + 1, corner[1]), [10, 250, 10, 255]);
        // Untextured meshes sample grey everywhere.
        for mesh in &m.meshes[2..] {
            assert!(mesh.uvs.iter().all(|&uv| sample(atlas, uv) == GREY));
        }
        assert!(out.notes[0].starts_with("2 textures and a neutral grey tile packed into one "));
        // Texels no tile covers are opaque black.
        let Pixels::Rgba8(px) = &atlas.pixels else {
            unreachable!()
        };
        assert!(px
            .chunks_exact(4)
            .all(|p| p[3] == 255 || p == [250, 10, 10, 0]));
    }

    /// Issue 44: one picture found and one missing. Before, the model came back unchanged
    /// and the writer showed the found picture on every part; now the missing one's mesh
    /// gets the neutral grey tile and the found one keeps its texels.
    #[test]
    fn one_picture_and_one_missing_make_an_atlas_with_neutral_grey() {
        let before = model(
            vec![
                grid(2, [0.0; 2], [1.0; 2], Some(0)),
                grid(1, [0.0; 2], [1.0; 2], Some(1)),
            ],
            vec![
                skin("found", vec![pattern(8, 4, 1)]),
                skin("missing", Vec::new()),
            ],
        );
        let out = pack_skins(&before, &AtlasOptions::default());
        assert_ne!(out.model, before);
        assert_eq!(
            out.warnings,
            [
                "mesh 1 (\"grid1\") uses skin 1 (\"missing\"), whose picture is missing: it is \
              drawn from a flat neutral grey tile"
            ]
        );
        assert!(out.notes[0].starts_with("1 texture and a neutral grey tile packed into one "));
        let m = &out.model;
        let atlas = &m.skins[0].pictures[0];
        assert!(m.meshes[1].uvs.iter().all(|&uv| sample(atlas, uv) == GREY));
        assert_eq!(GREY, crate::image::UNTEXTURED);
        assert_eq!(centroid_mismatches(&before, m)[..], [] as [String; 0]);
        // Every picture missing: unchanged (the writer's blank skin is the grey).
        let none = model(
            vec![grid(1, [0.0; 2], [1.0; 2], Some(0))],
            vec![skin("missing", Vec::new())],
        );
        assert_eq!(pack_skins(&none, &AtlasOptions::default()).model, none);
    }

    #[test]
    fn packing_is_deterministic_and_tight() {
        let skins: Vec<Skin> = (0..5)
            .map(|i| {
                skin(
                    &format!("s{i}"),
                    vec![pattern(8 + 4 * i, 16 - 2 * i, i as u8)],
                )
            })
            .collect();
        let meshes = (0..5)
            .map(|i| grid(1, [0.0; 2], [1.0; 2], Some(i)))
            .collect();
        let before = model(meshes, skins);
        let a = pack_skins(&before, &AtlasOptions::default());
        let b = pack_skins(&before, &AtlasOptions::default());
        assert_eq!(a, b);
        let atlas = &a.model.skins[0].pictures[0];
        let used: u32 = (0..5).map(|i| (8 + 4 * i + 4) * (16 - 2 * i + 4)).sum();
        // Shelves waste some room, but not half of it.
        assert!(
            atlas.width * atlas.height < used * 2,
            "{}x{}",
            atlas.width,
            atlas.height
        );
        assert_eq!(centroid_mismatches(&before, &a.model), Vec::<String>::new());
    }
}
