//! `cargo xtask data`: turns the source data into the runtime data directory.
//!
//! Source directory, in order of precedence: `--source DIR`, the
//! `MENAGERIE_DATA_SOURCE` variable, `../shared/data` beside the repository
//! when it exists. Without any of them the import-only sources are
//! downloaded from their pinned upstream commits (`download.rs`,
//! `upstream-pins.txt`) into a cache directory that then serves as the
//! source. The output (default `data/`) and the cache (default
//! `target/data-sources/`) are git-ignored: the source folders marked
//! "import only" must never be committed, nor anything derived from them.
//!
//! Each dataset is one [`Step`]; a step whose source folder is absent is
//! skipped with a message (the server then runs without that dataset or
//! falls back to its embedded default).

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};

use crate::repo_root;

pub mod download;
pub(crate) mod pokeapi;

/// Where the source data comes from (shared by `data`, `serve` and `test`).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct SourceArgs {
    /// Source data directory (with `pokeapi/`, `content/`...). Without it, and
    /// without `../shared/data`, the pinned upstream files are downloaded.
    #[arg(long, env = "MENAGERIE_DATA_SOURCE")]
    pub source: Option<PathBuf>,
    /// Base URL standing in for `https://raw.githubusercontent.com` when
    /// downloading; paths under it keep the form `<owner>/<repo>/<commit>/<path>`.
    #[arg(long, env = "MENAGERIE_DATA_MIRROR")]
    pub mirror: Option<String>,
    /// Download cache directory [default: target/data-sources].
    #[arg(long, env = "MENAGERIE_DATA_CACHE")]
    pub cache: Option<PathBuf>,
}

/// Arguments of `cargo xtask data`.
#[derive(Debug, Clone, clap::Args)]
pub struct DataArgs {
    #[command(flatten)]
    pub from: SourceArgs,
    /// Output directory.
    #[arg(long, default_value = "data")]
    pub out: PathBuf,
}

/// One dataset build: reads under the source dir, writes under the output dir.
pub struct Step {
    /// Short name shown in progress lines.
    pub name: &'static str,
    /// The folder under the source dir this step needs.
    pub source_subdir: &'static str,
    /// The build itself.
    pub build: fn(source: &Path, out: &Path) -> Result<()>,
}

pub mod content;

/// Every dataset, in build order.
pub const STEPS: &[Step] = &[
    // -- creature reference --
    pokeapi::STEP,
    // -- end creature reference --
    // content
    Step {
        name: "content",
        source_subdir: "content",
        build: content::build,
    },
];

/// Finds the source directory: the flag, else `MENAGERIE_DATA_SOURCE`, else
/// `../shared/data` beside the repository when it exists.
pub fn resolve_source(flag: Option<&Path>) -> Option<PathBuf> {
    let env = std::env::var_os("MENAGERIE_DATA_SOURCE").filter(|v| !v.is_empty());
    resolve_source_in(&repo_root(), flag, env.map(PathBuf::from))
}

/// [`resolve_source`] for the repository at `root`, with the value of
/// `MENAGERIE_DATA_SOURCE` given.
fn resolve_source_in(root: &Path, flag: Option<&Path>, env: Option<PathBuf>) -> Option<PathBuf> {
    if let Some(p) = flag {
        return Some(p.to_path_buf());
    }
    if let Some(p) = env {
        return Some(p);
    }
    let default = root.join("../shared/data");
    default.is_dir().then_some(default)
}

fn var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// Where downloads go: the flag, else `MENAGERIE_DATA_CACHE`, else
/// `target/data-sources` (`CARGO_TARGET_DIR` honoured).
pub fn cache_dir(from: &SourceArgs) -> PathBuf {
    from.cache
        .clone()
        .or_else(|| var("MENAGERIE_DATA_CACHE").map(PathBuf::from))
        .unwrap_or_else(|| crate::target_dir().join("data-sources"))
}

/// Downloads the pinned upstream files into the cache (see `download.rs`)
/// and returns the cache, which is then a source directory.
pub fn download_sources(from: &SourceArgs) -> Result<PathBuf> {
    let pins = download::parse_pins(download::PINS).context("the committed pins")?;
    download_pinned(from, &pins)
}

/// [`download_sources`] of `pins`.
fn download_pinned(from: &SourceArgs, pins: &[download::Pinned]) -> Result<PathBuf> {
    let base = from
        .mirror
        .clone()
        .or_else(|| var("MENAGERIE_DATA_MIRROR"))
        .unwrap_or_else(|| download::UPSTREAM.to_owned());
    let cache = cache_dir(from);
    let total: u64 = pins.iter().map(|p| p.size).sum();
    eprintln!(
        "data: no source directory found (no --source, no MENAGERIE_DATA_SOURCE, no ../shared/data); \
         fetching the {} pinned upstream files (about {:.0} MB) from {base} into {}",
        pins.len(),
        total as f64 / 1e6,
        cache.display()
    );
    let opts = download::Options {
        base,
        cache: cache.clone(),
        attempts: 4,
        retry_pause: Duration::from_secs(1),
        progress: true,
    };
    let report = download::fetch(pins, &opts).with_context(|| {
        format!(
            "downloading the source data failed. Without network, pass --source DIR \
             (or set MENAGERIE_DATA_SOURCE) to a folder holding pokeapi/ and content/ \
             in the upstream layout; behind a proxy, set HTTPS_PROXY or pass --mirror URL \
             (or MENAGERIE_DATA_MIRROR) for a host serving <owner>/<repo>/<commit>/<path>. \
             Files already checked stay in {} and a rerun resumes",
            cache.display()
        )
    })?;
    eprintln!(
        "data: download: {} files fetched ({:.1} MB), {} already in the cache, all checked",
        report.fetched,
        report.bytes as f64 / 1e6,
        report.cached
    );
    Ok(cache)
}

/// The source directory: [`resolve_source`], else the downloaded cache.
pub fn source_dir(from: &SourceArgs) -> Result<PathBuf> {
    match resolve_source(from.source.as_deref()) {
        Some(dir) => Ok(dir),
        None => download_sources(from),
    }
}

/// [`source_dir`] for a clone at `root` with `MENAGERIE_DATA_SOURCE` unset,
/// downloading `pins` when it finds no source (the set-up tests' fresh
/// clone).
#[cfg(test)]
pub(crate) fn source_dir_in(
    root: &Path,
    from: &SourceArgs,
    pins: &[download::Pinned],
) -> Result<PathBuf> {
    match resolve_source_in(root, from.source.as_deref(), None) {
        Some(dir) => Ok(dir),
        None => download_pinned(from, pins),
    }
}

/// The variables that tell the tests over the full data where it is: the
/// built directory, and the source directory it was built from.
pub fn full_data_env(full_data: &Path, source: &Path) -> [(&'static str, PathBuf); 2] {
    [
        ("MENAGERIE_FULL_DATA", full_data.to_path_buf()),
        ("MENAGERIE_FULL_DATA_SOURCE", source.to_path_buf()),
    ]
}

/// Builds the creature reference from `fixtures/pokeapi` into
/// `target/fixture-data` (the content pack is the embedded one) and returns
/// that directory: the dataset servers under test load when the full data
/// cannot be had.
pub fn fixture_data() -> Result<PathBuf> {
    let out = crate::target_dir().join("fixture-data");
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    (pokeapi::STEP.build)(&repo_root().join("fixtures/pokeapi"), &out)
        .context("building the fixture dataset")?;
    Ok(out)
}

/// Runs every step.
pub fn run(args: &DataArgs) -> Result<()> {
    let source = source_dir(&args.from)?;
    build(&source, &args.out)
}

/// Runs every step over the source directory `source`, writing `out`
/// (relative to the repository root unless absolute).
pub fn build(source: &Path, out: &Path) -> Result<()> {
    if !source.is_dir() {
        bail!("source data directory {} does not exist", source.display());
    }
    let out = if out.is_absolute() {
        out.to_path_buf()
    } else {
        repo_root().join(out)
    };
    std::fs::create_dir_all(&out).with_context(|| format!("creating {}", out.display()))?;
    eprintln!("data: source {} -> {}", source.display(), out.display());
    for step in STEPS {
        let dir = source.join(step.source_subdir);
        if !dir.is_dir() {
            eprintln!("data: {}: {} absent, skipped", step.name, dir.display());
            continue;
        }
        eprintln!("data: {} ...", step.name);
        (step.build)(&dir, &out).with_context(|| format!("building {}", step.name))?;
    }
    eprintln!("data: done");
    Ok(())
}
