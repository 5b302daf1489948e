//! The social cards: canvases that grow with their text, their parameters
//! and errors, and the rules of [`Layer::Grow`] and [`Layer::Row`].

use super::test_support::args_from as with;
use super::*;

fn post() -> &'static Template {
    TemplateKind::Post.template()
}

fn video() -> &'static Template {
    TemplateKind::VideoComment.template()
}

fn height(t: &Template, comment: &str) -> u32 {
    let args = with(t, &[("comment", comment)]).unwrap();
    let (w, h) = t.size_for(&args);
    assert_eq!(w, t.size.0);
    h
}

#[test]
fn cards_grow_with_their_text_up_to_their_maximum() {
    // One line: the compact cards.
    assert_eq!(height(post(), ""), 471);
    assert_eq!(height(post(), "hi 👋"), 471);
    assert_eq!(height(video(), ""), 227);
    // Each further line adds about 79 and 51 px.
    let step = height(post(), "a\nb") - 471;
    assert!((78..=80).contains(&step), "{step}");
    let step = height(video(), "a\nb") - 227;
    assert!((50..=52).contains(&step), "{step}");
    // Longer text, taller card; never past the maximum.
    let mut last = 0;
    for n in [1, 20, 60, 120, 199] {
        let h = height(post(), &"word ".repeat(n));
        assert!(h >= last && h <= POST_MAX_HEIGHT, "{n}: {h}");
        last = h;
    }
    assert_eq!(last, POST_MAX_HEIGHT);
    assert_eq!(
        height(video(), &"word ".repeat(200)),
        VIDEO_COMMENT_MAX_HEIGHT
    );
    // The render is the size asked for, at the cap too.
    let full = "x".repeat(MAX_COMMENT_CHARS);
    for (t, comment) in [
        (post(), "hi"),
        (post(), full.as_str()),
        (video(), "a\nb\nc"),
    ] {
        let args = with(t, &[("comment", comment)]).unwrap();
        let img = render_template(t, &args, None).unwrap();
        assert_eq!(img.dimensions(), t.size_for(&args));
    }
}

#[test]
fn bad_values_are_errors_naming_the_parameter() {
    let long = |n: usize| "x".repeat(n);
    let comment = long(MAX_COMMENT_CHARS + 1);
    let name = long(65);
    for (t, params, field) in [
        (post(), vec![("comment", comment.as_str())], "comment"),
        (post(), vec![("username", name.as_str())], "username"),
        (post(), vec![("displayname", name.as_str())], "displayname"),
        (video(), vec![("comment", comment.as_str())], "comment"),
        (video(), vec![("username", name.as_str())], "username"),
    ] {
        match with(t, &params) {
            Err(RenderError::TextTooLong { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
    assert_eq!(
        with(post(), &[("theme", "neon")]).unwrap_err(),
        RenderError::InvalidParameter {
            field: "theme",
            reason: "expected light, dim or dark"
        }
    );
    for (name, value) in [
        ("likes", "1000000000000"),
        ("likes", "-1"),
        ("replies", "abc"),
        ("retweets", "1e3"),
    ] {
        match with(post(), &[(name, value)]) {
            Err(RenderError::InvalidParameter { field, .. }) => assert_eq!(field, name),
            other => panic!("{name}={value}: {other:?}"),
        }
    }
    // The largest counter, and any case of a theme, are fine.
    let max = MAX_COUNTER.to_string();
    assert!(with(post(), &[("likes", max.as_str()), ("theme", "DIM")]).is_ok());
}

#[test]
fn the_theme_colours_the_card_and_counters_change_it() {
    let render = |params: &[(&str, &str)]| {
        let t = post();
        render_template(t, &with(t, params).unwrap(), None).unwrap()
    };
    let dark = render(&[("comment", "hi"), ("theme", "dark")]);
    assert_eq!(dark.get_pixel(5, 5).0, [0, 0, 0, 255]);
    let light = render(&[("comment", "hi")]);
    assert_eq!(light.get_pixel(5, 5).0, [255, 255, 255, 255]);
    let dim = render(&[("comment", "hi"), ("theme", "dim")]);
    assert_eq!(dim.get_pixel(5, 5).0, [0x15, 0x20, 0x2b, 255]);
    // Replies show when given, 0 included; other counters change the card.
    let replies = render(&[("comment", "hi"), ("replies", "0")]);
    assert!(light != replies);
    let likes = render(&[("comment", "hi"), ("likes", "999999999999")]);
    assert!(light != likes);
    // The handle is drawn with one "@" whether or not it was typed.
    let plain = render(&[("username", "ferris"), ("displayname", "Ferris")]);
    assert!(plain == render(&[("username", "@ferris"), ("displayname", "Ferris")]));
    assert!(plain != render(&[("username", "crab"), ("displayname", "Ferris")]));
    // A blank display name is the username.
    assert!(
        render(&[("username", "ferris")])
            == render(&[("username", "ferris"), ("displayname", "ferris")])
    );
}

#[test]
fn the_cards_draw_the_avatar_or_a_silhouette_deterministically() {
    let a = crate::limits::solid(300, 200, [10, 120, 200]).unwrap();
    for t in [post(), video()] {
        let args = with(t, &[("comment", "hello")]).unwrap();
        let with_avatar = render_template(t, &args, Some(&a)).unwrap();
        assert!(with_avatar == render_template(t, &args, Some(&a)).unwrap());
        assert!(with_avatar != render_template(t, &args, None).unwrap());
    }
}

#[test]
fn growing_templates_follow_the_rules_of_grow() {
    for kind in TemplateKind::ALL {
        let t = kind.template();
        let grows: Vec<&Grow> = t
            .layers
            .iter()
            .filter_map(|l| match l {
                Layer::Grow(g) => Some(g),
                _ => None,
            })
            .collect();
        assert!(grows.len() <= 1, "{kind:?}: one growing text at most");
        let Some(grow) = grows.first() else {
            continue;
        };
        assert!(!t.is_animated() && t.camera.is_none(), "{kind:?}");
        // Over a main picture, the picture and what is below the text
        // follow it: the tallest text ends above the canvas's foot.
        match fit::fit_of(t) {
            None => assert_eq!(t.size.1 as f32, flow::tallest(grow), "{kind:?}"),
            Some(_) => assert!(flow::tallest(grow) <= t.size.1 as f32, "{kind:?}"),
        }
        assert!(grow.below.iter().all(flow::movable), "{kind:?}");
        let (x, _, w, _) = grow.slot.area;
        assert!(x + w <= t.size.0 as f32, "{kind:?}");
    }
}
