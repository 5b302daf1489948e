//! PNG output, by the `png-writer` crate.

use std::cell::RefCell;

use crate::limits::check_size;
use crate::{RenderError, RgbaImage};

/// Working buffers each thread's PNG encoder keeps between images, at most
/// (a 1024 × 1024 image's copy without hidden colour plus its repacked
/// pixels fit); past it they are freed after the image.
const KEEP_ENCODER_BYTES: usize = 8 << 20;

thread_local! {
    static ENCODER: RefCell<png_writer::Encoder> = const { RefCell::new(png_writer::Encoder::new()) };
}

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

/// Encodes like [`encode_png`] (the same bytes) into `out`, replacing its
/// contents and reusing its capacity; each thread keeps its encoder's
/// working buffers (up to 8 MiB) for the next image. With
/// [`buffers::take_empty`](crate::buffers::take_empty) for `out` and
/// [`buffers::recycle`](crate::buffers::recycle) when the file has been
/// sent, encoding one image after another allocates no image-sized memory.
///
/// ```
/// use canvas_render::{buffers, encode_png, encode_png_into};
///
/// let img = canvas_render::solid(300, 300, [10, 20, 30]).unwrap();
/// let mut out = buffers::take_empty(300 * 300 * 2);
/// encode_png_into(&img, &mut out).unwrap();
/// assert_eq!(out, encode_png(&img).unwrap());
/// buffers::recycle(out);
/// ```
pub fn encode_png_into(img: &RgbaImage, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let (w, h) = img.dimensions();
    out.clear();
    check_size(w, h)?;
    ENCODER
        .with_borrow_mut(|encoder| {
            let done = encoder.encode_rgba_into(w, h, img.as_raw(), out);
            if encoder.retained_bytes() > KEEP_ENCODER_BYTES {
                *encoder = png_writer::Encoder::new();
            }
            done
        })
        .map_err(|e| RenderError::Encode(e.to_string()))
}

/// Encodes like [`encode_png_into`] (the same bytes), for a caller that
/// owns the image and has no further use for what its fully transparent
/// pixels hide: their colour is cleared in `img` itself instead of in a
/// copy of the whole image (visible pixels are left as they are).
///
/// ```
/// use canvas_render::{buffers, encode_png, encode_png_in_place_into, RgbaImage};
///
/// let img = RgbaImage::from_fn(40, 30, |x, y| {
///     image::Rgba([(x * 6) as u8, (y * 8) as u8, 90, if x < 4 { 0 } else { 255 }])
/// });
/// let mut owned = img.clone();
/// let mut out = buffers::take_empty(40 * 30 * 2);
/// encode_png_in_place_into(&mut owned, &mut out).unwrap();
/// assert_eq!(out, encode_png(&img).unwrap());
/// assert_eq!(owned.get_pixel(0, 0).0, [0, 0, 0, 0], "hidden colour cleared");
/// assert_eq!(owned.get_pixel(4, 0), img.get_pixel(4, 0));
/// ```
///
/// # Errors
///
/// As [`encode_png`].
pub fn encode_png_in_place_into(img: &mut RgbaImage, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let (w, h) = img.dimensions();
    out.clear();
    check_size(w, h)?;
    ENCODER
        .with_borrow_mut(|encoder| {
            let done = encoder.encode_rgba_in_place_into(w, h, img, out);
            if encoder.retained_bytes() > KEEP_ENCODER_BYTES {
                *encoder = png_writer::Encoder::new();
            }
            done
        })
        .map_err(|e| RenderError::Encode(e.to_string()))
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
