//! An image drawn through a scaled or turned placement and cut by a mask
//! (petpet's squashed avatar, amongus's turning one), without tiny-skia's
//! raster pipeline per pixel.
//!
//! The mask's coverage still comes from tiny-skia's anti-aliased
//! rasteriser (a [`tiny_skia::Mask`] over the placement's bounding box
//! only), so edges are the ones a pattern fill draws; the inside is sampled
//! as tiny-skia's bilinear pattern sampler does (pixel centres mapped back
//! through the inverse transform, here stepped along each row in 16.16
//! fixed point; the 2×2 texels around the point clamped to the image,
//! weighted by its fractional position, here in 12 bits and integers),
//! scaled by the coverage and blended source-over. The result is what
//! `fill_path` with a bilinear `Pattern` (padded, opaque) gives, within a
//! level of rounding (tested).

use tiny_skia::{FillRule, Mask, Path, Pixmap, Transform};

/// Draws the premultiplied `src` mapped by `t` onto `dst`, inside `path`
/// (in `src`'s coordinates), at full opacity. `false` when the placement
/// cannot be drawn this way (a transform that cannot be inverted), and
/// nothing was drawn.
pub(super) fn draw(dst: &mut Pixmap, src: &Pixmap, path: &Path, t: Transform) -> bool {
    let Some(inv) = t.invert() else {
        return false;
    };
    let Some(bounds) = path.clone().transform(t).map(|p| p.bounds()) else {
        return false;
    };
    // The device pixels the placed path can touch, clipped to the canvas.
    let (dw, dh) = (dst.width() as i64, dst.height() as i64);
    let x0 = (bounds.left().floor() as i64 - 1).clamp(0, dw);
    let y0 = (bounds.top().floor() as i64 - 1).clamp(0, dh);
    let x1 = (bounds.right().ceil() as i64 + 1).clamp(0, dw);
    let y1 = (bounds.bottom().ceil() as i64 + 1).clamp(0, dh);
    if x0 >= x1 || y0 >= y1 {
        return true;
    }
    let (bw, bh) = ((x1 - x0) as u32, (y1 - y0) as u32);
    let Some(mut coverage) = Mask::new(bw, bh) else {
        return false;
    };
    // A whole-pixel shift keeps the rasteriser's sample grid where it was.
    coverage.fill_path(
        path,
        FillRule::Winding,
        true,
        t.post_translate(-(x0 as f32), -(y0 as f32)),
    );
    let cov = coverage.data();
    let (sw, sh) = (src.width() as i32, src.height() as i32);
    let texels = src.data();
    let dstride = dst.width() as usize * 4;
    let out = dst.data_mut();
    // Source positions in 16.16 fixed point, stepped along each row.
    let fixed = |v: f32| (f64::from(v) * 65536.0).round() as i64;
    let (du, dv) = (fixed(inv.sx), fixed(inv.ky));
    for (row, y) in (y0..y1).enumerate() {
        let cov_row = &cov[row * bw as usize..][..bw as usize];
        let line = &mut out[y as usize * dstride..][..dstride];
        // The pipeline's `transform` stage, x·sx + (y·kx + tx), at pixel
        // centres; its bilinear stage samples around the point less ½.
        let (px, py) = (x0 as f32 + 0.5, y as f32 + 0.5);
        let mut u = fixed(px * inv.sx + (py * inv.kx + inv.tx) - 0.5);
        let mut v = fixed(px * inv.ky + (py * inv.sy + inv.ty) - 0.5);
        for (col, &c) in cov_row.iter().enumerate() {
            let (uu, vv) = (u, v);
            u += du;
            v += dv;
            if c == 0 {
                continue;
            }
            // The texel left of and above the sample point, the weights of
            // the next ones in 12 bits, and the 2×2 block clamped to the
            // image (the pad spread).
            let (iu, iv) = ((uu >> 16) as i32, (vv >> 16) as i32);
            let fx = ((uu >> 4) & 0xfff) as u32;
            let fy = ((vv >> 4) & 0xfff) as u32;
            let (ax, bx) = (iu.clamp(0, sw - 1), (iu + 1).clamp(0, sw - 1));
            let (ay, by) = (iv.clamp(0, sh - 1), (iv + 1).clamp(0, sh - 1));
            let texel = |x: i32, y: i32| -> [u32; 4] {
                let i = (y * sw + x) as usize * 4;
                let p: [u8; 4] = texels[i..i + 4].try_into().expect("4 bytes");
                p.map(u32::from)
            };
            let lerp = |a: [u32; 4], b: [u32; 4], f: u32| -> [u32; 4] {
                std::array::from_fn(|i| a[i] * (4096 - f) + b[i] * f)
            };
            let top = lerp(texel(ax, ay), texel(bx, ay), fx);
            let bottom = lerp(texel(ax, by), texel(bx, by), fx);
            // 255 · 4096² < 2³²: the sum fits; then in levels, as floats.
            let s: [f32; 4] = std::array::from_fn(|i| {
                let sum = top[i] * (4096 - fy) + bottom[i] * fy;
                (sum >> 8) as f32 * (1.0 / 65536.0)
            });
            // Coverage, then source-over: d·(1 − sₐ) + s, in levels.
            let k = f32::from(c) * (1.0 / 255.0);
            let inv_a = 1.0 - s[3] * k * (1.0 / 255.0);
            let d = &mut line[(x0 as usize + col) * 4..][..4];
            for (dc, sc) in d.iter_mut().zip(s) {
                let v = f32::from(*dc) * inv_a + sc * k;
                *dc = (v.clamp(0.0, 255.0) + 0.5) as u8;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use tiny_skia::{FilterQuality, Pattern, Pixmap, SpreadMode, Transform};

    use super::draw;
    use crate::scene::paint::{Canvas, circle_path, rrect_path, shader_paint};

    /// A premultiplied test image with every alpha, and a busy background.
    fn images() -> (Pixmap, Pixmap) {
        let mut src = Pixmap::new(97, 83).unwrap();
        for (i, px) in src.data_mut().chunks_exact_mut(4).enumerate() {
            let (x, y) = (i % 97, i / 97);
            let a = ((x * 7 + y * 3) % 256) as u32;
            let a = if (x + y) % 3 == 0 { 255 } else { a };
            let c = [
                (x * 5) as u32 % 256,
                (y * 3) as u32 % 256,
                ((x ^ y) * 9) as u32 % 256,
            ];
            for k in 0..3 {
                px[k] = (c[k] * a / 255) as u8;
            }
            px[3] = a as u8;
        }
        let mut back = Pixmap::new(180, 150).unwrap();
        for (i, px) in back.data_mut().chunks_exact_mut(4).enumerate() {
            px.copy_from_slice(&[(i % 251) as u8, (i / 180) as u8, 90, 255]);
        }
        (src, back)
    }

    /// Our sampler and tiny-skia's pattern fill draw the same pixels within
    /// a level, squashed, turned and at fractional offsets, for a circle and
    /// a rounded square, partly off the canvas too.
    #[test]
    fn warped_draw_matches_the_pattern_fill() {
        let (src, back) = images();
        let (w, h) = (src.width() as f32, src.height() as f32);
        let paths = [
            circle_path(w / 2.0, h / 2.0, w.min(h) / 2.0),
            rrect_path(0.0, 0.0, w, h, 14.0),
        ];
        let placements = [
            Transform::from_row(1.31, 0.0, 0.0, 0.87, 12.3, 20.8),
            Transform::from_row(1.1, 0.0, 0.0, 1.1, -30.6, 90.2).post_rotate_at(37.0, 20.0, 130.0),
            Transform::from_row(0.6, 0.0, 0.0, 0.7, 101.9, 3.4).post_rotate_at(-168.0, 130.0, 30.0),
        ];
        for path in &paths {
            for t in placements {
                let mut ours = Canvas::from_layer(&back);
                assert!(draw(&mut ours.pixmap, &src, path, t));
                let mut theirs = Canvas::from_layer(&back);
                let shader = Pattern::new(
                    src.as_ref(),
                    SpreadMode::Pad,
                    FilterQuality::Bilinear,
                    1.0,
                    Transform::identity(),
                );
                theirs.fill_t(path, &shader_paint(shader), t);
                let worst = ours
                    .pixmap
                    .data()
                    .iter()
                    .zip(theirs.pixmap.data())
                    .map(|(a, b)| a.abs_diff(*b))
                    .max()
                    .unwrap();
                assert!(worst <= 1, "{t:?}: {worst}");
            }
        }
    }
}
