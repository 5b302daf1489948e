//! The avatar image endpoints: `/canvas/filter/{name}`,
//! `/canvas/misc/{name}`, the overlays `/canvas/overlay/{name}` (also
//! `/canvas/overlays/{name}`), the animated `/premium/{name}`, the
//! welcome cards `/welcome/img/{template}/{background}` (also
//! `/canvas/welcome/img/...`) and `/premium/welcome/{template}?bg=`, and
//! the rank cards `/premium/rankcard/{template}`.
//!
//! A handler parses and checks every parameter on the async worker (cheap:
//! a bad parameter is a 400 before any network or CPU work) into a
//! [`Job`] and an [`AvatarUrl`](remote_image::AvatarUrl), names looked up in
//! the [`catalogue`], and hands them to the [`CanvasEngine`](crate::engine::canvas::CanvasEngine),
//! which takes a job slot (or refuses: 503 with `Retry-After`) and gets the
//! avatar. A matching `If-None-Match` gets 304 and HEAD its headers without
//! rendering; otherwise the image comes from the output cache or is
//! rendered on the render pool.
//!
//! Every image carries the strong `ETag` the engine gives it (endpoint,
//! parameters, the avatar's content digest, server version) and
//! `Cache-Control: public, max-age=<avatar cache TTL>`.

use actix_web::http::{Method, header};
use actix_web::{HttpRequest, HttpResponse, web};
use canvas_render::scene::{Scene, SceneKind};
use canvas_render::template::TemplateKind;
use canvas_render::{Filter, RenderError};
use colour::Rgb;
use serde::Deserialize;

use super::required;
use crate::catalogue::{self, Misc};
use crate::conditional;
use crate::engine::AppState;
use crate::engine::canvas::{AVATAR_EXPECTED, Job, output};
use crate::error::ApiError;
use crate::ratelimit;

/// Registers the canvas image routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.service(super::group(catalogue::FILTER_GROUP).get("/canvas/filter/{name}", filter))
        .service(super::group(catalogue::MISC_GROUP).get("/canvas/misc/{name}", misc))
        .service(super::group(catalogue::OVERLAY_GROUP).get("/canvas/overlay/{name}", overlay))
        .service(
            super::group(catalogue::OVERLAY_ALIAS_GROUP)
                .get("/canvas/overlays/{name}", overlay_alias),
        )
        .service(
            super::group(catalogue::WELCOME_GROUP)
                .get("/welcome/img/{template}/{background}", welcome),
        )
        .service(
            super::group(catalogue::WELCOME_ALIAS_GROUP)
                .get("/canvas/welcome/img/{template}/{background}", welcome_alias),
        )
        .service(
            super::group(catalogue::PREMIUM_GROUP)
                .get("/premium/welcome/{template}", premium_welcome)
                .get("/premium/rankcard/{template}", rankcard)
                .get("/premium/{name}", premium),
        );
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
    replies: Option<String>,
    likes: Option<String>,
    retweets: Option<String>,
    delay: Option<String>,
    impostor: Option<String>,
    custom: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    textcolor: Option<String>,
    #[serde(rename = "guildName")]
    guild_name: Option<String>,
    #[serde(rename = "memberCount")]
    member_count: Option<String>,
    bg: Option<String>,
    discriminator: Option<String>,
    cxp: Option<String>,
    nxp: Option<String>,
    level: Option<String>,
    rank: Option<String>,
    cbg: Option<String>,
    ccxp: Option<String>,
    cbar: Option<String>,
    ctext: Option<String>,
    ctag: Option<String>,
    format: Option<String>,
    quality: Option<String>,
}

impl CanvasQuery {
    /// The raw value of a template parameter, by name.
    fn template_param(&self, name: &str) -> Option<&str> {
        match name {
            "username" => self.username.as_deref(),
            "displayname" => self.displayname.as_deref(),
            "comment" => self.comment.as_deref(),
            "theme" => self.theme.as_deref(),
            "replies" => self.replies.as_deref(),
            "likes" => self.likes.as_deref(),
            "retweets" => self.retweets.as_deref(),
            "delay" => self.delay.as_deref(),
            "impostor" => self.impostor.as_deref(),
            "custom" => self.custom.as_deref(),
            "type" => self.kind.as_deref(),
            "textcolor" => self.textcolor.as_deref(),
            "guildName" => self.guild_name.as_deref(),
            "memberCount" => self.member_count.as_deref(),
            "discriminator" => self.discriminator.as_deref(),
            "cxp" => self.cxp.as_deref(),
            "nxp" => self.nxp.as_deref(),
            "level" => self.level.as_deref(),
            "rank" => self.rank.as_deref(),
            "cbg" => self.cbg.as_deref(),
            "ccxp" => self.ccxp.as_deref(),
            "cbar" => self.cbar.as_deref(),
            "ctext" => self.ctext.as_deref(),
            "ctag" => self.ctag.as_deref(),
            _ => None,
        }
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
    let kind = match Misc::from_name(name).ok_or_else(|| unknown(req))? {
        Misc::Circle => return Ok(Job::Circle),
        Misc::Heart => return Ok(Job::Heart),
        Misc::Pride(flag) => return Ok(Job::Pride(flag)),
        Misc::Scene(kind) => kind,
        Misc::Template(kind) => return template_args(kind, q),
    };
    let scene = match kind {
        SceneKind::Horny => Scene::Horny,
        SceneKind::ItsSoStupid => Scene::its_so_stupid(text(&q.dog)),
        SceneKind::Lied => Scene::lied(q.username.clone().filter(|u| !u.trim().is_empty())),
        SceneKind::Lolice => Scene::Lolice,
        SceneKind::Namecard => {
            Scene::namecard(text(&q.username), text(&q.birthday), text(&q.description))
        }
        SceneKind::NoBitches => Scene::nobitches(text(&q.no), text(&q.bottomtext)),
        SceneKind::Sage => Scene::sage(text(&q.quote)),
        SceneKind::Sage2 => Scene::sage2(text(&q.quote)),
        SceneKind::Simpcard => Scene::Simpcard,
        SceneKind::Series => Scene::Series,
        // A kind added to canvas-render before it has a URL name here.
        _ => return Err(unknown(req)),
    };
    scene.validate().map_err(param_error)?;
    Ok(Job::Scene(scene))
}

fn template_job(
    req: &HttpRequest,
    group: &str,
    name: &str,
    q: &CanvasQuery,
) -> Result<Job, ApiError> {
    let kind = catalogue::template(group, name).ok_or_else(|| unknown(req))?;
    template_args(kind, q)
}

/// The job of template `kind`, its parameters read from the query.
fn template_args(kind: TemplateKind, q: &CanvasQuery) -> Result<Job, ApiError> {
    // Colour parameters take the forms of `color` everywhere else.
    let args = kind
        .template()
        .args_with(
            |n| q.template_param(n),
            |v| Rgb::parse_hex(v).ok().map(Rgb::to_array),
        )
        .map_err(param_error)?;
    Ok(Job::Template(kind, args))
}

/// A welcome card: the template by number, the background by name from
/// the path (`None` on the custom-background path), every other parameter
/// from the query. An unknown template or background is a 404, as any
/// unknown image name.
fn welcome_job(
    req: &HttpRequest,
    group: &str,
    template: &str,
    background: Option<&str>,
    q: &CanvasQuery,
) -> Result<Job, ApiError> {
    let kind = catalogue::template(group, template).ok_or_else(|| unknown(req))?;
    if background.is_some_and(|b| !catalogue::is_welcome_background(b)) {
        return Err(unknown(req));
    }
    let args = kind
        .template()
        .args(|n| match n {
            "background" => background,
            other => q.template_param(other),
        })
        .map_err(param_error)?;
    Ok(Job::Template(kind, args))
}

async fn welcome(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let (template, background) = path.into_inner();
    let job = welcome_job(
        &req,
        catalogue::WELCOME_GROUP,
        &template,
        Some(&background),
        &q,
    )?;
    respond(&req, &state, job, &q).await
}

async fn welcome_alias(
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let (template, background) = path.into_inner();
    let job = welcome_job(
        &req,
        catalogue::WELCOME_ALIAS_GROUP,
        &template,
        Some(&background),
        &q,
    )?;
    respond(&req, &state, job, &q).await
}

async fn premium_welcome(
    req: HttpRequest,
    state: web::Data<AppState>,
    template: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = welcome_job(&req, catalogue::PREMIUM_WELCOME, &template, None, &q)?;
    let param = job.image_source().unwrap_or("bg");
    let url = required(&q.bg, param, AVATAR_EXPECTED)?;
    let bg = state
        .canvas
        .parse_avatar(url)
        .map_err(|source| ApiError::Image { param, source })?;
    respond_with_image(&req, &state, job, &q, Some((param, bg))).await
}

async fn overlay(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = template_job(&req, catalogue::OVERLAY_GROUP, &name, &q)?;
    respond(&req, &state, job, &q).await
}

async fn overlay_alias(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = template_job(&req, catalogue::OVERLAY_ALIAS_GROUP, &name, &q)?;
    respond(&req, &state, job, &q).await
}

async fn premium(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = template_job(&req, catalogue::PREMIUM_GROUP, &name, &q)?;
    respond(&req, &state, job, &q).await
}

async fn rankcard(
    req: HttpRequest,
    state: web::Data<AppState>,
    template: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = template_job(&req, catalogue::RANKCARD_GROUP, &template, &q)?;
    respond(&req, &state, job, &q).await
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

async fn respond(
    req: &HttpRequest,
    state: &AppState,
    job: Job,
    q: &CanvasQuery,
) -> Result<HttpResponse, ApiError> {
    respond_with_image(req, state, job, q, None).await
}

/// [`respond`] for a job that also draws a second image (its parameter's
/// name and parsed URL), fetched by the engine like the avatar.
async fn respond_with_image(
    req: &HttpRequest,
    state: &AppState,
    job: Job,
    q: &CanvasQuery,
    image: Option<(&'static str, remote_image::AvatarUrl)>,
) -> Result<HttpResponse, ApiError> {
    let engine = &state.canvas;
    let avatar = if job.uses_avatar() {
        let url = required(&q.avatar, "avatar", AVATAR_EXPECTED)?;
        Some(engine.parse_avatar(url)?)
    } else {
        // Scenes that draw no avatar ignore it, but one that is given must
        // still be a valid avatar URL: the contract is the same on every
        // canvas endpoint, and hostile input is refused, never passed over.
        if let Some(url) = q.avatar.as_deref() {
            engine.parse_avatar(url.trim())?;
        }
        None
    };
    let accept = req
        .headers()
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok());
    let format = output::negotiated(q.format.as_deref(), q.quality.as_deref(), accept)?;
    let client = ratelimit::client_of(
        state.rate_limiter.as_deref(),
        &state.settings.trusted_proxies,
        req,
    );
    let ticket = engine
        .start_with_image(client, job, avatar, image, format)
        .await?;
    let content_type = ticket.content_type();

    let tag = ticket.etag().to_owned();
    let cache_control = format!("public, max-age={}", engine.max_age());
    let if_none_match = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok());
    if if_none_match.is_some_and(|h| conditional::none_match(h, &tag)) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .insert_header((header::CACHE_CONTROL, cache_control))
            .insert_header(VARY_ACCEPT)
            .finish());
    }
    let png = match ticket.cached_image() {
        Some(png) => png,
        // HEAD learns everything GET would say (status, type, ETag, the
        // avatar's errors) without the render: no Content-Length then.
        None if req.method() == Method::HEAD => {
            return Ok(HttpResponse::Ok()
                .content_type(content_type)
                .insert_header((header::ETAG, tag))
                .insert_header((header::CACHE_CONTROL, cache_control))
                .insert_header(VARY_ACCEPT)
                .body(actix_web::body::None::new()));
        }
        None => ticket.render().await?,
    };
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, cache_control))
        .insert_header(VARY_ACCEPT)
        .body(png))
}

/// Every canvas image may differ by `Accept` (WebP for those that name it).
const VARY_ACCEPT: (header::HeaderName, header::HeaderValue) =
    (header::VARY, header::HeaderValue::from_static("accept"));

impl CanvasQuery {
    /// The sample parameters every preview is drawn with: each endpoint
    /// reads the ones it takes, as from a request. No avatar: previews use
    /// canvas-render's sample avatar, never a fetch.
    fn sample() -> CanvasQuery {
        let s = |v: &str| Some(v.to_owned());
        CanvasQuery {
            avatar: None,
            brightness: None,
            color: s("6246EA"),
            threshold: None,
            dog: s("Foxes are just cats that went to college"),
            username: s("Ada"),
            birthday: s("10 December"),
            description: s("Writes the first programs; likes looms and algebra"),
            no: s("no bugs?"),
            bottomtext: s("ship it"),
            quote: s("Patience is a form of action."),
            displayname: s("Ada Lovelace"),
            comment: s(
                "The engine weaves algebraic patterns just as the loom weaves flowers and leaves.",
            ),
            theme: None,
            replies: s("42"),
            likes: s("12300"),
            retweets: s("1337"),
            delay: None,
            impostor: None,
            custom: None,
            discriminator: None,
            cxp: None,
            nxp: None,
            level: None,
            rank: None,
            cbg: None,
            ccxp: None,
            cbar: None,
            ctext: None,
            ctag: None,
            kind: None,
            textcolor: None,
            guild_name: s("Analytical Engines"),
            member_count: s("1843"),
            bg: None,
            format: None,
            quality: None,
        }
    }
}

/// The job of `endpoint`'s preview: the endpoint's own parsing of the
/// sample parameters (`CanvasQuery::sample`); a template takes its own
/// sample arguments (`TemplateKind::sample_args_with`), with the values of
/// the path parameters that pick the image (a welcome card's background). `None` for an image
/// that is no canvas job (the colour square).
pub fn preview_job(
    req: &HttpRequest,
    endpoint: &catalogue::ImageEndpoint,
) -> Result<Option<Job>, ApiError> {
    // A template first, whatever its group.
    // The path's other parameters (a welcome card's background) are fixed.
    if let Some(kind) = catalogue::template(endpoint.group, endpoint.name) {
        if endpoint
            .background()
            .is_some_and(|b| !catalogue::is_welcome_background(b))
        {
            return Err(unknown(req));
        }
        let fixed: Vec<(&str, &str)> = endpoint
            .path_params
            .iter()
            .filter(|(n, _)| *n != "template")
            .copied()
            .collect();
        return Ok(Some(Job::Template(kind, kind.sample_args_with(&fixed))));
    }
    let q = CanvasQuery::sample();
    let job = match endpoint.group {
        catalogue::FILTER_GROUP => filter_job(req, endpoint.name, &q)?,
        catalogue::MISC_GROUP => misc_job(req, endpoint.name, &q)?,
        catalogue::COLORVIEWER => return Ok(None),
        _ => return Err(unknown(req)),
    };
    Ok(Some(job))
}
