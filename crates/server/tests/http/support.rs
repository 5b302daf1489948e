//! The test binary's one module of shared test code: build the app over the fixtures
//! and make requests, one at a time or several to one app (with headers and
//! a peer address), or talk to a real server over TCP.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::PathBuf;

use actix_web::body::{MessageBody, to_bytes};
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::{Method, StatusCode, header::HeaderMap};
use actix_web::test::{self, TestRequest};
use server::{AppState, Settings, create_app};

/// The repository's `fixtures/` directory.
#[allow(dead_code)]
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures")
}

/// Settings for an app over the fixtures.
pub fn settings() -> Settings {
    Settings::for_tests(fixtures().join("data"))
}

/// A response, read whole.
#[derive(Debug)]
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Vec<u8>,
}

impl Reply {
    /// Reads a whole response.
    pub async fn read<B: actix_web::body::MessageBody>(
        res: actix_web::dev::ServiceResponse<B>,
    ) -> Self {
        let status = res.status();
        let headers = res.headers().clone();
        let body = to_bytes(res.into_body())
            .await
            .map(|b| b.to_vec())
            .unwrap_or_default();
        Self {
            status,
            headers,
            body,
        }
    }

    /// The body as JSON (panics with the body text if it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// A header's value as text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts the status and that the body is `{"error": "<non-empty>"}`;
    /// returns the message.
    pub fn assert_error(&self, status: u16) -> String {
        assert_eq!(
            self.status.as_u16(),
            status,
            "body: {}",
            String::from_utf8_lossy(&self.body)
        );
        assert_eq!(self.header("content-type"), Some("application/json"));
        let v = self.json();
        let msg = v["error"]
            .as_str()
            .expect("error member is a string")
            .to_owned();
        assert!(!msg.is_empty());
        msg
    }
}

/// Sends one request to a fresh app built with `settings`.
pub async fn request_with(settings: Settings, method: Method, uri: &str) -> Reply {
    let state = AppState::load(settings).expect("state loads");
    let app = test::init_service(create_app(state)).await;
    let req = test::TestRequest::default()
        .method(method)
        .uri(uri)
        .to_request();
    let res = test::call_service(&app, req).await;
    Reply::read(res).await
}

/// GET `uri` on an app over the fixtures.
pub async fn get(uri: &str) -> Reply {
    request_with(settings(), Method::GET, uri).await
}

/// Any method on an app over the fixtures.
pub async fn request(method: Method, uri: &str) -> Reply {
    request_with(settings(), method, uri).await
}

/// Settings over the fixtures with extra command-line flags.
pub fn settings_with(flags: &[&str]) -> Settings {
    use clap::Parser;
    let mut args = vec!["menagerie", "--bind", "127.0.0.1:0"];
    args.extend_from_slice(flags);
    let mut s = Settings::parse_from(args);
    s.data_dir = fixtures().join("data");
    s
}

/// One request: method GET unless changed, headers, optional peer.
#[derive(Debug, Clone)]
pub struct Req {
    pub method: actix_web::http::Method,
    pub uri: String,
    pub headers: Vec<(String, String)>,
    pub peer: Option<SocketAddr>,
}

/// A GET of `uri`.
pub fn req(uri: &str) -> Req {
    Req {
        method: actix_web::http::Method::GET,
        uri: uri.to_owned(),
        headers: Vec::new(),
        peer: None,
    }
}

impl Req {
    pub fn header(mut self, k: &str, v: &str) -> Self {
        self.headers.push((k.to_owned(), v.to_owned()));
        self
    }
    pub fn peer(mut self, ip: &str) -> Self {
        self.peer = Some(SocketAddr::new(ip.parse().unwrap(), 40000));
        self
    }
    pub fn method(mut self, m: actix_web::http::Method) -> Self {
        self.method = m;
        self
    }
}

/// Sends `r` to an initialised app.
pub async fn send<S, B>(app: &S, r: Req) -> Reply
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut t = TestRequest::default().method(r.method).uri(&r.uri);
    for (k, v) in &r.headers {
        t = t.insert_header((k.as_str(), v.as_str()));
    }
    if let Some(p) = r.peer {
        t = t.peer_addr(p);
    }
    let res = app.call(t.to_request()).await.expect("service answers");
    Reply::read(res).await
}

/// Builds the state for `settings` (panics when it does not load).
pub fn state(settings: Settings) -> AppState {
    AppState::load(settings).expect("state loads")
}

/// Starts a real server on a loopback port, as `server::run` serves (the
/// app behind `http_guard`); returns its address.
pub fn spawn_server(mut settings: Settings) -> SocketAddr {
    settings.workers = Some(1);
    let listener = server::http_guard::listen("127.0.0.1:0".parse().unwrap()).expect("binds");
    let addr = listener.local_addr().unwrap();
    let server = server::serve(state(settings), listener).expect("serves");
    actix_rt::spawn(server);
    addr
}

/// Sends raw bytes and reads the whole answer (the server closes).
pub async fn raw(addr: SocketAddr, request: String) -> String {
    raw_in_steps(addr, vec![(0, request)]).await
}

/// Sends raw bytes in steps (each written after sleeping its milliseconds)
/// and reads everything the server sends until it closes, or 5 s pass.
pub async fn raw_in_steps(addr: SocketAddr, steps: Vec<(u64, String)>) -> String {
    actix_rt::task::spawn_blocking(move || {
        let mut s = TcpStream::connect(addr).expect("connects");
        s.set_read_timeout(Some(std::time::Duration::from_secs(5)))
            .unwrap();
        s.set_nodelay(true).unwrap();
        for (ms, bytes) in steps {
            std::thread::sleep(std::time::Duration::from_millis(ms));
            s.write_all(bytes.as_bytes()).unwrap();
        }
        let mut out = Vec::new();
        let _ = s.read_to_end(&mut out);
        String::from_utf8_lossy(&out).into_owned()
    })
    .await
    .unwrap()
}

/// Frames (with their delays in ms) of a GIF answer.
pub fn gif_frames(r: &Reply) -> Vec<(image::RgbaImage, u32)> {
    use image::AnimationDecoder;
    assert_eq!(r.status, 200, "body: {}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("content-type"), Some("image/gif"));
    image::codecs::gif::GifDecoder::new(std::io::Cursor::new(&r.body))
        .expect("a GIF")
        .into_frames()
        .map(|f| {
            let f = f.expect("a frame");
            let (n, d) = f.delay().numer_denom_ms();
            (f.into_buffer(), n / d)
        })
        .collect()
}

/// Frames of an animated WebP answer's body.
pub fn webp_frames(body: &[u8]) -> Vec<image::RgbaImage> {
    use image::AnimationDecoder;
    let d = image::codecs::webp::WebPDecoder::new(std::io::Cursor::new(body)).expect("a WebP");
    assert!(d.has_animation());
    d.into_frames()
        .map(|f| f.expect("a frame").into_buffer())
        .collect()
}

/// What the template, rank-card and welcome-card tests share: an app that
/// may fetch avatars from the loopback fixture host, one request to it, and
/// an image answer checked and decoded.
#[allow(dead_code)]
pub mod cards {
    use super::*;

    /// An avatar URL as a query value.
    pub fn enc(url: &str) -> String {
        url.replace('%', "%25")
            .replace('&', "%26")
            .replace('?', "%3F")
            .replace('=', "%3D")
    }

    /// `text` percent-encoded as a query value, byte by byte.
    pub fn pct(text: &str) -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => {
                    char::from(b).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    }

    /// The fixture settings, with private avatar hosts allowed (the fixture
    /// host is on loopback) and room for slow debug-build animations.
    pub fn settings() -> Settings {
        let mut s = super::settings();
        s.allow_private_avatars = true;
        s.avatar_timeout_ms = 3000;
        s.avatar_connect_timeout_ms = 1000;
        s.animation_render_ms = 120_000;
        s
    }

    /// `GET uri` on `app`.
    pub async fn get<S, B>(app: &S, uri: &str) -> Reply
    where
        S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
        B: MessageBody,
    {
        Reply::read(test::call_service(app, TestRequest::get().uri(uri).to_request()).await).await
    }

    /// The answer's image, after checking it is a 200 of `content_type`.
    pub fn image_of(r: &Reply, content_type: &str) -> image::RgbaImage {
        assert_eq!(r.status, 200, "body: {}", String::from_utf8_lossy(&r.body));
        assert_eq!(r.header("content-type"), Some(content_type));
        image::load_from_memory(&r.body).unwrap().into_rgba8()
    }
}
