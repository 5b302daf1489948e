//! The avatar image endpoints: `/canvas/filter/{name}`,
//! `/canvas/misc/{name}`, the overlays `/canvas/overlay/{name}` (also
//! `/canvas/overlays/{name}`), the animated `/premium/{name}`, the
//! welcome cards `/welcome/img/{template}/{background}` (also
//! `/canvas/welcome/img/...`) and `/premium/welcome/{template}?bg=`, and
//! the rank cards `/premium/rankcard/{template}`, the memes
//! `/canvas/meme/{name}`, and the captions over any picture
//! `/canvas/caption/{name}` (on `avatar` or `image`), and the animated
//! effects `/canvas/effect/{name}` (`/canvas/misc/spin` is the spin effect).
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
use std::sync::Arc;

use actix_web::{HttpMessage, HttpRequest, HttpResponse, web};
use canvas_render::template::TemplateKind;
use canvas_render::{Filter, RenderError};
use colour::Rgb;

pub use super::canvas_query::CanvasQuery;
use crate::catalogue::{self, Misc};
use crate::conditional;
use crate::engine::AppState;
use crate::engine::canvas::{AVATAR_EXPECTED, Job, TemplateRef, output};
use crate::error::ApiError;
use crate::ratelimit;

/// Registers the canvas image routes.
pub fn configure(cfg: &mut web::ServiceConfig) {
    use catalogue::{
        EFFECT_GROUP, OVERLAY_ALIAS_GROUP, OVERLAY_GROUP, PREMIUM_GROUP, RANKCARD_GROUP,
        WELCOME_ALIAS_GROUP, WELCOME_GROUP,
    };
    cfg.service(super::group(catalogue::FILTER_GROUP).get("/canvas/filter/{name}", filter))
        .service(super::group(catalogue::MISC_GROUP).get("/canvas/misc/{name}", misc))
        .service(
            super::group(OVERLAY_GROUP).get("/canvas/overlay/{name}", |r, s, n, q| {
                in_group(OVERLAY_GROUP, r, s, n, q)
            }),
        )
        .service(
            super::group(OVERLAY_ALIAS_GROUP).get("/canvas/overlays/{name}", |r, s, n, q| {
                in_group(OVERLAY_ALIAS_GROUP, r, s, n, q)
            }),
        )
        .service(
            super::group(WELCOME_GROUP)
                .get("/welcome/img/{template}/{background}", |r, s, p, q| {
                    welcome_in(WELCOME_GROUP, r, s, p, q)
                }),
        )
        .service(super::group(WELCOME_ALIAS_GROUP).get(
            "/canvas/welcome/img/{template}/{background}",
            |r, s, p, q| welcome_in(WELCOME_ALIAS_GROUP, r, s, p, q),
        ))
        .service(super::group(catalogue::CUSTOM_GROUP).get("/canvas/custom/{name}", custom))
        .service(super::group(catalogue::MEME_GROUP).get("/canvas/meme/{name}", meme))
        .service(super::group(catalogue::CAPTION_GROUP).get("/canvas/caption/{name}", caption))
        .service(super::get(catalogue::MESSAGE, message))
        .service(
            super::group(EFFECT_GROUP).get("/canvas/effect/{name}", |r, s, n, q| {
                in_group(EFFECT_GROUP, r, s, n, q)
            }),
        )
        .service(
            super::group(PREMIUM_GROUP)
                .get("/premium/welcome/{template}", premium_welcome)
                .get("/premium/rankcard/{template}", |r, s, n, q| {
                    in_group(RANKCARD_GROUP, r, s, n, q)
                })
                .get("/premium/{name}", |r, s, n, q| {
                    in_group(PREMIUM_GROUP, r, s, n, q)
                }),
        );
}

/// A parameter's value, with absent and blank alike treated as absent.
fn present(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|v| !v.is_empty())
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
        Filter::Brightness(_) => match present(q.get("brightness")) {
            Some(v) => Filter::Brightness(v.parse().map_err(param_error)?),
            None => base,
        },
        Filter::Threshold(_) => match present(q.get("threshold")) {
            Some(v) => Filter::Threshold(v.parse().map_err(param_error)?),
            None => base,
        },
        Filter::Color(_) => match present(q.get("color")) {
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
    match Misc::from_name(name).ok_or_else(|| unknown(req))? {
        Misc::Circle => Ok(Job::Circle),
        Misc::Heart => Ok(Job::Heart),
        Misc::Pride(flag) => Ok(Job::Pride(flag)),
        // A misc image that is a template reads its parameters by its specs.
        Misc::Template(kind) => template_args(kind, q),
    }
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
        .args_with(|n| q.get(n), |v| Rgb::parse_hex(v).ok().map(Rgb::to_array))
        .map_err(param_error)?;
    Ok(Job::Template(kind.into(), args))
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
            catalogue::WELCOME_PATH_PARAM => background,
            other => q.get(other),
        })
        .map_err(param_error)?;
    Ok(Job::Template(kind.into(), args))
}

/// A template of `group` named by the path (an overlay, an effect, a rank
/// card...), every parameter from the query: the handler of every route
/// that needs nothing more.
async fn in_group(
    group: &'static str,
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = template_job(&req, group, &name, &q)?;
    respond(&req, &state, job, &q).await
}

/// A welcome card of `group` by template and background from the path.
async fn welcome_in(
    group: &'static str,
    req: HttpRequest,
    state: web::Data<AppState>,
    path: web::Path<(String, String)>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let (template, background) = path.into_inner();
    let job = welcome_job(&req, group, &template, Some(&background), &q)?;
    respond(&req, &state, job, &q).await
}

async fn premium_welcome(
    req: HttpRequest,
    state: web::Data<AppState>,
    template: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = welcome_job(&req, catalogue::PREMIUM_WELCOME, &template, None, &q)?;
    let bg = second_image(&state, &q, job.image_source().unwrap_or("bg"))?;
    respond_with_image(&req, &state, job, &q, Some(bg)).await
}

/// The required second picture `param` (a card's `bg`, a meme's `avatar2`):
/// its URL parsed like `avatar`'s, errors naming `param`.
fn second_image(
    state: &AppState,
    q: &CanvasQuery,
    param: &'static str,
) -> Result<(&'static str, remote_image::AvatarUrl), ApiError> {
    let url = q.required(param, AVATAR_EXPECTED)?;
    let image = state
        .canvas
        .parse_avatar(url)
        .map_err(|source| ApiError::Image { param, source })?;
    Ok((param, image))
}

/// A meme (`/canvas/meme/{name}`). One that draws a second picture (the
/// two-avatar memes) requires it, `avatar2`, checked and fetched like
/// `avatar`; a parameter the server draws from the pair
/// ([`catalogue::pair_seeded`]: `ship`'s `percent`) takes, when absent,
/// the value the two URLs give.
async fn meme(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let kind = catalogue::template(catalogue::MEME_GROUP, &name).ok_or_else(|| unknown(&req))?;
    let template = kind.template();
    let Some(param) = template.image_source() else {
        let job = template_args(kind, &q)?;
        return respond(&req, &state, job, &q).await;
    };
    let seeded = catalogue::pair_seeded(kind)
        .filter(|p| present(q.get(p)).is_none())
        .and_then(|p| {
            let a = present(q.get("avatar"))?;
            let b = present(q.get(param))?;
            Some((p, canvas_render::template::ship_percent(a, b).to_string()))
        });
    let args = template
        .args_with(
            |n| match &seeded {
                Some((p, v)) if *p == n => Some(v.as_str()),
                _ => q.get(n),
            },
            |v| Rgb::parse_hex(v).ok().map(Rgb::to_array),
        )
        .map_err(param_error)?;
    let job = Job::Template(kind.into(), args);
    let image = second_image(&state, &q, param)?;
    respond_with_image(&req, &state, job, &q, Some(image)).await
}

/// An operator's template (`--templates`), from the set served now.
async fn custom(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let set = state.templates.current();
    let t = set.get(&name).ok_or_else(|| unknown(&req))?;
    req.extensions_mut().insert(super::RouteLabel(
        format!("{}/{}", catalogue::CUSTOM_GROUP, t.name).into(),
    ));
    let specs = catalogue::template_query_params(catalogue::CUSTOM_GROUP, t.template);
    q.check_once(specs.map(|s| s.name))?;
    let args = t
        .template
        .args_with(|n| q.get(n), |v| Rgb::parse_hex(v).ok().map(Rgb::to_array))
        .map_err(param_error)?;
    let job = Job::Template(TemplateRef::File(Arc::clone(t)), args);
    match job.image_source() {
        Some(param) => {
            let image = second_image(&state, &q, param)?;
            respond_with_image(&req, &state, job, &q, Some(image)).await
        }
        None => respond(&req, &state, job, &q).await,
    }
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

/// A caption over any picture: the picture is `avatar` or `image`
/// (exactly one; both or neither is a 400 naming them), fetched through
/// the same guarded fetcher, its errors naming the parameter it came in.
async fn caption(
    req: HttpRequest,
    state: web::Data<AppState>,
    name: web::Path<String>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let job = template_job(&req, catalogue::CAPTION_GROUP, &name, &q)?;
    let image = catalogue::CAPTION_IMAGE_PARAM;
    let (param, url) = match (present(q.get("avatar")), present(q.get(image))) {
        (Some(url), None) => ("avatar", url),
        (None, Some(url)) => (image, url),
        (Some(_), Some(_)) => return Err(ApiError::BadRequest(CAPTION_PICTURE_BOTH)),
        (None, None) => return Err(ApiError::BadRequest(CAPTION_PICTURE_NONE)),
    };
    let url = state
        .canvas
        .parse_avatar(url.trim())
        .map_err(|source| named(ApiError::Avatar(source), param))?;
    respond_with_sources(&req, &state, job, &q, Some((param, url)), None).await
}

/// The 400s of a caption given both pictures or none.
const CAPTION_PICTURE_BOTH: &str =
    "give the picture as exactly one of `avatar` or `image`, not both";
const CAPTION_PICTURE_NONE: &str =
    "a caption needs a picture: exactly one of `avatar` or `image` (an image URL)";

/// The chat message card: `text` is required, and `reply_text` needs
/// `reply_username` (the line shows whose message it quotes).
async fn message(
    req: HttpRequest,
    state: web::Data<AppState>,
    q: web::Query<CanvasQuery>,
) -> Result<HttpResponse, ApiError> {
    let template = TemplateKind::Message.template();
    for spec in template.params {
        if catalogue::is_required(template, spec.name) {
            q.required(spec.name, spec.expected)?;
        }
    }
    if present(q.get("reply_text")).is_some() && present(q.get("reply_username")).is_none() {
        return Err(ApiError::MissingParam {
            name: "reply_username",
            expected: "the name of the message replied to, given with reply_text",
        });
    }
    let job = template_job(&req, catalogue::CANVAS_ROOT, "message", &q)?;
    respond(&req, &state, job, &q).await
}

/// An error about the avatar, named after the parameter its URL came in.
fn named(e: ApiError, param: &'static str) -> ApiError {
    match e {
        ApiError::Avatar(source) if param != "avatar" => ApiError::Image { param, source },
        other => other,
    }
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
        let url = q.required("avatar", AVATAR_EXPECTED)?;
        Some(("avatar", engine.parse_avatar(url)?))
    } else {
        // Scenes that draw no avatar ignore it, but one that is given must
        // still be a valid avatar URL: the contract is the same on every
        // canvas endpoint, and hostile input is refused, never passed over.
        if let Some(url) = q.get("avatar") {
            engine.parse_avatar(url.trim())?;
        }
        None
    };
    respond_with_sources(req, state, job, q, avatar, image).await
}

/// [`respond_with_image`] with the avatar's URL given, with the name of
/// the parameter it came in (errors about it name that parameter).
async fn respond_with_sources(
    req: &HttpRequest,
    state: &AppState,
    job: Job,
    q: &CanvasQuery,
    avatar: Option<(&'static str, remote_image::AvatarUrl)>,
    image: Option<(&'static str, remote_image::AvatarUrl)>,
) -> Result<HttpResponse, ApiError> {
    let engine = &state.canvas;
    let (param, avatar) = match avatar {
        Some((param, url)) => (param, Some(url)),
        None => ("avatar", None),
    };
    let accept = req
        .headers()
        .get_all(header::ACCEPT)
        .filter_map(|v| v.to_str().ok());
    let format = output::negotiated(q.get("format"), q.get("quality"), accept)?;
    let client = ratelimit::client_of(
        state.rate_limiter.as_deref(),
        &state.settings.trusted_proxies,
        req,
    );
    let ticket = engine
        .start_with_image(client, job, avatar, image, format)
        .await
        .map_err(|e| named(e, param))?;
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
        None => ticket.render().await.map_err(|e| named(e, param))?,
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

/// The sample parameters every preview of a filter or misc scene is drawn
/// with: each endpoint reads the ones it takes, as from a request. No
/// avatar: previews use canvas-render's sample avatar, never a fetch.
const SAMPLE_QUERY: &[(&str, &str)] = &[
    ("color", "6246EA"),
    ("dog", "Foxes are just cats that went to college"),
    ("username", "Ada"),
    ("birthday", "10 December"),
    (
        "description",
        "Writes the first programs; likes looms and algebra",
    ),
    ("no", "no bugs?"),
    ("bottomtext", "ship it"),
    ("quote", "Patience is a form of action."),
    ("displayname", "Ada Lovelace"),
    (
        "comment",
        "The engine weaves algebraic patterns just as the loom weaves flowers and leaves.",
    ),
    ("replies", "42"),
    ("likes", "12300"),
    ("retweets", "1337"),
];

/// The job of `endpoint`'s preview: the endpoint's own parsing of the
/// sample parameters (`SAMPLE_QUERY`); a template takes its own
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
        return Ok(Some(Job::Template(
            kind.into(),
            kind.sample_args_with(&fixed),
        )));
    }
    let q = CanvasQuery::of(SAMPLE_QUERY);
    let job = match endpoint.group {
        catalogue::FILTER_GROUP => filter_job(req, endpoint.name, &q)?,
        catalogue::MISC_GROUP => misc_job(req, endpoint.name, &q)?,
        catalogue::COLORVIEWER => return Ok(None),
        _ => return Err(unknown(req)),
    };
    Ok(Some(job))
}
