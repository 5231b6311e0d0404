//! The way out: a model to written files, planned in memory first, then committed.

use std::path::{Path, PathBuf};

use super::Fail;
use crate::codec::Format;
use crate::document::Document;
use crate::image::{Image, Palette};
use crate::limits::Limits;
use crate::model::Model;
use crate::options::{ClipSplit, Filter, Frames, Placement, WriteOptions};
use crate::registry::{self, Target};

/// What saving needs of a model: the model, and the format and bytes of the file it was read
/// from (written back as read when nothing asks for a change).
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The format-neutral model.
    pub model: &'a Model,
    /// The format of the file it was read from.
    pub format: Option<Format>,
    /// That file's bytes.
    pub bytes: Option<&'a [u8]>,
    /// The files that go with those bytes ([`super::Opened::side_files`]: a compiled QC's
    /// texture file and sequence groups), written beside them when they are written back.
    pub side_files: &'a [crate::codec::SideFile],
    /// The path (or name) it was read from.
    pub path: Option<&'a str>,
    /// It was opened showing a classic model's re-release replacement: a classic target is
    /// rebuilt from the model instead of written back.
    pub prefer_md5: bool,
}

impl<'a> Source<'a> {
    /// A model that no file holds (built in memory).
    pub fn model(model: &'a Model) -> Source<'a> {
        Source {
            model,
            format: None,
            bytes: None,
            side_files: &[],
            path: None,
            prefer_md5: false,
        }
    }

    /// Whether it was read from glTF or OBJ (sized in metres, maybe).
    fn interchange(&self) -> bool {
        self.format.is_some_and(registry::is_interchange)
    }

    /// The format in words, for messages.
    fn describe(&self) -> &'static str {
        match self.format {
            Some(f) => f.name(),
            None => "this model",
        }
    }
}

/// What saving takes besides the model and the output path: the same options, with the same
/// defaults, in every front end.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SaveOptions {
    /// Replace outputs (and the files written beside them) that exist.
    pub force: bool,
    /// The writer variant of the output's extension (`quake`, `gs3`, ... for `.mdl`);
    /// default: the input's own kind, else the extension's first writer.
    pub variant: Option<String>,
    /// The rate clips are resampled to and skeletal animations baked at (keyframe targets);
    /// glTF clips' rate.
    pub fps: Option<f32>,
    /// A 768-byte palette file that written 8-bit skins use.
    pub target_palette: Option<PathBuf>,
    /// Floyd-Steinberg dithering when skins are matched to a palette.
    pub dither: bool,
    /// Let skins converted to the Quake palette use the fullbright indices.
    pub fullbrights: bool,
    /// Fail instead of warning when the result exceeds the target engine's limits.
    pub strict: bool,
    /// glTF: quantised vertex data.
    pub quantize: bool,
    /// glTF: meshopt-compressed buffer views, `EXT_meshopt_compression` or
    /// `KHR_meshopt_compression` (implies `quantize`).
    pub compress: crate::options::Compress,
    /// `.gltf`: embed the buffer and images.
    pub embed: bool,
    /// A picture to use as the only skin (the same format: replaces skin 0, keeps the rest).
    pub skin: Option<PathBuf>,
    /// MD2: the skin paths to store instead of writing PCX files.
    pub skin_paths: Vec<String>,
    /// Scale the model by this factor.
    pub scale: Option<f32>,
    /// Turn the model: yaw, pitch, roll in degrees.
    pub rotate: Option<[f32; 3]>,
    /// Scale the model so that it is this many units tall.
    pub fit_height: Option<f32>,
    /// Keep skins larger than the target's engines take.
    pub keep_skin_size: bool,
    /// Quake MDL: write the QuakeC `$frame` list beside the model.
    pub qc: bool,
    /// OBJ: the frame written.
    pub frame: usize,
    /// glTF: which animations a keyframe model gets.
    pub clip_split: ClipSplit,
    /// glTF: every pose or the first.
    pub frames: Frames,
    /// glTF: texture filtering.
    pub filter: Filter,
    /// Write the re-release layout (the classic model with its MD5 replacement beside it).
    pub rerelease: bool,
    /// Most joints written ([`WriteOptions::bones`]): skeletal models merge joints into
    /// their parents, keyframe models written to skeletal formats get this many fitted
    /// rigid bones.
    pub bones: Option<usize>,
    /// GoldSrc: textures and skin families in `STEMT.mdl` beside the model
    /// (`$externaltextures`).
    pub external_textures: bool,
    /// GoldSrc: the most KB of animation values in one sequence group
    /// (`$sequencegroupsize`); later sequences go into `STEM01.mdl`, `STEM02.mdl` ...
    pub sequence_group_size: Option<usize>,
}

impl SaveOptions {
    /// Whether the placement options ask for the model to be moved or sized.
    fn placed(&self) -> bool {
        self.scale.is_some() || self.rotate.is_some() || self.fit_height.is_some()
    }

    /// Checks the values no type rules out.
    fn check(&self) -> Result<(), Fail> {
        for (name, v) in [("scale", self.scale), ("fit-height", self.fit_height)] {
            if let Some(v) = v.filter(|v| !(v.is_finite() && *v > 0.0)) {
                return Err(Fail::Value(format!("{name} {v}: give a positive number")));
            }
        }
        if self.bones == Some(0) {
            return Err(Fail::Value("bones 0: give at least 1".into()));
        }
        if self.sequence_group_size == Some(0) {
            return Err(Fail::Value(
                "sequence-group-size 0: give at least 1 KB".into(),
            ));
        }
        if let Some(r) = self.rotate.filter(|r| r.iter().any(|v| !v.is_finite())) {
            return Err(Fail::Value(format!("rotate {r:?}: give finite degrees")));
        }
        Ok(())
    }
}

/// What a save wrote and noticed.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Report {
    /// Every file, the main one last.
    pub files: Vec<PathBuf>,
    /// The files written beside the main one, with what each is (`skin 0`, `buffer`).
    pub side_files: Vec<(PathBuf, String)>,
    /// Lossy or risky steps (quantisation, engine limits, merged meshes).
    pub warnings: Vec<String>,
    /// Steps worth saying that lose nothing (animations baked into frames).
    pub notes: Vec<String>,
    /// What the writer details on request (per-mesh errors); lines that start with a space
    /// continue the one before.
    pub details: Vec<String>,
    /// The largest position error of each written frame after quantisation, model units.
    pub frame_errors: Vec<f32>,
    /// The names of the written frames, one per `frame_errors`.
    pub frame_names: Vec<String>,
    /// The writer's closing words (`1234 bytes, embedded`), if any.
    pub summary: Option<String>,
    /// Bytes of all files.
    pub bytes: usize,
    /// The file was written back as read (same format, no change asked).
    pub written_back: bool,
    /// Written back, and the same bytes as the input.
    pub identical: bool,
    /// The skin that replaced skin 0 of a file written back, if one did.
    pub skin_replaced: Option<PathBuf>,
}

impl Report {
    /// The largest of [`Report::frame_errors`], if the format quantises.
    pub fn max_error(&self) -> Option<f32> {
        self.frame_errors.iter().copied().reduce(f32::max)
    }
}

/// A save ready to be committed: every file's bytes (the main one last), and the report.
#[derive(Debug, Clone, Default)]
pub struct Planned {
    /// The files.
    pub files: Vec<(PathBuf, Vec<u8>)>,
    /// What the save will have written and noticed.
    pub report: Report,
}

impl Planned {
    /// Plans `side`, a file beside the output, in `dir`, and reports it.
    fn side_file(&mut self, dir: &Path, side: crate::codec::SideFile) {
        let path = dir.join(&side.name);
        self.report
            .side_files
            .push((path.clone(), side.kind.to_string()));
        self.files.push((path, side.bytes));
    }

    /// Fills in the report's file list and size.
    fn finish(mut self) -> Planned {
        self.report.files = self.files.iter().map(|(p, _)| p.clone()).collect();
        self.report.bytes = self.files.iter().map(|(_, b)| b.len()).sum();
        self
    }
}

/// Plans writing `source` to `output` (its extension and [`SaveOptions::variant`] pick the
/// target): every file in memory, nothing written.
pub fn plan(source: &Source<'_>, output: &Path, o: &SaveOptions) -> Result<Planned, Fail> {
    o.check()?;
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    let Some(target) = registry::target_for(ext, source.format, o.variant.as_deref()) else {
        return Err(Fail::Value(format!(
            "{}: cannot tell the output format from the extension {ext:?} (use .{})",
            output.display(),
            registry::target_extensions().join(", .")
        )));
    };
    let dir = output.parent().unwrap_or(Path::new("")).to_path_buf();
    let mut options = write_options(output, o)?;
    let writer = match rebuilt(source, target, o)? {
        Target::WriteBack(f) => return write_back(source, f, output, &dir, &options, o),
        Target::ReadOnly(f) => {
            return Err(Fail::Value(format!(
                "converting {} to {} is not supported yet",
                source.describe(),
                f.name()
            )))
        }
        Target::Convert(w) => w,
    };
    let replaced;
    let mut model = source.model;
    if let Some(skin) = &o.skin {
        let mut m = model.clone();
        m.use_only_skin(file_name(skin), read_picture(skin)?);
        replaced = m;
        model = &replaced;
    }
    options.placement.metres = source.interchange()
        && o.scale.is_none()
        && o.fit_height.is_none()
        && crate::model::transform::looks_like_metres(model);
    let mut written = if let Some(out) = decompiled(source, writer, o, &options)? {
        out
    } else if o.rerelease {
        crate::rerelease::write_layout(model, writer, &options)?
    } else {
        registry::write_model(model, writer, &options)?
    };
    let mut planned = Planned::default();
    for side in std::mem::take(&mut written.side_files) {
        planned.side_file(&dir, side);
    }
    planned.files.push((output.to_path_buf(), written.bytes));
    let r = &mut planned.report;
    r.frame_errors = written.frame_errors;
    r.frame_names = written.frame_names;
    r.warnings = written.warnings;
    r.notes = written.notes;
    r.details = written.details;
    r.summary = written.summary;
    Ok(planned.finish())
}

/// Files beside a model on disk, by name.
struct Beside(PathBuf, Option<String>);

impl crate::resolve::Resolver for Beside {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        std::fs::read(self.0.join(name)).ok()
    }
    fn model_name(&self) -> Option<String> {
        self.1.clone()
    }
}

/// A GoldSrc file saved as a QC: its own bytes decompiled (hit boxes, attachments and
/// controllers kept), unless the model was changed on the way (placement, a skin).
fn decompiled(
    source: &Source<'_>,
    writer: &registry::Writer,
    o: &SaveOptions,
    options: &WriteOptions,
) -> Result<Option<crate::codec::Output>, Fail> {
    use crate::formats::goldsrc;
    let (Some(bytes), Some(format)) = (source.bytes, source.format) else {
        return Ok(None);
    };
    if writer.format != goldsrc::qc::QC
        || format != goldsrc::HALF_LIFE_MDL
        || o.placed()
        || o.skin.is_some()
    {
        return Ok(None);
    }
    // A compiled QC's texture file and sequence groups are its side files, named after its
    // `$modelname` as its header is; any other model's are beside it on disk.
    if !source.side_files.is_empty() {
        return Ok(Some(goldsrc::qc::decompile_bytes(
            bytes,
            &Compiled(source.side_files),
            options,
        )?));
    }
    let path = Path::new(source.path.unwrap_or_default());
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    Ok(Some(goldsrc::qc::decompile_bytes(
        bytes,
        &Beside(dir, name),
        options,
    )?))
}

/// A compiled model's side files, by name; the model's name is its header's.
struct Compiled<'a>(&'a [crate::codec::SideFile]);

impl crate::resolve::Resolver for Compiled<'_> {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        self.0
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map(|s| s.bytes.clone())
    }
}

/// The same format written back as read, or with skin 0 replaced.
fn write_back(
    source: &Source<'_>,
    format: Format,
    output: &Path,
    dir: &Path,
    options: &WriteOptions,
    o: &SaveOptions,
) -> Result<Planned, Fail> {
    let bytes = source.bytes.ok_or_else(|| {
        Fail::Value(format!(
            "the model has no {} file to write back",
            format.description()
        ))
    })?;
    let mut planned = Planned::default();
    if let Some(skin) = &o.skin {
        let picture = read_picture(skin)?;
        let out = registry::replace_skin(bytes, 0, &picture, options)
            .map_err(|e| e.in_context(format!("skin {}", skin.display())))?;
        planned.report.warnings = out.warnings;
        planned.report.notes = out.notes;
        for side in out.side_files {
            planned.side_file(dir, side);
        }
        planned.files.push((output.to_path_buf(), out.bytes));
        planned.report.skin_replaced = Some(skin.clone());
    } else {
        let doc = Document::parse(bytes, &Limits::default())?;
        let mut out = doc.write();
        planned.report.written_back = true;
        if format == crate::formats::goldsrc::HALF_LIFE_MDL && !source.side_files.is_empty() {
            let stem = options.side_file_stem();
            let side;
            (out, side) =
                crate::formats::goldsrc::side_files::renamed(&out, source.side_files, stem);
            for s in side {
                planned.side_file(dir, s);
            }
        }
        // After the side files' names are the output's: only then are these the bytes read.
        planned.report.identical = out == bytes && source.side_files.is_empty();
        planned.files.push((output.to_path_buf(), out));
    }
    Ok(planned.finish())
}

/// `target`, or, for a same-format target that must be rebuilt from the model (placement
/// asked for, a re-release replacement shown, the re-release layout), that format's writer.
fn rebuilt(source: &Source<'_>, target: Target, o: &SaveOptions) -> Result<Target, Fail> {
    let Target::WriteBack(f) = target else {
        return Ok(target);
    };
    let replaced =
        (source.prefer_md5 || o.rerelease) && crate::rerelease::Game::of_format(f.name()).is_some();
    if !o.placed() && !replaced {
        return Ok(target);
    }
    match registry::writers().find(|w| w.format == f) {
        Some(w) => Ok(Target::Convert(w)),
        None => Err(Fail::Value(format!(
            "scale, rotate and fit-height rebuild the file, and {} is not written from a \
             model; convert to another format",
            f.description()
        ))),
    }
}

/// The library's write options for `o`, the side files named after `output`.
fn write_options(output: &Path, o: &SaveOptions) -> Result<WriteOptions, Fail> {
    let palette = match &o.target_palette {
        Some(p) => {
            let bytes = std::fs::read(p)
                .map_err(|e| Fail::File(format!("cannot read {}: {e}", p.display())))?;
            Some(Palette::from_lmp(&bytes).map_err(|e| e.in_context(p.display().to_string()))?)
        }
        None => None,
    };
    Ok(WriteOptions {
        strict: o.strict,
        skin_paths: o.skin_paths.clone(),
        palette,
        fullbrights: o.fullbrights,
        dither: o.dither,
        fps: o.fps,
        stem: output
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "model".into()),
        clip_split: o.clip_split,
        frames: o.frames,
        filter: o.filter,
        quantize: o.quantize,
        compress: o.compress,
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
        bones: o.bones,
        external_textures: o.external_textures,
        sequence_group_size: o.sequence_group_size.map(|kb| kb.saturating_mul(1024)),
    })
}

/// A file's name, for a skin's name.
fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A picture file (PNG, PCX, TGA, JPEG, ...) decoded.
fn read_picture(path: &Path) -> Result<Image, Fail> {
    let bytes = std::fs::read(path)
        .map_err(|e| Fail::File(format!("cannot read {}: {e}", path.display())))?;
    Ok(
        crate::image::decode(&bytes, &path.to_string_lossy(), &Limits::default())
            .map_err(|e| e.in_context(format!("skin {}", path.display())))?,
    )
}

/// Writes every file (folders made as needed), each through a temporary file renamed into
/// place; fails before writing anything if one of them exists, unless `force`.
pub fn commit(files: &[(PathBuf, Vec<u8>)], force: bool) -> Result<(), Fail> {
    if !force {
        if let Some((p, _)) = files.iter().find(|(p, _)| p.exists()) {
            return Err(Fail::File(format!(
                "{} exists; pass --force to replace it",
                p.display()
            )));
        }
    }
    for (p, bytes) in files {
        // Side files may go in a folder of their own (the re-release's md5/).
        if let Some(dir) = p.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| Fail::File(format!("cannot create {}: {e}", dir.display())))?;
        }
        crate::vfs::write_atomic(p, bytes, force)?;
    }
    Ok(())
}

/// Plans and commits: writes `source` to `output` and the files that go beside it.
pub fn save(source: &Source<'_>, output: &Path, o: &SaveOptions) -> Result<Report, Fail> {
    let planned = plan(source, output, o)?;
    commit(&planned.files, o.force)?;
    Ok(planned.report)
}
