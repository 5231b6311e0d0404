//! Models built from numpy arrays: keyframe models (positions per pose) and skinned models
//! (a skeleton, weights and animations), which `save` writes in every writable format.
//! The package's `Model.from_keyframes` / `Model.from_skinned` turn array-likes into the
//! exact dtypes taken here and check the shapes' names in their messages.

use numpy::{PyReadonlyArray2, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use retromodel::image::{Image, Pixels};
use retromodel::model::{
    Clip, Frame, Joint, JointTransform, Mesh, MorphTarget, SkeletalAnimation, Skin,
};
use retromodel::Converted;

use crate::model::Model;

/// Rows of `K` values from a C-contiguous `(n, K)` array.
fn rows2<T: numpy::Element + Copy + Default, const K: usize>(
    a: &PyReadonlyArray2<'_, T>,
    what: &str,
) -> PyResult<Vec<[T; K]>> {
    let shape = a.shape();
    if shape[1] != K {
        return Err(PyValueError::new_err(format!(
            "{what}: expected shape (n, {K}), got {shape:?}"
        )));
    }
    let slice = a
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("{what}: {e}")))?;
    Ok(slice
        .chunks_exact(K)
        .map(|c| std::array::from_fn(|k| c[k]))
        .collect())
}

/// `(poses, n, K)` as one vector of rows per pose.
fn rows3<const K: usize>(
    a: &PyReadonlyArray3<'_, f32>,
    what: &str,
) -> PyResult<Vec<Vec<[f32; K]>>> {
    let shape = a.shape();
    if shape[2] != K {
        return Err(PyValueError::new_err(format!(
            "{what}: expected shape (poses, n, {K}), got {shape:?}"
        )));
    }
    let slice = a
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("{what}: {e}")))?;
    let per = shape[1] * K;
    Ok(if per == 0 {
        vec![Vec::new(); shape[0]]
    } else {
        slice
            .chunks_exact(per)
            .map(|pose| {
                pose.chunks_exact(K)
                    .map(|c| std::array::from_fn(|k| c[k]))
                    .collect()
            })
            .collect()
    })
}

/// A skin picture from a uint8 `(h, w, 4)` array.
fn picture(a: &PyReadonlyArray3<'_, u8>) -> PyResult<Image> {
    let shape = a.shape();
    if shape[2] != 4 {
        return Err(PyValueError::new_err(format!(
            "skin: expected an RGBA array of shape (height, width, 4), got {shape:?}"
        )));
    }
    let pixels = a
        .as_slice()
        .map_err(|e| PyValueError::new_err(format!("skin: {e}")))?;
    Ok(Image::new(
        shape[1] as u32,
        shape[0] as u32,
        Pixels::Rgba8(pixels.to_vec()),
    ))
}

/// Checks that every triangle's indices are below `n`.
fn check_triangles(triangles: &[[u32; 3]], n: usize) -> PyResult<()> {
    if let Some((i, t)) = triangles
        .iter()
        .enumerate()
        .find(|(_, t)| t.iter().any(|&v| v as usize >= n))
    {
        return Err(PyValueError::new_err(format!(
            "triangles[{i}] = {t:?}: vertex index out of range ({n} vertices)"
        )));
    }
    Ok(())
}

/// Vertex normals of clockwise triangles (Quake's winding), area-weighted.
fn normals_of(positions: &[[f32; 3]], triangles: &[[u32; 3]]) -> Vec<[f32; 3]> {
    let ccw: Vec<[u32; 3]> = triangles.iter().map(|&[a, b, c]| [a, c, b]).collect();
    retromodel::math::smooth_normals(positions, &ccw)
}

/// The axis-aligned bounds of `positions`.
fn bounds(positions: &[[f32; 3]]) -> ([f32; 3], [f32; 3]) {
    let mut lo = [f32::INFINITY; 3];
    let mut hi = [f32::NEG_INFINITY; 3];
    for p in positions {
        for k in 0..3 {
            lo[k] = lo[k].min(p[k]);
            hi[k] = hi[k].max(p[k]);
        }
    }
    if positions.is_empty() {
        ([0.0; 3], [0.0; 3])
    } else {
        (lo, hi)
    }
}

/// The clips given as `(name, first, count, fps)`, checked against `poses`.
fn clips_of(clips: Vec<(String, usize, usize, f32)>, poses: usize) -> PyResult<Vec<Clip>> {
    clips
        .into_iter()
        .map(|(name, first, count, fps)| {
            if count == 0 || first + count > poses {
                return Err(PyValueError::new_err(format!(
                    "clip {name:?}: poses {first}..{} outside the model's {poses} poses",
                    first + count
                )));
            }
            if !(fps.is_finite() && fps > 0.0) {
                return Err(PyValueError::new_err(format!(
                    "clip {name:?}: fps {fps}: give a positive number"
                )));
            }
            Ok(Clip {
                name,
                first,
                count,
                fps,
                frame_times: None,
            })
        })
        .collect()
}

/// The model with `info()` made from its counts.
fn finish(model: retromodel::Model, name: &str) -> Model {
    let converted = Converted {
        model,
        warnings: Vec::new(),
    };
    let info = retromodel::summary::info_json(
        name,
        &retromodel::Summary::of_model("model", &converted),
        &[],
        None,
    );
    Model::new(converted.model, info, Some(name.to_string()), None, None)
}

/// A skin from an optional picture.
fn skins_of(skin: Option<PyReadonlyArray3<'_, u8>>, name: &str) -> PyResult<Vec<Skin>> {
    Ok(match skin {
        Some(a) => vec![Skin {
            name: format!("{name}_skin0"),
            pictures: vec![picture(&a)?],
            picture_times: None,
            source: None,
        }],
        None => Vec::new(),
    })
}

/// A keyframe model (one mesh): `positions` float32 `(poses, n, 3)`, `triangles` uint32
/// `(m, 3)`, optional `uvs` `(n, 2)`, `normals` `(poses, n, 3)` (computed when None),
/// `skin` uint8 `(h, w, 4)`, pose names and clips `(name, first, count, fps)`.
#[pyfunction]
#[pyo3(signature = (positions, triangles, uvs=None, normals=None, skin=None, pose_names=None, clips=Vec::new(), name="model".to_string()))]
#[allow(clippy::too_many_arguments)]
pub fn from_keyframes(
    positions: PyReadonlyArray3<'_, f32>,
    triangles: PyReadonlyArray2<'_, u32>,
    uvs: Option<PyReadonlyArray2<'_, f32>>,
    normals: Option<PyReadonlyArray3<'_, f32>>,
    skin: Option<PyReadonlyArray3<'_, u8>>,
    pose_names: Option<Vec<String>>,
    clips: Vec<(String, usize, usize, f32)>,
    name: String,
) -> PyResult<Model> {
    let poses = rows3::<3>(&positions, "positions")?;
    if poses.is_empty() {
        return Err(PyValueError::new_err(
            "positions: at least one pose is needed",
        ));
    }
    let n = poses[0].len();
    let triangles = rows2::<u32, 3>(&triangles, "triangles")?;
    check_triangles(&triangles, n)?;
    let uvs = match uvs {
        Some(u) => rows2::<f32, 2>(&u, "uvs")?,
        None => vec![[0.0, 0.0]; n],
    };
    if uvs.len() != n {
        return Err(PyValueError::new_err(format!(
            "uvs: {} rows for {n} vertices",
            uvs.len()
        )));
    }
    let normals = match normals {
        Some(a) => {
            let v = rows3::<3>(&a, "normals")?;
            if v.len() != poses.len() {
                return Err(PyValueError::new_err(format!(
                    "normals: {} poses, positions has {}",
                    v.len(),
                    poses.len()
                )));
            }
            v
        }
        None => poses.iter().map(|p| normals_of(p, &triangles)).collect(),
    };
    let names =
        pose_names.unwrap_or_else(|| (0..poses.len()).map(|i| format!("frame{i}")).collect());
    if names.len() != poses.len() {
        return Err(PyValueError::new_err(format!(
            "pose_names: {} names for {} poses",
            names.len(),
            poses.len()
        )));
    }
    let frames = poses
        .iter()
        .zip(&names)
        .map(|(p, name)| {
            let (lo, hi) = bounds(p);
            Frame {
                name: name.clone(),
                bounds_min: lo,
                bounds_max: hi,
                position_step: None,
            }
        })
        .collect();
    let targets: Vec<MorphTarget> = poses
        .into_iter()
        .zip(normals)
        .map(|(positions, normals)| MorphTarget { positions, normals })
        .collect();
    let clips = clips_of(clips, targets.len())?;
    let mut mesh = Mesh::keyframed(uvs, triangles, targets, (0..n as u32).collect(), None);
    mesh.name = name.clone();
    let skins = skins_of(skin, &name)?;
    mesh.skin = (!skins.is_empty()).then_some(0);
    let model = retromodel::Model {
        meshes: vec![mesh],
        frames,
        clips,
        skins,
        ..Default::default()
    };
    Ok(finish(model, &name))
}

/// A skinned model (one mesh): bind-pose `positions` `(n, 3)`, `triangles`, `uvs`,
/// `joints` uint32 `(n, 4)` and `weights` float32 `(n, 4)`; the skeleton as `joint_names`,
/// `parents` (-1 for a root, parents first) and the object-space bind pose
/// (`bind_translations` `(j, 3)`, `bind_rotations` `(j, 4)` quaternions x, y, z, w); each
/// animation `(name, fps, translations (f, j, 3), rotations (f, j, 4))` of local joint
/// transforms.
#[pyfunction]
#[pyo3(signature = (positions, triangles, joints, weights, joint_names, parents, bind_translations, bind_rotations, uvs=None, animations=Vec::new(), skin=None, name="model".to_string()))]
#[allow(clippy::too_many_arguments)]
pub fn from_skinned(
    positions: PyReadonlyArray2<'_, f32>,
    triangles: PyReadonlyArray2<'_, u32>,
    joints: PyReadonlyArray2<'_, u32>,
    weights: PyReadonlyArray2<'_, f32>,
    joint_names: Vec<String>,
    parents: Vec<i64>,
    bind_translations: PyReadonlyArray2<'_, f32>,
    bind_rotations: PyReadonlyArray2<'_, f32>,
    uvs: Option<PyReadonlyArray2<'_, f32>>,
    animations: Vec<(
        String,
        f32,
        PyReadonlyArray3<'_, f32>,
        PyReadonlyArray3<'_, f32>,
    )>,
    skin: Option<PyReadonlyArray3<'_, u8>>,
    name: String,
) -> PyResult<Model> {
    let positions = rows2::<f32, 3>(&positions, "positions")?;
    let n = positions.len();
    let triangles = rows2::<u32, 3>(&triangles, "triangles")?;
    check_triangles(&triangles, n)?;
    let uvs = match uvs {
        Some(u) => rows2::<f32, 2>(&u, "uvs")?,
        None => vec![[0.0, 0.0]; n],
    };
    let ji = rows2::<u32, 4>(&joints, "joints")?;
    let jw = rows2::<f32, 4>(&weights, "weights")?;
    let count = joint_names.len();
    for (what, len) in [
        ("uvs", uvs.len()),
        ("joints", ji.len()),
        ("weights", jw.len()),
    ] {
        if len != n {
            return Err(PyValueError::new_err(format!(
                "{what}: {len} rows for {n} vertices"
            )));
        }
    }
    if parents.len() != count {
        return Err(PyValueError::new_err(format!(
            "parents: {} entries for {count} joints",
            parents.len()
        )));
    }
    let bt = rows2::<f32, 3>(&bind_translations, "bind_translations")?;
    let br = rows2::<f32, 4>(&bind_rotations, "bind_rotations")?;
    if bt.len() != count || br.len() != count {
        return Err(PyValueError::new_err(format!(
            "bind_translations and bind_rotations: one row per joint ({count})"
        )));
    }
    let mut model_joints = Vec::with_capacity(count);
    for (i, ((name, &parent), (t, r))) in joint_names
        .iter()
        .zip(&parents)
        .zip(bt.iter().zip(&br))
        .enumerate()
    {
        let parent = match parent {
            -1 => None,
            p if p >= 0 && (p as usize) < i => Some(p as usize),
            p => {
                return Err(PyValueError::new_err(format!(
                    "parents[{i}] = {p}: a parent comes before its child (or -1 for a root)"
                )))
            }
        };
        model_joints.push(Joint {
            name: name.clone(),
            parent,
            translation: *t,
            rotation: retromodel::math::normalize4(*r),
        });
    }
    let mut joint_weights = Vec::with_capacity(n);
    for (v, (idx, w)) in ji.iter().zip(&jw).enumerate() {
        let mut list: Vec<(u32, f32)> = idx
            .iter()
            .zip(w)
            .filter(|(_, &w)| w > 0.0)
            .map(|(&j, &w)| (j, w))
            .collect();
        if let Some((j, _)) = list.iter().find(|(j, _)| *j as usize >= count) {
            return Err(PyValueError::new_err(format!(
                "joints[{v}]: joint {j} out of range ({count} joints)"
            )));
        }
        let sum: f32 = list.iter().map(|i| i.1).sum();
        if sum.is_nan() || sum <= 0.0 {
            return Err(PyValueError::new_err(format!(
                "weights[{v}]: no positive weight"
            )));
        }
        for i in &mut list {
            i.1 /= sum;
        }
        joint_weights.push(list.into());
    }
    let mut anims = Vec::with_capacity(animations.len());
    for (aname, fps, translations, rotations) in animations {
        let t = rows3::<3>(&translations, &format!("animation {aname:?} translations"))?;
        let r = rows3::<4>(&rotations, &format!("animation {aname:?} rotations"))?;
        if t.len() != r.len()
            || t.iter().chain(std::iter::empty()).any(|f| f.len() != count)
            || r.iter().any(|f| f.len() != count)
        {
            return Err(PyValueError::new_err(format!(
                "animation {aname:?}: translations (frames, {count}, 3) and rotations (frames, {count}, 4) with as many frames"
            )));
        }
        if !(fps.is_finite() && fps > 0.0) {
            return Err(PyValueError::new_err(format!(
                "animation {aname:?}: fps {fps}: give a positive number"
            )));
        }
        let frames = t
            .into_iter()
            .zip(r)
            .map(|(tf, rf)| {
                tf.into_iter()
                    .zip(rf)
                    .map(|(translation, rotation)| JointTransform {
                        translation,
                        rotation: retromodel::math::normalize4(rotation),
                    })
                    .collect()
            })
            .collect();
        anims.push(SkeletalAnimation {
            name: aname,
            fps,
            frames,
            bounds: Vec::new(),
            loops: false,
            weight_scales: None,
        });
    }
    let normals = normals_of(&positions, &triangles);
    let skins = skins_of(skin, &name)?;
    let mesh = Mesh {
        name: name.clone(),
        positions,
        normals,
        uvs,
        triangles,
        morph_targets: Vec::new(),
        source_vertices: (0..n as u32).collect(),
        skin: (!skins.is_empty()).then_some(0),
        joint_weights,
        skin_size: None,
    };
    let model = retromodel::Model {
        meshes: vec![mesh],
        skins,
        joints: model_joints,
        animations: anims,
        ..Default::default()
    };
    Ok(finish(model, &name))
}
