//! Operators' templates (`--templates DIR`): a folder of template files,
//! written here, served at `/canvas/custom/<name>` with their OpenAPI
//! operations, previews and metrics; `menagerie templates check` on broken
//! folders; a broken folder stopping the start; and reloads on SIGHUP and
//! on a change to the folder, a bad new set keeping the old one.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use actix_web::test::init_service;
use fixture_host::FixtureHost;
use server::{AppState, create_app};

use crate::support::cards::{self, enc, get, image_of};

/// A still template: a panel in a colour parameter, the avatar, a greeting.
fn hello(name: &str, greeting: &str) -> String {
    format!(
        r##"format = 1
name = "{name}"
description = "A greeting beside the avatar."
size = [400, 200]

[[param]]
name = "username"
type = "text"
max_chars = 32
default = "friend"
doc = "Who is greeted."

[[param]]
name = "accent"
type = "colour"
default = "#ffcf66"
doc = "The panel's colour."

[[layer]]
kind = "shape"
shape = "rounded(24)"
area = [0, 0, 400, 200]
paint = {{ param = "accent" }}

[[layer]]
kind = "avatar"
place = [{{ x = 20, y = 40, w = 120, h = 120 }}]
mask = "circle"

[[layer]]
kind = "text"
text = [{{ lit = "{greeting}, " }}, {{ param = "username" }}]
size = 36
min_size = 16
area = [160, 40, 220, 120]
valign = "middle"
"##
    )
}

fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn settings_for(dir: &Path) -> server::Settings {
    let mut s = cards::settings();
    s.templates = Some(dir.to_owned());
    s
}

#[actix_rt::test]
async fn a_file_template_is_served_documented_previewed_and_labelled() {
    let dir = folder(&[("hello.toml", &hello("hello", "Hello"))]);
    let host = FixtureHost::start();
    let app = init_service(create_app(
        AppState::load(settings_for(dir.path())).unwrap(),
    ))
    .await;
    let avatar = enc(&host.url("/ok.png"));

    let img = image_of(
        &get(
            &app,
            &format!("/canvas/custom/hello?avatar={avatar}&username=Ada"),
        )
        .await,
        "image/png",
    );
    assert_eq!(img.dimensions(), (400, 200));
    // The colour parameter paints the panel (a corner inside the rounding).
    let red = image_of(
        &get(
            &app,
            &format!("/canvas/custom/hello?avatar={avatar}&accent=FF0000"),
        )
        .await,
        "image/png",
    );
    assert_eq!(red.get_pixel(200, 190).0, [255, 0, 0, 255]);
    assert_ne!(img.get_pixel(200, 190).0, [255, 0, 0, 255]);
    // Its parameters are checked as a built-in's are.
    let long = "x".repeat(33);
    let msg = get(
        &app,
        &format!("/canvas/custom/hello?avatar={avatar}&username={long}"),
    )
    .await
    .assert_error(400);
    assert!(msg.contains("username"), "{msg}");
    get(
        &app,
        &format!("/canvas/custom/hello?avatar={avatar}&accent=nope"),
    )
    .await
    .assert_error(400);
    get(
        &app,
        &format!("/canvas/custom/hello?avatar={avatar}&username=a&username=b"),
    )
    .await
    .assert_error(400);
    get(&app, "/canvas/custom/hello").await.assert_error(400);
    get(&app, &format!("/canvas/custom/nope?avatar={avatar}"))
        .await
        .assert_error(404);

    // The document lists its operation, parameters from the file.
    let doc = get(&app, "/openapi.json").await.json();
    let op = &doc["paths"]["/canvas/custom/hello"]["get"];
    let names: Vec<&str> = op["parameters"]
        .as_array()
        .expect("the template's operation")
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["avatar", "username", "accent", "format", "quality"]);
    assert_eq!(op["summary"], "A greeting beside the avatar.");
    assert_eq!(op["x-preview"], "/previews/custom/hello.png");
    let username = &op["parameters"][1];
    assert_eq!(username["schema"]["maxLength"], 32);
    assert_eq!(username["schema"]["default"], "friend");

    // Its preview: the defaults over the sample avatar.
    let preview = image_of(&get(&app, "/previews/custom/hello.png").await, "image/png");
    assert_eq!(preview.dimensions(), (400, 200));
    get(&app, "/previews/custom/hello.gif")
        .await
        .assert_error(404);
    get(&app, "/previews/custom/nope.png")
        .await
        .assert_error(404);

    // Requests are counted under the template's own path.
    let metrics = String::from_utf8(get(&app, "/metrics").await.body.to_vec()).unwrap();
    assert!(
        metrics.contains(
            "menagerie_http_requests_total{route=\"/canvas/custom/hello\",status=\"200\"}"
        ),
        "{metrics}"
    );
    assert!(
        metrics.contains("menagerie_templates_loaded 1"),
        "{metrics}"
    );
}

#[actix_rt::test]
async fn the_etag_follows_the_files_not_the_process() {
    // Two servers (replicas) over the same files give one ETag; an edited
    // file gives another.
    let host = FixtureHost::start();
    let uri = format!("/canvas/custom/hello?avatar={}", enc(&host.url("/ok.png")));
    let mut tags = Vec::new();
    for greeting in ["Hello", "Hello", "Welcome"] {
        let dir = folder(&[("hello.toml", &hello("hello", greeting))]);
        let app = init_service(create_app(
            AppState::load(settings_for(dir.path())).unwrap(),
        ))
        .await;
        let r = get(&app, &uri).await;
        image_of(&r, "image/png");
        tags.push(r.header("etag").expect("an ETag").to_owned());
    }
    assert_eq!(tags[0], tags[1]);
    assert_ne!(tags[0], tags[2]);
}

#[actix_rt::test]
async fn without_a_folder_the_custom_path_is_404_and_documented_once() {
    let app = init_service(create_app(AppState::load(cards::settings()).unwrap())).await;
    get(
        &app,
        "/canvas/custom/hello?avatar=https%3A%2F%2Fexample.com%2Fa.png",
    )
    .await
    .assert_error(404);
    let doc = get(&app, "/openapi.json").await.json();
    let custom: Vec<&String> = doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|p| p.starts_with("/canvas/custom/"))
        .collect();
    assert_eq!(custom, ["/canvas/custom/{name}"]);
}

/// `menagerie templates check DIR`: status, stdout, stderr.
fn check(dir: &Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["templates", "check"])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn templates_check_names_file_and_line_of_every_error() {
    let good = folder(&[("hello.toml", &hello("hello", "Hello"))]);
    let (ok, stdout, _) = check(good.path());
    assert!(ok);
    assert!(stdout.contains("1 template(s) ok: hello"), "{stdout}");

    let unbounded = "format = 1\nname = \"unbounded\"\nsize = [100, 100]\n\n[[param]]\nname = \"n\"\ntype = \"int\"\ndoc = \"a number\"\n\n[[layer]]\nkind = \"avatar\"\nplace = [{ x = 0, y = 0, w = 100, h = 100 }]\n";
    let broken = folder(&[
        (
            "a-unknown.toml",
            "format = 1\nname = \"a\"\nsize = [100, 100]\ncolour = \"red\"\n",
        ),
        ("b-hello.toml", &hello("twice", "Hi")),
        ("c-hello.toml", &hello("twice", "Hey")),
        ("d-unbounded.toml", unbounded),
    ]);
    let (ok, _, stderr) = check(broken.path());
    assert!(!ok, "{stderr}");
    let line_of = |file: &str| {
        stderr
            .lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("no error names {file}: {stderr}"))
            .to_owned()
    };
    assert!(
        line_of("a-unknown.toml").contains("a-unknown.toml:4: colour:"),
        "{stderr}"
    );
    assert!(line_of("c-hello.toml").contains(":2: name:"), "{stderr}");
    assert!(
        line_of("d-unbounded.toml").contains("d-unbounded.toml:"),
        "{stderr}"
    );
    // A parameter named as one of the server's own.
    let own = hello("own", "Hi")
        .replace("name = \"username\"", "name = \"format\"")
        .replace("{ param = \"username\" }", "{ param = \"format\" }");
    let clash = folder(&[("e-own.toml", &own)]);
    let (ok, _, stderr) = check(clash.path());
    assert!(!ok);
    assert!(stderr.contains("e-own.toml: param: `format`"), "{stderr}");
    let (ok, _, stderr) = check(Path::new("/nonexistent/templates"));
    assert!(!ok);
    assert!(stderr.contains("/nonexistent/templates"), "{stderr}");
}

/// The binary over a templates folder.
struct Running {
    child: Child,
    addr: SocketAddr,
    _data: tempfile::TempDir,
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The binary over `dir`, looking at it every `poll_ms`.
fn command(dir: &Path, data: &Path, poll_ms: u64) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_menagerie"));
    cmd.args(["--bind", "127.0.0.1:0", "--log-level", "info"])
        .arg("--templates-poll-ms")
        .arg(poll_ms.to_string())
        .arg("--templates")
        .arg(dir)
        .arg("--data-dir")
        .arg(data)
        .env("NO_COLOR", "1")
        .env("MALLOC_ARENA_MAX", "2")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

fn start(dir: &Path, poll_ms: u64) -> Running {
    let data = tempfile::tempdir().unwrap();
    let mut child = command(dir, data.path(), poll_ms).spawn().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    for pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                if line.contains("listening")
                    && let Some(addr) = line
                        .split_whitespace()
                        .find_map(|w| w.strip_prefix("addr="))
                {
                    let _ = tx.send(addr.parse::<SocketAddr>().unwrap());
                }
            }
        });
    }
    let Ok(addr) = rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = child.kill();
        panic!("the server did not start listening");
    };
    Running {
        child,
        addr,
        _data: data,
    }
}

/// `GET path` on the running server: the status and body.
fn fetch(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_owned())
        .unwrap_or_default();
    (status, body)
}

/// The paths of the operators' templates the document lists.
fn documented(addr: SocketAddr) -> Vec<String> {
    let (status, body) = fetch(addr, "/openapi.json");
    assert_eq!(status, 200);
    let doc: serde_json::Value = serde_json::from_str(&body).unwrap();
    doc["paths"]
        .as_object()
        .unwrap()
        .keys()
        .filter(|p| p.starts_with("/canvas/custom/") && !p.contains('{'))
        .cloned()
        .collect()
}

/// Waits up to 10 s for `cond`.
fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn metric(addr: SocketAddr, name: &str) -> u64 {
    let (_, body) = fetch(addr, "/metrics");
    body.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn a_change_to_the_folder_reloads_and_a_bad_set_keeps_the_old() {
    let dir = folder(&[("hello.toml", &hello("hello", "Hello"))]);
    let server = start(dir.path(), 200);
    let addr = server.addr;
    assert_eq!(documented(addr), ["/canvas/custom/hello"]);
    assert_eq!(metric(addr, "menagerie_templates_loaded"), 1);

    // A new file is picked up by the watcher.
    std::fs::write(dir.path().join("bye.toml"), hello("bye", "Goodbye")).unwrap();
    eventually("bye is served", || documented(addr).len() == 2);
    assert_eq!(metric(addr, "menagerie_templates_loaded"), 2);

    // A broken file: the old set stays, the failure is counted.
    std::fs::write(
        dir.path().join("broken.toml"),
        "format = 1\nname = \"broken\n",
    )
    .unwrap();
    eventually("the failed reload is counted", || {
        metric(addr, "menagerie_templates_reload_errors_total") >= 1
    });
    assert_eq!(
        documented(addr),
        ["/canvas/custom/bye", "/canvas/custom/hello"]
    );
    assert_eq!(fetch(addr, "/previews/custom/bye.png").0, 200);

    // Fixed: the next look reloads.
    std::fs::remove_file(dir.path().join("broken.toml")).unwrap();
    std::fs::remove_file(dir.path().join("bye.toml")).unwrap();
    eventually("bye is gone", || {
        documented(addr) == ["/canvas/custom/hello"]
    });
    assert_eq!(
        fetch(
            addr,
            "/canvas/custom/bye?avatar=https%3A%2F%2Fexample.com%2Fa.png"
        )
        .0,
        404
    );
    assert_eq!(metric(addr, "menagerie_templates_loaded"), 1);
}

#[test]
fn sighup_reloads_the_folder() {
    // The watcher looks only every ten minutes: SIGHUP does it at once.
    let dir = folder(&[("hello.toml", &hello("hello", "Hello"))]);
    let server = start(dir.path(), 600_000);
    let addr = server.addr;
    std::fs::write(dir.path().join("bye.toml"), hello("bye", "Goodbye")).unwrap();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(documented(addr), ["/canvas/custom/hello"]);
    let hup = |_: ()| {
        let status = Command::new("kill")
            .args(["-HUP", &server.child.id().to_string()])
            .status()
            .unwrap();
        assert!(status.success());
    };
    hup(());
    eventually("bye is served", || documented(addr).len() == 2);
    // A bad set on SIGHUP keeps the old one.
    std::fs::write(dir.path().join("bye.toml"), "format = 2\nname = \"bye\"\n").unwrap();
    hup(());
    eventually("the failed reload is counted", || {
        metric(addr, "menagerie_templates_reload_errors_total") == 1
    });
    assert_eq!(documented(addr).len(), 2);
    assert_eq!(metric(addr, "menagerie_templates_loaded"), 2);
}

#[test]
fn a_configmap_update_swapping_its_data_link_reloads() {
    // A ConfigMap's update: the files live in a timestamped folder that the
    // `..data` link points to, and each file is a link through it.
    let root = tempfile::tempdir().unwrap();
    let v1 = root.path().join("..2026_v1");
    let v2 = root.path().join("..2026_v2");
    std::fs::create_dir(&v1).unwrap();
    std::fs::create_dir(&v2).unwrap();
    std::fs::write(v1.join("hello.toml"), hello("hello", "Hello")).unwrap();
    std::fs::write(v2.join("hello.toml"), hello("hello", "Hello")).unwrap();
    std::fs::write(v2.join("bye.toml"), hello("bye", "Goodbye")).unwrap();
    std::os::unix::fs::symlink("..2026_v1", root.path().join("..data")).unwrap();
    std::os::unix::fs::symlink("..data/hello.toml", root.path().join("hello.toml")).unwrap();
    let server = start(root.path(), 200);
    let addr = server.addr;
    assert_eq!(documented(addr), ["/canvas/custom/hello"]);
    // The kubelet swaps `..data` atomically (a new link renamed over it),
    // then links the new file.
    std::os::unix::fs::symlink("..2026_v2", root.path().join("..data_tmp")).unwrap();
    std::fs::rename(root.path().join("..data_tmp"), root.path().join("..data")).unwrap();
    std::os::unix::fs::symlink("..data/bye.toml", root.path().join("bye.toml")).unwrap();
    eventually("the swapped folder is served", || {
        documented(addr).len() == 2
    });
}

#[test]
fn a_bad_folder_stops_the_start_naming_the_file() {
    let dir = folder(&[
        ("hello.toml", &hello("hello", "Hello")),
        (
            "bad.toml",
            "format = 1\nname = \"bad\"\nsize = [100, 100]\nlayers = 3\n",
        ),
    ]);
    let data = tempfile::tempdir().unwrap();
    let out = command(dir.path(), data.path(), 200).output().unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.toml:4: layers:"), "{stderr}");
    assert!(
        stderr.contains("the templates folder cannot be served"),
        "{stderr}"
    );
}

/// `menagerie templates check` over each broken folder of canvas-render's
/// fixtures: a non-zero exit, and the error naming the file, its line and
/// the field (the fixtures' README lists them).
#[test]
fn templates_check_refuses_each_broken_fixture_folder() {
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../canvas-render/tests/broken-templates");
    let cases = [
        ("unknown-field", "card.toml:14: colour"),
        ("missing-layer-size", "card.toml:10: layer[1].place"),
        ("svg-external-reference", "card.toml:12: layer[1].file"),
        ("art-over-cap", "card.toml:10: layer[0].file"),
        ("duplicate-name", "b.toml:2: name"),
        ("unbounded-parameter", "card.toml:7: param[0].max"),
    ];
    for (folder, expected) in cases {
        let (ok, _, stderr) = check(&fixtures.join(folder));
        assert!(!ok, "{folder} passed the check");
        assert!(stderr.contains(expected), "{folder}: {stderr}");
    }
}
