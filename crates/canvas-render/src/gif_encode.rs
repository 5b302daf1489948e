//! Animated GIF output.
//!
//! - One global palette for every frame (no 768-byte local tables), with
//!   index 255 kept for transparency: pixels with alpha below 128 are
//!   transparent (GIF has one bit of alpha), so a circle keeps its corners.
//! - Up to 255 distinct colours (a greyscale or threshold output, flat art)
//!   are kept exactly, with no dithering. Otherwise the palette comes from
//!   NeuQuant (our own, `gif_encode/neuquant.rs`) trained on a sample of
//!   every frame and refined by k-means, and pixels are mapped with 8×8
//!   ordered (Bayer) dithering sized to the palette's spacing (nearest
//!   colours found by `gif_encode/palette.rs`), so gradients do not band.
//!   Ordered dithering is the same from frame to frame where the picture
//!   is, which keeps the frame differences below small. A picture placed
//!   in several frames (below) is sampled once.
//! - A frame whose visible pixels (their bounding rectangle, everything
//!   outside it transparent) are those of another frame at another place
//!   (a picture shaking on a transparent canvas) shows one picture cut out
//!   once: it is mapped once, its LZW stream encoded once and written for
//!   each such frame at that frame's place, over a canvas cleared to the
//!   background (frames disposed to the background). A caller that knows
//!   its frames are one picture at several places (a template's camera)
//!   hands over the picture and its places instead ([`encode_gif_placed`]):
//!   the same file, with no frame composed, scanned or compared. Over a
//!   backdrop (every frame full), the first frame is stored whole and each
//!   later one is the picture at its place, disposed by restoring the
//!   first.
//! - A frame with the pixels of an earlier one takes that one's indices; a
//!   frame that shows the one before moved (found by a probe,
//!   `find_shift`) copies the indices of the pixels that moved unchanged,
//!   so a shaking picture is mapped once.
//! - After the first frame, a frame only stores the rectangle that changed
//!   and marks unchanged pixels transparent; identical consecutive frames
//!   merge into one with their delays added, and a frame stored whole
//!   whose pixels come again later keeps its LZW stream for them. A frame
//!   whose successor uncovers transparency is disposed to the background.
//! - LZW is our own (`gif_encode/lzw.rs`: the `gif` crate's rules with a
//!   faster dictionary); the file structure comes from the `gif` crate.

use std::borrow::{Borrow, Cow};

use image::RgbaImage;

use crate::frames::{AnimationError, Deadline, Loops, check_frames};
use crate::patched::{PatchedFrames, copied};
use crate::placed::PlacedFrames;

mod lzw;
mod motion;
mod neuquant;
mod palette;
mod patched;
mod quantise;
mod write;

use lzw::Lzw;
use motion::*;
use palette::{Candidates, Planes};
use patched::*;
use quantise::*;
use write::*;

/// The palette index of transparent pixels.
const TRANSPARENT: u8 = 255;
/// Pixels with less alpha than this are transparent.
const ALPHA_CUTOFF: u8 = 128;
/// A lookup table cell not yet filled in (no palette index: there are at
/// most 255 colours).
const UNKNOWN: u8 = TRANSPARENT;

fn encode_error(e: gif_codec::EncodingError) -> AnimationError {
    AnimationError::Render(crate::RenderError::Encode(e.to_string()))
}

/// Encodes `frames` (all of one size, at most 65535 on a side) as an
/// animated GIF, each shown for its `delays_ms` (rounded to the GIF's
/// hundredths of a second), played `loops` times. Checks `deadline`
/// between frames.
pub fn encode_gif(
    frames: &[RgbaImage],
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    encode_gif_sampled(frames, delays_ms, loops, deadline, None)
}

/// [`encode_gif`] of frames that all show one picture's colours drawn
/// anew (an effect warping and toning an avatar): the palette is trained
/// on [`EFFECT_SAMPLE`] pixels taken evenly from all the frames, a third of
/// the sample of frames that change everywhere, since their colours
/// repeat from frame to frame. The training is most of the encoder's time
/// there.
pub(crate) fn encode_gif_effect(
    frames: &[RgbaImage],
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    encode_gif_sampled(frames, delays_ms, loops, deadline, Some(EFFECT_SAMPLE))
}

/// [`encode_gif`] with its palette trained on `sample` pixels of the
/// frames (`None`: as many as the frames' changes call for).
fn encode_gif_sampled(
    frames: &[RgbaImage],
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
    sample: Option<usize>,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = check_frames(frames, delays_ms)?;
    gif_size(w, h)?;
    let indexed = index_frames(frames, sample, deadline)?;
    write_gif((w, h), indexed, delays_ms, loops, deadline)
}

/// The canvas's sides as a GIF stores them.
fn gif_size(w: u32, h: u32) -> Result<(u16, u16), AnimationError> {
    let too_big = || AnimationError::Invalid("a GIF is at most 65535 pixels on a side");
    Ok((
        u16::try_from(w).map_err(|_| too_big())?,
        u16::try_from(h).map_err(|_| too_big())?,
    ))
}

/// Encodes an animation of one picture at a place of its own in each frame
/// ([`PlacedFrames`]) as an animated GIF, as [`encode_gif`] does the
/// composed frames: the picture is mapped and its LZW stream encoded once,
/// written at each frame's place over a canvas cleared to the background.
/// Nothing of canvas size is composed, scanned or compared. A picture that
/// does not lie inside the canvas in every frame is encoded from its
/// composed frames.
pub fn encode_gif_placed(
    placed: &PlacedFrames,
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = placed.canvas;
    let (pw, ph) = placed.picture.dimensions();
    if placed.frames.is_empty() {
        return Err(AnimationError::Invalid("no frames"));
    }
    crate::limits::check_size(w, h)?;
    gif_size(w, h)?;
    let backdrop_fits = placed
        .backdrop
        .as_ref()
        .is_none_or(|b| b.dimensions() == (w, h));
    if !placed.fits() || pw == 0 || ph == 0 || !backdrop_fits {
        let (frames, delays): (Vec<RgbaImage>, Vec<u32>) = placed.composed().into_iter().unzip();
        let encoded = encode_gif(&frames, &delays, loops, deadline);
        frames.into_iter().for_each(crate::buffers::recycle_image);
        return encoded;
    }
    if placed.backdrop.is_some() {
        return encode_placed_over_backdrop(placed, loops, deadline);
    }
    let shows: Vec<Shows> = placed
        .frames
        .iter()
        .map(|&((x, y), _)| Shows {
            picture: 0,
            placed: Some((x as usize, y as usize, pw as usize, ph as usize)),
        })
        .collect();
    let picture = [&placed.picture];
    let (colours, indexed) = match ExactColours::index(&picture, deadline)? {
        Some((exact, indexed)) => (exact.colours, indexed),
        None => {
            let frame_pixels = w as usize * h as usize;
            let size = placed_sample_size(pw as usize * ph as usize, frame_pixels, shows.len());
            let mut q = Quantised::train_on(&sample_all(&picture, size));
            deadline.check()?;
            let mut out = Vec::with_capacity(pw as usize * ph as usize);
            q.index_frame_spans(&placed.picture, None, &mut out);
            (q.colours, vec![out])
        }
    };
    deadline.check()?;
    let delays: Vec<u32> = placed.frames.iter().map(|&(_, d)| d).collect();
    write_gif((w, h), (colours, indexed, shows), &delays, loops, deadline)
}

/// [`encode_gif_placed`] over a backdrop: the first frame composed and
/// stored whole, then the picture, mapped and LZW-encoded once, written at
/// each later frame's place with transparency where it is clear, each
/// frame disposed by restoring the first ("restore to previous"), so that
/// every frame shows the first one around the picture as
/// [`PlacedFrames::frame`] composes it. Consecutive frames that show the
/// picture at one place merge, their delays added.
fn encode_placed_over_backdrop(
    placed: &PlacedFrames,
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = placed.canvas;
    let (pw, ph) = placed.picture.dimensions();
    let first = placed.frame(0);
    let pictures = [&first, &placed.picture];
    let (colours, indexed) = match ExactColours::index(&pictures, deadline)? {
        Some((exact, indexed)) => (exact.colours, indexed),
        None => {
            let mut q = Quantised::train_on(&sample_all(&pictures, BACKDROP_SAMPLE));
            deadline.check()?;
            // The picture, then the first frame taking the picture's
            // indices where it shows it.
            let mut picture = Vec::with_capacity(pw as usize * ph as usize);
            q.index_frame_spans(&placed.picture, None, &mut picture);
            deadline.check()?;
            let (x, y) = placed.frames[0].0;
            let mut whole = Vec::with_capacity(w as usize * h as usize);
            q.index_over_picture(
                &first,
                (&placed.picture, &picture),
                (x as usize, y as usize),
                &mut whole,
            );
            deadline.check()?;
            (q.colours, vec![whole, picture])
        }
    };
    crate::buffers::recycle_image(first);
    // Each shown frame: the picture's place (`None`: the first frame, whole)
    // and its delay, consecutive frames at one place merged.
    struct Shown {
        picture_at: Option<(u32, u32)>,
        at: (u32, u32),
        delay: u64,
    }
    let mut shown: Vec<Shown> = Vec::with_capacity(placed.frames.len());
    for (i, &(at, delay)) in placed.frames.iter().enumerate() {
        match shown.last_mut() {
            Some(last) if last.at == at => last.delay += u64::from(delay),
            _ => shown.push(Shown {
                picture_at: (i > 0).then_some(at),
                at,
                delay: u64::from(delay),
            }),
        }
    }
    let (gw, gh) = gif_size(w, h)?;
    let mut palette: Vec<u8> = colours.iter().flatten().copied().collect();
    palette.resize(256 * 3, 0);
    let mut lzw = Lzw::new();
    let (mut whole, mut picture) = (Vec::new(), Vec::new());
    lzw.encode(&indexed[0], &mut whole);
    if shown.len() > 1 {
        lzw.encode(&indexed[1], &mut picture);
    }
    // The file's size, known from its streams (each cut into sub-blocks of
    // 255 bytes, with a frame's headers): written into a buffer of that
    // size, not one grown (and copied) as it fills.
    let blocks = |stream: &[u8]| stream.len() + stream.len() / 255 + 32;
    let mut out = Vec::with_capacity(
        1024 + blocks(&whole) + (shown.len().saturating_sub(1)) * blocks(&picture),
    );
    {
        let mut enc = gif_codec::Encoder::new(&mut out, gw, gh, &palette).map_err(encode_error)?;
        if let Some(r) = repeat_of(loops) {
            enc.set_repeat(r).map_err(encode_error)?;
        }
        for frame in shown {
            let delay = u16::try_from((frame.delay + 5) / 10).unwrap_or(u16::MAX);
            let frame = match frame.picture_at {
                None => gif_codec::Frame {
                    width: gw,
                    height: gh,
                    delay,
                    dispose: gif_codec::DisposalMethod::Keep,
                    transparent: Some(TRANSPARENT),
                    buffer: Cow::Borrowed(&whole),
                    ..gif_codec::Frame::default()
                },
                Some((x, y)) => gif_codec::Frame {
                    left: x as u16,
                    top: y as u16,
                    width: pw as u16,
                    height: ph as u16,
                    delay,
                    dispose: gif_codec::DisposalMethod::Previous,
                    transparent: Some(TRANSPARENT),
                    buffer: Cow::Borrowed(&picture),
                    ..gif_codec::Frame::default()
                },
            };
            enc.write_lzw_pre_encoded_frame(&frame)
                .map_err(encode_error)?;
            deadline.check()?;
        }
    }
    Ok(out)
}

/// Encodes an animation given as its first frame and each later frame's
/// changed rectangle ([`PatchedFrames`]) as an animated GIF, as
/// [`encode_gif`] does the composed frames when each frame shows no earlier
/// frame's pixels but the one before's and no picture moved on a
/// transparent canvas (a still scene under a moving avatar and typed text):
/// the same palette, indices and file. The frames are followed in canvases
/// updated rectangle by rectangle; only the rectangles are compared, with
/// the frame before, and nothing is fingerprinted. Frames that hold at
/// most 256 colours, or rectangles that do not lie inside the canvas, are
/// encoded from the composed frames.
pub fn encode_gif_patched(
    patched: &PatchedFrames,
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = patched.canvas();
    if patched.frames.is_empty() {
        return Err(AnimationError::Invalid("no frames"));
    }
    crate::limits::check_size(w, h)?;
    gif_size(w, h)?;
    let delays: Vec<u32> = patched.frames.iter().map(|&(_, d)| d).collect();
    // A first frame of few colours may take the exact palette, which wants
    // every picture at once.
    if !patched.fits() || ExactColours::index(&[&patched.first], deadline)?.is_some() {
        let (frames, delays): (Vec<RgbaImage>, Vec<u32>) = patched.composed().into_iter().unzip();
        let encoded = encode_gif(&frames, &delays, loops, deadline);
        frames.into_iter().for_each(crate::buffers::recycle_image);
        return encoded;
    }
    let (indexed, changes) = index_patched(patched, deadline)?;
    let gif = write_gif_known((w, h), &indexed, &delays, loops, deadline, Some(&changes));
    // The pictures' indices, from the store, go back to it.
    indexed.1.into_iter().for_each(crate::buffers::recycle);
    gif
}

#[cfg(test)]
mod tests;
