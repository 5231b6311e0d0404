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

mod bytes;
mod cursor;
mod lexer;
mod number;
mod parser;
mod syntax;
#[cfg(test)]
pub(crate) mod tests;

pub use bytes::{decode, is_forbidden, is_number, is_space, number_kind, shorten};
pub use cursor::Cursor;
pub use lexer::{LexError, LexErrorKind, Lexer};
pub use number::Number;
pub use parser::{Parser, Tally};
pub use syntax::{Kind, Quote, Syntax, Token, Words, STRING};
