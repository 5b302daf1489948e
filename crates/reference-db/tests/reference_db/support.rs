//! Shared helpers: the fixture dataset, built once per test binary.

use std::path::PathBuf;
use std::sync::OnceLock;

use reference_db::build::{Progress, build_dataset};
use reference_db::{Dataset, ReferenceDb};

/// `fixtures/pokeapi` at the workspace root.
pub fn fixture_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pokeapi")
}

/// Builds a dataset from `dir`, ignoring progress.
pub fn build(dir: &std::path::Path) -> Dataset {
    build_dataset(dir, &mut |_: Progress<'_>| {})
        .unwrap_or_else(|e| panic!("building from {}: {e}", dir.display()))
}

/// The fixture dataset, encoded and decoded through the file format.
pub fn fixture_db() -> &'static ReferenceDb {
    static DB: OnceLock<ReferenceDb> = OnceLock::new();
    DB.get_or_init(|| {
        ReferenceDb::from_bytes(&build(&fixture_dir()).to_bytes()).expect("fixture dataset loads")
    })
}
