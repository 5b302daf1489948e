//! A picture drawn under any placement, turned or not (a portrait leaning
//! in, a picture cut to a shape at an exact place): bilinear sampling in
//! fixed point, each canvas pixel of the shape's box mapped back onto the
//! picture, instead of the raster pipeline's `f32` bilinear pattern (its
//! highp pipeline, half of a `kiss`'s drawing), or its nearest pattern for
//! a shape at an exact place. A run of pixels at a time: their four taps
//! read one by one, then mixed and blended together in 16-bit lanes, two
//! channels a multiplication, which the compiler vectorises.
//!
//! The samples are the pattern's, as in [`crate::scaled`]: a canvas
//! pixel's centre mapped back onto the picture, minus half a pixel, weighs
//! the two nearest columns and rows by its fractions, each clamped to the
//! picture's edge (the pattern's `Pad`), the weights in 1/256ths. The
//! coordinates are stepped along a row in 16.16 fixed point. The shape's
//! edge is tiny-skia's own anti-aliased coverage of the path under the
//! same transform, drawn into a mask the size of its box on the canvas, so
//! edges are exactly as before.

use tiny_skia::{FillRule, Mask, Path, Pixmap, Transform};

use crate::scaled::div255;

/// One fraction's weight: 1/256ths.
const ONE: u32 = 256;

/// Fixed point: 16 fraction bits.
const FIX: f64 = 65536.0;

/// Draws the premultiplied `src` onto `dst` under `t` (which maps the
/// picture's pixel coordinates onto the canvas: any scale, turn and
/// offset), source-over, through the anti-aliased coverage of `path` (in
/// `src`'s coordinates: the shape the picture is cut to) times `opacity`:
/// the pixels a bilinear `Pad` pattern filling `path` under `t` draws,
/// within a level or two. A transform that cannot be inverted (a box of
/// no width) draws nothing.
pub(crate) fn draw_turned(dst: &mut Pixmap, src: &Pixmap, path: &Path, t: Transform, opacity: f32) {
    let o = (opacity.clamp(0.0, 1.0) * 255.0).round() as u32;
    let Some(inv) = t.invert() else {
        return;
    };
    if o == 0 || !t.is_finite() || !inv.is_finite() {
        return;
    }
    // The path placed on the canvas as tiny-skia places it, and the box it
    // covers there.
    let Some(placed) = path.clone().transform(t) else {
        return;
    };
    let b = placed.bounds();
    let (left, right, top, bottom) = (b.left(), b.right(), b.top(), b.bottom());
    let (dw, dh) = (dst.width() as f32, dst.height() as f32);
    if !(left < dw && top < dh && right > 0.0 && bottom > 0.0) {
        return;
    }
    let (bx0, by0) = (left.floor().max(0.0) as i32, top.floor().max(0.0) as i32);
    let (bx1, by1) = (right.ceil().min(dw) as i32, bottom.ceil().min(dh) as i32);
    if bx0 >= bx1 || by0 >= by1 {
        return;
    }
    let (bw, bh) = ((bx1 - bx0) as u32, (by1 - by0) as u32);
    let Some(mut mask) = Mask::new(bw, bh) else {
        return;
    };
    // Moved by whole pixels into the mask (which moves every point
    // exactly): the same coverage as filling it on the canvas.
    mask.fill_path(
        &placed,
        FillRule::Winding,
        true,
        Transform::from_translate(-bx0 as f32, -by0 as f32),
    );

    let (sw, sh) = (i64::from(src.width()), i64::from(src.height()));
    // The picture's coordinates of a canvas point, less half a pixel (the
    // first tap), in 16.16 fixed point; and their steps along a row.
    let (ia, ib, ic, id, ie, if_) = (
        f64::from(inv.sx),
        f64::from(inv.ky),
        f64::from(inv.kx),
        f64::from(inv.sy),
        f64::from(inv.tx),
        f64::from(inv.ty),
    );
    let fixed = |v: f64| (v * FIX).round() as i64;
    let (du, dv) = (fixed(ia), fixed(ib));
    // Far outside the picture every tap is clamped to its edge: the
    // coordinates are kept within a margin so that no step overflows.
    let margin = (4 * (sw.max(sh) + i64::from(bw))) << 16;
    let (dstride, stride) = (dst.width() as usize * 4, sw as usize * 4);
    let (src, out) = (src.data(), dst.data_mut());
    let o = if o == 255 { None } else { Some(o) };
    if let Some((x, y)) = whole_offset(&t) {
        // The picture's columns under the box's, and its row under each
        // canvas row, clamped to its edge as the samples are.
        let columns: Vec<usize> = (bx0..bx1)
            .map(|cx| i64::from(cx - x).clamp(0, sw - 1) as usize)
            .collect();
        for (cover, row) in mask.data().chunks_exact(bw as usize).zip(by0..) {
            let sy = i64::from(row - y).clamp(0, sh - 1) as usize;
            let line = &mut out[row as usize * dstride + bx0 as usize * 4..][..bw as usize * 4];
            let picture = &src[sy * stride..][..stride];
            for ((d, cover), columns) in line
                .chunks_mut(RUN * 4)
                .zip(cover.chunks(RUN))
                .zip(columns.chunks(RUN))
            {
                if cover.iter().all(|&c| c == 0) {
                    continue;
                }
                let (mut pixels, mut c) = ([0u32; RUN], [0u32; RUN]);
                for (i, (&sx, &cv)) in columns.iter().zip(cover).enumerate() {
                    let at = sx * 4;
                    pixels[i] = u32::from_le_bytes(picture[at..at + 4].try_into().expect("4"));
                    c[i] = match o {
                        None => u32::from(cv),
                        Some(o) => div255(u32::from(cv) * o),
                    };
                }
                blend_run(d, &pixels, &c);
            }
        }
        return;
    }
    let pixel = |x: i64, y: i64| {
        let i = (y * sw + x) as usize * 4;
        u32::from_le_bytes(src[i..i + 4].try_into().expect("4 channels"))
    };
    for (cover, row) in mask.data().chunks_exact(bw as usize).zip(by0..) {
        let Some(first) = cover.iter().position(|&c| c != 0) else {
            continue;
        };
        let last = cover.iter().rposition(|&c| c != 0).unwrap_or(first);
        let (px, py) = (f64::from(bx0) + first as f64 + 0.5, f64::from(row) + 0.5);
        let mut u = fixed(ia * px + ic * py + ie - 0.5).clamp(-margin, margin);
        let mut v = fixed(ib * px + id * py + if_ - 0.5).clamp(-margin, margin);
        let line = &mut out[row as usize * dstride + (bx0 as usize + first) * 4..]
            [..(last + 1 - first) * 4];
        for (d, cover) in line
            .chunks_mut(RUN * 4)
            .zip(cover[first..=last].chunks(RUN))
        {
            let mut taps = [[0u32; RUN]; 4];
            let (mut wx, mut wy, mut c) = ([0u32; RUN], [0u32; RUN], [0u32; RUN]);
            for (i, &cv) in cover.iter().enumerate() {
                let (x0, y0) = (u >> 16, v >> 16);
                wx[i] = (((u & 0xffff) + 128) >> 8) as u32;
                wy[i] = (((v & 0xffff) + 128) >> 8) as u32;
                c[i] = match o {
                    None => u32::from(cv),
                    Some(o) => div255(u32::from(cv) * o),
                };
                u += du;
                v += dv;
                let p = if (0..sw - 1).contains(&x0) && (0..sh - 1).contains(&y0) {
                    // Inside the picture (nearly every pixel): no clamping,
                    // each row's two taps one read.
                    let i = (y0 * sw + x0) as usize * 4;
                    let pair = |k: usize| {
                        let p = u64::from_le_bytes(src[k..k + 8].try_into().expect("8 bytes"));
                        (p as u32, (p >> 32) as u32)
                    };
                    let ((p00, p01), (p10, p11)) = (pair(i), pair(i + stride));
                    [p00, p01, p10, p11]
                } else {
                    let (x0, x1) = (x0.clamp(0, sw - 1), (x0 + 1).clamp(0, sw - 1));
                    let (y0, y1) = (y0.clamp(0, sh - 1), (y0 + 1).clamp(0, sh - 1));
                    [pixel(x0, y0), pixel(x1, y0), pixel(x0, y1), pixel(x1, y1)]
                };
                for (tap, p) in taps.iter_mut().zip(p) {
                    tap[i] = p;
                }
            }
            let mut pixels = [0u32; RUN];
            for (i, p) in pixels.iter_mut().enumerate() {
                *p = sample(
                    [taps[0][i], taps[1][i], taps[2][i], taps[3][i]],
                    wx[i],
                    wy[i],
                );
            }
            blend_run(d, &pixels, &c);
        }
    }
}

/// Draws a run of premultiplied `pixels` over the pixels of `d` (as many
/// as it holds) at their coverages `c`, source-over, all together.
#[inline(always)]
fn blend_run(d: &mut [u8], pixels: &[u32; RUN], c: &[u32; RUN]) {
    let mut under = [0u32; RUN];
    for (u, d) in under.iter_mut().zip(d.chunks_exact(4)) {
        *u = u32::from_le_bytes(d.try_into().expect("4 channels"));
    }
    let mut drawn = [0u32; RUN];
    for i in 0..RUN {
        drawn[i] = over(under[i], pixels[i], c[i]);
    }
    for (d, p) in d.chunks_exact_mut(4).zip(drawn) {
        d.copy_from_slice(&p.to_le_bytes());
    }
}

/// The whole-pixel offset `t` is, if it is no more than one: each canvas
/// pixel then samples exactly one picture pixel.
fn whole_offset(t: &Transform) -> Option<(i32, i32)> {
    let whole = |v: f32| v.fract() == 0.0 && v.abs() < 1e6;
    (t.sx == 1.0 && t.sy == 1.0 && t.kx == 0.0 && t.ky == 0.0 && whole(t.tx) && whole(t.ty))
        .then_some((t.tx as i32, t.ty as i32))
}

/// How many pixels are mixed and blended together.
const RUN: usize = 16;

/// Red and blue, and green and alpha, of a pixel read as a little-endian
/// word: each in a 16-bit lane of its own.
const LANES: u32 = 0x00ff_00ff;

/// The bilinear mix of four premultiplied pixels (upper left, upper right,
/// lower left, lower right) for the fractions `wx` and `wy` (in 1/256ths,
/// 0–256): along each row, then between the rows, each mix rounded to a
/// level; two channels a multiplication.
#[inline(always)]
fn sample([p00, p01, p10, p11]: [u32; 4], wx: u32, wy: u32) -> u32 {
    let lerp = |a: u32, b: u32, w: u32| ((a * (ONE - w) + b * w + 0x0080_0080) >> 8) & LANES;
    let mix = |shift: u32| {
        let lane = |p: u32| (p >> shift) & LANES;
        let upper = lerp(lane(p00), lane(p01), wx);
        let lower = lerp(lane(p10), lane(p11), wx);
        lerp(upper, lower, wy)
    };
    mix(0) | mix(8) << 8
}

/// `v / 255`, rounded, in both 16-bit lanes of `v` (each up to 255²).
#[inline(always)]
fn div255_lanes(v: u32) -> u32 {
    let v = v + 0x0080_0080;
    ((v + ((v >> 8) & LANES)) >> 8) & LANES
}

/// Both 16-bit lanes of `v` (each up to 510) at most 255.
#[inline(always)]
fn saturate_lanes(v: u32) -> u32 {
    (v | (((v >> 8) & 0x0001_0001) * 0xff)) & LANES
}

/// The premultiplied pixel `s` (a little-endian word) at coverage `c`
/// (0–255, opacity included) over `d`, source-over: each channel
/// `s c / 255 + d (255 − sₐ c / 255) / 255`, rounded as [`div255`] does,
/// at most 255 (which only a picture that is not premultiplied reaches).
/// Without a branch: a clear sample leaves `d` as it is, an opaque one at
/// full coverage replaces it.
#[inline(always)]
fn over(d: u32, s: u32, c: u32) -> u32 {
    let (rb, ga) = (
        div255_lanes((s & LANES) * c),
        div255_lanes((s >> 8 & LANES) * c),
    );
    let inv = 255 - (ga >> 16);
    let (drb, dga) = (
        div255_lanes((d & LANES) * inv),
        div255_lanes((d >> 8 & LANES) * inv),
    );
    saturate_lanes(rb + drb) | saturate_lanes(ga + dga) << 8
}

#[cfg(test)]
mod tests {
    use super::draw_turned;
    use crate::scaled::tests::{backdrop, fill_with_pattern, picture};
    use tiny_skia::{FillRule, Paint, PathBuilder, Pixmap, Rect, Transform};

    /// The transform a placement `(x, y, w, h)` turned by `degrees` about
    /// its centre gives a `sw` × `sh` picture (as the templates place it).
    fn placed(sw: u32, sh: u32, (x, y, w, h): (f32, f32, f32, f32), degrees: f32) -> Transform {
        Transform::from_row(w / sw as f32, 0.0, 0.0, h / sh as f32, x, y).post_rotate_at(
            degrees,
            x + w / 2.0,
            y + h / 2.0,
        )
    }

    /// How drawing `src` with [`draw_turned`] differs from tiny-skia's
    /// bilinear pattern, for `path` under `t`: the largest channel
    /// difference inside the shape and outside it, and on its edge (the
    /// pixels it partly covers).
    fn compare(src: &Pixmap, path: &tiny_skia::Path, t: Transform) -> Diff {
        let mut ours = backdrop(120, 100);
        draw_turned(&mut ours, src, path, t, 1.0);
        let mut theirs = backdrop(120, 100);
        fill_with_pattern(&mut theirs, src, path, t);
        let mut cover = Pixmap::new(120, 100).unwrap();
        let solid = Paint {
            anti_alias: true,
            ..Paint::default()
        };
        cover.fill_path(path, &solid, FillRule::Winding, t, None);
        let mut diff = Diff::default();
        for ((a, b), c) in ours
            .data()
            .chunks_exact(4)
            .zip(theirs.data().chunks_exact(4))
            .zip(cover.data().chunks_exact(4))
        {
            let d = a.iter().zip(b).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
            if c[3] == 0 || c[3] == 255 {
                diff.inside = diff.inside.max(d);
            } else {
                diff.edge = diff.edge.max(d);
            }
        }
        diff
    }

    #[derive(Debug, Default)]
    struct Diff {
        inside: u8,
        edge: u8,
    }

    /// Within two levels, inside the shape and on its edge alike (the
    /// coverage is tiny-skia's own).
    fn assert_close(src: &Pixmap, path: &tiny_skia::Path, t: Transform, what: &str) {
        let d = compare(src, path, t);
        assert!(d.inside <= 2 && d.edge <= 2, "{what}: {d:?}");
    }

    fn shapes(w: f32, h: f32) -> [tiny_skia::Path; 3] {
        [
            PathBuilder::from_rect(Rect::from_xywh(0.0, 0.0, w, h).unwrap()),
            PathBuilder::from_oval(Rect::from_xywh(0.0, 0.0, w, h).unwrap()).unwrap(),
            PathBuilder::from_circle(w / 2.0, h / 2.0, w.min(h) / 3.0).unwrap(),
        ]
    }

    #[test]
    fn draws_what_the_bilinear_pattern_draws() {
        let places = [
            // Shrunk, at a fractional place.
            (20.3, 12.7, 61.9, 61.9),
            // Enlarged, reaching past the canvas on every side.
            (-7.5, -3.25, 140.0, 117.0),
            // Squashed.
            (40.6, 30.1, 37.3, 21.9),
            // Partly off the top left.
            (-20.2, -15.9, 50.0, 44.0),
            // At whole pixels, the picture's own size (no fraction at all).
            (30.0, 20.0, 48.0, 48.0),
        ];
        for (seed, (w, h)) in [(48u32, 48u32), (37, 53), (7, 5)].into_iter().enumerate() {
            let src = picture(w, h, seed as u32 + 1);
            for path in shapes(w as f32, h as f32) {
                for place in places {
                    for degrees in [12.0, -12.0, 22.0, -6.0, 45.0, 90.0, 180.0, 0.0, 7.3] {
                        let t = placed(w, h, place, degrees);
                        assert_close(&src, &path, t, &format!("{w}×{h} at {place:?} {degrees}°"));
                    }
                }
            }
        }
    }

    /// A smooth picture (a portrait's, not noise) comes out within a level.
    #[test]
    fn a_smooth_picture_is_within_a_level() {
        let mut src = Pixmap::new(64, 64).unwrap();
        for (i, px) in src.data_mut().chunks_exact_mut(4).enumerate() {
            let (x, y) = ((i % 64) as u32, (i / 64) as u32);
            px.copy_from_slice(&[(x * 4) as u8, (y * 4) as u8, ((x + y) * 2) as u8, 255]);
        }
        let path = PathBuilder::from_circle(32.0, 32.0, 32.0).unwrap();
        for degrees in [12.0, -12.0, 22.0, 6.0] {
            let t = placed(64, 64, (20.0, 15.0, 70.0, 70.0), degrees);
            let d = compare(&src, &path, t);
            assert!(d.inside <= 1 && d.edge <= 1, "turned {degrees}°: {d:?}");
        }
    }

    /// Opacity scales what is drawn, edges included.
    #[test]
    fn opacity_scales_every_pixel() {
        let src = picture(37, 53, 9);
        let path = PathBuilder::from_oval(Rect::from_xywh(0.0, 0.0, 37.0, 53.0).unwrap()).unwrap();
        let t = placed(37, 53, (10.3, 12.7, 61.9, 41.2), 15.0);
        let mut whole = Pixmap::new(120, 100).unwrap();
        draw_turned(&mut whole, &src, &path, t, 1.0);
        let mut faint = Pixmap::new(120, 100).unwrap();
        draw_turned(&mut faint, &src, &path, t, 0.6);
        let mut drawn = 0;
        for (w, f) in whole.data().iter().zip(faint.data()) {
            let expected = (f32::from(*w) * 0.6).round();
            assert!(
                (f32::from(*f) - expected).abs() <= 1.0,
                "{w} at 0.6 gave {f}"
            );
            drawn += usize::from(*w > 0);
        }
        assert!(drawn > 1000, "the picture was drawn");
    }

    #[test]
    fn draws_nothing_outside_the_canvas_or_when_clear() {
        let src = picture(16, 16, 3);
        let path = PathBuilder::from_rect(Rect::from_xywh(0.0, 0.0, 16.0, 16.0).unwrap());
        for (t, o) in [
            (placed(16, 16, (300.0, 10.0, 20.0, 20.0), 30.0), 1.0),
            (placed(16, 16, (-80.0, 10.0, 20.0, 20.0), 30.0), 1.0),
            (placed(16, 16, (10.0, 10.0, 20.0, 20.0), 30.0), 0.0),
            (placed(16, 16, (10.0, 10.0, 0.0, 20.0), 30.0), 1.0),
            (placed(16, 16, (10.0, 10.0, f32::NAN, 20.0), 30.0), 1.0),
        ] {
            let mut canvas = backdrop(120, 100);
            draw_turned(&mut canvas, &src, &path, t, o);
            assert_eq!(canvas.data(), backdrop(120, 100).data(), "{t:?} {o}");
        }
    }
}
