//! Issue 8, criterion 1: every corpus MDL, MD2 and MD5 model converted to glTF and back to
//! its own format keeps its vertex count (or the seam-split count), triangle count, frame
//! count and names, clip timing, and its positions within one quantisation step per frame
//! (MD5: bind pose and every sampled pose within 1e-4, relative to the model's size).
//! Issue 16, criterion 3: the same through quantised glTF (`GltfOptions::quantize`).

mod common;

use common::steps;

use retromodel::formats::{md2, md5, quake_mdl};
use retromodel::image::{Palette, Pixels};
use retromodel::interchange::gltf::{export, Container, GltfOptions};
use retromodel::interchange::{self as import, ImportOptions};
use retromodel::model::bake::bake_skeletal;
use retromodel::model::Clip;
use retromodel::{Document, Limits, Model, NoFiles, WriteOptions};

/// The model through `.glb` (quantised when `quantize`) and back into a Model, with the
/// largest position error the quantisation reported (0 for floats).
fn via_glb(what: &str, a: &Model, quantize: bool) -> (Model, f32) {
    let options = GltfOptions {
        quantize,
        ..GltfOptions::default()
    };
    let out =
        export(a, &options, &Container::Glb).unwrap_or_else(|e| panic!("{what}: export: {e}"));
    assert_eq!(
        out.quantized.is_empty(),
        !quantize,
        "{what}: quantisation report"
    );
    let error = out
        .quantized
        .iter()
        .map(|m| m.position_error)
        .fold(0.0, f64::max);
    let model = import::gltf::read(&out.file, &NoFiles, &ImportOptions::default())
        .unwrap_or_else(|e| panic!("{what}: import: {e}"))
        .model;
    (model, error as f32)
}

fn same_clips(what: &str, a: &[Clip], b: &[Clip]) {
    assert_eq!(a.len(), b.len(), "{what}: clip count");
    for (ca, cb) in a.iter().zip(b) {
        assert_eq!(
            (&ca.name, ca.first, ca.count),
            (&cb.name, cb.first, cb.count),
            "{what}: clip"
        );
        match (&ca.frame_times, &cb.frame_times) {
            (Some(ta), Some(tb)) => {
                assert_eq!(ta.len(), tb.len(), "{what}: clip {}", ca.name);
                for (x, y) in ta.iter().zip(tb) {
                    assert!(
                        (x - y).abs() < 1e-5,
                        "{what}: clip {} times {ta:?} became {tb:?}",
                        ca.name
                    );
                }
            }
            (None, None) => assert!(
                (ca.fps - cb.fps).abs() < 1e-3,
                "{what}: clip {} fps {} became {}",
                ca.name,
                ca.fps,
                cb.fps
            ),
            (x, y) => panic!("{what}: clip {} timing {x:?} became {y:?}", ca.name),
        }
    }
}

fn file_vertices(bytes: &[u8]) -> usize {
    let limits = Limits::default();
    match md2::File::parse(bytes, &limits) {
        Ok(f) => f.header.num_xyz as usize,
        Err(_) => {
            quake_mdl::File::parse(bytes, &limits)
                .expect("MDL or MD2")
                .header
                .num_verts as usize
        }
    }
}

fn keyframe_round_trip(
    path: &std::path::Path,
    quantize: bool,
    skins_compared: &mut usize,
) -> usize {
    let (what, bytes) = common::read_named(path);
    let what = if quantize {
        format!("{what} (quantised)")
    } else {
        what
    };
    let limits = Limits::default();
    let doc = Document::parse(&bytes, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
    let a = doc.to_model(&Default::default(), &NoFiles).model;
    let (b, gltf_error) = via_glb(&what, &a, quantize);
    // The imported model itself: names and timing.
    assert_eq!(
        a.frames.len(),
        b.frames.len(),
        "{what}: frames after import"
    );
    for (fa, fb) in a.frames.iter().zip(&b.frames) {
        assert_eq!(fa.name, fb.name, "{what}: frame name after import");
    }
    same_clips(&format!("{what} (imported)"), &a.clips, &b.clips);
    let o = WriteOptions::default();
    let back = match doc {
        _ if doc.format() == md2::MD2 => md2::from_model(&b, &o)
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .file
            .write(),
        _ => quake_mdl::from_model(&b, &o)
            .unwrap_or_else(|e| panic!("{what}: {e}"))
            .file
            .write(),
    };
    let doc_c =
        Document::parse(&back, &limits).unwrap_or_else(|e| panic!("{what}: written back: {e}"));
    if let Ok(f) = md2::File::parse(&back, &limits) {
        assert_eq!(
            f.glcmds_mismatch(true),
            None,
            "{what}: generated GL commands"
        );
    }
    let c = doc_c.to_model(&Default::default(), &NoFiles).model;
    let (va, vc) = (file_vertices(&bytes), file_vertices(&back));
    // The glTF import welds the copies of a point (`model::weld`): an MD2 gets its file
    // vertices back exactly (it stores positions apart from texture coordinates). A Quake
    // MDL, which splits points at texture seams, gets one vertex per point and texel: its
    // own count, or a few more where a point's texels are off Quake's seam rule
    // (griechin.mdl: 811 -> 816), or fewer where the file stored one point twice
    // (suit.mdl: 310 -> 307); never more than the split vertices.
    assert!(
        vc == va || (doc.format() != md2::MD2 && vc <= a.vertex_count()),
        "{what}: {va} file vertices ({} split) became {vc}",
        a.vertex_count()
    );
    assert_eq!(a.triangle_count(), c.triangle_count(), "{what}: triangles");
    assert_eq!(a.frames.len(), c.frames.len(), "{what}: frames");
    for (fa, fc) in a.frames.iter().zip(&c.frames) {
        assert_eq!(fa.name, fc.name, "{what}: frame name");
    }
    same_clips(&what, &a.clips, &c.clips);
    // Quake skins come back colour for colour, fullbright pixels (the exported emissive
    // mask) and holes included. (The Quake palette repeats some colours, 0 and 48 for one,
    // so an index may come back as its twin.)
    for (sa, sc) in a.skins.iter().zip(&c.skins) {
        let (Some(pa), Some(pc)) = (sa.pictures.first(), sc.pictures.first()) else {
            continue;
        };
        if let (
            Pixels::Indexed {
                indices: ia,
                palette,
                ..
            },
            Pixels::Indexed { indices: ic, .. },
        ) = (&pa.pixels, &pc.pixels)
        {
            if doc.format() == quake_mdl::QUAKE_MDL && **palette == Palette::QUAKE {
                assert_eq!(
                    (pa.width, pa.height),
                    (pc.width, pc.height),
                    "{what}: skin size"
                );
                let differ = ia
                    .iter()
                    .zip(ic)
                    .filter(|(&x, &y)| palette.rgb(x) != palette.rgb(y) || (x >= 224) != (y >= 224))
                    .count();
                assert_eq!(
                    differ, 0,
                    "{what}: {differ} skin pixels changed colour or glow"
                );
                *skins_compared += 1;
            }
        }
    }
    // Writing requantises (within half a step of the file written, one step allowed);
    // quantised glTF moved the positions first, by up to what its report says (within
    // half the source's step, tests/gltf_quantize.rs checks): each rounding within its
    // bound.
    let step = steps(&back);
    let (ma, mc) = (&a.meshes[0], &c.meshes[0]);
    for (ta, tc) in ma.triangles.iter().zip(&mc.triangles) {
        for k in 0..3 {
            let (ia, ic) = (ta[k] as usize, tc[k] as usize);
            for (f, s) in step.iter().enumerate() {
                let (pa, pc) = (
                    ma.morph_targets[f].positions[ia],
                    mc.morph_targets[f].positions[ic],
                );
                for ax in 0..3 {
                    let d = (pa[ax] - pc[ax]).abs();
                    let limit = if quantize {
                        (s[ax] * 0.5 + gltf_error) * 1.0001
                    } else {
                        s[ax] * 1.0001
                    } + 1e-5 * pa[ax].abs().max(1.0);
                    assert!(
                        d <= limit,
                        "{what}: frame {f} axis {ax}: {pa:?} became {pc:?} (error {d}, step {})",
                        s[ax]
                    );
                }
            }
        }
    }
    a.frames.len()
}

#[test]
fn corpus_mdl_and_md2_survive_gltf() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let files: Vec<_> = common::files_with_magic(&dir, b"IDPO")
        .into_iter()
        .chain(common::files_with_magic(&dir, b"IDP2"))
        .filter(|p| {
            let s = p.to_string_lossy();
            !s.contains("edge_cases") && !s.contains("malformed")
        })
        .collect();
    assert!(files.len() >= 240, "{} files", files.len());
    for quantize in [false, true] {
        let mut skins = 0;
        let frames: usize = files
            .iter()
            .map(|p| keyframe_round_trip(p, quantize, &mut skins))
            .sum();
        eprintln!(
            "{} MDL and MD2 files through {}glTF and back ({frames} frames, {skins} Quake \
             skins compared pixel for pixel)",
            files.len(),
            if quantize { "quantised " } else { "" }
        );
        assert!(skins >= 150, "{skins} skins compared");
    }
}

/// The md5mesh at `path` with every md5anim beside it that fits.
fn md5_model(path: &std::path::Path) -> Model {
    let limits = Limits::default();
    let Ok(mesh) = md5::parse_mesh(&std::fs::read(path).unwrap(), &limits) else {
        return Model::default();
    };
    let mut model = md5::mesh_to_model(&mesh.file, &[]).model;
    let dir = path.parent().unwrap();
    let mut anims: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "md5anim"))
        .collect();
    anims.sort();
    for p in anims {
        let Ok(a) = md5::parse_anim(&std::fs::read(&p).unwrap(), &limits) else {
            continue;
        };
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        let _ = md5::attach_animation(&mut model, &a.file, &name);
    }
    model
}

fn close(what: &str, a: &[[f32; 3]], b: &[[f32; 3]], size: f32) {
    assert_eq!(a.len(), b.len(), "{what}: vertex count");
    for (v, (p, q)) in a.iter().zip(b).enumerate() {
        let d = (0..3).map(|k| (p[k] - q[k]).abs()).fold(0.0, f32::max);
        assert!(
            d <= 1e-4 * size,
            "{what}: vertex {v}: {p:?} became {q:?} (error {d}, size {size})"
        );
    }
}

#[test]
fn corpus_md5_survives_gltf() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let meshes = common::files_with_extension(&dir, &["md5mesh"]);
    assert!(!meshes.is_empty());
    for quantize in [false, true] {
        md5_round_trips(&meshes, quantize);
    }
}

/// Every md5mesh of `meshes` with its animations through glTF and back to MD5 text.
fn md5_round_trips(meshes: &[std::path::PathBuf], quantize: bool) {
    let (mut poses, mut checked) = (0, 0);
    for path in meshes {
        let what = format!(
            "{}{}",
            path.display(),
            if quantize { " (quantised)" } else { "" }
        );
        let a = md5_model(path);
        if a.meshes.is_empty() {
            continue;
        }
        let (b, _) = via_glb(&what, &a, quantize);
        assert_eq!(a.joints.len(), b.joints.len(), "{what}: joints");
        assert_eq!(a.animations.len(), b.animations.len(), "{what}: animations");
        // Through the md5 text files.
        let limits = Limits::default();
        let mesh_text =
            md5::write_mesh(&md5::mesh_from_model(&b).unwrap_or_else(|e| panic!("{what}: {e}")));
        let mesh = md5::parse_mesh(mesh_text.as_bytes(), &limits).unwrap();
        let mut c = md5::mesh_to_model(&mesh.file, &[]).model;
        for i in 0..b.animations.len() {
            let text = md5::write_anim(
                &md5::anim_from_model(&b, i).unwrap_or_else(|e| panic!("{what}: {e}")),
            );
            let anim = md5::parse_anim(text.as_bytes(), &limits).unwrap();
            md5::attach_animation(&mut c, &anim.file, &b.animations[i].name).unwrap();
        }
        let [lo, hi] = a.bounds().unwrap();
        let size = (0..3).map(|k| hi[k] - lo[k]).fold(1.0, f32::max);
        // The exporter leaves out meshes with nothing to draw.
        let drawn: Vec<usize> = (0..a.meshes.len())
            .filter(|&m| !a.meshes[m].triangles.is_empty())
            .collect();
        assert_eq!(drawn.len(), c.meshes.len(), "{what}: meshes");
        let a = Model {
            meshes: drawn.iter().map(|&m| a.meshes[m].clone()).collect(),
            ..a
        };
        for (m, (ma, mc)) in a.meshes.iter().zip(&c.meshes).enumerate() {
            assert_eq!(ma.triangles, mc.triangles, "{what}: mesh {m} triangles");
            close(
                &format!("{what}: mesh {m} bind pose"),
                &ma.positions,
                &mc.positions,
                size,
            );
        }
        let (ba, bc) = (
            bake_skeletal(&a, None).unwrap().model,
            bake_skeletal(&c, None).unwrap().model,
        );
        assert_eq!(ba.frames.len(), bc.frames.len(), "{what}: sampled frames");
        for (ca, cc) in a.animations.iter().zip(&c.animations) {
            assert_eq!(ca.name, cc.name, "{what}: animation name");
            assert!(
                (ca.fps - cc.fps).abs() < 1e-3,
                "{what}: {} fps {} became {}",
                ca.name,
                ca.fps,
                cc.fps
            );
            assert_eq!(
                ca.frames.len(),
                cc.frames.len(),
                "{what}: {} frames",
                ca.name
            );
        }
        for f in 0..ba.frames.len() {
            for (m, (ma, mc)) in ba.meshes.iter().zip(&bc.meshes).enumerate() {
                close(
                    &format!("{what}: frame {f} mesh {m}"),
                    &ma.morph_targets[f].positions,
                    &mc.morph_targets[f].positions,
                    size,
                );
            }
        }
        poses += ba.frames.len();
        checked += 1;
    }
    eprintln!(
        "{checked} md5 models through {}glTF and back, {poses} sampled poses compared",
        if quantize { "quantised " } else { "" }
    );
    assert!(checked >= 10);
}
