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
    // glibc gives large buffers back when freed (README, Deployment), as the
    // Docker image does; a value already in the environment wins.
    for (name, value) in GLIBC_MEMORY {
        if std::env::var_os(name).is_none() {
            cmd.env(name, value);
        }
    }
    run_cmd(&mut cmd)
}

/// The glibc allocator settings the server is run with: two arenas, and
/// buffers of 1 MiB or more mapped on their own (returned when freed).
const GLIBC_MEMORY: [(&str, &str); 2] = [
    ("MALLOC_ARENA_MAX", "2"),
    ("MALLOC_MMAP_THRESHOLD_", "1048576"),
];
