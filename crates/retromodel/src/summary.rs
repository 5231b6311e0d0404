//! A format-neutral summary of one file, the data behind `retromodel info`.

use crate::model::{Clip, Converted};

/// A header field's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f32),
    /// A vector of floats.
    Floats(Vec<f32>),
    /// Text.
    Text(String),
}

/// What `info` prints about a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    /// Short format name (`quake-mdl`).
    pub format: &'static str,
    /// Version number from the file.
    pub version: i64,
    /// The raw header fields under their spec names, in file order.
    pub header: Vec<(&'static str, Value)>,
    /// Vertices per pose, summed over meshes (file vertices, before any seam split).
    pub vertices: usize,
    /// Triangles, summed over meshes.
    pub triangles: usize,
    /// Every keyframe, group members included.
    pub poses: usize,
    /// Number of frame groups.
    pub frame_groups: usize,
    /// Skin entries (a group counts once).
    pub skins: usize,
    /// Skin names or game paths as stored (MD2); empty for formats that store none.
    pub skin_names: Vec<String>,
    /// Skin pictures, group members included (for MD2: those found and decoded).
    pub skin_pictures: usize,
    /// Clips.
    pub clips: Vec<Clip>,
    /// Skeleton joints.
    pub joints: usize,
    /// Meshes.
    pub meshes: usize,
    /// Axis-aligned bounds `[min, max]` of the first pose's decoded positions, if any.
    pub bounds: Option<[[f32; 3]; 2]>,
    /// Bytes after the parsed data.
    pub trailing_bytes: usize,
    /// Non-fatal problems found while reading.
    pub warnings: Vec<String>,
}

impl Summary {
    /// A summary of a keyframe file with what its converted model tells: skin pictures,
    /// clips, meshes, the first pose's bounds and the conversion's warnings. Header, counts,
    /// skin names and trailing bytes are empty for the format to fill.
    pub fn of_converted(format: &'static str, version: i64, converted: &Converted) -> Summary {
        let model = &converted.model;
        Summary {
            format,
            version,
            header: Vec::new(),
            vertices: 0,
            triangles: 0,
            poses: 0,
            frame_groups: 0,
            skins: 0,
            skin_names: Vec::new(),
            skin_pictures: model.skins.iter().map(|s| s.pictures.len()).sum(),
            clips: model.clips.clone(),
            joints: 0,
            meshes: model.meshes.len(),
            bounds: model.bounds(),
            trailing_bytes: 0,
            warnings: converted.warnings.clone(),
        }
    }
}
