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
