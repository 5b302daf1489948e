//! Criterion benchmarks of canvas-render on a 512 × 512 avatar, for comparison
//! with Pillow (`/work/shared/bench/pillow_ref.py`, see BENCHMARKS.md). The PNG
//! encoder alone, against the `png` crate: `cargo bench -p png-writer`.
//!
//! The avatar is read at run time from `$MENAGERIE_BENCH_AVATAR`, else
//! `shared/bench/avatars/avatar_512.png` in the parent (or grandparent, for
//! a git worktree) of the workspace root;
//! when neither exists a synthetic noisy avatar is generated, so
//! `cargo bench --no-run` and `cargo test --benches` work anywhere.
//!
//! Run: `cargo bench -p canvas-render` (release; only when measuring).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use canvas_render::{Filter, RgbaImage, apply, apply_in_place, circle, encode_png, heart, pride};
use criterion::{Criterion, criterion_group, criterion_main};

fn avatar_png() -> (Vec<u8>, String) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates = std::env::var_os("MENAGERIE_BENCH_AVATAR")
        .map(PathBuf::from)
        .into_iter()
        .chain(["..", "../.."].map(|up| root.join(up).join("shared/bench/avatars/avatar_512.png")));
    for path in candidates {
        if let Ok(bytes) = std::fs::read(&path) {
            return (bytes, path.display().to_string());
        }
    }
    // Synthetic fallback: a gradient with a disc and pseudo-random noise.
    let mut seed = 0x2545_F491_u32;
    let img = RgbaImage::from_fn(512, 512, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        let n = (seed % 24) as u8;
        let (dx, dy) = (x as i32 - 256, y as i32 - 230);
        let face = dx * dx + dy * dy < 120 * 120;
        let base = if face {
            [225, 180, 150]
        } else {
            [(x / 2) as u8, 90, (y / 2) as u8]
        };
        image::Rgba([
            base[0].saturating_add(n),
            base[1].saturating_add(n),
            base[2].saturating_add(n),
            255,
        ])
    });
    (encode_png(&img).expect("encodable"), "generated".into())
}

fn decode(bytes: &[u8]) -> RgbaImage {
    image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .expect("a PNG")
        .into_rgba8()
}

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
