//! Criterion benchmarks of the misc cards (the templates that were
//! scenes), rendering only (avatar already decoded), plus `namecard`
//! including PNG encoding, and `post` with a 280-character comment.
//!
//! The avatar: `$MENAGERIE_BENCH_AVATAR`, else the sample fox drawn at
//! 512 px with a photographic grain (`support`).
//!
//! Run: `cargo bench -p canvas-render --bench scenes` (release; only when measuring).

mod support;

use std::hint::black_box;
use std::time::Duration;

use canvas_render::encode_png;
use canvas_render::template::{TemplateKind, render_template};
use criterion::{Criterion, criterion_group, criterion_main};

/// The misc cards, each with its preview's sample arguments.
const CARDS: [TemplateKind; 12] = [
    TemplateKind::Horny,
    TemplateKind::ItsSoStupid,
    TemplateKind::Lied,
    TemplateKind::Lolice,
    TemplateKind::Namecard,
    TemplateKind::NoBitches,
    TemplateKind::Sage,
    TemplateKind::Sage2,
    TemplateKind::Simpcard,
    TemplateKind::Series,
    TemplateKind::Post,
    TemplateKind::VideoComment,
];

/// The benchmark's label: the kind's name in lower case (`itssostupid`).
fn label(kind: TemplateKind) -> String {
    format!("{kind:?}").to_lowercase()
}

fn bench_scenes(c: &mut Criterion) {
    let (avatar, _) = support::avatar();
    let mut group = c.benchmark_group("scene");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for kind in CARDS {
        let (t, args) = (kind.template(), kind.sample_args());
        group.bench_function(label(kind), |b| {
            b.iter(|| render_template(t, black_box(&args), Some(black_box(&avatar))).unwrap())
        });
    }
    group.finish();

    let mut group = c.benchmark_group("scene+png");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    let kind = TemplateKind::Namecard;
    let (t, args) = (kind.template(), kind.sample_args());
    group.bench_function(label(kind), |b| {
        b.iter(|| {
            encode_png(&render_template(t, black_box(&args), Some(black_box(&avatar))).unwrap())
                .unwrap()
        })
    });
    group.finish();
}

/// A 280-character comment: Latin only.
const LATIN_280: &str = "Finally shipped the new release after three long weeks of late nights, broken builds and far too much coffee. Huge thanks to everyone who tested the betas and filed bugs: you made this one solid. Next up: faster startup, smaller binaries and a proper dark mode for the dashboard!!";
/// A 280-character comment mixing scripts: Latin, Japanese, Arabic (right to
/// left), Hebrew, Devanagari, Korean, Cyrillic, Thai and colour emoji.
const MIXED_280: &str = "Finally shipped it! 🎉 ありがとう皆さん、本当に助かりました。شكرا لكم جميعا على الدعم 🌸 תודה רבה לכולם! धन्यवाद दोस्तों, आप सबने कमाल कर दिया। 고마워요 여러분 👍🏽 Спасибо всем, кто тестировал бету. ขอบคุณมากครับ 🙏 Next up: faster startup, smaller binaries, dark mode ✨🇯🇵👨‍👩‍👧 and more, coming very soon, ok?!";

/// `post` with a 280-character comment, Latin and mixed-script.
fn bench_post_280(c: &mut Criterion) {
    assert_eq!(LATIN_280.chars().count(), 280);
    assert_eq!(MIXED_280.chars().count(), 280);
    let (avatar, _) = support::avatar();
    let mut group = c.benchmark_group("post-280");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let t = TemplateKind::Post.template();
    for (name, comment) in [("latin", LATIN_280), ("mixed", MIXED_280)] {
        let args = t
            .args(|n| match n {
                "username" => Some("ferris"),
                "displayname" => Some("Ferris the Crab"),
                "comment" => Some(comment),
                _ => None,
            })
            .unwrap();
        group.bench_function(name, |b| {
            b.iter(|| render_template(t, black_box(&args), Some(black_box(&avatar))).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scenes, bench_post_280);
criterion_main!(benches);
