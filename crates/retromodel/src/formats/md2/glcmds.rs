//! The GL command list: decoding, encoding, the triangles it draws, and generating one from
//! a triangle list.
//!
//! Each command is a count word (positive: strip, negative: fan) followed by that many
//! vertices; a zero word ends the list. Strip triangle `i` is `(v[i], v[i+1], v[i+2])` for
//! even `i` and `(v[i+1], v[i], v[i+2])` for odd `i` (the winding stays that of the triangle
//! list); fan triangle `i` is `(v[0], v[i+1], v[i+2])`. This decoding reproduces the triangle
//! list, winding included, of every corpus file made by id's `qdata`.
//!
//! Generation is greedy, as `qdata` does it: from each triangle not yet drawn, try a strip
//! and a fan starting on each of its three edges, keep the longest. Two triangles join only
//! where they share both vertex and texture coordinate indices of an edge, so the texture
//! coordinates of every triangle survive exactly. Neighbours are found in a sorted edge table
//! with a cursor per edge that skips triangles already drawn (and, within one candidate,
//! triangles it already took), so many triangles on one edge (degenerate or duplicated
//! ones) cost no rescans: O(n log n) in the number of triangles.

use super::raw::{File, GlCommand, GlCommands, GlKind, GlLayout, GlVertex, TexCoord, Triangle};
use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::Budget;

/// Decodes `words` (the `num_glcmds * 4` bytes at file offset `base`), checking counts,
/// indices and the terminator. A list whose indices only make sense with the index first
/// ([`GlLayout::IndexFirst`]) is read that way.
pub fn decode(words: &[u8], base: usize, num_xyz: i32, budget: &mut Budget) -> Result<GlCommands> {
    if words.is_empty() {
        return Ok(GlCommands::default());
    }
    let mut trial = *budget;
    match decode_layout(words, base, num_xyz, GlLayout::Standard, &mut trial) {
        Err(e) if e.kind == ErrorKind::IndexOutOfRange => {
            match decode_layout(words, base, num_xyz, GlLayout::IndexFirst, budget) {
                Ok(c) => Ok(c),
                Err(_) => Err(e),
            }
        }
        other => {
            *budget = trial;
            other
        }
    }
}

fn word(words: &[u8], i: usize) -> [u8; 4] {
    [
        words[4 * i],
        words[4 * i + 1],
        words[4 * i + 2],
        words[4 * i + 3],
    ]
}

fn decode_layout(
    words: &[u8],
    base: usize,
    num_xyz: i32,
    layout: GlLayout,
    budget: &mut Budget,
) -> Result<GlCommands> {
    let n = words.len() / 4;
    let err = |i: usize, kind, msg: String| {
        Error::new(
            super::FORMAT,
            kind,
            msg,
            Location::Offset((base + 4 * i) as u64),
        )
    };
    let mut commands = Vec::new();
    let mut i = 0;
    loop {
        if i >= n {
            return Err(err(
                n,
                ErrorKind::Truncated,
                format!("the list of {n} words ends without its zero terminator"),
            ));
        }
        let count = i32::from_le_bytes(word(words, i));
        let at = i;
        i += 1;
        if count == 0 {
            break;
        }
        let k = commands.len();
        let nv = count.unsigned_abs() as usize;
        if nv < 3 {
            return Err(err(
                at,
                ErrorKind::BadCount,
                format!("command {k} has {nv} vertices (a strip or fan needs at least 3)"),
            ));
        }
        if nv > (n - i) / 3 {
            return Err(err(
                at,
                ErrorKind::BadCount,
                format!(
                    "command {k} with {nv} vertices runs past the end of the list ({} words left)",
                    n - i
                ),
            ));
        }
        budget.charge(64 + 12 * nv as u64).map_err(|limit| {
            err(
                at,
                ErrorKind::LimitExceeded,
                format!("decoded data would exceed the allocation limit of {limit} bytes"),
            )
        })?;
        let mut vertices = Vec::with_capacity(nv);
        for _ in 0..nv {
            let (index_at, s_at) = match layout {
                GlLayout::Standard => (i + 2, i),
                GlLayout::IndexFirst => (i, i + 1),
            };
            let index = i32::from_le_bytes(word(words, index_at));
            if index < 0 || index >= num_xyz {
                return Err(err(
                    index_at,
                    ErrorKind::IndexOutOfRange,
                    format!("command {k}: vertex index {index} out of range (num_xyz = {num_xyz})"),
                ));
            }
            vertices.push(GlVertex {
                s: f32::from_le_bytes(word(words, s_at)),
                t: f32::from_le_bytes(word(words, s_at + 1)),
                index,
            });
            i += 3;
        }
        let kind = if count > 0 {
            GlKind::Strip
        } else {
            GlKind::Fan
        };
        commands.push(GlCommand { kind, vertices });
    }
    Ok(GlCommands {
        layout,
        commands,
        terminated: true,
        extra: words[4 * i..].to_vec(),
    })
}

/// Appends the list's words, the exact mirror of [`decode`].
pub fn encode(cmds: &GlCommands, w: &mut crate::io::Writer) {
    for c in &cmds.commands {
        let n = c.vertices.len() as i32;
        w.i32(if c.kind == GlKind::Strip { n } else { -n });
        for v in &c.vertices {
            if cmds.layout == GlLayout::IndexFirst {
                w.i32(v.index);
            }
            w.f32(v.s);
            w.f32(v.t);
            if cmds.layout == GlLayout::Standard {
                w.i32(v.index);
            }
        }
    }
    if cmds.terminated {
        w.i32(0);
    }
    w.bytes(&cmds.extra);
}

/// The triangles the commands draw, in drawing order.
pub fn triangles(commands: &[GlCommand]) -> impl Iterator<Item = [GlVertex; 3]> + '_ {
    commands.iter().flat_map(|c| {
        let v = &c.vertices;
        (0..v.len().saturating_sub(2)).map(move |i| match c.kind {
            GlKind::Strip if i % 2 == 0 => [v[i], v[i + 1], v[i + 2]],
            GlKind::Strip => [v[i + 1], v[i], v[i + 2]],
            GlKind::Fan => [v[0], v[i + 1], v[i + 2]],
        })
    })
}

/// A triangle corner: vertex index and texture coordinate, comparable.
type Corner = (i32, [i32; 2]);

/// The smallest rotation of a triangle (winding kept; degenerate triangles included).
fn canonical(t: [Corner; 3]) -> [Corner; 3] {
    let rot = |k: usize| [t[k], t[(k + 1) % 3], t[(k + 2) % 3]];
    rot(0).min(rot(1)).min(rot(2))
}

impl File<'_> {
    /// Where the triangles the GL commands draw differ from the triangle list
    /// ([`mismatch`] with this file's commands, triangles, texture coordinates
    /// and skin size); `texcoords` also compares texture coordinates.
    pub fn glcmds_mismatch(&self, texcoords: bool) -> Option<String> {
        let h = &self.header;
        mismatch(
            &self.glcmds.commands,
            &self.triangles,
            &self.texcoords,
            [h.skinwidth, h.skinheight],
            texcoords,
        )
    }
}

/// Compares the triangles the GL commands draw with the triangle list, as multisets with
/// winding. With `texcoords`, each GL texture coordinate must also fall inside the texel the
/// triangle list names (`floor(s * skinwidth) == st.s`); without, only vertex indices count.
/// Returns a description of the first difference.
pub fn mismatch(
    cmds: &[GlCommand],
    triangles_list: &[Triangle],
    st: &[TexCoord],
    skin: [i32; 2],
    texcoords: bool,
) -> Option<String> {
    let texel = |f: f32, size: i32| {
        if texcoords {
            (f * size.max(1) as f32).floor() as i32
        } else {
            0
        }
    };
    let mut from_gl: Vec<[Corner; 3]> = triangles(cmds)
        .map(|t| canonical(t.map(|v| (v.index, [texel(v.s, skin[0]), texel(v.t, skin[1])]))))
        .collect();
    let mut from_list: Vec<[Corner; 3]> = triangles_list
        .iter()
        .map(|t| {
            canonical(std::array::from_fn(|k| {
                let c = st.get(t.index_st[k] as usize).copied().unwrap_or_default();
                let tc = if texcoords {
                    [c.s as i32, c.t as i32]
                } else {
                    [0, 0]
                };
                (t.index_xyz[k] as i32, tc)
            }))
        })
        .collect();
    if from_gl.len() != from_list.len() {
        return Some(format!(
            "GL commands draw {} triangles, the triangle list has {}",
            from_gl.len(),
            from_list.len()
        ));
    }
    from_gl.sort_unstable();
    from_list.sort_unstable();
    let diff = from_gl.iter().zip(&from_list).position(|(a, b)| a != b)?;
    let show = |t: &[Corner; 3]| {
        let c: Vec<String> = t
            .iter()
            .map(|(i, [s, tt])| {
                if texcoords {
                    format!("{i}@({s},{tt})")
                } else {
                    i.to_string()
                }
            })
            .collect();
        c.join(" ")
    };
    Some(format!(
        "GL commands and triangle list differ: GL triangle [{}] vs list triangle [{}]",
        show(&from_gl[diff]),
        show(&from_list[diff])
    ))
}

/// A corner packed for the edge table: vertex index high, texture coordinate index low.
fn corner_key(t: &Triangle, k: usize) -> u32 {
    ((t.index_xyz[k] as u16 as u32) << 16) | t.index_st[k] as u16 as u32
}

/// Generates strips and fans that draw exactly `triangles` (see the module notes), with
/// texture coordinates `(s + 0.5) / skinwidth` as Quake 2's tools write them. Every index
/// must be in range (as in a parsed or built [`super::File`]).
pub fn generate(
    triangles: &[Triangle],
    texcoords: &[TexCoord],
    skinwidth: i32,
    skinheight: i32,
) -> Vec<GlCommand> {
    let corners: Vec<[u32; 3]> = triangles
        .iter()
        .map(|t| [0, 1, 2].map(|k| corner_key(t, k)))
        .collect();
    // Directed edge (a -> b) of every triangle, sorted for lookup.
    let mut edges: Vec<(u64, u32)> = Vec::with_capacity(3 * corners.len());
    for (ti, c) in corners.iter().enumerate() {
        for k in 0..3 {
            edges.push((edge(c[k], c[(k + 1) % 3]), ti as u32));
        }
    }
    edges.sort_unstable();
    let mut g = Generator {
        corners: &corners,
        edges: &edges,
        used: vec![false; corners.len()],
        stamp: vec![0; corners.len()],
        generation: 0,
        cursor: vec![(0, 0); edges.len()],
        first_free: vec![0; edges.len()],
    };
    let (w, h) = (skinwidth.max(1) as f32, skinheight.max(1) as f32);
    let mut out = Vec::new();
    let mut best: Vec<u32> = Vec::new();
    let mut trial: Vec<u32> = Vec::new();
    let mut best_tris: Vec<u32> = Vec::new();
    let mut trial_tris: Vec<u32> = Vec::new();
    for start in 0..corners.len() {
        if g.used[start] {
            continue;
        }
        let mut best_kind = GlKind::Strip;
        best.clear();
        for kind in [GlKind::Strip, GlKind::Fan] {
            for rot in 0..3 {
                g.walk(start, rot, kind, &mut trial, &mut trial_tris);
                if trial_tris.len() > best_tris.len() || best.is_empty() {
                    std::mem::swap(&mut best, &mut trial);
                    std::mem::swap(&mut best_tris, &mut trial_tris);
                    best_kind = kind;
                }
            }
        }
        for &t in &best_tris {
            g.used[t as usize] = true;
        }
        let vertices = best
            .iter()
            .map(|&c| {
                let (xyz, sti) = ((c >> 16) as i32, (c & 0xffff) as usize);
                let tc = texcoords.get(sti).copied().unwrap_or_default();
                GlVertex {
                    s: (tc.s as f32 + 0.5) / w,
                    t: (tc.t as f32 + 0.5) / h,
                    index: xyz,
                }
            })
            .collect();
        out.push(GlCommand {
            kind: best_kind,
            vertices,
        });
        best_tris.clear();
    }
    out
}

fn edge(a: u32, b: u32) -> u64 {
    ((a as u64) << 32) | b as u64
}

struct Generator<'a> {
    corners: &'a [[u32; 3]],
    edges: &'a [(u64, u32)],
    used: Vec<bool>,
    /// `stamp[t] == generation` while `t` is part of the candidate being walked.
    stamp: Vec<u32>,
    generation: u32,
    /// At the first entry of each edge's run: (generation, offset of the first entry not yet
    /// known to be used or stamped in that generation). Entries before it stay skippable:
    /// `used` only grows, and stamps only grow within a generation.
    cursor: Vec<(u32, u32)>,
    /// At the first entry of each edge's run: the offset of its first entry whose triangle is
    /// not drawn yet (for every generation).
    first_free: Vec<u32>,
}

impl Generator<'_> {
    /// A free triangle holding the directed edge `a -> b`, and its third corner.
    fn next(&mut self, a: u32, b: u32) -> Option<(u32, u32)> {
        let key = edge(a, b);
        let from = self.edges.partition_point(|e| e.0 < key);
        let (generation, offset) = self.cursor.get(from).copied()?;
        let free = self.first_free[from] as usize;
        let mut at = from
            + if generation == self.generation {
                (offset as usize).max(free)
            } else {
                free
            };
        let found = loop {
            match self.edges.get(at) {
                Some(&(k, t)) if k == key => {
                    let t = t as usize;
                    if self.used[t] {
                        if at - from == self.first_free[from] as usize {
                            self.first_free[from] += 1;
                        }
                    } else if self.stamp[t] != self.generation {
                        break Some(t);
                    }
                    at += 1;
                }
                _ => break None,
            }
        };
        self.cursor[from] = (self.generation, (at - from) as u32);
        let t = found?;
        let c = &self.corners[t];
        let k = (0..3)
            .find(|&k| c[k] == a && c[(k + 1) % 3] == b)
            .unwrap_or(0);
        Some((t as u32, c[(k + 2) % 3]))
    }

    /// Walks the longest strip or fan from triangle `start` entered at corner `rot`.
    fn walk(
        &mut self,
        start: usize,
        rot: usize,
        kind: GlKind,
        out: &mut Vec<u32>,
        tris: &mut Vec<u32>,
    ) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.cursor.fill((0, 0));
            self.generation = 1;
        }
        out.clear();
        tris.clear();
        let c = self.corners[start];
        out.extend([c[rot], c[(rot + 1) % 3], c[(rot + 2) % 3]]);
        tris.push(start as u32);
        self.stamp[start] = self.generation;
        loop {
            let i = out.len() - 2;
            let (a, b) = match kind {
                GlKind::Strip if i.is_multiple_of(2) => (out[i], out[i + 1]),
                GlKind::Strip => (out[i + 1], out[i]),
                GlKind::Fan => (out[0], out[i + 1]),
            };
            let Some((t, third)) = self.next(a, b) else {
                break;
            };
            self.stamp[t as usize] = self.generation;
            tris.push(t);
            out.push(third);
        }
    }
}
