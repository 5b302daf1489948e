//! The lists of names the service serves come from one catalogue
//! (`server::catalogue`, over the domain enums); the OpenAPI catalogue and
//! the book's endpoint guide (`docs/src/guide.md`, the prose beside the
//! generated reference) must say the same, or these tests fail on the
//! drift.

use std::collections::BTreeSet;

use server::catalogue::{self, CONTENT_TYPES};
use server::openapi::catalogue::ENDPOINTS;

use crate::support::{req, send, settings, state};

/// The book's endpoint guide.
fn guide() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/src/guide.md");
    std::fs::read_to_string(path).expect("docs/src/guide.md")
}

/// The text of `readme` from `start` up to `end`.
fn section<'a>(readme: &'a str, start: &str, end: &str) -> &'a str {
    let from = readme
        .find(start)
        .unwrap_or_else(|| panic!("the guide has `{start}`"));
    let rest = &readme[from + start.len()..];
    &rest[..rest
        .find(end)
        .unwrap_or_else(|| panic!("the guide has `{end}` after `{start}`"))]
}

/// The names inside backticks of `text`, parameter lists `(...)` removed.
fn backticked_names(text: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for (i, span) in text.split('`').enumerate() {
        if i % 2 == 0 {
            continue;
        }
        let mut bare = String::new();
        let mut depth = 0;
        for c in span.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                c if depth == 0 => bare.push(c),
                _ => {}
            }
        }
        names.extend(bare.split_whitespace().map(str::to_owned));
    }
    names
}

fn set<'a>(names: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    names.into_iter().map(str::to_owned).collect()
}

#[test]
fn the_guide_lists_every_filter_and_misc_image() {
    let readme = guide();
    let filters = backticked_names(section(&readme, "Filters: ", "."));
    assert_eq!(
        filters,
        set(catalogue::filter_names()),
        "guide: filter list"
    );
    let mut misc = backticked_names(section(&readme, "Misc: ", "Text parameters"));
    misc.remove("avatar");
    assert_eq!(misc, set(catalogue::misc_names()), "guide: misc list");
}

#[test]
fn the_guide_lists_every_template() {
    let readme = guide();
    let overlays = backticked_names(section(&readme, "Overlays: ", ", 512"));
    assert_eq!(
        overlays,
        set(catalogue::template_names(catalogue::OVERLAY_GROUP)),
        "guide: overlay list"
    );
    let animated = backticked_names(section(&readme, "Animated: ", ", open"));
    assert_eq!(
        animated,
        set(catalogue::template_names(catalogue::PREMIUM_GROUP)),
        "guide: animated list"
    );
    let designs = backticked_names(section(&readme, "Designs: ", ", 900"));
    assert_eq!(
        designs,
        set(catalogue::template_names(catalogue::RANKCARD_GROUP)),
        "guide: rank card list"
    );
    // Each design's row gives its default colours.
    for name in catalogue::template_names(catalogue::RANKCARD_GROUP) {
        let kind = catalogue::template(catalogue::RANKCARD_GROUP, name).unwrap();
        let row = section(&readme, &format!("\n| {name} | "), "\n");
        for spec in kind.template().params {
            if let canvas_render::template::ParamKind::Colour { default } = spec.kind {
                assert!(
                    row.contains(&format!("`{default:06X}`")),
                    "guide: design {name}: {} is {default:06X}",
                    spec.name
                );
            }
        }
    }
    for (group, name, _) in catalogue::TEMPLATES {
        assert!(
            readme.contains(&format!("`GET {group}/{name}`"))
                || readme.contains(&format!("`GET {group}/<name>`"))
                || readme.contains(&format!("`GET {group}/<template>`"))
                || readme.contains(&format!("`GET {group}/<template>/<background>`")),
            "guide: endpoint table: {group}/{name}"
        );
    }
}

#[test]
fn every_template_and_welcome_background_has_a_preview_the_guide_names() {
    let previews = catalogue::image_endpoints();
    // Every template, the cards included, has a preview of its own (a
    // welcome template's over the templates' background).
    for (group, name, kind) in catalogue::TEMPLATES {
        assert!(
            previews.iter().any(|e| {
                catalogue::template(e.group, e.name) == Some(kind)
                    && e.background()
                        .is_none_or(|b| b == catalogue::WELCOME_PREVIEW_BACKGROUND)
            }),
            "{group}/{name} has no preview"
        );
    }
    // Every welcome background has one, over its own background.
    for b in catalogue::WELCOME_BACKGROUNDS {
        assert!(
            previews.iter().any(|e| e.background() == Some(b)
                && e.preview.starts_with("/previews/welcome-background/")),
            "{b}"
        );
    }
    // The guide's Previews section names every preview group, and no
    // longer leaves the cards out.
    let readme = guide();
    let text = section(&readme, "## Previews", "## Creature reference");
    for group in server::openapi::catalogue::PREVIEW_GROUPS {
        assert!(
            text.contains(&format!("`{group}`")) || text.contains(&format!("/previews/{group}/")),
            "guide: Previews: {group}"
        );
    }
    assert!(!text.contains("but the welcome and rank cards"));
}

#[test]
fn the_guide_lists_every_content_type_in_order() {
    let readme = guide();
    for (group, names) in CONTENT_TYPES {
        let row = section(&readme, &format!("| `GET /{group}` | `200 "), "\n");
        let listed: Vec<String> = if group == "animu" {
            row.split(&format!("\"/{group}/"))
                .skip(1)
                .map(|s| s[..s.find('"').unwrap()].to_owned())
                .collect()
        } else {
            let tail = &row[row.rfind("`: ").expect("a list after the example") + 3..];
            tail.trim_end_matches(['|', ' '])
                .split(", ")
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(listed, *names, "guide: list of /{group}");
    }
}

#[test]
fn the_openapi_catalogue_documents_every_image_by_name() {
    // The names one level below a group (`/premium/rankcard/{template}`
    // is the rank card group's, not a premium name).
    let below = |group: &str| -> BTreeSet<String> {
        ENDPOINTS
            .iter()
            .filter_map(|e| e.path.strip_prefix(group)?.strip_prefix('/'))
            .filter(|rest| !rest.contains('/'))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        below(catalogue::FILTER_GROUP),
        set(catalogue::filter_names())
    );
    assert_eq!(below(catalogue::MISC_GROUP), set(catalogue::misc_names()));
    assert!(ENDPOINTS.iter().any(|e| e.path == catalogue::COLORVIEWER));
    for group in [catalogue::OVERLAY_GROUP, catalogue::PREMIUM_GROUP] {
        let mut named = below(group);
        // `/premium/welcome/{template}`: the welcome cards, checked below.
        named.retain(|n| !n.contains('/'));
        assert_eq!(named, set(catalogue::template_names(group)), "{group}");
    }
    // The welcome cards: one entry per path, whose path parameters list
    // every template and background of the catalogue.
    use server::openapi::catalogue::{WELCOME_BACKGROUNDS, WELCOME_TEMPLATES};
    for path in [
        "/welcome/img/{template}/{background}",
        "/canvas/welcome/img/{template}/{background}",
        "/premium/welcome/{template}",
    ] {
        let e = ENDPOINTS.iter().find(|e| e.path == path).expect(path);
        let enum_of = |name: &str| {
            e.params
                .iter()
                .find(|p| p.name == name)
                .map(|p| match p.kind {
                    server::openapi::catalogue::Kind::Enum(v) => set(v.iter().copied()),
                    _ => panic!("{path}: {name} is an enum"),
                })
        };
        for group in [
            catalogue::WELCOME_GROUP,
            catalogue::WELCOME_ALIAS_GROUP,
            catalogue::PREMIUM_WELCOME,
        ] {
            assert_eq!(
                enum_of("template"),
                Some(set(catalogue::template_names(group)))
            );
        }
        if path.contains("{background}") {
            assert_eq!(
                enum_of("background"),
                Some(set(catalogue::WELCOME_BACKGROUNDS.iter().copied()))
            );
        }
        assert_eq!(
            e.params.iter().any(|p| p.name == "bg"),
            path.starts_with(catalogue::PREMIUM_WELCOME)
        );
    }
    // The rank cards are one entry whose path parameter lists every design.
    let rank = ENDPOINTS
        .iter()
        .find(|e| e.path == format!("{}/{{template}}", catalogue::RANKCARD_GROUP))
        .expect("the rank card entry");
    let designs = rank
        .params
        .iter()
        .find_map(|p| match p.kind {
            server::openapi::catalogue::Kind::Enum(v) if p.name == "template" => Some(v),
            _ => None,
        })
        .expect("an enum `template`");
    assert_eq!(
        set(designs.iter().copied()),
        set(catalogue::template_names(catalogue::RANKCARD_GROUP))
    );
    assert_eq!(
        set(WELCOME_TEMPLATES.iter().copied()),
        set(catalogue::template_names(catalogue::WELCOME_GROUP))
    );
    assert_eq!(
        set(WELCOME_BACKGROUNDS.iter().copied()),
        set(catalogue::WELCOME_BACKGROUNDS.iter().copied())
    );
    // The alias is one entry whose path parameter lists every overlay.
    assert_eq!(
        set(server::openapi::catalogue::OVERLAY_NAMES.iter().copied()),
        set(catalogue::template_names(catalogue::OVERLAY_ALIAS_GROUP))
    );
    // Every image group is in the rate limiter's canvas class.
    for group in catalogue::CANVAS_GROUPS {
        assert!(catalogue::is_canvas_image(&format!("{group}/x")), "{group}");
    }
    for e in ENDPOINTS.iter().filter(|e| e.tag.starts_with("canvas: ")) {
        if e.tag != "canvas: colour" {
            assert!(
                catalogue::is_canvas_image(e.path),
                "{} is rate-limited as canvas",
                e.path
            );
        }
    }
}

#[actix_rt::test]
async fn every_catalogued_image_is_routed_and_unknown_names_are_404() {
    // Names resolve in the routes through the same catalogue: an unknown one
    // is a 404 before any avatar work; a known one reaches the avatar check
    // (400 naming `avatar`, or an image for the scenes that draw none).
    let app = actix_web::test::init_service(server::create_app(state(settings()))).await;
    for (group, names) in [
        (
            catalogue::FILTER_GROUP,
            catalogue::filter_names().collect::<Vec<_>>(),
        ),
        (catalogue::MISC_GROUP, catalogue::misc_names().collect()),
        (
            catalogue::OVERLAY_GROUP,
            catalogue::template_names(catalogue::OVERLAY_GROUP).collect(),
        ),
        (
            catalogue::OVERLAY_ALIAS_GROUP,
            catalogue::template_names(catalogue::OVERLAY_ALIAS_GROUP).collect(),
        ),
        (
            catalogue::PREMIUM_GROUP,
            catalogue::template_names(catalogue::PREMIUM_GROUP).collect(),
        ),
        (
            catalogue::RANKCARD_GROUP,
            catalogue::template_names(catalogue::RANKCARD_GROUP).collect(),
        ),
    ] {
        for name in names {
            let r = send(&app, req(&format!("{group}/{name}"))).await;
            match r.status.as_u16() {
                200 => assert_eq!(r.header("content-type"), Some("image/png"), "{name}"),
                _ => assert!(r.assert_error(400).contains("avatar"), "{group}/{name}"),
            }
        }
        send(&app, req(&format!("{group}/no-such-image")))
            .await
            .assert_error(404);
    }
}
