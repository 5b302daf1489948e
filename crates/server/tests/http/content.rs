//! `/animu`, `/animal`, `/facts`, `/img` and `/media`, over the fixture pack
//! (`fixtures/content`, loaded as the generated pack), the embedded pack and
//! a media dir made by the test.

use std::path::Path;

use actix_web::http::Method;
use content::{AnimalType, AnimuType, FactType, ImgType, LinkSlot};
use serde_json::{Value, json};
use server::{AppState, Settings};

use crate::support::{Reply, fixtures, request_with};

/// Settings whose data dir holds the fixture pack as `content/`.
fn fixture_settings() -> Settings {
    Settings::for_tests(fixtures())
}

async fn get(uri: &str) -> Reply {
    request_with(fixture_settings(), Method::GET, uri).await
}

fn fixture_pack() -> content::ContentPack {
    AppState::load(fixture_settings())
        .unwrap()
        .content
        .pack
        .clone()
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

#[actix_rt::test]
async fn listings_are_exact() {
    let r = get("/animu").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        json!({"types": ["/animu/nom", "/animu/poke", "/animu/cry", "/animu/kiss", "/animu/pat", "/animu/hug",
                         "/animu/wink", "/animu/face-palm"]})
    );
    assert_eq!(r.header("content-type"), Some("application/json"));
    assert_eq!(r.header("cache-control"), Some("public, max-age=86400"));
    assert_eq!(
        get("/animal").await.json(),
        json!({"endpoints": ["/animal/fox", "/animal/cat", "/animal/birb", "/animal/panda", "/animal/red_panda",
                             "/animal/racoon", "/animal/koala", "/animal/kangaroo", "/animal/whale", "/animal/dog",
                             "/animal/bird"]})
    );
    assert_eq!(
        get("/facts").await.json(),
        json!({"endpoints": ["/facts/cat", "/facts/fox", "/facts/birb", "/facts/panda", "/facts/koala",
                             "/facts/kangaroo", "/facts/racoon", "/facts/giraffe", "/facts/whale",
                             "/facts/elephant", "/facts/dog", "/facts/bird", "/facts/red_panda"]})
    );
    assert_eq!(
        get("/img").await.json(),
        json!({"endpoints": ["/img/fox", "/img/cat", "/img/birb", "/img/panda", "/img/red_panda",
                             "/img/mouse_creature", "/img/racoon", "/img/koala", "/img/kangaroo", "/img/whale",
                             "/img/dog", "/img/bird"]})
    );
}

fn assert_random(r: &Reply, uri: &str) -> Value {
    assert_eq!(r.status, 200, "{uri}: {}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("content-type"), Some("application/json"), "{uri}");
    assert_eq!(r.header("cache-control"), Some("no-store"), "{uri}");
    r.json()
}

#[actix_rt::test]
async fn every_type_answers_the_right_shape() {
    let pack = fixture_pack();
    let has = |list: &[Box<str>], v: &Value| list.iter().any(|e| Some(&**e) == v.as_str());
    for &t in AnimuType::ALL {
        let uri = format!("/animu/{t}");
        let v = assert_random(&get(&uri).await, &uri);
        assert_eq!(keys(&v), ["link", "type"], "{uri}");
        assert_eq!(v["type"], t.as_str());
        assert!(
            has(pack.links(LinkSlot::Animu(t)), &v["link"]),
            "{uri}: {v}"
        );
    }
    for &t in AnimalType::ALL {
        let uri = format!("/animal/{t}");
        let v = assert_random(&get(&uri).await, &uri);
        assert_eq!(keys(&v), ["image", "fact"], "{uri}");
        assert!(
            has(pack.links(LinkSlot::Animal(t)), &v["image"]),
            "{uri}: {v}"
        );
        assert!(has(pack.facts(t.fact_type()), &v["fact"]), "{uri}: {v}");
    }
    for &t in FactType::ALL {
        let uri = format!("/facts/{t}");
        let v = assert_random(&get(&uri).await, &uri);
        assert_eq!(keys(&v), ["fact"], "{uri}");
        assert!(has(pack.facts(t), &v["fact"]), "{uri}: {v}");
    }
    for &t in ImgType::ALL {
        let uri = format!("/img/{t}");
        let v = assert_random(&get(&uri).await, &uri);
        assert_eq!(keys(&v), ["link"], "{uri}");
        assert!(has(pack.links(LinkSlot::Img(t)), &v["link"]), "{uri}: {v}");
    }
}

/// Clients call `raccoon`: it answers as `racoon` in the three groups that
/// have it, while the listings keep the specification's names only.
#[actix_rt::test]
async fn raccoon_answers_as_an_alias_of_racoon() {
    let pack = fixture_pack();
    let has = |list: &[Box<str>], v: &Value| list.iter().any(|e| Some(&**e) == v.as_str());
    let v = assert_random(&get("/animal/raccoon").await, "/animal/raccoon");
    assert_eq!(keys(&v), ["image", "fact"]);
    assert!(
        has(
            pack.links(LinkSlot::Animal(AnimalType::Racoon)),
            &v["image"]
        ),
        "{v}"
    );
    assert!(has(pack.facts(FactType::Racoon), &v["fact"]), "{v}");
    let v = assert_random(&get("/facts/raccoon").await, "/facts/raccoon");
    assert_eq!(keys(&v), ["fact"]);
    assert!(has(pack.facts(FactType::Racoon), &v["fact"]), "{v}");
    let v = assert_random(&get("/img/raccoon").await, "/img/raccoon");
    assert_eq!(keys(&v), ["link"]);
    assert!(
        has(pack.links(LinkSlot::Img(ImgType::Racoon)), &v["link"]),
        "{v}"
    );
    // HEAD answers too, and the alias is no gif type.
    let head = request_with(fixture_settings(), Method::HEAD, "/facts/raccoon").await;
    assert_eq!(head.status, 200);
    get("/animu/raccoon").await.assert_error(404);
    // The listings name only `racoon`.
    for listing in ["/animal", "/facts", "/img"] {
        let body = String::from_utf8(get(listing).await.body.to_vec()).unwrap();
        assert!(body.contains("/racoon\""), "{listing}: {body}");
        assert!(!body.contains("raccoon"), "{listing}: {body}");
    }
}

#[actix_rt::test]
async fn quote_has_the_spec_fields_with_an_integer_id() {
    let r = get("/animu/quote").await;
    let v = assert_random(&r, "/animu/quote");
    assert_eq!(keys(&v), ["quote", "anime", "id", "name"]);
    let id = v["id"].as_u64().expect("id is an integer");
    let pack = fixture_pack();
    let q = pack
        .quotes()
        .iter()
        .find(|q| u64::from(q.id()) == id)
        .expect("a fixture quote");
    assert_eq!(
        v,
        json!({"quote": q.quote(), "anime": q.anime(), "id": id, "name": q.name()})
    );
}

#[actix_rt::test]
async fn unknown_types_are_404_naming_the_valid_ones() {
    let cases = [
        (
            "/animu/dance",
            "nom, poke, cry, kiss, pat, hug, wink, face-palm",
        ),
        (
            "/animal/giraffe",
            "fox, cat, birb, panda, red_panda, racoon, koala, kangaroo, whale, dog, bird",
        ),
        (
            "/facts/mouse_creature",
            "cat, fox, birb, panda, koala, kangaroo, racoon, giraffe, whale, elephant, dog",
        ),
        (
            "/img/elephant",
            "fox, cat, birb, panda, red_panda, mouse_creature, racoon",
        ),
        ("/facts/CAT", "cat, fox"),
        ("/img/..%2F..%2Fetc%2Fpasswd", "fox, cat"),
        ("/facts/%2e%2e", "cat, fox"),
    ];
    for (uri, valid) in cases {
        let r = get(uri).await;
        let msg = r.assert_error(404);
        assert!(msg.contains(valid), "{uri}: {msg}");
        assert_eq!(r.header("cache-control"), Some("no-store"), "{uri}");
    }
    let long = format!("/img/{}", "x".repeat(5000));
    let msg = get(&long).await.assert_error(404);
    assert!(msg.len() < 400, "{}", msg.len());
    // Neighbouring paths are unknown endpoints, not types.
    for uri in ["/facts/cat/extra", "/img/", "/animu/quote/1"] {
        get(uri).await.assert_error(404);
    }
}

#[actix_rt::test]
async fn other_methods_are_405() {
    for uri in [
        "/facts/cat",
        "/animu",
        "/animu/quote",
        "/media/img/cat/a.png",
    ] {
        let r = request_with(fixture_settings(), Method::POST, uri).await;
        r.assert_error(405);
    }
}

#[actix_rt::test]
async fn without_a_generated_pack_the_embedded_one_answers() {
    let empty = tempfile::tempdir().unwrap();
    let state = AppState::load(Settings::for_tests(empty.path())).unwrap();
    assert_eq!(state.content.pack.origin(), &content::PackOrigin::Embedded);
    let r = request_with(
        Settings::for_tests(empty.path()),
        Method::GET,
        "/animu/quote",
    )
    .await;
    let id = assert_random(&r, "/animu/quote")["id"].as_u64().unwrap();
    assert!((1..=13_438).contains(&id), "{id}");
    let r = request_with(
        Settings::for_tests(empty.path()),
        Method::GET,
        "/img/mouse_creature",
    )
    .await;
    assert!(
        assert_random(&r, "/img/mouse_creature")["link"]
            .as_str()
            .unwrap()
            .starts_with("https://")
    );
}

#[actix_rt::test]
async fn a_broken_generated_pack_stops_the_start() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("content")).unwrap();
    let err = AppState::load(Settings::for_tests(dir.path()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("content pack") && err.contains("`facts/cat.txt` is missing"),
        "{err}"
    );
}

fn media_dir() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let put = |rel: &str, bytes: &[u8]| {
        let p = dir.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    };
    put("img/cat/our-cat.png", b"\x89PNG fake");
    put("img/cat/notes.txt", b"secret");
    put("animu/face-palm/fp.gif", b"GIF89a fake");
    put("secret.png", b"secret");
    dir
}

fn media_settings(dir: &Path) -> Settings {
    let mut s = fixture_settings();
    s.media_dir = Some(dir.to_owned());
    s.public_url = Some("https://menagerie.example.org/".to_owned());
    s
}

#[actix_rt::test]
async fn media_files_are_served_and_linked() {
    let dir = media_dir();
    let state = AppState::load(media_settings(dir.path())).unwrap();
    let links = state.content.pack.links(LinkSlot::Img(ImgType::Cat));
    assert_eq!(
        &*links[links.len() - 1],
        "https://menagerie.example.org/media/img/cat/our-cat.png"
    );
    assert!(
        state
            .content
            .pack
            .links(LinkSlot::Animu(AnimuType::FacePalm))
            .iter()
            .any(|l| l.ends_with("/fp.gif"))
    );

    let r = request_with(
        media_settings(dir.path()),
        Method::GET,
        "/media/img/cat/our-cat.png",
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body, b"\x89PNG fake");
    assert_eq!(r.header("content-type"), Some("image/png"));
    assert_eq!(r.header("x-content-type-options"), Some("nosniff"));
    let r = request_with(
        media_settings(dir.path()),
        Method::GET,
        "/media/animu/face-palm/fp.gif",
    )
    .await;
    assert_eq!(r.header("content-type"), Some("image/gif"));
}

#[actix_rt::test]
async fn media_requests_reach_only_listed_files() {
    let dir = media_dir();
    for uri in [
        "/media/img/cat/notes.txt",
        "/media/img/cat/..%2F..%2Fsecret.png",
        "/media/img/cat/%2e%2e%2fsecret.png",
        "/media/img/cat/OUR-CAT.PNG",
        "/media/img/dog/our-cat.png",
        "/media/img/unicorn/our-cat.png",
        "/media/facts/cat/our-cat.png",
        "/media/animal/cat/our-cat.png",
        "/media/img/cat/secret.png",
    ] {
        let r = request_with(media_settings(dir.path()), Method::GET, uri).await;
        let msg = r.assert_error(404);
        assert!(
            !msg.contains(&dir.path().display().to_string()),
            "{uri} leaks the path: {msg}"
        );
    }
    for uri in [
        "/media/img/cat/../../secret.png",
        "/media/secret.png",
        "/media/img/cat",
    ] {
        request_with(media_settings(dir.path()), Method::GET, uri)
            .await
            .assert_error(404);
    }
    // Without --media-dir nothing is served.
    get("/media/img/cat/our-cat.png").await.assert_error(404);
}

#[actix_rt::test]
async fn media_dir_needs_a_public_url() {
    let dir = media_dir();
    let mut s = media_settings(dir.path());
    s.public_url = None;
    let err = AppState::load(s).unwrap_err().to_string();
    assert!(err.contains("--public-url"), "{err}");
    let mut s = media_settings(dir.path());
    s.public_url = Some("ftp://x.example.org".to_owned());
    assert!(
        AppState::load(s)
            .unwrap_err()
            .to_string()
            .contains("not usable for media links")
    );
}
