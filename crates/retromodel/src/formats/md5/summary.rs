//! The `info` summaries of the three MD5 files.

use super::raw::{AnimFile, CameraFile, MeshFile};
use crate::model::{Clip, Converted};
use crate::summary::{Summary, Value};

fn version(v: Option<i32>) -> Value {
    match v {
        Some(v) => Value::Int(v as i64),
        None => Value::Text("missing".into()),
    }
}

/// A summary with nothing but the format, version and warnings: each file fills its own.
fn base(format: &'static str, v: Option<i32>, converted: &Converted) -> Summary {
    Summary {
        skin_pictures: 0,
        clips: Vec::new(),
        meshes: 0,
        bounds: None,
        ..Summary::of_converted(format, v.unwrap_or(0) as i64, converted)
    }
}

/// Seconds an animation of `frames` frames lasts at `rate` (Doom 3: `numFrames - 1` steps).
pub fn duration(frames: usize, rate: f32) -> f32 {
    if rate > 0.0 {
        frames.saturating_sub(1) as f32 / rate
    } else {
        0.0
    }
}

/// One clip over all `frames` at `fps` (none for no frames).
fn whole_clip(name: &str, frames: usize, fps: f32) -> Vec<Clip> {
    (frames > 0)
        .then(|| Clip {
            name: name.to_string(),
            first: 0,
            count: frames,
            fps,
            frame_times: None,
        })
        .into_iter()
        .collect()
}

/// Summarises an md5mesh; `bounds` is the bind pose's.
pub fn mesh_summary(file: &MeshFile, converted: &Converted) -> Summary {
    let mut s = base(super::MESH_FORMAT, file.version, converted);
    let max_weights = file
        .meshes
        .iter()
        .flat_map(|m| &m.verts)
        .map(|v| v.count_weight)
        .max()
        .unwrap_or(0);
    let weights: usize = file.meshes.iter().map(|m| m.weights.len()).sum();
    s.header = vec![
        ("MD5Version", version(file.version)),
        ("commandline", Value::Text(file.commandline.clone())),
        ("numJoints", Value::Int(file.joints.len() as i64)),
        (
            "numMeshes",
            Value::Int(file.stated_meshes.unwrap_or(file.meshes.len() as u32) as i64),
        ),
        ("weights", Value::Int(weights as i64)),
        ("max_weights_per_vertex", Value::Int(max_weights as i64)),
    ];
    s.vertices = file.meshes.iter().map(|m| m.verts.len()).sum();
    s.triangles = file.meshes.iter().map(|m| m.tris.len()).sum();
    s.joints = file.joints.len();
    s.meshes = file.meshes.len();
    s.skin_names = file.meshes.iter().map(|m| m.shader.clone()).collect();
    s.bounds = converted.model.bounds();
    s
}

/// Summarises an md5anim: one clip over all frames at the file's rate.
pub fn anim_summary(file: &AnimFile, name: &str, converted: &Converted) -> Summary {
    let mut s = base(super::ANIM_FORMAT, file.version, converted);
    let frames = file.frames.len();
    s.header = vec![
        ("MD5Version", version(file.version)),
        ("commandline", Value::Text(file.commandline.clone())),
        ("numFrames", Value::Int(frames as i64)),
        ("numJoints", Value::Int(file.hierarchy.len() as i64)),
        ("frameRate", Value::Float(file.frame_rate)),
        (
            "numAnimatedComponents",
            Value::Int(file.num_animated_components as i64),
        ),
        ("duration", Value::Float(duration(frames, file.frame_rate))),
    ];
    s.joints = file.hierarchy.len();
    s.poses = frames;
    s.clips = whole_clip(name, frames, file.frame_rate);
    s.bounds = file.bounds.first().map(|b| [b.min, b.max]);
    s
}

/// Summarises an md5camera: one clip over all frames at the file's rate.
pub fn camera_summary(file: &CameraFile, name: &str, converted: &Converted) -> Summary {
    let mut s = base(super::CAMERA_FORMAT, file.version, converted);
    let frames = file.frames.len();
    s.header = vec![
        ("MD5Version", version(file.version)),
        ("commandline", Value::Text(file.commandline.clone())),
        ("numFrames", Value::Int(frames as i64)),
        ("frameRate", Value::Float(file.frame_rate)),
        ("numCuts", Value::Int(file.cuts.len() as i64)),
        ("duration", Value::Float(duration(frames, file.frame_rate))),
    ];
    s.poses = frames;
    s.clips = whole_clip(name, frames, file.frame_rate);
    s
}
