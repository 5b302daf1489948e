//! Animated output: GIF and WebP round trips through independent decoders
//! (the `image` crate's), exact colours, transparency, dithered gradients,
//! disposal, merged frames and the time budget; plus the frames the golden
//! cases in `main.rs` compare.

use std::io::Cursor;
use std::time::Duration;

use canvas_render::animation::{AnimationError, Deadline, WebpAnimationWriter, render_frames};
use canvas_render::{
    Filter, Loops, RgbaImage, WebpQuality, apply, circle, encode_gif, encode_webp,
    encode_webp_animation, encode_webp_at,
};
use image::codecs::gif::GifDecoder;
use image::codecs::webp::WebPDecoder;
use image::{AnimationDecoder, Rgba};

use crate::avatar;

/// A budget no test run reaches, even on a loaded machine: these tests
/// check what is drawn and encoded, not how fast.
fn deadline() -> Deadline {
    Deadline::after(Duration::from_secs(3600))
}

/// Decoded GIF frames with their delays in ms.
fn decode_gif(bytes: &[u8]) -> Vec<(RgbaImage, u32)> {
    GifDecoder::new(Cursor::new(bytes))
        .unwrap()
        .into_frames()
        .map(|f| {
            let f = f.unwrap();
            let (n, d) = f.delay().numer_denom_ms();
            (f.into_buffer(), n / d)
        })
        .collect()
}

/// The synthetic avatar, moved `k` pixels right and down per frame (wrapping).
pub fn moving_avatar(size: u32, frames: u32) -> Vec<RgbaImage> {
    let base = avatar(size, size);
    (0..frames)
        .map(|k| {
            RgbaImage::from_fn(size, size, |x, y| {
                *base.get_pixel(
                    (x + size - 3 * k % size) % size,
                    (y + size - k % size) % size,
                )
            })
        })
        .collect()
}

/// Frame `k` of the animated GIF of `render` applied to a 4-frame moving
/// avatar, as a browser would show it (for the golden cases).
pub fn gif_frame(render: impl Fn(&RgbaImage) -> RgbaImage, k: usize) -> RgbaImage {
    let frames: Vec<RgbaImage> = moving_avatar(96, 4).iter().map(render).collect();
    let gif = encode_gif(&frames, &[80; 4], Loops::Infinite, &deadline()).unwrap();
    decode_gif(&gif).swap_remove(k).0
}

/// Few colours (here a greyscale image) survive within one level, with no
/// dithering, with the delays and the loop count.
#[test]
fn greyscale_frames_round_trip_within_a_level() {
    let frames: Vec<RgbaImage> = (0..5u8)
        .map(|k| {
            RgbaImage::from_fn(40, 30, |x, y| {
                let g = (x as u8).wrapping_mul(6).wrapping_add(y as u8 + k * 9) % 250;
                Rgba([g, g, g, 255])
            })
        })
        .collect();
    let delays = [40, 60, 1000, 20, 130];
    let gif = encode_gif(&frames, &delays, Loops::Times(3), &deadline()).unwrap();
    let decoded = decode_gif(&gif);
    assert_eq!(decoded.len(), 5);
    for (i, (img, delay)) in decoded.iter().enumerate() {
        // Colours one level apart share an entry: within a level, still grey.
        for (p, q) in img.pixels().zip(frames[i].pixels()) {
            let ok = (0..3).all(|c| p.0[c].abs_diff(q.0[c]) <= 1) && p.0[0] == p.0[2];
            assert!(ok, "frame {i}: {q:?} -> {p:?}");
        }
        assert_eq!(*delay, delays[i]);
    }
    // NETSCAPE2.0 loop count 2: three plays.
    let at = gif.windows(11).position(|w| w == b"NETSCAPE2.0").unwrap();
    assert_eq!(&gif[at + 11..at + 15], &[3, 1, 2, 0]);
    let once = encode_gif(&frames, &delays, Loops::Times(1), &deadline()).unwrap();
    assert!(!once.windows(11).any(|w| w == b"NETSCAPE2.0"));
}

/// All 256 greys (and a transparent pixel): no dithering; neighbouring
/// greys share entries, so no grey moves by more than one level.
#[test]
fn a_full_greyscale_stays_exact_but_for_one_level() {
    let frames: Vec<RgbaImage> = (0..2u32)
        .map(|k| {
            RgbaImage::from_fn(16, 17, |x, y| {
                if y == 16 {
                    return Rgba([0, 0, 0, if x == 0 { 0 } else { 255 }]);
                }
                let g = ((y * 16 + x + k * 7) % 256) as u8;
                Rgba([g, g, g, 255])
            })
        })
        .collect();
    let gif = encode_gif(&frames, &[50, 50], Loops::Infinite, &deadline()).unwrap();
    let decoded = decode_gif(&gif);
    assert_eq!(decoded.len(), 2);
    let mut by_source = std::collections::BTreeMap::new();
    for ((img, _), src) in decoded.iter().zip(&frames) {
        for (p, q) in img.pixels().zip(src.pixels()) {
            assert_eq!(p.0[3], q.0[3]);
            if q.0[3] == 0 {
                continue;
            }
            let d = (i32::from(p.0[0]) - i32::from(q.0[0])).abs();
            assert!(d <= 1, "{q:?} -> {p:?}");
            assert!(p.0[0] == p.0[1] && p.0[1] == p.0[2]);
            // One source grey always gives one output grey: no dithering.
            assert_eq!(*by_source.entry(q.0[0]).or_insert(p.0[0]), p.0[0]);
        }
    }
    assert_eq!(by_source.len(), 256);
}

/// A circle keeps its transparent corners and opaque middle in every frame.
#[test]
fn circles_keep_transparency() {
    let frames: Vec<RgbaImage> = moving_avatar(64, 3)
        .iter()
        .map(|f| circle(f).unwrap())
        .collect();
    let gif = encode_gif(&frames, &[100; 3], Loops::Infinite, &deadline()).unwrap();
    let decoded = decode_gif(&gif);
    assert_eq!(decoded.len(), 3);
    for ((img, _), src) in decoded.iter().zip(&frames) {
        assert_eq!(img.dimensions(), src.dimensions());
        for (x, y, p) in img.enumerate_pixels() {
            let a = src.get_pixel(x, y).0[3];
            assert_eq!(
                p.0[3] == 255,
                a >= 128,
                "alpha at {x},{y}: {a} -> {}",
                p.0[3]
            );
        }
    }
}

/// A smooth gradient of thousands of colours is dithered, not banded: every
/// 8×8 block keeps its average colour, and no pixel is far from its source.
#[test]
fn gradients_do_not_band() {
    let grad = RgbaImage::from_fn(256, 64, |x, y| {
        Rgba([x as u8, (y * 4) as u8, 255 - x as u8, 255])
    });
    let frames = vec![grad.clone(), grad.clone()];
    let gif = encode_gif(&frames, &[50, 50], Loops::Infinite, &deadline()).unwrap();
    let decoded = decode_gif(&gif);
    // Identical frames merged, delays added.
    assert_eq!(decoded.len(), 1);
    assert_eq!(decoded[0].1, 100);
    let out = &decoded[0].0;
    // (error, block x, block y, channel), over all blocks and over the
    // blocks off the gradient's edges (a palette's colours sit inside the
    // colour cloud, so dithering cannot quite reach its very edges).
    let mut worst_block = (0f64, 0, 0, 0);
    let mut worst_inner = (0f64, 0, 0, 0);
    for by in 0..64 / 8 {
        for bx in 0..256 / 8 {
            for ch in 0..3 {
                let (mut a, mut b) = (0f64, 0f64);
                for y in by * 8..by * 8 + 8 {
                    for x in bx * 8..bx * 8 + 8 {
                        a += f64::from(grad.get_pixel(x, y).0[ch]);
                        b += f64::from(out.get_pixel(x, y).0[ch]);
                    }
                }
                let err = (a - b).abs() / 64.0;
                if err > worst_block.0 {
                    worst_block = (err, bx, by, ch);
                }
                if err > worst_inner.0 && by > 0 && by < 7 && bx > 0 && bx < 31 {
                    worst_inner = (err, bx, by, ch);
                }
            }
        }
    }
    assert!(
        worst_inner.0 < 3.0,
        "an inner block's mean is off: {worst_inner:?}"
    );
    assert!(
        worst_block.0 < 8.0,
        "an edge block's mean is off: {worst_block:?}"
    );
    let worst_pixel = grad
        .pixels()
        .zip(out.pixels())
        .flat_map(|(a, b)| (0..3).map(move |c| (i32::from(a.0[c]) - i32::from(b.0[c])).abs()))
        .max()
        .unwrap();
    assert!(worst_pixel <= 40, "a pixel is off by {worst_pixel}");
}

/// A frame that uncovers transparency where the previous one was opaque
/// shows transparency there (the previous frame is disposed), and pixels
/// left unchanged between frames show through.
#[test]
fn uncovered_pixels_become_transparent() {
    let red = Rgba([255, 0, 0, 255]);
    let clear = Rgba([0, 0, 0, 0]);
    let a = RgbaImage::from_pixel(8, 8, red);
    let mut b = a.clone();
    for x in 0..4 {
        b.put_pixel(x, 2, clear);
    }
    let mut c = b.clone();
    c.put_pixel(7, 7, Rgba([0, 0, 255, 255]));
    let frames = [a, b, c];
    let gif = encode_gif(&frames, &[30; 3], Loops::Infinite, &deadline()).unwrap();
    let decoded = decode_gif(&gif);
    assert_eq!(decoded.len(), 3);
    for (i, (img, _)) in decoded.iter().enumerate() {
        assert_eq!(img, &frames[i], "frame {i}");
    }
}

/// Frames of a few exact colours come back exactly, whatever changes
/// between them: a moving square, holes opening and closing, a frame of
/// noise (so the LZW table fills and clears many times), repeated frames
/// (merged, their delays added) and a frame where one pixel changes.
#[test]
fn exact_colour_frames_round_trip_exactly() {
    let (w, h) = (160u32, 120u32);
    let clear = Rgba([0, 0, 0, 0]);
    // 90 colours, no two within a level of each other.
    let colour = |i: u32| {
        let i = i % 90;
        Rgba([
            (i * 37 % 256) as u8,
            (i * 3) as u8,
            (255 - i * 2) as u8,
            255,
        ])
    };
    let mut seed = 0x1357_9BDF_u32;
    let mut noise = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let mut frames: Vec<RgbaImage> = Vec::new();
    for k in 0..12u32 {
        let mut f = RgbaImage::from_fn(w, h, |x, y| colour((x / 8 + y / 8) % 5));
        for y in 0..20 {
            for x in 0..20 {
                f.put_pixel((x + k * 9) % w, (y + k * 4) % h, colour(10 + k));
            }
        }
        if k % 3 == 1 {
            for x in 30..70 {
                f.put_pixel(x, 60 + k, clear);
            }
        }
        if k == 5 {
            for p in f.pixels_mut() {
                *p = match noise() % 8 {
                    0 => clear,
                    n => colour(noise() % 90 + n),
                };
            }
        }
        frames.push(f);
        if k == 7 || k == 8 {
            frames.push(frames.last().unwrap().clone());
        }
        if k == 9 {
            let mut g = frames.last().unwrap().clone();
            g.put_pixel(w - 1, h - 1, colour(42));
            frames.push(g);
        }
    }
    let delays: Vec<u32> = (0..frames.len() as u32).map(|i| 20 + 10 * i).collect();
    let gif = encode_gif(&frames, &delays, Loops::Infinite, &deadline()).unwrap();
    let decoded = decode_gif(&gif);
    let mut expected: Vec<(&RgbaImage, u32)> = Vec::new();
    for (f, &d) in frames.iter().zip(&delays) {
        match expected.last_mut() {
            Some((last, total)) if *last == f => *total += d,
            _ => expected.push((f, d)),
        }
    }
    assert_eq!(decoded.len(), expected.len());
    for (i, ((img, delay), (want, want_delay))) in decoded.iter().zip(&expected).enumerate() {
        assert_eq!(delay, want_delay, "delay of frame {i}");
        let wrong = img
            .pixels()
            .zip(want.pixels())
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(wrong, 0, "{wrong} pixels of frame {i} differ");
    }
}

/// The frames a browser shows are those of the encoder before its own LZW
/// and one-pass indexing (0a0a670), except that a picture that moves keeps
/// the indices (so the dither) it had where its pixels moved unchanged, and
/// that the palette is its own NeuQuant's (not `color_quant`'s):
/// FNV-1a of every decoded frame's RGBA and delay, for a grey, a colour
/// (dithered palette) and a round cut-out (palette and transparency)
/// animation. (Drawn without resampling or
/// anti-aliasing, so the frames do not depend on the CPU's vector units.)
#[test]
fn decoded_frames_are_unchanged() {
    let frames = moving_avatar(128, 12);
    let grey: Vec<RgbaImage> = frames
        .iter()
        .map(|f| apply(&Filter::Greyscale, f).unwrap())
        .collect();
    let round: Vec<RgbaImage> = frames
        .iter()
        .enumerate()
        .map(|(k, f)| {
            let mut f = f.clone();
            let r = 44 + 4 * (k as i64 % 4);
            for (x, y, p) in f.enumerate_pixels_mut() {
                let (dx, dy) = (i64::from(x) - 64, i64::from(y) - 64);
                if dx * dx + dy * dy > r * r {
                    p.0[3] = 0;
                }
            }
            f
        })
        .collect();
    for (name, fs, want) in [
        ("grey", &grey, 0x153c_a8a3_e20a_955d_u64),
        ("colour", &frames, 0x2974_7981_a632_b5d1),
        ("round", &round, 0xd9d3_53c9_23a9_ca0e),
    ] {
        let gif = encode_gif(fs, &vec![40; fs.len()], Loops::Infinite, &deadline()).unwrap();
        let mut hash = 0xcbf2_9ce4_8422_2325_u64;
        for (img, delay) in decode_gif(&gif) {
            for &b in img.as_raw().iter().chain(&delay.to_le_bytes()) {
                hash = (hash ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        assert_eq!(hash, want, "{name}: {hash:#x}");
    }
}

/// Decoded WebP frames with their delays in ms, and the loop count, read by
/// an independent decoder (image-webp).
fn decode_webp(bytes: &[u8]) -> (Vec<(RgbaImage, u32)>, image_webp::LoopCount) {
    let mut d = image_webp::WebPDecoder::new(Cursor::new(bytes)).unwrap();
    let (w, h) = d.dimensions();
    let loops = d.loop_count();
    let mut frames = Vec::new();
    if d.is_animated() {
        for _ in 0..d.num_frames() {
            let mut buf = vec![0; d.output_buffer_size().unwrap()];
            let delay = d.read_frame(&mut buf).unwrap();
            frames.push((rgba(w, h, buf, d.has_alpha()), delay));
        }
    } else {
        let mut buf = vec![0; d.output_buffer_size().unwrap()];
        d.read_image(&mut buf).unwrap();
        frames.push((rgba(w, h, buf, d.has_alpha()), 0));
    }
    (frames, loops)
}

fn rgba(w: u32, h: u32, buf: Vec<u8>, alpha: bool) -> RgbaImage {
    if alpha {
        RgbaImage::from_raw(w, h, buf).unwrap()
    } else {
        let rgb = image::RgbImage::from_raw(w, h, buf).unwrap();
        image::DynamicImage::ImageRgb8(rgb).into_rgba8()
    }
}

/// Mean absolute difference of the colour channels over the pixels opaque
/// in `want`.
fn mean_error(got: &RgbaImage, want: &RgbaImage) -> f64 {
    let (mut sum, mut n) = (0u64, 0u64);
    for (p, q) in got.pixels().zip(want.pixels()) {
        if q.0[3] == 255 {
            sum += p.0[..3]
                .iter()
                .zip(&q.0[..3])
                .map(|(a, b)| u64::from(a.abs_diff(*b)))
                .sum::<u64>();
            n += 3;
        }
    }
    sum as f64 / n as f64
}

/// The mean colour of each 8 × 8 block, as an image an eighth of the size
/// (opaque).
fn block_means(img: &RgbaImage) -> RgbaImage {
    RgbaImage::from_fn(img.width() / 8, img.height() / 8, |bx, by| {
        let mut sum = [0u32; 3];
        for y in by * 8..by * 8 + 8 {
            for x in bx * 8..bx * 8 + 8 {
                for (s, v) in sum.iter_mut().zip(img.get_pixel(x, y).0) {
                    *s += u32::from(v);
                }
            }
        }
        let [r, g, b] = sum.map(|s| (s / 64) as u8);
        Rgba([r, g, b, 255])
    })
}

/// Lossy WebP: every frame close to its source, alpha exact (circle
/// corners transparent, middle opaque), frame count, delays and loop count
/// kept.
#[test]
fn animated_webp_is_close_with_exact_alpha_delays_and_loops() {
    let frames: Vec<RgbaImage> = moving_avatar(96, 3)
        .iter()
        .map(|f| circle(f).unwrap())
        .collect();
    let webp = encode_webp_animation(&frames, &[70, 80, 90], Loops::Times(2), &deadline()).unwrap();
    let (decoded, loops) = decode_webp(&webp);
    assert_eq!(loops, image_webp::LoopCount::Times(2.try_into().unwrap()));
    assert_eq!(decoded.len(), 3);
    for (i, ((img, delay), src)) in decoded.iter().zip(&frames).enumerate() {
        assert_eq!(*delay, 70 + 10 * i as u32, "delay of frame {i}");
        assert_eq!(img.dimensions(), (512, 512));
        let err = mean_error(img, src);
        assert!(err < 2.5, "frame {i} is off by {err:.2} on average");
        for (x, y, p) in img.enumerate_pixels() {
            let a = src.get_pixel(x, y).0[3];
            assert_eq!(p.0[3], a, "alpha of frame {i} at {x},{y}");
        }
        assert_eq!(img.get_pixel(0, 0).0[3], 0);
        assert_eq!(img.get_pixel(511, 511).0[3], 0);
        assert_eq!(img.get_pixel(256, 256).0[3], 255);
    }
    for (loops, want) in [
        (Loops::Infinite, image_webp::LoopCount::Forever),
        (Loops::Times(70_000), image_webp::LoopCount::Forever),
        (
            Loops::Times(1),
            image_webp::LoopCount::Times(1.try_into().unwrap()),
        ),
    ] {
        let webp = encode_webp_animation(&frames, &[50; 3], loops, &deadline()).unwrap();
        assert_eq!(decode_webp(&webp).1, want, "{loops:?}");
    }
}

/// A frame identical to the one before, or within 3 levels of it, is
/// merged into it, its time added; 4 levels is a new frame; a 0 ms delay
/// becomes 1 ms rather than failing or vanishing.
#[test]
fn webp_merges_repeated_frames_and_keeps_zero_delays() {
    let frames = moving_avatar(32, 2);
    let shifted = |by: u8| {
        let mut f = frames[0].clone();
        for p in f.pixels_mut() {
            for v in &mut p.0[..3] {
                *v = v.saturating_sub(by);
            }
        }
        f
    };
    let repeated = [
        frames[0].clone(),
        frames[0].clone(),
        shifted(3),
        frames[1].clone(),
    ];
    let webp =
        encode_webp_animation(&repeated, &[30, 40, 50, 60], Loops::Infinite, &deadline()).unwrap();
    let delays: Vec<u32> = decode_webp(&webp).0.iter().map(|f| f.1).collect();
    assert_eq!(delays, [120, 60]);
    let changed = [frames[0].clone(), shifted(4)];
    let webp = encode_webp_animation(&changed, &[30, 40], Loops::Infinite, &deadline()).unwrap();
    assert_eq!(decode_webp(&webp).0.len(), 2);
    let webp = encode_webp_animation(&frames, &[0, 60], Loops::Infinite, &deadline()).unwrap();
    let delays: Vec<u32> = decode_webp(&webp).0.iter().map(|f| f.1).collect();
    assert_eq!(delays, [1, 60]);
}

/// Photo-like frames (fine noise over the avatar, as from a camera): the
/// lossy animation is well under half the lossless one's size, and still
/// close to its source.
#[test]
fn animated_webp_is_smaller_than_lossless() {
    let mut seed = 0x2545_F491_u32;
    let frames: Vec<RgbaImage> = moving_avatar(128, 6)
        .into_iter()
        .map(|mut f| {
            for p in f.pixels_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                let n = (seed % 16) as u8;
                for v in &mut p.0[..3] {
                    *v = v.saturating_add(n);
                }
            }
            f
        })
        .collect();
    let lossy = encode_webp_animation(&frames, &[40; 6], Loops::Infinite, &deadline()).unwrap();
    let lossless: usize = frames
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            image::codecs::webp::WebPEncoder::new_lossless(&mut out)
                .encode(f.as_raw(), 128, 128, image::ExtendedColorType::Rgba8)
                .unwrap();
            out.len()
        })
        .sum();
    assert!(
        lossy.len() * 2 < lossless,
        "lossy {} bytes, lossless {lossless}",
        lossy.len()
    );
    let (decoded, _) = decode_webp(&lossy);
    assert_eq!(decoded.len(), 6);
    // The noise is smoothed away, the picture kept: the mean colour of
    // each 8 × 8 block stays close.
    for ((img, _), src) in decoded.iter().zip(&frames) {
        let err = mean_error(&block_means(img), &block_means(src));
        assert!(err < 3.0, "8 × 8 blocks off by {err:.2} on average");
    }
}

/// A still WebP is one lossy picture (not an animation), close in colour,
/// exact in alpha.
#[test]
fn still_webp_is_close_with_exact_alpha() {
    let src = circle(&avatar(96, 96)).unwrap();
    let webp = encode_webp(&src).unwrap();
    assert!(
        !WebPDecoder::new(Cursor::new(&webp))
            .unwrap()
            .has_animation()
    );
    let (decoded, _) = decode_webp(&webp);
    assert_eq!(decoded.len(), 1);
    let img = &decoded[0].0;
    assert!(mean_error(img, &src) < 2.5);
    for (p, q) in img.pixels().zip(src.pixels()) {
        assert_eq!(p.0[3], q.0[3]);
    }
    let grad = RgbaImage::from_fn(256, 64, |x, y| {
        Rgba([x as u8, (y * 4) as u8, 255 - x as u8, 255])
    });
    let (decoded, _) = decode_webp(&encode_webp(&grad).unwrap());
    let err = mean_error(&decoded[0].0, &grad);
    assert!(err < 2.0, "gradient off by {err:.2} on average");
}

/// A lower quality gives a smaller, further still and animated WebP, alpha
/// exact at every quality; the default is quality 85's file byte for byte.
#[test]
fn webp_quality_trades_bytes_for_closeness_and_keeps_alpha() {
    let src = circle(&avatar(128, 128)).unwrap();
    let at = |q: u8| encode_webp_at(&src, WebpQuality::new(q).unwrap()).unwrap();
    assert_eq!(encode_webp(&src).unwrap(), at(85));
    let (low, high) = (at(10), at(95));
    assert!(low.len() < at(85).len() && at(85).len() < high.len());
    let error = |webp: &[u8]| mean_error(&decode_webp(webp).0[0].0, &src);
    assert!(
        error(&low) > error(&high),
        "quality 10 should be further off"
    );
    for webp in [&low, &high] {
        for (p, q) in decode_webp(webp).0[0].0.pixels().zip(src.pixels()) {
            assert_eq!(p.0[3], q.0[3]);
        }
    }

    let frames = moving_avatar(48, 3);
    let animated = |q: WebpQuality| {
        let mut w = WebpAnimationWriter::with_quality(48, 48, Loops::Infinite, q).unwrap();
        for f in &frames {
            w.add_frame(f, 50).unwrap();
        }
        w.finish().unwrap()
    };
    let default = encode_webp_animation(&frames, &[50; 3], Loops::Infinite, &deadline()).unwrap();
    assert_eq!(animated(WebpQuality::DEFAULT), default);
    assert!(animated(WebpQuality::MIN).len() < default.len());
}

/// The WebP encoder stops at the deadline, between frames.
#[test]
fn webp_stops_at_the_deadline() {
    let frames = moving_avatar(32, 4);
    let spent = Deadline::after(Duration::ZERO);
    std::thread::sleep(Duration::from_millis(2));
    let err = encode_webp_animation(&frames, &[40; 4], Loops::Infinite, &spent).unwrap_err();
    assert_eq!(err, AnimationError::TimeLimit { max_ms: 0 });
}

#[test]
fn mismatched_frames_are_refused() {
    let a = RgbaImage::new(4, 4);
    let b = RgbaImage::new(5, 4);
    assert!(matches!(
        encode_gif(&[a.clone(), b], &[1, 1], Loops::Infinite, &deadline()),
        Err(AnimationError::Invalid(_))
    ));
    assert!(matches!(
        encode_gif(&[a], &[], Loops::Infinite, &deadline()),
        Err(AnimationError::Invalid(_))
    ));
    assert!(matches!(
        encode_gif(&[], &[], Loops::Infinite, &deadline()),
        Err(AnimationError::Invalid(_))
    ));
}

#[test]
fn the_time_budget_stops_rendering() {
    let frames = moving_avatar(64, 8);
    let spent = Deadline::after(Duration::ZERO);
    std::thread::sleep(Duration::from_millis(2));
    let err = render_frames(frames.iter(), &spent, |f| apply(&Filter::Blur, f)).unwrap_err();
    assert_eq!(err, AnimationError::TimeLimit { max_ms: 0 });
    assert!(err.to_string().contains("render_time"), "{err}");
    let ok = render_frames(frames.iter(), &deadline(), |f| apply(&Filter::Sepia, f)).unwrap();
    assert_eq!(ok.len(), 8);
    assert_eq!(ok[3], apply(&Filter::Sepia, &frames[3]).unwrap());
}
