//! `Model.save`, `Model.to_glb` and `Model.validate`: the command line's `convert` and
//! `validate`, on a model in memory. The target comes from the extension
//! (`registry::target_for`): the file's own format is written back as read (unless the
//! placement options ask for a rebuild), any other through `registry::write_model`, which
//! fits the model to the target as `convert` does. Files go through `vfs::write_atomic`.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use retromodel::image::Palette;
use retromodel::options::{ClipSplit, Filter, Frames};
use retromodel::registry::{self, Target};
use retromodel::vfs::write_atomic;
use retromodel::{Diagnostic, Document, Limits, Placement, WriteOptions};

use crate::errors::{Fail, Result};

/// What saving needs of a model: the model, the format and bytes of the file it was read
/// from (written back as read), and its path (naming in-memory output). The package's
/// `Model` lends one (`Model::saved`), so this module does not depend on it.
pub struct Source<'a> {
    /// The format-neutral model.
    pub model: &'a retromodel::Model,
    /// The format of the file it was read from.
    pub format: Option<retromodel::Format>,
    /// That file's bytes.
    pub bytes: Option<&'a [u8]>,
    /// The path it was read from.
    pub path: Option<&'a str>,
}

impl Source<'_> {
    /// Whether it was read from glTF or OBJ (sized in metres, maybe).
    fn interchange(&self) -> bool {
        self.format.is_some_and(registry::is_interchange)
    }
}

/// `save`'s options, as the package's `Model.save` passes them (every key present).
#[derive(FromPyObject, Clone)]
#[pyo3(from_item_all)]
pub struct SaveOptions {
    force: bool,
    fps: Option<f32>,
    mdl: Option<String>,
    target_palette: Option<PathBuf>,
    dither: bool,
    fullbrights: bool,
    strict: bool,
    quantize: bool,
    embed: bool,
    skin: Option<PathBuf>,
    skin_paths: Vec<String>,
    scale: Option<f32>,
    rotate: Option<[f32; 3]>,
    fit_height: Option<f32>,
    keep_skin_size: bool,
    qc: bool,
    frame: usize,
    clip_split: String,
    frames: String,
    filter: String,
}

impl SaveOptions {
    /// Whether existing files are replaced.
    pub fn force_set(&self) -> bool {
        self.force
    }
}

/// What `save` wrote and noticed.
#[pyclass(module = "retromodel", frozen, get_all)]
#[derive(Default)]
pub struct SaveReport {
    /// Every file written, the main one last.
    files: Vec<String>,
    /// Lossy or risky steps (quantisation, engine limits, merged meshes).
    warnings: Vec<String>,
    /// Steps worth saying that lose nothing (animations baked into frames).
    notes: Vec<String>,
    /// The largest position error of each written frame after quantisation, model units.
    frame_errors: Vec<f32>,
    /// The names of the written frames (fitted to the target), one per `frame_errors`.
    frame_names: Vec<String>,
    /// The largest of `frame_errors`, or None when the format does not quantise.
    max_error: Option<f32>,
    /// The writer's closing words (`1234 bytes, embedded`), or None.
    summary: Option<String>,
    /// Bytes written, side files included.
    bytes: usize,
    /// Whether the file was written back as read (same format, no change asked).
    written_back: bool,
}

#[pymethods]
impl SaveReport {
    fn __repr__(&self) -> String {
        format!(
            "<retromodel.SaveReport {} files, {} bytes, {} warnings, largest error {}>",
            self.files.len(),
            self.bytes,
            self.warnings.len(),
            self.max_error
                .map(|e| format!("{e:.5}"))
                .unwrap_or_else(|| "none".into())
        )
    }
}

/// The files a save writes (the main one last) and its report.
type Planned = (Vec<(PathBuf, Vec<u8>)>, SaveReport);

/// Plans writing `model` to `path`: every file's bytes and the report.
fn plan(model: &Source<'_>, path: &Path, o: &SaveOptions) -> Result<Planned> {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    let unknown = || {
        Fail::Value(format!(
            "{}: cannot tell the output format from the extension {ext:?} (use .{})",
            path.display(),
            registry::target_extensions().join(", .")
        ))
    };
    let mut target =
        registry::target_for(ext, model.format, o.mdl.as_deref()).ok_or_else(unknown)?;
    let placed = o.scale.is_some() || o.rotate.is_some() || o.fit_height.is_some();
    if let (Target::WriteBack(f), true) = (target, placed) {
        // Placement rebuilds the file from its model.
        target = match registry::writers().find(|w| w.format == f) {
            Some(w) => Target::Convert(w),
            None => {
                return Err(Fail::Value(format!(
                    "scale, rotate and fit_height rebuild the file, and {} is not written from \
                     a model; save to another format",
                    f.description()
                )))
            }
        };
    }
    let options = write_options(path, o)?;
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut report = SaveReport::default();
    let mut files = Vec::new();
    let writer = match target {
        Target::WriteBack(f) => {
            let source = model.bytes.ok_or_else(|| {
                Fail::Value(format!(
                    "the model has no {} file to write back",
                    f.description()
                ))
            })?;
            if let Some(skin) = &o.skin {
                // The same format with a new skin: the file as stored, skin 0 replaced.
                let picture = read_picture(skin)?;
                let out = registry::replace_skin(source, 0, &picture, &options)?;
                report.warnings.extend(out.warnings);
                report.notes.extend(out.notes);
                for side in out.side_files {
                    files.push((dir.join(&side.name), side.bytes));
                }
                files.push((path.to_path_buf(), out.bytes));
            } else {
                let doc = Document::parse(source, &Limits::default())?;
                files.push((path.to_path_buf(), doc.write()));
                report.written_back = true;
            }
            return Ok(finish(files, report));
        }
        Target::ReadOnly(f) => {
            return Err(Fail::Value(format!(
                "converting {} to {} is not supported yet",
                model
                    .format
                    .map(|f| f.description())
                    .unwrap_or("this model"),
                f.description()
            )))
        }
        Target::Convert(w) => w,
    };
    let replaced;
    let mut source = model.model;
    if let Some(skin) = &o.skin {
        let picture = read_picture(skin)?;
        let mut m = source.clone();
        let name = skin
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        m.use_only_skin(name, picture);
        replaced = m;
        source = &replaced;
    }
    let mut options = options;
    options.placement.metres = model.interchange()
        && o.scale.is_none()
        && o.fit_height.is_none()
        && retromodel::model::transform::looks_like_metres(source);
    let written = registry::write_model(source, writer, &options)?;
    for side in &written.side_files {
        files.push((dir.join(&side.name), side.bytes.clone()));
    }
    files.push((path.to_path_buf(), written.bytes));
    report.max_error = written.frame_errors.iter().copied().reduce(f32::max);
    report.frame_errors = written.frame_errors;
    report.frame_names = written.frame_names;
    report.warnings = written.warnings;
    report.notes = written.notes;
    report.summary = written.summary;
    Ok(finish(files, report))
}

/// Fills in the report's file list and size.
fn finish(files: Vec<(PathBuf, Vec<u8>)>, mut report: SaveReport) -> Planned {
    report.files = files.iter().map(|(p, _)| p.display().to_string()).collect();
    report.bytes = files.iter().map(|(_, b)| b.len()).sum();
    (files, report)
}

/// A picture file (PNG, PCX, TGA, JPEG, ...) decoded.
fn read_picture(path: &Path) -> Result<retromodel::image::Image> {
    let bytes = std::fs::read(path)
        .map_err(|e| Fail::File(format!("cannot read {}: {e}", path.display())))?;
    Ok(
        retromodel::image::decode(&bytes, &path.to_string_lossy(), &Limits::default())
            .map_err(|e| e.in_context(format!("skin {}", path.display())))?,
    )
}

/// The library's write options for `o`.
fn write_options(path: &Path, o: &SaveOptions) -> Result<WriteOptions> {
    let palette = match &o.target_palette {
        Some(p) => {
            let bytes = std::fs::read(p)
                .map_err(|e| Fail::File(format!("cannot read {}: {e}", p.display())))?;
            Some(Palette::from_lmp(&bytes).map_err(|e| e.in_context(p.display().to_string()))?)
        }
        None => None,
    };
    for (name, v) in [("scale", o.scale), ("fit_height", o.fit_height)] {
        if let Some(v) = v.filter(|v| !(v.is_finite() && *v > 0.0)) {
            return Err(Fail::Value(format!("{name} {v}: give a positive number")));
        }
    }
    if let Some(r) = o.rotate.filter(|r| r.iter().any(|v| !v.is_finite())) {
        return Err(Fail::Value(format!("rotate {r:?}: give finite degrees")));
    }
    let choice = |name: &str, value: &str, allowed: &[&str]| -> Result<()> {
        if allowed.contains(&value) {
            Ok(())
        } else {
            Err(Fail::Value(format!(
                "{name}={value:?}: give one of {}",
                allowed.join(", ")
            )))
        }
    };
    choice("clip_split", &o.clip_split, &["names", "groups", "none"])?;
    choice("frames", &o.frames, &["all", "first"])?;
    choice("filter", &o.filter, &["nearest", "linear"])?;
    Ok(WriteOptions {
        strict: o.strict,
        skin_paths: o.skin_paths.clone(),
        palette,
        fullbrights: o.fullbrights,
        dither: o.dither,
        fps: o.fps,
        stem: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model".into()),
        clip_split: match o.clip_split.as_str() {
            "groups" => ClipSplit::Groups,
            "none" => ClipSplit::None,
            _ => ClipSplit::Names,
        },
        frames: if o.frames == "first" {
            Frames::First
        } else {
            Frames::All
        },
        filter: if o.filter == "linear" {
            Filter::Linear
        } else {
            Filter::Nearest
        },
        quantize: o.quantize,
        embed: o.embed,
        frame: o.frame,
        placement: Placement {
            scale: o.scale,
            rotate: o.rotate.unwrap_or_default(),
            fit_height: o.fit_height,
            metres: false,
        },
        keep_skin_size: o.keep_skin_size,
        qc: o.qc,
    })
}

/// Writes `model` to `path` (and its side files beside it): nothing is written when one of
/// the files exists, unless `force`.
pub fn save(model: &Source<'_>, path: &Path, o: &SaveOptions) -> Result<SaveReport> {
    let (files, report) = plan(model, path, o)?;
    if !o.force {
        if let Some((p, _)) = files.iter().find(|(p, _)| p.exists()) {
            return Err(Fail::File(format!(
                "{} exists; pass force=True to replace it",
                p.display()
            )));
        }
    }
    for (p, bytes) in &files {
        write_atomic(p, bytes, o.force)?;
    }
    Ok(report)
}

/// The main file `save` would write for `extension`, in memory.
pub fn to_bytes(
    model: &Source<'_>,
    extension: &str,
    o: &SaveOptions,
) -> Result<(Vec<u8>, SaveReport)> {
    let name = model
        .path
        .and_then(|p| {
            Path::new(p)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "model".into());
    let path = PathBuf::from(format!("{name}.{extension}"));
    let (mut files, report) = plan(model, &path, o)?;
    let (_, bytes) = files.pop().unwrap_or_default();
    Ok((bytes, report))
}

/// `validate`: the file's own findings when it was read from one, else the model written
/// for the engine's format and checked.
pub fn validate(model: &Source<'_>, engine: Option<&str>) -> Result<Vec<Diagnostic>> {
    if let (Some(source), Some(_)) = (model.bytes, model.format) {
        let doc = Document::parse(source, &Limits::default())?;
        return doc.validate(engine).map_err(Fail::Value);
    }
    let engine = engine.unwrap_or("quakespasm");
    let codec = registry::codec_of_engine(engine).ok_or_else(|| {
        Fail::Value(format!(
            "unknown engine {engine:?} (engines: {})",
            registry::engine_names().join(", ")
        ))
    })?;
    let writer = codec
        .writers()
        .first()
        .ok_or_else(|| Fail::Value(format!("{engine}: its format is not written from a model")))?;
    let written = registry::write_model(model.model, writer, &WriteOptions::default())?;
    let doc = Document::parse_as(writer.format, &written.bytes, &Limits::default())?;
    let mut found: Vec<Diagnostic> = written
        .warnings
        .into_iter()
        .map(Diagnostic::warning)
        .collect();
    found.extend(doc.validate(Some(engine)).map_err(Fail::Value)?);
    Ok(found)
}
