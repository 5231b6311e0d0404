//! Skin rules through the library's resolvers, on generated files: Doom 3 materials for MD5
//! shaders (including a backslashed shader path), UFO:AI `.name` for MD2, and what each
//! found picture records as its source.

use std::collections::HashMap;

use retromodel::formats::md5;
use retromodel::image::png;
use retromodel::{ConvertOptions, Document, Limits, MemoryFiles};

fn picture(rgba: [u8; 4]) -> Vec<u8> {
    png::encode_rgba8(2, 2, &rgba.repeat(4)).unwrap()
}

fn model_of(bytes: &[u8], files: &MemoryFiles) -> retromodel::Converted {
    Document::parse(bytes, &Limits::default())
        .unwrap()
        .to_model(&ConvertOptions::default(), files)
}

#[test]
fn md5_shaders_find_doom3_material_pictures() {
    // Mesh 0's shader is "models/fixture/body", mesh 1's "models\characters\fixture\head".
    let mtr = br#"
table pulse { { 0, 1 } }
models/fixture/body
{
    bumpmap addnormals(models/fixture/body_local.tga, heightmap(models/fixture/body_h.tga, 4))
    diffusemap models/fixture/body_d.png
}
models/characters/fixture/head { { blend add map models/fixture/glow.png } }
"#;
    let files = MemoryFiles(HashMap::from([
        ("materials/fixture.mtr".to_string(), mtr.to_vec()),
        (
            "models/fixture/body_d.png".to_string(),
            picture([200, 10, 10, 255]),
        ),
        (
            "models/fixture/glow.png".to_string(),
            picture([10, 200, 10, 255]),
        ),
    ]));
    let c = model_of(&md5::fixtures::two_meshes(), &files);
    let skins: Vec<(&str, Option<&str>)> = c
        .model
        .skins
        .iter()
        .map(|s| (s.name.as_str(), s.source.as_deref()))
        .collect();
    assert_eq!(
        skins,
        [
            (
                "models/fixture/body_d.png",
                Some("models/fixture/body_d.png (material or shader script's picture)")
            ),
            (
                "models/fixture/glow.png",
                Some("models/fixture/glow.png (material or shader script's picture)")
            ),
        ]
    );
    assert_eq!(c.model.meshes[0].skin, Some(0));
    assert_eq!(c.model.meshes[1].skin, Some(1));
    assert!(
        c.warnings.contains(
            &"mesh 0: material \"models/fixture/body\" uses image programs that are not \
              evaluated: addnormals"
                .to_string()
        ),
        "{:?}",
        c.warnings
    );
    // Without the material file the shader is named in a warning.
    let c = model_of(&md5::fixtures::two_meshes(), &MemoryFiles::default());
    assert!(c.model.skins.is_empty());
    assert!(
        c.warnings.contains(
            &"mesh 0: shader \"models/fixture/body\" is neither a picture nor a material of \
              materials/*.mtr with a picture found; untextured"
                .to_string()
        ),
        "{:?}",
        c.warnings
    );
}

#[test]
fn ufoai_dot_names_find_any_picture_of_that_name() {
    let spec = retromodel::formats::md2::fixtures::Spec {
        skins: vec![b".body".to_vec(), b".container.005".to_vec()],
        ..Default::default()
    };
    let bytes = retromodel::formats::md2::fixtures::build(&spec).write();
    let files = MemoryFiles(HashMap::from([
        ("body.jpg.png".to_string(), picture([1, 2, 3, 255])),
        ("body.tga".to_string(), picture([4, 5, 6, 255])),
        ("container.png".to_string(), picture([7, 8, 9, 255])),
    ]));
    let c = model_of(&bytes, &files);
    let sources: Vec<Option<&str>> = c.model.skins.iter().map(|s| s.source.as_deref()).collect();
    assert_eq!(
        sources,
        [
            Some("body.tga (UFO:AI .name in the model's folder)"),
            Some("container.png (UFO:AI .name in the model's folder)"),
        ]
    );
}

/// Each copy of a picture handed out is charged to the lookup's budget: a model naming one
/// picture many times stops getting copies at the allocation limit, with a warning.
#[test]
fn repeated_pictures_are_charged_per_copy() {
    let files = MemoryFiles(HashMap::from([(
        "skin.png".to_string(),
        png::encode_rgba8(64, 64, &[9u8; 64 * 64 * 4]).unwrap(),
    )]));
    let per_copy = 64 + 4 * 64 * 64;
    let limits = Limits {
        max_alloc_bytes: 2 * per_copy,
        ..Limits::default()
    };
    let mut lookup = retromodel::skin_lookup::SkinLookup::new(&files, &limits);
    assert!(lookup.stored("skin.png", false).is_some());
    assert!(lookup.stored("skin.png", false).is_some());
    assert!(lookup.stored("skin.png", false).is_none());
    assert_eq!(
        lookup.warnings,
        [format!(
            "skin.png: left out, skin pictures would exceed the allocation limit of {} bytes",
            2 * per_copy
        )]
    );
}
