//! What decoding an avatar costs in memory, read from its header before
//! any pixel is decoded: the decode gate's budget and a job's weight.
//!
//! Above both `decode` (the decoder and its header checks) and `animation`
//! (the container's frame count), which it reads.

use image::ImageDecoder;

use crate::FetchError;
use crate::animation::animation_header;
use crate::decode::{AvatarFormat, ImageLimits, open_decoder, png_interlaced};

/// The bytes of memory decoding `bytes` takes at its peak, from the header
/// alone: the decoded pixels at their real depth (a 16-bit PNG holds 8 bytes
/// per RGBA pixel), the RGBA8 copy made from them when the image is not
/// RGBA8 already, for an interlaced PNG an allowance for the deinterlacing
/// scratch (a quarter of the decoded pixels, which puts a 16-bit 4096²
/// image at 228 MiB, the top of the 190–230 MiB such a decode was seen to
/// take), and the normalised copy (at most
/// `normalize_side`² × 4); for an animation (two frames or more) also every
/// composited RGBA8 frame at the canvas size. Errors are those [`decode_image`](crate::decode_image) would give for the
/// header (format, size).
///
/// ```
/// use remote_image::{decode_cost, ImageLimits};
/// # use std::io::Cursor;
/// # let mut png = Cursor::new(Vec::new());
/// # image::RgbaImage::new(100, 100).write_to(&mut png, image::ImageFormat::Png).unwrap();
/// let cost = decode_cost(png.get_ref(), &ImageLimits::default()).unwrap();
/// assert_eq!(cost, 2 * 100 * 100 * 4); // the RGBA8 pixels and their normalised copy
/// ```
pub fn decode_cost(bytes: &[u8], limits: &ImageLimits) -> Result<u64, FetchError> {
    let (decoder, format, width, height) = open_decoder(bytes, limits)?;
    let native = decoder.total_bytes();
    let rgba8 = u64::from(width) * u64::from(height) * 4;
    let conversion = if decoder.color_type() == image::ColorType::Rgba8 {
        0
    } else {
        rgba8
    };
    let interlace = if format == AvatarFormat::Png && png_interlaced(bytes) {
        native / 4
    } else {
        0
    };
    let side = u64::from(limits.normalize_side);
    let normalised = rgba8.min(side * side * 4);
    // An animation also holds every composited frame (RGBA8, canvas size),
    // and while one is decoded its rectangle (RGBA8; a GIF's may be larger
    // than the canvas).
    let frames = match animation_header(bytes) {
        Some(h) if h.frames > 1 => {
            (u64::from(h.frames) * u64::from(h.width) * u64::from(h.height) + h.largest_frame) * 4
        }
        _ => 0,
    };
    Ok(native + conversion + interlace + normalised + frames)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::RgbaImage::from_pixel(w, h, image::Rgba([10, 20, 30, 255]));
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, image::ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn decode_cost_counts_the_real_buffers() {
        use fixture_host::png_announcing_depth;
        const MIB: u64 = 1 << 20;
        let limits = ImageLimits::default();
        let cost = |png: Vec<u8>| decode_cost(&png, &limits).unwrap();
        // RGBA8: the pixels and the 1024² normalised copy.
        assert_eq!(
            cost(png_announcing_depth(4096, 4096, 8, false)),
            64 * MIB + 4 * MIB
        );
        // 16-bit: 128 MiB of pixels, the 64 MiB RGBA8 copy, the normalised copy.
        assert_eq!(cost(png_announcing_depth(4096, 4096, 16, false)), 196 * MIB);
        // Interlaced: plus the deinterlacing scratch; within the 190-230 MiB
        // such a decode was seen to take, well over the 128 MiB of
        // `max_side`² × 8.
        let worst = cost(png_announcing_depth(4096, 4096, 16, true));
        assert_eq!(worst, 228 * MIB);
        // Small images cost little.
        assert_eq!(cost(png(3, 2)), 2 * 3 * 2 * 4);
        // A refused header is refused here too, before any allocation.
        assert!(matches!(
            decode_cost(&png_announcing_depth(4097, 8, 8, false), &limits),
            Err(FetchError::TooManyPixels { width: 4097, .. })
        ));
    }
}
