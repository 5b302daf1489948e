//! The Schemathesis step of `cargo xtask test`: starts the debug server,
//! runs `scripts/schemathesis.sh` against its `/openapi.json`, stops it.
//!
//! In CI (`CI` set) it must run; elsewhere it is skipped with a notice when
//! `python3` with `venv` is unavailable. It is also skipped with a notice
//! while the server publishes no `/openapi.json`. It never runs against a
//! server without creature data (see [`require_creature_data`]).

use std::net::{SocketAddr, TcpListener};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::loadtest::client::Conn;
use crate::{cargo, repo_root, run_cmd};

/// Longest the Schemathesis run may take before it counts as failed.
const BUDGET: Duration = Duration::from_secs(300);

struct Killed(Child);

struct RemoveOnDrop(std::path::PathBuf);

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn python_ok() -> bool {
    Command::new("python3")
        .args(["-c", "import venv, ensurepip"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Fails unless the server at `addr` has its creature reference loaded: a
/// server without it answers every `/creature/*` request with 503, which
/// would make a conformance run meaningless.
pub fn require_creature_data(addr: SocketAddr, data_dir: &Path) -> Result<()> {
    let r = Conn::new(addr, Duration::from_secs(10)).get("/creature/dex?id=25")?;
    if r.status == 503 {
        bail!(
            "the server over {} has no creature data (/creature/dex answers 503); \
             refusing to test it",
            data_dir.display()
        );
    }
    Ok(())
}

/// Runs Schemathesis against a debug server over `data_dir`.
pub fn run(data_dir: &Path, ci: bool) -> Result<()> {
    if !python_ok() {
        if ci {
            bail!("CI must run Schemathesis, but python3 with venv/ensurepip is unavailable");
        }
        eprintln!("\ntest: python3 with venv is unavailable; Schemathesis conformance skipped");
        return Ok(());
    }
    run_cmd(cargo().args(["build", "--package", "server", "--bin", "menagerie"]))?;
    let addr: SocketAddr = TcpListener::bind("127.0.0.1:0")?.local_addr()?;
    // A private copy: another work tree sharing the target directory could
    // rebuild the binary under our feet.
    let built = crate::target_dir().join("debug/menagerie");
    let bin = std::env::temp_dir().join(format!("menagerie-conformance-{}", std::process::id()));
    std::fs::copy(&built, &bin).with_context(|| format!("copying {}", built.display()))?;
    let _cleanup = RemoveOnDrop(bin.clone());
    let child = Command::new(&bin)
        .arg("--bind")
        .arg(addr.to_string())
        .arg("--data-dir")
        .arg(data_dir)
        .args(["--log-level", "warn"])
        // The render budget (5 s by default) is sized for the release
        // build; this debug build draws and encodes many times slower, and
        // a budget missed on a busy CI machine would read as a valid
        // request refused (422), which is not what is under test here.
        .args(["--animation-render-ms", "120000"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let _server = Killed(child);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if Conn::new(addr, Duration::from_secs(2))
            .get("/health")
            .is_ok_and(|r| r.status == 200)
        {
            break;
        }
        if Instant::now() > deadline {
            bail!("the debug server did not answer /health within 60 s");
        }
        thread::sleep(Duration::from_millis(20));
    }
    require_creature_data(addr, data_dir)?;
    let spec = Conn::new(addr, Duration::from_secs(10)).get("/openapi.json")?;
    if spec.status == 404 {
        eprintln!(
            "\ntest: the server publishes no /openapi.json yet; Schemathesis conformance skipped"
        );
        return Ok(());
    }
    let base = format!("http://{addr}");
    eprintln!("\n$ scripts/schemathesis.sh {base}");
    let mut st = Killed(
        Command::new("bash")
            .arg(repo_root().join("scripts/schemathesis.sh"))
            .arg(&base)
            .env(
                "MENAGERIE_ST_REPORTS",
                crate::target_dir().join("schemathesis"),
            )
            .current_dir(repo_root())
            .spawn()
            .context("starting scripts/schemathesis.sh")?,
    );
    let t = Instant::now();
    loop {
        if let Some(status) = st.0.try_wait()? {
            if !status.success() {
                bail!("Schemathesis found problems ({status}); see its report above");
            }
            eprintln!(
                "test: Schemathesis passed in {:.0} s",
                t.elapsed().as_secs_f64()
            );
            return Ok(());
        }
        if t.elapsed() > BUDGET {
            bail!("Schemathesis ran over its {} s budget", BUDGET.as_secs());
        }
        thread::sleep(Duration::from_millis(200));
    }
}
