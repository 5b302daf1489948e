//! The monitoring component (`deploy/kubernetes/components/monitoring`):
//! every metric its alerts and dashboard name is one `/metrics` exports.

use actix_web::test::init_service;
use server::create_app;

use crate::support::{req, send, settings, state};

/// Every metric name (`menagerie_*`, `process_*`) in `text`.
fn metric_names(text: &str) -> std::collections::BTreeSet<String> {
    let mut names = std::collections::BTreeSet::new();
    let is_name = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_';
    let mut rest = text;
    while let Some(i) = ["menagerie_", "process_"]
        .iter()
        .filter_map(|p| rest.find(p))
        .min()
    {
        let before = rest[..i].chars().next_back();
        let tail = &rest[i..];
        let end = tail.find(|c| !is_name(c)).unwrap_or(tail.len());
        // A name starts a token (`menagerie-dashboard` is no metric).
        if !before.is_some_and(is_name) && !tail[end..].starts_with('-') {
            names.insert(tail[..end].to_owned());
        }
        rest = &tail[end.max(1)..];
    }
    names
}

/// The names in `wanted` that `exposition` does not declare (`# TYPE`); a
/// histogram's `_bucket`, `_sum` and `_count` count as the histogram.
fn missing(wanted: &std::collections::BTreeSet<String>, exposition: &str) -> Vec<String> {
    let declared = |n: &str| exposition.contains(&format!("# TYPE {n} "));
    wanted
        .iter()
        .filter(|n| {
            !declared(n)
                && !["_bucket", "_sum", "_count"].iter().any(|s| {
                    n.strip_suffix(s)
                        .is_some_and(|b| exposition.contains(&format!("# TYPE {b} histogram")))
                })
        })
        .cloned()
        .collect()
}

#[actix_rt::test]
async fn every_metric_of_the_alerts_and_the_dashboard_is_exported() {
    let dir = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../deploy/kubernetes/components/monitoring"
    );
    let mut wanted = std::collections::BTreeSet::new();
    for file in ["prometheusrule.yaml", "dashboard.json"] {
        let text = std::fs::read_to_string(format!("{dir}/{file}")).unwrap();
        let names = metric_names(&text);
        assert!(names.len() >= 5, "{file}: {names:?}");
        wanted.extend(names);
    }
    for expected in [
        "menagerie_http_requests_total",
        "menagerie_http_request_duration_seconds_bucket",
        "menagerie_rate_limit_redis_fallback",
        "menagerie_avatar_fetches_total",
        "process_resident_memory_bytes",
    ] {
        assert!(
            wanted.contains(expected),
            "{expected} not found in {wanted:?}"
        );
    }

    let app = init_service(create_app(state(settings()))).await;
    let r = send(&app, req("/metrics")).await;
    assert_eq!(r.status, 200);
    let exposition = String::from_utf8(r.body).unwrap();
    assert_eq!(missing(&wanted, &exposition), Vec::<String>::new());
    // The check bites: a misspelt name is reported.
    let typo: std::collections::BTreeSet<_> = ["menagerie_http_request_total".to_owned()].into();
    assert_eq!(missing(&typo, &exposition).len(), 1);
}
