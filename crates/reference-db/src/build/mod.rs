//! The CSV → [`Dataset`] builder (feature `builder`), used by
//! `cargo xtask data` and by the tests.
//!
//! Reads the PokeAPI CSVs (upstream `data/v2/csv` layout) from one
//! directory, joins them, keeps English text (language id 9), cleans it
//! (flavor text: line breaks, form feeds and soft hyphens normalised), and returns records in id order. The result
//! depends only on the files' contents, so the same input always encodes to
//! byte-identical output. A malformed file fails with its name, line and
//! column ([`BuildError::Malformed`]).
//!
//! Choices where the source offers several texts:
//! - creature `description`: the English dex entry of the newest version
//!   (highest version-group order, then version id);
//! - `effect` (moves, abilities, items): the English *short* effect, as
//!   written (its two spaces after a full stop kept; see `clean_prose`); a
//!   move's effect chance is filled in (`$effect_chance` is replaced, or
//!   every "a chance" becomes "a 10% chance");
//! - egg groups: in the source's row order (`pokemon_egg_groups.csv`), not
//!   by id;
//! - a slug repeated in the data (two `roseli-berry` items, ids 723 and
//!   2279) keeps every record, each found by its id; the slug and the
//!   display name find the lowest id, and a repeat with no English name
//!   takes that record's (each repeat is reported);
//! - `descriptions`: one English flavor text per version group, oldest first;
//! - evolution families come from `pokemon_species.evolves_from_species_id`:
//!   the species sharing a root form one family (the data's
//!   `evolution_chain_id` splits some, e.g. Meltan/Melmetal); a stage is the
//!   depth below the root + 1 (babies are roots, so stage 1); the line lists
//!   the family by stage, then species order.

mod table;

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

pub use table::Progress;
use table::read_table;

use crate::dataset::Dataset;
use crate::error::BuildError;
use crate::normalise::clean_game_text;
use crate::record::{Ability, AbilityHolder, Creature, Gender, Item, Move, Stats, VersionText};

const ENGLISH: &str = "9";

/// Builds the dataset from the CSVs in `source` (a `pokeapi/` folder).
/// `progress` hears about every file read.
pub fn build_dataset(
    source: &Path,
    progress: &mut dyn FnMut(Progress<'_>),
) -> Result<Dataset, BuildError> {
    let mut b = Builder {
        dir: source,
        progress,
    };
    let common = b.common()?;
    let creatures = b.creatures(&common)?;
    let index: HashMap<u32, u32> = creatures
        .iter()
        .enumerate()
        .map(|(i, c)| (c.pokemon_id, i as u32))
        .collect();
    let moves = b.moves(&common, &index)?;
    let abilities = b.abilities(&common, &index)?;
    let items = b.items(&common)?;
    Ok(Dataset {
        creatures,
        moves,
        abilities,
        items,
    })
}

struct Builder<'a> {
    dir: &'a Path,
    progress: &'a mut dyn FnMut(Progress<'_>),
}

/// Lookup tables several record kinds share.
struct Common {
    type_slugs: HashMap<u32, String>,
    /// version group id → (order, slug)
    version_groups: HashMap<u32, (u32, String)>,
}

/// English flavor texts per (record id, version group), ordered later.
type FlavorMap = HashMap<u32, BTreeMap<(u32, u32), String>>;

impl Builder<'_> {
    fn read(
        &mut self,
        name: &str,
        columns: &[&str],
        each: impl FnMut(&table::Row<'_>) -> Result<(), BuildError>,
    ) -> Result<(), BuildError> {
        read_table(self.dir, name, columns, self.progress, each)
    }

    /// `<file>`: id → identifier.
    fn slugs(&mut self, name: &str) -> Result<HashMap<u32, String>, BuildError> {
        let mut out = HashMap::new();
        self.read(name, &["id", "identifier"], |r| {
            out.insert(r.num(0)?, r.str(1).to_owned());
            Ok(())
        })?;
        Ok(out)
    }

    /// `<file>`: English names by id (column `id_col`, then `name_col`).
    fn english_names(
        &mut self,
        name: &str,
        id_col: &str,
        name_col: &str,
    ) -> Result<HashMap<u32, String>, BuildError> {
        let mut out = HashMap::new();
        self.read(name, &[id_col, "local_language_id", name_col], |r| {
            if r.str(1) == ENGLISH && !r.str(2).is_empty() {
                out.insert(r.num(0)?, r.str(2).to_owned());
            }
            Ok(())
        })?;
        Ok(out)
    }

    /// A `*_flavor_text.csv` keyed by version group: English texts per record.
    fn flavor_by_version_group(
        &mut self,
        name: &str,
        id_col: &str,
        common: &Common,
    ) -> Result<FlavorMap, BuildError> {
        let mut out: FlavorMap = HashMap::new();
        self.read(
            name,
            &[id_col, "version_group_id", "language_id", "flavor_text"],
            |r| {
                if r.str(2) != ENGLISH {
                    return Ok(());
                }
                let vg: u32 = r.num(1)?;
                let order = common
                    .version_groups
                    .get(&vg)
                    .ok_or_else(|| r.error(1, format!("unknown version group id {vg}")))?
                    .0;
                out.entry(r.num(0)?)
                    .or_default()
                    .entry((order, vg))
                    .or_insert_with(|| clean_game_text(r.str(3)));
                Ok(())
            },
        )?;
        Ok(out)
    }

    /// Reports each record (in id order) whose slug an earlier one has,
    /// and gives it the earlier one's display name when it has none of its
    /// own (its display name is its slug). Every record is kept: the index
    /// finds a repeat by its id, and its slug finds the lowest id.
    fn share_duplicate_slugs<T>(
        &mut self,
        file: &str,
        records: &mut [T],
        key: impl Fn(&mut T) -> (u32, &String, &mut String),
    ) {
        let mut first_name: HashMap<String, String> = HashMap::new();
        for record in records.iter_mut() {
            let (id, slug, display) = key(record);
            match first_name.get(slug) {
                None => {
                    first_name.insert(slug.clone(), display.clone());
                }
                Some(name) => {
                    (self.progress)(Progress::DuplicateSlug { file, slug, id });
                    if display == slug {
                        display.clone_from(name);
                    }
                }
            }
        }
    }

    fn common(&mut self) -> Result<Common, BuildError> {
        let type_slugs = self.slugs("types.csv")?;
        let mut version_groups = HashMap::new();
        self.read("version_groups.csv", &["id", "identifier", "order"], |r| {
            version_groups.insert(r.num(0)?, (r.num(2)?, r.str(1).to_owned()));
            Ok(())
        })?;
        Ok(Common {
            type_slugs,
            version_groups,
        })
    }

    fn creatures(&mut self, common: &Common) -> Result<Vec<Creature>, BuildError> {
        let type_names = self.english_names("type_names.csv", "type_id", "name")?;
        let ability_names = self.english_names("ability_names.csv", "ability_id", "name")?;
        let egg_group_slugs = self.slugs("egg_groups.csv")?;
        let egg_group_names = self.english_names("egg_group_prose.csv", "egg_group_id", "name")?;
        let stat_slugs = self.slugs("stats.csv")?;

        // species
        struct Species {
            slug: String,
            generation: u8,
            evolves_from: Option<u32>,
            gender_rate: i8,
            order: i64,
        }
        let mut species: BTreeMap<u32, Species> = BTreeMap::new();
        self.read(
            "pokemon_species.csv",
            &[
                "id",
                "identifier",
                "generation_id",
                "evolves_from_species_id",
                "gender_rate",
                "order",
            ],
            |r| {
                let gender_rate: i8 = r.num(4)?;
                if !(-1..=8).contains(&gender_rate) {
                    return Err(r.error(4, format!("gender rate {gender_rate} is outside -1..=8")));
                }
                species.insert(
                    r.num(0)?,
                    Species {
                        slug: r.str(1).to_owned(),
                        generation: r.num(2)?,
                        evolves_from: r.opt_num(3)?,
                        gender_rate,
                        order: r.opt_num(5)?.unwrap_or(i64::MAX),
                    },
                );
                Ok(())
            },
        )?;
        let mut species_names: HashMap<u32, (String, String)> = HashMap::new();
        self.read(
            "pokemon_species_names.csv",
            &["pokemon_species_id", "local_language_id", "name", "genus"],
            |r| {
                if r.str(1) == ENGLISH {
                    species_names.insert(r.num(0)?, (r.str(2).to_owned(), r.str(3).to_owned()));
                }
                Ok(())
            },
        )?;
        let species_display = |id: u32| {
            species_names
                .get(&id)
                .map(|n| n.0.clone())
                .unwrap_or_else(|| species[&id].slug.clone())
        };

        // newest English dex entry per species
        let mut version_order: HashMap<u32, (u32, u32)> = HashMap::new();
        self.read("versions.csv", &["id", "version_group_id"], |r| {
            let (id, vg): (u32, u32) = (r.num(0)?, r.num(1)?);
            let order = common
                .version_groups
                .get(&vg)
                .ok_or_else(|| r.error(1, format!("unknown version group id {vg}")))?
                .0;
            version_order.insert(id, (order, id));
            Ok(())
        })?;
        let mut descriptions: HashMap<u32, ((u32, u32), String)> = HashMap::new();
        self.read(
            "pokemon_species_flavor_text.csv",
            &["species_id", "version_id", "language_id", "flavor_text"],
            |r| {
                if r.str(2) != ENGLISH {
                    return Ok(());
                }
                let version: u32 = r.num(1)?;
                let key = *version_order
                    .get(&version)
                    .ok_or_else(|| r.error(1, format!("unknown version id {version}")))?;
                let species_id: u32 = r.num(0)?;
                match descriptions.get(&species_id) {
                    Some((have, _)) if *have >= key => {}
                    _ => {
                        descriptions.insert(species_id, (key, r.str(3).to_owned()));
                    }
                }
                Ok(())
            },
        )?;

        // evolution: stage per species and the family line. Families are
        // the species sharing a root (following evolves_from), which holds
        // even where the data splits one family over two chain ids.
        let mut stage: HashMap<u32, u8> = HashMap::new();
        let mut families: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        for &id in species.keys() {
            let mut depth = 1u8;
            let mut at = id;
            while let Some(parent) = species[&at].evolves_from {
                if !species.contains_key(&parent) || depth > 16 {
                    break;
                }
                depth += 1;
                at = parent;
            }
            stage.insert(id, depth);
            families.entry(at).or_default().push(id);
        }
        let mut lines: HashMap<u32, Vec<String>> = HashMap::new();
        for members in families.values_mut() {
            members.sort_by_key(|id| (stage[id], species[id].order, *id));
            let line: Vec<String> = members.iter().map(|id| species_display(*id)).collect();
            for id in members.iter() {
                lines.insert(*id, line.clone());
            }
        }

        // pokemon
        struct Pokemon {
            id: u32,
            slug: String,
            species: u32,
            height: u32,
            weight: u32,
            base_experience: Option<u32>,
            is_default: bool,
        }
        let mut pokemon: Vec<Pokemon> = Vec::new();
        self.read(
            "pokemon.csv",
            &[
                "id",
                "identifier",
                "species_id",
                "height",
                "weight",
                "base_experience",
                "is_default",
            ],
            |r| {
                let species_id: u32 = r.num(2)?;
                if !species.contains_key(&species_id) {
                    return Err(r.error(2, format!("unknown species id {species_id}")));
                }
                pokemon.push(Pokemon {
                    id: r.num(0)?,
                    slug: r.str(1).to_owned(),
                    species: species_id,
                    height: r.num(3)?,
                    weight: r.num(4)?,
                    base_experience: r.opt_num(5)?,
                    is_default: r.flag(6)?,
                });
                Ok(())
            },
        )?;
        pokemon.sort_by_key(|p| p.id);

        // forms: display names of alternate forms and aliases
        let mut form_names: HashMap<u32, String> = HashMap::new();
        self.read(
            "pokemon_form_names.csv",
            &["pokemon_form_id", "local_language_id", "pokemon_name"],
            |r| {
                if r.str(1) == ENGLISH && !r.str(2).is_empty() {
                    form_names.insert(r.num(0)?, r.str(2).to_owned());
                }
                Ok(())
            },
        )?;
        struct Form {
            id: u32,
            is_default: bool,
            slug: String,
            english_name: Option<String>,
        }
        // pokemon id → its forms
        let mut forms: HashMap<u32, Vec<Form>> = HashMap::new();
        self.read(
            "pokemon_forms.csv",
            &["id", "identifier", "pokemon_id", "is_default"],
            |r| {
                let form_id: u32 = r.num(0)?;
                forms.entry(r.num(2)?).or_default().push(Form {
                    id: form_id,
                    is_default: r.flag(3)?,
                    slug: r.str(1).to_owned(),
                    english_name: form_names.get(&form_id).cloned(),
                });
                Ok(())
            },
        )?;

        // per-pokemon joins
        let mut types: HashMap<u32, BTreeMap<u32, String>> = HashMap::new();
        self.read(
            "pokemon_types.csv",
            &["pokemon_id", "type_id", "slot"],
            |r| {
                let type_id: u32 = r.num(1)?;
                let name = type_names
                    .get(&type_id)
                    .cloned()
                    .or_else(|| common.type_slugs.get(&type_id).cloned())
                    .ok_or_else(|| r.error(1, format!("unknown type id {type_id}")))?;
                types.entry(r.num(0)?).or_default().insert(r.num(2)?, name);
                Ok(())
            },
        )?;
        let mut abilities: HashMap<u32, BTreeMap<u32, String>> = HashMap::new();
        self.read(
            "pokemon_abilities.csv",
            &["pokemon_id", "ability_id", "slot"],
            |r| {
                let ability_id: u32 = r.num(1)?;
                let name = ability_names
                    .get(&ability_id)
                    .cloned()
                    .ok_or_else(|| r.error(1, format!("unknown ability id {ability_id}")))?;
                abilities
                    .entry(r.num(0)?)
                    .or_default()
                    .insert(r.num(2)?, name);
                Ok(())
            },
        )?;
        let mut stats: HashMap<u32, Stats> = HashMap::new();
        self.read(
            "pokemon_stats.csv",
            &["pokemon_id", "stat_id", "base_stat"],
            |r| {
                let stat_id: u32 = r.num(1)?;
                let value: u16 = r.num(2)?;
                let entry = stats.entry(r.num(0)?).or_default();
                match stat_slugs.get(&stat_id).map(String::as_str) {
                    Some("hp") => entry.hp = value,
                    Some("attack") => entry.attack = value,
                    Some("defense") => entry.defense = value,
                    Some("special-attack") => entry.sp_atk = value,
                    Some("special-defense") => entry.sp_def = value,
                    Some("speed") => entry.speed = value,
                    Some(_) => {}
                    None => return Err(r.error(1, format!("unknown stat id {stat_id}"))),
                }
                Ok(())
            },
        )?;
        // Per species, in the file's row order (the source lists a species'
        // groups in their in-game order, which is not id order: woobat is
        // Field, Flying); a repeated group keeps its first place.
        let mut egg_groups: HashMap<u32, Vec<(u32, String)>> = HashMap::new();
        self.read(
            "pokemon_egg_groups.csv",
            &["species_id", "egg_group_id"],
            |r| {
                let group: u32 = r.num(1)?;
                let name = egg_group_names
                    .get(&group)
                    .or_else(|| egg_group_slugs.get(&group))
                    .cloned()
                    .ok_or_else(|| r.error(1, format!("unknown egg group id {group}")))?;
                let groups = egg_groups.entry(r.num(0)?).or_default();
                if !groups.iter().any(|(id, _)| *id == group) {
                    groups.push((group, name));
                }
                Ok(())
            },
        )?;

        let creatures = pokemon
            .into_iter()
            .map(|p| {
                let s = &species[&p.species];
                let species_name = species_display(p.species);
                let mut own_forms = forms.remove(&p.id).unwrap_or_default();
                own_forms.sort_by_key(|f| f.id);
                let display_name = if p.is_default {
                    species_name.clone()
                } else {
                    own_forms
                        .iter()
                        .filter(|f| f.is_default)
                        .find_map(|f| f.english_name.clone())
                        .unwrap_or_else(|| species_name.clone())
                };
                let mut aliases: Vec<String> = Vec::new();
                for form in &own_forms {
                    for alias in std::iter::once(&form.slug).chain(&form.english_name) {
                        if *alias != p.slug && *alias != display_name && !aliases.contains(alias) {
                            aliases.push(alias.clone());
                        }
                    }
                }
                Creature {
                    pokemon_id: p.id,
                    species_id: p.species,
                    slug: p.slug,
                    display_name,
                    is_default: p.is_default,
                    aliases,
                    types: types
                        .remove(&p.id)
                        .unwrap_or_default()
                        .into_values()
                        .collect(),
                    genus: species_names
                        .get(&p.species)
                        .map(|n| n.1.clone())
                        .unwrap_or_default(),
                    abilities: abilities
                        .remove(&p.id)
                        .unwrap_or_default()
                        .into_values()
                        .collect(),
                    height_dm: p.height,
                    weight_hg: p.weight,
                    base_experience: p.base_experience,
                    gender: if s.gender_rate < 0 {
                        Gender::Genderless
                    } else {
                        Gender::FemaleEighths(s.gender_rate as u8)
                    },
                    egg_groups: egg_groups
                        .get(&p.species)
                        .map(|g| g.iter().map(|(_, name)| name.clone()).collect())
                        .unwrap_or_default(),
                    stats: stats.remove(&p.id).unwrap_or_default(),
                    evolution_stage: stage[&p.species],
                    evolution_line: lines
                        .get(&p.species)
                        .cloned()
                        .unwrap_or_else(|| vec![species_name.clone()]),
                    description: descriptions
                        .get(&p.species)
                        .map(|(_, text)| clean_game_text(text)),
                    generation: s.generation,
                }
            })
            .collect();
        Ok(creatures)
    }

    fn moves(
        &mut self,
        common: &Common,
        creature_index: &HashMap<u32, u32>,
    ) -> Result<Vec<Move>, BuildError> {
        let names = self.english_names("move_names.csv", "move_id", "name")?;
        let effects =
            self.english_names("move_effect_prose.csv", "move_effect_id", "short_effect")?;
        let damage_classes = self.slugs("move_damage_classes.csv")?;
        let contest_types = self.slugs("contest_types.csv")?;
        let mut flavor = self.flavor_by_version_group("move_flavor_text.csv", "move_id", common)?;

        let mut moves: Vec<Move> = Vec::new();
        self.read(
            "moves.csv",
            &[
                "id",
                "identifier",
                "generation_id",
                "type_id",
                "power",
                "pp",
                "accuracy",
                "priority",
                "damage_class_id",
                "effect_id",
                "effect_chance",
                "contest_type_id",
            ],
            |r| {
                let id: u32 = r.num(0)?;
                let type_id: u32 = r.num(3)?;
                let type_slug = common
                    .type_slugs
                    .get(&type_id)
                    .cloned()
                    .ok_or_else(|| r.error(3, format!("unknown type id {type_id}")))?;
                let category = match r.opt_num::<u32>(8)? {
                    None => None,
                    Some(c) => Some(
                        damage_classes
                            .get(&c)
                            .cloned()
                            .ok_or_else(|| r.error(8, format!("unknown damage class id {c}")))?,
                    ),
                };
                let contest = match r.opt_num::<u32>(11)? {
                    None => None,
                    Some(c) => Some(
                        contest_types
                            .get(&c)
                            .cloned()
                            .ok_or_else(|| r.error(11, format!("unknown contest type id {c}")))?,
                    ),
                };
                let chance: Option<u32> = r.opt_num(10)?;
                let effect = match r.opt_num::<u32>(9)? {
                    None => None,
                    Some(e) => effects
                        .get(&e)
                        .map(|text| fill_effect_chance(&clean_prose(text), chance)),
                };
                let slug = r.str(1).to_owned();
                moves.push(Move {
                    id,
                    display_name: names.get(&id).cloned().unwrap_or_else(|| slug.clone()),
                    slug,
                    generation: r.num(2)?,
                    effect,
                    type_slug,
                    category,
                    contest,
                    pp: r.opt_num(5)?,
                    power: r.opt_num(4)?,
                    accuracy: r.opt_num(6)?,
                    priority: r.num(7)?,
                    learners: Vec::new(),
                    descriptions: versions(flavor.remove(&id), common),
                });
                Ok(())
            },
        )?;
        moves.sort_by_key(|m| m.id);
        self.share_duplicate_slugs("moves.csv", &mut moves, |m| {
            (m.id, &m.slug, &mut m.display_name)
        });
        let position: HashMap<u32, usize> =
            moves.iter().enumerate().map(|(i, m)| (m.id, i)).collect();
        self.read("pokemon_moves.csv", &["pokemon_id", "move_id"], |r| {
            let pokemon: u32 = r.num(0)?;
            let creature = *creature_index
                .get(&pokemon)
                .ok_or_else(|| r.error(0, format!("unknown pokemon id {pokemon}")))?;
            let mv: u32 = r.num(1)?;
            let at = *position
                .get(&mv)
                .ok_or_else(|| r.error(1, format!("unknown move id {mv}")))?;
            moves[at].learners.push(creature);
            Ok(())
        })?;
        for m in &mut moves {
            m.learners.sort_unstable();
            m.learners.dedup();
            m.learners.shrink_to_fit();
        }
        Ok(moves)
    }

    fn abilities(
        &mut self,
        common: &Common,
        creature_index: &HashMap<u32, u32>,
    ) -> Result<Vec<Ability>, BuildError> {
        let names = self.english_names("ability_names.csv", "ability_id", "name")?;
        let effects = self.english_names("ability_prose.csv", "ability_id", "short_effect")?;
        let mut flavor =
            self.flavor_by_version_group("ability_flavor_text.csv", "ability_id", common)?;
        let mut holders: HashMap<u32, Vec<AbilityHolder>> = HashMap::new();
        self.read(
            "pokemon_abilities.csv",
            &["pokemon_id", "ability_id", "is_hidden"],
            |r| {
                let pokemon: u32 = r.num(0)?;
                let creature = *creature_index
                    .get(&pokemon)
                    .ok_or_else(|| r.error(0, format!("unknown pokemon id {pokemon}")))?;
                holders.entry(r.num(1)?).or_default().push(AbilityHolder {
                    creature,
                    hidden: r.flag(2)?,
                });
                Ok(())
            },
        )?;
        let mut abilities = Vec::new();
        self.read(
            "abilities.csv",
            &["id", "identifier", "generation_id"],
            |r| {
                let id: u32 = r.num(0)?;
                let slug = r.str(1).to_owned();
                let mut holders = holders.remove(&id).unwrap_or_default();
                holders.sort_by_key(|h| (h.creature, h.hidden));
                holders.dedup();
                abilities.push(Ability {
                    id,
                    display_name: names.get(&id).cloned().unwrap_or_else(|| slug.clone()),
                    slug,
                    generation: r.num(2)?,
                    effect: effects.get(&id).map(|t| clean_prose(t)),
                    descriptions: versions(flavor.remove(&id), common),
                    holders,
                });
                Ok(())
            },
        )?;
        if let Some(id) = holders.keys().min() {
            return Err(BuildError::Malformed {
                file: self.dir.join("pokemon_abilities.csv"),
                line: 0,
                column: 2,
                message: format!("ability id {id} is not in abilities.csv"),
            });
        }
        abilities.sort_by_key(|a| a.id);
        self.share_duplicate_slugs("abilities.csv", &mut abilities, |a| {
            (a.id, &a.slug, &mut a.display_name)
        });
        Ok(abilities)
    }

    fn items(&mut self, common: &Common) -> Result<Vec<Item>, BuildError> {
        let names = self.english_names("item_names.csv", "item_id", "name")?;
        let effects = self.english_names("item_prose.csv", "item_id", "short_effect")?;
        let categories = self.slugs("item_categories.csv")?;
        let flags = self.slugs("item_flags.csv")?;
        let mut item_flags: HashMap<u32, BTreeMap<u32, String>> = HashMap::new();
        self.read("item_flag_map.csv", &["item_id", "item_flag_id"], |r| {
            let flag: u32 = r.num(1)?;
            let slug = flags
                .get(&flag)
                .cloned()
                .ok_or_else(|| r.error(1, format!("unknown item flag id {flag}")))?;
            item_flags.entry(r.num(0)?).or_default().insert(flag, slug);
            Ok(())
        })?;
        let mut flavor = self.flavor_by_version_group("item_flavor_text.csv", "item_id", common)?;
        let mut items = Vec::new();
        self.read(
            "items.csv",
            &["id", "identifier", "category_id", "cost"],
            |r| {
                let id: u32 = r.num(0)?;
                let slug = r.str(1).to_owned();
                let category_id: u32 = r.num(2)?;
                let category = categories
                    .get(&category_id)
                    .cloned()
                    .ok_or_else(|| r.error(2, format!("unknown item category id {category_id}")))?;
                items.push(Item {
                    id,
                    display_name: names.get(&id).cloned().unwrap_or_else(|| slug.clone()),
                    slug,
                    effect: effects.get(&id).map(|t| clean_prose(t)),
                    cost: r.opt_num(3)?.unwrap_or(0),
                    attributes: item_flags
                        .remove(&id)
                        .unwrap_or_default()
                        .into_values()
                        .collect(),
                    category,
                    descriptions: versions(flavor.remove(&id), common),
                });
                Ok(())
            },
        )?;
        items.sort_by_key(|i| i.id);
        self.share_duplicate_slugs("items.csv", &mut items, |i| {
            (i.id, &i.slug, &mut i.display_name)
        });
        Ok(items)
    }
}

/// Orders one record's flavor texts by version group.
fn versions(texts: Option<BTreeMap<(u32, u32), String>>, common: &Common) -> Vec<VersionText> {
    texts
        .unwrap_or_default()
        .into_iter()
        .map(|((_, vg), text)| VersionText {
            text,
            version: common.version_groups[&vg].1.clone(),
        })
        .collect()
}

/// Fills a move's effect chance into its effect text: `$effect_chance` is
/// replaced by the number; otherwise every "a chance" (as whole words)
/// becomes "a N% chance" (fire-fang: "Has a 10% chance to burn the target
/// and a 10% chance to make the target flinch."; the source gives one chance
/// per move, and the games roll each effect with it). Text without either,
/// or a move without a chance, is kept.
pub(crate) fn fill_effect_chance(text: &str, chance: Option<u32>) -> String {
    const PLACEHOLDER: &str = "a chance";
    let Some(chance) = chance else {
        return text.to_owned();
    };
    if text.contains("$effect_chance") {
        return text.replace("$effect_chance", &chance.to_string());
    }
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut copied = 0;
    let mut from = 0;
    while let Some(at) = text[from..].find(PLACEHOLDER).map(|i| i + from) {
        let end = at + PLACEHOLDER.len();
        let starts_word = at == 0 || !bytes[at - 1].is_ascii_alphanumeric();
        let ends_word = bytes.get(end).is_none_or(|b| !b.is_ascii_alphanumeric());
        if starts_word && ends_word {
            out.push_str(&text[copied..at]);
            out.push_str(&format!("a {chance}% chance"));
            copied = end;
        }
        from = end;
    }
    out.push_str(&text[copied..]);
    out
}

/// Cleans effect prose (the short effects of moves, abilities and items):
/// the source's text is kept as written, spacing included (it puts two
/// spaces after a full stop), except that the ends are trimmed and a line
/// break, form feed or tab becomes one space.
pub(crate) fn clean_prose(text: &str) -> String {
    text.trim()
        .replace("\r\n", "\n")
        .chars()
        .map(|c| {
            if matches!(c, '\n' | '\r' | '\u{c}' | '\t') {
                ' '
            } else {
                c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn effect_chance_is_filled() {
        assert_eq!(
            fill_effect_chance("Has a chance to burn the target.", Some(10)),
            "Has a 10% chance to burn the target."
        );
        assert_eq!(
            fill_effect_chance("Has a $effect_chance% chance to burn.", Some(30)),
            "Has a 30% chance to burn."
        );
        assert_eq!(
            fill_effect_chance("Has a chance to burn.", None),
            "Has a chance to burn."
        );
        assert_eq!(
            fill_effect_chance("Lowers Speed by one stage.", Some(100)),
            "Lowers Speed by one stage."
        );
        assert_eq!(
            fill_effect_chance("Has an increased chance for a critical hit.", Some(5)),
            "Has an increased chance for a critical hit."
        );
        assert_eq!(
            fill_effect_chance("Hits with a chance to flinch.", Some(20)),
            "Hits with a 20% chance to flinch."
        );
        assert_eq!(
            fill_effect_chance(
                "Has a chance to burn the target and a chance to make the target flinch.",
                Some(10)
            ),
            "Has a 10% chance to burn the target and a 10% chance to make the target flinch."
        );
        assert_eq!(
            fill_effect_chance("Has a chancellor and a chance.", Some(30)),
            "Has a chancellor and a 30% chance."
        );
    }

    #[test]
    fn prose_keeps_the_source_spacing() {
        assert_eq!(
            clean_prose("Hits twice.  Has a chance to poison the target. "),
            "Hits twice.  Has a chance to poison the target."
        );
        assert_eq!(
            clean_prose("One.\r\nTwo.\nThree.\u{c}Four."),
            "One. Two. Three. Four."
        );
    }
}
