//! Templates whose canvas follows their main picture ([`Layer::Fit`]): the
//! picture's drawn size, the layers mapped around it, and the drawing.

use super::*;

/// The template's [`Layer::Fit`], if it has one (at the top level).
pub(super) fn fit_of(template: &Template) -> Option<&'static FitSlot> {
    template.layers.iter().find_map(|layer| match layer {
        Layer::Fit(slot) => Some(slot),
        _ => None,
    })
}

/// The size a [`Layer::Fit`] draws a picture of `(width, height)` pixels
/// at: its aspect kept, its long side its own, at least `min_side` and at
/// most `max_side` pixels; each side at least 1 pixel.
pub fn fitted_picture_size(slot: &FitSlot, (w, h): (u32, u32)) -> (u32, u32) {
    let (w, h) = (w.max(1), h.max(1));
    let long = w.max(h);
    let low = slot.min_side.max(1);
    let target = long.clamp(low, slot.max_side.max(low));
    let k = f64::from(target) / f64::from(long);
    let side = |v: u32| ((f64::from(v) * k).round() as u32).clamp(1, target);
    (side(w), side(h))
}

/// Where everything goes on the canvas of one picture: the scale from the
/// template's units to pixels and the two moves of [`FitSlot`]'s mapping.
pub(super) struct Geometry {
    /// Pixels per template unit.
    scale: f32,
    /// Where a growing text's box ends, in template units: from there
    /// down, coordinates move by `grow_dy`.
    grow_end: f32,
    /// How far a growing text shorter than its box moves what is below
    /// it (0 or less), in template units.
    grow_dy: f32,
    /// The middle of the picture's box, in template units: below it,
    /// coordinates move by `stretch`.
    mid: f32,
    /// How much taller the picture's box is than for a square picture,
    /// in template units.
    stretch: f32,
    /// The canvas, in pixels.
    pub(super) size: (u32, u32),
    /// The picture's size and its top-left corner, in pixels.
    picture: (u32, u32),
    at: (i32, i32),
    /// The growing text laid out at the canvas's scale, and the height it
    /// takes in pixels.
    grow: Option<(TextLayout, f32)>,
}

impl Geometry {
    /// Where the template's `y` falls on the canvas, in pixels.
    fn y(&self, y: f32) -> f32 {
        let mut v = y;
        if y >= self.grow_end {
            v += self.grow_dy;
        }
        if y > self.mid {
            v += self.stretch;
        }
        v * self.scale
    }

    /// A box `(x, y, width, height)` of the template on the canvas.
    fn area(&self, (x, y, w, h): (f32, f32, f32, f32)) -> (f32, f32, f32, f32) {
        let top = self.y(y);
        let bottom = self.y(y + h).max(top);
        (x * self.scale, top, w * self.scale, bottom - top)
    }

    fn place(&self, p: Place) -> Place {
        let (x, y, w, h) = self.area((p.x, p.y, p.w, p.h));
        Place { x, y, w, h, ..p }
    }

    /// A text slot on the canvas: its sizes scaled, within the sizes text
    /// may have (a picture of extreme aspect gives a narrow canvas: its
    /// text is then cut).
    fn text(&self, slot: &TextSlot) -> TextSlot {
        let font = |v: f32| v.clamp(text::MIN_FONT_SIZE, text::MAX_FONT_SIZE);
        let size = font(slot.size * self.scale);
        TextSlot {
            area: self.area(slot.area),
            size,
            min_size: font(slot.min_size * self.scale).min(size),
            outline: slot.outline.map(|(c, w)| (c, w * self.scale)),
            ..*slot
        }
    }

    fn shape(&self, slot: &ShapeSlot) -> ShapeSlot {
        ShapeSlot {
            shape: match slot.shape {
                Shape::Rounded(r) => Shape::Rounded(r * self.scale),
                other => other,
            },
            area: self.area(slot.area),
            stroke: slot.stroke.map(|w| w * self.scale),
            ..*slot
        }
    }

    /// A growing text at the canvas's scale (its box is above the picture
    /// and the text's end: only scaled).
    fn grow(&self, grow: &Grow) -> Grow {
        Grow {
            slot: self.text(&grow.slot),
            margin: grow.margin * self.scale,
            ..*grow
        }
    }
}

/// The geometry of `template` over a picture of `picture` pixels; its
/// growing text, if any, is laid out when `lay_out` (else it takes its
/// whole box).
pub(super) fn geometry(
    template: &Template,
    slot: &FitSlot,
    args: &Args,
    picture: (u32, u32),
    lay_out: bool,
) -> Result<Geometry, RenderError> {
    let (pw, ph) = fitted_picture_size(slot, picture);
    let (x, y, side, _) = slot.area;
    let side = side.max(1.0);
    let scale = pw as f32 / side;
    let mut g = Geometry {
        scale,
        grow_end: f32::INFINITY,
        grow_dy: 0.0,
        mid: y + side / 2.0,
        stretch: ph as f32 / scale - side,
        size: (1, 1),
        picture: (pw, ph),
        at: (0, 0),
        grow: None,
    };
    if let Some(grow) = super::flow::grow_of(template) {
        g.grow_end = super::flow::tallest(grow);
        let scaled = g.grow(grow);
        let (gx, gy, gw, gh) = scaled.slot.area;
        let used = match lay_out {
            true => {
                let words = slot_text(&grow.slot, args);
                let style = super::flow::grow_style(&scaled, args);
                let layout = text::fit_text(
                    &words,
                    &style,
                    TextBox::new(gx, gy, gw, gh),
                    scaled.slot.min_size,
                )?;
                let natural = layout.font_size() == scaled.slot.size && !layout.is_truncated();
                let used = if natural { layout.height().min(gh) } else { gh };
                g.grow = Some((layout, used));
                used
            }
            false => gh,
        };
        g.grow_dy = (used - gh) / scale;
    }
    let width = (template.size.0 as f32 * scale).round().max(1.0) as u32;
    let height = g.y(template.size.1 as f32).round().max(1.0) as u32;
    g.size = (width, height);
    g.at = ((x * scale).round() as i32, g.y(y).round() as i32);
    Ok(g)
}

/// The canvas size of `template` over a picture of `picture` pixels (its
/// growing text taking its whole box when it cannot be laid out: the
/// render then says why).
pub(super) fn canvas_size(
    template: &Template,
    slot: &FitSlot,
    args: &Args,
    picture: (u32, u32),
) -> (u32, u32) {
    geometry(template, slot, args, picture, true)
        .or_else(|_| geometry(template, slot, args, picture, false))
        .map_or(template.size, |g| g.size)
}

/// The side of the square placeholder drawn without a picture.
fn placeholder_side(slot: &FitSlot) -> u32 {
    512u32.clamp(
        slot.min_side.max(1),
        slot.max_side.max(slot.min_side.max(1)),
    )
}

/// Renders `template` (with the [`Layer::Fit`] `slot`) over `picture`
/// (`None`: a grey silhouette, square).
pub(super) fn render_fitted(
    template: &Template,
    slot: &FitSlot,
    args: &Args,
    picture: Option<&RgbaImage>,
) -> Result<RgbaImage, RenderError> {
    crate::text::check_fonts()?;
    let source = match picture {
        Some(p) => {
            crate::limits::check_size(p.width(), p.height())?;
            p.dimensions()
        }
        None => (placeholder_side(slot), placeholder_side(slot)),
    };
    let g = geometry(template, slot, args, source, true)?;
    crate::limits::check_size(g.size.0, g.size.1)?;
    let mut canvas = Canvas::new(g.size.0, g.size.1)?;
    for layer in template.layers {
        draw(&mut canvas, &g, layer, args, picture)?;
    }
    Ok(canvas.into_image())
}

fn draw(
    canvas: &mut Canvas,
    g: &Geometry,
    layer: &Layer,
    args: &Args,
    picture: Option<&RgbaImage>,
) -> Result<(), RenderError> {
    match layer {
        Layer::Fit(_) => draw_picture(canvas, g, picture)?,
        Layer::Shape(slot) => draw_shape(canvas, &g.shape(slot), args),
        Layer::Cut(slot) => cut_shape(canvas, &g.shape(slot), args),
        Layer::Text(_) | Layer::PaintedText { .. } | Layer::PaletteText(..) => {
            if let Some((slot, (color, outline))) = text_ink(layer, args) {
                let outline = outline.map(|(c, w)| (c, w * g.scale));
                draw_text(
                    canvas,
                    None,
                    &g.text(slot),
                    (color, outline),
                    args,
                    0,
                    &mut None,
                )?;
            }
        }
        Layer::Grow(grow) => {
            if let Some((layout, h)) = &g.grow {
                let scaled = g.grow(grow);
                let (x, y, w, _) = scaled.slot.area;
                let style = super::flow::grow_style(&scaled, args);
                canvas.draw_layout(layout, &style, TextBox::new(x, y, w, *h));
            }
            for below in grow.below {
                draw(canvas, g, below, args, picture)?;
            }
        }
        Layer::Art { art, motion } => {
            if let Some(place) = place_at(motion, 0) {
                draw_art(canvas, art::cached(*art), &g.place(place));
            }
        }
        Layer::ArtChoice {
            param,
            arts,
            motion,
        } => {
            if let (Some(place), Some(art)) = (place_at(motion, 0), arts.get(args.choice(param))) {
                draw_art(canvas, art::cached(*art), &g.place(place));
            }
        }
        Layer::Picture { art, motion } => {
            if let Some(place) = place_at(motion, 0) {
                draw_art(canvas, art.pixmap(), &g.place(place));
            }
        }
        Layer::When { when, layer } => {
            if when.holds(args) {
                draw(canvas, g, layer, args, picture)?;
            }
        }
        // Not drawn over a canvas that follows its picture (the checks of
        // built-ins and files refuse them there).
        Layer::Avatar(_)
        | Layer::Image { .. }
        | Layer::Bar(_)
        | Layer::Row(_)
        | Layer::Effect(_) => {}
    }
    Ok(())
}

/// Whether a layer may be part of a template with a [`Layer::Fit`].
#[cfg(any(test, feature = "files"))]
pub(super) fn fits(layer: &Layer) -> bool {
    match layer {
        Layer::Fit(_)
        | Layer::Shape(_)
        | Layer::Cut(_)
        | Layer::Text(_)
        | Layer::PaintedText { .. }
        | Layer::PaletteText(..)
        | Layer::Art { .. }
        | Layer::ArtChoice { .. }
        | Layer::Picture { .. } => true,
        Layer::Grow(grow) => grow.below.iter().all(fits),
        Layer::When { layer, .. } => !matches!(layer, Layer::Fit(_)) && fits(layer),
        Layer::Avatar(_)
        | Layer::Image { .. }
        | Layer::Bar(_)
        | Layer::Row(_)
        | Layer::Effect(_) => false,
    }
}

/// Draws the picture at its size and place, whole (the placeholder
/// silhouette without one).
fn draw_picture(
    canvas: &mut Canvas,
    g: &Geometry,
    picture: Option<&RgbaImage>,
) -> Result<(), RenderError> {
    let (w, h) = g.picture;
    let Some(img) = picture else {
        let pix = Avatar::prepare_tinted(None, w.max(h), false, None)?.into_pixmap();
        let place = Place::rect(g.at.0 as f32, g.at.1 as f32, w as f32, h as f32);
        draw_avatar(canvas, &pix, Mask::Square, &place);
        return Ok(());
    };
    let pix = premultiplied(crate::resize::cover(img, w, h)?)?;
    blit_exact(&mut canvas.pixmap, &pix, g.at.0, g.at.1, 1.0);
    crate::buffers::recycle(pix.take());
    Ok(())
}

/// Cuts `slot`'s shape out of the canvas: transparent where it covers, by
/// its paint's alpha.
pub(super) fn cut_shape(canvas: &mut Canvas, slot: &ShapeSlot, args: &Args) {
    let alpha = slot.paint.rgba(args)[3];
    if alpha == 0 {
        return;
    }
    let mut paint = tiny_skia::Paint::default();
    paint.set_color_rgba8(0, 0, 0, alpha);
    paint.anti_alias = true;
    paint.blend_mode = tiny_skia::BlendMode::DestinationOut;
    let path = shape_path(slot.shape, slot.area);
    match slot.stroke {
        None => canvas.pixmap.fill_path(
            &path,
            &paint,
            tiny_skia::FillRule::Winding,
            Transform::identity(),
            None,
        ),
        Some(width) => {
            let stroke = tiny_skia::Stroke {
                width,
                ..tiny_skia::Stroke::default()
            };
            canvas
                .pixmap
                .stroke_path(&path, &paint, &stroke, Transform::identity(), None);
        }
    }
}
