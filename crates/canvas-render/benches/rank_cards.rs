//! The rank cards against `circle`, alternating: each round times `circle`
//! and its PNG, then every rank card and its PNG (the published client's
//! call with a rank and a tag), on the same avatar, and the ratio of
//! throughputs is taken within the round; the medians over the rounds are
//! printed. On a shared, noisy machine a ratio within one round means more
//! than absolute times from separate runs. Issue 28's bound: ≥ 0.3× circle.
//!
//! Run: `cargo bench -p canvas-render --bench rank_cards` (release; only
//! when measuring). `ROUNDS` and `REPS` below set the work. Without
//! `--bench` (as `cargo test --all-targets` runs it) it renders each card
//! once, as a smoke test, and prints no figures.

mod support;

use std::hint::black_box;
use std::time::Instant;

use canvas_render::template::{TemplateKind, render_template};
use canvas_render::{circle, encode_png};

const ROUNDS: usize = 9;
const REPS: usize = 15;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let measuring = std::env::args().any(|a| a == "--bench");
    let (rounds, reps) = if measuring { (ROUNDS, REPS) } else { (1, 1) };
    let (avatar, source) = support::avatar();
    let ranks: Vec<TemplateKind> = TemplateKind::ALL
        .into_iter()
        .filter(|k| format!("{k:?}").starts_with("Rank"))
        .collect();
    let call = |name: &str| match name {
        "username" => Some("Ferris"),
        "discriminator" => Some("1234"),
        "level" => Some("12"),
        "cxp" => Some("340"),
        "nxp" => Some("1000"),
        "rank" => Some("3"),
        "ctext" => Some("ffffff"),
        "cbar" => Some("5865f2"),
        _ => None,
    };
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        for _ in 0..reps {
            f();
        }
        t.elapsed().as_secs_f64() * 1e3 / reps as f64
    };
    let mut circle_ms = Vec::new();
    let mut card_ms = vec![Vec::new(); ranks.len()];
    let mut ratios = vec![Vec::new(); ranks.len()];
    for _ in 0..rounds {
        let c = time(&mut || {
            black_box(encode_png(&circle(black_box(&avatar)).unwrap()).unwrap());
        });
        circle_ms.push(c);
        for (i, kind) in ranks.iter().enumerate() {
            let t = kind.template();
            let args = t.args(call).unwrap();
            let ms = time(&mut || {
                black_box(
                    encode_png(&render_template(t, &args, Some(black_box(&avatar))).unwrap())
                        .unwrap(),
                );
            });
            card_ms[i].push(ms);
            ratios[i].push(c / ms);
        }
    }
    if !measuring {
        println!("rank_cards: every card rendered once (run with --bench to measure)");
        return;
    }
    println!("avatar: {source}; {ROUNDS} rounds of {REPS} each, medians");
    println!("circle + png: {:.2} ms", median(circle_ms));
    for (i, kind) in ranks.iter().enumerate() {
        println!(
            "{kind:?} + png: {:.2} ms, {:.2}x circle's throughput",
            median(card_ms[i].clone()),
            median(ratios[i].clone())
        );
    }
}
