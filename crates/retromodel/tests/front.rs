//! The front door (`retromodel::front`): opening a path and bytes, every animation listed, the
//! target picked and written back or rebuilt, placement checked, files refused when they
//! exist, and the option words parsed once.

use std::path::Path;

use retromodel::formats::{md2, md5, quake_mdl};
use retromodel::front::{self, OpenOptions, Opener, SaveOptions};
use retromodel::options::{ClipSplit, Filter, Frames, Rotation};
use retromodel::vfs::Archives;
use retromodel::{Limits, MemoryFiles, NoFiles};

/// A fresh folder for one test (removed when dropped).
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(name: &str) -> TempDir {
        let p =
            std::env::temp_dir().join(format!("retromodel-front-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn opener(archives: &Archives) -> Opener<'_> {
    Opener::new(archives, OpenOptions::default()).unwrap()
}

#[test]
fn the_defaults_are_one_set() {
    let o = OpenOptions::default();
    assert!(o.model_config, "model configurations apply by default");
    assert!(!o.prefer_md5);
    let c = o.convert_options();
    assert!(c.model_config);
    let off = OpenOptions {
        model_config: false,
        ..OpenOptions::default()
    };
    assert!(!off.convert_options().model_config);
}

#[test]
fn a_file_opened_by_path_is_written_back_byte_for_byte() {
    let dir = TempDir::new("write-back");
    let bytes = quake_mdl::fixtures::minimal();
    let src = dir.path().join("a.mdl");
    std::fs::write(&src, &bytes).unwrap();
    let archives = Archives::new(&Limits::default(), false);
    let opened = opener(&archives).open(&src).unwrap();
    assert_eq!(opened.format.unwrap().name(), "quake-mdl");
    let out = dir.path().join("b.mdl");
    let report = front::save(&opened.source(), &out, &SaveOptions::default()).unwrap();
    assert!(report.written_back && report.identical);
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    // An existing output is kept unless asked.
    let err = front::save(&opened.source(), &out, &SaveOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!("{} exists; pass --force to replace it", out.display())
    );
    // Placement rebuilds the file from the model.
    let scaled = SaveOptions {
        scale: Some(2.0),
        force: true,
        ..SaveOptions::default()
    };
    let report = front::save(&opened.source(), &out, &scaled).unwrap();
    assert!(!report.written_back);
    assert_ne!(std::fs::read(&out).unwrap(), bytes);
}

#[test]
fn placement_is_checked_in_the_same_words_everywhere() {
    let bytes = md2::fixtures::minimal();
    let opened = front::open_bytes(bytes, "x.md2", &Default::default(), &NoFiles).unwrap();
    for (o, want) in [
        (
            SaveOptions {
                scale: Some(-2.0),
                ..SaveOptions::default()
            },
            "scale -2: give a positive number",
        ),
        (
            SaveOptions {
                fit_height: Some(0.0),
                ..SaveOptions::default()
            },
            "fit-height 0: give a positive number",
        ),
    ] {
        let err = front::plan(&opened.source(), Path::new("y.mdl"), &o).unwrap_err();
        assert_eq!(err.to_string(), want);
    }
    let err = front::plan(
        &opened.source(),
        Path::new("y.xyz"),
        &SaveOptions::default(),
    )
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("y.xyz: cannot tell the output format from the extension \"xyz\""),
        "{err}"
    );
}

#[test]
fn every_animation_is_listed_with_the_file_it_came_from() {
    let mut files = MemoryFiles::default();
    files.0.insert("walk.md5anim".into(), md5::fixtures::anim());
    let resolver = retromodel::resolve::Listed::new(files);
    let opened = front::open_bytes(
        md5::fixtures::skeleton(),
        "dir/m.md5mesh",
        &Default::default(),
        &resolver,
    )
    .unwrap();
    let skeletal: Vec<_> = opened
        .animations
        .iter()
        .filter(|a| a.kind == "skeletal")
        .collect();
    assert_eq!(skeletal.len(), 1, "{:?}", opened.animations);
    let a = skeletal[0];
    assert_eq!(a.name, "walk");
    assert_eq!(a.file, "walk.md5anim");
    let frames = md5::fixtures::anim_file().frames.len();
    assert_eq!(a.frames, frames);
    assert!((a.seconds - (frames - 1) as f32 / a.fps).abs() < 1e-6);
    // A keyframe model's clips, from the file itself.
    let mdl = front::open_bytes(
        quake_mdl::fixtures::minimal(),
        "progs/a.mdl",
        &Default::default(),
        &NoFiles,
    )
    .unwrap();
    assert_eq!(
        mdl.animations
            .iter()
            .filter(|a| a.kind == "keyframe")
            .count(),
        mdl.model.clips.len()
    );
    assert!(mdl.animations.iter().all(|a| a.file == "a.mdl"));
    let info = opened.info_json();
    assert_eq!(info["animations"][0]["file"], "walk.md5anim");
}

#[test]
fn every_readable_format_is_listed() {
    let formats = front::formats();
    for codec in retromodel::registry::codecs() {
        for f in codec.formats() {
            assert!(formats.iter().any(|e| e.name == f.name()), "{}", f.name());
        }
    }
    let words = front::formats_in_words();
    for e in retromodel::registry::extensions() {
        assert!(words.contains(&format!(".{e}")), "{e} missing from {words}");
    }
    let iqm = formats.iter().find(|f| f.name == "iqm").unwrap();
    assert!(iqm.read && !iqm.writers.is_empty());
}

#[test]
fn option_words_parse_in_one_place() {
    assert_eq!("groups".parse::<ClipSplit>(), Ok(ClipSplit::Groups));
    assert_eq!("First".parse::<Frames>(), Ok(Frames::First));
    assert_eq!("linear".parse::<Filter>(), Ok(Filter::Linear));
    assert_eq!(
        "smooth".parse::<Filter>(),
        Err("\"smooth\" is not one of nearest, linear".to_string())
    );
    assert_eq!("90".parse::<Rotation>(), Ok(Rotation([90.0, 0.0, 0.0])));
    assert_eq!(
        "90,x".parse::<Rotation>(),
        Err("90,x: \"x\" is not a number of degrees".to_string())
    );
    assert!("1,2,3,4".parse::<Rotation>().is_err());
}

#[test]
fn a_missing_file_and_a_folder_are_refused_clearly() {
    let dir = TempDir::new("refused");
    let archives = Archives::new(&Limits::default(), false);
    let o = opener(&archives);
    let missing = dir.path().join("none.mdl");
    assert_eq!(
        o.open(&missing).unwrap_err().to_string(),
        format!("cannot read {}: no such file or folder", missing.display())
    );
    assert!(o
        .open(dir.path())
        .unwrap_err()
        .to_string()
        .contains("is a folder, not a model"));
    let bad = Opener::new(
        &archives,
        OpenOptions {
            game_dirs: vec![dir.path().join("nowhere")],
            ..OpenOptions::default()
        },
    );
    assert!(matches!(bad, Err(front::Fail::Missing(_))));
}
