//! The playground page and its embedded assets.

use crate::support::get;

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
