//! `--bones N` (issue 42): a skeletal model with more joints than GoldSrc's 128 (or than N)
//! has joints merged into their parents, the shape error reported per frame as quantisation
//! error is; a keyframe model gets N rigid bones fitted to its motion, for GoldSrc and for
//! MD5 (instead of one joint per vertex).

mod common;

use retromodel::codec::Writer;
use retromodel::formats::goldsrc::{validate, AnyFile};
use retromodel::model::{Influences, Joint, JointTransform, Mesh, Model, SkeletalAnimation};
use retromodel::options::WriteOptions;
use retromodel::registry;
use retromodel::Limits;

fn writer(ext: &str, variant: &str) -> &'static Writer {
    registry::writers()
        .find(|w| w.format.extensions()[0] == ext && (variant.is_empty() || w.variant == variant))
        .expect("the writer is registered")
}

fn goldsrc() -> &'static Writer {
    writer("mdl", "goldsrc")
}

/// A creature of `limbs` limbs of `segments` joints each under one root: every joint a ring
/// of four vertices (weight 1 on it), rings joined into tubes, each limb bending a little
/// more at every joint over eight frames. The joints near the tips carry the same vertices
/// as the others, so merging costs shape.
fn creature(limbs: usize, segments: usize) -> Model {
    let id = [0.0, 0.0, 0.0, 1.0];
    let mut joints = vec![Joint {
        name: "root".into(),
        parent: None,
        translation: [0.0; 3],
        rotation: id,
    }];
    let mut mesh = Mesh {
        name: "body".into(),
        ..Mesh::default()
    };
    for l in 0..limbs {
        let x = l as f32 * 8.0;
        for s in 0..segments {
            let j = joints.len();
            joints.push(Joint {
                name: format!("limb{l}_{s}"),
                parent: Some(if s == 0 { 0 } else { j - 1 }),
                translation: [x, 0.0, s as f32 * 2.0],
                rotation: id,
            });
            let base = mesh.positions.len() as u32;
            for (dx, dy) in [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)] {
                mesh.positions.push([x + dx, dy, s as f32 * 2.0]);
                mesh.normals.push([dx, dy, 0.0]);
                mesh.uvs
                    .push([0.25 * (dx + 1.0), s as f32 / segments as f32]);
                mesh.joint_weights
                    .push(Influences::from_slice(&[(j as u32, 1.0)]));
            }
            if s > 0 {
                for k in 0..4u32 {
                    let (a, b) = (base - 4 + k, base - 4 + (k + 1) % 4);
                    let (c, d) = (base + k, base + (k + 1) % 4);
                    mesh.triangles.push([a, b, d]);
                    mesh.triangles.push([a, d, c]);
                }
            }
        }
    }
    mesh.source_vertices = (0..mesh.positions.len() as u32).collect();
    let frames: Vec<Vec<JointTransform>> = (0..8)
        .map(|f| {
            let turn = 0.01 * f as f32;
            joints
                .iter()
                .enumerate()
                .map(|(j, joint)| {
                    let (s, c) = retromodel::math::det::sin_cos((turn * (1 + j % 3) as f32) / 2.0);
                    let parent = joint.parent.map_or([0.0; 3], |p| joints[p].translation);
                    JointTransform {
                        translation: std::array::from_fn(|k| joint.translation[k] - parent[k]),
                        rotation: if j == 0 { id } else { [s, 0.0, 0.0, c] },
                    }
                })
                .collect()
        })
        .collect();
    Model {
        meshes: vec![mesh],
        joints,
        animations: vec![SkeletalAnimation {
            name: "wave".into(),
            fps: 10.0,
            frames: frames.into(),
            bounds: Vec::new(),
            loops: true,
            weight_scales: None,
        }],
        ..Model::default()
    }
}

fn with_bones(n: Option<usize>) -> WriteOptions {
    WriteOptions {
        bones: n,
        ..WriteOptions::default()
    }
}

/// The written file parsed, valid for GoldSrc, and read back.
fn read_back(bytes: &[u8]) -> Model {
    let AnyFile::Studio(file) = AnyFile::parse(bytes, &Limits::default()).unwrap() else {
        panic!("not a studio model")
    };
    assert_eq!(file.write(), bytes, "writes back byte for byte");
    let errors: Vec<String> = validate::validate(&file, "goldsrc")
        .into_iter()
        .filter(|d| d.severity == retromodel::diagnostic::Severity::Error)
        .map(|d| d.message)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    file.to_model_alone().model
}

fn height(model: &Model) -> f32 {
    let z = model
        .meshes
        .iter()
        .flat_map(|m| m.positions.iter().map(|p| p[2]));
    let (lo, hi) = z.fold((f32::MAX, f32::MIN), |(lo, hi), z| (lo.min(z), hi.max(z)));
    hi - lo
}

#[test]
fn many_joints_merge_to_the_limit_with_the_error_reported() {
    let model = creature(4, 40);
    model.validate().unwrap();
    assert_eq!(model.joints.len(), 161);
    let h = height(&model);
    // Without --bones: the limit named, --bones suggested.
    let e = registry::write_model(&model, goldsrc(), &with_bones(None))
        .unwrap_err()
        .to_string();
    assert!(e.contains("MAXSTUDIOBONES") && e.contains("--bones"), "{e}");
    let mut worst = Vec::new();
    // Measured: 0.27 % of the height at 128 joints (33 merged), 8.0 % at 40 (121 merged,
    // three joints of four along each limb: their turns add up).
    for (n, bound) in [(128, 0.01), (40, 0.10)] {
        let out = registry::write_model(&model, goldsrc(), &with_bones(Some(n))).unwrap();
        let back = read_back(&out.bytes);
        assert_eq!(back.joints.len(), n, "--bones {n}");
        assert_eq!(out.frame_errors.len(), 8, "one error per frame");
        assert_eq!(out.frame_names.len(), 8);
        assert!(out.frame_errors.iter().all(|e| e.is_finite()));
        assert_eq!(out.frame_errors[0], 0.0, "the bind pose is not bent");
        let w = out.warnings.iter().find(|w| w.contains("joints merged"));
        assert!(w.is_some(), "{:?}", out.warnings);
        let max = out.frame_errors.iter().fold(0f32, |a, &e| a.max(e));
        eprintln!(
            "161 joints to {n}: largest vertex error {max:.4} ({:.3} % of {h:.1}); {}",
            100.0 * max / h,
            w.unwrap()
        );
        // The bends are small (at most 0.21 rad over 2 units a joint): a merged joint's
        // vertices stray by about a segment times the turns they lost.
        assert!(max > 0.0 && max < bound * h, "--bones {n}: {max} of {h}");
        worst.push(max);
    }
    assert!(
        worst[1] >= worst[0],
        "fewer joints, no smaller error: {worst:?}"
    );
}

#[test]
fn bones_merge_for_md5_too() {
    let model = creature(2, 20);
    let out = registry::write_model(&model, writer("md5mesh", ""), &with_bones(Some(12))).unwrap();
    let text = String::from_utf8_lossy(&out.bytes);
    assert!(
        text.contains("numJoints 12"),
        "{}",
        &text[..200.min(text.len())]
    );
    assert!(!out.frame_errors.is_empty());
}

/// A corpus Quake MDL with animation, its vertices more than 20.
fn quake_mdl() -> Option<Model> {
    let dir = common::corpus("--bones on a Quake MDL")?;
    for path in common::files_with_magic(&dir, b"IDPO") {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(model) = retromodel::read(&bytes, &Limits::default(), &retromodel::NoFiles) else {
            continue;
        };
        let vertices: usize = model.meshes.iter().map(|m| m.positions.len()).sum();
        if model.frames.len() >= 10 && vertices > 100 {
            eprintln!("{}", common::relative(&dir, &path));
            return Some(model);
        }
    }
    None
}

#[test]
fn keyframe_models_get_n_fitted_bones() {
    let Some(model) = quake_mdl() else { return };
    let out = registry::write_model(&model, goldsrc(), &with_bones(Some(20))).unwrap();
    let back = read_back(&out.bytes);
    assert!(
        back.joints.len() <= 20 && back.joints.len() > 1,
        "{}",
        back.joints.len()
    );
    assert_eq!(out.frame_errors.len(), model.frames.len());
    assert!(out.frame_errors.iter().all(|e| e.is_finite()));
    let h = model
        .frames
        .iter()
        .map(|f| f.bounds_max[2] - f.bounds_min[2])
        .fold(0f32, f32::max);
    let max = out.frame_errors.iter().fold(0f32, |a, &e| a.max(e));
    eprintln!(
        "--bones 20: {} bones, largest vertex error {max:.3} ({:.2} % of {h:.1})",
        back.joints.len(),
        100.0 * max / h
    );
    // Fewer bones follow the motion less closely than the 128 of the default.
    let full = registry::write_model(&model, goldsrc(), &with_bones(None)).unwrap();
    let full_max = full.frame_errors.iter().fold(0f32, |a, &e| a.max(e));
    assert!(full_max <= max, "128 bones {full_max}, 20 bones {max}");
    // MD5: N joints instead of one per vertex.
    let md5 = writer("md5mesh", "");
    let out = registry::write_model(&model, md5, &with_bones(Some(20))).unwrap();
    let text = String::from_utf8_lossy(&out.bytes);
    let joints: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("numJoints "))
        .and_then(|n| n.trim().parse().ok())
        .unwrap();
    assert!(joints <= 20, "{joints} joints");
    let vertices: usize = model.meshes.iter().map(|m| m.positions.len()).sum();
    let rig = registry::write_model(&model, md5, &with_bones(None)).unwrap();
    assert!(String::from_utf8_lossy(&rig.bytes).contains(&format!("numJoints {}", vertices + 1)));
}

/// Skin families: a corpus keyframe model with several skins (its meshes on skin 0) gets a
/// family per skin, family k showing skin k; read back, the same skins.
#[test]
fn alternative_skins_become_skin_families() {
    let Some(dir) = common::corpus("GoldSrc skin families") else {
        return;
    };
    let mut files = common::files_with_magic(&dir, b"IDPO");
    files.extend(common::files_with_magic(&dir, b"IDP2"));
    let mut checked = 0;
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(model) = retromodel::read(&bytes, &Limits::default(), &retromodel::NoFiles) else {
            continue;
        };
        let skinned = model
            .skins
            .iter()
            .filter(|s| !s.pictures.is_empty())
            .count();
        if skinned < 2
            || skinned != model.skins.len()
            || model.meshes.iter().any(|m| m.skin != Some(0))
        {
            continue;
        }
        let name = common::relative(&dir, &path);
        let out = registry::write_model(&model, goldsrc(), &with_bones(Some(16))).unwrap();
        let AnyFile::Studio(file) = AnyFile::parse(&out.bytes, &Limits::default()).unwrap() else {
            panic!("{name}: not a studio model")
        };
        assert_eq!(file.header.num_skin_families() as usize, skinned, "{name}");
        let back = file.to_model_alone().model;
        assert_eq!(back.skins.len(), model.skins.len(), "{name}: skins");
        for k in 0..skinned {
            let choice = retromodel::formats::goldsrc::Choice {
                skin_family: k,
                ..Default::default()
            };
            let shown = retromodel::formats::goldsrc::convert::to_model(&file, choice, Vec::new());
            assert!(
                shown.model.meshes.iter().all(|m| m.skin == Some(k)),
                "{name}: family {k}"
            );
        }
        eprintln!("{name}: {skinned} skins as families");
        checked += 1;
        if checked == 3 {
            break;
        }
    }
    assert!(checked > 0, "no corpus keyframe model with several skins");
}

/// Writes `model` as `man.mdl` twice, as one file and with `--external-textures` and
/// sequence groups of `kb` KB; the pair read back (side files through a resolver) is the
/// same model as the single file. Returns the side files' names.
fn side_files_read_back_equal(model: &Model, kb: usize) -> Vec<String> {
    let plain = WriteOptions {
        stem: "man".into(),
        ..WriteOptions::default()
    };
    let split = WriteOptions {
        external_textures: true,
        sequence_group_size: Some(kb * 1024),
        ..plain.clone()
    };
    let one = registry::write_model(model, goldsrc(), &plain).unwrap();
    assert!(one.side_files.is_empty());
    let out = registry::write_model(model, goldsrc(), &split).unwrap();
    let names: Vec<String> = out.side_files.iter().map(|f| f.name.clone()).collect();
    let files = retromodel::resolve::MemoryFiles(
        out.side_files
            .iter()
            .map(|f| (f.name.clone(), f.bytes.clone()))
            .collect(),
    );
    let AnyFile::Studio(main) = AnyFile::parse(&out.bytes, &Limits::default()).unwrap() else {
        panic!("not a studio model")
    };
    assert!(main.textures.is_empty() && main.has_external_textures());
    let errors: Vec<String> = validate::validate(&main, "goldsrc")
        .into_iter()
        .filter(|d| d.severity == retromodel::diagnostic::Severity::Error)
        .map(|d| d.message)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert!(out.bytes.len() < one.bytes.len());
    for f in &out.side_files {
        let parsed = AnyFile::parse(&f.bytes, &Limits::default()).unwrap();
        assert_eq!(
            parsed.write(),
            f.bytes,
            "{}: writes back byte for byte",
            f.name
        );
    }
    let want = retromodel::read(&one.bytes, &Limits::default(), &retromodel::NoFiles).unwrap();
    let got = retromodel::read(&out.bytes, &Limits::default(), &files).unwrap();
    assert!(!want.skins.is_empty());
    assert_eq!(got.skins, want.skins, "textures");
    assert_eq!(got.animations, want.animations, "sequences");
    assert_eq!(got.meshes, want.meshes, "meshes");
    // Without the side files: no textures, and the grouped sequences still.
    let alone = retromodel::read(&out.bytes, &Limits::default(), &retromodel::NoFiles).unwrap();
    assert!(alone.skins.is_empty());
    names
}

#[test]
fn external_textures_and_sequence_groups_read_back_equal() {
    // Three animations of a textured creature, groups of 1 KB.
    let mut model = creature(2, 10);
    let mut skin = retromodel::image::Image::new(
        8,
        8,
        retromodel::image::Pixels::Rgba8((0..256).map(|i| (i * 7) as u8).collect()),
    );
    skin.width = 8;
    model.skins.push(retromodel::model::Skin {
        name: "scales.bmp".into(),
        pictures: vec![skin],
        picture_times: None,
        source: None,
    });
    model.meshes[0].skin = Some(0);
    for name in ["walk", "run"] {
        let mut a = model.animations[0].clone();
        a.name = name.into();
        model.animations.push(a);
    }
    let names = side_files_read_back_equal(&model, 1);
    eprintln!("creature: {names:?}");
    assert!(names.contains(&"manT.mdl".to_string()));
    assert!(names.contains(&"man01.mdl".to_string()), "{names:?}");
    // A corpus model with its own texture file.
    let Some(dir) = common::corpus("GoldSrc side files") else {
        return;
    };
    let man = dir.join("assimp/test/models/MDL/MDL (HL1)/man.mdl");
    let archives = retromodel::vfs::Archives::new(&Limits::default(), false);
    let opener = retromodel::front::Opener::new(&archives, Default::default()).unwrap();
    let model = opener.open(&man).unwrap().model;
    let names = side_files_read_back_equal(&model, 1);
    eprintln!(
        "man.mdl: {} sequences, side files {names:?}",
        model.animations.len()
    );
    assert_eq!(names, ["man01.mdl", "manT.mdl"]);
}
