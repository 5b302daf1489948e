//! Step "creature reference": the PokeAPI CSVs (`<source>/pokeapi/`) →
//! `<out>/reference-db.bin`, through `reference_db::build`.
//!
//! Prints a line per CSV read (size, then rows), any slug the data repeats,
//! and a summary of record counts. The file is written to a temporary name
//! and renamed, so a failed build never leaves a half-written dataset.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use reference_db::build::{Progress, build_dataset};
use reference_db::{DATASET_FILE_NAME, Dataset};

use super::Step;

/// The step as `cargo xtask data` runs it.
pub const STEP: Step = Step {
    name: "creature reference",
    source_subdir: "pokeapi",
    build,
};

fn build(source: &Path, out: &Path) -> Result<()> {
    let started = Instant::now();
    let dataset: Dataset = build_dataset(source, &mut |p: Progress<'_>| match p {
        Progress::Reading { file, bytes } if bytes >= 1 << 20 => {
            eprintln!("data:   reading {file} ({:.1} MB)...", bytes as f64 / 1e6);
        }
        Progress::Reading { .. } => {}
        Progress::Read { file, rows } if rows >= 50_000 => eprintln!("data:   {file}: {rows} rows"),
        Progress::Read { .. } => {}
        Progress::DuplicateSlug { file, slug, id } => {
            eprintln!(
                "data:   {file}: slug `{slug}` repeats at id {id} (kept, found by its id; the slug finds the lowest id)"
            );
        }
    })?;
    let bytes = dataset.to_bytes();
    let target = out.join(DATASET_FILE_NAME);
    let partial = out.join(format!("{DATASET_FILE_NAME}.partial"));
    std::fs::write(&partial, &bytes).with_context(|| format!("writing {}", partial.display()))?;
    std::fs::rename(&partial, &target)
        .with_context(|| format!("renaming to {}", target.display()))?;
    let c = dataset.counts();
    eprintln!(
        "data:   {} creatures, {} moves, {} abilities, {} items ({} move learners, {} version texts) \
         -> {} ({:.1} MB) in {:.1} s",
        c.creatures,
        c.moves,
        c.abilities,
        c.items,
        c.move_learners,
        c.version_texts,
        target.display(),
        bytes.len() as f64 / 1e6,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The step over the fixtures writes a dataset the engine loads, and
    /// leaves no partial file behind.
    #[test]
    fn step_writes_a_loadable_dataset() {
        let source = crate::repo_root().join("fixtures/pokeapi");
        let out = std::env::temp_dir().join(format!("xtask-pokeapi-{}", std::process::id()));
        std::fs::create_dir_all(&out).unwrap();
        (STEP.build)(&source, &out).unwrap();
        let db = reference_db::ReferenceDb::load(&out).unwrap();
        assert_eq!(db.lookup_creature("025").unwrap().slug, "pikachu");
        assert!(!out.join(format!("{DATASET_FILE_NAME}.partial")).exists());
        std::fs::remove_dir_all(&out).unwrap();
    }

    #[test]
    fn a_broken_source_fails_naming_the_file() {
        let out = std::env::temp_dir().join(format!("xtask-pokeapi-none-{}", std::process::id()));
        std::fs::create_dir_all(&out).unwrap();
        let err = (STEP.build)(&out.join("missing"), &out).unwrap_err();
        assert!(format!("{err:#}").contains("types.csv"), "{err:#}");
        assert!(!out.join(DATASET_FILE_NAME).exists());
        std::fs::remove_dir_all(&out).unwrap();
    }
}
