//! The WMP tokenizer: bytes to tokens, each with its 1-based line and column.
//!
//! WED's text levels are whitespace-separated words with a few symbols:
//!
//! - **Whitespace**: space, tab, CR, LF, vertical tab and form feed. A line ends at LF, so
//!   LF and CRLF files count the same lines. A UTF-8 byte order mark at the very start is
//!   skipped.
//! - **Comments**: `//` at the start of a token runs to the end of the line. The comment is a
//!   token of its own ([`Kind::Comment`]; its span is the text after `//`, without trailing
//!   whitespace) so that the parser can keep the ones it has a place for.
//! - **Symbols**: `{` `}` `(` `)` `,` `:` `;`, each one token.
//! - **File names**: `<` at the start of a token runs to the next `>` on the same line
//!   (`<z:\wads\standard.wad>`, spaces allowed); the span is the text between the brackets.
//! - **Quoted strings**: `"` at the start of a token runs to the next `"` on the same line
//!   (none occur in the files seen, but names with spaces would need them).
//! - **Words**: everything else, a run of bytes up to whitespace or a symbol: numbers
//!   (`-0.000000`), hex palette bytes (`0f`), flag strings (`0000`), texture names
//!   (`*water3`), view window names (`3d.1`) and keywords. Bytes from 0x80 up are word bytes
//!   (Latin-1 names); other control bytes and DEL are errors.
//!
//! Columns count bytes from the start of the line (a tab is one column). The lexer never
//! panics and allocates nothing: tokens are spans into the input.

/// What a [`Token`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `{`
    LBrace,
    /// `}`
    RBrace,
    /// `(`
    LParen,
    /// `)`
    RParen,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `;`
    Semicolon,
    /// A run of word bytes (numbers, names, keywords).
    Word,
    /// `<...>`; the span is the text between the brackets.
    Path,
    /// `"..."`; the span is the text between the quotes.
    Quoted,
    /// `// ...`; the span is the text after `//`, trailing whitespace left out.
    Comment,
    /// The end of the data (an empty span at the end).
    Eof,
}

/// One token: its kind, its span in the input and where it starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    /// The kind.
    pub kind: Kind,
    /// Start of the span.
    pub start: usize,
    /// End of the span, exclusive.
    pub end: usize,
    /// 1-based line of the token's first byte.
    pub line: u32,
    /// 1-based column, in bytes, of the token's first byte.
    pub column: u32,
}

impl Token {
    /// The token's bytes (without brackets, quotes or `//`).
    pub fn bytes<'a>(&self, src: &'a [u8]) -> &'a [u8] {
        src.get(self.start..self.end).unwrap_or_default()
    }
}

/// What went wrong while tokenizing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LexErrorKind {
    /// A control byte outside comments, file names and strings.
    UnexpectedByte(u8),
    /// A `<` file name with no `>` before the end of the data.
    UnterminatedPath,
    /// A `<` file name with a line break before its `>`.
    LineBreakInPath,
    /// A `"` string with no closing quote before the end of the data.
    UnterminatedString,
    /// A `"` string with a line break before its closing quote.
    LineBreakInString,
}

/// A tokenizing error: what and where.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LexError {
    /// What went wrong.
    pub kind: LexErrorKind,
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

/// Whitespace bytes.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c)
}

/// Bytes that are tokens of their own.
pub(crate) fn is_symbol(b: u8) -> bool {
    matches!(b, b'{' | b'}' | b'(' | b')' | b',' | b':' | b';')
}

/// Control bytes that may not appear outside comments, file names and strings.
pub(crate) fn is_forbidden(b: u8) -> bool {
    (b < 0x20 && !is_space(b)) || b == 0x7f
}

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

    /// Skips whitespace (not comments: they are tokens).
    fn skip_space(&mut self) {
        while let Some(&c) = self.src.get(self.pos) {
            if c == b'\n' {
                self.line = self.line.saturating_add(1);
                self.pos += 1;
                self.line_start = self.pos;
            } else if is_space(c) {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    /// The next token, or the first tokenizing error.
    pub fn next_token(&mut self) -> Result<Token, LexError> {
        self.skip_space();
        let start = self.pos;
        let (line, column) = (self.line, self.column(start));
        let token = |kind, start, end| Token {
            kind,
            start,
            end,
            line,
            column,
        };
        let error = |kind| LexError { kind, line, column };
        let Some(&c) = self.src.get(start) else {
            return Ok(token(Kind::Eof, start, start));
        };
        let single = match c {
            b'{' => Some(Kind::LBrace),
            b'}' => Some(Kind::RBrace),
            b'(' => Some(Kind::LParen),
            b')' => Some(Kind::RParen),
            b',' => Some(Kind::Comma),
            b':' => Some(Kind::Colon),
            b';' => Some(Kind::Semicolon),
            _ => None,
        };
        if let Some(kind) = single {
            self.pos += 1;
            return Ok(token(kind, start, start + 1));
        }
        let rest = &self.src[start..];
        if rest.starts_with(b"//") {
            let len = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            self.pos = start + len;
            let text = &rest[2..len];
            let trimmed = text.len() - text.iter().rev().take_while(|&&b| is_space(b)).count();
            return Ok(token(Kind::Comment, start + 2, start + 2 + trimmed));
        }
        if c == b'<' || c == b'"' {
            let close = if c == b'<' { b'>' } else { b'"' };
            let (unterminated, line_break, kind) = if c == b'<' {
                (
                    LexErrorKind::UnterminatedPath,
                    LexErrorKind::LineBreakInPath,
                    Kind::Path,
                )
            } else {
                (
                    LexErrorKind::UnterminatedString,
                    LexErrorKind::LineBreakInString,
                    Kind::Quoted,
                )
            };
            let body = &rest[1..];
            return match body.iter().position(|&b| b == close || b == b'\n') {
                Some(n) if body[n] == close => {
                    self.pos = start + 1 + n + 1;
                    Ok(token(kind, start + 1, start + 1 + n))
                }
                Some(_) => Err(error(line_break)),
                None => Err(error(unterminated)),
            };
        }
        if is_forbidden(c) {
            return Err(error(LexErrorKind::UnexpectedByte(c)));
        }
        let mut n = 0;
        while let Some(&b) = rest.get(n) {
            if is_space(b) || is_symbol(b) {
                break;
            }
            if is_forbidden(b) {
                let at = start + n;
                return Err(LexError {
                    kind: LexErrorKind::UnexpectedByte(b),
                    line,
                    column: self.column(at),
                });
            }
            n += 1;
        }
        self.pos = start + n;
        Ok(token(Kind::Word, start, start + n))
    }
}

/// Whether `s` is a decimal number as WED writes them: `[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)`
/// with an optional exponent `[eE][+-]?[0-9]+` (`-0.000000`, `1.00`, `30`, `.5`, `3.`).
pub(crate) fn is_number(s: &[u8]) -> bool {
    let digits = |s: &[u8]| s.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut i = usize::from(matches!(s.first(), Some(b'+' | b'-')));
    let int_digits = digits(&s[i..]);
    i += int_digits;
    let mut frac_digits = 0;
    if s.get(i) == Some(&b'.') {
        i += 1;
        frac_digits = digits(&s[i..]);
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return false;
    }
    if matches!(s.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(s.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let exp_digits = digits(&s[i..]);
        if exp_digits == 0 {
            return false;
        }
        i += exp_digits;
    }
    i == s.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(src: &[u8]) -> Result<Vec<(Kind, String, u32, u32)>, LexError> {
        let mut lx = Lexer::new(src);
        let mut out = Vec::new();
        loop {
            let t = lx.next_token()?;
            let text = String::from_utf8_lossy(t.bytes(src)).into_owned();
            out.push((t.kind, text, t.line, t.column));
            if t.kind == Kind::Eof {
                return Ok(out);
            }
        }
    }

    #[test]
    fn kinds_lines_and_columns() {
        let src = b"// WMP2 \r\nobject 0 {  // Root\r\n\t(0 -16 1.5) object 1, 35\r\n\
                    <z:\\a b\\w.wad> 1 ; *water3 3d.1 \"x y\" a//b:}";
        let t = tokens(src).unwrap();
        let k: Vec<_> = t.iter().map(|t| (t.0, t.1.as_str(), t.2, t.3)).collect();
        assert_eq!(
            k,
            [
                (Kind::Comment, " WMP2", 1, 1),
                (Kind::Word, "object", 2, 1),
                (Kind::Word, "0", 2, 8),
                (Kind::LBrace, "{", 2, 10),
                (Kind::Comment, " Root", 2, 13),
                (Kind::LParen, "(", 3, 2),
                (Kind::Word, "0", 3, 3),
                (Kind::Word, "-16", 3, 5),
                (Kind::Word, "1.5", 3, 9),
                (Kind::RParen, ")", 3, 12),
                (Kind::Word, "object", 3, 14),
                (Kind::Word, "1", 3, 21),
                (Kind::Comma, ",", 3, 22),
                (Kind::Word, "35", 3, 24),
                (Kind::Path, "z:\\a b\\w.wad", 4, 1),
                (Kind::Word, "1", 4, 16),
                (Kind::Semicolon, ";", 4, 18),
                (Kind::Word, "*water3", 4, 20),
                (Kind::Word, "3d.1", 4, 28),
                (Kind::Quoted, "x y", 4, 33),
                (Kind::Word, "a//b", 4, 39),
                (Kind::Colon, ":", 4, 43),
                (Kind::RBrace, "}", 4, 44),
                (Kind::Eof, "", 4, 45),
            ]
        );
    }

    #[test]
    fn errors() {
        let e = |src: &[u8]| tokens(src).unwrap_err();
        assert_eq!(
            e(b"a\n <abc"),
            LexError {
                kind: LexErrorKind::UnterminatedPath,
                line: 2,
                column: 2
            }
        );
        assert_eq!(e(b"<ab\nc>").kind, LexErrorKind::LineBreakInPath);
        assert_eq!(e(b"\"ab").kind, LexErrorKind::UnterminatedString);
        assert_eq!(e(b"\"ab\n\"").kind, LexErrorKind::LineBreakInString);
        let err = e(b"ab\0c");
        assert_eq!(
            (err.kind, err.line, err.column),
            (LexErrorKind::UnexpectedByte(0), 1, 3)
        );
        assert_eq!(e(b"\x7f").kind, LexErrorKind::UnexpectedByte(0x7f));
        // Comments, file names and strings may hold anything but a line feed.
        assert!(tokens(b"// \0\x7f\n<\x01> \"\x02\"").is_ok());
    }

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
        for bad in [
            "", "-", ".", "1e", "0f", "3d.1", "inf", "nan", "1..2", "--1", "ndef",
        ] {
            assert!(!is_number(bad.as_bytes()), "{bad}");
        }
    }

    #[test]
    fn bom_and_empty() {
        assert_eq!(tokens(b"").unwrap(), [(Kind::Eof, String::new(), 1, 1)]);
        let t = tokens(b"\xef\xbb\xbfx").unwrap();
        assert_eq!(t[0], (Kind::Word, "x".to_string(), 1, 1));
    }
}
