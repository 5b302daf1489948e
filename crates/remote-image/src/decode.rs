//! Sniffing, bounded decoding and normalising of image bytes.
//!
//! The format comes from the magic bytes only (a `Content-Type` header is
//! never trusted). The pixel cap is checked from the header, before any
//! pixel buffer is allocated; the `image` crate's [`image::Limits`] are set
//! as a second line of defence.

use std::io::Cursor;

use image::{DynamicImage, ImageDecoder, ImageError, ImageFormat, ImageReader, RgbaImage};

use crate::FetchError;

/// Limits applied when decoding an avatar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImageLimits {
    /// The largest accepted width and height, in pixels, read from the
    /// header before decoding. Default: 4096 (so at most 4096×4096).
    pub max_side: u32,
    /// Decoded images whose longer side exceeds this are downscaled (aspect
    /// kept, area averaging) once, before caching, so that every filter
    /// works on at most `normalize_side`² pixels. Default: 1024.
    pub normalize_side: u32,
    /// The most frames an animated avatar may have, read from its container
    /// before decoding and checked again while decoding. Default: 256.
    pub max_frames: u32,
    /// The most decoded pixels an animated avatar may have in all (frames ×
    /// width × height of its canvas, before normalising; a GIF frame whose
    /// rectangle is larger than the canvas counts the rectangle). Default:
    /// 32 Mi (128 MiB of RGBA), e.g. 128 frames of 512×512.
    pub max_animation_pixels: u64,
}

impl Default for ImageLimits {
    fn default() -> Self {
        Self {
            max_side: 4096,
            normalize_side: 1024,
            max_frames: 256,
            max_animation_pixels: 32 << 20,
        }
    }
}

/// The image formats this crate accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AvatarFormat {
    /// PNG (`\x89PNG\r\n\x1a\n`).
    Png,
    /// JPEG (`FF D8 FF`).
    Jpeg,
    /// GIF 87a/89a; [`decode_image`] gives the first frame,
    /// [`decode_avatar`](crate::decode_avatar) every frame.
    Gif,
    /// WebP (`RIFF....WEBP`), lossy or lossless, still or animated.
    WebP,
}

impl AvatarFormat {
    fn image_format(self) -> ImageFormat {
        match self {
            Self::Png => ImageFormat::Png,
            Self::Jpeg => ImageFormat::Jpeg,
            Self::Gif => ImageFormat::Gif,
            Self::WebP => ImageFormat::WebP,
        }
    }
}

/// Signatures of image formats we recognise but refuse (BMP, TIFF, ICO,
/// AVIF/HEIF, JPEG XL, QOI, SVG/XML).
fn is_other_image(bytes: &[u8]) -> bool {
    let ftyp = bytes.len() >= 12 && &bytes[4..8] == b"ftyp";
    bytes.starts_with(b"BM")
        || bytes.starts_with(b"II*\0")
        || bytes.starts_with(b"MM\0*")
        || bytes.starts_with(&[0, 0, 1, 0])
        || (ftyp
            && matches!(
                &bytes[8..12],
                b"avif" | b"avis" | b"heic" | b"heix" | b"mif1"
            ))
        || bytes.starts_with(&[0xff, 0x0a])
        || bytes.starts_with(b"\0\0\0\x0cJXL ")
        || bytes.starts_with(b"qoif")
        || bytes.starts_with(b"<svg")
        || bytes.starts_with(b"<?xml")
}

/// The format of `bytes`, from its magic bytes.
///
/// ```
/// use remote_image::{sniff_format, AvatarFormat, FetchError};
/// assert_eq!(sniff_format(b"GIF89a...."), Ok(AvatarFormat::Gif));
/// assert_eq!(sniff_format(b"<html>"), Err(FetchError::NotAnImage));
/// assert_eq!(sniff_format(b"BM\0\0"), Err(FetchError::UnsupportedFormat));
/// ```
pub fn sniff_format(bytes: &[u8]) -> Result<AvatarFormat, FetchError> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        Ok(AvatarFormat::Png)
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        Ok(AvatarFormat::Jpeg)
    } else if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        Ok(AvatarFormat::Gif)
    } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        Ok(AvatarFormat::WebP)
    } else if is_other_image(bytes) {
        Err(FetchError::UnsupportedFormat)
    } else {
        Err(FetchError::NotAnImage)
    }
}

/// The size an image declares in its header, read from the bytes without a
/// decoder, for the formats whose decoders cannot report it before failing
/// on a huge value: PNG (the `IHDR` chunk; the `image` crate refuses a huge
/// `IHDR` before it tells the size) and GIF (the logical screen *and* the
/// first frame, which may be larger than the screen and is what gets
/// decoded). `None` for other formats or a header cut short.
fn declared_dimensions(format: AvatarFormat, bytes: &[u8]) -> Option<(u32, u32)> {
    match format {
        AvatarFormat::Png => png_dimensions(bytes),
        AvatarFormat::Gif => gif_dimensions(bytes),
        AvatarFormat::Jpeg | AvatarFormat::WebP => None,
    }
}

/// Width and height of a PNG's `IHDR` (the first chunk, right after the
/// signature).
fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    if bytes.get(12..16)? != b"IHDR" {
        return None;
    }
    let be = |at: usize| {
        bytes
            .get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    Some((be(16)?, be(20)?))
}

/// A GIF's extent: the logical screen, grown to hold the first frame
/// (`left + width`, `top + height` of its image descriptor) when that frame
/// is larger. Extensions before the frame are skipped; without a frame in
/// `bytes`, the screen alone.
fn gif_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    let le = |at: usize| {
        bytes
            .get(at..at + 2)
            .map(|b| u32::from(u16::from_le_bytes([b[0], b[1]])))
    };
    let (screen_w, screen_h) = (le(6)?, le(8)?);
    let flags = *bytes.get(10)?;
    let mut at = 13;
    if flags & 0x80 != 0 {
        at += 3 << ((flags & 0x07) + 1);
    }
    loop {
        match bytes.get(at) {
            // Extension: introducer, label, then data sub-blocks up to a zero length.
            Some(0x21) => {
                at += 2;
                loop {
                    let len = usize::from(*bytes.get(at)?);
                    at += 1 + len;
                    if len == 0 {
                        break;
                    }
                }
            }
            // Image descriptor: left, top, width, height.
            Some(0x2c) => {
                let (left, top, w, h) = (le(at + 1), le(at + 3), le(at + 5), le(at + 7));
                return Some(match (left, top, w, h) {
                    (Some(left), Some(top), Some(w), Some(h)) => {
                        (screen_w.max(left + w), screen_h.max(top + h))
                    }
                    _ => (screen_w, screen_h),
                });
            }
            _ => return Some((screen_w, screen_h)),
        }
    }
}

/// Whether a PNG's `IHDR` declares Adam7 interlacing (its last byte).
pub(crate) fn png_interlaced(bytes: &[u8]) -> bool {
    bytes.get(12..16) == Some(b"IHDR") && bytes.get(28).is_some_and(|&m| m != 0)
}

/// A little-endian `u32` at `at`, if the bytes are there.
pub(crate) fn u32_le(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// A little-endian 24-bit number at `at`, if the bytes are there.
pub(crate) fn u24_le(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 3)?;
    Some(u32::from(s[0]) | u32::from(s[1]) << 8 | u32::from(s[2]) << 16)
}

/// Whether every `ANMF` frame of a WebP made of an `ALPH` chunk and lossy
/// data declares, in its `VP8 ` key-frame header, the frame's own size.
///
/// The `image-webp` decoder (0.2.4) decodes such a frame without comparing
/// the two sizes, and indexes out of bounds when they differ or when the
/// lossy data is missing (image-rs/image-webp#182 and #186), so these
/// frames are refused before any decoder sees them. Frames without alpha,
/// lossless frames and still images are left to the decoder, which checks
/// them.
pub(crate) fn webp_frames_consistent(b: &[u8]) -> bool {
    let mut at = 12;
    while let (Some(kind), Some(len)) = (b.get(at..at + 4), u32_le(b, at + 4)) {
        let Ok(len) = usize::try_from(len) else {
            return true;
        };
        if kind == b"ANMF" && !anmf_consistent(b, at + 8) {
            return false;
        }
        match (at + 8)
            .checked_add(len)
            .and_then(|n| n.checked_add(len & 1))
        {
            Some(next) => at = next,
            None => return true,
        }
    }
    true
}

/// The check of [`webp_frames_consistent`] for the `ANMF` body at `at`:
/// offsets, size less one and duration (3 bytes each), flags, then the
/// frame's chunks.
fn anmf_consistent(b: &[u8], at: usize) -> bool {
    let (Some(w), Some(h)) = (u24_le(b, at + 6), u24_le(b, at + 9)) else {
        return true;
    };
    let alph = at + 16;
    if b.get(alph..alph + 4) != Some(b"ALPH".as_slice()) {
        return true;
    }
    // The decoder takes whatever chunk follows `ALPH` as the lossy data.
    let vp8 = u32_le(b, alph + 4)
        .and_then(|len| usize::try_from(len).ok())
        .and_then(|len| (alph + 8).checked_add(len)?.checked_add(len & 1));
    let Some(vp8) = vp8 else {
        return false;
    };
    let header = b.get(vp8..vp8 + 18);
    let Some(header) = header else {
        return false;
    };
    let le14 = |i: usize| u32::from(u16::from_le_bytes([header[i], header[i + 1]]) & 0x3fff);
    &header[..4] == b"VP8 "
        && u32_le(header, 4).is_some_and(|len| len >= 10)
        // A key frame (bit 0 clear), its start code, then width and height.
        && header[8] & 1 == 0
        && header[11..14] == [0x9d, 0x01, 0x2a]
        && (le14(14), le14(16)) == (w + 1, h + 1)
}

fn map_image_error(err: ImageError, width: u32, height: u32, max_side: u32) -> FetchError {
    match err {
        ImageError::Unsupported(_) => FetchError::UnsupportedFormat,
        // A decoder's internal buffers tripped `max_alloc`: too big for us.
        ImageError::Limits(_) => FetchError::TooManyPixels {
            width,
            height,
            max_side,
        },
        _ => FetchError::Corrupt,
    }
}

/// Decodes `bytes` into RGBA8 under `limits`, without normalising.
///
/// The header is parsed first and its dimensions are checked against
/// [`ImageLimits::max_side`]; only then are pixels decoded. GIF and
/// animated WebP give their first frame.
///
/// ```
/// use remote_image::{decode_image, FetchError, ImageLimits};
/// let limits = ImageLimits::default();
/// assert_eq!(decode_image(b"<html></html>", &limits), Err(FetchError::NotAnImage));
/// ```
pub fn decode_image(bytes: &[u8], limits: &ImageLimits) -> Result<RgbaImage, FetchError> {
    let (decoder, _, width, height) = open_decoder(bytes, limits)?;
    let image = DynamicImage::from_decoder(decoder)
        .map_err(|e| map_image_error(e, width, height, limits.max_side))?;
    Ok(image.into_rgba8())
}

/// Sniffs the format, checks the declared size and parses the header only:
/// the decoder, ready to decode under the limits, and the size.
pub(crate) fn open_decoder<'a>(
    bytes: &'a [u8],
    limits: &ImageLimits,
) -> Result<(impl ImageDecoder + 'a, AvatarFormat, u32, u32), FetchError> {
    let format = sniff_format(bytes)?;
    if format == AvatarFormat::WebP && !webp_frames_consistent(bytes) {
        return Err(FetchError::Corrupt);
    }
    let max_side = limits.max_side;
    let declared = declared_dimensions(format, bytes);
    // Refused from the header bytes, before any decoder allocates.
    match declared {
        Some((width, height)) if width > max_side || height > max_side => {
            return Err(FetchError::TooManyPixels {
                width,
                height,
                max_side,
            });
        }
        _ => {}
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format.image_format());
    // RGBA at 16 bits per channel of the largest accepted image, plus slack
    // for a decoder's working buffers.
    let side = u64::from(max_side);
    let mut image_limits = image::Limits::default();
    image_limits.max_alloc = Some(side * side * 8 + (16 << 20));
    reader.limits(image_limits.clone());

    // Parses the header only.
    let (known_w, known_h) = declared.unwrap_or((0, 0));
    let mut decoder = reader
        .into_decoder()
        .map_err(|e| map_image_error(e, known_w, known_h, max_side))?;
    let (width, height) = declared.unwrap_or(decoder.dimensions());
    if width > max_side || height > max_side {
        return Err(FetchError::TooManyPixels {
            width,
            height,
            max_side,
        });
    }
    if width == 0 || height == 0 {
        return Err(FetchError::Corrupt);
    }
    image_limits.max_image_width = Some(max_side);
    image_limits.max_image_height = Some(max_side);
    decoder
        .set_limits(image_limits)
        .map_err(|e| map_image_error(e, width, height, max_side))?;
    Ok((decoder, format, width, height))
}

/// Downscales `image` so that its longer side is at most `max_side`
/// (aspect ratio kept, area averaging); smaller images are returned as is.
pub fn normalize(image: RgbaImage, max_side: u32) -> RgbaImage {
    let (w, h) = image.dimensions();
    let long = w.max(h);
    if long <= max_side || max_side == 0 {
        return image;
    }
    let scale = f64::from(max_side) / f64::from(long);
    let nw = ((f64::from(w) * scale).round() as u32).clamp(1, max_side);
    let nh = ((f64::from(h) * scale).round() as u32).clamp(1, max_side);
    // Area averaging: as smooth as a triangle filter when shrinking, and
    // several times faster (measured in benches/remote_image.rs).
    image::imageops::thumbnail(&image, nw, nh)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = RgbaImage::from_pixel(w, h, image::Rgba([10, 20, 30, 255]));
        let mut out = Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn decodes_png() {
        let img = decode_image(&png(3, 2), &ImageLimits::default()).unwrap();
        assert_eq!(img.dimensions(), (3, 2));
        assert_eq!(img.get_pixel(2, 1).0, [10, 20, 30, 255]);
    }

    #[test]
    fn refuses_dimensions_from_header() {
        let limits = ImageLimits {
            max_side: 8,
            normalize_side: 8,
            ..ImageLimits::default()
        };
        let err = decode_image(&png(9, 2), &limits).unwrap_err();
        assert!(matches!(err, FetchError::TooManyPixels { .. }), "{err:?}");
    }

    #[test]
    fn truncated_png_is_corrupt() {
        let bytes = png(64, 64);
        let err = decode_image(&bytes[..bytes.len() / 2], &ImageLimits::default()).unwrap_err();
        assert_eq!(err, FetchError::Corrupt);
    }

    #[test]
    fn sniffs_every_format() {
        assert_eq!(sniff_format(&png(1, 1)), Ok(AvatarFormat::Png));
        assert_eq!(
            sniff_format(&[0xff, 0xd8, 0xff, 0xe0]),
            Ok(AvatarFormat::Jpeg)
        );
        assert_eq!(sniff_format(b"GIF87a"), Ok(AvatarFormat::Gif));
        assert_eq!(
            sniff_format(b"RIFF\0\0\0\0WEBPVP8 "),
            Ok(AvatarFormat::WebP)
        );
        assert_eq!(
            sniff_format(b"RIFF\0\0\0\0WAVE"),
            Err(FetchError::NotAnImage)
        );
        assert_eq!(sniff_format(b"II*\0"), Err(FetchError::UnsupportedFormat));
        assert_eq!(
            sniff_format(b"<svg xmlns="),
            Err(FetchError::UnsupportedFormat)
        );
        assert_eq!(sniff_format(b""), Err(FetchError::NotAnImage));
    }

    #[test]
    fn normalize_keeps_aspect_and_bound() {
        let img = RgbaImage::new(2000, 1000);
        let out = normalize(img, 1024);
        assert_eq!(out.dimensions(), (1024, 512));
        let small = RgbaImage::new(100, 50);
        assert_eq!(normalize(small, 1024).dimensions(), (100, 50));
    }
}
