//! The Menagerie HTTP service: thin actix-web glue over the domain crates.
//!
//! `main.rs` reads [`Settings`], starts tracing and calls [`run`]; tests build
//! the same application in process with [`create_app`].
//!
//! Layers, one direction: the HTTP layer (`routes`, `routing`, `middleware`,
//! `openapi`, `playground`, this file) calls the [`engine`], which does the
//! work; both stand on the bottom modules (`config`, `error`, `metrics`,
//! `telemetry`, `ratelimit`, `catalogue`, `conditional`) and the domain
//! crates, which import nothing above them.

// Bottom layer: import nothing above them (see ARCHITECTURE.md and
// tests/http/layers.rs).
pub mod catalogue;
pub mod conditional;
pub mod config;
pub mod error;
pub mod metrics;
pub mod ratelimit;
pub mod telemetry;
// The work: canvas, content, creature reference, start-up.
pub mod engine;
// HTTP layer: requests and responses.
pub mod middleware;
pub mod openapi;
pub mod playground;
pub mod routes;
pub mod routing;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{App, HttpServer, web};

pub use config::Settings;
pub use engine::{AppState, StartupError};
pub use error::ApiError;

/// Builds the application: every route, the JSON error handlers, the
/// middleware stack and the request log. Used by [`run`] and by the in-process tests.
pub fn create_app(
    state: AppState,
) -> App<
    impl ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<impl MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let hygiene = middleware::Hygiene::new(&state);
    let observe = middleware::Observe::new(std::sync::Arc::clone(&state.metrics));
    App::new()
        .app_data(web::Data::new(state))
        .app_data(routes::query_config())
        .app_data(routes::path_config())
        .configure(routes::configure)
        .default_service(web::to(routes::not_found))
        // innermost first
        // size limits, CORS, rate limiting, ETag/304, security headers
        .wrap(hygiene)
        .wrap(middleware::Compression)
        // metrics and the request log (`telemetry::log_request`)
        .wrap(observe)
}

/// Loads the state and serves until SIGTERM/SIGINT, then drains in-flight
/// requests for up to `shutdown_timeout` seconds.
pub async fn run(settings: Settings) -> std::io::Result<()> {
    let state = AppState::load(settings.clone()).map_err(std::io::Error::other)?;
    let mut server = HttpServer::new(move || create_app(state.clone()))
        .shutdown_timeout(settings.shutdown_timeout)
        .bind(settings.bind)?;
    if let Some(w) = settings.workers {
        server = server.workers(w.max(1));
    }
    for addr in server.addrs() {
        tracing::info!(%addr, "listening");
    }
    server.run().await?;
    tracing::info!("shut down");
    Ok(())
}
