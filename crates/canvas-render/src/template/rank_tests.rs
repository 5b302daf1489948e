//! The rank cards and the engine pieces they brought: colour parameters,
//! shapes and bars in parameter colours, compact numbers and conditional
//! layers.

use super::*;

/// Every rank card, 1 to 9.
pub(super) const RANKS: [TemplateKind; 9] = [
    TemplateKind::Rank1,
    TemplateKind::Rank2,
    TemplateKind::Rank3,
    TemplateKind::Rank4,
    TemplateKind::Rank5,
    TemplateKind::Rank6,
    TemplateKind::Rank7,
    TemplateKind::Rank8,
    TemplateKind::Rank9,
];

fn avatar() -> RgbaImage {
    RgbaImage::from_fn(64, 64, |x, y| {
        image::Rgba([200, (x * 3) as u8, (y * 3) as u8, 255])
    })
}

fn card(kind: TemplateKind, pairs: &[(&str, &str)]) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| pairs.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    render_template(t, &args, Some(&avatar())).unwrap()
}

/// The published client's call: no rank, no discriminator.
const CLIENT: &[(&str, &str)] = &[
    ("username", "Ferris"),
    ("level", "12"),
    ("cxp", "340"),
    ("nxp", "1000"),
    ("ctext", "ffffff"),
    ("cbar", "5865f2"),
];

#[test]
fn every_rank_card_is_900_by_300_and_still() {
    for kind in RANKS {
        let t = kind.template();
        assert_eq!(t.size, RANK_CARD_SIZE, "{kind:?}");
        assert!(!t.is_animated() && t.uses_avatar(), "{kind:?}");
        assert_eq!(card(kind, CLIENT).dimensions(), (900, 300));
    }
}

#[test]
fn the_nine_designs_differ() {
    let cards: Vec<RgbaImage> = RANKS.iter().map(|k| card(*k, CLIENT)).collect();
    for (i, a) in cards.iter().enumerate() {
        for b in &cards[i + 1..] {
            let differing = a
                .pixels()
                .zip(b.pixels())
                .filter(|(p, q)| p.0.iter().zip(q.0).any(|(x, y)| x.abs_diff(y) > 24))
                .count();
            assert!(differing > 900 * 300 / 8, "only {differing} pixels differ");
        }
    }
}

#[test]
fn rank_and_discriminator_show_only_when_set() {
    for kind in RANKS {
        let plain = card(kind, CLIENT);
        let with = |extra: (&'static str, &'static str)| {
            let mut p = CLIENT.to_vec();
            p.push(extra);
            card(kind, &p)
        };
        assert!(with(("rank", "3")) != plain, "{kind:?}: rank drawn");
        assert!(with(("rank", "0")) == plain, "{kind:?}: rank 0 hidden");
        assert!(with(("rank", " ")) == plain, "{kind:?}: blank rank hidden");
        assert!(
            with(("discriminator", "1234")) != plain,
            "{kind:?}: tag drawn"
        );
        assert!(
            with(("discriminator", "0")) == plain,
            "{kind:?}: tag 0 hidden"
        );
    }
}

#[test]
fn colours_come_from_their_parameters_in_every_accepted_form() {
    for kind in RANKS {
        let t = kind.template();
        let plain = card(kind, CLIENT);
        let mut red = CLIENT.to_vec();
        red.push(("cbg", "ff0000"));
        let red = card(kind, &red);
        // The right edge, half way down, is background on every card.
        assert_ne!(
            plain.get_pixel(893, 150),
            red.get_pixel(893, 150),
            "{kind:?}"
        );
        for name in ["cbg", "ccxp", "cbar", "ctext", "ctag"] {
            let mut p = CLIENT.to_vec();
            p.retain(|(k, _)| *k != name);
            // A colour that reads on the card is drawn (one that would
            // not is replaced by one that does).
            let changes = ["0f0f0f", "f0f0a0"].iter().any(|c| {
                let mut p = p.clone();
                p.push((name, c));
                card(kind, &p) != plain
            });
            assert!(changes, "{kind:?}: {name} changes the card");
        }
        // Six digits only through `args`; any parser through `args_with`.
        let short = t.args_with(
            |n| (n == "cbg").then_some("#f00"),
            |v| (v == "#f00").then_some([255, 0, 0]),
        );
        assert_eq!(short.unwrap().get("cbg"), Some(&Value::Colour([255, 0, 0])));
        assert!(t.args(|n| (n == "cbg").then_some("#f00")).is_err());
    }
}

#[test]
fn the_bar_follows_cxp_over_nxp_clamped() {
    assert_eq!(bar_fraction(340, 1000), 0.34);
    assert_eq!(bar_fraction(5000, 1000), 1.0);
    assert_eq!(bar_fraction(0, 1000), 0.0);
    assert_eq!(bar_fraction(0, 0), 0.0);
    assert_eq!(bar_fraction(12, 0), 1.0);
    assert_eq!(bar_fraction(u64::MAX, 1), 1.0);
    for kind in RANKS {
        let at =
            |cxp: &'static str| card(kind, &[("cxp", cxp), ("nxp", "1000"), ("ccxp", "00ff00")]);
        let (empty, half, full, over) = (at("0"), at("500"), at("1000"), at("999999"));
        assert!(empty != half && half != full, "{kind:?}");
        let green = |img: &RgbaImage| img.pixels().filter(|p| p.0 == [0, 255, 0, 255]).count();
        assert!(
            green(&empty) < green(&half) && green(&half) < green(&full),
            "{kind:?}"
        );
        assert_eq!(green(&full), green(&over), "{kind:?}: clamped");
    }
}

#[test]
fn counts_are_written_compactly() {
    let t = TemplateKind::Rank1.template();
    let args = t
        .args(|n| match n {
            "cxp" => Some("12345"),
            "nxp" => Some("2500000"),
            "rank" => Some("7"),
            _ => None,
        })
        .unwrap();
    let mut out = String::new();
    push_pieces(&mut out, rank::XP_PIECES, &args, false);
    assert_eq!(out, "12.3K / 2.5M XP");
    let args = t.args(|n| (n == "cxp").then_some("340")).unwrap();
    out.clear();
    push_pieces(&mut out, rank::XP_PIECES, &args, false);
    assert_eq!(out, "340 XP", "no goal, no \" / 0\"");
}

#[test]
fn both_xp_counts_are_written_alike() {
    let t = TemplateKind::Rank1.template();
    let xp = |cxp: &'static str, nxp: &'static str| {
        let args = t
            .args(|n| match n {
                "cxp" => Some(cxp),
                "nxp" => Some(nxp),
                _ => None,
            })
            .unwrap();
        let mut out = String::new();
        push_pieces(&mut out, rank::XP_PIECES, &args, false);
        out
    };
    // Either count at 10,000 or more: both in thousands.
    assert_eq!(xp("3420", "10000"), "3.4K / 10K XP");
    assert_eq!(xp("9999", "10000"), "9.9K / 10K XP");
    assert_eq!(xp("12345", "5000"), "12.3K / 5K XP");
    assert_eq!(xp("500", "20000"), "500 / 20K XP");
    // Both below: written out.
    assert_eq!(xp("3420", "9999"), "3,420 / 9,999 XP");
    assert_eq!(xp("340", "1000"), "340 / 1,000 XP");
    // No goal: the count alone, as before.
    assert_eq!(xp("3420", "0"), "3,420 XP");
}

#[test]
fn numbers_and_texts_are_capped() {
    let t = TemplateKind::Rank1.template();
    for name in ["cxp", "nxp", "level", "rank"] {
        assert!(t.args(|n| (n == name).then_some("1000000000")).is_ok());
        for bad in ["1000000001", "-1", "1.5", "1e3", "x"] {
            assert!(
                matches!(t.args(|n| (n == name).then_some(bad)), Err(RenderError::InvalidParameter { field, .. }) if field == name),
                "{name}={bad}"
            );
        }
    }
    let long = "x".repeat(MAX_RANK_USERNAME_CHARS + 1);
    assert!(
        t.args(|n| (n == "username").then_some(long.as_str()))
            .is_err()
    );
    assert!(
        t.args(|n| (n == "discriminator").then_some("123456789"))
            .is_err()
    );
}

#[test]
fn an_animated_avatar_gives_its_frames_drawn_as_the_still_card() {
    let a = avatar();
    let b = crate::limits::solid(64, 64, [20, 200, 60]).unwrap();
    for kind in RANKS {
        let t = kind.template();
        let args = t
            .args(|n| CLIENT.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
            .unwrap();
        let frames = render_template_frames(t, &args, &[(&a, 70), (&b, 70)], None).unwrap();
        assert_eq!(frames.len(), 2, "{kind:?}");
        for ((frame, delay), source) in frames.iter().zip([&a, &b]) {
            assert_eq!(*delay, 70);
            // The layers under and over the avatar are drawn once for all
            // frames: the same card as a still, within rounding.
            let still = render_template(t, &args, Some(source)).unwrap();
            let worst = frame
                .as_raw()
                .iter()
                .zip(still.as_raw())
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap();
            assert!(worst <= 2, "{kind:?}: differs by {worst}");
        }
        assert!(frames[0].0 != frames[1].0, "{kind:?}: the avatar moves");
    }
}

#[test]
fn the_layers_under_the_avatar_are_kept_per_colour_and_give_the_same_pixels() {
    for kind in [TemplateKind::Rank1, TemplateKind::Rank6] {
        let with_bg = |bg: String| {
            let mut p = CLIENT.to_vec();
            p.push(("cbg", Box::leak(bg.into_boxed_str())));
            card(kind, &p)
        };
        let first = with_bg("102030".into());
        // More colours than the cache keeps, then the first again.
        let others: Vec<RgbaImage> = (0..UNDER_CACHE_ENTRIES + 2)
            .map(|i| with_bg(format!("{:02x}4060", i * 20)))
            .collect();
        assert!(others.iter().all(|o| *o != first));
        assert!(others[0] != others[1]);
        assert!(with_bg("102030".into()) == first, "{kind:?}");
        // The same card drawn without the cache: every layer in turn.
        let t = kind.template();
        let mut p = CLIENT.to_vec();
        p.push(("cbg", "102030"));
        let args = t
            .args(|n| p.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
            .unwrap();
        let prepared = Prepared::new(t, &args, Some(&avatar())).unwrap();
        let images = PreparedImages::new(t, None).unwrap();
        let mut texts = TextCache::new(t);
        let direct = draw_frame(t, &args, 0, &prepared, &images, &mut texts)
            .unwrap()
            .into_image();
        assert!(direct == first, "{kind:?}");
    }
}
