//! MD5's syntax on [`text`]: the tokenizer settings Doom 3's loaders use, the keywords,
//! the fewest bytes each kind of entry takes, and [`Parser`]: the shared text parser with the
//! MD5 readers on top (keywords, integers, floats, vectors, strings, counts, indices, entry
//! numbers, the version and command lines).

use std::fmt;
use std::ops::{Deref, DerefMut};

use super::Parsed;
use crate::error::{ErrorKind, Result};
use crate::formats::md5::raw::VERSION;
use crate::io::text::{self, shorten, Kind, Syntax, Token, Words};
use crate::limits::Limits;

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

// The fewest bytes one entry of each block can take in the text (lower bounds, so that a
// count can be checked against the bytes left before anything is allocated for it).
/// `""0(0 0 0)(0 0 0)`
pub(super) const MIN_JOINT: u64 = 16;
/// `vert 0(0 0)0 0`
pub(super) const MIN_VERT: u64 = 12;
/// `tri 0 0 0 0`
pub(super) const MIN_TRI: u64 = 10;
/// `weight 0 0 0(0 0 0)`
pub(super) const MIN_WEIGHT: u64 = 16;
/// `""0 0 0`
pub(super) const MIN_HIERARCHY: u64 = 6;
/// `(0 0 0)(0 0 0)`, also a camera line (which adds the fov).
pub(super) const MIN_VEC_PAIR: u64 = 12;
/// `frame 0{}` without its values; each value takes at least one more byte.
pub(super) const MIN_FRAME: u64 = 8;

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

pub(super) const LPAREN: Kind = Kind::Punct(b'(');
pub(super) const RBRACE: Kind = Kind::Punct(b'}');
pub(super) const STR: Kind = Kind::Quoted(b'"');

/// The shared text parser, with what only MD5 needs on top.
pub(super) struct Parser<'a>(text::Parser<'a>);

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
    pub(super) fn new(src: &'a [u8], format: &'static str, limits: &Limits) -> Self {
        Parser(text::Parser::new(src, &SYNTAX, format, limits))
    }

    pub(super) fn keyword(&mut self, keyword: &str) -> Result<Token> {
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

    pub(super) fn int(&mut self, what: impl fmt::Display) -> Result<(i64, Token)> {
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
    pub(super) fn float(&mut self, what: &str) -> Result<f32> {
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
    pub(super) fn float_value(&self, t: &Token) -> Result<f32> {
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

    pub(super) fn vector<const N: usize>(&mut self, what: &str) -> Result<[f32; N]> {
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

    pub(super) fn string(&mut self, what: &str) -> Result<String> {
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
    pub(super) fn plain_count(&self, name: &str, tok: &Token, value: i64) -> Result<u32> {
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
    pub(super) fn count(
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
    pub(super) fn version(&mut self) -> Result<Option<i32>> {
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
    pub(super) fn commandline(&mut self) -> Result<String> {
        if !self.at_word("commandline")? {
            self.warn("no commandline line".to_string());
            return Ok(String::new());
        }
        self.next_token()?;
        self.string("commandline")
    }

    /// `keyword <int>`.
    pub(super) fn keyword_int(&mut self, keyword: &str) -> Result<(i64, Token)> {
        self.keyword(keyword)?;
        self.int(keyword)
    }

    pub(super) fn frame_rate(&mut self) -> Result<f32> {
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
    pub(super) fn parent(&mut self, own: usize) -> Result<i32> {
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
    pub(super) fn index(&mut self, what: impl fmt::Display + Copy) -> Result<(u32, Token)> {
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
    pub(super) fn numbered(&mut self, keyword: &str, expected: usize) -> Result<()> {
        self.keyword(keyword)?;
        self.entry_index(keyword, expected)
    }

    /// The start of entry `expected` of a block, `<keyword> <expected>`, or the error
    /// `too_few()` names when the block ends first (at the word `end`, or at `}` if `None`).
    pub(super) fn entry(
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

    /// `the <block> block has more <entries> than <count>`, if the next token starts an entry.
    pub(super) fn too_many(
        &mut self,
        starts_entry: bool,
        message: impl FnOnce() -> String,
    ) -> Result<()> {
        if starts_entry {
            let t = self.peek()?;
            return Err(self.error(&t, ErrorKind::BadCount, message()));
        }
        Ok(())
    }

    /// `numX = n but the block ends after i entries`, if the next token ends the block.
    pub(super) fn too_few(
        &mut self,
        ends_block: bool,
        message: impl FnOnce() -> String,
    ) -> Result<()> {
        self.too_many(ends_block, message)
    }

    pub(super) fn finish<T>(self, file: T) -> Parsed<T> {
        Parsed {
            file,
            warnings: self.0.warnings,
            mesh_names: Vec::new(),
        }
    }
}

/// `1 line`, `2 lines`.
pub(super) fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// `joint 2 "arm"`.
pub(super) fn joint_context(i: usize, name: &str) -> String {
    format!("joint {i} \"{}\"", shorten(name.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::text::tests::{check, tokens};
    use crate::io::text::LexErrorKind;

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
