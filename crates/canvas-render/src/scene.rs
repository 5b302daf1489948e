//! Scene compositions (placeholder).
