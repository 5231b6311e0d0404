//! glTF and OBJ as registered codecs: detection, byte-exact write-back, import with side files
//! through the resolver, the writers' side files, validation as converted, exact errors.

use std::collections::HashMap;

use retromodel::formats::quake_mdl::{self, QUAKE_MDL};
use retromodel::interchange::{gltf, obj};
use retromodel::registry::{self, Target};
use retromodel::{ConvertOptions, Document, Limits, MemoryFiles, Model, NoFiles, WriteOptions};

/// A Quake MDL fixture with every feature, as a Model.
fn model() -> Model {
    let bytes = quake_mdl::fixtures::build(&quake_mdl::fixtures::Spec::everything()).write();
    retromodel::read(&bytes, &Limits::default(), &NoFiles).unwrap()
}

/// `model` written as the extension `ext` through the registry, with `options`.
fn write(model: &Model, ext: &str, options: &WriteOptions) -> registry::Output {
    let Some(Target::Convert(w)) = registry::target_for(ext, Some(QUAKE_MDL), None) else {
        panic!("no writer for {ext}");
    };
    registry::write_model(model, w, options).unwrap()
}

/// The side files an output wrote, as files a resolver finds by name.
fn side_files(out: &registry::Output) -> MemoryFiles {
    MemoryFiles(
        out.side_files
            .iter()
            .map(|f| (f.name.clone(), f.bytes.clone()))
            .collect::<HashMap<_, _>>(),
    )
}

#[test]
fn the_interchange_codecs_are_registered_last() {
    let names: Vec<&str> = registry::codecs().iter().map(|c| c.name()).collect();
    assert_eq!(names[names.len() - 2..], ["gltf", "obj"], "{names:?}");
    for name in ["gltf", "obj"] {
        let codec = registry::codec_named(name).unwrap();
        assert!(codec.interchange());
        assert!(!codec.writers().is_empty());
    }
    assert!(registry::codecs()
        .iter()
        .filter(|c| !["gltf", "obj"].contains(&c.name()))
        .all(|c| !c.interchange()));
    for ext in ["glb", "gltf", "obj"] {
        assert!(registry::extensions().contains(&ext));
        assert!(registry::viewable_extensions().contains(&ext));
        assert!(registry::target_extensions().contains(&ext));
    }
    assert_eq!(registry::format_named("glb"), Some(gltf::GLB));
    assert_eq!(registry::format_named("gltf"), Some(gltf::GLTF));
    assert_eq!(registry::format_named("obj"), Some(obj::OBJ));
}

/// Every fixture of every codec writes back byte for byte; OBJ, detected by content and
/// registered last, claims no other codec's fixture.
#[test]
fn fixtures_write_back_and_obj_claims_no_other_file() {
    for codec in registry::codecs() {
        for (name, bytes) in codec.fixtures() {
            let doc = Document::parse(&bytes, &Limits::default())
                .unwrap_or_else(|e| panic!("{} {name}: {e}", codec.name()));
            assert_eq!(doc.codec().name(), codec.name(), "{name}");
            if codec.interchange() {
                assert_eq!(doc.write(), bytes, "{name}");
                let c = doc
                    .try_to_model(&ConvertOptions::default(), &NoFiles)
                    .unwrap();
                assert!(c.model.triangle_count() > 0, "{name}");
            }
        }
    }
    for text in [
        &b"hello world\n"[..],
        b"# only a comment\n",
        b"vertex 1 2 3\n",
        b"v\n",
    ] {
        assert_eq!(
            retromodel::detect(text),
            None,
            "{:?}",
            String::from_utf8_lossy(text)
        );
    }
    assert_eq!(
        retromodel::detect(b"# c\n\n  mtllib a.mtl\n"),
        Some(obj::OBJ)
    );
    assert_eq!(
        retromodel::detect(b"\xEF\xBB\xBF v 1 2 3\n"),
        Some(obj::OBJ)
    );
    assert_eq!(
        retromodel::detect(b" \n{\"asset\": {\"version\": \"2.0\"}}"),
        Some(gltf::GLTF)
    );
    assert_eq!(retromodel::detect(b"{\"scenes\": []}"), None);
}

#[test]
fn glb_round_trips_through_the_codec() {
    let model = model();
    let out = write(&model, "glb", &WriteOptions::default());
    assert!(out.side_files.is_empty());
    let doc = Document::parse(&out.bytes, &Limits::default()).unwrap();
    assert_eq!(doc.format(), gltf::GLB);
    assert_eq!(doc.write(), out.bytes);
    let back = doc.to_model(&ConvertOptions::default(), &NoFiles);
    assert_eq!(back.model.triangle_count(), model.triangle_count());
    assert_eq!(back.model.frames.len(), model.frames.len());
    assert_eq!(back.model.skins.len(), model.skins.len());
    let summary = doc.summary(&back);
    assert_eq!(summary.format, "glb");
    assert_eq!(summary.description, "glTF 2.0 binary");
    assert_eq!(summary.poses, model.frames.len());
    assert_eq!(summary.triangles, model.triangle_count());
    // The same bytes as the exporter called directly.
    let direct = gltf::export(&model, &Default::default(), &gltf::Container::Glb).unwrap();
    assert_eq!(direct.file, out.bytes);
    // Writing a glTF input to .glb builds it anew (options apply), never copies it.
    assert_eq!(
        registry::target_for("glb", Some(gltf::GLB), None).map(|t| t.format()),
        Some(gltf::GLB)
    );
    assert!(matches!(
        registry::target_for("glb", Some(gltf::GLB), None),
        Some(Target::Convert(_))
    ));
    // Skipping textures leaves the skins out.
    let options = ConvertOptions {
        skip_textures: true,
        ..ConvertOptions::default()
    };
    assert!(doc.to_model(&options, &NoFiles).model.skins.is_empty());
}

#[test]
fn gltf_with_side_files_imports_through_the_resolver() {
    let model = model();
    let options = WriteOptions {
        stem: "ogre".into(),
        ..WriteOptions::default()
    };
    let out = write(&model, "gltf", &options);
    let names: Vec<&str> = out.side_files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.last(), Some(&"ogre.bin"));
    assert!(names.contains(&"ogre_skin0.png"), "{names:?}");
    assert_eq!(out.side_files.last().unwrap().kind, "buffer");
    assert!(out.summary.as_deref().unwrap().starts_with(&format!(
        "{} side files; {} poses",
        names.len(),
        model.frames.len()
    )));
    let doc = Document::parse(&out.bytes, &Limits::default()).unwrap();
    assert_eq!(doc.format(), gltf::GLTF);
    let files = side_files(&out);
    let back = doc
        .try_to_model(&ConvertOptions::default(), &files)
        .unwrap();
    assert_eq!(back.model.triangle_count(), model.triangle_count());
    assert_eq!(back.model.skins.len(), model.skins.len());
    // Without its buffer: an error, or from to_model an empty model with it as a warning.
    let e = doc
        .try_to_model(&ConvertOptions::default(), &NoFiles)
        .unwrap_err();
    assert!(e.to_string().starts_with("gltf: "), "{e}");
    assert!(e.to_string().contains("ogre.bin"), "{e}");
    let empty = doc.to_model(&ConvertOptions::default(), &NoFiles);
    assert_eq!(empty.model.triangle_count(), 0);
    assert_eq!(empty.warnings, [e.to_string()]);
    // Checked against QuakeSpasm as converted to Quake MDL, with its side files.
    assert_eq!(doc.checked_as("quakespasm"), Some(QUAKE_MDL));
    assert!(doc
        .validate_with(Some("quakespasm"), &ConvertOptions::default(), &files)
        .is_ok());
    assert_eq!(
        doc.validate(Some("quakespasm")).unwrap_err(),
        e.to_string(),
        "without side files nothing converts"
    );
    // Embedded: one file.
    let embedded = write(
        &model,
        "gltf",
        &WriteOptions {
            embed: true,
            ..WriteOptions::default()
        },
    );
    assert!(embedded.side_files.is_empty());
    assert!(embedded
        .summary
        .as_deref()
        .unwrap()
        .contains("bytes, embedded"));
    let doc = Document::parse(&embedded.bytes, &Limits::default()).unwrap();
    assert!(doc.validate(None).unwrap().is_empty());
}

#[test]
fn obj_package_round_trips_through_the_codec() {
    let model = model();
    let options = WriteOptions {
        stem: "ogre".into(),
        frame: 1,
        ..WriteOptions::default()
    };
    let out = write(&model, "obj", &options);
    let names: Vec<&str> = out.side_files.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names.last(), Some(&"ogre.mtl"));
    assert!(names.contains(&"ogre_skin0.png"), "{names:?}");
    assert_eq!(
        out.summary.as_deref(),
        Some(format!("frame 1, {} skins", names.len() - 1).as_str())
    );
    let text = String::from_utf8(out.bytes.clone()).unwrap();
    assert!(text.contains("mtllib ogre.mtl"));
    let doc = Document::parse(&out.bytes, &Limits::default()).unwrap();
    assert_eq!(doc.format(), obj::OBJ);
    assert_eq!(doc.write(), out.bytes);
    let files = side_files(&out);
    let back = doc
        .try_to_model(&ConvertOptions::default(), &files)
        .unwrap();
    assert_eq!(back.model.triangle_count(), model.triangle_count());
    assert_eq!(
        back.model.skins.len(),
        1,
        "the skin comes back from the PNG"
    );
    assert_eq!(doc.summary(&back).triangles, model.triangle_count());
    // A frame past the end fails.
    let Some(Target::Convert(w)) = registry::target_for("obj", None, None) else {
        panic!()
    };
    let far = WriteOptions {
        frame: model.frames.len(),
        ..WriteOptions::default()
    };
    assert_eq!(
        registry::write_model(&model, w, &far)
            .unwrap_err()
            .to_string(),
        format!(
            "obj: frame {} out of range (the model has {} frames)",
            model.frames.len(),
            model.frames.len()
        )
    );
    // QuakeSpasm as converted; OBJ's own engine.
    let diags = doc.validate(Some("quakespasm")).unwrap();
    assert!(
        diags
            .iter()
            .all(|d| d.message.starts_with("as Quake MDL: ")),
        "{diags:?}"
    );
    // Its own engine: the whole import; without its material library, a warning says so.
    assert!(doc
        .validate_with(None, &ConvertOptions::default(), &files)
        .unwrap()
        .is_empty());
    let alone = doc.validate(None).unwrap();
    assert!(
        !alone.is_empty()
            && alone
                .iter()
                .all(|d| d.severity == retromodel::Severity::Warning),
        "{alone:?}"
    );
}

/// The classic formats are still checked against their own engines only.
#[test]
fn classic_formats_keep_unknown_engine_errors() {
    let bytes = quake_mdl::fixtures::build(&quake_mdl::fixtures::Spec::everything()).write();
    let doc = Document::parse(&bytes, &Limits::default()).unwrap();
    assert_eq!(doc.checked_as("gltf"), None);
    assert!(doc
        .validate(Some("gltf"))
        .unwrap_err()
        .starts_with("unknown engine \"gltf\" for Quake MDL"));
    let glb = write(&model(), "glb", &WriteOptions::default());
    let doc = Document::parse(&glb.bytes, &Limits::default()).unwrap();
    assert_eq!(
        doc.validate(Some("nonesuch")).unwrap_err(),
        "unknown engine \"nonesuch\" for glTF (gltf)"
    );
}

#[test]
fn invalid_interchange_files_fail_with_exact_errors() {
    let parse = |b: &[u8]| {
        Document::parse(b, &Limits::default())
            .unwrap_err()
            .to_string()
    };
    assert_eq!(
        parse(b"glTF\x02\0\0\0\x05\0\0\0"),
        "gltf: GLB header: total length 5 is smaller than the 12-byte header at offset 0x8"
    );
    assert_eq!(
        parse(b"v 0 0 0\nv 1 0 0\nf 1 2 3\n"),
        "obj: '3': index 3 out of range (2 defined so far) at line 3:7"
    );
    assert_eq!(
        parse(b"{\"asset\": 1}"),
        "gltf: invalid type: integer `1`, expected struct Asset at line 1 column 11"
    );
}

/// A model without triangles (a tag-only MD3) is written to OBJ as its vertices, with a
/// warning; the file is no model to the reader.
#[test]
fn obj_of_a_model_without_triangles_is_vertices_and_a_warning() {
    let mut m = model();
    for mesh in &mut m.meshes {
        mesh.triangles.clear();
    }
    let out = write(&m, "obj", &WriteOptions::default());
    assert!(
        out.warnings.iter().any(|w| w.contains("no triangles")),
        "{:?}",
        out.warnings
    );
    let text = String::from_utf8(out.bytes.clone()).unwrap();
    assert_eq!(
        text.lines().filter(|l| l.starts_with("v ")).count(),
        m.vertex_count()
    );
    assert!(!text.lines().any(|l| l.starts_with("f ")));
    let e = Document::parse(&out.bytes, &Limits::default())
        .err()
        .unwrap();
    assert_eq!(e.to_string(), "obj: the file has no face");
}
