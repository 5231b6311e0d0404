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
//! - A string, array or object where a value belongs, or anything but an object at the top or
//!   per joint, makes q2pro ignore the whole file ("Invalid JSON data"); here it is an error
//!   naming line and column.
//! - A key given twice: the last one counts.
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

/// Reads a `.md5scale` for an animation of `frames` frames over the joints `joints` (by name,
/// in the animation's joint order). Errors (with line and column) where q2pro would reject
/// the file; unknown joints, frames past the last and lenient readings are warnings.
pub fn parse_scales(data: &[u8], joints: &[&str], frames: usize) -> Result<ReadScales> {
    let text = std::str::from_utf8(data).map_err(|e| {
        let (l, c) = line_column(
            &String::from_utf8_lossy(&data[..e.valid_up_to()]),
            e.valid_up_to(),
        );
        error("the file is not UTF-8 text".to_string(), l, c)
    })?;
    let mut scales = WeightScales::unit(frames, joints.len());
    let mut warnings = Vec::new();
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        return Ok(ReadScales { scales, warnings });
    }
    let body = text.trim_start_matches('\u{feff}');
    let skipped = text.len() - body.len();
    let root: serde_json::Value = serde_json::from_str(body).map_err(|e| {
        let (l, c) = (e.line(), e.column());
        let c = if l == 1 { c + skipped.min(1) } else { c };
        error(format!("not JSON: {e}"), l, c)
    })?;
    // serde_json keeps no positions: find each joint's object in the text for messages.
    let locate = |needle: &str| -> (usize, usize) {
        let quoted = serde_json::to_string(needle).unwrap_or_default();
        text.find(&quoted)
            .map_or((1, 1), |offset| line_column(text, offset))
    };
    let serde_json::Value::Object(map) = root else {
        return Err(error(
            "the top level is not an object of joint names".to_string(),
            1,
            1,
        ));
    };
    for (joint, entries) in &map {
        let serde_json::Value::Object(entries) = entries else {
            let (l, c) = locate(joint);
            return Err(error(
                format!("joint {joint:?}: its value is not an object of frame numbers"),
                l,
                c,
            ));
        };
        // Values are checked before the joint is looked up, as q2pro checks them.
        for (key, value) in entries {
            if matches!(
                value,
                serde_json::Value::String(_)
                    | serde_json::Value::Array(_)
                    | serde_json::Value::Object(_)
            ) {
                let (l, c) = locate(key);
                return Err(error(
                    format!(
                        "joint {joint:?}: key {key:?}: the value is not a number or true/false"
                    ),
                    l,
                    c,
                ));
            }
        }
        let Some(j) = joints.iter().position(|n| n == joint) else {
            warnings.push(format!(
                "md5scale: no joint {joint:?} in the animation; its scales are ignored"
            ));
            continue;
        };
        for (key, value) in entries {
            if key == "scale_positions" {
                scales.scale_positions[j] = matches!(value, serde_json::Value::Bool(true));
                continue;
            }
            let number = match value {
                serde_json::Value::Number(n) => n.as_f64().unwrap_or(0.0) as f32,
                other => {
                    warnings.push(format!(
                        "md5scale: joint {joint:?}, frame {key:?}: {other} is not a number; \
                         read as 0, as q2pro reads it"
                    ));
                    0.0
                }
            };
            let frame = match atoi(key) {
                Some(f) => f,
                None => {
                    warnings.push(format!(
                        "md5scale: joint {joint:?}: key {key:?} is not a frame number; \
                         read as frame 0, as q2pro reads it"
                    ));
                    0
                }
            };
            match usize::try_from(frame).ok().filter(|&f| f < frames) {
                Some(f) => scales.frames[f][j] = number,
                None => warnings.push(format!(
                    "md5scale: joint {joint:?}: no frame {frame} (the animation has {frames}); \
                     ignored"
                )),
            }
        }
    }
    Ok(ReadScales { scales, warnings })
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
        let text = write_scales(&s, &["a", "b\"q"]);
        let back = parse_scales(text.as_bytes(), &["a", "b\"q"], 3).unwrap();
        assert_eq!(back.scales, s, "{text}");
        assert!(back.warnings.is_empty());
        assert_eq!(write_scales(&WeightScales::unit(2, 2), &["a", "b"]), "{}\n");
    }
}
