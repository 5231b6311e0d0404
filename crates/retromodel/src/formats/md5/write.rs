//! Writing the three MD5 text files in id Software's layout: tabs, parenthesised vectors,
//! `// parent` comments after joints, a blank line between sections.
//!
//! Numbers are written with Rust's `{}`: integers as they are, floats in their shortest
//! decimal form that reads back to the same `f32` (never in exponent form, `-0` for negative
//! zero, `24` for an integral frame rate), so parse -> write -> parse gives equal values,
//! bit for bit. What a text file cannot hold is changed, not refused: a non-finite float
//! (which no parse produces) is written as `0`, and in strings a `"` becomes `'` and a line
//! feed a space (a string can hold neither; see read.rs; a carriage return is kept). The `MD5Version` line is left
//! out when `version` is `None`, so that such a file reads back the same.

use std::fmt::Write as _;

use super::raw::*;

/// A float in its shortest round-trip decimal form (never with an exponent).
fn num(out: &mut String, v: f32) {
    if v.is_finite() {
        let _ = write!(out, "{v}");
    } else {
        out.push('0');
    }
}

/// `( a b c )`
fn vector(out: &mut String, v: &[f32]) {
    out.push_str("( ");
    for &c in v {
        num(out, c);
        out.push(' ');
    }
    out.push(')');
}

/// Vectors one after the other, a space between two.
fn vectors(out: &mut String, vs: &[&[f32]]) {
    for (k, v) in vs.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        vector(out, v);
    }
}

/// A quoted string, with what a string cannot hold replaced.
fn string(out: &mut String, s: &str) {
    out.push('"');
    out.extend(s.chars().map(|c| match c {
        '"' => '\'',
        '\n' => ' ',
        c => c,
    }));
    out.push('"');
}

/// `MD5Version` (when known) and `commandline`, then a blank line.
fn header(out: &mut String, version: Option<i32>, commandline: &str) {
    if let Some(v) = version {
        let _ = writeln!(out, "MD5Version {v}");
    }
    out.push_str("commandline ");
    string(out, commandline);
    out.push_str("\n\n");
}

/// The `// parent name` comment id writes after a joint (empty for a root).
fn parent_comment<'a>(out: &mut String, parent: i32, name_of: impl Fn(usize) -> Option<&'a str>) {
    out.push_str("\t// ");
    if let Some(name) = usize::try_from(parent).ok().and_then(name_of) {
        out.extend(name.chars().map(|c| if c == '\n' { ' ' } else { c }));
    }
    out.push('\n');
}

/// Writes an `.md5mesh` file: `numMeshes` is `stated_meshes` when set, else the number of
/// meshes.
pub fn write_mesh(file: &MeshFile) -> String {
    let mut out = String::new();
    header(&mut out, file.version, &file.commandline);
    let num_meshes = file
        .stated_meshes
        .map_or(file.meshes.len() as u64, u64::from);
    let _ = write!(
        out,
        "numJoints {}\nnumMeshes {num_meshes}\n\njoints {{\n",
        file.joints.len()
    );
    for j in &file.joints {
        out.push('\t');
        string(&mut out, &j.name);
        let _ = write!(out, "\t{} ", j.parent);
        vectors(&mut out, &[&j.pos, &j.orient]);
        out.push('\t');
        parent_comment(&mut out, j.parent, |p| {
            file.joints.get(p).map(|j| j.name.as_str())
        });
    }
    out.push_str("}\n");
    for m in &file.meshes {
        out.push_str("\nmesh {\n\tshader ");
        string(&mut out, &m.shader);
        let _ = write!(out, "\n\n\tnumverts {}\n", m.verts.len());
        for (i, v) in m.verts.iter().enumerate() {
            let _ = write!(out, "\tvert {i} ");
            vector(&mut out, &v.uv);
            let _ = writeln!(out, " {} {}", v.start_weight, v.count_weight);
        }
        let _ = write!(out, "\n\tnumtris {}\n", m.tris.len());
        for (i, t) in m.tris.iter().enumerate() {
            let _ = writeln!(out, "\ttri {i} {} {} {}", t[0], t[1], t[2]);
        }
        let _ = write!(out, "\n\tnumweights {}\n", m.weights.len());
        for (i, w) in m.weights.iter().enumerate() {
            let _ = write!(out, "\tweight {i} {} ", w.joint);
            num(&mut out, w.bias);
            out.push(' ');
            vector(&mut out, &w.pos);
            out.push('\n');
        }
        out.push_str("}\n");
    }
    out
}

/// Writes an `.md5anim` file: `numFrames` is the number of frames, `numJoints` that of the
/// hierarchy; each frame's values go six to a line.
pub fn write_anim(file: &AnimFile) -> String {
    let mut out = String::new();
    header(&mut out, file.version, &file.commandline);
    let _ = write!(
        out,
        "numFrames {}\nnumJoints {}\nframeRate ",
        file.frames.len(),
        file.hierarchy.len()
    );
    num(&mut out, file.frame_rate);
    let _ = write!(
        out,
        "\nnumAnimatedComponents {}\n\nhierarchy {{\n",
        file.num_animated_components
    );
    for j in &file.hierarchy {
        out.push('\t');
        string(&mut out, &j.name);
        let _ = write!(out, "\t{} {} {}", j.parent, j.flags, j.start_index);
        parent_comment(&mut out, j.parent, |p| {
            file.hierarchy.get(p).map(|j| j.name.as_str())
        });
    }
    out.push_str("}\n\nbounds {\n");
    for b in &file.bounds {
        out.push('\t');
        vectors(&mut out, &[&b.min, &b.max]);
        out.push('\n');
    }
    out.push_str("}\n\nbaseframe {\n");
    for b in &file.baseframe {
        out.push('\t');
        vectors(&mut out, &[&b.pos, &b.orient]);
        out.push('\n');
    }
    out.push_str("}\n");
    for (i, frame) in file.frames.iter().enumerate() {
        let _ = write!(out, "\nframe {i} {{\n");
        for line in frame.chunks(6) {
            for (k, &v) in line.iter().enumerate() {
                out.push(if k == 0 { '\t' } else { ' ' });
                num(&mut out, v);
            }
            out.push('\n');
        }
        out.push_str("}\n");
    }
    out
}

/// Writes an `.md5camera` file: `numFrames` is the number of camera lines, `numCuts` that
/// of the cuts.
pub fn write_camera(file: &CameraFile) -> String {
    let mut out = String::new();
    header(&mut out, file.version, &file.commandline);
    let _ = write!(out, "numFrames {}\nframeRate ", file.frames.len());
    num(&mut out, file.frame_rate);
    let _ = write!(out, "\nnumCuts {}\n\ncuts {{\n", file.cuts.len());
    for c in &file.cuts {
        let _ = writeln!(out, "\t{c}");
    }
    out.push_str("}\n\ncamera {\n");
    for f in &file.frames {
        out.push('\t');
        vectors(&mut out, &[&f.pos, &f.orient]);
        out.push(' ');
        num(&mut out, f.fov);
        out.push('\n');
    }
    out.push_str("}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_never_use_exponents() {
        let mut s = String::new();
        for v in [1e-30f32, 3.4e38, -0.0, 24.0, 1e-45, f32::NAN] {
            num(&mut s, v);
            s.push(' ');
        }
        assert!(
            !s.contains('e') && !s.contains("inf") && !s.contains("NaN"),
            "{s}"
        );
        assert!(s.starts_with("0.000000000000000000000000000001 "), "{s}");
        assert!(s.contains(" -0 24 "), "{s}");
        assert!(s.ends_with(" 0 "), "{s}");
    }

    #[test]
    fn strings_cannot_break_out() {
        let mut s = String::new();
        string(&mut s, "a\"b\nc\\d\re");
        assert_eq!(s, "\"a'b c\\d\re\"");
    }
}
