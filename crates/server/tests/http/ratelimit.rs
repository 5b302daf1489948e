//! Rate limiting: off by default, per-client budgets, canvas budget,
//! trusted proxies, API keys.

use actix_web::test::init_service;
use server::{AppState, create_app};

use crate::support::{req, send, settings, settings_with, state};

#[actix_rt::test]
async fn off_unless_asked() {
    let app = init_service(create_app(state(settings()))).await;
    for _ in 0..50 {
        let r = send(&app, req("/canvas/rgb?hex=4B007D")).await;
        assert_eq!(r.status, 200);
        assert!(r.header("ratelimit").is_none());
    }
}

#[actix_rt::test]
async fn over_budget_is_429_json_with_retry_after_and_headers() {
    let app = init_service(create_app(state(settings_with(&["--rate-limit", "3"])))).await;
    for left in (0..3).rev() {
        let r = send(&app, req("/canvas/rgb?hex=4B007D").peer("192.0.2.1")).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("ratelimit-policy"), Some("\"default\";q=3;w=60"));
        let rl = r.header("ratelimit").unwrap();
        assert!(rl.starts_with(&format!("\"default\";r={left};t=")), "{rl}");
    }
    let r = send(&app, req("/canvas/rgb?hex=4B007D").peer("192.0.2.1")).await;
    let msg = r.assert_error(429);
    assert!(msg.contains("rate limit"), "{msg}");
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=20).contains(&retry), "{retry}");
    assert!(r.header("ratelimit").unwrap().contains("r=0"));
    assert_eq!(
        r.header("access-control-allow-origin"),
        Some("*"),
        "CORS on 429 too"
    );
    // Another client is unaffected; /health and /metrics are never limited.
    let other = send(&app, req("/canvas/rgb?hex=4B007D").peer("192.0.2.2")).await;
    assert_eq!(other.status, 200);
    for _ in 0..5 {
        assert_eq!(
            send(&app, req("/health").peer("192.0.2.1")).await.status,
            200
        );
    }
}

#[actix_rt::test]
async fn canvas_images_have_their_own_budget() {
    let st = state(settings_with(&[
        "--rate-limit",
        "5",
        "--canvas-rate-limit",
        "1",
    ]));
    let app = init_service(create_app(st)).await;
    let img = || req("/canvas/colorviewer?hex=4B007D").peer("192.0.2.7");
    let r = send(&app, img()).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("ratelimit-policy"), Some("\"canvas\";q=1;w=60"));
    send(&app, img()).await.assert_error(429);
    // The JSON budget is untouched.
    let j = send(&app, req("/canvas/rgb?hex=4B007D").peer("192.0.2.7")).await;
    assert_eq!(j.status, 200);
    assert!(j.header("ratelimit").unwrap().contains("r=4"));
}

/// Every canvas image path of the catalogue.
fn canvas_paths() -> Vec<String> {
    use server::catalogue::{COLORVIEWER, FILTER_GROUP, MISC_GROUP, filter_names, misc_names};
    let mut paths: Vec<String> = filter_names()
        .map(|n| format!("{FILTER_GROUP}/{n}"))
        .chain(misc_names().map(|n| format!("{MISC_GROUP}/{n}")))
        .collect();
    paths.push(COLORVIEWER.to_owned());
    paths
}

/// `path` with the unreserved characters picked by `pick` (cycled)
/// percent-encoded, in upper- or lower-case hexadecimal.
fn encoded(path: &str, pick: &[bool], upper: bool) -> String {
    path.chars()
        .zip(pick.iter().cycle())
        .map(|(c, &p)| {
            let unreserved = c.is_ascii_alphanumeric() || "-._~".contains(c);
            match (p && unreserved, upper) {
                (true, true) => format!("%{:02X}", c as u32),
                (true, false) => format!("%{:02x}", c as u32),
                (false, _) => c.to_string(),
            }
        })
        .collect()
}

/// A client address of its own for each call.
fn fresh_client() -> String {
    static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    format!("198.18.{}.{}", n >> 8 & 255, n & 255)
}

/// Property over the catalogue: any percent-encoded spelling of a canvas
/// path is routed as the plain one and spends the same `canvas` budget
/// (the limiter once classified the raw path while the router decoded it).
#[actix_rt::test]
async fn percent_encoded_canvas_paths_spend_the_canvas_budget() {
    use proptest::strategy::{Strategy, ValueTree};
    use proptest::test_runner::TestRunner;

    let st = state(settings_with(&[
        "--rate-limit",
        "600",
        "--canvas-rate-limit",
        "1",
    ]));
    let app = init_service(create_app(st)).await;
    let strategy = (
        proptest::collection::vec(proptest::bool::ANY, 1..40),
        proptest::bool::ANY,
    );
    let mut runner = TestRunner::deterministic();
    for path in canvas_paths() {
        let plain = send(&app, req(&path).peer(&fresh_client())).await;
        assert_eq!(
            plain.header("ratelimit-policy"),
            Some("\"canvas\";q=1;w=60"),
            "{path}"
        );
        let mut spellings = vec![
            encoded(&path, &[true], true),
            encoded(&path, &[true], false),
        ];
        for _ in 0..12 {
            let (pick, upper) = strategy.new_tree(&mut runner).unwrap().current();
            spellings.push(encoded(&path, &pick, upper));
        }
        for spelling in spellings {
            let client = fresh_client();
            let r = send(&app, req(&spelling).peer(&client)).await;
            assert_eq!(r.status, plain.status, "{spelling}");
            assert_eq!(r.body, plain.body, "{spelling}");
            assert_eq!(
                r.header("ratelimit-policy"),
                Some("\"canvas\";q=1;w=60"),
                "{spelling} is a canvas image"
            );
            for again in [&path, &spelling] {
                send(&app, req(again).peer(&client)).await.assert_error(429);
            }
        }
    }
}

/// The probe's case: with `--rate-limit 60` (a canvas budget of 12), 30
/// requests for `/canvas/%6Disc/circle` or `/canvas/colorviewe%72` are 12
/// answered and 18 refused, as their plain spellings are.
#[actix_rt::test]
async fn encoded_canvas_paths_are_limited_like_plain_ones() {
    let app = init_service(create_app(state(settings_with(&["--rate-limit", "60"])))).await;
    for uri in [
        "/canvas/%6Disc/circle",
        "/canvas/colorviewe%72?hex=4B007D",
        "/canvas/misc/circle",
        "/canvas/colorviewer?hex=4B007D",
    ] {
        let client = fresh_client();
        let mut limited = 0;
        for _ in 0..30 {
            let r = send(&app, req(uri).peer(&client)).await;
            if r.status == 429 {
                limited += 1;
            }
        }
        assert_eq!(limited, 18, "{uri}");
    }
    let metrics = String::from_utf8(send(&app, req("/metrics")).await.body).unwrap();
    for want in [
        "menagerie_http_requests_total{route=\"/canvas/misc/{name}\",status=\"429\"} 36",
        "menagerie_http_requests_total{route=\"/canvas/colorviewer\",status=\"429\"} 36",
    ] {
        assert!(metrics.contains(want), "missing `{want}` in\n{metrics}");
    }
}

/// Encoded unreserved characters are decoded in every path, not only the
/// canvas ones; other escapes are kept.
#[test]
fn only_unreserved_escapes_are_decoded() {
    use server::middleware::decode_unreserved;
    assert_eq!(decode_unreserved("/canvas/misc/circle"), None);
    assert_eq!(decode_unreserved("/%68ealth").as_deref(), Some("/health"));
    assert_eq!(
        decode_unreserved("/a%2Db%2e%5F%7e%41%7A%30").as_deref(),
        Some("/a-b._~Az0")
    );
    for kept in [
        "/a%2Fb", "/a%25", "/a%20b", "/a%C3%A9", "/a%", "/a%6", "/a%zz", "/%3F",
    ] {
        assert_eq!(decode_unreserved(kept), None, "{kept}");
    }
    assert_eq!(
        decode_unreserved("/%2F%6D%25%6d%").as_deref(),
        Some("/%2Fm%25m%")
    );
}

#[actix_rt::test]
async fn forwarded_for_only_from_trusted_proxies() {
    let st = state(settings_with(&[
        "--rate-limit",
        "1",
        "--trusted-proxy",
        "127.0.0.0/8",
    ]));
    let app = init_service(create_app(st)).await;
    let via_proxy = |client: &str| {
        req("/canvas/rgb?hex=4B007D")
            .peer("127.0.0.1")
            .header("x-forwarded-for", client)
    };
    // Two clients behind the trusted proxy: separate budgets.
    assert_eq!(send(&app, via_proxy("198.51.100.1")).await.status, 200);
    assert_eq!(send(&app, via_proxy("198.51.100.2")).await.status, 200);
    send(&app, via_proxy("198.51.100.1"))
        .await
        .assert_error(429);
    // An untrusted peer cannot pick its identity with the header.
    let spoof = |client: &str| {
        req("/canvas/rgb?hex=4B007D")
            .peer("203.0.113.5")
            .header("x-forwarded-for", client)
    };
    assert_eq!(send(&app, spoof("198.51.100.3")).await.status, 200);
    send(&app, spoof("198.51.100.4")).await.assert_error(429);
}

#[actix_rt::test]
async fn api_keys_have_their_own_limits() {
    let dir = std::env::temp_dir().join(format!("menagerie-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("keys.txt");
    std::fs::write(&file, "# partner\npartner-key-0123456789 4 2\n").unwrap();
    let st = state(settings_with(&[
        "--rate-limit",
        "1",
        "--api-keys",
        file.to_str().unwrap(),
    ]));
    let app = init_service(create_app(st)).await;
    let keyed = || {
        req("/canvas/rgb?hex=4B007D")
            .peer("192.0.2.9")
            .header("authorization", "Bearer partner-key-0123456789")
    };
    for _ in 0..4 {
        let r = send(&app, keyed()).await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("ratelimit-policy"), Some("\"api-key\";q=4;w=60"));
    }
    send(&app, keyed()).await.assert_error(429);
    // The same address without the key still has its anonymous budget.
    assert_eq!(
        send(&app, req("/canvas/rgb?hex=4B007D").peer("192.0.2.9"))
            .await
            .status,
        200
    );
    let bad = send(
        &app,
        req("/canvas/rgb?hex=4B007D").header("authorization", "Bearer not-a-known-key-at-all"),
    )
    .await;
    let msg = bad.assert_error(401);
    assert!(msg.contains("API key"));
    assert_eq!(bad.header("www-authenticate"), Some("Bearer"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn keys_without_rate_limit_or_a_bad_file_refuse_to_start() {
    let e = AppState::load(settings_with(&["--api-keys", "/nonexistent"])).unwrap_err();
    assert!(e.to_string().contains("--rate-limit"), "{e}");
    let e = AppState::load(settings_with(&[
        "--rate-limit",
        "5",
        "--api-keys",
        "/nonexistent/k",
    ]))
    .unwrap_err();
    assert!(e.to_string().contains("/nonexistent/k"), "{e}");
}

#[test]
fn redis_without_rate_limit_or_with_a_bad_url_refuses_to_start() {
    let e = AppState::load(settings_with(&[
        "--rate-limit-redis",
        "redis://127.0.0.1:6379",
    ]))
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("--rate-limit-redis needs --rate-limit"),
        "{e}"
    );
    let e = AppState::load(settings_with(&[
        "--rate-limit",
        "5",
        "--rate-limit-redis",
        "http://example.org/",
    ]))
    .unwrap_err();
    assert!(e.to_string().contains("--rate-limit-redis"), "{e}");
}

/// A Redis that never answers (nothing listens on the port) delays no
/// request: the server starts in fallback and counts alone.
#[actix_rt::test]
async fn an_unreachable_redis_leaves_the_replica_counting_alone() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("redis://127.0.0.1:{port}");
    let st = state(settings_with(&[
        "--rate-limit",
        "3",
        "--rate-limit-redis",
        &url,
    ]));
    let app = init_service(create_app(st)).await;
    let client = fresh_client();
    let mut statuses = Vec::new();
    for _ in 0..4 {
        statuses.push(
            send(&app, req("/canvas/rgb?hex=4B007D").peer(&client))
                .await
                .status,
        );
    }
    assert_eq!(statuses, [200, 200, 200, 429]);
    let metrics = String::from_utf8(send(&app, req("/metrics")).await.body).unwrap();
    assert!(
        metrics.contains("menagerie_rate_limit_redis_fallback 1"),
        "{metrics}"
    );
    assert!(
        metrics.contains("menagerie_rate_limit_fallback_decisions_total 4"),
        "{metrics}"
    );
}
