use content::{AnimalType, AnimuType, FactType, Group, ImgType, LinkSlot, MediaGroup};

#[test]
fn types_are_listed_in_spec_order() {
    assert_eq!(
        AnimuType::NAMES,
        [
            "nom",
            "poke",
            "cry",
            "kiss",
            "pat",
            "hug",
            "wink",
            "face-palm"
        ]
    );
    assert_eq!(
        AnimalType::NAMES,
        [
            "fox",
            "cat",
            "birb",
            "panda",
            "red_panda",
            "racoon",
            "koala",
            "kangaroo",
            "whale",
            "dog",
            "bird"
        ]
    );
    assert_eq!(
        FactType::NAMES,
        [
            "cat",
            "fox",
            "birb",
            "panda",
            "koala",
            "kangaroo",
            "racoon",
            "giraffe",
            "whale",
            "elephant",
            "dog",
            "bird",
            "red_panda"
        ]
    );
    assert_eq!(
        ImgType::NAMES,
        [
            "fox",
            "cat",
            "birb",
            "panda",
            "red_panda",
            "mouse_creature",
            "racoon",
            "koala",
            "kangaroo",
            "whale",
            "dog",
            "bird"
        ]
    );
}

#[test]
fn every_name_round_trips() {
    for (i, t) in FactType::ALL.iter().enumerate() {
        assert_eq!(t.index(), i);
        assert_eq!(FactType::parse(t.as_str()), Ok(*t));
    }
    for t in ImgType::ALL {
        assert_eq!(t.as_str().parse::<ImgType>(), Ok(*t));
    }
    for t in AnimalType::ALL {
        assert_eq!(AnimalType::parse(&t.to_string()), Ok(*t));
        assert_eq!(
            t.fact_type().as_str(),
            t.as_str(),
            "an animal's facts are the facts of the same name"
        );
    }
    for t in AnimuType::ALL {
        assert_eq!(AnimuType::parse(t.as_str()), Ok(*t));
    }
}

/// Clients spell it `raccoon`: accepted as an alias of `racoon` in every
/// group that has it, but never listed and never echoed back.
#[test]
fn raccoon_is_an_alias_of_racoon() {
    assert_eq!(AnimalType::parse("raccoon"), Ok(AnimalType::Racoon));
    assert_eq!(FactType::parse("raccoon"), Ok(FactType::Racoon));
    assert_eq!(ImgType::parse("raccoon"), Ok(ImgType::Racoon));
    assert_eq!("raccoon".parse::<ImgType>(), Ok(ImgType::Racoon));
    assert_eq!(AnimalType::Racoon.as_str(), "racoon");
    assert_eq!(AnimalType::ALIASES, [("raccoon", AnimalType::Racoon)]);
    assert_eq!(FactType::ALIASES, [("raccoon", FactType::Racoon)]);
    assert_eq!(ImgType::ALIASES, [("raccoon", ImgType::Racoon)]);
    assert!(AnimuType::ALIASES.is_empty());
    assert!(AnimuType::parse("raccoon").is_err());
    for names in [AnimalType::NAMES, FactType::NAMES, ImgType::NAMES] {
        assert!(!names.contains(&"raccoon"));
    }
    // The alias is exact, like every name.
    for bad in ["Raccoon", "raccoon ", "racoons", "raccon"] {
        assert!(AnimalType::parse(bad).is_err(), "{bad:?}");
    }
    // An unknown name still lists only the specification's names.
    let err = FactType::parse("racc").unwrap_err();
    assert_eq!(err.valid(), FactType::NAMES);
    assert!(!err.to_string().contains("raccoon"), "{err}");
}

#[test]
fn unknown_type_names_the_valid_ones() {
    let err = FactType::parse("unicorn").unwrap_err();
    assert_eq!(err.group(), Some(Group::Facts));
    assert_eq!(err.given(), "unicorn");
    assert_eq!(err.valid(), FactType::NAMES);
    assert_eq!(
        err.to_string(),
        "unknown fact type \"unicorn\"; valid fact types: cat, fox, birb, panda, koala, kangaroo, racoon, \
         giraffe, whale, elephant, dog, bird, red_panda"
    );
    let err = AnimuType::parse("quote").unwrap_err();
    assert!(
        err.to_string()
            .contains("nom, poke, cry, kiss, pat, hug, wink, face-palm"),
        "{err}"
    );
}

#[test]
fn parsing_is_exact() {
    for bad in [
        "Cat",
        "cat ",
        " cat",
        "cat/",
        "../cat",
        "cat\0",
        "",
        "red-panda",
        "facepalm",
        "mouse creature",
    ] {
        assert!(FactType::parse(bad).is_err(), "{bad:?}");
        assert!(ImgType::parse(bad).is_err(), "{bad:?}");
        assert!(AnimuType::parse(bad).is_err(), "{bad:?}");
    }
}

#[test]
fn long_input_is_shortened_in_the_message() {
    let long = "x".repeat(10_000);
    let err = ImgType::parse(&long).unwrap_err();
    assert!(err.to_string().len() < 400, "{}", err.to_string().len());
    assert!(err.given().ends_with('…'));
}

#[test]
fn link_slots_parse_group_then_type() {
    assert_eq!(
        LinkSlot::parse("img", "mouse_creature"),
        Ok(LinkSlot::Img(ImgType::MouseCreature))
    );
    assert_eq!(
        LinkSlot::parse("animu", "face-palm"),
        Ok(LinkSlot::Animu(AnimuType::FacePalm))
    );
    assert_eq!(
        LinkSlot::parse("animal", "cat"),
        Ok(LinkSlot::Animal(AnimalType::Cat))
    );
    assert!(LinkSlot::parse("animal", "mouse_creature").is_err());
    let err = LinkSlot::parse("facts", "cat").unwrap_err();
    assert_eq!(err.valid(), MediaGroup::NAMES);
    assert_eq!(
        LinkSlot::all().count(),
        ImgType::COUNT + AnimalType::COUNT + AnimuType::COUNT
    );
    assert_eq!(LinkSlot::Animu(AnimuType::Hug).to_string(), "animu/hug");
}
