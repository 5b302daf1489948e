//! Logging set-up and the request log line.

use std::time::Duration;

use actix_web::dev::ServiceResponse;
use actix_web::http::{Method, Uri};
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

/// Logs the line of one finished request: method, path, status and
/// latency, or the error of a failed one. [`Observe`](crate::middleware::Observe),
/// the outermost middleware, calls it with the same timing it records in
/// the metrics.
///
/// Nothing is copied or formatted unless the event is enabled: a served
/// request's method and path are read from its response; `method` and `uri`
/// (cheap handles taken before the call) only name a failed request.
pub fn log_request<B>(
    res: &Result<ServiceResponse<B>, actix_web::Error>,
    method: &Method,
    uri: &Uri,
    elapsed: Duration,
) {
    let micros = elapsed.as_micros() as u64;
    match res {
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
}
