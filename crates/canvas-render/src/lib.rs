//! Image filters and compositions for avatar-based images.
//!
//! `canvas-render` does no IO and never reads system fonts: images in,
//! images out, typed errors. Every size is checked before any allocation.
//!
//! ```
//! let img = canvas_render::solid(4, 4, [75, 0, 125]).unwrap();
//! assert_eq!(img.get_pixel(3, 3).0, [75, 0, 125, 255]);
//! let png = canvas_render::encode_png(&img).unwrap();
//! assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
//! ```
#![warn(missing_docs)]

mod encode;
mod error;

pub use encode::encode_png;
pub use error::RenderError;
pub use image::RgbaImage;

/// The largest width or height this crate will allocate, in pixels.
pub const MAX_DIMENSION: u32 = 8192;
/// The largest pixel count (width × height) this crate will allocate.
pub const MAX_PIXELS: u64 = 4096 * 4096 * 2;

/// Checks a requested canvas size against [`MAX_DIMENSION`] and [`MAX_PIXELS`].
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
pub fn solid(width: u32, height: u32, rgb: [u8; 3]) -> Result<RgbaImage, RenderError> {
    check_size(width, height)?;
    let [r, g, b] = rgb;
    Ok(RgbaImage::from_pixel(
        width,
        height,
        image::Rgba([r, g, b, 255]),
    ))
}
