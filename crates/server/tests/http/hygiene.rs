//! CORS, compression, ETag/304, HEAD, size limits and security headers.

use std::io::Read;

use actix_web::http::Method;
use actix_web::test::init_service;
use server::create_app;

use crate::support::{get, raw, req, request, send, settings, settings_with, spawn_server, state};

#[actix_rt::test]
async fn cors_allows_any_origin_on_get() {
    let app = init_service(create_app(state(settings()))).await;
    let r = send(
        &app,
        req("/canvas/rgb?hex=4B007D").header("origin", "https://bot.example"),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert!(
        r.header("access-control-expose-headers")
            .unwrap()
            .contains("ETag")
    );
}

#[actix_rt::test]
async fn preflight_is_204_not_405() {
    let app = init_service(create_app(state(settings()))).await;
    let r = send(
        &app,
        req("/canvas/rgb?hex=4B007D")
            .method(Method::OPTIONS)
            .header("origin", "https://bot.example")
            .header("access-control-request-method", "GET")
            .header("access-control-request-headers", "authorization"),
    )
    .await;
    assert_eq!(r.status, 204);
    assert_eq!(r.header("access-control-allow-origin"), Some("*"));
    assert!(
        r.header("access-control-allow-methods")
            .unwrap()
            .contains("GET")
    );
    assert_eq!(
        r.header("access-control-allow-headers"),
        Some("authorization")
    );
    assert!(r.header("access-control-max-age").is_some());
}

#[actix_rt::test]
async fn json_is_compressed_with_gzip_and_brotli_png_is_not() {
    let app = init_service(create_app(state(settings()))).await;
    let plain = send(&app, req("/openapi.json")).await;
    assert!(plain.header("content-encoding").is_none());

    let gz = send(&app, req("/openapi.json").header("accept-encoding", "gzip")).await;
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    assert!(
        gz.body.len() < plain.body.len() / 3,
        "gzip shrinks the document"
    );
    let mut out = Vec::new();
    flate2::read::GzDecoder::new(&gz.body[..])
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, plain.body);

    let br = send(&app, req("/openapi.json").header("accept-encoding", "br")).await;
    assert_eq!(br.header("content-encoding"), Some("br"));
    let mut out = Vec::new();
    brotli::Decompressor::new(&br.body[..], 4096)
        .read_to_end(&mut out)
        .unwrap();
    assert_eq!(out, plain.body);

    let png = send(
        &app,
        req("/canvas/colorviewer?hex=4B007D").header("accept-encoding", "gzip, br"),
    )
    .await;
    assert_eq!(png.header("content-type"), Some("image/png"));
    assert!(
        png.header("content-encoding").is_none(),
        "PNG is not recompressed"
    );
}

#[actix_rt::test]
async fn deterministic_json_has_an_etag_and_answers_304() {
    let app = init_service(create_app(state(settings()))).await;
    let r = send(&app, req("/canvas/rgb?hex=4B007D")).await;
    let tag = r.header("etag").expect("an ETag").to_owned();
    assert!(
        tag.starts_with("W/\""),
        "weak: the body may be compressed: {tag}"
    );
    assert!(r.header("cache-control").unwrap().starts_with("public"));

    let again = send(&app, req("/canvas/rgb?hex=4B007D")).await;
    assert_eq!(again.header("etag"), Some(tag.as_str()), "stable");
    let other = send(&app, req("/canvas/rgb?hex=000000")).await;
    assert_ne!(other.header("etag"), Some(tag.as_str()));

    let nm = send(
        &app,
        req("/canvas/rgb?hex=4B007D").header("if-none-match", &tag),
    )
    .await;
    assert_eq!(nm.status, 304);
    assert!(nm.body.is_empty());
    assert_eq!(nm.header("etag"), Some(tag.as_str()));
    assert!(nm.header("cache-control").is_some());

    let miss = send(
        &app,
        req("/canvas/rgb?hex=4B007D").header("if-none-match", "\"nope\""),
    )
    .await;
    assert_eq!(miss.status, 200);
}

#[actix_rt::test]
async fn png_gets_a_strong_etag_and_errors_none() {
    let r = get("/canvas/colorviewer?hex=4B007D").await;
    let tag = r.header("etag").expect("ETag");
    assert!(tag.starts_with('"'), "strong: {tag}");
    let e = get("/canvas/rgb?hex=zz").await;
    assert_eq!(e.status, 400);
    assert!(e.header("etag").is_none());
    assert_eq!(e.header("cache-control"), Some("no-store"));
    let h = get("/health").await;
    assert!(h.header("etag").is_none(), "not deterministic");
}

#[actix_rt::test]
async fn security_headers_on_every_response() {
    for uri in [
        "/canvas/rgb?hex=4B007D",
        "/nope",
        "/canvas/colorviewer?hex=fff",
    ] {
        let r = get(uri).await;
        assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{uri}");
        assert_eq!(r.header("referrer-policy"), Some("no-referrer"), "{uri}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{uri}");
        assert_eq!(
            r.header("cross-origin-resource-policy"),
            Some("cross-origin"),
            "{uri}"
        );
        assert!(
            r.header("content-security-policy")
                .unwrap()
                .contains("default-src 'none'"),
            "{uri}"
        );
    }
}

#[actix_rt::test]
async fn overlong_request_target_is_414_json() {
    let long = format!("/canvas/rgb?hex={}", "a".repeat(9000));
    let msg = get(&long).await.assert_error(414);
    assert!(msg.contains("8192"), "{msg}");
    let s = settings_with(&["--max-uri-bytes", "64"]);
    let r = crate::support::request_with(
        s,
        Method::GET,
        &format!("/canvas/rgb?hex={}", "a".repeat(60)),
    )
    .await;
    r.assert_error(414);
}

#[actix_rt::test]
async fn oversized_headers_are_431_json() {
    let app = init_service(create_app(state(settings()))).await;
    let mut r = req("/canvas/rgb?hex=4B007D");
    for i in 0..20 {
        r = r.header(&format!("x-pad-{i}"), &"v".repeat(1000));
    }
    send(&app, r).await.assert_error(431);
}

#[actix_rt::test]
async fn head_over_the_wire_has_headers_and_no_body() {
    let addr = spawn_server(settings());
    let get = raw(
        addr,
        "GET /canvas/rgb?hex=4B007D HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".into(),
    )
    .await;
    let head = raw(
        addr,
        "HEAD /canvas/rgb?hex=4B007D HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".into(),
    )
    .await;
    assert!(get.starts_with("HTTP/1.1 200"), "{get}");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(get.ends_with("}"), "GET has the JSON body: {get}");
    assert!(head.ends_with("\r\n\r\n"), "HEAD has no body: {head}");
    let cl = |s: &str| {
        s.lines()
            .find(|l| l.to_ascii_lowercase().starts_with("content-length:"))
            .map(str::to_owned)
    };
    assert_eq!(cl(&get), cl(&head), "same Content-Length");
    assert!(head.to_ascii_lowercase().contains("etag:"));
}

#[actix_rt::test]
async fn other_methods_still_405() {
    request(Method::POST, "/canvas/rgb?hex=4B007D")
        .await
        .assert_error(405);
}
