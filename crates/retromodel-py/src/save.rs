//! `Model.save`, `Model.to_glb` and `Model.validate`: the command line's `convert` and
//! `validate`, on a model in memory. The target comes from the extension
//! (`registry::target_for`): the file's own format is written back as read (unless the
//! placement options ask for a rebuild), any other through `registry::write_model`, which
//! fits the model to the target as `convert` does. Files go through `vfs::write_atomic`.

use std::path::{Path, PathBuf};

use pyo3::prelude::*;
use retromodel::front::{self, Source};
use retromodel::registry;
use retromodel::{Diagnostic, Document, Limits, WriteOptions};

use crate::errors::{Fail, Result};

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
    compress: String,
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
    rerelease: bool,
    bones: Option<usize>,
    external_textures: bool,
    sequence_group_size: Option<usize>,
}

impl SaveOptions {
    /// Whether existing files are replaced.
    pub fn force_set(&self) -> bool {
        self.force
    }

    /// The front door's options: the words parsed as the command line parses them.
    fn front(&self) -> Result<front::SaveOptions> {
        let word = |name: &str, e: String| Fail::Value(format!("{name}={e}"));
        Ok(front::SaveOptions {
            force: self.force,
            variant: self.mdl.clone(),
            fps: self.fps,
            target_palette: self.target_palette.clone(),
            dither: self.dither,
            fullbrights: self.fullbrights,
            strict: self.strict,
            quantize: self.quantize,
            compress: self.compress.parse().map_err(|e| word("compress", e))?,
            embed: self.embed,
            skin: self.skin.clone(),
            skin_paths: self.skin_paths.clone(),
            scale: self.scale,
            rotate: self.rotate,
            fit_height: self.fit_height,
            keep_skin_size: self.keep_skin_size,
            qc: self.qc,
            frame: self.frame,
            clip_split: self.clip_split.parse().map_err(|e| word("clip_split", e))?,
            frames: self.frames.parse().map_err(|e| word("frames", e))?,
            filter: self.filter.parse().map_err(|e| word("filter", e))?,
            rerelease: self.rerelease,
            bones: self.bones,
            external_textures: self.external_textures,
            sequence_group_size: self.sequence_group_size,
        })
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

impl SaveReport {
    /// The front door's report, as Python sees it.
    fn of(r: front::Report) -> SaveReport {
        SaveReport {
            files: r.files.iter().map(|p| p.display().to_string()).collect(),
            max_error: r.max_error(),
            warnings: r.warnings,
            notes: r.notes,
            frame_errors: r.frame_errors,
            frame_names: r.frame_names,
            summary: r.summary,
            bytes: r.bytes,
            written_back: r.written_back,
        }
    }
}

/// Writes `model` to `path` (and its side files beside it): nothing is written when one of
/// the files exists, unless `force`.
pub fn save(model: &Source<'_>, path: &Path, o: &SaveOptions) -> Result<SaveReport> {
    Ok(SaveReport::of(front::save(model, path, &o.front()?)?))
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
    let mut planned = front::plan(model, &path, &o.front()?)?;
    let (_, bytes) = planned.files.pop().unwrap_or_default();
    Ok((bytes, SaveReport::of(planned.report)))
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
