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
