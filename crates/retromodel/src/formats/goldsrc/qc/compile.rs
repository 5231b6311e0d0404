//! A QC with its SMDs and BMPs compiled to a GoldSrc [`File`] (MDL version 10), laid out as
//! studiomdl lays one out; `$externaltextures` and `$sequencegroupsize` put the textures and
//! the later sequences' animations in files beside it, through the GoldSrc writer's own
//! `side_files` functions.

use std::borrow::Cow;
use std::collections::HashMap;

use super::*;
use crate::codec::SideFile;
use crate::error::{Error, ErrorKind, Location, Result, ResultExt};
use crate::formats::goldsrc::convert::{bind_locals, to_object};
use crate::formats::goldsrc::convert::{turn, DEFAULT_TURN};
use crate::formats::goldsrc::from_model::encode_sequence;
use crate::formats::goldsrc::side_files::{self, Layout};
use crate::formats::goldsrc::{self as gs, STUDIO_LOOPING};
use crate::formats::smd;
use crate::image::bmp8::read_indexed;
use crate::io::names::name_field;
use crate::limits::Limits;
use crate::math::Quat;
use crate::resolve::Resolver;

/// A compiled model and what was said on the way.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The GoldSrc model whole, as a reader sees it with its side files: the textures and
    /// every sequence's animation values in it, whichever file they are written to (the
    /// offsets of a later group's sequences are those in its group file).
    pub file: File<'static>,
    /// The model file's bytes: without the textures under `$externaltextures`, without the
    /// animations of the sequence groups past the first under `$sequencegroupsize`.
    pub bytes: Vec<u8>,
    /// The files beside it: `STEM01.mdl`, `STEM02.mdl` ... then `STEMT.mdl`, `STEM` the
    /// file name of `$modelname` without `.mdl` (`model` when there is none).
    pub side_files: Vec<SideFile>,
    /// Commands read but not applied, bones or textures not found.
    pub warnings: Vec<String>,
}

fn err(at: Option<(u32, u32)>, kind: ErrorKind, message: String) -> Error {
    let location = match at {
        Some((line, column)) => Location::LineCol { line, column },
        None => Location::None,
    };
    Error::new(FORMAT, kind, message, location)
}

fn join(dir: &Option<String>, name: &str) -> String {
    match dir.as_deref() {
        None | Some("") | Some(".") | Some("./") => name.to_string(),
        Some(d) => format!("{}/{name}", d.trim_end_matches(['/', '\\'])),
    }
}

/// Where the SMDs come from: by path, parsed (`None` when there is no such file).
type SmdSource<'a> = dyn FnMut(&str) -> Option<Result<smd::File>> + 'a;

fn load_smd(qc: &Qc, f: &FileRef, what: &str, smds: &mut SmdSource) -> Result<smd::File> {
    let path = join(&qc.cd, &format!("{}.smd", f.name));
    smds(&path)
        .ok_or_else(|| {
            err(
                f.at,
                ErrorKind::InvalidValue,
                format!("{what} {path} not found"),
            )
        })?
        .context_with(|| path.clone())
}

/// The skeleton: bones by name, in order of first appearance, each with its reference pose.
#[derive(Default)]
struct Skeleton {
    names: Vec<String>,
    parents: Vec<i32>,
    rest: Vec<[f32; 6]>,
    index: HashMap<String, usize>,
}

impl Skeleton {
    /// Adds `s`'s nodes; the map from its node ids to bones.
    fn add(&mut self, s: &smd::File, scale: f32) -> Vec<usize> {
        let pose0 = s.frames.first();
        let mut map = Vec::with_capacity(s.nodes.len());
        for (i, n) in s.nodes.iter().enumerate() {
            let b = match self.index.get(&n.name.to_ascii_lowercase()) {
                Some(&b) => b,
                None => {
                    let parent = usize::try_from(n.parent)
                        .ok()
                        .and_then(|p| map.get(p).copied())
                        .map_or(-1, |p: usize| p as i32);
                    let mut ch = [0.0; 6];
                    if let Some(p) = pose0.and_then(|f| f.bones.iter().find(|p| p.bone == i)) {
                        ch = [
                            p.position[0] * scale,
                            p.position[1] * scale,
                            p.position[2] * scale,
                            p.rotation[0],
                            p.rotation[1],
                            p.rotation[2],
                        ];
                    }
                    self.names.push(n.name.clone());
                    self.parents.push(parent);
                    self.rest.push(ch);
                    self.index
                        .insert(n.name.to_ascii_lowercase(), self.names.len() - 1);
                    self.names.len() - 1
                }
            };
            map.push(b);
        }
        map
    }

    fn bone(&self, name: &str) -> Option<usize> {
        self.index.get(&name.to_ascii_lowercase()).copied()
    }
}

/// One sub-model being built.
struct Sub {
    name: String,
    vertices: Vec<[f32; 3]>,
    vertex_bones: Vec<u8>,
    normals: Vec<[f32; 3]>,
    normal_bones: Vec<u8>,
    /// (texture, corners `[v, n, s, t]`, three a triangle, stored winding).
    meshes: Vec<(usize, Vec<[i16; 4]>)>,
}

/// Compiles `qc`, reading its SMDs and BMPs through `resolver` (`$cd` and `$cdtexture`
/// relative to it).
pub fn compile(qc: &Qc, resolver: &dyn Resolver, limits: &Limits) -> Result<Compiled> {
    let mut smds = |path: &str| {
        resolver
            .load(path)
            .map(|data| smd::File::parse(&data, limits))
    };
    compile_from(qc, &mut smds, resolver, limits)
}

/// Compiles a [`Decompiled`] model as it is in memory (its SMDs unparsed, its BMPs read).
pub fn compile_decompiled(d: &super::Decompiled, limits: &Limits) -> Result<Compiled> {
    let mut smds = |path: &str| {
        d.smds
            .iter()
            .find(|(n, _)| join(&d.qc.cd, &format!("{n}.smd")) == path)
            .map(|(_, s)| Ok(s.clone()))
    };
    let files = crate::resolve::MemoryFiles(
        d.bmps
            .iter()
            .map(|(n, b)| (join(&d.qc.cd_texture, n), b.clone()))
            .collect(),
    );
    compile_from(&d.qc, &mut smds, &files, limits)
}

fn compile_from(
    qc: &Qc,
    smds: &mut SmdSource,
    resolver: &dyn Resolver,
    limits: &Limits,
) -> Result<Compiled> {
    let mut warnings = Vec::new();
    let scale = qc.scale.unwrap_or(1.0);
    let (adjust, angle) = match qc.origin {
        Some((o, a)) => (o, a.map_or(DEFAULT_TURN, |a| (a + 90.0).to_radians())),
        None => ([0.0; 3], DEFAULT_TURN),
    };
    // Reference SMDs and the skeleton.
    let mut sk = Skeleton::default();
    let mut refs: Vec<Vec<Option<Reference>>> = Vec::new();
    for g in &qc.body_groups {
        let mut models = Vec::new();
        for m in &g.models {
            models.push(match m {
                Some(f) => {
                    let s = load_smd(qc, f, "reference SMD", smds)?;
                    let map = sk.add(&s, scale);
                    Some((s, map, f.at))
                }
                None => None,
            });
        }
        refs.push(models);
    }
    if sk.names.len() > gs::from_model::MAX_BONES {
        return Err(err(
            None,
            ErrorKind::LimitExceeded,
            format!(
                "{} bones, more than the {} GoldSrc takes",
                sk.names.len(),
                gs::from_model::MAX_BONES
            ),
        ));
    }
    let mut bones: Vec<gs::Bone> = (0..sk.names.len())
        .map(|i| gs::Bone {
            name: name_field::<32>(&sk.names[i]).0,
            parent: sk.parents[i],
            flags: 0,
            bone_controller: [-1; 6],
            value: sk.rest[i],
            scale: [1.0; 6],
        })
        .collect();
    let (textures, tex_at) = load_textures(qc, &refs, resolver, limits, &mut warnings)?;
    // Vertices into their bones' spaces at the reference pose.
    let world = {
        let probe = File {
            bones: bones.clone(),
            ..empty_file()
        };
        to_object(&bones, &bind_locals(&probe))
    };
    let mut parts = Vec::new();
    for (g, models) in qc.body_groups.iter().zip(&refs) {
        let mut subs = Vec::new();
        for (m, r) in g.models.iter().zip(models) {
            subs.push(match (m, r) {
                (Some(f), Some((s, map, _))) => Some(sub_model(
                    &f.name, s, map, &world, &textures, &tex_at, adjust, scale,
                )?),
                _ => None,
            });
        }
        parts.push((g.name.clone(), subs));
    }
    // Animations.
    let mut seq_frames: Vec<Vec<Vec<Vec<[f32; 6]>>>> = Vec::new();
    let mut motions = Vec::new();
    for s in &qc.sequences {
        if s.files.is_empty() {
            return Err(err(
                None,
                ErrorKind::InvalidValue,
                format!("$sequence \"{}\" names no animation SMD", s.name),
            ));
        }
        let mut blends = Vec::new();
        for f in &s.files {
            let a = load_smd(qc, f, "animation SMD", smds)?;
            blends.push(animation(&a, s.frames, &sk, adjust, angle, scale));
        }
        motions.push(extract_motion(&mut blends, s.motion, &sk.parents));
        seq_frames.push(blends);
    }
    // Channel scales over every frame (16-bit steps of the largest offset).
    for (b, bone) in bones.iter_mut().enumerate() {
        for k in 0..6 {
            let mut most = 0f32;
            for f in seq_frames.iter().flatten().flatten() {
                most = most.max((f[b][k] - bone.value[k]).abs());
            }
            bone.scale[k] = if most > 0.0 && most.is_finite() {
                most / 32767.0
            } else {
                1.0 / 32767.0
            };
        }
    }
    for (i, c) in qc.controllers.iter().enumerate() {
        let b = sk.bone(&c.bone).ok_or_else(|| {
            err(
                None,
                ErrorKind::InvalidValue,
                format!(
                    "$controller {} names bone \"{}\", which no SMD has",
                    c.index, c.bone
                ),
            )
        })?;
        if let Some(k) = [0x1, 0x2, 0x4, 0x8, 0x10, 0x20]
            .iter()
            .position(|&t| c.kind & t != 0)
        {
            bones[b].bone_controller[k] = i as i32;
        }
    }
    let mut file = lay_out(
        qc,
        &sk,
        bones,
        parts,
        textures,
        &seq_frames,
        &motions,
        &world,
        &mut warnings,
    )?;
    let (bytes, side_files) = side_files::split(&mut file, &model_stem(qc), qc.external_textures);
    Ok(Compiled {
        file,
        bytes,
        side_files,
        warnings,
    })
}

/// The file name of `$modelname` without its folders and `.mdl`: the stem of the files
/// beside the model, as studiomdl names them.
fn model_stem(qc: &Qc) -> String {
    let name = qc.model_name.as_deref().unwrap_or_default();
    let base = name.rsplit(['/', '\\']).next().unwrap_or_default();
    let stem = match base.rfind('.') {
        Some(dot) => &base[..dot],
        None => base,
    };
    if stem.is_empty() { "model" } else { stem }.to_string()
}

/// A reference SMD with its node map and where the QC names it.
type Reference = (smd::File, Vec<usize>, Option<(u32, u32)>);

/// The textures in order of first use by the reference SMDs, then those only the texture
/// groups name, read from their BMPs (indices and palettes as they are); the index of each
/// by lower-case name.
fn load_textures(
    qc: &Qc,
    refs: &[Vec<Option<Reference>>],
    resolver: &dyn Resolver,
    limits: &Limits,
    warnings: &mut Vec<String>,
) -> Result<(Vec<gs::Texture<'static>>, HashMap<String, usize>)> {
    // Textures in order of first use, then those only the texture groups name.
    let mut tex_order: Vec<String> = Vec::new();
    let mut tex_at: HashMap<String, usize> = HashMap::new();
    let mut use_tex = |n: &str, order: &mut Vec<String>| -> usize {
        let key = n.to_ascii_lowercase();
        *tex_at.entry(key).or_insert_with(|| {
            order.push(n.to_string());
            order.len() - 1
        })
    };
    let mut tex_users: Vec<Option<(u32, u32)>> = Vec::new();
    for models in refs {
        for (s, _, at) in models.iter().flatten() {
            for t in &s.triangles {
                let i = use_tex(&t.material, &mut tex_order);
                if i == tex_users.len() {
                    tex_users.push(*at);
                }
            }
        }
    }
    for g in &qc.texture_groups {
        for n in g.skins.iter().flatten() {
            let i = use_tex(n, &mut tex_order);
            if i == tex_users.len() {
                tex_users.push(None);
            }
        }
    }
    let mut textures = Vec::new();
    for (i, name) in tex_order.iter().enumerate() {
        let path = join(&qc.cd_texture, name);
        let data = resolver.load(&path).ok_or_else(|| {
            err(
                tex_users[i],
                ErrorKind::InvalidValue,
                format!("texture {path} not found (a material of this SMD)"),
            )
        })?;
        let p = read_indexed(&data, limits).context_with(|| path.clone())?;
        let mut flags = flags_of_name(name);
        for (t, mode) in &qc.render_modes {
            if t.eq_ignore_ascii_case(name) {
                flags |= RENDER_MODES
                    .iter()
                    .find(|(m, _)| m == mode)
                    .map_or(0, |m| m.1);
            }
        }
        textures.push(gs::Texture {
            name: name_field::<64>(name).0,
            flags,
            width: p.width as i32,
            height: p.height as i32,
            index: 0,
            pixels: Cow::Owned(p.indices),
            palette: Cow::Owned(p.palette.into_iter().flatten().collect()),
        });
    }
    for (t, _) in &qc.render_modes {
        if !tex_order.iter().any(|n| n.eq_ignore_ascii_case(t)) {
            warnings.push(format!("$texrendermode names {t}, which no SMD uses"));
        }
    }
    Ok((textures, tex_at))
}

fn empty_file() -> File<'static> {
    File {
        header: gs::Header::new(""),
        bones: Vec::new(),
        controllers: Vec::new(),
        hitboxes: Vec::new(),
        sequences: Vec::new(),
        seq_groups: Vec::new(),
        textures: Vec::new(),
        skins: Vec::new(),
        body_parts: Vec::new(),
        attachments: Vec::new(),
        transitions: Cow::Borrowed(&[]),
        gaps: Vec::new(),
    }
}

#[allow(clippy::too_many_arguments)] // one sub-model's inputs
fn sub_model(
    name: &str,
    s: &smd::File,
    map: &[usize],
    world: &[crate::model::JointTransform],
    textures: &[gs::Texture],
    tex_at: &HashMap<String, usize>,
    adjust: [f32; 3],
    scale: f32,
) -> Result<Sub> {
    let mut sub = Sub {
        name: name.to_string(),
        vertices: Vec::new(),
        vertex_bones: Vec::new(),
        normals: Vec::new(),
        normal_bones: Vec::new(),
        meshes: Vec::new(),
    };
    let mut vi: HashMap<(u8, [u32; 3]), i16> = HashMap::new();
    let mut ni: HashMap<(u8, [u32; 3]), i16> = HashMap::new();
    for t in &s.triangles {
        let tex = tex_at[&t.material.to_ascii_lowercase()];
        let (w, h) = (textures[tex].width, textures[tex].height);
        let mut corners = [[0i16; 4]; 3];
        for (j, c) in t.corners.iter().enumerate() {
            let b = usize::try_from(c.bone)
                .ok()
                .and_then(|b| map.get(b).copied())
                .ok_or_else(|| {
                    err(
                        None,
                        ErrorKind::IndexOutOfRange,
                        format!(
                            "{name}.smd: a vertex on bone {}, which its nodes do not list",
                            c.bone
                        ),
                    )
                })?;
            let x = world[b];
            let inv = Quat::from_array(x.rotation).conjugate();
            let p: [f32; 3] =
                std::array::from_fn(|a| (c.position[a] - adjust[a]) * scale - x.translation[a]);
            let p = inv.rotate(p);
            let n = inv.rotate(c.normal);
            let key = (b as u8, p.map(f32::to_bits));
            let next = sub.vertices.len() as i16;
            let v = *vi.entry(key).or_insert_with(|| {
                sub.vertices.push(p);
                sub.vertex_bones.push(b as u8);
                next
            });
            let key = (b as u8, n.map(f32::to_bits));
            let next = sub.normals.len() as i16;
            let nn = *ni.entry(key).or_insert_with(|| {
                sub.normals.push(n);
                sub.normal_bones.push(b as u8);
                next
            });
            let st =
                |u: f32, size: i32| (u.clamp(0.0, 1.0) * (size - 1).max(1) as f32).round() as i16;
            corners[2 - j] = [v, nn, st(c.uv[0], w), st(1.0 - c.uv[1], h)];
        }
        match sub.meshes.iter_mut().find(|m| m.0 == tex) {
            Some(m) => m.1.extend_from_slice(&corners),
            None => sub.meshes.push((tex, corners.to_vec())),
        }
    }
    if sub.vertices.len() > gs::from_model::MAX_VERTS {
        return Err(err(
            None,
            ErrorKind::LimitExceeded,
            format!(
                "{name}.smd: {} vertices, more than the {} of a GoldSrc sub-model",
                sub.vertices.len(),
                gs::from_model::MAX_VERTS
            ),
        ));
    }
    Ok(sub)
}

/// An animation SMD's frames (within `range`) as every bone's channels, roots turned and
/// moved as studiomdl's `Grab_Animation` does; bones it lacks keep their reference pose.
fn animation(
    a: &smd::File,
    range: Option<(i32, i32)>,
    sk: &Skeleton,
    adjust: [f32; 3],
    angle: f32,
    scale: f32,
) -> Vec<Vec<[f32; 6]>> {
    let map: Vec<Option<usize>> = a.nodes.iter().map(|n| sk.bone(&n.name)).collect();
    let mut frames: Vec<&smd::Frame> = a
        .frames
        .iter()
        .filter(|f| range.is_none_or(|(s, e)| f.time >= s && f.time <= e))
        .collect();
    frames.sort_by_key(|f| f.time);
    let mut last = sk.rest.clone();
    let mut out = Vec::with_capacity(frames.len());
    for f in frames {
        for p in &f.bones {
            let Some(Some(b)) = map.get(p.bone) else {
                continue;
            };
            let mut ch = [
                p.position[0],
                p.position[1],
                p.position[2],
                p.rotation[0],
                p.rotation[1],
                p.rotation[2],
            ];
            if sk.parents[*b] < 0 {
                for a in 0..3 {
                    ch[a] -= adjust[a];
                }
                turn(&mut ch, angle);
            }
            for v in &mut ch[..3] {
                *v *= scale;
            }
            last[*b] = ch;
        }
        out.push(last.clone());
    }
    out
}

/// studiomdl's `ExtractMotion`: the first bone's movement from the first frame to the last
/// along the `LX`/`LY`/`LZ` axes, taken out of every root; the linear movement.
fn extract_motion(blends: &mut [Vec<Vec<[f32; 6]>>], motion: i32, parents: &[i32]) -> [f32; 3] {
    let mut m = [0.0f32; 3];
    let Some(first) = blends.first() else {
        return m;
    };
    let n = first.len();
    if n < 2 || first[0].is_empty() {
        return m;
    }
    for (axis, bit) in [0x40, 0x80, 0x100].into_iter().enumerate() {
        if motion & bit != 0 {
            m[axis] = first[n - 1][0][axis] - first[0][0][axis];
        }
    }
    for blend in blends.iter_mut() {
        for (j, frame) in blend.iter_mut().enumerate() {
            for (b, ch) in frame.iter_mut().enumerate() {
                if parents[b] < 0 {
                    for a in 0..3 {
                        ch[a] -= m[a] * j as f32 / (n - 1) as f32;
                    }
                }
            }
        }
    }
    m
}

/// The model's box at the reference pose, from its sub-models' vertices.
fn bind_box(
    parts: &[(String, Vec<Option<Sub>>)],
    world: &[crate::model::JointTransform],
) -> [[f32; 3]; 2] {
    let mut bx = [[f32::MAX; 3], [f32::MIN; 3]];
    for s in parts.iter().flat_map(|p| p.1.iter().flatten()) {
        for (v, &b) in s.vertices.iter().zip(&s.vertex_bones) {
            let x = world[b as usize];
            let p = Quat::from_array(x.rotation).rotate(*v);
            for a in 0..3 {
                let c = p[a] + x.translation[a];
                bx[0][a] = bx[0][a].min(c);
                bx[1][a] = bx[1][a].max(c);
            }
        }
    }
    if bx[0][0] > bx[1][0] {
        [[0.0; 3]; 2]
    } else {
        bx
    }
}

/// The skin families: identity rows, each texture group's later rows replacing its first.
fn skin_families(qc: &Qc, textures: &[gs::Texture]) -> (usize, Vec<i16>) {
    let find = |n: &str| {
        textures
            .iter()
            .position(|t| crate::io::names::name_str(&t.name).eq_ignore_ascii_case(n))
    };
    let families = qc
        .texture_groups
        .iter()
        .map(|g| g.skins.len())
        .max()
        .unwrap_or(1)
        .max(1);
    let n = textures.len();
    let mut skins: Vec<i16> = (0..families).flat_map(|_| 0..n as i16).collect();
    for g in &qc.texture_groups {
        let Some(first) = g.skins.first() else {
            continue;
        };
        for (f, row) in g.skins.iter().enumerate().skip(1) {
            for (col, name) in first.iter().zip(row) {
                if let (Some(c), Some(t)) = (find(col), find(name)) {
                    skins[f * n + c] = t as i16;
                }
            }
        }
    }
    (families, skins)
}

#[allow(clippy::too_many_arguments)] // the parts of one file, each made by its own step
fn lay_out(
    qc: &Qc,
    sk: &Skeleton,
    bones: Vec<gs::Bone>,
    parts: Vec<(String, Vec<Option<Sub>>)>,
    mut textures: Vec<gs::Texture<'static>>,
    seq_frames: &[Vec<Vec<Vec<[f32; 6]>>>],
    motions: &[[f32; 3]],
    world: &[crate::model::JointTransform],
    warnings: &mut Vec<String>,
) -> Result<File<'static>> {
    let unknown = |what: &str, bone: &str| {
        err(
            None,
            ErrorKind::InvalidValue,
            format!("{what} names bone \"{bone}\", which no SMD has"),
        )
    };
    let mut f = empty_file();
    let bx = bind_box(&parts, world);
    let h = &mut f.header;
    h.name = name_field::<64>(qc.model_name.as_deref().unwrap_or("model.mdl")).0;
    if let Some(e) = qc.eye_position {
        h.eye_position = [-e[1], e[0], e[2]];
    }
    h.flags = qc.flags.unwrap_or(0);
    // studiomdl's WriteFile: $bbox is the header's min/max, $cbox its bbmin/bbmax
    [h.min, h.max] = qc.bbox.unwrap_or([[0.0; 3]; 2]);
    [h.bbmin, h.bbmax] = qc.cbox.unwrap_or(bx);
    let mut l = Layout(gs::HEADER_SIZE);
    f.header.fields[0] = bones.len() as i32;
    f.header.fields[1] = l.take(bones.len() * gs::BONE_SIZE);
    f.controllers = qc
        .controllers
        .iter()
        .map(|c| {
            let mut kind = c.kind;
            if kind & 0x38 != 0
                && ((c.start + 360.0) as i32 % 360) == ((c.end + 360.0) as i32 % 360)
            {
                kind |= RLOOP;
            }
            Ok(gs::BoneController {
                bone: sk
                    .bone(&c.bone)
                    .ok_or_else(|| unknown("$controller", &c.bone))? as i32,
                kind,
                start: c.start,
                end: c.end,
                rest: 0,
                index: c.index,
            })
        })
        .collect::<Result<_>>()?;
    f.header.fields[2] = f.controllers.len() as i32;
    f.header.fields[3] = l.take(f.controllers.len() * gs::CONTROLLER_SIZE);
    f.attachments = qc
        .attachments
        .iter()
        .map(|a| {
            Ok(gs::Attachment {
                name: [0; 32],
                kind: 0,
                bone: sk
                    .bone(&a.bone)
                    .ok_or_else(|| unknown("$attachment", &a.bone))? as i32,
                org: a.org,
                vectors: [[0.0; 3]; 3],
            })
        })
        .collect::<Result<_>>()?;
    f.header.fields[18] = f.attachments.len() as i32;
    f.header.fields[19] = l.take(f.attachments.len() * gs::ATTACHMENT_SIZE);
    f.hitboxes = qc
        .hitboxes
        .iter()
        .map(|hb| {
            Ok(gs::Hitbox {
                bone: sk
                    .bone(&hb.bone)
                    .ok_or_else(|| unknown("$hbox", &hb.bone))? as i32,
                group: hb.group,
                bbmin: hb.min,
                bbmax: hb.max,
            })
        })
        .collect::<Result<_>>()?;
    f.header.fields[4] = f.hitboxes.len() as i32;
    f.header.fields[5] = l.take(f.hitboxes.len() * gs::HITBOX_SIZE);
    // Sequences, their events, their groups, the first group's animations.
    let mut seqs = Vec::new();
    for ((s, frames), motion) in qc.sequences.iter().zip(seq_frames).zip(motions) {
        let mut anims = Vec::new();
        let far = || {
            err(
                None,
                ErrorKind::LimitExceeded,
                format!(
                    "$sequence \"{}\": its animation values lie beyond a 16-bit offset",
                    s.name
                ),
            )
        };
        for blend in frames {
            anims.extend(encode_sequence(blend, &bones).ok_or_else(far)?);
        }
        // Every blend's records first, then all their words: offsets count from each record.
        let mut data = anims.len() * gs::ANIM_SIZE;
        for (r, a) in anims.iter_mut().enumerate() {
            for k in 0..6 {
                if a.offsets[k] != 0 {
                    a.offsets[k] = u16::try_from(data - r * gs::ANIM_SIZE).map_err(|_| far())?;
                    data += a.channels[k].len() * 2;
                }
            }
        }
        let blend = s.blend.unwrap_or((0, 0.0, 1.0));
        seqs.push(gs::Sequence {
            label: name_field::<32>(&s.name).0,
            fps: s.fps.unwrap_or(30.0),
            flags: if s.looping { STUDIO_LOOPING } else { 0 },
            activity: s.activity.map_or(0, |a| a.0),
            act_weight: s.activity.map_or(0, |a| a.1),
            event_index: [s.events.len() as i32, 0],
            num_frames: frames.first().map_or(0, Vec::len) as i32,
            pivot_index: [0, 0],
            motion_type: s.motion,
            motion_bone: 0,
            linear_movement: *motion,
            automove: [0, 0],
            bbmin: f.header.bbmin,
            bbmax: f.header.bbmax,
            num_blends: frames.len() as i32,
            anim_index: 0,
            blend_type: [blend.0, 0],
            blend_start: [blend.1, 0.0],
            blend_end: [blend.2, 0.0],
            blend_parent: 0,
            seq_group: 0,
            entry_node: s.nodes.map_or(0, |n| n.0),
            exit_node: s.nodes.map_or(0, |n| n.1),
            node_flags: s.nodes.map_or(0, |n| n.2 as i32),
            next_seq: 0,
            events: s
                .events
                .iter()
                .map(|e| gs::Event {
                    frame: e.frame,
                    event: e.event,
                    kind: 0,
                    options: name_field::<64>(e.options.as_deref().unwrap_or("")).0,
                })
                .collect(),
            pivots: Vec::new(),
            anims,
        });
    }
    f.header.fields[6] = seqs.len() as i32;
    f.header.fields[7] = l.take(seqs.len() * gs::SEQUENCE_SIZE);
    for q in &mut seqs {
        q.event_index[1] = l.take(q.events.len() * gs::EVENT_SIZE);
        q.pivot_index[1] = l.0 as i32;
    }
    let size = qc.sequence_group_size.filter(|&kb| kb > 0);
    f.seq_groups = side_files::assign_groups(
        &mut seqs,
        size.map(|kb| (kb as usize).saturating_mul(1024)),
        &model_stem(qc),
    );
    f.header.fields[8] = f.seq_groups.len() as i32;
    f.header.fields[9] = l.take(f.seq_groups.len() * gs::SEQ_GROUP_SIZE);
    for q in seqs.iter_mut().filter(|q| q.seq_group == 0) {
        q.anim_index = l.take(q.anims.len() * gs::ANIM_SIZE);
        let words: usize = q.anims.iter().flat_map(|a| &a.channels).map(Vec::len).sum();
        l.take(words * 2);
    }
    f.sequences = seqs;
    f.bones = bones;
    lay_out_parts(&mut f, &mut l, parts, world);
    // Textures, skin families, pixels.
    let (families, skins) = skin_families(qc, &textures);
    f.header.fields[10] = textures.len() as i32;
    f.header.fields[11] = l.take(textures.len() * gs::TEXTURE_SIZE);
    f.header.fields[13] = textures.len() as i32;
    f.header.fields[14] = families as i32;
    f.header.fields[15] = l.take(skins.len() * 2);
    f.header.fields[12] = l.0 as i32;
    for t in &mut textures {
        t.index = l.take(t.pixels.len() + t.palette.len());
    }
    f.textures = textures;
    f.skins = skins;
    f.header.length = l.0 as i32;
    if f.hitboxes.is_empty() {
        warnings.push("no $hbox: the model has no hit boxes".into());
    }
    Ok(f)
}

/// Body parts, sub-models, meshes, commands and arrays.
fn lay_out_parts(
    f: &mut File<'static>,
    l: &mut Layout,
    parts: Vec<(String, Vec<Option<Sub>>)>,
    world: &[crate::model::JointTransform],
) {
    f.header.fields[16] = parts.len() as i32;
    f.header.fields[17] = l.take(parts.len() * gs::BODY_PART_SIZE);
    let mut base = 1;
    for (name, subs) in parts {
        let model_index = l.take(subs.len() * gs::MODEL_SIZE);
        let n = subs.len() as i32;
        let mut models = Vec::new();
        for sub in subs {
            let sub = sub.unwrap_or(Sub {
                name: "blank".into(),
                vertices: Vec::new(),
                vertex_bones: Vec::new(),
                normals: Vec::new(),
                normal_bones: Vec::new(),
                meshes: Vec::new(),
            });
            let meshindex = l.take(sub.meshes.len() * gs::MESH_SIZE);
            let meshes: Vec<gs::Mesh> = sub
                .meshes
                .iter()
                .map(|(tex, corners)| {
                    let mut commands = Vec::with_capacity(corners.len() / 3 * 13 + 1);
                    for tri in corners.chunks_exact(3) {
                        commands.push(3);
                        for c in tri {
                            commands.extend_from_slice(c);
                        }
                    }
                    commands.push(0);
                    gs::Mesh {
                        num_tris: (corners.len() / 3) as i32,
                        tri_index: l.take(commands.len() * 2),
                        skin_ref: *tex as i32,
                        num_norms: sub.normals.len() as i32,
                        norm_index: 0,
                        commands,
                    }
                })
                .collect();
            let vertinfo = l.take(sub.vertices.len());
            let norminfo = l.take(sub.normals.len());
            let vertindex = l.take(sub.vertices.len() * 12);
            let normindex = l.take(sub.normals.len() * 12);
            let radius = sub
                .vertices
                .iter()
                .zip(&sub.vertex_bones)
                .map(|(v, &b)| {
                    let x = world[b as usize];
                    let p = Quat::from_array(x.rotation).rotate(*v);
                    crate::math::length(std::array::from_fn(|a| p[a] + x.translation[a]))
                })
                .fold(0f32, f32::max);
            models.push(gs::SubModel {
                name: name_field::<64>(&sub.name).0,
                kind: 0,
                bounding_radius: radius,
                fields: [
                    meshes.len() as i32,
                    meshindex,
                    sub.vertices.len() as i32,
                    vertinfo,
                    vertindex,
                    sub.normals.len() as i32,
                    norminfo,
                    normindex,
                    0,
                    0,
                ],
                meshes,
                vertices: sub.vertices,
                vertex_bones: Cow::Owned(sub.vertex_bones),
                normals: sub.normals,
                normal_bones: Cow::Owned(sub.normal_bones),
            });
        }
        f.body_parts.push(gs::BodyPart {
            name: name_field::<64>(&name).0,
            num_models: n,
            base,
            model_index,
            models,
        });
        base *= n.max(1);
    }
}
