//! `cargo xtask data`: turns the source data into the runtime data directory.
//!
//! Source directory, in order of precedence: `--source DIR`, the
//! `MENAGERIE_DATA_SOURCE` variable, `../shared/data` beside the repository
//! when it exists. The output (default `data/`) is git-ignored: the source
//! folders marked "import only" must never be committed, nor anything
//! derived from them.
//!
//! Each dataset is one [`Step`]; a step whose source folder is absent is
//! skipped with a message (the server then runs without that dataset or
//! falls back to its embedded default).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::repo_root;

mod pokeapi;

/// Arguments of `cargo xtask data`.
#[derive(Debug, Clone, clap::Args)]
pub struct DataArgs {
    /// Source data directory (with `pokeapi/`, `content/`...).
    #[arg(long, env = "MENAGERIE_DATA_SOURCE")]
    pub source: Option<PathBuf>,
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
    if let Some(p) = flag {
        return Some(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("MENAGERIE_DATA_SOURCE").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let default = repo_root().join("../shared/data");
    default.is_dir().then_some(default)
}

/// Runs every step.
pub fn run(args: &DataArgs) -> Result<()> {
    let Some(source) = resolve_source(args.source.as_deref()) else {
        bail!(
            "no source data: pass --source DIR or set MENAGERIE_DATA_SOURCE \
             (a folder holding pokeapi/ and content/)"
        );
    };
    if !source.is_dir() {
        bail!("source data directory {} does not exist", source.display());
    }
    let out = if args.out.is_absolute() {
        args.out.clone()
    } else {
        repo_root().join(&args.out)
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
