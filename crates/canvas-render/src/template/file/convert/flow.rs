//! Layers that flow: a growing text (`grow`) with the layers below it,
//! and rows of items (`row`).

use std::ops::Range;

use toml::Spanned;

use super::super::format::{ItemFile, LayerFile};
use super::super::{Checker, MAX_CANVAS_SIDE, MAX_LAYERS};
use super::{
    Ctx, MAX_LIST, Need, R, art_name, check_options_len, conditions, layer, leak, paint, param_ref,
    shape, text,
};
use crate::template::{Art, Grow, Layer, Lead, Markup, Row, RowItem, TextSlot};
use crate::text::{MAX_FONT_SIZE, MIN_FONT_SIZE};

/// Deepest nesting of `group` items in a row.
const MAX_GROUP_DEPTH: usize = 4;
/// Line spacing of a growing text, a multiple of the font size.
const LINE_SPACING: std::ops::RangeInclusive<f32> = 0.5..=3.0;
/// Largest offset, width or advance in a row, in pixels.
const MAX_COORD: f32 = 1e5;

/// The kinds of row item and the fields each takes (besides `kind`).
pub(in super::super) const ITEM_FIELDS: &[(&str, &[&str])] = &[
    (
        "text",
        &[
            "text",
            "replaced_by",
            "face",
            "family",
            "size",
            "paint",
            "max_width",
            "dy",
            "gap",
        ],
    ),
    ("art", &["art", "at", "advance"]),
    ("art-choice", &["param", "arts", "at", "advance"]),
    ("shape", &["shape", "area", "paint", "advance"]),
    ("group", &["when", "items"]),
];

fn number(
    c: &Checker,
    field: &str,
    v: &Spanned<f32>,
    ok: impl Fn(f32) -> bool,
    what: &str,
) -> R<f32> {
    let n = *v.get_ref();
    if n.is_finite() && ok(n) {
        Ok(n)
    } else {
        Err(c.err(v.span(), field, what.to_owned()))
    }
}

fn coord(c: &Checker, field: &str, v: Option<&Spanned<f32>>) -> R<f32> {
    v.map_or(Ok(0.0), |v| {
        number(
            c,
            field,
            v,
            |n| n.abs() <= MAX_COORD,
            "a finite number of pixels",
        )
    })
}

fn point(c: &Checker, field: &str, v: Option<&Spanned<[f32; 2]>>) -> R<(f32, f32)> {
    let Some(v) = v else { return Ok((0.0, 0.0)) };
    let [x, y] = *v.get_ref();
    if [x, y].iter().all(|n| n.is_finite() && n.abs() <= MAX_COORD) {
        Ok((x, y))
    } else {
        Err(c.err(v.span(), field, "finite numbers of pixels: [x, y]"))
    }
}

/// A `grow` layer: a text layer's fields (its colour a `paint`), the
/// spacing of its lines, the margin under it and the layers below it.
pub(super) fn grow(c: &Checker, at: &str, l: &LayerFile, span: Range<usize>, cx: &Ctx) -> R<Layer> {
    let f = |name: &str| format!("{at}.{name}");
    if !cx.still {
        return Err(c.err(
            l.kind.span(),
            &f("kind"),
            "a growing text sets a still canvas's height: no `[timeline]` of more than one frame, no `[camera]`",
        ));
    }
    let (slot, paint) = match text::text_layer(c, at, l, span.clone(), cx.params, cx.assets, 1)? {
        Layer::PaintedText { paint, slot } => (slot, paint),
        _ => {
            return Err(c.err(
                span,
                &f("paint"),
                "a growing text needs `paint`: its colour",
            ));
        }
    };
    // The model ignores the slot's own colour.
    let slot = TextSlot {
        color: [0, 0, 0, 0],
        ..slot
    };
    let line_spacing = match &l.line_spacing {
        None => 1.0,
        Some(v) => number(
            c,
            &f("line_spacing"),
            v,
            |n| LINE_SPACING.contains(&n),
            &format!(
                "a multiple of the font size from {} to {}",
                LINE_SPACING.start(),
                LINE_SPACING.end()
            ),
        )?,
    };
    let margin = match &l.margin {
        None => 0.0,
        Some(v) => number(
            c,
            &f("margin"),
            v,
            |n| (0.0..=MAX_CANVAS_SIDE as f32).contains(&n),
            &format!("0 to {MAX_CANVAS_SIDE} pixels"),
        )?,
    };
    let lead = match &l.lead {
        None => None,
        Some(v) => {
            let file = v.get_ref();
            let when = Spanned::new(file.when.span(), vec![file.when.get_ref().clone()]);
            let Some(when) = conditions(c, &f("lead.when"), &when, cx.params)?.pop() else {
                return Err(c.err(file.when.span(), &f("lead.when"), "one condition"));
            };
            let by = number(
                c,
                &f("lead.by"),
                &file.by,
                |n| n > 0.0 && n <= MAX_CANVAS_SIDE as f32,
                &format!("more than 0, at most {MAX_CANVAS_SIDE} pixels"),
            )?;
            Some(Lead { when, by })
        }
    };
    let markup = match &l.markup {
        None => None,
        Some(v) => {
            let m = v.get_ref();
            Some(Markup {
                mention: super::paint(c, &f("markup.mention"), &m.mention, cx.params)?,
                mention_chip: super::paint(
                    c,
                    &f("markup.mention_chip"),
                    &m.mention_chip,
                    cx.params,
                )?,
                code_chip: super::paint(c, &f("markup.code_chip"), &m.code_chip, cx.params)?,
            })
        }
    };
    // The canvas runs from one line of text (the smallest) to the text
    // taking its whole box (the largest: the template's `size`, the lead
    // taken); over a main picture (`fit`), the picture and what is below
    // it follow.
    let (_, y, _, h) = slot.area;
    let area_span = l.area.as_ref().map_or(span.clone(), |a| a.span());
    let tallest = (y + lead.map_or(0.0, |l| l.by) + h + margin).ceil();
    let fits = match cx.fitted {
        true => tallest <= cx.height as f32,
        false => tallest == cx.height as f32,
    };
    if y < 0.0 || !fits {
        return Err(c.err(
            area_span,
            &f("area"),
            format!(
                "the box's top is at least 0, and its bottom plus `margin` is the tallest canvas, the template's height {}; got {tallest}",
                cx.height
            ),
        ));
    }
    if h < slot.size * line_spacing {
        return Err(c.err(
            area_span,
            &f("area"),
            format!(
                "the box holds at least one line: `size` × `line_spacing` = {} pixels tall",
                slot.size * line_spacing
            ),
        ));
    }
    let below = match &l.below {
        None => &[][..],
        Some(list) => {
            if list.get_ref().len() > MAX_LAYERS {
                return Err(c.err(
                    list.span(),
                    &f("below"),
                    format!("at most {MAX_LAYERS} layers"),
                ));
            }
            let inner = Ctx { below: true, ..*cx };
            let mut out = Vec::with_capacity(list.get_ref().len());
            for (i, sub) in list.get_ref().iter().enumerate() {
                out.push(layer(c, &format!("{at}.below[{i}]"), sub, &inner)?);
            }
            leak(out)
        }
    };
    Ok(Layer::Grow(Grow {
        slot,
        line_spacing,
        paint,
        margin,
        below,
        lead,
        markup,
    }))
}

/// A `row` layer: where it starts, how far right its text may reach, and
/// its items.
pub(super) fn row(c: &Checker, at: &str, l: &LayerFile, span: Range<usize>, cx: &Ctx) -> R<Layer> {
    let f = |name: &str| format!("{at}.{name}");
    let Some(origin) = &l.at else {
        return Err(c.err(span, &f("at"), "a row needs where it starts: at = [x, y]"));
    };
    let (x, y) = point(c, &f("at"), Some(origin))?;
    let right = l
        .right
        .as_ref()
        .map(|r| coord(c, &f("right"), Some(r)))
        .transpose()?;
    let Some(items) = &l.items else {
        return Err(c.err(span, &f("items"), "a row needs its `items`"));
    };
    let mut count = 0;
    let items = self::items(c, &f("items"), items, cx, 0, &mut count)?;
    Ok(Layer::Row(Row { x, y, right, items }))
}

fn present(i: &ItemFile) -> Vec<(&'static str, Range<usize>)> {
    fn s<T>(v: &Option<Spanned<T>>) -> Option<Range<usize>> {
        v.as_ref().map(|v| v.span())
    }
    let all = [
        ("when", s(&i.when)),
        ("items", s(&i.items)),
        ("text", s(&i.text)),
        ("replaced_by", s(&i.replaced_by)),
        ("face", s(&i.face)),
        ("family", s(&i.family)),
        ("size", s(&i.size)),
        ("paint", s(&i.paint)),
        ("max_width", s(&i.max_width)),
        ("dy", s(&i.dy)),
        ("gap", s(&i.gap)),
        ("art", s(&i.art)),
        ("param", s(&i.param)),
        ("arts", s(&i.arts)),
        ("at", s(&i.at)),
        ("advance", s(&i.advance)),
        ("shape", s(&i.shape)),
        ("area", s(&i.area)),
    ];
    all.into_iter().filter_map(|(n, s)| Some((n, s?))).collect()
}

fn items(
    c: &Checker,
    field: &str,
    list: &Spanned<Vec<Spanned<ItemFile>>>,
    cx: &Ctx,
    depth: usize,
    count: &mut usize,
) -> R<&'static [RowItem]> {
    if depth > MAX_GROUP_DEPTH {
        return Err(c.err(
            list.span(),
            field,
            format!("groups nest at most {MAX_GROUP_DEPTH} deep"),
        ));
    }
    let mut out = Vec::with_capacity(list.get_ref().len());
    for (i, it) in list.get_ref().iter().enumerate() {
        *count += 1;
        if *count > MAX_LIST {
            return Err(c.err(
                it.span(),
                field,
                format!("a row has at most {MAX_LIST} items, those of its groups included"),
            ));
        }
        out.push(item(c, &format!("{field}[{i}]"), it, cx, depth, count)?);
    }
    Ok(leak(out))
}

fn item(
    c: &Checker,
    at: &str,
    spanned: &Spanned<ItemFile>,
    cx: &Ctx,
    depth: usize,
    count: &mut usize,
) -> R<RowItem> {
    let it = spanned.get_ref();
    let span = spanned.span();
    let f = |name: &str| format!("{at}.{name}");
    let kind = it.kind.get_ref().as_str();
    let Some((_, allowed)) = ITEM_FIELDS.iter().find(|(k, _)| *k == kind) else {
        let kinds: Vec<&str> = ITEM_FIELDS.iter().map(|(k, _)| *k).collect();
        return Err(c.err(
            it.kind.span(),
            &f("kind"),
            format!("`{kind}` is not a kind of row item: {}", kinds.join(", ")),
        ));
    };
    if let Some((name, s)) = present(it).into_iter().find(|(n, _)| !allowed.contains(n)) {
        return Err(c.err(
            s,
            &f(name),
            format!("a row item of kind `{kind}` has no `{name}`"),
        ));
    }
    fn needs<'a, T>(
        c: &Checker,
        at: &str,
        name: &str,
        v: &'a Option<Spanned<T>>,
        span: &Range<usize>,
    ) -> R<&'a Spanned<T>> {
        super::needed(c, (at, "row item"), name, v, span)
    }
    let advance = |c: &Checker| -> R<f32> {
        coord(
            c,
            &f("advance"),
            Some(needs(c, at, "advance", &it.advance, &span)?),
        )
    };
    Ok(match kind {
        "text" => {
            let pieces = text::pieces(
                c,
                &f("text"),
                needs(c, at, "text", &it.text, &span)?.get_ref(),
                cx.params,
                0,
            )?;
            let size = number(
                c,
                &f("size"),
                needs(c, at, "size", &it.size, &span)?,
                |n| (MIN_FONT_SIZE..=MAX_FONT_SIZE).contains(&n),
                &format!("a font size from {MIN_FONT_SIZE} to {MAX_FONT_SIZE} pixels"),
            )?;
            RowItem::Text {
                replaced_by: it
                    .replaced_by
                    .as_ref()
                    .map(|p| param_ref(c, &f("replaced_by"), p, cx.params, Need::Text))
                    .transpose()?,
                pieces,
                face: text::face(c, at, it.face.as_ref(), it.family.as_ref(), cx.assets)?,
                size,
                paint: paint(
                    c,
                    &f("paint"),
                    needs(c, at, "paint", &it.paint, &span)?,
                    cx.params,
                )?,
                max_width: number(
                    c,
                    &f("max_width"),
                    needs(c, at, "max_width", &it.max_width, &span)?,
                    |n| n > 0.0 && n <= MAX_COORD,
                    "a width in pixels above 0",
                )?,
                dy: coord(c, &f("dy"), it.dy.as_ref())?,
                gap: coord(c, &f("gap"), it.gap.as_ref())?,
            }
        }
        "art" => RowItem::Art {
            art: art_name(c, &f("art"), needs(c, at, "art", &it.art, &span)?)?,
            at: point(c, &f("at"), it.at.as_ref())?,
            advance: advance(c)?,
        },
        "art-choice" => {
            let param = param_ref(
                c,
                &f("param"),
                needs(c, at, "param", &it.param, &span)?,
                cx.params,
                Need::Choice,
            )?;
            let arts = needs(c, at, "arts", &it.arts, &span)?;
            check_options_len(
                c,
                &f("arts"),
                arts.span(),
                arts.get_ref().len(),
                cx.params,
                param,
            )?;
            let mut list = Vec::with_capacity(arts.get_ref().len());
            for a in arts.get_ref() {
                list.push(Art::from_name(a).ok_or_else(|| {
                    c.err(
                        arts.span(),
                        &f("arts"),
                        format!("no built-in art named `{a}`"),
                    )
                })?);
            }
            RowItem::ArtChoice {
                param,
                arts: leak(list),
                at: point(c, &f("at"), it.at.as_ref())?,
                advance: advance(c)?,
            }
        }
        "shape" => RowItem::Shape {
            shape: shape(c, &f("shape"), needs(c, at, "shape", &it.shape, &span)?)?,
            area: super::area(c, &f("area"), it.area.as_ref(), span.clone())?,
            paint: paint(
                c,
                &f("paint"),
                needs(c, at, "paint", &it.paint, &span)?,
                cx.params,
            )?,
            advance: advance(c)?,
        },
        "group" => {
            let when = needs(c, at, "when", &it.when, &span)?;
            let conds = conditions(c, &f("when"), when, cx.params)?;
            if conds.is_empty() {
                return Err(c.err(when.span(), &f("when"), "a group needs a condition"));
            }
            let inner = items(
                c,
                &f("items"),
                needs(c, at, "items", &it.items, &span)?,
                cx,
                depth + 1,
                count,
            )?;
            // Conditions nest, the first outermost.
            let mut group = RowItem::When(conds[conds.len() - 1], inner);
            for cond in conds[..conds.len() - 1].iter().rev() {
                group = RowItem::When(*cond, leak(vec![group]));
            }
            group
        }
        _ => unreachable!("kinds are checked above"),
    })
}
