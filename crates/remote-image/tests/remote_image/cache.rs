//! The decoded-avatar cache: hits, single flight, bounds.

use std::sync::{Arc, Barrier};
use std::thread;
use std::time::Duration;

use fixture_host::FixtureHost;
use remote_image::{AvatarFetcher, FetchConfig};

use crate::support::config;

#[test]
fn a_second_get_is_served_from_the_cache() {
    let host = FixtureHost::start();
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        ..config()
    });
    let url = host.url("/ok.png");
    let a = fetcher.get(&url).unwrap();
    let b = fetcher.get(&url).unwrap();
    assert!(Arc::ptr_eq(&a.image, &b.image));
    assert_eq!(a.digest, b.digest);
    assert_eq!(host.hits("/ok.png"), 1);
    assert_eq!(fetcher.cached_entries(), 1);
    assert!(fetcher.cached_bytes() >= 64 * 48 * 4);
}

#[test]
fn concurrent_requests_for_one_url_fetch_it_once() {
    let host = FixtureHost::start();
    let fetcher = Arc::new(AvatarFetcher::new(FetchConfig {
        allow_private: true,
        ..config()
    }));
    let url = host.url("/delayed.png?300");
    let barrier = Arc::new(Barrier::new(16));
    let handles: Vec<_> = (0..16)
        .map(|_| {
            let (fetcher, url, barrier) = (Arc::clone(&fetcher), url.clone(), Arc::clone(&barrier));
            thread::spawn(move || {
                barrier.wait();
                fetcher.get(&url).map(|a| a.digest)
            })
        })
        .collect();
    let digests: Vec<u64> = handles
        .into_iter()
        .map(|h| h.join().unwrap().unwrap())
        .collect();
    assert!(digests.windows(2).all(|w| w[0] == w[1]));
    assert_eq!(
        host.hits("/delayed.png"),
        1,
        "single flight fetched more than once"
    );
    assert_eq!(host.connections(), 1);
    assert_eq!(fetcher.network_fetches(), 1);
}

/// A body fetched ahead ([`AvatarFetcher::fetch_body`]: every network
/// rule, no decode) is decoded and cached by `fetch_traced_from`, like a
/// fetch; once cached, a later body is dropped undecoded; a failed body is
/// that load's error and is not cached; and the guard holds for a body as
/// for a fetch.
#[test]
fn a_body_fetched_ahead_is_decoded_and_cached_once() {
    let host = FixtureHost::start();
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        ..config()
    });
    let url = fetcher.parse_url(&host.url("/ok.png")).unwrap();
    let body = fetcher.fetch_body(&url);
    assert_eq!(
        (host.hits("/ok.png"), fetcher.cached_entries()),
        (1, 0),
        "fetched, not decoded"
    );
    let (first, loaded) = fetcher.fetch_traced_from(&url, body, None);
    let first = first.unwrap();
    assert!(loaded);
    assert_eq!(first.image.dimensions(), (64, 48));
    assert_eq!(fetcher.cached_entries(), 1);
    // Cached now: another body (here a failed one) is not even looked at.
    let (again, loaded) =
        fetcher.fetch_traced_from(&url, Err(remote_image::FetchError::Unreachable), None);
    assert!(!loaded);
    assert!(Arc::ptr_eq(&again.unwrap().image, &first.image));
    assert_eq!(host.hits("/ok.png"), 1);

    let failed = fetcher.parse_url(&host.url("/status/404")).unwrap();
    let body = fetcher.fetch_body(&failed);
    assert!(matches!(
        body,
        Err(remote_image::FetchError::UpstreamRejected { status: 404 })
    ));
    let (result, loaded) = fetcher.fetch_traced_from(&failed, body, None);
    assert!(loaded);
    assert!(matches!(
        result,
        Err(remote_image::FetchError::UpstreamRejected { status: 404 })
    ));
    assert_eq!(fetcher.cached_entries(), 1, "failures are not cached");

    let strict = AvatarFetcher::new(config());
    let private = strict.parse_url(&host.url("/avatar512.png")).unwrap();
    assert!(matches!(
        strict.fetch_body(&private),
        Err(remote_image::FetchError::RefusedAddress)
    ));
    assert_eq!(host.hits("/avatar512.png"), 0);
}

#[test]
fn failures_are_not_cached() {
    let host = FixtureHost::start();
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        ..config()
    });
    let url = host.url("/status/500");
    assert!(fetcher.get(&url).is_err());
    assert!(fetcher.get(&url).is_err());
    assert_eq!(host.hits("/status/500"), 2);
}

#[test]
fn the_cache_is_bounded_in_bytes() {
    let host = FixtureHost::start();
    // Room for one 512x512 avatar (1 MiB of RGBA), not two.
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        cache_bytes: (512 * 512 * 4) + 4096,
        ..config()
    });
    fetcher.get(&host.url("/avatar512.png")).unwrap();
    fetcher.get(&host.url("/avatar512.png?again")).unwrap();
    assert!(fetcher.cached_bytes() <= (512 * 512 * 4) + 4096);
    assert!(fetcher.cached_entries() <= 1);
}

#[test]
fn entries_expire_after_the_ttl() {
    let host = FixtureHost::start();
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        cache_ttl: Duration::from_millis(200),
        ..config()
    });
    let url = host.url("/ok.png");
    fetcher.get(&url).unwrap();
    thread::sleep(Duration::from_millis(400));
    fetcher.get(&url).unwrap();
    assert_eq!(host.hits("/ok.png"), 2);
}
