//! GoldSrc conversion checked by value: bone poses of chosen frames of several sequences
//! (one whose animation lies in a sequence-group file, one model with bone controllers at
//! rest) against the engine's formulas (`StudioCalcBonePosition`, `StudioCalcBoneQuaterion`,
//! `StudioCalcBoneAdj`, `AngleQuaternion`), computed here in `f64` straight from the file's
//! bytes (the library's reader and decoder are not used for the expected values).
// Expected values computed here with std's maths, not output: allowed (clippy.toml, issue 40).
#![allow(clippy::disallowed_methods)]

mod common;

use std::path::{Path, PathBuf};

use retromodel::formats::goldsrc::{self, convert, AnyFile, File};
use retromodel::Limits;

fn i32_at(d: &[u8], o: usize) -> i32 {
    i32::from_le_bytes(d[o..o + 4].try_into().unwrap())
}
fn f32_at(d: &[u8], o: usize) -> f64 {
    f64::from(f32::from_le_bytes(d[o..o + 4].try_into().unwrap()))
}
fn u16_at(d: &[u8], o: usize) -> u16 {
    u16::from_le_bytes(d[o..o + 2].try_into().unwrap())
}

/// The engine's lookup of a whole frame in a run-length-encoded channel at byte `at`.
fn engine_value(d: &[u8], mut at: usize, frame: usize) -> f64 {
    let mut k = frame;
    let (mut valid, mut total) = (d[at] as usize, d[at + 1] as usize);
    if total < valid {
        k = 0;
    }
    while total <= k {
        k -= total;
        at += (valid + 1) * 2;
        (valid, total) = (d[at] as usize, d[at + 1] as usize);
        if total < valid {
            k = 0;
        }
    }
    let i = if valid > k { k + 1 } else { valid };
    f64::from(u16_at(d, at + 2 * i) as i16)
}

/// `AngleQuaternion` (`cl_dll/studio_util.cpp`): `angles[0]` is the roll (X),
/// `angles[1]` the pitch (Y), `angles[2]` the yaw (Z).
fn angle_quaternion(a: [f64; 3]) -> [f64; 4] {
    let (sr, cr) = (a[0] / 2.0).sin_cos();
    let (sp, cp) = (a[1] / 2.0).sin_cos();
    let (sy, cy) = (a[2] / 2.0).sin_cos();
    [
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    ]
}

/// Each controller's adjustment at rest: the game's `SetController(i, 0)` (byte setting)
/// read back by `StudioCalcBoneAdj` (mouth shut).
fn rest_adj(d: &[u8]) -> Vec<f64> {
    let (n, at) = (i32_at(d, 148) as usize, i32_at(d, 152) as usize);
    (0..n)
        .map(|j| {
            let o = at + 24 * j;
            let (kind, start, end, index) = (
                i32_at(d, o + 4),
                f32_at(d, o + 8),
                f32_at(d, o + 12),
                i32_at(d, o + 20),
            );
            let value = if index > 3 {
                start
            } else {
                let setting = (255.0 * (0.0 - start) / (end - start))
                    .trunc()
                    .clamp(0.0, 255.0);
                if kind & 0x8000 != 0 {
                    setting * 360.0 / 256.0 + start
                } else {
                    let s = setting / 255.0;
                    (1.0 - s) * start + s * end
                }
            };
            if kind & 0x38 != 0 {
                value.to_radians()
            } else {
                value
            }
        })
        .collect()
}

/// Local pose (position, quaternion) of every bone at `frame` of blend 0 of sequence `s`;
/// `anim` is the file that holds its animation (the model or its group file).
fn engine_pose(d: &[u8], anim: &[u8], s: usize, frame: usize) -> Vec<([f64; 3], [f64; 4])> {
    let adj = rest_adj(d);
    let (nb, bi) = (i32_at(d, 140) as usize, i32_at(d, 144) as usize);
    let seq = i32_at(d, 168) as usize + 176 * s;
    let (motion_type, motion_bone) = (i32_at(d, seq + 68), i32_at(d, seq + 72) as usize);
    let anim_index = i32_at(d, seq + 124) as usize;
    (0..nb)
        .map(|b| {
            let bone = bi + 112 * b;
            let rec = anim_index + 12 * b;
            let mut v = [0.0f64; 6];
            for (j, out) in v.iter_mut().enumerate() {
                *out = f32_at(d, bone + 64 + 4 * j);
                let off = u16_at(anim, rec + 2 * j) as usize;
                if off != 0 {
                    *out += engine_value(anim, rec + off, frame) * f32_at(d, bone + 88 + 4 * j);
                }
                let c = i32_at(d, bone + 40 + 4 * j);
                if c >= 0 {
                    *out += adj[c as usize];
                }
            }
            let mut pos = [v[0], v[1], v[2]];
            if b == motion_bone {
                for (axis, bit) in [1, 2, 4].iter().enumerate() {
                    if motion_type & bit != 0 {
                        pos[axis] = 0.0;
                    }
                }
            }
            (pos, angle_quaternion([v[3], v[4], v[5]]))
        })
        .collect()
}

fn corpus_hl1(name: &str) -> Option<PathBuf> {
    let dir = common::corpus_dir()?;
    Some(dir.join("assimp/test/models/MDL/MDL (HL1)").join(name))
}

/// Parses a model and reads its sequence groups from the files beside it.
fn load(path: &Path) -> (Vec<u8>, File<'static>, Vec<Vec<u8>>) {
    let bytes = std::fs::read(path).unwrap();
    let AnyFile::Studio(file) = AnyFile::parse(&bytes, &Limits::default()).unwrap() else {
        panic!("{}: not a studio model", path.display());
    };
    let mut file = file.into_owned();
    let stem = path.file_stem().unwrap().to_string_lossy().to_string();
    let mut groups = vec![Vec::new()];
    for g in 1..file.seq_groups.len() {
        let data = std::fs::read(path.with_file_name(format!("{stem}{g:02}.mdl"))).unwrap();
        goldsrc::read_group_anims(&mut file, g, &data, &Limits::default()).unwrap();
        groups.push(data);
    }
    (bytes, file, groups)
}

/// Compares the converted animation's frames with the engine's formula.
fn check(name: &str, picks: &[(usize, usize)]) -> usize {
    let Some(path) = corpus_hl1(name) else {
        return 0;
    };
    let (bytes, file, groups) = load(&path);
    let converted = convert::to_model(&file, goldsrc::Choice::default(), Vec::new());
    let model = &converted.model;
    assert_eq!(model.animations.len(), file.sequences.len(), "{name}");
    let mut compared = 0;
    for &(s, frame) in picks {
        let group = i32_at(&bytes, i32_at(&bytes, 168) as usize + 176 * s + 156) as usize;
        let anim = if group == 0 { &bytes } else { &groups[group] };
        let expected = engine_pose(&bytes, anim, s, frame);
        let got = &model.animations[s].frames[frame];
        assert_eq!(got.len(), expected.len(), "{name} seq {s}");
        for (b, ((pos, q), t)) in expected.iter().zip(got).enumerate() {
            for k in 0..3 {
                assert!(
                    (f64::from(t.translation[k]) - pos[k]).abs() < 1e-4 * (1.0 + pos[k].abs()),
                    "{name} seq {s} frame {frame} bone {b}: {:?} vs {pos:?}",
                    t.translation
                );
            }
            let dot: f64 = (0..4).map(|k| f64::from(t.rotation[k]) * q[k]).sum();
            assert!(
                dot.abs() > 1.0 - 1e-6,
                "{name} seq {s} frame {frame} bone {b}: {:?} vs {q:?}",
                t.rotation
            );
            compared += 1;
        }
    }
    compared
}

#[test]
fn bone_poses_follow_the_engine_formula() {
    // man.mdl: 8 bones, bone controllers on bone 7 (at rest: a setting of 127 of
    // -60..60 degrees is not 0), sequences of 2 and 26 frames.
    let n = check(
        "man.mdl",
        &[(0, 0), (0, 1), (1, 0), (1, 7), (1, 25), (2, 1)],
    );
    // Sequences whose animation lies in NAME0N.mdl files.
    let g = check(
        "duplicate_sequence_groups/duplicate_sequence_groups.mdl",
        &[(0, 0), (0, 2), (4, 1), (8, 2)],
    );
    let u = check("multiple_roots.mdl", &[(0, 0), (0, 1)]);
    let c = check("chrome_sphere.mdl", &[(0, 0), (0, 100), (0, 220)]);
    if common::corpus_dir().is_some() {
        assert!(
            n == 6 * 8 && g == 4 && u == 2 * 19 && c == 3,
            "{n} {g} {u} {c}"
        );
    }
}

#[test]
fn controller_default_is_the_setting_for_zero() {
    let Some(path) = corpus_hl1("man.mdl") else {
        return;
    };
    let (bytes, file, _) = load(&path);
    let expected = rest_adj(&bytes);
    assert_eq!(expected.len(), 3);
    let got = convert::controller_rest_adjustments(&file);
    assert_eq!(got.len(), expected.len());
    for (g, e) in got.iter().zip(&expected) {
        assert!((f64::from(*g) - e).abs() < 1e-6, "{got:?} vs {expected:?}");
    }
    // -60..60 degrees: setting 127, so -60 + 127/255 * 120 degrees, not 0.
    assert!((expected[0].to_degrees() - (-60.0 + 127.0 / 255.0 * 120.0)).abs() < 1e-9);
}

#[test]
fn man_converts_with_textures_skeleton_and_every_sequence() {
    let Some(path) = corpus_hl1("man.mdl") else {
        return;
    };
    let (_, file, _) = load(&path);
    let limits = Limits::default();
    let archives = retromodel::vfs::Archives::new(&limits, false);
    let opener = retromodel::front::Opener::new(&archives, Default::default()).unwrap();
    let c = opener.open(&path).unwrap();
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let tex_bytes = std::fs::read(path.with_file_name("manT.mdl")).unwrap();
    let AnyFile::Studio(tex) = AnyFile::parse(&tex_bytes, &limits).unwrap() else {
        panic!("manT.mdl");
    };
    let m = &c.model;
    m.validate().unwrap();
    assert_eq!(m.joints.len(), file.bones.len());
    assert_eq!(m.skins.len(), tex.textures.len());
    assert!(!m.skins.is_empty());
    assert!(m.meshes.iter().all(|me| me.skin.is_some()));
    assert!(m.triangle_count() > 0);
    assert_eq!(m.animations.len(), file.sequences.len());
    for (a, s) in m.animations.iter().zip(&file.sequences) {
        assert_eq!(a.frames.len(), s.num_frames as usize);
        assert_eq!(a.fps, s.fps);
        assert_eq!(a.loops, s.flags & 1 != 0);
    }
    // Triangles face the way their stored normals point, in the Model's winding
    // (clockwise seen from the front: the cross product points inwards).
    let (mut agree, mut total) = (0, 0);
    for me in &m.meshes {
        for t in &me.triangles {
            let [a, b, cc] = t.map(|i| me.positions[i as usize]);
            let e1 = [b[0] - a[0], b[1] - a[1], b[2] - a[2]];
            let e2 = [cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]];
            let n = [
                e1[1] * e2[2] - e1[2] * e2[1],
                e1[2] * e2[0] - e1[0] * e2[2],
                e1[0] * e2[1] - e1[1] * e2[0],
            ];
            let sn = t
                .iter()
                .map(|&i| me.normals[i as usize])
                .fold([0.0; 3], |s, v| [s[0] + v[0], s[1] + v[1], s[2] + v[2]]);
            let d = n[0] * sn[0] + n[1] * sn[1] + n[2] * sn[2];
            total += 1;
            if d < 0.0 {
                agree += 1;
            }
        }
    }
    assert!(
        agree * 10 > total * 9,
        "{agree} of {total} triangles wound clockwise"
    );
}
