//! `/metrics`: Prometheus text with requests by route pattern and status.

use actix_web::test::init_service;
use server::create_app;

use crate::support::{req, send, settings, state};

#[actix_rt::test]
async fn requests_are_counted_by_route_pattern_and_status() {
    let st = state(settings());
    let metrics = st.metrics.clone();
    let app = init_service(create_app(st)).await;
    for _ in 0..3 {
        send(&app, req("/canvas/rgb?hex=4B007D")).await;
    }
    send(&app, req("/canvas/rgb?hex=zz")).await;
    send(&app, req("/no-such-path-4711")).await;
    send(&app, req("/playground/app.js")).await;
    metrics.avatar_cache_hit();
    metrics.record_fetch(server::metrics::FetchOutcome::Timeout);

    let r = send(&app, req("/metrics")).await;
    assert_eq!(r.status, 200);
    assert!(
        r.header("content-type")
            .unwrap()
            .starts_with("text/plain; version=0.0.4")
    );
    let text = String::from_utf8(r.body).unwrap();
    for want in [
        "menagerie_http_requests_total{route=\"/canvas/rgb\",status=\"200\"} 3",
        "menagerie_http_requests_total{route=\"/canvas/rgb\",status=\"400\"} 1",
        "menagerie_http_requests_total{route=\"unmatched\",status=\"404\"} 1",
        // a parameterised route is labelled by its pattern, not the raw path
        "menagerie_http_requests_total{route=\"/playground/{asset}\",status=\"200\"} 1",
        "menagerie_http_request_duration_seconds_bucket{route=\"/canvas/rgb\",le=\"+Inf\"} 4",
        "menagerie_http_request_duration_seconds_count{route=\"/canvas/rgb\"} 4",
        "menagerie_avatar_cache_hits_total 1",
        "menagerie_avatar_fetches_total{outcome=\"timeout\"} 1",
        "menagerie_render_jobs_in_flight 0",
        "menagerie_render_jobs_queued 0",
        "# TYPE menagerie_http_request_duration_seconds histogram",
    ] {
        assert!(text.contains(want), "missing `{want}` in\n{text}");
    }
    assert!(!text.contains("4711"), "raw paths never become labels");
    assert!(!text.contains("hex="), "queries never become labels");
}

#[actix_rt::test]
async fn exposition_is_well_formed() {
    let st = state(settings());
    let app = init_service(create_app(st)).await;
    send(&app, req("/health")).await;
    let text = String::from_utf8(send(&app, req("/metrics")).await.body).unwrap();
    let mut typed = std::collections::HashSet::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let mut p = rest.split(' ');
            typed.insert(p.next().unwrap().to_owned());
            assert!(
                matches!(p.next(), Some("counter" | "gauge" | "histogram")),
                "{line}"
            );
            continue;
        }
        if line.starts_with("# HELP ") {
            continue;
        }
        let (series, value) = line.rsplit_once(' ').expect(line);
        value
            .parse::<f64>()
            .unwrap_or_else(|_| panic!("value of {line}"));
        let name = series.split('{').next().unwrap();
        let family = name
            .trim_end_matches("_bucket")
            .trim_end_matches("_sum")
            .trim_end_matches("_count");
        assert!(
            typed.contains(name) || typed.contains(family),
            "{name} has a TYPE line before it"
        );
        assert!(
            name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
            "{name}"
        );
    }
}

#[actix_rt::test]
async fn histogram_buckets_are_cumulative() {
    let m = std::sync::Arc::new(server::metrics::Metrics::default());
    m.record_request("/x", 200, std::time::Duration::from_micros(50));
    m.record_request("/x", 200, std::time::Duration::from_millis(3));
    m.record_request("/x", 500, std::time::Duration::from_secs(30));
    let t = m.render();
    assert!(t.contains("_bucket{route=\"/x\",le=\"0.0001\"} 1"), "{t}");
    assert!(t.contains("_bucket{route=\"/x\",le=\"0.005\"} 2"), "{t}");
    assert!(t.contains("_bucket{route=\"/x\",le=\"5\"} 2"), "{t}");
    assert!(t.contains("_bucket{route=\"/x\",le=\"+Inf\"} 3"), "{t}");
    assert!(t.contains("menagerie_http_requests_total{route=\"/x\",status=\"500\"} 1"));
    m.set_jobs_in_flight(1);
    assert!(m.render().contains("menagerie_render_jobs_in_flight 1"));
    m.set_jobs_in_flight(0);
    assert!(m.render().contains("menagerie_render_jobs_in_flight 0"));
}

#[actix_rt::test]
async fn avatar_cache_and_fetch_outcomes_are_counted() {
    let host = fixture_host::FixtureHost::start();
    let mut s = settings();
    s.allow_private_avatars = true;
    let app = init_service(create_app(state(s))).await;
    let ok = format!("/canvas/filter/sepia?avatar={}", host.url("/ok.png"));
    assert_eq!(send(&app, req(&ok)).await.status, 200);
    assert_eq!(send(&app, req(&ok)).await.status, 200);
    let missing = format!("/canvas/filter/sepia?avatar={}", host.url("/404"));
    assert_eq!(send(&app, req(&missing)).await.status, 422);
    let text = String::from_utf8(send(&app, req("/metrics")).await.body).unwrap();
    for want in [
        "menagerie_avatar_cache_misses_total 2",
        "menagerie_avatar_cache_hits_total 1",
        "menagerie_avatar_fetches_total{outcome=\"ok\"} 1",
        "menagerie_avatar_fetches_total{outcome=\"upstream_4xx\"} 1",
        "menagerie_render_jobs_in_flight 0",
        "menagerie_http_requests_total{route=\"/canvas/filter/{name}\",status=\"200\"} 2",
    ] {
        assert!(text.contains(want), "missing `{want}` in\n{text}");
    }
    let entries = text
        .lines()
        .find_map(|l| l.strip_prefix("menagerie_avatar_cache_entries "))
        .unwrap();
    assert_ne!(entries, "0", "the cache size is reported");
    // One image was rendered and kept (the second request was a hit).
    let gauge = |name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or_else(|| panic!("missing {name} in\n{text}"))
            .parse()
            .unwrap()
    };
    assert_eq!(gauge("menagerie_output_cache_hits_total"), 1);
    assert_eq!(gauge("menagerie_output_cache_entries"), 1);
    assert!(gauge("menagerie_output_cache_bytes") > 64, "weighs the PNG");
}

/// A refused avatar address (a client's choice) is counted once per request
/// under `outcome="refused"`; it writes no log line (the resolver's side is
/// tested in remote-image, where it runs on the test's thread).
#[actix_rt::test]
async fn refused_avatar_addresses_are_counted() {
    let app = init_service(create_app(state(settings()))).await;
    for i in 0..5 {
        let uri = format!("/canvas/filter/sepia?avatar=http://127.0.0.1:1/{i}.png");
        assert_eq!(send(&app, req(&uri)).await.status, 400, "{uri}");
    }
    let text = String::from_utf8(send(&app, req("/metrics")).await.body).unwrap();
    let want = "menagerie_avatar_fetches_total{outcome=\"refused\"} 5";
    assert!(text.contains(want), "missing `{want}` in\n{text}");
}
