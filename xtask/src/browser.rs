//! The playground's browser test (`e2e/`), run by `cargo xtask test`.
//!
//! Starts the debug `menagerie` binary over the data directory it is given
//! (the full data, else the fixture dataset; never one without creature
//! data) on a free loopback port, with the example operators' templates
//! (`examples/templates`, `--templates`), runs `node --test` in `e2e/` (playwright-core driving Debian's
//! headless Chromium), then stops the server. When the book is built
//! (`cargo xtask book`, or the `book` step of `cargo xtask test` before
//! this one), the server links to it (`--docs-url`) and the test opens the
//! book's index and an endpoint page and checks their images load. In CI (`CI` set) everything
//! it needs is installed by `scripts/install-browser-test.sh` and the test
//! must run; elsewhere, without Chromium or Node.js, it is skipped with a
//! notice.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::{cargo, repo_root, run_cmd};

const CHROMIUM: &str = "/usr/bin/chromium";

fn have(cmd: &str) -> bool {
    Command::new(cmd)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs the browser test against a server over `data_dir`, installing its
/// tools first when needed.
pub fn run(data_dir: &Path, ci: bool) -> Result<()> {
    let root = repo_root();
    let e2e = root.join("e2e");
    let ready = Path::new(CHROMIUM).exists()
        && have("node")
        && e2e.join("node_modules/playwright-core").is_dir();
    if !ready {
        if ci || (Path::new(CHROMIUM).exists() && have("npm")) {
            run_cmd(Command::new("bash").arg(root.join("scripts/install-browser-test.sh")))?;
        } else {
            eprintln!(
                "\ntest: Chromium or Node.js not found; the playground browser test is SKIPPED \
                 (scripts/install-browser-test.sh installs what it needs)"
            );
            return Ok(());
        }
    }

    run_cmd(cargo().args(["build", "--package", "server", "--bin", "menagerie"]))?;
    let bin = crate::target_dir().join("debug/menagerie");
    let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let book = crate::book::out_dir();
    let book_index = book.join("index.html");
    let mut server = Command::new(&bin);
    server
        .args(["--bind", &addr.to_string(), "--log-level", "warn"])
        .arg("--data-dir")
        .arg(data_dir);
    let mut node = Command::new("node");
    // The example operators' templates: the gallery must show their
    // previews beside the built-ins'.
    let templates = root.join("examples/templates");
    if templates.is_dir() {
        let names = template_names(&bin, &templates)?;
        server.arg("--templates").arg(&templates);
        node.env("MENAGERIE_CUSTOM_TEMPLATES", names.join(","));
    }
    if book_index.is_file() {
        server.arg("--docs-url").arg(file_url(&book_index)?);
        node.env("MENAGERIE_BOOK", &book);
    } else if ci {
        bail!(
            "the book is not built in {} (the `book` step)",
            book.display()
        );
    }
    let server = server
        .spawn()
        .with_context(|| format!("could not start {}", bin.display()))?;
    let mut server = KillOnDrop(server);
    wait_healthy(addr, &mut server.0)?;
    crate::conformance::require_creature_data(addr, data_dir)?;
    let result = run_cmd(
        node.arg("--test")
            .current_dir(&e2e)
            .env("MENAGERIE_URL", format!("http://{addr}"))
            .env("CHROMIUM", CHROMIUM),
    );
    drop(server);
    result
}

/// The names of the templates of `dir`, as `menagerie templates check`
/// gives them (it fails on any error in the folder).
fn template_names(bin: &Path, dir: &Path) -> Result<Vec<String>> {
    let out = Command::new(bin)
        .args(["templates", "check"])
        .arg(dir)
        .output()
        .with_context(|| format!("could not run {}", bin.display()))?;
    if !out.status.success() {
        bail!(
            "{} has errors:\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let list = stdout
        .rsplit_once(" ok: ")
        .map(|(_, names)| names.trim())
        .with_context(|| format!("templates check said: {stdout}"))?;
    Ok(list
        .split(", ")
        .filter(|n| !n.is_empty())
        .map(str::to_owned)
        .collect())
}

/// `path` as a `file://` URL, as Node's `pathToFileURL` writes it (the
/// test compares the two): every byte but unreserved characters and `/`
/// percent-encoded.
fn file_url(path: &Path) -> Result<String> {
    let path = std::path::absolute(path)?;
    let text = path
        .to_str()
        .with_context(|| format!("{} is not UTF-8", path.display()))?;
    let mut url = String::from("file://");
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            url.push(b as char);
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    Ok(url)
}

struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn wait_healthy(addr: SocketAddr, child: &mut Child) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait()? {
            bail!("the server exited early with {status}");
        }
        if let Ok(mut s) = TcpStream::connect_timeout(&addr, Duration::from_millis(200)) {
            let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
            let _ = s.write_all(b"GET /health HTTP/1.1\r\nHost: e2e\r\nConnection: close\r\n\r\n");
            let mut buf = String::new();
            let _ = s.read_to_string(&mut buf);
            if buf.starts_with("HTTP/1.1 200") {
                return Ok(());
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!("the server did not become healthy on {addr} within 30 s")
}
