//! The tokenizer: a [`Lexer`] reads [`Token`]s (byte spans, no allocation) by a byte class
//! table built once from its [`Syntax`], and fails with a [`LexError`] that a parser turns
//! into a located error.

use crate::error::ErrorKind;

use super::bytes::{is_forbidden, is_space, number_kind, shorten};
use super::syntax::{Kind, Quote, Syntax, Token, Words};

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

/// How a byte can start a token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Class {
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
pub(super) fn bom_len(src: &[u8]) -> usize {
    if src.starts_with(BOM) {
        BOM.len()
    } else {
        0
    }
}

/// The tokenizer: call [`Lexer::next_token`] until it returns [`Kind::Eof`] (it keeps
/// returning `Eof` after that). It never panics and allocates nothing (but the offsets of the
/// comments [`Parser::record_line_comments`] asks for).
///
/// [`Parser::record_line_comments`]: super::Parser::record_line_comments
#[derive(Debug, Clone)]
pub struct Lexer<'a> {
    pub(super) src: &'a [u8],
    pub(super) pos: usize,
    pub(super) syntax: &'a Syntax,
    pub(super) class: [Class; 256],
    /// With [`Parser::record_line_comments`]: the text a `//` comment must start with (after
    /// blanks) to be recorded, and the offsets of the `//` of those recorded.
    ///
    /// [`Parser::record_line_comments`]: super::Parser::record_line_comments
    pub(super) recorded: Option<(&'static [u8], Vec<usize>)>,
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
