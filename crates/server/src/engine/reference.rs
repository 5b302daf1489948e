//! The creature reference engine: the dataset, loaded once, and every
//! answer body serialised once.
//!
//! Each record's JSON body (the spec's shape, the body types below) and its
//! weak entity tag are made the first time the record is asked for and kept
//! for the life of the process ([`OnceLock`] per record), so a repeated
//! lookup costs the lookup and a reference-count increment: no mapping, no
//! serialisation, no hashing of the body. The bytes are exactly serde's
//! output for the body types (tested).
//!
//! Nullable members (`null` where the data has no value): dex
//! `base_experience`, `description`; move `effects`, `category`, `contest`,
//! `pp`, `power`, `accuracy`; ability `effects`, `description`; item
//! `effects`.

use std::sync::OnceLock;

use actix_web::web::Bytes;
use reference_db::{
    Ability, Creature, Item, LoadError, LookupError, Move, ReferenceDb, VersionText,
};
use serde::Serialize;

use super::StartupError;
use crate::conditional;
use crate::config::Settings;

/// Loads `<data_dir>/reference-db.bin`: absent → a warning and `None`;
/// present but unreadable, of another format version or corrupt → error.
pub fn load(settings: &Settings) -> Result<Option<Reference>, StartupError> {
    let started = std::time::Instant::now();
    match ReferenceDb::load(&settings.data_dir) {
        Ok(db) => {
            let c = db.counts();
            tracing::info!(
                creatures = c.creatures,
                moves = c.moves,
                abilities = c.abilities,
                items = c.items,
                ms = started.elapsed().as_millis() as u64,
                "creature reference loaded"
            );
            Ok(Some(Reference::new(db, &settings.sprite_base_url)))
        }
        Err(LoadError::Io { path, source }) if source.kind() == std::io::ErrorKind::NotFound => {
            tracing::warn!(
                path = %path.display(),
                "creature reference data not found: /creature/* will answer 503 until `cargo xtask data` builds it"
            );
            Ok(None)
        }
        Err(e) => Err(StartupError::Data {
            what: "the creature reference",
            reason: e.to_string(),
        }),
    }
}

/// One answer: its JSON body and weak entity tag, both shared.
#[derive(Debug, Clone)]
pub struct Answer {
    /// The JSON body.
    pub body: Bytes,
    /// The weak entity tag of `body` ([`conditional::body_tag`]).
    pub etag: Bytes,
}

impl Answer {
    fn of(body: &impl Serialize) -> Self {
        let body = serde_json::to_vec(body).unwrap_or_default();
        let etag = Bytes::from(conditional::body_tag(&body, true));
        Self {
            body: Bytes::from(body),
            etag,
        }
    }
}

/// The dataset and its answers, made at most once per record.
#[derive(Debug)]
pub struct Reference {
    db: ReferenceDb,
    sprite_base: String,
    dex: Vec<OnceLock<Answer>>,
    moves: Vec<OnceLock<Answer>>,
    abilities: Vec<OnceLock<Answer>>,
    items: Vec<OnceLock<Answer>>,
}

/// The slot of `item` in `all`, when it is one of `all`'s elements.
fn slot_of<'s, T>(
    slots: &'s [OnceLock<Answer>],
    all: &[T],
    item: &T,
) -> Option<&'s OnceLock<Answer>> {
    let size = std::mem::size_of::<T>().max(1);
    let offset = (item as *const T as usize).wrapping_sub(all.as_ptr() as usize) / size;
    all.get(offset)
        .filter(|x| std::ptr::eq(*x, item))
        .and_then(|_| slots.get(offset))
}

/// The cached answer of `item`, made by `make` the first time.
fn answer<T, B: Serialize>(
    slots: &[OnceLock<Answer>],
    all: &[T],
    item: &T,
    make: impl FnOnce() -> B,
) -> Answer {
    match slot_of(slots, all, item) {
        Some(slot) => slot.get_or_init(|| Answer::of(&make())).clone(),
        None => Answer::of(&make()),
    }
}

impl Reference {
    /// Wraps a loaded dataset; sprite URLs are built under `sprite_base`.
    pub fn new(db: ReferenceDb, sprite_base: &str) -> Self {
        let slots = |n: usize| (0..n).map(|_| OnceLock::new()).collect();
        Self {
            dex: slots(db.creatures().len()),
            moves: slots(db.moves().len()),
            abilities: slots(db.abilities().len()),
            items: slots(db.items().len()),
            sprite_base: sprite_base.to_owned(),
            db,
        }
    }

    /// The dataset.
    pub fn db(&self) -> &ReferenceDb {
        &self.db
    }

    /// The `/creature/dex` answer for `query`.
    pub fn dex(&self, query: &str) -> Result<Answer, LookupError> {
        let c = self.db.lookup_creature(query)?;
        Ok(answer(&self.dex, self.db.creatures(), c, || {
            dex_body(c, &self.sprite_base)
        }))
    }

    /// The `/creature/moves` answer for `query`.
    pub fn move_(&self, query: &str) -> Result<Answer, LookupError> {
        let m = self.db.lookup_move(query)?;
        Ok(answer(&self.moves, self.db.moves(), m, || {
            move_body(&self.db, m)
        }))
    }

    /// The `/creature/abilities` answer for `query`.
    pub fn ability(&self, query: &str) -> Result<Answer, LookupError> {
        let a = self.db.lookup_ability(query)?;
        Ok(answer(&self.abilities, self.db.abilities(), a, || {
            ability_body(&self.db, a)
        }))
    }

    /// The `/creature/items` answer for `query`.
    pub fn item(&self, query: &str) -> Result<Answer, LookupError> {
        let i = self.db.lookup_item(query)?;
        Ok(answer(&self.items, self.db.items(), i, || {
            item_body(i, &self.sprite_base)
        }))
    }
}

/// Body of `/creature/dex`.
#[derive(Debug, Serialize)]
pub struct DexBody<'a> {
    /// Lower-case slug (`"pikachu"`, `"raichu-alola"`).
    pub name: &'a str,
    /// Dex number, zero-padded to 3 digits (`"025"`, `"1000"`).
    pub id: String,
    /// Type display names.
    #[serde(rename = "type")]
    pub types: &'a [String],
    /// The genus split in words (`["Seed", "Pokémon"]`).
    pub species: Vec<String>,
    /// Ability display names.
    pub abilities: &'a [String],
    /// `"0.7 m (2′04″)"`.
    pub height: String,
    /// `"6.9 kg (15.2 lbs)"`.
    pub weight: String,
    /// Numeric text; `null` when the data has none.
    pub base_experience: Option<String>,
    /// `["87.5% male", "12.5% female"]` or `["Genderless"]`.
    pub gender: Vec<String>,
    /// Egg group display names.
    pub egg_groups: &'a [String],
    /// Base stats as numeric text.
    pub stats: StatsBody,
    /// Evolution family.
    pub family: FamilyBody<'a>,
    /// Sprite URLs.
    pub sprites: SpritesBody,
    /// Newest English dex entry; `null` when the data has none.
    pub description: Option<&'a str>,
    /// Generation, `"1"`…`"9"`.
    pub generation: String,
}

/// `stats` of [`DexBody`].
#[derive(Debug, Serialize)]
pub struct StatsBody {
    /// HP.
    pub hp: String,
    /// Attack.
    pub attack: String,
    /// Defense.
    pub defense: String,
    /// Special attack.
    pub sp_atk: String,
    /// Special defense.
    pub sp_def: String,
    /// Speed.
    pub speed: String,
    /// Sum of the six.
    pub total: String,
}

/// `family` of [`DexBody`].
#[derive(Debug, Serialize)]
pub struct FamilyBody<'a> {
    /// 1-based stage (babies are 1).
    #[serde(rename = "evolutionStage")]
    pub evolution_stage: u8,
    /// Display names of the family, in stage order.
    #[serde(rename = "evolutionLine")]
    pub evolution_line: &'a [String],
}

/// `sprites` of [`DexBody`].
#[derive(Debug, Serialize)]
pub struct SpritesBody {
    /// Front sprite PNG.
    pub normal: String,
    /// Animated Black/White GIF; the `normal` URL when none exists.
    pub animated: String,
}

/// One `descriptions` entry.
#[derive(Debug, Serialize)]
pub struct DescriptionBody<'a> {
    /// The flavor text.
    pub description: &'a str,
    /// Version-group slug.
    pub version: &'a str,
}

/// Body of `/creature/moves`.
#[derive(Debug, Serialize)]
pub struct MoveBody<'a> {
    /// Move id.
    pub id: u32,
    /// Slug (`"karate-chop"`).
    pub name: &'a str,
    /// Generation number.
    pub generation: u8,
    /// English short effect with the chance filled in; nullable.
    pub effects: Option<&'a str>,
    /// Type slug.
    #[serde(rename = "type")]
    pub type_slug: &'a str,
    /// Damage-class slug; nullable.
    pub category: Option<&'a str>,
    /// Contest-type slug; nullable (gen-9 moves).
    pub contest: Option<&'a str>,
    /// Power points; nullable.
    pub pp: Option<u16>,
    /// Power; nullable (status moves).
    pub power: Option<u16>,
    /// Accuracy; nullable (never-miss moves).
    pub accuracy: Option<u16>,
    /// Priority.
    pub priority: i8,
    /// Slugs of every creature that learns it in any game.
    pub creature: Vec<&'a str>,
    /// Flavor text per version group, oldest first.
    pub descriptions: Vec<DescriptionBody<'a>>,
}

/// Body of `/creature/abilities`.
#[derive(Debug, Serialize)]
pub struct AbilityBody<'a> {
    /// Ability id.
    pub id: u32,
    /// Slug.
    pub name: &'a str,
    /// Generation number.
    pub generation: u8,
    /// English short effect; nullable.
    pub effects: Option<&'a str>,
    /// Newest English flavor text; nullable.
    pub description: Option<&'a str>,
    /// Creatures that can have it.
    pub creatures: Vec<HolderBody<'a>>,
    /// Flavor text per version group, oldest first.
    pub descriptions: Vec<DescriptionBody<'a>>,
}

/// One `creatures` entry of [`AbilityBody`].
#[derive(Debug, Serialize)]
pub struct HolderBody<'a> {
    /// Creature slug.
    pub creature: &'a str,
    /// Whether it is the creature's hidden ability.
    pub hidden: bool,
}

/// Body of `/creature/items`.
#[derive(Debug, Serialize)]
pub struct ItemBody<'a> {
    /// Item id.
    pub id: u32,
    /// Slug.
    pub name: &'a str,
    /// English short effect; nullable.
    pub effects: Option<&'a str>,
    /// Shop price.
    pub cost: u32,
    /// Flag slugs.
    pub attributes: &'a [String],
    /// Category slug.
    pub category: &'a str,
    /// Item sprite URL.
    pub sprite: String,
    /// Flavor text per version group, oldest first.
    pub descriptions: Vec<DescriptionBody<'a>>,
}

fn descriptions(texts: &[VersionText]) -> Vec<DescriptionBody<'_>> {
    texts
        .iter()
        .map(|t| DescriptionBody {
            description: &t.text,
            version: &t.version,
        })
        .collect()
}

/// Maps a creature to its dex body; sprites under `sprite_base`.
pub fn dex_body<'a>(c: &'a Creature, sprite_base: &str) -> DexBody<'a> {
    let sprites = c.sprites(sprite_base);
    DexBody {
        name: &c.slug,
        id: c.number_text(),
        types: &c.types,
        species: c.species_words(),
        abilities: &c.abilities,
        height: c.height_text(),
        weight: c.weight_text(),
        base_experience: c.base_experience.map(|x| x.to_string()),
        gender: c.gender_text(),
        egg_groups: &c.egg_groups,
        stats: StatsBody {
            hp: c.stats.hp.to_string(),
            attack: c.stats.attack.to_string(),
            defense: c.stats.defense.to_string(),
            sp_atk: c.stats.sp_atk.to_string(),
            sp_def: c.stats.sp_def.to_string(),
            speed: c.stats.speed.to_string(),
            total: c.stats.total().to_string(),
        },
        family: FamilyBody {
            evolution_stage: c.evolution_stage,
            evolution_line: &c.evolution_line,
        },
        sprites: SpritesBody {
            normal: sprites.normal,
            animated: sprites.animated,
        },
        description: c.description.as_deref(),
        generation: c.generation.to_string(),
    }
}

/// Maps a move to its body.
pub fn move_body<'a>(db: &'a ReferenceDb, m: &'a Move) -> MoveBody<'a> {
    MoveBody {
        id: m.id,
        name: &m.slug,
        generation: m.generation,
        effects: m.effect.as_deref(),
        type_slug: &m.type_slug,
        category: m.category.as_deref(),
        contest: m.contest.as_deref(),
        pp: m.pp,
        power: m.power,
        accuracy: m.accuracy,
        priority: m.priority,
        creature: db.learners(m).map(|c| c.slug.as_str()).collect(),
        descriptions: descriptions(&m.descriptions),
    }
}

/// Maps an ability to its body.
pub fn ability_body<'a>(db: &'a ReferenceDb, a: &'a Ability) -> AbilityBody<'a> {
    AbilityBody {
        id: a.id,
        name: &a.slug,
        generation: a.generation,
        effects: a.effect.as_deref(),
        description: a.newest_description(),
        creatures: a
            .holders
            .iter()
            .map(|h| HolderBody {
                creature: &db.creature_at(h.creature).slug,
                hidden: h.hidden,
            })
            .collect(),
        descriptions: descriptions(&a.descriptions),
    }
}

/// Maps an item to its body; sprite under `sprite_base`.
pub fn item_body<'a>(i: &'a Item, sprite_base: &str) -> ItemBody<'a> {
    ItemBody {
        id: i.id,
        name: &i.slug,
        effects: i.effect.as_deref(),
        cost: i.cost,
        attributes: &i.attributes,
        category: &i.category,
        sprite: i.sprite(sprite_base),
        descriptions: descriptions(&i.descriptions),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPRITES: &str = "https://sprites.example/sprites";

    /// The reference over the dataset built from `fixtures/pokeapi`.
    fn fixture_reference() -> Reference {
        let source =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pokeapi");
        let data = reference_db::build::build_dataset(&source, &mut |_| {}).unwrap();
        Reference::new(ReferenceDb::from_dataset(data), SPRITES)
    }

    /// `answer` is serde's output for `expected`, with its tag; asked again
    /// (by `again`) it is the same shared buffer, not a new serialisation.
    fn check(answer: Answer, again: Answer, expected: &impl Serialize) {
        let bytes = serde_json::to_vec(expected).unwrap();
        assert_eq!(&answer.body[..], &bytes[..]);
        assert_eq!(answer.etag, conditional::body_tag(&bytes, true));
        assert_eq!(again.body.as_ptr(), answer.body.as_ptr(), "made once");
    }

    #[test]
    fn answers_are_serdes_bytes_made_once_per_record() {
        let r = fixture_reference();
        let db = r.db();
        assert!(!db.creatures().is_empty() && !db.moves().is_empty());
        for c in db.creatures().iter().take(6) {
            let by_slug = r.dex(&c.slug).unwrap();
            let by_name = r.dex(&c.display_name).unwrap();
            check(by_slug, by_name, &dex_body(c, SPRITES));
        }
        for m in db.moves().iter().take(6) {
            let (a, b) = (
                r.move_(&m.slug).unwrap(),
                r.move_(&m.id.to_string()).unwrap(),
            );
            check(a, b, &move_body(db, m));
        }
        for a in db.abilities().iter().take(6) {
            let (x, y) = (r.ability(&a.slug).unwrap(), r.ability(&a.slug).unwrap());
            check(x, y, &ability_body(db, a));
        }
        for i in db.items().iter().take(6) {
            let (x, y) = (r.item(&i.slug).unwrap(), r.item(&i.slug).unwrap());
            check(x, y, &item_body(i, SPRITES));
        }
        assert!(r.dex("no-such-creature").is_err());
    }

    #[test]
    fn a_record_outside_the_dataset_is_answered_uncached() {
        let r = fixture_reference();
        let outside = r.db().creatures()[0].clone();
        let slots = &r.dex;
        assert!(slot_of(slots, r.db().creatures(), &outside).is_none());
        let first = answer(slots, r.db().creatures(), &outside, || {
            dex_body(&outside, SPRITES)
        });
        let second = answer(slots, r.db().creatures(), &outside, || {
            dex_body(&outside, SPRITES)
        });
        assert_eq!(first.body, second.body);
        assert_ne!(first.body.as_ptr(), second.body.as_ptr());
    }
}
