//! Bytes and encode time of every preview as PNG (the server's encoder),
//! lossless WebP and lossy WebP at the server's setting (quality 85, exact
//! alpha), in one run: the measurement behind answering browsers with lossy
//! WebP. Still previews only (the animated ones are GIFs, measured in
//! BENCHMARKS.md's animation sections).
//!
//! `cargo run --release -p server --example webp_bytes [ROUNDS]`
//!
//! Each preview is drawn once by the server in process (its sample avatar,
//! no fetch), decoded to RGBA, then encoded ROUNDS times (default 5) each
//! way; the time is the median. Prints a Markdown table, the totals, and
//! the total bytes at other `quality` values (one encode each).

use std::time::{Duration, Instant};

use actix_web::test;
use server::catalogue::image_endpoints;
use server::{AppState, Settings, create_app};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn timed<T>(rounds: usize, mut f: impl FnMut() -> T) -> (T, Duration) {
    let mut times = Vec::with_capacity(rounds);
    let mut out = None;
    for _ in 0..rounds {
        let start = Instant::now();
        out = Some(f());
        times.push(start.elapsed());
    }
    (out.expect("at least one round"), median(times))
}

#[actix_rt::main]
async fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|r| r.parse().ok())
        .unwrap_or(5)
        .max(1);
    let data = tempfile::tempdir().expect("a temporary directory");
    let mut settings = Settings::for_tests(data.path());
    settings.animation_render_ms = 120_000;
    let app = test::init_service(create_app(AppState::load(settings).expect("state loads"))).await;
    println!(
        "| preview | size | PNG bytes | WebP lossless | WebP q85 | q85/PNG | PNG ms | lossless ms | q85 ms |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|---:|");
    let mut totals = [0usize; 3];
    let mut time_totals = [Duration::ZERO; 3];
    let mut n = 0;
    const SWEEP: [u8; 5] = [50, 70, 85, 95, 100];
    let mut sweep = [0usize; SWEEP.len()];
    for e in image_endpoints() {
        if !e.preview.ends_with(".png") {
            continue;
        }
        let req = test::TestRequest::get().uri(&e.preview).to_request();
        let res = test::call_service(&app, req).await;
        assert!(res.status().is_success(), "{}: {}", e.preview, res.status());
        let body = test::read_body(res).await;
        let img = image::load_from_memory(&body)
            .unwrap_or_else(|err| panic!("{}: {err}", e.preview))
            .to_rgba8();
        let (png, png_t) = timed(rounds, || canvas_render::encode_png(&img).expect("PNG"));
        let (lossless, lossless_t) = timed(rounds, || {
            canvas_render::encode_webp_lossless(&img).expect("lossless WebP")
        });
        let (lossy, lossy_t) = timed(rounds, || canvas_render::encode_webp(&img).expect("WebP"));
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        println!(
            "| `{}` | {}×{} | {} | {} | {} | {:.2} | {:.1} | {:.1} | {:.1} |",
            e.preview,
            img.width(),
            img.height(),
            png.len(),
            lossless.len(),
            lossy.len(),
            lossy.len() as f64 / png.len() as f64,
            ms(png_t),
            ms(lossless_t),
            ms(lossy_t)
        );
        for (t, v) in totals
            .iter_mut()
            .zip([png.len(), lossless.len(), lossy.len()])
        {
            *t += v;
        }
        for (t, v) in time_totals.iter_mut().zip([png_t, lossless_t, lossy_t]) {
            *t += v;
        }
        for (total, q) in sweep.iter_mut().zip(SWEEP) {
            let q = canvas_render::WebpQuality::new(q).expect("within 1–100");
            *total += canvas_render::encode_webp_at(&img, q).expect("WebP").len();
        }
        n += 1;
    }
    let [png, lossless, lossy] = totals;
    let [png_t, lossless_t, lossy_t] = time_totals.map(|d| d.as_secs_f64() * 1000.0);
    println!(
        "\n{n} still previews: PNG {png} bytes, WebP lossless {lossless} ({:.2}×), WebP q85 {lossy} ({:.2}×); \
         encode PNG {png_t:.0} ms, lossless {lossless_t:.0} ms ({:.2}×), q85 {lossy_t:.0} ms ({:.2}×)",
        lossless as f64 / png as f64,
        lossy as f64 / png as f64,
        lossless_t / png_t,
        lossy_t / png_t
    );
    let sweep: Vec<String> = SWEEP
        .iter()
        .zip(sweep)
        .map(|(q, b)| format!("q{q} {b} ({:.2}×)", b as f64 / png as f64))
        .collect();
    println!("WebP bytes by quality, against PNG: {}", sweep.join(", "));
}
