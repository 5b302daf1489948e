//! `/previews/{group}/{file}`: every image endpoint's preview, its answer
//! to built-in sample inputs (the catalogue's [`image_endpoints`], each
//! endpoint's OpenAPI operation names its preview in `x-preview`).
//!
//! The job is parsed from the sample parameters by the endpoint's own code
//! ([`canvas::preview_job`](super::canvas::preview_job)) and drawn once per
//! process by the engine ([`CanvasEngine::preview`](crate::engine::canvas::CanvasEngine::preview)),
//! then served from memory with `Cache-Control: public` (the middleware
//! adds the `ETag`).
//!
//! [`image_endpoints`]: crate::catalogue::image_endpoints

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use colour::Rgb;

use super::colour::COLORVIEWER_SIZE;
use std::sync::Arc;

use crate::catalogue;
use crate::engine::AppState;
use crate::engine::canvas::{Job, TemplateRef};
use crate::error::ApiError;

/// Seconds a preview may be cached: it changes only with the server.
const MAX_AGE: &str = "public, max-age=86400";
/// Seconds an operator's template's preview may be cached: it changes
/// when the template file does.
const MAX_AGE_CUSTOM: &str = "public, max-age=60";

/// The colour of the colour square's preview (its sample `hex`).
const SAMPLE_HEX: &str = "6246EA";

/// Registers `/previews/{group}/{file}`.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::group(catalogue::PREVIEW_GROUP).get("/previews/{group}/{file}", preview));
}

async fn preview(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let custom = format!(
        "{}/{}/",
        catalogue::PREVIEW_GROUP,
        catalogue::CUSTOM_PREVIEWS
    );
    if let Some(file) = req.path().strip_prefix(&custom) {
        return custom_preview(&req, &state, file).await;
    }
    let endpoint = catalogue::preview(req.path())
        .ok_or_else(|| ApiError::UnknownPath(req.path().chars().take(128).collect()))?;
    let (body, content_type) = match super::canvas::preview_job(&req, endpoint)? {
        // Two previews of one image (the backgrounds' template over the
        // templates' background is also that background's preview) share
        // one rendering.
        Some(job) => {
            let key = catalogue::image_endpoints()
                .iter()
                .find(|e| e.path == endpoint.path)
                .map_or(endpoint.preview.as_str(), |e| e.preview.as_str());
            state.canvas.preview(key.to_owned(), job).await?
        }
        None => {
            let rgb = Rgb::parse_hex(SAMPLE_HEX).map_err(|source| ApiError::Colour {
                name: "hex",
                source,
            })?;
            let img = canvas_render::solid(COLORVIEWER_SIZE, COLORVIEWER_SIZE, rgb.to_array())?;
            (canvas_render::encode_png(&img)?.into(), "image/png")
        }
    };
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CACHE_CONTROL, MAX_AGE))
        .body(body))
}

/// The preview of an operator's template: its defaults over the sample
/// avatar, stored under its path and the loaded template's address (an
/// edited template draws anew; its previous preview is forgotten).
async fn custom_preview(
    req: &HttpRequest,
    state: &AppState,
    file: &str,
) -> Result<HttpResponse, ApiError> {
    let unknown = || ApiError::UnknownPath(req.path().chars().take(128).collect());
    let set = state.templates.current();
    let t = file
        .rsplit_once('.')
        .and_then(|(name, _)| set.get(name))
        .filter(|t| catalogue::custom_preview(&t.name, t.template.is_animated()) == req.path())
        .ok_or_else(unknown)?;
    let args = t.sample.clone().ok_or_else(unknown)?;
    let key = format!("{}@{:p}", req.path(), t.template);
    crate::engine::canvas::preview::forget_others(&format!("{}@", req.path()), &key);
    let job = Job::Template(TemplateRef::File(Arc::clone(t)), args);
    let (body, content_type) = state.canvas.preview(key, job).await?;
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::CACHE_CONTROL, MAX_AGE_CUSTOM))
        .body(body))
}
