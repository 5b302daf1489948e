//! `cargo xtask test`: every check CI runs, in order, stopping at the first
//! failure.
//!
//! 1. `cargo fmt --check`
//! 2. `cargo clippy` on every target, warnings denied
//! 3. the full dataset built from the source data into `full-data` in the
//!    cargo target directory
//!    and exported as `MENAGERIE_FULL_DATA`, with the source directory it
//!    was built from as `MENAGERIE_FULL_DATA_SOURCE` (whichever of
//!    `--source`, `MENAGERIE_DATA_SOURCE`, the data folder beside the clone
//!    or the download cache it was: tests never guess it); without a source directory the
//!    pinned upstream files are downloaded (`cargo xtask data`). Required
//!    when `CI` is set; elsewhere, when neither works (offline), the
//!    full-data tests are skipped with a notice
//! 4. `redis-server` for the shared rate-limit test: Debian's package,
//!    installed by `scripts/install-redis.sh` when missing, its path exported
//!    as `MENAGERIE_REDIS_SERVER` (the test starts its own instance on a free
//!    loopback port). Required when `CI` is set; elsewhere, when it cannot be
//!    installed, that test is skipped with a notice
//! 5. `cargo test` on every target (benches run once in test mode, so they
//!    are compiled and smoke-tested without a release build), then doc tests
//!    and `cargo xtask package` (`package.rs`): a dry-run publish of the
//!    published crates (verify build included), each `.crate` under 9.5 MiB,
//!    and the gallery built, tested and run without canvas-render's fonts
//! 6. Schemathesis against `/openapi.json` of a debug server
//!    (`scripts/schemathesis.sh`; see `conformance.rs`) over the full data,
//!    or without it over the fixture dataset (`data::fixture_data`)
//! 7. `cargo doc`, warnings denied
//! 8. the book (`book.rs`): the benchmark charts are the committed
//!    figures', mdBook (pinned, installed by cargo into the target
//!    directory once) builds `docs/`, and no internal link or image of it is
//!    broken (the endpoint pages are held to the catalogue by the server's
//!    `book` tests in step 5)
//! 9. the playground's browser test in headless Chromium (`browser.rs`,
//!    same server data as step 6; also opens the built book's index and an
//!    endpoint page; required in CI, skipped with a notice elsewhere when
//!    Chromium is absent)
//! 10. `cargo xtask deploy-check`: manifests, Dockerfile and YAML (`deploy_check.rs`)

use std::time::{Duration, Instant};

use anyhow::Result;

use crate::{cargo, data, run_cmd};

/// Arguments of `cargo xtask test`.
#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// Skip fmt and clippy (for a quick re-run of the tests).
    #[arg(long)]
    pub no_lint: bool,
    #[command(flatten)]
    pub from: data::SourceArgs,
}

/// Runs every check, then prints how long each step took (also when one
/// fails), so the run's time can be kept in check.
pub fn run(args: &TestArgs) -> Result<()> {
    let mut steps = Steps::default();
    let result = run_steps(args, &mut steps);
    steps.print();
    result
}

/// The time each step of the run took, in order.
#[derive(Debug, Default)]
struct Steps(Vec<(&'static str, Duration)>);

impl Steps {
    /// Runs `step`, keeping its time under `name` whether it passes or not.
    fn time<T>(&mut self, name: &'static str, step: impl FnOnce() -> Result<T>) -> Result<T> {
        let start = Instant::now();
        let out = step();
        self.0.push((name, start.elapsed()));
        out
    }

    fn print(&self) {
        let total: Duration = self.0.iter().map(|(_, d)| *d).sum();
        eprintln!("\ntest: time per step");
        for (name, d) in &self.0 {
            eprintln!("  {name:<28} {:>7.1} s", d.as_secs_f64());
        }
        eprintln!("  {:<28} {:>7.1} s", "total", total.as_secs_f64());
    }
}

fn run_steps(args: &TestArgs, steps: &mut Steps) -> Result<()> {
    let ci = crate::in_ci();
    if !args.no_lint {
        steps.time("fmt", || {
            run_cmd(cargo().args(["fmt", "--all", "--", "--check"]))
        })?;
        steps.time("clippy", || {
            run_cmd(cargo().args([
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ]))
        })?;
    }

    let full_data = crate::target_dir().join("full-data");
    let full_source = steps.time("full data", || match data::source_dir(&args.from) {
        Ok(src) => {
            data::build(&src, &full_data)?;
            Ok(Some(src))
        }
        Err(e) if ci => Err(e.context("CI must test over the full data")),
        Err(e) => {
            eprintln!(
                "test: {e:#}\ntest: no source data; tests over the full data are SKIPPED, \
                 and the servers under test load the fixture dataset"
            );
            Ok(None)
        }
    })?;
    let have_full = full_source.is_some();

    let redis = steps.time("redis-server", || redis_server(ci))?;
    steps.time("cargo test", || {
        let mut t = cargo();
        t.args(["test", "--workspace", "--all-targets"]);
        if let Some(src) = &full_source {
            t.envs(data::full_data_env(&full_data, src));
        }
        if let Some(bin) = &redis {
            t.env("MENAGERIE_REDIS_SERVER", bin);
        }
        run_cmd(&mut t)
    })?;
    steps.time("doc tests", || {
        run_cmd(cargo().args(["test", "--workspace", "--doc"]))
    })?;
    steps.time("package", || {
        crate::package::run(&crate::package::PackageArgs {})
    })?;
    // The servers under test always have creature data: the full data, else
    // the fixture dataset.
    let server_data = if have_full {
        full_data.clone()
    } else {
        data::fixture_data()?
    };
    // Schemathesis against the debug server's /openapi.json.
    steps.time("schemathesis", || crate::conformance::run(&server_data, ci))?;
    steps.time("cargo doc", || {
        run_cmd(
            cargo()
                .args(["doc", "--workspace", "--no-deps"])
                .env("RUSTDOCFLAGS", "-D warnings"),
        )
    })?;
    // docs/, built with mdBook, links checked
    steps.time("book", crate::book::check)?;
    // e2e/ in headless Chromium
    steps.time("browser", || crate::browser::run(&server_data, ci))?;
    // deploy/, Dockerfile
    steps.time("deploy-check", || {
        crate::deploy_check::run(&crate::deploy_check::DeployCheckArgs {})
    })?;
    eprintln!("\ntest: all checks passed");
    Ok(())
}

/// The path of `redis-server`, installed by `scripts/install-redis.sh` when
/// missing; `None` (with a notice) when that fails outside CI.
fn redis_server(ci: bool) -> Result<Option<String>> {
    let out = std::process::Command::new("bash")
        .arg(crate::repo_root().join("scripts/install-redis.sh"))
        .stderr(std::process::Stdio::inherit())
        .output()?;
    let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    match (out.status.success() && !path.is_empty(), ci) {
        (true, _) => Ok(Some(path)),
        (false, true) => anyhow::bail!("scripts/install-redis.sh failed ({})", out.status),
        (false, false) => {
            eprintln!(
                "test: redis-server could not be installed; the shared rate-limit test is SKIPPED"
            );
            Ok(None)
        }
    }
}
