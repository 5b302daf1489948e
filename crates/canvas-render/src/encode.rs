//! PNG output, by the `png-writer` crate.

use crate::{RenderError, RgbaImage, check_size};

/// Encodes an RGBA image as PNG with fast compression.
///
/// A thin wrapper around [`png_writer::encode_rgba`], which has the
/// details: the PNG is stored in the smallest colour type that holds the
/// pixels (greyscale, greyscale + alpha, a palette indexed by one channel
/// when that channel determines the pixel, as in the output of the `red`,
/// `green` and `blue` filters, then RGB or RGBA), Paeth-filtered and
/// compressed by a deflate made for image data. Every visible pixel decodes
/// exactly; fully transparent pixels decode as transparent black, so
/// nothing hidden under alpha 0 (the corners cut off by [`circle`](crate::circle),
/// say) reaches the file.
///
/// ```
/// use canvas_render::{apply, encode_png, Filter, RgbaImage};
///
/// let img = RgbaImage::from_fn(64, 64, |x, y| {
///     image::Rgba([(x * 4) as u8, (y * 4) as u8, (x + y) as u8, 255])
/// });
/// let colour = encode_png(&img).unwrap();
/// let grey = encode_png(&apply(&Filter::Greyscale, &img).unwrap()).unwrap();
/// let red = encode_png(&apply(&Filter::Red, &img).unwrap()).unwrap();
/// assert_eq!(&grey[..8], b"\x89PNG\r\n\x1a\n");
/// assert_eq!(grey[25], 0, "colour type 0: greyscale");
/// assert_eq!(red[25], 3, "colour type 3: indexed by the red channel");
/// assert_eq!(colour[25], 2, "colour type 2: RGB (opaque)");
/// ```
///
/// # Errors
///
/// [`RenderError::EmptyImage`] or [`RenderError::TooLarge`] when the image
/// fails [`check_size`].
pub fn encode_png(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let (w, h) = img.dimensions();
    check_size(w, h)?;
    png_writer::encode_rgba(w, h, img.as_raw()).map_err(|e| RenderError::Encode(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_images_are_rejected() {
        assert_eq!(
            encode_png(&RgbaImage::new(0, 0)),
            Err(RenderError::EmptyImage)
        );
    }

    #[test]
    fn transparent_pixels_decode_as_transparent_black() {
        let img = RgbaImage::from_fn(9, 7, |x, y| {
            image::Rgba([
                (x * 20) as u8,
                (y * 30) as u8,
                90,
                if x < 3 { 0 } else { 200 },
            ])
        });
        let back = image::load_from_memory(&encode_png(&img).unwrap())
            .unwrap()
            .to_rgba8();
        for (x, y, p) in back.enumerate_pixels() {
            let want = if x < 3 { [0; 4] } else { img.get_pixel(x, y).0 };
            assert_eq!(p.0, want, "{x},{y}");
        }
    }
}
