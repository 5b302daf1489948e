//! Criterion benchmarks of the scene compositions, rendering
//! only (`render_scene`, avatar already decoded), plus `post` and `namecard`
//! including PNG encoding.
//!
//! The avatar is read at run time from `$MENAGERIE_BENCH_AVATAR`, else
//! `../shared/bench/avatars/avatar_512.png` relative to the workspace root;
//! when neither exists a synthetic 512 × 512 avatar is generated, so
//! `cargo bench --no-run` and `cargo test --benches` work anywhere.
//!
//! Run: `cargo bench -p canvas-render --bench scenes` (release; only when measuring).

use std::hint::black_box;
use std::path::PathBuf;
use std::time::Duration;

use canvas_render::scene::{PostParams, Scene, SceneKind, VideoCommentParams, render_scene};
use canvas_render::{RgbaImage, encode_png};
use criterion::{Criterion, criterion_group, criterion_main};

fn avatar() -> RgbaImage {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let candidates = std::env::var_os("MENAGERIE_BENCH_AVATAR")
        .map(PathBuf::from)
        .into_iter()
        .chain([root.join("../shared/bench/avatars/avatar_512.png")]);
    for path in candidates {
        if let Ok(img) = image::open(&path) {
            return img.to_rgba8();
        }
    }
    RgbaImage::from_fn(512, 512, |x, y| {
        image::Rgba([(x / 2) as u8, 90, (y / 2) as u8, 255])
    })
}

fn scenes() -> Vec<Scene> {
    vec![
        Scene::Horny,
        Scene::its_so_stupid("my sleep schedule"),
        Scene::lied(Some("Ferris".into())),
        Scene::Lolice,
        Scene::namecard(
            "Ferris the Crab",
            "May 15",
            "Systems programmer, part-time crustacean. Likes fearless concurrency and long walks on the beach.",
        ),
        Scene::nobitches("no bitches?", "only tests"),
        Scene::sage("The river does not hurry, yet it arrives."),
        Scene::sage2("Slow is smooth, and smooth is fast."),
        Scene::Simpcard,
        Scene::Series,
        Scene::Post(PostParams::new(
            "ferris",
            "Ferris the Crab",
            "just rewrote it in Rust and it's 40x faster. no regrets.",
        )),
        Scene::VideoComment(VideoCommentParams::new(
            "ferris",
            "The part at 12:34 where the borrow checker finally clicked... chef's kiss.",
        )),
    ]
}

/// The benchmark's label: the kind's name in lower case (`videocomment`).
fn label(scene: &Scene) -> String {
    format!("{:?}", scene.kind()).to_lowercase()
}

fn bench_scenes(c: &mut Criterion) {
    let avatar = avatar();
    let mut group = c.benchmark_group("scene");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for scene in scenes() {
        group.bench_function(label(&scene), |b| {
            b.iter(|| render_scene(black_box(&scene), Some(black_box(&avatar))).unwrap())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("scene+png");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for scene in scenes()
        .into_iter()
        .filter(|s| matches!(s.kind(), SceneKind::Post | SceneKind::Namecard))
    {
        group.bench_function(label(&scene), |b| {
            b.iter(|| {
                encode_png(&render_scene(black_box(&scene), Some(black_box(&avatar))).unwrap())
                    .unwrap()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scenes);
criterion_main!(benches);
