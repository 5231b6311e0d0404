//! Every Half-Life (GoldSrc) file of the corpus (`IDST` models and texture files, `IDSQ`
//! sequence groups): parses, writes back byte for byte, agrees with the independent parser's
//! `HEADERS.jsonl`, and the sequence groups of each model read with it. Nothing from the
//! corpus is copied.

mod common;

use std::path::Path;

use retromodel::formats::goldsrc::{self, AnyFile, File};
use retromodel::Limits;
use serde_json::Value;

fn f3(v: &Value) -> [f32; 3] {
    std::array::from_fn(|i| v[i].as_f64().unwrap() as f32)
}

/// Every field `HEADERS.jsonl` lists for a studio model, compared with the parse.
fn agree(what: &str, file: &File, row: &Value) {
    let h = &file.header;
    assert_eq!(row["ident"], "IDST", "{what}");
    assert_eq!(row["version"], h.version, "{what}");
    assert_eq!(row["name"], h.name(), "{what}");
    assert_eq!(row["length"], h.length, "{what}");
    assert_eq!(
        row["bytes"].as_u64().unwrap(),
        file.write().len() as u64,
        "{what}"
    );
    for (key, v) in [
        ("eyeposition", h.eye_position),
        ("min", h.min),
        ("max", h.max),
        ("bbmin", h.bbmin),
        ("bbmax", h.bbmax),
    ] {
        assert_eq!(f3(&row[key]), v, "{what}: {key}");
    }
    assert_eq!(row["flags"], h.flags, "{what}");
    for (i, name) in goldsrc::Header::FIELDS.iter().enumerate() {
        assert_eq!(row[*name], h.fields[i], "{what}: {name}");
    }
    let names: Vec<String> = file.bones.iter().map(|b| b.name()).collect();
    assert_eq!(common::str_array(&row["bone_names"]), names, "{what}");
    let parents: Vec<i64> = file.bones.iter().map(|b| b.parent as i64).collect();
    let want: Vec<i64> = row["bone_parents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_i64().unwrap())
        .collect();
    assert_eq!(want, parents, "{what}");
    assert_eq!(
        row["bonecontrollers"].as_array().unwrap().len(),
        file.controllers.len(),
        "{what}"
    );
    for (hb, want) in file
        .hitboxes
        .iter()
        .zip(row["hitboxes"].as_array().unwrap())
    {
        assert_eq!(want["bone"], hb.bone, "{what}");
        assert_eq!(want["group"], hb.group, "{what}");
    }
    let seqs = row["sequences"].as_array().unwrap();
    assert_eq!(seqs.len(), file.sequences.len(), "{what}");
    for (s, want) in file.sequences.iter().zip(seqs) {
        assert_eq!(want["label"], s.label(), "{what}");
        assert_eq!(want["fps"].as_f64().unwrap() as f32, s.fps, "{what}");
        for (key, v) in [
            ("flags", s.flags),
            ("activity", s.activity),
            ("numevents", s.event_index[0]),
            ("numframes", s.num_frames),
            ("motiontype", s.motion_type),
            ("numblends", s.num_blends),
            ("seqgroup", s.seq_group),
        ] {
            assert_eq!(want[key], v, "{what}: sequence {}: {key}", s.label());
        }
        assert_eq!(s.events.len(), s.event_index[0] as usize, "{what}");
    }
    let groups = row["seqgroups"].as_array().unwrap();
    assert_eq!(groups.len(), file.seq_groups.len(), "{what}");
    for (g, want) in file.seq_groups.iter().zip(groups) {
        assert_eq!(
            want["label"],
            retromodel::io::names::name_str(&g.label),
            "{what}"
        );
        assert_eq!(
            want["name"],
            retromodel::io::names::name_str(&g.name),
            "{what}"
        );
    }
    let textures = row["textures"].as_array().unwrap();
    assert_eq!(textures.len(), file.textures.len(), "{what}");
    for (t, want) in file.textures.iter().zip(textures) {
        assert_eq!(want["name"], t.name(), "{what}");
        assert_eq!(want["flags"], t.flags, "{what}");
        assert_eq!(want["width"], t.width, "{what}");
        assert_eq!(want["height"], t.height, "{what}");
        assert_eq!(want["index"], t.index, "{what}");
        assert_eq!(t.pixels.len(), (t.width * t.height) as usize, "{what}");
    }
    let skins = row["skins"].as_array().unwrap();
    for (fam, want) in skins.iter().enumerate() {
        let want: Vec<i16> = want
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() as i16)
            .collect();
        assert_eq!(
            file.skin_family(fam),
            &want[..],
            "{what}: skin family {fam}"
        );
    }
    let parts = row["bodyparts"].as_array().unwrap();
    assert_eq!(parts.len(), file.body_parts.len(), "{what}");
    for (b, want) in file.body_parts.iter().zip(parts) {
        assert_eq!(want["name"], b.name(), "{what}");
        assert_eq!(want["nummodels"], b.num_models, "{what}");
        assert_eq!(want["base"], b.base, "{what}");
        for (m, want) in b.models.iter().zip(want["models"].as_array().unwrap()) {
            assert_eq!(want["name"], m.name(), "{what}");
            assert_eq!(
                want["nummesh"].as_u64().unwrap(),
                m.meshes.len() as u64,
                "{what}"
            );
            assert_eq!(
                want["numverts"].as_u64().unwrap(),
                m.vertices.len() as u64,
                "{what}"
            );
            assert_eq!(
                want["numnorms"].as_u64().unwrap(),
                m.normals.len() as u64,
                "{what}"
            );
            let tris: i64 = m.meshes.iter().map(|x| x.num_tris as i64).sum();
            assert_eq!(want["numtris"].as_i64().unwrap(), tris, "{what}");
        }
    }
    let att: Vec<String> = file
        .attachments
        .iter()
        .map(|a| retromodel::io::names::name_str(&a.name))
        .collect();
    assert_eq!(common::str_array(&row["attachment_names"]), att, "{what}");
    assert_eq!(
        row["external_textures"],
        file.has_external_textures(),
        "{what}"
    );
    assert_eq!(
        row["trailing_bytes"].as_u64().unwrap(),
        0,
        "{what}: the corpus rows have none"
    );
}

/// The sequence group file `NAME0N.mdl` beside `model`.
fn group_file(model: &Path, n: usize) -> std::path::PathBuf {
    let stem = model.file_stem().unwrap().to_string_lossy();
    model.with_file_name(format!("{stem}{n:02}.mdl"))
}

#[test]
fn corpus_goldsrc_files_round_trip_and_agree() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let headers = common::headers(&dir);
    let studio = common::files_with_magic(&dir, b"IDST");
    let groups = common::files_with_magic(&dir, b"IDSQ");
    assert!(
        studio.len() >= 17 && groups.len() >= 19,
        "{} IDST, {} IDSQ",
        studio.len(),
        groups.len()
    );
    let (mut compared, mut group_reads, mut channels) = (0, 0, 0);
    for path in studio.iter().chain(&groups) {
        let (what, bytes) = common::read_named(path);
        let file =
            AnyFile::parse(&bytes, &Limits::default()).unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(file.write() == bytes, "{what}: round trip differs");
        let AnyFile::Studio(mut file) = file else {
            continue;
        };
        if let Some(row) = headers.get(&common::relative(&dir, path)) {
            agree(&what, &file, row);
            compared += 1;
        }
        for g in 1..file.seq_groups.len() {
            let gpath = group_file(path, g);
            let data = std::fs::read(&gpath).unwrap_or_else(|e| panic!("{}: {e}", gpath.display()));
            goldsrc::read_group_anims(&mut file, g, &data, &Limits::default())
                .unwrap_or_else(|e| panic!("{}: {e}", gpath.display()));
            group_reads += 1;
        }
        for s in &file.sequences {
            if file.bones.is_empty() {
                continue;
            }
            assert_eq!(
                s.anims.len(),
                (s.num_blends as usize) * file.bones.len(),
                "{what}: {}",
                s.label()
            );
            channels += s
                .anims
                .iter()
                .flat_map(|a| &a.channels)
                .filter(|c| !c.is_empty())
                .count();
        }
    }
    println!("{} IDST, {} IDSQ, {compared} compared with HEADERS.jsonl, {group_reads} group files read, {channels} channels", studio.len(), groups.len());
    assert!(compared >= 2 && group_reads >= 19 && channels > 0);
}
