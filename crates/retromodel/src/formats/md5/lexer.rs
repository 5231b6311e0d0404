//! The MD5 tokenizer: bytes to tokens, each with its 1-based line and column.
//!
//! The rules are those of Doom 3's `idLexer` as its MD5 loaders configure it
//! (`LEXFL_NOSTRINGESCAPECHARS`), narrowed to what MD5 files use:
//!
//! - **Whitespace**: space, tab, CR, LF, vertical tab and form feed. A line ends at LF, so
//!   LF and CRLF files count the same lines; a lone CR is plain whitespace. A UTF-8 byte
//!   order mark at the very start is skipped.
//! - **Comments**: `//` to the end of the line, and `/* ... */` (which may span lines).
//! - **Strings**: `"` to the next `"` on the same line. A backslash is an ordinary
//!   character and escapes nothing, not even `\"`: Doom 3 shader paths like
//!   `"models\mapobjects\x"` and Windows paths read as written, and a string can never
//!   contain `"`. A line feed or the end of the data before the closing quote is an error
//!   (a lone carriage return is part of the string).
//! - **Identifiers** (keywords): `[A-Za-z_][A-Za-z0-9_]*`.
//! - **Numbers**: a run of `[0-9A-Za-z_.#+-]` that starts with a digit, a sign or a dot
//!   (so `1.#IND00` or `0.5f` are one malformed token, not two), which must then be an
//!   integer `[+-]?[0-9]+` or a float `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?`:
//!   `-0.000000`, `1e-05`, `.5` and `3.` are floats.
//! - **Symbols**: `(` `)` `{` `}`. Any other byte outside strings and comments is an error.
//!
//! Columns count bytes from the start of the line (a tab is one column). The lexer never
//! panics and allocates nothing: tokens are spans into the input.

/// What a [`Token`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// A quoted string; the span is its content without the quotes.
    Str,
    /// An identifier or keyword.
    Ident,
    /// An integer (optionally signed).
    Int,
    /// A number with a fraction or an exponent.
    Float,
    /// The end of the data (an empty span at the end).
    Eof,
}

/// One token: its kind, its span in the input and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    /// The kind.
    pub kind: Kind,
    /// Start of the span (for strings, after the opening quote).
    pub start: usize,
    /// End of the span, exclusive (for strings, at the closing quote).
    pub end: usize,
    /// 1-based line of the token's first byte (the opening quote of a string).
    pub line: u32,
    /// 1-based column, in bytes, of the token's first byte.
    pub column: u32,
}

impl Token {
    /// The token's bytes (a string's content without its quotes).
    pub fn bytes<'a>(&self, src: &'a [u8]) -> &'a [u8] {
        &src[self.start..self.end]
    }
}

/// What went wrong while tokenizing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LexErrorKind {
    /// A byte that starts no token (outside strings and comments).
    UnexpectedByte(u8),
    /// A string with no closing quote before the end of the data.
    UnterminatedString,
    /// A string with a line break before its closing quote.
    LineBreakInString,
    /// A `/*` comment with no `*/`.
    UnterminatedComment,
    /// A run of number characters that is neither an integer nor a float.
    MalformedNumber,
}

/// A tokenizing error: what, the span concerned and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LexError {
    /// What went wrong.
    pub kind: LexErrorKind,
    /// Start of the offending span.
    pub start: usize,
    /// End of the offending span, exclusive.
    pub end: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
}

/// The tokenizer: call [`Lexer::next_token`] until it returns [`Kind::Eof`] (it keeps
/// returning `Eof` after that).
#[derive(Debug, Clone)]
pub(crate) struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
}

const BOM: &[u8] = b"\xef\xbb\xbf";

impl<'a> Lexer<'a> {
    /// A lexer at the start of `src` (after a UTF-8 byte order mark, if any).
    pub fn new(src: &'a [u8]) -> Self {
        let pos = if src.starts_with(BOM) { BOM.len() } else { 0 };
        Lexer {
            src,
            pos,
            line: 1,
            line_start: pos,
        }
    }

    /// The input.
    pub fn src(&self) -> &'a [u8] {
        self.src
    }

    fn column(&self, pos: usize) -> u32 {
        u32::try_from(pos - self.line_start + 1).unwrap_or(u32::MAX)
    }

    fn new_line(&mut self, newline_at: usize) {
        self.line = self.line.saturating_add(1);
        self.line_start = newline_at + 1;
    }

    fn error(
        &self,
        kind: LexErrorKind,
        start: usize,
        end: usize,
        line: u32,
        column: u32,
    ) -> LexError {
        LexError {
            kind,
            start,
            end,
            line,
            column,
        }
    }

    /// Skips whitespace and comments.
    fn skip_space(&mut self) -> Result<(), LexError> {
        while let Some(&c) = self.src.get(self.pos) {
            match c {
                b'\n' => {
                    self.new_line(self.pos);
                    self.pos += 1;
                }
                b' ' | b'\t' | b'\r' | 0x0b | 0x0c => self.pos += 1,
                b'/' if self.src.get(self.pos + 1) == Some(&b'/') => {
                    self.pos = match self.src[self.pos..].iter().position(|&b| b == b'\n') {
                        Some(n) => self.pos + n,
                        None => self.src.len(),
                    };
                }
                b'/' if self.src.get(self.pos + 1) == Some(&b'*') => {
                    let (start, line, column) = (self.pos, self.line, self.column(self.pos));
                    self.pos += 2;
                    loop {
                        match self.src.get(self.pos) {
                            None => {
                                return Err(self.error(
                                    LexErrorKind::UnterminatedComment,
                                    start,
                                    start + 2,
                                    line,
                                    column,
                                ))
                            }
                            Some(b'*') if self.src.get(self.pos + 1) == Some(&b'/') => {
                                self.pos += 2;
                                break;
                            }
                            Some(b'\n') => {
                                self.new_line(self.pos);
                                self.pos += 1;
                            }
                            Some(_) => self.pos += 1,
                        }
                    }
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// The next token, or the first tokenizing error.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        self.skip_space()?;
        let start = self.pos;
        let (line, column) = (self.line, self.column(start));
        let token = |kind, start, end| Token {
            kind,
            start,
            end,
            line,
            column,
        };
        let Some(&c) = self.src.get(start) else {
            return Ok(token(Kind::Eof, start, start));
        };
        let single = match c {
            b'(' => Some(Kind::LParen),
            b')' => Some(Kind::RParen),
            b'{' => Some(Kind::LBrace),
            b'}' => Some(Kind::RBrace),
            _ => None,
        };
        if let Some(kind) = single {
            self.pos += 1;
            return Ok(token(kind, start, start + 1));
        }
        match c {
            b'"' => {
                let body = start + 1;
                let rest = &self.src[body..];
                match rest.iter().position(|&b| b == b'"' || b == b'\n') {
                    Some(n) if rest[n] == b'"' => {
                        self.pos = body + n + 1;
                        Ok(token(Kind::Str, body, body + n))
                    }
                    Some(n) => Err(self.error(
                        LexErrorKind::LineBreakInString,
                        start,
                        body + n,
                        line,
                        column,
                    )),
                    None => Err(self.error(
                        LexErrorKind::UnterminatedString,
                        start,
                        self.src.len(),
                        line,
                        column,
                    )),
                }
            }
            b'A'..=b'Z' | b'a'..=b'z' | b'_' => {
                let n = self.src[start..]
                    .iter()
                    .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
                    .unwrap_or(self.src.len() - start);
                self.pos = start + n;
                Ok(token(Kind::Ident, start, start + n))
            }
            b'0'..=b'9' | b'-' | b'+' | b'.' => {
                let n = self.src[start..]
                    .iter()
                    .position(|&b| {
                        !(b.is_ascii_alphanumeric()
                            || matches!(b, b'_' | b'.' | b'#' | b'+' | b'-'))
                    })
                    .unwrap_or(self.src.len() - start);
                self.pos = start + n;
                match classify_number(&self.src[start..start + n]) {
                    Some(kind) => Ok(token(kind, start, start + n)),
                    None => Err(self.error(
                        LexErrorKind::MalformedNumber,
                        start,
                        start + n,
                        line,
                        column,
                    )),
                }
            }
            _ => Err(self.error(
                LexErrorKind::UnexpectedByte(c),
                start,
                start + 1,
                line,
                column,
            )),
        }
    }
}

/// [`Kind::Int`] or [`Kind::Float`] for a well-formed number, `None` otherwise.
fn classify_number(s: &[u8]) -> Option<Kind> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &[u8]) -> Result<Vec<(Kind, String, u32, u32)>, LexError> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token()?;
            if t.kind == Kind::Eof {
                out.push((t.kind, String::new(), t.line, t.column));
                return Ok(out);
            }
            let text = String::from_utf8_lossy(t.bytes(src)).into_owned();
            out.push((t.kind, text, t.line, t.column));
        }
    }

    #[test]
    fn kinds_lines_and_columns() {
        let src = b"MD5Version 10 // c\r\n\t\"a\\b\\\"(-0.000000 1e-05 .5 3. +2){}\r\n/* x\n */ k";
        let t = tokens(src).unwrap();
        let k: Vec<_> = t.iter().map(|t| (t.0, t.1.as_str(), t.2, t.3)).collect();
        assert_eq!(
            k,
            [
                (Kind::Ident, "MD5Version", 1, 1),
                (Kind::Int, "10", 1, 12),
                (Kind::Str, "a\\b\\", 2, 2),
                (Kind::LParen, "(", 2, 8),
                (Kind::Float, "-0.000000", 2, 9),
                (Kind::Float, "1e-05", 2, 19),
                (Kind::Float, ".5", 2, 25),
                (Kind::Float, "3.", 2, 28),
                (Kind::Int, "+2", 2, 31),
                (Kind::RParen, ")", 2, 33),
                (Kind::LBrace, "{", 2, 34),
                (Kind::RBrace, "}", 2, 35),
                (Kind::Ident, "k", 4, 5),
                (Kind::Eof, "", 4, 6),
            ]
        );
    }

    #[test]
    fn errors() {
        let e = |src: &[u8]| tokens(src).unwrap_err();
        assert_eq!(e(b"a\n \"abc").kind, LexErrorKind::UnterminatedString);
        assert_eq!((e(b"a\n \"abc").line, e(b"a\n \"abc").column), (2, 2));
        assert_eq!(e(b"\"ab\nc\"").kind, LexErrorKind::LineBreakInString);
        assert_eq!(e(b"/* x").kind, LexErrorKind::UnterminatedComment);
        assert_eq!(e(b"1 / 2").kind, LexErrorKind::UnexpectedByte(b'/'));
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
            let err = e(bad);
            assert_eq!(err.kind, LexErrorKind::MalformedNumber, "{bad:?}");
            assert_eq!((err.start, err.end), (0, bad.len()));
        }
    }

    #[test]
    fn bom_and_empty() {
        assert_eq!(tokens(b"").unwrap(), [(Kind::Eof, String::new(), 1, 1)]);
        let t = tokens(b"\xef\xbb\xbfx").unwrap();
        assert_eq!(t[0], (Kind::Ident, "x".to_string(), 1, 1));
    }
}
