//! The two-avatar memes over HTTP (`/canvas/meme/{name}?avatar=&avatar2=`):
//! every one answers with its type and size, a still and an animated
//! picture give a GIF aligned by time, `avatar2` is required and checked
//! like `avatar` (both bad: the error names `avatar`), both pictures are
//! fetched at the same time, and `ship`'s percentage is stable for a pair.

use actix_web::test;
use fixture_host::FixtureHost;
use server::{AppState, create_app};

use crate::support::cards::{self, enc, get, image_of};
use crate::support::gif_frames;

macro_rules! app {
    () => {{
        test::init_service(create_app(
            AppState::load(cards::settings()).expect("state loads"),
        ))
        .await
    }};
}

/// Every two-avatar meme and its size.
const PAIRS: [(&str, (u32, u32)); 7] = [
    ("ship", (720, 352)),
    ("kiss", (640, 360)),
    ("slap", (640, 360)),
    ("hug", (640, 360)),
    ("fuse", (512, 512)),
    ("vs", (700, 350)),
    ("heart-locket", (390, 312)),
];

#[actix_rt::test]
async fn every_pair_meme_answers_with_its_type_and_size() {
    let host = FixtureHost::start();
    let app = app!();
    let a = enc(&host.url("/ok.png"));
    let b = enc(&host.url("/ok.jpg"));
    for (name, size) in PAIRS {
        let path = format!("/canvas/meme/{name}?avatar={a}&avatar2={b}");
        let r = get(&app, &path).await;
        if name == "heart-locket" {
            // 24 frames of 70 ms; identical ones in a row are stored as
            // one: the closed locket held, six steps of opening (the last
            // one open), then the open locket with its twinkles held.
            let frames = gif_frames(&r);
            assert_eq!(frames.len(), 8);
            assert!(
                frames
                    .iter()
                    .all(|(f, d)| f.dimensions() == size && *d % 70 == 0)
            );
            assert_eq!(frames.iter().map(|(_, d)| d).sum::<u32>(), 24 * 70);
        } else {
            assert_eq!(image_of(&r, "image/png").dimensions(), size, "{name}");
        }
        let webp = get(&app, &format!("{path}&format=webp")).await;
        assert_eq!(webp.status, 200, "{name}");
        assert_eq!(webp.header("content-type"), Some("image/webp"), "{name}");
        // A WebP picture as either input.
        let w = enc(&host.url("/ok.webp"));
        let r = get(
            &app,
            &format!("/canvas/meme/{name}?avatar={w}&avatar2={w}&format=png"),
        )
        .await;
        assert_eq!(image_of(&r, "image/png").dimensions(), size, "{name}");
    }
}

#[actix_rt::test]
async fn a_still_and_an_animated_picture_give_a_gif_aligned_by_time() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    // 6 frames of 70 ms.
    let anim = enc(&host.url("/anim.gif"));
    for (name, size) in PAIRS.into_iter().filter(|(n, _)| *n != "heart-locket") {
        for query in [
            format!("avatar={still}&avatar2={anim}"),
            format!("avatar={anim}&avatar2={still}"),
        ] {
            let r = get(&app, &format!("/canvas/meme/{name}?{query}")).await;
            assert_eq!(r.header("content-type"), Some("image/gif"), "{name}");
            let frames = gif_frames(&r);
            assert_eq!(frames.len(), 6, "{name}: {query}");
            assert!(
                frames
                    .iter()
                    .all(|(f, d)| f.dimensions() == size && *d == 70),
                "{name}"
            );
            // The frames differ: the animated picture moves in them.
            assert_ne!(frames[0].0, frames[3].0, "{name}");
        }
    }
    // Two frames of 500 ms (`ok.gif`) beside the 420 ms loop: every change
    // of either over the longer loop.
    let two = enc(&host.url("/ok.gif"));
    let r = get(
        &app,
        &format!("/canvas/meme/vs?avatar={anim}&avatar2={two}"),
    )
    .await;
    let frames = gif_frames(&r);
    assert!(frames.len() > 6, "{}", frames.len());
    // The animated locket over an animated picture stays within its loop.
    let r = get(
        &app,
        &format!("/canvas/meme/heart-locket?avatar={still}&avatar2={anim}"),
    )
    .await;
    // More frames than over two still pictures (8): the held open locket
    // shows the picture's own motion.
    let frames = gif_frames(&r);
    assert!(frames.len() > 8, "{}", frames.len());
    let total: u32 = frames.iter().map(|(_, d)| d).sum();
    assert!(total >= 24 * 70, "{total}");
    let png = get(
        &app,
        &format!("/canvas/meme/kiss?avatar={still}&avatar2={anim}&format=png"),
    )
    .await;
    assert_eq!(image_of(&png, "image/png").dimensions(), (640, 360));
}

#[actix_rt::test]
async fn avatar2_is_required_and_checked_like_avatar() {
    let host = FixtureHost::start();
    let app = app!();
    let a = enc(&host.url("/ok.png"));
    for (name, _) in PAIRS {
        for query in [format!("avatar={a}"), format!("avatar={a}&avatar2=%20")] {
            let r = get(&app, &format!("/canvas/meme/{name}?{query}")).await;
            let msg = r.assert_error(400);
            assert!(msg.contains("avatar2"), "{name}: {msg}");
        }
        let r = get(&app, &format!("/canvas/meme/{name}?avatar2={a}")).await;
        let msg = r.assert_error(400);
        assert!(msg.contains("avatar") && !msg.contains("avatar2"), "{msg}");
    }
    let long = format!("http://example.com/{}.png", "a".repeat(2100));
    for bad in ["not-a-url", "http://user@example.com/a.png", long.as_str()] {
        let r = get(
            &app,
            &format!("/canvas/meme/hug?avatar={a}&avatar2={}", enc(bad)),
        )
        .await;
        let msg = r.assert_error(400);
        assert!(msg.contains("avatar2"), "{msg}");
    }
    get(&app, &format!("/canvas/meme/nope?avatar={a}&avatar2={a}"))
        .await
        .assert_error(404);
    // Fetched once each, then cached, whichever slot a picture is in.
    let b = enc(&host.url("/ok.webp"));
    image_of(
        &get(&app, &format!("/canvas/meme/vs?avatar={a}&avatar2={b}")).await,
        "image/png",
    );
    image_of(
        &get(&app, &format!("/canvas/meme/hug?avatar={b}&avatar2={a}")).await,
        "image/png",
    );
    assert_eq!(host.hits("/ok.webp"), 1);
}

#[actix_rt::test]
async fn ships_percentage_is_stable_for_a_pair_and_percent_is_checked() {
    let host = FixtureHost::start();
    let app = app!();
    let a = host.url("/ok.png");
    let b = host.url("/ok.jpg");
    let path = |x: &str, y: &str, extra: &str| {
        format!(
            "/canvas/meme/ship?avatar={}&avatar2={}{extra}",
            enc(x),
            enc(y)
        )
    };
    let first = get(&app, &path(&a, &b, "")).await;
    let again = get(&app, &path(&a, &b, "")).await;
    assert_eq!(first.body, again.body, "the same pair, the same card");
    // Either order gives the same percentage: the card drawn with it set.
    let p = canvas_render::template::ship_percent(&a, &b);
    let set = get(&app, &path(&a, &b, &format!("&percent={p}"))).await;
    assert_eq!(first.body, set.body);
    let swapped = get(&app, &path(&b, &a, &format!("&percent={p}"))).await;
    let swapped_derived = get(&app, &path(&b, &a, "")).await;
    assert_eq!(swapped.body, swapped_derived.body);
    // `percent` sets it.
    let other = (p + 50) % 101;
    let r = get(&app, &path(&a, &b, &format!("&percent={other}"))).await;
    assert_ne!(r.body, first.body);
    for bad in ["101", "-3", "abc", "12.5"] {
        let msg = get(&app, &path(&a, &b, &format!("&percent={bad}")))
            .await
            .assert_error(400);
        assert!(msg.contains("percent"), "{bad}: {msg}");
    }
    // Blank is absent: derived.
    let blank = get(&app, &path(&a, &b, "&percent=")).await;
    assert_eq!(blank.body, first.body);
}

#[actix_rt::test]
async fn the_openapi_document_requires_both_pictures_and_names_the_preview() {
    let app = app!();
    let doc = get(&app, "/openapi.json").await.json();
    for (name, _) in PAIRS {
        let op = &doc["paths"][format!("/canvas/meme/{name}")]["get"];
        let params = op["parameters"].as_array().expect(name);
        for required in ["avatar", "avatar2"] {
            let p = params
                .iter()
                .find(|p| p["name"] == required)
                .unwrap_or_else(|| panic!("{name}: {required}"));
            assert_eq!(p["required"], true, "{name}: {required}");
        }
        let ext = if name == "heart-locket" { "gif" } else { "png" };
        assert_eq!(op["x-preview"], format!("/previews/meme/{name}.{ext}"));
        let preview = get(&app, &format!("/previews/meme/{name}.{ext}")).await;
        assert_eq!(preview.status, 200, "{name}");
    }
    // `ship`'s percent: documented, bounded, with no fixed default.
    let params = doc["paths"]["/canvas/meme/ship"]["get"]["parameters"]
        .as_array()
        .unwrap()
        .clone();
    let percent = params.iter().find(|p| p["name"] == "percent").unwrap();
    // A number 0–100, or blank (absent).
    let number = &percent["schema"]["anyOf"][0];
    assert_eq!(number["maximum"].as_f64(), Some(100.0), "{percent}");
    assert_eq!(number["minimum"].as_f64(), Some(0.0), "{percent}");
    assert!(percent["schema"].get("default").is_none(), "{percent}");
}

/// Both pictures are fetched at the same time: with an origin that takes
/// 400 ms over each picture, it saw the two requests of a pair meme (and of
/// a welcome card with a custom `bg`) at once, each begun before the other
/// was answered.
#[actix_rt::test]
async fn both_pictures_are_fetched_at_the_same_time() {
    let app = app!();
    for path in [
        "/canvas/meme/hug?avatar={a}&avatar2={b}",
        "/premium/welcome/6?avatar={a}&bg={b}",
    ] {
        let host = FixtureHost::start();
        let uri = path
            .replace("{a}", &enc(&host.url("/delayed.png?400")))
            .replace("{b}", &enc(&host.url("/delayed.png?401")));
        image_of(&get(&app, &uri).await, "image/png");
        let spans = host.spans("/delayed.png");
        assert_eq!(spans.len(), 2, "{path}");
        let (a, b) = (spans[0], spans[1]);
        let (last_start, first_end) = (a.0.max(b.0), a.1.min(b.1));
        assert!(
            last_start < first_end,
            "{path}: the second request began {:?} after the first was answered",
            last_start - first_end
        );
    }
}

/// With private addresses refused (the default), a pair meme whose two
/// pictures are both on loopback is a 400 naming `avatar`, the first, and
/// neither is fetched. (A private `avatar2` beside a good avatar is tested
/// on the engine, whose fetcher can trust one host.)
#[actix_rt::test]
async fn both_pictures_private_is_a_400_naming_avatar() {
    let host = FixtureHost::start();
    let settings = crate::support::settings();
    assert!(!settings.allow_private_avatars);
    let app = test::init_service(create_app(AppState::load(settings).expect("state loads"))).await;
    let a = enc(&host.url("/ok.png"));
    let b = enc(&host.url("/ok.webp"));
    for (name, _) in PAIRS {
        let r = get(&app, &format!("/canvas/meme/{name}?avatar={a}&avatar2={b}")).await;
        let msg = r.assert_error(400);
        assert!(msg.contains("private"), "{name}: {msg}");
        assert!(
            msg.contains("avatar") && !msg.contains("avatar2"),
            "{name}: {msg}"
        );
    }
    let r = get(&app, &format!("/premium/welcome/6?avatar={a}&bg={b}")).await;
    let msg = r.assert_error(400);
    assert!(msg.contains("avatar") && !msg.contains("bg"), "{msg}");
    assert_eq!(host.connections(), 0, "neither was contacted");
}
