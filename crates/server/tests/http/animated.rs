//! Animated avatars over HTTP: animated GIF by default for filters and
//! shapes, `format=png|gif|webp`, the format in the ETag and the output
//! cache, the frame cap and the render time as 422s naming the limit,
//! scenes animating the avatar inside the card, the caches weighing
//! animations by their size.

use std::io::Cursor;

use actix_web::http::header;
use actix_web::test;
use fixture_host::FixtureHost;
use image::AnimationDecoder;
use image::codecs::webp::WebPDecoder;
use server::{AppState, create_app};

use crate::support::{Reply, gif_frames, settings};

fn enc(url: &str) -> String {
    url.replace('%', "%25")
        .replace('&', "%26")
        .replace('?', "%3F")
        .replace('=', "%3D")
}

macro_rules! app {
    () => {
        app!(60_000)
    };
    ($render_ms:expr) => {{
        let mut s = settings();
        s.allow_private_avatars = true;
        s.avatar_timeout_ms = 3000;
        s.avatar_connect_timeout_ms = 1000;
        // Unoptimised test builds on a busy machine: a generous budget,
        // except where the budget itself is tested.
        s.animation_render_ms = $render_ms;
        test::init_service(create_app(AppState::load(s).expect("state loads"))).await
    }};
}

async fn get<S, B>(app: &S, uri: &str, if_none_match: Option<&str>) -> Reply
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let mut req = test::TestRequest::get().uri(uri);
    if let Some(tag) = if_none_match {
        req = req.insert_header((header::IF_NONE_MATCH, tag));
    }
    Reply::read(test::call_service(app, req.to_request()).await).await
}

#[actix_rt::test]
async fn animated_avatars_give_animated_gifs_for_filters_and_shapes() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/anim.gif"));
    for path in [
        "filter/greyscale",
        "filter/sepia",
        "filter/brightness",
        "misc/circle",
        "misc/heart",
        "misc/lgbt",
        "misc/transgender",
    ] {
        let r = get(&app, &format!("/canvas/{path}?avatar={avatar}"), None).await;
        let frames = gif_frames(&r);
        assert_eq!(frames.len(), 6, "{path}");
        assert!(frames.iter().all(|(_, d)| *d == 70), "{path}");
        assert_ne!(frames[0].0, frames[5].0, "{path}: frames differ");
    }
    // Greyscale frames are grey.
    let r = get(
        &app,
        &format!("/canvas/filter/greyscale?avatar={avatar}"),
        None,
    )
    .await;
    for (img, _) in gif_frames(&r) {
        assert!(img.pixels().all(|p| p.0[0] == p.0[1] && p.0[1] == p.0[2]));
    }
    // A circle keeps its transparent corners.
    let r = get(&app, &format!("/canvas/misc/circle?avatar={avatar}"), None).await;
    let (first, _) = &gif_frames(&r)[0];
    assert_eq!(first.get_pixel(0, 0).0[3], 0);
    let (w, h) = first.dimensions();
    assert_eq!(first.get_pixel(w / 2, h / 2).0[3], 255);
    assert_eq!(host.hits("/anim.gif"), 1, "fetched once, then cached");
}

#[actix_rt::test]
async fn the_format_parameter_picks_png_gif_or_webp() {
    let host = FixtureHost::start();
    let app = app!();
    let anim = enc(&host.url("/anim.gif"));
    let still = enc(&host.url("/ok.png"));

    // A still avatar: PNG by default, exactly as with format=png.
    let default = get(&app, &format!("/canvas/filter/sepia?avatar={still}"), None).await;
    let png = get(
        &app,
        &format!("/canvas/filter/sepia?avatar={still}&format=png"),
        None,
    )
    .await;
    assert_eq!(default.header("content-type"), Some("image/png"));
    assert_eq!(default.body, png.body);
    assert_eq!(default.header("etag"), png.header("etag"));

    // format=png on an animated avatar: its first frame, still.
    let r = get(
        &app,
        &format!("/canvas/filter/sepia?avatar={anim}&format=PNG"),
        None,
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/png"));

    // format=gif on a still avatar: one frame.
    let r = get(
        &app,
        &format!("/canvas/filter/sepia?avatar={still}&format=gif"),
        None,
    )
    .await;
    assert_eq!(gif_frames(&r).len(), 1);

    // format=webp: animated for an animated avatar, still otherwise.
    let r = get(
        &app,
        &format!("/canvas/misc/circle?avatar={anim}&format=webp"),
        None,
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/webp"));
    let d = WebPDecoder::new(Cursor::new(&r.body)).expect("a WebP");
    assert!(d.has_animation());
    let frames: Vec<_> = d.into_frames().map(|f| f.expect("a frame")).collect();
    assert_eq!(frames.len(), 6);
    // The GIF's delays, and the circle's exact transparency (lossy colour,
    // lossless alpha).
    let gif = gif_frames(&get(&app, &format!("/canvas/misc/circle?avatar={anim}"), None).await);
    for (f, (_, gif_delay)) in frames.iter().zip(&gif) {
        let (n, d) = f.delay().numer_denom_ms();
        assert_eq!(n / d, *gif_delay);
        let img = f.buffer();
        let (w, h) = img.dimensions();
        assert_eq!(img.get_pixel(0, 0).0[3], 0);
        assert_eq!(img.get_pixel(w - 1, h - 1).0[3], 0);
        assert_eq!(img.get_pixel(w / 2, h / 2).0[3], 255);
    }
    let r = get(
        &app,
        &format!("/canvas/filter/sepia?avatar={still}&format=webp"),
        None,
    )
    .await;
    assert_eq!(r.header("content-type"), Some("image/webp"));
    let d = WebPDecoder::new(Cursor::new(&r.body)).expect("a WebP");
    assert!(!d.has_animation());
    // Lossy: close to the PNG of the same image, not equal.
    let webp = image::load_from_memory(&r.body)
        .expect("a WebP")
        .into_rgba8();
    let png = image::load_from_memory(&png.body)
        .expect("a PNG")
        .into_rgba8();
    assert_eq!(webp.dimensions(), png.dimensions());
    let diff: u64 = webp
        .pixels()
        .zip(png.pixels())
        .flat_map(|(p, q)| (0..3).map(move |c| u64::from(p.0[c].abs_diff(q.0[c]))))
        .sum();
    let mean = diff as f64 / (3 * u64::from(png.width()) * u64::from(png.height())) as f64;
    assert!(
        mean < 3.0,
        "the WebP is off the PNG by {mean:.2} on average"
    );

    let r = get(
        &app,
        &format!("/canvas/filter/sepia?avatar={still}&format=bmp"),
        None,
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("png, gif, webp")
    );
}

#[actix_rt::test]
async fn the_format_is_in_the_etag_and_the_cache_key() {
    let host = FixtureHost::start();
    let app = app!();
    let anim = enc(&host.url("/anim.gif"));
    let uri = |f: &str| format!("/canvas/filter/invert?avatar={anim}{f}");
    let gif = get(&app, &uri(""), None).await;
    let webp = get(&app, &uri("&format=webp"), None).await;
    let png = get(&app, &uri("&format=png"), None).await;
    let tags = [gif.header("etag"), webp.header("etag"), png.header("etag")];
    assert!(tags.iter().all(Option::is_some));
    assert_ne!(tags[0], tags[1]);
    assert_ne!(tags[0], tags[2]);
    assert_ne!(tags[1], tags[2]);
    // Each format is cached under its own key: repeats answer the same bytes
    // with the same type.
    let again = get(&app, &uri("&format=webp"), None).await;
    assert_eq!(again.body, webp.body);
    assert_eq!(again.header("content-type"), Some("image/webp"));
    let again = get(&app, &uri(""), None).await;
    assert_eq!(again.body, gif.body);
    assert_eq!(again.header("content-type"), Some("image/gif"));
    let not_modified = get(&app, &uri(""), tags[0]).await;
    assert_eq!(not_modified.status, 304);
    assert_eq!(get(&app, &uri("&format=png"), tags[0]).await.status, 200);
}

#[actix_rt::test]
async fn an_avatar_over_the_frame_cap_is_422_naming_the_limit() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/many-frames.gif"));
    let r = get(&app, &format!("/canvas/filter/sepia?avatar={avatar}"), None).await;
    assert_eq!(r.status, 422, "body: {}", String::from_utf8_lossy(&r.body));
    let msg = r.json()["error"].as_str().unwrap().to_owned();
    assert!(
        msg.contains("300 frames") && msg.contains("max_frames"),
        "{msg}"
    );
}

#[actix_rt::test]
async fn an_animation_over_the_render_time_is_422_naming_the_limit() {
    let host = FixtureHost::start();
    let app = app!(0);
    let anim = enc(&host.url("/anim.gif"));
    let r = get(&app, &format!("/canvas/misc/circle?avatar={anim}"), None).await;
    assert_eq!(r.status, 422, "body: {}", String::from_utf8_lossy(&r.body));
    let msg = r.json()["error"].as_str().unwrap().to_owned();
    assert!(msg.contains("render_time") && msg.contains("0 ms"), "{msg}");
    // A still image has no such budget.
    let still = enc(&host.url("/ok.png"));
    let r = get(&app, &format!("/canvas/misc/circle?avatar={still}"), None).await;
    assert_eq!(r.status, 200);
}

#[actix_rt::test]
async fn scenes_that_draw_the_avatar_animate_it() {
    let host = FixtureHost::start();
    let app = app!();
    let anim = enc(&host.url("/anim.gif"));
    for path in [
        "horny",
        "simpcard",
        "lolice",
        "series",
        "namecard?username=Ferris",
        "post?comment=hi",
        "video-comment?comment=hi",
        "its-so-stupid?dog=this",
        "lied",
    ] {
        let sep = if path.contains('?') { '&' } else { '?' };
        let r = get(
            &app,
            &format!("/canvas/misc/{path}{sep}avatar={anim}"),
            None,
        )
        .await;
        let frames = gif_frames(&r);
        assert_eq!(frames.len(), 6, "{path}");
        assert_ne!(frames[0].0, frames[3].0, "{path}: the avatar moves");
        // The first frame is the still card of the first avatar frame,
        // within the GIF's palette.
        let png = get(
            &app,
            &format!("/canvas/misc/{path}{sep}avatar={anim}&format=png"),
            None,
        )
        .await;
        let card = image::load_from_memory(&png.body).unwrap().into_rgba8();
        assert_eq!(card.dimensions(), frames[0].0.dimensions(), "{path}");
    }
    // A scene without the avatar stays a still PNG.
    let r = get(
        &app,
        &format!("/canvas/misc/sage?quote=x&avatar={anim}"),
        None,
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/png"));
}

#[actix_rt::test]
async fn a_tiny_many_frame_avatar_renders_at_most_the_rendered_pixel_cap() {
    // 256 frames of 8x8 (10 KB) through the largest card: every frame
    // would be a whole 1680x800 card, 1.3 GiB of RGBA in all. The answer
    // renders at most 32 Mi pixels (24 cards), each frame shown for longer
    // so the animation keeps its 256 x 70 ms.
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/tiny-frames.gif"));
    let card = canvas_render::template::TemplateKind::Namecard
        .template()
        .size;
    let most = (32u64 << 20) / (u64::from(card.0) * u64::from(card.1));
    let r = get(
        &app,
        &format!("/canvas/misc/namecard?username=Ferris&format=webp&avatar={avatar}"),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "body: {}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("content-type"), Some("image/webp"));
    let frames: Vec<(u32, u32)> = WebPDecoder::new(Cursor::new(&r.body))
        .expect("a WebP")
        .into_frames()
        .map(|f| {
            let f = f.expect("a frame");
            assert_eq!(f.buffer().dimensions(), card);
            f.delay().numer_denom_ms()
        })
        .collect();
    assert_eq!(frames.len() as u64, most, "one frame per merged time step");
    let total: u32 = frames.iter().map(|(n, d)| n / d).sum();
    assert_eq!(total, 256 * 70, "the animation keeps its length");
    // The GIF follows the same rule.
    let r = get(
        &app,
        &format!("/canvas/misc/namecard?username=Ferris&avatar={avatar}"),
        None,
    )
    .await;
    let gif = gif_frames(&r);
    assert_eq!(gif.len() as u64, most);
    assert_eq!(gif[0].0.dimensions(), card);
}

/// The value of an unlabelled metric in a `/metrics` answer.
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {name} in /metrics"))
}

#[actix_rt::test]
async fn the_caches_weigh_animations_by_their_real_size() {
    let host = FixtureHost::start();
    let app = app!();
    let avatar = enc(&host.url("/anim.gif"));
    let r = get(&app, &format!("/canvas/misc/circle?avatar={avatar}"), None).await;
    let frames = gif_frames(&r);
    let gif_len = r.body.len();
    let m = get(&app, "/metrics", None).await;
    let text = String::from_utf8_lossy(&m.body);
    // The fixture: 6 frames of 64×48, each RGBA, plus the still first frame.
    let pixels = 7.0 * 64.0 * 48.0 * 4.0;
    let avatar_bytes = metric(&text, "menagerie_avatar_cache_bytes");
    assert!(
        (pixels..pixels + 4096.0).contains(&avatar_bytes),
        "avatar cache {avatar_bytes} B for {pixels} B of frames"
    );
    // The output cache holds the whole animated GIF.
    assert_eq!(frames.len(), 6);
    let output_bytes = metric(&text, "menagerie_output_cache_bytes");
    assert!(
        (gif_len as f64..gif_len as f64 + 4096.0).contains(&output_bytes),
        "output cache {output_bytes} B for a {gif_len} B GIF"
    );
}
