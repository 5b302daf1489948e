//! Animated avatars: every frame of an animated GIF, WebP or APNG,
//! composited to full RGBA frames, with delays and the loop count.
//!
//! The frame count and loop count are read from the container first (GIF
//! blocks, the APNG `acTL` chunk, WebP `ANIM`/`ANMF` chunks), so an
//! animation over the frame or pixel cap is refused before any frame is
//! decoded; the caps are checked again while frames are decoded, so a
//! container that lies about its count cannot get past them either.
//! Compositing (disposal, blending, frame offsets) is done by the `image`
//! crate's animation decoders for APNG and WebP, whose frames must lie
//! within the canvas; GIF frames (rectangles of any size at any offset) are
//! composited here, so that each one is checked against the caps before its
//! pixels are allocated.

use std::io::Cursor;

use image::codecs::png::PngDecoder;
use image::codecs::webp::WebPDecoder;
use image::{AnimationDecoder, ImageDecoder, ImageError, RgbaImage};

use crate::FetchError;
use crate::decode::{
    AvatarFormat, ImageLimits, decode_image, normalize, sniff_format, u24_le, u32_le,
    webp_frames_consistent,
};

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
    /// Pixels of the largest frame rectangle (a GIF's frame may be larger
    /// than its canvas, and is decoded whole before it is clipped; APNG and
    /// WebP frames must lie within the canvas: its size).
    pub largest_frame: u64,
}

fn u16_le(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_be(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at + 4)?.try_into().ok()?))
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
    let mut largest_frame = 0u64;
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
                let area = u64::from(u16_le(b, at + 5)?) * u64::from(u16_le(b, at + 7)?);
                largest_frame = largest_frame.max(area);
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
        largest_frame,
    })
}

/// Whether a GIF or WebP container shows it was cut short: a GIF whose
/// blocks run to the end of the data without the trailer (`;`), a WebP
/// whose `RIFF` size is past the end of the data. (An APNG cut short has
/// fewer frames than its `acTL` announces, which its decoder finds.)
fn is_cut(b: &[u8]) -> bool {
    match sniff_format(b) {
        Ok(AvatarFormat::Gif) => gif_trailer(b).is_none(),
        Ok(AvatarFormat::WebP) => {
            u32_le(b, 4).is_none_or(|size| u64::from(size) + 8 > b.len() as u64)
        }
        _ => false,
    }
}

/// The offset of a GIF's trailer, walking its blocks; `None` when the data
/// ends first (or a block does not parse).
fn gif_trailer(b: &[u8]) -> Option<usize> {
    let flags = *b.get(10)?;
    let mut at = 13;
    if flags & 0x80 != 0 {
        at += 3 << ((flags & 7) + 1);
    }
    loop {
        match *b.get(at)? {
            0x21 => at = skip_sub_blocks(b, at + 2)?,
            0x2c => {
                let local = *b.get(at + 9)?;
                at += 10;
                if local & 0x80 != 0 {
                    at += 3 << ((local & 7) + 1);
                }
                at = skip_sub_blocks(b, at + 1)?;
            }
            0x3b => return Some(at),
            _ => return None,
        }
    }
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
                    largest_frame: u64::from(width) * u64::from(height),
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
        largest_frame: u64::from(width) * u64::from(height),
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
/// back to its first frame. A file cut short (a GIF without its trailer, a
/// WebP shorter than its `RIFF` size, an APNG with fewer frames than its
/// `acTL` says) is [`FetchError::Corrupt`], even when a whole first frame
/// survived.
///
/// ```
/// use remote_image::{decode_avatar, ImageLimits};
/// let limits = ImageLimits::default();
/// assert!(decode_avatar(b"<html></html>", &limits).is_err());
/// ```
pub fn decode_avatar(bytes: &[u8], limits: &ImageLimits) -> Result<DecodedAvatar, FetchError> {
    // A file cut short is refused whatever survived of it (a GIF or WebP
    // cut after its first frame would otherwise pass as a still image).
    if is_cut(bytes) {
        return Err(FetchError::Corrupt);
    }
    let header = animation_header(bytes).filter(|h| h.frames > 1);
    let Some(header) = header else {
        return still(bytes, limits);
    };
    if header.width == 0 || header.height == 0 {
        return Err(FetchError::Corrupt);
    }
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

/// The `image` decoders' limits for an animation. Its allocation cap is a
/// backstop above what a valid animation of the largest side needs, never
/// the cap that applies (the header and running caps and the decode budget
/// are): the APNG decoder holds two RGBA8 canvases (the previous and the
/// current) for the whole run and, while a frame is read, its raw data and
/// its RGBA8 copy, each up to a canvas: four canvases, where a still image
/// needs at most one 16-bit RGBA buffer.
fn image_limits(limits: &ImageLimits) -> image::Limits {
    let side = u64::from(limits.max_side);
    let mut l = image::Limits::default();
    l.max_image_width = Some(limits.max_side);
    l.max_image_height = Some(limits.max_side);
    l.max_alloc = Some(4 * side * side * 4 + (16 << 20));
    l
}

/// The caps checked while frames are decoded, before a frame's pixels are
/// allocated: the frame count, and the decoded pixels so far (`pixels`,
/// this frame included).
fn check_running_caps(frames: usize, pixels: u64, limits: &ImageLimits) -> Result<(), FetchError> {
    let frames = u32::try_from(frames).unwrap_or(u32::MAX);
    if frames > limits.max_frames {
        return Err(FetchError::TooManyFrames {
            frames,
            max: limits.max_frames,
        });
    }
    if pixels > limits.max_animation_pixels {
        return Err(FetchError::AnimationTooLarge {
            pixels,
            max: limits.max_animation_pixels,
        });
    }
    Ok(())
}

/// Every composited frame, normalised, under the caps.
fn decode_frames(bytes: &[u8], limits: &ImageLimits) -> Result<Vec<AnimationFrame>, FetchError> {
    let cursor = Cursor::new(bytes);
    let frames = match sniff_format(bytes)? {
        AvatarFormat::Gif => return gif_frames(bytes, limits),
        AvatarFormat::WebP => {
            if !webp_frames_consistent(bytes) {
                return Err(FetchError::Corrupt);
            }
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
    // WebP and APNG frames are checked to lie within the canvas by their
    // decoders, so each one decodes at most a canvas of pixels.
    let mut out: Vec<AnimationFrame> = Vec::new();
    let mut pixels = 0u64;
    for frame in frames {
        let frame = frame.map_err(frame_error)?;
        let (numer, denom) = frame.delay().numer_denom_ms();
        let delay_ms = numer.checked_div(denom).unwrap_or(0);
        let image = frame.into_buffer();
        let (w, h) = image.dimensions();
        pixels += u64::from(w) * u64::from(h);
        check_running_caps(out.len() + 1, pixels, limits)?;
        out.push(AnimationFrame {
            image: normalize(image, limits.normalize_side),
            delay_ms,
        });
    }
    Ok(out)
}

fn gif_error(_: gif::DecodingError) -> FetchError {
    // The memory limit set on the decoder is never reached: frames are
    // checked against the caps before they are read.
    FetchError::Corrupt
}

/// GIF frames, composited on the logical screen as browsers (and the
/// `image` crate) do: a frame's transparent pixels show what is below, the
/// part of a frame off the screen is cropped, and the disposal method says
/// what the next frame is drawn over.
///
/// A GIF frame is a rectangle of any size at any offset, whatever the
/// screen: each frame's descriptor is checked before its pixels are
/// allocated or decoded. A rectangle side over [`ImageLimits::max_side`] is
/// refused as for a still image, and a frame counts the larger of the screen
/// and its rectangle against [`ImageLimits::max_animation_pixels`].
fn gif_frames(bytes: &[u8], limits: &ImageLimits) -> Result<Vec<AnimationFrame>, FetchError> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    // One frame's RGBA pixels at the side cap, the most allocated below.
    let frame_bytes = u64::from(limits.max_side).pow(2) * 4;
    if let Some(bytes) = std::num::NonZeroU64::new(frame_bytes) {
        options.set_memory_limit(gif::MemoryLimit::Bytes(bytes));
    }
    let mut decoder = options.read_info(bytes).map_err(gif_error)?;
    let (width, height) = (u32::from(decoder.width()), u32::from(decoder.height()));
    let screen = u64::from(width) * u64::from(height);
    // What the next frame is drawn over.
    let mut below = RgbaImage::new(width, height);
    let mut out: Vec<AnimationFrame> = Vec::new();
    let mut pixels = 0u64;
    while let Some(frame) = decoder.next_frame_info().map_err(gif_error)? {
        let (left, top) = (u32::from(frame.left), u32::from(frame.top));
        let (w, h) = (u32::from(frame.width), u32::from(frame.height));
        let dispose = frame.dispose;
        let delay_ms = u32::from(frame.delay) * 10;
        if w > limits.max_side || h > limits.max_side {
            return Err(FetchError::TooManyPixels {
                width: w,
                height: h,
                max_side: limits.max_side,
            });
        }
        pixels += screen.max(u64::from(w) * u64::from(h));
        check_running_caps(out.len() + 1, pixels, limits)?;
        let len =
            usize::try_from(u64::from(w) * u64::from(h) * 4).map_err(|_| FetchError::Corrupt)?;
        let mut rect = vec![0u8; len];
        decoder.read_into_buffer(&mut rect).map_err(gif_error)?;
        let rect = RgbaImage::from_raw(w, h, rect).ok_or(FetchError::Corrupt)?;

        let mut image = below.clone();
        // The rectangle's part on the screen (offsets and sides are u16).
        let (right, bottom) = ((left + w).min(width), (top + h).min(height));
        for y in top..bottom {
            for x in left..right {
                let p = *rect.get_pixel(x - left, y - top);
                if p.0[3] != 0 {
                    image.put_pixel(x, y, p);
                }
            }
        }
        match dispose {
            gif::DisposalMethod::Any | gif::DisposalMethod::Keep => below.clone_from(&image),
            gif::DisposalMethod::Background => {
                below.clone_from(&image);
                for y in top..bottom {
                    for x in left..right {
                        below.put_pixel(x, y, image::Rgba([0, 0, 0, 0]));
                    }
                }
            }
            gif::DisposalMethod::Previous => {}
        }
        out.push(AnimationFrame {
            image: normalize(image, limits.normalize_side),
            delay_ms,
        });
    }
    Ok(out)
}
