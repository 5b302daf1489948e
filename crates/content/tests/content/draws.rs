use std::collections::HashMap;

use content::{AnimalType, AnimuType, ContentPack, FactType, ImgType, LinkSlot, embedded_pack};
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::fixture_pack;

/// Draws until every entry has been seen, with a generous cap (seeded, so
/// the outcome is fixed).
fn all_reachable(entries: &[Box<str>], mut draw: impl FnMut() -> String) {
    let cap = 200 + entries.len() * 40;
    let mut seen: HashMap<String, usize> = HashMap::new();
    for _ in 0..cap {
        let got = draw();
        assert!(
            entries.iter().any(|e| **e == *got),
            "drew {got:?}, not an entry"
        );
        *seen.entry(got).or_default() += 1;
        if seen.len() == entries.len() {
            return;
        }
    }
    panic!(
        "only {} of {} entries reached in {cap} draws",
        seen.len(),
        entries.len()
    );
}

fn check_pack(pack: &ContentPack, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    for &t in FactType::ALL {
        all_reachable(pack.facts(t), || pack.random_fact(t, &mut rng).to_owned());
    }
    for &t in ImgType::ALL {
        all_reachable(pack.links(LinkSlot::Img(t)), || {
            pack.random_img(t, &mut rng).to_owned()
        });
    }
    for &t in AnimuType::ALL {
        all_reachable(pack.links(LinkSlot::Animu(t)), || {
            pack.random_animu(t, &mut rng).to_owned()
        });
    }
    for &t in AnimalType::ALL {
        all_reachable(pack.links(LinkSlot::Animal(t)), || {
            pack.random_animal(t, &mut rng).image.to_owned()
        });
        all_reachable(pack.facts(t.fact_type()), || {
            pack.random_animal(t, &mut rng).fact.to_owned()
        });
    }
}

#[test]
fn every_fixture_entry_is_reachable() {
    let pack = fixture_pack();
    check_pack(&pack, 1);
    let mut rng = StdRng::seed_from_u64(2);
    let ids: Vec<Box<str>> = pack
        .quotes()
        .iter()
        .map(|q| q.id().to_string().into())
        .collect();
    all_reachable(&ids, || pack.random_quote(&mut rng).id().to_string());
}

#[test]
fn every_embedded_entry_is_reachable() {
    let pack = ContentPack::load(&embedded_pack()).unwrap();
    check_pack(&pack, 3);
}

#[test]
fn every_embedded_quote_is_reachable() {
    let pack = ContentPack::load(&embedded_pack()).unwrap();
    let mut rng = StdRng::seed_from_u64(4);
    let mut seen = vec![false; pack.quotes().len()];
    let mut left = seen.len();
    let index: HashMap<u32, usize> = pack
        .quotes()
        .iter()
        .enumerate()
        .map(|(i, q)| (q.id(), i))
        .collect();
    for _ in 0..pack.quotes().len() * 20 {
        let i = index[&pack.random_quote(&mut rng).id()];
        if !seen[i] {
            seen[i] = true;
            left -= 1;
            if left == 0 {
                return;
            }
        }
    }
    panic!("{left} quotes never drawn");
}

#[test]
fn draws_are_uniform() {
    // Three entries, 30,000 seeded draws: each within 5% of 10,000.
    let pack = fixture_pack();
    let t = ImgType::Birb;
    let entries = pack.links(LinkSlot::Img(t));
    assert_eq!(entries.len(), 3);
    let mut rng = StdRng::seed_from_u64(5);
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for _ in 0..30_000 {
        *counts.entry(pack.random_img(t, &mut rng)).or_default() += 1;
    }
    for e in entries {
        let n = counts[&**e];
        assert!((9_500..=10_500).contains(&n), "{e}: {n}");
    }
}

#[test]
fn seeded_draws_repeat() {
    let pack = fixture_pack();
    let run = |seed| {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..50)
            .map(|_| pack.random_fact(FactType::Dog, &mut rng).to_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(run(9), run(9));
    assert_ne!(run(9), run(10));
}

#[test]
fn an_animal_pairs_its_own_picture_and_fact() {
    let pack = fixture_pack();
    let mut rng = StdRng::seed_from_u64(6);
    for &t in AnimalType::ALL {
        let entry = pack.random_animal(t, &mut rng);
        assert!(
            pack.links(LinkSlot::Animal(t))
                .iter()
                .any(|l| **l == *entry.image)
        );
        assert!(
            entry.fact.contains(&format!("the {}", t.as_str())),
            "{t}: {}",
            entry.fact
        );
    }
}
