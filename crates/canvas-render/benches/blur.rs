//! Where a blur request on the 512 × 512 avatar spends its time, and what a
//! blur of that image must at least cost on this CPU, in one run:
//!
//! * `blur/request`: what a blur request computes, `apply(Blur)` and its
//!   PNG; `blur/circle_request`: `circle` and its PNG, the cheap request the
//!   service is compared by; `blur/blur` and `blur/png`: the two halves of
//!   the request;
//! * `stage/*`: the steps of the blur (`src/filter/blur.rs`, included by
//!   path), each over the whole image as the blur runs it: the opacity
//!   check, premultiplying the strips, the six box passes (three on each of
//!   the 8 strips, three on each of the 8 transposed bands), the 16 band
//!   transpositions, copying the strips back, and un-premultiplying;
//! * `blur/full_resolution`: the full-resolution blur that `apply` runs
//!   below σ = 4 (and ran on this avatar before the half-resolution one);
//! * `half/*`: the stages of the half-resolution blur: the premultiplying
//!   2 × 2 average (which also checks, row pair by row pair, whether the
//!   image is opaque), the six box passes with their transpositions on the
//!   half image, its un-premultiply (with the copy of the half image it
//!   starts from, and that copy alone), and the bilinear upsample;
//! * `floor/*`: lower bounds measured on this CPU: one read of the image
//!   and one write of the result (`copy`), a read-only sum (`sum`), and one
//!   box pass over a 64 × 32 pixel strip that stays in L1, as the blur does
//!   it (`box_pass_l1`, bytes between passes) and with 16-bit values
//!   between passes (`box_pass_u16_l1`, no widening or narrowing): a 512²
//!   image is 128 such strips, and the blur makes six passes.
//!
//! Run: `cargo bench -p canvas-render --bench blur` (release; only when
//! measuring).

mod support;

#[allow(dead_code)]
#[path = "../src/filter/blur.rs"]
mod blur;

use std::hint::black_box;
use std::time::Duration;

use canvas_render::{Filter, apply, buffers, circle, encode_png};
use criterion::{Criterion, criterion_group, criterion_main};

/// Pixels across a strip (and rows in a band), as in the blur.
const STRIP: usize = 64;

/// One box pass of radius `r` with 16-bit values in and out: the blur's
/// pass without the widening of its input and the narrowing of its means.
fn box_pass_u16(
    src: &[u16],
    dst: &mut [u16],
    stride: usize,
    rows: usize,
    r: usize,
    sums: &mut [u16],
) {
    let n = 2 * r as u32 + 1;
    let (inv, half) = ((65536 / n) as u16, r as u16);
    let last = rows as isize - 1;
    let row = |y: isize| {
        let y = y.clamp(0, last) as usize;
        &src[y * stride..(y + 1) * stride]
    };
    let sums = &mut sums[..stride];
    sums.fill(0);
    for y in -(r as isize)..=r as isize {
        for (s, &v) in sums.iter_mut().zip(row(y)) {
            *s += v;
        }
    }
    for (y, out) in dst.chunks_exact_mut(stride).take(rows).enumerate() {
        let add = row(y as isize + r as isize + 1);
        let sub = row(y as isize - r as isize);
        for (((o, s), &a), &b) in out.iter_mut().zip(sums.iter_mut()).zip(add).zip(sub) {
            let v = *s;
            *o = ((u32::from(v.wrapping_add(half)) * u32::from(inv)) >> 16) as u16;
            *s = v.wrapping_add(a).wrapping_sub(b);
        }
    }
}

fn benches(c: &mut Criterion) {
    let (avatar, source) = support::avatar();
    let (w, h) = (avatar.width() as usize, avatar.height() as usize);
    let src = avatar.as_raw();
    let blurred = apply(&Filter::Blur, &avatar).unwrap();
    eprintln!(
        "avatar: {source} ({w}x{h}, opaque: {}); blur PNG {} bytes",
        blur::is_opaque(src),
        encode_png(&blurred).unwrap().len(),
    );

    let mut g = c.benchmark_group("blur");
    g.bench_function("request", |b| {
        b.iter(|| {
            let out = apply(&Filter::Blur, black_box(&avatar)).unwrap();
            let png = encode_png(&out).unwrap();
            buffers::recycle_image(out);
            png
        })
    });
    g.bench_function("circle_request", |b| {
        b.iter(|| {
            let out = circle(black_box(&avatar)).unwrap();
            let png = encode_png(&out).unwrap();
            buffers::recycle_image(out);
            png
        })
    });
    g.bench_function("blur", |b| {
        b.iter(|| buffers::recycle_image(apply(&Filter::Blur, black_box(&avatar)).unwrap()))
    });
    g.bench_function("png", |b| {
        b.iter(|| encode_png(black_box(&blurred)).unwrap())
    });
    let n = blur::scratch_len(w, h);
    let (mut fa, mut fb, mut full) = (vec![0u8; n], vec![0u8; n], vec![0u8; src.len()]);
    g.bench_function("full_resolution", |b| {
        b.iter(|| blur::blur_with(black_box(src), &mut full, w, h, &mut fa, &mut fb))
    });
    g.finish();

    let radii = blur::box_radii(blur::blur_sigma(w, h));
    let stride = w * 4;
    let strip_len = STRIP * 4 * h;
    let mut image = vec![0u8; src.len()];
    let mut a = vec![0u8; strip_len];
    let mut t = vec![0u8; strip_len];
    let mut sums = vec![0u16; STRIP * 4];
    let strips = w.div_ceil(STRIP) + h.div_ceil(STRIP);
    let mut g = c.benchmark_group("stage");
    g.bench_function("opaque_check", |b| {
        b.iter(|| blur::is_opaque(black_box(src)))
    });
    g.bench_function("premultiply", |b| {
        b.iter(|| blur::map_words(Some(black_box(src)), &mut image, blur::premultiply_word))
    });
    g.bench_function("box_passes", |b| {
        b.iter(|| {
            for _ in 0..strips {
                blur::box3(&mut a, &mut t, STRIP * 4, h, radii, &mut sums);
            }
        })
    });
    g.bench_function("transposes", |b| {
        b.iter(|| {
            for y0 in (0..h).step_by(STRIP) {
                let bh = STRIP.min(h - y0);
                let band = &mut image[y0 * stride..(y0 + bh) * stride];
                blur::transpose(band, &mut a, w, bh);
                blur::transpose(&a, band, bh, w);
            }
        })
    });
    g.bench_function("strip_copies", |b| {
        b.iter(|| {
            for x0 in (0..stride).step_by(STRIP * 4) {
                for (row, part) in image
                    .chunks_exact_mut(stride)
                    .zip(a.chunks_exact(STRIP * 4))
                {
                    row[x0..x0 + STRIP * 4].copy_from_slice(part);
                }
            }
        })
    });
    g.bench_function("unpremultiply", |b| {
        b.iter(|| {
            image.copy_from_slice(blurred.as_raw());
            blur::unpremultiply(&mut image, src)
        })
    });
    g.finish();

    // The half-resolution blur's stages (what `apply` runs from σ = 4 on).
    let (w2, h2) = blur::half_size(w, h);
    let half_radii = blur::half_radii(w, h);
    let mut half = vec![0u8; w2 * h2 * 4];
    let n2 = blur::scratch_len(w2, h2);
    let (mut ha, mut hb) = (vec![0u8; n2], vec![0u8; n2]);
    blur::downsample(src, &mut half, w, h);
    blur::blur_planes(None, &mut half, w2, h2, half_radii, false, &mut ha, &mut hb);
    let blurred_half = half.clone();
    let mut g = c.benchmark_group("half");
    g.bench_function("downsample", |b| {
        b.iter(|| blur::downsample(black_box(src), &mut half, w, h))
    });
    g.bench_function("box_passes_and_transposes", |b| {
        b.iter(|| blur::blur_planes(None, &mut half, w2, h2, half_radii, false, &mut ha, &mut hb))
    });
    g.bench_function("copy_half", |b| {
        b.iter(|| half.copy_from_slice(black_box(&blurred_half)))
    });
    g.bench_function("unpremultiply_with_copy", |b| {
        b.iter(|| {
            half.copy_from_slice(black_box(&blurred_half));
            blur::unpremultiply_in_place(&mut half)
        })
    });
    blur::unpremultiply_in_place(&mut half);
    g.bench_function("upsample", |b| {
        b.iter(|| blur::upsample(black_box(&half), w2, h2, src, &mut image, w))
    });
    g.finish();

    let mut g = c.benchmark_group("floor");
    g.bench_function("copy", |b| b.iter(|| image.copy_from_slice(black_box(src))));
    g.bench_function("sum", |b| {
        b.iter(|| {
            black_box(src)
                .chunks_exact(32)
                .map(|c| c.iter().map(|&v| u32::from(v)).sum::<u32>())
                .fold(0u32, u32::wrapping_add)
        })
    });
    let small: Vec<u8> = (0..STRIP * 4 * 32).map(|i| (i * 7 % 251) as u8).collect();
    let mut small_out = vec![0u8; small.len()];
    g.bench_function("box_pass_l1", |b| {
        b.iter(|| {
            blur::box_vertical(
                black_box(&small),
                &mut small_out,
                STRIP * 4,
                32,
                radii[2],
                &mut sums,
            )
        })
    });
    let small16: Vec<u16> = small.iter().map(|&v| u16::from(v)).collect();
    let mut small16_out = vec![0u16; small.len()];
    g.bench_function("box_pass_u16_l1", |b| {
        b.iter(|| {
            box_pass_u16(
                black_box(&small16),
                &mut small16_out,
                STRIP * 4,
                32,
                radii[2],
                &mut sums,
            )
        })
    });
    g.finish();
}

criterion_group! {
    name = blur_bench;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(30);
    targets = benches
}
criterion_main!(blur_bench);
