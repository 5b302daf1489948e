//! Per-client rate limiting, trusted proxies and API keys.
//!
//! Off unless `--rate-limit N` is given. Each client has two token buckets,
//! checked with GCRA (one `u64` per client and budget):
//!
//! * `default`: `--rate-limit` requests per minute, for every endpoint
//!   except the canvas images;
//! * `canvas`: `--canvas-rate-limit` requests per minute (default a fifth of
//!   `--rate-limit`) for `/canvas/misc/*`, `/canvas/filter/*` and
//!   `/canvas/colorviewer`, which cost far more than the JSON endpoints.
//!
//! A bucket holds a whole minute's quota, so a quiet client may burst it.
//! `/health` and `/metrics` are never limited.
//!
//! **Who is the client.** The peer address, unless the peer is inside a
//! `--trusted-proxy` CIDR: then the right-most `X-Forwarded-For` entry that
//! is not itself a trusted proxy. IPv6 clients are grouped by their /64
//! (one host usually owns a whole /64). With an API key (`Authorization:
//! Bearer <key>`, keys from `--api-keys FILE`), the key is the client and
//! its own limits apply (budget `api-key`); an unknown key is 401.
//!
//! **Bounded memory.** The table is split in 16 shards, each holding at most
//! `--rate-limit-clients / 16` clients. A full shard first drops every idle
//! client (bucket full again, so forgetting it changes nothing), then, if a
//! flood of distinct clients still fills it, forgets arbitrary clients down to
//! 7/8 of its capacity. A forgotten client starts again with a full bucket.
//!
//! **Headers** (draft-ietf-httpapi-ratelimit-headers, structured-field form):
//! every limited response carries `RateLimit-Policy: "<budget>";q=<quota>;w=60`
//! and `RateLimit: "<budget>";r=<remaining>;t=<seconds until full>`; a 429
//! adds `Retry-After` (whole seconds, at least 1).
//!
//! **Across replicas.** With `--rate-limit-redis URL` the buckets live in
//! Redis, shared by every replica (same quotas, keys and headers), and the
//! table above is only the fallback while Redis is unreachable: see
//! [`shared`].

pub mod shared;

use std::collections::HashMap;
use std::future::Future;
use std::hash::{BuildHasher, Hash};
use std::net::{IpAddr, Ipv6Addr};
use std::path::Path;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use actix_web::dev::ServiceRequest;
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{HttpResponse, ResponseError};

use crate::catalogue;
use crate::config::{Cidr, Settings, canonical};
use crate::error::ApiError;
use crate::metrics::Metrics;

/// The window every quota is expressed over.
pub const WINDOW_SECS: u64 = 60;
const WINDOW_NANOS: u64 = WINDOW_SECS * 1_000_000_000;
const SHARDS: usize = 16;

/// Per-minute quotas of one client class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// Requests per minute, every endpoint but the canvas images.
    pub default: u32,
    /// Requests per minute on the canvas images.
    pub canvas: u32,
}

/// Why the rate-limit configuration was refused.
#[derive(Debug, thiserror::Error)]
pub enum LimitConfigError {
    /// The API key file could not be read.
    #[error("could not read the API key file {path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// The IO error.
        reason: String,
    },
    /// A line of the key file is malformed.
    #[error("{path}:{line}: {reason}")]
    Line {
        /// The file.
        path: String,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// `--api-keys` without `--rate-limit`.
    #[error("--api-keys needs --rate-limit (keys only change limits)")]
    KeysWithoutLimit,
    /// `--rate-limit-redis` without `--rate-limit`.
    #[error("--rate-limit-redis needs --rate-limit (Redis only counts limits)")]
    RedisWithoutLimit,
    /// `--rate-limit-redis` is unusable.
    #[error(transparent)]
    Redis(#[from] shared::SharedConfigError),
}

/// Parses an API key file: `<key> <per-minute> [<canvas-per-minute>]` per
/// line; blank lines and `#` comments ignored; keys at least 16 characters.
pub fn parse_keys(path: &Path, text: &str) -> Result<HashMap<String, Quota>, LimitConfigError> {
    let mut keys = HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let err = |reason: &str| LimitConfigError::Line {
            path: path.display().to_string(),
            line: i + 1,
            reason: reason.to_owned(),
        };
        let mut parts = line.split_whitespace();
        let key = parts.next().unwrap_or_default();
        if key.len() < 16 || !key.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(err("a key is at least 16 printable ASCII characters"));
        }
        let num = |p: Option<&str>| p.map(|p| p.parse::<u32>().ok().filter(|n| *n > 0));
        let default = match num(parts.next()) {
            Some(Some(n)) => n,
            _ => return Err(err("expected `<key> <per-minute> [<canvas-per-minute>]`")),
        };
        let canvas = match num(parts.next()) {
            None => (default / 5).max(1),
            Some(Some(n)) => n,
            Some(None) => return Err(err("the canvas quota must be a positive integer")),
        };
        if parts.next().is_some() {
            return Err(err("too many fields"));
        }
        if keys
            .insert(key.to_owned(), Quota { default, canvas })
            .is_some()
        {
            return Err(err("duplicate key"));
        }
    }
    Ok(keys)
}

/// Who a request is counted against: a known API key, or the client
/// address (after the trusted-proxy rule; IPv6 by its /64). The canvas job
/// bound shares it ([`client_of`]).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ClientKey {
    /// The client address.
    Ip(IpAddr),
    /// An API key from `--api-keys`.
    Key(Box<str>),
}

/// Which bucket a request draws from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Budget {
    Default,
    Canvas,
}

/// The outcome of one check.
#[derive(Debug, Clone, Copy)]
struct Decision {
    allowed: bool,
    quota: u32,
    remaining: u32,
    /// Seconds until the bucket is full again.
    reset_secs: u64,
    /// Seconds until one more request is allowed (meaningful when denied).
    retry_after_secs: u64,
}

impl Decision {
    /// The decision of a GCRA check for a bucket of `quota` a window:
    /// `used` nanoseconds of the window are spent (after the request when
    /// it was allowed, before it when not), and a denied request could go
    /// through in `denied_wait` nanoseconds. Both limiters, the replica's own
    /// table and Redis, answer through this one rule.
    fn gcra(quota: u32, used: u64, denied_wait: Option<u64>) -> Decision {
        let ceil_secs = |n: u64| n.div_ceil(1_000_000_000);
        let used = used.min(WINDOW_NANOS);
        match denied_wait {
            None => Decision {
                allowed: true,
                quota,
                remaining: ((WINDOW_NANOS - used) / (WINDOW_NANOS / u64::from(quota.max(1))))
                    as u32,
                reset_secs: ceil_secs(used),
                retry_after_secs: 0,
            },
            Some(wait) => Decision {
                allowed: false,
                quota,
                remaining: 0,
                reset_secs: ceil_secs(used),
                retry_after_secs: ceil_secs(wait).max(1),
            },
        }
    }
}

/// The limiter: quotas, proxies, keys and the bounded client table.
#[derive(Debug)]
pub struct RateLimiter {
    anonymous: Quota,
    keys: HashMap<String, Quota>,
    trusted: Vec<Cidr>,
    shard_capacity: usize,
    shards: Vec<Mutex<HashMap<(ClientKey, Budget), u64>>>,
    hasher: std::hash::RandomState,
    epoch: Instant,
    /// `RateLimit-Policy` of anonymous clients, default and canvas budgets
    /// (formatted once: the same on every response).
    anonymous_policy: [HeaderValue; 2],
    /// The buckets in Redis, with `--rate-limit-redis`; the table above is
    /// then the fallback.
    shared: Option<shared::SharedCounter>,
}

impl RateLimiter {
    /// Builds the limiter the settings ask for; `None` when rate limiting is
    /// off. With `--rate-limit-redis`, starts the Redis thread (`metrics`
    /// gets its fallback gauge).
    pub fn from_settings(
        s: &Settings,
        metrics: &Arc<Metrics>,
    ) -> Result<Option<Self>, LimitConfigError> {
        let Some(default) = s.rate_limit else {
            return if s.api_keys.is_some() {
                Err(LimitConfigError::KeysWithoutLimit)
            } else if s.rate_limit_redis.is_some() {
                Err(LimitConfigError::RedisWithoutLimit)
            } else {
                Ok(None)
            };
        };
        let keys = match &s.api_keys {
            Some(p) => {
                let text = std::fs::read_to_string(p).map_err(|e| LimitConfigError::Read {
                    path: p.display().to_string(),
                    reason: e.to_string(),
                })?;
                parse_keys(p, &text)?
            }
            None => HashMap::new(),
        };
        let canvas = s.canvas_rate_limit.unwrap_or((default / 5).max(1));
        let mut limiter = Self::new(
            Quota { default, canvas },
            keys,
            s.trusted_proxies.clone(),
            s.rate_limit_clients,
        );
        if let Some(url) = &s.rate_limit_redis {
            limiter.shared = Some(shared::SharedCounter::start(
                url,
                Duration::from_millis(s.rate_limit_redis_timeout_ms),
                Arc::clone(metrics),
            )?);
        }
        Ok(Some(limiter))
    }

    /// A limiter with explicit parts (tests use this).
    pub fn new(
        anonymous: Quota,
        keys: HashMap<String, Quota>,
        trusted: Vec<Cidr>,
        max_clients: usize,
    ) -> Self {
        Self {
            anonymous,
            keys,
            trusted,
            shard_capacity: (max_clients / SHARDS).max(8),
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            hasher: std::hash::RandomState::new(),
            epoch: Instant::now(),
            anonymous_policy: [
                policy_value("default", anonymous.default),
                policy_value("canvas", anonymous.canvas),
            ],
            shared: None,
        }
    }

    /// How many (client, budget) entries are tracked now.
    pub fn tracked(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().unwrap_or_else(|e| e.into_inner()).len())
            .sum()
    }

    /// The client address after applying the trusted-proxy rule.
    pub fn client_ip(&self, peer: Option<IpAddr>, forwarded_for: Option<&str>) -> Option<IpAddr> {
        forwarded_client(&self.trusted, peer, forwarded_for)
    }

    fn check(&self, client: ClientKey, budget: Budget, quota: u32, now: u64) -> Decision {
        let t = WINDOW_NANOS / u64::from(quota.max(1));
        let key = (client, budget);
        let shard = &self.shards[(self.hasher.hash_one(&key) as usize) % SHARDS];
        let mut map = shard.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= self.shard_capacity && !map.contains_key(&key) {
            map.retain(|_, tat| *tat > now);
            let keep = self.shard_capacity * 7 / 8;
            if map.len() > keep {
                let drop: Vec<_> = map.keys().take(map.len() - keep).cloned().collect();
                for k in drop {
                    map.remove(&k);
                }
            }
        }
        let tat = map.get(&key).copied().unwrap_or(now).max(now);
        let new_tat = tat + t;
        if new_tat - now > WINDOW_NANOS {
            Decision::gcra(quota, tat - now, Some(new_tat - now - WINDOW_NANOS))
        } else {
            map.insert(key, new_tat);
            Decision::gcra(quota, new_tat - now, None)
        }
    }

    fn now(&self) -> u64 {
        // Offset by a window so that "now" is never below a fresh TAT.
        self.epoch.elapsed().as_nanos() as u64 + WINDOW_NANOS
    }
}

/// The client address: the peer, or, when the peer is a trusted proxy, the
/// last `X-Forwarded-For` hop that is not itself a trusted proxy.
fn forwarded_client(
    trusted: &[Cidr],
    peer: Option<IpAddr>,
    forwarded_for: Option<&str>,
) -> Option<IpAddr> {
    let peer = canonical(peer?);
    if !trusted.iter().any(|c| c.contains(peer)) {
        return Some(peer);
    }
    let Some(xff) = forwarded_for else {
        return Some(peer);
    };
    let mut client = peer;
    for hop in xff.rsplit(',') {
        match parse_forwarded_ip(hop) {
            Some(ip) => {
                client = ip;
                if !trusted.iter().any(|c| c.contains(ip)) {
                    break;
                }
            }
            None => break,
        }
    }
    Some(client)
}

/// The client key of a request, whether or not rate limiting is on: its
/// API key when `limiter` knows it, else its address under the
/// trusted-proxy rule (`trusted`, the `--trusted-proxy` ranges).
pub fn client_of(
    limiter: Option<&RateLimiter>,
    trusted: &[Cidr],
    req: &actix_web::HttpRequest,
) -> ClientKey {
    if let Some(key) = limiter
        .zip(bearer(req.headers()))
        .and_then(|(l, k)| l.keys.get_key_value(k))
        .map(|(k, _)| k)
    {
        return ClientKey::Key(key.as_str().into());
    }
    ClientKey::Ip(address_key(
        trusted,
        req.peer_addr().map(|a| a.ip()),
        forwarded_for(req.headers()),
    ))
}

fn forwarded_for(headers: &header::HeaderMap) -> Option<&str> {
    headers.get("x-forwarded-for").and_then(|v| v.to_str().ok())
}

/// The address part of a client key.
fn address_key(trusted: &[Cidr], peer: Option<IpAddr>, forwarded_for: Option<&str>) -> IpAddr {
    forwarded_client(trusted, peer, forwarded_for)
        .map(client_bucket)
        .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
}

fn parse_forwarded_ip(hop: &str) -> Option<IpAddr> {
    let hop = hop.trim();
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(canonical(ip));
    }
    // `[v6]:port` or `v4:port`
    if let Ok(sa) = hop.parse::<std::net::SocketAddr>() {
        return Some(canonical(sa.ip()));
    }
    None
}

/// Groups an IPv6 client by its /64.
fn client_bucket(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & (u128::MAX << 64);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

fn is_exempt(path: &str) -> bool {
    path == "/health" || path == "/metrics"
}

fn bearer(headers: &header::HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?.trim();
    Some(
        v.strip_prefix("Bearer ")
            .or_else(|| v.strip_prefix("bearer "))
            .unwrap_or(v)
            .trim(),
    )
}

/// What the rate limiter decided for one request (see [`RateLimiter::admit`]).
#[derive(Debug)]
pub enum Admission {
    /// Not limited (`/health`, `/metrics`, preflights): no headers.
    Exempt,
    /// Allowed: the response gets these `RateLimit-Policy` and `RateLimit`
    /// headers.
    Allowed(RateLimitHeaders),
    /// Refused (429 with `Retry-After`, or 401 for an unknown API key),
    /// headers already set.
    Refused(HttpResponse),
    /// Being checked in Redis: awaits to one of the above.
    Pending(PendingAdmission),
}

/// The `RateLimit-Policy` and `RateLimit` values of an allowed request.
#[derive(Debug)]
pub struct RateLimitHeaders {
    policy: HeaderValue,
    current: HeaderValue,
}

impl RateLimitHeaders {
    /// Sets both headers on a response.
    pub fn apply(self, h: &mut header::HeaderMap) {
        set_headers(h, self.policy, self.current);
    }
}

impl RateLimiter {
    /// Checks one request against its client's bucket (the middleware's
    /// half of rate limiting: `middleware::Hygiene` calls it before routing
    /// and sets the headers on the routed response). A refusal is counted in
    /// `metrics` by budget. With Redis available the answer is
    /// [`Admission::Pending`]: the check in Redis, within its deadline.
    pub fn admit(self: &Arc<Self>, req: &ServiceRequest, metrics: &Arc<Metrics>) -> Admission {
        if is_exempt(req.path()) || req.method() == actix_web::http::Method::OPTIONS {
            return Admission::Exempt;
        }
        let budget = if catalogue::is_canvas_image(req.path()) {
            Budget::Canvas
        } else {
            Budget::Default
        };
        let (client, quota, label) = match bearer(req.headers()).filter(|k| !k.is_empty()) {
            Some(k) if !self.keys.is_empty() => match self.keys.get(k) {
                Some(q) => (ClientKey::Key(k.into()), *q, "api-key"),
                None => return Admission::Refused(ApiError::InvalidApiKey.error_response()),
            },
            _ => {
                let peer = req.peer_addr().map(|a| a.ip());
                let ip = address_key(&self.trusted, peer, forwarded_for(req.headers()));
                let label = match budget {
                    Budget::Default => "default",
                    Budget::Canvas => "canvas",
                };
                (ClientKey::Ip(ip), self.anonymous, label)
            }
        };
        let q = match budget {
            Budget::Default => quota.default,
            Budget::Canvas => quota.canvas,
        };
        match &self.shared {
            Some(shared) if shared.available() => {
                let check = shared.check(&client, budget, q);
                let this = Arc::clone(self);
                let metrics = Arc::clone(metrics);
                Admission::Pending(PendingAdmission(Box::pin(async move {
                    let d = match check.await {
                        Some(d) => d,
                        None => {
                            metrics.fallback_decision();
                            this.check(client, budget, q, this.now())
                        }
                    };
                    this.conclude(d, label, budget, &metrics)
                })))
            }
            Some(_) => {
                metrics.fallback_decision();
                let d = self.check(client, budget, q, self.now());
                self.conclude(d, label, budget, metrics)
            }
            None => {
                let d = self.check(client, budget, q, self.now());
                self.conclude(d, label, budget, metrics)
            }
        }
    }

    /// The admission of a decision: its headers, or the 429.
    fn conclude(
        &self,
        d: Decision,
        label: &'static str,
        budget: Budget,
        metrics: &Metrics,
    ) -> Admission {
        let policy = match (label, budget) {
            ("api-key", _) => policy_value(label, d.quota),
            (_, Budget::Default) => self.anonymous_policy[0].clone(),
            (_, Budget::Canvas) => self.anonymous_policy[1].clone(),
        };
        let current = header_value(format_args!(
            "\"{label}\";r={};t={}",
            d.remaining, d.reset_secs
        ));
        if !d.allowed {
            metrics.rate_limited(label);
            metrics.set_rate_limit_clients(self.tracked() as u64);
            let mut res = ApiError::RateLimited {
                retry_after_secs: d.retry_after_secs,
                budget: label,
            }
            .error_response();
            set_headers(res.headers_mut(), policy, current);
            return Admission::Refused(res);
        }
        Admission::Allowed(RateLimitHeaders { policy, current })
    }
}

/// A check waiting on Redis (see [`Admission::Pending`]); never longer
/// than `--rate-limit-redis-timeout-ms`, then decided per replica.
pub struct PendingAdmission(Pin<Box<dyn Future<Output = Admission>>>);

impl std::fmt::Debug for PendingAdmission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PendingAdmission")
    }
}

impl Future for PendingAdmission {
    type Output = Admission;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Admission> {
        self.0.as_mut().poll(cx)
    }
}

static RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
static RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");

/// `RateLimit-Policy: "<budget>";q=<quota>;w=60`.
fn policy_value(label: &str, quota: u32) -> HeaderValue {
    header_value(format_args!("\"{label}\";q={quota};w={WINDOW_SECS}"))
}

/// A short header value formatted on the stack (no `String`); labels and
/// numbers are visible ASCII, so it is always valid.
fn header_value(args: std::fmt::Arguments<'_>) -> HeaderValue {
    use std::io::Write as _;
    let mut buf = [0u8; 96];
    let mut w = &mut buf[..];
    let _ = w.write_fmt(args);
    let n = 96 - w.len();
    HeaderValue::from_bytes(&buf[..n]).unwrap_or(HeaderValue::from_static(""))
}

fn set_headers(h: &mut header::HeaderMap, policy: HeaderValue, current: HeaderValue) {
    h.insert(RATELIMIT_POLICY.clone(), policy);
    h.insert(RATELIMIT.clone(), current);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(trusted: &[&str], max: usize) -> RateLimiter {
        RateLimiter::new(
            Quota {
                default: 3,
                canvas: 1,
            },
            HashMap::new(),
            trusted.iter().map(|c| c.parse().unwrap()).collect(),
            max,
        )
    }

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let l = limiter(&["127.0.0.1", "10.0.0.0/8"], 1000);
        let proxy = Some("127.0.0.1".parse().unwrap());
        let stranger = Some("203.0.113.9".parse().unwrap());
        let xff = Some("198.51.100.1, 10.0.0.2");
        assert_eq!(
            l.client_ip(proxy, xff),
            Some("198.51.100.1".parse().unwrap())
        );
        assert_eq!(l.client_ip(stranger, xff), stranger);
        // A spoofed left-most entry is ignored: the right-most untrusted wins.
        assert_eq!(
            l.client_ip(proxy, Some("1.2.3.4, 198.51.100.7")),
            Some("198.51.100.7".parse().unwrap())
        );
        // Garbage stops the walk at the last good hop.
        assert_eq!(l.client_ip(proxy, Some("nonsense")), proxy);
    }

    #[test]
    fn gcra_allows_the_quota_then_refuses_with_retry_after() {
        let l = limiter(&[], 1000);
        let c = || ClientKey::Ip("192.0.2.1".parse().unwrap());
        let now = l.now();
        for i in 0..3 {
            let d = l.check(c(), Budget::Default, 3, now);
            assert!(d.allowed, "request {i}");
            assert_eq!(d.remaining, 2 - i);
        }
        let d = l.check(c(), Budget::Default, 3, now);
        assert!(!d.allowed);
        assert_eq!(d.retry_after_secs, 20, "one token every 20 s");
        // The canvas budget is separate.
        assert!(l.check(c(), Budget::Canvas, 1, now).allowed);
        // After 20 s one more request passes.
        assert!(
            l.check(c(), Budget::Default, 3, now + 20 * 1_000_000_000)
                .allowed
        );
    }

    #[test]
    fn the_client_table_stays_bounded() {
        let l = limiter(&[], 16 * 8);
        let now = l.now();
        for i in 0..10_000u32 {
            let ip = IpAddr::V4(std::net::Ipv4Addr::from(i));
            l.check(ClientKey::Ip(ip), Budget::Default, 3, now);
        }
        assert!(l.tracked() <= 16 * 8, "{}", l.tracked());
    }

    #[test]
    fn key_file_format() {
        let p = Path::new("keys.txt");
        let k = parse_keys(
            p,
            "# comment\n\nabcdefghijklmnop 600\nqrstuvwxyz0123456789 100 50 # inline\n",
        )
        .unwrap();
        assert_eq!(
            k["abcdefghijklmnop"],
            Quota {
                default: 600,
                canvas: 120
            }
        );
        assert_eq!(k["qrstuvwxyz0123456789"].canvas, 50);
        let e = parse_keys(p, "short 10\n").unwrap_err().to_string();
        assert!(e.starts_with("keys.txt:1:"), "{e}");
        assert!(parse_keys(p, "abcdefghijklmnop x\n").is_err());
        assert!(parse_keys(p, "abcdefghijklmnop 1\nabcdefghijklmnop 2\n").is_err());
    }
}
