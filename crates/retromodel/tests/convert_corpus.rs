//! Every corpus MDL and MD2 file converted to the other format and back (issue 3, criterion
//! 3): triangle count, frame count, frame names are kept; UVs stay within half a texel;
//! positions stay within one quantisation step of the original in every frame; generated GL
//! commands draw exactly the triangle list.
//!
//! "One quantisation step" is per frame and axis: a written position is at most half a step
//! of its own file from what it encoded, so after one conversion the error is at most half
//! the written file's step, and after the way back at most half of each, i.e. one step of
//! the coarser of the two files.

mod common;

use common::steps;

use retromodel::formats::{md2, quake_mdl};
use retromodel::{Document, Limits, Model, NoFiles, WriteOptions};

/// Writes `model` in the other format than `from`, returns the bytes.
fn write_other(model: &Model, to_md2: bool) -> (Vec<u8>, Vec<f32>) {
    let o = WriteOptions::default();
    if to_md2 {
        let w = md2::from_model(model, &o).expect("MD2 writer");
        (w.file.write(), w.frame_errors)
    } else {
        let w = quake_mdl::from_model(model, &o).expect("MDL writer");
        (w.file.write(), w.frame_errors)
    }
}

/// The skin size a model's UVs are measured in.
fn texels(m: &Model) -> [f32; 2] {
    let s = m.meshes[0].skin_size.unwrap_or([1, 1]);
    [s[0].max(1) as f32, s[1].max(1) as f32]
}

/// Compares `b` with the original `a` corner by corner; UVs in texels of each model's own
/// skin size (MDL pads a skin width that is not a multiple of 4, keeping every texel).
fn compare(what: &str, a: &Model, b: &Model, tolerance: &[[f32; 3]], uv_texels: f32) {
    assert_eq!(a.triangle_count(), b.triangle_count(), "{what}: triangles");
    assert_eq!(a.frames.len(), b.frames.len(), "{what}: frames");
    for (fa, fb) in a.frames.iter().zip(&b.frames) {
        assert_eq!(fa.name, fb.name, "{what}: frame name");
    }
    let (ma, mb) = (&a.meshes[0], &b.meshes[0]);
    let ([wa, ha], [wb, hb]) = (texels(a), texels(b));
    for (ta, tb) in ma.triangles.iter().zip(&mb.triangles) {
        for k in 0..3 {
            let (va, vb) = (ta[k] as usize, tb[k] as usize);
            let (ua, ub) = (ma.uvs[va], mb.uvs[vb]);
            let du = (ua[0] * wa - ub[0] * wb).abs();
            let dv = (ua[1] * ha - ub[1] * hb).abs();
            assert!(
                du <= uv_texels + 1e-3 && dv <= uv_texels + 1e-3,
                "{what}: UV {ua:?} became {ub:?} ({du}, {dv} texels)"
            );
            for (f, tol) in tolerance.iter().enumerate() {
                let pa = ma.morph_targets[f].positions[va];
                let pb = mb.morph_targets[f].positions[vb];
                for ax in 0..3 {
                    let d = (pa[ax] - pb[ax]).abs();
                    let limit = tol[ax] * 1.0001 + 1e-4 * pa[ax].abs().max(1.0);
                    assert!(
                        d <= limit,
                        "{what}: frame {f} axis {ax}: {pa:?} became {pb:?} (error {d}, allowed {limit})"
                    );
                }
            }
        }
    }
}

fn round_trip(path: &std::path::Path) -> (usize, f32) {
    let (what, bytes) = common::read_named(path);
    let limits = Limits::default();
    let doc = Document::parse(&bytes, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
    let is_md2 = doc.format() == md2::MD2;
    let a = doc.to_model(&Default::default(), &NoFiles).model;
    let step_a = steps(&bytes);

    let (there, errors_b) = write_other(&a, !is_md2);
    let doc_b = Document::parse(&there, &limits)
        .unwrap_or_else(|e| panic!("{what}: written file does not parse: {e}"));
    if let Some(f) = (!is_md2).then(|| md2::File::parse(&there, &limits).unwrap()) {
        assert_eq!(
            f.glcmds_mismatch(true),
            None,
            "{what}: generated GL commands"
        );
        assert_eq!(f.glcmds.triangle_count(), f.triangles.len(), "{what}");
    }
    let b = doc_b.to_model(&Default::default(), &NoFiles).model;
    let step_b = steps(&there);
    let half_b: Vec<[f32; 3]> = step_b.iter().map(|s| s.map(|x| x / 2.0)).collect();
    compare(&format!("{what} -> other"), &a, &b, &half_b, 0.5);

    let (back, _) = write_other(&b, is_md2);
    let doc_c = Document::parse(&back, &limits)
        .unwrap_or_else(|e| panic!("{what}: back file does not parse: {e}"));
    let c = doc_c.to_model(&Default::default(), &NoFiles).model;
    let step_c = steps(&back);
    let one: Vec<[f32; 3]> = step_b
        .iter()
        .zip(&step_c)
        .map(|(b, c)| std::array::from_fn(|k| b[k].max(c[k])))
        .collect();
    compare(&format!("{what} -> other -> back"), &a, &c, &one, 0.5);
    // Texels survive the way back exactly.
    let ([wa, ha], [wc, hc]) = (texels(&a), texels(&c));
    for (ta, tc) in a.meshes[0].triangles.iter().zip(&c.meshes[0].triangles) {
        for k in 0..3 {
            let (ua, uc) = (
                a.meshes[0].uvs[ta[k] as usize],
                c.meshes[0].uvs[tc[k] as usize],
            );
            assert!(
                (ua[0] * wa - uc[0] * wc).abs() < 1e-3 && (ua[1] * ha - uc[1] * hc).abs() < 1e-3,
                "{what}: texel changed on the way back: {ua:?} -> {uc:?}"
            );
        }
    }
    let _ = step_a;
    let worst = errors_b.iter().copied().fold(0.0, f32::max);
    (a.frames.len(), worst)
}

#[test]
fn corpus_mdl_and_md2_convert_both_ways() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let mdl = common::files_with_magic(&dir, b"IDPO");
    let md2_files: Vec<_> = common::files_with_magic(&dir, b"IDP2")
        .into_iter()
        .filter(|p| {
            let s = p.to_string_lossy();
            !s.contains("edge_cases") && !s.contains("malformed")
        })
        .collect();
    assert!(mdl.len() >= 160 && md2_files.len() >= 80);
    let mut frames = 0;
    for p in mdl.iter().chain(&md2_files) {
        frames += round_trip(p).0;
    }
    eprintln!(
        "{} MDL and {} MD2 files converted both ways ({frames} frames)",
        mdl.len(),
        md2_files.len()
    );
}
