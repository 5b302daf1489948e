//! Animated avatars: every frame of an animated GIF, WebP or APNG,
//! composited to full RGBA frames, with delays and the loop count.
//!
//! The frame count and loop count are read from the container first (GIF
//! blocks, the APNG `acTL` chunk, WebP `ANIM`/`ANMF` chunks), so an
//! animation over the frame or pixel cap is refused before any frame is
//! decoded; the caps are checked again while frames are decoded, so a
//! container that lies about its count cannot get past them either.
//! Compositing (disposal, blending, frame offsets) is done by the `image`
//! crate's animation decoders.

use std::io::Cursor;

use image::codecs::gif::GifDecoder;
use image::codecs::png::PngDecoder;
use image::codecs::webp::WebPDecoder;
use image::{AnimationDecoder, ImageDecoder, ImageError, RgbaImage};

use crate::FetchError;
use crate::decode::{AvatarFormat, ImageLimits, decode_image, normalize, sniff_format};

/// How many times an animation plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LoopCount {
    /// Forever (GIF `NETSCAPE2.0` loop count 0, APNG/WebP loop count 0).
    Infinite,
    /// This many times in all (at least 1). A GIF without a looping
    /// extension plays once; a GIF loop count of `n` plays `n + 1` times.
    Times(u32),
}

/// One composited frame of an animation.
#[derive(Debug, Clone)]
pub struct AnimationFrame {
    /// The whole canvas after this frame was drawn, RGBA8, normalised like
    /// a still avatar.
    pub image: RgbaImage,
    /// How long the frame shows, in milliseconds.
    pub delay_ms: u32,
}

/// Every frame of an animated avatar (at least two).
#[derive(Debug, Clone)]
pub struct Animation {
    /// The frames in order; all of one size.
    pub frames: Vec<AnimationFrame>,
    /// How many times the animation plays.
    pub loops: LoopCount,
}

impl Animation {
    /// Bytes of RGBA pixels held by the frames.
    pub fn pixel_bytes(&self) -> usize {
        self.frames.iter().map(|f| f.image.as_raw().len()).sum()
    }
}

/// A decoded, normalised avatar: its first (or only) frame, and every
/// frame when it is animated.
#[derive(Debug, Clone)]
pub struct DecodedAvatar {
    /// The first frame, exactly what [`decode_image`] and [`normalize`]
    /// give.
    pub still: RgbaImage,
    /// Every frame, when the image has two frames or more.
    pub animation: Option<Animation>,
}

/// What the container says about an animation before any pixel is decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AnimationHeader {
    /// Frames announced (GIF and WebP: counted; APNG: `acTL`).
    pub frames: u32,
    /// Canvas width and height.
    pub width: u32,
    /// Canvas height.
    pub height: u32,
    /// The loop count.
    pub loops: LoopCount,
}

fn u16_le(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_be(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u32_le(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u24_le(b: &[u8], at: usize) -> Option<u32> {
    let s = b.get(at..at + 3)?;
    Some(u32::from(s[0]) | u32::from(s[1]) << 8 | u32::from(s[2]) << 16)
}

/// Skips GIF data sub-blocks starting at `at`; the offset after the
/// terminator.
fn skip_sub_blocks(b: &[u8], mut at: usize) -> Option<usize> {
    loop {
        let len = usize::from(*b.get(at)?);
        at += 1;
        if len == 0 {
            return Some(at);
        }
        at += len;
    }
}

/// GIF: walks the blocks, counting image descriptors and reading the
/// `NETSCAPE2.0` loop count. A truncated file counts the frames seen.
fn gif_header(b: &[u8]) -> Option<AnimationHeader> {
    let width = u32::from(u16_le(b, 6)?);
    let height = u32::from(u16_le(b, 8)?);
    let flags = *b.get(10)?;
    let mut at = 13;
    if flags & 0x80 != 0 {
        at += 3 << ((flags & 7) + 1);
    }
    let mut frames = 0u32;
    let mut loops = LoopCount::Times(1);
    while let Some(&block) = b.get(at) {
        match block {
            0x21 => {
                let label = *b.get(at + 1)?;
                if label == 0xff
                    && b.get(at + 2) == Some(&11)
                    && b.get(at + 3..at + 14) == Some(b"NETSCAPE2.0".as_slice())
                    && b.get(at + 14) == Some(&3)
                    && b.get(at + 15) == Some(&1)
                {
                    loops = match u16_le(b, at + 16)? {
                        0 => LoopCount::Infinite,
                        n => LoopCount::Times(u32::from(n) + 1),
                    };
                }
                at = skip_sub_blocks(b, at + 2)?;
            }
            0x2c => {
                frames += 1;
                let local = *b.get(at + 9)?;
                at += 10;
                if local & 0x80 != 0 {
                    at += 3 << ((local & 7) + 1);
                }
                // LZW minimum code size, then the data sub-blocks.
                match skip_sub_blocks(b, at + 1) {
                    Some(next) => at = next,
                    None => break,
                }
            }
            _ => break,
        }
    }
    Some(AnimationHeader {
        frames,
        width,
        height,
        loops,
    })
}

/// APNG: the `IHDR` size and the `acTL` chunk (frame count, plays), if any
/// comes before the first `IDAT`.
fn apng_header(b: &[u8]) -> Option<AnimationHeader> {
    let width = u32_be(b, 16)?;
    let height = u32_be(b, 20)?;
    let mut at = 8;
    while at + 8 <= b.len() {
        let len = usize::try_from(u32_be(b, at)?).ok()?;
        let kind = b.get(at + 4..at + 8)?;
        match kind {
            b"acTL" => {
                let frames = u32_be(b, at + 8)?;
                let loops = match u32_be(b, at + 12)? {
                    0 => LoopCount::Infinite,
                    n => LoopCount::Times(n),
                };
                return Some(AnimationHeader {
                    frames,
                    width,
                    height,
                    loops,
                });
            }
            b"IDAT" | b"IEND" => return None,
            _ => at = at.checked_add(12)?.checked_add(len)?,
        }
    }
    None
}

/// WebP: `VP8X` canvas size, the `ANIM` loop count and the `ANMF` chunks.
fn webp_header(b: &[u8]) -> Option<AnimationHeader> {
    let mut at = 12;
    let (mut width, mut height) = (0, 0);
    let mut loops = None;
    let mut frames = 0u32;
    while at + 8 <= b.len() {
        let kind = b.get(at..at + 4)?;
        let len = usize::try_from(u32_le(b, at + 4)?).ok()?;
        match kind {
            b"VP8X" => {
                width = u24_le(b, at + 12)? + 1;
                height = u24_le(b, at + 15)? + 1;
            }
            b"ANIM" => {
                loops = Some(match u16_le(b, at + 12)? {
                    0 => LoopCount::Infinite,
                    n => LoopCount::Times(u32::from(n)),
                });
            }
            b"ANMF" => frames += 1,
            _ => {}
        }
        // Chunks are padded to an even length.
        at = at.checked_add(8)?.checked_add(len)?.checked_add(len & 1)?;
    }
    Some(AnimationHeader {
        frames,
        width,
        height,
        loops: loops?,
    })
}

/// The animation header of `bytes`, or `None` for a still image (a PNG
/// without `acTL`, a WebP without `ANIM`, a JPEG) or an unreadable one.
///
/// ```
/// use remote_image::{animation_header, LoopCount};
/// // A GIF header, no frames yet.
/// let gif = b"GIF89a\x02\x00\x03\x00\x00\x00\x00;";
/// let header = animation_header(gif).unwrap();
/// assert_eq!((header.frames, header.width, header.height), (0, 2, 3));
/// assert_eq!(header.loops, LoopCount::Times(1));
/// ```
pub fn animation_header(bytes: &[u8]) -> Option<AnimationHeader> {
    match sniff_format(bytes).ok()? {
        AvatarFormat::Gif => gif_header(bytes),
        AvatarFormat::Png => apng_header(bytes),
        AvatarFormat::WebP => webp_header(bytes),
        AvatarFormat::Jpeg => None,
    }
}

/// Refuses an animation over the frame or decoded-pixel cap.
fn check_caps(
    frames: u32,
    width: u32,
    height: u32,
    limits: &ImageLimits,
) -> Result<(), FetchError> {
    if frames > limits.max_frames {
        return Err(FetchError::TooManyFrames {
            frames,
            max: limits.max_frames,
        });
    }
    let pixels = u64::from(frames) * u64::from(width) * u64::from(height);
    if pixels > limits.max_animation_pixels {
        return Err(FetchError::AnimationTooLarge {
            pixels,
            max: limits.max_animation_pixels,
        });
    }
    Ok(())
}

fn frame_error(err: ImageError) -> FetchError {
    match err {
        ImageError::Unsupported(_) => FetchError::UnsupportedFormat,
        _ => FetchError::Corrupt,
    }
}

/// Decodes `bytes` with every frame when it is animated.
///
/// A still image (or an animation of one frame) gives exactly what
/// [`decode_image`] then [`normalize`] give, with no animation. An
/// animation is checked against [`ImageLimits::max_frames`] and
/// [`ImageLimits::max_animation_pixels`] from its header and again while
/// decoding; each frame is composited over the previous ones and
/// normalised. An APNG the compositor cannot handle (16-bit colour) falls
/// back to its first frame.
///
/// ```
/// use remote_image::{decode_avatar, ImageLimits};
/// let limits = ImageLimits::default();
/// assert!(decode_avatar(b"<html></html>", &limits).is_err());
/// ```
pub fn decode_avatar(bytes: &[u8], limits: &ImageLimits) -> Result<DecodedAvatar, FetchError> {
    let header = animation_header(bytes).filter(|h| h.frames > 1);
    let Some(header) = header else {
        return still(bytes, limits);
    };
    // The still path checks the side cap from the header.
    if header.width > limits.max_side || header.height > limits.max_side {
        return Err(FetchError::TooManyPixels {
            width: header.width,
            height: header.height,
            max_side: limits.max_side,
        });
    }
    check_caps(header.frames, header.width, header.height, limits)?;
    let frames = match decode_frames(bytes, limits) {
        Ok(frames) => frames,
        Err(FetchError::UnsupportedFormat) if sniff_format(bytes) == Ok(AvatarFormat::Png) => {
            return still(bytes, limits);
        }
        Err(e) => return Err(e),
    };
    if frames.len() < 2 {
        return still(bytes, limits);
    }
    let still_image = frames[0].image.clone();
    Ok(DecodedAvatar {
        still: still_image,
        animation: Some(Animation {
            frames,
            loops: header.loops,
        }),
    })
}

fn still(bytes: &[u8], limits: &ImageLimits) -> Result<DecodedAvatar, FetchError> {
    let image = decode_image(bytes, limits)?;
    Ok(DecodedAvatar {
        still: normalize(image, limits.normalize_side),
        animation: None,
    })
}

fn image_limits(limits: &ImageLimits) -> image::Limits {
    let side = u64::from(limits.max_side);
    let mut l = image::Limits::default();
    l.max_image_width = Some(limits.max_side);
    l.max_image_height = Some(limits.max_side);
    l.max_alloc = Some(side * side * 8 + (16 << 20));
    l
}

/// Every composited frame, normalised, under the caps.
fn decode_frames(bytes: &[u8], limits: &ImageLimits) -> Result<Vec<AnimationFrame>, FetchError> {
    let cursor = Cursor::new(bytes);
    let frames = match sniff_format(bytes)? {
        AvatarFormat::Gif => {
            let mut d = GifDecoder::new(cursor).map_err(frame_error)?;
            d.set_limits(image_limits(limits)).map_err(frame_error)?;
            d.into_frames()
        }
        AvatarFormat::WebP => {
            let mut d = WebPDecoder::new(cursor).map_err(frame_error)?;
            d.set_limits(image_limits(limits)).map_err(frame_error)?;
            d.into_frames()
        }
        AvatarFormat::Png => PngDecoder::with_limits(cursor, image_limits(limits))
            .and_then(PngDecoder::apng)
            .map_err(frame_error)?
            .into_frames(),
        AvatarFormat::Jpeg => return Err(FetchError::UnsupportedFormat),
    };
    let mut out: Vec<AnimationFrame> = Vec::new();
    for frame in frames {
        let frame = frame.map_err(frame_error)?;
        let (numer, denom) = frame.delay().numer_denom_ms();
        let delay_ms = numer.checked_div(denom).unwrap_or(0);
        let image = frame.into_buffer();
        let (w, h) = image.dimensions();
        check_caps(
            u32::try_from(out.len() + 1).unwrap_or(u32::MAX),
            w,
            h,
            limits,
        )?;
        out.push(AnimationFrame {
            image: normalize(image, limits.normalize_side),
            delay_ms,
        });
    }
    Ok(out)
}
