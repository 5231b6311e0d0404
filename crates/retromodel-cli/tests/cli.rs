//! The `retromodel` binary, end to end, on generated models.

use retromodel::formats::quake_mdl::{fixtures, Frame};

mod common;

use common::{assert_contains, png_rgba, run, run_ok, s, sample, text, write_file};

#[test]
fn every_command_has_help_with_an_example() {
    for cmd in [
        &["info"][..],
        &["validate"],
        &["convert"],
        &["skins"],
        &["skins", "export"],
        &["skins", "import"],
        &["bench"],
        &["sample"],
        &["web"],
    ] {
        let mut args = cmd.to_vec();
        args.push("--help");
        let out = run(&args);
        assert!(out.status.success());
        let help = text(&out.stdout);
        assert!(
            help.contains("Example: `retromodel") || help.contains("Examples:\n  retromodel"),
            "{cmd:?}: {help}"
        );
        assert!(help.contains("Usage: retromodel"), "{cmd:?}");
    }
    let top = text(&run(&["--help"]).stdout);
    for c in ["info", "validate", "convert", "skins", "bench", "sample"] {
        assert!(top.contains(c), "{top}");
    }
}

#[test]
fn info_json_reports_every_key() {
    let dir = tempfile::tempdir().unwrap();
    let p = sample(dir.path(), "demo.mdl");
    let out = run(&["info", "--json", p.to_str().unwrap()]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
    assert_eq!(v["format"], "quake-mdl");
    assert_eq!(v["version"], 6);
    assert_eq!(v["header"]["num_verts"], 6);
    assert_eq!(v["header"]["flags"], 16384);
    assert_eq!(v["header"]["scale"], serde_json::json!([0.25, 0.25, 0.25]));
    assert_eq!(v["vertices"], 6);
    assert_eq!(v["triangles"], 8);
    assert_eq!(v["poses"], 8);
    assert_eq!(v["frame_groups"], 1);
    assert_eq!(v["skins"], 2);
    assert_eq!(v["skin_pictures"], 4);
    assert_eq!(v["joints"], 0);
    assert_eq!(v["meshes"], 1);
    assert_eq!(v["trailing_bytes"], 4);
    assert_eq!(v["warnings"], serde_json::json!([]));
    assert_eq!(
        v["clips"],
        serde_json::json!([
            {"name": "stand", "first": 0, "count": 2, "fps": 10.0, "seconds": 0.2},
            {"name": "run", "first": 2, "count": 3, "fps": 10.0, "seconds": 0.3},
            {"name": "flame", "first": 5, "count": 3, "fps": 10.0, "seconds": 0.35}
        ])
    );
    let human = text(&run(&["info", p.to_str().unwrap()]).stdout);
    assert!(human.contains("quake-mdl version 6"), "{human}");
    assert!(human.contains("8 poses (1 frame groups)"), "{human}");
}

#[test]
fn a_bad_file_is_reported_and_the_rest_still_processed() {
    let dir = tempfile::tempdir().unwrap();
    let good = sample(dir.path(), "demo.mdl");
    let bytes = std::fs::read(&good).unwrap();
    std::fs::write(dir.path().join("broken.mdl"), &bytes[..100]).unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"not a model").unwrap();
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("copy.MDL"), &bytes).unwrap();

    let out = run(&["info", "--json", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "walks subfolders, skips .txt");
    let broken = lines
        .iter()
        .find(|l| l["path"].as_str().unwrap().ends_with("broken.mdl"))
        .unwrap();
    assert_eq!(
        broken["error"],
        "quake-mdl: num_skins = 2 needs at least 4104 bytes but only 16 are left at offset 0x30"
    );
    assert_eq!(
        lines.iter().filter(|l| l["format"] == "quake-mdl").count(),
        2
    );
    assert_contains(&out.stderr, "3 files, 2 ok, 1 failed");

    let missing = run(&["info", dir.path().join("nope.mdl").to_str().unwrap()]);
    assert_eq!(missing.status.code(), Some(1));
    assert_contains(&missing.stderr, "cannot read");
}

#[test]
fn convert_is_byte_exact_and_never_overwrites_by_accident() {
    let dir = tempfile::tempdir().unwrap();
    let p = sample(dir.path(), "demo.mdl");
    let out_path = dir.path().join("copy.mdl");
    let (i, o) = (p.to_str().unwrap(), out_path.to_str().unwrap());
    let out = run_ok(&["convert", i, o]);
    assert_eq!(
        std::fs::read(&p).unwrap(),
        std::fs::read(&out_path).unwrap()
    );
    assert!(text(&out.stderr).contains("byte-identical"));

    let again = run(&["convert", i, o]);
    assert_eq!(again.status.code(), Some(1));
    assert!(text(&again.stderr).contains("exists; pass --force to replace it"));
    let onto_input = run(&["convert", i, i]);
    assert_eq!(onto_input.status.code(), Some(1));
    assert!(run(&["convert", i, o, "--force"]).status.success());

    let md2 = run(&["convert", i, dir.path().join("x.md2").to_str().unwrap()]);
    assert!(md2.status.success(), "{}", text(&md2.stderr));
    assert!(dir.path().join("x_skin0.pcx").is_file());
    let unknown = run(&["convert", i, dir.path().join("x.zzz").to_str().unwrap()]);
    assert!(text(&unknown.stderr).contains("cannot tell the output format"));
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(names.iter().all(|n| !n.contains(".tmp")), "{names:?}");
}

#[test]
fn skins_export_writes_every_picture_and_the_fullbright_mask() {
    let dir = tempfile::tempdir().unwrap();
    let p = sample(dir.path(), "demo.mdl");
    let out_dir = dir.path().join("skins");
    run_ok(&[
        "skins",
        "export",
        p.to_str().unwrap(),
        out_dir.to_str().unwrap(),
        "--fullbright-mask",
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&out_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.contains(&"demo_skin0.png".to_string()), "{names:?}");
    for j in 0..3 {
        assert!(names.contains(&format!("demo_skin1_{j}.png")), "{names:?}");
    }
    assert!(
        names.contains(&"demo_skin0_fullbright.png".to_string()),
        "{names:?}"
    );

    // Pixels are the palette colours of the file's indices; MF_HOLEY makes 255 transparent.
    let bytes = std::fs::read(&p).unwrap();
    let file = retromodel::formats::quake_mdl::File::parse(&bytes, &Default::default()).unwrap();
    let retromodel::formats::quake_mdl::Skin::Single { pixels, .. } = &file.skins[0] else {
        panic!()
    };
    let (w, h, rgba) = png_rgba(&out_dir.join("demo_skin0.png"));
    assert_eq!((w, h), (64, 32));
    let pal = retromodel::image::Palette::QUAKE;
    for (k, &i) in pixels.iter().enumerate() {
        let c = pal.rgb(i);
        let a = if i == 255 { 0 } else { 255 };
        assert_eq!(&rgba[k * 4..k * 4 + 4], &[c[0], c[1], c[2], a], "pixel {k}");
    }
    let (_, _, mask) = png_rgba(&out_dir.join("demo_skin0_fullbright.png"));
    for (k, &i) in pixels.iter().enumerate() {
        // MF_HOLEY: 255 is a hole, transparent in the mask too.
        let want = match i {
            255 => [0, 0, 0, 0],
            224.. => {
                let c = pal.rgb(i);
                [c[0], c[1], c[2], 255]
            }
            _ => [0, 0, 0, 255],
        };
        assert_eq!(&mask[k * 4..k * 4 + 4], &want, "mask pixel {k}");
    }

    // A palette given on the command line replaces the built-in one.
    let grey: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
    let lmp = write_file(dir.path(), "palette.lmp", grey);
    let out_dir2 = dir.path().join("grey");
    run_ok(&[
        "skins",
        "export",
        p.to_str().unwrap(),
        out_dir2.to_str().unwrap(),
        "--palette",
        lmp.to_str().unwrap(),
    ]);
    let (_, _, rgba) = png_rgba(&out_dir2.join("demo_skin0.png"));
    assert_eq!(&rgba[..3], &[pixels[0]; 3]);
    let bad = run(&[
        "info",
        p.to_str().unwrap(),
        "--palette",
        p.to_str().unwrap(),
    ]);
    assert_contains(
        &bad.stderr,
        &format!("palette-lmp: {}: expected 768 bytes", p.display()),
    );
}

#[test]
fn validate_fails_on_bad_group_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let good = sample(dir.path(), "demo.mdl");
    let ok = run(&["validate", good.to_str().unwrap()]);
    assert!(ok.status.success(), "{}", text(&ok.stdout));
    assert!(text(&ok.stdout).contains("ok (quakespasm)"));

    let mut file = fixtures::build(&fixtures::Spec {
        frame_group: true,
        ..Default::default()
    });
    if let Some(Frame::Group { intervals, .. }) = file.frames.last_mut() {
        intervals[1] = 0.0;
    }
    let bad = write_file(dir.path(), "bad.mdl", file.write());
    let out = run(&["validate", bad.to_str().unwrap(), "--engine", "quake"]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(
        &out.stdout,
        "error: frame 2: group interval 1 is 0 (must be > 0)",
    );
    // info still reads it, with the warning.
    let info = run(&["info", "--json", bad.to_str().unwrap()]);
    assert!(info.status.success());
    assert!(text(&info.stdout).contains("frame 2: group interval 1 is 0 (must be > 0)"));

    let wrong = run(&["validate", good.to_str().unwrap(), "--engine", "doom"]);
    assert_eq!(wrong.status.code(), Some(2), "clap rejects unknown engines");
}

#[test]
fn bench_takes_a_file_list_and_lists_each_file() {
    // The lists bench/compare.sh gives both tools: one path per line, empty lines skipped.
    let dir = tempfile::tempdir().unwrap();
    let good = sample(dir.path(), "demo.mdl");
    let bad = write_file(dir.path(), "bad.mdl", b"IDPO");
    let list = write_file(
        dir.path(),
        "list.txt",
        format!("{}\n\n{}\r\n", good.display(), bad.display()),
    );
    let out = run_ok(&["bench", "--files-from", s(&list), "--rounds", "2", "--list"]);
    let out = text(&out.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], format!("loaded\t{}", good.display()));
    assert!(
        lines[1].starts_with(&format!("failed\t{}\t", bad.display())),
        "{out}"
    );
    assert!(lines[2].starts_with("files=1 bytes="), "{out}");
    // Paths and the list together.
    let out = run_ok(&["bench", s(&good), "--files-from", s(&list), "--rounds", "1"]);
    assert!(text(&out.stdout).starts_with("files=2 "));
    // A list that cannot be read is an error naming it.
    let out = run(&["bench", "--files-from", "/nonexistent/list.txt"]);
    assert!(!out.status.success());
    assert_contains(&out.stderr, "/nonexistent/list.txt");
}

#[test]
fn bench_prints_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let p = sample(dir.path(), "demo.mdl");
    let out = run_ok(&["bench", p.to_str().unwrap(), "--rounds", "3"]);
    let line = text(&out.stdout);
    let fields: Vec<&str> = line.split_whitespace().collect();
    let keys: Vec<&str> = fields
        .iter()
        .map(|f| f.split('=').next().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "files",
            "bytes",
            "rounds",
            "seconds",
            "MBps",
            "files_per_s",
            "decoded_MB",
            "decoded_GBps"
        ]
    );
    // The generated model's poses: some pose data decoded per second.
    let rate: f64 = fields[7]["decoded_GBps=".len()..].parse().unwrap();
    assert!(rate > 0.0, "{line}");
    // Parse-only prints no decoded figures.
    let out = run_ok(&[
        "bench",
        p.to_str().unwrap(),
        "--rounds",
        "1",
        "--parse-only",
    ]);
    assert!(
        !text(&out.stdout).contains("decoded"),
        "{}",
        text(&out.stdout)
    );
    // --memory needs no files and prints the copy bandwidth.
    let out = run_ok(&["bench", "--memory", "--rounds", "1"]);
    assert!(text(&out.stdout).starts_with("bytes=268435456 rounds=1 "));
    assert!(text(&out.stdout).contains(" copy_GBps="));
    assert_eq!(fields[0], "files=1");
    assert_eq!(
        fields[1],
        format!("bytes={}", std::fs::metadata(&p).unwrap().len())
    );
    assert_eq!(fields[2], "rounds=3");
}
