//! Review findings on issue 3, kept as regression tests: hostile headers and models fail
//! cleanly, nothing decodes or allocates more than once per picture, and GL command
//! generation handles many triangles on one edge.

use std::cell::Cell;

use retromodel::formats::md2::{self, fixtures, TexCoord, Triangle};
use retromodel::formats::quake_mdl;
use retromodel::image::{Image, Pixels};
use retromodel::{ErrorKind, Limits, NoFiles, Resolver, WriteOptions};

mod common;

use common::set_i32;

#[test]
fn md2_skin_size_and_frameless_vertex_counts_are_bounded() {
    let mut b = fixtures::minimal();
    set_i32(&mut b, 8, i32::MAX);
    let e = md2::File::parse(&b, &Limits::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "md2: skin size 2147483647x16 exceeds the limit of 16384 pixels a side at offset 0x8"
    );
    // No frames, but 2^24 vertices claimed (framesize made to match): the one pose the
    // Model would hold is charged, and refused.
    let mut b = fixtures::build(&fixtures::Spec {
        frames: 0,
        ..Default::default()
    })
    .write();
    set_i32(&mut b, 24, 1 << 24);
    set_i32(&mut b, 16, 40 + 4 * (1 << 24));
    let e = md2::File::parse(&b, &Limits::default()).unwrap_err();
    assert_eq!(e.kind, ErrorKind::LimitExceeded, "{e}");
}

/// A resolver that counts its calls and serves one picture for every name.
struct Counting(Cell<usize>, Vec<u8>);

impl Resolver for Counting {
    fn load(&self, _name: &str) -> Option<Vec<u8>> {
        self.0.set(self.0.get() + 1);
        Some(self.1.clone())
    }
}

#[test]
fn a_skin_named_many_times_is_decoded_once() {
    let spec = fixtures::Spec {
        skins: vec![b"models/x/skin.pcx".to_vec(); 100],
        ..Default::default()
    };
    let bytes = fixtures::build(&spec).write();
    let file = md2::File::parse(&bytes, &Limits::default()).unwrap();
    let pcx = retromodel::image::pcx::encode_indexed(
        32,
        16,
        &[7; 32 * 16],
        &retromodel::image::Palette::QUAKE,
    );
    let r = Counting(Cell::new(0), pcx);
    let c = md2::to_model(&file, &Default::default(), &r);
    assert_eq!(r.0.get(), 1);
    assert_eq!(c.model.skins.len(), 100);
    assert!(c.model.skins.iter().all(|s| s.pictures.len() == 1));
}

#[test]
fn gl_commands_for_many_triangles_on_one_edge() {
    let st = vec![
        TexCoord { s: 0, t: 0 },
        TexCoord { s: 1, t: 1 },
        TexCoord { s: 2, t: 2 },
    ];
    let same = Triangle {
        index_xyz: [0, 1, 2],
        index_st: [0, 1, 2],
    };
    let flipped = Triangle {
        index_xyz: [0, 2, 1],
        index_st: [0, 2, 1],
    };
    let degenerate = Triangle::default();
    for tris in [
        vec![same; 50_000],
        vec![degenerate; 50_000],
        [same, flipped].repeat(25_000),
    ] {
        let cmds = md2::glcmds::generate(&tris, &st, 4, 4);
        assert_eq!(md2::glcmds::mismatch(&cmds, &tris, &st, [4, 4], true), None);
    }
}

#[test]
fn writers_refuse_non_finite_positions_and_uvs() {
    let bytes = fixtures::minimal();
    let file = md2::File::parse(&bytes, &Limits::default()).unwrap();
    let model = md2::to_model(&file, &Default::default(), &NoFiles).model;
    let mut bad = model.clone();
    bad.meshes[0].morph_targets[1].positions[3] = [f32::NAN, 0.0, 0.0];
    let e = md2::from_model(&bad, &WriteOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "md2: frame 1: vertex 3: position [NaN, 0.0, 0.0] is not a finite value within ±1e30"
    );
    let mut bad = model.clone();
    bad.meshes[0].morph_targets[0].positions[0] = [3e38, 0.0, 0.0];
    assert!(quake_mdl::from_model(&bad, &WriteOptions::default()).is_err());
    let mut bad = model.clone();
    bad.meshes[0].uvs[2] = [f32::INFINITY, 0.1];
    let e = quake_mdl::from_model(&bad, &WriteOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "quake-mdl: vertex 2: texture coordinate [inf, 0.1] is not a finite value within ±1e30"
    );
    // A huge but finite UV on a seam copy: texels clamp, nothing overflows.
    let mut far = model;
    far.meshes[0].uvs[0] = [1e29, 0.1];
    quake_mdl::from_model(&far, &WriteOptions::default()).unwrap();
}

#[test]
fn pictures_whose_buffers_do_not_match_their_size_are_refused() {
    let bytes = quake_mdl::fixtures::minimal();
    let file = quake_mdl::File::parse(&bytes, &Limits::default()).unwrap();
    let mut model = quake_mdl::to_model(&file, &Default::default(), &NoFiles).model;
    model.skins[0].pictures[0] = Image {
        width: 8,
        height: 8,
        pixels: Pixels::Rgba8(vec![0; 5]),
        encoded: None,
    };
    let e = quake_mdl::from_model(&model, &WriteOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "quake-mdl: skin 0: picture 0: 5 bytes of pixels for 8x8 (needs 256)"
    );
}
