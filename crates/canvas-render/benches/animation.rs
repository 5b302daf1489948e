//! Criterion benchmarks of the animated encoders on the animation the
//! sharp comparison uses (`crates/server/benches/load/sharp-animated`): 60
//! frames of 128 × 128 panning and zooming over a 512 × 512 avatar, 40 ms a
//! frame. Each step is timed alone (the filter over every frame, the GIF
//! encoder on those frames) and as the server runs it (filter + encoder),
//! so a change to one shows where the time went; the WebP encoder is timed
//! on the same greyscale and circle frames.
//!
//! The avatar: `$MENAGERIE_BENCH_AVATAR`, else the sample fox drawn at
//! 512 px with a photographic grain (`support`).
//!
//! Run: `cargo bench -p canvas-render --bench animation`. Without `--bench`
//! (as `cargo test --all-targets` runs it) every benchmark runs once over
//! the first [`SMOKE_FRAMES`] frames only, as a smoke test.

mod support;

use std::hint::black_box;
use std::time::Duration;

use canvas_render::animation::{Deadline, render_frames};
use canvas_render::template::{TemplateKind, render_template};
use canvas_render::{Filter, Loops, RgbaImage, apply, circle, encode_gif, encode_webp_animation};
use criterion::{Criterion, criterion_group, criterion_main};
use support::{avatar, pan_and_zoom};

const FRAMES: u32 = 60;
const SIDE: u32 = 128;
/// Frames a smoke test (no `--bench`) draws and encodes.
const SMOKE_FRAMES: usize = 4;

fn benches(c: &mut Criterion) {
    let (src, source) = avatar();
    // The output sizes are reported when measuring only: under `cargo test`
    // (no `--bench`) each benchmark runs once as a smoke test, on a few
    // frames.
    let measuring = std::env::args().any(|a| a == "--bench");
    let frames = pan_and_zoom(
        &src,
        if measuring {
            FRAMES as usize
        } else {
            SMOKE_FRAMES
        },
    );
    let delays = vec![40u32; frames.len()];
    let deadline = || Deadline::after(Duration::from_secs(60));
    let grey = render_frames(frames.iter(), &deadline(), |f| apply(&Filter::Greyscale, f)).unwrap();
    let circled = render_frames(frames.iter(), &deadline(), circle).unwrap();
    // A card around the avatar: most of each frame is the same card.
    let simpcard = TemplateKind::Simpcard.template();
    let no_args = simpcard.args(|_| None).unwrap();
    let card = |f: &RgbaImage| render_template(simpcard, &no_args, Some(f));
    let carded = render_frames(frames.iter(), &deadline(), card).unwrap();
    let gif = |fs: &[RgbaImage]| encode_gif(fs, &delays, Loops::Infinite, &deadline()).unwrap();
    let webp = |fs: &[RgbaImage]| {
        encode_webp_animation(fs, &delays, Loops::Infinite, &deadline()).unwrap()
    };
    if measuring {
        eprintln!(
            "avatar: {source}; {FRAMES} frames of {SIDE}²; GIF bytes: colour {}, greyscale {}, circle {}, simpcard {}",
            gif(&frames).len(),
            gif(&grey).len(),
            gif(&circled).len(),
            gif(&carded).len(),
        );
        eprintln!(
            "WebP bytes: colour {}, greyscale {}, circle {}",
            webp(&frames).len(),
            webp(&grey).len(),
            webp(&circled).len(),
        );
    }

    let mut g = c.benchmark_group("animation");
    g.sample_size(20);
    g.bench_function("greyscale_frames", |b| {
        b.iter(|| {
            render_frames(frames.iter(), &deadline(), |f| {
                apply(&Filter::Greyscale, black_box(f))
            })
            .unwrap()
        })
    });
    g.bench_function("circle_frames", |b| {
        b.iter(|| render_frames(frames.iter(), &deadline(), |f| circle(black_box(f))).unwrap())
    });
    g.bench_function("gif_greyscale", |b| b.iter(|| gif(black_box(&grey))));
    g.bench_function("gif_colour", |b| b.iter(|| gif(black_box(&frames))));
    g.bench_function("gif_circle", |b| b.iter(|| gif(black_box(&circled))));
    g.bench_function("simpcard_frames", |b| {
        b.iter(|| render_frames(frames.iter(), &deadline(), |f| card(black_box(f))).unwrap())
    });
    g.bench_function("gif_simpcard", |b| b.iter(|| gif(black_box(&carded))));
    g.bench_function("greyscale_then_gif", |b| {
        b.iter(|| {
            let out = render_frames(frames.iter(), &deadline(), |f| {
                apply(&Filter::Greyscale, black_box(f))
            })
            .unwrap();
            gif(&out)
        })
    });
    g.bench_function("webp_greyscale", |b| b.iter(|| webp(black_box(&grey))));
    g.bench_function("webp_circle", |b| b.iter(|| webp(black_box(&circled))));
    g.finish();
}

criterion_group!(animation, benches);
criterion_main!(animation);
