//! The work behind the routes, and start-up.
//!
//! [`AppState::load`] is the one place that builds everything from the
//! settings: the canvas engine ([`canvas`]: avatar → fetch → cache → job
//! bound → render pool → output cache), the content ([`content`]), the
//! creature reference ([`reference`](mod@reference)), the metrics registry and the rate
//! limiter. Nothing here knows about requests or responses: routes parse a
//! request, call in here and map the result to HTTP.
//!
//! Layer rule: `engine` imports the bottom modules (`config`, `error`,
//! `metrics`, `ratelimit`, `catalogue`, `conditional`, `telemetry`) and the
//! domain crates, never `routes`, `middleware`, `openapi` or `playground`
//! (tested by `xtask/src/modules.rs`).

pub mod canvas;
pub mod content;
pub mod job_slots;
pub mod reference;
pub mod render_pool;
pub mod templates;

use std::sync::Arc;

use crate::config::Settings;
use crate::metrics::Metrics;
use crate::ratelimit::RateLimiter;

use self::canvas::CanvasEngine;
use self::content::ContentState;
use self::reference::Reference;
use self::templates::FileTemplates;

/// Everything a handler may read. Cheap to clone (all `Arc`s).
#[derive(Debug, Clone)]
pub struct AppState {
    /// The settings the server was started with.
    pub settings: Arc<Settings>,
    /// The metrics registry (see [`crate::metrics`]).
    pub metrics: Arc<Metrics>,
    /// The rate limiter; `None` when `--rate-limit` is not given.
    pub rate_limiter: Option<Arc<RateLimiter>>,
    /// Avatar fetcher, its cache, the canvas job bound, the render threads
    /// and the output cache.
    pub canvas: Arc<CanvasEngine>,
    /// The creature reference; `None` when the data dir has no dataset
    /// (then `/creature/*` answers 503).
    pub reference: Option<Arc<Reference>>,
    /// Facts, links, quotes and self-hosted media.
    pub content: Arc<ContentState>,
    /// The operators' templates (`--templates`): none without a folder.
    pub templates: Arc<FileTemplates>,
}

impl AppState {
    /// Loads every engine the settings ask for.
    ///
    /// Fails only on data that exists but is unusable; absent optional data
    /// is logged and the server runs without it.
    pub fn load(settings: Settings) -> Result<Self, StartupError> {
        let metrics = Arc::new(Metrics::default());
        let rate_limiter = RateLimiter::from_settings(&settings, &metrics)
            .map_err(|e| StartupError::Limits(e.to_string()))?
            .map(Arc::new);
        let reference = reference::load(&settings)?.map(Arc::new);
        let content = Arc::new(ContentState::load(&settings)?);
        let templates = Arc::new(
            FileTemplates::load(settings.templates.as_deref(), Arc::clone(&metrics))
                .map_err(StartupError::Templates)?,
        );
        let canvas = Arc::new(
            CanvasEngine::new(&settings, Arc::clone(&metrics))
                .map_err(|e| StartupError::Threads(e.to_string()))?,
        );
        Ok(Self {
            settings: Arc::new(settings),
            metrics,
            rate_limiter,
            canvas,
            reference,
            content,
            templates,
        })
    }
}

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartupError {
    /// A data file exists but could not be loaded.
    #[error("could not load {what}: {reason}")]
    Data {
        /// Which dataset.
        what: &'static str,
        /// Why.
        reason: String,
    },
    /// The render threads could not be started.
    #[error("could not start the render threads: {0}")]
    Threads(String),
    /// The templates folder has a bad file or a name used twice: every
    /// error, one `file:line: field: message` a line.
    #[error("the templates folder cannot be served:\n{0}")]
    Templates(String),
    /// The rate-limit or API-key configuration is unusable.
    #[error("rate limiting: {0}")]
    Limits(String),
}
