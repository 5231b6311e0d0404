//! The fuzz crate (`fuzz/`) has one target per registered codec, named `codec_<name>`, each
//! declared in `fuzz/Cargo.toml`: registering a format without a fuzz target fails here.
//! The oracle the targets run is checked on every codec's fixtures.

#[path = "oracle/mod.rs"]
mod oracle;

use retromodel::{registry, Limits};

#[test]
fn every_codec_has_a_fuzz_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    for codec in registry::codecs() {
        let target = format!("codec_{}", codec.name().replace('-', "_"));
        let file = root.join("fuzz_targets").join(format!("{target}.rs"));
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert!(
            text.contains(&format!("retromodel_fuzz::codec(\"{}\"", codec.name())),
            "{target} must fuzz the codec {:?}",
            codec.name()
        );
        assert!(
            manifest.contains(&format!("name = \"{target}\"")),
            "fuzz/Cargo.toml declares no [[bin]] {target}"
        );
    }
}

#[test]
fn every_fixture_passes_the_oracle() {
    for codec in registry::codecs() {
        for (name, bytes) in codec.fixtures() {
            assert!(
                oracle::check_codec(*codec, &bytes, &Limits::default()),
                "{} fixture {name} must parse",
                codec.name()
            );
        }
    }
}

/// Every committed regression input (fuzz findings included) passes the oracle, writers and
/// all, under the default limits.
#[test]
fn regression_inputs_pass_the_oracle() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        // glTF inputs are the importers': they parse or fail cleanly (tests/regressions.rs
        // pins their results).
        if path.extension().is_some_and(|e| e == "obj") {
            // OBJ is found by its content, which a damaged file may not show: parsed as OBJ,
            // as the `codec_obj` target does.
            let obj = registry::codec_named("obj").unwrap();
            assert!(
                oracle::check_codec(obj, &bytes, &Limits::default()),
                "{path:?}"
            );
        } else if !bytes.starts_with(b"glTF") {
            oracle::check_any(&bytes, &Limits::default());
        }
        n += 1;
    }
    assert!(n >= 7, "{n} regression inputs");
}

/// The texture decoders have their fuzz target too (`image_decode`, declared in
/// `fuzz/Cargo.toml`), and it runs every name hint of `IMAGE_EXTENSIONS`.
#[test]
fn the_texture_decoders_have_a_fuzz_target() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).expect("fuzz/Cargo.toml");
    assert!(manifest.contains("name = \"image_decode\""));
    let target = std::fs::read_to_string(root.join("fuzz_targets/image_decode.rs")).unwrap();
    assert!(target.contains("retromodel_fuzz::image(data)"));
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    assert!(lib.contains("image::IMAGE_EXTENSIONS"));
}
