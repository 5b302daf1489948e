//! Workloads (weighted classes of request templates) and the closed-loop
//! load generator that runs them: N threads, one keep-alive connection each,
//! bounded by a request count, a duration and a stop flag.

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use super::client::{Conn, Response};
use super::hosts::AvatarHost;

/// What a response must look like to count as correct.
#[derive(Debug, Clone, Copy)]
pub enum Expect {
    /// This status, with a `Content-Type` starting with this text.
    Status(u16, &'static str),
    /// A JSON error: any 4xx or 5xx except 500, with a JSON body.
    JsonError,
    /// A creature miss: 404 JSON with `error` and a `dym` array.
    Dym,
}

impl Expect {
    fn accepts(self, r: &Response) -> bool {
        let ct = r.content_type.as_deref().unwrap_or_default();
        match self {
            Expect::Status(s, prefix) => r.status == s && ct.starts_with(prefix),
            Expect::JsonError => {
                (400..600).contains(&r.status)
                    && r.status != 500
                    && ct.starts_with("application/json")
                    && serde_json::from_slice::<serde_json::Value>(&r.body)
                        .is_ok_and(|v| v["error"].is_string())
            }
            Expect::Dym => {
                r.status == 404
                    && ct.starts_with("application/json")
                    && serde_json::from_slice::<serde_json::Value>(&r.body)
                        .is_ok_and(|v| v["error"].is_string() && v["dym"].is_array())
            }
        }
    }
}

/// One request template. `{n}` becomes 1..=151 in turn, `{fixed}` the fixed
/// avatar URL, `{fresh}` a never-used avatar URL, `{fault:KIND}` a fault URL.
#[derive(Debug, Clone)]
pub struct Target {
    template: String,
    expect: Expect,
}

/// A named class of requests with a weight in the mix.
#[derive(Debug)]
pub struct Class {
    name: String,
    weight: u32,
    targets: Vec<Target>,
    next: AtomicU64,
}

/// A workload: classes and the schedule that interleaves them by weight.
#[derive(Debug)]
pub struct Plan {
    classes: Vec<Class>,
    schedule: Vec<usize>,
    host: Option<SocketAddr>,
    unique: Arc<AtomicU64>,
}

fn t(template: &str, expect: Expect) -> Target {
    Target {
        template: template.to_owned(),
        expect,
    }
}

const JSON: Expect = Expect::Status(200, "application/json");
const IMAGE: Expect = Expect::Status(200, "image/");

impl Plan {
    fn new(host: Option<SocketAddr>, classes: Vec<(&str, u32, Vec<Target>)>) -> Self {
        let classes = classes
            .into_iter()
            .map(|(name, weight, targets)| Class {
                name: name.to_owned(),
                weight,
                targets,
                next: AtomicU64::new(0),
            })
            .collect();
        let mut p = Self {
            classes,
            schedule: Vec::new(),
            host,
            unique: Arc::new(AtomicU64::new(0)),
        };
        p.reschedule();
        p
    }

    /// A plan of one path expecting `status`.
    pub fn single(name: &str, path: &str, status: u16) -> Self {
        Self::new(
            None,
            vec![(name, 1, vec![t(path, Expect::Status(status, ""))])],
        )
    }

    fn reschedule(&mut self) {
        let mut slots: Vec<(f64, usize)> = Vec::new();
        for (k, c) in self.classes.iter().enumerate() {
            for j in 0..c.weight {
                slots.push(((f64::from(j) + 0.5) / f64::from(c.weight), k));
            }
        }
        slots.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        self.schedule = slots.into_iter().map(|(_, k)| k).collect();
    }

    /// The class names, in order.
    pub fn class_names(&self) -> Vec<String> {
        self.classes.iter().map(|c| c.name.clone()).collect()
    }

    /// "creature JSON 30 %, ..." for the report.
    pub fn weights_text(&self) -> String {
        let total: u32 = self.classes.iter().map(|c| c.weight).sum();
        self.classes
            .iter()
            .map(|c| format!("{} {} %", c.name, c.weight * 100 / total.max(1)))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The plan restricted to one class.
    pub fn only(&self, name: &str) -> Plan {
        let classes = self
            .classes
            .iter()
            .filter(|c| c.name == name)
            .map(|c| (c.name.as_str(), 1, c.targets.clone()))
            .collect();
        let mut p = Plan::new(self.host, classes);
        p.unique = self.unique.clone();
        p
    }

    fn render(&self, template: &str, n: u64) -> String {
        let mut s = template.replace("{n}", &(n % 151 + 1).to_string());
        if let Some(h) = self.host {
            s = s.replace("{fixed}", &format!("http://{h}/avatar/fixed.png"));
            if s.contains("{fresh}") {
                let u = self.unique.fetch_add(1, Ordering::Relaxed);
                s = s.replace("{fresh}", &format!("http://{h}/avatar/fresh/{u}.png"));
            }
            if let Some(start) = s.find("{fault:") {
                let end = start + s[start..].find('}').unwrap_or(0);
                let kind = s[start + 7..end].to_owned();
                let u = self.unique.fetch_add(1, Ordering::Relaxed);
                s.replace_range(start..=end, &format!("http://{h}/fault/{kind}/{u}"));
            }
        }
        s
    }

    /// The next request: its class, path and expectation.
    fn pick(&self, i: u64) -> (usize, String, Expect) {
        let k = self.schedule[(i % self.schedule.len() as u64) as usize];
        let c = &self.classes[k];
        let j = c.next.fetch_add(1, Ordering::Relaxed);
        let len = c.targets.len() as u64;
        let target = &c.targets[(j % len) as usize];
        (k, self.render(&target.template, j / len), target.expect)
    }

    /// Sends every target once; drops the ones the server does not answer as
    /// expected (routes not built yet, data absent) and returns why.
    pub fn probe(&mut self, addr: SocketAddr) -> Vec<String> {
        let mut skipped = Vec::new();
        let mut conn = Conn::new(addr, Duration::from_secs(30));
        let host = self.host;
        let unique = self.unique.clone();
        let renderer = Plan {
            classes: Vec::new(),
            schedule: vec![0],
            host,
            unique,
        };
        for c in &mut self.classes {
            c.targets.retain(|target| {
                let path = renderer.render(&target.template, 0);
                match conn.get(&path) {
                    Ok(r) if target.expect.accepts(&r) => true,
                    Ok(r) => {
                        let body =
                            String::from_utf8_lossy(&r.body[..r.body.len().min(100)]).into_owned();
                        skipped.push(format!(
                            "{} `{}`: answered {} {}",
                            c.name,
                            target.template,
                            r.status,
                            body.replace('\n', " ")
                        ));
                        false
                    }
                    Err(e) => {
                        skipped.push(format!("{} `{}`: {e}", c.name, target.template));
                        false
                    }
                }
            });
        }
        self.classes.retain(|c| !c.targets.is_empty());
        self.reschedule();
        for s in &skipped {
            eprintln!("loadtest: skipped {s}");
        }
        skipped
    }

    /// For fault plans: the canvas route must answer a good avatar with an
    /// image, else every fault class is dropped.
    pub fn probe_faults(&mut self, addr: SocketAddr) -> Vec<String> {
        let mut conn = Conn::new(addr, Duration::from_secs(30));
        let path = self.render(CANVAS_PROBE, 0);
        match conn.get(&path) {
            Ok(r) if IMAGE.accepts(&r) => Vec::new(),
            other => {
                let why = match other {
                    Ok(r) => format!("answered {}", r.status),
                    Err(e) => e.to_string(),
                };
                self.classes.clear();
                self.schedule = vec![];
                let s = format!("every fault class: `{CANVAS_PROBE}` {why}");
                eprintln!("loadtest: skipped {s}");
                vec![s]
            }
        }
    }
}

const CANVAS_PROBE: &str = "/canvas/filter/greyscale?avatar={fixed}";

/// The mixed workload of the issue: creature JSON, content JSON, colour
/// tools, canvas with the cached avatar, canvas with fresh avatars.
pub fn mixed(host: &AvatarHost) -> Plan {
    Plan::new(
        Some(host.addr),
        vec![
            (
                "creature JSON",
                30,
                vec![
                    t("/creature/dex?id={n}", JSON),
                    t("/creature/moves?move=tackle", JSON),
                    t("/creature/abilities?ability=overgrow", JSON),
                    t("/creature/items?item=potion", JSON),
                    t("/creature/moves?move=thundrbolt", Expect::Dym),
                ],
            ),
            (
                "content JSON",
                30,
                vec![
                    t("/animu/quote", JSON),
                    t("/animu/hug", JSON),
                    t("/facts/cat", JSON),
                    t("/animal/fox", JSON),
                    t("/img/dog", JSON),
                    t("/animu", JSON),
                ],
            ),
            (
                "colour tools",
                10,
                vec![
                    t("/canvas/hex?rgb={n},0,125", JSON),
                    t("/canvas/rgb?hex=4b007d", JSON),
                    t("/canvas/colorviewer?hex=4b007d", IMAGE),
                ],
            ),
            (
                "canvas, cached avatar",
                20,
                vec![
                    t(CANVAS_PROBE, IMAGE),
                    t("/canvas/misc/circle?avatar={fixed}", IMAGE),
                    t("/canvas/filter/sepia?avatar={fixed}", IMAGE),
                ],
            ),
            (
                "canvas, fresh avatar",
                10,
                vec![
                    t("/canvas/filter/invert?avatar={fresh}", IMAGE),
                    t("/canvas/misc/heart?avatar={fresh}", IMAGE),
                ],
            ),
        ],
    )
}

/// Fault clients: every request points the server at a hostile avatar host.
pub fn faults(host: &AvatarHost) -> Plan {
    let kinds = [
        "stall", "reset", "drip", "redirect", "garbage", "bomb", "huge",
    ];
    Plan::new(
        Some(host.addr),
        kinds
            .iter()
            .map(|k| {
                (
                    *k,
                    1,
                    vec![t(
                        &format!("/canvas/filter/greyscale?avatar={{fault:{k}}}"),
                        Expect::JsonError,
                    )],
                )
            })
            .collect(),
    )
}

/// Bounds of one run.
#[derive(Debug, Clone)]
pub struct RunLimits {
    /// Concurrent connections (one thread each).
    pub connections: usize,
    /// Wall-clock bound.
    pub duration: Duration,
    /// Request-count bound.
    pub max_requests: u64,
    /// Per-request read/write timeout.
    pub timeout: Duration,
}

/// What one class saw.
#[derive(Debug, Default, Clone)]
pub struct ClassOutcome {
    /// The class name.
    pub name: String,
    /// Latency of every completed response, in µs.
    pub latencies_us: Vec<u32>,
    /// Responses as expected.
    pub ok: u64,
    /// Responses with another status or type (5xx included).
    pub unexpected: u64,
    /// Responses with a 5xx status.
    pub s5xx: u64,
    /// Requests that got no response (refused, reset, timed out, garbled).
    pub io_errors: u64,
    /// Count per status.
    pub statuses: BTreeMap<u16, u64>,
    /// A few examples of unexpected answers.
    pub examples: Vec<String>,
}

impl ClassOutcome {
    fn merge(&mut self, o: ClassOutcome) {
        self.latencies_us.extend(o.latencies_us);
        self.ok += o.ok;
        self.unexpected += o.unexpected;
        self.s5xx += o.s5xx;
        self.io_errors += o.io_errors;
        for (s, n) in o.statuses {
            *self.statuses.entry(s).or_default() += n;
        }
        for e in o.examples {
            if self.examples.len() < 3 {
                self.examples.push(e);
            }
        }
    }
}

/// What one run saw.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Per class, in plan order.
    pub classes: Vec<ClassOutcome>,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// TCP connections opened.
    pub connects: u64,
}

impl Outcome {
    /// Every class merged into one.
    pub fn total(&self) -> ClassOutcome {
        let mut t = ClassOutcome::default();
        for c in &self.classes {
            t.merge(c.clone());
        }
        t
    }

    /// Completed responses per second.
    pub fn rps(&self) -> f64 {
        let n: u64 = self
            .classes
            .iter()
            .map(|c| c.latencies_us.len() as u64)
            .sum();
        n as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs `plan` against `addr` within `lim`.
pub fn run(addr: SocketAddr, plan: &Plan, lim: &RunLimits) -> Outcome {
    run_until(addr, plan, lim, &AtomicBool::new(false))
}

/// Runs `plan` against `addr` within `lim`, or until `stop` is set.
pub fn run_until(addr: SocketAddr, plan: &Plan, lim: &RunLimits, stop: &AtomicBool) -> Outcome {
    let n = plan.classes.len();
    let blank = || -> Vec<ClassOutcome> {
        plan.classes
            .iter()
            .map(|c| ClassOutcome {
                name: c.name.clone(),
                ..ClassOutcome::default()
            })
            .collect()
    };
    if n == 0 {
        return Outcome {
            classes: blank(),
            elapsed: Duration::from_millis(1),
            connects: 0,
        };
    }
    let counter = AtomicU64::new(0);
    let merged = Mutex::new((blank(), 0u64));
    let start = Instant::now();
    thread::scope(|s| {
        for _ in 0..lim.connections {
            s.spawn(|| {
                let mut mine = blank();
                let mut conn = Conn::new(addr, lim.timeout);
                loop {
                    if stop.load(Ordering::Relaxed) || start.elapsed() >= lim.duration {
                        break;
                    }
                    let i = counter.fetch_add(1, Ordering::Relaxed);
                    if i >= lim.max_requests {
                        break;
                    }
                    let (k, path, expect) = plan.pick(i);
                    let c = &mut mine[k];
                    let t = Instant::now();
                    match conn.get(&path) {
                        Ok(r) => {
                            let us = t.elapsed().as_micros().min(u128::from(u32::MAX)) as u32;
                            c.latencies_us.push(us);
                            *c.statuses.entry(r.status).or_default() += 1;
                            if r.status >= 500 {
                                c.s5xx += 1;
                            }
                            if expect.accepts(&r) {
                                c.ok += 1;
                            } else {
                                c.unexpected += 1;
                                if c.examples.len() < 3 {
                                    let body =
                                        String::from_utf8_lossy(&r.body[..r.body.len().min(120)])
                                            .into_owned();
                                    c.examples.push(format!("{path} -> {} {body}", r.status));
                                }
                            }
                        }
                        Err(e) => {
                            c.io_errors += 1;
                            if c.examples.len() < 3 {
                                c.examples.push(format!("{path} -> {e}"));
                            }
                            // Do not spin on a dead server.
                            thread::sleep(Duration::from_millis(1));
                        }
                    }
                }
                let mut m = merged.lock().expect("no panics while merging");
                for (all, one) in m.0.iter_mut().zip(mine) {
                    all.merge(one);
                }
                m.1 += conn.connects;
            });
        }
    });
    let elapsed = start.elapsed();
    let (classes, connects) = merged.into_inner().expect("no panics while merging");
    Outcome {
        classes,
        elapsed,
        connects,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedule_follows_weights() {
        let p = Plan::new(
            None,
            vec![
                ("a", 3, vec![t("/a", JSON)]),
                ("b", 1, vec![t("/b?x={n}", JSON)]),
            ],
        );
        assert_eq!(p.schedule.len(), 4);
        assert_eq!(p.schedule.iter().filter(|k| **k == 0).count(), 3);
        let (k, path, _) = p.pick(p.schedule.iter().position(|k| *k == 1).unwrap() as u64);
        assert_eq!((k, path.as_str()), (1, "/b?x=1"));
    }

    #[test]
    fn fresh_and_fault_urls_are_unique() {
        let host: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let p = Plan::new(
            Some(host),
            vec![("f", 1, vec![t("/x?avatar={fresh}", IMAGE)])],
        );
        let a = p.render("/x?avatar={fresh}", 0);
        let b = p.render("/x?avatar={fresh}", 0);
        assert_ne!(a, b);
        assert!(a.starts_with("/x?avatar=http://127.0.0.1:9/avatar/fresh/"));
        let f = p.render("/y?avatar={fault:drip}", 0);
        assert!(
            f.starts_with("/y?avatar=http://127.0.0.1:9/fault/drip/"),
            "{f}"
        );
    }

    #[test]
    fn run_against_the_loopback_host_is_bounded_and_counts() {
        let host = AvatarHost::start().unwrap();
        let plan = Plan::new(
            Some(host.addr),
            vec![
                ("png", 1, vec![t("/avatar/fresh/{n}.png", IMAGE)]),
                ("missing", 1, vec![t("/nope", IMAGE)]),
            ],
        );
        let o = run(
            host.addr,
            &plan,
            &RunLimits {
                connections: 2,
                duration: Duration::from_secs(5),
                max_requests: 40,
                timeout: Duration::from_secs(5),
            },
        );
        let total = o.total();
        assert_eq!(total.latencies_us.len(), 40);
        assert_eq!(o.classes[0].ok, 20);
        assert_eq!(o.classes[1].unexpected, 20);
        assert_eq!(o.classes[1].statuses.get(&404), Some(&20));
        assert_eq!(total.io_errors, 0);
    }
}
