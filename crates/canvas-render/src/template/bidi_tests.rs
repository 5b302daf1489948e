//! Right-to-left names beside our own words: every text slot that puts a
//! parameter beside other text keeps that text in its order, whatever
//! script the name is in.

use unicode_segmentation::UnicodeSegmentation;

use super::*;
use crate::text::{TextStyle, layout_text};

/// Every template.
fn all() -> Vec<(String, &'static Template)> {
    TemplateKind::ALL
        .iter()
        .map(|k| (format!("{k:?}"), k.template()))
        .collect()
}

/// Every text slot of `layers`, through [`Layer::When`].
fn slots<'a>(layers: &'a [Layer], out: &mut Vec<&'a TextSlot>) {
    for layer in layers {
        match layer {
            Layer::Text(slot) | Layer::PaletteText(slot, _) => out.push(slot),
            Layer::When { layer, .. } => slots(std::slice::from_ref(&**layer), out),
            _ => {}
        }
    }
}

/// Whether `pieces` hold a text parameter (at any depth).
fn has_text_param(pieces: &[Piece], t: &Template) -> bool {
    pieces.iter().any(|p| match p {
        Piece::Param(name) | Piece::Upper(name) | Piece::Plain(name) => t
            .params
            .iter()
            .any(|s| s.name == *name && matches!(s.kind, ParamKind::Text { .. })),
        Piece::IfSet { pieces, .. } | Piece::IfGiven { pieces, .. } => has_text_param(pieces, t),
        _ => false,
    })
}

/// Which run of `text` each grapheme cluster is in: runs are split at
/// every isolate's start and end, so an isolated parameter is one run and
/// the text between parameters another.
fn runs(text: &str) -> Vec<usize> {
    let mut run = 0;
    text.graphemes(true)
        .map(|g| {
            if g.starts_with('\u{2068}') {
                run += 1;
            }
            let here = run;
            if g.ends_with('\u{2069}') {
                run += 1;
            }
            here
        })
        .collect()
}

/// Whether `runs` (each glyph's run, left to right) go in their order.
fn in_order(runs: &[usize]) -> bool {
    runs.windows(2).all(|w| w[0] <= w[1])
}

/// For each template and each of its slots that mixes a text parameter
/// with anything else, with every text parameter set to `name`: the slot's
/// text on one line draws its runs left to right in their order (the name
/// where it belongs, our words after it in order), with no missing glyph.
fn check_names(name: &str) -> usize {
    let mut checked = 0;
    for (kind, t) in all() {
        // The name, cut to each text parameter's cap.
        let values: Vec<(&str, String)> = t
            .params
            .iter()
            .filter_map(|s| match s.kind {
                ParamKind::Text { max_chars, .. } => {
                    Some((s.name, name.chars().take(max_chars).collect()))
                }
                _ => None,
            })
            .collect();
        let args = t
            .args(|p| {
                values
                    .iter()
                    .find(|(n, _)| *n == p)
                    .map(|(_, v)| v.as_str())
            })
            .unwrap();
        let mut found = Vec::new();
        slots(t.layers, &mut found);
        for slot in found {
            if matches!(slot.pieces, [Piece::Param(_) | Piece::Upper(_)])
                || !has_text_param(slot.pieces, t)
            {
                continue;
            }
            let text = slot_text(slot, &args);
            if slot
                .replaced_by
                .is_some_and(|p| !args.text(p).trim().is_empty())
            {
                continue;
            }
            assert!(
                text.contains('\u{2068}'),
                "{kind}: {text:?} is not isolated"
            );
            let style = TextStyle::new(slot.face, 24.0);
            let layout = layout_text(&text, &style, crate::limits::MAX_DIMENSION as f32).unwrap();
            assert_eq!(layout.missing_glyphs(), 0, "{kind}: {text:?}");
            let run = runs(&text);
            for line in layout.visual_graphemes() {
                let order: Vec<usize> = line.iter().map(|&g| run[g as usize]).collect();
                assert!(
                    in_order(&order),
                    "{kind}: {text:?} draws its runs in the order {order:?}"
                );
            }
            assert!(
                text.contains('\u{2068}'),
                "{kind}: {text:?} is not isolated"
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn right_to_left_names_leave_our_words_in_their_order() {
    for name in ["محمد ✨", "שלום", "سارة 🌸 وأحمد", "\u{202E}Ferris"] {
        let checked = check_names(name);
        // lied, amongus and the welcome and rank lines at least.
        assert!(checked >= 4, "{name}: only {checked} mixed slots");
    }
}

#[test]
fn a_lone_parameter_keeps_its_own_direction_and_a_name_cannot_escape() {
    let t = TemplateKind::Lied.template();
    let args = t.args(|_| Some("محمد")).unwrap();
    let mut found = Vec::new();
    slots(t.layers, &mut found);
    let text = slot_text(found[0], &args);
    assert_eq!(text, "\u{2068}محمد\u{2069} lied.");
    let args = t.args(|_| Some("a\u{2069}\u{202E}b")).unwrap();
    assert_eq!(slot_text(found[0], &args), "\u{2068}ab\u{2069} lied.");
}

/// The check above sees the flip isolation prevents: "محمد lied." laid out
/// as it was (no isolate) draws " lied." left of the name.
#[test]
fn the_order_check_sees_an_unisolated_name_flip_the_line() {
    let style = TextStyle::new(FontFace::Regular, 24.0);
    let order = |text: &str, name_graphemes: usize| {
        let layout = layout_text(text, &style, 1000.0).unwrap();
        let line = &layout.visual_graphemes()[0];
        line.iter()
            .map(|&g| usize::from(g as usize >= name_graphemes))
            .collect::<Vec<_>>()
    };
    // Graphemes 0–3 are the name, the rest our words.
    assert!(!in_order(&order("محمد lied.", 4)));
    // With the isolate: FSI, the name, PDI (graphemes 0–5), our words.
    assert!(in_order(&order(
        &(crate::text::isolate("محمد") + " lied."),
        6
    )));
}
