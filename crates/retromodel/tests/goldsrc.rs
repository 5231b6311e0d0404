//! Half-Life (GoldSrc) MDL: the generated fixtures (every branch, byte-exact), invalid files
//! with their exact errors, engine limits, side files through a resolver, and bone poses
//! checked by value against the engine's formula computed here from the stored bytes (the
//! Half-Life SDK's `StudioCalcBoneQuaternion` walk and `AngleMatrix`), independently of the
//! library's decoder and quaternions.
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]

mod common;

use std::collections::HashMap;
use std::path::Path;

use retromodel::formats::goldsrc::{self, fixtures, AnyFile, File};
use retromodel::image::Pixels;
use retromodel::model::{JointTransform, Model};
use retromodel::{Document, Limits, Resolver};

fn limits() -> Limits {
    Limits::default()
}

/// Files by name, for side files.
struct Files(HashMap<String, Vec<u8>>);

impl Resolver for Files {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.0.get(name).cloned()
    }
    fn model_name(&self) -> Option<String> {
        Some("fixture.mdl".into())
    }
}

fn convert(bytes: &[u8], resolver: &dyn Resolver) -> retromodel::model::Converted {
    let doc = Document::parse(bytes, &limits()).unwrap();
    doc.to_model(&Default::default(), resolver)
}

#[test]
fn fixtures_write_back_byte_for_byte_and_cover_every_branch() {
    for (name, bytes) in fixtures::all() {
        let file = AnyFile::parse(&bytes, &limits()).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(file.write() == bytes, "{name}");
    }
    let bytes = fixtures::model(true);
    let f = File::parse(&bytes, &limits()).unwrap();
    assert_eq!(
        (f.bones.len(), f.controllers.len(), f.hitboxes.len()),
        (2, 1, 1)
    );
    assert_eq!(f.sequences[0].events.len(), 1);
    assert_eq!(f.sequences[0].pivots.len(), 1);
    assert!(f.sequences[0].looping() && !f.sequences[1].looping());
    let runs: Vec<(bool, usize)> = f.body_parts[0]
        .models
        .iter()
        .flat_map(|m| m.meshes[0].runs().map(|(fan, r)| (fan, r.len() / 4)))
        .collect();
    assert_eq!(runs, vec![(false, 4), (true, 4)], "a strip and a fan");
    assert_eq!(f.textures[0].flag_names(), vec!["masked"]);
    assert_eq!(f.textures[1].flag_names(), vec!["chrome", "additive"]);
    assert_eq!(
        (f.skin_family(0), f.skin_family(1)),
        (&[0i16][..], &[1i16][..])
    );
    assert_eq!((f.attachments.len(), f.transitions.len()), (1, 1));
    assert!(
        f.gaps.is_empty(),
        "{:?}",
        f.gaps
            .iter()
            .map(|g| (g.offset, g.bytes.len()))
            .collect::<Vec<_>>()
    );
    let tbytes = fixtures::texture_file();
    let t = File::parse(&tbytes, &limits()).unwrap();
    assert!(t.is_texture_file());
    assert!(File::parse(&fixtures::model(false), &limits())
        .unwrap()
        .has_external_textures());
}

#[test]
fn fixture_converts_with_strip_and_fan_textures_and_animation() {
    let c = convert(&fixtures::model(true), &retromodel::NoFiles);
    let m = &c.model;
    m.validate().unwrap();
    assert_eq!(m.joints.len(), 2);
    assert_eq!(m.joints[1].parent, Some(0));
    assert_eq!(
        m.joints[1].translation,
        [0.0, 0.0, 8.0],
        "bind pose from default values"
    );
    // Body 0 shows the strip sub-model only: 4 vertices, 2 triangles.
    assert_eq!((m.meshes.len(), m.triangle_count()), (1, 2));
    // Vertices 2 and 3 sit on the head bone, 8 units up.
    let zs: Vec<f32> = m.meshes[0].positions.iter().map(|p| p[2]).collect();
    assert_eq!(zs, vec![0.0, 0.0, 8.0, 10.0]);
    // The strip's second triangle is flipped, as OpenGL draws it.
    assert_eq!(m.meshes[0].triangles, vec![[0, 1, 2], [2, 1, 3]]);
    assert_eq!(m.animations.len(), 2);
    assert_eq!(
        (m.animations[0].name.as_str(), m.animations[0].fps),
        ("walk", 10.0)
    );
    assert!(m.animations[0].loops && !m.animations[1].loops);
    // Masked: index 255 transparent.
    match &m.skins[0].pictures[0].pixels {
        Pixels::Indexed {
            transparent_index,
            fullbright_start,
            ..
        } => {
            assert_eq!((*transparent_index, *fullbright_start), (Some(255), None))
        }
        other => panic!("{other:?}"),
    }
    // Body 1 shows the fan; skin family 1 puts texture 1 on it.
    let bytes = fixtures::model(true);
    let doc = Document::parse(&bytes, &limits()).unwrap();
    let options = retromodel::ConvertOptions {
        body: 1,
        skin_family: 1,
        ..Default::default()
    };
    let c = doc.to_model(&options, &retromodel::NoFiles);
    assert_eq!(c.model.meshes[0].name, "fan");
    assert_eq!(c.model.meshes[0].skin, Some(1));
    assert_eq!(c.model.meshes[0].triangles, vec![[0, 1, 2], [0, 2, 3]]);
}

#[test]
fn external_textures_and_missing_side_files() {
    let model = fixtures::model(false);
    let with = Files(HashMap::from([(
        "fixtureT.mdl".to_string(),
        fixtures::texture_file(),
    )]));
    let c = convert(&model, &with);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.model.skins.len(), 2);
    assert_eq!(c.model.meshes[0].skin, Some(0));
    let c = convert(&model, &Files(HashMap::new()));
    assert_eq!(
        c.warnings,
        vec!["texture file fixtureT.mdl not found; the model is untextured"]
    );
    assert!(c.model.skins.is_empty());
}

#[test]
fn invalid_files_give_exact_errors() {
    let good = fixtures::model(true);
    let err = |bytes: &[u8]| File::parse(bytes, &limits()).unwrap_err().to_string();
    let mut b = good.clone();
    common::set_i32(&mut b, 4, 11);
    assert_eq!(
        err(&b),
        "half-life-mdl: header: unsupported version 11 (expected 10) at offset 0x4"
    );
    let mut b = good.clone();
    common::set_i32(&mut b, 140, -1);
    assert_eq!(
        err(&b),
        "half-life-mdl: negative count bones = -1 at offset 0x8c"
    );
    let mut b = good.clone();
    common::set_i32(&mut b, 144, good.len() as i32 - 8);
    assert_eq!(
        err(&b),
        format!(
            "half-life-mdl: 2 bones of 112 bytes at offset {} run past the end of the file ({} bytes) at offset 0x8c",
            good.len() - 8,
            good.len()
        )
    );
    assert_eq!(
        err(&good[..100]),
        "half-life-mdl: header: unexpected end of data (needed 244 bytes, 100 left) at offset 0x0"
    );
    // A mesh's triangle commands that run off the end.
    let f = File::parse(&good, &limits()).unwrap();
    let mesh_rec = f.body_parts[0].models[0].fields[1] as usize;
    let mut b = good.clone();
    common::set_i32(&mut b, mesh_rec + 4, good.len() as i32 - 2);
    let e = err(&b);
    assert!(e.starts_with("half-life-mdl: body part 0 (body): sub-model 0 (strip): mesh 0: unexpected end of data"), "{e}");
    // Skin families without references cost no bytes: more than the file's length are
    // refused (the fuzzer's 902-byte `tests/regressions/goldsrc_skin_families_without_refs.mdl`
    // claimed 8 650 752 of them, and `info` listed each).
    let mut b = good.clone();
    common::set_i32(&mut b, 192, 0);
    common::set_i32(&mut b, 196, 8_650_752);
    assert_eq!(
        err(&b),
        format!(
            "half-life-mdl: numskinfamilies = 8650752 without skin references, more than the file's {} bytes at offset 0xc4",
            good.len()
        )
    );
    common::set_i32(&mut b, 196, good.len() as i32);
    assert!(File::parse(&b, &limits()).is_ok());
    // Animation records that all point at the same channel data would make the reader copy
    // it again and again: a flipped bit in `cube.mdl`'s blend count (1 to 16385) once made
    // the corpus sweep hold 200 MiB. Structures and channels together may claim at most 4
    // times the file's bytes.
    let seq = i32_at(&good, 168) as usize;
    let bones = f.bones.len();
    let blends = 2000 / bones;
    let records = blends * bones;
    let mut b = good.clone();
    let start = b.len();
    let shared = start + 12 * records;
    assert!(shared - start <= 0xffff);
    for k in 0..records {
        let rec = start + 12 * k;
        for _ in 0..6 {
            b.extend(((shared - rec) as u16).to_le_bytes());
        }
    }
    // 200 frames, one value each: 800 bytes per channel.
    for _ in 0..200 {
        b.extend([1u8, 1, 0, 0]);
    }
    let len = b.len() as i32;
    common::set_i32(&mut b, 8 + 64, len);
    common::set_i32(&mut b, seq + 56, 200);
    common::set_i32(&mut b, seq + 120, blends as i32);
    common::set_i32(&mut b, seq + 124, start as i32);
    let e = err(&b);
    let (text, at) = e.rsplit_once(" at offset 0x").expect("an offset");
    let at = usize::from_str_radix(at, 16).unwrap();
    assert!(
        text.starts_with("half-life-mdl: sequence 0 (walk): the structures and animation values read so far claim ")
            && text.ends_with(&format!(
                " bytes, more than 4 times the file's {} bytes: they share their data more than a model does",
                b.len()
            ))
            && (shared..shared + 800).contains(&at),
        "{e}"
    );
    // A sequence group file is not a model on its own.
    let mut seq = b"IDSQ".to_vec();
    seq.extend(10i32.to_le_bytes());
    seq.extend([0u8; 68]);
    let doc = Document::parse(&seq, &limits()).unwrap();
    assert!(doc.write() == seq);
    let e = doc
        .try_to_model(&Default::default(), &retromodel::NoFiles)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "half-life-mdl: a sequence group file (IDSQ) holds only animation data: open the model it belongs to"
    );
}

#[test]
fn engine_limits_each_with_its_finding() {
    let mut f = File::parse(&fixtures::model(true), &limits())
        .unwrap()
        .into_owned();
    let found = |f: &File| -> Vec<String> {
        let mut v: Vec<String> = goldsrc::validate::validate(f, "goldsrc")
            .into_iter()
            .map(|d| d.message)
            .collect();
        v.extend(
            goldsrc::validate::validate(f, "xash3d")
                .into_iter()
                .map(|d| format!("xash3d: {}", d.message)),
        );
        v
    };
    assert!(found(&f).is_empty(), "{:?}", found(&f));
    f.textures[0].width = 516;
    f.textures[1].width = 6;
    f.textures[1].flags |= goldsrc::NF_ALPHA;
    f.controllers = vec![f.controllers[0].clone(); 9];
    f.sequences = vec![f.sequences[1].clone(); 300];
    assert_eq!(
        found(&f),
        vec![
            "9 bone controllers, more than goldsrc allows (8)".to_string(),
            "texture skin.bmp is 516 wide, more than goldsrc uploads (512)".into(),
            "texture chrome.bmp is 6 wide, not a multiple of 4 (studiomdl resamples to one)".into(),
            "xash3d: 300 sequences, more than xash3d allows (256)".into(),
            "xash3d: texture skin.bmp is 516 wide, more than xash3d uploads (512)".into(),
            "xash3d: texture chrome.bmp is 6 wide, not a multiple of 4 (studiomdl resamples to one)".into(),
            "xash3d: texture chrome.bmp has flag 0x10, which Xash3D reads as its own (not GoldSrc's STUDIO_NF_ALPHA)".into(),
        ]
    );
}

// ---- The engine's formula, written here from the SDK, on the stored bytes. ----

fn i32_at(d: &[u8], at: usize) -> i32 {
    i32::from_le_bytes(d[at..at + 4].try_into().unwrap())
}

fn u16_at(d: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([d[at], d[at + 1]])
}

/// `StudioCalcBoneQuaternion`'s walk at whole frame `frame`, on the raw bytes at `at`.
fn engine_value(d: &[u8], at: usize, frame: usize) -> i16 {
    let (mut p, mut k) = (at, frame);
    let num = |p: usize| (d[p] as usize, d[p + 1] as usize);
    let (mut valid, mut total) = num(p);
    if total < valid {
        k = 0;
    }
    while total <= k {
        k -= total;
        p += (valid + 1) * 2;
        (valid, total) = num(p);
        if total < valid {
            k = 0;
        }
    }
    let i = if valid > k { k + 1 } else { valid };
    u16_at(d, p + 2 * i) as i16
}

/// `AngleMatrix` (radians), rows of a 3×3.
fn angle_matrix(a: [f32; 3]) -> [[f64; 3]; 3] {
    let (sy, cy) = (a[2] as f64).sin_cos();
    let (sp, cp) = (a[1] as f64).sin_cos();
    let (sr, cr) = (a[0] as f64).sin_cos();
    [
        [cp * cy, sr * sp * cy - cr * sy, cr * sp * cy + sr * sy],
        [cp * sy, sr * sp * sy + cr * cy, cr * sp * sy - sr * cy],
        [-sp, sr * cp, cr * cp],
    ]
}

/// A unit quaternion `[x, y, z, w]` as rows of a 3×3.
fn quat_matrix(q: [f32; 4]) -> [[f64; 3]; 3] {
    let [x, y, z, w] = q.map(f64::from);
    [
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
        ],
        [
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
        ],
        [
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        ],
    ]
}

/// Compares bone `b`'s local transform at `frame` of sequence `s` with the engine's formula
/// on `data` (the file holding the sequence's animation), with controller adjustments `adj`
/// (radians or units, by controller). Returns how many channels were stored (not default).
fn check_bone(
    file: &File,
    data: &[u8],
    s: usize,
    frame: usize,
    b: usize,
    got: &JointTransform,
    adj: &[f32],
) -> usize {
    let seq = &file.sequences[s];
    let bone = &file.bones[b];
    let rec = seq.anim_index as usize + b * 12;
    let mut ch = [0f32; 6];
    let mut stored = 0;
    for j in 0..6 {
        let ofs = u16_at(data, rec + 2 * j) as usize;
        let v = if ofs == 0 {
            0
        } else {
            engine_value(data, rec + ofs, frame)
        };
        stored += usize::from(ofs != 0);
        ch[j] = bone.value[j] + v as f32 * bone.scale[j];
        if bone.bone_controller[j] >= 0 {
            ch[j] += adj[bone.bone_controller[j] as usize];
        }
    }
    if b as i32 == seq.motion_bone {
        for (axis, bit) in [1, 2, 4].into_iter().enumerate() {
            if seq.motion_type & bit != 0 {
                ch[axis] = 0.0;
            }
        }
    }
    for a in 0..3 {
        assert!(
            (got.translation[a] - ch[a]).abs() <= 1e-4 * (1.0 + ch[a].abs()),
            "bone {b} frame {frame}: {:?} vs {:?}",
            got.translation,
            &ch[..3]
        );
    }
    let (want, have) = (
        angle_matrix([ch[3], ch[4], ch[5]]),
        quat_matrix(got.rotation),
    );
    for r in 0..3 {
        for c in 0..3 {
            assert!(
                (want[r][c] - have[r][c]).abs() < 1e-5,
                "bone {b} frame {frame}: {want:?} vs {have:?}"
            );
        }
    }
    stored
}

/// The engine's controller adjustment at rest, here: the game's `SetController(i, 0)`
/// byte read back by `StudioCalcBoneAdj`, the mouth (index 4) shut.
fn rest_adjustments(file: &File) -> Vec<f32> {
    file.controllers
        .iter()
        .map(|c| {
            let byte = (255.0 * (0.0 - c.start) / (c.end - c.start))
                .trunc()
                .clamp(0.0, 255.0);
            let v = if c.index > 3 {
                c.start
            } else if c.kind & 0x8000 != 0 {
                byte * (360.0 / 256.0) + c.start
            } else {
                let t = (byte / 255.0).clamp(0.0, 1.0);
                (1.0 - t) * c.start + t * c.end
            };
            if c.kind & 0x38 != 0 {
                v * std::f32::consts::PI / 180.0
            } else {
                v
            }
        })
        .collect()
}

/// The model at `path` through the front door (its side files found beside it).
fn opened(path: &Path) -> Model {
    let archives = retromodel::vfs::Archives::new(&limits(), false);
    let opener = retromodel::front::Opener::new(&archives, Default::default()).unwrap();
    let o = opener
        .open(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        o.warnings.is_empty(),
        "{}: {:?}",
        path.display(),
        o.warnings
    );
    o.model
}

#[test]
fn corpus_bone_poses_match_the_engine_formula() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let hl1 = dir.join("assimp/test/models/MDL/MDL (HL1)");
    // man.mdl: three controllers (their rest values move bones), a walk of 26 frames.
    let path = hl1.join("man.mdl");
    let data = std::fs::read(&path).unwrap();
    let file = File::parse(&data, &limits()).unwrap();
    let adj = rest_adjustments(&file);
    assert!(
        adj.iter().any(|a| *a != 0.0),
        "a controller's rest value moves a bone"
    );
    let model = opened(&path);
    let mut checked = 0;
    let mut stored = 0;
    for (s, frames) in [(1usize, &[0usize, 5, 13, 25][..]), (0, &[0, 1]), (2, &[1])] {
        let anim = &model.animations[s];
        assert_eq!(anim.name, file.sequences[s].label());
        for &f in frames {
            for b in 0..file.bones.len() {
                stored += check_bone(&file, &data, s, f, b, &anim.frames[f][b], &adj);
                checked += 1;
            }
        }
    }
    // A sequence group file: the sequences of group N read from NAME0N.mdl.
    let path = hl1.join("unnamed_sequence_groups/unnamed_sequence_groups.mdl");
    let data = std::fs::read(&path).unwrap();
    let file = File::parse(&data, &limits()).unwrap();
    let model = opened(&path);
    let mut from_groups = 0;
    for (s, seq) in file.sequences.iter().enumerate() {
        if seq.seq_group == 0 {
            continue;
        }
        let group = std::fs::read(hl1.join(format!(
            "unnamed_sequence_groups/unnamed_sequence_groups{:02}.mdl",
            seq.seq_group
        )))
        .unwrap();
        for f in [0, seq.num_frames as usize / 2, seq.num_frames as usize - 1] {
            for b in 0..file.bones.len() {
                stored += check_bone(
                    &file,
                    &group,
                    s,
                    f,
                    b,
                    &model.animations[s].frames[f][b],
                    &rest_adjustments(&file),
                );
                checked += 1;
            }
        }
        from_groups += 1;
    }
    println!("{checked} bone poses checked, {stored} stored channels, {from_groups} sequences from group files");
    assert!(from_groups >= 2 && stored > 50, "{from_groups} {stored}");
}

/// The web page shows the summary's rows as they are: in words, no debug formatting (the
/// skin families were once `[0, 1] [1, 1]`).
#[test]
fn summary_rows_are_words() {
    let bytes = fixtures::model(true);
    let doc = Document::parse(&bytes, &limits()).unwrap();
    let converted = doc.to_model(&Default::default(), &retromodel::NoFiles);
    let summary = doc.summary(&converted);
    let rows = summary.plain_words(Some(&converted.model), &[]);
    let families = rows
        .iter()
        .find(|(k, _)| k == "Header skin_families")
        .map(|(_, v)| v.as_str());
    assert_eq!(families, Some("0; 1"));
    for (k, v) in &rows {
        assert!(
            !v.contains(['[', ']', '{', '"']) && !v.contains("Some("),
            "{k}: {v}"
        );
    }
}

/// The fuzzer's `goldsrc_huge_bone_to_gltf.mdl` (stop 41): a root bone at 3.4e38 units,
/// finite in the file, whose child's glTF node (relative to it) overflowed to `null`. Bones
/// whose channels are not finite or beyond 1e12 units are placed at their parent, with a
/// warning, and every writer's output parses.
#[test]
fn huge_bones_are_placed_at_their_parent() {
    use retromodel::{registry, NoFiles};
    let bytes = include_bytes!("regressions/goldsrc_huge_bone_to_gltf.mdl");
    let doc = Document::parse(bytes, &Limits::default()).unwrap();
    let c = doc.to_model(&Default::default(), &NoFiles);
    assert!(
        c.warnings.iter().any(|w| w
            == "1 bones have default values that are not finite or beyond 1e12 units: placed \
                at their parent, unturned"),
        "{:?}",
        c.warnings
    );
    for j in &c.model.joints {
        assert!(
            j.translation.iter().all(|v| v.abs() <= 1e12)
                && j.rotation.iter().all(|v| v.is_finite()),
            "{j:?}"
        );
    }
    for w in registry::writers() {
        match registry::write_model(&c.model, w, &Default::default()) {
            Ok(out) => {
                if w.format.name() != "obj" {
                    Document::parse(&out.bytes, &Limits::default())
                        .unwrap_or_else(|e| panic!("{}: {e}", w.format.name()));
                }
            }
            // The glTF writers were the ones that wrote `null`: they must now write.
            Err(e) => assert!(
                !w.format.name().starts_with("gl"),
                "{}: {e}",
                w.format.name()
            ),
        }
    }
}

/// Sequence events are the Model's `animation_events` (the fixture's walk fires 5004
/// "step.wav" at frame 2), written to glTF as `extras.events` and read back from it.
#[test]
fn sequence_events_reach_the_model_and_come_back_through_gltf() {
    use retromodel::model::AnimationEvent;
    use retromodel::{registry, NoFiles};
    let c = convert(&fixtures::model(true), &NoFiles);
    let walk = c
        .model
        .animations
        .iter()
        .position(|a| a.name == "walk")
        .expect("a walk animation");
    let step = vec![AnimationEvent {
        frame: 2,
        event: 5004,
        kind: 0,
        options: "step.wav".into(),
    }];
    assert_eq!(c.model.animation_events.get(walk), Some(&step));
    let events: usize = c.model.animation_events.iter().map(Vec::len).sum();
    assert_eq!(events, 1, "{:?}", c.model.animation_events);
    let glb = registry::writers()
        .find(|w| w.format.name() == "glb")
        .expect("the glb writer");
    let out = registry::write_model(&c.model, glb, &Default::default()).unwrap();
    let back = Document::parse(&out.bytes, &limits())
        .unwrap()
        .to_model(&Default::default(), &NoFiles);
    let walk_back = back
        .model
        .animations
        .iter()
        .position(|a| a.name == "walk")
        .expect("walk read back");
    assert_eq!(back.model.animation_events.get(walk_back), Some(&step));
    assert_eq!(
        back.model
            .animation_events
            .iter()
            .map(Vec::len)
            .sum::<usize>(),
        1
    );
}
