//! Criterion benchmarks of canvas-render on a 512 × 512 avatar, for comparison
//! with Pillow (the Pillow reference script, see docs/benchmarks-history/canvas-render.md). The PNG
//! encoder alone, against the `png` crate: `cargo bench -p png-writer`.
//!
//! The avatar: `$MENAGERIE_BENCH_AVATAR`, else the sample fox drawn at
//! 512 px with a photographic grain (`support`).
//!
//! Run: `cargo bench -p canvas-render` (release; only when measuring).

mod support;

use std::hint::black_box;
use std::time::Duration;

use canvas_render::{Filter, apply, apply_in_place, circle, encode_png, heart, pride};
use criterion::{Criterion, criterion_group, criterion_main};
use support::{avatar_png, decode};

fn benches(c: &mut Criterion) {
    let (png, source) = avatar_png();
    let avatar = decode(&png);
    let grey_png = encode_png(&apply(&Filter::Greyscale, &avatar).unwrap()).unwrap();
    let circle_png = encode_png(&circle(&avatar).unwrap()).unwrap();
    eprintln!(
        "avatar: {source} ({}x{}, {} bytes); output bytes: greyscale {}, circle {}, avatar re-encoded {}",
        avatar.width(),
        avatar.height(),
        png.len(),
        grey_png.len(),
        circle_png.len(),
        encode_png(&avatar).unwrap().len()
    );

    let mut filters = c.benchmark_group("filter");
    for f in Filter::ALL {
        filters.bench_function(f.name(), |b| {
            b.iter(|| apply(black_box(&f), black_box(&avatar)).unwrap())
        });
    }
    filters.finish();

    let mut shapes = c.benchmark_group("shape");
    shapes.bench_function("circle", |b| b.iter(|| circle(black_box(&avatar)).unwrap()));
    shapes.bench_function("heart", |b| b.iter(|| heart(black_box(&avatar)).unwrap()));
    shapes.bench_function("pride_lgbt", |b| {
        b.iter(|| pride(black_box(&avatar), canvas_render::PrideFlag::Lgbt).unwrap())
    });
    // Avatars rarely arrive at exactly 512 px: the remote fetcher keeps up
    // to 1024 px, so circle and heart resample too.
    let large = image::imageops::resize(&avatar, 1024, 1024, image::imageops::FilterType::Nearest);
    shapes.bench_function("circle_from_1024", |b| {
        b.iter(|| circle(black_box(&large)).unwrap())
    });
    shapes.finish();

    let mut io = c.benchmark_group("codec");
    io.bench_function("decode", |b| b.iter(|| decode(black_box(&png))));
    io.bench_function("encode_avatar", |b| {
        b.iter(|| encode_png(black_box(&avatar)).unwrap())
    });
    io.finish();

    let mut pipe = c.benchmark_group("pipeline");
    pipe.bench_function("dec+greyscale+enc", |b| {
        b.iter(|| {
            let mut img = decode(black_box(&png));
            apply_in_place(&Filter::Greyscale, &mut img).unwrap();
            encode_png(&img).unwrap()
        })
    });
    pipe.bench_function("dec+circle+enc", |b| {
        b.iter(|| encode_png(&circle(&decode(black_box(&png))).unwrap()).unwrap())
    });
    pipe.bench_function("dec+blur+enc", |b| {
        b.iter(|| encode_png(&apply(&Filter::Blur, &decode(black_box(&png))).unwrap()).unwrap())
    });
    pipe.finish();
}

criterion_group! {
    name = canvas;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2))
        .sample_size(40);
    targets = benches
}
criterion_main!(canvas);
