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
// xtask/src/modules.rs).
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
// The connection guard in front of actix-http's parser (transport).
pub mod http_guard;
pub mod routes;
pub mod routing;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceFactory, ServiceRequest, ServiceResponse};
use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use actix_http::{HttpService, KeepAlive, Protocol};
use actix_service::{IntoServiceFactory, ServiceFactoryExt, fn_service, map_config};
use actix_web::dev::AppConfig;
use actix_web::rt::net::TcpStream;
use actix_web::{App, web};

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
    watch_templates(&state, Duration::from_millis(settings.templates_poll_ms))?;
    let listener = http_guard::listen(settings.bind)?;
    tracing::info!(addr = %listener.local_addr()?, "listening");
    // actix-web's app, served over connections whose request heads are
    // checked first (`http_guard`).
    serve(state, listener)?.await?;
    tracing::info!("shut down");
    Ok(())
}

/// With a templates folder: reloads it when its files change (the
/// watcher thread) and on SIGHUP. Without one, SIGHUP keeps its default.
fn watch_templates(state: &AppState, poll: Duration) -> io::Result<()> {
    if state.templates.dir().is_none() {
        return Ok(());
    }
    let reload = state.templates.watch(poll)?;
    let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())?;
    actix_web::rt::spawn(async move {
        while hangup.recv().await.is_some() {
            tracing::info!("SIGHUP: reloading the templates folder");
            if reload.send(()).is_err() {
                return;
            }
        }
    });
    Ok(())
}

/// Serves `state` on `listener`: actix-web's app behind [`http_guard::GuardedStream`],
/// with keep-alive 5 s and disconnect 1 s (as `HttpServer`), and request
/// heads timed by the guard (`--request-head-timeout-ms`, a JSON 408); actix's
/// own first-request timer (an empty 408) runs a second later as a backstop.
pub fn serve(state: AppState, listener: std::net::TcpListener) -> io::Result<actix_server::Server> {
    let settings = state.settings.clone();
    let addr = listener.local_addr()?;
    let max_uri_bytes = settings.max_uri_bytes;
    let head_timeout = Duration::from_millis(settings.request_head_timeout_ms);
    let mut builder = actix_server::Server::build().shutdown_timeout(settings.shutdown_timeout);
    if let Some(w) = settings.workers {
        builder = builder.workers(w.max(1));
    }
    let builder = builder.listen("menagerie", listener, move || {
        let app = create_app(state.clone())
            .into_factory()
            .map_err(|err| err.error_response());
        let http = HttpService::build()
            .keep_alive(KeepAlive::default())
            .client_request_timeout(head_timeout + Duration::from_secs(1))
            .client_disconnect_timeout(Duration::from_secs(1))
            .local_addr(addr)
            .finish(map_config(app, move |_| AppConfig::default()));
        fn_service(move |io: TcpStream| {
            let peer: Option<SocketAddr> = io.peer_addr().ok();
            let io = http_guard::GuardedStream::new(io, max_uri_bytes, head_timeout);
            async move { Ok::<_, actix_http::error::DispatchError>((io, Protocol::Http1, peer)) }
        })
        .and_then(http)
    })?;
    Ok(builder.run())
}
