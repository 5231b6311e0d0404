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

/// One mesh being built.
#[derive(Default)]
struct Part {
    material: String,
    vertices: HashMap<(u32, Option<u32>, Option<u32>), u32>,
    corners: Vec<(u32, Option<u32>, Option<u32>)>,
    triangles: Vec<[u32; 3]>,
}

/// Reads an OBJ file; `mtllib` files and their pictures come from `resolver`.
pub fn read(bytes: &[u8], resolver: &dyn Resolver, options: &ImportOptions) -> Result<Converted> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
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
    })?;
    let mut budget = Budget::new(&options.limits);
    let mut warnings = Vec::new();
    let mut v: Vec<[f32; 3]> = Vec::new();
    let mut vt: Vec<[f32; 2]> = Vec::new();
    let mut vn: Vec<[f32; 3]> = Vec::new();
    let mut parts: Vec<Part> = vec![Part::default()];
    let mut current = 0usize;
    let mut libraries: Vec<String> = Vec::new();
    let mut skipped: HashMap<String, usize> = HashMap::new();
    for (ln, raw) in text.lines().enumerate() {
        let line = ln + 1;
        let content = raw.split('#').next().unwrap_or("");
        let mut words = content.split_whitespace();
        let Some(key) = words.next() else { continue };
        let column_of = |w: &str| (w.as_ptr() as usize - raw.as_ptr() as usize) + 1;
        let numbers = |words: std::str::SplitWhitespace<'_>, n: usize| -> Result<Vec<f32>> {
            let mut out = Vec::with_capacity(n);
            for w in words.take(n) {
                let x: f32 = w.parse().map_err(|_| {
                    at(
                        line,
                        column_of(w),
                        ErrorKind::InvalidValue,
                        format!("'{w}' is not a number"),
                    )
                })?;
                if !x.is_finite() {
                    return Err(at(
                        line,
                        column_of(w),
                        ErrorKind::InvalidValue,
                        format!("'{w}' is not finite"),
                    ));
                }
                out.push(x);
            }
            Ok(out)
        };
        let charge = |budget: &mut Budget, n: u64| {
            budget.charge(n).map_err(|_| {
                at(
                    line,
                    1,
                    ErrorKind::LimitExceeded,
                    "the model exceeds the allocation limit".into(),
                )
            })
        };
        // Three numbers for `v` and `vn`.
        let xyz = |words: std::str::SplitWhitespace<'_>| -> Result<[f32; 3]> {
            match numbers(words, 3)?[..] {
                [x, y, z] => Ok([x, y, z]),
                _ => Err(at(
                    line,
                    raw.len() + 1,
                    ErrorKind::Truncated,
                    format!("{key} needs x y z"),
                )),
            }
        };
        match key {
            "v" => {
                let p = xyz(words)?;
                charge(&mut budget, 12)?;
                v.push(p);
            }
            "vt" => {
                let t = numbers(words, 2)?;
                charge(&mut budget, 8)?;
                vt.push([
                    t.first().copied().unwrap_or(0.0),
                    t.get(1).copied().unwrap_or(0.0),
                ]);
            }
            "vn" => {
                let n = xyz(words)?;
                charge(&mut budget, 12)?;
                vn.push(n);
            }
            "f" => {
                let mut face = Vec::new();
                for w in words {
                    let mut it = w.split('/');
                    let mut index = |len: usize, required: bool| -> Result<Option<u32>> {
                        let s = it.next().unwrap_or("");
                        if s.is_empty() {
                            return if required {
                                Err(at(
                                    line,
                                    column_of(w),
                                    ErrorKind::InvalidValue,
                                    format!("'{w}': no vertex index"),
                                ))
                            } else {
                                Ok(None)
                            };
                        }
                        let i: i64 = s.parse().map_err(|_| {
                            at(
                                line,
                                column_of(w),
                                ErrorKind::InvalidValue,
                                format!("'{w}': '{s}' is not an index"),
                            )
                        })?;
                        let resolved = if i < 0 { len as i64 + i } else { i - 1 };
                        if i == 0 || resolved < 0 || resolved >= len as i64 {
                            return Err(at(
                                line,
                                column_of(w),
                                ErrorKind::IndexOutOfRange,
                                format!("'{w}': index {i} out of range ({len} defined so far)"),
                            ));
                        }
                        Ok(Some(resolved as u32))
                    };
                    let p = index(v.len(), true)?.unwrap_or(0);
                    let t = index(vt.len(), false)?;
                    let n = index(vn.len(), false)?;
                    face.push((p, t, n));
                }
                if face.len() < 3 {
                    return Err(at(
                        line,
                        1,
                        ErrorKind::BadCount,
                        format!("a face needs 3 vertices, this one has {}", face.len()),
                    ));
                }
                charge(&mut budget, face.len() as u64 * 48)?;
                let part = &mut parts[current];
                let ids: Vec<u32> = face
                    .iter()
                    .map(|key| {
                        let next = part.corners.len() as u32;
                        *part.vertices.entry(*key).or_insert_with(|| {
                            part.corners.push(*key);
                            next
                        })
                    })
                    .collect();
                for k in 2..ids.len() {
                    // Counter-clockwise in the file: clockwise here.
                    part.triangles.push([ids[0], ids[k], ids[k - 1]]);
                }
            }
            "usemtl" => {
                let name = content[column_of(key) - 1 + key.len()..].trim().to_string();
                current = match parts.iter().position(|p| p.material == name) {
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
                };
            }
            "mtllib" => {
                libraries.push(content[column_of(key) - 1 + key.len()..].trim().to_string());
            }
            "o" | "g" | "s" => {}
            other => *skipped.entry(other.to_string()).or_default() += 1,
        }
    }
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
            Some(file) => {
                let i = match model.skins.iter().position(|s| &s.name == file) {
                    Some(i) => Some(i),
                    None => match resolver.load(file) {
                        Some(bytes) => {
                            let picture = crate::image::decode(&bytes, file, &options.limits)
                                .map_err(|e| {
                                    Error::new(
                                        FORMAT,
                                        e.kind,
                                        format!("texture \"{file}\": {}", e.message),
                                        Location::None,
                                    )
                                })?;
                            model.skins.push(Skin {
                                source: None,
                                name: file.clone(),
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
                    },
                };
                i
            }
            None => None,
        };
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
        model.meshes.push(Mesh {
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
            skin_size: skin
                .and_then(|s| model.skins[s].pictures.first().map(|p| [p.width, p.height])),
            ..Mesh::default()
        });
        debug_assert_eq!(model.meshes.last().map(|m| m.positions.len()), Some(n));
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
