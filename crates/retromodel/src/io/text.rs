//! Text formats: one configurable tokenizer ([`Lexer`]) and the parser helpers every text
//! format shares ([`Parser`]).
//!
//! # Design
//!
//! The game text formats (MD5, 3D GameStudio WMP, and the Quake 3 `.skin`, `animation.cfg` and
//! `.shader`, Doom 3 `.mtr` and Cube 2 `.cfg` files to come) are all whitespace-separated
//! tokens with `//` comments, a few single-character symbols and quoted strings. They differ
//! in details, which a [`Syntax`] names:
//!
//! - which comments there are (`//` to the end of the line, `/* ... */`) and whether they are
//!   skipped or handed to the parser as [`Kind::Comment`] tokens (WMP keeps some);
//! - which bytes open a quoted token and which byte closes it (`"..."`, WMP's `<file name>`);
//!   a quoted token ends on its line, and a backslash escapes nothing (Doom 3's
//!   `LEXFL_NOSTRINGESCAPECHARS`: `"models\mapobjects\x"` reads as written);
//! - which bytes are symbols of their own ([`Kind::Punct`]);
//! - what a word is ([`Words`]): any run of bytes up to whitespace or a symbol (Quake 3's
//!   `COM_Parse`, WMP), or Doom 3's `idLexer` names and numbers, which classifies numbers as
//!   integers or floats and refuses any other byte.
//!
//! Some rules are the same for all: whitespace is space, tab, CR, LF, vertical tab and form
//! feed; a line ends at LF (LF and CRLF files count the same lines, a lone CR is whitespace); a
//! UTF-8 byte order mark at the very start is skipped; control bytes other than whitespace,
//! and DEL, are errors outside comments and quoted tokens; a comment starts only where a token
//! could (`a//b` is one free word).
//!
//! Tokens are a [`Kind`] and a byte span into the input: no line, no column, no allocation. A
//! parser borrows token text from the input (`&[u8]`) and allocates only what it keeps. Line
//! and column are computed from a byte offset only when an error or a warning is actually
//! produced ([`Parser::line_col`], which scans the input up to the offset, resuming from the
//! last place asked for when that is earlier, so that warnings met in file order cost one pass
//! in all). Lines and columns are 1-based; a column counts bytes from the start of its line (a
//! tab is one column, a multi-byte UTF-8 character several), and on the first line from after
//! the byte order mark.
//!
//! [`Parser`] wraps a [`Lexer`] with what the format parsers share: one token of look-ahead,
//! errors located at a token (`md5mesh: mesh 0: expected '{', found '(' at line 4:9`),
//! `expected X, found Y` messages, counts checked against [`Limits::max_count`] and against
//! the bytes left in the input, a [`Budget`] charged before each allocation, Latin-1 fallback
//! for text that is not UTF-8, and the comments a format keeps.
//!
//! # Example
//!
//! A Quake 3 `animation.cfg` line reader: `//` comments skipped, no quoted strings, no
//! symbols, free words.
//!
//! ```
//! use retromodel::io::text::{Kind, Parser, Syntax, Words};
//! use retromodel::Limits;
//!
//! static CFG: Syntax = Syntax {
//!     line_comments: true,
//!     block_comments: false,
//!     keep_comments: false,
//!     quotes: &[],
//!     punct: b"",
//!     words: Words::Free,
//! };
//!
//! let src = b"// animation config\nsex m\n0 30 0 20 // BOTH_DEATH1\n";
//! let mut p = Parser::new(src, &CFG, "animation.cfg", &Limits::default());
//! assert!(p.at_word("sex")?);
//! p.next_token()?;
//! let sex = p.next_token()?;
//! assert_eq!(p.text(&sex), b"m");
//! let first = p.next_token()?;
//! assert_eq!(p.line_col(first.start), (3, 1));
//! assert!(retromodel::io::text::is_number(p.text(&first)));
//! while p.peek_kind()? != Kind::Eof {
//!     p.next_token()?;
//! }
//! let eof = p.peek()?;
//! let e = p.unexpected(&eof, "a frame number");
//! assert_eq!(
//!     e.to_string(),
//!     "animation.cfg: expected a frame number, found end of file at line 4:1"
//! );
//! # Ok::<(), retromodel::Error>(())
//! ```

use std::cell::Cell;
use std::fmt;

use crate::error::{Error, ErrorKind, Location, Result};
use crate::limits::{Budget, Limits};

/// How a text format is tokenized (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Syntax {
    /// `//` starts a comment that runs to the end of the line.
    pub line_comments: bool,
    /// `/*` starts a comment that runs to the next `*/`, across lines.
    pub block_comments: bool,
    /// Comments are [`Kind::Comment`] tokens (their text without the markers, a line
    /// comment's trailing whitespace left out) instead of being skipped.
    pub keep_comments: bool,
    /// The quoted tokens: each opens with its `open` byte where a token starts and runs to
    /// the next `close` byte on the same line.
    pub quotes: &'static [Quote],
    /// Bytes that are tokens of their own ([`Kind::Punct`]).
    pub punct: &'static [u8],
    /// What the other tokens are.
    pub words: Words,
}

/// A kind of quoted token: `"..."`, `<...>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quote {
    /// The opening byte.
    pub open: u8,
    /// The closing byte.
    pub close: u8,
    /// What it is called in error messages (`string`, `file name`).
    pub name: &'static str,
}

/// The ordinary `"..."` string.
pub const STRING: Quote = Quote {
    open: b'"',
    close: b'"',
    name: "string",
};

/// What is neither whitespace, a comment, a symbol nor a quoted token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Words {
    /// A [`Kind::Word`] is any run of bytes up to whitespace or a symbol (bytes from 0x80 up
    /// included, for Latin-1 names); control bytes in it are errors.
    Free,
    /// Doom 3's `idLexer` rules: a [`Kind::Name`] is `[A-Za-z_][A-Za-z0-9_]*`; a number is a
    /// run of `[0-9A-Za-z_.#+-]` that starts with a digit, a sign or a dot (so `1.#IND00` or
    /// `0.5f` are one malformed token, not two) and must then be a [`Kind::Int`] or a
    /// [`Kind::Float`] (see [`number_kind`]). Any other byte is an error.
    NamesAndNumbers,
}

/// What a [`Token`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A symbol of [`Syntax::punct`], the byte itself.
    Punct(u8),
    /// A [`Words::Free`] word.
    Word,
    /// A [`Words::NamesAndNumbers`] name (identifier, keyword).
    Name,
    /// A [`Words::NamesAndNumbers`] integer, optionally signed.
    Int,
    /// A [`Words::NamesAndNumbers`] number with a fraction or an exponent.
    Float,
    /// A quoted token, with its opening byte; the span is the text between the delimiters.
    Quoted(u8),
    /// A kept comment; the span is its text without `//`, `/*` or `*/`.
    Comment,
    /// The end of the data (an empty span at the end).
    Eof,
}

/// One token: its kind and its byte span in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    /// The kind.
    pub kind: Kind,
    /// Byte offset of the span's start (for quoted tokens and comments, after the opening
    /// delimiter).
    pub start: usize,
    /// Byte offset of the span's end, exclusive.
    pub end: usize,
}

impl Token {
    /// The span's length in bytes.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// Whether the span is empty.
    pub fn is_empty(&self) -> bool {
        self.end == self.start
    }

    /// Where the token is reported: its first byte, the opening delimiter of a quoted token,
    /// the `//` or `/*` of a comment.
    pub fn offset(&self) -> usize {
        let delimiter = match self.kind {
            Kind::Quoted(_) => 1,
            Kind::Comment => 2,
            _ => 0,
        };
        self.start.saturating_sub(delimiter)
    }

    /// The token's bytes (without delimiters) in `src`, the input it was read from.
    pub fn bytes<'a>(&self, src: &'a [u8]) -> &'a [u8] {
        src.get(self.start..self.end).unwrap_or_default()
    }
}

/// What went wrong while tokenizing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LexErrorKind {
    /// A byte that may not stand where it is.
    UnexpectedByte(u8),
    /// A quoted token (of this [`Quote`]) with no closing byte before the end of the data.
    UnterminatedQuote(Quote),
    /// A quoted token (of this [`Quote`]) with a line feed before its closing byte.
    LineBreakInQuote(Quote),
    /// A `/*` comment with no `*/`.
    UnterminatedComment,
    /// A [`Words::NamesAndNumbers`] run of number bytes that is neither an integer nor a
    /// float.
    MalformedNumber,
}

/// A tokenizing error: what, and the span concerned (its start is where it is reported).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LexError {
    /// What went wrong.
    pub kind: LexErrorKind,
    /// Start of the offending span.
    pub start: usize,
    /// End of the offending span, exclusive.
    pub end: usize,
}

impl LexError {
    /// The error kind and message for this tokenizing error in `src`.
    pub fn describe(&self, src: &[u8]) -> (ErrorKind, String) {
        match self.kind {
            LexErrorKind::UnexpectedByte(b) if b.is_ascii_graphic() => (
                ErrorKind::InvalidValue,
                format!("unexpected character '{}'", b as char),
            ),
            LexErrorKind::UnexpectedByte(b) => (
                ErrorKind::InvalidValue,
                format!("unexpected byte 0x{b:02x}"),
            ),
            LexErrorKind::UnterminatedQuote(q) => (
                ErrorKind::Truncated,
                format!(
                    "{} has no closing '{}' before the end of the file",
                    q.name, q.close as char
                ),
            ),
            LexErrorKind::LineBreakInQuote(q) => (
                ErrorKind::InvalidValue,
                format!(
                    "{} has no closing '{}' before the end of its line",
                    q.name, q.close as char
                ),
            ),
            LexErrorKind::UnterminatedComment => (
                ErrorKind::Truncated,
                "comment '/*' has no closing '*/'".to_string(),
            ),
            LexErrorKind::MalformedNumber => (
                ErrorKind::InvalidValue,
                format!(
                    "malformed number {}",
                    shorten(src.get(self.start..self.end).unwrap_or_default())
                ),
            ),
        }
    }
}

/// Whitespace bytes: space, tab, CR, LF, vertical tab, form feed.
pub fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// Control bytes that may not appear outside comments and quoted tokens (all below 0x20 but
/// whitespace, and DEL).
pub fn is_forbidden(b: u8) -> bool {
    (b < 0x20 && !is_space(b)) || b == 0x7f
}

/// [`Kind::Int`] for `[+-]?[0-9]+`, [`Kind::Float`] for
/// `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?` with a fraction or an exponent
/// (`-0.000000`, `1e-05`, `.5`, `3.`), `None` for anything else (`-`, `1e`, `0f`, `inf`).
pub fn number_kind(s: &[u8]) -> Option<Kind> {
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let int_digits = digits(&s[i..]);
    i += int_digits;
    let mut float = false;
    let mut frac_digits = 0;
    if s.get(i) == Some(&b'.') {
        float = true;
        i += 1;
        frac_digits = digits(&s[i..]);
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        float = true;
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = digits(&s[i..]);
        if exp_digits == 0 {
            return None;
        }
        i += exp_digits;
    }
    if i != s.len() {
        return None;
    }
    Some(if float { Kind::Float } else { Kind::Int })
}

/// Whether `s` is a decimal number (see [`number_kind`]).
pub fn is_number(s: &[u8]) -> bool {
    number_kind(s).is_some()
}

/// Up to 40 characters of `bytes`, lossily decoded, with `...` when cut: how messages quote
/// a token.
pub fn shorten(bytes: &[u8]) -> String {
    let s = String::from_utf8_lossy(bytes);
    let mut chars = s.chars();
    let head: String = chars.by_ref().take(40).collect();
    if chars.next().is_some() {
        format!("{head}...")
    } else {
        head
    }
}

/// `bytes` as a string: UTF-8 if they are (`false`), else read as Latin-1 (`true`), as the
/// old exporters that wrote such bytes meant them.
pub fn decode(bytes: &[u8]) -> (String, bool) {
    match std::str::from_utf8(bytes) {
        Ok(s) => (s.to_string(), false),
        Err(_) => (bytes.iter().map(|&b| char::from(b)).collect(), true),
    }
}

/// How a byte can start a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Space,
    Punct,
    /// Opens the quote at this index of [`Syntax::quotes`].
    Quote(u8),
    /// A [`Words::Free`] word byte.
    Word,
    /// Starts a [`Words::NamesAndNumbers`] name.
    Name,
    /// Starts a [`Words::NamesAndNumbers`] number.
    Number,
    Forbidden,
}

const BOM: &[u8] = b"\xef\xbb\xbf";

/// The length of the byte order mark at the start of `src` (3 or 0).
fn bom_len(src: &[u8]) -> usize {
    if src.starts_with(BOM) {
        BOM.len()
    } else {
        0
    }
}

/// The tokenizer: call [`Lexer::next_token`] until it returns [`Kind::Eof`] (it keeps
/// returning `Eof` after that). It never panics and allocates nothing (but the offsets of the
/// comments [`Parser::record_line_comments`] asks for).
#[derive(Debug, Clone)]
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    syntax: &'a Syntax,
    class: [Class; 256],
    /// With [`Parser::record_line_comments`]: the text a `//` comment must start with (after
    /// blanks) to be recorded, and the offsets of the `//` of those recorded.
    recorded: Option<(&'static [u8], Vec<usize>)>,
}

impl<'a> Lexer<'a> {
    /// A lexer for `syntax` at the start of `src` (after a UTF-8 byte order mark, if any).
    pub fn new(src: &'a [u8], syntax: &'a Syntax) -> Self {
        // Each rule over the one before: words, then quotes, symbols and whitespace.
        let mut class = [Class::Forbidden; 256];
        for (b, c) in class.iter_mut().enumerate() {
            let b = b as u8;
            *c = match syntax.words {
                Words::Free if is_forbidden(b) => Class::Forbidden,
                Words::Free => Class::Word,
                Words::NamesAndNumbers => match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'_' => Class::Name,
                    b'0'..=b'9' | b'-' | b'+' | b'.' => Class::Number,
                    _ => Class::Forbidden,
                },
            };
        }
        for (i, q) in syntax.quotes.iter().enumerate().rev() {
            class[usize::from(q.open)] = Class::Quote(i as u8);
        }
        for &b in syntax.punct {
            class[usize::from(b)] = Class::Punct;
        }
        for b in [b' ', b'\t', b'\r', b'\n', 0x0b, 0x0c] {
            class[usize::from(b)] = Class::Space;
        }
        Lexer {
            src,
            pos: bom_len(src),
            syntax,
            class,
            recorded: None,
        }
    }

    /// The input.
    pub fn src(&self) -> &'a [u8] {
        self.src
    }

    /// The next token, or the first tokenizing error.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        let src = self.src;
        loop {
            let mut pos = self.pos;
            while pos < src.len() && matches!(self.class[usize::from(src[pos])], Class::Space) {
                pos += 1;
            }
            self.pos = pos;
            let Some(&c) = src.get(pos) else {
                return Ok(Token {
                    kind: Kind::Eof,
                    start: pos,
                    end: pos,
                });
            };
            if c == b'/' {
                if let Some(comment) = self.comment(pos)? {
                    if self.syntax.keep_comments {
                        return Ok(comment);
                    }
                    continue;
                }
            }
            return self.token_at(pos, c);
        }
    }

    /// The comment starting at `pos`, if one does; `self.pos` is moved past it.
    fn comment(&mut self, pos: usize) -> Result<Option<Token>, LexError> {
        let src = self.src;
        let comment = |start, end| Token {
            kind: Kind::Comment,
            start,
            end,
        };
        match src.get(pos + 1) {
            Some(b'/') if self.syntax.line_comments => {
                let rest = &src[pos..];
                let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                self.pos = pos + len;
                let text = &rest[2..len];
                if let Some((prefix, found)) = &mut self.recorded {
                    if text.trim_ascii_start().starts_with(prefix) {
                        found.push(pos);
                    }
                }
                let trimmed = text.len() - text.iter().rev().take_while(|&&b| is_space(b)).count();
                Ok(Some(comment(pos + 2, pos + 2 + trimmed)))
            }
            Some(b'*') if self.syntax.block_comments => {
                let body = pos + 2;
                match src[body..].windows(2).position(|w| w == b"*/") {
                    Some(n) => {
                        self.pos = body + n + 2;
                        Ok(Some(comment(body, body + n)))
                    }
                    None => Err(LexError {
                        kind: LexErrorKind::UnterminatedComment,
                        start: pos,
                        end: body,
                    }),
                }
            }
            _ => Ok(None),
        }
    }

    /// The token starting with byte `c` at `start`.
    fn token_at(&mut self, start: usize, c: u8) -> Result<Token, LexError> {
        let src = self.src;
        let error = |kind, start, end| LexError { kind, start, end };
        // The kind, the span, and where the next token may start.
        let (kind, end, next) = match self.class[usize::from(c)] {
            Class::Punct => (Kind::Punct(c), start + 1, start + 1),
            Class::Quote(i) => {
                let q = self.syntax.quotes[usize::from(i)];
                let body = start + 1;
                let rest = &src[body..];
                match rest.iter().position(|&b| b == q.close || b == b'\n') {
                    Some(n) if rest[n] == q.close => {
                        self.pos = body + n + 1;
                        return Ok(Token {
                            kind: Kind::Quoted(c),
                            start: body,
                            end: body + n,
                        });
                    }
                    Some(n) => {
                        return Err(error(LexErrorKind::LineBreakInQuote(q), start, body + n))
                    }
                    None => {
                        return Err(error(LexErrorKind::UnterminatedQuote(q), start, src.len()))
                    }
                }
            }
            Class::Word => {
                let mut end = start;
                while let Some(&b) = src.get(end) {
                    match self.class[usize::from(b)] {
                        Class::Space | Class::Punct => break,
                        Class::Forbidden => {
                            return Err(error(LexErrorKind::UnexpectedByte(b), end, end + 1))
                        }
                        _ => end += 1,
                    }
                }
                (Kind::Word, end, end)
            }
            Class::Name => {
                let n = src[start..]
                    .iter()
                    .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
                    .unwrap_or(src.len() - start);
                (Kind::Name, start + n, start + n)
            }
            Class::Number => {
                let n = src[start..]
                    .iter()
                    .position(|&b| {
                        !(b.is_ascii_alphanumeric()
                            || matches!(b, b'_' | b'.' | b'#' | b'+' | b'-'))
                    })
                    .unwrap_or(src.len() - start);
                let end = start + n;
                match number_kind(&src[start..end]) {
                    Some(kind) => (kind, end, end),
                    None => return Err(error(LexErrorKind::MalformedNumber, start, end)),
                }
            }
            Class::Space | Class::Forbidden => {
                return Err(error(LexErrorKind::UnexpectedByte(c), start, start + 1))
            }
        };
        self.pos = next;
        Ok(Token { kind, start, end })
    }
}

/// A decimal number read by [`Parser::take_number`]: `(-1)^negative × mantissa × 10^exp10`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Number {
    /// A leading `-`.
    pub negative: bool,
    /// The digits (at most 19, leading zeros included) as an integer.
    pub mantissa: u64,
    /// The power of ten the digits are scaled by (the exponent less the fraction digits).
    pub exp10: i32,
    /// Whether it is a [`Kind::Float`] (it has a fraction or an exponent).
    pub float: bool,
}

/// Powers of ten that are exact in an `f64`.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `1 / 10^n`, rounded to the nearest `f64`.
const RECIP10: [f64; 23] = [
    1e0, 1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12, 1e-13, 1e-14,
    1e-15, 1e-16, 1e-17, 1e-18, 1e-19, 1e-20, 1e-21, 1e-22,
];

impl Number {
    /// [`Kind::Float`] or [`Kind::Int`].
    pub fn kind(&self) -> Kind {
        if self.float {
            Kind::Float
        } else {
            Kind::Int
        }
    }

    /// The integer, for a [`Kind::Int`] within `i64` (`None` otherwise).
    pub fn to_i64(&self) -> Option<i64> {
        if self.float || self.exp10 != 0 {
            return None;
        }
        let v = i64::try_from(self.mantissa).ok()?;
        Some(if self.negative { -v } else { v })
    }

    /// The nearest `f32` (ties to even, the value `str::parse::<f32>` gives), when it can be
    /// computed exactly in a few operations; `None` when the text must be parsed instead.
    ///
    /// Clinger's fast path in `f64`: digits below 2^53 and a power of ten up to 10^22 are
    /// exact, so one multiplication or division rounds correctly to `f64`. Rounding that on
    /// to `f32` is the correct `f32` too, except when the `f64` falls exactly halfway between
    /// two `f32` values (then the first rounding may have made the tie), which is declined,
    /// as are results outside the normal `f32` range.
    #[inline]
    pub fn to_f32(&self) -> Option<f32> {
        let m = self.mantissa;
        let value = if m == 0 {
            0.0
        } else {
            if m > 1 << 53 {
                return None;
            }
            let e = usize::try_from(self.exp10.unsigned_abs()).ok()?;
            let pow = *POW10.get(e)?;
            // Below 2^53, so exact as an i64's conversion (one instruction; a u64's is several).
            let m = m as i64 as f64;
            // The 29 bits an f64's fraction has beyond an f32's, against exactly half of the
            // last kept one: how far the f64 lies from a point where f32 rounding turns.
            let from_tie = |r: f64| (r.to_bits() & 0x1fff_ffff).abs_diff(0x1000_0000);
            let r = if self.exp10 < 0 {
                // A multiplication by the rounded reciprocal is within a few f64 units of
                // the quotient; unless the f32 rounding turns that close, it rounds the same
                // way (a division costs a third of the parse). Else divide, exactly.
                let r = m * RECIP10[e];
                if from_tie(r) > 16 {
                    r
                } else {
                    m / pow
                }
            } else {
                m * pow
            };
            if !(f64::from(f32::MIN_POSITIVE)..=f64::from(f32::MAX)).contains(&r) {
                return None;
            }
            if from_tie(r) == 0 {
                return None;
            }
            r as f32
        };
        Some(if self.negative { -value } else { value })
    }
}

/// The value of eight ASCII digits in a little-endian word (the first digit in the low
/// byte), or `None` if any byte is not a digit: checked and combined at once (SWAR, as in
/// simdjson's `parse_eight_digits_unrolled`).
#[inline(always)]
fn eight_digits(w: u64) -> Option<u64> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    if (w & HIGH) != ZEROS || (w.wrapping_add(0x0606_0606_0606_0606) & HIGH) != ZEROS {
        return None;
    }
    // Pairs of digits in bytes 0, 2, 4, 6, then the four pairs weighed at once.
    let mut v = w - ZEROS;
    v = v.wrapping_mul(10).wrapping_add(v >> 8);
    const PAIRS: u64 = 0x0000_00ff_0000_00ff;
    Some(
        ((v & PAIRS)
            .wrapping_mul(100 + (1_000_000 << 32))
            .wrapping_add(((v >> 16) & PAIRS).wrapping_mul(1 + (10_000 << 32))))
            >> 32,
    )
}

/// Reads [`Words::NamesAndNumbers`] tokens in place, for the lines that make up the bulk of
/// number-heavy files (MD5's `vert`, `tri` and `weight` lines, animation frames): one pass
/// over the bytes, no [`Token`] or `Result` per token.
///
/// Get one from [`Parser::cursor`], read a line's tokens with it, and take them with
/// [`Parser::advance`] (to its [`Cursor::offset`]) if the whole line was as expected. Each method returns `false` or
/// `None` (having moved past whitespace only) when the next token is not what it reads, or
/// when it is a comment, or anything that the lexer might read differently: then drop the
/// cursor and read the line again the ordinary way, which finds the same tokens or reports
/// the error.
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    src: &'a [u8],
    pos: usize,
    class: &'a [Class; 256],
    /// Where the last token read started.
    last: usize,
    /// Where the last token read ended (where the parser's last one did, before any).
    end: usize,
}

impl Cursor<'_> {
    /// Skips whitespace; the next byte's offset unless the input ends or a comment may start.
    #[inline]
    fn start(&mut self) -> Option<usize> {
        let src = self.src;
        let mut pos = self.pos;
        while pos < src.len() && matches!(self.class[usize::from(src[pos])], Class::Space) {
            pos += 1;
        }
        self.pos = pos;
        (pos < src.len() && src[pos] != b'/').then_some(pos)
    }

    /// The end of the last token read.
    pub fn offset(&self) -> usize {
        self.end
    }

    /// The token last read, as a [`Token`] of `kind`.
    pub fn last_token(&self, kind: Kind) -> Token {
        Token {
            kind,
            start: self.last,
            end: self.end,
        }
    }

    /// Marks `start..end` as the last token read.
    #[inline]
    fn read(&mut self, start: usize, end: usize) {
        self.last = start;
        self.pos = end;
        self.end = end;
    }

    /// Reads the symbol `c`.
    #[inline]
    pub fn punct(&mut self, c: u8) -> bool {
        match self.start() {
            Some(at) if self.src[at] == c && matches!(self.class[usize::from(c)], Class::Punct) => {
                self.read(at, at + 1);
                true
            }
            _ => false,
        }
    }

    /// Reads the name `word` (a whole name: `vert` does not match `verts`).
    #[inline]
    pub fn name(&mut self, word: &[u8]) -> bool {
        let Some(at) = self.start() else {
            return false;
        };
        let end = at + word.len();
        let src = self.src;
        let whole = src.get(at..end) == Some(word)
            && src
                .get(end)
                .is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
            && word
                .first()
                .is_some_and(|&b| matches!(self.class[usize::from(b)], Class::Name));
        if whole {
            self.read(at, end);
        }
        whole
    }

    /// Reads a number, scanned once with its digits accumulated on the way. Declines numbers
    /// with more than 19 digits and tokens that do not end at whitespace, a symbol or the
    /// end of the input (`1.5f`, `1.#IND`, `2//comment`), so that what it accepts is exactly
    /// what the lexer would make an [`Kind::Int`] or [`Kind::Float`] of.
    #[inline(always)]
    pub fn number(&mut self) -> Option<Number> {
        let start = self.start()?;
        let src = self.src;
        let mut i = start;
        let negative = match src[i] {
            b'-' => {
                i += 1;
                true
            }
            b'+' => {
                i += 1;
                false
            }
            _ => false,
        };
        // All digits, leading zeros included, go into the mantissa: at most 19 fit.
        let mut mantissa = 0u64;
        let mut digits = |i: &mut usize| -> usize {
            let from = *i;
            while let Some(&b) = src.get(*i) {
                let d = b.wrapping_sub(b'0');
                if d > 9 {
                    break;
                }
                mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(d));
                *i += 1;
            }
            *i - from
        };
        let int_digits = digits(&mut i);
        let mut float = false;
        let mut frac_digits = 0;
        if src.get(i) == Some(&b'.') {
            float = true;
            i += 1;
            frac_digits = digits(&mut i);
        }
        if int_digits + frac_digits == 0 || int_digits + frac_digits > 19 {
            return None;
        }
        let mut exponent = 0i32;
        if matches!(src.get(i), Some(b'e' | b'E')) {
            float = true;
            i += 1;
            let negative_exp = match src.get(i) {
                Some(b'-') => {
                    i += 1;
                    true
                }
                Some(b'+') => {
                    i += 1;
                    false
                }
                _ => false,
            };
            let from = i;
            while let Some(&b) = src.get(i) {
                if !b.is_ascii_digit() {
                    break;
                }
                exponent = exponent
                    .saturating_mul(10)
                    .saturating_add(i32::from(b - b'0'));
                i += 1;
            }
            if i == from {
                return None;
            }
            if negative_exp {
                exponent = -exponent;
            }
        }
        if let Some(&b) = src.get(i) {
            if !matches!(self.class[usize::from(b)], Class::Space | Class::Punct) {
                return None;
            }
        }
        self.read(start, i);
        let frac = i32::try_from(frac_digits).unwrap_or(i32::MAX);
        Some(Number {
            negative,
            mantissa,
            exp10: exponent.saturating_sub(frac),
            float,
        })
    }

    /// Reads a number whose value [`Number::to_f32`] computes.
    #[inline]
    pub fn f32(&mut self) -> Option<f32> {
        // `-0.123456` (what MD5 exporters write) eight bytes at a time; anything else through
        // `number`.
        let start = self.start()?;
        let negative = self.src[start] == b'-';
        if let Some(v) = self.six_decimals(start, start + usize::from(negative), negative) {
            return Some(v);
        }
        let saved = (self.last, self.end);
        let v = self.number()?.to_f32();
        if v.is_none() {
            (self.last, self.end) = saved;
            self.pos = saved.1;
        }
        v
    }

    /// `D.DDDDDD` at `i` (after the sign; one to four digits before the point), followed by
    /// a space or a symbol: nine numbers out of ten in the corpus's md5anim frames, and the
    /// positions of md5camera paths. The six decimals are checked and combined eight bytes
    /// at a time (SWAR, as in simdjson's `parse_eight_digits_unrolled`), then the value is
    /// rounded as [`Number::to_f32`] does; `None`, nothing read, for any other text or a
    /// value that lies near an `f32` rounding tie (the general path takes those).
    #[inline(always)]
    fn six_decimals(&mut self, start: usize, i: usize, negative: bool) -> Option<f32> {
        let src = self.src;
        // The common `D.DDDDDD`: the digit before the point and the six after it, behind a
        // leading '0' ("0DDDDDDD" in memory order), combined as one eight-digit number.
        let (m, end) = if src.get(i + 1) == Some(&b'.') {
            let chunk: &[u8; 9] = src.get(i..i + 9)?.try_into().ok()?;
            let b = u64::from_le_bytes([
                chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
            ]);
            if !matches!(
                self.class[usize::from(chunk[8])],
                Class::Space | Class::Punct
            ) {
                return None;
            }
            let w = (((b & 0xff) | ((b >> 8) & !0xff)) << 8) | u64::from(b'0');
            (eight_digits(w)?, i + 8)
        } else {
            // Two to four digits before the point, read one by one; the six decimals behind
            // two '0's ("00DDDDDD").
            let mut k = 0;
            let mut whole = 0u64;
            while k < 4 {
                let d = src.get(i + k)?.wrapping_sub(b'0');
                if d > 9 {
                    break;
                }
                whole = whole * 10 + u64::from(d);
                k += 1;
            }
            let f = i + k + 1;
            if k == 0 || src.get(i + k) != Some(&b'.') {
                return None;
            }
            let chunk: &[u8; 7] = src.get(f..f + 7)?.try_into().ok()?;
            if !matches!(
                self.class[usize::from(chunk[6])],
                Class::Space | Class::Punct
            ) {
                return None;
            }
            let w = u64::from_le_bytes([
                b'0', b'0', chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5],
            ]);
            (whole * 1_000_000 + eight_digits(w)?, f + 6)
        };
        let value = if m == 0 {
            0.0
        } else {
            // Exact below 2^53 (m < 10^10); one multiplication by the rounded 1e-6, kept
            // unless it lies within a few units of an f32 rounding tie (see
            // `Number::to_f32`).
            let r = m as i64 as f64 * RECIP10[6];
            if (r.to_bits() & 0x1fff_ffff).abs_diff(0x1000_0000) <= 16 {
                return None;
            }
            r as f32
        };
        self.read(start, end);
        Some(if negative { -value } else { value })
    }

    /// Reads an integer within `i64`.
    #[inline]
    pub fn int(&mut self) -> Option<i64> {
        // Unsigned integers of up to 18 digits (all that MD5's indices and counts are),
        // directly; anything else through `number`.
        let start = self.start()?;
        let src = self.src;
        let mut i = start;
        let mut value = 0i64;
        while let Some(&b) = src.get(i) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            value = value.wrapping_mul(10).wrapping_add(i64::from(d));
            i += 1;
        }
        let n = i - start;
        if (1..=18).contains(&n)
            && src
                .get(i)
                .is_none_or(|&b| matches!(self.class[usize::from(b)], Class::Space | Class::Punct))
        {
            self.read(start, i);
            return Some(value);
        }
        let saved = (self.last, self.end);
        let v = self.number()?.to_i64();
        if v.is_none() {
            (self.last, self.end) = saved;
            self.pos = saved.1;
        }
        v
    }
}

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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A token with the line and column it is reported at.
    pub(crate) type Tok = (Kind, String, u32, u32);

    /// The tokens of `src` up to the end, or the first error with its line and column.
    pub(crate) fn tokens(syntax: &Syntax, src: &[u8]) -> Result<Vec<Tok>, (LexError, u32, u32)> {
        let p = Parser::new(src, syntax, "test", &Limits::default());
        let mut lx = Lexer::new(src, syntax);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token().map_err(|e| {
                let (l, c) = p.line_col(e.start);
                (e, l, c)
            })?;
            let (l, c) = p.line_col(t.offset());
            let text = String::from_utf8_lossy(t.bytes(src)).into_owned();
            out.push((t.kind, text, l, c));
            if t.kind == Kind::Eof {
                return Ok(out);
            }
        }
    }

    /// Asserts that `got` are the tokens `want`.
    pub(crate) fn check(got: &[Tok], want: &[(Kind, &str, u32, u32)]) {
        let got: Vec<_> = got.iter().map(|t| (t.0, t.1.as_str(), t.2, t.3)).collect();
        assert_eq!(got, want);
    }

    const FILE_NAME: Quote = Quote {
        open: b'<',
        close: b'>',
        name: "file name",
    };

    /// Comments kept, `<file names>`, and either kind of words.
    fn syntax(words: Words) -> Syntax {
        Syntax {
            line_comments: true,
            block_comments: true,
            keep_comments: true,
            quotes: &[FILE_NAME],
            punct: b"{}(",
            words,
        }
    }

    /// The numbers [`Parser::take_number`] reads in place: the same tokens as the lexer, and
    /// the same values as `str::parse`, bit for bit, whenever [`Number::to_f32`] computes one.
    #[test]
    fn direct_numbers_match_the_lexer_and_str_parse() {
        let mut texts: Vec<String> = [
            "0",
            "-0",
            "+0",
            "-0.000000",
            "0.839150",
            "3.",
            ".5",
            "-.5",
            "1e5",
            "1E-5",
            "16777217",
            "16777217.0",
            "33554431",
            "8388609.5",
            "0.1",
            "3.4028235e38",
            "3.4028236e38",
            "1e38",
            "1e39",
            "1.17549435e-38",
            "1e-40",
            "1e-45",
            "9007199254740993",
            "9999999999999999999",
            "99999999999999999999",
            "0.00000000000000000001",
            "123456789012.3456789",
            "1e999999999999",
            "-1e-99999",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..20_000 {
            let mut t = ["", "-", "+"][next(3) as usize].to_string();
            let int_digits = next(13);
            let frac_digits = next(13);
            for _ in 0..int_digits {
                t.push(char::from(b'0' + next(10) as u8));
            }
            if frac_digits > 0 || next(4) == 0 || int_digits == 0 {
                t.push('.');
                for _ in 0..frac_digits.max(u64::from(int_digits == 0)) {
                    t.push(char::from(b'0' + next(10) as u8));
                }
            }
            if next(3) == 0 {
                t.push_str(["e", "E-", "e+", "e-"][next(4) as usize]);
                t.push_str(&next(46).to_string());
            }
            texts.push(t);
        }
        let separators = [" ", "\n", "\t", "(", ")", "\r\n"];
        let mut src = String::new();
        for (i, t) in texts.iter().enumerate() {
            src.push_str(t);
            src.push_str(separators[i % separators.len()]);
        }
        let syntax = Syntax {
            line_comments: true,
            block_comments: false,
            keep_comments: false,
            quotes: &[STRING],
            punct: b"()",
            words: Words::NamesAndNumbers,
        };
        let mut p = Parser::new(src.as_bytes(), &syntax, "test", &Limits::default());
        let mut lx = Lexer::new(src.as_bytes(), &syntax);
        let (mut direct, mut computed) = (0, 0);
        loop {
            let want = lx.next_token().unwrap();
            // The cursor's own readers take the same token, with the same value.
            if let Some(mut c) = p.cursor() {
                let text = want.bytes(src.as_bytes());
                let text = std::str::from_utf8(text).unwrap();
                if let Some(v) = c.f32() {
                    assert_eq!((c.last, c.end), (want.start, want.end), "{text}");
                    assert_eq!(Ok(v.to_bits()), text.parse::<f32>().map(f32::to_bits));
                }
                if let Some(mut c) = p.cursor() {
                    if let Some(v) = c.int() {
                        assert_eq!((c.last, c.end), (want.start, want.end), "{text}");
                        assert_eq!(want.kind, Kind::Int);
                        assert_eq!(Ok(v), text.parse::<i64>(), "{text}");
                    }
                }
            }
            let got = match p.take_number() {
                Some((t, n)) => {
                    direct += 1;
                    let text = p.str(&t);
                    if let Some(v) = n.to_f32() {
                        computed += 1;
                        let parsed: f32 = text.parse().unwrap();
                        assert_eq!(v.to_bits(), parsed.to_bits(), "{text}");
                    }
                    if let Some(v) = n.to_i64() {
                        assert_eq!(Ok(v), text.parse::<i64>(), "{text}");
                    }
                    t
                }
                None => p.next_token().unwrap(),
            };
            assert_eq!(got, want);
            if want.kind == Kind::Eof {
                break;
            }
        }
        // Nearly all are read in place, and most values computed without parsing.
        assert!(direct > texts.len() * 9 / 10, "{direct} of {}", texts.len());
        assert!(computed > texts.len() / 2, "{computed} of {}", texts.len());
        // What the lexer would not end where a number ends is left to it.
        for declined in ["1.5f", "1.#IND", "2//c", "1-2", "-", ".", "1e", "0x10"] {
            let mut p = Parser::new(declined.as_bytes(), &syntax, "test", &Limits::default());
            assert!(p.take_number().is_none(), "{declined}");
        }
    }

    /// Every value MD5 exporters write with six decimals below 2 (and a sample above) gets
    /// the bits `str::parse` gives, through the reciprocal and the division paths alike.
    #[test]
    fn six_decimals_match_str_parse() {
        // Each text alone and followed by a space (the eight-byte path needs the byte after).
        let check = |text: &str| {
            let want: f32 = text.parse().unwrap();
            let mut read = false;
            for src in [text.to_string(), format!("{text} ")] {
                let p = Parser::new(src.as_bytes(), &MD5_LIKE, "test", &Limits::default());
                let v = p
                    .cursor()
                    .and_then(|mut c| c.f32().map(|v| (v, c.offset())));
                if let Some((v, end)) = v {
                    assert_eq!(v.to_bits(), want.to_bits(), "{text}");
                    assert_eq!(end, text.len(), "{text}");
                    read = true;
                }
            }
            read
        };
        let mut computed = 0;
        for n in 0..2_000_000u32 {
            computed += usize::from(check(&format!("{}.{:06}", n / 1_000_000, n % 1_000_000)));
        }
        for n in (0..2_000_000_000u64).step_by(997) {
            computed += usize::from(check(&format!("-{}.{:06}", n / 1_000_000, n % 1_000_000)));
            computed += usize::from(check(&format!("{}.{:010}", n / 10_000_000, n % 10_000_000)));
        }
        assert!(computed > 2_000_000, "{computed}");
        // Up to four digits before the point go the eight-byte way; other shapes, and text
        // that ends early, go to the general path with the same result.
        for text in [
            "1234",
            "123",
            "9999.999999",
            "0512.500000",
            "12345.000000",
            "-4096.000001",
            "1234.",
            "1234.12345",
            "1234.1234567",
            "7.",
            "-0.000000",
            "0000.000000",
        ] {
            check(text);
        }
        let at_end = Parser::new(b"1234", &MD5_LIKE, "test", &Limits::default());
        let v = at_end.cursor().and_then(|mut c| c.f32());
        assert_eq!(v, Some(1234.0));
    }

    /// MD5's syntax, for number tests.
    const MD5_LIKE: Syntax = Syntax {
        line_comments: true,
        block_comments: true,
        keep_comments: false,
        quotes: &[STRING],
        punct: b"(){}",
        words: Words::NamesAndNumbers,
    };

    #[test]
    fn numbers() {
        for good in [
            "0",
            "-0.000000",
            "1.00",
            "+2",
            ".5",
            "3.",
            "1e-05",
            "00000000",
        ] {
            assert!(is_number(good.as_bytes()), "{good}");
        }
        assert_eq!(number_kind(b"+2"), Some(Kind::Int));
        assert_eq!(number_kind(b"2e3"), Some(Kind::Float));
        for bad in [
            "", "-", ".", "1e", "0f", "3d.1", "inf", "nan", "1..2", "--1", "ndef",
        ] {
            assert!(!is_number(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn bom_and_empty() {
        for syntax in [syntax(Words::Free), syntax(Words::NamesAndNumbers)] {
            check(&tokens(&syntax, b"").unwrap(), &[(Kind::Eof, "", 1, 1)]);
            let t = tokens(&syntax, b"\xef\xbb\xbfx\n y").unwrap();
            assert_eq!((t[0].1.as_str(), t[0].2, t[0].3), ("x", 1, 1));
            assert_eq!((t[1].1.as_str(), t[1].2, t[1].3), ("y", 2, 2));
        }
    }

    #[test]
    fn line_col_in_any_order() {
        let src = b"ab\ncd\r\n\tef\rgh";
        let syntax = syntax(Words::Free);
        let p = Parser::new(src, &syntax, "test", &Limits::default());
        assert_eq!(p.line_col(8), (3, 2));
        assert_eq!(p.line_col(1), (1, 2));
        assert_eq!(p.line_col(11), (3, 5));
        assert_eq!(p.line_col(3), (2, 1));
        assert_eq!(p.line_col(99), (3, 7));
    }

    #[test]
    fn parser_helpers() {
        let src = b"// a\nx // b\n{ 7 } <f\xe9> ";
        let syntax = syntax(Words::Free);
        let mut p = Parser::new(src, &syntax, "wmp", &Limits::default());
        assert_eq!(p.take_comments().unwrap(), [" a"]);
        assert!(p.at_word("x").unwrap());
        p.next_token().unwrap();
        p.punct(b'{').unwrap();
        assert_eq!(
            p.dropped_comments,
            Tally {
                count: 1,
                first: Some(7)
            }
        );
        let t = p.next_token().unwrap();
        let e = p.count(&t, 7, 100, 1, format_args!("n = 7")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "wmp: n = 7 needs at least 700 bytes but only 8 are left at line 3:3"
        );
        let e = p.punct(b'(').unwrap_err();
        assert_eq!(e.to_string(), "wmp: expected '(', found '}' at line 3:5");
        let t = p.next_token().unwrap();
        assert_eq!(p.describe(&t), "<f\u{fffd}>");
        assert_eq!(p.decode(&t), "f\u{e9}");
        assert_eq!(
            p.latin1,
            Tally {
                count: 1,
                first: Some(t.offset())
            }
        );
        p.expect_end().unwrap();
    }
}
