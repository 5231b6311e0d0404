//! Skins that came from PNG or JPEG files go into glTF as those files, less the metadata
//! readers handle unevenly (`Image::original_file`, `Encoded::without_metadata`; byte for
//! byte when there is none); pictures changed after decoding, indexed pictures and other
//! formats are written as PNG. Read back with the `gltf` crate and the library's importer.

#![cfg(all(feature = "gltf", feature = "textures"))]

use retromodel::formats::quake_mdl;
use retromodel::image::{self, Image, Pixels};
use retromodel::interchange::gltf::{to_glb, to_gltf_embedded, to_gltf_separate, GltfOptions};
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
    let model = retromodel::interchange::gltf::read(glb, &NoFiles, &Default::default())
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

/// `png` with `extra` chunks (type, data) inserted after `IHDR`.
fn with_chunks(png: &[u8], extra: &[(&[u8; 4], &[u8])]) -> Vec<u8> {
    let ihdr_end = 8 + 25;
    let mut out = png[..ihdr_end].to_vec();
    for (kind, data) in extra {
        out.extend_from_slice(&(data.len() as u32).to_be_bytes());
        let mut crc_input = kind.to_vec();
        crc_input.extend_from_slice(data);
        out.extend_from_slice(&crc_input);
        out.extend_from_slice(&crc32(&crc_input).to_be_bytes());
    }
    out.extend_from_slice(&png[ihdr_end..]);
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut c = !0u32;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

#[test]
fn metadata_is_left_out_and_the_pixels_stay() {
    // PNG: gamma, text and pixel-aspect chunks go, the picture's chunks stay.
    let rgba: Vec<u8> = (0..8 * 4)
        .flat_map(|i| [i as u8 * 8, 0, 255 - i as u8, 255])
        .collect();
    let mut plain = Vec::new();
    {
        let mut e = png::Encoder::new(&mut plain, 8, 4);
        e.set_color(png::ColorType::Rgba);
        e.write_header().unwrap().write_image_data(&rgba).unwrap();
    }
    let gamma = 45455u32.to_be_bytes();
    let phys = [0, 0, 0, 1, 0, 0, 0, 2, 0];
    let noisy = with_chunks(
        &plain,
        &[
            (b"gAMA", &gamma),
            (b"tEXt", b"Software\0x"),
            (b"pHYs", &phys),
        ],
    );
    let picture = image::decode(&noisy, "a.png", &Limits::default()).unwrap();
    let stripped = picture.original_file().unwrap().without_metadata().unwrap();
    assert_eq!(stripped, plain);
    let (glb, _) = to_glb(&model_with(picture.clone()), &GltfOptions::default()).unwrap();
    assert_eq!(first_image(&glb), ("image/png".to_string(), plain));

    // JPEG: Exif and ICC segments go, JFIF's aspect becomes 1:1, the pixels are the same.
    let file = jpeg_file();
    assert_eq!(&file[2..4], &[0xFF, 0xE0], "the encoder writes JFIF first");
    let mut noisy = file[..2].to_vec();
    let mut jfif = file[2..20].to_vec();
    jfif[11..16].copy_from_slice(&[1, 0, 72, 0, 96]);
    noisy.extend_from_slice(&jfif);
    for (marker, body) in [
        (0xE1u8, &b"Exif\0\0MM\0*"[..]),
        (0xE2, b"ICC_PROFILE\0\x01\x01"),
    ] {
        noisy.extend_from_slice(&[0xFF, marker]);
        noisy.extend_from_slice(&(body.len() as u16 + 2).to_be_bytes());
        noisy.extend_from_slice(body);
    }
    noisy.extend_from_slice(&file[20..]);
    let picture = image::decode(&noisy, "a.jpg", &Limits::default()).unwrap();
    let stripped = picture.original_file().unwrap().without_metadata().unwrap();
    assert_eq!(stripped, file);
    let again = image::decode(&stripped, "a.jpg", &Limits::default()).unwrap();
    assert_eq!(again, picture);
}

/// Every PNG and JPEG picture of the corpus that is kept as a file decodes to the same
/// pixels once its metadata is left out.
#[test]
fn corpus_pictures_keep_their_pixels_without_metadata() {
    let Some(corpus) = std::env::var_os("RETROMODEL_CORPUS") else {
        eprintln!("RETROMODEL_CORPUS is not set: corpus pictures skipped");
        return;
    };
    let mut stack = vec![std::path::PathBuf::from(corpus)];
    let (mut kept, mut checked) = (0, 0);
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if !matches!(ext.to_ascii_lowercase().as_str(), "png" | "jpg" | "jpeg") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let name = path.to_string_lossy();
            let Ok(picture) = image::decode(&bytes, &name, &Limits::default()) else {
                continue;
            };
            checked += 1;
            let Some(original) = picture.original_file() else {
                continue;
            };
            let plain = original
                .without_metadata()
                .unwrap_or_else(|| panic!("{name}: no plain copy"));
            let again = image::decode(&plain, &name, &Limits::default()).unwrap();
            assert_eq!(again, picture, "{name}");
            kept += 1;
        }
    }
    eprintln!(
        "{kept} of {checked} corpus pictures kept as files, pixels unchanged without metadata"
    );
    assert!(kept > 100 && kept * 10 > checked * 9, "{kept} of {checked}");
}

/// A truncated JPEG (which the decoder fills with grey) and an animated PNG (whose first
/// frame a left-out chunk may size) are written as PNG, not embedded.
#[test]
fn truncated_jpegs_and_animated_pngs_are_not_embedded() {
    let file = jpeg_file();
    let cut = &file[..file.len() - 40];
    if let Ok(picture) = image::decode(cut, "cut.jpg", &Limits::default()) {
        assert!(picture.original_file().is_none());
        let (glb, _) = to_glb(&model_with(picture), &GltfOptions::default()).unwrap();
        assert_eq!(first_image(&glb).0, "image/png");
    }

    let rgba = vec![200u8; 4 * 4 * 4];
    let mut plain = Vec::new();
    {
        let mut e = png::Encoder::new(&mut plain, 4, 4);
        e.set_color(png::ColorType::Rgba);
        e.write_header().unwrap().write_image_data(&rgba).unwrap();
    }
    let animated = with_chunks(&plain, &[(b"acTL", &[0, 0, 0, 1, 0, 0, 0, 0])]);
    let picture = image::decode(&animated, "a.png", &Limits::default()).unwrap();
    assert!(picture
        .original_file()
        .unwrap()
        .without_metadata()
        .is_none());
    let (glb, _) = to_glb(&model_with(picture.clone()), &GltfOptions::default()).unwrap();
    let (mime, bytes) = first_image(&glb);
    assert_eq!(mime, "image/png");
    assert_ne!(bytes, animated);
    assert_eq!(reimported_picture(&glb), picture);
}
