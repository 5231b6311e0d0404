//! The web module's way in and out, run natively: what the page does when a folder is
//! dropped, a model opened and exported. `.ci/parity.py` compares what it writes with the
//! command line's and the Python package's files.
//!
//! ```text
//! web_export --list
//! web_export ROOT MODEL OUT_DIR FORMAT... [--scale X] [--fps F] [--quantize] [--prefer-md5] [--rerelease]
//! ```
//!
//! ROOT is the folder dropped (its files are added with their paths below it), MODEL the
//! model's path below ROOT, FORMAT an export id (`glb`, `mdl:quake`, ...). Each format's files
//! go to `OUT_DIR/FORMAT/` (`:` as `_`), named after the model's stem.

use std::path::{Path, PathBuf};

use retromodel::front::{OpenOptions, SaveOptions};
use retromodel_web::{export_files, export_formats, stem_of, Workspace};

/// Every file under `dir`, with its `/`-separated path below `root`.
fn walk(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            walk(root, &p, out);
        } else if let Ok(rel) = p.strip_prefix(root) {
            let rel = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push((rel, p));
        }
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--list") {
        for (id, _) in export_formats() {
            println!("{id}");
        }
        return Ok(());
    }
    let mut options = SaveOptions::default();
    let mut open = OpenOptions::default();
    let mut plain = Vec::new();
    let mut it = args.into_iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().ok_or(format!("{a}: give a value"));
        match a.as_str() {
            "--scale" => options.scale = Some(value()?.parse().map_err(|e| format!("{e}"))?),
            "--fps" => {
                let fps = value()?.parse().map_err(|e| format!("{e}"))?;
                // As the command line's --fps: glTF animations sampled at it, and the rate
                // written.
                options.fps = Some(fps);
                open.fps = Some(fps);
            }
            "--quantize" => options.quantize = true,
            "--rerelease" => options.rerelease = true,
            "--prefer-md5" => open.prefer_md5 = true,
            _ => plain.push(a),
        }
    }
    let [root, model, out, formats @ ..] = plain.as_slice() else {
        return Err("usage: web_export ROOT MODEL OUT_DIR FORMAT...".into());
    };
    let root = Path::new(root);
    let mut files = Vec::new();
    walk(root, root, &mut files);
    let mut ws = Workspace::new();
    for (rel, path) in files {
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        // An archive that does not open stays out, as on the page (its error shown there).
        let _ = ws.add(&rel, bytes);
    }
    let opened = ws.open_with(model, &open)?;
    for format in formats {
        let dir = Path::new(out).join(format.replace(':', "_"));
        match export_files(&opened.opened, stem_of(model), format, &options) {
            Ok((files, _)) => {
                for (name, bytes) in files {
                    let p = dir.join(name);
                    std::fs::create_dir_all(p.parent().unwrap_or(&dir))
                        .map_err(|e| e.to_string())?;
                    std::fs::write(&p, bytes).map_err(|e| format!("{}: {e}", p.display()))?;
                }
            }
            Err(e) => {
                std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
                std::fs::write(dir.join("ERROR"), e).map_err(|e| e.to_string())?;
            }
        }
    }
    Ok(())
}
