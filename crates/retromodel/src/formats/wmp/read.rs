//! Parsing WMP text: tokens to a [`WmpFile`], every count and index checked once, here
//! (see [`parse`]).

use std::fmt;
use std::mem::size_of;
use std::ops::{Deref, DerefMut};

use super::raw::*;
use super::FORMAT;
use crate::error::{Error, ErrorKind, Location, Result, ResultExt};
use crate::io::text::{self, shorten, Kind, Quote, Syntax, Tally, Token, Words};
use crate::limits::Limits;

/// A parsed file and the warnings about what was read leniently.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The file.
    pub file: WmpFile,
    /// What was read leniently (count settings that disagree, unknown statements, dropped
    /// comments, ...).
    pub warnings: Vec<String>,
}

/// Deepest nesting of braces inside a kept statement.
const MAX_DEPTH: usize = 32;

/// Settings whose keyword is known (not reported as unknown statements).
const SETTINGS: &[&str] = &["version", "blocks", "entities", "objects"];

/// Fewest bytes a version-710 vertex takes (`0 0 0`).
const MIN_VERTEX: u64 = 5;
/// Fewest bytes a version-710 face takes (`3 0 1 2:t 0 0 0 1 1:0 0 0`, less a little).
const MIN_FACE: u64 = 20;

/// Whether a word starts a statement or a member (`block`, `object`, `_x`).
fn is_keyword(word: &[u8]) -> bool {
    word.first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
}

/// How WMP text is tokenized: WED's whitespace-separated words with a few symbols.
///
/// - **Comments**: `//` at the start of a token runs to the end of the line, and is a token
///   of its own ([`Kind::Comment`]) so that the parser can keep the ones it has a place for.
/// - **Symbols**: `{` `}` `(` `)` `,` `:` `;`, each one token.
/// - **File names**: `<` at the start of a token runs to the next `>` on the same line
///   (`<z:\wads\standard.wad>`, spaces allowed).
/// - **Quoted strings**: `"` at the start of a token runs to the next `"` on the same line
///   (none occur in the files seen, but names with spaces would need them).
/// - **Words**: everything else, a run of bytes up to whitespace or a symbol: numbers
///   (`-0.000000`), hex palette bytes (`0f`), flag strings (`0000`), texture names
///   (`*water3`), view window names (`3d.1`) and keywords. Bytes from 0x80 up are word bytes
///   (Latin-1 names); other control bytes and DEL are errors.
static SYNTAX: Syntax = Syntax {
    line_comments: true,
    block_comments: false,
    keep_comments: true,
    quotes: &[
        Quote {
            open: b'<',
            close: b'>',
            name: "file name",
        },
        text::STRING,
    ],
    punct: PUNCT,
    words: Words::Free,
};

const LBRACE: Kind = Kind::Punct(b'{');
const RBRACE: Kind = Kind::Punct(b'}');
const LPAREN: Kind = Kind::Punct(b'(');
const RPAREN: Kind = Kind::Punct(b')');
const COMMA: Kind = Kind::Punct(b',');
const COLON: Kind = Kind::Punct(b':');
const SEMICOLON: Kind = Kind::Punct(b';');
const PATH: Kind = Kind::Quoted(b'<');
const QUOTED: Kind = Kind::Quoted(b'"');

/// The shared text parser, with what only WMP needs on top.
struct Parser<'a> {
    p: text::Parser<'a>,
    /// Palette bytes not written as two lowercase hex digits.
    odd_hex: Tally,
}

impl<'a> Deref for Parser<'a> {
    type Target = text::Parser<'a>;

    fn deref(&self) -> &Self::Target {
        &self.p
    }
}

impl DerefMut for Parser<'_> {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.p
    }
}

impl<'a> Parser<'a> {
    fn new(src: &'a [u8], limits: &Limits) -> Self {
        Parser {
            p: text::Parser::new(src, &SYNTAX, FORMAT, limits),
            odd_hex: Tally::default(),
        }
    }

    fn peek_is(&mut self, kind: Kind) -> Result<bool> {
        Ok(self.peek_kind()? == kind)
    }

    /// A word, any text.
    fn word(&mut self, what: &str) -> Result<String> {
        self.string(Kind::Word, format_args!("{what}"))
    }

    fn path(&mut self, what: &str) -> Result<String> {
        self.string(PATH, format_args!("a file name in <> ({what})"))
    }

    /// A token of `kind` as a string, charged.
    fn string(&mut self, kind: Kind, expected: fmt::Arguments<'_>) -> Result<String> {
        let t = self.expect(kind, expected)?;
        let s = self.decode(&t);
        self.charge(&t, (size_of::<String>() + s.len()) as u64)?;
        Ok(s)
    }

    fn num(&mut self, what: &str) -> Result<Num> {
        let t = self.next_token()?;
        let text = self.str(&t);
        if t.kind != Kind::Word || !text::is_number(text.as_bytes()) {
            return Err(self.unexpected(&t, &format!("a number ({what})")));
        }
        let Some(n) = Num::parse(text) else {
            return Err(self.error(
                &t,
                ErrorKind::InvalidValue,
                format!("number {} is out of range", shorten(text.as_bytes())),
            ));
        };
        self.charge(&t, (size_of::<Num>() + text.len()) as u64)?;
        Ok(n)
    }

    fn vec3(&mut self, what: &str) -> Result<Vec3> {
        self.punct(b'(')?;
        let v = [self.num(what)?, self.num(what)?, self.num(what)?];
        self.punct(b')')?;
        Ok(v)
    }

    /// An unsigned integer (an index or a count, named by `what`), with its token.
    fn uint(&mut self, what: &str) -> Result<(u64, Token)> {
        let t = self.next_token()?;
        let text = self.str(&t);
        if t.kind != Kind::Word || text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
                "an"
            } else {
                "a"
            };
            return Err(self.unexpected(&t, &format!("{article} {what}")));
        }
        let Ok(v) = text.parse::<u32>() else {
            return Err(self.error(
                &t,
                ErrorKind::InvalidValue,
                format!("{what} {} is out of range", shorten(text.as_bytes())),
            ));
        };
        if text.len() > 1 && text.starts_with('0') {
            let at = self.at(t.offset());
            self.warn(format!(
                "{what} {text} at line {at} has leading zeros (written back as {v})"
            ));
        }
        Ok((u64::from(v), t))
    }

    fn index(&mut self, what: &str) -> Result<u32> {
        Ok(self.uint(what)?.0 as u32)
    }

    /// A count of entries about to be read: within `max_count`, and each entry takes at
    /// least `min_bytes` of what is left after the count; `elem_bytes` an entry is charged.
    fn count(&mut self, what: &str, min_bytes: u64, elem_bytes: usize) -> Result<usize> {
        let (n, t) = self.uint(what)?;
        self.p.count(
            &t,
            n,
            min_bytes,
            elem_bytes as u64,
            format_args!("{what} {n}"),
        )
    }

    /// An atom of a kept statement.
    fn atom(&mut self, t: &Token) -> Result<Atom> {
        let atom = match t.kind {
            Kind::Word => Atom::Word(self.decode(t)),
            PATH => Atom::Path(self.decode(t)),
            QUOTED => Atom::Quoted(self.decode(t)),
            LPAREN => Atom::Symbol('('),
            RPAREN => Atom::Symbol(')'),
            COMMA => Atom::Symbol(','),
            COLON => Atom::Symbol(':'),
            SEMICOLON => Atom::Symbol(';'),
            _ => return Err(self.unexpected(t, "a value")),
        };
        self.charge(t, (size_of::<Node>() + t.len()) as u64)?;
        Ok(atom)
    }

    /// The lines of a braced body whose `{` has been read, through its `}`.
    fn lines(&mut self, depth: usize) -> Result<Lines> {
        let mut lines: Lines = Vec::new();
        let mut end = self.consumed();
        loop {
            let t = self.peek()?;
            match t.kind {
                RBRACE => {
                    self.next_token()?;
                    return Ok(lines);
                }
                Kind::Eof => return Err(self.unexpected(&t, "'}'")),
                _ => {}
            }
            let t = self.next_token()?;
            let node = if t.kind == LBRACE {
                if depth >= MAX_DEPTH {
                    return Err(self.error(
                        &t,
                        ErrorKind::InvalidValue,
                        format!("braces nested deeper than {MAX_DEPTH}"),
                    ));
                }
                self.charge(&t, size_of::<Node>() as u64)?;
                Node::Group(self.lines(depth + 1)?)
            } else {
                Node::Atom(self.atom(&t)?)
            };
            if lines.is_empty() || self.line_break_between(end, t.offset()) {
                lines.push(Vec::new());
            }
            if let Some(l) = lines.last_mut() {
                l.push(node);
            }
            end = self.consumed();
        }
    }

    /// A setting or unknown statement whose keyword has been read: atoms up to a body, the
    /// next keyword, a `}` or the end.
    fn generic(&mut self, keyword: String) -> Result<Generic> {
        let mut args = Vec::new();
        loop {
            let t = self.peek()?;
            match t.kind {
                Kind::Eof | RBRACE => break,
                LBRACE => {
                    self.next_token()?;
                    let body = self.lines(1)?;
                    return Ok(Generic {
                        keyword,
                        args,
                        body: Some(body),
                    });
                }
                Kind::Word if is_keyword(self.text(&t)) => break,
                _ => {
                    let t = self.next_token()?;
                    args.push(self.atom(&t)?);
                }
            }
        }
        Ok(Generic {
            keyword,
            args,
            body: None,
        })
    }

    fn file(&mut self) -> Result<WmpFile> {
        let mut file = WmpFile::default();
        loop {
            let t = self.peek()?;
            let comments = self.take_comments()?;
            if t.kind == Kind::Eof {
                file.trailing_comments = comments;
                return Ok(file);
            }
            let (item, inner_comments) = self.statement()?;
            file.statements.push(Statement {
                comments,
                inner_comments,
                item,
            });
        }
    }

    /// `{` and the comments right after it.
    fn open(&mut self) -> Result<Vec<String>> {
        self.punct(b'{')?;
        self.take_comments()
    }

    fn statement(&mut self) -> Result<(Item, Vec<String>)> {
        let t = self.next_token()?;
        let text = self.text(&t);
        if t.kind != Kind::Word || !is_keyword(text) {
            return Err(self.unexpected(&t, "a statement keyword"));
        }
        let keyword = self.decode(&t);
        let indexed = [
            "block", "level", "light", "object", "entity", "sound", "path",
        ];
        if keyword == "wed" {
            let inner = self.open()?;
            let wed = self.wed().context_with(|| "wed")?;
            return Ok((Item::Wed(wed), inner));
        }
        if !indexed.contains(&keyword.as_str()) {
            let g = self.generic(keyword)?;
            if !SETTINGS.contains(&g.keyword.as_str()) {
                let at = self.at(t.offset());
                self.warn(format!(
                    "unknown statement '{}' at line {at} kept as it is",
                    shorten(g.keyword.as_bytes()),
                ));
            }
            return Ok((Item::Other(g), Vec::new()));
        }
        let index = self.index(&format!("{keyword} index"))?;
        let inner = self.open()?;
        let item = match keyword.as_str() {
            "block" => self.block(index).map(Item::Block),
            "level" => self.level(index).map(|l| Item::Level(Box::new(l))),
            "light" => self.light(index).map(Item::Light),
            "object" => self.object(index).map(Item::Object),
            kind => self.lines(1).map(|body| {
                let i = Indexed { index, body };
                match kind {
                    "entity" => Item::Entity(i),
                    "sound" => Item::Sound(i),
                    _ => Item::Path(i),
                }
            }),
        }
        .context_with(|| format!("{keyword} {index}"))?;
        Ok((item, inner))
    }

    fn wed(&mut self) -> Result<Wed> {
        let mut wed = Wed::default();
        loop {
            let t = self.next_token()?;
            if t.kind == RBRACE {
                return Ok(wed);
            }
            let text = self.text(&t);
            if t.kind != Kind::Word || !is_keyword(text) {
                return Err(self.unexpected(&t, "a wed section name or '}'"));
            }
            let name = self.decode(&t);
            let section = match name.as_str() {
                "palette" => self.palette(),
                "wad" => self.wad(),
                "bookmark" => self.bookmark(),
                "view" => self.view(),
                _ => {
                    self.charge(&t, (size_of::<String>() + name.len()) as u64)?;
                    self.generic(name.clone()).map(WedSection::Other)
                }
            }
            .context_with(|| name.clone())?;
            wed.sections.push(section);
        }
    }

    fn palette(&mut self) -> Result<WedSection> {
        self.punct(b'{')?;
        let mut bytes = Vec::new();
        loop {
            let t = self.next_token()?;
            if t.kind == RBRACE {
                return Ok(WedSection::Palette(bytes));
            }
            let text = self.text(&t);
            let hex = t.kind == Kind::Word
                && (1..=2).contains(&text.len())
                && text.iter().all(u8::is_ascii_hexdigit);
            if !hex {
                return Err(self.unexpected(&t, "a palette byte (two hex digits) or '}'"));
            }
            let s = std::str::from_utf8(text).unwrap_or_default();
            let v = u8::from_str_radix(s, 16).unwrap_or_default();
            if format!("{v:02x}") != s {
                self.odd_hex.note(t.offset());
            }
            self.charge(&t, 1)?;
            bytes.push(v);
        }
    }

    fn wad(&mut self) -> Result<WedSection> {
        self.punct(b'{')?;
        let mut values = Vec::new();
        let mut files = Vec::new();
        loop {
            let t = self.peek()?;
            match t.kind {
                RBRACE => {
                    self.next_token()?;
                    return Ok(WedSection::Wad { values, files });
                }
                PATH => {
                    let path = self.path("WAD file")?;
                    let value = self.num("after the WAD file")?;
                    self.charge(&t, size_of::<WadFile>() as u64)?;
                    files.push(WadFile { path, value });
                }
                _ if files.is_empty() => values.push(self.num("wad setting")?),
                _ => return Err(self.unexpected(&t, "a WAD file in <> or '}'")),
            }
        }
    }

    fn bookmark(&mut self) -> Result<WedSection> {
        self.punct(b'{')?;
        let mut lists = vec![Vec::new()];
        loop {
            let t = self.peek()?;
            match t.kind {
                RBRACE => {
                    self.next_token()?;
                    return Ok(WedSection::Bookmark(lists));
                }
                SEMICOLON => {
                    self.next_token()?;
                    self.charge(&t, size_of::<Vec<String>>() as u64)?;
                    lists.push(Vec::new());
                }
                Kind::Word => {
                    let w = self.word("a texture name")?;
                    if let Some(l) = lists.last_mut() {
                        l.push(w);
                    }
                }
                _ => {
                    self.next_token()?;
                    return Err(self.unexpected(&t, "a texture name, ';' or '}'"));
                }
            }
        }
    }

    fn view(&mut self) -> Result<WedSection> {
        self.punct(b'{')?;
        let mut windows: Vec<ViewWindow> = Vec::new();
        loop {
            let t = self.peek()?;
            let text = self.text(&t);
            match t.kind {
                RBRACE => {
                    self.next_token()?;
                    return Ok(WedSection::View(windows));
                }
                Kind::Word if text::is_number(text) => {
                    let n = self.num("view setting")?;
                    match windows.last_mut() {
                        Some(w) => w.values.push(n),
                        None => return Err(self.unexpected(&t, "a view window name")),
                    }
                }
                Kind::Word => {
                    let name = self.word("a view window name")?;
                    self.charge(&t, size_of::<ViewWindow>() as u64)?;
                    windows.push(ViewWindow {
                        name,
                        values: Vec::new(),
                    });
                }
                _ => {
                    self.next_token()?;
                    return Err(self.unexpected(&t, "a view window name, a number or '}'"));
                }
            }
        }
    }

    /// Texture and surface settings up to the albedo; returns where the albedo ends too.
    fn surface(&mut self) -> Result<(Surface, usize)> {
        let texture = self.word("a texture name")?;
        let axes = if self.peek_is(LPAREN)? {
            let mut axes: [[Num; 4]; 2] = Default::default();
            for axis in &mut axes {
                self.punct(b'(')?;
                for c in axis.iter_mut() {
                    *c = self.num("texture axis")?;
                }
                self.punct(b')')?;
            }
            Some(axes)
        } else {
            None
        };
        let offset = [self.num("texture x offset")?, self.num("texture y offset")?];
        let angle = self.num("texture angle")?;
        let scale = [self.num("texture x scale")?, self.num("texture y scale")?];
        self.punct(b':')?;
        let flags = self.word("texture flags")?;
        let ambient = self.num("ambient")?;
        let albedo = self.num("albedo")?;
        let end = self.consumed();
        Ok((
            Surface {
                texture,
                axes,
                offset,
                angle,
                scale,
                flags,
                ambient,
                albedo,
                extra: Vec::new(),
            },
            end,
        ))
    }

    /// The `{ words }` after a block's faces.
    fn properties(&mut self) -> Result<Vec<String>> {
        self.punct(b'{')?;
        let mut words = Vec::new();
        loop {
            let t = self.peek()?;
            match t.kind {
                RBRACE => {
                    self.next_token()?;
                    return Ok(words);
                }
                Kind::Word => words.push(self.word("a block property")?),
                _ => {
                    self.next_token()?;
                    return Err(self.unexpected(&t, "a block property or '}'"));
                }
            }
        }
    }

    fn block(&mut self, index: u32) -> Result<Block> {
        let shape = if self.at_word("vertices")? {
            self.polyhedron()?
        } else {
            let mut faces = Vec::new();
            loop {
                if !self.peek_is(LPAREN)? {
                    break;
                }
                let f = faces.len();
                let face = self.plane_face().context_with(|| format!("face {f}"))?;
                faces.push(face);
            }
            Shape::Planes(faces)
        };
        let mut properties = None;
        let t = self.peek()?;
        if t.kind == LBRACE {
            properties = Some(self.properties()?);
        } else if t.kind != RBRACE {
            let what = match shape {
                Shape::Planes(_) => "'(' (a face), '{' or '}'",
                Shape::Polyhedron { .. } => "'{' or '}' after the faces",
            };
            return Err(self.unexpected(&t, what));
        }
        self.punct(b'}')?;
        Ok(Block {
            index,
            shape,
            properties,
        })
    }

    fn plane_face(&mut self) -> Result<PlaneFace> {
        let points = [
            self.vec3("plane point")?,
            self.vec3("plane point")?,
            self.vec3("plane point")?,
        ];
        let (mut surface, _) = self.surface()?;
        while self.peek_is(Kind::Word)? {
            surface.extra.push(self.word("a word")?);
        }
        Ok(PlaneFace { points, surface })
    }

    fn polyhedron(&mut self) -> Result<Shape> {
        self.next_token()?; // `vertices`
        let nv = self.count("vertex count", MIN_VERTEX, size_of::<Vec3>())?;
        let t = self.next_token()?;
        if !(t.kind == Kind::Word && self.text(&t) == b"faces") {
            return Err(self.unexpected(&t, "'faces'"));
        }
        let nf = self.count("face count", MIN_FACE, size_of::<PolygonFace>())?;
        let mut vertices = Vec::with_capacity(nv);
        for _ in 0..nv {
            vertices.push([
                self.num("vertex")?,
                self.num("vertex")?,
                self.num("vertex")?,
            ]);
        }
        let mut faces = Vec::with_capacity(nf);
        for f in 0..nf {
            let face = self.polygon_face(nv).context_with(|| format!("face {f}"))?;
            faces.push(face);
        }
        Ok(Shape::Polyhedron { vertices, faces })
    }

    fn polygon_face(&mut self, nv: usize) -> Result<PolygonFace> {
        let t = self.peek()?;
        let n = self.count("face vertex count", 1, size_of::<u32>())?;
        if n < 3 {
            return Err(self.error(
                &t,
                ErrorKind::InvalidValue,
                format!("a face needs at least 3 vertices, found {n}"),
            ));
        }
        let mut vertices = Vec::with_capacity(n);
        for _ in 0..n {
            let t = self.peek()?;
            let i = self.index("vertex index")?;
            if i as usize >= nv {
                return Err(self.error(
                    &t,
                    ErrorKind::IndexOutOfRange,
                    format!("vertex index {i} out of range (vertices = {nv})"),
                ));
            }
            vertices.push(i);
        }
        self.punct(b':')?;
        let (mut surface, end) = self.surface()?;
        loop {
            let t = self.peek()?;
            if t.kind != Kind::Word || self.line_break_between(end, t.offset()) {
                break;
            }
            surface.extra.push(self.word("a word")?);
        }
        Ok(PolygonFace { vertices, surface })
    }

    fn level(&mut self, index: u32) -> Result<Level> {
        let wad = self.path("interim WAD")?;
        let palette = self.path("palette")?;
        let nexus = self.num("nexus")?;
        let azimuth = self.num("azimuth")?;
        let elevation = self.num("elevation")?;
        let script = self.path("script")?;
        let mut fog: [Vec3; 4] = Default::default();
        for (i, f) in fog.iter_mut().enumerate() {
            let what = format!("fog {} colour", i + 1);
            *f = [self.num(&what)?, self.num(&what)?, self.num(&what)?];
        }
        let sun = [
            self.num("sun colour")?,
            self.num("sun colour")?,
            self.num("sun colour")?,
        ];
        let ambient = [
            self.num("ambient colour")?,
            self.num("ambient colour")?,
            self.num("ambient colour")?,
        ];
        let rest = self.lines(1)?;
        Ok(Level {
            index,
            wad,
            palette,
            nexus,
            azimuth,
            elevation,
            script,
            fog,
            sun,
            ambient,
            rest,
        })
    }

    fn light(&mut self, index: u32) -> Result<Light> {
        let color = [
            self.num("light colour")?,
            self.num("light colour")?,
            self.num("light colour")?,
        ];
        let range = self.num("light range")?;
        let rest = self.lines(1)?;
        Ok(Light {
            index,
            color,
            range,
            rest,
        })
    }

    fn object(&mut self, index: u32) -> Result<Object> {
        let position = self.vec3("position")?;
        let angles = self.vec3("angle")?;
        let scale = self.vec3("scale")?;
        let mut members = Vec::new();
        loop {
            let t = self.peek()?;
            if t.kind == RBRACE {
                self.next_token()?;
                break;
            }
            if !(t.kind == Kind::Word && is_keyword(self.text(&t))) {
                self.next_token()?;
                return Err(self.unexpected(&t, "a member kind (object, block, ...) or '}'"));
            }
            let kind = self.word("a member kind")?;
            let mut indices = vec![self.index(&format!("{kind} index"))?];
            while self.peek_is(COMMA)? {
                self.next_token()?;
                let t = self.peek()?;
                indices.push(self.index(&format!("{kind} index"))?);
                self.charge(&t, size_of::<u32>() as u64)?;
            }
            self.charge(&t, size_of::<Member>() as u64)?;
            members.push(Member { kind, indices });
        }
        Ok(Object {
            index,
            position,
            angles,
            scale,
            members,
        })
    }

    /// The warnings that need the whole file.
    fn finish(&mut self, file: &WmpFile) {
        let mut w = Vec::new();
        match file.statements.first().and_then(|s| s.comments.first()) {
            Some(c) if c.trim_start().starts_with("WMP") => {}
            _ => w.push("no '// WMP' line at the start of the file".to_string()),
        }
        let count = |pred: fn(&Item) -> bool| file.items().filter(|i| pred(i)).count();
        let blocks = count(|i| matches!(i, Item::Block(_)));
        let objects = count(|i| matches!(i, Item::Object(_)));
        let entities = count(|i| {
            matches!(
                i,
                Item::Level(_) | Item::Light(_) | Item::Entity(_) | Item::Sound(_) | Item::Path(_)
            )
        });
        for (name, present) in [
            ("blocks", blocks),
            ("objects", objects),
            ("entities", entities),
        ] {
            if let Some(args) = file.setting(name) {
                let stated = match args {
                    [Atom::Word(v)] => v.parse::<usize>().ok(),
                    _ => None,
                };
                if stated != Some(present) {
                    let text: Vec<String> = args.iter().map(super::write::atom_text).collect();
                    w.push(format!(
                        "'{name} {}' but {present} are present (kept as written)",
                        shorten(text.join(" ").as_bytes())
                    ));
                }
            }
        }
        for (tally, what, tail) in [
            (
                self.dropped_comments,
                "comment(s) inside statements dropped",
                "",
            ),
            (self.latin1, "word(s) not UTF-8, read as Latin-1", ""),
            (
                self.odd_hex,
                "palette byte(s) not written as two lowercase hex digits",
                "; written back as two",
            ),
        ] {
            if let (n @ 1.., Some(first)) = (tally.count, tally.first) {
                let at = self.at(first);
                w.push(format!("{n} {what} (the first at line {at}){tail}"));
            }
        }
        self.warnings.extend(w);
    }
}

/// Parses a text WMP level. A binary `WMPB` level is refused with the "not supported yet"
/// error that `Document` gives for it.
///
/// The statement layouts are those of the A4 manual (`wed`, `block` with plane faces,
/// `level`, `light`, `object`) and of the version-710 files WED 6 and WMPIO write (`block`
/// with `vertices`/`faces`); tokens may be spread over lines at will, except that the words
/// after a version-710 face's albedo run to the end of its line. What is read leniently,
/// with a warning in [`Parsed::warnings`]:
///
/// - a first comment that is not `// WMP...` (the file is read all the same);
/// - a `blocks`, `objects` or `entities` setting that disagrees with the statements present
///   (the setting is kept as written; `entities` counts `level`, `light`, `sound`, `entity`
///   and `path` statements, which share one numbering);
/// - an unknown statement (kept as tokens and written back);
/// - comments inside statements other than right after the opening brace (dropped);
/// - an index with leading zeros, a palette byte not written as two lowercase hex digits
///   (written back in the canonical form), words that are not UTF-8 (read as Latin-1).
///
/// Everything else that is off is an error with line and column: a missing or misplaced
/// token, a number where a name belongs or the reverse, a face with fewer than three
/// vertices, a vertex index out of range, an index or count out of range, braces nested
/// deeper than 32 in a kept statement. A binary `WMPB` file is refused as not supported yet.
/// Every count is checked against the bytes left in the input and `Limits::max_count`, and
/// every value is charged to a [`Budget`](crate::limits::Budget) before it is stored.
pub fn parse(text: &[u8], limits: &Limits) -> Result<Parsed> {
    if text.starts_with(b"WMPB") {
        return Err(Error::new(
            FORMAT,
            ErrorKind::Unsupported,
            "3D GameStudio binary WMP level files are not supported yet",
            Location::None,
        ));
    }
    let mut p = Parser::new(text, limits);
    let file = p.file()?;
    p.finish(&file);
    Ok(Parsed {
        file,
        warnings: p.p.warnings,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::text::tests::{check, tokens};
    use crate::io::text::LexErrorKind;

    #[test]
    fn tokens_lines_and_columns() {
        let src = b"// WMP2 \r\nobject 0 {  // Root\r\n\t(0 -16 1.5) object 1, 35\r\n\
                    <z:\\a b\\w.wad> 1 ; *water3 3d.1 \"x y\" a//b:}";
        check(
            &tokens(&SYNTAX, src).unwrap(),
            &[
                (Kind::Comment, " WMP2", 1, 1),
                (Kind::Word, "object", 2, 1),
                (Kind::Word, "0", 2, 8),
                (Kind::Punct(b'{'), "{", 2, 10),
                (Kind::Comment, " Root", 2, 13),
                (Kind::Punct(b'('), "(", 3, 2),
                (Kind::Word, "0", 3, 3),
                (Kind::Word, "-16", 3, 5),
                (Kind::Word, "1.5", 3, 9),
                (Kind::Punct(b')'), ")", 3, 12),
                (Kind::Word, "object", 3, 14),
                (Kind::Word, "1", 3, 21),
                (Kind::Punct(b','), ",", 3, 22),
                (Kind::Word, "35", 3, 24),
                (Kind::Quoted(b'<'), "z:\\a b\\w.wad", 4, 1),
                (Kind::Word, "1", 4, 16),
                (Kind::Punct(b';'), ";", 4, 18),
                (Kind::Word, "*water3", 4, 20),
                (Kind::Word, "3d.1", 4, 28),
                (Kind::Quoted(b'"'), "x y", 4, 33),
                (Kind::Word, "a//b", 4, 39),
                (Kind::Punct(b':'), ":", 4, 43),
                (Kind::Punct(b'}'), "}", 4, 44),
                (Kind::Eof, "", 4, 45),
            ],
        );
    }

    #[test]
    fn token_errors() {
        let e = |src: &[u8]| tokens(&SYNTAX, src).unwrap_err();
        let (err, line, column) = e(b"a\n <abc");
        assert_eq!(err.kind, LexErrorKind::UnterminatedQuote(SYNTAX.quotes[0]));
        assert_eq!((line, column), (2, 2));
        assert_eq!(
            e(b"<ab\nc>").0.kind,
            LexErrorKind::LineBreakInQuote(SYNTAX.quotes[0])
        );
        assert_eq!(
            e(b"\"ab").0.kind,
            LexErrorKind::UnterminatedQuote(text::STRING)
        );
        assert_eq!(
            e(b"\"ab\n\"").0.kind,
            LexErrorKind::LineBreakInQuote(text::STRING)
        );
        let (err, line, column) = e(b"ab\0c");
        assert_eq!(
            (err.kind, line, column),
            (LexErrorKind::UnexpectedByte(0), 1, 3)
        );
        assert_eq!(e(b"\x7f").0.kind, LexErrorKind::UnexpectedByte(0x7f));
        // Comments, file names and strings may hold anything but a line feed.
        assert!(tokens(&SYNTAX, b"// \0\x7f\n<\x01> \"\x02\"").is_ok());
    }
}
