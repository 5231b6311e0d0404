//! DarkPlaces' `.framegroups` side file (`NAME.iqm.framegroups` beside the model; FTEQW
//! reads it too): one animation per line, `FIRST COUNT [FPS [LOOP [NAME]]]`, frames counted
//! from 0 over the whole file, FPS 20 and LOOP 1 when left out, `//` and `/* */` comments.
//! DarkPlaces (`model_shared.c`) uses these ranges in place of the file's own animations.
//! DarkPlaces' own writer puts the name in a comment after the line, so here the comment
//! names the group when the line has no NAME (`groupified_N_anim` without either, as
//! DarkPlaces calls it).

use super::convert::{add_ranges, FrameRange};
use super::raw::File;
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
        let first: u32 = words[0]
            .parse()
            .map_err(|_| bad("FIRST is not a frame number"))?;
        let count: u32 = words[1].parse().map_err(|_| bad("COUNT is not a number"))?;
        let fps: f32 = match words.get(2) {
            Some(w) => w.parse().map_err(|_| bad("FPS is not a number"))?,
            None => 20.0,
        };
        let loops: i64 = match words.get(3) {
            Some(w) => w.parse().map_err(|_| bad("LOOP is not 0 or 1"))?,
            None => 1,
        };
        let name = words
            .get(4)
            .map(|s| s.to_string())
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
pub fn apply(file: &File<'_>, converted: &mut Converted, side: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let groups = match parse(&text) {
        Ok(g) => g,
        Err(e) => {
            converted.warnings.push(format!("{side}: {e}; left out"));
            return;
        }
    };
    let model = &mut converted.model;
    model.animations.clear();
    model.animation_scales.clear();
    let mut w = Vec::new();
    add_ranges(file, &groups, model, &mut w);
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
        assert_eq!(
            parse("0 x 1 1\n").unwrap_err(),
            "line 1: COUNT is not a number in \"0 x 1 1\""
        );
    }
}
