//! Any [`Model`] to an MD3 [`File`].
//!
//! - One surface per mesh, named as the mesh (`.skin` files match surfaces by name); its
//!   vertices, texture coordinates and triangles as they are (MD3 indexes one vertex list).
//! - Every model frame is a frame: positions rounded to 1/64 unit (the largest error of each
//!   frame is reported), normals to the nearest latitude/longitude. A Model without frames
//!   gets one, its meshes' positions.
//! - Frame bounds are those of the written positions, the local origin `(0, 0, 0)` and the
//!   radius the farthest written vertex from it (what id's tools wrote).
//! - Tags: every scene node named `tag_*` (MD3 tags, glTF nodes so named), at its world
//!   transform in each frame: origin and the axes of its rotation and scale.
//! - Shader names: [`WriteOptions::skin_paths`] when given, else each mesh's skin name; a
//!   mesh without skin gets no shader.
//! - ioquake3's limits (vertices and triangles per surface, frames, surfaces, tags) are
//!   warnings, or errors with `options.strict`.

use super::raw::*;
use super::validate::{MAX_FRAMES, MAX_SHADERS, MAX_SURFACES, MAX_TAGS, MAX_TRIANGLES, MAX_VERTS};
use super::FORMAT;
use crate::error::{Error, ErrorKind, Location, Result};
use crate::math;
use crate::model::Model;
use crate::options::{WriteOptions, Written};

fn fail(kind: ErrorKind, message: String) -> Error {
    Error::new(FORMAT, kind, message, Location::None)
}

/// Builds an MD3 file from a model. Fails on an invalid model, a position beyond MD3's range
/// (±511.98 units) or more than `i32` counts; engine limits are warnings unless
/// `options.strict`.
pub fn from_model(model: &Model, options: &WriteOptions) -> Result<Written<File<'static>>> {
    model
        .validate()
        .map_err(|e| fail(ErrorKind::InvalidValue, format!("invalid model: {e}")))?;
    let mut warnings = Vec::new();
    let num_frames = model.frames.len().max(1);
    let mut frame_errors = vec![0.0f32; num_frames];
    let mut lo = vec![[f32::INFINITY; 3]; num_frames];
    let mut hi = vec![[f32::NEG_INFINITY; 3]; num_frames];
    let mut radius = vec![0.0f32; num_frames];
    let mut surfaces = Vec::with_capacity(model.meshes.len());
    for (mi, mesh) in model.meshes.iter().enumerate() {
        let n = mesh.positions.len();
        let mut xyz_normals = Vec::with_capacity(n * num_frames);
        for f in 0..num_frames {
            let (positions, normals) = match mesh.morph_targets.get(f) {
                Some(t) => (&t.positions, &t.normals),
                None => (&mesh.positions, &mesh.normals),
            };
            for (v, p) in positions.iter().enumerate() {
                let mut q = [0i16; 3];
                for a in 0..3 {
                    let s = (p[a] / XYZ_SCALE).round();
                    if !(i16::MIN as f32..=i16::MAX as f32).contains(&s) {
                        return Err(fail(
                            ErrorKind::LimitExceeded,
                            format!(
                                "mesh {mi} vertex {v} frame {f}: coordinate {} is beyond MD3's range (±{})",
                                p[a],
                                i16::MAX as f32 * XYZ_SCALE
                            ),
                        ));
                    }
                    q[a] = s as i16;
                    let back = q[a] as f32 * XYZ_SCALE;
                    frame_errors[f] = frame_errors[f].max((back - p[a]).abs());
                    lo[f][a] = lo[f][a].min(back);
                    hi[f][a] = hi[f][a].max(back);
                }
                let back = q.map(|c| c as f32 * XYZ_SCALE);
                radius[f] = radius[f].max(math::dot(back, back).sqrt());
                let normal = normals.get(v).copied().unwrap_or([0.0, 0.0, 1.0]);
                xyz_normals.push(XyzNormal {
                    xyz: q,
                    normal: encode_normal(math::normalize_or(normal, [0.0, 0.0, 1.0])),
                });
            }
        }
        let shader = options
            .skin_paths
            .get(mesh.skin.unwrap_or(usize::MAX))
            .cloned()
            .or_else(|| {
                mesh.skin
                    .and_then(|k| model.skins.get(k))
                    .map(|s| s.name.clone())
            })
            .filter(|s| !s.is_empty());
        let mut shaders = Vec::new();
        if let Some(shader) = shader {
            let (name, cut) = name_field::<MAX_QPATH>(&shader);
            if cut {
                warnings.push(format!(
                    "mesh {mi}: shader name {shader:?} cut to {} bytes",
                    MAX_QPATH - 1
                ));
            }
            shaders.push(Shader {
                name,
                shader_index: 0,
            });
        }
        let (name, cut) = name_field::<MAX_QPATH>(&if mesh.name.is_empty() {
            format!("surface{mi}")
        } else {
            mesh.name.clone()
        });
        if cut {
            warnings.push(format!("mesh {mi}: name {:?} cut to 63 bytes", mesh.name));
        }
        surfaces.push(Surface {
            header: SurfaceHeader {
                name,
                num_frames: num_frames as i32,
                ..SurfaceHeader::default()
            },
            shaders,
            triangles: mesh.triangles.iter().map(|t| t.map(|i| i as i32)).collect(),
            st: if mesh.uvs.len() == n {
                mesh.uvs.clone()
            } else {
                vec![[0.0; 2]; n]
            },
            xyz_normals,
        });
    }
    let frames: Vec<Frame> = (0..num_frames)
        .map(|f| {
            let (l, h) = if lo[f][0] <= hi[f][0] {
                (lo[f], hi[f])
            } else {
                ([0.0; 3], [0.0; 3])
            };
            let name = model.frames.get(f).map_or("frame", |fr| fr.name.as_str());
            Frame {
                bounds: [l, h],
                local_origin: [0.0; 3],
                radius: radius[f],
                name: name_field::<16>(name).0,
            }
        })
        .collect();
    let tags = tags(model, num_frames);
    let num_tags = tags.len() / num_frames;
    let stem = options.side_file_stem();
    let mut file = File::laid_out(&format!("{stem}.md3"), frames, tags, surfaces);
    file.header.num_tags = num_tags as i32;
    check_limits(&file, options.strict, &mut warnings)?;
    Ok(Written {
        file,
        warnings,
        frame_errors,
    })
}

/// The tags of every frame: each node named `tag_*` at its world transform.
fn tags(model: &Model, num_frames: usize) -> Vec<Tag> {
    let tagged: Vec<usize> = (0..model.nodes.len())
        .filter(|&i| model.nodes[i].name.to_ascii_lowercase().starts_with("tag_"))
        .collect();
    let mut out = Vec::with_capacity(tagged.len() * num_frames);
    for f in 0..num_frames {
        let worlds = model.node_world_matrices_at(f);
        for &i in &tagged {
            let m = &worlds[i];
            out.push(Tag {
                name: name_field::<MAX_QPATH>(&model.nodes[i].name).0,
                origin: [m[12] as f32, m[13] as f32, m[14] as f32],
                axis: math::columns(m).map(|c| c.map(|x| x as f32)),
            });
        }
    }
    out
}

fn check_limits(file: &File<'_>, strict: bool, warnings: &mut Vec<String>) -> Result<()> {
    let h = &file.header;
    let mut problems = over_limits([
        ("frames", h.num_frames, MAX_FRAMES),
        ("surfaces", h.num_surfaces, MAX_SURFACES),
        ("tags", h.num_tags, MAX_TAGS),
    ])
    .map(|p| format!("{p} Quake 3's limit of {}", p.max))
    .collect::<Vec<_>>();
    for (i, s) in file.surfaces.iter().enumerate() {
        let sh = &s.header;
        problems.extend(
            over_limits([
                ("vertices", sh.num_verts, MAX_VERTS),
                ("triangles", sh.num_triangles, MAX_TRIANGLES),
                ("shaders", sh.num_shaders, MAX_SHADERS),
            ])
            .map(|p| {
                format!(
                    "surface {i} ({:?}): {p} ioquake3's limit of {}",
                    s.name(),
                    p.max
                )
            }),
        );
    }
    if strict {
        if let Some(p) = problems.first() {
            return Err(fail(ErrorKind::LimitExceeded, p.clone()));
        }
    }
    warnings.extend(problems);
    Ok(())
}

/// A count past its limit: shown as `{n} {what} exceed`.
struct OverLimit {
    what: &'static str,
    n: usize,
    max: usize,
}

impl std::fmt::Display for OverLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} exceed", self.n, self.what)
    }
}

/// The counts (`what`, count, limit) past their limits, in order.
fn over_limits<const N: usize>(
    counts: [(&'static str, i32, usize); N],
) -> impl Iterator<Item = OverLimit> {
    counts
        .into_iter()
        .map(|(what, n, max)| OverLimit {
            what,
            n: n as usize,
            max,
        })
        .filter(|o| o.n > o.max)
}
