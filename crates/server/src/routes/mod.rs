//! Route table: one module per URL group, each with a `configure` function.
//!
//! A route parses its request, calls the engine ([`crate::engine`]) and maps
//! the result to HTTP; the route-building functions live in
//! [`crate::routing`].

use actix_web::web;

pub use crate::routing::{
    Group, RouteLabel, RouteName, get, group, not_found, path_config, query_config, registered,
    required,
};

pub mod canvas;
mod canvas_query;
pub mod colour;
pub mod content;
pub mod creature;
pub mod health;
pub mod metrics;
pub mod preview;

/// Registers every route of the service.
///
/// actix tries the app's routes in registration order. No two groups
/// overlap (each has its own prefix), so the order decides only how many
/// patterns a request is tested against before its own: the JSON groups
/// come first (they answer in microseconds, so the test is a visible share
/// of their cost), the canvas images (milliseconds each) and the rarely
/// requested pages last.
pub fn configure(cfg: &mut web::ServiceConfig) {
    content::configure(cfg);
    creature::configure(cfg);
    colour::configure(cfg);
    canvas::configure(cfg);
    preview::configure(cfg);
    health::configure(cfg);
    metrics::configure(cfg);
    crate::openapi::configure(cfg);
    crate::playground::configure(cfg);
}
