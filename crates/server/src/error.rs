//! The one table that turns every failure into an HTTP status and a JSON
//! body `{"error": "..."}` (plus spec'd extras such as `dym`).
//!
//! Handlers return `Result<_, ApiError>` and never choose a status code
//! themselves: the single `match` in [`ApiError::status_code`] does.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde_json::{Value, json};

/// Every error the API answers with.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A required query parameter is absent or empty.
    #[error("missing query parameter `{name}`: expected {expected}")]
    MissingParam {
        /// The parameter's name.
        name: &'static str,
        /// What a valid value looks like.
        expected: &'static str,
    },
    /// A query parameter is present but its value is not acceptable.
    #[error("invalid query parameter `{name}`: {reason}")]
    InvalidParam {
        /// The parameter's name.
        name: &'static str,
        /// Why, naming the accepted form or range.
        reason: String,
    },
    /// A colour parameter did not parse.
    #[error("invalid query parameter `{name}`: {source}")]
    Colour {
        /// The parameter's name.
        name: &'static str,
        /// The parser's error.
        source: colour::ColourError,
    },
    /// The request itself is refused before routing (see `http_guard`).
    #[error("bad request: {0}")]
    BadRequest(&'static str),
    /// The query string itself could not be parsed.
    #[error("malformed query string: {0}")]
    MalformedQuery(String),
    /// No route matches the path.
    #[error("no such endpoint: {0}")]
    UnknownPath(String),
    /// The route exists but not for this method.
    #[error("method {0} is not allowed here; use GET or HEAD")]
    MethodNotAllowed(String),
    // -- creature reference --
    /// The creature reference dataset is not loaded (no `reference-db.bin`
    /// in the data dir).
    #[error(
        "the creature reference data is not loaded on this server (build it with `cargo xtask data`)"
    )]
    ReferenceDataMissing,
    /// A creature, move, ability or item lookup found nothing (or got an
    /// empty query).
    #[error("{0}")]
    Lookup(#[from] reference_db::LookupError),
    // -- end creature reference --
    /// A `:type` path segment (or media group) that names no known type;
    /// the message lists the valid ones.
    #[error("{0}")]
    UnknownType(#[from] content::UnknownType),
    /// `/media/<group>/<type>/<file>` names no file served for that type.
    #[error("no such media file in /media/{0}")]
    UnknownMedia(String),
    /// A listed media file could not be read.
    #[error("could not read the media file: {0}")]
    MediaRead(std::io::Error),
    /// Rendering an image failed.
    #[error("could not render the image: {0}")]
    Render(#[from] canvas_render::RenderError),
    /// The client spent its rate-limit budget.
    #[error("rate limit exceeded for the `{budget}` budget; retry in {retry_after_secs} s")]
    RateLimited {
        /// Whole seconds until one more request is allowed (at least 1).
        retry_after_secs: u64,
        /// The budget: `default`, `canvas` or `api-key`.
        budget: &'static str,
    },
    /// An `Authorization` header names no known API key.
    #[error("unknown API key")]
    InvalidApiKey,
    /// The request target (path and query) is too long.
    #[error("request target longer than {max} bytes")]
    UriTooLong {
        /// The limit in bytes.
        max: usize,
    },
    /// The request head did not arrive in time.
    #[error("the request head did not arrive within {max_ms} ms")]
    HeadTimeout {
        /// The limit in milliseconds.
        max_ms: u64,
    },
    /// The request headers are too large in total.
    #[error("request headers larger than {max} bytes")]
    HeadersTooLarge {
        /// The limit in bytes.
        max: usize,
    },
    // --- canvas ---
    /// The avatar could not be fetched or decoded (the book's Limits, Errors).
    #[error("{0}")]
    Avatar(#[from] remote_image::FetchError),
    /// A second image (a welcome card's `bg`) could not be fetched or
    /// decoded: the avatar's table, its message naming the parameter.
    #[error("{}", .source.to_string().replacen("avatar", .param, 1))]
    Image {
        /// The parameter (`bg`).
        param: &'static str,
        /// What went wrong, as for an avatar.
        source: remote_image::FetchError,
    },
    /// No canvas job slot came free within the queue deadline, or the
    /// queue was full.
    #[error("too many images are being made right now; retry in {retry_after} s")]
    Busy {
        /// Seconds to wait, also sent as `Retry-After`.
        retry_after: u32,
    },
    /// An animated image could not be made (over the render-time budget,
    /// or frames the encoder refused).
    #[error("{0}")]
    Animation(canvas_render::AnimationError),
    /// A canvas job's worker thread failed.
    #[error("the image could not be produced")]
    JobFailed,
    // --- end canvas ---
}

impl ApiError {
    /// Whether a 5xx answer is this server's own fault, logged at ERROR.
    ///
    /// The others are the outcome of what a client asked for and are logged
    /// at WARN, so no client can flood the error log: an avatar URL whose
    /// host is unreachable, fails (5xx) or is too slow (every other avatar
    /// failure, a bad or refused URL, an upstream 404, an image too big or
    /// undecodable, is a 4xx and not logged here at all), and a canvas
    /// request refused because every job slot is taken.
    pub fn is_server_fault(&self) -> bool {
        !matches!(
            self,
            ApiError::Avatar(_) | ApiError::Image { .. } | ApiError::Busy { .. }
        )
    }

    /// Extra JSON members for the body beside `error` (e.g. `dym`).
    fn extras(&self) -> Option<Value> {
        match self {
            // creature reference: `dym` on every miss (the spec promises it
            // for moves, abilities and items; creatures get it too)
            ApiError::Lookup(reference_db::LookupError::NotFound {
                kind, suggestions, ..
            }) => {
                let dym: Vec<Value> = suggestions
                    .iter()
                    .map(|s| {
                        let mut entry = serde_json::Map::new();
                        entry.insert(kind.noun().to_owned(), Value::from(s.slug.as_str()));
                        entry.insert("certainty".to_owned(), Value::from(s.certainty_text()));
                        Value::Object(entry)
                    })
                    .collect();
                Some(json!({ "dym": dym }))
            }
            _ => None,
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        use ApiError::*;
        match self {
            MissingParam { .. }
            | InvalidParam { .. }
            | Colour { .. }
            | MalformedQuery(_)
            | BadRequest(_) => StatusCode::BAD_REQUEST,
            UnknownPath(_) | UnknownType(_) | UnknownMedia(_) => StatusCode::NOT_FOUND,
            MediaRead(_) => StatusCode::INTERNAL_SERVER_ERROR,
            MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Lookup(reference_db::LookupError::EmptyQuery { .. }) => StatusCode::BAD_REQUEST,
            Lookup(reference_db::LookupError::NotFound { .. }) => StatusCode::NOT_FOUND,
            ReferenceDataMissing => StatusCode::SERVICE_UNAVAILABLE,
            Render(canvas_render::RenderError::Encode(_)) => StatusCode::INTERNAL_SERVER_ERROR,
            // --- canvas ---
            Render(
                canvas_render::RenderError::ParameterNotFinite { .. }
                | canvas_render::RenderError::ParameterOutOfRange { .. }
                | canvas_render::RenderError::ParameterNotNumber { .. }
                | canvas_render::RenderError::TextTooLong { .. }
                | canvas_render::RenderError::InvalidParameter { .. },
            ) => StatusCode::BAD_REQUEST,
            Render(_) => StatusCode::UNPROCESSABLE_ENTITY,
            RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            InvalidApiKey => StatusCode::UNAUTHORIZED,
            UriTooLong { .. } => StatusCode::URI_TOO_LONG,
            HeadersTooLarge { .. } => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            HeadTimeout { .. } => StatusCode::REQUEST_TIMEOUT,
            Avatar(e) | Image { source: e, .. } => avatar_status(e),
            Animation(canvas_render::AnimationError::TimeLimit { .. }) => {
                StatusCode::UNPROCESSABLE_ENTITY
            }
            Animation(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Busy { .. } => StatusCode::SERVICE_UNAVAILABLE,
            JobFailed => StatusCode::INTERNAL_SERVER_ERROR,
            // --- end canvas ---
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() {
            if self.is_server_fault() {
                tracing::error!(error = %self, status = status.as_u16(), "request failed");
            } else {
                tracing::warn!(error = %self, status = status.as_u16(), "request failed");
            }
        }
        let mut body = json!({ "error": self.to_string() });
        if let (Some(Value::Object(extra)), Value::Object(map)) = (self.extras(), &mut body) {
            map.extend(extra);
        }
        let mut res = HttpResponse::build(status);
        res.insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-store")));
        if let ApiError::Busy { retry_after } = self {
            res.insert_header((header::RETRY_AFTER, retry_after.to_string()));
        }
        if matches!(self, ApiError::MethodNotAllowed(_)) {
            res.insert_header((header::ALLOW, HeaderValue::from_static("GET, HEAD")));
        }
        // headers some errors require
        match self {
            ApiError::RateLimited {
                retry_after_secs, ..
            } => {
                res.insert_header((header::RETRY_AFTER, (*retry_after_secs).max(1)));
            }
            ApiError::InvalidApiKey => {
                res.insert_header((header::WWW_AUTHENTICATE, "Bearer"));
            }
            _ => {}
        }
        res.json(body)
    }
}

// --- canvas ---
/// The avatar half of the table: the request was wrong → 400, the URL does
/// not lead to a usable image → 422, the avatar host failed → 502, it was
/// too slow → 504.
fn avatar_status(e: &remote_image::FetchError) -> StatusCode {
    use remote_image::FetchError::*;
    match e {
        InvalidUrl(_) | UrlTooLong { .. } | RefusedAddress => StatusCode::BAD_REQUEST,
        NotAnImage
        | UnsupportedFormat
        | TooManyBytes { .. }
        | TooManyPixels { .. }
        | TooManyFrames { .. }
        | AnimationTooLarge { .. }
        | Corrupt
        | UpstreamRejected { .. }
        | TooManyRedirects { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        TooSlow => StatusCode::GATEWAY_TIMEOUT,
        Unreachable | UpstreamFailed { .. } => StatusCode::BAD_GATEWAY,
        _ => StatusCode::BAD_GATEWAY,
    }
}
// --- end canvas ---
