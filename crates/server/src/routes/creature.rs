//! The creature reference: `/creature/dex`, `/creature/moves`,
//! `/creature/abilities`, `/creature/items`.
//!
//! Each handler takes its one query parameter and asks the reference engine
//! ([`crate::engine::reference`]) for the answer: the record's JSON body in
//! the spec's shape, serialised once, and its entity tag. Misses become
//! [`ApiError::Lookup`] (404, with `dym`, "did you mean", on every miss);
//! without a loaded dataset every route answers 503
//! ([`ApiError::ReferenceDataMissing`]).

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, web};
use reference_db::LookupError;
use serde::Deserialize;

use super::required;
use crate::engine::AppState;
use crate::engine::reference::{Answer, Reference};
use crate::error::ApiError;

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

static CACHEABLE: HeaderValue = HeaderValue::from_static("public, max-age=86400");
static JSON: HeaderValue = HeaderValue::from_static("application/json");

/// Looks `query` up with `find` and answers 200 with the record's JSON body;
/// the body depends only on the URL and the dataset, so it is cacheable and
/// carries its entity tag.
fn answer(
    state: &AppState,
    query: &str,
    find: impl FnOnce(&Reference, &str) -> Result<Answer, LookupError>,
) -> Result<HttpResponse, ApiError> {
    let reference = state
        .reference
        .as_deref()
        .ok_or(ApiError::ReferenceDataMissing)?;
    let Answer { body, etag } = find(reference, query)?;
    let mut res = HttpResponse::with_body(StatusCode::OK, body);
    let h = res.headers_mut();
    h.append(header::CACHE_CONTROL, CACHEABLE.clone());
    h.append(header::CONTENT_TYPE, JSON.clone());
    if let Ok(tag) = HeaderValue::from_maybe_shared(etag) {
        h.append(header::ETAG, tag);
    }
    Ok(res.map_into_boxed_body())
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
    answer(&state, query, Reference::dex)
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
    answer(&state, query, Reference::move_)
}

async fn abilities(
    state: web::Data<AppState>,
    q: web::Query<AbilityQuery>,
) -> Result<HttpResponse, ApiError> {
    let query = required(&q.ability, "ability", "an ability name (stench) or id")?;
    answer(&state, query, Reference::ability)
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
    answer(&state, query, Reference::item)
}
