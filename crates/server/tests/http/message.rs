//! The chat message card (`/canvas/message`) over HTTP: the type and size
//! for a still, an animated and a WebP avatar, the card growing with its
//! text within its bounds, and a 400 naming every bad value.

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

#[actix_rt::test]
async fn the_card_answers_a_still_a_webp_and_an_animated_avatar() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    let webp = enc(&host.url("/ok.webp"));
    // 6 frames of 70 ms.
    let anim = enc(&host.url("/anim.gif"));
    let text = pct("**hi** `there` @you 🎉 مرحبا 你好");
    let query = format!("username=Ferris&text={text}&timestamp=2026-11-29T08:15:00Z&bot=true");
    let size = (1000, 152);
    let r = get(&app, &format!("/canvas/message?avatar={still}&{query}")).await;
    assert_eq!(image_of(&r, "image/png").dimensions(), size);
    assert!(r.header("etag").is_some());
    let r = get(&app, &format!("/canvas/message?avatar={webp}&{query}")).await;
    assert_eq!(image_of(&r, "image/png").dimensions(), size);
    for format in ["webp", "gif", "png"] {
        let r = get(
            &app,
            &format!("/canvas/message?avatar={still}&{query}&format={format}"),
        )
        .await;
        assert_eq!(
            image_of(&r, &format!("image/{format}")).dimensions(),
            size,
            "{format}"
        );
    }
    let r = get(&app, &format!("/canvas/message?avatar={anim}&{query}")).await;
    assert_eq!(r.header("content-type"), Some("image/gif"));
    let frames = gif_frames(&r);
    assert_eq!(frames.len(), 6);
    assert!(
        frames
            .iter()
            .all(|(f, d)| f.dimensions() == size && *d == 70)
    );
    assert_ne!(frames[0].0, frames[3].0, "the avatar moves");
    let r = get(
        &app,
        &format!("/canvas/message?avatar={anim}&{query}&format=webp"),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/webp"));
    // A reply line takes 44 px more, in the light theme too.
    let r = get(
        &app,
        &format!(
            "/canvas/message?avatar={still}&{query}&reply_username=ana&reply_text=yes&theme=light"
        ),
    )
    .await;
    assert_eq!(image_of(&r, "image/png").dimensions(), (1000, 196));
}

#[actix_rt::test]
async fn the_card_grows_with_its_text_within_its_bounds() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let mut last = 0;
    for words in [1, 40, 120, 399] {
        let text = "word%20".repeat(words);
        let r = get(
            &app,
            &format!("/canvas/message?avatar={avatar}&text={text}"),
        )
        .await;
        let (w, h) = image_of(&r, "image/png").dimensions();
        assert_eq!(w, 1000);
        assert!(h > last || h == 1156, "{words}: {h}");
        assert!(h <= 1200, "{words}: {h}");
        last = h;
    }
    assert_eq!(last, 1156);
    let full = "x".repeat(2000);
    let r = get(
        &app,
        &format!("/canvas/message?avatar={avatar}&text={full}&reply_username=a"),
    )
    .await;
    assert_eq!(image_of(&r, "image/png").dimensions(), (1000, 1200));
}

#[actix_rt::test]
async fn every_bad_value_is_a_400_naming_it() {
    let app = app!();
    let a = "https://example.com/a.png";
    let m = format!("/canvas/message?avatar={a}&text=hi");
    let cases: Vec<(String, &str)> = vec![
        (format!("/canvas/message?avatar={a}"), "text"),
        (format!("/canvas/message?avatar={a}&text=%20"), "text"),
        (
            format!("/canvas/message?avatar={a}&text={}", "x".repeat(2001)),
            "text",
        ),
        (format!("{m}&timestamp=yesterday"), "timestamp"),
        (format!("{m}&timestamp=2026-02-30T08:15:00Z"), "timestamp"),
        (
            format!("{m}&timestamp=2026-11-29T08:15:00%2B24:00"),
            "timestamp",
        ),
        (format!("{m}&color=orange"), "color"),
        (format!("{m}&color=12345"), "color"),
        (format!("{m}&reply_color=zz0000"), "reply_color"),
        (format!("{m}&theme=dim"), "theme"),
        (format!("{m}&bot=yes"), "bot"),
        (format!("{m}&bot=1"), "bot"),
        (format!("{m}&username={}", "x".repeat(65)), "username"),
        (format!("{m}&reply_text=hello"), "reply_username"),
        (
            format!("{m}&reply_username={}", "x".repeat(65)),
            "reply_username",
        ),
        ("/canvas/message?text=hi".to_owned(), "avatar"),
        (format!("{m}&format=jpeg"), "format"),
    ];
    for (uri, name) in &cases {
        let r = get(&app, uri).await;
        let msg = r.assert_error(400);
        assert!(msg.contains(name), "{uri}: {msg}");
    }
    get(&app, &format!("/canvas/message/x?avatar={a}&text=hi"))
        .await
        .assert_error(404);
}
