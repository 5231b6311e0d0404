//! The `info` summary of a GoldSrc file: the header, and the sequences (frames, fps, group
//! file, blends, events), body parts with their sub-models, skin families and textures with
//! their flags.

use super::raw::File;
use crate::io::names::name_str;
use crate::model::Converted;
use crate::summary::{Summary, Value};

/// Summarises a parsed studio file and its converted model.
pub fn summary(file: &File<'_>, converted: &Converted) -> Summary {
    let h = &file.header;
    let v3 = |v: [f32; 3]| Value::Floats(v.to_vec());
    let mut header = vec![
        ("ident", Value::Text("IDST".into())),
        ("name", Value::Text(h.name())),
        ("length", Value::Int(h.length as i64)),
        ("eyeposition", v3(h.eye_position)),
        ("min", v3(h.min)),
        ("max", v3(h.max)),
        ("bbmin", v3(h.bbmin)),
        ("bbmax", v3(h.bbmax)),
        ("flags", Value::Int(h.flags as i64)),
    ];
    for (name, v) in super::Header::FIELDS.iter().zip(h.fields) {
        header.push((name, Value::Int(v as i64)));
    }
    let groups: Vec<String> = file.seq_groups.iter().map(|g| name_str(&g.name)).collect();
    let sequences: Vec<String> = file
        .sequences
        .iter()
        .map(|s| {
            let g = s.seq_group.max(0) as usize;
            let from = match groups.get(g) {
                Some(n) if g > 0 && !n.is_empty() => n.clone(),
                _ if g > 0 => format!("group {g}"),
                _ => "this file".into(),
            };
            format!(
                "{}: {} frames at {} fps{}, {} blend{}, {} events, from {from}",
                s.label(),
                s.num_frames,
                s.fps,
                if s.looping() { ", loops" } else { "" },
                s.num_blends,
                if s.num_blends == 1 { "" } else { "s" },
                s.events.len()
            )
        })
        .collect();
    header.push(("sequences", Value::Text(sequences.join("; "))));
    let parts: Vec<String> = file
        .body_parts
        .iter()
        .map(|b| {
            let models: Vec<String> = b.models.iter().map(|m| m.name()).collect();
            format!("{} ({})", b.name(), models.join(" | "))
        })
        .collect();
    header.push(("body_parts", Value::Text(parts.join("; "))));
    let families = h.num_skin_families().max(0) as usize;
    // Each family's texture per skin reference, in words (`0, 1; 0, 2`): the web page's
    // info panel shows these rows as they are.
    let rows: Vec<String> = (0..families)
        .map(|f| {
            let refs: Vec<String> = file.skin_family(f).iter().map(|t| t.to_string()).collect();
            refs.join(", ")
        })
        .collect();
    header.push(("skin_families", Value::Text(rows.join("; "))));
    let textures: Vec<String> = file
        .textures
        .iter()
        .map(|t| {
            let flags = t.flag_names();
            let flags = if flags.is_empty() {
                String::new()
            } else {
                format!(" ({})", flags.join(", "))
            };
            format!("{} {}x{}{flags}", t.name(), t.width, t.height)
        })
        .collect();
    header.push(("textures", Value::Text(textures.join("; "))));
    let mut s = Summary::of_model(super::FORMAT, converted);
    s.version = h.version as i64;
    s.header = header;
    s.skins = file.textures.len();
    s.skin_names = file.textures.iter().map(|t| t.name()).collect();
    s.trailing_bytes = file.gap_bytes();
    s
}
