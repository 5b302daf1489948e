//! `GET /health`: liveness and what is loaded.

use actix_web::{HttpResponse, web};
use serde_json::json;

use crate::engine::AppState;

/// Registers `/health`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::get("/health", health));
}

async fn health(_state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .insert_header(("Cache-Control", "no-store"))
        .json(json!({
            "status": "ok",
            "version": env!("CARGO_PKG_VERSION"),
        }))
}
