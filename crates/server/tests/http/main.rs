//! In-process HTTP tests: the real application built by `create_app`, driven
//! through `actix_web::test`, asserting status, headers and JSON; and the
//! `menagerie` binary's start-up (`binary`), and three of its processes
//! sharing rate limits through a real Redis (`shared_limit`).

mod animated;
mod binary;
mod book;
mod canvas;
mod captions;
mod catalogue;
mod colour;
mod content;
mod creature;
mod creature_full;
mod custom;
mod effects;
mod errors;
mod hygiene;
mod logging;
mod memes_one;
mod memory_bound;
mod message;
mod metrics;
mod monitoring;
mod negotiation;
mod openapi;
mod pair_memes;
mod playground;
mod previews;
mod rankcard;
mod ratelimit;
mod shared_limit;
mod support;
mod templates;
mod welcome;
