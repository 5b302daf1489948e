//! `/creature/*` over a dataset built from `fixtures/pokeapi` in the test.

use std::path::PathBuf;
use std::sync::OnceLock;

use actix_web::http::Method;
use serde_json::{Value, json};
use server::Settings;

use crate::support::{fixtures, request_with};

/// A data dir holding the fixture dataset, built once per test run.
fn fixture_data_dir() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir =
            std::env::temp_dir().join(format!("menagerie-creature-http-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let dataset =
            reference_db::build::build_dataset(&fixtures().join("pokeapi"), &mut |_| {}).unwrap();
        std::fs::write(
            dir.join(reference_db::DATASET_FILE_NAME),
            dataset.to_bytes(),
        )
        .unwrap();
        dir
    })
}

fn settings() -> Settings {
    let mut s = Settings::for_tests(fixture_data_dir());
    s.sprite_base_url = "https://sprites.test/sprites".into();
    s
}

async fn get(uri: &str) -> crate::support::Reply {
    request_with(settings(), Method::GET, uri).await
}

#[actix_rt::test]
async fn dex_record_has_exactly_the_spec_fields() {
    let r = get("/creature/dex?id=1").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert!(r.header("cache-control").unwrap().contains("max-age"));
    assert_eq!(
        r.json(),
        json!({
            "name": "bulbasaur",
            "id": "001",
            "type": ["Grass", "Poison"],
            "species": ["Seed", "Pokémon"],
            "abilities": ["Overgrow", "Chlorophyll"],
            "height": "0.7 m (2′04″)",
            "weight": "6.9 kg (15.2 lbs)",
            "base_experience": "64",
            "gender": ["87.5% male", "12.5% female"],
            "egg_groups": ["Monster", "Grass"],
            "stats": {"hp": "45", "attack": "49", "defense": "49", "sp_atk": "65", "sp_def": "65", "speed": "45", "total": "318"},
            "family": {"evolutionStage": 1, "evolutionLine": ["Bulbasaur", "Ivysaur", "Venusaur"]},
            "sprites": {
                "normal": "https://sprites.test/sprites/pokemon/1.png",
                "animated": "https://sprites.test/sprites/pokemon/versions/generation-v/black-white/animated/1.gif"
            },
            "description": "It carries a seed on its back. The seed slowly grows as it soaks up sunlight.",
            "generation": "1"
        })
    );
    // member order as in the spec
    let text = String::from_utf8(r.body).unwrap();
    let order: Vec<usize> = [
        "\"name\"",
        "\"id\"",
        "\"type\"",
        "\"species\"",
        "\"stats\"",
        "\"family\"",
        "\"generation\"",
    ]
    .iter()
    .map(|k| text.find(k).unwrap())
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
}

#[actix_rt::test]
async fn dex_forgiving_ids_forms_and_nulls() {
    for q in ["25", "025", "pikachu", "Pikachu", "PIKACHU"] {
        let r = get(&format!("/creature/dex?id={q}")).await;
        assert_eq!(r.status, 200, "{q}");
        assert_eq!(r.json()["name"], "pikachu", "{q}");
        assert_eq!(r.json()["id"], "025");
        assert_eq!(
            r.json()["family"],
            json!({"evolutionStage": 2, "evolutionLine": ["Pichu", "Pikachu", "Raichu"]})
        );
    }
    let alola = get("/creature/dex?id=raichu-alola").await.json();
    assert_eq!(
        (alola["name"].as_str(), alola["id"].as_str()),
        (Some("raichu-alola"), Some("026"))
    );
    assert_eq!(alola["family"]["evolutionStage"], 3);
    assert_eq!(
        alola["sprites"]["animated"], alola["sprites"]["normal"],
        "documented fallback"
    );
    assert_eq!(
        get("/creature/dex?id=Alolan%20Raichu").await.json()["name"],
        "raichu-alola"
    );
    let flabebe = get("/creature/dex?id=Flab%C3%A9b%C3%A9").await.json();
    assert_eq!(flabebe["name"], "flabebe");
    assert_eq!(flabebe["base_experience"], Value::Null);
    assert_eq!(flabebe["generation"], "6");
    let magnemite = get("/creature/dex?id=magnemite").await.json();
    assert_eq!(magnemite["gender"], json!(["Genderless"]));
    assert_eq!(magnemite["description"], Value::Null);
    let eevee = get("/creature/dex?id=eevee").await.json();
    assert_eq!(
        eevee["family"]["evolutionLine"].as_array().unwrap().len(),
        5
    );
}

#[actix_rt::test]
async fn dex_miss_is_404_with_dym_led_by_the_creature_meant() {
    let r = get("/creature/dex?id=pikachoo").await;
    let msg = r.assert_error(404);
    assert!(
        msg.contains("pikachoo") && msg.contains("creature"),
        "{msg}"
    );
    let body = r.json();
    assert_eq!(
        body.as_object().unwrap().len(),
        2,
        "`error` and `dym`: {body}"
    );
    assert_eq!(body["dym"][0]["creature"], "pikachu", "{body}");
    for query in ["pikachuu", "bulbsaur"] {
        let miss = get(&format!("/creature/dex?id={query}")).await;
        miss.assert_error(404);
        let dym = miss.json()["dym"].clone();
        let first = dym[0]["creature"].as_str().unwrap_or_default().to_owned();
        assert!(query.starts_with(&first[..4]), "{query}: {dym}");
        assert!(dym.as_array().unwrap().len() <= 5);
    }
    for number in ["0", "99999"] {
        let miss = get(&format!("/creature/dex?id={number}")).await;
        miss.assert_error(404);
        assert!(miss.json()["dym"].is_array(), "{number}");
    }
}

#[actix_rt::test]
async fn move_record() {
    let r = get("/creature/moves?move=Karate%20Chop").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({
            "id": 2,
            "name": "karate-chop",
            "generation": 1,
            "effects": "Has an increased chance for a critical hit.",
            "type": "fighting",
            "category": "physical",
            "contest": "tough",
            "pp": 25,
            "power": 50,
            "accuracy": 100,
            "priority": 0,
            "creature": [],
            "descriptions": [
                {"description": "The foe is chopped with a sharp hand.", "version": "red-blue"},
                {"description": "The foe is attacked with a sharp chop. It has a high critical-hit ratio.", "version": "ruby-sapphire"},
                {"description": "The target is attacked with a sharp chop. Critical hits land more easily.", "version": "scarlet-violet"}
            ]
        })
    );
    let bolt = get("/creature/moves?move=thunderbolt").await.json();
    assert_eq!(bolt["effects"], "Has a 10% chance to paralyze the target.");
    assert_eq!(
        bolt["creature"],
        json!([
            "pikachu",
            "raichu",
            "magnemite",
            "jolteon",
            "pichu",
            "raichu-alola"
        ])
    );
    let growl = get("/creature/moves?move=growl").await.json();
    assert_eq!(
        (growl["power"].clone(), growl["category"].clone()),
        (Value::Null, json!("status"))
    );
    let tera = get("/creature/moves?move=tera_blast").await.json();
    assert_eq!(
        (tera["contest"].clone(), tera["effects"].clone()),
        (Value::Null, Value::Null)
    );
}

#[actix_rt::test]
async fn move_miss_has_dym() {
    let r = get("/creature/moves?move=karate%20chp").await;
    let msg = r.assert_error(404);
    assert!(msg.contains("move") && msg.contains("karate chp"), "{msg}");
    let body = r.json();
    let dym = body["dym"].as_array().unwrap();
    assert!(!dym.is_empty() && dym.len() <= 5);
    assert_eq!(dym[0], json!({"move": "karate-chop", "certainty": "0.84"}));
    for d in dym {
        let c = d["certainty"].as_str().unwrap();
        assert_eq!(c.len(), 4, "two decimals: {c}");
        assert!(c.parse::<f64>().unwrap() >= reference_db::SUGGESTION_FLOOR);
    }
    let none = get("/creature/moves?move=xyzzy").await;
    none.assert_error(404);
    assert_eq!(none.json()["dym"], json!([]));
}

#[actix_rt::test]
async fn ability_record_and_miss() {
    let r = get("/creature/abilities?ability=static").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({
            "id": 9,
            "name": "static",
            "generation": 3,
            "effects": "Has a 30% chance of paralyzing attacking Pokémon on contact.",
            "description": "Paralyzes on contact.",
            "creatures": [
                {"creature": "pikachu", "hidden": false},
                {"creature": "raichu", "hidden": false},
                {"creature": "pichu", "hidden": false}
            ],
            "descriptions": [{"description": "Paralyzes on contact.", "version": "ruby-sapphire"}]
        })
    );
    let stench = get("/creature/abilities?ability=Stench").await.json();
    assert_eq!(
        stench["description"],
        "By releasing a stench when attacking, this Pokémon may cause the target to flinch."
    );
    let miss = get("/creature/abilities?ability=stenchh").await;
    miss.assert_error(404);
    assert_eq!(miss.json()["dym"][0]["ability"], "stench");
}

#[actix_rt::test]
async fn item_record_and_miss() {
    let r = get("/creature/items?item=master-ball").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({
            "id": 1,
            "name": "master-ball",
            "effects": "Catches a wild Pokémon every time.",
            "cost": 0,
            "attributes": ["countable", "consumable", "usable-in-battle", "holdable"],
            "category": "standard-balls",
            "sprite": "https://sprites.test/sprites/items/master-ball.png",
            "descriptions": [
                {"description": "The best BALL that catches a POKéMON without fail.", "version": "ruby-sapphire"},
                {"description": "The best Poké Ball with the ultimate level of performance. It will catch any wild Pokémon without fail.", "version": "black-white"},
                {"description": "The very best Poké Ball. It will catch any wild Pokémon without fail.", "version": "scarlet-violet"}
            ]
        })
    );
    assert_eq!(
        get("/creature/items?item=Pok%C3%A9%20Ball").await.json()["name"],
        "poke-ball"
    );
    let miss = get("/creature/items?item=master%20bal").await;
    miss.assert_error(404);
    assert_eq!(miss.json()["dym"][0]["item"], "master-ball");
}

#[actix_rt::test]
async fn missing_or_empty_parameter_is_400() {
    for (uri, param) in [
        ("/creature/dex", "id"),
        ("/creature/dex?id=", "id"),
        ("/creature/dex?id=%20", "id"),
        ("/creature/dex?name=pikachu", "id"),
        ("/creature/moves", "move"),
        ("/creature/moves?move=", "move"),
        ("/creature/abilities?ability=", "ability"),
        ("/creature/items", "item"),
    ] {
        let msg = get(uri).await.assert_error(400);
        assert!(msg.contains(&format!("`{param}`")), "{uri}: {msg}");
    }
}

#[actix_rt::test]
async fn hostile_queries_never_fail_badly() {
    let long = "a".repeat(5000);
    for uri in [
        format!("/creature/moves?move={long}"),
        format!("/creature/dex?id={long}"),
        "/creature/items?item=%E2%80%8B%F0%9F%90%89".to_owned(),
        "/creature/dex?id=-1".to_owned(),
        "/creature/dex?id=99999999999999999999".to_owned(),
        "/creature/abilities?ability=%27%22%3C%3E".to_owned(),
    ] {
        let r = get(&uri).await;
        assert_eq!(r.status, 404, "{}", &uri[..60.min(uri.len())]);
        assert!(r.body.len() < 1000, "the echo is bounded");
    }
}

#[actix_rt::test]
async fn without_data_every_creature_route_is_503() {
    let empty =
        std::env::temp_dir().join(format!("menagerie-creature-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    for uri in [
        "/creature/dex?id=1",
        "/creature/moves?move=pound",
        "/creature/abilities?ability=static",
        "/creature/items?item=potion",
    ] {
        let r = request_with(Settings::for_tests(&empty), Method::GET, uri).await;
        let msg = r.assert_error(503);
        assert!(msg.contains("not loaded"), "{msg}");
    }
}

#[actix_rt::test]
async fn a_dataset_of_another_version_stops_the_start() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("creature-old-format-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut bytes = reference_db::Dataset::default().to_bytes();
    let at = reference_db::dataset::MAGIC.len();
    bytes[at..at + 4].copy_from_slice(&(reference_db::FORMAT_VERSION + 1).to_le_bytes());
    std::fs::write(dir.join(reference_db::DATASET_FILE_NAME), bytes).unwrap();
    let err = server::AppState::load(Settings::for_tests(&dir)).unwrap_err();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(err.to_string().contains("format version"), "{err}");
}
