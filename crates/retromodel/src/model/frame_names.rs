//! Frame names that fit a format's name field and keep the clips apart.
//!
//! Quake MDL, MD2, MD3 and 3D GameStudio MDL store no clips, only a 16-byte name per frame;
//! readers and engines (QuakeC's `$frame` macros, [`super::clips_from_frame_names`]) find
//! the clips again from the names: consecutive frames whose names differ in a trailing
//! number. So each clip's frames are named `STEM1`, `STEM2`, ... with a stem no other clip
//! has, that does not end in a digit (`attack1` becomes `attack1_`, so that `attack1_2` and
//! `attack2_2` stay apart), and that leaves room for the numbers. Stems that are too long
//! first lose a prefix all clip names share up to a separator (`hud_`), then their middle
//! (the start and the distinguishing end are kept); a stem that still clashes with another
//! ends in a letter instead (`_b`, `_c`, ...). Names that already fit and give the model's
//! clips back are kept as they are.

use super::{clips_from_frame_names, Model};

/// How the frames were renamed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Renamed {
    /// Per clip whose frame names changed: the clip's name and the names of its first and
    /// last frame (`("hud_pistol-shoot2", "pistol-shoot2_1", "pistol-shoot2_13")`).
    pub clips: Vec<(String, String, String)>,
    /// How many of those clips got a stem shorter than their name.
    pub shortened: usize,
}

/// Characters a frame name keeps: ASCII letters, digits, `_` and `-` (QuakeC macro names and
/// every engine take them); anything else becomes `_`.
fn clean(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "frame".into()
    } else {
        s
    }
}

/// Whether the frame names fit `max_bytes` and give the model's clips back.
fn names_work(model: &Model, max_bytes: usize) -> bool {
    if model.frames.iter().any(|f| f.name.len() > max_bytes) {
        return false;
    }
    let found = clips_from_frame_names(
        model.frames.iter().map(|f| f.name.as_str()).enumerate(),
        1.0,
    );
    // Every clip must be a run of its own (frames outside clips may form runs too).
    model.clips.iter().all(|clip| {
        found
            .iter()
            .any(|c| c.first == clip.first && c.count == clip.count)
    })
}

/// Renames the frames of `model` so that every name fits `max_bytes` bytes and each clip's
/// frames share a stem of their own ([module docs](self)). `max_bytes` 0 changes nothing.
pub fn fit_frame_names(model: &mut Model, max_bytes: usize) -> Renamed {
    let mut out = Renamed::default();
    if max_bytes == 0 || names_work(model, max_bytes) {
        // Frames outside every clip may still be too long.
        for f in &mut model.frames {
            cut(&mut f.name, max_bytes);
        }
        return out;
    }
    let mut order: Vec<usize> = (0..model.clips.len()).collect();
    order.sort_by_key(|&i| model.clips[i].first);
    let names: Vec<String> = order.iter().map(|&i| clean(&model.clips[i].name)).collect();
    // The shared prefix goes from every clip's stem when some stem is too long with it.
    let room_of = |ci: usize| {
        let digits = model.clips[ci].count.max(1).to_string().len();
        max_bytes.saturating_sub(digits).max(1)
    };
    let too_long = order
        .iter()
        .zip(&names)
        .any(|(&ci, n)| n.len() + usize::from(ends_in_digit(n)) > room_of(ci));
    let prefix = if too_long {
        common_prefix(&names)
    } else {
        String::new()
    };
    let mut taken: Vec<String> = Vec::new();
    for (&ci, name) in order.iter().zip(&names) {
        let clip = &model.clips[ci];
        let room = room_of(ci);
        let mut stem = name[prefix.len()..].to_string();
        if ends_in_digit(&stem) {
            stem.push('_');
        }
        if stem.len() > room {
            stem = squeeze(&stem, room);
            out.shortened += 1;
        }
        let stem = unique(stem, room, &taken);
        taken.push(stem.clone());
        let end = (clip.first + clip.count).min(model.frames.len());
        for (k, f) in (clip.first..end).enumerate() {
            model.frames[f].name = format!("{stem}{}", k + 1);
        }
        if clip.first < end {
            out.clips.push((
                clip.name.clone(),
                model.frames[clip.first].name.clone(),
                model.frames[end - 1].name.clone(),
            ));
        }
    }
    for f in &mut model.frames {
        cut(&mut f.name, max_bytes);
    }
    out
}

fn ends_in_digit(s: &str) -> bool {
    s.bytes().last().is_some_and(|b| b.is_ascii_digit())
}

/// Cuts a name to `max` bytes at a character boundary.
fn cut(name: &mut String, max: usize) {
    if name.len() > max {
        let mut end = max;
        while !name.is_char_boundary(end) {
            end -= 1;
        }
        name.truncate(end);
    }
}

/// The prefix all names share, up to and including its last `_` or `-`; empty when there
/// is one name or none is shared.
fn common_prefix(names: &[String]) -> String {
    let [first, rest @ ..] = names else {
        return String::new();
    };
    if rest.is_empty() {
        return String::new();
    }
    let mut len = first.len();
    for n in rest {
        len = first
            .bytes()
            .zip(n.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
    }
    match first[..len].rfind(['_', '-']) {
        // Keep something of every name.
        Some(i) if names.iter().all(|n| n.len() > i + 1) => first[..=i].to_string(),
        _ => String::new(),
    }
}

/// A stem of `room` bytes keeping the start and the end of `stem` (ASCII, see [`clean`]).
fn squeeze(stem: &str, room: usize) -> String {
    let tail = room / 2;
    let head = room - tail;
    format!("{}{}", &stem[..head], &stem[stem.len() - tail..])
}

/// `stem`, or when another clip has it, `stem` ending in `_b`, `_c`, ... within `room`.
fn unique(stem: String, room: usize, taken: &[String]) -> String {
    if !taken.contains(&stem) {
        return stem;
    }
    for c in b'b'..=b'z' {
        let mut s = stem.clone();
        cut(&mut s, room.saturating_sub(2));
        s.push('_');
        s.push(c as char);
        if !taken.contains(&s) {
            return s;
        }
    }
    // 25 clips cut to the same stem: numbered letters run out; fall back to a counter
    // spelled in letters.
    let mut n = taken.len();
    let mut s = String::new();
    while n > 0 || s.is_empty() {
        s.insert(0, (b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    let mut base = stem;
    cut(&mut base, room.saturating_sub(s.len() + 1));
    format!("{base}_{s}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Clip, Frame};

    fn model(clips: &[(&str, usize)]) -> Model {
        let mut m = Model::default();
        for &(name, count) in clips {
            let first = m.frames.len();
            for k in 0..count {
                m.frames.push(Frame {
                    name: format!("{name}{}", k + 1),
                    ..Frame::default()
                });
            }
            m.clips.push(Clip {
                name: name.into(),
                first,
                count,
                fps: 10.0,
                frame_times: None,
            });
        }
        m
    }

    fn regrouped(m: &Model) -> Vec<(usize, usize)> {
        clips_from_frame_names(m.frames.iter().map(|f| f.name.as_str()).enumerate(), 10.0)
            .iter()
            .map(|c| (c.first, c.count))
            .collect()
    }

    #[test]
    fn names_that_work_are_kept() {
        let mut m = model(&[("stand", 5), ("run", 6)]);
        let before = m.clone();
        assert_eq!(fit_frame_names(&mut m, 15), Renamed::default());
        assert_eq!(m, before);
    }

    #[test]
    fn long_clips_stay_apart_and_fit() {
        let mut m = model(&[
            ("hud_pistol-shoot", 12),
            ("hud_pistol-shoot2", 10),
            ("hud_sword-attack1", 20),
            ("hud_sword-attack2", 20),
            ("hud_smg-reload", 40),
        ]);
        let r = fit_frame_names(&mut m, 15);
        assert!(
            m.frames.iter().all(|f| f.name.len() <= 15),
            "{:?}",
            m.frames
        );
        let want: Vec<(usize, usize)> = m.clips.iter().map(|c| (c.first, c.count)).collect();
        assert_eq!(regrouped(&m), want);
        assert_eq!(r.clips.len(), 5);
        // Stems are distinct.
        let mut stems: Vec<String> = m
            .frames
            .iter()
            .map(|f| f.name.trim_end_matches(|c: char| c.is_ascii_digit()).into())
            .collect();
        stems.dedup();
        let n = stems.len();
        stems.sort();
        stems.dedup();
        assert_eq!(stems.len(), n);
    }

    #[test]
    fn clips_ending_in_digits_get_a_separator() {
        let mut m = model(&[("attack1", 3), ("attack2", 3)]);
        // "attack11".."attack13" and "attack21".. would read back as one clip "attack".
        fit_frame_names(&mut m, 15);
        assert_eq!(m.frames[0].name, "attack1_1");
        assert_eq!(regrouped(&m), [(0, 3), (3, 3)]);
    }

    #[test]
    fn clashing_stems_end_in_letters() {
        let mut m = model(&[("abcdefghijklmnopqrs", 2), ("abcdefghijklmnopqrs", 2)]);
        m.frames[2].name = "x1".into(); // break the runs so renaming is needed
        fit_frame_names(&mut m, 8);
        assert_eq!(regrouped(&m), [(0, 2), (2, 2)]);
        assert!(m.frames.iter().all(|f| f.name.len() <= 8));
    }
}
