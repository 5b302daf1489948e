//! The one-avatar memes: sizes, parameters, caps and what they draw.

use super::test_support::{args_from as args, gradient_avatar as avatar};
use super::*;

const MEMES: [(TemplateKind, (u32, u32)); 6] = [
    (TemplateKind::Wanted, (450, 600)),
    (TemplateKind::Rip, (700, 800)),
    (TemplateKind::Trash, (560, 560)),
    (TemplateKind::Delete, (800, 480)),
    (TemplateKind::Beautiful, (560, 560)),
    (TemplateKind::Stonks, (640, 480)),
];

#[test]
fn each_meme_is_a_still_of_its_size_that_draws_the_avatar() {
    let a = avatar();
    for (kind, size) in MEMES {
        let t = kind.template();
        assert_eq!(t.size, size, "{kind:?}");
        assert!(!t.is_animated(), "{kind:?}");
        assert!(t.uses_avatar(), "{kind:?}");
        let args = args(t, &[]).unwrap();
        let with = render_template(t, &args, Some(&a)).unwrap();
        assert_eq!(with.dimensions(), size, "{kind:?}");
        assert!(with != render_template(t, &args, None).unwrap(), "{kind:?}");
    }
}

#[test]
fn the_wanted_reward_is_a_bounded_whole_number_written_in_dollars() {
    let t = TemplateKind::Wanted.template();
    let reward = |v: &str| {
        let a = args(t, &[("reward", v)]).unwrap();
        t.text_slots()
            .map(|s| slot_text(s, &a))
            .find(|s| s.starts_with("REWARD"))
            .unwrap()
    };
    assert_eq!(reward(""), "REWARD $5,000");
    assert_eq!(reward("0"), "REWARD $0");
    assert_eq!(reward("1500000"), "REWARD $1,500,000");
    assert_eq!(reward("1000000000000"), "REWARD $1,000,000,000,000");
    for bad in ["1000000000001", "-5", "12.5", "$100", "1k", "lots"] {
        match args(t, &[("reward", bad)]) {
            Err(RenderError::InvalidParameter { field, .. }) => assert_eq!(field, "reward"),
            other => panic!("reward={bad}: {other:?}"),
        }
    }
    // The name is upper-cased; blank, an ornament takes its place.
    let named = args(t, &[("name", "ferris")]).unwrap();
    assert_eq!(slot_text(t.text_slots().next().unwrap(), &named), "FERRIS");
    let a = avatar();
    let blank = render_template(t, &args(t, &[]).unwrap(), Some(&a)).unwrap();
    let spaces = render_template(t, &args(t, &[("name", "  ")]).unwrap(), Some(&a)).unwrap();
    assert!(blank == spaces);
    assert!(blank != render_template(t, &named, Some(&a)).unwrap());
}

#[test]
fn text_slots_are_capped_and_named_in_errors() {
    for (kind, name, cap) in [
        (TemplateKind::Wanted, "name", crate::text::MAX_NAME_CHARS),
        (TemplateKind::Rip, "text", super::MAX_EPITAPH_CHARS),
        (TemplateKind::Rip, "years", super::MAX_YEARS_CHARS),
        (
            TemplateKind::Delete,
            "filename",
            crate::text::MAX_NAME_CHARS,
        ),
        (
            TemplateKind::Beautiful,
            "title",
            crate::text::MAX_NAME_CHARS,
        ),
        (TemplateKind::Stonks, "text", crate::text::MAX_NAME_CHARS),
    ] {
        let t = kind.template();
        let at_cap = "é".repeat(cap);
        let over = "é".repeat(cap + 1);
        assert!(args(t, &[(name, &at_cap)]).is_ok(), "{kind:?} {name}");
        match args(t, &[(name, &over)]) {
            Err(RenderError::TextTooLong { field, .. }) => assert_eq!(field, name),
            other => panic!("{kind:?} {name}: {other:?}"),
        }
    }
    assert!(TemplateKind::Trash.template().params.is_empty());
}

#[test]
fn rip_draws_its_epitaph_and_years_and_greys_the_avatar() {
    let t = TemplateKind::Rip.template();
    let a = avatar();
    let plain = render_template(t, &args(t, &[]).unwrap(), Some(&a)).unwrap();
    let text =
        render_template(t, &args(t, &[("text", "gone fishing")]).unwrap(), Some(&a)).unwrap();
    let years =
        render_template(t, &args(t, &[("years", "1999 – 2024")]).unwrap(), Some(&a)).unwrap();
    assert!(plain != text && plain != years && text != years);
    // The oval's centre shows the avatar in grey.
    let (x, y, s) = super::memes_one::RIP_PHOTO;
    let p = plain
        .get_pixel((x + s / 2.0) as u32, (y + s / 2.0) as u32)
        .0;
    assert!(p[0] == p[1] && p[1] == p[2], "{p:?}");
    // Its corner is the stone's, whatever the avatar.
    let corner = ((x + 4.0) as u32, (y + 4.0) as u32);
    let other = RgbaImage::from_pixel(64, 64, image::Rgba([255, 0, 0, 255]));
    let red = render_template(t, &args(t, &[]).unwrap(), Some(&other)).unwrap();
    assert_eq!(
        plain.get_pixel(corner.0, corner.1),
        red.get_pixel(corner.0, corner.1)
    );
}

#[test]
fn wanted_tones_its_portrait_sepia() {
    let t = TemplateKind::Wanted.template();
    let blue = RgbaImage::from_pixel(64, 64, image::Rgba([20, 60, 255, 255]));
    let img = render_template(t, &args(t, &[]).unwrap(), Some(&blue)).unwrap();
    let photo = super::memes_one::WANTED_PHOTO_AT;
    let p = img
        .get_pixel(
            (photo.x + photo.w / 2.0) as u32,
            (photo.y + photo.h / 2.0) as u32,
        )
        .0;
    // Warm, not blue: red over green over blue.
    assert!(p[0] > p[1] && p[1] > p[2], "{p:?}");
}

#[test]
fn wanted_draws_its_ornament_only_where_no_name_was_given() {
    let t = TemplateKind::Wanted.template();
    let ornament = t
        .layers
        .iter()
        .find_map(|l| match l {
            Layer::When {
                when,
                layer: Layer::Art { .. },
            } => Some(*when),
            _ => None,
        })
        .expect("wanted's ornament is conditional");
    for (name, drawn) in [
        (None, true),
        (Some(""), true),
        (Some("  "), true),
        (Some("0"), false),
        (Some("Jo"), false),
    ] {
        let values: Vec<(&str, &str)> = name.map(|n| ("name", n)).into_iter().collect();
        let a = args(t, &values).unwrap();
        assert_eq!(ornament.holds(&a), drawn, "name {name:?}");
    }
    // A name of "0" is drawn as the name, with nothing over it.
    let (zero, blank) = (args(t, &[("name", "0")]).unwrap(), args(t, &[]).unwrap());
    let a = avatar();
    assert_ne!(
        render_template(t, &zero, Some(&a)).unwrap(),
        render_template(t, &blank, Some(&a)).unwrap()
    );
}
