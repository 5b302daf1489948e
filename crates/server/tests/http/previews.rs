//! Previews over HTTP: every catalogue image endpoint has one, named in its
//! OpenAPI operation, that decodes at the endpoint's size; it is the same
//! bytes on every call (rendered once), and unknown names are JSON 404s.

use actix_web::test;
use server::catalogue::{self, image_endpoints};
use server::{AppState, create_app};

use crate::support::{Reply, gif_frames, settings};

async fn get<S, B>(app: &S, uri: &str) -> Reply
where
    S: actix_web::dev::Service<
            actix_http::Request,
            Response = actix_web::dev::ServiceResponse<B>,
            Error = actix_web::Error,
        >,
    B: actix_web::body::MessageBody,
{
    Reply::read(test::call_service(app, test::TestRequest::get().uri(uri).to_request()).await).await
}

#[actix_rt::test]
async fn every_image_endpoint_has_a_preview_that_decodes() {
    let mut s = settings();
    s.animation_render_ms = 120_000;
    let app = test::init_service(create_app(AppState::load(s).expect("state loads"))).await;
    let doc = get(&app, "/openapi.json").await.json();
    let mut seen = 0;
    for e in image_endpoints() {
        // The endpoint's operation names its preview: in `x-preview`, or,
        // for an operation whose path parameters pick the image, in
        // `x-previews` with those parameters' values.
        if e.path_params.is_empty() {
            let op = &doc["paths"][&e.path]["get"];
            assert_eq!(op["x-preview"], e.preview.as_str(), "{}", e.path);
        } else {
            let op = &doc["paths"][&e.operation]["get"];
            assert!(op["x-preview"].is_null(), "{}", e.operation);
            let listed = op["x-previews"]
                .as_array()
                .and_then(|l| l.iter().find(|p| p["preview"] == e.preview.as_str()))
                .unwrap_or_else(|| panic!("{} lists {}", e.operation, e.preview));
            assert_eq!(listed["path"], e.path.as_str());
            for (name, value) in &e.path_params {
                assert_eq!(listed["parameters"][name], *value, "{}", e.preview);
            }
            assert!(listed["group"].is_string(), "{}", e.preview);
        }

        let r = get(&app, &e.preview).await;
        assert_eq!(
            r.status,
            200,
            "{}: {}",
            e.preview,
            String::from_utf8_lossy(&r.body)
        );
        assert!(
            r.header("cache-control")
                .is_some_and(|v| v.starts_with("public")),
            "{}",
            e.preview
        );
        assert!(r.header("etag").is_some(), "{}", e.preview);
        let (w, h) = if e.animated {
            assert_eq!(r.header("content-type"), Some("image/gif"), "{}", e.preview);
            let frames = gif_frames(&r);
            assert!(frames.len() >= 5, "{}: {} frames", e.preview, frames.len());
            // The frames move.
            assert!(
                frames.iter().any(|(f, _)| *f != frames[0].0),
                "{}",
                e.preview
            );
            frames[0].0.dimensions()
        } else {
            assert_eq!(r.header("content-type"), Some("image/png"), "{}", e.preview);
            let img = image::load_from_memory(&r.body).unwrap().into_rgba8();
            if e.path == catalogue::COLORVIEWER {
                assert!(img.pixels().all(|p| p.0 == [0x62, 0x46, 0xEA, 255]));
            } else {
                // Not flat: the sample was drawn.
                let first = *img.get_pixel(0, 0);
                assert!(img.pixels().any(|p| *p != first), "{}", e.preview);
            }
            img.dimensions()
        };
        assert!(w > 0 && h > 0);
        if let Some(kind) = catalogue::template(e.group, e.name) {
            // The canvas for the preview's arguments and the sample
            // avatar (a post grows with its comment, a caption follows
            // its picture).
            let sample = canvas_render::sample::avatar().dimensions();
            let size = kind
                .template()
                .size_for_picture(&kind.sample_args(), sample);
            assert_eq!((w, h), size, "{}", e.preview);
        }
        // The cards: 900×300 rank cards, 1200×600 welcome cards.
        if e.group == catalogue::RANKCARD_GROUP {
            assert_eq!((w, h), (900, 300), "{}", e.preview);
        }
        if e.group == catalogue::WELCOME_GROUP {
            assert_eq!((w, h), (1200, 600), "{}", e.preview);
        }
        // Rendered once: the same bytes again.
        let again = get(&app, &e.preview).await;
        assert_eq!(again.body, r.body, "{}", e.preview);
        seen += 1;
    }
    // Every documented image endpoint (one path, no pattern) is one of them.
    let documented: Vec<&String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(path, item)| {
            !path.contains('{')
                && item["get"]["responses"]["200"]["content"]
                    .as_object()
                    .is_some_and(|c| c.keys().any(|t| t.starts_with("image/")))
        })
        .map(|(path, _)| path)
        .collect();
    let single = image_endpoints()
        .iter()
        .filter(|e| e.path_params.is_empty())
        .count();
    assert_eq!(documented.len(), single, "{documented:?}");
    assert!(seen >= 40 + 9 + 7 + 13, "{seen} previews");
    // The operations with `x-previews` are the rank cards' and the welcome
    // cards' (their aliases serve the same images).
    let mut with_list: Vec<&String> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, item)| item["get"]["x-previews"].is_array())
        .map(|(path, _)| path)
        .collect();
    with_list.sort();
    assert_eq!(
        with_list,
        [
            "/premium/rankcard/{template}",
            "/welcome/img/{template}/{background}"
        ]
    );
    assert_eq!(
        doc["paths"]["/premium/rankcard/{template}"]["get"]["x-previews"]
            .as_array()
            .map(Vec::len),
        Some(9)
    );
    assert_eq!(
        doc["paths"]["/welcome/img/{template}/{background}"]["get"]["x-previews"]
            .as_array()
            .map(Vec::len),
        Some(7 + 13)
    );
    // The documented group segments are those of the previews.
    let mut groups: Vec<&str> = image_endpoints()
        .iter()
        .filter_map(|e| e.preview.split('/').nth(2))
        .collect();
    groups.dedup();
    assert_eq!(groups, server::openapi::catalogue::PREVIEW_GROUPS);
}

#[actix_rt::test]
async fn unknown_previews_are_json_404s() {
    let app =
        test::init_service(create_app(AppState::load(settings()).expect("state loads"))).await;
    for uri in [
        "/previews/misc/nope.png",
        "/previews/misc/circle.gif",
        "/previews/misc/circle",
        "/previews/premium/petpet.png",
        "/previews/overlays/jail.png",
        "/previews/nope/circle.png",
        "/previews/misc",
        "/previews/rankcard/0.png",
        "/previews/rankcard/10.png",
        "/previews/rankcard/1.gif",
        "/previews/welcome/8.png",
        "/previews/welcome/space.png",
        "/previews/welcome-background/nope.png",
        "/previews/welcome-background/1.png",
        "/previews/img/1.png",
    ] {
        get(&app, uri).await.assert_error(404);
    }
}

#[actix_rt::test]
async fn the_sample_preview_matches_the_endpoint_over_the_same_avatar() {
    // The preview of circle is circle of the sample avatar, drawn by the
    // library directly.
    let app =
        test::init_service(create_app(AppState::load(settings()).expect("state loads"))).await;
    let r = get(&app, "/previews/misc/circle.png").await;
    let served = image::load_from_memory(&r.body).unwrap().into_rgba8();
    let direct = canvas_render::circle(&canvas_render::sample::avatar()).unwrap();
    assert_eq!(served, direct);
}

#[actix_rt::test]
async fn a_welcome_template_and_a_background_share_the_image_they_both_show() {
    // The backgrounds' template over the templates' background is that
    // background's preview too: one rendering, the same bytes; the other
    // backgrounds differ from it.
    let app =
        test::init_service(create_app(AppState::load(settings()).expect("state loads"))).await;
    let template = get(
        &app,
        &format!(
            "/previews/welcome/{}.png",
            catalogue::WELCOME_PREVIEW_TEMPLATE
        ),
    )
    .await;
    let background = get(
        &app,
        &format!(
            "/previews/welcome-background/{}.png",
            catalogue::WELCOME_PREVIEW_BACKGROUND
        ),
    )
    .await;
    assert_eq!(template.status, 200);
    assert_eq!(template.body, background.body);
    let other = get(&app, "/previews/welcome-background/sunset.png").await;
    assert_eq!(other.status, 200);
    assert_ne!(other.body, template.body);
}
