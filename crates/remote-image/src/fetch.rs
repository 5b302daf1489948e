//! The [`AvatarFetcher`]: URL checks, the guarded ureq agent, the byte cap
//! and the decoded-avatar cache with single flight.

use std::collections::VecDeque;
use std::io::Read;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use image::RgbaImage;
use moka::sync::Cache;
use ureq::http::Uri;
use ureq::unversioned::resolver::{DefaultResolver, Resolver};
use ureq::unversioned::transport::DefaultConnector;

use crate::FetchError;
use crate::animation::{Animation, decode_avatar};
use crate::cost::decode_cost;
use crate::decode::ImageLimits;
use crate::resolver::{AddressPolicy, BadHop, GuardedResolver, Refused};
use crate::url::AvatarUrl;

/// Everything an [`AvatarFetcher`] can be told. `Default` gives the
/// production values documented on each field.
#[derive(Debug, Clone)]
pub struct FetchConfig {
    /// Let requests reach loopback and private networks. Default `false`;
    /// only for tests and trusted deployments (a warning is logged).
    pub allow_private: bool,
    /// Non-public addresses allowed even when `allow_private` is off (for
    /// an internal image host; tests use it to trust one loopback fixture).
    /// Default empty.
    pub allowed_addresses: Vec<IpAddr>,
    /// Time to resolve the host's name, and again to connect, per hop.
    /// Default 2 s.
    pub connect_timeout: Duration,
    /// Time for the whole fetch: every hop, headers and body. Default 5 s.
    pub overall_timeout: Duration,
    /// Largest body accepted, counted after content decoding (a gzip body
    /// counts at its inflated size). Default 8 MiB.
    pub max_bytes: u64,
    /// Redirects followed before giving up. Default 3.
    pub max_redirects: u32,
    /// Longest avatar URL accepted, in bytes. Default 2048.
    pub max_url_len: usize,
    /// Pixel cap and normalising size.
    pub image: ImageLimits,
    /// Capacity of the decoded-avatar cache, in bytes of RGBA pixels (every
    /// frame of an animated avatar, plus the key and a small overhead per
    /// entry). Default 256 MiB; 0 keeps
    /// nothing, though concurrent requests for one URL still share a fetch.
    pub cache_bytes: u64,
    /// How long a decoded avatar stays cached. Default 10 minutes.
    pub cache_ttl: Duration,
    /// Decodes (and normalisations) running at once; further ones wait.
    /// Fetches are not limited by it, only the memory- and CPU-heavy part.
    /// Default: the number of CPUs.
    pub max_concurrent_decodes: usize,
    /// Bytes of decode buffers in use at once, each decode counted by its
    /// real size ([`decode_cost`](crate::decode_cost): bit depth, RGBA
    /// copy, interlacing); further decodes wait, served in arrival order.
    /// Small decodes (up to 4 MiB, a still avatar of 512 px) have a lane of
    /// their own, 16 MiB (at most a sixteenth) of the budget, so they never
    /// wait behind a large one; in the rest, a decode larger than the
    /// budget runs alone. Default: 256 MiB.
    pub decode_budget_bytes: u64,
}

impl Default for FetchConfig {
    fn default() -> Self {
        Self {
            allow_private: false,
            allowed_addresses: Vec::new(),
            connect_timeout: Duration::from_secs(2),
            overall_timeout: Duration::from_secs(5),
            max_bytes: 8 << 20,
            max_redirects: 3,
            max_url_len: 2048,
            image: ImageLimits::default(),
            cache_bytes: 256 << 20,
            cache_ttl: Duration::from_secs(600),
            max_concurrent_decodes: std::thread::available_parallelism().map_or(2, |n| n.get()),
            decode_budget_bytes: 256 << 20,
        }
    }
}

/// A decoded, normalised avatar, cheap to clone.
#[derive(Debug, Clone)]
pub struct Avatar {
    /// RGBA8 pixels, longer side at most [`ImageLimits::normalize_side`].
    pub image: Arc<RgbaImage>,
    /// FNV-1a 64 of the fetched bytes: changes when the avatar changes, so
    /// it can feed an `ETag`.
    pub digest: u64,
    /// Every frame, when the avatar is animated (two frames or more);
    /// `image` is then its first frame.
    pub animation: Option<Arc<Animation>>,
    /// Bytes the decode of this avatar took at its peak
    /// ([`decode_cost`](crate::decode_cost)).
    pub decode_cost: u64,
}

impl Avatar {
    /// Bytes of pixels this avatar holds: the still image and, when it is
    /// animated, every frame. The cache weighs avatars by it.
    pub fn pixel_bytes(&self) -> usize {
        self.image.as_raw().len() + self.animation.as_ref().map_or(0, |a| a.pixel_bytes())
    }
}

/// FNV-1a, 64 bits: a stable, dependency-free content digest.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The decode gate: at most `max` decodes at once in each of its two
/// lanes, and at most `budget` bytes of decode buffers across both.
///
/// * **Small decodes** (at most [`SMALL_LANE_BYTES`] / 4 each: a still
///   avatar up to 512 px, the common case) have a lane of their own,
///   [`SMALL_LANE_BYTES`] (or a sixteenth of the budget, if less) carved out
///   of the budget. They never wait behind a large decode, so a client
///   sending huge images cannot hold up everyone's ordinary avatars.
/// * **The others** share the rest of the budget; one larger than it runs
///   alone in its lane (small ones may still run beside it, within their
///   own lane's bytes, so memory stays within the whole budget plus the
///   largest single decode's excess over the rest).
///
/// Each lane is a queue served in arrival order: a decode enters only when
/// every decode of its lane that came before it has entered, so a decode
/// larger than its lane's budget delays the ones behind it by its own run,
/// and cannot be overtaken for ever either. A wait may be given an end (the
/// caller's queue deadline); past it the decode leaves the queue with
/// [`FetchError::DecodeQueueTimeout`].
#[derive(Debug)]
struct DecodeGate {
    small: Lane,
    large: Lane,
    /// The largest decode that takes the small lane.
    small_cost: u64,
}

/// Bytes of the decode budget kept for small decodes (at most a sixteenth
/// of the budget).
const SMALL_LANE_BYTES: u64 = 16 << 20;

impl DecodeGate {
    fn new(max: usize, budget: u64) -> Self {
        let small_budget = SMALL_LANE_BYTES.min(budget / 16);
        Self {
            small: Lane::new(max, small_budget),
            large: Lane::new(max, budget - small_budget),
            small_cost: small_budget / 4,
        }
    }

    /// The lane a decode of `cost` bytes waits in.
    fn lane(&self, cost: u64) -> &Lane {
        if cost <= self.small_cost {
            &self.small
        } else {
            &self.large
        }
    }

    /// Waits for this decode's turn in its lane and enters; `Err` when
    /// `until` passes first (see [`Lane::enter`]).
    fn enter(&self, cost: u64, until: Option<Instant>) -> Result<DecodeTicket<'_>, FetchError> {
        self.lane(cost).enter(cost, until)
    }
}

/// One lane of the [`DecodeGate`]: at most `max` decodes and `budget` bytes
/// (one decode always fits when none runs), in arrival order.
#[derive(Debug)]
struct Lane {
    state: Mutex<GateState>,
    freed: Condvar,
    max: usize,
    budget: u64,
}

#[derive(Debug, Default)]
struct GateState {
    /// Decodes running.
    running: usize,
    /// Bytes the running decodes hold.
    bytes: u64,
    /// The next waiter's ticket number.
    next: u64,
    /// Tickets of the waiting decodes, oldest first.
    waiting: VecDeque<u64>,
}

impl GateState {
    fn fits(&self, cost: u64, max: usize, budget: u64) -> bool {
        self.running < max && (self.running == 0 || self.bytes.saturating_add(cost) <= budget)
    }
}

impl Lane {
    fn new(max: usize, budget: u64) -> Self {
        Self {
            state: Mutex::default(),
            freed: Condvar::new(),
            max: max.max(1),
            budget,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, GateState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Waits for this decode's turn (every earlier waiter has entered) and
    /// for room (`cost` bytes within the budget, or nothing running), then
    /// enters. `Err` when `until` passes first; the decode has then left
    /// the queue.
    fn enter(&self, cost: u64, until: Option<Instant>) -> Result<DecodeTicket<'_>, FetchError> {
        let mut state = self.lock();
        let ticket = state.next;
        state.next += 1;
        state.waiting.push_back(ticket);
        loop {
            if state.waiting.front() == Some(&ticket) && state.fits(cost, self.max, self.budget) {
                state.waiting.pop_front();
                state.running += 1;
                state.bytes = state.bytes.saturating_add(cost);
                // The next in line may fit beside this one.
                self.freed.notify_all();
                return Ok(DecodeTicket(self, cost));
            }
            state = match until {
                None => self
                    .freed
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner),
                Some(end) => {
                    let now = Instant::now();
                    if now >= end {
                        state.waiting.retain(|&t| t != ticket);
                        // The one behind may be first now.
                        self.freed.notify_all();
                        return Err(FetchError::DecodeQueueTimeout);
                    }
                    self.freed
                        .wait_timeout(state, end - now)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0
                }
            };
        }
    }
}

struct DecodeTicket<'a>(&'a Lane, u64);

impl Drop for DecodeTicket<'_> {
    fn drop(&mut self) {
        let mut state = self.0.lock();
        state.running -= 1;
        state.bytes -= self.1;
        self.0.freed.notify_all();
    }
}

/// Fetches, decodes and caches avatars from user-supplied URLs without ever
/// reaching a private network. Blocking: call it off async workers.
pub struct AvatarFetcher {
    agent: ureq::Agent,
    config: FetchConfig,
    cache: Cache<Arc<str>, Avatar>,
    network_fetches: AtomicU64,
    decodes: DecodeGate,
}

impl std::fmt::Debug for AvatarFetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AvatarFetcher")
            .field("config", &self.config)
            .field("cached", &self.cache.entry_count())
            .finish_non_exhaustive()
    }
}

impl AvatarFetcher {
    /// A fetcher resolving names with the system resolver.
    pub fn new(config: FetchConfig) -> Self {
        Self::with_resolver(config, DefaultResolver::default())
    }

    /// A fetcher resolving names with `resolver` (tests pass a stub that
    /// returns hostile answers). Whatever it returns goes through the
    /// address guard.
    pub fn with_resolver(config: FetchConfig, resolver: impl Resolver) -> Self {
        if config.allow_private {
            tracing::warn!(
                "avatar fetcher allows private addresses: requests may reach loopback and internal networks"
            );
        }
        let policy = AddressPolicy {
            allow_private: config.allow_private,
            allowed: config.allowed_addresses.clone(),
        };
        let guard = GuardedResolver::new(Arc::new(resolver), policy);
        let agent_config = ureq::Agent::config_builder()
            .proxy(None)
            .http_status_as_error(false)
            .max_redirects(config.max_redirects)
            .max_redirects_will_error(true)
            .timeout_global(Some(config.overall_timeout))
            .timeout_resolve(Some(config.connect_timeout))
            .timeout_connect(Some(config.connect_timeout))
            .user_agent(concat!(
                "menagerie-avatar-fetcher/",
                env!("CARGO_PKG_VERSION")
            ))
            .accept("image/png,image/jpeg,image/gif,image/webp;q=0.9,*/*;q=0.1")
            .build();
        let agent = ureq::Agent::with_parts(agent_config, DefaultConnector::new(), guard);
        let cache = Cache::builder()
            .max_capacity(config.cache_bytes)
            .time_to_live(config.cache_ttl)
            .weigher(|key: &Arc<str>, avatar: &Avatar| {
                let pixels = avatar.pixel_bytes() + key.len() + 64;
                u32::try_from(pixels).unwrap_or(u32::MAX)
            })
            .build();
        let decodes = DecodeGate::new(config.max_concurrent_decodes, config.decode_budget_bytes);
        Self {
            agent,
            config,
            cache,
            network_fetches: AtomicU64::new(0),
            decodes,
        }
    }

    /// The configuration this fetcher runs with.
    pub fn config(&self) -> &FetchConfig {
        &self.config
    }

    /// Checks an avatar URL without fetching it: length (the configured
    /// `max_url_len`), syntax, scheme and absence of user information. The
    /// result is what every other method takes.
    pub fn parse_url(&self, url: &str) -> Result<AvatarUrl, FetchError> {
        AvatarUrl::parse(url, self.config.max_url_len)
    }

    /// The decoded, normalised avatar at `url`, from the cache when it is
    /// there. Concurrent calls for one URL share a single fetch; failures
    /// are not cached.
    pub fn fetch(&self, url: &AvatarUrl) -> Result<Avatar, FetchError> {
        self.fetch_traced(url).0
    }

    /// [`parse_url`](Self::parse_url), then [`fetch`](Self::fetch).
    pub fn get(&self, url: &str) -> Result<Avatar, FetchError> {
        self.fetch(&self.parse_url(url)?)
    }

    /// The avatar at `url` if the cache holds it now. Never fetches and
    /// never waits for another call's fetch, so it is cheap enough (about a
    /// microsecond) to call from an async task.
    pub fn cached(&self, url: &AvatarUrl) -> Option<Avatar> {
        self.cache.get(url.as_str())
    }

    /// Like [`fetch`](Self::fetch), also telling whether this call went to
    /// the network (`true`: a cache miss that this call loaded; waiters on
    /// another call's fetch and cache hits are `false`). For metrics.
    pub fn fetch_traced(&self, url: &AvatarUrl) -> (Result<Avatar, FetchError>, bool) {
        self.fetch_traced_until(url, None)
    }

    /// [`fetch_traced`](Self::fetch_traced), giving up with
    /// [`FetchError::DecodeQueueTimeout`] when the decode is still waiting
    /// for its turn at `until` (a caller's queue deadline). The network
    /// fetch itself is bounded by the fetch timeouts, not by `until`.
    pub fn fetch_traced_until(
        &self,
        url: &AvatarUrl,
        until: Option<Instant>,
    ) -> (Result<Avatar, FetchError>, bool) {
        let fetched = std::cell::Cell::new(false);
        let result = self
            .cache
            .try_get_with(url.key(), || {
                fetched.set(true);
                self.load_uri(url.uri(), until)
            })
            .map_err(|e| (*e).clone());
        (result, fetched.get())
    }

    /// Fetches, decodes and normalises `url`, bypassing the cache.
    pub fn load(&self, url: &str) -> Result<Avatar, FetchError> {
        self.load_uri(self.parse_url(url)?.uri(), None)
    }

    /// The body at `url`, fetched under every network rule of this crate
    /// (the address guard on every hop, the byte cap, the timeouts) but
    /// neither decoded nor cached: what
    /// [`fetch_traced_from`](Self::fetch_traced_from) takes, so a caller
    /// can fetch a second image's body while it waits for another, and
    /// decode it later. Counted as a network fetch.
    pub fn fetch_body(&self, url: &AvatarUrl) -> Result<Vec<u8>, FetchError> {
        self.fetch_uri(url.uri())
    }

    /// [`fetch_traced_until`](Self::fetch_traced_until) for an avatar whose
    /// body was fetched already ([`fetch_body`](Self::fetch_body)): when
    /// the cache holds `url`, or another call is loading it, that result is
    /// given and `body` is dropped undecoded; otherwise this call decodes
    /// `body` (through the decode gate, giving up at `until` like a fetch)
    /// and caches it, with the single flight of every other load. A failed
    /// `body` is this load's error, not cached; `true` when this call
    /// loaded (decoded, or failed with `body`'s error).
    pub fn fetch_traced_from(
        &self,
        url: &AvatarUrl,
        body: Result<Vec<u8>, FetchError>,
        until: Option<Instant>,
    ) -> (Result<Avatar, FetchError>, bool) {
        let fetched = std::cell::Cell::new(false);
        let result = self
            .cache
            .try_get_with(url.key(), || {
                fetched.set(true);
                self.decode_body(&body?, until)
            })
            .map_err(|e| (*e).clone());
        (result, fetched.get())
    }

    fn load_uri(&self, uri: &Uri, until: Option<Instant>) -> Result<Avatar, FetchError> {
        let bytes = self.fetch_uri(uri)?;
        self.decode_body(&bytes, until)
    }

    /// Decodes and normalises a fetched body, once the decode gate lets
    /// this decode's cost in (or `until` passes).
    fn decode_body(&self, bytes: &[u8], until: Option<Instant>) -> Result<Avatar, FetchError> {
        let decode_cost = decode_cost(bytes, &self.config.image)?;
        let _ticket = self.decodes.enter(decode_cost, until)?;
        let decoded = decode_avatar(bytes, &self.config.image)?;
        Ok(Avatar {
            image: Arc::new(decoded.still),
            digest: fnv1a64(bytes),
            animation: decoded.animation.map(Arc::new),
            decode_cost,
        })
    }

    /// The raw body at `url` (after content decoding), under every network
    /// rule of this crate. Not cached.
    pub fn fetch_bytes(&self, url: &str) -> Result<Vec<u8>, FetchError> {
        self.fetch_uri(self.parse_url(url)?.uri())
    }

    fn fetch_uri(&self, uri: &Uri) -> Result<Vec<u8>, FetchError> {
        self.network_fetches.fetch_add(1, Ordering::Relaxed);
        let max = self.config.max_bytes;
        let response = self
            .agent
            .get(uri.clone())
            .call()
            .map_err(|e| self.map_ureq(e))?;
        let status = response.status().as_u16();
        match status {
            200..=299 => {}
            400..=499 => return Err(FetchError::UpstreamRejected { status }),
            _ => return Err(FetchError::UpstreamFailed { status }),
        }
        let encoded = response
            .headers()
            .contains_key(ureq::http::header::CONTENT_ENCODING);
        let body = response.into_body();
        // A plain body announcing more than the cap is refused before
        // reading; encoded bodies are judged on their decoded size below.
        if !encoded && body.content_length().is_some_and(|len| len > max) {
            return Err(FetchError::TooManyBytes { max });
        }
        let capacity = body.content_length().unwrap_or(64 << 10).min(max);
        // The raw limit bounds the wire bytes; `take` bounds the decoded
        // bytes, which is what a gzip bomb inflates.
        let reader = body
            .into_with_config()
            .limit(max.saturating_add(1))
            .reader();
        let mut bytes = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
        reader
            .take(max.saturating_add(1))
            .read_to_end(&mut bytes)
            .map_err(|e| self.map_ureq(ureq::Error::from(e)))?;
        if bytes.len() as u64 > max {
            return Err(FetchError::TooManyBytes { max });
        }
        Ok(bytes)
    }

    fn map_ureq(&self, err: ureq::Error) -> FetchError {
        match err {
            ureq::Error::Io(io) => {
                if let Some(inner) = io.get_ref() {
                    if inner.is::<Refused>() {
                        return FetchError::RefusedAddress;
                    }
                    if let Some(hop) = inner.downcast_ref::<BadHop>() {
                        return FetchError::InvalidUrl(hop.0);
                    }
                }
                match io.kind() {
                    std::io::ErrorKind::TimedOut | std::io::ErrorKind::WouldBlock => {
                        FetchError::TooSlow
                    }
                    _ => FetchError::Unreachable,
                }
            }
            ureq::Error::Timeout(_) => FetchError::TooSlow,
            ureq::Error::TooManyRedirects => FetchError::TooManyRedirects {
                max: self.config.max_redirects,
            },
            ureq::Error::BodyExceedsLimit(_) => FetchError::TooManyBytes {
                max: self.config.max_bytes,
            },
            ureq::Error::BadUri(_) => {
                FetchError::InvalidUrl("the URL or one of its redirects is not a valid http(s) URL")
            }
            _ => FetchError::Unreachable,
        }
    }

    /// How many network fetches were started (cache misses and uncached
    /// loads). For tests and metrics.
    pub fn network_fetches(&self) -> u64 {
        self.network_fetches.load(Ordering::Relaxed)
    }

    /// Number of avatars in the cache (approximate while writes are pending).
    pub fn cached_entries(&self) -> u64 {
        self.cache.run_pending_tasks();
        self.cache.entry_count()
    }

    /// Bytes held by the cache, as counted by its weigher.
    pub fn cached_bytes(&self) -> u64 {
        self.cache.run_pending_tasks();
        self.cache.weighted_size()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `costs` through `gate` on threads at once and gives the most
    /// decodes and bytes that were inside together.
    fn peak_inside(gate: DecodeGate, costs: &[u64]) -> (u64, u64) {
        let gate = Arc::new(gate);
        let inside = Arc::new(Mutex::new((0u64, 0u64)));
        let peak = Arc::new(Mutex::new((0u64, 0u64)));
        let threads: Vec<_> = costs
            .iter()
            .map(|&cost| {
                let (gate, inside, peak) =
                    (Arc::clone(&gate), Arc::clone(&inside), Arc::clone(&peak));
                std::thread::spawn(move || {
                    let _t = gate.enter(cost, None).unwrap();
                    {
                        let mut now = inside.lock().unwrap();
                        now.0 += 1;
                        now.1 += cost;
                        let mut p = peak.lock().unwrap();
                        *p = (p.0.max(now.0), p.1.max(now.1));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                    let mut now = inside.lock().unwrap();
                    now.0 -= 1;
                    now.1 -= cost;
                })
            })
            .collect();
        for t in threads {
            t.join().unwrap();
        }
        for lane in [&gate.small, &gate.large] {
            let state = lane.lock();
            assert_eq!((state.running, state.bytes, state.waiting.len()), (0, 0, 0));
        }
        *peak.lock().unwrap()
    }

    #[test]
    fn the_decode_gate_admits_at_most_max() {
        let (decodes, _) = peak_inside(DecodeGate::new(2, u64::MAX), &[1; 8]);
        assert!((1..=2).contains(&decodes), "peak {decodes}");
    }

    #[test]
    fn the_decode_gate_holds_the_byte_budget() {
        const MIB: u64 = 1 << 20;
        // Small decodes share the budget; two 16-bit 4096² decodes (about
        // 228 MiB each) never run together under 256 MiB, and one larger
        // than the budget still runs alone.
        let (decodes, _) = peak_inside(DecodeGate::new(8, 256 * MIB), &[8 * MIB; 8]);
        assert!(decodes >= 2, "small decodes ran one at a time");
        let (decodes, bytes) = peak_inside(DecodeGate::new(8, 256 * MIB), &[228 * MIB; 4]);
        assert_eq!((decodes, bytes), (1, 228 * MIB));
        let (decodes, _) = peak_inside(DecodeGate::new(8, 100 * MIB), &[228 * MIB, 228 * MIB]);
        assert_eq!(decodes, 1);
    }

    /// Waits until `n` decodes are queued at `gate`, in both lanes.
    fn until_waiting(gate: &DecodeGate, n: usize) {
        while gate.small.lock().waiting.len() + gate.large.lock().waiting.len() < n {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    #[test]
    fn the_decode_gate_serves_waiters_in_arrival_order() {
        let gate = Arc::new(DecodeGate::new(1, u64::MAX));
        let order = Arc::new(Mutex::new(Vec::new()));
        let held = gate.enter(1, None).unwrap();
        let threads: Vec<_> = (0..8)
            .map(|i| {
                let (g, order) = (Arc::clone(&gate), Arc::clone(&order));
                let t = std::thread::spawn(move || {
                    let _t = g.enter(1, None).unwrap();
                    order.lock().unwrap().push(i);
                });
                until_waiting(&gate, i + 1);
                t
            })
            .collect();
        drop(held);
        for t in threads {
            t.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), (0..8).collect::<Vec<_>>());
    }

    #[test]
    fn large_decodes_do_not_overtake_a_waiting_large_one() {
        const MIB: u64 = 1 << 20;
        // A decode over the budget waits for its lane to empty; a mid-sized
        // one arriving after it waits behind it instead of slipping in
        // beside the running one (which would keep the large one out for as
        // long as others keep coming).
        let gate = Arc::new(DecodeGate::new(8, 100 * MIB));
        let order = Arc::new(Mutex::new(Vec::new()));
        let running = gate.enter(10 * MIB, None).unwrap();
        let spawn = |name: &'static str, cost: u64| {
            let (g, order) = (Arc::clone(&gate), Arc::clone(&order));
            std::thread::spawn(move || {
                let _t = g.enter(cost, None).unwrap();
                order.lock().unwrap().push(name);
                std::thread::sleep(Duration::from_millis(20));
            })
        };
        let large = spawn("large", 200 * MIB);
        until_waiting(&gate, 1);
        let mid = spawn("mid", 5 * MIB);
        until_waiting(&gate, 2);
        std::thread::sleep(Duration::from_millis(30));
        assert!(
            order.lock().unwrap().is_empty(),
            "nobody overtook the queue"
        );
        drop(running);
        large.join().unwrap();
        mid.join().unwrap();
        assert_eq!(*order.lock().unwrap(), ["large", "mid"]);
    }

    #[test]
    fn small_decodes_never_wait_behind_large_ones() {
        const MIB: u64 = 1 << 20;
        // The default gate: a 228 MiB decode (a 16-bit interlaced 4096²
        // PNG) runs and another waits for it, yet an ordinary avatar's
        // decode (a 256 px one costs under 1 MiB) goes in at once, beside
        // both, and so do as many as the lane holds.
        let gate = Arc::new(DecodeGate::new(2, 256 * MIB));
        let running = gate.enter(228 * MIB, None).unwrap();
        let queued = {
            let g = Arc::clone(&gate);
            std::thread::spawn(move || g.enter(228 * MIB, None).map(|_| ()))
        };
        until_waiting(&gate, 1);
        let t0 = Instant::now();
        let small: Vec<_> = (0..2)
            .map(|_| gate.enter(MIB, Some(t0 + Duration::from_millis(100))))
            .collect();
        assert!(small.iter().all(Result::is_ok), "small decodes waited");
        // The lane's own bounds still hold: a third small one waits.
        assert!(matches!(
            gate.enter(MIB, Some(Instant::now() + Duration::from_millis(20))),
            Err(FetchError::DecodeQueueTimeout)
        ));
        drop(small);
        // Small decodes cost the large lane nothing: its budget is the rest.
        assert_eq!(gate.large.budget + gate.small.budget, 256 * MIB);
        assert_eq!((gate.small.budget, gate.small_cost), (16 * MIB, 4 * MIB));
        drop(running);
        queued.join().unwrap().unwrap();
    }

    #[test]
    fn a_decode_leaves_the_queue_at_its_deadline() {
        let gate = DecodeGate::new(1, u64::MAX);
        let held = gate.enter(1, None).unwrap();
        let t0 = Instant::now();
        let waited = gate.enter(1, Some(t0 + Duration::from_millis(50)));
        assert!(matches!(waited, Err(FetchError::DecodeQueueTimeout)));
        assert!(t0.elapsed() >= Duration::from_millis(50));
        assert!(gate.small.lock().waiting.is_empty(), "the queue forgot it");
        drop(held);
        // A deadline already past still enters when it is first and fits.
        assert!(gate.enter(1, Some(Instant::now())).is_ok());
    }
}
