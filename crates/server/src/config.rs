//! Typed server settings, read once from command-line flags with
//! `MENAGERIE_*` environment equivalents.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::{Parser, ValueEnum};

/// Every setting of the `menagerie` binary.
///
/// Each flag has an environment variable of the same name in upper case,
/// prefixed with `MENAGERIE_` (`--data-dir` ↔ `MENAGERIE_DATA_DIR`).
#[derive(Debug, Clone, Parser)]
#[command(name = "menagerie", version, about = "The Menagerie HTTP service")]
pub struct Settings {
    /// Address and port to listen on.
    #[arg(long, env = "MENAGERIE_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Directory with the generated data (`cargo xtask data` writes it).
    #[arg(long, env = "MENAGERIE_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,

    /// Number of HTTP worker threads (default: one per CPU core).
    #[arg(long, env = "MENAGERIE_WORKERS")]
    pub workers: Option<usize>,

    /// Log line format.
    #[arg(long, env = "MENAGERIE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Log filter: a level (`info`, `debug`...) or a tracing filter directive.
    #[arg(long, env = "MENAGERIE_LOG_LEVEL", default_value = "info")]
    pub log_level: String,

    // -- creature reference (owner: creature) --
    /// Base URL of the PokeAPI sprites tree used in `/creature/dex` sprites
    /// and `/creature/items` sprite URLs (point it at a self-hosted copy of
    /// the sprites repository's `sprites/` folder).
    #[arg(long, env = "MENAGERIE_SPRITE_BASE_URL", default_value = DEFAULT_SPRITE_BASE_URL)]
    pub sprite_base_url: String,
    // -- end creature reference --
    /// Seconds to let in-flight requests finish after SIGTERM/SIGINT.
    #[arg(long, env = "MENAGERIE_SHUTDOWN_TIMEOUT", default_value_t = 10)]
    pub shutdown_timeout: u64,

    // content (engineer "content")
    /// Directory of self-hosted images: files under `DIR/<group>/<type>/`
    /// (group `img`, `animal` or `animu`) are served at
    /// `/media/<group>/<type>/<file>` and added to that type's links.
    #[arg(long, env = "MENAGERIE_MEDIA_DIR", requires = "public_url")]
    pub media_dir: Option<PathBuf>,

    /// Public base URL of this server (e.g. `https://menagerie.example.org`),
    /// on which the links to `--media-dir` files are built.
    #[arg(long, env = "MENAGERIE_PUBLIC_URL")]
    pub public_url: Option<String>,
}

/// Default of `--sprite-base-url`: the PokeAPI sprites repository.
pub const DEFAULT_SPRITE_BASE_URL: &str =
    "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites";

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl Settings {
    /// Settings for tests: port 0 on loopback, data from `data_dir`,
    /// everything else at its default.
    pub fn for_tests(data_dir: impl Into<PathBuf>) -> Self {
        let mut s = Self::parse_from(["menagerie", "--bind", "127.0.0.1:0"]);
        s.data_dir = data_dir.into();
        s
    }
}
