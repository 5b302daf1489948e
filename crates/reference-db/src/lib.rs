//! The creature reference engine: typed records for creatures, moves,
//! abilities and items, loading of the dataset written by `cargo xtask data`,
//! lookup by name or number, and "did you mean" suggestions.
//!
//! Knows nothing of HTTP: no status codes, no JSON wire types. The serde
//! derives on the records serve only the engine's own on-disk format
//! ([`dataset`]). The CSV → dataset builder is behind the `builder` feature
//! ([`build`]), so the server binary does not carry it.
//!
//! ```
//! # fn demo(db: &reference_db::ReferenceDb) -> Result<(), reference_db::LookupError> {
//! let pikachu = db.lookup_creature("025")?;
//! assert_eq!(pikachu.slug, "pikachu");
//! let chop = db.lookup_move("Karate Chop")?;
//! assert_eq!(chop.slug, "karate-chop");
//! # Ok(()) }
//! ```
//!
//! # Lookup
//! Queries are reduced with [`lookup_key`] (case, separators and accents
//! folded) and matched against each record's slug, then its English display
//! name, then (creatures) its form slugs and form names, in that order of
//! precedence. A query of ASCII digits (optionally `#`-prefixed) is a number:
//! for creatures the national dex number of the species' default form
//! (`25`, `025`) or a PokeAPI pokemon id of an alternate form (`10100`);
//! for moves, abilities and items their PokeAPI id. Every miss (creatures,
//! moves, abilities, items) carries suggestions ([`suggest`]). Queries longer than
//! [`MAX_QUERY_LEN`] bytes miss without suggestions.

#![forbid(unsafe_code)]

#[cfg(feature = "builder")]
pub mod build;
pub mod dataset;
mod error;
mod normalise;
pub mod record;
pub mod suggest;

use std::collections::HashMap;
use std::path::Path;

pub use dataset::{Counts, DATASET_FILE_NAME, Dataset, FORMAT_VERSION};
#[cfg(feature = "builder")]
pub use error::BuildError;
pub use error::{LoadError, LookupError, RecordKind};
pub use normalise::lookup_key;
pub use record::{
    Ability, AbilityHolder, Creature, CreatureSprites, Gender, Item, Move, Stats, VersionText,
};
pub use suggest::{MAX_SUGGESTIONS, SUGGESTION_FLOOR, Suggestion};

use suggest::SuggestionIndex;

/// Longest query (in bytes) the engine considers; a longer one is a miss
/// with no suggestions, and its echo in the error is cut to this length.
/// No name in the data comes near it (the longest slugs have ~40 bytes).
pub const MAX_QUERY_LEN: usize = 100;

/// A miss for an over-long query: no suggestions, query cut for the echo.
fn too_long(kind: RecordKind, query: &str) -> LookupError {
    let mut end = MAX_QUERY_LEN;
    while !query.is_char_boundary(end) {
        end -= 1;
    }
    LookupError::NotFound {
        kind,
        query: format!("{}…", &query[..end]),
        suggestions: Vec::new(),
    }
}

/// Lookup-key → record index, plus id → record index.
#[derive(Debug, Default)]
struct KeyIndex {
    keys: HashMap<Box<str>, u32>,
    numbers: HashMap<u32, u32>,
}

impl KeyIndex {
    /// Adds `name` for record `index` unless an earlier record holds its key.
    fn add_name(&mut self, name: &str, index: usize) {
        let key = lookup_key(name);
        if !key.is_empty() {
            self.keys
                .entry(key.into_boxed_str())
                .or_insert(index as u32);
        }
    }

    fn find(&self, query: &str) -> Option<usize> {
        if let Some(number) = parse_number(query) {
            return self.numbers.get(&number).map(|i| *i as usize);
        }
        self.keys
            .get(lookup_key(query).as_str())
            .map(|i| *i as usize)
    }
}

/// `"25"`, `"025"`, `"#25"` → 25; anything else → None.
fn parse_number(query: &str) -> Option<u32> {
    let digits = query.strip_prefix('#').unwrap_or(query);
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// The loaded creature reference with its lookup indexes.
#[derive(Debug)]
pub struct ReferenceDb {
    data: Dataset,
    creatures: KeyIndex,
    moves: KeyIndex,
    abilities: KeyIndex,
    items: KeyIndex,
    creature_suggestions: SuggestionIndex,
    move_suggestions: SuggestionIndex,
    ability_suggestions: SuggestionIndex,
    item_suggestions: SuggestionIndex,
}

impl ReferenceDb {
    /// Loads `<data_dir>/reference-db.bin` ([`DATASET_FILE_NAME`]).
    pub fn load(data_dir: &Path) -> Result<Self, LoadError> {
        let path = data_dir.join(DATASET_FILE_NAME);
        let bytes = std::fs::read(&path).map_err(|source| LoadError::Io { path, source })?;
        Self::from_bytes(&bytes)
    }

    /// Decodes a dataset file's bytes and indexes it.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, LoadError> {
        Ok(Self::from_dataset(Dataset::from_bytes(bytes)?))
    }

    /// Indexes a dataset.
    pub fn from_dataset(data: Dataset) -> Self {
        let mut creatures = KeyIndex::default();
        for (i, c) in data.creatures.iter().enumerate() {
            creatures.add_name(&c.slug, i);
            if c.is_default {
                creatures.numbers.entry(c.species_id).or_insert(i as u32);
            } else {
                creatures.numbers.entry(c.pokemon_id).or_insert(i as u32);
            }
        }
        for (i, c) in data.creatures.iter().enumerate() {
            creatures.add_name(&c.display_name, i);
        }
        for (i, c) in data.creatures.iter().enumerate() {
            for alias in &c.aliases {
                creatures.add_name(alias, i);
            }
        }
        fn named<'a>(records: impl Iterator<Item = (u32, &'a str, &'a str)> + Clone) -> KeyIndex {
            let mut index = KeyIndex::default();
            for (i, (id, slug, _)) in records.clone().enumerate() {
                index.add_name(slug, i);
                index.numbers.entry(id).or_insert(i as u32);
            }
            for (i, (_, _, display)) in records.enumerate() {
                index.add_name(display, i);
            }
            index
        }
        let moves = named(
            data.moves
                .iter()
                .map(|r| (r.id, r.slug.as_str(), r.display_name.as_str())),
        );
        let abilities = named(
            data.abilities
                .iter()
                .map(|r| (r.id, r.slug.as_str(), r.display_name.as_str())),
        );
        let items = named(
            data.items
                .iter()
                .map(|r| (r.id, r.slug.as_str(), r.display_name.as_str())),
        );
        let creature_suggestions =
            SuggestionIndex::new(data.creatures.iter().map(|r| r.slug.as_str()));
        let move_suggestions = SuggestionIndex::new(data.moves.iter().map(|r| r.slug.as_str()));
        let ability_suggestions =
            SuggestionIndex::new(data.abilities.iter().map(|r| r.slug.as_str()));
        let item_suggestions = SuggestionIndex::new(data.items.iter().map(|r| r.slug.as_str()));
        ReferenceDb {
            data,
            creatures,
            moves,
            abilities,
            items,
            creature_suggestions,
            move_suggestions,
            ability_suggestions,
            item_suggestions,
        }
    }

    /// Every creature, by pokemon id.
    pub fn creatures(&self) -> &[Creature] {
        &self.data.creatures
    }

    /// Every move, by id.
    pub fn moves(&self) -> &[Move] {
        &self.data.moves
    }

    /// Every ability, by id.
    pub fn abilities(&self) -> &[Ability] {
        &self.data.abilities
    }

    /// Every item, by id.
    pub fn items(&self) -> &[Item] {
        &self.data.items
    }

    /// Record counts.
    pub fn counts(&self) -> Counts {
        self.data.counts()
    }

    /// The creature at `index` (as stored in [`Move::learners`] and
    /// [`AbilityHolder::creature`]).
    ///
    /// # Panics
    /// When `index` is out of range; indices from this dataset never are.
    pub fn creature_at(&self, index: u32) -> &Creature {
        &self.data.creatures[index as usize]
    }

    /// The creatures that learn a move, in pokemon-id order.
    pub fn learners<'a>(&'a self, mv: &'a Move) -> impl Iterator<Item = &'a Creature> + 'a {
        mv.learners.iter().map(|i| self.creature_at(*i))
    }

    /// Finds a creature by dex number, slug, display name or form name;
    /// a miss carries suggestions among the creatures' slugs (forms
    /// included), by the same measure, floor and order as the others.
    pub fn lookup_creature(&self, query: &str) -> Result<&Creature, LookupError> {
        lookup(
            RecordKind::Creature,
            query,
            &self.creatures,
            &self.creature_suggestions,
            &self.data.creatures,
            |c| &c.slug,
        )
    }

    /// Finds a move by id, slug or display name; a miss carries suggestions.
    pub fn lookup_move(&self, query: &str) -> Result<&Move, LookupError> {
        lookup(
            RecordKind::Move,
            query,
            &self.moves,
            &self.move_suggestions,
            &self.data.moves,
            |m| &m.slug,
        )
    }

    /// Finds an ability by id, slug or display name; a miss carries suggestions.
    pub fn lookup_ability(&self, query: &str) -> Result<&Ability, LookupError> {
        lookup(
            RecordKind::Ability,
            query,
            &self.abilities,
            &self.ability_suggestions,
            &self.data.abilities,
            |a| &a.slug,
        )
    }

    /// Finds an item by id, slug or display name; a miss carries suggestions.
    pub fn lookup_item(&self, query: &str) -> Result<&Item, LookupError> {
        lookup(
            RecordKind::Item,
            query,
            &self.items,
            &self.item_suggestions,
            &self.data.items,
            |i| &i.slug,
        )
    }
}

fn lookup<'a, T>(
    kind: RecordKind,
    query: &str,
    index: &KeyIndex,
    suggestions: &SuggestionIndex,
    records: &'a [T],
    slug: impl Fn(&'a T) -> &'a String,
) -> Result<&'a T, LookupError> {
    let query = query.trim();
    if query.is_empty() {
        return Err(LookupError::EmptyQuery { kind });
    }
    if query.len() > MAX_QUERY_LEN {
        return Err(too_long(kind, query));
    }
    if let Some(i) = index.find(query) {
        return Ok(&records[i]);
    }
    let suggestions = suggestions.suggest(&lookup_key(query), |i| slug(&records[i]).as_str());
    Err(LookupError::NotFound {
        kind,
        query: query.to_owned(),
        suggestions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_parse() {
        assert_eq!(parse_number("25"), Some(25));
        assert_eq!(parse_number("025"), Some(25));
        assert_eq!(parse_number("#25"), Some(25));
        assert_eq!(parse_number("25a"), None);
        assert_eq!(parse_number("-25"), None);
        assert_eq!(parse_number("+25"), None);
        assert_eq!(parse_number(""), None);
        assert_eq!(parse_number("99999999999999"), None);
    }
}
