//! Overlays and animated templates over HTTP: both overlay spellings,
//! still and animated avatars in every format, frames aligned by time,
//! the original's client calls, and a 400 naming every bad value.

use actix_web::test;
use fixture_host::FixtureHost;
use server::{AppState, create_app};

use crate::support::cards::{self, enc, get, image_of};
use crate::support::{gif_frames, webp_frames};

macro_rules! app {
    () => {{
        test::init_service(create_app(
            AppState::load(cards::settings()).expect("state loads"),
        ))
        .await
    }};
}

const STILL_OVERLAYS: [&str; 6] = ["comrade", "gay", "glass", "jail", "passed", "wasted"];

#[actix_rt::test]
async fn overlays_answer_under_both_spellings() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    for name in STILL_OVERLAYS {
        let one = get(&app, &format!("/canvas/overlay/{name}?avatar={avatar}")).await;
        assert_eq!(
            image_of(&one, "image/png").dimensions(),
            (512, 512),
            "{name}"
        );
        let alias = get(&app, &format!("/canvas/overlays/{name}?avatar={avatar}")).await;
        assert_eq!(
            one.body, alias.body,
            "{name}: the alias gives the same image"
        );
        assert_eq!(one.header("etag"), alias.header("etag"));
        let webp = get(
            &app,
            &format!("/canvas/overlays/{name}?avatar={avatar}&format=webp"),
        )
        .await;
        assert_eq!(image_of(&webp, "image/webp").dimensions(), (512, 512));
    }
    // triggered is animated even for a still avatar; every frame is full
    // (no pixel see-through) and the banner across the foot stays still.
    let banner = |f: &image::RgbaImage| image::imageops::crop_imm(f, 0, 400, 512, 112).to_image();
    for path in ["/canvas/overlay/triggered", "/canvas/overlays/triggered"] {
        let r = get(&app, &format!("{path}?avatar={avatar}")).await;
        let frames = gif_frames(&r);
        assert!(frames.len() >= 8, "{}", frames.len());
        assert_eq!(frames[0].0.dimensions(), (512, 512));
        assert_ne!(frames[0].0, frames[1].0, "it shakes");
        for (k, (frame, _)) in frames.iter().enumerate() {
            assert!(
                frame.pixels().all(|p| p[3] == 255),
                "frame {k} is see-through"
            );
            assert!(
                banner(frame) == banner(&frames[0].0),
                "frame {k}: the banner moved"
            );
        }
    }
    let png = get(
        &app,
        &format!("/canvas/overlay/triggered?avatar={avatar}&format=png"),
    )
    .await;
    assert_eq!(image_of(&png, "image/png").dimensions(), (512, 512));
    let webp = get(
        &app,
        &format!("/canvas/overlay/triggered?avatar={avatar}&format=webp"),
    )
    .await;
    assert_eq!(webp.status, 200);
    assert_eq!(webp.header("content-type"), Some("image/webp"));
    let frames = webp_frames(&webp.body);
    assert!(frames.len() >= 8, "{}", frames.len());
    for (k, frame) in frames.iter().enumerate() {
        assert!(
            frame.pixels().all(|p| p[3] == 255),
            "WebP frame {k} is see-through"
        );
    }
}

#[actix_rt::test]
async fn animated_avatars_animate_every_template_aligned_by_time() {
    let host = FixtureHost::start();
    let app = app!();
    // 6 frames of 70 ms: a 420 ms loop.
    let anim = enc(&host.url("/anim.gif"));
    for name in STILL_OVERLAYS {
        let r = get(&app, &format!("/canvas/overlay/{name}?avatar={anim}")).await;
        let frames = gif_frames(&r);
        assert_eq!(frames.len(), 6, "{name}");
        assert!(frames.iter().all(|(_, d)| *d == 70), "{name}");
    }
    // petpet: 10 frames of 40 ms (400 ms) twice cover the 420 ms loop.
    let r = get(&app, &format!("/premium/petpet?avatar={anim}")).await;
    let frames = gif_frames(&r);
    assert_eq!(frames.len(), 20);
    assert!(
        frames
            .iter()
            .all(|(f, d)| f.dimensions() == (256, 256) && *d == 40)
    );
    // With 100 ms frames one loop (1 s) covers it.
    let r = get(&app, &format!("/premium/petpet?avatar={anim}&delay=100")).await;
    let frames = gif_frames(&r);
    assert_eq!(frames.len(), 10);
    assert!(frames.iter().all(|(_, d)| *d == 100));
    // triggered: 12 frames of 40 ms (480 ms) cover it once.
    let r = get(&app, &format!("/canvas/overlay/triggered?avatar={anim}")).await;
    assert_eq!(gif_frames(&r).len(), 12);
    // amongus: 30 frames of 80 ms.
    let r = get(
        &app,
        &format!("/premium/amongus?avatar={anim}&username=Ferris&format=webp"),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/webp"));
    let r = get(
        &app,
        &format!("/premium/amongus?avatar={anim}&username=Ferris"),
    )
    .await;
    // Its last frames (the avatar gone, the text typed) are equal, and the
    // GIF merges equal frames: 30 frames of 80 ms in all.
    let frames = gif_frames(&r);
    assert!(frames.len() >= 25, "{}", frames.len());
    assert!(frames.iter().all(|(f, _)| f.dimensions() == (600, 300)));
    assert_eq!(frames.iter().map(|(_, d)| d).sum::<u32>(), 30 * 80);
}

#[actix_rt::test]
async fn the_original_clients_calls_give_images() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/ok.png"));
    for query in [
        // The published Python client: custom filled in, no impostor.
        "username=Soheab&custom=Soheab%20was%20not%20The%20Impostor.",
        "username=Soheab&impostor=True",
        "username=Soheab&impostor=FALSE",
        "username=Soheab",
        "custom=x",
    ] {
        let r = get(&app, &format!("/premium/amongus?avatar={avatar}&{query}")).await;
        let frames = gif_frames(&r);
        assert!(frames.len() >= 25, "{query}");
        assert_eq!(
            frames.iter().map(|(_, d)| d).sum::<u32>(),
            30 * 80,
            "{query}"
        );
    }
    let r = get(&app, &format!("/premium/petpet?avatar={avatar}")).await;
    let frames = gif_frames(&r);
    assert!(frames.len() >= 5);
    assert_eq!(frames[0].0.dimensions(), (256, 256));
    // The post counters change the card.
    let plain = get(
        &app,
        &format!("/canvas/misc/post?avatar={avatar}&comment=hi"),
    )
    .await;
    let counted = get(
        &app,
        &format!(
            "/canvas/misc/post?avatar={avatar}&comment=hi&replies=12&likes=12300&retweets=4210000"
        ),
    )
    .await;
    assert_eq!(
        image_of(&plain, "image/png").dimensions(),
        image_of(&counted, "image/png").dimensions()
    );
    assert_ne!(plain.body, counted.body);
}

#[actix_rt::test]
async fn every_bad_value_is_a_400_naming_it() {
    let app = app!();
    let avatar = "https://example.com/a.png";
    let cases: &[(&str, &str)] = &[
        ("/premium/petpet?avatar={a}&delay=5", "delay"),
        ("/premium/petpet?avatar={a}&delay=1001", "delay"),
        ("/premium/petpet?avatar={a}&delay=abc", "delay"),
        ("/premium/petpet?avatar={a}&delay=-40", "delay"),
        ("/premium/petpet?avatar={a}&delay=40.5", "delay"),
        ("/premium/amongus?avatar={a}&impostor=maybe", "impostor"),
        ("/premium/amongus?avatar={a}&impostor=1", "impostor"),
        ("/premium/amongus?avatar={a}&username={65}", "username"),
        ("/premium/amongus?avatar={a}&custom={121}", "custom"),
        ("/canvas/misc/post?avatar={a}&likes=-1", "likes"),
        ("/canvas/misc/post?avatar={a}&replies=abc", "replies"),
        ("/canvas/misc/post?avatar={a}&retweets=1e3", "retweets"),
        ("/canvas/misc/post?avatar={a}&likes=1000000000000", "likes"),
        ("/canvas/overlay/jail", "avatar"),
        ("/canvas/overlays/triggered", "avatar"),
        ("/premium/petpet", "avatar"),
        ("/premium/amongus?username=x", "avatar"),
        ("/canvas/overlay/jail?avatar=ftp://x/a.png", "avatar"),
        ("/canvas/overlay/wasted?avatar={a}&format=jpeg", "format"),
        ("/premium/amongus?avatar={a}&format=bmp", "format"),
    ];
    for (uri, name) in cases {
        let uri = uri
            .replace("{a}", avatar)
            .replace("{65}", &"n".repeat(65))
            .replace("{121}", &"c".repeat(121));
        let r = get(&app, &uri).await;
        let msg = r.assert_error(400);
        assert!(msg.contains(name), "{uri}: {msg}");
    }
    for uri in [
        "/canvas/overlay/nope?avatar=https://example.com/a.png",
        "/canvas/overlays/petpet?avatar=https://example.com/a.png",
        "/premium/jail?avatar=https://example.com/a.png",
        "/premium/nope",
    ] {
        get(&app, uri).await.assert_error(404);
    }
}
