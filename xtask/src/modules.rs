//! The import rules of every crate of the repository, read from the
//! sources by one scanner:
//! - no two modules with the same parent (the top-level modules of a
//!   crate, or the submodules of one module) import each other, directly
//!   or through others ("a cycle is a design bug");
//! - the server's modules run one way, in layers ([`SERVER_LAYERS`],
//!   ARCHITECTURE.md "Layers"): a module names only modules of its own
//!   layer or below, and a new top-level module must be given a layer.
//!
//! A module is a file under `src/` (`src/x.rs`, `src/x/y.rs`, `…/mod.rs`);
//! it imports another when its code (comment lines left out: doc links
//! may name any module) names it by a path from `crate::`, `super::` or
//! `self::`; what a submodule names counts for each module above it. A
//! module naming its parent or its own children is no import: a parent
//! declares and re-exports its children (the crate root is left out).

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

/// The paths of the use tree at the start of `s`, each appended to `base`
/// (`a::b` gives `a::b`; `{a, b::{c, d}}` gives `a`, `b::c` and `b::d`),
/// into `out`; returns how many bytes of `s` the tree took.
fn use_tree(s: &str, mut base: Vec<String>, out: &mut Vec<Vec<String>>) -> usize {
    let mut at = 0;
    loop {
        let rest = &s[at..];
        if let Some(group) = rest.strip_prefix('{') {
            at += 1;
            let mut inner = group;
            loop {
                let skipped = inner.len() - inner.trim_start().len();
                at += skipped;
                inner = &inner[skipped..];
                if inner.is_empty() || inner.starts_with('}') {
                    break;
                }
                let took = use_tree(inner, base.clone(), out);
                at += took;
                inner = &inner[took..];
                let skipped = inner.len() - inner.trim_start().len();
                at += skipped;
                inner = &inner[skipped..];
                match inner.strip_prefix(',') {
                    Some(after) if took > 0 => {
                        at += 1;
                        inner = after;
                    }
                    _ => break,
                }
            }
            if inner.starts_with('}') {
                at += 1;
            }
            return at;
        }
        let id = ident(rest);
        if id.is_empty() {
            out.push(base);
            return at;
        }
        base.push(id.to_owned());
        at += id.len();
        if s[at..].starts_with("::") {
            at += 2;
        } else {
            out.push(base);
            return at;
        }
    }
}

/// The paths after each `prefix` in `code`, as segments: `crate::a::b`
/// gives `a::b`, `crate::{a, b::c}` gives `a` and `b::c`.
fn paths_after(code: &str, prefix: &str, out: &mut Vec<Vec<String>>) {
    let mut rest = code;
    while let Some(i) = rest.find(prefix) {
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        use_tree(rest, Vec::new(), out);
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

/// A module's path below the crate root: `template::art` is
/// `["template", "art"]`, from `src/template/art.rs` or
/// `src/template/art/mod.rs`; the crate root (`lib.rs`, `main.rs`) is empty.
type ModPath = Vec<String>;

/// The module of the file `file` of the crate whose sources are in `src`.
fn module_path(src: &Path, file: &Path) -> Option<ModPath> {
    let relative = file.strip_prefix(src).ok()?;
    let mut parts = relative
        .components()
        .map(|c| c.as_os_str().to_str().map(str::to_owned))
        .collect::<Option<Vec<String>>>()?;
    let last = parts.pop()?;
    match last.as_str() {
        "lib.rs" | "main.rs" if parts.is_empty() => {}
        "mod.rs" => {}
        f => parts.push(f.strip_suffix(".rs")?.to_owned()),
    }
    Some(parts)
}

/// The import graphs of a crate whose sources are in `src`, one for each
/// module with submodules (the crate root's is keyed by the empty path):
/// its submodules, each with the submodules it names. A name anywhere in a
/// submodule or below it counts for that submodule (`template::art::rank`
/// naming `template::backdrops` is `art` importing `backdrops`); a module
/// naming its own parent, or a child of its own, is no edge (a parent
/// declares and re-exports its children).
fn graphs(src: &Path) -> BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let files: Vec<(ModPath, &PathBuf)> = files
        .iter()
        .filter_map(|f| Some((module_path(src, f)?, f)))
        .collect();
    let modules: BTreeSet<&ModPath> = files.iter().map(|(m, _)| m).collect();
    let mut graphs: BTreeMap<ModPath, BTreeMap<String, BTreeSet<String>>> = BTreeMap::new();
    for m in &modules {
        if let Some((name, parent)) = m.split_last() {
            graphs
                .entry(parent.to_vec())
                .or_default()
                .entry(name.clone())
                .or_default();
        }
    }
    for (module, file) in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut named: Vec<Vec<String>> = Vec::new();
        paths_after(&code, "crate::", &mut named);
        // Relative paths in an inline module (`mod tests { … }`, from its
        // line on) start from it.
        let inline = code.find("\nmod ").and_then(|i| {
            let rest = &code[i + 5..];
            let name = ident(rest);
            rest[name.len()..]
                .trim_start()
                .starts_with('{')
                .then(|| (i, name.to_owned()))
        });
        let sections = match inline {
            Some((i, name)) => vec![
                (module.clone(), &code[..i]),
                ([module.clone(), vec![name]].concat(), &code[i..]),
            ],
            None => vec![(module.clone(), &code[..])],
        };
        for (base, code) in sections {
            let mut relative = Vec::new();
            paths_after(code, "super::", &mut relative);
            for path in relative {
                // `super::super::x` from `a::b::c` is `a::x`.
                let ups = 1 + path.iter().take_while(|s| *s == "super").count();
                let Some(keep) = base.len().checked_sub(ups) else {
                    continue;
                };
                let mut absolute = base[..keep].to_vec();
                absolute.extend(path.into_iter().skip(ups - 1));
                named.push(absolute);
            }
            let mut own = Vec::new();
            paths_after(code, "self::", &mut own);
            named.extend(own.into_iter().map(|path| [base.clone(), path].concat()));
        }
        for path in named {
            // The module named: the longest start of the path that is one.
            let path: Vec<String> = path.into_iter().filter(|s| s != "self").collect();
            let Some(target) = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|p| modules.contains(p))
            else {
                continue;
            };
            let shared = module
                .iter()
                .zip(&target)
                .take_while(|(a, b)| a == b)
                .count();
            if shared < module.len() && shared < target.len() {
                graphs
                    .entry(module[..shared].to_vec())
                    .or_default()
                    .entry(module[shared].clone())
                    .or_default()
                    .insert(target[shared].clone());
            }
        }
    }
    graphs
}

/// The import graph of the top-level modules of the crate whose sources
/// are in `src`.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    graphs(src).remove(&Vec::new()).unwrap_or_default()
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
        let found = graphs(&src).into_iter().flat_map(|(parent, graph)| {
            cycles(&graph).into_iter().map(move |cycle| {
                cycle
                    .into_iter()
                    .map(|m| [parent.as_slice(), &[m]].concat().join("::"))
                    .collect::<Vec<_>>()
            })
        });
        for cycle in found {
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

#[test]
fn the_check_sees_cycles_between_submodules() {
    let dir = std::env::temp_dir().join(format!("xtask-subcycles-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("t/a")).unwrap();
    let write = |f: &str, text: &str| std::fs::write(dir.join(f), text).unwrap();
    write("lib.rs", "mod t;\n");
    // A parent naming its children and children naming their parent: no
    // edges.
    write(
        "t.rs",
        "mod a; mod b; mod c;\npub use self::a::X;\nuse b::Y;\n",
    );
    write("t/a.rs", "mod deep;\nuse super::Lcg;\n");
    // A sibling named from below a module counts for the module.
    write("t/a/deep.rs", "fn f() { super::super::b::g() }\n");
    write("t/b.rs", "use crate::t::a::X;\n");
    // `self` in a group names the parent; an inline module's `super` is
    // the file's module.
    write(
        "t/c.rs",
        "use crate::{t::{self, b}};\n#[cfg(test)]\nmod tests {\n    use super::a::X;\n}\n",
    );
    let g = graphs(&dir);
    let t = &g[&vec!["t".to_owned()]];
    assert_eq!(cycles(t), vec![vec!["a".to_owned(), "b".to_owned()]]);
    assert_eq!(t["c"], BTreeSet::from(["b".to_owned()]));
    assert_eq!(g[&Vec::new()]["t"], BTreeSet::new());
    assert!(cycles(&g[&vec!["t".to_owned(), "a".to_owned()]]).is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}
