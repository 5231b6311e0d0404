//! `.md5scale`: the Quake II re-release's per-frame joint scales, a JSON file beside an
//! `.md5anim` (`NAME.md5scale` for `NAME.md5anim`).
//!
//! **Source.** q2pro `src/refresh/models.c` (`MD5_LoadScales`, `MD5_BuildFrameSkeleton`) and
//! `src/refresh/mesh.c` (`calc_skel_vert`, `lerp_alias_skeleton`), read, not copied; the
//! meaning of the values is [`WeightScales`].
//!
//! **Layout.** One JSON object whose keys are joint names. Each value is an object whose keys
//! are frame numbers (`"12"`) with a number, that joint's scale in that frame (1 where absent),
//! and optionally `"scale_positions": true` for the joint:
//!
//! ```json
//! { "head": { "40": 0, "41": 0, "scale_positions": false } }
//! ```
//!
//! **Quirks, as q2pro reads them.**
//! - A joint the animation does not have, or a frame past its last: a warning, the entry
//!   ignored.
//! - Frame keys are read as C's `atoi` reads them (leading blanks, a sign, digits; the rest
//!   ignored): `"7th"` is frame 7, a key with no digits is frame 0 (a warning says so), a
//!   negative one is past the last frame.
//! - A value that is `true`, `false` or `null` is read by `atof` as 0 (a warning says so);
//!   `scale_positions` is true when its value starts with `t`.
//! - The file is read token by token as jsmn (non-strict) tokenizes it, in file order: a key
//!   given twice counts twice (the later value wins), a joint named twice is read twice, and
//!   numbers are read by `strtof` (`.5`, `+2`, `1.5f` read as numbers, like q2pro does).
//! - A string, array or object where a value belongs, anything but an object at the top or
//!   per joint, a byte-order mark or another byte outside ASCII outside a string, and more than
//!   4096 tokens make q2pro ignore the whole file ("Invalid JSON data"); here each is an error
//!   naming line and column.
//! - A value that is not a finite `f32` (`1e39`, `inf`) would make q2pro draw garbage; it is
//!   read as 1 with a warning.
//! - An empty file means no scales.

use crate::error::{Error, ErrorKind, Location, Result};
use crate::model::WeightScales;

/// Format name of `.md5scale` files in errors.
pub const SCALE_FORMAT: &str = "md5scale";

/// A `.md5scale` read against an animation: the scales and what was ignored.
#[derive(Debug, Clone, PartialEq)]
pub struct ReadScales {
    /// The scales, one row per frame and one entry per joint of `joints`.
    pub scales: WeightScales,
    /// Entries ignored or read leniently, as q2pro warns of them.
    pub warnings: Vec<String>,
}

/// Where byte `offset` of `text` is, as `line:column` (both from 1).
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text.as_bytes()[..offset.min(text.len())];
    let line = before.iter().filter(|&&b| b == b'\n').count() + 1;
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1);
    (line, offset.min(text.len()) - start + 1)
}

fn error(message: String, line: usize, column: usize) -> Error {
    Error::new(
        SCALE_FORMAT,
        ErrorKind::InvalidValue,
        message,
        Location::LineCol {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column).unwrap_or(u32::MAX),
        },
    )
}

/// C's `atoi` of a frame key: blanks, a sign, digits; `None` when no digit follows.
fn atoi(key: &str) -> Option<i64> {
    let s = key.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let (neg, s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    // Saturate: any key this long is past every frame anyway.
    let v = s[..digits].parse::<i64>().unwrap_or(i64::MAX);
    Some(if neg { -v } else { v })
}

/// q2pro's token budget (`jsmntok_t tokens[4096]`): a file with more tokens is refused.
pub const MAX_TOKENS: usize = 4096;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Object,
    Array,
    String,
    Primitive,
}

/// One token as jsmn (non-strict, as q2pro builds it) makes them: byte range (a string's
/// without its quotes), and the number of children (an object's keys).
#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: Option<usize>,
    size: usize,
}

/// jsmn's non-strict tokenizer: strings with escapes, and any other run of printable
/// characters up to a blank, `,`, `:`, `]` or `}` is a primitive. `Err(offset, why)` where
/// jsmn fails (an unclosed string or object, a bad escape, a control or non-ASCII byte outside
/// a string, a bracket closing the wrong kind, more than [`MAX_TOKENS`] tokens).
fn tokenize(text: &[u8]) -> std::result::Result<Vec<Token>, (usize, String)> {
    let mut tokens: Vec<Token> = Vec::new();
    let mut sup: Option<usize> = None;
    let open_parent = |tokens: &[Token], below: usize| -> Option<usize> {
        (0..below).rev().find(|&i| {
            tokens[i].end.is_none() && matches!(tokens[i].kind, Kind::Object | Kind::Array)
        })
    };
    let push = |tokens: &mut Vec<Token>, t: Token, at: usize| {
        if tokens.len() >= MAX_TOKENS {
            return Err((
                at,
                format!("more than {MAX_TOKENS} JSON tokens, which q2pro's reader refuses"),
            ));
        }
        tokens.push(t);
        Ok(tokens.len() - 1)
    };
    // A string or primitive spanning `span`, counted in its parent `sup`'s size.
    let push_leaf = |tokens: &mut Vec<Token>,
                     kind: Kind,
                     span: std::ops::Range<usize>,
                     at: usize,
                     sup: Option<usize>| {
        let token = Token {
            kind,
            start: span.start,
            end: Some(span.end),
            size: 0,
        };
        push(tokens, token, at)?;
        if let Some(p) = sup {
            tokens[p].size += 1;
        }
        Ok(())
    };
    let mut i = 0;
    while i < text.len() {
        let c = text[i];
        match c {
            b'{' | b'[' => {
                if let Some(p) = sup {
                    tokens[p].size += 1;
                }
                let kind = if c == b'{' { Kind::Object } else { Kind::Array };
                let t = push(
                    &mut tokens,
                    Token {
                        kind,
                        start: i,
                        end: None,
                        size: 0,
                    },
                    i,
                )?;
                sup = Some(t);
            }
            b'}' | b']' => {
                let kind = if c == b'}' { Kind::Object } else { Kind::Array };
                let open = (0..tokens.len()).rev().find(|&k| tokens[k].end.is_none());
                match open {
                    Some(k) if tokens[k].kind == kind => {
                        tokens[k].end = Some(i + 1);
                        sup = (0..k).rev().find(|&p| tokens[p].end.is_none());
                    }
                    _ => return Err((i, format!("`{}` closes nothing of its kind", c as char))),
                }
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                loop {
                    match text.get(j) {
                        None => return Err((i, "a string is not closed".into())),
                        Some(b'"') => break,
                        Some(b'\\') => match text.get(j + 1) {
                            Some(b'"' | b'/' | b'\\' | b'b' | b'f' | b'r' | b'n' | b't') => j += 2,
                            Some(b'u') => {
                                let hex = text.get(j + 2..j + 6);
                                if !hex.is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit)) {
                                    return Err((j, "a bad \\u escape".into()));
                                }
                                j += 6;
                            }
                            _ => return Err((j, "a bad escape".into())),
                        },
                        Some(_) => j += 1,
                    }
                }
                push_leaf(&mut tokens, Kind::String, start..j, i, sup)?;
                i = j;
            }
            b'\t' | b'\r' | b'\n' | b' ' => {}
            b':' => sup = tokens.len().checked_sub(1),
            b',' => {
                if let Some(p) = sup {
                    if !matches!(tokens[p].kind, Kind::Object | Kind::Array) {
                        sup = open_parent(&tokens, tokens.len());
                    }
                }
            }
            _ => {
                let start = i;
                let mut j = i;
                while let Some(&b) = text.get(j) {
                    if matches!(b, b'\t' | b'\r' | b'\n' | b' ' | b',' | b']' | b'}' | b':') {
                        break;
                    }
                    if !(32..127).contains(&b) {
                        return Err((j, format!("byte 0x{b:02x} outside a string")));
                    }
                    j += 1;
                }
                push_leaf(&mut tokens, Kind::Primitive, start..j, i, sup)?;
                i = j;
                continue;
            }
        }
        i += 1;
    }
    if let Some(t) = tokens.iter().find(|t| t.end.is_none()) {
        return Err((t.start, "an object or array is not closed".into()));
    }
    Ok(tokens)
}

/// C's `strtof` of a primitive: the longest number at its start (blanks, sign, digits with a
/// point and an exponent, `inf`, `infinity`, `nan`, hexadecimal), 0 when there is none.
fn strtof(s: &str) -> f32 {
    let t = s.trim_start_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let b = t.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i = 1;
    }
    let neg = b.first() == Some(&b'-');
    let rest = t[i..].to_ascii_lowercase();
    if rest.starts_with("inf") {
        return if neg {
            f32::NEG_INFINITY
        } else {
            f32::INFINITY
        };
    }
    if rest.starts_with("nan") {
        return f32::NAN;
    }
    if let Some(hex) = rest.strip_prefix("0x") {
        let digits: String = hex.chars().take_while(char::is_ascii_hexdigit).collect();
        let v = u64::from_str_radix(&digits, 16).map_or(0.0, |v| v as f32);
        return if neg { -v } else { v };
    }
    let mut j = i;
    let digits = |j: &mut usize| {
        let s = *j;
        while b.get(*j).is_some_and(u8::is_ascii_digit) {
            *j += 1;
        }
        *j - s
    };
    let mut n = digits(&mut j);
    if b.get(j) == Some(&b'.') {
        j += 1;
        n += digits(&mut j);
    }
    if n == 0 {
        return 0.0;
    }
    if matches!(b.get(j), Some(b'e' | b'E')) {
        let mut k = j + 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if digits(&mut k) > 0 {
            j = k;
        }
    }
    t[..j].parse::<f32>().unwrap_or(0.0)
}

/// Reads a `.md5scale` for an animation of `frames` frames over the joints `joints` (by name,
/// in the animation's joint order) as q2pro's `MD5_LoadScales` reads it, token by token in
/// file order (a later entry overrides an earlier one, a joint named twice is read twice).
/// Errors (with line and column) where q2pro refuses the whole file ("Invalid JSON data");
/// unknown joints, frames past the last and lenient readings are warnings.
pub fn parse_scales(data: &[u8], joints: &[&str], frames: usize) -> Result<ReadScales> {
    let mut scales = WeightScales::unit(frames, joints.len());
    let mut warnings = Vec::new();
    let text = String::from_utf8_lossy(data);
    let at = |offset: usize, why: String| {
        let (l, c) = line_column(&text, offset.min(text.len()));
        error(why, l, c)
    };
    let tokens = tokenize(data).map_err(|(o, why)| at(o, why))?;
    let Some(first) = tokens.first() else {
        return Ok(ReadScales { scales, warnings });
    };
    if first.kind != Kind::Object {
        return Err(at(
            first.start,
            "the top level is not an object of joint names".into(),
        ));
    }
    let slice =
        |t: &Token| String::from_utf8_lossy(&data[t.start..t.end.unwrap_or(t.start)]).into_owned();
    let mut k = 1;
    while k < tokens.len() {
        let key = tokens[k];
        if key.kind != Kind::String {
            return Err(at(
                key.start,
                format!("{} where a joint name belongs", slice(&key)),
            ));
        }
        let joint = slice(&key);
        let j = joints.iter().position(|n| *n == joint);
        if j.is_none() {
            warnings.push(format!(
                "md5scale: no joint {joint:?} in the animation; its scales are ignored"
            ));
        }
        k += 1;
        let Some(obj) = tokens.get(k).filter(|t| t.kind == Kind::Object) else {
            let where_ = tokens.get(k).map_or(data.len(), |t| t.start);
            return Err(at(
                where_,
                format!("joint {joint:?}: its value is not an object of frame numbers"),
            ));
        };
        let count = obj.size;
        k += 1;
        if tokens.len() - k < count * 2 {
            return Err(at(
                obj.start,
                format!("joint {joint:?}: an entry has no value"),
            ));
        }
        for _ in 0..count {
            let (key, value) = (tokens[k], tokens[k + 1]);
            k += 2;
            if key.kind != Kind::String || value.kind != Kind::Primitive {
                return Err(at(
                    value.start,
                    format!(
                        "joint {joint:?}: key {:?}: the value is not a number or true/false",
                        slice(&key)
                    ),
                ));
            }
            let Some(j) = j else { continue };
            let key = slice(&key);
            let value = slice(&value);
            if key == "scale_positions" {
                scales.scale_positions[j] = value.starts_with('t');
                continue;
            }
            let mut number = strtof(&value);
            if !value
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c))
            {
                warnings.push(format!(
                    "md5scale: joint {joint:?}, frame {key:?}: {value} is not a number; read as {number}, as q2pro reads it"
                ));
            }
            if !number.is_finite() {
                warnings.push(format!(
                    "md5scale: joint {joint:?}, frame {key:?}: {value} is not a finite scale (q2pro would draw garbage); read as 1"
                ));
                number = 1.0;
            }
            let frame = match atoi(&key) {
                Some(f) => f.clamp(i64::from(i32::MIN), i64::from(i32::MAX)),
                None => {
                    warnings.push(format!(
                        "md5scale: joint {joint:?}: key {key:?} is not a frame number; read as frame 0, as q2pro reads it"
                    ));
                    0
                }
            };
            match usize::try_from(frame).ok().filter(|&f| f < frames) {
                Some(f) => scales.frames[f][j] = number,
                None => warnings.push(format!(
                    "md5scale: joint {joint:?}: no frame {frame} (the animation has {frames}); ignored"
                )),
            }
        }
    }
    Ok(ReadScales { scales, warnings })
}

/// The number of JSON tokens [`write_scales`] writes for `scales` (q2pro reads at most
/// [`MAX_TOKENS`]).
pub fn token_count(scales: &WeightScales) -> usize {
    let joints = scales.scale_positions.len();
    1 + (0..joints)
        .filter(|&j| scales.scales_joint(j))
        .map(|j| {
            let entries = scales
                .frames
                .iter()
                .filter(|f| f.get(j).is_some_and(|s| *s != 1.0))
                .count()
                + usize::from(scales.scale_positions.get(j).copied().unwrap_or(false));
            2 + 2 * entries
        })
        .sum::<usize>()
}

/// Writes `scales` over the joints `joints` (names in joint order) as a `.md5scale`: per joint
/// that scales, the frames whose scale is not 1 in frame order, then `"scale_positions": true`
/// where set. Numbers are written in the shortest form that reads back to the same `f32`.
pub fn write_scales(scales: &WeightScales, joints: &[&str]) -> String {
    let mut out = String::from("{");
    let mut first_joint = true;
    for (j, name) in joints.iter().enumerate() {
        if !scales.scales_joint(j) {
            continue;
        }
        out.push_str(if first_joint { "\n" } else { ",\n" });
        first_joint = false;
        out.push('\t');
        out.push_str(&serde_json::to_string(name).unwrap_or_default());
        out.push_str(": {");
        let mut first = true;
        for (f, row) in scales.frames.iter().enumerate() {
            let s = row.get(j).copied().unwrap_or(1.0);
            if s == 1.0 {
                continue;
            }
            out.push_str(if first { "\n\t\t" } else { ",\n\t\t" });
            first = false;
            // JSON has no infinities: those are left out (the Model's check refuses them).
            let value = if s.is_finite() {
                format!("{s}")
            } else {
                "1".to_string()
            };
            out.push_str(&format!("\"{f}\": {value}"));
        }
        if scales.scale_positions.get(j).copied().unwrap_or(false) {
            out.push_str(if first { "\n\t\t" } else { ",\n\t\t" });
            first = false;
            out.push_str("\"scale_positions\": true");
        }
        out.push_str(if first { "}" } else { "\n\t}" });
    }
    out.push_str(if first_joint { "}\n" } else { "\n}\n" });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoi_reads_as_c_does() {
        assert_eq!(atoi("12"), Some(12));
        assert_eq!(atoi(" 7th"), Some(7));
        assert_eq!(atoi("-3"), Some(-3));
        assert_eq!(atoi("x"), None);
        assert_eq!(atoi("99999999999999999999999"), Some(i64::MAX));
    }

    #[test]
    fn writes_and_reads_back() {
        let mut s = WeightScales::unit(3, 2);
        s.frames[1][0] = 0.0;
        s.frames[2][0] = 0.333_333_34;
        s.scale_positions[1] = true;
        let text = write_scales(&s, &["a", "b q"]);
        let back = parse_scales(text.as_bytes(), &["a", "b q"], 3).unwrap();
        assert_eq!(back.scales, s, "{text}");
        assert!(back.warnings.is_empty());
        assert_eq!(write_scales(&WeightScales::unit(2, 2), &["a", "b"]), "{}\n");
    }

    #[test]
    fn read_in_file_order_as_jsmn_and_strtof_read_it() {
        let names = ["a"];
        // A joint named twice is read twice; within a joint the later key wins.
        let r = parse_scales(br#"{"a":{"0":0},"a":{"1":0,"1":2}}"#, &names, 2).unwrap();
        assert_eq!(r.scales.frames, vec![vec![0.0], vec![2.0]]);
        // "01" and "1" are both frame 1: the later in the file counts.
        let r = parse_scales(br#"{"a":{"1":3,"01":4}}"#, &names, 2).unwrap();
        assert_eq!(r.scales.frames[1][0], 4.0);
        // strtof: .5, +2, 1.5f.
        let r = parse_scales(br#"{"a":{"0":.5,"1":+2}}"#, &names, 2).unwrap();
        assert_eq!(r.scales.frames, vec![vec![0.5], vec![2.0]]);
        assert_eq!(strtof("1.5f"), 1.5);
        assert_eq!(strtof("1e"), 1.0);
        // Out of range: read as 1 with a warning.
        let r = parse_scales(br#"{"a":{"0":1e39}}"#, &names, 1).unwrap();
        assert_eq!(r.scales.frames[0][0], 1.0);
        assert!(
            r.warnings[0].contains("not a finite scale"),
            "{:?}",
            r.warnings
        );
        // A byte-order mark is a byte outside ASCII outside a string: refused.
        let e = parse_scales(b"\xef\xbb\xbf{}", &names, 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "md5scale: byte 0xef outside a string at line 1:1"
        );
        // More than 4096 tokens: refused, as q2pro refuses it.
        let mut big = String::from("{\"a\":{");
        for f in 0..2100 {
            big.push_str(&format!("\"{f}\":1,"));
        }
        big.push_str("\"0\":1}}");
        let e = parse_scales(big.as_bytes(), &names, 1).unwrap_err();
        assert!(e.to_string().contains("more than 4096 JSON tokens"), "{e}");
        let mut s = WeightScales::unit(3000, 1);
        s.frames[5][0] = 0.0;
        assert_eq!(token_count(&s), 5);
        for f in &mut s.frames {
            f[0] = 2.0;
        }
        assert!(token_count(&s) > MAX_TOKENS);
    }
}
