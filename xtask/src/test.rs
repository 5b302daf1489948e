//! `cargo xtask test`: every check CI runs, in order, stopping at the first
//! failure.
//!
//! 1. `cargo fmt --check`
//! 2. `cargo clippy` on every target, warnings denied
//! 3. the full dataset built from the source data into `target/full-data`
//!    (required when `CI` is set; skipped with a notice elsewhere when the
//!    source is absent) and exported as `MENAGERIE_FULL_DATA`
//! 4. `cargo test` on every target (benches run once in test mode, so they
//!    are compiled and smoke-tested without a release build), then doc tests
//! 5. Schemathesis against `/openapi.json` of a debug server
//!    (`scripts/schemathesis.sh`; see `conformance.rs`)
//! 6. `cargo doc`, warnings denied
//! 7. the playground's browser test in headless Chromium (`browser.rs`;
//!    required in CI, skipped with a notice elsewhere when Chromium is absent)

use anyhow::{Result, bail};

use crate::{cargo, data, repo_root, run_cmd};

/// Arguments of `cargo xtask test`.
#[derive(Debug, clap::Args)]
pub struct TestArgs {
    /// Skip fmt and clippy (for a quick re-run of the tests).
    #[arg(long)]
    pub no_lint: bool,
}

/// Runs every check.
pub fn run(args: &TestArgs) -> Result<()> {
    let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
    if !args.no_lint {
        run_cmd(cargo().args(["fmt", "--all", "--", "--check"]))?;
        run_cmd(cargo().args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--",
            "-D",
            "warnings",
        ]))?;
    }

    let full_data = repo_root().join("target/full-data");
    let have_full = match data::resolve_source(None) {
        Some(src) => {
            data::run(&data::DataArgs {
                source: Some(src),
                out: full_data.clone(),
            })?;
            true
        }
        None if ci => bail!("CI must test over the full data, but no source data was found"),
        None => {
            eprintln!("test: no source data found; tests over the full data are skipped");
            false
        }
    };

    let mut t = cargo();
    t.args(["test", "--workspace", "--all-targets"]);
    if have_full {
        t.env("MENAGERIE_FULL_DATA", &full_data);
    }
    run_cmd(&mut t)?;
    run_cmd(cargo().args(["test", "--workspace", "--doc"]))?;
    // Schemathesis against the debug server's /openapi.json.
    let st_data = if have_full {
        full_data.clone()
    } else {
        repo_root().join("fixtures/data")
    };
    crate::conformance::run(&st_data, ci)?;
    run_cmd(
        cargo()
            .args(["doc", "--workspace", "--no-deps"])
            .env("RUSTDOCFLAGS", "-D warnings"),
    )?;
    crate::browser::run(ci)?; // e2e/ in headless Chromium
    eprintln!("\ntest: all checks passed");
    Ok(())
}
