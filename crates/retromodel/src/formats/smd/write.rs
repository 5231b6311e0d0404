//! SMD text from a [`File`], laid out as studiomdl-era exporters and Blender Source Tools
//! write it: one statement a line, numbers with 6 decimals.

use std::fmt::Write;

use super::File;

/// A number as SMD exporters write it (`%f`: 6 decimals).
fn num(out: &mut String, v: f32) {
    let _ = write!(out, " {v:.6}");
}

/// The text of `file` (see [`File::write`]).
pub(super) fn write(file: &File) -> String {
    let mut out = String::from("version 1\nnodes\n");
    for (i, n) in file.nodes.iter().enumerate() {
        let _ = writeln!(out, "{i} \"{}\" {}", n.name, n.parent);
    }
    out.push_str("end\n");
    if !file.frames.is_empty() {
        out.push_str("skeleton\n");
        for f in &file.frames {
            let _ = writeln!(out, "time {}", f.time);
            for b in &f.bones {
                let _ = write!(out, "{}", b.bone);
                for v in b.position.iter().chain(&b.rotation) {
                    num(&mut out, *v);
                }
                out.push('\n');
            }
        }
        out.push_str("end\n");
    }
    if !file.triangles.is_empty() {
        out.push_str("triangles\n");
        for t in &file.triangles {
            out.push_str(&t.material);
            out.push('\n');
            for c in &t.corners {
                let _ = write!(out, "{}", c.bone);
                for v in c.position.iter().chain(&c.normal).chain(&c.uv) {
                    num(&mut out, *v);
                }
                if !c.links.is_empty() {
                    let _ = write!(out, " {}", c.links.len());
                    for (b, w) in &c.links {
                        let _ = write!(out, " {b}");
                        num(&mut out, *w);
                    }
                }
                out.push('\n');
            }
        }
        out.push_str("end\n");
    }
    out
}
