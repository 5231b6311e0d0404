//! Embeds the web app in the binary when the source tree has it built: with
//! `web/pkg/retromodel_web_bg.wasm` present (`bash web/build.sh`), every file of `web/` (less
//! the build script) becomes an `include_bytes!` in `$OUT_DIR/web_app.rs`, and `retromodel
//! web` serves them when it finds no app folder, so an installed binary (`cargo install`)
//! needs nothing beside it. Without the module the list is empty and `retromodel web` needs
//! `--app DIR`.

use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("web_app.rs");
    let web = manifest.join("../../web");
    let mut files = Vec::new();
    if web.is_dir() {
        // The whole folder, pkg/ included (cargo compares the newest time under it), so a
        // new `web/build.sh` run or an edited page embeds the new files.
        println!("cargo:rerun-if-changed={}", web.display());
        if web.join("pkg/retromodel_web_bg.wasm").is_file() && web.join("index.html").is_file() {
            collect(&web, "", &mut files);
        } else {
            println!(
                "cargo:warning=web/pkg is not built (bash web/build.sh): `retromodel web` will need --app DIR"
            );
        }
    } else {
        // Not a source tree (a packaged crate): nothing to embed, nothing to watch.
        println!("cargo:rerun-if-changed=build.rs");
    }
    files.sort();
    let mut code = String::from(
        "/// The web app's files embedded at build time (`build.rs`): the path under the app\n\
         /// folder and the bytes; empty when web/pkg was not built.\n\
         pub static FILES: &[(&str, &[u8])] = &[\n",
    );
    for (rel, path) in &files {
        let path = path.canonicalize().unwrap_or_else(|_| path.clone());
        code.push_str(&format!(
            "    ({rel:?}, include_bytes!({:?})),\n",
            path.to_string_lossy()
        ));
    }
    code.push_str("];\n");
    std::fs::write(&out, code).expect("OUT_DIR is writable");
}

/// Every file under `dir` that the app serves, as (path under web/, file): not the build
/// script, no hidden files.
fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name.ends_with(".sh") || name.ends_with(".md") {
            continue;
        }
        let rel = format!("{prefix}{name}");
        let path = entry.path();
        if path.is_dir() {
            collect(&path, &format!("{rel}/"), out);
        } else if path.is_file() {
            out.push((rel, path));
        }
    }
}
