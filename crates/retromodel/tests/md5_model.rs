//! MD5 through the format-neutral Model and back: md5mesh bind poses, md5anim poses (via
//! the compressing writer) and md5camera keys survive; animations attach by joint name.

mod common;

use retromodel::formats::md5::{self, anim, fixtures};
use retromodel::{Document, Limits, NoFiles};

fn close(a: [f32; 3], b: [f32; 3], tol: f32) -> bool {
    (0..3).all(|k| (a[k] - b[k]).abs() <= tol * a[k].abs().max(1.0))
}

/// Rotations equal up to sign, within `tol` per component.
fn same_rotation(a: [f32; 4], b: [f32; 4], tol: f32) -> bool {
    let d: f32 = (0..4).map(|k| a[k] * b[k]).sum();
    let s = if d < 0.0 { -1.0 } else { 1.0 };
    (0..4).all(|k| (a[k] - s * b[k]).abs() <= tol)
}

fn mesh_round_trip(bytes: &[u8], what: &str) {
    let doc = Document::parse(bytes, &Limits::default()).unwrap();
    let model = doc.to_model(&Default::default(), &NoFiles).model;
    model.validate().unwrap();
    let file = md5::mesh_from_model(&model).unwrap_or_else(|e| panic!("{what}: {e}"));
    let text = md5::write_mesh(&file);
    let back = md5::parse_mesh(text.as_bytes(), &Limits::default())
        .unwrap()
        .file;
    let again = md5::mesh_to_model(&back, &[]).model;
    assert_eq!(again.meshes.len(), model.meshes.len(), "{what}");
    for (a, b) in model.meshes.iter().zip(&again.meshes) {
        assert_eq!(a.triangles, b.triangles, "{what}");
        assert_eq!(a.uvs, b.uvs, "{what}");
        for (p, q) in a.positions.iter().zip(&b.positions) {
            assert!(close(*p, *q, 1e-4), "{what}: {p:?} became {q:?}");
        }
    }
    for (a, b) in model.joints.iter().zip(&again.joints) {
        assert_eq!((&a.name, a.parent), (&b.name, b.parent));
        assert!(same_rotation(a.rotation, b.rotation, 1e-6), "{what}");
    }
}

#[test]
fn fixtures_go_through_the_model_and_back() {
    mesh_round_trip(&fixtures::skeleton(), "skeleton");
    mesh_round_trip(&fixtures::two_meshes(), "two meshes");

    // md5anim: poses survive the compressing writer.
    let anim_bytes = fixtures::anim();
    let doc = Document::parse(&anim_bytes, &Limits::default()).unwrap();
    let model = doc.to_model(&Default::default(), &NoFiles).model;
    assert_eq!(model.animations.len(), 1);
    let file = md5::anim_from_model(&model, 0).unwrap();
    let text = md5::write_anim(&file);
    let back = md5::parse_anim(text.as_bytes(), &Limits::default())
        .unwrap()
        .file;
    let again = md5::anim_to_model(&back, "anim", &[]).model;
    for (fa, fb) in model.animations[0]
        .frames
        .iter()
        .zip(&again.animations[0].frames)
    {
        for (a, b) in fa.iter().zip(fb) {
            assert!(close(a.translation, b.translation, 1e-5));
            assert!(same_rotation(a.rotation, b.rotation, 1e-5));
        }
    }
    assert_eq!(back.frame_rate, fixtures::anim_file().frame_rate);

    // md5camera keys.
    let cam_bytes = fixtures::camera();
    let cam = Document::parse(&cam_bytes, &Limits::default()).unwrap();
    let model = cam.to_model(&Default::default(), &NoFiles).model;
    let file = md5::camera_from_model(&model).unwrap();
    assert_eq!(file.cuts, fixtures::camera_file().cuts);
    assert_eq!(file.frames.len(), fixtures::camera_file().frames.len());
    for (a, b) in file.frames.iter().zip(&fixtures::camera_file().frames) {
        assert_eq!(a.pos, b.pos);
        assert_eq!(a.fov, b.fov);
    }
}

#[test]
fn corpus_meshes_and_animations_go_through_the_model_and_back() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let mut stack = vec![dir.join("md5")];
    let (mut meshes, mut anims) = (0, 0);
    while let Some(d) = stack.pop() {
        let mut entries: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let what = p.display().to_string();
            match p.extension().and_then(|e| e.to_str()) {
                Some("md5mesh") => {
                    mesh_round_trip(&std::fs::read(&p).unwrap(), &what);
                    meshes += 1;
                }
                Some("md5anim") => {
                    let bytes = std::fs::read(&p).unwrap();
                    let file = md5::parse_anim(&bytes, &Limits::default()).unwrap().file;
                    let model = md5::anim_to_model(&file, "a", &[]).model;
                    let out = md5::anim_from_model(&model, 0).unwrap();
                    // Written and read back, the poses decode to the original ones.
                    let back =
                        md5::parse_anim(md5::write_anim(&out).as_bytes(), &Limits::default())
                            .unwrap()
                            .file;
                    let (a, b) = (
                        anim::Animation::new(&file).unwrap(),
                        anim::Animation::new(&back).unwrap(),
                    );
                    assert_eq!(a.frame_count(), b.frame_count(), "{what}");
                    for f in 0..a.frame_count() {
                        for (x, y) in a.frame(f).iter().zip(b.frame(f)) {
                            assert!(close(x.pos, y.pos, 1e-5), "{what}: frame {f}");
                            assert!(
                                same_rotation(x.orient.to_array(), y.orient.to_array(), 1e-5),
                                "{what}: frame {f}: {:?} vs {:?}",
                                x.orient,
                                y.orient
                            );
                        }
                    }
                    assert!(
                        out.num_animated_components <= file.num_animated_components,
                        "{what}"
                    );
                    anims += 1;
                }
                _ => {}
            }
        }
    }
    assert!(
        meshes >= 20 && anims >= 50,
        "{meshes} meshes, {anims} anims"
    );
    eprintln!("{meshes} md5mesh and {anims} md5anim files through the Model and back");
}

#[test]
fn animations_attach_by_joint_name() {
    let bytes = fixtures::skeleton();
    let doc = Document::parse(&bytes, &Limits::default()).unwrap();
    let mut model = doc.to_model(&Default::default(), &NoFiles).model;
    let anim_file = fixtures::anim_file();
    md5::attach_animation(&mut model, &anim_file, "walk").unwrap();
    assert_eq!(model.animations[0].name, "walk");
    assert_eq!(model.animations[0].frames[0].len(), model.joints.len());
    model.validate().unwrap();
    let mut other = anim_file.clone();
    other.hierarchy[0].name = "nobody".into();
    let e = md5::attach_animation(&mut model, &other, "x").unwrap_err();
    assert!(e.contains("is not in the animation"), "{e}");
}

#[test]
fn anim_bounds_are_computed_from_the_skinned_mesh_when_the_model_has_none() {
    let bytes = fixtures::skeleton();
    let doc = Document::parse(&bytes, &Limits::default()).unwrap();
    let mut model = doc.to_model(&Default::default(), &NoFiles).model;
    md5::attach_animation(&mut model, &fixtures::anim_file(), "wave").unwrap();
    model.animations[0].bounds.clear();
    let file = md5::anim_from_model(&model, 0).unwrap();
    assert_eq!(file.bounds.len(), file.frames.len());
    // Every skinned vertex of every frame lies inside that frame's computed bounds, and the
    // bounds are tight (some vertex touches each face of the box).
    let mesh = md5::mesh_from_model(&model).unwrap();
    let a = anim::Animation::new(&file).unwrap();
    let mut global = vec![anim::JointPose::IDENTITY; a.joint_count()];
    for f in 0..a.frame_count() {
        a.frame_global(f, &mut global);
        let b = file.bounds[f];
        let mut lo = [f32::INFINITY; 3];
        let mut hi = [f32::NEG_INFINITY; 3];
        for m in &mesh.meshes {
            let mut out = vec![[0f32; 3]; m.verts.len()];
            anim::skin_positions(m, &global, &mut out);
            for p in &out {
                for k in 0..3 {
                    lo[k] = lo[k].min(p[k]);
                    hi[k] = hi[k].max(p[k]);
                }
            }
        }
        assert!(
            close(lo, b.min, 1e-4) && close(hi, b.max, 1e-4),
            "frame {f}: {lo:?}..{hi:?} vs {b:?}"
        );
    }
}
