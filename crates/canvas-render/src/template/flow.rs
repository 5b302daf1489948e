//! Layers that flow: a text that sets the canvas's height ([`Grow`]) with
//! the layers that move down with it, and rows of items each after the one
//! before ([`Row`]).

use super::*;

/// The template's [`Layer::Grow`], if it has one (at the top level).
pub(super) fn grow_of(template: &Template) -> Option<&'static Grow> {
    template.layers.iter().find_map(|layer| match layer {
        Layer::Grow(grow) => Some(grow),
        _ => None,
    })
}

/// The style of a growing text for these arguments.
pub(super) fn grow_style(grow: &Grow, args: &Args) -> TextStyle {
    slot_style(
        &grow.slot,
        (grow.paint.rgba(args), grow.slot.outline),
        grow.slot.size,
    )
    .line_spacing(grow.line_spacing)
}

/// A growing text's last layout on this thread, by the address of its
/// [`Grow`], the font set's generation, its markup's colours and its
/// text: the size asked before a render ([`Template::size_for`]) and the
/// render itself lay it out once.
type LastLayout = Option<((usize, u64, [[u8; 4]; 3]), String, TextLayout, f32)>;

/// The room a growing text's [`Lead`] takes for these arguments (0 when
/// its condition does not hold, or without one).
pub(super) fn lead(grow: &Grow, args: &Args) -> f32 {
    grow.lead
        .filter(|l| l.when.holds(args))
        .map_or(0.0, |l| l.by)
}

/// The growing text's box for these arguments: moved down by its lead.
fn grow_area(grow: &Grow, args: &Args) -> (f32, f32, f32, f32) {
    let (x, y, w, h) = grow.slot.area;
    (x, y + lead(grow, args), w, h)
}

thread_local! {
    static LAST_LAYOUT: std::cell::RefCell<LastLayout> = const { std::cell::RefCell::new(None) };
}

/// The growing text laid out, and the height it takes: its own at its
/// size when it fits the box, else the whole box (it shrank to fit, or
/// was cut).
fn grow_layout(grow: &Grow, args: &Args) -> Result<(TextLayout, f32), RenderError> {
    let text = slot_text(&grow.slot, args);
    let colours = grow.markup.map_or([[0; 4]; 3], |m| {
        [
            m.mention.rgba(args),
            m.mention_chip.rgba(args),
            m.code_chip.rgba(args),
        ]
    });
    let key = (
        std::ptr::from_ref(grow) as usize,
        text::font_generation(),
        colours,
    );
    let kept = LAST_LAYOUT.with_borrow(|last| match last {
        Some((k, t, layout, h)) if *k == key && *t == text => Some((layout.clone(), *h)),
        _ => None,
    });
    if let Some(found) = kept {
        return Ok(found);
    }
    // The colour does not change the layout: any theme's will do.
    let style = grow_style(grow, args);
    let (x, y, w, h) = grow.slot.area;
    let area = TextBox::new(x, y, w, h);
    let layout = match &grow.markup {
        Some(markup) => {
            let (plain, marks) = super::markup::parse_markup(&text);
            let spans = super::markup::looks(markup, args, marks);
            text::fit_rich(&plain, &spans, &style, area, grow.slot.min_size)?
        }
        None => text::fit_text(&text, &style, area, grow.slot.min_size)?,
    };
    let natural = layout.font_size() == grow.slot.size && !layout.is_truncated();
    let height = if natural { layout.height() } else { h };
    LAST_LAYOUT.set(Some((key, text, layout.clone(), height)));
    Ok((layout, height))
}

/// The height of the tallest canvas: the text taking its whole box (and
/// its lead, when it has one).
pub(super) fn tallest(grow: &Grow) -> f32 {
    let (_, y, _, h) = grow.slot.area;
    (y + grow.lead.map_or(0.0, |l| l.by) + h + grow.margin).ceil()
}

/// The height of the tallest canvas for these arguments (the lead taken
/// only when its condition holds).
fn tallest_for(grow: &Grow, args: &Args) -> f32 {
    let (_, y, _, h) = grow_area(grow, args);
    (y + h + grow.margin).ceil()
}

/// The canvas height for these arguments (the tallest when the text
/// cannot be laid out: the render then says why).
pub(super) fn grow_height(grow: &Grow, args: &Args) -> u32 {
    match grow_layout(grow, args) {
        Ok((_, h)) => (grow_area(grow, args).1 + h + grow.margin).ceil() as u32,
        Err(_) => tallest_for(grow, args) as u32,
    }
}

/// Draws the growing text, then the layers below it moved up by as many
/// whole pixels as the canvas is shorter than the tallest.
pub(super) fn draw_grow(canvas: &mut Canvas, grow: &Grow, args: &Args) -> Result<(), RenderError> {
    let (layout, h) = grow_layout(grow, args)?;
    let (x, y, w, _) = grow_area(grow, args);
    let style = grow_style(grow, args);
    let area = TextBox::new(x, y, w, h);
    let decorations = layout.decorations(&style, area);
    for d in decorations.iter().filter(|d| d.chip) {
        let (dx, dy, dw, dh) = d.area;
        let path = rrect_path(dx, dy, dw, dh, dh * 0.18);
        canvas.color(&path, colour(d.color));
    }
    canvas.draw_layout(&layout, &style, area);
    for d in decorations.iter().filter(|d| !d.chip) {
        let (dx, dy, dw, dh) = d.area;
        canvas.color(&rect_path(dx, dy, dw, dh), colour(d.color));
    }
    let dy = canvas.pixmap.height() as f32 - tallest_for(grow, args);
    for layer in grow.below {
        draw_moved(canvas, layer, args, dy)?;
    }
    Ok(())
}

/// Draws one line of text as [`Canvas::line`] does, in an ink that reads
/// over what is under it ([`super::contrast::readable_ink`]; bold text of
/// 18.66 px and up is held to the titles' floor, as WCAG's large text);
/// gives its width.
fn readable_line(
    canvas: &mut Canvas,
    text: &str,
    style: TextStyle,
    (x, y): (f32, f32),
    max_width: f32,
) -> Result<f32, RenderError> {
    let width = max_width.max(1.0);
    let layout = text::fit_single_line(text, &style, width)?;
    let slot = TextSlot {
        replaced_by: None,
        pieces: &[],
        face: style.face,
        size: style.size,
        min_size: style.size,
        color: style.color,
        outline: None,
        align: Align::Left,
        valign: VAlign::Top,
        area: (x, y, width, style.size * 2.0),
        reveal: Reveal::All,
    };
    // Bold text of 14 pt (18.66 px) and up is large text (WCAG), held
    // to the titles' floor.
    let large = style.face == FontFace::Bold && style.size >= 18.66;
    let judged = TextSlot {
        size: match large {
            true => style.size.max(super::contrast::TITLE_SIZE),
            false => style.size,
        },
        ..slot
    };
    let ink = super::contrast::readable_ink(&canvas.pixmap, &judged, (style.color, None), &layout);
    let (area, style) = text_box_style(&slot, ink);
    canvas.draw_layout(&layout, &style, area);
    Ok(layout.width())
}

/// A straight RGBA colour for the canvas.
fn colour([r, g, b, a]: [u8; 4]) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(r, g, b, a)
}

/// Whether a layer may sit below a growing text ([`Grow::below`]): art,
/// shapes, rows, text and conditions on those.
#[cfg(test)]
pub(super) fn movable(layer: &Layer) -> bool {
    match layer {
        Layer::Art { .. }
        | Layer::ArtChoice { .. }
        | Layer::Shape(_)
        | Layer::Row(_)
        | Layer::Text(_)
        | Layer::PaintedText { .. }
        | Layer::PaletteText(..) => true,
        Layer::When { layer, .. } => movable(layer),
        _ => false,
    }
}

/// Draws `layer` (of a still template) moved down by `dy` pixels.
fn draw_moved(canvas: &mut Canvas, layer: &Layer, args: &Args, dy: f32) -> Result<(), RenderError> {
    let moved = |p: Place| Place { y: p.y + dy, ..p };
    match layer {
        Layer::Art { art, motion } => {
            if let Some(place) = place_at(motion, 0) {
                draw_art(canvas, art::cached(*art), &moved(place));
            }
        }
        Layer::ArtChoice {
            param,
            arts,
            motion,
        } => {
            if let (Some(place), Some(art)) = (place_at(motion, 0), arts.get(args.choice(param))) {
                draw_art(canvas, art::cached(*art), &moved(place));
            }
        }
        Layer::Shape(slot) => {
            let (x, y, w, h) = slot.area;
            let slot = ShapeSlot {
                area: (x, y + dy, w, h),
                ..*slot
            };
            draw_shape(canvas, &slot, args);
        }
        Layer::Row(row) => draw_row(canvas, row, args, dy)?,
        Layer::Text(_) | Layer::PaintedText { .. } | Layer::PaletteText(..) => {
            if let Some((slot, ink)) = text_ink(layer, args) {
                let (x, y, w, h) = slot.area;
                let slot = TextSlot {
                    area: (x, y + dy, w, h),
                    ..*slot
                };
                draw_text(canvas, None, &slot, ink, args, 0, &mut None)?;
            }
        }
        Layer::When { when, layer } if when.holds(args) => draw_moved(canvas, layer, args, dy)?,
        // A condition that does not hold; a layer not allowed below a
        // growing text (the tests hold the templates to that).
        _ => {}
    }
    Ok(())
}

/// Draws a row moved down by `dy` pixels.
pub(super) fn draw_row(
    canvas: &mut Canvas,
    row: &Row,
    args: &Args,
    dy: f32,
) -> Result<(), RenderError> {
    let mut x = row.x;
    draw_items(canvas, row, row.items, args, &mut x, row.y + dy)
}

/// The text of a row's text item.
pub(super) fn item_text(replaced_by: Option<&str>, pieces: &[Piece], args: &Args) -> String {
    if let Some(p) = replaced_by {
        let t = args.text(p);
        if !t.trim().is_empty() {
            return t.to_owned();
        }
    }
    let mut out = String::new();
    push_pieces(&mut out, pieces, args, !matches!(pieces, [Piece::Param(_)]));
    out
}

fn draw_items(
    canvas: &mut Canvas,
    row: &Row,
    items: &[RowItem],
    args: &Args,
    x: &mut f32,
    top: f32,
) -> Result<(), RenderError> {
    // Art is drawn on whole pixels (sharp, a copy); text and shapes where
    // they fall.
    let art_at = |canvas: &mut Canvas, art: Art, x: f32, dy: f32| {
        let (w, h) = art.size();
        let place = Place::rect(x.round(), (top + dy).round(), w as f32, h as f32);
        draw_art(canvas, art::cached(art), &place);
    };
    for item in items {
        match *item {
            RowItem::Text {
                replaced_by,
                pieces,
                face,
                size,
                paint,
                max_width,
                dy,
                gap,
            } => {
                let text = item_text(replaced_by, pieces, args);
                let style = TextStyle::new(face, size).color(paint.rgba(args));
                let width = match row.right {
                    Some(right) => max_width.min(right - *x).max(40.0),
                    None => max_width,
                };
                *x += match paint {
                    // A colour the caller chose is held to the contrast
                    // rule over what is under it (a name's colour).
                    Paint::Param { .. } => {
                        readable_line(canvas, &text, style, (*x, top + dy), width)?
                    }
                    _ => canvas.line(&text, &style, *x, top + dy, width)?,
                } + gap;
            }
            RowItem::Art { art, at, advance } => {
                art_at(canvas, art, *x + at.0, at.1);
                *x += advance;
            }
            RowItem::ArtChoice {
                param,
                arts,
                at,
                advance,
            } => {
                if let Some(art) = arts.get(args.choice(param)) {
                    art_at(canvas, *art, *x + at.0, at.1);
                }
                *x += advance;
            }
            RowItem::Shape {
                shape,
                area: (dx, dy, w, h),
                paint,
                advance,
            } => {
                let slot = ShapeSlot {
                    shape,
                    area: (*x + dx, top + dy, w, h),
                    paint,
                    stroke: None,
                };
                draw_shape(canvas, &slot, args);
                *x += advance;
            }
            RowItem::When(when, inner) => {
                if when.holds(args) {
                    draw_items(canvas, row, inner, args, x, top)?;
                }
            }
        }
    }
    Ok(())
}
