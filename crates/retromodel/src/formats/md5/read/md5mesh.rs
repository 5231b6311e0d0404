//! Reading an `.md5mesh`: joints, then `mesh` blocks (shader, vertices, triangles,
//! weights), and each mesh's name from the `// meshes: NAME` comment exporters write.

use std::mem::size_of;

use super::syntax::{
    joint_context, plural, Parser, MIN_JOINT, MIN_TRI, MIN_VERT, MIN_WEIGHT, RBRACE, STR,
};
use super::Parsed;
use crate::error::{ErrorKind, Result, ResultExt};
use crate::formats::md5::raw::*;
use crate::formats::md5::MESH_FORMAT;
use crate::io::text::{Kind, Token};

/// Parses an `.md5mesh` file.
///
/// Warns about a missing `MD5Version` or `commandline` line, a `numMeshes` that differs from
/// the meshes present (kept in `stated_meshes`), a mesh without a `shader` line and strings
/// that are not UTF-8; fails with line and column on anything else that is off (see the
/// module documentation).
pub fn parse_mesh(text: &[u8], limits: &crate::limits::Limits) -> Result<Parsed<MeshFile>> {
    let mut p = Parser::new(text, MESH_FORMAT, limits);
    p.record_line_comments(b"meshes:");
    let version = p.version()?;
    let commandline = p.commandline()?;
    let (num_joints, nj_tok) = p.keyword_int("numJoints")?;
    let (num_meshes, nm_tok) = p.keyword_int("numMeshes")?;
    let num_meshes = p.plain_count("numMeshes", &nm_tok, num_meshes)?;

    p.keyword("joints")?;
    p.punct(b'{')?;
    let nj = p.count(
        "numJoints",
        &nj_tok,
        num_joints,
        MIN_JOINT,
        size_of::<Joint>() as u64,
    )?;
    let mut joints = Vec::with_capacity(nj);
    for i in 0..nj {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numJoints = {nj} but the joints block has {}",
                plural(i, "joint")
            )
        })?;
        let name = p
            .string("joint name")
            .context_with(|| format!("joint {i}"))?;
        let joint = (|| -> Result<Joint> {
            Ok(Joint {
                parent: p.parent(i)?,
                pos: p.vector("joint position")?,
                orient: p.vector("joint orientation")?,
                name: String::new(),
            })
        })()
        .context_with(|| joint_context(i, &name))?;
        joints.push(Joint { name, ..joint });
    }
    let extra = p.peek_kind()? == STR;
    p.too_many(extra, || {
        format!("the joints block has more joints than numJoints = {nj}")
    })?;
    p.punct(b'}')?;

    let mut meshes = Vec::new();
    let mut spans = Vec::new();
    while p.peek_kind()? != Kind::Eof {
        let t = p.keyword("mesh")?;
        let i = meshes.len();
        p.charge(&t, (size_of::<Mesh>() + size_of::<(usize, usize)>()) as u64)?;
        meshes.push(read_mesh(&mut p, i, nj).context_with(|| format!("mesh {i}"))?);
        spans.push((t.start, p.consumed()));
    }
    let names = mesh_names(&p, &spans);
    let stated_meshes = if num_meshes as usize != meshes.len() {
        p.warn(format!(
            "numMeshes = {num_meshes} but the file has {} meshes",
            meshes.len()
        ));
        Some(num_meshes)
    } else {
        None
    };
    let mut parsed = p.finish(MeshFile {
        version,
        commandline,
        stated_meshes,
        joints,
        meshes,
    });
    parsed.mesh_names = names;
    Ok(parsed)
}

/// One `mesh { ... }` block after its keyword.
fn read_mesh(p: &mut Parser<'_>, index: usize, num_joints: usize) -> Result<Mesh> {
    p.punct(b'{')?;
    let shader = if p.at_word("shader")? {
        p.next_token()?;
        p.string("shader")?
    } else {
        p.warn(format!("mesh {index}: no shader line (read as \"\")"));
        String::new()
    };

    let (value, tok) = p.keyword_int("numverts")?;
    // Each vertex also keeps the place of its `startWeight` until the weights are known.
    let cost = (size_of::<Vert>() + size_of::<Token>()) as u64;
    let nv = p.count("numverts", &tok, value, MIN_VERT, cost)?;
    let mut verts = Vec::with_capacity(nv);
    let mut weight_tokens = Vec::with_capacity(nv);
    for v in 0..nv {
        if let Some((vert, tok)) = p.fast_vert(v) {
            verts.push(vert);
            weight_tokens.push(tok);
            continue;
        }
        p.entry("vert", v, Some("numtris"), || {
            format!(
                "numverts = {nv} but the mesh has {}",
                plural(v, "vert line")
            )
        })?;
        let (vert, tok) = (|| -> Result<(Vert, Token)> {
            let uv = p.vector("texture coordinate")?;
            let (start_weight, tok) = p.index("startWeight")?;
            let (count_weight, _) = p.index("countWeight")?;
            Ok((
                Vert {
                    uv,
                    start_weight,
                    count_weight,
                },
                tok,
            ))
        })()
        .context_with(|| format!("vert {v}"))?;
        verts.push(vert);
        weight_tokens.push(tok);
    }
    let extra = p.at_word("vert")?;
    p.too_many(extra, || {
        format!("the mesh has more vert lines than numverts = {nv}")
    })?;

    let (value, tok) = p.keyword_int("numtris")?;
    let nt = p.count(
        "numtris",
        &tok,
        value,
        MIN_TRI,
        size_of::<[u32; 3]>() as u64,
    )?;
    let mut tris = Vec::with_capacity(nt);
    for t in 0..nt {
        if let Some(tri) = p.fast_tri(t, nv) {
            tris.push(tri);
            continue;
        }
        p.entry("tri", t, Some("numweights"), || {
            format!("numtris = {nt} but the mesh has {}", plural(t, "tri line"))
        })?;
        let tri = (|| -> Result<[u32; 3]> {
            let mut tri = [0u32; 3];
            for c in &mut tri {
                let (v, tok) = p.int("vertex index")?;
                if v < 0 || v >= nv as i64 {
                    return Err(p.error(
                        &tok,
                        ErrorKind::IndexOutOfRange,
                        format!("vertex index {v} out of range (numverts = {nv})"),
                    ));
                }
                *c = v as u32;
            }
            Ok(tri)
        })()
        .context_with(|| format!("tri {t}"))?;
        tris.push(tri);
    }
    let extra = p.at_word("tri")?;
    p.too_many(extra, || {
        format!("the mesh has more tri lines than numtris = {nt}")
    })?;

    let (value, tok) = p.keyword_int("numweights")?;
    let nw = p.count(
        "numweights",
        &tok,
        value,
        MIN_WEIGHT,
        size_of::<Weight>() as u64,
    )?;
    let mut weights = Vec::with_capacity(nw);
    for w in 0..nw {
        if let Some(weight) = p.fast_weight(w, num_joints) {
            weights.push(weight);
            continue;
        }
        p.entry("weight", w, None, || {
            format!(
                "numweights = {nw} but the mesh has {}",
                plural(w, "weight line")
            )
        })?;
        let weight = (|| -> Result<Weight> {
            let (j, tok) = p.int("joint index")?;
            if j < 0 || j >= num_joints as i64 {
                return Err(p.error(
                    &tok,
                    ErrorKind::IndexOutOfRange,
                    format!("joint index {j} out of range (numJoints = {num_joints})"),
                ));
            }
            Ok(Weight {
                joint: j as u32,
                bias: p.float("bias")?,
                pos: p.vector("weight position")?,
            })
        })()
        .context_with(|| format!("weight {w}"))?;
        weights.push(weight);
    }
    let extra = p.at_word("weight")?;
    p.too_many(extra, || {
        format!("the mesh has more weight lines than numweights = {nw}")
    })?;
    p.punct(b'}')?;

    for (v, (vert, tok)) in verts.iter().zip(&weight_tokens).enumerate() {
        let end = u64::from(vert.start_weight) + u64::from(vert.count_weight);
        if end > nw as u64 {
            return Err(p
                .error(
                    tok,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "startWeight {} + countWeight {} is past numweights = {nw}",
                        vert.start_weight, vert.count_weight
                    ),
                )
                .in_context(format!("vert {v}")));
        }
    }
    Ok(Mesh {
        shader,
        verts,
        tris,
        weights,
    })
}

/// The `// meshes: NAME` comment of each mesh block, in mesh order, from the comments
/// `p` recorded (`spans`: each mesh block's byte span, from its `mesh` keyword to its `}`).
/// A comment counts where it starts its line; the first in a block names the mesh. Empty
/// when no mesh has one.
fn mesh_names(p: &Parser<'_>, spans: &[(usize, usize)]) -> Vec<Option<String>> {
    let src = p.src();
    let mut out = vec![None; spans.len()];
    let mut mesh = 0;
    for &at in p.line_comments() {
        while mesh < spans.len() && spans[mesh].1 <= at {
            mesh += 1;
        }
        let Some(&(start, _)) = spans.get(mesh) else {
            break;
        };
        let line_start = src[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        if at < start || !src[line_start..at].iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let line = &src[at + 2..];
        let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
        let Some(name) = line.trim_ascii_start().strip_prefix(b"meshes:") else {
            continue;
        };
        out[mesh].get_or_insert_with(|| String::from_utf8_lossy(name.trim_ascii()).into_owned());
    }
    if out.iter().all(Option::is_none) {
        out.clear();
    }
    out
}

/// The `// meshes: NAME` comment of each `mesh {` block of an md5mesh text, in order, by a
/// scan of its lines: the reference the parser's own reading ([`mesh_names`]) is tested
/// against.
#[cfg(test)]
fn mesh_comment_names(text: &[u8]) -> Vec<Option<String>> {
    let mut out: Vec<Option<String>> = Vec::new();
    let mut inside = false;
    for line in text.split(|&b| b == b'\n') {
        let t = line.trim_ascii();
        if let Some(rest) = t.strip_prefix(b"mesh") {
            if rest.trim_ascii_start().starts_with(b"{") {
                out.push(None);
                inside = true;
                continue;
            }
        }
        if !inside {
            continue;
        }
        if let Some(rest) = t.strip_prefix(b"//") {
            if let Some(name) = rest.trim_ascii_start().strip_prefix(b"meshes:") {
                if let Some(last) = out.last_mut() {
                    last.get_or_insert_with(|| {
                        String::from_utf8_lossy(name.trim_ascii()).into_owned()
                    });
                }
            }
        } else if t.starts_with(b"}") {
            inside = false;
        }
    }
    if out.iter().all(Option::is_none) {
        out.clear();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names the parser reads from the comments it recorded are those of a scan of the
    /// lines: on made-up texts and, with `RETROMODEL_CORPUS`, on every corpus md5mesh.
    #[test]
    fn mesh_names_match_a_line_scan() {
        let made_up = [
            &b"numJoints 0 numMeshes 2 joints { }\nmesh {\n  // meshes: a b \r\n shader \"x\"\n numverts 0 numtris 0 numweights 0\n}\n\
               mesh { // meshes: not at line start\n // other\n\t// meshes:second\n numverts 0 numtris 0 numweights 0 }\n"[..],
            b"numJoints 0 numMeshes 1 joints { }\n// meshes: outside\nmesh {\n numverts 0 numtris 0 numweights 0\n}\n// meshes: after\n",
        ];
        let mut texts: Vec<Vec<u8>> = made_up.iter().map(|t| t.to_vec()).collect();
        texts.push(crate::formats::md5::fixtures::two_meshes());
        texts.extend(crate::corpus_files(&["md5mesh"]));
        let mut named = 0;
        for text in &texts {
            let Ok(parsed) = parse_mesh(text, &crate::limits::Limits::default()) else {
                continue;
            };
            assert_eq!(parsed.mesh_names, mesh_comment_names(text));
            named += parsed.mesh_names.iter().flatten().count();
        }
        assert!(named >= 2);
        let first = parse_mesh(made_up[0], &crate::limits::Limits::default()).unwrap();
        assert_eq!(
            first.mesh_names,
            [Some("a b".to_string()), Some("second".to_string())]
        );
    }
}
