//! CORS, compression, ETag/304, HEAD, size limits and security headers.

use std::io::Read;

use actix_web::http::Method;
use actix_web::test::init_service;
use server::create_app;

use crate::support::{
    get, raw, raw_in_steps, req, request, send, settings, settings_with, spawn_server, state,
};

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

/// An `Accept-Encoding` that refuses every coding, identity included, is
/// answered uncompressed with the usual headers, on every path (it was a
/// plain-text 406 `br, gzip, deflate` without them).
#[actix_rt::test]
async fn refusing_every_coding_is_answered_uncompressed() {
    let app = init_service(create_app(state(settings()))).await;
    for (uri, status) in [
        ("/canvas/rgb?hex=4B007D", 200),
        ("/openapi.json", 200),
        ("/no/such/path", 404),
        ("/canvas/rgb", 400),
    ] {
        let plain = send(&app, req(uri)).await;
        for refusal in [
            "identity;q=0, *;q=0",
            "*;q=0",
            "identity;Q=0, br;q=0, *;q=0",
        ] {
            let r = send(&app, req(uri).header("accept-encoding", refusal)).await;
            assert_eq!(r.status.as_u16(), status, "{uri} {refusal}");
            assert!(r.header("content-encoding").is_none(), "{uri} {refusal}");
            assert_eq!(r.body, plain.body, "{uri} {refusal}");
            assert_eq!(r.header("content-type"), Some("application/json"), "{uri}");
            assert_eq!(r.header("access-control-allow-origin"), Some("*"), "{uri}");
            assert_eq!(r.header("x-content-type-options"), Some("nosniff"), "{uri}");
        }
    }
    // A weight that leaves a coding acceptable still compresses.
    let r = send(
        &app,
        req("/openapi.json").header("accept-encoding", "identity;q=0, gzip;q=0.5"),
    )
    .await;
    assert_eq!(r.header("content-encoding"), Some("gzip"));
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

/// The limit is exact: a target (path and query, as sent) of
/// `--max-uri-bytes` is served, one byte more is a 414, over the wire and
/// in process.
#[actix_rt::test]
async fn the_target_limit_is_exact() {
    let addr = spawn_server(settings());
    for (len, status) in [(8191, 200), (8192, 200), (8193, 414), (8194, 414)] {
        let prefix = "/canvas/rgb?hex=4B007D&pad=";
        let target = format!("{prefix}{}", "a".repeat(len - prefix.len()));
        assert_eq!(target.len(), len);
        let r = get(&target).await;
        assert_eq!(r.status.as_u16(), status, "in process, {len} bytes");
        let out = raw(
            addr,
            format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
        )
        .await;
        let all = responses(&out);
        assert_eq!(all.len(), 1, "{len}: {out}");
        assert_eq!(all[0].0, status, "over the wire, {len} bytes: {out}");
    }
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

/// The status code, the headers (lower-case names) and the body of each
/// response in `raw` (a connection's whole output).
fn responses(raw: &str) -> Vec<(u16, String, String)> {
    raw.split("HTTP/1.1 ")
        .filter(|r| !r.is_empty())
        .map(|r| {
            let (head, body) = r.split_once("\r\n\r\n").unwrap_or((r, ""));
            let status = head[..3].parse().unwrap_or(0);
            (status, head.to_ascii_lowercase(), body.to_owned())
        })
        .collect()
}

/// One JSON error with the security headers, the connection closed after it.
fn assert_refused(raw: &str, status: u16, needle: &str) {
    let all = responses(raw);
    assert_eq!(all.len(), 1, "exactly one answer: {raw}");
    let (got, head, body) = &all[0];
    assert_eq!(*got, status, "{raw}");
    assert!(head.contains("content-type: application/json"), "{raw}");
    assert!(head.contains("x-content-type-options: nosniff"), "{raw}");
    assert!(
        head.contains("content-security-policy: default-src 'none'"),
        "{raw}"
    );
    assert!(head.contains("connection: close"), "{raw}");
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {raw}"));
    let msg = v["error"].as_str().expect("an error message");
    assert!(msg.contains(needle), "{msg}");
}

/// RFC 9112 §6.3: both `Content-Length` and `Transfer-Encoding` is refused
/// and the connection closed, so the request smuggled behind it is never
/// answered.
#[actix_rt::test]
async fn content_length_with_transfer_encoding_is_refused_and_closes() {
    let addr = spawn_server(settings());
    let smuggled = "GET /canvas/rgb?hex=4B007D HTTP/1.1\r\nHost: x\r\n\r\n";
    for headers in [
        "Content-Length: 5\r\nTransfer-Encoding: chunked",
        "Transfer-Encoding: chunked\r\nContent-Length: 60",
        "transfer-encoding: identity\r\ncontent-length: 0",
    ] {
        let out = raw(
            addr,
            format!("GET /health HTTP/1.1\r\nHost: x\r\n{headers}\r\n\r\n0\r\n\r\n{smuggled}"),
        )
        .await;
        assert!(
            !out.contains("\"r\""),
            "the smuggled request was answered: {out}"
        );
        assert_refused(&out, 400, "Content-Length and Transfer-Encoding");
    }
    // A request before it on the same connection is answered first, in order.
    let out = raw(
        addr,
        format!(
            "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\
             Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{smuggled}"
        ),
    )
    .await;
    let all = responses(&out);
    assert_eq!(
        all.iter().map(|r| r.0).collect::<Vec<_>>(),
        [200, 400],
        "{out}"
    );
    // Chunked and sized bodies alone still work, and pipelined heads pass.
    for request in [
        "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n\
         3;ext=1\r\nabc\r\n0\r\nX-Trailer: y\r\n\r\n",
        "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi",
    ] {
        let out = raw(addr, request.to_owned()).await;
        assert_eq!(responses(&out).len(), 1, "{out}");
        assert_eq!(responses(&out)[0].0, 200, "{out}");
    }
    let out = raw(
        addr,
        "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /canvas/rgb?hex=4B007D HTTP/1.1\r\nHost: x\r\n\
         Connection: close\r\n\r\n"
            .to_owned(),
    )
    .await;
    let all = responses(&out);
    assert_eq!(
        all.iter().map(|r| r.0).collect::<Vec<_>>(),
        [200, 200],
        "{out}"
    );
}

/// The framing conflicts refused on HTTP/1.1 are refused on HTTP/1.0 too,
/// and `Transfer-Encoding` on HTTP/1.0 (which actix ignores, framing the body
/// by `Content-Length` alone) is refused: nothing behind it is answered.
#[actix_rt::test]
async fn http10_framing_conflicts_are_refused_as_on_http11() {
    let addr = spawn_server(settings());
    // The reproduction: a request smuggled behind `GET /health HTTP/1.0`.
    let smuggled = "GET /facts/smuggled-probe HTTP/1.1\r\nHost: x\r\n\r\n";
    let status_lines = |out: &str| out.lines().filter(|l| l.starts_with("HTTP/1.")).count();
    for version in ["HTTP/1.0", "HTTP/1.1"] {
        for (headers, needle) in [
            (
                "Content-Length: 5\r\nTransfer-Encoding: chunked",
                "Content-Length and Transfer-Encoding",
            ),
            (
                "Transfer-Encoding: chunked\r\nContent-Length: 60",
                "Content-Length and Transfer-Encoding",
            ),
            (
                "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked",
                "malformed",
            ),
            ("Transfer-Encoding: gzip", "malformed"),
            ("Content-Length: 5\r\nContent-Length: 5", "malformed"),
        ] {
            let out = raw(
                addr,
                format!("GET /health {version}\r\nHost: x\r\n{headers}\r\n\r\n0\r\n\r\n{smuggled}"),
            )
            .await;
            assert_eq!(status_lines(&out), 1, "{version} {headers}: {out}");
            assert!(
                !out.contains("smuggled-probe"),
                "{version} {headers}: the smuggled request was answered: {out}"
            );
            assert_refused(&out, 400, needle);
        }
    }
    // HTTP/1.0 with `Transfer-Encoding` alone: actix would read no body and
    // take the chunks for the next request.
    let out = raw(
        addr,
        format!(
            "GET /health HTTP/1.0\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n{smuggled}"
        ),
    )
    .await;
    assert_eq!(status_lines(&out), 1, "{out}");
    assert_refused(&out, 400, "HTTP/1.0");
    // A plain HTTP/1.0 request, with or without a sized body, is answered.
    for request in [
        "GET /health HTTP/1.0\r\nHost: x\r\n\r\n",
        "GET /health HTTP/1.0\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi",
    ] {
        let out = raw(addr, request.to_owned()).await;
        assert_eq!(status_lines(&out), 1, "{out}");
        assert!(out.contains(" 200 OK"), "{out}");
    }
}

/// The guard's synthetic requests are not part of the URL space: a client
/// asking for their path, over the wire or in process, with or without a
/// made-up mark, gets the JSON 404 of any unknown path; the guard's own
/// refusals are still answered in order, as JSON, with the connection closed.
#[actix_rt::test]
async fn the_guards_hand_over_paths_are_not_reachable() {
    let addr = spawn_server(settings());
    for code in [
        "timeout",
        "smuggling",
        "malformed",
        "head-too-large",
        "target-too-long",
        "http10-transfer-encoding",
        "nothing",
    ] {
        let path = format!("/.menagerie/refused/{code}");
        let msg = get(&path).await.assert_error(404);
        assert!(msg.contains(&path), "{msg}");
        for mark in [
            "",
            "\r\nX-Menagerie-Refusal: 0",
            "\r\nX-Menagerie-Refusal: ",
        ] {
            let out = raw(
                addr,
                format!("GET {path} HTTP/1.1\r\nHost: x{mark}\r\nConnection: close\r\n\r\n"),
            )
            .await;
            let all = responses(&out);
            assert_eq!(all.len(), 1, "{out}");
            assert_eq!(all[0].0, 404, "{out}");
            assert!(all[0].1.contains("content-type: application/json"), "{out}");
            assert!(
                all[0].1.contains("x-content-type-options: nosniff"),
                "{out}"
            );
        }
    }
    // The guard's own refusals keep their answers, after the ones before.
    let out = raw(
        addr,
        "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHost: x\r\n\
         Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
            .to_owned(),
    )
    .await;
    let all = responses(&out);
    assert_eq!(
        all.iter().map(|r| r.0).collect::<Vec<_>>(),
        [200, 400],
        "{out}"
    );
    let mut s = settings();
    s.request_head_timeout_ms = 200;
    let addr = spawn_server(s);
    let out = timed(addr, vec![(0, "GET /health HTTP/1.1\r\nHo")]).await;
    assert_refused(&out, 408, "within 200 ms");
}

/// Heads the HTTP parser refuses get JSON and the security headers, not an
/// empty body.
#[actix_rt::test]
async fn parser_errors_are_json_with_security_headers() {
    let addr = spawn_server(settings());
    let many: String = (0..100).map(|i| format!("X-H{i}: v\r\n")).collect();
    let cases = [
        (
            "GET /health HTTP/9.9\r\nHost: x\r\n\r\n".to_owned(),
            400,
            "malformed",
        ),
        (
            "GET /health HTTP/1.1\r\nHost: x\r\nX-Nul: a\0b\r\n\r\n".to_owned(),
            400,
            "malformed",
        ),
        (
            format!("GET /health HTTP/1.1\r\nHost: x\r\n{many}\r\n"),
            431,
            "headers",
        ),
        (
            "GET /caf\u{e9} HTTP/1.1\r\nHost: x\r\n\r\n".to_owned(),
            400,
            "malformed",
        ),
        (
            "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\n".to_owned(),
            400,
            "malformed",
        ),
        (
            "GET /health HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx"
                .to_owned(),
            400,
            "malformed",
        ),
        (
            "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n".to_owned(),
            400,
            "malformed",
        ),
    ];
    for (request, status, needle) in cases {
        let out = raw(addr, request.clone()).await;
        assert_refused(&out, status, needle);
    }
}

/// A target of 64 KiB or more is a 414 JSON like any target over
/// `--max-uri-bytes`, not the parser's empty answer.
#[actix_rt::test]
async fn very_long_targets_are_414_json() {
    let addr = spawn_server(settings());
    for len in [9_000, 65_536, 70_000, 200_000] {
        let target = format!("/canvas/rgb?hex={}", "a".repeat(len));
        let out = raw(addr, format!("GET {target} HTTP/1.1\r\nHost: x\r\n\r\n")).await;
        assert_refused(&out, 414, "8192");
    }
}

/// `%` not followed by two hexadecimal digits is a 400, as the README says
/// (the decoder alone would keep it as a literal `%`).
#[actix_rt::test]
async fn invalid_percent_encoding_is_400_json() {
    for uri in [
        "/creature/dex?id=%",
        "/canvas/rgb?hex=%4",
        "/canvas/rgb?hex=4B007D&x=%zz",
        "/facts?x=%",
    ] {
        let msg = get(uri).await.assert_error(400);
        assert!(msg.contains("percent-encoding"), "{uri}: {msg}");
    }
    assert_eq!(
        get("/canvas/rgb?hex=%344B007D").await.status,
        400,
        "valid escapes decode as before"
    );
    assert_eq!(get("/canvas/rgb?hex=%234B007D").await.status, 200);
    // Documented for every endpoint, those without parameters too.
    let doc = get("/openapi.json").await.json();
    assert_eq!(
        doc["paths"]["/facts"]["get"]["responses"]["400"]["$ref"],
        "#/components/responses/MalformedRequest"
    );
}

/// Heads and bodies that arrive in pieces are judged once whole.
#[actix_rt::test]
async fn heads_sent_in_pieces_are_judged_whole() {
    let addr = spawn_server(settings());
    // Each piece 30 ms after the one before.
    let pieces =
        |parts: Vec<&'static str>| timed(addr, parts.into_iter().map(|p| (30, p)).collect());
    let out = pieces(vec![
        "GET /canvas/rgb?he",
        "x=4B007D HTTP/1.1\r\nHo",
        "st: x\r\nConnection: close\r",
        "\n\r\n",
    ])
    .await;
    assert_eq!(responses(&out).len(), 1, "{out}");
    assert_eq!(responses(&out)[0].0, 200, "{out}");
    let out = pieces(vec![
        "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n",
        "Content-Length: 5\r\n",
        "\r\n0\r\n\r\nGET /canvas/rgb?hex=4B007D HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    .await;
    assert!(!out.contains("\"r\""), "{out}");
    assert_refused(&out, 400, "Content-Length and Transfer-Encoding");
    // A whole head and the start of the next in one read: the first is
    // answered, the second is judged once the rest of it has come.
    let out = pieces(vec![
        "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nHo",
        "st: x\r\nTransfer-Encoding: chunked\r\n",
        "Content-Length: 5\r\n\r\n0\r\n\r\nGET /canvas/rgb?hex=4B007D HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    .await;
    assert!(!out.contains("\"r\""), "{out}");
    let all = responses(&out);
    assert_eq!(
        all.iter().map(|r| r.0).collect::<Vec<_>>(),
        [200, 400],
        "{out}"
    );
    assert!(
        all[1].2.contains("Content-Length and Transfer-Encoding"),
        "{out}"
    );
}

/// `raw_in_steps` with borrowed steps.
async fn timed(addr: std::net::SocketAddr, steps: Vec<(u64, &str)>) -> String {
    raw_in_steps(
        addr,
        steps
            .into_iter()
            .map(|(ms, b)| (ms, b.to_owned()))
            .collect(),
    )
    .await
}

/// A head that does not come whole in time gets a JSON 408 and the
/// connection closes: the first head from the connection's start (whether
/// part of it or nothing came), a later one from its first byte.
#[actix_rt::test]
async fn slow_request_heads_get_a_json_408() {
    let mut s = settings();
    s.request_head_timeout_ms = 300;
    let addr = spawn_server(s);
    let out = timed(addr, vec![(0, "GET /health HTTP/1.1\r\nHost: x\r\n")]).await;
    assert_refused(&out, 408, "within 300 ms");
    let out = timed(addr, vec![]).await;
    assert_refused(&out, 408, "within 300 ms");
    // Whole heads sent in pieces within the time are answered; idle time
    // between requests on a kept-alive connection is not counted; a next
    // head that stalls is refused after the 200s.
    let out = timed(
        addr,
        vec![
            (0, "GET /health HTTP/1.1\r\n"),
            (150, "Host: x\r\n\r\n"),
            (500, "GET /health HTTP/1.1\r\nHost: x\r\n\r\n"),
            (500, "GET /health HTTP/1.1\r\n"),
        ],
    )
    .await;
    let all = responses(&out);
    assert_eq!(
        all.iter().map(|r| r.0).collect::<Vec<_>>(),
        [200, 200, 408],
        "{out}"
    );
    assert!(all[2].1.contains("connection: close"), "{out}");
    // A body slower than the head time is not cut by it.
    let out = timed(
        addr,
        vec![
            (
                0,
                "POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nConnection: close\r\n\r\n",
            ),
            (500, "abcd"),
        ],
    )
    .await;
    assert_eq!(
        responses(&out).iter().map(|r| r.0).collect::<Vec<_>>(),
        [405],
        "{out}"
    );
}
