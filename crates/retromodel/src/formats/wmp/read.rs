//! Parsing WMP text: tokens to a [`WmpFile`], every count and index checked once, here
//! (see [`parse`]).

use std::mem::size_of;

use super::lexer::{Kind, LexError, LexErrorKind, Lexer, Token};
use super::raw::*;
use super::FORMAT;
use crate::error::{Error, ErrorKind, Location, Result, ResultExt};
use crate::limits::{Budget, Limits};

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

/// Up to 40 characters of `text`, with `...` when cut.
fn shorten(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// Whether a word starts a statement or a member (`block`, `object`, `_x`).
fn is_keyword(word: &[u8]) -> bool {
    word.first()
        .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
}

struct Parser<'a> {
    lex: Lexer<'a>,
    peeked: Option<Token>,
    /// End of the last token taken with `next`.
    consumed: usize,
    /// Line of the last token taken with `next`.
    last_line: u32,
    limits: Limits,
    budget: Budget,
    warnings: Vec<String>,
    /// Comments met since the last token taken, with their line and column.
    pending: Vec<(String, u32, u32)>,
    /// Comments dropped so far, and where the first was.
    dropped: (usize, Option<(u32, u32)>),
    /// Words read as Latin-1 so far, and where the first was.
    latin1: (usize, Option<(u32, u32)>),
    /// Palette bytes not written as two lowercase hex digits, and where the first was.
    odd_hex: (usize, Option<(u32, u32)>),
}

impl<'a> Parser<'a> {
    fn new(text: &'a [u8], limits: &Limits) -> Self {
        Parser {
            lex: Lexer::new(text),
            peeked: None,
            consumed: 0,
            last_line: 1,
            limits: *limits,
            budget: Budget::new(limits),
            warnings: Vec::new(),
            pending: Vec::new(),
            dropped: (0, None),
            latin1: (0, None),
            odd_hex: (0, None),
        }
    }

    fn error(&self, tok: &Token, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(
            FORMAT,
            kind,
            message,
            Location::LineCol {
                line: tok.line,
                column: tok.column,
            },
        )
    }

    fn lex_error(&self, e: LexError) -> Error {
        let (kind, message) = match e.kind {
            LexErrorKind::UnexpectedByte(b) => (
                ErrorKind::InvalidValue,
                format!("unexpected byte 0x{b:02x}"),
            ),
            LexErrorKind::UnterminatedPath => (
                ErrorKind::Truncated,
                "file name has no closing '>' before the end of the file".to_string(),
            ),
            LexErrorKind::LineBreakInPath => (
                ErrorKind::InvalidValue,
                "file name has no closing '>' before the end of its line".to_string(),
            ),
            LexErrorKind::UnterminatedString => (
                ErrorKind::Truncated,
                "string has no closing '\"' before the end of the file".to_string(),
            ),
            LexErrorKind::LineBreakInString => (
                ErrorKind::InvalidValue,
                "string has no closing '\"' before the end of its line".to_string(),
            ),
        };
        Error::new(
            FORMAT,
            kind,
            message,
            Location::LineCol {
                line: e.line,
                column: e.column,
            },
        )
    }

    fn charge(&mut self, tok: &Token, bytes: usize) -> Result<()> {
        self.budget.charge(bytes as u64).map_err(|limit| {
            self.error(
                tok,
                ErrorKind::LimitExceeded,
                format!("decoded data would exceed the allocation limit of {limit} bytes"),
            )
        })
    }

    /// The text of a token as a string: UTF-8, or Latin-1 (counted for one warning).
    fn decode(&mut self, tok: &Token) -> String {
        let bytes = tok.bytes(self.lex.src());
        match std::str::from_utf8(bytes) {
            Ok(s) => s.to_string(),
            Err(_) => {
                self.latin1.0 += 1;
                self.latin1.1.get_or_insert((tok.line, tok.column));
                bytes.iter().map(|&b| char::from(b)).collect()
            }
        }
    }

    /// A token's text for messages.
    fn text(&self, tok: &Token) -> String {
        String::from_utf8_lossy(tok.bytes(self.lex.src())).into_owned()
    }

    fn peek(&mut self) -> Result<Token> {
        if let Some(t) = self.peeked {
            return Ok(t);
        }
        loop {
            let t = self.lex.next_token().map_err(|e| self.lex_error(e))?;
            if t.kind == Kind::Comment {
                let text = self.decode(&t);
                self.charge(&t, size_of::<String>() + text.len())?;
                self.pending.push((text, t.line, t.column));
                continue;
            }
            self.peeked = Some(t);
            return Ok(t);
        }
    }

    /// Takes the next token; comments before it that nobody took are dropped.
    fn next(&mut self) -> Result<Token> {
        let t = self.peek()?;
        if let Some(&(_, line, column)) = self.pending.first() {
            self.dropped.0 += self.pending.len();
            self.dropped.1.get_or_insert((line, column));
            self.pending.clear();
        }
        self.peeked = None;
        self.consumed = t.end;
        self.last_line = t.line;
        Ok(t)
    }

    /// The comments before the peeked token.
    fn take_comments(&mut self) -> Result<Vec<String>> {
        self.peek()?;
        Ok(std::mem::take(&mut self.pending)
            .into_iter()
            .map(|(text, _, _)| text)
            .collect())
    }

    fn describe(&self, tok: &Token) -> String {
        match tok.kind {
            Kind::Eof => "end of file".to_string(),
            Kind::LBrace => "'{'".to_string(),
            Kind::RBrace => "'}'".to_string(),
            Kind::LParen => "'('".to_string(),
            Kind::RParen => "')'".to_string(),
            Kind::Comma => "','".to_string(),
            Kind::Colon => "':'".to_string(),
            Kind::Semicolon => "';'".to_string(),
            Kind::Path => format!("<{}>", shorten(&self.text(tok))),
            Kind::Quoted => format!("\"{}\"", shorten(&self.text(tok))),
            Kind::Word | Kind::Comment => shorten(&self.text(tok)),
        }
    }

    /// "expected X, found Y": truncation at the end of the file, else a bad value.
    fn unexpected(&self, tok: &Token, expected: &str) -> Error {
        let kind = if tok.kind == Kind::Eof {
            ErrorKind::Truncated
        } else {
            ErrorKind::InvalidValue
        };
        self.error(
            tok,
            kind,
            format!("expected {expected}, found {}", self.describe(tok)),
        )
    }

    fn symbol(&mut self, kind: Kind) -> Result<Token> {
        let t = self.next()?;
        if t.kind == kind {
            return Ok(t);
        }
        let name = match kind {
            Kind::LBrace => "'{'",
            Kind::RBrace => "'}'",
            Kind::LParen => "'('",
            Kind::RParen => "')'",
            Kind::Comma => "','",
            Kind::Colon => "':'",
            _ => "';'",
        };
        Err(self.unexpected(&t, name))
    }

    fn peek_is(&mut self, kind: Kind) -> Result<bool> {
        Ok(self.peek()?.kind == kind)
    }

    fn peek_word(&mut self, word: &str) -> Result<bool> {
        let t = self.peek()?;
        Ok(t.kind == Kind::Word && t.bytes(self.lex.src()) == word.as_bytes())
    }

    /// A word, any text.
    fn word(&mut self, what: &str) -> Result<String> {
        let t = self.next()?;
        if t.kind != Kind::Word {
            return Err(self.unexpected(&t, what));
        }
        let s = self.decode(&t);
        self.charge(&t, size_of::<String>() + s.len())?;
        Ok(s)
    }

    fn path(&mut self, what: &str) -> Result<String> {
        let t = self.next()?;
        if t.kind != Kind::Path {
            return Err(self.unexpected(&t, &format!("a file name in <> ({what})")));
        }
        let s = self.decode(&t);
        self.charge(&t, size_of::<String>() + s.len())?;
        Ok(s)
    }

    fn num(&mut self, what: &str) -> Result<Num> {
        let t = self.next()?;
        let text = self.text(&t);
        if t.kind != Kind::Word || !super::lexer::is_number(text.as_bytes()) {
            return Err(self.unexpected(&t, &format!("a number ({what})")));
        }
        let Some(n) = Num::parse(&text) else {
            return Err(self.error(
                &t,
                ErrorKind::InvalidValue,
                format!("number {} is out of range", shorten(&text)),
            ));
        };
        self.charge(&t, size_of::<Num>() + text.len())?;
        Ok(n)
    }

    fn vec3(&mut self, what: &str) -> Result<Vec3> {
        self.symbol(Kind::LParen)?;
        let v = [self.num(what)?, self.num(what)?, self.num(what)?];
        self.symbol(Kind::RParen)?;
        Ok(v)
    }

    /// An unsigned integer (an index or a count, named by `what`), with its token.
    fn uint(&mut self, what: &str) -> Result<(u64, Token)> {
        let t = self.next()?;
        let text = self.text(&t);
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
                format!("{what} {} is out of range", shorten(&text)),
            ));
        };
        if text.len() > 1 && text.starts_with('0') {
            self.warnings.push(format!(
                "{what} {text} at line {}:{} has leading zeros (written back as {v})",
                t.line, t.column
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
        if n > u64::from(self.limits.max_count) {
            return Err(self.error(
                &t,
                ErrorKind::LimitExceeded,
                format!("{what} {n} exceeds the limit of {}", self.limits.max_count),
            ));
        }
        let left = (self.lex.src().len() - self.consumed) as u64;
        let need = n.saturating_mul(min_bytes);
        if need > left {
            return Err(self.error(
                &t,
                ErrorKind::BadCount,
                format!("{what} {n} needs at least {need} bytes but only {left} are left"),
            ));
        }
        self.charge(&t, (n as usize).saturating_mul(elem_bytes))?;
        Ok(n as usize)
    }

    /// An atom of a kept statement.
    fn atom(&mut self, t: &Token) -> Result<Atom> {
        let atom = match t.kind {
            Kind::Word => Atom::Word(self.decode(t)),
            Kind::Path => Atom::Path(self.decode(t)),
            Kind::Quoted => Atom::Quoted(self.decode(t)),
            Kind::LParen => Atom::Symbol('('),
            Kind::RParen => Atom::Symbol(')'),
            Kind::Comma => Atom::Symbol(','),
            Kind::Colon => Atom::Symbol(':'),
            Kind::Semicolon => Atom::Symbol(';'),
            _ => return Err(self.unexpected(t, "a value")),
        };
        self.charge(t, size_of::<Node>() + (t.end - t.start))?;
        Ok(atom)
    }

    /// The lines of a braced body whose `{` has been read, through its `}`.
    fn lines(&mut self, depth: usize) -> Result<Lines> {
        let mut lines: Lines = Vec::new();
        let mut line = self.last_line;
        loop {
            let t = self.peek()?;
            match t.kind {
                Kind::RBrace => {
                    self.next()?;
                    return Ok(lines);
                }
                Kind::Eof => return Err(self.unexpected(&t, "'}'")),
                _ => {}
            }
            let t = self.next()?;
            let node = if t.kind == Kind::LBrace {
                if depth >= MAX_DEPTH {
                    return Err(self.error(
                        &t,
                        ErrorKind::InvalidValue,
                        format!("braces nested deeper than {MAX_DEPTH}"),
                    ));
                }
                self.charge(&t, size_of::<Node>())?;
                Node::Group(self.lines(depth + 1)?)
            } else {
                Node::Atom(self.atom(&t)?)
            };
            if lines.is_empty() || t.line > line {
                lines.push(Vec::new());
            }
            if let Some(l) = lines.last_mut() {
                l.push(node);
            }
            line = self.last_line;
        }
    }

    /// A setting or unknown statement whose keyword has been read: atoms up to a body, the
    /// next keyword, a `}` or the end.
    fn generic(&mut self, keyword: String) -> Result<Generic> {
        let mut args = Vec::new();
        loop {
            let t = self.peek()?;
            match t.kind {
                Kind::Eof | Kind::RBrace => break,
                Kind::LBrace => {
                    self.next()?;
                    let body = self.lines(1)?;
                    return Ok(Generic {
                        keyword,
                        args,
                        body: Some(body),
                    });
                }
                Kind::Word if is_keyword(t.bytes(self.lex.src())) => break,
                _ => {
                    let t = self.next()?;
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
        self.symbol(Kind::LBrace)?;
        self.take_comments()
    }

    fn statement(&mut self) -> Result<(Item, Vec<String>)> {
        let t = self.next()?;
        let text = t.bytes(self.lex.src());
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
                self.warnings.push(format!(
                    "unknown statement '{}' at line {}:{} kept as it is",
                    shorten(&g.keyword),
                    t.line,
                    t.column
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
            let t = self.next()?;
            if t.kind == Kind::RBrace {
                return Ok(wed);
            }
            let text = t.bytes(self.lex.src());
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
                    self.charge(&t, size_of::<String>() + name.len())?;
                    self.generic(name.clone()).map(WedSection::Other)
                }
            }
            .context_with(|| name.clone())?;
            wed.sections.push(section);
        }
    }

    fn palette(&mut self) -> Result<WedSection> {
        self.symbol(Kind::LBrace)?;
        let mut bytes = Vec::new();
        loop {
            let t = self.next()?;
            if t.kind == Kind::RBrace {
                return Ok(WedSection::Palette(bytes));
            }
            let text = t.bytes(self.lex.src());
            let hex = t.kind == Kind::Word
                && (1..=2).contains(&text.len())
                && text.iter().all(u8::is_ascii_hexdigit);
            if !hex {
                return Err(self.unexpected(&t, "a palette byte (two hex digits) or '}'"));
            }
            let s = std::str::from_utf8(text).unwrap_or_default();
            let v = u8::from_str_radix(s, 16).unwrap_or_default();
            if format!("{v:02x}") != s {
                self.odd_hex.0 += 1;
                self.odd_hex.1.get_or_insert((t.line, t.column));
            }
            self.charge(&t, 1)?;
            bytes.push(v);
        }
    }

    fn wad(&mut self) -> Result<WedSection> {
        self.symbol(Kind::LBrace)?;
        let mut values = Vec::new();
        let mut files = Vec::new();
        loop {
            let t = self.peek()?;
            match t.kind {
                Kind::RBrace => {
                    self.next()?;
                    return Ok(WedSection::Wad { values, files });
                }
                Kind::Path => {
                    let path = self.path("WAD file")?;
                    let value = self.num("after the WAD file")?;
                    self.charge(&t, size_of::<WadFile>())?;
                    files.push(WadFile { path, value });
                }
                _ if files.is_empty() => values.push(self.num("wad setting")?),
                _ => return Err(self.unexpected(&t, "a WAD file in <> or '}'")),
            }
        }
    }

    fn bookmark(&mut self) -> Result<WedSection> {
        self.symbol(Kind::LBrace)?;
        let mut lists = vec![Vec::new()];
        loop {
            let t = self.peek()?;
            match t.kind {
                Kind::RBrace => {
                    self.next()?;
                    return Ok(WedSection::Bookmark(lists));
                }
                Kind::Semicolon => {
                    self.next()?;
                    self.charge(&t, size_of::<Vec<String>>())?;
                    lists.push(Vec::new());
                }
                Kind::Word => {
                    let w = self.word("a texture name")?;
                    if let Some(l) = lists.last_mut() {
                        l.push(w);
                    }
                }
                _ => {
                    self.next()?;
                    return Err(self.unexpected(&t, "a texture name, ';' or '}'"));
                }
            }
        }
    }

    fn view(&mut self) -> Result<WedSection> {
        self.symbol(Kind::LBrace)?;
        let mut windows: Vec<ViewWindow> = Vec::new();
        loop {
            let t = self.peek()?;
            let text = t.bytes(self.lex.src());
            match t.kind {
                Kind::RBrace => {
                    self.next()?;
                    return Ok(WedSection::View(windows));
                }
                Kind::Word if super::lexer::is_number(text) => {
                    let n = self.num("view setting")?;
                    match windows.last_mut() {
                        Some(w) => w.values.push(n),
                        None => return Err(self.unexpected(&t, "a view window name")),
                    }
                }
                Kind::Word => {
                    let name = self.word("a view window name")?;
                    self.charge(&t, size_of::<ViewWindow>())?;
                    windows.push(ViewWindow {
                        name,
                        values: Vec::new(),
                    });
                }
                _ => {
                    self.next()?;
                    return Err(self.unexpected(&t, "a view window name, a number or '}'"));
                }
            }
        }
    }

    /// Texture and surface settings up to the albedo; returns the albedo's line too.
    fn surface(&mut self) -> Result<(Surface, u32)> {
        let texture = self.word("a texture name")?;
        let axes = if self.peek_is(Kind::LParen)? {
            let mut axes: [[Num; 4]; 2] = Default::default();
            for axis in &mut axes {
                self.symbol(Kind::LParen)?;
                for c in axis.iter_mut() {
                    *c = self.num("texture axis")?;
                }
                self.symbol(Kind::RParen)?;
            }
            Some(axes)
        } else {
            None
        };
        let offset = [self.num("texture x offset")?, self.num("texture y offset")?];
        let angle = self.num("texture angle")?;
        let scale = [self.num("texture x scale")?, self.num("texture y scale")?];
        self.symbol(Kind::Colon)?;
        let flags = self.word("texture flags")?;
        let ambient = self.num("ambient")?;
        let albedo = self.num("albedo")?;
        let line = self.last_line;
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
            line,
        ))
    }

    /// The `{ words }` after a block's faces.
    fn properties(&mut self) -> Result<Vec<String>> {
        self.symbol(Kind::LBrace)?;
        let mut words = Vec::new();
        loop {
            let t = self.peek()?;
            match t.kind {
                Kind::RBrace => {
                    self.next()?;
                    return Ok(words);
                }
                Kind::Word => words.push(self.word("a block property")?),
                _ => {
                    self.next()?;
                    return Err(self.unexpected(&t, "a block property or '}'"));
                }
            }
        }
    }

    fn block(&mut self, index: u32) -> Result<Block> {
        let shape = if self.peek_word("vertices")? {
            self.polyhedron()?
        } else {
            let mut faces = Vec::new();
            loop {
                if !self.peek_is(Kind::LParen)? {
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
        if t.kind == Kind::LBrace {
            properties = Some(self.properties()?);
        } else if t.kind != Kind::RBrace {
            let what = match shape {
                Shape::Planes(_) => "'(' (a face), '{' or '}'",
                Shape::Polyhedron { .. } => "'{' or '}' after the faces",
            };
            return Err(self.unexpected(&t, what));
        }
        self.symbol(Kind::RBrace)?;
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
        self.next()?; // `vertices`
        let nv = self.count("vertex count", MIN_VERTEX, size_of::<Vec3>())?;
        let t = self.next()?;
        if !(t.kind == Kind::Word && t.bytes(self.lex.src()) == b"faces") {
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
        self.symbol(Kind::Colon)?;
        let (mut surface, line) = self.surface()?;
        loop {
            let t = self.peek()?;
            if t.kind != Kind::Word || t.line != line {
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
            if t.kind == Kind::RBrace {
                self.next()?;
                break;
            }
            if !(t.kind == Kind::Word && is_keyword(t.bytes(self.lex.src()))) {
                self.next()?;
                return Err(self.unexpected(&t, "a member kind (object, block, ...) or '}'"));
            }
            let kind = self.word("a member kind")?;
            let mut indices = vec![self.index(&format!("{kind} index"))?];
            while self.peek_is(Kind::Comma)? {
                self.next()?;
                let t = self.peek()?;
                indices.push(self.index(&format!("{kind} index"))?);
                self.charge(&t, size_of::<u32>())?;
            }
            self.charge(&t, size_of::<Member>())?;
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
                        shorten(&text.join(" "))
                    ));
                }
            }
        }
        if let (n @ 1.., Some((line, column))) = self.dropped {
            w.push(format!(
                "{n} comment(s) inside statements dropped (the first at line {line}:{column})"
            ));
        }
        if let (n @ 1.., Some((line, column))) = self.latin1 {
            w.push(format!(
                "{n} word(s) not UTF-8, read as Latin-1 (the first at line {line}:{column})"
            ));
        }
        if let (n @ 1.., Some((line, column))) = self.odd_hex {
            w.push(format!(
                "{n} palette byte(s) not written as two lowercase hex digits (the first at line \
                 {line}:{column}); written back as two"
            ));
        }
        self.warnings.extend(w);
    }
}

/// Parses a text WMP level. A binary `WMPB` level is refused with the "not supported yet"
/// error that [`crate::Document`] gives for it.
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
/// every value is charged to a [`Budget`] before it is stored.
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
        warnings: p.warnings,
    })
}
