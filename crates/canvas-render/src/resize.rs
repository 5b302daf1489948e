//! Resizing and compositing helpers shared by the compositions.

use std::cell::RefCell;

use fast_image_resize::images::CroppedImage;
use fast_image_resize::{FilterType, ResizeAlg, ResizeOptions, Resizer};
use image::imageops;

use crate::buffers::take;
use crate::limits::check_size;
use crate::{RenderError, RgbaImage};

/// Scratch memory a thread's resizer may keep between calls: enough for a
/// 1024 px avatar (its alpha-weighted copy and the half-resized image); a
/// larger call frees its buffers when it ends.
const KEEP_SCRATCH_BYTES: usize = 8 << 20;

thread_local! {
    /// One resizer per thread: it keeps its scratch buffers between calls,
    /// up to [`KEEP_SCRATCH_BYTES`].
    static RESIZER: RefCell<Resizer> = RefCell::new(Resizer::new());
}

/// The avatar scaled and centre-cropped to exactly `width × height` ("cover"
/// as in CSS `object-fit`): the largest centred region with the target's
/// aspect ratio is resampled with a bilinear (triangle) convolution whose
/// support widens with the reduction, so downscales are antialiased. Colour
/// is weighted by alpha (premultiplied while resampling), so transparent
/// pixels do not bleed their hidden colour into the edge; an opaque crop
/// is resampled without the weighting, which would change none of its
/// pixels. The resampling is
/// `fast_image_resize`'s, with SIMD (AVX2, SSE4.1 or NEON, chosen at run
/// time). An input that already has the target size is copied unchanged.
pub(crate) fn cover(img: &RgbaImage, width: u32, height: u32) -> Result<RgbaImage, RenderError> {
    cover_within(img, width, height, None)
}

/// [`cover`] for an output that is then cut to `mask` (`width × height`
/// bytes, 0 where the output is cut away, as [`multiply_alpha`] does): the
/// crop is resampled without alpha weighting when every source pixel that
/// a pixel inside the mask is made from is opaque, which leaves every
/// pixel inside the mask as the weighted resampling would (and the others
/// are cut away). An avatar with transparent rounded corners cut to a
/// circle needs no weighting.
pub(crate) fn cover_masked(
    img: &RgbaImage,
    width: u32,
    height: u32,
    mask: &[u8],
) -> Result<RgbaImage, RenderError> {
    cover_within(img, width, height, Some(mask))
}

fn cover_within(
    img: &RgbaImage,
    width: u32,
    height: u32,
    mask: Option<&[u8]>,
) -> Result<RgbaImage, RenderError> {
    let (sw, sh) = img.dimensions();
    check_size(sw, sh)?;
    check_size(width, height)?;
    if (sw, sh) == (width, height) {
        let mut copy = take(img.as_raw().len());
        copy.copy_from_slice(img.as_raw());
        return Ok(RgbaImage::from_raw(width, height, copy).expect("the source's size"));
    }
    // Largest crop of the target's aspect ratio: compare sw/sh with width/height.
    let (cw, ch) = if u64::from(sw) * u64::from(height) > u64::from(sh) * u64::from(width) {
        let cw = (u64::from(sh) * u64::from(width) / u64::from(height)).max(1) as u32;
        (cw, sh)
    } else {
        let ch = (u64::from(sw) * u64::from(height) / u64::from(width)).max(1) as u32;
        (sw, ch)
    };
    let (left, top) = ((sw - cw) / 2, (sh - ch) / 2);
    if (cw, ch) == (width, height) {
        return Ok(imageops::crop_imm(img, left, top, cw, ch).to_image());
    }
    // The resizer writes every pixel, so a reused buffer needs no zeroing.
    let len = width as usize * height as usize * 4;
    let mut out =
        RgbaImage::from_raw(width, height, take(len)).expect("buffer of the output's size");
    // An opaque crop (the usual avatar) needs no alpha weighting: the
    // resizer's premultiplied copy of the whole crop and its division
    // afterwards would change no pixel, and cost about as much as the
    // resampling itself on a 1024 px avatar.
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Bilinear))
        .use_alpha(match mask {
            Some(mask) if mask.len() == len / 4 => {
                !sources_are_opaque(img, (left, top, cw, ch), (width, height), mask)
            }
            _ => !region_is_opaque(img, left, top, cw, ch),
        });
    // The crop is a view (no copy) that the filter treats as the whole
    // image, so pixels outside it never bleed in at its edges. Both images
    // are RGBA8 with non-zero sizes and the crop lies inside the source, so
    // the resizer has nothing to refuse; if it ever did, the image crate's
    // slower resampler gives the same framing.
    let resized = CroppedImage::new(img, left, top, cw, ch)
        .map_err(|_| ())
        .and_then(|view| {
            RESIZER
                .with_borrow_mut(|r| {
                    let done = r.resize(&view, &mut out, &options);
                    if r.size_of_internal_buffers() > KEEP_SCRATCH_BYTES {
                        r.reset_internal_buffers();
                    }
                    done
                })
                .map_err(|_| ())
        });
    if resized.is_err() {
        let view = imageops::crop_imm(img, left, top, cw, ch);
        return Ok(imageops::resize(
            &*view,
            width,
            height,
            imageops::FilterType::Triangle,
        ));
    }
    Ok(out)
}

/// A premultiplied pixmap resampled to `width × height` with a Lanczos3
/// convolution (sharp, for art drawn at its design size and kept smaller,
/// once per process), each colour channel then held to at most its alpha
/// (the filter's ringing could leave it above, which premultiplied pixels
/// never are). `None` for an empty size.
pub(crate) fn resample_premultiplied(
    pix: &tiny_skia::Pixmap,
    width: u32,
    height: u32,
) -> Option<tiny_skia::Pixmap> {
    let src = RgbaImage::from_raw(pix.width(), pix.height(), pix.data().to_vec())?;
    let mut out = RgbaImage::new(width, height);
    // Already premultiplied: resampled as it is.
    let options = ResizeOptions::new()
        .resize_alg(ResizeAlg::Convolution(FilterType::Lanczos3))
        .use_alpha(false);
    let resized = RESIZER.with_borrow_mut(|r| {
        let done = r.resize(&src, &mut out, &options);
        r.reset_internal_buffers();
        done
    });
    if resized.is_err() {
        out = imageops::resize(&src, width, height, imageops::FilterType::Lanczos3);
    }
    let mut data = out.into_raw();
    for px in data.chunks_exact_mut(4) {
        let a = px[3];
        for c in &mut px[..3] {
            *c = (*c).min(a);
        }
    }
    tiny_skia::Pixmap::from_vec(data, tiny_skia::IntSize::from_wh(width, height)?)
}

/// Whether every pixel of the `w × h` region of `img` at `(left, top)` is
/// opaque; a row at a time, the alpha bytes combined with `&` (which
/// vectorises), stopping at the first row that is not.
fn region_is_opaque(img: &RgbaImage, left: u32, top: u32, w: u32, h: u32) -> bool {
    let stride = img.width() as usize * 4;
    let (x0, x1) = (left as usize * 4, (left + w) as usize * 4);
    img.as_raw()
        .chunks_exact(stride)
        .skip(top as usize)
        .take(h as usize)
        .all(|row| row[x0..x1].chunks_exact(4).fold(0xff, |m, p| m & p[3]) == 0xff)
}

/// Whether every pixel of the crop `(left, top, cw, ch)` of `img` that an
/// output pixel inside `mask` (`w × h`, not 0) is resampled from is opaque.
/// An output pixel is made from the source pixels under it and, at most,
/// one output pixel's width (at least one source pixel) around; two more
/// source pixels are taken on each side. Each source row is looked at once,
/// over the union of the columns any output row needs of it.
fn sources_are_opaque(
    img: &RgbaImage,
    (left, top, cw, ch): (u32, u32, u32, u32),
    (w, h): (u32, u32),
    mask: &[u8],
) -> bool {
    let (sx, sy) = (f64::from(cw) / f64::from(w), f64::from(ch) / f64::from(h));
    let reach = |scale: f64| scale.max(1.0).ceil() + 2.0;
    let (rx, ry) = (reach(sx), reach(sy));
    // The columns of each crop row that some visible output pixel needs.
    let mut spans = vec![(u32::MAX, 0u32); ch as usize];
    let clamp = |v: f64, n: u32| v.clamp(0.0, f64::from(n)) as u32;
    for (oy, row) in mask.chunks_exact(w as usize).enumerate() {
        let Some(x0) = row.iter().position(|&m| m != 0) else {
            continue;
        };
        let x1 = row.iter().rposition(|&m| m != 0).unwrap_or(x0) + 1;
        let c0 = clamp((x0 as f64 * sx - rx).floor(), cw);
        let c1 = clamp((x1 as f64 * sx + rx).ceil(), cw);
        let r0 = clamp((oy as f64 * sy - ry).floor(), ch);
        let r1 = clamp(((oy + 1) as f64 * sy + ry).ceil(), ch);
        for span in &mut spans[r0 as usize..r1 as usize] {
            *span = (span.0.min(c0), span.1.max(c1));
        }
    }
    let stride = img.width() as usize * 4;
    spans.iter().enumerate().all(|(y, &(c0, c1))| {
        if c0 >= c1 {
            return true;
        }
        let row = &img.as_raw()[(top as usize + y) * stride..][..stride];
        let (x0, x1) = ((left + c0) as usize * 4, (left + c1) as usize * 4);
        row[x0..x1].chunks_exact(4).fold(0xff, |m, p| m & p[3]) == 0xff
    })
}

/// Multiplies the alpha channel of `img` by a coverage `mask` of the same size
/// (one byte per pixel, 255 = fully inside). Pixels left fully transparent
/// become transparent black, so nothing of the image stays hidden under
/// alpha 0 (the corners a circle cuts off).
pub(crate) fn multiply_alpha(img: &mut RgbaImage, mask: &[u8]) {
    debug_assert_eq!(img.as_raw().len(), mask.len() * 4);
    for (p, &m) in img.chunks_exact_mut(4).zip(mask) {
        let a = mul_div255(p[3], m);
        // Branch-free, so the loop vectorises.
        let keep = if a == 0 { 0 } else { 0xff };
        p[0] &= keep;
        p[1] &= keep;
        p[2] &= keep;
        p[3] = a;
    }
}

/// Draws `src` over `dst` (straight alpha, "source over") with its top-left
/// corner at `(x, y)`; parts outside `dst` are clipped.
pub(crate) fn draw_over(dst: &mut RgbaImage, src: &RgbaImage, x: i64, y: i64) {
    let (dw, dh) = (i64::from(dst.width()), i64::from(dst.height()));
    let (sw, sh) = (i64::from(src.width()), i64::from(src.height()));
    let x0 = x.max(0);
    let x1 = (x + sw).min(dw);
    if x0 >= x1 {
        return;
    }
    for dy in y.max(0)..(y + sh).min(dh) {
        let sy = (dy - y) as usize;
        let d_row = &mut dst.as_mut()[(dy * dw * 4) as usize..((dy + 1) * dw * 4) as usize];
        let s_row = &src.as_raw()[sy * sw as usize * 4..(sy + 1) * sw as usize * 4];
        let d = &mut d_row[(x0 * 4) as usize..(x1 * 4) as usize];
        let s = &s_row[((x0 - x) * 4) as usize..((x1 - x) * 4) as usize];
        for (dp, sp) in d.chunks_exact_mut(4).zip(s.chunks_exact(4)) {
            blend_over(dp, sp);
        }
    }
}

#[inline(always)]
fn blend_over(d: &mut [u8], s: &[u8]) {
    let sa = u32::from(s[3]);
    if sa == 255 {
        d.copy_from_slice(s);
        return;
    }
    if sa == 0 {
        return;
    }
    let da = u32::from(d[3]);
    // Weights in 0..=255*255.
    let ws = sa * 255;
    let wd = da * (255 - sa);
    let out_a = ws + wd;
    for c in 0..3 {
        let v = (u32::from(s[c]) * ws + u32::from(d[c]) * wd + out_a / 2) / out_a;
        d[c] = v as u8;
    }
    d[3] = ((out_a + 127) / 255) as u8;
}

/// `round(a * b / 255)` for bytes, exact.
#[inline(always)]
pub(crate) fn mul_div255(a: u8, b: u8) -> u8 {
    let x = u32::from(a) * u32::from(b) + 128;
    ((x + (x >> 8)) >> 8) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    #[test]
    fn cover_crops_the_centre() {
        // 40x20: left half red, right half blue; centre 20x20 square is half and half.
        let img = RgbaImage::from_fn(40, 20, |x, _| {
            if x < 20 {
                Rgba([255, 0, 0, 255])
            } else {
                Rgba([0, 0, 255, 255])
            }
        });
        let out = cover(&img, 20, 20).unwrap();
        assert_eq!(out.get_pixel(0, 10).0, [255, 0, 0, 255]);
        assert_eq!(out.get_pixel(19, 10).0, [0, 0, 255, 255]);
        let up = cover(&img, 100, 50).unwrap();
        assert_eq!(up.dimensions(), (100, 50));
        assert!(cover(&img, 0, 5).is_err());
    }

    #[test]
    fn cover_never_shows_what_the_crop_cut_off() {
        // 10x30: red bands above and below a blue 10x10 centre.
        let img = RgbaImage::from_fn(10, 30, |_, y| {
            if (10..20).contains(&y) {
                Rgba([0, 0, 255, 255])
            } else {
                Rgba([255, 0, 0, 255])
            }
        });
        for size in [7, 40] {
            let out = cover(&img, size, size).unwrap();
            assert!(
                out.pixels().all(|p| p.0 == [0, 0, 255, 255]),
                "{size}: red bled in from outside the crop"
            );
        }
    }

    #[test]
    fn cover_weights_colour_by_alpha() {
        // Opaque red beside fully transparent green: the green is invisible
        // and must not tint the red where the two are blended.
        let img = RgbaImage::from_fn(2, 2, |x, _| {
            if x == 0 {
                Rgba([255, 0, 0, 255])
            } else {
                Rgba([0, 255, 0, 0])
            }
        });
        let out = cover(&img, 8, 8).unwrap();
        let mut blended = 0;
        for p in out.pixels().filter(|p| p.0[3] > 0) {
            assert!(p.0[0] >= 250 && p.0[1] <= 5, "green bled into {p:?}");
            blended += usize::from(p.0[3] < 255);
        }
        assert!(blended > 0, "the edge is blended");
    }

    #[test]
    fn opaque_crops_resize_as_with_alpha_weighting() {
        // Noise, opaque inside the centre square and transparent in the
        // strips the crop cuts off.
        let mut seed = 7u32;
        let img = RgbaImage::from_fn(300, 200, |x, _| {
            seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let [r, g, b, _] = seed.to_le_bytes();
            let inside = (50..250).contains(&x);
            Rgba([r, g, b, if inside { 255 } else { 0 }])
        });
        assert!(region_is_opaque(&img, 50, 0, 200, 200));
        assert!(!region_is_opaque(&img, 49, 0, 200, 200));
        for size in [64, 137, 200, 311] {
            let out = cover(&img, size, size).unwrap();
            let mut want = RgbaImage::new(size, size);
            let view = CroppedImage::new(&img, 50, 0, 200, 200).unwrap();
            let options = ResizeOptions::new()
                .resize_alg(ResizeAlg::Convolution(FilterType::Bilinear))
                .use_alpha(true);
            Resizer::new().resize(&view, &mut want, &options).unwrap();
            assert_eq!(out, want, "{size}");
        }
    }

    /// A disc filling `size × size`, its edge anti-aliased (4 × 4 samples
    /// a pixel), as the circle's mask is.
    fn disc_mask(size: u32) -> Vec<u8> {
        let r = size as f32 / 2.0;
        (0..size * size)
            .map(|i| {
                let (x, y) = ((i % size) as f32, (i / size) as f32);
                let inside = (0u8..16)
                    .filter(|s| {
                        let dx = x + (f32::from(s % 4) + 0.5) / 4.0 - r;
                        let dy = y + (f32::from(s / 4) + 0.5) / 4.0 - r;
                        dx * dx + dy * dy <= r * r
                    })
                    .count();
                (inside * 255 / 16) as u8
            })
            .collect()
    }

    #[test]
    fn masked_covers_match_alpha_weighting_inside_the_mask() {
        // Noise with transparent rounded corners and an anti-aliased edge
        // to them, as the bench avatars have; and the same with a
        // transparent hole in the middle, which the mask keeps.
        let mask = &disc_mask(512);
        for hole in [false, true] {
            let mut seed = 11u32;
            let img = RgbaImage::from_fn(1024, 1024, |x, y| {
                seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                let [r, g, b, _] = seed.to_le_bytes();
                let corner = |v: u32| v.min(1023 - v);
                let (dx, dy) = (95 - corner(x).min(95), 95 - corner(y).min(95));
                let d = f64::from(dx * dx + dy * dy).sqrt();
                let mut a = ((96.0 - d).clamp(0.0, 1.0) * 255.0) as u8;
                if hole && (500..520).contains(&x) && (500..520).contains(&y) {
                    a = (x - 500) as u8 * 12;
                }
                Rgba([r, g, b, a])
            });
            assert!(!region_is_opaque(&img, 0, 0, 1024, 1024));
            assert_eq!(
                sources_are_opaque(&img, (0, 0, 1024, 1024), (512, 512), mask),
                !hole
            );
            let mut out = cover_masked(&img, 512, 512, mask).unwrap();
            multiply_alpha(&mut out, mask);
            let mut want = RgbaImage::new(512, 512);
            let options = ResizeOptions::new()
                .resize_alg(ResizeAlg::Convolution(FilterType::Bilinear))
                .use_alpha(true);
            Resizer::new().resize(&img, &mut want, &options).unwrap();
            multiply_alpha(&mut want, mask);
            assert!(out == want, "hole {hole}");
        }
    }

    #[test]
    fn large_resizes_do_not_keep_their_scratch_memory() {
        let scratch = || RESIZER.with_borrow(Resizer::size_of_internal_buffers);
        cover(&RgbaImage::new(1024, 1024), 424, 424).unwrap();
        let kept = scratch();
        assert!(kept > 0 && kept <= KEEP_SCRATCH_BYTES, "{kept}");
        cover(&RgbaImage::new(2048, 2048), 424, 424).unwrap();
        assert_eq!(scratch(), 0);
    }

    #[test]
    fn over_blends_straight_alpha() {
        let mut dst = RgbaImage::from_pixel(2, 1, Rgba([0, 0, 255, 255]));
        let src = RgbaImage::from_pixel(1, 1, Rgba([255, 0, 0, 128]));
        draw_over(&mut dst, &src, 1, 0);
        assert_eq!(dst.get_pixel(0, 0).0, [0, 0, 255, 255]);
        assert_eq!(dst.get_pixel(1, 0).0, [128, 0, 127, 255]);
        draw_over(&mut dst, &src, -5, 7); // fully outside: no panic, no change
        let mut clear = RgbaImage::new(1, 1);
        draw_over(&mut clear, &src, 0, 0);
        assert_eq!(clear.get_pixel(0, 0).0, [255, 0, 0, 128]);
    }
}
