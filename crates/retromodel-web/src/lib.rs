//! retromodel in the browser: the WebAssembly module behind the static app in `web/`.
//!
//! Two halves:
//! - [`Workspace`] (plain Rust, tested natively): the files the user opened, dropped or
//!   picked as a folder, and the archives among them, as one game tree
//!   ([`retromodel::vfs::GameFs`]); the model files in it; opening one with its side files
//!   found as the command line finds them (skins, palettes, the `.md5anim`s beside an
//!   `.md5mesh`), glTF and OBJ included; [`export`] to every format a codec writes (`.glb`,
//!   `.obj`, ...), through the registry as the command line writes.
//! - `Viewer` (wasm32 only): the same [`retromodel_render`] renderer as the desktop viewer and
//!   `render` (keyframe blending and skinning in the vertex shader, the same
//!   [`retromodel_render::playback`] timing), on a canvas through wgpu: WebGPU where the
//!   browser has it, WebGL2 otherwise. The page drives it from JavaScript (`web/app.js`).
//!
//! Results cross to JavaScript as JSON text; errors as the library's error text.

use std::io::Write as _;
use std::sync::Arc;

use retromodel::front;
use retromodel::registry;
use retromodel::vfs::{self, Archive, GameFs, GameFsResolver, MemoryArchive};
use retromodel::{Limits, Model};

#[cfg(target_arch = "wasm32")]
mod wasm;

/// A model file of the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFile {
    /// Its path in the tree.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
    /// The file the user gave that holds it: the archive's path, or its own path when it
    /// was given as a file (the page names it when the model fails).
    pub source: String,
}

/// A model opened from a [`Workspace`] through the library's front door.
#[derive(Debug, Clone)]
pub struct Opened {
    /// Its path in the tree.
    pub path: String,
    /// The info panel's rows ([`retromodel::Summary::plain_words`], every animation included).
    pub info: Vec<(String, String)>,
    /// The model with its file, as the command line opens it.
    pub opened: front::Opened,
}

impl Opened {
    /// The model, side files applied (skins, md5anims).
    pub fn model(&self) -> &Model {
        &self.opened.model
    }

    /// The conversion's warnings.
    pub fn warnings(&self) -> &[String] {
        &self.opened.warnings
    }
}

/// The layer name of the loose files in [`Workspace`]'s tree.
const LOOSE: &str = "dropped files";

/// The files the user gave the page, as one game tree: loose files on top of the archives
/// (by name order, as a game folder mounts them).
#[derive(Default)]
pub struct Workspace {
    loose: Vec<(String, Arc<[u8]>)>,
    archives: Vec<(String, Arc<dyn Archive>)>,
    fs: Option<GameFs>,
    prefer_md5: bool,
}

impl Workspace {
    /// An empty workspace.
    pub fn new() -> Workspace {
        Workspace::default()
    }

    /// Forgets every file (the `--prefer md5` choice stays).
    pub fn clear(&mut self) {
        *self = Workspace {
            prefer_md5: self.prefer_md5,
            ..Workspace::default()
        };
    }

    /// Open a Quake II MD2 or Quake MDL through its re-release MD5 replacement when the engine
    /// would use it (`--prefer md5`, [`retromodel::rerelease`]).
    pub fn set_prefer_md5(&mut self, on: bool) {
        self.prefer_md5 = on;
    }

    /// Adds a file at `path` (`/`-separated: a folder's files keep their paths inside it).
    /// An archive (PAK, or ZIP: `.pk3`, `.pk4`, `.zip`) is opened and mounted under the loose
    /// files; a later file of the same path replaces an earlier one. Returns what was added
    /// in words, or the archive's error.
    pub fn add(&mut self, path: &str, bytes: Vec<u8>) -> Result<String, String> {
        let clean = vfs::clean_path(path)
            .ok_or_else(|| format!("{path:?} is not a path inside the tree"))?;
        self.fs = None;
        if vfs::detect(&bytes).is_some() {
            let archive =
                vfs::open_bytes(bytes, &Limits::default()).map_err(|e| format!("{clean}: {e}"))?;
            let n = archive.entries().len();
            self.archives.retain(|(name, _)| *name != clean);
            self.archives.push((clean.clone(), Arc::from(archive)));
            self.archives.sort_by(|a, b| a.0.cmp(&b.0));
            return Ok(format!("{clean}: archive of {n} files"));
        }
        let size = bytes.len();
        self.loose.retain(|(name, _)| *name != clean);
        self.loose.push((clean.clone(), Arc::from(bytes)));
        Ok(format!("{clean}: {size} bytes"))
    }

    /// The tree over every file added so far, built when first needed after a change.
    fn fs(&mut self) -> &GameFs {
        self.fs.get_or_insert_with(|| {
            let mut fs = GameFs::new(&Limits::default()).case_insensitive(true);
            for (name, archive) in &self.archives {
                fs.add_archive(name, Box::new(archive.clone()));
            }
            fs.add_archive(LOOSE, Box::new(MemoryArchive::new(self.loose.clone())));
            fs
        })
    }

    /// Problems met while mounting (archive entries left out).
    pub fn warnings(&mut self) -> Vec<String> {
        self.fs().warnings().to_vec()
    }

    /// The model files of the tree, sorted by path.
    pub fn models(&mut self) -> Vec<ModelFile> {
        let exts = registry::viewable_extensions();
        self.fs()
            .files()
            .into_iter()
            .filter(|f| {
                f.path
                    .rsplit_once('.')
                    .is_some_and(|(_, e)| exts.iter().any(|x| x.eq_ignore_ascii_case(e)))
            })
            .map(|f| ModelFile {
                source: if f.source == LOOSE {
                    f.path.clone()
                } else {
                    f.source
                },
                path: f.path,
                size: f.size,
            })
            .collect()
    }

    /// Reads, parses and converts the model at `path`, side files found in the tree as the
    /// command line finds them in a game folder. Errors are the library's text, prefixed with
    /// the path.
    pub fn open(&mut self, path: &str) -> Result<Opened, String> {
        let options = front::OpenOptions {
            prefer_md5: self.prefer_md5,
            ..front::OpenOptions::default()
        };
        self.open_with(path, &options)
    }

    /// [`Workspace::open`] with open options of the caller's (the page's are the defaults
    /// and its `--prefer md5` choice; game folders, palettes and `--anim` files do not
    /// apply: the tree is the workspace).
    pub fn open_with(
        &mut self,
        path: &str,
        options: &front::OpenOptions,
    ) -> Result<Opened, String> {
        let fs = self.fs();
        let bytes = fs
            .read(path)
            .ok_or_else(|| format!("{path}: no such file"))?
            .map_err(|e| format!("{path}: {e}"))?;
        let resolver = GameFsResolver::new(fs, path);
        let opened = front::open_bytes(bytes, path, &options.convert_options(), &resolver)
            .map_err(|e| format!("{path}: {e}"))?;
        let info = opened
            .summary
            .plain_words(Some(&opened.model), &opened.animations);
        Ok(Opened {
            path: path.to_string(),
            info,
            opened,
        })
    }
}

/// The formats the page opens, from the registry: `(description, extensions)`, each format
/// once, then the archives it mounts.
pub fn read_formats() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for f in front::formats().into_iter().filter(|f| f.read) {
        let exts: Vec<String> = f.extensions.iter().map(|e| e.to_string()).collect();
        match out.iter_mut().find(|(d, _)| d == f.description) {
            Some((_, have)) => {
                for e in exts {
                    if !have.contains(&e) {
                        have.push(e);
                    }
                }
            }
            None => out.push((f.description.to_string(), exts)),
        }
    }
    out.push((
        "archives".to_string(),
        ["pak", "pk3", "pk4", "zip"].map(String::from).to_vec(),
    ));
    out
}

/// A file to download.
#[derive(Debug, Clone, PartialEq)]
pub struct Download {
    /// Its file name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// What the writer noticed (lossy steps), for the page to show.
    pub notes: Vec<String>,
}

/// The export choices: `(id, label)`, the interchange formats' writers first (`glb`,
/// `gltf`, `obj`), then every other writer of a codec (`mdl:quake`, `md2`, `md5mesh`, ...).
/// A writer whose files go with side files (skins, a `.gltf`'s buffer) downloads as a `.zip`.
pub fn export_formats() -> Vec<(String, String)> {
    let (mut first, rest): (Vec<&registry::Writer>, Vec<_>) =
        registry::writers().partition(|w| registry::is_interchange(w.format));
    first.extend(rest);
    first
        .into_iter()
        .map(|w| {
            let ext = w.format.extensions().first().copied().unwrap_or("bin");
            let id = if w.variant.is_empty() {
                ext.to_string()
            } else {
                format!("{ext}:{}", w.variant)
            };
            let label = if w.variant.is_empty() {
                format!("{} (.{ext})", w.format.description())
            } else {
                format!("{} (.{ext}, {})", w.format.description(), w.variant)
            };
            (id, label)
        })
        .collect()
}

/// The files as one `.zip`.
fn zip_files(files: &[(String, Vec<u8>)]) -> Result<Vec<u8>, String> {
    let mut out = std::io::Cursor::new(Vec::new());
    {
        let mut z = zip::ZipWriter::new(&mut out);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        for (name, bytes) in files {
            z.start_file(name.as_str(), options)
                .map_err(|e| format!("zip: {e}"))?;
            z.write_all(bytes).map_err(|e| format!("zip: {e}"))?;
        }
        z.finish().map_err(|e| format!("zip: {e}"))?;
    }
    Ok(out.into_inner())
}

/// `opened` written as `format` (an id of [`export_formats`]) for a file named `stem.EXT`,
/// through the front door as the command line writes it (`convert X STEM.EXT`): one file, or
/// a `.zip` of the main file and the files that go beside it.
pub fn export(opened: &front::Opened, stem: &str, format: &str) -> Result<Download, String> {
    export_with(opened, stem, format, &front::SaveOptions::default())
}

/// [`export`] with save options other than the page's defaults (`options.variant` is taken
/// from `format`).
pub fn export_with(
    opened: &front::Opened,
    stem: &str,
    format: &str,
    options: &front::SaveOptions,
) -> Result<Download, String> {
    let (mut files, notes) = export_files(opened, stem, format, options)?;
    if files.len() == 1 {
        let (name, bytes) = files.remove(0);
        return Ok(Download { name, bytes, notes });
    }
    // The main file first in the archive.
    files.rotate_right(1);
    let ext = format.split(':').next().unwrap_or(format);
    Ok(Download {
        name: format!("{stem}_{ext}.zip"),
        bytes: zip_files(&files)?,
        notes,
    })
}

/// Files by name, with their bytes.
pub type Files = Vec<(String, Vec<u8>)>;

/// The files [`export_with`] downloads, each with its name (`/`-separated, side files in
/// their folders), the main file last, and the writer's notes.
pub fn export_files(
    opened: &front::Opened,
    stem: &str,
    format: &str,
    options: &front::SaveOptions,
) -> Result<(Files, Vec<String>), String> {
    let (ext, variant) = match format.split_once(':') {
        Some((e, v)) => (e, Some(v.to_string())),
        None => (format, None),
    };
    if !registry::writers().any(|w| {
        w.format.extensions().first() == Some(&ext)
            && variant.as_deref().is_none_or(|v| w.variant == v)
    }) {
        return Err(format!("no writer for {format:?}"));
    }
    let main = format!("{stem}.{ext}");
    let options = front::SaveOptions {
        variant,
        ..options.clone()
    };
    let planned = front::plan(&opened.source(), std::path::Path::new(&main), &options)
        .map_err(|e| e.to_string())?;
    let mut notes = planned.report.warnings;
    notes.extend(planned.report.notes);
    let files = planned
        .files
        .into_iter()
        .map(|(p, b)| (p.to_string_lossy().replace('\\', "/"), b))
        .collect();
    Ok((files, notes))
}

/// The file stem of a tree path (`models/ogre.mdl` -> `ogre`).
pub fn stem_of(path: &str) -> &str {
    let file = path.rsplit('/').next().unwrap_or(path);
    file.rsplit_once('.').map_or(file, |(s, _)| s)
}

/// `rows` as a JSON array of `[label, text]` pairs.
pub fn rows_json(rows: &[(String, String)]) -> serde_json::Value {
    serde_json::Value::Array(
        rows.iter()
            .map(|(k, v)| serde_json::json!([k, v]))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each model names the file the user gave that holds it (the page names it when the
    /// model crashes the module): its archive, or the model itself given as a file.
    #[test]
    fn models_name_the_file_given() {
        let mut w = Workspace::new();
        let (name, pak) = vfs::fixtures()
            .into_iter()
            .find(|(n, _)| n.ends_with(".pak"))
            .expect("a PAK fixture");
        w.add(&format!("game/{name}"), pak).expect("a PAK");
        w.add("loose/ogre.mdl", b"IDPO".to_vec()).expect("a file");
        let models = w.models();
        let source = |path: &str| {
            models
                .iter()
                .find(|m| m.path == path)
                .map(|m| m.source.clone())
        };
        assert_eq!(
            source("progs/player.mdl").as_deref(),
            Some("game/files.pak")
        );
        assert_eq!(source("loose/ogre.mdl").as_deref(), Some("loose/ogre.mdl"));
    }
}
