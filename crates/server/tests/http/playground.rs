//! The playground page and its embedded assets.

use crate::support::{get, request_with, settings_with};

#[actix_rt::test]
async fn page_is_served_with_a_strict_csp_and_no_cdn() {
    let r = get("/").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
    let csp = r.header("content-security-policy").unwrap();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    assert!(csp.contains("default-src 'none'"), "{csp}");
    let html = String::from_utf8(r.body.clone()).unwrap();
    assert!(html.contains("/playground/app.js"));
    assert!(html.contains("/playground/style.css"));
    assert!(!html.contains("src=\"http"), "no external scripts");
    assert!(!html.contains("href=\"http"), "no external styles");
    assert!(
        !html.contains("<script>"),
        "no inline script (CSP forbids it)"
    );
}

#[actix_rt::test]
async fn assets_are_embedded() {
    let js = get("/playground/app.js").await;
    assert_eq!(js.status, 200);
    assert_eq!(
        js.header("content-type"),
        Some("text/javascript; charset=utf-8")
    );
    let text = String::from_utf8(js.body).unwrap();
    assert!(
        text.contains("/openapi.json"),
        "the page reads the document"
    );
    let css = get("/playground/style.css").await;
    assert_eq!(css.header("content-type"), Some("text/css; charset=utf-8"));
    assert!(!css.body.is_empty());
    get("/playground/other.js").await.assert_error(404);
    get("/playground/..%2F..%2FCargo.toml")
        .await
        .assert_error(404);
}

#[actix_rt::test]
async fn page_links_to_the_book_at_the_docs_url() {
    let html = |r: crate::support::Reply| String::from_utf8(r.body).unwrap();
    // Without --docs-url: the book's place in the repository, no link.
    let page = html(get("/").await);
    assert!(page.contains("Book: docs/ in the repository"), "{page}");
    assert!(!page.contains("<!-- book link -->"));
    let s = settings_with(&["--docs-url", "https://docs.example.org/menagerie/"]);
    let page = html(request_with(s, actix_web::http::Method::GET, "/").await);
    assert!(
        page.contains(
            r#"<a class="spec-link book-link" href="https://docs.example.org/menagerie/">Book</a>"#
        ),
        "{page}"
    );
    assert!(!page.contains("in the repository"));
    let s = settings_with(&["--docs-url", "file:///srv/book/index.html"]);
    let page = html(request_with(s, actix_web::http::Method::GET, "/").await);
    assert!(page.contains(r#"href="file:///srv/book/index.html""#));
}

#[test]
fn a_docs_url_that_could_leave_its_attribute_is_refused() {
    use clap::Parser;
    for bad in [
        "docs.example.org",
        "javascript:alert(1)",
        "https://x/\"onmouseover=\"alert(1)",
        "https://x/<script>",
        "https://x/a b",
        "http://",
        "file://host/x",
    ] {
        let r = server::Settings::try_parse_from(["menagerie", "--docs-url", bad]);
        assert!(r.is_err(), "{bad} accepted");
    }
    let ok = server::Settings::try_parse_from(["menagerie", "--docs-url", "HTTPS://x/book/#intro"]);
    assert_eq!(
        ok.unwrap().docs_url.as_deref(),
        Some("HTTPS://x/book/#intro")
    );
}
