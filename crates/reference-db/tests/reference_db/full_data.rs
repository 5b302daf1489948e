//! Checks over the full PokeAPI data: known records field by field and
//! invariants over every record.
//!
//! `cargo xtask test` builds the full data (`cargo xtask data`) into a
//! directory and names it in `MENAGERIE_FULL_DATA`, and the source it was
//! built from in `MENAGERIE_FULL_DATA_SOURCE`. When the variables are set
//! and the dataset there is missing or unusable, these tests FAIL. When it is
//! unset (a plain `cargo test`), they say so on stderr and check nothing.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use reference_db::{DATASET_FILE_NAME, Gender, LookupError, ReferenceDb, Stats};

use crate::support::build;

/// The built full data directory, when the test run has one.
fn full_data_dir() -> Option<PathBuf> {
    match std::env::var_os("MENAGERIE_FULL_DATA").filter(|v| !v.is_empty()) {
        Some(dir) => Some(PathBuf::from(dir)),
        None => {
            eprintln!(
                "full-data checks not run: MENAGERIE_FULL_DATA is unset (`cargo xtask test` sets it)"
            );
            None
        }
    }
}

/// The full dataset's file bytes and the database loaded from them.
fn full() -> Option<&'static (Vec<u8>, ReferenceDb)> {
    static DB: OnceLock<Option<(Vec<u8>, ReferenceDb)>> = OnceLock::new();
    DB.get_or_init(|| {
        full_data_dir().map(|dir| {
            let path = dir.join(DATASET_FILE_NAME);
            let bytes = std::fs::read(&path).unwrap_or_else(|e| {
                panic!(
                    "MENAGERIE_FULL_DATA is set but {} is unreadable: {e}",
                    path.display()
                )
            });
            let db = ReferenceDb::from_bytes(&bytes)
                .unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()));
            (bytes, db)
        })
    })
    .as_ref()
}

fn full_db() -> Option<&'static ReferenceDb> {
    full().map(|(_, db)| db)
}

/// The source CSVs the full data was built from, as `cargo xtask test`
/// names them in `MENAGERIE_FULL_DATA_SOURCE` (the `--source` folder,
/// `MENAGERIE_DATA_SOURCE`, the data folder beside the clone or the
/// download cache: never guessed here).
fn full_source() -> PathBuf {
    let root = std::env::var_os("MENAGERIE_FULL_DATA_SOURCE")
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| {
            panic!(
                "MENAGERIE_FULL_DATA is set but MENAGERIE_FULL_DATA_SOURCE, the source it was \
                 built from, is not (`cargo xtask test` sets both)"
            )
        });
    PathBuf::from(root).join("pokeapi")
}

/// A build in this process gives the very bytes `cargo xtask data` wrote.
#[test]
fn full_build_is_deterministic() {
    let Some((bytes, _)) = full() else { return };
    let source = full_source();
    assert!(
        source.join("pokemon.csv").is_file(),
        "full data is set but its source {} is missing",
        source.display()
    );
    assert!(
        build(&source).to_bytes() == *bytes,
        "a rebuild differs from the file `cargo xtask data` wrote"
    );
}

#[test]
fn known_creatures() {
    let Some(db) = full_db() else { return };
    let bulbasaur = db.lookup_creature("001").unwrap();
    assert_eq!(
        (bulbasaur.slug.as_str(), bulbasaur.number_text().as_str()),
        ("bulbasaur", "001")
    );
    assert_eq!(bulbasaur.types, ["Grass", "Poison"]);
    assert_eq!(bulbasaur.species_words(), ["Seed", "Pokémon"]);
    assert_eq!(bulbasaur.abilities, ["Overgrow", "Chlorophyll"]);
    assert_eq!(bulbasaur.height_text(), "0.7 m (2′04″)");
    assert_eq!(bulbasaur.weight_text(), "6.9 kg (15.2 lbs)");
    assert_eq!(bulbasaur.base_experience, Some(64));
    assert_eq!(bulbasaur.gender_text(), ["87.5% male", "12.5% female"]);
    assert_eq!(bulbasaur.egg_groups, ["Monster", "Grass"]);
    assert_eq!(
        bulbasaur.stats,
        Stats {
            hp: 45,
            attack: 49,
            defense: 49,
            sp_atk: 65,
            sp_def: 65,
            speed: 45
        }
    );
    assert_eq!(bulbasaur.stats.total(), 318);
    assert_eq!(bulbasaur.evolution_stage, 1);
    assert_eq!(
        bulbasaur.evolution_line,
        ["Bulbasaur", "Ivysaur", "Venusaur"]
    );
    assert_eq!(
        bulbasaur.description.as_deref(),
        Some(
            "While it is young, it uses the nutrients that are stored in the seed on its back in order to grow."
        )
    );
    assert_eq!(bulbasaur.generation, 1);

    let pikachu = db.lookup_creature("Pikachu").unwrap();
    assert_eq!(pikachu.number_text(), "025");
    assert_eq!(pikachu.types, ["Electric"]);
    assert_eq!(pikachu.species_words(), ["Mouse", "Pokémon"]);
    assert_eq!(pikachu.abilities, ["Static", "Lightning Rod"]);
    assert_eq!(pikachu.height_text(), "0.4 m (1′04″)");
    assert_eq!(pikachu.weight_text(), "6.0 kg (13.2 lbs)");
    assert_eq!(pikachu.base_experience, Some(112));
    assert_eq!(pikachu.gender_text(), ["50% male", "50% female"]);
    assert_eq!(pikachu.egg_groups, ["Field", "Fairy"]);
    // The source's row order, not id order (Flying has the lower id).
    assert_eq!(
        db.lookup_creature("woobat").unwrap().egg_groups,
        ["Field", "Flying"]
    );
    assert_eq!(
        db.lookup_creature("swoobat").unwrap().egg_groups,
        ["Field", "Flying"]
    );
    assert_eq!(
        pikachu.stats,
        Stats {
            hp: 35,
            attack: 55,
            defense: 40,
            sp_atk: 50,
            sp_def: 50,
            speed: 90
        }
    );
    assert_eq!(pikachu.evolution_stage, 2);
    assert_eq!(pikachu.evolution_line, ["Pichu", "Pikachu", "Raichu"]);
    assert_eq!(
        pikachu.description.as_deref(),
        Some(
            "Possesses cheek sacs in which it stores electricity. This clever forest-dweller roasts tough \
             berries with an electric shock before consuming them."
        )
    );
    assert_eq!(db.lookup_creature("pichu").unwrap().evolution_stage, 1);
    let alola = db.lookup_creature("raichu-alola").unwrap();
    assert_eq!(
        (alola.number_text().as_str(), alola.evolution_stage),
        ("026", 3)
    );
    assert_eq!(alola.types, ["Electric", "Psychic"]);
    assert_eq!(
        db.lookup_creature("Alolan Raichu").unwrap().slug,
        "raichu-alola"
    );

    let eevee = db.lookup_creature("133").unwrap();
    assert_eq!(eevee.slug, "eevee");
    assert_eq!(eevee.types, ["Normal"]);
    assert_eq!(
        eevee.abilities,
        ["Run Away", "Adaptability", "Anticipation"]
    );
    assert_eq!(eevee.gender, Gender::FemaleEighths(1));
    assert_eq!(eevee.stats.total(), 325);
    assert_eq!(eevee.evolution_stage, 1);
    assert_eq!(
        eevee.evolution_line,
        [
            "Eevee", "Vaporeon", "Jolteon", "Flareon", "Espeon", "Umbreon", "Leafeon", "Glaceon",
            "Sylveon"
        ]
    );
    assert_eq!(db.lookup_creature("sylveon").unwrap().evolution_stage, 2);

    assert_eq!(
        db.lookup_creature("flabebe").unwrap().display_name,
        "Flabébé"
    );
    assert_eq!(
        db.lookup_creature("magnemite").unwrap().gender_text(),
        ["Genderless"]
    );
    assert_eq!(db.lookup_creature("1000").unwrap().number_text(), "1000");
    assert_eq!(db.lookup_creature("Mr. Mime").unwrap().slug, "mr-mime");
    assert_eq!(db.lookup_creature("Farfetch’d").unwrap().slug, "farfetchd");
    assert_eq!(db.lookup_creature("nidoran♂").unwrap().slug, "nidoran-m");
}

#[test]
fn known_move_ability_item() {
    let Some(db) = full_db() else { return };
    let chop = db.lookup_move("Karate Chop").unwrap();
    assert_eq!(
        (chop.id, chop.slug.as_str(), chop.generation),
        (2, "karate-chop", 1)
    );
    assert_eq!(
        chop.effect.as_deref(),
        Some("Has an increased chance for a critical hit.")
    );
    assert_eq!(
        (
            chop.type_slug.as_str(),
            chop.category.as_deref(),
            chop.contest.as_deref()
        ),
        ("fighting", Some("physical"), Some("tough"))
    );
    assert_eq!(
        (chop.pp, chop.power, chop.accuracy, chop.priority),
        (Some(25), Some(50), Some(100), 0)
    );
    let learners: Vec<&str> = db.learners(chop).map(|c| c.slug.as_str()).collect();
    assert_eq!(
        learners,
        [
            "mankey", "primeape", "machop", "machoke", "machamp", "elekid", "magby", "sawk",
            "pancham", "pangoro", "hawlucha"
        ]
    );
    assert_eq!(chop.descriptions.len(), 16);
    assert_eq!(chop.descriptions[0].version, "gold-silver");
    assert_eq!(chop.descriptions[0].text, "Has a high critical hit ratio.");
    assert_eq!(chop.descriptions[15].version, "sword-shield");

    let fire_punch = db.lookup_move("fire-punch").unwrap();
    assert_eq!(
        fire_punch.effect.as_deref(),
        Some("Has a 10% chance to burn the target.")
    );
    // Every "a chance" of a two-effect move is filled.
    for (fang, status) in [
        ("fire-fang", "burn"),
        ("ice-fang", "freeze"),
        ("thunder-fang", "paralyze"),
    ] {
        assert_eq!(
            db.lookup_move(fang).unwrap().effect.as_deref(),
            Some(
                format!(
                    "Has a 10% chance to {status} the target and a 10% chance to make the target flinch."
                )
                .as_str()
            ),
            "{fang}"
        );
    }
    // Short effects keep the source's two spaces after a full stop.
    assert_eq!(
        db.lookup_move("sky-attack").unwrap().effect.as_deref(),
        Some(
            "User charges for one turn before attacking.  Has a 30% chance to make the target flinch."
        )
    );
    assert_eq!(
        db.lookup_move("twineedle").unwrap().effect.as_deref(),
        Some("Hits twice in the same turn.  Has a 20% chance to poison the target.")
    );
    let growl = db.lookup_move("growl").unwrap();
    assert_eq!(
        (growl.power, growl.category.as_deref()),
        (None, Some("status"))
    );

    let stench = db.lookup_ability("stench").unwrap();
    assert_eq!((stench.id, stench.generation), (1, 3));
    assert_eq!(
        stench.effect.as_deref(),
        Some("Has a 10% chance of making target Pokémon flinch with each hit.")
    );
    assert_eq!(
        stench.newest_description(),
        Some("By releasing a stench when attacking, the Pokémon may cause the target to flinch.")
    );
    assert_eq!(stench.descriptions.len(), 15);
    assert_eq!(
        (
            stench.descriptions[0].version.as_str(),
            stench.descriptions[0].text.as_str()
        ),
        ("ruby-sapphire", "Helps repel wild POKéMON.")
    );
    let holders: Vec<(&str, bool)> = stench
        .holders
        .iter()
        .map(|h| (db.creature_at(h.creature).slug.as_str(), h.hidden))
        .collect();
    assert_eq!(
        &holders[..9],
        [
            ("gloom", true),
            ("grimer", false),
            ("muk", false),
            ("koffing", true),
            ("weezing", true),
            ("stunky", false),
            ("skuntank", false),
            ("trubbish", false),
            ("garbodor", false),
        ]
    );
    assert!(holders.contains(&("garbodor-gmax", false)));

    let roseli = db.lookup_item("roseli-berry").unwrap();
    assert_eq!(
        (roseli.id, roseli.cost),
        (723, 80),
        "a repeated slug finds its lowest id"
    );
    // PokeAPI's second roseli-berry row: served by its id, under the name
    // of the first.
    let repeat = db.lookup_item("2279").unwrap();
    assert_eq!(
        (
            repeat.id,
            repeat.slug.as_str(),
            repeat.display_name.as_str()
        ),
        (2279, "roseli-berry", roseli.display_name.as_str())
    );

    let ball = db.lookup_item("master ball").unwrap();
    assert_eq!(
        (
            ball.id,
            ball.slug.as_str(),
            ball.cost,
            ball.category.as_str()
        ),
        (1, "master-ball", 0, "standard-balls")
    );
    assert_eq!(
        ball.attributes,
        ["countable", "consumable", "usable-in-battle", "holdable"]
    );
    assert_eq!(
        ball.effect.as_deref(),
        Some("Catches a wild Pokémon every time.")
    );
    assert_eq!(ball.descriptions.len(), 13);
    assert_eq!(
        ball.descriptions[0].text,
        "The best BALL that catches a POKéMON without fail."
    );
    assert_eq!(ball.descriptions[0].version, "ruby-sapphire");
}

#[test]
fn misses_suggest_over_the_full_lists() {
    let Some(db) = full_db() else { return };
    let Err(LookupError::NotFound { suggestions, .. }) = db.lookup_move("thunderbolx") else {
        panic!()
    };
    assert_eq!(suggestions[0].slug, "thunderbolt");
    let Err(LookupError::NotFound { suggestions, .. }) = db.lookup_item("masterball") else {
        panic!()
    };
    assert_eq!(suggestions[0].slug, "master-ball");
    let Err(LookupError::NotFound { suggestions, .. }) = db.lookup_ability("stenchy") else {
        panic!()
    };
    assert_eq!(suggestions[0].slug, "stench");
}

#[test]
fn invariants_over_every_record() {
    let Some(db) = full_db() else { return };
    let counts = db.counts();
    assert!(
        counts.creatures >= 1300
            && counts.moves >= 900
            && counts.abilities >= 350
            && counts.items >= 2000,
        "{counts:?}"
    );

    let mut slugs = HashSet::new();
    let mut ids = HashSet::new();
    let mut default_species = HashSet::new();
    for c in db.creatures() {
        assert!(
            slugs.insert(c.slug.as_str()),
            "duplicate creature slug {}",
            c.slug
        );
        assert!(
            ids.insert(c.pokemon_id),
            "duplicate pokemon id {}",
            c.pokemon_id
        );
        if c.is_default {
            assert!(
                default_species.insert(c.species_id),
                "two default forms of species {}",
                c.species_id
            );
            assert!(std::ptr::eq(
                db.lookup_creature(&c.species_id.to_string()).unwrap(),
                c
            ));
            assert!(std::ptr::eq(
                db.lookup_creature(&c.number_text()).unwrap(),
                c
            ));
        }
        assert!(
            std::ptr::eq(db.lookup_creature(&c.slug).unwrap(), c),
            "{} finds itself",
            c.slug
        );
        assert_eq!(c.slug, c.slug.to_lowercase());
        // (a few new mega forms have no abilities in the data yet)
        assert!(
            !c.display_name.is_empty() && !c.types.is_empty(),
            "{}",
            c.slug
        );
        assert!(c.number_text().len() >= 3 && c.number_text().bytes().all(|b| b.is_ascii_digit()));
        assert!((1..=9).contains(&c.generation), "{}", c.slug);
        assert!(c.stats.total() > 0 && c.height_dm > 0, "{}", c.slug);
        let line = &c.evolution_line;
        assert!(
            usize::from(c.evolution_stage) >= 1 && usize::from(c.evolution_stage) <= line.len(),
            "{}",
            c.slug
        );
        let species_name = &db
            .lookup_creature(&c.species_id.to_string())
            .unwrap()
            .display_name;
        assert!(
            line.contains(species_name),
            "{}'s line {line:?} lacks {species_name}",
            c.slug
        );
        if let Some(d) = &c.description {
            assert!(
                !d.is_empty() && !d.contains(['\n', '\u{c}', '\u{ad}']) && !d.contains("  "),
                "{}: {d:?}",
                c.slug
            );
        }
        if let Gender::FemaleEighths(f) = c.gender {
            assert!(f <= 8);
        }
    }
    assert!(default_species.len() >= 1000);

    /// Ids are unique; a slug repeats only at a higher id (PokeAPI's
    /// second roseli-berry), and only items repeat one.
    fn unique<'a>(what: &str, items: impl Iterator<Item = (u32, &'a str)>) {
        let (mut ids, mut slugs) = (HashSet::new(), HashSet::new());
        for (id, slug) in items {
            assert!(ids.insert(id), "duplicate {what} id {id}");
            assert!(
                slugs.insert(slug) || (what, slug, id) == ("item", "roseli-berry", 2279),
                "duplicate {what} slug {slug} at id {id}"
            );
        }
    }
    unique("move", db.moves().iter().map(|m| (m.id, m.slug.as_str())));
    unique(
        "ability",
        db.abilities().iter().map(|a| (a.id, a.slug.as_str())),
    );
    unique("item", db.items().iter().map(|i| (i.id, i.slug.as_str())));

    let creature_count = db.creatures().len() as u32;
    for m in db.moves() {
        assert!(
            std::ptr::eq(db.lookup_move(&m.slug).unwrap(), m),
            "{}",
            m.slug
        );
        assert!(m.learners.iter().all(|i| *i < creature_count), "{}", m.slug);
        assert!(
            m.learners.windows(2).all(|w| w[0] < w[1]),
            "{} learners sorted and unique",
            m.slug
        );
        assert!((1..=9).contains(&m.generation));
        if let Some(effect) = &m.effect {
            // A filled chance leaves no placeholder behind.
            assert!(!effect.contains("$effect_chance"), "{}: {effect}", m.slug);
            assert!(
                !(effect.contains("% chance")
                    && (effect.starts_with("a chance") || effect.contains(" a chance"))),
                "{}: {effect}",
                m.slug
            );
            assert_eq!(effect.trim(), effect, "{}", m.slug);
        }
        for d in &m.descriptions {
            assert!(
                !d.text.contains(['\n', '\u{c}', '\u{ad}']),
                "{}: {:?}",
                m.slug,
                d.text
            );
        }
    }
    assert!(db.moves().iter().filter(|m| !m.learners.is_empty()).count() > 800);
    let double_spaced = db
        .moves()
        .iter()
        .filter(|m| m.effect.as_deref().is_some_and(|e| e.contains(".  ")))
        .count();
    assert!(
        double_spaced >= 30,
        "{double_spaced} effects keep the source's spacing"
    );
    for a in db.abilities() {
        assert!(
            std::ptr::eq(db.lookup_ability(&a.slug).unwrap(), a),
            "{}",
            a.slug
        );
        assert!(a.holders.iter().all(|h| h.creature < creature_count));
    }
    for i in db.items() {
        // The slug finds its record, or for a repeat the lowest id's.
        let found = db.lookup_item(&i.slug).unwrap();
        assert!(
            std::ptr::eq(found, i) || (found.slug == i.slug && found.id < i.id),
            "{}",
            i.slug
        );
        assert!(std::ptr::eq(db.lookup_item(&i.id.to_string()).unwrap(), i));
        assert!(!i.category.is_empty());
    }
}
