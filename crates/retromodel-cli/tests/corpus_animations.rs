//! Every animation a model has is listed (issue 39): `info --json` on every corpus IQM lists
//! as many animations from the file itself as its header's `num_anims` (read by the
//! independent parser of `HEADERS.jsonl`), and on every md5mesh one animation per `.md5anim`
//! beside it whose `numJoints` header matches the mesh's, with that file's `numFrames`.

use std::collections::HashMap;
use std::path::Path;

mod common;

use common::{corpus, header_rows, info_by_path, run};

/// The `info --json` objects of every model under `dir/sub` (`extra`: more flags).
fn info_dir(dir: &Path, sub: &str, extra: &[&str]) -> HashMap<String, serde_json::Value> {
    let path = dir.join(sub);
    let mut args = vec!["info", "--json", path.to_str().unwrap()];
    args.extend(extra);
    let out = run(&args);
    info_by_path(&out.stdout, dir)
}

/// The integer after `key` in an MD5 text file's header (`numFrames 32`).
fn md5_header(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|l| {
        let mut w = l.split_whitespace();
        (w.next() == Some(key)).then(|| w.next()?.parse().ok())?
    })
}

fn skeletal(v: &serde_json::Value) -> Vec<&serde_json::Value> {
    v["animations"]
        .as_array()
        .unwrap_or_else(|| panic!("no animations list: {v}"))
        .iter()
        .filter(|a| a["kind"] == "skeletal")
        .collect()
}

#[test]
fn every_corpus_iqm_lists_the_animations_its_header_counts() {
    let Some(dir) = corpus("IQM animation listing") else {
        return;
    };
    let headers: HashMap<String, u64> = header_rows(&dir)
        .into_iter()
        .filter(|v| v["format"] == "iqm")
        .map(|v| {
            (
                v["path"].as_str().unwrap().to_string(),
                v["num_anims"].as_u64().unwrap(),
            )
        })
        .collect();
    let mut infos = info_dir(&dir, "iqm", &[]);
    infos.extend(info_dir(&dir, "assimp", &[]));
    let (mut files, mut with_anims) = (0, 0);
    for (rel, want) in &headers {
        let got = infos
            .get(rel)
            .unwrap_or_else(|| panic!("{rel}: info --json printed nothing"));
        if rel.contains("/invalid/") {
            // Assimp's broken files: refused with an error, nothing to list.
            assert!(got.get("error").is_some(), "{rel}: {got}");
            continue;
        }
        assert!(got.get("error").is_none(), "{rel}: {got}");
        let own = Path::new(rel).file_name().unwrap().to_str().unwrap();
        let listed = skeletal(got);
        let from_file = listed.iter().filter(|a| a["file"] == own).count() as u64;
        assert_eq!(
            from_file, *want,
            "{rel}: animations listed from the file itself"
        );
        for a in &listed {
            assert!(a["frames"].as_u64().unwrap() > 0, "{rel}: {a}");
            assert!(a["fps"].as_f64().is_some(), "{rel}: {a}");
            assert!(a["seconds"].as_f64().is_some(), "{rel}: {a}");
            assert!(a["loop"].is_boolean(), "{rel}: {a}");
        }
        files += 1;
        with_anims += usize::from(*want > 0);
    }
    assert!(files >= 18, "only {files} corpus IQM files");
    assert!(
        with_anims >= 8,
        "only {with_anims} corpus IQM files with animations"
    );
}

#[test]
fn every_corpus_md5mesh_lists_the_md5anims_beside_it() {
    let Some(dir) = corpus("MD5 animation listing") else {
        return;
    };
    // As stored: a Cube 2 md5.cfg's speeds add a frame that holds the last one (issue 28).
    let infos = info_dir(&dir, "md5", &["--no-model-config"]);
    let configured = info_dir(&dir, "md5", &[]);
    let mut meshes = 0;
    let mut anims = 0;
    for (rel, got) in &infos {
        if !rel.ends_with(".md5mesh") {
            continue;
        }
        assert!(got.get("error").is_none(), "{rel}: {got}");
        let path = dir.join(rel);
        let mesh = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
        let joints = md5_header(&mesh, "numJoints").unwrap();
        // The .md5anim files beside it that a Doom 3 loader would accept for this skeleton.
        let mut want: HashMap<String, u64> = HashMap::new();
        for e in std::fs::read_dir(path.parent().unwrap()).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "md5anim") {
                let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
                if md5_header(&text, "numJoints") == Some(joints) {
                    let name = p.file_name().unwrap().to_string_lossy().into_owned();
                    want.insert(name, md5_header(&text, "numFrames").unwrap());
                }
            }
        }
        let listed = skeletal(got);
        assert_eq!(
            listed.len(),
            want.len(),
            "{rel}: {listed:?} against {want:?}"
        );
        assert_eq!(
            skeletal(&configured[rel]).len(),
            want.len(),
            "{rel}, configured"
        );
        for a in listed {
            let file = a["file"].as_str().unwrap();
            assert_eq!(
                a["frames"].as_u64(),
                want.get(file).copied(),
                "{rel}: {file}"
            );
        }
        meshes += 1;
        anims += want.len();
    }
    assert!(meshes >= 15, "only {meshes} corpus md5mesh files");
    assert!(anims >= 20, "only {anims} md5anims beside them");
}
