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
        // The endpoint's operation names its preview.
        let op = &doc["paths"][&e.path]["get"];
        assert_eq!(op["x-preview"], e.preview.as_str(), "{}", e.path);

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
        if let Some((_, _, kind)) = catalogue::TEMPLATES.iter().find(|(_, n, _)| *n == e.name) {
            assert_eq!((w, h), kind.template().size, "{}", e.preview);
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
    assert_eq!(documented.len(), seen, "{documented:?}");
    assert!(seen >= 40, "{seen} previews");
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
