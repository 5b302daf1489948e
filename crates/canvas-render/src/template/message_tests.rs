//! The chat message card: its markup, its timestamps, the rich text it
//! lays out and the card growing with it.

use super::*;
use crate::text::{SpanLook, fit_rich};

fn message() -> &'static Template {
    TemplateKind::Message.template()
}

fn with<'a>(params: &'a [(&'a str, &'a str)]) -> Result<Args, RenderError> {
    message().args(|n| params.iter().find(|(k, _)| *k == n).map(|(_, v)| *v))
}

/// The marked pieces of `src`: each span's text and marks.
fn marked(src: &str) -> (String, Vec<(String, Marks)>) {
    let (text, spans) = parse_markup(src);
    let pieces = spans
        .iter()
        .map(|(r, m)| (text[r.clone()].to_owned(), *m))
        .collect();
    (text, pieces)
}

const B: Marks = Marks {
    bold: true,
    italic: false,
    strike: false,
    code: false,
    mention: false,
};

#[test]
fn markup_reads_each_mark_and_nests() {
    let (text, spans) = marked("a **b *c* d** ~~e~~ `f *g*` @h");
    assert_eq!(text, "a b c d e f *g* @h");
    let i = Marks { italic: true, ..B };
    let expect = [
        ("b ", B),
        ("c", i),
        (" d", B),
        (
            "e",
            Marks {
                bold: false,
                strike: true,
                ..Marks::default()
            },
        ),
        (
            "f *g*",
            Marks {
                code: true,
                ..Marks::default()
            },
        ),
        (
            "@h",
            Marks {
                mention: true,
                ..Marks::default()
            },
        ),
    ];
    let got: Vec<(&str, Marks)> = spans.iter().map(|(t, m)| (t.as_str(), *m)).collect();
    assert_eq!(got, expect);
    // `_` italic only at a word's edge.
    assert_eq!(marked("snake_case_name").1, []);
    assert_eq!(
        marked("an _aside_, then").1,
        [(
            "aside".to_owned(),
            Marks {
                italic: true,
                ..Marks::default()
            }
        )]
    );
}

#[test]
fn unclosed_markers_and_escapes_are_literal() {
    for src in [
        "**open", "*open", "~~open", "`open", "a ** b", "_x", "**", "``",
    ] {
        let (text, spans) = parse_markup(src);
        assert_eq!(text, src, "{src}");
        assert!(spans.is_empty(), "{src}: {spans:?}");
    }
    let (text, spans) = parse_markup(r"\*\*not bold\*\* \`x\` \@me \\");
    assert_eq!(text, r"**not bold** `x` @me \");
    assert!(spans.is_empty(), "{spans:?}");
    // A backslash before anything else stays.
    assert_eq!(parse_markup(r"C:\path").0, r"C:\path");
}

#[test]
fn mentions_stop_at_their_edges() {
    let mention = Marks {
        mention: true,
        ..Marks::default()
    };
    assert_eq!(marked("@start").1, [("@start".to_owned(), mention)]);
    assert_eq!(marked("end @you.").1, [("@you".to_owned(), mention)]);
    assert_eq!(marked("(@x), @y!").1.len(), 2);
    assert_eq!(marked("@فاطمة hi").1, [("@فاطمة".to_owned(), mention)]);
    // Not after a letter (an address), not alone.
    assert!(marked("mail@example.com").1.is_empty());
    assert!(marked("@ alone @").1.is_empty());
    // Inside bold: both marks.
    assert_eq!(
        marked("**@pal**").1,
        [("@pal".to_owned(), Marks { mention: true, ..B })]
    );
}

#[test]
fn emoji_and_every_script_keep_their_marks() {
    let (text, spans) = marked("**🎉 مرحبا 你好 👍🏽**");
    assert_eq!(text, "🎉 مرحبا 你好 👍🏽");
    assert_eq!(spans, [(text.clone(), B)]);
    let style = crate::text::TextStyle::new(FontFace::Regular, 32.0);
    let area = crate::text::TextBox::new(0.0, 0.0, 800.0, 200.0);
    let look = SpanLook {
        bold: true,
        ..SpanLook::default()
    };
    let layout = fit_rich(&text, &[(0..text.len(), look)], &style, area, 16.0).unwrap();
    assert_eq!(layout.missing_glyphs(), 0);
    assert_eq!(layout.line_count(), 1);
}

/// Width of `text` laid out whole in one look.
fn width(text: &str, look: SpanLook) -> f32 {
    let style = crate::text::TextStyle::new(FontFace::Regular, 32.0);
    let area = crate::text::TextBox::new(0.0, 0.0, 4000.0, 100.0);
    fit_rich(text, &[(0..text.len(), look)], &style, area, 16.0)
        .unwrap()
        .width()
}

#[test]
fn rich_text_draws_its_looks() {
    let plain = SpanLook::default();
    let bold = SpanLook {
        bold: true,
        ..plain
    };
    assert!(width("a bold run of words", bold) > width("a bold run of words", plain) * 1.03);
    // Monospace: every letter as wide.
    let mono = SpanLook {
        mono: true,
        ..plain
    };
    assert!((width("iiii", mono) - width("MMMM", mono)).abs() < 0.5);
    assert!(width("iiii", plain) < width("MMMM", plain) * 0.6);
    // A chip under code, a line through struck text, in their colours.
    let style = crate::text::TextStyle::new(FontFace::Regular, 32.0).color([220, 220, 220, 255]);
    let area = crate::text::TextBox::new(10.0, 10.0, 900.0, 200.0);
    let text = "run code now, not later";
    let chip = [30, 31, 34, 255];
    let spans = [
        (
            4..8,
            SpanLook {
                mono: true,
                chip: Some(chip),
                ..plain
            },
        ),
        (
            14..17,
            SpanLook {
                strike: true,
                ..plain
            },
        ),
    ];
    let layout = fit_rich(text, &spans, &style, area, 16.0).unwrap();
    let d = layout.decorations(&style, area);
    assert_eq!(d.len(), 2, "{d:?}");
    let (c, s) = (d[0], d[1]);
    assert!(c.chip && c.color == chip);
    assert!(!s.chip && s.color == style.color);
    // The chip sits after "run " and before the struck word, which is
    // right of it; the line runs through the middle of the letters.
    assert!(
        c.area.0 > 10.0 + 40.0 && c.area.0 + c.area.2 < s.area.0,
        "{d:?}"
    );
    assert!(s.area.1 > 10.0 && s.area.1 < 10.0 + 40.0 && s.area.3 >= 1.0);
    // Plain text has none.
    assert!(
        crate::text::fit_text(text, &style, area, 16.0)
            .unwrap()
            .decorations(&style, area)
            .is_empty()
    );
}

#[test]
fn a_cut_rich_text_keeps_its_spans() {
    let style = crate::text::TextStyle::new(FontFace::Regular, 32.0);
    let area = crate::text::TextBox::new(0.0, 0.0, 300.0, 50.0);
    let text = "**".repeat(0) + &"word ".repeat(40);
    let look = SpanLook {
        strike: true,
        ..SpanLook::default()
    };
    let layout = fit_rich(&text, &[(0..10, look)], &style, area, 32.0).unwrap();
    assert!(layout.is_truncated());
    assert_eq!(layout.decorations(&style, area).len(), 1);
    // Spans that overlap or cut a character are drawn plain, never a panic.
    let backwards = std::ops::Range { start: 2, end: 1 };
    let odd = [
        (0..1, look),
        (0..3, look),
        (5..400, look),
        (backwards, look),
    ];
    fit_rich("é word", &odd, &style, area, 32.0).unwrap();
    fit_rich("é word", &[(1..2, look)], &style, area, 32.0).unwrap();
}

#[test]
fn timestamps_are_read_and_drawn_in_one_form() {
    for (input, want) in [
        ("2026-11-29T08:15:00Z", "11/29/2026 8:15 AM"),
        ("2026-11-29T00:05Z", "11/29/2026 12:05 AM"),
        ("2026-11-29T12:00:00.123Z", "11/29/2026 12:00 PM"),
        ("2026-11-29 23:59:59", "11/29/2026 11:59 PM"),
        ("2026-11-29T20:15:00+05:30", "11/29/2026 2:45 PM"),
        ("2026-12-31T23:30:00-01:00", "01/01/2027 12:30 AM"),
        ("2024-03-01T00:30:00+0100", "02/29/2024 11:30 PM"),
        ("2026-11-29T08:15:00+02", "11/29/2026 6:15 AM"),
    ] {
        assert_eq!(format_timestamp(input).as_deref(), Some(want), "{input}");
    }
    for bad in [
        "",
        "yesterday",
        "2026-11-29",
        "2026-13-01T00:00Z",
        "2026-02-29T00:00Z",
        "2026-11-29T24:00Z",
        "2026-11-29T08:15:00+25:00",
        "2026-11-29T08:15:00.Z",
        "0000-01-01T00:00Z",
        "9999-12-31T23:59:00-01:00",
        "２０２６-11-29T08:15Z",
        &format!("2026-11-29T08:15:00.{}Z", "1".repeat(40)),
    ] {
        assert_eq!(format_timestamp(bad), None, "{bad}");
    }
    // As a parameter: its drawn form, or an error naming it.
    let args = with(&[("timestamp", "2026-11-29T08:15:00Z")]).unwrap();
    assert_eq!(
        args.get("timestamp"),
        Some(&Value::Text("11/29/2026 8:15 AM".into()))
    );
    assert!(matches!(
        with(&[("timestamp", "soon")]),
        Err(RenderError::InvalidParameter {
            field: "timestamp",
            ..
        })
    ));
}

fn height(params: &[(&str, &str)]) -> u32 {
    let args = with(params).unwrap();
    let (w, h) = message().size_for(&args);
    assert_eq!(w, MESSAGE_WIDTH);
    h
}

#[test]
fn the_card_grows_with_its_text_and_its_reply() {
    let one = height(&[("text", "hi")]);
    assert_eq!(one, 152);
    assert_eq!(
        height(&[("text", "hi"), ("reply_username", "ana")]),
        one + 44
    );
    let step = height(&[("text", "a\nb")]) - one;
    assert!((42..=46).contains(&step), "{step}");
    let mut last = 0;
    for n in [1, 30, 100, 300, 399] {
        let h = height(&[("text", &"word ".repeat(n))]);
        assert!(h >= last && h <= MESSAGE_MAX_HEIGHT, "{n}: {h}");
        last = h;
    }
    assert_eq!(last, MESSAGE_MAX_HEIGHT - 44);
    let full = "x".repeat(MAX_MESSAGE_CHARS);
    assert_eq!(
        height(&[("text", &full), ("reply_username", "ana")]),
        MESSAGE_MAX_HEIGHT
    );
    let args = with(&[("text", &full)]).unwrap();
    let img = render_template(message(), &args, None).unwrap();
    assert_eq!(img.dimensions(), message().size_for(&args));
}

/// Writes the card for `params` to `/tmp/message-<name>.png` (to look at)
/// and gives it.
fn card(name: &str, params: &[(&str, &str)]) -> RgbaImage {
    let args = with(params).unwrap();
    let avatar = crate::limits::solid(128, 128, [230, 120, 60]).unwrap();
    let img = render_template(message(), &args, Some(&avatar)).unwrap();
    let _ = img.save(format!("/tmp/message-{name}.png"));
    img
}

#[test]
fn the_card_draws_its_parts() {
    let text = "Hello **world**, *this* is ~~fine~~ `code` and @ferris 🎉 مرحبا بالعالم 你好世界";
    let dark = card(
        "dark",
        &[
            ("username", "Ferris"),
            ("text", text),
            ("timestamp", "2026-11-29T08:15:00Z"),
            ("bot", "true"),
            ("color", "e67e22"),
        ],
    );
    let light = card(
        "light",
        &[
            ("username", "Ferris"),
            ("text", text),
            ("theme", "light"),
            ("reply_username", "ana"),
            (
                "reply_text",
                "did you see **this**? it is a very long reply that goes on and on past the edge of the card",
            ),
        ],
    );
    assert_eq!(dark.get_pixel(5, 5).0, [0x31, 0x33, 0x38, 255]);
    assert_eq!(light.get_pixel(5, 5).0, [255, 255, 255, 255]);
    assert_eq!(light.height(), dark.height() + 44);
    // The bot tag's blurple, the code chip under `code`.
    assert!(dark.pixels().any(|p| p.0 == [0x58, 0x65, 0xf2, 255]));
    assert!(dark.pixels().any(|p| p.0 == [0x2b, 0x2d, 0x31, 255]));
    assert!(light.pixels().any(|p| p.0 == [0xf2, 0xf3, 0xf5, 255]));
    assert!(!light.pixels().any(|p| p.0 == [0x58, 0x65, 0xf2, 255]));
}

#[test]
fn spans_leave_the_bidi_order_as_it_is() {
    let style = crate::text::TextStyle::new(FontFace::Regular, 32.0);
    let area = crate::text::TextBox::new(0.0, 0.0, 4000.0, 100.0);
    for src in ["النص 🌙 @سارة", "hi @سارة there"] {
        let (text, marks) = parse_markup(src);
        let markup = Markup {
            mention: Paint::Fixed([1, 2, 3, 255]),
            mention_chip: Paint::Fixed([1, 2, 3, 255]),
            code_chip: Paint::Fixed([1, 2, 3, 255]),
        };
        let args = with(&[]).unwrap();
        let spans = super::markup::looks(&markup, &args, marks);
        let rich = fit_rich(&text, &spans, &style, area, 16.0).unwrap();
        let plain = crate::text::fit_text(&text, &style, area, 16.0).unwrap();
        assert_eq!(rich.visual_graphemes(), plain.visual_graphemes(), "{src}");
    }
    // Two looks inside a right-to-left word keep its order: the "!" after
    // the bold word ends the line, on its left.
    let (text, marks) = parse_markup("مرحبا **بالعالم**!");
    let spans: Vec<_> = marks
        .into_iter()
        .map(|(r, _)| {
            (
                r,
                SpanLook {
                    bold: true,
                    ..SpanLook::default()
                },
            )
        })
        .collect();
    let rich = fit_rich(&text, &spans, &style, area, 16.0).unwrap();
    let order = rich.visual_graphemes().remove(0);
    assert_eq!(order.first(), order.iter().max(), "{order:?}");
    assert_eq!(order.last(), Some(&0), "{order:?}");
}

proptest::proptest! {
    /// Any text reads without a panic into spans in order, inside the
    /// text, on character boundaries, and draws.
    #[test]
    fn any_markup_reads_into_valid_spans(src in "[*_~`@\\\\a é🎉م\n]{0,40}|\\PC{0,40}") {
        let (text, spans) = parse_markup(&src);
        let mut at = 0;
        for (r, _) in &spans {
            proptest::prop_assert!(r.start >= at && r.start < r.end && r.end <= text.len());
            proptest::prop_assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            at = r.end;
        }
        let args = with(&[("text", src.as_str())]);
        if let Ok(args) = args {
            message().size_for(&args);
        }
    }
}
