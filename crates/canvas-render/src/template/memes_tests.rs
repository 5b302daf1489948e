//! The meme templates: their parameters, sizes and what they draw.

use super::test_support::{args_from as args, gradient_avatar as avatar};
use super::*;

const MEMES: [(TemplateKind, (u32, u32)); 5] = [
    (TemplateKind::NoBitches, (800, 800)),
    (TemplateKind::ItsSoStupid, (800, 800)),
    (TemplateKind::Lolice, (900, 600)),
    (TemplateKind::Series, (700, 800)),
    (TemplateKind::Lied, (600, 600)),
];

#[test]
fn each_meme_has_its_size_and_draws_the_avatar_or_not() {
    let a = avatar();
    for (kind, size) in MEMES {
        let t = kind.template();
        assert_eq!(t.size, size, "{kind:?}");
        assert!(!t.is_animated(), "{kind:?}");
        let args = args(t, &[]).unwrap();
        let with = render_template(t, &args, Some(&a)).unwrap();
        let without = render_template(t, &args, None).unwrap();
        assert_eq!(with.dimensions(), size, "{kind:?}");
        assert_eq!(without.dimensions(), size, "{kind:?}");
        // No avatar: a grey silhouette where it would be (`nobitches`
        // draws none at all).
        assert_eq!(with != without, kind != TemplateKind::NoBitches, "{kind:?}");
        assert_eq!(t.uses_avatar(), kind != TemplateKind::NoBitches);
    }
}

#[test]
fn captions_are_capped_and_named_in_errors() {
    let long = "x".repeat(super::MAX_CAPTION_CHARS + 1);
    let at_cap = "x".repeat(super::MAX_CAPTION_CHARS);
    for (kind, name) in [
        (TemplateKind::NoBitches, "no"),
        (TemplateKind::NoBitches, "bottomtext"),
        (TemplateKind::ItsSoStupid, "dog"),
    ] {
        let t = kind.template();
        match args(t, &[(name, &long)]) {
            Err(RenderError::TextTooLong { field, .. }) => assert_eq!(field, name),
            other => panic!("{kind:?} {name}: {other:?}"),
        }
        assert!(args(t, &[(name, &at_cap)]).is_ok(), "{kind:?} {name}");
    }
    let name = "x".repeat(crate::text::MAX_NAME_CHARS + 1);
    match args(TemplateKind::Lied.template(), &[("username", &name)]) {
        Err(RenderError::TextTooLong { field, .. }) => assert_eq!(field, "username"),
        other => panic!("lied: {other:?}"),
    }
    assert!(TemplateKind::Lolice.template().params.is_empty());
    assert!(TemplateKind::Series.template().params.is_empty());
}

#[test]
fn nobitches_upper_cases_its_captions() {
    let t = TemplateKind::NoBitches.template();
    let lower = args(t, &[("no", "no tests?"), ("bottomtext", "ship it")]).unwrap();
    let upper = args(t, &[("no", "NO TESTS?"), ("bottomtext", "SHIP IT")]).unwrap();
    let texts: Vec<String> = t.text_slots().map(|s| slot_text(s, &lower)).collect();
    assert_eq!(texts, ["NO TESTS?", "SHIP IT"]);
    assert_eq!(
        render_template(t, &lower, None).unwrap(),
        render_template(t, &upper, None).unwrap()
    );
    // Absent or blank captions draw nothing.
    let plain = render_template(t, &args(t, &[]).unwrap(), None).unwrap();
    let blank = args(t, &[("no", "  "), ("bottomtext", "")]).unwrap();
    assert_eq!(render_template(t, &blank, None).unwrap(), plain);
    assert_ne!(plain, render_template(t, &lower, None).unwrap());
}

#[test]
fn the_caption_is_drawn_above_the_sign() {
    let t = TemplateKind::ItsSoStupid.template();
    let a = avatar();
    let plain = render_template(t, &args(t, &[]).unwrap(), Some(&a)).unwrap();
    let dog = args(t, &[("dog", "my code")]).unwrap();
    let captioned = render_template(t, &dog, Some(&a)).unwrap();
    // Only the caption's box of panel 4 changes.
    for (x, y, p) in captioned.enumerate_pixels() {
        if *p != *plain.get_pixel(x, y) {
            assert!(
                (418..774).contains(&x) && (416..520).contains(&y),
                "({x}, {y})"
            );
        }
    }
    assert_ne!(captioned, plain);
}

#[test]
fn series_shows_the_avatar_through_the_cover_only() {
    let t = TemplateKind::Series.template();
    let no_args = args(t, &[]).unwrap();
    let red = RgbaImage::from_pixel(64, 64, image::Rgba([255, 0, 0, 255]));
    let blue = RgbaImage::from_pixel(64, 64, image::Rgba([0, 0, 255, 255]));
    let a = render_template(t, &no_args, Some(&red)).unwrap();
    let b = render_template(t, &no_args, Some(&blue)).unwrap();
    // The avatar's square is 552 px wide; the cover 346 px (x 190–536),
    // so the square's sides are hidden by the case.
    for (x, y, p) in a.enumerate_pixels() {
        if *p != *b.get_pixel(x, y) {
            assert!(
                (190..536).contains(&x) && (114..666).contains(&y),
                "({x}, {y})"
            );
        }
    }
    // Mid-cover, below the title band, the avatar shows.
    assert_eq!(a.get_pixel(363, 300).0, [255, 0, 0, 255]);
    assert_eq!(b.get_pixel(363, 300).0, [0, 0, 255, 255]);
}
