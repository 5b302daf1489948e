//! `cargo xtask serve`: build the data if missing, then run the server.

use anyhow::Result;

use crate::{cargo, data, repo_root, run_cmd};

/// Arguments of `cargo xtask serve`.
#[derive(Debug, clap::Args)]
pub struct ServeArgs {
    /// Use a debug build (faster to compile, slower to run).
    #[arg(long)]
    pub dev: bool,
    /// Arguments passed to the server (see `menagerie --help`), after `--`.
    #[arg(last = true)]
    pub server_args: Vec<String>,
}

/// Builds the data when `data/` is absent, then runs `menagerie`.
pub fn run(args: &ServeArgs) -> Result<()> {
    let data_dir = repo_root().join("data");
    if !data_dir.is_dir() {
        match data::resolve_source(None) {
            Some(src) => data::run(&data::DataArgs {
                source: Some(src),
                out: data_dir,
            })?,
            None => eprintln!(
                "serve: no data/ and no source data found; starting without generated data \
                 (run `cargo xtask data --source DIR` to build it)"
            ),
        }
    }
    let mut cmd = cargo();
    cmd.args(["run", "--package", "server", "--bin", "menagerie"]);
    if !args.dev {
        cmd.arg("--release");
    }
    cmd.arg("--").args(&args.server_args);
    run_cmd(&mut cmd)
}
