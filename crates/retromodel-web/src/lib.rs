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

use retromodel::registry;
use retromodel::vfs::{self, Archive, GameFs, GameFsResolver, MemoryArchive};
use retromodel::{ConvertOptions, Document, Limits, Model, WriteOptions};

#[cfg(target_arch = "wasm32")]
mod wasm;

/// A model file of the workspace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFile {
    /// Its path in the tree.
    pub path: String,
    /// Its size in bytes.
    pub size: u64,
}

/// A model opened from a [`Workspace`].
#[derive(Debug, Clone)]
pub struct Opened {
    /// Its path in the tree.
    pub path: String,
    /// The model, side files applied (skins, md5anims).
    pub model: Model,
    /// The info panel's rows ([`retromodel::Summary::plain_words`]).
    pub info: Vec<(String, String)>,
    /// The conversion's warnings.
    pub warnings: Vec<String>,
}

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
            fs.add_archive(
                "dropped files",
                Box::new(MemoryArchive::new(self.loose.clone())),
            );
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
                path: f.path,
                size: f.size,
            })
            .collect()
    }

    /// Reads, parses and converts the model at `path`, side files found in the tree as the
    /// command line finds them in a game folder. Errors are the library's text, prefixed with
    /// the path.
    pub fn open(&mut self, path: &str) -> Result<Opened, String> {
        let options = ConvertOptions {
            prefer_md5: self.prefer_md5,
            ..ConvertOptions::default()
        };
        let fs = self.fs();
        let bytes = fs
            .read(path)
            .ok_or_else(|| format!("{path}: no such file"))?
            .map_err(|e| format!("{path}: {e}"))?;
        let doc =
            Document::parse(&bytes, &Limits::default()).map_err(|e| format!("{path}: {e}"))?;
        let resolver = GameFsResolver::new(fs, path);
        let converted = doc.to_model(&options, &resolver);
        let summary = doc.summary(&converted);
        let info = summary.plain_words(Some(&converted.model));
        Ok(Opened {
            path: path.to_string(),
            model: converted.model,
            info,
            warnings: converted.warnings,
        })
    }
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

/// `model` written as `format` (an id of [`export_formats`]) for a file named `stem.EXT`:
/// one file, or a `.zip` of the main file and the files that go beside it.
pub fn export(model: &Model, stem: &str, format: &str) -> Result<Download, String> {
    let (ext, variant) = match format.split_once(':') {
        Some((e, v)) => (e, Some(v)),
        None => (format, None),
    };
    let writer = registry::writers()
        .find(|w| {
            w.format.extensions().first() == Some(&ext) && variant.is_none_or(|v| w.variant == v)
        })
        .ok_or_else(|| format!("no writer for {format:?}"))?;
    // The interchange files (an OBJ's `.mtl` and skins, a `.gltf`'s buffer) are named after
    // the model; the classic formats' side files keep the writers' default stem (`model`),
    // as this page has always written them.
    let options = WriteOptions {
        stem: if registry::is_interchange(writer.format) {
            stem.to_string()
        } else {
            String::new()
        },
        ..WriteOptions::default()
    };
    let out = registry::write_model(model, writer, &options).map_err(|e| e.to_string())?;
    let mut notes = out.warnings;
    notes.extend(out.notes);
    let main = format!("{stem}.{ext}");
    if out.side_files.is_empty() {
        return Ok(Download {
            name: main,
            bytes: out.bytes,
            notes,
        });
    }
    let mut files = vec![(main, out.bytes)];
    files.extend(out.side_files.into_iter().map(|f| (f.name, f.bytes)));
    Ok(Download {
        name: format!("{stem}_{ext}.zip"),
        bytes: zip_files(&files)?,
        notes,
    })
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
