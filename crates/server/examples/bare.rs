//! A bare actix-web server answering one fixed JSON body, with no
//! middleware: the baseline for `scripts/bench-middleware.sh`.
//!
//! `cargo run --release --example bare -p server -- 127.0.0.1:18190 1`
//! (address, worker count).

use actix_web::{App, HttpResponse, HttpServer, web};

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:18190".into());
    let workers: usize = args.next().and_then(|w| w.parse().ok()).unwrap_or(1);
    HttpServer::new(|| {
        App::new().route(
            "/canvas/rgb",
            web::get().to(|| async {
                HttpResponse::Ok()
                    .content_type("application/json")
                    .body(r#"{"r":75,"g":0,"b":125}"#)
            }),
        )
    })
    .workers(workers)
    .bind(addr)?
    .run()
    .await
}
