//! Baseline for the JSON benchmarks (`scripts/bench-content.sh`,
//! `scripts/bench-creature.sh`): a bare actix-web server whose only handler
//! returns a fixed JSON body. No state, no routing table, no middleware.
//!
//! Without a body file the body has the size of a typical `/facts/cat`
//! answer, served at `/facts/cat`; with one, that file's bytes are served
//! at every path (the creature benchmark passes the body menagerie gives,
//! so both sides send the same bytes).
//!
//! `cargo run --release -p server --example bare -- 127.0.0.1:18081 1 [body.json]`
//! (address, worker count, body file).

use actix_web::{App, HttpResponse, HttpServer, web};

const BODY: &str = r#"{"fact":"A cat normally keeps its claws sheathed while walking, which keeps them sharp and makes its steps quiet."}"#;

/// The body every request gets, set once at start.
static SERVED: std::sync::OnceLock<web::Bytes> = std::sync::OnceLock::new();

async fn fixed() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(SERVED.get().cloned().unwrap_or_default())
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let bind = args.next().unwrap_or_else(|| "127.0.0.1:18081".to_owned());
    let workers: usize = args.next().and_then(|w| w.parse().ok()).unwrap_or(1);
    let body = match args.next() {
        Some(path) => web::Bytes::from(std::fs::read(path)?),
        None => web::Bytes::from_static(BODY.as_bytes()),
    };
    SERVED.get_or_init(|| body);
    HttpServer::new(|| {
        App::new()
            .route("/facts/cat", web::get().to(fixed))
            .default_service(web::to(fixed))
    })
    .workers(workers.max(1))
    .bind(bind)?
    .run()
    .await
}
