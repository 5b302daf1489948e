//! Animated avatars, from hand-made fixtures built here: frame timings,
//! disposal, transparency, loop counts, a one-frame GIF and animations
//! over the caps, in GIF, APNG and WebP.

use std::borrow::Cow;
use std::io::Cursor;

use image::{ImageFormat, Rgba, RgbaImage};
use remote_image::{
    Animation, FetchError, ImageLimits, LoopCount, animation_header, decode_avatar, decode_image,
    normalize,
};

const RED: [u8; 3] = [255, 0, 0];
const GREEN: [u8; 3] = [0, 255, 0];
const BLUE: [u8; 3] = [0, 0, 255];

/// One GIF frame: a rectangle of one palette index (or the transparent
/// index 3), its delay in centiseconds and disposal.
struct GifFrame {
    rect: (u16, u16, u16, u16),
    index: u8,
    delay_cs: u16,
    dispose: gif::DisposalMethod,
}

/// A GIF of `w`×`h` with the palette red, green, blue, (transparent).
fn gif_bytes(w: u16, h: u16, repeat: Option<gif::Repeat>, frames: &[GifFrame]) -> Vec<u8> {
    let palette: Vec<u8> = [RED, GREEN, BLUE, [0, 0, 0]].concat();
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w, h, &palette).unwrap();
        if let Some(r) = repeat {
            enc.set_repeat(r).unwrap();
        }
        for f in frames {
            let (left, top, fw, fh) = f.rect;
            let frame = gif::Frame {
                left,
                top,
                width: fw,
                height: fh,
                delay: f.delay_cs,
                dispose: f.dispose,
                transparent: Some(3),
                buffer: Cow::Owned(vec![f.index; usize::from(fw) * usize::from(fh)]),
                ..gif::Frame::default()
            };
            enc.write_frame(&frame).unwrap();
        }
    }
    out
}

fn full(w: u16, h: u16, index: u8, delay_cs: u16) -> GifFrame {
    GifFrame {
        rect: (0, 0, w, h),
        index,
        delay_cs,
        dispose: gif::DisposalMethod::Keep,
    }
}

/// Every frame of `bytes`, decoded under the default limits.
fn animation_of(bytes: &[u8]) -> Animation {
    decode_avatar(bytes, &ImageLimits::default())
        .unwrap()
        .animation
        .expect("an animation")
}

fn rgba(c: [u8; 3]) -> [u8; 4] {
    [c[0], c[1], c[2], 255]
}

#[test]
fn gif_frames_keep_their_delays_and_loop_count() {
    let frames = [full(4, 4, 0, 10), full(4, 4, 1, 20), full(4, 4, 2, 70)];
    let bytes = gif_bytes(4, 4, Some(gif::Repeat::Infinite), &frames);
    let decoded = decode_avatar(&bytes, &ImageLimits::default()).unwrap();
    let anim = decoded.animation.expect("three frames animate");
    let delays: Vec<u32> = anim.frames.iter().map(|f| f.delay_ms).collect();
    assert_eq!(delays, [100, 200, 700]);
    assert_eq!(anim.loops, LoopCount::Infinite);
    let firsts: Vec<[u8; 4]> = anim
        .frames
        .iter()
        .map(|f| f.image.get_pixel(1, 1).0)
        .collect();
    assert_eq!(firsts, [rgba(RED), rgba(GREEN), rgba(BLUE)]);
    // The still image is the first frame.
    assert_eq!(decoded.still, anim.frames[0].image);

    let twice = gif_bytes(4, 4, Some(gif::Repeat::Finite(2)), &frames);
    let anim = animation_of(&twice);
    assert_eq!(anim.loops, LoopCount::Times(3), "loop count 2 = 3 plays");
    let once = gif_bytes(4, 4, None, &frames);
    let anim = animation_of(&once);
    assert_eq!(anim.loops, LoopCount::Times(1));
}

#[test]
fn gif_disposal_and_transparency_composite() {
    let frames = [
        // Red everywhere.
        full(4, 4, 0, 5),
        // Green top-left 2x2, then restored to background (transparent).
        GifFrame {
            rect: (0, 0, 2, 2),
            index: 1,
            delay_cs: 5,
            dispose: gif::DisposalMethod::Background,
        },
        // Blue bottom-right 1x1, kept; the rest shows through.
        GifFrame {
            rect: (3, 3, 1, 1),
            index: 2,
            delay_cs: 5,
            dispose: gif::DisposalMethod::Keep,
        },
        // A fully transparent frame changes nothing.
        full(4, 4, 3, 5),
    ];
    let bytes = gif_bytes(4, 4, Some(gif::Repeat::Infinite), &frames);
    let anim = animation_of(&bytes);
    assert_eq!(anim.frames.len(), 4);
    let px = |i: usize, x: u32, y: u32| anim.frames[i].image.get_pixel(x, y).0;
    assert_eq!(px(1, 0, 0), rgba(GREEN));
    assert_eq!(px(1, 3, 3), rgba(RED));
    // Frame 2: the green rectangle was disposed to transparent.
    assert_eq!(px(2, 0, 0)[3], 0);
    assert_eq!(px(2, 2, 2), rgba(RED));
    assert_eq!(px(2, 3, 3), rgba(BLUE));
    // Frame 3 is transparent: it shows frame 2 unchanged.
    assert_eq!(anim.frames[3].image, anim.frames[2].image);
    for f in &anim.frames {
        assert_eq!(f.image.dimensions(), (4, 4));
    }
}

#[test]
fn a_one_frame_gif_stays_a_still_avatar() {
    let bytes = gif_bytes(5, 3, Some(gif::Repeat::Infinite), &[full(5, 3, 2, 10)]);
    let limits = ImageLimits::default();
    let decoded = decode_avatar(&bytes, &limits).unwrap();
    assert!(decoded.animation.is_none());
    let still = normalize(
        decode_image(&bytes, &limits).unwrap(),
        limits.normalize_side,
    );
    assert_eq!(decoded.still, still);
    assert_eq!(animation_header(&bytes).unwrap().frames, 1);
}

#[test]
fn a_still_png_decodes_as_before() {
    let img = RgbaImage::from_fn(3, 2, |x, y| Rgba([x as u8 * 40, y as u8 * 90, 7, 255]));
    let mut png = Cursor::new(Vec::new());
    img.write_to(&mut png, ImageFormat::Png).unwrap();
    let decoded = decode_avatar(png.get_ref(), &ImageLimits::default()).unwrap();
    assert!(decoded.animation.is_none());
    assert_eq!(decoded.still, img);
    assert!(animation_header(png.get_ref()).is_none());
}

#[test]
fn gifs_over_the_caps_are_refused_naming_the_limit() {
    let frames: Vec<GifFrame> = (0..12).map(|i| full(8, 8, i % 3, 4)).collect();
    let bytes = gif_bytes(8, 8, Some(gif::Repeat::Infinite), &frames);
    let few_frames = ImageLimits {
        max_frames: 10,
        ..ImageLimits::default()
    };
    let err = decode_avatar(&bytes, &few_frames).unwrap_err();
    assert_eq!(
        err,
        FetchError::TooManyFrames {
            frames: 12,
            max: 10
        }
    );
    assert!(err.to_string().contains("max_frames"), "{err}");

    let few_pixels = ImageLimits {
        max_animation_pixels: 700,
        ..ImageLimits::default()
    };
    let err = decode_avatar(&bytes, &few_pixels).unwrap_err();
    assert_eq!(
        err,
        FetchError::AnimationTooLarge {
            pixels: 12 * 64,
            max: 700
        }
    );
    assert!(err.to_string().contains("max_animation_pixels"), "{err}");
    // At the caps exactly, it decodes.
    let exact = ImageLimits {
        max_frames: 12,
        max_animation_pixels: 12 * 64,
        ..ImageLimits::default()
    };
    assert_eq!(
        decode_avatar(&bytes, &exact)
            .unwrap()
            .animation
            .unwrap()
            .frames
            .len(),
        12
    );
}

#[test]
fn animated_frames_are_normalised() {
    let frames = [full(40, 20, 0, 4), full(40, 20, 1, 4)];
    let bytes = gif_bytes(40, 20, None, &frames);
    let limits = ImageLimits {
        normalize_side: 10,
        ..ImageLimits::default()
    };
    let decoded = decode_avatar(&bytes, &limits).unwrap();
    for f in &decoded.animation.unwrap().frames {
        assert_eq!(f.image.dimensions(), (10, 5));
    }
    assert_eq!(decoded.still.dimensions(), (10, 5));
}

/// An APNG of 4x4 frames: (colour rectangle, dispose, blend, delay ms).
fn apng_bytes(plays: u32, frames: &[([u8; 4], png::DisposeOp, png::BlendOp, u16)]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, 4, 4);
        enc.set_color(png::ColorType::Rgba);
        enc.set_animated(frames.len() as u32, plays).unwrap();
        let mut w = enc.write_header().unwrap();
        for (i, (colour, dispose, blend, delay)) in frames.iter().enumerate() {
            w.set_frame_delay(*delay, 1000).unwrap();
            w.set_dispose_op(*dispose).unwrap();
            w.set_blend_op(*blend).unwrap();
            // The first frame covers the canvas; the others its top half.
            let h = if i == 0 { 4 } else { 2 };
            if i > 0 {
                w.set_frame_dimension(4, h).unwrap();
            }
            let data: Vec<u8> = std::iter::repeat_n(*colour, 4 * h as usize)
                .flatten()
                .collect();
            w.write_image_data(&data).unwrap();
        }
        w.finish().unwrap();
    }
    out
}

#[test]
fn apng_blending_disposal_and_plays() {
    use png::{BlendOp, DisposeOp};
    let half_green = [0, 255, 0, 128];
    let bytes = apng_bytes(
        2,
        &[
            ([255, 0, 0, 255], DisposeOp::None, BlendOp::Source, 50),
            (half_green, DisposeOp::Previous, BlendOp::Over, 120),
            ([0, 0, 255, 255], DisposeOp::None, BlendOp::Source, 30),
        ],
    );
    let header = animation_header(&bytes).unwrap();
    assert_eq!((header.frames, header.loops), (3, LoopCount::Times(2)));
    let anim = animation_of(&bytes);
    let delays: Vec<u32> = anim.frames.iter().map(|f| f.delay_ms).collect();
    assert_eq!(delays, [50, 120, 30]);
    let top = anim.frames[1].image.get_pixel(0, 0).0;
    // Half green over red: both channels near half.
    assert!(
        (120..=136).contains(&top[0]) && (120..=136).contains(&top[1]),
        "{top:?}"
    );
    assert!(top[3] >= 254, "{top:?}");
    assert_eq!(anim.frames[1].image.get_pixel(0, 3).0, [255, 0, 0, 255]);
    // Frame 1 was disposed to the previous state: frame 2 draws blue over red.
    assert_eq!(anim.frames[2].image.get_pixel(0, 0).0, [0, 0, 255, 255]);
    assert_eq!(anim.frames[2].image.get_pixel(0, 3).0, [255, 0, 0, 255]);
}

/// The `VP8L` chunk of a lossless WebP of `img`.
fn vp8l_chunk(img: &RgbaImage) -> Vec<u8> {
    let mut file = Vec::new();
    image::codecs::webp::WebPEncoder::new_lossless(&mut file)
        .encode(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgba8,
        )
        .unwrap();
    assert_eq!(&file[12..16], b"VP8L");
    file[12..].to_vec()
}

fn chunk(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut c = kind.to_vec();
    c.extend_from_slice(&(body.len() as u32).to_le_bytes());
    c.extend_from_slice(body);
    if body.len() % 2 == 1 {
        c.push(0);
    }
    c
}

fn u24(v: u32) -> [u8; 3] {
    let b = v.to_le_bytes();
    [b[0], b[1], b[2]]
}

/// An animated WebP of full-canvas frames with delays in ms.
fn webp_bytes(loops: u16, frames: &[(RgbaImage, u32)]) -> Vec<u8> {
    let placed: Vec<_> = frames
        .iter()
        .map(|(img, delay)| (img.clone(), 0, 0, *delay))
        .collect();
    webp_placed(frames[0].0.dimensions(), loops, &placed)
}

/// An animated WebP on a `canvas`, one frame per (image, x / 2, y / 2,
/// delay in ms), neither blended nor disposed.
fn webp_placed(canvas: (u32, u32), loops: u16, frames: &[(RgbaImage, u32, u32, u32)]) -> Vec<u8> {
    let mut vp8x = vec![0x12, 0, 0, 0];
    vp8x.extend(u24(canvas.0 - 1));
    vp8x.extend(u24(canvas.1 - 1));
    let mut anim = vec![0, 0, 0, 0];
    anim.extend(loops.to_le_bytes());
    let mut body = b"WEBP".to_vec();
    body.extend(chunk(b"VP8X", &vp8x));
    body.extend(chunk(b"ANIM", &anim));
    for (img, x, y, delay) in frames {
        let mut f = Vec::new();
        f.extend(u24(*x));
        f.extend(u24(*y));
        f.extend(u24(img.width() - 1));
        f.extend(u24(img.height() - 1));
        f.extend(u24(*delay));
        f.push(0b10); // no blending, no disposal
        f.extend(vp8l_chunk(img));
        body.extend(chunk(b"ANMF", &f));
    }
    let mut out = b"RIFF".to_vec();
    out.extend((body.len() as u32).to_le_bytes());
    out.extend(body);
    out
}

#[test]
fn animated_webp_frames_delays_and_loops() {
    let a = RgbaImage::from_pixel(6, 4, Rgba([255, 0, 0, 255]));
    let b = RgbaImage::from_fn(6, 4, |x, _| Rgba([0, 0, 255, if x < 3 { 255 } else { 0 }]));
    let bytes = webp_bytes(4, &[(a.clone(), 80), (b.clone(), 250)]);
    let header = animation_header(&bytes).unwrap();
    assert_eq!(
        (header.frames, header.width, header.height, header.loops),
        (2, 6, 4, LoopCount::Times(4))
    );
    let decoded = decode_avatar(&bytes, &ImageLimits::default()).unwrap();
    let anim = decoded.animation.unwrap();
    assert_eq!(anim.frames.len(), 2);
    assert_eq!(anim.frames[0].delay_ms, 80);
    assert_eq!(anim.frames[1].delay_ms, 250);
    assert_eq!(anim.frames[0].image, a);
    assert_eq!(anim.frames[1].image.get_pixel(0, 0).0, [0, 0, 255, 255]);
    assert_eq!(anim.frames[1].image.get_pixel(5, 0).0[3], 0);
    let infinite = webp_bytes(0, &[(a.clone(), 10), (b, 10)]);
    assert_eq!(
        animation_header(&infinite).unwrap().loops,
        LoopCount::Infinite
    );
}

#[test]
fn truncated_animations_never_panic() {
    let frames: Vec<GifFrame> = (0..5).map(|i| full(16, 16, i % 3, 4)).collect();
    let bytes = gif_bytes(16, 16, Some(gif::Repeat::Infinite), &frames);
    for cut in (0..bytes.len()).step_by(7) {
        let _ = animation_header(&bytes[..cut]);
        if let Ok(d) = decode_avatar(&bytes[..cut], &ImageLimits::default())
            && let Some(a) = d.animation
        {
            assert!(a.frames.len() >= 2);
        }
    }
}

// Hostile animations: what the decoder does with containers that lie,
// frames outside the canvas, extreme delays and loop counts.

/// A GIF of a `screen` canvas whose frames are all `frame` (pre-encoded
/// once: a `w`×`h` rectangle of palette index 0), at the given offsets, with
/// `delay_cs` each.
fn gif_of_rects(
    screen: (u16, u16),
    repeat: Option<gif::Repeat>,
    rect: (u16, u16),
    offsets: &[(u16, u16)],
    delay_cs: u16,
) -> Vec<u8> {
    let palette: Vec<u8> = [RED, GREEN, BLUE, [0, 0, 0]].concat();
    let (w, h) = rect;
    let mut frame = gif::Frame {
        width: w,
        height: h,
        delay: delay_cs,
        transparent: Some(3),
        buffer: Cow::Owned(vec![0; usize::from(w) * usize::from(h)]),
        ..gif::Frame::default()
    };
    frame.make_lzw_pre_encoded();
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, screen.0, screen.1, &palette).unwrap();
        if let Some(r) = repeat {
            enc.set_repeat(r).unwrap();
        }
        for &(left, top) in offsets {
            frame.left = left;
            frame.top = top;
            enc.write_lzw_pre_encoded_frame(&frame).unwrap();
        }
    }
    out
}

#[test]
fn gif_frames_far_outside_a_tiny_canvas_decode_cheaply() {
    // 256 frames of 1x1, each at a huge offset on a 1x1 canvas: nothing is
    // drawn, and each frame costs one canvas.
    let offsets: Vec<(u16, u16)> = (0..256).map(|i| (65_000 - i, 65_000)).collect();
    let bytes = gif_of_rects((1, 1), None, (1, 1), &offsets, 5);
    let anim = animation_of(&bytes);
    assert_eq!(anim.frames.len(), 256);
    for f in &anim.frames {
        assert_eq!(f.image.dimensions(), (1, 1));
        assert_eq!(f.image.get_pixel(0, 0).0, [0, 0, 0, 0]);
    }
    // One more frame is over the cap, refused from the header.
    let offsets: Vec<(u16, u16)> = (0..257).map(|i| (65_000 - i, 65_000)).collect();
    let bytes = gif_of_rects((1, 1), None, (1, 1), &offsets, 5);
    assert_eq!(
        decode_avatar(&bytes, &ImageLimits::default()).unwrap_err(),
        FetchError::TooManyFrames {
            frames: 257,
            max: 256
        }
    );
}

#[test]
fn gif_frames_larger_than_the_canvas_count_their_own_pixels() {
    // A 1x1 canvas announces 256 frames of 1 pixel (far under the pixel
    // cap), but every frame is a 4096x4096 rectangle: each one decodes 16 Mi
    // pixels. The third one would pass the 32 Mi cap, and is refused before
    // it is decoded.
    let limits = ImageLimits::default();
    let bytes = gif_of_rects((1, 1), None, (4096, 4096), &[(0, 0); 256], 5);
    assert_eq!(animation_header(&bytes).unwrap().frames, 256);
    // Small enough to fetch (`FetchConfig::max_bytes` is 8 MiB).
    assert!(bytes.len() < 8 << 20, "{}", bytes.len());
    assert_eq!(
        decode_avatar(&bytes, &limits).unwrap_err(),
        FetchError::AnimationTooLarge {
            pixels: 3 * 4096 * 4096,
            max: 32 << 20
        }
    );
    // Two such frames are within the cap: they decode, cropped to the
    // canvas.
    let bytes = gif_of_rects((1, 1), None, (4096, 4096), &[(0, 0); 2], 5);
    let anim = decode_avatar(&bytes, &limits).unwrap().animation.unwrap();
    assert_eq!(anim.frames.len(), 2);
    assert_eq!(anim.frames[1].image.get_pixel(0, 0).0, rgba(RED));
    // The decode is budgeted with the rectangle's RGBA buffer (64 MiB), not
    // only the tiny canvas.
    let header = animation_header(&bytes).unwrap();
    assert_eq!(header.largest_frame, 4096 * 4096);
    let cost = remote_image::decode_cost(&bytes, &limits).unwrap();
    assert!((64 << 20..72 << 20).contains(&cost), "{cost}");
    // A GIF whose frames fit its canvas costs its frames plus one more.
    let bytes = gif_of_rects((64, 32), None, (64, 32), &[(0, 0); 3], 5);
    assert_eq!(animation_header(&bytes).unwrap().largest_frame, 64 * 32);
    let cost = remote_image::decode_cost(&bytes, &limits).unwrap();
    assert!(cost >= 4 * 64 * 32 * 4, "{cost}");
}

#[test]
fn a_gif_frame_wider_than_the_side_cap_is_refused_before_decoding() {
    // A 3700x3700 frame (55 MB of RGBA) on an 8x8 canvas is within the
    // default caps: it decodes, cropped.
    let bytes = gif_of_rects((8, 8), None, (3700, 3700), &[(0, 0), (0, 0)], 5);
    let limits = ImageLimits::default();
    let decoded = decode_avatar(&bytes, &limits).unwrap().animation.unwrap();
    assert_eq!(decoded.frames[0].image.dimensions(), (8, 8));
    // A frame side over `max_side` is refused like a still image's.
    let small = ImageLimits {
        max_side: 1000,
        ..limits
    };
    let bytes = gif_of_rects((8, 8), None, (1001, 1), &[(0, 0), (0, 0)], 5);
    assert_eq!(
        decode_avatar(&bytes, &small).unwrap_err(),
        FetchError::TooManyPixels {
            width: 1001,
            height: 1,
            max_side: 1000
        }
    );
}

#[test]
fn an_empty_gif_canvas_is_corrupt() {
    let bytes = gif_of_rects((0, 0), None, (2, 2), &[(0, 0), (0, 0)], 5);
    assert_eq!(
        decode_avatar(&bytes, &ImageLimits::default()).unwrap_err(),
        FetchError::Corrupt
    );
}

#[test]
fn gif_delays_and_loop_counts_at_their_extremes_are_kept() {
    let frames = [full(2, 2, 0, 0), full(2, 2, 1, 65_535)];
    let bytes = gif_bytes(2, 2, Some(gif::Repeat::Infinite), &frames);
    // A NETSCAPE loop count of 0 means forever.
    let netscape = bytes.windows(11).position(|w| w == b"NETSCAPE2.0").unwrap();
    assert_eq!(bytes[netscape + 11..netscape + 15], [3, 1, 0, 0]);
    assert_eq!(animation_header(&bytes).unwrap().loops, LoopCount::Infinite);
    let anim = animation_of(&bytes);
    assert_eq!(anim.loops, LoopCount::Infinite);
    let delays: Vec<u32> = anim.frames.iter().map(|f| f.delay_ms).collect();
    assert_eq!(delays, [0, 655_350]);
    let most = gif_bytes(2, 2, Some(gif::Repeat::Finite(65_535)), &frames);
    assert_eq!(
        animation_header(&most).unwrap().loops,
        LoopCount::Times(65_536)
    );
}

/// The CRC of a PNG chunk (type and data).
fn png_crc(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                0xedb8_8320 ^ (crc >> 1)
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// Rewrites the `n`th chunk of `kind` in a PNG with `edit` (on its data),
/// fixing its CRC.
fn edit_png_chunk(png: &mut [u8], kind: &[u8; 4], n: usize, edit: impl Fn(&mut [u8])) {
    let mut at = 8;
    let mut seen = 0;
    while at + 8 <= png.len() {
        let len = u32::from_be_bytes(png[at..at + 4].try_into().unwrap()) as usize;
        if &png[at + 4..at + 8] == kind {
            if seen == n {
                edit(&mut png[at + 8..at + 8 + len]);
                let crc = png_crc(&png[at + 4..at + 8 + len]);
                png[at + 8 + len..at + 12 + len].copy_from_slice(&crc.to_be_bytes());
                return;
            }
            seen += 1;
        }
        at += 12 + len;
    }
    panic!("no chunk {kind:?} #{n}");
}

fn two_frame_apng() -> Vec<u8> {
    use png::{BlendOp, DisposeOp};
    apng_bytes(
        0,
        &[
            ([255, 0, 0, 255], DisposeOp::None, BlendOp::Source, 0),
            ([0, 0, 255, 255], DisposeOp::None, BlendOp::Source, 65_535),
        ],
    )
}

#[test]
fn apng_plays_zero_loops_forever_and_extreme_delays_are_kept() {
    let bytes = two_frame_apng();
    let anim = animation_of(&bytes);
    assert_eq!(anim.loops, LoopCount::Infinite);
    let delays: Vec<u32> = anim.frames.iter().map(|f| f.delay_ms).collect();
    assert_eq!(delays, [0, 65_535]);
    // A zero denominator means hundredths of a second.
    let mut bytes = two_frame_apng();
    edit_png_chunk(&mut bytes, b"fcTL", 1, |d| {
        d[20..22].copy_from_slice(&65_535u16.to_be_bytes());
        d[22..24].copy_from_slice(&0u16.to_be_bytes());
    });
    let anim = animation_of(&bytes);
    assert_eq!(anim.frames[1].delay_ms, 655_350);
}

#[test]
fn apng_frames_outside_the_canvas_are_corrupt() {
    // fcTL: sequence, width, height, x, y, delays, dispose, blend.
    let field =
        |at: usize, v: u32| move |d: &mut [u8]| d[at..at + 4].copy_from_slice(&v.to_be_bytes());
    for edit in [
        field(4, 5),
        field(8, 1 << 20),
        field(12, 1),
        field(16, u32::MAX),
    ] {
        let mut bytes = two_frame_apng();
        edit_png_chunk(&mut bytes, b"fcTL", 1, edit);
        assert_eq!(
            decode_avatar(&bytes, &ImageLimits::default()).unwrap_err(),
            FetchError::Corrupt
        );
    }
}

#[test]
fn apng_frame_counts_that_lie_are_bounded() {
    // acTL: frames, plays. Announcing more than the cap is refused unread.
    let mut bytes = two_frame_apng();
    edit_png_chunk(&mut bytes, b"acTL", 0, |d| {
        d[..4].copy_from_slice(&u32::MAX.to_be_bytes());
    });
    assert_eq!(
        decode_avatar(&bytes, &ImageLimits::default()).unwrap_err(),
        FetchError::TooManyFrames {
            frames: u32::MAX,
            max: 256
        }
    );
    // Announcing more frames than there are: the file is cut short.
    let mut bytes = two_frame_apng();
    edit_png_chunk(&mut bytes, b"acTL", 0, |d| {
        d[..4].copy_from_slice(&3u32.to_be_bytes());
    });
    assert_eq!(
        decode_avatar(&bytes, &ImageLimits::default()).unwrap_err(),
        FetchError::Corrupt
    );
    // Announcing fewer: only those are decoded.
    let frames = [(
        [1, 2, 3, 255],
        png::DisposeOp::None,
        png::BlendOp::Source,
        10,
    ); 5];
    let mut bytes = apng_bytes(1, &frames);
    edit_png_chunk(&mut bytes, b"acTL", 0, |d| {
        d[..4].copy_from_slice(&2u32.to_be_bytes());
    });
    let anim = animation_of(&bytes);
    assert_eq!(anim.frames.len(), 2);
    assert_eq!(anim.loops, LoopCount::Times(1));
}

#[test]
fn webp_frames_outside_the_canvas_are_corrupt() {
    let small = RgbaImage::from_pixel(2, 2, Rgba([0, 255, 0, 255]));
    let big = RgbaImage::from_pixel(6, 2, Rgba([0, 255, 0, 255]));
    let ok = webp_placed(
        (4, 4),
        0,
        &[(small.clone(), 0, 0, 10), (small.clone(), 1, 1, 10)],
    );
    let anim = animation_of(&ok);
    assert_eq!(anim.frames[1].image.get_pixel(3, 3).0, [0, 255, 0, 255]);
    assert_eq!(anim.loops, LoopCount::Infinite);
    for frames in [
        // Offset 2 * 2 = 4: starts on the canvas edge.
        [(small.clone(), 0, 0, 10), (small.clone(), 2, 0, 10)],
        [(small.clone(), 0, 0, 10), (small.clone(), 0, 0x7f_ffff, 10)],
        // Wider than the canvas.
        [(small.clone(), 0, 0, 10), (big.clone(), 0, 0, 10)],
    ] {
        let bytes = webp_placed((4, 4), 0, &frames);
        assert_eq!(
            decode_avatar(&bytes, &ImageLimits::default()).unwrap_err(),
            FetchError::Corrupt
        );
    }
}

#[test]
fn webp_delays_at_their_extremes_are_kept() {
    let a = RgbaImage::from_pixel(2, 2, Rgba([255, 0, 0, 255]));
    for delay in [0, 0xff_ffff] {
        let bytes = webp_placed(
            (2, 2),
            0,
            &[(a.clone(), 0, 0, delay), (a.clone(), 0, 0, delay)],
        );
        let anim = animation_of(&bytes);
        assert!(anim.frames.iter().all(|f| f.delay_ms == delay), "{delay}");
    }
}

/// Found by the `animated_decode` fuzz target: an animated WebP frame of an
/// `ALPH` chunk and lossy data whose `VP8 ` header is 8x10 while the `ANMF`
/// frame says 10 wide. `image-webp` 0.2.4 indexed the alpha plane out of
/// bounds (image-rs/image-webp#186).
const WEBP_ALPHA_SIZE_MISMATCH: &[u8] = &[
    0x52, 0x49, 0x46, 0x46, 0x14, 0x02, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x58,
    0x0a, 0x00, 0x00, 0x00, 0x12, 0x00, 0x00, 0x00, 0x0b, 0x00, 0x00, 0x09, 0x00, 0x00, 0x41, 0x4e,
    0x49, 0x4d, 0x06, 0x00, 0x00, 0x00, 0x00, 0x32, 0xf7, 0xe0, 0x00, 0x00, 0x41, 0x4e, 0x4d, 0x46,
    0xa8, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00,
    0x3c, 0x00, 0x00, 0x02, 0x41, 0x4c, 0x50, 0x48, 0x25, 0x00, 0x00, 0x00, 0x01, 0x17, 0x20, 0x10,
    0x48, 0xf2, 0x5d, 0x67, 0xf8, 0x88, 0x08, 0x07, 0x05, 0x8d, 0x24, 0x35, 0x5f, 0x25, 0xbc, 0xaf,
    0x86, 0x20, 0xcc, 0x74, 0x9b, 0x20, 0x22, 0xa2, 0xff, 0x01, 0xd0, 0x01, 0x2a, 0x08, 0x00, 0x0a,
    0x00, 0x04, 0x00, 0x00, 0x04, 0x74, 0x00, 0x00, 0x62, 0x00, 0x00, 0x01, 0x00, 0x9d, 0x01, 0x2a,
    0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x54, 0x01,
];

#[test]
fn webp_alpha_frames_of_another_size_are_corrupt_not_a_panic() {
    let limits = ImageLimits::default();
    let bytes = WEBP_ALPHA_SIZE_MISMATCH;
    assert_eq!(
        decode_avatar(bytes, &limits).unwrap_err(),
        FetchError::Corrupt
    );
    assert_eq!(
        decode_image(bytes, &limits).unwrap_err(),
        FetchError::Corrupt
    );
    assert!(remote_image::decode_cost(bytes, &limits).is_err());
    // The chunk after `ALPH`, taken as the lossy data, made an empty
    // `VP8 ` (image-rs/image-webp#182).
    let mut empty = bytes.to_vec();
    let alph = empty.windows(4).position(|w| w == b"ALPH").unwrap();
    let len = u32::from_le_bytes(empty[alph + 4..alph + 8].try_into().unwrap()) as usize;
    let next = alph + 8 + len + (len & 1);
    empty[next..next + 8].copy_from_slice(b"VP8 \0\0\0\0");
    assert_eq!(
        decode_avatar(&empty, &limits).unwrap_err(),
        FetchError::Corrupt
    );
}

#[test]
fn lossy_webp_frames_with_alpha_still_decode() {
    // Written by libwebp (through Pillow): three 12x10 frames, each an
    // `ALPH` chunk and a `VP8 ` key frame of the frame's size.
    let bytes = include_bytes!("fixtures/lossy-alpha.webp");
    assert_eq!(bytes.windows(4).filter(|w| w == b"ALPH").count(), 3);
    let anim = animation_of(bytes);
    assert_eq!(anim.frames.len(), 3);
    assert_eq!(anim.frames[0].image.dimensions(), (12, 10));
    assert_eq!(anim.frames[0].delay_ms, 60);
    // The frames are transparent where nothing was drawn.
    assert_eq!(anim.frames[0].image.get_pixel(11, 9).0[3], 0);
}

/// Inputs found by the `animated_decode` fuzz target, the smallest one for
/// each place `image-webp` 0.2.4 panicked (named after it): animated WebP
/// frames of an `ALPH` chunk and lossy data of another size, or none. Each
/// is corrupt, whatever is asked of it.
#[test]
fn fuzz_found_webp_frames_are_corrupt_not_a_panic() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/fuzz");
    let limits = ImageLimits::default();
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let name = path.display();
        assert!(animation_header(&bytes).is_some(), "{name}");
        let err = decode_avatar(&bytes, &limits).unwrap_err();
        assert_eq!(err, FetchError::Corrupt, "{name}");
        let err = decode_image(&bytes, &limits).unwrap_err();
        assert_eq!(err, FetchError::Corrupt, "{name}");
        seen += 1;
    }
    assert_eq!(seen, 5);
}

/// A two-frame APNG of `w`×`h` in `colour` type, each frame the whole
/// canvas of one value (`first`, then `second`, repeated per channel).
fn large_apng(w: u32, h: u32, colour: png::ColorType, first: u8, second: u8) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, w, h);
        enc.set_color(colour);
        enc.set_compression(png::Compression::Fast);
        enc.set_animated(2, 0).unwrap();
        let mut wr = enc.write_header().unwrap();
        let len = w as usize * h as usize * colour.samples();
        for value in [first, second] {
            wr.set_frame_delay(10, 100).unwrap();
            wr.write_image_data(&vec![value; len]).unwrap();
        }
        wr.finish().unwrap();
    }
    out
}

/// Two-frame APNGs with 4096-wide frames (4096² and 4096×3500: 32 and 28
/// Mi pixels, within `max_animation_pixels`) decode, as GIF and WebP of the
/// same sizes do; the decoder's allocation cap once made them "corrupt".
/// Each size is tried once, in RGBA and in greyscale.
#[test]
fn apngs_of_the_largest_side_decode() {
    for ((w, h), colour) in [
        ((4096, 4096), png::ColorType::Rgba),
        ((4096, 3500), png::ColorType::Grayscale),
    ] {
        let bytes = large_apng(w, h, colour, 200, 40);
        let limits = ImageLimits::default();
        assert!(2 * u64::from(w) * u64::from(h) <= limits.max_animation_pixels);
        let anim = decode_avatar(&bytes, &limits)
            .unwrap_or_else(|e| panic!("{w}x{h} {colour:?}: {e}"))
            .animation
            .expect("an animation");
        assert_eq!(anim.frames.len(), 2, "{w}x{h} {colour:?}");
        for (frame, value) in anim.frames.iter().zip([200, 40]) {
            assert_eq!(frame.image.width(), 1024, "normalised");
            assert_eq!(frame.image.get_pixel(5, 5).0[..3], [value; 3]);
        }
    }
}

/// The end of the first frame: a WebP's first `ANMF` chunk, a GIF's first
/// image (descriptor, colour table, data), an APNG's first `IDAT` chunk.
fn end_of_first_frame(b: &[u8]) -> usize {
    match &b[..3] {
        b"RIF" => {
            let mut at = 12;
            loop {
                let len = u32::from_le_bytes(b[at + 4..at + 8].try_into().unwrap()) as usize;
                let next = at + 8 + len + (len & 1);
                if &b[at..at + 4] == b"ANMF" {
                    return next;
                }
                at = next;
            }
        }
        b"GIF" => {
            let skip = |mut at: usize| loop {
                let len = usize::from(b[at]);
                at += 1 + len;
                if len == 0 {
                    return at;
                }
            };
            let mut at = 13
                + if b[10] & 0x80 != 0 {
                    3 << ((b[10] & 7) + 1)
                } else {
                    0
                };
            loop {
                match b[at] {
                    0x21 => at = skip(at + 2),
                    0x2c => {
                        let local = b[at + 9];
                        at += 10
                            + if local & 0x80 != 0 {
                                3 << ((local & 7) + 1)
                            } else {
                                0
                            };
                        return skip(at + 1);
                    }
                    other => panic!("block {other:#x}"),
                }
            }
        }
        _ => {
            let mut at = 8;
            loop {
                let len = u32::from_be_bytes(b[at..at + 4].try_into().unwrap()) as usize;
                let next = at + 12 + len;
                if &b[at + 4..at + 8] == b"IDAT" {
                    return next;
                }
                at = next;
            }
        }
    }
}

/// An animation cut after its first whole frame is refused as truncated,
/// in every format: it is not served as a still image of that frame.
#[test]
fn animations_cut_after_their_first_frame_are_truncated() {
    let red = RgbaImage::from_pixel(8, 8, Rgba(rgba(RED)));
    let blue = RgbaImage::from_pixel(8, 8, Rgba(rgba(BLUE)));
    let webp = webp_bytes(0, &[(red, 100), (blue, 100)]);
    let gif = gif_bytes(
        8,
        8,
        Some(gif::Repeat::Infinite),
        &[full(8, 8, 0, 10), full(8, 8, 2, 10)],
    );
    let apng = two_frame_apng();
    for (name, bytes) in [("WebP", webp), ("GIF", gif), ("APNG", apng)] {
        assert_eq!(animation_of(&bytes).frames.len(), 2, "{name} whole");
        let cut = &bytes[..end_of_first_frame(&bytes)];
        assert_eq!(
            decode_avatar(cut, &ImageLimits::default()).unwrap_err(),
            FetchError::Corrupt,
            "{name} cut after its first frame"
        );
    }
    // A one-frame GIF and a still WebP, whole, are still images as before.
    let one = gif_bytes(8, 8, None, &[full(8, 8, 1, 0)]);
    assert!(
        decode_avatar(&one, &ImageLimits::default())
            .unwrap()
            .animation
            .is_none()
    );
    let still = RgbaImage::from_pixel(8, 8, Rgba(rgba(GREEN)));
    let mut webp = Vec::new();
    still
        .write_to(&mut Cursor::new(&mut webp), ImageFormat::WebP)
        .unwrap();
    assert!(
        decode_avatar(&webp, &ImageLimits::default())
            .unwrap()
            .animation
            .is_none()
    );
    assert_eq!(
        decode_avatar(&webp[..webp.len() - 4], &ImageLimits::default()).unwrap_err(),
        FetchError::Corrupt
    );
}
