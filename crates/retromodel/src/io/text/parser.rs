//! [`Parser`]: a [`Lexer`] with one token of look-ahead and what the format parsers share
//! (located errors, `expected X, found Y`, counts, the allocation budget, warnings, Latin-1
//! fallback, kept comments), and the [`Tally`] of things met more than once.

use std::cell::Cell;
use std::fmt;

use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};

use super::bytes::{decode, shorten};
use super::cursor::Cursor;
use super::lexer::{bom_len, LexError, Lexer};
use super::number::Number;
use super::syntax::{Kind, Syntax, Token, Words};

/// How many times something was met, and the byte offset of the first: one warning for all.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// How many times.
    pub count: usize,
    /// Where the first was.
    pub first: Option<usize>,
}

impl Tally {
    /// Counts one more, at `offset`.
    pub fn note(&mut self, offset: usize) {
        self.count += 1;
        self.first.get_or_insert(offset);
    }
}

/// The last place [`Parser::line_col`] was asked for: a byte offset, its line, and the offset
/// its line starts at.
#[derive(Debug, Clone, Copy)]
struct LineMark {
    offset: usize,
    line: u32,
    line_start: usize,
}

/// A [`Lexer`] with one token of look-ahead and what format parsers share: located errors,
/// count checks, an allocation [`Budget`], warnings, Latin-1 fallback and kept comments.
#[derive(Debug)]
pub struct Parser<'a> {
    lex: Lexer<'a>,
    peeked: Option<Token>,
    consumed: usize,
    format: &'static str,
    limits: Limits,
    budget: Budget,
    mark: Cell<LineMark>,
    /// What was read leniently, in the order met.
    pub warnings: Vec<String>,
    /// Kept comments met since the last token taken, decoded, with their offsets.
    pending: Vec<(String, usize)>,
    /// Kept comments that nobody took before the next token.
    pub dropped_comments: Tally,
    /// Texts [`Parser::decode`] read as Latin-1.
    pub latin1: Tally,
}

impl<'a> Parser<'a> {
    /// A parser for `syntax` over `src`; errors name `format`, and `limits` bound counts and
    /// allocations.
    pub fn new(src: &'a [u8], syntax: &'a Syntax, format: &'static str, limits: &Limits) -> Self {
        let start = bom_len(src);
        Parser {
            lex: Lexer::new(src, syntax),
            peeked: None,
            consumed: 0,
            format,
            limits: *limits,
            budget: Budget::new(limits),
            mark: Cell::new(LineMark {
                offset: start,
                line: 1,
                line_start: start,
            }),
            warnings: Vec::new(),
            pending: Vec::new(),
            dropped_comments: Tally::default(),
            latin1: Tally::default(),
        }
    }

    /// The input.
    pub fn src(&self) -> &'a [u8] {
        self.lex.src()
    }

    /// The format name errors carry.
    pub fn format(&self) -> &'static str {
        self.format
    }

    /// The limits.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// A token's bytes, borrowed from the input.
    pub fn text(&self, tok: &Token) -> &'a [u8] {
        tok.bytes(self.lex.src())
    }

    /// A token's text if it is UTF-8 (numbers and keywords always are), else `""`.
    pub fn str(&self, tok: &Token) -> &'a str {
        std::str::from_utf8(self.text(tok)).unwrap_or_default()
    }

    /// The 1-based line and column (in bytes) of byte `offset`.
    ///
    /// Scans the input up to `offset`, from the last offset asked for when that is not
    /// further on: call it only to report something.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let src = self.lex.src();
        let offset = offset.min(src.len());
        let mut m = self.mark.get();
        if offset < m.offset {
            let start = bom_len(src);
            m = LineMark {
                offset: start.min(offset),
                line: 1,
                line_start: start,
            };
        }
        for (i, &b) in src[m.offset..offset].iter().enumerate() {
            if b == b'\n' {
                m.line = m.line.saturating_add(1);
                m.line_start = m.offset + i + 1;
            }
        }
        m.offset = offset;
        self.mark.set(m);
        let column = offset.saturating_sub(m.line_start) + 1;
        (m.line, u32::try_from(column).unwrap_or(u32::MAX))
    }

    /// The [`Location::LineCol`] of byte `offset`.
    pub fn location(&self, offset: usize) -> Location {
        let (line, column) = self.line_col(offset);
        Location::LineCol { line, column }
    }

    /// `line:column` of byte `offset`, for warnings (`at line 3:7`).
    pub fn at(&self, offset: usize) -> impl fmt::Display {
        let (line, column) = self.line_col(offset);
        LineCol(line, column)
    }

    /// An error at `tok` (at its [`Token::offset`]).
    pub fn error(&self, tok: &Token, kind: ErrorKind, message: impl Into<String>) -> Error {
        self.error_at(tok.offset(), kind, message)
    }

    /// An error at byte `offset`.
    pub fn error_at(&self, offset: usize, kind: ErrorKind, message: impl Into<String>) -> Error {
        Error::new(self.format, kind, message, self.location(offset))
    }

    /// The error for a tokenizing error.
    pub fn lex_error(&self, e: LexError) -> Error {
        let (kind, message) = e.describe(self.lex.src());
        self.error_at(e.start, kind, message)
    }

    /// The next token, without taking it. Kept comments before it are collected (decoded and
    /// charged) for [`Parser::take_comments`].
    pub fn peek(&mut self) -> Result<Token> {
        if let Some(t) = self.peeked {
            return Ok(t);
        }
        loop {
            let t = self.lex.next_token().map_err(|e| self.lex_error(e))?;
            if t.kind == Kind::Comment {
                let text = self.decode(&t);
                self.charge(&t, (std::mem::size_of::<String>() + text.len()) as u64)?;
                self.pending.push((text, t.offset()));
                continue;
            }
            self.peeked = Some(t);
            return Ok(t);
        }
    }

    /// The kind of the next token.
    pub fn peek_kind(&mut self) -> Result<Kind> {
        Ok(self.peek()?.kind)
    }

    /// Takes the next token; kept comments before it that nobody took are dropped (and
    /// counted in [`Parser::dropped_comments`]).
    pub fn next_token(&mut self) -> Result<Token> {
        let t = self.peek()?;
        if let Some(&(_, at)) = self.pending.first() {
            self.dropped_comments.count += self.pending.len();
            self.dropped_comments.first.get_or_insert(at);
            self.pending.clear();
        }
        self.peeked = None;
        self.consumed = t.end;
        Ok(t)
    }

    /// The kept comments before the next token, taken.
    pub fn take_comments(&mut self) -> Result<Vec<String>> {
        self.peek()?;
        Ok(std::mem::take(&mut self.pending)
            .into_iter()
            .map(|(text, _)| text)
            .collect())
    }

    /// The end of the last token taken (0 before any).
    pub fn consumed(&self) -> usize {
        self.consumed
    }

    /// Whether a line ends between byte offsets `from` and `to`.
    pub fn line_break_between(&self, from: usize, to: usize) -> bool {
        self.lex
            .src()
            .get(from..to)
            .is_some_and(|s| s.contains(&b'\n'))
    }

    /// Whether `tok` is the word or name `word`.
    pub fn is_word(&self, tok: &Token, word: &str) -> bool {
        matches!(tok.kind, Kind::Word | Kind::Name) && self.text(tok) == word.as_bytes()
    }

    /// Whether the next token is the word or name `word`.
    pub fn at_word(&mut self, word: &str) -> Result<bool> {
        let t = self.peek()?;
        Ok(self.is_word(&t, word))
    }

    /// How messages name `tok`: `end of file`, `'{'`, `"text"`, `<text>`, or its text.
    pub fn describe(&self, tok: &Token) -> String {
        match tok.kind {
            Kind::Eof => "end of file".to_string(),
            Kind::Punct(c) => format!("'{}'", c as char),
            Kind::Quoted(open) => {
                let close = self
                    .lex
                    .syntax
                    .quotes
                    .iter()
                    .find(|q| q.open == open)
                    .map_or(open, |q| q.close);
                format!(
                    "{}{}{}",
                    open as char,
                    shorten(self.text(tok)),
                    close as char
                )
            }
            _ => shorten(self.text(tok)),
        }
    }

    /// "expected X, found Y": truncation at the end of the file, else a bad value.
    pub fn unexpected(&self, tok: &Token, expected: &str) -> Error {
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

    /// Takes the next token if it is of `kind`, else fails with "expected `expected`, found
    /// ...".
    pub fn expect(&mut self, kind: Kind, expected: fmt::Arguments<'_>) -> Result<Token> {
        let t = self.next_token()?;
        if t.kind == kind {
            return Ok(t);
        }
        Err(self.unexpected(&t, &expected.to_string()))
    }

    /// Takes the symbol `c`, or fails with "expected 'c', found ...".
    pub fn punct(&mut self, c: u8) -> Result<Token> {
        if let Some(mut cursor) = self.cursor() {
            if cursor.punct(c) {
                let token = cursor.last_token(Kind::Punct(c));
                self.advance(cursor.offset());
                return Ok(token);
            }
        }
        self.expect(Kind::Punct(c), format_args!("'{}'", c as char))
    }

    /// A [`Cursor`] at the lexer's position, when the next tokens can be read in place: no
    /// token is peeked, no kept comment is pending and the words are
    /// [`Words::NamesAndNumbers`]. `None` when the ordinary path must read them.
    #[inline]
    pub fn cursor(&self) -> Option<Cursor<'_>> {
        if self.peeked.is_some()
            || !self.pending.is_empty()
            || self.lex.syntax.words != Words::NamesAndNumbers
        {
            return None;
        }
        Some(Cursor {
            src: self.lex.src,
            pos: self.lex.pos,
            class: &self.lex.class,
            last: self.lex.pos,
            end: self.consumed,
        })
    }

    /// Takes everything a [`Cursor`] (from [`Parser::cursor`]) read: the lexer goes on at
    /// its [`Cursor::offset`] `to`.
    #[inline]
    pub fn advance(&mut self, to: usize) {
        self.lex.pos = to;
        self.consumed = to;
    }

    /// Takes the next token if it is a [`Words::NamesAndNumbers`] number that can be read in
    /// place ([`Cursor::number`]), with its value's parts; `None` (nothing taken) otherwise,
    /// and then the ordinary path ([`Parser::next_token`]) reads it, with its error if it is
    /// malformed.
    #[inline]
    pub fn take_number(&mut self) -> Option<(Token, Number)> {
        let mut c = self.cursor()?;
        let number = c.number()?;
        let token = c.last_token(number.kind());
        self.advance(c.offset());
        Some((token, number))
    }

    /// Takes the next token if it is the name `word` and can be read in place
    /// ([`Cursor::name`]); `false`, nothing taken, otherwise (it may still be `word`: read it
    /// the ordinary way).
    #[inline]
    pub fn take_name(&mut self, word: &[u8]) -> bool {
        let Some(mut c) = self.cursor() else {
            return false;
        };
        let found = c.name(word);
        if found {
            self.advance(c.offset());
        }
        found
    }

    /// Records, from here on, the offset of the `//` of every line comment whose text starts
    /// (after blanks) with `prefix`: how a format reads meaning from some comments (MD5's
    /// `// meshes: NAME`) while the lexer skips them ([`Parser::line_comments`]).
    pub fn record_line_comments(&mut self, prefix: &'static [u8]) {
        self.lex
            .recorded
            .get_or_insert_with(|| (prefix, Vec::new()));
    }

    /// The offsets recorded since [`Parser::record_line_comments`], in input order.
    pub fn line_comments(&self) -> &[usize] {
        self.lex.recorded.as_ref().map_or(&[], |(_, v)| v)
    }

    /// Fails with "expected end of file, found ..." unless the input ends here.
    pub fn expect_end(&mut self) -> Result<()> {
        let t = self.peek()?;
        if t.kind != Kind::Eof {
            return Err(self.unexpected(&t, "end of file"));
        }
        Ok(())
    }

    /// Adds a warning.
    pub fn warn(&mut self, warning: String) {
        self.warnings.push(warning);
    }

    /// Charges `bytes` to the allocation budget; fails at `tok` when over the limit.
    pub fn charge(&mut self, tok: &Token, bytes: u64) -> Result<()> {
        match self.budget.charge(bytes) {
            Ok(()) => Ok(()),
            Err(limit) => Err(self.error(
                tok,
                ErrorKind::LimitExceeded,
                format!("decoded data would exceed the allocation limit of {limit} bytes"),
            )),
        }
    }

    /// A count `n` (read from `tok`) of entries about to be allocated: within
    /// [`Limits::max_count`], at most as many as the bytes left after the last token taken
    /// can hold when each takes at least `min_bytes`, and charged `elem_bytes` an entry.
    /// Messages start with `shown`, the count as the format names it (`numverts = 4`).
    pub fn count(
        &mut self,
        tok: &Token,
        n: u64,
        min_bytes: u64,
        elem_bytes: u64,
        shown: fmt::Arguments<'_>,
    ) -> Result<usize> {
        self.limit_count(tok, n, shown)?;
        let left = (self.lex.src().len() - self.consumed) as u64;
        let need = n.saturating_mul(min_bytes);
        if need > left {
            return Err(self.error(
                tok,
                ErrorKind::BadCount,
                format!("{shown} needs at least {need} bytes but only {left} are left"),
            ));
        }
        self.charge(tok, n.saturating_mul(elem_bytes))?;
        Ok(n as usize)
    }

    /// Fails with "`shown` exceeds the limit of ..." when `n` is over
    /// [`Limits::max_count`].
    pub fn limit_count(&self, tok: &Token, n: u64, shown: fmt::Arguments<'_>) -> Result<()> {
        if n > u64::from(self.limits.max_count) {
            return Err(self.error(
                tok,
                ErrorKind::LimitExceeded,
                format!("{shown} exceeds the limit of {}", self.limits.max_count),
            ));
        }
        Ok(())
    }

    /// A token's text as a string: UTF-8, or Latin-1 (counted in [`Parser::latin1`]).
    pub fn decode(&mut self, tok: &Token) -> String {
        let (s, latin1) = decode(self.text(tok));
        if latin1 {
            self.latin1.note(tok.offset());
        }
        s
    }
}

/// `line:column`.
struct LineCol(u32, u32);

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.0, self.1)
    }
}
