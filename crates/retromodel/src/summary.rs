//! A format-neutral summary of one file, the data behind `retromodel info`.

use crate::model::{Clip, Converted, Model};

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
    /// The format in words (`Quake MDL`), filled in by `Document::summary`; empty
    /// when a format's own `summary` made it (the viewers then show [`Summary::format`]).
    pub description: &'static str,
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
            description: "",
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

impl Summary {
    /// A summary of a model that no single file holds (an assembled Quake 3 player, a model
    /// built from arrays): [`Summary::of_converted`] with the model's own counts.
    pub fn of_model(format: &'static str, converted: &Converted) -> Summary {
        let model = &converted.model;
        Summary {
            vertices: model.vertex_count(),
            triangles: model.triangle_count(),
            poses: model.pose_count(),
            joints: model.joints.len(),
            meshes: model.meshes.len(),
            skins: model.skins.len(),
            ..Summary::of_converted(format, 0, converted)
        }
    }
}

impl std::fmt::Display for Value {
    /// The value as a person reads it: `12`, `0.5`, `1, 2.5, -3`, text as it is.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Int(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Floats(v) => {
                for (i, x) in v.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{x}")?;
                }
                Ok(())
            }
            Value::Text(t) => f.write_str(t),
        }
    }
}

/// `1 mesh` / `3 meshes`: a count with its noun in the right number.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A length for the info panel: at most one decimal, none when whole.
fn length(v: f32) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

impl Summary {
    /// The info panel of the viewers (desktop and web) in plain words: `(label, text)` rows
    /// such as `("Format", "Quake MDL, version 6")`, `("Size", "3 meshes, 1200 vertices,
    /// 2000 triangles")`, one row per clip and animation, the header fields as stored and
    /// the warnings. `model`, when given, adds its skeletal animations (the md5anims loaded
    /// beside an md5mesh) and skin sizes.
    pub fn plain_words(
        &self,
        model: Option<&crate::model::Model>,
        animations: &[AnimationEntry],
    ) -> Vec<(String, String)> {
        let mut rows: Vec<(String, String)> = Vec::new();
        let mut row = |label: &str, text: String| rows.push((label.to_string(), text));
        let name = if self.description.is_empty() {
            self.format
        } else {
            self.description
        };
        row("Format", format!("{name}, version {}", self.version));
        row(
            "Size",
            format!(
                "{}, {} per pose, {}",
                count(self.meshes, "mesh", "meshes"),
                count(self.vertices, "vertex", "vertices"),
                count(self.triangles, "triangle", "triangles")
            ),
        );
        if let Some([lo, hi]) = self.bounds {
            row(
                "Extent",
                format!(
                    "{} long (x), {} wide (y), {} tall (z), in model units",
                    length(hi[0] - lo[0]),
                    length(hi[1] - lo[1]),
                    length(hi[2] - lo[2])
                ),
            );
        }
        if self.poses > 0 {
            let mut t = count(self.poses, "pose", "poses");
            if self.frame_groups > 0 {
                t.push_str(&format!(
                    ", {}",
                    count(self.frame_groups, "frame group", "frame groups")
                ));
            }
            if !self.clips.is_empty() {
                t.push_str(&format!(" in {}", count(self.clips.len(), "clip", "clips")));
            }
            row("Animation", t);
        }
        for c in &self.clips {
            let timing = if c.frame_times.is_some() {
                "own frame times".to_string()
            } else {
                format!("{} fps", length(c.fps))
            };
            row(
                "Clip",
                format!(
                    "{}: {}, {timing}",
                    c.name,
                    count(c.count, "frame", "frames")
                ),
            );
        }
        if self.joints > 0 {
            row("Skeleton", count(self.joints, "joint", "joints"));
        }
        for a in animations.iter().filter(|a| a.kind == "skeletal") {
            let looping = match a.looping {
                Some(true) => ", loops",
                Some(false) => ", plays once",
                None => "",
            };
            row(
                "Animation",
                format!(
                    "{}: {} at {} fps ({:.2} s{looping}), from {}",
                    a.name,
                    count(a.frames, "frame", "frames"),
                    length(a.fps),
                    a.seconds,
                    a.file
                ),
            );
        }
        let mut skins = format!(
            "{}, {}",
            count(self.skins, "skin", "skins"),
            count(self.skin_pictures, "picture", "pictures")
        );
        if let Some(p) = model.and_then(|m| m.skins.iter().flat_map(|s| &s.pictures).next()) {
            skins.push_str(&format!(", {} x {} pixels", p.width, p.height));
        }
        row("Skins", skins);
        for n in &self.skin_names {
            row("Skin", n.clone());
        }
        if self.trailing_bytes > 0 {
            row(
                "Trailing",
                format!(
                    "{} after the data",
                    count(self.trailing_bytes, "byte", "bytes")
                ),
            );
        }
        for (k, v) in &self.header {
            rows.push((format!("Header {k}"), v.to_string()));
        }
        for w in &self.warnings {
            rows.push(("Warning".into(), w.clone()));
        }
        rows
    }
}

#[cfg(test)]
mod tests {
    use crate::document::Document;
    use crate::limits::Limits;
    use crate::resolve::NoFiles;

    /// The info panel's rows are words: the format by its description, counts with their
    /// nouns, clips with their timing, and no debug formatting (quotes, brackets, `Some(`).
    #[test]
    fn plain_words_of_a_quake_model() {
        let bytes = crate::formats::quake_mdl::fixtures::minimal();
        let doc = Document::parse(&bytes, &Limits::default()).unwrap();
        let converted = doc.to_model(&Default::default(), &NoFiles);
        let summary = doc.summary(&converted);
        let rows = summary.plain_words(Some(&converted.model), &[]);
        let get = |label: &str| {
            rows.iter()
                .find(|(l, _)| l == label)
                .map(|(_, t)| t.as_str())
                .unwrap_or_else(|| panic!("no {label} row in {rows:?}"))
        };
        let format = doc.format();
        assert_eq!(
            get("Format"),
            format!("{}, version {}", format.description(), summary.version)
        );
        let size = get("Size");
        assert!(
            size.contains(&format!("{} triangle", summary.triangles)),
            "{size}"
        );
        assert!(get("Skins").contains("pixels"), "{}", get("Skins"));
        for (label, text) in &rows {
            if label != "Warning" {
                for bad in ["Some(", "None", "{", "[", "\""] {
                    assert!(!text.contains(bad), "{label}: {text}");
                }
            }
        }
        assert_eq!(super::length(12.04), "12");
        assert_eq!(super::length(0.26), "0.3");
        assert_eq!(super::count(1, "mesh", "meshes"), "1 mesh");
        assert_eq!(super::count(2, "mesh", "meshes"), "2 meshes");
    }
}

/// An f32 as the shortest JSON number that reads back to it (0.1, not 0.10000000149); a
/// non-finite value as text.
#[cfg(feature = "json")]
pub fn json_float(v: f32) -> serde_json::Value {
    if v.is_finite() {
        let n: f64 = v.to_string().parse().unwrap_or(v as f64);
        serde_json::json!(n)
    } else {
        serde_json::json!(v.to_string())
    }
}

#[cfg(feature = "json")]
impl Value {
    /// The value as JSON (floats as their shortest form).
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Value::Int(i) => serde_json::json!(i),
            Value::Float(f) => json_float(*f),
            Value::Floats(fs) => fs.iter().map(|&f| json_float(f)).collect(),
            Value::Text(t) => serde_json::json!(t),
        }
    }
}

#[cfg(feature = "json")]
impl Summary {
    /// What `retromodel info --json` prints for the file at `path` (the Python package's
    /// `Model.info()` too): format, version, header fields, counts, clips with their length
    /// in seconds, bounds, trailing bytes and warnings.
    pub fn to_json(&self, path: &str) -> serde_json::Value {
        use serde_json::json;
        let header: serde_json::Map<String, serde_json::Value> = self
            .header
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_json()))
            .collect();
        let clips: Vec<serde_json::Value> = self
            .clips
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "first": c.first,
                    "count": c.count,
                    "fps": json_float(c.fps),
                    "seconds": json_float(crate::model::retime::clip_duration(c)),
                })
            })
            .collect();
        let floats = |v: &[f32; 3]| v.iter().map(|&f| json_float(f)).collect::<Vec<_>>();
        json!({
            "path": path,
            "format": self.format,
            "version": self.version,
            "header": header,
            "vertices": self.vertices,
            "triangles": self.triangles,
            "poses": self.poses,
            "frame_groups": self.frame_groups,
            "skins": self.skins,
            "skin_names": self.skin_names,
            "skin_pictures": self.skin_pictures,
            "clips": clips,
            "joints": self.joints,
            "meshes": self.meshes,
            "bounds": self.bounds.map(|[lo, hi]| json!({"min": floats(&lo), "max": floats(&hi)})),
            "trailing_bytes": self.trailing_bytes,
            "warnings": self.warnings,
        })
    }
}

/// One animation of a model, keyframe clip or skeletal animation alike: what `info`, Python's
/// `info()` and the viewers list.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationEntry {
    /// Its name.
    pub name: String,
    /// `keyframe` (a clip of the model's frames) or `skeletal`.
    pub kind: &'static str,
    /// Frames.
    pub frames: usize,
    /// Frames per second.
    pub fps: f32,
    /// Length in seconds.
    pub seconds: f32,
    /// Whether it loops, when the file says (Doom 3's cycles); `None` when the format stores
    /// no such flag (keyframe clips loop or not as the game code plays them).
    pub looping: Option<bool>,
    /// The file it came from (the model's own, or the `.md5anim` / animation `.iqm` beside it).
    pub file: String,
}

/// Every animation of `model`: its keyframe clips, then its skeletal animations, each with
/// the file it came from (`side` names the side file an animation of that name was taken
/// from: an `.md5anim` by its stem, an IQM animation file by the part before `:`; else the
/// model's own file `own`).
pub fn animation_entries(
    model: &Model,
    side: impl Fn(&str) -> Option<String>,
    own: &str,
) -> Vec<AnimationEntry> {
    let mut out: Vec<AnimationEntry> = model
        .clips
        .iter()
        .map(|c| AnimationEntry {
            name: c.name.clone(),
            kind: "keyframe",
            frames: c.count,
            fps: c.fps,
            seconds: crate::model::retime::clip_duration(c),
            looping: None,
            file: own.to_string(),
        })
        .collect();
    out.extend(model.animations.iter().map(|a| {
        let frames = a.frames.count();
        let file = side(&a.name)
            .or_else(|| side(a.name.split(':').next().unwrap_or_default()))
            .unwrap_or_else(|| own.to_string());
        AnimationEntry {
            name: a.name.clone(),
            kind: "skeletal",
            frames,
            fps: a.fps,
            // As Doom 3 times an animation (idMD5Anim::Length): the last frame is where it
            // ends.
            seconds: if a.fps > 0.0 {
                frames.saturating_sub(1) as f32 / a.fps
            } else {
                0.0
            },
            looping: Some(a.loops),
            file,
        }
    }));
    out
}

/// An animation a skeletal model took from a file beside it (an md5mesh's `.md5anim`s):
/// the file's name, its frame count and rate.
#[derive(Debug, Clone, PartialEq)]
pub struct AnimationBeside {
    /// The file name.
    pub file: String,
    /// Frames.
    pub frames: usize,
    /// Frames per second.
    pub fps: f32,
}

/// The animations `model` took from side files its format listed through `listed` (`None`
/// when the format lists none: every format but MD5 meshes).
pub fn animations_beside<R: crate::resolve::Resolver>(
    model: &crate::model::Model,
    listed: &crate::resolve::Listed<R>,
) -> Option<Vec<AnimationBeside>> {
    listed.was_listed().then(|| {
        model
            .animations
            .iter()
            .filter_map(|a| {
                Some(AnimationBeside {
                    file: listed.file_of(&a.name)?,
                    frames: a.frames.len(),
                    fps: a.fps,
                })
            })
            .collect()
    })
}

/// The object `retromodel info --json` prints for the file at `path` (and the Python
/// package's `Model.info()`): [`Summary::to_json`], plus `skin_sources` (where each
/// looked-up skin picture came from) when any was looked up and `animations` (the files an
/// md5mesh took its animations from) when the format lists side files.
#[cfg(feature = "json")]
pub fn info_json(
    path: &str,
    summary: &Summary,
    skin_sources: &[Option<String>],
    animations: Option<&[AnimationBeside]>,
) -> serde_json::Value {
    let mut v = summary.to_json(path);
    if skin_sources.iter().any(Option::is_some) {
        v["skin_sources"] = serde_json::json!(skin_sources);
    }
    if let Some(anims) = animations {
        v["animations"] = anims
            .iter()
            .map(|a| serde_json::json!({"file": a.file, "frames": a.frames, "fps": json_float(a.fps)}))
            .collect();
    }
    v
}
