//! `Model` and the views it hands out (`Mesh`, `Clip`, `Skeleton`, `Animation`, `Skin`):
//! read-only, each array a fresh numpy array.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use retromodel::model::pose::{self, JointPose, Playback, PoseTrack, RootMotion};
use retromodel::Format;

use crate::arrays::{row_major, rows, shaped};
use crate::save::{self, SaveOptions, SaveReport};

/// A model: meshes with their poses, clips, skins, and for skeletal formats the skeleton and
/// its animations. Made by `load`, `loads` or the builders.
#[pyclass(module = "retromodel", name = "Model", frozen)]
pub struct Model {
    /// The format-neutral model.
    pub(crate) model: Arc<retromodel::Model>,
    /// What `info()` returns, as `retromodel info --json` prints it.
    info: serde_json::Value,
    /// The path (or name) it was read from.
    path: Option<String>,
    /// The format of the file it was read from.
    format: Option<Format>,
    /// The file's bytes, to write it back as read.
    source: Option<retromodel::io::SharedBytes>,
    /// Opened showing a classic model's re-release replacement (`prefer_md5=True`).
    prefer_md5: bool,
    /// The files that go with `source` (a compiled QC's texture file and sequence groups).
    side_files: Vec<retromodel::codec::SideFile>,
}

impl Model {
    /// A model with what `info()` says of it.
    pub fn new(
        model: retromodel::Model,
        info: serde_json::Value,
        path: Option<String>,
        format: Option<Format>,
        source: Option<retromodel::io::SharedBytes>,
    ) -> Self {
        Model {
            model: Arc::new(model),
            info,
            path,
            format,
            source,
            prefer_md5: false,
            side_files: Vec::new(),
        }
    }

    /// A model opened through the front door, with what `info()` says of it.
    pub fn from_opened(opened: retromodel::front::Opened, info: serde_json::Value) -> Self {
        Model {
            model: Arc::new(opened.model),
            info,
            path: Some(opened.shown),
            format: opened.format,
            source: opened.bytes,
            prefer_md5: opened.prefer_md5,
            side_files: opened.side_files,
        }
    }

    /// What saving needs of it.
    pub(crate) fn saved(&self) -> retromodel::front::Source<'_> {
        retromodel::front::Source {
            model: &self.model,
            format: self.format,
            bytes: self.source.as_deref(),
            path: self.path.as_deref(),
            prefer_md5: self.prefer_md5,
            side_files: &self.side_files,
        }
    }
}

#[pymethods]
impl Model {
    /// What `retromodel info --json` prints for the file: format, version, header fields,
    /// vertices, triangles, poses, frame groups, skins, clips, joints, meshes, bounds,
    /// warnings.
    fn info<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py.import("json")?
            .call_method1("loads", (self.info.to_string(),))
    }

    /// The format's short name (`quake-mdl`, `md2`, `md3`, `md5mesh`, `gltf`, ...), or None
    /// for a model no single file holds (a Quake 3 player, a model built from arrays).
    #[getter]
    fn format(&self) -> Option<&'static str> {
        self.format.map(|f| f.name())
    }

    /// The path (or the name given to `loads`) it was read from.
    #[getter]
    fn path(&self) -> Option<&str> {
        self.path.as_deref()
    }

    /// Vertices of one pose, summed over the meshes (after any seam split).
    #[getter]
    fn vertex_count(&self) -> usize {
        self.model.vertex_count()
    }

    /// Triangles, summed over the meshes.
    #[getter]
    fn triangle_count(&self) -> usize {
        self.model.triangle_count()
    }

    /// The poses the model shows: its keyframes, else the frames of its animations.
    #[getter]
    fn pose_count(&self) -> usize {
        self.model.pose_count()
    }

    /// The keyframes' names, one per pose of a keyframe model (empty for skeletal models).
    #[getter]
    fn poses(&self) -> Vec<String> {
        self.model.frames.iter().map(|f| f.name.clone()).collect()
    }

    /// The meshes.
    #[getter]
    fn meshes(&self) -> Vec<Mesh> {
        (0..self.model.meshes.len())
            .map(|index| Mesh {
                model: self.model.clone(),
                index,
            })
            .collect()
    }

    /// The clips: named ranges of poses played as one animation.
    #[getter]
    fn clips(&self) -> Vec<Clip> {
        self.model
            .clips
            .iter()
            .map(|c| Clip {
                name: c.name.clone(),
                first: c.first,
                count: c.count,
                fps: c.fps,
                seconds: retromodel::model::retime::clip_duration(c),
                r#loop: None,
            })
            .collect()
    }

    /// The skeleton (joint names, parents, bind pose), or None for a keyframe model.
    #[getter]
    fn skeleton(&self) -> Option<Skeleton> {
        (!self.model.joints.is_empty()).then(|| Skeleton {
            model: self.model.clone(),
        })
    }

    /// The skeletal animations (an md5mesh's `.md5anim`s, a glTF's skin animations).
    #[getter]
    fn animations(&self) -> Vec<Animation> {
        (0..self.model.animations.len())
            .map(|index| Animation {
                model: self.model.clone(),
                index,
            })
            .collect()
    }

    /// The skins, each with its pictures (several for an animated skin group).
    #[getter]
    fn skins(&self) -> Vec<Skin> {
        (0..self.model.skins.len())
            .map(|index| Skin {
                model: self.model.clone(),
                index,
            })
            .collect()
    }

    /// The joints' matrices at `time` seconds into animation `animation` (an index or a
    /// name), as a float32 array `(joints, 4, 4)` of row-major matrices: the skinning
    /// matrices (`global @ inverse(bind)`, which move bind-pose vertices; times a joint's
    /// `.md5scale` weight scale where the animation has one) by default, the
    /// joints' object-space transforms with `skinning=False`. `loop=False` holds the last
    /// frame after the end.
    #[pyo3(signature = (animation=None, time=0.0, *, skinning=true, r#loop=true))]
    fn joint_matrices<'py>(
        &self,
        py: Python<'py>,
        animation: Option<Bound<'py, PyAny>>,
        time: f32,
        skinning: bool,
        r#loop: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let model = &self.model;
        if model.joints.is_empty() {
            return Err(PyValueError::new_err("the model has no skeleton"));
        }
        let joints = model.joints.len();
        let mut global: Vec<JointPose> = Vec::with_capacity(joints);
        let mut scales: Option<Vec<f32>> = None;
        match animation {
            None if model.animations.is_empty() => {
                global.extend(
                    model
                        .joints
                        .iter()
                        .map(|j| JointPose::from_transform(&j.bind_transform())),
                );
            }
            animation => {
                let index = match animation {
                    None => 0,
                    Some(a) => animation_index(model, &a)?,
                };
                let track = PoseTrack::from_model(model, index).map_err(PyValueError::new_err)?;
                global.resize(track.joint_count(), JointPose::IDENTITY);
                let playback = if r#loop {
                    Playback::Loop
                } else {
                    Playback::Clamp
                };
                track.sample_global(time, playback, RootMotion::Keep, &mut global);
                scales = track.weight_scales_at(time, playback).map(<[f32]>::to_vec);
            }
        }
        let matrices: Vec<[f32; 16]> = if skinning {
            let inverse: Vec<[f32; 16]> = model
                .joints
                .iter()
                .map(|j| pose::inverse_bind_matrix(&JointPose::from_transform(&j.bind_transform())))
                .collect();
            let mut out = vec![[0.0f32; 16]; global.len()];
            pose::joint_matrices_scaled(&global, &inverse, scales.as_deref(), &mut out);
            out
        } else {
            global.iter().map(|g| g.to_mat4()).collect()
        };
        let flat: Vec<f32> = matrices.iter().flat_map(row_major).collect();
        shaped(py, flat, &[matrices.len(), 4, 4])
    }

    /// Checks the model against an engine's limits (`retromodel validate --engine`): a
    /// list of `(severity, message)` pairs, severity `"error"` or `"warning"`; empty when
    /// it loads cleanly. Default engine: the format's own default. A model of another
    /// format is checked as converted to the engine's format.
    #[pyo3(signature = (engine=None))]
    fn validate(&self, py: Python<'_>, engine: Option<String>) -> PyResult<Vec<(String, String)>> {
        let found = py.detach(|| save::validate(&self.saved(), engine.as_deref()))?;
        Ok(found
            .into_iter()
            .map(|d| {
                let severity = match d.severity {
                    retromodel::Severity::Error => "error",
                    _ => "warning",
                };
                (severity.to_string(), d.message)
            })
            .collect())
    }

    /// Writes the model to `path`; the extension picks the format, and the options are
    /// `retromodel convert`'s. Returns a `SaveReport`.
    #[pyo3(signature = (path, options))]
    fn _save(&self, py: Python<'_>, path: PathBuf, options: SaveOptions) -> PyResult<SaveReport> {
        Ok(py.detach(|| save::save(&self.saved(), &path, &options))?)
    }

    /// The file `save` would write for `extension`, as bytes (side files dropped: use a
    /// format that embeds them, such as glb), and its report.
    #[pyo3(signature = (extension, options))]
    fn _to_bytes<'py>(
        &self,
        py: Python<'py>,
        extension: String,
        options: SaveOptions,
    ) -> PyResult<(Bound<'py, PyBytes>, SaveReport)> {
        let (bytes, report) = py.detach(|| save::to_bytes(&self.saved(), &extension, &options))?;
        Ok((PyBytes::new(py, &bytes), report))
    }

    fn __repr__(&self) -> String {
        format!(
            "<retromodel.Model {} ({}): {} meshes, {} vertices, {} triangles, {} poses, {} joints>",
            self.path.as_deref().unwrap_or("built"),
            self.format.map(|f| f.name()).unwrap_or("model"),
            self.model.meshes.len(),
            self.model.vertex_count(),
            self.model.triangle_count(),
            self.model.pose_count(),
            self.model.joints.len()
        )
    }
}

/// The animation `key` names: an index, or a name.
fn animation_index(model: &retromodel::Model, key: &Bound<'_, PyAny>) -> PyResult<usize> {
    if let Ok(i) = key.extract::<usize>() {
        if i < model.animations.len() {
            return Ok(i);
        }
        return Err(PyIndexError::new_err(format!(
            "animation {i} out of range ({} animations)",
            model.animations.len()
        )));
    }
    let name: String = key.extract()?;
    model
        .animations
        .iter()
        .position(|a| a.name == name)
        .ok_or_else(|| {
            let names: Vec<&str> = model.animations.iter().map(|a| a.name.as_str()).collect();
            PyValueError::new_err(format!(
                "no animation named {name:?} (the model has: {})",
                names.join(", ")
            ))
        })
}

/// One mesh of a model.
#[pyclass(module = "retromodel", frozen)]
pub struct Mesh {
    model: Arc<retromodel::Model>,
    index: usize,
}

impl Mesh {
    fn mesh(&self) -> &retromodel::model::Mesh {
        &self.model.meshes[self.index]
    }

    /// The morph target of `pose` (None: the first pose), checked.
    fn target(&self, pose: Option<usize>) -> PyResult<Option<&retromodel::model::MorphTarget>> {
        let mesh = self.mesh();
        match pose {
            None => Ok(None),
            Some(0) if mesh.morph_targets.is_empty() => Ok(None),
            Some(p) => mesh.morph_targets.get(p).map(Some).ok_or_else(|| {
                PyIndexError::new_err(if mesh.morph_targets.is_empty() {
                    format!(
                        "pose {p}: this mesh has one pose (a skeletal mesh moves with \
                         Model.joint_matrices)"
                    )
                } else {
                    format!("pose {p} out of range ({} poses)", mesh.morph_targets.len())
                })
            }),
        }
    }
}

#[pymethods]
impl Mesh {
    /// The mesh's name (empty when the format has none).
    #[getter]
    fn name(&self) -> &str {
        &self.mesh().name
    }

    /// Vertices (after any seam split; `source_vertices` maps them to the file's).
    #[getter]
    fn vertex_count(&self) -> usize {
        self.mesh().positions.len()
    }

    /// Positions of pose `pose` (default: the first pose, or the bind pose of a skinned
    /// mesh), float32 `(n, 3)`, in the model's own axes and units (Z up for the Quake
    /// family).
    #[pyo3(signature = (pose=None))]
    fn positions<'py>(&self, py: Python<'py>, pose: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        match self.target(pose)? {
            Some(t) => rows(py, &t.positions),
            None => rows(py, &self.mesh().positions),
        }
    }

    /// Unit normals of pose `pose`, float32 `(n, 3)`.
    #[pyo3(signature = (pose=None))]
    fn normals<'py>(&self, py: Python<'py>, pose: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        match self.target(pose)? {
            Some(t) => rows(py, &t.normals),
            None => rows(py, &self.mesh().normals),
        }
    }

    /// Positions of every pose, float32 `(poses, n, 3)` (one pose for a mesh without morph
    /// targets).
    fn all_positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mesh = self.mesh();
        let n = mesh.positions.len();
        if mesh.morph_targets.is_empty() {
            return shaped(py, mesh.positions.as_flattened().to_vec(), &[1, n, 3]);
        }
        let mut flat = Vec::with_capacity(mesh.morph_targets.len() * n * 3);
        for t in &mesh.morph_targets {
            flat.extend_from_slice(t.positions.as_flattened());
        }
        shaped(py, flat, &[mesh.morph_targets.len(), n, 3])
    }

    /// Texture coordinates, float32 `(n, 2)`, `[0, 1]` across the skin, v downwards.
    #[getter]
    fn uvs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        rows(py, &self.mesh().uvs)
    }

    /// Triangles as vertex indices, uint32 `(m, 3)`, front faces clockwise seen from the
    /// front (Quake's winding).
    #[getter]
    fn triangles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        rows(py, &self.mesh().triangles)
    }

    /// For each vertex, the index of the file's vertex it came from, uint32 `(n,)`.
    #[getter]
    fn source_vertices<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = self.mesh().source_vertices.clone();
        let n = v.len();
        shaped(py, v, &[n])
    }

    /// The index of the skin in `Model.skins` the mesh shows, or None.
    #[getter]
    fn skin(&self) -> Option<usize> {
        self.mesh().skin
    }

    /// Up to four joint indices per vertex, uint32 `(n, 4)` (heaviest first, unused slots
    /// 0), or None for a mesh that is not skinned.
    #[getter]
    fn joints<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.influences(py, |&(j, _)| j, 0u32)
    }

    /// The weights that go with `joints`, float32 `(n, 4)`, renormalised to sum to 1 when a
    /// vertex had more than four influences; None for a mesh that is not skinned.
    #[getter]
    fn weights<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.influences(py, |&(_, w)| w, 0.0f32)
    }

    fn __repr__(&self) -> String {
        let m = self.mesh();
        format!(
            "<retromodel.Mesh {:?}: {} vertices, {} triangles, {} poses>",
            m.name,
            m.positions.len(),
            m.triangles.len(),
            m.morph_targets.len().max(1)
        )
    }
}

impl Mesh {
    /// The four heaviest influences of each vertex, renormalised, mapped by `f`.
    fn influences<'py, T: numpy::Element + Copy>(
        &self,
        py: Python<'py>,
        f: impl Fn(&(u32, f32)) -> T,
        zero: T,
    ) -> PyResult<Option<Bound<'py, PyAny>>> {
        let mesh = self.mesh();
        if mesh.joint_weights.is_empty() {
            return Ok(None);
        }
        let mut flat = Vec::with_capacity(mesh.joint_weights.len() * 4);
        for list in &mesh.joint_weights {
            let mut list = list.clone();
            list.sort_by(|a, b| b.1.total_cmp(&a.1));
            list.truncate(4);
            let sum: f32 = list.iter().map(|i| i.1).sum();
            if sum > 0.0 {
                for i in &mut list {
                    i.1 /= sum;
                }
            }
            for k in 0..4 {
                flat.push(list.get(k).map(&f).unwrap_or(zero));
            }
        }
        let n = mesh.joint_weights.len();
        shaped(py, flat, &[n, 4]).map(Some)
    }
}

/// A named range of poses played as one animation.
#[pyclass(module = "retromodel", frozen, get_all)]
pub struct Clip {
    /// Its name.
    name: String,
    /// The first pose.
    first: usize,
    /// How many poses.
    count: usize,
    /// Frames per second.
    fps: f32,
    /// How long it plays, in seconds.
    seconds: f32,
    /// Whether it loops; None where the format does not say (the keyframe formats leave it
    /// to the game's code).
    r#loop: Option<bool>,
}

#[pymethods]
impl Clip {
    fn __repr__(&self) -> String {
        format!(
            "<retromodel.Clip {:?}: poses {}..{} at {} fps>",
            self.name,
            self.first,
            self.first + self.count,
            self.fps
        )
    }
}

/// A model's joints: names, parents and bind pose.
#[pyclass(module = "retromodel", frozen)]
pub struct Skeleton {
    model: Arc<retromodel::Model>,
}

#[pymethods]
impl Skeleton {
    /// Joint names.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.model.joints.iter().map(|j| j.name.clone()).collect()
    }

    /// Each joint's parent index, int32 `(j,)`, -1 for a root; a parent comes before its
    /// children.
    #[getter]
    fn parents<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let p: Vec<i32> = self
            .model
            .joints
            .iter()
            .map(|j| j.parent.map_or(-1, |p| p as i32))
            .collect();
        let n = p.len();
        shaped(py, p, &[n])
    }

    /// Bind-pose positions in object space, float32 `(j, 3)`.
    #[getter]
    fn translations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<[f32; 3]> = self.model.joints.iter().map(|j| j.translation).collect();
        rows(py, &v)
    }

    /// Bind-pose orientations in object space as unit quaternions `(x, y, z, w)`, float32
    /// `(j, 4)`.
    #[getter]
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: Vec<[f32; 4]> = self.model.joints.iter().map(|j| j.rotation).collect();
        rows(py, &v)
    }

    /// Bind-pose object-space matrices, float32 `(j, 4, 4)`, row-major.
    #[getter]
    fn bind<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let flat: Vec<f32> = self
            .model
            .joints
            .iter()
            .flat_map(|j| row_major(&JointPose::from_transform(&j.bind_transform()).to_mat4()))
            .collect();
        shaped(py, flat, &[self.model.joints.len(), 4, 4])
    }

    fn __len__(&self) -> usize {
        self.model.joints.len()
    }
}

/// A skeletal animation: local joint transforms per frame at a fixed rate.
#[pyclass(module = "retromodel", frozen)]
pub struct Animation {
    model: Arc<retromodel::Model>,
    index: usize,
}

impl Animation {
    fn animation(&self) -> &retromodel::model::SkeletalAnimation {
        &self.model.animations[self.index]
    }
}

#[pymethods]
impl Animation {
    /// Its name (an md5anim's file stem).
    #[getter]
    fn name(&self) -> &str {
        &self.animation().name
    }

    /// Frames per second.
    #[getter]
    fn fps(&self) -> f32 {
        self.animation().fps
    }

    /// Frames.
    #[getter]
    fn frame_count(&self) -> usize {
        self.animation().frames.count()
    }

    /// Whether it loops (the last frame repeats the first, as Doom 3's cycles).
    #[getter]
    fn r#loop(&self) -> bool {
        self.animation().loops
    }

    /// What it fires for the game (Half-Life's sequence events): a list of dicts with
    /// `frame`, `event`, `type` and `options`, as glTF's `extras.events`.
    #[getter]
    fn events<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let Some(events) = self.model.animation_events.get(self.index) else {
            return Ok(Vec::new());
        };
        events
            .iter()
            .map(|e| {
                let d = PyDict::new(py);
                d.set_item("frame", e.frame)?;
                d.set_item("event", e.event)?;
                d.set_item("type", e.kind)?;
                d.set_item("options", &e.options)?;
                Ok(d)
            })
            .collect()
    }

    /// Local joint translations per frame, float32 `(frames, joints, 3)`.
    #[getter]
    fn translations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let a = self.animation();
        let joints = self.model.joints.len();
        let flat: Vec<f32> = a
            .frames
            .iter()
            .flat_map(|f| f.iter().flat_map(|t| t.translation))
            .collect();
        shaped(py, flat, &[a.frames.len(), joints, 3])
    }

    /// Local joint rotations per frame as quaternions `(x, y, z, w)`, float32
    /// `(frames, joints, 4)`.
    #[getter]
    fn rotations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let a = self.animation();
        let joints = self.model.joints.len();
        let flat: Vec<f32> = a
            .frames
            .iter()
            .flat_map(|f| f.iter().flat_map(|t| t.rotation))
            .collect();
        shaped(py, flat, &[a.frames.len(), joints, 4])
    }

    fn __repr__(&self) -> String {
        let a = self.animation();
        format!(
            "<retromodel.Animation {:?}: {} frames at {} fps>",
            a.name,
            a.frames.count(),
            a.fps
        )
    }
}

/// A skin: one picture, or several for an animated skin group.
#[pyclass(module = "retromodel", frozen)]
pub struct Skin {
    model: Arc<retromodel::Model>,
    index: usize,
}

impl Skin {
    fn skin(&self) -> &retromodel::model::Skin {
        &self.model.skins[self.index]
    }
}

#[pymethods]
impl Skin {
    /// Its name (a file name, a shader or an MD2 skin path).
    #[getter]
    fn name(&self) -> &str {
        &self.skin().name
    }

    /// Where the picture was found (a file or `ARCHIVE:PATH`), or None when the model file
    /// stores it.
    #[getter]
    fn source(&self) -> Option<&str> {
        self.skin().source.as_deref()
    }

    /// The pictures as uint8 `(height, width, 4)` RGBA arrays (8-bit skins through their
    /// palette).
    #[getter]
    fn pictures<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.skin()
            .pictures
            .iter()
            .map(|p| shaped(py, p.to_rgba8(), &[p.height as usize, p.width as usize, 4]))
            .collect()
    }

    /// Seconds each picture of a skin group shows, or None.
    #[getter]
    fn times(&self) -> Option<Vec<f32>> {
        self.skin().picture_times.clone()
    }

    fn __repr__(&self) -> String {
        let s = self.skin();
        let size = s
            .pictures
            .first()
            .map(|p| format!("{}x{}", p.width, p.height))
            .unwrap_or_else(|| "no picture".into());
        format!(
            "<retromodel.Skin {:?}: {} pictures, {size}>",
            s.name,
            s.pictures.len()
        )
    }
}
