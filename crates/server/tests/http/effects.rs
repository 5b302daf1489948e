//! The animated effects over HTTP (`/canvas/effect/{name}`): every effect
//! animated from a still and an animated avatar, as GIF and animated WebP,
//! its frames moving and its transparency kept; `/canvas/misc/spin`; the
//! `size` knob; a 400 naming every bad knob.

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

/// The looping effects, animated for any avatar.
const LOOPING: [&str; 16] = [
    "spin", "shake", "zoom", "rainbow", "wave", "ripple", "wiggle", "swirl", "melt", "bounce",
    "shear", "roll", "boil", "glitch", "globe", "magik",
];

#[actix_rt::test]
async fn every_effect_animates_a_still_and_an_animated_avatar_as_gif_and_webp() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    let anim = enc(&host.url("/anim.gif"));
    for name in LOOPING {
        let path = format!("/canvas/effect/{name}");
        // A still avatar: 16 frames of 256 × 256 that move.
        let r = get(&app, &format!("{path}?avatar={still}")).await;
        assert_eq!(r.header("content-type"), Some("image/gif"), "{name}");
        let frames = gif_frames(&r);
        assert!(frames.len() >= 12, "{name}: {}", frames.len());
        assert!(
            frames.iter().all(|(f, _)| f.dimensions() == (256, 256)),
            "{name}"
        );
        assert!(
            frames.iter().any(|(f, _)| *f != frames[0].0),
            "{name}: the frames differ"
        );
        // An animated avatar (6 frames of 70 ms): still animated, its own
        // frames showing through.
        let r = get(&app, &format!("{path}?avatar={anim}")).await;
        let frames = gif_frames(&r);
        assert!(frames.len() >= 12, "{name}: {}", frames.len());
        // Animated WebP.
        let r = get(&app, &format!("{path}?avatar={still}&format=webp")).await;
        assert_eq!(r.status, 200, "{name}");
        assert_eq!(r.header("content-type"), Some("image/webp"), "{name}");
        let frames = webp_frames(&r.body);
        assert!(frames.len() >= 12, "{name}: {}", frames.len());
        assert_eq!(frames[0].dimensions(), (256, 256));
    }
    // deepfry: a still PNG, animated for an animated avatar.
    let r = get(&app, &format!("/canvas/effect/deepfry?avatar={still}")).await;
    assert_eq!(image_of(&r, "image/png").dimensions(), (256, 256));
    let r = get(
        &app,
        &format!("/canvas/effect/deepfry?avatar={anim}&format=gif"),
    )
    .await;
    assert_eq!(gif_frames(&r).len(), 6);
    let r = get(
        &app,
        &format!("/canvas/effect/deepfry?avatar={anim}&format=webp"),
    )
    .await;
    assert_eq!(webp_frames(&r.body).len(), 6);
}

#[actix_rt::test]
async fn a_spin_keeps_its_corners_transparent_in_gif_and_webp() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    let r = get(&app, &format!("/canvas/effect/spin?avatar={still}")).await;
    for (f, _) in gif_frames(&r) {
        assert_eq!(f.get_pixel(0, 0).0[3], 0);
        assert_eq!(f.get_pixel(255, 255).0[3], 0);
        assert_eq!(f.get_pixel(128, 128).0[3], 255);
    }
    let r = get(
        &app,
        &format!("/canvas/effect/spin?avatar={still}&format=webp"),
    )
    .await;
    for f in webp_frames(&r.body) {
        assert_eq!(f.get_pixel(0, 0).0[3], 0);
        assert_eq!(f.get_pixel(128, 128).0[3], 255);
    }
}

#[actix_rt::test]
async fn misc_spin_is_the_spin_effect_and_size_sets_the_side() {
    let host = FixtureHost::start();
    let app = app!();
    let still = enc(&host.url("/ok.png"));
    let effect = get(&app, &format!("/canvas/effect/spin?avatar={still}")).await;
    let misc = get(&app, &format!("/canvas/misc/spin?avatar={still}")).await;
    assert_eq!(misc.header("content-type"), Some("image/gif"));
    assert_eq!(gif_frames(&misc), gif_frames(&effect));
    for side in [64, 300, 512] {
        let r = get(
            &app,
            &format!("/canvas/effect/zoom?avatar={still}&size={side}&strength=10&speed=2"),
        )
        .await;
        let frames = gif_frames(&r);
        assert_eq!(frames[0].0.dimensions(), (side, side));
    }
    // format=png: the first frame.
    let r = get(
        &app,
        &format!("/canvas/effect/wave?avatar={still}&format=png"),
    )
    .await;
    assert_eq!(image_of(&r, "image/png").dimensions(), (256, 256));
}

#[actix_rt::test]
async fn every_bad_knob_is_a_400_naming_it() {
    let app = app!();
    let a = "https://example.com/a.png";
    let mut cases: Vec<(String, &str)> = Vec::new();
    for name in LOOPING.iter().chain(&["deepfry"]) {
        for bad in ["63", "513", "abc", "-1"] {
            cases.push((
                format!("/canvas/effect/{name}?avatar={a}&size={bad}"),
                "size",
            ));
        }
    }
    for name in [
        "shake", "zoom", "rainbow", "wave", "ripple", "wiggle", "swirl", "melt", "bounce", "shear",
        "boil", "glitch", "magik", "deepfry",
    ] {
        for bad in ["0", "11", "2.5"] {
            cases.push((
                format!("/canvas/effect/{name}?avatar={a}&strength={bad}"),
                "strength",
            ));
        }
    }
    for name in [
        "spin", "shake", "zoom", "rainbow", "wave", "ripple", "wiggle", "swirl", "bounce", "shear",
        "roll", "boil", "globe",
    ] {
        for bad in ["0", "5", "x"] {
            cases.push((
                format!("/canvas/effect/{name}?avatar={a}&speed={bad}"),
                "speed",
            ));
        }
    }
    cases.push(("/canvas/effect/spin".into(), "avatar"));
    cases.push((format!("/canvas/misc/spin?avatar={a}&size=9999"), "size"));
    for (uri, name) in cases {
        let r = get(&app, &uri).await;
        let msg = r.assert_error(400);
        assert!(msg.contains(name), "{uri}: {msg}");
    }
    let r = get(&app, &format!("/canvas/effect/nope?avatar={a}")).await;
    r.assert_error(404);
}
