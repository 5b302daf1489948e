//! Placeholder until the full-data checks land.
