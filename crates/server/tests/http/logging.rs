//! Log levels of failed requests: avatar failures a client can cause never
//! reach the error log; the server's own failures do.
//!
//! Events are captured by a subscriber installed as this thread's default:
//! the in-process app answers on the test's thread, where `ApiError` turns
//! a failure into a response and logs it. (Fetches run on blocking threads
//! and log nothing: a refused address is counted in the metrics, and
//! remote-image's tests check that it writes no log line.)

use std::sync::{Arc, Mutex};

use actix_web::ResponseError;
use actix_web::test::init_service;
use fixture_host::FixtureHost;
use server::{ApiError, AppState, create_app};
use tracing::{Event, Level, Subscriber};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};

use crate::support::settings;
use crate::support::{req, send};

/// Every event's level and fields, as text.
#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<(Level, String)>>>);

impl<S: Subscriber> Layer<S> for Capture {
    fn on_event(&self, event: &Event<'_>, _ctx: Context<'_, S>) {
        struct Fields(String);
        impl tracing::field::Visit for Fields {
            fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
                self.0.push_str(&format!("{}={:?} ", field.name(), value));
            }
        }
        let mut fields = Fields(String::new());
        event.record(&mut fields);
        self.0
            .lock()
            .unwrap()
            .push((*event.metadata().level(), fields.0));
    }
}

impl Capture {
    fn at(&self, level: Level) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .filter(|(l, _)| *l == level)
            .map(|(_, f)| f.clone())
            .collect()
    }
}

/// A loopback port with nothing listening.
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

fn enc(url: &str) -> String {
    url.replace('%', "%25")
        .replace('&', "%26")
        .replace('?', "%3F")
        .replace('=', "%3D")
}

#[actix_rt::test]
async fn avatar_failures_caused_by_the_client_are_logged_below_error() {
    let capture = Capture::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(capture.clone()));

    let host = FixtureHost::start();
    let mut s = settings();
    s.allow_private_avatars = true;
    // Long enough for every fixture on a busy machine; `/hang` outlasts it.
    s.avatar_timeout_ms = 4000;
    s.avatar_connect_timeout_ms = 1000;
    s.avatar_max_bytes = 1 << 20;
    let app = init_service(create_app(AppState::load(s).unwrap())).await;
    let closed = format!("http://127.0.0.1:{}/a.png", closed_port());
    let cases = [
        (host.url("/status/500"), 502),
        (host.url("/status/503"), 502),
        (closed, 502),
        (host.url("/hang"), 504),
        (host.url("/status/404"), 422),
        (host.url("/big.png"), 422),
        (host.url("/huge.png"), 422),
        (host.url("/truncated.png"), 422),
        (host.url("/html.png"), 422),
        ("ftp://example.com/a.png".to_owned(), 400),
    ];
    for (avatar, status) in &cases {
        let r = send(
            &app,
            req(&format!("/canvas/filter/invert?avatar={}", enc(avatar))),
        )
        .await;
        assert_eq!(r.status.as_u16(), *status, "{avatar}");
    }
    // A refused address, with private addresses not allowed.
    let app = init_service(create_app(AppState::load(settings()).unwrap())).await;
    let r = send(
        &app,
        req("/canvas/filter/invert?avatar=http://10.0.0.7/a.png"),
    )
    .await;
    assert_eq!(r.status.as_u16(), 400);

    assert_eq!(
        capture.at(Level::ERROR),
        Vec::<String>::new(),
        "nothing a client caused is an ERROR"
    );
    let warned = capture.at(Level::WARN);
    for status in ["502", "504"] {
        assert!(
            warned
                .iter()
                .any(|w| w.contains(&format!("status={status}"))),
            "a {status} is still logged, at WARN: {warned:?}"
        );
    }
}

#[test]
fn the_servers_own_failures_are_logged_at_error() {
    let capture = Capture::default();
    let _guard =
        tracing::subscriber::set_default(tracing_subscriber::registry().with(capture.clone()));
    assert!(ApiError::JobFailed.is_server_fault());
    let _ = ApiError::JobFailed.error_response();
    assert_eq!(capture.at(Level::ERROR).len(), 1);
    let busy = ApiError::Busy { retry_after: 1 };
    assert!(!busy.is_server_fault());
    let _ = busy.error_response();
    assert_eq!(
        capture.at(Level::ERROR).len(),
        1,
        "a full job pool is no server fault"
    );
    assert_eq!(capture.at(Level::WARN).len(), 1);
}
