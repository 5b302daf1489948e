//! The quote cards and ID cards ported from scenes: sizes, caps and
//! defaults as the scenes had them, and what each draws.

use super::*;

const CARDS: [(TemplateKind, (u32, u32)); 5] = [
    (TemplateKind::Sage, (1200, 630)),
    (TemplateKind::Sage2, (800, 800)),
    (TemplateKind::Horny, (900, 560)),
    (TemplateKind::Simpcard, (900, 560)),
    (TemplateKind::Namecard, (1680, 800)),
];

fn render(kind: TemplateKind, params: &[(&str, &str)], avatar: Option<&RgbaImage>) -> RgbaImage {
    let t = kind.template();
    let args = t
        .args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
        .unwrap();
    render_template(t, &args, avatar).unwrap()
}

fn avatar() -> RgbaImage {
    crate::limits::solid(300, 200, [10, 120, 200]).unwrap()
}

#[test]
fn each_card_has_its_size_and_draws_the_avatar_if_it_takes_one() {
    let a = avatar();
    for (kind, size) in CARDS {
        let t = kind.template();
        assert_eq!(t.size, size, "{kind:?}");
        assert!(!t.is_animated(), "{kind:?}");
        let with = render(kind, &[], Some(&a));
        let without = render(kind, &[], None);
        assert_eq!(with.dimensions(), size, "{kind:?}");
        assert_eq!(without.dimensions(), size, "{kind:?}");
        let draws = !matches!(kind, TemplateKind::Sage | TemplateKind::Sage2);
        assert_eq!(t.uses_avatar(), draws, "{kind:?}");
        assert_eq!(with != without, draws, "{kind:?}");
    }
    // The two licence cards differ only in their art.
    assert_ne!(
        render(TemplateKind::Horny, &[], Some(&a)),
        render(TemplateKind::Simpcard, &[], Some(&a))
    );
}

#[test]
fn text_over_its_cap_names_the_parameter_and_at_the_cap_is_fine() {
    let cases = [
        (TemplateKind::Sage, "quote", MAX_QUOTE_CHARS),
        (TemplateKind::Sage2, "quote", MAX_QUOTE_CHARS),
        (
            TemplateKind::Namecard,
            "username",
            crate::text::MAX_NAME_CHARS,
        ),
        (TemplateKind::Namecard, "birthday", MAX_BIRTHDAY_CHARS),
        (TemplateKind::Namecard, "description", MAX_DESCRIPTION_CHARS),
    ];
    for (kind, name, cap) in cases {
        let t = kind.template();
        let long = "é".repeat(cap + 1);
        match t.args(|n| (n == name).then_some(long.as_str())) {
            Err(RenderError::TextTooLong { field, max, .. }) => {
                assert_eq!((field, max), (name, cap), "{kind:?}");
            }
            other => panic!("{kind:?} {name}: {other:?}"),
        }
        let full = "é".repeat(cap);
        let args = t.args(|n| (n == name).then_some(full.as_str())).unwrap();
        assert_eq!(
            render_template(t, &args, None).unwrap().dimensions(),
            t.size
        );
    }
    // The licence cards take no parameters: anything given is ignored.
    for kind in [TemplateKind::Horny, TemplateKind::Simpcard] {
        assert!(kind.template().params.is_empty());
    }
}

#[test]
fn the_quote_and_the_names_are_drawn_and_a_blank_birthday_is_not_set() {
    let a = avatar();
    for kind in [TemplateKind::Sage, TemplateKind::Sage2] {
        assert_ne!(
            render(kind, &[("quote", "Patience.")], None),
            render(kind, &[], None),
            "{kind:?}"
        );
    }
    let card = |params: &[(&str, &str)]| render(TemplateKind::Namecard, params, Some(&a));
    let blank = card(&[("username", "Ada"), ("birthday", "  ")]);
    assert_eq!(blank, card(&[("username", "Ada")]));
    assert_eq!(
        blank,
        card(&[("username", "Ada"), ("birthday", "Birthday not set")])
    );
    assert_ne!(blank, card(&[("username", "Ada"), ("birthday", "May 15")]));
    assert_ne!(
        blank,
        card(&[("username", "Ada"), ("description", "Crab.")])
    );
    assert_ne!(blank, card(&[("username", "Grace")]));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]
    #[test]
    fn arbitrary_text_renders_or_is_refused_by_its_cap(text in "\\PC{0,120}|[\\u{0}-\\u{2fff}]{0,60}") {
        for (kind, names) in [
            (TemplateKind::Namecard, &["username", "birthday", "description"][..]),
            (TemplateKind::Sage, &["quote"][..]),
        ] {
            let t = kind.template();
            match t.args(|n| names.contains(&n).then_some(text.as_str())) {
                Ok(args) => {
                    let img = render_template(t, &args, None);
                    proptest::prop_assert!(img.is_ok(), "{:?}: {:?}", kind, img.err());
                }
                Err(e) => proptest::prop_assert!(
                    matches!(e, RenderError::TextTooLong { .. }),
                    "{:?}: {:?}", kind, e
                ),
            }
        }
    }
}
