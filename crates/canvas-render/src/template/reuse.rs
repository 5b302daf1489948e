//! What an animated template's frames can share instead of drawing again:
//! frames that look the same (every layer placed and revealed alike), and
//! art at the placements of a moving art layer, drawn once per process.

use std::sync::{Arc, Mutex};

use tiny_skia::{FilterQuality, Pixmap, PixmapPaint};

use super::{Art, Layer, Place, Reveal, Template, place_at, place_transform};

/// Whether frames `f` and `g` of `template` draw the same picture from the
/// same sources: every layer has the same placement (or none) in both and
/// every text slot shows the same part of its text.
pub(super) fn same_look(template: &Template, f: u32, g: u32) -> bool {
    f == g || template.layers.iter().all(|layer| layer_same(layer, f, g))
}

pub(super) fn layer_same(layer: &Layer, f: u32, g: u32) -> bool {
    let placed = |motion: &[Place]| place_at(motion, f) == place_at(motion, g);
    match layer {
        Layer::Art { motion, .. }
        | Layer::ArtChoice { motion, .. }
        | Layer::Picture { motion, .. }
        | Layer::Image { motion, .. } => placed(motion),
        Layer::Avatar(slot) => placed(slot.motion),
        Layer::Text(slot) | Layer::PaintedText { slot, .. } | Layer::PaletteText(slot, _) => {
            reveal_stage(slot.reveal, f) == reveal_stage(slot.reveal, g)
        }
        Layer::Shape(_)
        | Layer::Bar(_)
        | Layer::Grow(_)
        | Layer::Row(_)
        | Layer::Fit(_)
        | Layer::Cut(_) => true,
        Layer::When { layer, .. } => layer_same(layer, f, g),
        Layer::Effect(slot) => f % slot.period.max(1) == g % slot.period.max(1),
    }
}

/// How much of a text slot frame `f` shows: none, all, or (while typing)
/// a stage of its own.
fn reveal_stage(reveal: Reveal, f: u32) -> u64 {
    match reveal {
        Reveal::All => 0,
        Reveal::Typed { from, .. } if f < from => 0,
        Reveal::Typed { to, .. } if f >= to => u64::MAX,
        Reveal::Typed { .. } => u64::from(f) + 1,
    }
}

/// For each step of a plan (its template frames), the earlier step that
/// draws the same picture, if any.
pub(super) fn earlier_same(template: &Template, template_frames: &[u32]) -> Vec<Option<usize>> {
    template_frames
        .iter()
        .enumerate()
        .map(|(i, &f)| {
            template_frames[..i]
                .iter()
                .position(|&g| same_look(template, f, g))
        })
        .collect()
}

/// Most placements of moving art kept ([`placed_art`]): the templates'
/// placements are fixed data, so this is only a guard.
const MAX_PLACED: usize = 64;

/// Art drawn at a placement: its top-left whole pixel and the pixmap.
pub(super) type Placed = Arc<(i32, i32, Pixmap)>;

/// A piece of art and a placement (its six numbers' bits).
type PlacedKey = (Art, [u32; 6]);

/// Art drawn at placements of moving art layers, by art and placement.
static PLACED: Mutex<Vec<(PlacedKey, Placed)>> = Mutex::new(Vec::new());

/// `art` (its pixmap `pix`) drawn at `place` (scaled, rotated, with its
/// opacity: what drawing it on the canvas there blends) on a transparent
/// pixmap covering the placement, with that pixmap's whole-pixel corner;
/// drawn once per process and kept. `None` when [`MAX_PLACED`] are kept
/// (the caller draws it itself) or the placement covers no pixel.
pub(super) fn placed_art(art: Art, pix: &Pixmap, place: &Place) -> Option<Placed> {
    let key = (
        art,
        [
            place.x,
            place.y,
            place.w,
            place.h,
            place.rotation,
            place.opacity,
        ]
        .map(f32::to_bits),
    );
    let mut kept = PLACED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, p)) = kept.iter().find(|(k, _)| *k == key) {
        return Some(Arc::clone(p));
    }
    if kept.len() >= MAX_PLACED {
        return None;
    }
    let (aw, ah) = (pix.width() as f32, pix.height() as f32);
    let t = place_transform(place, aw, ah);
    // The corners of the placed art, and one pixel around for the filter.
    let corners = [(0.0, 0.0), (aw, 0.0), (0.0, ah), (aw, ah)]
        .map(|(x, y)| (t.sx * x + t.kx * y + t.tx, t.ky * x + t.sy * y + t.ty));
    let fold = |pick: fn(&(f32, f32)) -> f32, init: f32, f: fn(f32, f32) -> f32| {
        corners.iter().map(pick).fold(init, f)
    };
    let left = fold(|c| c.0, f32::MAX, f32::min).floor() as i32 - 1;
    let top = fold(|c| c.1, f32::MAX, f32::min).floor() as i32 - 1;
    let right = fold(|c| c.0, f32::MIN, f32::max).ceil() as i32 + 1;
    let bottom = fold(|c| c.1, f32::MIN, f32::max).ceil() as i32 + 1;
    let mut out = Pixmap::new((right - left).max(1) as u32, (bottom - top).max(1) as u32)?;
    let paint = PixmapPaint {
        opacity: place.opacity.clamp(0.0, 1.0),
        quality: FilterQuality::Bilinear,
        ..PixmapPaint::default()
    };
    out.draw_pixmap(
        0,
        0,
        pix.as_ref(),
        &paint,
        t.post_translate(-left as f32, -top as f32),
        None,
    );
    let placed = Arc::new((left, top, out));
    kept.push((key, Arc::clone(&placed)));
    Some(placed)
}

#[cfg(test)]
mod tests {
    use super::super::{Canvas, TemplateKind, blit_exact, draw_art, render_template_frames};
    use super::{Art, Layer, placed_art, same_look};
    use crate::RgbaImage;

    fn avatar() -> RgbaImage {
        RgbaImage::from_fn(80, 80, |x, y| {
            image::Rgba([(x * 3) as u8, (y * 3) as u8, ((x * y) % 256) as u8, 255])
        })
    }

    /// The part of `frame` at `(x, y)`, `w` × `h`, and whether every pixel
    /// around it is transparent.
    fn cut(frame: &RgbaImage, (x, y): (u32, u32), (w, h): (u32, u32)) -> (RgbaImage, bool) {
        let part = image::imageops::crop_imm(frame, x, y, w, h).to_image();
        let clear = frame
            .enumerate_pixels()
            .all(|(px, py, p)| (x..x + w).contains(&px) && (y..y + h).contains(&py) || p.0[3] == 0);
        (part, clear)
    }

    /// Whether `frame` and `other` are the same outside the `w` × `h`
    /// rectangle at `(x, y)`.
    fn same_around(
        frame: &RgbaImage,
        other: &RgbaImage,
        (x, y): (u32, u32),
        (w, h): (u32, u32),
    ) -> bool {
        frame.enumerate_pixels().all(|(px, py, p)| {
            (x..x + w).contains(&px) && (y..y + h).contains(&py) || p == other.get_pixel(px, py)
        })
    }

    /// Triggered's shake moves one picture: every frame shows the same
    /// picture (the tinted avatar) at a place of its own above the banner,
    /// which stays where it is, and every pixel is opaque (the first frame
    /// around the picture), even over an avatar with transparent corners;
    /// the 12 places all differ, and so do the 12 steps between them (the
    /// loop's included), each a jump.
    #[test]
    fn triggered_shakes_one_picture_between_twelve_places() {
        let t = TemplateKind::Triggered.template();
        let args = t.args(|_| None).unwrap();
        let a = avatar();
        let mut holed = avatar();
        for (x, y) in [(0, 0), (79, 0), (0, 79), (79, 79), (40, 40)] {
            holed.put_pixel(x, y, image::Rgba([0, 0, 0, 0]));
        }
        for (k, (frame, _)) in render_template_frames(t, &args, &[(&holed, 0)], None)
            .unwrap()
            .iter()
            .enumerate()
        {
            assert!(
                frame.pixels().all(|p| p.0[3] == 255),
                "frame {k} is see-through"
            );
        }
        let frames = render_template_frames(t, &args, &[(&a, 0)], None).unwrap();
        assert_eq!(frames.len(), 12);
        let size = t.content_size();
        assert!(size.0 < 512 && size.0 >= 480 && size.1 < size.0);
        let places: Vec<(u32, u32)> = (0..12).map(|k| t.offset(k)).collect();
        let (picture, _) = cut(&frames[0].0, places[0], size);
        let banner = |f: &RgbaImage| image::imageops::crop_imm(f, 0, 400, 512, 112).to_image();
        for (k, (frame, delay)) in frames.iter().enumerate() {
            assert_eq!((frame.dimensions(), *delay), ((512, 512), 40));
            assert!(
                places[k].1 + size.1 <= 400,
                "the picture reaches the banner"
            );
            let (part, _) = cut(frame, places[k], size);
            assert!(part == picture, "frame {k}");
            assert!(
                same_around(frame, &frames[0].0, places[k], size),
                "frame {k}"
            );
            assert!(
                banner(frame) == banner(&frames[0].0),
                "frame {k}'s banner moved"
            );
            assert!(same_look(t, k as u32, 0));
        }
        let steps: Vec<(i64, i64)> = (0..12)
            .map(|k| {
                let (a, b) = (places[k], places[(k + 1) % 12]);
                (
                    i64::from(b.0) - i64::from(a.0),
                    i64::from(b.1) - i64::from(a.1),
                )
            })
            .collect();
        for k in 0..12 {
            assert!(!places[..k].contains(&places[k]), "place {k} again");
            assert!(!steps[..k].contains(&steps[k]), "step {k} again");
            let (dx, dy) = steps[k];
            assert!(dx * dx + dy * dy >= 12 * 12, "step {k} is small");
            assert!(
                places[k].0.is_multiple_of(2) && places[k].1.is_multiple_of(2),
                "odd place {k}"
            );
        }
        // The still (format=png) is the first frame.
        let still = super::super::render_template(t, &args, Some(&a)).unwrap();
        assert!(still == frames[0].0);
    }

    /// Triggered's red reads at a glance: a mid-grey avatar comes out
    /// clearly red in the picture and around it.
    #[test]
    fn triggered_reads_red() {
        let t = TemplateKind::Triggered.template();
        let args = t.args(|_| None).unwrap();
        let grey = RgbaImage::from_pixel(64, 64, image::Rgba([128, 128, 128, 255]));
        let frame = super::super::render_template(t, &args, Some(&grey)).unwrap();
        let (x, y) = t.offset(0);
        let inside = frame.get_pixel(x + 200, y + 200);
        let around = frame.get_pixel(2, 2);
        for p in [inside, around] {
            assert!(
                i32::from(p[0]) - i32::from(p[1].max(p[2])) >= 90,
                "{p:?} is not red enough"
            );
        }
    }

    /// Over an animated avatar every frame draws its own picture (the
    /// avatar frame of its time), still at the frame's place of the shake,
    /// over the first frame as that avatar frame draws it.
    #[test]
    fn triggered_over_an_animated_avatar_shakes_each_avatar_frame() {
        let t = TemplateKind::Triggered.template();
        let args = t.args(|_| None).unwrap();
        let a = avatar();
        let b = RgbaImage::from_pixel(80, 80, image::Rgba([30, 200, 60, 255]));
        // 100 ms a frame: 12 frames of 40 ms show a, a, a, b, b, b (from
        // 120 ms, then 240 ms)...
        let source = [(&a, 100), (&b, 100)];
        let frames = render_template_frames(t, &args, &source, None).unwrap();
        assert_eq!(frames.len(), 12);
        let size = t.content_size();
        let alone = |img: &RgbaImage| {
            render_template_frames(t, &args, &[(img, 0)], None).unwrap()[0]
                .0
                .clone()
        };
        let (first_a, first_b) = (alone(&a), alone(&b));
        let (pa, _) = cut(&first_a, t.offset(0), size);
        let (pb, _) = cut(&first_b, t.offset(0), size);
        assert!(pa != pb);
        for (k, (frame, _)) in frames.iter().enumerate() {
            let (part, _) = cut(frame, t.offset(k as u32), size);
            let (want, first) = match (k * 40 / 100) % 2 == 0 {
                true => (&pa, &first_a),
                false => (&pb, &first_b),
            };
            assert!(part == *want, "frame {k}");
            assert!(
                same_around(frame, first, t.offset(k as u32), size),
                "frame {k}"
            );
        }
    }

    /// The pat comes back up through the poses it went down by: those
    /// frames are copies, the same as drawing them.
    #[test]
    fn petpet_frames_on_the_way_back_are_those_on_the_way_down() {
        let t = TemplateKind::Petpet.template();
        let args = t.args(|_| None).unwrap();
        let a = avatar();
        let frames = render_template_frames(t, &args, &[(&a, 0)], None).unwrap();
        assert_eq!(frames.len(), 10);
        for k in 1..5 {
            assert!(same_look(t, k, 10 - k));
            assert!(frames[k as usize].0 == frames[10 - k as usize].0, "{k}");
        }
        // Over an animated avatar nothing is copied: each frame shows the
        // avatar frame of its time (frame 1 at 40 ms the second, frame 9
        // at 360 ms the first).
        let b = RgbaImage::from_pixel(80, 80, image::Rgba([200, 30, 30, 255]));
        let source = [(&a, 40), (&b, 40), (&a, 40)];
        let frames = render_template_frames(t, &args, &source, None).unwrap();
        assert!(frames[1].0 != frames[9].0);
    }

    /// Moving art drawn once at its placement and copied is what drawing it
    /// there gives, within a level.
    #[test]
    fn placed_art_is_the_art_drawn_there() {
        let t = TemplateKind::Petpet.template();
        let Some(Layer::Art { art, motion }) = t.layers.last() else {
            panic!("petpet ends with its hand");
        };
        assert_eq!(*art, Art::Hand);
        let pix = super::super::art::cached(*art);
        for place in motion.iter() {
            let mut base = Canvas::new(256, 256).unwrap();
            for (i, px) in base.pixmap.data_mut().chunks_exact_mut(4).enumerate() {
                px.copy_from_slice(&[(i % 251) as u8, (i / 256) as u8, 120, 255]);
            }
            let mut direct = Canvas::from_layer(&base.pixmap);
            draw_art(&mut direct, pix, place);
            let placed = placed_art(*art, pix, place).expect("room for the placements");
            blit_exact(&mut base.pixmap, &placed.2, placed.0, placed.1, 1.0);
            let worst = base
                .pixmap
                .data()
                .iter()
                .zip(direct.pixmap.data())
                .map(|(a, b)| a.abs_diff(*b))
                .max()
                .unwrap();
            assert!(worst <= 2, "{place:?}: {worst}");
        }
    }
}
