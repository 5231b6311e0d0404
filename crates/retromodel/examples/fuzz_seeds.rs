//! Writes the fuzzing seed corpora from the registry: every registered codec's fixtures
//! into `DIR/codec_<name>/`, and glTF / OBJ exports of them into `DIR/import_gltf/` and
//! `DIR/import_obj/`; the archive fixtures into `DIR/archive/`; and the generated texture
//! fixtures of `tests/texture_fixtures` (TGA, BMP, DDS, JPEG, WAL) into `DIR/image_decode/`.
//!
//! `cargo run -p retromodel --example fuzz_seeds -- fuzz/seeds`

use std::path::PathBuf;

#[path = "../tests/texture_fixtures/mod.rs"]
mod texture_fixtures;

use retromodel::interchange::{gltf, obj};
use retromodel::{registry, ConvertOptions, Document, Limits, NoFiles};

fn main() -> std::io::Result<()> {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "fuzz/seeds".into()),
    );
    let (mut n, mut g, mut o) = (0, 0, 0);
    for codec in registry::codecs() {
        let target = dir.join(format!("codec_{}", codec.name().replace('-', "_")));
        std::fs::create_dir_all(&target)?;
        for (name, bytes) in codec.fixtures() {
            std::fs::write(target.join(name), &bytes)?;
            n += 1;
            let Ok(doc) = Document::parse(&bytes, &Limits::default()) else {
                continue;
            };
            let model = doc.to_model(&ConvertOptions::default(), &NoFiles).model;
            // Small exports only: the importers' seeds should stay quick to run.
            if model.vertex_count() * model.frames.len().max(1) > 4096 {
                continue;
            }
            let options = gltf::GltfOptions::default();
            if let Ok((glb, _)) = gltf::to_glb(&model, &options) {
                let d = dir.join("import_gltf");
                std::fs::create_dir_all(&d)?;
                std::fs::write(d.join(format!("{}_{name}.glb", codec.name())), glb)?;
                g += 1;
            }
            if let Ok(text) = obj::to_obj(&model, 0, "model.mtl", &[]) {
                let d = dir.join("import_obj");
                std::fs::create_dir_all(&d)?;
                std::fs::write(d.join(format!("{}_{name}.obj", codec.name())), text.obj)?;
                o += 1;
            }
        }
    }
    // QC text (`parse_qc`): the QC codec's fixtures.
    let d = dir.join("parse_qc");
    std::fs::create_dir_all(&d)?;
    for codec in registry::codecs().iter().filter(|c| c.name() == "qc") {
        for (name, bytes) in codec.fixtures() {
            std::fs::write(d.join(name), &bytes)?;
        }
    }
    // The re-release pairing: md5mesh, md5anim and md5scale fixtures joined by the
    // separator the `rerelease` target splits at.
    let d = dir.join("rerelease");
    std::fs::create_dir_all(&d)?;
    let md5 = retromodel::formats::md5::fixtures::all();
    let get = |n: &str| {
        md5.iter()
            .find(|(f, _)| *f == n)
            .map(|(_, b)| b.clone())
            .unwrap_or_default()
    };
    let scales: [&[u8]; 4] = [
        br#"{ "arm": { "0": 0, "1": 2, "scale_positions": true }, "body": { "9": 1.5 } }"#,
        br#"{ "ghost": { "x": true } }"#,
        br#"{ "arm": { "0": 1e39, "01": .5, "1": +2 }, "arm": { "2": inf } }"#,
        b"",
    ];
    for (i, scale) in scales.iter().enumerate() {
        let mut seed = get("skeleton.md5mesh");
        seed.extend_from_slice(b"\n\0\n");
        seed.extend(get("wave.md5anim"));
        seed.extend_from_slice(b"\n\0\n");
        seed.extend_from_slice(scale);
        std::fs::write(d.join(format!("pair{i}")), seed)?;
        n += 1;
    }
    // meshopt_decode: our vertex encoder's output for a few strides (head: mode 0, filter
    // none, count, stride / 4 - 1), and a hand-made triangle stream (mode 1, 32-bit).
    let d = dir.join("meshopt_decode");
    std::fs::create_dir_all(&d)?;
    for (count, stride) in [(16u16, 4usize), (100, 12), (300, 8)] {
        let raw: Vec<u8> = (0..usize::from(count) * stride)
            .map(|i| (i / stride * 3 + i % stride) as u8)
            .collect();
        let enc = gltf::meshopt::encode_vertex_buffer(&raw, stride).expect("encodes");
        let mut seed = vec![0u8];
        seed.extend(count.to_le_bytes());
        seed.push((stride / 4 - 1) as u8);
        seed.extend(enc);
        std::fs::write(d.join(format!("vertex_{count}x{stride}")), seed)?;
        n += 1;
    }
    let mut tri = vec![1u8, 12, 0, 0, 0xE1, 0xF0, 0x00, 0x22, 0xFE, 0xFF, 14, 3];
    tri.extend([0u8; 16]);
    std::fs::write(d.join("triangles"), tri)?;
    let d = dir.join("archive");
    std::fs::create_dir_all(&d)?;
    for (name, bytes) in retromodel::vfs::fixtures() {
        std::fs::write(d.join(name), bytes)?;
        n += 1;
    }
    let d = dir.join("image_decode");
    std::fs::create_dir_all(&d)?;
    let mut t = 0;
    for f in texture_fixtures::all() {
        std::fs::write(d.join(&f.name), &f.bytes)?;
        t += 1;
    }
    let (wal, _) = texture_fixtures::wal(16, 8, 1);
    std::fs::write(d.join("floor1.wal"), wal)?;
    for (name, progressive) in [("baseline.jpg", false), ("progressive.jpg", true)] {
        let jpg = texture_fixtures::jpeg(
            &texture_fixtures::gradient(24, 16),
            24,
            16,
            progressive,
            false,
        );
        std::fs::write(d.join(name), jpg)?;
    }
    t += 3;
    eprintln!(
        "{} fixtures, {g} glTF, {o} OBJ and {t} texture seeds in {}",
        n,
        dir.display()
    );
    Ok(())
}
