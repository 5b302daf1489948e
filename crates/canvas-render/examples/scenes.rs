//! Renders every scene and the cards drawn as templates to PNG files:
//! `cargo run -p canvas-render --example scenes -- OUT_DIR [AVATAR.png]`.
use canvas_render::scene::{PostParams, PostTheme, Scene, VideoCommentParams, render_scene};
use canvas_render::template::{TemplateKind, render_template};

/// A card drawn as a template: its file name, kind and parameters.
type Card = (
    &'static str,
    TemplateKind,
    &'static [(&'static str, &'static str)],
);

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "scenes-out".into());
    let avatar = args
        .next()
        .map(|p| image::open(p).expect("avatar").to_rgba8());
    std::fs::create_dir_all(&out).expect("out dir");
    let long = "Hot take: the best code is the code you never had to write. Delete more, ship less, sleep well. Also, if your build takes longer than your coffee, something is wrong. Прывітанне, Γειά σου κόσμε! שלום 😀 é̃ 中文";
    let scenes = vec![
        (
            "post-light",
            Scene::Post(PostParams::new(
                "ferris",
                "Ferris the Crab",
                "just rewrote the whole thing in Rust and it's 40x faster. no regrets.",
            )),
        ),
        (
            "post-dim",
            Scene::Post(PostParams::new("ferris", "Ferris", long).theme(PostTheme::Dim)),
        ),
        (
            "post-dark",
            Scene::Post(PostParams::new("ferris", "Ferris", long.repeat(4)).theme(PostTheme::Dark)),
        ),
        (
            "video-comment",
            Scene::VideoComment(VideoCommentParams::new(
                "ferris",
                "This tutorial saved my semester. The part at 12:34 where the borrow checker finally clicked... chef's kiss.",
            )),
        ),
    ];
    let cards: [Card; 5] = [
        ("horny", TemplateKind::Horny, &[]),
        (
            "namecard",
            TemplateKind::Namecard,
            &[
                ("username", "Ferris the Crab"),
                ("birthday", "May 15, 2015"),
                (
                    "description",
                    "Systems programmer, part-time crustacean. I like fearless concurrency, long walks on the beach and zero-cost abstractions.",
                ),
            ],
        ),
        (
            "sage",
            TemplateKind::Sage,
            &[(
                "quote",
                "The river does not hurry, yet it arrives. Be like the river, little one.",
            )],
        ),
        (
            "sage2",
            TemplateKind::Sage2,
            &[("quote", "Slow is smooth, and smooth is fast.")],
        ),
        ("simpcard", TemplateKind::Simpcard, &[]),
    ];
    for (name, scene) in scenes {
        let t = std::time::Instant::now();
        let img = render_scene(&scene, avatar.as_ref()).expect("render");
        save(&out, name, &img, t.elapsed());
    }
    for (name, kind, params) in cards {
        let t = kind.template();
        let args = t
            .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
            .expect("valid parameters");
        let start = std::time::Instant::now();
        let img = render_template(t, &args, avatar.as_ref()).expect("render");
        save(&out, name, &img, start.elapsed());
    }
}

/// Writes `img` as `OUT/name.png` and prints its render time.
fn save(out: &str, name: &str, img: &canvas_render::RgbaImage, took: std::time::Duration) {
    let png = canvas_render::encode_png(img).expect("png");
    std::fs::write(format!("{out}/{name}.png"), png).expect("write");
    println!("{name}: {took:?}");
}
