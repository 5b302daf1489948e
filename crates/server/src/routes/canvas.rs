//! The avatar image endpoints: `/canvas/filter/{name}` and
//! `/canvas/misc/{name}`.
//!
//! A handler parses and checks every parameter on the async worker (cheap:
//! a bad parameter is a 400 before any network or CPU work), then takes a
//! canvas job slot from [`CanvasEngine`] or answers 503 with `Retry-After`
//! at once. The job then runs in up to three steps, and holds its slot
//! until the last one ends, even if the client has gone:
//!
//! 1. the avatar: from the decoded-avatar cache on the async worker (about a
//!    microsecond), or else fetched and decoded on the blocking pool with
//!    `web::block`, where a slow avatar host costs a parked thread, never an
//!    HTTP worker or a core;
//! 2. a matching `If-None-Match` gets 304 here, a hit in the cache of
//!    encoded images is answered here, and so is HEAD (without rendering);
//! 3. render and PNG encode on the [`RenderPool`]: one thread per core,
//!    first come first served, so the cores are not time-sliced between
//!    dozens of images and the JSON endpoints keep room to answer.
//!
//! Every image carries a strong `ETag` derived from the endpoint, its
//! parameters, the avatar's content digest and the server version, and
//! `Cache-Control: public, max-age=<avatar cache TTL>`.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::http::{Method, header};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, web};
use canvas_render::scene::{PostParams, PostTheme, Scene, VideoCommentParams, render_scene};
use canvas_render::{Filter, PrideFlag, RenderError, RgbaImage};
use colour::Rgb;
use moka::sync::Cache;
use remote_image::{Avatar, AvatarFetcher, FetchConfig, ImageLimits};
use serde::Deserialize;

use super::required;
use crate::config::Settings;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::render_pool::RenderPool;
use crate::state::AppState;

mod output;

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

/// Encoded images by job and avatar content.
type OutputCache = Cache<(String, Option<u64>), Bytes>;

/// The avatar fetcher, the render threads, the cache of encoded images and
/// the bound on concurrent canvas jobs, built once from the settings.
pub struct CanvasEngine {
    /// Fetches, decodes and caches avatars.
    pub fetcher: AvatarFetcher,
    /// Renders and encodes, one thread per core by default.
    pub pool: RenderPool,
    outputs: Option<OutputCache>,
    running: AtomicUsize,
    max_jobs: usize,
    max_age: u64,
}

impl std::fmt::Debug for CanvasEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CanvasEngine")
            .field("fetcher", &self.fetcher)
            .field("pool", &self.pool)
            .field(
                "output_cache",
                &self.outputs.as_ref().map(|c| c.entry_count()),
            )
            .field("max_jobs", &self.max_jobs)
            .finish_non_exhaustive()
    }
}

impl CanvasEngine {
    /// Builds the fetcher, render threads, output cache and job limit from
    /// the canvas settings. Fails only if the render threads cannot start.
    pub fn new(settings: &Settings) -> std::io::Result<Self> {
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
        let threads = settings.render_threads.unwrap_or_else(|| {
            std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get)
        });
        let outputs = (settings.output_cache_mb > 0).then(|| {
            Cache::builder()
                .max_capacity(settings.output_cache_mb.saturating_mul(1 << 20))
                .time_to_live(Duration::from_secs(settings.avatar_cache_ttl_secs.max(1)))
                .weigher(|key: &(String, Option<u64>), png: &Bytes| {
                    u32::try_from(png.len() + key.0.len() + 64).unwrap_or(u32::MAX)
                })
                .build()
        });
        Ok(Self {
            fetcher: AvatarFetcher::new(config),
            pool: RenderPool::new(threads)?,
            outputs,
            running: AtomicUsize::new(0),
            max_jobs: settings.canvas_jobs.max(1),
            max_age: settings.avatar_cache_ttl_secs,
        })
    }

    /// Canvas jobs running now.
    pub fn running_jobs(&self) -> usize {
        self.running.load(Ordering::Relaxed)
    }

    /// Encoded images in the output cache (0 when it is off), after its
    /// pending bookkeeping has run.
    pub fn cached_outputs(&self) -> u64 {
        self.output_cache_size().1
    }

    /// The output cache's weight in bytes and its entry count (both 0 when
    /// it is off), after its pending bookkeeping has run.
    pub fn output_cache_size(&self) -> (u64, u64) {
        self.outputs.as_ref().map_or((0, 0), |c| {
            c.run_pending_tasks();
            (c.weighted_size(), c.entry_count())
        })
    }

    /// Takes a job slot, or `None` when all are taken (never waits).
    fn try_acquire(self: &Arc<Self>, metrics: &Arc<Metrics>) -> Option<JobPermit> {
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
                Ok(_) => {
                    return Some(JobPermit {
                        engine: Arc::clone(self),
                        _in_flight: metrics.job_started(),
                    });
                }
                Err(now) => current = now,
            }
        }
    }
}

/// A canvas job slot, counted in the jobs-in-flight gauge. It moves with
/// the job into each blocking step, so it is given back when the last step
/// ends, even if the client has gone.
struct JobPermit {
    engine: Arc<CanvasEngine>,
    _in_flight: crate::metrics::JobGuard,
}

impl Drop for JobPermit {
    fn drop(&mut self) {
        self.engine.running.fetch_sub(1, Ordering::AcqRel);
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
    format: Option<String>,
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
        RenderError::ParameterNotFinite { name } | RenderError::ParameterNotNumber { name } => {
            ApiError::InvalidParam {
                name,
                reason: match allowed_range(name) {
                    Some((min, max)) => format!("{name} must be a number between {min} and {max}"),
                    None => e.to_string(),
                },
            }
        }
        RenderError::ParameterOutOfRange { name, .. } => ApiError::InvalidParam {
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

/// The accepted range of a numeric parameter, for error messages.
fn allowed_range(name: &str) -> Option<(f32, f32)> {
    match name {
        "brightness" => Some((
            canvas_render::Brightness::MIN,
            canvas_render::Brightness::MAX,
        )),
        "threshold" => Some((canvas_render::Threshold::MIN, canvas_render::Threshold::MAX)),
        _ => None,
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

/// The strong entity tag of an image: the job (its `Debug` form, which
/// holds every parameter), the avatar's content digest and the server
/// version (stable for a given build).
fn etag_of(job_key: &str, avatar_digest: Option<u64>) -> String {
    let mut h = DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut h);
    job_key.hash(&mut h);
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

/// The avatar of a job: from the cache without leaving the async worker, or
/// fetched on the blocking pool. The permit travels with the fetch and comes
/// back with its result, so a fetch that outlives its client keeps its slot.
async fn avatar_for(
    permit: JobPermit,
    metrics: &Arc<Metrics>,
    url: String,
) -> Result<(JobPermit, Avatar), ApiError> {
    if let Some(avatar) = permit.engine.fetcher.cached(&url) {
        metrics.avatar_cache_hit();
        return Ok((permit, avatar));
    }
    let metrics = Arc::clone(metrics);
    let (permit, avatar) = web::block(move || {
        let avatar = metrics.fetch_avatar(&permit.engine.fetcher, &url);
        (permit, avatar)
    })
    .await
    .map_err(|_| ApiError::JobFailed)?;
    Ok((permit, avatar?))
}

async fn respond(
    req: &HttpRequest,
    state: &AppState,
    job: Job,
    q: &CanvasQuery,
) -> Result<HttpResponse, ApiError> {
    let engine = Arc::clone(&state.canvas);
    let requested = output::requested(q.format.as_deref())?;
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
    let Some(permit) = engine.try_acquire(&state.metrics) else {
        state.metrics.job_rejected();
        return Err(ApiError::Busy {
            retry_after: RETRY_AFTER_SECS,
        });
    };
    let (permit, avatar) = match avatar_url {
        Some(url) => {
            let (permit, avatar) = avatar_for(permit, &state.metrics, url).await?;
            (permit, Some(avatar))
        }
        None => (permit, None),
    };

    let out = output::Output::choose(requested, &job, avatar.as_ref());
    let budget = Duration::from_millis(state.settings.animation_render_ms);
    let extra = match output::weight(&job, avatar.as_ref(), out, engine.max_jobs) - 1 {
        0 => None,
        n => match engine.try_acquire_extra(n) {
            Some(slots) => Some(slots),
            None => {
                state.metrics.job_rejected();
                return Err(ApiError::Busy {
                    retry_after: RETRY_AFTER_SECS,
                });
            }
        },
    };
    let key = (
        out.key(format!("{job:?}")),
        avatar.as_ref().map(|a| a.digest),
    );
    let tag = etag_of(&key.0, key.1);
    let cache_control = format!("public, max-age={}", engine.max_age);
    let if_none_match = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    if if_none_match.is_some_and(|h| etag_matches(h, &tag)) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache_control))
            .finish());
    }
    let png = match engine.outputs.as_ref().and_then(|c| c.get(&key)) {
        Some(png) => {
            state.metrics.output_cache_hit();
            png
        }
        // HEAD learns everything GET would say (status, type, ETag, the
        // avatar's errors) without the render: no Content-Length then.
        None if req.method() == Method::HEAD => {
            return Ok(HttpResponse::Ok()
                .content_type(out.content_type())
                .insert_header((header::ETAG, tag))
                .insert_header((header::CACHE_CONTROL, cache_control))
                .body(actix_web::body::None::new()));
        }
        None => {
            let png = engine
                .pool
                .run(move || -> Result<Bytes, ApiError> {
                    let _permit = (permit, extra);
                    Ok(Bytes::from(output::render(
                        &job,
                        avatar.as_ref(),
                        out,
                        budget,
                    )?))
                })
                .await
                .map_err(|_| ApiError::JobFailed)??;
            if let Some(cache) = &engine.outputs {
                cache.insert(key, png.clone());
            }
            png
        }
    };
    Ok(HttpResponse::Ok()
        .content_type(out.content_type())
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, cache_control))
        .body(png))
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

    fn etag(job: &Job, avatar_digest: Option<u64>) -> String {
        etag_of(&format!("{job:?}"), avatar_digest)
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
