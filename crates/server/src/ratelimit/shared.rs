//! Rate limits counted in Redis (`--rate-limit-redis URL`), shared by every
//! replica.
//!
//! **Algorithm.** The same GCRA as the per-replica limiter, run atomically
//! in Redis by one Lua script: a key per client and budget
//! (`menagerie:rl:<budget>:<client>`) holds the theoretical arrival time in
//! microseconds of Redis's own clock (`TIME`, so replicas need not agree on
//! the time), and expires when the bucket is full again, so idle clients
//! cost Redis nothing. API keys are stored as a hash, never in clear.
//!
//! **Connection.** One multiplexed connection (`redis`'s
//! `ConnectionManager`, reconnecting by itself), driven by a Tokio runtime
//! on a thread of its own (`redis-limit`), so the actix workers only hand a
//! check over and wait for the answer.
//!
//! **Redis slow or down.** A check waits at most
//! `--rate-limit-redis-timeout-ms` (default 50 ms). An error or a missed
//! deadline switches the limiter to *fallback*: every replica counts alone
//! with the per-replica limiter (the same quotas, so a client spread over
//! N replicas may get up to N times its limit meanwhile), without waiting
//! on Redis at all. One warning is logged per outage (not per request), the
//! gauge `menagerie_rate_limit_redis_fallback` is 1 and
//! `menagerie_rate_limit_redis_outages_total` counts outages. A probe pings
//! Redis every [`PROBE_INTERVAL`]; when it answers, one info line is logged
//! and shared counting resumes (counts kept in Redis before the outage
//! still apply; counts made per replica meanwhile are not carried over).
//! The server starts in fallback and leaves it on the first answered
//! probe, so a Redis that is down at start-up delays nothing either.

use std::future::Future;
use std::hash::Hasher as _;
use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use super::{Budget, ClientKey, Decision, WINDOW_NANOS};
use crate::metrics::Metrics;

/// How often Redis is pinged while the limiter is in fallback.
pub const PROBE_INTERVAL: Duration = Duration::from_millis(500);

/// Prefix of every key the limiter writes.
const KEY_PREFIX: &str = "menagerie:rl";

/// GCRA in one step. `KEYS[1]`: the client's key; `ARGV[1]`: the emission
/// interval and `ARGV[2]` the window, both in microseconds. Returns
/// `{allowed, used, wait}`: whether the request passes, the microseconds
/// of the bucket in use (after it, when allowed) and, when refused, the
/// microseconds until one more request would pass.
const SCRIPT: &str = r"
local t = tonumber(ARGV[1])
local w = tonumber(ARGV[2])
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local new_tat = tat + t
if new_tat - now > w then
  return {0, tat - now, new_tat - now - w}
end
redis.call('SET', KEYS[1], string.format('%d', new_tat), 'PX', math.max(1, math.ceil((new_tat - now) / 1000)))
return {1, new_tat - now, 0}
";

/// Why `--rate-limit-redis` was refused at start-up.
#[derive(Debug, thiserror::Error)]
pub enum SharedConfigError {
    /// The URL does not parse as a Redis URL.
    #[error("--rate-limit-redis: {0}")]
    Url(String),
    /// The runtime thread could not be started.
    #[error("--rate-limit-redis: could not start the Redis thread: {0}")]
    Thread(String),
}

/// The Redis side of the limiter.
pub struct SharedCounter {
    inner: Arc<Inner>,
    handle: tokio::runtime::Handle,
    deadline: Duration,
    /// Ends the runtime thread when the counter is dropped.
    _stop: tokio::sync::oneshot::Sender<()>,
}

impl std::fmt::Debug for SharedCounter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedCounter")
            .field("deadline", &self.deadline)
            .field("fallback", &self.inner.fallback.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

struct Inner {
    manager: ConnectionManager,
    script: redis::Script,
    /// Redis is unreachable: decide per replica, a probe is running.
    fallback: AtomicBool,
    metrics: Arc<Metrics>,
    deadline: Duration,
}

impl SharedCounter {
    /// Starts the Redis thread and the first probe; no connection is needed
    /// yet (the limiter is in fallback until Redis answers).
    pub fn start(
        url: &str,
        deadline: Duration,
        metrics: Arc<Metrics>,
    ) -> Result<Self, SharedConfigError> {
        let client = redis::Client::open(url).map_err(|e| SharedConfigError::Url(e.to_string()))?;
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| SharedConfigError::Thread(e.to_string()))?;
        let handle = rt.handle().clone();
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(Duration::from_secs(1)))
            .set_response_timeout(Some(Duration::from_secs(1)))
            .set_number_of_retries(1)
            .set_min_delay(Duration::from_millis(50))
            .set_max_delay(Duration::from_millis(200));
        let manager = {
            let _entered = rt.enter();
            ConnectionManager::new_lazy_with_config(client, config)
                .map_err(|e| SharedConfigError::Url(e.to_string()))?
        };
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::Builder::new()
            .name("redis-limit".into())
            .spawn(move || {
                rt.block_on(async {
                    let _ = stopped.await;
                });
            })
            .map_err(|e| SharedConfigError::Thread(e.to_string()))?;
        metrics.set_redis_fallback(true);
        let inner = Arc::new(Inner {
            manager,
            script: redis::Script::new(SCRIPT),
            fallback: AtomicBool::new(true),
            metrics,
            deadline,
        });
        handle.spawn(probe(Arc::clone(&inner), true));
        Ok(Self {
            inner,
            handle,
            deadline,
            _stop: stop,
        })
    }

    /// Whether checks go to Redis now (false in fallback).
    pub(super) fn available(&self) -> bool {
        !self.inner.fallback.load(Ordering::Relaxed)
    }

    /// Checks one request in Redis. `None` when Redis did not answer in
    /// time (or failed): the caller decides per replica, and the limiter
    /// is in fallback from then on until a probe succeeds.
    pub(super) fn check(
        &self,
        client: &ClientKey,
        budget: Budget,
        quota: u32,
    ) -> impl Future<Output = Option<Decision>> + 'static {
        let key = redis_key(client, budget);
        // At least 1 µs: quotas above 60 million a minute count as that.
        let t_micros = (WINDOW_NANOS / 1000 / u64::from(quota.max(1))).max(1);
        let inner = Arc::clone(&self.inner);
        let task = self.handle.spawn(async move {
            let mut conn = inner.manager.clone();
            let r: redis::RedisResult<(u8, i64, i64)> = inner
                .script
                .key(key)
                .arg(t_micros)
                .arg(WINDOW_NANOS / 1000)
                .invoke_async(&mut conn)
                .await;
            r
        });
        let deadline = self.deadline;
        let inner = Arc::clone(&self.inner);
        let handle = self.handle.clone();
        async move {
            let outcome = match tokio::time::timeout(deadline, task).await {
                Ok(Ok(Ok(answer))) => return Some(decision(answer, quota)),
                Ok(Ok(Err(e))) => e.to_string(),
                Ok(Err(e)) => e.to_string(),
                Err(_) => format!("no answer within {} ms", deadline.as_millis()),
            };
            if !inner.fallback.swap(true, Ordering::AcqRel) {
                tracing::warn!(
                    reason = %outcome,
                    "rate limit: Redis unreachable; counting per replica until it answers"
                );
                inner.metrics.set_redis_fallback(true);
                inner.metrics.redis_outage();
                handle.spawn(probe(inner, false));
            }
            None
        }
    }
}

/// Pings Redis every [`PROBE_INTERVAL`] until it answers, then leaves
/// fallback. `starting`: the first probe after start-up (logs differently).
async fn probe(inner: Arc<Inner>, starting: bool) {
    // After an outage the warning is already logged; at start-up it is
    // logged by the first probe that fails.
    let mut warned = !starting;
    let mut first = starting;
    loop {
        if !first {
            tokio::time::sleep(PROBE_INTERVAL).await;
        }
        first = false;
        let mut conn = inner.manager.clone();
        let ping = tokio::time::timeout(
            inner.deadline.max(Duration::from_millis(500)),
            redis::cmd("PING").query_async::<String>(&mut conn),
        )
        .await;
        match ping {
            Ok(Ok(_)) => {
                inner.fallback.store(false, Ordering::Release);
                inner.metrics.set_redis_fallback(false);
                if starting && !warned {
                    tracing::info!("rate limit: counting in Redis, shared by every replica");
                } else {
                    tracing::info!("rate limit: Redis answers again; shared counting resumes");
                }
                return;
            }
            Ok(Err(e)) if !warned => {
                tracing::warn!(reason = %e, "rate limit: Redis unreachable; counting per replica until it answers");
                inner.metrics.redis_outage();
                warned = true;
            }
            Err(_) if !warned => {
                tracing::warn!(
                    reason = "no answer to PING",
                    "rate limit: Redis unreachable; counting per replica until it answers"
                );
                inner.metrics.redis_outage();
                warned = true;
            }
            _ => {}
        }
    }
}

/// The limiter's decision from the script's answer (microseconds).
fn decision((allowed, used, wait): (u8, i64, i64), quota: u32) -> Decision {
    let nanos = |us: i64| u64::try_from(us).unwrap_or(0).saturating_mul(1000);
    Decision::gcra(quota, nanos(used), (allowed != 1).then(|| nanos(wait)))
}

/// The Redis key of a client's budget: the address as written, or a hash
/// of the API key (the key itself never leaves the process).
fn redis_key(client: &ClientKey, budget: Budget) -> String {
    let budget = match budget {
        Budget::Default => "default",
        Budget::Canvas => "canvas",
    };
    match client {
        ClientKey::Ip(IpAddr::V4(ip)) => format!("{KEY_PREFIX}:{budget}:{ip}"),
        ClientKey::Ip(IpAddr::V6(ip)) => format!("{KEY_PREFIX}:{budget}:[{ip}]"),
        ClientKey::Key(k) => {
            // FNV-1a over the key twice with different offsets: a 128-bit
            // name that is the same in every replica and every build.
            let mut a = Fnv(0xcbf2_9ce4_8422_2325);
            let mut b = Fnv(0x6c62_272e_07bb_0142);
            a.write(k.as_bytes());
            b.write(k.as_bytes());
            format!("{KEY_PREFIX}:{budget}:key:{:016x}{:016x}", a.0, b.0)
        }
    }
}

/// FNV-1a, 64 bits: stable across builds, unlike `std`'s hashers.
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_name_the_budget_and_hide_api_keys() {
        let ip = ClientKey::Ip("192.0.2.1".parse().unwrap());
        assert_eq!(
            redis_key(&ip, Budget::Canvas),
            "menagerie:rl:canvas:192.0.2.1"
        );
        let v6 = ClientKey::Ip("2001:db8::".parse().unwrap());
        assert_eq!(
            redis_key(&v6, Budget::Default),
            "menagerie:rl:default:[2001:db8::]"
        );
        let secret = "abcdefghijklmnopqrstuvwxyz";
        let k = redis_key(&ClientKey::Key(secret.into()), Budget::Default);
        assert!(!k.contains(secret), "{k}");
        assert_eq!(k.len(), "menagerie:rl:default:key:".len() + 32);
        // The same in every process.
        assert_eq!(
            k,
            redis_key(&ClientKey::Key(secret.into()), Budget::Default)
        );
    }

    #[test]
    fn script_answers_become_the_same_decisions_as_local_ones() {
        // quota 3: one token every 20 s.
        let d = decision((1, 20_000_000, 0), 3);
        assert!(d.allowed);
        assert_eq!((d.remaining, d.reset_secs), (2, 20));
        let d = decision((0, 60_000_000, 20_000_000), 3);
        assert!(!d.allowed);
        assert_eq!((d.remaining, d.reset_secs, d.retry_after_secs), (0, 60, 20));
        // Never a zero Retry-After, whatever Redis says.
        assert_eq!(decision((0, 60_000_000, 0), 3).retry_after_secs, 1);
    }
}
