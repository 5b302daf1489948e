//! `cargo xtask book`: the book in `docs/`, built with mdBook.
//!
//! 1. the endpoint reference (`docs/src/endpoints/`) regenerated from the
//!    server's catalogue by the server's own test (`UPDATE_BOOK=1 cargo test
//!    -p server --test http book::`; that test fails in `cargo test` when
//!    the committed pages and the catalogue disagree);
//! 2. the benchmark charts and tables (`docs/src/benchmarks/*.svg`, the
//!    figures' block of `docs/src/benchmarks.md`) drawn from the committed
//!    figures `docs/bench/figures.json` ([`charts`]; `cargo xtask
//!    bench-compare --record` writes its run there and redraws them);
//! 3. mdBook, installed by cargo into the cargo target directory
//!    (`tools/mdbook-<version>`, pinned, built once), builds the book into
//!    `<target>/book`;
//! 4. every internal link and image of the built HTML is checked
//!    ([`check_links`]): a link to a missing page, file or anchor fails, as
//!    does a page of `docs/src` that the book does not build (missing from
//!    `SUMMARY.md`).
//!
//! `cargo xtask test` runs [`check`]: steps 3 and 4, after checking that
//! the committed charts are the ones the figures give. Its cost is the
//! first install of mdBook, about 130 s of CPU (2m10s user; measured on the
//! shared 2-core machine), then well under a second a run. mdBook as a
//! library of xtask (`mdbook-driver`, its dependencies at the workspace's
//! opt-level 2) took 210 s of CPU to build and would slow every xtask
//! build, so it is installed as a tool instead.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::{cargo, repo_root, run_cmd, target_dir};

pub mod charts;

/// The mdBook release the book is built with.
pub const MDBOOK_VERSION: &str = "0.5.4";

/// Arguments of `cargo xtask book`.
#[derive(Debug, clap::Args)]
pub struct BookArgs {
    /// Keep the endpoint pages and their preview images as they are (no
    /// server test run).
    #[arg(long)]
    pub no_pages: bool,
}

/// Regenerates the endpoint pages and the charts, then builds and checks
/// the book.
pub fn run(args: &BookArgs) -> Result<()> {
    if !args.no_pages {
        run_cmd(
            cargo()
                .args(["test", "-p", "server", "--test", "http", "--", "book::"])
                .args(["--test-threads=1"])
                .env("UPDATE_BOOK", "1"),
        )?;
    }
    charts::write(&repo_root())?;
    let out = build()?;
    eprintln!("book: built in {}", out.join("index.html").display());
    Ok(())
}

/// What `cargo xtask test` runs: the charts are the figures', the book
/// builds, and no link of it is broken.
pub fn check() -> Result<()> {
    charts::check(&repo_root())?;
    build().map(|_| ())
}

/// The directory the book is built into.
pub fn out_dir() -> PathBuf {
    target_dir().join("book")
}

/// Builds the book into [`out_dir`] and checks its links.
fn build() -> Result<PathBuf> {
    let mdbook = install()?;
    let out = out_dir();
    let _ = std::fs::remove_dir_all(&out);
    let mut cmd = Command::new(&mdbook);
    cmd.arg("build")
        .arg(repo_root().join("docs"))
        .arg("--dest-dir")
        .arg(&out);
    eprintln!("\n$ {}", format!("{cmd:?}").replace('"', ""));
    let run = cmd
        .output()
        .with_context(|| format!("could not start {}", mdbook.display()))?;
    let log = String::from_utf8_lossy(&run.stderr);
    eprint!("{log}");
    if !run.status.success() {
        bail!("mdbook build failed with {}", run.status);
    }
    let mut problems = check_links(&out)?;
    // A warning is content lost or mangled (an unclosed tag, a missing
    // file): fail on it as on a broken link.
    problems.extend(
        log.lines()
            .filter(|l| l.contains("WARN") || l.contains("ERROR"))
            .map(|l| format!("mdbook: {}", l.trim())),
    );
    problems.extend(unbuilt_pages(&repo_root().join("docs/src"), &out));
    if !problems.is_empty() {
        bail!(
            "the book has {} broken link(s) or unbuilt page(s):\n  {}",
            problems.len(),
            problems.join("\n  ")
        );
    }
    eprintln!("book: every internal link and image resolves");
    Ok(out)
}

/// The pinned mdBook, built by `cargo install` into the target directory
/// the first time (no default features but search: no file watcher, no
/// server).
fn install() -> Result<PathBuf> {
    let root = target_dir().join(format!("tools/mdbook-{MDBOOK_VERSION}"));
    let bin = root.join("bin/mdbook");
    if bin.is_file() {
        return Ok(bin);
    }
    let build_dir = target_dir().join("tools/build");
    std::fs::create_dir_all(&build_dir)?;
    run_cmd(
        cargo()
            .args(["install", "mdbook", "--locked", "--version", MDBOOK_VERSION])
            .args(["--no-default-features", "--features", "search"])
            .arg("--root")
            .arg(&root)
            .arg("--target-dir")
            .arg(&build_dir)
            // Outside the workspace, so none of its cargo settings (the
            // build target's CPU level) applies to the tool.
            .current_dir(&build_dir),
    )?;
    if !bin.is_file() {
        bail!("cargo install left no {}", bin.display());
    }
    // The intermediate build is not needed again (hundreds of MB).
    let _ = std::fs::remove_dir_all(&build_dir);
    Ok(bin)
}

/// Every `href` and `src` of the HTML files under `out` that points inside
/// the book and does not resolve: a missing file, or a `#fragment` that is
/// no `id` of its page.
pub fn check_links(out: &Path) -> Result<Vec<String>> {
    let mut pages = Vec::new();
    walk(out, &mut pages)?;
    let mut ids: BTreeMap<PathBuf, BTreeSet<String>> = BTreeMap::new();
    let mut problems = Vec::new();
    // The 404 page links by the site's root URL, known only where the book
    // is published.
    let not_found = out.join("404.html");
    for page in pages.iter().filter(|p| is_html(p) && **p != not_found) {
        let html =
            std::fs::read_to_string(page).with_context(|| format!("reading {}", page.display()))?;
        for link in attributes(&html, &["href", "src"]) {
            let Some(target) = internal(&link) else {
                continue;
            };
            let (path, fragment) = match target.split_once('#') {
                Some((p, f)) => (p, Some(f)),
                None => (target.as_str(), None),
            };
            let path = path.split('?').next().unwrap_or_default();
            let file = if path.is_empty() {
                page.clone()
            } else {
                let joined = page.parent().unwrap_or(out).join(percent_decode(path));
                if path.ends_with('/') {
                    joined.join("index.html")
                } else {
                    joined
                }
            };
            let file = normalise(&file);
            let shown = page.strip_prefix(out).unwrap_or(page).display().to_string();
            if !file.starts_with(out) || !file.is_file() {
                problems.push(format!("{shown}: {link} (no such file)"));
                continue;
            }
            if let Some(f) = fragment.filter(|f| !f.is_empty() && is_html(&file)) {
                let known = match ids.get(&file) {
                    Some(known) => known,
                    None => {
                        let text = std::fs::read_to_string(&file)?;
                        let set = attributes(&text, &["id"]).into_iter().collect();
                        ids.entry(file.clone()).or_insert(set)
                    }
                };
                if !known.contains(&percent_decode(f)) {
                    problems.push(format!("{shown}: {link} (no such anchor)"));
                }
            }
        }
    }
    Ok(problems)
}

/// The Markdown pages under `src` that have no built HTML page in `out`.
fn unbuilt_pages(src: &Path, out: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let _ = walk(src, &mut files);
    files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "md"))
        .filter_map(|f| f.strip_prefix(src).ok())
        .filter(|rel| *rel != Path::new("SUMMARY.md"))
        .filter(|rel| !out.join(rel.with_extension("html")).is_file())
        .map(|rel| {
            format!(
                "docs/src/{}: not in the book (add it to SUMMARY.md)",
                rel.display()
            )
        })
        .collect()
}

fn is_html(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "html")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for e in std::fs::read_dir(dir).with_context(|| format!("reading {}", dir.display()))? {
        let p = e?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else {
            out.push(p);
        }
    }
    out.sort();
    Ok(())
}

/// A link that points inside the book, without its scheme-less forms of
/// elsewhere: `None` for `http:`, `mailto:`, `data:`, `//host`, and for
/// the script-made `javascript:` links.
fn internal(link: &str) -> Option<String> {
    let l = link.trim();
    let lower = l.to_ascii_lowercase();
    let external = l.is_empty()
        || l.starts_with("//")
        || [
            "http:",
            "https:",
            "mailto:",
            "data:",
            "javascript:",
            "blob:",
        ]
        .iter()
        .any(|s| lower.starts_with(s));
    (!external).then(|| html_unescape(l))
}

/// The values of the named attributes in `html` (double- or single-quoted).
fn attributes(html: &str, names: &[&str]) -> Vec<String> {
    let bytes = html.as_bytes();
    let mut out = Vec::new();
    for name in names {
        let pat = format!("{name}=");
        let mut from = 0;
        while let Some(i) = html[from..].find(&pat) {
            let at = from + i;
            from = at + pat.len();
            // The attribute name must start after a space (not `data-src=`).
            if at > 0 && !bytes[at - 1].is_ascii_whitespace() {
                continue;
            }
            let Some(&q) = bytes.get(from) else { break };
            if q != b'"' && q != b'\'' {
                continue;
            }
            if let Some(end) = html[from + 1..].find(q as char) {
                out.push(html[from + 1..from + 1 + end].to_owned());
                from += end + 2;
            }
        }
    }
    out
}

fn html_unescape(s: &str) -> String {
    s.replace("&amp;", "&")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `a/b/../c` → `a/c`, without touching the file system.
fn normalise(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broken_links_images_and_anchors_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::create_dir_all(out.join("endpoints/previews")).unwrap();
        std::fs::write(out.join("endpoints/previews/a.png"), b"png").unwrap();
        std::fs::write(
            out.join("endpoints/misc.html"),
            r##"<h2 id="circle">x</h2><img src="previews/a.png"><img src="previews/b.png">
               <a href="../index.html#top">up</a><a href="#circle">here</a><a href="#square">gone</a>
               <a href="https://example.com/x">out</a><a data-href="nope.html">ignored</a>
               <a href='../missing.html'>missing</a><a href="../index.html#nothing">no anchor</a>"##,
        )
        .unwrap();
        std::fs::write(
            out.join("index.html"),
            r##"<p id="top"></p><a href="endpoints/misc.html#circle">ok</a><a href="endpoints/">dir</a>"##,
        )
        .unwrap();
        let mut problems = check_links(out).unwrap();
        problems.sort();
        assert_eq!(
            problems,
            [
                "endpoints/misc.html: #square (no such anchor)",
                "endpoints/misc.html: ../index.html#nothing (no such anchor)",
                "endpoints/misc.html: ../missing.html (no such file)",
                "endpoints/misc.html: previews/b.png (no such file)",
                "index.html: endpoints/ (no such file)",
            ]
        );
    }

    #[test]
    fn a_page_missing_from_the_summary_is_found() {
        let dir = tempfile::tempdir().unwrap();
        let (src, out) = (dir.path().join("src"), dir.path().join("out"));
        std::fs::create_dir_all(src.join("endpoints")).unwrap();
        std::fs::create_dir_all(out.join("endpoints")).unwrap();
        for f in ["SUMMARY.md", "intro.md", "endpoints/a.md", "endpoints/b.md"] {
            std::fs::write(src.join(f), "# x").unwrap();
        }
        for f in ["intro.html", "endpoints/a.html"] {
            std::fs::write(out.join(f), "x").unwrap();
        }
        assert_eq!(
            unbuilt_pages(&src, &out),
            ["docs/src/endpoints/b.md: not in the book (add it to SUMMARY.md)"]
        );
    }
}
