//! Downloading the import-only sources when no source directory is found.
//!
//! The files and their checks are pinned in `upstream-pins.txt` (one GitHub
//! repository per commit, see the comment at its top). Each file is fetched
//! from `<base>/<owner>/<name>/<commit>/<path>`, where `<base>` is the
//! raw-file host of GitHub or a mirror in the same layout, into a cache
//! directory laid out like a source directory (`pokeapi/`, `content/...`).
//!
//! A file enters the cache only once it has passed its check. A transfer
//! goes to `<file>.part` first: a dropped connection is retried, resuming
//! with an HTTP range request where the server honours it, and a rerun picks
//! up the `.part` left by an interrupted one. A file that fails its check is
//! deleted and reported; a file already in the cache that passes its check
//! is not fetched again.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sha1::Sha1;
use sha2::{Digest, Sha256};

/// The committed pins.
pub const PINS: &str = include_str!("upstream-pins.txt");

/// The raw-file host the pinned paths live under.
pub const UPSTREAM: &str = "https://raw.githubusercontent.com";

/// How a downloaded file is checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// The exact bytes: SHA-256 (the pin's size is exact too).
    Sha256([u8; 32]),
    /// A CSV file known by its header and record count, or as the upstream
    /// file itself by its git blob id (SHA-1 of `blob <len>\0<bytes>`).
    Csv {
        /// The first line, without its line end.
        header: String,
        /// CSV records after the header.
        rows: u64,
        /// The git blob id of the upstream file at the pinned commit.
        git_blob: [u8; 20],
    },
}

/// One pinned upstream file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pinned {
    /// `owner/name` of the GitHub repository.
    pub repo: String,
    /// The pinned commit.
    pub commit: String,
    /// Path of the file in the repository.
    pub path: String,
    /// Path of the file in the source directory (and the cache).
    pub local: String,
    /// Size in bytes: exact for [`Check::Sha256`], an estimate otherwise.
    pub size: u64,
    /// The check the file must pass.
    pub check: Check,
}

impl Pinned {
    /// The file's URL under `base` (the upstream host or a mirror).
    pub fn url(&self, base: &str) -> String {
        format!(
            "{}/{}/{}/{}",
            base.trim_end_matches('/'),
            self.repo,
            self.commit,
            self.path
        )
    }

    /// The most bytes a download of this file may bring.
    fn max_len(&self) -> u64 {
        match self.check {
            Check::Sha256(_) => self.size,
            Check::Csv { .. } => self.size.saturating_mul(4).saturating_add(1 << 20),
        }
    }
}

fn hex<const N: usize>(s: &str, what: &str) -> Result<[u8; N]> {
    if s.len() != 2 * N || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("{what}: expected {} hex digits, got {s:?}", 2 * N);
    }
    let mut out = [0; N];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(&s[2 * i..2 * i + 2], 16)?;
    }
    Ok(out)
}

fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A relative path of plain names (no `..`, no root): safe to join to the cache.
fn plain_relative(p: &str) -> bool {
    !p.is_empty()
        && Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// Parses the pins file format (see the comment at the top of `upstream-pins.txt`).
pub fn parse_pins(text: &str) -> Result<Vec<Pinned>> {
    let mut repo: Option<(String, String)> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = || format!("pins line {}", i + 1);
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields[0] == "repo" {
            let [_, name, commit] = fields[..] else {
                bail!("{}: expected `repo <owner>/<name> <commit>`", at());
            };
            if name.split('/').count() != 2 || !plain_relative(name) {
                bail!("{}: {name:?} is not <owner>/<name>", at());
            }
            hex::<20>(commit, &at())?;
            repo = Some((name.to_owned(), commit.to_owned()));
            continue;
        }
        let Some((name, commit)) = &repo else {
            bail!("{}: a file before any `repo` line", at());
        };
        let [path, local, size, checks @ ..] = &fields[..] else {
            bail!("{}: expected `<path> <local path> <size> <check>`", at());
        };
        if !plain_relative(path) || !plain_relative(local) {
            bail!("{}: paths must be relative, without `..`", at());
        }
        let (estimate, size) = match size.strip_prefix('~') {
            Some(s) => (true, s),
            None => (false, *size),
        };
        let size: u64 = size.parse().with_context(|| format!("{}: size", at()))?;
        let check = match checks {
            [sha] if !estimate => Check::Sha256(hex(
                sha.strip_prefix("sha256:")
                    .with_context(|| format!("{}: expected sha256:<hex>", at()))?,
                &at(),
            )?),
            [rows, header, blob] if estimate => {
                let field = |f: &str, key: &str| {
                    f.strip_prefix(key)
                        .map(str::to_owned)
                        .with_context(|| format!("{}: expected {key}...", at()))
                };
                Check::Csv {
                    rows: field(rows, "rows:")?
                        .parse()
                        .with_context(|| format!("{}: rows", at()))?,
                    header: field(header, "header:")?,
                    git_blob: hex(&field(blob, "git-blob:")?, &at())?,
                }
            }
            _ => bail!(
                "{}: expected an exact size and sha256:<hex>, or ~<size> rows:<n> \
                 header:<line> git-blob:<id>",
                at()
            ),
        };
        out.push(Pinned {
            repo: name.clone(),
            commit: commit.clone(),
            path: (*path).to_owned(),
            local: (*local).to_owned(),
            size,
            check,
        });
    }
    Ok(out)
}

/// What checking a file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The file passes its check.
    Good,
    /// Fewer bytes than pinned: a transfer that can be resumed.
    Short(u64),
    /// The file is not the pinned one; why.
    Bad(String),
}

fn hash_file<D: Digest>(path: &Path, prefix: &[u8]) -> Result<Vec<u8>> {
    let mut f = File::open(path).with_context(|| format!("opening {}", path.display()))?;
    let mut d = D::new();
    d.update(prefix);
    let mut buf = vec![0; 1 << 16];
    loop {
        let n = f
            .read(&mut buf)
            .with_context(|| format!("reading {}", path.display()))?;
        if n == 0 {
            return Ok(d.finalize().to_vec());
        }
        d.update(&buf[..n]);
    }
}

/// Checks the file at `path` against `pin`.
pub fn verify(pin: &Pinned, path: &Path) -> Result<Verdict> {
    let len = fs::metadata(path)
        .with_context(|| format!("reading {}", path.display()))?
        .len();
    match &pin.check {
        Check::Sha256(want) => {
            if len < pin.size {
                return Ok(Verdict::Short(len));
            }
            if len > pin.size {
                return Ok(Verdict::Bad(format!(
                    "{len} bytes where the pinned file has {}",
                    pin.size
                )));
            }
            let got = hash_file::<Sha256>(path, b"")?;
            Ok(if got == want {
                Verdict::Good
            } else {
                Verdict::Bad(format!(
                    "SHA-256 {} where the pinned file has {}",
                    to_hex(&got),
                    to_hex(want)
                ))
            })
        }
        Check::Csv {
            header,
            rows,
            git_blob,
        } => {
            let blob = hash_file::<Sha1>(path, format!("blob {len}\0").as_bytes())?;
            if blob == git_blob {
                return Ok(Verdict::Good);
            }
            let mut r = csv::ReaderBuilder::new()
                .has_headers(false)
                .from_path(path)
                .with_context(|| format!("opening {}", path.display()))?;
            let mut record = csv::ByteRecord::new();
            let first = match r.read_byte_record(&mut record) {
                Ok(true) => {
                    let fields: Vec<&[u8]> = record.iter().collect();
                    fields.join(&b","[..])
                }
                Ok(false) => Vec::new(),
                Err(e) => return Ok(Verdict::Bad(format!("not CSV: {e}"))),
            };
            if first != header.as_bytes() {
                return Ok(Verdict::Bad(format!(
                    "header {:?} where {header:?} was expected",
                    String::from_utf8_lossy(&first)
                )));
            }
            let mut n = 0u64;
            loop {
                match r.read_byte_record(&mut record) {
                    Ok(true) => n += 1,
                    Ok(false) => break,
                    Err(e) => return Ok(Verdict::Bad(format!("not CSV after record {n}: {e}"))),
                }
            }
            Ok(if n == *rows {
                Verdict::Good
            } else {
                Verdict::Bad(format!(
                    "{n} records after the header where {rows} were expected \
                     (and not the upstream file, git blob {})",
                    to_hex(git_blob)
                ))
            })
        }
    }
}

/// How [`fetch`] runs.
#[derive(Debug, Clone)]
pub struct Options {
    /// The host the pinned paths are fetched under ([`UPSTREAM`] or a mirror).
    pub base: String,
    /// The cache directory (becomes a source directory).
    pub cache: PathBuf,
    /// Tries per file before giving up (at least 1).
    pub attempts: u32,
    /// Pause before the second try; doubled for each further one.
    pub retry_pause: Duration,
    /// Draw a progress bar on a terminal.
    pub progress: bool,
}

/// What [`fetch`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Files downloaded.
    pub fetched: usize,
    /// Files already in the cache (checked again, not downloaded).
    pub cached: usize,
    /// Bytes downloaded.
    pub bytes: u64,
}

/// A failed try: worth another, or not.
enum Failure {
    Retry(anyhow::Error),
    Fatal(anyhow::Error),
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_connect(Some(Duration::from_secs(15)))
        .timeout_recv_response(Some(Duration::from_secs(60)))
        .timeout_per_read(Some(Duration::from_secs(60)))
        .max_redirects(5)
        .user_agent("menagerie-xtask-data")
        .build()
        .into()
}

fn part_path(dest: &Path) -> PathBuf {
    let mut name = dest.file_name().unwrap_or_default().to_os_string();
    name.push(".part");
    dest.with_file_name(name)
}

/// Downloads every pinned file that the cache lacks, checking each; see the
/// module documentation. Stops at the first file that cannot be had.
pub fn fetch(pins: &[Pinned], opts: &Options) -> Result<Report> {
    let total: u64 = pins.iter().map(|p| p.size).sum();
    let bar = if opts.progress {
        ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "data: download [{bar:20}] {bytes}/{total_bytes} {bytes_per_sec} {wide_msg}",
        )
        .expect("a valid template")
        .progress_chars("=> "),
    );
    let agent = agent();
    let mut report = Report::default();
    for pin in pins {
        let dest = opts.cache.join(&pin.local);
        let base = bar.position();
        if dest.exists() {
            match verify(pin, &dest)? {
                Verdict::Good => {
                    report.cached += 1;
                    bar.set_position(base + pin.size);
                    continue;
                }
                Verdict::Short(n) => bar.suspend(|| {
                    eprintln!(
                        "data: download: {} in the cache has {n} of {} bytes; fetching it again",
                        dest.display(),
                        pin.size
                    );
                }),
                Verdict::Bad(why) => bar.suspend(|| {
                    eprintln!(
                        "data: download: {} in the cache fails its check ({why}); \
                         fetching it again",
                        dest.display()
                    );
                }),
            }
            fs::remove_file(&dest).with_context(|| format!("removing {}", dest.display()))?;
        }
        if let Some(dir) = dest.parent() {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let url = pin.url(&opts.base);
        bar.set_message(pin.local.clone());
        let part = part_path(&dest);
        if matches!(pin.check, Check::Sha256(_))
            && part.exists()
            && matches!(verify(pin, &part)?, Verdict::Bad(_))
        {
            // Full length yet wrong, or too long: nothing to resume.
            fs::remove_file(&part).with_context(|| format!("removing {}", part.display()))?;
        }
        let got = fetch_one(&agent, pin, &url, &part, opts, &bar, base)?;
        match verify(pin, &part)? {
            Verdict::Good => {}
            Verdict::Short(n) => bail!(
                "{url}: the transfer ended after {n} of {} bytes (rerun to resume)",
                pin.size
            ),
            Verdict::Bad(why) => {
                let _ = fs::remove_file(&part);
                bail!(
                    "{url}: the file is not the pinned one: {why}. It was deleted; \
                     a mirror must serve the upstream file unchanged"
                );
            }
        }
        fs::rename(&part, &dest).with_context(|| format!("renaming to {}", dest.display()))?;
        let len = fs::metadata(&dest)?.len();
        if len != pin.size {
            bar.set_length((total + len).saturating_sub(pin.size));
        }
        bar.set_position(base + len);
        report.fetched += 1;
        report.bytes += got;
        if bar.is_hidden() {
            eprintln!("data: download: {} ({len} bytes)", pin.local);
        }
    }
    bar.finish_and_clear();
    Ok(report)
}

/// Brings `url` into `part` (resuming what is there), retrying dropped
/// connections and server errors. Returns the bytes transferred.
fn fetch_one(
    agent: &ureq::Agent,
    pin: &Pinned,
    url: &str,
    part: &Path,
    opts: &Options,
    bar: &ProgressBar,
    base: u64,
) -> Result<u64> {
    let attempts = opts.attempts.max(1);
    let mut moved = 0;
    let mut last = None;
    for attempt in 1..=attempts {
        if let Some(e) = &last {
            let pause = opts.retry_pause * 2u32.saturating_pow(attempt - 2);
            bar.suspend(|| {
                eprintln!("data: download: {url}: {e:#}; trying again ({attempt}/{attempts})");
            });
            std::thread::sleep(pause);
        }
        match try_once(agent, pin, url, part, bar, base, &mut moved) {
            Ok(()) => return Ok(moved),
            Err(Failure::Fatal(e)) => return Err(e.context(url.to_owned())),
            Err(Failure::Retry(e)) => last = Some(e),
        }
    }
    let e = last.expect("at least one try");
    Err(e.context(format!("{url}: gave up after {attempts} tries")))
}

fn try_once(
    agent: &ureq::Agent,
    pin: &Pinned,
    url: &str,
    part: &Path,
    bar: &ProgressBar,
    base: u64,
    moved: &mut u64,
) -> Result<(), Failure> {
    let io_err = |e: io::Error, what: &str| {
        Failure::Fatal(anyhow::Error::new(e).context(format!("{what} {}", part.display())))
    };
    let mut have = fs::metadata(part).map(|m| m.len()).unwrap_or(0);
    if matches!(pin.check, Check::Sha256(_)) && have >= pin.size {
        if have == pin.size {
            return Ok(()); // complete: the check decides
        }
        fs::remove_file(part).map_err(|e| io_err(e, "removing"))?;
        have = 0;
    }
    let mut req = agent.get(url).header("Accept-Encoding", "identity");
    if have > 0 {
        req = req.header("Range", format!("bytes={have}-"));
    }
    let resp = req
        .call()
        .map_err(|e| Failure::Retry(anyhow::Error::new(e)))?;
    let status = resp.status();
    let mut start = 0;
    match status.as_u16() {
        200 => {}
        206 => {
            let range = resp
                .headers()
                .get("content-range")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default();
            if range.starts_with(&format!("bytes {have}-")) {
                start = have;
            } else {
                let _ = fs::remove_file(part);
                return Err(Failure::Retry(anyhow::anyhow!(
                    "asked for bytes {have}- and got the range {range:?}"
                )));
            }
        }
        416 => {
            // The part on disk is longer than the file: start afresh.
            let _ = fs::remove_file(part);
            return Err(Failure::Retry(anyhow::anyhow!(
                "HTTP 416 for bytes {have}-"
            )));
        }
        400..=499 => {
            return Err(Failure::Fatal(anyhow::anyhow!(
                "HTTP {status} (the pinned file is not there)"
            )));
        }
        _ => return Err(Failure::Retry(anyhow::anyhow!("HTTP {status}"))),
    }
    let mut file = if start > 0 {
        OpenOptions::new().append(true).open(part)
    } else {
        File::create(part)
    }
    .map_err(|e| io_err(e, "writing"))?;
    let mut written = start;
    bar.set_position(base + written);
    let mut body = resp.into_body().into_reader();
    let mut buf = vec![0; 1 << 16];
    loop {
        let n = match body.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                file.flush().map_err(|e| io_err(e, "writing"))?;
                return Err(Failure::Retry(
                    anyhow::Error::new(e).context("the transfer broke off"),
                ));
            }
        };
        written += n as u64;
        *moved += n as u64;
        if written > pin.max_len() {
            drop(file);
            let _ = fs::remove_file(part);
            return Err(Failure::Fatal(anyhow::anyhow!(
                "more than {} bytes, so not the pinned file; it was deleted",
                pin.max_len()
            )));
        }
        file.write_all(&buf[..n])
            .map_err(|e| io_err(e, "writing"))?;
        bar.set_position(base + written);
    }
    file.flush().map_err(|e| io_err(e, "writing"))?;
    if matches!(pin.check, Check::Sha256(_)) && written < pin.size {
        return Err(Failure::Retry(anyhow::anyhow!(
            "the transfer ended after {written} of {} bytes",
            pin.size
        )));
    }
    Ok(())
}

#[cfg(test)]
#[path = "download_tests.rs"]
mod tests;
