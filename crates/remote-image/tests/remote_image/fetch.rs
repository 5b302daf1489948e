//! Good images and every hostile answer of the fixture host.

use std::time::{Duration, Instant};

use fixture_host::FixtureHost;
use remote_image::{AvatarFetcher, FetchConfig, FetchError};

use crate::support::{config, permissive};

#[test]
fn decodes_every_accepted_format() {
    let host = FixtureHost::start();
    let fetcher = permissive();
    for path in ["/ok.png", "/ok.jpg", "/ok.webp", "/ok.gif", "/gzip.png"] {
        let avatar = fetcher
            .load(&host.url(path))
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(avatar.image.dimensions(), (64, 48), "{path}");
    }
}

#[test]
fn gif_gives_its_first_frame() {
    let host = FixtureHost::start();
    let avatar = permissive().load(&host.url("/ok.gif")).unwrap();
    let px = avatar.image.get_pixel(10, 10).0;
    assert!(px[0] > 200 && px[2] < 50, "first frame is red, got {px:?}");
}

#[test]
fn large_avatars_are_normalised() {
    let host = FixtureHost::start();
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        max_bytes: 16 << 20,
        overall_timeout: Duration::from_secs(20),
        ..config()
    });
    let avatar = fetcher.load(&host.url("/big.png")).unwrap();
    assert_eq!(avatar.image.dimensions(), (1024, 512));
}

#[test]
fn bad_bodies_are_refused_with_the_right_error() {
    let host = FixtureHost::start();
    let fetcher = permissive();
    let cases = [
        ("/html.png", FetchError::NotAnImage),
        ("/ok.bmp", FetchError::UnsupportedFormat),
        ("/truncated.png", FetchError::Corrupt),
        ("/bomb.png", FetchError::TooManyBytes { max: 1 << 20 }),
        (
            "/announce-huge.png",
            FetchError::TooManyBytes { max: 1 << 20 },
        ),
        ("/status/404", FetchError::UpstreamRejected { status: 404 }),
        ("/status/403", FetchError::UpstreamRejected { status: 403 }),
        ("/status/500", FetchError::UpstreamFailed { status: 500 }),
        ("/status/503", FetchError::UpstreamFailed { status: 503 }),
        ("/redirect/0", FetchError::TooManyRedirects { max: 3 }),
    ];
    for (path, expected) in cases {
        let err = fetcher.load(&host.url(path)).unwrap_err();
        assert_eq!(err, expected, "{path}");
    }
}

#[test]
fn huge_dimensions_are_refused_from_the_header() {
    let host = FixtureHost::start();
    let err = permissive().load(&host.url("/huge.png")).unwrap_err();
    assert_eq!(
        err,
        FetchError::TooManyPixels {
            width: 100_000,
            height: 100_000,
            max_side: 4096
        }
    );
}

#[test]
fn redirects_stop_after_three() {
    let host = FixtureHost::start();
    let err = permissive().load(&host.url("/redirect/0")).unwrap_err();
    assert_eq!(err, FetchError::TooManyRedirects { max: 3 });
    // The first request and three redirects, nothing more.
    assert_eq!(host.hits_with_prefix("/redirect/"), 4);
}

#[test]
fn a_redirect_to_a_good_image_is_followed() {
    let host = FixtureHost::start();
    let url = host.url(&format!("/redirect-to?{}", host.url("/ok.png")));
    let avatar = permissive().load(&url).unwrap();
    assert_eq!(avatar.image.dimensions(), (64, 48));
}

#[test]
fn a_redirect_to_another_scheme_never_leaves_http() {
    let host = FixtureHost::start();
    let err = permissive()
        .load(&host.url("/redirect-to?file:///etc/passwd"))
        .unwrap_err();
    // ureq resolves the location against the current http origin: the
    // fixture answers 404 for it, no file is ever read.
    assert_eq!(err, FetchError::UpstreamRejected { status: 404 });
    assert_eq!(host.hits_with_prefix("/"), 2);
}

#[test]
fn a_redirect_carrying_user_information_is_refused() {
    let host = FixtureHost::start();
    let target = format!("http://user:pw@{}/ok.png", host.addr());
    let err = permissive()
        .load(&host.url(&format!("/redirect-to?{target}")))
        .unwrap_err();
    assert!(matches!(err, FetchError::InvalidUrl(_)), "{err:?}");
    assert_eq!(host.hits("/ok.png"), 0);
}

#[test]
fn a_slow_drip_hits_the_overall_timeout() {
    let host = FixtureHost::start();
    let started = Instant::now();
    let err = permissive().load(&host.url("/slow.png")).unwrap_err();
    assert_eq!(err, FetchError::TooSlow);
    // The drip lasts 30 s; the 3 s overall timeout must cut it.
    assert!(started.elapsed() < Duration::from_secs(15));
}

#[test]
fn a_silent_host_hits_the_overall_timeout() {
    let host = FixtureHost::start();
    let err = permissive().load(&host.url("/hang")).unwrap_err();
    assert_eq!(err, FetchError::TooSlow);
}

#[test]
fn a_closed_port_is_unreachable() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let err = permissive()
        .load(&format!("http://127.0.0.1:{port}/ok.png"))
        .unwrap_err();
    assert_eq!(err, FetchError::Unreachable);
}

#[test]
fn urls_are_checked_before_any_request() {
    let fetcher = permissive();
    let long = format!("http://example.com/{}", "a".repeat(2048));
    assert_eq!(
        fetcher.load(&long).unwrap_err(),
        FetchError::UrlTooLong { max: 2048 }
    );
    for bad in [
        "",
        "example.com/a.png",
        "/a.png",
        "ftp://example.com/a.png",
        "file:///etc/passwd",
        "gopher://127.0.0.1:70/",
        "http://user:pw@example.com/a.png",
        "http://user@example.com/a.png",
        "http://exa mple.com/",
        "http:///a.png",
    ] {
        let err = fetcher.load(bad).unwrap_err();
        assert!(matches!(err, FetchError::InvalidUrl(_)), "{bad:?}: {err:?}");
    }
    assert_eq!(fetcher.network_fetches(), 0);
}

#[test]
fn error_messages_never_echo_bodies_or_addresses() {
    let host = FixtureHost::start();
    let fetcher = permissive();
    for path in ["/html.png", "/status/500", "/status/404", "/truncated.png"] {
        let msg = fetcher.load(&host.url(path)).unwrap_err().to_string();
        assert!(
            !msg.contains("secret") && !msg.contains("10.0.0.7"),
            "{msg}"
        );
        assert!(!msg.contains("127.0.0.1"), "{msg}");
    }
    let strict = AvatarFetcher::new(config());
    let msg = strict.load(&host.url("/ok.png")).unwrap_err().to_string();
    assert!(!msg.contains("127.0.0.1"), "{msg}");
}

#[test]
fn byte_cap_is_configurable() {
    let host = FixtureHost::start();
    let fetcher = AvatarFetcher::new(FetchConfig {
        allow_private: true,
        max_bytes: 100,
        ..config()
    });
    let err = fetcher.load(&host.url("/ok.png")).unwrap_err();
    assert_eq!(err, FetchError::TooManyBytes { max: 100 });
    let err = fetcher.load(&host.url("/gzip.png")).unwrap_err();
    assert_eq!(err, FetchError::TooManyBytes { max: 100 });
}

/// Proxy variables in the environment are ignored: a proxy would see every
/// avatar URL and could reach what the address guard refuses. The variables
/// are set on a child run of this same test (setting them in this process
/// would need `unsafe`); the "proxy" is a fixture host that must see no
/// connection while the origin serves the avatar.
#[test]
fn proxy_variables_in_the_environment_are_ignored() {
    const CHILD: &str = "MENAGERIE_TEST_PROXY_CHILD";
    if let Ok(url) = std::env::var(CHILD) {
        let avatar = permissive().load(&url).expect("fetched directly");
        assert_eq!(avatar.image.dimensions(), (64, 48));
        return;
    }
    let origin = FixtureHost::start();
    let proxy = FixtureHost::start();
    let via = proxy.url("");
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "fetch::proxy_variables_in_the_environment_are_ignored",
            "--exact",
        ])
        .env(CHILD, origin.url("/ok.png"))
        .envs(
            [
                "HTTP_PROXY",
                "HTTPS_PROXY",
                "ALL_PROXY",
                "http_proxy",
                "https_proxy",
                "all_proxy",
            ]
            .map(|k| (k, via.as_str())),
        )
        .env_remove("NO_PROXY")
        .env_remove("no_proxy")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "child run failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(origin.hits("/ok.png"), 1);
    assert_eq!(proxy.connections(), 0, "the proxy was used");
}
