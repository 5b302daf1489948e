//! Repository-wide rules checked as tests.

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;

use crate::cargo;
// The crates published for other projects: their `rust-version` and licence
// must be true.
use crate::package::PUBLISHED;

/// Crates that hold domain logic and must know nothing of HTTP serving.
const DOMAIN_CRATES: &[&str] = &[
    "colour",
    "canvas-render",
    "reference-db",
    "content",
    "remote-image",
];

/// HTTP-server frameworks, their building blocks and API-description crates
/// that no domain crate may depend on, directly or transitively.
const FORBIDDEN: &[&str] = &[
    "actix-web",
    "actix-http",
    "actix-server",
    "actix-router",
    "axum",
    "hyper",
    "warp",
    "rocket",
    "tide",
    "poem",
    "salvo",
    "tower-http",
    "utoipa",
    "tiny_http",
];

fn metadata() -> Value {
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--locked"])
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON")
}

/// Names of every package reachable from `root` over normal and build
/// dependencies (dev-dependencies are not part of what users get).
fn runtime_closure(meta: &Value, root: &str) -> BTreeSet<String> {
    let name_of: HashMap<&str, &str> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["id"].as_str().unwrap(), p["name"].as_str().unwrap()))
        .collect();
    let nodes: HashMap<&str, &Value> = meta["resolve"]["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| (n["id"].as_str().unwrap(), n))
        .collect();
    let start = name_of
        .iter()
        .find(|(_, n)| **n == root)
        .map(|(id, _)| *id)
        .unwrap_or_else(|| panic!("{root} is a workspace package"));
    let mut seen = BTreeSet::new();
    let mut stack = vec![start];
    let mut names = BTreeSet::new();
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        names.insert(name_of[id].to_owned());
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let runtime = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null() || k["kind"] == "build");
            if runtime {
                stack.push(dep["pkg"].as_str().unwrap());
            }
        }
    }
    names
}

#[test]
fn domain_crates_know_nothing_of_http_serving() {
    let meta = metadata();
    let mut problems = Vec::new();
    for krate in DOMAIN_CRATES {
        let deps = runtime_closure(&meta, krate);
        for bad in FORBIDDEN {
            if deps.contains(*bad) {
                problems.push(format!("{krate} depends on {bad}"));
            }
        }
        // Domain crates must not depend on the server crate either.
        if deps.contains("server") {
            problems.push(format!("{krate} depends on the server crate"));
        }
    }
    assert!(
        problems.is_empty(),
        "forbidden dependencies:\n{}",
        problems.join("\n")
    );
}

#[test]
fn only_the_server_uses_actix() {
    let meta = metadata();
    let closure = runtime_closure(&meta, "server");
    assert!(
        closure.contains("actix-web"),
        "the check sees the server's actix-web"
    );
}

/// A `rust-version` as (major, minor, patch); missing parts are 0.
fn rust_version(v: &str) -> (u32, u32, u32) {
    let mut parts = v.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let mut next = || parts.next().unwrap_or(0);
    (next(), next(), next())
}

#[test]
fn no_dependency_needs_a_newer_rust_than_our_rust_version() {
    let meta = metadata();
    let packages = meta["packages"].as_array().unwrap();
    let declared = |name: &str| {
        packages
            .iter()
            .find(|p| p["name"] == name && p["source"].is_null())
            .unwrap_or_else(|| panic!("{name} is a workspace package"))["rust_version"]
            .as_str()
            .unwrap_or_else(|| panic!("{name} declares a rust-version"))
            .to_owned()
    };
    let ours = declared("canvas-render");
    for krate in PUBLISHED {
        assert_eq!(
            declared(krate),
            ours,
            "{krate} shares the workspace's rust-version"
        );
    }
    // Every package in Cargo.lock (registry or git), whatever the target or kind.
    let mut newer: Vec<String> = packages
        .iter()
        .filter(|p| !p["source"].is_null())
        .filter_map(|p| {
            let theirs = p["rust_version"].as_str()?;
            let (name, version) = (p["name"].as_str()?, p["version"].as_str()?);
            (rust_version(theirs) > rust_version(&ours))
                .then(|| format!("{name} {version} needs Rust {theirs}"))
        })
        .collect();
    newer.sort();
    assert!(
        newer.is_empty(),
        "rust-version is {ours} but Cargo.lock holds:\n{}",
        newer.join("\n")
    );
}

#[test]
fn published_crates_ship_the_licence_texts() {
    let root = crate::repo_root();
    for name in ["LICENSE-MIT", "LICENSE-APACHE"] {
        let text = std::fs::read_to_string(root.join(name))
            .unwrap_or_else(|e| panic!("{name} at the workspace root: {e}"));
        for krate in PUBLISHED {
            let dir = root.join("crates").join(krate);
            let copy = std::fs::read_to_string(dir.join(name))
                .unwrap_or_else(|e| panic!("{krate}/{name}: {e}"));
            assert_eq!(copy, text, "{krate}/{name} is the workspace's text");
            let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
            assert!(
                manifest.contains(&format!("\"{name}\"")),
                "{krate}'s package `include` lists {name}"
            );
        }
    }
}

/// Every workspace crate is either published (in `PUBLISHED`, checked by the
/// dry-run publish) or says `publish = false`.
#[test]
fn unpublished_crates_say_so() {
    let meta = metadata();
    let members: Vec<&Value> = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["source"].is_null())
        .collect();
    for p in members {
        let name = p["name"].as_str().unwrap();
        let unpublished = p["publish"].as_array().is_some_and(|r| r.is_empty());
        assert_eq!(
            unpublished,
            !PUBLISHED.contains(&name),
            "{name}: `publish = false` exactly when it is not in xtask's PUBLISHED"
        );
    }
}

/// Every font file a published crate ships has its licence beside it: a
/// `LICENSE-*` file in the same directory that names it, packed too.
#[test]
fn published_fonts_carry_their_licences() {
    let root = crate::repo_root();
    let mut fonts = 0;
    for krate in PUBLISHED {
        let dir = root.join("crates").join(krate);
        let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        let mut stack = vec![dir.clone()];
        while let Some(d) = stack.pop() {
            let entries: Vec<_> = std::fs::read_dir(&d)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            let licences: Vec<String> = entries
                .iter()
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.starts_with("LICENSE-") && n.ends_with(".txt"))
                })
                .map(|p| std::fs::read_to_string(p).unwrap())
                .collect();
            for p in entries {
                if p.is_dir() && !p.ends_with("target") {
                    stack.push(p);
                    continue;
                }
                let name = p.file_name().unwrap().to_str().unwrap();
                if !(name.ends_with(".ttf") || name.ends_with(".otf") || name.ends_with(".ttc")) {
                    continue;
                }
                fonts += 1;
                assert!(
                    licences.iter().any(|l| l.contains(name)),
                    "{}: no LICENSE-*.txt beside it names it",
                    p.display()
                );
                let rel = d.strip_prefix(&dir).unwrap().to_str().unwrap().to_owned();
                assert!(
                    manifest.contains(&format!("\"{rel}/**\"")),
                    "{krate}'s package `include` lists {rel}/**"
                );
            }
        }
    }
    assert!(fonts >= 23, "the bundled fonts were found ({fonts})");
}

/// Where the files beside CI's clone may be named: the data step (one of
/// its sources) and the optional peer comparisons, run by hand, that find
/// the sharp and Pillow peers there. Everything a test, bench or example
/// runs takes its pictures and data from the repository, so the test
/// command passes on a clone with nothing beside it.
const MAY_NAME_SHARED: &[&str] = &[
    "xtask/src/data/",
    "xtask/src/bench_compare.rs",
    "xtask/src/tidy.rs",
    "crates/server/benches/load/",
    "crates/canvas-render/benches/compare_pillow.py",
];

/// The files of the repository that tests, benches, examples and the
/// test command's scripts are made of (tracked or not, ignored ones left
/// out), by path from the root.
fn code_files() -> Vec<String> {
    let out = std::process::Command::new("git")
        .args([
            "ls-files",
            "--cached",
            "--others",
            "--exclude-standard",
            "--",
            "crates",
            "xtask",
            "examples",
            "fuzz",
            "e2e",
            "scripts",
            "justfile",
            ".ci",
        ])
        .current_dir(crate::repo_root())
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git ls-files failed");
    String::from_utf8(out.stdout)
        .expect("UTF-8 paths")
        .lines()
        .filter(|p| {
            let ext = p.rsplit('.').next().unwrap_or("");
            matches!(ext, "rs" | "sh" | "py" | "js" | "mjs" | "lua" | "toml")
                || p.ends_with("justfile")
                || p.starts_with(".ci/")
        })
        .map(str::to_owned)
        .collect()
}

/// Whether `text` names a path into the folder beside CI's clone.
fn names_shared(text: &str) -> bool {
    ["../shared", "shared/bench", "shared/data", "/work/shared"]
        .iter()
        .any(|p| text.contains(p))
}

#[test]
fn only_the_data_step_and_peer_comparisons_name_the_folder_beside_the_clone() {
    let root = crate::repo_root();
    let files = code_files();
    assert!(
        files.iter().any(|f| f.ends_with("benches/encode.rs")),
        "the walk finds the benches"
    );
    let offenders: Vec<String> = files
        .iter()
        .filter(|f| !MAY_NAME_SHARED.iter().any(|ok| f.starts_with(ok)))
        .filter(|f| std::fs::read_to_string(root.join(f)).is_ok_and(|text| names_shared(&text)))
        .cloned()
        .collect();
    assert!(
        offenders.is_empty(),
        "these files name ../shared, which a user's clone does not have (only the \
         data step and the peer comparisons may): {offenders:?}"
    );
}

#[test]
fn the_shared_folder_check_sees_a_bench_that_names_it() {
    assert!(names_shared(
        r#"root.join("..").join("shared/bench/avatars/avatar_512.png")"#
    ));
    assert!(names_shared("Path::new(\"../shared\")"));
    assert!(!names_shared("shared state of the limiter"));
}

/// The relative links and image sources of a Markdown file (`](target)`
/// and `src="target"`), without their `#anchor`.
fn relative_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (open, close) in [("](", ')'), ("src=\"", '"')] {
        let mut rest = text;
        while let Some(i) = rest.find(open) {
            rest = &rest[i + open.len()..];
            let Some(end) = rest.find(close) else { break };
            let target = &rest[..end];
            let path = target.split('#').next().unwrap_or_default();
            if !path.is_empty() && !path.contains("://") && !path.starts_with("mailto:") {
                out.push(path.to_owned());
            }
        }
    }
    out
}

#[test]
fn the_readme_and_architecture_link_to_files_that_exist() {
    let root = crate::repo_root();
    for doc in ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"] {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let links = relative_links(&text);
        assert!(!links.is_empty(), "{doc} links somewhere");
        let broken: Vec<_> = links.iter().filter(|l| !root.join(l).exists()).collect();
        assert!(
            broken.is_empty(),
            "{doc} links to missing files: {broken:?}"
        );
    }
    assert_eq!(
        relative_links("[a](docs/x.md#y) ![b](img.png) <img src=\"p.gif\"> [c](https://e.org)"),
        ["docs/x.md", "img.png", "p.gif"]
    );
}
