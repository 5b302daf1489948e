//! The creature reference: `/creature/dex`, `/creature/moves`,
//! `/creature/abilities`, `/creature/items`.
//!
//! Each handler takes its one query parameter, calls one `reference_db`
//! lookup and maps the record to the spec's JSON shape (the body types
//! below, with the spec's member names and order). Misses become
//! [`ApiError::Lookup`] (404, with `dym` for moves, abilities and items);
//! without a loaded dataset every route answers 503
//! ([`ApiError::ReferenceDataMissing`]).
//!
//! Nullable members (`null` where the data has no value): dex
//! `base_experience`, `description`; move `effects`, `category`, `contest`,
//! `pp`, `power`, `accuracy`; ability `effects`, `description`; item
//! `effects`.

use actix_web::http::header;
use actix_web::{HttpResponse, web};
use reference_db::{Ability, Creature, Item, Move, ReferenceDb, VersionText};
use serde::{Deserialize, Serialize};

use super::required;
use crate::error::ApiError;
use crate::state::AppState;

/// Registers the creature routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(
        super::group("/creature")
            .get("/creature/dex", dex)
            .get("/creature/moves", moves)
            .get("/creature/abilities", abilities)
            .get("/creature/items", items),
    );
}

#[derive(Debug, Deserialize)]
struct DexQuery {
    id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct MoveQuery {
    #[serde(rename = "move")]
    name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct AbilityQuery {
    ability: Option<String>,
}

#[derive(Debug, Deserialize)]
struct ItemQuery {
    item: Option<String>,
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

fn reference(state: &AppState) -> Result<&ReferenceDb, ApiError> {
    state
        .reference
        .as_deref()
        .ok_or(ApiError::ReferenceDataMissing)
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

/// A 200 JSON answer; the body depends only on the URL and the dataset.
fn ok_json(body: impl Serialize) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "public, max-age=86400"))
        .json(body)
}

async fn dex(
    state: web::Data<AppState>,
    q: web::Query<DexQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = required(
        &q.id,
        "id",
        "a dex number (25, 025) or a name (pikachu, raichu-alola)",
    )?;
    let db = reference(&state)?;
    let creature = db.lookup_creature(query)?;
    Ok(ok_json(dex_body(creature, &state.settings.sprite_base_url)))
}

async fn moves(
    state: web::Data<AppState>,
    q: web::Query<MoveQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = required(
        &q.name,
        "move",
        "a move name (karate-chop, Karate Chop) or id",
    )?;
    let db = reference(&state)?;
    let found = db.lookup_move(query)?;
    Ok(ok_json(move_body(db, found)))
}

async fn abilities(
    state: web::Data<AppState>,
    q: web::Query<AbilityQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = required(&q.ability, "ability", "an ability name (stench) or id")?;
    let db = reference(&state)?;
    let found = db.lookup_ability(query)?;
    Ok(ok_json(ability_body(db, found)))
}

async fn items(
    state: web::Data<AppState>,
    q: web::Query<ItemQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = required(
        &q.item,
        "item",
        "an item name (master-ball, Master Ball) or id",
    )?;
    let db = reference(&state)?;
    let found = db.lookup_item(query)?;
    Ok(ok_json(item_body(found, &state.settings.sprite_base_url)))
}
