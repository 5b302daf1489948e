//! The OpenAPI 3.1 document served at `/openapi.json`.
//!
//! Built from one table, [`catalogue::ENDPOINTS`], plus the component
//! schemas in `schemas.rs`. The served document lists only the endpoints
//! whose route is registered in this binary, so it never promises a path
//! that answers 404; the tests in `tests/http/openapi.rs` fail when a
//! registered route has no catalogue entry, and call every documented
//! endpoint with its example values to check status, media type and the
//! body's fields against the schema.
//!
//! The operators' templates (`--templates`) each add an operation of their
//! own ([`custom_operation`]), their parameters read from their files. The
//! document is built on the first request that sees a set of templates
//! (once per process without a folder, again after each reload) and served
//! from memory with an ETag.

pub mod catalogue;
pub mod params;
mod schemas;

use std::sync::{Mutex, PoisonError};

use actix_web::dev::ResourceDef;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpResponse, web};

use crate::engine::AppState;
use crate::engine::templates::{FileTemplate, TemplateSet};
use serde_json::{Map, Value, json};

use catalogue::{ENDPOINTS, Endpoint, ErrorKind, In, Kind, Success};
use params::ParamDoc;

/// Registers `GET /openapi.json`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(crate::routing::get("/openapi.json", serve));
}

async fn serve(state: web::Data<AppState>) -> HttpResponse {
    // One document per set of operators' templates (generation 0: none),
    // built on the first request that sees the set.
    static DOC: Mutex<Option<(u64, Bytes)>> = Mutex::new(None);
    let set = state.templates.current();
    let cached = DOC
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .as_ref()
        .filter(|(g, _)| *g == set.generation)
        .map(|(_, b)| b.clone());
    let body = match cached {
        Some(b) => b,
        None => {
            let doc = document_with(&crate::routing::registered(), &set.templates);
            let b = Bytes::from(serde_json::to_string(&doc).unwrap_or_default());
            *DOC.lock().unwrap_or_else(PoisonError::into_inner) = Some((set.generation, b.clone()));
            b
        }
    };
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, cache_control(&set)))
        .content_type("application/json")
        .body(body)
}

/// The document may be kept 5 minutes, or a minute when the operators'
/// templates, which a reload changes, are in it.
fn cache_control(set: &TemplateSet) -> &'static str {
    if set.generation == 0 {
        "public, max-age=300"
    } else {
        "public, max-age=60"
    }
}

/// A path with every `{param}` replaced by `{}` (parameter names differ
/// between route patterns and the document without meaning anything).
pub fn normalise(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut depth = 0;
    for c in path.chars() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    out.push_str("{}");
                }
            }
            '}' => depth -= 1,
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

/// The endpoint's path with every path parameter replaced by its example.
pub fn concrete_path(e: &Endpoint) -> String {
    let mut p = e.path.to_owned();
    for param in e.params.iter().filter(|p| p.location == In::Path) {
        p = p.replace(&format!("{{{}}}", param.name), param.example);
    }
    p
}

/// Whether the route pattern `route` serves the endpoint `e`.
pub fn serves(route: &str, e: &Endpoint) -> bool {
    normalise(route) == normalise(e.path) || ResourceDef::new(route).is_match(&concrete_path(e))
}

/// The catalogue entries that some registered route serves.
pub fn served<'a>(registered: &'a [String]) -> impl Iterator<Item = &'static Endpoint> + 'a {
    ENDPOINTS
        .iter()
        .filter(move |e| registered.iter().any(|r| serves(r, e)))
}

/// The whole document, listing the endpoints `registered` routes serve.
pub fn document(registered: &[String]) -> Value {
    document_with(registered, &[])
}

/// [`document`] with an operation of its own for each of the operators'
/// templates `custom`, after the catalogue's [`catalogue::CUSTOM`].
pub fn document_with(registered: &[String], custom: &[std::sync::Arc<FileTemplate>]) -> Value {
    let mut paths = Map::new();
    let mut tags: Vec<&str> = Vec::new();
    for e in served(registered) {
        if !tags.contains(&e.tag) {
            tags.push(e.tag);
        }
        paths.insert(e.path.to_owned(), json!({ "get": operation(e) }));
        if e.path == catalogue::CUSTOM.path {
            for t in custom {
                let (path, op) = custom_operation(t);
                paths.insert(path, json!({ "get": op }));
            }
        }
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "Menagerie",
            "version": env!("CARGO_PKG_VERSION"),
            "summary": "Avatar images, colour tools, anime gifs and quotes, a creature reference with did-you-mean search, animal pictures and facts.",
            "description": DESCRIPTION,
            "license": { "name": "MIT OR Apache-2.0", "identifier": "MIT OR Apache-2.0" },
        },
        "servers": [{ "url": "/" }],
        "tags": tags.iter().map(|t| json!({ "name": t })).collect::<Vec<_>>(),
        "paths": paths,
        "components": {
            "schemas": schemas::all(),
            "responses": error_responses(),
            "securitySchemes": {
                "apiKey": {
                    "type": "http",
                    "scheme": "bearer",
                    "description": "Optional. When the operator configured API keys, a known key gets its own rate limits; an unknown key is 401."
                }
            }
        },
        "security": [{}, { "apiKey": [] }],
    })
}

const DESCRIPTION: &str = "Read-only, GET (and HEAD) only. Every error is JSON `{\"error\": \"...\"}` \
(creature misses add `dym` suggestions). Responses that depend only on the URL carry \
`Cache-Control: public, max-age=…` and an `ETag` (304 on `If-None-Match`). CORS is open to every \
origin. When the operator enables rate limiting, every response carries `RateLimit-Policy` and \
`RateLimit` headers and a refused request gets 429 with `Retry-After`. HEAD on a canvas image \
fetches and checks the avatar like GET (same status and `ETag`) but renders nothing, so it \
carries no `Content-Length` unless the image is already in the output cache. Every image \
endpoint's operation names its preview, its answer to built-in sample inputs, in `x-preview` \
(`/previews/{group}/{file}`). An operation whose path parameters pick the image (the rank cards' \
`{template}`, the welcome cards' `{template}` and `{background}`) lists its previews in \
`x-previews` instead: each with `preview` (its path), `path` (the image it shows), `parameters` \
(the path parameters' values) and `group` (the gallery's heading).";

fn operation(e: &Endpoint) -> Value {
    let mut responses = Map::new();
    let (desc, content, headers) = match e.ok {
        Success::Json(schema) => {
            let mut media =
                json!({ "schema": { "$ref": format!("#/components/schemas/{schema}") } });
            if let Some(ex) = schemas::example(schema) {
                media["example"] = ex;
            }
            ("OK", json!({ "application/json": media }), true)
        }
        Success::Png => (
            "The image (deterministic for a given URL: cacheable, with an ETag)",
            json!({ "image/png": { "schema": { "type": "string", "contentMediaType": "image/png" } } }),
            true,
        ),
        Success::CanvasImage => (
            "The image (deterministic for a given URL: cacheable, with an ETag): PNG by default; an animated GIF for an animated avatar; see `format`",
            json!({
                "image/png": { "schema": { "type": "string", "contentMediaType": "image/png" } },
                "image/gif": { "schema": { "type": "string", "contentMediaType": "image/gif" } },
                "image/webp": { "schema": { "type": "string", "contentMediaType": "image/webp" } },
            }),
            true,
        ),
        Success::Image => (
            "The picture, with the media type of its file",
            json!({ "image/*": { "schema": { "type": "string", "contentMediaType": "image/*" } } }),
            false,
        ),
        Success::Html => (
            "The playground page",
            json!({ "text/html": { "schema": { "type": "string" } } }),
            false,
        ),
        Success::Asset => (
            "The asset",
            json!({
                "text/javascript": { "schema": { "type": "string" } },
                "text/css": { "schema": { "type": "string" } },
            }),
            false,
        ),
        Success::Metrics => (
            "Prometheus text exposition format 0.0.4",
            json!({ "text/plain": { "schema": { "type": "string" } } }),
            false,
        ),
    };
    let mut ok = json!({ "description": desc, "content": content });
    if headers {
        ok["headers"] = header_set(&["ETag", "Cache-Control", "RateLimit", "RateLimit-Policy"]);
    }
    responses.insert("200".into(), ok);
    if headers {
        responses.insert(
            "304".into(),
            json!({ "description": "Not modified: the `If-None-Match` tag matches" }),
        );
    }
    for k in e.errors {
        let (status, name) = error_ref(*k);
        responses.insert(
            status.into(),
            json!({ "$ref": format!("#/components/responses/{name}") }),
        );
    }
    // Any endpoint: a malformed request (an endpoint with parameters
    // documents its own 400, which says more).
    responses
        .entry("400")
        .or_insert_with(|| json!({ "$ref": "#/components/responses/MalformedRequest" }));
    for (status, name) in [
        ("401", "Unauthorized"),
        ("408", "HeadTimeout"),
        ("414", "UriTooLong"),
        ("429", "RateLimited"),
        ("431", "HeadersTooLarge"),
    ] {
        responses.insert(
            status.into(),
            json!({ "$ref": format!("#/components/responses/{name}") }),
        );
    }
    let mut op = json!({
        "tags": [e.tag],
        "summary": e.summary,
        "operationId": operation_id(e.path),
        "parameters": params::parameters(e)
            .iter()
            .map(parameter)
            .collect::<Vec<_>>(),
        "responses": responses,
    });
    if !e.description.is_empty() {
        op["description"] = json!(e.description);
    }
    if let Some(preview) = crate::catalogue::preview_of(e.path) {
        op["x-preview"] = json!(preview);
    }
    let previews: Vec<Value> = crate::catalogue::previews_of_operation(e.path)
        .map(|p| {
            let group = p.preview.split('/').nth(2).unwrap_or_default();
            json!({
                "preview": p.preview,
                "path": p.path,
                "parameters": p
                    .path_params
                    .iter()
                    .map(|(n, v)| ((*n).to_owned(), json!(v)))
                    .collect::<Map<String, Value>>(),
                "group": catalogue::preview_group_title(group),
            })
        })
        .collect();
    if !previews.is_empty() {
        op["x-previews"] = Value::Array(previews);
    }
    op
}

/// The operation of an operator's template: the catalogue's
/// [`catalogue::CUSTOM`] at the template's own path, with its
/// description, its parameters (from its file: the template's `avatar`,
/// its second image's, then its own) and its preview.
pub fn custom_operation(t: &FileTemplate) -> (String, Value) {
    let path = format!("{}/{}", crate::catalogue::CUSTOM_GROUP, t.name);
    let e = &catalogue::CUSTOM;
    let mut op = operation(e);
    op["operationId"] = json!(operation_id(&path));
    op["summary"] = json!(if t.description.is_empty() {
        format!("The operator's template `{}`", t.name)
    } else {
        t.description.clone()
    });
    op["description"] = json!(format!(
        "An operator's template, read from its file in the `--templates` folder. {}×{}{}.",
        t.template.size.0,
        t.template.size.1,
        if t.template.is_animated() {
            format!(", {} frames, always animated", t.template.timeline.frames)
        } else {
            String::new()
        }
    ));
    let avatar = if t.template.uses_avatar() {
        &catalogue::AVATAR
    } else {
        &catalogue::AVATAR_UNUSED
    };
    let second = t.template.image_source().map(|name| ParamDoc {
        name,
        description: "URL of a second image the template draws, fetched like `avatar`".into(),
        ..ParamDoc::from(&catalogue::AVATAR)
    });
    let drawn = params::Drawn {
        name: "",
        template: t.template,
        sample: t.sample.clone(),
    };
    let list: Vec<Value> = std::iter::once(ParamDoc::from(avatar))
        .chain(second)
        .chain(params::template_params(
            crate::catalogue::CUSTOM_GROUP,
            std::slice::from_ref(&drawn),
        ))
        .chain([
            ParamDoc::from(&catalogue::FORMAT),
            ParamDoc::from(&catalogue::QUALITY),
        ])
        .map(|p| parameter(&p))
        .collect();
    op["parameters"] = Value::Array(list);
    op["x-preview"] = json!(crate::catalogue::custom_preview(
        &t.name,
        t.template.is_animated()
    ));
    (path, op)
}

/// The pattern of a blank value (empty or whitespace only), which an
/// optional number, colour or choice accepts as "use the default".
const BLANK_PATTERN: &str = "^\\s*$";

/// `get` + the path in camel case: `/canvas/misc/its-so-stupid` → `getCanvasMiscItsSoStupid`.
fn operation_id(path: &str) -> String {
    let mut out = String::from("get");
    let mut upper = true;
    for c in path.chars() {
        if c.is_ascii_alphanumeric() {
            if upper {
                out.extend(c.to_uppercase());
            } else {
                out.push(c);
            }
            upper = false;
        } else {
            upper = true;
        }
    }
    if path == "/" {
        out.push_str("Playground");
    }
    out
}

fn parameter(p: &ParamDoc) -> Value {
    let schema = match p.kind {
        Kind::Text(max) => json!({ "type": "string", "maxLength": max }),
        Kind::Name(max) => json!({
            "type": "string",
            "minLength": 1,
            "maxLength": max,
            "pattern": "\\S",
        }),
        Kind::Hex => json!({
            "type": "string",
            "pattern": "^#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})$",
        }),
        Kind::Triple => json!({
            "type": "string",
            "pattern": "^ *(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]) *, *(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]) *, *(?:[01]?[0-9]{1,2}|2[0-4][0-9]|25[0-5]) *$",
        }),
        Kind::AvatarUrl => json!({
            "type": "string",
            "format": "uri",
            "maxLength": catalogue::AVATAR_URL_MAX,
        }),
        Kind::Number(min, max) => json!({ "type": "number", "minimum": min, "maximum": max }),
        // Whole numbers: the bounds are whole, so they are written as integers.
        Kind::Integer(min, max) => {
            json!({ "type": "integer", "minimum": min as i64, "maximum": max as i64 })
        }
        Kind::Enum(values) => json!({ "type": "string", "enum": values }),
    };
    // An optional number, colour or choice given empty or blank takes its
    // default (the canvas routes read such a value as absent).
    let mut schema = match p.kind {
        Kind::Number(..) | Kind::Integer(..) | Kind::Hex | Kind::Enum(_) if !p.required => json!({
            "anyOf": [schema, { "type": "string", "pattern": BLANK_PATTERN }],
        }),
        _ => schema,
    };
    if let Some(d) = p.default.as_deref() {
        schema["default"] = match p.kind {
            Kind::Number(..) => d.parse::<f64>().map(Value::from).unwrap_or(json!(d)),
            Kind::Integer(..) => d.parse::<i64>().map(Value::from).unwrap_or(json!(d)),
            _ => json!(d),
        };
    }
    json!({
        "name": p.name,
        "in": match p.location { In::Query => "query", In::Path => "path" },
        "required": p.required || p.location == In::Path,
        "description": p.description,
        "schema": schema,
        "example": match p.kind {
            Kind::Number(..) => p.example.parse::<f64>().map(Value::from).unwrap_or(json!(p.example)),
            Kind::Integer(..) => p.example.parse::<i64>().map(Value::from).unwrap_or(json!(p.example)),
            _ => json!(p.example),
        },
    })
}

fn error_ref(k: ErrorKind) -> (&'static str, &'static str) {
    match k {
        ErrorKind::BadRequest => ("400", "BadRequest"),
        ErrorKind::NotFound => ("404", "NotFound"),
        ErrorKind::CreatureNotFound => ("404", "CreatureNotFound"),
        ErrorKind::MoveNotFound => ("404", "MoveNotFound"),
        ErrorKind::AbilityNotFound => ("404", "AbilityNotFound"),
        ErrorKind::ItemNotFound => ("404", "ItemNotFound"),
        ErrorKind::Unprocessable => ("422", "Unprocessable"),
        ErrorKind::BadGateway => ("502", "BadGateway"),
        ErrorKind::Overloaded => ("503", "Overloaded"),
        ErrorKind::GatewayTimeout => ("504", "GatewayTimeout"),
        ErrorKind::DataMissing => ("503", "DataMissing"),
    }
}

fn error_response(description: &str, schema: &str, example: Value) -> Value {
    json!({
        "description": description,
        "headers": header_set(&["Cache-Control"]),
        "content": { "application/json": {
            "schema": { "$ref": format!("#/components/schemas/{schema}") },
            "example": example,
        } },
    })
}

fn error_responses() -> Value {
    let err = |m: &str| json!({ "error": m });
    let mut limited = error_response(
        "Rate limit exceeded (only when the operator enabled rate limiting)",
        "Error",
        err("rate limit exceeded for the `default` budget; retry in 3 s"),
    );
    limited["headers"] = header_set(&[
        "Retry-After",
        "RateLimit",
        "RateLimit-Policy",
        "Cache-Control",
    ]);
    let overloaded_text = format!(
        "Every image job slot stayed taken: the request waited in the canvas queue (served \
         round-robin across clients), for its turn to decode the avatar (served in arrival order, \
         small avatars in a lane of their own) and for a render thread \
         for {} s in all, or {} requests were already waiting \
         (defaults of `--canvas-queue-ms` and `--canvas-queue`); retry after `Retry-After` seconds",
        crate::config::DEFAULT_CANVAS_QUEUE_MS / 1000,
        crate::config::DEFAULT_CANVAS_QUEUE,
    );
    let mut overloaded = error_response(
        &overloaded_text,
        "Error",
        err(&crate::error::ApiError::Busy {
            retry_after: crate::engine::canvas::RETRY_AFTER_SECS,
        }
        .to_string()),
    );
    overloaded["headers"] = header_set(&["Retry-After", "Cache-Control"]);
    let mut unauthorized = error_response(
        "The `Authorization` header names no known API key (only when API keys are configured)",
        "Error",
        err("unknown API key"),
    );
    unauthorized["headers"] =
        json!({ "WWW-Authenticate": { "schema": { "type": "string", "const": "Bearer" } } });
    json!({
        "BadRequest": error_response(
            "A parameter is missing, empty or malformed; the message names it and the accepted form or range. \
             On the canvas endpoints also an `avatar` that is not an absolute http(s) URL, is longer than 2048 bytes, \
             carries `user@`, or resolves to a private, loopback, link-local, CGNAT, multicast, documentation or reserved address",
            "Error",
            err("missing query parameter `hex`: expected RRGGBB"),
        ),
        "MalformedRequest": error_response(
            "The request is malformed: invalid percent-encoding in the query (`%` not followed by two \
             hexadecimal digits), or a request head the HTTP layer refuses (bad method, target, version or \
             header, both `Content-Length` and `Transfer-Encoding`; the connection is then closed)",
            "Error",
            err("malformed query string: invalid percent-encoding (`%` must be followed by two hexadecimal digits)"),
        ),
        "NotFound": error_response(
            "Unknown type or record; the message names the valid types where there is a fixed set",
            "Error",
            err("no such endpoint: /facts/unicorn"),
        ),
        "CreatureNotFound": error_response(
            "No such creature; `dym` holds up to 5 similar names, best first",
            "CreatureNotFound",
            schemas::example("CreatureNotFound").unwrap_or_default(),
        ),
        "MoveNotFound": error_response(
            "No such move; `dym` holds up to 5 similar names, best first",
            "MoveNotFound",
            schemas::example("MoveNotFound").unwrap_or_default(),
        ),
        "AbilityNotFound": error_response(
            "No such ability; `dym` holds up to 5 similar names, best first",
            "AbilityNotFound",
            schemas::example("AbilityNotFound").unwrap_or_default(),
        ),
        "ItemNotFound": error_response(
            "No such item; `dym` holds up to 5 similar names, best first",
            "ItemNotFound",
            schemas::example("ItemNotFound").unwrap_or_default(),
        ),
        "Unprocessable": error_response(
            "The avatar is not a usable image: the URL gives no image, an unsupported format, more bytes or pixels \
             than the server's caps (8 MiB and 4096×4096 by default), a corrupt image, more than 3 redirects, \
             or its host answered 4xx; an animated avatar over 256 frames (`max_frames`) or 32 Mi decoded pixels \
             in all, frames × width × height (`max_animation_pixels`); an animated image that took longer than \
             5 s to render (`render_time`). The message names the limit",
            "Error",
            err(&remote_image::FetchError::UnsupportedFormat.to_string()),
        ),
        "BadGateway": error_response(
            "The avatar host is unreachable (DNS, refused, TLS, broken HTTP) or answered 5xx",
            "Error",
            err(&remote_image::FetchError::Unreachable.to_string()),
        ),
        "Overloaded": overloaded,
        "GatewayTimeout": error_response(
            "The avatar host took longer than the server's timeout (5 s overall, 2 s per connect by default)",
            "Error",
            err(&remote_image::FetchError::TooSlow.to_string()),
        ),
        "Unauthorized": unauthorized,
        "DataMissing": error_response(
            "The creature reference data is not built on this server (`cargo xtask data`)",
            "Error",
            err("the creature reference data is not loaded on this server (build it with `cargo xtask data`)"),
        ),
        "HeadTimeout": error_response(
            "The request head did not come whole within the server's time (5 s by default); the connection is then closed",
            "Error",
            err("the request head did not arrive within 5000 ms"),
        ),
        "UriTooLong": error_response(
            "The request target is longer than the server's limit (8 KiB by default)",
            "Error",
            err("request target longer than 8192 bytes"),
        ),
        "RateLimited": limited,
        "HeadersTooLarge": error_response(
            "The request headers exceed 16 KiB in total, or the head has more than 96 headers or 128 KiB (the connection is then closed)",
            "Error",
            err("request headers larger than 16384 bytes"),
        ),
    })
}

/// The named response headers, inlined (utoipa's model has no header refs).
fn header_set(names: &[&str]) -> Value {
    let all = headers();
    Value::Object(
        names
            .iter()
            .filter_map(|n| all.get(*n).map(|h| ((*n).to_owned(), h.clone())))
            .collect(),
    )
}

fn headers() -> Value {
    json!({
        "ETag": {
            "description": "Validator of a deterministic response (weak for compressible bodies)",
            "schema": { "type": "string" },
        },
        "Cache-Control": {
            "description": "`public, max-age=…` on deterministic responses, `no-store` on errors and random picks",
            "schema": { "type": "string" },
        },
        "Retry-After": {
            "description": "Whole seconds to wait, at least 1",
            "schema": { "type": "integer", "minimum": 1 },
        },
        "RateLimit": {
            "description": "Remaining quota: `\"<budget>\";r=<remaining>;t=<seconds until full>` (only with rate limiting on)",
            "schema": { "type": "string" },
            "example": "\"default\";r=599;t=1",
        },
        "RateLimit-Policy": {
            "description": "The quota: `\"<budget>\";q=<requests>;w=60` (only with rate limiting on)",
            "schema": { "type": "string" },
            "example": "\"default\";q=600;w=60",
        },
    })
}
