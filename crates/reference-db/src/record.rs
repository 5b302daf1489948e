//! Typed records: creatures, moves, abilities and items, as the dataset
//! stores them, plus the text forms of the long-standing public API
//! (`"025"`, `"0.7 m (2′04″)"`, `"87.5% male"`...).
//!
//! The serde derives are for the engine's own on-disk format only
//! ([`crate::dataset`]); they are not a wire format. The server maps these
//! records to its JSON shape.

use serde::{Deserialize, Serialize};

/// A creature: one row of PokeAPI `pokemon.csv` (a species' default form or
/// an alternate form such as `raichu-alola`), with its species' data joined.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Creature {
    /// PokeAPI pokemon id (`25`; alternate forms are `10001` and up).
    pub pokemon_id: u32,
    /// National dex number of the species (`26` for `raichu-alola`).
    pub species_id: u32,
    /// Lower-case slug (`"pikachu"`, `"raichu-alola"`).
    pub slug: String,
    /// English display name (`"Pikachu"`, `"Alolan Raichu"`).
    pub display_name: String,
    /// Whether this is the species' default form.
    pub is_default: bool,
    /// Other names the creature is found by: its forms' slugs and English
    /// form names (`"unown-b"`, `"Sun Vivillon"`), deduplicated.
    pub aliases: Vec<String>,
    /// Type display names in slot order (`["Grass", "Poison"]`).
    pub types: Vec<String>,
    /// English genus (`"Seed Pokémon"`); empty when the data has none.
    pub genus: String,
    /// Ability display names in slot order (hidden ability last).
    pub abilities: Vec<String>,
    /// Height in decimetres.
    pub height_dm: u32,
    /// Weight in hectograms.
    pub weight_hg: u32,
    /// Base experience yield; `None` when the data has no value.
    pub base_experience: Option<u32>,
    /// Gender ratio.
    pub gender: Gender,
    /// Egg group display names (`["Monster", "Grass"]`).
    pub egg_groups: Vec<String>,
    /// Base stats.
    pub stats: Stats,
    /// 1-based stage in the evolution family (babies are stage 1).
    pub evolution_stage: u8,
    /// Species display names of the whole family, by stage, then by dex
    /// order within a stage (`["Pichu", "Pikachu", "Raichu"]`).
    pub evolution_line: Vec<String>,
    /// Newest English dex entry; `None` when the data has none. Cleaned like
    /// every game text here: a soft hyphen (or a hyphen) before a line break
    /// joins the word, other soft hyphens vanish, and line breaks, form feeds
    /// and runs of spaces become one space.
    pub description: Option<String>,
    /// Generation that introduced the species (1-9).
    pub generation: u8,
}

/// Gender ratio of a species.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gender {
    /// No gender (`gender_rate = -1`).
    Genderless,
    /// Chance of being female in eighths (0 = always male, 8 = always female).
    FemaleEighths(u8),
}

/// Base stats of a creature.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Stats {
    /// Hit points.
    pub hp: u16,
    /// Attack.
    pub attack: u16,
    /// Defense.
    pub defense: u16,
    /// Special attack.
    pub sp_atk: u16,
    /// Special defense.
    pub sp_def: u16,
    /// Speed.
    pub speed: u16,
}

impl Stats {
    /// Sum of the six base stats.
    pub fn total(&self) -> u32 {
        [
            self.hp,
            self.attack,
            self.defense,
            self.sp_atk,
            self.sp_def,
            self.speed,
        ]
        .iter()
        .map(|v| u32::from(*v))
        .sum()
    }
}

/// One flavor text of a move, ability or item in one version group.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VersionText {
    /// The cleaned English text.
    pub text: String,
    /// Version-group slug (`"red-blue"`, `"scarlet-violet"`).
    pub version: String,
}

/// A move (`moves.csv` with names, prose, flavor text and learners joined).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Move {
    /// PokeAPI move id.
    pub id: u32,
    /// Slug (`"karate-chop"`).
    pub slug: String,
    /// English display name (`"Karate Chop"`).
    pub display_name: String,
    /// Generation that introduced the move.
    pub generation: u8,
    /// English short effect with the effect chance filled in; `None` when the
    /// data has no prose for the move's effect.
    pub effect: Option<String>,
    /// Type slug (`"fighting"`).
    pub type_slug: String,
    /// Damage-class slug (`"physical"`, `"special"`, `"status"`); `None` when
    /// the data has none.
    pub category: Option<String>,
    /// Contest-type slug (`"tough"`); `None` for moves without one (gen 9).
    pub contest: Option<String>,
    /// Power points; `None` when the data has no value.
    pub pp: Option<u16>,
    /// Power; `None` for status moves and moves of variable power.
    pub power: Option<u16>,
    /// Accuracy in percent; `None` for moves that never miss.
    pub accuracy: Option<u16>,
    /// Priority (-7..=5).
    pub priority: i8,
    /// Indices (into [`crate::ReferenceDb::creatures`]) of every creature
    /// that learns the move in any game, in pokemon-id order.
    pub learners: Vec<u32>,
    /// English flavor text per version group, oldest first.
    pub descriptions: Vec<VersionText>,
}

/// An ability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ability {
    /// PokeAPI ability id.
    pub id: u32,
    /// Slug (`"stench"`).
    pub slug: String,
    /// English display name (`"Stench"`).
    pub display_name: String,
    /// Generation that introduced the ability.
    pub generation: u8,
    /// English short effect; `None` when the data has none.
    pub effect: Option<String>,
    /// English flavor text per version group, oldest first.
    pub descriptions: Vec<VersionText>,
    /// Creatures that can have the ability, in pokemon-id order.
    pub holders: Vec<AbilityHolder>,
}

impl Ability {
    /// The newest English flavor text, if any.
    pub fn newest_description(&self) -> Option<&str> {
        self.descriptions.last().map(|d| d.text.as_str())
    }
}

/// A creature that can have an ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbilityHolder {
    /// Index into [`crate::ReferenceDb::creatures`].
    pub creature: u32,
    /// Whether it is the creature's hidden ability.
    pub hidden: bool,
}

/// An item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    /// PokeAPI item id.
    pub id: u32,
    /// Slug (`"master-ball"`).
    pub slug: String,
    /// English display name (`"Master Ball"`).
    pub display_name: String,
    /// English short effect; `None` when the data has none.
    pub effect: Option<String>,
    /// Price in the shop.
    pub cost: u32,
    /// Flag slugs (`["countable", "consumable", ...]`), in flag-id order.
    pub attributes: Vec<String>,
    /// Category slug (`"standard-balls"`).
    pub category: String,
    /// English flavor text per version group, oldest first.
    pub descriptions: Vec<VersionText>,
}

/// Sprite URLs of a creature.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreatureSprites {
    /// Front sprite, `{base}/pokemon/{pokemon_id}.png`.
    pub normal: String,
    /// Animated Black/White sprite
    /// `{base}/pokemon/versions/generation-v/black-white/animated/{pokemon_id}.gif`
    /// for pokemon ids up to 649 (the creatures those games animate);
    /// for every other creature the fallback is the `normal` sprite.
    pub animated: String,
}

/// Highest pokemon id with an animated Black/White sprite.
pub const LAST_ANIMATED_POKEMON_ID: u32 = 649;

impl Creature {
    /// Dex number text, zero-padded to 3 digits (`"025"`, `"1000"`).
    pub fn number_text(&self) -> String {
        format!("{:03}", self.species_id)
    }

    /// Height as `"0.7 m (2′04″)"` (metres, then feet and inches rounded to
    /// the nearest inch).
    pub fn height_text(&self) -> String {
        let metres = self.height_dm as f64 / 10.0;
        let inches_total = (metres / 0.0254).round() as u64;
        format!(
            "{metres:.1} m ({}′{:02}″)",
            inches_total / 12,
            inches_total % 12
        )
    }

    /// Weight as `"6.9 kg (15.2 lbs)"` (pounds to one decimal).
    pub fn weight_text(&self) -> String {
        let kg = self.weight_hg as f64 / 10.0;
        let lbs = self.weight_hg as f64 / 10.0 / 0.453_592_37;
        format!("{kg:.1} kg ({lbs:.1} lbs)")
    }

    /// Gender ratio as `["87.5% male", "12.5% female"]` or `["Genderless"]`.
    pub fn gender_text(&self) -> Vec<String> {
        match self.gender {
            Gender::Genderless => vec!["Genderless".to_owned()],
            Gender::FemaleEighths(f) => {
                let female = f64::from(f) * 12.5;
                vec![
                    format!("{}% male", percent(100.0 - female)),
                    format!("{}% female", percent(female)),
                ]
            }
        }
    }

    /// The genus split in words (`["Seed", "Pokémon"]`).
    pub fn species_words(&self) -> Vec<String> {
        self.genus.split_whitespace().map(str::to_owned).collect()
    }

    /// Whether an animated sprite exists (pokemon id ≤ 649).
    pub fn has_animated_sprite(&self) -> bool {
        self.pokemon_id <= LAST_ANIMATED_POKEMON_ID
    }

    /// Sprite URLs under `base` (no trailing slash needed). See
    /// [`CreatureSprites::animated`] for the fallback.
    pub fn sprites(&self, base: &str) -> CreatureSprites {
        let base = base.trim_end_matches('/');
        let normal = format!("{base}/pokemon/{}.png", self.pokemon_id);
        let animated = if self.has_animated_sprite() {
            format!(
                "{base}/pokemon/versions/generation-v/black-white/animated/{}.gif",
                self.pokemon_id
            )
        } else {
            normal.clone()
        };
        CreatureSprites { normal, animated }
    }
}

impl Item {
    /// Item sprite URL under `base`: `{base}/items/{slug}.png`.
    pub fn sprite(&self, base: &str) -> String {
        format!("{}/items/{}.png", base.trim_end_matches('/'), self.slug)
    }
}

/// `87.5` → `"87.5"`, `100` → `"100"`.
fn percent(value: f64) -> String {
    if value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        format!("{value}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn creature(pokemon_id: u32, height_dm: u32, weight_hg: u32, gender: Gender) -> Creature {
        Creature {
            pokemon_id,
            species_id: pokemon_id,
            slug: "x".into(),
            display_name: "X".into(),
            is_default: true,
            aliases: vec![],
            types: vec![],
            genus: "Seed Pokémon".into(),
            abilities: vec![],
            height_dm,
            weight_hg,
            base_experience: None,
            gender,
            egg_groups: vec![],
            stats: Stats::default(),
            evolution_stage: 1,
            evolution_line: vec![],
            description: None,
            generation: 1,
        }
    }

    #[test]
    fn text_forms() {
        let bulbasaur = creature(1, 7, 69, Gender::FemaleEighths(1));
        assert_eq!(bulbasaur.number_text(), "001");
        assert_eq!(bulbasaur.height_text(), "0.7 m (2′04″)");
        assert_eq!(bulbasaur.weight_text(), "6.9 kg (15.2 lbs)");
        assert_eq!(bulbasaur.gender_text(), ["87.5% male", "12.5% female"]);
        assert_eq!(bulbasaur.species_words(), ["Seed", "Pokémon"]);
        let pikachu = creature(25, 4, 60, Gender::FemaleEighths(4));
        assert_eq!(pikachu.number_text(), "025");
        assert_eq!(pikachu.height_text(), "0.4 m (1′04″)");
        assert_eq!(pikachu.weight_text(), "6.0 kg (13.2 lbs)");
        assert_eq!(pikachu.gender_text(), ["50% male", "50% female"]);
        let big = creature(1000, 200, 9999, Gender::Genderless);
        assert_eq!(big.number_text(), "1000");
        assert_eq!(big.height_text(), "20.0 m (65′07″)");
        assert_eq!(big.weight_text(), "999.9 kg (2204.4 lbs)");
        assert_eq!(big.gender_text(), ["Genderless"]);
        assert_eq!(
            creature(1, 1, 1, Gender::FemaleEighths(0)).gender_text(),
            ["100% male", "0% female"]
        );
    }

    #[test]
    fn sprites_fall_back_to_normal() {
        let pikachu = creature(25, 4, 60, Gender::Genderless);
        let s = pikachu.sprites("https://sprites.example/sprites/");
        assert_eq!(s.normal, "https://sprites.example/sprites/pokemon/25.png");
        assert_eq!(
            s.animated,
            "https://sprites.example/sprites/pokemon/versions/generation-v/black-white/animated/25.gif"
        );
        let alola = creature(10100, 7, 210, Gender::Genderless);
        let s = alola.sprites("https://sprites.example/sprites");
        assert_eq!(s.animated, s.normal);
    }
}
