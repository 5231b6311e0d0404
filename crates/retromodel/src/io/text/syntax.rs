//! What a text format's tokens are: the [`Syntax`] that names a format's comments, quotes,
//! symbols and words, and the [`Token`]s (a [`Kind`] and a byte span) the lexer makes of it.

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
    ///
    /// [`number_kind`]: super::number_kind
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
