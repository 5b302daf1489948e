//! Every endpoint's query parsing, in process: the first byte picks a route
//! of the catalogue (every documented endpoint, overlay, `/premium` image
//! and preview; see `routes`), the rest is sent as its query string (bytes a URI cannot
//! carry are percent-encoded; stray `%` signs are kept, so malformed escapes
//! are exercised). The server must answer: never a 500, and every error is a
//! JSON object with an `error` string.
//!
//! Avatar URLs are pointed at a closed loopback port, so no request leaves
//! the machine (the server refuses private addresses by default).
#![no_main]

use std::cell::OnceCell;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::OnceLock;

use actix_web::body::to_bytes;
use actix_web::rt::{System, SystemRunner};
use actix_web::test;
use libfuzzer_sys::fuzz_target;
use server::catalogue;
use server::openapi::catalogue::{ENDPOINTS, In, Kind};
use server::{AppState, Settings, create_app};

/// Every route the service documents, read from its catalogues rather than
/// listed here, so new endpoints are fuzzed as soon as they exist: each
/// OpenAPI endpoint with its path parameters set to their examples, every
/// value of an enumerated path parameter (each overlay under the alias, each
/// preview group), and every image endpoint and its preview.
fn routes() -> &'static [String] {
    static ROUTES: OnceLock<Vec<String>> = OnceLock::new();
    ROUTES.get_or_init(|| {
        let mut routes = Vec::new();
        for e in ENDPOINTS {
            let path_params: Vec<_> = e.params.iter().filter(|p| p.location == In::Path).collect();
            routes.push(path_params.iter().fold(e.path.to_owned(), |path, p| {
                path.replace(&format!("{{{}}}", p.name), p.example)
            }));
            for p in &path_params {
                if let Kind::Enum(values) = p.kind {
                    for v in values {
                        let path = path_params.iter().fold(e.path.to_owned(), |path, q| {
                            let value = if q.name == p.name { v } else { q.example };
                            path.replace(&format!("{{{}}}", q.name), value)
                        });
                        routes.push(path);
                    }
                }
            }
        }
        for image in catalogue::image_endpoints() {
            routes.push(image.path.clone());
            routes.push(image.preview.clone());
        }
        routes.sort();
        routes.dedup();
        routes
    })
}

fn data_dir() -> PathBuf {
    std::env::var_os("MENAGERIE_FUZZ_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/data"))
}

/// One request in, (status, body) out.
type Call = Box<dyn Fn(actix_http::Request) -> Pin<Box<dyn Future<Output = (u16, Vec<u8>)>>>>;

thread_local! {
    static RT: SystemRunner = System::new();
    /// The app, built once per process (building it per input is slow).
    static APP: OnceCell<Call> = const { OnceCell::new() };
}

fn app() -> Call {
    let state = AppState::load(Settings::for_tests(data_dir())).expect("state loads");
    let app = RT.with(|rt| rt.block_on(test::init_service(create_app(state))));
    let app = Rc::new(app);
    Box::new(move |req| {
        let app = app.clone();
        Box::pin(async move {
            let res = test::call_service(&*app, req).await;
            let status = res.status().as_u16();
            let body = to_bytes(res.into_body()).await.map(|b| b.to_vec()).unwrap_or_default();
            (status, body)
        })
    })
}

/// The query text: URI-safe bytes as they are, others percent-encoded.
fn encode(bytes: &[u8]) -> String {
    let mut q = String::with_capacity(bytes.len() * 3);
    for &b in bytes {
        if b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:@/?%".contains(&b) {
            q.push(b as char);
        } else {
            q.push_str(&format!("%{b:02X}"));
        }
    }
    // No avatar leaves the machine: any avatar value becomes a closed port.
    q.replace("avatar=", "avatar=http://127.0.0.1:9/a.png&x=")
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let routes = routes();
    let route = &routes[pick as usize % routes.len()];
    let uri = format!("{route}?{}", encode(rest));
    if uri.len() > 8 * 1024 {
        return;
    }
    let req = test::TestRequest::get().uri(&uri).to_request();
    let (status, body) = APP.with(|cell| {
        let call = cell.get_or_init(app);
        RT.with(|rt| rt.block_on(call(req)))
    });
    assert_ne!(status, 500, "{uri}: {}", String::from_utf8_lossy(&body));
    if status >= 400 {
        let v: serde_json::Value = serde_json::from_slice(&body)
            .unwrap_or_else(|e| panic!("{uri}: {status} not JSON ({e})"));
        assert!(v["error"].is_string(), "{uri}: {v}");
    }
});
