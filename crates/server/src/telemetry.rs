//! Logging set-up and the request-log middleware.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use tracing_subscriber::EnvFilter;

use crate::config::{LogFormat, Settings};

/// Installs the global tracing subscriber. Call once, from `main`.
pub fn init(settings: &Settings) {
    let filter = EnvFilter::try_new(&settings.log_level).unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let _ = match settings.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// Logs one line per request: method, path, status and latency.
///
/// Nothing is copied or formatted unless the event is enabled: a served
/// request's method and path are read back from its response.
pub async fn log_request(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let start = Instant::now();
    // Only a failed request has no response to read the path from: keep a
    // cheap handle on it (`Uri` and `Method` clones share their bytes).
    let (method, uri) = (req.method().clone(), req.uri().clone());
    let res = next.call(req).await;
    let micros = start.elapsed().as_micros() as u64;
    match &res {
        Ok(r) => tracing::info!(
            target: "menagerie::request",
            method = %r.request().method(),
            path = r.request().path(),
            status = r.status().as_u16(),
            latency_us = micros,
            "request"
        ),
        Err(e) => tracing::warn!(
            target: "menagerie::request",
            %method, path = uri.path(), error = %e, latency_us = micros,
            "request failed"
        ),
    }
    res
}
