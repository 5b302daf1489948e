//! Shared, read-only application state built once at start-up.

use std::sync::Arc;

use crate::config::Settings;

/// Everything a handler may read. Cheap to clone (all `Arc`s).
#[derive(Debug, Clone)]
pub struct AppState {
    /// The settings the server was started with.
    pub settings: Arc<Settings>,
}

impl AppState {
    /// Loads every engine the settings ask for.
    ///
    /// Fails only on data that exists but is unusable; absent optional data
    /// is logged and the server runs without it.
    pub fn load(settings: Settings) -> Result<Self, StartupError> {
        Ok(Self {
            settings: Arc::new(settings),
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
}
