//! Inputs made by modern tools: glTF 2.0 (`.glb`, `.gltf`) and Wavefront OBJ, read into a
//! Model that any writer takes.

use std::path::Path;

use anyhow::{Context, Result};
use retromodel::import::{self, ImportOptions};
use retromodel::model::Skin;
use retromodel::{Converted, Limits, Model};

use super::Args;
use crate::commands::resolver;
use crate::files;

/// Imports `bytes` (the file at `path`) as `kind` ("gltf" or "obj"); buffers, textures and
/// material libraries are looked for beside it.
pub(super) fn read(args: &Args, path: &Path, bytes: &[u8], kind: &str) -> Result<Converted> {
    let side = args.side.load()?;
    let files = resolver(path, &side);
    let options = ImportOptions {
        fps: args.fps,
        skip_textures: args.skin.is_some(),
        limits: Limits::default(),
    };
    let converted = match kind {
        "obj" => import::obj::read(bytes, &files, &options),
        _ => import::gltf::read(bytes, &files, &options),
    };
    converted.with_context(|| path.display().to_string())
}

/// Replaces every skin of `model` with the picture at `path` (any format
/// `retromodel::image::decode` reads), on every mesh.
pub(super) fn replace_skin(model: &mut Model, path: &Path) -> Result<()> {
    let bytes = files::read(path)?;
    let limits = Limits::default();
    let picture = retromodel::image::decode(&bytes, &path.to_string_lossy(), &limits)
        .with_context(|| format!("--skin {}", path.display()))?;
    let size = [picture.width, picture.height];
    model.skins = vec![Skin {
        source: None,
        name: path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        pictures: vec![picture],
        picture_times: None,
    }];
    for m in &mut model.meshes {
        m.skin = Some(0);
        m.skin_size = Some(size);
    }
    Ok(())
}
