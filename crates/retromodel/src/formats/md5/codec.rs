//! Doom 3 MD5 (mesh, anim, camera): the [`Codec`](crate::codec::Codec) that the format registry lists.
//!
//! An md5mesh converted to a Model takes along the `.md5anim` files its resolver lists
//! ([`Resolver::list`]) whose joints fit the mesh, each as a skeletal animation named after
//! its file; files that do not parse or do not fit are left out with a warning.

use super::{
    anim_from_model, anim_summary, anim_to_model, attach_animation, camera_from_model,
    camera_summary, camera_to_model, mesh_from_model, mesh_summary, mesh_to_model, parse_anim,
    parse_camera, parse_mesh, validate_anim, validate_camera, validate_mesh, write_anim,
    write_camera, write_mesh, AnimFile, CameraFile, MeshFile, Parsed, ANIM_FORMAT, CAMERA_FORMAT,
    MESH_FORMAT,
};
use crate::codec::{
    self, parse_by_format, Codec, Format, Kernel, Output, ParsedFile, Prepared, SideFile, Writer,
};
use crate::diagnostic::Diagnostic;
use crate::error::Result;
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{ConvertOptions, WriteOptions};
use crate::resolve::Resolver;
use crate::summary::Summary;

/// Doom 3 `.md5mesh` (skeleton and weighted meshes).
pub const MD5MESH: Format = Format::new(MESH_FORMAT, "Doom 3 md5mesh", &["md5mesh"]);
/// Doom 3 `.md5anim` (skeletal animation).
pub const MD5ANIM: Format = Format::new(ANIM_FORMAT, "Doom 3 md5anim", &["md5anim"]);
/// Doom 3 `.md5camera` (camera path).
pub const MD5CAMERA: Format = Format::new(CAMERA_FORMAT, "Doom 3 md5camera", &["md5camera"]);

/// The MD5 codec: three text formats.
pub struct Md5Codec;

/// The registered MD5 codec.
pub static CODEC: Md5Codec = Md5Codec;

const ENGINES: &[codec::Engine] = &[codec::Engine {
    name: "doom3",
    description: "Doom 3 (id Tech 4)",
}];

/// One writer for each of the three formats, all fitted alike: a skeleton, 40 units a metre.
const WRITERS: [Writer; 3] = [writer(MD5MESH), writer(MD5ANIM), writer(MD5CAMERA)];

/// The writer of `format`: what Doom 3 needs of any MD5 file.
const fn writer(format: Format) -> Writer {
    Writer {
        format,
        variant: "",
        keyframes: false,
        single_mesh: false,
        fit: crate::codec::Fit {
            units_per_metre: 40,
            skeleton: true,
            ..crate::codec::Fit::NONE
        },
    }
}

impl Codec for Md5Codec {
    fn name(&self) -> &'static str {
        "md5"
    }
    fn formats(&self) -> &'static [Format] {
        &[MD5MESH, MD5ANIM, MD5CAMERA]
    }
    fn family(&self) -> &'static str {
        "MD5"
    }
    fn engines(&self) -> &'static [codec::Engine] {
        ENGINES
    }
    /// They start (after a BOM, blanks and `//` comments) with `MD5Version`, or with
    /// `commandline` or a count keyword when the version line is missing; which of the
    /// three it is shows in the keywords that start lines in its first 64 KiB: one of
    /// `numAnimatedComponents`, `hierarchy`, `bounds`, `baseframe` or `frame` makes an
    /// md5anim, else one of `numCuts`, `cuts` or `camera` an md5camera, else an md5mesh.
    /// The scan stops at the first line that names the kind (`numMeshes`, `joints`, `mesh`
    /// and the above) or at a line starting with `vert`, `tri` or `weight`, which only a
    /// mesh has, so that a mesh is told after a few lines, not a 64 KiB scan.
    fn detect(&self, data: &[u8]) -> Option<Format> {
        let mut text = crate::io::magic::skip_bom_and_space(data);
        while text.starts_with(b"//") {
            let end = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
            text = crate::io::magic::skip_bom_and_space(&text[end..]);
        }
        let starts = [
            &b"MD5Version"[..],
            b"commandline",
            b"numJoints",
            b"numFrames",
            b"numMeshes",
        ];
        if !starts.iter().any(|s| text.starts_with(s)) {
            return None;
        }
        Some(kind_by_keywords(&text[..text.len().min(64 * 1024)]))
    }
    fn byte_exact(&self) -> bool {
        false
    }
    parse_by_format!(MD5MESH, |format, data, limits| {
        Ok(if format == MD5ANIM {
            Box::new(parse_anim(data, limits)?)
        } else if format == MD5CAMERA {
            Box::new(parse_camera(data, limits)?)
        } else {
            Box::new(parse_mesh(data, limits)?)
        })
    });
    fn writers(&self) -> &'static [Writer] {
        &WRITERS
    }
    /// An md5mesh gets one `.md5anim` beside it per skeletal animation of the model (named
    /// after the animation); an md5anim is the model's first animation.
    /// Each animation with joint scales ([`crate::model::WeightScales`]) also gets its
    /// `.md5scale` beside its `.md5anim` (the md5anim output's named after `stem`).
    fn write_model(&self, model: &Model, format: Format, options: &WriteOptions) -> Result<Output> {
        let mut out = Output::default();
        out.bytes = if format == MD5ANIM {
            out.side_files
                .extend(scale_side_file(model, 0, options.side_file_stem()));
            write_anim(&anim_from_model(model, 0)?).into_bytes()
        } else if format == MD5CAMERA {
            write_camera(&camera_from_model(model)?).into_bytes()
        } else {
            for (i, a) in model.animations.iter().enumerate() {
                let stem = file_name(&a.name, i);
                out.side_files.push(SideFile {
                    name: format!("{stem}.md5anim"),
                    kind: "animation",
                    bytes: write_anim(&anim_from_model(model, i)?).into_bytes(),
                });
                out.side_files.extend(scale_side_file(model, i, &stem));
            }
            write_mesh(&mesh_from_model(model)?).into_bytes()
        };
        Ok(out)
    }
    fn fixtures(&self) -> Vec<(&'static str, Vec<u8>)> {
        super::fixtures::all()
    }
    fn kernels(&self) -> &'static [Kernel] {
        &[Kernel {
            name: "skinning",
            description: "MD5 weight skinning: each md5mesh posed with the longest .md5anim \
                          beside it that fits its skeleton, at 1000 evenly spaced times per \
                          round (positions and weight normals, one core)",
            unit: "vertices",
            prepare: prepare_skinning,
        }]
    }
}

/// Which MD5 file `head` is, by the keywords that start its lines (see [`Md5Codec::detect`]).
/// A keyword counts where it starts a line: joint and shader names are quoted or follow
/// another keyword, so a joint named "camera" does not make a camera file.
fn kind_by_keywords(head: &[u8]) -> Format {
    const ANIM: &[&[u8]] = &[
        b"numAnimatedComponents",
        b"hierarchy",
        b"bounds",
        b"baseframe",
        b"frame",
    ];
    const CAMERA: &[&[u8]] = &[b"numCuts", b"cuts", b"camera"];
    // Only a mesh has these; an anim or camera keyword after them would be an error anyway.
    const MESH: &[&[u8]] = &[b"numMeshes", b"joints", b"mesh", b"vert", b"tri", b"weight"];
    let mut camera = false;
    for line in head.split(|&b| b == b'\n' || b == b'\r') {
        let line = line.trim_ascii_start();
        if camera && line.first() == Some(&b'(') {
            // A camera block's first line: nothing after it can tell another kind.
            return MD5CAMERA;
        }
        let word_len = line
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(line.len());
        let word = &line[..word_len];
        if word.is_empty() {
            continue;
        }
        if ANIM.contains(&word) {
            return MD5ANIM;
        }
        if CAMERA.contains(&word) {
            // An anim keyword further on, before the camera lines, still wins.
            camera = true;
        } else if MESH.contains(&word) && !camera {
            return MD5MESH;
        }
    }
    if camera {
        MD5CAMERA
    } else {
        MD5MESH
    }
}

/// The skinning kernel's work for an md5mesh: the longest fitting animation its resolver
/// lists, sampled at 1000 times a run, every mesh skinned (positions and weight normals).
fn prepare_skinning(
    data: &[u8],
    resolver: &dyn Resolver,
    _: &crate::codec::ReadAny,
) -> Result<Option<Prepared>> {
    use super::anim;
    use crate::model::pose::{self as skeletal, JointPose, Playback, RootMotion};
    if self::CODEC.detect(data) != Some(MD5MESH) {
        return Ok(None);
    }
    let limits = Limits::default();
    let mesh = parse_mesh(data, &limits)?.file;
    let mut best: Option<(String, AnimFile)> = None;
    for name in resolver.list(MD5ANIM.extensions()[0]) {
        let Some(Ok(a)) = resolver.load(&name).map(|b| parse_anim(&b, &limits)) else {
            continue;
        };
        if anim::match_joints(&mesh.joints, &a.file).is_ok()
            && best
                .as_ref()
                .is_none_or(|(_, b)| a.file.frames.len() > b.frames.len())
        {
            best = Some((name, a.file));
        }
    }
    let Some((name, anim_file)) = best else {
        return Ok(None);
    };
    let invalid = |e: String| {
        crate::error::Error::new(
            ANIM_FORMAT,
            crate::error::ErrorKind::InvalidValue,
            e,
            crate::error::Location::None,
        )
    };
    let animation = anim::Animation::new(&anim_file).map_err(invalid)?;
    let mapping = anim::match_joints(&mesh.joints, &anim_file).map_err(invalid)?;
    let normals: Vec<anim::WeightNormals> = mesh
        .meshes
        .iter()
        .map(|m| anim::WeightNormals::new(m, &mesh.joints))
        .collect();
    let per_run: u64 = mesh.meshes.iter().map(|m| m.verts.len() as u64).sum();
    let n: usize = mesh.meshes.iter().map(|m| m.verts.len()).max().unwrap_or(0);
    let joints = mesh.joints.len();
    let scratch = std::sync::Mutex::new((
        vec![JointPose::IDENTITY; animation.joint_count()],
        vec![JointPose::IDENTITY; animation.joint_count()],
        vec![JointPose::IDENTITY; joints],
        vec![[0f32; 3]; n],
        vec![[0f32; 3]; n],
    ));
    Ok(Some(Prepared {
        items: per_run * 1000,
        note: format!("with {name}"),
        run: Box::new(move || {
            let mut guard = scratch.lock().unwrap_or_else(|e| e.into_inner());
            let (local, global, pose, pos, nrm) = &mut *guard;
            let duration = animation.duration().max(1e-3);
            for k in 0..1000 {
                let t = duration * k as f32 / 1000.0;
                animation.sample_local(t, Playback::Loop, RootMotion::Keep, local);
                skeletal::to_global(&animation.skeleton().parents, local, global);
                skeletal::gather(global, &mapping, pose);
                for (m, wn) in mesh.meshes.iter().zip(&normals) {
                    let v = m.verts.len();
                    anim::skin_positions(m, pose, &mut pos[..v]);
                    anim::skin_normals(m, wn, pose, &mut nrm[..v]);
                    std::hint::black_box((&pos, &nrm));
                }
            }
        }),
    }))
}

/// A file name made from an animation name: characters other than letters, digits, `-`
/// and `_` become `_`; an empty name becomes `animationN`.
fn file_name(name: &str, index: usize) -> String {
    let clean: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if clean.is_empty() {
        format!("animation{index}")
    } else {
        clean
    }
}

/// `ParsedFile` for one kind of MD5 text file: its format, writer, conversion (given the
/// parsed file, the options and the resolver), summary and validator.
macro_rules! md5_parsed_file {
    ($file:ty, $format:expr, $write:path, $to_model:path, |$f:ident, $c:ident| $summary:expr, $validate:path) => {
        impl ParsedFile for Parsed<$file> {
            fn format(&self) -> Format {
                $format
            }
            fn write(&self) -> Vec<u8> {
                $write(&self.file).into_bytes()
            }
            fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
                $to_model(self, options, resolver)
            }
            fn summary(&self, $c: &Converted) -> Summary {
                let $f = &self.file;
                $summary
            }
            fn validate(&self, _engine: &str) -> Vec<Diagnostic> {
                $validate(&self.file)
            }
            fn parse_warnings(&self) -> &[String] {
                &self.warnings
            }
        }
    };
}

md5_parsed_file!(
    MeshFile,
    MD5MESH,
    write_mesh,
    mesh_with_anims,
    |f, c| mesh_summary(f, c),
    validate_mesh
);
md5_parsed_file!(
    AnimFile,
    MD5ANIM,
    write_anim,
    parsed_anim_to_model,
    |f, c| anim_summary(f, "anim", c),
    validate_anim
);
md5_parsed_file!(
    CameraFile,
    MD5CAMERA,
    write_camera,
    parsed_camera_to_model,
    |f, c| camera_summary(f, "camera", c),
    validate_camera
);

/// An md5mesh's model with the animations that `resolver` lists beside it attached (each
/// one that cannot be read, parsed or attached is left out with a warning).
/// Finds each mesh's picture ([`crate::skin_lookup`]): the Cube 2 `md5skin` of the model
/// folder's `.cfg` for the mesh's `// meshes:` name (or `*`) when the folder has one, else the
/// shader as a picture path (Doom 3 `.mtr` materials are not read: a shader that is no
/// picture is named in a warning). Meshes showing the same picture share one skin.
fn attach_skins(converted: &mut Converted, mesh_names: &[Option<String>], resolver: &dyn Resolver) {
    let mut lookup = crate::skin_lookup::SkinLookup::new(resolver, &Limits::default());
    let cube2 = lookup.cube2_skins();
    let mut materials: Option<Vec<crate::formats::shared::materials::Material>> = None;
    let mut by_path: std::collections::HashMap<String, usize> = Default::default();
    let model = &mut converted.model;
    for (i, mesh) in model.meshes.iter_mut().enumerate() {
        let shader = mesh.name.clone();
        let name = mesh_names
            .get(i)
            .cloned()
            .flatten()
            .unwrap_or(shader.clone());
        let found = if cube2.is_empty() {
            lookup.image_path(&shader).or_else(|| {
                let materials = materials.get_or_insert_with(|| {
                    crate::formats::shared::materials::load_all(
                        resolver,
                        "materials",
                        "mtr",
                        &mut converted.warnings,
                    )
                });
                crate::formats::shared::materials::picture(
                    &mut lookup,
                    materials,
                    &shader,
                    &format!("mesh {i}"),
                    &mut converted.warnings,
                )
            })
        } else {
            lookup.cube2(&cube2, &name)
        };
        let Some(found) = found else {
            if !cube2.is_empty() {
                converted.warnings.push(format!(
                    "mesh {i} ({name:?}): no md5skin picture found in the folder's .cfg; untextured"
                ));
            } else if !shader.trim().is_empty() {
                converted.warnings.push(format!(
                    "mesh {i}: shader {shader:?} is neither a picture nor a material of \
                     materials/*.mtr with a picture found; untextured"
                ));
            }
            continue;
        };
        mesh.skin = Some(found.shared_skin(&mut model.skins, &mut by_path));
    }
    converted.warnings.append(&mut lookup.warnings);
}

fn mesh_with_anims(
    parsed: &Parsed<MeshFile>,
    options: &ConvertOptions,
    resolver: &dyn Resolver,
) -> Converted {
    let mut converted = mesh_to_model(&parsed.file, &parsed.warnings);
    attach_skins(&mut converted, &parsed.mesh_names, resolver);
    for name in resolver.list(MD5ANIM.extensions()[0]) {
        let Some(bytes) = resolver.load(&name) else {
            converted
                .warnings
                .push(format!("{name}: cannot be read; left out"));
            continue;
        };
        let anim = match parse_anim(&bytes, &Limits::default()) {
            Ok(a) => a,
            Err(e) => {
                converted.warnings.push(format!("{name}: {e}; left out"));
                continue;
            }
        };
        let stem = name.rsplit(['/', '\\']).next().unwrap_or(&name);
        let stem = stem.rsplit_once('.').map_or(stem, |(s, _)| s);
        if let Err(e) = attach_animation(&mut converted.model, &anim.file, stem) {
            converted.warnings.push(format!("{name}: {e}; left out"));
            continue;
        }
        attach_scales(&mut converted, &name, resolver);
    }
    if options.model_config {
        if let Some(cfg) = crate::formats::shared::cube2::Cube2Config::find(resolver, "md5load") {
            apply_cube2(&mut converted, &cfg);
        }
    }
    converted
}

/// The name of the `.md5scale` that goes with the `.md5anim` named `anim`: its extension
/// replaced (q2pro's `COM_StripExtension` + `.md5scale`).
pub fn scale_name(anim: &str) -> String {
    let cut = anim
        .rfind('.')
        .filter(|&d| !anim[d..].contains(['/', '\\']))
        .unwrap_or(anim.len());
    format!("{}.md5scale", &anim[..cut])
}

/// Gives the model's last animation (just attached from the `.md5anim` named `anim`) the
/// scales of the `.md5scale` beside it, if there is one; a scale file that does not read is
/// left out with a warning, as q2pro leaves it out.
pub fn attach_scales(converted: &mut Converted, anim: &str, resolver: &dyn Resolver) {
    let name = scale_name(anim);
    if let Some(bytes) = resolver.load(&name) {
        attach_scale_bytes(converted, &name, &bytes);
    }
}

/// Gives the model's last animation the scales of the `.md5scale` `bytes` (named `name` in
/// messages); a file that does not read is left out with a warning, as q2pro leaves it out.
pub fn attach_scale_bytes(converted: &mut Converted, name: &str, bytes: &[u8]) {
    let model = &mut converted.model;
    let joints: Vec<&str> = model.joints.iter().map(|j| j.name.as_str()).collect();
    let Some(a) = model.animations.last_mut() else {
        return;
    };
    match super::scale::parse_scales(bytes, &joints, a.frames.len()) {
        Ok(read) => {
            converted
                .warnings
                .extend(read.warnings.into_iter().map(|w| format!("{name}: {w}")));
            if !read.scales.is_unit() {
                a.weight_scales = Some(read.scales);
            }
        }
        Err(e) => converted
            .warnings
            .push(format!("{name}: {e}; its scales are left out")),
    }
}

/// The `.md5scale` side file of animation `index`, named after `stem`, when it scales.
fn scale_side_file(model: &Model, index: usize, stem: &str) -> Option<SideFile> {
    let scales = model.animations.get(index)?.weight_scales.as_ref()?;
    if scales.is_unit() {
        return None;
    }
    let joints: Vec<&str> = model.joints.iter().map(|j| j.name.as_str()).collect();
    Some(SideFile {
        name: format!("{stem}.md5scale"),
        kind: "joint scales",
        bytes: super::scale::write_scales(scales, &joints).into_bytes(),
    })
}

/// Applies a Cube 2 configuration ([`crate::formats::shared::cube2`]): animation speeds and the model's
/// size, turn and offset, said in a warning so that the choice is visible.
fn apply_cube2(converted: &mut Converted, cfg: &crate::formats::shared::cube2::Cube2Config) {
    let model = &mut converted.model;
    let mut timed = 0;
    for a in &mut model.animations {
        let file = format!("{}.md5anim", a.name);
        if let Some((_, speed)) = cfg.speeds.iter().find(|(f, _)| *f == file) {
            a.fps = *speed;
            // Cube 2 shows each of the N frames for 1 / speed: N / speed seconds, the last
            // frame held for its step. A repeat of the last frame makes the keys span that.
            if let Some(last) = a.frames.last().cloned() {
                a.frames.push(last);
                if let Some(ws) = &mut a.weight_scales {
                    if let Some(row) = ws.frames.last().cloned() {
                        ws.frames.push(row);
                    }
                }
                if let Some(&b) = a.bounds.last() {
                    a.bounds.push(b);
                }
            }
            timed += 1;
        }
    }
    let what = cfg.describe();
    crate::model::transform::transform(model, &cfg.similarity());
    if !what.is_empty() || timed > 0 {
        let mut parts = Vec::new();
        if !what.is_empty() {
            parts.push(what);
        }
        if timed > 0 {
            parts.push(format!("the speeds of {timed} animations"));
        }
        converted.warnings.push(format!(
            "{}: {} applied, as Cube 2 shows the model",
            cfg.file,
            parts.join(", ")
        ));
    }
}

/// An md5anim's model.
/// With the `.md5scale` beside it, when the resolver knows the file's name.
fn parsed_anim_to_model(
    parsed: &Parsed<AnimFile>,
    _options: &ConvertOptions,
    resolver: &dyn Resolver,
) -> Converted {
    let mut converted = anim_to_model(&parsed.file, "anim", &parsed.warnings);
    if let Some(name) = resolver.model_name() {
        attach_scales(&mut converted, &name, resolver);
    }
    converted
}

/// An md5camera's model.
fn parsed_camera_to_model(
    parsed: &Parsed<CameraFile>,
    _options: &ConvertOptions,
    _resolver: &dyn Resolver,
) -> Converted {
    camera_to_model(&parsed.file, &parsed.warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_tells_the_three_kinds_and_stops_at_the_camera_lines() {
        let camera = super::super::fixtures::camera();
        assert_eq!(CODEC.detect(&camera), Some(MD5CAMERA));
        assert_eq!(CODEC.detect(&super::super::fixtures::anim()), Some(MD5ANIM));
        // Anim keywords past the first camera line are not looked at...
        let mut late = camera.clone();
        late.extend_from_slice(b"\nbaseframe {\n}\n");
        assert_eq!(CODEC.detect(&late), Some(MD5CAMERA));
        // ...but one before the camera lines still makes it an anim.
        let text = String::from_utf8(camera).unwrap();
        let early = text.replace("camera {", "frame 0 {\n}\ncamera {");
        assert_eq!(CODEC.detect(early.as_bytes()), Some(MD5ANIM));
        // A camera keyword alone, no camera lines: still a camera.
        assert_eq!(
            CODEC.detect(b"MD5Version 10\nnumFrames 1\nnumCuts 0\n"),
            Some(MD5CAMERA)
        );
    }
}
