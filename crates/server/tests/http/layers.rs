//! The server's layers, one direction (ARCHITECTURE.md, "Layers"): every
//! `crate::` path in `src/` (and `super::` from a top-level module) is read,
//! and a module that names a module of a higher layer fails the test, as
//! does a cycle between modules of one layer.
//!
//! Ranks, lowest first; a module may name modules of its own rank or below:
//! 0. bottom: `catalogue`, `conditional`, `config`, `error`, `metrics`,
//!    `ratelimit`, `telemetry` (and the domain crates);
//! 1. `engine`: the work and start-up;
//! 2. `routing`: route-building functions of the HTTP layer;
//! 3. `http_guard`, `middleware`, `openapi`, `playground`;
//! 4. `routes`;
//! 5. the crate root (`lib.rs`, `create_app`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every top-level module of the server with its rank.
const LAYERS: &[(&str, u8)] = &[
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
    (ROOT, 5),
];

/// The crate root's name in this test.
const ROOT: &str = "lib";

fn rank(module: &str) -> Option<u8> {
    LAYERS.iter().find(|(m, _)| *m == module).map(|(_, r)| *r)
}

/// The top-level module a source file belongs to (`engine/canvas.rs` →
/// `engine`, `lib.rs` → the root); `None` for `main.rs`, the binary, which
/// uses the library by its crate name.
fn module_of(relative: &Path) -> Option<String> {
    let first = relative.components().next()?.as_os_str().to_str()?;
    match first {
        "main.rs" => None,
        "lib.rs" => Some(ROOT.to_owned()),
        f => Some(f.trim_end_matches(".rs").to_owned()),
    }
}

/// The code of a file without its comment lines (doc links may name any
/// module).
fn code(text: &str) -> String {
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first identifier of `s`.
fn ident(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    &s[..end]
}

/// The top-level modules named after each `prefix` in `code`:
/// `crate::a::b` gives `a`, `crate::{a, b::c}` gives `a` and `b`.
fn named_after(code: &str, prefix: &str, out: &mut BTreeSet<String>) {
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue; // `my_crate::`, `a::crate::` ...
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

/// The modules `text` (the file at `relative`) names.
fn imports(relative: &Path, text: &str) -> BTreeSet<String> {
    let code = code(text);
    let mut out = BTreeSet::new();
    named_after(&code, "crate::", &mut out);
    // In `x.rs` or `x/mod.rs`, `super` is the crate root.
    let top_level = relative.components().count() == 1
        || (relative.components().count() == 2 && relative.ends_with("mod.rs"));
    if top_level {
        named_after(&code, "super::", &mut out);
    }
    out.retain(|m| !m.is_empty() && m != "self" && m != "super");
    out
}

/// Every rule broken by `files` (path relative to `src/`, text).
fn violations(files: &[(PathBuf, String)]) -> Vec<String> {
    let mut errors = Vec::new();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (path, text) in files {
        let Some(module) = module_of(path) else {
            continue;
        };
        let Some(own) = rank(&module) else {
            errors.push(format!(
                "{}: module `{module}` is in no layer (add it to LAYERS and ARCHITECTURE.md)",
                path.display()
            ));
            continue;
        };
        for used in imports(path, text) {
            if used == module {
                continue;
            }
            let Some(theirs) = rank(&used) else {
                continue; // an item of the root, or a macro path
            };
            if theirs > own {
                errors.push(format!(
                    "{}: `{module}` (layer {own}) imports `{used}` (layer {theirs}), a layer above it",
                    path.display()
                ));
            }
            graph.entry(module.clone()).or_default().insert(used);
        }
    }
    for start in graph.keys() {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<&String> = graph[start].iter().collect();
        while let Some(m) = todo.pop() {
            if m == start {
                errors.push(format!("`{start}` imports itself through a cycle"));
                break;
            }
            if seen.insert(m) {
                todo.extend(graph.get(m).into_iter().flatten());
            }
        }
    }
    errors
}

fn sources(dir: &Path, root: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            out.push((path.strip_prefix(root).unwrap().to_path_buf(), text));
        }
    }
}

#[test]
fn no_module_imports_from_a_layer_above_it() {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &src, &mut files);
    assert!(files.len() > 20, "read the server's sources");
    let modules: BTreeSet<_> = files.iter().filter_map(|(p, _)| module_of(p)).collect();
    for (m, _) in LAYERS {
        assert!(
            modules.contains(*m),
            "LAYERS names `{m}`, which has no file"
        );
    }
    let errors = violations(&files);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_check_sees_back_imports_groups_super_and_cycles() {
    let file = |p: &str, t: &str| (PathBuf::from(p), t.to_owned());
    let clean = [
        file("metrics.rs", "use crate::config::Settings;"),
        file(
            "engine/canvas.rs",
            "use super::render_pool::RenderPool;\nuse crate::metrics::Metrics;",
        ),
        file("routes/mod.rs", "pub use crate::routing::get;"),
        file("lib.rs", "pub mod routes;\nuse crate::routes::configure;"),
        file("main.rs", "use server::routes;"),
        file("error.rs", "/// See [`crate::routes`].\nfn f() {}"),
    ];
    assert_eq!(violations(&clean), Vec::<String>::new());

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
        let errors = violations(&[file(path, text)]);
        assert!(!errors.is_empty(), "{path}: {text}");
    }
    let cycle = [
        file("config.rs", "use crate::ratelimit::Cidr;"),
        file("ratelimit.rs", "use crate::config::Settings;"),
    ];
    let errors = violations(&cycle);
    assert!(errors.iter().any(|e| e.contains("cycle")), "{errors:?}");
}
