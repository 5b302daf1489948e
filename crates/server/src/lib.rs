//! The Menagerie HTTP service: thin actix-web glue over the domain crates.
//!
//! `main.rs` reads [`Settings`], starts tracing and calls [`run`]; tests build
//! the same application in process with [`create_app`].

pub mod config;
pub mod error;
pub mod http_guard;
pub mod metrics;
pub mod middleware;
pub mod openapi;
pub mod playground;
pub mod ratelimit;
pub mod render_pool;
pub mod routes;
pub mod state;
pub mod telemetry;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use actix_web::{App, web};

pub use config::Settings;
pub use error::ApiError;
pub use state::{AppState, StartupError};

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
        .configure(http_guard::configure)
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
    let listener = http_guard::listen(settings.bind)?;
    tracing::info!(addr = %listener.local_addr()?, "listening");
    // actix-web's app, served over connections whose request heads are
    // checked first (`http_guard`).
    http_guard::server(state, listener)?.await?;
    tracing::info!("shut down");
    Ok(())
}
