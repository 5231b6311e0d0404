//! [`Cursor`]: the bulk lines of number-heavy files read in place, in one pass, giving way to
//! the ordinary token path on anything unusual so that errors stay those of the parser.

use super::lexer::Class;
use super::number::{eight_digits, Number, RECIP10};
use super::syntax::{Kind, Token};

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
///
/// [`Words::NamesAndNumbers`]: super::Words::NamesAndNumbers
/// [`Parser::cursor`]: super::Parser::cursor
/// [`Parser::advance`]: super::Parser::advance
#[derive(Debug, Clone)]
pub struct Cursor<'a> {
    pub(super) src: &'a [u8],
    pub(super) pos: usize,
    pub(super) class: &'a [Class; 256],
    /// Where the last token read started.
    pub(super) last: usize,
    /// Where the last token read ended (where the parser's last one did, before any).
    pub(super) end: usize,
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
