//! Drawing one frame: the avatar prepared per source frame, the canvas
//! started, and each layer (art, avatar, shapes, bars) drawn onto it.

use super::*;

/// The avatar of one source frame, prepared once for every slot that
/// draws it (scaled to the slot's largest box, greyed and tinted; a slot
/// whose every placement is the same upright square gets the avatar at
/// exactly that size, so each frame draws it as a copy).
pub(super) struct Prepared {
    pub(super) slots: Vec<Option<Pixmap>>,
}

/// The one size of a slot placed upright at the same whole-pixel square in
/// every frame, if it is.
pub(super) fn constant_side(motion: &[Place]) -> Option<u32> {
    let first = motion.first()?;
    let side = first.w;
    let same = motion
        .iter()
        .all(|p| p.w == side && p.h == side && p.rotation == 0.0);
    (same && side.fract() == 0.0 && side >= 1.0).then_some(side as u32)
}

/// `pix` resampled to `side` × `side` with the sampler a scaled placement
/// draws it with (bilinear), so drawing the result at a whole-pixel offset
/// gives the pixels drawing `pix` scaled there would.
pub(super) fn scaled(pix: &Pixmap, side: u32) -> Option<Pixmap> {
    let mut out = Pixmap::new(side, side)?;
    let paint = PixmapPaint {
        quality: FilterQuality::Bilinear,
        ..PixmapPaint::default()
    };
    let t = Transform::from_scale(
        side as f32 / pix.width() as f32,
        side as f32 / pix.height() as f32,
    );
    out.draw_pixmap(0, 0, pix.as_ref(), &paint, t, None);
    Some(out)
}

impl Prepared {
    pub(super) fn new(
        template: &Template,
        args: &Args,
        avatar: Option<&RgbaImage>,
    ) -> Result<Prepared, RenderError> {
        crate::limits::check_size(template.size.0, template.size.1)?;
        if let Some(a) = avatar {
            crate::limits::check_size(a.width(), a.height())?;
        }
        // Art draws its fixed text once per process, with the fonts there
        // then: none yet is an error, never art kept without its text.
        crate::text::check_fonts()?;
        // An avatar under a condition that holds is prepared as one at the
        // top level (the condition is checked again when it is drawn).
        fn shown<'l>(layer: &'l Layer, args: &Args) -> &'l Layer {
            match layer {
                Layer::When { when, layer } if when.holds(args) => shown(layer, args),
                other => other,
            }
        }
        let slots = template
            .layers
            .iter()
            .map(|layer| match shown(layer, args) {
                Layer::Avatar(slot) => {
                    let side = slot
                        .motion
                        .iter()
                        .map(|p| p.w.max(p.h))
                        .fold(1.0f32, f32::max)
                        .ceil() as u32;
                    // A slot that always shows the avatar at one size larger
                    // than it is gets it enlarged once, with the SIMD resizer
                    // (the raster pipeline's bilinear costs ~100 ns a pixel).
                    let tint = slot.tint.map(|t| (t.rgb, t.strength));
                    let a = match (avatar, constant_side(slot.motion)) {
                        (Some(img), Some(exact)) if img.width().min(img.height()) < exact => {
                            let big = crate::resize::cover(img, exact, exact)?;
                            let a = Avatar::prepare_tinted(Some(&big), exact, slot.grey, tint)?;
                            crate::buffers::recycle_image(big);
                            a
                        }
                        _ => Avatar::prepare_tinted(avatar, side, slot.grey, tint)?,
                    };
                    let pix = a.into_pixmap();
                    Ok(Some(match constant_side(slot.motion) {
                        Some(exact) if exact != pix.width() || exact != pix.height() => {
                            scaled(&pix, exact).ok_or(RenderError::EmptyImage)?
                        }
                        _ => pix,
                    }))
                }
                // An effect samples the avatar at the canvas's size.
                Layer::Effect(_) => {
                    let side = super::effects::prepared_side(template, args);
                    let a = Avatar::prepare_tinted(avatar, side, false, None)?;
                    let pix = a.into_pixmap();
                    Ok(Some(match (pix.width(), pix.height()) == (side, side) {
                        true => pix,
                        false => scaled(&pix, side).ok_or(RenderError::EmptyImage)?,
                    }))
                }
                _ => Ok(None),
            })
            .collect::<Result<_, RenderError>>()?;
        Ok(Prepared { slots })
    }
}

/// A render's prepared avatars go back to the buffer store for the next
/// render's (the same sizes come back: no fresh pages to fault in).
impl Drop for Prepared {
    fn drop(&mut self) {
        give_back(&mut self.slots);
    }
}

/// Gives a render's prepared pixmaps back to the buffer store.
fn give_back(slots: &mut Vec<Option<Pixmap>>) {
    for pix in std::mem::take(slots).into_iter().flatten() {
        crate::buffers::recycle(pix.take());
    }
}

/// The second image of one source frame, prepared once for every
/// [`Layer::Image`] that draws it (covering the layer's largest box).
pub(super) struct PreparedImages {
    pub(super) slots: Vec<Option<Pixmap>>,
}

impl PreparedImages {
    pub(super) fn new(
        template: &Template,
        image: Option<&RgbaImage>,
    ) -> Result<PreparedImages, RenderError> {
        let Some(img) = image else {
            return Ok(PreparedImages { slots: Vec::new() });
        };
        crate::limits::check_size(img.width(), img.height())?;
        let slots = template
            .layers
            .iter()
            .map(|layer| match layer {
                Layer::Image { motion, .. } => {
                    let (w, h) = motion
                        .iter()
                        .fold((1.0f32, 1.0f32), |(w, h), p| (w.max(p.w), h.max(p.h)));
                    let covered = crate::resize::cover(img, w.ceil() as u32, h.ceil() as u32)?;
                    Ok(Some(premultiplied(covered)?))
                }
                _ => Ok(None),
            })
            .collect::<Result<_, RenderError>>()?;
        Ok(PreparedImages { slots })
    }
}

/// A render's prepared second images go back to the buffer store, as its
/// prepared avatars do ([`Prepared`]'s `Drop`): a two-avatar meme's second
/// picture otherwise took a buffer out of the store on every request, and
/// the next render's canvas was fresh memory to fault in.
impl Drop for PreparedImages {
    fn drop(&mut self) {
        give_back(&mut self.slots);
    }
}

/// A straight-alpha image as a premultiplied pixmap (its buffer reused).
pub(super) fn premultiplied(img: RgbaImage) -> Result<Pixmap, RenderError> {
    let (w, h) = img.dimensions();
    let mut data = img.into_raw();
    for px in data.chunks_exact_mut(4) {
        let a = u32::from(px[3]);
        if a != 255 {
            for c in &mut px[..3] {
                *c = ((u32::from(*c) * a + 127) / 255) as u8;
            }
        }
    }
    let size = tiny_skia::IntSize::from_wh(w, h).ok_or(RenderError::EmptyImage)?;
    Pixmap::from_vec(data, size).ok_or(RenderError::EmptyImage)
}

pub(super) fn place_at(motion: &[Place], frame: u32) -> Option<Place> {
    match motion.len() {
        0 => None,
        n => Some(motion[frame as usize % n]),
    }
}

/// The transform mapping a `sw` × `sh` source onto `place`.
pub(super) fn place_transform(place: &Place, sw: f32, sh: f32) -> Transform {
    Transform::from_row(place.w / sw, 0.0, 0.0, place.h / sh, place.x, place.y).post_rotate_at(
        place.rotation,
        place.x + place.w / 2.0,
        place.y + place.h / 2.0,
    )
}

/// Whether `place` maps a `sw` × `sh` source pixel for pixel.
pub(super) fn is_exact(place: &Place, sw: u32, sh: u32) -> bool {
    place.rotation == 0.0
        && place.w == sw as f32
        && place.h == sh as f32
        && place.x.fract() == 0.0
        && place.y.fract() == 0.0
}

/// A drawn frame, and whether its every pixel is opaque.
pub(super) struct Drawn {
    canvas: Canvas,
    opaque: bool,
}

impl Drawn {
    pub(super) fn into_image(self) -> RgbaImage {
        self.canvas.into_image_known(self.opaque)
    }
}

pub(super) fn draw_frame(
    template: &Template,
    args: &Args,
    frame: u32,
    prepared: &Prepared,
    images: &PreparedImages,
    texts: &mut TextCache,
) -> Result<Drawn, RenderError> {
    let (mut canvas, skip, opaque) = match start_from_placed_avatar(template, frame, prepared) {
        Some(canvas) => (canvas, 1, false),
        None => start_canvas(template, args, frame)?,
    };
    // Every layer blends source-over, which keeps an opaque canvas opaque.
    for (i, layer) in template.layers.iter().enumerate().skip(skip) {
        let source = layer_source(layer, i, prepared, images);
        draw_layer(&mut canvas, layer, source, args, frame, texts.slot(i))?;
    }
    Ok(Drawn { canvas, opaque })
}

/// A blank canvas for `template`, or, when its first layer is art covering
/// the canvas exactly, a copy of that art: the same pixels as drawing it
/// over nothing, without the blend. Gives the canvas and how many layers
/// it already holds (0 or 1), and whether it is opaque (art with no
/// transparent pixel).
pub(super) fn start_canvas(
    template: &Template,
    args: &Args,
    frame: u32,
) -> Result<(Canvas, usize, bool), RenderError> {
    let (w, h) = template.content_size_for(args);
    let base = template.layers.first().and_then(|layer| {
        let (pix, opaque, motion): (&Pixmap, bool, _) = match layer {
            Layer::Art { art, motion } => (art::cached(*art), art::is_opaque(*art), *motion),
            Layer::ArtChoice {
                param,
                arts,
                motion,
            } => {
                let art = *arts.get(args.choice(param))?;
                (art::cached(art), art::is_opaque(art), *motion)
            }
            Layer::Picture { art, motion } => (art.pixmap(), art.is_opaque(), *motion),
            _ => return None,
        };
        let place = place_at(motion, frame)?;
        ((pix.width(), pix.height()) == (w, h)
            && place.x == 0.0
            && place.y == 0.0
            && place.opacity >= 1.0
            && is_exact(&place, w, h))
        .then_some((pix, opaque))
    });
    Ok(match base {
        Some((pix, opaque)) => (Canvas::from_layer(pix), 1, opaque),
        None => (Canvas::new(w, h)?, 0, false),
    })
}

/// When the first layer is the avatar drawn square, upright and opaque over
/// exactly the whole canvas, the canvas as that prepared avatar, taken
/// from `prepared`: the pixels drawing it over nothing gives, without the
/// blank canvas and the copy.
pub(super) fn start_from_avatar(template: &Template, prepared: &mut Prepared) -> Option<Canvas> {
    let Some(Layer::Avatar(slot)) = template.layers.first() else {
        return None;
    };
    let (w, h) = template.content_size();
    let place = match slot.motion {
        [place] => place,
        _ => return None,
    };
    let pix = prepared.slots.first()?.as_ref()?;
    let fits = slot.mask == Mask::Square
        && place.opacity >= 1.0
        && place.x == 0.0
        && place.y == 0.0
        && (pix.width(), pix.height()) == (w, h)
        && is_exact(place, w, h);
    fits.then(|| Canvas {
        pixmap: prepared.slots[0].take().expect("checked above"),
    })
}

/// When the first layer is the avatar drawn square, upright, opaque and
/// unscaled in `frame` (triggered's shake), the canvas as a copy of the
/// prepared avatar at its place, transparent where it does not reach: the
/// pixels drawing it over nothing gives, without the blank canvas and the
/// blend.
pub(super) fn start_from_placed_avatar(
    template: &Template,
    frame: u32,
    prepared: &Prepared,
) -> Option<Canvas> {
    let Some(Layer::Avatar(slot)) = template.layers.first() else {
        return None;
    };
    let place = place_at(slot.motion, frame)?;
    let pix = prepared.slots.first()?.as_ref()?;
    let fits = slot.mask == Mask::Square
        && place.opacity >= 1.0
        && is_exact(&place, pix.width(), pix.height());
    if !fits {
        return None;
    }
    let (w, h) = template.content_size();
    crate::limits::check_size(w, h).ok()?;
    let (x, y) = (place.x as i64, place.y as i64);
    let (sw, sh) = (i64::from(pix.width()), i64::from(pix.height()));
    let (x0, x1) = (x.clamp(0, i64::from(w)), (x + sw).clamp(0, i64::from(w)));
    let row_bytes = w as usize * 4;
    let mut data = crate::buffers::take_empty(row_bytes * h as usize);
    let src = pix.data();
    for row in 0..i64::from(h) {
        let sy = row - y;
        if !(0..sh).contains(&sy) || x0 >= x1 {
            data.resize(data.len() + row_bytes, 0);
            continue;
        }
        data.resize(data.len() + x0 as usize * 4, 0);
        let start = (sy * sw + (x0 - x)) as usize * 4;
        data.extend_from_slice(&src[start..start + (x1 - x0) as usize * 4]);
        data.resize(data.len() + (i64::from(w) - x1) as usize * 4, 0);
    }
    let size = tiny_skia::IntSize::from_wh(w, h)?;
    Some(Canvas {
        pixmap: Pixmap::from_vec(data, size)?,
    })
}

/// The prepared image layer `i` draws: the avatar for an avatar slot, the
/// second image for a [`Layer::Image`], if any.
pub(super) fn layer_source<'a>(
    layer: &Layer,
    i: usize,
    prepared: &'a Prepared,
    images: &'a PreparedImages,
) -> Option<&'a Pixmap> {
    let slots = match layer {
        Layer::Image { .. } => &images.slots,
        _ => &prepared.slots,
    };
    slots.get(i).and_then(Option::as_ref)
}

/// Draws one layer; `source` is the prepared avatar or second image of its
/// position in the template's layers, if any, and `text` its text slot's
/// layout once laid out.
pub(super) fn draw_layer(
    canvas: &mut Canvas,
    layer: &Layer,
    source: Option<&Pixmap>,
    args: &Args,
    frame: u32,
    text: &mut Option<(String, TextLayout)>,
) -> Result<(), RenderError> {
    draw_layer_on(canvas, None, layer, source, args, frame, text)
}

/// [`draw_layer`], with text inked for what `ground` (when given, else the
/// canvas) holds under it: layers drawn apart on a transparent canvas
/// pick the ink they would over the card.
pub(super) fn draw_layer_on(
    canvas: &mut Canvas,
    ground: Option<&Pixmap>,
    layer: &Layer,
    source: Option<&Pixmap>,
    args: &Args,
    frame: u32,
    text: &mut Option<(String, TextLayout)>,
) -> Result<(), RenderError> {
    match layer {
        Layer::Art { art, motion } => {
            if let Some(place) = place_at(motion, frame) {
                let pix = art::cached(*art);
                // Moving art at a scaled or turned placement (a hand that
                // pats): drawn there once per process, then copied.
                let placed = (motion.len() > 1 && !is_exact(&place, pix.width(), pix.height()))
                    .then(|| reuse::placed_art(*art, pix, &place))
                    .flatten();
                match placed {
                    Some(p) => blit_exact(&mut canvas.pixmap, &p.2, p.0, p.1, 1.0),
                    None => draw_art(canvas, pix, &place),
                }
            }
        }
        Layer::Avatar(slot) => {
            if let (Some(place), Some(avatar)) = (place_at(slot.motion, frame), source) {
                draw_avatar(canvas, avatar, slot.mask, &place);
            }
        }
        Layer::Text(_) | Layer::PaintedText { .. } | Layer::PaletteText(..) => {
            if let Some((slot, (color, outline))) = text_ink(layer, args) {
                draw_text(canvas, ground, slot, (color, outline), args, frame, text)?;
            }
        }
        Layer::Shape(slot) => draw_shape(canvas, slot, args),
        Layer::Bar(slot) => draw_bar(canvas, slot, args),
        Layer::When { when, layer } => {
            if when.holds(args) {
                draw_layer_on(canvas, ground, layer, source, args, frame, text)?;
            }
        }
        Layer::ArtChoice {
            param,
            arts,
            motion,
        } => {
            if let (Some(place), Some(art)) =
                (place_at(motion, frame), arts.get(args.choice(param)))
            {
                draw_art(canvas, art::cached(*art), &place);
            }
        }
        Layer::Image { motion, mask, .. } => {
            if let (Some(place), Some(image)) = (place_at(motion, frame), source) {
                draw_avatar(canvas, image, *mask, &place);
            }
        }
        Layer::Picture { art, motion } => {
            if let Some(place) = place_at(motion, frame) {
                draw_art(canvas, art.pixmap(), &place);
            }
        }
        Layer::Grow(grow) => super::flow::draw_grow(canvas, grow, args)?,
        Layer::Row(row) => super::flow::draw_row(canvas, row, args, 0.0)?,
        Layer::Cut(slot) => super::fit::cut_shape(canvas, slot, args),
        // Drawn by the renderer of a canvas that follows its picture.
        Layer::Fit(_) => {}
        Layer::Effect(slot) => {
            if let Some(src) = source {
                super::effects::draw_effect(canvas, slot, src, args, frame);
            }
        }
    }
    Ok(())
}

/// A text layer's slot and the ink it is drawn in for these arguments;
/// `None` for any other layer.
pub(super) fn text_ink<'a>(layer: &'a Layer, args: &Args) -> Option<(&'a TextSlot, Ink)> {
    match layer {
        Layer::Text(slot) => Some((slot, (slot.color, slot.outline))),
        Layer::PaintedText { paint, slot } => Some((slot, (paint.rgba(args), slot.outline))),
        Layer::PaletteText(slot, palette) => {
            let color = palette
                .colors
                .get(args.choice(palette.param))
                .copied()
                .unwrap_or(slot.color);
            let outline = slot.outline.map(|(c, w)| {
                if is_dark(color) {
                    (palette.light_outline, w)
                } else {
                    (c, w)
                }
            });
            Some((slot, (color, outline)))
        }
        _ => None,
    }
}

/// The path of `shape` in the box `(x, y, w, h)`.
pub(super) fn shape_path(shape: Shape, (x, y, w, h): (f32, f32, f32, f32)) -> tiny_skia::Path {
    match shape {
        Shape::Rect => rect_path(x, y, w, h),
        Shape::Rounded(r) => rrect_path(x, y, w, h, r.clamp(0.0, w.min(h) / 2.0)),
        Shape::Ellipse => tiny_skia::Rect::from_xywh(x, y, w, h)
            .and_then(PathBuilder::from_oval)
            .unwrap_or_else(|| rect_path(x, y, w, h)),
        Shape::Hexagon => hexagon_path(x, y, w, h),
        Shape::Wedge(t) => {
            crate::paint::poly(&[(x, y), (x + w, y), (x + w * t.clamp(0.0, 1.0), y + h)])
        }
    }
}

/// The regular hexagon inscribed in a box, pointed top and bottom (flat
/// sides left and right), stretched to the box.
pub(super) fn hexagon_path(x: f32, y: f32, w: f32, h: f32) -> tiny_skia::Path {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let pts: Vec<(f32, f32)> = (0..6)
        .map(|i| {
            let a = std::f32::consts::FRAC_PI_3 * i as f32 - std::f32::consts::FRAC_PI_2;
            (cx + w / 2.0 * a.cos(), cy + h / 2.0 * a.sin())
        })
        .collect();
    crate::paint::poly(&pts)
}

pub(super) fn colour(c: [u8; 4]) -> tiny_skia::Color {
    tiny_skia::Color::from_rgba8(c[0], c[1], c[2], c[3])
}

pub(super) fn draw_shape(canvas: &mut Canvas, slot: &ShapeSlot, args: &Args) {
    let c = slot.paint.rgba(args);
    if c[3] == 0 {
        return;
    }
    let (w, h) = (canvas.pixmap.width() as f32, canvas.pixmap.height() as f32);
    match slot.stroke {
        // An opaque background: a fill of every pixel, no path.
        None if slot.shape == Shape::Rect && slot.area == (0.0, 0.0, w, h) && c[3] == 255 => {
            canvas.pixmap.fill(colour(c));
        }
        None => canvas.color(&shape_path(slot.shape, slot.area), colour(c)),
        Some(width) => canvas.stroke(&shape_path(slot.shape, slot.area), colour(c), width),
    }
}

/// `value / max` clamped to 0–1; a goal of 0 is reached by any progress.
pub fn bar_fraction(value: u64, max: u64) -> f32 {
    if max == 0 {
        return if value > 0 { 1.0 } else { 0.0 };
    }
    (value as f64 / max as f64).clamp(0.0, 1.0) as f32
}

/// Share of opacity of the track drawn in a faint shade of the bar's
/// colour.
const FAINT_TRACK: f32 = 0.3;

/// A bar's track and fill colours. A track colour given without a fill
/// colour is what a caller calls "the bar's colour": the reached part is
/// drawn in it and the track in a faint shade of it, so the track never
/// outshouts the progress.
pub(super) fn bar_inks(slot: &BarSlot, args: &Args) -> ([u8; 4], [u8; 4]) {
    let (track, fill) = (slot.track.rgba(args), slot.fill.rgba(args));
    match (slot.track, slot.fill) {
        (Paint::Param { param: t, .. }, Paint::Param { param: f, .. })
            if args.given(t) && !args.given(f) =>
        {
            let faint = (f32::from(track[3]) * FAINT_TRACK).round() as u8;
            (
                [track[0], track[1], track[2], faint],
                [track[0], track[1], track[2], fill[3]],
            )
        }
        _ => (track, fill),
    }
}

pub(super) fn draw_bar(canvas: &mut Canvas, slot: &BarSlot, args: &Args) {
    let f = bar_fraction(args.int(slot.value), args.int(slot.max));
    let (track, fill) = bar_inks(slot, args);
    let (track, fill) = (colour(track), colour(fill));
    let (x, y, w, h) = slot.area;
    match slot.style {
        BarStyle::Rounded => {
            let r = h / 2.0;
            canvas.color(&rrect_path(x, y, w, h, r), track);
            if f > 0.0 {
                // At least a round dot, so that a little progress shows.
                let fw = (w * f).max(h);
                canvas.color(&rrect_path(x, y, fw, h, r), fill);
            }
        }
        BarStyle::Segments { count, gap, radius } => {
            let n = count.max(1);
            let sw = (w - gap * (n - 1) as f32) / n as f32;
            // One path for the track's blocks and one for the lit ones: a
            // fill has a cost of its own, whatever its size.
            let (mut tracks, mut lits) = (PathBuilder::new(), PathBuilder::new());
            let mut partial = None;
            for i in 0..n {
                let sx = x + i as f32 * (sw + gap);
                tracks.push_path(&rrect_path(sx, y, sw, h, radius));
                let lit = (f * n as f32 - i as f32).clamp(0.0, 1.0);
                if lit > 0.0 {
                    lits.push_path(&rrect_path(sx, y, (sw * lit).max(radius * 2.0), h, radius));
                }
                if lit > 0.0 && lit < 1.0 {
                    partial = Some(sx);
                }
            }
            for (blocks, colour) in [(tracks, track), (lits, fill)] {
                if let Some(path) = blocks.finish() {
                    canvas.color(&path, colour);
                }
            }
            // The block being filled is outlined in the fill's colour, so
            // its lit part reads as part of a block, not a stray sliver.
            if let Some(sx) = partial {
                let edge = (sw.min(h) / 8.0).clamp(1.0, 3.0);
                let inset = edge / 2.0;
                canvas.stroke(
                    &rrect_path(
                        sx + inset,
                        y + inset,
                        sw - edge,
                        h - edge,
                        (radius - inset).max(0.0),
                    ),
                    fill,
                    edge,
                );
            }
        }
        BarStyle::Ring { width } => {
            let (cx, cy) = (x + w / 2.0, y + h / 2.0);
            let (rx, ry) = ((w - width) / 2.0, (h - width) / 2.0);
            let ring = |from: f32, to: f32| {
                let steps = ((to - from) * 90.0).ceil().max(2.0) as usize;
                let mut pb = PathBuilder::new();
                for k in 0..=steps {
                    let t = from + (to - from) * k as f32 / steps as f32;
                    let a = std::f32::consts::TAU * t - std::f32::consts::FRAC_PI_2;
                    let p = (cx + rx * a.cos(), cy + ry * a.sin());
                    if k == 0 {
                        pb.move_to(p.0, p.1);
                    } else {
                        pb.line_to(p.0, p.1);
                    }
                }
                pb.finish()
            };
            let whole = shape_path(Shape::Ellipse, (cx - rx, cy - ry, rx * 2.0, ry * 2.0));
            canvas.stroke(&whole, track, width);
            if f > 0.0
                && let Some(p) = ring(0.0, f)
            {
                canvas.stroke(&p, fill, width);
            }
        }
    }
}

pub(super) fn draw_art(canvas: &mut Canvas, art: &Pixmap, place: &Place) {
    let (aw, ah) = (art.width(), art.height());
    let exact = is_exact(place, aw, ah);
    let paint = PixmapPaint {
        opacity: place.opacity.clamp(0.0, 1.0),
        quality: if exact {
            FilterQuality::Nearest
        } else {
            FilterQuality::Bilinear
        },
        ..PixmapPaint::default()
    };
    if exact {
        blit_exact(
            &mut canvas.pixmap,
            art,
            place.x as i32,
            place.y as i32,
            paint.opacity,
        );
    } else {
        let t = place_transform(place, aw as f32, ah as f32);
        canvas
            .pixmap
            .draw_pixmap(0, 0, art.as_ref(), &paint, t, None);
    }
}

/// Whether a straight-RGBA colour is dark (Rec. 601 luma under 96).
pub(super) fn is_dark(c: [u8; 4]) -> bool {
    u32::from(c[0]) * 299 + u32::from(c[1]) * 587 + u32::from(c[2]) * 114 < 96_000
}

/// Draws the premultiplied `src` over `dst` with its top-left corner at the
/// whole pixel `(x, y)`, scaled by `opacity`, clipped to `dst`: what an
/// exact placement (nearest sampling at whole-pixel offsets) draws, as a
/// plain source-over loop in integers instead of the raster pipeline.
pub(super) fn blit_exact(dst: &mut Pixmap, src: &Pixmap, x: i32, y: i32, opacity: f32) {
    let o = (opacity.clamp(0.0, 1.0) * 255.0).round() as u32;
    let (dw, dh) = (dst.width() as i64, dst.height() as i64);
    let (sw, sh) = (src.width() as i64, src.height() as i64);
    let (x, y) = (i64::from(x), i64::from(y));
    let (x0, y0) = (x.max(0), y.max(0));
    let (x1, y1) = ((x + sw).min(dw), (y + sh).min(dh));
    if o == 0 || x0 >= x1 || y0 >= y1 {
        return;
    }
    let len = ((x1 - x0) * 4) as usize;
    let (dstride, sstride) = (dw as usize * 4, sw as usize * 4);
    let src_data = src.data();
    let dst_data = dst.data_mut();
    for row in y0..y1 {
        let d = &mut dst_data[row as usize * dstride + x0 as usize * 4..][..len];
        let s = &src_data[(row - y) as usize * sstride + (x0 - x) as usize * 4..][..len];
        if o == 255 {
            over_row(d, s);
            continue;
        }
        for (dp, sp) in d.chunks_exact_mut(4).zip(s.chunks_exact(4)) {
            if o == 255 {
                match sp[3] {
                    0 => continue,
                    255 => {
                        dp.copy_from_slice(sp);
                        continue;
                    }
                    _ => {}
                }
            }
            let scale = |c: u8| {
                if o == 255 {
                    u32::from(c)
                } else {
                    div255(u32::from(c) * o)
                }
            };
            let inv = 255 - scale(sp[3]);
            for c in 0..4 {
                dp[c] = (scale(sp[c]) + div255(u32::from(dp[c]) * inv)).min(255) as u8;
            }
        }
    }
}

/// Source-over of one row of premultiplied pixels at full opacity: each
/// channel `s + d × (255 − sₐ) / 255`, rounded as [`div255`] does, at most
/// 255 (which only a source that is not premultiplied reaches). Eight
/// pixels at a time in 16-bit lanes (every product fits: 255 × 255 + 255 <
/// 2¹⁶), which the compiler turns into vector code; eight transparent
/// source pixels leave the destination as it is.
pub(super) fn over_row(d: &mut [u8], s: &[u8]) {
    let mut dc = d.chunks_exact_mut(32);
    let mut sc = s.chunks_exact(32);
    for (dp, sp) in (&mut dc).zip(&mut sc) {
        let sp: &[u8; 32] = sp.try_into().expect("32 bytes");
        if *sp == [0; 32] {
            continue;
        }
        let mut out = [0u8; 32];
        for (i, o) in out.iter_mut().enumerate() {
            let inv = 255 - u16::from(sp[i | 3]);
            let t = u16::from(dp[i]) * inv + 128;
            let r = (t + (t >> 8)) >> 8;
            *o = (u16::from(sp[i]) + r).min(255) as u8;
        }
        dp.copy_from_slice(&out);
    }
    for (dp, sp) in dc
        .into_remainder()
        .chunks_exact_mut(4)
        .zip(sc.remainder().chunks_exact(4))
    {
        let inv = 255 - u32::from(sp[3]);
        for (o, &c) in dp.iter_mut().zip(sp) {
            *o = (u32::from(c) + div255(u32::from(*o) * inv)).min(255) as u8;
        }
    }
}

/// `v / 255`, rounded, for `v` up to 255².
pub(super) fn div255(v: u32) -> u32 {
    let v = v + 128;
    (v + (v >> 8)) >> 8
}

pub(super) fn draw_avatar(canvas: &mut Canvas, pix: &Pixmap, mask: Mask, place: &Place) {
    let (side, side_h) = (pix.width() as f32, pix.height() as f32);
    let exact = is_exact(place, pix.width(), pix.height());
    if exact && mask == Mask::Square {
        blit_exact(
            &mut canvas.pixmap,
            pix,
            place.x as i32,
            place.y as i32,
            place.opacity,
        );
        return;
    }
    let path = match mask {
        Mask::Square => rect_path(0.0, 0.0, side, side_h),
        Mask::Circle if side == side_h => circle_path(side / 2.0, side / 2.0, side / 2.0),
        Mask::Circle => ellipse_path(side, side_h),
        Mask::Rounded(r) => {
            rrect_path(0.0, 0.0, side, side_h, side.min(side_h) * r.clamp(0.0, 0.5))
        }
        Mask::Hexagon => hexagon_path(0.0, 0.0, side, side_h),
    };
    if place.rotation == 0.0 && !exact {
        // Scaled but upright (a squashed avatar): sampled in integers.
        crate::scaled::draw_scaled(
            &mut canvas.pixmap,
            pix,
            &path,
            (place.x, place.y, place.w, place.h),
            place.opacity,
        );
        return;
    }
    // Turned, or cut to a shape at an exact place: each canvas pixel of
    // the shape sampled back in fixed point (at an exact place every
    // sample falls on a pixel, as nearest sampling's would).
    let t = place_transform(place, side, side_h);
    crate::turned::draw_turned(&mut canvas.pixmap, pix, &path, t, place.opacity);
}

/// The ellipse inscribed in a `w` × `h` box at the origin.
pub(super) fn ellipse_path(w: f32, h: f32) -> tiny_skia::Path {
    tiny_skia::PathBuilder::from_oval(
        tiny_skia::Rect::from_xywh(0.0, 0.0, w, h).expect("positive box"),
    )
    .expect("non-empty ellipse")
}
