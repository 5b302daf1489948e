//! The creature reference engine: typed records for creatures, moves,
//! abilities and items, loading of the dataset written by `cargo xtask data`,
//! lookup by name or number, and "did you mean" suggestions.
//!
//! Knows nothing of HTTP.
