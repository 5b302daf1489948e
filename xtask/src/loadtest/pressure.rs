//! The burst, fairness and hostile-memory modes of `cargo xtask loadtest`.
//!
//! - `--burst`: 96 canvas requests at once (a 1024 px avatar, each with its
//!   own parameters); passes with no error and every answer within the
//!   canvas queue deadline.
//! - `--fairness`: a victim client's latency alone, then while three
//!   abusive clients each keep 24 requests for 4096² avatars in flight (a
//!   `?nonce=` defeats the avatar cache). Clients are told apart by
//!   `X-Forwarded-For` from a trusted proxy (the server runs with
//!   `--trusted-proxy 127.0.0.1/32`).
//! - `--hostile-memory`: the three abusive clients with 16-bit interlaced
//!   4096² avatars (the costliest decode allowed); passes when the peak RSS
//!   stays under `--rss-cap-mib` (the bound stated in the book's Limits page); then reports
//!   the RSS after the server has been idle.
//! - `--animated` (with `--fairness` or `--hostile-memory`): the abusive
//!   clients ask for `circle` of a 128-frame 512² animated GIF instead (the
//!   most decoded pixels an animation may have, each frame rendered to 512²
//!   and encoded as an animated GIF).
//! - `--abuse KIND` picks any [`Abuse`]: also the 10 KB 256-frame 8×8 GIF
//!   through the largest cards (`namecard`; `post` as WebP with an
//!   800-character comment), 2-frame 4096² GIFs (a decode over the decode
//!   budget), and every costly kind through `post` in turn.
//! - `--render-kinds` runs every flood of [`RENDER_KINDS`] in turn, each
//!   against a fresh server: cheap to send, costly to render or encode,
//!   and the two-image welcome card. In fairness mode a second victim
//!   asks for JSON (`/canvas/hex`) every 20 ms beside the canvas victim;
//!   a run passes with the canvas victim's p99 ≤ 1 s and ≥ 95 % answered,
//!   and the JSON victim's p99 ≤ 100 ms.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use super::client::Conn;
use super::hosts::{ANIMATED_AVATAR, AvatarHost, LARGE_FRAMES_AVATAR, TINY_FRAMES_AVATAR};
use super::{Proc, rss_kib};

/// Requests in the burst.
pub const BURST: usize = 96;
/// Abusive clients and the requests each keeps in flight.
const ABUSERS: u8 = 3;
const ABUSIVE_IN_FLIGHT: usize = 24;

/// What one mode measured, as a line for the report.
#[derive(Debug, Default)]
pub struct Figures {
    pub lines: Vec<String>,
    pub pass: bool,
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

fn avatar(host: &AvatarHost, name: &str, nonce: Option<u64>) -> String {
    let url = match nonce {
        Some(n) => format!("http://{}/avatar/big/{name}?nonce={n}", host.addr),
        None => format!("http://{}/avatar/big/{name}", host.addr),
    };
    enc(&url)
}

/// Makes the host encode its big avatars before the server asks for them.
pub fn warm_host(host: &AvatarHost) {
    let mut c = Conn::new(host.addr, Duration::from_secs(120));
    for name in [
        "1024.png",
        "4096.png",
        "4096-16i.png",
        ANIMATED_AVATAR,
        TINY_FRAMES_AVATAR,
        LARGE_FRAMES_AVATAR,
    ] {
        let _ = c.get(&format!("/avatar/big/{name}"));
    }
}

/// Nearest-rank percentile of `v` (sorted here), in ms.
pub fn percentile_ms(v: &mut [Duration], p: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort();
    let rank = ((p / 100.0) * v.len() as f64).ceil().max(1.0) as usize;
    v[rank.min(v.len()) - 1].as_secs_f64() * 1000.0
}

/// `--burst`: 96 requests at once, each on its own connection.
pub fn burst(srv: &Proc, host: &AvatarHost, deadline: Duration) -> Figures {
    let addr = srv.addr;
    // The avatar is fetched once (as a client's avatar would be cached).
    let warm = format!(
        "/canvas/filter/blur?avatar={}",
        avatar(host, "1024.png", None)
    );
    let _ = Conn::new(addr, Duration::from_secs(30)).get(&warm);
    let start = Arc::new(std::sync::Barrier::new(BURST));
    let threads: Vec<_> = (0..BURST)
        .map(|i| {
            let start = Arc::clone(&start);
            let path = format!(
                "/canvas/filter/brightness?brightness={}.5&avatar={}",
                i % 100,
                avatar(host, "1024.png", None)
            );
            thread::spawn(move || {
                let mut c = Conn::new(addr, Duration::from_secs(60));
                start.wait();
                let t = Instant::now();
                let status = c.get(&path).map(|r| r.status).unwrap_or(0);
                (status, t.elapsed())
            })
        })
        .collect();
    let results: Vec<(u16, Duration)> = threads
        .into_iter()
        .map(|t| t.join().unwrap_or((0, Duration::ZERO)))
        .collect();
    let ok = results.iter().filter(|r| r.0 == 200).count();
    let busy = results.iter().filter(|r| r.0 == 503).count();
    let other = BURST - ok - busy;
    let mut times: Vec<Duration> = results.iter().map(|r| r.1).collect();
    let slowest = times.iter().max().copied().unwrap_or_default();
    let p50 = percentile_ms(&mut times, 50.0);
    Figures {
        lines: vec![format!(
            "burst of {BURST}: {ok} × 200, {busy} × 503, {other} other/dropped; p50 {p50:.0} ms, slowest {:.0} ms (deadline {} ms)",
            slowest.as_secs_f64() * 1000.0,
            deadline.as_millis()
        )],
        pass: ok == BURST && slowest <= deadline,
    }
}

/// What the abusive clients ask for: an endpoint and a big avatar (or,
/// for [`Abuse::Mixed`], each of the costly kinds through `post` in turn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Abuse {
    /// `sepia` of an uncached 8-bit 4096² PNG.
    Still,
    /// `sepia` of an uncached 16-bit interlaced 4096² PNG (the costliest
    /// still decode).
    Still16i,
    /// `circle` of an uncached 128-frame 512² animated GIF.
    Animated,
    /// `sepia` of an uncached 2-frame 4096² GIF (a decode over the decode
    /// budget, which runs alone).
    LargeFrames,
    /// `namecard` (1680×800) of an uncached 256-frame 8×8 GIF (10 KB).
    TinyFramesNamecard,
    /// `post` as WebP with an 800-character comment (its tallest card) of
    /// the 256-frame 8×8 GIF.
    TinyFramesPost,
    /// Every costly kind through `post`, one after the other: 16-bit 4096²
    /// PNG, 128-frame 512² GIF as GIF and as WebP, the 256-frame 8×8 GIF
    /// as WebP with the long comment, the 2-frame 4096² GIF.
    Mixed,
    /// `post` (as a GIF, 800-character comment) of the 256-frame 8×8 GIF.
    TinyFramesPostGif,
    /// `petpet` of the 128-frame 512² GIF.
    Petpet,
    /// `amongus` of the 128-frame 512² GIF.
    Amongus,
    /// `triggered` of the 128-frame 512² GIF.
    Triggered,
    /// A custom-background welcome card whose avatar (the 128-frame 512²
    /// GIF) and `bg` (the 2-frame 4096² GIF) are both GIFs at the caps,
    /// both fresh: two decodes a request.
    WelcomeTwoImages,
    /// A rank card of the 256-frame 8×8 GIF.
    RankcardTinyFrames,
    /// Every kind of template endpoint with animated avatars, one after the
    /// other: `triggered` and `jail` (WebP) of the 128-frame 512² GIF,
    /// `petpet` and a rank card of the 256-frame 8×8 GIF, `amongus` and a
    /// welcome card (1200×600) of the 128-frame GIF, and a custom-background
    /// welcome card with the 8×8 GIF as avatar and the 128-frame GIF as
    /// `bg` (two fetches).
    AnimatedTemplates,
    /// Every animated effect in turn at its largest `size` (512), of the
    /// 128-frame 512² GIF, as GIF and as WebP in turn.
    Effects,
    /// The two-avatar memes in turn, both pictures at the caps and fresh:
    /// the 128-frame 512² GIF and the 2-frame 4096² GIF (two decodes).
    TwoAvatars,
    /// The captions in turn on `image` at the caps: the 16-bit interlaced
    /// 4096² PNG and the 128-frame 512² GIF, with long text.
    Captions,
    /// The chat message card of the 128-frame 512² GIF with a
    /// 2000-character text in markup (its tallest card) and a reply line,
    /// as GIF and as WebP in turn.
    Message,
}

/// The animated effects of [`Abuse::Effects`], in turn.
const EFFECTS: [&str; 17] = [
    "spin", "shake", "bounce", "zoom", "wave", "ripple", "wiggle", "swirl", "melt", "globe",
    "magik", "boil", "shear", "roll", "glitch", "rainbow", "deepfry",
];

/// The two-avatar memes of [`Abuse::TwoAvatars`], in turn.
const TWO_AVATAR_MEMES: [&str; 7] = ["ship", "kiss", "slap", "hug", "fuse", "vs", "heart-locket"];

/// The captions of [`Abuse::Captions`], in turn, each with the query
/// before its long text (the speech bubble has none).
const CAPTIONS: [(&str, Option<&str>); 4] = [
    ("caption?", Some("text")),
    ("impact?top=when%20the%20abuse&", Some("bottom")),
    ("motivate?title=ABUSE&", Some("text")),
    ("speechbubble?", None),
];

/// The requests of [`Abuse::AnimatedTemplates`] in turn: the path and
/// query before the avatar, and the avatar's name.
const TEMPLATE_ABUSE: [(&str, &str); 6] = [
    ("/canvas/overlay/triggered?", ANIMATED_AVATAR),
    ("/premium/petpet?", TINY_FRAMES_AVATAR),
    ("/premium/amongus?username=abuser&", ANIMATED_AVATAR),
    (
        "/welcome/img/3/space?username=abuser&guildName=abuse&memberCount=9&",
        ANIMATED_AVATAR,
    ),
    (
        "/premium/rankcard/5?username=abuser&cxp=5&nxp=10&level=2&rank=1&",
        TINY_FRAMES_AVATAR,
    ),
    ("/canvas/overlay/jail?format=webp&", ANIMATED_AVATAR),
];

/// A 200-character caption (the captions' cap), query-encoded.
fn long_caption() -> String {
    enc(&"When the build is green on the first try ".repeat(5)[..200])
}

/// A 2000-character message (the card's cap) in chat markup, with a
/// mention and an emoji, query-encoded.
fn long_message() -> String {
    let text: String = "**Build** passed on *main*: `cargo xtask test` ~~red~~ @here 🎉 "
        .repeat(40)
        .chars()
        .take(2000)
        .collect();
    enc(&text)
}

/// An 800-character comment, query-encoded.
fn long_comment() -> String {
    enc(&"All work and no play makes a card grow tall. ".repeat(18)[..800])
}

impl Abuse {
    /// A short name for reports.
    pub fn describe(self) -> &'static str {
        match self {
            Abuse::Still => "sepia of a 4096² PNG",
            Abuse::Still16i => "sepia of a 16-bit interlaced 4096² PNG",
            Abuse::Animated => "circle of a 128-frame 512² GIF",
            Abuse::LargeFrames => "sepia of a 2-frame 4096² GIF",
            Abuse::TinyFramesNamecard => "namecard of a 10 KB 256-frame 8×8 GIF",
            Abuse::TinyFramesPost => {
                "post (WebP, 800-character comment) of a 10 KB 256-frame 8×8 GIF"
            }
            Abuse::Mixed => "post of every costly kind in turn",
            Abuse::AnimatedTemplates => "every template endpoint of animated GIFs in turn",
            Abuse::TinyFramesPostGif => {
                "post (GIF, 800-character comment) of a 10 KB 256-frame 8×8 GIF"
            }
            Abuse::Petpet => "petpet of a 128-frame 512² GIF",
            Abuse::Amongus => "amongus of a 128-frame 512² GIF",
            Abuse::Triggered => "triggered of a 128-frame 512² GIF",
            Abuse::WelcomeTwoImages => {
                "welcome card 1 of a 128-frame 512² GIF over a `bg` 2-frame 4096² GIF"
            }
            Abuse::RankcardTinyFrames => "rank card 6 of a 10 KB 256-frame 8×8 GIF",
            Abuse::Effects => "every effect at size 512 of a 128-frame 512² GIF, GIF and WebP",
            Abuse::TwoAvatars => {
                "every two-avatar meme of a 128-frame 512² GIF and a 2-frame 4096² GIF"
            }
            Abuse::Captions => {
                "every caption of a 16-bit interlaced 4096² PNG or a 128-frame 512² GIF"
            }
            Abuse::Message => {
                "the message card (2000 characters of markup, a reply line) of a 128-frame 512² GIF, GIF and WebP"
            }
        }
    }

    /// The `n`th request (path and query) with `avatar` (the avatar's URL
    /// without its nonce, which is added here).
    fn request(self, n: u64, host: SocketAddr) -> String {
        let url = |name: &str| enc(&format!("http://{host}/avatar/big/{name}?nonce={n}"));
        let post = |query: &str, name: &str| {
            format!(
                "/canvas/misc/post?username=abuser{query}&avatar={}",
                url(name)
            )
        };
        match self {
            Abuse::Still => format!("/canvas/filter/sepia?avatar={}", url("4096.png")),
            Abuse::Still16i => format!("/canvas/filter/sepia?avatar={}", url("4096-16i.png")),
            Abuse::Animated => format!("/canvas/misc/circle?avatar={}", url(ANIMATED_AVATAR)),
            Abuse::LargeFrames => {
                format!("/canvas/filter/sepia?avatar={}", url(LARGE_FRAMES_AVATAR))
            }
            Abuse::TinyFramesNamecard => format!(
                "/canvas/misc/namecard?username=abuser&avatar={}",
                url(TINY_FRAMES_AVATAR)
            ),
            Abuse::TinyFramesPost => post(
                &format!("&format=webp&comment={}", long_comment()),
                TINY_FRAMES_AVATAR,
            ),
            Abuse::Mixed => match n % 5 {
                0 => post("&comment=hi", "4096-16i.png"),
                1 => post("&comment=hi", ANIMATED_AVATAR),
                2 => post("&format=webp&comment=hi", ANIMATED_AVATAR),
                3 => post(
                    &format!("&format=webp&comment={}", long_comment()),
                    TINY_FRAMES_AVATAR,
                ),
                _ => post("&comment=hi", LARGE_FRAMES_AVATAR),
            },
            Abuse::TinyFramesPostGif => {
                post(&format!("&comment={}", long_comment()), TINY_FRAMES_AVATAR)
            }
            Abuse::Petpet => format!("/premium/petpet?avatar={}", url(ANIMATED_AVATAR)),
            Abuse::Amongus => format!(
                "/premium/amongus?username=abuser&avatar={}",
                url(ANIMATED_AVATAR)
            ),
            Abuse::Triggered => {
                format!("/canvas/overlay/triggered?avatar={}", url(ANIMATED_AVATAR))
            }
            Abuse::WelcomeTwoImages => format!(
                "/premium/welcome/1?username=abuser&avatar={}&bg={}",
                url(ANIMATED_AVATAR),
                url(LARGE_FRAMES_AVATAR)
            ),
            Abuse::RankcardTinyFrames => format!(
                "/premium/rankcard/6?username=abuser&cxp=5&nxp=10&level=2&avatar={}",
                url(TINY_FRAMES_AVATAR)
            ),
            Abuse::Effects => format!(
                "/canvas/effect/{}?size=512&format={}&avatar={}",
                EFFECTS[(n % 17) as usize],
                if (n / 17).is_multiple_of(2) {
                    "gif"
                } else {
                    "webp"
                },
                url(ANIMATED_AVATAR)
            ),
            Abuse::TwoAvatars => format!(
                "/canvas/meme/{}?avatar={}&avatar2={}",
                TWO_AVATAR_MEMES[(n % 7) as usize],
                url(ANIMATED_AVATAR),
                url(LARGE_FRAMES_AVATAR)
            ),
            Abuse::Captions => {
                let (path, text) = CAPTIONS[(n % 4) as usize];
                let text = text.map_or(String::new(), |t| format!("{t}={}&", long_caption()));
                let picture = if (n / 4).is_multiple_of(2) {
                    "4096-16i.png"
                } else {
                    ANIMATED_AVATAR
                };
                format!("/canvas/caption/{path}{text}image={}", url(picture))
            }
            Abuse::Message => format!(
                "/canvas/message?username=abuser&reply_username=bot&reply_text=hi&format={}&text={}&avatar={}",
                if n.is_multiple_of(2) { "gif" } else { "webp" },
                long_message(),
                url(ANIMATED_AVATAR)
            ),
            // One more than the table: the custom-background card, which
            // fetches two animated images (both fresh).
            Abuse::AnimatedTemplates => match TEMPLATE_ABUSE.get((n % 7) as usize) {
                Some((path, name)) => format!("{path}avatar={}", url(name)),
                None => format!(
                    "/premium/welcome/6?username=abuser&avatar={}&bg={}",
                    url(TINY_FRAMES_AVATAR),
                    url(ANIMATED_AVATAR)
                ),
            },
        }
    }
}

/// Three abusive clients, each keeping `ABUSIVE_IN_FLIGHT` requests of
/// `abuse` (with a fresh nonce each) in flight until `stop`. Returns the
/// threads, which give (200s, 503s, other) counts.
fn abusers(
    addr: SocketAddr,
    host: &AvatarHost,
    abuse: Abuse,
    stop: &Arc<AtomicBool>,
) -> Vec<thread::JoinHandle<[u64; 3]>> {
    let nonce = Arc::new(AtomicU64::new(1));
    let mut threads = Vec::new();
    for a in 1..=ABUSERS {
        for _ in 0..ABUSIVE_IN_FLIGHT {
            let (stop, nonce) = (Arc::clone(stop), Arc::clone(&nonce));
            let host_addr = host.addr;
            threads.push(thread::spawn(move || {
                let mut c = Conn::new(addr, Duration::from_secs(60))
                    .with_header("X-Forwarded-For", &format!("10.0.0.{a}"));
                let mut counts = [0u64; 3];
                // Bounded: at most 10 000 requests per connection.
                for _ in 0..10_000 {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let n = nonce.fetch_add(1, Ordering::Relaxed);
                    let path = abuse.request(n, host_addr);
                    match c.get(&path).map(|r| r.status) {
                        Ok(200) => counts[0] += 1,
                        Ok(503) => counts[1] += 1,
                        _ => counts[2] += 1,
                    }
                }
                counts
            }));
        }
    }
    threads
}

/// The victim: one client asking for images of a 256 px avatar, one at a
/// time, for `span`; its latencies and failures. The avatar is uncached (a
/// fresh nonce each time), so every request fetches and decodes it and
/// passes the decode gate beside the abusers' decodes.
fn victim(addr: SocketAddr, host: &AvatarHost, span: Duration) -> (Vec<Duration>, u64) {
    let mut c =
        Conn::new(addr, Duration::from_secs(60)).with_header("X-Forwarded-For", "10.0.0.99");
    let t0 = Instant::now();
    let (mut times, mut failed) = (Vec::new(), 0);
    let mut i = 0u32;
    while t0.elapsed() < span && i < 100_000 {
        let url = enc(&format!("http://{}/avatar/fixed.png?victim={i}", host.addr));
        let path = format!(
            "/canvas/filter/brightness?brightness={}&avatar={url}",
            i % 101
        );
        i += 1;
        let t = Instant::now();
        match c.get(&path) {
            Ok(r) if r.status == 200 => times.push(t.elapsed()),
            _ => failed += 1,
        }
    }
    (times, failed)
}

/// The kinds of render flood `--render-kinds` runs in turn: cheap to send,
/// costly to render or encode, and the two-image welcome card.
pub const RENDER_KINDS: [Abuse; 9] = [
    Abuse::TinyFramesNamecard,
    Abuse::TinyFramesPostGif,
    Abuse::TinyFramesPost,
    Abuse::Petpet,
    Abuse::Amongus,
    Abuse::Triggered,
    Abuse::WelcomeTwoImages,
    Abuse::RankcardTinyFrames,
    Abuse::Animated,
];

/// A second victim beside the canvas one: a JSON request (`/canvas/hex`)
/// every 20 ms from its own client until `stop`; its latencies and
/// failures.
fn json_victim(
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
) -> thread::JoinHandle<(Vec<Duration>, u64)> {
    thread::spawn(move || {
        let mut c =
            Conn::new(addr, Duration::from_secs(60)).with_header("X-Forwarded-For", "10.0.0.98");
        let (mut times, mut failed) = (Vec::new(), 0);
        for i in 0..100_000u32 {
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let path = format!("/canvas/hex?rgb={},{},{}", i % 256, (i / 256) % 256, 7);
            let t = Instant::now();
            match c.get(&path) {
                Ok(r) if r.status == 200 => times.push(t.elapsed()),
                _ => failed += 1,
            }
            thread::sleep(Duration::from_millis(20));
        }
        (times, failed)
    })
}

/// The fairness targets for a victim beside a flood: canvas p99 ≤ 1 s and
/// ≥ 95 % answered, JSON p99 ≤ 100 ms.
const CANVAS_P99_MS: f64 = 1000.0;
const CANVAS_SUCCESS: f64 = 0.95;
const JSON_P99_MS: f64 = 100.0;

/// `--fairness`: the victim alone, then beside the three abusive clients.
pub fn fairness(srv: &Proc, host: &AvatarHost, span: Duration, abuse: Abuse) -> Figures {
    let addr = srv.addr;
    let (mut alone, failed_alone) = victim(addr, host, span / 2);
    let stop = Arc::new(AtomicBool::new(false));
    let what = abuse.describe();
    let abuse = abusers(addr, host, abuse, &stop);
    thread::sleep(Duration::from_secs(1));
    let json_stop = Arc::new(AtomicBool::new(false));
    let json = json_victim(addr, Arc::clone(&json_stop));
    let (mut beside, failed_beside) = victim(addr, host, span);
    json_stop.store(true, Ordering::Relaxed);
    let (mut json, json_failed) = json.join().unwrap_or_default();
    stop.store(true, Ordering::Relaxed);
    let counts = abuse
        .into_iter()
        .map(|t| t.join().unwrap_or([0, 0, 1]))
        .fold([0u64; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    let p99_alone = percentile_ms(&mut alone, 99.0);
    let p99_beside = percentile_ms(&mut beside, 99.0);
    let json_p99 = percentile_ms(&mut json, 99.0);
    let answered = beside.len() as f64 / (beside.len() as f64 + failed_beside as f64).max(1.0);
    let peak = rss_kib(srv.pid()).map_or(0, |r| r.1 / 1024);
    Figures {
        lines: vec![
            format!(
                "victim alone: {} requests, p50 {:.0} ms, p99 {p99_alone:.0} ms, {failed_alone} failed",
                alone.len(),
                percentile_ms(&mut alone, 50.0)
            ),
            format!(
                "victim beside 3 × {ABUSIVE_IN_FLIGHT} abusive requests ({what}): {} requests, p50 {:.0} ms, p99 {p99_beside:.0} ms, slowest {:.0} ms, {failed_beside} failed ({:.1} % answered)",
                beside.len(),
                percentile_ms(&mut beside, 50.0),
                percentile_ms(&mut beside, 100.0),
                answered * 100.0
            ),
            format!(
                "JSON victim beside them (one /canvas/hex every 20 ms): {} requests, p50 {:.1} ms, p99 {json_p99:.1} ms, {json_failed} failed",
                json.len(),
                percentile_ms(&mut json, 50.0),
            ),
            format!(
                "abusive clients: {} × 200, {} × 503, {} other; peak RSS {peak} MiB",
                counts[0], counts[1], counts[2]
            ),
        ],
        pass: !beside.is_empty()
            && answered >= CANVAS_SUCCESS
            && p99_beside <= CANVAS_P99_MS
            && json_p99 <= JSON_P99_MS
            && json_failed == 0,
    }
}

/// `--hostile-memory`: the abusive clients with the costliest avatars;
/// peak RSS against `cap_mib`, then the RSS after `idle`.
pub fn hostile_memory(
    srv: &Proc,
    host: &AvatarHost,
    span: Duration,
    idle: Duration,
    cap_mib: u64,
    abuse: Abuse,
) -> Result<Figures> {
    let stop = Arc::new(AtomicBool::new(false));
    let what = abuse.describe();
    let abuse = abusers(srv.addr, host, abuse, &stop);
    let t0 = Instant::now();
    while t0.elapsed() < span {
        thread::sleep(Duration::from_millis(250));
    }
    stop.store(true, Ordering::Relaxed);
    let counts = abuse
        .into_iter()
        .map(|t| t.join().unwrap_or([0, 0, 1]))
        .fold([0u64; 3], |a, b| [a[0] + b[0], a[1] + b[1], a[2] + b[2]]);
    let Some((_, peak_kib)) = rss_kib(srv.pid()) else {
        bail!("could not read the server's RSS");
    };
    thread::sleep(idle);
    let idle_kib = rss_kib(srv.pid()).map_or(0, |r| r.0);
    let peak_mib = peak_kib / 1024;
    Ok(Figures {
        lines: vec![
            format!(
                "3 × {ABUSIVE_IN_FLIGHT} requests in flight ({what}, uncached) for {} s: {} × 200, {} × 503, {} other",
                span.as_secs(),
                counts[0],
                counts[1],
                counts[2]
            ),
            format!("peak RSS {peak_mib} MiB (stated bound {cap_mib} MiB)"),
            format!(
                "RSS after {} s idle: {} MiB",
                idle.as_secs(),
                idle_kib / 1024
            ),
        ],
        pass: peak_mib <= cap_mib,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_are_nearest_rank() {
        let mut v: Vec<Duration> = (1..=100).rev().map(Duration::from_millis).collect();
        assert_eq!(percentile_ms(&mut v, 99.0), 99.0);
        assert_eq!(percentile_ms(&mut v, 50.0), 50.0);
        assert_eq!(percentile_ms(&mut [], 99.0), 0.0);
    }

    #[test]
    fn every_abuse_asks_for_a_canvas_image_with_a_fresh_avatar() {
        use clap::ValueEnum as _;
        let host: SocketAddr = "127.0.0.1:9".parse().unwrap();
        for abuse in Abuse::value_variants() {
            for n in 0..7 {
                let path = abuse.request(n, host);
                assert!(
                    ["/canvas/", "/premium/", "/welcome/img/"]
                        .iter()
                        .any(|g| path.starts_with(g)),
                    "{path}"
                );
                assert!(path.contains(&format!("nonce%3D{n}")), "{path}");
            }
        }
        // The template kind goes through every kind of template endpoint,
        // each with an animated avatar, and the custom background fetches
        // a second animated image.
        let templates: Vec<String> = (0..7)
            .map(|n| Abuse::AnimatedTemplates.request(n, host))
            .collect();
        for prefix in [
            "/canvas/overlay/triggered?",
            "/canvas/overlay/jail?format=webp&",
            "/premium/petpet?",
            "/premium/amongus?",
            "/welcome/img/",
            "/premium/rankcard/",
            "/premium/welcome/",
        ] {
            assert_eq!(
                templates.iter().filter(|p| p.starts_with(prefix)).count(),
                1,
                "{prefix}"
            );
        }
        for path in &templates {
            assert!(
                path.contains(ANIMATED_AVATAR) || path.contains(TINY_FRAMES_AVATAR),
                "{path}"
            );
        }
        let custom = &templates[6];
        assert!(
            custom.contains("&bg=") && custom.contains(ANIMATED_AVATAR),
            "{custom}"
        );
        assert_eq!(custom.matches("nonce%3D6").count(), 2, "{custom}");
        assert_eq!(
            Abuse::AnimatedTemplates.request(7, host),
            Abuse::AnimatedTemplates
                .request(0, host)
                .replace("nonce%3D0", "nonce%3D7")
        );
        let post = Abuse::TinyFramesPost.request(1, host);
        assert!(post.contains("format=webp") && post.contains(TINY_FRAMES_AVATAR));
        // 800 characters once decoded: each %XX stands for one.
        let comment = long_comment();
        assert_eq!(comment.len() - 2 * comment.matches('%').count(), 800);
    }

    #[test]
    fn avatar_urls_are_query_encoded() {
        assert_eq!(enc("http://a/b?nonce=1"), "http%3A%2F%2Fa%2Fb%3Fnonce%3D1");
    }

    #[test]
    fn big_avatars_decode_to_what_they_claim() {
        let png = super::super::hosts::png_deflated(64, 32, true, true);
        assert_eq!(&png[12..16], b"IHDR");
        assert_eq!((png[24], png[25], png[28]), (16, 6, 1));
        assert!(png.len() < 64 * 32 * 8, "compressed");
    }
}
