//! The content groups: `/animu`, `/animal`, `/facts`, `/img`, and the
//! operator's self-hosted files under `/media`.
//!
//! Every `:type` segment is parsed into its `content` enum first; an unknown
//! one is a 404 naming the valid types. Random answers carry
//! `Cache-Control: no-store`; listings and media files are cacheable.

use std::sync::{Arc, LazyLock};

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, web};
use content::{AnimalType, AnimuType, FactType, Group, ImgType, LinkSlot};
use serde::Serialize;

use crate::engine::AppState;
use crate::engine::content::to_json;
use crate::error::ApiError;

/// Registers the content routes, one scope per group (`/animu/quote`
/// before `/animu/{type}`).
pub fn configure(cfg: &mut web::ServiceConfig) {
    use super::group;
    cfg.service(
        group("/animu")
            .get("/animu", animu_listing)
            .get("/animu/quote", animu_quote)
            .get("/animu/{type}", animu_link),
    )
    .service(
        group("/animal")
            .get("/animal", animal_listing)
            .get("/animal/{type}", animal),
    )
    .service(fact_routes())
    .service(
        group("/img")
            .get("/img", img_listing)
            .get("/img/{type}", img),
    )
    .service(group("/media").get("/media/{group}/{type}/{file}", media));
}

/// `/facts`, then one static route per fact type and per alias
/// (`/facts/raccoon`; a string comparison where `{type}` costs a regex match
/// and a path-segment extraction), all labelled `/facts/{type}`; the
/// `{type}` pattern last answers the unknown types (404 naming the valid
/// ones).
fn fact_routes() -> super::Group {
    let mut facts = super::group("/facts").get("/facts", facts_listing);
    let names = FactType::ALL.iter().map(|&t| (t.as_str(), t));
    for (name, t) in names.chain(FactType::ALIASES.iter().copied()) {
        facts = facts.get_static(
            &format!("/facts/{name}"),
            "/facts/{type}",
            move |state: web::Data<AppState>| async move { fact_of(&state, t) },
        );
    }
    facts.get("/facts/{type}", fact)
}

/// Body of `/animu`.
#[derive(Debug, Serialize)]
pub struct TypesListing {
    /// `/animu/<type>` for every gif type.
    pub types: Vec<String>,
}

/// Body of `/animal`, `/facts` and `/img`.
#[derive(Debug, Serialize)]
pub struct EndpointsListing {
    /// `/<group>/<type>` for every type of the group, specification order.
    pub endpoints: Vec<String>,
}

/// Body of `/animu/:type`.
#[derive(Debug, Serialize)]
pub struct AnimuBody<'a> {
    /// URL of a gif.
    pub link: &'a str,
    /// The requested type.
    #[serde(rename = "type")]
    pub kind: &'static str,
}

/// Body of `/animu/quote`.
#[derive(Debug, Serialize)]
pub struct QuoteBody<'a> {
    /// The quote.
    pub quote: &'a str,
    /// The anime's title.
    pub anime: &'a str,
    /// The quote's id.
    pub id: u32,
    /// The speaker.
    pub name: &'a str,
}

/// Body of `/animal/:type`.
#[derive(Debug, Serialize)]
pub struct AnimalBody<'a> {
    /// URL of a picture.
    pub image: &'a str,
    /// A fact about the animal.
    pub fact: &'a str,
}

/// Body of `/img/:type`.
#[derive(Debug, Serialize)]
pub struct LinkBody<'a> {
    /// URL of a picture.
    pub link: &'a str,
}

fn paths(group: Group, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|t| format!("/{}/{t}", group.as_str()))
        .collect()
}

static ANIMU_LISTING: LazyLock<String> = LazyLock::new(|| {
    to_json(&TypesListing {
        types: paths(Group::Animu, AnimuType::NAMES),
    })
});
static ANIMAL_LISTING: LazyLock<String> = LazyLock::new(|| {
    to_json(&EndpointsListing {
        endpoints: paths(Group::Animal, AnimalType::NAMES),
    })
});
static FACTS_LISTING: LazyLock<String> = LazyLock::new(|| {
    to_json(&EndpointsListing {
        endpoints: paths(Group::Facts, FactType::NAMES),
    })
});
static IMG_LISTING: LazyLock<String> = LazyLock::new(|| {
    to_json(&EndpointsListing {
        endpoints: paths(Group::Img, ImgType::NAMES),
    })
});

/// A listing: fixed JSON, cacheable.
fn listing(body: &'static str) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header((
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=86400"),
        ))
        .content_type("application/json")
        .body(body)
}

static NO_STORE: HeaderValue = HeaderValue::from_static("no-store");
static JSON: HeaderValue = HeaderValue::from_static("application/json");

/// A random answer: `body` as JSON, never cached. Equal to
/// `HttpResponse::Ok().insert_header(no-store).json(body)`, minus its
/// run-time header checks and buffer regrowth: static header values and one
/// buffer sized for `body`'s strings (`text_len`) plus a little syntax.
fn random<T: Serialize>(body: &T, text_len: usize) -> HttpResponse {
    let mut buf = Vec::with_capacity(text_len + 64);
    if let Err(e) = serde_json::to_writer(&mut buf, body) {
        return HttpResponse::from_error(actix_web::error::JsonPayloadError::Serialize(e));
    }
    let mut res = HttpResponse::Ok();
    res.insert_header((header::CACHE_CONTROL, NO_STORE.clone()))
        .insert_header((header::CONTENT_TYPE, JSON.clone()));
    res.body(buf)
}

async fn animu_listing() -> HttpResponse {
    listing(&ANIMU_LISTING)
}

async fn animal_listing() -> HttpResponse {
    listing(&ANIMAL_LISTING)
}

async fn facts_listing() -> HttpResponse {
    listing(&FACTS_LISTING)
}

async fn img_listing() -> HttpResponse {
    listing(&IMG_LISTING)
}

async fn animu_link(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let t = AnimuType::parse(&path)?;
    let link = state.content.pack.random_animu(t, &mut rand::rng());
    Ok(random(
        &AnimuBody {
            link,
            kind: t.as_str(),
        },
        link.len(),
    ))
}

async fn animu_quote(state: web::Data<AppState>) -> HttpResponse {
    let q = state.content.pack.random_quote(&mut rand::rng());
    random(
        &QuoteBody {
            quote: q.quote(),
            anime: q.anime(),
            id: q.id(),
            name: q.name(),
        },
        q.quote().len() + q.anime().len() + q.name().len(),
    )
}

async fn animal(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let t = AnimalType::parse(&path)?;
    let entry = state.content.pack.random_animal(t, &mut rand::rng());
    Ok(random(
        &AnimalBody {
            image: entry.image,
            fact: entry.fact,
        },
        entry.image.len() + entry.fact.len(),
    ))
}

/// `/facts/{type}` for a type without its own static route: a 404 naming
/// the valid types.
async fn fact(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let t = FactType::parse(&path)?;
    Ok(fact_of(&state, t))
}

/// A random fact of `t`: its pre-serialised body, with the headers of
/// [`random`] (appended to the new response's empty map: no builder, no
/// lookup of an old value).
fn fact_of(state: &AppState, t: FactType) -> HttpResponse {
    let mut res = HttpResponse::with_body(StatusCode::OK, state.content.random_fact_body(t));
    let h = res.headers_mut();
    h.append(header::CACHE_CONTROL, NO_STORE.clone());
    h.append(header::CONTENT_TYPE, JSON.clone());
    res.map_into_boxed_body()
}

async fn img(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let t = ImgType::parse(&path)?;
    let link = state.content.pack.random_img(t, &mut rand::rng());
    Ok(random(&LinkBody { link }, link.len()))
}

/// `/media/{group}/{type}/{file}`: a file found by the start-up scan, looked
/// up by name (never joined to a path), served with its own image type.
async fn media(
    state: web::Data<AppState>,
    path: web::Path<(String, String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (group, type_segment, name) = path.into_inner();
    let slot = LinkSlot::parse(&group, &type_segment)?;
    let content = Arc::clone(&state.content);
    let Some(file) = content.media.get(slot, &name) else {
        return Err(ApiError::UnknownMedia(slot.to_string()));
    };
    let (file_path, mime) = (file.path.clone(), file.kind.mime());
    let bytes = web::block(move || std::fs::read(file_path))
        .await
        .map_err(|e| ApiError::MediaRead(std::io::Error::other(e.to_string())))?
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => ApiError::UnknownMedia(slot.to_string()),
            _ => ApiError::MediaRead(e),
        })?;
    Ok(HttpResponse::Ok()
        .insert_header((
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=86400"),
        ))
        .insert_header((
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .content_type(mime)
        .body(bytes))
}
