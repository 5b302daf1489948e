//! A picture drawn scaled, upright, onto a box at any place (a squashed
//! avatar): bilinear sampling in integers, one pass down the picture's
//! rows and one along the canvas's, instead of the raster pipeline's
//! bilinear pattern, which works on every pixel in `f32` through a chain of
//! stages (about 12 ns a pixel: 12 % of a `petpet` request).
//!
//! The samples are the pattern's: a canvas pixel's centre mapped back onto
//! the picture, minus half a pixel, weighs the two nearest columns and rows
//! by its fraction, each clamped to the picture's edge (the pattern's
//! `Pad`). The weights are kept in 1/256ths, so a channel comes out within
//! a level of the pattern's. The shape's edge is tiny-skia's own
//! anti-aliased coverage of the path, drawn into a mask the size of the
//! box, so edges are exactly as before.

use tiny_skia::{FillRule, Mask, Path, Pixmap, Transform};

/// One fraction's weight: 1/256ths.
const ONE: u32 = 256;

/// For a run of canvas pixels, the two picture pixels each samples and the
/// second one's weight in 1/256ths: `u = (i + 0.5 - at) · step − 0.5` for
/// the `i`th canvas pixel from `first`, clamped to `0..len`.
fn taps(first: i32, count: usize, at: f32, step: f32, len: u32) -> Vec<(u32, u32, u32)> {
    let last = i64::from(len) - 1;
    (0..count)
        .map(|i| {
            let u = ((first as f32 + i as f32) + 0.5 - at) * step - 0.5;
            let whole = u.floor();
            let weight = ((u - whole) * ONE as f32).round() as u32;
            let i0 = whole as i64;
            (
                i0.clamp(0, last) as u32,
                (i0 + 1).clamp(0, last) as u32,
                weight.min(ONE),
            )
        })
        .collect()
}

/// `v / 255`, rounded, for `v` up to 255².
#[inline(always)]
pub(crate) fn div255(v: u32) -> u32 {
    let v = v + 128;
    (v + (v >> 8)) >> 8
}

/// Draws the premultiplied `src` scaled onto the box `(x, y, w, h)` of
/// `dst` (upright), source-over, through the anti-aliased coverage of
/// `path` (in `src`'s coordinates: the shape the picture is cut to) times
/// `opacity`: the pixels a bilinear `Pad` pattern filling `path` under the
/// same transform draws, within a level.
pub(crate) fn draw_scaled(
    dst: &mut Pixmap,
    src: &Pixmap,
    path: &Path,
    (x, y, w, h): (f32, f32, f32, f32),
    opacity: f32,
) {
    let o = (opacity.clamp(0.0, 1.0) * 255.0).round() as u32;
    let (sw, sh) = (src.width(), src.height());
    if o == 0 || !(w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite()) {
        return;
    }
    let (scale_x, scale_y) = (w / sw as f32, h / sh as f32);
    let t = Transform::from_row(scale_x, 0.0, 0.0, scale_y, x, y);
    let b = path.bounds();
    let (left, right) = (x + b.left() * scale_x, x + b.right() * scale_x);
    let (top, bottom) = (y + b.top() * scale_y, y + b.bottom() * scale_y);
    let (dw, dh) = (dst.width() as f32, dst.height() as f32);
    if !(left < dw && top < dh && right > 0.0 && bottom > 0.0) {
        return;
    }
    let (bx0, by0) = (left.floor().max(0.0) as i32, top.floor().max(0.0) as i32);
    let (bx1, by1) = (right.ceil().min(dw) as i32, bottom.ceil().min(dh) as i32);
    let (bw, bh) = ((bx1 - bx0) as u32, (by1 - by0) as u32);
    let Some(mut mask) = Mask::new(bw, bh) else {
        return;
    };
    mask.fill_path(
        path,
        FillRule::Winding,
        true,
        t.post_translate(-bx0 as f32, -by0 as f32),
    );

    let cols = taps(bx0, bw as usize, x, 1.0 / scale_x, sw);
    let rows = taps(by0, bh as usize, y, 1.0 / scale_y, sh);
    // The picture's columns the box reads, and each tap's place among them
    // (in pixels).
    let lo = cols.iter().map(|c| c.0).min().unwrap_or(0);
    let hi = cols.iter().map(|c| c.1).max().unwrap_or(0);
    let cols: Vec<(usize, usize, u32)> = cols
        .into_iter()
        .map(|(a, b, wt)| ((a - lo) as usize, (b - lo) as usize, wt))
        .collect();
    let span = (lo as usize * 4)..(hi as usize + 1) * 4;
    // Each picture pixel of the two rows mixed, in 1/256ths of a level, as
    // two words of two 32-bit lanes (red and green, blue and alpha): one
    // multiplication weighs two channels.
    let mut blended = vec![(0u64, 0u64); span.len() / 4];

    let stride = sw as usize * 4;
    let dstride = dst.width() as usize * 4;
    let (src, out) = (src.data(), dst.data_mut());
    for ((&(r0, r1, wy), cover), row) in rows
        .iter()
        .zip(mask.data().chunks_exact(bw as usize))
        .zip(by0 as usize..)
    {
        if cover.iter().all(|&c| c == 0) {
            continue;
        }
        let (a, b) = (
            &src[r0 as usize * stride..][span.clone()],
            &src[r1 as usize * stride..][span.clone()],
        );
        let (wa, wb) = (u64::from(ONE - wy), u64::from(wy));
        for ((m, a), b) in blended
            .iter_mut()
            .zip(a.chunks_exact(4))
            .zip(b.chunks_exact(4))
        {
            let (a, b) = (lanes(a), lanes(b));
            *m = (a.0 * wa + b.0 * wb, a.1 * wa + b.1 * wb);
        }
        let line = &mut out[row * dstride + bx0 as usize * 4..][..bw as usize * 4];
        for ((d, &(c0, c1, wx)), &c) in line.chunks_exact_mut(4).zip(&cols).zip(cover) {
            if c == 0 {
                continue;
            }
            let (p, q) = (blended[c0], blended[c1]);
            let (wa, wb) = (u64::from(ONE - wx), u64::from(wx));
            const HALF: u64 = 1 << 15 | 1 << 47;
            const LOW: u64 = 0xff | 0xff << 32;
            let mut s = (
                (p.0 * wa + q.0 * wb + HALF) >> 16 & LOW,
                (p.1 * wa + q.1 * wb + HALF) >> 16 & LOW,
            );
            let c = if o == 255 {
                u32::from(c)
            } else {
                div255(u32::from(c) * o)
            };
            if c < 255 {
                let c = u64::from(c);
                s = (div255_lanes(s.0 * c), div255_lanes(s.1 * c));
            }
            let d: &mut [u8; 4] = d.try_into().expect("4 channels");
            match s.1 >> 32 {
                255 => *d = [s.0 as u8, (s.0 >> 32) as u8, s.1 as u8, 255],
                0 if s == (0, 0) => {}
                a => {
                    let s = [s.0 as u32, (s.0 >> 32) as u32, s.1 as u32, a as u32];
                    let inv = 255 - a as u32;
                    for k in 0..4 {
                        d[k] = (s[k] + div255(u32::from(d[k]) * inv)).min(255) as u8;
                    }
                }
            }
        }
    }
}

/// A pixel's channels as two words of two 32-bit lanes: red and green,
/// blue and alpha.
#[inline(always)]
fn lanes(px: &[u8]) -> (u64, u64) {
    (
        u64::from(px[0]) | u64::from(px[1]) << 32,
        u64::from(px[2]) | u64::from(px[3]) << 32,
    )
}

/// [`div255`] of both 32-bit lanes of `v`, each up to 255².
#[inline(always)]
fn div255_lanes(v: u64) -> u64 {
    const ROUND: u64 = 128 | 128 << 32;
    const LOW: u64 = 0xff | 0xff << 32;
    let v = v + ROUND;
    ((v + (v >> 8 & (0xff_ffff | 0xff_ffff << 32))) >> 8) & LOW
}

#[cfg(test)]
pub(crate) mod tests {
    use super::draw_scaled;
    use tiny_skia::{
        FillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, Rect, SpreadMode, Transform,
    };

    /// A premultiplied picture with every kind of pixel: opaque, partly
    /// transparent and clear, in a pattern with edges both ways.
    pub(crate) fn picture(w: u32, h: u32, seed: u32) -> Pixmap {
        let mut p = Pixmap::new(w, h).unwrap();
        let mut s = seed;
        for px in p.data_mut().chunks_exact_mut(4) {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let a = match s >> 29 {
                0 => 0,
                1 => (s >> 8) as u8,
                _ => 255,
            };
            for (c, v) in px[..3].iter_mut().enumerate() {
                *v = ((u32::from((s >> (8 * c)) as u8) * u32::from(a)) / 255) as u8;
            }
            px[3] = a;
        }
        p
    }

    /// A canvas over which the picture is drawn: stripes of clear and of a
    /// half-transparent colour.
    pub(crate) fn backdrop(w: u32, h: u32) -> Pixmap {
        let mut p = Pixmap::new(w, h).unwrap();
        for (i, px) in p.data_mut().chunks_exact_mut(4).enumerate() {
            if (i / 7) % 2 == 0 {
                px.copy_from_slice(&[60, 20, 90, 128]);
            }
        }
        p
    }

    /// The largest channel difference between drawing `src` with
    /// [`draw_scaled`] and with tiny-skia's bilinear pattern, for `path`.
    fn worst(src: &Pixmap, path: &tiny_skia::Path, place: (f32, f32, f32, f32)) -> u8 {
        let (x, y, w, h) = place;
        let mut ours = backdrop(96, 80);
        draw_scaled(&mut ours, src, path, place, 1.0);
        let mut theirs = backdrop(96, 80);
        let t = Transform::from_row(
            w / src.width() as f32,
            0.0,
            0.0,
            h / src.height() as f32,
            x,
            y,
        );
        fill_with_pattern(&mut theirs, src, path, t);
        ours.data()
            .iter()
            .zip(theirs.data())
            .map(|(a, b)| a.abs_diff(*b))
            .max()
            .unwrap()
    }

    /// What the reference draws: `src` as tiny-skia's bilinear `Pad`
    /// pattern filling `path` under `t`, anti-aliased, over `canvas`.
    pub(crate) fn fill_with_pattern(
        canvas: &mut Pixmap,
        src: &Pixmap,
        path: &tiny_skia::Path,
        t: Transform,
    ) {
        let pattern = Pattern::new(
            src.as_ref(),
            SpreadMode::Pad,
            FilterQuality::Bilinear,
            1.0,
            Transform::identity(),
        );
        let paint = Paint {
            shader: pattern,
            anti_alias: true,
            ..Paint::default()
        };
        canvas.fill_path(path, &paint, FillRule::Winding, t, None);
    }

    #[test]
    fn draws_what_the_bilinear_pattern_draws() {
        let shapes = |w: f32, h: f32| {
            let mut rounded = PathBuilder::new();
            rounded.push_rect(Rect::from_xywh(0.0, 0.0, w, h).unwrap());
            [
                rounded.finish().unwrap(),
                PathBuilder::from_oval(Rect::from_xywh(0.0, 0.0, w, h).unwrap()).unwrap(),
                PathBuilder::from_circle(w / 2.0, h / 2.0, w.min(h) / 3.0).unwrap(),
            ]
        };
        let places = [
            // Squashed wider and lower, at fractional places.
            (10.3, 12.7, 61.9, 41.2),
            // Enlarged, reaching past the canvas on every side.
            (-7.5, -3.25, 120.0, 97.0),
            // Shrunk by more than half.
            (40.6, 30.1, 17.3, 11.9),
            // Partly off the top left.
            (-20.2, -15.9, 50.0, 44.0),
        ];
        for (seed, (w, h)) in [(48u32, 48u32), (37, 53), (7, 5)].into_iter().enumerate() {
            let src = picture(w, h, seed as u32 + 1);
            for path in shapes(w as f32, h as f32) {
                for place in places {
                    let d = worst(&src, &path, place);
                    assert!(d <= 1, "{w}×{h} at {place:?}: {d} levels off");
                }
            }
        }
    }

    /// Opacity scales what is drawn, edges included. (tiny-skia's pattern
    /// is no reference here: on anti-aliased edges its opacity gives way to
    /// the coverage, which it then applies twice.)
    #[test]
    fn opacity_scales_every_pixel() {
        let src = picture(37, 53, 9);
        let path = PathBuilder::from_oval(Rect::from_xywh(0.0, 0.0, 37.0, 53.0).unwrap()).unwrap();
        let place = (10.3, 12.7, 61.9, 41.2);
        let mut whole = Pixmap::new(96, 80).unwrap();
        draw_scaled(&mut whole, &src, &path, place, 1.0);
        let mut faint = Pixmap::new(96, 80).unwrap();
        draw_scaled(&mut faint, &src, &path, place, 0.6);
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
        for (place, o) in [
            ((200.0, 10.0, 20.0, 20.0), 1.0),
            ((-50.0, 10.0, 20.0, 20.0), 1.0),
            ((10.0, 10.0, 20.0, 20.0), 0.0),
            ((10.0, 10.0, 0.0, 20.0), 1.0),
            ((10.0, 10.0, f32::NAN, 20.0), 1.0),
        ] {
            let mut canvas = backdrop(96, 80);
            draw_scaled(&mut canvas, &src, &path, place, o);
            assert_eq!(canvas.data(), backdrop(96, 80).data(), "{place:?} {o}");
        }
    }
}
