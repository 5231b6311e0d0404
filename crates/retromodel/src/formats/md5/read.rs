//! Parsing the three MD5 text files: tokens to [`MeshFile`], [`AnimFile`] and [`CameraFile`],
//! every count, index and order checked once, here.
//!
//! The layouts are fixed as Doom 3 reads them (`MD5Version`, `commandline`, the counts, then
//! the blocks in order); tokens may be spread over lines at will. What is read leniently,
//! with a warning in [`Parsed::warnings`]:
//!
//! - no `MD5Version` line (`version` is `None`), no `commandline` line (empty), no
//!   `frameRate` line in an md5anim (24, Doom 3's default);
//! - a `numMeshes` that differs from the `mesh` blocks present (`stated_meshes` keeps it);
//! - more md5anim `bounds` lines than frames (all kept; fewer is an error);
//! - a mesh without a `shader` line (empty shader);
//! - a string that is not UTF-8 (read as Latin-1, as the exporters that wrote it meant).
//!
//! Everything else that is off is an error with line and column: an unknown or misplaced
//! keyword, a token of the wrong type, a version other than 10, a parent index not lower than
//! its joint's, an index out of range, `vert`/`tri`/`weight`/`frame` numbers out of order, a
//! count that disagrees with the entries of its block, md5anim flags outside `0..=63`,
//! animated components past `numAnimatedComponents`, camera cuts outside `1..numFrames`.
//! Every count is checked against the bytes left in the input and `Limits::max_count`, and
//! charged to a [`Budget`](crate::limits::Budget), before anything is allocated for it.

use std::fmt;
use std::mem::size_of;

use std::ops::{Deref, DerefMut};

use super::raw::*;
use super::{ANIM_FORMAT, CAMERA_FORMAT, MESH_FORMAT};
use crate::error::{ErrorKind, Result, ResultExt};
use crate::io::text::{self, shorten, Kind, Syntax, Token, Words};
use crate::limits::Limits;

/// A parsed file and the warnings about what was read leniently.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed<T> {
    /// The file.
    pub file: T,
    /// What was read leniently (missing version line, `numMeshes` mismatch, ...).
    pub warnings: Vec<String>,
    /// md5mesh only: each mesh's name from the `// meshes: NAME` comment exporters write in
    /// its block (Cube 2 engines name meshes by it), in mesh order; empty for the other
    /// files and when no mesh has one.
    pub mesh_names: Vec<Option<String>>,
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

/// Every keyword of the three files: an identifier outside this list is an "unknown keyword".
const KEYWORDS: &[&str] = &[
    "MD5Version",
    "commandline",
    "numJoints",
    "numMeshes",
    "joints",
    "mesh",
    "shader",
    "numverts",
    "vert",
    "numtris",
    "tri",
    "numweights",
    "weight",
    "numFrames",
    "frameRate",
    "numAnimatedComponents",
    "hierarchy",
    "bounds",
    "baseframe",
    "frame",
    "numCuts",
    "cuts",
    "camera",
];

/// Doom 3's frame rate when an md5anim has no `frameRate` line.
const DEFAULT_FRAME_RATE: f32 = 24.0;

// The fewest bytes one entry of each block can take in the text (lower bounds, so that a
// count can be checked against the bytes left before anything is allocated for it).
/// `""0(0 0 0)(0 0 0)`
const MIN_JOINT: u64 = 16;
/// `vert 0(0 0)0 0`
const MIN_VERT: u64 = 12;
/// `tri 0 0 0 0`
const MIN_TRI: u64 = 10;
/// `weight 0 0 0(0 0 0)`
const MIN_WEIGHT: u64 = 16;
/// `""0 0 0`
const MIN_HIERARCHY: u64 = 6;
/// `(0 0 0)(0 0 0)`, also a camera line (which adds the fov).
const MIN_VEC_PAIR: u64 = 12;
/// `frame 0{}` without its values; each value takes at least one more byte.
const MIN_FRAME: u64 = 8;

/// How MD5 files are tokenized: Doom 3's `idLexer` as its MD5 loaders configure it
/// (`LEXFL_NOSTRINGESCAPECHARS`), narrowed to what MD5 files use: `//` and `/* */` comments,
/// `"` strings in which a backslash is an ordinary character (Doom 3 shader paths like
/// `"models\mapobjects\x"` read as written, and a string can never contain `"`), names,
/// integers and floats, and the symbols `(` `)` `{` `}`.
static SYNTAX: Syntax = Syntax {
    line_comments: true,
    block_comments: true,
    keep_comments: false,
    quotes: &[text::STRING],
    punct: b"(){}",
    words: Words::NamesAndNumbers,
};

const LPAREN: Kind = Kind::Punct(b'(');
const RBRACE: Kind = Kind::Punct(b'}');
const STR: Kind = Kind::Quoted(b'"');

/// The shared text parser, with what only MD5 needs on top.
struct Parser<'a>(text::Parser<'a>);

impl<'a> Deref for Parser<'a> {
    type Target = text::Parser<'a>;

    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl DerefMut for Parser<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

impl<'a> Parser<'a> {
    fn new(src: &'a [u8], format: &'static str, limits: &Limits) -> Self {
        Parser(text::Parser::new(src, &SYNTAX, format, limits))
    }

    fn keyword(&mut self, keyword: &str) -> Result<Token> {
        let t = self.next_token()?;
        if self.is_word(&t, keyword) {
            return Ok(t);
        }
        if t.kind == Kind::Name {
            let text = self.text(&t);
            if !KEYWORDS.iter().any(|k| k.as_bytes() == text) {
                return Err(self.error(
                    &t,
                    ErrorKind::InvalidValue,
                    format!("unknown keyword {} (expected {keyword})", shorten(text)),
                ));
            }
        }
        Err(self.unexpected(&t, keyword))
    }

    fn int(&mut self, what: impl fmt::Display) -> Result<(i64, Token)> {
        let t = match self.take_number() {
            Some((t, n)) => match n.to_i64() {
                Some(v) => return Ok((v, t)),
                None if t.kind == Kind::Int => t,
                None => return Err(self.unexpected(&t, &format!("an integer ({what})"))),
            },
            None => self.expect(Kind::Int, format_args!("an integer ({what})"))?,
        };
        // The lexer has checked the digits; only the range can fail.
        let text = self.str(&t);
        match text.parse::<i64>() {
            Ok(v) => Ok((v, t)),
            Err(_) => Err(self.error(
                &t,
                ErrorKind::InvalidValue,
                format!("integer {} is out of range", shorten(text.as_bytes())),
            )),
        }
    }

    /// A number (integer or float) as an `f32`: read in one pass where it can be
    /// ([`text::Parser::take_number`]), else tokenized and parsed from its text.
    #[inline]
    fn float(&mut self, what: &str) -> Result<f32> {
        if let Some((t, n)) = self.take_number() {
            return match n.to_f32() {
                Some(v) => Ok(v),
                None => self.float_value(&t),
            };
        }
        let t = self.next_token()?;
        if !matches!(t.kind, Kind::Int | Kind::Float) {
            return Err(self.unexpected(&t, &format!("a number ({what})")));
        }
        self.float_value(&t)
    }

    /// The value of the number token `t`, which must be a finite 32-bit float.
    #[cold]
    fn float_value(&self, t: &Token) -> Result<f32> {
        let text = self.str(t);
        match text.parse::<f32>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(self.error(
                t,
                ErrorKind::InvalidValue,
                format!(
                    "number {} is out of range for a 32-bit float",
                    shorten(text.as_bytes())
                ),
            )),
        }
    }

    fn vector<const N: usize>(&mut self, what: &str) -> Result<[f32; N]> {
        if let Some(v) = self.fast_vectors::<N, 1>() {
            return Ok(v[0]);
        }
        self.punct(b'(')?;
        let mut v = [0.0; N];
        for c in &mut v {
            *c = self.float(what)?;
        }
        self.punct(b')')?;
        Ok(v)
    }

    fn string(&mut self, what: &str) -> Result<String> {
        let t = self.expect(STR, format_args!("a quoted string ({what})"))?;
        let bytes = self.text(&t);
        self.charge(&t, bytes.len() as u64)?;
        let (s, latin1) = text::decode(bytes);
        if latin1 {
            let at = self.at(t.offset());
            self.warn(format!(
                "string at line {at} is not UTF-8 (read as Latin-1)"
            ));
        }
        Ok(s)
    }

    /// A count that is not used to allocate: not negative, within `max_count`.
    fn plain_count(&self, name: &str, tok: &Token, value: i64) -> Result<u32> {
        if value < 0 {
            return Err(self.error(
                tok,
                ErrorKind::BadCount,
                format!("negative count {name} = {value}"),
            ));
        }
        self.limit_count(tok, value as u64, format_args!("{name} = {value}"))?;
        Ok(value as u32)
    }

    /// A count of entries about to be allocated: also checked against the bytes left after
    /// the last token read (each entry takes at least `min_bytes`) and charged `elem_bytes`
    /// an entry.
    fn count(
        &mut self,
        name: &str,
        tok: &Token,
        value: i64,
        min_bytes: u64,
        elem_bytes: u64,
    ) -> Result<usize> {
        let n = self.plain_count(name, tok, value)?;
        self.0.count(
            tok,
            u64::from(n),
            min_bytes,
            elem_bytes,
            format_args!("{name} = {value}"),
        )
    }

    /// The optional `MD5Version` line.
    fn version(&mut self) -> Result<Option<i32>> {
        if !self.at_word("MD5Version")? {
            self.warn(format!("no MD5Version line (read as version {VERSION})"));
            return Ok(None);
        }
        self.next_token()?;
        let (v, t) = self.int("version")?;
        if v != i64::from(VERSION) {
            return Err(self.error(
                &t,
                ErrorKind::UnsupportedVersion,
                format!("unsupported version {v} (expected {VERSION})"),
            ));
        }
        Ok(Some(VERSION))
    }

    /// The optional `commandline` line.
    fn commandline(&mut self) -> Result<String> {
        if !self.at_word("commandline")? {
            self.warn("no commandline line".to_string());
            return Ok(String::new());
        }
        self.next_token()?;
        self.string("commandline")
    }

    /// `keyword <int>`.
    fn keyword_int(&mut self, keyword: &str) -> Result<(i64, Token)> {
        self.keyword(keyword)?;
        self.int(keyword)
    }

    fn frame_rate(&mut self) -> Result<f32> {
        self.keyword("frameRate")?;
        let t = self.peek()?;
        let v = self.float("frameRate")?;
        if v <= 0.0 {
            return Err(self.error(
                &t,
                ErrorKind::InvalidValue,
                format!("frameRate {v} is not positive"),
            ));
        }
        Ok(v)
    }

    /// A joint's parent index: -1 or lower than `own`.
    fn parent(&mut self, own: usize) -> Result<i32> {
        let (v, t) = self.int("parent index")?;
        if v < -1 {
            return Err(self.error(
                &t,
                ErrorKind::IndexOutOfRange,
                format!("parent index {v} is neither -1 (a root) nor a joint index"),
            ));
        }
        if v >= own as i64 {
            return Err(self.error(
                &t,
                ErrorKind::IndexOutOfRange,
                format!("parent index {v} is not lower than its own index"),
            ));
        }
        Ok(v as i32)
    }

    /// An index in `0..=u32::MAX` (for `startWeight`, `countWeight`, `startIndex`).
    fn index(&mut self, what: impl fmt::Display + Copy) -> Result<(u32, Token)> {
        let (v, t) = self.int(what)?;
        match u32::try_from(v) {
            Ok(v) => Ok((v, t)),
            Err(_) => Err(self.error(
                &t,
                ErrorKind::IndexOutOfRange,
                format!("{what} {v} out of range"),
            )),
        }
    }

    /// `<keyword> <n>` where `n` must be `expected` (the entry's position in its block).
    fn numbered(&mut self, keyword: &str, expected: usize) -> Result<()> {
        self.keyword(keyword)?;
        self.entry_index(keyword, expected)
    }

    /// The start of entry `expected` of a block, `<keyword> <expected>`, or the error
    /// `too_few()` names when the block ends first (at the word `end`, or at `}` if `None`).
    fn entry(
        &mut self,
        keyword: &str,
        expected: usize,
        end: Option<&str>,
        too_few: impl FnOnce() -> String,
    ) -> Result<()> {
        if !self.take_name(keyword.as_bytes()) {
            let ends = match end {
                Some(word) => self.at_word(word)?,
                None => self.peek_kind()? == RBRACE,
            };
            self.too_few(ends, too_few)?;
            self.keyword(keyword)?;
        }
        self.entry_index(keyword, expected)
    }

    /// The `<n>` after an entry's keyword, which must be `expected`.
    fn entry_index(&mut self, keyword: &str, expected: usize) -> Result<()> {
        let (v, t) = self.int(format_args!("{keyword} index"))?;
        if v != expected as i64 {
            return Err(self.error(
                &t,
                ErrorKind::InvalidValue,
                format!("{keyword} {v} is out of order (expected {keyword} {expected})"),
            ));
        }
        Ok(())
    }

    /// `vert N ( u v ) startWeight countWeight`, entry `index`, read in place
    /// ([`text::Cursor`]) with the token of its `startWeight`; `None`, nothing taken, when the
    /// line is anything else (the ordinary path then reads it, or reports what is wrong).
    fn fast_vert(&mut self, index: usize) -> Option<(Vert, Token)> {
        let mut c = self.cursor()?;
        if !(c.name(b"vert") && c.int()? == index as i64 && c.punct(b'(')) {
            return None;
        }
        let uv = [c.f32()?, c.f32()?];
        if !c.punct(b')') {
            return None;
        }
        let start_weight = u32::try_from(c.int()?).ok()?;
        let token = c.last_token(Kind::Int);
        let count_weight = u32::try_from(c.int()?).ok()?;
        let end = c.offset();
        self.advance(end);
        Some((
            Vert {
                uv,
                start_weight,
                count_weight,
            },
            token,
        ))
    }

    /// `( x y z ) ( x y z )` and the like: `M` parenthesised groups of `N` numbers, read in
    /// place (see [`Parser::fast_vert`]); the bounds and baseframe lines of an md5anim.
    #[inline]
    fn fast_vectors<const N: usize, const M: usize>(&mut self) -> Option<[[f32; N]; M]> {
        let mut c = self.cursor()?;
        let out = vectors_in_place::<N, M>(&mut c)?;
        let end = c.offset();
        self.advance(end);
        Some(out)
    }

    /// `( x y z ) ( qx qy qz ) fov`: one md5camera line, read in place (see
    /// [`Parser::fast_vert`]).
    fn fast_camera_frame(&mut self) -> Option<CameraFrame> {
        let mut c = self.cursor()?;
        let [pos, orient] = vectors_in_place::<3, 2>(&mut c)?;
        let fov = c.f32()?;
        let end = c.offset();
        self.advance(end);
        Some(CameraFrame { pos, orient, fov })
    }

    /// `frame N { v0 v1 ... }` with exactly `nac` values, frame `index`, read in place (see
    /// [`Parser::fast_vert`]): almost all of an md5anim's bytes.
    fn fast_frame(&mut self, index: usize, nac: usize) -> Option<Vec<f32>> {
        let mut c = self.cursor()?;
        if !(c.name(b"frame") && c.int()? == index as i64 && c.punct(b'{')) {
            return None;
        }
        let mut values = Vec::with_capacity(nac);
        for _ in 0..nac {
            values.push(c.f32()?);
        }
        if !c.punct(b'}') {
            return None;
        }
        let end = c.offset();
        self.advance(end);
        Some(values)
    }

    /// `tri N a b c`, entry `index` with vertex indices below `num_verts`, read in place
    /// (see [`Parser::fast_vert`]).
    fn fast_tri(&mut self, index: usize, num_verts: usize) -> Option<[u32; 3]> {
        let mut c = self.cursor()?;
        if !(c.name(b"tri") && c.int()? == index as i64) {
            return None;
        }
        let mut tri = [0u32; 3];
        for v in &mut tri {
            let i = c.int()?;
            if !(0..num_verts as i64).contains(&i) {
                return None;
            }
            *v = i as u32;
        }
        let end = c.offset();
        self.advance(end);
        Some(tri)
    }

    /// `weight N joint bias ( x y z )`, entry `index` with a joint below `num_joints`, read
    /// in place (see [`Parser::fast_vert`]).
    fn fast_weight(&mut self, index: usize, num_joints: usize) -> Option<Weight> {
        let mut c = self.cursor()?;
        if !(c.name(b"weight") && c.int()? == index as i64) {
            return None;
        }
        let joint = c.int()?;
        if !(0..num_joints as i64).contains(&joint) {
            return None;
        }
        let bias = c.f32()?;
        if !c.punct(b'(') {
            return None;
        }
        let pos = [c.f32()?, c.f32()?, c.f32()?];
        if !c.punct(b')') {
            return None;
        }
        let end = c.offset();
        self.advance(end);
        Some(Weight {
            joint: joint as u32,
            bias,
            pos,
        })
    }

    /// `the <block> block has more <entries> than <count>`, if the next token starts an entry.
    fn too_many(&mut self, starts_entry: bool, message: impl FnOnce() -> String) -> Result<()> {
        if starts_entry {
            let t = self.peek()?;
            return Err(self.error(&t, ErrorKind::BadCount, message()));
        }
        Ok(())
    }

    /// `numX = n but the block ends after i entries`, if the next token ends the block.
    fn too_few(&mut self, ends_block: bool, message: impl FnOnce() -> String) -> Result<()> {
        self.too_many(ends_block, message)
    }

    fn finish<T>(self, file: T) -> Parsed<T> {
        Parsed {
            file,
            warnings: self.0.warnings,
            mesh_names: Vec::new(),
        }
    }
}

/// `1 line`, `2 lines`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `joint 2 "arm"`.
fn joint_context(i: usize, name: &str) -> String {
    format!("joint {i} \"{}\"", shorten(name.as_bytes()))
}

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

/// Parses an `.md5anim` file.
///
/// Warns about a missing `MD5Version`, `commandline` or `frameRate` line and strings that
/// are not UTF-8; fails with line and column on anything else that is off, including flags
/// outside `0..=63`, a joint whose animated components run past `numAnimatedComponents`,
/// `frame N` out of order and a frame with the wrong number of values.
pub fn parse_anim(text: &[u8], limits: &crate::limits::Limits) -> Result<Parsed<AnimFile>> {
    let mut p = Parser::new(text, ANIM_FORMAT, limits);
    let version = p.version()?;
    let commandline = p.commandline()?;
    let (num_frames, nf_tok) = p.keyword_int("numFrames")?;
    let (num_joints, nj_tok) = p.keyword_int("numJoints")?;
    let frame_rate = if p.at_word("frameRate")? {
        p.frame_rate()?
    } else {
        p.warn(format!("no frameRate line (read as {DEFAULT_FRAME_RATE})"));
        DEFAULT_FRAME_RATE
    };
    let (nac, nac_tok) = p.keyword_int("numAnimatedComponents")?;
    let nac = p.plain_count("numAnimatedComponents", &nac_tok, nac)?;

    p.keyword("hierarchy")?;
    p.punct(b'{')?;
    let nj = p.count(
        "numJoints",
        &nj_tok,
        num_joints,
        MIN_HIERARCHY,
        size_of::<HierarchyJoint>() as u64,
    )?;
    let mut hierarchy = Vec::with_capacity(nj);
    for i in 0..nj {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numJoints = {nj} but the hierarchy block has {}",
                plural(i, "joint")
            )
        })?;
        let name = p
            .string("joint name")
            .context_with(|| format!("joint {i}"))?;
        let joint = (|| -> Result<HierarchyJoint> {
            let parent = p.parent(i)?;
            let (flags, tok) = p.int("flags")?;
            if !(0..=63).contains(&flags) {
                return Err(p.error(
                    &tok,
                    ErrorKind::InvalidValue,
                    format!("flags {flags} outside 0..63"),
                ));
            }
            let flags = flags as u32;
            let (start_index, tok) = p.index("startIndex")?;
            let animated = flags.count_ones();
            if u64::from(start_index) + u64::from(animated) > u64::from(nac) {
                return Err(p.error(
                    &tok,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "startIndex {start_index} + {animated} animated components is past \
                         numAnimatedComponents = {nac}"
                    ),
                ));
            }
            Ok(HierarchyJoint {
                name: String::new(),
                parent,
                flags,
                start_index,
            })
        })()
        .context_with(|| joint_context(i, &name))?;
        hierarchy.push(HierarchyJoint { name, ..joint });
    }
    let extra = p.peek_kind()? == STR;
    p.too_many(extra, || {
        format!("the hierarchy block has more joints than numJoints = {nj}")
    })?;
    p.punct(b'}')?;

    p.keyword("bounds")?;
    p.punct(b'{')?;
    let nf = p.count(
        "numFrames",
        &nf_tok,
        num_frames,
        MIN_VEC_PAIR,
        size_of::<Bounds>() as u64,
    )?;
    let mut bounds = Vec::with_capacity(nf);
    // The lines read in place while they can be, then the ordinary way (which reports what
    // is wrong, or reads the rest: extra lines, comments).
    while bounds.len() < nf {
        let Some([min, max]) = p.fast_vectors::<3, 2>() else {
            break;
        };
        bounds.push(Bounds { min, max });
    }
    for i in bounds.len().. {
        let t = p.peek()?;
        if i >= nf && t.kind != LPAREN {
            break;
        }
        p.too_few(t.kind == RBRACE, || {
            format!(
                "numFrames = {nf} but the bounds block has {}",
                plural(i, "line")
            )
        })?;
        if i >= nf {
            // Lines past numFrames (some exporters write one more): kept, with a warning.
            p.charge(&t, size_of::<Bounds>() as u64)?;
        }
        bounds.push(
            (|| -> Result<Bounds> {
                Ok(Bounds {
                    min: p.vector("bounds minimum")?,
                    max: p.vector("bounds maximum")?,
                })
            })()
            .context_with(|| format!("bounds {i}"))?,
        );
    }
    if bounds.len() > nf {
        p.warn(format!(
            "numFrames = {nf} but the bounds block has {} (all kept)",
            plural(bounds.len(), "line")
        ));
    }
    p.punct(b'}')?;

    let t = p.keyword("baseframe")?;
    p.punct(b'{')?;
    p.charge(&t, nj as u64 * size_of::<BaseJoint>() as u64)?;
    let mut baseframe = Vec::with_capacity(nj);
    while baseframe.len() < nj {
        let Some([pos, orient]) = p.fast_vectors::<3, 2>() else {
            break;
        };
        baseframe.push(BaseJoint { pos, orient });
    }
    for i in baseframe.len()..nj {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numJoints = {nj} but the baseframe block has {}",
                plural(i, "line")
            )
        })?;
        baseframe.push(
            (|| -> Result<BaseJoint> {
                Ok(BaseJoint {
                    pos: p.vector("position")?,
                    orient: p.vector("orientation")?,
                })
            })()
            .context_with(|| format!("baseframe {i}"))?,
        );
    }
    let extra = p.peek_kind()? == LPAREN;
    p.too_many(extra, || {
        format!("the baseframe block has more lines than numJoints = {nj}")
    })?;
    p.punct(b'}')?;

    let n = u64::from(nac);
    p.count(
        "numFrames",
        &nf_tok,
        nf as i64,
        MIN_FRAME + n,
        size_of::<Vec<f32>>() as u64 + 4 * n,
    )?;
    let nac = nac as usize;
    let mut frames = Vec::with_capacity(nf);
    for f in 0..nf {
        if let Some(values) = p.fast_frame(f, nac) {
            frames.push(values);
            continue;
        }
        let t = p.peek()?;
        if t.kind == Kind::Eof {
            return Err(p.error(
                &t,
                ErrorKind::Truncated,
                format!(
                    "numFrames = {nf} but the file ends after {}",
                    plural(f, "frame")
                ),
            ));
        }
        p.numbered("frame", f)?;
        let values = (|| -> Result<Vec<f32>> {
            p.punct(b'{')?;
            let mut values = Vec::with_capacity(nac);
            // The values read in place, as long as they can be.
            if let Some(mut c) = p.cursor() {
                while values.len() < nac {
                    let Some(v) = c.f32() else {
                        break;
                    };
                    values.push(v);
                }
                let end = c.offset();
                p.advance(end);
            }
            for k in values.len()..nac {
                if let Some((t, n)) = p.take_number() {
                    values.push(match n.to_f32() {
                        Some(v) => v,
                        None => p.float_value(&t)?,
                    });
                    continue;
                }
                let ends = p.peek_kind()? == RBRACE;
                p.too_few(ends, || {
                    format!(
                        "numAnimatedComponents = {nac} but the frame has {}",
                        plural(k, "value")
                    )
                })?;
                values.push(p.float("frame value")?);
            }
            let extra = matches!(p.peek_kind()?, Kind::Int | Kind::Float);
            p.too_many(extra, || {
                format!("the frame has more values than numAnimatedComponents = {nac}")
            })?;
            p.punct(b'}')?;
            Ok(values)
        })()
        .context_with(|| format!("frame {f}"))?;
        frames.push(values);
    }
    let extra = p.at_word("frame")?;
    p.too_many(extra, || {
        format!("the file has more frame blocks than numFrames = {nf}")
    })?;
    p.expect_end()?;

    Ok(p.finish(AnimFile {
        version,
        commandline,
        frame_rate,
        num_animated_components: nac as u32,
        hierarchy,
        bounds,
        baseframe,
        frames,
    }))
}

/// `M` parenthesised groups of `N` numbers at the cursor, or `None` at anything else.
#[inline]
fn vectors_in_place<const N: usize, const M: usize>(
    c: &mut text::Cursor<'_>,
) -> Option<[[f32; N]; M]> {
    let mut out = [[0.0; N]; M];
    for v in &mut out {
        if !c.punct(b'(') {
            return None;
        }
        for x in v.iter_mut() {
            *x = c.f32()?;
        }
        if !c.punct(b')') {
            return None;
        }
    }
    Some(out)
}

/// Parses an `.md5camera` file.
///
/// Warns about a missing `MD5Version` or `commandline` line and strings that are not UTF-8;
/// fails with line and column on anything else that is off, including a cut outside
/// `1..numFrames` and a `camera` block whose lines disagree with `numFrames`.
pub fn parse_camera(text: &[u8], limits: &crate::limits::Limits) -> Result<Parsed<CameraFile>> {
    let mut p = Parser::new(text, CAMERA_FORMAT, limits);
    let version = p.version()?;
    let commandline = p.commandline()?;
    let (num_frames, nf_tok) = p.keyword_int("numFrames")?;
    let frame_rate = p.frame_rate()?;
    let (num_cuts, nc_tok) = p.keyword_int("numCuts")?;
    let nf = p.count(
        "numFrames",
        &nf_tok,
        num_frames,
        MIN_VEC_PAIR,
        size_of::<CameraFrame>() as u64,
    )?;

    p.keyword("cuts")?;
    p.punct(b'{')?;
    let nc = p.count("numCuts", &nc_tok, num_cuts, 1, 4)?;
    let mut cuts = Vec::with_capacity(nc);
    for i in 0..nc {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!("numCuts = {nc} but the cuts block has {}", plural(i, "cut"))
        })?;
        let (c, tok) = p.int("cut frame")?;
        if c < 1 || c >= nf as i64 {
            return Err(p
                .error(
                    &tok,
                    ErrorKind::IndexOutOfRange,
                    format!(
                        "frame {c} out of range (must be at least 1 and less than numFrames = {nf})"
                    ),
                )
                .in_context(format!("cut {i}")));
        }
        cuts.push(c as u32);
    }
    let extra = p.peek_kind()? == Kind::Int;
    p.too_many(extra, || {
        format!("the cuts block has more cuts than numCuts = {nc}")
    })?;
    p.punct(b'}')?;

    p.keyword("camera")?;
    p.punct(b'{')?;
    let mut frames = Vec::with_capacity(nf);
    // The lines read in place while they can be, then the ordinary way (which reports what
    // is wrong, or reads the rest).
    while frames.len() < nf {
        let Some(frame) = p.fast_camera_frame() else {
            break;
        };
        frames.push(frame);
    }
    for i in frames.len()..nf {
        let ends = p.peek_kind()? == RBRACE;
        p.too_few(ends, || {
            format!(
                "numFrames = {nf} but the camera block has {}",
                plural(i, "line")
            )
        })?;
        frames.push(
            (|| -> Result<CameraFrame> {
                Ok(CameraFrame {
                    pos: p.vector("camera position")?,
                    orient: p.vector("camera orientation")?,
                    fov: p.float("fov")?,
                })
            })()
            .context_with(|| format!("camera frame {i}"))?,
        );
    }
    let extra = p.peek_kind()? == LPAREN;
    p.too_many(extra, || {
        format!("the camera block has more lines than numFrames = {nf}")
    })?;
    p.punct(b'}')?;
    p.expect_end()?;

    Ok(p.finish(CameraFile {
        version,
        commandline,
        frame_rate,
        cuts,
        frames,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::text::tests::{check, tokens};
    use crate::io::text::LexErrorKind;

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

    #[test]
    fn tokens_lines_and_columns() {
        let src = b"MD5Version 10 // c\r\n\t\"a\\b\\\"(-0.000000 1e-05 .5 3. +2){}\r\n/* x\n */ k";
        check(
            &tokens(&SYNTAX, src).unwrap(),
            &[
                (Kind::Name, "MD5Version", 1, 1),
                (Kind::Int, "10", 1, 12),
                (Kind::Quoted(b'"'), "a\\b\\", 2, 2),
                (Kind::Punct(b'('), "(", 2, 8),
                (Kind::Float, "-0.000000", 2, 9),
                (Kind::Float, "1e-05", 2, 19),
                (Kind::Float, ".5", 2, 25),
                (Kind::Float, "3.", 2, 28),
                (Kind::Int, "+2", 2, 31),
                (Kind::Punct(b')'), ")", 2, 33),
                (Kind::Punct(b'{'), "{", 2, 34),
                (Kind::Punct(b'}'), "}", 2, 35),
                (Kind::Name, "k", 4, 5),
                (Kind::Eof, "", 4, 6),
            ],
        );
    }

    #[test]
    fn token_errors() {
        let e = |src: &[u8]| tokens(&SYNTAX, src).unwrap_err();
        let (err, line, column) = e(b"a\n \"abc");
        assert_eq!(err.kind, LexErrorKind::UnterminatedQuote(text::STRING));
        assert_eq!((line, column), (2, 2));
        assert_eq!(
            e(b"\"ab\nc\"").0.kind,
            LexErrorKind::LineBreakInQuote(text::STRING)
        );
        assert_eq!(e(b"/* x").0.kind, LexErrorKind::UnterminatedComment);
        assert_eq!(e(b"/*/").0.kind, LexErrorKind::UnterminatedComment);
        assert_eq!(e(b"1 / 2").0.kind, LexErrorKind::UnexpectedByte(b'/'));
        for bad in [
            &b"-"[..],
            b".",
            b"1e",
            b"1e+",
            b"1.#IND00",
            b"0.5f",
            b"1..2",
            b"--1",
            b"1-2",
        ] {
            let err = e(bad).0;
            assert_eq!(err.kind, LexErrorKind::MalformedNumber, "{bad:?}");
            assert_eq!((err.start, err.end), (0, bad.len()));
        }
    }
}
