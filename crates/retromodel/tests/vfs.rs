//! The virtual file system: PAK and ZIP archives generated here, game folders stacked in the
//! engines' override order, invalid archives with their exact errors, and the real OpenArena
//! `mp-pak0.pk3` of the corpus.

mod common;

use std::path::{Path, PathBuf};

use retromodel::vfs::{self, pak, GameFs, GameFsResolver};
use retromodel::{ErrorKind, Limits, Resolver};

/// A fresh empty folder under the system's temporary folder.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("retromodel-vfs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn read_all(a: &dyn vfs::Archive) -> Vec<(String, Vec<u8>)> {
    (0..a.entries().len())
        .map(|i| {
            (
                a.entries()[i].path.clone(),
                a.read(i, &Limits::default()).unwrap(),
            )
        })
        .collect()
}

fn files() -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("progs/player.mdl", b"IDPO player".to_vec()),
        ("gfx/palette.lmp", (0..=255u8).cycle().take(768).collect()),
        ("maps/e1m1.bsp", vec![7u8; 5000]),
        ("empty.txt", Vec::new()),
    ]
}

/// Opens `bytes`, checks the archive's kind and that it holds exactly [`files`], in order.
fn assert_holds_files(bytes: Vec<u8>, format: &str) {
    let a = vfs::open_bytes(bytes, &Limits::default()).unwrap();
    assert_eq!(a.format(), format);
    let want: Vec<(String, Vec<u8>)> = files()
        .into_iter()
        .map(|(p, b)| (p.to_string(), b))
        .collect();
    assert_eq!(read_all(a.as_ref()), want);
    assert!(a.warnings().is_empty());
}

#[test]
fn pak_round_trip_every_entry() {
    let files = files();
    let list: Vec<(&str, &[u8])> = files.iter().map(|(p, b)| (*p, b.as_slice())).collect();
    let bytes = pak::write(&list).unwrap();
    assert_eq!(&bytes[..4], b"PACK");
    assert_holds_files(bytes, "pak");
}

#[test]
fn zip_stored_and_deflated_round_trip() {
    let files = files();
    for deflate in [false, true] {
        let list: Vec<(&str, &[u8], bool)> = files
            .iter()
            .map(|(p, b)| (*p, b.as_slice(), deflate))
            .collect();
        assert_holds_files(vfs::zip::write(&list).unwrap(), "zip");
    }
}

#[test]
fn unsafe_and_duplicate_names_are_left_out_with_warnings() {
    let bytes = pak::write(&[
        ("../evil.txt", b"x"),
        ("C:/evil.txt", b"y"),
        ("ok/a.txt", b"first"),
        ("ok\\a.txt", b"second"),
        ("./ok//b.txt", b"b"),
    ])
    .unwrap();
    let a = vfs::open_bytes(bytes, &Limits::default()).unwrap();
    let paths: Vec<&str> = a.entries().iter().map(|e| e.path.as_str()).collect();
    assert_eq!(paths, ["ok/a.txt", "ok/b.txt"]);
    assert_eq!(a.read(0, &Limits::default()).unwrap(), b"first");
    assert_eq!(
        a.warnings(),
        [
            "pak: entry 0: \"../evil.txt\" is not a path inside the archive; left out",
            "pak: entry 1: \"C:/evil.txt\" is not a path inside the archive; left out",
            "pak: entry 3: a second \"ok/a.txt\"; the first one is used",
        ]
    );
}

fn pak_error(bytes: Vec<u8>, limits: &Limits) -> (ErrorKind, String) {
    let e = vfs::open_bytes(bytes, limits).err().expect("must fail");
    (e.kind, e.to_string())
}

fn good_pak() -> Vec<u8> {
    pak::write(&[("a.txt", b"hello"), ("b.txt", b"world!")]).unwrap()
}

#[test]
fn invalid_pak_archives_give_exact_errors() {
    let limits = Limits::default();
    assert_eq!(
        pak_error(b"PACK\0\0".to_vec(), &limits),
        (
            ErrorKind::Truncated,
            "pak: header needs 12 bytes, 6 present at offset 0x0".into()
        )
    );
    assert_eq!(
        pak_error(b"PAKK\0\0\0\0\0\0\0\0".to_vec(), &limits),
        (
            ErrorKind::BadMagic,
            "archive: bad magic \"PAKK\" (expected \"PACK\" or \"PK\\x03\\x04\") at offset 0x0"
                .into()
        )
    );
    // Truncated directory: the last entry's bytes are cut off.
    let mut b = good_pak();
    b.truncate(b.len() - 10);
    assert_eq!(
        pak_error(b, &limits),
        (ErrorKind::Truncated, "pak: directory (128 bytes at 0x17) runs past the end of the archive (141 bytes) at offset 0x4".into())
    );
    // An entry whose bytes lie past the end.
    let mut b = good_pak();
    let dirofs = u32::from_le_bytes(b[4..8].try_into().unwrap()) as usize;
    b[dirofs + 64 + 60..dirofs + 64 + 64].copy_from_slice(&1000i32.to_le_bytes());
    assert_eq!(
        pak_error(b, &limits),
        (ErrorKind::Truncated, "pak: entry 1 (\"b.txt\"): 1000 bytes at 17 lie outside the archive (151 bytes) at offset 0x8f".into())
    );
    // A negative position.
    let mut b = good_pak();
    b[dirofs + 56..dirofs + 60].copy_from_slice(&(-5i32).to_le_bytes());
    assert_eq!(
        pak_error(b, &limits).1,
        "pak: entry 0 (\"a.txt\"): 5 bytes at -5 lie outside the archive (151 bytes) at offset 0x4f"
    );
    // A directory size that is not whole entries.
    let mut b = good_pak();
    b[8..12].copy_from_slice(&100i32.to_le_bytes());
    assert_eq!(
        pak_error(b, &limits),
        (
            ErrorKind::InvalidValue,
            "pak: directory size 100 is not a multiple of 64 at offset 0x8".into()
        )
    );
    // Absurd counts: negative, then more entries than the limits allow.
    let mut b = good_pak();
    b[8..12].copy_from_slice(&(-64i32).to_le_bytes());
    assert_eq!(
        pak_error(b, &limits),
        (
            ErrorKind::BadCount,
            "pak: negative directory offset or size (dirofs = 23, dirlen = -64) at offset 0x4"
                .into()
        )
    );
    let tight = Limits {
        max_count: 1,
        ..Limits::default()
    };
    assert_eq!(
        pak_error(good_pak(), &tight),
        (
            ErrorKind::LimitExceeded,
            "pak: 2 entries exceed the limit of 1 at offset 0x8".into()
        )
    );
    let mut b = good_pak();
    b[4..8].copy_from_slice(&0x7fff_0000i32.to_le_bytes());
    assert_eq!(
        pak_error(b, &limits).1,
        "pak: directory (128 bytes at 0x7fff0000) runs past the end of the archive (151 bytes) at offset 0x4"
    );
}

/// A ZIP whose one entry declares `declared` bytes uncompressed but inflates to `real`.
fn zip_with_declared_size(real: usize, declared: u32) -> Vec<u8> {
    let data = vec![0u8; real];
    let mut b = vfs::zip::write(&[("bomb.bin", &data, true)]).unwrap();
    // Patch the uncompressed size in the local header (offset 22) and in the central
    // directory entry (offset 24 from its signature).
    b[22..26].copy_from_slice(&declared.to_le_bytes());
    let cd = b.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    b[cd + 24..cd + 28].copy_from_slice(&declared.to_le_bytes());
    b
}

#[test]
fn zip_bombs_fail_fast() {
    // Declares more than the limit: refused before inflating.
    let limits = Limits {
        max_alloc_bytes: 1 << 20,
        ..Limits::default()
    };
    let a = vfs::open_bytes(zip_with_declared_size(2 << 20, 2 << 20), &limits).unwrap();
    let e = a.read(0, &limits).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded);
    assert_eq!(
        e.to_string(),
        "zip: \"bomb.bin\": 2097152 bytes uncompressed exceed the allocation limit of 1048576 bytes"
    );
    // Declares little and inflates to much more: inflating stops one byte past the claim.
    let a = vfs::open_bytes(zip_with_declared_size(8 << 20, 1000), &limits).unwrap();
    let e = a.read(0, &limits).unwrap_err();
    assert_eq!(
        e.to_string(),
        "zip: \"bomb.bin\": cannot inflate: File is larger than its declared uncompressed size"
    );
}

#[test]
fn invalid_zip_archives_give_exact_errors() {
    let good = vfs::zip::write(&[("a.txt", b"hello hello hello", true)]).unwrap();
    // The central directory cut off.
    let cut = good[..good.len() - 30].to_vec();
    let e = vfs::open_bytes(cut, &Limits::default()).err().unwrap();
    assert_eq!(e.format, "zip");
    assert_eq!(
        e.to_string(),
        "zip: not a valid archive: Could not find EOCD"
    );
    // An entry whose data lies past the end: the central directory moved away from it.
    let tight = Limits {
        max_count: 0,
        ..Limits::default()
    };
    let e = vfs::open_bytes(good.clone(), &tight).err().unwrap();
    assert_eq!(e.to_string(), "zip: 1 entries exceed the limit of 0");
}

/// Writes `files` into `dir` as loose files.
fn write_loose(dir: &Path, files: &[(&str, &[u8])]) {
    for (p, b) in files {
        let path = dir.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, b).unwrap();
    }
}

fn read_str(fs: &GameFs, path: &str) -> Option<String> {
    fs.read(path)
        .map(|r| String::from_utf8(r.unwrap()).unwrap())
}

#[test]
fn game_dir_override_order() {
    let dir = temp_dir("order");
    let pak = |files: &[(&str, &[u8])]| pak::write(files).unwrap();
    std::fs::write(
        dir.join("pak0.pak"),
        pak(&[
            ("a.txt", b"pak0"),
            ("b.txt", b"pak0"),
            ("c.txt", b"pak0"),
            ("d.txt", b"pak0"),
            ("e.txt", b"pak0"),
        ]),
    )
    .unwrap();
    std::fs::write(
        dir.join("pak1.pak"),
        pak(&[
            ("b.txt", b"pak1"),
            ("c.txt", b"pak1"),
            ("d.txt", b"pak1"),
            ("e.txt", b"pak1"),
        ]),
    )
    .unwrap();
    // pak10 sorts after pak9 by number, not before pak2 by name.
    std::fs::write(
        dir.join("pak10.pak"),
        pak(&[
            ("c.txt", b"pak10"),
            ("d.txt", b"pak10"),
            ("e.txt", b"pak10"),
        ]),
    )
    .unwrap();
    std::fs::write(dir.join("pak9.pak"), pak(&[("c.txt", b"pak9")])).unwrap();
    let zip = |files: &[(&str, &[u8], bool)]| vfs::zip::write(files).unwrap();
    std::fs::write(dir.join("zz.pk3"), zip(&[("e.txt", b"zz", true)])).unwrap();
    std::fs::write(
        dir.join("aa.pk3"),
        zip(&[("d.txt", b"aa", false), ("e.txt", b"aa", true)]),
    )
    .unwrap();
    write_loose(
        &dir,
        &[
            ("f.txt", b"loose"),
            ("e.txt", b"loose"),
            ("sub/g.txt", b"loose"),
        ],
    );
    std::fs::write(dir.join("broken.pk3"), b"PK\x03\x04 not really").unwrap();

    let mut fs = GameFs::new(&Limits::default());
    fs.mount_game_dir(&dir).unwrap();
    assert_eq!(read_str(&fs, "a.txt").as_deref(), Some("pak0"));
    assert_eq!(read_str(&fs, "b.txt").as_deref(), Some("pak1"));
    assert_eq!(read_str(&fs, "c.txt").as_deref(), Some("pak10"));
    assert_eq!(read_str(&fs, "d.txt").as_deref(), Some("aa"));
    assert_eq!(read_str(&fs, "e.txt").as_deref(), Some("loose"));
    assert_eq!(read_str(&fs, "sub/g.txt").as_deref(), Some("loose"));
    assert_eq!(read_str(&fs, "sub\\g.txt").as_deref(), Some("loose"));
    assert_eq!(read_str(&fs, "missing.txt"), None);
    assert_eq!(read_str(&fs, "../order/a.txt"), None);
    // The broken archive is left out with a warning naming it.
    assert_eq!(fs.warnings().len(), 1, "{:?}", fs.warnings());
    assert!(
        fs.warnings()[0].contains("broken.pk3: zip: "),
        "{:?}",
        fs.warnings()
    );
    let names: Vec<String> = fs
        .layer_names()
        .iter()
        .map(|n| {
            Path::new(n)
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        names,
        [
            "pak0.pak",
            "pak1.pak",
            "pak9.pak",
            "pak10.pak",
            "aa.pk3",
            "zz.pk3",
            format!("retromodel-vfs-{}-order", std::process::id()).as_str()
        ]
    );
    // The listing has each path once, with the winning copy's source.
    let files = fs.files();
    let e = files.iter().find(|f| f.path == "e.txt").unwrap();
    assert_eq!(e.size, 5);
    assert!(!e.source.ends_with(".pk3"), "{}", e.source);
    let d = files.iter().find(|f| f.path == "d.txt").unwrap();
    assert!(d.source.ends_with("aa.pk3"), "{}", d.source);
    assert_eq!(files.iter().filter(|f| f.path.ends_with(".txt")).count(), 7);
    // One folder of every layer, each name once; sizes from the winning copy.
    assert_eq!(
        fs.list_dir("", "TXT"),
        ["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"]
    );
    assert_eq!(fs.list_dir("sub", "txt"), ["sub/g.txt"]);
    assert_eq!(fs.size_of("e.txt"), Some(5));
    assert_eq!(fs.size_of("d.txt"), Some(2));
    assert_eq!(fs.size_of("nope.txt"), None);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn case_insensitive_lookup_when_asked() {
    let dir = temp_dir("case");
    write_loose(&dir, &[("Models/Tank/Skin.PCX", b"loose")]);
    let archive = vfs::zip::write(&[("Textures/Wall.TGA", b"zipped", true)]).unwrap();
    for insensitive in [false, true] {
        let mut fs = GameFs::new(&Limits::default()).case_insensitive(insensitive);
        fs.add_archive(
            "a.pk3",
            vfs::open_bytes(archive.clone(), &Limits::default()).unwrap(),
        );
        fs.add_dir(&dir);
        let want = |s: &str| insensitive.then(|| s.to_string());
        assert_eq!(read_str(&fs, "models/tank/skin.pcx"), want("loose"));
        assert_eq!(read_str(&fs, "textures/wall.tga"), want("zipped"));
        let listed = |dir: &str, ext: &str| fs.list_dir(dir, ext);
        let expect = |p: &str| {
            if insensitive {
                vec![p.to_string()]
            } else {
                vec![]
            }
        };
        assert_eq!(listed("textures", "tga"), expect("Textures/Wall.TGA"));
        assert_eq!(listed("models/tank", "pcx"), expect("models/tank/Skin.PCX"));
        // Exact spellings are found either way.
        assert_eq!(
            read_str(&fs, "Models/Tank/Skin.PCX").as_deref(),
            Some("loose")
        );
        assert_eq!(
            read_str(&fs, "Textures/Wall.TGA").as_deref(),
            Some("zipped")
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn resolver_finds_side_files_in_the_model_folder_and_from_the_root() {
    let archive = vfs::zip::write(&[
        ("models/ufo/box.md2", b"model", true),
        ("models/ufo/box.jpg", b"jpeg", true),
        ("models/ufo/walk.md5anim", b"anim", true),
        ("models/ufo/run.MD5ANIM", b"anim", true),
        ("models/ufo/sub/x.md5anim", b"anim", true),
        ("pics/colormap.pcx", b"pcx", true),
    ])
    .unwrap();
    let mut fs = GameFs::new(&Limits::default());
    fs.add_archive(
        "a.pk3",
        vfs::open_bytes(archive, &Limits::default()).unwrap(),
    );
    let r = GameFsResolver::new(&fs, "models/ufo/box.md2");
    assert_eq!(r.load("pics/colormap.pcx").as_deref(), Some(&b"pcx"[..]));
    assert_eq!(r.load("box.jpg").as_deref(), Some(&b"jpeg"[..]));
    assert_eq!(r.load(".box.jpg").as_deref(), Some(&b"jpeg"[..]));
    assert_eq!(r.load("elsewhere/box.jpg").as_deref(), Some(&b"jpeg"[..]));
    assert_eq!(r.load("../../pics/colormap.pcx"), None);
    assert_eq!(
        r.list("md5anim"),
        ["models/ufo/run.MD5ANIM", "models/ufo/walk.md5anim"]
    );
}

#[test]
fn a_bare_name_is_found_beside_the_model_before_the_root() {
    // the web page's case: a loose picture at the top of the tree and the model's own in its
    // archive folder (an MD2's `.body03a`); the one beside the model wins
    let archive = vfs::zip::write(&[
        ("body03a.jpg", b"loose", true),
        ("models/civilians/female/head.md2", b"model", true),
        ("models/civilians/female/body03a.jpg", b"beside", true),
        ("models/civilians/other.jpg", b"parent", true),
        ("other.jpg", b"root", true),
        ("only_root.jpg", b"root only", true),
    ])
    .unwrap();
    let mut fs = GameFs::new(&Limits::default());
    fs.add_archive(
        "a.pk3",
        vfs::open_bytes(archive, &Limits::default()).unwrap(),
    );
    let r = GameFsResolver::new(&fs, "models/civilians/female/head.md2");
    assert_eq!(r.load("body03a.jpg").as_deref(), Some(&b"beside"[..]));
    assert_eq!(r.load(".body03a.jpg").as_deref(), Some(&b"beside"[..]));
    // a game path reads as given
    assert_eq!(
        r.load("models/civilians/female/body03a.jpg").as_deref(),
        Some(&b"beside"[..])
    );
    // not beside: the parent folder, then the root
    assert_eq!(r.load("other.jpg").as_deref(), Some(&b"parent"[..]));
    assert_eq!(r.load("only_root.jpg").as_deref(), Some(&b"root only"[..]));
    assert_eq!(
        r.candidates("body03a.jpg"),
        [
            "models/civilians/female/body03a.jpg",
            "models/civilians/body03a.jpg",
            "models/body03a.jpg",
            "body03a.jpg"
        ]
    );
}

#[test]
fn a_bare_name_beside_a_model_at_the_archive_root() {
    // the model's folder is the root: beside, parents and root are one path
    let archive =
        vfs::zip::write(&[("tris.md2", b"model", true), ("skin.pcx", b"pcx", true)]).unwrap();
    let mut fs = GameFs::new(&Limits::default());
    fs.add_archive(
        "a.pk3",
        vfs::open_bytes(archive, &Limits::default()).unwrap(),
    );
    let r = GameFsResolver::new(&fs, "tris.md2");
    assert_eq!(r.candidates("skin.pcx"), ["skin.pcx"]);
    assert_eq!(r.load("skin.pcx").as_deref(), Some(&b"pcx"[..]));
    assert_eq!(r.load(".skin.pcx").as_deref(), Some(&b"pcx"[..]));
    assert_eq!(r.load("missing.pcx"), None);
}

#[test]
fn corpus_openarena_pk3_matches_its_header_row() {
    let Some(corpus) = common::corpus_dir() else {
        return;
    };
    let rel = "archives/debian-openarena-data/missionpack/mp-pak0.pk3";
    let row = std::fs::read_to_string(corpus.join("HEADERS.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|v| v["path"] == rel)
        .expect("a HEADERS.jsonl row for the archive");
    let a = vfs::open_file(&corpus.join(rel), &Limits::default()).unwrap();
    assert_eq!(a.format(), "zip");
    // The archive holds `../CREDITS` and `../COPYING`: left out, as they lie outside its tree.
    assert_eq!(
        a.warnings(),
        [
            "zip: entry 0: \"../CREDITS\" is not a path inside the archive; left out",
            "zip: entry 1: \"../COPYING\" is not a path inside the archive; left out",
        ]
    );
    assert_eq!(a.entries().len() as u64 + 2, row["files"].as_u64().unwrap());
    let count_ext = |ext: &str| {
        a.entries()
            .iter()
            .filter(|e| e.path.to_ascii_lowercase().ends_with(ext))
            .count() as u64
    };
    assert_eq!(count_ext(".md3"), row["md3_files"].as_u64().unwrap());
    assert_eq!(count_ext(".tga"), row["tga"].as_u64().unwrap());
    assert_eq!(count_ext(".jpg"), row["jpg"].as_u64().unwrap());
    assert_eq!(count_ext(".skin"), row["skins"].as_u64().unwrap());
    // Every entry inflates to its declared size and CRC.
    let mut total = 0u64;
    for i in 0..a.entries().len() {
        let bytes = a.read(i, &Limits::default()).unwrap();
        assert_eq!(bytes.len() as u64, a.entries()[i].size);
        total += bytes.len() as u64;
    }
    assert!(total > row["bytes"].as_u64().unwrap(), "inflated {total}");
}

#[test]
fn side_names_follow_one_rule_on_disk_and_in_archives() {
    use retromodel::vfs::{side_name, Archives, PathResolver};
    assert_eq!(
        side_name("models\\tank\\.skin.pcx"),
        (
            Some("models/tank/.skin.pcx".to_string()),
            Some("skin.pcx".to_string())
        )
    );
    assert_eq!(side_name("../x/skin.pcx"), (None, Some("skin.pcx".into())));
    assert_eq!(side_name("C:skin.pcx"), (None, None));
    assert_eq!(
        side_name("C:\\q\\skin.pcx"),
        (None, Some("skin.pcx".into()))
    );
    // The same model and side files on disk and in a PAK: found, or not, alike.
    let dir = temp_dir("side-names");
    std::fs::create_dir_all(dir.join("models/tank")).unwrap();
    std::fs::create_dir_all(dir.join("pics")).unwrap();
    std::fs::write(dir.join("models/tank/tris.md2"), b"model").unwrap();
    std::fs::write(dir.join("models/tank/skin.pcx"), b"skin").unwrap();
    std::fs::write(dir.join("pics/colormap.pcx"), b"pcx").unwrap();
    let pak_path = dir.join("game.pak");
    std::fs::write(
        &pak_path,
        pak::write(&[
            ("models/tank/tris.md2", b"model"),
            ("models/tank/skin.pcx", b"skin"),
            ("pics/colormap.pcx", b"pcx"),
        ])
        .unwrap(),
    )
    .unwrap();
    let archives = Archives::new(&Limits::default(), false);
    let on_disk = PathResolver::new(&archives, &dir.join("models/tank/tris.md2"), None, None);
    let inner = vfs::archive_path(&pak_path, "models/tank/tris.md2");
    let in_pak = PathResolver::new(&archives, &inner, None, None);
    for (name, found) in [
        ("pics/colormap.pcx", true),
        ("skin.pcx", true),
        ("elsewhere/.skin.pcx", true),
        ("C:\\tank\\skin.pcx", true),
        ("C:skin.pcx", false),
        ("../../pics/colormap.pcx", false),
    ] {
        assert_eq!(on_disk.load(name).is_some(), found, "on disk: {name}");
        assert_eq!(in_pak.load(name).is_some(), found, "in the PAK: {name}");
    }
    // The archive is opened once for the run.
    assert!(std::sync::Arc::ptr_eq(
        &archives.open(&pak_path).unwrap(),
        &archives.open(&pak_path).unwrap()
    ));
    assert_eq!(archives.read(&inner).unwrap(), b"model");
    assert_eq!(
        archives
            .read(&vfs::archive_path(&pak_path, "x.mdl"))
            .unwrap_err()
            .to_string(),
        format!("{}: no \"x.mdl\" in the archive", pak_path.display())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
