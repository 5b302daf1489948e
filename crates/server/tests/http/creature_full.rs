//! `/creature/*` over the full data: every record of every kind answered
//! through HTTP with exactly the spec's members and types, plus known
//! records. Runs when `MENAGERIE_FULL_DATA` names the built data dir
//! (`cargo xtask test` sets it); set but unusable → the test fails.

use std::collections::HashSet;
use std::path::PathBuf;

use actix_web::body::to_bytes;
use actix_web::test;
use reference_db::ReferenceDb;
use serde_json::{Value, json};
use server::{AppState, Settings, create_app};

fn full_data_dir() -> Option<PathBuf> {
    let dir = std::env::var_os("MENAGERIE_FULL_DATA").filter(|v| !v.is_empty());
    if dir.is_none() {
        eprintln!(
            "full-data HTTP checks not run: MENAGERIE_FULL_DATA is unset (`cargo xtask test` sets it)"
        );
    }
    dir.map(PathBuf::from)
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

fn is_numeric_text(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
}

fn strings(v: &Value) -> Vec<&str> {
    v.as_array()
        .expect("an array")
        .iter()
        .map(|x| x.as_str().expect("an array of strings"))
        .collect()
}

fn str_or_null(v: &Value) -> bool {
    v.is_null() || v.is_string()
}

fn u64_or_null(v: &Value) -> bool {
    v.is_null() || v.is_u64()
}

fn check_descriptions(v: &Value, what: &str) {
    for d in v
        .as_array()
        .unwrap_or_else(|| panic!("{what}: descriptions"))
    {
        assert_eq!(keys(d), ["description", "version"], "{what}");
        assert!(
            d["description"]
                .as_str()
                .is_some_and(|s| !s.is_empty() && !s.contains('\n')),
            "{what}"
        );
        assert!(d["version"].as_str().is_some(), "{what}");
    }
}

#[actix_rt::test]
async fn every_record_over_http() {
    let Some(dir) = full_data_dir() else { return };
    let db = ReferenceDb::load(&dir)
        .unwrap_or_else(|e| panic!("MENAGERIE_FULL_DATA={}: {e}", dir.display()));
    let state = AppState::load(Settings::for_tests(&dir)).expect("state loads over the full data");
    assert!(state.reference.is_some());
    let base = state.settings.sprite_base_url.clone();
    let app = test::init_service(create_app(state)).await;
    let get = |uri: String| {
        let req = test::TestRequest::get().uri(&uri).to_request();
        let app = &app;
        async move {
            let res = test::call_service(app, req).await;
            let status = res.status().as_u16();
            let body = to_bytes(res.into_body()).await.unwrap_or_default();
            let json: Value =
                serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{uri}: {e}"));
            assert_eq!(status, 200, "{uri}: {json}");
            json
        }
    };
    let slugs: HashSet<&str> = db.creatures().iter().map(|c| c.slug.as_str()).collect();

    for c in db.creatures() {
        let v = get(format!("/creature/dex?id={}", c.slug)).await;
        let what = &c.slug;
        assert_eq!(
            keys(&v),
            [
                "name",
                "id",
                "type",
                "species",
                "abilities",
                "height",
                "weight",
                "base_experience",
                "gender",
                "egg_groups",
                "stats",
                "family",
                "sprites",
                "description",
                "generation"
            ],
            "{what}"
        );
        assert_eq!(v["name"], c.slug.as_str());
        assert!(
            v["name"]
                .as_str()
                .unwrap()
                .chars()
                .all(|ch| !ch.is_uppercase()),
            "{what}"
        );
        assert!(
            is_numeric_text(&v["id"]) && v["id"].as_str().unwrap().len() >= 3,
            "{what}"
        );
        assert!(!strings(&v["type"]).is_empty(), "{what}");
        strings(&v["species"]);
        strings(&v["abilities"]);
        strings(&v["egg_groups"]);
        assert!(v["height"].as_str().unwrap().contains(" m ("), "{what}");
        assert!(v["weight"].as_str().unwrap().contains(" kg ("), "{what}");
        assert!(
            v["base_experience"].is_null() || is_numeric_text(&v["base_experience"]),
            "{what}"
        );
        let gender = strings(&v["gender"]);
        assert!(
            gender == ["Genderless"] || (gender.len() == 2 && gender[0].ends_with("% male")),
            "{what}"
        );
        assert_eq!(
            keys(&v["stats"]),
            [
                "hp", "attack", "defense", "sp_atk", "sp_def", "speed", "total"
            ],
            "{what}"
        );
        assert!(
            v["stats"]
                .as_object()
                .unwrap()
                .values()
                .all(is_numeric_text),
            "{what}"
        );
        assert_eq!(
            keys(&v["family"]),
            ["evolutionStage", "evolutionLine"],
            "{what}"
        );
        let stage = v["family"]["evolutionStage"].as_u64().unwrap();
        let line = strings(&v["family"]["evolutionLine"]);
        assert!(stage >= 1 && stage as usize <= line.len(), "{what}");
        let species_name = &db
            .lookup_creature(&c.species_id.to_string())
            .unwrap()
            .display_name;
        assert!(line.contains(&species_name.as_str()), "{what}: {line:?}");
        assert_eq!(keys(&v["sprites"]), ["normal", "animated"]);
        assert!(v["sprites"]["normal"].as_str().unwrap().starts_with(&base));
        assert!(
            v["sprites"]["animated"]
                .as_str()
                .unwrap()
                .starts_with(&base)
        );
        assert!(str_or_null(&v["description"]), "{what}");
        assert!(
            matches!(
                v["generation"].as_str(),
                Some("1" | "2" | "3" | "4" | "5" | "6" | "7" | "8" | "9")
            ),
            "{what}"
        );
    }

    for m in db.moves() {
        let v = get(format!("/creature/moves?move={}", m.slug)).await;
        let what = &m.slug;
        assert_eq!(
            keys(&v),
            [
                "id",
                "name",
                "generation",
                "effects",
                "type",
                "category",
                "contest",
                "pp",
                "power",
                "accuracy",
                "priority",
                "creature",
                "descriptions"
            ],
            "{what}"
        );
        assert!(
            v["id"].is_u64() && v["generation"].is_u64() && v["priority"].is_i64(),
            "{what}"
        );
        assert_eq!(v["name"], m.slug.as_str());
        assert!(v["type"].is_string(), "{what}");
        for k in ["effects", "category", "contest"] {
            assert!(str_or_null(&v[k]), "{what}.{k}");
        }
        for k in ["pp", "power", "accuracy"] {
            assert!(u64_or_null(&v[k]), "{what}.{k}");
        }
        assert!(
            strings(&v["creature"]).iter().all(|s| slugs.contains(s)),
            "{what}: every learner exists"
        );
        check_descriptions(&v["descriptions"], what);
    }

    for a in db.abilities() {
        let v = get(format!("/creature/abilities?ability={}", a.slug)).await;
        let what = &a.slug;
        assert_eq!(
            keys(&v),
            [
                "id",
                "name",
                "generation",
                "effects",
                "description",
                "creatures",
                "descriptions"
            ],
            "{what}"
        );
        assert!(v["id"].is_u64() && v["generation"].is_u64(), "{what}");
        assert!(
            str_or_null(&v["effects"]) && str_or_null(&v["description"]),
            "{what}"
        );
        for h in v["creatures"].as_array().unwrap() {
            assert_eq!(keys(h), ["creature", "hidden"]);
            assert!(
                slugs.contains(h["creature"].as_str().unwrap()) && h["hidden"].is_boolean(),
                "{what}"
            );
        }
        check_descriptions(&v["descriptions"], what);
    }

    for i in db.items() {
        let v = get(format!("/creature/items?item={}", i.slug)).await;
        let what = &i.slug;
        assert_eq!(
            keys(&v),
            [
                "id",
                "name",
                "effects",
                "cost",
                "attributes",
                "category",
                "sprite",
                "descriptions"
            ],
            "{what}"
        );
        assert!(v["id"].is_u64() && v["cost"].is_u64(), "{what}");
        assert!(str_or_null(&v["effects"]), "{what}");
        strings(&v["attributes"]);
        assert!(
            v["category"].is_string() && v["sprite"].as_str().unwrap().starts_with(&base),
            "{what}"
        );
        check_descriptions(&v["descriptions"], what);
    }

    // known records
    let bulbasaur = get("/creature/dex?id=001".into()).await;
    assert_eq!(
        bulbasaur,
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
                "normal": format!("{base}/pokemon/1.png"),
                "animated": format!("{base}/pokemon/versions/generation-v/black-white/animated/1.gif")
            },
            "description": "While it is young, it uses the nutrients that are stored in the seed on its back in order to grow.",
            "generation": "1"
        })
    );
    let pikachu = get("/creature/dex?id=Pikachu".into()).await;
    assert_eq!(
        pikachu["family"],
        json!({"evolutionStage": 2, "evolutionLine": ["Pichu", "Pikachu", "Raichu"]})
    );
    assert_eq!(pikachu["stats"]["total"], "320");
    let eevee = get("/creature/dex?id=133".into()).await;
    assert_eq!(
        eevee["family"]["evolutionLine"].as_array().unwrap().len(),
        9
    );
    let chop = get("/creature/moves?move=karate-chop".into()).await;
    assert_eq!(
        (
            &chop["id"],
            &chop["type"],
            &chop["category"],
            &chop["contest"],
            &chop["power"],
            &chop["pp"]
        ),
        (
            &json!(2),
            &json!("fighting"),
            &json!("physical"),
            &json!("tough"),
            &json!(50),
            &json!(25)
        )
    );
    assert_eq!(chop["creature"][0], "mankey");
    let stench = get("/creature/abilities?ability=stench".into()).await;
    assert_eq!(
        stench["creatures"][0],
        json!({"creature": "gloom", "hidden": true})
    );
    let ball = get("/creature/items?item=master-ball".into()).await;
    assert_eq!(ball["sprite"], format!("{base}/items/master-ball.png"));
    assert_eq!(ball["cost"], 0);
    // PokeAPI's second roseli-berry row (no names or text of its own) is
    // served by its id, named as the first; the name finds the first.
    let roseli = get("/creature/items?item=roseli-berry".into()).await;
    let repeat = get("/creature/items?item=2279".into()).await;
    assert_eq!((&roseli["id"], &repeat["id"]), (&json!(723), &json!(2279)));
    assert_eq!(repeat["name"], roseli["name"]);
    assert_eq!(repeat["sprite"], roseli["sprite"]);
}

/// Misspelt creatures users type get "did you mean" led by the one meant,
/// with the miss's status and message unchanged.
#[actix_rt::test]
async fn misspelt_creatures_get_dym_led_by_the_one_meant() {
    let Some(dir) = full_data_dir() else { return };
    let state = AppState::load(Settings::for_tests(&dir)).expect("state loads over the full data");
    let app = test::init_service(create_app(state)).await;
    for (query, meant) in [
        ("charzard", "charizard"),
        ("pikachuu", "pikachu"),
        ("bulbsaur", "bulbasaur"),
    ] {
        let req = test::TestRequest::get()
            .uri(&format!("/creature/dex?id={query}"))
            .to_request();
        let res = test::call_service(&app, req).await;
        assert_eq!(res.status().as_u16(), 404, "{query}");
        let body: Value =
            serde_json::from_slice(&to_bytes(res.into_body()).await.unwrap_or_default()).unwrap();
        assert_eq!(
            body["error"],
            json!(format!("creature not found: {query:?}")),
            "{body}"
        );
        assert_eq!(body["dym"][0]["creature"], meant, "{query}: {body}");
    }
}
