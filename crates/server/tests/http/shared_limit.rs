//! Rate limits shared through a real Redis (`--rate-limit-redis`): three
//! `menagerie` processes, one `redis-server`, one client at twice its
//! limit; then Redis hung (SIGSTOP: no answer waits past the deadline)
//! and let go, stopped mid-run (the servers keep answering; each logs an
//! outage once) and started again (shared counting resumes).
//!
//! Needs Debian's `redis-server` (`scripts/install-redis.sh`, run by
//! `cargo xtask test`, which exports its path as `MENAGERIE_REDIS_SERVER`).
//! Without it the test is skipped with a notice, except in CI (`CI` set),
//! where it fails.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The default budget of every server (per minute; one token every 2 s).
const QUOTA: u32 = 30;

/// `redis-server`: `MENAGERIE_REDIS_SERVER`, else on `PATH`.
fn redis_server() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("MENAGERIE_REDIS_SERVER").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path)
            .map(|d| d.join("redis-server"))
            .find(|p| p.is_file())
    })
}

fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false")
}

/// A free loopback port (bound, read, released).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A `redis-server` on `port`, in memory only; killed when dropped.
struct Redis(Child);

impl Redis {
    fn start(bin: &PathBuf, port: u16) -> Self {
        let child = Command::new(bin)
            .args(["--port", &port.to_string()])
            .args(["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server starts");
        let redis = Self(child);
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(10) {
            if let Ok(mut s) = TcpStream::connect(("127.0.0.1", port)) {
                let _ = s.write_all(b"PING\r\n");
                let mut buf = [0u8; 7];
                if s.read_exact(&mut buf).is_ok() && &buf == b"+PONG\r\n" {
                    return redis;
                }
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("redis-server did not answer on port {port}");
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A `menagerie` process; its log lines are kept; killed when dropped.
struct Server {
    child: Child,
    addr: SocketAddr,
    log: Arc<Mutex<Vec<String>>>,
    _data: tempfile::TempDir,
}

impl Server {
    fn start(redis_port: u16) -> Self {
        let data = tempfile::tempdir().unwrap();
        let port = free_port();
        let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
            .args(["--bind", &format!("127.0.0.1:{port}"), "--workers", "1"])
            .args(["--rate-limit", &QUOTA.to_string()])
            .args([
                "--rate-limit-redis",
                &format!("redis://127.0.0.1:{redis_port}"),
            ])
            .arg("--data-dir")
            .arg(data.path())
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = std::sync::mpsc::channel();
        for pipe in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let (tx, log) = (tx.clone(), Arc::clone(&log));
            std::thread::spawn(move || {
                for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if line.contains("listening") {
                        let _ = tx.send(());
                    }
                    log.lock().unwrap().push(line);
                }
            });
        }
        if rx.recv_timeout(Duration::from_secs(60)).is_err() {
            let _ = child.kill();
            panic!("the server did not start listening");
        }
        Self {
            child,
            addr: SocketAddr::from(([127, 0, 0, 1], port)),
            log,
            _data: data,
        }
    }

    /// Log lines containing `text`.
    fn logged(&self, text: &str) -> usize {
        self.log
            .lock()
            .unwrap()
            .iter()
            .filter(|l| l.contains(text))
            .count()
    }

    /// The value of an unlabelled metric.
    fn metric(&self, name: &str) -> f64 {
        let (_, body) = get(self.addr, "/metrics");
        body.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("{name} not in /metrics"))
    }

    /// Waits until the server counts in Redis (`fallback` 0) or not (1).
    fn wait_fallback(&self, fallback: bool) {
        let want = if fallback { 1.0 } else { 0.0 };
        let start = Instant::now();
        while self.metric("menagerie_rate_limit_redis_fallback") != want {
            assert!(
                start.elapsed() < Duration::from_secs(15),
                "menagerie_rate_limit_redis_fallback never became {want}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One GET on a fresh connection: status and body (the answer must come
/// within 5 s).
fn get(addr: SocketAddr, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).expect("an answer within 5 s");
    let text = String::from_utf8_lossy(&out).into_owned();
    let status = text
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an HTTP answer: {text:?}"));
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or("");
    (status, body.to_owned())
}

/// Sends `n` requests for `path` round-robin over `servers` as fast as
/// they answer; returns how many were allowed, and the seconds it took.
/// Any answer but 200 or 429 fails the test.
fn burst(servers: &[Server], path: &str, n: usize) -> (u32, f64) {
    let start = Instant::now();
    let mut allowed = 0;
    for i in 0..n {
        let (status, body) = get(servers[i % servers.len()].addr, path);
        match status {
            200 => allowed += 1,
            429 => {}
            other => panic!("request {i}: {other} {body}"),
        }
    }
    (allowed, start.elapsed().as_secs_f64())
}

/// Tokens a bucket of `quota` per minute refills in `secs`, plus one for
/// the request in flight when a token falls due.
fn refill(quota: u32, secs: f64) -> u32 {
    (secs * f64::from(quota) / 60.0).ceil() as u32 + 1
}

#[test]
fn three_replicas_share_one_limit_and_survive_a_redis_outage() {
    let Some(bin) = redis_server() else {
        assert!(
            !in_ci(),
            "redis-server is missing (scripts/install-redis.sh installs it)"
        );
        eprintln!(
            "shared rate-limit test not run: no redis-server (scripts/install-redis.sh, run by `cargo xtask test`)"
        );
        return;
    };
    let port = free_port();
    let redis = Redis::start(&bin, port);
    let servers: Vec<Server> = (0..3).map(|_| Server::start(port)).collect();
    for s in &servers {
        s.wait_fallback(false);
    }

    // Twice the limit across three replicas: the limit (plus refill), not
    // three times it. Canvas images have their budget (a fifth) shared too.
    let path = "/canvas/rgb?hex=4B007D";
    let (allowed, secs) = burst(&servers, path, 2 * QUOTA as usize);
    eprintln!("shared: {allowed} of {} allowed in {secs:.2} s", 2 * QUOTA);
    assert!(
        (QUOTA..=QUOTA + refill(QUOTA, secs)).contains(&allowed),
        "{allowed} allowed against a limit of {QUOTA} in {secs:.2} s"
    );
    let canvas = QUOTA / 5;
    let (allowed, secs) = burst(
        &servers,
        "/canvas/colorviewer?hex=4B007D",
        2 * canvas as usize,
    );
    assert!(
        (canvas..=canvas + refill(canvas, secs)).contains(&allowed),
        "canvas: {allowed} allowed against a limit of {canvas} in {secs:.2} s"
    );

    // Redis hangs (SIGSTOP): no request waits longer than the deadline,
    // then each replica counts alone; one warning per replica, the gauge
    // and the outage counter say so. When it goes on, sharing resumes.
    let signal = |sig: &str| {
        // The shell's own `kill`: no procps needed.
        let ok = Command::new("sh")
            .args(["-c", &format!("kill {sig} {}", redis.0.id())])
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "kill {sig} redis-server");
    };
    signal("-STOP");
    let slowest = (0..30)
        .map(|i| {
            let start = Instant::now();
            let (status, body) = get(servers[i % 3].addr, path);
            assert!(status == 200 || status == 429, "{status} {body}");
            start.elapsed().as_secs_f64()
        })
        .fold(0.0, f64::max);
    eprintln!("Redis hung: slowest answer {slowest:.3} s");
    assert!(slowest < 1.0, "an answer took {slowest:.3} s");
    for s in &servers {
        s.wait_fallback(true);
        assert_eq!(s.metric("menagerie_rate_limit_redis_outages_total"), 1.0);
        assert!(s.metric("menagerie_rate_limit_fallback_decisions_total") >= 1.0);
        assert_eq!(s.logged("Redis unreachable"), 1, "one line per outage");
    }
    signal("-CONT");
    for s in &servers {
        s.wait_fallback(false);
        assert_eq!(s.logged("shared counting resumes"), 1);
    }

    // Redis stops mid-run: every request is still answered, at once, by
    // each replica alone.
    drop(redis);
    let start = Instant::now();
    let (allowed, _) = burst(&servers, path, 30);
    let per_request = start.elapsed().as_secs_f64() / 30.0;
    eprintln!("Redis stopped: {allowed} of 30 allowed, {per_request:.4} s per request");
    assert!(per_request < 0.5, "{per_request:.3} s per request");
    assert!(allowed > 0, "the per-replica limiter decides");
    let _ = burst(&servers, path, 30);
    for s in &servers {
        s.wait_fallback(true);
        assert_eq!(s.metric("menagerie_rate_limit_redis_outages_total"), 2.0);
        assert_eq!(s.logged("Redis unreachable"), 2, "one line per outage");
    }

    // Redis is back (empty, on the same port): shared counting resumes.
    let _redis = Redis::start(&bin, port);
    for s in &servers {
        s.wait_fallback(false);
        assert_eq!(s.logged("shared counting resumes"), 2);
    }
    let (allowed, secs) = burst(&servers, path, 2 * QUOTA as usize);
    eprintln!("resumed: {allowed} of {} allowed in {secs:.2} s", 2 * QUOTA);
    assert!(
        (QUOTA..=QUOTA + refill(QUOTA, secs)).contains(&allowed),
        "after the outage: {allowed} allowed against a limit of {QUOTA} in {secs:.2} s"
    );
}
