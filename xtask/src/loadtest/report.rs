//! Tables for the terminal and the server's benchmark history
//! (`docs/benchmarks-history/server.md`), and the pass/fail verdicts.

use std::fmt::Write as _;
use std::process::Command;
use std::time::Duration;

use anyhow::{Context, Result};

use super::LoadtestArgs;
use super::workload::{ClassOutcome, Outcome};
use crate::repo_root;

/// Where and when the figures were taken.
#[derive(Debug)]
pub struct Machine {
    /// UTC date and time.
    pub date: String,
    /// CPU model, core count and memory.
    pub description: String,
    /// The commit measured.
    pub commit: String,
}

impl Machine {
    /// Reads /proc and git.
    pub fn detect() -> Self {
        let out = |cmd: &mut Command| {
            cmd.output()
                .ok()
                .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
                .unwrap_or_default()
        };
        let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
        let model = cpuinfo
            .lines()
            .find(|l| l.starts_with("model name"))
            .and_then(|l| l.split(':').nth(1))
            .map_or("unknown CPU", str::trim)
            .to_owned();
        let mem_kib: u64 = std::fs::read_to_string("/proc/meminfo")
            .unwrap_or_default()
            .lines()
            .find(|l| l.starts_with("MemTotal:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Self {
            date: out(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"])),
            description: format!(
                "{model}, {cores} cores, {:.0} GiB, {}",
                mem_kib as f64 / 1024.0 / 1024.0,
                out(Command::new("uname").args(["-sr"]))
            ),
            commit: out(Command::new("git")
                .args(["rev-parse", "--short", "HEAD"])
                .current_dir(repo_root())),
        }
    }
}

/// One line of a results table.
#[derive(Debug)]
pub struct Row {
    name: String,
    requests: u64,
    rps: f64,
    ratio: Option<f64>,
    p50: f64,
    p99: f64,
    p999: f64,
    max: f64,
    /// Responses that were not as expected (5xx included).
    pub unexpected: u64,
    /// 5xx responses.
    pub s5xx: u64,
    /// Requests without a response.
    pub io_errors: u64,
    rss: Option<(u64, u64)>,
}

/// Latency percentile in ms (nearest rank) of sorted µs values.
fn pct(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    f64::from(sorted[rank - 1]) / 1000.0
}

impl Row {
    /// Summarises an outcome; `base_rps` gives the ratio column.
    pub fn from_outcome(
        name: &str,
        o: &Outcome,
        base_rps: Option<f64>,
        rss: Option<(u64, u64)>,
    ) -> Self {
        Self::from_class(name, &o.total(), o.rps(), base_rps, rss)
    }

    fn from_class(
        name: &str,
        c: &ClassOutcome,
        rps: f64,
        base_rps: Option<f64>,
        rss: Option<(u64, u64)>,
    ) -> Self {
        let mut l = c.latencies_us.clone();
        l.sort_unstable();
        Self {
            name: name.to_owned(),
            requests: l.len() as u64 + c.io_errors,
            rps,
            ratio: base_rps.filter(|b| *b > 0.0).map(|b| rps / b),
            p50: pct(&l, 0.50),
            p99: pct(&l, 0.99),
            p999: pct(&l, 0.999),
            max: l.last().map_or(0.0, |v| f64::from(*v) / 1000.0),
            unexpected: c.unexpected,
            s5xx: c.s5xx,
            io_errors: c.io_errors,
            rss,
        }
    }
}

fn mib(kib: u64) -> String {
    format!("{:.1}", kib as f64 / 1024.0)
}

fn table(rows: &[Row]) -> String {
    let mut s = String::from(
        "| scenario | requests | req/s | vs bare | p50 ms | p99 ms | p99.9 ms | max ms | unexpected | 5xx | no answer | RSS / peak MiB |\n\
         |---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|\n",
    );
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {:.0} | {} | {:.2} | {:.2} | {:.2} | {:.1} | {} | {} | {} | {} |",
            r.name,
            r.requests,
            r.rps,
            r.ratio.map_or("".into(), |x| format!("{x:.2}")),
            r.p50,
            r.p99,
            r.p999,
            r.max,
            r.unexpected,
            r.s5xx,
            r.io_errors,
            r.rss.map_or("".into(), |(now, peak)| format!(
                "{} / {}",
                mib(now),
                mib(peak)
            )),
        );
    }
    s
}

/// Per-class figures of the mixed run.
pub fn class_table(o: &Outcome) -> Vec<Row> {
    let secs = o.elapsed.as_secs_f64().max(1e-9);
    o.classes
        .iter()
        .map(|c| {
            Row::from_class(
                &format!("mix: {}", c.name),
                c,
                c.latencies_us.len() as f64 / secs,
                None,
                None,
            )
        })
        .collect()
}

fn header(m: &Machine, cmd: &str) -> String {
    format!(
        "Measured {} on {} (commit `{}`).\nRerun: `{cmd}` (release build, loopback only).\n\n",
        m.date, m.description, m.commit
    )
}

fn skipped_text(skipped: &[String]) -> String {
    if skipped.is_empty() {
        return String::new();
    }
    let mut s = String::from(
        "\nLeft out of this run (the server did not answer them as expected when probed; routes not yet built or data absent):\n\n",
    );
    for k in skipped {
        let _ = writeln!(s, "- {k}");
    }
    s
}

/// The `## loadtest` section.
pub fn load_section(
    m: &Machine,
    cmd: &str,
    args: &LoadtestArgs,
    rows: &[Row],
    per_class: &[Row],
    skipped: &[String],
    notes: &str,
) -> String {
    let mut s = header(m, cmd);
    let _ = writeln!(
        s,
        "Load generator: `xtask/src/loadtest/` (closed loop, {} keep-alive HTTP/1.1 connections on \
         std threads, same machine as the server). Server: release `menagerie`, workers: {}, \
         `--log-level warn`, full data. Baseline: `crates/server/examples/bare.rs` (same actix-web, \
         same workers, one handler answering a fixed JSON body the size of a `/facts/cat` answer) measured in the same run; \"vs bare\" is req/s divided by \
         its req/s. \"unexpected\" counts answers with the wrong \
         status or media type; \"no answer\" counts refused/reset/timed-out requests.\n",
        args.connections,
        args.workers
            .map_or("one per core".to_owned(), |w| w.to_string()),
    );
    s.push_str(&table(rows));
    s.push_str("\nThe mix, per class:\n\n");
    s.push_str(&table(per_class));
    let _ = writeln!(s, "\n{notes}");
    s.push_str(&skipped_text(skipped));
    s
}

/// The soak verdict.
#[derive(Debug)]
pub struct Verdict {
    /// Passed.
    pub pass: bool,
    /// One line for the terminal and the report.
    pub summary: String,
}

/// One soak sample, taken every second.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    /// Seconds since the mix started.
    pub secs: f64,
    /// The server's resident set size, KiB.
    pub rss_kib: u64,
    /// Bytes held by the avatar and output caches (from `/metrics`), if
    /// the scrape answered.
    pub cache_bytes: Option<u64>,
}

/// The caches count as full at 90 % of the most they held in the run.
const CACHES_FULL: f64 = 0.9;
/// A warm-up that has not ended by this fraction of the run leaves too
/// little steady state to judge growth.
const LATEST_WARM_END: f64 = 0.6;
/// The largest growth of the RSS after the warm-up, percent.
const GROWTH_LIMIT: f64 = 10.0;

/// When the warm-up ends: at one fifth of the run, or later if the
/// avatar and output caches are not yet 90 % as full as they get. Until
/// then RSS grows by design (up to the caches' stated bounds), so growth
/// before that point says nothing about leaks.
fn warm_end(samples: &[Sample], total_secs: f64) -> (f64, Option<f64>) {
    let floor = total_secs / 5.0;
    let most = samples.iter().filter_map(|s| s.cache_bytes).max();
    let filled = most.and_then(|m| {
        samples
            .iter()
            .find(|s| {
                s.cache_bytes
                    .is_some_and(|b| b as f64 >= m as f64 * CACHES_FULL)
            })
            .map(|s| s.secs)
    });
    (filled.map_or(floor, |f| f.max(floor)), filled)
}

/// The verdict: the RSS never over `cap_mib`; after the warm-up (see
/// [`warm_end`]) its peak at most 10 % over its value at the warm-up's
/// end, with the warm-up over by 60 % of the run; no 5xx and no dropped
/// request.
pub fn soak_verdict(samples: &[Sample], total_secs: f64, o: &Outcome, cap_mib: u64) -> Verdict {
    let (warm, filled) = warm_end(samples, total_secs);
    let at_warm = samples
        .iter()
        .rev()
        .find(|s| s.secs <= warm)
        .map(|s| s.rss_kib);
    let peak_after = samples
        .iter()
        .filter(|s| s.secs > warm)
        .map(|s| s.rss_kib)
        .max();
    let last = samples.last().map(|s| s.rss_kib);
    let peak = samples.iter().map(|s| s.rss_kib).max();
    let under_cap = peak.is_some_and(|p| p <= cap_mib * 1024);
    let total = o.total();
    let judged = warm <= total_secs * LATEST_WARM_END;
    let (growth, mem_ok) = match (at_warm, peak_after) {
        (Some(a), Some(p)) if a > 0 => {
            let g = (p as f64 - a as f64) / a as f64 * 100.0;
            (g, judged && g <= GROWTH_LIMIT)
        }
        _ => (f64::NAN, false),
    };
    let errors_ok = total.s5xx == 0 && total.io_errors == 0;
    let pass = mem_ok && under_cap && errors_ok && !total.latencies_us.is_empty();
    let warm_text = match filled {
        Some(f) if f > total_secs / 5.0 => format!("{warm:.0} s, when the caches were 90 % full"),
        Some(f) => format!("{warm:.0} s; the caches were 90 % full at {f:.0} s"),
        None => format!("{warm:.0} s; cache sizes not read"),
    };
    let late = if judged {
        String::new()
    } else {
        format!(
            " (the warm-up ended after {:.0} % of the run: too little steady state to judge, run longer)",
            LATEST_WARM_END * 100.0
        )
    };
    Verdict {
        pass,
        summary: format!(
            "peak RSS {} MiB (cap {} MiB); RSS {} MiB at the end of the warm-up ({warm_text}), peak {} MiB after it, {} MiB at the end: growth {:+.1} % (limit +{GROWTH_LIMIT:.0} %){late}; {} requests, {} 5xx, {} without answer",
            peak.map_or("?".into(), mib),
            cap_mib,
            at_warm.map_or("?".into(), mib),
            peak_after.map_or("?".into(), mib),
            last.map_or("?".into(), mib),
            growth,
            total.latencies_us.len() as u64 + total.io_errors,
            total.s5xx,
            total.io_errors,
        ),
    }
}

/// The RSS and cache bytes at ten evenly spaced points of the run.
pub fn soak_curve(samples: &[Sample], total_secs: f64) -> String {
    let mut s = String::from("| s | RSS MiB | caches MiB |\n|--:|--:|--:|\n");
    for k in 1..=10 {
        let t = total_secs * f64::from(k) / 10.0;
        if let Some(x) = samples.iter().rev().find(|x| x.secs <= t) {
            let _ = writeln!(
                s,
                "| {:.0} | {} | {} |",
                x.secs,
                mib(x.rss_kib),
                x.cache_bytes
                    .map_or("?".into(), |b| format!("{:.1}", b as f64 / 1048576.0))
            );
        }
    }
    s
}

/// The `## soak` section.
pub fn soak_section(
    m: &Machine,
    cmd: &str,
    r: &Row,
    v: &Verdict,
    curve: &str,
    skipped: &[String],
) -> String {
    let mut s = header(m, cmd);
    let _ = writeln!(
        s,
        "**{}**: {}.\n",
        if v.pass { "PASS" } else { "FAIL" },
        v.summary
    );
    s.push_str(&table(std::slice::from_ref(r)));
    let _ = writeln!(
        s,
        "\nThe server's RSS and the bytes its avatar and output caches hold, through the run:\n\n{curve}"
    );
    s.push_str(&skipped_text(skipped));
    s
}

/// One row per fault kind.
pub fn fault_rows(o: &Outcome) -> Vec<Row> {
    let secs = o.elapsed.as_secs_f64().max(1e-9);
    o.classes
        .iter()
        .map(|c| {
            Row::from_class(
                &format!("avatar host: {}", c.name),
                c,
                c.latencies_us.len() as f64 / secs,
                None,
                None,
            )
        })
        .collect()
}

/// Faults pass when the mix saw no 5xx and no dropped request during the
/// faults and after the restart, every hostile request got a JSON error
/// (not 500) within 30 s, and the restarted server answered within 2 s.
pub fn fault_verdict(
    stormy: &Outcome,
    hostile: &Outcome,
    after: &Outcome,
    restart: Duration,
) -> Verdict {
    let s = stormy.total();
    let h = hostile.total();
    let a = after.total();
    let slowest_hostile = h.latencies_us.iter().max().copied().unwrap_or(0);
    let mut problems = Vec::new();
    if s.s5xx + s.io_errors + s.unexpected > 0 {
        problems.push(format!(
            "mix during faults: {} 5xx, {} unexpected, {} without answer",
            s.s5xx, s.unexpected, s.io_errors
        ));
    }
    if hostile.classes.is_empty() {
        problems.push(
            "the hostile avatar hosts were not exercised (no canvas route answered a good avatar)"
                .to_owned(),
        );
    }
    if h.unexpected + h.io_errors > 0 {
        problems.push(format!(
            "hostile requests: {} not a JSON error (or a 500), {} without answer; e.g. {:?}",
            h.unexpected, h.io_errors, h.examples
        ));
    }
    if slowest_hostile > 30_000_000 {
        problems.push(format!(
            "a hostile request took {} ms",
            slowest_hostile / 1000
        ));
    }
    if a.s5xx + a.io_errors + a.unexpected > 0 || a.latencies_us.is_empty() {
        problems.push(format!(
            "mix after restart: {} 5xx, {} unexpected, {} without answer",
            a.s5xx, a.unexpected, a.io_errors
        ));
    }
    if restart > Duration::from_secs(2) {
        problems.push(format!("restart took {restart:?}"));
    }
    let pass = problems.is_empty();
    Verdict {
        pass,
        summary: if pass {
            format!(
                "{} hostile requests all answered with JSON errors (slowest {:.1} s), mix unharmed, restart to first answer {:.0} ms",
                h.latencies_us.len(),
                f64::from(slowest_hostile) / 1e6,
                restart.as_secs_f64() * 1000.0
            )
        } else {
            problems.join("; ")
        },
    }
}

/// The `## loadtest --faults` section.
pub fn fault_section(
    m: &Machine,
    cmd: &str,
    rows: &[Row],
    fault_rows: &[Row],
    restart: Duration,
    v: &Verdict,
    skipped: &[String],
) -> String {
    let mut s = header(m, cmd);
    let _ = writeln!(
        s,
        "**{}**: {}.\n\nThe mix (as in `## loadtest`) runs alone, then again while 8 more \
         connections ask for canvas images whose avatar host stalls (30 s), resets, drips one \
         byte per 100 ms, redirects forever, sends garbage, a 60000×60000 PNG header, or 1 GiB; \
         then the server is killed with SIGKILL under load and restarted on the same port \
         (first answer {:.0} ms after spawn). \"vs bare\" here is against the mix alone.\n",
        if v.pass { "PASS" } else { "FAIL" },
        v.summary,
        restart.as_secs_f64() * 1000.0
    );
    s.push_str(&table(rows));
    s.push_str("\nThe hostile requests (each must get a JSON error, never a 500 or a dropped connection):\n\n");
    s.push_str(&table(fault_rows));
    s.push_str(&skipped_text(skipped));
    s
}

/// The dated runs of the server, where the load tests write their figures.
pub const HISTORY: &str = "docs/benchmarks-history/server.md";

/// Replaces the text between `<!-- KEY:begin -->` and `<!-- KEY:end -->`
/// in the server's benchmark history ([`HISTORY`]), adding a `## TITLE`
/// section with the markers when absent.
pub fn write_section(key: &str, title: &str, body: &str) -> Result<()> {
    let path = repo_root().join(HISTORY);
    let old = std::fs::read_to_string(&path).unwrap_or_else(|_| "# Benchmarks\n".to_owned());
    let begin = format!("<!-- {key}:begin -->");
    let end = format!("<!-- {key}:end -->");
    let new = match (old.find(&begin), old.find(&end)) {
        (Some(b), Some(e)) if e > b => {
            format!("{}{begin}\n{body}{}", &old[..b], &old[e..])
        }
        _ => format!(
            "{}\n## {title}\n\n{begin}\n{body}{end}\n",
            old.trim_end().to_owned() + "\n"
        ),
    };
    std::fs::write(&path, new).with_context(|| format!("writing {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_nearest_rank() {
        let v: Vec<u32> = (1..=1000).map(|x| x * 1000).collect();
        assert_eq!(pct(&v, 0.5), 500.0);
        assert_eq!(pct(&v, 0.99), 990.0);
        assert_eq!(pct(&v, 0.999), 999.0);
        assert_eq!(pct(&[], 0.5), 0.0);
    }

    fn outcome() -> Outcome {
        Outcome {
            classes: vec![ClassOutcome {
                latencies_us: vec![1, 2, 3],
                ..ClassOutcome::default()
            }],
            elapsed: Duration::from_secs(100),
            connects: 1,
        }
    }

    /// 100 one-second samples: RSS and cache bytes by the second.
    fn run(rss: impl Fn(u64) -> u64, caches: impl Fn(u64) -> Option<u64>) -> Vec<Sample> {
        (0..100)
            .map(|t| Sample {
                secs: t as f64,
                rss_kib: rss(t),
                cache_bytes: caches(t),
            })
            .collect()
    }

    #[test]
    fn soak_fails_on_growth_and_passes_when_flat() {
        let o = outcome();
        let flat = run(|_| 100_000, |_| Some(1 << 20));
        // 100,000 KiB is about 98 MiB.
        assert!(soak_verdict(&flat, 100.0, &o, 100).pass);
        assert!(
            !soak_verdict(&flat, 100.0, &o, 97).pass,
            "flat but over the cap"
        );
        let growing = run(|t| 100_000 + t * 1000, |_| Some(1 << 20));
        assert!(!soak_verdict(&growing, 100.0, &o, 1000).pass);
        let unread = run(|t| 100_000 + t * 1000, |_| None);
        let v = soak_verdict(&unread, 100.0, &o, 1000);
        assert!(
            !v.pass && v.summary.contains("(20 s; cache sizes not read)"),
            "{}",
            v.summary
        );
    }

    #[test]
    fn the_warm_up_lasts_until_the_caches_are_full() {
        let o = outcome();
        // RSS follows the caches up to 40 s, then stays flat: not a leak.
        let filling = run(|t| 100_000 + t.min(40) * 1000, |t| Some(t.min(40) << 20));
        let v = soak_verdict(&filling, 100.0, &o, 1000);
        assert!(v.pass, "{}", v.summary);
        assert!(
            v.summary.contains("(36 s, when the caches were 90 % full)"),
            "{}",
            v.summary
        );
        // The same fill, then growth with full caches: a leak.
        let leak = run(
            |t| 100_000 + t.min(40) * 1000 + t.saturating_sub(40) * 500,
            |t| Some(t.min(40) << 20),
        );
        assert!(!soak_verdict(&leak, 100.0, &o, 1000).pass);
        // Caches still filling at 70 % of the run: growth can't be judged.
        let late = run(|t| 100_000 + t.min(80) * 100, |t| Some(t.min(80) << 20));
        let v = soak_verdict(&late, 100.0, &o, 1000);
        assert!(!v.pass && v.summary.contains("run longer"), "{}", v.summary);
    }

    #[test]
    fn the_curve_has_ten_points() {
        let c = soak_curve(&run(|t| t * 1024, |t| Some(t << 20)), 100.0);
        assert_eq!(c.lines().count(), 12, "{c}");
        assert!(c.contains("| 50 | 50.0 | 50.0 |"), "{c}");
        assert!(c.ends_with("| 99 | 99.0 | 99.0 |\n"), "{c}");
    }
}
