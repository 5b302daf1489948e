//! `cargo xtask serve`: build the data if missing, then run the server.

use anyhow::{Context, Result};
use reference_db::DATASET_FILE_NAME;

use crate::{cargo, data, repo_root, run_cmd};

/// Arguments of `cargo xtask serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Use a debug build (faster to compile, slower to run).
    #[arg(long)]
    pub dev: bool,
    #[command(flatten)]
    pub from: data::SourceArgs,
    /// Arguments passed to the server (see `menagerie --help`), after `--`.
    #[arg(last = true)]
    pub server_args: Vec<String>,
}

/// Builds `data/` when it has no creature reference (downloading the
/// sources when no source directory is found), then runs `menagerie`.
pub fn run(args: &ServeArgs) -> Result<()> {
    let data_dir = repo_root().join("data");
    if !data_dir.join(DATASET_FILE_NAME).is_file() {
        data::run(&data::DataArgs {
            from: args.from.clone(),
            out: data_dir,
        })
        .context(
            "`cargo xtask serve` builds data/ first; to start the server without it \
             (every /creature/* request then answers 503), run \
             `cargo run --release --package server --bin menagerie`",
        )?;
    }
    let mut cmd = cargo();
    cmd.args(["run", "--package", "server", "--bin", "menagerie"]);
    if !args.dev {
        cmd.arg("--release");
    }
    cmd.arg("--").args(&args.server_args);
    run_cmd(&mut cmd)
}
