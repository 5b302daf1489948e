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
    /// The query string itself could not be parsed.
    #[error("malformed query string: {0}")]
    MalformedQuery(String),
    /// No route matches the path.
    #[error("no such endpoint: {0}")]
    UnknownPath(String),
    /// The route exists but not for this method.
    #[error("method {0} is not allowed here; use GET or HEAD")]
    MethodNotAllowed(String),
    /// Rendering an image failed.
    #[error("could not render the image: {0}")]
    Render(#[from] canvas_render::RenderError),
}

impl ApiError {
    /// Extra JSON members for the body beside `error` (e.g. `dym`).
    fn extras(&self) -> Option<Value> {
        None
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        use ApiError::*;
        match self {
            MissingParam { .. } | InvalidParam { .. } | Colour { .. } | MalformedQuery(_) => {
                StatusCode::BAD_REQUEST
            }
            UnknownPath(_) => StatusCode::NOT_FOUND,
            MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Render(canvas_render::RenderError::Encode(_)) => StatusCode::INTERNAL_SERVER_ERROR,
            Render(_) => StatusCode::UNPROCESSABLE_ENTITY,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let status = self.status_code();
        if status.is_server_error() {
            tracing::error!(error = %self, "request failed");
        }
        let mut body = json!({ "error": self.to_string() });
        if let (Some(Value::Object(extra)), Value::Object(map)) = (self.extras(), &mut body) {
            map.extend(extra);
        }
        let mut res = HttpResponse::build(status);
        res.insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-store")));
        if matches!(self, ApiError::MethodNotAllowed(_)) {
            res.insert_header((header::ALLOW, HeaderValue::from_static("GET, HEAD")));
        }
        res.json(body)
    }
}
