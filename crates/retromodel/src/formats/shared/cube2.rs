//! What a Cube 2 (Sauerbraten, Red Eclipse, Tesseract) model configuration says about an
//! md5mesh or IQM beside it: size, turn and offset (`mdlscale`, `mdltrans`, `mdlyaw`,
//! `mdlpitch`, `mdlroll`) and the file and speed of each animation (`md5anim NAME FILE
//! SPEED`, `iqmanim NAME FILE SPEED`, the files under `iqmdir`/`md5dir` when given).
//!
//! Sources: Red Eclipse's `src/engine/rendermodel.cpp` (the commands), `animmodel.h` (the
//! model matrix, `calcanim`, `animpos::setframes`) and `md5.h` (the loader), read at
//! redeclipse/base faf378d1:
//! - The engine reads `<model folder>/md5.cfg`; `md5load FILE` names the mesh. The `hwep/`,
//!   `vwep/` and `item/` subfolders are other models with their own configuration, sharing
//!   the mesh, so only configurations in the mesh's own folder that load it count here.
//! - `mdlscale P` scales by `P / 100` (1 when `P <= 0`); `mdltrans X Y Z` moves by the vector
//!   in model units, before scaling: a vertex goes to `R · (s · (v + t))` with `R` the yaw
//!   about Z, then pitch about X, then roll about Y (negated).
//! - The md5 loader negates Y (positions and joint orientations), so Cube 2's space is the
//!   file's mirrored in Y; in the file's space (ours) a yaw, pitch or roll turns the other
//!   way about Z and X, and the same way about Y.
//! - `md5anim`'s SPEED is frames per second (`info.speed = 1000 / speed` ms a frame); 0 or
//!   none is 10 frames a second. The md5anim's own `frameRate` is read and ignored. Each of
//!   the N frames shows for a step (`animpos::setframes`), N / speed seconds in all, where
//!   Doom 3 and glTF count from the first key to the last: the converter repeats the last
//!   frame so that the keys span N / speed.

use crate::model::transform::Similarity;
use crate::resolve::Resolver;
use crate::skin_lookup::cube2_words;

/// What the configuration says about the model.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Cube2Config {
    /// The configuration's file name, for messages.
    pub file: String,
    /// `mdlscale` as given (percent).
    pub scale_percent: Option<f32>,
    /// `mdltrans`.
    pub translate: Option<[f32; 3]>,
    /// `mdlyaw`, `mdlpitch`, `mdlroll` in degrees.
    pub yaw: f32,
    /// See `yaw`.
    pub pitch: f32,
    /// See `yaw`.
    pub roll: f32,
    /// Per animation file name (as written, without folder), its speed in frames a second
    /// (10 where the line gives none), from the first line that plays it.
    pub speeds: Vec<(String, f32)>,
    /// The animation files as the configuration names them (after `iqmdir`/`md5dir`), in
    /// order, each once.
    pub anim_paths: Vec<String>,
}

impl Cube2Config {
    /// The configuration in the model's folder that loads the model (`load_command`,
    /// `md5load` or `iqmload`, naming it), if any.
    pub fn find(resolver: &dyn Resolver, load_command: &str) -> Option<Cube2Config> {
        let model = resolver.model_name()?;
        for cfg in resolver.list("cfg") {
            let Some(bytes) = resolver.load(&cfg) else {
                continue;
            };
            let text = String::from_utf8_lossy(&bytes);
            let lines: Vec<Vec<String>> = text.lines().map(cube2_words).collect();
            let loads = lines
                .iter()
                .any(|w| w.len() >= 2 && w[0] == load_command && file_name(&w[1]) == model);
            if loads {
                let lines = with_execs(resolver, lines, 0);
                return Some(Cube2Config::parse(&cfg, &lines));
            }
        }
        None
    }

    fn parse(file: &str, lines: &[Vec<String>]) -> Cube2Config {
        let mut c = Cube2Config {
            file: file.to_string(),
            ..Cube2Config::default()
        };
        let num = |s: Option<&String>| {
            s.and_then(|s| s.parse::<f32>().ok())
                .filter(|v| v.is_finite())
        };
        let mut dir = String::new();
        for w in lines {
            match w.first().map(String::as_str) {
                Some("iqmdir" | "md5dir") => {
                    dir = w.get(1).cloned().unwrap_or_default();
                }
                Some("mdlscale") => c.scale_percent = num(w.get(1)),
                Some("mdltrans") => {
                    if let (Some(x), Some(y), Some(z)) =
                        (num(w.get(1)), num(w.get(2)), num(w.get(3)))
                    {
                        c.translate = Some([x, y, z]);
                    }
                }
                Some("mdlyaw") => c.yaw = num(w.get(1)).unwrap_or(0.0),
                Some("mdlpitch") => c.pitch = num(w.get(1)).unwrap_or(0.0),
                Some("mdlroll") => c.roll = num(w.get(1)).unwrap_or(0.0),
                Some("md5anim" | "iqmanim") if w.len() >= 3 => {
                    let path = if dir.is_empty() {
                        w[2].clone()
                    } else {
                        format!("{dir}/{}", w[2])
                    };
                    if !c.anim_paths.contains(&path) {
                        c.anim_paths.push(path);
                    }
                    let file = file_name(&w[2]).to_string();
                    let speed = num(w.get(3)).filter(|&s| s > 0.0).unwrap_or(10.0);
                    if !c.speeds.iter().any(|(f, _)| *f == file) {
                        c.speeds.push((file, speed));
                    }
                }
                _ => {}
            }
        }
        c
    }

    /// The scale `mdlscale` gives (1 without one).
    pub fn scale(&self) -> f32 {
        match self.scale_percent {
            Some(p) if p > 0.0 => p / 100.0,
            _ => 1.0,
        }
    }

    /// Where the engine puts a vertex of the file, in the file's space.
    pub fn similarity(&self) -> Similarity {
        let s = self.scale();
        // In Cube 2's space, the file's mirrored in Y.
        let t = self.translate.map_or([0.0; 3], |[x, y, z]| [x, -y, z]);
        let r =
            |axis: [f32; 3], deg: f32| crate::math::Quat::from_axis_angle(axis, deg.to_radians());
        // Cube 2 turns Rz(yaw) Rx(pitch) Ry(-roll) in its space, the file's mirrored in Y.
        let q = r([0.0, 0.0, 1.0], -self.yaw)
            * r([1.0, 0.0, 0.0], -self.pitch)
            * r([0.0, 1.0, 0.0], -self.roll);
        let turn = Similarity {
            rotation: [q.x, q.y, q.z, q.w],
            ..Similarity::IDENTITY
        };
        Similarity {
            scale: s,
            rotation: [0.0, 0.0, 0.0, 1.0],
            translation: t.map(|c| c * s),
        }
        .then(&turn)
    }

    /// What is applied, in words (`mdlscale 4000 (x40), mdlyaw 90`); empty when nothing.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(p) = self.scale_percent {
            parts.push(format!("mdlscale {p} (x{})", self.scale()));
        }
        if let Some([x, y, z]) = self.translate {
            parts.push(format!("mdltrans {x} {y} {z}"));
        }
        for (n, v) in [
            ("mdlyaw", self.yaw),
            ("mdlpitch", self.pitch),
            ("mdlroll", self.roll),
        ] {
            if v != 0.0 {
                parts.push(format!("{n} {v}"));
            }
        }
        parts.join(", ")
    }
}

/// `lines` with each `exec FILE` replaced by FILE's lines (a game path, found through the
/// resolver; nested up to four deep; a file that cannot be read is skipped).
fn with_execs(resolver: &dyn Resolver, lines: Vec<Vec<String>>, depth: usize) -> Vec<Vec<String>> {
    let mut out = Vec::with_capacity(lines.len());
    for w in lines {
        if w.first().map(String::as_str) == Some("exec") && depth < 4 {
            if let Some(bytes) = w.get(1).and_then(|f| resolver.load(f)) {
                let text = String::from_utf8_lossy(&bytes);
                let inner = text.lines().map(cube2_words).collect();
                out.extend(with_execs(resolver, inner, depth + 1));
            }
            continue;
        }
        out.push(w);
    }
    out
}

/// The last part of a path (`../mesh.md5mesh` -> `mesh.md5mesh`).
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Cube2Config {
        let lines: Vec<Vec<String>> = text.lines().map(cube2_words).collect();
        Cube2Config::parse("md5.cfg", &lines)
    }

    #[test]
    fn door_scale_and_speeds() {
        let c = config(
            "md5load mesh.md5mesh\nmd5anim \"mapmodel\" \"idle.md5anim\" 1\n\
             md5anim \"trigger on\" \"open.md5anim\" 12\nmd5anim \"x\" \"close.md5anim\"\nmdlscale 4000\n",
        );
        assert_eq!(c.scale(), 40.0);
        assert_eq!(
            c.speeds,
            [
                ("idle.md5anim".to_string(), 1.0),
                ("open.md5anim".to_string(), 12.0),
                ("close.md5anim".to_string(), 10.0)
            ]
        );
        let p = c.similarity().point([1.0, 2.0, 3.0]);
        assert_eq!(p, [40.0, 80.0, 120.0]);
    }

    #[test]
    fn translation_is_scaled_and_yaw_turns_against_the_mirror() {
        let mirrored = config("mdltrans 0 3 0\n").similarity().point([0.0; 3]);
        assert_eq!(
            mirrored,
            [0.0, -3.0, 0.0],
            "Y is mirrored in the file's space"
        );
        let c = config("mdlscale 200\nmdltrans 1 0 0\nmdlyaw 90\n");
        let p = c.similarity().point([0.0, 0.0, 0.0]);
        // (0 + 1) * 2 = 2 along X, turned by -90 degrees about Z in the file's space.
        assert!((p[0]).abs() < 1e-5 && (p[1] + 2.0).abs() < 1e-5, "{p:?}");
        assert_eq!(c.describe(), "mdlscale 200 (x2), mdltrans 1 0 0, mdlyaw 90");
    }
}
