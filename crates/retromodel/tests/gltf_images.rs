//! Skins that came from PNG or JPEG files go into glTF as those files, byte for byte
//! (`Image::original_file`); pictures changed after decoding, indexed pictures and other
//! formats are written as PNG. Read back with the `gltf` crate and the library's importer.

#![cfg(all(feature = "gltf", feature = "textures"))]

use retromodel::export::gltf::{to_glb, to_gltf_embedded, to_gltf_separate, GltfOptions};
use retromodel::formats::quake_mdl;
use retromodel::image::{self, Image, Pixels};
use retromodel::model::Model;
use retromodel::{Limits, NoFiles};

/// A 64x32 colour gradient as a baseline JPEG.
fn jpeg_file() -> Vec<u8> {
    let (w, h) = (64u16, 32u16);
    let rgb: Vec<u8> = (0..h)
        .flat_map(|y| (0..w).flat_map(move |x| [(x * 4) as u8, (y * 8) as u8, 128]))
        .collect();
    let mut out = Vec::new();
    jpeg_encoder::Encoder::new(&mut out, 90)
        .encode(&rgb, w, h, jpeg_encoder::ColorType::Rgb)
        .unwrap();
    out
}

/// The Quake MDL fixture with its first skin replaced by `picture`.
fn model_with(picture: Image) -> Model {
    let bytes = quake_mdl::fixtures::build(&quake_mdl::fixtures::Spec::default()).write();
    let mut model = retromodel::read(&bytes, &Limits::default(), &NoFiles).unwrap();
    model.skins.truncate(1);
    model.skins[0].pictures = vec![picture];
    model
}

/// The first image of a GLB: media type, bytes.
fn first_image(glb: &[u8]) -> (String, Vec<u8>) {
    let g = gltf::Gltf::from_slice(glb).unwrap();
    let blob = g.blob.clone().unwrap();
    let image = g.document.images().next().unwrap();
    match image.source() {
        gltf::image::Source::View { view, mime_type } => (
            mime_type.to_string(),
            blob[view.offset()..view.offset() + view.length()].to_vec(),
        ),
        other => panic!("image not in the binary chunk: {other:?}"),
    }
}

/// The first skin picture of the model the library's importer reads from `glb`.
fn reimported_picture(glb: &[u8]) -> Image {
    let model = retromodel::import::gltf::read(glb, &NoFiles, &Default::default())
        .unwrap()
        .model;
    model.skins[0].pictures[0].clone()
}

#[test]
fn jpeg_skins_are_embedded_as_the_file() {
    let file = jpeg_file();
    let picture = image::decode(&file, "skin.jpg", &Limits::default()).unwrap();
    let original = picture
        .original_file()
        .expect("a decoded JPEG keeps its file");
    assert_eq!(original.mime, "image/jpeg");
    assert_eq!(original.bytes, file);

    let model = model_with(picture.clone());
    let (glb, _) = to_glb(&model, &GltfOptions::default()).unwrap();
    let (mime, bytes) = first_image(&glb);
    assert_eq!(mime, "image/jpeg");
    assert_eq!(bytes, file, "the JPEG file itself, not a re-encoding");
    // The importer decodes the same pixels the exporter had.
    assert_eq!(reimported_picture(&glb), picture);

    // The other layouts name it as a JPEG too.
    let (json, _) = to_gltf_embedded(&model, &GltfOptions::default()).unwrap();
    assert!(json.contains("data:image/jpeg;base64,"));
    let sep = to_gltf_separate(&model, &GltfOptions::default(), "m.bin", "m").unwrap();
    assert_eq!(sep.images.len(), 1);
    assert_eq!(sep.images[0].0, "m_skin0.jpg");
    assert_eq!(sep.images[0].1, file);
}

#[test]
fn png_skins_are_embedded_as_the_file() {
    // Two colours: PNG files as artists save them are rarely what our encoder would make.
    let rgba: Vec<u8> = (0..16 * 8)
        .flat_map(|i| {
            if i % 3 == 0 {
                [255, 0, 0, 255]
            } else {
                [0, 0, 255, 255]
            }
        })
        .collect();
    let mut file = Vec::new();
    {
        let mut e = png::Encoder::new(&mut file, 16, 8);
        e.set_color(png::ColorType::Rgba);
        e.set_compression(png::Compression::Fast);
        e.write_header().unwrap().write_image_data(&rgba).unwrap();
    }
    let picture = image::decode(&file, "skin.png", &Limits::default()).unwrap();
    let (glb, _) = to_glb(&model_with(picture.clone()), &GltfOptions::default()).unwrap();
    let (mime, bytes) = first_image(&glb);
    assert_eq!((mime.as_str(), bytes), ("image/png", file));
    assert_eq!(reimported_picture(&glb), picture);
}

#[test]
fn changed_pixels_are_written_as_png() {
    let file = jpeg_file();
    let mut picture = image::decode(&file, "skin.jpg", &Limits::default()).unwrap();
    // A pixel changed after decoding: the kept file no longer shows the picture.
    match &mut picture.pixels {
        Pixels::Rgba8(rgba) => rgba[0..4].copy_from_slice(&[1, 2, 3, 255]),
        Pixels::Indexed { .. } => unreachable!(),
    }
    assert!(picture.original_file().is_none());
    let (glb, _) = to_glb(&model_with(picture.clone()), &GltfOptions::default()).unwrap();
    let (mime, bytes) = first_image(&glb);
    assert_eq!(mime, "image/png");
    assert!(bytes.starts_with(b"\x89PNG"));
    assert_eq!(reimported_picture(&glb), picture, "PNG keeps every pixel");

    // A resized copy and a picture made from pixels keep no file either.
    let decoded = image::decode(&file, "skin.jpg", &Limits::default()).unwrap();
    assert!(decoded.resized(32, 16).original_file().is_none());
    assert!(Image::new(1, 1, Pixels::Rgba8(vec![0; 4]))
        .original_file()
        .is_none());
    // Equality is about the pixels, not the file kept.
    let mut bare = decoded.clone();
    bare.encoded = None;
    assert_eq!(bare, decoded);
}
