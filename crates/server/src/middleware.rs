//! The middleware every request passes, outermost first: [`Observe`],
//! [`Compression`], [`Hygiene`] (then the routes). Each is a `Transform`
//! whose future is a plain struct or enum around the inner one: no boxed
//! future per layer and request (as `from_fn` middleware costs).
//!
//! [`Observe`] (outermost) first normalises the request's path
//! ([`normalise_path`]: percent-encoded unreserved characters decoded, so
//! every path-keyed decision after it sees the path the router sees), then
//! counts every request in [`Metrics`] by route pattern and status, with its
//! latency, and writes its request-log line ([`telemetry::log_request`]).
//!
//! [`Compression`] is actix's `Compress`, skipped for requests that send no
//! `Accept-Encoding` (which it would pass through unchanged) and for those
//! whose `Accept-Encoding` refuses every coding, identity included (which it
//! would answer with a plain-text 406): they are answered uncompressed.
//!
//! [`Hygiene`] (inside compression, outside routing):
//! * refuses a request target longer than `--max-uri-bytes` (414 JSON),
//!   request headers above [`MAX_HEADER_BYTES`] in total (431 JSON) and a
//!   query with invalid percent-encoding (400 JSON); heads the HTTP codec
//!   would refuse with an empty body (over 128 KiB or 96 headers, malformed,
//!   `Content-Length` with `Transfer-Encoding`) are refused before it by
//!   [`http_guard`](crate::http_guard);
//! * answers CORS preflights (`OPTIONS`) with 204 for any origin: the API is
//!   public and read-only, so `Access-Control-Allow-Origin: *` on everything;
//! * rate limiting, when on ([`RateLimiter::admit`]): a refused request is
//!   answered here (429/401), an allowed one gets its `RateLimit` headers;
//! * gives deterministic responses (`Cache-Control: public…`, 200, GET/HEAD)
//!   an `ETag` computed from the body when the handler set none (weak for
//!   compressible bodies, since gzip/brotli change the bytes; strong for
//!   images), and answers a matching `If-None-Match` with 304;
//! * adds security headers: `X-Content-Type-Options: nosniff`,
//!   `Referrer-Policy: no-referrer`, `X-Frame-Options: DENY`,
//!   `Cross-Origin-Resource-Policy: cross-origin` (images are meant to be
//!   embedded elsewhere) and, unless the handler chose one (the playground
//!   does), `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'`.
//!
//! Compression (gzip/brotli for JSON and text, never PNG) is actix's own
//! `Compress` (through [`Compression`]), wrapped outside `Hygiene` so that
//! ETags hash the identity body.
//! Each header is a static value: no allocation per request except the
//! ETag's few bytes on deterministic responses.

use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

use actix_http::encoding::Encoder;
use actix_web::body::{BoxBody, EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header::{self, Encoding, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode, Uri};
use actix_web::middleware::Compress;
use actix_web::{HttpMessage, HttpResponse, ResponseError};
use pin_project_lite::pin_project;

use crate::conditional;
use crate::engine::AppState;
use crate::error::ApiError;
use crate::metrics::{Metrics, UNMATCHED};
use crate::ratelimit::{Admission, PendingAdmission, RateLimitHeaders, RateLimiter};
use crate::routing::{RouteLabel, RouteName};
use crate::telemetry;

/// Most bytes of request headers (names and values) accepted in total.
pub const MAX_HEADER_BYTES: usize = 16 * 1024;

/// Headers a browser may read from a cross-origin response.
const EXPOSED: &str = "ETag, RateLimit, RateLimit-Policy, Retry-After";

/// The outermost middleware: counts the request in the metrics registry by
/// route pattern and status, with its latency, and writes its request-log
/// line ([`telemetry::log_request`]); one timing serves both.
///
/// A `Transform` of its own rather than `from_fn`: its future is a plain
/// struct around the inner one, with no box and no `Next` per request.
#[derive(Debug, Clone)]
pub struct Observe {
    metrics: Arc<Metrics>,
}

impl Observe {
    /// Records into `metrics`.
    pub fn new(metrics: Arc<Metrics>) -> Self {
        Self { metrics }
    }
}

impl<S, B> Transform<S, ServiceRequest> for Observe
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Transform = ObserveService<S>;
    type InitError = ();
    type Future = std::future::Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, inner: S) -> Self::Future {
        std::future::ready(Ok(ObserveService {
            inner,
            metrics: Arc::clone(&self.metrics),
        }))
    }
}

/// The service [`Observe`] builds.
#[derive(Debug)]
pub struct ObserveService<S> {
    inner: S,
    metrics: Arc<Metrics>,
}

impl<S, B> Service<ServiceRequest> for ObserveService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Future = ObserveFuture<S::Future>;

    actix_web::dev::forward_ready!(inner);

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        normalise_path(&mut req);
        // Only a failed request has no response to read these from; the
        // clones share the request's bytes.
        let (method, uri) = (req.method().clone(), req.uri().clone());
        self.metrics.request_started();
        ObserveFuture {
            start: Instant::now(),
            inner: self.inner.call(req),
            metrics: Arc::clone(&self.metrics),
            method,
            uri,
        }
    }
}

pin_project! {
    /// The future of an [`ObserveService`] call.
    #[derive(Debug)]
    pub struct ObserveFuture<F> {
        #[pin]
        inner: F,
        start: Instant,
        metrics: Arc<Metrics>,
        method: Method,
        uri: Uri,
    }
}

impl<F, B> Future for ObserveFuture<F>
where
    F: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let res = ready!(this.inner.poll(cx));
        let elapsed = this.start.elapsed();
        this.metrics.request_finished();
        record(this.metrics, &res, elapsed);
        telemetry::log_request(&res, this.method, this.uri, elapsed);
        Poll::Ready(res)
    }
}

/// Decodes percent-encoded unreserved characters (`A`–`Z`, `a`–`z`,
/// `0`–`9`, `-`, `.`, `_`, `~`) in the request's path, the one
/// normalisation every path-keyed decision sees: RFC 3986 §6.2.2.2 makes
/// `/canvas/%6Disc/circle` and `/canvas/misc/circle` the same path, and the
/// router decodes them alike, so the rate-limit class, the metrics label,
/// the log line and the 404 message must too. Called first by [`Observe`],
/// the outermost middleware; the request's URI and the router's copy of the
/// path are replaced, so everything after it reads the normalised path.
///
/// Other escapes stay as they are (`%2F` is not a path separator, `%25` not
/// a new escape). A path without `%` costs one scan and no allocation.
pub fn normalise_path(req: &mut ServiceRequest) {
    let Some(path) = decode_unreserved(req.path()) else {
        return;
    };
    let target = match req.uri().query() {
        Some(query) => format!("{path}?{query}"),
        None => path,
    };
    let mut parts = req.uri().clone().into_parts();
    let Ok(path_and_query) = target.parse() else {
        return;
    };
    parts.path_and_query = Some(path_and_query);
    let Ok(uri) = Uri::from_parts(parts) else {
        return;
    };
    req.match_info_mut().get_mut().update(&uri);
    req.head_mut().uri = uri;
}

/// `path` with each `%XX` that encodes an unreserved character decoded;
/// `None` when there is none.
pub fn decode_unreserved(path: &str) -> Option<String> {
    let b = path.as_bytes();
    let escaped = |at: usize| -> Option<u8> {
        let hex = |c: u8| (c as char).to_digit(16);
        let byte = hex(*b.get(at + 1)?)? * 16 + hex(*b.get(at + 2)?)?;
        let byte = u8::try_from(byte).ok()?;
        (byte.is_ascii_alphanumeric() || matches!(byte, b'-' | b'.' | b'_' | b'~')).then_some(byte)
    };
    let first = (0..b.len()).find(|&at| b[at] == b'%' && escaped(at).is_some())?;
    let mut out = String::with_capacity(b.len());
    out.push_str(&path[..first]);
    let mut at = first;
    while at < b.len() {
        match (b[at], escaped(at)) {
            (b'%', Some(byte)) => {
                out.push(char::from(byte));
                at += 3;
            }
            _ => {
                let next = b[at + 1..]
                    .iter()
                    .position(|c| *c == b'%')
                    .map_or(b.len(), |n| at + 1 + n);
                out.push_str(&path[at..next]);
                at = next;
            }
        }
    }
    Some(out)
}

fn record<B>(m: &Metrics, res: &Result<ServiceResponse<B>, actix_web::Error>, elapsed: Duration) {
    match res {
        Ok(r) => {
            let rq = r.request();
            let status = r.status().as_u16();
            // A routed request carries its route's name (or a finer label
            // its handler gave); one that never reached a route (414, 431,
            // preflight, 429) is matched again.
            if let Some(RouteLabel(label)) = rq.extensions().get::<RouteLabel>() {
                m.record_request(label, status, elapsed);
                return;
            }
            match rq.app_data::<RouteName>() {
                Some(RouteName(name)) => m.record_request(name, status, elapsed),
                None => match rq.match_name() {
                    Some(name) => m.record_request(name, status, elapsed),
                    None => match rq.match_pattern() {
                        Some(p) => m.record_request(&p, status, elapsed),
                        None => m.record_request(UNMATCHED, status, elapsed),
                    },
                },
            }
        }
        Err(e) => m.record_request(
            UNMATCHED,
            e.as_response_error().status_code().as_u16(),
            elapsed,
        ),
    }
}

/// actix's [`Compress`], bypassed for a request without `Accept-Encoding`.
///
/// For such a request `Compress` picks the identity encoding: the response
/// passes unchanged (no `Content-Encoding`, no `Vary`), after `Compress`
/// has parsed its media type and wrapped its body in a no-op encoder. Here
/// the inner service answers it directly, with the same bytes and headers;
/// every request that does send `Accept-Encoding` goes through `Compress`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Compression;

/// The body of a [`Compression`] response: through `Compress`, or untouched.
pub type CompressionBody<B> = EitherBody<EitherBody<Encoder<B>>, B>;

impl<S, B> Transform<S, ServiceRequest> for Compression
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + Unpin + 'static,
{
    type Response = ServiceResponse<CompressionBody<B>>;
    type Error = actix_web::Error;
    type Transform = CompressionService<S, B>;
    type InitError = ();
    type Future = std::future::Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        let inner = Rc::new(service);
        let compress = Compress::default()
            .new_transform(Rc::clone(&inner))
            .into_inner();
        std::future::ready(compress.map(|compress| CompressionService { inner, compress }))
    }
}

/// The service [`Compression`] builds.
pub struct CompressionService<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    inner: Rc<S>,
    compress: <Compress as Transform<Rc<S>, ServiceRequest>>::Transform,
}

impl<S, B> std::fmt::Debug for CompressionService<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("CompressionService")
    }
}

impl<S, B> Service<ServiceRequest> for CompressionService<S, B>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + Unpin + 'static,
{
    type Response = ServiceResponse<CompressionBody<B>>;
    type Error = actix_web::Error;
    type Future =
        CompressionFuture<
            <<Compress as Transform<Rc<S>, ServiceRequest>>::Transform as Service<
                ServiceRequest,
            >>::Future,
            S::Future,
        >;

    actix_web::dev::forward_ready!(inner);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        if req.headers().contains_key(header::ACCEPT_ENCODING) && !refuses_every_coding(&req) {
            CompressionFuture::Compressed {
                inner: self.compress.call(req),
            }
        } else {
            CompressionFuture::Identity {
                inner: self.inner.call(req),
            }
        }
    }
}

/// The codings [`Compress`] offers (actix-web's `compress-brotli` and
/// `compress-gzip` features), identity first.
static CODINGS: [Encoding; 4] = [
    Encoding::identity(),
    Encoding::brotli(),
    Encoding::gzip(),
    Encoding::deflate(),
];

/// Whether the request's `Accept-Encoding` finds none of [`CODINGS`]
/// acceptable, identity included (`identity;q=0, *;q=0`). `Compress` would
/// answer it with a plain-text 406; here identity is always acceptable
/// (RFC 9110 §12.1 lets a server disregard the field), so such a request
/// is answered uncompressed like one without the field.
fn refuses_every_coding(req: &ServiceRequest) -> bool {
    // Only a `q` weight can refuse identity: most requests stop at this scan.
    let weighted = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .is_some_and(|v| v.as_bytes().iter().any(|b| matches!(b, b'q' | b'Q')));
    weighted
        && req
            .get_header::<header::AcceptEncoding>()
            .is_some_and(|accept| accept.negotiate(CODINGS.iter()).is_none())
}

pin_project! {
    /// The future of a [`CompressionService`] call.
    #[derive(Debug)]
    #[project = CompressionProj]
    pub enum CompressionFuture<C, I> {
        /// Through `Compress`.
        Compressed { #[pin] inner: C },
        /// Straight to the inner service.
        Identity { #[pin] inner: I },
    }
}

impl<C, I, B> Future for CompressionFuture<C, I>
where
    C: Future<Output = Result<ServiceResponse<EitherBody<Encoder<B>>>, actix_web::Error>>,
    I: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
    B: MessageBody,
{
    type Output = Result<ServiceResponse<CompressionBody<B>>, actix_web::Error>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.project() {
            CompressionProj::Compressed { inner } => {
                inner.poll(cx).map_ok(ServiceResponse::map_into_left_body)
            }
            CompressionProj::Identity { inner } => {
                inner.poll(cx).map_ok(ServiceResponse::map_into_right_body)
            }
        }
    }
}

/// Size limits, CORS, rate limiting, ETag/304 and security headers (see
/// the module docs), as one `Transform`: one layer and one unboxed future
/// per request where `from_fn` middlewares cost a boxed future and a `Next`
/// each.
#[derive(Debug, Clone)]
pub struct Hygiene {
    max_uri_bytes: usize,
    limiter: Option<Arc<RateLimiter>>,
    metrics: Arc<Metrics>,
}

impl Hygiene {
    /// The limits of `state`'s settings and its rate limiter, if any.
    pub fn new(state: &AppState) -> Self {
        Self {
            max_uri_bytes: state.settings.max_uri_bytes,
            limiter: state.rate_limiter.clone(),
            metrics: Arc::clone(&state.metrics),
        }
    }
}

impl<S, B> Transform<S, ServiceRequest> for Hygiene
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Transform = HygieneService<S>;
    type InitError = ();
    type Future = std::future::Ready<Result<Self::Transform, ()>>;

    fn new_transform(&self, inner: S) -> Self::Future {
        std::future::ready(Ok(HygieneService {
            inner: Rc::new(inner),
            config: self.clone(),
        }))
    }
}

/// The service [`Hygiene`] builds.
#[derive(Debug)]
pub struct HygieneService<S> {
    inner: Rc<S>,
    config: Hygiene,
}

impl<S, B> Service<ServiceRequest> for HygieneService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = HygieneFuture<S, S::Future>;

    actix_web::dev::forward_ready!(inner);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let early = |req: ServiceRequest, res: HttpResponse| HygieneFuture::Answered {
            res: Some(finish(req.into_response(res))),
        };
        let max_uri = self.config.max_uri_bytes;
        let target_len = req
            .uri()
            .path_and_query()
            .map(|p| p.as_str().len())
            .unwrap_or(0);
        if target_len > max_uri {
            return early(req, ApiError::UriTooLong { max: max_uri }.error_response());
        }
        let header_bytes: usize = req
            .headers()
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len())
            .sum();
        if header_bytes > MAX_HEADER_BYTES {
            let res = ApiError::HeadersTooLarge {
                max: MAX_HEADER_BYTES,
            }
            .error_response();
            return early(req, res);
        }
        if req
            .uri()
            .query()
            .is_some_and(|q| !crate::http_guard::percent_encoding_is_valid(q))
        {
            let res = ApiError::MalformedQuery(
                "invalid percent-encoding (`%` must be followed by two hexadecimal digits)"
                    .to_owned(),
            )
            .error_response();
            return early(req, res);
        }
        if req.method() == Method::OPTIONS {
            let res = preflight(&req);
            return early(req, res);
        }
        let rate_limit = match &self.config.limiter {
            None => None,
            Some(limiter) => match limiter.admit(&req, &self.config.metrics) {
                Admission::Exempt => None,
                Admission::Allowed(headers) => Some(headers),
                Admission::Refused(res) => return early(req, res),
                Admission::Pending(check) => {
                    return HygieneFuture::Limiting {
                        check,
                        service: Rc::clone(&self.inner),
                        req: Some(req),
                    };
                }
            },
        };
        routed(&self.inner, req, rate_limit)
    }
}

/// The future of a request passed on to the routes.
fn routed<S, B>(
    service: &S,
    req: ServiceRequest,
    rate_limit: Option<RateLimitHeaders>,
) -> HygieneFuture<S, S::Future>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    let if_none_match = req.headers().get(header::IF_NONE_MATCH).cloned();
    let conditional = matches!(*req.method(), Method::GET | Method::HEAD);
    HygieneFuture::Routed {
        inner: service.call(req),
        conditional,
        if_none_match,
        rate_limit,
    }
}

pin_project! {
    /// The future of a [`HygieneService`] call.
    #[derive(Debug)]
    #[project = HygieneProj]
    pub enum HygieneFuture<S, F> {
        /// Answered before routing (414, 431, preflight, 429/401); taken
        /// when polled.
        Answered { res: Option<ServiceResponse<BoxBody>> },
        /// The rate limit is being checked in Redis (`--rate-limit-redis`);
        /// then answered (429) or routed.
        Limiting {
            check: PendingAdmission,
            service: Rc<S>,
            req: Option<ServiceRequest>,
        },
        /// Routed: the inner call, then rate-limit headers, ETag and
        /// security headers on its response.
        Routed {
            #[pin]
            inner: F,
            // GET or HEAD: a 200 may get an ETag or become 304.
            conditional: bool,
            // The request's `If-None-Match`.
            if_none_match: Option<HeaderValue>,
            // `RateLimit-Policy` and `RateLimit`, when the limiter is on.
            rate_limit: Option<RateLimitHeaders>,
        },
    }
}

impl<S, F, B> Future for HygieneFuture<S, F>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error, Future = F>,
    F: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
    B: MessageBody + 'static,
{
    type Output = Result<ServiceResponse<BoxBody>, actix_web::Error>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        if let HygieneProj::Limiting {
            check,
            service,
            req,
        } = self.as_mut().project()
        {
            let admission = ready!(Pin::new(check).poll(cx));
            let Some(req) = req.take() else {
                return Poll::Pending;
            };
            let next = match admission {
                Admission::Allowed(headers) => routed(&**service, req, Some(headers)),
                Admission::Refused(res) => {
                    let res = finish(req.into_response(res));
                    self.set(HygieneFuture::Answered { res: None });
                    return Poll::Ready(Ok(res));
                }
                Admission::Exempt | Admission::Pending(_) => routed(&**service, req, None),
            };
            self.set(next);
        }
        match self.project() {
            HygieneProj::Answered { res } => match res.take() {
                Some(res) => Poll::Ready(Ok(res)),
                None => Poll::Pending,
            },
            HygieneProj::Limiting { .. } => Poll::Pending,
            HygieneProj::Routed {
                inner,
                conditional,
                if_none_match,
                rate_limit,
            } => {
                let mut res = ready!(inner.poll(cx))?;
                if let Some(headers) = rate_limit.take() {
                    headers.apply(res.headers_mut());
                }
                let res = if *conditional && res.status() == StatusCode::OK {
                    with_etag(res, if_none_match.as_ref())
                } else {
                    res.map_into_boxed_body()
                };
                Poll::Ready(Ok(finish(res)))
            }
        }
    }
}

/// Adds an ETag to deterministic responses and turns a matching
/// `If-None-Match` into 304.
fn with_etag(
    res: ServiceResponse<impl MessageBody + 'static>,
    if_none_match: Option<&HeaderValue>,
) -> ServiceResponse<BoxBody> {
    let h = res.headers();
    let has_etag = h.contains_key(header::ETAG);
    let deterministic = h
        .get(header::CACHE_CONTROL)
        .is_some_and(|v| v.as_bytes().starts_with(b"public"));
    if !has_etag && !deterministic {
        return res.map_into_boxed_body();
    }
    let res = if has_etag {
        res.map_into_boxed_body()
    } else {
        let image = h
            .get(header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"image/"));
        let (req, resp) = res.into_parts();
        let (head, body) = resp.into_parts();
        match body.try_into_bytes() {
            Ok(bytes) => {
                let tag = conditional::body_tag(&bytes, !image);
                let mut resp = head.set_body(bytes).map_into_boxed_body();
                if let Ok(v) = HeaderValue::from_str(&tag) {
                    resp.headers_mut().insert(header::ETAG, v);
                }
                ServiceResponse::new(req, resp)
            }
            Err(body) => ServiceResponse::new(req, head.set_body(body).map_into_boxed_body()),
        }
    };
    let matches = match (if_none_match, res.headers().get(header::ETAG)) {
        (Some(inm), Some(etag)) => etag_matches(inm, etag),
        _ => false,
    };
    if !matches {
        return res;
    }
    let (req, resp) = res.into_parts();
    let mut not_modified = HttpResponse::NotModified().finish();
    for name in [header::ETAG, header::CACHE_CONTROL, header::VARY] {
        if let Some(v) = resp.headers().get(&name) {
            not_modified.headers_mut().insert(name, v.clone());
        }
    }
    ServiceResponse::new(req, not_modified)
}

/// [`conditional::none_match`] over header values (a value that is not
/// visible ASCII matches nothing).
fn etag_matches(if_none_match: &HeaderValue, etag: &HeaderValue) -> bool {
    match (if_none_match.to_str(), etag.to_str()) {
        (Ok(inm), Ok(etag)) => conditional::none_match(inm, etag),
        _ => false,
    }
}

fn preflight(req: &ServiceRequest) -> HttpResponse {
    let mut res = HttpResponse::NoContent();
    res.insert_header((header::ALLOW, "GET, HEAD, OPTIONS"))
        .insert_header((header::ACCESS_CONTROL_ALLOW_METHODS, "GET, HEAD, OPTIONS"))
        .insert_header((header::ACCESS_CONTROL_MAX_AGE, "86400"));
    let asked = req
        .headers()
        .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
        .filter(|v| {
            v.len() <= 512
                && v.as_bytes()
                    .iter()
                    .all(|b| b.is_ascii_alphanumeric() || b"-_, ".contains(b))
        })
        .cloned();
    res.insert_header((
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        asked.unwrap_or(HeaderValue::from_static("Authorization, If-None-Match")),
    ));
    res.finish()
}

// The headers' names and values, validated once at compile time (the
// `from_static` constructors check every byte when called at run time).
static ANY_ORIGIN: HeaderValue = HeaderValue::from_static("*");
static EXPOSED_VALUE: HeaderValue = HeaderValue::from_static(EXPOSED);
static NOSNIFF: HeaderValue = HeaderValue::from_static("nosniff");
static NO_REFERRER: HeaderValue = HeaderValue::from_static("no-referrer");
static DENY: HeaderValue = HeaderValue::from_static("DENY");
static CORP: HeaderName = HeaderName::from_static("cross-origin-resource-policy");
static CROSS_ORIGIN: HeaderValue = HeaderValue::from_static("cross-origin");
static CSP: HeaderValue = HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'");

/// The CORS and security headers every response carries, unless the
/// handler set its own.
static DEFAULT_HEADERS: [(&HeaderName, &HeaderValue); 7] = [
    (&header::ACCESS_CONTROL_ALLOW_ORIGIN, &ANY_ORIGIN),
    (&header::ACCESS_CONTROL_EXPOSE_HEADERS, &EXPOSED_VALUE),
    (&header::X_CONTENT_TYPE_OPTIONS, &NOSNIFF),
    (&header::REFERRER_POLICY, &NO_REFERRER),
    (&header::X_FRAME_OPTIONS, &DENY),
    (&CORP, &CROSS_ORIGIN),
    (&header::CONTENT_SECURITY_POLICY, &CSP),
];

/// Adds [`DEFAULT_HEADERS`], keeping any the handler set.
///
/// One pass over the response's (few) header names finds those already
/// set, where a `contains_key` per default header would hash each name;
/// clones of static names and values copy two pointers (no allocation), and
/// `append` to a name known absent is `insert` without handing back the
/// (absent) old value.
fn finish(mut res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    let h = res.headers_mut();
    let mut present = [false; DEFAULT_HEADERS.len()];
    for name in h.keys() {
        if let Some(i) = DEFAULT_HEADERS.iter().position(|(n, _)| *n == name) {
            present[i] = true;
        }
    }
    for ((name, value), present) in DEFAULT_HEADERS.iter().zip(present) {
        if !present {
            h.append((*name).clone(), (*value).clone());
        }
    }
    res
}
