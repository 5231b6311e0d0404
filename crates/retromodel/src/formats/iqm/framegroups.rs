//! DarkPlaces' `.framegroups` side file (`NAME.iqm.framegroups` beside the model; FTEQW
//! reads it too): one animation per line, `FIRST COUNT [FPS [LOOP [NAME]]]`, frames counted
//! from 0 over the whole file, FPS 20 and LOOP 1 when left out, `//` and `/* */` comments.
//! DarkPlaces (`model_shared.c`) uses these ranges in place of the file's own animations.
//! DarkPlaces' own writer puts the name in a comment after the line, so here the comment
//! names the group when the line has no NAME (`groupified_N_anim` without either, as
//! DarkPlaces calls it).

use super::convert::{add_ranges_from, FrameRange};
use super::raw::File;
use crate::io::SharedBytes;
use crate::model::Converted;

/// The groups of a `.framegroups` text, or the first line that is not one (`line N: ...`).
pub fn parse(text: &str) -> Result<Vec<FrameRange>, String> {
    let mut out = Vec::new();
    let text = strip_block_comments(text);
    for (i, line) in text.lines().enumerate() {
        let (body, comment) = match line.find("//") {
            Some(k) => (&line[..k], line[k + 2..].trim()),
            None => (line, ""),
        };
        let words: Vec<&str> = body.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let bad = |what: &str| format!("line {}: {what} in {:?}", i + 1, line.trim());
        if words.len() < 2 {
            return Err(bad("expected FIRST COUNT [FPS [LOOP [NAME]]]"));
        }
        // Numbers as C's atoi and atof read them (DarkPlaces): the leading number, else 0;
        // a negative first frame is clamped to 0 later.
        let first = atoi(words[0]).max(0) as u32;
        let count = atoi(words[1]).max(0) as u32;
        let fps = words.get(2).map_or(20.0, |w| atof(w));
        let loops = words.get(3).map_or(1, |w| atoi(w));
        let name = words
            .get(4)
            .map(|s| s.trim_matches('"').to_string())
            .or_else(|| (!comment.is_empty()).then(|| comment.to_string()))
            .unwrap_or_else(|| format!("groupified_{}_anim", out.len()));
        out.push(FrameRange {
            name,
            first,
            count,
            // DarkPlaces plays at least 1 frame a second.
            fps: if fps.is_finite() { fps.max(1.0) } else { 20.0 },
            loops: loops != 0,
        });
    }
    Ok(out)
}

/// The leading integer of `w` (C's `atoi`): sign and digits, 0 when there are none.
fn atoi(w: &str) -> i64 {
    let w = w.trim_matches('"');
    let end = w
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && (c == '-' || c == '+'))))
        .map_or(w.len(), |(i, _)| i);
    let digits = &w[..end];
    match digits.parse::<i64>() {
        Ok(v) => v.clamp(-(1 << 31), (1 << 31) - 1),
        // Too many digits for i64: as large as it gets.
        Err(_) if digits.len() > 1 => {
            if digits.starts_with('-') {
                -(1 << 31)
            } else {
                (1 << 31) - 1
            }
        }
        Err(_) => 0,
    }
}

/// The leading number of `w` (C's `atof`), 0 when there is none.
fn atof(w: &str) -> f32 {
    let w = w.trim_matches('"');
    // A number is short: look at the first 32 bytes only.
    let mut n = w.len().min(32);
    while !w.is_char_boundary(n) {
        n -= 1;
    }
    let w = &w[..n];
    (1..=w.len())
        .rev()
        .filter(|&k| w.is_char_boundary(k))
        .find_map(|k| w[..k].parse::<f32>().ok().filter(|v| v.is_finite()))
        .unwrap_or(0.0)
}

/// `text` with `/* ... */` comments replaced by a space (newlines inside kept).
fn strip_block_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(k) = rest.find("/*") {
        out.push_str(&rest[..k]);
        let end = rest[k..].find("*/").map_or(rest.len(), |e| k + e + 2);
        out.extend(rest[k..end].chars().filter(|&c| c == '\n'));
        out.push(' ');
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// The text of a `.framegroups` file for `ranges` (names as comments).
pub fn write(ranges: &[FrameRange]) -> String {
    ranges
        .iter()
        .map(|r| {
            format!(
                "{} {} {} {} // {}\n",
                r.first,
                r.count,
                r.fps,
                u8::from(r.loops),
                r.name
            )
        })
        .collect()
}

/// Replaces the converted model's animations by the groups of `bytes` (the side file
/// `side`), as DarkPlaces does; a file that does not parse is left out with a warning.
/// `source`: the bytes `file` was parsed from, where shared (the frames stay in them, see
/// [`super::file_to_model_from`]).
pub fn apply(
    file: &File<'_>,
    source: Option<&SharedBytes>,
    converted: &mut Converted,
    side: &str,
    bytes: &[u8],
) {
    let text = String::from_utf8_lossy(bytes);
    let groups = match parse(&text) {
        Ok(g) => g,
        Err(e) => {
            converted.warnings.push(format!("{side}: {e}; left out"));
            return;
        }
    };
    if groups.is_empty() {
        // DarkPlaces: "no scene found in framegroups file, aborting".
        converted.warnings.push(format!(
            "{side}: no frame group in it; the file's own animations are kept, as DarkPlaces keeps them"
        ));
        return;
    }
    // Clamped as DarkPlaces clamps them: the first frame into the file, at least one frame.
    let frames = file.header.num_frames.max(1);
    let groups: Vec<FrameRange> = groups
        .into_iter()
        .map(|mut g| {
            g.first = g.first.min(frames - 1);
            g.count = g.count.clamp(1, frames - g.first);
            g
        })
        .collect();
    let model = &mut converted.model;
    model.animations.clear();
    model.animation_scales.clear();
    let mut w = Vec::new();
    add_ranges_from(file, source, &groups, model, &mut w);
    converted
        .warnings
        .extend(w.into_iter().map(|m| format!("{side}: {m}")));
    converted.warnings.push(format!(
        "{side}: {} frame groups used in place of the file's animations, as DarkPlaces does",
        groups.len()
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_parse_and_write_back() {
        let text = "0 10 15 1 // idle\n\n10 5 20 0 run\n/* a\nb */ 15 1 10 0\n16 2\n";
        let g = parse(text).unwrap();
        assert_eq!(g.len(), 4);
        assert_eq!((g[3].fps, g[3].loops), (20.0, true));
        assert_eq!(
            (g[0].first, g[0].count, g[0].fps, g[0].loops),
            (0, 10, 15.0, true)
        );
        assert_eq!(g[0].name, "idle");
        assert_eq!(g[1].name, "run");
        assert_eq!(g[2].name, "groupified_2_anim");
        assert_eq!(parse(&write(&g)).unwrap()[..2], g[..2]);
        // As DarkPlaces' atoi/atof: no number is 0.
        let lenient = parse("-1 x 15fps true \"walk\"\n").unwrap();
        assert_eq!(
            (
                lenient[0].first,
                lenient[0].count,
                lenient[0].fps,
                lenient[0].loops
            ),
            (0, 0, 15.0, false)
        );
        assert_eq!(lenient[0].name, "walk");
        assert_eq!(
            parse("7\n").unwrap_err(),
            "line 1: expected FIRST COUNT [FPS [LOOP [NAME]]] in \"7\""
        );
    }
}
