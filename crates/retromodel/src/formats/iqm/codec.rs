//! IQM: the [`Codec`](crate::codec::Codec) that the format registry lists, and the side
//! files of a model: skins, animation files, DarkPlaces `.framegroups`, Cube 2 `iqm.cfg`.
//!
//! - **Skins**: the Cube 2 `iqmskin` of a configuration in the model's folder for the mesh's
//!   name (or `*`), else the mesh's material as a picture path (beside the model or in the
//!   game tree, other picture extensions tried), else the mesh's name so, else a picture
//!   named like the model or the only picture in its folder (raylib's `guy.iqm` and
//!   `guytex.png`). A mesh with none is untextured, said in a warning.
//! - **Animation files**: animation-only IQM files (poses and frames, no meshes) listed beside
//!   the model (`--anim` lists exactly the given files), and the `iqmanim` files of the
//!   model's Cube 2 configuration, whose poses match the model's joints (count and parents,
//!   as the engines pair them by order); each of their animations is added, named after the
//!   file (`FILE:ANIMATION` for a file of several), files that do not fit are left out with
//!   a warning.
//! - **`.framegroups`** (`NAME.iqm.framegroups` beside the model, DarkPlaces): when present
//!   it replaces the file's animations by its frame ranges, as DarkPlaces does.
//! - **Cube 2 configuration** (with [`ConvertOptions::model_config`]): `mdlscale`,
//!   `mdltrans`, `mdlyaw`/`pitch`/`roll` and the `iqmanim` speeds, applied as the engine
//!   shows the model and said in a warning.

use super::{file_to_model_from, fixtures, from_model, summary, validate, File, FORMAT};
use crate::codec::{self, binary_parsed_file, codec, parse_file, Format, Output, Writer};
use crate::error::Result;
use crate::formats::shared::cube2::Cube2Config;
use crate::io::SharedBytes;
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::{ConvertOptions, WriteOptions};
use crate::resolve::Resolver;

/// Inter-Quake Model.
pub const IQM: Format = Format::new(FORMAT, "Inter-Quake Model (IQM)", &["iqm", "vvm", "exm"]);

const ENGINES: &[codec::Engine] = &[
    codec::Engine {
        name: "darkplaces",
        description: "DarkPlaces (Xonotic, Nexuiz; the default for IQM)",
    },
    codec::Engine {
        name: "ioq3",
        description: "ioquake3 (both renderers)",
    },
    codec::Engine {
        name: "fteqw",
        description: "FTEQW",
    },
    codec::Engine {
        name: "tesseract",
        description: "Tesseract, Cube 2 (Sauerbraten) and Red Eclipse",
    },
];

codec! {
    /// The IQM codec.
    IqmCodec {
        name: FORMAT,
        family: "IQM",
        formats: &[IQM],
        engines: ENGINES,
    }
    parse_file!();
    /// The file with the bytes it was parsed from ([`SharedFile`]): its Model's animations
    /// keep their frames in them, not in a copy.
    fn parse_shared<'a>(
        &self,
        data: &'a SharedBytes,
        limits: &Limits,
    ) -> Result<Box<dyn crate::codec::ParsedFile + 'a>> {
        Ok(Box::new(SharedFile {
            file: File::parse(data, limits)?,
            source: data.clone(),
        }))
    }
    fn detect(&self, data: &[u8]) -> Option<Format> {
        data.starts_with(&super::MAGIC).then_some(IQM)
    }
    fn writers(&self) -> &'static [Writer] {
        &[Writer {
            format: IQM,
            variant: "",
            keyframes: false,
            single_mesh: false,
            fit: crate::codec::Fit::NONE,
        }]
    }
    /// The model as IQM (see [`from_model`]), the quantisation error of its animation
    /// channels in the notes.
    fn write_model(&self, model: &Model, _: Format, options: &WriteOptions) -> Result<Output> {
        let (written, notes) = from_model(model, options)?;
        let mut out = Output::written(written, File::write);
        out.notes = notes;
        Ok(out)
    }
    fn sample(&self) -> Option<Vec<u8>> {
        Some(fixtures::skinned())
    }
}

binary_parsed_file!(File, |_| IQM, |file, engine| validate(file, engine));

/// A file parsed from shared bytes ([`crate::Document::parse_shared`]), with them: the same
/// as the [`File`] but that its Model keeps the stored frames in `source`.
struct SharedFile<'a> {
    file: File<'a>,
    source: SharedBytes,
}

impl std::fmt::Debug for SharedFile<'_> {
    /// As the [`File`] shows itself (a document prints the same either way).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.file.fmt(f)
    }
}

impl crate::codec::ParsedFile for SharedFile<'_> {
    fn format(&self) -> Format {
        IQM
    }
    fn write(&self) -> Vec<u8> {
        self.file.write()
    }
    fn to_model(&self, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
        to_model_from(&self.file, Some(&self.source), options, resolver)
    }
    fn summary(&self, converted: &Converted) -> crate::summary::Summary {
        summary(&self.file, converted)
    }
    fn validate(&self, engine: &str) -> Vec<crate::diagnostic::Diagnostic> {
        validate(&self.file, engine)
    }
}

/// The model of a parsed file with its side files (see the module documentation).
pub fn to_model(file: &File<'_>, options: &ConvertOptions, resolver: &dyn Resolver) -> Converted {
    to_model_from(file, None, options, resolver)
}

/// [`to_model`] of a file parsed from `source` (see [`SharedFile`]).
fn to_model_from(
    file: &File<'_>,
    source: Option<&SharedBytes>,
    options: &ConvertOptions,
    resolver: &dyn Resolver,
) -> Converted {
    let mut converted = file_to_model_from(file, source);
    let cfg = Cube2Config::find(resolver, "iqmload");
    attach_skins(file, &mut converted, resolver);
    attach_animation_files(&mut converted, resolver, cfg.as_ref(), options);
    if let Some(name) = resolver.model_name() {
        let side = format!("{name}.framegroups");
        if let Some(bytes) = resolver.load(&side) {
            super::framegroups::apply(file, source, &mut converted, &side, &bytes);
        }
    }
    if options.model_config {
        if let Some(cfg) = &cfg {
            apply_cube2(&mut converted, cfg);
        }
    }
    converted
}

/// Each mesh's picture (see the module documentation); meshes showing the same picture
/// share one skin.
fn attach_skins(file: &File<'_>, converted: &mut Converted, resolver: &dyn Resolver) {
    let mut lookup = crate::skin_lookup::SkinLookup::new(resolver, &Limits::default());
    let cube2 = lookup.cube2_skins();
    let mut by_path: std::collections::HashMap<String, usize> = Default::default();
    let model = &mut converted.model;
    for (i, mesh) in model.meshes.iter_mut().enumerate() {
        let material = file
            .meshes
            .get(i)
            .map(|m| file.text_at(m.material))
            .unwrap_or_default();
        let found = if cube2.is_empty() {
            lookup
                .image_path(&material)
                .or_else(|| lookup.image_path(&mesh.name))
        } else {
            lookup.cube2(&cube2, &mesh.name)
        };
        let Some(found) = found else {
            if !material.trim().is_empty() || !cube2.is_empty() {
                converted.warnings.push(format!(
                    "mesh {i} ({:?}): material {material:?} is not a picture found beside the \
                     model or in the game tree{}; untextured",
                    mesh.name,
                    if cube2.is_empty() {
                        ""
                    } else {
                        " and no iqmskin of the folder's .cfg names one"
                    }
                ));
            }
            // The material's name is kept (a skin without a picture, as an MD2 skin that is
            // not found), so that a model written back names the same material.
            if !material.is_empty() {
                let key = format!("\0{material}");
                let index = *by_path.entry(key).or_insert_with(|| {
                    model.skins.push(crate::model::Skin {
                        source: None,
                        name: material.clone(),
                        pictures: Vec::new(),
                        picture_times: None,
                    });
                    model.skins.len() - 1
                });
                mesh.skin = Some(index);
            }
            continue;
        };
        mesh.skin = Some(found.shared_skin(&mut model.skins, &mut by_path));
    }
    converted.warnings.append(&mut lookup.warnings);
}

/// Adds the animations of the animation-only IQM files beside the model (or given with
/// `--anim`) and of the configuration's `iqmanim` lines.
fn attach_animation_files(
    converted: &mut Converted,
    resolver: &dyn Resolver,
    cfg: Option<&Cube2Config>,
    options: &ConvertOptions,
) {
    if converted.model.joints.is_empty() || converted.model.meshes.is_empty() {
        return;
    }
    let own = resolver.model_name().unwrap_or_default();
    let mut names: Vec<String> = resolver
        .list(IQM.extensions()[0])
        .into_iter()
        .filter(|n| file_name(n) != own)
        .collect();
    for p in cfg.iter().flat_map(|c| &c.anim_paths) {
        if file_name(p) != own && !names.iter().any(|n| file_name(n) == file_name(p)) {
            names.push(p.clone());
        }
    }
    let limits = Limits::default();
    for name in names {
        let Some(bytes) = resolver.load(&name) else {
            converted
                .warnings
                .push(format!("{name}: cannot be read; left out"));
            continue;
        };
        // Shared, so that the animations keep their frames in these bytes.
        let bytes = SharedBytes::from(bytes);
        let file = match File::parse(&bytes, &limits) {
            Ok(f) => f,
            Err(e) => {
                converted.warnings.push(format!("{name}: {e}; left out"));
                continue;
            }
        };
        if !file.meshes.is_empty() || file.anims.is_empty() {
            continue;
        }
        let before = converted.model.animations.len();
        let mut w = Vec::new();
        super::add_animations_from(&file, Some(&bytes), &mut converted.model, &mut w);
        if converted.model.animations.len() == before {
            converted.warnings.push(format!(
                "{name}: its poses do not match the model's joints; left out"
            ));
            continue;
        }
        // Speeds of the configuration, keyed by file.
        let speed = cfg.filter(|_| options.model_config).and_then(|c| {
            c.speeds
                .iter()
                .find(|(f, _)| f == file_name(&name))
                .map(|s| s.1)
        });
        // Named after the file (`idle`), or `file:animation` for a file of several, as
        // Cube 2 names them.
        let stem = file_name(&name)
            .strip_suffix(".iqm")
            .unwrap_or(file_name(&name))
            .to_string();
        let added = converted.model.animations.len() - before;
        for a in &mut converted.model.animations[before..] {
            if let Some(s) = speed {
                a.fps = s;
            }
            a.name = if added == 1 {
                stem.clone()
            } else {
                format!("{stem}:{}", a.name)
            };
        }
        converted.warnings.extend(
            w.into_iter()
                .filter(|m| !m.contains("frame rate 0") || speed.is_none())
                .map(|m| format!("{name}: {m}")),
        );
    }
}

/// Applies a Cube 2 configuration's size, turn and offset, said in a warning.
fn apply_cube2(converted: &mut Converted, cfg: &Cube2Config) {
    let what = cfg.describe();
    if what.is_empty() {
        return;
    }
    crate::model::transform::transform(&mut converted.model, &cfg.similarity());
    converted.warnings.push(format!(
        "{}: {what} applied, as Cube 2 shows the model",
        cfg.file
    ));
}

/// The last part of a path.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}
