//! `retromodel web`: serves the browser app (web/) on 127.0.0.1, and the models of a folder
//! or archive for it to browse.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Arc, Mutex};

use anyhow::{anyhow, bail, Result};
use retromodel::vfs::{GameFs, GameFsResolver};
use retromodel::{inputs, Document, Limits, Resolver};
use serde_json::json;

use crate::files;

/// Serve the web viewer on http://127.0.0.1:PORT/: open or drop model files in the page (they
/// never leave the browser), play their clips, export them. Given a folder, an archive
/// (.pak/.pk3/.pk4/.zip) or a model file, the page also lists its models and opens them one
/// after another, each with the skins, palettes and animations it needs.
///
/// The app's files (index.html, app.js, style.css and pkg/ with the WebAssembly module) are
/// read from --app DIR, else $RETROMODEL_WEB_DIR, else a `web` folder beside the executable,
/// else the source tree's `web/` when the executable is target/<profile>/retromodel, else
/// the copy embedded in the binary: there when `bash web/build.sh` had built pkg/ before
/// the binary was built (as for `cargo install --path crates/retromodel-cli`).
///
/// Examples:
///   retromodel web                          # open files from the page
///   retromodel web baseoa/pak0.pk3 --port 8000
///   retromodel web id1/progs/ogre.mdl       # serves its folder, opens the model
///   retromodel web mymod/models/ --game-dir baseq2   # skins from the game's pak files
#[derive(clap::Args)]
#[command(
    verbatim_doc_comment,
    about = "Serve the web viewer on 127.0.0.1: open, play and export models in the browser, or browse a folder or archive"
)]
pub struct Args {
    /// A folder, an archive or a model file to browse.
    path: Option<PathBuf>,
    /// The port on 127.0.0.1 (0: any free port).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// The app's folder (index.html and pkg/).
    #[arg(long, value_name = "DIR")]
    app: Option<PathBuf>,
    /// A game's data folder (baseq2, baseoa, base) whose files, archives included, the
    /// served models' side files (skins, palettes, shader scripts) are also looked for in,
    /// after the served tree's own, as `convert --game-dir` does. Repeat it for a mod over
    /// its game (the last one wins).
    #[arg(long, value_name = "DIR")]
    game_dir: Vec<PathBuf>,
    /// Open a Quake II .md2 or Quake .mdl through its re-release MD5 replacement when the
    /// engine would use it, as `convert --prefer md5` does (md5/NAME.md5mesh, .md5anim and
    /// .md5scale beside an MD2; NAME.md5mesh and .md5anim beside an MDL); the page then fetches
    /// those files with the model. Without a served PATH, add ?prefer=md5 to the page's address.
    #[arg(long, value_name = "KIND", value_parser = ["md5"])]
    prefer: Option<String>,
}

/// The web app's files compiled into the binary when its source tree had web/pkg built
/// (`build.rs`).
mod embedded {
    include!(concat!(env!("OUT_DIR"), "/web_app.rs"));
}

/// Where the app's files come from.
enum App {
    /// A folder with index.html and pkg/.
    Dir(PathBuf),
    /// The files embedded in the binary ([`embedded::FILES`]).
    Embedded,
}

impl App {
    /// The app's file at `rel` (a plain relative path).
    fn read(&self, rel: &str) -> Option<Cow<'static, [u8]>> {
        match self {
            App::Dir(dir) => std::fs::read(dir.join(rel)).ok().map(Cow::Owned),
            App::Embedded => embedded::FILES
                .iter()
                .find(|(path, _)| *path == rel)
                .map(|(_, bytes)| Cow::Borrowed(*bytes)),
        }
    }

    /// Where the files come from, in words.
    fn describe(&self) -> String {
        match self {
            App::Dir(dir) => dir.display().to_string(),
            App::Embedded => "embedded in the binary".to_string(),
        }
    }
}

/// The app: the first candidate folder with index.html and the built module, else the
/// embedded copy. A folder given with --app is the only candidate.
fn find_app(arg: Option<&Path>) -> Result<App> {
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(a) = arg {
        candidates.push(a.to_path_buf());
    } else {
        if let Some(d) = std::env::var_os("RETROMODEL_WEB_DIR") {
            candidates.push(PathBuf::from(d));
        }
        if let Some(exe_dir) = std::env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf))
        {
            candidates.push(exe_dir.join("web"));
            if let Some(root) = exe_dir.parent().and_then(Path::parent) {
                candidates.push(root.join("web"));
            }
        }
    }
    // The first folder with a page but no module: said if nothing else serves.
    let mut unbuilt = None;
    for c in &candidates {
        if c.join("index.html").is_file() {
            if c.join("pkg/retromodel_web_bg.wasm").is_file() {
                return Ok(App::Dir(c.clone()));
            }
            unbuilt.get_or_insert(c);
        }
    }
    if arg.is_none() && !embedded::FILES.is_empty() {
        return Ok(App::Embedded);
    }
    if let Some(c) = unbuilt {
        bail!(
            "{}: the web app's module is not built (pkg/retromodel_web_bg.wasm); run `bash web/build.sh` in the source tree",
            c.display()
        );
    }
    let tried: Vec<String> = candidates.iter().map(|c| c.display().to_string()).collect();
    if arg.is_some() {
        bail!(
            "the web app was not found (looked in: {}); pass the folder with index.html and pkg/",
            tried.join(", ")
        )
    }
    bail!(
        "the web app was not found (looked in: {}), and this binary was built without it \
         (web/pkg was not built: run `bash web/build.sh` before `cargo build` or `cargo install`); \
         pass --app DIR or set RETROMODEL_WEB_DIR",
        tried.join(", ")
    )
}

/// What PATH serves: its tree, the models it lists (tree paths and sizes), and the model to
/// open first (PATH was a model file).
struct Served {
    fs: Arc<GameFs>,
    /// The `--game-dir` folders mounted, searched after `fs` for side files.
    game: Option<GameFs>,
    models: Vec<(String, u64)>,
    open: Option<String>,
    /// `--prefer md5`.
    prefer_md5: bool,
}

/// The tree PATH shows and the models it names, as every command reads a path
/// ([`retromodel::inputs`]); a model file shows its folder's models.
fn serve_tree(path: &Path, game_dirs: &[PathBuf]) -> Result<Served> {
    let archives = files::archives();
    let tree = inputs::tree_of(archives, path)?;
    let root = match (&tree.file, retromodel::vfs::split_archive_path(path)) {
        (None, _) => path.to_path_buf(),
        (Some(_), Some((archive, _))) => retromodel::vfs::archive_path(&archive, &tree.prefix),
        (Some(_), None) => path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .to_path_buf(),
    };
    let exts = retromodel::registry::viewable_extensions();
    let models = inputs::collect(archives, std::slice::from_ref(&root), &[])
        .into_iter()
        .filter_map(|input| {
            let tree_path = match input.inner_path() {
                Some(inner) => inner.to_string(),
                None => input
                    .relative
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/"),
            };
            let viewable = tree_path
                .rsplit_once('.')
                .is_some_and(|(_, e)| exts.iter().any(|x| x.eq_ignore_ascii_case(e)));
            viewable.then(|| (tree_path, input.size()))
        })
        .collect();
    let game = if game_dirs.is_empty() {
        None
    } else {
        let mut fs = files::new_game_fs();
        for dir in game_dirs {
            fs.mount_game_dir(dir)?;
        }
        Some(fs)
    };
    Ok(Served {
        prefer_md5: false,
        game,
        fs: tree.fs,
        models,
        open: tree.file,
    })
}

/// A resolver that notes the tree path of every side file it finds: in the served tree,
/// else in the `--game-dir` folders (served under the same paths, after the tree's own).
struct Recording<'a> {
    inner: GameFsResolver<'a>,
    fs: &'a GameFs,
    game: Option<(&'a GameFs, GameFsResolver<'a>)>,
    found: Mutex<Vec<String>>,
}

impl Resolver for Recording<'_> {
    fn load(&self, name: &str) -> Option<Vec<u8>> {
        let in_tree = self
            .inner
            .candidates(name)
            .into_iter()
            .find(|p| self.fs.contains(p))
            .map(|p| (self.fs, p));
        let (fs, path) = in_tree.or_else(|| {
            let (fs, resolver) = self.game.as_ref()?;
            let p = resolver
                .candidates(name)
                .into_iter()
                .find(|p| fs.contains(p))?;
            Some((*fs, p))
        })?;
        let bytes = fs.read(&path)?.ok()?;
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if !found.contains(&path) {
            found.push(path);
        }
        Some(bytes)
    }
    fn list(&self, extension: &str) -> Vec<String> {
        let mut out = self.inner.list(extension);
        if let Some((_, game)) = &self.game {
            for name in game.list(extension) {
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        out
    }
    fn list_in(&self, dir: &str, extension: &str) -> Vec<String> {
        // Shader scripts and materials of the game's archives too (`scripts/*.shader`).
        let mut out = self.inner.list_in(dir, extension);
        if let Some((_, game)) = &self.game {
            for name in game.list_in(dir, extension) {
                if !out.contains(&name) {
                    out.push(name);
                }
            }
        }
        out
    }
    fn model_name(&self) -> Option<String> {
        self.inner.model_name()
    }
    fn search_layer(&self, name: &str) -> Option<usize> {
        self.inner.search_layer(name)
    }
    fn load_path(&self, name: &str) -> Option<Vec<u8>> {
        let path = self.inner.exact(name)?;
        let fs = if self.fs.contains(&path) {
            self.fs
        } else {
            let (game, _) = self.game.as_ref()?;
            game.contains(&path).then_some(*game)?
        };
        let bytes = fs.read(&path)?.ok()?;
        let mut found = self.found.lock().unwrap_or_else(|e| e.into_inner());
        if !found.contains(&path) {
            found.push(path);
        }
        Some(bytes)
    }
}

/// The model at `path` and the side files its conversion reads, as tree paths.
fn bundle(served: &Served, path: &str) -> Result<Vec<String>> {
    let fs = served.fs.as_ref();
    let bytes = fs
        .read(path)
        .ok_or_else(|| anyhow!("{path}: no such file"))??;
    let mut out = vec![path.to_string()];
    // A file that does not parse is still sent: the page shows the library's error.
    if let Ok(doc) = Document::parse(&bytes, &Limits::default()) {
        let recording = Recording {
            inner: GameFsResolver::new(fs, path),
            fs,
            game: served
                .game
                .as_ref()
                .map(|g| (g, GameFsResolver::new(g, path))),
            found: Mutex::new(Vec::new()),
        };
        let options = retromodel::ConvertOptions {
            prefer_md5: served.prefer_md5,
            ..Default::default()
        };
        let _ = doc.to_model(&options, &recording);
        for p in recording.found.into_inner().unwrap_or_default() {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    Ok(out)
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, e)| e) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}

/// Percent-decoding of a URL path or query value.
fn decode(s: &str) -> String {
    let hex = |c: u8| (c as char).to_digit(16);
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            if let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2])) {
                out.push((h * 16 + l) as u8);
                i += 3;
                continue;
            }
        }
        out.push(if b[i] == b'+' { b' ' } else { b[i] });
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Whether `rel` is a plain relative path: `/`-separated names, none empty, hidden
/// (leading `.`) or holding a backslash or a colon.
fn safe_components(rel: &str) -> bool {
    rel.split('/')
        .all(|c| !c.is_empty() && !c.starts_with('.') && !c.contains(['\\', ':']))
}

type Reply = (u16, &'static str, Vec<u8>);

fn text(status: u16, t: impl Into<String>) -> Reply {
    (status, "text/plain; charset=utf-8", t.into().into_bytes())
}

fn json_reply(v: serde_json::Value) -> Reply {
    (200, "application/json", v.to_string().into_bytes())
}

/// The reply to a GET of `url`.
fn answer(url: &str, app: &App, served: Option<&Served>) -> Reply {
    let (path, query) = url.split_once('?').unwrap_or((url, ""));
    let query_value = |key: &str| {
        query
            .split('&')
            .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
            .map(decode)
    };
    let path = decode(path);
    match path.as_str() {
        "/api/models" => {
            // 204 when nothing is served: the page then only opens local files.
            let Some(s) = served else {
                return (204, "text/plain", Vec::new());
            };
            let list: Vec<_> = s
                .models
                .iter()
                .map(|(path, size)| json!({"path": path, "size": size}))
                .collect();
            json_reply(serde_json::Value::Array(list))
        }
        "/api/options" => {
            let prefer = served.is_some_and(|s| s.prefer_md5).then_some("md5");
            json_reply(json!({ "prefer": prefer }))
        }
        "/api/bundle" => {
            let (Some(s), Some(model)) = (served, query_value("model")) else {
                return text(
                    400,
                    "api/bundle?model=PATH needs a served folder or archive",
                );
            };
            match bundle(s, &model) {
                Ok(list) => json_reply(json!(list)),
                Err(e) => text(404, format!("{e:#}")),
            }
        }
        p if p.starts_with("/files/") => {
            let Some(s) = served else {
                return text(404, "no folder or archive is served");
            };
            let inner = &p["/files/".len()..];
            // No hidden files (`.ssh/`, `.git/`) of the served tree.
            if !safe_components(inner) {
                return text(404, "not found");
            }
            let read =
                s.fs.read(inner)
                    .or_else(|| s.game.as_ref().and_then(|g| g.read(inner)));
            match read {
                Some(Ok(bytes)) => (200, "application/octet-stream", bytes),
                Some(Err(e)) => text(500, e.to_string()),
                None => text(404, format!("{inner}: no such file")),
            }
        }
        p => {
            let rel = if p == "/" {
                "index.html"
            } else {
                p.strip_prefix('/').unwrap_or("")
            };
            // Only the app's own files, never a path out of its folder.
            if !safe_components(rel) {
                return text(404, "not found");
            }
            match app.read(rel) {
                Some(bytes) => (200, content_type(rel), bytes.into_owned()),
                None => text(404, format!("{rel}: not found")),
            }
        }
    }
}

/// Runs the command.
pub fn run(args: Args) -> Result<ExitCode> {
    // Side files are looked up ignoring case (mods made on Windows).
    files::set_ignore_case(true);
    let app = find_app(args.app.as_deref())?;
    if !args.game_dir.is_empty() && args.path.is_none() {
        bail!(
            "--game-dir finds the side files of a served folder, archive or model: give PATH too"
        );
    }
    let served = args
        .path
        .as_deref()
        .map(|p| {
            serve_tree(p, &args.game_dir).map(|s| Served {
                prefer_md5: args.prefer.as_deref() == Some("md5"),
                ..s
            })
        })
        .transpose()?;
    let server = tiny_http::Server::http(("127.0.0.1", args.port))
        .map_err(|e| anyhow!("cannot listen on 127.0.0.1:{}: {e}", args.port))?;
    let addr = server
        .server_addr()
        .to_ip()
        .ok_or_else(|| anyhow!("the server has no IP address"))?;
    let mut url = format!("http://{addr}/");
    if let Some(open) = served.as_ref().and_then(|s| s.open.as_ref()) {
        let encoded: String = open
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'/' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect();
        url.push_str(&format!("?open={encoded}"));
    }
    outln!("retromodel web: serving {url} (app: {})", app.describe());
    if let Some(s) = &served {
        let n = answer("/api/models", &app, Some(s)).2;
        let count = serde_json::from_slice::<serde_json::Value>(&n)
            .ok()
            .and_then(|v| v.as_array().map(Vec::len))
            .unwrap_or(0);
        outln!(
            "{}: {count} models; press Ctrl-C to stop",
            args.path.as_deref().unwrap_or(Path::new("")).display()
        );
    } else {
        outln!("open model files in the page; press Ctrl-C to stop");
    }
    let served = Arc::new(served);
    let port = addr.port();
    let hosts = [format!("127.0.0.1:{port}"), format!("localhost:{port}")];
    for request in server.incoming_requests() {
        // Only pages loaded from this server's own address (no DNS rebinding).
        let host_ok = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .is_some_and(|h| hosts.iter().any(|x| h.value.as_str() == x));
        let reply = if !host_ok {
            text(
                403,
                "Host must be this server's 127.0.0.1 or localhost address",
            )
        } else if *request.method() == tiny_http::Method::Get {
            answer(request.url(), &app, served.as_ref().as_ref())
        } else {
            text(405, "only GET")
        };
        let (status, kind, body) = reply;
        let header = tiny_http::Header::from_bytes(&b"Content-Type"[..], kind.as_bytes())
            .expect("a valid header");
        let response = tiny_http::Response::from_data(body)
            .with_status_code(status)
            .with_header(header);
        let _ = request.respond(response);
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::{bundle, decode, serve_tree, Served};

    /// `--prefer md5`: a served MD2's bundle carries its re-release files.
    #[test]
    fn bundle_of_a_preferred_pair_carries_the_md5_files() {
        let dir = std::env::temp_dir().join(format!("rm-web-pair-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("md5")).unwrap();
        let md5 = retromodel::formats::md5::fixtures::all();
        let get = |n: &str| md5.iter().find(|(f, _)| *f == n).unwrap().1.clone();
        let md2 = retromodel::formats::md2::fixtures::minimal();
        std::fs::write(dir.join("tris.md2"), md2).unwrap();
        std::fs::write(dir.join("md5/tris.md5mesh"), get("skeleton.md5mesh")).unwrap();
        std::fs::write(dir.join("md5/tris.md5anim"), get("wave.md5anim")).unwrap();
        std::fs::write(dir.join("md5/tris.md5scale"), br#"{ "arm": { "0": 0 } }"#).unwrap();
        let served = serve_tree(&dir, &[]).unwrap();
        let plain = bundle(&served, "tris.md2").unwrap();
        assert!(!plain.iter().any(|p| p.contains("md5")), "{plain:?}");
        let preferred = Served {
            prefer_md5: true,
            ..served
        };
        let list = bundle(&preferred, "tris.md2").unwrap();
        for f in ["md5/tris.md5mesh", "md5/tris.md5anim", "md5/tris.md5scale"] {
            assert!(list.iter().any(|p| p.ends_with(f)), "{f} not in {list:?}");
        }
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn percent_decoding() {
        assert_eq!(decode("a%20b%2Fc"), "a b/c");
        assert_eq!(decode("models%2fogre.mdl"), "models/ogre.mdl");
        assert_eq!(decode("bad%2"), "bad%2");
        assert_eq!(decode("%zz"), "%zz");
    }
}
