//! `cargo xtask`: the project's own commands (build data, serve, test).
//!
//! Run `cargo xtask --help` for the list.

mod data;
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
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Cmd::Data(a) => data::run(&a),
        Cmd::Serve(a) => serve::run(&a),
        Cmd::Test(a) => test::run(&a),
    }
}

/// The repository root (the parent of `xtask/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the repository")
        .to_path_buf()
}

/// A `cargo` command run from the repository root.
pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    c.current_dir(repo_root());
    c
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
