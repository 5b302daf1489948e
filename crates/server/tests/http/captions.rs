//! The captions over any picture (`/canvas/caption/{name}`): the answer
//! follows a wide, a tall and a square picture; still, animated and WebP
//! pictures; the picture from `avatar` or `image` (exactly one: a 400
//! naming them otherwise); text caps.

use actix_web::test;
use canvas_render::template::TemplateKind;
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

const NAMES: [(&str, TemplateKind); 4] = [
    ("caption", TemplateKind::Caption),
    ("impact", TemplateKind::Impact),
    ("motivate", TemplateKind::Motivate),
    ("speechbubble", TemplateKind::SpeechBubble),
];

/// The query of every caption's text parameters.
const TEXT: &str = "text=hello%20%F0%9F%98%80&top=top&bottom=bottom&title=Hope";

/// The size canvas-render announces for `kind` over a `picture`, with
/// [`TEXT`]'s values.
fn expected(kind: TemplateKind, picture: (u32, u32)) -> (u32, u32) {
    let t = kind.template();
    let args = t
        .args(|n| match n {
            "text" => Some("hello 😀"),
            "top" => Some("top"),
            "bottom" => Some("bottom"),
            "title" => Some("Hope"),
            _ => None,
        })
        .unwrap();
    t.size_for_picture(&args, picture)
}

#[actix_rt::test]
async fn the_answer_follows_a_wide_a_tall_and_a_square_picture() {
    let host = FixtureHost::start();
    let app = app!();
    // 64×48 (enlarged to a long side of 320), 48×96, 512×512.
    for (path, picture, shown) in [
        ("/ok.png", (64, 48), (320, 240)),
        ("/anim/48x96x1.gif", (48, 96), (160, 320)),
        ("/avatar512.png", (512, 512), (512, 512)),
    ] {
        let url = enc(&host.url(path));
        for (name, kind) in NAMES {
            let r = get(&app, &format!("/canvas/caption/{name}?avatar={url}&{TEXT}")).await;
            let img = image_of(&r, "image/png");
            assert_eq!(img.dimensions(), expected(kind, picture), "{name} {path}");
            if matches!(kind, TemplateKind::Impact | TemplateKind::SpeechBubble) {
                assert_eq!(img.dimensions(), shown, "{name} {path}");
            }
        }
    }
}

#[actix_rt::test]
async fn still_animated_and_webp_pictures_in_every_format() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    let webp = enc(&host.url("/ok.webp"));
    let anim = enc(&host.url("/anim.gif"));
    for (name, kind) in NAMES {
        let size = expected(kind, (64, 48));
        let base = format!("/canvas/caption/{name}?{TEXT}");
        let r = get(&app, &format!("{base}&avatar={webp}")).await;
        assert_eq!(image_of(&r, "image/png").dimensions(), size, "{name}");
        let r = get(&app, &format!("{base}&avatar={still}&format=webp")).await;
        assert_eq!(image_of(&r, "image/webp").dimensions(), size, "{name}");
        let r = get(&app, &format!("{base}&avatar={still}&format=gif")).await;
        assert_eq!(gif_frames(&r).len(), 1, "{name}");
        // An animated picture: an animated answer, a frame per picture
        // frame, each of the canvas's size.
        let r = get(&app, &format!("{base}&avatar={anim}")).await;
        let frames = gif_frames(&r);
        assert_eq!(frames.len(), 6, "{name}");
        assert!(frames.iter().all(|(f, _)| f.dimensions() == size), "{name}");
        assert_ne!(frames[0].0, frames[3].0, "{name}: the picture moves");
        let r = get(&app, &format!("{base}&avatar={anim}&format=webp")).await;
        assert_eq!(r.header("content-type"), Some("image/webp"), "{name}");
        let r = get(&app, &format!("{base}&avatar={anim}&format=png")).await;
        assert_eq!(image_of(&r, "image/png").dimensions(), size, "{name}");
    }
}

#[actix_rt::test]
async fn the_picture_is_avatar_or_image_exactly_one() {
    let host = FixtureHost::start();
    let app = app!();
    let url = enc(&host.url("/ok.png"));
    let by_avatar = get(&app, &format!("/canvas/caption/impact?avatar={url}&top=a")).await;
    let by_image = get(&app, &format!("/canvas/caption/impact?image={url}&top=a")).await;
    assert_eq!(
        image_of(&by_avatar, "image/png"),
        image_of(&by_image, "image/png")
    );
    for query in [
        format!("avatar={url}&image={url}"),
        String::new(),
        "avatar=%20&image=".to_owned(),
    ] {
        let r = get(&app, &format!("/canvas/caption/caption?text=a&{query}")).await;
        let msg = r.assert_error(400);
        assert!(
            msg.contains("`avatar`") && msg.contains("`image`"),
            "{query}: {msg}"
        );
    }
    // Errors about the picture name the parameter it came in.
    let r = get(
        &app,
        "/canvas/caption/motivate?image=ftp://example.com/a.png",
    )
    .await;
    let msg = r.assert_error(400);
    assert!(msg.starts_with("invalid image URL"), "{msg}");
    let missing = enc(&host.url("/status/404"));
    let r = get(&app, &format!("/canvas/caption/motivate?image={missing}")).await;
    assert!(r.status.as_u16() >= 400);
    let msg = r.assert_error(r.status.as_u16());
    assert!(msg.contains("image"), "{msg}");
    // An unknown caption is a 404.
    let r = get(&app, &format!("/canvas/caption/nope?avatar={url}")).await;
    r.assert_error(404);
}

#[actix_rt::test]
async fn text_over_its_cap_is_a_400_naming_it() {
    let host = FixtureHost::start();
    let app = app!();
    let url = enc(&host.url("/ok.png"));
    let long = "a".repeat(201);
    for (name, param) in [
        ("caption", "text"),
        ("impact", "top"),
        ("impact", "bottom"),
        ("motivate", "title"),
        ("motivate", "text"),
    ] {
        let r = get(
            &app,
            &format!("/canvas/caption/{name}?avatar={url}&{param}={long}"),
        )
        .await;
        let msg = r.assert_error(400);
        assert!(msg.contains(&format!("`{param}`")), "{name} {param}: {msg}");
        let ok = get(
            &app,
            &format!("/canvas/caption/{name}?avatar={url}&{param}={}", &long[1..]),
        )
        .await;
        image_of(&ok, "image/png");
    }
}

#[actix_rt::test]
async fn the_speech_bubble_stays_transparent_in_every_format() {
    let host = FixtureHost::start();
    let app = app!();
    let url = enc(&host.url("/avatar512.png"));
    for (format, content_type) in [("png", "image/png"), ("webp", "image/webp")] {
        let r = get(
            &app,
            &format!("/canvas/caption/speechbubble?avatar={url}&format={format}"),
        )
        .await;
        let img = image_of(&r, content_type);
        assert_eq!(
            img.get_pixel(256, 8).0[3],
            0,
            "{format}: the bubble is cut out"
        );
        assert_eq!(
            img.get_pixel(256, 500).0[3],
            255,
            "{format}: the picture below"
        );
    }
    let r = get(
        &app,
        &format!("/canvas/caption/speechbubble?avatar={url}&format=gif"),
    )
    .await;
    let frames = gif_frames(&r);
    assert_eq!(frames[0].0.get_pixel(256, 8).0[3], 0);
    assert_eq!(frames[0].0.get_pixel(256, 500).0[3], 255);
}
