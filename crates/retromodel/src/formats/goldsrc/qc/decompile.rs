//! A GoldSrc [`File`] as a QC, its SMDs and its BMPs (see the module's comment for the
//! axes and the motion).

use super::*;
use crate::formats::goldsrc::convert::{bind_locals, bone_channels, to_object, turn, DEFAULT_TURN};
use crate::formats::goldsrc::STUDIO_LOOPING;
use crate::formats::smd;
use crate::image::bmp8::{write_indexed, Indexed};
use crate::math::Quat;

/// A decompiled model: the QC, the SMDs (by name, without `.smd`) and the BMPs (by file
/// name), all to be written in one folder.
#[derive(Debug, Clone, PartialEq)]
pub struct Decompiled {
    /// The QC.
    pub qc: Qc,
    /// The SMDs, by the name the QC gives them (`.smd` to be added).
    pub smds: Vec<(String, smd::File)>,
    /// The textures as 8-bit BMP files, by file name.
    pub bmps: Vec<(String, Vec<u8>)>,
    /// What a QC cannot say (unknown texture flag bits, controllers on no bone).
    pub warnings: Vec<String>,
}

/// A name made safe for a file name (letters, digits, `_`, `-`, `.`), unique among `taken`.
fn file_name(raw: &str, fallback: &str, taken: &mut Vec<String>) -> String {
    let mut s: String = raw
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "_-.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.trim_matches(['_', '.']).is_empty() {
        s = fallback.to_string();
    }
    let mut out = s.clone();
    let mut n = 2;
    while taken.iter().any(|t| t.eq_ignore_ascii_case(&out)) {
        out = format!("{s}_{n}");
        n += 1;
    }
    taken.push(out.clone());
    out
}

/// The last part of a path, without `.smd`.
fn stem_of(name: &str) -> &str {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    match base.len().checked_sub(4) {
        Some(i)
            if base
                .get(i..)
                .is_some_and(|e| e.eq_ignore_ascii_case(".smd")) =>
        {
            &base[..i]
        }
        _ => base,
    }
}

/// `file` (its sequence groups and texture file already read in,
/// [`with_side_files`](crate::formats::goldsrc::convert::with_side_files)) as a QC named
/// `stem` with its side files.
pub fn decompile(file: &File, stem: &str) -> Decompiled {
    let mut warnings = Vec::new();
    // studiomdl matches bones by name: an empty or repeated name gets the bone's number.
    let mut seen = std::collections::HashSet::new();
    let mut renamed = 0;
    let nodes: Vec<smd::Node> = file
        .bones
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let mut name = crate::formats::goldsrc::from_model::clean_name(&b.name());
            if name.is_empty() || !seen.insert(name.to_ascii_lowercase()) {
                name = format!("{name}_bone{i}");
                seen.insert(name.to_ascii_lowercase());
                renamed += 1;
            }
            smd::Node {
                name,
                parent: if b.parent >= 0 && (b.parent as usize) < i {
                    b.parent
                } else {
                    -1
                },
            }
        })
        .collect();
    if renamed > 0 {
        warnings.push(format!(
            "{renamed} bones without a name of their own renamed NAME_boneN (studiomdl matches bones by name)"
        ));
    }
    let bind: Vec<[f32; 6]> = file
        .bones
        .iter()
        .map(|b| bone_channels(b, None, 0, &[]))
        .collect();
    let world = to_object(&file.bones, &bind_locals(file));
    let mut taken = Vec::new();
    // Textures: one BMP each, named after the texture.
    let mut bmps = Vec::new();
    let mut tex_names = Vec::new();
    let mut render_modes = Vec::new();
    for (i, t) in file.textures.iter().enumerate() {
        let mut raw = t.name();
        if !raw.to_ascii_lowercase().ends_with(".bmp") {
            raw.push_str(".bmp");
        }
        let name = file_name(&raw, &format!("texture{i}.bmp"), &mut taken);
        let picture = Indexed {
            width: t.width.max(0) as u32,
            height: t.height.max(0) as u32,
            indices: t.pixels.to_vec(),
            palette: t
                .palette
                .chunks_exact(3)
                .map(|c| [c[0], c[1], c[2]])
                .collect(),
        };
        bmps.push((name.clone(), write_indexed(&picture)));
        let mut known = 0;
        let implied = flags_of_name(&name);
        for &(mode, bit) in RENDER_MODES {
            known |= bit;
            if t.flags & bit & !implied != 0 {
                render_modes.push((name.clone(), mode.to_string()));
            }
        }
        if t.flags & !known != 0 {
            warnings.push(format!(
                "texture {name}: flags 0x{:x} have no $texrendermode",
                t.flags & !known
            ));
        }
        tex_names.push(name);
    }
    let frame0 = smd::Frame {
        time: 0,
        bones: bind.iter().enumerate().map(|(i, ch)| pose(i, ch)).collect(),
    };
    let mut smds = Vec::new();
    let mut body_groups = Vec::new();
    for part in &file.body_parts {
        let mut g = BodyGroup {
            name: part.name(),
            models: Vec::new(),
        };
        for m in &part.models {
            if m.meshes.is_empty() && m.vertices.is_empty() {
                g.models.push(None);
                continue;
            }
            let name = file_name(stem_of(&m.name()), "model", &mut taken);
            let triangles = reference_triangles(file, m, &world, &tex_names);
            smds.push((
                name.clone(),
                smd::File {
                    nodes: nodes.clone(),
                    frames: vec![frame0.clone()],
                    triangles,
                },
            ));
            g.models.push(Some(FileRef::new(name)));
        }
        body_groups.push(g);
    }
    let sequences = file
        .sequences
        .iter()
        .map(|s| sequence(file, s, &nodes, &mut taken, &mut smds))
        .collect();
    let bone_name = |b: i32| {
        nodes
            .get(b.max(0) as usize)
            .map(|n| n.name.clone())
            .unwrap_or_default()
    };
    let e = file.header.eye_position;
    let qc = Qc {
        model_name: Some(format!("{stem}.mdl")),
        cd: Some(".".into()),
        cd_texture: Some(".".into()),
        scale: Some(1.0),
        origin: None,
        eye_position: Some([e[1], -e[0], e[2]]),
        flags: Some(file.header.flags),
        bbox: Some([file.header.min, file.header.max]),
        cbox: Some([file.header.bbmin, file.header.bbmax]),
        external_textures: false,
        sequence_group_size: None,
        body_groups,
        texture_groups: texture_groups(file, &tex_names),
        render_modes,
        hitboxes: file
            .hitboxes
            .iter()
            .map(|h| HitBox {
                group: h.group,
                bone: bone_name(h.bone),
                min: h.bbmin,
                max: h.bbmax,
            })
            .collect(),
        attachments: file
            .attachments
            .iter()
            .enumerate()
            .map(|(i, a)| Attachment {
                index: i as i32,
                bone: bone_name(a.bone),
                org: a.org,
            })
            .collect(),
        controllers: file
            .controllers
            .iter()
            .map(|c| Controller {
                index: c.index,
                bone: bone_name(c.bone),
                kind: lowest_bit(c.kind & !RLOOP),
                start: c.start,
                end: c.end,
            })
            .collect(),
        sequences,
    };
    Decompiled {
        qc,
        smds,
        bmps,
        warnings,
    }
}

fn lowest_bit(v: i32) -> i32 {
    v & v.wrapping_neg()
}

fn pose(bone: usize, ch: &[f32; 6]) -> smd::BonePose {
    smd::BonePose {
        bone,
        position: [ch[0], ch[1], ch[2]],
        rotation: [ch[3], ch[4], ch[5]],
    }
}

/// A sub-model's triangles in model space at the bind pose, each corner on its bone; the
/// corners in SMD order (studiomdl reverses them as it reads).
fn reference_triangles(
    file: &File,
    m: &crate::formats::goldsrc::SubModel,
    world: &[crate::model::JointTransform],
    tex_names: &[String],
) -> Vec<smd::Triangle> {
    let mut out = Vec::new();
    let family = file.skin_family(0);
    for mesh in &m.meshes {
        let tex = family
            .get(mesh.skin_ref.max(0) as usize)
            .map(|&t| t as usize)
            .unwrap_or(mesh.skin_ref.max(0) as usize);
        let (material, w, h) = match (tex_names.get(tex), file.textures.get(tex)) {
            (Some(n), Some(t)) => (n.clone(), t.width, t.height),
            _ => (format!("texture{tex}.bmp"), 1, 1),
        };
        let (sw, th) = ((w - 1).max(1) as f32, (h - 1).max(1) as f32);
        let corner = |c: [i16; 4]| {
            let (vi, ni) = (c[0].max(0) as usize, c[1].max(0) as usize);
            let vb = m.vertex_bones.get(vi).copied().unwrap_or(0) as usize;
            let nb = m.normal_bones.get(ni).copied().unwrap_or(0) as usize;
            let at = |b: usize| {
                world
                    .get(b)
                    .copied()
                    .unwrap_or(crate::model::JointTransform::IDENTITY)
            };
            let t = at(vb);
            let p = Quat::from_array(t.rotation)
                .rotate(m.vertices.get(vi).copied().unwrap_or_default());
            let n = Quat::from_array(at(nb).rotation)
                .rotate(m.normals.get(ni).copied().unwrap_or([0.0, 0.0, 1.0]));
            smd::Vertex {
                bone: vb as i32,
                position: std::array::from_fn(|a| p[a] + t.translation[a]),
                normal: n,
                uv: [c[2] as f32 / sw, 1.0 - c[3] as f32 / th],
                links: Vec::new(),
            }
        };
        for t in mesh.triangles() {
            out.push(smd::Triangle {
                material: material.clone(),
                corners: [corner(t[2]), corner(t[1]), corner(t[0])],
            });
        }
    }
    out
}

/// Most blends a decompiled sequence gets (Xash3D's `MAXSTUDIOBLENDS`).
const MAX_BLENDS: usize = 16;

/// One sequence: an animation SMD per blend, and its options.
fn sequence(
    file: &File,
    s: &crate::formats::goldsrc::Sequence,
    nodes: &[smd::Node],
    taken: &mut Vec<String>,
    smds: &mut Vec<(String, smd::File)>,
) -> super::Sequence {
    let n = file.bones.len();
    // at most 16 blends (Xash3D's MAXSTUDIOBLENDS; the SDK's is 8), and no more than the
    // animation records read hold: a hostile count does not multiply the frames decoded
    let blends = (s.num_blends.max(1) as usize)
        .min(MAX_BLENDS)
        .min((s.anims.len() / n.max(1)).max(1));
    let frames = s.num_frames.max(0) as usize;
    let mut files = Vec::new();
    for b in 0..blends {
        let raw = if blends == 1 {
            s.label()
        } else {
            format!("{}_blend{}", s.label(), b + 1)
        };
        let name = file_name(&raw, "sequence", taken);
        let frames = (0..frames)
            .map(|f| smd::Frame {
                time: f as i32,
                bones: (0..n)
                    .map(|k| {
                        let mut ch = bone_channels(&file.bones[k], s.anims.get(b * n + k), f, &[]);
                        if nodes[k].parent < 0 {
                            for (axis, bit) in [0x40, 0x80, 0x100].into_iter().enumerate() {
                                if s.motion_type & bit != 0 && frames > 1 {
                                    ch[axis] +=
                                        s.linear_movement[axis] * f as f32 / (frames - 1) as f32;
                                }
                            }
                            turn(&mut ch, -DEFAULT_TURN);
                        }
                        pose(k, &ch)
                    })
                    .collect(),
            })
            .collect();
        smds.push((
            name.clone(),
            smd::File {
                nodes: nodes.to_vec(),
                frames,
                triangles: Vec::new(),
            },
        ));
        files.push(FileRef::new(name));
    }
    super::Sequence {
        name: s.label(),
        files,
        fps: Some(s.fps),
        looping: s.flags & STUDIO_LOOPING != 0,
        frames: None,
        activity: (s.activity != 0).then_some((s.activity, s.act_weight)),
        motion: s.motion_type,
        blend: (s.num_blends > 1).then_some((
            lowest_bit(s.blend_type[0]),
            s.blend_start[0],
            s.blend_end[0],
        )),
        nodes: (s.entry_node != 0 || s.exit_node != 0).then_some((
            s.entry_node,
            s.exit_node,
            s.node_flags & 1 != 0,
        )),
        events: s
            .events
            .iter()
            .map(|e| Event {
                event: e.event,
                frame: e.frame,
                options: Some(e.options()).filter(|o| !o.is_empty()),
            })
            .collect(),
    }
}

/// The skin families as one `$texturegroup`: the columns that change between families.
fn texture_groups(file: &File, names: &[String]) -> Vec<TextureGroup> {
    let families = file.header.num_skin_families().max(0) as usize;
    if families < 2 {
        return Vec::new();
    }
    let first = file.skin_family(0);
    let columns: Vec<usize> = (0..first.len())
        .filter(|&c| (1..families).any(|f| file.skin_family(f).get(c) != first.get(c)))
        .collect();
    if columns.is_empty() {
        return Vec::new();
    }
    let name_of = |t: i16| names.get(t.max(0) as usize).cloned().unwrap_or_default();
    vec![TextureGroup {
        name: "skinfamilies".into(),
        skins: (0..families)
            .map(|f| {
                let row = file.skin_family(f);
                columns
                    .iter()
                    .map(|&c| name_of(row.get(c).copied().unwrap_or(0)))
                    .collect()
            })
            .collect(),
    }]
}
