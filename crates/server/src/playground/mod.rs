//! The playground page at `/`: plain HTML, CSS and JavaScript embedded in
//! the binary (no CDN, no build step). The script reads `/openapi.json` and
//! builds the endpoint list, the parameter forms and the gallery of
//! previews (every operation's `x-preview`, and the cards' `x-previews`)
//! from it, so the page never repeats the API description.
//!
//! The page links to the book: at `--docs-url` when the operator gave one
//! (the server does not serve the book itself), else it names the book's
//! place in the repository.
//!
//! Served with a strict Content-Security-Policy: scripts and styles from
//! this origin only, no inline code, images from this origin, `blob:` and
//! `data:`.

use actix_web::http::header;
use actix_web::{HttpResponse, web};

use crate::engine::AppState;
use crate::error::ApiError;

const INDEX: &str = include_str!("index.html");
const APP_JS: &str = include_str!("app.js");
const STYLE_CSS: &str = include_str!("style.css");

/// The page's Content-Security-Policy.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
img-src 'self' blob: data:; connect-src 'self'; base-uri 'none'; form-action 'none'; \
frame-ancestors 'none'";

/// Registers `/` and `/playground/{asset}`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(crate::routing::get("/", index))
        .service(crate::routing::group("/playground").get("/playground/{asset}", asset));
}

/// The page's placeholder for the link to the book.
const BOOK_LINK: &str = "<!-- book link -->";

/// The link to the book, without `--docs-url`: where it is in the repository.
const BOOK_IN_REPOSITORY: &str = "<span class=\"book-link muted small\" title=\"cargo xtask book builds it\">Book: docs/ in the repository</span>";

async fn index(state: web::Data<AppState>) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CONTENT_SECURITY_POLICY, CSP))
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .body(page(state.settings.docs_url.as_deref()))
}

/// The page, linking to the book at `docs_url` (checked by the settings'
/// parser: no character that could leave the attribute).
fn page(docs_url: Option<&str>) -> String {
    let link = match docs_url {
        Some(url) => format!("<a class=\"spec-link book-link\" href=\"{url}\">Book</a>"),
        None => BOOK_IN_REPOSITORY.to_owned(),
    };
    INDEX.replacen(BOOK_LINK, &link, 1)
}

async fn asset(name: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let (body, mime) = match name.as_str() {
        "app.js" => (APP_JS, "text/javascript; charset=utf-8"),
        "style.css" => (STYLE_CSS, "text/css; charset=utf-8"),
        other => {
            return Err(ApiError::UnknownPath(format!(
                "/playground/{}",
                other.chars().take(64).collect::<String>()
            )));
        }
    };
    Ok(HttpResponse::Ok()
        .content_type(mime)
        .insert_header((header::CACHE_CONTROL, "public, max-age=300"))
        .body(body))
}
