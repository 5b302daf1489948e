//! A small deterministic generator for the scattered details of our art
//! (stars, cracks, confetti): a leaf that every art module draws from.

/// A linear congruential generator: the same seed, the same details.
pub(super) struct Lcg(pub(super) u64);

impl Lcg {
    /// The next number, in `0.0..1.0`.
    pub(super) fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32) / ((1u64 << 24) as f32)
    }
}
