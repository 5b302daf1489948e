//! A bare actix-web server: one handler answering a fixed small JSON body.
//!
//! It is the baseline of `cargo xtask loadtest`: the same HTTP stack and
//! worker count as `menagerie`, with none of its work, so the load test can
//! report each route's throughput as a ratio of what actix itself manages on
//! the same machine in the same run.
//!
//! ```sh
//! cargo run --release -p server --example bare -- 127.0.0.1:8091 2
//! ```
//! Arguments: the address to bind (default `127.0.0.1:8091`) and the number
//! of workers (default: one per core).

use actix_web::{App, HttpResponse, HttpServer, web};

async fn hello() -> HttpResponse {
    HttpResponse::Ok().json(serde_json::json!({ "status": "ok" }))
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let bind = args.next().unwrap_or_else(|| "127.0.0.1:8091".to_owned());
    let workers = args.next().and_then(|w| w.parse::<usize>().ok());
    let mut server = HttpServer::new(|| App::new().route("/", web::get().to(hello))).bind(bind)?;
    if let Some(w) = workers {
        server = server.workers(w.max(1));
    }
    server.run().await
}
