//! Any [`Template`] written as a template file.

use toml::Spanned;

use super::FORMAT;
use super::convert::{ALIGNS, FACES, VALIGNS, expected_for};
use super::format::*;
use crate::template::{
    BarStyle, Layer, Mask, Paint, ParamKind, ParamSpec, Piece, Place, Reveal, RowItem, Shape,
    Template, TextSlot, Tone, Warp, When,
};
use crate::text::FontFace;

fn sp<T>(v: T) -> Spanned<T> {
    Spanned::new(0..0, v)
}

fn hex(c: [u8; 4]) -> String {
    if c[3] == 255 {
        format!("#{:02x}{:02x}{:02x}", c[0], c[1], c[2])
    } else {
        format!("#{:02x}{:02x}{:02x}{:02x}", c[0], c[1], c[2], c[3])
    }
}

fn rgb(n: u32) -> String {
    format!("#{:06x}", n & 0xff_ffff)
}

fn name_of<T: PartialEq + Copy>(table: &[(&'static str, T)], v: T) -> String {
    table
        .iter()
        .find(|(_, t)| *t == v)
        .map_or("regular", |(n, _)| n)
        .to_owned()
}

/// `template` as a template file named `name` (see the [module
/// docs](super)): reading it back with [`super::parse`] gives a template
/// equal to this one. Pictures ([`Layer::Picture`]) are written as their
/// file names; the files themselves are the caller's to copy.
pub fn to_toml(name: &str, template: &Template) -> String {
    let (w, h) = template.size;
    let t = template.timeline;
    let doc = Doc {
        format: sp(FORMAT),
        name: sp(name.to_owned()),
        description: String::new(),
        size: sp([w, h]),
        fonts: Vec::new(),
        timeline: (t.frames != 1 || t.delay_ms != 0 || t.delay_param.is_some()).then(|| {
            sp(TimelineFile {
                frames: sp(t.frames),
                delay_ms: Some(sp(t.delay_ms)),
                delay_param: t.delay_param.map(|p| sp(p.to_owned())),
            })
        }),
        camera: template.camera.map(|c| {
            sp(CameraFile {
                content: sp([c.content.0, c.content.1]),
                offsets: sp(c.offsets.iter().map(|(x, y)| [*x, *y]).collect()),
                backdrop: c.backdrop.iter().map(|l| sp(layer(l))).collect(),
            })
        }),
        params: template.params.iter().map(|p| sp(param(p))).collect(),
        layers: template.layers.iter().map(|l| sp(layer(l))).collect(),
    };
    match toml::Table::try_from(&doc) {
        Ok(mut table) => {
            table.iter_mut().for_each(|(_, v)| shortest(v));
            pretty(&table)
        }
        Err(e) => format!("# not written: {e}\n"),
    }
}

/// Numbers as a person writes them: every number of the format is an
/// `f32` or an integer, so a float is written in the fewest digits that
/// read back as the same `f32` (`59.8`, not `59.79999923706055`), and a
/// whole one without its `.0`.
fn shortest(v: &mut toml::Value) {
    match v {
        toml::Value::Float(f) => {
            let single = *f as f32;
            if single.fract() == 0.0 && single.abs() < 1e9 {
                *v = toml::Value::Integer(single as i64);
            } else if let Ok(short) = single.to_string().parse::<f64>() {
                *f = short;
            }
        }
        toml::Value::Array(items) => items.iter_mut().for_each(shortest),
        toml::Value::Table(t) => t.iter_mut().for_each(|(_, v)| shortest(v)),
        _ => {}
    }
}

/// The file as a person would write it: top-level values, then
/// `[timeline]`, `[camera]`, each `[[param]]` and `[[layer]]`, their
/// values inline (tables as `{ … }`), lists of tables one entry a line.
fn pretty(doc: &toml::Table) -> String {
    use std::fmt::Write;
    fn value(out: &mut String, key: &str, v: &toml::Value) {
        match v {
            toml::Value::Array(items) if items.iter().any(|i| i.is_table()) => {
                let _ = writeln!(out, "{key} = [");
                for item in items {
                    let _ = writeln!(out, "  {item},");
                }
                out.push_str("]\n");
            }
            _ => {
                let _ = writeln!(out, "{key} = {v}");
            }
        }
    }
    /// A table's values; its `below` layers after them, as
    /// `[[<path>.below]]` tables.
    fn table(out: &mut String, path: &str, t: &toml::Table) {
        for (k, v) in t.iter().filter(|(k, _)| *k != "below") {
            value(out, k, v);
        }
        if let Some(toml::Value::Array(below)) = t.get("below") {
            let path = format!("{path}.below");
            for item in below.iter().filter_map(toml::Value::as_table) {
                let _ = writeln!(out, "\n[[{path}]]");
                table(out, &path, item);
            }
        }
    }
    let mut out = String::new();
    let sections = ["timeline", "camera", "param", "layer"];
    for (k, v) in doc.iter().filter(|(k, _)| !sections.contains(&k.as_str())) {
        value(&mut out, k, v);
    }
    for name in sections {
        match doc.get(name) {
            Some(toml::Value::Table(t)) => {
                let _ = writeln!(out, "\n[{name}]");
                table(&mut out, name, t);
            }
            Some(toml::Value::Array(items)) => {
                for item in items.iter().filter_map(toml::Value::as_table) {
                    let _ = writeln!(out, "\n[[{name}]]");
                    table(&mut out, name, item);
                }
            }
            _ => {}
        }
    }
    out
}

fn param(p: &ParamSpec) -> ParamFile {
    let mut out = ParamFile {
        name: sp(p.name.to_owned()),
        kind: sp(String::new()),
        doc: sp(p.doc.to_owned()),
        expected: (p.expected != expected_for(&p.kind)).then(|| sp(p.expected.to_owned())),
        default: None,
        max_chars: None,
        min: None,
        max: None,
        options: None,
    };
    let (kind, default) = match p.kind {
        ParamKind::Text { max_chars, default } => {
            out.max_chars = Some(sp(max_chars as u32));
            (
                "text",
                (!default.is_empty()).then(|| toml::Value::String(default.to_owned())),
            )
        }
        ParamKind::Bool { default } => ("bool", default.then_some(toml::Value::Boolean(true))),
        ParamKind::Int { min, max, default } => {
            out.min = Some(sp(min));
            out.max = Some(sp(max));
            (
                "int",
                (default != min)
                    .then(|| toml::Value::Integer(i64::try_from(default).unwrap_or(i64::MAX))),
            )
        }
        ParamKind::Colour { default } => ("colour", Some(toml::Value::String(rgb(default)))),
        ParamKind::Time => ("time", None),
        ParamKind::Choice { options, default } => {
            out.options = Some(sp(options.iter().map(|o| (*o).to_owned()).collect()));
            (
                "choice",
                (default != 0).then(|| toml::Value::String(options[default].to_owned())),
            )
        }
    };
    out.kind = sp(kind.to_owned());
    out.default = default.map(sp);
    out
}

fn places(motion: &[Place]) -> Option<Spanned<Vec<PlaceFile>>> {
    Some(sp(motion
        .iter()
        .map(|p| PlaceFile {
            x: p.x,
            y: p.y,
            w: p.w,
            h: p.h,
            rotation: p.rotation,
            opacity: p.opacity,
        })
        .collect()))
}

fn mask(m: Mask) -> Option<Spanned<String>> {
    match m {
        Mask::Square => None,
        Mask::Circle => Some(sp("circle".to_owned())),
        Mask::Hexagon => Some(sp("hexagon".to_owned())),
        Mask::Rounded(f) => Some(sp(format!("rounded({f})"))),
    }
}

fn paint(p: Paint) -> Spanned<PaintFile> {
    sp(match p {
        Paint::Fixed(c) => PaintFile {
            color: Some(sp(hex(c))),
            ..PaintFile::default()
        },
        Paint::Param { param, alpha } => PaintFile {
            param: Some(sp(param.to_owned())),
            alpha: (alpha != 255).then(|| sp(alpha)),
            ..PaintFile::default()
        },
        Paint::Pick { param, colors } => PaintFile {
            pick: Some(sp(param.to_owned())),
            colors: Some(sp(colors.iter().map(|c| hex(*c)).collect())),
            ..PaintFile::default()
        },
    })
}

fn area((x, y, w, h): (f32, f32, f32, f32)) -> Option<Spanned<[f32; 4]>> {
    Some(sp([x, y, w, h]))
}

fn kind(k: &str) -> Spanned<String> {
    sp(k.to_owned())
}

fn layer(l: &Layer) -> LayerFile {
    // Conditions, outermost first.
    let mut when = Vec::new();
    let mut inner = l;
    while let Layer::When { when: w, layer } = inner {
        when.push(condition(*w));
        inner = layer;
    }
    let mut out = match inner {
        Layer::Art { art, motion } => LayerFile {
            kind: kind("art"),
            art: Some(sp(art.name().to_owned())),
            place: places(motion),
            ..LayerFile::default()
        },
        Layer::Picture { art, motion } => LayerFile {
            kind: kind("art"),
            file: Some(sp(art.name().to_owned())),
            place: places(motion),
            ..LayerFile::default()
        },
        Layer::ArtChoice {
            param,
            arts,
            motion,
        } => LayerFile {
            kind: kind("art-choice"),
            param: Some(sp((*param).to_owned())),
            arts: Some(sp(arts.iter().map(|a| a.name().to_owned()).collect())),
            place: places(motion),
            ..LayerFile::default()
        },
        Layer::Avatar(slot) => LayerFile {
            kind: kind("avatar"),
            place: places(slot.motion),
            mask: mask(slot.mask),
            grey: slot.grey.then(|| sp(true)),
            tint: slot.tint.map(|t| {
                sp(TintFile {
                    color: sp(rgb(t.rgb)),
                    strength: sp(t.strength),
                })
            }),
            ..LayerFile::default()
        },
        Layer::Image {
            source,
            motion,
            mask: m,
        } => LayerFile {
            kind: kind("image"),
            source: Some(sp((*source).to_owned())),
            place: places(motion),
            mask: mask(*m),
            ..LayerFile::default()
        },
        Layer::Grow(g) => {
            let t = text(&g.slot);
            LayerFile {
                kind: kind("grow"),
                paint: Some(paint(g.paint)),
                line_spacing: (g.line_spacing != 1.0).then(|| sp(g.line_spacing)),
                margin: (g.margin != 0.0).then(|| sp(g.margin)),
                lead: g.lead.map(|l| {
                    sp(LeadFile {
                        when: sp(condition(l.when)),
                        by: sp(l.by),
                    })
                }),
                markup: g.markup.map(|m| {
                    sp(MarkupFile {
                        mention: paint(m.mention),
                        mention_chip: paint(m.mention_chip),
                        code_chip: paint(m.code_chip),
                    })
                }),
                below: (!g.below.is_empty())
                    .then(|| sp(g.below.iter().map(|l| sp(layer(l))).collect())),
                // The model ignores a growing text's own colour and reveal.
                color: None,
                reveal: None,
                ..t
            }
        }
        Layer::Effect(e) => LayerFile {
            kind: kind("effect"),
            warp: (e.warp != Warp::None).then(|| sp(e.warp.name().to_owned())),
            tone: (e.tone != Tone::None).then(|| sp(e.tone.name().to_owned())),
            strength: e.strength.map(|p| sp(p.to_owned())),
            speed: e.speed.map(|p| sp(p.to_owned())),
            side: e.side.map(|p| sp(p.to_owned())),
            ..LayerFile::default()
        },
        Layer::Row(r) => LayerFile {
            kind: kind("row"),
            at: Some(sp([r.x, r.y])),
            right: r.right.map(sp),
            items: Some(sp(r.items.iter().map(|i| sp(item(i))).collect())),
            ..LayerFile::default()
        },
        Layer::Text(slot) => text(slot),
        Layer::PaintedText { paint: p, slot } => LayerFile {
            paint: Some(paint(*p)),
            ..text(slot)
        },
        Layer::PaletteText(slot, palette) => LayerFile {
            palette: Some(sp(PaletteFile {
                param: sp(palette.param.to_owned()),
                colors: sp(palette.colors.iter().map(|c| hex(*c)).collect()),
                light_outline: sp(hex(palette.light_outline)),
            })),
            ..text(slot)
        },
        Layer::Shape(s) => LayerFile {
            kind: kind("shape"),
            shape: Some(sp(shape_name(s.shape))),
            area: area(s.area),
            paint: Some(paint(s.paint)),
            stroke: s.stroke.map(sp),
            ..LayerFile::default()
        },
        Layer::Bar(b) => LayerFile {
            kind: kind("bar"),
            value: Some(sp(b.value.to_owned())),
            max: Some(sp(b.max.to_owned())),
            area: area(b.area),
            style: match b.style {
                BarStyle::Rounded => None,
                BarStyle::Segments { count, gap, radius } => {
                    Some(sp(format!("segments({count}, {gap}, {radius})")))
                }
                BarStyle::Ring { width } => Some(sp(format!("ring({width})"))),
            },
            track: Some(paint(b.track)),
            fill: Some(paint(b.fill)),
            ..LayerFile::default()
        },
        Layer::Cut(s) => LayerFile {
            kind: kind("cut"),
            shape: Some(sp(shape_name(s.shape))),
            area: area(s.area),
            paint: Some(paint(s.paint)),
            stroke: s.stroke.map(sp),
            ..LayerFile::default()
        },
        Layer::Fit(s) => LayerFile {
            kind: kind("fit"),
            area: area(s.area),
            sides: Some(sp([s.min_side, s.max_side])),
            ..LayerFile::default()
        },
        Layer::When { .. } => unreachable!("unwrapped above"),
    };
    out.when = (!when.is_empty()).then(|| sp(when));
    out
}

fn condition(w: When) -> String {
    match w {
        When::Set(p) => p.to_owned(),
        When::Unset(p) => format!("!{p}"),
        When::Given(p) => format!("?{p}"),
        When::Absent(p) => format!("!?{p}"),
        When::AtLeast(p, n) => format!("{p}>={n}"),
        When::Below(p, n) => format!("{p}<{n}"),
    }
}

fn face_and_family(face: FontFace) -> (Option<Spanned<String>>, Option<Spanned<String>>) {
    match face {
        FontFace::Family(f) => (None, Some(sp(f.to_owned()))),
        face => (
            (face != FontFace::Regular).then(|| sp(name_of(FACES, face))),
            None,
        ),
    }
}

fn at((x, y): (f32, f32)) -> Option<Spanned<[f32; 2]>> {
    (x != 0.0 || y != 0.0).then(|| sp([x, y]))
}

fn item(i: &RowItem) -> ItemFile {
    let nonzero = |v: f32| (v != 0.0).then(|| sp(v));
    match *i {
        RowItem::Text {
            replaced_by,
            pieces: p,
            face,
            size,
            paint: pt,
            max_width,
            dy,
            gap,
        } => {
            let (face, family) = face_and_family(face);
            ItemFile {
                kind: kind("text"),
                text: Some(sp(pieces(p))),
                replaced_by: replaced_by.map(|p| sp(p.to_owned())),
                face,
                family,
                size: Some(sp(size)),
                paint: Some(paint(pt)),
                max_width: Some(sp(max_width)),
                dy: nonzero(dy),
                gap: nonzero(gap),
                ..ItemFile::default()
            }
        }
        RowItem::Art {
            art,
            at: a,
            advance,
        } => ItemFile {
            kind: kind("art"),
            art: Some(sp(art.name().to_owned())),
            at: at(a),
            advance: Some(sp(advance)),
            ..ItemFile::default()
        },
        RowItem::ArtChoice {
            param,
            arts,
            at: a,
            advance,
        } => ItemFile {
            kind: kind("art-choice"),
            param: Some(sp(param.to_owned())),
            arts: Some(sp(arts.iter().map(|a| a.name().to_owned()).collect())),
            at: at(a),
            advance: Some(sp(advance)),
            ..ItemFile::default()
        },
        RowItem::Shape {
            shape,
            area: ar,
            paint: pt,
            advance,
        } => ItemFile {
            kind: kind("shape"),
            shape: Some(sp(shape_name(shape))),
            area: area(ar),
            paint: Some(paint(pt)),
            advance: Some(sp(advance)),
            ..ItemFile::default()
        },
        RowItem::When(w, inner) => ItemFile {
            kind: kind("group"),
            when: Some(sp(vec![condition(w)])),
            items: Some(sp(inner.iter().map(|i| sp(item(i))).collect())),
            ..ItemFile::default()
        },
    }
}

fn shape_name(s: Shape) -> String {
    match s {
        Shape::Rect => "rect".to_owned(),
        Shape::Ellipse => "ellipse".to_owned(),
        Shape::Hexagon => "hexagon".to_owned(),
        Shape::Rounded(r) => format!("rounded({r})"),
        Shape::Wedge(t) => format!("wedge({t})"),
    }
}

fn text(slot: &TextSlot) -> LayerFile {
    let (face, family) = face_and_family(slot.face);
    LayerFile {
        kind: kind("text"),
        text: Some(sp(pieces(slot.pieces))),
        replaced_by: slot.replaced_by.map(|p| sp(p.to_owned())),
        face,
        family,
        size: Some(sp(slot.size)),
        min_size: (slot.min_size != slot.size).then(|| sp(slot.min_size)),
        color: (slot.color != [255; 4]).then(|| sp(hex(slot.color))),
        outline: slot.outline.map(|(c, w)| {
            sp(OutlineFile {
                color: sp(hex(c)),
                width: sp(w),
            })
        }),
        align: (slot.align != crate::text::Align::Left).then(|| sp(name_of(ALIGNS, slot.align))),
        valign: (slot.valign != crate::text::VAlign::Top)
            .then(|| sp(name_of(VALIGNS, slot.valign))),
        reveal: match slot.reveal {
            Reveal::All => None,
            Reveal::Typed { from, to } => Some(sp(RevealFile {
                from: sp(from),
                to: sp(to),
            })),
        },
        area: area(slot.area),
        ..LayerFile::default()
    }
}

fn pieces(list: &[Piece]) -> Vec<Spanned<PieceFile>> {
    list.iter().map(|p| sp(piece(p))).collect()
}

fn piece(p: &Piece) -> PieceFile {
    let s = |v: &str| Some(sp(v.to_owned()));
    match *p {
        Piece::Lit(t) => PieceFile {
            lit: Some(t.to_owned()),
            ..PieceFile::default()
        },
        Piece::Param(n) => PieceFile {
            param: s(n),
            ..PieceFile::default()
        },
        Piece::Handle(n) => PieceFile {
            handle: s(n),
            ..PieceFile::default()
        },
        Piece::Upper(n) => PieceFile {
            upper: s(n),
            ..PieceFile::default()
        },
        Piece::Plain(n) => PieceFile {
            plain: s(n),
            ..PieceFile::default()
        },
        Piece::Compact(n) => PieceFile {
            compact: s(n),
            ..PieceFile::default()
        },
        Piece::CompactWith { param, with } => PieceFile {
            compact: s(param),
            with: s(with),
            ..PieceFile::default()
        },
        Piece::IfSet { param, pieces: p } => PieceFile {
            if_set: s(param),
            pieces: Some(pieces(p)),
            ..PieceFile::default()
        },
        Piece::IfGiven { param, pieces: p } => PieceFile {
            if_given: s(param),
            pieces: Some(pieces(p)),
            ..PieceFile::default()
        },
        Piece::Flag { param, yes, no } => PieceFile {
            flag: s(param),
            yes: Some(yes.to_owned()),
            no: Some(no.to_owned()),
            ..PieceFile::default()
        },
        Piece::Pick { param, texts } => PieceFile {
            pick: s(param),
            texts: Some(sp(texts.iter().map(|t| (*t).to_owned()).collect())),
            ..PieceFile::default()
        },
    }
}
