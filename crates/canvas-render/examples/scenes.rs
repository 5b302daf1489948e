//! Renders every misc card (meme, ID and social cards) to PNG files: `cargo run -p canvas-render --example scenes -- OUT_DIR [AVATAR.png]`.
use canvas_render::template::{TemplateKind, render_template};

/// A card rendered by a template: its file name, the template, its parameters.
type Card<'a> = (&'a str, TemplateKind, Vec<(&'a str, &'a str)>);

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().unwrap_or_else(|| "scenes-out".into());
    let avatar = args
        .next()
        .map(|p| image::open(p).expect("avatar").to_rgba8());
    std::fs::create_dir_all(&out).expect("out dir");
    let long = "Hot take: the best code is the code you never had to write. Delete more, ship less, sleep well. Also, if your build takes longer than your coffee, something is wrong. Прывітанне, Γειά σου κόσμε! שלום 😀 é̃ 中文";
    let longer = long.repeat(4);
    let cards: [Card; 15] = [
        ("horny", TemplateKind::Horny, vec![]),
        (
            "its-so-stupid",
            TemplateKind::ItsSoStupid,
            vec![("dog", "my sleep schedule")],
        ),
        ("lied", TemplateKind::Lied, vec![("username", "Ferris")]),
        ("lied-none", TemplateKind::Lied, vec![]),
        ("lolice", TemplateKind::Lolice, vec![]),
        (
            "namecard",
            TemplateKind::Namecard,
            vec![
                ("username", "Ferris the Crab"),
                ("birthday", "May 15, 2015"),
                (
                    "description",
                    "Systems programmer, part-time crustacean. I like fearless concurrency, long walks on the beach and zero-cost abstractions.",
                ),
            ],
        ),
        (
            "nobitches",
            TemplateKind::NoBitches,
            vec![("no", "no bitches?"), ("bottomtext", "only tests")],
        ),
        (
            "sage",
            TemplateKind::Sage,
            vec![(
                "quote",
                "The river does not hurry, yet it arrives. Be like the river, little one.",
            )],
        ),
        (
            "sage2",
            TemplateKind::Sage2,
            vec![("quote", "Slow is smooth, and smooth is fast.")],
        ),
        ("simpcard", TemplateKind::Simpcard, vec![]),
        ("series", TemplateKind::Series, vec![]),
        (
            "post-light",
            TemplateKind::Post,
            vec![
                ("username", "ferris"),
                ("displayname", "Ferris the Crab"),
                (
                    "comment",
                    "just rewrote the whole thing in Rust and it's 40x faster. no regrets.",
                ),
            ],
        ),
        (
            "post-dim",
            TemplateKind::Post,
            vec![
                ("username", "ferris"),
                ("displayname", "Ferris"),
                ("comment", long),
                ("theme", "dim"),
            ],
        ),
        (
            "post-dark",
            TemplateKind::Post,
            vec![
                ("username", "ferris"),
                ("displayname", "Ferris"),
                ("comment", &longer),
                ("theme", "dark"),
            ],
        ),
        (
            "video-comment",
            TemplateKind::VideoComment,
            vec![
                ("username", "ferris"),
                (
                    "comment",
                    "This tutorial saved my semester. The part at 12:34 where the borrow checker finally clicked... chef's kiss.",
                ),
            ],
        ),
    ];
    for (name, kind, params) in cards {
        let t = kind.template();
        let args = t
            .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
            .expect("args");
        let started = std::time::Instant::now();
        let img = render_template(t, &args, avatar.as_ref()).expect("render");
        println!("{name}: {:?}", started.elapsed());
        let png = canvas_render::encode_png(&img).expect("png");
        std::fs::write(format!("{out}/{name}.png"), png).expect("write");
    }
}
