//! The size limits every allocation of this crate is checked against, and
//! the plainest image made within them: a leaf every module may use.

use image::RgbaImage;

use crate::error::RenderError;

/// The largest width or height this crate will allocate, in pixels.
pub const MAX_DIMENSION: u32 = 8192;
/// The largest pixel count (width × height) this crate will allocate.
pub const MAX_PIXELS: u64 = 4096 * 4096 * 2;

/// Checks a requested canvas size against [`MAX_DIMENSION`] and [`MAX_PIXELS`].
///
/// Every function of this crate calls it on its input and output sizes before
/// allocating, so callers only need it to reject work early.
///
/// ```
/// use canvas_render::{check_size, RenderError};
///
/// assert!(check_size(512, 512).is_ok());
/// assert_eq!(check_size(0, 10), Err(RenderError::EmptyImage));
/// assert!(matches!(check_size(100_000, 1), Err(RenderError::TooLarge { .. })));
/// ```
pub fn check_size(width: u32, height: u32) -> Result<(), RenderError> {
    if width == 0 || height == 0 {
        return Err(RenderError::EmptyImage);
    }
    if width > MAX_DIMENSION
        || height > MAX_DIMENSION
        || u64::from(width) * u64::from(height) > MAX_PIXELS
    {
        return Err(RenderError::TooLarge { width, height });
    }
    Ok(())
}

/// An opaque image of one colour.
///
/// ```
/// let img = canvas_render::solid(2, 3, [255, 0, 0]).unwrap();
/// assert_eq!((img.width(), img.height()), (2, 3));
/// ```
pub fn solid(width: u32, height: u32, rgb: [u8; 3]) -> Result<RgbaImage, RenderError> {
    check_size(width, height)?;
    let [r, g, b] = rgb;
    Ok(RgbaImage::from_pixel(
        width,
        height,
        image::Rgba([r, g, b, 255]),
    ))
}
