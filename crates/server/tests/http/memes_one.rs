//! The one-avatar memes (`/canvas/meme/{name}`) over HTTP: the type and
//! size for a still, an animated and a WebP avatar in every format, text
//! in every script, and a 400 naming every bad value.

use actix_web::test;
use fixture_host::FixtureHost;
use server::{AppState, create_app};

use crate::support::cards::{self, enc, get, image_of, pct};
use crate::support::gif_frames;

macro_rules! app {
    () => {{
        test::init_service(create_app(
            AppState::load(cards::settings()).expect("state loads"),
        ))
        .await
    }};
}

/// Each meme, its size and a query filling its text slots.
const MEMES: [(&str, (u32, u32), &str); 6] = [
    ("wanted", (450, 600), "name=Ferris&reward=1500000"),
    (
        "rip",
        (700, 800),
        "text=gone%20fishing&years=1999%20%E2%80%93%202024",
    ),
    ("trash", (560, 560), ""),
    ("delete", (800, 480), "filename=homework.png"),
    ("beautiful", (560, 560), "title=Ferris"),
    ("stonks", (640, 480), "text=not%20stonks"),
];

#[actix_rt::test]
async fn every_meme_answers_a_still_a_webp_and_an_animated_avatar() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    let webp = enc(&host.url("/ok.webp"));
    // 6 frames of 70 ms.
    let anim = enc(&host.url("/anim.gif"));
    for (name, size, query) in MEMES {
        let path = format!("/canvas/meme/{name}");
        let r = get(&app, &format!("{path}?avatar={still}&{query}")).await;
        assert_eq!(image_of(&r, "image/png").dimensions(), size, "{name}");
        assert!(r.header("etag").is_some(), "{name}");
        let r = get(&app, &format!("{path}?avatar={webp}")).await;
        assert_eq!(image_of(&r, "image/png").dimensions(), size, "{name}");
        for format in ["webp", "gif", "png"] {
            let r = get(&app, &format!("{path}?avatar={still}&format={format}")).await;
            let image = image_of(&r, &format!("image/{format}"));
            assert_eq!(image.dimensions(), size, "{name} {format}");
        }
        let r = get(&app, &format!("{path}?avatar={anim}&{query}")).await;
        assert_eq!(r.header("content-type"), Some("image/gif"), "{name}");
        let frames = gif_frames(&r);
        assert_eq!(frames.len(), 6, "{name}");
        assert!(
            frames
                .iter()
                .all(|(f, d)| f.dimensions() == size && *d == 70),
            "{name}"
        );
        assert_ne!(frames[0].0, frames[3].0, "{name}: the avatar moves");
        let r = get(&app, &format!("{path}?avatar={anim}&format=webp")).await;
        assert_eq!(r.status, 200, "{name}");
        assert_eq!(r.header("content-type"), Some("image/webp"), "{name}");
    }
}

#[actix_rt::test]
async fn text_slots_take_every_script_and_emoji() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let plain = get(&app, &format!("/canvas/meme/wanted?avatar={avatar}")).await;
    for (name, query) in [
        ("wanted", format!("name={}", pct("محمد الصقر 🌵"))),
        ("wanted", format!("name={}", pct("ユウキ 🤠"))),
        (
            "rip",
            format!(
                "text={}&years={}",
                pct("安らかに眠れ 💀"),
                pct("٢٠٠١ – ٢٠٢٤")
            ),
        ),
        ("delete", format!("filename={}", pct("我的作业 📁.png"))),
        ("beautiful", format!("title={}", pct("שלום ✨"))),
        ("stonks", format!("text={}", pct("📈 ज़्यादा"))),
    ] {
        let r = get(
            &app,
            &format!("/canvas/meme/{name}?avatar={avatar}&{query}"),
        )
        .await;
        image_of(&r, "image/png");
        assert_ne!(r.body, plain.body, "{name} {query}");
    }
    // The reward is written with its thousands: a different number, a
    // different poster; the default is $5,000.
    let five = get(
        &app,
        &format!("/canvas/meme/wanted?avatar={avatar}&reward=5000"),
    )
    .await;
    assert_eq!(five.body, plain.body);
}

#[actix_rt::test]
async fn every_bad_value_is_a_400_naming_it() {
    let app = app!();
    let a = "https://example.com/a.png";
    let long = |n: usize| "x".repeat(n);
    let cases: Vec<(String, &str)> = vec![
        (
            format!("/canvas/meme/wanted?avatar={a}&reward=-1"),
            "reward",
        ),
        (
            format!("/canvas/meme/wanted?avatar={a}&reward=1000000000001"),
            "reward",
        ),
        (
            format!("/canvas/meme/wanted?avatar={a}&reward=%2450"),
            "reward",
        ),
        (
            format!("/canvas/meme/wanted?avatar={a}&reward=1.5"),
            "reward",
        ),
        (
            format!("/canvas/meme/wanted?avatar={a}&reward=lots"),
            "reward",
        ),
        (
            format!("/canvas/meme/wanted?avatar={a}&name={}", long(65)),
            "name",
        ),
        (
            format!("/canvas/meme/rip?avatar={a}&text={}", long(121)),
            "text",
        ),
        (
            format!("/canvas/meme/rip?avatar={a}&years={}", long(41)),
            "years",
        ),
        (
            format!("/canvas/meme/delete?avatar={a}&filename={}", long(65)),
            "filename",
        ),
        (
            format!("/canvas/meme/beautiful?avatar={a}&title={}", long(65)),
            "title",
        ),
        (
            format!("/canvas/meme/stonks?avatar={a}&text={}", long(65)),
            "text",
        ),
        ("/canvas/meme/trash".to_owned(), "avatar"),
        ("/canvas/meme/wanted?name=x".to_owned(), "avatar"),
        ("/canvas/meme/rip?avatar=ftp://x/a.png".to_owned(), "avatar"),
        (
            "/canvas/meme/beautiful?avatar=not%20a%20url".to_owned(),
            "avatar",
        ),
        (
            format!("/canvas/meme/delete?avatar={a}&format=jpeg"),
            "format",
        ),
        (
            format!("/canvas/meme/stonks?avatar={a}&quality=0"),
            "quality",
        ),
    ];
    for (uri, name) in &cases {
        let r = get(&app, uri).await;
        let msg = r.assert_error(400);
        assert!(msg.contains(name), "{uri}: {msg}");
    }
    for uri in [
        "/canvas/meme/nope?avatar=https://example.com/a.png",
        "/canvas/meme/Wanted?avatar=https://example.com/a.png",
        "/canvas/meme/lied?avatar=https://example.com/a.png",
        "/canvas/misc/wanted?avatar=https://example.com/a.png",
    ] {
        get(&app, uri).await.assert_error(404);
    }
}
