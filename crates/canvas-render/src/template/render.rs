//! The entry points that render a template: stills, planned frames,
//! placed frames and patched frames.

use super::*;

/// Renders a still image of `template`: its first frame over `avatar`
/// (`None`: a grey silhouette).
pub fn render_template(
    template: &Template,
    args: &Args,
    avatar: Option<&RgbaImage>,
) -> Result<RgbaImage, RenderError> {
    render_template_with(template, args, avatar, None)
}

/// Renders a still image of `template` over `avatar` (`None`: a grey
/// silhouette) and the second image `image` that its [`Layer::Image`]
/// draws (`None`: that layer draws nothing).
pub fn render_template_with(
    template: &Template,
    args: &Args,
    avatar: Option<&RgbaImage>,
    image: Option<&RgbaImage>,
) -> Result<RgbaImage, RenderError> {
    let picture = render_picture(template, args, avatar, image)?;
    Ok(match template.camera {
        Some(_) => {
            let backdrop = render_backdrop(template, args, avatar, image)?;
            let framed = on_canvas(template, backdrop.as_ref(), 0, &picture);
            crate::buffers::recycle_image(picture);
            if let Some(backdrop) = backdrop {
                crate::buffers::recycle_image(backdrop);
            }
            framed
        }
        None => picture,
    })
}

/// The [`Camera`]'s backdrop drawn over `avatar` and `image`, if it has
/// one: its layers on the whole canvas, as in the first frame.
pub(super) fn render_backdrop(
    template: &Template,
    args: &Args,
    avatar: Option<&RgbaImage>,
    image: Option<&RgbaImage>,
) -> Result<Option<RgbaImage>, RenderError> {
    let Some(backdrop) = template.backdrop() else {
        return Ok(None);
    };
    let prepared = Prepared::new(&backdrop, args, avatar)?;
    let images = PreparedImages::new(&backdrop, image)?;
    let mut texts = TextCache::new(&backdrop);
    let drawn = draw_frame(&backdrop, args, 0, &prepared, &images, &mut texts)?;
    Ok(Some(drawn.into_image()))
}

/// The picture of the first frame ([`render_template_with`]), before the
/// [`Camera`] places it.
pub(super) fn render_picture(
    template: &Template,
    args: &Args,
    avatar: Option<&RgbaImage>,
    image: Option<&RgbaImage>,
) -> Result<RgbaImage, RenderError> {
    if let Some(slot) = super::fit::fit_of(template) {
        return super::fit::render_fitted(template, slot, args, avatar);
    }
    let mut prepared = Prepared::new(template, args, avatar)?;
    let images = PreparedImages::new(template, image)?;
    let mut texts = TextCache::new(template);
    // Without a second image its layer draws nothing, so the layers under
    // the avatar are the same for every avatar and can be kept.
    let Some(first) = under_cached_slot(template, image.is_some()).filter(|&i| i > 0) else {
        if let Some(mut canvas) = start_from_avatar(template, &mut prepared) {
            for (i, layer) in template.layers.iter().enumerate().skip(1) {
                let source = layer_source(layer, i, &prepared, &images);
                draw_layer(&mut canvas, layer, source, args, 0, texts.slot(i))?;
            }
            return Ok(canvas.into_image());
        }
        return Ok(draw_frame(template, args, 0, &prepared, &images, &mut texts)?.into_image());
    };
    // Only art covering the canvas under the avatar (a card's backdrop):
    // copied straight from the art cache, as a frame starts, rather than
    // from a second cached copy of the same pixels.
    if first == 1 && matches!(template.layers[0], Layer::Art { .. }) {
        let (mut canvas, skip, opaque) = start_canvas(template, args, 0)?;
        if skip == 1 {
            for (i, layer) in template.layers.iter().enumerate().skip(1) {
                let source = layer_source(layer, i, &prepared, &images);
                draw_layer(&mut canvas, layer, source, args, 0, texts.slot(i))?;
            }
            return Ok(canvas.into_image_known(opaque));
        }
        crate::buffers::recycle(canvas.pixmap.take());
    }
    // The layers under the avatar come from the cache; the rest is drawn.
    let (under, opaque) = under_layers(template, args, first)?;
    let mut canvas = Canvas::from_layer(&under);
    for (i, layer) in template.layers.iter().enumerate().skip(first) {
        let source = layer_source(layer, i, &prepared, &images);
        draw_layer(&mut canvas, layer, source, args, 0, texts.slot(i))?;
    }
    // Drawn over an opaque canvas (a welcome card's background), every
    // pixel stays opaque: nothing to un-premultiply.
    Ok(canvas.into_image_known(opaque))
}

/// Renders every output frame of `template` over an avatar given as its
/// frames with their delays (one frame: a still avatar), aligned by time
/// ([`plan_frames`]). Gives each frame with its delay. `deadline`, when
/// given, is checked between frames.
pub fn render_template_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    deadline: Option<&Deadline>,
) -> Result<Vec<(RgbaImage, u32)>, AnimationError> {
    let delays: Vec<u32> = avatar.iter().map(|(_, d)| *d).collect();
    let plan = plan_frames(template, args, &delays);
    let mut out = Vec::with_capacity(plan.len());
    render_planned_frames(template, args, avatar, &plan, deadline, |frame, delay| {
        out.push((frame, delay));
        Ok(())
    })?;
    Ok(out)
}

/// Renders the output frames `plan` lists (from [`plan_frames`], or a
/// subset of it with merged delays) over an avatar given as its frames with
/// their delays, handing each frame and its delay to `sink` as soon as it
/// is drawn, so a caller that encodes frame by frame never holds them all.
/// `deadline`, when given, is checked between frames.
pub fn render_planned_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
    sink: impl FnMut(RgbaImage, u32) -> Result<(), AnimationError>,
) -> Result<(), AnimationError> {
    render_planned_frames_with(template, args, avatar, &[], plan, deadline, sink)
}

/// [`render_planned_frames`] with a second image for the template's
/// [`Layer::Image`], given as its frames with their delays (none: that
/// layer draws nothing); `plan` comes from [`plan_frames_with`].
pub fn render_planned_frames_with(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
    mut sink: impl FnMut(RgbaImage, u32) -> Result<(), AnimationError>,
) -> Result<(), AnimationError> {
    // A canvas that follows its picture: each avatar frame drawn whole.
    if let Some(slot) = super::fit::fit_of(template) {
        for step in plan {
            if let Some(d) = deadline {
                d.check()?;
            }
            let source = avatar.get(step.avatar_frame).map(|(img, _)| *img);
            let frame = super::fit::render_fitted(template, slot, args, source)?;
            sink(frame, step.delay_ms)?;
        }
        if let Some(d) = deadline {
            d.check()?;
        }
        return Ok(());
    }
    let mut prepared: Option<(usize, Prepared)> = None;
    let mut images: Option<(usize, PreparedImages)> = None;
    let mut texts = TextCache::new(template);
    // A still template over several avatar frames: what lies under and over
    // its one avatar slot is the same in every frame, so it is drawn once.
    let split = match plan.len() > 1 {
        true => Split::new(template, args)?,
        false => None,
    };
    // Over a still avatar and image, a template frame that looks like an
    // earlier one (a pat's way back up; with a camera, the same picture at
    // another place) is a copy of it: those wanted later are kept.
    let still_sources = avatar.len() <= 1 && image.len() <= 1 && split.is_none();
    let earlier = match still_sources {
        true => {
            let frames: Vec<u32> = plan.iter().map(|s| s.template_frame).collect();
            reuse::earlier_same(template, &frames)
        }
        false => vec![None; plan.len()],
    };
    // The last step that shows each kept frame takes it; the others get
    // copies.
    let mut last_use = vec![None; plan.len()];
    for (k, j) in earlier.iter().enumerate() {
        if let Some(j) = *j {
            last_use[j] = Some(k);
        }
    }
    // With a camera, what is drawn and kept is the picture, placed on the
    // canvas for each frame, over its backdrop (drawn for each avatar and
    // image frame) if it has one.
    let camera = template.camera.is_some();
    let has_backdrop = template.backdrop().is_some();
    let mut backdrop: Option<((usize, usize), RgbaImage)> = None;
    let mut kept: Vec<Option<RgbaImage>> = vec![None; plan.len()];
    for (k, step) in plan.iter().enumerate() {
        let key = (step.avatar_frame, step.image_frame);
        if has_backdrop && backdrop.as_ref().map(|(at, _)| *at) != Some(key) {
            let a = avatar.get(step.avatar_frame).map(|(img, _)| *img);
            let b = image.get(step.image_frame).map(|(img, _)| *img);
            let drawn = render_backdrop(template, args, a, b)?.expect("the template has one");
            if let Some((_, old)) = backdrop.replace((key, drawn)) {
                crate::buffers::recycle_image(old);
            }
        }
        let under = backdrop.as_ref().map(|(_, b)| b);
        if let Some(j) = earlier[k]
            && kept[j].is_some()
        {
            if let Some(d) = deadline {
                d.check()?;
            }
            let last = last_use[j] == Some(k);
            let image = match (camera, last) {
                // The same picture at this frame's place.
                (true, _) => {
                    let framed = kept[j]
                        .as_ref()
                        .map(|p| on_canvas(template, under, step.template_frame, p));
                    if last && let Some(picture) = kept[j].take() {
                        crate::buffers::recycle_image(picture);
                    }
                    framed
                }
                (false, true) => kept[j].take(),
                (false, false) => kept[j].as_ref().map(copied),
            };
            sink(image.expect("kept above"), step.delay_ms)?;
            continue;
        }
        if let Some(d) = deadline {
            d.check()?;
        }
        let source = avatar.get(step.avatar_frame).map(|(img, _)| *img);
        let reuse = matches!(&prepared, Some((i, _)) if *i == step.avatar_frame);
        if !reuse {
            prepared = Some((step.avatar_frame, Prepared::new(template, args, source)?));
        }
        let second = image.get(step.image_frame).map(|(img, _)| *img);
        let reuse = matches!(&images, Some((i, _)) if *i == step.image_frame);
        if !reuse {
            images = Some((step.image_frame, PreparedImages::new(template, second)?));
        }
        let (Some((_, p)), Some((_, q))) = (prepared.as_ref(), images.as_ref()) else {
            unreachable!("prepared above")
        };
        let frame = match &split {
            Some(split) => split.draw(template, args, p)?.into_image(),
            None => draw_frame(template, args, step.template_frame, p, q, &mut texts)?.into_image(),
        };
        if camera {
            // The picture goes to its place; it is kept while a later
            // frame shows it again.
            sink(
                on_canvas(template, under, step.template_frame, &frame),
                step.delay_ms,
            )?;
            match last_use[k] {
                Some(_) => kept[k] = Some(frame),
                None => crate::buffers::recycle_image(frame),
            }
        } else if last_use[k].is_some() {
            sink(copied(&frame), step.delay_ms)?;
            kept[k] = Some(frame);
        } else {
            sink(frame, step.delay_ms)?;
        }
    }
    for frame in kept.into_iter().flatten() {
        crate::buffers::recycle_image(frame);
    }
    if let Some((_, backdrop)) = backdrop {
        crate::buffers::recycle_image(backdrop);
    }
    if let Some(d) = deadline {
        d.check()?;
    }
    Ok(())
}

/// What a render over a still avatar and image draws from, prepared once:
/// the avatar, the image (each its first frame) and the text layouts.
pub(super) fn prepare_still(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
) -> Result<(Prepared, PreparedImages, TextCache), RenderError> {
    let prepared = Prepared::new(template, args, avatar.first().map(|(img, _)| *img))?;
    let images = PreparedImages::new(template, image.first().map(|(img, _)| *img))?;
    Ok((prepared, images, TextCache::new(template)))
}

/// The output frames `plan` lists, as [`render_planned_frames_with`] draws
/// them, given as one picture and its place in each frame
/// ([`PlacedFrames`]) when every frame shows the same picture at a place
/// of its own: a template with a [`Camera`] over a still avatar and image
/// whose frames all draw the same picture. The picture (and the camera's
/// backdrop, if any) is drawn once and no frame is composed; the GIF
/// encoder takes it as it is ([`crate::animation::encode_gif_placed`]).
/// `None` for any other template or plan (render its frames instead).
pub fn render_placed_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
) -> Result<Option<PlacedFrames>, AnimationError> {
    let Some(first) = plan.first() else {
        return Ok(None);
    };
    if template.camera.is_none() || avatar.len() > 1 || image.len() > 1 {
        return Ok(None);
    }
    let frames: Vec<u32> = plan.iter().map(|s| s.template_frame).collect();
    let earlier = reuse::earlier_same(template, &frames);
    if earlier.iter().skip(1).any(|e| *e != Some(0)) {
        return Ok(None);
    }
    if let Some(d) = deadline {
        d.check()?;
    }
    // Over a backdrop every frame keeps the picture at the first one's
    // place, which the template places at its frame 0.
    if template.backdrop().is_some() && first.template_frame != 0 {
        return Ok(None);
    }
    let backdrop = render_backdrop(
        template,
        args,
        avatar.first().map(|(img, _)| *img),
        image.first().map(|(img, _)| *img),
    )?;
    let (prepared, images, mut texts) = prepare_still(template, args, avatar, image)?;
    let picture = draw_frame(
        template,
        args,
        first.template_frame,
        &prepared,
        &images,
        &mut texts,
    )?
    .into_image();
    if let Some(d) = deadline {
        d.check()?;
    }
    Ok(Some(PlacedFrames {
        canvas: template.size,
        picture,
        frames: plan
            .iter()
            .map(|s| (template.offset(s.template_frame), s.delay_ms))
            .collect(),
        backdrop,
    }))
}

/// The output frames `plan` lists, as [`render_planned_frames_with`] draws
/// them, given as the first frame and, for each later frame, the rectangle
/// in which it differs from the frame before ([`PatchedFrames`]): for a
/// template without a [`Camera`] over a still avatar and image whose layers
/// under the first one that changes from frame to frame stay still (a
/// space scene under a drifting avatar and typed text), and whose frames
/// look like no earlier frame but the one before. Those still layers are
/// drawn once; each later frame puts them back, in one canvas kept from
/// frame to frame, only where a layer over them that changed is drawn in it
/// or in the frame before (each layer's box), and where any layer meeting
/// those boxes is drawn, draws those layers again, and hands over the box
/// of what changed (a moving layer's box before and after, the
/// newly typed letters): the same pixels as drawing every frame whole. The
/// GIF encoder takes it as it is ([`crate::animation::encode_gif_patched`]).
/// `None` for any other template or plan (render its frames instead).
pub fn render_patched_frames(
    template: &Template,
    args: &Args,
    avatar: &[(&RgbaImage, u32)],
    image: &[(&RgbaImage, u32)],
    plan: &[FramePlan],
    deadline: Option<&Deadline>,
) -> Result<Option<PatchedFrames>, AnimationError> {
    if super::fit::fit_of(template).is_some() {
        return Ok(None);
    }
    let Some(moving) = patched_layers(template, avatar, image, plan) else {
        return Ok(None);
    };
    if let Some(d) = deadline {
        d.check()?;
    }
    let (prepared, images, mut texts) = prepare_still(template, args, avatar, image)?;
    let size = template.content_size_for(args);
    let f0 = plan[0].template_frame;
    // The still layers, started as `draw_frame` starts a frame.
    let (mut canvas, skip, opaque) = match start_from_placed_avatar(template, f0, &prepared) {
        Some(canvas) if moving >= 1 => (canvas, 1, false),
        _ => match start_canvas(template, args, f0)? {
            (canvas, skip, opaque) if skip <= moving => (canvas, skip, opaque),
            (canvas, _, _) => {
                crate::buffers::recycle(canvas.pixmap.take());
                (Canvas::new(size.0, size.1)?, 0, false)
            }
        },
    };
    for (i, layer) in template.layers.iter().enumerate().take(moving).skip(skip) {
        let source = layer_source(layer, i, &prepared, &images);
        draw_layer(&mut canvas, layer, source, args, f0, texts.slot(i))?;
    }
    let still = Canvas::from_layer(&canvas.pixmap);
    for (i, layer) in template.layers.iter().enumerate().skip(moving) {
        let source = layer_source(layer, i, &prepared, &images);
        draw_layer(&mut canvas, layer, source, args, f0, texts.slot(i))?;
    }
    let first = cut_area(&canvas.pixmap, (0, 0, size.0, size.1), opaque);
    let mut frames = Vec::with_capacity(plan.len());
    frames.push((None, plan[0].delay_ms));
    let over = template.layers.len() - moving;
    let (mut restore, mut redraw) = (Vec::new(), vec![false; over]);
    let mut boxes: Vec<(Option<Area>, Option<Area>)> = vec![(None, None); over];
    for pair in plan.windows(2) {
        let (before, now) = (pair[0].template_frame, pair[1].template_frame);
        if reuse::same_look(template, before, now) {
            frames.push((None, pair[1].delay_ms));
            continue;
        }
        if let Some(d) = deadline {
            d.check()?;
        }
        // Each layer from the first moving one on: where it is drawn before
        // and now, and whether it changed (then what changed is kept).
        restore.clear();
        redraw.fill(false);
        let mut changed: Option<Area> = None;
        for (k, (i, layer)) in template.layers.iter().enumerate().skip(moving).enumerate() {
            let source = layer_source(layer, i, &prepared, &images);
            let text = texts.slot(i);
            let was = footprint(layer, source, args, before, text, size)?;
            let is = footprint(layer, source, args, now, text, size)?;
            boxes[k] = (was, is);
            if !reuse::layer_same(layer, before, now) {
                redraw[k] = true;
                cover(was, is, &mut restore);
                let change = match text_ink(layer, args) {
                    Some((slot, ink)) => typed_change(slot, ink, args, (before, now), text, size)?,
                    None => union(was, is),
                };
                changed = union(changed, change);
            }
        }
        // The still layers come back where a changed layer is drawn, before
        // or now; a layer drawn anywhere there is drawn again (and they
        // come back where it is drawn), until none is left.
        let mut grew = true;
        while grew {
            grew = false;
            for (k, &(was, is)) in boxes.iter().enumerate() {
                let meets =
                    |b: Option<Area>| b.is_some_and(|b| restore.iter().any(|&r| meet(b, r)));
                if !redraw[k] && (meets(was) || meets(is)) {
                    redraw[k] = true;
                    cover(was, is, &mut restore);
                    grew = true;
                }
            }
        }
        for &area in &restore {
            copy_area(&still.pixmap, &mut canvas.pixmap, area);
        }
        for (k, (i, layer)) in template.layers.iter().enumerate().skip(moving).enumerate() {
            if redraw[k] {
                let source = layer_source(layer, i, &prepared, &images);
                draw_layer(&mut canvas, layer, source, args, now, texts.slot(i))?;
            }
        }
        let patch = changed.map(|area| Patch {
            at: (area.0, area.1),
            pixels: cut_area(&canvas.pixmap, area, opaque),
        });
        frames.push((patch, pair[1].delay_ms));
    }
    crate::buffers::recycle(still.pixmap.take());
    crate::buffers::recycle(canvas.pixmap.take());
    if let Some(d) = deadline {
        d.check()?;
    }
    Ok(Some(PatchedFrames { first, frames }))
}
