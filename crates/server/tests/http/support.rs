//! Shared helpers: build the app over the fixtures and make requests.

use actix_web::body::to_bytes;
use actix_web::http::{Method, StatusCode, header::HeaderMap};
use actix_web::test;
use server::{AppState, Settings, create_app};
use std::path::PathBuf;

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
