//! `cargo xtask loadtest`: load, soak and fault suites against the release
//! server on loopback, with the figures written into the server's benchmark
//! history (`docs/benchmarks-history/server.md`).
//!
//! - default: a bare actix-web handler (`crates/server/examples/bare.rs`)
//!   is measured first as the baseline, then each workload class alone, then
//!   the mix; requests/s (and the ratio to bare), p50/p99/p99.9, errors and
//!   the server's peak RSS.
//! - `--soak [--minutes N] [--rss-cap-mib M]`: the mix for N minutes with
//!   the production defaults; passes when the RSS stays under the stated
//!   cap throughout, grows by at most 10 % after the warm-up (the first
//!   fifth, or longer until the avatar and output caches are 90 % full),
//!   and no 5xx or dropped request was seen.
//! - `--faults`: the mix runs while other clients point the server at
//!   avatar hosts that stall, reset, drip, redirect in loops, send garbage or
//!   pixel bombs; then the server is killed mid-load and restarted.
//! - `--burst`, `--fairness`, `--hostile-memory`: bursts, a victim beside
//!   abusive clients, and the memory bound under the costliest avatars (see
//!   [`pressure`]); `--server-bin` runs them against another build.
//!
//! Everything runs on 127.0.0.1; every loop is bounded in count and time.

pub(crate) mod client;
pub(crate) mod hosts;
mod pressure;
mod report;
mod workload;

use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::{cargo, data, run_cmd, target_dir};
use client::Conn;
use hosts::AvatarHost;
use report::{Machine, Row};
use workload::{Outcome, Plan, RunLimits};

/// Arguments of `cargo xtask loadtest`.
#[derive(Debug, clap::Args)]
pub struct LoadtestArgs {
    /// Soak mode: the mixed load for `--minutes`, pass/fail on memory growth and 5xx.
    #[arg(long, conflicts_with = "faults")]
    pub soak: bool,
    /// Soak duration in minutes.
    #[arg(long, default_value_t = 10)]
    pub minutes: u64,
    /// Soak: the memory cap stated for the default settings (the book's Limits page); the
    /// server's RSS must stay under it for the whole run.
    #[arg(long, default_value_t = 640)]
    pub rss_cap_mib: u64,
    /// Fault mode: hostile avatar hosts during load, then kill and restart the server.
    #[arg(long)]
    pub faults: bool,
    /// Seconds each measured scenario runs (the mix runs twice as long).
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Concurrent keep-alive connections of the load generator.
    #[arg(long, default_value_t = 16)]
    pub connections: usize,
    /// Upper bound on requests per scenario.
    #[arg(long, default_value_t = 5_000_000)]
    pub max_requests: u64,
    /// Server worker threads (default: one per core, as in production).
    #[arg(long)]
    pub workers: Option<usize>,
    /// Use debug builds (to check the harness quickly; the figures mean nothing).
    #[arg(long)]
    pub dev: bool,
    /// Do not build: use the release binaries already in the target directory.
    #[arg(long)]
    pub no_build: bool,
    /// Print the tables only; leave the benchmark history alone.
    #[arg(long)]
    pub no_write: bool,
    /// Burst mode: 96 canvas requests at once; passes with 0 errors, each
    /// answered within `--deadline-ms`.
    #[arg(long, conflicts_with_all = ["soak", "faults"])]
    pub burst: bool,
    /// The canvas queue deadline the burst must finish within (the
    /// server's `--canvas-queue-ms` default).
    #[arg(long, default_value_t = 10_000)]
    pub deadline_ms: u64,
    /// Fairness mode: a victim client's p99 alone and beside three abusive
    /// clients sending 24 uncached 4096² avatars each.
    #[arg(long, conflicts_with_all = ["soak", "faults", "burst"])]
    pub fairness: bool,
    /// Hostile-memory mode: the abusive clients with 16-bit interlaced 4096²
    /// avatars for `--seconds`; passes when the peak RSS stays under
    /// `--memory-bound-mib`; then reports the RSS after 30 s idle.
    #[arg(long, conflicts_with_all = ["soak", "faults", "burst", "fairness"])]
    pub hostile_memory: bool,
    /// Fairness and hostile-memory: the abusive clients ask for `circle` of
    /// a 128-frame 512² animated GIF (uncached) instead of a 4096² PNG
    /// (`--abuse animated`).
    #[arg(long, conflicts_with = "abuse")]
    pub animated: bool,
    /// Fairness and hostile-memory: what the abusive clients ask for
    /// (default: `still` for fairness, `still16i` for hostile memory).
    #[arg(long, value_enum)]
    pub abuse: Option<pressure::Abuse>,
    /// Fairness and hostile-memory: every costly render flood in turn
    /// (the 256-frame 8×8 GIF through namecard, post, post as WebP and a
    /// rank card; petpet, amongus, triggered and circle of the 128-frame
    /// 512² GIF; the two-image welcome card), each against a fresh server.
    #[arg(long, conflicts_with_all = ["abuse", "animated"])]
    pub render_kinds: bool,
    /// Hostile-memory: the worst-case memory stated in the book's Limits page.
    #[arg(long, default_value_t = 1484)]
    pub memory_bound_mib: u64,
    /// Run the burst, fairness and hostile-memory modes against this server
    /// binary instead of building one (to compare builds).
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
}

/// Runs the selected suite.
pub fn run(args: &LoadtestArgs) -> Result<()> {
    if args.seconds == 0 || args.connections == 0 || args.minutes == 0 {
        bail!("--seconds, --connections and --minutes must be positive");
    }
    let _ = DEV.set(args.dev);
    if args.burst || args.fairness || args.hostile_memory {
        return pressure_modes(args);
    }
    if !args.no_build {
        let mut b = cargo();
        b.arg("build");
        if !args.dev {
            b.arg("--release");
        }
        run_cmd(b.args([
            "--package",
            "server",
            "--bin",
            "menagerie",
            "--example",
            "bare",
        ]))?;
    }
    snapshot_bins()?;
    let data_dir = loadtest_data()?;
    let host = AvatarHost::start().context("starting the loopback avatar host")?;
    eprintln!("loadtest: avatar host on {}", host.addr);
    let machine = Machine::detect();
    let result = if args.soak {
        soak(args, &data_dir, &host, &machine)
    } else if args.faults {
        faults(args, &data_dir, &host, &machine)
    } else {
        load(args, &data_dir, &host, &machine)
    };
    if let Some(d) = BIN_DIR.get() {
        let _ = std::fs::remove_dir_all(d);
    }
    result
}

/// The data directory the load test serves: the full data when the source
/// is present or can be downloaded, else the fixtures.
fn loadtest_data() -> Result<PathBuf> {
    match data::source_dir(&data::SourceArgs::default()) {
        Ok(src) => {
            let out = target_dir().join("loadtest-data");
            data::build(&src, &out)?;
            Ok(out)
        }
        Err(e) => {
            eprintln!(
                "loadtest: no source data ({e:#}); serving the fixtures (figures not comparable)"
            );
            data::fixture_data()
        }
    }
}

/// A child process killed (by its own handle) when dropped.
#[derive(Debug)]
struct Proc {
    child: Child,
    addr: SocketAddr,
    name: &'static str,
}

impl Proc {
    fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGKILL and reap.
    fn kill(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free loopback port (bound then released).
fn free_addr() -> Result<SocketAddr> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    Ok(l.local_addr()?)
}

/// Debug builds instead of release ones (`--dev`), set once at start.
static DEV: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
/// The server binary given by `--server-bin`.
static SERVER_BIN: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
/// Private copies of the binaries under test (see [`snapshot_bins`]).
static BIN_DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();

fn built_bin(name: &str) -> PathBuf {
    let profile = if DEV.get().copied().unwrap_or(false) {
        "debug"
    } else {
        "release"
    };
    target_dir().join(profile).join(name)
}

/// Copies the freshly built binaries to a private directory, so that a
/// build from another work tree sharing the target directory cannot swap
/// them mid-run.
fn snapshot_bins() -> Result<()> {
    let dir = std::env::temp_dir().join(format!("menagerie-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("examples"))?;
    for name in ["menagerie", "examples/bare"] {
        let from = built_bin(name);
        std::fs::copy(&from, dir.join(name))
            .with_context(|| format!("copying {} (build it or drop --no-build)", from.display()))?;
    }
    let _ = BIN_DIR.set(dir);
    Ok(())
}

fn release_bin(name: &str) -> PathBuf {
    if let (Some(bin), "menagerie") = (SERVER_BIN.get(), name) {
        return bin.clone();
    }
    match BIN_DIR.get() {
        Some(d) => d.join(name),
        None => built_bin(name),
    }
}

/// Whether `menagerie --help` lists `flag`.
fn server_has_flag(flag: &str) -> bool {
    Command::new(release_bin("menagerie"))
        .arg("--help")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains(flag))
        .unwrap_or(false)
}

/// Starts the release `menagerie` on `addr` and waits until /health answers.
fn start_server(
    addr: SocketAddr,
    data_dir: &Path,
    workers: Option<usize>,
    output_cache: bool,
) -> Result<(Proc, Duration)> {
    start_server_with(addr, data_dir, workers, output_cache, &[])
}

/// [`start_server`] with more arguments.
fn start_server_with(
    addr: SocketAddr,
    data_dir: &Path,
    workers: Option<usize>,
    output_cache: bool,
    extra: &[&str],
) -> Result<(Proc, Duration)> {
    let bin = release_bin("menagerie");
    let mut cmd = Command::new(&bin);
    cmd.args(extra);
    cmd.arg("--bind")
        .arg(addr.to_string())
        .arg("--data-dir")
        .arg(data_dir)
        .args(["--log-level", "warn"])
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    if server_has_flag("--allow-private-avatars") {
        cmd.arg("--allow-private-avatars");
    }
    // Load and fault runs: every canvas request renders and encodes, so the
    // figures measure that work, not the cache of encoded images in front
    // of it. The soak keeps the production default (the cache on).
    if !output_cache && server_has_flag("--output-cache-mb") {
        cmd.args(["--output-cache-mb", "0"]);
    }
    if let Some(w) = workers {
        cmd.arg("--workers").arg(w.to_string());
    }
    let t = Instant::now();
    let child = cmd
        .spawn()
        .with_context(|| format!("starting {} (build it or drop --no-build)", bin.display()))?;
    let p = Proc {
        child,
        addr,
        name: "menagerie",
    };
    wait_ready(&p, "/health")?;
    Ok((p, t.elapsed()))
}

/// The one route of `crates/server/examples/bare.rs` (a fixed JSON body the
/// size of a `/facts/cat` answer).
const BARE_PATH: &str = "/facts/cat";

/// Starts the bare actix-web example and waits until it answers.
fn start_bare(addr: SocketAddr, workers: Option<usize>) -> Result<Proc> {
    let bin = release_bin("examples/bare");
    let mut cmd = Command::new(&bin);
    cmd.arg(addr.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    cmd.arg(workers.unwrap_or_else(cores).to_string());
    let child = cmd
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let p = Proc {
        child,
        addr,
        name: "bare",
    };
    wait_ready(&p, BARE_PATH)?;
    Ok(p)
}

fn cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

/// Polls `path` every 5 ms for up to 60 s until it answers 200.
fn wait_ready(p: &Proc, path: &str) -> Result<()> {
    let deadline = Instant::now() + Duration::from_secs(60);
    while Instant::now() < deadline {
        let mut c = Conn::new(p.addr, Duration::from_secs(2));
        if c.get(path).is_ok_and(|r| r.status == 200) {
            return Ok(());
        }
        thread::sleep(Duration::from_millis(5));
    }
    bail!("{} did not answer {path} within 60 s", p.name)
}

/// A process's resident set size now (`VmRSS`) and at its peak (`VmHWM`), in KiB.
fn rss_kib(pid: u32) -> Option<(u64, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| {
        s.lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// The bytes held by the server's avatar and output caches, from `/metrics`.
fn cache_bytes(c: &mut Conn) -> Option<u64> {
    let r = c.get("/metrics").ok().filter(|r| r.status == 200)?;
    let text = String::from_utf8(r.body).ok()?;
    let gauge = |name: &str| -> Option<u64> {
        text.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))?
            .trim()
            .parse()
            .ok()
    };
    Some(
        gauge("menagerie_avatar_cache_bytes")? + gauge("menagerie_output_cache_bytes").unwrap_or(0),
    )
}

fn limits(args: &LoadtestArgs, secs: u64) -> RunLimits {
    RunLimits {
        connections: args.connections,
        duration: Duration::from_secs(secs),
        max_requests: args.max_requests,
        timeout: Duration::from_secs(30),
    }
}

fn row(name: &str, o: &Outcome, bare_rps: Option<f64>, rss: Option<(u64, u64)>) -> Row {
    Row::from_outcome(name, o, bare_rps, rss)
}

// ---------------------------------------------------------------- load ---

fn load(args: &LoadtestArgs, data_dir: &Path, host: &AvatarHost, machine: &Machine) -> Result<()> {
    let secs = args.seconds;
    let mut rows = Vec::new();

    eprintln!("loadtest: bare actix-web baseline, {secs} s");
    let bare = start_bare(free_addr()?, args.workers)?;
    let bare_plan = Plan::single("bare actix-web", BARE_PATH, 200);
    let o = workload::run(bare.addr, &bare_plan, &limits(args, secs));
    let bare_rss = rss_kib(bare.pid());
    bare.kill();
    let bare_rps = o.rps();
    rows.push(row("bare actix-web handler", &o, Some(bare_rps), bare_rss));

    let (srv, startup) = start_server(free_addr()?, data_dir, args.workers, false)?;
    eprintln!("loadtest: menagerie ready in {startup:?}");
    let mut plan = workload::mixed(host);
    let skipped = plan.probe(srv.addr);
    for class in plan.class_names() {
        eprintln!("loadtest: {class}, {secs} s");
        let only = plan.only(&class);
        let o = workload::run(srv.addr, &only, &limits(args, secs));
        rows.push(row(&class, &o, Some(bare_rps), rss_kib(srv.pid())));
    }
    eprintln!("loadtest: the mix, {} s", 2 * secs);
    let o = workload::run(srv.addr, &plan, &limits(args, 2 * secs));
    let rss = rss_kib(srv.pid());
    rows.push(row(
        &format!("mix ({})", plan.weights_text()),
        &o,
        Some(bare_rps),
        rss,
    ));
    let per_class = report::class_table(&o);
    srv.kill();
    let notes = format!(
        "Mix weights: {}. Server ready {:.0} ms after spawn. The mix opened {} TCP connections for {} requests; \
         the avatar host served {} avatar PNGs over the whole run.",
        plan.weights_text(),
        startup.as_secs_f64() * 1000.0,
        o.connects,
        o.total().latencies_us.len(),
        host.stats.avatars.load(Ordering::Relaxed)
    );

    let cmd = format!(
        "cargo xtask loadtest --seconds {secs} --connections {}",
        args.connections
    );
    let text = report::load_section(machine, &cmd, args, &rows, &per_class, &skipped, &notes);
    println!("{text}");
    if !args.no_write && !args.dev {
        report::write_section("loadtest", "loadtest", &text)?;
        eprintln!("loadtest: docs/benchmarks-history/server.md updated (## loadtest)");
    }
    let bad: u64 = rows.iter().map(|r| r.s5xx + r.io_errors).sum();
    if bad > 0 {
        bail!("{bad} server errors or dropped requests during the load test");
    }
    Ok(())
}

// ---------------------------------------------------------------- soak ---

fn soak(args: &LoadtestArgs, data_dir: &Path, host: &AvatarHost, machine: &Machine) -> Result<()> {
    let total = Duration::from_secs(args.minutes * 60);
    let (srv, _) = start_server(free_addr()?, data_dir, args.workers, true)?;
    let mut plan = workload::mixed(host);
    let skipped = plan.probe(srv.addr);
    let pid = srv.pid();
    let stop = Arc::new(AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        let addr = srv.addr;
        thread::spawn(move || {
            let t = Instant::now();
            let mut samples = Vec::new();
            let mut metrics = Conn::new(addr, Duration::from_secs(2));
            // Bounded: one sample a second, at most the soak length plus a minute.
            while !stop.load(Ordering::Relaxed) && t.elapsed() < total + Duration::from_secs(60) {
                if let Some((rss, _)) = rss_kib(pid) {
                    samples.push(report::Sample {
                        secs: t.elapsed().as_secs_f64(),
                        rss_kib: rss,
                        cache_bytes: cache_bytes(&mut metrics),
                    });
                }
                thread::sleep(Duration::from_secs(1));
            }
            samples
        })
    };
    eprintln!("soak: the mix for {} min", args.minutes);
    let lim = RunLimits {
        connections: args.connections,
        duration: total,
        max_requests: u64::MAX / 2,
        timeout: Duration::from_secs(30),
    };
    let o = workload::run(srv.addr, &plan, &lim);
    stop.store(true, Ordering::Relaxed);
    let samples = sampler.join().expect("sampler thread");
    let peak = rss_kib(pid);
    srv.kill();

    let verdict = report::soak_verdict(&samples, total.as_secs_f64(), &o, args.rss_cap_mib);
    let cmd = format!(
        "cargo xtask loadtest --soak --minutes {} --connections {} --rss-cap-mib {}",
        args.minutes, args.connections, args.rss_cap_mib
    );
    let r = row(&format!("mix ({})", plan.weights_text()), &o, None, peak);
    let curve = report::soak_curve(&samples, total.as_secs_f64());
    let text = report::soak_section(machine, &cmd, &r, &verdict, &curve, &skipped);
    println!("{text}");
    if !args.no_write && !args.dev {
        report::write_section("soak", "soak", &text)?;
        eprintln!("soak: docs/benchmarks-history/server.md updated (## soak)");
    }
    if !verdict.pass {
        bail!("soak FAILED: {}", verdict.summary);
    }
    eprintln!("soak: PASS ({})", verdict.summary);
    Ok(())
}

// ---------------------------------------- burst, fairness, memory ---

fn pressure_modes(args: &LoadtestArgs) -> Result<()> {
    match &args.server_bin {
        Some(bin) => {
            let _ = SERVER_BIN.set(bin.clone());
        }
        None => {
            if !args.no_build {
                let mut b = cargo();
                b.args(["build", "--package", "server", "--bin", "menagerie"]);
                if !args.dev {
                    b.arg("--release");
                }
                run_cmd(&mut b)?;
            }
            let dir =
                std::env::temp_dir().join(format!("menagerie-loadtest-{}", std::process::id()));
            std::fs::create_dir_all(&dir)?;
            std::fs::copy(built_bin("menagerie"), dir.join("menagerie"))
                .context("copying the server binary (build it or drop --no-build)")?;
            let _ = SERVER_BIN.set(dir.join("menagerie"));
            let _ = BIN_DIR.set(dir);
        }
    }
    let data_dir = loadtest_data()?;
    let host = AvatarHost::start().context("starting the loopback avatar host")?;
    pressure::warm_host(&host);
    let machine = Machine::detect();
    let bin = release_bin("menagerie");
    let chosen = if args.animated {
        Some(pressure::Abuse::Animated)
    } else {
        args.abuse
    };
    let abuse = |default| chosen.unwrap_or(default);
    // The report's key and title: the mode, and the abuse when one was
    // chosen (`hostile-memory-animated`, `loadtest --hostile-memory --abuse animated`).
    let named = |mode: &str| match chosen.and_then(|a| clap::ValueEnum::to_possible_value(&a)) {
        None => (mode.to_owned(), format!("loadtest --{mode}")),
        Some(v) => (
            format!("{mode}-{}", v.get_name()),
            format!("loadtest --{mode} --abuse {}", v.get_name()),
        ),
    };
    let kinds: Vec<pressure::Abuse> = if args.render_kinds {
        pressure::RENDER_KINDS.to_vec()
    } else if args.fairness {
        vec![abuse(pressure::Abuse::Still)]
    } else {
        vec![abuse(pressure::Abuse::Still16i)]
    };
    let (key, title, figures) = if args.burst {
        let (srv, _) = start_server(free_addr()?, &data_dir, args.workers, false)?;
        let f = pressure::burst(&srv, &host, Duration::from_millis(args.deadline_ms));
        srv.kill();
        ("burst".to_owned(), "loadtest --burst".to_owned(), f)
    } else {
        let mode = if args.fairness {
            "fairness"
        } else {
            "hostile-memory"
        };
        let mut all = pressure::Figures {
            lines: Vec::new(),
            pass: true,
        };
        for kind in kinds {
            // Each flood meets a fresh server, as a replica would.
            let (srv, _) = start_server_with(
                free_addr()?,
                &data_dir,
                args.workers,
                !args.fairness,
                &["--trusted-proxy", "127.0.0.1/32"],
            )?;
            let f = if args.fairness {
                pressure::fairness(&srv, &host, Duration::from_secs(args.seconds), kind)
            } else {
                pressure::hostile_memory(
                    &srv,
                    &host,
                    Duration::from_secs(args.seconds),
                    Duration::from_secs(30),
                    args.memory_bound_mib,
                    kind,
                )?
            };
            srv.kill();
            eprintln!("loadtest: {}", f.lines.join("; "));
            all.lines.extend(f.lines);
            all.pass &= f.pass;
        }
        let (key, title) = if args.render_kinds {
            (
                format!("{mode}-render-kinds"),
                format!("loadtest --{mode} --render-kinds"),
            )
        } else {
            named(mode)
        };
        (key, title, all)
    };
    let text = format!(
        "{} ({}, commit {}), server `{}`:\n\n{}\n",
        machine.date,
        machine.description,
        machine.commit,
        bin.display(),
        figures
            .lines
            .iter()
            .map(|l| format!("- {l}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    println!("{text}");
    if !args.no_write && !args.dev && args.server_bin.is_none() {
        report::write_section(&key, &title, &text)?;
    }
    if let Some(d) = BIN_DIR.get() {
        let _ = std::fs::remove_dir_all(d);
    }
    if !figures.pass {
        bail!("{title} FAILED");
    }
    Ok(())
}

// -------------------------------------------------------------- faults ---

fn faults(
    args: &LoadtestArgs,
    data_dir: &Path,
    host: &AvatarHost,
    machine: &Machine,
) -> Result<()> {
    let secs = args.seconds;
    let addr = free_addr()?;
    let (srv, _) = start_server(addr, data_dir, args.workers, false)?;
    let mut plan = workload::mixed(host);
    let skipped = plan.probe(srv.addr);
    let mut fault_plan = workload::faults(host);
    let fault_skipped = fault_plan.probe_faults(srv.addr);

    eprintln!("faults: the mix alone, {secs} s (reference)");
    let calm = workload::run(srv.addr, &plan, &limits(args, secs));
    eprintln!("faults: the mix with hostile avatar hosts, {secs} s");
    let fault_limits = RunLimits {
        connections: 8,
        duration: Duration::from_secs(secs),
        max_requests: args.max_requests,
        timeout: Duration::from_secs(60),
    };
    let (stormy, hostile) = thread::scope(|s| {
        let h = s.spawn(|| workload::run(srv.addr, &fault_plan, &fault_limits));
        let m = workload::run(srv.addr, &plan, &limits(args, secs));
        (m, h.join().expect("fault clients"))
    });
    let rss = rss_kib(srv.pid());

    // Kill mid-load, restart on the same address, time the first answer.
    eprintln!("faults: SIGKILL mid-load and restart");
    let stop = Arc::new(AtomicBool::new(false));
    let restart = thread::scope(|s| -> Result<(Duration, Outcome)> {
        let bg_limits = RunLimits {
            connections: 4,
            duration: Duration::from_secs(secs + 30),
            max_requests: args.max_requests,
            timeout: Duration::from_secs(5),
        };
        let plan_ref = &plan;
        let stop_ref = &stop;
        let bg = s.spawn(move || workload::run_until(addr, plan_ref, &bg_limits, stop_ref));
        thread::sleep(Duration::from_secs(2));
        srv.kill();
        let (srv2, up) = start_server(addr, data_dir, args.workers, false)?;
        // After the restart the mix must see no errors at all.
        let after = workload::run(addr, &plan, &limits(args, secs.min(5)));
        stop.store(true, Ordering::Relaxed);
        let _during = bg.join().expect("background load");
        srv2.kill();
        Ok((up, after))
    })?;
    let (restart_time, after) = restart;

    let rows = vec![
        row("mix alone (reference)", &calm, None, None),
        row(
            "mix while hostile hosts are hit",
            &stormy,
            Some(calm.rps()),
            rss,
        ),
        row(
            "mix right after kill -9 + restart",
            &after,
            Some(calm.rps()),
            None,
        ),
    ];
    let fault_rows = report::fault_rows(&hostile);
    eprintln!(
        "faults: the avatar host saw {} fault requests",
        host.stats.faults.load(Ordering::Relaxed)
    );
    let cmd = format!("cargo xtask loadtest --faults --seconds {secs}");
    let verdict = report::fault_verdict(&stormy, &hostile, &after, restart_time);
    let text = report::fault_section(
        machine,
        &cmd,
        &rows,
        &fault_rows,
        restart_time,
        &verdict,
        &[skipped, fault_skipped].concat(),
    );
    println!("{text}");
    if !args.no_write && !args.dev {
        report::write_section("faults", "loadtest --faults", &text)?;
        eprintln!("faults: docs/benchmarks-history/server.md updated (## loadtest --faults)");
    }
    if !verdict.pass {
        bail!("faults FAILED: {}", verdict.summary);
    }
    eprintln!("faults: PASS ({})", verdict.summary);
    Ok(())
}
