//! Route table: one module per URL group, each with a `configure` function.

use actix_web::{HttpRequest, HttpResponse, Resource, guard, web};

use crate::error::ApiError;

pub mod canvas;
pub mod colour;
pub mod content;
pub mod creature;
pub mod health;

/// Registers every route of the service.
pub fn configure(cfg: &mut web::ServiceConfig) {
    health::configure(cfg);
    colour::configure(cfg);
    // production surface (prod)
    crate::openapi::configure(cfg);
    crate::metrics::configure(cfg);
    crate::playground::configure(cfg);
    creature::configure(cfg);
    content::configure(cfg);
    canvas::configure(cfg);
}

/// Every path pattern registered through [`get`] so far in this process
/// (the OpenAPI drift test and `/openapi.json` read it).
pub fn registered() -> Vec<String> {
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .cloned()
        .collect()
}

static REGISTERED: std::sync::Mutex<std::collections::BTreeSet<String>> =
    std::sync::Mutex::new(std::collections::BTreeSet::new());

/// A resource at `path` answering GET and HEAD with `handler`, and 405 JSON
/// (with `Allow`) for every other method.
pub fn get<F, Args>(path: &str, handler: F) -> Resource
where
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(path.to_owned());
    // Named by its path so metrics read the pattern without allocating.
    web::resource(path)
        .name(path)
        .route(
            web::route()
                .guard(guard::Any(guard::Get()).or(guard::Head()))
                .to(handler),
        )
        .default_service(web::to(method_not_allowed))
}

async fn method_not_allowed(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::MethodNotAllowed(req.method().to_string()))
}

/// The fallback for paths that match no route: 404 JSON.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::UnknownPath(req.path().to_owned()))
}

/// Returns the parameter's value, treating absent, empty and blank alike as
/// missing.
pub fn required<'a>(
    value: &'a Option<String>,
    name: &'static str,
    expected: &'static str,
) -> Result<&'a str, ApiError> {
    match value.as_deref().map(str::trim) {
        Some(v) if !v.is_empty() => Ok(v),
        _ => Err(ApiError::MissingParam { name, expected }),
    }
}

/// Query-string extraction errors become 400 JSON instead of actix's text.
pub fn query_config() -> web::QueryConfig {
    web::QueryConfig::default()
        .error_handler(|err, _req| ApiError::MalformedQuery(err.to_string()).into())
}

/// Path-segment extraction errors become 404 JSON.
pub fn path_config() -> web::PathConfig {
    web::PathConfig::default()
        .error_handler(|_err, req| ApiError::UnknownPath(req.path().to_owned()).into())
}
