//! Animated avatars, from hand-made fixtures built here: frame timings,
//! disposal, transparency, loop counts, a one-frame GIF and animations
//! over the caps, in GIF, APNG and WebP.

use std::borrow::Cow;
use std::io::Cursor;

use image::{ImageFormat, Rgba, RgbaImage};
use remote_image::{
    FetchError, ImageLimits, LoopCount, animation_header, decode_avatar, decode_image, normalize,
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
    let anim = decode_avatar(&twice, &ImageLimits::default())
        .unwrap()
        .animation
        .unwrap();
    assert_eq!(anim.loops, LoopCount::Times(3), "loop count 2 = 3 plays");
    let once = gif_bytes(4, 4, None, &frames);
    let anim = decode_avatar(&once, &ImageLimits::default())
        .unwrap()
        .animation
        .unwrap();
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
    let anim = decode_avatar(&bytes, &ImageLimits::default())
        .unwrap()
        .animation
        .unwrap();
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
    let anim = decode_avatar(&bytes, &ImageLimits::default())
        .unwrap()
        .animation
        .unwrap();
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
    let (w, h) = frames[0].0.dimensions();
    let mut vp8x = vec![0x12, 0, 0, 0];
    vp8x.extend(u24(w - 1));
    vp8x.extend(u24(h - 1));
    let mut anim = vec![0, 0, 0, 0];
    anim.extend(loops.to_le_bytes());
    let mut body = b"WEBP".to_vec();
    body.extend(chunk(b"VP8X", &vp8x));
    body.extend(chunk(b"ANIM", &anim));
    for (img, delay) in frames {
        let mut f = Vec::new();
        f.extend(u24(0));
        f.extend(u24(0));
        f.extend(u24(w - 1));
        f.extend(u24(h - 1));
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
