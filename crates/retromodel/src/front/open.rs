//! The way in: a path or bytes to an [`Opened`] model, side files found by the game's rules.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Fail;
use crate::codec::Format;
use crate::document::Document;
use crate::image::Palette;
use crate::inputs::PlayerDir;
use crate::io::SharedBytes;
use crate::limits::Limits;
use crate::model::{Converted, Model};
use crate::options::ConvertOptions;
use crate::rerelease::{self, Replacement};
use crate::resolve::{Listed, Resolver};
use crate::summary::{animation_entries, AnimationBeside, AnimationEntry, Summary};
use crate::vfs::{split_archive_path, Archives, GameFs, PathResolver};

/// What opening takes besides the path: the same options, with the same defaults, in every
/// front end (the command line's side-file flags, Python's `load` keywords, the web page).
#[derive(Debug, Clone, PartialEq)]
pub struct OpenOptions {
    /// Game folders whose files (archives included) side files are also looked for in; the
    /// last one wins (a mod over its game).
    pub game_dirs: Vec<PathBuf>,
    /// A 768-byte `palette.lmp` for 8-bit skins instead of the one found beside the model.
    pub palette: Option<PathBuf>,
    /// Look-ups inside archives and game folders ignore ASCII case.
    pub ignore_case: bool,
    /// Quake 3 models: the `.skin` to use (`red` for `lower_red.skin`).
    pub skin_name: Option<String>,
    /// Quake 2 skins: prefer a true-colour replacement beside the stored picture.
    pub replacements: bool,
    /// Show a classic model's re-release MD5 replacement in its place (`--prefer md5`).
    pub prefer_md5: bool,
    /// An md5mesh's animations (default: every `.md5anim` beside it that fits).
    pub anims: Vec<PathBuf>,
    /// Frames per second of animations sampled from glTF (default: whole-pose keys kept).
    pub fps: Option<f32>,
    /// Apply a Cube 2 / Red Eclipse model configuration beside the file (`md5.cfg`,
    /// `iqm.cfg`: size, turn, animation speeds) as the engine shows the model. On by default;
    /// off keeps the file as stored.
    pub model_config: bool,
    /// A Quake 3 player folder: a weapon model attached on `tag_weapon`.
    pub weapon: Option<PathBuf>,
    /// Leave glTF and OBJ textures undecoded (the caller replaces the skin).
    pub skip_textures: bool,
    /// Half-Life models of body parts: the body value (`pev->body`) choosing each part's
    /// sub-model; 0 shows the first sub-model of each part.
    pub body: u32,
    /// Half-Life models: the skin family (`pev->skin`); 0 is the first.
    pub skin_family: usize,
}

impl Default for OpenOptions {
    fn default() -> Self {
        OpenOptions {
            game_dirs: Vec::new(),
            palette: None,
            ignore_case: false,
            skin_name: None,
            replacements: false,
            prefer_md5: false,
            anims: Vec::new(),
            fps: None,
            model_config: true,
            weapon: None,
            skip_textures: false,
            body: 0,
            skin_family: 0,
        }
    }
}

impl OpenOptions {
    /// The converters' options these ask for.
    pub fn convert_options(&self) -> ConvertOptions {
        ConvertOptions {
            skin_name: self.skin_name.clone(),
            prefer_replacements: self.replacements,
            sample_fps: self.fps,
            skip_textures: self.skip_textures,
            model_config: self.model_config,
            prefer_md5: self.prefer_md5,
            body: self.body,
            skin_family: self.skin_family,
            ..ConvertOptions::default()
        }
    }
}

/// A model opened through the front door, with everything `info` says of it.
#[derive(Debug, Clone)]
pub struct Opened {
    /// How messages and `info` name it (the path as given, `ARCHIVE:PATH`, or a name).
    pub shown: String,
    /// The format of the file it was read from; `None` for a model assembled from several
    /// files (a Quake 3 player).
    pub format: Option<Format>,
    /// That file's bytes, shared with the model (IQM keeps its frames in them); written back
    /// as read when the target is the same format.
    pub bytes: Option<SharedBytes>,
    /// The files a compiled script's file goes with (a QC's `$externaltextures` and
    /// `$sequencegroupsize`), written beside it when it is written back, renamed after the
    /// output.
    pub side_files: Vec<crate::codec::SideFile>,
    /// The model, side files applied.
    pub model: Model,
    /// What reading and converting noticed.
    pub warnings: Vec<String>,
    /// `info`'s summary.
    pub summary: Summary,
    /// Where each skin picture looked up by name came from.
    pub skin_sources: Vec<Option<String>>,
    /// The animations taken from files beside it, when the format lists side files (an
    /// md5mesh's `.md5anim`s).
    pub anims_beside: Option<Vec<AnimationBeside>>,
    /// Every animation, keyframe clips then skeletal animations.
    pub animations: Vec<AnimationEntry>,
    /// A classic model's re-release replacement beside it, checked as its engine would.
    pub rerelease: Option<Replacement>,
    /// Whether it was opened with [`OpenOptions::prefer_md5`]: a classic target is then
    /// rebuilt from the replacement instead of written back.
    pub prefer_md5: bool,
}

impl Opened {
    /// What saving needs of it.
    pub fn source(&self) -> super::Source<'_> {
        super::Source {
            model: &self.model,
            format: self.format,
            bytes: self.bytes.as_deref(),
            side_files: &self.side_files,
            path: Some(&self.shown),
            prefer_md5: self.prefer_md5,
        }
    }

    /// What `info --json` prints and Python's `info()` returns: [`Summary::to_json`] with
    /// `skin_sources`, `animations` (every animation, [`AnimationEntry`]) and `rerelease`.
    #[cfg(feature = "json")]
    pub fn info_json(&self) -> serde_json::Value {
        use crate::summary::json_float;
        let mut v = self.summary.to_json(&self.shown);
        if self.skin_sources.iter().any(Option::is_some) {
            v["skin_sources"] = serde_json::json!(self.skin_sources);
        }
        v["animations"] = self
            .animations
            .iter()
            .map(|a| {
                serde_json::json!({
                    "name": a.name,
                    "kind": a.kind,
                    "frames": a.frames,
                    "fps": json_float(a.fps),
                    "seconds": json_float(a.seconds),
                    "loop": a.looping,
                    "file": a.file,
                })
            })
            .collect();
        if let Some(p) = &self.rerelease {
            v["rerelease"] = pair_json(p);
        }
        v
    }
}

/// Where files are read from for one run of a front end: the archives (each opened once),
/// the game folders mounted, the palette read, and the options.
pub struct Opener<'a> {
    archives: &'a Archives,
    options: OpenOptions,
    palette: Option<Vec<u8>>,
    game: Option<Arc<GameFs>>,
    warnings: Vec<String>,
}

impl<'a> Opener<'a> {
    /// Mounts `options.game_dirs` and reads the palette file, through `archives`.
    pub fn new(archives: &'a Archives, options: OpenOptions) -> Result<Opener<'a>, Fail> {
        let mut warnings = Vec::new();
        let game = if options.game_dirs.is_empty() {
            None
        } else {
            let mut fs = archives.new_tree();
            for dir in &options.game_dirs {
                if !dir.is_dir() {
                    return Err(Fail::Missing(format!("{}: no such folder", dir.display())));
                }
                fs.mount_game_dir(dir)?;
            }
            warnings.extend(fs.warnings().iter().cloned());
            Some(Arc::new(fs))
        };
        let palette = match &options.palette {
            Some(path) => {
                let bytes = archives.read(path)?;
                Palette::from_lmp(&bytes).map_err(|e| e.in_context(path.display().to_string()))?;
                Some(bytes)
            }
            None => None,
        };
        Ok(Opener {
            archives,
            options,
            palette,
            game,
            warnings,
        })
    }

    /// The options it opens with.
    pub fn options(&self) -> &OpenOptions {
        &self.options
    }

    /// What mounting the game folders noticed (archive entries left out).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// The checked palette file's bytes, if one was given.
    pub fn palette(&self) -> Option<&[u8]> {
        self.palette.as_deref()
    }

    /// The mounted game folders, if any.
    pub fn game(&self) -> Option<Arc<GameFs>> {
        self.game.clone()
    }

    /// The side-file resolver of the model at `path` (on disk or `ARCHIVE:PATH`).
    pub fn resolver(&self, path: &Path) -> PathResolver<'a> {
        PathResolver::new(
            self.archives,
            path,
            self.palette.as_deref(),
            self.game.clone(),
        )
        .with_listed(&self.options.anims)
    }

    /// Whether `path` is a Quake 3 player folder (on disk or inside an archive): it holds
    /// `lower.md3`, `upper.md3` and `head.md3`.
    pub fn is_player_dir(&self, path: &Path) -> bool {
        is_player_dir(self.archives, path)
    }

    /// Opens the model at `path`: a model file on disk, `ARCHIVE:PATH`, or a Quake 3 player
    /// folder (assembled, [`OpenOptions::weapon`] attached).
    pub fn open(&self, path: &Path) -> Result<Opened, Fail> {
        if self.is_player_dir(path) {
            return self.open_player(path);
        }
        let shown = path.display().to_string();
        if !path.exists() && split_archive_path(path).is_none() {
            return Err(Fail::Missing(format!(
                "cannot read {shown}: no such file or folder"
            )));
        }
        if path.is_dir() {
            return Err(Fail::Value(format!(
                "{shown} is a folder, not a model (a Quake 3 player folder holds lower.md3, \
                 upper.md3 and head.md3); convert a folder's models as a batch"
            )));
        }
        let bytes = self.archives.read(path)?;
        self.open_read(path, bytes)
    }

    /// Opens the model at `path` whose bytes were already read (a batch's input).
    pub fn open_read(&self, path: &Path, bytes: Vec<u8>) -> Result<Opened, Fail> {
        let resolver = self.resolver(path);
        let opened = open_bytes(
            bytes,
            &path.display().to_string(),
            &self.options.convert_options(),
            &resolver,
        )?;
        crate::inputs::check_listed(&self.options.anims, &opened.model, &opened.warnings)
            .map_err(Fail::Value)?;
        Ok(opened)
    }

    /// Opens the Quake 3 player folder at `dir`.
    pub fn open_player(&self, dir: &Path) -> Result<Opened, Fail> {
        let limits = Limits::default();
        let convert = self.options.convert_options();
        let weapon = match &self.options.weapon {
            Some(w) => {
                let only = Opener {
                    archives: self.archives,
                    options: OpenOptions {
                        weapon: None,
                        ..self.options.clone()
                    },
                    palette: self.palette.clone(),
                    game: self.game.clone(),
                    warnings: Vec::new(),
                };
                let o = only.open(w).map_err(|e| match e {
                    Fail::Format(e) => Fail::Format(e.in_context(w.display().to_string())),
                    e => e,
                })?;
                Some(Converted {
                    model: o.model,
                    warnings: o
                        .warnings
                        .iter()
                        .map(|m| format!("{}: {m}", w.display()))
                        .collect(),
                })
            }
            None => None,
        };
        let folder = PlayerDir::new(self.archives, dir, self.palette.as_deref(), self.game());
        let converted =
            crate::formats::md3::player::load_folder(&folder, weapon.as_ref(), &convert, &limits)
                .map_err(|e| Fail::FormatText(e.to_string()))?;
        Ok(assembled(
            dir.display().to_string(),
            "md3-player",
            converted,
        ))
    }
}

/// Whether `path` is a Quake 3 player folder (on disk or inside an archive opened through
/// `archives`): it holds `lower.md3`, `upper.md3` and `head.md3`.
pub fn is_player_dir(archives: &Archives, path: &Path) -> bool {
    (path.is_dir() || split_archive_path(path).is_some())
        && crate::formats::md3::player::is_player(&PlayerDir::new(archives, path, None, None))
}

/// An [`Opened`] for a model no single file holds (an assembled player).
fn assembled(shown: String, format: &'static str, converted: Converted) -> Opened {
    let model = &converted.model;
    let summary = Summary::of_model(format, &converted);
    let file = file_name(&shown);
    let animations = animation_entries(model, |_| None, &file);
    let skin_sources = model.skins.iter().map(|k| k.source.clone()).collect();
    Opened {
        shown,
        format: None,
        bytes: None,
        side_files: Vec::new(),
        model: converted.model,
        warnings: converted.warnings,
        summary,
        skin_sources,
        anims_beside: None,
        animations,
        rerelease: None,
        prefer_md5: false,
    }
}

/// Opens a model from `bytes` (any format, detected by content), shown as `shown`, its side
/// files found through `resolver`: the web page's files, Python's `loads`, and the path
/// openers above all come here.
pub fn open_bytes(
    bytes: Vec<u8>,
    shown: &str,
    convert: &ConvertOptions,
    resolver: &dyn Resolver,
) -> Result<Opened, Fail> {
    let limits = Limits::default();
    // Shared: the Model may keep parts of the file (IQM's frames) instead of copies.
    let bytes = SharedBytes::from(bytes);
    let listed = Listed::new(resolver);
    let doc = Document::parse_shared(&bytes, &limits)?;
    let converted = doc.try_to_model(convert, &listed)?;
    let anims_beside = crate::summary::animations_beside(&converted.model, &listed);
    // A classic model's re-release replacement, checked as its engine would.
    let pair = rerelease::Game::of_format(doc.format().name()).and_then(|g| {
        if convert.prefer_md5 {
            let plain = ConvertOptions {
                prefer_md5: false,
                ..convert.clone()
            };
            let classic = doc.to_model(&plain, resolver);
            rerelease::find(g, &classic.model, resolver)
        } else {
            rerelease::find(g, &converted.model, resolver)
        }
    });
    let summary = doc.summary(&converted);
    // A script (a QC) is saved as the file it compiled to.
    let (format, compiled, side_files) = match doc.compiled() {
        Some((f, b, side)) => (f, Some(SharedBytes::from(b)), side),
        None => (doc.format(), None, Vec::new()),
    };
    drop(doc);
    let bytes = compiled.unwrap_or(bytes);
    let own = file_name(shown);
    let animations = animation_entries(&converted.model, |name| listed.file_of(name), &own);
    let skin_sources = converted
        .model
        .skins
        .iter()
        .map(|k| k.source.clone())
        .collect();
    Ok(Opened {
        shown: shown.to_string(),
        format: Some(format),
        bytes: Some(bytes),
        side_files,
        model: converted.model,
        warnings: converted.warnings,
        summary,
        skin_sources,
        anims_beside,
        animations,
        rerelease: pair,
        prefer_md5: convert.prefer_md5,
    })
}

/// The file name of a shown path (`ARCHIVE:dir/x.iqm` -> `x.iqm`).
fn file_name(shown: &str) -> String {
    shown
        .rsplit(['/', '\\', ':'])
        .next()
        .unwrap_or(shown)
        .to_string()
}

/// The engines that would use a replacement of `p`'s game.
pub fn pair_engines(p: &Replacement) -> Vec<&'static str> {
    rerelease::ENGINES
        .iter()
        .filter(|e| e.1 == p.game)
        .map(|e| e.0)
        .collect()
}

/// The re-release replacement as `info --json` shows it.
#[cfg(feature = "json")]
fn pair_json(p: &Replacement) -> serde_json::Value {
    serde_json::json!({
        "game": p.game.describe(),
        "mesh": p.names.mesh,
        "anim": p.names.anim,
        "scale": p.has_scale.then(|| p.names.scale.clone()),
        "joints": p.model.joints.len(),
        "frames": p.anim_frames,
        "valid": p.usable(),
        "engines": pair_engines(p),
        "checks": p.checks.iter().map(|c| serde_json::json!({"error": c.error, "message": c.message})).collect::<Vec<_>>(),
    })
}
