use std::time::Duration;

use image::{Rgba, RgbaImage};

use super::{
    BAYER, Candidates, Dither, ExactColours, PALETTE_SAMPLE, PROBE, Planes, Quantised, SHIFT_REACH,
    TRANSPARENT, cell_centre, cell_of, distance, find_shift, first_difference, first_equal_frames,
    last_difference,
};
use crate::frames::Deadline;

/// A budget no test run reaches, even on a loaded machine: these tests
/// check what the encoder writes, not how fast.
fn no_deadline() -> Deadline {
    Deadline::after(Duration::from_secs(3600))
}

/// Frames that change everywhere keep the full sample; frames that
/// mostly repeat the one before (a small square moving over a still
/// picture) take the smaller one, still from every frame.
#[test]
fn still_scenes_take_the_smaller_sample() {
    use super::{PALETTE_SAMPLE, STILL_SAMPLE, changed_spans, palette_sample, sample_all};
    let spans_of = |frames: &[RgbaImage]| -> Vec<Option<Vec<(usize, usize)>>> {
        (0..frames.len())
            .map(|i| (i > 0).then(|| changed_spans(&frames[i], &frames[i - 1])))
            .collect()
    };
    let moving: Vec<RgbaImage> = (0..8).map(|k| shaken(200, 150, k * 3, k * 2)).collect();
    let sample = palette_sample(&moving, &spans_of(&moving));
    assert!(sample == sample_all(&moving, PALETTE_SAMPLE));
    assert!(sample.len() >= PALETTE_SAMPLE);
    let still: Vec<RgbaImage> = (0..8u32)
        .map(|k| {
            let mut img = shaken(200, 150, 0, 0);
            for y in 50..70 {
                for x in k * 10..k * 10 + 20 {
                    img.put_pixel(x, y, Rgba([255, 0, 0, 255]));
                }
            }
            img
        })
        .collect();
    let spans = spans_of(&still);
    // Each frame differs from the one before only in the square's
    // rows, from where it was to where it is.
    assert!(spans[3].as_ref().unwrap()[10] == (200, 200));
    assert!(spans[3].as_ref().unwrap()[55] == (20, 50));
    let sample = palette_sample(&still, &spans);
    assert!(sample == sample_all(&still, STILL_SAMPLE));
    assert!((STILL_SAMPLE..STILL_SAMPLE * 2).contains(&sample.len()));
}

/// Frames that change everywhere and come back to earlier poses (a
/// pat's way back up) sample each distinct picture once, at the rate
/// the frames were sampled: fewer pixels, none of them a repeat.
#[test]
fn repeated_poses_are_sampled_once() {
    use super::{
        REPEATED_SAMPLE, changed_spans, changes_everywhere, repeated_sample, repeated_sample_size,
        sample_all,
    };
    let poses: Vec<RgbaImage> = (0..6).map(|k| shaken(200, 150, k * 3, k * 2)).collect();
    let order = [0usize, 1, 2, 3, 4, 5, 4, 3, 2, 1];
    let frames: Vec<RgbaImage> = order.iter().map(|&k| poses[k].clone()).collect();
    let pictures: Vec<&RgbaImage> = poses.iter().collect();
    let spans: Vec<Option<Vec<(usize, usize)>>> = (0..pictures.len())
        .map(|i| (i > 0).then(|| changed_spans(pictures[i], pictures[i - 1])))
        .collect();
    assert!(changes_everywhere(&frames, &spans));
    let sample = repeated_sample(&frames, &pictures);
    let want = (PALETTE_SAMPLE * 6).div_ceil(10).min(REPEATED_SAMPLE);
    assert_eq!(want, repeated_sample_size(6 * 200 * 150, 10 * 200 * 150));
    assert!(sample == sample_all(&pictures, want));
    assert!((want..want * 2).contains(&sample.len()));
    // Mostly still pictures keep the smaller sample's rule.
    let still: Vec<RgbaImage> = (0..6).map(|_| shaken(200, 150, 0, 0)).collect();
    let still_spans: Vec<Option<Vec<(usize, usize)>>> = (0..still.len())
        .map(|i| (i > 0).then(|| changed_spans(&still[i], &still[i - 1])))
        .collect();
    assert!(!changes_everywhere(&still, &still_spans));
}

#[test]
fn differences_are_found_at_every_place() {
    for len in [0usize, 1, 63, 64, 65, 200] {
        let a = vec![7u8; len];
        assert_eq!(
            (first_difference(&a, &a), last_difference(&a, &a)),
            (len, len)
        );
        for at in 0..len {
            let mut b = a.clone();
            b[at] = 8;
            assert_eq!(first_difference(&a, &b), at, "{len} {at}");
            assert_eq!(last_difference(&a, &b), len - 1 - at, "{len} {at}");
        }
    }
}

/// Mapping a frame with the one before it copies the indices of equal
/// pixels; the result is what mapping it alone gives: a many-coloured
/// card whose middle changes, with transparent holes moving.
#[test]
fn indices_copied_from_the_frame_before_are_those_mapped_anew() {
    let frames: Vec<RgbaImage> = (0..4u32)
        .map(|k| {
            RgbaImage::from_fn(61, 43, |x, y| {
                let inside = (20..40).contains(&x) && (10..30).contains(&y);
                let alpha = if (x + y + k) % 17 == 0 { 0 } else { 255 };
                if inside {
                    Rgba([(x * 9 + k * 40) as u8, (y * 5) as u8, (k * 60) as u8, 255])
                } else {
                    Rgba([(x * 4) as u8, (y * 6) as u8, ((x + y) * 3) as u8, alpha])
                }
            })
        })
        .collect();
    let mut q = Quantised::train(&frames.iter().collect::<Vec<_>>(), PALETTE_SAMPLE);
    let alone: Vec<Vec<u8>> = frames
        .iter()
        .map(|f| {
            let mut out = Vec::new();
            q.index_frame(f, None, &mut out);
            out
        })
        .collect();
    for k in 1..frames.len() {
        let mut out = Vec::new();
        q.index_frame(&frames[k], Some((&frames[k - 1], &alone[k - 1])), &mut out);
        assert!(out == alone[k], "frame {k}");
    }
    // And something was copied: the card outside the middle is the same
    // in frames 0 and 2 where the holes are not.
    assert!(
        alone[0]
            .iter()
            .zip(&alone[2])
            .filter(|(a, b)| a == b)
            .count()
            > 61 * 43 / 2
    );
}

/// The indices written while collecting are those a lookup of every
/// pixel in the final (merged) set gives.
fn indices_match_lookups(frames: &[RgbaImage]) -> usize {
    let deadline = no_deadline();
    let (set, indexed) = ExactColours::index(&frames.iter().collect::<Vec<_>>(), &deadline)
        .unwrap()
        .unwrap();
    assert!(set.colours.len() <= usize::from(TRANSPARENT));
    for (frame, got) in frames.iter().zip(&indexed) {
        let mut want = Vec::new();
        set.index_frame(frame, &mut want);
        assert!(got == &want);
    }
    set.colours.len()
}

/// Greys `0, step, 2 × step…` (`levels` of them).
fn grey_frames(levels: u32, step: u32, holes: bool) -> Vec<RgbaImage> {
    (0..4)
        .map(|k| {
            RgbaImage::from_fn(37, 23, |x, y| {
                let g = ((x * 7 + y * 3 + k * 5) % levels * step) as u8;
                let alpha = if holes && (x + k) % 9 == 0 { 0 } else { 255 };
                Rgba([g, g, g, alpha])
            })
        })
        .collect()
}

#[test]
fn one_pass_indices_are_the_merged_colours() {
    // No merge; one level apart (renumbered); a full greyscale with
    // and without transparency (index 255 a colour as it is collected).
    assert_eq!(indices_match_lookups(&grey_frames(3, 100, true)), 3);
    // A kept grey takes in at most the greys on either side of it.
    for (levels, holes) in [(200, true), (256, false), (256, true)] {
        let kept = indices_match_lookups(&grey_frames(levels, 1, holes));
        assert!((levels as usize / 3..levels as usize / 2 + 40).contains(&kept));
    }
    let spaced: Vec<RgbaImage> = (0..3)
        .map(|k| {
            RgbaImage::from_fn(64, 64, |x, y| {
                let v = ((x + y * 64 + k * 11) % 255) as u8;
                Rgba([v, v.wrapping_mul(3), 255 - v, 255])
            })
        })
        .collect();
    assert_eq!(indices_match_lookups(&spaced), 255);
    let over = RgbaImage::from_fn(17, 17, |x, y| Rgba([x as u8 * 15, y as u8 * 15, 9, 255]));
    let deadline = no_deadline();
    assert!(ExactColours::index(&[&over], &deadline).unwrap().is_none());
}

/// A seeded xorshift generator.
fn xorshift(mut seed: u32) -> impl FnMut() -> u32 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    }
}

/// Palettes for the nearest-colour searches: of few levels (ties),
/// spread over the cube (long lists, some past the most kept), packed
/// near one colour (short ones), and of one colour.
fn search_palettes(next: &mut impl FnMut() -> u32) -> Vec<Vec<[u8; 3]>> {
    vec![
        (0..100)
            .map(|_| [0; 3].map(|_: u8| (next() % 4 * 85) as u8))
            .collect(),
        (0..255).map(|_| [0; 3].map(|_: u8| next() as u8)).collect(),
        (0..255)
            .map(|_| [0; 3].map(|_: u8| (96 + next() % 64) as u8))
            .collect(),
        vec![[10, 20, 30]],
    ]
}

/// The ordered search picks what a plain scan picks, the first of
/// equally near colours included.
#[test]
fn candidate_lists_give_the_first_closest_colour() {
    let mut next = xorshift(0x1357_9BDF);
    let palettes = search_palettes(&mut next);
    for colours in &palettes {
        let planes = Planes::new(colours);
        for span in [(0, 15), (2, 14)] {
            let mut candidates = Candidates::new(span);
            for k in 0..4000 {
                let mut rgb = [0; 3].map(|_: u8| next() as u8);
                if k % 2 == 0 {
                    // Near the palette, where most searches are.
                    let c = colours[next() as usize % colours.len()];
                    rgb = c.map(|v| v.saturating_add((next() % 9) as u8).saturating_sub(4));
                }
                if span.0 == 2 {
                    // A lookup cell's centre.
                    rgb = rgb.map(|v| v & !3 | 2);
                }
                let hint = Some((next() % colours.len() as u32) as u8);
                assert_eq!(
                    candidates.nearest(&planes, rgb, hint),
                    planes.nearest(rgb),
                    "{rgb:?} in {} colours",
                    colours.len()
                );
            }
        }
    }
}

/// A box's cells filled at once hold what each cell's own search
/// gives, for every box of the colour cube.
#[test]
fn cells_filled_by_box_are_those_searched_one_by_one() {
    let mut next = xorshift(0x0BAD_5EED);
    let palettes = search_palettes(&mut next);
    for colours in &palettes {
        let planes = Planes::new(colours);
        let mut candidates = Candidates::new((2, 14));
        let mut filled = 0;
        for key in 0..4096 {
            let mut cells = [0u8; 64];
            if !candidates.fill_cells(&planes, key, &mut cells) {
                continue;
            }
            filled += 1;
            for (low, &index) in cells.iter().enumerate() {
                let centre = cell_centre(key << 6 | low);
                assert_eq!(index, planes.nearest(centre), "{centre:?}");
            }
        }
        assert!(filled > 0);
    }
}

#[test]
fn nearest_is_the_first_closest_colour() {
    let mut next = xorshift(0x2468_ACE1);
    for len in [1, 2, 7, 8, 9, 100, 255] {
        // Few levels, so that ties happen.
        let colours: Vec<[u8; 3]> = (0..len)
            .map(|_| [0; 3].map(|_: u8| (next() % 4 * 85) as u8))
            .collect();
        let planes = Planes::new(&colours);
        for _ in 0..500 {
            let rgb = [0; 3].map(|_: u8| next() as u8);
            let mut best = (u32::MAX, 0);
            for (i, &c) in colours.iter().enumerate() {
                if distance(rgb, c) < best.0 {
                    best = (distance(rgb, c), i);
                }
            }
            assert_eq!(usize::from(planes.nearest(rgb)), best.1, "{rgb:?} in {len}");
            // Any starting colour gives the same answer.
            let hint = (next() % len as u32) as u8;
            assert_eq!(
                usize::from(planes.nearest_from(rgb, Some(hint))),
                best.1,
                "{rgb:?} from {hint} in {len}"
            );
        }
    }
}

/// A photo-like picture: smooth colour with noise, `w` × `h`, seen
/// through a window moved by `(dx, dy)` over a larger one.
fn shaken(w: u32, h: u32, dx: i32, dy: i32) -> RgbaImage {
    RgbaImage::from_fn(w, h, |x, y| {
        let (u, v) = ((x as i32 + dx) as u32, (y as i32 + dy) as u32);
        let n = (u.wrapping_mul(2_654_435_761) ^ v.wrapping_mul(40_503)) >> 27;
        Rgba([
            (u * 2 + n) as u8,
            (v * 3 + n) as u8,
            ((u + v) + n * 3) as u8,
            255,
        ])
    })
}

/// Every colour of 6 bits a channel has a cell of its own, whose centre
/// is that colour's (the 8-bit levels `4 × v + 2`).
#[test]
fn cells_hold_each_colour_once() {
    let mut seen = vec![false; 1 << 18];
    for r in 0..64u32 {
        for g in 0..64u32 {
            for b in 0..64u32 {
                // Any of the 4 levels of each 6-bit value, and any alpha.
                let rgb = (r << 2 | (b & 3))
                    | (g << 2 | (r & 3)) << 8
                    | (b << 2 | (g & 3)) << 16
                    | (r * 4) << 24;
                let cell = cell_of(rgb);
                assert!(!seen[cell], "{r} {g} {b}");
                seen[cell] = true;
                assert_eq!(cell_centre(cell), [r, g, b].map(|v| (v * 4 + 2) as u8));
            }
        }
    }
}

/// The dither as saturating bytes is the offset added and clamped, for
/// every value, place and amplitude, on rows of every length.
#[test]
fn byte_dither_is_the_clamped_offset() {
    for amp in 2..=16 {
        let dither = Dither::new(amp);
        let off = |t: u8| (i32::from(t) * 2 - 63) * amp / 64;
        for width in [1usize, 7, 8, 9, 64, 67] {
            for y in 0..8 {
                for v in (0..=255u8).step_by(3) {
                    let row: Vec<u8> = (0..width * 4)
                        .map(|i| v.wrapping_add((i * 37) as u8))
                        .collect();
                    let mut out = vec![0u8; row.len()];
                    dither.row(&row, y, &mut out);
                    for x in 0..width {
                        let b = BAYER[y % 8][x % 8];
                        let o = [off(b), off(63 - b), off(BAYER[x % 8][y % 8]), 0];
                        for c in 0..4 {
                            let want = (i32::from(row[x * 4 + c]) + o[c]).clamp(0, 255);
                            assert_eq!(
                                i32::from(out[x * 4 + c]),
                                want,
                                "amp {amp}, width {width}, ({x}, {y}), channel {c}"
                            );
                        }
                    }
                }
            }
        }
    }
}

/// A moved frame's pixels equal to the pixel they moved from take its
/// index, every other pixel the index it has mapped alone: with pixels
/// changed here and there in the moved picture (so runs of equal pixels
/// of every length) and transparent holes.
#[test]
fn moved_pixels_copy_exactly_those_equal() {
    let a = shaken(77, 50, 20, 20);
    let mut b = shaken(77, 50, 15, 23);
    for (i, p) in b.pixels_mut().enumerate() {
        if i % 13 == 0 || i % 29 < 3 {
            p.0[0] ^= 0x40;
        }
        if i % 31 == 5 {
            p.0[3] = 0;
        }
    }
    // Keep the probe's run (the middle) unchanged, so the move is found.
    for x in 0..77 {
        *b.get_pixel_mut(x, 25) = shaken(77, 50, 15, 23).get_pixel(x, 25).to_owned();
    }
    let (dx, dy) = find_shift(&b, &a).expect("a shift");
    assert_eq!((dx, dy), (5, -3));
    let mut q = Quantised::train(&[&a, &b], PALETTE_SAMPLE);
    let (mut ia, mut ib, mut alone) = (Vec::new(), Vec::new(), Vec::new());
    q.index_frame(&a, None, &mut ia);
    q.index_frame(&b, Some((&a, &ia)), &mut ib);
    q.index_frame(&b, None, &mut alone);
    let mut copied = 0;
    for y in 0..50isize {
        for x in 0..77isize {
            let (sx, sy) = (x - dx, y - dy);
            let at = (y * 77 + x) as usize;
            let p = b.get_pixel(x as u32, y as u32);
            let inside = (0..77).contains(&sx) && (0..50).contains(&sy);
            let want = if inside && a.get_pixel(sx as u32, sy as u32) == p {
                copied += 1;
                ia[(sy * 77 + sx) as usize]
            } else {
                alone[at]
            };
            assert_eq!(ib[at], want, "({x}, {y})");
        }
    }
    assert!(copied > 77 * 50 / 2, "{copied} copied");
}

/// The search finds the offset a plain scan of every offset (`dy`, then
/// `dx`, rising) finds first, also where several match (a repeating
/// pattern) and near the edges.
#[test]
fn the_shift_found_is_the_first_in_order() {
    fn scan(cur: &RgbaImage, prev: &RgbaImage) -> Option<(isize, isize)> {
        let (w, h) = (cur.width() as isize, cur.height() as isize);
        if w < PROBE as isize * 2 || h < 4 {
            return None;
        }
        let run = |img: &RgbaImage, x: isize, y: isize| -> Vec<u8> {
            let at = (y * w + x) as usize * 4;
            img.as_raw()[at..at + PROBE * 4].to_vec()
        };
        for (fx, fy) in [(2, 2), (1, 1), (3, 1), (1, 3), (3, 3)] {
            let (px, py) = (
                (w * fx / 4 - PROBE as isize / 2).clamp(0, w - PROBE as isize),
                h * fy / 4,
            );
            let want = run(cur, px, py);
            if want == run(prev, px, py) || want.chunks_exact(4).all(|p| *p == want[..4]) {
                continue;
            }
            for dy in -SHIFT_REACH..=SHIFT_REACH {
                for dx in -SHIFT_REACH..=SHIFT_REACH {
                    let (sx, sy) = (px - dx, py - dy);
                    if (0..h).contains(&sy)
                        && sx >= 0
                        && sx + PROBE as isize <= w
                        && (dx, dy) != (0, 0)
                        && run(prev, sx, sy) == want
                    {
                        return Some((dx, dy));
                    }
                }
            }
        }
        None
    }
    let stripes = |w: u32, h: u32, k: u32| {
        RgbaImage::from_fn(w, h, |x, y| {
            Rgba([((x + k) % 5 * 50) as u8, ((y + k) % 3 * 80) as u8, 7, 255])
        })
    };
    let pairs = [
        (shaken(96, 80, 13, 24), shaken(96, 80, 20, 20)),
        (shaken(96, 80, 20, 20), shaken(96, 80, 13, 24)),
        (shaken(40, 30, 0, 3), shaken(40, 30, 31, 0)),
        (shaken(300, 200, 60, 60), shaken(300, 200, 12, 100)),
        (stripes(64, 48, 1), stripes(64, 48, 0)),
        (stripes(33, 9, 2), stripes(33, 9, 0)),
        (stripes(200, 120, 0), shaken(200, 120, 0, 0)),
    ];
    for (k, (cur, prev)) in pairs.iter().enumerate() {
        assert_eq!(find_shift(cur, prev), scan(cur, prev), "pair {k}");
    }
    assert!(find_shift(&pairs[4].0, &pairs[4].1).is_some());
}

/// A frame that shows the frame before moved is found moved, and each of
/// its pixels that moved from one takes that one's index; the others
/// (the strip the move uncovers) are mapped, to colours near theirs.
#[test]
fn a_moved_picture_keeps_its_indices() {
    let (a, b) = (shaken(96, 80, 20, 20), shaken(96, 80, 13, 24));
    // b at (x, y) is a at (x - 7, y + 4): b shows a moved by (7, -4).
    assert_eq!(find_shift(&b, &a), Some((7, -4)));
    let mut q = Quantised::train(&[&a, &b], PALETTE_SAMPLE);
    let (mut ia, mut ib) = (Vec::new(), Vec::new());
    q.index_frame(&a, None, &mut ia);
    q.index_frame(&b, Some((&a, &ia)), &mut ib);
    for y in 0..80usize {
        for x in 0..96usize {
            let got = ib[y * 96 + x];
            if x >= 7 && y + 4 < 80 {
                assert_eq!(got, ia[(y + 4) * 96 + x - 7], "({x}, {y})");
            }
            let p = b.get_pixel(x as u32, y as u32).0;
            let c = q.colours[usize::from(got)];
            let far = (0..3).map(|i| p[i].abs_diff(c[i])).max().unwrap();
            assert!(far <= 48, "({x}, {y}): {p:?} as {c:?}");
        }
    }
    // Flat colour and unmoved frames have no shift.
    let flat = RgbaImage::from_pixel(96, 80, Rgba([9, 9, 9, 255]));
    assert_eq!(find_shift(&flat, &a), None);
    assert_eq!(find_shift(&a, &a), None);
}

/// Tiny frames of many colours (the palette trained, rows shorter than
/// the dither's 8 pixels, holes): 300 frames of 1 × 1, each another
/// colour, and 40 of 5 × 3; each decodes to colours near its own.
/// (Consecutive frames mapped to the same indices are merged, their
/// delays added: each source frame is shown for 10 ms, one hundredth.)
#[test]
fn tiny_frames_of_many_colours_decode_near() {
    let one: Vec<RgbaImage> = (0..300u32)
        .map(|k| {
            RgbaImage::from_pixel(
                1,
                1,
                Rgba([(k * 7) as u8, (k * 13) as u8, (k * 29) as u8, 255]),
            )
        })
        .collect();
    let small: Vec<RgbaImage> = (0..40u32)
        .map(|k| {
            RgbaImage::from_fn(5, 3, |x, y| {
                let v = k * 15 + y * 5 + x;
                let alpha = if (v * 7) % 11 == 0 { 0 } else { 255 };
                Rgba([(v * 37) as u8, (v * 11) as u8, 255 - (v * 3) as u8, alpha])
            })
        })
        .collect();
    for frames in [small, one] {
        let deadline = no_deadline();
        let delays = vec![10; frames.len()];
        let gif = super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
        let (w, h) = frames[0].dimensions();
        let mut k = 0;
        for (screen, delay) in shown_screens(&gif, w as usize, h as usize) {
            for source in &frames[k..k + usize::from(delay)] {
                for (p, q) in source.as_raw().chunks_exact(4).zip(screen.chunks_exact(4)) {
                    if p[3] < 128 {
                        assert_eq!(q[3], 0, "frame {k}: a hole");
                    } else {
                        let far = (0..3).map(|c| p[c].abs_diff(q[c])).max().unwrap();
                        assert!(q[3] == 255 && far <= 48, "frame {k}: {p:?} as {q:?}");
                    }
                }
            }
            k += usize::from(delay);
        }
        assert_eq!(k, frames.len());
    }
}

/// What a viewer shows for each frame of `gif` (`width` × `height`,
/// RGBA, a frame drawn over the one before unless that one was disposed
/// to the background), with the frame's delay in centiseconds.
fn shown_screens(gif: &[u8], width: usize, height: usize) -> Vec<(Vec<u8>, u16)> {
    let mut options = gif_codec::DecodeOptions::new();
    options.set_color_output(gif_codec::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif).unwrap();
    let mut screen = vec![0u8; width * height * 4];
    let (mut shown, mut disposed) = (Vec::new(), false);
    let mut restore: Option<Vec<u8>> = None;
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        if disposed {
            screen.fill(0);
        }
        if let Some(saved) = restore.take() {
            screen = saved;
        }
        disposed = frame.dispose == gif_codec::DisposalMethod::Background;
        if frame.dispose == gif_codec::DisposalMethod::Previous {
            restore = Some(screen.clone());
        }
        let (left, top, fw) = (
            usize::from(frame.left),
            usize::from(frame.top),
            usize::from(frame.width),
        );
        for (i, px) in frame.buffer.chunks_exact(4).enumerate() {
            if px[3] != 0 {
                let at = ((top + i / fw) * width + left + i % fw) * 4;
                screen[at..at + 4].copy_from_slice(px);
            }
        }
        shown.push((screen.clone(), frame.delay));
    }
    shown
}

/// What a viewer shows (`screen`, RGBA) is frame `k` as drawn: its
/// transparent pixels transparent, the others opaque and within a
/// palette's dither of their colour.
fn assert_shows(frame: &RgbaImage, screen: &[u8], k: usize) {
    for (p, q) in frame.as_raw().chunks_exact(4).zip(screen.chunks_exact(4)) {
        if p[3] == 0 {
            assert_eq!(q[3], 0, "frame {k}: a transparent pixel shows");
        } else {
            let far = (0..3).map(|c| p[c].abs_diff(q[c])).max().unwrap();
            assert!(q[3] == 255 && far <= 48, "frame {k}: {p:?} as {q:?}");
        }
    }
}

/// `picture` at `(x, y)` on a transparent `w` × `h` canvas.
fn placed(picture: &RgbaImage, w: u32, h: u32, (x, y): (u32, u32)) -> RgbaImage {
    let mut frame = RgbaImage::new(w, h);
    image::imageops::replace(&mut frame, picture, i64::from(x), i64::from(y));
    frame
}

/// A picture that moves on a transparent canvas (a shake) is mapped and
/// compressed once: every frame is that one stream at the frame's place
/// (its rectangle inside the screen), disposed to the background; shown
/// as a viewer shows it, each frame is the picture at its place over
/// transparency.
#[test]
fn a_picture_moving_on_a_transparent_canvas_is_stored_once() {
    let mut picture = shaken(56, 40, 4, 4);
    // A transparent hole inside it, and a corner: kept as they are.
    for (x, y, p) in picture.enumerate_pixels_mut() {
        if (20..26).contains(&x) && (10..14).contains(&y) || x + y < 3 {
            p.0[3] = 0;
        }
    }
    let places = [(0, 0), (10, 2), (4, 10), (10, 10), (0, 6), (6, 0), (2, 8)];
    let frames: Vec<RgbaImage> = places
        .iter()
        .map(|&at| placed(&picture, 66, 50, at))
        .collect();
    let deadline = no_deadline();
    let delays = [40; 7];
    let gif = super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
    // The stored frames: one stream, at each place.
    let mut options = gif_codec::DecodeOptions::new();
    options.skip_frame_decoding(true);
    let mut decoder = options.read_info(&gif[..]).unwrap();
    let mut streams = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        let k = streams.len();
        let (x, y) = places[k];
        assert_eq!(
            (frame.left, frame.top, frame.width, frame.height),
            (x as u16, y as u16, 56, 40),
            "frame {k}"
        );
        assert_eq!(frame.dispose, gif_codec::DisposalMethod::Background);
        streams.push(frame.buffer.to_vec());
    }
    assert_eq!(streams.len(), 7);
    assert!(streams.iter().all(|s| *s == streams[0]));
    // The palette, and the one stream for each frame (a GIF frame holds
    // its own data) with little more.
    let most = 800 + 7 * (streams[0].len() + 40);
    assert!(gif.len() < most, "{} bytes", gif.len());
    // What a viewer shows.
    let shown = shown_screens(&gif, 66, 50);
    assert_eq!(shown.len(), 7);
    for (k, (screen, delay)) in shown.iter().enumerate() {
        assert_eq!(*delay, 4);
        assert_shows(&frames[k], screen, k);
    }
}

/// A picture handed over with its places ([`super::encode_gif_placed`])
/// is the same GIF, byte for byte, as its frames composed and found to
/// be one picture moved: photo-like (a trained palette) or of a few
/// colours (kept exactly), with a frame at the same place twice in a
/// row (merged). One that does not fit the canvas everywhere is encoded
/// from its composed frames, and shows them.
#[test]
fn a_placed_picture_is_the_gif_of_its_composed_frames() {
    use crate::placed::PlacedFrames;
    let mut photo = shaken(56, 40, 4, 4);
    for (x, y, p) in photo.enumerate_pixels_mut() {
        if (20..26).contains(&x) && (10..14).contains(&y) || x + y < 3 {
            p.0[3] = 0;
        }
    }
    let flat = RgbaImage::from_fn(30, 20, |x, y| {
        Rgba([(x / 6 * 40) as u8, 200, (y / 5 * 60) as u8, 255])
    });
    let deadline = no_deadline();
    let places = [(0, 0), (10, 2), (10, 2), (4, 10), (10, 10), (0, 6), (6, 0)];
    for picture in [photo, flat] {
        let handed = PlacedFrames {
            canvas: (66, 50),
            picture: picture.clone(),
            frames: places
                .iter()
                .enumerate()
                .map(|(k, &at)| (at, 30 + k as u32 * 10))
                .collect(),
            backdrop: None,
        };
        let frames: Vec<RgbaImage> = places
            .iter()
            .map(|&at| placed(&picture, 66, 50, at))
            .collect();
        let delays: Vec<u32> = handed.frames.iter().map(|&(_, d)| d).collect();
        let whole = super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
        let gif = super::encode_gif_placed(&handed, crate::Loops::Infinite, &deadline).unwrap();
        assert!(
            gif == whole,
            "{} bytes, {} composed",
            gif.len(),
            whole.len()
        );
        let shown = shown_screens(&gif, 66, 50);
        assert_eq!(shown.len(), 6);
        assert_shows(&frames[0], &shown[0].0, 0);
        assert_shows(&frames[3], &shown[2].0, 3);
    }
    // Partly off the canvas: the frames as composed, clipped.
    let picture = shaken(40, 30, 0, 0);
    let off = PlacedFrames {
        canvas: (50, 40),
        picture: picture.clone(),
        frames: vec![((0, 0), 40), ((20, 15), 40)],
        backdrop: None,
    };
    assert!(!off.fits());
    let gif = super::encode_gif_placed(&off, crate::Loops::Infinite, &deadline).unwrap();
    let shown = shown_screens(&gif, 50, 40);
    assert_eq!(shown.len(), 2);
    for (k, (screen, _)) in shown.iter().enumerate() {
        assert_shows(&off.frame(k), screen, k);
    }
    let empty = PlacedFrames {
        frames: Vec::new(),
        ..off
    };
    assert!(super::encode_gif_placed(&empty, crate::Loops::Infinite, &deadline).is_err());
}

/// Over a backdrop, the first frame is stored whole and every later one
/// is the picture, compressed once, at its place over the first restored
/// ("restore to previous"): every frame shows full, as composed, and
/// frames at one place merge.
#[test]
fn a_picture_moving_over_a_backdrop_is_stored_once_over_the_first_frame() {
    use crate::placed::PlacedFrames;
    let mut picture = shaken(40, 30, 0, 0);
    picture.put_pixel(5, 5, Rgba([0, 0, 0, 0]));
    picture.put_pixel(30, 20, Rgba([0, 0, 0, 0]));
    let backdrop = RgbaImage::from_fn(60, 50, |x, y| Rgba([(x * 4) as u8, 90, (y * 5) as u8, 255]));
    let places = [(10, 10), (0, 4), (0, 4), (20, 20), (10, 10), (16, 0)];
    let handed = PlacedFrames {
        canvas: (60, 50),
        picture: picture.clone(),
        frames: places.iter().map(|&at| (at, 40)).collect(),
        backdrop: Some(backdrop),
    };
    let deadline = no_deadline();
    let gif = super::encode_gif_placed(&handed, crate::Loops::Infinite, &deadline).unwrap();
    let shown = shown_screens(&gif, 60, 50);
    // (0, 4) twice is one frame of 80 ms.
    assert_eq!(shown.len(), 5);
    assert_eq!(shown[1].1, 8);
    for (screen, k) in shown.iter().zip([0, 1, 3, 4, 5]) {
        assert!(screen.0.chunks_exact(4).all(|p| p[3] == 255), "frame {k}");
        assert_shows(&handed.frame(k), &screen.0, k);
    }
    // The later frames are the picture's rectangle, disposed by restoring
    // the first, one stream for all.
    let mut decoder = gif_codec::DecodeOptions::new().read_info(&gif[..]).unwrap();
    let mut streams = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        streams.push((
            frame.width,
            frame.height,
            frame.dispose,
            frame.buffer.to_vec(),
        ));
    }
    assert_eq!((streams[0].0, streams[0].1), (60, 50));
    for later in &streams[1..] {
        assert_eq!((later.0, later.1), (40, 30));
        assert_eq!(later.2, gif_codec::DisposalMethod::Previous);
        assert_eq!(later.3, streams[1].3);
    }
    let composed: Vec<RgbaImage> = (0..places.len()).map(|k| handed.frame(k)).collect();
    let whole = super::encode_gif(&composed, &[40; 6], crate::Loops::Infinite, &deadline).unwrap();
    assert!(
        gif.len() < whole.len(),
        "{} over {}",
        gif.len(),
        whole.len()
    );
}

/// Frames given as the first and each later frame's changed rectangle
/// encode to the file their composed frames do: a still photo-like
/// scene with a square moving over it (rectangles holding unchanged
/// pixels too, a frame given again with no change, one that is the
/// frame before again by its pixels, one that uncovers transparency),
/// frames changing everywhere (each picture sampled once), and few
/// colours (the exact palette). Rectangles past the canvas are encoded
/// from the composed frames, clipped.
#[test]
fn patched_frames_are_the_gif_of_their_composed_frames() {
    use crate::patched::{Patch, PatchedFrames};
    let deadline = no_deadline();
    let patch = |at: (u32, u32), pixels: RgbaImage| Some(Patch { at, pixels });
    let square = shaken(12, 10, 40, 7);
    let mut holed = square.clone();
    holed.put_pixel(3, 3, Rgba([0, 0, 0, 0]));
    let scene = shaken(90, 70, 0, 0);
    // The square at `at` over the scene, within the box `(x, y, w, h)`.
    let over = |at: (u32, u32), square: &RgbaImage, (x, y, w, h): (u32, u32, u32, u32)| {
        let mut frame = scene.clone();
        image::imageops::replace(&mut frame, square, i64::from(at.0), i64::from(at.1));
        image::imageops::crop_imm(&frame, x, y, w, h).to_image()
    };
    let moving = PatchedFrames {
        first: scene.clone(),
        frames: vec![
            (None, 40),
            (patch((10, 8), over((12, 9), &square, (10, 8, 20, 16))), 40),
            (None, 50),
            (patch((10, 8), over((12, 9), &square, (10, 8, 20, 16))), 60),
            (patch((8, 5), over((30, 12), &square, (8, 5, 40, 20))), 40),
            (
                patch((28, 10), over((30, 30), &holed, (28, 10, 16, 34))),
                40,
            ),
            (patch((0, 0), scene.clone()), 70),
        ],
    };
    let everywhere = PatchedFrames {
        first: shaken(240, 210, 0, 0),
        frames: vec![
            (None, 40),
            (patch((0, 0), shaken(240, 210, 3, 1)), 40),
            (None, 40),
            (patch((0, 0), shaken(240, 210, 5, 9)), 40),
        ],
    };
    let flat = |x: u32, y: u32| Rgba([(x / 8 * 40) as u8, 200, (y / 6 * 50) as u8, 255]);
    let few = PatchedFrames {
        first: RgbaImage::from_fn(40, 30, flat),
        frames: vec![
            (None, 40),
            (
                patch((4, 4), RgbaImage::from_pixel(6, 5, Rgba([9, 9, 9, 255]))),
                40,
            ),
        ],
    };
    for (name, patched) in [("moving", moving), ("everywhere", everywhere), ("few", few)] {
        assert!(patched.fits(), "{name}");
        let (frames, delays): (Vec<RgbaImage>, Vec<u32>) = patched.composed().into_iter().unzip();
        let whole = super::encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
        let gif = super::encode_gif_patched(&patched, crate::Loops::Infinite, &deadline).unwrap();
        assert!(
            gif == whole,
            "{name}: {} bytes, {} composed",
            gif.len(),
            whole.len()
        );
    }
    let off = PatchedFrames {
        first: scene.clone(),
        frames: vec![(None, 40), (patch((85, 60), shaken(10, 12, 1, 1)), 40)],
    };
    assert!(!off.fits());
    let gif = super::encode_gif_patched(&off, crate::Loops::Infinite, &deadline).unwrap();
    let shown = shown_screens(&gif, 90, 70);
    assert_eq!(shown.len(), 2);
    for (k, (frame, _)) in off.composed().iter().enumerate() {
        assert_shows(frame, &shown[k].0, k);
    }
    let empty = PatchedFrames {
        frames: Vec::new(),
        ..off
    };
    assert!(super::encode_gif_patched(&empty, crate::Loops::Infinite, &deadline).is_err());
}

/// Pictures are cut out only within the byte budget: the first moving
/// picture (by its first frame) is cut, one past the budget stays in
/// its whole frames.
#[test]
fn moving_pictures_are_cut_out_within_a_budget() {
    let (a, b) = (shaken(20, 10, 1, 2), shaken(16, 12, 5, 3));
    let frames = [
        placed(&a, 40, 30, (0, 0)),
        placed(&b, 40, 30, (2, 2)),
        placed(&a, 40, 30, (6, 4)),
        placed(&b, 40, 30, (8, 10)),
    ];
    let all = super::moved_contents(&frames, 20 * 10 * 4 + 16 * 12 * 4);
    assert_eq!(
        all,
        [
            Some(((0, 0, 20, 10), 0)),
            Some(((2, 2, 16, 12), 1)),
            Some(((6, 4, 20, 10), 0)),
            Some(((8, 10, 16, 12), 1)),
        ]
    );
    let one = super::moved_contents(&frames, 20 * 10 * 4 + 16 * 12 * 4 - 1);
    assert_eq!(one, [all[0], None, all[2], None]);
    assert!(
        super::moved_contents(&frames, 0)
            .iter()
            .all(Option::is_none)
    );
}

/// A picture that moves while it changes (an animated avatar shaken)
/// is stored frame by frame, and still shows each frame's picture at
/// its place over transparency.
#[test]
fn a_changing_picture_moving_on_a_transparent_canvas_shows_each_frame() {
    let places = [(0, 0), (10, 2), (4, 10), (10, 10)];
    let frames: Vec<RgbaImage> = places
        .iter()
        .enumerate()
        .map(|(k, &at)| placed(&shaken(56, 40, k as i32 * 3, 0), 66, 50, at))
        .collect();
    let deadline = no_deadline();
    let gif = super::encode_gif(&frames, &[40; 4], crate::Loops::Infinite, &deadline).unwrap();
    let shown = shown_screens(&gif, 66, 50);
    assert_eq!(shown.len(), 4);
    for (k, (screen, _)) in shown.iter().enumerate() {
        assert_shows(&frames[k], screen, k);
    }
}

/// The bounds of what is not transparent, the rest at any alpha under
/// the cutoff.
#[test]
fn opaque_bounds_are_the_rectangle_of_visible_pixels() {
    let mut frame = RgbaImage::from_pixel(30, 20, Rgba([1, 2, 3, 100]));
    assert_eq!(super::opaque_bounds(&frame), None);
    for (x, y) in [(7, 4), (12, 15), (3, 9), (20, 6)] {
        frame.put_pixel(x, y, Rgba([9, 9, 9, 128]));
    }
    assert_eq!(super::opaque_bounds(&frame), Some((3, 4, 18, 12)));
    let full = RgbaImage::from_pixel(5, 4, Rgba([0, 0, 0, 255]));
    assert_eq!(super::opaque_bounds(&full), Some((0, 0, 5, 4)));
    // Pixels scattered over frames of many widths (whole and partial
    // groups of 8): the rectangle of a pixel-by-pixel scan.
    let mut next = xorshift(0x0BAD_F00D);
    for width in [1, 7, 8, 9, 16, 17, 31, 64, 70] {
        for count in [1, 2, 5] {
            let mut frame = RgbaImage::from_pixel(width, 6, Rgba([0, 0, 0, 127]));
            for _ in 0..count {
                let seed = next();
                frame.put_pixel(seed % width, seed / width % 6, Rgba([5, 5, 5, 200]));
            }
            let seen: Vec<(u32, u32)> = frame
                .enumerate_pixels()
                .filter(|(_, _, p)| p[3] >= 128)
                .map(|(x, y, _)| (x, y))
                .collect();
            let (x0, x1) = (
                seen.iter().map(|p| p.0).min(),
                seen.iter().map(|p| p.0).max(),
            );
            let (y0, y1) = (
                seen.iter().map(|p| p.1).min(),
                seen.iter().map(|p| p.1).max(),
            );
            let want = x0.zip(x1).zip(y0.zip(y1)).map(|((x0, x1), (y0, y1))| {
                let (x0, y0) = (x0 as usize, y0 as usize);
                (x0, y0, x1 as usize + 1 - x0, y1 as usize + 1 - y0)
            });
            assert_eq!(super::opaque_bounds(&frame), want, "{width} {count}");
        }
    }
}

/// Frames with the same pixels as an earlier one are found (not only
/// consecutive ones), and the GIF shows every frame as drawn: a shake
/// between poses that come back decodes to the poses.
#[test]
fn frames_that_come_back_are_found_and_shown() {
    let poses = [(0, 0), (9, 5), (3, 11)];
    let order = [0usize, 1, 2, 1, 0, 2];
    let frames: Vec<RgbaImage> = order
        .iter()
        .map(|&k| shaken(64, 48, poses[k].0, poses[k].1))
        .collect();
    assert_eq!(first_equal_frames(&frames), vec![0, 1, 2, 1, 0, 2]);
    let deadline = no_deadline();
    let gif = super::encode_gif(&frames, &[40; 6], crate::Loops::Infinite, &deadline).unwrap();
    let shown: Vec<Vec<u8>> = shown_screens(&gif, 64, 48)
        .into_iter()
        .map(|(screen, _)| screen)
        .collect();
    assert_eq!(shown.len(), 6);
    for (i, j) in [(0, 4), (1, 3), (2, 5)] {
        assert!(shown[i] == shown[j], "frames {i} and {j}");
    }
    for (k, screen) in shown.iter().enumerate() {
        let want = frames[k].as_raw();
        let far = screen
            .iter()
            .zip(want)
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap();
        assert!(far <= 48, "frame {k}: {far}");
    }
}

/// An effect's frames (one picture's colours drawn anew in every frame)
/// train their palette on the effect sample of all the frames, a third of
/// the full one, and decode about as near to the frames as the full
/// sample's GIF does.
#[test]
fn effect_frames_take_the_smaller_sample_and_decode_near() {
    use super::{EFFECT_SAMPLE, encode_gif, encode_gif_effect};
    const _: () = assert!(EFFECT_SAMPLE * 3 == PALETTE_SAMPLE);
    let frames: Vec<RgbaImage> = (0..8).map(|k| shaken(160, 120, k * 5, k * 3)).collect();
    let delays = vec![100; frames.len()];
    let deadline = no_deadline();
    // The mean difference per channel between the frames and what a
    // viewer shows for them.
    let error = |gif: &[u8]| -> f64 {
        let (mut sum, mut count, mut k) = (0u64, 0u64, 0);
        for (screen, delay) in shown_screens(gif, 160, 120) {
            for frame in &frames[k..k + usize::from(delay / 10)] {
                for (p, q) in frame.as_raw().chunks_exact(4).zip(screen.chunks_exact(4)) {
                    sum += (0..3).map(|c| u64::from(p[c].abs_diff(q[c]))).sum::<u64>();
                    count += 3;
                }
            }
            k += usize::from(delay / 10);
        }
        assert_eq!(k, frames.len());
        sum as f64 / count as f64
    };
    let full = encode_gif(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
    let effect = encode_gif_effect(&frames, &delays, crate::Loops::Infinite, &deadline).unwrap();
    assert!(full != effect, "the same palette");
    let (full, effect) = (error(&full), error(&effect));
    assert!(effect <= full * 1.1, "{effect:.2} levels against {full:.2}");
}
