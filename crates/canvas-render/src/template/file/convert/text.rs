//! Text layers and the pieces their text is assembled from.

use std::ops::Range;

use toml::Spanned;

use super::super::format::{LayerFile, PieceFile};
use super::super::{Checker, leak_str};
use super::{
    Assets, MAX_LIST, Need, Params, R, area, assets, check_options_len, colour, enum_field, leak,
    paint, param_ref, parse_colour, required,
};
use crate::template::{Layer, Palette, Piece, Reveal, TextSlot};
use crate::text::{Align, FontFace, MAX_FONT_SIZE, MAX_OUTLINE_WIDTH, MIN_FONT_SIZE, VAlign};

/// The built-in faces by name.
pub(in super::super) const FACES: &[(&str, FontFace)] = &[
    ("regular", FontFace::Regular),
    ("bold", FontFace::Bold),
    ("meme", FontFace::Meme),
    ("serif-italic", FontFace::SerifItalic),
];

pub(in super::super) const ALIGNS: &[(&str, Align)] = &[
    ("left", Align::Left),
    ("center", Align::Center),
    ("right", Align::Right),
];

pub(in super::super) const VALIGNS: &[(&str, VAlign)] = &[
    ("top", VAlign::Top),
    ("middle", VAlign::Middle),
    ("bottom", VAlign::Bottom),
];

const WHITE: [u8; 4] = [255; 4];

/// A text's face: a built-in one by name (`face`) or a family (`family`).
pub(super) fn face(
    c: &Checker,
    at: &str,
    face: Option<&Spanned<String>>,
    family: Option<&Spanned<String>>,
    assets: &Assets,
) -> R<FontFace> {
    let f = |name: &str| format!("{at}.{name}");
    let built_in = enum_field(c, &f("face"), face, FACES, FontFace::Regular)?;
    match family {
        None => Ok(built_in),
        Some(family) if face.is_some() => Err(c.err(
            family.span(),
            &f("family"),
            "a text takes `face` or `family`, not both",
        )),
        Some(family) => assets::family_face(c, &f("family"), family, &assets.families),
    }
}

pub(super) fn text_layer(
    c: &Checker,
    at: &str,
    l: &LayerFile,
    span: Range<usize>,
    params: &Params,
    assets: &Assets,
    frames: u32,
) -> R<Layer> {
    let f = |name: &str| format!("{at}.{name}");
    let text = required(c, at, "text", &l.text, &span)?;
    let pieces = pieces(c, &f("text"), text.get_ref(), params, 0)?;
    let size = required(c, at, "size", &l.size, &span)?;
    let font_range = MIN_FONT_SIZE..=MAX_FONT_SIZE;
    if !font_range.contains(size.get_ref()) {
        return Err(c.err(
            size.span(),
            &f("size"),
            format!("a font size from {MIN_FONT_SIZE} to {MAX_FONT_SIZE} pixels"),
        ));
    }
    let min_size = match &l.min_size {
        None => *size.get_ref(),
        Some(m) if font_range.contains(m.get_ref()) && m.get_ref() <= size.get_ref() => {
            *m.get_ref()
        }
        Some(m) => {
            return Err(c.err(
                m.span(),
                &f("min_size"),
                format!("a font size from {MIN_FONT_SIZE} to `size`"),
            ));
        }
    };
    let face = face(c, at, l.face.as_ref(), l.family.as_ref(), assets)?;
    let outline = match &l.outline {
        None => None,
        Some(o) => {
            let o = o.get_ref();
            let w = *o.width.get_ref();
            if !(w > 0.0 && w <= MAX_OUTLINE_WIDTH) {
                return Err(c.err(
                    o.width.span(),
                    &f("outline.width"),
                    format!("above 0, at most {MAX_OUTLINE_WIDTH}"),
                ));
            }
            Some((colour(c, &f("outline.color"), &o.color)?, w))
        }
    };
    let reveal = match &l.reveal {
        None => Reveal::All,
        Some(r) => {
            let r = r.get_ref();
            let (from, to) = (*r.from.get_ref(), *r.to.get_ref());
            if from > to || to > frames {
                return Err(c.err(
                    r.to.span(),
                    &f("reveal"),
                    format!("from ≤ to ≤ the frame count ({frames})"),
                ));
            }
            Reveal::Typed { from, to }
        }
    };
    let replaced_by = l
        .replaced_by
        .as_ref()
        .map(|p| param_ref(c, &f("replaced_by"), p, params, Need::Text))
        .transpose()?;
    let slot = TextSlot {
        replaced_by,
        pieces,
        face,
        size: *size.get_ref(),
        min_size,
        color: match &l.color {
            None => WHITE,
            Some(col) => colour(c, &f("color"), col)?,
        },
        outline,
        align: enum_field(c, &f("align"), l.align.as_ref(), ALIGNS, Align::Left)?,
        valign: enum_field(c, &f("valign"), l.valign.as_ref(), VALIGNS, VAlign::Top)?,
        area: area(c, &f("area"), l.area.as_ref(), span.clone())?,
        reveal,
    };
    Ok(match (&l.paint, &l.palette) {
        (None, None) => Layer::Text(slot),
        (Some(p), None) => Layer::PaintedText {
            paint: paint(c, &f("paint"), p, params)?,
            slot,
        },
        (None, Some(pal)) => {
            let pf = pal.get_ref();
            let param = param_ref(c, &f("palette.param"), &pf.param, params, Need::Choice)?;
            check_options_len(
                c,
                &f("palette.colors"),
                pf.colors.span(),
                pf.colors.get_ref().len(),
                params,
                param,
            )?;
            let mut colors = Vec::new();
            for col in pf.colors.get_ref() {
                colors.push(parse_colour(col).ok_or_else(|| {
                    c.err(
                        pf.colors.span(),
                        &f("palette.colors"),
                        format!("`{col}` is not a colour"),
                    )
                })?);
            }
            Layer::PaletteText(
                slot,
                Palette {
                    param,
                    colors: leak(colors),
                    light_outline: colour(c, &f("palette.light_outline"), &pf.light_outline)?,
                },
            )
        }
        (Some(p), Some(_)) => {
            return Err(c.err(
                p.span(),
                &f("paint"),
                "a text takes `paint` or `palette`, not both",
            ));
        }
    })
}

pub(super) fn pieces(
    c: &Checker,
    field: &str,
    list: &[Spanned<PieceFile>],
    params: &Params,
    depth: usize,
) -> R<&'static [Piece]> {
    if list.len() > MAX_LIST || depth > 4 {
        return Err(c.err(
            list.first().map_or(0..0, |p| p.span()),
            field,
            format!("at most {MAX_LIST} pieces, nested at most 4 deep"),
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, p) in list.iter().enumerate() {
        out.push(piece(c, &format!("{field}[{i}]"), p, params, depth)?);
    }
    Ok(leak(out))
}

fn piece(
    c: &Checker,
    field: &str,
    sp: &Spanned<PieceFile>,
    params: &Params,
    depth: usize,
) -> R<Piece> {
    let p = sp.get_ref();
    let keys = [
        ("lit", p.lit.is_some()),
        ("param", p.param.is_some()),
        ("upper", p.upper.is_some()),
        ("plain", p.plain.is_some()),
        ("handle", p.handle.is_some()),
        ("compact", p.compact.is_some()),
        ("if_set", p.if_set.is_some()),
        ("if_given", p.if_given.is_some()),
        ("flag", p.flag.is_some()),
        ("pick", p.pick.is_some()),
    ];
    let heads: Vec<&str> = keys.iter().filter(|(_, on)| *on).map(|(k, _)| *k).collect();
    let companions = [
        ("with", p.with.is_some(), "compact"),
        ("pieces", p.pieces.is_some(), "if_set"),
        ("yes", p.yes.is_some(), "flag"),
        ("no", p.no.is_some(), "flag"),
        ("texts", p.texts.is_some(), "pick"),
    ];
    let [head] = heads[..] else {
        return Err(c.err(
            sp.span(),
            field,
            "a piece has exactly one of lit, param, upper, plain, handle, compact, if_set, if_given, flag, pick",
        ));
    };
    for (name, on, owner) in companions {
        let ok = owner == head || (name == "pieces" && head == "if_given");
        if on && !ok {
            return Err(c.err(
                sp.span(),
                field,
                format!("`{name}` does not go with `{head}`"),
            ));
        }
    }
    let need = |name: &str, v: bool| -> R<()> {
        if v {
            Ok(())
        } else {
            Err(c.err(sp.span(), field, format!("`{head}` needs `{name}`")))
        }
    };
    let sub = |f: &str| format!("{field}.{f}");
    Ok(match head {
        "lit" => Piece::Lit(leak_str(p.lit.as_deref().unwrap_or_default())),
        "param" => Piece::Param(param_ref(
            c,
            &sub("param"),
            p.param.as_ref().expect("head"),
            params,
            Need::TextOrInt,
        )?),
        "upper" => Piece::Upper(param_ref(
            c,
            &sub("upper"),
            p.upper.as_ref().expect("head"),
            params,
            Need::Text,
        )?),
        "plain" => Piece::Plain(param_ref(
            c,
            &sub("plain"),
            p.plain.as_ref().expect("head"),
            params,
            Need::Text,
        )?),
        "handle" => Piece::Handle(param_ref(
            c,
            &sub("handle"),
            p.handle.as_ref().expect("head"),
            params,
            Need::Text,
        )?),
        "compact" => {
            let param = param_ref(
                c,
                &sub("compact"),
                p.compact.as_ref().expect("head"),
                params,
                Need::Int,
            )?;
            match &p.with {
                None => Piece::Compact(param),
                Some(w) => Piece::CompactWith {
                    param,
                    with: param_ref(c, &sub("with"), w, params, Need::Int)?,
                },
            }
        }
        "if_set" | "if_given" => {
            let name = if head == "if_set" {
                &p.if_set
            } else {
                &p.if_given
            };
            let param = param_ref(
                c,
                &sub(head),
                name.as_ref().expect("head"),
                params,
                Need::Any,
            )?;
            need("pieces", p.pieces.is_some())?;
            let inner = pieces(
                c,
                &sub("pieces"),
                p.pieces.as_deref().unwrap_or_default(),
                params,
                depth + 1,
            )?;
            if head == "if_set" {
                Piece::IfSet {
                    param,
                    pieces: inner,
                }
            } else {
                Piece::IfGiven {
                    param,
                    pieces: inner,
                }
            }
        }
        "flag" => {
            need("yes", p.yes.is_some())?;
            need("no", p.no.is_some())?;
            Piece::Flag {
                param: param_ref(
                    c,
                    &sub("flag"),
                    p.flag.as_ref().expect("head"),
                    params,
                    Need::Bool,
                )?,
                yes: leak_str(p.yes.as_deref().unwrap_or_default()),
                no: leak_str(p.no.as_deref().unwrap_or_default()),
            }
        }
        "pick" => {
            need("texts", p.texts.is_some())?;
            let param = param_ref(
                c,
                &sub("pick"),
                p.pick.as_ref().expect("head"),
                params,
                Need::Choice,
            )?;
            let texts = p.texts.as_ref().expect("checked");
            check_options_len(
                c,
                &sub("texts"),
                texts.span(),
                texts.get_ref().len(),
                params,
                param,
            )?;
            Piece::Pick {
                param,
                texts: leak(texts.get_ref().iter().map(|t| leak_str(t)).collect()),
            }
        }
        _ => unreachable!("heads are listed above"),
    })
}
