//! The OpenAPI document: well-formed, complete, and true to behaviour.
//!
//! Drift between the route table and the document fails here:
//! * a route registered through `routes::get` with no catalogue entry;
//! * a documented endpoint whose example call answers a status, media type
//!   or JSON shape the document does not describe.

use actix_web::test::init_service;
use serde_json::Value;
use server::openapi::{self, catalogue};
use server::{create_app, routes};

use crate::support::{get, req, send, settings, state};

async fn doc() -> Value {
    let r = get("/openapi.json").await;
    assert_eq!(r.status, 200);
    r.json()
}

#[actix_rt::test]
async fn document_is_openapi_3_1_and_parses_with_utoipa() {
    let d = doc().await;
    assert_eq!(d["openapi"], "3.1.0");
    // Pinpoint the part that does not fit utoipa's model, if any.
    for (p, item) in d["paths"].as_object().unwrap() {
        if let Err(e) = serde_json::from_value::<utoipa::openapi::PathItem>(item.clone()) {
            panic!("path {p}: {e}");
        }
    }
    for (n, s) in d["components"]["schemas"].as_object().unwrap() {
        if let Err(e) = serde_json::from_value::<
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        >(s.clone())
        {
            panic!("schema {n}: {e}");
        }
    }
    for (n, s) in d["components"]["responses"].as_object().unwrap() {
        if let Err(e) = serde_json::from_value::<utoipa::openapi::response::Response>(s.clone()) {
            panic!("response {n}: {e}");
        }
    }
    let typed: utoipa::openapi::OpenApi =
        serde_json::from_value(d.clone()).expect("the document matches utoipa's OpenAPI model");
    assert!(!typed.paths.paths.is_empty());
    // Every $ref points at something.
    let mut refs = Vec::new();
    collect_refs(&d, &mut refs);
    for r in refs {
        assert!(resolve(&d, &r).is_some(), "dangling $ref {r}");
    }
}

#[actix_rt::test]
async fn every_registered_route_is_documented() {
    // Building the app registers every route.
    let _app = init_service(create_app(state(settings()))).await;
    let registered = routes::registered();
    assert!(registered.iter().any(|r| r == "/canvas/rgb"));
    let missing: Vec<_> = registered
        .iter()
        .filter(|r| !catalogue::ENDPOINTS.iter().any(|e| openapi::serves(r, e)))
        .collect();
    assert!(
        missing.is_empty(),
        "routes without an entry in openapi/catalogue.rs: {missing:?}"
    );
}

#[actix_rt::test]
async fn the_document_lists_exactly_the_served_endpoints() {
    let d = doc().await;
    let registered = routes::registered();
    let mut want: Vec<&str> = openapi::served(&registered).map(|e| e.path).collect();
    let mut have: Vec<&str> = d["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    want.sort_unstable();
    have.sort_unstable();
    assert_eq!(have, want);
    for must in [
        "/canvas/hex",
        "/canvas/rgb",
        "/canvas/colorviewer",
        "/health",
        "/metrics",
        "/openapi.json",
        "/",
    ] {
        assert!(have.contains(&must), "{must}");
    }
}

/// The spec's endpoints, written out independently of the catalogue.
#[test]
fn the_catalogue_covers_the_whole_spec() {
    let misc = "bisexual circle heart horny its-so-stupid lesbian lgbt lied lolice namecard \
                nobitches nonbinary sage sage2 pansexual simpcard series transgender post video-comment";
    let filters = "blue blurple blurple2 blur pixelate brightness color green greyscale invert \
                   invertgreyscale red sepia threshold";
    let mut spec: Vec<String> = Vec::new();
    spec.extend(misc.split_whitespace().map(|n| format!("/canvas/misc/{n}")));
    spec.extend(
        filters
            .split_whitespace()
            .map(|n| format!("/canvas/filter/{n}")),
    );
    for p in [
        "/canvas/colorviewer",
        "/canvas/hex",
        "/canvas/rgb",
        "/animu",
        "/animu/{type}",
        "/animu/quote",
        "/creature/dex",
        "/creature/moves",
        "/creature/abilities",
        "/creature/items",
        "/animal",
        "/animal/{type}",
        "/facts",
        "/facts/{type}",
        "/img",
        "/img/{type}",
    ] {
        spec.push(p.to_owned());
    }
    for p in &spec {
        assert!(
            catalogue::ENDPOINTS.iter().any(|e| e.path == p),
            "{p} is not in the catalogue"
        );
    }
    // Every parameter but the output's, the catalogue's own and the
    // templates' alike.
    let params = |path: &str| -> Vec<&str> {
        openapi::params::parameters(
            catalogue::ENDPOINTS
                .iter()
                .find(|e| e.path == path)
                .unwrap(),
        )
        .iter()
        .map(|p| p.name)
        .filter(|n| !matches!(*n, "format" | "quality"))
        .collect()
    };
    assert_eq!(
        params("/canvas/misc/namecard"),
        ["avatar", "username", "birthday", "description"]
    );
    assert_eq!(params("/canvas/misc/nobitches"), ["no", "bottomtext"]);
    assert_eq!(
        params("/canvas/misc/post"),
        [
            "avatar",
            "username",
            "displayname",
            "comment",
            "theme",
            "replies",
            "likes",
            "retweets"
        ]
    );
    assert_eq!(params("/premium/petpet"), ["avatar", "delay"]);
    assert_eq!(
        params("/premium/amongus"),
        ["avatar", "username", "impostor", "custom"]
    );
    assert_eq!(params("/canvas/filter/color"), ["avatar", "color"]);
    assert_eq!(params("/creature/moves"), ["move"]);
    assert_eq!(catalogue::ANIMU_TYPES.len(), 8);
    assert_eq!(catalogue::ANIMAL_TYPES.len(), 11);
    assert_eq!(catalogue::FACT_TYPES.len(), 13);
    assert_eq!(catalogue::IMG_TYPES.len(), 12);
}

/// A data dir with the creature dataset built from `fixtures/pokeapi`.
/// The numeric filter parameters are documented with canvas-render's ranges
/// and defaults (brightness 0–100, threshold 0–255).
#[actix_rt::test]
async fn numeric_filter_parameters_state_their_range_and_default() {
    use canvas_render::{Brightness, Threshold};
    let d = doc().await;
    let cases = [
        (
            "brightness",
            Brightness::MIN,
            Brightness::MAX,
            Brightness::DEFAULT.level(),
        ),
        (
            "threshold",
            Threshold::MIN,
            Threshold::MAX,
            Threshold::DEFAULT.level(),
        ),
    ];
    for (name, min, max, default) in cases {
        let op = &d["paths"][format!("/canvas/filter/{name}")]["get"];
        let param = op["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| resolve_ref(&d, p))
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} is documented"));
        let schema = &param["schema"];
        // A number, or a blank value that means the default.
        let number = &schema["anyOf"][0];
        assert_eq!(number["type"], "number", "{name}");
        assert_eq!(schema["anyOf"][1]["pattern"], "^\\s*$", "{name}");
        assert_eq!(number["minimum"].as_f64(), Some(f64::from(min)), "{name}");
        assert_eq!(number["maximum"].as_f64(), Some(f64::from(max)), "{name}");
        assert_eq!(
            schema["default"].as_f64(),
            Some(f64::from(default)),
            "{name}"
        );
    }
    assert_eq!(
        Brightness::MAX,
        100.0,
        "clients send brightness on a 0–100 scale"
    );
}

fn creature_fixture_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-openapi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let dataset = reference_db::build::build_dataset(
        &crate::support::fixtures().join("pokeapi"),
        &mut |_| {},
    )
    .unwrap();
    std::fs::write(
        dir.join(reference_db::DATASET_FILE_NAME),
        dataset.to_bytes(),
    )
    .unwrap();
    dir
}

#[actix_rt::test]
async fn every_documented_endpoint_answers_as_documented() {
    // Over the fixtures (no creature data: 503s), over the creature
    // fixture dataset, and over the full data when it is built.
    conforms(settings()).await;
    conforms(server::Settings::for_tests(creature_fixture_dir())).await;
    match std::env::var_os("MENAGERIE_FULL_DATA").filter(|v| !v.is_empty()) {
        Some(full) => conforms(server::Settings::for_tests(full)).await,
        None => eprintln!(
            "OpenAPI conformance over the full data not run: MENAGERIE_FULL_DATA is unset"
        ),
    }
}

async fn conforms(settings: server::Settings) {
    let d = doc().await;
    let app = init_service(create_app(state(settings))).await;
    let mut checked = 0;
    for (path, item) in d["paths"].as_object().unwrap() {
        let op = &item["get"];
        let params = op["parameters"].as_array().unwrap();
        // Avatar endpoints would need a remote host: check the documented
        // 400 for a missing avatar instead of calling them for real.
        let needs_avatar = params.iter().any(|p| p["name"] == "avatar");
        let mut uri = path.clone();
        let mut query = Vec::new();
        for p in params {
            let name = p["name"].as_str().unwrap();
            let ex = match &p["example"] {
                Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            if p["in"] == "path" {
                uri = uri.replace(&format!("{{{name}}}"), &ex);
            } else if !(needs_avatar && name == "avatar") {
                query.push(format!("{name}={}", encode(&ex)));
            }
        }
        if !query.is_empty() {
            uri = format!("{uri}?{}", query.join("&"));
        }
        let r = send(&app, req(&uri)).await;
        let status = r.status.as_u16().to_string();
        let response = op["responses"]
            .get(&status)
            .unwrap_or_else(|| panic!("{uri}: status {status} is not documented"));
        let response = resolve_ref(&d, response);
        let ctype = r.header("content-type").unwrap_or("").to_owned();
        let media = response["content"]
            .as_object()
            .unwrap_or_else(|| panic!("{uri}: {status} documents no content"))
            .iter()
            .find(|(m, _)| media_matches(m, &ctype))
            .unwrap_or_else(|| panic!("{uri}: {status} {ctype} is not documented"))
            .1;
        if ctype.starts_with("application/json") {
            let schema = resolve_ref(&d, &media["schema"]);
            let mut errs = Vec::new();
            validate(&d, &r.json(), schema, "$", &mut errs);
            assert!(
                errs.is_empty(),
                "{uri}: body does not match its schema: {errs:?}"
            );
            if let Some(ex) = media.get("example") {
                let mut errs = Vec::new();
                validate(&d, ex, schema, "example", &mut errs);
                assert!(errs.is_empty(), "{path}: example does not match: {errs:?}");
            }
        }
        // Every required query parameter, left out, gives a documented 400.
        for p in params
            .iter()
            .filter(|p| p["in"] == "query" && p["required"] == true)
        {
            let name = p["name"].as_str().unwrap();
            let without: Vec<_> = query
                .iter()
                .filter(|q| !q.starts_with(&format!("{name}=")))
                .cloned()
                .collect();
            let base = uri.split('?').next().unwrap();
            let u = if without.is_empty() {
                base.to_owned()
            } else {
                format!("{base}?{}", without.join("&"))
            };
            let r = send(&app, req(&u)).await;
            let st = r.status.as_u16().to_string();
            assert!(
                op["responses"].get(&st).is_some(),
                "{u}: {st} without `{name}` is not documented"
            );
            if st != "200" {
                r.assert_error(r.status.as_u16());
            }
        }
        checked += 1;
    }
    assert!(checked >= 7, "checked {checked} endpoints");
}

fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~,".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn media_matches(documented: &str, actual: &str) -> bool {
    let actual = actual.split(';').next().unwrap_or("").trim();
    documented == actual
        || documented
            .strip_suffix("/*")
            .is_some_and(|p| actual.starts_with(&format!("{p}/")))
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(r)) = m.get("$ref") {
                out.push(r.clone());
            }
            m.values().for_each(|x| collect_refs(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_refs(x, out)),
        _ => {}
    }
}

fn resolve<'a>(d: &'a Value, r: &str) -> Option<&'a Value> {
    d.pointer(r.strip_prefix('#')?)
}

fn resolve_ref<'a>(d: &'a Value, v: &'a Value) -> &'a Value {
    match v.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(d, r).unwrap_or_else(|| panic!("dangling {r}")),
        None => v,
    }
}

/// A small JSON Schema check: type (with nullable unions), required,
/// properties, additionalProperties: false, items, enum, min/max, maxItems.
fn validate(d: &Value, v: &Value, schema: &Value, at: &str, errs: &mut Vec<String>) {
    let schema = resolve_ref(d, schema);
    if let Some(t) = schema.get("type") {
        let types: Vec<&str> = match t {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let ok = types.iter().any(|t| match *t {
            "string" => v.is_string(),
            "integer" => v.is_i64() || v.is_u64(),
            "number" => v.is_number(),
            "boolean" => v.is_boolean(),
            "array" => v.is_array(),
            "object" => v.is_object(),
            "null" => v.is_null(),
            _ => false,
        });
        if !ok {
            errs.push(format!("{at}: {v} is not {types:?}"));
            return;
        }
    }
    if let (Some(e), false) = (schema.get("enum").and_then(Value::as_array), v.is_null())
        && !e.contains(v)
    {
        errs.push(format!("{at}: {v} not in enum"));
    }
    if let Some(n) = v.as_f64() {
        if schema
            .get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m)
        {
            errs.push(format!("{at}: {n} below minimum"));
        }
        if schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m)
        {
            errs.push(format!("{at}: {n} above maximum"));
        }
    }
    if let Value::Object(obj) = v {
        let props = schema.get("properties").and_then(Value::as_object);
        for r in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let r = r.as_str().unwrap();
            if !obj.contains_key(r) {
                errs.push(format!("{at}: missing required `{r}`"));
            }
        }
        for (k, x) in obj {
            match props.and_then(|p| p.get(k)) {
                Some(s) => validate(d, x, s, &format!("{at}.{k}"), errs),
                None if schema.get("additionalProperties") == Some(&Value::Bool(false)) => {
                    errs.push(format!("{at}: undocumented member `{k}`"))
                }
                None => {}
            }
        }
    }
    if let Value::Array(a) = v {
        if let Some(max) = schema.get("maxItems").and_then(Value::as_u64)
            && a.len() as u64 > max
        {
            errs.push(format!("{at}: more than {max} items"));
        }
        if let Some(items) = schema.get("items") {
            for (i, x) in a.iter().enumerate() {
                validate(d, x, items, &format!("{at}[{i}]"), errs);
            }
        }
    }
}
