//! Content packs: facts, image links, gif links and quotes, validated at load
//! and drawn uniformly at random.
//!
//! Knows nothing of HTTP.
