//! WebP output, lossless: a still image, or an animation whose frames are
//! each a lossless `VP8L` bitstream (from the `image` crate's encoder)
//! wrapped in `ANMF` chunks of a `VP8X`/`ANIM` container, written here.

use image::RgbaImage;
use image::codecs::webp::WebPEncoder;

use crate::RenderError;
use crate::animation::{AnimationError, Deadline, Loops, check_frames};

/// Encodes `img` as a lossless WebP.
///
/// ```
/// let img = canvas_render::solid(3, 2, [10, 200, 30]).unwrap();
/// let webp = canvas_render::encode_webp(&img).unwrap();
/// assert_eq!((&webp[..4], &webp[8..12]), (&b"RIFF"[..], &b"WEBP"[..]));
/// ```
pub fn encode_webp(img: &RgbaImage) -> Result<Vec<u8>, RenderError> {
    crate::check_size(img.width(), img.height())?;
    let mut out = Vec::new();
    WebPEncoder::new_lossless(&mut out)
        .encode(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| RenderError::Encode(e.to_string()))?;
    Ok(out)
}

fn push_chunk(out: &mut Vec<u8>, kind: &[u8; 4], body: &[u8]) {
    out.extend_from_slice(kind);
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(body);
    if body.len() % 2 == 1 {
        out.push(0);
    }
}

fn u24(v: u32) -> [u8; 3] {
    let [a, b, c, _] = v.to_le_bytes();
    [a, b, c]
}

/// Encodes `frames` (all of one size, at most 16384 on a side) as an
/// animated lossless WebP, each frame shown for its `delays_ms` (at most
/// about 4.6 hours), played `loops` times (WebP counts up to 65535; more
/// is forever). Checks `deadline` between frames.
pub fn encode_webp_animation(
    frames: &[RgbaImage],
    delays_ms: &[u32],
    loops: Loops,
    deadline: &Deadline,
) -> Result<Vec<u8>, AnimationError> {
    let (w, h) = check_frames(frames, delays_ms)?;
    if w > 16384 || h > 16384 {
        return Err(AnimationError::Invalid(
            "a WebP is at most 16384 pixels on a side",
        ));
    }
    let alpha = frames
        .iter()
        .any(|f| f.as_raw().chunks_exact(4).any(|p| p[3] != 255));
    let mut body = b"WEBP".to_vec();
    let mut vp8x = vec![if alpha { 0x12 } else { 0x02 }, 0, 0, 0];
    vp8x.extend(u24(w - 1));
    vp8x.extend(u24(h - 1));
    push_chunk(&mut body, b"VP8X", &vp8x);
    let count: u16 = match loops {
        Loops::Infinite => 0,
        Loops::Times(n) => u16::try_from(n).unwrap_or(0),
    };
    let mut anim = vec![0, 0, 0, 0];
    anim.extend(count.to_le_bytes());
    push_chunk(&mut body, b"ANIM", &anim);
    for (frame, &delay) in frames.iter().zip(delays_ms) {
        let file = encode_webp(frame)?;
        // A lossless still is `RIFF <size> WEBP VP8L <len> <bitstream>`.
        let vp8l = file
            .get(12..)
            .filter(|c| c.starts_with(b"VP8L"))
            .ok_or(AnimationError::Invalid("unexpected WebP frame layout"))?;
        let mut anmf = Vec::with_capacity(16 + vp8l.len());
        anmf.extend(u24(0));
        anmf.extend(u24(0));
        anmf.extend(u24(w - 1));
        anmf.extend(u24(h - 1));
        anmf.extend(u24(delay.min(0xff_ffff)));
        // Full frames: do not blend, do not dispose.
        anmf.push(0b10);
        anmf.extend_from_slice(vp8l);
        push_chunk(&mut body, b"ANMF", &anmf);
        deadline.check()?;
    }
    let mut out = b"RIFF".to_vec();
    out.extend((body.len() as u32).to_le_bytes());
    out.extend(body);
    Ok(out)
}
