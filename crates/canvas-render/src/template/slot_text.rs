//! Text slots: the text assembled from pieces and parameters, its style,
//! its layout kept across frames and how much of it a frame shows.

use super::*;

/// Appends the text of `pieces` for these arguments to `out`; with
/// `isolate`, each text parameter (not a number) in a first-strong
/// isolate ([`crate::text::isolate`]).
pub(super) fn push_pieces(out: &mut String, pieces: &[Piece], args: &Args, isolate: bool) {
    for piece in pieces {
        match *piece {
            Piece::Lit(s) => out.push_str(s),
            Piece::Param(p) if isolate && matches!(args.get(p), Some(Value::Text(_))) => {
                out.push_str(&crate::text::isolate(&args.display(p)));
            }
            Piece::Param(p) => out.push_str(&args.display(p)),
            Piece::Upper(p) if isolate => {
                out.push_str(&crate::text::isolate(&args.text(p).to_uppercase()));
            }
            Piece::Upper(p) => out.push_str(&args.text(p).to_uppercase()),
            Piece::Plain(p) if isolate => {
                out.push_str(&crate::text::isolate(&super::parse_markup(args.text(p)).0));
            }
            Piece::Plain(p) => out.push_str(&super::parse_markup(args.text(p)).0),
            Piece::Compact(p) => out.push_str(&crate::text::format_count(args.int(p))),
            Piece::CompactWith { param, with } => {
                let (n, other) = (args.int(param), args.int(with));
                let from = if n.max(other) >= 10_000 {
                    1_000
                } else {
                    10_000
                };
                out.push_str(&crate::text::format_count_from(n, from));
            }
            Piece::IfSet { param, pieces } => {
                if args.is_set(param) {
                    push_pieces(out, pieces, args, isolate);
                }
            }
            Piece::Handle(p) => {
                out.push('@');
                out.push_str(&crate::text::isolate(args.text(p).trim_start_matches('@')));
            }
            Piece::Flag { param, yes, no } => out.push_str(if args.flag(param) { yes } else { no }),
            Piece::Pick { param, texts } => {
                out.push_str(texts.get(args.choice(param)).copied().unwrap_or(""));
            }
            Piece::IfGiven { param, pieces } => {
                if args.given(param) {
                    push_pieces(out, pieces, args, isolate);
                }
            }
        }
    }
}

/// The text of a slot for these arguments. A slot that puts a parameter
/// beside anything else (our words, a number, another parameter) isolates
/// each text parameter, so a right-to-left name leaves the rest in its
/// order; a slot that is one parameter alone takes that text's own
/// direction.
pub(super) fn slot_text(slot: &TextSlot, args: &Args) -> String {
    if let Some(p) = slot.replaced_by {
        let t = args.text(p);
        if !t.trim().is_empty() {
            return t.to_owned();
        }
    }
    let mut out = String::new();
    let alone = matches!(slot.pieces, [Piece::Param(_) | Piece::Upper(_)]);
    push_pieces(&mut out, slot.pieces, args, !alone);
    out
}

/// A text colour and its optional outline (colour, width).
pub(super) type Ink = ([u8; 4], Option<([u8; 4], f32)>);

pub(super) fn slot_style(slot: &TextSlot, (color, outline): Ink, size: f32) -> TextStyle {
    let mut style = TextStyle::new(slot.face, size)
        .color(color)
        .align(slot.align)
        .valign(slot.valign);
    if let Some((c, w)) = outline {
        style = style.outline(c, w);
    }
    style
}

/// Each text slot's whole text, laid out once per render and kept for
/// every frame (the text and its fit do not change from frame to frame).
pub(super) struct TextCache {
    pub(super) slots: Vec<Option<(String, TextLayout)>>,
}

impl TextCache {
    pub(super) fn new(template: &Template) -> TextCache {
        TextCache {
            slots: template.layers.iter().map(|_| None).collect(),
        }
    }

    pub(super) fn slot(&mut self, layer: usize) -> &mut Option<(String, TextLayout)> {
        &mut self.slots[layer]
    }
}

pub(super) fn draw_text(
    canvas: &mut Canvas,
    ground: Option<&Pixmap>,
    slot: &TextSlot,
    (color, outline): Ink,
    args: &Args,
    frame: u32,
    cached: &mut Option<(String, TextLayout)>,
) -> Result<(), RenderError> {
    let (area, style) = text_box_style(slot, (color, outline));
    let Some(shown) = text_shown(slot, &style, area, args, frame, cached)? else {
        return Ok(());
    };
    let Some((_, fitted)) = cached.as_ref() else {
        unreachable!("laid out by text_shown")
    };
    // The ink that reads over what is under the glyphs.
    let ink = super::contrast::readable_ink(
        ground.unwrap_or(&canvas.pixmap),
        slot,
        (color, outline),
        fitted,
    );
    let style = slot_style(slot, ink, slot.size);
    match shown {
        ALL_GRAPHEMES => canvas.draw_layout(fitted, &style, area),
        // The whole text's glyphs of its first graphemes, not shaped
        // again, with the whole text's lines (their widths kept) in the
        // same area and style: each typed character is drawn where it
        // is in the whole sentence.
        shown => canvas.draw_layout(&fitted.first_graphemes(shown), &style, area),
    }
    Ok(())
}

/// A text slot's box and style in this ink.
pub(super) fn text_box_style(slot: &TextSlot, ink: Ink) -> (TextBox, TextStyle) {
    let (x, y, w, h) = slot.area;
    (TextBox::new(x, y, w, h), slot_style(slot, ink, slot.size))
}

/// [`text_shown`]: every grapheme of the text.
pub(super) const ALL_GRAPHEMES: usize = usize::MAX;

/// How many of a text slot's grapheme clusters frame `frame` draws (the
/// first ones; [`ALL_GRAPHEMES`]: the whole layout), `None` when it draws
/// nothing. Lays the whole text out into `cached` first (kept for every
/// frame: the text and its fit do not change from frame to frame).
pub(super) fn text_shown(
    slot: &TextSlot,
    style: &TextStyle,
    area: TextBox,
    args: &Args,
    frame: u32,
    cached: &mut Option<(String, TextLayout)>,
) -> Result<Option<usize>, RenderError> {
    if let Reveal::Typed { from, .. } = slot.reveal
        && frame < from
    {
        return Ok(None);
    }
    if cached.is_none() {
        let full = slot_text(slot, args);
        if full.trim().is_empty() {
            return Ok(None);
        }
        // The size the whole text fits at (kept while it types out).
        let fitted = text::fit_text(&full, style, area, slot.min_size)?;
        *cached = Some((full, fitted));
    }
    let Some((full, fitted)) = cached.as_ref() else {
        unreachable!("filled above")
    };
    Ok(Some(match slot.reveal {
        Reveal::All => ALL_GRAPHEMES,
        Reveal::Typed { from, to } => {
            let count = full.graphemes(true).count();
            let shown = if frame >= to {
                count
            } else {
                let span = (to - from).max(1) as usize;
                (count * (frame - from + 1) as usize).div_ceil(span + 1)
            };
            match fitted.is_truncated() || shown >= count {
                true => ALL_GRAPHEMES,
                false => shown,
            }
        }
    }))
}
