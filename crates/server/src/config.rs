//! Typed server settings, read once from command-line flags with
//! `MENAGERIE_*` environment equivalents.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::str::FromStr;

use clap::{Parser, ValueEnum};

/// Default of `--canvas-queue`: canvas requests waiting for a job slot.
pub const DEFAULT_CANVAS_QUEUE: usize = 512;

/// Default of `--canvas-queue-ms`: how long a canvas request waits.
pub const DEFAULT_CANVAS_QUEUE_MS: u64 = 10_000;

/// Every setting of the `menagerie` binary.
///
/// Each flag has an environment variable of the same name in upper case,
/// prefixed with `MENAGERIE_` (`--data-dir` ↔ `MENAGERIE_DATA_DIR`).
#[derive(Debug, Clone, Parser)]
#[command(
    name = "menagerie",
    version,
    about = "The Menagerie HTTP service",
    after_help = "Check a templates folder without starting: menagerie templates check DIR"
)]
pub struct Settings {
    /// Address and port to listen on.
    #[arg(long, env = "MENAGERIE_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Directory with the generated data (`cargo xtask data` writes it).
    #[arg(long, env = "MENAGERIE_DATA_DIR", default_value = "data")]
    pub data_dir: PathBuf,

    /// Number of HTTP worker threads (default: one per CPU core).
    #[arg(long, env = "MENAGERIE_WORKERS")]
    pub workers: Option<usize>,

    /// Log line format.
    #[arg(long, env = "MENAGERIE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Log filter: a level (`info`, `debug`...) or a tracing filter directive.
    #[arg(long, env = "MENAGERIE_LOG_LEVEL", default_value = "info")]
    pub log_level: String,

    // -- creature reference --
    /// Base URL of the PokeAPI sprites tree used in `/creature/dex` sprites
    /// and `/creature/items` sprite URLs (point it at a self-hosted copy of
    /// the sprites repository's `sprites/` folder).
    #[arg(long, env = "MENAGERIE_SPRITE_BASE_URL", default_value = DEFAULT_SPRITE_BASE_URL)]
    pub sprite_base_url: String,
    // -- end creature reference --
    /// Seconds to let in-flight requests finish after SIGTERM/SIGINT.
    #[arg(long, env = "MENAGERIE_SHUTDOWN_TIMEOUT", default_value_t = 10)]
    pub shutdown_timeout: u64,

    // --- limits, rate limiting, API keys ---
    /// Longest accepted request target (path and query), in bytes; longer → 414 JSON.
    #[arg(long, env = "MENAGERIE_MAX_URI_BYTES", default_value_t = 8192)]
    pub max_uri_bytes: usize,

    /// Milliseconds a client has to send a whole request head (from the
    /// connection's start for its first request, from the head's first byte
    /// for the next ones); later → 408 JSON and the connection closed.
    #[arg(long, env = "MENAGERIE_REQUEST_HEAD_TIMEOUT_MS", default_value_t = 5000,
          value_parser = clap::value_parser!(u64).range(100..=600_000))]
    pub request_head_timeout_ms: u64,

    /// Turns rate limiting on: requests per minute per client for every
    /// endpoint except the canvas images (off when absent).
    #[arg(long, env = "MENAGERIE_RATE_LIMIT", value_parser = clap::value_parser!(u32).range(1..))]
    pub rate_limit: Option<u32>,

    /// Requests per minute per client for the canvas image endpoints
    /// (`/canvas/misc/*`, `/canvas/filter/*`, `/canvas/colorviewer`), a budget
    /// of its own (default: a fifth of `--rate-limit`, at least 1).
    #[arg(long, env = "MENAGERIE_CANVAS_RATE_LIMIT", value_parser = clap::value_parser!(u32).range(1..))]
    pub canvas_rate_limit: Option<u32>,

    /// Most clients the rate limiter remembers at once (bounds its memory).
    #[arg(long, env = "MENAGERIE_RATE_LIMIT_CLIENTS", default_value_t = 100_000)]
    pub rate_limit_clients: usize,

    /// A proxy (CIDR, repeatable or comma-separated) whose `X-Forwarded-For`
    /// is believed; from any other peer the header is ignored.
    #[arg(
        long = "trusted-proxy",
        env = "MENAGERIE_TRUSTED_PROXIES",
        value_delimiter = ','
    )]
    pub trusted_proxies: Vec<Cidr>,

    /// File of API keys with their own limits, one per line:
    /// `<key> <per-minute> [<canvas-per-minute>]` (needs `--rate-limit`).
    #[arg(long, env = "MENAGERIE_API_KEYS")]
    pub api_keys: Option<PathBuf>,

    /// Counts the rate limits in Redis (`redis://[:password@]host:port[/db]`),
    /// shared by every replica: the same limits, budgets and headers. While
    /// Redis is unreachable each replica counts alone (needs `--rate-limit`).
    #[arg(long, env = "MENAGERIE_RATE_LIMIT_REDIS")]
    pub rate_limit_redis: Option<String>,

    /// Milliseconds a rate-limit check waits for Redis; past it (or on an
    /// error) the replica decides alone until Redis answers again.
    #[arg(long, env = "MENAGERIE_RATE_LIMIT_REDIS_TIMEOUT_MS", default_value_t = 50,
          value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub rate_limit_redis_timeout_ms: u64,
    // --- canvas endpoints and avatar fetching ---
    /// Let avatar URLs reach loopback and private networks. Off by default;
    /// only for tests against a local fixture host (a warning is logged).
    #[arg(long, env = "MENAGERIE_ALLOW_PRIVATE_AVATARS")]
    pub allow_private_avatars: bool,

    /// Milliseconds allowed for a whole avatar fetch (every redirect, headers, body).
    #[arg(long, env = "MENAGERIE_AVATAR_TIMEOUT_MS", default_value_t = 5000)]
    pub avatar_timeout_ms: u64,

    /// Milliseconds allowed to resolve an avatar host's name, and again to
    /// connect to it (each hop; the whole fetch stays within the overall timeout).
    #[arg(
        long,
        env = "MENAGERIE_AVATAR_CONNECT_TIMEOUT_MS",
        default_value_t = 2000
    )]
    pub avatar_connect_timeout_ms: u64,

    /// Largest avatar body in bytes, counted after decompression.
    #[arg(long, env = "MENAGERIE_AVATAR_MAX_BYTES", default_value_t = 8 * 1024 * 1024)]
    pub avatar_max_bytes: u64,

    /// Largest avatar width and height in pixels, checked from the image header.
    #[arg(long, env = "MENAGERIE_AVATAR_MAX_SIDE", default_value_t = 4096)]
    pub avatar_max_side: u32,

    /// Size of the decoded-avatar cache in MiB (0 disables it).
    #[arg(long, env = "MENAGERIE_AVATAR_CACHE_MB", default_value_t = 256)]
    pub avatar_cache_mb: u64,

    /// Seconds a decoded avatar stays cached; also the `max-age` of canvas images.
    #[arg(long, env = "MENAGERIE_AVATAR_CACHE_TTL_SECS", default_value_t = 600)]
    pub avatar_cache_ttl_secs: u64,

    /// Canvas jobs (fetch + decode + render) running at once; further
    /// requests wait in the canvas queue, served round-robin across clients.
    #[arg(long, env = "MENAGERIE_CANVAS_JOBS", default_value_t = 64)]
    pub canvas_jobs: usize,

    /// Canvas requests waiting for a job slot at once; beyond it the answer
    /// is 503 with `Retry-After` at once.
    #[arg(long, env = "MENAGERIE_CANVAS_QUEUE", default_value_t = DEFAULT_CANVAS_QUEUE)]
    pub canvas_queue: usize,

    /// Milliseconds a canvas request waits, for a job slot, a decode turn
    /// and a render thread together, before it gets 503 with `Retry-After`.
    #[arg(long, env = "MENAGERIE_CANVAS_QUEUE_MS", default_value_t = DEFAULT_CANVAS_QUEUE_MS)]
    pub canvas_queue_ms: u64,

    /// Weight of canvas jobs one client (the rate limiter's client key) may
    /// have running at once. A job weighs 1, or, when its avatar had to be
    /// decoded, 1 per 16 MiB of decode buffers (a 4096² RGBA avatar about
    /// 5, a 16-bit one about 14).
    #[arg(long, env = "MENAGERIE_CANVAS_JOBS_PER_CLIENT", default_value_t = 16)]
    pub canvas_jobs_per_client: u32,

    /// MiB of decode buffers (decoded pixels at their real bit depth, the
    /// RGBA copy, interlacing scratch) in use at once across avatar
    /// decodes; a decode larger than this runs alone.
    #[arg(long, env = "MENAGERIE_DECODE_BUDGET_MB", default_value_t = 256)]
    pub decode_budget_mb: u64,

    /// Threads that render and encode canvas images, first come first
    /// served (default: one per core). Avatar fetches wait on the network
    /// elsewhere and do not hold one.
    #[arg(long, env = "MENAGERIE_RENDER_THREADS")]
    pub render_threads: Option<usize>,

    /// Size in MiB of the cache of encoded canvas images, keyed by endpoint,
    /// parameters and avatar content (0 disables it).
    #[arg(long, env = "MENAGERIE_OUTPUT_CACHE_MB", default_value_t = 64)]
    pub output_cache_mb: u64,

    /// Size in MiB of the store of image-sized buffers that still images
    /// reuse instead of allocating afresh (`canvas_render::buffers`; one
    /// store per process; 0 turns reuse off).
    #[arg(long, env = "MENAGERIE_BUFFER_KEEP_MB", default_value_t = 32)]
    pub buffer_keep_mb: u64,

    /// Milliseconds rendering and encoding every frame of one animated
    /// image may take; past it the request fails with 422 (`render_time`).
    #[arg(long, env = "MENAGERIE_ANIMATION_RENDER_MS", default_value_t = 5000)]
    pub animation_render_ms: u64,
    // --- end canvas ---
    // content
    /// Directory of self-hosted images: files under `DIR/<group>/<type>/`
    /// (group `img`, `animal` or `animu`) are served at
    /// `/media/<group>/<type>/<file>` and added to that type's links.
    #[arg(long, env = "MENAGERIE_MEDIA_DIR", requires = "public_url")]
    pub media_dir: Option<PathBuf>,

    /// Folder of template files (`*.toml`, with their art and fonts): each
    /// is served at `/canvas/custom/<name>`. A bad file or two files of one
    /// name stop the server at start; SIGHUP, or a change to the folder's
    /// files, loads it again (a bad new set keeps the old one). Check a
    /// folder without starting: `menagerie templates check DIR`.
    #[arg(long, env = "MENAGERIE_TEMPLATES")]
    pub templates: Option<PathBuf>,

    /// Milliseconds between two looks at the `--templates` folder's files
    /// (names, sizes, modification times, and where a ConfigMap's `..data`
    /// link points) for a change to reload.
    #[arg(long, env = "MENAGERIE_TEMPLATES_POLL_MS", default_value_t = 3000, value_parser = clap::value_parser!(u64).range(100..))]
    pub templates_poll_ms: u64,

    /// Public base URL of this server (e.g. `https://menagerie.example.org`),
    /// on which the links to `--media-dir` files are built.
    #[arg(long, env = "MENAGERIE_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// URL of the book (`docs/` of the repository, built with `cargo xtask
    /// book`, wherever it is published): the playground links to it. An
    /// absolute http, https or file URL; without it the playground names
    /// the book's place in the repository instead.
    #[arg(long, env = "MENAGERIE_DOCS_URL", value_parser = docs_url)]
    pub docs_url: Option<String>,
}

/// Parses `--docs-url`: an absolute http(s) or file URL of at most 2048
/// bytes, printable ASCII without quotes, angle brackets or spaces (it is
/// written into the playground page as a link).
fn docs_url(s: &str) -> Result<String, String> {
    let ok_scheme = ["http://", "https://", "file:///"]
        .iter()
        .any(|p| s.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p)) && s.len() > p.len());
    let ok_chars = s
        .bytes()
        .all(|b| b.is_ascii_graphic() && !matches!(b, b'"' | b'\'' | b'<' | b'>' | b'`' | b'\\'));
    if ok_scheme && ok_chars && s.len() <= 2048 {
        Ok(s.to_owned())
    } else {
        Err("expected an absolute http, https or file URL (at most 2048 printable ASCII characters, \
             no spaces, quotes or angle brackets)"
            .to_owned())
    }
}

/// Default of `--sprite-base-url`: the PokeAPI sprites repository.
pub const DEFAULT_SPRITE_BASE_URL: &str =
    "https://raw.githubusercontent.com/PokeAPI/sprites/master/sprites";

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines.
    Text,
    /// One JSON object per line.
    Json,
}

impl Settings {
    /// Settings for tests: port 0 on loopback, data from `data_dir`,
    /// everything else at its default.
    pub fn for_tests(data_dir: impl Into<PathBuf>) -> Self {
        let mut s = Self::parse_from(["menagerie", "--bind", "127.0.0.1:0"]);
        s.data_dir = data_dir.into();
        s
    }
}

/// An address range in CIDR notation (`10.0.0.0/8`, `::1/128`, or a bare
/// address meaning a single host).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    addr: IpAddr,
    prefix: u8,
}

impl FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        let (a, p) = match s.split_once('/') {
            Some((a, p)) => (a, Some(p)),
            None => (s, None),
        };
        let addr: IpAddr = a
            .parse()
            .map_err(|_| format!("`{s}` is not an IP address or CIDR range"))?;
        let max = if addr.is_ipv4() { 32 } else { 128 };
        let prefix = match p {
            Some(p) => p
                .parse::<u8>()
                .ok()
                .filter(|p| *p <= max)
                .ok_or_else(|| format!("`{s}`: the prefix length must be 0..={max}"))?,
            None => max,
        };
        Ok(Self { addr, prefix })
    }
}

impl Cidr {
    /// Whether `ip` lies in this range (IPv4-mapped IPv6 counts as IPv4).
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        match (self.addr, ip) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => {
                let mask = u32::MAX
                    .checked_shl(32 - u32::from(self.prefix))
                    .unwrap_or(0);
                u32::from(net) & mask == u32::from(ip) & mask
            }
            (IpAddr::V6(net), IpAddr::V6(ip)) => {
                let mask = u128::MAX
                    .checked_shl(128 - u32::from(self.prefix))
                    .unwrap_or(0);
                u128::from(net) & mask == u128::from(ip) & mask
            }
            _ => false,
        }
    }
}

/// `ip`, with an IPv4-mapped IPv6 address turned into the IPv4 address.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6
            .to_ipv4_mapped()
            .map(IpAddr::V4)
            .unwrap_or(IpAddr::V6(v6)),
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cidr_parsing_and_matching() {
        let c: Cidr = "10.0.0.0/8".parse().unwrap();
        assert!(c.contains("10.1.2.3".parse().unwrap()));
        assert!(c.contains("::ffff:10.1.2.3".parse().unwrap()));
        assert!(!c.contains("11.0.0.1".parse().unwrap()));
        let one: Cidr = "::1".parse().unwrap();
        assert!(one.contains("::1".parse().unwrap()));
        assert!(!one.contains("::2".parse().unwrap()));
        let all: Cidr = "0.0.0.0/0".parse().unwrap();
        assert!(all.contains("8.8.8.8".parse().unwrap()));
        assert!("10.0.0.0/33".parse::<Cidr>().is_err());
        assert!("example.com".parse::<Cidr>().is_err());
    }
}
