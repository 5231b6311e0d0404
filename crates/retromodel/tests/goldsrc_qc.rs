//! Half-Life QC: every GoldSrc model of the corpus decompiled to a QC with its SMDs and
//! BMPs, then compiled back, keeps its skeleton, triangles, sequences and frame counts, and
//! its vertices within the precision of its stored channels; the BMPs read back as the
//! textures; QC text writes and reads back; invalid QCs give exact errors.

mod common;

use std::path::PathBuf;

use retromodel::formats::goldsrc::convert::{
    bind_locals, sequence_frames, to_object, with_side_files,
};
use retromodel::formats::goldsrc::qc::{self, compile_decompiled, decompile, Qc};
use retromodel::formats::goldsrc::{File, SubModel};
use retromodel::image::bmp8::read_indexed;
use retromodel::math::Quat;
use retromodel::model::JointTransform;
use retromodel::resolve::Resolver;
use retromodel::Limits;

/// Files beside a model, found by name in its folder.
struct Beside(PathBuf, String);

impl Resolver for Beside {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        std::fs::read(self.0.join(name)).ok()
    }
    fn model_name(&self) -> Option<String> {
        Some(self.1.clone())
    }
}

/// Every corner of every triangle of sub-model `m`, posed by `world`, grouped by texture
/// name in order of first use: (texture, corner positions).
fn corners(file: &File, m: &SubModel, world: &[JointTransform]) -> Vec<(String, Vec<[f32; 3]>)> {
    let mut out: Vec<(String, Vec<[f32; 3]>)> = Vec::new();
    for mesh in &m.meshes {
        let tex = file
            .skin_family(0)
            .get(mesh.skin_ref.max(0) as usize)
            .and_then(|&t| file.textures.get(t as usize))
            .map(|t| t.name().to_ascii_lowercase())
            .unwrap_or_default();
        let tex = if tex.ends_with(".bmp") {
            tex
        } else {
            format!("{tex}.bmp")
        };
        let mut list = Vec::new();
        for t in mesh.triangles() {
            for c in t {
                let vi = c[0] as usize;
                let x = world[m.vertex_bones[vi] as usize];
                let p = Quat::from_array(x.rotation).rotate(m.vertices[vi]);
                list.push(std::array::from_fn(|a| p[a] + x.translation[a]));
            }
        }
        match out.iter_mut().find(|(n, _)| *n == tex) {
            Some(e) => e.1.extend(list),
            None => out.push((tex, list)),
        }
    }
    out
}

fn largest_gap(a: &[(String, Vec<[f32; 3]>)], b: &[(String, Vec<[f32; 3]>)], what: &str) -> f32 {
    assert_eq!(a.len(), b.len(), "{what}: textures used");
    let mut worst = 0f32;
    for ((na, ca), (nb, cb)) in a.iter().zip(b) {
        assert!(
            na.starts_with(nb.trim_end_matches(".bmp")) || na == nb,
            "{what}: {na} vs {nb}"
        );
        assert_eq!(ca.len(), cb.len(), "{what}: corners of {na}");
        for (p, q) in ca.iter().zip(cb) {
            for k in 0..3 {
                worst = worst.max((p[k] - q[k]).abs());
            }
        }
    }
    worst
}

/// Bone world transforms at frame `f` of sequence `s` (its first blend).
fn posed(file: &File, s: usize, f: usize) -> Vec<JointTransform> {
    let mut bad = 0;
    let frames = sequence_frames(file, &file.sequences[s], &mut bad);
    to_object(&file.bones, &frames[f])
}

#[test]
fn corpus_models_decompile_and_compile_back() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let limits = Limits::default();
    let (mut models, mut worst_bind, mut worst_frame, mut worst_ratio, mut worst_text) =
        (0, 0f32, 0f32, 0f32, 0f32);
    for path in common::files_with_magic(&dir, b"IDST") {
        let (what, bytes) = common::read_named(&path);
        let parsed = File::parse(&bytes, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
        if parsed.bones.is_empty() {
            continue; // a texture file
        }
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let resolver = Beside(path.parent().unwrap().to_path_buf(), name);
        let mut warnings = Vec::new();
        let file = with_side_files(&parsed, &resolver, &limits, &mut warnings);
        let d = decompile(&file, "model");
        // The BMPs read back as the textures.
        assert_eq!(d.bmps.len(), file.textures.len(), "{what}");
        for ((n, b), t) in d.bmps.iter().zip(&file.textures) {
            let p = read_indexed(b, &limits).unwrap_or_else(|e| panic!("{what}: {n}: {e}"));
            assert_eq!(p.indices, t.pixels.to_vec(), "{what}: {n}");
            assert_eq!(p.palette.concat(), t.palette.to_vec(), "{what}: {n}");
        }
        // The QC text reads back as written.
        let text = d.qc.write();
        assert_eq!(
            Qc::parse(&text, &limits).unwrap_or_else(|e| panic!("{what}: {e}")),
            d.qc,
            "{what}"
        );
        let c = compile_decompiled(&d, &limits).unwrap_or_else(|e| panic!("{what}: {e}"));
        let out = c.file.write();
        let back = File::parse(&out, &limits).unwrap_or_else(|e| panic!("{what}: compiled: {e}"));
        assert_eq!(back.write(), out, "{what}");
        // Skeleton, sequences, boxes.
        // Bones: the same parents, the same names (an empty or repeated name comes back as
        // NAME_boneN, studiomdl matching bones by name).
        assert_eq!(back.bones.len(), file.bones.len(), "{what}");
        for (i, (a, b)) in back.bones.iter().zip(&file.bones).enumerate() {
            assert_eq!(a.parent, b.parent, "{what}: bone {i}");
            let unique = !b.name().is_empty()
                && !file.bones[..i]
                    .iter()
                    .any(|o| o.name().eq_ignore_ascii_case(&b.name()));
            if unique {
                assert_eq!(a.name(), b.name(), "{what}: bone {i}");
            } else {
                assert_eq!(
                    a.name(),
                    format!("{}_bone{i}", b.name()),
                    "{what}: bone {i}"
                );
            }
        }
        assert_eq!(back.sequences.len(), file.sequences.len(), "{what}");
        for (a, b) in back.sequences.iter().zip(&file.sequences) {
            let l = b.label();
            assert_eq!(a.label(), l, "{what}");
            assert_eq!(
                (a.num_frames, a.num_blends, a.fps),
                (b.num_frames, b.num_blends, b.fps),
                "{what}: {l}"
            );
            assert_eq!(
                (a.flags & 1, a.activity, a.act_weight, a.motion_type),
                (b.flags & 1, b.activity, b.act_weight, b.motion_type),
                "{what}: {l}"
            );
            assert_eq!(a.events.len(), b.events.len(), "{what}: {l}");
            assert_eq!(
                a.linear_movement.map(|v| (v * 100.0).round()),
                b.linear_movement.map(|v| (v * 100.0).round()),
                "{what}: {l}"
            );
        }
        assert_eq!(back.hitboxes, file.hitboxes, "{what}");
        // Texture flags by name (`$texrendermode`, and chrome from the name as studiomdl
        // sets it); compile keeps the textures the SMDs use.
        for t in &back.textures {
            let a = file.textures.iter().find(|u| u.name() == t.name());
            assert_eq!(a.map(|u| u.flags), Some(t.flags), "{what}: {}", t.name());
        }
        assert_eq!(back.attachments.len(), file.attachments.len(), "{what}");
        assert_eq!(back.controllers.len(), file.controllers.len(), "{what}");
        assert_eq!(back.header.eye_position, file.header.eye_position, "{what}");
        assert_eq!(
            back.header.num_skin_families().max(1),
            file.header.num_skin_families().max(1),
            "{what}"
        );
        // Triangles and positions: at the bind pose, and at the middle frame of each
        // sequence within the quantisation of the compiled channels (half a step each, a
        // step being the channel's largest offset / 32767): along a chain of `depth` bones a
        // vertex at distance `reach` moves at most depth × (position step + angle step ×
        // reach), plus f32 rounding.
        let (wa, wb) = (
            to_object(&file.bones, &bind_locals(&file)),
            to_object(&back.bones, &bind_locals(&back)),
        );
        let reach = 2.0 * file.bones.len() as f32 * 0.0
            + wa.iter()
                .map(|t| t.translation.iter().map(|v| v.abs()).sum::<f32>())
                .fold(0.0, f32::max)
                * 2.0;
        let steps = |k: std::ops::Range<usize>| {
            back.bones
                .iter()
                .flat_map(|b| b.scale[k.clone()].to_vec())
                .fold(0f32, f32::max)
        };
        let (pos_step, ang_step) = (steps(0..3), steps(3..6));
        assert_eq!(back.body_parts.len(), file.body_parts.len(), "{what}");
        for (pa, pb) in file.body_parts.iter().zip(&back.body_parts) {
            assert_eq!(pa.models.len(), pb.models.len(), "{what}");
            for (ma, mb) in pa.models.iter().zip(&pb.models) {
                let ca = corners(&file, ma, &wa);
                let cb = corners(&back, mb, &wb);
                let reach = reach
                    + ca.iter()
                        .flat_map(|c| &c.1)
                        .map(|p| p.iter().map(|v| v.abs()).sum::<f32>())
                        .fold(0.0, f32::max);
                let g = largest_gap(&ca, &cb, &what);
                assert!(g <= 1e-4 * (1.0 + reach), "{what}: bind pose off by {g}");
                worst_bind = worst_bind.max(g);
                for s in 0..file.sequences.len() {
                    let n = file.sequences[s].num_frames.max(0) as usize;
                    if n == 0 {
                        continue;
                    }
                    let f = n / 2;
                    let g = largest_gap(
                        &corners(&file, ma, &posed(&file, s, f)),
                        &corners(&back, mb, &posed(&back, s, f)),
                        &what,
                    );
                    let depth = file.bones.len() as f32;
                    let tol = depth * (pos_step + ang_step * reach) + 1e-4 * (1.0 + reach);
                    assert!(
                        g <= tol,
                        "{what}: sequence {s} frame {f} off by {g}, more than {tol}"
                    );
                    worst_frame = worst_frame.max(g);
                    worst_ratio = worst_ratio.max(g / tol);
                }
            }
        }
        // The same through the files' text (SMDs written with 6 decimals, read back).
        let mut files: Vec<(String, Vec<u8>)> = d
            .smds
            .iter()
            .map(|(n, f)| (format!("{n}.smd"), f.write()))
            .collect();
        files.extend(d.bmps.iter().cloned());
        let q = Qc::parse(&text, &limits).unwrap();
        let resolver = retromodel::resolve::MemoryFiles(files.into_iter().collect());
        let t = qc::compile(&q, &resolver, &limits)
            .unwrap_or_else(|e| panic!("{what}: from text: {e}"))
            .file;
        assert_eq!(t.bones.len(), file.bones.len(), "{what}");
        let wt = to_object(&t.bones, &bind_locals(&t));
        for (pa, pt) in file.body_parts.iter().zip(&t.body_parts) {
            for (ma, mt) in pa.models.iter().zip(&pt.models) {
                let ca = corners(&file, ma, &wa);
                let g = largest_gap(&ca, &corners(&t, mt, &wt), &what);
                worst_text = worst_text.max(g);
            }
        }
        for (a, b) in t.sequences.iter().zip(&file.sequences) {
            assert_eq!(
                (a.num_frames, a.num_blends),
                (b.num_frames, b.num_blends),
                "{what}"
            );
        }
        models += 1;
    }
    println!("through the SMD text: largest gap {worst_text} units at the bind pose");
    assert!(worst_text < 0.01, "{worst_text}");
    println!("{models} models decompiled and compiled back; largest gap {worst_bind} units at the bind pose, {worst_frame} at middle frames ({worst_ratio} of the tolerance)");
    assert!(models >= 10, "{models} models");
}

fn parse_err(src: &str) -> String {
    Qc::parse(src.as_bytes(), &Limits::default())
        .unwrap_err()
        .to_string()
}

#[test]
fn invalid_qc_gives_exact_errors() {
    let cases = [
        ("$modelname \"a.mdl\"\n$gibberish 1\n", "qc: unknown command $gibberish at line 2:1"),
        ("$scale\n$cd \".\"\n", "qc: missing a scale after $scale at line 1:7"),
        ("$scale big\n", "qc: bad number big for a scale of $scale at line 1:8"),
        ("$sequence idle {\n  \"idle\"\n  fps 30\n", "qc: unclosed '{' of $sequence at line 1:16"),
        ("$bodygroup body\n{\n studio \"ref\"\n", "qc: unclosed '{' of $bodygroup at line 2:1"),
        ("$renamebone a b\n", "qc: unsupported command $renamebone at line 1:1"),
        ("$hbox 0 \"Bip01\" 1 2 3 4 5\n", "qc: missing the maximum z after $hbox at line 1:26"),
        ("$texrendermode \"a.bmp\" shiny\n", "qc: unknown render mode shiny of $texrendermode (masked, additive, flatshade, chrome, fullbright, nomips, alpha) at line 1:24"),
        ("$controller 0 \"Bip01\" QR 0 1\n", "qc: unknown controller type QR of $controller (X, Y, Z, XR, YR, ZR, LX, ...) at line 1:23"),
        ("$sequence idle { \"idle\" pivot 0 1 2 }\n", "qc: unsupported sequence option pivot at line 1:25"),
        ("idle\n", "qc: expected a $command, found idle at line 1:1"),
    ];
    for (src, want) in cases {
        assert_eq!(parse_err(src), want, "{src:?}");
    }
}

fn memory(files: &[(&str, Vec<u8>)]) -> retromodel::resolve::MemoryFiles {
    retromodel::resolve::MemoryFiles(
        files
            .iter()
            .map(|(n, b)| (n.to_string(), b.clone()))
            .collect(),
    )
}

#[test]
fn missing_files_are_named_where_the_qc_names_them() {
    let limits = Limits::default();
    let q = Qc::parse(b"$cd \"smd\"\n$body studio \"ref\"\n", &limits).unwrap();
    let e = qc::compile(&q, &memory(&[]), &limits)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "qc: reference SMD smd/ref.smd not found at line 2:14");
    let q = Qc::parse(b"$sequence idle {\n\t\"walk\"\n}\n", &limits).unwrap();
    let e = qc::compile(&q, &memory(&[]), &limits)
        .unwrap_err()
        .to_string();
    assert_eq!(e, "qc: animation SMD walk.smd not found at line 2:2");
}

#[test]
fn qc_text_reads_back_as_written() {
    let src = "$modelname \"m.mdl\"\n$cd \".\"\n$cdtexture \"tex\"\n$scale 1.5\n$origin 1 2 3 90\n\
               $eyeposition 0 0 64\n$flags 512\n$bbox -1 -2 -3 4 5 6\n$externaltextures\n\
               $sequencegroupsize 64\n$body head \"head_ref\"\n\
               $bodygroup arms\n{\nstudio arms\nblank\n}\n\
               $texturegroup skins { { a.bmp b.bmp } { c.bmp d.bmp } }\n\
               $texrendermode a.bmp masked\n$attachment 0 \"Bip01 R Hand\" 1 2 3\n\
               $controller mouth Bip01 XR 0 30\n$hbox 3 Bip01 -1 -1 -1 1 1 1\n\
               $sequence walk \"walk\" LX fps 24 loop ACT_WALK 1 { event 1004 3 \"step.wav\" }\n\
               $sequence look { \"look1\" \"look2\" blend XR -45 45 frame 0 9 rtransition 1 2 ACT_77 2 }\n";
    let q = Qc::parse(src.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(q.body_groups.len(), 2);
    assert_eq!(q.body_groups[1].models.len(), 2);
    assert_eq!(
        q.texture_groups[0].skins,
        vec![vec!["a.bmp", "b.bmp"], vec!["c.bmp", "d.bmp"]]
    );
    assert_eq!(q.controllers[0].index, 4);
    assert_eq!(q.sequences[0].activity, Some((3, 1)));
    assert_eq!(q.sequences[0].motion, 0x40);
    assert_eq!(
        q.sequences[0].events[0].options.as_deref(),
        Some("step.wav")
    );
    assert_eq!(q.sequences[1].files.len(), 2);
    assert_eq!(q.sequences[1].blend, Some((0x8, -45.0, 45.0)));
    assert_eq!(q.sequences[1].nodes, Some((1, 2, true)));
    assert_eq!(q.sequences[1].activity, Some((77, 2)));
    let text = q.write();
    assert_eq!(
        Qc::parse(&text, &Limits::default()).unwrap(),
        q,
        "{}",
        String::from_utf8_lossy(&text)
    );
}

/// `$externaltextures` and `$sequencegroupsize` on a decompiled corpus model: the compiled
/// model file has no textures and only the first group's animations, its side files are
/// named after `$modelname` (`manT.mdl` last, `man01.mdl` ... before it), and the whole file
/// is the one compiled without the commands but for the sequences' groups and offsets;
/// without them the model's bytes are the whole file's and there are no side files.
#[test]
fn external_textures_and_sequence_groups_compile_to_side_files() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let path = dir.join("assimp/test/models/MDL/MDL (HL1)/man.mdl");
    let limits = Limits::default();
    let bytes = std::fs::read(&path).unwrap();
    let parsed = File::parse(&bytes, &limits).unwrap();
    let resolver = Beside(path.parent().unwrap().to_path_buf(), "man.mdl".into());
    let file = with_side_files(&parsed, &resolver, &limits, &mut Vec::new());
    let mut d = decompile(&file, "man");
    let plain = compile_decompiled(&d, &limits).unwrap();
    assert!(plain.side_files.is_empty());
    assert_eq!(plain.bytes, plain.file.write());
    d.qc.external_textures = true;
    d.qc.sequence_group_size = Some(1);
    let c = compile_decompiled(&d, &limits).unwrap();
    let names: Vec<&str> = c.side_files.iter().map(|s| s.name.as_str()).collect();
    let groups = c.file.seq_groups.len();
    assert!(groups > 1, "{names:?}");
    let mut want: Vec<String> = (1..groups).map(|g| format!("man{g:02}.mdl")).collect();
    want.push("manT.mdl".into());
    assert_eq!(names, want);
    let main = File::parse(&c.bytes, &limits).unwrap();
    assert!(main.textures.is_empty() && main.has_external_textures());
    assert!(c.bytes.len() < plain.bytes.len());
    let look = |f: &File<'static>| -> Vec<_> {
        f.textures
            .iter()
            .map(|t| {
                (
                    t.name,
                    t.flags,
                    t.width,
                    t.height,
                    t.pixels.clone(),
                    t.palette.clone(),
                )
            })
            .collect()
    };
    assert_eq!(look(&c.file), look(&plain.file));
    assert_eq!(c.file.skins, plain.file.skins);
    assert_eq!(c.file.bones, plain.file.bones);
    for (a, b) in c.file.sequences.iter().zip(&plain.file.sequences) {
        assert_eq!(a.anims, b.anims, "{}", a.label());
    }
    assert!(c.file.sequences.iter().any(|q| q.seq_group > 0));
    assert!(c.warnings.iter().all(|w| !w.contains("$externaltextures")));
}

/// A model that came with a texture file or sequence groups decompiles to a QC that asks for
/// them again (`$externaltextures`, `$sequencegroupsize` as large as its largest group), and
/// that QC compiles with groups no larger.
#[test]
fn decompiled_side_files_become_commands() {
    let Some(dir) = common::corpus_dir() else {
        return;
    };
    let limits = Limits::default();
    let hl1 = dir.join("assimp/test/models/MDL/MDL (HL1)");
    let cases = [
        (hl1.clone(), "man.mdl", true, false),
        (
            hl1.join("unnamed_sequence_groups"),
            "unnamed_sequence_groups.mdl",
            false,
            true,
        ),
        (hl1.clone(), "alpha_test.mdl", false, false),
    ];
    for (folder, name, textures, groups) in cases {
        let bytes = std::fs::read(folder.join(name)).unwrap();
        let resolver = Beside(folder.clone(), name.into());
        let out = retromodel::formats::goldsrc::qc::decompile_bytes(
            &bytes,
            &resolver,
            &retromodel::WriteOptions::default(),
        )
        .unwrap();
        let qc = retromodel::formats::goldsrc::qc::Qc::parse(&out.bytes, &limits).unwrap();
        assert_eq!(qc.external_textures, textures, "{name}");
        assert_eq!(qc.sequence_group_size.is_some(), groups, "{name}");
        let original = File::parse(&bytes, &limits).unwrap();
        if let Some(kb) = qc.sequence_group_size {
            assert!(kb > 0, "{name}: {kb} KB");
            let files = retromodel::resolve::MemoryFiles(
                out.side_files
                    .iter()
                    .map(|f| (f.name.clone(), f.bytes.clone()))
                    .collect(),
            );
            let c = retromodel::formats::goldsrc::qc::compile(&qc, &files, &limits).unwrap();
            // Groups of at most that size (a 76-byte header and the animation values); this
            // model's nine 3-frame sequences all fit in the model file's own group 0.
            for f in &c.side_files {
                assert!(
                    f.bytes.len() <= 76 + kb as usize * 1024,
                    "{name}: {}",
                    f.name
                );
            }
            assert_eq!(c.file.sequences.len(), original.sequences.len(), "{name}");
        }
    }
}
