//! `cargo xtask image`: the runtime image built and run on this machine,
//! without a registry (base images cannot be pulled here).
//!
//! 1. builds the release binary and the data (`cargo xtask data`) on the host;
//! 2. assembles the image with buildah from scratch: the binary, the shared
//!    libraries `ldd` lists for it, the generated data, the host's CA bundle,
//!    and `/etc/passwd`/`/etc/group` with the `menagerie` user; user, paths,
//!    environment, port, stop signal and entrypoint are [`runtime()`], which a
//!    test keeps equal to the `Dockerfile`'s runtime stage;
//! 3. runs it with podman read-only, every capability dropped, as uid 10001,
//!    on a podman network of its own, and checks `/health`, a creature
//!    lookup, a canvas image whose avatar comes from an avatar host on that
//!    network (the load test's host, bound to the network's gateway), and that
//!    SIGTERM lets an in-flight request finish before the server exits;
//! 4. smoke-tests the base Deployment (rendered by `kubectl kustomize`, with a
//!    podman secret for its API keys) with `podman kube play`;
//! 5. prints the image size, the start time and the RSS.
//!
//! Needs root, podman, buildah and runc (installed from Debian when missing)
//! and a few minutes; not part of `cargo xtask test`.

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail, ensure};

use crate::loadtest::client::Conn;
use crate::loadtest::hosts::AvatarHost;
use crate::{cargo, data, repo_root, run_cmd};

/// What the runtime image is: the `Dockerfile`'s runtime stage, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Runtime {
    /// `USER` (uid:gid).
    pub user: String,
    /// The account `useradd` creates: name, uid, home, shell.
    pub account: (String, u32, String, String),
    /// Where the binary is copied.
    pub binary: String,
    /// Where the generated data is copied.
    pub data: String,
    /// `ENV`, in order.
    pub env: Vec<(String, String)>,
    /// `EXPOSE`.
    pub port: u16,
    /// `STOPSIGNAL`.
    pub stop_signal: String,
    /// `ENTRYPOINT` (exec form).
    pub entrypoint: Vec<String>,
}

/// The runtime image's settings (compared with the `Dockerfile` by a test).
pub fn runtime() -> Runtime {
    let s = |v: &str| v.to_owned();
    Runtime {
        user: s("10001:10001"),
        account: (
            s("menagerie"),
            10001,
            s("/nonexistent"),
            s("/usr/sbin/nologin"),
        ),
        binary: s("/usr/local/bin/menagerie"),
        data: s("/srv/menagerie/data"),
        env: [
            ("MENAGERIE_BIND", "0.0.0.0:8080"),
            ("MENAGERIE_DATA_DIR", "/srv/menagerie/data"),
            ("MENAGERIE_LOG_FORMAT", "json"),
            ("MALLOC_ARENA_MAX", "2"),
            ("MALLOC_MMAP_THRESHOLD_", "1048576"),
        ]
        .iter()
        .map(|(k, v)| (s(k), s(v)))
        .collect(),
        port: 8080,
        stop_signal: s("SIGTERM"),
        entrypoint: vec![s("/usr/local/bin/menagerie")],
    }
}

/// The image's name in podman's local storage.
pub const IMAGE: &str = "localhost/menagerie:latest";
/// The podman network the checks run on.
const NETWORK: &str = "menagerie-check";
/// Its subnet (private, unlikely to clash; the gateway is `.1`).
const SUBNET: &str = "10.89.77.0/24";
/// Container names used by the checks (removed first if left over).
const CONTAINER: &str = "menagerie-check";
/// podman's settings for this kind of machine (`CONTAINERS_CONF`): runc
/// (crun refuses hybrid cgroups), cgroupfs (no systemd), and resource limits
/// no higher than root's own here (podman's default `nofile` is above them,
/// and root lacks `CAP_SYS_RESOURCE`).
const CONTAINERS_CONF: &str = "[containers]
default_ulimits = [\"nofile=16384:16384\", \"nproc=4096:4096\"]
[engine]
runtime = \"runc\"
cgroup_manager = \"cgroupfs\"
";

/// Arguments of `cargo xtask image`.
#[derive(Debug, clap::Args)]
pub struct ImageArgs {
    /// Build the image only (no run checks).
    #[arg(long)]
    pub build_only: bool,
    /// Put this server binary in the image instead of building the release one.
    #[arg(long)]
    pub server_bin: Option<PathBuf>,
    #[command(flatten)]
    pub from: data::SourceArgs,
}

/// Builds, runs and checks the image.
pub fn run(args: &ImageArgs) -> Result<()> {
    let root = repo_root();
    let dockerfile = std::fs::read_to_string(root.join("Dockerfile"))?;
    ensure!(
        parse_runtime_stage(&dockerfile)? == runtime(),
        "the Dockerfile's runtime stage and xtask/src/image.rs::runtime() differ"
    );
    ensure_tools()?;
    let work = crate::target_dir().join("image");
    std::fs::create_dir_all(&work)?;

    let bin = match &args.server_bin {
        Some(bin) => bin.clone(),
        None => {
            run_cmd(cargo().args([
                "build",
                "--release",
                "--locked",
                "--package",
                "server",
                "--bin",
                "menagerie",
            ]))?;
            crate::target_dir().join("release/menagerie")
        }
    };
    let data_dir = work.join("data");
    data::build(&data::source_dir(&args.from)?, &data_dir)?;

    let rootfs = work.join("rootfs");
    assemble_rootfs(&bin, &data_dir, &rootfs)?;
    build_image(&rootfs)?;
    let size = podman_out(&["image", "inspect", "--format", "{{.Size}}", IMAGE])?;
    let size: u64 = size.trim().parse().context("image size")?;
    eprintln!("\nimage: {IMAGE} built, {:.1} MiB", size as f64 / 1048576.0);
    if args.build_only {
        return Ok(());
    }

    let figures = run_checks()?;
    kube_play(&root)?;
    println!(
        "\nimage: {IMAGE}: {:.1} MiB; start to first /health: {} ms; RSS after the checks: {:.1} MiB",
        size as f64 / 1048576.0,
        figures.start.as_millis(),
        figures.rss_kib as f64 / 1024.0
    );
    Ok(())
}

/// Installs Debian's podman, buildah and runc when missing.
fn ensure_tools() -> Result<()> {
    let missing: Vec<&str> = ["podman", "buildah", "runc"]
        .into_iter()
        .filter(|t| {
            !Command::new(t)
                .arg("--version")
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        })
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    eprintln!("image: installing {} from Debian", missing.join(", "));
    run_cmd(Command::new("apt-get").args(["update", "-qq"]))?;
    run_cmd(
        Command::new("apt-get")
            .env("DEBIAN_FRONTEND", "noninteractive")
            .args([
                "install",
                "-y",
                "-qq",
                "--no-install-recommends",
                "podman",
                "buildah",
                "runc",
                "containernetworking-plugins",
                "netavark",
                "aardvark-dns",
                "uidmap",
            ]),
    )
}

/// A `podman` command with this machine's settings ([`CONTAINERS_CONF`]).
fn podman() -> Command {
    let conf = crate::target_dir().join("image/containers.conf");
    if std::fs::read_to_string(&conf).ok().as_deref() != Some(CONTAINERS_CONF) {
        let _ = std::fs::create_dir_all(conf.parent().expect("in target"));
        let _ = std::fs::write(&conf, CONTAINERS_CONF);
    }
    let mut c = Command::new("podman");
    c.env("CONTAINERS_CONF", conf);
    c
}

/// Runs podman with `args`; its standard output.
fn podman_out(args: &[&str]) -> Result<String> {
    let o = podman().args(args).output()?;
    if !o.status.success() {
        bail!(
            "podman {}: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&o.stdout).into_owned())
}

/// Runs podman with `args`, ignoring failure (clean-up of leftovers).
fn podman_quiet(args: &[&str]) {
    let _ = podman()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// The root filesystem: binary, its libraries, data, CA bundle, accounts.
fn assemble_rootfs(bin: &Path, data_dir: &Path, rootfs: &Path) -> Result<()> {
    let rt = runtime();
    if rootfs.exists() {
        std::fs::remove_dir_all(rootfs)?;
    }
    let inside = |p: &str| rootfs.join(p.trim_start_matches('/'));
    copy_file(bin, &inside(&rt.binary))?;
    for lib in shared_libraries(bin)? {
        copy_file(&lib, &inside(&lib.to_string_lossy()))?;
    }
    copy_dir(data_dir, &inside(&rt.data))?;
    let ca = Path::new("/etc/ssl/certs/ca-certificates.crt");
    if ca.exists() {
        copy_file(ca, &inside("/etc/ssl/certs/ca-certificates.crt"))?;
    }
    let (name, uid, home, shell) = &rt.account;
    std::fs::create_dir_all(inside("/etc"))?;
    std::fs::write(
        inside("/etc/passwd"),
        format!("root:x:0:0:root:/root:/usr/sbin/nologin\n{name}:x:{uid}:{uid}::{home}:{shell}\n"),
    )?;
    std::fs::write(
        inside("/etc/group"),
        format!("root:x:0:\n{name}:x:{uid}:\n"),
    )?;
    std::fs::create_dir_all(inside("/tmp"))?;
    Ok(())
}

/// The shared libraries (and the loader) `ldd` lists for `bin`, resolved.
fn shared_libraries(bin: &Path) -> Result<Vec<PathBuf>> {
    let o = Command::new("ldd")
        .arg(bin)
        .output()
        .context("running ldd")?;
    ensure!(o.status.success(), "ldd {} failed", bin.display());
    Ok(parse_ldd(&String::from_utf8_lossy(&o.stdout)))
}

/// The absolute paths in `ldd` output (`name => /path (addr)` or
/// `/path (addr)`); the vDSO has none.
fn parse_ldd(out: &str) -> Vec<PathBuf> {
    out.lines()
        .filter_map(|l| {
            let l = l.trim();
            let path = match l.split_once("=>") {
                Some((_, rest)) => rest.split_whitespace().next()?,
                None => l.split_whitespace().next()?,
            };
            path.starts_with('/').then(|| PathBuf::from(path))
        })
        .collect()
}

fn copy_file(from: &Path, to: &Path) -> Result<()> {
    if let Some(p) = to.parent() {
        std::fs::create_dir_all(p)?;
    }
    std::fs::copy(from, to).with_context(|| format!("copying {}", from.display()))?;
    Ok(())
}

fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            copy_dir(&entry.path(), &target)?;
        } else {
            copy_file(&entry.path(), &target)?;
        }
    }
    Ok(())
}

/// `buildah from scratch`, copy the root filesystem, configure, commit.
fn build_image(rootfs: &Path) -> Result<()> {
    let rt = runtime();
    let out = Command::new("buildah").args(["from", "scratch"]).output()?;
    ensure!(out.status.success(), "buildah from scratch failed");
    // buildah may print warnings before the container's name.
    let ctr = String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .trim()
        .to_owned();
    let result = (|| {
        run_cmd(
            Command::new("buildah")
                .args(["copy", &ctr])
                .arg(rootfs)
                .arg("/"),
        )?;
        let mut config = Command::new("buildah");
        config.args(["config", "--user", &rt.user, "--port", &rt.port.to_string()]);
        config.args(["--stop-signal", &rt.stop_signal, "--workingdir", "/"]);
        config.args(["--entrypoint", &serde_json::to_string(&rt.entrypoint)?]);
        config.args(["--label", "org.opencontainers.image.title=menagerie"]);
        for (k, v) in &rt.env {
            config.args(["--env", &format!("{k}={v}")]);
        }
        run_cmd(config.arg(&ctr))?;
        run_cmd(Command::new("buildah").args(["commit", "--rm", "--quiet", &ctr, IMAGE]))
    })();
    if result.is_err() {
        let _ = Command::new("buildah").args(["rm", &ctr]).status();
    }
    result
}

/// What the run measured.
struct Figures {
    start: Duration,
    rss_kib: u64,
}

/// A free loopback port.
fn free_port() -> Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// The checks against a running container.
fn run_checks() -> Result<Figures> {
    podman_quiet(&["rm", "--force", "--time", "0", CONTAINER]);
    if podman_out(&["network", "exists", NETWORK]).is_err() {
        podman_out(&["network", "create", "--subnet", SUBNET, NETWORK])?;
    }
    let gateway: IpAddr = podman_out(&[
        "network",
        "inspect",
        "--format",
        "{{range .Subnets}}{{.Gateway}}{{end}}",
        NETWORK,
    ])?
    .trim()
    .parse()
    .context("the check network's gateway")?;

    let port = free_port()?;
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    let started = Instant::now();
    podman_out(&[
        "run",
        "--detach",
        "--name",
        CONTAINER,
        "--network",
        NETWORK,
        "--publish",
        &format!("127.0.0.1:{port}:8080"),
        "--read-only",
        "--cap-drop=ALL",
        "--security-opt=no-new-privileges",
        "--env=MENAGERIE_SHUTDOWN_TIMEOUT=10",
        // The avatar host is on the check network, a private range.
        "--env=MENAGERIE_ALLOW_PRIVATE_AVATARS=true",
        IMAGE,
    ])?;
    let guard = Remove(CONTAINER);
    let start = wait_healthy(addr, CONTAINER, Duration::from_secs(30))?.duration_since(started);
    eprintln!(
        "image: /health answered {} ms after podman run",
        start.as_millis()
    );

    let pid: u32 = podman_out(&["inspect", "--format", "{{.State.Pid}}", CONTAINER])?
        .trim()
        .parse()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let uid_line = status.lines().find(|l| l.starts_with("Uid:")).unwrap_or("");
    ensure!(
        uid_line.split_whitespace().skip(1).all(|u| u == "10001"),
        "the server does not run as uid 10001: {uid_line}"
    );
    let cap_eff = status
        .lines()
        .find(|l| l.starts_with("CapEff:"))
        .unwrap_or("");
    ensure!(
        cap_eff.ends_with("0000000000000000"),
        "capabilities left: {cap_eff}"
    );
    eprintln!("image: runs as uid 10001 with no capabilities, root filesystem read-only");

    let mut c = Conn::new(addr, Duration::from_secs(20));
    let r = c.get("/health")?;
    ensure!(r.status == 200, "/health: {}", r.status);
    let r = c.get("/creature/dex?id=pikachu")?;
    ensure!(
        r.status == 200 && String::from_utf8_lossy(&r.body).contains("ikachu"),
        "/creature/dex?id=pikachu: {} {}",
        r.status,
        String::from_utf8_lossy(&r.body)
    );
    eprintln!("image: /health and /creature/dex?id=pikachu answer");

    let host = AvatarHost::start_on(gateway).context("binding the avatar host on the gateway")?;
    let avatar = format!("http://{}/avatar/fixed.png", host.addr);
    let r = c.get(&format!("/canvas/filter/sepia?avatar={avatar}"))?;
    ensure!(
        r.status == 200 && r.body.starts_with(b"\x89PNG"),
        "canvas image from {avatar}: {} {}",
        r.status,
        String::from_utf8_lossy(&r.body[..r.body.len().min(200)])
    );
    eprintln!("image: /canvas/filter/sepia fetched its avatar from {avatar}");

    let rss_kib = std::fs::read_to_string(format!("/proc/{pid}/status"))?
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);

    // SIGTERM while a request waits 3 s for its avatar: it must still be answered.
    let slow = format!(
        "/canvas/filter/blur?avatar=http://{}/slow/3000/a.png",
        host.addr
    );
    let in_flight = thread::spawn(move || Conn::new(addr, Duration::from_secs(30)).get(&slow));
    thread::sleep(Duration::from_millis(1000));
    let signalled = Instant::now();
    podman_out(&["kill", "--signal", "SIGTERM", CONTAINER])?;
    let r = in_flight
        .join()
        .map_err(|_| anyhow::anyhow!("in-flight request panicked"))??;
    ensure!(
        r.status == 200 && r.body.starts_with(b"\x89PNG"),
        "the in-flight request after SIGTERM: {}",
        r.status
    );
    let code = podman_out(&["wait", CONTAINER])?;
    let stopped = signalled.elapsed();
    ensure!(
        code.trim() == "0",
        "the server exited with {code} after SIGTERM"
    );
    ensure!(
        stopped < Duration::from_secs(10),
        "the server took {stopped:?} to stop"
    );
    eprintln!(
        "image: SIGTERM: the in-flight request got its image, the server exited 0 {} ms after the signal",
        stopped.as_millis()
    );
    drop(guard);
    Ok(Figures { start, rss_kib })
}

/// Removes a container when dropped.
struct Remove(&'static str);

impl Drop for Remove {
    fn drop(&mut self) {
        podman_quiet(&["rm", "--force", "--time", "0", self.0]);
    }
}

/// Polls `/health` until it answers 200; the moment it did.
fn wait_healthy(addr: SocketAddr, container: &str, within: Duration) -> Result<Instant> {
    let until = Instant::now() + within;
    while Instant::now() < until {
        if let Ok(r) = Conn::new(addr, Duration::from_secs(2)).get("/health")
            && r.status == 200
        {
            return Ok(Instant::now());
        }
        thread::sleep(Duration::from_millis(20));
    }
    let logs = podman()
        .args(["logs", "--tail", "20", container])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stderr).into_owned())
        .unwrap_or_default();
    bail!("no /health answer on {addr} within {within:?}; logs:\n{logs}")
}

/// `podman kube play` of the base Deployment (one replica, a podman secret
/// for its API keys); checks that the pod runs and answers `/health`.
fn kube_play(root: &Path) -> Result<()> {
    let o = Command::new(std::env::var_os("KUBECTL").unwrap_or_else(|| "kubectl".into()))
        .current_dir(root)
        .args(["kustomize", "deploy/kubernetes/base"])
        .output()
        .context("running kubectl kustomize")?;
    ensure!(
        o.status.success(),
        "kubectl kustomize deploy/kubernetes/base failed"
    );
    let rendered = String::from_utf8(o.stdout)?;
    let dir = crate::target_dir().join("image");
    let file = dir.join("kube-play.yaml");
    std::fs::write(&file, kube_play_yaml(&rendered))?;
    let file_s = file.to_string_lossy().into_owned();
    podman_quiet(&["kube", "down", &file_s]);
    // podman 4.3 takes a Secret volume's data from its own secret store (a
    // Kubernetes Secret document stored as a podman secret), not from the file.
    let secret = dir.join("api-keys-secret.yaml");
    std::fs::write(&secret, api_keys_secret("kube-play-check-key-0000 60\n"))?;
    podman_quiet(&["secret", "rm", "menagerie-api-keys"]);
    podman_quiet(&["volume", "rm", "--force", "menagerie-api-keys"]);
    podman_out(&[
        "secret",
        "create",
        "menagerie-api-keys",
        &secret.to_string_lossy(),
    ])?;
    let _down = KubeDown(file_s.clone());
    podman_out(&["kube", "play", "--network", NETWORK, &file_s])?;
    // podman names a Deployment's container <deployment>-pod-<n>-<container>.
    let ctr = podman_out(&["ps", "--format", "{{.Names}}"])?;
    let ctr = ctr
        .lines()
        .find(|n| n.starts_with("menagerie-pod-") && n.ends_with("-menagerie"))
        .context("no menagerie container from podman kube play")?
        .to_owned();
    let ip: IpAddr = podman_out(&[
        "inspect",
        "--format",
        "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}",
        &ctr,
    ])?
    .trim()
    .parse()
    .context("the kube play pod's address")?;
    // The pod's address on the check network, reached from this host.
    wait_healthy(SocketAddr::new(ip, 8080), &ctr, Duration::from_secs(30))?;
    let user = podman_out(&["inspect", "--format", "{{.Config.User}}", &ctr])?;
    let read_only = podman_out(&[
        "inspect",
        "--format",
        "{{.HostConfig.ReadonlyRootfs}}",
        &ctr,
    ])?;
    ensure!(
        read_only.trim() == "true",
        "kube play: root filesystem not read-only"
    );
    eprintln!(
        "image: podman kube play: the Deployment's pod answers /health (user {}, read-only root)",
        user.trim()
    );
    Ok(())
}

/// Tears a `podman kube play` down when dropped.
struct KubeDown(String);

impl Drop for KubeDown {
    fn drop(&mut self) {
        podman_quiet(&["kube", "down", &self.0]);
        podman_quiet(&["secret", "rm", "menagerie-api-keys"]);
        podman_quiet(&["volume", "rm", "--force", "menagerie-api-keys"]);
    }
}

/// The rendered base for `podman kube play`: one replica of the local image.
fn kube_play_yaml(rendered: &str) -> String {
    rendered
        .replace("  replicas: 2\n", "  replicas: 1\n")
        .replace(
            "image: localhost/menagerie:latest",
            &format!("image: {IMAGE}"),
        )
}

/// The `menagerie-api-keys` Secret holding `keys` as its `keys` entry.
/// podman 4.3 reads the document as plain YAML, where `data` values are
/// not base64-decoded (and `stringData` is ignored): the explicit `!!binary`
/// tag makes the YAML decoder do it.
fn api_keys_secret(keys: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: menagerie-api-keys\n\
         type: Opaque\ndata:\n  keys: !!binary {}\n",
        base64(keys.as_bytes())
    )
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ABC[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The runtime stage of a Dockerfile, read back into a [`Runtime`]: the
/// last stage; `USER`, `ENV`, `EXPOSE`, `STOPSIGNAL`, `ENTRYPOINT`, the
/// targets of its `COPY --from=build` lines (binary first, then data) and
/// the `useradd` options.
pub fn parse_runtime_stage(dockerfile: &str) -> Result<Runtime> {
    // Instructions with their continuation lines joined, comments dropped.
    let mut instructions: Vec<String> = Vec::new();
    let mut pending = String::new();
    for line in dockerfile.lines() {
        let t = line.trim();
        if pending.is_empty() && (t.is_empty() || t.starts_with('#')) {
            continue;
        }
        if let Some(head) = t.strip_suffix('\\') {
            pending.push_str(head);
            pending.push(' ');
        } else {
            pending.push_str(t);
            instructions.push(std::mem::take(&mut pending));
        }
    }
    let start = instructions
        .iter()
        .rposition(|i| i.starts_with("FROM "))
        .context("no FROM")?;
    let stage = &instructions[start..];
    let arg = |kw: &str| -> Result<String> {
        stage
            .iter()
            .filter_map(|i| i.strip_prefix(kw))
            .next_back()
            .map(|v| v.trim().to_owned())
            .with_context(|| format!("no {kw}in the runtime stage"))
    };
    let mut env = Vec::new();
    for i in stage.iter().filter_map(|i| i.strip_prefix("ENV ")) {
        for pair in i.split_whitespace() {
            let (k, v) = pair.split_once('=').context("ENV without `=`")?;
            env.push((k.to_owned(), v.to_owned()));
        }
    }
    let copies: Vec<String> = stage
        .iter()
        .filter(|i| i.starts_with("COPY --from=build "))
        .filter_map(|i| i.split_whitespace().last().map(str::to_owned))
        .collect();
    ensure!(
        copies.len() == 2,
        "expected two COPY --from=build lines: {copies:?}"
    );
    let useradd: Vec<&str> = stage
        .iter()
        .find_map(|i| i.split_once("useradd ").map(|(_, rest)| rest))
        .context("no useradd")?
        .split_whitespace()
        .collect();
    let opt = |name: &str| -> Result<String> {
        let at = useradd
            .iter()
            .position(|w| *w == name)
            .with_context(|| format!("useradd without {name}"))?;
        Ok(useradd.get(at + 1).context("option value")?.to_string())
    };
    let account_name = useradd
        .iter()
        .rev()
        .find(|w| !w.starts_with('-') && !w.contains('&'))
        .context("useradd without a name")?
        .to_string();
    Ok(Runtime {
        user: arg("USER ")?,
        account: (
            account_name,
            opt("--uid")?.parse()?,
            opt("--home-dir")?,
            opt("--shell")?,
        ),
        binary: copies[0].clone(),
        data: copies[1].clone(),
        env,
        port: arg("EXPOSE ")?.parse()?,
        stop_signal: arg("STOPSIGNAL ")?,
        entrypoint: serde_json::from_str(&arg("ENTRYPOINT ")?)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_matches_the_dockerfile_runtime_stage() {
        let text = std::fs::read_to_string(repo_root().join("Dockerfile")).unwrap();
        assert_eq!(parse_runtime_stage(&text).unwrap(), runtime());
    }

    #[test]
    fn a_drifted_dockerfile_is_noticed() {
        let text = std::fs::read_to_string(repo_root().join("Dockerfile")).unwrap();
        for (from, to) in [
            ("USER 10001:10001", "USER 10002:10002"),
            ("MENAGERIE_LOG_FORMAT=json", "MENAGERIE_LOG_FORMAT=text"),
            ("/srv/menagerie/data\n", "/srv/data\n"),
            ("EXPOSE 8080", "EXPOSE 8081"),
            ("--uid 10001", "--uid 10002"),
        ] {
            assert!(text.contains(from), "{from}");
            let drifted = parse_runtime_stage(&text.replacen(from, to, 1)).unwrap();
            assert_ne!(drifted, runtime(), "{from} -> {to} went unnoticed");
        }
    }

    #[test]
    fn ldd_output_gives_the_library_paths() {
        let out = "\tlinux-vdso.so.1 (0x00007ffd)\n\
                   \tlibgcc_s.so.1 => /lib/x86_64-linux-gnu/libgcc_s.so.1 (0x00007f1)\n\
                   \tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f2)\n\
                   \t/lib64/ld-linux-x86-64.so.2 (0x00007f3)\n";
        assert_eq!(
            parse_ldd(out),
            [
                "/lib/x86_64-linux-gnu/libgcc_s.so.1",
                "/lib/x86_64-linux-gnu/libc.so.6",
                "/lib64/ld-linux-x86-64.so.2"
            ]
            .map(PathBuf::from)
        );
    }

    #[test]
    fn kube_play_runs_one_replica_of_the_local_image() {
        let y = kube_play_yaml("spec:\n  replicas: 2\n  image: localhost/menagerie:latest\n");
        assert!(y.contains("  replicas: 1\n"));
        assert!(y.contains(&format!("image: {IMAGE}")));
    }

    #[test]
    fn the_secret_holds_the_keys_in_base64() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar\n"), "Zm9vYmFyCg==");
        assert!(api_keys_secret("foo").contains("  keys: !!binary Zm9v\n"));
    }
}
