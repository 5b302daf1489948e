//! Lookups and record contents over the fixture dataset.

use reference_db::{Gender, LookupError, RecordKind, SUGGESTION_FLOOR, Stats};

use crate::support::fixture_db;

#[test]
fn creature_by_number_name_and_form() {
    let db = fixture_db();
    for query in ["25", "025", "#25", "pikachu", "Pikachu", " PIKACHU "] {
        assert_eq!(
            db.lookup_creature(query).unwrap().slug,
            "pikachu",
            "{query}"
        );
    }
    for query in [
        "raichu-alola",
        "Raichu Alola",
        "raichu_alola",
        "Alolan Raichu",
        "10100",
    ] {
        assert_eq!(
            db.lookup_creature(query).unwrap().slug,
            "raichu-alola",
            "{query}"
        );
    }
    assert_eq!(db.lookup_creature("26").unwrap().slug, "raichu");
    assert_eq!(db.lookup_creature("Raichu").unwrap().slug, "raichu");
    for query in ["flabebe", "Flabébé", "FLABÉBÉ", "669", "flabebe-yellow"] {
        assert_eq!(
            db.lookup_creature(query).unwrap().slug,
            "flabebe",
            "{query}"
        );
    }
    for query in ["Nidoran♀", "nidoran-f", "nidoran f"] {
        assert_eq!(
            db.lookup_creature(query).unwrap().slug,
            "nidoran-f",
            "{query}"
        );
    }
    // A misspelt creature gets "did you mean", led by the creature meant.
    for (query, meant) in [
        ("pikachoo", "pikachu"),
        ("pikachuu", "pikachu"),
        ("bulbsaur", "bulbasaur"),
    ] {
        match db.lookup_creature(query) {
            Err(LookupError::NotFound {
                kind: RecordKind::Creature,
                suggestions,
                ..
            }) => assert_eq!(
                suggestions.first().map(|s| s.slug.as_str()),
                Some(meant),
                "{query}: {suggestions:?}"
            ),
            other => panic!("{query}: {other:?}"),
        }
    }
    for query in ["0", "9999", "---"] {
        assert!(
            matches!(db.lookup_creature(query), Err(LookupError::NotFound { .. })),
            "{query}"
        );
    }
    assert_eq!(
        db.lookup_creature("  "),
        Err(LookupError::EmptyQuery {
            kind: RecordKind::Creature
        })
    );
}

#[test]
fn bulbasaur_record() {
    let c = fixture_db().lookup_creature("1").unwrap();
    assert_eq!(c.slug, "bulbasaur");
    assert_eq!(c.display_name, "Bulbasaur");
    assert_eq!(c.number_text(), "001");
    assert_eq!(c.types, ["Grass", "Poison"]);
    assert_eq!(c.species_words(), ["Seed", "Pokémon"]);
    assert_eq!(c.abilities, ["Overgrow", "Chlorophyll"]);
    assert_eq!(c.height_text(), "0.7 m (2′04″)");
    assert_eq!(c.weight_text(), "6.9 kg (15.2 lbs)");
    assert_eq!(c.base_experience, Some(64));
    assert_eq!(c.gender, Gender::FemaleEighths(1));
    assert_eq!(c.gender_text(), ["87.5% male", "12.5% female"]);
    assert_eq!(c.egg_groups, ["Monster", "Grass"]);
    assert_eq!(
        c.stats,
        Stats {
            hp: 45,
            attack: 49,
            defense: 49,
            sp_atk: 65,
            sp_def: 65,
            speed: 45
        }
    );
    assert_eq!(c.stats.total(), 318);
    assert_eq!(c.evolution_stage, 1);
    assert_eq!(c.evolution_line, ["Bulbasaur", "Ivysaur", "Venusaur"]);
    // violet (newest version) wins over scarlet and red; the soft hyphen joins
    assert_eq!(
        c.description.as_deref(),
        Some("It carries a seed on its back. The seed slowly grows as it soaks up sunlight.")
    );
    assert_eq!(c.generation, 1);
    assert_eq!(
        fixture_db()
            .lookup_creature("venusaur")
            .unwrap()
            .evolution_stage,
        3
    );
}

#[test]
fn baby_line_branching_and_forms() {
    let db = fixture_db();
    let line = ["Pichu", "Pikachu", "Raichu"];
    for (slug, stage) in [
        ("pichu", 1),
        ("pikachu", 2),
        ("raichu", 3),
        ("raichu-alola", 3),
    ] {
        let c = db.lookup_creature(slug).unwrap();
        assert_eq!(c.evolution_stage, stage, "{slug}");
        assert_eq!(c.evolution_line, line, "{slug}");
    }
    let alola = db.lookup_creature("raichu-alola").unwrap();
    assert_eq!(alola.display_name, "Alolan Raichu");
    assert_eq!(alola.number_text(), "026");
    assert_eq!(alola.types, ["Electric", "Psychic"]);
    assert!(!alola.is_default);
    let sprites = alola.sprites("https://sprites.test/sprites");
    assert_eq!(
        sprites.normal,
        "https://sprites.test/sprites/pokemon/10100.png"
    );
    assert_eq!(
        sprites.animated, sprites.normal,
        "no animated sprite: fallback"
    );
    let pikachu = db.lookup_creature("pikachu").unwrap();
    assert_eq!(
        pikachu.sprites("https://sprites.test/sprites").animated,
        "https://sprites.test/sprites/pokemon/versions/generation-v/black-white/animated/25.gif"
    );
    assert_eq!(
        pikachu.description.as_deref(),
        Some("It stores electricity in its cheeks."),
        "sun (newest) over red"
    );
    let raichu = db.lookup_creature("raichu").unwrap();
    assert_eq!(
        raichu.description.as_deref(),
        Some("Its long tail serves as a ground to protect itself.")
    );

    let eevee = db.lookup_creature("eevee").unwrap();
    assert_eq!(eevee.evolution_stage, 1);
    assert_eq!(
        eevee.evolution_line,
        ["Eevee", "Vaporeon", "Jolteon", "Flareon", "Espeon"]
    );
    assert_eq!(db.lookup_creature("espeon").unwrap().evolution_stage, 2);
    assert_eq!(
        eevee.description.as_deref(),
        Some("Its genetic code is irregular. It may mutate if exposed to radiation from stones.")
    );
}

#[test]
fn genderless_nullable_and_accented() {
    let db = fixture_db();
    let magnemite = db.lookup_creature("magnemite").unwrap();
    assert_eq!(magnemite.gender_text(), ["Genderless"]);
    assert_eq!(magnemite.description, None, "no English dex entry");
    assert_eq!(magnemite.evolution_line, ["Magnemite"]);
    let flabebe = db.lookup_creature("flabebe").unwrap();
    assert_eq!(flabebe.display_name, "Flabébé");
    assert_eq!(flabebe.base_experience, None);
    assert_eq!(flabebe.gender_text(), ["0% male", "100% female"]);
    assert_eq!(flabebe.generation, 6);
    assert_eq!(flabebe.number_text(), "669");
    assert!(!flabebe.has_animated_sprite());
}

#[test]
fn moves_records() {
    let db = fixture_db();
    for query in [
        "karate-chop",
        "Karate Chop",
        "KARATE_CHOP",
        "karate chop",
        "2",
    ] {
        assert_eq!(
            db.lookup_move(query).unwrap().slug,
            "karate-chop",
            "{query}"
        );
    }
    let chop = db.lookup_move("karate-chop").unwrap();
    assert_eq!(chop.id, 2);
    assert_eq!(chop.generation, 1);
    assert_eq!(chop.type_slug, "fighting");
    assert_eq!(chop.category.as_deref(), Some("physical"));
    assert_eq!(chop.contest.as_deref(), Some("tough"));
    assert_eq!(
        (chop.pp, chop.power, chop.accuracy, chop.priority),
        (Some(25), Some(50), Some(100), 0)
    );
    assert_eq!(
        chop.effect.as_deref(),
        Some("Has an increased chance for a critical hit.")
    );
    let versions: Vec<(&str, &str)> = chop
        .descriptions
        .iter()
        .map(|d| (d.version.as_str(), d.text.as_str()))
        .collect();
    assert_eq!(
        versions,
        [
            ("red-blue", "The foe is chopped with a sharp hand."),
            (
                "ruby-sapphire",
                "The foe is attacked with a sharp chop. It has a high critical-hit ratio."
            ),
            (
                "scarlet-violet",
                "The target is attacked with a sharp chop. Critical hits land more easily."
            ),
        ]
    );
    assert!(chop.learners.is_empty());

    let fire_punch = db.lookup_move("fire punch").unwrap();
    assert_eq!(
        fire_punch.effect.as_deref(),
        Some("Has a 10% chance to burn the target.")
    );
    // Every "a chance" gets the move's chance, and the source's two spaces
    // after a full stop are kept.
    let fang = db.lookup_move("fire fang").unwrap();
    assert_eq!(
        fang.effect.as_deref(),
        Some(
            "Bites.  Has a 10% chance to burn the target and a 10% chance to make the target flinch."
        )
    );
    let bolt = db.lookup_move("thunderbolt").unwrap();
    assert_eq!(
        bolt.effect.as_deref(),
        Some("Has a 10% chance to paralyze the target.")
    );
    let learners: Vec<&str> = db.learners(bolt).map(|c| c.slug.as_str()).collect();
    assert_eq!(
        learners,
        [
            "pikachu",
            "raichu",
            "magnemite",
            "jolteon",
            "pichu",
            "raichu-alola"
        ]
    );

    let growl = db.lookup_move("growl").unwrap();
    assert_eq!(
        (growl.power, growl.category.as_deref()),
        (None, Some("status"))
    );
    let swift = db.lookup_move("swift").unwrap();
    assert_eq!(swift.accuracy, None);
    let tera = db.lookup_move("Tera Blast").unwrap();
    assert_eq!(
        (
            tera.contest.as_deref(),
            tera.effect.as_deref(),
            tera.generation
        ),
        (None, None, 9)
    );
    assert_eq!(db.lookup_move("quick attack").unwrap().priority, 1);
    let pound = db.lookup_move("pound").unwrap();
    assert_eq!(pound.descriptions[0].text, "Pounds with forelegs or tail.");
}

#[test]
fn move_miss_suggests() {
    let db = fixture_db();
    let Err(LookupError::NotFound {
        kind,
        query,
        suggestions,
    }) = db.lookup_move("thunder bolt shock")
    else {
        panic!("expected a miss")
    };
    assert_eq!(
        (kind, query.as_str()),
        (RecordKind::Move, "thunder bolt shock")
    );
    assert!(!suggestions.is_empty());
    assert!(suggestions.len() <= reference_db::MAX_SUGGESTIONS);
    assert!(suggestions.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(suggestions.iter().all(|s| s.score >= SUGGESTION_FLOOR));
    for s in &suggestions {
        let want = strsim::sorensen_dice("thunder-bolt-shock", &s.slug);
        assert_eq!(s.score, want, "{}", s.slug);
        assert_eq!(s.certainty_text(), format!("{want:.2}"));
    }
    let Err(LookupError::NotFound { suggestions, .. }) = db.lookup_move("karate chp") else {
        panic!()
    };
    assert_eq!(suggestions[0].slug, "karate-chop");
    assert_eq!(suggestions[0].certainty_text(), "0.84");
    let Err(LookupError::NotFound { suggestions, .. }) = db.lookup_move("xyzzy") else {
        panic!()
    };
    assert!(
        suggestions.is_empty(),
        "nothing above the floor: {suggestions:?}"
    );
    assert_eq!(
        db.lookup_move(""),
        Err(LookupError::EmptyQuery {
            kind: RecordKind::Move
        })
    );
    let long = "é".repeat(400);
    let Err(LookupError::NotFound {
        query, suggestions, ..
    }) = db.lookup_move(&long)
    else {
        panic!()
    };
    assert!(suggestions.is_empty());
    assert!(
        query.len() <= reference_db::MAX_QUERY_LEN + "…".len(),
        "{}",
        query.len()
    );
    assert!(db.lookup_creature(&"1".repeat(500)).is_err());
}

#[test]
fn abilities_records() {
    let db = fixture_db();
    let stench = db.lookup_ability("Stench").unwrap();
    assert_eq!(
        (stench.id, stench.slug.as_str(), stench.generation),
        (1, "stench", 3)
    );
    assert_eq!(
        stench.effect.as_deref(),
        Some("Has a 10% chance of making target Pokémon flinch with each hit.")
    );
    assert_eq!(
        stench.newest_description(),
        Some("By releasing a stench when attacking, this Pokémon may cause the target to flinch.")
    );
    assert_eq!(stench.descriptions[0].text, "Helps repel wild POKéMON.");
    assert_eq!(stench.descriptions[0].version, "ruby-sapphire");
    assert!(stench.holders.is_empty());
    let static_ = db.lookup_ability("static").unwrap();
    let holders: Vec<(&str, bool)> = static_
        .holders
        .iter()
        .map(|h| (db.creature_at(h.creature).slug.as_str(), h.hidden))
        .collect();
    assert_eq!(
        holders,
        [("pikachu", false), ("raichu", false), ("pichu", false)]
    );
    let rod = db.lookup_ability("lightning_rod").unwrap();
    assert!(rod.holders.iter().all(|h| h.hidden));
    let Err(LookupError::NotFound {
        kind: RecordKind::Ability,
        suggestions,
        ..
    }) = db.lookup_ability("stenchh")
    else {
        panic!()
    };
    assert_eq!(suggestions[0].slug, "stench");
}

#[test]
fn items_records() {
    let db = fixture_db();
    let ball = db.lookup_item("Master Ball").unwrap();
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
    assert_eq!(
        ball.sprite("https://sprites.test/sprites/"),
        "https://sprites.test/sprites/items/master-ball.png"
    );
    assert_eq!(ball.descriptions.len(), 3);
    assert_eq!(
        ball.descriptions[0].text,
        "The best BALL that catches a POKéMON without fail."
    );
    assert_eq!(
        ball.descriptions[1].text,
        "The best Poké Ball with the ultimate level of performance. It will catch any wild Pokémon without fail."
    );
    for query in ["poke ball", "Poké Ball", "POKE_BALL", "4"] {
        assert_eq!(db.lookup_item(query).unwrap().slug, "poke-ball", "{query}");
    }
    let odd = db.lookup_item("mystery thing").unwrap();
    assert_eq!((odd.effect.as_deref(), odd.cost), (None, 0));
    let Err(LookupError::NotFound {
        kind: RecordKind::Item,
        suggestions,
        ..
    }) = db.lookup_item("master bal")
    else {
        panic!()
    };
    assert_eq!(suggestions[0].slug, "master-ball");
}
