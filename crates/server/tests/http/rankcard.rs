//! Rank cards over HTTP: the nine designs, the published client's call
//! unchanged, every format, an animated avatar, colours in every accepted
//! form, and a 400 naming every bad value.

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

/// The published Python client's query, after `username` and `avatar`.
const CLIENT: &str = "level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2";

#[actix_rt::test]
async fn the_published_clients_call_gives_every_card() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let mut bodies = Vec::new();
    for template in 1..=9 {
        let r = get(
            &app,
            &format!("/premium/rankcard/{template}?username=Ferris&avatar={avatar}&{CLIENT}"),
        )
        .await;
        assert_eq!(
            image_of(&r, "image/png").dimensions(),
            (900, 300),
            "{template}"
        );
        bodies.push(r.body.clone());
    }
    bodies.sort();
    bodies.dedup();
    assert_eq!(bodies.len(), 9, "nine different cards");
    // Only the avatar is required.
    let r = get(&app, &format!("/premium/rankcard/4?avatar={avatar}")).await;
    assert_eq!(image_of(&r, "image/png").dimensions(), (900, 300));
}

#[actix_rt::test]
async fn every_format_and_an_animated_avatar() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let q = format!("username=Ferris&avatar={avatar}&{CLIENT}&rank=3&discriminator=1234");
    let webp = get(&app, &format!("/premium/rankcard/2?{q}&format=webp")).await;
    assert_eq!(image_of(&webp, "image/webp").dimensions(), (900, 300));
    let gif = get(&app, &format!("/premium/rankcard/2?{q}&format=gif")).await;
    let frames = gif_frames(&gif);
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].0.dimensions(), (900, 300));
    // An animated avatar (6 frames of 70 ms) gives an animated card with
    // its frames and delays.
    let anim = enc(&host.url("/anim.gif"));
    let r = get(
        &app,
        &format!("/premium/rankcard/6?username=Ferris&avatar={anim}&{CLIENT}"),
    )
    .await;
    let frames = gif_frames(&r);
    assert_eq!(frames.len(), 6);
    assert!(
        frames
            .iter()
            .all(|(f, d)| f.dimensions() == (900, 300) && *d == 70)
    );
    assert_ne!(frames[0].0, frames[3].0, "the avatar moves");
    let webp = get(
        &app,
        &format!("/premium/rankcard/6?avatar={anim}&format=webp"),
    )
    .await;
    assert_eq!(webp.status, 200);
    assert_eq!(webp.header("content-type"), Some("image/webp"));
}

#[actix_rt::test]
async fn colours_take_every_form_of_color() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let card = |c: &str| format!("/premium/rankcard/1?avatar={avatar}&cbg={c}");
    let six = get(&app, &card("ff8800")).await;
    image_of(&six, "image/png");
    for same in ["FF8800", "%23ff8800", "f80", "%23F80", "%20ff8800%20"] {
        let r = get(&app, &card(same)).await;
        assert_eq!(r.body, six.body, "{same}");
    }
    let default = get(&app, &format!("/premium/rankcard/1?avatar={avatar}&cbg=")).await;
    let absent = get(&app, &format!("/premium/rankcard/1?avatar={avatar}")).await;
    assert_eq!(default.body, absent.body, "blank is the default");
    assert_ne!(six.body, absent.body);
}

#[actix_rt::test]
async fn every_bad_value_is_a_400_naming_it() {
    let app = app!();
    let a = "https://example.com/a.png";
    let cases: &[(&str, &str)] = &[
        ("cxp=-1", "cxp"),
        ("cxp=1.5", "cxp"),
        ("nxp=abc", "nxp"),
        ("nxp=1000000001", "nxp"),
        ("level=1e3", "level"),
        ("level=99999999999999999999", "level"),
        ("rank=-3", "rank"),
        ("rank=%233", "rank"),
        ("cbg=zzz", "cbg"),
        ("ccxp=12345", "ccxp"),
        ("cbar=%2312", "cbar"),
        ("ctext=red", "ctext"),
        ("ctag=1234567", "ctag"),
        ("ctag=0,0,0", "ctag"),
        ("username={65}", "username"),
        ("discriminator=123456789", "discriminator"),
        ("format=jpeg", "format"),
    ];
    for (query, name) in cases {
        let query = query.replace("{65}", &"n".repeat(65));
        let uri = format!("/premium/rankcard/3?avatar={a}&{query}");
        let msg = get(&app, &uri).await.assert_error(400);
        assert!(msg.contains(name), "{uri}: {msg}");
    }
    let msg = get(&app, "/premium/rankcard/1?username=Ferris&level=3")
        .await
        .assert_error(400);
    assert!(msg.contains("avatar"), "{msg}");
    for uri in [
        "/premium/rankcard/0?avatar=https://example.com/a.png",
        "/premium/rankcard/10?avatar=https://example.com/a.png",
        "/premium/rankcard/one?avatar=https://example.com/a.png",
        "/premium/rankcard/1/2?avatar=https://example.com/a.png",
        "/premium/rankcard",
    ] {
        get(&app, uri).await.assert_error(404);
    }
}
