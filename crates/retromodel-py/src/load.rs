//! `load` and `loads`: a model from a path (a file on disk, `ARCHIVE:PATH`, a Quake 3 player
//! folder) or from bytes, its side files found as the command line finds them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use pyo3::prelude::*;
use retromodel::formats::md3::player;
use retromodel::image::Palette;
use retromodel::inputs::PlayerDir;
use retromodel::resolve::{Listed, Resolver};
use retromodel::summary::{self, Summary};
use retromodel::vfs::{split_archive_path, Archives, GameFs, PathResolver};
use retromodel::{ConvertOptions, Converted, Document, Limits};

use crate::errors::{Fail, Result};
use crate::model::Model;

/// What `load` takes besides the path: the command line's side-file options.
#[derive(Clone, Default)]
pub struct LoadOptions {
    /// Game folders whose files (archives included) side files are also looked for in.
    pub game_dirs: Vec<PathBuf>,
    /// The skin to use (Quake 3 `.skin` files: `red` for `lower_red.skin`).
    pub skin_name: Option<String>,
    /// An md5mesh's animations (default: every `.md5anim` beside it that fits).
    pub anims: Vec<PathBuf>,
    /// A 768-byte palette for 8-bit pictures.
    pub palette: Option<PathBuf>,
    /// Look-ups inside archives and game folders ignore ASCII case.
    pub ignore_case: bool,
    /// Prefer the replacement textures of modern engines over the stored skins.
    pub replacements: bool,
    /// Frames per second for animations sampled from glTF.
    pub fps: Option<f32>,
    /// Apply a Cube 2 / Red Eclipse `md5.cfg` beside an md5mesh.
    pub model_config: bool,
    /// A weapon model attached on a Quake 3 player's `tag_weapon`.
    pub weapon: Option<PathBuf>,
    /// Show a classic model's re-release MD5 replacement in its place (`--prefer md5`).
    pub prefer_md5: bool,
}

impl LoadOptions {
    fn convert_options(&self) -> ConvertOptions {
        ConvertOptions {
            skin_name: self.skin_name.clone(),
            prefer_replacements: self.replacements,
            sample_fps: self.fps,
            model_config: self.model_config,
            prefer_md5: self.prefer_md5,
            ..Default::default()
        }
    }
}

/// Mounts `dirs` as one game tree (the last one wins), its warnings added to `warnings`.
pub fn mount(
    archives: &Archives,
    dirs: &[PathBuf],
    warnings: &mut Vec<String>,
) -> Result<Option<Arc<GameFs>>> {
    if dirs.is_empty() {
        return Ok(None);
    }
    let mut fs = archives.new_tree();
    for dir in dirs {
        if !dir.is_dir() {
            return Err(Fail::Missing(format!("{}: no such folder", dir.display())));
        }
        fs.mount_game_dir(dir)?;
    }
    warnings.extend(fs.warnings().iter().cloned());
    Ok(Some(Arc::new(fs)))
}

/// Reads and checks a palette file.
fn read_palette(archives: &Archives, path: Option<&Path>) -> Result<Option<Vec<u8>>> {
    let Some(path) = path else { return Ok(None) };
    let bytes = archives.read(path)?;
    Palette::from_lmp(&bytes)
        .map_err(|e| Fail::Format(e.in_context(path.display().to_string())))?;
    Ok(Some(bytes))
}

/// Whether `path` is a Quake 3 player folder, on disk or inside an archive.
fn is_player_dir(archives: &Archives, path: &Path) -> bool {
    (path.is_dir() || split_archive_path(path).is_some())
        && player::is_player(&PlayerDir::new(archives, path, None, None))
}

/// A summary of a model that no single file holds (an assembled player, a model built from
/// arrays): its counts, clips, bounds and warnings.
pub fn summary_of(format: &'static str, converted: &Converted) -> Summary {
    let model = &converted.model;
    let mut s = Summary::of_converted(format, 0, converted);
    s.vertices = model.vertex_count();
    s.triangles = model.triangle_count();
    s.poses = model.pose_count();
    s.joints = model.joints.len();
    s.meshes = model.meshes.len();
    s.skins = model.skins.len();
    s
}

/// Loads the model at `path` as the command line does.
pub fn load_path(path: &Path, options: &LoadOptions) -> Result<(Model, Vec<String>)> {
    let limits = Limits::default();
    let archives = Archives::new(&limits, options.ignore_case);
    let mut warnings = Vec::new();
    let game = mount(&archives, &options.game_dirs, &mut warnings)?;
    let palette = read_palette(&archives, options.palette.as_deref())?;
    let convert = options.convert_options();
    let shown = path.display().to_string();
    if is_player_dir(&archives, path) {
        let weapon = match &options.weapon {
            Some(w) => {
                let (m, _) = load_path(
                    w,
                    &LoadOptions {
                        weapon: None,
                        ..options.clone()
                    },
                )?;
                let model = Arc::unwrap_or_clone(m.model);
                Some(Converted {
                    model,
                    warnings: Vec::new(),
                })
            }
            None => None,
        };
        let folder = PlayerDir::new(&archives, path, palette.as_deref(), game);
        let converted = player::load_folder(&folder, weapon.as_ref(), &convert, &limits)
            .map_err(|e| Fail::FormatText(e.to_string()))?;
        let info = summary::info_json(
            &shown,
            &summary_of("md3-player", &converted),
            &skin_sources(&converted),
            None,
        );
        warnings.extend(converted.warnings.iter().cloned());
        return Ok((
            Model::new(converted.model, info, Some(shown), None, None),
            warnings,
        ));
    }
    if !path.exists() && split_archive_path(path).is_none() {
        return Err(Fail::Missing(format!(
            "cannot read {shown}: no such file or folder"
        )));
    }
    if path.is_dir() {
        return Err(Fail::Value(format!(
            "{shown} is a folder, not a model (a Quake 3 player folder holds lower.md3, \
             upper.md3 and head.md3); convert_tree converts the models of a folder"
        )));
    }
    let bytes = archives.read(path)?;
    let resolver = PathResolver::new(&archives, path, palette.as_deref(), game);
    let resolver = Listed::new(resolver.with_listed(&options.anims));
    let (model, more) = from_bytes(bytes, &shown, &convert, &resolver, &options.anims)?;
    warnings.extend(more);
    Ok((model, warnings))
}

/// Where each skin picture came from, for `info()`.
fn skin_sources(converted: &Converted) -> Vec<Option<String>> {
    converted
        .model
        .skins
        .iter()
        .map(|k| k.source.clone())
        .collect()
}

/// Parses and converts `bytes` (shown as `shown` in messages and `info()`).
pub fn from_bytes<R: Resolver>(
    bytes: Vec<u8>,
    shown: &str,
    convert: &ConvertOptions,
    resolver: &Listed<R>,
    anims: &[PathBuf],
) -> Result<(Model, Vec<String>)> {
    let limits = Limits::default();
    // Shared: the Model may keep parts of the file (IQM's frames) instead of copies.
    let bytes = retromodel::io::SharedBytes::from(bytes);
    let doc = Document::parse_shared(&bytes, &limits)?;
    let converted = doc.try_to_model(convert, resolver)?;
    retromodel::inputs::check_listed(anims, &converted).map_err(Fail::Value)?;
    let anims_beside = summary::animations_beside(&converted.model, resolver);
    let info = summary::info_json(
        shown,
        &doc.summary(&converted),
        &skin_sources(&converted),
        anims_beside.as_deref(),
    );
    let format = doc.format();
    drop(doc);
    let warnings = converted.warnings;
    Ok((
        Model::new(
            converted.model,
            info,
            Some(shown.to_string()),
            Some(format),
            Some(bytes),
        ),
        warnings,
    ))
}

/// Reads any model file the library reads (detected by content, never by name), with its
/// side files (skins, palettes, animations, shader scripts) found as `retromodel convert`
/// finds them. Returns the model and the warnings met while reading.
#[pyfunction]
#[pyo3(signature = (path, *, game_dirs=Vec::new(), skin_name=None, anims=Vec::new(), palette=None, ignore_case=false, replacements=false, fps=None, model_config=false, weapon=None, prefer_md5=false))]
#[allow(clippy::too_many_arguments)]
pub fn load(
    py: Python<'_>,
    path: PathBuf,
    game_dirs: Vec<PathBuf>,
    skin_name: Option<String>,
    anims: Vec<PathBuf>,
    palette: Option<PathBuf>,
    ignore_case: bool,
    replacements: bool,
    fps: Option<f32>,
    model_config: bool,
    weapon: Option<PathBuf>,
    prefer_md5: bool,
) -> PyResult<(Model, Vec<String>)> {
    let options = LoadOptions {
        game_dirs,
        skin_name,
        anims,
        palette,
        ignore_case,
        replacements,
        fps,
        model_config,
        weapon,
        prefer_md5,
    };
    Ok(py.detach(|| load_path(&path, &options))?)
}

/// Reads a model from bytes (any format, detected by content); `name` is how messages and
/// `info()` name it. Side files cannot be found: a `.glb`, an MDL or an MD3 stand alone.
#[pyfunction]
#[pyo3(signature = (data, name=None, *, skin_name=None, fps=None))]
pub fn loads(
    py: Python<'_>,
    data: Vec<u8>,
    name: Option<String>,
    skin_name: Option<String>,
    fps: Option<f32>,
) -> PyResult<(Model, Vec<String>)> {
    let convert = ConvertOptions {
        skin_name,
        sample_fps: fps,
        ..Default::default()
    };
    let shown = name.unwrap_or_else(|| "<bytes>".to_string());
    Ok(py.detach(|| {
        let resolver = Listed::new(retromodel::NoFiles);
        from_bytes(data, &shown, &convert, &resolver, &[])
    })?)
}
