//! Shared, read-only application state built once at start-up.

use std::sync::Arc;

use reference_db::{LoadError, ReferenceDb};

use crate::config::Settings;
use crate::routes::content::ContentState;

/// Everything a handler may read. Cheap to clone (all `Arc`s).
#[derive(Debug, Clone)]
pub struct AppState {
    /// The settings the server was started with.
    pub settings: Arc<Settings>,
    /// The metrics registry (see [`crate::metrics`]).
    pub metrics: Arc<crate::metrics::Metrics>,
    /// The rate limiter; `None` when `--rate-limit` is not given.
    pub rate_limiter: Option<Arc<crate::ratelimit::RateLimiter>>,
    // --- canvas ---
    /// Avatar fetcher, its cache and the canvas job limit.
    pub canvas: Arc<crate::routes::canvas::CanvasEngine>,
    // --- end canvas ---
    /// The creature reference; `None` when the data dir has no dataset
    /// (then `/creature/*` answers 503).
    pub reference: Option<Arc<ReferenceDb>>,
    /// Facts, links, quotes and self-hosted media (`routes::content`).
    pub content: Arc<ContentState>,
}

impl AppState {
    /// Loads every engine the settings ask for.
    ///
    /// Fails only on data that exists but is unusable; absent optional data
    /// is logged and the server runs without it.
    pub fn load(settings: Settings) -> Result<Self, StartupError> {
        let rate_limiter = crate::ratelimit::RateLimiter::from_settings(&settings)
            .map_err(|e| StartupError::Limits(e.to_string()))?
            .map(Arc::new);
        let reference = load_reference(&settings)?;
        let content = Arc::new(ContentState::load(&settings)?);
        Ok(Self {
            // --- canvas ---
            canvas: Arc::new(
                crate::routes::canvas::CanvasEngine::new(&settings)
                    .map_err(|e| StartupError::Threads(e.to_string()))?,
            ),
            // --- end canvas ---
            settings: Arc::new(settings),
            metrics: Arc::default(),
            rate_limiter,
            reference,
            content,
        })
    }
}

/// Loads `<data_dir>/reference-db.bin`: absent → a warning and `None`;
/// present but unreadable, of another format version or corrupt → error.
fn load_reference(settings: &Settings) -> Result<Option<Arc<ReferenceDb>>, StartupError> {
    let started = std::time::Instant::now();
    match ReferenceDb::load(&settings.data_dir) {
        Ok(db) => {
            let c = db.counts();
            tracing::info!(
                creatures = c.creatures,
                moves = c.moves,
                abilities = c.abilities,
                items = c.items,
                ms = started.elapsed().as_millis() as u64,
                "creature reference loaded"
            );
            Ok(Some(Arc::new(db)))
        }
        Err(LoadError::Io { path, source }) if source.kind() == std::io::ErrorKind::NotFound => {
            tracing::warn!(
                path = %path.display(),
                "creature reference data not found: /creature/* will answer 503 until `cargo xtask data` builds it"
            );
            Ok(None)
        }
        Err(e) => Err(StartupError::Data {
            what: "the creature reference",
            reason: e.to_string(),
        }),
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
    /// The rate-limit or API-key configuration is unusable.
    #[error("rate limiting: {0}")]
    Limits(String),
}
