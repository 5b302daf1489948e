//! The avatar image endpoints: `/canvas/filter/{name}` and
//! `/canvas/misc/{name}`.
//!
//! A handler parses and checks every parameter on the async worker (cheap:
//! a bad parameter is a 400 before any network or CPU work), then takes a
//! canvas job slot from [`CanvasEngine`] or answers 503 with `Retry-After`
//! at once. The job (avatar fetch through the cache, render, PNG encode)
//! runs on the blocking pool with `web::block`, so a slow avatar host never
//! holds an HTTP worker and the JSON endpoints stay fast.
//!
//! Every image carries a strong `ETag` derived from the endpoint, its
//! parameters, the avatar's content digest and the server version, and
//! `Cache-Control: public, max-age=<avatar cache TTL>`; a matching
//! `If-None-Match` gets 304 without rendering.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, web};
use canvas_render::scene::{PostParams, PostTheme, Scene, VideoCommentParams, render_scene};
use canvas_render::{Filter, PrideFlag, RenderError, RgbaImage};
use colour::Rgb;
use remote_image::{AvatarFetcher, FetchConfig, ImageLimits};
use serde::Deserialize;

use super::required;
use crate::config::Settings;
use crate::error::ApiError;
use crate::state::AppState;

/// What a valid `avatar` looks like (used in error messages).
pub const AVATAR_EXPECTED: &str =
    "an http(s) URL of a PNG, JPEG, GIF or WebP image, at most 2048 bytes long";

/// Seconds a client is told to wait when every canvas job slot is taken.
pub const RETRY_AFTER_SECS: u32 = 1;

/// Registers the canvas image routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::group("/canvas/filter").get("/canvas/filter/{name}", filter))
        .service(super::group("/canvas/misc").get("/canvas/misc/{name}", misc));
}

/// The avatar fetcher and the bound on concurrent canvas jobs, built once
/// from the settings.
#[derive(Debug)]
pub struct CanvasEngine {
    /// Fetches, decodes and caches avatars.
    pub fetcher: AvatarFetcher,
    running: AtomicUsize,
    max_jobs: usize,
    max_age: u64,
}

impl CanvasEngine {
    /// Builds the fetcher and job limit from the canvas settings.
    pub fn new(settings: &Settings) -> Self {
        if settings.allow_private_avatars {
            tracing::warn!(
                "--allow-private-avatars is on: avatar URLs may reach loopback and private networks"
            );
        }
        let config = FetchConfig {
            allow_private: settings.allow_private_avatars,
            connect_timeout: Duration::from_millis(settings.avatar_connect_timeout_ms),
            overall_timeout: Duration::from_millis(settings.avatar_timeout_ms),
            max_bytes: settings.avatar_max_bytes,
            image: ImageLimits {
                max_side: settings.avatar_max_side,
                ..ImageLimits::default()
            },
            cache_bytes: settings.avatar_cache_mb.saturating_mul(1 << 20),
            cache_ttl: Duration::from_secs(settings.avatar_cache_ttl_secs.max(1)),
            ..FetchConfig::default()
        };
        Self {
            fetcher: AvatarFetcher::new(config),
            running: AtomicUsize::new(0),
            max_jobs: settings.canvas_jobs.max(1),
            max_age: settings.avatar_cache_ttl_secs,
        }
    }

    /// Canvas jobs running now.
    pub fn running_jobs(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Takes a job slot, or `None` when all are taken (never waits).
    fn try_acquire(self: &Arc<Self>) -> Option<JobPermit> {
        let mut current = self.running.load(Ordering::Relaxed);
        loop {
            if current >= self.max_jobs {
                return None;
            }
            match self.running.compare_exchange_weak(
                current,
                current + 1,
                Ordering::AcqRel,
                Ordering::Relaxed,
            ) {
                Ok(_) => return Some(JobPermit(Arc::clone(self))),
                Err(now) => current = now,
            }
        }
    }
}

/// A canvas job slot, given back when dropped (at the end of the blocking
/// job, even if the client has gone).
struct JobPermit(Arc<CanvasEngine>);

impl Drop for JobPermit {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::AcqRel);
    }
}

/// Every query parameter of the canvas image endpoints; each endpoint reads
/// the ones it takes and ignores the rest.
#[derive(Debug, Deserialize)]
pub struct CanvasQuery {
    avatar: Option<String>,
    brightness: Option<String>,
    color: Option<String>,
    threshold: Option<String>,
    dog: Option<String>,
    username: Option<String>,
    birthday: Option<String>,
    description: Option<String>,
    no: Option<String>,
    bottomtext: Option<String>,
    quote: Option<String>,
    displayname: Option<String>,
    comment: Option<String>,
    theme: Option<String>,
}

/// One image to make.
#[derive(Debug, Clone)]
enum Job {
    Filter(Filter),
    Circle,
    Heart,
    Pride(PrideFlag),
    Scene(Scene),
}

impl Job {
    fn uses_avatar(&self) -> bool {
        match self {
            Job::Scene(s) => s.uses_avatar(),
            _ => true,
        }
    }

    fn render(&self, avatar: Option<&RgbaImage>) -> Result<RgbaImage, ApiError> {
        let need = || {
            avatar.ok_or(ApiError::MissingParam {
                name: "avatar",
                expected: AVATAR_EXPECTED,
            })
        };
        Ok(match self {
            Job::Filter(f) => canvas_render::apply(f, need()?)?,
            Job::Circle => canvas_render::circle(need()?)?,
            Job::Heart => canvas_render::heart(need()?)?,
            Job::Pride(flag) => canvas_render::pride(need()?, *flag)?,
            Job::Scene(scene) => render_scene(scene, avatar)?,
        })
    }
}

/// A parameter's value, with absent and blank alike treated as absent.
fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// A text parameter; absent is the empty string.
fn text(value: &Option<String>) -> String {
    value.clone().unwrap_or_default()
}

/// Turns a parameter error of the renderer into a 400 naming the parameter
/// and its accepted range.
fn param_error(e: RenderError) -> ApiError {
    match e {
        RenderError::ParameterNotFinite { name }
        | RenderError::ParameterOutOfRange { name, .. }
        | RenderError::ParameterNotNumber { name } => ApiError::InvalidParam {
            name,
            reason: e.to_string(),
        },
        RenderError::TextTooLong { field, .. } | RenderError::InvalidParameter { field, .. } => {
            ApiError::InvalidParam {
                name: field,
                reason: e.to_string(),
            }
        }
        other => ApiError::Render(other),
    }
}

fn unknown(req: &HttpRequest) -> ApiError {
    ApiError::UnknownPath(req.path().to_owned())
}

fn filter_job(req: &HttpRequest, name: &str, q: &CanvasQuery) -> Result<Job, ApiError> {
    let base = Filter::from_name(name).ok_or_else(|| unknown(req))?;
    let filter = match base {
        Filter::Brightness(_) => match present(&q.brightness) {
            Some(v) => Filter::Brightness(v.parse().map_err(param_error)?),
            None => base,
        },
        Filter::Threshold(_) => match present(&q.threshold) {
            Some(v) => Filter::Threshold(v.parse().map_err(param_error)?),
            None => base,
        },
        Filter::Color(_) => match present(&q.color) {
            Some(v) => Filter::Color(
                Rgb::parse_hex(v)
                    .map_err(|source| ApiError::Colour {
                        name: "color",
                        source,
                    })?
                    .to_array(),
            ),
            None => base,
        },
        other => other,
    };
    Ok(Job::Filter(filter))
}

fn misc_job(req: &HttpRequest, name: &str, q: &CanvasQuery) -> Result<Job, ApiError> {
    if let Some(flag) = PrideFlag::from_name(name) {
        return Ok(Job::Pride(flag));
    }
    let scene = match name {
        "circle" => return Ok(Job::Circle),
        "heart" => return Ok(Job::Heart),
        "horny" => Scene::Horny,
        "its-so-stupid" => Scene::ItsSoStupid { dog: text(&q.dog) },
        "lied" => Scene::Lied { username: None },
        "lolice" => Scene::Lolice,
        "namecard" => Scene::Namecard {
            username: text(&q.username),
            birthday: text(&q.birthday),
            description: text(&q.description),
        },
        "nobitches" => Scene::NoBitches {
            no: text(&q.no),
            bottomtext: text(&q.bottomtext),
        },
        "sage" => Scene::Sage {
            quote: text(&q.quote),
        },
        "sage2" => Scene::Sage2 {
            quote: text(&q.quote),
        },
        "simpcard" => Scene::Simpcard,
        "series" => Scene::Series,
        "post" => Scene::Post(PostParams {
            username: text(&q.username),
            displayname: text(&q.displayname),
            comment: text(&q.comment),
            theme: match present(&q.theme) {
                Some(t) => t.parse::<PostTheme>().map_err(param_error)?,
                None => PostTheme::Light,
            },
            ..PostParams::default()
        }),
        "video-comment" => Scene::VideoComment(VideoCommentParams {
            username: text(&q.username),
            comment: text(&q.comment),
            ..VideoCommentParams::default()
        }),
        _ => return Err(unknown(req)),
    };
    scene.validate().map_err(param_error)?;
    Ok(Job::Scene(scene))
}

async fn filter(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = filter_job(&req, &name, &q)?;
    respond(&req, &state, job, &q).await
}

async fn misc(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = misc_job(&req, &name, &q)?;
    respond(&req, &state, job, &q).await
}

enum Outcome {
    NotModified(String),
    Png(String, Vec<u8>),
}

/// The strong entity tag of an image: the job, the avatar's content digest
/// and the server version (stable for a given build).
fn etag(job: &Job, avatar_digest: Option<u64>) -> String {
    let mut h = DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    format!("{job:?}").hash(&mut h);
    avatar_digest.hash(&mut h);
    format!("\"{:016x}\"", h.finish())
}

/// `If-None-Match` matching (weak comparison, as RFC 9110 asks for it).
fn etag_matches(if_none_match: &str, etag: &str) -> bool {
    if_none_match.trim() == "*"
        || if_none_match
            .split(',')
            .map(|t| t.trim().trim_start_matches("W/"))
            .any(|t| t == etag)
}

async fn respond(
    req: &HttpRequest,
    state: &AppState,
    job: Job,
    q: &CanvasQuery,
) -> Result<HttpResponse, ApiError> {
    let engine = Arc::clone(&state.canvas);
    let avatar_url = if job.uses_avatar() {
        let url = required(&q.avatar, "avatar", AVATAR_EXPECTED)?.to_owned();
        engine.fetcher.parse_url(&url)?;
        Some(url)
    } else {
        // Scenes that draw no avatar ignore it, but one that is given must
        // still be a valid avatar URL: the contract is the same on every
        // canvas endpoint, and hostile input is refused, never passed over.
        if let Some(url) = q.avatar.as_deref() {
            engine.fetcher.parse_url(url.trim())?;
        }
        None
    };
    let if_none_match = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let Some(permit) = engine.try_acquire() else {
        state.metrics.job_rejected(); // (prod) metrics
        return Err(ApiError::Busy {
            retry_after: RETRY_AFTER_SECS,
        });
    };
    let metrics = Arc::clone(&state.metrics); // (prod) metrics
    let outcome = web::block(move || -> Result<Outcome, ApiError> {
        let permit = permit;
        let _job = metrics.job_started(); // (prod) metrics
        let avatar = match &avatar_url {
            // (prod) metrics: cache hit/miss and fetch outcome
            Some(url) => Some(metrics.fetch_avatar(&permit.0.fetcher, url)?),
            None => None,
        };
        let tag = etag(&job, avatar.as_ref().map(|a| a.digest));
        if if_none_match
            .as_deref()
            .is_some_and(|h| etag_matches(h, &tag))
        {
            return Ok(Outcome::NotModified(tag));
        }
        let image = job.render(avatar.as_ref().map(|a| a.image.as_ref()))?;
        let png = canvas_render::encode_png(&image)?;
        Ok(Outcome::Png(tag, png))
    })
    .await
    .map_err(|_| ApiError::JobFailed)??;

    let cache_control = format!("public, max-age={}", engine.max_age);
    Ok(match outcome {
        Outcome::NotModified(tag) => HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache_control))
            .finish(),
        Outcome::Png(tag, png) => HttpResponse::Ok()
            .content_type("image/png")
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache_control))
            .body(png),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_none_match_lists_and_weak_tags_match() {
        let tag = "\"00ff\"";
        assert!(etag_matches("\"00ff\"", tag));
        assert!(etag_matches("\"aa\", W/\"00ff\"", tag));
        assert!(etag_matches("*", tag));
        assert!(!etag_matches("\"00fe\"", tag));
        assert!(!etag_matches("", tag));
    }

    #[test]
    fn etags_differ_by_job_and_avatar() {
        let a = etag(&Job::Filter(Filter::Sepia), Some(1));
        assert_eq!(a, etag(&Job::Filter(Filter::Sepia), Some(1)));
        assert_ne!(a, etag(&Job::Filter(Filter::Sepia), Some(2)));
        assert_ne!(a, etag(&Job::Filter(Filter::Invert), Some(1)));
        assert!(a.starts_with('"') && a.ends_with('"') && !a.starts_with("W/"));
    }
}
