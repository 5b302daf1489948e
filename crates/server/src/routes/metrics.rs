//! `GET /metrics`: reads the gauges of state owned elsewhere (cache sizes,
//! canvas jobs in flight, rate-limited clients, the process's resident
//! memory) into the registry, then renders it.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::engine::AppState;

/// Registers `GET /metrics`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::get("/metrics", metrics));
}

async fn metrics(state: web::Data<AppState>) -> HttpResponse {
    let canvas = &state.canvas;
    let (bytes, entries) = canvas.avatar_cache_size();
    state.metrics.set_avatar_cache_size(bytes, entries);
    let (bytes, entries) = canvas.output_cache_size();
    state.metrics.set_output_cache_size(bytes, entries);
    state
        .metrics
        .set_jobs_in_flight(canvas.running_jobs() as u64);
    state.metrics.set_jobs_queued(canvas.queued_jobs() as u64);
    if let Some(l) = &state.rate_limiter {
        state.metrics.set_rate_limit_clients(l.tracked() as u64);
    }
    if let Some(rss) = resident_bytes() {
        state.metrics.set_resident_memory(rss);
    }
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(state.metrics.render())
}

/// The process's resident set size (`VmRSS` of `/proc/self/status`);
/// `None` where there is no such file.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}
