//! A parsed file, checked field by field and turned into the model's
//! `&'static` data (leaked: the caller interns by content, see
//! [`super::parse`]).

use std::collections::HashMap;
use std::ops::Range;

use toml::Spanned;

use super::format::*;
use super::{Checker, FileError, MAX_CANVAS_SIDE, MAX_LAYERS, MAX_PARAMS, MAX_TEXT_CHARS};
use crate::template::{
    Art, AvatarSlot, BarSlot, BarStyle, Camera, Layer, MAX_TEMPLATE_FRAMES, Mask, Paint, Palette,
    ParamKind, ParamSpec, Picture, Piece, Place, Reveal, Shape, ShapeSlot, Template, TextSlot,
    Timeline, Tint, When,
};
use crate::text::{Align, FontFace, MAX_FONT_SIZE, MAX_OUTLINE_WIDTH, MIN_FONT_SIZE, VAlign};

/// Longest delay of a frame, in ms.
const MAX_DELAY_MS: u32 = 10_000;
/// Most options of a choice parameter, blocks of a bar, pieces of a text.
const MAX_LIST: usize = 64;

pub(super) fn leak_str(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

/// What the layers may refer to besides parameters: the pictures loaded
/// from the folder (by file name) and the font families it registered.
pub(super) struct Assets {
    pub pictures: HashMap<String, &'static Picture>,
    pub families: Vec<String>,
}

type R<T> = Result<T, FileError>;

/// The parameters seen so far, by name.
struct Params(Vec<&'static ParamSpec>);

impl Params {
    fn get(&self, name: &str) -> Option<&'static ParamSpec> {
        self.0.iter().copied().find(|p| p.name == name)
    }
}

/// What a reference to a parameter needs of it.
#[derive(Clone, Copy, PartialEq)]
enum Need {
    Any,
    Text,
    Int,
    TextOrInt,
    Bool,
    Colour,
    Choice,
}

impl Need {
    fn accepts(self, kind: &ParamKind) -> bool {
        matches!(
            (self, kind),
            (Need::Any, _)
                | (Need::Text | Need::TextOrInt, ParamKind::Text { .. })
                | (Need::Int | Need::TextOrInt, ParamKind::Int { .. })
                | (Need::Bool, ParamKind::Bool { .. })
                | (Need::Colour, ParamKind::Colour { .. })
                | (Need::Choice, ParamKind::Choice { .. })
        )
    }

    fn name(self) -> &'static str {
        match self {
            Need::Any => "parameter",
            Need::Text => "text parameter",
            Need::Int => "int parameter",
            Need::TextOrInt => "text or int parameter",
            Need::Bool => "bool parameter",
            Need::Colour => "colour parameter",
            Need::Choice => "choice parameter",
        }
    }
}

pub(super) fn template(c: &Checker, doc: &Doc, assets: &Assets) -> R<Template> {
    let [w, h] = *doc.size.get_ref();
    if !(1..=MAX_CANVAS_SIDE).contains(&w) || !(1..=MAX_CANVAS_SIDE).contains(&h) {
        return Err(c.err(
            doc.size.span(),
            "size",
            format!("each side must be 1 to {MAX_CANVAS_SIDE} pixels, got {w}×{h}"),
        ));
    }
    let params = params(c, &doc.params)?;
    let timeline = match &doc.timeline {
        None => Timeline {
            frames: 1,
            delay_ms: 0,
            delay_param: None,
        },
        Some(t) => timeline(c, t.get_ref(), &params)?,
    };
    let camera = doc
        .camera
        .as_ref()
        .map(|cam| camera(c, cam, (w, h), timeline.frames))
        .transpose()?;
    if doc.layers.len() > MAX_LAYERS {
        return Err(c.err(
            doc.layers[MAX_LAYERS].span(),
            "layer",
            format!("at most {MAX_LAYERS} layers"),
        ));
    }
    let mut layers = Vec::with_capacity(doc.layers.len());
    let mut image_source: Option<&str> = None;
    for (i, layer) in doc.layers.iter().enumerate() {
        let at = format!("layer[{i}]");
        let l = self::layer(c, &at, layer, &params, assets, timeline.frames)?;
        if let Layer::Image { source, .. } = unwrap_when(&l) {
            match image_source {
                Some(other) if other != *source => {
                    return Err(c.err(
                        layer
                            .get_ref()
                            .source
                            .as_ref()
                            .map_or(layer.span(), |s| s.span()),
                        &format!("{at}.source"),
                        format!("a template draws one image source; `{other}` is already one"),
                    ));
                }
                _ => image_source = Some(source),
            }
        }
        layers.push(l);
    }
    Ok(Template {
        size: (w, h),
        camera,
        timeline,
        layers: leak(layers),
        params: leak(params.0.iter().map(|p| **p).collect()),
    })
}

fn unwrap_when(layer: &Layer) -> &Layer {
    match layer {
        Layer::When { layer, .. } => unwrap_when(layer),
        other => other,
    }
}

fn params(c: &Checker, list: &[Spanned<ParamFile>]) -> R<Params> {
    if list.len() > MAX_PARAMS {
        return Err(c.err(
            list[MAX_PARAMS].span(),
            "param",
            format!("at most {MAX_PARAMS} parameters"),
        ));
    }
    let mut out = Params(Vec::new());
    for (i, p) in list.iter().enumerate() {
        let at = format!("param[{i}]");
        let spec = param(c, &at, p.get_ref())?;
        if out.get(spec.name).is_some() {
            return Err(c.err(
                p.get_ref().name.span(),
                &format!("{at}.name"),
                format!("a second parameter named `{}`", spec.name),
            ));
        }
        out.0.push(Box::leak(Box::new(spec)));
    }
    Ok(out)
}

/// Parameter names are query parameter names: a letter, then letters,
/// digits or `_`, at most 32.
fn param_name_ok(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name.len() <= 32
}

fn param(c: &Checker, at: &str, p: &ParamFile) -> R<ParamSpec> {
    let name = p.name.get_ref();
    if !param_name_ok(name) {
        return Err(c.err(
            p.name.span(),
            &format!("{at}.name"),
            format!("`{name}`: a letter, then letters, digits or `_`, at most 32"),
        ));
    }
    if p.doc.get_ref().trim().is_empty() {
        return Err(c.err(
            p.doc.span(),
            &format!("{at}.doc"),
            "describe the parameter in one line",
        ));
    }
    let field = |f: &str| format!("{at}.{f}");
    // Fields that this type does not take.
    let refuse = |present: bool, span: Option<Range<usize>>, f: &str, kind: &str| -> R<()> {
        if present {
            Err(c.err(
                span.unwrap_or(p.kind.span()),
                &field(f),
                format!("a {kind} parameter has no `{f}`"),
            ))
        } else {
            Ok(())
        }
    };
    let span_of = |s: &Option<Spanned<u32>>| s.as_ref().map(|s| s.span());
    let kind_name = p.kind.get_ref().as_str();
    let default = p.default.as_ref();
    let bad_default = |want: &str| {
        c.err(
            default.map_or(p.kind.span(), |d| d.span()),
            &field("default"),
            format!("the default must be {want}"),
        )
    };
    let kind = match kind_name {
        "text" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "text")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "text")?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "text",
            )?;
            let Some(max_chars) = &p.max_chars else {
                return Err(c.err(
                    p.kind.span(),
                    &field("max_chars"),
                    "a text parameter needs `max_chars`, its cap in characters",
                ));
            };
            let max = *max_chars.get_ref() as usize;
            if !(1..=MAX_TEXT_CHARS).contains(&max) {
                return Err(c.err(
                    max_chars.span(),
                    &field("max_chars"),
                    format!("must be 1 to {MAX_TEXT_CHARS}"),
                ));
            }
            let default = match default.map(|d| d.get_ref()) {
                None => "",
                Some(toml::Value::String(s)) if s.chars().count() <= max => leak_str(s),
                Some(_) => return Err(bad_default(&format!("text of at most {max} characters"))),
            };
            ParamKind::Text {
                max_chars: max,
                default,
            }
        }
        "bool" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "bool")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "bool")?;
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "bool",
            )?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "bool",
            )?;
            let default = match default.map(|d| d.get_ref()) {
                None => false,
                Some(toml::Value::Boolean(b)) => *b,
                Some(_) => return Err(bad_default("true or false")),
            };
            ParamKind::Bool { default }
        }
        "int" => {
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "int",
            )?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "int",
            )?;
            let (Some(min), Some(max)) = (&p.min, &p.max) else {
                return Err(c.err(
                    p.kind.span(),
                    &field(if p.min.is_none() { "min" } else { "max" }),
                    "an int parameter needs both `min` and `max`",
                ));
            };
            let (min, max_v) = (*min.get_ref(), *max.get_ref());
            if min > max_v {
                return Err(c.err(
                    max.span(),
                    &field("max"),
                    format!("{max_v} is below min {min}"),
                ));
            }
            let default = match default.map(|d| d.get_ref()) {
                None => min,
                Some(toml::Value::Integer(n)) => match u32::try_from(*n) {
                    Ok(n) if (min..=max_v).contains(&n) => n,
                    _ => {
                        return Err(bad_default(&format!(
                            "a whole number from {min} to {max_v}"
                        )));
                    }
                },
                Some(_) => {
                    return Err(bad_default(&format!(
                        "a whole number from {min} to {max_v}"
                    )));
                }
            };
            ParamKind::Int {
                min,
                max: max_v,
                default,
            }
        }
        "colour" | "color" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "colour")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "colour")?;
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "colour",
            )?;
            refuse(
                p.options.is_some(),
                p.options.as_ref().map(|o| o.span()),
                "options",
                "colour",
            )?;
            let default = match default.map(|d| d.get_ref()) {
                None => 0xffffff,
                Some(toml::Value::String(s)) => match parse_colour(s) {
                    Some([r, g, b, 255]) if s.len() == 7 => {
                        u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)
                    }
                    _ => return Err(bad_default("a colour \"#rrggbb\"")),
                },
                Some(_) => return Err(bad_default("a colour \"#rrggbb\"")),
            };
            ParamKind::Colour { default }
        }
        "choice" => {
            refuse(p.min.is_some(), span_of(&p.min), "min", "choice")?;
            refuse(p.max.is_some(), span_of(&p.max), "max", "choice")?;
            refuse(
                p.max_chars.is_some(),
                span_of(&p.max_chars),
                "max_chars",
                "choice",
            )?;
            let Some(options) = &p.options else {
                return Err(c.err(
                    p.kind.span(),
                    &field("options"),
                    "a choice parameter needs `options`, its accepted names",
                ));
            };
            let list = options.get_ref();
            let ok = |o: &String| {
                !o.is_empty()
                    && o.len() <= 32
                    && o.chars().all(|c| {
                        c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_'
                    })
            };
            if list.is_empty() || list.len() > MAX_LIST || !list.iter().all(ok) {
                return Err(c.err(
                    options.span(),
                    &field("options"),
                    format!("1 to {MAX_LIST} names of lower-case letters, digits, `-` or `_`"),
                ));
            }
            if let Some(dup) = list
                .iter()
                .enumerate()
                .find(|(i, o)| list[..*i].contains(o))
            {
                return Err(c.err(
                    options.span(),
                    &field("options"),
                    format!("`{}` twice", dup.1),
                ));
            }
            let default = match default.map(|d| d.get_ref()) {
                None => 0,
                Some(toml::Value::String(s)) => match list.iter().position(|o| o == s) {
                    Some(i) => i,
                    None => return Err(bad_default("one of the options")),
                },
                Some(_) => return Err(bad_default("one of the options")),
            };
            ParamKind::Choice {
                options: leak(list.iter().map(|o| leak_str(o)).collect()),
                default,
            }
        }
        other => {
            return Err(c.err(
                p.kind.span(),
                &field("type"),
                format!("`{other}` is not a type: text, bool, int, colour or choice"),
            ));
        }
    };
    let expected = match &p.expected {
        Some(e) => leak_str(e.get_ref()),
        None => leak_str(&expected_for(&kind)),
    };
    Ok(ParamSpec {
        name: leak_str(name),
        kind,
        doc: leak_str(p.doc.get_ref()),
        expected,
    })
}

/// The message of a bad value when a file gives no `expected`.
pub(super) fn expected_for(kind: &ParamKind) -> String {
    match kind {
        ParamKind::Text { max_chars, .. } => format!("text of at most {max_chars} characters"),
        ParamKind::Bool { .. } => "true or false".to_owned(),
        ParamKind::Int { min, max, .. } => format!("a whole number from {min} to {max}"),
        ParamKind::Colour { .. } => "a colour, six hexadecimal digits RRGGBB".to_owned(),
        ParamKind::Choice { options, .. } => format!("one of {}", options.join(", ")),
    }
}

fn timeline(c: &Checker, t: &TimelineFile, params: &Params) -> R<Timeline> {
    let frames = *t.frames.get_ref();
    if !(1..=MAX_TEMPLATE_FRAMES as u32).contains(&frames) {
        return Err(c.err(
            t.frames.span(),
            "timeline.frames",
            format!("must be 1 to {MAX_TEMPLATE_FRAMES}"),
        ));
    }
    let delay_ms = t.delay_ms.as_ref().map_or(0, |d| *d.get_ref());
    if delay_ms > MAX_DELAY_MS {
        return Err(c.err(
            t.delay_ms.as_ref().map_or(t.frames.span(), |d| d.span()),
            "timeline.delay_ms",
            format!("at most {MAX_DELAY_MS} ms"),
        ));
    }
    let delay_param = t
        .delay_param
        .as_ref()
        .map(|p| param_ref(c, "timeline.delay_param", p, params, Need::Int))
        .transpose()?;
    Ok(Timeline {
        frames,
        delay_ms,
        delay_param,
    })
}

fn camera(c: &Checker, cam: &Spanned<CameraFile>, size: (u32, u32), frames: u32) -> R<Camera> {
    let cam_ref = cam.get_ref();
    let [cw, ch] = *cam_ref.content.get_ref();
    if cw == 0 || ch == 0 || cw > size.0 || ch > size.1 {
        return Err(c.err(
            cam_ref.content.span(),
            "camera.content",
            "the picture must be at least 1×1 and no larger than the canvas",
        ));
    }
    let offsets = cam_ref.offsets.get_ref();
    let n = offsets.len();
    if !(n == 1 || n == frames as usize) {
        return Err(c.err(
            cam_ref.offsets.span(),
            "camera.offsets",
            format!("one offset, or one per frame ({frames}); got {n}"),
        ));
    }
    if let Some([x, y]) = offsets.iter().find(|[x, y]| {
        u64::from(*x) + u64::from(cw) > u64::from(size.0)
            || u64::from(*y) + u64::from(ch) > u64::from(size.1)
    }) {
        return Err(c.err(
            cam_ref.offsets.span(),
            "camera.offsets",
            format!("at [{x}, {y}] the picture leaves the canvas"),
        ));
    }
    Ok(Camera {
        content: (cw, ch),
        offsets: leak(offsets.iter().map(|[x, y]| (*x, *y)).collect()),
    })
}

fn param_ref(
    c: &Checker,
    field: &str,
    name: &Spanned<String>,
    params: &Params,
    need: Need,
) -> R<&'static str> {
    match params.get(name.get_ref()) {
        Some(spec) if need.accepts(&spec.kind) => Ok(spec.name),
        Some(_) => Err(c.err(
            name.span(),
            field,
            format!("`{}` is not a {}", name.get_ref(), need.name()),
        )),
        None => Err(c.err(
            name.span(),
            field,
            format!("no parameter named `{}`", name.get_ref()),
        )),
    }
}

/// `"#rrggbb"` or `"#rrggbbaa"` as straight RGBA.
pub(super) fn parse_colour(s: &str) -> Option<[u8; 4]> {
    let hex = s.strip_prefix('#')?;
    if !(hex.len() == 6 || hex.len() == 8) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([
        byte(0)?,
        byte(2)?,
        byte(4)?,
        if hex.len() == 8 { byte(6)? } else { 255 },
    ])
}

fn colour(c: &Checker, field: &str, s: &Spanned<String>) -> R<[u8; 4]> {
    parse_colour(s.get_ref()).ok_or_else(|| {
        c.err(
            s.span(),
            field,
            format!(
                "`{}` is not a colour: \"#rrggbb\" or \"#rrggbbaa\"",
                s.get_ref()
            ),
        )
    })
}

/// `name` or `name(a, b, …)`: a name and its numbers.
fn call(s: &str) -> Option<(&str, Vec<f32>)> {
    let s = s.trim();
    match s.split_once('(') {
        None => Some((s, Vec::new())),
        Some((name, rest)) => {
            let inner = rest.strip_suffix(')')?;
            let nums = inner
                .split(',')
                .map(|n| n.trim().parse::<f32>().ok().filter(|v| v.is_finite()))
                .collect::<Option<Vec<f32>>>()?;
            Some((name.trim(), nums))
        }
    }
}

fn mask(c: &Checker, field: &str, m: Option<&Spanned<String>>) -> R<Mask> {
    let Some(m) = m else { return Ok(Mask::Square) };
    let bad = || {
        c.err(
            m.span(),
            field,
            format!(
                "`{}` is not a mask: square, circle, hexagon or rounded(f) with f from 0 to 0.5",
                m.get_ref()
            ),
        )
    };
    match call(m.get_ref()).ok_or_else(bad)? {
        ("square", v) if v.is_empty() => Ok(Mask::Square),
        ("circle", v) if v.is_empty() => Ok(Mask::Circle),
        ("hexagon", v) if v.is_empty() => Ok(Mask::Hexagon),
        ("rounded", v) if v.len() == 1 && (0.0..=0.5).contains(&v[0]) => Ok(Mask::Rounded(v[0])),
        _ => Err(bad()),
    }
}

fn shape(c: &Checker, field: &str, s: &Spanned<String>) -> R<Shape> {
    let bad = || {
        c.err(
            s.span(),
            field,
            format!(
                "`{}` is not a shape: rect, ellipse, hexagon or rounded(radius in pixels)",
                s.get_ref()
            ),
        )
    };
    match call(s.get_ref()).ok_or_else(bad)? {
        ("rect", v) if v.is_empty() => Ok(Shape::Rect),
        ("ellipse", v) if v.is_empty() => Ok(Shape::Ellipse),
        ("hexagon", v) if v.is_empty() => Ok(Shape::Hexagon),
        ("rounded", v) if v.len() == 1 && v[0] >= 0.0 => Ok(Shape::Rounded(v[0])),
        _ => Err(bad()),
    }
}

fn bar_style(c: &Checker, field: &str, s: Option<&Spanned<String>>) -> R<BarStyle> {
    let Some(s) = s else {
        return Ok(BarStyle::Rounded);
    };
    let bad = || {
        c.err(
            s.span(),
            field,
            format!(
                "`{}` is not a bar style: rounded, segments(count, gap, radius) or ring(width)",
                s.get_ref()
            ),
        )
    };
    match call(s.get_ref()).ok_or_else(bad)? {
        ("rounded", v) if v.is_empty() => Ok(BarStyle::Rounded),
        ("segments", v)
            if v.len() == 3
                && v[0].fract() == 0.0
                && (1.0..=MAX_LIST as f32).contains(&v[0])
                && v[1] >= 0.0
                && v[2] >= 0.0 =>
        {
            Ok(BarStyle::Segments {
                count: v[0] as u32,
                gap: v[1],
                radius: v[2],
            })
        }
        ("ring", v) if v.len() == 1 && v[0] > 0.0 => Ok(BarStyle::Ring { width: v[0] }),
        _ => Err(bad()),
    }
}

fn area(
    c: &Checker,
    field: &str,
    a: Option<&Spanned<[f32; 4]>>,
    layer_span: Range<usize>,
) -> R<(f32, f32, f32, f32)> {
    let Some(a) = a else {
        return Err(c.err(
            layer_span,
            field,
            "this layer needs its box: area = [x, y, width, height]",
        ));
    };
    let [x, y, w, h] = *a.get_ref();
    if ![x, y, w, h].iter().all(|v| v.is_finite() && v.abs() <= 1e5) || w <= 0.0 || h <= 0.0 {
        return Err(c.err(
            a.span(),
            field,
            "finite numbers, a positive width and height",
        ));
    }
    Ok((x, y, w, h))
}

fn places(
    c: &Checker,
    field: &str,
    p: Option<&Spanned<Vec<PlaceFile>>>,
    frames: u32,
    layer_span: Range<usize>,
) -> R<&'static [Place]> {
    let Some(p) = p else {
        return Err(c.err(
            layer_span,
            field,
            "this layer needs its size and place: place = [{ x = 0, y = 0, w = 100, h = 100 }]",
        ));
    };
    let list = p.get_ref();
    if !(list.len() == 1 || list.len() == frames as usize) {
        return Err(c.err(
            p.span(),
            field,
            format!(
                "one placement, or one per frame ({frames}); got {}",
                list.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, q) in list.iter().enumerate() {
        let finite = [q.x, q.y, q.w, q.h, q.rotation]
            .iter()
            .all(|v| v.is_finite() && v.abs() <= 1e5);
        if !finite || q.w <= 0.0 || q.h <= 0.0 || !(0.0..=1.0).contains(&q.opacity) {
            return Err(c.err(
                p.span(),
                field,
                format!(
                    "placement {i}: finite numbers, a positive w and h, an opacity from 0 to 1"
                ),
            ));
        }
        out.push(Place::new(q.x, q.y, q.w, q.h, q.rotation, q.opacity));
    }
    Ok(leak(out))
}

/// The kinds of layer and the fields each takes (besides `kind` and
/// `when`).
pub(super) const LAYER_FIELDS: &[(&str, &[&str])] = &[
    ("art", &["place", "art", "file"]),
    ("art-choice", &["place", "param", "arts"]),
    ("avatar", &["place", "mask", "grey", "tint"]),
    ("image", &["place", "source", "mask"]),
    (
        "text",
        &[
            "text",
            "replaced_by",
            "face",
            "family",
            "size",
            "min_size",
            "color",
            "outline",
            "align",
            "valign",
            "reveal",
            "palette",
            "area",
            "paint",
        ],
    ),
    ("shape", &["shape", "area", "paint", "stroke"]),
    ("bar", &["value", "max", "area", "style", "track", "fill"]),
];

/// The fields a layer table has, with their spans.
fn present(l: &LayerFile) -> Vec<(&'static str, Range<usize>)> {
    fn s<T>(v: &Option<Spanned<T>>) -> Option<Range<usize>> {
        v.as_ref().map(|v| v.span())
    }
    let all = [
        ("place", s(&l.place)),
        ("art", s(&l.art)),
        ("file", s(&l.file)),
        ("arts", s(&l.arts)),
        ("param", s(&l.param)),
        ("mask", s(&l.mask)),
        ("grey", s(&l.grey)),
        ("tint", s(&l.tint)),
        ("source", s(&l.source)),
        ("text", s(&l.text)),
        ("replaced_by", s(&l.replaced_by)),
        ("face", s(&l.face)),
        ("family", s(&l.family)),
        ("size", s(&l.size)),
        ("min_size", s(&l.min_size)),
        ("color", s(&l.color)),
        ("outline", s(&l.outline)),
        ("align", s(&l.align)),
        ("valign", s(&l.valign)),
        ("reveal", s(&l.reveal)),
        ("palette", s(&l.palette)),
        ("area", s(&l.area)),
        ("paint", s(&l.paint)),
        ("shape", s(&l.shape)),
        ("stroke", s(&l.stroke)),
        ("value", s(&l.value)),
        ("max", s(&l.max)),
        ("style", s(&l.style)),
        ("track", s(&l.track)),
        ("fill", s(&l.fill)),
    ];
    all.into_iter().filter_map(|(n, s)| Some((n, s?))).collect()
}

fn required<'a, T>(
    c: &Checker,
    at: &str,
    name: &str,
    v: &'a Option<Spanned<T>>,
    layer_span: &Range<usize>,
) -> R<&'a Spanned<T>> {
    v.as_ref().ok_or_else(|| {
        c.err(
            layer_span.clone(),
            &format!("{at}.{name}"),
            format!("this layer needs `{name}`"),
        )
    })
}

fn layer(
    c: &Checker,
    at: &str,
    spanned: &Spanned<LayerFile>,
    params: &Params,
    assets: &Assets,
    frames: u32,
) -> R<Layer> {
    let l = spanned.get_ref();
    let span = spanned.span();
    let kind = l.kind.get_ref().as_str();
    let Some((_, allowed)) = LAYER_FIELDS.iter().find(|(k, _)| *k == kind) else {
        let kinds: Vec<&str> = LAYER_FIELDS.iter().map(|(k, _)| *k).collect();
        return Err(c.err(
            l.kind.span(),
            &format!("{at}.kind"),
            format!("`{kind}` is not a kind of layer: {}", kinds.join(", ")),
        ));
    };
    if let Some((name, s)) = present(l).into_iter().find(|(n, _)| !allowed.contains(n)) {
        return Err(c.err(
            s,
            &format!("{at}.{name}"),
            format!("a `{kind}` layer has no `{name}`"),
        ));
    }
    let f = |name: &str| format!("{at}.{name}");
    let layer = match kind {
        "art" => {
            let place = places(c, &f("place"), l.place.as_ref(), frames, span.clone())?;
            match (&l.art, &l.file) {
                (Some(art), None) => Layer::Art {
                    art: art_name(c, &f("art"), art)?,
                    motion: place,
                },
                (None, Some(file)) => Layer::Picture {
                    art: assets
                        .pictures
                        .get(file.get_ref())
                        .copied()
                        .ok_or_else(|| {
                            c.err(
                                file.span(),
                                &f("file"),
                                format!("`{}` was not loaded", file.get_ref()),
                            )
                        })?,
                    motion: place,
                },
                _ => {
                    return Err(c.err(
                        span,
                        &f("art"),
                        "an art layer takes one of `art` (built-in art by name) or `file` (a picture in the folder)",
                    ));
                }
            }
        }
        "art-choice" => {
            let place = places(c, &f("place"), l.place.as_ref(), frames, span.clone())?;
            let param = required(c, at, "param", &l.param, &span)?;
            let name = param_ref(c, &f("param"), param, params, Need::Choice)?;
            let arts = required(c, at, "arts", &l.arts, &span)?;
            check_options_len(
                c,
                &f("arts"),
                arts.span(),
                arts.get_ref().len(),
                params,
                name,
            )?;
            let mut list = Vec::new();
            for a in arts.get_ref() {
                list.push(Art::from_name(a).ok_or_else(|| {
                    c.err(
                        arts.span(),
                        &f("arts"),
                        format!("no built-in art named `{a}`"),
                    )
                })?);
            }
            Layer::ArtChoice {
                param: name,
                arts: leak(list),
                motion: place,
            }
        }
        "avatar" => {
            let place = places(c, &f("place"), l.place.as_ref(), frames, span.clone())?;
            let tint = match &l.tint {
                None => None,
                Some(t) => {
                    let t = t.get_ref();
                    let [r, g, b, a] = colour(c, &f("tint.color"), &t.color)?;
                    let strength = *t.strength.get_ref();
                    if a != 255 || !(0.0..=1.0).contains(&strength) {
                        return Err(c.err(
                            t.strength.span(),
                            &f("tint"),
                            "an opaque colour and a strength from 0 to 1",
                        ));
                    }
                    Some(Tint {
                        rgb: u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b),
                        strength,
                    })
                }
            };
            Layer::Avatar(AvatarSlot {
                motion: place,
                mask: mask(c, &f("mask"), l.mask.as_ref())?,
                grey: l.grey.as_ref().is_some_and(|g| *g.get_ref()),
                tint,
            })
        }
        "image" => {
            let place = places(c, &f("place"), l.place.as_ref(), frames, span.clone())?;
            let source = required(c, at, "source", &l.source, &span)?;
            if !param_name_ok(source.get_ref()) {
                return Err(c.err(
                    source.span(),
                    &f("source"),
                    "a letter, then letters, digits or `_`, at most 32",
                ));
            }
            Layer::Image {
                source: leak_str(source.get_ref()),
                motion: place,
                mask: mask(c, &f("mask"), l.mask.as_ref())?,
            }
        }
        "text" => text_layer(c, at, l, span, params, assets, frames)?,
        "shape" => {
            let s = required(c, at, "shape", &l.shape, &span)?;
            let stroke = match &l.stroke {
                None => None,
                Some(w)
                    if w.get_ref().is_finite() && *w.get_ref() > 0.0 && *w.get_ref() <= 1000.0 =>
                {
                    Some(*w.get_ref())
                }
                Some(w) => return Err(c.err(w.span(), &f("stroke"), "a width in pixels above 0")),
            };
            Layer::Shape(ShapeSlot {
                shape: shape(c, &f("shape"), s)?,
                area: area(c, &f("area"), l.area.as_ref(), span.clone())?,
                paint: paint(
                    c,
                    &f("paint"),
                    required(c, at, "paint", &l.paint, &span)?,
                    params,
                )?,
                stroke,
            })
        }
        "bar" => {
            let value = required(c, at, "value", &l.value, &span)?;
            let max = required(c, at, "max", &l.max, &span)?;
            Layer::Bar(BarSlot {
                value: param_ref(c, &f("value"), value, params, Need::Int)?,
                max: param_ref(c, &f("max"), max, params, Need::Int)?,
                area: area(c, &f("area"), l.area.as_ref(), span.clone())?,
                style: bar_style(c, &f("style"), l.style.as_ref())?,
                track: paint(
                    c,
                    &f("track"),
                    required(c, at, "track", &l.track, &span)?,
                    params,
                )?,
                fill: paint(
                    c,
                    &f("fill"),
                    required(c, at, "fill", &l.fill, &span)?,
                    params,
                )?,
            })
        }
        _ => unreachable!("kinds are checked above"),
    };
    // Conditions wrap the layer, the first outermost.
    let mut layer = layer;
    if let Some(when) = &l.when {
        for cond in when.get_ref().iter().rev() {
            let (name, set) = match cond.strip_prefix('!') {
                Some(n) => (n, false),
                None => (cond.as_str(), true),
            };
            let Some(spec) = params.get(name) else {
                return Err(c.err(
                    when.span(),
                    &f("when"),
                    format!("no parameter named `{name}`"),
                ));
            };
            let inner: &'static Layer = Box::leak(Box::new(layer));
            layer = Layer::When {
                when: if set {
                    When::Set(spec.name)
                } else {
                    When::Unset(spec.name)
                },
                layer: inner,
            };
        }
    }
    Ok(layer)
}

fn check_options_len(
    c: &Checker,
    field: &str,
    span: Range<usize>,
    n: usize,
    params: &Params,
    param: &str,
) -> R<()> {
    let options = match params.get(param).map(|p| p.kind) {
        Some(ParamKind::Choice { options, .. }) => options.len(),
        _ => 0,
    };
    if n != options {
        return Err(c.err(
            span,
            field,
            format!("one entry per option of `{param}` ({options}); got {n}"),
        ));
    }
    Ok(())
}

fn art_name(c: &Checker, field: &str, name: &Spanned<String>) -> R<Art> {
    Art::from_name(name.get_ref()).ok_or_else(|| {
        c.err(
            name.span(),
            field,
            format!("no built-in art named `{}`", name.get_ref()),
        )
    })
}

fn paint(c: &Checker, field: &str, p: &Spanned<PaintFile>, params: &Params) -> R<Paint> {
    let pf = p.get_ref();
    match (&pf.color, &pf.param) {
        (Some(color), None) => {
            if let Some(a) = &pf.alpha {
                return Err(c.err(
                    a.span(),
                    &format!("{field}.alpha"),
                    "`alpha` goes with `param`; give a fixed colour as \"#rrggbbaa\"",
                ));
            }
            Ok(Paint::Fixed(colour(c, &format!("{field}.color"), color)?))
        }
        (None, Some(param)) => Ok(Paint::Param {
            param: param_ref(c, &format!("{field}.param"), param, params, Need::Colour)?,
            alpha: pf.alpha.as_ref().map_or(255, |a| *a.get_ref()),
        }),
        _ => Err(c.err(
            p.span(),
            field,
            "one of `color` (\"#rrggbb\" or \"#rrggbbaa\") or `param` (a colour parameter)",
        )),
    }
}

fn enum_field<T: Copy>(
    c: &Checker,
    field: &str,
    v: Option<&Spanned<String>>,
    table: &[(&str, T)],
    default: T,
) -> R<T> {
    let Some(v) = v else { return Ok(default) };
    table
        .iter()
        .find(|(n, _)| *n == v.get_ref())
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            c.err(
                v.span(),
                field,
                format!("`{}` is not one of {}", v.get_ref(), names.join(", ")),
            )
        })
}

/// The built-in faces by name.
pub(super) const FACES: &[(&str, FontFace)] = &[
    ("regular", FontFace::Regular),
    ("bold", FontFace::Bold),
    ("meme", FontFace::Meme),
    ("serif-italic", FontFace::SerifItalic),
];

pub(super) const ALIGNS: &[(&str, Align)] = &[
    ("left", Align::Left),
    ("center", Align::Center),
    ("right", Align::Right),
];

pub(super) const VALIGNS: &[(&str, VAlign)] = &[
    ("top", VAlign::Top),
    ("middle", VAlign::Middle),
    ("bottom", VAlign::Bottom),
];

const WHITE: [u8; 4] = [255; 4];

fn text_layer(
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
    let face = enum_field(c, &f("face"), l.face.as_ref(), FACES, FontFace::Regular)?;
    let face = match &l.family {
        None => face,
        Some(family) if l.face.is_some() => {
            return Err(c.err(
                family.span(),
                &f("family"),
                "a text takes `face` or `family`, not both",
            ));
        }
        Some(family) => super::assets::family_face(c, &f("family"), family, &assets.families)?,
    };
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

fn pieces(
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
            "a piece has exactly one of lit, param, compact, if_set, if_given, flag, pick",
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
