//! The byte rules every syntax shares (whitespace, forbidden control bytes), the shape of a
//! decimal number, and how token text is quoted in messages and decoded (UTF-8, else
//! Latin-1).

use super::syntax::Kind;

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
