//! Skin rules through the library's resolvers, on generated files: Doom 3 materials for MD5
//! shaders (including a backslashed shader path), UFO:AI `.name` for MD2, Quake 2 WAL skins
//! with the game's `pics/colormap.pcx`, and what each found picture records as its source.

use std::collections::HashMap;

mod texture_fixtures;

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

#[test]
fn wal_skins_take_the_palette_of_pics_colormap_pcx() {
    let spec = retromodel::formats::md2::fixtures::Spec {
        skins: vec![b"textures/fixture/wall.wal".to_vec()],
        ..Default::default()
    };
    let bytes = retromodel::formats::md2::fixtures::build(&spec).write();
    let (wal, mip0) = texture_fixtures::wal(4, 4, 7);
    // A palette of grey ramps, index i = (i, 255 - i, i / 2), as Quake 2's colormap.pcx.
    let mut palette = [0u8; 768];
    for i in 0..256 {
        palette[3 * i..3 * i + 3].copy_from_slice(&[i as u8, 255 - i as u8, (i / 2) as u8]);
    }
    let pal = retromodel::image::Palette::from_lmp(&palette).unwrap();
    let colormap = retromodel::image::pcx::encode_indexed(2, 2, &[0, 1, 2, 3], &pal);
    let mut files = HashMap::from([("textures/fixture/wall.wal".to_string(), wal)]);
    // Without the game's palette: a warning naming the file to provide, no picture.
    let c = model_of(&bytes, &MemoryFiles(files.clone()));
    assert!(c.model.skins[0].pictures.is_empty());
    assert!(
        c.warnings
            .iter()
            .any(|w| w.contains("pics/colormap.pcx was not found")),
        "{:?}",
        c.warnings
    );
    files.insert("pics/colormap.pcx".to_string(), colormap);
    let c = model_of(&bytes, &MemoryFiles(files));
    let img = &c.model.skins[0].pictures[0];
    assert_eq!((img.width, img.height), (4, 4));
    let rgba = img.to_rgba8();
    for (k, &index) in mip0.iter().enumerate() {
        let i = index as usize;
        assert_eq!(
            rgba[4 * k..4 * k + 3],
            [i as u8, 255 - i as u8, (i / 2) as u8]
        );
    }
}

#[test]
fn quake2_replacements_when_asked() {
    let spec = retromodel::formats::md2::fixtures::Spec {
        skins: vec![b"models/fixture/skin.pcx".to_vec()],
        ..Default::default()
    };
    let bytes = retromodel::formats::md2::fixtures::build(&spec).write();
    let pcx = retromodel::image::pcx::encode_indexed(
        2,
        2,
        &[1, 1, 1, 1],
        &retromodel::image::Palette::QUAKE,
    );
    let files = MemoryFiles(HashMap::from([
        ("models/fixture/skin.pcx".to_string(), pcx),
        (
            "models/fixture/skin.tga".to_string(),
            picture([9, 8, 7, 255]),
        ),
    ]));
    let source = |prefer: bool| {
        let options = ConvertOptions {
            prefer_replacements: prefer,
            ..Default::default()
        };
        Document::parse(&bytes, &Limits::default())
            .unwrap()
            .to_model(&options, &files)
            .model
            .skins[0]
            .source
            .clone()
    };
    assert_eq!(
        source(false).as_deref(),
        Some("models/fixture/skin.pcx (path stored in the model)")
    );
    assert_eq!(
        source(true).as_deref(),
        Some("models/fixture/skin.tga (stored name, another picture format)")
    );
}
