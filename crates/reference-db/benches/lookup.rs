//! Lookup speed of the creature reference (criterion).
//!
//! Data: the full dataset when one is built (`$MENAGERIE_FULL_DATA`, else
//! `data/` at the repository root), otherwise the fixtures built in process
//! (then the numbers say little; the run prints which it used).
//!
//! Groups:
//! - `hit`: lookups that find a record (slug, number, display name, accents);
//! - `miss`: misses with suggestions over every move / item, and the
//!   baseline `strsim_scan` (strsim's Sørensen–Dice against every item slug,
//!   what a plain implementation does) to read the index's gain as a ratio;
//! - `load`: decoding and indexing the dataset file (the server's start-up
//!   share of the reference).
//!
//! `cargo bench -p reference-db --bench lookup`

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};
use reference_db::{DATASET_FILE_NAME, ReferenceDb, lookup_key};

fn dataset_bytes() -> Vec<u8> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates = [
        std::env::var_os("MENAGERIE_FULL_DATA").map(PathBuf::from),
        Some(root.join("data")),
    ];
    for dir in candidates.into_iter().flatten() {
        let path = dir.join(DATASET_FILE_NAME);
        if let Ok(bytes) = std::fs::read(&path) {
            eprintln!("lookup bench: dataset {}", path.display());
            return bytes;
        }
    }
    eprintln!(
        "lookup bench: no built dataset found; using the fixtures (numbers are not representative)"
    );
    reference_db::build::build_dataset(&root.join("fixtures/pokeapi"), &mut |_| {})
        .expect("fixtures build")
        .to_bytes()
}

fn benches(c: &mut Criterion) {
    let bytes = dataset_bytes();
    let db = ReferenceDb::from_bytes(&bytes).expect("dataset loads");

    let mut hit = c.benchmark_group("hit");
    hit.bench_function("creature_slug", |b| {
        b.iter(|| db.lookup_creature(black_box("pikachu")).is_ok())
    });
    hit.bench_function("creature_number", |b| {
        b.iter(|| db.lookup_creature(black_box("025")).is_ok())
    });
    hit.bench_function("creature_form", |b| {
        b.iter(|| db.lookup_creature(black_box("Raichu Alola")).is_ok())
    });
    hit.bench_function("move_display_name", |b| {
        b.iter(|| db.lookup_move(black_box("Karate Chop")).is_ok())
    });
    hit.bench_function("item_accented", |b| {
        b.iter(|| db.lookup_item(black_box("Poké Ball")).is_ok())
    });
    hit.finish();

    let mut miss = c.benchmark_group("miss");
    miss.bench_function("item_with_suggestions", |b| {
        b.iter(|| db.lookup_item(black_box("master bal")).is_err())
    });
    miss.bench_function("item_long_typo", |b| {
        b.iter(|| {
            db.lookup_item(black_box("super potoin of healing"))
                .is_err()
        })
    });
    miss.bench_function("move_with_suggestions", |b| {
        b.iter(|| db.lookup_move(black_box("thunderbolx")).is_err())
    });
    miss.bench_function("strsim_scan_items_baseline", |b| {
        let slugs: Vec<&str> = db.items().iter().map(|i| i.slug.as_str()).collect();
        b.iter(|| {
            let key = lookup_key(black_box("master bal"));
            let mut scored: Vec<(f64, &str)> = slugs
                .iter()
                .map(|s| (strsim::sorensen_dice(&key, s), *s))
                .filter(|(score, _)| *score >= reference_db::SUGGESTION_FLOOR)
                .collect();
            scored.sort_by(|a, b| b.0.total_cmp(&a.0));
            scored.truncate(5);
            scored.len()
        })
    });
    miss.finish();

    let mut load = c.benchmark_group("load");
    load.sample_size(10);
    load.bench_function("decode_and_index", |b| {
        b.iter(|| ReferenceDb::from_bytes(black_box(&bytes)).is_ok())
    });
    load.finish();
}

criterion_group!(lookup, benches);
criterion_main!(lookup);
