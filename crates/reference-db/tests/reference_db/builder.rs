//! The CSV builder over the fixtures: determinism, progress, counts, and
//! malformed input naming file, line and column.

use std::fs;

use reference_db::build::{Progress, build_dataset};
use reference_db::{BuildError, Counts, Dataset, ReferenceDb};

use crate::support::{build, fixture_dir};

#[test]
fn same_input_gives_byte_identical_output() {
    let first = build(&fixture_dir()).to_bytes();
    let second = build(&fixture_dir()).to_bytes();
    assert_eq!(first, second);
    assert!(first.starts_with(reference_db::dataset::MAGIC));
}

#[test]
fn counts_and_progress() {
    let mut reading = Vec::new();
    let mut read_rows = 0u64;
    let dataset = build_dataset(&fixture_dir(), &mut |p: Progress<'_>| match p {
        Progress::Reading { file, .. } => reading.push(file.to_owned()),
        Progress::Read { rows, .. } => read_rows += rows,
        Progress::DuplicateSlug { slug, .. } => panic!("the fixtures repeat no slug, got {slug}"),
    })
    .unwrap();
    assert!(reading.iter().any(|f| f == "pokemon_moves.csv"));
    assert!(reading.iter().any(|f| f == "item_flavor_text.csv"));
    assert!(read_rows > 300, "rows read: {read_rows}");
    let counts = dataset.counts();
    assert_eq!(
        (
            counts.creatures,
            counts.moves,
            counts.abilities,
            counts.items
        ),
        (15, 12, 25, 7),
        "{counts:?}"
    );
    let db = ReferenceDb::from_dataset(dataset);
    let Counts { move_learners, .. } = db.counts();
    // 9 moves' distinct learners, duplicates across games removed
    assert_eq!(move_learners, 6 + 4 + 6 + 3 + 4 + 3 + 1 + 5 + 1);
}

/// Copies the fixtures to a temp dir, lets `edit` change one file, builds.
fn build_edited(
    tag: &str,
    name: &str,
    edit: impl FnOnce(&str) -> String,
) -> Result<Dataset, BuildError> {
    let dir = std::env::temp_dir().join(format!("refdb-{tag}-{}-{name}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    for entry in fs::read_dir(fixture_dir()).unwrap() {
        let entry = entry.unwrap();
        fs::copy(entry.path(), dir.join(entry.file_name())).unwrap();
    }
    let path = dir.join(name);
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, edit(&text)).unwrap();
    let result = build_dataset(&dir, &mut |_: Progress<'_>| {});
    fs::remove_dir_all(&dir).unwrap();
    result
}

/// Copies the fixtures to a temp dir, lets `edit` break one file, builds.
fn build_broken(name: &str, edit: impl FnOnce(&str) -> String) -> BuildError {
    build_edited("broken", name, edit).expect_err("a broken source must fail")
}

/// Egg groups come in the source's row order, not by id (the real data
/// lists woobat as Field (5), Flying (4)).
#[test]
fn egg_groups_follow_the_source_row_order() {
    let egg_groups = |dataset: Dataset| {
        ReferenceDb::from_dataset(dataset)
            .lookup_creature("nidoran-f")
            .unwrap()
            .egg_groups
            .clone()
    };
    assert_eq!(egg_groups(build(&fixture_dir())), ["Monster", "Field"]);
    let swapped = build_edited("eggs", "pokemon_egg_groups.csv", |t| {
        assert!(t.contains("29,1\n29,5\n"));
        t.replace("29,1\n29,5\n", "29,5\n29,1\n29,5\n")
    })
    .unwrap();
    assert_eq!(
        egg_groups(swapped),
        ["Field", "Monster"],
        "row order, a repeated row keeping its first place"
    );
}

#[test]
fn malformed_number_names_file_line_and_column() {
    let err = build_broken("pokemon.csv", |t| {
        t.replace("25,pikachu,25,4,60,", "25,pikachu,25,four,60,")
    });
    match &err {
        BuildError::Malformed {
            file,
            line,
            column,
            message,
        } => {
            assert!(file.ends_with("pokemon.csv"));
            assert_eq!((*line, *column), (5, 4), "{message}");
            assert!(message.contains("\"four\""), "{message}");
        }
        other => panic!("unexpected {other:?}"),
    }
    let text = err.to_string();
    assert!(text.contains("pokemon.csv: line 5, column 4"), "{text}");
}

#[test]
fn ragged_row_and_dangling_reference_fail() {
    let err = build_broken("moves.csv", |t| {
        t.replace(
            "2,karate-chop,1,2,50,25,100,0,10,2,44,,5,1,5",
            "2,karate-chop,1,2",
        )
    });
    assert!(
        matches!(err, BuildError::Malformed { line: 3, .. }),
        "{err}"
    );
    assert!(err.to_string().contains("moves.csv"), "{err}");

    let err = build_broken("pokemon_types.csv", |t| t.replace("1,12,1", "1,77,1"));
    assert!(
        matches!(
            err,
            BuildError::Malformed {
                line: 2,
                column: 2,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("unknown type id 77"), "{err}");

    let err = build_broken("items.csv", |t| t.replace("cost", "price"));
    assert!(
        matches!(&err, BuildError::MissingColumn { column, .. } if column == "cost"),
        "{err}"
    );
}

#[test]
fn missing_file_fails_with_its_name() {
    let err = build_dataset(&fixture_dir().join("nope"), &mut |_: Progress<'_>| {}).unwrap_err();
    assert!(matches!(err, BuildError::Io { .. }));
    assert!(err.to_string().contains("types.csv"), "{err}");
}

/// A slug repeated under a higher id (PokeAPI's second `roseli-berry`,
/// id 2279, with no names or text) is kept: its id finds it, with the
/// first record's display name; the slug and the name find the first, and
/// a near miss suggests the slug once.
#[test]
fn a_repeated_slug_is_found_by_its_id_and_its_name_finds_the_first() {
    let repeated =
        build_edited("repeat", "items.csv", |t| format!("{t}2279,potion,27,,,\n")).unwrap();
    let db = ReferenceDb::from_dataset(repeated);
    let first = db.lookup_item("potion").unwrap();
    assert_eq!((first.id, first.cost), (17, 200));
    assert_eq!(db.lookup_item("Potion").unwrap().id, 17);
    let repeat = db.lookup_item("2279").unwrap();
    assert_eq!(
        (
            repeat.id,
            repeat.slug.as_str(),
            repeat.display_name.as_str()
        ),
        (2279, "potion", first.display_name.as_str())
    );
    assert_ne!(first.display_name, "potion", "the fixtures name potion");
    assert_eq!(repeat.effect, None);
    let miss = db.lookup_item("potio").unwrap_err();
    let reference_db::LookupError::NotFound { suggestions, .. } = miss else {
        panic!("a miss: {miss:?}");
    };
    let slugs: Vec<&str> = suggestions.iter().map(|s| s.slug.as_str()).collect();
    assert_eq!(
        slugs.iter().filter(|s| **s == "potion").count(),
        1,
        "{slugs:?}"
    );
    assert_eq!(slugs.first(), Some(&"potion"));
}
