//! WebP by `Accept`: with no `format`, an `Accept` naming `image/webp`
//! gets WebP (animated for an animated answer), anything else PNG (or GIF
//! when animated); `format` always wins; every image answer says
//! `Vary: Accept`, and each format has its own ETag. One endpoint of every
//! image group.

use actix_web::test;
use fixture_host::FixtureHost;
use server::{AppState, create_app};

use crate::support::{Reply, req, send};

fn enc(url: &str) -> String {
    url.replace('%', "%25")
        .replace('&', "%26")
        .replace('?', "%3F")
        .replace('=', "%3D")
}

/// A GET of `uri` with `accept` as its `Accept` header, if any.
async fn get<S, B>(app: &S, uri: &str, accept: Option<&str>) -> Reply
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    let r = match accept {
        Some(a) => req(uri).header("accept", a),
        None => req(uri),
    };
    send(app, r).await
}

fn varies_by_accept(r: &Reply) -> bool {
    r.header("vary").is_some_and(|v| {
        v.split(',')
            .any(|t| t.trim().eq_ignore_ascii_case("accept"))
    })
}

/// The app state both tests run: private avatars allowed (the fixture
/// host is on loopback), room for a debug build's animated renders.
fn state() -> AppState {
    let mut s = crate::support::settings();
    s.allow_private_avatars = true;
    s.avatar_timeout_ms = 3000;
    s.avatar_connect_timeout_ms = 1000;
    s.animation_render_ms = 60_000;
    AppState::load(s).expect("state loads")
}

const BROWSER: &str = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8";

#[actix_rt::test]
async fn browsers_get_webp_and_everyone_else_png_or_gif_on_every_image_group() {
    let host = FixtureHost::start();
    let app = test::init_service(create_app(state())).await;
    let avatar = enc(&host.url("/ok.png"));
    let bg = enc(&host.url("/ok.png"));
    let welcome = format!(
        "type=join&textcolor=green&username=test&guildName=test&memberCount=5&avatar={avatar}"
    );
    // (path, animated by default)
    let cases = [
        (format!("/canvas/misc/circle?avatar={avatar}"), false),
        (format!("/canvas/filter/sepia?avatar={avatar}"), false),
        (format!("/canvas/overlay/wasted?avatar={avatar}"), false),
        (format!("/canvas/overlays/triggered?avatar={avatar}"), true),
        (format!("/premium/petpet?avatar={avatar}"), true),
        (
            format!("/premium/rankcard/1?username=Ferris&avatar={avatar}"),
            false,
        ),
        (format!("/premium/welcome/1?{welcome}&bg={bg}"), false),
        (format!("/welcome/img/1/space?{welcome}"), false),
        (format!("/canvas/welcome/img/2/sunset?{welcome}"), false),
    ];
    for (path, animated) in &cases {
        let plain = if *animated { "image/gif" } else { "image/png" };
        let webp = get(&app, path, Some(BROWSER)).await;
        assert_eq!(
            webp.status,
            200,
            "{path}: {}",
            String::from_utf8_lossy(&webp.body)
        );
        assert_eq!(webp.header("content-type"), Some("image/webp"), "{path}");
        assert!(varies_by_accept(&webp), "{path}");
        let img = image::load_from_memory_with_format(&webp.body, image::ImageFormat::WebP)
            .unwrap_or_else(|e| panic!("{path}: not a WebP: {e}"));
        assert!(img.width() > 0, "{path}");
        for accept in [None, Some("*/*"), Some("image/png"), Some("image/webp;q=0")] {
            let r = get(&app, path, accept).await;
            assert_eq!(r.header("content-type"), Some(plain), "{path} {accept:?}");
            assert!(varies_by_accept(&r), "{path} {accept:?}");
            assert_ne!(
                r.header("etag"),
                webp.header("etag"),
                "{path}: one tag per format"
            );
        }
        // `format` wins over Accept.
        let r = get(&app, &format!("{path}&format=png"), Some("image/webp")).await;
        assert_eq!(r.header("content-type"), Some("image/png"), "{path}");
        // A revalidation by a browser: 304 for its own (WebP) tag, with Vary.
        let tag = webp.header("etag").unwrap().to_owned();
        let r = send(
            &app,
            req(path)
                .header("accept", BROWSER)
                .header("if-none-match", &tag),
        )
        .await;
        assert_eq!(r.status, 304, "{path}");
        assert!(varies_by_accept(&r), "{path}: 304");
    }
}

/// `quality` sets a WebP answer's lossy quality, still or animated,
/// whether WebP was asked for by `format` or by `Accept`: a lower quality
/// is a smaller file with its own ETag, the default (85) is the answer
/// without `quality`. PNG and GIF answers ignore it; a value outside 1–100
/// is a 400 naming `quality` on every format.
#[actix_rt::test]
async fn quality_sets_the_webp_quality_and_is_checked_on_every_format() {
    let host = FixtureHost::start();
    let app = test::init_service(create_app(state())).await;
    let avatar = enc(&host.url("/ok.png"));
    for (path, animated) in [
        (format!("/canvas/filter/sepia?avatar={avatar}"), false),
        (format!("/canvas/overlays/triggered?avatar={avatar}"), true),
    ] {
        let at = |q: Option<u8>| {
            let quality = q.map_or(String::new(), |q| format!("&quality={q}"));
            format!("{path}&format=webp{quality}")
        };
        let default = get(&app, &at(None), None).await;
        let q85 = get(&app, &at(Some(85)), None).await;
        let low = get(&app, &at(Some(5)), None).await;
        let high = get(&app, &at(Some(100)), None).await;
        for r in [&default, &q85, &low, &high] {
            assert_eq!(
                r.status,
                200,
                "{path}: {}",
                String::from_utf8_lossy(&r.body)
            );
            assert_eq!(r.header("content-type"), Some("image/webp"), "{path}");
            let webp = image::codecs::webp::WebPDecoder::new(std::io::Cursor::new(&r.body))
                .unwrap_or_else(|e| panic!("{path}: not a WebP: {e}"));
            assert_eq!(webp.has_animation(), animated, "{path}");
        }
        assert_eq!(default.body, q85.body, "{path}: 85 is the default");
        assert_eq!(default.header("etag"), q85.header("etag"), "{path}");
        assert!(
            low.body.len() < default.body.len() && default.body.len() < high.body.len(),
            "{path}: sizes {} / {} / {}",
            low.body.len(),
            default.body.len(),
            high.body.len()
        );
        assert_ne!(low.header("etag"), default.header("etag"), "{path}");
        assert_ne!(low.header("etag"), high.header("etag"), "{path}");
        // Negotiated WebP takes the quality too.
        let negotiated = get(&app, &format!("{path}&quality=5"), Some(BROWSER)).await;
        assert_eq!(negotiated.header("content-type"), Some("image/webp"));
        assert_eq!(negotiated.body, low.body, "{path}");
        // PNG and GIF answers ignore a good quality.
        let plain = get(&app, &format!("{path}&quality=5"), None).await;
        let without = get(&app, &path, None).await;
        assert_eq!(plain.status, 200, "{path}");
        assert_eq!(plain.body, without.body, "{path}");
        assert_eq!(plain.header("etag"), without.header("etag"), "{path}");
        for bad in ["0", "101", "-1", "7.5", "best", "%20300"] {
            for format in ["", "&format=webp", "&format=png", "&format=gif"] {
                let r = get(&app, &format!("{path}{format}&quality={bad}"), None).await;
                assert_eq!(r.status, 400, "{path}{format} quality={bad}");
                let body: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
                let error = body["error"].as_str().unwrap_or_default();
                assert!(error.contains("quality"), "{bad}: {error}");
            }
        }
    }
}
