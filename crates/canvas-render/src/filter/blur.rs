//! The blur of [`Filter::Blur`](super::Filter::Blur): three box passes
//! down the columns, then three along the rows, each rounded to 8 bits, on
//! premultiplied colour (see [`blur_with`]); from σ = 4 on, the same passes
//! on a half-resolution copy of the image, upsampled back
//! ([`half_blur_with`]).
//!
//! The file uses nothing but `std`, so the `blur` bench includes it by path
//! and times each stage on its own; the point filters take their word
//! loop ([`map_words`]) from here.

/// The alpha byte of a little-endian RGBA word.
const ALPHA: u32 = 0xff00_0000;

/// The 4 bytes of a pixel as a little-endian word.
#[inline(always)]
fn word(p: &[u8]) -> u32 {
    u32::from_le_bytes(p.try_into().expect("a 4-byte chunk"))
}

/// `round(a · b / 255)` for `a, b ≤ 255`.
#[inline(always)]
fn mul_div255_word(a: u32, b: u32) -> u32 {
    let x = a * b + 128;
    (x + (x >> 8)) >> 8
}

/// Whether every pixel is opaque (an AND of all alpha bytes; no early exit,
/// so it vectorises).
pub(crate) fn is_opaque(src: &[u8]) -> bool {
    src.chunks_exact(4).fold(255u8, |m, p| m & p[3]) == 255
}

/// Runs a per-pixel function on little-endian RGBA words from `src` (or from
/// `dst` itself when `src` is `None`) into `dst`. Generic so that each filter
/// gets its own loop; a plain loop over 4-byte chunks with word arithmetic is
/// what LLVM's loop vectoriser handles best (four pixels per SSE2 register,
/// measured against blocks of 8 and 16 pixels in fixed arrays).
#[inline(never)]
pub(crate) fn map_words<F: Fn(u32) -> u32>(src: Option<&[u8]>, dst: &mut [u8], f: F) {
    match src {
        Some(src) => {
            for (d, s) in dst.chunks_exact_mut(4).zip(src.chunks_exact(4)) {
                d.copy_from_slice(&f(word(s)).to_le_bytes());
            }
        }
        None => {
            for d in dst.chunks_exact_mut(4) {
                let p = word(d);
                d.copy_from_slice(&f(p).to_le_bytes());
            }
        }
    }
}

/// Standard deviation of the blur for an image of this size: the shorter
/// side / 100, at least 1 px.
pub(crate) fn blur_sigma(w: usize, h: usize) -> f32 {
    (w.min(h) as f32 / 100.0).max(1.0)
}

/// Radii of three box blurs approximating a Gaussian of standard deviation
/// `sigma` (W. Jarosz, "Fast image convolutions", 2001).
pub(crate) fn box_radii(sigma: f32) -> [usize; 3] {
    let n = 3.0f32;
    let ideal = (12.0 * sigma * sigma / n + 1.0).sqrt();
    let mut lower = ideal.floor() as i64;
    if lower % 2 == 0 {
        lower -= 1;
    }
    let lower = lower.max(1);
    let upper = lower + 2;
    let lf = lower as f32;
    let m = ((12.0 * sigma * sigma - n * lf * lf - 4.0 * n * lf - 3.0 * n) / (-4.0 * lf - 4.0))
        .round() as i64;
    let mut radii = [0usize; 3];
    for (i, r) in radii.iter_mut().enumerate() {
        let width = if (i as i64) < m { lower } else { upper };
        *r = ((width - 1) / 2) as usize;
    }
    radii
}

/// Pixels across a strip of the vertical passes, and rows in a band of the
/// horizontal ones: a strip or band is 64 pixels × the image's side (128
/// KiB for a 512 px image), so two of them stay in the core's L2 cache.
const STRIP_PIXELS: usize = 64;

/// Bytes in each of the two scratch buffers of [`blur_with`]: room for the
/// widest strip (64 pixels × `h` rows) and the tallest band (64 rows × `w`
/// pixels).
pub(crate) fn scratch_len(w: usize, h: usize) -> usize {
    let (stride, strip) = (w * 4, STRIP_PIXELS * 4);
    (strip.min(stride) * h).max(STRIP_PIXELS.min(h) * stride)
}

/// Blurs `src` into `dst` (same size) at full resolution: three vertical
/// box passes, then three horizontal ones (see [`blur_planes`]), on
/// premultiplied colour unless the image is opaque. `a` and `b` are
/// scratch of at least [`scratch_len`] bytes each, any contents.
pub(crate) fn blur_with(
    src: &[u8],
    dst: &mut [u8],
    w: usize,
    h: usize,
    a: &mut [u8],
    b: &mut [u8],
) {
    let opaque = is_opaque(src);
    let radii = box_radii(blur_sigma(w, h));
    blur_planes(Some(src), dst, w, h, radii, !opaque, a, b);
    if opaque {
        // The mean of opaque pixels may round to 254.
        map_words(None, dst, |p| p | ALPHA);
    } else {
        unpremultiply(dst, src);
    }
}

/// Six box passes of radii `radii` over a `w × h` image: three vertical,
/// then three horizontal, from `src` (premultiplied on the way when
/// `premultiply`) or, when `src` is `None`, from `dst` itself, into `dst`.
/// Each direction is one sweep over the image: the vertical passes run on
/// strips of [`STRIP_PIXELS`] columns copied out, the horizontal ones on
/// bands of as many rows transposed out (so they are vertical passes too,
/// over contiguous memory), and the result is copied or transposed back.
/// All six passes run in the two strip-sized buffers `a` and `b` (at least
/// [`scratch_len`] bytes each, any contents), which stay in cache; each
/// column's arithmetic is that of a pass over the whole image, so the
/// result does not depend on the strip size.
#[allow(clippy::too_many_arguments)]
pub(crate) fn blur_planes(
    src: Option<&[u8]>,
    dst: &mut [u8],
    w: usize,
    h: usize,
    radii: [usize; 3],
    premultiply: bool,
    a: &mut [u8],
    b: &mut [u8],
) {
    let stride = w * 4;
    let strip = STRIP_PIXELS * 4;
    let scratch = scratch_len(w, h);
    let (a, b) = (&mut a[..scratch], &mut b[..scratch]);
    let mut sums = vec![0u16; strip];
    for x0 in (0..stride).step_by(strip) {
        let sw = strip.min(stride - x0);
        let (a, b) = (&mut a[..sw * h], &mut b[..sw * h]);
        let from: &[u8] = src.unwrap_or(dst);
        for (row, out) in from.chunks_exact(stride).zip(a.chunks_exact_mut(sw)) {
            let part = &row[x0..x0 + sw];
            if premultiply {
                // Premultiplied alpha, so transparent colour never bleeds in.
                map_words(Some(part), out, premultiply_word);
            } else {
                out.copy_from_slice(part);
            }
        }
        box3(a, b, sw, h, radii, &mut sums);
        for (row, part) in dst.chunks_exact_mut(stride).zip(b.chunks_exact(sw)) {
            row[x0..x0 + sw].copy_from_slice(part);
        }
    }
    for y0 in (0..h).step_by(STRIP_PIXELS) {
        let bh = STRIP_PIXELS.min(h - y0);
        let band = &mut dst[y0 * stride..(y0 + bh) * stride];
        let (a, b) = (&mut a[..band.len()], &mut b[..band.len()]);
        transpose(band, a, w, bh);
        box3(a, b, bh * 4, w, radii, &mut sums);
        transpose(b, band, bh, w);
    }
}

/// A pixel with its colour multiplied by its alpha.
#[inline(always)]
pub(crate) fn premultiply_word(p: u32) -> u32 {
    let al = p >> 24;
    let c = |shift: u32| mul_div255_word((p >> shift) & 0xff, al) << shift;
    c(0) | c(8) | c(16) | (p & ALPHA)
}

/// Three vertical box passes of radii `radii` over `a` (`rows` rows of
/// `stride` bytes), through `b`; the result ends in `b`.
pub(crate) fn box3(
    a: &mut [u8],
    b: &mut [u8],
    stride: usize,
    rows: usize,
    radii: [usize; 3],
    sums: &mut [u16],
) {
    let [r0, r1, r2] = radii;
    box_vertical(a, b, stride, rows, r0, sums);
    box_vertical(b, a, stride, rows, r1, sums);
    box_vertical(a, b, stride, rows, r2, sums);
}

/// Un-premultiplies the blurred image in `dst`, with the alpha of `src`:
/// `c · 255 / α` rounded, through a 16.16 reciprocal of the blurred alpha
/// (`c ≤ 255` and the reciprocal `≤ 255 · 2¹⁶`, so the product fits `u32`).
/// The table lookup cannot be vectorised, so runs of 16 pixels whose
/// blurred alpha is all 255 (most of an avatar: the colour is already
/// final) take a vectorised pass instead.
pub(crate) fn unpremultiply(dst: &mut [u8], src: &[u8]) {
    const RUN: usize = 4 * 16;
    let recip = recip_table();
    for (d, s) in dst.chunks_mut(RUN).zip(src.chunks(RUN)) {
        if d.chunks_exact(4).fold(255, |m, p| m & p[3]) == 255 {
            map_pairs(d, s, |b, s| (b & !ALPHA) | (s & ALPHA));
            continue;
        }
        map_pairs(d, s, |b, s| {
            (unpremultiply_word(b, &recip) & !ALPHA) | (s & ALPHA)
        });
    }
}

/// Replaces each pixel of `dst` (little-endian RGBA words) by a function of
/// it and the pixel of `b` at the same place.
#[inline(always)]
fn map_pairs<F: Fn(u32, u32) -> u32>(dst: &mut [u8], b: &[u8], f: F) {
    for (d, b) in dst.chunks_exact_mut(4).zip(b.chunks_exact(4)) {
        let p = word(d);
        d.copy_from_slice(&f(p, word(b)).to_le_bytes());
    }
}

/// Transposes a `w × h` image of 4-byte pixels into an `h × w` one: whole
/// 4 × 4 blocks as fixed arrays, in tiles of 16 × 16 so both sides stay in
/// cache; the ragged right and bottom edges pixel by pixel. (LLVM compiles
/// the blocks to scalar 4-byte moves, not shuffles: the two transpositions
/// are about 30 % of the blur, docs/benchmarks-history/canvas-render.md "Blur: where the time goes".)
pub(crate) fn transpose(src: &[u8], dst: &mut [u8], w: usize, h: usize) {
    const TILE: usize = 16;
    let (w4, h4) = (w / 4 * 4, h / 4 * 4);
    for ty in (0..h4).step_by(TILE) {
        for tx in (0..w4).step_by(TILE) {
            for y in (ty..h4.min(ty + TILE)).step_by(4) {
                for x in (tx..w4.min(tx + TILE)).step_by(4) {
                    block4(src, dst, (y * w + x) * 4, w * 4, (x * h + y) * 4, h * 4);
                }
            }
        }
    }
    let mut edge = |x: usize, y: usize| {
        let (s, d) = ((y * w + x) * 4, (x * h + y) * 4);
        dst[d..d + 4].copy_from_slice(&src[s..s + 4]);
    };
    for y in 0..h {
        for x in w4..w {
            edge(x, y);
        }
    }
    for y in h4..h {
        for x in 0..w4 {
            edge(x, y);
        }
    }
}

/// Transposes the 4 × 4 block of pixels at byte `s` of `src` (rows
/// `s_stride` bytes apart) to byte `d` of `dst`.
#[inline(always)]
fn block4(src: &[u8], dst: &mut [u8], s: usize, s_stride: usize, d: usize, d_stride: usize) {
    let rows: [[u32; 4]; 4] = std::array::from_fn(|i| {
        let row = &src[s + i * s_stride..s + i * s_stride + 16];
        std::array::from_fn(|j| word(&row[4 * j..4 * j + 4]))
    });
    for j in 0..4 {
        let col = [rows[0][j], rows[1][j], rows[2][j], rows[3][j]];
        let out = &mut dst[d + j * d_stride..d + j * d_stride + 16];
        for (o, c) in out.chunks_exact_mut(4).zip(col) {
            o.copy_from_slice(&c.to_le_bytes());
        }
    }
}

/// One vertical box pass of radius `r` over `rows` rows of `stride` bytes,
/// edges extended. Runs row by row so the inner loops are over contiguous
/// memory. Window sums fit `u16`: the window is at most 255 rows (`r` is
/// clamped to 127), and 255 · 255 + 127 < 2¹⁶.
pub(crate) fn box_vertical(
    src: &[u8],
    dst: &mut [u8],
    stride: usize,
    rows: usize,
    r: usize,
    sums: &mut [u16],
) {
    let r = r.min(127);
    if r == 0 {
        dst.copy_from_slice(src);
        return;
    }
    let n = 2 * r as u32 + 1;
    // mean = (sum + n/2) * inv >> 16 with inv = ⌊2¹⁶ / n⌋ (n ≥ 3, so inv < 2¹⁶).
    let inv = (65536 / n) as u16;
    let half = (n / 2) as u16;
    let last = rows as isize - 1;
    let row = |y: isize| {
        let y = y.clamp(0, last) as usize;
        &src[y * stride..(y + 1) * stride]
    };
    let sums = &mut sums[..stride];
    sums.fill(0);
    let ri = r as isize;
    for y in -ri..=ri {
        for (s, &v) in sums.iter_mut().zip(row(y)) {
            *s += u16::from(v);
        }
    }
    for (y, out) in dst.chunks_exact_mut(stride).take(rows).enumerate() {
        let add = row(y as isize + ri + 1);
        let sub = row(y as isize - ri);
        for (((o, s), &a), &b) in out.iter_mut().zip(sums.iter_mut()).zip(add).zip(sub) {
            let v = *s;
            // LLVM makes this a 32-bit multiply (`vpmulld`) and a narrowing,
            // not a 16-bit multiply-high: see docs/benchmarks-history/canvas-render.md "Blur: where the
            // time goes".
            *o = ((u32::from(v.wrapping_add(half)) * u32::from(inv)) >> 16) as u16 as u8;
            *s = v.wrapping_add(u16::from(a)).wrapping_sub(u16::from(b));
        }
    }
}

/// From this σ on (an image whose shorter side is at least 400 px) the
/// blur runs on a half-resolution copy of the image ([`half_blur_with`]):
/// a Gaussian this wide leaves nothing that a half-resolution image cannot
/// hold. Smaller images take the full-resolution [`blur_with`]: below it
/// the downsample and upsample are too large a part of the blur and their
/// grid shows on hard edges (docs/benchmarks-history/canvas-render.md, "Blur at half resolution").
pub(crate) const HALF_FROM_SIGMA: f32 = 4.0;

/// Whether a `w × h` image is blurred at half resolution.
pub(crate) fn at_half(w: usize, h: usize) -> bool {
    blur_sigma(w, h) >= HALF_FROM_SIGMA
}

/// The size of the half-resolution image: each side halved, rounded up
/// (an odd last column or row is a half pixel of its own).
pub(crate) fn half_size(w: usize, h: usize) -> (usize, usize) {
    (w.div_ceil(2), h.div_ceil(2))
}

/// Bytes of scratch for [`half_blur_with`]: the half-resolution image and
/// the two strip buffers of its passes.
pub(crate) fn half_scratch_len(w: usize, h: usize) -> usize {
    let (w2, h2) = half_size(w, h);
    w2 * h2 * 4 + 2 * scratch_len(w2, h2)
}

/// The variance (in pixels²) of three box passes of these radii: a box of
/// width `2r + 1` has variance `r (r + 1) / 3`.
pub(crate) fn box_variance(radii: [usize; 3]) -> f32 {
    radii.iter().map(|&r| (r * (r + 1)) as f32 / 3.0).sum()
}

/// Radii of the three box passes at half resolution that give, with the
/// downsample and the upsample, the blur of the full-resolution passes
/// (`box_radii(blur_sigma(w, h))`, variance `V`). The 2 × 2 average and the
/// bilinear upsample together are a kernel of variance 1 px² per axis
/// (weights ⅛ ⅛ ⅜ ⅜ at offsets −2 −1 0 1 for an even pixel, mirrored for
/// an odd one), and a half-resolution pass of variance `v` is `4 v` at full
/// resolution, so the half passes aim at `t = (V − 1) / 4`. Box variances
/// come in steps of ⅔ at this scale: [`box_radii`]'s near-equal radii are
/// taken unless they miss `t` by more than ½ (2 px² at full resolution,
/// where hard edges showed a mean difference of 2 levels), and then the
/// closest radii within 2 of each other.
pub(crate) fn half_radii(w: usize, h: usize) -> [usize; 3] {
    let target = ((box_variance(box_radii(blur_sigma(w, h))) - 1.0) / 4.0).max(0.0);
    let even = box_radii(target.sqrt());
    let miss = |radii: [usize; 3]| (box_variance(radii) - target).abs();
    if miss(even) <= 0.5 {
        return even;
    }
    let mut best = even;
    let low = even[0].saturating_sub(2);
    for r0 in low..=even[2] + 2 {
        for r1 in r0..=r0 + 2 {
            for r2 in r1..=r0 + 2 {
                if miss([r0, r1, r2]) < miss(best) {
                    best = [r0, r1, r2];
                }
            }
        }
    }
    best
}

/// Blurs `src` into `dst` (same size, `w × h`) at half resolution: a 2 × 2
/// average of the premultiplied image ([`downsample`], which also tells
/// whether the image is opaque), six box passes of radii `radii` on it
/// ([`blur_planes`]), its colour un-premultiplied unless the image is
/// opaque, and a bilinear 2× upsample to `w × h` that takes each pixel's
/// alpha from `src`, as [`blur_with`] does. `scratch` holds at least
/// [`half_scratch_len`] bytes, any contents.
pub(crate) fn half_blur_with(
    src: &[u8],
    dst: &mut [u8],
    w: usize,
    h: usize,
    radii: [usize; 3],
    scratch: &mut [u8],
) {
    let (w2, h2) = half_size(w, h);
    let n = scratch_len(w2, h2);
    let (half, rest) = scratch.split_at_mut(w2 * h2 * 4);
    let (a, rest) = rest.split_at_mut(n);
    let opaque = downsample(src, half, w, h);
    blur_planes(None, half, w2, h2, radii, false, a, &mut rest[..n]);
    if !opaque {
        unpremultiply_in_place(half);
    }
    upsample(half, w2, h2, src, dst, w);
}

/// The rounded mean of four pixels, channel by channel: the even and odd
/// bytes summed in 16-bit lanes of a word.
#[inline(always)]
fn mean4(p: u32, q: u32, r: u32, s: u32) -> u32 {
    const LANES: u32 = 0x00ff_00ff;
    const HALF: u32 = 0x0002_0002;
    let lo = |x: u32| x & LANES;
    let hi = |x: u32| (x >> 8) & LANES;
    let even = lo(p) + lo(q) + lo(r) + lo(s) + HALF;
    let odd = hi(p) + hi(q) + hi(r) + hi(s) + HALF;
    ((even >> 2) & LANES) | (((odd >> 2) & LANES) << 8)
}

/// Averages each 2 × 2 block of the premultiplied `w × h` image `src` into
/// one pixel of `half` ([`half_size`]); an odd last column or row is
/// averaged with itself. Returns whether every pixel of `src` is opaque.
/// Each pair of rows is checked first, while it is in cache (an opaque
/// pixel is its own premultiplied value, so opaque rows are averaged as
/// they are): no separate pass over the image for the check.
pub(crate) fn downsample(src: &[u8], half: &mut [u8], w: usize, h: usize) -> bool {
    let (w2, h2) = half_size(w, h);
    let stride = w * 4;
    let mut opaque = true;
    for (k, out) in half.chunks_exact_mut(w2 * 4).take(h2).enumerate() {
        let top = &src[2 * k * stride..][..stride];
        let y1 = (2 * k + 1).min(h - 1);
        let bottom = &src[y1 * stride..][..stride];
        if is_opaque(top) & is_opaque(bottom) {
            downsample_rows(top, bottom, out, w, |p| p);
        } else {
            opaque = false;
            downsample_rows(top, bottom, out, w, premultiply_word);
        }
    }
    opaque
}

/// One row of [`downsample`]: the 2 × 2 means of `top` and `bottom` (after
/// `f`, the premultiply or nothing) into `out`.
#[inline(always)]
fn downsample_rows<F: Fn(u32) -> u32>(top: &[u8], bottom: &[u8], out: &mut [u8], w: usize, f: F) {
    for ((o, p), q) in out
        .chunks_exact_mut(4)
        .zip(top.chunks_exact(8))
        .zip(bottom.chunks_exact(8))
    {
        let m = mean4(
            f(word(&p[..4])),
            f(word(&p[4..])),
            f(word(&q[..4])),
            f(word(&q[4..])),
        );
        o.copy_from_slice(&m.to_le_bytes());
    }
    if w % 2 == 1 {
        let last = (w - 1) * 4;
        let (p, q) = (f(word(&top[last..])), f(word(&bottom[last..])));
        out[last / 2..].copy_from_slice(&mean4(p, p, q, q).to_le_bytes());
    }
}

/// `round(c · 255 / α)` for each colour byte of a premultiplied pixel `p`,
/// alpha kept, through the 16.16 reciprocals `recip` of [`recip_table`].
#[inline(always)]
fn unpremultiply_word(p: u32, recip: &[u32; 256]) -> u32 {
    let r = recip[(p >> 24) as usize];
    let un = |shift: u32| ((((p >> shift) & 0xff) * r + 0x8000) >> 16).min(255);
    un(0) | (un(8) << 8) | (un(16) << 16) | (p & ALPHA)
}

/// `255 / α` in 16.16 fixed point for each alpha, rounded; 0 for α = 0.
fn recip_table() -> [u32; 256] {
    let mut recip = [0u32; 256];
    for (a, r) in recip.iter_mut().enumerate().skip(1) {
        *r = ((255 << 16) + a as u32 / 2) / a as u32;
    }
    recip
}

/// Un-premultiplies a blurred image in place, each pixel by its own alpha
/// (kept); runs of 16 opaque pixels are already final and are skipped.
pub(crate) fn unpremultiply_in_place(img: &mut [u8]) {
    const RUN: usize = 4 * 16;
    let recip = recip_table();
    for d in img.chunks_mut(RUN) {
        if d.chunks_exact(4).fold(255, |m, p| m & p[3]) != 255 {
            map_words(None, d, |p| unpremultiply_word(p, &recip));
        }
    }
}

/// Upsamples the `w2 × h2` image `half` 2× into `dst` (`w` pixels wide,
/// `w2 = ⌈w / 2⌉`, as many rows as `src`), bilinear with centres aligned:
/// full pixel `2k` is ¾ of half pixel `k` and ¼ of `k − 1`, pixel `2k + 1`
/// ¾ of `k` and ¼ of `k + 1` (edges extended), in each direction. Each
/// pixel's alpha is that of `src` (same size as `dst`).
///
/// Each output row is made in three loops over contiguous arrays, which
/// LLVM vectorises without shuffles in their bodies: the vertical
/// interpolation (4 × the value, one 16-bit lane per channel), the even
/// and the odd pixels of the row (rounded, in bytes), and their
/// interleaving with the source's alpha.
pub(crate) fn upsample(half: &[u8], w2: usize, h2: usize, src: &[u8], dst: &mut [u8], w: usize) {
    let hs = w2 * 4;
    let last = h2 as isize - 1;
    let half_row = |k: isize| {
        let k = k.clamp(0, last) as usize;
        &half[k * hs..(k + 1) * hs]
    };
    // 4 × the vertical interpolation, a pixel's channels in four lanes,
    // with the edge pixels repeated on either side.
    let mut v = vec![0u16; hs + 8];
    let mut even = vec![0u8; hs];
    let mut odd = vec![0u8; hs];
    for (y, (out, s)) in dst
        .chunks_exact_mut(w * 4)
        .zip(src.chunks_exact(w * 4))
        .enumerate()
    {
        let k = (y / 2) as isize;
        let near = half_row(k);
        let far = half_row(if y % 2 == 0 { k - 1 } else { k + 1 });
        for ((v, &n), &f) in v[4..4 + hs].iter_mut().zip(near).zip(far) {
            *v = 3 * u16::from(n) + u16::from(f);
        }
        v.copy_within(4..8, 0);
        v.copy_within(hs..hs + 4, hs + 4);
        let (left, centre, right) = (&v[..hs], &v[4..4 + hs], &v[8..]);
        for ((e, &l), &c) in even.iter_mut().zip(left).zip(centre) {
            *e = ((3 * c + l + 8) >> 4) as u8;
        }
        for ((o, &c), &r) in odd.iter_mut().zip(centre).zip(right) {
            *o = ((3 * c + r + 8) >> 4) as u8;
        }
        interleave(&even, &odd, out, s, w);
    }
}

/// Writes pixel `i` of `even` to pixel `2i` of `out` and pixel `i` of
/// `odd` to pixel `2i + 1` (the last odd one only while within `w`), each
/// with the alpha of the pixel of `s` at the same place.
fn interleave(even: &[u8], odd: &[u8], out: &mut [u8], s: &[u8], w: usize) {
    let pairs = w / 2;
    for (((o, s), e), d) in out
        .chunks_exact_mut(8)
        .zip(s.chunks_exact(8))
        .zip(even.chunks_exact(4))
        .zip(odd.chunks_exact(4))
        .take(pairs)
    {
        let (s0, s1) = (word(&s[..4]), word(&s[4..]));
        o[..4].copy_from_slice(&((word(e) & !ALPHA) | (s0 & ALPHA)).to_le_bytes());
        o[4..].copy_from_slice(&((word(d) & !ALPHA) | (s1 & ALPHA)).to_le_bytes());
    }
    if w % 2 == 1 {
        let x = w - 1;
        let p = (word(&even[pairs * 4..pairs * 4 + 4]) & !ALPHA) | (word(&s[x * 4..]) & ALPHA);
        out[x * 4..].copy_from_slice(&p.to_le_bytes());
    }
}
