//! Route-building functions of the HTTP layer: every route is registered
//! through [`get`] or [`group`], which answer GET and HEAD, turn other
//! methods into 405 JSON, name the resource by its pattern ([`RouteName`])
//! and record it for the OpenAPI document ([`registered`]).

use actix_web::dev::{AppService, HttpServiceFactory};
use actix_web::http::Method;
use actix_web::{HttpRequest, HttpResponse, Resource, Scope, guard, web};

use crate::error::ApiError;

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

/// The pattern of the route a request was routed to, attached to every
/// resource made by [`get`] and [`Group::get`] as resource-level app data.
/// Middleware reads it from the finished response's request with one
/// lookup, where `HttpRequest::match_name` would match the path against the
/// whole route table again.
#[derive(Debug, Clone, Copy)]
pub struct RouteName(pub &'static str);

/// A finer metrics label a handler gives its request (an operator's
/// template's own path, `/canvas/custom/<name>`, for a name that is
/// loaded), read before [`RouteName`]. Its values are bounded by what
/// the server serves, never a raw path.
#[derive(Debug, Clone)]
pub struct RouteLabel(pub std::sync::Arc<str>);

/// A resource at `path` answering GET and HEAD with `handler`, and 405 JSON
/// (with `Allow`) for every other method.
pub fn get<F, Args>(path: &'static str, handler: F) -> Resource
where
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    resource(path, path, handler)
}

/// The routes of one URL group under a shared prefix (`/facts`,
/// `/canvas/filter`), registered as one actix scope: the app's router tests
/// the prefix once, a string comparison, instead of every pattern of the
/// group in turn (a regex match for each `{param}` pattern). Routes are
/// still named and registered by their full path.
///
/// A path that has the prefix but matches no route of the group falls back
/// to the app's default service (404 JSON), as it did without the scope; so
/// no two groups may share a prefix.
#[must_use]
pub fn group(prefix: &'static str) -> Group {
    Group {
        prefix,
        scope: web::scope(prefix),
    }
}

/// A URL group being built; see [`group`].
pub struct Group {
    prefix: &'static str,
    scope: Scope,
}

impl std::fmt::Debug for Group {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Group")
            .field("prefix", &self.prefix)
            .finish()
    }
}

impl Group {
    /// Adds the route `path` (the full path, which starts with the group's
    /// prefix) answered as by [`get`].
    ///
    /// # Panics
    /// When `path` is not the prefix itself or below it (a programming
    /// error, caught by every test that builds the app).
    #[must_use]
    pub fn get<F, Args>(mut self, path: &'static str, handler: F) -> Self
    where
        F: actix_web::Handler<Args>,
        Args: actix_web::FromRequest + 'static,
        F::Output: actix_web::Responder + 'static,
    {
        let rest = self.below(path, true);
        self.scope = self.scope.service(resource(rest, path, handler));
        self
    }

    /// `path` without the group's prefix; the prefix itself only when
    /// `prefix_itself` (panics otherwise: see [`Group::get`]).
    fn below<'p>(&self, path: &'p str, prefix_itself: bool) -> &'p str {
        path.strip_prefix(self.prefix)
            .filter(|r| (prefix_itself && r.is_empty()) || r.starts_with('/'))
            .unwrap_or_else(|| panic!("route {path} is outside its group {}", self.prefix))
    }

    /// Adds a route for the static `path` (below the prefix) that stands for
    /// one value of the pattern `name` (`/facts/cat` for `/facts/{type}`):
    /// answered as by [`get`], named and labelled `name`. Registered before
    /// the pattern itself, it spares that value a regex match.
    ///
    /// # Panics
    /// As [`Group::get`].
    #[must_use]
    pub fn get_static<F, Args>(mut self, path: &str, name: &'static str, handler: F) -> Self
    where
        F: actix_web::Handler<Args>,
        Args: actix_web::FromRequest + 'static,
        F::Output: actix_web::Responder + 'static,
    {
        let rest = self.below(path, false);
        self.scope = self.scope.service(resource(rest, name, handler));
        self
    }
}

impl HttpServiceFactory for Group {
    fn register(self, config: &mut AppService) {
        self.scope.register(config);
    }
}

/// A resource matching `pattern` (relative to its scope), named and labelled
/// by its full path `name`.
fn resource<F, Args>(pattern: &str, name: &'static str, handler: F) -> Resource
where
    F: actix_web::Handler<Args>,
    Args: actix_web::FromRequest + 'static,
    F::Output: actix_web::Responder + 'static,
{
    REGISTERED
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(name.to_owned());
    // Named by its path so `match_name` gives the pattern; `RouteName` gives
    // it to the metrics without matching again.
    web::resource(pattern)
        .name(name)
        .app_data(RouteName(name))
        .route(web::route().guard(guard::fn_guard(get_or_head)).to(handler))
        .default_service(web::to(method_not_allowed))
}

/// GET or HEAD. Unlike `guard::Get()`, it does not record the methods it
/// tried in the request's extensions for actix's own 405 (a map insert per
/// request): [`method_not_allowed`] answers with a fixed `Allow`.
fn get_or_head(ctx: &guard::GuardContext<'_>) -> bool {
    matches!(ctx.head().method, Method::GET | Method::HEAD)
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
