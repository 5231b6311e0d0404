//! Parsing SMD text into a [`File`] on the shared [`text`] lexer: every section, number,
//! id and index checked here, errors at `line:column`.

use super::{BonePose, File, Frame, Node, Triangle, Vertex, FORMAT};
use crate::error::{ErrorKind, Result};
use crate::io::text::{self, number_kind, shorten, Kind, Syntax, Token, Words};
use crate::limits::Limits;

/// SMD tokens: `//` comments (Blender Source Tools and Valve's wiki), `"` node names, and
/// free words (numbers and the material file names, `..\white.bmp`).
static SYNTAX: Syntax = Syntax {
    line_comments: true,
    block_comments: false,
    keep_comments: false,
    quotes: &[text::STRING],
    punct: b"",
    words: Words::Free,
};

/// The parser state: the shared parser and the file read so far.
struct Reader<'a> {
    p: text::Parser<'a>,
    file: File,
    seen: [bool; 3],
}

/// Parses SMD text (see [`File::parse`]).
pub(super) fn parse(data: &[u8], limits: &Limits) -> Result<File> {
    let mut r = Reader {
        p: text::Parser::new(data, &SYNTAX, FORMAT, limits),
        file: File {
            nodes: Vec::new(),
            frames: Vec::new(),
            triangles: Vec::new(),
        },
        seen: [false; 3],
    };
    r.version()?;
    loop {
        let t = r.p.next_token()?;
        if t.kind == Kind::Eof {
            break;
        }
        let section = match r.p.text(&t) {
            b"nodes" => 0,
            b"skeleton" => 1,
            b"triangles" => 2,
            _ if t.kind == Kind::Word => {
                return Err(r.p.error(
                    &t,
                    ErrorKind::InvalidValue,
                    format!(
                        "unknown section {} (expected nodes, skeleton or triangles)",
                        shorten(r.p.text(&t))
                    ),
                ))
            }
            _ => {
                return Err(r
                    .p
                    .unexpected(&t, "a section (nodes, skeleton or triangles)"))
            }
        };
        if r.seen[section] {
            return Err(r.p.error(
                &t,
                ErrorKind::InvalidValue,
                format!("second {} section", r.p.str(&t)),
            ));
        }
        if section > 0 && !r.seen[0] {
            return Err(r.p.error(
                &t,
                ErrorKind::InvalidValue,
                format!("{} section before the nodes section", r.p.str(&t)),
            ));
        }
        r.seen[section] = true;
        match section {
            0 => r.nodes()?,
            1 => r.skeleton()?,
            _ => r.triangles()?,
        }
    }
    if !r.seen[0] {
        let eof = r.p.peek()?;
        return Err(r.p.error(&eof, ErrorKind::Truncated, "no nodes section"));
    }
    Ok(r.file)
}

impl Reader<'_> {
    /// `version 1`.
    fn version(&mut self) -> Result<()> {
        let t = self.p.next_token()?;
        if !self.p.is_word(&t, "version") {
            return Err(self.p.unexpected(&t, "version"));
        }
        let (v, t) = self.int("the version")?;
        if v != 1 {
            return Err(self.p.error(
                &t,
                ErrorKind::UnsupportedVersion,
                format!("version {v} is not supported (expected 1)"),
            ));
        }
        Ok(())
    }

    /// An integer token that fits an `i32`.
    fn int(&mut self, what: &str) -> Result<(i32, Token)> {
        let t = self.p.next_token()?;
        let text = self.p.text(&t);
        if t.kind != Kind::Word || number_kind(text) != Some(Kind::Int) {
            return Err(self.p.unexpected(&t, &format!("an integer ({what})")));
        }
        match self.p.str(&t).parse::<i32>() {
            Ok(v) => Ok((v, t)),
            Err(_) => Err(self.p.error(
                &t,
                ErrorKind::InvalidValue,
                format!("integer {} is out of range", shorten(text)),
            )),
        }
    }

    /// A number token that is a finite 32-bit float.
    fn float(&mut self, what: &str) -> Result<f32> {
        let t = self.p.next_token()?;
        let text = self.p.text(&t);
        if t.kind != Kind::Word || number_kind(text).is_none() {
            return Err(self.p.unexpected(&t, &format!("a number ({what})")));
        }
        match self.p.str(&t).parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.p.error(
                &t,
                ErrorKind::InvalidValue,
                format!(
                    "number {} is out of range for a 32-bit float",
                    shorten(text)
                ),
            )),
        }
    }

    fn floats<const N: usize>(&mut self, what: &str) -> Result<[f32; N]> {
        let mut v = [0.0; N];
        for c in &mut v {
            *c = self.float(what)?;
        }
        Ok(v)
    }

    /// Takes `end` when it is next.
    fn at_end(&mut self) -> Result<bool> {
        let t = self.p.peek()?;
        if self.p.is_word(&t, "end") {
            self.p.next_token()?;
            return Ok(true);
        }
        Ok(false)
    }

    /// A node or bone index: `0..nodes`.
    fn bone(&mut self, what: &str) -> Result<(i32, Token)> {
        let (b, t) = self.int(what)?;
        let n = self.file.nodes.len();
        if b < 0 || b as usize >= n {
            return Err(self.p.error(
                &t,
                ErrorKind::IndexOutOfRange,
                format!("{what} {b} out of range (nodes = {n})"),
            ));
        }
        Ok((b, t))
    }

    /// `ID "name" PARENT` lines up to `end`; ids 0, 1, 2... in order, each parent an earlier
    /// node or -1.
    fn nodes(&mut self) -> Result<()> {
        while !self.at_end()? {
            let (id, t) = self.int("node id, or end")?;
            let n = self.file.nodes.len();
            if id as i64 != n as i64 {
                return Err(self.p.error(
                    &t,
                    ErrorKind::InvalidValue,
                    format!("node id {id} out of order (expected {n})"),
                ));
            }
            let name = self
                .p
                .expect(Kind::Quoted(b'"'), format_args!("a quoted node name"))?;
            let name_text = self.p.decode(&name);
            let (parent, pt) = self.int("parent id")?;
            if parent < -1 || parent >= id {
                return Err(self.p.error(
                    &pt,
                    ErrorKind::IndexOutOfRange,
                    format!("node {id}: parent {parent} out of range (-1 or an earlier node's id)"),
                ));
            }
            self.p
                .charge(&t, (size_of::<Node>() + name_text.len()) as u64)?;
            self.file.nodes.push(Node {
                name: name_text,
                parent,
            });
        }
        Ok(())
    }

    /// `time N` then `BONE PX PY PZ RX RY RZ` lines, up to `end`.
    fn skeleton(&mut self) -> Result<()> {
        loop {
            let t = self.p.peek()?;
            if self.p.is_word(&t, "end") {
                self.p.next_token()?;
                return Ok(());
            }
            if self.p.is_word(&t, "time") {
                self.p.next_token()?;
                let (time, t) = self.int("frame time")?;
                self.p.charge(&t, size_of::<Frame>() as u64)?;
                self.file.frames.push(Frame {
                    time,
                    bones: Vec::new(),
                });
                continue;
            }
            if self.file.frames.is_empty() {
                let t = self.p.next_token()?;
                return Err(self.p.unexpected(&t, "time or end"));
            }
            let (bone, t) = self.bone("bone")?;
            let position = self.floats("bone position")?;
            let rotation = self.floats("bone rotation")?;
            self.p.charge(&t, size_of::<BonePose>() as u64)?;
            let frame = self.file.frames.last_mut().expect("a frame");
            frame.bones.push(BonePose {
                bone: bone as usize,
                position,
                rotation,
            });
        }
    }

    /// A material line then three vertex lines per triangle, up to `end`.
    fn triangles(&mut self) -> Result<()> {
        while !self.at_end()? {
            let t = self.p.next_token()?;
            if t.kind == Kind::Eof {
                return Err(self.p.unexpected(&t, "a material or end"));
            }
            // The material is the rest of its line (studiomdl reads the line and cuts the
            // trailing blanks): a file name may hold spaces.
            let src = self.p.src();
            let eol = src[t.start..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(src.len(), |i| t.start + i);
            let line = src[t.start..eol].trim_ascii_end();
            let (material, _) = text::decode(line);
            self.p.advance(t.start + line.len());
            self.p
                .charge(&t, (size_of::<Triangle>() + material.len()) as u64)?;
            let corners = [self.vertex()?, self.vertex()?, self.vertex()?];
            self.file.triangles.push(Triangle { material, corners });
        }
        Ok(())
    }

    /// `BONE PX PY PZ NX NY NZ U V`, then Source's `LINKS (BONE WEIGHT)*` when the line goes
    /// on.
    fn vertex(&mut self) -> Result<Vertex> {
        let (bone, _) = self.bone("vertex bone")?;
        let position = self.floats("vertex position")?;
        let normal = self.floats("vertex normal")?;
        let uv = self.floats("texture coordinate")?;
        let mut links = Vec::new();
        let next = self.p.peek()?;
        if next.kind != Kind::Eof && !self.p.line_break_between(self.p.consumed(), next.start) {
            let (n, t) = self.int("link count")?;
            if n < 0 || n as usize > self.file.nodes.len() {
                return Err(self.p.error(
                    &t,
                    ErrorKind::BadCount,
                    format!(
                        "link count {n} out of range (0 to nodes = {})",
                        self.file.nodes.len()
                    ),
                ));
            }
            self.p.charge(&t, n as u64 * 8)?;
            for _ in 0..n {
                let (b, _) = self.bone("link bone")?;
                let w = self.float("link weight")?;
                links.push((b, w));
            }
        }
        Ok(Vertex {
            bone,
            position,
            normal,
            uv,
            links,
        })
    }
}
