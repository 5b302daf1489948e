//! The import rules of every crate of the repository, read from the
//! sources by one scanner:
//! - no two top-level modules of a crate import each other, directly or
//!   through others ("a cycle is a design bug");
//! - the server's modules run one way, in layers ([`SERVER_LAYERS`],
//!   ARCHITECTURE.md "Layers"): a module names only modules of its own
//!   layer or below, and a new top-level module must be given a layer.
//!
//! A module is a file under `src/` (`src/x.rs`, `src/x/…`); it imports
//! another when its code (comment lines left out: doc links may name any
//! module) names `crate::other` or, in a top-level file, `super::other`.
//! The crate root is left out: it declares and re-exports every module.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::repo_root;

/// Cycles allowed to remain (each crate and its modules, sorted): none.
/// A cycle found fails the test.
const KNOWN: &[(&str, &[&str])] = &[];

/// The server's top-level modules with their layer, lowest first; a module
/// may name modules of its own layer or below. The crate root (`lib.rs`,
/// `create_app`) is above them all and left out, as `main.rs` is (the
/// binary uses the library by its crate name).
/// 0. bottom: the settings, errors, metrics, rate limiter, catalogue,
///    conditional requests and telemetry (and the domain crates);
/// 1. `engine`: the work and start-up;
/// 2. `routing`: route-building functions of the HTTP layer;
/// 3. `http_guard`, `middleware`, `openapi`, `playground`;
/// 4. `routes`.
pub const SERVER_LAYERS: &[(&str, u8)] = &[
    ("catalogue", 0),
    ("conditional", 0),
    ("config", 0),
    ("error", 0),
    ("metrics", 0),
    ("ratelimit", 0),
    ("telemetry", 0),
    ("engine", 1),
    ("routing", 2),
    ("http_guard", 3),
    ("middleware", 3),
    ("openapi", 3),
    ("playground", 3),
    ("routes", 4),
];

/// Every break of `layers` in `graph`: a module that names one of a higher
/// layer, and a module that is in no layer.
fn layer_violations(
    graph: &BTreeMap<String, BTreeSet<String>>,
    layers: &[(&str, u8)],
) -> Vec<String> {
    let rank = |m: &str| layers.iter().find(|(l, _)| *l == m).map(|(_, r)| *r);
    let mut errors = Vec::new();
    for (module, used) in graph {
        let Some(own) = rank(module) else {
            errors.push(format!(
                "module `{module}` is in no layer (add it to SERVER_LAYERS and ARCHITECTURE.md)"
            ));
            continue;
        };
        for u in used {
            if let Some(theirs) = rank(u).filter(|&r| r > own) {
                errors.push(format!(
                    "`{module}` (layer {own}) imports `{u}` (layer {theirs}), a layer above it"
                ));
            }
        }
    }
    errors
}

/// The first identifier of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The names after each `prefix` in `code`: `crate::a::b` gives `a`,
/// `crate::{a, b::c}` gives `a` and `b`.
fn named_after(code: &str, prefix: &str, out: &mut BTreeSet<String>) {
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 0usize;
            let mut start = true;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && !c.is_whitespace() => {
                        out.insert(ident(&group[j..]).to_owned());
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest).to_owned());
        }
    }
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The import graph of the top-level modules of the crate whose sources
/// are in `src`.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let module_of = |path: &Path| -> Option<String> {
        let relative = path.strip_prefix(src).ok()?;
        let first = relative.components().next()?.as_os_str().to_str()?;
        match first {
            "lib.rs" | "main.rs" => None,
            f => Some(f.trim_end_matches(".rs").to_owned()),
        }
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|f| module_of(f)).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in &files {
        let Some(module) = module_of(file) else {
            continue;
        };
        let text = std::fs::read_to_string(file).unwrap();
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut named = BTreeSet::new();
        named_after(&code, "crate::", &mut named);
        let top_level = file.parent() == Some(src) || file.ends_with(format!("{module}/mod.rs"));
        if top_level {
            named_after(&code, "super::", &mut named);
        }
        let edges = graph.entry(module.clone()).or_default();
        edges.extend(
            named
                .into_iter()
                .filter(|m| *m != module && modules.contains(m)),
        );
    }
    graph
}

/// The import cycles of `graph`: each strongly connected set of two
/// modules or more, sorted.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let reach = |from: &String| {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = graph.get(from).into_iter().flatten().collect();
        while let Some(m) = todo.pop() {
            if seen.insert(m.clone()) {
                todo.extend(graph.get(m).into_iter().flatten());
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<Vec<String>> = Vec::new();
    for (m, r) in &reaches {
        if !r.contains(*m) {
            continue;
        }
        let set: Vec<String> = r
            .iter()
            .filter(|o| reaches.get(o).is_some_and(|back| back.contains(*m)))
            .cloned()
            .collect();
        if !out.contains(&set) {
            out.push(set);
        }
    }
    out
}

/// Every crate's source directory: `crates/*/src` and `xtask/src`.
fn crate_sources() -> Vec<(String, PathBuf)> {
    let root = repo_root();
    let mut out = vec![("xtask".to_owned(), root.join("xtask/src"))];
    for entry in std::fs::read_dir(root.join("crates")).unwrap().flatten() {
        let src = entry.path().join("src");
        if src.is_dir() {
            out.push((entry.file_name().to_string_lossy().into_owned(), src));
        }
    }
    out.sort();
    out
}

#[test]
fn no_crate_has_an_import_cycle() {
    let mut errors = Vec::new();
    let mut checked = Vec::new();
    for (name, src) in crate_sources() {
        for cycle in cycles(&graph(&src)) {
            let known = KNOWN.iter().any(|(c, modules)| {
                *c == name && cycle.iter().map(String::as_str).eq(modules.iter().copied())
            });
            if !known {
                errors.push(format!(
                    "{name}: modules {} import each other",
                    cycle.join(", ")
                ));
            }
        }
        checked.push(name);
    }
    assert!(
        checked.iter().any(|c| c == "remote-image") && checked.iter().any(|c| c == "server"),
        "{checked:?}"
    );
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn no_server_module_imports_from_a_layer_above_it() {
    let src = repo_root().join("crates/server/src");
    let g = graph(&src);
    assert!(
        g.len() >= SERVER_LAYERS.len(),
        "read the server's sources: {g:?}"
    );
    for (m, _) in SERVER_LAYERS {
        assert!(
            g.contains_key(*m),
            "SERVER_LAYERS names `{m}`, which has no file"
        );
    }
    let errors = layer_violations(&g, SERVER_LAYERS);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_layer_check_sees_back_imports_groups_super_and_new_modules() {
    let dir = std::env::temp_dir().join(format!("xtask-layers-{}", std::process::id()));
    let check = |files: &[(&str, &str)]| {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("engine")).unwrap();
        std::fs::create_dir_all(dir.join("routes")).unwrap();
        for (f, text) in files {
            std::fs::write(dir.join(f), text).unwrap();
        }
        layer_violations(&graph(&dir), SERVER_LAYERS)
    };
    let clean = [
        ("lib.rs", "pub mod routes;\nuse crate::routes::configure;"),
        ("main.rs", "use server::routes;"),
        ("metrics.rs", "use crate::config::Settings;"),
        ("config.rs", "fn f() {}"),
        (
            "engine/canvas.rs",
            "use super::render_pool::RenderPool;\nuse crate::metrics::Metrics;",
        ),
        ("engine/mod.rs", "mod canvas;"),
        ("routing.rs", "fn g() {}"),
        ("middleware.rs", "fn h() {}"),
        ("routes/mod.rs", "pub use crate::routing::get;"),
        ("error.rs", "/// See [`crate::routes`].\nfn f() {}"),
    ];
    assert_eq!(check(&clean), Vec::<String>::new());
    for (path, text) in [
        ("metrics.rs", "use crate::routes;"),
        ("metrics.rs", "use crate::{config, engine::AppState};"),
        ("config.rs", "fn f() { crate::routing::get(\"/\", g); }"),
        ("metrics.rs", "use super::engine::AppState;"),
        ("engine/mod.rs", "use super::middleware::Hygiene;"),
        (
            "engine/canvas.rs",
            "use crate::{\n    config::Settings,\n    routes::canvas,\n};",
        ),
        ("newthing.rs", "fn f() {}"),
    ] {
        let mut files = clean.to_vec();
        files.retain(|(f, _)| *f != path);
        files.push((path, text));
        assert!(!check(&files).is_empty(), "{path}: {text}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_check_sees_cycles_through_paths_groups_and_super() {
    let dir = std::env::temp_dir().join(format!("xtask-cycles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("c")).unwrap();
    let write = |f: &str, text: &str| std::fs::write(dir.join(f), text).unwrap();
    write("lib.rs", "mod a; mod b; mod c; mod d;\npub use a::X;\n");
    write("a.rs", "use crate::{b::Y, FetchError};\n");
    write(
        "b.rs",
        "// crate::d in a comment is no import\nfn f() { super::c::z() }\n",
    );
    write("c/mod.rs", "mod inner;\n");
    write("c/inner.rs", "use crate::a::X;\n");
    write("d.rs", "use crate::a;\n");
    let g = graph(&dir);
    assert_eq!(
        cycles(&g),
        vec![vec!["a".to_owned(), "b".to_owned(), "c".to_owned()]]
    );
    assert!(!g["b"].contains("d"));
    std::fs::remove_dir_all(&dir).unwrap();
}
