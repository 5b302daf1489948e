//! `cargo xtask`: the project's own commands (build data, serve, test).
//!
//! Run `cargo xtask --help` for the list.

mod bench_compare;
mod book;
mod browser;
mod data;
mod deploy_check;
mod gallery;
mod image;
// --- load/soak/fault suites and fuzzing ---
mod conformance;
mod loadtest;
#[cfg(test)]
mod modules;
// ---
mod package;
mod serve;
mod test;
#[cfg(test)]
mod tidy;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(name = "cargo xtask", about = "Menagerie project tasks")]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Debug, Subcommand)]
enum Cmd {
    /// Build the runtime data directory from the source data.
    Data(data::DataArgs),
    /// Build the data if missing, then run the server (release build).
    Serve(serve::ServeArgs),
    /// Run every check CI runs: fmt, clippy, all tests (with the full data), docs, benches compiled.
    Test(test::TestArgs),
    /// Dry-run publish of the published crates, their packed sizes, the gallery without bundled fonts.
    Package(package::PackageArgs),
    /// Load test the release server on loopback (`--soak`, `--faults`); writes docs/benchmarks-history/server.md.
    Loadtest(loadtest::LoadtestArgs),
    /// The sharp comparison's five scenarios on BASE_REV and the work tree (release builds), alternating, with ratios.
    BenchCompare(bench_compare::BenchCompareArgs),
    /// Rewrite the committed default content pack (assets/content) from the may-commit sources.
    ContentAssets(data::content::AssetsArgs),
    /// Report dead links of the content pack (needs network; never run in CI).
    CheckLinks(data::content::CheckLinksArgs),
    /// Check the Kubernetes manifests, Dockerfile and YAML offline (installs the tools once).
    DeployCheck(deploy_check::DeployCheckArgs),
    /// Build the runtime image with buildah and run it with podman (root; not in CI).
    Image(image::ImageArgs),
    /// Draw one contact sheet of every preview (stills and animation frames) into `<target>/gallery`.
    Gallery(gallery::GalleryArgs),
    /// Regenerate the book's endpoint pages and benchmark charts, then build the book (mdBook) and check its links.
    Book(book::BookArgs),
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Cmd::Data(a) => data::run(&a),
        Cmd::Serve(a) => serve::run(&a),
        Cmd::Test(a) => test::run(&a),
        Cmd::Package(a) => package::run(&a),
        Cmd::Loadtest(a) => loadtest::run(&a),
        Cmd::BenchCompare(a) => bench_compare::run(&a),
        Cmd::ContentAssets(a) => data::content::run_assets(&a),
        Cmd::CheckLinks(a) => data::content::run_check_links(&a),
        Cmd::DeployCheck(a) => deploy_check::run(&a),
        Cmd::Image(a) => image::run(&a),
        Cmd::Book(a) => book::run(&a),
        Cmd::Gallery(a) => gallery::run(&a),
    }
}

/// The cargo target directory, as cargo itself resolves it
/// (`CARGO_TARGET_DIR`, `build.target-dir` in a cargo config, else
/// `target/`): asked of `cargo metadata` once per process, never assumed.
pub fn target_dir() -> PathBuf {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let asked = cargo()
            .args([
                "metadata",
                "--format-version",
                "1",
                "--no-deps",
                "--offline",
            ])
            .stderr(std::process::Stdio::inherit())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .and_then(|o| serde_json::from_slice::<serde_json::Value>(&o.stdout).ok())
            .and_then(|m| m["target_directory"].as_str().map(PathBuf::from));
        asked.unwrap_or_else(|| match std::env::var_os("CARGO_TARGET_DIR") {
            Some(d) => repo_root().join(d),
            None => repo_root().join("target"),
        })
    })
    .clone()
}

/// The repository root (the parent of `xtask/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
}

/// A `cargo` command run from the repository root. In CI (`CI` set), every
/// build is cold and never rebuilt, so incremental compilation, which only
/// pays on a rebuild, is off (`CARGO_INCREMENTAL=0`, unless set already):
/// all of a run's cargo commands share the setting, so none rebuilds what
/// another built.
pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(repo_root());
    if in_ci() && std::env::var_os("CARGO_INCREMENTAL").is_none() {
        c.env("CARGO_INCREMENTAL", "0");
    }
    c
}

/// Whether this runs in CI: `CI` set to anything but empty or `false`.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false")
}

/// Runs a command, echoing it first; fails if it exits non-zero.
pub fn run_cmd(cmd: &mut Command) -> Result<()> {
    let shown = format!("{cmd:?}").replace('"', "");
    eprintln!("\n$ {shown}");
    let status = cmd
        .status()
        .with_context(|| format!("could not start {shown}"))?;
    if !status.success() {
        bail!("`{shown}` failed with {status}");
    }
    Ok(())
}
