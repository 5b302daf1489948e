//! Welcome cards over HTTP: the original's documented calls sent
//! unchanged, both paths, every template and background, the custom
//! background fetched like the avatar, animated inputs, and a 400 naming
//! every bad value (404 for an unknown template or background).

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

/// The query of the original's docs example (`Welcome-Images.mdx`), with
/// its avatar URL replaced by the fixture host's.
fn docs_query(avatar: &str) -> String {
    format!("type=join&textcolor=green&username=test&guildName=test&memberCount=5&avatar={avatar}")
}

#[actix_rt::test]
async fn the_docs_example_gives_every_template_on_both_paths() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let backgrounds = server::catalogue::WELCOME_BACKGROUNDS;
    let mut seen = Vec::new();
    for template in 1..=7 {
        let bg = backgrounds[template * 3 % backgrounds.len()];
        let path = format!("/welcome/img/{template}/{bg}?{}", docs_query(&avatar));
        let one = get(&app, &path).await;
        let img = image_of(&one, "image/png");
        assert_eq!(img.dimensions(), (1200, 600), "{path}");
        let alias = get(&app, &format!("/canvas{path}")).await;
        assert_eq!(
            one.body, alias.body,
            "{path}: the alias gives the same card"
        );
        assert_eq!(one.header("etag"), alias.header("etag"));
        assert!(
            !seen.contains(&one.body),
            "template {template} is its own card"
        );
        seen.push(one.body.clone());
    }
    // Every background, in every format.
    for bg in backgrounds {
        let r = get(&app, &format!("/welcome/img/1/{bg}?avatar={avatar}")).await;
        assert_eq!(image_of(&r, "image/png").dimensions(), (1200, 600), "{bg}");
    }
    let webp = get(
        &app,
        &format!("/welcome/img/2/night?avatar={avatar}&format=webp"),
    )
    .await;
    assert_eq!(image_of(&webp, "image/webp").dimensions(), (1200, 600));
    let gif = get(
        &app,
        &format!("/welcome/img/2/night?avatar={avatar}&format=gif"),
    )
    .await;
    assert_eq!(gif_frames(&gif).len(), 1);
}

#[actix_rt::test]
async fn only_the_avatar_is_required_and_values_change_the_card() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let bare = get(&app, &format!("/welcome/img/3/sunset?avatar={avatar}")).await;
    assert_eq!(image_of(&bare, "image/png").dimensions(), (1200, 600));
    for extra in [
        "type=leave",
        "type=JOIN&textcolor=Purple",
        "textcolor=black",
        "username=%E2%9C%A8%E3%83%A6%E3%82%A6%E3%82%AD%E2%9C%A8",
        "guildName=Rustaceans",
        "memberCount=1234",
    ] {
        let r = get(
            &app,
            &format!("/welcome/img/3/sunset?avatar={avatar}&{extra}"),
        )
        .await;
        image_of(&r, "image/png");
        if extra != "type=JOIN&textcolor=Purple" {
            assert_ne!(r.body, bare.body, "{extra} changes the card");
        }
    }
    let r = get(&app, "/welcome/img/3/sunset?username=x").await;
    assert!(r.assert_error(400).contains("avatar"));
}

#[actix_rt::test]
async fn the_published_clients_custom_background_call_works() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let bg = enc(&host.url("/ok.jpg"));
    let path = format!(
        "/premium/welcome/1?type=join&username=Soheab&avatar={avatar}&guildName=Some%20Guild&memberCount=1234&textcolor=white&bg={bg}"
    );
    let custom = image_of(&get(&app, &path).await, "image/png");
    assert_eq!(custom.dimensions(), (1200, 600));
    // Its corner is the custom image, not a built-in background.
    let built_in = get(
        &app,
        &format!("/welcome/img/1/blobday?username=Soheab&avatar={avatar}&guildName=Some%20Guild&memberCount=1234"),
    )
    .await;
    let built_in = image_of(&built_in, "image/png");
    assert_ne!(custom.get_pixel(2, 2), built_in.get_pixel(2, 2));
    let other = format!(
        "/premium/welcome/1?avatar={avatar}&bg={}",
        enc(&host.url("/ok.webp"))
    );
    let other = get(&app, &other).await;
    let jpg = get(&app, &format!("/premium/welcome/1?avatar={avatar}&bg={bg}")).await;
    assert_ne!(
        other.header("etag"),
        jpg.header("etag"),
        "the tag covers bg"
    );
    for template in 2..=7 {
        let r = get(
            &app,
            &format!("/premium/welcome/{template}?avatar={avatar}&bg={bg}"),
        )
        .await;
        assert_eq!(image_of(&r, "image/png").dimensions(), (1200, 600));
    }
}

#[actix_rt::test]
async fn animated_avatars_and_backgrounds_animate_the_card() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    // 6 frames of 70 ms.
    let anim = enc(&host.url("/anim.gif"));
    let r = get(&app, &format!("/welcome/img/4/space?avatar={anim}")).await;
    let frames = gif_frames(&r);
    assert_eq!(frames.len(), 6);
    assert!(
        frames
            .iter()
            .all(|(f, d)| f.dimensions() == (1200, 600) && *d == 70)
    );
    let r = get(
        &app,
        &format!("/premium/welcome/4?avatar={still}&bg={anim}"),
    )
    .await;
    assert_eq!(gif_frames(&r).len(), 6, "an animated bg animates the card");
    // Two frames of 500 ms (`ok.gif`) under the 420 ms avatar loop: every
    // change of either over the longer loop (1 s).
    let two = enc(&host.url("/ok.gif"));
    let r = get(
        &app,
        &format!("/premium/welcome/4?avatar={anim}&bg={two}&format=webp"),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/webp"));
    let r = get(&app, &format!("/premium/welcome/4?avatar={anim}&bg={two}")).await;
    let frames = gif_frames(&r);
    assert!(frames.len() > 6, "{}", frames.len());
    let png = get(
        &app,
        &format!("/premium/welcome/4?avatar={anim}&bg={two}&format=png"),
    )
    .await;
    assert_eq!(image_of(&png, "image/png").dimensions(), (1200, 600));
}

#[actix_rt::test]
async fn every_bad_value_is_a_400_naming_it_and_unknown_names_are_404() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let long = |n: usize| "x".repeat(n);
    for (query, name) in [
        ("type=joined".to_owned(), "type"),
        ("textcolor=teal".to_owned(), "textcolor"),
        ("memberCount=0".to_owned(), "memberCount"),
        ("memberCount=-5".to_owned(), "memberCount"),
        ("memberCount=1.5".to_owned(), "memberCount"),
        ("memberCount=lots".to_owned(), "memberCount"),
        ("memberCount=1000000000".to_owned(), "memberCount"),
        (format!("username={}", long(65)), "username"),
        (format!("guildName={}", long(101)), "guildName"),
        ("format=jpeg".to_owned(), "format"),
        ("avatar=ftp://x/y.png".to_owned(), "avatar"),
    ] {
        for path in ["/welcome/img/1/space", "/canvas/welcome/img/5/stars"] {
            let r = get(&app, &format!("{path}?avatar={avatar}&{query}")).await;
            let msg = r.assert_error(400);
            assert!(msg.contains(name), "{path}?{query}: {msg}");
        }
        let r = get(
            &app,
            &format!("/premium/welcome/2?avatar={avatar}&bg={avatar}&{query}"),
        )
        .await;
        assert!(r.assert_error(400).contains(name), "{query}");
    }
    // Up to the caps is fine.
    let r = get(
        &app,
        &format!(
            "/welcome/img/1/space?avatar={avatar}&username={}&guildName={}&memberCount=999999999",
            long(64),
            long(100)
        ),
    )
    .await;
    image_of(&r, "image/png");
    // The custom background is required there, and checked like the avatar.
    let r = get(&app, &format!("/premium/welcome/1?avatar={avatar}")).await;
    assert!(r.assert_error(400).contains("bg"));
    let r = get(
        &app,
        &format!("/premium/welcome/1?avatar={avatar}&bg=not-a-url"),
    )
    .await;
    let msg = r.assert_error(400);
    assert!(msg.contains("bg") && !msg.contains("avatar"), "{msg}");
    let r = get(
        &app,
        &format!(
            "/premium/welcome/1?avatar={avatar}&bg={}",
            enc(&host.url("/html.png"))
        ),
    )
    .await;
    let msg = r.assert_error(422);
    assert!(msg.contains("bg"), "{msg}");
    for path in [
        "/welcome/img/8/space",
        "/welcome/img/0/space",
        "/welcome/img/one/space",
        "/welcome/img/1/nowhere",
        "/welcome/img/1/Space",
        "/canvas/welcome/img/1/nowhere",
        "/welcome/img/1",
        "/premium/welcome/8",
    ] {
        get(&app, &format!("{path}?avatar={avatar}&bg={avatar}"))
            .await
            .assert_error(404);
    }
}

#[actix_rt::test]
async fn the_custom_background_goes_through_the_avatars_guards_and_cache() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    let bg = enc(&host.url("/ok.webp"));
    let path = format!("/premium/welcome/6?avatar={avatar}&bg={bg}");
    image_of(&get(&app, &path).await, "image/png");
    assert_eq!(host.hits("/ok.webp"), 1);
    // The same background again, on another card: from the cache.
    let again = format!("/premium/welcome/2?avatar={avatar}&bg={bg}&type=leave");
    image_of(&get(&app, &again).await, "image/png");
    assert_eq!(host.hits("/ok.webp"), 1, "fetched once, then cached");
    // The URL rules are the avatar's: credentials and over-long URLs are
    // refused before anything is fetched, naming bg.
    let long = format!("http://example.com/{}.png", "a".repeat(2100));
    for bad in ["http://user@example.com/a.png", long.as_str()] {
        let r = get(
            &app,
            &format!("/premium/welcome/1?avatar={avatar}&bg={}", enc(bad)),
        )
        .await;
        let msg = r.assert_error(400);
        assert!(msg.contains("bg") && !msg.contains("avatar"), "{msg}");
    }
}
