//! `/canvas/hex`, `/canvas/rgb`, `/canvas/colorviewer`.

use crate::support::get;

#[actix_rt::test]
async fn hex_from_rgb() {
    let r = get("/canvas/hex?rgb=75,0,125").await;
    assert_eq!(r.status, 200);
    assert_eq!(
        r.json(),
        serde_json::json!({"hex": "#4B007D", "original": {"red": "75", "green": "0", "blue": "125"}})
    );
}

#[actix_rt::test]
async fn hex_body_keeps_the_documented_member_order() {
    let r = get("/canvas/hex?rgb=75,0,125").await;
    assert_eq!(
        String::from_utf8(r.body).unwrap(),
        r##"{"hex":"#4B007D","original":{"red":"75","green":"0","blue":"125"}}"##
    );
}

#[actix_rt::test]
async fn hex_from_rgb_tolerates_spaces() {
    let r = get("/canvas/hex?rgb=%2075%20,%200,125").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["hex"], "#4B007D");
    assert_eq!(r.json()["original"]["red"], "75");
}

#[actix_rt::test]
async fn rgb_from_hex_in_every_form() {
    for q in ["4B007D", "4b007d", "%234B007D", "%234b007D"] {
        let r = get(&format!("/canvas/rgb?hex={q}")).await;
        assert_eq!(r.status, 200, "{q}");
        assert_eq!(
            r.json(),
            serde_json::json!({"r": 75, "g": 0, "b": 125}),
            "{q}"
        );
    }
    let r = get("/canvas/rgb?hex=fa0").await;
    assert_eq!(r.json(), serde_json::json!({"r": 255, "g": 170, "b": 0}));
}

#[actix_rt::test]
async fn colorviewer_is_a_256_square_of_the_colour() {
    let r = get("/canvas/colorviewer?hex=4B007D").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-type"), Some("image/png"));
    let img = image::load_from_memory_with_format(&r.body, image::ImageFormat::Png)
        .expect("valid PNG")
        .to_rgba8();
    assert_eq!(img.dimensions(), (256, 256));
    assert!(img.pixels().all(|p| p.0 == [75, 0, 125, 255]));
}

#[actix_rt::test]
async fn deterministic_responses_are_cacheable() {
    let r = get("/canvas/rgb?hex=4B007D").await;
    assert!(r.header("cache-control").unwrap().contains("max-age"));
}

#[actix_rt::test]
async fn missing_parameters_name_the_parameter_and_form() {
    for (uri, param, form) in [
        ("/canvas/hex", "rgb", "r,g,b"),
        ("/canvas/hex?rgb=", "rgb", "r,g,b"),
        ("/canvas/hex?rgb=%20%20", "rgb", "r,g,b"),
        ("/canvas/rgb", "hex", "RRGGBB"),
        ("/canvas/rgb?hex=", "hex", "RRGGBB"),
        ("/canvas/colorviewer", "hex", "RRGGBB"),
        ("/canvas/colorviewer?color=4B007D", "hex", "RRGGBB"),
    ] {
        let msg = get(uri).await.assert_error(400);
        assert!(msg.contains(&format!("`{param}`")), "{uri}: {msg}");
        assert!(msg.contains(form), "{uri}: {msg}");
    }
}

#[actix_rt::test]
async fn malformed_values_are_400_with_the_expected_form() {
    for (uri, param, form) in [
        ("/canvas/hex?rgb=256,0,0", "rgb", "r,g,b"),
        ("/canvas/hex?rgb=1,2", "rgb", "r,g,b"),
        ("/canvas/hex?rgb=1,2,3,4", "rgb", "r,g,b"),
        ("/canvas/hex?rgb=-1,0,0", "rgb", "r,g,b"),
        ("/canvas/hex?rgb=red", "rgb", "r,g,b"),
        ("/canvas/rgb?hex=GGGGGG", "hex", "RRGGBB"),
        ("/canvas/rgb?hex=12345", "hex", "RRGGBB"),
        ("/canvas/rgb?hex=%23%234B007D", "hex", "RRGGBB"),
        ("/canvas/colorviewer?hex=zzz", "hex", "RRGGBB"),
    ] {
        let msg = get(uri).await.assert_error(400);
        assert!(msg.contains(&format!("`{param}`")), "{uri}: {msg}");
        assert!(msg.contains(form), "{uri}: {msg}");
    }
}

#[actix_rt::test]
async fn very_long_values_are_refused_without_echo() {
    let long = "a".repeat(5000);
    let msg = get(&format!("/canvas/rgb?hex={long}"))
        .await
        .assert_error(400);
    assert!(msg.len() < 300, "message does not echo the input: {msg}");
}
