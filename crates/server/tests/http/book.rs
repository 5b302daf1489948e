//! The book's endpoint reference (`docs/src/endpoints/`), generated from the
//! catalogue: one page per group (the OpenAPI tag), each endpoint with its
//! parameters, errors and preview images, and an index of the groups.
//!
//! The pages are written from the OpenAPI document built over the whole
//! catalogue ([`server::openapi::document`]), so the book, `/openapi.json`
//! and the playground read one list. The test fails when a committed page
//! differs from what the catalogue gives (an endpoint missing, a parameter
//! wrong, a page left over) or a preview image the pages show is missing.
//!
//! * **regenerate**: `cargo xtask book` (or `UPDATE_BOOK=1 cargo test -p
//!   server --test http book::`) rewrites the pages and renders the preview
//!   images through the server's own `/previews/...` route, scaled down to
//!   at most [`THUMB_WIDTH`] pixels wide (an animated preview is kept as
//!   its GIF, scaled down when large).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use actix_web::test as web;
use serde_json::Value;
use server::openapi;
use server::openapi::catalogue::{ENDPOINTS, FORMAT, Kind};
use server::{AppState, create_app};

use crate::support::{Reply, settings};

/// Widest preview image in the book, in pixels.
const THUMB_WIDTH: u32 = 256;
/// Width of an animated preview too large to keep as it is.
const GIF_WIDTH: u32 = 200;
/// Largest animated preview the book keeps as it is; a larger one is
/// scaled down to [`GIF_WIDTH`].
const GIF_MAX_BYTES: usize = 400 * 1024;
/// The errors every endpoint may answer, listed once on the index page.
const COMMON: [&str; 5] = ["401", "408", "414", "429", "431"];

/// The book's endpoint directory.
fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/src/endpoints")
}

fn updating() -> bool {
    std::env::var_os("UPDATE_BOOK").is_some_and(|v| v == "1")
}

/// The OpenAPI document over every catalogue entry (whatever this build's
/// settings register).
fn document() -> Value {
    let all: Vec<String> = ENDPOINTS.iter().map(|e| e.path.to_owned()).collect();
    openapi::document(&all)
}

/// A tag's page name: `canvas: misc` → `canvas-misc`.
fn slug(tag: &str) -> String {
    let mut out = String::new();
    for c in tag.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_owned()
}

/// Text safe inside a Markdown table cell.
fn cell(s: &str) -> String {
    text(s).replace('|', "\\|").replace('\n', " ")
}

/// The catalogue's Markdown with `<` and `>` outside code spans written as
/// entities, so `Welcome <username>` is text, not an HTML tag.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut code = false;
    for c in s.chars() {
        match c {
            '`' => {
                code = !code;
                out.push(c);
            }
            '<' if !code => out.push_str("&lt;"),
            '>' if !code => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// A number as the document writes it: `2` rather than `2.0`.
fn num(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        Some(f) => format!("{f}"),
        None => v.to_string(),
    }
}

/// A parameter's type and its bounds as one line each.
fn type_and_bounds(schema: &Value) -> (String, String) {
    // An optional number, colour or choice also takes a blank value.
    let (s, blank) = match schema["anyOf"].as_array() {
        Some(any) => (&any[0], true),
        None => (schema, false),
    };
    let ty = s["type"].as_str().unwrap_or("string");
    let mut bounds = Vec::new();
    if let Some(values) = s["enum"].as_array() {
        let v: Vec<String> = values
            .iter()
            .map(|v| format!("`{}`", v.as_str().unwrap_or_default()))
            .collect();
        bounds.push(format!("one of {}", v.join(", ")));
    }
    if let (Some(min), Some(max)) = (s.get("minimum"), s.get("maximum")) {
        bounds.push(format!("{}–{}", num(min), num(max)));
    }
    if s["format"] == "uri" {
        bounds.push("http(s) URL".to_owned());
    }
    if let Some(max) = s.get("maxLength") {
        bounds.push(format!("at most {} characters", num(max)));
    }
    if let Some(p) = s["pattern"].as_str() {
        bounds.push(match p {
            "\\S" => "not blank".to_owned(),
            _ if p.starts_with("^#?") => "`RRGGBB` or `RGB`".to_owned(),
            _ => "`r,g,b`, each 0–255".to_owned(),
        });
    }
    if let Some(d) = schema.get("default") {
        let d = d.as_str().map_or_else(|| num(d), str::to_owned);
        bounds.push(format!("default `{d}`"));
    }
    if blank {
        bounds.push("blank: the default".to_owned());
    }
    (ty.to_owned(), bounds.join("; "))
}

/// A response's description, following a `$ref` into the components.
fn response_text<'a>(doc: &'a Value, r: &'a Value) -> &'a str {
    let r = match r["$ref"].as_str() {
        Some(name) => &doc["components"]["responses"][name.rsplit('/').next().unwrap_or(name)],
        None => r,
    };
    r["description"].as_str().unwrap_or_default()
}

/// Where a preview's image sits in the book, relative to the pages.
fn image_file(preview: &str) -> String {
    preview.trim_start_matches("/previews/").to_owned()
}

/// The picture a page shows for a preview.
fn shown(preview: &str) -> String {
    image_file(preview)
}

fn endpoint(doc: &Value, path: &str, op: &Value, out: &mut String) {
    let _ = writeln!(out, "## `{path}`\n");
    let _ = writeln!(
        out,
        "{}\n",
        text(op["summary"].as_str().unwrap_or_default())
    );
    if let Some(d) = op["description"].as_str() {
        let _ = writeln!(out, "{}\n", text(d));
    }
    if let Some(p) = op["x-preview"].as_str() {
        let _ = writeln!(out, "![preview of {path}](previews/{})\n", shown(p));
        let _ = writeln!(
            out,
            "Preview: `{p}` on a running server (the endpoint's answer to built-in sample inputs).\n"
        );
    }
    if let Some(list) = op["x-previews"].as_array() {
        let mut groups: Vec<(&str, Vec<&Value>)> = Vec::new();
        for p in list {
            let g = p["group"].as_str().unwrap_or_default();
            match groups.iter_mut().find(|(n, _)| *n == g) {
                Some((_, v)) => v.push(p),
                None => groups.push((g, vec![p])),
            }
        }
        for (group, items) in groups {
            let _ = writeln!(out, "Previews, {group}:\n");
            for p in items {
                let preview = p["preview"].as_str().unwrap_or_default();
                let image = p["path"].as_str().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "<img src=\"previews/{}\" alt=\"{image}\" title=\"{image}\">",
                    shown(preview),
                );
            }
            out.push('\n');
        }
    }
    let params = op["parameters"].as_array().cloned().unwrap_or_default();
    if params.is_empty() {
        out.push_str("No parameters.\n\n");
    } else {
        out.push_str(
            "| parameter | in | type | values | required | description |\n|---|---|---|---|---|---|\n",
        );
        for p in &params {
            let (ty, bounds) = type_and_bounds(&p["schema"]);
            let description = p["description"].as_str().unwrap_or_default();
            // Every canvas image has the same `format`: described once.
            let description = if description == FORMAT.description {
                "the output format: see [output format](index.md#output-format)".to_owned()
            } else {
                cell(description)
            };
            let _ = writeln!(
                out,
                "| `{}` | {} | {ty} | {} | {} | {description} |",
                p["name"].as_str().unwrap_or_default(),
                p["in"].as_str().unwrap_or_default(),
                cell(&bounds),
                if p["required"] == true { "yes" } else { "no" },
            );
        }
        out.push('\n');
    }
    let responses = op["responses"].as_object().cloned().unwrap_or_default();
    let ok = &responses["200"];
    let types: Vec<String> = ok["content"]
        .as_object()
        .map(|c| c.keys().map(|k| format!("`{k}`")).collect())
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "**200** ({}): {}\n",
        types.join(", "),
        cell(response_text(doc, ok))
    );
    out.push_str("| error | when |\n|---|---|\n");
    for (status, r) in &responses {
        if status == "200" || status == "304" || COMMON.contains(&status.as_str()) {
            continue;
        }
        let _ = writeln!(out, "| {status} | {} |", cell(response_text(doc, r)));
    }
    let _ = writeln!(
        out,
        "| {} | see [errors of every endpoint](index.md#errors-of-every-endpoint) |\n",
        COMMON.join(", ")
    );
}

/// Every page of the endpoint reference by file name.
fn pages() -> BTreeMap<String, String> {
    let doc = document();
    let mut groups: Vec<(String, Vec<(String, Value)>)> = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        let op = item["get"].clone();
        let tag = op["tags"][0].as_str().expect("a tag").to_owned();
        match groups.iter_mut().find(|(t, _)| *t == tag) {
            Some((_, list)) => list.push((path.clone(), op)),
            None => groups.push((tag, vec![(path.clone(), op)])),
        }
    }
    let note = "<!-- Generated from the server's catalogue (crates/server/src/openapi/catalogue.rs) \
                by `cargo xtask book`; do not edit. -->\n\n";
    let mut pages = BTreeMap::new();
    let mut index = format!(
        "{note}# Endpoints\n\nEvery endpoint answers `GET` (and `HEAD`); any other method is `405` with \
         `Allow: GET, HEAD`. Every error is JSON, `{{\"error\": \"<message>\"}}` (creature misses add \
         `dym` suggestions). A running server describes the same endpoints in `/openapi.json` and \
         lets you try them in its playground at `/`.\n\n\
         | group | endpoints |\n|---|---|\n"
    );
    for (tag, list) in &groups {
        let file = format!("{}.md", slug(tag));
        let paths: Vec<String> = list.iter().map(|(p, _)| format!("`{p}`")).collect();
        let _ = writeln!(index, "| [{tag}]({file}) | {} |", paths.join(", "));
        let mut page = format!("{note}# {tag}\n\n");
        for (path, op) in list {
            endpoint(&doc, path, op, &mut page);
        }
        pages.insert(file, page.trim_end().to_owned() + "\n");
    }
    let _ = write!(
        index,
        "\n## Output format\n\nEvery canvas image takes `format` (one of {}): {}.\n",
        match FORMAT.kind {
            Kind::Enum(values) => values
                .iter()
                .map(|v| format!("`{v}`"))
                .collect::<Vec<_>>()
                .join(", "),
            _ => unreachable!("`format` is a choice"),
        },
        cell(FORMAT.description)
    );
    index.push_str(
        "\n## Errors of every endpoint\n\nBeside its own errors, listed on its page, any endpoint may answer:\n\n\
         | error | when |\n|---|---|\n",
    );
    let responses = &doc["components"]["responses"];
    let common = [
        ("400", "MalformedRequest"),
        ("401", "Unauthorized"),
        ("408", "HeadTimeout"),
        ("414", "UriTooLong"),
        ("429", "RateLimited"),
        ("431", "HeadersTooLarge"),
    ];
    for (status, name) in common {
        let _ = writeln!(
            index,
            "| {status} | {} |",
            cell(responses[name]["description"].as_str().unwrap_or_default())
        );
    }
    pages.insert("index.md".to_owned(), index);
    pages
}

/// Every preview image the pages show, as the server's preview path.
fn previews() -> Vec<String> {
    let doc = document();
    let mut out = Vec::new();
    for item in doc["paths"].as_object().expect("paths").values() {
        let op = &item["get"];
        if let Some(p) = op["x-preview"].as_str() {
            out.push(p.to_owned());
        }
        for p in op["x-previews"].as_array().into_iter().flatten() {
            out.push(p["preview"].as_str().unwrap_or_default().to_owned());
        }
    }
    out.sort();
    out.dedup();
    out
}

/// Writes `preview`'s image into the book: a still scaled down to
/// [`THUMB_WIDTH`], an animation as its GIF (scaled down when large).
fn write_image(preview: &str, r: &Reply) {
    let base = dir().join("previews");
    let file = base.join(image_file(preview));
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    if preview.ends_with(".gif") {
        if r.body.len() <= GIF_MAX_BYTES {
            std::fs::write(&file, &r.body).unwrap();
        } else {
            write_small_gif(&file, r);
        }
        return;
    }
    let img = image::load_from_memory(&r.body).unwrap().into_rgba8();
    let img = if img.width() > THUMB_WIDTH {
        let h = (img.height() * THUMB_WIDTH).div_ceil(img.width());
        image::imageops::resize(&img, THUMB_WIDTH, h, image::imageops::FilterType::Triangle)
    } else {
        img
    };
    img.save_with_format(&file, image::ImageFormat::Png)
        .unwrap();
}

/// Writes the animation `r` with every frame scaled to [`GIF_WIDTH`], so
/// a large animated preview stays small in the repository.
fn write_small_gif(file: &Path, r: &Reply) {
    use image::codecs::gif::{GifEncoder, Repeat};
    let out = std::fs::File::create(file).unwrap();
    let mut enc = GifEncoder::new_with_speed(std::io::BufWriter::new(out), 10);
    enc.set_repeat(Repeat::Infinite).unwrap();
    for (img, delay_ms) in crate::support::gif_frames(r) {
        let w = GIF_WIDTH;
        let h = (img.height() * w).div_ceil(img.width());
        let small = image::imageops::resize(&img, w, h, image::imageops::FilterType::Triangle);
        let delay = image::Delay::from_numer_denom_ms(delay_ms, 1);
        enc.encode_frame(image::Frame::from_parts(small, 0, 0, delay))
            .unwrap();
    }
}

/// The files under `dir` with `ext`, relative to it.
fn files(dir: &Path, ext: &str, out: &mut Vec<String>, prefix: &str) {
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if path.is_dir() {
            files(&path, ext, out, &format!("{prefix}{name}/"));
        } else if ext.is_empty() || name.ends_with(ext) {
            out.push(format!("{prefix}{name}"));
        }
    }
}

#[actix_rt::test]
async fn preview_images_of_the_book_are_there() {
    if updating() {
        let mut s = settings();
        s.animation_render_ms = 120_000;
        let app = web::init_service(create_app(AppState::load(s).expect("state loads"))).await;
        let _ = std::fs::remove_dir_all(dir().join("previews"));
        for p in previews() {
            let req = web::TestRequest::get().uri(&p).to_request();
            let r = Reply::read(web::call_service(&app, req).await).await;
            assert_eq!(r.status, 200, "{p}");
            write_image(&p, &r);
        }
    }
    let mut missing = Vec::new();
    let mut shown_files = Vec::new();
    for p in previews() {
        let file = dir().join("previews").join(shown(&p));
        let ok = std::fs::read(&file).is_ok_and(|b| {
            b.starts_with(b"\x89PNG\r\n\x1a\n")
                || b.starts_with(b"GIF89a")
                || b.starts_with(b"GIF87a")
        });
        if !ok {
            missing.push(p.clone());
        }
        shown_files.push(shown(&p));
    }
    assert!(
        missing.is_empty(),
        "the book has no image of these previews (run `cargo xtask book`): {missing:?}"
    );
    // No image left over from an endpoint that is gone.
    let mut on_disk = Vec::new();
    files(&dir().join("previews"), "", &mut on_disk, "");
    on_disk.retain(|f| !shown_files.contains(f));
    assert!(
        on_disk.is_empty(),
        "images under docs/src/endpoints/previews that no page shows (run `cargo xtask book`): {on_disk:?}"
    );
}

#[test]
fn endpoint_pages_match_the_catalogue() {
    let want = pages();
    if updating() {
        std::fs::create_dir_all(dir()).unwrap();
        let mut old = Vec::new();
        files(&dir(), ".md", &mut old, "");
        for f in old.iter().filter(|f| !f.contains('/')) {
            std::fs::remove_file(dir().join(f)).unwrap();
        }
        for (name, text) in &want {
            std::fs::write(dir().join(name), text).unwrap();
        }
    }
    let mut problems = Vec::new();
    for (name, text) in &want {
        match std::fs::read_to_string(dir().join(name)) {
            Err(_) => problems.push(format!("{name}: missing")),
            Ok(have) if have != *text => {
                let (n, (h, w)) = have
                    .lines()
                    .chain(std::iter::repeat(""))
                    .zip(text.lines().chain(std::iter::repeat("")))
                    .enumerate()
                    .find(|(_, (h, w))| h != w)
                    .unwrap_or((0, ("", "")));
                problems.push(format!(
                    "{name}:{}: the book has\n    {h}\n  the catalogue gives\n    {w}",
                    n + 1
                ));
            }
            Ok(_) => {}
        }
    }
    let mut on_disk = Vec::new();
    files(&dir(), ".md", &mut on_disk, "");
    for f in on_disk {
        if !f.contains('/') && !want.contains_key(&f) {
            problems.push(format!("{f}: a page of no catalogue group"));
        }
    }
    // The book's table of contents lists every page of a group.
    let summary = std::fs::read_to_string(dir().join("../SUMMARY.md")).unwrap_or_default();
    for name in want.keys() {
        if !summary.contains(&format!("(endpoints/{name})")) {
            problems.push(format!("SUMMARY.md: no entry (endpoints/{name})"));
        }
    }
    assert!(
        problems.is_empty(),
        "docs/src/endpoints disagrees with the catalogue (regenerate with `cargo xtask book`):\n{}",
        problems.join("\n")
    );
}

#[test]
fn every_catalogue_endpoint_and_parameter_is_on_its_page() {
    // Read back from the pages on disk, independently of the generator's
    // layout: each endpoint's heading, then each parameter's row.
    let doc = document();
    for (path, item) in doc["paths"].as_object().unwrap() {
        let op = &item["get"];
        let file = format!("{}.md", slug(op["tags"][0].as_str().unwrap()));
        let page = std::fs::read_to_string(dir().join(&file))
            .unwrap_or_else(|e| panic!("{file}: {e} (run `cargo xtask book`)"));
        let heading = format!("## `{path}`\n");
        let start = page
            .find(&heading)
            .unwrap_or_else(|| panic!("{file} does not document {path}"));
        let rest = &page[start + heading.len()..];
        let section = &rest[..rest.find("\n## ").unwrap_or(rest.len())];
        for p in op["parameters"].as_array().unwrap() {
            let name = p["name"].as_str().unwrap();
            let row = section
                .lines()
                .find(|l| l.starts_with(&format!("| `{name}` |")))
                .unwrap_or_else(|| panic!("{file}: {path} lacks parameter {name}"));
            let required = if p["required"] == true { "yes" } else { "no" };
            let (ty, bounds) = type_and_bounds(&p["schema"]);
            let where_ = p["in"].as_str().unwrap();
            assert!(
                row.starts_with(&format!(
                    "| `{name}` | {where_} | {ty} | {} | {required} |",
                    cell(&bounds)
                )),
                "{file}: {path}: parameter {name} documented as\n  {row}"
            );
        }
    }
}
