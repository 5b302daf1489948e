//! The JSON error surface shared by every route.

use actix_web::http::Method;

use crate::support::{get, request};

#[actix_rt::test]
async fn unknown_path_is_404_json() {
    for uri in ["/nope", "/canvas", "/canvas/hex/extra", "/%FF%FE"] {
        let msg = get(uri).await.assert_error(404);
        assert!(msg.contains("no such endpoint"), "{uri}: {msg}");
    }
}

#[actix_rt::test]
async fn other_methods_are_405_json_with_allow() {
    for m in [Method::POST, Method::PUT, Method::DELETE, Method::PATCH] {
        let r = request(m.clone(), "/canvas/hex?rgb=1,2,3").await;
        r.assert_error(405);
        assert_eq!(r.header("allow"), Some("GET, HEAD"), "{m}");
    }
}

#[actix_rt::test]
async fn head_is_answered() {
    let r = request(Method::HEAD, "/canvas/rgb?hex=4B007D").await;
    assert_eq!(r.status, 200);
}

#[actix_rt::test]
async fn unparseable_query_is_400_json() {
    // A parameter given twice, and percent-encoding that is not UTF-8.
    for uri in [
        "/canvas/rgb?hex=4B007D&hex=000000",
        "/canvas/rgb?hex=%FF%FE",
    ] {
        get(uri).await.assert_error(400);
    }
}

#[actix_rt::test]
async fn health_is_ok() {
    let r = get("/health").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "ok");
}
