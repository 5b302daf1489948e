//! Memes stored smaller than designed: their places and sizes at the
//! scale they are kept at (a leaf, for the templates and their art alike).

/// `v` design pixels on a canvas stored at `k` times its design size, to
/// the nearest whole pixel (`v` ≥ 0): where a template places things on
/// such a canvas, so that its art and upright pictures land on whole
/// pixels (drawn as copies, not resampled).
pub(super) const fn at_scale(v: f32, k: f32) -> f32 {
    (v * k + 0.5) as u32 as f32
}

/// A design size at `k` times it, each side to the nearest pixel.
pub(super) const fn size_at((w, h): (u32, u32), k: f32) -> (u32, u32) {
    (at_scale(w as f32, k) as u32, at_scale(h as f32, k) as u32)
}
