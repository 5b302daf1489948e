//! `cargo xtask bench-compare BASE_REV`: the five scenarios of the sharp
//! comparison (`../shared/bench/sharp/run_compare.sh`) against two release
//! builds, BASE_REV and the work tree, and optionally the sharp peer,
//! alternating, with ratios. Never in CI (nothing timed runs there).
//!
//! BASE_REV is checked out in a git worktree under
//! `target/bench-compare/base` and built in a target directory of its own,
//! `target/bench-compare/target` (cargo fingerprints workspace crates by
//! their path inside the workspace and their files' times, so two trees
//! sharing one target directory can each take the other's stale build);
//! the first run builds every dependency there once. Both binaries are
//! copied to `target/bench-compare/` so no later build can replace them
//! mid-run.
//! A loopback host serves the two shared bench avatars
//! (`../shared/bench/avatars`). Every round runs each scenario on each
//! server with `wrk -t2 -c<conns> -d<duration>` (a wrk script randomises
//! the colour and the threshold per request, as the sharp comparison
//! does); the server order rotates from round to round. The servers run
//! with `--output-cache-mb 0`, so every request renders and encodes.
//! `--without-settings` adds the work tree's build run without its glibc
//! memory settings as a third server. Beside req/s, each run reads the
//! Menagerie server's CPU time and minor page faults per answer from
//! `/proc/<pid>/stat`, and the host's steal time from `/proc/stat`.
//! Named with `--scenarios`, the template scenarios (`circle512`, the
//! overlays, petpet, amongus, welcome and rank cards on the 512 px avatar)
//! run on Menagerie alone, and each is also given as a ratio of
//! `circle512`'s throughput in the same run (issues' cost bounds).

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

use crate::target_dir;
use crate::{cargo, repo_root, run_cmd};

/// Arguments of `cargo xtask bench-compare`.
#[derive(Debug, clap::Args)]
pub struct BenchCompareArgs {
    /// The revision to compare the work tree with (a commit, branch or tag).
    pub base_rev: String,
    /// Rounds; each runs every scenario on every server, in rotating order.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Seconds of each wrk run.
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// wrk connections.
    #[arg(long, default_value_t = 32)]
    pub connections: usize,
    /// Scenarios to run (default: all five): mix512, grey512, blur512,
    /// circle1024, color1024; or the template scenarios, each by name or
    /// all as `templates`: circle512, comrade512, gay512, glass512,
    /// jail512, passed512, wasted512, triggered512, petpet512, amongus512,
    /// welcome512 (templates 1-7), rank512 (templates 1-9, one colour set),
    /// rankcolours512 (random colours), horny512, namecard512, sage,
    /// post512 (the misc cards), wanted512, rip512, trash512, delete512,
    /// beautiful512, stonks512 (the one-avatar memes), pairs512 (the six
    /// still two-avatar memes), locket512 (the animated one), message512
    /// (the chat message card, a bot tag and markup), captions512
    /// (the four captions); every effect at its defaults as
    /// `effect-<name>`, all as `effects512`; with circle512 among them,
    /// each one's throughput is also given as a ratio of circle512's. The
    /// sharp peer's effects at equal size and frames: spin256, shake256,
    /// zoom256, all as `effects` (with `--sharp-gif-effort`).
    #[arg(long, value_delimiter = ',')]
    pub scenarios: Vec<String>,
    /// Environment for the base server, `NAME=VALUE` (repeatable): with
    /// `HEAD` as BASE_REV, say, `MENAGERIE_BUFFER_KEEP_MB=0` compares the
    /// work tree with itself without its buffer store.
    #[arg(long = "base-env", value_name = "NAME=VALUE")]
    pub base_env: Vec<String>,
    /// Also run the work tree's build without its glibc memory settings,
    /// as a third server, `bare`: `MALLOC_ARENA_MAX` set to glibc's own
    /// default (8 per CPU) so it does not run itself again with them, and
    /// glibc's dynamic mmap threshold. Gives head/bare ratios in the same
    /// run as head/base and head/sharp.
    #[arg(long)]
    pub without_settings: bool,
    /// Also run the sharp peer: a directory holding `sharp_server.js` with
    /// sharp installed (`npm install` there); default
    /// `../shared/bench/sharp` when it has `node_modules/sharp`.
    #[arg(long)]
    pub sharp: Option<PathBuf>,
    /// Do not run the sharp peer even when it is installed.
    #[arg(long, conflicts_with = "sharp")]
    pub no_sharp: bool,
    /// The sharp peer's GIF effort, 1 (fastest) to 10 (its default 7), for
    /// the effect scenarios (`spin256`, `shake256`, `zoom256`).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub sharp_gif_effort: Option<u8>,
    /// Do not build: use the binaries left in `target/bench-compare/`.
    #[arg(long)]
    pub no_build: bool,
    /// Write the work tree's and sharp's medians of the five scenarios into
    /// the book's figures (`docs/bench/figures.json`, comparison
    /// `still-vs-sharp`) and redraw the benchmark charts (needs sharp).
    #[arg(long, conflicts_with = "no_sharp")]
    pub record: bool,
}

/// One scenario: the paths asked of Menagerie and of the sharp peer, with
/// `{C}` a random colour and `{T}` a random threshold per request.
struct Scenario {
    name: &'static str,
    menagerie: &'static [&'static str],
    sharp: &'static [&'static str],
}

const SCENARIOS: [Scenario; 5] = [
    Scenario {
        name: "mix512",
        menagerie: &[
            "/canvas/filter/color?avatar={A5}&color={C}",
            "/canvas/filter/threshold?avatar={A5}&threshold={T}",
        ],
        sharp: &[
            "/filter/color?avatar={A5}&c={C}",
            "/filter/threshold?avatar={A5}&t={T}",
        ],
    },
    Scenario {
        name: "grey512",
        menagerie: &["/canvas/filter/greyscale?avatar={A5}"],
        sharp: &["/filter/greyscale?avatar={A5}"],
    },
    Scenario {
        name: "blur512",
        menagerie: &["/canvas/filter/blur?avatar={A5}"],
        sharp: &["/filter/blur?avatar={A5}"],
    },
    Scenario {
        name: "circle1024",
        menagerie: &["/canvas/misc/circle?avatar={A10}"],
        sharp: &["/filter/circle?avatar={A10}"],
    },
    Scenario {
        name: "color1024",
        menagerie: &["/canvas/filter/color?avatar={A10}&color={C}"],
        sharp: &["/filter/color?avatar={A10}&c={C}"],
    },
];
/// The template scenarios (issues 27 and 28: cost as a ratio of `circle`'s
/// throughput on the same 512 px avatar), run only when named with
/// `--scenarios` (`templates` names them all); the sharp peer has no
/// counterpart, so it sits them out.
const TEMPLATE_SCENARIOS: [Scenario; 26] = [
    template("circle512", &["/canvas/misc/circle?avatar={A5}"]),
    template("comrade512", &["/canvas/overlay/comrade?avatar={A5}"]),
    template("gay512", &["/canvas/overlay/gay?avatar={A5}"]),
    template("glass512", &["/canvas/overlay/glass?avatar={A5}"]),
    template("jail512", &["/canvas/overlay/jail?avatar={A5}"]),
    template("passed512", &["/canvas/overlay/passed?avatar={A5}"]),
    template("wasted512", &["/canvas/overlay/wasted?avatar={A5}"]),
    template("triggered512", &["/canvas/overlay/triggered?avatar={A5}"]),
    template("petpet512", &["/premium/petpet?avatar={A5}"]),
    template(
        "amongus512",
        &["/premium/amongus?avatar={A5}&username=Ferris&impostor=true"],
    ),
    template(
        "welcome512",
        &[
            "/welcome/img/1/stars?avatar={A5}&username=Ferris&guildName=Rustaceans&memberCount=1234",
            "/welcome/img/2/sunset?avatar={A5}&username=Ferris&guildName=Rustaceans&memberCount=1234",
            "/welcome/img/3/night?avatar={A5}&username=Ferris&guildName=Rustaceans&memberCount=1234",
            "/welcome/img/4/gaming1?avatar={A5}&username=Ferris&guildName=Rustaceans&memberCount=1234",
            "/welcome/img/5/rainbow?avatar={A5}&username=Ferris&guildName=Rustaceans&memberCount=1234",
            "/welcome/img/6/space?avatar={A5}&username=Ferris&guildName=Rustaceans&memberCount=1234",
            "/welcome/img/7/blobday?avatar={A5}&username=Ferris&guildName=Rustaceans&memberCount=1234",
        ],
    ),
    template(
        "rank512",
        &[
            "/premium/rankcard/1?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/2?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/3?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/4?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/5?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/6?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/7?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/8?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
            "/premium/rankcard/9?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ctext=ffffff&cbar=5865f2",
        ],
    ),
    template("horny512", &["/canvas/misc/horny?avatar={A5}"]),
    template(
        "namecard512",
        &[
            "/canvas/misc/namecard?avatar={A5}&username=Ferris&birthday=March%203&description=Rustacean%20and%20crab",
        ],
    ),
    template(
        "sage",
        &["/canvas/misc/sage?quote=Slow%20and%20steady%20wins%20the%20race."],
    ),
    template(
        "post512",
        &[
            "/canvas/misc/post?avatar={A5}&username=ferris&displayname=Ferris&comment=Fearless%20concurrency%20is%20not%20a%20slogan%2C%20it%20is%20a%20type%20system.&theme=dim",
        ],
    ),
    template(
        "rankcolours512",
        &[
            "/premium/rankcard/1?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&cbar={C}",
            "/premium/rankcard/5?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&cbg={C}",
            "/premium/rankcard/9?avatar={A5}&username=Ferris&level=12&cxp=340&nxp=1000&ccxp={C}",
        ],
    ),
    template(
        "wanted512",
        &["/canvas/meme/wanted?avatar={A5}&name=Ferris&reward=1500000"],
    ),
    template(
        "rip512",
        &[
            "/canvas/meme/rip?avatar={A5}&text=Here%20lies%20my%20sleep%20schedule&years=1999%20-%202024",
        ],
    ),
    template("trash512", &["/canvas/meme/trash?avatar={A5}"]),
    template(
        "delete512",
        &["/canvas/meme/delete?avatar={A5}&filename=homework.png"],
    ),
    template(
        "beautiful512",
        &["/canvas/meme/beautiful?avatar={A5}&title=Ferris"],
    ),
    template("stonks512", &["/canvas/meme/stonks?avatar={A5}"]),
    template(
        "pairs512",
        &[
            "/canvas/meme/ship?avatar={A5}&avatar2={A5}",
            "/canvas/meme/kiss?avatar={A5}&avatar2={A5}",
            "/canvas/meme/slap?avatar={A5}&avatar2={A5}",
            "/canvas/meme/hug?avatar={A5}&avatar2={A5}",
            "/canvas/meme/fuse?avatar={A5}&avatar2={A5}",
            "/canvas/meme/vs?avatar={A5}&avatar2={A5}",
        ],
    ),
    template(
        "locket512",
        &["/canvas/meme/heart-locket?avatar={A5}&avatar2={A5}"],
    ),
    template(
        "message512",
        &[
            "/canvas/message?avatar={A5}&username=Ferris&color=e67e22&bot=true&timestamp=2026-11-29T08:15:00Z&text=Fearless%20**concurrency**%20is%20not%20a%20%60slogan%60%2C%20%40ferris%20%F0%9F%A6%80",
        ],
    ),
];

/// The animated effects the sharp peer also serves (`/effect/<name>`: each
/// frame a sharp pipeline, joined by its GIF writer), at equal size (256)
/// and frame count (16); `effects` names them all.
const EFFECT_SCENARIOS: [Scenario; 3] = [
    Scenario {
        name: "spin256",
        menagerie: &["/canvas/effect/spin?avatar={A5}&size=256"],
        sharp: &["/effect/spin?avatar={A5}&size=256&frames=16"],
    },
    Scenario {
        name: "shake256",
        menagerie: &["/canvas/effect/shake?avatar={A5}&size=256"],
        sharp: &["/effect/shake?avatar={A5}&size=256&frames=16"],
    },
    Scenario {
        name: "zoom256",
        menagerie: &["/canvas/effect/zoom?avatar={A5}&size=256"],
        sharp: &["/effect/zoom?avatar={A5}&size=256&frames=16"],
    },
];

/// Every effect at its defaults (256 px, 16 frames; `deepfry` a still) on
/// the 512 px avatar, each a scenario (`effect-<name>`; `effects512`
/// names them all), to be run beside circle512 for the ratio.
const EFFECT_CIRCLE_SCENARIOS: [Scenario; 17] = [
    template("effect-spin", &["/canvas/effect/spin?avatar={A5}"]),
    template("effect-shake", &["/canvas/effect/shake?avatar={A5}"]),
    template("effect-bounce", &["/canvas/effect/bounce?avatar={A5}"]),
    template("effect-zoom", &["/canvas/effect/zoom?avatar={A5}"]),
    template("effect-wave", &["/canvas/effect/wave?avatar={A5}"]),
    template("effect-ripple", &["/canvas/effect/ripple?avatar={A5}"]),
    template("effect-wiggle", &["/canvas/effect/wiggle?avatar={A5}"]),
    template("effect-swirl", &["/canvas/effect/swirl?avatar={A5}"]),
    template("effect-melt", &["/canvas/effect/melt?avatar={A5}"]),
    template("effect-globe", &["/canvas/effect/globe?avatar={A5}"]),
    template("effect-magik", &["/canvas/effect/magik?avatar={A5}"]),
    template("effect-boil", &["/canvas/effect/boil?avatar={A5}"]),
    template("effect-shear", &["/canvas/effect/shear?avatar={A5}"]),
    template("effect-roll", &["/canvas/effect/roll?avatar={A5}"]),
    template("effect-glitch", &["/canvas/effect/glitch?avatar={A5}"]),
    template("effect-rainbow", &["/canvas/effect/rainbow?avatar={A5}"]),
    template("effect-deepfry", &["/canvas/effect/deepfry?avatar={A5}"]),
];

/// The captions over the 512 px avatar as `image` (`captions512`).
const CAPTION_SCENARIOS: [Scenario; 1] = [template(
    "captions512",
    &[
        "/canvas/caption/caption?image={A5}&text=When%20the%20build%20is%20green%20on%20the%20first%20try",
        "/canvas/caption/impact?image={A5}&top=one%20does%20not%20simply&bottom=ship%20on%20friday",
        "/canvas/caption/motivate?image={A5}&title=Patience&text=the%20build%20will%20finish%20eventually",
        "/canvas/caption/speechbubble?image={A5}",
    ],
)];

/// A scenario Menagerie alone serves.
const fn template(name: &'static str, menagerie: &'static [&'static str]) -> Scenario {
    Scenario {
        name,
        menagerie,
        sharp: &[],
    }
}

/// The scenario `name`: one of the five, a template scenario, or an error.
fn scenario(name: &str) -> Result<&'static Scenario> {
    SCENARIOS
        .iter()
        .chain(&TEMPLATE_SCENARIOS)
        .chain(&EFFECT_SCENARIOS)
        .chain(&EFFECT_CIRCLE_SCENARIOS)
        .chain(&CAPTION_SCENARIOS)
        .find(|s| s.name == name)
        .with_context(|| format!("unknown scenario {name}"))
}

/// wrk script: one of the scenario's paths at random per request, with a
/// random colour and threshold.
const WRK_SCRIPT: &str = r#"
local paths = {}
for p in string.gmatch(os.getenv("BENCH_PATHS") or "", "[^ ]+") do paths[#paths + 1] = p end
local n = 0
function setup(thread) n = n + 1; thread:set("tid", n) end
function init(args) math.randomseed(os.time() * 1000 + (tid or 0) * 7919); math.random() end
request = function()
  local p = paths[math.random(1, #paths)]
  p = p:gsub("{C}", string.format("%06X", math.random(0, 0xFFFFFF)))
  p = p:gsub("{T}", tostring(math.random(0, 255)))
  return wrk.format("GET", p)
end
"#;

/// A server under test.
struct Server {
    name: String,
    addr: SocketAddr,
    sharp: bool,
    child: Child,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn run(args: &BenchCompareArgs) -> Result<()> {
    if args.rounds == 0 || args.seconds == 0 || args.connections == 0 {
        bail!("--rounds, --seconds and --connections must be positive");
    }
    let scenarios: Vec<&Scenario> = if args.scenarios.is_empty() {
        SCENARIOS.iter().collect()
    } else {
        let mut list = Vec::new();
        for n in &args.scenarios {
            if n == "templates" {
                list.extend(TEMPLATE_SCENARIOS.iter());
            } else if n == "effects" {
                list.extend(EFFECT_SCENARIOS.iter());
            } else if n == "effects512" {
                list.extend(EFFECT_CIRCLE_SCENARIOS.iter());
            } else {
                list.push(scenario(n)?);
            }
        }
        list
    };
    let base_env = args
        .base_env
        .iter()
        .map(|kv| {
            kv.split_once('=')
                .map(|(k, v)| (k.to_owned(), v.to_owned()))
                .with_context(|| format!("--base-env {kv}: expected NAME=VALUE"))
        })
        .collect::<Result<Vec<_>>>()?;
    if Command::new("wrk").arg("--version").output().is_err() {
        bail!("bench-compare needs wrk on the PATH (Debian: apt-get install wrk)");
    }
    let avatars = repo_root().join("../shared/bench/avatars");
    let a512 = std::fs::read(avatars.join("avatar_512.png"))
        .with_context(|| format!("reading the bench avatars in {}", avatars.display()))?;
    let a1024 = std::fs::read(avatars.join("avatar_1024.png"))?;
    let sharp_dir = if args.no_sharp {
        None
    } else {
        let dir = args
            .sharp
            .clone()
            .unwrap_or_else(|| repo_root().join("../shared/bench/sharp"));
        let installed = dir.join("node_modules/sharp").is_dir();
        match (installed, args.sharp.is_some()) {
            (true, _) => Some(dir),
            (false, true) => bail!(
                "no sharp in {}: run `npm install` there (needs Node.js)",
                dir.display()
            ),
            (false, false) => {
                eprintln!(
                    "bench-compare: sharp not installed in {} (npm install there, or --sharp DIR): without it",
                    dir.display()
                );
                None
            }
        }
    };

    let out = target_dir().join("bench-compare");
    std::fs::create_dir_all(&out)?;
    let (base_bin, head_bin) = (out.join("menagerie-base"), out.join("menagerie-head"));
    if !args.no_build {
        build(&args.base_rev, &out, &base_bin, &head_bin)?;
    }
    for bin in [&base_bin, &head_bin] {
        if !bin.is_file() {
            bail!("{} missing (drop --no-build)", bin.display());
        }
    }
    if args.record && sharp_dir.is_none() {
        bail!("--record needs the sharp peer (--sharp DIR)");
    }
    let started = utc_now();
    let script = out.join("bench.lua");
    std::fs::write(&script, WRK_SCRIPT)?;

    let origin = Origin::start(a512, a1024)?;
    let a5 = format!("http://{}/avatar_512.png", origin.addr);
    let a10 = format!("http://{}/avatar_1024.png", origin.addr);
    let mut servers = vec![
        start_menagerie("base", &base_bin, &base_env)?,
        start_menagerie("head", &head_bin, &[])?,
    ];
    let cpus = std::thread::available_parallelism().map_or(1, usize::from);
    if args.without_settings {
        let glibc_default = [("MALLOC_ARENA_MAX".to_owned(), (8 * cpus).to_string())];
        servers.push(start_menagerie("bare", &head_bin, &glibc_default)?);
    }
    if let Some(dir) = &sharp_dir {
        servers.push(start_sharp(dir, args.sharp_gif_effort)?);
    }
    let names: Vec<String> = servers
        .iter()
        .filter(|s| !s.sharp)
        .map(|s| s.name.clone())
        .collect();
    let paths = |s: &Server, sc: &Scenario| -> Vec<String> {
        let list = if s.sharp { sc.sharp } else { sc.menagerie };
        list.iter()
            .map(|p| p.replace("{A5}", &a5).replace("{A10}", &a10))
            .collect()
    };

    println!(
        "# bench-compare: base {} ({}) vs head ({}){}{}; wrk -t2 -c{} -d{}s, {} rounds; {} CPUs",
        args.base_rev,
        git_short(&args.base_rev).unwrap_or_default(),
        head_description(),
        if base_env.is_empty() {
            String::new()
        } else {
            format!("; base env {}", args.base_env.join(" "))
        },
        if args.without_settings {
            format!(
                "; bare = head with MALLOC_ARENA_MAX={} (no glibc settings)",
                8 * cpus
            )
        } else {
            String::new()
        },
        args.connections,
        args.seconds,
        args.rounds,
        cpus,
    );
    println!("# start: {}", uptime());
    // Output bytes of one request each (colour 5865F2, threshold 128); also
    // warms every server's avatar cache.
    let mut bytes: BTreeMap<(String, &str), Vec<usize>> = BTreeMap::new();
    for sc in &scenarios {
        for s in &servers {
            for p in paths(s, sc) {
                let p = p.replace("{C}", "5865F2").replace("{T}", "128");
                let (status, body) = get(s.addr, &p)?;
                if status != 200 {
                    bail!("{} {p}: status {status}", s.name);
                }
                bytes
                    .entry((s.name.clone(), sc.name))
                    .or_default()
                    .push(body);
            }
        }
    }
    // Per server and scenario, one entry a round: req/s, and for
    // Menagerie its CPU time and minor page faults per answer.
    let mut rps: BTreeMap<(String, &str), Vec<f64>> = BTreeMap::new();
    let mut cost: BTreeMap<(String, &str), Vec<Cost>> = BTreeMap::new();
    for round in 0..args.rounds {
        println!("## round {}: {}", round + 1, uptime());
        for sc in &scenarios {
            for k in 0..servers.len() {
                let s = &servers[(k + round) % servers.len()];
                if s.sharp && sc.sharp.is_empty() {
                    continue;
                }
                let (proc0, host0) = (ProcStat::of(s.child.id()), HostCpu::now());
                let run = wrk(s.addr, &paths(s, sc), &script, args)?;
                let steal = HostCpu::now().steal_since(host0);
                settle(s);
                let spent = ProcStat::of(s.child.id())
                    .zip(proc0)
                    .map(|(after, before)| after.per_answer(&before, run.answered));
                print!(
                    "{:<11} {:<5} {:>8.1} req/s  p50 {:>7.1} ms  p99 {:>7.1} ms  errors {}  steal {:>4.1} %",
                    sc.name,
                    s.name,
                    run.rps,
                    run.p50_ms,
                    run.p99_ms,
                    run.errors,
                    steal * 100.0
                );
                match (s.sharp, spent) {
                    (false, Some(c)) => {
                        println!("  cpu {:.3} ms  faults {:.1} /answer", c.cpu_ms, c.faults);
                        cost.entry((s.name.clone(), sc.name)).or_default().push(c);
                    }
                    _ => println!(),
                }
                rps.entry((s.name.clone(), sc.name))
                    .or_default()
                    .push(run.rps);
            }
        }
    }
    println!("# end: {}", uptime());
    let median = |name: &str, sc: &str| {
        median_of(rps.get(&(name.to_owned(), sc)).cloned().unwrap_or_default())
    };
    let sharp = sharp_dir.is_some();
    let bare = args.without_settings;
    print!("\n| scenario | base req/s | head req/s | head/base |");
    if bare {
        print!(" bare req/s | head/bare |");
    }
    if sharp {
        print!(" sharp req/s | base/sharp | head/sharp |");
    }
    println!(
        " bytes base / head{} |",
        if sharp { " / sharp" } else { "" }
    );
    println!(
        "|---|---:|---:|---:|{}{}---:|",
        if bare { "---:|---:|" } else { "" },
        if sharp { "---:|---:|---:|" } else { "" }
    );
    for sc in &scenarios {
        let (b, h) = (median("base", sc.name), median("head", sc.name));
        print!("| {} | {b:.1} | {h:.1} | {:.2}× |", sc.name, h / b);
        if bare {
            let w = median("bare", sc.name);
            print!(" {w:.1} | {:.2}× |", h / w);
        }
        if sharp && sc.sharp.is_empty() {
            print!(" – | – | – |");
        } else if sharp {
            let s = median("sharp", sc.name);
            print!(" {s:.1} | {:.1}× | {:.1}× |", b / s, h / s);
        }
        let size = |name: &str| {
            bytes
                .get(&(name.to_owned(), sc.name))
                .map_or(String::new(), |v| {
                    v.iter().map(usize::to_string).collect::<Vec<_>>().join("+")
                })
        };
        let mut sizes = vec![size("base"), size("head")];
        if sharp {
            sizes.push(size("sharp"));
        }
        println!(" {} |", sizes.join(" / "));
    }
    println!("\nMedians of {} rounds.", args.rounds);
    // Each round's ratio of two servers run back to back: the machine's
    // drift between rounds cancels out of these.
    let mut pairs = vec![("head", "base")];
    if bare {
        pairs.push(("head", "bare"));
    }
    for (num, den) in &pairs {
        println!("\n| scenario | {num}/{den} each round | median |\n|---|---|---:|");
        for sc in &scenarios {
            let (n, d) = (
                &rps[&((*num).to_owned(), sc.name)],
                &rps[&((*den).to_owned(), sc.name)],
            );
            let ratios: Vec<f64> = n.iter().zip(d).map(|(n, d)| n / d).collect();
            let shown: Vec<String> = ratios.iter().map(|r| format!("{r:.2}")).collect();
            println!(
                "| {} | {} | {:.2}× |",
                sc.name,
                shown.join(" "),
                median_of(ratios)
            );
        }
    }
    // CPU time per answer does not count time the host took the CPU away
    // (steal) or time the server waited for one: a second view of the same
    // cost, less swayed by the machine's other tenants.
    let cost_median = |name: &str, sc: &str, f: fn(&Cost) -> f64| {
        let v = cost
            .get(&(name.to_owned(), sc))
            .map_or(Vec::new(), |v| v.iter().map(f).collect());
        median_of(v)
    };
    println!(
        "\n| scenario | CPU ms/answer {} | {} | faults/answer {} |\n|---|---:|{}---:|",
        names.join(" / "),
        pairs
            .iter()
            .map(|(n, d)| format!("{d}/{n} CPU"))
            .collect::<Vec<_>>()
            .join(" | "),
        names.join(" / "),
        "---:|".repeat(pairs.len()),
    );
    for sc in &scenarios {
        let ms: Vec<String> = names
            .iter()
            .map(|n| format!("{:.3}", cost_median(n, sc.name, |c| c.cpu_ms)))
            .collect();
        let faults: Vec<String> = names
            .iter()
            .map(|n| format!("{:.1}", cost_median(n, sc.name, |c| c.faults)))
            .collect();
        let ratios: Vec<String> = pairs
            .iter()
            .map(|(n, d)| {
                let (n, d) = (
                    cost_median(n, sc.name, |c| c.cpu_ms),
                    cost_median(d, sc.name, |c| c.cpu_ms),
                );
                format!("{:.2}×", d / n)
            })
            .collect();
        println!(
            "| {} | {} | {} | {} |",
            sc.name,
            ms.join(" / "),
            ratios.join(" | "),
            faults.join(" / ")
        );
    }
    if scenarios.iter().any(|sc| sc.name == "circle512") {
        println!("\n| scenario | base / circle512 | head / circle512 |\n|---|---:|---:|");
        let (cb, ch) = (median("base", "circle512"), median("head", "circle512"));
        for sc in scenarios.iter().filter(|sc| sc.name != "circle512") {
            let (b, h) = (median("base", sc.name), median("head", sc.name));
            println!("| {} | {:.3}× | {:.3}× |", sc.name, b / cb, h / ch);
        }
    }
    if args.record {
        let rows: Vec<Recorded> = scenarios
            .iter()
            .filter(|sc| !sc.sharp.is_empty())
            .map(|sc| {
                let sizes = |name: &str| {
                    bytes
                        .get(&(name.to_owned(), sc.name))
                        .map_or(String::new(), |v| {
                            v.iter()
                                .map(|b| thousands(*b))
                                .collect::<Vec<_>>()
                                .join("+")
                        })
                };
                Recorded {
                    name: sc.name,
                    head: median("head", sc.name),
                    sharp: median("sharp", sc.name),
                    head_bytes: sizes("head"),
                    sharp_bytes: sizes("sharp"),
                }
            })
            .collect();
        let measured = format!("{started}–{} UTC", utc_now());
        let command = format!(
            "cargo xtask bench-compare {} --sharp <sharp dir> --rounds {} --seconds {} --connections {}",
            args.base_rev, args.rounds, args.seconds, args.connections
        );
        let root = repo_root();
        let mut figures = crate::book::charts::read_figures(&root)?;
        record(
            &mut figures,
            &rows,
            &measured,
            &head_description(),
            &command,
        )?;
        let path = root.join(crate::book::charts::FIGURES);
        std::fs::write(&path, serde_json::to_string_pretty(&figures)? + "\n")?;
        crate::book::charts::write(&root)?;
        println!("\nRecorded in {} and the charts redrawn.", path.display());
    }
    Ok(())
}

/// One scenario's medians, for the book's figures.
#[derive(Debug)]
struct Recorded {
    name: &'static str,
    head: f64,
    sharp: f64,
    head_bytes: String,
    sharp_bytes: String,
}

/// Writes a run into the figures' `still-vs-sharp` comparison: its rows
/// (a scenario keeps its label, a new one is labelled by its name), when,
/// on what and how it was measured.
fn record(
    figures: &mut serde_json::Value,
    rows: &[Recorded],
    measured: &str,
    commit: &str,
    command: &str,
) -> Result<()> {
    let comparison = figures["comparisons"]
        .as_array_mut()
        .and_then(|l| l.iter_mut().find(|c| c["id"] == "still-vs-sharp"))
        .context("the figures have no `still-vs-sharp` comparison")?;
    let old = comparison["rows"].as_array().cloned().unwrap_or_default();
    let label = |name: &str| {
        old.iter()
            .find(|r| r["name"] == name)
            .and_then(|r| r["label"].as_str())
            .unwrap_or(name)
            .to_owned()
    };
    comparison["rows"] = rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "name": r.name,
                "label": label(r.name),
                "menagerie": (r.head * 10.0).round() / 10.0,
                "peer": (r.sharp * 10.0).round() / 10.0,
                "menagerie_bytes": r.head_bytes,
                "peer_bytes": r.sharp_bytes,
            })
        })
        .collect();
    comparison["measured"] = measured.into();
    comparison["commit"] = commit.into();
    comparison["command"] = command.into();
    Ok(())
}

/// `1866213` → `1,866,213`.
fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The time now, `YYYY-MM-DD HH:MM` in UTC (from `date`, which every
/// machine that runs the benchmark has).
fn utc_now() -> String {
    Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// Builds BASE_REV (in a git worktree) and the work tree in release, and
/// copies the two binaries aside.
fn build(base_rev: &str, out: &Path, base_bin: &Path, head_bin: &Path) -> Result<()> {
    let root = repo_root();
    let worktree = out.join("base");
    let commit = git_output(
        &root,
        &["rev-parse", "--verify", &format!("{base_rev}^{{commit}}")],
    )
    .with_context(|| format!("unknown revision {base_rev}"))?;
    let build_in = |dir: &Path, target: &Path| -> Result<PathBuf> {
        let mut c = cargo();
        c.current_dir(dir).env("CARGO_TARGET_DIR", target).args([
            "build",
            "--release",
            "--package",
            "server",
            "--bin",
            "menagerie",
        ]);
        run_cmd(&mut c)?;
        Ok(target.join("release/menagerie"))
    };
    // The work tree itself is BASE_REV: one build serves both.
    let head = git_output(&root, &["rev-parse", "HEAD"])?;
    if commit == head && !head_description().ends_with("changes") {
        let bin = build_in(&root, &target_dir())?;
        std::fs::copy(&bin, base_bin).context("copying the base binary")?;
        std::fs::copy(&bin, head_bin).context("copying the head binary")?;
        return Ok(());
    }
    if worktree.join(".git").exists() {
        run_cmd(
            Command::new("git")
                .current_dir(&worktree)
                .args(["checkout", "--quiet", "--detach", &commit]),
        )?;
    } else {
        let _ = Command::new("git")
            .current_dir(&root)
            .args(["worktree", "prune"])
            .status();
        run_cmd(Command::new("git").current_dir(&root).args([
            "worktree",
            "add",
            "--detach",
            &worktree.to_string_lossy(),
            &commit,
        ]))?;
    }
    let bin = build_in(&worktree, &out.join("target"))?;
    std::fs::copy(&bin, base_bin).context("copying the base binary")?;
    let bin = build_in(&root, &target_dir())?;
    std::fs::copy(&bin, head_bin).context("copying the head binary")?;
    Ok(())
}

fn git_output(dir: &Path, args: &[&str]) -> Result<String> {
    let o = Command::new("git").current_dir(dir).args(args).output()?;
    if !o.status.success() {
        bail!(
            "git {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&o.stdout).trim().to_owned())
}

fn git_short(rev: &str) -> Option<String> {
    git_output(&repo_root(), &["rev-parse", "--short", rev]).ok()
}

/// HEAD's short hash, and whether the tree has uncommitted changes.
fn head_description() -> String {
    let head = git_short("HEAD").unwrap_or_default();
    let dirty = git_output(
        &repo_root(),
        &["status", "--porcelain", "--untracked-files=no"],
    )
    .is_ok_and(|s| !s.is_empty());
    if dirty {
        format!("{head} + changes")
    } else {
        head
    }
}

fn uptime() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| {
            format!(
                "load {}",
                l.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
            )
        })
        .unwrap_or_default()
}

fn free_addr() -> Result<SocketAddr> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?)
}

fn start_menagerie(name: &str, bin: &Path, env: &[(String, String)]) -> Result<Server> {
    let addr = free_addr()?;
    let data = target_dir().join("bench-compare/no-data");
    let mut cmd = Command::new(bin);
    cmd.args(["--bind", &addr.to_string(), "--allow-private-avatars"])
        .args(["--output-cache-mb", "0", "--log-level", "warn"])
        .arg("--data-dir")
        .arg(&data)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let child = cmd
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let server = Server {
        name: name.to_owned(),
        addr,
        sharp: false,
        child,
    };
    wait_up(&server, "/health")?;
    Ok(server)
}

fn start_sharp(dir: &Path, gif_effort: Option<u8>) -> Result<Server> {
    let addr = free_addr()?;
    let mut cmd = Command::new("node");
    cmd.current_dir(dir)
        .args(["sharp_server.js", "--port", &addr.port().to_string()])
        .args(["--workers", "2", "--concurrency", "1", "--level", "6"]);
    if let Some(e) = gif_effort {
        cmd.args(["--gif-effort", &e.to_string()]);
    }
    let child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .context("starting node sharp_server.js")?;
    let server = Server {
        name: "sharp".to_owned(),
        addr,
        sharp: true,
        child,
    };
    wait_up(&server, "/")?;
    Ok(server)
}

fn wait_up(server: &Server, path: &str) -> Result<()> {
    let until = Instant::now() + Duration::from_secs(20);
    while Instant::now() < until {
        if get(server.addr, path).is_ok() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    bail!("{} did not answer on {}", server.name, server.addr)
}

/// One GET on a fresh connection: the status and the body's length.
fn get(addr: SocketAddr, path: &str) -> Result<(u16, usize)> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(30)))?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )?;
    let mut r = BufReader::new(s);
    let mut line = String::new();
    r.read_line(&mut line)?;
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .context("no status line")?;
    let mut length = None;
    loop {
        line.clear();
        if r.read_line(&mut line)? == 0 || line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().ok();
        }
    }
    let mut body = Vec::new();
    r.read_to_end(&mut body)?;
    Ok((status, length.unwrap_or(body.len())))
}

/// One wrk run: `rps` counts successful answers only (errors are shown
/// apart).
struct WrkRun {
    rps: f64,
    /// Successful answers in the run.
    answered: u64,
    p50_ms: f64,
    p99_ms: f64,
    errors: u64,
}

fn wrk(
    addr: SocketAddr,
    paths: &[String],
    script: &Path,
    args: &BenchCompareArgs,
) -> Result<WrkRun> {
    let o = Command::new("wrk")
        .args(["-t2", &format!("-c{}", args.connections)])
        .arg(format!("-d{}s", args.seconds))
        .args(["--timeout", "10s", "--latency", "-s"])
        .arg(script)
        .arg(format!("http://{addr}"))
        .env("BENCH_PATHS", paths.join(" "))
        .output()
        .context("running wrk")?;
    let text = String::from_utf8_lossy(&o.stdout);
    parse_wrk(&text).with_context(|| format!("unexpected wrk output:\n{text}"))
}

fn parse_wrk(text: &str) -> Option<WrkRun> {
    let field = |prefix: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(prefix).map(str::trim))
    };
    let ms = |v: &str| -> Option<f64> {
        let split = v.find(|c: char| c.is_ascii_alphabetic())?;
        let (n, unit) = v.split_at(split);
        let n: f64 = n.parse().ok()?;
        Some(match unit {
            "us" => n / 1000.0,
            "ms" => n,
            "s" => n * 1000.0,
            "m" => n * 60_000.0,
            _ => return None,
        })
    };
    let rps = field("Requests/sec:")?.parse().ok()?;
    let p50_ms = field("50%").and_then(ms).unwrap_or(f64::NAN);
    let p99_ms = field("99%").and_then(ms).unwrap_or(f64::NAN);
    let non2xx = field("Non-2xx or 3xx responses:").and_then(|v| v.parse::<u64>().ok());
    let socket = field("Socket errors:").map(|v| {
        v.split(',')
            .filter_map(|part| part.split_whitespace().last()?.parse::<u64>().ok())
            .sum::<u64>()
    });
    // Answers other than 2xx/3xx (a shed 503, say) are not throughput.
    let requests = text.lines().find_map(|l| {
        let (n, _) = l.trim().split_once(" requests in ")?;
        n.parse::<u64>().ok()
    });
    let rps = match (requests, non2xx) {
        (Some(all), Some(bad)) if all > 0 => rps * all.saturating_sub(bad) as f64 / all as f64,
        _ => rps,
    };
    let answered = requests.unwrap_or(0).saturating_sub(non2xx.unwrap_or(0));
    Some(WrkRun {
        rps,
        answered,
        p50_ms,
        p99_ms,
        errors: non2xx.unwrap_or(0) + socket.unwrap_or(0),
    })
}

/// The median of `v` (the upper one of an even count); NaN when empty.
fn median_of(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

/// Linux counts process CPU time in ticks of 1/100 s (`USER_HZ`, fixed
/// by the kernel's ABI on the architectures we run on).
const TICKS_PER_SEC: f64 = 100.0;

/// A process's CPU time (user and system, all threads) and minor page
/// faults so far, from `/proc/<pid>/stat`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct ProcStat {
    ppid: u32,
    cpu_ticks: u64,
    minor_faults: u64,
}

/// What one answer cost a server, on average over a wrk run.
#[derive(Clone, Copy, Debug)]
struct Cost {
    cpu_ms: f64,
    faults: f64,
}

impl ProcStat {
    fn of(pid: u32) -> Option<Self> {
        Self::parse(&std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?)
    }

    fn parse(stat: &str) -> Option<Self> {
        // The command name may hold spaces: fields are counted after it.
        let f: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
        let n = |i: usize| f.get(i)?.parse::<u64>().ok();
        Some(Self {
            ppid: f.get(1)?.parse().ok()?,
            minor_faults: n(7)?,
            cpu_ticks: n(11)? + n(12)?,
        })
    }

    fn per_answer(&self, before: &Self, answers: u64) -> Cost {
        let n = answers.max(1) as f64;
        Cost {
            cpu_ms: self.cpu_ticks.saturating_sub(before.cpu_ticks) as f64 * 1000.0
                / TICKS_PER_SEC
                / n,
            faults: self.minor_faults.saturating_sub(before.minor_faults) as f64 / n,
        }
    }
}

/// The host's CPU time so far, all CPUs, and the part of it the
/// hypervisor gave to other guests (steal), from `/proc/stat`.
#[derive(Clone, Copy, Debug, Default)]
struct HostCpu {
    total: u64,
    steal: u64,
}

impl HostCpu {
    fn now() -> Self {
        std::fs::read_to_string("/proc/stat")
            .ok()
            .and_then(|s| Self::parse(&s))
            .unwrap_or_default()
    }

    fn parse(stat: &str) -> Option<Self> {
        let line = stat.lines().find(|l| l.starts_with("cpu "))?;
        let v: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .filter_map(|x| x.parse().ok())
            .collect();
        // user nice system idle iowait irq softirq steal (guest time is
        // already in user).
        Some(Self {
            total: v.iter().take(8).sum(),
            steal: *v.get(7)?,
        })
    }

    /// The share of the host's CPU time since `before` that was stolen.
    fn steal_since(&self, before: Self) -> f64 {
        let total = self.total.saturating_sub(before.total);
        if total == 0 {
            return 0.0;
        }
        self.steal.saturating_sub(before.steal) as f64 / total as f64
    }
}

/// The CPU ticks of process `root` and all its descendants, from the
/// processes in `/proc` now; `None` once `root` is gone.
fn tree_cpu_ticks(root: u32) -> Option<u64> {
    let all = all_processes();
    all.iter().any(|(pid, _)| *pid == root).then(|| {
        let tree = descendants(root, &all);
        all.iter()
            .filter(|(pid, _)| tree.contains(pid))
            .map(|(_, p)| p.cpu_ticks)
            .sum()
    })
}

/// Every process in `/proc` now, with its stat.
fn all_processes() -> Vec<(u32, ProcStat)> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|e| {
            let pid = e.file_name().to_str()?.parse::<u32>().ok()?;
            Some((pid, ProcStat::of(pid)?))
        })
        .collect()
}

/// `root` and every process below it among `all` (pid, stat).
fn descendants(root: u32, all: &[(u32, ProcStat)]) -> Vec<u32> {
    let mut tree = vec![root];
    let mut next = 0;
    while let Some(&parent) = tree.get(next) {
        tree.extend(
            all.iter()
                .filter(|(_, p)| p.ppid == parent)
                .map(|(pid, _)| *pid),
        );
        next += 1;
    }
    tree
}

/// Waits (at most 30 s) until the server has finished the requests wrk
/// left behind: the CPU time of its process and its children (the sharp
/// peer's workers are processes of their own) stops growing. The next run
/// then has the machine to itself.
fn settle(server: &Server) {
    let cpu = || tree_cpu_ticks(server.child.id());
    let until = Instant::now() + Duration::from_secs(30);
    let mut last = cpu();
    while Instant::now() < until {
        std::thread::sleep(Duration::from_millis(250));
        let now = cpu();
        if now == last {
            return;
        }
        last = now;
    }
}

/// A loopback HTTP host for the two bench avatars, one thread per
/// connection; stops when dropped.
struct Origin {
    addr: SocketAddr,
    stop: Arc<AtomicBool>,
}

impl Origin {
    fn start(a512: Vec<u8>, a1024: Vec<u8>) -> Result<Self> {
        let listener = TcpListener::bind("127.0.0.1:0")?;
        let addr = listener.local_addr()?;
        let stop = Arc::new(AtomicBool::new(false));
        let files = Arc::new([("/avatar_512.png", a512), ("/avatar_1024.png", a1024)]);
        let stopped = Arc::clone(&stop);
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if stopped.load(Ordering::Relaxed) {
                    break;
                }
                let Ok(mut conn) = conn else { continue };
                let files = Arc::clone(&files);
                std::thread::spawn(move || {
                    let _ = conn.set_read_timeout(Some(Duration::from_secs(10)));
                    let mut head = Vec::new();
                    let mut buf = [0u8; 1024];
                    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 16 << 10 {
                        match conn.read(&mut buf) {
                            Ok(0) | Err(_) => return,
                            Ok(n) => head.extend_from_slice(&buf[..n]),
                        }
                    }
                    let text = String::from_utf8_lossy(&head);
                    let path = text.split_whitespace().nth(1).unwrap_or("");
                    let path = path.split('?').next().unwrap_or("");
                    match files.iter().find(|(p, _)| *p == path) {
                        Some((_, body)) => {
                            let _ = write!(
                                conn,
                                "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                                body.len()
                            );
                            let _ = conn.write_all(body);
                        }
                        None => {
                            let _ = conn.write_all(
                                b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                            );
                        }
                    }
                });
            }
        });
        Ok(Self { addr, stop })
    }
}

impl Drop for Origin {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenarios_are_found_by_unique_names_and_ask_for_the_bench_avatar() {
        let all: Vec<&Scenario> = SCENARIOS.iter().chain(&TEMPLATE_SCENARIOS).collect();
        for (i, sc) in all.iter().enumerate() {
            assert!(all[..i].iter().all(|o| o.name != sc.name), "{}", sc.name);
            assert_eq!(scenario(sc.name).unwrap().name, sc.name);
            assert!(!sc.menagerie.is_empty(), "{}", sc.name);
            for p in sc.menagerie {
                assert!(p.starts_with('/'), "{p}");
                // Every scenario but the avatar-less sage card asks for the bench avatar.
                assert_eq!(p.contains("avatar={A"), sc.name != "sage", "{p}");
            }
        }
        assert!(TEMPLATE_SCENARIOS.iter().all(|sc| sc.sharp.is_empty()));
        assert!(SCENARIOS.iter().all(|sc| !sc.sharp.is_empty()));
        assert!(scenario("templates").is_err() && scenario("nope").is_err());
    }

    #[test]
    fn a_run_is_recorded_in_the_figures() {
        let mut figures = serde_json::json!({ "comparisons": [
            { "id": "other", "rows": [] },
            { "id": "still-vs-sharp", "measured": "then", "commit": "old", "command": "old",
              "rows": [{ "name": "grey512", "label": "greyscale, 512 px", "menagerie": 1.0, "peer": 1.0 }] }
        ]});
        let rows = [
            Recorded {
                name: "grey512",
                head: 1201.23,
                sharp: 54.07,
                head_bytes: thousands(187791),
                sharp_bytes: "191,782".into(),
            },
            Recorded {
                name: "blur512",
                head: 691.0,
                sharp: 58.0,
                head_bytes: "1+2".into(),
                sharp_bytes: "3".into(),
            },
        ];
        record(
            &mut figures,
            &rows,
            "now",
            "abc1234",
            "cargo xtask bench-compare x",
        )
        .unwrap();
        let c = &figures["comparisons"][1];
        assert_eq!(c["measured"], "now");
        assert_eq!(c["commit"], "abc1234");
        assert_eq!(c["rows"][0]["label"], "greyscale, 512 px");
        assert_eq!(c["rows"][0]["menagerie"], 1201.2);
        assert_eq!(c["rows"][0]["peer"], 54.1);
        assert_eq!(c["rows"][0]["menagerie_bytes"], "187,791");
        assert_eq!(c["rows"][1]["label"], "blur512");
        assert_eq!(figures["comparisons"][0]["rows"], serde_json::json!([]));
        assert_eq!(thousands(12), "12");
        assert_eq!(thousands(1_000), "1,000");
    }

    #[test]
    fn wrk_output_is_parsed() {
        let text = "Running 2s test @ http://127.0.0.1:1\n  2 threads and 32 connections\n  Latency Distribution\n     50%   17.61ms\n     75%   19.00ms\n     90%   21.00ms\n     99%    1.20s\n  3608 requests in 2.00s, 1.62GB read\n  Socket errors: connect 0, read 2, write 0, timeout 1\n  Non-2xx or 3xx responses: 4\nRequests/sec:   1804.33\nTransfer/sec:    830.12MB\n";
        let run = parse_wrk(text).unwrap();
        // 4 of the 3608 answers were errors: not counted as throughput.
        assert!(
            (run.rps - 1804.33 * 3604.0 / 3608.0).abs() < 1e-9,
            "{}",
            run.rps
        );
        assert_eq!(run.p50_ms, 17.61);
        assert_eq!(run.p99_ms, 1200.0);
        assert_eq!(run.errors, 7);
        assert_eq!(run.answered, 3604);
        assert!(parse_wrk("no figures").is_none());
    }

    #[test]
    fn process_and_host_cpu_are_read_from_proc() {
        // A command name with spaces and a parenthesis, as the kernel
        // writes it; minflt is field 10, utime 14, stime 15.
        let stat = "4242 (menagerie (x) y) S 1 4242 4242 0 -1 4194560 9150 0 3 0 1234 56 0 0 20 0 7 0 100 1000 200";
        let p = ProcStat::parse(stat).unwrap();
        assert_eq!(
            p,
            ProcStat {
                ppid: 1,
                cpu_ticks: 1290,
                minor_faults: 9150
            }
        );
        let later = ProcStat {
            cpu_ticks: 1490,
            minor_faults: 9350,
            ..p
        };
        let c = later.per_answer(&p, 400);
        // 200 ticks = 2 s over 400 answers = 5 ms each; 0.5 faults each.
        assert!(
            (c.cpu_ms - 5.0).abs() < 1e-9 && (c.faults - 0.5).abs() < 1e-9,
            "{c:?}"
        );
        assert!(ProcStat::parse("4242 (x) S 1").is_none());
        // Our own process can be read.
        assert!(ProcStat::of(std::process::id()).is_some());

        let host0 = HostCpu::parse("cpu  100 0 50 800 10 0 5 35 0 0\ncpu0 1 2 3\n").unwrap();
        let host1 = HostCpu::parse("cpu  200 0 60 900 10 0 5 55 0 0\n").unwrap();
        assert_eq!((host0.total, host0.steal), (1000, 35));
        // 20 of the 230 ticks between the two were stolen.
        assert!((host1.steal_since(host0) - 20.0 / 230.0).abs() < 1e-12);
        assert_eq!(host0.steal_since(host0), 0.0);
        assert!(median_of(vec![3.0, 1.0, 2.0]) == 2.0 && median_of(Vec::new()).is_nan());
    }

    #[test]
    fn a_server_is_settled_with_its_child_processes() {
        let stat = |ppid| ProcStat {
            ppid,
            cpu_ticks: 1,
            minor_faults: 0,
        };
        // 10 → 11 → 13, 10 → 12; 20 apart.
        let all = [
            (10, stat(1)),
            (11, stat(10)),
            (12, stat(10)),
            (13, stat(11)),
            (20, stat(1)),
        ];
        let mut tree = descendants(10, &all);
        tree.sort_unstable();
        assert_eq!(tree, [10, 11, 12, 13]);
        assert_eq!(descendants(20, &all), [20]);
        // This process and a child it starts are one tree.
        let me = std::process::id();
        let mut child = Command::new("sleep").arg("5").spawn().unwrap();
        let tree = descendants(me, &all_processes());
        let _ = child.kill();
        let _ = child.wait();
        assert!(tree.contains(&me) && tree.contains(&child.id()), "{tree:?}");
        assert!(tree_cpu_ticks(me).is_some());
        assert!(tree_cpu_ticks(u32::MAX).is_none());
    }
}
