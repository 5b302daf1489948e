//! Renders every scene to PNG files: `cargo run -p canvas-render --example scenes -- OUT_DIR [AVATAR.png]`.
use canvas_render::scene::{PostParams, PostTheme, Scene, VideoCommentParams, render_scene};

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "scenes-out".into());
    let avatar = args
        .next()
        .map(|p| image::open(p).expect("avatar").to_rgba8());
    std::fs::create_dir_all(&out).expect("out dir");
    let long = "Hot take: the best code is the code you never had to write. Delete more, ship less, sleep well. Also, if your build takes longer than your coffee, something is wrong. Прывітанне, Γειά σου κόσμε! שלום 😀 é̃ 中文";
    let scenes = vec![
        ("horny", Scene::Horny),
        (
            "namecard",
            Scene::namecard(
                "Ferris the Crab",
                "May 15, 2015",
                "Systems programmer, part-time crustacean. I like fearless concurrency, long walks on the beach and zero-cost abstractions.",
            ),
        ),
        (
            "sage",
            Scene::sage("The river does not hurry, yet it arrives. Be like the river, little one."),
        ),
        ("sage2", Scene::sage2("Slow is smooth, and smooth is fast.")),
        ("simpcard", Scene::Simpcard),
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
    for (name, scene) in scenes {
        let t = std::time::Instant::now();
        let img = render_scene(&scene, avatar.as_ref()).expect("render");
        let el = t.elapsed();
        let png = canvas_render::encode_png(&img).expect("png");
        std::fs::write(format!("{out}/{name}.png"), png).expect("write");
        println!("{name}: {:?}", el);
    }
}
