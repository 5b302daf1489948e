//! Component schemas (JSON Schema 2020-12, as OpenAPI 3.1 uses) and their
//! examples. Nullable fields are `"type": [<type>, "null"]`.

use serde_json::{Value, json};

fn s() -> Value {
    json!({ "type": "string" })
}
fn int() -> Value {
    json!({ "type": "integer" })
}
fn nullable(t: &str) -> Value {
    json!({ "type": [t, "null"] })
}
fn strings() -> Value {
    json!({ "type": "array", "items": { "type": "string" } })
}
fn url() -> Value {
    json!({ "type": "string", "format": "uri" })
}
fn obj(props: Value, required: &[&str], closed: bool) -> Value {
    let mut o = json!({ "type": "object", "properties": props, "required": required });
    if closed {
        o["additionalProperties"] = json!(false);
    }
    o
}
fn descriptions(with_text: bool) -> Value {
    let mut req = vec!["version"];
    if with_text {
        req.insert(0, "description");
    }
    json!({ "type": "array", "items": obj(
        json!({ "description": s(), "version": s() }), &req, false) })
}
fn suggestions(member: &str) -> Value {
    obj(
        json!({
            "error": s(),
            "dym": { "type": "array", "maxItems": 5, "items": obj(json!({
                member: s(),
                "certainty": { "type": "string", "pattern": "^[01]\\.[0-9]{2}$",
                               "description": "Sørensen–Dice similarity as two-decimal text" },
            }), &[member, "certainty"], true) },
        }),
        &["error", "dym"],
        true,
    )
}

/// Every component schema.
pub fn all() -> Value {
    json!({
        "Error": obj(json!({ "error": { "type": "string", "minLength": 1 } }), &["error"], true),
        "CreatureNotFound": suggestions("creature"),
        "MoveNotFound": suggestions("move"),
        "AbilityNotFound": suggestions("ability"),
        "ItemNotFound": suggestions("item"),
        "HexConversion": obj(json!({
            "hex": { "type": "string", "pattern": "^#[0-9A-F]{6}$" },
            "original": obj(json!({
                "red": { "type": "string", "pattern": "^[0-9]{1,3}$" },
                "green": { "type": "string", "pattern": "^[0-9]{1,3}$" },
                "blue": { "type": "string", "pattern": "^[0-9]{1,3}$" },
            }), &["red", "green", "blue"], true),
        }), &["hex", "original"], true),
        "RgbConversion": obj(json!({
            "r": { "type": "integer", "minimum": 0, "maximum": 255 },
            "g": { "type": "integer", "minimum": 0, "maximum": 255 },
            "b": { "type": "integer", "minimum": 0, "maximum": 255 },
        }), &["r", "g", "b"], true),
        "AnimuTypes": obj(json!({ "types": strings() }), &["types"], true),
        "Endpoints": obj(json!({ "endpoints": strings() }), &["endpoints"], true),
        "AnimuLink": obj(json!({ "link": url(), "type": s() }), &["link", "type"], true),
        "AnimuQuote": obj(json!({ "quote": s(), "anime": s(), "id": int(), "name": s() }),
            &["quote", "anime", "id", "name"], true),
        "AnimalPick": obj(json!({ "image": url(), "fact": s() }), &["image", "fact"], true),
        "Fact": obj(json!({ "fact": s() }), &["fact"], true),
        "ImageLink": obj(json!({ "link": url() }), &["link"], true),
        "Health": obj(json!({ "status": s(), "version": s() }), &["status", "version"], false),
        "OpenApiDocument": { "type": "object", "description": "This document" },
        "DexRecord": obj(json!({
            "name": { "type": "string", "description": "lower case" },
            "id": { "type": "string", "pattern": "^[0-9]{3,4}$", "description": "zero-padded to 3 digits (4 from 1000)" },
            "type": strings(),
            "species": strings(),
            "abilities": strings(),
            "height": { "type": "string", "description": "metres and feet/inches, e.g. `0.7 m (2′04″)`" },
            "weight": { "type": "string", "description": "kilograms and pounds, e.g. `6.9 kg (15.2 lbs)`" },
            "base_experience": { "type": ["string", "null"], "description": "numeric text; null where the data has none" },
            "gender": strings(),
            "egg_groups": strings(),
            "stats": obj(json!({
                "hp": s(), "attack": s(), "defense": s(), "sp_atk": s(),
                "sp_def": s(), "speed": s(), "total": s(),
            }), &["hp", "attack", "defense", "sp_atk", "sp_def", "speed", "total"], true),
            "family": obj(json!({
                "evolutionStage": { "type": "integer", "minimum": 1 },
                "evolutionLine": strings(),
            }), &["evolutionStage", "evolutionLine"], true),
            "sprites": obj(json!({ "normal": url(), "animated": url() }), &["normal", "animated"], true),
            "description": { "type": ["string", "null"], "description": "the newest English dex entry; null where the data has none" },
            "generation": { "type": "string", "pattern": "^[1-9]$" },
        }), &["name", "id", "type", "species", "abilities", "height", "weight", "base_experience",
              "gender", "egg_groups", "stats", "family", "sprites", "description", "generation"], false),
        "Move": obj(json!({
            "id": int(),
            "name": { "type": "string", "description": "the slug" },
            "generation": int(),
            "effects": nullable("string"),
            "type": s(),
            "category": nullable("string"),
            "contest": { "type": ["string", "null"], "description": "null where the data has no contest type (newer moves)" },
            "pp": nullable("integer"),
            "power": { "type": ["integer", "null"], "description": "null for status moves and variable power" },
            "accuracy": { "type": ["integer", "null"], "description": "null for moves that never miss" },
            "priority": int(),
            "creature": strings(),
            "descriptions": descriptions(true),
        }), &["id", "name", "generation", "effects", "type", "category", "contest", "pp", "power",
              "accuracy", "priority", "creature", "descriptions"], false),
        "Ability": obj(json!({
            "id": int(),
            "name": s(),
            "generation": int(),
            "effects": nullable("string"),
            "description": nullable("string"),
            "creatures": { "type": "array", "items": obj(
                json!({ "creature": s(), "hidden": { "type": "boolean" } }), &["creature", "hidden"], false) },
            "descriptions": descriptions(false),
        }), &["id", "name", "generation", "effects", "description", "creatures", "descriptions"], false),
        "Item": obj(json!({
            "id": int(),
            "name": s(),
            "effects": nullable("string"),
            "cost": int(),
            "attributes": strings(),
            "category": s(),
            "sprite": url(),
            "descriptions": descriptions(true),
        }), &["id", "name", "effects", "cost", "attributes", "category", "sprite", "descriptions"], false),
    })
}

/// An example body for the schema, where one helps.
pub fn example(schema: &str) -> Option<Value> {
    Some(match schema {
        "HexConversion" => {
            json!({ "hex": "#4B007D", "original": { "red": "75", "green": "0", "blue": "125" } })
        }
        "RgbConversion" => json!({ "r": 75, "g": 0, "b": 125 }),
        "AnimuTypes" => json!({ "types": ["/animu/nom", "/animu/poke", "/animu/cry"] }),
        "Endpoints" => json!({ "endpoints": ["/facts/cat", "/facts/fox"] }),
        "AnimuLink" => json!({ "link": "https://example.com/hug.gif", "type": "hug" }),
        "AnimuQuote" => json!({
            "quote": "People's lives don't end when they die. It ends when they lose faith.",
            "anime": "Naruto", "id": 1, "name": "Itachi Uchiha"
        }),
        "AnimalPick" => json!({
            "image": "https://example.com/fox.jpg",
            "fact": "Red foxes use the Earth's magnetic field to aim their pounces."
        }),
        "Fact" => json!({ "fact": "A group of cats is called a clowder." }),
        "ImageLink" => json!({ "link": "https://example.com/cat.jpg" }),
        "Health" => json!({ "status": "ok", "version": env!("CARGO_PKG_VERSION") }),
        "CreatureNotFound" => json!({
            "error": "creature not found: \"charzard\"",
            "dym": [{ "creature": "charizard", "certainty": "0.80" }]
        }),
        "MoveNotFound" => json!({
            "error": "no move named `karate-chp`",
            "dym": [{ "move": "karate-chop", "certainty": "0.84" }]
        }),
        "AbilityNotFound" => json!({
            "error": "no ability named `stenh`",
            "dym": [{ "ability": "stench", "certainty": "0.67" }]
        }),
        "ItemNotFound" => json!({
            "error": "no item named `master-bal`",
            "dym": [{ "item": "master-ball", "certainty": "0.95" }]
        }),
        "Move" => json!({
            "id": 2, "name": "karate-chop", "generation": 1,
            "effects": "Inflicts regular damage. User's critical hit rate is one level higher when using this move.",
            "type": "fighting", "category": "physical", "contest": "tough",
            "pp": 25, "power": 50, "accuracy": 100, "priority": 0,
            "creature": ["mankey", "primeape", "machop"],
            "descriptions": [{ "description": "The foe is attacked with a sharp chop.", "version": "ruby-sapphire" }]
        }),
        _ => return None,
    })
}
