//! Quake MDL written from a Model: the seam rebuilt, frame and skin groups kept, skins
//! matched to the palette without fullbrights unless asked, limits and warnings.

use std::sync::Arc;

use retromodel::formats::quake_mdl::{self, fixtures, File, Frame, Skin, ALIAS_ONSEAM};
use retromodel::image::{Image, Palette, Pixels};
use retromodel::{Limits, NoFiles, WriteOptions};

fn model_of(bytes: &[u8]) -> retromodel::Model {
    let file = File::parse(bytes, &Limits::default()).unwrap();
    quake_mdl::to_model(&file, &Default::default(), &NoFiles).model
}

#[test]
fn seam_groups_and_skins_come_back_from_the_model() {
    let bytes = fixtures::build(&fixtures::Spec::everything()).write();
    let original = File::parse(&bytes, &Limits::default()).unwrap();
    let model = model_of(&bytes);
    assert!(
        model.meshes[0].positions.len() > original.texcoords.len(),
        "seam copies exist"
    );
    let w = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap();
    let f = &w.file;
    // Same vertices in the same order, on-seam flags 0x20, same back-facing triangles.
    assert_eq!(f.texcoords, original.texcoords);
    assert!(f.texcoords.iter().any(|t| t.onseam == ALIAS_ONSEAM));
    assert_eq!(f.triangles, original.triangles);
    // Frame group with its intervals, then the simple frames around it.
    let shape = |fs: &[Frame]| -> Vec<(usize, Option<Vec<f32>>)> {
        fs.iter()
            .map(|fr| match fr {
                Frame::Simple(_) => (1, None),
                Frame::Group {
                    frames, intervals, ..
                } => (frames.len(), Some(intervals.clone())),
            })
            .collect()
    };
    assert_eq!(shape(&f.frames), shape(&original.frames));
    // Skins: same pixels (same palette: fullbright indices kept), the group with its times.
    assert_eq!(f.skins.len(), original.skins.len());
    match (&f.skins[1], &original.skins[1]) {
        (
            Skin::Group {
                intervals: a,
                pictures: pa,
                ..
            },
            Skin::Group {
                intervals: b,
                pictures: pb,
                ..
            },
        ) => {
            assert_eq!(a, b);
            assert_eq!(pa, pb);
        }
        other => panic!("expected groups, got {other:?}"),
    }
    // Positions within half a step of the original in every pose.
    let m2 = model_of(&f.write());
    let step = f.header.scale;
    for (a, b) in model.meshes[0]
        .morph_targets
        .iter()
        .zip(&m2.meshes[0].morph_targets)
    {
        for (pa, pb) in a.positions.iter().zip(&b.positions) {
            for k in 0..3 {
                assert!((pa[k] - pb[k]).abs() <= step[k] / 2.0 + 1e-4);
            }
        }
    }
    assert!(w
        .warnings
        .iter()
        .any(|w| w.starts_with("position quantisation")));
}

#[test]
fn rgba_skins_avoid_fullbright_indices_unless_asked() {
    let bytes = fixtures::minimal();
    let mut model = model_of(&bytes);
    let pal = Palette::QUAKE;
    // A picture whose colours are exactly palette entries 10 and 250 (a fullbright).
    let (w, h) = (
        model.skins[0].pictures[0].width,
        model.skins[0].pictures[0].height,
    );
    let mut rgba = Vec::new();
    for i in 0..w * h {
        let c = pal.rgb(if i % 2 == 0 { 10 } else { 250 });
        rgba.extend_from_slice(&[c[0], c[1], c[2], 255]);
    }
    model.skins[0].pictures[0] = Image {
        width: w,
        height: h,
        pixels: Pixels::Rgba8(rgba),
        encoded: None,
    };
    let pixels =
        |model: &retromodel::Model, o: &WriteOptions| match &quake_mdl::from_model(model, o)
            .unwrap()
            .file
            .skins[0]
        {
            Skin::Single { pixels, .. } => pixels.to_vec(),
            other => panic!("{other:?}"),
        };
    let plain = pixels(&model, &WriteOptions::default());
    assert_eq!(plain[0], 10);
    assert!(plain[1] < 224, "fullbright index {} used", plain[1]);
    let bright = pixels(
        &model,
        &WriteOptions {
            fullbrights: true,
            ..Default::default()
        },
    );
    assert_eq!((bright[0], bright[1]), (10, 250));
    // Another palette: mapped entry by entry to the nearest Quake colour.
    let mut other = pal;
    other.0[3] = pal.0[40];
    model.skins[0].pictures[0] = Image {
        width: w,
        height: h,
        pixels: Pixels::Indexed {
            indices: vec![3; (w * h) as usize],
            palette: Arc::new(other),
            fullbright_start: None,
            transparent_index: None,
        },
        encoded: None,
    };
    assert!(pixels(&model, &WriteOptions::default())
        .iter()
        .all(|&i| i == 40));
}

#[test]
fn a_model_without_skin_pictures_gets_a_blank_skin_and_a_warning() {
    let mut model = model_of(&fixtures::minimal());
    model.skins.clear();
    model.meshes[0].skin = None;
    let w = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap();
    assert_eq!(w.file.skins.len(), 1);
    // Neutral grey (issue 44), the renderer's untextured colour, not index 0 (black): the
    // Quake palette's nearest to (180, 180, 180) is index 12, (187, 187, 187).
    let [r, g, b, _] = retromodel::image::UNTEXTURED;
    let grey = retromodel::image::Palette::QUAKE.nearest([r, g, b], 223);
    assert_eq!(retromodel::image::Palette::QUAKE.rgb(grey), [187, 187, 187]);
    match &w.file.skins[0] {
        quake_mdl::Skin::Single { pixels, .. } => assert!(pixels.iter().all(|&i| i == grey)),
        other => panic!("{other:?}"),
    }
    assert!(
        w.warnings.contains(
            &"no skin picture; wrote a blank 16x8 skin of neutral grey (index 12; Quake needs \
              one)"
                .to_string()
        ),
        "{:?}",
        w.warnings
    );
}

#[test]
fn strict_refuses_a_model_past_quakespasm_limits() {
    let bytes = fixtures::build(&fixtures::Spec {
        simple_frames: 1025,
        ..Default::default()
    })
    .write();
    let model = model_of(&bytes);
    let w = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap();
    assert!(w
        .warnings
        .contains(&"1025 poses exceed QuakeSpasm's limit of 1024".to_string()));
    let e = quake_mdl::from_model(
        &model,
        &WriteOptions {
            strict: true,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "quake-mdl: 1025 poses exceed QuakeSpasm's limit of 1024"
    );
}
