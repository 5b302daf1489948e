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
        ("its-so-stupid", Scene::ItsSoStupid { dog: "my sleep schedule".into() }),
        ("lied", Scene::Lied { username: Some("Ferris".into()) }),
        ("lied-none", Scene::Lied { username: None }),
        ("lolice", Scene::Lolice),
        ("namecard", Scene::Namecard { username: "Ferris the Crab".into(), birthday: "May 15, 2015".into(), description: "Systems programmer, part-time crustacean. I like fearless concurrency, long walks on the beach and zero-cost abstractions.".into() }),
        ("nobitches", Scene::NoBitches { no: "no bitches?".into(), bottomtext: "only tests".into() }),
        ("sage", Scene::Sage { quote: "The river does not hurry, yet it arrives. Be like the river, little one.".into() }),
        ("sage2", Scene::Sage2 { quote: "Slow is smooth, and smooth is fast.".into() }),
        ("simpcard", Scene::Simpcard),
        ("series", Scene::Series),
        ("post-light", Scene::Post(PostParams { username: "ferris".into(), displayname: "Ferris the Crab".into(), comment: "just rewrote the whole thing in Rust and it's 40x faster. no regrets.".into(), ..PostParams::default() })),
        ("post-dim", Scene::Post(PostParams { username: "ferris".into(), displayname: "Ferris".into(), comment: long.into(), theme: PostTheme::Dim, ..PostParams::default() })),
        ("post-dark", Scene::Post(PostParams { username: "ferris".into(), displayname: "Ferris".into(), comment: long.repeat(4), theme: PostTheme::Dark, ..PostParams::default() })),
        ("video-comment", Scene::VideoComment(VideoCommentParams { username: "ferris".into(), comment: "This tutorial saved my semester. The part at 12:34 where the borrow checker finally clicked... chef's kiss.".into(), ..VideoCommentParams::default() })),
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
