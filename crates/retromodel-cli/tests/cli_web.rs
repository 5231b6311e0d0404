//! `retromodel web`: the server the browser app runs from. The real app and module are
//! tested in Chromium by `.ci/web_test.mjs`; here a stand-in app folder checks what the
//! server sends: the page, the module as `application/wasm`, a folder's models, a model's
//! bundle of side files, its bytes, and nothing outside the app folder.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};

mod common;

use common::{bin, run, s, sample, text, write_file};

const WASM: &[u8] = b"\0asm\x01\0\0\0";

fn app_dir(dir: &Path) -> std::path::PathBuf {
    let app = dir.join("app");
    std::fs::create_dir_all(app.join("pkg")).unwrap();
    write_file(
        &app,
        "index.html",
        "<!doctype html><title>retromodel</title>",
    );
    write_file(&app, "app.js", "// app");
    write_file(&app.join("pkg"), "retromodel_web_bg.wasm", WASM);
    app
}

/// A running server and its address (`127.0.0.1:PORT`); killed when dropped.
struct Server(Child, String);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn serve(args: &[&str]) -> Server {
    serve_with(bin(), args)
}

/// Starts `command web ARGS --port 0` and reads the address from its first line.
fn serve_with(mut command: Command, args: &[&str]) -> Server {
    command
        .arg("web")
        .args(args)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // A binary just copied (the installed-binary test) can be "busy" for a moment: another
    // test thread's fork may still hold the copy's write descriptor until it execs.
    let mut tries = 0;
    let mut child = loop {
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => break other.unwrap(),
        }
    };
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    Server(child, addr)
}

/// GET `path`: status, content type, body.
fn get(server: &Server, path: &str) -> (u16, String, Vec<u8>) {
    get_from(server, path, &server.1)
}

/// GET `path` with the Host header `host`.
fn get_from(server: &Server, path: &str, host: &str) -> (u16, String, Vec<u8>) {
    let mut c = TcpStream::connect(&server.1).unwrap();
    write!(c, "GET {path} HTTP/1.0\r\nHost: {host}\r\n\r\n").unwrap();
    let mut all = Vec::new();
    c.read_to_end(&mut all).unwrap();
    let split = all.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&all[..split]).to_string();
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    let kind = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-type")
                .then(|| v.trim().to_string())
        })
        .unwrap_or_default();
    (status, kind, all[split + 4..].to_vec())
}

#[test]
fn serves_the_page_and_the_module() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_dir(dir.path());
    let server = serve(&["--app", s(&app)]);
    let (status, kind, body) = get(&server, "/");
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/html"), "{kind}");
    assert!(text(&body).contains("<title>retromodel"));
    let (status, kind, body) = get(&server, "/pkg/retromodel_web_bg.wasm");
    assert_eq!(
        (status, kind.as_str(), &body[..]),
        (200, "application/wasm", WASM)
    );
    let (status, kind, _) = get(&server, "/app.js");
    assert_eq!(
        (status, kind.as_str()),
        (200, "text/javascript; charset=utf-8")
    );
    // Nothing served: the page learns it from a 204 and opens local files only.
    assert_eq!(get(&server, "/api/models").0, 204);
    assert_eq!(get(&server, "/files/x.mdl").0, 404);
    // Never a file outside the app folder.
    write_file(dir.path(), "secret.txt", "no");
    assert_eq!(get(&server, "/../secret.txt").0, 404);
    assert_eq!(get(&server, "/%2e%2e/secret.txt").0, 404);
    assert_eq!(get(&server, "/..%5csecret.txt").0, 404);
    // Odd paths are refused, and the server stays up.
    assert_eq!(get(&server, "%C3%A9").0, 404);
    assert_eq!(get(&server, "/").0, 200);
    // Only pages from the server's own address (a rebound DNS name gets nothing).
    assert_eq!(get_from(&server, "/", "evil.example:80").0, 403);
    let port = server.1.rsplit(':').next().unwrap();
    assert_eq!(get_from(&server, "/", &format!("localhost:{port}")).0, 200);
}

#[test]
fn lists_a_folders_models_and_bundles_their_side_files() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_dir(dir.path());
    let models = dir.path().join("game");
    std::fs::create_dir_all(models.join("progs")).unwrap();
    let mdl = sample(&models.join("progs"), "thing.mdl");
    // An MD2 whose skin path is a game path, found from the folder's root.
    run(&["sample", s(&models.join("progs/walker.md2"))]);
    std::fs::create_dir_all(models.join("gfx")).unwrap();
    write_file(&models.join("gfx"), "palette.lmp", vec![7u8; 768]);
    write_file(&models, "readme.txt", "not a model");
    let server = serve(&[s(&models), "--app", s(&app)]);
    let (status, kind, body) = get(&server, "/api/models");
    assert_eq!((status, kind.as_str()), (200, "application/json"));
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let paths: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["progs/thing.mdl", "progs/walker.md2"]);
    assert_eq!(
        list[0]["size"].as_u64(),
        Some(std::fs::metadata(&mdl).unwrap().len())
    );
    // The Quake MDL's bundle: the model and the palette its conversion read.
    let (status, _, body) = get(&server, "/api/bundle?model=progs%2Fthing.mdl");
    assert_eq!(status, 200, "{}", text(&body));
    let bundle: Vec<String> = serde_json::from_slice(&body).unwrap();
    assert_eq!(bundle, ["progs/thing.mdl", "gfx/palette.lmp"]);
    let (status, _, body) = get(&server, "/files/progs/thing.mdl");
    assert_eq!((status, body), (200, std::fs::read(&mdl).unwrap()));
    assert_eq!(get(&server, "/files/progs/none.mdl").0, 404);
    // No hidden files of the served tree.
    std::fs::create_dir_all(models.join(".git")).unwrap();
    write_file(&models.join(".git"), "config", "secret");
    assert_eq!(get(&server, "/files/.git/config").0, 404);
    assert_eq!(get(&server, "/api/bundle?model=progs/none.mdl").0, 404);
}

#[test]
fn game_dir_supplies_side_files_the_tree_lacks() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_dir(dir.path());
    // A mod's folder with a model, and the game's folder with the palette it needs.
    let models = dir.path().join("mod");
    std::fs::create_dir_all(models.join("progs")).unwrap();
    sample(&models.join("progs"), "thing.mdl");
    let game = dir.path().join("id1");
    std::fs::create_dir_all(game.join("gfx")).unwrap();
    let palette = write_file(&game.join("gfx"), "palette.lmp", vec![9u8; 768]);
    let without = serve(&[s(&models), "--app", s(&app)]);
    let (_, _, body) = get(&without, "/api/bundle?model=progs%2Fthing.mdl");
    let bundle: Vec<String> = serde_json::from_slice(&body).unwrap();
    assert_eq!(bundle, ["progs/thing.mdl"]);
    drop(without);
    let server = serve(&[s(&models), "--app", s(&app), "--game-dir", s(&game)]);
    let (status, _, body) = get(&server, "/api/bundle?model=progs%2Fthing.mdl");
    assert_eq!(status, 200, "{}", text(&body));
    let bundle: Vec<String> = serde_json::from_slice(&body).unwrap();
    assert_eq!(bundle, ["progs/thing.mdl", "gfx/palette.lmp"]);
    let (status, _, body) = get(&server, "/files/gfx/palette.lmp");
    assert_eq!((status, body), (200, std::fs::read(&palette).unwrap()));
    // --game-dir without PATH is refused with the reason.
    let out = run(&[
        "web",
        "--game-dir",
        s(&game),
        "--app",
        s(&app),
        "--port",
        "0",
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("give PATH too"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn says_how_to_build_the_app_when_it_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let app = dir.path().join("app");
    std::fs::create_dir_all(&app).unwrap();
    write_file(&app, "index.html", "<!doctype html>");
    let out = run(&["web", "--app", s(&app), "--port", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("not built") && err.contains("web/build.sh"),
        "{err}"
    );
    let out = run(&["web", "--app", s(&dir.path().join("none")), "--port", "0"]);
    assert!(
        text(&out.stderr).contains("the web app was not found"),
        "{}",
        text(&out.stderr)
    );
}

/// The sorted model paths the server at `path` lists.
fn served_models(app: &Path, path: &str) -> Vec<String> {
    let server = serve(&[path, "--app", s(app)]);
    let (status, _, body) = get(&server, "/api/models");
    assert_eq!(status, 200);
    let list: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let mut paths: Vec<String> = common::strings(&list, "path")
        .into_iter()
        .map(String::from)
        .collect();
    paths.sort();
    paths
}

#[test]
fn a_game_folders_archives_are_listed_as_ls_lists_them() {
    let dir = tempfile::tempdir().unwrap();
    let app = app_dir(dir.path());
    let game = common::game_folder_with_archives(dir.path(), "game");
    let listed = common::ls_models(&game);
    assert!(
        listed.contains(&"progs/zipped.mdl".to_string()),
        "{listed:?}"
    );
    assert_eq!(served_models(&app, s(&game)), listed);
    // A model inside the archive is served with its bytes.
    let server = serve(&[s(&game), "--app", s(&app)]);
    let (status, _, body) = get(&server, "/files/progs/zipped.mdl");
    assert_eq!(status, 200);
    assert_eq!(body, retromodel::formats::quake_mdl::fixtures::minimal());
    // ARCHIVE:FOLDER: that folder's models, as ls lists them.
    let folder = format!("{}:models", s(&game.join("pak0.pk3")));
    assert_eq!(served_models(&app, &folder), ["models/walker/tris.md2"]);
}

#[test]
fn corpus_game_folder_is_listed_as_ls_lists_it() {
    let Some(corpus) = common::corpus("web on the corpus game folder") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let app = app_dir(dir.path());
    let game = corpus.join("archives/debian-openarena-data/missionpack");
    let listed = common::ls_models(&game);
    assert!(!listed.is_empty());
    assert_eq!(served_models(&app, s(&game)), listed);
}

/// An installed binary (`cargo install` copies it to ~/.cargo/bin) has no app folder beside
/// it and no source tree above it: it serves the app that build.rs embedded when web/pkg was
/// built, or says that it was built without it.
#[test]
fn an_installed_binary_serves_its_embedded_app() {
    let dir = tempfile::tempdir().unwrap();
    // Deep enough that neither bin/web nor the folder two up holds an app.
    let bin_dir = dir.path().join("home/.cargo/bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    let installed = bin_dir.join("retromodel");
    std::fs::copy(env!("CARGO_BIN_EXE_retromodel"), &installed).unwrap();
    let command = || {
        let mut c = Command::new(&installed);
        c.current_dir(dir.path()).env_remove("RETROMODEL_WEB_DIR");
        c
    };
    let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web");
    if !web.join("pkg/retromodel_web_bg.wasm").is_file() {
        let out = command().args(["web", "--port", "0"]).output().unwrap();
        assert_eq!(out.status.code(), Some(1));
        let err = text(&out.stderr);
        assert!(
            err.contains("built without it") && err.contains("web/build.sh"),
            "{err}"
        );
        println!("web/pkg is not built (bash web/build.sh): the embedded app is not tested");
        return;
    }
    let server = serve_with(command(), &[]);
    let (status, kind, body) = get(&server, "/");
    assert_eq!((status, kind.as_str()), (200, "text/html; charset=utf-8"));
    assert_eq!(body, std::fs::read(web.join("index.html")).unwrap());
    let (status, kind, body) = get(&server, "/pkg/retromodel_web_bg.wasm");
    assert_eq!((status, kind.as_str()), (200, "application/wasm"));
    assert_eq!(
        body,
        std::fs::read(web.join("pkg/retromodel_web_bg.wasm")).unwrap()
    );
    for (path, kind) in [
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/style.css", "text/css; charset=utf-8"),
        ("/pkg/retromodel_web.js", "text/javascript; charset=utf-8"),
    ] {
        let (status, got, _) = get(&server, path);
        assert_eq!((status, got.as_str()), (200, kind), "{path}");
    }
    // Only the app's files: not its build script, nothing outside.
    assert_eq!(get(&server, "/build.sh").0, 404);
    assert_eq!(get(&server, "/../Cargo.toml").0, 404);
}
