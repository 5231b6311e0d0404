//! Wavefront OBJ import (with its MTL materials).
//!
//! Source: the OBJ and MTL descriptions in Wavefront's *Advanced Visualizer* manual
//! (appendices B1 and B2). Read: `v`, `vt`, `vn`, `f` (any polygon, fanned into triangles;
//! negative indices count back from the latest vertex), `usemtl`, `mtllib`, and in the MTL
//! `newmtl` and `map_Kd`. Everything else (`o`, `g`, `s`, lines, curves) is skipped.
//!
//! One mesh per material, in order of first use; a vertex per distinct `v/vt/vn` triple.
//! OBJ is Y-up with counter-clockwise fronts and `v` upwards: positions and normals go back
//! to Z-up ([`from_y_up`]), triangles turn to clockwise fronts and `v` turns downwards.
//! Faces without normals get area-weighted vertex normals. The model has one frame. Each
//! `map_Kd` picture (PNG) is a skin, loaded through the [`Resolver`].

use std::collections::HashMap;

use crate::error::{Error, ErrorKind, Location, Result};
use crate::interchange::ImportOptions;
use crate::limits::Budget;
use crate::math::from_y_up;
use crate::model::{Converted, Frame, Mesh, Model, MorphTarget, Skin};
use crate::resolve::Resolver;

const FORMAT: &str = "obj";

fn at(line: usize, column: usize, kind: ErrorKind, message: String) -> Error {
    Error::new(
        FORMAT,
        kind,
        message,
        Location::LineCol {
            line: line.min(u32::MAX as usize) as u32,
            column: column.min(u32::MAX as usize) as u32,
        },
    )
}

/// One corner of a face: its `v`, `vt` and `vn` indices (from 0).
type Corner = (u32, Option<u32>, Option<u32>);

/// One mesh being built.
#[derive(Default)]
struct Part {
    material: String,
    vertices: HashMap<Corner, u32>,
    corners: Vec<Corner>,
    triangles: Vec<[u32; 3]>,
}

impl Part {
    /// Adds a face (3 corners or more), fanned into triangles; a corner seen before reuses
    /// its vertex.
    fn add_face(&mut self, face: &[Corner]) {
        let ids: Vec<u32> = face
            .iter()
            .map(|key| {
                let next = self.corners.len() as u32;
                *self.vertices.entry(*key).or_insert_with(|| {
                    self.corners.push(*key);
                    next
                })
            })
            .collect();
        for k in 2..ids.len() {
            // Counter-clockwise in the file: clockwise here.
            self.triangles.push([ids[0], ids[k], ids[k - 1]]);
        }
    }
}

/// What the statements define: the vertex data, the meshes by material, the MTL
/// libraries named and the statements skipped (with how many of each).
#[derive(Default)]
struct Statements {
    v: Vec<[f32; 3]>,
    vt: Vec<[f32; 2]>,
    vn: Vec<[f32; 3]>,
    parts: Vec<Part>,
    libraries: Vec<String>,
    skipped: HashMap<String, usize>,
}

/// One line of the file, for the positions its errors name.
struct Line<'t> {
    /// Its number, from 1.
    line: usize,
    /// Its text, comment included.
    raw: &'t str,
}

impl Line<'_> {
    /// The column (from 1) where `w`, a slice of this line, starts.
    fn column_of(&self, w: &str) -> usize {
        (w.as_ptr() as usize - self.raw.as_ptr() as usize) + 1
    }

    /// Up to `n` finite numbers from `words`.
    fn numbers(&self, words: std::str::SplitWhitespace<'_>, n: usize) -> Result<Vec<f32>> {
        let mut out = Vec::with_capacity(n);
        for w in words.take(n) {
            let x: f32 = w.parse().map_err(|_| {
                at(
                    self.line,
                    self.column_of(w),
                    ErrorKind::InvalidValue,
                    format!("'{w}' is not a number"),
                )
            })?;
            if !x.is_finite() {
                return Err(at(
                    self.line,
                    self.column_of(w),
                    ErrorKind::InvalidValue,
                    format!("'{w}' is not finite"),
                ));
            }
            out.push(x);
        }
        Ok(out)
    }

    /// Three numbers for `v` and `vn` (`key`).
    fn xyz(&self, key: &str, words: std::str::SplitWhitespace<'_>) -> Result<[f32; 3]> {
        match self.numbers(words, 3)?[..] {
            [x, y, z] => Ok([x, y, z]),
            _ => Err(at(
                self.line,
                self.raw.len() + 1,
                ErrorKind::Truncated,
                format!("{key} needs x y z"),
            )),
        }
    }

    /// Charges `n` bytes to `budget`, or the error at this line.
    fn charge(&self, budget: &mut Budget, n: u64) -> Result<()> {
        budget.charge(n).map_err(|_| {
            at(
                self.line,
                1,
                ErrorKind::LimitExceeded,
                "the model exceeds the allocation limit".into(),
            )
        })
    }

    /// The corners of an `f` statement, each index resolved against the `v`, `vt` and
    /// `vn` defined so far (`lens`); at least 3.
    fn face(&self, words: std::str::SplitWhitespace<'_>, lens: [usize; 3]) -> Result<Vec<Corner>> {
        let mut face = Vec::new();
        for w in words {
            let mut it = w.split('/');
            let mut index = |len: usize, required: bool| -> Result<Option<u32>> {
                let s = it.next().unwrap_or("");
                if s.is_empty() {
                    return if required {
                        Err(at(
                            self.line,
                            self.column_of(w),
                            ErrorKind::InvalidValue,
                            format!("'{w}': no vertex index"),
                        ))
                    } else {
                        Ok(None)
                    };
                }
                let i: i64 = s.parse().map_err(|_| {
                    at(
                        self.line,
                        self.column_of(w),
                        ErrorKind::InvalidValue,
                        format!("'{w}': '{s}' is not an index"),
                    )
                })?;
                let resolved = if i < 0 { len as i64 + i } else { i - 1 };
                if i == 0 || resolved < 0 || resolved >= len as i64 {
                    return Err(at(
                        self.line,
                        self.column_of(w),
                        ErrorKind::IndexOutOfRange,
                        format!("'{w}': index {i} out of range ({len} defined so far)"),
                    ));
                }
                Ok(Some(resolved as u32))
            };
            let p = index(lens[0], true)?.unwrap_or(0);
            let t = index(lens[1], false)?;
            let n = index(lens[2], false)?;
            face.push((p, t, n));
        }
        if face.len() < 3 {
            return Err(at(
                self.line,
                1,
                ErrorKind::BadCount,
                format!("a face needs 3 vertices, this one has {}", face.len()),
            ));
        }
        Ok(face)
    }
}

/// The part for material `name` (the first, unnamed and still empty part takes the first
/// name), added if new.
fn use_material(parts: &mut Vec<Part>, name: String) -> usize {
    match parts.iter().position(|p| p.material == name) {
        Some(i) => i,
        None if parts.len() == 1
            && parts[0].triangles.is_empty()
            && parts[0].material.is_empty() =>
        {
            parts[0].material = name;
            0
        }
        None => {
            parts.push(Part {
                material: name,
                ..Part::default()
            });
            parts.len() - 1
        }
    }
}

/// The file as UTF-8 text, or the error at the first byte that is not.
fn utf8_text(bytes: &[u8]) -> Result<&str> {
    std::str::from_utf8(bytes).map_err(|e| {
        let before = &bytes[..e.valid_up_to()];
        let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
        let column = before.len()
            - before
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |p| p + 1)
            + 1;
        at(
            line,
            column,
            ErrorKind::InvalidValue,
            "not UTF-8 text".into(),
        )
    })
}

/// Reads the statements of `text`, line by line, charging the vertex data and faces to
/// `budget`.
fn read_statements(text: &str, budget: &mut Budget) -> Result<Statements> {
    let mut s = Statements {
        parts: vec![Part::default()],
        ..Statements::default()
    };
    let mut current = 0usize;
    for (ln, raw) in text.lines().enumerate() {
        let l = Line { line: ln + 1, raw };
        let content = raw.split('#').next().unwrap_or("");
        let mut words = content.split_whitespace();
        let Some(key) = words.next() else { continue };
        match key {
            "v" => {
                let p = l.xyz(key, words)?;
                l.charge(budget, 12)?;
                s.v.push(p);
            }
            "vt" => {
                let t = l.numbers(words, 2)?;
                l.charge(budget, 8)?;
                s.vt.push([
                    t.first().copied().unwrap_or(0.0),
                    t.get(1).copied().unwrap_or(0.0),
                ]);
            }
            "vn" => {
                let n = l.xyz(key, words)?;
                l.charge(budget, 12)?;
                s.vn.push(n);
            }
            "f" => {
                let face = l.face(words, [s.v.len(), s.vt.len(), s.vn.len()])?;
                l.charge(budget, face.len() as u64 * 48)?;
                s.parts[current].add_face(&face);
            }
            "usemtl" => {
                let name = content[l.column_of(key) - 1 + key.len()..]
                    .trim()
                    .to_string();
                current = use_material(&mut s.parts, name);
            }
            "mtllib" => {
                s.libraries.push(
                    content[l.column_of(key) - 1 + key.len()..]
                        .trim()
                        .to_string(),
                );
            }
            "o" | "g" | "s" => {}
            other => *s.skipped.entry(other.to_string()).or_default() += 1,
        }
    }
    Ok(s)
}

/// Reads an OBJ file; `mtllib` files and their pictures come from `resolver`.
pub fn read(bytes: &[u8], resolver: &dyn Resolver, options: &ImportOptions) -> Result<Converted> {
    let text = utf8_text(bytes)?;
    let mut budget = Budget::new(&options.limits);
    let mut warnings = Vec::new();
    let Statements {
        v,
        vt,
        vn,
        mut parts,
        libraries,
        skipped,
    } = read_statements(text, &mut budget)?;
    if !skipped.is_empty() {
        let mut keys: Vec<_> = skipped.into_iter().collect();
        keys.sort();
        let list: Vec<String> = keys.iter().map(|(k, n)| format!("{k} ({n})")).collect();
        warnings.push(format!("statements skipped: {}", list.join(", ")));
    }
    parts.retain(|p| !p.triangles.is_empty());
    if parts.is_empty() {
        return Err(Error::new(
            FORMAT,
            ErrorKind::InvalidModel,
            "the file has no face",
            Location::None,
        ));
    }
    let textures = if options.skip_textures {
        HashMap::new()
    } else {
        materials(&libraries, resolver, &mut warnings)
    };
    let mut model = Model::default();
    for part in &parts {
        let skin = match textures.get(&part.material) {
            Some(file) => part_skin(&mut model, file, part, resolver, options, &mut warnings)?,
            None => None,
        };
        let mesh = part_mesh(part, &v, &vt, &vn, skin, &model);
        model.meshes.push(mesh);
    }
    let [lo, hi] = model.bounds().unwrap_or([[0.0; 3]; 2]);
    model.frames.push(Frame {
        name: "frame1".into(),
        bounds_min: lo,
        bounds_max: hi,
        position_step: None,
    });
    if model.meshes.len() > 1 {
        warnings.push(format!(
            "{} meshes (one per material); formats with one mesh (MDL, MD2) merge them",
            model.meshes.len()
        ));
    }
    Ok(Converted { model, warnings })
}

/// The skin of `part`, whose material's picture is `file`: one already loaded, or loaded
/// now through `resolver` and added to `model` (none, with a warning, where it is not
/// found).
fn part_skin(
    model: &mut Model,
    file: &str,
    part: &Part,
    resolver: &dyn Resolver,
    options: &ImportOptions,
    warnings: &mut Vec<String>,
) -> Result<Option<usize>> {
    if let Some(i) = model.skins.iter().position(|s| s.name == file) {
        return Ok(Some(i));
    }
    Ok(match resolver.load(file) {
        Some(bytes) => {
            let picture = crate::image::decode(&bytes, file, &options.limits).map_err(|e| {
                Error::new(
                    FORMAT,
                    e.kind,
                    format!("texture \"{file}\": {}", e.message),
                    Location::None,
                )
            })?;
            model.skins.push(Skin {
                source: None,
                name: file.to_string(),
                pictures: vec![picture],
                picture_times: None,
            });
            Some(model.skins.len() - 1)
        }
        None => {
            warnings.push(format!(
                "texture \"{file}\" of material \"{}\" not found",
                part.material
            ));
            None
        }
    })
}

/// The mesh of `part` from the file's positions `v`, texture coordinates `vt` and normals
/// `vn`, back to Z-up, with its one morph target; faces without normals get
/// smooth ones. `model` holds its `skin`.
fn part_mesh(
    part: &Part,
    v: &[[f32; 3]],
    vt: &[[f32; 2]],
    vn: &[[f32; 3]],
    skin: Option<usize>,
    model: &Model,
) -> Mesh {
    let positions: Vec<[f32; 3]> = part.corners.iter().map(|c| v[c.0 as usize]).collect();
    let smooth = if part.corners.iter().any(|c| c.2.is_none()) {
        let ccw: Vec<[u32; 3]> = part.triangles.iter().map(|t| [t[0], t[2], t[1]]).collect();
        Some(crate::math::smooth_normals(&positions, &ccw))
    } else {
        None
    };
    let normals: Vec<[f32; 3]> = part
        .corners
        .iter()
        .enumerate()
        .map(|(k, c)| match c.2 {
            Some(n) => crate::math::normalize3(vn[n as usize], [0.0, 1.0, 0.0]),
            None => smooth.as_ref().map_or([0.0, 1.0, 0.0], |s| s[k]),
        })
        .map(from_y_up)
        .collect();
    let positions: Vec<[f32; 3]> = positions.into_iter().map(from_y_up).collect();
    let uvs = part
        .corners
        .iter()
        .map(|c| {
            c.1.map_or([0.0, 0.0], |t| [vt[t as usize][0], 1.0 - vt[t as usize][1]])
        })
        .collect();
    let n = positions.len();
    let mesh = Mesh {
        name: part.material.clone(),
        morph_targets: vec![MorphTarget {
            positions: positions.clone(),
            normals: normals.clone(),
        }],
        positions,
        normals,
        uvs,
        triangles: part.triangles.clone(),
        source_vertices: part.corners.iter().map(|c| c.0).collect(),
        skin,
        skin_size: skin.and_then(|s| model.skins[s].pictures.first().map(|p| [p.width, p.height])),
        ..Mesh::default()
    };
    debug_assert_eq!(mesh.positions.len(), n);
    mesh
}

/// `newmtl` name to `map_Kd` file over every MTL library found.
fn materials(
    libraries: &[String],
    resolver: &dyn Resolver,
    warnings: &mut Vec<String>,
) -> HashMap<String, String> {
    let mut out = HashMap::new();
    for lib in libraries {
        let Some(bytes) = resolver.load(lib) else {
            warnings.push(format!("material library \"{lib}\" not found"));
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        let mut current: Option<String> = None;
        for raw in text.lines() {
            let content = raw.split('#').next().unwrap_or("").trim();
            if let Some(name) = content.strip_prefix("newmtl") {
                current = Some(name.trim().to_string());
            } else if let Some(rest) = content.strip_prefix("map_Kd") {
                // Options (-s, -o, ...) come before the file name, which is the last word.
                let file = rest.split_whitespace().last().unwrap_or("").to_string();
                if let (Some(m), false) = (&current, file.is_empty()) {
                    out.insert(m.clone(), file);
                }
            }
        }
    }
    out
}
