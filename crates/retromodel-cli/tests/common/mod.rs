//! What the binary's integration tests share: running `retromodel`, its output as text, paths
//! as arguments, PNG pixels and `info --json` lines keyed by path.

// Every test file includes this module and uses a part of it.
#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `retromodel` binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_retromodel"))
}

/// Runs the binary with `args` and waits for it.
pub fn run(args: &[&str]) -> Output {
    bin().args(args).output().expect("binary runs")
}

/// Writes the binary's sample model as `dir/name` (`retromodel sample`; the extension picks
/// the format) and returns its path.
pub fn sample(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    run_ok(&["sample", s(&p)]);
    p
}

/// Writes `bytes` as `dir/name` and returns its path.
pub fn write_file(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// A new temporary folder holding `bytes` as `name`: the folder (removed when dropped) and
/// the file's path.
pub fn temp_file(name: &str, bytes: impl AsRef<[u8]>) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let p = write_file(dir.path(), name, bytes);
    (dir, p)
}

/// Writes the MD5 fixture mesh as `dir/mesh` and its animation beside it as
/// `wave.md5anim`; returns the mesh's path.
pub fn md5_with_anim(dir: &Path, mesh: &str) -> PathBuf {
    use retromodel::formats::md5::fixtures;
    write_file(dir, "wave.md5anim", fixtures::anim());
    write_file(dir, mesh, fixtures::skeleton())
}

/// The string `field` of each object in the JSON array `v`.
pub fn strings<'a>(v: &'a serde_json::Value, field: &str) -> Vec<&'a str> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|o| o[field].as_str().unwrap())
        .collect()
}

/// Runs the binary with `args`; panics with its stderr unless it succeeds.
pub fn run_ok(args: &[&str]) -> Output {
    let out = run(args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

/// Asserts that stdout or stderr bytes contain `needle`, showing them all when not.
pub fn assert_contains(output: &[u8], needle: &str) {
    let t = text(output);
    assert!(t.contains(needle), "{t}");
}

/// Bytes of stdout or stderr as text.
pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every file under `dir`, recursively, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .flat_map(|p| if p.is_dir() { files_under(&p) } else { vec![p] })
        .collect();
    out.sort();
    out
}

/// A PNG's width, height and pixels (palette and low bit depths expanded).
pub fn png_rgba(path: &Path) -> (u32, u32, Vec<u8>) {
    let mut dec = png::Decoder::new(std::fs::File::open(path).unwrap());
    dec.set_transformations(png::Transformations::EXPAND);
    let mut r = dec.read_info().unwrap();
    let mut buf = vec![0; r.output_buffer_size()];
    let info = r.next_frame(&mut buf).unwrap();
    buf.truncate(info.buffer_size());
    (info.width, info.height, buf)
}

// The same corpus look-up as the library's integration tests.
#[path = "../../../retromodel/tests/common/corpus.rs"]
mod corpus;
// Not every test file looks for the corpus.
#[allow(unused_imports)]
pub use corpus::corpus;

/// The rows of the corpus's `HEADERS.jsonl` (the independent parser's), in file order.
pub fn header_rows(dir: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(dir.join("HEADERS.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `info --json` output, one JSON value a line, keyed by each line's `path` relative to
/// `dir`.
pub fn info_by_path(stdout: &[u8], dir: &Path) -> HashMap<String, serde_json::Value> {
    text(stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| {
            let p = PathBuf::from(v["path"].as_str().unwrap());
            let rel = p.strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            (rel, v)
        })
        .collect()
}

/// The JSON chunk of a .glb.
pub fn glb_json(bytes: &[u8]) -> serde_json::Value {
    assert_eq!(&bytes[..4], b"glTF");
    let len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    assert_eq!(&bytes[16..20], b"JSON");
    serde_json::from_slice(&bytes[20..20 + len]).unwrap()
}

/// A generated game folder `dir/name`: `pak0.pk3` holding a Quake MDL and an MD2 from the
/// library's fixtures (at game paths) and a text file, `pak1.pak` holding an MD2 that the
/// folder's loose copy overrides, and loose models beside them. Returns the folder.
pub fn game_folder_with_archives(dir: &Path, name: &str) -> PathBuf {
    use retromodel::formats::{md2, quake_mdl};
    use retromodel::vfs::{pak, zip};
    let game = dir.join(name);
    std::fs::create_dir_all(game.join("progs")).unwrap();
    std::fs::create_dir_all(game.join("models/shadow")).unwrap();
    let mdl = quake_mdl::fixtures::minimal();
    let md2 = md2::fixtures::minimal();
    let pk3 = zip::write(&[
        ("progs/zipped.mdl", &mdl, true),
        ("models/walker/tris.md2", &md2, false),
        ("readme.txt", b"not a model", true),
    ])
    .unwrap();
    write_file(&game, "pak0.pk3", pk3);
    let pak = pak::write(&[("models/shadow/tris.md2", &md2[..])]).unwrap();
    write_file(&game, "pak1.pak", pak);
    write_file(&game.join("progs"), "loose.mdl", &mdl);
    write_file(&game.join("models/shadow"), "tris.md2", &md2);
    game
}

/// A path `info` or `convert` shows for a model of game folder `game` (a file under it, or
/// `ARCHIVE:PATH` of an archive in it) as the path inside the game's tree, as `ls` shows it.
pub fn tree_path(game: &Path, shown: &str) -> String {
    let rest = shown
        .strip_prefix(game.to_str().unwrap())
        .unwrap_or_else(|| panic!("{shown} is not under {}", game.display()))
        .trim_start_matches('/');
    match rest.split_once(':') {
        Some((archive, inner)) => {
            assert!(!archive.contains('/'), "{shown}: an archive of the folder");
            inner.to_string()
        }
        None => rest.to_string(),
    }
}

/// The model paths `ls --models --json PATH` lists, sorted.
pub fn ls_models(path: &Path) -> Vec<String> {
    let out = run_ok(&["ls", s(path), "--models", "--json"]);
    let mut paths: Vec<String> = text(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["path"].as_str().unwrap().to_string()
        })
        .collect();
    paths.sort();
    paths
}

/// The number of frames a keyframe model of `info --json` gets at 10 frames a second, each
/// clip as long as in the source (what `convert` writes for MD2, MD3 and other targets that
/// store no rate): a clip at 10 fps without frame times keeps its frames, the others get
/// `max(1, round(seconds * 10))`; frames outside every clip stay.
pub fn poses_at_10_fps(info: &serde_json::Value) -> u64 {
    let clips = info["clips"].as_array().expect("clips");
    let mut poses = info["poses"].as_u64().expect("poses");
    for c in clips {
        let count = c["count"].as_u64().unwrap();
        let fps = c["fps"].as_f64().unwrap();
        let seconds = c["seconds"].as_f64().unwrap();
        let uniform = (seconds - count as f64 / fps).abs() < 1e-4;
        if uniform && (fps - 10.0).abs() < 1e-3 {
            continue;
        }
        poses = poses - count + ((seconds * 10.0).round() as u64).max(1);
    }
    poses
}
