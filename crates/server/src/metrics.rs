//! Prometheus metrics: a small hand-written registry of atomic counters and
//! the `/metrics` endpoint that renders it in the text exposition format.
//!
//! One [`Metrics`] lives in `AppState::metrics` (an
//! `Arc`, shared by every worker). Recording is lock-free except for one
//! uncontended read lock to find a route's series; nothing allocates on the
//! request path once a route has been seen.
//!
//! # What is exported
//!
//! | Metric | Type | Labels |
//! |---|---|---|
//! | `menagerie_http_requests_total` | counter | `route` (the route pattern, or `unmatched`), `status` |
//! | `menagerie_http_request_duration_seconds` | histogram | `route` |
//! | `menagerie_http_requests_in_flight` | gauge | |
//! | `menagerie_avatar_cache_hits_total`, `..._misses_total` | counter | |
//! | `menagerie_avatar_cache_bytes`, `..._entries` | gauge | |
//! | `menagerie_avatar_fetches_total` | counter | `outcome` (see [`FetchOutcome`]) |
//! | `menagerie_render_jobs_in_flight` | gauge | |
//! | `menagerie_render_jobs_queued` | gauge | |
//! | `menagerie_render_jobs_rejected_total` | counter | |
//! | `menagerie_output_cache_hits_total` | counter | |
//! | `menagerie_output_cache_bytes`, `..._entries` | gauge | |
//! | `menagerie_rate_limited_total` | counter | `budget` |
//! | `menagerie_rate_limit_clients` | gauge | |
//! | `menagerie_rate_limit_redis_fallback` | gauge | 1 while Redis is unreachable and each replica counts alone (`--rate-limit-redis`) |
//! | `menagerie_rate_limit_redis_outages_total` | counter | |
//! | `menagerie_rate_limit_fallback_decisions_total` | counter | |
//! | `menagerie_templates_loaded` | gauge | operators' templates served (`--templates`) |
//! | `menagerie_templates_reload_errors_total` | counter | reloads refused, the previous templates kept |
//! | `menagerie_uptime_seconds` | gauge | |
//! | `process_resident_memory_bytes` | gauge | (the standard name; Linux only) |
//!
//! The `route` label is the pattern the request matched (`/animu/{type}`),
//! never the raw path, so its cardinality is bounded by the route table.
//!
//! # Observing, never driving
//!
//! The registry only records what other code reports; it does no work of
//! its own and imports nothing of the server above the bottom layer. The
//! canvas engine reports cache hits, misses, fetch outcomes and refused
//! jobs as they happen; gauges of state owned elsewhere (cache sizes, jobs
//! in flight, rate-limited clients) are read by the `/metrics` route at
//! scrape time and stored here just before rendering.
//!
//! ```
//! use server::metrics::{FetchOutcome, Metrics};
//! let m = Metrics::default();
//! m.avatar_cache_miss();
//! m.record_fetch(FetchOutcome::Ok);
//! m.set_avatar_cache_size(64 * 1024, 1);
//! m.set_jobs_in_flight(1); // read from the canvas engine's job counter
//! m.job_rejected(); // the job slots were full (the 503 path)
//! m.avatar_cache_hit();
//! assert!(m.render().contains("menagerie_avatar_cache_hits_total 1"));
//! assert!(m.render().contains("menagerie_render_jobs_in_flight 1"));
//! ```

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// Upper bounds of the latency histogram buckets, in seconds.
pub const LATENCY_BUCKETS: [f64; 14] = [
    0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0,
];

/// The route label of requests that matched no route.
pub const UNMATCHED: &str = "unmatched";

/// How fetching one avatar ended (the `outcome` label).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FetchOutcome {
    /// Fetched and decoded.
    Ok,
    /// Refused before connecting: bad URL or a non-public address.
    Refused,
    /// Not an image, an unsupported format, too many bytes or pixels.
    Invalid,
    /// The host answered 4xx.
    UpstreamClientError,
    /// The host answered 5xx.
    UpstreamServerError,
    /// Connection failed.
    Unreachable,
    /// The host was too slow.
    Timeout,
}

impl FetchOutcome {
    /// Every outcome, in exposition order.
    pub const ALL: [FetchOutcome; 7] = [
        Self::Ok,
        Self::Refused,
        Self::Invalid,
        Self::UpstreamClientError,
        Self::UpstreamServerError,
        Self::Unreachable,
        Self::Timeout,
    ];

    /// The outcome of one fetch's result.
    pub fn of<T>(result: &Result<T, remote_image::FetchError>) -> Self {
        use remote_image::FetchError::*;
        match result {
            Ok(_) => Self::Ok,
            Err(InvalidUrl(_) | UrlTooLong { .. } | RefusedAddress) => Self::Refused,
            Err(UpstreamRejected { .. }) => Self::UpstreamClientError,
            Err(UpstreamFailed { .. }) => Self::UpstreamServerError,
            Err(Unreachable) => Self::Unreachable,
            Err(TooSlow) => Self::Timeout,
            Err(_) => Self::Invalid,
        }
    }

    /// The label value.
    pub fn label(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Refused => "refused",
            Self::Invalid => "invalid",
            Self::UpstreamClientError => "upstream_4xx",
            Self::UpstreamServerError => "upstream_5xx",
            Self::Unreachable => "unreachable",
            Self::Timeout => "timeout",
        }
    }
}

/// Rate-limit budgets (the `budget` label).
pub const BUDGETS: [&str; 3] = ["default", "canvas", "api-key"];

/// One route's counters: requests per status and the latency histogram.
#[derive(Debug)]
struct RouteSeries {
    /// Index `status - 100` for statuses 100..=599.
    by_status: Box<[AtomicU64]>,
    /// Non-cumulative counts per bucket; the last slot is `+Inf`.
    buckets: [AtomicU64; LATENCY_BUCKETS.len() + 1],
    sum_nanos: AtomicU64,
}

impl RouteSeries {
    fn new() -> Self {
        Self {
            by_status: (100..600).map(|_| AtomicU64::new(0)).collect(),
            buckets: Default::default(),
            sum_nanos: AtomicU64::new(0),
        }
    }
}

/// The process-wide registry. See the [module docs](self).
#[derive(Debug)]
pub struct Metrics {
    started: Instant,
    routes: RwLock<HashMap<Box<str>, Arc<RouteSeries>>>,
    in_flight: AtomicI64,
    cache_hits: AtomicU64,
    cache_misses: AtomicU64,
    cache_bytes: AtomicU64,
    cache_entries: AtomicU64,
    fetches: [AtomicU64; FetchOutcome::ALL.len()],
    jobs_in_flight: AtomicU64,
    jobs_queued: AtomicU64,
    jobs_rejected: AtomicU64,
    output_hits: AtomicU64,
    output_bytes: AtomicU64,
    output_entries: AtomicU64,
    rate_limited: [AtomicU64; BUDGETS.len()],
    rate_limit_clients: AtomicU64,
    redis_fallback: AtomicU64,
    redis_outages: AtomicU64,
    fallback_decisions: AtomicU64,
    resident_bytes: AtomicU64,
    templates_loaded: AtomicU64,
    template_reload_errors: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Self {
        Self {
            started: Instant::now(),
            routes: RwLock::default(),
            in_flight: AtomicI64::new(0),
            cache_hits: AtomicU64::new(0),
            cache_misses: AtomicU64::new(0),
            cache_bytes: AtomicU64::new(0),
            cache_entries: AtomicU64::new(0),
            fetches: Default::default(),
            jobs_in_flight: AtomicU64::new(0),
            jobs_queued: AtomicU64::new(0),
            jobs_rejected: AtomicU64::new(0),
            output_hits: AtomicU64::new(0),
            output_bytes: AtomicU64::new(0),
            output_entries: AtomicU64::new(0),
            rate_limited: Default::default(),
            rate_limit_clients: AtomicU64::new(0),
            redis_fallback: AtomicU64::new(0),
            redis_outages: AtomicU64::new(0),
            fallback_decisions: AtomicU64::new(0),
            resident_bytes: AtomicU64::new(0),
            templates_loaded: AtomicU64::new(0),
            template_reload_errors: AtomicU64::new(0),
        }
    }
}

impl Metrics {
    /// Counts one finished request of `route` (a pattern, or [`UNMATCHED`]).
    pub fn record_request(&self, route: &str, status: u16, elapsed: Duration) {
        let series = self.series(route);
        if (100..600).contains(&status) {
            series.by_status[usize::from(status - 100)].fetch_add(1, Relaxed);
        }
        let secs = elapsed.as_secs_f64();
        let slot = LATENCY_BUCKETS
            .iter()
            .position(|b| secs <= *b)
            .unwrap_or(LATENCY_BUCKETS.len());
        series.buckets[slot].fetch_add(1, Relaxed);
        series
            .sum_nanos
            .fetch_add(elapsed.as_nanos().min(u128::from(u64::MAX)) as u64, Relaxed);
    }

    fn series(&self, route: &str) -> Arc<RouteSeries> {
        if let Some(s) = self
            .routes
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(route)
        {
            return Arc::clone(s);
        }
        let mut w = self.routes.write().unwrap_or_else(|e| e.into_inner());
        Arc::clone(
            w.entry(route.into())
                .or_insert_with(|| Arc::new(RouteSeries::new())),
        )
    }

    /// One more request being served (the middleware calls this).
    pub fn request_started(&self) {
        self.in_flight.fetch_add(1, Relaxed);
    }

    /// One request fewer being served.
    pub fn request_finished(&self) {
        self.in_flight.fetch_sub(1, Relaxed);
    }

    /// The avatar cache answered from memory.
    pub fn avatar_cache_hit(&self) {
        self.cache_hits.fetch_add(1, Relaxed);
    }

    /// The avatar cache had to fetch.
    pub fn avatar_cache_miss(&self) {
        self.cache_misses.fetch_add(1, Relaxed);
    }

    /// The avatar cache's current weight in bytes and entry count.
    pub fn set_avatar_cache_size(&self, bytes: u64, entries: u64) {
        self.cache_bytes.store(bytes, Relaxed);
        self.cache_entries.store(entries, Relaxed);
    }

    /// The output cache's current weight in bytes (encoded images plus
    /// their keys) and entry count; both 0 when it is off.
    pub fn set_output_cache_size(&self, bytes: u64, entries: u64) {
        self.output_bytes.store(bytes, Relaxed);
        self.output_entries.store(entries, Relaxed);
    }

    /// Counts one avatar fetch by its outcome.
    pub fn record_fetch(&self, outcome: FetchOutcome) {
        let i = FetchOutcome::ALL
            .iter()
            .position(|o| *o == outcome)
            .unwrap_or(0);
        self.fetches[i].fetch_add(1, Relaxed);
    }

    /// The operators' templates served now.
    pub fn set_templates_loaded(&self, n: u64) {
        self.templates_loaded.store(n, Relaxed);
    }

    /// A reload of the templates was refused (the previous set stays).
    pub fn templates_reload_failed(&self) {
        self.template_reload_errors.fetch_add(1, Relaxed);
    }

    /// Canvas jobs running now, as counted by the canvas engine.
    pub fn set_jobs_in_flight(&self, n: u64) {
        self.jobs_in_flight.store(n, Relaxed);
    }

    /// Canvas jobs waiting for a slot now, as counted by the canvas engine.
    pub fn set_jobs_queued(&self, n: u64) {
        self.jobs_queued.store(n, Relaxed);
    }

    /// A canvas image was answered from the cache of encoded images.
    pub fn output_cache_hit(&self) {
        self.output_hits.fetch_add(1, Relaxed);
    }

    /// A job was refused because the pool was saturated.
    pub fn job_rejected(&self) {
        self.jobs_rejected.fetch_add(1, Relaxed);
    }

    /// A request was refused by the rate limiter (`budget` is one of [`BUDGETS`]).
    pub fn rate_limited(&self, budget: &str) {
        if let Some(i) = BUDGETS.iter().position(|b| *b == budget) {
            self.rate_limited[i].fetch_add(1, Relaxed);
        }
    }

    /// How many clients the rate limiter currently tracks.
    pub fn set_rate_limit_clients(&self, n: u64) {
        self.rate_limit_clients.store(n, Relaxed);
    }

    /// Whether the shared (Redis) rate limiter counts per replica now
    /// (also while it first connects).
    pub fn set_redis_fallback(&self, on: bool) {
        self.redis_fallback.store(u64::from(on), Relaxed);
    }

    /// The shared rate limiter lost Redis (or found it down at start-up).
    pub fn redis_outage(&self) {
        self.redis_outages.fetch_add(1, Relaxed);
    }

    /// The process's resident memory in bytes (read at scrape time).
    pub fn set_resident_memory(&self, bytes: u64) {
        self.resident_bytes.store(bytes, Relaxed);
    }

    /// One request was decided by the per-replica limiter because Redis
    /// was unreachable.
    pub fn fallback_decision(&self) {
        self.fallback_decisions.fetch_add(1, Relaxed);
    }

    /// The whole registry in the Prometheus text exposition format (0.0.4).
    pub fn render(&self) -> String {
        let mut out = String::with_capacity(16 * 1024);
        let routes: Vec<(Box<str>, Arc<RouteSeries>)> = {
            let r = self.routes.read().unwrap_or_else(|e| e.into_inner());
            let mut v: Vec<_> = r.iter().map(|(k, s)| (k.clone(), Arc::clone(s))).collect();
            v.sort_by(|a, b| a.0.cmp(&b.0));
            v
        };

        head(
            &mut out,
            "menagerie_http_requests_total",
            "counter",
            "Requests answered, by route pattern and status.",
        );
        for (route, s) in &routes {
            let route = escape(route);
            for (i, c) in s.by_status.iter().enumerate() {
                let n = c.load(Relaxed);
                if n > 0 {
                    let _ = writeln!(
                        out,
                        "menagerie_http_requests_total{{route=\"{route}\",status=\"{}\"}} {n}",
                        i + 100
                    );
                }
            }
        }

        head(
            &mut out,
            "menagerie_http_request_duration_seconds",
            "histogram",
            "Time from receiving a request to its response head, by route pattern.",
        );
        for (route, s) in &routes {
            let route = escape(route);
            let mut cum = 0u64;
            for (i, bound) in LATENCY_BUCKETS.iter().enumerate() {
                cum += s.buckets[i].load(Relaxed);
                let _ = writeln!(
                    out,
                    "menagerie_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"{bound}\"}} {cum}"
                );
            }
            cum += s.buckets[LATENCY_BUCKETS.len()].load(Relaxed);
            let _ = writeln!(
                out,
                "menagerie_http_request_duration_seconds_bucket{{route=\"{route}\",le=\"+Inf\"}} {cum}"
            );
            let sum = s.sum_nanos.load(Relaxed) as f64 / 1e9;
            let _ = writeln!(
                out,
                "menagerie_http_request_duration_seconds_sum{{route=\"{route}\"}} {sum}"
            );
            let _ = writeln!(
                out,
                "menagerie_http_request_duration_seconds_count{{route=\"{route}\"}} {cum}"
            );
        }

        gauge(
            &mut out,
            "menagerie_http_requests_in_flight",
            "Requests being served now.",
            self.in_flight.load(Relaxed),
        );
        counter(
            &mut out,
            "menagerie_avatar_cache_hits_total",
            "Avatar lookups answered from the cache.",
            self.cache_hits.load(Relaxed),
        );
        counter(
            &mut out,
            "menagerie_output_cache_hits_total",
            "Canvas images answered from the cache of encoded images.",
            self.output_hits.load(Relaxed),
        );
        gauge(
            &mut out,
            "menagerie_output_cache_bytes",
            "Bytes held by the cache of encoded images (images and keys).",
            self.output_bytes.load(Relaxed),
        );
        gauge(
            &mut out,
            "menagerie_output_cache_entries",
            "Encoded images held by the cache.",
            self.output_entries.load(Relaxed),
        );
        counter(
            &mut out,
            "menagerie_avatar_cache_misses_total",
            "Avatar lookups that had to fetch.",
            self.cache_misses.load(Relaxed),
        );
        gauge(
            &mut out,
            "menagerie_avatar_cache_bytes",
            "Decoded bytes held by the avatar cache.",
            self.cache_bytes.load(Relaxed),
        );
        gauge(
            &mut out,
            "menagerie_avatar_cache_entries",
            "Avatars held by the cache.",
            self.cache_entries.load(Relaxed),
        );
        head(
            &mut out,
            "menagerie_avatar_fetches_total",
            "counter",
            "Avatar fetches, by outcome.",
        );
        for (o, c) in FetchOutcome::ALL.iter().zip(&self.fetches) {
            let _ = writeln!(
                out,
                "menagerie_avatar_fetches_total{{outcome=\"{}\"}} {}",
                o.label(),
                c.load(Relaxed)
            );
        }
        gauge(
            &mut out,
            "menagerie_render_jobs_in_flight",
            "Fetch/decode/render jobs running now.",
            self.jobs_in_flight.load(Relaxed),
        );
        gauge(
            &mut out,
            "menagerie_render_jobs_queued",
            "Canvas jobs waiting in the canvas queue for a slot now.",
            self.jobs_queued.load(Relaxed),
        );
        counter(
            &mut out,
            "menagerie_render_jobs_rejected_total",
            "Jobs refused with 503 because the pool was saturated.",
            self.jobs_rejected.load(Relaxed),
        );
        head(
            &mut out,
            "menagerie_rate_limited_total",
            "counter",
            "Requests refused with 429, by budget.",
        );
        for (b, c) in BUDGETS.iter().zip(&self.rate_limited) {
            let _ = writeln!(
                out,
                "menagerie_rate_limited_total{{budget=\"{b}\"}} {}",
                c.load(Relaxed)
            );
        }
        gauge(
            &mut out,
            "menagerie_rate_limit_clients",
            "Clients tracked by the rate limiter.",
            self.rate_limit_clients.load(Relaxed),
        );
        gauge(
            &mut out,
            "menagerie_rate_limit_redis_fallback",
            "1 while Redis is unreachable and rate limits are counted per replica.",
            self.redis_fallback.load(Relaxed),
        );
        counter(
            &mut out,
            "menagerie_rate_limit_redis_outages_total",
            "Times the shared rate limiter lost Redis and fell back to per-replica counting.",
            self.redis_outages.load(Relaxed),
        );
        counter(
            &mut out,
            "menagerie_rate_limit_fallback_decisions_total",
            "Requests the per-replica limiter decided because Redis was unreachable.",
            self.fallback_decisions.load(Relaxed),
        );
        gauge(
            &mut out,
            "menagerie_templates_loaded",
            "Operators' templates served (--templates).",
            self.templates_loaded.load(Relaxed),
        );
        counter(
            &mut out,
            "menagerie_templates_reload_errors_total",
            "Reloads of the templates folder refused; the previous templates stay.",
            self.template_reload_errors.load(Relaxed),
        );
        head(
            &mut out,
            "menagerie_uptime_seconds",
            "gauge",
            "Seconds since the server started.",
        );
        let _ = writeln!(
            out,
            "menagerie_uptime_seconds {}",
            self.started.elapsed().as_secs_f64()
        );
        let rss = self.resident_bytes.load(Relaxed);
        if rss > 0 {
            gauge(
                &mut out,
                "process_resident_memory_bytes",
                "Resident memory of the server process in bytes.",
                rss,
            );
        }
        out
    }
}

fn head(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn counter(out: &mut String, name: &str, help: &str, v: u64) {
    head(out, name, "counter", help);
    let _ = writeln!(out, "{name} {v}");
}

fn gauge(out: &mut String, name: &str, help: &str, v: impl std::fmt::Display) {
    head(out, name, "gauge", help);
    let _ = writeln!(out, "{name} {v}");
}

/// Escapes a label value (`\`, `"` and newlines).
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}
