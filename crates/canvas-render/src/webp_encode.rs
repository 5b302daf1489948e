//! WebP output through libwebp (the `webp-animation` crate's safe
//! wrapper): lossy colour at a [`WebpQuality`] (85 unless asked) with a
//! lossless alpha plane, for a still image or an animation.
//!
//! An animation goes through libwebp's animation encoder, which stores each
//! frame after the first as the rectangle that changed (blended over the
//! previous frame, or over a cleared one, whichever is smaller), keeps the
//! previous frame's pixels where the new ones are within 3 levels a
//! channel (alpha equal), and drops a frame that changes no pixel by more,
//! adding its time to the frame before. No key frames are forced: an
//! avatar plays from its start.

use image::RgbaImage;
use webp_animation::{
    AnimParams, ColorMode, Encoder, EncoderOptions, EncodingConfig, EncodingType,
    LossyEncodingConfig,
};

use crate::RenderError;
use crate::frames::{AnimationError, Deadline, Loops, check_frames};

/// The lossy quality of a WebP's colour, 1–100 on libwebp's scale: lower
/// is smaller and blurrier. Alpha is kept exact at every quality.
///
/// The default, 85, is where gradients and text on the cards show no
/// banding or blocking (75 shows 8 × 8 blocks on smooth backgrounds); the
/// 60-frame avatars of docs/benchmarks-history/sharp.md come out at a sixth
/// of their GIF and a tenth of lossless WebP.
///
/// ```
/// use canvas_render::WebpQuality;
///
/// assert_eq!(WebpQuality::default().get(), 85);
/// assert_eq!(WebpQuality::new(40).map(WebpQuality::get), Some(40));
/// assert!(WebpQuality::new(0).is_none() && WebpQuality::new(101).is_none());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WebpQuality(u8);

impl WebpQuality {
    /// Quality 85.
    pub const DEFAULT: Self = Self(85);
    /// The least quality, 1.
    pub const MIN: Self = Self(1);
    /// The greatest quality, 100 (still lossy: see [`encode_webp_lossless`]).
    pub const MAX: Self = Self(100);

    /// `quality` when it is within 1–100.
    pub const fn new(quality: u8) -> Option<Self> {
        if quality >= Self::MIN.0 && quality <= Self::MAX.0 {
            Some(Self(quality))
        } else {
            None
        }
    }

    /// The quality, 1–100.
    pub const fn get(self) -> u8 {
        self.0
    }
}

impl Default for WebpQuality {
    fn default() -> Self {
        Self::DEFAULT
    }
}

/// The largest side a WebP can have.
const MAX_SIDE: u32 = 16384;

/// The size of a still to encode: within the crate's bounds and a WebP's
/// largest side.
fn still_size(img: &RgbaImage) -> Result<(u32, u32), RenderError> {
    crate::limits::check_size(img.width(), img.height())?;
    let (w, h) = img.dimensions();
    if w > MAX_SIDE || h > MAX_SIDE {
        return Err(RenderError::Encode(
            "a WebP is at most 16384 pixels on a side".to_owned(),
        ));
    }
    Ok((w, h))
}

/// libwebp's settings for every picture and frame: lossy colour at
/// `quality`, method 4 (libwebp's default speed/size balance; the
/// wrapper leaves libwebp's default in place whatever `method` says), and
/// the alpha plane compressed losslessly (`alpha_quality` 100), so
/// transparent corners stay exactly transparent and opaque areas exactly
/// opaque.
fn config(quality: WebpQuality) -> EncodingConfig {
    EncodingConfig {
        encoding_type: EncodingType::Lossy(LossyEncodingConfig {
            alpha_quality: 100,
            alpha_compression: true,
            ..LossyEncodingConfig::default()
        }),
        quality: f32::from(quality.get()),
        method: 4,
    }
}

fn encoder_with(
    w: u32,
    h: u32,
    loop_count: i32,
    config: EncodingConfig,
) -> Result<Encoder, webp_animation::Error> {
    Encoder::new_with_options(
        (w, h),
        EncoderOptions {
            anim_params: AnimParams { loop_count },
            // No forced key frames: each frame after the first is a
            // sub-rectangle over the previous one.
            kmin: 0,
            kmax: 0,
            minimize_size: false,
            allow_mixed: false,
            verbose: false,
            color_mode: ColorMode::Rgba,
            encoding_config: Some(config),
        },
    )
}

fn encode_error(e: webp_animation::Error) -> RenderError {
    RenderError::Encode(format!("WebP: {e}"))
}

/// Encodes `img` as a still lossy WebP (libwebp, quality 85, method 4) with
/// a lossless alpha plane: colours are close to the image's, not equal;
/// alpha is exact. [`encode_webp_at`] takes another quality.
///
/// ```
/// let img = canvas_render::solid(3, 2, [10, 200, 30]).unwrap();
/// let webp = canvas_render::encode_webp(&img).unwrap();
/// assert_eq!((&webp[..4], &webp[8..12]), (&b"RIFF"[..], &b"WEBP"[..]));
/// ```
pub fn encode_webp(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    encode_webp_at(img, WebpQuality::DEFAULT)
}

/// [`encode_webp`] with the colour at `quality`.
///
/// ```
/// use canvas_render::{WebpQuality, encode_webp_at, solid};
///
/// let img = solid(64, 64, [10, 200, 30]).unwrap();
/// let low = encode_webp_at(&img, WebpQuality::MIN).unwrap();
/// assert_eq!((&low[..4], &low[8..12]), (&b"RIFF"[..], &b"WEBP"[..]));
/// ```
pub fn encode_webp_at(img: &RgbaImage, quality: WebpQuality) -> Result<Vec<u8>, RenderError> {
    let (w, h) = still_size(img)?;
    // A one-frame animation: libwebp writes it as a plain still WebP.
    let mut enc = encoder_with(w, h, 0, config(quality)).map_err(encode_error)?;
    enc.add_frame(img.as_raw(), 0).map_err(encode_error)?;
    let webp = enc.finalize(1).map_err(encode_error)?;
    Ok(webp.to_vec())
}

/// Encodes `img` as a still lossless WebP (libwebp's defaults: effort 75,
/// method 4): every pixel exact. The server answers lossy WebP
/// ([`encode_webp`]); this is the other side of that choice, measured by
/// the server's `webp_bytes` example.
///
/// ```
/// let img = canvas_render::solid(3, 2, [10, 200, 30]).unwrap();
/// let webp = canvas_render::encode_webp_lossless(&img).unwrap();
/// let back = image::load_from_memory(&webp).unwrap().to_rgba8();
/// assert_eq!(back, img);
/// ```
pub fn encode_webp_lossless(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    let (w, h) = still_size(img)?;
    let lossless = EncodingConfig {
        encoding_type: EncodingType::Lossless,
        quality: 75.0,
        method: 4,
    };
    let mut enc = encoder_with(w, h, 0, lossless).map_err(encode_error)?;
    enc.add_frame(img.as_raw(), 0).map_err(encode_error)?;
    let webp = enc.finalize(1).map_err(encode_error)?;
    Ok(webp.to_vec())
}

/// Encodes `frames` (all of one size, at most 16384 on a side) as an
/// animated lossy WebP through libwebp's animation encoder: colour at
/// quality 85 (close to the frames, not equal), alpha lossless, each frame
/// after the first stored as the rectangle that changed.
///
/// Each frame is shown for its `delays_ms` (a 0 ms delay is written as
/// 1 ms, the least that keeps the frame; a frame within 3 levels a channel
/// of the one before, alpha equal, is merged into it, its time added), and
/// the animation plays
/// `loops` times (WebP counts up to 65535; more is forever). The delays
/// add up to at most `i32::MAX` ms. Checks `deadline` between frames.
/// [`WebpAnimationWriter`] makes the same file from frames given one at a
/// time.
pub fn encode_webp_animation(
    frames: &[RgbaImage],
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = check_frames(frames, delays_ms)?;
    let mut writer = WebpAnimationWriter::new(w, h, loops)?;
    for (frame, &delay) in frames.iter().zip(delays_ms) {
        writer.add_frame(frame, delay)?;
        deadline.check()?;
    }
    writer.finish()
}

/// An animated WebP made one frame at a time, so a caller that renders
/// frames need not hold them all: libwebp keeps what it needs of the
/// previous frames and the encoded bitstream, and each frame can be
/// dropped once added. Gives the same file as [`encode_webp_animation`] of
/// the same frames.
///
/// ```
/// use canvas_render::{Loops, solid, animation::WebpAnimationWriter};
///
/// let mut webp = WebpAnimationWriter::new(8, 8, Loops::Infinite).unwrap();
/// for colour in [[200, 10, 10], [10, 10, 200]] {
///     webp.add_frame(&solid(8, 8, colour).unwrap(), 100).unwrap();
/// }
/// let bytes = webp.finish().unwrap();
/// assert_eq!((&bytes[..4], &bytes[8..12]), (&b"RIFF"[..], &b"WEBP"[..]));
/// ```
pub struct WebpAnimationWriter {
    encoder: Encoder,
    size: (u32, u32),
    /// When the next frame starts, in ms.
    timestamp: i32,
    frames: usize,
}

impl std::fmt::Debug for WebpAnimationWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WebpAnimationWriter")
            .field("size", &self.size)
            .field("timestamp", &self.timestamp)
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

impl WebpAnimationWriter {
    /// A writer of `width`×`height` frames (within the crate's limits, at
    /// most 16384 on a side) playing `loops` times, colour at quality 85.
    pub fn new(width: u32, height: u32, loops: Loops) -> Result<Self, AnimationError> {
        Self::with_quality(width, height, loops, WebpQuality::DEFAULT)
    }

    /// [`WebpAnimationWriter::new`] with the colour at `quality`.
    pub fn with_quality(
        width: u32,
        height: u32,
        loops: Loops,
        quality: WebpQuality,
    ) -> Result<Self, AnimationError> {
        crate::limits::check_size(width, height)?;
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(AnimationError::Invalid(
                "a WebP is at most 16384 pixels on a side",
            ));
        }
        let loop_count = match loops {
            Loops::Infinite => 0,
            Loops::Times(n) => u16::try_from(n).map_or(0, i32::from),
        };
        let encoder =
            encoder_with(width, height, loop_count, config(quality)).map_err(encode_error)?;
        Ok(Self {
            encoder,
            size: (width, height),
            timestamp: 0,
            frames: 0,
        })
    }

    /// Adds `frame` (of the writer's size), shown for `delay_ms` (0 is
    /// written as 1 ms).
    pub fn add_frame(&mut self, frame: &RgbaImage, delay_ms: u32) -> Result<(), AnimationError> {
        if frame.dimensions() != self.size {
            return Err(AnimationError::Invalid("frames differ in size"));
        }
        self.encoder
            .add_frame(frame.as_raw(), self.timestamp)
            .map_err(encode_error)?;
        let delay = i32::try_from(delay_ms.max(1)).unwrap_or(i32::MAX);
        self.timestamp = self
            .timestamp
            .checked_add(delay)
            .ok_or(AnimationError::Invalid(
                "the frame delays add up to more than a WebP can time",
            ))?;
        self.frames += 1;
        Ok(())
    }

    /// The WebP file (an error when no frame was added).
    pub fn finish(self) -> Result<Vec<u8>, AnimationError> {
        if self.frames == 0 {
            return Err(AnimationError::Invalid("no frames"));
        }
        let webp = self
            .encoder
            .finalize(self.timestamp)
            .map_err(encode_error)?;
        Ok(webp.to_vec())
    }
}
