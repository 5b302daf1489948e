//! A parsed file, checked field by field and turned into the model's
//! `&'static` data (leaked: the caller interns by content, see
//! [`super::parse`]).

use std::ops::Range;

use toml::Spanned;

use super::assets::{self, Assets};
use super::format::*;
use super::leak_str;
use super::{Checker, FileError, MAX_CANVAS_SIDE, MAX_LAYERS};
use crate::template::{
    Art, AvatarSlot, BarSlot, BarStyle, Camera, EffectSlot, FitSlot, Layer, MAX_EFFECT_SIDE,
    MAX_TEMPLATE_FRAMES, Mask, Paint, ParamKind, ParamSpec, Place, Shape, ShapeSlot, Template,
    Timeline, Tint, Tone, Warp, When,
};

/// Longest delay of a frame, in ms.
const MAX_DELAY_MS: u32 = 10_000;
/// Most options of a choice parameter, blocks of a bar, pieces of a text.
const MAX_LIST: usize = 64;

fn leak<T>(v: Vec<T>) -> &'static [T] {
    Box::leak(v.into_boxed_slice())
}

mod flow;
mod params;
mod text;

#[cfg(test)]
pub(super) use flow::ITEM_FIELDS;
pub(super) use params::expected_for;
use params::{param_name_ok, params};
use text::text_layer;
pub(super) use text::{ALIGNS, FACES, VALIGNS};

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
                | (
                    Need::Text | Need::TextOrInt,
                    ParamKind::Text { .. } | ParamKind::Time
                )
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
    let mut camera = doc
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
    let mut grow_seen = false;
    let cx = Ctx {
        params: &params,
        assets,
        frames: timeline.frames,
        still: timeline.frames == 1 && camera.is_none(),
        width: w,
        height: h,
        below: false,
        fitted: doc
            .layers
            .iter()
            .any(|l| l.get_ref().kind.get_ref() == "fit"),
    };
    if let (Some(cam), Some(file)) = (camera.as_mut(), doc.camera.as_ref()) {
        cam.backdrop = backdrop(c, &file.get_ref().backdrop, &cx)?;
    }
    for (i, layer) in doc.layers.iter().enumerate() {
        let at = format!("layer[{i}]");
        let l = self::layer(c, &at, layer, &cx)?;
        if let Layer::Grow(_) = l {
            if grow_seen {
                return Err(c.err(
                    layer.get_ref().kind.span(),
                    &format!("{at}.kind"),
                    "a template has at most one `grow` layer",
                ));
            }
            grow_seen = true;
        }
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
    // A canvas that follows its picture: one picture, and layers its
    // renderer maps around it.
    if let Some(i) = layers.iter().position(|l| matches!(l, Layer::Fit(_))) {
        let wrong = layers
            .iter()
            .enumerate()
            .find(|(j, l)| (*j != i && matches!(l, Layer::Fit(_))) || !super::super::fit::fits(l));
        if let Some((j, _)) = wrong {
            let kind = &doc.layers[j].get_ref().kind;
            return Err(c.err(
                kind.span(),
                &format!("layer[{j}].kind"),
                "a template with a `fit` layer has no other `fit`, and no avatar, image, bar or row layer",
            ));
        }
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
        backdrop: &[],
    })
}

/// The kinds of layer a camera's backdrop may hold.
const BACKDROP_KINDS: [&str; 3] = ["art", "shape", "avatar"];

/// A camera's `[[camera.backdrop]]` layers: art, shapes and the avatar,
/// on the whole canvas.
fn backdrop(c: &Checker, layers: &[Spanned<LayerFile>], cx: &Ctx) -> R<&'static [Layer]> {
    if layers.len() > MAX_LAYERS {
        return Err(c.err(
            layers[MAX_LAYERS].span(),
            "camera.backdrop",
            format!("at most {MAX_LAYERS} layers"),
        ));
    }
    let mut out = Vec::with_capacity(layers.len());
    for (i, spanned) in layers.iter().enumerate() {
        let at = format!("camera.backdrop[{i}]");
        let kind = spanned.get_ref().kind.get_ref().as_str();
        if !BACKDROP_KINDS.contains(&kind) {
            return Err(c.err(
                spanned.get_ref().kind.span(),
                &format!("{at}.kind"),
                "a backdrop holds `art`, `shape` and `avatar` layers",
            ));
        }
        out.push(self::layer(c, &at, spanned, cx)?);
    }
    Ok(leak(out))
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
                "`{}` is not a shape: rect, ellipse, hexagon, rounded(radius in pixels) or wedge(f) with f from 0 to 1",
                s.get_ref()
            ),
        )
    };
    match call(s.get_ref()).ok_or_else(bad)? {
        ("rect", v) if v.is_empty() => Ok(Shape::Rect),
        ("ellipse", v) if v.is_empty() => Ok(Shape::Ellipse),
        ("hexagon", v) if v.is_empty() => Ok(Shape::Hexagon),
        ("rounded", v) if v.len() == 1 && v[0] >= 0.0 => Ok(Shape::Rounded(v[0])),
        ("wedge", v) if v.len() == 1 && (0.0..=1.0).contains(&v[0]) => Ok(Shape::Wedge(v[0])),
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

/// What a layer is read in: the template's parameters, art and frames,
/// and whether it is under a growing text.
struct Ctx<'a> {
    params: &'a Params,
    assets: &'a Assets,
    frames: u32,
    /// One frame and no camera: a text may grow the canvas.
    still: bool,
    /// The canvas's width.
    width: u32,
    /// The canvas's height.
    height: u32,
    /// A layer of a `grow`'s `below`.
    below: bool,
    /// The template has a `fit` layer (its canvas follows its picture).
    fitted: bool,
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
    (
        "grow",
        &[
            "text",
            "replaced_by",
            "face",
            "family",
            "size",
            "min_size",
            "outline",
            "align",
            "valign",
            "area",
            "paint",
            "line_spacing",
            "margin",
            "lead",
            "markup",
            "below",
        ],
    ),
    ("row", &["at", "right", "items"]),
    ("fit", &["area", "sides"]),
    ("cut", &["shape", "area", "paint", "stroke"]),
    ("effect", &["warp", "tone", "strength", "speed", "side"]),
];

/// The kinds of layer a `grow`'s `below` may hold: they move with its
/// text.
pub(super) const BELOW_KINDS: &[&str] = &["art", "art-choice", "shape", "row", "text"];

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
        ("line_spacing", s(&l.line_spacing)),
        ("margin", s(&l.margin)),
        ("lead", s(&l.lead)),
        ("markup", s(&l.markup)),
        ("at", s(&l.at)),
        ("right", s(&l.right)),
        ("items", s(&l.items)),
        ("below", s(&l.below)),
        ("sides", s(&l.sides)),
        ("warp", s(&l.warp)),
        ("tone", s(&l.tone)),
        ("strength", s(&l.strength)),
        ("speed", s(&l.speed)),
        ("side", s(&l.side)),
    ];
    all.into_iter().filter_map(|(n, s)| Some((n, s?))).collect()
}

/// The field `name` of the layer at `at`, or the error that it needs it.
fn required<'a, T>(
    c: &Checker,
    at: &str,
    name: &str,
    v: &'a Option<Spanned<T>>,
    layer_span: &Range<usize>,
) -> R<&'a Spanned<T>> {
    needed(c, (at, "layer"), name, v, layer_span)
}

/// The field `name` of the `owner` (a layer, a row item) at `at`, or the
/// error, at the owner's span, that it needs it.
fn needed<'a, T>(
    c: &Checker,
    (at, owner): (&str, &str),
    name: &str,
    v: &'a Option<Spanned<T>>,
    span: &Range<usize>,
) -> R<&'a Spanned<T>> {
    v.as_ref().ok_or_else(|| {
        c.err(
            span.clone(),
            &format!("{at}.{name}"),
            format!("this {owner} needs `{name}`"),
        )
    })
}

fn layer(c: &Checker, at: &str, spanned: &Spanned<LayerFile>, cx: &Ctx) -> R<Layer> {
    let (params, assets, frames) = (cx.params, cx.assets, cx.frames);
    let l = spanned.get_ref();
    let span = spanned.span();
    let kind = l.kind.get_ref().as_str();
    if cx.below && LAYER_FIELDS.iter().any(|(k, _)| *k == kind) && !BELOW_KINDS.contains(&kind) {
        return Err(c.err(
            l.kind.span(),
            &format!("{at}.kind"),
            format!(
                "a layer of kind `{kind}` cannot move with a growing text; `below` holds {}",
                BELOW_KINDS.join(", ")
            ),
        ));
    }
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
            format!("a layer of kind `{kind}` has no `{name}`"),
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
                (None, Some(file)) if cx.below => {
                    return Err(c.err(
                        file.span(),
                        &f("file"),
                        "a picture file cannot move with a growing text; under a `grow`, art is built-in art (`art`)",
                    ));
                }
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
        "shape" | "cut" => {
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
            let slot = ShapeSlot {
                shape: shape(c, &f("shape"), s)?,
                area: area(c, &f("area"), l.area.as_ref(), span.clone())?,
                paint: paint(
                    c,
                    &f("paint"),
                    required(c, at, "paint", &l.paint, &span)?,
                    params,
                )?,
                stroke,
            };
            match kind {
                "cut" => Layer::Cut(slot),
                _ => Layer::Shape(slot),
            }
        }
        "fit" => fit(c, at, l, span, cx)?,
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
        "grow" => {
            if let Some(when) = &l.when {
                return Err(c.err(
                    when.span(),
                    &f("when"),
                    "a growing text is always drawn: it sets the canvas's height",
                ));
            }
            flow::grow(c, at, l, span, cx)?
        }
        "row" => flow::row(c, at, l, span, cx)?,
        "effect" => {
            // An effect redraws every pixel of its canvas in each frame.
            if cx.width.max(cx.height) > MAX_EFFECT_SIDE {
                return Err(c.err(
                    l.kind.span(),
                    &f("kind"),
                    format!(
                        "an effect's canvas is at most {MAX_EFFECT_SIDE}×{MAX_EFFECT_SIDE} pixels"
                    ),
                ));
            }
            let warp = match &l.warp {
                None => Warp::None,
                Some(w) => Warp::from_name(w.get_ref()).ok_or_else(|| {
                    let names: Vec<&str> = Warp::ALL.iter().map(|w| w.name()).collect();
                    c.err(w.span(), &f("warp"), format!("one of {}", names.join(", ")))
                })?,
            };
            let tone = match &l.tone {
                None => Tone::None,
                Some(t) => Tone::from_name(t.get_ref()).ok_or_else(|| {
                    let names: Vec<&str> = Tone::ALL.iter().map(|t| t.name()).collect();
                    c.err(t.span(), &f("tone"), format!("one of {}", names.join(", ")))
                })?,
            };
            let int = |name: &str, v: &Option<Spanned<String>>| -> R<Option<&'static str>> {
                v.as_ref()
                    .map(|p| param_ref(c, &f(name), p, params, Need::Int))
                    .transpose()
            };
            Layer::Effect(EffectSlot {
                warp,
                tone,
                strength: int("strength", &l.strength)?,
                speed: int("speed", &l.speed)?,
                side: int("side", &l.side)?,
                period: frames,
            })
        }
        _ => unreachable!("kinds are checked above"),
    };
    // Conditions wrap the layer, the first outermost.
    let mut layer = layer;
    if let Some(when) = &l.when {
        for cond in conditions(c, &f("when"), when, params)?.into_iter().rev() {
            let inner: &'static Layer = Box::leak(Box::new(layer));
            layer = Layer::When {
                when: cond,
                layer: inner,
            };
        }
    }
    Ok(layer)
}

/// A `fit` layer: a square box and the bounds of the picture's long side,
/// in a still template without a camera, never conditional.
fn fit(c: &Checker, at: &str, l: &LayerFile, span: Range<usize>, cx: &Ctx) -> R<Layer> {
    let f = |name: &str| format!("{at}.{name}");
    if !cx.still {
        return Err(c.err(
            l.kind.span(),
            &f("kind"),
            "a canvas that follows its picture is a still without a camera",
        ));
    }
    if let Some(when) = &l.when {
        return Err(c.err(
            when.span(),
            &f("when"),
            "the main picture is always drawn: it sets the canvas's size",
        ));
    }
    let area = area(c, &f("area"), l.area.as_ref(), span.clone())?;
    if area.2 != area.3 || area.2 < 1.0 {
        return Err(c.err(
            l.area.as_ref().map_or(span.clone(), |a| a.span()),
            &f("area"),
            "the box of a square picture: its width and height equal, at least 1",
        ));
    }
    let sides = required(c, at, "sides", &l.sides, &span)?;
    let [min_side, max_side] = *sides.get_ref();
    if !(1..=MAX_FIT_SIDE).contains(&min_side) || !(min_side..=MAX_FIT_SIDE).contains(&max_side) {
        return Err(c.err(
            sides.span(),
            &f("sides"),
            format!("`[shortest, longest]` in pixels, 1 ≤ shortest ≤ longest ≤ {MAX_FIT_SIDE}"),
        ));
    }
    Ok(Layer::Fit(FitSlot {
        area,
        min_side,
        max_side,
    }))
}

/// The longest a `fit` layer may draw its picture's long side, in pixels.
const MAX_FIT_SIDE: u32 = 2048;

/// Conditions, outermost first: `"name"` (the parameter is set), `"!name"`
/// (it is not), `"?name"` (it was given, whatever its value), or a whole
/// number parameter compared with a number: `"name>=n"` (at least `n`) or
/// `"name<n"` (below `n`).
fn conditions(
    c: &Checker,
    field: &str,
    when: &Spanned<Vec<String>>,
    params: &Params,
) -> R<Vec<When>> {
    let list = when.get_ref();
    if list.len() > MAX_LIST {
        return Err(c.err(when.span(), field, format!("at most {MAX_LIST} conditions")));
    }
    let mut out = Vec::with_capacity(list.len());
    for cond in list {
        let compared = cond
            .split_once(">=")
            .map(|(n, v)| (n, v, When::AtLeast as fn(&'static str, u64) -> When))
            .or_else(|| cond.split_once('<').map(|(n, v)| (n, v, When::Below as _)));
        if let Some((name, value, make)) = compared {
            let (name, value) = (name.trim(), value.trim());
            let Some(spec) = params.get(name) else {
                return Err(c.err(when.span(), field, format!("no parameter named `{name}`")));
            };
            if !Need::Int.accepts(&spec.kind) {
                return Err(c.err(
                    when.span(),
                    field,
                    format!("`{name}` is not a {}", Need::Int.name()),
                ));
            }
            let Ok(n) = value.parse::<u64>() else {
                return Err(c.err(
                    when.span(),
                    field,
                    format!("`{value}` is not a whole number to compare `{name}` with"),
                ));
            };
            out.push(make(spec.name, n));
            continue;
        }
        let (name, make): (&str, fn(&'static str) -> When) =
            match (cond.strip_prefix('!'), cond.strip_prefix('?')) {
                (Some(n), _) if n.starts_with('?') => (&n[1..], When::Absent),
                (Some(n), _) => (n, When::Unset),
                (_, Some(n)) => (n, When::Given),
                _ => (cond.as_str(), When::Set),
            };
        let Some(spec) = params.get(name) else {
            return Err(c.err(when.span(), field, format!("no parameter named `{name}`")));
        };
        out.push(make(spec.name));
    }
    Ok(out)
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
    if let (Some(colors), None) = (&pf.colors, &pf.pick) {
        return Err(c.err(
            colors.span(),
            &format!("{field}.colors"),
            "`colors` goes with `pick`",
        ));
    }
    match (&pf.color, &pf.param, &pf.pick) {
        (None, None, Some(pick)) => {
            if let Some(a) = &pf.alpha {
                return Err(c.err(
                    a.span(),
                    &format!("{field}.alpha"),
                    "`alpha` goes with `param`; give each of `colors` as \"#rrggbbaa\"",
                ));
            }
            let param = param_ref(c, &format!("{field}.pick"), pick, params, Need::Choice)?;
            let Some(colors) = &pf.colors else {
                return Err(c.err(
                    p.span(),
                    &format!("{field}.colors"),
                    "`pick` needs `colors`, one per option",
                ));
            };
            check_options_len(
                c,
                &format!("{field}.colors"),
                colors.span(),
                colors.get_ref().len(),
                params,
                param,
            )?;
            let mut list = Vec::with_capacity(colors.get_ref().len());
            for col in colors.get_ref() {
                list.push(parse_colour(col).ok_or_else(|| {
                    c.err(
                        colors.span(),
                        &format!("{field}.colors"),
                        format!("`{col}` is not a colour: \"#rrggbb\" or \"#rrggbbaa\""),
                    )
                })?);
            }
            Ok(Paint::Pick {
                param,
                colors: leak(list),
            })
        }
        (Some(color), None, None) => {
            if let Some(a) = &pf.alpha {
                return Err(c.err(
                    a.span(),
                    &format!("{field}.alpha"),
                    "`alpha` goes with `param`; give a fixed colour as \"#rrggbbaa\"",
                ));
            }
            Ok(Paint::Fixed(colour(c, &format!("{field}.color"), color)?))
        }
        (None, Some(param), None) => Ok(Paint::Param {
            param: param_ref(c, &format!("{field}.param"), param, params, Need::Colour)?,
            alpha: pf.alpha.as_ref().map_or(255, |a| *a.get_ref()),
        }),
        _ => Err(c.err(
            p.span(),
            field,
            "one of `color` (\"#rrggbb\" or \"#rrggbbaa\"), `param` (a colour parameter) or `pick` (a choice parameter, with `colors`)",
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
