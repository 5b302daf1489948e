//! Hostile DNS answers and private addresses: refused inside the resolver,
//! before any connection, on the first request and on every redirect hop.

use fixture_host::FixtureHost;
use remote_image::{AvatarFetcher, FetchConfig, FetchError};

use crate::support::{StubResolver, config, sock};

fn strict_with(resolver: StubResolver) -> AvatarFetcher {
    AvatarFetcher::with_resolver(config(), resolver)
}

#[test]
fn names_resolving_to_private_addresses_are_refused_without_connecting() {
    let host = FixtureHost::start();
    let port = host.addr().port();
    let resolver = StubResolver::new()
        .answer("loopback.test", &[sock("127.0.0.1", port)])
        .answer("mapped.test", &[sock("::ffff:127.0.0.1", port)])
        .answer("mapped-private.test", &[sock("::ffff:10.0.0.1", 80)])
        .answer("metadata.test", &[sock("169.254.169.254", 80)])
        .answer("nat64.test", &[sock("64:ff9b::7f00:1", port)])
        .answer("sixtofour.test", &[sock("2002:7f00:1::1", port)])
        .answer("cgnat.test", &[sock("100.64.1.1", 80)])
        .answer("ula.test", &[sock("fd00::1", 80)])
        .answer(
            "mixed.test",
            &[sock("8.8.8.8", 80), sock("127.0.0.1", port)],
        )
        .answer(
            "mixed-v6.test",
            &[sock("2606:4700::1", 80), sock("::1", port)],
        );
    let fetcher = strict_with(resolver);
    for name in [
        "loopback.test",
        "mapped.test",
        "mapped-private.test",
        "metadata.test",
        "nat64.test",
        "sixtofour.test",
        "cgnat.test",
        "ula.test",
        "mixed.test",
        "mixed-v6.test",
    ] {
        let err = fetcher
            .load(&format!("http://{name}:{port}/ok.png"))
            .unwrap_err();
        assert_eq!(err, FetchError::RefusedAddress, "{name}");
    }
    assert_eq!(host.connections(), 0, "a refused address was connected to");
}

/// Counts the log events at WARN or above.
#[derive(Clone, Default)]
struct Warnings(std::sync::Arc<std::sync::atomic::AtomicUsize>);

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for Warnings {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if *event.metadata().level() <= tracing::Level::WARN {
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }
}

/// A client picks the avatar URL: its refusal is an error for the caller to
/// count, never a log line (165 refused URLs once wrote 185 WARN lines).
#[test]
fn refused_addresses_write_no_log_line() {
    use tracing_subscriber::layer::SubscriberExt;
    let warnings = Warnings::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(warnings.clone()));
    let resolver = StubResolver::new()
        .answer("loopback.test", &[sock("127.0.0.1", 80)])
        .answer("metadata.test", &[sock("169.254.169.254", 80)]);
    let fetcher = strict_with(resolver);
    for i in 0..50 {
        for url in [
            format!("http://loopback.test/{i}.png"),
            format!("http://metadata.test/{i}.png"),
            format!("http://127.0.0.1:1/{i}.png"),
        ] {
            assert_eq!(fetcher.load(&url).unwrap_err(), FetchError::RefusedAddress);
        }
    }
    tracing::warn!("the capture works");
    assert_eq!(
        warnings.0.load(std::sync::atomic::Ordering::Relaxed),
        1,
        "only the test's own line"
    );
}

#[test]
fn ip_literals_are_checked_as_addresses_not_strings() {
    let host = FixtureHost::start();
    let port = host.addr().port();
    // The system resolver parses these; the guard sees 127.0.0.1 each time.
    let fetcher = AvatarFetcher::new(config());
    for url in [
        format!("http://127.0.0.1:{port}/ok.png"),
        format!("http://[::ffff:127.0.0.1]:{port}/ok.png"),
        format!("http://[::ffff:7f00:1]:{port}/ok.png"),
        format!("http://2130706433:{port}/ok.png"),
        format!("http://0x7f.1:{port}/ok.png"),
        format!("http://localhost:{port}/ok.png"),
        format!("http://[::1]:{port}/ok.png"),
    ] {
        let err = fetcher.load(&url).unwrap_err();
        assert!(
            matches!(err, FetchError::RefusedAddress | FetchError::Unreachable),
            "{url}: {err:?}"
        );
    }
    assert_eq!(host.connections(), 0, "a refused address was connected to");
}

#[test]
fn every_redirect_hop_is_checked() {
    let public = FixtureHost::start();
    let internal = FixtureHost::start_on("127.0.0.2".parse().unwrap());
    let resolver = StubResolver::new()
        .answer("avatars.test", &[public.addr()])
        .answer("internal.test", &[internal.addr()]);
    // 127.0.0.1 stands in for a public host; 127.0.0.2 stays private.
    let fetcher = AvatarFetcher::with_resolver(
        FetchConfig {
            allowed_addresses: vec![public.addr().ip()],
            ..config()
        },
        resolver,
    );
    let ok = fetcher.load("http://avatars.test/ok.png").unwrap();
    assert_eq!(ok.image.dimensions(), (64, 48));

    let err = fetcher
        .load("http://avatars.test/redirect-to?http://internal.test/ok.png")
        .unwrap_err();
    assert_eq!(err, FetchError::RefusedAddress);
    let literal = format!(
        "http://avatars.test/redirect-to?http://{}/ok.png",
        internal.addr()
    );
    assert_eq!(
        fetcher.load(&literal).unwrap_err(),
        FetchError::RefusedAddress
    );
    assert_eq!(internal.connections(), 0, "the internal host was reached");
}

#[test]
fn dns_rebinding_between_hops_is_refused() {
    let public = FixtureHost::start();
    let internal = FixtureHost::start_on("127.0.0.2".parse().unwrap());
    // First lookup: the "public" fixture; every later lookup: internal.
    let resolver = StubResolver::new()
        .answer("rebind.test", &[public.addr()])
        .answer("rebind.test", &[internal.addr()]);
    let fetcher = AvatarFetcher::with_resolver(
        FetchConfig {
            allowed_addresses: vec![public.addr().ip()],
            ..config()
        },
        resolver,
    );
    let err = fetcher
        .load("http://rebind.test/redirect-to?http://rebind.test/ok.png")
        .unwrap_err();
    assert_eq!(err, FetchError::RefusedAddress);
    assert_eq!(public.hits("/redirect-to"), 1);
    assert_eq!(internal.connections(), 0, "the rebound address was reached");
}

#[test]
fn unknown_names_are_unreachable() {
    let fetcher = strict_with(StubResolver::new());
    let err = fetcher.load("http://nowhere.test/a.png").unwrap_err();
    assert_eq!(err, FetchError::Unreachable);
}
