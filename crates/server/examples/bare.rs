//! Baseline for the content benchmark (`scripts/bench-content.sh`): a bare
//! actix-web server whose only handler returns a fixed JSON body of the
//! size of a typical `/facts/cat` answer. No state, no routing table, no
//! middleware.
//!
//! `cargo run --release -p server --example bare -- 127.0.0.1:18081 1`
//! (address, worker count).

use actix_web::{App, HttpResponse, HttpServer, web};

const BODY: &str = r#"{"fact":"A cat normally keeps its claws sheathed while walking, which keeps them sharp and makes its steps quiet."}"#;

async fn fixed() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(BODY)
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let bind = args.next().unwrap_or_else(|| "127.0.0.1:18081".to_owned());
    let workers: usize = args.next().and_then(|w| w.parse().ok()).unwrap_or(1);
    HttpServer::new(|| App::new().route("/facts/cat", web::get().to(fixed)))
        .workers(workers.max(1))
        .bind(bind)?
        .run()
        .await
}
