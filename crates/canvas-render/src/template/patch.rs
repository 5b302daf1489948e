//! What changes between frames (areas, footprints) and the canvases of
//! the layers under an avatar, kept across requests.

use super::*;

/// The index of the first layer of `template` that the frames of `plan`
/// do not all draw alike, when [`render_patched_frames`] can give the
/// frames as changed rectangles: no camera, a still avatar and image, more
/// than one step, and no step that looks like an earlier one but not like
/// the one right before it (a pat's way back up: those frames are shared
/// whole).
pub(super) fn patched_layers(
    template: &Template,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
) -> Option<usize> {
    // An effect redraws the whole canvas in every frame: nothing to patch.
    let effect = template
        .layers
        .iter()
        .any(|l| matches!(l, Layer::Effect(_)));
    if effect || template.camera.is_some() || avatar.len() > 1 || image.len() > 1 || plan.len() < 2
    {
        return None;
    }
    let frames: Vec<u32> = plan.iter().map(|s| s.template_frame).collect();
    let earlier = reuse::earlier_same(template, &frames);
    let only_the_one_before = (1..frames.len())
        .all(|k| earlier[k].is_none() || reuse::same_look(template, frames[k - 1], frames[k]));
    if !only_the_one_before {
        return None;
    }
    template.layers.iter().position(|layer| {
        frames
            .iter()
            .any(|&f| !reuse::layer_same(layer, frames[0], f))
    })
}

/// A rectangle of the canvas: left, top, right and bottom (the last two
/// past it), never empty.
pub(super) type Area = (u32, u32, u32, u32);

/// `(left, top, right, bottom)` clipped to a canvas of `size`, if anything
/// of it is left.
pub(super) fn clipped((l, t, r, b): (i64, i64, i64, i64), size: (u32, u32)) -> Option<Area> {
    let (w, h) = (i64::from(size.0), i64::from(size.1));
    let (l, t, r, b) = (l.clamp(0, w), t.clamp(0, h), r.clamp(0, w), b.clamp(0, h));
    (l < r && t < b).then_some((l as u32, t as u32, r as u32, b as u32))
}

/// Adds where a layer is drawn before (`was`) and now (`is`) to `areas`:
/// the one rectangle holding both when it is no larger than the two apart
/// (a layer that moved a little), else each.
pub(super) fn cover(was: Option<Area>, is: Option<Area>, areas: &mut Vec<Area>) {
    let size = |a: Area| u64::from(a.2 - a.0) * u64::from(a.3 - a.1);
    match (was, is) {
        (Some(a), Some(b)) if size(union(was, is).unwrap_or(a)) > size(a) + size(b) => {
            areas.extend([a, b]);
        }
        (a, b) => areas.extend(union(a, b)),
    }
}

/// Whether two rectangles share a pixel.
pub(super) fn meet(a: Area, b: Area) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

/// The smallest rectangle holding both, if either is given.
pub(super) fn union(a: Option<Area>, b: Option<Area>) -> Option<Area> {
    match (a, b) {
        (Some(a), Some(b)) => Some((a.0.min(b.0), a.1.min(b.1), a.2.max(b.2), a.3.max(b.3))),
        (a, b) => a.or(b),
    }
}

/// Where a `sw` × `sh` source drawn at `place` may change the canvas: its
/// box exactly when it is copied pixel for pixel ([`is_exact`]), else the
/// box of its turned and scaled corners and two pixels around (the
/// filter's and the edges' anti-aliasing reach one).
pub(super) fn placed_area(place: &Place, sw: u32, sh: u32, size: (u32, u32)) -> Option<Area> {
    if is_exact(place, sw, sh) {
        let (x, y) = (place.x as i64, place.y as i64);
        return clipped((x, y, x + i64::from(sw), y + i64::from(sh)), size);
    }
    let t = place_transform(place, sw as f32, sh as f32);
    let (w, h) = (sw as f32, sh as f32);
    let corners = [(0.0, 0.0), (w, 0.0), (0.0, h), (w, h)]
        .map(|(x, y)| (t.sx * x + t.kx * y + t.tx, t.ky * x + t.sy * y + t.ty));
    let (mut l, mut t, mut r, mut b) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for (x, y) in corners {
        (l, t, r, b) = (l.min(x), t.min(y), r.max(x), b.max(y));
    }
    if !(l.is_finite() && t.is_finite() && r.is_finite() && b.is_finite()) {
        return clipped((0, 0, i64::from(size.0), i64::from(size.1)), size);
    }
    let edge = |v: f32, by: i64| (v as f64).floor() as i64 + by;
    clipped(
        (
            edge(l, -2),
            edge(t, -2),
            (r as f64).ceil() as i64 + 2,
            (b as f64).ceil() as i64 + 2,
        ),
        size,
    )
}

/// Where drawing `layer` in `frame` ([`draw_layer`]) may change a canvas of
/// `size`, `None` when it draws nothing there; a shape or a bar, the whole
/// canvas. `text` is its text slot's layout, laid out here when not yet.
pub(super) fn footprint(
    layer: &Layer,
    source: Option<&Pixmap>,
    args: &Args,
    frame: u32,
    text: &mut Option<(String, TextLayout)>,
    size: (u32, u32),
) -> Result<Option<Area>, RenderError> {
    let placed = |motion: &[Place], pix: Option<&Pixmap>| match (place_at(motion, frame), pix) {
        (Some(place), Some(pix)) => placed_area(&place, pix.width(), pix.height(), size),
        _ => None,
    };
    Ok(match layer {
        Layer::Art { art, motion } => placed(motion, Some(art::cached(*art))),
        Layer::ArtChoice {
            param,
            arts,
            motion,
        } => placed(
            motion,
            arts.get(args.choice(param)).map(|a| art::cached(*a)),
        ),
        Layer::Picture { art, motion } => placed(motion, Some(art.pixmap())),
        Layer::Avatar(slot) => placed(slot.motion, source),
        Layer::Image { motion, .. } => placed(motion, source),
        Layer::Text(_) | Layer::PaintedText { .. } | Layer::PaletteText(..) => {
            let Some((slot, ink)) = text_ink(layer, args) else {
                return Ok(None);
            };
            let (area, style) = text_box_style(slot, super::contrast::widest(ink, slot.size));
            match text_shown(slot, &style, area, args, frame, text)? {
                Some(shown) => text_area(text, &style, area, 0..shown, size),
                None => None,
            }
        }
        Layer::When { when, layer } => match when.holds(args) {
            true => footprint(layer, source, args, frame, text, size)?,
            false => None,
        },
        Layer::Shape(_)
        | Layer::Bar(_)
        | Layer::Grow(_)
        | Layer::Row(_)
        | Layer::Fit(_)
        | Layer::Cut(_)
        | Layer::Effect(_) => clipped((0, 0, i64::from(size.0), i64::from(size.1)), size),
    })
}

/// Where a text layer drawn in frame `before` and then in frame `now`
/// differs: the letters typed between them (the glyphs of the graphemes
/// one shows and the other does not).
pub(super) fn typed_change(
    slot: &TextSlot,
    ink: Ink,
    args: &Args,
    (before, now): (u32, u32),
    text: &mut Option<(String, TextLayout)>,
    size: (u32, u32),
) -> Result<Option<Area>, RenderError> {
    let (area, style) = text_box_style(slot, super::contrast::widest(ink, slot.size));
    let was = text_shown(slot, &style, area, args, before, text)?.unwrap_or(0);
    let is = text_shown(slot, &style, area, args, now, text)?.unwrap_or(0);
    Ok(text_area(
        text,
        &style,
        area,
        was.min(is)..was.max(is),
        size,
    ))
}

/// The box of the glyphs of the graphemes `graphemes` of a laid-out text
/// ([`text::glyph_bounds`]) on a canvas of `size`.
pub(super) fn text_area(
    text: &Option<(String, TextLayout)>,
    style: &TextStyle,
    area: TextBox,
    graphemes: std::ops::Range<usize>,
    size: (u32, u32),
) -> Option<Area> {
    let (_, layout) = text.as_ref()?;
    let (l, t, r, b) = text::glyph_bounds(layout, style, area, graphemes)?;
    clipped((l.into(), t.into(), r.into(), b.into()), size)
}

/// Copies the pixels of `area` from `from` into `to` (of one size).
pub(super) fn copy_area(from: &Pixmap, to: &mut Pixmap, (l, t, r, b): Area) {
    let stride = from.width() as usize * 4;
    let (l, r) = (l as usize * 4, r as usize * 4);
    let (src, dst) = (from.data(), to.data_mut());
    for y in t as usize..b as usize {
        let row = y * stride;
        dst[row + l..row + r].copy_from_slice(&src[row + l..row + r]);
    }
}

/// The pixels of `area` of a canvas as a straight-alpha image of their own,
/// in a buffer from the store; `opaque` says every pixel of the canvas is.
pub(super) fn cut_area(pixmap: &Pixmap, (l, t, r, b): Area, opaque: bool) -> RgbaImage {
    let stride = pixmap.width() as usize * 4;
    let (l4, r4) = (l as usize * 4, r as usize * 4);
    let mut data = crate::buffers::take_empty((r4 - l4) * (b - t) as usize);
    for y in t as usize..b as usize {
        data.extend_from_slice(&pixmap.data()[y * stride + l4..y * stride + r4]);
    }
    if !opaque {
        crate::paint::unpremultiply(&mut data);
    }
    RgbaImage::from_raw(r - l, b - t, data).expect("the area's own size")
}

/// Frame `frame` of `template` as shown: `picture` (the layers drawn) at
/// the frame's place on a transparent canvas ([`Camera`]), clipped to it;
/// over `backdrop` (the camera's backdrop drawn), at the first frame's
/// place and at the frame's own.
pub(super) fn on_canvas(
    template: &Template,
    backdrop: Option<&RgbaImage>,
    frame: u32,
    picture: &RgbaImage,
) -> RgbaImage {
    match backdrop {
        None => crate::placed::on_canvas(template.size, picture, template.offset(frame)),
        Some(backdrop) => crate::placed::over_backdrop(
            backdrop,
            picture,
            template.offset(0),
            template.offset(frame),
        ),
    }
}

/// A copy of a frame, in a buffer from the store ([`crate::buffers`]) when
/// the caller gave one back.
pub(super) fn copied(frame: &RgbaImage) -> RgbaImage {
    let data = crate::buffers::copy_of(frame.as_raw());
    RgbaImage::from_raw(frame.width(), frame.height(), data).expect("the frame's own size")
}

/// A still template with one avatar slot, its other layers drawn once: those
/// under the avatar and those over it, each on a canvas of its own.
pub(super) struct Split {
    under: Arc<Pixmap>,
    over: Canvas,
    avatar: usize,
}

impl Split {
    /// `None` when the template moves, has no single top-level avatar slot
    /// or draws a second image ([`under_cached_slot`]).
    pub(super) fn new(template: &Template, args: &Args) -> Result<Option<Split>, RenderError> {
        let Some(avatar) = under_cached_slot(template, true) else {
            return Ok(None);
        };
        let (w, h) = template.content_size();
        let mut over = Canvas::new(w, h)?;
        let under = under_layers(template, args, avatar)?.0;
        // The card as the layers over the avatar see it (without the
        // avatar), for their text's ink.
        let mut ground = Canvas::from_layer(&under);
        for layer in &template.layers[avatar + 1..] {
            draw_layer_on(
                &mut over,
                Some(&ground.pixmap),
                layer,
                None,
                args,
                0,
                &mut None,
            )?;
            draw_layer(&mut ground, layer, None, args, 0, &mut None)?;
        }
        Ok(Some(Split {
            under,
            over,
            avatar,
        }))
    }

    pub(super) fn draw(
        &self,
        template: &Template,
        args: &Args,
        p: &Prepared,
    ) -> Result<Canvas, RenderError> {
        let mut canvas = Canvas::from_layer(&self.under);
        let layer = &template.layers[self.avatar];
        let avatar = p.slots.get(self.avatar).and_then(Option::as_ref);
        draw_layer(&mut canvas, layer, avatar, args, 0, &mut None)?;
        blit_exact(&mut canvas.pixmap, &self.over.pixmap, 0, 0, 1.0);
        Ok(canvas)
    }
}

/// The index of the one top-level avatar slot of a still template whose
/// other layers can be drawn apart from it and kept ([`Split`],
/// [`under_layers`]): `None` when the template is animated, has no single
/// avatar slot, or has a [`Layer::Image`] (a custom background, not among
/// the arguments that key the kept canvases) and `with_image` says it is
/// given (without it that layer draws nothing).
pub(super) fn under_cached_slot(template: &Template, with_image: bool) -> Option<usize> {
    pub(super) fn draws_image(layer: &Layer) -> bool {
        match layer {
            Layer::Image { .. } => true,
            Layer::When { layer, .. } => draws_image(layer),
            _ => false,
        }
    }
    // A canvas that grows with its text or follows its picture is not one
    // size to keep.
    if template.is_animated()
        || super::fit::fit_of(template).is_some()
        || (with_image && template.layers.iter().any(draws_image))
        || super::flow::grow_of(template).is_some()
    {
        return None;
    }
    let mut slots = template
        .layers
        .iter()
        .enumerate()
        .filter(|(_, l)| matches!(l, Layer::Avatar(_)));
    match (slots.next(), slots.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// Most canvases of the layers under an avatar kept ([`under_layers`]).
pub(super) const UNDER_CACHE_ENTRIES: usize = 8;
/// Most bytes of those canvases together: eight of the largest cards
/// (1200×600), so that the seven welcome cards, each over a background of
/// its own, are all kept; the most recently used one is always kept.
pub(super) const UNDER_CACHE_BYTES: usize = 8 * 1200 * 600 * 4;

/// A template (by address) and the arguments its layers under the avatar
/// read: each parameter's value and whether it was given.
pub(super) type UnderKey = (usize, Vec<(Option<Value>, bool)>);

/// The canvases of the layers under the avatar, most recently used first,
/// each with whether its every pixel is opaque.
pub(super) static UNDER_CACHE: Mutex<Vec<(UnderKey, Arc<Pixmap>, bool)>> = Mutex::new(Vec::new());

/// The layers of `template` under its avatar slot `first`, drawn on a
/// blank canvas, and whether its every pixel is opaque. They read only a
/// few parameters (a rank card's: its colours), so the canvas is kept for
/// the last [`UNDER_CACHE_ENTRIES`] combinations of their values (at most
/// 8 canvases) and copied per request: the same pixels as drawing them
/// again.
pub(super) fn under_layers(
    template: &Template,
    args: &Args,
    first: usize,
) -> Result<(Arc<Pixmap>, bool), RenderError> {
    let under = &template.layers[..first];
    let (w, h) = template.content_size();
    if under.is_empty() {
        return Ok((Arc::new(Canvas::new(w, h)?.pixmap), false));
    }
    let mut names = Vec::new();
    for layer in under {
        layer_params(layer, &mut names);
    }
    let key: UnderKey = (
        std::ptr::from_ref(template) as usize,
        names
            .iter()
            .map(|n| (args.get(n).cloned(), args.given.contains(n)))
            .collect(),
    );
    let lock = || UNDER_CACHE.lock().unwrap_or_else(|e| e.into_inner());
    {
        let mut cache = lock();
        if let Some(i) = cache.iter().position(|(k, _, _)| *k == key) {
            let entry = cache.remove(i);
            let found = (entry.1.clone(), entry.2);
            cache.insert(0, entry);
            return Ok(found);
        }
    }
    let (mut canvas, skip, _) = start_canvas(template, args, 0)?;
    for layer in &under[skip..] {
        draw_layer(&mut canvas, layer, None, args, 0, &mut None)?;
    }
    let opaque = crate::paint::is_opaque(&canvas.pixmap);
    let pixmap = Arc::new(canvas.pixmap);
    let mut cache = lock();
    cache.insert(0, (key, pixmap.clone(), opaque));
    let mut bytes = 0;
    let kept = cache
        .iter()
        .take_while(|(_, p, _)| {
            bytes += p.data().len();
            bytes <= UNDER_CACHE_BYTES
        })
        .count();
    let evicted: Vec<_> = cache.drain(kept.clamp(1, UNDER_CACHE_ENTRIES)..).collect();
    drop(cache);
    // A canvas no render is copying any more goes to the buffer store: the
    // next canvas of its size is copied into memory already mapped.
    for (_, canvas, _) in evicted {
        if let Ok(canvas) = Arc::try_unwrap(canvas) {
            crate::buffers::recycle(canvas.take());
        }
    }
    Ok((pixmap, opaque))
}

/// Every parameter a layer reads, appended to `out`.
pub(super) fn layer_params(layer: &Layer, out: &mut Vec<&'static str>) {
    pub(super) fn pieces(list: &[Piece], out: &mut Vec<&'static str>) {
        for piece in list {
            match piece {
                Piece::Lit(_) => {}
                Piece::Param(p)
                | Piece::Upper(p)
                | Piece::Plain(p)
                | Piece::Compact(p)
                | Piece::Handle(p)
                | Piece::Flag { param: p, .. } => out.push(p),
                Piece::CompactWith { param, with } => out.extend([param, with]),
                Piece::IfSet {
                    param,
                    pieces: inner,
                }
                | Piece::IfGiven {
                    param,
                    pieces: inner,
                } => {
                    out.push(param);
                    pieces(inner, out);
                }
                Piece::Pick { param, .. } => out.push(param),
            }
        }
    }
    pub(super) fn paint(p: &Paint, out: &mut Vec<&'static str>) {
        if let Paint::Param { param, .. } | Paint::Pick { param, .. } = p {
            out.push(param);
        }
    }
    pub(super) fn items(list: &[RowItem], out: &mut Vec<&'static str>) {
        for item in list {
            match item {
                RowItem::Text {
                    replaced_by,
                    pieces: inner,
                    paint: p,
                    ..
                } => {
                    out.extend(*replaced_by);
                    pieces(inner, out);
                    paint(p, out);
                }
                RowItem::Art { .. } => {}
                RowItem::ArtChoice { param, .. } => out.push(param),
                RowItem::Shape { paint: p, .. } => paint(p, out),
                RowItem::When(when, inner) => {
                    out.push(when.param());
                    items(inner, out);
                }
            }
        }
    }
    match layer {
        Layer::Art { .. }
        | Layer::Avatar(_)
        | Layer::Image { .. }
        | Layer::Picture { .. }
        | Layer::Fit(_) => {}
        Layer::ArtChoice { param, .. } => out.push(param),
        Layer::PaletteText(slot, palette) => {
            out.push(palette.param);
            out.extend(slot.replaced_by);
            pieces(slot.pieces, out);
        }
        Layer::Text(slot) => {
            out.extend(slot.replaced_by);
            pieces(slot.pieces, out);
        }
        Layer::PaintedText { paint: p, slot } => {
            paint(p, out);
            out.extend(slot.replaced_by);
            pieces(slot.pieces, out);
        }
        Layer::Shape(slot) | Layer::Cut(slot) => paint(&slot.paint, out),
        Layer::Bar(slot) => {
            out.extend([slot.value, slot.max]);
            paint(&slot.track, out);
            paint(&slot.fill, out);
        }
        Layer::When { when, layer } => {
            out.push(when.param());
            layer_params(layer, out);
        }
        Layer::Row(row) => items(row.items, out),
        Layer::Effect(slot) => {
            out.extend([slot.strength, slot.speed, slot.side].into_iter().flatten())
        }
        Layer::Grow(grow) => {
            paint(&grow.paint, out);
            out.extend(grow.slot.replaced_by);
            pieces(grow.slot.pieces, out);
            for layer in grow.below {
                layer_params(layer, out);
            }
        }
    }
}
