//! What the template tests share: arguments from name–value pairs and a
//! sample avatar with a gradient in two directions.

use image::RgbaImage;

use super::{Args, Template};
use crate::RenderError;

/// `t`'s arguments from `(name, value)` pairs (the others absent).
pub(super) fn args_from(t: &Template, pairs: &[(&str, &str)]) -> Result<Args, RenderError> {
    t.args(|n| pairs.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
}

/// A 300 × 200 opaque avatar: red grows across, green down.
pub(super) fn gradient_avatar() -> RgbaImage {
    RgbaImage::from_fn(300, 200, |x, y| {
        image::Rgba([(x % 256) as u8, (y % 256) as u8, 160, 255])
    })
}
