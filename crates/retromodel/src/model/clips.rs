//! Clips from frame names: consecutive frames whose names differ only in a trailing number
//! (`run1`..`run6`) form one clip (`run`).

use super::Clip;

/// Strips the trailing decimal digits of a frame name (`run12` -> `run`).
fn base_name(name: &str) -> &str {
    name.trim_end_matches(|c: char| c.is_ascii_digit())
}

/// Groups consecutive frames by name stem into clips played at `fps`.
///
/// `names` yields `(frame index, name)`; a gap in the indices also ends a clip. A frame whose
/// name is empty or all digits gets the stem `frame`.
pub fn clips_from_frame_names<'a>(
    names: impl IntoIterator<Item = (usize, &'a str)>,
    fps: f32,
) -> Vec<Clip> {
    let mut clips: Vec<Clip> = Vec::new();
    for (index, name) in names {
        let stem = match base_name(name) {
            "" => "frame",
            s => s,
        };
        match clips.last_mut() {
            Some(c) if c.name == stem && c.first + c.count == index => c.count += 1,
            _ => clips.push(Clip {
                name: stem.to_string(),
                first: index,
                count: 1,
                fps,
                frame_times: None,
            }),
        }
    }
    clips
}

/// The clip a viewer opens on, by name: an idle or standing clip when there is one (a
/// Quake 3 player's `animation.cfg` starts with `BOTH_DEATH1`; `LEGS_IDLE` is what the game
/// shows), else the first. Names are compared without case, by their start.
pub fn opening_clip<'a>(names: impl IntoIterator<Item = &'a str>) -> usize {
    let names: Vec<String> = names.into_iter().map(str::to_ascii_lowercase).collect();
    let find = |prefixes: &[&str]| {
        names
            .iter()
            .position(|n| prefixes.iter().any(|p| n.starts_with(p)))
    };
    find(&["legs_idle"])
        .or_else(|| find(&["torso_stand"]))
        .or_else(|| find(&["idle", "stand"]))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_stems_form_clips() {
        let names = [
            "stand1", "stand2", "run1", "run2", "run3", "pain", "stand3", "12",
        ];
        let clips = clips_from_frame_names(names.iter().copied().enumerate(), 10.0);
        let got: Vec<(&str, usize, usize)> = clips
            .iter()
            .map(|c| (c.name.as_str(), c.first, c.count))
            .collect();
        assert_eq!(
            got,
            [
                ("stand", 0, 2),
                ("run", 2, 3),
                ("pain", 5, 1),
                ("stand", 6, 1),
                ("frame", 7, 1)
            ]
        );
    }
}

#[cfg(test)]
mod opening {
    use super::opening_clip;

    #[test]
    fn idle_before_death() {
        assert_eq!(
            opening_clip(["BOTH_DEATH1", "BOTH_DEAD1", "TORSO_STAND", "LEGS_IDLE"]),
            3
        );
        assert_eq!(opening_clip(["death", "stand", "run"]), 1);
        assert_eq!(opening_clip(["run", "pain"]), 0);
        assert_eq!(opening_clip(std::iter::empty::<&str>()), 0);
    }
}
