//! The canvas image endpoints over a loopback fixture host: every filter
//! and misc image, caching headers, the avatar error table, the job bound.

use std::rc::Rc;
use std::time::Duration;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::header;
use actix_web::test;
use fixture_host::FixtureHost;
use server::{AppState, Settings, create_app};

use crate::support::{Reply, settings};

/// Settings trusting the loopback fixture host, with short timeouts.
fn canvas_settings() -> Settings {
    let mut s = settings();
    s.allow_private_avatars = true;
    s.avatar_timeout_ms = 3000;
    s.avatar_connect_timeout_ms = 1000;
    s.avatar_max_bytes = 1 << 20;
    s
}

async fn app_with(
    s: Settings,
) -> impl Service<
    actix_http::Request,
    Response = ServiceResponse<impl MessageBody>,
    Error = actix_web::Error,
> {
    let state = AppState::load(s).expect("state loads");
    test::init_service(create_app(state)).await
}

async fn call<S, B>(app: &S, uri: &str, if_none_match: Option<&str>) -> Reply
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut req = test::TestRequest::get().uri(uri);
    if let Some(tag) = if_none_match {
        req = req.insert_header((header::IF_NONE_MATCH, tag));
    }
    let res = test::call_service(app, req.to_request()).await;
    Reply::read(res).await
}

fn enc(url: &str) -> String {
    url.replace('%', "%25")
        .replace('&', "%26")
        .replace('?', "%3F")
        .replace('=', "%3D")
}

fn png_size(r: &Reply) -> (u32, u32) {
    assert_eq!(r.status, 200, "body: {}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("content-type"), Some("image/png"));
    let img = image::load_from_memory_with_format(&r.body, image::ImageFormat::Png)
        .expect("a decodable PNG");
    (img.width(), img.height())
}

const FILTERS: [&str; 14] = [
    "blue",
    "blurple",
    "blurple2",
    "blur",
    "pixelate",
    "brightness",
    "color",
    "green",
    "greyscale",
    "invert",
    "invertgreyscale",
    "red",
    "sepia",
    "threshold",
];

#[actix_rt::test]
async fn every_filter_renders_the_avatar_as_png() {
    let host = FixtureHost::start();
    let app = app_with(canvas_settings()).await;
    let avatar = enc(&host.url("/ok.png"));
    for name in FILTERS {
        let r = call(
            &app,
            &format!("/canvas/filter/{name}?avatar={avatar}"),
            None,
        )
        .await;
        assert_eq!(png_size(&r), (64, 48), "{name}");
    }
    let with_params = [
        "brightness?brightness=0.5",
        "threshold?threshold=40",
        "color?color=ff8800",
    ];
    for p in with_params {
        let r = call(&app, &format!("/canvas/filter/{p}&avatar={avatar}"), None).await;
        assert_eq!(png_size(&r), (64, 48), "{p}");
    }
    assert_eq!(
        host.hits("/ok.png"),
        1,
        "the avatar is fetched once, then cached"
    );
}

/// An optional number, colour or choice given empty or blank takes its
/// default, as the OpenAPI document says (a blank alternative in its schema);
/// a value that is not blank is still checked.
#[actix_rt::test]
async fn blank_optional_parameters_take_their_default() {
    let host = FixtureHost::start();
    let app = app_with(canvas_settings()).await;
    let avatar = enc(&host.url("/ok.png"));
    for (path, default) in [
        (
            "/canvas/filter/threshold?threshold=",
            "/canvas/filter/threshold?threshold=128",
        ),
        (
            "/canvas/filter/brightness?brightness=%20",
            "/canvas/filter/brightness?brightness=30",
        ),
        (
            "/canvas/filter/color?color=",
            "/canvas/filter/color?color=5865F2",
        ),
    ] {
        let blank = call(&app, &format!("{path}&avatar={avatar}"), None).await;
        let explicit = call(&app, &format!("{default}&avatar={avatar}"), None).await;
        assert_eq!(blank.status, 200, "{path}");
        assert_eq!(blank.body, explicit.body, "{path} draws as {default}");
    }
    let r = call(
        &app,
        &format!("/canvas/filter/threshold?threshold=x&avatar={avatar}"),
        None,
    )
    .await;
    assert_eq!(r.status, 400);
}

/// Clients send `brightness` as a 0–100 integer (or a decimal): every such
/// value renders, 0 leaves the avatar unchanged, higher values are brighter
/// and 100 is white.
#[actix_rt::test]
async fn brightness_takes_the_0_to_100_scale_clients_send() {
    let host = FixtureHost::start();
    let app = app_with(canvas_settings()).await;
    let avatar = enc(&host.url("/ok.png"));
    let pixels = |r: &Reply| {
        image::load_from_memory_with_format(&r.body, image::ImageFormat::Png)
            .expect("a decodable PNG")
            .to_rgba8()
    };
    let original = pixels(
        &call(
            &app,
            &format!("/canvas/filter/invert?avatar={avatar}"),
            None,
        )
        .await,
    );
    let mut previous: Option<image::RgbaImage> = None;
    for level in ["0", "1", "12.5", "30", "50", "73", "99", "100"] {
        let r = call(
            &app,
            &format!("/canvas/filter/brightness?brightness={level}&avatar={avatar}"),
            None,
        )
        .await;
        assert_eq!(
            r.status,
            200,
            "brightness={level}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let img = pixels(&r);
        if level == "0" {
            // Unchanged: the inverse of the inverted avatar.
            for (a, b) in img
                .pixels()
                .zip(original.pixels())
                .filter(|(a, _)| a.0[3] > 0)
            {
                let inverted = [255 - b.0[0], 255 - b.0[1], 255 - b.0[2]];
                assert_eq!(a.0[..3], inverted, "brightness=0 changed a pixel");
            }
        }
        if level == "100" {
            assert!(
                img.pixels().all(|p| p.0[..3] == [255, 255, 255]),
                "100 is white"
            );
        }
        if let Some(prev) = &previous {
            assert!(
                img.pixels()
                    .zip(prev.pixels())
                    .all(|(a, b)| (0..3).all(|c| a.0[c] >= b.0[c])),
                "brightness={level} is not at least as bright as the level before"
            );
            assert_ne!(&img, prev, "brightness={level} looks like the level before");
        }
        previous = Some(img);
    }
    // The default brightens visibly.
    let default = pixels(
        &call(
            &app,
            &format!("/canvas/filter/brightness?avatar={avatar}"),
            None,
        )
        .await,
    );
    let sum = |img: &image::RgbaImage| {
        img.pixels()
            .map(|p| p.0[..3].iter().map(|&c| u64::from(c)).sum::<u64>())
            .sum::<u64>()
    };
    let plain = pixels(
        &call(
            &app,
            &format!("/canvas/filter/brightness?brightness=0&avatar={avatar}"),
            None,
        )
        .await,
    );
    let (n, lit, base) = (
        u64::from(plain.width() * plain.height() * 3),
        sum(&default),
        sum(&plain),
    );
    assert!(
        lit >= base + 20 * n,
        "default gains {} levels per channel on average",
        (lit - base) / n
    );
}

/// `lied` draws its `username` ("<username> lied."); absent or blank is
/// the anonymous "You lied.", and a name over the cap is a 400.
#[actix_rt::test]
async fn lied_draws_the_username() {
    let host = FixtureHost::start();
    let mut s = canvas_settings();
    s.output_cache_mb = 0;
    let app = app_with(s).await;
    let avatar = enc(&host.url("/ok.png"));
    let lied = |query: &str| format!("/canvas/misc/lied?avatar={avatar}{query}");
    let anonymous = call(&app, &lied(""), None).await;
    assert_eq!(png_size(&anonymous), (600, 600));
    let ferris = call(&app, &lied("&username=Ferris"), None).await;
    assert_eq!(png_size(&ferris), (600, 600));
    assert_ne!(ferris.body, anonymous.body, "the username is drawn");
    let ada = call(&app, &lied("&username=Ada"), None).await;
    assert_ne!(ada.body, ferris.body, "each name is drawn");
    let blank = call(&app, &lied("&username=%20%20"), None).await;
    assert_eq!(blank.body, anonymous.body, "a blank name is no name");
    let long = call(&app, &lied(&format!("&username={}", "x".repeat(65))), None).await;
    let msg = long.assert_error(400);
    assert!(msg.contains("username"), "{msg}");
}

#[actix_rt::test]
async fn every_misc_image_renders() {
    let host = FixtureHost::start();
    let app = app_with(canvas_settings()).await;
    let avatar = enc(&host.url("/ok.jpg"));
    for name in [
        "bisexual",
        "circle",
        "heart",
        "horny",
        "its-so-stupid?dog=so%20stupid",
        "lesbian",
        "lgbt",
        "lied",
        "lolice",
        "namecard?username=ferris&birthday=May%2015&description=crab",
        "nonbinary",
        "pansexual",
        "simpcard",
        "series",
        "transgender",
        "post?username=ferris&displayname=Ferris&comment=hi&theme=dark",
        "video-comment?username=ferris&comment=nice",
    ] {
        let sep = if name.contains('?') { '&' } else { '?' };
        let r = call(
            &app,
            &format!("/canvas/misc/{name}{sep}avatar={avatar}"),
            None,
        )
        .await;
        let (w, h) = png_size(&r);
        assert!(w > 0 && h > 0, "{name}");
    }
    // Scenes that draw no avatar need none, and fetch none.
    let before = host.connections();
    for uri in [
        "/canvas/misc/nobitches?no=no%20avatar&bottomtext=needed",
        "/canvas/misc/sage?quote=slow%20and%20steady",
        "/canvas/misc/sage2?quote=patience",
    ] {
        let r = call(&app, uri, None).await;
        png_size(&r);
    }
    assert_eq!(host.connections(), before);
}

#[actix_rt::test]
async fn images_carry_a_strong_etag_and_304_on_if_none_match() {
    let host = FixtureHost::start();
    let app = app_with(canvas_settings()).await;
    let uri = format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/ok.png")));
    let first = call(&app, &uri, None).await;
    png_size(&first);
    let tag = first.header("etag").expect("an ETag").to_owned();
    assert!(tag.starts_with('"') && !tag.starts_with("W/"), "{tag}");
    let cc = first.header("cache-control").expect("Cache-Control");
    assert!(cc.contains("max-age=") && cc.contains("public"), "{cc}");

    let again = call(&app, &uri, Some(&tag)).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(tag.as_str()));

    let other = call(&app, &uri, Some("\"0000000000000000\"")).await;
    assert_eq!(other.status, 200);
    assert_eq!(other.body, first.body, "rendering is deterministic");

    let invert = format!("/canvas/filter/invert?avatar={}", enc(&host.url("/ok.png")));
    let r = call(&app, &invert, None).await;
    assert_ne!(r.header("etag"), Some(tag.as_str()));
}

#[actix_rt::test]
async fn the_output_cache_answers_repeats_and_keys_on_every_parameter() {
    let host = FixtureHost::start();
    for cache_mb in [64, 0] {
        let mut s = canvas_settings();
        s.output_cache_mb = cache_mb;
        let state = AppState::load(s).expect("state loads");
        let metrics = std::sync::Arc::clone(&state.metrics);
        let engine = std::sync::Arc::clone(&state.canvas);
        let app = test::init_service(create_app(state)).await;
        let avatar = enc(&host.url("/ok.png"));
        let bright =
            |level: &str| format!("/canvas/filter/brightness?avatar={avatar}&brightness={level}");
        let hits = || {
            let text = metrics.render();
            text.lines()
                .find_map(|l| l.strip_prefix("menagerie_output_cache_hits_total "))
                .expect("the output cache counter")
                .parse::<u64>()
                .unwrap()
        };

        let first = call(&app, &bright("20"), None).await;
        png_size(&first);
        let repeat = call(&app, &bright("20"), None).await;
        assert_eq!(repeat.body, first.body);
        assert_eq!(repeat.header("etag"), first.header("etag"));
        let other = call(&app, &bright("60"), None).await;
        png_size(&other);
        assert_ne!(other.body, first.body, "a parameter is part of the key");
        assert_ne!(other.header("etag"), first.header("etag"));
        if cache_mb > 0 {
            assert_eq!(hits(), 1, "the repeat came from the cache");
            assert_eq!(engine.cached_outputs(), 2);
        } else {
            assert_eq!(hits(), 0, "--output-cache-mb 0 turns it off");
            assert_eq!(engine.cached_outputs(), 0);
        }
        // Either way the avatar was fetched once.
        assert_eq!(host.hits("/ok.png"), if cache_mb > 0 { 1 } else { 2 });
    }
}

#[actix_rt::test]
async fn head_answers_like_get_without_rendering() {
    let host = FixtureHost::start();
    let state = AppState::load(canvas_settings()).expect("state loads");
    let engine = std::sync::Arc::clone(&state.canvas);
    let app = test::init_service(create_app(state)).await;
    let head_of = |uri: String| {
        test::TestRequest::default()
            .method(actix_web::http::Method::HEAD)
            .uri(&uri)
            .to_request()
    };
    let uri = format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/ok.png")));
    let head = Reply::read(test::call_service(&app, head_of(uri.clone())).await).await;
    assert_eq!(head.status, 200);
    assert_eq!(head.header("content-type"), Some("image/png"));
    assert!(head.body.is_empty());
    assert_eq!(engine.cached_outputs(), 0, "HEAD rendered nothing");
    let get = call(&app, &uri, None).await;
    png_size(&get);
    assert_eq!(get.header("etag"), head.header("etag"));
    // The avatar's errors are the same as GET's.
    let missing = format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/404")));
    let r = test::call_service(&app, head_of(missing)).await;
    assert_eq!(r.status().as_u16(), 422);
}

/// Asserts an error status, a JSON body, and that the message leaks
/// neither an upstream body nor an address.
fn assert_clean_error(r: &Reply, status: u16, what: &str) -> String {
    assert_eq!(
        r.status.as_u16(),
        status,
        "{what}: {}",
        String::from_utf8_lossy(&r.body)
    );
    let msg = r.assert_error(status);
    for leak in ["secret", "10.0.0.7", "127.0.0.1", "<html"] {
        assert!(!msg.contains(leak), "{what}: message leaks {leak}: {msg}");
    }
    msg
}

#[actix_rt::test]
async fn the_avatar_error_table() {
    let host = FixtureHost::start();
    let app = app_with(canvas_settings()).await;
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let cases: Vec<(String, u16)> = vec![
        ("/canvas/filter/sepia".into(), 400),
        ("/canvas/filter/sepia?avatar=".into(), 400),
        ("/canvas/filter/sepia?avatar=not%20a%20url".into(), 400),
        (
            "/canvas/filter/sepia?avatar=ftp://example.com/a.png".into(),
            400,
        ),
        (
            "/canvas/filter/sepia?avatar=http://u:p@example.com/a.png".into(),
            400,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar=http://e.com/{}",
                "a".repeat(2100)
            ),
            400,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/html.png"))
            ),
            422,
        ),
        (
            format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/ok.bmp"))),
            422,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/huge.png"))
            ),
            422,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/truncated.png"))
            ),
            422,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/bomb.png"))
            ),
            422,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/status/404"))
            ),
            422,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/redirect/0"))
            ),
            422,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/status/500"))
            ),
            502,
        ),
        (
            format!("/canvas/filter/sepia?avatar=http://127.0.0.1:{closed}/a.png"),
            502,
        ),
        (
            format!(
                "/canvas/filter/sepia?avatar={}",
                enc(&host.url("/slow.png"))
            ),
            504,
        ),
        (
            format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/hang"))),
            504,
        ),
    ];
    for (uri, status) in cases {
        let r = call(&app, &uri, None).await;
        assert_clean_error(&r, status, &uri);
    }
}

#[actix_rt::test]
async fn private_addresses_are_400_and_never_contacted() {
    let host = FixtureHost::start();
    // The production default, as parsed from a command line without the flag.
    let s = settings();
    assert!(
        !s.allow_private_avatars,
        "--allow-private-avatars is off by default"
    );
    let app = app_with(s).await;
    let port = host.addr().port();
    for avatar in [
        format!("http://127.0.0.1:{port}/ok.png"),
        format!("http://[::ffff:127.0.0.1]:{port}/ok.png"),
        format!("http://localhost:{port}/ok.png"),
        format!("http://2130706433:{port}/ok.png"),
        "http://169.254.169.254/latest/meta-data/".to_owned(),
        "http://10.0.0.1/a.png".to_owned(),
        "http://[::1]/a.png".to_owned(),
    ] {
        let r = call(
            &app,
            &format!("/canvas/misc/circle?avatar={}", enc(&avatar)),
            None,
        )
        .await;
        let msg = assert_clean_error(&r, 400, &avatar);
        assert!(msg.contains("private"), "{avatar}: {msg}");
    }
    assert_eq!(host.connections(), 0);
}

#[actix_rt::test]
async fn bad_parameters_are_400_naming_the_range() {
    let host = FixtureHost::start();
    let app = app_with(canvas_settings()).await;
    let avatar = enc(&host.url("/ok.png"));
    let long = "a".repeat(5000);
    let cases = [
        (
            format!("/canvas/filter/brightness?brightness=101&avatar={avatar}"),
            "brightness must be between 0 and 100, got 101",
        ),
        (
            format!("/canvas/filter/brightness?brightness=-1&avatar={avatar}"),
            "brightness must be between 0 and 100, got -1",
        ),
        (
            format!("/canvas/filter/brightness?brightness=bright&avatar={avatar}"),
            "brightness must be a number between 0 and 100",
        ),
        (
            format!("/canvas/filter/brightness?brightness=NaN&avatar={avatar}"),
            "brightness must be a number between 0 and 100",
        ),
        (
            format!("/canvas/filter/brightness?brightness=inf&avatar={avatar}"),
            "brightness must be a number between 0 and 100",
        ),
        (
            format!("/canvas/filter/threshold?threshold=high&avatar={avatar}"),
            "threshold must be a number between 0 and 255",
        ),
        (
            format!("/canvas/filter/threshold?threshold=300&avatar={avatar}"),
            "between",
        ),
        (
            format!("/canvas/filter/threshold?threshold=-1&avatar={avatar}"),
            "between",
        ),
        (
            format!("/canvas/filter/color?color=zzzzzz&avatar={avatar}"),
            "color",
        ),
        (
            format!("/canvas/misc/post?theme=neon&avatar={avatar}"),
            "theme",
        ),
        (format!("/canvas/misc/sage?quote={long}"), "quote"),
        // Scenes that draw no avatar still refuse a bad one.
        (
            format!("/canvas/misc/sage?quote=hi&avatar={long}"),
            "avatar",
        ),
        (
            "/canvas/misc/sage2?avatar=ftp://x/a.png".to_owned(),
            "avatar",
        ),
        (
            "/canvas/misc/nobitches?avatar=not%20a%20url".to_owned(),
            "avatar",
        ),
        ("/canvas/misc/sage?avatar=".to_owned(), "avatar"),
        (
            format!("/canvas/misc/its-so-stupid?dog={long}&avatar={avatar}"),
            "dog",
        ),
    ];
    for (uri, needle) in cases {
        let r = call(&app, &uri, None).await;
        let msg = assert_clean_error(&r, 400, &uri[..uri.len().min(80)]);
        assert!(msg.contains(needle), "{msg}");
    }
    // Parameters are checked before the avatar is fetched.
    assert_eq!(host.connections(), 0);
}

#[actix_rt::test]
async fn unknown_names_are_404() {
    let app = app_with(canvas_settings()).await;
    for uri in [
        "/canvas/filter/emboss?avatar=http://e.com/a.png",
        "/canvas/misc/nope?avatar=http://e.com/a.png",
        "/canvas/filter/Sepia?avatar=http://e.com/a.png",
    ] {
        call(&app, uri, None).await.assert_error(404);
    }
}

/// Starts a request whose avatar host never answers, and waits until it
/// holds its job slot.
async fn occupy_a_slot<S, B>(app: &Rc<S>, host: &FixtureHost) -> actix_rt::task::JoinHandle<Reply>
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>
        + 'static,
    B: MessageBody + 'static,
{
    let slow = Rc::clone(app);
    let hanging_uri = format!("/canvas/filter/blur?avatar={}", enc(&host.url("/hang")));
    let before = host.hits("/hang");
    let hanging = actix_rt::spawn(async move { call(&*slow, &hanging_uri, None).await });
    for _ in 0..100 {
        if host.hits("/hang") > before {
            break;
        }
        actix_rt::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(host.hits("/hang"), before + 1);
    hanging
}

#[actix_rt::test]
async fn beyond_the_queue_cap_the_answer_is_503_at_once_and_json_stays_fast() {
    let host = FixtureHost::start();
    let mut s = canvas_settings();
    s.canvas_jobs = 1;
    s.canvas_queue = 0;
    s.avatar_timeout_ms = 5000;
    let app = Rc::new(app_with(s).await);

    // Occupy the only job slot with an avatar host that never answers.
    let hanging = occupy_a_slot(&app, &host).await;

    let busy_uri = format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/ok.png")));
    let busy = call(&*app, &busy_uri, None).await;
    assert_clean_error(&busy, 503, "busy");
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert_eq!(host.hits("/ok.png"), 0, "a refused job did no work");

    // The JSON endpoints answer while the canvas job still hangs.
    let json = call(&*app, "/canvas/rgb?hex=4B007D", None).await;
    assert_eq!(json.status, 200);
    assert!(
        !hanging.is_finished(),
        "the slow job should still be running"
    );

    let slow_reply = hanging.await.unwrap();
    assert_eq!(slow_reply.status, 504);
    // The slot is free again.
    let ok = call(&*app, &busy_uri, None).await;
    assert_eq!(png_size(&ok), (64, 48));
}

#[actix_rt::test]
async fn a_request_waits_in_the_queue_for_a_slot_and_then_succeeds() {
    let host = FixtureHost::start();
    let mut s = canvas_settings();
    s.canvas_jobs = 1;
    s.canvas_queue = 4;
    s.canvas_queue_ms = 10_000;
    s.avatar_timeout_ms = 300;
    let app = Rc::new(app_with(s).await);
    let hanging = occupy_a_slot(&app, &host).await;

    let uri = format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/ok.png")));
    let started = std::time::Instant::now();
    let waited = call(&*app, &uri, None).await;
    // It got the slot when the hanging job timed out, not before.
    assert!(hanging.is_finished());
    assert_eq!(hanging.await.unwrap().status, 504);
    assert_eq!(png_size(&waited), (64, 48));
    assert!(started.elapsed() >= Duration::from_millis(100));
}

#[actix_rt::test]
async fn a_request_waiting_past_the_queue_deadline_gets_503_with_retry_after() {
    let host = FixtureHost::start();
    let mut s = canvas_settings();
    s.canvas_jobs = 1;
    s.canvas_queue = 4;
    s.canvas_queue_ms = 100;
    s.avatar_timeout_ms = 5000;
    let app = Rc::new(app_with(s).await);
    let hanging = occupy_a_slot(&app, &host).await;

    let uri = format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/ok.png")));
    let started = std::time::Instant::now();
    let busy = call(&*app, &uri, None).await;
    assert_clean_error(&busy, 503, "busy");
    assert_eq!(busy.header("retry-after"), Some("1"));
    assert!(started.elapsed() >= Duration::from_millis(100), "it waited");
    assert!(!hanging.is_finished());
    assert_eq!(host.hits("/ok.png"), 0, "a refused job did no work");
    drop(hanging);
}

/// `/health` is the readiness probe: on a real server with one worker, it
/// still answers 200 while every canvas job slot is taken and the canvas
/// queue is full (canvas requests get 503), so replicas do not leave the
/// load balancer just because they are busy.
#[actix_rt::test]
async fn health_answers_while_the_canvas_queue_is_full() {
    let host = FixtureHost::start();
    let mut s = canvas_settings();
    s.canvas_jobs = 1;
    s.canvas_queue = 0;
    let addr = crate::support::spawn_server(s);
    let get = |uri: String| format!("GET {uri} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

    let hanging_uri = format!("/canvas/filter/blur?avatar={}", enc(&host.url("/hang")));
    let hanging = actix_rt::spawn(crate::support::raw(addr, get(hanging_uri)));
    for _ in 0..100 {
        if host.hits("/hang") > 0 {
            break;
        }
        actix_rt::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(host.hits("/hang"), 1, "the slot is taken");

    let busy_uri = format!("/canvas/filter/sepia?avatar={}", enc(&host.url("/ok.png")));
    let busy = crate::support::raw(addr, get(busy_uri)).await;
    assert!(busy.starts_with("HTTP/1.1 503"), "{busy}");
    let health = crate::support::raw(addr, get("/health".into())).await;
    assert!(health.starts_with("HTTP/1.1 200"), "{health}");
    assert!(health.contains(r#""status":"ok""#), "{health}");
    assert!(!hanging.is_finished(), "the canvas job still held its slot");
    assert!(hanging.await.unwrap().starts_with("HTTP/1.1 504"));
}
